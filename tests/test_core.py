"""Tiles, lattice and Board basics (the foundation every other part relies on)."""

from __future__ import annotations

import pytest

from engine import Board, ParseError, Status, Tile, get_rules, parse_rack, tile_set
from engine.lattice import (
    across_edge,
    cell_corners,
    cell_from_vertices,
    cells_around,
    edge_neighbours,
    parse_cell,
    transform_cell,
    vertex_xy,
)


def test_set_sizes_and_mirrors() -> None:
    assert len(tile_set("standard")) == 56
    assert len(tile_set("extended")) == 76
    assert Tile.parse("0-2-1") not in tile_set("standard")
    assert Tile.parse("0-2-1") in tile_set("extended")
    assert Tile.parse("201") == Tile.parse("0-1-2")  # rotation, same tile
    assert Tile.parse("0-1-2").mirror() == Tile.parse("0-2-1")


@pytest.mark.parametrize("bad", ["", "0-1", "0-1-6", "a-b-c", "0-1-2-3"])
def test_bad_tiles(bad: str) -> None:
    with pytest.raises(ParseError):
        Tile.parse(bad)


def test_rack() -> None:
    assert parse_rack("0-1-2, 345") == [Tile.parse("0-1-2"), Tile.parse("3-4-5")]


@pytest.mark.parametrize("cell", [(0, 0, "U"), (0, 0, "D"), (3, -2, "U"), (-1, 4, "D")])
def test_lattice_geometry(cell: tuple[int, int, str]) -> None:
    cs = cell_corners(cell)
    assert cell_from_vertices(cs) == cell
    p = [vertex_xy(v) for v in cs]
    area2 = (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[1][1] - p[0][1]) * (p[2][0] - p[0][0])
    assert area2 < 0  # clockwise seen from above (y up)
    for k, n in enumerate(edge_neighbours(cell)):
        assert len(set(cell_corners(n)) & set(cs)) == 2
        assert cs[k] not in cell_corners(n)  # neighbour k is across the edge opposite corner k
        # across_edge: that neighbour and its fourth vertex of the rhombus the two make
        nb, far = across_edge(cell, k)
        assert nb == n and far in cell_corners(n) and far not in cs
        a, b = vertex_xy(cs[(k + 1) % 3]), vertex_xy(cs[(k + 2) % 3])
        assert vertex_xy(far) == pytest.approx((a[0] + b[0] - p[k][0], a[1] + b[1] - p[k][1]))
    for v in cs:
        assert cell in cells_around(v)


def test_design_card_examples() -> None:
    assert cell_corners((0, 0, "U")) == ((0, 1), (1, 0), (0, 0))
    assert cell_corners((0, 0, "D")) == ((1, 0), (0, 1), (1, 1))
    assert set(cells_around((0, 0))) == {(0, 0, "U"), (-1, 0, "U"), (0, -1, "U"),
                                         (-1, 0, "D"), (-1, -1, "D"), (0, -1, "D")}
    assert parse_cell("0,-2,D") == (0, -2, "D")


def test_rotation_keeps_handedness() -> None:
    cell, digits = (0, 0, "U"), (1, 2, 3)
    for turns in range(6):
        _, d = transform_cell(cell, digits, turns, (2, -1))
        assert Tile.from_digits(d) == Tile.parse("1-2-3")


def test_board_violations() -> None:
    b = Board()
    b.put((0, 0, "U"), (5, 5, 5))
    b.put((0, 0, "D"), (5, 5, 2))
    assert b.status() == Status.VALID
    b.put((1, 0, "U"), (1, 2, 3))  # shares edge with D(0,0) but digits disagree
    assert b.status() & Status.CORNER_MISMATCH
    b2 = Board()
    b2.put((0, 0, "U"), (5, 5, 5))
    b2.put((1, 0, "U"), (5, 4, 4))  # corner-only: shares vertex (1,0)
    kinds = b2.status()
    assert kinds & Status.CORNER_ONLY and kinds & Status.DISCONNECTED


def test_board_json_errors() -> None:
    with pytest.raises(ParseError, match="unknown format"):
        Board.loads('{"format": "triominos-board/9", "tiles": []}')
    with pytest.raises(ParseError, match="given twice"):
        Board.loads('{"format": "triominos-board/1", "tiles": ['
                    '{"cell": [0,0,"U"], "corners": [1,1,1]},'
                    '{"cell": [0,0,"U"], "corners": [2,2,2]}]}')
    with pytest.raises(ParseError, match="not in the standard set"):
        Board.loads('{"format": "triominos-board/1", "tiles": ['
                    '{"cell": [0,0,"U"], "corners": [0,2,1]}]}')
    with pytest.raises(ParseError, match="empty"):
        Board.loads("  ")


def test_rules_lookup() -> None:
    assert get_rules("PRESSMAN").pocket_bonus == 40
    assert get_rules("default").name == "goliath"
    with pytest.raises(ParseError, match="unknown rule edition"):
        get_rules("monopoly")
    assert get_rules("goliath", ["hexagon_bonus=55"]).hexagon_bonus == 55
    with pytest.raises(ParseError):
        get_rules("goliath", ["nonsense=1"])
