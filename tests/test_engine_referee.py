"""Referee checks: one placement with a claim, and a board before/after."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import AmbiguousPlacementError, Board, ParseError, Placement, get_rules
from engine.referee import check_change, check_placement, check_text, diff_boards

SAMPLES = Path(__file__).parents[1] / "samples" / "boards"
GOLIATH, PRESSMAN = get_rules(), get_rules("pressman")


@pytest.fixture
def midgame() -> Board:
    return Board.load(SAMPLES / "midgame.json")


def test_claims(midgame: Board) -> None:
    ok = check_text(midgame, "2,-1,U:2-3-5", GOLIATH, claimed=50)
    assert (ok.legal, ok.ok, ok.claim_holds, ok.verdict()) == (
        True, True, True, "legal, scores 50, claim 50 holds")
    assert ok.score is not None and ok.score.breakdown == "2+3+5 = 10, bridge +40 = 50"
    wrong = check_text(midgame, "2,-1,U:2-3-5", GOLIATH, claimed=10)
    assert (wrong.ok, wrong.verdict()) == (False, "legal, scores 50, claim 10 disputed "
                                                  "(the score is 50)")
    assert check_text(midgame, "2,-1,U:2-3-5", GOLIATH).ok  # no claim: legal is enough
    drew = check_text(midgame, "2,-1,U:2-3-5", GOLIATH, claimed=45, draws=1)
    assert drew.ok and drew.score is not None and drew.score.draw_penalty == 5


def test_illegal_placements_list_every_reason(midgame: Board) -> None:
    bad = check_text(midgame, "2,-1,U=1,4,4", GOLIATH, claimed=49)
    assert not bad.legal and not bad.ok and bad.claim_holds is False
    assert len(bad.problems) == 3 and all(p.startswith("corner ") for p in bad.problems)
    assert bad.verdict() == "illegal, claim 49 disputed"
    unnamed = check_text(midgame, "2,-1,U:1-4-4", GOLIATH)
    assert unnamed.placement is None and unnamed.problems == [
        "tile 1-4-4 fits 2,-1,U in no rotation: the corners there need 2,3,5 (corner order)"]
    with pytest.raises(AmbiguousPlacementError):
        check_text(Board(), "0,0,U:1-2-3", GOLIATH)
    with pytest.raises(ParseError):
        check_text(midgame, "2,-1,U:1-4", GOLIATH)


def test_opening_claims() -> None:
    assert check_text(Board(), "0,0,U:0-0-0", PRESSMAN, claimed=40).ok
    assert not check_text(Board(), "0,0,U:0-0-0", GOLIATH, claimed=40).ok
    assert check_placement(Board(), Placement((3, 3, "D"), (4, 4, 4)), PRESSMAN).score.total == 22  # type: ignore[union-attr]


def test_before_after(midgame: Board) -> None:
    after = Board.load(SAMPLES / "midgame_after.json")
    res = check_change(midgame, after, GOLIATH, claimed=53)
    assert res.ok and res.placement == Placement((1, 0, "D"), (2, 0, 1))
    assert res.score is not None and res.score.figure == "hexagon"
    same = check_change(midgame, midgame, GOLIATH, claimed=0)
    assert (same.ok, same.problems) == (False, ["no new tile: the boards have the same tiles"])
    two = after.copy()
    two.put((2, -1, "U"), (2, 3, 5))
    assert check_change(midgame, two, GOLIATH).problems == [
        "2 new tiles (1,0,D=2,0,1, 2,-1,U=2,3,5); expected exactly one"]
    moved = after.copy()
    moved.remove((1, 1, "U"))
    moved.cells[(0, 1, "U")] = (3, 0, 0)
    assert check_change(midgame, moved, GOLIATH).problems == [
        "tile 0-1-1 at 1,1,U was removed", "cell 0,1,U changed from 0,0,3 to 3,0,0"]
    d = diff_boards(midgame, after)
    assert (list(d.added), d.removed, d.changed) == ([(1, 0, "D")], {}, {})
    with pytest.raises(ParseError, match="different tile sets"):
        check_change(midgame, Board(dict(after.cells), "extended"), GOLIATH)


def test_after_board_with_a_reused_tile(midgame: Board) -> None:
    text = (SAMPLES / "midgame.json").read_text(encoding="utf-8")
    with pytest.raises(ParseError):
        Board.loads(text.replace('[0, 1, "U"], "corners": [0, 0, 3]',
                                 '[0, 1, "U"], "corners": [3, 3, 3]'))
    after = midgame.copy()
    after.cells[(2, -1, "U")] = (5, 5, 5)  # 5-5-5 lies at 1,-2,D already
    res = check_change(midgame, after, GOLIATH)
    assert not res.legal and "tile 5-5-5 is already on the board at 1,-2,D" in res.problems
