"""Players for self-play and hints: random, greedy and a planning ("strong") bot.

All bots see only a :class:`~engine.game.PlayerView`: their own hand, the board, how many
tiles each other hand and the pool hold, and the round's turns as the table saw them (who
drew how many tiles, what was placed). The *unseen* tiles (set - board - own hand) are
spread over the other hands and the pool, every arrangement equally likely - except that a
player who drew or passed cannot hold a tile that fitted the board at that moment, until
they draw again (:func:`not_held`).

* :class:`RandomBot` plays a uniformly random legal move.
* :class:`GreedyBot` plays the highest immediate score (the engine's move order breaks ties).
* :class:`StrongBot` looks one reply ahead. For each candidate move it computes, on the board
  after the move, the best placement of every unseen tile (what the next opponent could do
  with it: hexagons and bridges it would open) and the probability that each tile is the
  best one the opponent holds - exactly, with hypergeometric weights for a hand of the
  opponent's size drawn from the unseen tiles. For the likeliest replies it plays the reply
  and finds its own best answer with its remaining rack (so a hexagon it alone can close
  counts, and so does a cell the opponent is likely to take first). It adds the value of
  going out (bonus + the other hands' expected points) or of the opponent going out, the
  expected cost of having to draw when its rack no longer fits (computed from the share of
  unseen tiles that fit), and a small bonus per remaining tile that still fits somewhere
  (rack flexibility). With the time left in its per-move budget it refines the best few
  candidates by **sampling**: deals of the unseen tiles to the other hands and the pool,
  played out greedily for a few turns, with the same samples for every candidate (common
  random numbers); the sample mean is shrunk towards the exact estimate.

:func:`hint` ranks a rack's moves by the strong bot's judgement, with a one-line reason each.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .board import Board
from .errors import ParseError
from .game import PlayerView
from .moves import Move, legal_placements
from .rules import Rules
from .tiles import Tile, tile_set

BOT_NAMES = ("random", "greedy", "strong")


class RandomBot:
    """Plays a uniformly random legal move (never draws by choice)."""

    name = "random"

    def choose(self, view: PlayerView, moves: list[Move], rng: random.Random) -> Move | None:
        """A random element of ``moves``."""
        return rng.choice(moves)


class GreedyBot:
    """Plays the move with the highest immediate score (``moves`` come best first)."""

    name = "greedy"

    def choose(self, view: PlayerView, moves: list[Move], rng: random.Random) -> Move | None:
        """The first (best-scoring) move."""
        return moves[0]


@dataclass
class Judgement:
    """The strong bot's view of one move.

    ``value``: expected points of this move relative to doing nothing (immediate score +
    expected swing over the next reply and own answer); ``immediate``: the move's score;
    ``opp_reply``: the opponent's expected best reply score; ``opp_big``: chance that the
    reply is a figure (bridge/hexagon); ``own_next``: own expected best next score;
    ``fitting``: tiles of the remaining rack that still fit; ``samples``: play-outs used.
    """

    move: Move
    value: float
    immediate: int
    opp_reply: float = 0.0
    opp_big: float = 0.0
    own_next: float = 0.0
    fitting: int = 0
    rack_left: int = 0
    goes_out: bool = False
    samples: int = 0
    rollout_mean: float = 0.0

    def why(self) -> str:
        """One line: what it scores now and what it leaves, e.g. for ``moves --hint``."""
        fig = f" ({self.move.score.figure})" if self.move.score.figure else ""
        if self.goes_out:
            return f"{self.immediate}{fig} now and goes out: bonus and the others' tiles"
        parts = [f"{self.immediate}{fig} now",
                 f"opponent's best reply ~{self.opp_reply:.0f}"
                 + (f" ({self.opp_big:.0%} chance of a bridge/hexagon)"
                    if self.opp_big >= 0.005 else ""),
                 f"your next ~{self.own_next:.0f}",
                 f"{self.fitting}/{self.rack_left} tiles left still fit"]
        if self.samples:
            parts.append(f"{self.samples} play-outs")
        return "; ".join(parts)


@dataclass
class _Ctx:
    rules: Rules
    board: Board
    hand: list[Tile]
    unseen: list[Tile]
    counts: tuple[int, ...]   # hand sizes by seat
    seat: int
    pool: int
    not_held: frozenset[Tile] = frozenset()  # unseen tiles the next opponent cannot hold

    @property
    def next_seat(self) -> int:
        n = len(self.counts)
        for k in range(1, n):
            s = (self.seat + k) % n
            if self.counts[s]:
                return s
        return self.seat

    @property
    def opp_hand(self) -> int:
        return self.counts[self.next_seat] if self.next_seat != self.seat else 0


def draw_value(rules: Rules, fit: float, play: float, pool: int) -> float:
    """Expected score of a turn that must start by drawing.

    ``fit``: chance that one drawn tile fits (0-1); ``play``: expected score when it does
    (before draw penalties); ``pool``: tiles left to draw. Follows the edition's limit and
    penalties (Goliath: -5 per tile, -10 more after 3 misses; nothing left: empty-pool
    penalty).
    """
    if pool <= 0:
        return -float(rules.empty_pool_penalty)
    limit = rules.draw_limit if rules.draw_limit is not None else pool
    n = min(limit, pool)
    value, miss = 0.0, 1.0
    for k in range(1, n + 1):
        value += miss * fit * (play - k * rules.draw_penalty)
        miss *= 1.0 - fit
    end = rules.failed_draw_penalty if n == limit else rules.empty_pool_penalty
    return value - miss * (n * rules.draw_penalty + end)


@dataclass
class StrongBot:
    """Planning bot: one exact reply ahead, refined by sampled play-outs (module docstring).

    ``budget``: seconds per move (wall clock; the bot stops refining when it is spent);
    ``max_candidates``: moves evaluated in full (best immediate first; at least
    ``min_candidates`` even when the clock says stop); ``replies``: the
    opponent's likeliest best replies played out exactly; ``gamma``: weight of its own next
    move; ``flex``: points per remaining tile that still fits; ``max_samples``: cap on
    play-outs per candidate (0 = no sampling, fully deterministic; None = 240 per second of
    budget, i.e. 48 at 0.2 s); ``horizon``: turns per
    play-out; ``clock``: time source (tests pass a fake one).
    """

    budget: float = 0.2
    max_candidates: int = 12
    min_candidates: int = 2
    replies: int = 8
    gamma: float = 0.35
    flex: float = 1.0
    max_samples: int | None = None
    horizon: int = 4
    refine: int = 3
    shrink: float = 32.0
    name: str = "strong"
    clock: Callable[[], float] = field(default=time.perf_counter, repr=False)

    @property
    def sample_cap(self) -> int:
        """Play-outs per candidate at most (see ``max_samples``)."""
        if self.max_samples is None:
            return max(1, int(240 * self.budget))
        return self.max_samples

    def choose(self, view: PlayerView, moves: list[Move], rng: random.Random) -> Move | None:
        """The move with the highest :attr:`Judgement.value` (the only move, if one)."""
        if len(moves) == 1:
            return moves[0]
        unseen = view.unseen()
        ctx = _Ctx(view.rules, view.board, list(view.hand), unseen, view.hand_counts,
                   view.seat, view.pool_count)
        ctx.not_held = not_held(view, ctx.next_seat, unseen)
        if len(unseen) - len(ctx.not_held) < ctx.opp_hand:
            ctx.not_held = frozenset()  # inconsistent (a voluntary draw?): assume nothing
        return self.judge(ctx, moves, rng)[0].move

    # -- evaluation -------------------------------------------------------------------
    def judge(self, ctx: _Ctx, moves: list[Move], rng: random.Random) -> list[Judgement]:
        """Judgements of ``moves`` (the evaluated ones), best value first."""
        t0 = self.clock()
        out: list[Judgement] = []
        for k, m in enumerate(moves[:self.max_candidates]):
            if k >= self.min_candidates and self.clock() - t0 > 0.6 * self.budget:
                break
            out.append(self._exact(ctx, m))
        out.sort(key=lambda j: -j.value)
        if self.sample_cap and len(out) > 1 and ctx.opp_hand:
            top, rest = out[:self.refine], out[self.refine:]
            self._sample(ctx, top, rng, t0)
            # the refined few stay ahead: their values are on a blended scale
            out = sorted(top, key=lambda j: -j.value) + rest
        return out

    def _exact(self, ctx: _Ctx, m: Move) -> Judgement:
        rules = ctx.rules
        b2 = ctx.board.copy()  # with any tiles seen in part
        b2.cells[m.cell] = m.placement.corners
        hand2 = list(ctx.hand)
        hand2.remove(m.tile)
        others = [c for s, c in enumerate(ctx.counts) if s != ctx.seat]
        mean_pts = (sum(t.total for t in ctx.unseen) / len(ctx.unseen)) if ctx.unseen else 0.0
        imm = m.score.total
        if not hand2:
            take = sum(others) * mean_pts if rules.going_out_takes_hands else 0.0
            val = imm + rules.going_out_bonus + take + rules.round_winner_bonus
            return Judgement(m, val, imm, goes_out=True)
        # every unseen tile's best reply, best first
        best: list[Move] = []
        seen: set[Tile] = set()
        for mv in legal_placements(b2, ctx.unseen, rules):
            if mv.tile not in seen:
                seen.add(mv.tile)
                best.append(mv)
        u, h = len(ctx.unseen), ctx.opp_hand
        fit = len(best) / u if u else 0.0
        avg_play = (sum(mv.score.tile_points for mv in best) / len(best)) if best else 0.0
        if ctx.not_held:  # the opponent's hand comes from the tiles it may still hold
            best = [mv for mv in best if mv.tile not in ctx.not_held]
            u -= len(ctx.not_held)
        pool_after = ctx.pool
        mine = legal_placements(b2, hand2, rules)
        fitting = len({mv.tile for mv in mine})
        my_draw = draw_value(rules, fit, avg_play, pool_after)
        hand_pts = sum(t.total for t in hand2)
        opp_out = h == 1 and not rules.finish_round_of_turns
        my_out_bonus = 0.0
        if len(hand2) == 1:
            my_out_bonus = (rules.going_out_bonus + rules.round_winner_bonus
                            + (max(h - 1, 0) * mean_pts if rules.going_out_takes_hands else 0))
        base_next = (mine[0].score.total + my_out_bonus) if mine else my_draw

        exp, opp_exp, big, own_exp = 0.0, 0.0, 0.0, 0.0
        miss = 1.0  # P(none of the replies so far is in the opponent's hand)
        for i, mv in enumerate(best):
            if i >= self.replies or u - i <= 0:
                break
            p = miss * min(1.0, h / (u - i))
            miss *= max(0.0, 1.0 - h / (u - i))
            s = mv.score.total
            opp_exp += p * s
            if mv.score.figure:
                big += p
            if opp_out:
                loss = rules.going_out_bonus + rules.round_winner_bonus + (
                    hand_pts if rules.going_out_takes_hands else 0)
                exp += p * (-s - loss)
                continue
            b3 = b2.copy()
            b3.cells[mv.cell] = mv.placement.corners
            mine3 = legal_placements(b3, hand2, rules)
            nxt = (mine3[0].score.total + my_out_bonus) if mine3 else my_draw
            exp += p * (-s + self.gamma * nxt)
            own_exp += p * nxt
        # the rest: a less likely reply (its average), or no fitting tile (opponent draws)
        k = min(len(best), self.replies)
        p_none = miss
        for i in range(k, len(best)):
            if u - i <= 0:
                break
            p_none *= max(0.0, 1.0 - h / (u - i))
        p_tail = max(0.0, miss - p_none)
        tail = best[k:]
        if tail and p_tail:
            s_tail = sum(mv.score.total for mv in tail) / len(tail)
            opp_exp += p_tail * s_tail
            big += p_tail * sum(1 for mv in tail if mv.score.figure) / len(tail)
            exp += p_tail * (-s_tail + self.gamma * base_next)
            own_exp += p_tail * base_next
        opp_draw = draw_value(rules, fit, avg_play, pool_after)
        opp_exp += p_none * opp_draw
        exp += p_none * (-opp_draw + self.gamma * base_next)
        own_exp += p_none * base_next
        val = imm + exp + self.flex * fitting
        return Judgement(m, val, imm, opp_exp, big, own_exp, fitting, len(hand2))

    def _sample(self, ctx: _Ctx, top: list[Judgement], rng: random.Random, t0: float) -> None:
        """Refine ``top`` by greedy play-outs over sampled deals of the unseen tiles.

        Every candidate is played out on the same sampled deals (common random numbers).
        Play-outs look further than the exact estimate (``horizon`` turns) but measure a
        different quantity, so only their differences are used: each candidate's play-out
        mean, re-centred on the mean exact value of ``top``, is blended with its exact value
        with weight ``samples / (samples + shrink)``.
        """
        sums = [0.0] * len(top)
        done = 0
        while done < self.sample_cap and self.clock() - t0 < 0.95 * self.budget:
            deal = _sample_deal(ctx, rng)
            for j, jd in enumerate(top):
                sums[j] += _playout(ctx, jd.move, deal, self.horizon)
            done += 1
        if not done:
            return
        means = [x / done for x in sums]
        centre = sum(means) / len(means)
        exact_centre = sum(jd.value for jd in top) / len(top)
        w = done / (done + self.shrink)
        for jd, mean in zip(top, means, strict=True):
            jd.value = (1 - w) * jd.value + w * (mean - centre + exact_centre)
            jd.samples = done
            jd.rollout_mean = mean


def _sample_deal(ctx: _Ctx, rng: random.Random) -> tuple[dict[int, list[Tile]], list[Tile]]:
    """A random deal of the unseen tiles to the other hands and the pool (in order).

    The next opponent's hand avoids the tiles it is known not to hold.
    """
    nxt = ctx.next_seat
    allowed = [t for t in ctx.unseen if t not in ctx.not_held]
    rng.shuffle(allowed)
    hands: dict[int, list[Tile]] = {nxt: allowed[:ctx.counts[nxt]]}
    rest = allowed[ctx.counts[nxt]:] + [t for t in ctx.unseen if t in ctx.not_held]
    rng.shuffle(rest)
    k = 0
    for s, c in enumerate(ctx.counts):
        if s in (ctx.seat, nxt):
            continue
        hands[s] = rest[k:k + c]
        k += c
    return hands, rest[k:]


def not_held(view: PlayerView, seat: int, unseen: Sequence[Tile]) -> frozenset[Tile]:
    """Unseen tiles that ``seat`` cannot hold, inferred from what the table saw.

    A player who drew (or passed) had no tile that fitted the board at the start of that
    turn; until they draw again their hand only shrinks. So every unseen tile that fitted
    the board before their last drawing turn is not in their hand. (Sound when players
    draw only when unable to play; a caller seeing a contradiction drops the inference.)
    """
    last = None
    for k, t in enumerate(view.history):
        if t.seat == seat and (t.drew > 0 or t.placement is None):
            last = k
    if last is None:
        return frozenset()
    cells = dict(view.board.cells)
    for t in view.history[last:]:
        if t.placement is not None:
            cells.pop(t.placement.cell, None)
    if not cells:
        return frozenset()
    before = Board(cells, view.board.set_name)
    return frozenset(m.tile for m in legal_placements(before, unseen, view.rules))


def _playout(ctx: _Ctx, m: Move, deal: tuple[dict[int, list[Tile]], list[Tile]],
             horizon: int) -> float:
    """Own points minus the opponents' mean over ``horizon`` turns after ``m``, greedy play."""
    rules = ctx.rules
    board = ctx.board.copy()  # with any tiles seen in part
    board.cells[m.cell] = m.placement.corners
    hands = {s: list(h) for s, h in deal[0].items()}
    hands[ctx.seat] = [t for t in ctx.hand if t != m.tile]
    pool = list(deal[1])
    n = len(ctx.counts)
    gain = {s: 0.0 for s in range(n)}
    gain[ctx.seat] += m.score.total
    seat, turns = ctx.seat, 0
    while True:
        if not hands[seat]:
            others = sum(sum(t.total for t in h) for s, h in hands.items() if s != seat)
            gain[seat] += rules.going_out_bonus + rules.round_winner_bonus + (
                others if rules.going_out_takes_hands else 0)
            break
        if turns >= horizon:
            break
        seat = (seat + 1) % n
        turns += 1
        hand = hands[seat]
        moves = legal_placements(board, hand, rules)
        drawn = 0
        limit = rules.draw_limit
        while not moves and pool and (limit is None or drawn < limit):
            t = pool.pop(0)
            drawn += 1
            hand.append(t)
            moves = legal_placements(board, [t], rules, draws=drawn)
        if moves:
            mv = moves[0]
            board.cells[mv.cell] = mv.placement.corners
            hand.remove(mv.tile)
            gain[seat] += mv.score.total
        else:
            reached = limit is not None and drawn >= limit
            gain[seat] -= drawn * rules.draw_penalty + (
                rules.failed_draw_penalty if reached else rules.empty_pool_penalty)
    opp = [gain[s] for s in range(n) if s != ctx.seat]
    return gain[ctx.seat] - sum(opp) / len(opp)


def make_bot(name: str, budget: float = 0.2) -> GreedyBot | RandomBot | StrongBot:
    """A bot by name (``random``, ``greedy``, ``strong``). Raises ParseError otherwise."""
    key = name.strip().lower()
    if key == "random":
        return RandomBot()
    if key == "greedy":
        return GreedyBot()
    if key == "strong":
        if budget <= 0:
            raise ParseError(f"the thinking budget must be > 0 seconds, not {budget}")
        return StrongBot(budget=budget)
    raise ParseError(f"unknown player {name!r} (known: {', '.join(BOT_NAMES)})")


def parse_players(text: str, budget: float = 0.2) -> list[GreedyBot | RandomBot | StrongBot]:
    """Players from ``"strong,greedy"`` (2-6 names). Raises ParseError for bad input."""
    names = [x for x in (p.strip() for p in text.split(",")) if x]
    if not 2 <= len(names) <= 6:
        raise ParseError(f"give 2-6 players separated by commas, not {len(names)} "
                         f"(e.g. strong,greedy)")
    return [make_bot(x, budget) for x in names]


def hint(board: Board, rack: Sequence[Tile], rules: Rules, *, opponent_tiles: int | None = None,
         players: int = 2, budget: float = 0.5, seed: int = 0,
         draws: int = 0) -> list[Judgement]:
    """Rank every legal move of ``rack`` on ``board`` by the strong bot's judgement.

    The hands of the others are unknown to a photo; by default each of the ``players - 1``
    others is taken to hold as many tiles as ``rack`` (``opponent_tiles`` overrides), and
    the pool holds the rest of the unseen tiles. Returns one :class:`Judgement` per move,
    best first (moves the budget left unjudged follow, by immediate score, with their
    immediate score as value; with the default settings every move is judged). Raises
    ParseError for a bad player count.
    """
    if not 2 <= players <= 6:
        raise ParseError(f"players must be 2-6, not {players}")
    moves = legal_placements(board, rack, rules, draws=draws)
    if not moves:
        return []
    seen = set(rack) | {Tile.from_digits(d) for d in board.cells.values()}
    unseen = sorted(t for t in tile_set(board.set_name) if t not in seen)
    k = opponent_tiles if opponent_tiles is not None else len(rack)
    counts = [len(rack)] + [min(k, max(len(unseen), 0) // max(players - 1, 1))] * (players - 1)
    pool = max(0, len(unseen) - sum(counts[1:]))
    ctx = _Ctx(rules, board, list(rack), unseen, tuple(counts), 0, pool)
    bot = StrongBot(budget=budget, max_candidates=len(moves), min_candidates=len(moves))
    judged = bot.judge(ctx, moves, random.Random(seed))
    done = {id(j.move) for j in judged}
    rest = [Judgement(m, float(m.score.total), m.score.total) for m in moves
            if id(m) not in done]
    return judged + rest




# --- self-play --------------------------------------------------------------------------

@dataclass
class SelfPlayResult:
    """Results of self-play per player slot (in the order given, whatever seat it sat in).

    ``wins`` counts games won (a shared win counts 1/k for each of k winners); ``points``
    the sum of game totals; ``rounds`` the rounds played; ``round_wins`` rounds with the
    highest round score (shared likewise); ``moves``/``think`` the moves made and seconds
    spent choosing them.
    """

    names: list[str]
    games: int = 0
    rounds: int = 0
    wins: list[float] = field(default_factory=list)
    round_wins: list[float] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    think: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, object]:
        """JSON form with per-slot averages."""
        return {"games": self.games, "rounds": self.rounds, "seconds": round(self.seconds, 3),
                "players": [{"slot": i, "name": x, "wins": self.wins[i],
                             "win_rate": self.wins[i] / self.games if self.games else None,
                             "round_wins": self.round_wins[i],
                             "avg_game_total": self.points[i] / self.games if self.games
                             else None,
                             "avg_round_score": self.points[i] / self.rounds if self.rounds
                             else None,
                             "sec_per_move": self.think[i] / self.moves[i] if self.moves[i]
                             else None}
                            for i, x in enumerate(self.names)]}


class _Timed:
    """Wraps a player to count its moves and thinking time."""

    def __init__(self, inner: GreedyBot | RandomBot | StrongBot) -> None:
        self.inner = inner
        self.name = inner.name
        self.moves = 0
        self.seconds = 0.0

    def choose(self, view: PlayerView, moves: list[Move], rng: random.Random) -> Move | None:
        t0 = time.perf_counter()
        pick = self.inner.choose(view, moves, rng)
        self.seconds += time.perf_counter() - t0
        self.moves += 1
        return pick


def selfplay(players: str, games: int, seed: int, rules: Rules, *, budget: float = 0.2,
             rounds: int | None = None, set_name: str = "standard",
             on_game: Callable[[int, object], None] | None = None) -> SelfPlayResult:
    """Play ``games`` games between ``players`` (e.g. ``"strong,greedy"``), rotating seats.

    Game ``g`` is seeded ``f"{seed}/{g}"`` and seats the slots rotated by ``g`` places, so
    every slot sits in every seat equally often. ``rounds`` limits each game to that many
    rounds (default: play to the target score). ``on_game(g, record)`` is called after each.
    Raises ParseError for bad player names or counts.
    """
    from .game import play_game  # local: game imports nothing from here, keep it one-way

    if games < 1:
        raise ParseError(f"--games must be at least 1, not {games}")
    slots = [_Timed(b) for b in parse_players(players, budget)]
    n = len(slots)
    res = SelfPlayResult([b.name for b in slots], wins=[0.0] * n, round_wins=[0.0] * n,
                         points=[0] * n, moves=[0] * n, think=[0.0] * n)
    t0 = time.perf_counter()
    for g in range(games):
        order = [(g + k) % n for k in range(n)]  # seat k holds slot order[k]
        rec = play_game(rules, [slots[i] for i in order], seed=f"{seed}/{g}", rounds=rounds,
                        set_name=set_name)
        tot = rec.totals()
        win = rec.winners()
        for seat, slot in enumerate(order):
            res.points[slot] += tot[seat]
            if seat in win:
                res.wins[slot] += 1 / len(win)
        for r in rec.rounds:
            sc = r.scores(n)
            top = [s for s, v in enumerate(sc) if v == max(sc)]
            for seat in top:
                res.round_wins[order[seat]] += 1 / len(top)
        res.rounds += len(rec.rounds)
        res.games += 1
        if on_game:
            on_game(g, rec)
    res.moves = [b.moves for b in slots]
    res.think = [b.seconds for b in slots]
    res.seconds = time.perf_counter() - t0
    return res


__all__ = ["BOT_NAMES", "GreedyBot", "Judgement", "RandomBot", "SelfPlayResult", "StrongBot",
           "draw_value", "hint", "make_bot", "not_held", "parse_players", "selfplay"]
