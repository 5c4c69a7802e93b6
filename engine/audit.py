"""Auditing a game: a recorded game JSON, or a score sheet a referee typed in.

Two inputs, one report (:class:`AuditReport`):

* a **game record** (``triominos-game/1``, as :mod:`engine.game` writes): it is replayed
  (:func:`engine.game.replay`), so deals, draws from the pool, hands, legality, every
  turn's score and every round-end adjustment are checked;
* a **score sheet** (``triominos-scoresheet/1``): what a referee writes down, per turn the
  player, the placement (or a pass), the tiles drawn and the claimed score; optionally per
  round how it ended, the tiles left in hand and the claimed round-end points::

      {"format": "triominos-scoresheet/1", "rules": "goliath", "set": "standard",
       "players": ["Ann", "Bo"],
       "rounds": [{"turns": [
           {"player": "Ann", "place": "0,0,U:5-5-5", "claimed": 15},
           {"player": "Bo", "draws": 1, "place": "0,0,D:2-5-5", "claimed": 7},
           {"player": "Ann", "draws": 3, "claimed": -25}],
         "end": {"out": "Bo", "remaining": {"Ann": ["0-1-2"]}, "claimed": {"Bo": 28}}}]}

  Hands are unknown, so each placement is checked against the board built from the sheet
  (legality by :func:`engine.moves.placement_problems`), each claimed score against
  :func:`engine.scoring.score_placement` / :func:`engine.scoring.score_pass`, the draws
  against the edition's limit and the pool size (deal sizes are known), the turn order,
  and the round end against :func:`engine.game.round_end`.

Every wrong line is named with a reason, e.g. ``line 5 (round 1, turn 5, Bo): claimed 49,
the score is 9 (1+4+4 = 9): a bridge +40 was claimed that the placement does not form``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .board import Board
from .errors import ParseError, TriominosError
from .game import (
    GAME_FORMAT,
    GameRecord,
    load_game,
    replay,
    round_end,
    rules_from_json,
    rules_to_json,
)
from .moves import Placement, placement_problems
from .rules import EDITIONS, Rules
from .scoring import Score, score_pass, score_placement
from .tiles import Tile, tile_set

SHEET_FORMAT = "triominos-scoresheet/1"


@dataclass(frozen=True)
class AuditLine:
    """One wrong line: sheet line number, round, turn (None = round end), player, why."""

    line: int | None
    round: int
    turn: int | None
    player: str | None
    kind: str
    message: str

    def text(self) -> str:
        """``line 5 (round 1, turn 5, Bo): message``."""
        where = [f"round {self.round}", f"turn {self.turn}" if self.turn is not None
                 else "round end"]
        if self.player:
            where.append(self.player)
        head = f"line {self.line} " if self.line is not None else ""
        return f"{head}({', '.join(where)}): {self.message}"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"line": self.line, "round": self.round, "turn": self.turn,
                "player": self.player, "kind": self.kind, "message": self.message}


@dataclass
class AuditReport:
    """The audit of one file: what it was, how many lines were checked, what is wrong.

    ``claimed``/``engine`` are the totals per player as written and as the engine scores
    the same play (illegal placements still scored, so the difference is the score errors).
    """

    source: str
    rules: str
    players: list[str]
    lines_checked: int
    problems: list[AuditLine] = field(default_factory=list)
    claimed: list[int] = field(default_factory=list)
    engine: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no line is wrong."""
        return not self.problems

    def summary(self) -> str:
        """One line: ``score sheet, 24 lines checked: 3 wrong``."""
        verdict = "all correct" if self.ok else f"{len(self.problems)} wrong"
        return f"{self.source}, {self.lines_checked} lines checked: {verdict}"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"source": self.source, "rules": self.rules, "players": self.players,
                "lines_checked": self.lines_checked, "ok": self.ok,
                "problems": [p.to_json() for p in self.problems],
                "claimed_totals": self.claimed, "engine_totals": self.engine}


def audit_file(path: str | Path) -> AuditReport:
    """Audit a game record or a score sheet file (decided by its ``format``).

    Raises ParseError (one line, naming the file) when the file cannot be read as either.
    """
    data = load_game(path)
    try:
        return audit_data(data)
    except ParseError as e:
        raise ParseError(f"{path}: {e}") from None


def audit_data(data: dict[str, Any]) -> AuditReport:
    """Audit parsed JSON: a game record or a score sheet. Raises ParseError otherwise."""
    fmt = data.get("format")
    if fmt == GAME_FORMAT:
        return audit_game(data)
    if fmt == SHEET_FORMAT:
        return audit_sheet(data)
    raise ParseError(f"unknown format {fmt!r} (expected {GAME_FORMAT!r} or {SHEET_FORMAT!r})")


def audit_game(data: dict[str, Any]) -> AuditReport:
    """Audit a recorded game by replaying it (see :func:`engine.game.replay`)."""
    game, issues = replay(data)
    names = game.players
    lines: list[AuditLine] = []
    for i in issues:
        who = names[i.seat] if i.seat is not None and i.seat < len(names) else None
        lines.append(AuditLine(None, i.round, i.turn, who, i.kind, i.message))
    checked = sum(len(r.turns) + 1 for r in game.rounds)
    claimed = data.get("totals")
    claimed_list = claimed if isinstance(claimed, list) else []
    engine_totals = game.totals()
    if claimed_list and claimed_list != engine_totals:
        lines.append(AuditLine(None, len(game.rounds), None, None, "total",
                               f"recorded totals {claimed_list}, the engine's {engine_totals}"))
    return AuditReport("game record", game.rules.name, names, checked, lines,
                       claimed_list, engine_totals)


# --- typed score sheets ------------------------------------------------------------------

def _bonus_names(rules: Rules) -> dict[int, list[str]]:
    """Bonus value -> figure names, over this edition and every known one (for diagnoses)."""
    out: dict[int, list[str]] = {}
    for k, r in enumerate((rules, *EDITIONS)):
        own = set(out) if k else set()  # values this edition pays keep this edition's names
        for name, v in (("bridge", r.bridge_bonus), ("pocket", r.pocket_bonus),
                        ("hexagon", r.hexagon_bonus), ("double hexagon", r.double_hexagon_bonus),
                        ("triple hexagon", r.triple_hexagon_bonus)):
            if v > 1 and v not in own and name not in out.setdefault(v, []):
                out[v].append(name)
    return out


def diagnose(claimed: int, score: Score, rules: Rules, *, placed: bool) -> str:
    """Why ``claimed`` differs from ``score``: a missed/extra draw penalty, a wrong bonus...

    Returns one line starting ``claimed X, the score is Y (breakdown)``.
    """
    head = f"claimed {claimed}, the score is {score.total} ({score.breakdown})"
    diff = claimed - score.total
    per_draw = rules.draw_penalty * score.draws
    fail_extra = score.draw_penalty - per_draw
    if score.draw_penalty and diff == score.draw_penalty:
        what = (f"{score.draws} draw{'s' if score.draws != 1 else ''} -{per_draw}"
                if per_draw else "")
        if fail_extra:
            what = ", ".join(x for x in (what, f"failed draw -{fail_extra}") if x)
        return f"{head}: missed draw penalty ({what} not taken off)"
    if per_draw and diff == per_draw:
        return f"{head}: missed draw penalty ({score.draws} draw(s) -{per_draw} not taken off)"
    if fail_extra and diff == fail_extra:
        return f"{head}: missed draw penalty (-{fail_extra} for still being unable to play)"
    if score.start_bonus and diff == -score.start_bonus:
        return f"{head}: the start bonus +{score.start_bonus} was left out"
    if placed:
        names = _bonus_names(rules)
        if score.figure and diff == -score.figure_bonus:
            return f"{head}: wrong bonus: the {score.figure} +{score.figure_bonus} was not counted"
        if score.figure and diff + score.figure_bonus in names:
            wrong = " or ".join(names[diff + score.figure_bonus])
            return (f"{head}: wrong bonus: counted as a {wrong} (+{diff + score.figure_bonus}); "
                    f"it is a {score.figure} (+{score.figure_bonus})")
        if not score.figure and diff in names:
            wrong = " or ".join(names[diff])
            return (f"{head}: wrong bonus: a {wrong} +{diff} was claimed that the placement "
                    "does not form")
        if score.start_bonus == 0 and diff in (10, 40) and score.draws == 0:
            return f"{head}: a start bonus +{diff} was claimed that does not apply here"
    return head


def _int(raw: Any, what: str, default: int | None = None) -> int | None:
    if raw is None:
        return default
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ParseError(f"{what}: expected a whole number, got {raw!r}")
    return raw


def audit_sheet(data: dict[str, Any]) -> AuditReport:
    """Audit a typed score sheet (format in the module docstring).

    Raises ParseError for a malformed sheet (unknown player, missing fields, bad JSON
    types); wrong scores and illegal placements are reported as lines, not raised.
    """
    rules = rules_from_json(data.get("rules_data"), data.get("rules", "goliath"))
    names = data.get("players")
    if (not isinstance(names, list) or not 2 <= len(names) <= 6
            or not all(isinstance(x, str) and x for x in names) or len(set(names)) != len(names)):
        raise ParseError("\"players\" must list 2-6 different names")
    n = len(names)
    set_name = data.get("set", "standard")
    full = len(tile_set(set_name))
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise ParseError("\"rounds\" must be a non-empty list")
    seat_of = {x: s for s, x in enumerate(names)}
    problems: list[AuditLine] = []
    claimed_tot, engine_tot = [0] * n, [0] * n
    line = 0
    for ri, rd in enumerate(rounds, 1):
        if not isinstance(rd, dict) or not isinstance(rd.get("turns"), list):
            raise ParseError(f"rounds[{ri - 1}]: expected an object with \"turns\"")
        board = Board(set_name=set_name)
        pool = full - n * rules.deal_size(n)
        placed = [0] * n
        drew = [0] * n
        expected: int | None = None
        for tn, td in enumerate(rd["turns"], 1):
            line += 1
            where = f"round {ri} turn {tn}"
            if not isinstance(td, dict):
                raise ParseError(f"{where}: expected an object")
            who = td.get("player")
            if who not in seat_of:
                raise ParseError(f"{where}: unknown player {who!r} (players: {', '.join(names)})")
            seat = seat_of[who]

            def bad(kind: str, msg: str, _t: int = tn, _w: str = who, _l: int = line,
                    _r: int = ri) -> None:
                problems.append(AuditLine(_l, _r, _t, _w, kind, msg))

            if expected is not None and seat != expected:
                bad("order", f"out of turn: it was {names[expected]}'s turn")
            expected = (seat + 1) % n
            draws = _int(td.get("draws"), f"{where} draws", 0) or 0
            if draws < 0:
                raise ParseError(f"{where}: draws must be >= 0")
            claimed = _int(td.get("claimed"), f"{where} claimed")
            first = not board.cells
            limit = rules.draw_limit
            if draws and first:
                bad("draw", "drew on the opening turn")
            if limit is not None and draws > limit:
                bad("draw", f"drew {draws} tiles; {rules.name} allows at most {limit}")
            if draws > pool:
                bad("draw", f"drew {draws} tiles but only {pool} were left in the pool")
            used_draws = min(draws, limit) if limit is not None else draws
            pool = max(0, pool - draws)
            drew[seat] += draws
            place = td.get("place")
            score: Score
            if place is not None:
                try:
                    pl = Placement.parse(str(place), board)
                except ParseError as e:
                    raise ParseError(f"{where}: {e}") from None
                except TriominosError as e:  # no rotation fits / ambiguous: an illegal line
                    bad("illegal", f"illegal placement {place}: {e}")
                    continue
                for p in placement_problems(board, pl, rules):
                    bad("illegal", f"illegal placement {pl.notation()}: {p}")
                score = score_placement(board, pl, rules, draws=used_draws, first_move=first)
                if pl.cell not in board.cells:
                    board.cells[pl.cell] = pl.corners
                placed[seat] += 1
            else:
                reached = limit is not None and draws >= limit
                if not reached and pool > 0:
                    bad("draw", f"passed after {draws} draw(s) while the pool still had "
                                f"{pool} tile(s)")
                score = score_pass(rules, used_draws, pool_empty=not reached and pool == 0)
            engine_tot[seat] += score.total
            if claimed is None:
                bad("score", f"no claimed score (the score is {score.breakdown})")
                continue
            claimed_tot[seat] += claimed
            if claimed != score.total:
                bad("score", diagnose(claimed, score, rules, placed=place is not None))
        line += 1
        _audit_end(rules, names, ri, rd.get("end"), line, placed, drew, problems,
                   claimed_tot, engine_tot)
    return AuditReport("score sheet", rules.name, list(names), line, problems, claimed_tot,
                       engine_tot)


def _audit_end(rules: Rules, names: list[str], ri: int, end: Any, line: int,
               placed: list[int], drew: list[int], problems: list[AuditLine],
               claimed_tot: list[int], engine_tot: list[int]) -> None:
    """Check a round's ``end`` entry (who went out / blocked, hands left, claimed points)."""
    if end is None:
        return
    if not isinstance(end, dict):
        raise ParseError(f"round {ri} end: expected an object")
    n = len(names)
    k = rules.deal_size(n)
    seat_of = {x: s for s, x in enumerate(names)}

    def bad(kind: str, msg: str, who: str | None = None) -> None:
        problems.append(AuditLine(line, ri, None, who, kind, msg))

    out_raw = end.get("out")
    outs = [out_raw] if isinstance(out_raw, str) else (out_raw or [])
    if not isinstance(outs, list) or any(x not in seat_of for x in outs):
        raise ParseError(f"round {ri} end: \"out\" must name players")
    out = [seat_of[x] for x in outs]
    if not out and not end.get("blocked"):
        raise ParseError(f"round {ri} end: give \"out\": PLAYER or \"blocked\": true")
    rem_raw = end.get("remaining", {})
    if not isinstance(rem_raw, dict) or any(x not in seat_of for x in rem_raw):
        raise ParseError(f"round {ri} end: \"remaining\" must map player names to tiles")
    remaining: list[list[Tile]] = [[] for _ in range(n)]
    known = [False] * n
    for who, tiles in rem_raw.items():
        if not isinstance(tiles, list):
            raise ParseError(f"round {ri} end: remaining tiles of {who} must be a list")
        remaining[seat_of[who]] = [Tile.parse(str(t)) for t in tiles]
        known[seat_of[who]] = True
    for s in range(n):
        held = k + drew[s] - placed[s]
        if s in out and held != 0:
            bad("end", f"{names[s]} is said to have gone out but placed {placed[s]} of "
                       f"{k + drew[s]} tiles (dealt {k} + drawn {drew[s]})", names[s])
        elif known[s] and len(remaining[s]) != held and s not in out:
            bad("end", f"{names[s]} should hold {held} tile(s) (dealt {k} + drawn {drew[s]} - "
                       f"placed {placed[s]}), the sheet lists {len(remaining[s])}", names[s])
    claims = end.get("claimed", {})
    if not isinstance(claims, dict) or any(x not in seat_of for x in claims):
        raise ParseError(f"round {ri} end: \"claimed\" must map player names to points")
    if not all(known[s] or s in out for s in range(n)):
        return  # hands unknown: the round-end points cannot be checked
    result = round_end(rules, remaining, out)
    for s in range(n):
        engine_tot[s] += result.adjust[s]
        got = _int(claims.get(names[s]), f"round {ri} end claimed {names[s]}", 0) or 0
        claimed_tot[s] += got
        if got != result.adjust[s]:
            bad("score", f"claimed {got} at the round end, the rules give {result.adjust[s]}"
                         f" ({result.notes[s] or 'nothing'})", names[s])


def sheet_from_game(game: GameRecord) -> dict[str, Any]:
    """The score sheet a referee would have written for ``game`` (claims = true scores).

    Useful as a template and for tests: edit a claim and :func:`audit_sheet` names it.
    """
    names = game.players
    rounds = []
    for r in game.rounds:
        turns = []
        for t in r.turns:
            entry: dict[str, Any] = {"player": names[t.seat]}
            if t.drawn:
                entry["draws"] = len(t.drawn)
            if t.placement is not None:
                entry["place"] = t.placement.notation()
            entry["claimed"] = t.score.total
            turns.append(entry)
        rd: dict[str, Any] = {"turns": turns}
        if r.end is not None:
            end: dict[str, Any] = ({"out": [names[s] for s in r.end.out]} if r.end.out
                                   else {"blocked": True})
            end["remaining"] = {names[s]: [x.name() for x in h]
                                for s, h in enumerate(r.end.remaining) if s not in r.end.out}
            end["claimed"] = {names[s]: a for s, a in enumerate(r.end.adjust) if a}
            rd["end"] = end
        rounds.append(rd)
    return {"format": SHEET_FORMAT, "rules": game.rules.name,
            "rules_data": rules_to_json(game.rules), "set": game.set_name,
            "players": list(names), "rounds": rounds}


__all__ = ["SHEET_FORMAT", "AuditLine", "AuditReport", "audit_data", "audit_file",
           "audit_game", "audit_sheet", "diagnose", "sheet_from_game"]
