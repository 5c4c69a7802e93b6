"""The result of reading a photo: Reading JSON (``triominos-reading/1``) and an engine Board."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.board import Board, Status, Violation
from engine.lattice import Cell, Vertex, cell_corners, vertex_xy
from engine.tiles import Tile

READING_FORMAT = "triominos-reading/1"
STAGES = ("decode", "detect", "classify", "reconstruct", "total")
#: label flag (synthetic photos) of a tile more than half hidden by a hand, object or rack:
#: no reader can be asked to find it, so evaluation treats it as optional
MOSTLY_HIDDEN = "mostly hidden"


def _r(x: float, nd: int = 1) -> float:
    return round(float(x), nd)


@dataclass
class TileReading:
    """One tile as seen: digits in corner order (``None`` where a corner is not visible),
    image corners ``corner_px`` (3, 2) in original pixels, per-corner ``confidence`` and
    ``probs`` (3, 7) (classes 0-5, none), ``flags`` for a person to double-check.
    ``cell`` is None for a tile off the board."""

    cell: Cell | None
    corners: list[int | None]
    corner_px: np.ndarray
    confidence: list[float]
    probs: np.ndarray
    flags: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """True when all three digits are known."""
        return all(d is not None for d in self.corners)

    @property
    def tile(self) -> Tile | None:
        """The physical tile, or None when a corner is hidden."""
        return Tile.from_digits(self.corners) if self.complete else None  # type: ignore[arg-type]

    @property
    def centroid_px(self) -> np.ndarray:
        """Centre of the top face in original pixels (2,)."""
        return self.corner_px.mean(axis=0)

    def to_json(self) -> dict[str, Any]:
        """The tile's entry of Reading JSON."""
        out: dict[str, Any] = {}
        if self.cell is not None:
            out["cell"] = list(self.cell)
        t = self.tile
        out.update({
            "corners": list(self.corners),
            "tile": t.name() if t is not None else None,
            "corner_px": [[_r(x), _r(y)] for x, y in self.corner_px],
            "centroid_px": [_r(v) for v in self.centroid_px],
            "confidence": [_r(c, 3) for c in self.confidence],
            "flags": list(self.flags),
        })
        return out


#: the flag of a tile joined to the board by the lattice alone (apart from it, its joining
#: tiles under a hand or an object)
JOINED_BY_LATTICE = "joined by the lattice"


@dataclass
class Reading:
    """What the reader saw in one photo (see DESIGN.md, Reading JSON).

    ``tiles`` are on the board (each with a cell); ``off_board`` are tiles seen but not
    joined to it (loose, a rack, face-down backs, tiles cut by the photo's edge);
    ``timing_ms`` has one entry per stage plus ``total``; ``convention`` is the print
    convention decided for this board (``inward``: digit tops point at the tile centre).
    """

    image: str
    width: int
    height: int
    set_name: str = "standard"
    tiles: list[TileReading] = field(default_factory=list)
    off_board: list[TileReading] = field(default_factory=list)
    timing_ms: dict[str, float] = field(default_factory=dict)
    convention: str = "inward"
    #: (3, 3) map from lattice (x, y, 1) in table units to original image pixels, or None
    homography: np.ndarray | None = None

    def cell_px(self, cell: Cell) -> np.ndarray:
        """(3, 2) image corners of any lattice cell, in its corner order: a vertex shared
        with a board tile is taken from that tile, the others from the homography."""
        known: dict[Vertex, np.ndarray] = {}
        for t in self.tiles:
            if t.cell is not None:
                for v, p in zip(cell_corners(t.cell), t.corner_px, strict=True):
                    known.setdefault(v, p)
        out = []
        for v in cell_corners(cell):
            if v in known:
                out.append(known[v])
            elif self.homography is not None:
                q = self.homography @ np.array([*vertex_xy(v), 1.0])
                out.append(q[:2] / q[2])
            else:
                raise ValueError("no lattice fitted: cannot place a cell in the photo")
        return np.array(out, dtype=np.float64)

    @property
    def board(self) -> Board:
        """The engine board of the tiles on the table (loads even when rules are broken)."""
        return self._board_without(set())

    def _board_without(self, cells: set[Cell]) -> Board:
        """The engine board of the complete tiles on the table but those on ``cells``."""
        data = {"format": "triominos-board/1", "set": self.set_name,
                "tiles": [{"cell": list(t.cell), "corners": list(t.corners)}
                          for t in self.tiles
                          if t.cell is not None and t.complete and t.cell not in cells]}
        return Board.from_json(data, strict=False)

    def board_violations(self) -> list[Violation]:
        """The board's rule violations, but the board's being in pieces, or a tile's
        touching it by a corner only, where tiles the reader joined by the lattice
        (:data:`JOINED_BY_LATTICE`: joined under a hand or an object) explain it: those are
        judged on the board without them."""
        out = self.board.violations()
        apart = {t.cell for t in self.tiles if t.cell is not None
                 and any(f.startswith(JOINED_BY_LATTICE) for f in t.flags)}
        if not apart:
            return out
        joins = Status.DISCONNECTED | Status.CORNER_ONLY
        kept = [v for v in self._board_without(apart).violations() if v.kind & joins]
        return [v for v in out if not v.kind & joins] + kept

    def violations(self) -> list[dict[str, Any]]:
        """The board's rule violations as JSON objects (:meth:`board_violations`)."""
        return [v.to_json() for v in self.board_violations()]

    def flags(self) -> list[tuple[str, str]]:
        """Every flag as (where, text), board tiles first."""
        out: list[tuple[str, str]] = []
        for t in self.tiles:
            where = ",".join(str(c) for c in t.cell) if t.cell else "?"
            out += [(where, f) for f in t.flags]
        for n, t in enumerate(self.off_board):
            out += [(f"off-board #{n}", f) for f in t.flags]
        return out

    def to_json(self) -> dict[str, Any]:
        """Reading JSON (``triominos-reading/1``) as a dict."""
        return {
            "format": READING_FORMAT,
            "image": self.image, "width": self.width, "height": self.height,
            "set": self.set_name,
            "tiles": [t.to_json() for t in sorted(self.tiles, key=lambda t: t.cell or ())],
            "violations": self.violations(),
            "off_board": [t.to_json() for t in self.off_board],
            "timing_ms": {k: _r(self.timing_ms.get(k, 0.0)) for k in STAGES},
        }
