"""Tiles on the board's lattice apart from it: reported as placed where the table shows."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from engine.lattice import Cell, cell_corners, cells_around, edge_neighbours, vertex_xy
from vision.apart import APART_IN_VIEW, LOOSE_ON_LATTICE, drop_on_table, judge_pieces
from vision.config import DEFAULT
from vision.reading import (
    BESIDE_SHOWN_DIGIT,
    JOINED_BY_LATTICE,
    JOINED_OUT_OF_SIGHT,
    MOVED_CROP,
    OUTLINE_INFERRED,
    Reading,
    TileReading,
)
from vision.spots import spots_of

#: lattice (x, y, 1) -> pixels: 60 px a side, y down the photo
H = np.array([[60.0, 0.0, 260.0], [0.0, -60.0, 220.0], [0.0, 0.0, 1.0]])
BOARD: list[Cell] = [(0, 0, "U"), *edge_neighbours((0, 0, "U"))]
JOINED = f"{JOINED_BY_LATTICE}: lies on the board's lattice apart from it"


def _px(cell: Cell) -> np.ndarray:
    q = np.array([[*vertex_xy(v), 1.0] for v in cell_corners(cell)]) @ H.T
    return q[:, :2] / q[:, 2:3]


def _corner_only() -> Cell:
    """A free cell meeting the board at one vertex, with no edge neighbour on it, right."""
    near = {c for b in BOARD for v in cell_corners(b) for c in cells_around(v)} - set(BOARD)
    alone = [c for c in near if not set(edge_neighbours(c)) & set(BOARD)]
    return max(alone, key=lambda c: (_px(c)[:, 0].mean(), _px(c)[:, 1].mean()))


APART = _corner_only()
DIGIT = {v: n % 6 for n, v in enumerate(sorted({v for c in [*BOARD, APART]
                                                for v in cell_corners(c)}))}


def _tiles(flag: str | None = JOINED) -> list[TileReading]:
    return [TileReading(c, [DIGIT[v] for v in cell_corners(c)], _px(c), [0.99] * 3,
                        np.zeros((3, 7)), [flag] if c == APART and flag else [])
            for c in [*BOARD, APART]]


def _table(width: int = 520, height: int = 440, cloth: tuple[float, ...] = (40, 95, 35),
           more: tuple[Cell, ...] = (), apart: bool = True, dots: bool = False
           ) -> np.ndarray:
    """A cloth (BGR) with the tiles' ivory faces (slightly inside their cells) on it (the
    board's, APART's unless not ``apart``), and those of ``more`` (tiles the reader
    missed); with ``dots``, each face shows a dark dot where each of its digits lies."""
    rng = np.random.default_rng(5)
    img = np.clip(np.array(cloth, float) + rng.normal(0, 4, (height, width, 3)),
                  0, 255).astype(np.uint8)
    _lay(img, [*BOARD, *([APART] if apart else []), *more],
         digits=(4, (50, 50, 60), cv2.LINE_8) if dots else None)
    return img


def _lay(img: np.ndarray, cells: list[Cell], face: tuple[float, ...] = (215, 228, 232),
         digits: tuple[int, tuple[float, ...], int] | None = None, size: float = 0.93) -> None:
    """Draw on ``img`` (in place) a tile's face of colour ``face`` over each of ``cells``,
    ``size`` times the cell about its centre (a little inside it; over 1, something lying
    over it and beyond); with ``digits`` (radius, colour, OpenCV line type), a dot where
    each of its digits lies."""
    for c in cells:
        p = _px(c)
        m = p.mean(axis=0)
        cv2.fillConvexPoly(img, np.round(m + (p - m) * size).astype(np.int32), face)
        for q in spots_of(p[None])[0] if digits else []:
            cv2.circle(img, (int(round(q[0])), int(round(q[1]))), digits[0], digits[1], -1,
                       digits[2])


def _between() -> list[Cell]:
    return [n for n in edge_neighbours(APART) if n not in BOARD]


def _judge(img: np.ndarray, tiles: list[TileReading], cfg: object = DEFAULT,
           scale: float = 1.0) -> tuple[int, int]:
    reading = Reading("x", 520, 440, tiles=tiles, homography=H)
    return judge_pieces(cfg, lambda: img, reading, scale=scale)  # type: ignore[arg-type]


def _kinds(tiles: list[TileReading]) -> set[str]:
    return {v["kind"] for v in Reading("x", 520, 440, tiles=tiles).violations()}


def test_pieces_join_edge_to_edge_through_tiles_read_in_part() -> None:
    tiles = _tiles()
    assert [len(p) for p in Reading("x", 520, 440, tiles=tiles).pieces()] == [4, 1]
    n = next(n for n in _between() if set(edge_neighbours(n)) & set(BOARD))
    tiles.append(TileReading(n, [None, 1, 2], _px(n), [0.0, 0.9, 0.9], np.zeros((3, 7))))
    assert [len(p) for p in Reading("x", 520, 440, tiles=tiles).pieces()] == [6]
    # ... and the board as seen is one piece: no violation of how it joins
    assert not _kinds(tiles) & {"corner_only", "disconnected"}
    assert _judge(_table(), tiles) == (0, 0)  # nothing to judge


def test_of_two_pieces_the_same_size_the_one_read_in_full_is_the_boards_own() -> None:
    # dev 71000412: a hand over the board parts it into two pieces of 9 tiles, one with 4
    # tiles read in part (corners under the hand). The board's own piece (around which
    # the table is sampled to judge the other) is the one read in full, whichever holds
    # the lowest cell; read in full alike, the lowest cell's piece is first, as before
    near = [(0, 0, "U"), edge_neighbours((0, 0, "U"))[0]]
    far = [(6, 0, "U"), edge_neighbours((6, 0, "U"))[0]]

    def first(part: int) -> list[Cell]:
        tiles = [TileReading(c, [None if c == near[0] and k == 0 and part else k % 6
                                 for k in range(3)],
                             _px(c), [0.9] * 3, np.zeros((3, 7)))
                 for c in near + far]
        return sorted(t.cell for t in Reading("x", 520, 440, tiles=tiles).pieces()[0])

    assert first(part=1) == sorted(far)
    assert first(part=0) == sorted(near)


@pytest.mark.parametrize("flag", [JOINED, None])
def test_a_tile_touching_the_board_by_a_corner_in_plain_view_is_reported(
        flag: str | None) -> None:
    # joined by the lattice, or left unflagged: with the table in view between, reported
    tiles = _tiles(flag)
    assert ("corner_only" in _kinds(tiles)) == (flag is None)
    assert _judge(_table(), tiles) == (1, 0)
    (t,) = [t for t in tiles if t.cell == APART]
    assert t.flags == [APART_IN_VIEW]
    found = Reading("x", 520, 440, tiles=tiles).violations()
    assert any(v["kind"] == "corner_only" and list(APART) in v["cells"] for v in found)
    assert "disconnected" in _kinds(tiles)
    # the same on a copy at half size (the corners stay in original pixels)
    half = cv2.resize(_table(), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    assert _judge(half, _tiles(flag), scale=0.5) == (1, 0)
    # and nothing with the check off
    assert _judge(_table(), _tiles(flag), replace(DEFAULT, apart_in_view=False)) == (0, 0)


@pytest.mark.parametrize("flag", [JOINED, None])
def test_a_cell_between_cut_by_the_photo_edge_is_judged_by_its_part_in_view(
        flag: str | None) -> None:
    # dev faults 71000061: a tile touching the board by a corner near the photo's bottom
    # edge, one cell between cut by it: a tile lying there would cover the part in view,
    # which shows the table, so the corner-only placement is reported
    img = np.ascontiguousarray(_table()[:, :416])  # cell (2, 0, U) two-thirds in view
    assert any(_px(n)[:, 0].max() > 416 for n in _between())
    tiles = _tiles(flag)
    assert _judge(img, tiles) == (1, 0)
    assert [t.flags for t in tiles if t.cell == APART] == [[APART_IN_VIEW]]
    # only cells wholly in view judged (as before): taken as beyond the edge, joined
    # (where such a cell may always join: apart_edge_both off)
    tiles = _tiles(flag)
    wholly = replace(DEFAULT, apart_cell_in_view=1.0, apart_edge_both=False)
    assert _judge(img, tiles, wholly) == (0, 0 if flag else 1)


@pytest.mark.parametrize("flag", [JOINED, None])
def test_a_cell_beyond_the_edge_joins_only_where_the_rest_reaches_beyond_it_too(
        flag: str | None) -> None:
    # dev faults 71000337: a tile cut by the photo's edge touching the board by a corner,
    # the cells between in view and bare, only the cell on its far side beyond the edge.
    # Tiles beyond the edge could join it to the board only if the board too had a free
    # cell beyond it: here none has, so the corner-only placement is reported
    img = np.ascontiguousarray(_table()[:, :400])  # (2, 0, U) mostly beyond the edge
    tiles = _tiles(flag)
    assert _judge(img, tiles) == (1, 0)
    assert [t.flags for t in tiles if t.cell == APART] == [[APART_IN_VIEW]]
    # the board's own free cells below it beyond the bottom edge too: tiles beyond the
    # edges may join the two, so it stays joined out of sight
    tiles = _tiles(flag)
    assert _judge(np.ascontiguousarray(img[:235]), tiles) == (0, 0 if flag else 1)
    assert [t.flags for t in tiles if t.cell == APART] == [[flag or JOINED_OUT_OF_SIGHT]]
    # and as before with the rule off: a cell beyond the edge may always join
    tiles = _tiles(flag)
    assert _judge(img, tiles, replace(DEFAULT, apart_edge_both=False)) == (
        0, 0 if flag else 1)


def _over_between(img: np.ndarray, colour: tuple[int, int, int], flag: str | None) -> None:
    """Paint ``colour`` over the cells a tile joining APART to the board may lie in (a
    little beyond them), and check APART stays joined out of sight, no violation."""
    _lay(img, _between(), colour, size=1.1)
    tiles = _tiles(flag)
    assert _judge(img, tiles) == (0, 0 if flag else 1)
    (t,) = [t for t in tiles if t.cell == APART]
    assert t.flags == [flag or JOINED_OUT_OF_SIGHT]
    assert not _kinds(tiles) & {"corner_only", "disconnected"}


@pytest.mark.parametrize("flag", [JOINED, None])
def test_a_hand_over_the_cells_between_keeps_the_tile_joined(flag: str | None) -> None:
    _over_between(_table(), (105, 140, 195), flag)  # a hand reaching over them


@pytest.mark.parametrize("flag", [JOINED, None])
def test_glare_over_the_cells_between_keeps_the_tile_joined(flag: str | None) -> None:
    # dev 71000340: a glare patch blew out 8 board tiles on a cream marble table; their
    # cells, pure white, passed for the table and the board was reported "in 3 pieces".
    # A blown-out pixel has no colour left: a tile under the glare is as white
    img = _table(cloth=(192, 212, 226))
    _over_between(img, (255, 255, 255), flag)
    # the white passes for the cream table's colour: with the rule off (and judged by
    # colour alone, not also against the tiles' colour and digits), reported apart
    tiles = _tiles(flag)
    by_colour = replace(DEFAULT, apart_not_tile=False)
    assert _judge(img, tiles, replace(by_colour, apart_clipped=256)) == (1, 0)
    assert _judge(img, _tiles(flag), by_colour) == (0, 0 if flag else 1)
    # ... while the same table unglared, the cells in plain view, reports it with the rule on
    tiles = _tiles(flag)
    assert _judge(_table(cloth=(192, 212, 226)), tiles) == (1, 0)
    assert "disconnected" in _kinds(tiles)
    # and so does a table blown out white all round: there white is the table's colour
    tiles = _tiles(flag)
    assert _judge(_table(cloth=(255, 255, 255)), tiles) == (1, 0)


def _covered_corner(tiles: list[TileReading], none: float) -> None:
    """The board tile's corner at the vertex APART meets the board at reads "none" with
    probability ``none`` (a hand over it)."""
    (v,) = set(cell_corners(APART)) & {v for c in BOARD for v in cell_corners(c)}
    t = next(t for t in tiles if t.cell in BOARD and v in cell_corners(t.cell))  # type: ignore[arg-type]
    t.probs[cell_corners(t.cell).index(v), 6] = none  # type: ignore[arg-type]


@pytest.mark.parametrize("flag", [JOINED, None])
def test_a_corner_showing_no_digit_at_the_cells_between_keeps_the_tile_joined(
        flag: str | None) -> None:
    # dev 71000355: the tiles joining two pieces of the board lay under the fingers of a
    # hand the colour of the dark wood table, and the cells between passed for the table
    # ("the board is in 2 pieces"); the board tiles' corners at those cells, under the
    # hand too, showed no digit: something lies over them, and the tiles between may too
    tiles = _tiles(flag)
    _covered_corner(tiles, 0.9)
    assert _judge(_table(), tiles) == (0, 0 if flag else 1)
    (t,) = [t for t in tiles if t.cell == APART]
    assert t.flags == [flag or JOINED_OUT_OF_SIGHT]
    assert not _kinds(tiles) & {"corner_only", "disconnected"}
    # with the rule off, or that corner showing its digit: the table in plain view between
    for cfg, none in ((replace(DEFAULT, apart_covered_none=2.0), 0.9), (DEFAULT, 0.3)):
        tiles = _tiles(flag)
        _covered_corner(tiles, none)
        assert _judge(_table(), tiles, cfg) == (1, 0)
        assert "corner_only" in _kinds(tiles)


def _moved_corners(tiles: list[TileReading], two: bool) -> None:
    """Flag the board tile's corner at the vertex APART meets the board at as read from a
    crop moved off its outline (its own crop showed no digit); with ``two``, another
    corner of that tile too."""
    (v,) = set(cell_corners(APART)) & {v for c in BOARD for v in cell_corners(c)}
    t = next(t for t in tiles if t.cell in BOARD and v in cell_corners(t.cell))  # type: ignore[arg-type]
    ks = [cell_corners(t.cell).index(v)]  # type: ignore[arg-type]
    if two:
        ks.append((ks[0] + 1) % 3)
    t.flags += [f"corner {k}: {MOVED_CROP}" for k in ks]
    assert t.moved_from_none == sorted(ks)


def test_corners_read_from_crops_moved_off_a_tile_under_a_hand_still_count_as_covered() -> None:
    # dev 71000478: a tile's two corners under a hand showed no digit to their own crops
    # and were read from crops moved off its outline: the digits are known (their
    # probabilities no longer say "none"), but the hand still lies there, and over the
    # cells between the piece and the board ("in 2 pieces" before)
    for cfg, kept in ((DEFAULT, True), (replace(DEFAULT, apart_covered_moved=False), False)):
        tiles = _tiles(None)
        _moved_corners(tiles, two=True)
        assert _judge(_table(), tiles, cfg) == ((0, 1) if kept else (1, 0))
        assert ("corner_only" in _kinds(tiles)) is not kept
    # one corner so read alone is an outline askew there, not a hand (dev with faults
    # 71000222: the tile placed apart would go unreported)
    tiles = _tiles(None)
    _moved_corners(tiles, two=False)
    assert _judge(_table(), tiles) == (1, 0)
    assert "corner_only" in _kinds(tiles)
    # unless another of its corners shows no digit (that hand over the tile still; that
    # corner alone lies away from the cells between)
    for cfg, kept in ((DEFAULT, True), (replace(DEFAULT, apart_covered_moved=False), False)):
        tiles = _tiles(None)
        _moved_corners(tiles, two=False)
        t = next(t for t in tiles if t.moved_from_none)
        near = {w for n in _between() for w in cell_corners(n)}
        t.probs[next(k for k, w in enumerate(cell_corners(t.cell))  # type: ignore[arg-type]
                     if w not in near), 6] = 0.9
        assert _judge(_table(), tiles, cfg) == ((0, 1) if kept else (1, 0))


def test_with_too_little_table_in_view_only_a_covered_corner_is_judged() -> None:
    # dev 71000587: a hand over the middle of a board that fills the photo, too little
    # table in view to judge the cells between by colour: the pieces were reported as
    # they lie ("in 3 pieces"), though the tiles' corners beside them showed no digit
    few = replace(DEFAULT, apart_table_refs=99)  # (fewer table cells in view than that)
    tiles = _tiles(None)
    assert _judge(_table(), tiles, few) == (0, 0)  # nothing judged: reported as it lies
    assert "corner_only" in _kinds(tiles)
    tiles = _tiles(None)
    _covered_corner(tiles, 0.9)
    assert _judge(_table(), tiles, few) == (0, 1)
    assert [t for t in tiles if t.cell == APART][0].flags == [JOINED_OUT_OF_SIGHT]
    assert not _kinds(tiles) & {"corner_only", "disconnected"}
    tiles = _tiles(None)
    _covered_corner(tiles, 0.9)
    assert _judge(_table(), tiles, replace(few, apart_covered_unjudged=False)) == (0, 0)
    assert "corner_only" in _kinds(tiles)


def test_a_cell_between_mostly_beyond_the_photos_edge_keeps_the_tile_joined() -> None:
    right = max(float(_px(n)[:, 0].mean()) for n in _between())
    width = int(right) + 2  # the outer cell half beyond the edge, the tile in view
    assert _px(APART)[:, 0].max() < width
    # under apart_cell_in_view of the cell in view: a tile may lie beyond the edge (where
    # such a cell may always join, apart_edge_both off: here the board has none beyond)
    most = replace(DEFAULT, apart_cell_in_view=0.9, apart_edge_both=False)
    assert _judge(_table(width=width), _tiles(None), replace(most, apart_edge_both=True)
                  ) == (1, 0)
    tiles = _tiles(None)
    assert _judge(_table(width=width), tiles, most) == (0, 1)
    assert not _kinds(tiles) & {"corner_only", "disconnected"}
    assert _judge(_table(), _tiles(None), most) == (1, 0)
    # half in view is enough by default
    assert _judge(_table(width=width), _tiles(None)) == (1, 0)


def test_a_tile_missed_between_on_a_table_of_its_colour_is_no_bare_table() -> None:
    # light tiles on a light table: a tile the reader missed between the pieces is nearer
    # the tiles' colour than the table's, so the pieces may be one
    # (dev faults 71000269, 372: white tiles on laminate, the cell between bare: it shows
    # no digit, and a tile lying there would show three)
    beige = (196, 212, 220)
    n = next(n for n in _between() if set(edge_neighbours(n)) & set(BOARD))
    assert _judge(_table(cloth=beige, dots=True), _tiles(None)) == (1, 0)  # the table
    missed = _table(cloth=beige, more=(n,), dots=True)
    assert _judge(missed, _tiles(None)) == (0, 1)
    assert _judge(missed, _tiles(None), replace(DEFAULT, apart_not_tile=False)) == (1, 0)
    # a face there showing no digit (the dots drawn on the board's tiles only) is no tile
    # of the board: bare, unless the colour alone decides (apart_no_digit off)
    blank = _table(cloth=beige, dots=True)
    _lay(blank, [n])
    assert _judge(blank, _tiles(None)) == (1, 0)
    assert _judge(blank, _tiles(None), replace(DEFAULT, apart_no_digit=False)) == (0, 1)


#: a free cell touching no tile of the board (a cell between it and the board would hold
#: the tile joining them)
FAR: Cell = (-2, 0, "U")


def test_a_lone_tile_touching_no_tile_in_plain_view_is_off_the_board() -> None:
    # dev 71000856: a loose tile lying by chance on the board's lattice, two cells from
    # it, was joined by the lattice and reported as a board in two pieces; with the table
    # in view all round and no tile met at an edge or a corner, it is a tile off the board
    assert not {v for c in BOARD for v in cell_corners(c)} & set(cell_corners(FAR))
    digits = [4, 3, 4]

    def tiles() -> list[TileReading]:
        return [TileReading(c, [DIGIT.get(v, 0) for v in cell_corners(c)], _px(c), [0.99] * 3,
                            np.zeros((3, 7)), []) for c in BOARD] + [
            TileReading(FAR, digits, _px(FAR), [0.9, 0.8, 0.7],
                        np.arange(21.0).reshape(3, 7) / 100, [JOINED])]

    img = _table(more=(FAR,), apart=False)
    reading = Reading("x", 520, 440, tiles=tiles(), homography=H)
    judge_pieces(DEFAULT, lambda: img, reading)
    assert sorted(t.cell for t in reading.tiles) == sorted(BOARD)  # type: ignore[type-var]
    (t,) = reading.off_board
    assert t.cell is None and t.flags == [LOOSE_ON_LATTICE]
    assert not {v["kind"] for v in reading.violations()} & {"disconnected", "corner_only"}
    # the same tile, its corners clockwise on screen, each digit with its own corner
    v1, v2 = t.corner_px[1] - t.corner_px[0], t.corner_px[2] - t.corner_px[0]
    assert v1[0] * v2[1] - v1[1] * v2[0] > 0
    for k in range(3):
        j = int(np.argmin(np.linalg.norm(_px(FAR) - t.corner_px[k], axis=1)))
        assert (t.corners[k], t.confidence[k]) == (digits[j], [0.9, 0.8, 0.7][j])
        assert (t.probs[k] == (np.arange(21.0).reshape(3, 7) / 100)[j]).all()
    # without the rule: a piece apart in view, the board reported in pieces
    reading = Reading("x", 520, 440, tiles=tiles(), homography=H)
    judge_pieces(replace(DEFAULT, apart_lone_loose=False), lambda: img, reading)
    assert not reading.off_board and reading.tiles[-1].flags == [APART_IN_VIEW]
    assert "disconnected" in {v["kind"] for v in reading.violations()}
    # a hand over the cells around it: it may be joined under the hand, and stays
    _lay(img, list(edge_neighbours(FAR)), (105, 140, 195), size=1.1)
    reading = Reading("x", 520, 440, tiles=tiles(), homography=H)
    judge_pieces(DEFAULT, lambda: img, reading)
    assert not reading.off_board and reading.tiles[-1].flags == [JOINED]


def test_a_lone_tile_beside_a_cell_showing_a_digit_stays_on_the_board() -> None:
    # dev2 71000656: a tile lying apart on the board's lattice, fingers the dark wood's
    # colour over the cell beside it, whose crops show a digit between the fingers (the
    # reader flags the tile so). That cell holds a tile, whatever its colour: the lone tile
    # is joined through it, not a loose tile on the lattice by chance
    def tiles(*flags: str) -> list[TileReading]:
        return [TileReading(c, [DIGIT.get(v, 0) for v in cell_corners(c)], _px(c), [0.99] * 3,
                            np.zeros((3, 7)), []) for c in BOARD] + [
            TileReading(FAR, [4, 3, 4], _px(FAR), [0.9] * 3, np.zeros((3, 7)),
                        [JOINED, *flags])]

    img = _table(more=(FAR,), apart=False)  # the table's colour all round

    def judged(cfg: object, *flags: str) -> Reading:
        reading = Reading("x", 520, 440, tiles=tiles(*flags), homography=H)
        judge_pieces(cfg, lambda: img, reading)  # type: ignore[arg-type]
        return reading

    kept = judged(DEFAULT, BESIDE_SHOWN_DIGIT)
    assert not kept.off_board and kept.tiles[-1].flags == [JOINED, BESIDE_SHOWN_DIGIT]
    # by colour alone the cells around it are the table's: off the board
    moved = judged(replace(DEFAULT, apart_lone_digits=False), BESIDE_SHOWN_DIGIT)
    assert [t.flags[-1] for t in moved.off_board] == [LOOSE_ON_LATTICE]
    # not so flagged, it goes off the board as before
    assert [t.flags for t in judged(DEFAULT).off_board] == [[LOOSE_ON_LATTICE]]


def test_a_table_colour_shown_only_farther_from_the_board_is_still_the_tables() -> None:
    # dev faults 71000074: a tile set touching the board by a corner on a checked cloth's
    # dark square, the cells round the board on the light ones. The table's colours come
    # from the free cells up to apart_table_steps (4) from the board: two steps out, too
    # few of them showed the dark square's colour, and the tile passed for joined out of
    # sight
    img = _table()
    dark = np.clip(np.array((120.0, 60.0, 20.0))
                   + np.random.default_rng(1).normal(0, 4, img.shape), 0, 255).astype(np.uint8)
    square = np.zeros(img.shape[:2], bool)
    square[:, 310:] = True  # the tile apart and the cells between on the dark colour,
    square[:120] = True  # which shows again farther from the board
    img[square] = dark[square]
    _lay(img, [*BOARD, APART])  # the tiles lie on it
    tiles = _tiles(None)
    assert _judge(img, tiles) == (1, 0)
    assert [t.flags for t in tiles if t.cell == APART] == [[APART_IN_VIEW]]
    assert "corner_only" in _kinds(tiles)
    tiles = _tiles(None)
    assert _judge(img, tiles, replace(DEFAULT, apart_table_steps=2)) == (0, 1)
    assert [t.flags for t in tiles if t.cell == APART] == [[JOINED_OUT_OF_SIGHT]]


def test_the_tiles_colour_is_their_bodys_not_their_digits_ink() -> None:
    # dev faults 71000223: black tiles with gold digits on a light wood table, a tile set
    # touching the board by a corner. A pixel nearer the tiles' colour than the table's is
    # no proof of table (a light tile missed on a light table); the tiles' colour taken
    # from their whole faces took in the gold digits and their blend into the black, so
    # the wood between passed for a tile's colour. Their bodies' colour alone (within
    # apart_tile_body of each face's median lightness) leaves the wood the table's.
    # Here the table's hue turns across it, the digits' gold that of the table where the
    # tile lies; judged by colour alone (apart_no_digit off: on the dev photo, the wood's
    # grain made digit-like blobs)
    rng = np.random.default_rng(5)
    x = np.arange(520, dtype=float)[None, :] - 380
    img = np.zeros((440, 520, 3))
    img[..., 0] = 40 - 0.06 * x
    img[..., 1] = 100
    img[..., 2] = 150 + 0.2 * x
    img = np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    gold = tuple(float(v) for v in img[170:230, 370:390].reshape(-1, 3).mean(axis=0))
    _lay(img, [*BOARD, APART], (30, 30, 35), digits=(6, gold, cv2.LINE_AA))
    by_colour = replace(DEFAULT, apart_no_digit=False)
    tiles = _tiles(None)
    assert _judge(img, tiles, by_colour) == (1, 0)
    assert "corner_only" in _kinds(tiles)
    tiles = _tiles(None)
    assert _judge(img, tiles, replace(by_colour, apart_tile_body=0.0)) == (0, 1)
    assert [t.flags for t in tiles if t.cell == APART] == [[JOINED_OUT_OF_SIGHT]]


def test_a_tile_of_inferred_outline_on_a_cell_showing_the_table_is_dropped() -> None:
    # dev3 76000096: the lattice's candidate cell beside the board, bare granite, read 3, 5
    # and 2 by the classifier; the board overruled two of them and kept a 1-1-3 there. A
    # tile whose outline was inferred (no edge of it found), on a cell the table shows, is
    # not there; one the table does not show (a face, a hand) stays, as does any tile
    # whose outline was found
    n = next(n for n in _between() if set(edge_neighbours(n)) & set(BOARD))

    def dropped(img: np.ndarray, flags: list[str], cfg: object = DEFAULT,
                probs: np.ndarray | None = None) -> list[Cell]:
        tiles = [TileReading(c, [DIGIT.get(v, 0) for v in cell_corners(c)], _px(c),
                             [0.99] * 3, np.zeros((3, 7))) for c in BOARD]
        tiles.append(TileReading(n, [3, 1, 1], _px(n), [0.74, 0.09, 0.0],
                                 np.zeros((3, 7)) if probs is None else probs, list(flags)))
        reading = Reading("x", 520, 440, tiles=tiles, homography=H)
        gone = drop_on_table(cfg, lambda: img, reading)  # type: ignore[arg-type]
        kept = {t.cell for t in reading.tiles}
        assert gone == len(({n} | set(BOARD)) - kept) and set(BOARD) <= kept
        return sorted(({n} | set(BOARD)) - kept)  # type: ignore[type-var]

    bare = _table(apart=False)
    assert dropped(bare, [OUTLINE_INFERRED]) == [n]
    # ... the same on a copy at half size
    half = cv2.resize(bare, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    tiles = [TileReading(c, [0, 1, 2], _px(c), [0.9] * 3, np.zeros((3, 7)),
                         [OUTLINE_INFERRED] if c == n else []) for c in [*BOARD, n]]
    reading = Reading("x", 520, 440, tiles=tiles, homography=H)
    assert drop_on_table(DEFAULT, lambda: half, reading, scale=0.5) == 1
    assert n not in {t.cell for t in reading.tiles}
    # its outline found, it stays; so it does with the setting off
    assert dropped(bare, []) == []
    assert dropped(bare, [OUTLINE_INFERRED], replace(DEFAULT, drop_inferred_on_table=False)) == []
    # ... and with two of its digits its crops' own first choices (dev3 76000174: a
    # hand the dark wood's colour over its middle)
    shown = np.zeros((3, 7))
    shown[0, 3] = shown[1, 1] = 0.9
    assert dropped(bare, [OUTLINE_INFERRED], probs=shown) == []
    shown[1, 1] = 0.0
    assert dropped(bare, [OUTLINE_INFERRED], probs=shown) == [n]
    # ... but two read unclearly, each under drop_table_two_max, are the table's grain
    # (dev2 71000869: 0.76 and 0.72 on bare light wood); with the setting off they stay
    shown[0, 3], shown[1, 1] = 0.76, 0.72
    assert dropped(bare, [OUTLINE_INFERRED], probs=shown) == [n]
    assert dropped(bare, [OUTLINE_INFERRED], replace(DEFAULT, drop_table_two_max=0.0),
                   probs=shown) == []
    # a tile's face in the cell, or a hand over it: no table shown there, it stays
    face = _table(more=(n,), apart=False)
    assert dropped(face, [OUTLINE_INFERRED]) == []
    hand = _table(apart=False)
    _lay(hand, [n], (105, 140, 195), size=1.1)
    assert dropped(hand, [OUTLINE_INFERRED]) == []
    # ... nor a hand a little off the table's colour (dev 71000216: fingers over light
    # wood), which the pieces' judge takes for the table
    near = _table(apart=False)
    _lay(near, [n], (64, 152, 56), size=1.1)  # the cloth's colour, 60 % lighter
    assert dropped(near, [OUTLINE_INFERRED]) == []
    assert dropped(near, [OUTLINE_INFERRED], replace(DEFAULT, drop_table_near=1.0)) == [n]
    # ... nor a table barely off the tiles' colour (fresh 75000282: light grey tiles on
    # white marble), its pixels not nearer the table's colour by drop_tile_margin
    pale = _table(cloth=(200, 200, 200), apart=False)
    _lay(pale, BOARD, (206, 206, 206))
    assert dropped(pale, [OUTLINE_INFERRED]) == []
    assert dropped(pale, [OUTLINE_INFERRED], replace(DEFAULT, drop_tile_margin=0.0)) == [n]
    # ... but short of that margin, nearly all of its middle nearer the table by the
    # smaller drop_close_margin is the table (dev faults 71000151: bare light wood a
    # little off the tiles' colour); a face there stays
    wood = _table(cloth=(180, 205, 220), apart=False)
    assert dropped(wood, [OUTLINE_INFERRED]) == [n]
    assert dropped(wood, [OUTLINE_INFERRED], replace(DEFAULT, drop_close_share=2.0)) == []
    assert dropped(_table(cloth=(180, 205, 220), more=(n,), apart=False),
                   [OUTLINE_INFERRED]) == []
    # a table of the tiles' colour tells nothing by its colour, nor by showing no digits
    # (a tile's as blank under glare: dev3 76000052, a checked cloth's light squares)
    ivory = _table(cloth=(215, 228, 232), apart=False, dots=True).astype(float)
    ivory += np.random.default_rng(7).normal(0, 4, ivory.shape)  # the faces' grain too
    ivory = np.clip(ivory, 0, 255).astype(np.uint8)
    assert dropped(ivory, [OUTLINE_INFERRED]) == []
    # ... nor where a tile meeting the cell shows the table's colour in its light (the
    # board's other tiles lighter: onyx dev 73000043, black tiles on dark granite)
    grey = (90, 92, 95)
    touching = [c for c in BOARD if set(cell_corners(c)) & set(cell_corners(n))]
    for face, gone in (((215, 228, 232), [n]), (grey, [])):
        dim = _table(cloth=grey, apart=False).astype(float)
        _lay(dim, touching[:1], face)
        dim = np.clip(dim + np.random.default_rng(8).normal(0, 4, dim.shape), 0, 255)
        assert dropped(dim.astype(np.uint8), [OUTLINE_INFERRED]) == gone
    # ... and a cell showing the table over less than drop_table_min of its middle stays
    part = _table(apart=False)
    _lay(part, [n], size=0.4)  # half the middle a face
    assert dropped(part, [OUTLINE_INFERRED]) == []
    assert dropped(part, [OUTLINE_INFERRED], replace(DEFAULT, drop_table_min=0.3)) == [n]
    # without a homography, or too little table in view to judge by, nothing is dropped
    tiles = [TileReading(c, [0, 1, 2], _px(c), [0.9] * 3, np.zeros((3, 7)),
                         [OUTLINE_INFERRED] if c == n else []) for c in [*BOARD, n]]
    assert drop_on_table(DEFAULT, lambda: bare, Reading("x", 520, 440, tiles=tiles)) == 0
    assert dropped(bare, [OUTLINE_INFERRED], replace(DEFAULT, apart_table_refs=10**4)) == []


def test_a_board_of_inferred_outlines_judges_the_table_round_its_clearly_read_tiles() -> None:
    # onyx dev 73000152: a board of black tiles fitted to its silhouette, no edge of any
    # tile found, and a cell of bare granite beside it read 5 and 3 at 0.43, its third
    # corner no digit (taken as under a hand). With no outline found there was nothing
    # to judge the table round; the tiles read clearly at all three corners
    # (drop_table_read_min) are tiles whatever found them, and judged round those, the
    # cell shows the table
    n = next(n for n in _between() if set(edge_neighbours(n)) & set(BOARD))
    bare = _table(apart=False)

    def kept(cfg: object, sure: float) -> bool:
        tiles = []
        for c in BOARD:
            digits = [DIGIT[v] for v in cell_corners(c)]
            p = np.zeros((3, 7))
            p[np.arange(3), digits] = sure
            tiles.append(TileReading(c, list(digits), _px(c), [sure] * 3, p,
                                     [OUTLINE_INFERRED]))
        p = np.zeros((3, 7))
        p[0, 5] = p[1, 3] = 0.43
        p[2, 6] = 0.9
        tiles.append(TileReading(n, [5, 3, None], _px(n), [0.43, 0.43, 0.0], p,
                                 ["partial", OUTLINE_INFERRED]))
        reading = Reading("x", 520, 440, tiles=tiles, homography=H)
        gone = drop_on_table(cfg, lambda: bare, reading)  # type: ignore[arg-type]
        assert {t.cell for t in reading.tiles} >= set(BOARD)
        assert gone == (n not in {t.cell for t in reading.tiles})
        return n in {t.cell for t in reading.tiles}

    assert not kept(DEFAULT, 0.97)
    # with the part off, or no board tile read clearly at every corner, nothing is judged
    assert kept(replace(DEFAULT, drop_table_read_min=2.0), 0.97)
    assert kept(DEFAULT, 0.85)
