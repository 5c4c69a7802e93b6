"""Property tests: symmetry of the rules, Board JSON round trips, fuzzed input."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    AmbiguousPlacementError,
    Board,
    ParseError,
    Placement,
    Tile,
    find_openings,
    get_rules,
    tile_set,
)
from engine.lattice import transform_cell
from engine.moves import is_legal, unplayed_placements
from engine.positions import random_board
from engine.scoring import score_placement

RULES = [get_rules("goliath"), get_rules("pressman")]
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

boards = st.builds(random_board, st.integers(1, 40), st.integers(0, 10_000),
                   set_name=st.sampled_from(["standard", "extended"]),
                   compact=st.floats(0, 1))
turns = st.integers(0, 5)
shifts = st.tuples(st.integers(-20, 20), st.integers(-20, 20))


def move_signature(board: Board, rules: Any) -> Counter[tuple[Any, ...]]:
    return Counter((m.tile, m.score.total, m.score.figure, m.score.breakdown)
                   for m in unplayed_placements(board, rules))


def opening_signature(board: Board, rules: Any) -> tuple[Counter[Any], Counter[Any]]:
    found = find_openings(board, rules)
    return (Counter((o.tile, o.status, o.rings, o.bonus) for o in found.pending),
            Counter((n.digit, n.completable, tuple(sorted(n.candidates))) for n in found.near))


@FAST
@given(boards, turns, shifts, st.sampled_from(RULES))
def test_rotation_and_translation_change_nothing(board: Board, k: int, shift: tuple[int, int],
                                                 rules: Any) -> None:
    moved = board.transformed(k, shift)
    assert moved.status() == board.status()
    assert move_signature(moved, rules) == move_signature(board, rules)
    assert opening_signature(moved, rules) == opening_signature(board, rules)
    # each placement maps to the placement of the same tile in the moved board
    for m in unplayed_placements(board, rules)[:10]:
        cell, corners = transform_cell(m.cell, m.placement.corners, k, shift)
        p = Placement(cell, corners)  # type: ignore[arg-type]
        assert is_legal(moved, p, rules)
        assert score_placement(moved, p, rules) == m.score


@FAST
@given(boards, st.integers(0, 200))
def test_illegal_stays_illegal_when_moved(board: Board, pick: int) -> None:
    cells = sorted(board.frontier())
    tiles = sorted(tile_set(board.set_name))
    cell, tile = cells[pick % len(cells)], tiles[pick % len(tiles)]
    for r in tile.rotations():
        p = Placement(cell, r)
        nc, nd = transform_cell(cell, r, 2, (3, -1))
        assert is_legal(board, p, RULES[0]) == is_legal(board.transformed(2, (3, -1)),
                                                        Placement(nc, nd), RULES[0])  # type: ignore[arg-type]


@FAST
@given(boards)
def test_board_json_round_trip(board: Board) -> None:
    assert Board.loads(board.dumps()) == board
    assert Board.from_json(json.loads(json.dumps(board.to_json()))) == board


@FAST
@given(st.sampled_from(sorted(tile_set("extended"))), st.integers(-9, 9), st.integers(-9, 9),
       st.sampled_from("UD"), st.integers(0, 2))
def test_placement_notation_round_trip(tile: Tile, i: int, j: int, kind: str, rot: int) -> None:
    p = Placement((i, j, kind), tile.rotations()[rot % len(tile.rotations())])
    assert Placement.parse(p.notation(), Board()) == p
    assert p.tile == tile


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                  max_size=4),
    max_leaves=20)


board_like = st.fixed_dictionaries(
    {"format": st.sampled_from(["triominos-board/1", "triominos-board/2", 1, None]),
     "set": st.sampled_from(["standard", "extended", "mini", None, ["standard"]]),
     "tiles": st.lists(st.fixed_dictionaries(
         {"cell": st.lists(st.integers(-3, 3) | st.sampled_from(["U", "D", "X", None]),
                           max_size=4) | json_values,
          "corners": st.lists(st.integers(-1, 6) | st.booleans() | st.floats(0, 5),
                              max_size=4) | json_values}) | json_values, max_size=6)})


@settings(max_examples=300, deadline=None)
@given(json_values | board_like)
def test_random_json_only_raises_parse_error(data: Any) -> None:
    try:
        board = Board.loads(json.dumps(data))
    except ParseError as e:
        assert "\n" not in str(e)
        return
    board.violations()  # a board that loads can always be examined


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_random_text_only_raises_parse_error(text: str) -> None:
    for parse in (Board.loads, Tile.parse):
        try:
            parse(text)
        except ParseError:
            pass
    try:
        Placement.parse(text, Board())
    except (ParseError, AmbiguousPlacementError):  # ambiguous: every rotation fits
        pass
