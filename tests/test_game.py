"""Whole games: each edition's draw and round-end rules on constructed hands, the starter,
rounds to the target, and exact replay of recorded games."""

from __future__ import annotations

import json
import random

import pytest

from engine import Tile, get_rules
from engine.bots import GreedyBot, RandomBot, StrongBot
from engine.errors import ParseError
from engine.game import (
    GameRecord,
    play_dealt,
    play_game,
    replay,
    round_end,
    score_sheet,
    starter_from_draws,
    triple_start,
)


def T(text: str) -> list[Tile]:
    return [Tile.parse(x) for x in text.split()]


class Opener(GreedyBot):
    """Greedy, but opens with 5-5-5 when it may (keeps the constructed boards simple)."""

    def choose(self, view, moves, rng):
        five = [m for m in moves if m.tile == Tile.parse("5-5-5")]
        return five[0] if five else moves[0]


def dealt(edition: str, hands: list[str], pool: str, starter: int = 0, players=None):
    rules = get_rules(edition)
    ps = players or [Opener() for _ in hands]
    rngs = [random.Random(s) for s in range(len(hands))]
    return play_dealt(rules, ps, [T(h) for h in hands], T(pool), starter, rngs)


def totals(rec) -> list[int]:
    return [t.score.total for t in rec.turns]


# --- drawing -----------------------------------------------------------------------------

def test_goliath_draws_until_a_tile_fits_and_pays_5_each():
    # 5-5-5 opens; seat 1 holds nothing with a 5-5 edge; the third drawn tile fits
    rec = dealt("goliath", ["5-5-5 0-0-1", "0-1-2 1-2-3"], "0-1-3 1-1-2 2-5-5 0-0-4")
    t = rec.turns[1]
    assert t.seat == 1 and t.drawn == T("0-1-3 1-1-2 2-5-5")
    assert t.placement is not None and t.placement.tile == Tile.parse("2-5-5")
    assert t.score.total == 12 - 15 and t.score.draws == 3
    assert t.hand_left == 4


def test_goliath_three_misses_cost_25_then_the_pool_runs_dry_and_the_round_blocks():
    rec = dealt("goliath", ["5-5-5 0-0-1", "0-1-2 1-2-3"], "0-1-3 1-1-2 1-1-3 2-5-5")
    assert [(t.seat, len(t.drawn), t.placement is None) for t in rec.turns] == [
        (0, 0, False), (1, 3, True), (0, 1, False)]
    assert totals(rec) == [15, -25, 12 - 5]
    # pool empty, nobody fits: Goliath subtracts each player's own remaining tiles
    assert rec.end.reason == "blocked"
    assert rec.end.adjust == [-1, -(3 + 6 + 4 + 4 + 5)]


def test_pressman_draws_up_to_5_and_opens_with_the_triple_bonus():
    rec = dealt("pressman", ["5-5-5 0-0-1", "0-1-2 1-2-3"], "0-1-3 1-1-2 1-1-3 2-5-5")
    assert totals(rec) == [15 + 10, 12 - 4 * 5]
    # blocked: the lowest hand (0-0-1 = 1) takes the others' points minus its own
    assert rec.end.reason == "blocked" and rec.end.winners == [0]
    assert rec.end.adjust == [3 + 6 + 4 + 4 + 5 - 1, 0]


def test_pressman_five_misses_cost_35():
    rec = dealt("pressman", ["5-5-5 0-0-1", "0-1-2 1-2-3"],
                "0-1-3 1-1-2 1-1-3 0-0-2 0-0-3 2-5-5")
    assert rec.turns[1].placement is None and len(rec.turns[1].drawn) == 5
    assert rec.turns[1].score.total == -35


def test_pool_running_out_mid_draw_goliath_and_pressman():
    # seat 1 draws the last 2 tiles, neither fits: 2 x -5, the empty-pool penalty on top
    hands = ["5-5-5 0-0-1", "0-1-2 1-2-3", "2-5-5 0-0-4"]
    g = dealt("goliath", hands, "0-1-3 1-1-2")
    p = dealt("pressman", hands, "0-1-3 1-1-2")
    assert g.turns[1].score.total == -10 and p.turns[1].score.total == -20


@pytest.mark.parametrize("edition,penalty", [("goliath", 0), ("pressman", -10)])
def test_empty_pool_pass(edition, penalty):
    # seat 1 cannot play and cannot draw; seat 2 still can, so the round goes on
    rec = dealt(edition, ["5-5-5 0-0-1", "0-1-2 1-2-3", "2-5-5 0-0-4"], "")
    assert rec.turns[1].seat == 1 and rec.turns[1].placement is None
    assert rec.turns[1].drawn == [] and rec.turns[1].score.total == penalty
    assert rec.turns[2].seat == 2 and rec.turns[2].placement is not None
    assert rec.end.reason == "blocked"
    if edition == "goliath":
        assert rec.end.adjust == [-1, -9, -4]
    else:
        assert rec.end.adjust == [9 + 4 - 1, 0, 0]


def test_a_player_may_not_pass_while_able_to_play():
    class Stubborn(GreedyBot):
        def choose(self, view, moves, rng):
            return None  # asks to draw

    with pytest.raises(ParseError, match="must play"):
        dealt("goliath", ["5-5-5 0-0-1", "2-5-5 0-1-2"], "", players=[Opener(), Stubborn()])


# --- going out ----------------------------------------------------------------------------

def test_goliath_going_out_ends_the_round_at_once():
    rec = dealt("goliath", ["5-5-5 0-0-1", "2-5-5", "1-2-5 0-0-4"], "0-1-1")
    assert [t.seat for t in rec.turns] == [0, 1]
    assert rec.end.reason == "out" and rec.end.out == [1]
    assert rec.end.adjust == [0, 25 + 1 + (8 + 4), 0]


def test_pressman_finishes_the_round_of_turns():
    rec = dealt("pressman", ["5-5-5 0-0-1", "2-5-5", "1-2-5 0-0-4"], "0-1-1")
    assert [t.seat for t in rec.turns] == [0, 1, 2]  # seat 2 still plays, seat 0 does not
    assert rec.end.out == [1]
    left = sum(t.total for h in rec.end.remaining for t in h)
    assert rec.end.adjust[1] == 25 + left and rec.end.adjust[0] == rec.end.adjust[2] == 0


def test_kids_scoring_one_per_tile_and_five_to_the_winner():
    rec = dealt("kids", ["5-5-5 0-0-1", "2-5-5", "1-2-5 0-0-4"], "0-1-1")
    assert totals(rec) == [1, 1]
    assert rec.end.adjust == [0, 5, 0]


@pytest.mark.parametrize("edition,out,expected", [
    ("goliath", [0], [25 + 9 + 4, 0, 0]),
    ("goliath", [], [-1, -9, -4]),
    ("pressman", [], [9 + 4 - 1, 0, 0]),
    ("pressman-classic", [1], [0, 25 + 1 + 4, 0]),
    ("kids", [], [5, 0, 0]),
    ("kids", [2], [0, 0, 5]),
])
def test_round_end_per_edition(edition, out, expected):
    hands = [T("0-0-1"), T("0-4-5"), T("0-0-4")]
    for s in out:
        hands[s] = []
    assert round_end(get_rules(edition), hands, out).adjust == expected


def test_blocked_tie_for_lowest_both_win():
    res = round_end(get_rules("pressman"), [T("0-0-2"), T("0-1-1"), T("3-4-5")], [])
    assert res.winners == [0, 1] and res.adjust == [14 - 2, 14 - 2, 0]


# --- the start ----------------------------------------------------------------------------

def test_triple_start_rules():
    assert triple_start([T("4-4-4 0-1-2"), T("5-5-5 3-3-3")]) == (1, T("5-5-5"))
    # the holder of the highest triple and 0-0-0 may choose; greedy takes 0-0-0 (10 + 30)
    assert triple_start([T("1-1-1"), T("2-2-2 0-0-0")]) == (1, T("2-2-2 0-0-0"))
    rec = dealt("pressman", ["1-1-1 0-1-2", "2-2-2 0-0-0 3-4-5"], "", starter=1)
    assert rec.turns[0].placement.tile == Tile.parse("0-0-0") and totals(rec)[0] == 40
    # no triple dealt: the highest tile opens, no bonus
    assert triple_start([T("0-1-2 4-5-5"), T("3-4-5")]) == (0, T("4-5-5"))


def test_starter_by_draw_ties_redraw():
    assert starter_from_draws([T("0-4-5 1-3-5 0-0-1"), T("2-2-2 1-1-1")], 3) == 0
    with pytest.raises(ParseError):
        starter_from_draws([T("0-4-5 1-3-5 0-0-1")], 3)


def test_bad_player_count():
    with pytest.raises(ParseError, match="2-6 players"):
        play_game(get_rules(), [GreedyBot()])


# --- whole games and replay ------------------------------------------------------------------

def test_game_runs_to_the_target_and_names_the_winner():
    g = play_game(get_rules("goliath"), [GreedyBot(), GreedyBot()], seed=1)
    running = [0, 0]
    for k, r in enumerate(g.rounds):
        assert max(running) < 400, "a round started after someone reached 400"
        running = [a + b for a, b in zip(running, r.scores(2), strict=True)]
        if k < len(g.rounds) - 1:
            assert max(running) < 400
    assert max(running) >= 400 and running == g.totals()
    assert g.winners() == [running.index(max(running))]


def _strong() -> StrongBot:
    return StrongBot(budget=1.0, max_samples=3, clock=lambda: 0.0)


@pytest.mark.parametrize("edition", ["goliath", "pressman", "pressman-classic", "kids"])
def test_replay_reproduces_every_score(edition):
    rules = get_rules(edition)
    g = play_game(rules, [GreedyBot(), RandomBot(), _strong()], seed=7,
                  rounds=2 if edition == "kids" else 1)
    data = json.loads(g.dumps())
    again, issues = replay(data)
    assert issues == []
    for r1, r2 in zip(g.rounds, again.rounds, strict=True):
        assert [t.score for t in r1.turns] == [t.score for t in r2.turns]
        assert r1.end.adjust == r2.end.adjust
    assert again.totals() == g.totals() == data["totals"]


def test_replay_names_a_tampered_turn():
    g = play_game(get_rules(), [GreedyBot(), GreedyBot()], seed=3, rounds=1)
    data = json.loads(g.dumps())
    data["rounds"][0]["turns"][4]["score"]["total"] += 40
    data["rounds"][0]["turns"][2]["drawn"] = ["5-5-5"] if "5-5-5" not in \
        data["rounds"][0]["deal"][0] + data["rounds"][0]["deal"][1] else ["0-0-0"]
    _, issues = replay(data)
    kinds = {(i.turn, i.kind) for i in issues}
    assert (5, "score") in kinds and (3, "draw") in kinds


def test_replay_rejects_non_game():
    with pytest.raises(ParseError, match="format"):
        replay({"format": "triominos-board/1"})


def test_score_sheet_lists_every_turn_with_running_totals():
    g = play_game(get_rules(), [GreedyBot(), GreedyBot()], seed=2, rounds=1)
    lines = score_sheet(g)
    assert sum(1 for x in lines if x.lstrip().startswith("1.") and "end" not in x) == \
        len(g.rounds[0].turns)
    assert str(g.totals()[0]) in lines[-1] and "winner" in lines[-1]
    assert isinstance(g, GameRecord)
