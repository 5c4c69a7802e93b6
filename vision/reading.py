"""The result of reading a photo: Reading JSON (``triominos-reading/1``) and an engine Board."""

from __future__ import annotations

from collections.abc import Iterable
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
#: flag of a tile whose outline was not found: its place (and so its corners' crops) is
#: the lattice's cell; says how it was found, not that a digit is unsure
OUTLINE_INFERRED = "outline inferred from the lattice"
#: the flag of a tile with one corner's digit out of sight, reported unknown
HIDDEN_CORNER = "a corner's digit hidden (under a hand or an object)"
#: ... with two corners' digits out of sight: told by the board where it shows them
HIDDEN_TWO = "two corners' digits hidden (under a hand or an object)"
#: the flag (after "corner k: ", before "(its own read D at P)") of a corner whose own
#: crop read a digit unsurely, read as another from a crop moved off its outline
#: (vision.pipeline._reread) ...
MOVED_CROP_UNSURE = "read from a crop moved off the outline"
#: ... and of one whose own crop showed no digit
MOVED_CROP = f"{MOVED_CROP_UNSURE} (its own showed no digit)"


def _r(x: float, nd: int = 1) -> float:
    return round(float(x), nd)


def cell_text(cell: Cell) -> str:
    """A cell as flags and the terminal write it: ``x,y,U``."""
    return ",".join(map(str, cell))


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
    def shows_digit(self) -> bool:
        """True when at least one digit is known (not a blank shape)."""
        return any(d is not None for d in self.corners)

    @property
    def joined_unseen(self) -> bool:
        """Flagged as joined to the board through tiles not seen (:data:`JOINED_UNSEEN`)."""
        return any(f.startswith(JOINED_UNSEEN) for f in self.flags)

    @property
    def against(self) -> list[int]:
        """The corners whose known digit is not its crop's own first choice (``probs``):
        chosen to agree with the tiles around it, or read as a tile of the set."""
        return [k for k, d in enumerate(self.corners) if d is not None
                and int(np.argmax(self.probs[k])) != d]

    @property
    def moved_from_none(self) -> list[int]:
        """The corners whose own crop showed no digit, read from a crop moved off the
        outline (flagged :data:`MOVED_CROP`): something may lie over them."""
        return [k for k in range(3) if f"corner {k}: {MOVED_CROP}" in self.flags]

    @property
    def own_corners(self) -> list[tuple[int, int]]:
        """The corners that show their digits, as (corner, digit): those whose known digit
        is its crop's own first choice (not :attr:`against` it)."""
        return [(k, d) for k, d in enumerate(self.corners)
                if d is not None and int(np.argmax(self.probs[k])) == d]

    @property
    def own_digits(self) -> int:
        """How many of its known digits its crops' own first choices are: the corners that
        show their digits (:attr:`own_corners`)."""
        return len(self.own_corners)

    @property
    def misread_set(self) -> bool:
        """Flagged as repeating a tile, or making one not in the set, only through a digit
        chosen against its pixels (:data:`MISREAD_SET`)."""
        return any(f.startswith(MISREAD_SET) for f in self.flags)

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
#: the flag of a tile of a piece of the board whose joining tiles are out of sight (under
#: a hand or an object, beyond the photo's edge; see vision.apart)
JOINED_OUT_OF_SIGHT = ("joined out of sight: the cells that would join it to the rest of "
                       "the board are hidden or beyond the photo's edge")
#: the start of the flags of a tile joined to the board at a corner, the tiles between
#: out of sight (vision.pipeline: under a hand, beyond the photo's edge)
MEETS_AT_CORNER = "meets the board at a corner"
#: the flags (prefixes) of tiles joined to the board through tiles not seen: the board is
#: judged without them for being in pieces, or touched by a corner only
JOINED_UNSEEN = (JOINED_BY_LATTICE, "joined out of sight", MEETS_AT_CORNER)
#: the flag of a tile joined by the lattice beside a cell whose crops show a digit but no
#: whole tile: a tile lies there under a hand or an object (vision.pipeline, vision.apart)
BESIDE_SHOWN_DIGIT = ("beside a cell showing a digit but no whole tile (a tile under a hand "
                      "or an object)")
#: the start of the flag of a tile whose digits repeat a tile of the board, or make one not
#: in the set, only through a digit chosen against its own pixels (vision.pipeline): a
#: misreading (one set holds each tile once, and no mirror tile), not a violation
MISREAD_SET = "reads as a tile"

#: the note of a reading whose board was found but read as too blurred for its digits to be
#: read (vision.pipeline): its tiles are not reported, so the board read is no board of
#: the table (the tiles off it, if any, are)
BOARD_TOO_BLURRED = ("a board was found but is too blurred for its digits to be read (hold "
                     "the camera still, focus on it): its tiles are not reported")

#: the violations no table of one set shows (a tile used twice, one not in the set): in a
#: reading, misreadings (flagged MISREAD_SET, see vision.pipeline)
SET_KINDS = Status.DUPLICATE_TILE | Status.NOT_IN_SET


@dataclass
class Reading:
    """What the reader saw in one photo (see DESIGN.md, Reading JSON).

    ``tiles`` are on the board (each with a cell); ``off_board`` are tiles seen but not
    joined to it (loose, a rack, face-down backs, tiles cut by the photo's edge);
    ``timing_ms`` has one entry per stage plus ``total``; ``convention`` is the print
    convention decided for this board (``inward``: digit tops point at the tile centre);
    ``notes`` says what a person should know of the photo as a whole (e.g.
    :data:`BOARD_TOO_BLURRED`).
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
    notes: list[str] = field(default_factory=list)
    #: a corner read at this or more is read confidently (the reader's
    #: ``ReaderConfig.confident``): a digit of a tile seen in part so read, disagreeing
    #: with tiles read so, is a mismatch on the table (see :attr:`board`)
    confident: float = 0.90

    @property
    def board_unread(self) -> bool:
        """A board was found but not read (:data:`BOARD_TOO_BLURRED`): the board of this
        reading is not the table's."""
        return BOARD_TOO_BLURRED in self.notes

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
        """The engine board of the tiles on the table (loads even when rules are broken):
        those read in part (a corner hidden, or cut by the photo's edge) are on it as
        tiles seen in part (:attr:`engine.board.Board.partial`), so that their cells are
        not offered as free and their digits in view count. A digit of theirs that
        disagrees with the tiles read in full at its lattice point (or, where none is, with
        another tile read in part) is given as not seen: a tile read in part is not judged
        by its digits where they are unsure, so the engine is not told a conflict the
        reading does not report, and a move meeting it is marked to be checked. But where
        that digit and every corner there disagreeing with it are read at
        :attr:`confident` or more, its corner in the photo, it stays: the mismatch is the
        table's, reported as the board's are (stop 91)."""
        board = self._engine_board(self.tiles)
        sure: dict[Vertex, list[tuple[int, bool]]] = {}  # each digit there, read confidently?
        full: dict[Vertex, set[int]] = {}
        part: dict[Vertex, set[int]] = {}
        for t in self.tiles:
            if t.cell is None:
                continue
            at = part if t.cell in board.partial else full
            for v, d, p in zip(cell_corners(t.cell), t.corners, t.confidence, strict=True):
                if d is not None:
                    at.setdefault(v, set()).add(d)
                    sure.setdefault(v, []).append((d, p >= self.confident))

        def seen(v: Vertex, d: int | None, p: float, xy: np.ndarray) -> bool:
            if d is None:
                return False
            if (full[v] == {d}) if v in full else len(part[v]) == 1:
                return True  # agrees
            # (its corner in the photo: a digit read by the photo's edge, the corner
            # beyond it, may be cut: held-out faults 70000010, a 0 read 3 at 0.91)
            return (p >= self.confident and all(ok for e, ok in sure[v] if e != d)
                    and 0 <= xy[0] < self.width and 0 <= xy[1] < self.height)

        for t in self.tiles:
            if t.cell in board.partial:
                board.partial[t.cell] = tuple(  # type: ignore[assignment]
                    d if seen(v, d, p, xy) else None
                    for v, d, p, xy in zip(cell_corners(t.cell), t.corners, t.confidence,
                                           t.corner_px, strict=True))
        return board

    def _engine_board(self, tiles: list[TileReading]) -> Board:
        """The engine board of those of ``tiles`` with a cell (a digit not read: None)."""
        data = {"format": "triominos-board/1", "set": self.set_name,
                "tiles": [{"cell": list(t.cell), "corners": list(t.corners)}
                          for t in tiles if t.cell is not None]}
        return Board.from_json(data, strict=False)

    def pieces(self) -> list[list[TileReading]]:
        """The tiles with a cell (complete or not) in pieces joined edge to edge, the
        board's own first: the largest with a tile not joined through tiles unseen
        (:attr:`TileReading.joined_unseen`), then by size (ties: the one with more tiles
        read in full, then the one with the lowest cell)."""
        at = {t.cell: t for t in self.tiles if t.cell is not None}
        parts = [[at[c] for c in sorted(p)] for p in self._engine_board(self.tiles).components()]
        # components come largest first (ties: lowest cell first): a stable sort keeps that.
        # A tile read in part lies under a hand or beyond the photo's edge: of two pieces
        # the same size, the one more of whose tiles are in full view is the board's own
        return sorted(parts, key=lambda g: (all(t.joined_unseen for t in g), -len(g),
                                            -sum(t.complete for t in g)))

    def board_violations(self) -> list[Violation]:
        """The board's rule violations. Whether it is in pieces, or touched by a corner
        only, is judged on the board as seen: with the tiles read only in part (a corner
        hidden, or cut by the photo's edge), and without the tiles apart from its own
        piece (:meth:`pieces`) joined to it through tiles not seen (flagged
        :data:`JOINED_UNSEEN`). A tile repeated, or not in the set, is not reported where
        a tile it names is flagged :data:`MISREAD_SET` (a digit of it was chosen against
        its pixels: the reading, not the table, is wrong there)."""
        joins = Status.DISCONNECTED | Status.CORNER_ONLY
        misread = {t.cell for t in self.tiles if t.misread_set}
        out = [v for v in self.board.violations() if not v.kind & joins
               and not (v.kind & SET_KINDS and misread.intersection(v.cells))]
        unseen = {t.cell for part in self.pieces()[1:] for t in part if t.joined_unseen}
        seen = self._engine_board([t for t in self.tiles if t.cell not in unseen])
        return out + [v for v in seen.violations() if v.kind & joins]

    def violations(self) -> list[dict[str, Any]]:
        """The board's rule violations as JSON objects (:meth:`board_violations`)."""
        return [v.to_json() for v in self.board_violations()]

    def flags(self) -> list[tuple[str, str]]:
        """Every flag as (where, text), board tiles first."""
        out: list[tuple[str, str]] = []
        for t in self.tiles:
            where = cell_text(t.cell) if t.cell else "?"
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
            "notes": list(self.notes),
            "timing_ms": {k: _r(self.timing_ms.get(k, 0.0)) for k in STAGES},
        }


def asks_look(flags: Iterable[str]) -> bool:
    """Do a tile's ``flags`` ask for a person's look: a digit read unsurely or inferred, a
    tile partial or joined past what the photo shows (any flag but
    :data:`OUTLINE_INFERRED`, which says only how the tile was found)?"""
    return any(f != OUTLINE_INFERRED for f in flags)


def flagged_tiles(reading: dict[str, Any]) -> list[bool]:
    """For each board tile of a Reading JSON ``reading``: do its flags ask for a look
    (:func:`asks_look`)?"""
    return [asks_look(t.get("flags", ())) for t in reading["tiles"]]


def to_check(reading: dict[str, Any]) -> bool:
    """Does a Reading JSON ask for a person's look: a board tile flagged
    (:func:`flagged_tiles`), a note on the photo as a whole, or no board at all (tiles
    read, none of them joined: whether the photo shows a board is for a person to see)?
    On the evaluation photos every wrong digit lay on a flagged tile, and the photos
    needing no look were read with no mistake but for a few (``trust`` in
    ``benchmarks/results/*eval*.json``)."""
    return bool(reading.get("notes")) or not reading["tiles"] or any(flagged_tiles(reading))
