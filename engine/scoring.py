"""Scoring one placement (or a pass) under a rule edition, with a breakdown that says why.

A placement scores its tile points (the digits' sum, or 1 per tile in the kids' edition),
plus at most one figure bonus, plus a start bonus where the edition has one, minus the draw
penalties of the turn (passed in: the board cannot know how many tiles were drawn).

Figures (RULES.md), decided from the board *before* the placement:

* **hexagon / double hexagon / triple hexagon**: the new tile completes the six cells
  around 1 / 2 / 3 of its own corners;
* **bridge**: exactly one side matched, and the corner opposite that side touches a tile
  already on the table (corner to corner);
* **pocket** (editions with ``pocket_bonus``, i.e. Pressman): exactly two sides matched
  and no ring closed.

Only the largest figure counts (they cannot coincide in practice: a closed ring needs two
matched sides at that corner, which rules out a bridge, and a pocket closes no ring).

Start bonus (Pressman): opening the game with a triple scores ``start_triple_bonus``
(+10), with 0-0-0 ``start_zero_bonus`` more (+30, 40 in all). The engine cannot see the
hands, so it does not check that the triple was the highest dealt.

>>> from engine import Board, get_rules
>>> from engine.moves import Placement
>>> score_placement(Board(), Placement((0, 0, "U"), (4, 4, 4)), get_rules("pressman")).total
22
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .board import Board
from .errors import ParseError
from .rules import Rules
from .tiles import Tile
from .vertexmap import CellShape, VertexMap

if TYPE_CHECKING:
    from .moves import Placement

FIGURES = ("bridge", "pocket", "hexagon", "double hexagon", "triple hexagon")
_RING_FIGURES = {1: "hexagon", 2: "double hexagon", 3: "triple hexagon"}


@dataclass(frozen=True, slots=True)
class Score:
    """The score of one turn and why.

    ``total = tile_points + figure_bonus + start_bonus - draw_penalty`` (``draw_penalty``
    is the non-negative number of points taken off for drawing / failing to play).
    ``figure`` is one of :data:`FIGURES` or None; ``breakdown`` reads like
    ``5+5+2 = 12, bridge +40 = 52``.
    """

    total: int
    tile_points: int
    figure: str | None
    figure_bonus: int
    start_bonus: int
    draw_penalty: int
    breakdown: str
    draws: int = 0
    matched_sides: int = 0
    rings: int = 0

    def to_json(self) -> dict[str, Any]:
        """JSON form of every field."""
        return {"total": self.total, "tile_points": self.tile_points, "figure": self.figure,
                "figure_bonus": self.figure_bonus, "start_bonus": self.start_bonus,
                "draw_penalty": self.draw_penalty, "draws": self.draws,
                "matched_sides": self.matched_sides, "rings": self.rings,
                "breakdown": self.breakdown}


def figure_of(shape: CellShape, rules: Rules) -> tuple[str | None, int]:
    """The figure a tile in a cell of this shape forms, and its bonus under ``rules``.

    Returns ``(None, 0)`` for no figure. A figure whose bonus is 0 in the edition (e.g. a
    pocket outside Pressman) is not reported.
    """
    n_rings = len(shape.rings)
    if n_rings:
        name = _RING_FIGURES[n_rings]
        bonus = (rules.hexagon_bonus, rules.double_hexagon_bonus,
                 rules.triple_hexagon_bonus)[n_rings - 1]
    elif shape.touches_opposite:
        name, bonus = "bridge", rules.bridge_bonus
    elif len(shape.matched) == 2 and rules.pocket_bonus:
        name, bonus = "pocket", rules.pocket_bonus
    else:
        return None, 0
    return (name, bonus) if bonus else (None, 0)


def draw_penalty_of(rules: Rules, draws: int, failed: bool, *, pool_empty: bool = False) -> int:
    """Points taken off for ``draws`` drawn tiles (+ the failed-draw penalty if ``failed``).

    ``failed`` = the player still could not play after drawing (the limit reached, or the
    pool ran out); ``pool_empty`` = a pass because the pool was empty (Pressman -10).
    Raises ParseError for a negative count or more draws than the edition allows.
    """
    if isinstance(draws, bool) or not isinstance(draws, int) or draws < 0:
        raise ParseError(f"draws must be a whole number >= 0, got {draws!r}")
    if rules.draw_limit is not None and draws > rules.draw_limit:
        raise ParseError(f"{rules.name} rules allow at most {rules.draw_limit} draws per turn, "
                         f"not {draws}")
    pen = draws * rules.draw_penalty
    if failed:
        pen += rules.failed_draw_penalty
    elif pool_empty:
        pen += rules.empty_pool_penalty
    return pen


def _tile_points(tile: Tile, rules: Rules) -> tuple[int, str]:
    if rules.tile_points == "one":
        return 1, "1 tile = 1"
    a, b, c = tile.digits
    return a + b + c, f"{a}+{b}+{c} = {a + b + c}"


def _start_bonus(tile: Tile, rules: Rules) -> int:
    if not tile.is_triple:
        return 0
    return rules.start_triple_bonus + (rules.start_zero_bonus if tile.digits[0] == 0 else 0)


def make_score(tile: Tile, shape: CellShape | None, rules: Rules, *, draws: int = 0,
               failed_draws: bool = False, first_move: bool = False) -> Score:
    """Assemble a :class:`Score` for ``tile`` in a cell of ``shape`` (None on a first move).

    The fast path of :func:`score_placement` (the shape comes from a shared VertexMap).
    """
    pts, text = _tile_points(tile, rules)
    parts = [text]
    figure, fbonus = (None, 0) if shape is None else figure_of(shape, rules)
    if figure:
        parts.append(f"{figure} +{fbonus}")
    start = _start_bonus(tile, rules) if first_move else 0
    if start:
        parts.append(f"start +{start}")
    pen = draw_penalty_of(rules, draws, failed_draws)
    if draws:
        parts.append(f"{draws} draw{'s' if draws > 1 else ''} -{draws * rules.draw_penalty}")
    if failed_draws and pen - draws * rules.draw_penalty:
        parts.append(f"failed draw -{pen - draws * rules.draw_penalty}")
    total = pts + fbonus + start - pen
    breakdown = ", ".join(parts) + (f" = {total}" if len(parts) > 1 else "")
    return Score(total, pts, figure, fbonus, start, pen, breakdown, draws,
                 len(shape.matched) if shape else 0, len(shape.rings) if shape else 0)


def score_placement(board: Board, placement: Placement, rules: Rules, *, draws: int = 0,
                    failed_draws: bool = False, first_move: bool | None = None) -> Score:
    """Score ``placement`` played on ``board`` (the board BEFORE the placement).

    ``draws``: tiles drawn this turn before playing (-5 each in most editions);
    ``failed_draws``: also charge the failed-draw penalty; ``first_move`` defaults to
    "the board is empty" (a start bonus then applies where the edition has one).
    Legality is not checked here (see :func:`engine.moves.placement_problems`): an illegal
    placement is scored as if it were allowed. Raises ParseError for a bad draw count.
    """
    if first_move is None:
        first_move = not board
    shape = None if not board else VertexMap(board).shape(placement.cell)
    return make_score(placement.tile, shape, rules, draws=draws, failed_draws=failed_draws,
                      first_move=first_move)


def score_pass(rules: Rules, draws: int, *, pool_empty: bool = False) -> Score:
    """Score a turn with no placement: ``draws`` tiles drawn, then a pass.

    The failed-draw penalty applies when the draw limit was reached (Goliath: 3 draws =
    -25), the empty-pool penalty when the pool ran out (Pressman -10, Goliath 0).
    Raises ParseError for a bad draw count.
    """
    failed = rules.draw_limit is not None and draws == rules.draw_limit
    pen = draw_penalty_of(rules, draws, failed, pool_empty=pool_empty)
    parts = ["pass"]
    if draws:
        parts.append(f"{draws} draw{'s' if draws != 1 else ''} -{draws * rules.draw_penalty}")
    extra = pen - draws * rules.draw_penalty
    if extra:
        parts.append(f"{'failed draw' if failed else 'empty pool'} -{extra}")
    return Score(-pen, 0, None, 0, 0, pen, ", ".join(parts) + f" = {-pen}", draws)
