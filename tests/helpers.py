"""Small builders and markers shared by the tests."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine import Board, Placement
from vision.classifier import DEFAULT_MODEL
from vision.config import DEFAULT

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


#: the reader with the photo's frame counted as outlines' sides, as before stop 78: the
#: tests of parts whose photos the frame rule reads another way take their reads so
FRAMED = replace(DEFAULT, silhouette_frame_sides=True)


def dev_photo(seed: int, pins: dict[str, Any] | None = None, faults: bool = False) -> Any:
    """The synthetic photo ``seed`` as ``eval_reader`` renders it (``pins``: style keys
    pinned or restricted, as ``--style`` takes them; None: none; ``faults``: with its
    deliberate rule faults, as ``--faults`` renders it)."""
    from benchmarks.eval_reader import SIZE, _style
    from vision.synth import render
    return render(seed, size=SIZE, style=_style(seed, pins), faults=faults)


def onyx_dev(seed: int, **pins: Any) -> Any:
    """The dev photo ``seed`` of onyx tiles as ``eval_reader --style edition=onyx`` renders
    it (``pins``: more style keys pinned or restricted, as ``--style`` takes them)."""
    return dev_photo(seed, {"edition": "onyx", **pins})


def scored(s: Any, cfg: Any = DEFAULT) -> Any:
    """The synthetic photo ``s`` read with ``cfg`` and scored against its label."""
    from vision.batch import score_reading
    from vision.pipeline import read_array
    return score_reading("x", s.label, read_array(s.image, cfg, name="x").to_json())
