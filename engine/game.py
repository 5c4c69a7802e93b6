"""Whole games: deals, the starter, turns, drawing, passing, round ends, rounds to 400.

A game follows one :class:`~engine.rules.Rules` edition (RULES.md); every number and every
edition difference is read from that record, never from the edition's name:

* **deal**: ``rules.deal_size(players)`` tiles each (2-6 players); the rest is the pool,
  face down, drawn from the front of its shuffled order;
* **starter** (``rules.start``): ``"draw"`` - every player draws a tile from the shuffled
  set, the highest sum starts (tied players draw again), the tiles go back and the set is
  shuffled anew before the deal; the starter plays any tile. ``"triple"`` - the player
  holding the highest triple starts with it (or with 0-0-0 if they hold it too: their
  choice); with no triple dealt, the holder of the highest tile (sum, then name) starts with
  it. Start bonuses come from the scorer (``first_move``);
* **a turn**: play one legal tile, or draw (a player may draw even when able to play, while
  the pool has tiles): at most ``rules.draw_limit`` tiles, ``-draw_penalty`` each; a drawn
  tile that fits must be played at once; still unable after the limit:
  ``-failed_draw_penalty`` more and pass; nothing left to draw: pass with
  ``-empty_pool_penalty`` (Goliath 0, Pressman 10);
* **going out** (an empty hand): ``+going_out_bonus`` plus the sum of the tiles left in the
  other hands (``going_out_takes_hands``) plus ``round_winner_bonus``; with
  ``finish_round_of_turns`` the players after them up to the starter's seat still play, so
  everyone has played equally often;
* **blocked** (the pool is empty and nobody holding tiles can play, checked after every
  turn once the pool is empty): ``subtract_own`` - every player loses their own remaining
  sum; ``lowest_wins`` - the lowest remaining sum (each of them, on a tie) scores the other
  players' sums minus their own (if ``going_out_takes_hands``) plus ``round_winner_bonus``;
* **the game**: rounds until a total reaches ``rules.target_score`` at the end of a round;
  the highest total wins (ties share the win).

Readings where the sheets are silent (documented, tested): the round's starter is chosen
anew every round by the same procedure; hands are summed with digit sums even in the kids'
edition (they decide who is lowest; kids' scoring takes no hand points).

The record (:class:`GameRecord`, JSON ``triominos-game/1``) holds every deal, the pool order,
the starter draws and every turn (tiles drawn, placement, score with breakdown) plus the
round-end adjustments; :func:`replay` re-plays it with the engine's own legality and
scoring and returns every disagreement (see also :mod:`engine.audit`).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .board import Board
from .errors import ParseError, read_input_file
from .moves import Move, Placement, legal_placements, placement_problems
from .rules import Rules, get_rules
from .scoring import Score, score_pass, score_placement
from .tiles import Tile, tile_set

GAME_FORMAT = "triominos-game/1"
#: Safety cap on the rounds of one game (an edition whose rounds score nothing would never end).
MAX_ROUNDS = 500


# --- what a player sees and decides ------------------------------------------------------

@dataclass(frozen=True)
class PublicTurn:
    """What everyone at the table saw of one turn: who, how many tiles they drew, what
    they placed (None = a pass). Never the drawn tiles' faces."""

    seat: int
    drew: int
    placement: Placement | None


@dataclass(frozen=True)
class PlayerView:
    """Everything a player may know when choosing: no other hand, no pool order.

    ``board`` is the live board (read-only for players); ``hand`` the player's tiles;
    ``hand_counts[s]`` / ``scores[s]`` the number of tiles / round score of seat ``s``;
    ``pool_count`` the tiles left to draw; ``draws`` tiles drawn so far this turn (then the
    moves offered are those of the last drawn tile, which must be played if it fits);
    ``first_move`` true for the round's opening tile; ``history`` the round's turns so far
    as everyone saw them (:class:`PublicTurn`).
    """

    seat: int
    hand: tuple[Tile, ...]
    board: Board
    rules: Rules
    hand_counts: tuple[int, ...]
    pool_count: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    draws: int = 0
    first_move: bool = False
    history: tuple[PublicTurn, ...] = ()

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.hand_counts)

    def may_draw(self) -> bool:
        """True when choosing to draw instead of playing is allowed now."""
        limit = self.rules.draw_limit
        return (not self.first_move and self.draws == 0 and self.pool_count > 0
                and (limit is None or limit > 0))

    def unseen(self) -> list[Tile]:
        """Tiles this player cannot see: in other hands or in the pool (name order)."""
        seen = set(self.hand) | {Tile.from_digits(d) for d in self.board.cells.values()}
        return sorted(t for t in tile_set(self.board.set_name) if t not in seen)


class Player(Protocol):
    """A seat's decision maker (a bot or a person at a prompt)."""

    name: str

    def choose(self, view: PlayerView, moves: list[Move], rng: random.Random) -> Move | None:
        """Pick one of ``moves`` (legal, best immediate score first), or None to draw.

        None is only honoured when ``view.may_draw()``; otherwise it is an error.
        """
        ...


# --- the record ----------------------------------------------------------------------------

@dataclass
class TurnRecord:
    """One turn: who, the tiles drawn, the placement (None = pass) and its score."""

    number: int
    seat: int
    drawn: list[Tile]
    placement: Placement | None
    score: Score
    hand_left: int

    def to_json(self) -> dict[str, Any]:
        """JSON form (tile names, placement notation, the full Score)."""
        return {"turn": self.number, "player": self.seat,
                "drawn": [t.name() for t in self.drawn],
                "placement": self.placement.notation() if self.placement else None,
                "tile": self.placement.tile.name() if self.placement else None,
                "score": self.score.to_json(), "hand_left": self.hand_left}


@dataclass
class RoundEnd:
    """How a round ended and what each seat gains/loses then.

    ``reason``: ``out`` (someone played their last tile) or ``blocked``; ``out``: seats
    that went out; ``winners``: the round winners by the rule sheet (those out, or the
    lowest hand when blocked); ``remaining``: tiles left per seat; ``adjust``/``notes``:
    points and a one-line reason per seat.
    """

    reason: str
    out: list[int]
    winners: list[int]
    remaining: list[list[Tile]]
    adjust: list[int]
    notes: list[str]

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"reason": self.reason, "out": self.out, "winners": self.winners,
                "remaining": [[t.name() for t in h] for h in self.remaining],
                "adjust": self.adjust, "notes": self.notes}


@dataclass
class RoundRecord:
    """One round: the starter draws, the deal, the pool order, the turns, the end."""

    number: int
    starter: int
    starter_draws: list[list[Tile]]
    deal: list[list[Tile]]
    pool: list[Tile]
    turns: list[TurnRecord] = field(default_factory=list)
    end: RoundEnd | None = None

    def scores(self, players: int) -> list[int]:
        """Round score per seat: every turn's score plus the round-end adjustment."""
        out = [0] * players
        for t in self.turns:
            out[t.seat] += t.score.total
        if self.end:
            for s, a in enumerate(self.end.adjust):
                out[s] += a
        return out

    def to_json(self, players: int) -> dict[str, Any]:
        """JSON form, with the round scores."""
        return {"round": self.number, "starter": self.starter,
                "starter_draws": [[t.name() for t in d] for d in self.starter_draws],
                "deal": [[t.name() for t in h] for h in self.deal],
                "pool": [t.name() for t in self.pool],
                "turns": [t.to_json() for t in self.turns],
                "end": self.end.to_json() if self.end else None,
                "scores": self.scores(players)}


@dataclass
class GameRecord:
    """A whole game (or one round): rules, players, seed, rounds, totals, winners."""

    rules: Rules
    players: list[str]
    seed: int | str | None
    set_name: str = "standard"
    rounds: list[RoundRecord] = field(default_factory=list)

    def totals(self) -> list[int]:
        """Game total per seat."""
        out = [0] * len(self.players)
        for r in self.rounds:
            for s, v in enumerate(r.scores(len(self.players))):
                out[s] += v
        return out

    def winners(self) -> list[int]:
        """Seats with the highest total (several on a tie)."""
        tot = self.totals()
        best = max(tot)
        return [s for s, v in enumerate(tot) if v == best]

    def to_json(self) -> dict[str, Any]:
        """Game JSON (``triominos-game/1``): everything needed to replay it exactly."""
        n = len(self.players)
        running = [0] * n
        rounds = []
        for r in self.rounds:
            d = r.to_json(n)
            running = [a + b for a, b in zip(running, d["scores"], strict=True)]
            d["totals"] = list(running)
            rounds.append(d)
        return {"format": GAME_FORMAT, "rules": self.rules.name,
                "rules_data": rules_to_json(self.rules), "set": self.set_name,
                "players": list(self.players), "seed": self.seed, "rounds": rounds,
                "totals": self.totals(), "winners": self.winners()}

    def dumps(self) -> str:
        """Game JSON text (one turn per line, readable in a diff)."""
        return json.dumps(self.to_json(), indent=1) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the game JSON to ``path``."""
        Path(path).write_text(self.dumps(), encoding="utf-8")


def rules_to_json(rules: Rules) -> dict[str, Any]:
    """Every field of ``rules`` as JSON (tuples become lists); :func:`rules_from_json` reads it."""
    return {k: list(v) if isinstance(v, tuple) else v
            for k, v in dataclasses.asdict(rules).items()}


def rules_from_json(data: Any, name: Any = None) -> Rules:
    """The Rules of a game file: the full ``rules_data`` record, else the edition ``name``.

    Raises ParseError for an unknown edition or a malformed record.
    """
    if isinstance(data, dict):
        fields = {f.name for f in dataclasses.fields(Rules)}
        unknown = set(data) - fields
        if unknown:
            raise ParseError(f"rules_data: unknown field(s) {', '.join(sorted(unknown))}")
        try:
            kw = {k: (tuple(tuple(x) if isinstance(x, list) else x for x in v)
                      if isinstance(v, list) else v) for k, v in data.items()}
            return Rules(**kw)
        except TypeError as e:
            raise ParseError(f"rules_data: {e}") from None
    if isinstance(name, str):
        return get_rules(name)
    return get_rules("goliath")


# --- round-end scoring -----------------------------------------------------------------------

def hand_points(hand: Sequence[Tile]) -> int:
    """The sum of all digits in a hand (what going out takes / blocked rounds subtract)."""
    return sum(t.total for t in hand)


def round_end(rules: Rules, remaining: Sequence[Sequence[Tile]], out: Sequence[int]) -> RoundEnd:
    """Round-end adjustments under ``rules`` given the tiles left per seat and who went out.

    ``out`` empty means the round was blocked. See the module docstring for the scoring.
    """
    n = len(remaining)
    sums = [hand_points(h) for h in remaining]
    adjust, notes = [0] * n, [""] * n
    rem = [list(h) for h in remaining]
    if out:
        for s in out:
            others = sum(v for k, v in enumerate(sums) if k != s)
            take = others if rules.going_out_takes_hands else 0
            adjust[s] = rules.going_out_bonus + take + rules.round_winner_bonus
            parts = []
            if rules.going_out_bonus:
                parts.append(f"going out +{rules.going_out_bonus}")
            if take:
                parts.append(f"others' tiles +{take}")
            if rules.round_winner_bonus:
                parts.append(f"round winner +{rules.round_winner_bonus}")
            notes[s] = ", ".join(parts) or "went out"
        return RoundEnd("out", sorted(out), sorted(out), rem, adjust, notes)
    low = min(sums)
    winners = [s for s, v in enumerate(sums) if v == low]
    if rules.blocked_scoring == "lowest_wins":
        for s in winners:
            others = sum(v for k, v in enumerate(sums) if k != s)
            gain = (others - sums[s]) if rules.going_out_takes_hands else 0
            adjust[s] = gain + rules.round_winner_bonus
            parts = [f"lowest hand: others' tiles +{others} - own {sums[s]}"] if gain or \
                rules.going_out_takes_hands else ["lowest hand"]
            if rules.round_winner_bonus:
                parts.append(f"round winner +{rules.round_winner_bonus}")
            notes[s] = ", ".join(parts)
    elif rules.blocked_scoring == "subtract_own":
        for s in range(n):
            adjust[s] = -sums[s]
            notes[s] = f"own tiles -{sums[s]}" if sums[s] else ""
        for s in winners:
            if rules.round_winner_bonus:
                adjust[s] += rules.round_winner_bonus
                notes[s] = ", ".join(x for x in (notes[s],
                                                 f"round winner +{rules.round_winner_bonus}") if x)
    else:
        raise ParseError(f"unknown blocked_scoring {rules.blocked_scoring!r} "
                         "(expected subtract_own or lowest_wins)")
    return RoundEnd("blocked", [], winners, rem, adjust, notes)


# --- playing ----------------------------------------------------------------------------------

def choose_starter_by_draw(tiles: Sequence[Tile], players: int,
                           rng: random.Random) -> tuple[int, list[list[Tile]]]:
    """The ``draw`` start: each player draws one tile; the highest sum starts, ties redraw.

    Returns the starter's seat and every drawing round (``draws[k][i]`` = the tile the
    ``i``-th player still in contention drew in round ``k``, contenders in seat order).
    """
    contenders = list(range(players))
    history: list[list[Tile]] = []
    while True:
        drawn = rng.sample(list(tiles), len(contenders))
        history.append(drawn)
        best = max(t.total for t in drawn)
        contenders = [s for s, t in zip(contenders, drawn, strict=True) if t.total == best]
        if len(contenders) == 1:
            return contenders[0], history


def starter_from_draws(history: Sequence[Sequence[Tile]], players: int) -> int:
    """Re-decide the starter from recorded starter draws (see :func:`choose_starter_by_draw`).

    Raises ParseError when the draws do not decide a single starter.
    """
    contenders = list(range(players))
    for drawn in history:
        if len(drawn) != len(contenders):
            raise ParseError(f"starter draws: {len(drawn)} tiles drawn by "
                             f"{len(contenders)} players")
        best = max(t.total for t in drawn)
        contenders = [s for s, t in zip(contenders, drawn, strict=True) if t.total == best]
    if len(contenders) != 1:
        raise ParseError("starter draws do not decide a single starter")
    return contenders[0]


def triple_start(hands: Sequence[Sequence[Tile]]) -> tuple[int, list[Tile]]:
    """The ``triple`` start: the starter's seat and the tiles they may open with.

    The holder of the highest triple opens with it (or with 0-0-0 if they also hold it);
    with no triple dealt, the holder of the highest tile (sum, then name) opens with it.
    """
    triples = sorted(((t, s) for s, h in enumerate(hands) for t in h if t.is_triple),
                     key=lambda ts: ts[0].digits, reverse=True)
    if triples:
        top, seat = triples[0]
        opts = [top]
        zero = Tile((0, 0, 0))
        if top != zero and zero in hands[seat]:
            opts.append(zero)
        return seat, opts
    best = max(((t.total, t.digits), s, t) for s, h in enumerate(hands) for t in h)
    return best[1], [best[2]]


def next_seat(rules: Rules, board: Board, hands: Sequence[Sequence[Tile]], pool_left: bool,
              seat: int, starter: int, out: Sequence[int]) -> int | None:
    """The seat to play after ``seat``'s turn, or None when the round is over.

    Over when someone went out (and the edition does not finish the round of turns, or the
    next turn would be the starter's again), or when the pool is empty and nobody holding
    tiles can play (blocked). Seats that went out are skipped while the round of turns is
    finished.
    """
    n = len(hands)
    if out and not rules.finish_round_of_turns:
        return None
    nxt = (seat + 1) % n
    if out:
        while nxt != starter and not hands[nxt]:
            nxt = (nxt + 1) % n
        if nxt == starter:
            return None
    if not pool_left and not any(h and legal_placements(board, h, rules) for h in hands):
        return None
    return nxt


@dataclass
class _RoundState:
    rules: Rules
    board: Board
    hands: list[list[Tile]]
    pool: list[Tile]
    scores: list[int]
    totals: list[int]
    public: list[PublicTurn] = field(default_factory=list)

    def view(self, seat: int, draws: int = 0, first: bool = False) -> PlayerView:
        return PlayerView(seat, tuple(self.hands[seat]), self.board, self.rules,
                          tuple(len(h) for h in self.hands), len(self.pool),
                          tuple(self.scores), tuple(self.totals), draws, first,
                          tuple(self.public))


def _choose(player: Player, view: PlayerView, moves: list[Move], rng: random.Random,
            *, may_draw: bool) -> Move | None:
    pick = player.choose(view, moves, rng)
    if pick is None:
        if may_draw:
            return None
        raise ParseError(f"player {player.name} chose to draw where it must play")
    if pick not in moves:
        raise ParseError(f"player {player.name} chose a move that is not among the legal ones")
    return pick


def deal_round(rules: Rules, players: int, rng: random.Random, set_name: str = "standard"
               ) -> tuple[int, list[list[Tile]], list[list[Tile]], list[Tile]]:
    """Shuffle and deal: returns ``(starter, starter_draws, hands, pool)``.

    The starter follows ``rules.start`` (see the module docstring); ``starter_draws`` is
    empty for the triple start. Raises ParseError for a bad player count.
    """
    k = rules.deal_size(players)
    tiles = sorted(tile_set(set_name))
    starter_draws: list[list[Tile]] = []
    starter = 0
    if rules.start == "draw":
        starter, starter_draws = choose_starter_by_draw(tiles, players, rng)
    rng.shuffle(tiles)
    deal = [tiles[s * k:(s + 1) * k] for s in range(players)]
    if rules.start != "draw":
        starter = triple_start(deal)[0]
    return starter, starter_draws, deal, tiles[players * k:]


def play_round(rules: Rules, players: Sequence[Player], rng: random.Random,
               bot_rngs: Sequence[random.Random], *, number: int = 1,
               totals: Sequence[int] | None = None, set_name: str = "standard") -> RoundRecord:
    """Deal (:func:`deal_round`) and play one round; returns its record.

    ``rng`` shuffles and chooses the starter; ``bot_rngs[s]`` is passed to seat ``s``'s
    ``choose`` (so bot randomness never changes the deal). Raises ParseError for a bad
    player count or a player that breaks the protocol.
    """
    starter, draws, deal, pool = deal_round(rules, len(players), rng, set_name)
    return play_dealt(rules, players, deal, pool, starter, bot_rngs, number=number,
                      starter_draws=draws, totals=totals, set_name=set_name)


def play_dealt(rules: Rules, players: Sequence[Player], deal: Sequence[Sequence[Tile]],
               pool: Sequence[Tile], starter: int, bot_rngs: Sequence[random.Random], *,
               number: int = 1, starter_draws: Sequence[Sequence[Tile]] = (),
               totals: Sequence[int] | None = None, set_name: str = "standard") -> RoundRecord:
    """Play one round from given hands and pool order (tests build hands with this).

    ``deal[s]``: seat ``s``'s tiles; ``pool``: the face-down tiles in drawing order;
    ``starter``: the seat that opens (with the triple start, the opening tile is still
    forced by :func:`triple_start`). Nothing checks that the deal is a whole set.
    """
    n = len(players)
    opening = triple_start(deal)[1] if rules.start != "draw" else None
    rec = RoundRecord(number, starter, [list(d) for d in starter_draws],
                      [list(h) for h in deal], list(pool))
    st = _RoundState(rules, Board(set_name=set_name), [list(h) for h in deal], list(pool),
                     [0] * n, list(totals or [0] * n))
    out: list[int] = []
    seat, turn_no = starter, 0
    while True:
        turn_no += 1
        hand = st.hands[seat]
        first = not st.board.cells
        drawn: list[Tile] = []
        placement: Placement | None = None
        score: Score
        rack = opening if (first and opening) else hand
        moves = legal_placements(st.board, rack, rules, first_move=first)
        view = st.view(seat, 0, first)
        pick = _choose(players[seat], view, moves, bot_rngs[seat],
                       may_draw=view.may_draw()) if moves else None
        if pick is not None:
            placement, score = pick.placement, pick.score
        else:
            limit = rules.draw_limit
            while st.pool and (limit is None or len(drawn) < limit):
                t = st.pool.pop(0)
                drawn.append(t)
                hand.append(t)
                moves = legal_placements(st.board, [t], rules, draws=len(drawn))
                if moves:
                    v = st.view(seat, len(drawn))
                    pick = _choose(players[seat], v, moves, bot_rngs[seat], may_draw=False)
                    placement, score = pick.placement, pick.score  # type: ignore[union-attr]
                    break
            if placement is None:
                score = score_pass(rules, len(drawn), pool_empty=not st.pool and
                                   (limit is None or len(drawn) < limit))
        if placement is not None:
            st.board.cells[placement.cell] = placement.corners
            hand.remove(placement.tile)
        st.scores[seat] += score.total
        rec.turns.append(TurnRecord(turn_no, seat, drawn, placement, score, len(hand)))
        st.public.append(PublicTurn(seat, len(drawn), placement))
        if placement is not None and not hand and seat not in out:
            out.append(seat)
        nxt = next_seat(rules, st.board, st.hands, bool(st.pool), seat, starter, out)
        if nxt is None:
            break
        seat = nxt
    rec.end = round_end(rules, st.hands, out)
    return rec


def play_game(rules: Rules, players: Sequence[Player], seed: int | str = 0, *,
              rounds: int | None = None, set_name: str = "standard",
              progress: Callable[[RoundRecord], None] | None = None) -> GameRecord:
    """Play a game: rounds until a total reaches ``rules.target_score`` (or ``rounds`` rounds).

    Deterministic for a given ``seed`` and deterministic players. Returns the record.
    Raises ParseError for 0-1 or more than 6 players.
    """
    n = len(players)
    rules.deal_size(n)  # validates the player count
    rng = random.Random(f"deal/{seed}")
    bot_rngs = [random.Random(f"bot/{seed}/{s}") for s in range(n)]
    names = [p.name for p in players]
    if len(set(names)) < n:  # a sheet needs one name per seat
        names = [f"{x}-{s + 1}" for s, x in enumerate(names)]
    game = GameRecord(rules, names, seed, set_name)
    limit = rounds if rounds is not None else MAX_ROUNDS
    while len(game.rounds) < limit:
        r = play_round(rules, players, rng, bot_rngs, number=len(game.rounds) + 1,
                       totals=game.totals(), set_name=set_name)
        game.rounds.append(r)
        if progress:
            progress(r)
        if rounds is None and max(game.totals()) >= rules.target_score:
            break
    return game


# --- loading and replaying --------------------------------------------------------------------

def _tiles(raw: Any, where: str) -> list[Tile]:
    if not isinstance(raw, list):
        raise ParseError(f"{where}: expected a list of tiles")
    try:
        return [Tile.parse(x) for x in raw]
    except ParseError as e:
        raise ParseError(f"{where}: {e}") from None


@dataclass(frozen=True)
class ReplayIssue:
    """One disagreement found while replaying: where (round, turn, seat) and what."""

    round: int
    turn: int | None
    seat: int | None
    kind: str
    message: str

    def line(self, players: Sequence[str] = ()) -> str:
        """``round 2, turn 7 (Bo): message``."""
        who = ""
        if self.seat is not None:
            who = f" ({players[self.seat] if self.seat < len(players) else self.seat})"
        where = f"round {self.round}" + (f", turn {self.turn}" if self.turn is not None else
                                         ", end")
        return f"{where}{who}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"round": self.round, "turn": self.turn, "seat": self.seat, "kind": self.kind,
                "message": self.message}


def load_game(path: str | Path) -> dict[str, Any]:
    """Read a JSON file into a dict. Raises ParseError naming the file."""
    p = Path(path)
    text = read_input_file(p)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ParseError(f"{p}: not JSON: {e.msg} at line {e.lineno}") from None
    if not isinstance(data, dict):
        raise ParseError(f"{p}: expected a JSON object")
    return data


def replay(data: dict[str, Any]) -> tuple[GameRecord, list[ReplayIssue]]:
    """Re-play a game JSON (``triominos-game/1``) with the engine's rules and scoring.

    Checks, per turn: it is that seat's turn; the tiles drawn are the pool's next ones and
    drawing was allowed; the tile is in the hand (or was just drawn); the placement is legal
    (:func:`~engine.moves.placement_problems`); the recorded score equals the engine's
    (:func:`~engine.scoring.score_placement` / :func:`~engine.scoring.score_pass`); and at
    the end of a round the end reason and every adjustment. Returns the game as the engine
    scores it (illegal placements are still put on the board so later turns can be
    checked) and every issue found (an empty list = the record replays exactly).
    Raises ParseError for a file that is not a game record at all.
    """
    if data.get("format") != GAME_FORMAT:
        raise ParseError(f"unknown format {data.get('format')!r} (expected {GAME_FORMAT!r})")
    rules = rules_from_json(data.get("rules_data"), data.get("rules"))
    names = data.get("players")
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        raise ParseError("\"players\" must be a list of names")
    n = len(names)
    set_name = data.get("set", "standard")
    tile_set(set_name)
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise ParseError("\"rounds\" must be a list")
    game = GameRecord(rules, list(names), data.get("seed"), set_name)
    issues: list[ReplayIssue] = []
    for ri, rd in enumerate(rounds, 1):
        if not isinstance(rd, dict):
            raise ParseError(f"rounds[{ri - 1}]: expected an object")
        game.rounds.append(_replay_round(rules, n, set_name, ri, rd, issues))
    return game, issues


def _replay_round(rules: Rules, n: int, set_name: str, ri: int, rd: dict[str, Any],
                  issues: list[ReplayIssue]) -> RoundRecord:
    def issue(turn: int | None, seat: int | None, kind: str, msg: str) -> None:
        issues.append(ReplayIssue(ri, turn, seat, kind, msg))

    deal_raw = rd.get("deal")
    if not isinstance(deal_raw, list) or len(deal_raw) != n:
        raise ParseError(f"round {ri}: \"deal\" must list one hand per player")
    deal = [_tiles(h, f"round {ri} deal") for h in deal_raw]
    pool = _tiles(rd.get("pool", []), f"round {ri} pool")
    draws_hist = [_tiles(d, f"round {ri} starter_draws") for d in rd.get("starter_draws", [])]
    k = rules.deal_size(n)
    if any(len(h) != k for h in deal):
        issue(None, None, "deal", f"hands of {[len(h) for h in deal]} tiles; "
                                  f"{rules.name} deals {k} each to {n} players")
    every = [t for h in deal for t in h] + pool
    if sorted(every) != sorted(tile_set(set_name)):
        issue(None, None, "deal", f"deal and pool are not the {set_name} set exactly once")
    if rules.start == "draw":
        try:
            starter = starter_from_draws(draws_hist, n)
        except ParseError as e:
            issue(None, None, "starter", str(e))
            starter = int(rd.get("starter", 0))
        opening: list[Tile] | None = None
    else:
        starter, opening = triple_start(deal)
    if rd.get("starter") != starter:
        issue(None, None, "starter", f"the starter is seat {starter}, not {rd.get('starter')}")
    rec = RoundRecord(ri, starter, draws_hist, deal, pool)
    board = Board(set_name=set_name)
    hands = [list(h) for h in deal]
    pool_left = list(pool)
    expected_seat = starter
    out: list[int] = []
    ended = False
    for tn, td in enumerate(rd.get("turns", []), 1):
        if not isinstance(td, dict):
            raise ParseError(f"round {ri} turn {tn}: expected an object")
        seat = td.get("player")
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ParseError(f"round {ri} turn {tn}: bad player {seat!r}")
        if ended:
            issue(tn, seat, "order", "a turn after the round had ended")
        if seat != expected_seat:
            issue(tn, seat, "order", f"it was seat {expected_seat}'s turn")
        hand = hands[seat]
        drawn = _tiles(td.get("drawn", []), f"round {ri} turn {tn} drawn")
        first = not board.cells
        limit = rules.draw_limit
        if drawn:
            if first:
                issue(tn, seat, "draw", "drew on the opening turn")
            if limit is not None and len(drawn) > limit:
                issue(tn, seat, "draw", f"drew {len(drawn)} tiles; {rules.name} allows {limit}")
            for i, t in enumerate(drawn):
                if i < len(pool_left) and pool_left[i] == t:
                    continue
                issue(tn, seat, "draw", f"drew {t}, but the pool's next tile was "
                      f"{pool_left[i] if i < len(pool_left) else 'none (empty pool)'}")
                break
            for t in drawn[:-1]:
                if board.cells and legal_placements(board, [t], rules):
                    issue(tn, seat, "draw", f"drawn tile {t} fits and had to be played at once")
            for t in drawn:
                if t in pool_left:
                    pool_left.remove(t)
                hand.append(t)
        pl_raw = td.get("placement")
        claimed = td.get("score", {})
        claimed_total = claimed.get("total") if isinstance(claimed, dict) else claimed
        placement: Placement | None = None
        if pl_raw is not None:
            try:
                placement = Placement.parse(str(pl_raw), board)
            except ParseError as e:
                raise ParseError(f"round {ri} turn {tn}: {e}") from None
            except ValueError as e:  # illegal / ambiguous tile-form placement
                issue(tn, seat, "illegal", str(e))
                placement = None
        if placement is not None:
            tile = placement.tile
            problems = placement_problems(board, placement, rules)
            if tile not in hand:
                problems.append(f"tile {tile} is not in the player's hand")
            if drawn and tile != drawn[-1]:
                problems.append(f"after drawing, only the drawn tile {drawn[-1]} may be played")
            if first and opening and tile not in opening:
                problems.append("the opening tile must be " + " or ".join(map(str, opening)))
            for p in problems:
                issue(tn, seat, "illegal", f"{placement.notation()}: {p}")
            try:
                score = score_placement(board, placement, rules, draws=len(drawn),
                                        first_move=first)
            except ParseError as e:
                issue(tn, seat, "draw", str(e))
                score = score_placement(board, placement, rules, first_move=first)
            if placement.cell not in board.cells:
                board.cells[placement.cell] = placement.corners
            if tile in hand:
                hand.remove(tile)
        else:
            # a pass: was it allowed?
            can = legal_placements(board, hand, rules) if board.cells else hand
            fits_drawn = drawn and legal_placements(board, [drawn[-1]], rules)
            if fits_drawn:
                issue(tn, seat, "illegal", f"passed although the drawn tile {drawn[-1]} fits")
            reached = limit is not None and len(drawn) >= limit
            pool_ran_out = not pool_left and not reached
            if not drawn and pool_left:
                issue(tn, seat, "draw", "passed without drawing while the pool had tiles")
            elif not drawn and can:
                issue(tn, seat, "illegal", "passed although a tile could be played "
                      "(the pool is empty)")
            elif not reached and pool_left and drawn:
                issue(tn, seat, "draw", f"stopped drawing after {len(drawn)} with tiles left "
                      "in the pool")
            try:
                score = score_pass(rules, min(len(drawn), limit if limit is not None
                                              else len(drawn)), pool_empty=pool_ran_out)
            except ParseError as e:
                issue(tn, seat, "draw", str(e))
                score = score_pass(rules, 0, pool_empty=pool_ran_out)
        if isinstance(claimed_total, int) and claimed_total != score.total:
            issue(tn, seat, "score", f"recorded {claimed_total}, the engine scores "
                                     f"{score.breakdown}")
        rec.turns.append(TurnRecord(tn, seat, drawn, placement, score, len(hand)))
        if placement is not None and not hand and seat not in out:
            out.append(seat)
        nxt = next_seat(rules, board, hands, bool(pool_left), seat, starter, out)
        if nxt is None:
            ended = True
        else:
            expected_seat = nxt
    if not ended:
        issue(None, None, "end", "the recorded turns stop before the round is over")
    rec.end = round_end(rules, hands, out)
    end_raw = rd.get("end")
    if isinstance(end_raw, dict):
        if end_raw.get("reason") != rec.end.reason:
            issue(None, None, "end", f"the round ended {rec.end.reason}, "
                                     f"not {end_raw.get('reason')}")
        adj = end_raw.get("adjust")
        if isinstance(adj, list):
            for s, (got, want) in enumerate(zip(adj, rec.end.adjust, strict=False)):
                if got != want:
                    issue(None, s, "end", f"round-end adjustment recorded {got}, the engine "
                          f"gives {want} ({rec.end.notes[s] or 'nothing'})")
    return rec


# --- score sheet view -------------------------------------------------------------------------

def score_sheet(game: GameRecord) -> list[str]:
    """The game as a referee's score sheet: one line per turn and round end, running totals.

    Columns: round.turn, player, drawn, placement, points, breakdown, totals.
    """
    names = game.players
    n = len(names)
    lines = [f"rules: {game.rules.name}; players: {', '.join(names)}; seed: {game.seed}"]
    header = f"{'turn':>6}  {'player':<10} {'drawn':<17} {'placement':<16} {'pts':>4}  " \
             + " ".join(f"{x[:7]:>7}" for x in names) + "  breakdown"
    lines.append(header)
    running = [0] * n
    for r in game.rounds:
        lines.append(f"-- round {r.number}: {names[r.starter]} starts")
        for t in r.turns:
            running[t.seat] += t.score.total
            drawn = " ".join(x.name() for x in t.drawn) or "-"
            pl = t.placement.notation() if t.placement else "pass"
            lines.append(f"{r.number:>3}.{t.number:<2}  {names[t.seat][:10]:<10} {drawn:<17} "
                         f"{pl:<16} {t.score.total:>4}  "
                         + " ".join(f"{v:>7}" for v in running) + f"  {t.score.breakdown}")
        if r.end:
            for s in range(n):
                running[s] += r.end.adjust[s]
            notes = "; ".join(f"{names[s]}: {r.end.notes[s]} ({r.end.adjust[s]:+d})"
                              for s in range(n) if r.end.adjust[s] or r.end.notes[s])
            lines.append(f"{r.number:>3}.end {r.end.reason:<43}"
                         + " ".join(f"{v:>7}" for v in running) + f"  {notes}")
    win = ", ".join(names[s] for s in game.winners())
    lines.append("totals: " + ", ".join(f"{names[s]} {v}" for s, v in
                                         enumerate(game.totals())) + f"; winner: {win}")
    return lines


__all__ = ["GAME_FORMAT", "GameRecord", "Player", "PlayerView", "PublicTurn", "ReplayIssue",
           "RoundEnd",
           "RoundRecord", "TurnRecord", "choose_starter_by_draw", "deal_round", "hand_points",
           "load_game", "next_seat", "play_dealt", "play_game", "play_round", "replay",
           "round_end", "rules_from_json", "rules_to_json", "score_sheet", "starter_from_draws",
           "triple_start"]
