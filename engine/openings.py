"""Hexagon openings: empty cells whose tile would complete one or more six-cell rings.

A **pending hexagon** (:class:`Opening`) is an empty cell such that, around one or more of
its corners, the other five cells are occupied. Its three corner digits are then all
fixed by the neighbours, so exactly one tile in exactly one rotation can go there; that
tile may not exist in the set (a mirror tile in the standard set), may already lie on the
board (a *dead* opening), or the neighbours may already disagree (a broken board). Beside
a tile seen only in part (a photo's), a digit it needs may not have been seen (``unseen``),
or its tile may be the one seen in part (``maybe played``): the engine says so rather than
assume either way.

A **near-opening** (:class:`NearOpening`) is a lattice point with four of its six cells
occupied: a ring two tiles short. It is *completable* when two different unplayed tiles
exist that fit the two gaps now and agree with each other where the gaps touch.

>>> from engine import Board, get_rules
>>> b = Board()
>>> for c, d in [((0, 0, "U"), (0, 0, 5)), ((-1, 0, "U"), (5, 5, 2)),
...              ((0, -1, "U"), (5, 1, 1)), ((-1, 0, "D"), (5, 5, 0)),
...              ((-1, -1, "D"), (1, 2, 5))]:
...     b.put(c, d)
>>> found = find_openings(b, get_rules()).pending
>>> [(o.placement.notation(), o.tile.name(), o.status) for o in found]
[('0,-1,D=1,5,0', '0-1-5', 'open')]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Board
from .lattice import Cell, Vertex, cell_corners, cell_name, cells_around, vertex_name
from .moves import Placement, _pattern_index
from .rules import Rules
from .scoring import Score, figure_of, make_score
from .tiles import Digits, Tile, tile_set
from .vertexmap import CONFLICT, VertexMap

STATUSES = ("open", "maybe played", "dead", "not in set", "conflict", "unseen")


@dataclass(frozen=True)
class Opening:
    """A pending hexagon at ``cell``.

    ``needs``: the digits its corners must show (corner order; None where the neighbours
    disagree or a digit was not seen). ``status``: ``open`` (the tile is unplayed and
    fits), ``maybe played`` (the tile is not on the board as read, but may be the tile seen
    only in part at ``on_board``), ``dead`` (the tile is already on the board, at
    ``on_board``), ``not in set`` (no such tile in this set), ``conflict`` (the neighbours
    disagree at a corner) or ``unseen`` (a digit it needs lies on a tile seen only in part,
    where that digit was not seen). ``bonus`` is the figure bonus the tile would pay;
    ``score`` its full score when the opening is open or maybe played.
    """

    cell: Cell
    needs: tuple[int | None, int | None, int | None]
    rings: int
    figure: str
    bonus: int
    status: str
    tile: Tile | None = None
    on_board: Cell | None = None
    score: Score | None = None

    @property
    def placement(self) -> Placement | None:
        """The one placement that fills this opening (None on conflicting neighbours or a
        digit not seen)."""
        if self.status in ("conflict", "unseen"):
            return None
        return Placement(self.cell, self.needs)  # type: ignore[arg-type]

    def describe(self) -> str:
        """One readable line, e.g. ``tile 0-4-5 is unplayed``."""
        if self.status == "open":
            return f"tile {self.tile} is unplayed: it scores {self.score.breakdown}"  # type: ignore[union-attr]
        if self.status == "dead":
            return f"dead: tile {self.tile} is already on the board at {cell_name(self.on_board)}"  # type: ignore[arg-type]
        if self.status == "maybe played":
            return (f"tile {self.tile} is not on the board as read, but may be the tile seen "
                    f"in part at {cell_name(self.on_board)}: it scores "  # type: ignore[arg-type]
                    f"{self.score.breakdown}")  # type: ignore[union-attr]
        if self.status == "not in set":
            return f"dead: no such tile in this set ({self.tile} is a mirror tile)"
        if self.status == "unseen":
            return "unknown: a digit it needs was not seen (a tile read only in part)"
        return "dead: the neighbours disagree at a corner"

    def to_json(self) -> dict[str, Any]:
        """JSON form (tile names, cells as lists)."""
        return {"cell": list(self.cell), "needs": list(self.needs), "rings": self.rings,
                "figure": self.figure, "bonus": self.bonus, "status": self.status,
                "tile": self.tile.name() if self.tile else None,
                "placement": self.placement.notation() if self.placement else None,
                "on_board": list(self.on_board) if self.on_board else None,
                "score": self.score.to_json() if self.score else None,
                "note": self.describe()}


@dataclass(frozen=True)
class NearOpening:
    """A ring two tiles short: around ``vertex`` only ``cells`` are empty.

    ``needs[k]``: the digits ``cells[k]`` must show now (corner order, None = free, -1 =
    the board already disagrees there);
    ``candidates[k]``: how many unplayed tiles fit ``cells[k]`` alone; ``completable``:
    two different unplayed tiles fit both gaps together; ``unseen``: the lattice points
    where a gap meets a tile seen only in part whose digit there was not seen (counted as
    free there: then ``completable`` means "may be completable", a "no" still holds).
    """

    vertex: Vertex
    digit: int | None
    cells: tuple[Cell, Cell]
    needs: tuple[tuple[int | None, ...], tuple[int | None, ...]]
    candidates: tuple[int, int]
    completable: bool
    bonus: int
    unseen: tuple[Vertex, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"vertex": list(self.vertex), "digit": self.digit,
                "cells": [list(c) for c in self.cells], "needs": [list(n) for n in self.needs],
                "candidates": list(self.candidates), "completable": self.completable,
                "bonus": self.bonus, "unseen_vertices": [list(v) for v in self.unseen]}


@dataclass(frozen=True)
class Openings:
    """Everything :func:`find_openings` found: pending hexagons first, near-openings second."""

    pending: list[Opening] = field(default_factory=list)
    near: list[NearOpening] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """``{"pending": [...], "near": [...]}``."""
        return {"pending": [o.to_json() for o in self.pending],
                "near": [n.to_json() for n in self.near]}


def find_openings(board: Board, rules: Rules, *, near: bool = True) -> Openings:
    """Pending hexagons and (if ``near``) near-openings on ``board`` under ``rules``.

    Pending ones are sorted open first, then by rings (most first), then cell; near-openings
    completable first, then by vertex. Cost: one pass over the board's vertices.
    """
    vm = VertexMap(board)
    occ = vm.taken
    unplayed = tile_set(board.set_name) - {Tile.from_digits(d) for d in board.cells.values()}
    where = {Tile.from_digits(d): c for c, d in sorted(board.cells.items(), reverse=True)}
    gap_cells: set[Cell] = set()
    ring_vertices: list[Vertex] = []
    for v, n in vm.count.items():
        if n == 5:
            gap_cells.update(c for c in cells_around(v) if c not in occ)
        elif n == 4 and near:
            ring_vertices.append(v)
    pending = [_opening(vm, c, rules, unplayed, where) for c in gap_cells]
    pending.sort(key=lambda o: (STATUSES.index(o.status), -o.rings, o.cell))
    nears = [_near(vm, v, rules, unplayed) for v in ring_vertices]
    nears.sort(key=lambda n: (not n.completable, n.vertex))
    return Openings(pending, nears)


def _opening(vm: VertexMap, cell: Cell, rules: Rules, unplayed: frozenset[Tile] | set[Tile],
             where: dict[Tile, Cell]) -> Opening:
    shape = vm.shape(cell)
    figure, bonus = figure_of(shape, rules)
    rings = len(shape.rings)
    figure = figure or ("hexagon", "double hexagon", "triple hexagon")[rings - 1]
    if not shape.fittable or None in shape.needs:
        needs = tuple(None if d is None or d == CONFLICT else d for d in shape.needs)
        status = "conflict" if not shape.fittable else "unseen"
        return Opening(cell, needs, rings, figure, bonus, status)  # type: ignore[arg-type]
    digits: Digits = shape.needs  # type: ignore[assignment]
    tile = Tile.from_digits(digits)
    if tile in unplayed:
        maybe = vm.board.could_be(tile)
        return Opening(cell, digits, rings, figure, bonus, "maybe played" if maybe else "open",
                       tile, maybe[0] if maybe else None, score=make_score(tile, shape, rules))
    if tile in where:
        return Opening(cell, digits, rings, figure, bonus, "dead", tile, where[tile])
    return Opening(cell, digits, rings, figure, bonus, "not in set", tile)


def _near(vm: VertexMap, v: Vertex, rules: Rules,
          unplayed: frozenset[Tile] | set[Tile]) -> NearOpening:
    occ = vm.taken
    gaps = tuple(sorted(c for c in cells_around(v) if c not in occ))
    index = _pattern_index()
    shapes = [vm.shape(c) for c in gaps]
    options = [[(ds, t) for ds, t in index.get(s.needs, ()) if t in unplayed]
               if s.fittable else [] for s in shapes]
    # gaps that share an edge also share a second corner whose digit may still be free
    shared = [(cell_corners(gaps[0]).index(w), cell_corners(gaps[1]).index(w))
              for w in set(cell_corners(gaps[0])) & set(cell_corners(gaps[1]))]
    completable = any(t1 != t2 and all(d1[a] == d2[b] for a, b in shared)
                      for d1, t1 in options[0] for d2, t2 in options[1])
    digit = vm.digit.get(v)
    return NearOpening(v, None if digit == CONFLICT else digit, gaps,  # type: ignore[arg-type]
                       (shapes[0].needs, shapes[1].needs), (len(options[0]), len(options[1])),
                       completable, rules.hexagon_bonus,
                       tuple(sorted({cell_corners(g)[k] for g, sh in zip(gaps, shapes, strict=True)
                                     for k in sh.unseen})))


def describe_vertex(v: Vertex) -> str:
    """Text form of a vertex for tables."""
    return vertex_name(v)
