"""What the photo commands of ``cli.py`` call: read a photo once, describe it, draw it.

Readings are kept per path for the life of the process, so a command that loads a board
from a photo (``moves``, ``openings``, ``check``) can draw its answer on that photo.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from engine.board import Board, digits_text
from engine.lattice import Cell, cell_corners, cell_name, cells_around
from engine.referee import Check

from .config import DEFAULT
from .io import IMAGE_SUFFIXES, PhotoError, load, sniffed_image
from .reading import (
    BOARD_TOO_BLURRED,
    HIDDEN_CORNER,
    HIDDEN_TWO,
    Reading,
    TileReading,
    asks_look,
    flagged_tiles,
    to_check,
)
from .render import Ghost, board_text, draw_overlay

_READINGS: dict[str, Reading] = {}


def is_photo(path: str | Path) -> bool:
    """True when ``path`` names an image file (by suffix, or by content for odd names)."""
    p = Path(path)
    if p.suffix.lower() in IMAGE_SUFFIXES:
        return True
    if p.suffix.lower() == ".json" or not p.is_file():
        return False
    try:
        head = p.open("rb").read(16)
    except OSError:
        return False
    return sniffed_image(head)


def read(path: str | Path, set_name: str = "standard") -> Reading:
    """Read a photo (once per process). Raises PhotoError / ModelError with one line."""
    key = str(path)
    if key not in _READINGS:
        from .pipeline import read_photo
        _READINGS[key] = read_photo(path, DEFAULT, set_name=set_name)
    return _READINGS[key]


def photo_board(path: str | Path) -> Board:
    """The engine board read from a photo (what ``_load_board`` returns for a photo).

    Raises PhotoError (one line) where a board was found but not read (too blurred): an
    empty board would be answered as the table's (openings offered on a game under way).
    """
    reading = read(path)
    if reading.board_unread:
        raise PhotoError(f"{path}: no board read: {BOARD_TOO_BLURRED}")
    return reading.board


def align_to(board: Board, ref: Board) -> Board:
    """``board`` turned and shifted onto ``ref``'s lattice so that most of its tiles lie
    where ``ref`` has the same tile (two photos of one table: the lattice origin and
    orientation are fixed per photo). Returns ``board`` unchanged if nothing matches."""
    from engine.tiles import Tile
    where = {Tile.from_digits(d): c for c, d in ref.cells.items()}
    best, best_n = board, 0
    for turn in range(6):
        rot = board.transformed(turn)
        shifts: dict[tuple[int, int], int] = {}
        for c, d in rot.cells.items():
            rc = where.get(Tile.from_digits(d))
            if rc is not None and rc[2] == c[2]:
                key = (rc[0] - c[0], rc[1] - c[1])
                shifts[key] = shifts.get(key, 0) + 1
        for shift, n in shifts.items():
            if n > best_n:
                best, best_n = rot.transformed(0, shift), n
    return best


def _off_photo(reading: Reading, p: np.ndarray) -> bool:
    """Whether image point ``p`` (x, y, original pixels) lies outside ``reading``'s photo
    (or is not a finite point)."""
    return bool(not np.isfinite(p).all()
                or not (0 <= p[0] < reading.width and 0 <= p[1] < reading.height))


#: how far from a lattice point toward a cell's centre (a share of the way) a tile's corner
#: there shows: a tile whose corner at that point the photo shows would have been seen
_CORNER_REACH = 0.35


def beyond_photo(path: str | Path, cells: Iterable[Cell]) -> set[Cell]:
    """Those of ``cells`` (empty cells of the board read from photo ``path``, in its
    lattice) that the photo cannot judge a tile in: the cell's centre lies beyond the
    photo's edge, or a cell meeting one of its corners, holding no tile read, would show
    its corner there beyond the edge: the table may hold a tile there that the photo does
    not show. Empty where ``path`` is not a photo read in this process, or its reading
    fitted no lattice."""
    reading = reading_of(path)
    if reading is None or reading.homography is None:
        return set()
    taken = reading.board.occupied()
    px_of: dict[Cell, np.ndarray] = {}

    def px(c: Cell) -> np.ndarray:
        if c not in px_of:
            px_of[c] = reading.cell_px(c)
        return px_of[c]

    def corner_out(n: Cell, k: int) -> bool:
        q = px(n)
        return _off_photo(reading, q[k] + _CORNER_REACH * (q.mean(axis=0) - q[k]))

    return {c for c in cells
            if _off_photo(reading, px(c).mean(axis=0))
            or any(corner_out(n, cell_corners(n).index(v)) for v in cell_corners(c)
                   for n in cells_around(v) if n != c and n not in taken)}


#: flags about what a tile seen in part hides, not about its digits in view
_HIDDEN_FLAGS = frozenset({"partial", "no digit in view", HIDDEN_CORNER, HIDDEN_TWO})


def photo_check(path: str | Path, res: Check, after: str | Path | None = None) -> Check:
    """``res`` (a check on the board read from photo ``path``; with ``after``, of the tile
    new in that second photo) with what the photos cannot confirm added to
    ``unverified``: its placement's cell where the photo cannot judge it
    (:func:`beyond_photo`); each tile the check compares it with (at the vertices the
    placement meets, a digit in view) that the reading asks a look at
    (:func:`vision.reading.asks_look`, but for what a tile seen in part hides: every
    wrong digit of the evaluation photos lay on such a tile); and the tile placed, where
    ``after``'s reading asks a look at it (likewise). ``res`` itself where neither is a
    photo read in this process."""
    if res.placement is None:
        return res
    cell, more = res.placement.cell, []
    if beyond_photo(path, [cell]):
        more.append(f"{cell_name(cell)} lies at or beyond the photo's edge: the table may "
                    "hold a tile there, or beside it, that the photo does not show")
    reading = reading_of(path)
    meets = set(cell_corners(cell))
    for t in reading.tiles if reading is not None else ():
        if t.cell is None or t.cell == cell:
            continue
        # A whole tile is in doubt, not only the corners its flags name: of the 68 wrong
        # digits of the held-out photos, 6 lay on another corner of a tile so flagged
        flags = _in_view_flags(t)
        ks = [k for k, v in enumerate(cell_corners(t.cell))
              if v in meets and t.corners[k] is not None]
        if ks and asks_look(flags):
            which = (f"corner {ks[0]} (read {t.corners[ks[0]]})" if len(ks) == 1 else
                     f"corners {' and '.join(map(str, ks))} (read "
                     f"{' and '.join(str(t.corners[k]) for k in ks)})")
            more.append(f"{cell_name(t.cell)}'s {which}, which the placement meets, "
                        f"{'lies' if len(ks) == 1 else 'lie'} on a tile to check: "
                        f"{_doubt(flags)}")
    placed = reading_of(after) if after is not None else None
    for t in placed.tiles if placed is not None else ():
        flags = _in_view_flags(t)
        if t.tile == res.placement.tile and asks_look(flags):
            more.append(f"the tile placed, {t.tile}, is to check in the second photo: "
                        f"{_doubt(flags)}")
    return replace(res, unverified=[*res.unverified, *more]) if more else res


def _in_view_flags(t: TileReading) -> list[str]:
    """Tile ``t``'s flags but those about what it hides, seen only in part: the engine
    leaves what a tile seen in part hides unconfirmed itself (``Check.unverified``,
    ``check_change``), and its digits in view were read as any are."""
    return [f for f in t.flags if f not in _HIDDEN_FLAGS]


def _doubt(flags: Sequence[str]) -> str:
    """The first of a tile's ``flags`` that asks a look (:func:`vision.reading.asks_look`)."""
    return next(f for f in flags if asks_look([f]))


def reading_of(path: str | Path) -> Reading | None:
    """The reading of a photo already read in this process, or None."""
    return _READINGS.get(str(path))


def check_overlay(out: str | Path) -> Path:
    """The overlay file ``out`` as a path, checked before any reading: an image format
    OpenCV writes (by its suffix) in an existing folder. Raises :class:`PhotoError` (one
    line) otherwise."""
    o = Path(out)
    if not o.parent.is_dir() or o.is_dir() or not cv2.haveImageWriter(str(o)):
        raise PhotoError(f"{o}: cannot write the overlay (use a .png or .jpg name in an "
                         "existing folder)")
    return o


def write_overlay(path: str | Path, out: str | Path,
                  ghosts: Sequence[Ghost] = ()) -> Path:
    """Draw the reading of photo ``path`` (plus ghost tiles) into the image file ``out``
    (:func:`check_overlay` first). Raises :class:`PhotoError` (one line) where it cannot
    be written."""
    o = check_overlay(out)
    reading = read(path)
    photo = load(DEFAULT, path)
    img = draw_overlay(photo.image, reading, ghosts)
    try:
        ok = cv2.imwrite(str(o), img)
    except cv2.error:  # e.g. a format whose writer refuses this image
        ok = False
    if not ok:
        raise PhotoError(f"{o}: cannot write the overlay (use a .png or .jpg name in an "
                         "existing folder)")
    return o


def _why_partial(reading: Reading, t: TileReading) -> str:
    """Why a board tile is read only in part, in words: its outline runs past the photo's
    edge, a flag says a hand or an object hides a digit, or neither (a digit not seen)."""
    if any(_off_photo(reading, p) for p in t.corner_px):
        return "cut by the photo's edge"
    if any("under a hand or an object" in f for f in t.flags):
        return "partly under a hand or an object"
    return "a digit not seen"


def check_line(reading: Reading) -> str:
    """What a person should look at in the photo before trusting the reading
    (:func:`vision.reading.to_check`): the board tiles flagged (by cell), the notes, or the
    board missing; else that nothing is flagged."""
    tiles = sorted(reading.tiles, key=lambda t: t.cell or ())
    # (the part of the Reading JSON to_check judges: the whole of it would work out the
    # board's violations again, which report_lines has)
    data = {"tiles": [{"flags": t.flags} for t in tiles], "notes": reading.notes}
    if not to_check(data):
        return "to check: nothing flagged"
    what = [cell_name(t.cell) for t, f in zip(tiles, flagged_tiles(data), strict=True)
            if f and t.cell is not None]
    parts = ([f"the tile{'s' if len(what) > 1 else ''} at {', '.join(what)}"] if what else [])
    parts += ["the notes above"] if reading.notes else []
    parts += ["whether the photo shows a board (none was read)"] if not tiles else []
    return "to check: " + "; ".join(parts)


def report_lines(reading: Reading) -> list[str]:
    """The human-readable answer of ``triominos read``: picture, tiles, violations, flags."""
    b = reading.board
    part = f" ({len(b.partial)} read in part)" if b.partial else ""
    lines = [f"{reading.image}: {reading.width}x{reading.height}, {len(b)} tiles on the board"
             f"{part}, {len(reading.off_board)} off it; digits printed "
             f"{'top toward the centre' if reading.convention == 'inward' else 'top outward'}",
             *[f"note: {n}" for n in reading.notes], ""]
    lines += ["  " + s for s in board_text(b)]
    lines.append("")
    lines.append("tiles (cell: corner digits = tile):")
    for t in sorted(reading.tiles, key=lambda t: t.cell or ()):
        assert t.cell is not None
        ds = digits_text(t.corners)
        if t.complete:
            lines.append(f"  {cell_name(t.cell):>8}: {ds} = {t.tile}"
                         f"   (min confidence {min(t.confidence):.2f})")
        else:
            lines.append(f"  {cell_name(t.cell):>8}: {ds}   ({_why_partial(reading, t)})")
    if reading.off_board:
        lines.append("off the board:")
        for n, t in enumerate(reading.off_board):
            ds = digits_text(t.corners)
            what = str(t.tile) if t.tile else ds
            x, y = t.centroid_px
            note = f" [{'; '.join(t.flags)}]" if t.flags else ""
            lines.append(f"  #{n}: {what} at ({x:.0f}, {y:.0f}){note}")
    viol = reading.board_violations()
    lines.append(f"violations: {len(viol)}" if viol else "violations: none")
    lines += [f"  - {v.message}" for v in viol]
    flags = [(w, f) for w, f in reading.flags() if not w.startswith("off-board")]
    lines.append(f"flags: {len(flags)}" if flags else "flags: none")
    lines += [f"  - {w}: {f}" for w, f in flags]
    lines.append(check_line(reading))
    ms = reading.timing_ms
    lines.append("time: " + ", ".join(f"{k} {ms.get(k, 0):.0f} ms" for k in
                                      ("decode", "detect", "classify", "reconstruct", "total")))
    return lines
