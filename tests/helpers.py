"""Small builders and markers shared by the tests."""

from __future__ import annotations

import pytest

from engine import Board, Placement
from vision.classifier import DEFAULT_MODEL

#: a test that reads photos with the shipped classifier
needs_model = pytest.mark.skipif(not DEFAULT_MODEL.exists(),
                                 reason="models/digits.onnx not shipped yet")


def board_of(*placements: str, set_name: str = "standard") -> Board:
    """A board from ``CELL=a,b,c`` / ``CELL:a-b-c`` notations (no rule check: tests assert)."""
    b = Board(set_name=set_name)
    for text in placements:
        p = Placement.parse(text, b)
        b.put(p.cell, p.corners)
    return b
