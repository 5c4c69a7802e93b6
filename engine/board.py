"""The board: which tile lies in which lattice cell, and nothing else (what a photo shows).

A :class:`Board` maps cells to the digits at their corners (in the cell's corner order of
DESIGN.md). It loads and saves Board JSON (``triominos-board/1``). A board that breaks the
rules still loads; :meth:`Board.violations` names each problem and :meth:`Board.status`
sums them up as bit flags (like python-chess's ``status()``).

A board read from a photo may hold tiles seen only in part (under a hand, beyond the
photo's edge): :attr:`Board.partial`, ``null`` for each digit not seen in Board JSON. Such a
tile fills its cell and joins its neighbours; its digits in view count where tiles meet;
which tile it is, and what its hidden digits are, the engine does not know and never
assumes.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ParseError, read_input_file
from .lattice import (
    Cell,
    Vertex,
    cell_corners,
    cell_name,
    cells_around,
    edge_neighbours,
    make_cell,
    transform_cell,
    vertex_name,
)
from .tiles import SET_NAMES, Digits, Tile, tile_set

BOARD_FORMAT = "triominos-board/1"

#: The corner digits of a tile seen only in part (corner order): None = a digit not seen.
PartDigits = tuple[int | None, int | None, int | None]


def digits_text(digits: Iterable[int | None]) -> str:
    """Corner digits as text, ``?`` for each not seen: ``1,?,2``."""
    return ",".join("?" if d is None else str(d) for d in digits)


class Status(enum.IntFlag):
    """Bit flags summarising what is wrong with a board (``VALID`` = nothing)."""

    VALID = 0
    CORNER_MISMATCH = 1
    CORNER_ONLY = 2
    DUPLICATE_TILE = 4
    NOT_IN_SET = 8
    DISCONNECTED = 16


@dataclass(frozen=True)
class Violation:
    """One rule problem on a board: its kind (a :class:`Status` flag), where, and a message."""

    kind: Status
    cells: tuple[Cell, ...]
    message: str
    vertex: Vertex | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{"kind", "cells", "message"[, "vertex"]}``."""
        out: dict[str, Any] = {"kind": self.kind.name.lower() if self.kind.name else "",
                               "cells": [list(c) for c in self.cells],
                               "message": self.message}
        if self.vertex is not None:
            out["vertex"] = list(self.vertex)
        return out


@dataclass
class Board:
    """Placement-only board: ``cells`` maps a cell to its corner digits (corner order).

    ``set_name`` is ``standard`` or ``extended``. ``partial`` maps the cells of tiles seen
    only in part (a photo's) to their digits, None where not seen; such a cell is taken
    (``cell in board``, ``len(board)``) but its tile is not in :meth:`tiles` or
    :meth:`used`. Iterating gives the complete tiles. Mutating methods keep no history;
    the game layer (``engine.game``) keeps turns and scores.
    """

    cells: dict[Cell, Digits] = field(default_factory=dict)
    set_name: str = "standard"
    partial: dict[Cell, PartDigits] = field(default_factory=dict)

    def __post_init__(self) -> None:
        tile_set(self.set_name)  # validates the name

    # ---- access -------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.cells) + len(self.partial)

    def __contains__(self, cell: object) -> bool:
        return cell in self.cells or cell in self.partial

    def __iter__(self) -> Iterator[tuple[Cell, Digits]]:
        return iter(sorted(self.cells.items()))

    def copy(self) -> Board:
        """A shallow copy that can be changed independently."""
        return Board(dict(self.cells), self.set_name, dict(self.partial))

    def occupied(self) -> set[Cell]:
        """Every cell holding a tile, whether read in full or in part."""
        return self.cells.keys() | self.partial.keys()

    def seen_at(self, cell: Cell) -> PartDigits | None:
        """The digits of the tile in ``cell`` as far as seen (None for each not seen), or
        None for an empty cell."""
        return self.cells.get(cell) or self.partial.get(cell)

    def describe_at(self, cell: Cell) -> str:
        """The tile in ``cell`` in words: its name (``1-2-5``), or for a tile seen in part
        its digits in corner order with ``?`` for each not seen (``1,?,2``)."""
        d = self.partial.get(cell)
        if d is not None:
            return digits_text(d) + " (seen in part)"
        return str(self.tile_at(cell))

    def tile_at(self, cell: Cell) -> Tile | None:
        """The tile in ``cell``, or None."""
        d = self.cells.get(cell)
        return Tile.from_digits(d) if d is not None else None

    def tiles(self) -> list[Tile]:
        """Every tile on the board (with repeats, if a tile lies twice)."""
        return [Tile.from_digits(d) for _, d in self]

    def used(self) -> set[Tile]:
        """The set of tiles on the board."""
        return set(self.tiles())

    def could_be(self, tile: Tile) -> list[Cell]:
        """The cells of tiles seen only in part that may be ``tile`` (their digits in view
        agree with it in some rotation), in cell order."""
        return sorted(c for c, p in self.partial.items()
                      if any(all(x is None or x == d for x, d in zip(p, r, strict=True))
                             for r in tile.rotations()))

    def unplayed(self) -> list[Tile]:
        """Tiles of the set that are not on the board, in name order."""
        used = self.used()
        return sorted(t for t in tile_set(self.set_name) if t not in used)

    def digits_at(self, v: Vertex) -> dict[Cell, int]:
        """The digit each occupied cell around vertex ``v`` shows there (a tile seen in part
        only where its digit there was seen)."""
        out: dict[Cell, int] = {}
        for c in cells_around(v):
            d = self.cells.get(c) or self.partial.get(c)
            if d is not None:
                x = d[cell_corners(c).index(v)]
                if x is not None:
                    out[c] = x
        return out

    def unseen_at(self, v: Vertex) -> list[Cell]:
        """The cells around vertex ``v`` holding a tile whose digit there was not seen."""
        return [c for c in cells_around(v)
                if c in self.partial and self.partial[c][cell_corners(c).index(v)] is None]

    def vertices(self) -> set[Vertex]:
        """Every vertex touched by a tile."""
        return {v for c in self.occupied() for v in cell_corners(c)}

    def occupied_neighbours(self, cell: Cell) -> list[Cell]:
        """Occupied cells sharing an edge with ``cell``."""
        if not self.partial:
            return [n for n in edge_neighbours(cell) if n in self.cells]
        return [n for n in edge_neighbours(cell) if n in self.cells or n in self.partial]

    def frontier(self) -> set[Cell]:
        """Empty cells sharing an edge with a tile (where a next tile may go)."""
        occ = self.occupied() if self.partial else self.cells
        return {n for c in occ for n in edge_neighbours(c) if n not in occ}

    # ---- change -------------------------------------------------------------------
    def put(self, cell: Cell, corners: Iterable[int]) -> None:
        """Place digits ``corners`` (corner order) in ``cell``, no rule check (see moves)."""
        ds = tuple(corners)
        Tile.from_digits(ds)  # validates digits
        cell = make_cell(*cell)
        self.partial.pop(cell, None)  # a tile seen in part, now seen in full
        self.cells[cell] = ds  # type: ignore[assignment]

    def remove(self, cell: Cell) -> Digits:
        """Take the tile out of ``cell`` and return its digits. KeyError if empty."""
        return self.cells.pop(cell)

    def transformed(self, turns: int = 0, shift: Vertex = (0, 0)) -> Board:
        """This board rotated by ``turns`` x 60 degrees about vertex (0,0), then shifted."""
        b = Board(set_name=self.set_name)
        for c, d in self.cells.items():
            nc, nd = transform_cell(c, d, turns, shift)
            b.cells[nc] = nd
        for c, p in self.partial.items():
            nc, np_ = transform_cell(c, p, turns, shift)  # type: ignore[arg-type]
            b.partial[nc] = np_  # type: ignore[assignment]
        return b

    # ---- rules --------------------------------------------------------------------
    def violations(self) -> list[Violation]:
        """Every rule problem on the board, in a stable order.

        Kinds: corners disagreeing at a lattice point, a tile touching others only by a
        corner, a tile used twice, a tile not in the set, a board in pieces. A tile seen in
        part counts where it lies and with its digits in view; whether it is in the set or
        used twice is not known, so not judged.
        """
        out: list[Violation] = []
        for v in sorted(self.vertices()):
            at = self.digits_at(v)
            if len(set(at.values())) > 1:
                desc = ", ".join(f"{d} from {cell_name(c)}" for c, d in sorted(at.items()))
                out.append(Violation(Status.CORNER_MISMATCH, tuple(sorted(at)),
                                     f"corners disagree at vertex {vertex_name(v)}: {desc}", v))
        if len(self) > 1:
            for c in sorted(self.occupied()):
                if not self.occupied_neighbours(c):
                    touching = any(n != c and n in self for v in cell_corners(c)
                                   for n in cells_around(v))
                    if touching:
                        out.append(Violation(Status.CORNER_ONLY, (c,),
                                             f"tile {self.describe_at(c)} at {cell_name(c)} "
                                             "touches the board only by a corner"))
        seen: dict[Tile, Cell] = {}
        for c, d in self:
            t = Tile.from_digits(d)
            if not t.in_set(self.set_name):
                out.append(Violation(Status.NOT_IN_SET, (c,),
                                     f"tile {t} at {cell_name(c)} is not in the {self.set_name} "
                                     "set (a mirror tile?)"))
            if t in seen:
                out.append(Violation(Status.DUPLICATE_TILE, (seen[t], c),
                                     f"tile {t} is used twice: at {cell_name(seen[t])} and "
                                     f"{cell_name(c)}"))
            else:
                seen[t] = c
        parts = self.components()
        if len(parts) > 1:
            sizes = ", ".join(str(len(p)) for p in parts)
            out.append(Violation(Status.DISCONNECTED, tuple(sorted(min(p) for p in parts)),
                                 f"the board is in {len(parts)} pieces (of {sizes} tiles)"))
        return out

    def status(self) -> Status:
        """The OR of the kinds of all violations (``Status.VALID`` if none)."""
        s = Status.VALID
        for v in self.violations():
            s |= v.kind
        return s

    def is_valid(self) -> bool:
        """True when the board has no violation."""
        return self.status() == Status.VALID

    def components(self) -> list[set[Cell]]:
        """Groups of tiles (read in full or in part) joined edge to edge, largest first."""
        left = self.occupied()
        parts: list[set[Cell]] = []
        while left:
            start = min(left)
            stack, part = [start], {start}
            left.discard(start)
            while stack:
                for n in self.occupied_neighbours(stack.pop()):
                    if n in left:
                        left.discard(n)
                        part.add(n)
                        stack.append(n)
            parts.append(part)
        parts.sort(key=lambda p: (-len(p), min(p)))
        return parts

    # ---- JSON ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Board JSON (``triominos-board/1``) as a dict, tiles in cell order (a tile seen in
        part with ``None`` for each digit not seen)."""
        return {"format": BOARD_FORMAT, "set": self.set_name,
                "tiles": self._entries()}

    def _entries(self) -> list[dict[str, Any]]:
        both: dict[Cell, PartDigits] = {**self.partial, **self.cells}
        return [{"cell": list(c), "corners": list(both[c])} for c in sorted(both)]

    def dumps(self) -> str:
        """Board JSON text, one tile per line."""
        lines = [json.dumps(e) for e in self._entries()]
        body = ",\n    ".join(lines)
        return (f'{{\n  "format": "{BOARD_FORMAT}",\n  "set": "{self.set_name}",\n'
                f'  "tiles": [\n    {body}\n  ]\n}}\n' if lines else
                json.dumps(self.to_json(), indent=2) + "\n")

    @classmethod
    def from_json(cls, data: Any, *, strict: bool = True) -> Board:
        """Build a board from parsed Board JSON (a Reading JSON is accepted too).

        ``strict`` (the default, for files people give) rejects a tile not in the set and a
        tile used twice as input errors; vision builds boards with ``strict=False`` so that
        such readings load and are reported as violations instead. A corner given as
        ``null`` is a digit not seen: that tile goes to :attr:`partial` (a tile read from a
        photo only in part, as Reading JSON writes it).
        Raises ParseError with a one-line message naming the offending entry.
        """
        if not isinstance(data, dict):
            raise ParseError("Board JSON must be an object with \"format\", \"set\", \"tiles\"")
        fmt = data.get("format")
        if fmt not in (BOARD_FORMAT, "triominos-reading/1"):
            raise ParseError(f"unknown format {fmt!r} (expected {BOARD_FORMAT!r})")
        set_name = data.get("set", "standard")
        if set_name not in SET_NAMES:
            raise ParseError(f"unknown set {set_name!r} (expected standard or extended)")
        tiles = data.get("tiles")
        if not isinstance(tiles, list):
            raise ParseError("\"tiles\" must be a list")
        board = cls(set_name=set_name)
        where: dict[Tile, Cell] = {}
        for n, entry in enumerate(tiles):
            label = f"tiles[{n}]"
            if not isinstance(entry, dict):
                raise ParseError(f"{label}: expected an object with \"cell\" and \"corners\"")
            cell_raw, corners_raw = entry.get("cell"), entry.get("corners")
            if not isinstance(cell_raw, list) or len(cell_raw) != 3:
                raise ParseError(f"{label}: bad cell {cell_raw!r} (expected [i, j, \"U\"|\"D\"])")
            try:
                cell = make_cell(*cell_raw)
            except ParseError as e:
                raise ParseError(f"{label}: {e}") from None
            if (not isinstance(corners_raw, list) or len(corners_raw) != 3
                    or not all(d is None or (type(d) is int and 0 <= d <= 5)
                               for d in corners_raw)):
                raise ParseError(f"{label} at {cell_name(cell)}: bad corners "
                                 f"{json.dumps(corners_raw, default=str)} (expected three "
                                 "digits 0-5, null for a digit not seen)")
            if cell in board:
                raise ParseError(f"{label}: cell {cell_name(cell)} is given twice")
            if None in corners_raw:
                board.partial[cell] = tuple(corners_raw)  # type: ignore[assignment]
                continue
            tile = Tile.from_digits(corners_raw)
            if strict and not tile.in_set(set_name):
                raise ParseError(f"{label} at {cell_name(cell)}: tile {tile} is not in the "
                                 f"{set_name} set")
            if strict and tile in where:
                raise ParseError(f"{label} at {cell_name(cell)}: tile {tile} is used twice "
                                 f"(also at {cell_name(where[tile])})")
            where.setdefault(tile, cell)
            board.cells[cell] = tuple(corners_raw)  # type: ignore[assignment]
        return board

    @classmethod
    def loads(cls, text: str, *, strict: bool = True) -> Board:
        """Parse Board JSON text. Raises ParseError (empty text, not JSON, bad entries)."""
        if not text.strip():
            raise ParseError("empty file: expected Board JSON")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ParseError(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
        return cls.from_json(data, strict=strict)

    @classmethod
    def load(cls, path: str | Path, *, strict: bool = True) -> Board:
        """Read a Board JSON file. Raises ParseError naming the file on any problem."""
        p = Path(path)
        text = read_input_file(p)
        try:
            return cls.loads(text, strict=strict)
        except ParseError as e:
            raise ParseError(f"{p}: {e}") from None

    def save(self, path: str | Path) -> None:
        """Write Board JSON to ``path``."""
        Path(path).write_text(self.dumps(), encoding="utf-8")
