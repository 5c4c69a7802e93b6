"""Tiles off the board: which detected shapes are believable loose tiles.

The detector proposes every closed triangular region off the board; many are not tiles (a
table's printed triangles, the table's corner, an empty cell between board tiles, an
object's shadow). A shape that shows digits is a tile if it has a tile's size. A blank one
is claimed as a face-down tile only if, judged against the board:

* on the table plane (through the lattice homography) it is nearly equilateral with sides
  of about one lattice unit, whatever the camera's tilt;
* it is not an empty lattice cell next to the board (table showing through a notch);
* its colour is that of the board's tiles (backs are the tiles' own material);
* its outline is a real boundary: the photo changes across it (a tile's side face,
  shadow and material against the table), not a shape traced in the table's noise;
* it is not one of many copies: a cloth printed with triangles repeats one shape turned
  one way on the table plane, where face-down tiles lie turned every way.

A loose tile is also often found twice: its top face, and its whole silhouette (top face
plus the side faces an oblique camera sees); only one is kept.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from engine.lattice import Cell, cell_corners, edge_neighbours, vertex_xy

from .config import ReaderConfig
from .detect import clockwise, mean_side
from .reading import TileReading


def table_points(px: np.ndarray, homography: np.ndarray,
                 inverse: np.ndarray | None = None) -> np.ndarray:
    """Image points (N, 2) mapped onto the table plane, lattice units (N, 2).
    ``inverse``: the homography's inverse, where it is known (many tiles, one board)."""
    hinv = np.linalg.inv(homography) if inverse is None else inverse
    q = np.c_[np.asarray(px, np.float64), np.ones(len(px))] @ hinv.T
    return q[:, :2] / q[:, 2:3]


def table_sides(corner_px: np.ndarray, homography: np.ndarray,
                inverse: np.ndarray | None = None) -> np.ndarray:
    """Side lengths (3,) in lattice units of a triangle given in image pixels (3, 2)
    (``inverse``: see :func:`table_points`)."""
    q = table_points(corner_px, homography, inverse)
    return np.linalg.norm(q - q[[1, 2, 0]], axis=1)


def _cell_of(xy: np.ndarray) -> Cell:
    j = xy[1] / (np.sqrt(3) / 2)
    i = xy[0] - j / 2
    fi, fj = int(np.floor(i)), int(np.floor(j))
    return (fi, fj, "U" if (i - fi) + (j - fj) < 1 else "D")


def _sizes_ok(s: np.ndarray, lo: float, hi: float, ratio: float) -> bool:
    return bool(np.all(np.isfinite(s)) and s.min() > 0 and s.max() / s.min() <= ratio
                and lo <= s.mean() <= hi)


def is_empty_cell(cfg: ReaderConfig, corner_px: np.ndarray, homography: np.ndarray,
                  board: set[Cell], inverse: np.ndarray | None = None) -> bool:
    """True when the triangle coincides with an empty lattice cell next to the board
    (``inverse``: see :func:`table_points`)."""
    q = table_points(corner_px, homography, inverse)
    cell = _cell_of(q.mean(axis=0))
    if cell in board or not any(nb in board for nb in edge_neighbours(cell)):
        return False
    v = np.array([vertex_xy(x) for x in cell_corners(cell)])
    d = np.linalg.norm(q[:, None, :] - v[None, :, :], axis=2).min(axis=1)
    return bool(d.max() <= cfg.loose_cell_tol)


def _inner_colour(image: np.ndarray, corner_px: np.ndarray, shrink: float
                  ) -> np.ndarray | None:
    """CIE Lab colour (L 0-100) of the median BGR of the triangle shrunk toward its
    centroid (digits are a minority); only a subsample of its box is read (photos are
    large)."""
    c = corner_px.mean(axis=0)
    pts = np.round(c + (corner_px - c) * shrink).astype(np.int32)
    x0, y0 = np.maximum(pts.min(axis=0), 0)
    x1, y1 = np.minimum(pts.max(axis=0) + 1, [image.shape[1], image.shape[0]])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(m, pts - [x0, y0], 1)
    k = max(1, int(min(x1 - x0, y1 - y0)) // 24)  # ~24 samples across are plenty
    inside = image[y0:y1:k, x0:x1:k][m[::k, ::k] > 0]
    if len(inside) < 4:
        return None
    if inside.ndim == 1:  # a grey photo
        inside = np.repeat(inside[:, None], 3, axis=1)
    return lab(np.median(inside[:, :3], axis=0) / 255.0)


#: linear sRGB (R, G, B) -> XYZ, D65 white, XYZ scaled so that white is (1, 1, 1)
_RGB2XYZ = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                     [0.0193, 0.1192, 0.9505]]) / np.array([[0.95047], [1.0], [1.08883]])


def lab(bgr: np.ndarray) -> np.ndarray:
    """CIE Lab (L 0-100) of one sRGB colour given as BGR in 0-1 (3,). Computed here:
    OpenCV's converter spends ~100 ms building tables on a process's first call."""
    rgb = np.asarray(bgr, np.float64)[::-1]
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = _RGB2XYZ @ lin
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def _luminance(lightness: float) -> float:
    """Relative luminance Y (0-1) of CIE lightness L* (0-100): light and shade scale Y."""
    f = (lightness + 16) / 116
    return f ** 3 if f > 6 / 29 else 3 * (6 / 29) ** 2 * (f - 4 / 29)


def boundary_contrast(image: np.ndarray, corner_px: np.ndarray, side_px: float,
                      out: float = 0.08) -> float:
    """Median absolute grey-level step across the triangle's sides: each of 15 points per
    side compares the 3x3 mean brightness ``0.08 x side_px`` inside with that ``out x
    side_px`` outside."""
    px = np.asarray(corner_px, np.float64)
    c = px.mean(axis=0)
    t = np.linspace(0.15, 0.85, 15)[:, None]
    ins, outs = [], []
    for k in range(3):
        a, b = px[k], px[(k + 1) % 3]
        n = np.array([b[1] - a[1], a[0] - b[0]]) / max(float(np.linalg.norm(b - a)), 1e-9)
        if np.dot(n, (a + b) / 2 - c) < 0:
            n = -n  # outward
        p = a + (b - a) * t
        ins.append(p - n * 0.08 * side_px)
        outs.append(p + n * out * side_px)
    # Rounded first: a point at w - 1.4 rounds to w - 1, whose 3x3 window leaves the image.
    pi = np.round(np.concatenate(ins)).astype(int)
    po = np.round(np.concatenate(outs)).astype(int)
    h, w = image.shape[:2]
    lim = np.array([w - 2, h - 2])
    ok = ((pi >= 1) & (pi <= lim) & (po >= 1) & (po <= lim)).all(axis=1)
    if not ok.any():
        return 0.0

    def grey(p: np.ndarray) -> np.ndarray:
        # the 3x3 windows of all points in one gather (rows: the window's pixels in
        # order), each pixel's channels averaged, then summed in that order
        win = image[p[:, 1, None] + _DY, p[:, 0, None] + _DX]
        means = win.reshape(len(p), 9, -1).mean(axis=2)
        acc = np.zeros(len(p))
        for k in range(9):
            acc += means[:, k]
        return acc / 9.0

    return float(np.median(np.abs(grey(pi[ok]) - grey(po[ok]))))


#: the 3x3 window's offsets (dy, dx), row by row
_DY = np.repeat([-1, 0, 1], 3)[None, :]
_DX = np.tile([-1, 0, 1], 3)[None, :]


def shape_pose(pts: np.ndarray) -> tuple[np.ndarray, float, float]:
    """A triangle's pose (``pts`` (3, 2), in any plane's units): its centre (2,), mean
    side and turn in degrees, [0, 120) (a triangle turned 120 degrees is itself: the
    circular mean of its corners' directions from the centre, taken three times round)."""
    c = pts.mean(axis=0)
    z = np.exp(3j * np.arctan2(*(pts - c).T[::-1])).sum()
    return c, mean_side(pts), float(np.degrees(np.angle(z)) / 3 % 120)


def printed_copies(cfg: ReaderConfig, pose: tuple[np.ndarray, float, float],
                   others: Sequence[tuple[np.ndarray, float, float]],
                   near: float = 0.0) -> int:
    """How many of ``others`` (poses, :func:`shape_pose`, in the plane of ``pose``) are
    copies of the shape of ``pose``: of its size within ``cfg.loose_printed_size``
    (ratio), turned as it is within ``cfg.loose_printed_turn_deg`` and farther from it
    than ``cfg.loose_printed_apart`` sides (not one tile outlined twice: its top face and
    its silhouette). With ``near`` > 0, those alike lying between ``near`` and
    ``cfg.loose_printed_apart`` sides from it are counted instead (its neighbours in a
    row)."""
    return sum(alike_shape(cfg, pose, q, near) for q in others)


def alike_shape(cfg: ReaderConfig, pose: tuple[np.ndarray, float, float],
                other: tuple[np.ndarray, float, float], near: float = 0.0) -> bool:
    """Whether ``other`` (a pose, :func:`shape_pose`, in the plane of ``pose``) is a copy
    of the shape of ``pose`` as :func:`printed_copies` counts them (its size within
    ``cfg.loose_printed_size``, turned as it is within ``cfg.loose_printed_turn_deg``,
    farther than ``cfg.loose_printed_apart`` sides; with ``near`` > 0, between ``near``
    and ``cfg.loose_printed_apart`` sides instead)."""
    c, size, turn = pose
    c2, size2, turn2 = other
    lo, hi = (near, cfg.loose_printed_apart) if near > 0 else (cfg.loose_printed_apart,
                                                                 np.inf)
    return bool(lo * size < np.linalg.norm(c2 - c) <= hi * size
                and 1 / cfg.loose_printed_size <= size2 / size <= cfg.loose_printed_size
                and abs((turn2 - turn + 60) % 120 - 60) <= cfg.loose_printed_turn_deg)


def _outlined(cfg: ReaderConfig, image: np.ndarray, corner_px: np.ndarray,
              side_px: float) -> bool:
    """Whether a blank shape (``corner_px``, (3, 2) pixels of ``image``; sides about
    ``side_px``) shows a step to the table at its outline, or, traced round a tile's top
    face with the bevel just outside, a clear one ``cfg.loose_far_reach`` side out."""
    if boundary_contrast(image, corner_px, side_px) >= cfg.loose_min_contrast:
        return True
    return cfg.loose_far_reach > 0 and boundary_contrast(
        image, corner_px, side_px, cfg.loose_far_reach) >= cfg.loose_far_contrast


def prune_loose(cfg: ReaderConfig, image: np.ndarray, off: Sequence[TileReading],
                board: Sequence[TileReading], homography: np.ndarray | None,
                scale: float = 1.0) -> list[TileReading]:
    """The believable off-board tiles among ``off`` (original order kept).

    ``image`` is the BGR photo the corners refer to, at ``scale`` of its pixels (a shrunk
    copy: its pixel = original pixel x ``scale``), ``board`` the tiles on the board and
    ``homography`` the lattice -> pixel map. With no board, the loose tiles that show all
    three digits are the reference instead (sizes and colour judged in the image); with
    nothing showing digits, no blank shape is claimed as a tile.
    """
    on_table = homography is not None and len(board) > 0
    refs = list(board) if on_table else [t for t in off if t.complete]
    if not refs:
        return [t for t in off if t.shows_digit]
    cells = {t.cell for t in board if t.cell is not None}
    faces = [c for c in (_inner_colour(image, t.corner_px * scale, 0.5) for t in refs[:24])
             if c is not None]
    face = np.median(faces, axis=0) if faces else None
    face_y = max(_luminance(face[0]), 1e-6) if face is not None else 1.0
    side_px = float(np.median([np.linalg.norm(t.corner_px[0] - t.corner_px[1])
                               for t in refs]))
    lo, hi = cfg.loose_side_range
    keep: list[TileReading] = []
    hinv = np.linalg.inv(homography) if on_table else None  # type: ignore[arg-type]
    for t in off:
        if on_table:
            s = table_sides(t.corner_px, homography, hinv)  # type: ignore[arg-type]
            ratio = cfg.loose_max_side_ratio
        else:  # sides against the reference tiles', in the image (perspective: laxer)
            s = np.linalg.norm(t.corner_px - t.corner_px[[1, 2, 0]], axis=1) / side_px
            ratio = cfg.loose_max_side_ratio * 1.25
        if t.shows_digit:
            if _sizes_ok(s, lo, cfg.loose_digit_side_max, np.inf):
                keep.append(t)
            continue
        if not _sizes_ok(s, lo, hi, ratio):
            continue
        if on_table and is_empty_cell(cfg, t.corner_px, homography, cells,  # type: ignore[arg-type]
                                      hinv):
            continue
        px = t.corner_px * scale
        if not _outlined(cfg, image, px, side_px * scale):
            continue  # table noise
        col = _inner_colour(image, px, 0.5)
        if face is not None and col is not None:
            # lightness varies with the light across a table; hue and chroma much less
            d = np.abs(col - face)
            if d[0] > cfg.loose_lightness_tol or np.hypot(d[1], d[2]) > cfg.loose_chroma_tol:
                continue
            if cfg.loose_light_ratio > 0 and not (
                    1 / cfg.loose_light_ratio <= _luminance(col[0]) / face_y
                    <= cfg.loose_light_ratio):
                continue  # far darker or lighter than shade or light makes a face
        keep.append(t)
    if cfg.loose_printed_copies:
        keep = _unprinted(cfg, keep, homography if on_table else None, hinv)

    order = sorted(range(len(keep)), key=lambda n: (
        -sum(d is not None for d in keep[n].corners), _area(keep[n].corner_px)))
    chosen: list[int] = []
    for n in order:
        c = keep[n].corner_px.mean(axis=0)
        if all(np.linalg.norm(keep[m].corner_px.mean(axis=0) - c)
               >= cfg.loose_dedupe_frac * side_px for m in chosen):
            chosen.append(n)
    return [keep[n] for n in sorted(chosen)]


def _unprinted(cfg: ReaderConfig, kept: list[TileReading], homography: np.ndarray | None,
               hinv: np.ndarray | None) -> list[TileReading]:
    """``kept`` but the blank shapes printed on the table: those with
    ``cfg.loose_printed_copies`` or more copies (:func:`printed_copies`) among the other
    blank ones kept (each a tile's size, the tiles' colour and outlined: a printed motif
    repeats its colour too), judged on the table plane (``homography``, inverse ``hinv``;
    the image where None: there is no board). A shape with a neighbour alike beside it
    (closer than ``cfg.loose_printed_apart`` sides, farther than ``cfg.loose_dedupe_frac``:
    not itself outlined twice) stands in a row, as tiles in a rack do, all turned one way:
    it is neither judged printed nor counted as a copy (dev2 71000818: a rack of six)."""
    blank = [n for n, t in enumerate(kept) if not t.shows_digit]
    if len(blank) <= cfg.loose_printed_copies:
        return kept
    poses = [shape_pose(kept[n].corner_px if homography is None
                        else table_points(kept[n].corner_px, homography, hinv))
             for n in blank]
    lone = [(n, p) for k, (n, p) in enumerate(zip(blank, poses, strict=True))
            if not printed_copies(cfg, p, poses[:k] + poses[k + 1:], cfg.loose_dedupe_frac)]
    printed = {n for k, (n, p) in enumerate(lone)
               if printed_copies(cfg, p, [q for _, q in lone[:k] + lone[k + 1:]])
               >= cfg.loose_printed_copies}
    return [t for n, t in enumerate(kept) if n not in printed]


def _area(px: np.ndarray) -> float:
    """Area of the triangle ``px`` (3, 2), in its pixels squared."""
    a, b, c = px
    return abs(float((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))) / 2


def _face_colour(ycc: np.ndarray, faces: Sequence[np.ndarray], floor: Sequence[float],
                 spread: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The tiles' face colour in ``ycc`` (H, W, C; YCrCb or grey) read inside ``faces``
    (each (3, 2), shrunk toward its centre) and the tolerance (C,) around it.

    Lightness is the commonest level (its histogram's peak), not the median: the digits
    are a large minority of a face and sit far from it (light on dark tiles, dark on
    light ones). The chroma is the median of the pixels near that level; each channel's
    tolerance is ``spread`` robust deviations of those pixels, at least ``floor``."""
    h, w = ycc.shape[:2]
    inner = [np.round(px.mean(axis=0) + (px - px.mean(axis=0)) * 0.6).astype(np.int32)
             for px in faces]
    x0, y0_ = np.clip(np.min([p.min(axis=0) for p in inner], axis=0), 0, [w, h])
    x1, y1 = np.clip(np.max([p.max(axis=0) for p in inner], axis=0) + 1, 0, [w, h])
    if x1 <= x0 or y1 <= y0_:
        return None
    m = np.zeros((y1 - y0_, x1 - x0), np.uint8)  # the board's box alone (a big photo)
    for p in inner:
        cv2.fillConvexPoly(m, (p - [x0, y0_]).astype(np.int32), 1)
    box = ycc[y0_:y1, x0:x1]
    pix = box[m > 0].reshape(-1, ycc.shape[2] if ycc.ndim == 3 else 1).astype(np.float64)
    if len(pix) < 30:
        return None
    hist = np.bincount(np.clip(pix[:, 0], 0, 255).astype(np.int64), minlength=256)
    y0 = float(np.argmax(np.convolve(hist.astype(np.float64), np.ones(7) / 7, "same")))
    near = pix[np.abs(pix[:, 0] - y0) < 12]
    if len(near) < 20:
        return None
    mid = np.median(near, axis=0)
    mid[0] = y0
    sd = 1.4826 * np.median(np.abs(near - mid), axis=0)
    return mid, np.maximum(spread * sd, np.asarray(floor, np.float64)[: len(mid)])


def _expected_area(c: np.ndarray, homography: np.ndarray | None, hinv: np.ndarray | None,
                   scale: float, side: float) -> float:
    """Area (px of the copy at ``scale``) of a tile face centred at ``c`` there: a unit
    triangle of the table plane carried through ``homography`` (lattice -> original
    px), or of side ``side`` with no homography."""
    if homography is None or hinv is None:
        return float(np.sqrt(3) / 4 * side * side)
    q = table_points(c[None] / scale, homography, hinv)[0]
    tri = q + np.array([[0.0, 1 / np.sqrt(3)], [-0.5, -0.5 / np.sqrt(3)],
                        [0.5, -0.5 / np.sqrt(3)]])
    p = np.c_[tri, np.ones(3)] @ homography.T
    if np.any(p[:, 2] <= 1e-9):
        return float(np.sqrt(3) / 4 * side * side)
    return _area(p[:, :2] / p[:, 2:3] * scale)


def colour_faces(cfg: ReaderConfig, image: np.ndarray, faces: Sequence[np.ndarray],
                 taken: Sequence[np.ndarray], homography: np.ndarray | None,
                 scale: float) -> list[np.ndarray]:
    """Outlines of tile faces apart from the board found by the board tiles' colour.

    ``image`` is a BGR (or grey) copy of the photo at ``scale`` of its pixels; ``faces``
    the board tiles' corners (each (3, 2), that copy's px), whose colour is the tiles';
    ``taken`` the outlines already accounted for (board and off-board tiles), around which
    nothing is looked for; ``homography`` maps lattice units to original px (or None).
    A loose tile whose outline its edges do not show (a cream tile across a white check,
    a dark one on dark granite) is a region of that colour of one face's size and a
    triangle's shape. Returns, for each region, its outlines to try (V, 3, 2; clockwise,
    in the copy's px): its enclosing triangle, then that grown about its centre toward a
    face's size there where it is smaller (a region of the flat face alone); none cut by
    the photo's edge. Tiles only where the classifier reads digits on one of them: a
    blank region is no evidence.
    """
    if not faces:
        return []
    side = float(np.median([mean_side(px) for px in faces]))
    ycc = (cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb) if image.ndim == 3 else image[..., None])
    ycc = cv2.GaussianBlur(ycc, (0, 0), 1.0)
    if ycc.ndim == 2:
        ycc = ycc[..., None]
    got = _face_colour(ycc, faces, cfg.colour_loose_floor, cfg.colour_loose_spread)
    if got is None or side < 8:
        return []
    mid, tol = got
    away = np.zeros(ycc.shape[:2], np.uint8)
    for px in taken:
        cv2.fillConvexPoly(away, np.round(px).astype(np.int32), 1)
    grow = max(1, int(round(side * cfg.colour_loose_away)))
    away = cv2.dilate(away, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                      (2 * grow + 1, 2 * grow + 1)))
    hinv = np.linalg.inv(homography) if homography is not None else None
    out: list[np.ndarray] = []
    # the colour as the board's tiles show it, then with lightness far from it (the light falls
    # unevenly across a table: a tile in a shadow, or under the lamp, keeps its chroma)
    for light in dict.fromkeys([float(tol[0]), max(float(tol[0]), cfg.colour_loose_light_far)]):
        for tris in _colour_regions(cfg, ycc, mid, np.r_[light, tol[1:]], away, side,
                                    homography, hinv, scale):
            c = tris[0].mean(axis=0)
            if all(np.linalg.norm(o[0].mean(axis=0) - c) > side / 2 for o in out):
                out.append(tris)
    return out


def _colour_regions(cfg: ReaderConfig, ycc: np.ndarray, mid: np.ndarray, tol: np.ndarray,
                    away: np.ndarray, side: float, homography: np.ndarray | None,
                    hinv: np.ndarray | None, scale: float) -> list[np.ndarray]:
    """:func:`colour_faces`' outlines (V, 3, 2) of the regions of colour ``mid`` +- ``tol`` in
    ``ycc`` (H, W, C) outside the mask ``away``; ``side``: the board's side (px)."""
    lo_c = np.clip(np.ceil(mid - tol), 0, 255)
    hi_c = np.clip(np.floor(mid + tol), 0, 255)
    m = (cv2.inRange(ycc, lo_c, hi_c) > 0).astype(np.uint8)
    # digits are holes in a face: filled before the opening that cuts thin joins away
    outer, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(m, outer, -1, 1, -1)
    k = max(3, int(round(side * cfg.colour_loose_open)) | 1)
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    m[away > 0] = 0
    regions, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    h, w = m.shape
    lo, hi = cfg.colour_loose_area
    out: list[np.ndarray] = []
    for r in regions:
        x, y, bw, bh = cv2.boundingRect(r)
        if x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1:
            continue  # cut by the photo's edge: only what is visible is ever reported
        a = cv2.contourArea(r)
        c = r.reshape(-1, 2).mean(axis=0).astype(np.float64)
        want = _expected_area(c, homography, hinv, scale, side)
        if not lo * want <= a <= hi * want:
            continue
        hull = cv2.convexHull(r)
        t_area, tri = cv2.minEnclosingTriangle(hull.astype(np.float32))
        if t_area <= 0 or cv2.contourArea(hull) / t_area < cfg.colour_loose_fill:
            continue
        tri = clockwise(tri.reshape(3, 2).astype(np.float64))  # as every outline
        s = np.linalg.norm(tri - tri[[1, 2, 0]], axis=1)
        if s.max() > cfg.colour_loose_side_ratio * s.min():
            continue
        # a region of the flat face alone, short of its rounded corners and shaded rim,
        # is smaller than the tile: grown about its centre halfway and all the way to a
        # face's size there (a rack's standing tiles are smaller than the board's)
        grow = np.sqrt(want / t_area) if t_area < want / 1.1 else 1.0
        mc = tri.mean(axis=0)
        out.append(np.array([mc + (tri - mc) * g for g in dict.fromkeys(
            [1.0, float(np.sqrt(grow)), float(grow)])]))
    return out
