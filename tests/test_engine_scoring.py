"""Scoring: every worked example of the rule sheets, figures and the cases that are not."""

from __future__ import annotations

import pytest
from helpers import board_of

from engine import Board, ParseError, Placement, Tile, get_rules, is_legal, placement_problems
from engine.moves import legal_placements
from engine.scoring import score_pass, score_placement

GOLIATH, PRESSMAN, KIDS = get_rules("goliath"), get_rules("pressman"), get_rules("kids")




# Hand-built positions (found by labelling lattice points, so corners agree by construction).
# Bridge: 0,0,D matches 0,0,U along one edge; its opposite corner (1,1) touches 1,0,D.
BRIDGE = board_of("0,0,U=4,1,3", "0,-1,D=1,3,1", "1,-1,U=1,5,1", "1,-1,D=5,1,2",
                  "2,-1,U=2,5,5", "2,-1,D=5,2,3", "2,0,U=2,3,2", "1,0,D=2,4,2")
# Pocket: 0,0,D between 0,0,U and 1,0,U, which touch corner to corner at (1,0) (1,0,U was
# a bridge); joined the long way round, so the ring around (1,0) stays open at 1,-1,U.
POCKET = board_of("0,0,U=5,1,2", "0,-1,D=2,2,1", "0,-1,U=2,2,2", "0,-2,D=0,2,2",
                  "1,-2,U=2,0,0", "1,-2,D=0,2,3", "2,-2,U=3,5,0", "2,-2,D=5,3,3",
                  "2,-1,U=2,3,3", "1,-1,D=3,1,2", "1,0,U=1,2,1")
# Five of the six cells around vertex (0,0); 0,-1,D closes the ring.
HEXAGON = board_of("0,0,U=5,5,5", "-1,0,U=4,5,1", "0,-1,U=5,0,1", "-1,0,D=5,4,5",
                   "-1,-1,D=1,1,5")
# Rings around (0,0) and (1,0) but for 0,0,U, which lies in both.
DOUBLE = board_of("-1,-1,D=0,1,5", "-1,0,D=5,1,2", "-1,0,U=1,5,1", "0,-1,D=5,5,5",
                  "0,-1,U=5,5,0", "0,0,D=5,2,2", "1,-1,D=4,5,3", "1,-1,U=5,4,5",
                  "1,0,U=2,3,5")
# Rings around all three corners of 0,0,U but for 0,0,U itself (12 tiles).
TRIPLE = board_of("-1,-1,D=5,5,5", "-1,0,D=5,2,2", "-1,0,U=2,5,5", "-1,1,D=2,2,3",
                  "-1,1,U=2,2,2", "0,-1,D=4,5,4", "0,-1,U=5,4,5", "0,0,D=4,2,4",
                  "0,1,U=3,4,2", "1,-1,D=3,4,1", "1,-1,U=4,3,4", "1,0,U=4,1,4")


@pytest.mark.parametrize("board", [BRIDGE, POCKET, HEXAGON, DOUBLE, TRIPLE])
def test_hand_built_boards_are_valid(board: Board) -> None:
    assert board.is_valid(), [v.message for v in board.violations()]


def score(board: Board, text: str, rules: object = GOLIATH, **kw: object):  # noqa: ANN201
    p = Placement.parse(text, board)
    assert placement_problems(board, p, rules) == []  # type: ignore[arg-type]
    return score_placement(board, p, rules, **kw)  # type: ignore[arg-type]


def test_bridge_49() -> None:
    s = score(BRIDGE, "0,0,D:1-4-4")
    assert (s.total, s.figure, s.figure_bonus, s.tile_points) == (49, "bridge", 40, 9)
    assert s.breakdown == "1+4+4 = 9, bridge +40 = 49"
    # the same placement is a bridge in Pressman too (and worth 1 extra point for kids)
    assert score(BRIDGE, "0,0,D:1-4-4", PRESSMAN).total == 49
    assert score(BRIDGE, "0,0,D:1-4-4", KIDS).total == 2


def test_not_a_bridge_without_corner_contact() -> None:
    b = BRIDGE.copy()
    b.remove((1, 0, "D"))  # nothing touches the opposite corner (1,1) any more
    s = score(b, "0,0,D:1-4-4")
    assert (s.total, s.figure) == (9, None)


def test_corner_only_contact_is_not_a_bridge_and_not_legal() -> None:
    b = BRIDGE.copy()
    b.remove((0, 0, "U"))  # the one matched side is gone: 0,0,D touches only corners now
    p = Placement((0, 0, "D"), (1, 4, 4))
    problems = placement_problems(b, p, GOLIATH)
    assert problems == ["tile 1-4-4 at 0,0,D shares no edge with a tile "
                        "(it touches only by a corner)"]
    s = score_placement(b, p, GOLIATH)
    assert s.figure is None and s.total == 9


def test_two_sides_matched_is_not_a_bridge_but_a_pocket_in_pressman() -> None:
    s = score(POCKET, "0,0,D:1-1-5")
    assert (s.total, s.figure, s.matched_sides) == (7, None, 2)
    s = score(POCKET, "0,0,D:1-1-5", PRESSMAN)
    assert (s.total, s.figure, s.figure_bonus) == (47, "pocket", 40)
    assert s.breakdown == "1+1+5 = 7, pocket +40 = 47"


def test_hexagon_60() -> None:
    s = score(HEXAGON, "0,-1,D:0-5-5")
    assert (s.total, s.figure, s.rings) == (60, "hexagon", 1)
    assert s.breakdown == "0+5+5 = 10, hexagon +50 = 60"
    # a pocket that closes a ring scores the hexagon, in Pressman too (largest figure only)
    assert score(HEXAGON, "0,-1,D:0-5-5", PRESSMAN).figure == "hexagon"
    assert score(HEXAGON, "0,-1,D:0-5-5", KIDS).total == 2


def test_double_hexagon_72_with_a_12_point_tile() -> None:
    s = score(DOUBLE, "0,0,U:2-5-5")
    assert Tile.parse("2-5-5").total == 12
    assert (s.total, s.figure, s.rings) == (72, "double hexagon", 2)
    assert score(DOUBLE, "0,0,U:2-5-5", get_rules("pressman-classic")).total == 112


def test_triple_hexagon() -> None:
    s = score(TRIPLE, "0,0,U:2-4-5")
    assert (s.total, s.figure, s.rings) == (11 + 70, "triple hexagon", 3)
    assert score(TRIPLE, "0,0,U:2-4-5", get_rules("pressman-classic")).total == 161
    assert score(TRIPLE, "0,0,U:2-4-5", KIDS).total == 4


def test_start_bonuses() -> None:
    empty = Board()
    start = Placement((0, 0, "U"), (4, 4, 4))
    assert score_placement(empty, start, PRESSMAN).total == 22  # 4x3 = 12 + 10
    assert score_placement(empty, start, PRESSMAN).breakdown == "4+4+4 = 12, start +10 = 22"
    zero = score_placement(empty, Placement((0, 0, "U"), (0, 0, 0)), PRESSMAN)
    assert (zero.total, zero.start_bonus) == (40, 40)  # 0 + 10 + 30
    # no triple, no bonus (5+4+3 = 12); Goliath has no start bonus at all
    assert score_placement(empty, Placement((0, 0, "U"), (3, 4, 5)), PRESSMAN).total == 12
    assert score_placement(empty, start, GOLIATH).total == 12
    # first_move=False on an empty board (a scorer asked about a later turn) gives no bonus
    assert score_placement(empty, start, PRESSMAN, first_move=False).total == 12


@pytest.mark.parametrize(("draws", "tile", "expected"), [(1, "1-4-4", 4), (2, "1-4-4", -1),
                                                         (3, "1-2-4", -8)])
def test_draw_examples(draws: int, tile: str, expected: int) -> None:
    t = Tile.parse(tile)
    moves = legal_placements(HEXAGON, [t], GOLIATH, draws=draws)
    plain = [m for m in moves if m.score.figure is None]
    assert plain and plain[0].score.total == expected
    assert plain[0].score.draw_penalty == 5 * draws


def test_draw_three_and_pass_is_minus_25() -> None:
    s = score_pass(GOLIATH, 3)
    assert (s.total, s.breakdown) == (-25, "pass, 3 draws -15, failed draw -10 = -25")
    assert score_pass(GOLIATH, 0, pool_empty=True).total == 0  # Goliath: empty pool, no penalty
    assert score_pass(PRESSMAN, 0, pool_empty=True).total == -10
    assert score_pass(PRESSMAN, 5).total == -35
    assert score_pass(KIDS, 3).total == 0
    with pytest.raises(ParseError, match="at most 3 draws"):
        score_pass(GOLIATH, 4)


def test_overridden_bonuses() -> None:
    r = get_rules("goliath", ["bridge_bonus=0", "pocket_bonus=25"])
    s = score(BRIDGE, "0,0,D:1-4-4", r)
    assert (s.total, s.figure) == (9, None)
    assert score(POCKET, "0,0,D:1-1-5", r).breakdown == "1+1+5 = 7, pocket +25 = 32"


def test_mirror_tiles_only_in_the_extended_set() -> None:
    b = board_of("0,0,U=1,0,1", "-1,0,U=1,1,4", "0,-1,U=1,2,2", "-1,0,D=1,1,1",
                 "-1,-1,D=2,4,1")
    ext = Board(dict(b.cells), "extended")
    p = Placement.parse("0,-1,D:0-2-1", b)
    assert p.tile == Tile.parse("0-2-1")
    assert placement_problems(b, p, GOLIATH) == ["tile 0-2-1 is not in the standard set"]
    assert is_legal(ext, p, GOLIATH)
    assert score_placement(ext, p, GOLIATH).total == 53
    # its mirror 0-1-2 shows the same digits anticlockwise: it fits in no rotation
    assert not any(is_legal(ext, Placement(p.cell, r), GOLIATH)
                   for r in Tile.parse("0-1-2").rotations())
