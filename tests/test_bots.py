"""Bots: never an illegal move (property test over seeds), only visible information, the
strong bot's reasoning, hints, and the ``play`` / ``moves --hint`` commands."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli import app
from engine import Board, Tile, get_rules, legal_placements
from engine.bots import (
    GreedyBot,
    RandomBot,
    StrongBot,
    draw_value,
    hint,
    make_bot,
    not_held,
    parse_players,
    selfplay,
)
from engine.errors import ParseError
from engine.game import PlayerView, PublicTurn, play_game, replay
from engine.moves import Placement
from engine.tiles import tile_set

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def strong() -> StrongBot:
    # a frozen clock: the budget never runs out, samples stop at the cap -> deterministic
    return StrongBot(budget=1.0, max_samples=2, clock=lambda: 0.0)


@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), edition=st.sampled_from(["goliath", "pressman", "kids"]),
       n=st.integers(2, 4))
def test_bots_never_make_an_illegal_move(seed, edition, n):
    bots = [strong(), GreedyBot(), RandomBot(), strong()][:n]
    g = play_game(get_rules(edition), bots, seed=seed, rounds=1)
    # the replay re-checks every placement with placement_problems, draws and scores
    _, issues = replay(json.loads(g.dumps()))
    assert issues == []


def _view(board: Board, hand: list[Tile], counts=(3, 9), pool=20) -> PlayerView:
    return PlayerView(0, tuple(hand), board, get_rules(), counts, pool, (0, 0), (0, 0))


def test_strong_bot_sees_only_the_view():
    # same board, hand and counts -> same choice, whatever the hidden tiles are
    b = Board()
    b.put((0, 0, "U"), (5, 5, 5))
    hand = [Tile.parse(x) for x in ("2-5-5", "0-5-5", "1-2-3")]
    moves = legal_placements(b, hand, get_rules())
    picks = {strong().choose(_view(b, hand), moves, random.Random(1)).placement
             for _ in range(2)}
    assert len(picks) == 1
    assert set(PlayerView.__dataclass_fields__) == {
        "seat", "hand", "board", "rules", "hand_counts", "pool_count", "scores", "totals",
        "draws", "first_move", "history"}


def test_a_player_who_drew_holds_nothing_that_fitted_then():
    b = Board()
    b.put((0, 0, "U"), (5, 5, 5))
    hand = [Tile.parse("0-1-2")]
    unseen = sorted(t for t in tile_set("standard") if t not in set(hand) | set(b.tiles()))
    opened = PublicTurn(0, 0, Placement((0, 0, "U"), (5, 5, 5)))
    passed = PublicTurn(1, 3, None)
    view = PlayerView(0, tuple(hand), b, get_rules(), (1, 12), 30, (0, 0), (0, 0),
                      history=(opened, passed))
    assert not_held(view, 1, unseen) == {Tile.parse(f"{d}-5-5") for d in range(5)}
    # before any draw nothing is known
    assert not_held(PlayerView(0, tuple(hand), b, get_rules(), (1, 9), 30, (0, 0), (0, 0),
                               history=(opened,)), 1, unseen) == frozenset()


def test_strong_bot_prefers_going_out_and_values_replies():
    b = Board()
    b.put((0, 0, "U"), (5, 5, 5))
    hand = [Tile.parse("0-5-5")]
    moves = legal_placements(b, hand, get_rules())
    j = strong().judge(_ctx(b, hand), moves, random.Random(0))
    assert j[0].goes_out and j[0].value >= 25 + 10
    hand2 = [Tile.parse(x) for x in ("2-5-5", "0-1-2")]
    js = strong().judge(_ctx(b, hand2), legal_placements(b, hand2, get_rules()),
                        random.Random(0))
    assert all(0 <= x.opp_big <= 1 and x.opp_reply != 0 for x in js)
    assert [x.value for x in js] == sorted((x.value for x in js), reverse=True)


def _ctx(b: Board, hand: list[Tile]):
    from engine.bots import _Ctx
    seen = set(hand) | {Tile.from_digits(d) for d in b.cells.values()}
    unseen = sorted(t for t in tile_set("standard") if t not in seen)
    return _Ctx(get_rules(), b, hand, unseen, (len(hand), 9), 0, len(unseen) - 9)


def test_strong_bot_respects_its_budget_by_the_clock():
    ticks = iter(range(0, 10_000))
    bot = StrongBot(budget=5.0, max_samples=1000, clock=lambda: next(ticks) * 1.0)
    b = Board()
    b.put((0, 0, "U"), (5, 5, 5))
    hand = [Tile.parse(x) for x in ("2-5-5", "0-5-5", "3-5-5", "1-2-3")]
    moves = legal_placements(b, hand, get_rules())
    judged = bot.judge(_ctx(b, hand), moves, random.Random(0))
    # each clock tick is a "second": the bot stops after ~5 ticks, far below 1000 samples
    assert max(j.samples for j in judged) < 5


def test_draw_value_follows_the_edition():
    g, p = get_rules("goliath"), get_rules("pressman")
    assert draw_value(g, 0.0, 10, 30) == -25
    assert draw_value(p, 0.0, 10, 30) == -35
    assert draw_value(g, 1.0, 10, 30) == 10 - 5
    assert draw_value(g, 0.0, 10, 0) == 0 and draw_value(p, 0.0, 10, 0) == -10
    assert draw_value(g, 0.0, 10, 2) == -10  # the pool runs out after 2 draws


def test_hint_ranks_every_move_with_a_reason():
    b = Board.load(ROOT / "samples" / "boards" / "midgame.json")
    rack = [t for t in b.unplayed()][:7]
    found = hint(b, rack, get_rules(), budget=0.05)
    assert len(found) == len(legal_placements(b, rack, get_rules()))
    assert all(j.why() and "\n" not in j.why() for j in found)
    # the sampled (refined) moves lead, each group ordered by value
    refined = [j for j in found if j.samples]
    assert found[:len(refined)] == refined
    for group in (refined, found[len(refined):]):
        assert [j.value for j in group] == sorted((j.value for j in group), reverse=True)


def test_make_bot_and_parse_players():
    assert isinstance(make_bot("Strong", 0.1), StrongBot)
    assert [b.name for b in parse_players("greedy, random")] == ["greedy", "random"]
    for bad in ("greedy", "greedy,alien", ",".join(["greedy"] * 7)):
        try:
            parse_players(bad)
        except ParseError:
            continue
        raise AssertionError(bad)


def test_selfplay_rotates_seats_and_counts():
    res = selfplay("greedy,random", 2, 5, get_rules(), rounds=1)
    assert res.games == 2 and res.rounds == 2 and sum(res.wins) == 2
    assert sum(res.round_wins) == 2 and all(m > 0 for m in res.moves)


def test_cli_play_and_bad_input():
    ok = runner.invoke(app, ["play", "--players", "greedy,random", "--games", "2",
                             "--rounds", "1", "--seed", "3"])
    assert ok.exit_code == 0, ok.output
    assert "1. greedy" in ok.output and "2. random" in ok.output
    js = runner.invoke(app, ["play", "--players", "greedy,greedy,random", "--games", "1",
                             "--rounds", "1", "--json"])
    assert js.exit_code == 0 and json.loads(js.output)["games"] == 1
    for args in (["--players", "greedy,alien"], ["--players", "greedy"],
                 ["--games", "0"], ["--rules", "nope"]):
        res = runner.invoke(app, ["play", *args])
        assert res.exit_code == 2, args
        assert len(res.output.strip().splitlines()) == 1 and "error:" in res.output


def test_cli_moves_hint():
    board = str(ROOT / "samples" / "boards" / "midgame.json")
    b = Board.load(board)
    rack = " ".join(t.name() for t in b.unplayed()[:5])
    res = runner.invoke(app, ["moves", board, "--rack", rack, "--hint", "--json"])
    assert res.exit_code == 0, res.output
    hints = json.loads(res.output)["hints"]
    assert hints and all(h["why"] for h in hints)
    res2 = runner.invoke(app, ["moves", board, "--hint"])
    assert res2.exit_code == 2 and "--rack" in res2.output
