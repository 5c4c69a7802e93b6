"""Per-vertex facts about a board, computed once per board for fast move generation.

For every lattice point touched by a tile, :class:`VertexMap` keeps the digit shown there
(or :data:`CONFLICT` when tiles already disagree at that point), how many of the six
cells around it are occupied, and whether a tile seen only in part meets it with a digit
not seen. Everything the move generator, the scorer and the opening
finder ask about a cell (which digits it needs, how many sides it would match, which rings
it would close, whether a corner touches another tile) is read from these two maps.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .lattice import Cell, Vertex, cell_corners, edge_neighbours

#: Marker in :attr:`VertexMap.digit` for a lattice point where tiles already disagree.
CONFLICT = -1


@dataclass(frozen=True, slots=True)
class CellShape:
    """What placing any tile in an empty ``cell`` would touch.

    ``needs[k]`` is the digit required at corner ``k`` (None = free, CONFLICT = the board
    already disagrees there, so nothing fits); ``matched`` the edge neighbours' indices
    (neighbour ``k`` lies across the edge opposite corner ``k``); ``rings`` the corners whose
    six-cell ring the tile would complete; ``unseen`` the corners where a tile seen only in
    part meets the cell with a digit not seen (what it needs there is not known).
    """

    cell: Cell
    needs: tuple[int | None, int | None, int | None]
    matched: tuple[int, ...]
    rings: tuple[int, ...]
    unseen: tuple[int, ...] = ()

    @property
    def fittable(self) -> bool:
        """False when the board already disagrees at one of the cell's corners."""
        return CONFLICT not in self.needs

    @property
    def touches_opposite(self) -> bool:
        """With exactly one matched side: does the corner opposite it touch a tile?"""
        return len(self.matched) == 1 and (self.needs[self.matched[0]] is not None
                                           or self.matched[0] in self.unseen)


class VertexMap:
    """Digit and occupancy count per vertex of ``board`` (built in O(tiles))."""

    __slots__ = ("board", "digit", "count", "unseen", "taken")

    def __init__(self, board: Board) -> None:
        self.board = board
        digit: dict[Vertex, int] = {}
        count: dict[Vertex, int] = {}
        unseen: set[Vertex] = set()
        for cell, ds in board.cells.items():
            for v, d in zip(cell_corners(cell), ds, strict=True):
                old = digit.get(v)
                if old is None:
                    digit[v] = d
                elif old != d:
                    digit[v] = CONFLICT
                count[v] = count.get(v, 0) + 1
        for cell, pd in board.partial.items():  # tiles seen in part (a photo's)
            for v, x in zip(cell_corners(cell), pd, strict=True):
                count[v] = count.get(v, 0) + 1
                if x is None:
                    unseen.add(v)
                    continue
                old = digit.get(v)
                if old is None:
                    digit[v] = x
                elif old != x:
                    digit[v] = CONFLICT
        self.digit = digit
        self.count = count
        self.unseen = unseen
        #: the cells taken (a dict's keys where no tile is seen in part: the fast common case)
        self.taken = board.occupied() if board.partial else board.cells

    def shape(self, cell: Cell) -> CellShape:
        """The :class:`CellShape` of ``cell`` (assumed empty) on this board."""
        occ = self.taken
        corners = cell_corners(cell)
        get = self.digit.get
        needs = (get(corners[0]), get(corners[1]), get(corners[2]))
        matched = tuple(k for k, n in enumerate(edge_neighbours(cell)) if n in occ)
        cnt = self.count.get
        # the cell itself is empty, so 5 occupied cells around a corner = a ring it completes
        rings = tuple(k for k, v in enumerate(corners) if cnt(v, 0) == 5)
        unseen = (tuple(k for k, v in enumerate(corners) if v in self.unseen)
                  if self.unseen else ())
        return CellShape(cell, needs, matched, rings, unseen)  # type: ignore[arg-type]
