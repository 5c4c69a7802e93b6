"""Overlay drawing: ghost tiles for suggestions; dead openings outlined, never filled."""

from __future__ import annotations

import numpy as np

from engine.lattice import Cell
from vision.reading import Reading
from vision.render import DEAD, draw_overlay


def _reading() -> Reading:
    # lattice unit = 100 px, origin at (300, 300), table y up = image y down; no tiles
    h = np.array([[100.0, 0.0, 300.0], [0.0, -100.0, 300.0], [0.0, 0.0, 1.0]])
    return Reading("x.png", 800, 600, homography=h)


def _inside(reading: Reading, cell: Cell) -> tuple[int, int]:
    """The cell's centre pixel (x, y): no digit there, and no label is drawn in the test."""
    q = reading.cell_px(cell).mean(axis=0).round().astype(int)
    return int(q[0]), int(q[1])


def test_live_ghost_is_filled_and_dead_one_only_outlined() -> None:
    img = np.full((600, 800, 3), 40, np.uint8)
    r = _reading()
    live, dead = (0, 0, "U"), (2, 0, "U")
    out = draw_overlay(img, r, [(live, (1, 2, 3), ""), (dead, (4, 4, 5), "", False)])
    x, y = _inside(r, live)
    b, g, rr = out[y, x].astype(int)
    assert b > 90 and rr > 90 and g < 60  # magenta tint
    x, y = _inside(r, dead)
    assert (out[y, x] == 40).all()  # untouched inside
    p = r.cell_px(dead)
    e = ((p[1] + p[2]) / 2).round().astype(int)  # middle of its bottom side: grey outline
    patch = out[e[1] - 2:e[1] + 3, e[0] - 2:e[0] + 3].reshape(-1, 3).astype(int)
    assert (np.abs(patch - np.array(DEAD)).max(axis=1) < 30).any()
