"""Pictures of a Reading: the board as text for the terminal, and overlays on the photo."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import cv2
import numpy as np

from engine.board import Board, Status
from engine.lattice import Cell, Vertex, cell_corners

from .crops import crop_centres
from .reading import Reading, asks_look


def board_text(board: Board) -> list[str]:
    """The board as lines of text: digits at lattice vertices, tile edges as ``-`` ``/``
    ``\\``; a vertex where corners disagree is shown as ``*``, one where no digit was seen
    (a tile read only in part) as ``?``.

    Table "up" is up; each lattice row takes two lines.
    """
    if not len(board):
        return ["(empty board)"]
    verts = board.vertices()
    mi = min(2 * v[0] + v[1] for v in verts)
    jmax = max(v[1] for v in verts)

    def pos(v: Vertex) -> tuple[int, int]:
        return 2 * (jmax - v[1]), 2 * (2 * v[0] + v[1] - mi)

    rows = 2 * (jmax - min(v[1] for v in verts)) + 1
    cols = max(pos(v)[1] for v in verts) + 1
    grid = [[" "] * cols for _ in range(rows)]
    for cell in sorted(board.occupied()):
        a, b, c = cell_corners(cell)
        for p, q in ((a, b), (b, c), (c, a)):
            (r1, c1), (r2, c2) = pos(p), pos(q)
            if r1 == r2:
                for x in range(min(c1, c2) + 1, max(c1, c2)):
                    grid[r1][x] = "-"
            else:
                r, x = (r1 + r2) // 2, (c1 + c2) // 2
                up_right = (c2 - c1) * (r1 - r2) > 0
                grid[r][x] = "/" if up_right else "\\"
    for v in verts:
        ds = set(board.digits_at(v).values())
        r, c = pos(v)
        grid[r][c] = "?" if not ds else str(ds.pop()) if len(ds) == 1 else "*"
    return ["".join(row).rstrip() for row in grid]


#: a suggested placement to draw: (cell, digits in corner order, label[, live])
Ghost = tuple[Cell, Sequence[int | None], str] | tuple[Cell, Sequence[int | None], str, bool]


def _cells_of_violations(reading: Reading) -> set[Cell]:
    """The cells to draw red: those a violation names; for "the board is in pieces" (which
    names one cell of each piece) every tile of the pieces apart from the board's own, and
    none of that one."""
    bad: set[Cell] = set()
    parts: list[set[Cell | None]] | None = None
    for v in reading.board_violations():
        if not v.kind & Status.DISCONNECTED:
            bad.update(v.cells)
            continue
        if parts is None:
            parts = [{t.cell for t in part} for part in reading.pieces()]
        for c in v.cells:
            part = next((p for p in parts if c in p), {c})
            if part is not parts[0]:
                bad.update(x for x in part if x is not None)
    return bad


def _put_digit(img: np.ndarray, text: str, at: np.ndarray, scale: float,
               colour: tuple[int, int, int]) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    th = max(1, int(round(scale * 2)))
    (tw, tht), _ = cv2.getTextSize(text, font, scale, th)
    org = (int(at[0] - tw / 2), int(at[1] + tht / 2))
    cv2.putText(img, text, org, font, scale, (0, 0, 0), th + 2, cv2.LINE_AA)
    cv2.putText(img, text, org, font, scale, colour, th, cv2.LINE_AA)


def draw_overlay(image: np.ndarray, reading: Reading,
                 ghosts: Sequence[Ghost] = (),
                 max_side: int = 1600) -> np.ndarray:
    """The photo with the reading drawn on it (downscaled to ``max_side``).

    Board tiles in green, tiles in a violation in red, tiles whose flags ask for a look in
    yellow (:func:`vision.reading.asks_look`: ``read``'s "to check"), off-board tiles in
    blue; each digit is written where it was read. ``ghosts`` are suggested
    placements (cell, digits in corner order or None, label[, live]) drawn as translucent
    tiles; a ghost whose ``live`` is False (a dead hexagon opening) is only outlined in grey.
    """
    h, w = image.shape[:2]
    s = min(1.0, max_side / max(h, w))
    out = cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA) \
        if s < 1 else image.copy()
    bad = _cells_of_violations(reading)
    side = _median_side(reading)
    fs = max(0.35, side * s / 110)
    for tr, colour in _coloured(reading, bad):
        pts = tr.corner_px * s
        cv2.polylines(out, [np.round(pts * 4).astype(np.int32)], True, colour,
                      max(1, int(side * s / 60)), cv2.LINE_AA, 2)
        cen = crop_centres(tr.corner_px[None])
        for k, d in enumerate(tr.corners):
            _put_digit(out, "?" if d is None else str(d), cen[k] * s, fs, colour)
    if ghosts and reading.homography is not None:
        # live suggestions are filled magenta; dead ones (the tile is gone, no such tile,
        # neighbours disagree) only outlined in grey, so a player's eye goes to what is playable
        layer = out.copy()
        for g in ghosts:
            if _live(g):
                pts = reading.cell_px(g[0]) * s
                cv2.fillConvexPoly(layer, np.round(pts).astype(np.int32), GHOST, cv2.LINE_AA)
        out = cv2.addWeighted(layer, 0.35, out, 0.65, 0)
        for g in ghosts:
            cell, digits, label = g[0], g[1], g[2]
            colour = GHOST if _live(g) else DEAD
            px = reading.cell_px(cell)
            pts = px * s
            cv2.polylines(out, [np.round(pts).astype(np.int32)], True, colour,
                          1 if _live(g) else max(1, int(side * s / 60)), cv2.LINE_AA)
            cen = crop_centres(px[None])
            for k, d in enumerate(digits):
                if d is not None:
                    _put_digit(out, str(d), cen[k] * s, fs, colour)
            if label:
                _put_digit(out, label, pts.mean(axis=0), fs * 0.8,
                           (255, 255, 255) if _live(g) else DEAD)
    _put_notes(out, reading.notes)
    return out


def _put_notes(out: np.ndarray, notes: Sequence[str]) -> None:
    """Write the reading's notes (the photo as a whole, e.g. a board too blurred to read)
    in yellow on a dark band along the image's top edge, wrapped to its width, in place."""
    if not notes:
        return
    h, w = out.shape[:2]
    font, fs = cv2.FONT_HERSHEY_SIMPLEX, max(0.4, w / 1600)
    th = max(1, round(fs * 1.5))
    lines: list[str] = []
    for n in notes:
        line = "note:"
        for word in n.split():
            wider = f"{line} {word}"
            if cv2.getTextSize(wider, font, fs, th)[0][0] > w - 20:
                lines.append(line)
                wider = word
            line = wider
        lines.append(line)
    lh = cv2.getTextSize("Ag", font, fs, th)[0][1] * 1.8
    band = out[: min(h, int(lh * len(lines) + 10))]
    band[...] = (band * 0.35).astype(out.dtype)  # darkened: the text reads on any photo
    for i, line in enumerate(lines):
        cv2.putText(out, line, (10, int((i + 1) * lh)), font, fs, (0, 230, 255), th,
                    cv2.LINE_AA)


#: BGR colours of playable and dead ghost tiles
GHOST = (255, 0, 255)
DEAD = (170, 170, 170)


def _live(ghost: Sequence[object]) -> bool:
    """A ghost ``(cell, digits, label[, live])`` is live unless its 4th item says not."""
    return bool(ghost[3]) if len(ghost) > 3 else True


def _median_side(reading: Reading) -> float:
    ts = reading.tiles + reading.off_board
    if not ts:
        return 60.0
    return float(np.median([np.linalg.norm(t.corner_px[0] - t.corner_px[1]) for t in ts]))


def _coloured(reading: Reading, bad: set[Cell]) -> Iterable[tuple[object, tuple[int, int, int]]]:
    for t in reading.tiles:
        if t.cell in bad:
            yield t, (40, 40, 255)
        elif asks_look(t.flags):
            yield t, (0, 220, 255)
        else:
            yield t, (60, 220, 60)
    for t in reading.off_board:
        yield t, (255, 160, 40)

