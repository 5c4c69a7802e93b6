"""Placements, legality and legal-move generation.

A :class:`Placement` is one tile put in one cell: the cell and the digits at the cell's
corners in corner order (exactly as in Board JSON). Its text forms (DESIGN.md) are
``CELL=a,b,c`` (corner digits) and ``CELL:a-b-c`` (a tile; the engine finds the rotation).

A placement on a non-empty board is legal when the cell is empty, the tile is in the
board's set and not yet on the board, the cell shares at least one full edge with a tile,
and every new corner agrees with every tile corner already at that lattice point. The first
tile on an empty board goes anywhere; move generation then offers it at ``0,0,U`` in its
name rotation only, since every other cell and rotation is the same position turned or
shifted (see :data:`FIRST_CELL`).

>>> from engine import Board, get_rules
>>> b = Board(); b.put((0, 0, "U"), (5, 5, 5))
>>> p = Placement.parse("0,0,D:2-5-5", b)
>>> p.notation(), is_legal(b, p, get_rules())
('0,0,D=5,5,2', True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any

from .board import Board
from .errors import AmbiguousPlacementError, IllegalPlacementError, ParseError
from .lattice import (
    Cell,
    Vertex,
    cell_corners,
    cell_name,
    cells_around,
    parse_cell,
    vertex_name,
)
from .rules import Rules
from .scoring import Score, make_score
from .tiles import Digits, Tile, tile_set
from .vertexmap import VertexMap

#: Where move generation puts the first tile of a game (any cell would do: symmetry).
FIRST_CELL: Cell = (0, 0, "U")

_PLACEMENT_RE = re.compile(r"^\s*(.*?)\s*([:=])\s*(.*?)\s*$", re.S)


@dataclass(frozen=True, slots=True, order=True)
class Placement:
    """One tile in one cell: ``corners`` are the digits at the cell's corners (corner order)."""

    cell: Cell
    corners: Digits

    @property
    def tile(self) -> Tile:
        """The physical tile (name rotation) this placement puts down."""
        return Tile.from_digits(self.corners)

    def notation(self) -> str:
        """Text form ``i,j,K=a,b,c`` (pastes back into :meth:`parse`)."""
        return f"{cell_name(self.cell)}={','.join(str(d) for d in self.corners)}"

    def __str__(self) -> str:
        return self.notation()

    def to_json(self) -> dict[str, Any]:
        """Board JSON tile entry plus the tile name and notation."""
        return {"cell": list(self.cell), "corners": list(self.corners),
                "tile": self.tile.name(), "notation": self.notation()}

    @classmethod
    def parse(cls, text: str, board: Board) -> Placement:
        """Parse ``CELL=a,b,c`` or ``CELL:a-b-c`` (e.g. ``0,0,D:2-5-5``).

        For ``CELL:a-b-c`` the rotation is the one whose corners agree with the tiles
        already around the cell. Raises ParseError for bad text; IllegalPlacementError when
        no rotation can fit (cell taken, digits disagree, no shared edge);
        AmbiguousPlacementError when several rotations fit (only possible where the cell
        touches no tile along an edge, e.g. on an empty board), listing them all.
        """
        m = _PLACEMENT_RE.match(text) if isinstance(text, str) else None
        if not m:
            raise ParseError(f"not a placement: {text!r} (expected CELL:a-b-c or CELL=a,b,c, "
                             "e.g. 0,0,D:2-5-5)")
        cell_txt, sep, rest = m.groups()
        try:
            cell = parse_cell(cell_txt)
        except ParseError:
            raise ParseError(f"not a placement: {text!r}: bad cell {cell_txt!r} "
                             "(expected i,j,U or i,j,D)") from None
        if sep == "=":
            return cls(cell, _parse_corner_digits(rest, text))
        tile = Tile.parse(rest)
        return cls(cell, _find_rotation(board, cell, tile))


def _parse_corner_digits(rest: str, text: str) -> Digits:
    parts = [rest] if re.fullmatch(r"[0-9]{3}", rest) else re.split(r"[\s,;-]+", rest)
    parts = list(parts[0]) if len(parts) == 1 and len(parts[0]) == 3 else parts
    if len(parts) != 3 or not all(re.fullmatch(r"[0-5]", p) for p in parts):
        raise ParseError(f"not a placement: {text!r}: corners must be three digits 0-5 "
                         "(e.g. 2,5,5)")
    return (int(parts[0]), int(parts[1]), int(parts[2]))


def _find_rotation(board: Board, cell: Cell, tile: Tile) -> Digits:
    name = cell_name(cell)
    if cell in board:
        raise IllegalPlacementError(f"cell {name} already holds tile {board.describe_at(cell)}")
    if board and not board.occupied_neighbours(cell):
        raise IllegalPlacementError(f"cell {name} shares no edge with a tile on the board"
                                    + _corner_only_note(board, cell))
    needs = [_digit_needed(board, v) for v in cell_corners(cell)]
    fits = [r for r in tile.rotations()
            if all(n is None or n == d for n, d in zip(needs, r, strict=True))]
    if not fits:
        need = ",".join("?" if n is None else ("!" if n < 0 else str(n)) for n in needs)
        raise IllegalPlacementError(f"tile {tile} fits {name} in no rotation: the corners "
                                    f"there need {need} (corner order)")
    if len(fits) > 1:
        opts = " or ".join(Placement(cell, r).notation() for r in fits)
        raise AmbiguousPlacementError(f"tile {tile} fits {name} in {len(fits)} rotations: "
                                      f"{opts} (give the corners with CELL=a,b,c)")
    return fits[0]


def _digit_needed(board: Board, v: tuple[int, int]) -> int | None:
    ds = set(board.digits_at(v).values())
    if not ds:
        return None
    return ds.pop() if len(ds) == 1 else -1


def _touches(board: Board, cell: Cell) -> bool:
    """Whether another tile (read in full or in part) meets ``cell`` at a corner."""
    return any(c != cell and c in board for v in cell_corners(cell) for c in cells_around(v))


def _corner_only_note(board: Board, cell: Cell) -> str:
    return " (it would touch only by a corner)" if _touches(board, cell) else ""


def unseen_vertices(board: Board, placement: Placement) -> tuple[Vertex, ...]:
    """The lattice points where ``placement`` meets a tile seen only in part whose digit
    there was not seen: its corners there cannot be checked (the engine does not guess
    them)."""
    return tuple(v for v in cell_corners(placement.cell)
                 if any(c != placement.cell for c in board.unseen_at(v)))


@dataclass(frozen=True, slots=True)
class Move:
    """A legal placement and what it scores.

    ``unseen``: the lattice points where it meets a tile seen only in part whose digit
    there was not seen: legal as far as the board shows, to be checked on the table.
    """

    placement: Placement
    score: Score
    unseen: tuple[Vertex, ...] = ()

    @property
    def tile(self) -> Tile:
        """The tile played."""
        return self.placement.tile

    @property
    def cell(self) -> Cell:
        """The cell played into."""
        return self.placement.cell

    def sort_key(self) -> tuple[Any, ...]:
        """Best first: highest total, then tile name, cell, corners (deterministic)."""
        return (-self.score.total, self.tile.digits, self.placement.cell,
                self.placement.corners)

    def to_json(self) -> dict[str, Any]:
        """Placement fields plus ``score`` (see :meth:`Score.to_json`) and
        ``unseen_vertices`` (see :attr:`unseen`)."""
        return {**self.placement.to_json(), "score": self.score.to_json(),
                "unseen_vertices": [list(v) for v in self.unseen]}


def placement_problems(board: Board, placement: Placement, rules: Rules) -> list[str]:
    """Every reason ``placement`` on ``board`` is illegal (empty list = legal).

    Checks: the cell is empty; the tile is in the board's set and not already on the
    board; on a non-empty board the cell shares a full edge with a tile; each new corner
    agrees with every tile corner already at that lattice point. ``rules`` is accepted for
    edition-specific placement rules; no edition in RULES.md restricts placement beyond
    these. Messages are one line each, naming cells, vertices and digits. A corner meeting
    a tile seen only in part where its digit was not seen is not a problem found here (see
    :func:`unseen_vertices`).
    """
    del rules  # no edition changes what may be placed where
    out: list[str] = []
    cell, name, tile = placement.cell, cell_name(placement.cell), placement.tile
    if cell in board:
        out.append(f"cell {name} already holds tile {board.describe_at(cell)}")
    if not tile.in_set(board.set_name):
        out.append(f"tile {tile} is not in the {board.set_name} set")
    elsewhere = [c for c, d in board.cells.items()
                 if c != cell and Tile.from_digits(d) == tile]
    if elsewhere:
        out.append(f"tile {tile} is already on the board at {cell_name(min(elsewhere))}")
    others = [c for c in board.occupied() if c != cell]
    if others and not board.occupied_neighbours(cell):
        out.append(f"tile {tile} at {name} shares no edge with a tile"
                   + (" (it touches only by a corner)" if _touches(board, cell) else
                      " (it does not touch the board)"))
    for k, v in enumerate(cell_corners(cell)):
        d = placement.corners[k]
        bad: dict[int, list[Cell]] = {}
        for c in cells_around(v):
            e = _digit_of(board, c, v) if c != cell else None
            if e is not None and e != d:
                bad.setdefault(e, []).append(c)
        if bad:
            desc = "; ".join(f"{e} (from {', '.join(cell_name(c) for c in sorted(cs))})"
                             for e, cs in sorted(bad.items()))
            out.append(f"corner {k} of {name} at vertex {vertex_name(v)} is {d}, but the "
                       f"board shows {desc} there")
    return out


def _digit_of(board: Board, cell: Cell, v: tuple[int, int]) -> int | None:
    ds = board.seen_at(cell)
    return None if ds is None else ds[cell_corners(cell).index(v)]


def is_legal(board: Board, placement: Placement, rules: Rules) -> bool:
    """True when :func:`placement_problems` finds nothing."""
    return not placement_problems(board, placement, rules)


@cache
def _pattern_index() -> dict[tuple[int | None, ...], tuple[tuple[Digits, Tile], ...]]:
    """Every oriented digit triple, filed under each of its 8 partial patterns."""
    index: dict[tuple[int | None, ...], list[tuple[Digits, Tile]]] = {}
    for ds in product(range(6), repeat=3):
        tile = Tile.from_digits(ds)
        for mask in product((False, True), repeat=3):
            key = tuple(d if keep else None for d, keep in zip(ds, mask, strict=True))
            index.setdefault(key, []).append((ds, tile))  # type: ignore[arg-type]
    return {k: tuple(v) for k, v in index.items()}


def legal_placements(board: Board, rack: Iterable[Tile], rules: Rules,
                     **score_kwargs: Any) -> list[Move]:
    """Every legal placement of the tiles in ``rack`` on ``board``, best first.

    Tiles not in the board's set or already on the board are skipped (they have no legal
    placement). ``score_kwargs`` go to the scorer (``draws``, ``failed_draws``,
    ``first_move``). On an empty board each tile is offered once, at :data:`FIRST_CELL`
    in its name rotation. Order: total score descending, then tile name, cell, corners.
    Cost: one pass over the board plus one dictionary look-up per frontier cell. Next to a
    tile seen only in part, a corner meeting a digit not seen is taken as free and the move
    names that point (:attr:`Move.unseen`); a tile seen in part may be one of the rack's
    (it is not known which tile it is).
    """
    allowed = tile_set(board.set_name)
    used = {Tile.from_digits(d) for d in board.cells.values()}
    pool = {t for t in rack if t in allowed and t not in used}
    moves: list[Move] = []
    if not board:
        first = score_kwargs.pop("first_move", True)
        for t in pool:
            moves.append(Move(Placement(FIRST_CELL, t.digits),
                              make_score(t, None, rules, first_move=first, **score_kwargs)))
    else:
        score_kwargs.setdefault("first_move", False)
        vm = VertexMap(board)
        index = _pattern_index()
        for cell in board.frontier():
            shape = vm.shape(cell)
            if not shape.fittable:
                continue
            unseen = tuple(cell_corners(cell)[k] for k in shape.unseen)
            for ds, t in index.get(shape.needs, ()):
                if t in pool:
                    moves.append(Move(Placement(cell, ds),
                                      make_score(t, shape, rules, **score_kwargs), unseen))
    moves.sort(key=Move.sort_key)
    return moves


def unplayed_placements(board: Board, rules: Rules, **score_kwargs: Any) -> list[Move]:
    """Without a rack: every legal placement of every tile of the set not yet on the board.

    Same order and conventions as :func:`legal_placements`.
    """
    return legal_placements(board, board.unplayed(), rules, **score_kwargs)


def moves_by_cell(moves: Iterable[Move]) -> dict[Cell, list[Move]]:
    """Group moves by cell (cells in order of their best move), keeping each list's order."""
    out: dict[Cell, list[Move]] = {}
    for m in moves:
        out.setdefault(m.cell, []).append(m)
    return out


def apply(board: Board, placement: Placement, rules: Rules) -> Board:
    """A copy of ``board`` with ``placement`` made. Raises IllegalPlacementError (all reasons)."""
    problems = placement_problems(board, placement, rules)
    if problems:
        raise IllegalPlacementError(f"{placement.notation()} is illegal: " + "; ".join(problems))
    out = board.copy()
    out.cells[placement.cell] = placement.corners
    return out


__all__ = ["FIRST_CELL", "Move", "Placement", "apply", "is_legal", "legal_placements",
           "moves_by_cell", "placement_problems", "unplayed_placements", "unseen_vertices"]
