"""Placement checks for referees: is it legal, what does it score, does the claim hold.

Two entry points: :func:`check_placement` (a board and one placement) and
:func:`check_change` (a board before and after: find the one new tile, then check it).
Both return a :class:`Check`; ``check.ok`` is what a script should test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Board
from .errors import IllegalPlacementError, ParseError
from .lattice import Cell, cell_name
from .moves import Placement, placement_problems
from .rules import Rules
from .scoring import Score, score_placement
from .tiles import Digits, Tile


@dataclass(frozen=True)
class Check:
    """The verdict on one placement.

    ``legal``: no rule broken (``problems`` lists every reason otherwise); ``score``: what
    the placement scores (also computed for an illegal placement, for information; None
    when no placement could be identified); ``claimed``: the score a player claimed, if
    any; ``claim_holds``: the claim equals the score of a legal placement (None without a
    claim). ``ok`` = legal and (no claim or the claim holds).
    """

    rules: str
    placement: Placement | None
    legal: bool
    problems: list[str] = field(default_factory=list)
    score: Score | None = None
    claimed: int | None = None
    claim_holds: bool | None = None

    @property
    def ok(self) -> bool:
        """True when the placement is legal and any claim holds (exit status 0)."""
        return self.legal and self.claim_holds is not False

    def verdict(self) -> str:
        """One line: ``legal, scores 52, claim 52 holds`` / ``illegal: ...``."""
        if not self.legal:
            head = "illegal"
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
                "claimed": self.claimed, "claim_holds": self.claim_holds}


def _claim(claimed: int | None, legal: bool, score: Score | None) -> bool | None:
    if claimed is None:
        return None
    return legal and score is not None and score.total == claimed


def check_placement(board: Board, placement: Placement, rules: Rules, *,
                    claimed: int | None = None, draws: int = 0,
                    first_move: bool | None = None) -> Check:
    """Check ``placement`` on ``board`` (before it): every problem, the score, the claim.

    ``draws`` are tiles drawn this turn before playing (their penalty is part of the
    score). Raises ParseError for a bad draw count.
    """
    problems = placement_problems(board, placement, rules)
    score = score_placement(board, placement, rules, draws=draws, first_move=first_move)
    legal = not problems
    return Check(rules.name, placement, legal, problems, score, claimed,
                 _claim(claimed, legal, score))


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
    """Cells that differ between two boards."""

    added: dict[Cell, Digits]
    removed: dict[Cell, Digits]
    changed: dict[Cell, tuple[Digits, Digits]]

    def problems(self) -> list[str]:
        """Why this is not exactly one new tile (empty when it is)."""
        out: list[str] = []
        for c, d in sorted(self.removed.items()):
            out.append(f"tile {Tile.from_digits(d)} at {cell_name(c)} was removed")
        for c, (a, b) in sorted(self.changed.items()):
            out.append(f"cell {cell_name(c)} changed from {','.join(map(str, a))} to "
                       f"{','.join(map(str, b))}")
        if not self.added:
            out.append("no new tile: the boards have the same tiles" if not out
                       else "no new tile")
        elif len(self.added) > 1:
            names = ", ".join(f"{cell_name(c)}={','.join(map(str, d))}"
                              for c, d in sorted(self.added.items()))
            out.append(f"{len(self.added)} new tiles ({names}); expected exactly one")
        return out


def diff_boards(before: Board, after: Board) -> BoardDiff:
    """The cells added, removed and changed from ``before`` to ``after``."""
    added = {c: d for c, d in after.cells.items() if c not in before.cells}
    removed = {c: d for c, d in before.cells.items() if c not in after.cells}
    changed = {c: (d, after.cells[c]) for c, d in before.cells.items()
               if c in after.cells and after.cells[c] != d}
    return BoardDiff(added, removed, changed)


def check_change(before: Board, after: Board, rules: Rules, *, claimed: int | None = None,
                 draws: int = 0) -> Check:
    """Find the one tile added from ``before`` to ``after`` and check it.

    Zero or several new tiles, or a tile removed or changed, make the check fail with
    those reasons (``placement`` None). Raises ParseError when the boards use different
    tile sets.
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
    return check_placement(before, Placement(cell, digits), rules, claimed=claimed,
                           draws=draws)
