"""Fit the board's homography to its tiles' digits, found as blobs, ring by ring.

Faces found by their edges fix the lattice where they lie; past them the homography fitted
to their vertices is extrapolated. When the photo shows few seams (white tiles on a white
table, a defocused photo) the board may be found by a handful of faces at one end, and
the lattice then lies a third of a side or more off the tiles at the other (dev
71000650: 6 faces of 23 tiles, the far cells up to 30 px off 70 px tiles). Every tile
shows three digits, each a compact blob darker (or lighter) than its face at a known
place of its cell, and a blob's centre stays put however blurred the photo. So the
lattice is carried outward: the cells next to those confirmed are matched to the digit
blobs nearest where their three digits should be (all three found, moved alike), and the
homography is fitted again to the faces' vertices and every matched digit, round after
round.
"""

from __future__ import annotations

import cv2
import numpy as np

from engine.lattice import Cell, Vertex, cell_corners, edge_neighbours, vertex_xy

from .config import ReaderConfig
from .crops import DIGIT_IN

#: a digit's centre, as the fraction of the way from its corner to the cell's centre
DIGIT_FRAC = DIGIT_IN * (np.sqrt(3.0) / 2) * np.sqrt(3.0)
#: blobs are found on a copy scaled so that a tile side is about this many px (or less)
_BLOB_SIDE = 48.0
#: blobs are first found this many tile sides around the faces' digits
_WINDOW = 2.5


def digit_spots(cells: list[Cell]) -> np.ndarray:
    """Where the three digits of each cell lie, in lattice (table) units: (N, 3, 2), in
    each cell's corner order."""
    if not cells:
        return np.zeros((0, 3, 2))
    return spots_of(np.array([[vertex_xy(v) for v in cell_corners(c)] for c in cells],
                             dtype=np.float64))


def spots_of(corners: np.ndarray) -> np.ndarray:
    """Where the three digits of triangles with ``corners`` (N, 3, 2, any units) lie:
    (N, 3, 2), in corner order."""
    return corners + DIGIT_FRAC * (corners.mean(axis=1, keepdims=True) - corners)


def project(h: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Points ``xy`` (N, 2) mapped by the homography ``h`` (3, 3): (N, 2)."""
    p = np.hstack([xy, np.ones((len(xy), 1))]) @ h.T
    return p[:, :2] / p[:, 2:3]


def digit_blobs(cfg: ReaderConfig, gray: np.ndarray, side: float, ref: np.ndarray,
                window: tuple[np.ndarray, np.ndarray] | None = None,
                polarity: int | None = None) -> np.ndarray:
    """Centres (M, 2) of digit-sized blobs in ``gray`` (tiles ``side`` px): the local
    maxima of a difference of Gaussians at a digit's scale, of the polarity (darker or
    lighter than around) that the reference digit spots ``ref`` (K, 2, px) show most
    often, and at least ``cfg.digit_blob_level`` of the strength they show there.

    ``window`` (its top-left and bottom-right corners, px; ``ref`` inside it over a side
    from its edges): only the blobs there, found on that part of the photo alone (faster;
    those over a side from its edges are the whole photo's). ``polarity``: 0 for dark
    blobs only, 1 for light ones only (None: as ``ref`` shows most often)."""
    if not len(ref):
        return np.zeros((0, 2))
    f = min(1.0, _BLOB_SIDE / side) if side > 0 else 1.0
    # (shrunk by half or less, a bilinear copy: the blur below takes out what it aliases)
    g = gray if f == 1.0 else cv2.resize(
        gray, None, fx=f, fy=f, interpolation=cv2.INTER_LINEAR if f >= 0.5 else cv2.INTER_AREA)
    off = np.zeros(2, dtype=int)
    if window is not None:
        off = np.maximum(np.floor(window[0] * f).astype(int), 0)
        end = np.minimum(np.ceil(window[1] * f).astype(int), (g.shape[1], g.shape[0]))
        g = g[off[1]:end[1], off[0]:end[0]]
    s = side * f
    fine = cv2.GaussianBlur(g, (0, 0), 0.05 * s).astype(np.int16)
    coarse = cv2.GaussianBlur(g, (0, 0), 0.12 * s).astype(np.int16)
    k = 2 * int(0.12 * s) + 1
    ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    best: tuple[int, np.ndarray] = (-1, np.zeros((0, 2)))
    reach = 0.1 * side
    lo, hi = ref.min(axis=0) - reach, ref.max(axis=0) + reach
    dogs = (coarse - fine, fine - coarse)  # dark digits, then light ones
    for dog in dogs if polarity is None else dogs[polarity:polarity + 1]:
        ys, xs = np.nonzero((dog >= cv2.dilate(dog, ker)) & (dog > cfg.digit_blob_min))
        pts = (np.stack([xs, ys], axis=1) + off).astype(np.float64) / f
        val = dog[ys, xs]
        at = ((pts >= lo) & (pts <= hi)).all(axis=1)
        if not at.any():
            continue
        d2 = _sq_dist(ref, pts[at])
        hit = d2.min(axis=1) < reach * reach
        if hit.sum() > best[0]:
            lvl = float(np.median(val[at][d2.argmin(axis=1)[hit]])) if hit.any() else 0.0
            keep = val >= cfg.digit_blob_level * lvl
            best = (int(hit.sum()), pts[keep])
    return best[1]


def _sq_dist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Squared distances (N, M) between points ``a`` (N, 2) and ``b`` (M, 2)."""
    return (a[:, None, 0] - b[None, :, 0]) ** 2 + (a[:, None, 1] - b[None, :, 1]) ** 2


def _match_cells(pred: np.ndarray, blobs: np.ndarray, gate: float, rigid: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Cells matched to digit blobs: for each cell's predicted digit spots ``pred``
    (N, 3, 2, px), the blob nearest each spot among ``blobs`` (M, 2) -> (N, 3, 2), and
    whether the cell is matched (N,) bool: every spot's blob within ``gate`` px and the
    three moved alike (each within ``rigid`` px of their mean move; else they are not
    one tile's digits: blobs of two tiles, or specks)."""
    d2 = _sq_dist(pred.reshape(-1, 2), blobs).reshape(len(pred), 3, len(blobs))
    j = d2.argmin(axis=2)
    near = np.take_along_axis(d2, j[..., None], axis=2)[..., 0] <= gate * gate
    at = blobs[j]
    shift = at - pred
    alike = np.linalg.norm(shift - shift.mean(axis=1, keepdims=True), axis=2).max(
        axis=1) <= rigid
    return near.all(axis=1) & alike, at


def refit_to_digit_blobs(cfg: ReaderConfig, h: np.ndarray, known: list[Cell],
                         anchors: tuple[np.ndarray, np.ndarray], gray: np.ndarray,
                         side: float) -> tuple[np.ndarray, list[Cell]] | None:
    """The homography ``h`` (lattice -> ``gray``'s px) fitted outward to the digits of
    the board's tiles (see the module's docstring).

    ``known``: the cells whose tiles were found (faces); ``anchors``: lattice points (P, 2)
    and their image positions (P, 2) that every fit keeps (the faces' vertices); ``side``:
    the tile side in px. Each round matches the cells next to those confirmed (at most
    ``cfg.digit_refit_rounds`` rounds): a cell is confirmed where a blob lies within
    ``cfg.digit_refit_gate`` x side of each of its three digit spots and the three are
    moved alike (within ``cfg.digit_refit_rigid`` x side). Returns the new homography and
    the cells confirmed past ``known``, or None when fewer than
    ``cfg.digit_refit_min_cells`` were.
    """
    if not known or side <= 0:
        return None
    ref = project(h, digit_spots(known).reshape(-1, 2))
    # the first rounds look only next to the faces: blobs are found around them first
    # (a board found whole by its faces is done there), on the whole photo when the
    # rounds reach out further
    box = (ref.min(axis=0) - _WINDOW * side, ref.max(axis=0) + _WINDOW * side)
    whole = bool((box[0] <= 0).all() and (box[1] >= (gray.shape[1], gray.shape[0])).all())
    blobs = digit_blobs(cfg, gray, side, ref, None if whole else box)
    if len(blobs) < 3:
        return None
    src0, dst0 = anchors
    confirmed: dict[Cell, np.ndarray] = {}
    tried: set[Cell] = set()
    todo = set(known)
    gate, rigid = cfg.digit_refit_gate * side, cfg.digit_refit_rigid * side
    for _ in range(cfg.digit_refit_rounds):
        cells = sorted(todo - tried)
        if not cells:
            break
        tried.update(cells)
        spots = digit_spots(cells)
        pred = project(h, spots.reshape(-1, 2)).reshape(len(cells), 3, 2)
        lo, hi = pred.reshape(-1, 2).min(axis=0) - gate, pred.reshape(-1, 2).max(axis=0) + gate
        if not whole and ((lo < box[0] + side).any() or (hi > box[1] - side).any()):
            blobs, whole = digit_blobs(cfg, gray, side, ref), True
        near = blobs[((blobs >= lo) & (blobs <= hi)).all(axis=1)]
        if not len(near):
            break
        ok, at = _match_cells(pred, near, gate, rigid)
        new = [c for c, m in zip(cells, ok, strict=True) if m]
        confirmed.update((c, at[i]) for i, c in enumerate(cells) if ok[i])
        if not new:
            break
        src = np.vstack([src0, *(digit_spots(list(confirmed)))])
        dst = np.vstack([dst0, *confirmed.values()])
        hn, _ = cv2.findHomography(src, dst, cv2.RANSAC, cfg.digit_refit_ransac * side)
        if hn is None or abs(np.linalg.det(hn)) < 1e-12:
            break
        h = hn
        todo = {n for c in new for n in edge_neighbours(c)}
    found = set(known)
    beyond = [c for c in confirmed if c not in found]
    if len(beyond) < cfg.digit_refit_min_cells:
        return None
    return h, beyond


def snap_to_digit_blobs(cfg: ReaderConfig, cells: list[Cell],
                        vertex_px: dict[Vertex, np.ndarray], gray: np.ndarray, side: float,
                        rounds: int) -> tuple[dict[Vertex, np.ndarray], int]:
    """A lattice's vertices moved onto its tiles' digits, cell by cell.

    ``vertex_px``: the image position (px of ``gray``) of every corner of ``cells``;
    ``side``: the tile side in px. Each round (``rounds`` of them), a cell whose three
    digit spots each have a digit blob within ``cfg.digit_refit_gate`` x side, the three
    moved alike (within ``cfg.digit_refit_rigid`` x side), is moved by their mean shift,
    and each vertex by the mean shift of the cells so moved that share it; the vertices of
    no such cell follow those moved, as one homography fitted to their moves (with
    ``cfg.silhouette_snap_follow``; else they stay). The digits' kind (darker or lighter
    than the face) is told by the grey levels inside the cells, most of them the face's: a
    lattice off its tiles by a tenth of a side cannot tell it by what lies at its digit
    spots.

    A lattice fitted to a board's outline is often a tenth of a side off its tiles: a dark
    tile's side faces, seen at a slant, widen the outline on one side, and a board placed
    by hand drifts; a single homography refitted to the digits cannot follow a drift, a
    move per cell does. Returns the moved vertices (a new dict) and how many cells were
    moved in the last round.
    """
    cells = [c for c in cells if all(v in vertex_px for v in cell_corners(c))]
    if not cells or side <= 0 or rounds <= 0:
        return dict(vertex_px), 0
    pc = np.array([[vertex_px[v] for v in cell_corners(c)] for c in cells])
    ref = pc.reshape(-1, 2)
    box = (ref.min(axis=0) - _WINDOW * side, ref.max(axis=0) + _WINDOW * side)
    blobs = digit_blobs(cfg, gray, side, ref, box, _digit_polarity(gray, pc))
    return _snap_rounds(cfg, cells, vertex_px, blobs, side, rounds)


def _digit_polarity(gray: np.ndarray, pc: np.ndarray) -> int:
    """0 where the digits are darker than the faces of the cells with image corners
    ``pc`` (N, 3, 2), 1 where lighter: the grey levels inside the cells are mostly the
    face's, with a tail toward the digits' tone."""
    mask = np.zeros(gray.shape[:2], np.uint8)
    cv2.fillPoly(mask, list(pc.round().astype(np.int32)), 1)
    lo, mid, hi = np.percentile(gray[mask > 0], (5, 50, 95)) if mask.any() else (0, 0, 0)
    return 0 if mid - lo >= hi - mid else 1


def _snap_rounds(cfg: ReaderConfig, cells: list[Cell], vertex_px: dict[Vertex, np.ndarray],
                 blobs: np.ndarray, side: float, rounds: int
                 ) -> tuple[dict[Vertex, np.ndarray], int]:
    """:func:`snap_to_digit_blobs` on digit blobs ``blobs`` (M, 2)."""
    out = dict(vertex_px)
    moved_n = 0
    gate, rigid = cfg.digit_refit_gate * side, cfg.digit_refit_rigid * side
    for _ in range(rounds if len(blobs) >= 3 else 0):
        pc = np.array([[out[v] for v in cell_corners(c)] for c in cells])
        pred = spots_of(pc)  # (N, 3, 2)
        ok, at = _match_cells(pred, blobs, gate, rigid)
        shift = at - pred
        moved_n = int(ok.sum())
        if not moved_n:
            break
        acc: dict[Vertex, list[np.ndarray]] = {}
        for c, s in zip([c for c, m in zip(cells, ok, strict=True) if m],
                        shift[ok].mean(axis=1), strict=True):
            for v in cell_corners(c):
                acc.setdefault(v, []).append(s)
        before = {v: out[v] for v in acc}
        for v, ss in acc.items():
            out[v] = out[v] + np.mean(ss, axis=0)
        rest = [v for v in out if v not in acc]
        if rest and len(acc) >= 4 and cfg.silhouette_snap_follow:
            # the vertices of no cell so moved follow those moved, as one homography
            src = np.array([before[v] for v in acc])
            hm, _ = cv2.findHomography(src, np.array([out[v] for v in acc]), 0)
            if hm is not None:
                for v, p in zip(rest, project(hm, np.array([out[v] for v in rest])),
                                strict=True):
                    out[v] = p
    return out, moved_n
