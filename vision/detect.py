"""Find tile faces in the detection image.

Tiles are found as closed regions bounded by edges: an edge map (gradient-based, so it
follows local contrast and survives glare, shadows and any tile/background colours) is
thickened a little at a few strengths, the regions it encloses are traced, and a region
whose convex hull fills its smallest enclosing triangle is a candidate top face. The seams
between joined tiles are edges too, so each tile of a board is its own region. Digits and
the pin are holes inside the region and do not matter.

Candidates of implausible size are dropped by agreement with the median size (all tiles are
equal on the table); the lattice stage decides which candidates form the board.
"""

from __future__ import annotations

import math
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from operator import itemgetter

import cv2
import numpy as np

from .config import ReaderConfig
from .spots import project


@dataclass
class Triangle:
    """A candidate tile face: ``pts`` (3, 2) float corners in detection pixels, clockwise on
    screen; ``fill`` how well the region fills its triangle (0-1)."""

    pts: np.ndarray
    fill: float
    _side: float | None = field(default=None, repr=False, compare=False)
    #: cut by the photo's edge: ``pts`` completed beyond it from the corner in view
    cut: bool = False
    #: ... from a corner whose side to the frame is short (``ReaderConfig.cut_short_side``):
    #: the part in view a strip along the far side; the centre of that part (2,), else None
    strip: np.ndarray | None = field(default=None, repr=False, compare=False)
    _centroid: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def centroid(self) -> np.ndarray:
        """Mean of the corners, (2,) (read-only: made once, as the side is)."""
        if self._centroid is None:
            c = self.pts.mean(axis=0)
            c.setflags(write=False)
            self._centroid = c
        return self._centroid

    @property
    def side(self) -> float:
        """Mean side length in pixels."""
        if self._side is None:
            d = self.pts - self.pts[[2, 0, 1]]
            self._side = float(np.sqrt((d * d).sum(axis=1)).mean())
        return self._side


def is_clockwise(pts: np.ndarray) -> bool:
    """Are the corners of triangle ``pts`` (3, 2) clockwise on screen (image y down)?"""
    a, b, c = pts
    return bool((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) > 0)


def clockwise(pts: np.ndarray) -> np.ndarray:
    """The same triangle with its corners in clockwise-on-screen order (image y down)."""
    return pts if is_clockwise(pts) else pts[[0, 2, 1]]


def side_lengths(pts: np.ndarray) -> tuple[float, float, float]:
    """The side lengths (px) of the triangle ``pts`` (3, 2): corner 0 to 1, 1 to 2, 2 to 0.

    Called tens of thousands of times a read: for float64 corners, in plain Python floats
    (a twentieth of numpy's time on three points), by the same operations numpy does, so
    the same numbers to the last bit; other dtypes through numpy, in their own precision.
    """
    if pts.dtype != np.float64 or pts.shape != (3, 2):
        d = np.linalg.norm(pts - pts[[1, 2, 0]], axis=1).tolist()
        return d[0], d[1], d[2]
    (x0, y0), (x1, y1), (x2, y2) = pts.tolist()
    dx0, dy0, dx1, dy1, dx2, dy2 = x0 - x1, y0 - y1, x1 - x2, y1 - y2, x2 - x0, y2 - y0
    return (math.sqrt(dx0 * dx0 + dy0 * dy0), math.sqrt(dx1 * dx1 + dy1 * dy1),
            math.sqrt(dx2 * dx2 + dy2 * dy2))


def mean_side(pts: np.ndarray) -> float:
    """Mean side length (px) of the triangle ``pts`` (3, 2)."""
    if pts.dtype != np.float64 or pts.shape != (3, 2):
        return float(np.linalg.norm(pts - pts[[1, 2, 0]], axis=1).mean())
    a, b, c = side_lengths(pts)
    return (a + b + c) / 3


def points_inside(ps: np.ndarray | Sequence[np.ndarray], poly: np.ndarray) -> list[int]:
    """Which of the points ``ps`` ((N, 2), or (2,) each) lie inside the polygon ``poly``
    (K, 2), edges included: their indices, in order. OpenCV's test, in single precision;
    only the points inside the polygon's box are put to it (a busy photo has hundreds of
    loose faces, a silhouette search hundreds of regions)."""
    if not len(ps):
        return []
    p32 = np.asarray(poly, np.float32)
    q = np.asarray(ps, np.float32)
    lo, hi = p32.min(axis=0), p32.max(axis=0)
    boxed = np.flatnonzero((q[:, 0] >= lo[0]) & (q[:, 0] <= hi[0])
                           & (q[:, 1] >= lo[1]) & (q[:, 1] <= hi[1]))
    c = p32.reshape(-1, 1, 2)
    return [int(k) for k in boxed
            if cv2.pointPolygonTest(c, (float(ps[k][0]), float(ps[k][1])), False) >= 0]


def expand_sides(pts: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Move every side of each triangle ``pts`` (N, 3, 2) outward by ``d`` (N,) pixels
    (undoes the edge thickening): corners pushed away from the incentre."""
    a, b, c = pts[:, 0], pts[:, 1], pts[:, 2]
    la = np.sqrt(((b - c) ** 2).sum(axis=1))
    lb = np.sqrt(((c - a) ** 2).sum(axis=1))
    lc = np.sqrt(((a - b) ** 2).sum(axis=1))
    per = la + lb + lc
    inc = (la[:, None] * a + lb[:, None] * b + lc[:, None] * c) / per[:, None]
    area = np.abs((b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1])
                  - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])) / 2
    r = 2 * area / per
    return inc[:, None, :] + (pts - inc[:, None, :]) * ((r + d) / r)[:, None, None]


def edge_map(cfg: ReaderConfig, gray: np.ndarray, seam_kernel: int | None = None
             ) -> np.ndarray:
    """Binary edge map (uint8 0/255) with thresholds set from the image's own noise.

    Most pixels of a photo are flat, so the median gradient measures the noise; edges must
    stand well above it (no fixed global level: dark, bright and noisy photos alike).
    ``seam_kernel``: the seam detector's black-hat kernel (px; None: ``cfg.seam_kernel``).
    """
    seam_kernel = cfg.seam_kernel if seam_kernel is None else seam_kernel
    noise = _noise_sigma(gray)
    sigma = cfg.edge_blur + cfg.edge_blur_per_noise * noise
    g = cv2.GaussianBlur(gray, (0, 0), sigma)
    med = median_gradient(g)
    hi = min(max(cfg.edge_hi_over_median * med, cfg.edge_hi_min), 200.0)
    edges = cv2.Canny(g, hi * 0.4, hi, L2gradient=True)
    if seam_kernel:
        # seams: thin lines darker than both sides (a black-hat), which a blurred or noisy
        # photo's gradients may miss between two light tiles
        gs = cv2.GaussianBlur(gray, (0, 0), 0.7)
        ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (seam_kernel,) * 2)
        bh = cv2.morphologyEx(gs, cv2.MORPH_BLACKHAT, ker)
        t = cfg.seam_over_noise * noise + cfg.seam_min
        # (the 8-bit threshold compares with floor(t): the same pixels as bh > t)
        line = cv2.threshold(bh, t, 255, cv2.THRESH_BINARY)[1]
        edges = cv2.bitwise_or(edges, cv2.ximgproc.thinning(line) if hasattr(cv2, "ximgproc")
                               else line)
    return edges


def median_gradient(g: np.ndarray) -> float:
    """Median Sobel gradient magnitude (3x3 kernel, grey levels) of ``g`` (H, W) uint8 over
    every third row and column (a subsample is plenty for a median).

    The value ``np.median`` of the magnitude (:func:`magnitude`) of the two
    ``cv2.Sobel(g, cv2.CV_32F, ..., ksize=3)`` images at ``[::3, ::3]`` gives (OpenCV's
    default border, reflect-101; the sums are small integers, exact either way), but
    only the subsampled pixels are worked out: whole float images took 9.5-10.9 ms
    against 3.0-3.3 ms on a 1344 x 1008 copy (ad-hoc), most of it writing memory.
    """
    h, w = g.shape
    p = cv2.copyMakeBorder(g, 1, 1, 1, 1, cv2.BORDER_REFLECT_101)
    nh, nw = len(range(0, h, 3)), len(range(0, w, 3))

    def at(dy: int, dx: int) -> np.ndarray:
        # the neighbour (dy, dx) of every third pixel; |sums| <= 1020, so int16 is plenty
        return p[1 + dy:1 + dy + 3 * nh:3, 1 + dx:1 + dx + 3 * nw:3].astype(np.int16)

    return float(np.median(magnitude(*sobel_from(at))))


def magnitude(gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """``sqrt(gx**2 + gy**2)`` elementwise (float32 arrays of one shape), each value
    rounded once, the same wherever the arrays lie in memory. ``cv2.magnitude`` is not:
    its vector code rounds differently from its scalar code, and which elements each
    takes depends on the arrays' addresses, so one photo read twice in a process could
    read differently (dev3 76000015: the median gradient 7.0710678 on one read, 7.0710683
    on the next, the two edge maps 37 pixels apart, a false tile found on one read and
    not the other)."""
    return np.sqrt(gx * gx + gy * gy)


def sobel_from(at: Callable[[int, int], np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The 3x3 Sobel gradients (x, y; float32, grey levels) of some pixels, from
    ``at(dy, dx)``: their neighbours ``dy`` rows down and ``dx`` columns across (integer
    arrays of one shape, signed and wide enough for sums of +-1020). The values
    ``cv2.Sobel(..., cv2.CV_32F, ..., ksize=3)`` gives at those pixels."""
    ul, ur, dl, dr = at(-1, -1), at(-1, 1), at(1, -1), at(1, 1)  # the four corners
    gx = (ur - ul + 2 * (at(0, 1) - at(0, -1)) + dr - dl).astype(np.float32)
    gy = (dl - ul + 2 * (at(1, 0) - at(-1, 0)) + dr - ur).astype(np.float32)
    return gx, gy


def _noise_sigma(gray: np.ndarray) -> float:
    """Standard deviation of pixel noise (Immerkaer's fast estimate), grey levels."""
    k = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
    r = cv2.filter2D(gray[::2, ::2].astype(np.float32), -1, k)
    h, w = r.shape
    return float(np.sqrt(np.pi / 2) * np.abs(r[1:-1, 1:-1]).sum() / (6 * (w - 2) * (h - 2)))


def edge_sharpness(gray: np.ndarray, reach: int = 12, step: float = 40.0,
                   per_direction: int = 30) -> tuple[float, int]:
    """How sharp a photo's sharpest edges are, whatever its noise: (the gradient (grey
    levels per px, after a 1 px Gaussian that quiets the noise) over the step the edge
    makes (the grey range within ``reach`` px), its 90th percentile over the edge pixels
    of each of four gradient directions (45 degrees wide) holding ``per_direction`` of
    them or more, the least of those (of all, where none does); how many edge pixels
    there were). An edge pixel: a local maximum of the gradient (3 x 3), at least half
    the largest within ``reach``, where the step is at least ``step`` grey levels. By
    direction, as motion blurs only the edges across its path. A step blurred by a
    Gaussian of ``s`` px rises at most 1 / (s sqrt(2 pi)) of its height per px (the 1 px
    Gaussian adds to ``s``): drawn steps measure about 0.3 sharp, 0.17 blurred by 2 px
    and 0.1 by 4 px, with noise or without. ``gray``: (H, W) uint8. The Laplacian's
    variance, the usual measure, reads a photo's noise as detail."""
    g = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    mag = magnitude(gx, gy) / 8.0
    box = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * reach + 1,) * 2)
    rise = cv2.dilate(g, box) - cv2.erode(g, box)
    # on an edge's crest: the steepest of its 3 x 3 and at least half the steepest within
    # reach (not the flat table beside an edge, nor the grain's crests there)
    at = ((mag >= cv2.dilate(mag, np.ones((3, 3), np.uint8))) & (rise >= step)
          & (mag >= 0.5 * cv2.dilate(mag, box)))
    n = int(at.sum())
    if not n:
        return 0.0, 0
    ratio = mag[at] / rise[at]
    turn = (np.degrees(np.arctan2(gy[at], gx[at])) + 22.5) % 180.0 // 45.0
    each = [float(np.quantile(ratio[turn == k], 0.9)) for k in range(4)
            if (turn == k).sum() >= per_direction]
    return (min(each) if each else float(np.quantile(ratio, 0.9))), n


def find_triangles(cfg: ReaderConfig, small: np.ndarray,
                   edges: np.ndarray | None = None) -> list[Triangle]:
    """Candidate tile faces in the detection image ``small`` (BGR or gray uint8).

    Returns triangles in detection pixels, clockwise on screen, duplicates merged, sizes
    consistent with the median candidate.
    """
    gray = small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    if edges is None:
        edges = edge_map(cfg, gray)
    min_area, max_side = _size_bounds(cfg, h, w)
    masks = _masks(cfg, gray, edges)
    if not masks:
        return []
    found: list[list[tuple[np.ndarray, float, float]]] = [[] for _ in masks]
    # Each mask is made and traced (long OpenCV calls that let go of the GIL) on a second
    # thread, the brightness one (the most regions) first, while this thread makes and
    # traces the first mask and then turns each traced mask's outlines into triangles:
    # many short calls that hold the GIL between them, which split between two threads
    # only waited on each other (two threads took as long as one).
    traced: queue.SimpleQueue[tuple[int, Traced | BaseException]] = queue.SimpleQueue()

    def trace_rest() -> None:
        for n in (len(masks) - 1, *range(1, len(masks) - 1)):
            try:
                traced.put((n, _trace(*masks[n]())))
            except BaseException as e:  # handed to the caller, raised there
                traced.put((n, e))
                return

    helper = threading.Thread(target=trace_rest, daemon=True) if len(masks) > 1 else None
    if helper is not None:
        helper.start()
    # the edge dilations' traces, kept for find_cut_faces (the same regions, traced once)
    by_k: dict[int, Traced] = {}
    try:
        first = _trace(*masks[0]())
        if cfg.dilations:
            by_k[cfg.dilations[0]] = first
        found[0] = _traced_triangles(cfg, first, min_area, max_side)
        for _ in range(len(masks) - 1):
            n, t = traced.get()
            if isinstance(t, BaseException):
                raise t
            if n < len(cfg.dilations):
                by_k[cfg.dilations[n]] = t
            found[n] = _traced_triangles(cfg, t, min_area, max_side)
    finally:
        if helper is not None:
            helper.join()
    _TRACED[:] = [(edges, by_k)]
    return _dedupe(cfg, _faces(cfg, [t for f in found for t in f], max_side))


#: the last edge map :func:`find_triangles` traced the dilations of, and those traces by
#: dilation (px): :func:`find_cut_faces` reuses them for that edge map
_TRACED: list[tuple[np.ndarray, dict[int, Traced]]] = []


def _masks(cfg: ReaderConfig, gray: np.ndarray, edges: np.ndarray
           ) -> list[Callable[[], tuple[np.ndarray, float]]]:
    """The masks :func:`find_triangles` traces, each made when called: (mask uint8 0/255,
    white where a face may be; the grow its faces get back), the edge dilations of
    ``cfg.dilations`` first, then the brightness masks of ``cfg.block_sizes``."""

    def dilated(k: int) -> tuple[np.ndarray, float]:
        ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
        return cv2.bitwise_not(cv2.dilate(edges, ker)), k + 0.5

    def bright(b: int) -> tuple[np.ndarray, float]:
        # faces brighter than their surroundings, cut apart by their (darker) seams: finds
        # joined light tiles whose seams are too faint for the gradient edges
        ker3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
        m = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                  cv2.THRESH_BINARY, b, -cfg.block_c)
        m = cv2.morphologyEx(cv2.bitwise_and(m, cv2.bitwise_not(edges)), cv2.MORPH_OPEN, ker3)
        return m, cfg.block_grow

    return [partial(dilated, k) for k in cfg.dilations] + [
        partial(bright, b) for b in cfg.block_sizes]


def _faces(cfg: ReaderConfig, found: list[tuple[np.ndarray, float, float]],
           max_side: float) -> list[Triangle]:
    """Traced triangles (triangle, fill, grow) of plausible shape as faces: clockwise on
    screen, grown back to the true outline (a negative grow: that fraction of the
    face's side)."""
    tris = [t for t, _, _ in found]
    fills = [x for _, x, _ in found]
    grows = [g for _, _, g in found]
    if not tris:
        return []
    # the triangles' geometry at once (per-triangle numpy calls cost more than the maths)
    pts = np.asarray(tris, np.float64)
    v1, v2 = pts[:, 1] - pts[:, 0], pts[:, 2] - pts[:, 0]
    ccw = v1[:, 0] * v2[:, 1] - v1[:, 1] * v2[:, 0] <= 0
    pts[ccw] = pts[ccw][:, [0, 2, 1]]  # clockwise on screen (image y down)
    d = pts - pts[:, [2, 0, 1]]
    sides = np.sqrt((d * d).sum(axis=2))
    lo, hi = sides.min(axis=1), sides.max(axis=1)
    ok = (lo >= cfg.min_side) & (hi <= max_side) & (hi <= cfg.max_side_ratio * lo)
    # the region stops k px (+ half the edge line) short of the true boundary
    keep = np.flatnonzero(ok)
    g = np.asarray(grows, np.float64)[keep]
    grown = expand_sides(pts[keep], np.where(g < 0, -g * sides[keep].mean(axis=1), g))
    dg = grown - grown[:, [2, 0, 1]]
    grown_side = np.sqrt((dg * dg).sum(axis=2)).mean(axis=1)
    return [Triangle(g, float(fills[n]), float(sd))
            for g, n, sd in zip(grown, keep, grown_side, strict=True)]


def rim_faces(cfg: ReaderConfig, gray: np.ndarray, edges: np.ndarray,
              found: list[Triangle]) -> list[Triangle]:
    """Faces of bevelled tiles, whose face is the table's grey and only their shaded
    bevels outline (onyx tiles on a dark cloth: the edges close few faces). Pixels darker
    than their ``cfg.rim_block`` px neighbourhood by ``cfg.rim_c`` grey levels are rim;
    a region they enclose, with no rim beyond it (:func:`_rimmed`), is a face, grown back
    by ``cfg.rim_grow_frac`` x its side. Returns only faces where none of ``found`` (the
    faces of :func:`find_triangles`, detection pixels of ``gray``) lies."""
    min_area, max_side = _size_bounds(cfg, *gray.shape)
    ker3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    m = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                              cv2.THRESH_BINARY_INV, cfg.rim_block, cfg.rim_c)
    m = cv2.bitwise_or(cv2.morphologyEx(m, cv2.MORPH_OPEN, ker3), edges)
    inv = cv2.morphologyEx(cv2.bitwise_not(m), cv2.MORPH_OPEN, ker3)
    traced = [f for f in _mask_triangles(cfg, inv, -cfg.rim_grow_frac, min_area, max_side)
              if _rimmed(cfg, inv, f[0])]
    # a face outlined by its own edges is the better outline
    return _not_found(_dedupe(cfg, _faces(cfg, traced, max_side)), found)


def _not_found(faces: list[Triangle], found: list[Triangle], alike: float = 0.0
               ) -> list[Triangle]:
    """The faces of ``faces`` where none of ``found`` lies (no centre within half a
    side); with ``alike`` above 1, only found faces within that ratio of a face's side
    count (a digit's hole traced inside a dark tile is no outline of that tile)."""
    if not found:
        return list(faces)
    cen = np.array([t.centroid for t in found])
    sides = np.array([t.side for t in found])
    out = []
    for t in faces:
        near = np.linalg.norm(cen - t.centroid, axis=1) < 0.5 * t.side
        if alike > 1.0:
            near &= (sides > t.side / alike) & (sides < t.side * alike)
        if not near.any():
            out.append(t)
    return out


def dark_faces(cfg: ReaderConfig, gray: np.ndarray, found: list[Triangle],
               seam_kernel: int | None = None
               ) -> tuple[list[Triangle], np.ndarray, np.ndarray]:
    """Faces of dark tiles, found on ``gray`` (the detection image) brightened by
    ``cfg.dark_gamma``: the seams between dark tiles differ by a few grey levels, which
    the gamma spreads apart. Returns the faces no lighter than ``cfg.dark_face_max`` grey
    levels where none of ``found`` (detection pixels) lies, the brightened image and its
    edge map (its seams found with the black-hat kernel ``seam_kernel`` px, None:
    ``cfg.seam_kernel``)."""
    lut = (255.0 * (np.arange(256) / 255.0) ** cfg.dark_gamma).round().astype(np.uint8)
    bright = cv2.LUT(gray, lut)
    edges = edge_map(cfg, bright, seam_kernel)
    dark = [t for t in find_triangles(cfg, bright, edges)
            if face_tone(gray, t.pts) <= cfg.dark_face_max]
    return _not_found(dark, found, cfg.dark_found_alike), bright, edges


def face_tone(gray: np.ndarray, pts: np.ndarray) -> float:
    """Median grey level of a face or cell (3, 2) of ``gray`` away from its digits and
    pin (three points halfway between the centre and each side's middle)."""
    c = pts.mean(axis=0)
    mids = (pts + pts[[1, 2, 0]]) / 2
    q = (c + 0.5 * (mids - c)).round().astype(int)
    h, w = gray.shape
    q[:, 0] = q[:, 0].clip(0, w - 1)
    q[:, 1] = q[:, 1].clip(0, h - 1)
    return float(np.median(gray[q[:, 1], q[:, 0]]))


def _size_bounds(cfg: ReaderConfig, h: int, w: int) -> tuple[float, float]:
    """The smallest area (px^2) and largest side (px) of a face traced in an ``h`` x ``w``
    detection image."""
    return cfg.min_side ** 2 * 0.433 * 0.5, cfg.max_side_frac * min(h, w)


def _rimmed(cfg: ReaderConfig, inv: np.ndarray, tri: np.ndarray) -> bool:
    """Is the region of the rim mask ``inv`` (white: not rim) whose triangle is ``tri``
    (3, 2) a face inside a thin rim? Beyond the rim, a quarter side out from each side's
    middle, lies a neighbour's face or the table, not more rim: the gaps between dark
    tiles (the tiles all rim) and light faces on a dark table are no such faces."""
    c = tri.mean(axis=0)
    mids = (tri + tri[[1, 2, 0]]) / 2
    side = mean_side(tri)
    out = mids + (mids - c) / np.linalg.norm(mids - c, axis=1, keepdims=True) * (
        cfg.rim_out_frac * side)
    h, w = inv.shape
    q = out.round().astype(int)
    ok = (q[:, 0] >= 0) & (q[:, 1] >= 0) & (q[:, 0] < w) & (q[:, 1] < h)
    if not ok.any():
        return False
    # a small box at each point: the digits of a neighbour's face are rim too
    r = max(1, int(0.06 * side))
    vals = [float(inv[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1].mean()) / 255
            for x, y in q[ok]]
    return float(np.median(vals)) >= 0.5


@dataclass
class Traced:
    """One mask's traced regions: ``contours`` and ``hierarchy`` of ``cv2.findContours``
    (``RETR_CCOMP``), the mask's ``shape`` (h, w) and the ``grow`` its faces get back."""

    contours: Sequence[np.ndarray]
    hierarchy: np.ndarray | None
    shape: tuple[int, int]
    grow: float


def _trace(inv: np.ndarray, grow: float) -> Traced:
    """Trace the white regions of the mask ``inv`` (uint8 0/255); their faces grow back by
    ``grow``."""
    # outer outlines of the white regions (holes such as digits are ignored)
    cs, hier = cv2.findContours(inv, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    return Traced(cs, hier, (int(inv.shape[0]), int(inv.shape[1])), grow)


def _mask_triangles(cfg: ReaderConfig, inv: np.ndarray, grow: float, min_area: float,
                    max_side: float) -> list[tuple[np.ndarray, float, float]]:
    """The white regions of one mask that fill their smallest enclosing triangle: each as
    (triangle (3, 2) float32, fill, ``grow``), in tracing order."""
    return _traced_triangles(cfg, _trace(inv, grow), min_area, max_side)


def _traced_triangles(cfg: ReaderConfig, t: Traced, min_area: float, max_side: float
                      ) -> list[tuple[np.ndarray, float, float]]:
    """The regions of a traced mask that fill their smallest enclosing triangle (see
    :func:`_mask_triangles`)."""
    h, w = t.shape
    cs, hier, grow = t.contours, t.hierarchy, t.grow
    out: list[tuple[np.ndarray, float, float]] = []
    if hier is None:
        return out
    for i in _boxed(cs, np.flatnonzero(hier[0][:, 3] == -1), cfg.min_side, max_side, w, h):
        hull = cv2.convexHull(cs[i])
        ha = cv2.contourArea(hull)
        if ha < min_area or ha > 0.25 * h * w:
            continue
        ta, tri = cv2.minEnclosingTriangle(hull.astype(np.float32))
        if tri is None or ta <= 0 or ha / ta < cfg.min_fill:
            continue
        out.append((tri.reshape(3, 2), ha / ta, grow))
    return out


def _boxed(cs: Sequence[np.ndarray], outer: np.ndarray, min_side: float, max_side: float,
           w: int, h: int) -> np.ndarray:
    """The contours of ``cs`` (indices ``outer``) of 3 points or more whose bounding box
    could hold a face (no side over 1.2 ``max_side``; at least half ``min_side`` wide and
    0.4 of it high) and does not touch the frame of a ``w`` x ``h`` image (a region cut
    by the photo's edge is no triangle). The boxes of all at once: a photo's masks trace
    thousands of specks, and a call per contour held the GIL the other mask's thread
    waits for."""
    if not len(outer):
        return outer
    lens = np.fromiter((len(cs[i]) for i in outer), np.int64, len(outer))
    outer, lens = outer[lens >= 3], lens[lens >= 3]
    if not len(outer):
        return outer
    lo, bw, bh = _bounds(cs, outer, lens)
    ok = ((np.maximum(bw, bh) <= max_side * 1.2) & (bw >= min_side * 0.5)
          & (bh >= min_side * 0.4)
          & (lo[:, 0] > 0) & (lo[:, 1] > 0) & (lo[:, 0] + bw < w) & (lo[:, 1] + bh < h))
    return outer[ok]


def _bounds(cs: Sequence[np.ndarray], idx: np.ndarray, lens: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The bounding boxes of the contours ``cs[idx]`` (``lens``: their point counts, none
    0), as ``cv2.boundingRect`` gives them: top-left corners (N, 2), widths and heights
    (N,), all at once."""
    got = itemgetter(*idx)(cs)
    pts = np.concatenate(got if len(idx) > 1 else [got]).reshape(-1, 2)
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
    lo = np.minimum.reduceat(pts, starts, axis=0)
    bw, bh = (np.maximum.reduceat(pts, starts, axis=0) - lo + 1).T
    return lo, bw, bh


def _dedupe(cfg: ReaderConfig, cands: list[Triangle]) -> list[Triangle]:
    """Merge detections of the same face (keep the best filled). Sizes are judged later,
    against the board (digits' holes and background shapes are triangles too)."""
    if not cands:
        return []
    cands.sort(key=lambda t: -t.fill)
    cen = np.array([t.pts for t in cands]).mean(axis=1)
    side = np.array([t.side for t in cands])
    kept_idx: list[int] = []
    # the kept faces' centres and sides, filled in as they are kept (not gathered anew for
    # each face: a photo's three masks give a thousand faces or more)
    kept_cen, kept_side = np.empty_like(cen), np.empty_like(side)
    for n in range(len(cands)):
        m = len(kept_idx)
        if m:
            sk = kept_side[:m]
            d = np.linalg.norm(kept_cen[:m] - cen[n], axis=1)
            ratio = side[n] / sk
            if np.any((d < cfg.dedupe_frac * np.minimum(sk, side[n]))
                      & (ratio > 0.7) & (ratio < 1.4)):
                continue
        kept_cen[m], kept_side[m] = cen[n], side[n]
        kept_idx.append(n)
    return [cands[n] for n in kept_idx]


def find_cut_faces(cfg: ReaderConfig, gray: np.ndarray, edges: np.ndarray, side: float,
                   homography: np.ndarray | None = None) -> list[Triangle]:
    """Tile faces cut by the photo's edge, in the detection image ``gray`` (with its edge
    map), for tiles of ``side`` px: a region bounded by edges that touches the frame and
    shows a corner of about 60 degrees between two straight sides that do not run along
    the frame is completed to the tile of that size from that corner (the rest lies beyond
    the photo). Kept only where the completed tile lies partly outside the photo and its
    part inside matches the region. Returns triangles (``cut`` set), clockwise on screen.

    ``homography`` (lattice units -> ``gray``'s px, the board's; with
    ``cfg.cut_on_table``): a region that shows no such corner on screen, or none whose
    tile it fills, is judged on the table plane too, the tile completed there at the size
    of the lattice's cells where it lies: a steep view bends a tile's 60-degree corner on
    screen and scales a tile off the board's size (dev 71000034: a loose 4-1-1 at the
    photo's foot, nearer the camera, 68 px a side against the board's 49; dev 71000208: a
    bevelled 2-5-0 filling 0.7 of the tile completed on screen).

    Only where no corner with both sides a quarter of a side long shows a tile, a corner
    whose side to the frame is shorter is taken (``cfg.cut_short_side``: the part in view
    a strip along the tile's far side; ``Triangle.strip``). The regions are those between
    the edges thickened by 1 px, then by ``cfg.cut_thick_edges`` px (a tile found there
    kept where none found before covers its centre).
    """
    h, w = gray.shape
    table = _TablePlane.of(homography, w, h) if cfg.cut_on_table else None
    out = _cut_faces_at(cfg, gray, edges, side, table, 1)
    if cfg.cut_thick_edges > 1:
        # the regions again between edges thickened more, where they show a tile none
        # found so far covers: a bevelled tile's top face and its side wall draw two
        # outlines, and a gap in the inner one joins the face to the table through the
        # channel between them (dev 71000230: a loose 2-2-5 at the photo's left edge)
        for t in _cut_faces_at(cfg, gray, edges, side, table, cfg.cut_thick_edges):
            taken = np.array([f.pts for f in out]).reshape(-1, 3, 2)
            if not in_tris(t.centroid, taken).any():
                out.append(t)
    return out


def in_tris(p: np.ndarray, tris: np.ndarray) -> np.ndarray:
    """Which of the triangles ``tris`` (K, 3, 2) contain point ``p`` (2,) (edges
    included): (K,); for N points ``p`` (N, 2) at once, (N, K)."""
    if not len(tris):
        return np.zeros(p.shape[:-1] + (0,), bool)
    a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]
    q = p[..., None, :]
    def cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]
    d1, d2, d3 = cross(b - a, q - a), cross(c - b, q - b), cross(a - c, q - c)
    neg = (d1 < 0) | (d2 < 0) | (d3 < 0)
    pos = (d1 > 0) | (d2 > 0) | (d3 > 0)
    return ~(neg & pos)


def _frame_regions(t: Traced, max_side: float) -> list[np.ndarray]:
    """The outer regions of the whole-image trace ``t`` that touch the photo's frame and
    whose bounding box is at most ``max_side`` px either way (as :func:`_cut_faces_at`
    finds them in its strips along the frame), in tracing order."""
    h, w = t.shape
    if t.hierarchy is None:
        return []
    cs = t.contours
    outer = np.flatnonzero(t.hierarchy[0][:, 3] == -1)
    if not len(outer):
        return []
    lo, bw, bh = _bounds(cs, outer, np.fromiter(map(len, cs), np.int64, len(cs))[outer])
    ok = (((lo[:, 0] <= 0) | (lo[:, 1] <= 0) | (lo[:, 0] + bw >= w) | (lo[:, 1] + bh >= h))
          & (np.maximum(bw, bh) <= max_side))
    return [cs[i] for i in outer[ok]]


def _cut_faces_at(cfg: ReaderConfig, gray: np.ndarray, edges: np.ndarray, side: float,
                  table: _TablePlane | None, k: int) -> list[Triangle]:
    """:func:`find_cut_faces` on the regions between the edges thickened by ``k`` px (for
    k above 1, from :func:`find_triangles`' trace of that edge map where it made one)."""
    h, w = gray.shape
    grow = k + 0.5
    last = _TRACED[0] if _TRACED else None  # taken once: another thread may replace it
    traced = last[1].get(k) if k > 1 and last is not None and last[0] is edges else None
    if traced is not None:
        return _cut_faces_of(cfg, _frame_regions(traced, 1.3 * side), w, h, side, table,
                             grow)
    ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    # such a region lies within 1.3 sides of the frame: only the four strips along it are
    # traced (a region reaching a strip's inner edge is too large, or the next strip's;
    # strips as wide as the lattice's cells along each edge, up to 1.8 sides on the 12 MP
    # sample, found no more tiles on the dev photos where the table plane found some, and
    # traced a wider part of the sample)
    b = int(np.ceil(1.4 * side)) + 2 * k + 2
    if 2 * b >= min(h, w):
        strips = [(0, 0, w, h)]
    else:
        # (the side strips run the full height: a region near a corner is whole in one;
        # one whole in two is kept once)
        strips = [(0, 0, w, b), (0, h - b, w, b), (0, 0, b, h), (w - b, 0, b, h)]
    contours: list[np.ndarray] = []
    boxes: list[tuple[int, int, int, int]] = []
    for x0, y0, sw, sh in strips:
        # each strip with a margin of k px, so the dilation sees its neighbours' edges
        xa, ya, xb, yb = max(x0 - k, 0), max(y0 - k, 0), min(x0 + sw + k, w), min(y0 + sh + k, h)
        inv = cv2.bitwise_not(cv2.dilate(edges[ya:yb, xa:xb], ker))
        cs, hier = cv2.findContours(inv, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE,
                                    offset=(xa, ya))
        if hier is None:
            continue
        for i in np.flatnonzero(hier[0][:, 3] == -1):
            x, y, bw, bh = cv2.boundingRect(cs[i])
            if not (x <= 0 or y <= 0 or x + bw >= w or y + bh >= h) or max(bw, bh) > 1.3 * side:
                continue  # whole faces are found by find_triangles; or far too large
            # touching a strip's inner edge: cut by the strip, not by the photo
            if ((x <= xa and xa > 0) or (y <= ya and ya > 0) or (x + bw >= xb and xb < w)
                    or (y + bh >= yb and yb < h)):
                continue
            if any(abs(x - p[0]) <= 2 and abs(y - p[1]) <= 2 and abs(bw - p[2]) <= 2
                   and abs(bh - p[3]) <= 2 for p in boxes):
                continue
            boxes.append((x, y, bw, bh))
            contours.append(cs[i])
    return _cut_faces_of(cfg, contours, w, h, side, table, grow)


def _cut_faces_of(cfg: ReaderConfig, contours: list[np.ndarray], w: int, h: int,
                  side: float, table: _TablePlane | None, grow: float) -> list[Triangle]:
    """The tiles that the frame-touching regions ``contours`` of a ``w`` x ``h`` image
    show part of (see :func:`find_cut_faces`; ``grow``: how far short of its outline a
    region stops, px)."""
    out: list[Triangle] = []
    frame = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    inner = side - 2 * np.sqrt(3) * grow  # the region stops ``grow`` px short of each side
    m = 2.5

    def on_frame(p: np.ndarray) -> bool:
        return bool(p[0] <= m or p[1] <= m or p[0] >= w - 1 - m or p[1] >= h - 1 - m)

    hulls = [cv2.convexHull(c) for c in contours]
    # the lattice's cell size where each region lies (all at once: per region, the numpy
    # calls' overhead was most of this function's time on the 12 MP sample)
    here = (table.local_side(np.array([hl.reshape(-1, 2).mean(axis=0) for hl in hulls],
                                      np.float64))
            if table is not None and hulls else np.zeros(0))
    planes = (None, table) if table is not None else (None,)
    # corners with both sides a quarter of a side long or more first, on both planes; only
    # where none shows a tile, corners with a side cut short by the frame
    shorts = (0.0, cfg.cut_short_side) if cfg.cut_short_side > 0 else (0.0,)
    for n, hull in enumerate(hulls):
        ha = cv2.contourArea(hull)
        found = False
        for short in shorts:
            # on screen first; where that shows no corner, or none whose tile the region
            # fills, on the table plane at the lattice's size there (within reason: far
            # past the board the homography is a poor guide)
            for plane in planes:
                s_here = side if plane is None else float(here[n])
                if not (np.isfinite(s_here) and 0.4 * side <= s_here <= 2.5 * side):
                    continue
                tri = _cut_tile(cfg, hull, ha, s_here, inner / side, on_frame, plane, short)
                if tri is None:
                    continue
                tri = expand_sides(tri[None], np.array([grow]))[0]
                if all(0 <= q[0] <= w - 1 and 0 <= q[1] <= h - 1 for q in tri):
                    continue  # in full view: not cut (find_triangles judges such shapes)
                seen_area, seen = cv2.intersectConvexConvex(tri.astype(np.float32), frame)
                if seen_area > 0 and 0.75 <= ha / seen_area <= 1.15:
                    strip = seen.reshape(-1, 2).mean(axis=0) if short > 0 else None
                    out.append(Triangle(clockwise(tri), float(ha / seen_area), cut=True,
                                        strip=strip))
                    found = True
                    break
                # (else the region is not this tile's part in view)
            if found:
                break
    return out


@dataclass
class _TablePlane:
    """The board's homography, for judging shapes on the table plane
    (:func:`find_cut_faces`): ``h`` lattice units -> image px, ``hinv`` its inverse."""

    h: np.ndarray
    hinv: np.ndarray

    @classmethod
    def of(cls, h: np.ndarray | None, w: int, ht: int) -> _TablePlane | None:
        """The plane of ``h`` for a ``w`` x ``ht`` px image; None without a homography,
        with one that cannot be inverted, or with the horizon in the image (cells past it
        are turned over)."""
        if h is None:
            return None
        try:
            hinv = np.linalg.inv(h)
        except np.linalg.LinAlgError:
            return None
        # (the plane's w is affine in px: one sign at the image's corners, one throughout)
        corners = np.array([[0.0, 0.0], [w - 1.0, 0.0], [w - 1.0, ht - 1.0], [0.0, ht - 1.0]])
        z = corners @ hinv[2, :2] + hinv[2, 2]
        if not (np.all(z > 0) or np.all(z < 0)):
            return None
        return cls(h, hinv)

    def to_table(self, px: np.ndarray) -> np.ndarray:
        """Image points (N, 2) on the table plane, lattice units (N, 2)."""
        return project(self.hinv, px)

    def to_image(self, xy: np.ndarray) -> np.ndarray:
        """Table points (N, 2, lattice units) in the image, px (N, 2)."""
        return project(self.h, xy)

    def local_side(self, px: np.ndarray) -> np.ndarray:
        """The side (px) of a lattice-unit triangle at each image point of ``px`` (N, 2)."""
        t = self.to_table(px)
        tri = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, np.sqrt(3) / 2]]) - [0.5, np.sqrt(3) / 6]
        pts = self.to_image((t[:, None, :] + tri[None]).reshape(-1, 2)).reshape(-1, 3, 2)
        return np.linalg.norm(pts - pts[:, [1, 2, 0]], axis=2).mean(axis=1)


def _cut_tile(cfg: ReaderConfig, hull: np.ndarray, ha: float, side: float,
              inner_frac: float, on_frame: Callable[[np.ndarray], bool],
              table: _TablePlane | None, short: float = 0.0) -> np.ndarray | None:
    """The tile (3, 2) px, not yet grown back out, that a frame-touching region (convex
    ``hull``, its area ``ha``) shows a corner of (see :func:`find_cut_faces`): for tiles of
    ``side`` px where the region lies (``inner_frac`` of it: the region's side, short of
    the tile's), its corner's angle and sides measured on screen, or, with ``table``, on
    the table plane; None where it shows none. ``short`` above 0: a corner's side that
    runs to the frame may be as short as that (x side) where its other side is at least
    ``cfg.cut_short_long`` x side (the tile's part in view a strip along its far side);
    else each side is a quarter of a side or more."""
    full = side * side * np.sqrt(3) / 4
    inner = inner_frac * side
    if not 0.12 * full <= ha <= 0.95 * full:
        return None
    poly = cv2.approxPolyDP(hull, 0.04 * side, True).reshape(-1, 2).astype(np.float64)
    if len(poly) < 3:
        return None
    best: tuple[float, np.ndarray] | None = None
    # a corner shown by one vertex; only where none is, one rounded off
    for rounded in (False, True) if cfg.cut_round_corner > 0 else (False,):
        for p, a, b in _cut_corners(poly, side, on_frame, cfg.cut_round_corner
                                    if rounded else 0.0, short):
            if table is None:
                ua, ub, unit = a - p, b - p, side
            else:
                tp, ta, tb = table.to_table(np.array([p, a, b]))
                ua, ub, unit = ta - tp, tb - tp, 1.0
            la, lb = np.linalg.norm(ua), np.linalg.norm(ub)
            if max(la, lb) > 1.15 * unit:
                continue
            # a side under a quarter of a side: only one cut short by the frame (its far
            # end on the frame), beside a long one
            if min(la, lb) < 0.25 * unit and not (
                    short > 0 and min(la, lb) >= short * unit
                    and max(la, lb) >= cfg.cut_short_long * unit
                    and on_frame(a if la < lb else b)):
                continue
            ang = np.degrees(np.arccos(np.clip(ua @ ub / (la * lb), -1, 1)))
            if abs(ang - 60) > 10:
                continue
            # the tile's sides from this corner, of the tile's length, grown back out
            if table is None:
                tri = np.array([p, p + inner * ua / la, p + inner * ub / lb])
            else:
                tri = np.vstack([p[None], table.to_image(np.array(
                    [tp + inner_frac * ua / la, tp + inner_frac * ub / lb]))])
            if best is None or abs(ang - 60) < best[0]:
                best = (abs(ang - 60), tri)
        if best is not None:
            break
    return None if best is None else best[1]


def _cut_corners(poly: np.ndarray, side: float, on_frame: Callable[[np.ndarray], bool],
                 rounded: float = 0.0, short: float = 0.0
                 ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The corners a region's outline ``poly`` (n, 2) may show, each as (corner, far end of
    one side, far end of the other), for tiles of ``side`` px: with ``rounded`` 0, every
    vertex not on the frame (``on_frame``); above 0, each corner rounded off instead: two
    sides at least a quarter of a side long, not along the frame, joined by short edges
    of at most ``rounded`` x ``side`` in all, met where their lines meet (a rounded
    corner shows as two vertices of ~120 degrees, no single one of 60). ``short`` above
    0: one of the two may be a side from or to the frame (one end on it) at least
    ``short`` x ``side`` long."""
    n = len(poly)
    if rounded <= 0:
        return [(poly[j], poly[j - 1], poly[(j + 1) % n]) for j in range(n)
                if not on_frame(poly[j])]
    out: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    if n < 4:
        return out
    seg = [(poly[j], poly[(j + 1) % n]) for j in range(n)]
    length = [float(np.linalg.norm(b - a)) for a, b in seg]
    framed = [on_frame(a) and on_frame(b) for a, b in seg]
    long_ = [length[j] >= 0.25 * side and not framed[j] for j in range(n)]
    # sides cut short by the frame: from it (the first side of a corner) or to it (the
    # second), walking the outline in order
    cut = [short > 0 and not long_[j] and not framed[j] and length[j] >= short * side
           for j in range(n)]
    from_frame = [cut[j] and on_frame(seg[j][0]) for j in range(n)]
    to_frame = [cut[j] and on_frame(seg[j][1]) for j in range(n)]
    for j in range(n):
        if not (long_[j] or from_frame[j]):
            continue
        # the short edges after side j, up to the next long side (or one to the frame)
        edges, m = 0.0, (j + 1) % n
        while not long_[m] and not to_frame[m] and not framed[m] and m != j:
            edges += length[m]
            m = (m + 1) % n
        if m == j or m == (j + 1) % n or framed[m] or edges > rounded * side:
            continue
        if not (long_[j] or long_[m]):
            continue  # two sides cut short: no corner to go by
        (a0, a1), (b0, b1) = seg[j], seg[m]
        da, db = a1 - a0, b1 - b0
        den = da[0] * db[1] - da[1] * db[0]
        if abs(den) < 1e-9:
            continue
        t = ((b0[0] - a0[0]) * db[1] - (b0[1] - a0[1]) * db[0]) / den
        p = a0 + t * da
        if not on_frame(p):
            out.append((p, a0, b1))
    return out
