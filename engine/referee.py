"""Placement checks for referees: is it legal, what does it score, does the claim hold.

Two entry points: :func:`check_placement` (a board and one placement) and
:func:`check_change` (a board before and after: find the one new tile, then check it).
Both return a :class:`Check`; ``check.ok`` is what a script should test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Board, PartDigits, digits_text
from .errors import IllegalPlacementError, ParseError
from .lattice import Cell, cell_name, vertex_name
from .moves import Placement, placement_problems, unseen_vertices
from .rules import Rules
from .scoring import Score, score_placement
from .tiles import Tile


@dataclass(frozen=True)
class Check:
    """The verdict on one placement.

    ``legal``: no rule broken (``problems`` lists every reason otherwise); ``score``: what
    the placement scores (also computed for an illegal placement, for information; None
    when no placement could be identified); ``claimed``: the score a player claimed, if
    any; ``claim_holds``: the claim equals the score of a legal placement (None without a
    claim); ``unverified``: what could not be checked because the board shows it only in
    part (a corner meeting a digit not seen, a new tile seen in part). ``ok`` = legal,
    nothing unverified, and (no claim or the claim holds).
    """

    rules: str
    placement: Placement | None
    legal: bool
    problems: list[str] = field(default_factory=list)
    score: Score | None = None
    claimed: int | None = None
    claim_holds: bool | None = None
    unverified: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the placement is legal, fully checked, and any claim holds (exit
        status 0)."""
        return self.legal and not self.unverified and self.claim_holds is not False

    def verdict(self) -> str:
        """One line: ``legal, scores 52, claim 52 holds`` / ``illegal`` / ``not confirmed``
        (something it depends on was not seen)."""
        if self.problems or (not self.legal and not self.unverified):
            head = "illegal"
        elif self.unverified:
            head = ("not confirmed (legal where seen" + (f", scores {self.score.total})"
                                                         if self.score else ")")
                    if self.legal else "not confirmed")
        else:
            head = f"legal, scores {self.score.total}" if self.score else "legal"
        if self.claimed is not None:
            if self.claim_holds:
                head += f", claim {self.claimed} holds"
            elif self.legal and self.score is not None:
                head += f", claim {self.claimed} disputed (the score is {self.score.total})"
            else:
                head += f", claim {self.claimed} disputed"
        return head

    def to_json(self) -> dict[str, Any]:
        """JSON form, including ``ok`` and ``verdict``."""
        return {"rules": self.rules, "ok": self.ok, "verdict": self.verdict(),
                "legal": self.legal, "problems": list(self.problems),
                "placement": self.placement.to_json() if self.placement else None,
                "score": self.score.to_json() if self.score else None,
                "claimed": self.claimed, "claim_holds": self.claim_holds,
                "unverified": list(self.unverified)}


def _claim(claimed: int | None, legal: bool, score: Score | None) -> bool | None:
    if claimed is None:
        return None
    return legal and score is not None and score.total == claimed


def check_placement(board: Board, placement: Placement, rules: Rules, *,
                    claimed: int | None = None, draws: int = 0,
                    first_move: bool | None = None) -> Check:
    """Check ``placement`` on ``board`` (before it): every problem, the score, the claim.

    ``draws`` are tiles drawn this turn before playing (their penalty is part of the
    score). Raises ParseError for a bad draw count. Where the placement meets a tile seen
    only in part at a digit not seen, that corner is listed in ``unverified``.
    """
    problems = placement_problems(board, placement, rules)
    score = score_placement(board, placement, rules, draws=draws, first_move=first_move)
    legal = not problems
    unverified = [f"its corner at vertex {vertex_name(v)} meets the tile"
                  + ("s" if len(cs) > 1 else "") + " seen in part at "
                  + " and ".join(f"{cell_name(c)} ({digits_text(board.partial[c])})"
                                 for c in cs)
                  + ", not seen there: check that corner on the table"
                  for v in unseen_vertices(board, placement)
                  for cs in [[c for c in board.unseen_at(v) if c != placement.cell]]]
    return Check(rules.name, placement, legal, problems, score, claimed,
                 _claim(claimed, legal, score), unverified)


def check_text(board: Board, text: str, rules: Rules, *, claimed: int | None = None,
               draws: int = 0) -> Check:
    """Parse a placement (``CELL:a-b-c`` / ``CELL=a,b,c``) and check it.

    A named tile that fits in no rotation is an illegal placement (a Check with the
    reason), not an exception. Raises ParseError for bad text and
    AmbiguousPlacementError when several rotations fit.
    """
    try:
        placement = Placement.parse(text, board)
    except IllegalPlacementError as e:
        return Check(rules.name, None, False, [str(e)], None, claimed,
                     None if claimed is None else False)
    return check_placement(board, placement, rules, claimed=claimed, draws=draws)


@dataclass(frozen=True)
class BoardDiff:
    """Cells that differ between two boards (digits None where a tile was seen only in
    part)."""

    added: dict[Cell, PartDigits]
    removed: dict[Cell, PartDigits]
    changed: dict[Cell, tuple[PartDigits, PartDigits]]

    def problems(self) -> list[str]:
        """Why this is not exactly one new tile (empty when it is)."""
        out: list[str] = []
        for c, d in sorted(self.removed.items()):
            what = Tile.from_digits(d) if None not in d else digits_text(d)  # type: ignore[arg-type]
            out.append(f"tile {what} at {cell_name(c)} was removed")
        for c, (a, b) in sorted(self.changed.items()):
            out.append(f"cell {cell_name(c)} changed from {digits_text(a)} to "
                       f"{digits_text(b)}")
        if not self.added:
            out.append("no new tile: the boards have the same tiles" if not out
                       else "no new tile")
        elif len(self.added) > 1:
            names = ", ".join(f"{cell_name(c)}={digits_text(d)}"
                              for c, d in sorted(self.added.items()))
            out.append(f"{len(self.added)} new tiles ({names}); expected exactly one")
        return out


def diff_boards(before: Board, after: Board) -> BoardDiff:
    """The cells added, removed and changed from ``before`` to ``after``. A tile seen only
    in part on either board is the same tile where the digits seen on both agree (a hand
    moved off it, or over it)."""
    added = {c: after.seen_at(c) for c in after.occupied() if c not in before}
    removed = {c: before.seen_at(c) for c in before.occupied() if c not in after}
    changed = {}
    for c in before.occupied() & after.occupied():
        a, b = before.seen_at(c), after.seen_at(c)
        if any(x is not None and y is not None and x != y
               for x, y in zip(a, b, strict=True)):  # type: ignore[arg-type]
            changed[c] = (a, b)
    return BoardDiff(added, removed, changed)  # type: ignore[arg-type]


def check_change(before: Board, after: Board, rules: Rules, *, claimed: int | None = None,
                 draws: int = 0) -> Check:
    """Find the one tile added from ``before`` to ``after`` and check it.

    Zero or several new tiles, or a tile removed or changed, make the check fail with
    those reasons (``placement`` None). A new tile seen only in part is not checked
    (``unverified``); a tile seen in part before and in full after counts in full. Raises
    ParseError when the boards use different tile sets.
    """
    if before.set_name != after.set_name:
        raise ParseError(f"the boards use different tile sets ({before.set_name} before, "
                         f"{after.set_name} after)")
    diff = diff_boards(before, after)
    problems = diff.problems()
    if problems:
        return Check(rules.name, None, False, problems, None, claimed,
                     None if claimed is None else False)
    (cell, digits), = diff.added.items()
    if None in digits:
        return Check(rules.name, None, False, [], None, claimed, None,
                     [f"the new tile at {cell_name(cell)} is seen only in part "
                      f"({digits_text(digits)}): it cannot be checked"])
    # a tile seen in part before and in full after is the same tile (the diff found its
    # digits in view alike): checked against all of it
    base = before.copy()
    for c in before.partial:
        if c in after.cells:
            base.put(c, after.cells[c])
    return check_placement(base, Placement(cell, digits), rules,  # type: ignore[arg-type]
                           claimed=claimed, draws=draws)
