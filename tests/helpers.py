"""Small builders shared by the engine tests."""

from __future__ import annotations

from engine import Board, Placement


def board_of(*placements: str, set_name: str = "standard") -> Board:
    """A board from ``CELL=a,b,c`` / ``CELL:a-b-c`` notations (no rule check: tests assert)."""
    b = Board(set_name=set_name)
    for text in placements:
        p = Placement.parse(text, b)
        b.put(p.cell, p.corners)
    return b
