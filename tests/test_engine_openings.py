"""Hexagon openings: open, dead, mirror-only, conflicting; near-openings; brute-force oracle."""

from __future__ import annotations

import itertools
import random

import pytest
from helpers import board_of

from engine import Board, Placement, Tile, find_openings, get_rules, legal_placements
from engine.lattice import Cell, cell_corners, cells_around
from engine.positions import random_board

GOLIATH = get_rules()




# five of the six cells around (0,0); 0,-1,D=0,5,5 would close the ring
HEXAGON = ("0,0,U=5,5,5", "-1,0,U=4,5,1", "0,-1,U=5,0,1", "-1,0,D=5,4,5", "-1,-1,D=1,1,5")
# five cells around (0,0) whose gap needs the mirror tile 0-2-1
MIRROR = ("0,0,U=1,0,1", "-1,0,U=1,1,4", "0,-1,U=1,2,2", "-1,0,D=1,1,1", "-1,-1,D=2,4,1")
DOUBLE = ("-1,-1,D=0,1,5", "-1,0,D=5,1,2", "-1,0,U=1,5,1", "0,-1,D=5,5,5", "0,-1,U=5,5,0",
          "0,0,D=5,2,2", "1,-1,D=4,5,3", "1,-1,U=5,4,5", "1,0,U=2,3,5")


def test_open_hexagon() -> None:
    found = find_openings(board_of(*HEXAGON), GOLIATH)
    [o] = found.pending
    assert (o.cell, o.needs, o.tile, o.status, o.rings, o.figure, o.bonus) == (
        (0, -1, "D"), (0, 5, 5), Tile.parse("0-5-5"), "open", 1, "hexagon", 50)
    assert o.score is not None and o.score.total == 60
    assert o.placement == Placement((0, -1, "D"), (0, 5, 5))
    assert o.describe() == "tile 0-5-5 is unplayed: it scores 0+5+5 = 10, hexagon +50 = 60"
    assert find_openings(board_of(*HEXAGON), get_rules("kids")).pending[0].bonus == 1


def test_dead_opening_tile_already_on_the_board() -> None:
    b = board_of(*HEXAGON, "0,0,D=5,5,0")  # 0-5-5 played elsewhere
    [o] = find_openings(b, GOLIATH).pending
    assert (o.status, o.tile, o.on_board, o.score) == ("dead", Tile.parse("0-5-5"),
                                                       (0, 0, "D"), None)
    assert o.describe() == "dead: tile 0-5-5 is already on the board at 0,0,D"
    assert legal_placements(b, [Tile.parse("0-5-5")], GOLIATH) == []


def test_mirror_tile_opening_depends_on_the_set() -> None:
    [std] = find_openings(board_of(*MIRROR), GOLIATH).pending
    assert (std.status, std.tile) == ("not in set", Tile.parse("0-2-1"))
    assert std.describe() == "dead: no such tile in this set (0-2-1 is a mirror tile)"
    [ext] = find_openings(board_of(*MIRROR, set_name="extended"), GOLIATH).pending
    assert (ext.status, ext.score.total if ext.score else None) == ("open", 53)


def test_double_and_triple_openings() -> None:
    pend = {o.cell: o for o in find_openings(board_of(*DOUBLE), GOLIATH).pending}
    o = pend[(0, 0, "U")]
    assert (o.rings, o.figure, o.bonus, o.tile) == (2, "double hexagon", 60,
                                                    Tile.parse("2-5-5"))
    assert o.score is not None and o.score.total == 72
    assert all(p.rings == 1 for c, p in pend.items() if c != (0, 0, "U"))


def test_conflicting_neighbours() -> None:
    b = board_of(*HEXAGON)
    b.cells[(-1, -1, "D")] = (1, 1, 4)  # (0,0) now shows 5 and 4: the gap cannot be filled
    [o] = [p for p in find_openings(b, GOLIATH).pending if p.cell == (0, -1, "D")]
    assert o.status == "conflict" and o.placement is None
    assert o.describe() == "dead: the neighbours disagree at a corner"


def test_near_openings() -> None:
    b = board_of(*HEXAGON[:4])  # four of six: gaps -1,-1,D and 0,-1,D
    [n] = [n for n in find_openings(b, GOLIATH).near if n.vertex == (0, 0)]
    assert (n.cells, n.digit, n.bonus, n.completable) == (((-1, -1, "D"), (0, -1, "D")), 5,
                                                          50, True)
    assert n.needs == ((1, 1, 5), (0, 5, 5)) and n.candidates == (1, 1)
    # the tile 0,-1,D needs is played elsewhere: the ring can no longer be completed
    dead = b.copy()
    dead.put((0, 0, "D"), (5, 5, 0))
    [n] = [n for n in find_openings(dead, GOLIATH).near if n.vertex == (0, 0)]
    assert (n.candidates[1], n.completable) == (0, False)
    assert find_openings(b, GOLIATH, near=False).near == []


# ---- oracle ---------------------------------------------------------------------------

def pending_oracle(board: Board) -> dict[Cell, int]:
    out: dict[Cell, int] = {}
    for cell in {c for v in board.vertices() for c in cells_around(v)} - set(board.cells):
        rings = sum(all(c in board.cells or c == cell for c in cells_around(v))
                    for v in cell_corners(cell))
        if rings:
            out[cell] = rings
    return out


def completable_oracle(board: Board, gaps: tuple[Cell, Cell]) -> bool:
    def fits(b: Board, cell: Cell) -> list[tuple[int, int, int]]:
        return [r for t in b.unplayed() for r in t.rotations()
                if all(d == r[k] for k, v in enumerate(cell_corners(cell))
                       for d in b.digits_at(v).values())]
    for r1, r2 in itertools.product(fits(board, gaps[0]), fits(board, gaps[1])):
        after = board.copy()
        after.cells[gaps[0]], after.cells[gaps[1]] = r1, r2
        if after.is_valid():
            return True
    return False


@pytest.mark.parametrize("seed", range(8))
def test_openings_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    board = random_board(rng.choice([8, 20, 35]), seed=seed + 50, compact=rng.random(),
                         set_name=rng.choice(["standard", "extended"]))
    found = find_openings(board, GOLIATH)
    assert {o.cell: o.rings for o in found.pending} == pending_oracle(board)
    used = board.used()
    for o in found.pending:
        want = tuple(board.digits_at(v)[next(iter(board.digits_at(v)))]
                     for v in cell_corners(o.cell))
        assert o.needs == want
        assert o.status == ("open" if o.tile in set(board.unplayed()) else
                            "dead" if o.tile in used else "not in set")
    for n in found.near:
        assert sum(c not in board.cells for c in cells_around(n.vertex)) == 2
        assert n.completable == completable_oracle(board, n.cells)
