"""Tiles seen only in part (a photo's: under a hand, beyond its edge) on the engine board.

Board JSON gives a digit not seen as ``null``. Such a tile fills its cell and joins its
neighbours; its digits in view count where tiles meet; what it hides is never assumed:
moves meeting a hidden digit are marked, openings needing one say so, checks that depend
on one are not confirmed.
"""

from __future__ import annotations

import json

import pytest

from engine import Board, ParseError, Placement, Status, Tile, get_rules, legal_placements
from engine.board import BOARD_FORMAT
from engine.lattice import cell_corners, cells_around
from engine.openings import find_openings
from engine.referee import check_change, check_placement
from engine.scoring import score_placement

RULES = get_rules()


def _board(full: dict, part: dict | None = None) -> Board:
    tiles = [{"cell": list(c), "corners": list(d)} for c, d in {**full, **(part or {})}.items()]
    return Board.from_json({"format": BOARD_FORMAT, "set": "standard", "tiles": tiles})


def test_board_json_null_is_a_digit_not_seen_and_round_trips() -> None:
    b = _board({(0, 0, "U"): (5, 5, 5)}, {(0, 0, "D"): (5, None, 5)})
    assert b.partial == {(0, 0, "D"): (5, None, 5)}
    assert len(b) == 2 and (0, 0, "D") in b and b.occupied() == {(0, 0, "U"), (0, 0, "D")}
    assert b.tiles() == [Tile.parse("5-5-5")]  # which tile it is, is not known
    assert b.to_json()["tiles"][0]["corners"] == [5, None, 5]
    again = Board.loads(b.dumps())
    assert again.cells == b.cells and again.partial == b.partial
    assert b.transformed(1).transformed(5).partial == b.partial  # six turns: home again
    # a Reading JSON (what `read --json` prints) loads with its tiles read in part
    reading = {"format": "triominos-reading/1", "set": "standard",
               "tiles": [{"cell": [0, 0, "U"], "corners": [5, 5, 5], "flags": []},
                         {"cell": [0, 0, "D"], "corners": [None, 2, 5],
                          "flags": ["partial"]}]}
    assert Board.loads(json.dumps(reading)).partial == {(0, 0, "D"): (None, 2, 5)}
    b.put((0, 0, "D"), (5, 2, 5))  # seen in full now
    assert not b.partial and b.cells[(0, 0, "D")] == (5, 2, 5)


@pytest.mark.parametrize("corners", ['[1, "x", 2]', "[1, 2]", "[1, 2, 9]"])
def test_board_json_bad_corners_name_null_as_allowed(corners: str) -> None:
    text = f'{{"format": "{BOARD_FORMAT}", "tiles": [{{"cell": [0,0,"U"], "corners": {corners}}}]}}'
    with pytest.raises(ParseError, match=r"tiles\[0\] at 0,0,U: bad corners .* null for a "
                                         "digit not seen"):
        Board.loads(text)


def test_no_move_into_a_cell_seen_in_part_and_hidden_corners_are_marked() -> None:
    # 0,0,U full 1,2,3; its right neighbour 0,0,D seen in part: apex (1,0) shows 2, the
    # corner at (0,1) shows 1, the one at (1,1) not seen
    b = _board({(0, 0, "U"): (1, 2, 3)}, {(0, 0, "D"): (2, 1, None)})
    moves = legal_placements(b, b.unplayed(), RULES)
    assert moves and all(m.cell != (0, 0, "D") for m in moves)
    # U(1,0) meets 0,0,D along its left side: corners (1,1) unseen, (1,0) = 2
    right = [m for m in moves if m.cell == (1, 0, "U")]
    assert right
    for m in right:
        at = dict(zip(cell_corners(m.cell), m.placement.corners, strict=True))
        assert at[(1, 0)] == 2  # the digit in view binds
        assert m.unseen == ((1, 1),) and m.to_json()["unseen_vertices"] == [[1, 1]]
    # every corner whose digit the board shows is bound; none of the free cell's are unseen
    below = [m for m in moves if m.cell == (0, -1, "D")]
    assert below and all(m.unseen == () for m in below)
    # the two digits at (1,1) are both offered: the hidden one is not guessed
    assert len({dict(zip(cell_corners(m.cell), m.placement.corners, strict=True))[(1, 1)]
                for m in right}) == 6


def test_a_tile_seen_in_part_joins_the_board_and_is_judged_by_what_shows() -> None:
    # two full tiles joined only through a tile seen in part: one piece, not two
    b = _board({(0, 0, "U"): (1, 2, 3), (1, 0, "U"): (4, 5, 2)}, {(0, 0, "D"): (2, None, 4)})
    assert len(b.components()) == 1 and b.is_valid()
    # a digit in view that disagrees is a violation; a hidden one disagrees with nothing
    bad = _board({(0, 0, "U"): (1, 2, 3)}, {(0, 0, "D"): (4, None, None)})
    assert bad.status() == Status.CORNER_MISMATCH
    # touching by a corner only is judged for it too, named by what shows
    corner = _board({(0, 0, "U"): (1, 2, 3)}, {(1, -1, "U"): (None, None, 2)})
    only = [v.message for v in corner.violations() if v.kind == Status.CORNER_ONLY]
    assert "tile ?,?,2 (seen in part) at 1,-1,U touches the board only by a corner" in only
    # whether it is a tile used twice, or not in the set, is not known: not judged
    twice = _board({(0, 0, "U"): (1, 2, 3)}, {(0, 0, "D"): (2, 1, None), (1, 0, "U"): (None, 3, 2)})
    assert not twice.status() & (Status.DUPLICATE_TILE | Status.NOT_IN_SET)


#: five of the six cells around vertex (0,0), tiles of the set that agree where they meet;
#: the sixth, the gap 0,-1,D, then needs 1,0,0 (tile 0-0-1)
RING = {(-1, -1, "D"): (1, 2, 0), (-1, 0, "D"): (0, 2, 0), (-1, 0, "U"): (2, 0, 2),
        (0, -1, "U"): (0, 1, 1), (0, 0, "U"): (0, 0, 0)}
GAP = (0, -1, "D")


def _ring(part: dict) -> Board:
    """The ring of :data:`RING`, the cells of ``part`` seen only in part (their digits)."""
    return _board({c: d for c, d in RING.items() if c not in part}, part)


def test_a_ring_closed_beside_a_tile_seen_in_part_scores_its_hexagon() -> None:
    assert set(RING) | {GAP} == set(cells_around((0, 0))) and _ring({}).is_valid()
    # the ring's tile at 0,-1,U seen in part, its digit at the gap's corner (1,-1) hidden
    b = _ring({(0, -1, "U"): (0, None, 1)})
    moves = [m for m in legal_placements(b, b.unplayed(), RULES) if m.cell == GAP]
    assert len(moves) > 1 and all(m.score.figure == "hexagon" for m in moves)
    assert all(m.unseen == ((1, -1),) for m in moves)  # the gap's corner on the hidden digit
    # the same in a check: scored as a hexagon, but not confirmed
    res = check_placement(b, moves[0].placement, RULES, claimed=moves[0].score.total)
    assert res.legal and res.claim_holds and not res.ok and res.unverified
    assert res.verdict().startswith("not confirmed (legal where seen")
    assert res.to_json()["unverified"] == res.unverified
    full = _ring({})
    assert score_placement(full, moves[0].placement, RULES).total == moves[0].score.total


def test_openings_beside_tiles_seen_in_part_say_what_is_not_known() -> None:
    # a digit the gap needs is hidden: the opening is "unseen", no placement offered
    b = _ring({(0, -1, "U"): (0, None, 1)})
    (o,) = find_openings(b, RULES).pending
    assert o.status == "unseen" and o.placement is None and None in o.needs
    assert "not seen" in o.describe()
    # every digit it needs is seen, but its tile may be the one seen in part elsewhere
    full = _ring({})
    (o,) = find_openings(full, RULES).pending
    assert o.status == "open" and o.tile == Tile.parse("0-0-1")
    tile = o.tile
    d = tile.digits
    elsewhere = (5, 0, "U")
    full.partial[elsewhere] = (d[0], d[1], None)
    (o2,) = find_openings(full, RULES).pending
    assert o2.status == "maybe played" and o2.on_board == elsewhere and o2.score is not None
    assert full.could_be(tile) == [elsewhere]


def test_check_change_knows_a_tile_seen_in_part_before_and_in_full_after() -> None:
    before = _board({(0, 0, "U"): (1, 2, 3)}, {(0, 0, "D"): (2, 1, None)})  # under a hand
    after = _board({(0, 0, "U"): (1, 2, 3), (0, 0, "D"): (2, 1, 2), (-1, 0, "D"): (3, 5, 1)})
    res = check_change(before, after, RULES)
    assert res.placement == Placement((-1, 0, "D"), (3, 5, 1)) and res.ok
    # a new tile meeting the digit hidden before: the AFTER photo shows it (2), so the
    # check is confirmed; on BEFORE alone it could not be
    after1 = _board({(0, 0, "U"): (1, 2, 3), (0, 0, "D"): (2, 1, 2), (1, 0, "U"): (2, 5, 2)})
    res1 = check_change(before, after1, RULES)
    assert res1.ok and res1.placement == Placement((1, 0, "U"), (2, 5, 2))
    assert check_placement(before, Placement((1, 0, "U"), (2, 5, 2)), RULES).unverified
    # the new tile itself under the hand: it cannot be checked, nor called illegal
    after2 = _board({(0, 0, "U"): (1, 2, 3), (0, 0, "D"): (2, 1, 2)}, {(-1, 0, "D"): (3, None, 1)})
    res2 = check_change(before, after2, RULES, claimed=9)
    assert not res2.ok and res2.placement is None and not res2.problems
    assert "seen only in part (3,?,1)" in res2.unverified[0]
    assert res2.verdict().startswith("not confirmed")
    # digits seen on both that differ: a tile changed
    after3 = _board({(0, 0, "U"): (1, 2, 3), (0, 0, "D"): (2, 4, 4), (-1, 0, "D"): (3, 5, 1)})
    res3 = check_change(before, after3, RULES)
    assert not res3.ok and "cell 0,0,D changed from 2,1,? to 2,4,4" in res3.problems


def test_a_bridge_to_a_corner_whose_digit_is_hidden_is_still_a_bridge() -> None:
    # D(0,0) matches 0,0,U along one side; the corner opposite, (1,1), touches 1,1,U, seen
    # in part, its digit there hidden: the tile there bridges all the same
    b = _board({(0, 0, "U"): (1, 2, 3)}, {(1, 1, "U"): (4, 4, None)})
    moves = [m for m in legal_placements(b, b.unplayed(), RULES) if m.cell == (0, 0, "D")]
    assert moves and all(m.score.figure == "bridge" for m in moves)
    assert all(m.unseen == ((1, 1),) for m in moves)
    assert all(m.score.figure_bonus == RULES.bridge_bonus for m in moves)


def test_hint_looks_ahead_on_boards_that_keep_the_tiles_seen_in_part(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the strong bot's look-ahead copies the board for each reply it weighs: every copy
    # keeps the tile seen in part, so no reply is weighed into its cell
    from engine import bots
    b = _board({(0, 0, "U"): (1, 2, 3)}, {(0, 0, "D"): (2, 1, None)})
    seen: list[dict] = []
    real = bots.legal_placements

    def spy(board: Board, *a: object, **k: object) -> list:
        seen.append(dict(board.partial))
        return real(board, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(bots, "legal_placements", spy)
    ranked = bots.hint(b, [Tile.parse("2-2-5"), Tile.parse("0-3-4")], RULES, budget=5.0)
    assert ranked and all(j.move.cell != (0, 0, "D") for j in ranked)
    assert len(seen) > 2 and all(p == {(0, 0, "D"): (2, 1, None)} for p in seen)


def test_a_near_opening_beside_a_digit_not_seen_names_it() -> None:
    # four of the six cells around (0,0) taken (RING without 0,0,U): the gaps 0,0,U and
    # 0,-1,D; 0,-1,U seen in part, its digit at the gap's corner (1,-1) hidden
    full = {c: d for c, d in RING.items() if c != (0, 0, "U")}
    (n,) = [x for x in find_openings(_board(full), RULES).near if x.vertex == (0, 0)]
    assert n.unseen == () and n.to_json()["unseen_vertices"] == []
    part = _board({c: d for c, d in full.items() if c != (0, -1, "U")},
                  {(0, -1, "U"): (0, None, 1)})
    (m,) = [x for x in find_openings(part, RULES).near if x.vertex == (0, 0)]
    assert m.cells == n.cells and m.unseen == ((1, -1),)
    assert m.candidates[0] > n.candidates[0]  # the hidden digit counted as free
