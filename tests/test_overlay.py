"""Overlay drawing: ghost tiles for suggestions; dead openings outlined, never filled."""

from __future__ import annotations

import numpy as np
import pytest

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


def test_a_board_in_pieces_draws_the_pieces_apart_red_not_the_board() -> None:
    # "the board is in pieces" names one cell of each piece: the overlay draws every tile
    # of the pieces apart red, and none of the board's own piece
    from engine.lattice import cell_corners, vertex_xy
    from vision.reading import TileReading
    from vision.render import _cells_of_violations
    r = _reading()
    assert r.homography is not None

    def tile(cell: Cell, digits: list[int]) -> TileReading:
        px = np.array([(r.homography @ [*vertex_xy(v), 1.0])[:2] for v in cell_corners(cell)])
        return TileReading(cell, list(digits), px, [0.95] * 3, np.zeros((3, 7), np.float32))

    # a board of two tiles agreeing on their shared edge, and two tiles set down apart
    r.tiles = [tile((0, 0, "U"), [1, 2, 3]), tile((0, 0, "D"), [2, 1, 2]),
               tile((3, 0, "U"), [0, 0, 5]), tile((3, 0, "D"), [0, 0, 0])]
    kinds = [v.kind.name for v in r.board_violations()]
    assert kinds == ["DISCONNECTED"]
    assert _cells_of_violations(r) == {(3, 0, "U"), (3, 0, "D")}


def test_cells_at_the_photos_edge_are_the_ones_it_cannot_judge(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from engine import Placement, get_rules
    from engine.lattice import cells_around
    from engine.referee import check_placement
    from vision import commands
    from vision.reading import TileReading
    r = _reading()  # 800 x 600, a lattice unit 100 px, vertex (0,0) at (300, 300)
    tile = (-2, 0, "U")  # corners at x 100..200: in view
    r.tiles = [TileReading(tile, [1, 2, 3], r.cell_px(tile), [0.9] * 3, np.zeros((3, 7)))]
    monkeypatch.setitem(commands._READINGS, "t.png", r)
    # -3,0,U (x 0..100): its centre in view, but the cells beside its corner (-3,0), at
    # x = 0, would show their corners there at x < 0; 0,0,D: mid-photo; -5,0,U: its
    # centre beyond the edge; -3,0,D (x 50..150): every corner it meets in view
    cells = [(-3, 0, "U"), (0, 0, "D"), (-5, 0, "U"), (-3, 0, "D")]
    assert commands.beyond_photo("t.png", cells) == {(-3, 0, "U"), (-5, 0, "U")}
    # tiles read there (in part) are known, not beyond
    for c in cells_around((-3, 0)):
        if c not in ((-3, 0, "U"), tile):
            r.tiles.append(TileReading(c, [None] * 3, r.cell_px(c), [0.0] * 3,
                                       np.zeros((3, 7)), ["partial"]))
    assert commands.beyond_photo("t.png", [(-3, 0, "U")]) == set()
    assert commands.beyond_photo("not-read.json", cells) == set()
    # a check there is not confirmed
    b = r.board
    res = commands.photo_check("t.png", check_placement(b, Placement((-5, 0, "U"), (0, 4, 1)),
                                                        get_rules()))
    assert res.placement is not None
    assert not res.ok and "lies at or beyond the photo's edge" in res.unverified[-1]
    mid = commands.photo_check("t.png", check_placement(b, Placement((-3, 0, "D"), (2, 5, 1)),
                                                        get_rules()))
    assert mid.placement is not None
    assert not any("photo's edge" in u for u in mid.unverified)


def test_tiles_to_check_are_yellow_an_outline_inferred_alone_green() -> None:
    # the overlay colours what `read` names under "to check": a tile flagged for an unsure
    # digit yellow; one flagged only for its outline inferred from the lattice green
    from engine.lattice import cell_corners, vertex_xy
    from vision.reading import OUTLINE_INFERRED, TileReading
    from vision.render import _coloured
    r = _reading()
    assert r.homography is not None

    def tile(cell: Cell, flags: list[str]) -> TileReading:
        px = np.array([(r.homography @ [*vertex_xy(v), 1.0])[:2] for v in cell_corners(cell)])
        return TileReading(cell, [1, 2, 3], px, [0.95] * 3, np.zeros((3, 7), np.float32),
                           flags)

    r.tiles = [tile((0, 0, "U"), [OUTLINE_INFERRED]),
               tile((0, 0, "D"), ["corner 1: low confidence 0.41 for 2", OUTLINE_INFERRED])]
    colours = {t.cell: c for t, c in _coloured(r, set())}
    assert colours == {(0, 0, "U"): (60, 220, 60), (0, 0, "D"): (0, 220, 255)}


def test_a_check_resting_on_a_digit_to_check_is_not_confirmed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a placement is confirmed only on digits read plainly: one it meets on a tile `read`
    # names under "to check" leaves it unconfirmed (the whole tile is in doubt, whichever
    # corner its flag names); an outline inferred, a tile it does not meet, or what a tile
    # seen in part hides (the engine's own unverified) does not
    from engine import Placement, get_rules
    from engine.referee import check_placement
    from engine.tiles import Tile
    from vision import commands
    from vision.reading import HIDDEN_CORNER, OUTLINE_INFERRED, TileReading
    r = _reading()

    def tile(cell: Cell, digits: list[int | None], flags: list[str]) -> TileReading:
        return TileReading(cell, digits, r.cell_px(cell), [0.9] * 3, np.zeros((3, 7)), flags)

    # 0,0,U = 1,2,3 at its corners (0,1), (1,0), (0,0); the placement 0,0,D = 2,1,1 at
    # (1,0), (0,1), (1,1) meets it along an edge. 3,0,U lies apart, 1,0,U is seen in part
    # (corner (1,1) hidden: the placement meets it there, at a digit not seen; its 2 at
    # (1,0) agrees with 0,0,U)
    r.tiles = [tile((0, 0, "U"), [1, 2, 3], [OUTLINE_INFERRED]),
               tile((3, 0, "U"), [4, 4, 4], ["corner 0: low confidence 0.41 for 4"]),
               tile((1, 0, "U"), [None, 1, 2], ["partial", HIDDEN_CORNER])]
    monkeypatch.setitem(commands._READINGS, "t.png", r)
    rules = get_rules()
    placed = Placement((0, 0, "D"), (2, 1, 1))

    def check() -> object:
        return commands.photo_check("t.png", check_placement(r.board, placed, rules))

    res = check()
    assert res.legal and not any("to check" in u for u in res.unverified)  # type: ignore[attr-defined]
    r.tiles[0].flags.append("corner 2: low confidence 0.52 for 3")  # a corner not met
    res = check()
    assert res.legal and not res.ok  # type: ignore[attr-defined]
    assert res.unverified[-1] == (  # type: ignore[attr-defined]
        "0,0,U's corners 0 and 1 (read 1 and 2), which the placement meets, lie on a tile "
        "to check: corner 2: low confidence 0.52 for 3")
    # the tile placed, to check in the second photo (found there by which tile it is)
    r.tiles[0].flags[:] = [OUTLINE_INFERRED]
    after = _reading()
    after.tiles = [TileReading((5, 5, "D"), [1, 1, 2], after.cell_px((5, 5, "D")), [0.9] * 3,
                               np.zeros((3, 7)), ["corner 2: low confidence 0.52 for 2"])]
    assert after.tiles[0].tile == Tile.parse("1-1-2")
    monkeypatch.setitem(commands._READINGS, "a.png", after)
    res = commands.photo_check("t.png", check_placement(r.board, placed, rules), "a.png")
    assert res.unverified[-1] == ("the tile placed, 1-1-2, is to check in the second photo: "
                                  "corner 2: low confidence 0.52 for 2")
