"""Find a board whose seams the photo does not show, from its silhouette.

A board of dark tiles on dark seams, a defocused photo or a busy cloth can hide every seam:
the edge detector then sees the board as one region and finds no tile. The board's
outline still shows: it is a polyiamond, whose sides run along only three directions and
lie on the lines of the lattice. This module takes regions of even tone (thresholds of the
grey image at several levels, holes such as digits filled), keeps those whose outline runs
along three directions, and fits the lattice to the outline: the directions give the
lattice's shape, the spacing of the parallel sides its size and offset, and a homography
fitted to the outline points (each on its nearest lattice line) follows perspective; each
vertex is then moved by the shift the outline near it asks for (a hand-placed board
drifts). A fit is kept only when the tiles' digits sit where the lattice says they should
(at the three digit spots of a cell the grey level departs from the face's tone, at three
plain spots between them it does not).

The cells inside the region are proposed to the classifier as tiles whose outline was
inferred from the lattice (never taken as detected); :func:`vision.fit.fit_lattice` uses
this when the edges found no board or a poor one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import NamedTuple, TypeVar

import cv2
import numpy as np

from engine.lattice import Cell, Vertex, cell_corners, edge_neighbours, vertex_xy

from .config import ReaderConfig
from .detect import Triangle, points_inside
from .spots import project as _project

SQ3 = float(np.sqrt(3.0))


@dataclass
class BoardGuess:
    """A lattice fitted to a region's outline: ``homography`` maps lattice ``(x, y, 1)``
    (table units) to detection pixels, ``cells`` lie inside the region (mostly), ``edge``
    cells are partly inside; ``score`` is the digit-pattern evidence, ``side`` the mean
    tile side in pixels."""

    homography: np.ndarray
    cells: list[Cell]
    edge: list[Cell]
    score: float
    side: float
    #: positions of the cells' vertices, corrected locally for a board that drifts
    vertex_px: dict[Vertex, np.ndarray] = field(default_factory=dict)


def _regions(cfg: ReaderConfig, g: np.ndarray, close: int = 3) -> list[np.ndarray]:
    """Outlines (N, 2) of the regions of even tone at a few grey levels, both darker and
    lighter than the level, holes filled, gaps closed (a ``close`` px kernel) and thin
    attachments (table veins) opened off."""
    levels = np.percentile(g[::4, ::4], cfg.silhouette_levels)
    masks = (((g < t) if dark else (g > t)) for t in levels for dark in (True, False))
    return _outlines(cfg, masks, g.shape, close)


def _local_regions(cfg: ReaderConfig, g: np.ndarray, close: int = 3) -> list[np.ndarray]:
    """Outlines of the regions darker, and lighter, by ``cfg.silhouette_local_c`` grey
    levels than the mean around them (over each fraction ``cfg.silhouette_local`` of the
    longest side), as :func:`_regions` makes them: under uneven light no one grey level
    parts a board from the table (a lamp's patch of a dark cloth around black tiles as
    light as their tops, the rest as dark as them)."""
    masks = []
    for f in cfg.silhouette_local:
        block = 2 * int(f * max(g.shape) / 2) + 1
        for kind, c in ((cv2.THRESH_BINARY_INV, cfg.silhouette_local_c),
                        (cv2.THRESH_BINARY, -cfg.silhouette_local_c)):
            masks.append(cv2.adaptiveThreshold(g, 255, cv2.ADAPTIVE_THRESH_MEAN_C, kind, block,
                                               c) > 0)
    return _outlines(cfg, masks, g.shape, close)


def _colour_regions(cfg: ReaderConfig, bgr: np.ndarray) -> list[np.ndarray]:
    """Outlines of the regions of even colour: regions of the photo's two colour channels
    (CIE Lab a and b, smoothed: a JPEG keeps colour at half resolution, in blocks) beyond
    a few levels at both ends (``cfg.silhouette_colour_levels``). Grey tiles on a coloured
    cloth whose light squares have the tiles' grey level, or on a table of their lightness,
    differ from it in colour; their digits, if coloured, lie further the same way."""
    lab = _lab(bgr, cfg.silhouette_colour_blur)
    masks = []
    for c in (1, 2):
        ch = lab[:, :, c]
        for p in cfg.silhouette_colour_levels:
            t = float(np.percentile(ch[::4, ::4], p))
            masks.append(ch < t if p < 50 else ch > t)
    return _outlines(cfg, masks, bgr.shape[:2])


def _lab(bgr: np.ndarray, blur: float) -> np.ndarray:
    """The BGR photo (H, W, 3) uint8 as CIE Lab (H, W, 3) float32 (L 0-100, a and b about
    -127..127) after a Gaussian blur of sigma ``blur`` px."""
    f = cv2.GaussianBlur(bgr, (0, 0), blur).astype(np.float32) / 255
    return cv2.cvtColor(f, cv2.COLOR_BGR2Lab)


def _colour_split(bgr: np.ndarray, blur: float) -> list[np.ndarray]:
    """Masks (H, W) bool of each colour channel (CIE Lab a, b; Gaussian blur of ``blur``
    px) below and above the level that best parts its two tones (Otsu's): where the
    table's colour fills half the photo, a level midway between the tiles' and the
    table's traces the tiles' edge, while one at a percentile near either end lies within
    the tiles' own tone and traces it shrunk and rounded."""
    lab = _lab(bgr, blur)
    masks = []
    for c in (1, 2):
        ch = lab[:, :, c]
        lo, hi = np.percentile(ch[::4, ::4], (1, 99))
        if hi - lo < 1e-3:
            continue
        u = np.clip((ch - lo) * (255 / (hi - lo)), 0, 255).astype(np.uint8)
        t, _ = cv2.threshold(np.ascontiguousarray(u[::2, ::2]), 0, 255,
                             cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        masks += [u < t, u > t]
    return masks


def _outlines(cfg: ReaderConfig, masks: Iterable[np.ndarray], shape: tuple[int, ...],
              close: int = 3) -> list[np.ndarray]:
    """Outer outlines of the regions of the boolean ``masks`` (holes filled, gaps closed
    by a ``close`` px kernel, thin attachments opened off), of plausible board size, each
    region once; with ``cfg.silhouette_nested`` also those of regions lying in another
    region's hole."""
    h, w = shape[:2]
    min_area = cfg.silhouette_min_cells * (cfg.min_side ** 2) * 0.433
    ker_c = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (close, close))
    ker_o = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    todo = list(masks)
    traced: list[Sequence[np.ndarray]] = [()] * len(todo)

    def trace(idx: range) -> None:
        for i in idx:
            m = todo[i].astype(np.uint8) * 255
            m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, ker_c)
            m = cv2.morphologyEx(m, cv2.MORPH_OPEN, ker_o)
            if not cfg.silhouette_nested:
                traced[i] = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0]
                continue
            # every region's outer outline, also of a region lying in another's hole (dark
            # tiles on a light cloth spread on a dark table: the table's region holds the
            # cloth as a hole, the board inside it; onyx dev3 76000087)
            cs, tree = cv2.findContours(m, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
            traced[i] = [] if tree is None else [
                c for c, t in zip(cs, tree[0], strict=True) if t[3] < 0]

    # every other mask on a second thread (OpenCV lets go of the GIL while it works); the
    # regions are then taken in the masks' order, as one loop would
    helper = threading.Thread(target=trace, args=(range(1, len(todo), 2),))
    helper.start()
    trace(range(0, len(todo), 2))
    helper.join()
    out: list[np.ndarray] = []
    # the boxes (x, y, w, h, area) kept so far, by (x, y) in 4 px bins: a box within 4 px
    # of another lies in its bin or a bin beside it (a photo's masks trace thousands of
    # regions, and a test against every kept one grew with their square)
    kept: dict[tuple[int, int], list[tuple[float, ...]]] = {}
    for cs in traced:
        for c in cs:
            if len(c) < 40:
                continue
            a = cv2.contourArea(c)
            if a < min_area or a > cfg.silhouette_max_area * h * w:
                continue
            x, y, bw, bh = cv2.boundingRect(c)
            # the same region seen at the next level: keep one
            bx, by = x // 4, y // 4
            if any(abs(x - k[0]) < 4 and abs(y - k[1]) < 4 and abs(bw - k[2]) < 6
                   and abs(bh - k[3]) < 6 and abs(a - k[4]) < 0.05 * a
                   for i in (bx - 1, bx, bx + 1) for j in (by - 1, by, by + 1)
                   for k in kept.get((i, j), ())):
                continue
            kept.setdefault((bx, by), []).append((x, y, bw, bh, a))
            out.append(c.reshape(-1, 2).astype(np.float64))
    return out


def _directions(pts: np.ndarray, step: int) -> tuple[np.ndarray, np.ndarray]:
    """Tangent angle (radians, mod pi) at each outline point and whether the outline is
    straight there (the angle agrees over both halves of the window)."""
    # smooth the pixel staircase first (circular Gaussian along the outline)
    k = cv2.getGaussianKernel(9, 2.0).ravel()
    pts = np.stack([np.convolve(np.concatenate([pts[-4:, c], pts[:, c], pts[:4, c]]), k,
                                "valid") for c in range(2)], axis=1)
    fwd = np.roll(pts, -step, axis=0) - pts
    bwd = pts - np.roll(pts, step, axis=0)
    a1 = np.arctan2(fwd[:, 1], fwd[:, 0]) % np.pi
    a2 = np.arctan2(bwd[:, 1], bwd[:, 0]) % np.pi
    d = np.abs(a1 - a2)
    d = np.minimum(d, np.pi - d)
    tang = fwd + bwd
    ang = np.arctan2(tang[:, 1], tang[:, 0]) % np.pi
    return ang, d < np.deg2rad(10)


class _Outline:
    """A region's outline ``pts`` (N, 2) (``framed``: its points on the photo's frame,
    never straight; None: none so) and what the fits ask of it, each worked out
    once: its tangents (:func:`_directions`, ``STEP``), their three main directions
    (:func:`_three_peaks`) and its outward normals (:func:`_outward`). The fit as it is,
    the one with the perspective undone and the local vertices all look at the same
    outline (the arrays given are shared: not to be changed)."""

    STEP = 4

    def __init__(self, pts: np.ndarray, framed: np.ndarray | None = None) -> None:
        self.pts = pts
        self.framed = framed
        self._tangents: tuple[np.ndarray, np.ndarray] | None = None
        self._peaks: tuple[list[float] | None] | None = None
        self._normals: np.ndarray | None = None

    def tangents(self) -> tuple[np.ndarray, np.ndarray]:
        """:func:`_directions` of the outline (angle, straight)."""
        if self._tangents is None:
            ang, straight = _directions(self.pts, self.STEP)
            if self.framed is not None:
                straight &= ~self.framed
            self._tangents = ang, straight
        return self._tangents

    def share(self, points: np.ndarray) -> float:
        """The share of the outline's points off the photo's frame (all, without
        ``framed``) that ``points`` (N,) bool marks."""
        n_off = len(self.pts) if self.framed is None else int((~self.framed).sum())
        return float(points.sum()) / max(1, n_off)

    def peaks(self, least: float) -> list[float] | None:
        """:func:`_three_peaks` of the straight points' tangents (``least``: its share of
        them a direction must hold; the same on every call)."""
        if self._peaks is None:
            ang, straight = self.tangents()
            self._peaks = (_three_peaks(ang[straight], least),)
        return self._peaks[0]

    def normals(self) -> np.ndarray:
        """:func:`_outward` of the outline."""
        if self._normals is None:
            self._normals = _outward(self.pts, self.STEP)
        return self._normals


#: the bins within 22 degrees either way of a peak (cleared before the next is sought)
_NEAR_PEAK = np.arange(-22, 23)


def _three_peaks(ang: np.ndarray, least: float = 0.05) -> list[float] | None:
    """The three main directions of an outline (radians), or None where one of them holds
    no more than ``least`` of the tangents ``ang`` (those within 3 degrees of it)."""
    hist = np.bincount((np.degrees(ang).astype(int)) % 180, minlength=180).astype(float)
    k = np.ones(7)
    sm = np.convolve(np.concatenate([hist[-3:], hist, hist[:3]]), k, "valid")
    peaks: list[float] = []
    work = sm.copy()
    for _ in range(3):
        p = int(np.argmax(work))
        if work[p] <= least * hist.sum():
            return None
        peaks.append(float(p))
        work[(p + _NEAR_PEAK) % 180] = 0
    return [np.deg2rad(p + 0.5) for p in peaks]


def _family(ang: np.ndarray, dirs: list[float], tol_deg: float) -> np.ndarray:
    """Index (0-2) of the direction each tangent runs along, -1 if none."""
    d = np.abs(ang[:, None] - np.array(dirs)[None, :])
    d = np.minimum(d, np.pi - d)
    fam = np.argmin(d, axis=1)
    fam[d.min(axis=1) > np.deg2rad(tol_deg)] = -1
    return fam


def _coords(pts: np.ndarray, hinv: np.ndarray) -> np.ndarray:
    """Lattice coordinates of image points under ``hinv`` (image -> lattice)."""
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ hinv.T
    return p[:, :2] / p[:, 2:3]


def _line_values(q: np.ndarray, fam: np.ndarray) -> np.ndarray:
    """For each point, its coordinate across its family's lines (j, i or i+j)."""
    v = np.where(fam == 0, q[:, 1], np.where(fam == 1, q[:, 0], q[:, 0] + q[:, 1]))
    return v


def _fit_outline(cfg: ReaderConfig, pts: np.ndarray, side: float | None = None,
                 outline: _Outline | None = None) -> list[np.ndarray]:
    """Homographies lattice index (i, j, 1) -> image that fit a polyiamond outline (one per
    plausible tile size, within 0.7-1.4 x ``side`` px if given; none if the outline is not
    one). ``outline``: ``pts`` as an :class:`_Outline` already, where it is."""
    o = outline if outline is not None else _Outline(pts)
    ang, straight = o.tangents()
    if o.share(straight) < 0.25:
        return []
    dirs = o.peaks(cfg.silhouette_peak_min)
    if dirs is None:
        return []
    fam = _family(ang, dirs, 7.0)
    fam[~straight] = -1
    nrm = o.normals()
    if o.share(fam >= 0) < cfg.silhouette_min_straight:
        return []
    u = [np.array([np.cos(t), np.sin(t)]) for t in dirs]
    # a = u0, b = beta u1, b - a = gamma u2: the lattice's shape up to size
    m = np.stack([u[1], -u[2]], axis=1)
    if abs(np.linalg.det(m)) < 0.2:
        return []
    beta, gamma = np.linalg.solve(m, u[0])
    if beta < 0:
        u[1], beta = -u[1], -beta
    a, b = u[0], beta * u[1]
    ratio = np.linalg.norm(b) / np.linalg.norm(a)
    if not 0.45 < ratio < 2.2 or not 0.45 < np.linalg.norm(b - a) < 2.2:
        return []  # too oblique for a tilted photo
    lin = np.stack([a, b], axis=1)
    c0 = pts.mean(axis=0)
    h0 = np.eye(3)
    h0[:2, :2], h0[:2, 2] = lin, c0
    hinv = np.linalg.inv(h0)
    q = _coords(pts, hinv)
    v = _line_values(q, fam)
    ok = fam >= 0
    # size: periods at which the sides of every family fall on lattice lines, the third
    # family's lines passing through the vertices of the other two (its phase is their
    # sum); no two sides of a family lie less than a tile apart, which bounds the search
    spreads = [np.ptp(np.percentile(v[fam == f], [2, 98])) if (fam == f).sum() > 5 else 0.0
               for f in range(3)]
    smax = min(spreads) * 1.08
    side_px = (1 + ratio + np.linalg.norm(b - a)) / 3
    smin = cfg.min_side / side_px
    if side is not None:
        smin, smax = max(smin, 0.7 * side / side_px), min(smax, 1.4 * side / side_px)
    if smax <= smin:
        return []
    cands = np.exp(np.linspace(np.log(smin), np.log(smax), 240))
    sub = np.flatnonzero(ok)
    sub = sub[:: max(1, len(sub) // 800)]
    vv, ff = v[sub], fam[sub]
    z = np.exp(2j * np.pi * vv[None, :] / cands[:, None])  # (candidates, points)
    cnt = np.array([(ff == f).sum() for f in range(3)], float)
    if cnt.min() < 5:
        return []
    ph = np.stack([z[:, ff == f].mean(axis=1) for f in range(3)], axis=1)
    r = (np.abs(ph) * cnt).sum(axis=1) / cnt.sum()
    cons = np.cos(np.angle(ph[:, 2]) - np.angle(ph[:, 0]) - np.angle(ph[:, 1]))
    score = r * (0.5 + 0.5 * cons)
    if score.max() < cfg.silhouette_period_min:
        return []
    # local maxima of the periodicity, strongest first: each is judged on its digits
    peaks = [n for n in range(len(score)) if score[n] >= 0.6 * score.max()
             and score[n] >= score[max(n - 1, 0)] and score[n] >= score[min(n + 1, len(score) - 1)]]
    peaks.sort(key=lambda n: -score[n])
    out: list[np.ndarray] = []
    for n in peaks[:3]:
        s = float(cands[n])
        z = np.exp(2j * np.pi * vv / s)
        oj = s * np.angle(z[ff == 0].mean()) / (2 * np.pi)
        oi = s * np.angle(z[ff == 1].mean()) / (2 * np.pi)
        # index -> image: scale by s, shift so that lattice lines sit at the offsets
        h = h0 @ np.array([[s, 0, oi], [0, s, oj], [0, 0, 1.0]])
        hr = _refine(h, pts, fam, nrm)
        if hr is not None:
            out.append(hr)
    return out


def _rectifier(cfg: ReaderConfig, pts: np.ndarray, outline: _Outline | None = None
               ) -> np.ndarray | None:
    """A projective map (3, 3) of the image that undoes a strong perspective over a board's
    outline ``pts`` (N, 2): the board's sides run in three directions that converge to
    three vanishing points on the table's horizon; mapping that line to infinity makes
    each direction parallel again and the tile size even, as the outline fit needs.

    Each direction's straight runs (within ``cfg.silhouette_rectify_tol_deg`` of it) are
    fitted with lines, their common point found by least squares, the horizon fitted
    through the three. None when the directions or runs are too few, the three points do
    not lie on one line, or the perspective is too weak to matter. ``outline``: ``pts`` as
    an :class:`_Outline` already, where it is.
    """
    o = outline if outline is not None else _Outline(pts)
    ang, straight = o.tangents()
    if o.share(straight) < cfg.silhouette_min_straight:
        return None
    dirs = o.peaks(cfg.silhouette_peak_min)
    if dirs is None:
        return None
    fam = _family(ang, dirs, cfg.silhouette_rectify_tol_deg)
    fam[~straight] = -1
    starts = np.flatnonzero(fam != np.roll(fam, 1))
    if not len(starts):
        return None
    f = np.roll(fam, -starts[0])
    p = np.roll(pts, -starts[0], axis=0).astype(np.float64)
    # normalised coordinates (centre 0, extent 1) keep the least squares well conditioned
    cen, ext = p.mean(axis=0), float(np.ptp(p, axis=0).max()) or 1.0
    t = np.array([[1 / ext, 0, -cen[0] / ext], [0, 1 / ext, -cen[1] / ext], [0, 0, 1]])
    q = (p - cen) / ext
    lines: list[list[np.ndarray]] = [[], [], []]
    cuts = np.flatnonzero(f != np.roll(f, 1)).tolist() + [len(f)]
    for a, b in zip(cuts[:-1], cuts[1:], strict=True):
        if f[a] < 0 or b - a < cfg.silhouette_rectify_run:
            continue
        seg = q[a:b]
        c = seg.mean(axis=0)
        d = np.linalg.svd(seg - c)[2][0]
        n = np.array([-d[1], d[0]])
        lines[int(f[a])].append(np.array([n[0], n[1], -n @ c]) * np.sqrt(b - a))
    if min(len(x) for x in lines) < 2:
        return None
    vps = []
    for fam_lines in lines:
        vp = np.linalg.svd(np.array(fam_lines))[2][-1]
        vps.append(vp / np.linalg.norm(vp))
    _, sv, vt = np.linalg.svd(np.array(vps))
    horizon = vt[-1]
    if sv[2] > cfg.silhouette_rectify_collinear * sv[1] or abs(horizon[2]) < 1e-9:
        return None
    horizon = horizon / horizon[2]
    # how much the scale changes across the outline: under a few %, nothing to undo
    w = 1 + q @ horizon[:2]
    if np.min(w) <= 0.05 or np.max(w) / np.min(w) < 1 + cfg.silhouette_rectify_min:
        return None
    hp = np.array([[1, 0, 0], [0, 1, 0], [horizon[0], horizon[1], 1.0]])
    return np.linalg.inv(t) @ hp @ t


def _fit_rectified(cfg: ReaderConfig, pts: np.ndarray, side: float | None,
                   outline: _Outline | None = None) -> list[np.ndarray]:
    """:func:`_fit_outline` on the outline with its perspective undone
    (:func:`_rectifier`), the fits mapped back to the image; [] if there is none to undo.
    ``outline``: ``pts`` as an :class:`_Outline` already, where it is."""
    hp = _rectifier(cfg, pts, outline)
    if hp is None:
        return []
    flat = cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), hp)
    back = np.linalg.inv(hp)
    flat = flat.reshape(-1, 2)
    return [back @ h for h in _fit_outline(
        cfg, flat, side, _Outline(flat, outline.framed if outline is not None else None))]


def _outward(pts: np.ndarray, step: int) -> np.ndarray:
    """Unit normals (N, 2) of a closed outline pointing out of the region it encloses."""
    t = np.roll(pts, -step, axis=0) - np.roll(pts, step, axis=0)
    n = np.stack([t[:, 1], -t[:, 0]], axis=1)
    n /= np.linalg.norm(n, axis=1, keepdims=True) + 1e-9
    poly = pts.astype(np.float32).reshape(-1, 1, 2)
    idx = np.linspace(0, len(pts) - 1, 24).astype(int)
    out = sum(cv2.pointPolygonTest(poly, (float(pts[k, 0] + 2 * n[k, 0]),
                                          float(pts[k, 1] + 2 * n[k, 1])), False) < 0
              for k in idx)
    return n if out >= len(idx) / 2 else -n


def _refine(h: np.ndarray, pts: np.ndarray, fam: np.ndarray, nrm: np.ndarray,
            rounds: int = 8) -> np.ndarray | None:
    """Fit the homography to the outline: each straight outline point belongs on its
    nearest lattice line of its family (point-to-line, a few rounds). The region's
    outline may lie a little out of or inside the tiles' true edges (blur, the grey level
    that cut it): that margin is measured along the outward normals and taken off."""
    ok = np.flatnonzero(fam >= 0)
    ok = ok[:: max(1, len(ok) // 600)]  # plenty for 8 parameters
    p0, f, n = pts[ok], fam[ok], nrm[ok]
    d = 0.0
    for _ in range(rounds):
        try:
            hinv = np.linalg.inv(h)
        except np.linalg.LinAlgError:
            return None
        p = p0 - d * n
        q = _coords(p, hinv)
        v = _line_values(q, f)
        r = np.round(v)
        res = v - r
        keep = np.abs(res) < 0.3
        if keep.sum() < 12:
            return None
        # move each point across its line onto it (along the family's normal)
        t = q.copy()
        t[:, 1] = np.where(f == 0, r, t[:, 1])
        t[:, 0] = np.where(f == 1, r, t[:, 0])
        # i + j = r: move both by half the residual
        t[:, 0] = np.where(f == 2, q[:, 0] - res / 2, t[:, 0])
        t[:, 1] = np.where(f == 2, q[:, 1] - res / 2, t[:, 1])
        # the outline's margin: how far the lattice lines lie out from the points
        e = ((_project(h, t[keep]) - p[keep]) * n[keep]).sum(axis=1)
        hi, _ = cv2.findHomography(p[keep], t[keep], 0)
        if hi is None:
            return None
        try:
            h = np.linalg.inv(hi)
        except np.linalg.LinAlgError:
            return None
        side = float(np.linalg.norm(np.diff(_project(h, np.array([[0.0, 0], [1, 0]])), axis=0)))
        d = float(np.clip(d - np.median(e), -0.15 * side, 0.15 * side))
    return h


def _local_vertices(b: BoardGuess, pts: np.ndarray, outline: _Outline | None = None
                    ) -> dict[Vertex, np.ndarray]:
    """Each vertex of the board's cells where the outline near it says it is: the
    homography's position moved by the shift (searched up to half a side) that puts the
    most straight outline points within about a side of it on their lattice lines (a
    hand-placed board drifts; one homography cannot follow it everywhere). Vertices with
    no outline near them follow their neighbours' shifts."""
    h = b.homography
    near = {*b.cells, *b.edge}
    near |= {nb for c in near for nb in edge_neighbours(c)}
    verts = sorted({v for c in near for v in cell_corners(c)})
    vp = _project(h, np.array([vertex_xy(v) for v in verts], dtype=np.float64))
    out = {v: p for v, p in zip(verts, vp, strict=True)}
    o = outline if outline is not None else _Outline(pts)
    ang, straight = o.tangents()
    nrm = o.normals()
    idx = np.flatnonzero(straight)
    if len(idx) < 12:
        return out
    p, n = pts[idx], nrm[idx]
    try:
        hinv = np.linalg.inv(h)
    except np.linalg.LinAlgError:
        return out
    q = _coords(p, hinv)  # table units
    t_img = np.stack([np.cos(ang[idx]), np.sin(ang[idx])], axis=1)
    q2 = _coords(p + t_img, hinv)
    la = np.degrees(np.arctan2(q2[:, 1] - q[:, 1], q2[:, 0] - q[:, 0])) % 180
    fam = np.round(la / 60).astype(int) % 3  # 0: j const, 1: i const, 2: i + j const
    ok = np.abs(((la + 30) % 60) - 30) < 10
    jj = q[:, 1] / (SQ3 / 2)
    ii = q[:, 0] - jj / 2
    v = np.where(fam == 0, jj, np.where(fam == 1, ii, ii + jj))
    r = np.round(v)
    res = v - r
    ok &= np.abs(res) < 0.35
    if ok.sum() < 12:
        return out
    ti, tj = ii.copy(), jj.copy()
    tj = np.where(fam == 0, r, tj)
    ti = np.where(fam == 1, r, ti)
    ti = np.where(fam == 2, ii - res / 2, ti)
    tj = np.where(fam == 2, jj - res / 2, tj)
    foot = _project(h, np.stack([ti + tj / 2, tj * SQ3 / 2], axis=1))
    e = ((p - foot) * n).sum(axis=1)
    # the outline's margin (blur, the grey level that cut the region) taken off first
    p = p - np.median(e[ok]) * n
    keep = np.abs(((la + 30) % 60) - 30) < 10
    p, fam = p[keep], fam[keep]
    p, fam = p[:: max(1, len(p) // 1200)], fam[:: max(1, len(p) // 1200)]
    side = b.side

    # each point's line value (across its family's lines, in line spacings) and how it
    # changes as the point moves in the image (the map is locally affine): a shift of the
    # lattice by d changes it by -grad . d, no reprojection needed
    q0 = _coords(p, hinv)
    qx, qy = _coords(p + [1.0, 0.0], hinv) - q0, _coords(p + [0.0, 1.0], hinv) - q0
    grads = np.array([[0.0, 2 / SQ3], [1.0, -1 / SQ3], [1.0, 1 / SQ3]])[fam]  # d v / d xy
    jac = np.stack([qx, qy], axis=2)  # (N, 2 lattice, 2 image)
    gv = np.einsum("nl,nli->ni", grads, jac)  # d v / d image
    j0 = q0[:, 1] / (SQ3 / 2)
    i0 = q0[:, 0] - j0 / 2
    v0 = np.where(fam == 0, j0, np.where(fam == 1, i0, i0 + j0))

    def fit_score(k: np.ndarray, wk: np.ndarray, shifts: np.ndarray) -> np.ndarray:
        """Per shift: how many of the points ``k`` lie on their lattice lines once the
        lattice moves by that shift (weighted by closeness to the vertex)."""
        vk = v0[k][None, :] - shifts @ gv[k].T  # the points move by -shift
        dist = np.abs(vk - np.round(vk)) * (SQ3 / 2)  # in tile sides
        return (wk[None, :] * np.exp(-(dist / 0.06) ** 2)).sum(axis=1)

    g1 = np.arange(-5, 6) * 0.1 * side
    coarse = np.stack(np.meshgrid(g1, g1), axis=-1).reshape(-1, 2)
    g2 = np.arange(-4, 5) * 0.025 * side
    fine = np.stack(np.meshgrid(g2, g2), axis=-1).reshape(-1, 2)
    shift = np.zeros_like(vp)
    known = np.zeros(len(vp), bool)
    for m, c in enumerate(vp):
        d2 = ((p - c) ** 2).sum(axis=1)
        k = np.flatnonzero(d2 < (1.5 * side) ** 2)
        if len(k) < 8 or len(set(fam[k].tolist())) < 2:
            continue  # too few sides near it, or all one way: the shift is not fixed
        wk = np.exp(-d2[k] / (2 * (0.8 * side) ** 2))
        sc = fit_score(k, wk, coarse)
        base = sc[len(coarse) // 2]  # the zero shift
        best = coarse[int(np.argmax(sc))] if sc.max() > 1.15 * base + 0.5 else coarse[
            len(coarse) // 2]
        sc2 = fit_score(k, wk, best + fine)
        shift[m] = best + fine[int(np.argmax(sc2))]
        known[m] = True
    if not known.any():
        return out
    # vertices far from the outline (inside a large board) follow the shifts around them
    for m in np.flatnonzero(~known):
        d2 = ((vp[known] - vp[m]) ** 2).sum(axis=1)
        w = np.exp(-d2 / (2 * (1.5 * side) ** 2)) + 1e-12
        shift[m] = (w[:, None] * shift[known]).sum(axis=0) / w.sum()
    return {v: pp + sh for v, pp, sh in zip(verts, vp, shift, strict=True)}


def _index_to_xy() -> np.ndarray:
    """Lattice (x, y, 1) -> index (i, j, 1)."""
    return np.array([[1.0, -1 / SQ3, 0], [0, 2 / SQ3, 0], [0, 0, 1]])


def _as_xy(h_idx: np.ndarray) -> np.ndarray:
    """The index homography as one from table units, mirrored if needed so the board is
    never seen from below (lattice y up vs image y down: negative Jacobian)."""
    h = h_idx @ _index_to_xy()
    lin = h_idx[:2, :2] * h_idx[2, 2] - np.outer(h_idx[:2, 2], h_idx[2, :2])
    if np.linalg.det(lin) > 0:
        swap = np.array([[0, 1.0, 0], [1, 0, 0], [0, 0, 1]])
        h = h_idx @ swap @ _index_to_xy()
    return h


def _cells_in(h: np.ndarray, mask: np.ndarray, bbox: tuple[int, int, int, int]
              ) -> tuple[list[Cell], list[Cell]]:
    """Cells whose area lies mostly in ``mask`` (at least 3/4 of their pixels), and those
    partly in (a third or more); pixels sampled over ``bbox`` (x, y, w, h) grown by a
    margin."""
    hh, ww = mask.shape
    try:
        hinv = np.linalg.inv(h)
    except np.linalg.LinAlgError:
        return [], []
    x, y, bw, bh = bbox
    m = max(bw, bh) // 8 + 4
    st = int(np.clip(_side_px(h) / 7, 2, 12))  # some 40 samples a cell
    xs = np.arange(max(0, x - m), min(ww, x + bw + m), st)
    ys = np.arange(max(0, y - m), min(hh, y + bh + m), st)
    gx, gy = np.meshgrid(xs, ys)
    inm = mask[gy, gx].ravel() > 0
    p = np.stack([gx.ravel(), gy.ravel(), np.ones(gx.size)], axis=1) @ hinv.T
    xy = p[:, :2] / p[:, 2:3]
    jj = xy[:, 1] / (SQ3 / 2)
    ii = xy[:, 0] - jj / 2
    fi, fj = np.floor(ii), np.floor(jj)
    up = (ii - fi) + (jj - fj) < 1
    if np.ptp(fi) > 400 or np.ptp(fj) > 400:
        return [], []  # far too many cells: a lattice folded by a bad fit
    fi0, fj0 = int(fi.min()), int(fj.min())
    ni, nj = int(fi.max()) - fi0 + 1, int(fj.max()) - fj0 + 1
    key = (((fi - fi0) * nj + (fj - fj0)) * 2 + up).astype(np.int64)
    total = np.bincount(key, minlength=2 * ni * nj)
    inside = np.bincount(key, weights=inm, minlength=2 * ni * nj)
    # a cell's own pixel count (cells cut by the sampled window or the photo's edge are
    # judged on the pixels there are: at least half a cell's worth)
    full = float(np.median(total[total > 0])) if total.any() else 0.0
    ks = np.flatnonzero(inside >= max(0.3 * full, 1))
    n_all = total[ks]
    frac = inside[ks] / np.maximum(n_all, 0.5 * full)
    mostly = (frac >= 0.75) & (n_all >= 0.6 * full)
    cells = [(i, j, "U" if u else "D") for i, j, u in zip(
        (ks // 2 // nj + fi0).tolist(), (ks // 2 % nj + fj0).tolist(), (ks % 2).tolist(),
        strict=True)]
    inner: list[Cell] = []
    edge: list[Cell] = []
    for c, m in zip(cells, mostly.tolist(), strict=True):
        (inner if m else edge).append(c)
    return inner, edge


class _Detail:
    """The grey image lightly smoothed (noise off, digits kept) as a summed image for box
    means (made once, on first use), and, for a box size asked for often, every box mean
    of the image at once (:meth:`box_means`)."""

    #: a box size's means are all made once this many times the image's pixels were asked
    #: for at it (each costs about as much as reading them one by one that often)
    TABLE_AFTER = 2.0
    #: at most this many box sizes kept so
    TABLES = 6

    def __init__(self, gray: np.ndarray) -> None:
        self.gray = gray
        self.ii: np.ndarray | None = None
        self._asked: dict[int, int] = {}
        self._tables: dict[int, np.ndarray] = {}

    def at(self, side: float) -> np.ndarray:
        """The summed image (the box means smooth for the tile size ``side``)."""
        del side
        if self.ii is None:
            g = cv2.GaussianBlur(self.gray.astype(np.float32), (0, 0), 0.7)
            self.ii = cv2.integral(g, sdepth=cv2.CV_64F)
        return self.ii

    def box_means(self, p: np.ndarray, r: float) -> np.ndarray:
        """:func:`_box_mean` of the summed image at points ``p`` (N, 2) for half-size
        ``r``, the same numbers: from the table of all its box means where that size is
        asked for often (the search's shifted cells read millions), else one by one."""
        ii = self.at(0.0)
        rr = max(1, int(round(r)))
        table = self._tables.get(rr)
        if table is None:
            n = self._asked.get(rr, 0) + len(p)
            self._asked[rr] = n
            if n < self.TABLE_AFTER * self.gray.size or len(self._tables) >= self.TABLES:
                return _box_mean(ii, p, r)
            table = self._tables[rr] = _box_table(ii, rr)
        hh, ww = ii.shape[0] - 1, ii.shape[1] - 1
        # a box centred further out than rr + 1 px beyond the image has the bounds (and so
        # the mean) of one centred there: the table stops there
        xq = np.clip(np.round(p[:, 0]).astype(int), -rr - 1, ww + rr) + (rr + 1)
        yq = np.clip(np.round(p[:, 1]).astype(int), -rr - 1, hh + rr) + (rr + 1)
        return table.ravel()[yq * table.shape[1] + xq]


def _box_table(ii: np.ndarray, rr: int) -> np.ndarray:
    """Every box mean :func:`_box_mean` gives on the summed image ``ii`` for half-size
    ``rr`` (rounded), at box centres from ``rr + 1`` px before the image to ``rr`` px past
    it: (H + 2 rr + 2, W + 2 rr + 2), each worked out as _box_mean works it out."""
    hh, ww = ii.shape[0] - 1, ii.shape[1] - 1
    x0, x1 = _box_bounds(np.arange(-rr - 1, ww + rr + 1), rr, ww)
    y0, y1 = _box_bounds(np.arange(-rr - 1, hh + rr + 1), rr, hh)
    area = np.maximum((x1 - x0)[None, :] * (y1 - y0)[:, None], 1)
    a, b = ii[y1][:, x1], ii[y0][:, x1]
    c, d = ii[y1][:, x0], ii[y0][:, x0]
    # row-major, as box_means reads it flat: numpy's gathers above leave it column-major,
    # and a flat view of that is a copy of the whole table at every call (2 ms each)
    return np.ascontiguousarray((a - b - c + d) / area)


def _box_bounds(c: np.ndarray, rr: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The first and one-past-last summed-image indices (each within 0..``n``) of boxes of
    half-size ``rr`` centred at the whole pixel positions ``c`` along one axis."""
    return np.clip(c - rr, 0, n), np.clip(c + rr + 1, 0, n)


def _box_mean(ii: np.ndarray, p: np.ndarray, r: float) -> np.ndarray:
    """Means of the summed image ``ii`` over squares of half-size ``r`` at points ``p``."""
    hh, ww = ii.shape[0] - 1, ii.shape[1] - 1
    rr = max(1, int(round(r)))
    x0, x1 = _box_bounds(np.round(p[:, 0]).astype(int), rr, ww)
    y0, y1 = _box_bounds(np.round(p[:, 1]).astype(int), rr, hh)
    area = np.maximum((x1 - x0) * (y1 - y0), 1)
    # the four corners by flat index: one gather each (the search reads millions)
    flat, w1 = ii.ravel(), ii.shape[1]
    r0, r1 = y0 * w1, y1 * w1
    return (flat[r1 + x1] - flat[r0 + x1] - flat[r1 + x0] + flat[r0 + x0]) / area


def _cell_stats(h: np.ndarray, cells: list[Cell], detail: _Detail
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Per cell: its face's tone (the median grey of three plain spots between its
    digits), how far the mean grey at its three digit spots departs from that tone, and
    how far its plain spots do; and the mean tile side in pixels."""
    return _face_stats(_cell_px(h, cells)[1], detail)


def cells_showing_digits(cfg: ReaderConfig, h: np.ndarray, cells: list[Cell],
                         gray: np.ndarray) -> np.ndarray:
    """(N,) bool: which ``cells`` of lattice ``h`` (table units -> ``gray``'s pixels) show
    digits at their three digit spots (as the refit counts them, see
    ``cfg.silhouette_refit_cell_min``)."""
    return _showing(cfg, h, cells, _Detail(gray))


def _showing(cfg: ReaderConfig, h: np.ndarray, cells: list[Cell], detail: _Detail
             ) -> np.ndarray:
    """(N,) bool: :func:`cells_showing_digits` on a prepared :class:`_Detail`."""
    _, fd, fp, _ = _cell_stats(h, cells, detail)
    return fd / (fp + 1) >= cfg.silhouette_refit_cell_min


def _cell_px(h: np.ndarray, cells: list[Cell]) -> tuple[np.ndarray, np.ndarray]:
    """The cells' corners in the lattice (N, 3, 2, table units) and in the image under
    ``h`` (N, 3, 2, pixels)."""
    corners = np.array([[vertex_xy(v) for v in cell_corners(c)] for c in cells])
    return corners, _project(h, corners.reshape(-1, 2)).reshape(len(cells), 3, 2)


def _face_stats(pc: np.ndarray, detail: _Detail
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """:func:`_cell_stats` for faces given by their image corners ``pc`` (N, 3, 2)."""
    n = len(pc)
    # the sums over a face's three corners written out: numpy's reductions over a short
    # middle axis cost more than the arithmetic (the same sums, in the same order)
    p0, p1, p2 = pc[:, 0], pc[:, 1], pc[:, 2]
    cen = ((p0 + p1) + p2) / 3
    nxt = np.stack([p1, p2, p0], axis=1)
    mids = (pc + nxt) / 2
    pd = (pc + 0.54 * (cen[:, None] - pc)).reshape(-1, 2)
    pp = (cen[:, None] + 0.6 * (mids - cen[:, None])).reshape(-1, 2)
    e = pc - nxt
    side = float(np.sqrt(e[..., 0] * e[..., 0] + e[..., 1] * e[..., 1]).mean())
    r = max(1.5, 0.07 * side)
    md = detail.box_means(pd, r).reshape(n, 3)
    mp = detail.box_means(pp, r).reshape(n, 3)
    # a digit (darker or lighter than the face) shifts its spot's mean away from the
    # face's tone, a plain spot stays near it; the tone is the median of the three plain
    # spots, taken as the middle one (np.median's sort costs more than all the rest)
    a, b, c = mp[:, 0], mp[:, 1], mp[:, 2]
    tone = np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))
    dd, dp = np.abs(md - tone[:, None]), np.abs(mp - tone[:, None])
    fd = ((dd[:, 0] + dd[:, 1]) + dd[:, 2]) / 3
    fp = ((dp[:, 0] + dp[:, 1]) + dp[:, 2]) / 3
    return tone, fd, fp, side


def _recount(cfg: ReaderConfig, b: BoardGuess, mask: np.ndarray, detail: _Detail) -> None:
    """The region's cells again, on the vertices corrected for drift (a drifting part of
    the board may lie across the homography's cells): those mostly inside the region and
    of the board's tone are its cells, those partly inside its edge cells."""
    hh, ww = mask.shape
    ref_cells = [c for c in b.cells if all(v in b.vertex_px for v in cell_corners(c))]
    if not ref_cells:
        return
    cand = {*b.cells, *b.edge}
    cand |= {nb for c in cand for nb in edge_neighbours(c)}
    cand_l = sorted(c for c in cand if all(v in b.vertex_px for v in cell_corners(c)))
    pc = np.array([[b.vertex_px[v] for v in cell_corners(c)] for c in cand_l])
    bary = np.array([(u, v, 1 - u - v) for u in np.linspace(0.1, 0.8, 5)
                     for v in np.linspace(0.1, 0.8, 5) if u + v <= 0.9])
    q = np.einsum("kc,ncd->nkd", bary, pc).round().astype(int)  # (N, K, 2)
    ins = (q[..., 0] >= 0) & (q[..., 0] < ww) & (q[..., 1] >= 0) & (q[..., 1] < hh)
    val = mask[q[..., 1].clip(0, hh - 1), q[..., 0].clip(0, ww - 1)] > 0
    frac = (val & ins).sum(axis=1) / np.maximum(ins.sum(axis=1), 1)
    seen = ins.mean(axis=1)
    tone, _, _, _ = _face_stats(pc, detail)
    ref_tone, _, _, _ = _face_stats(np.array([[b.vertex_px[v] for v in cell_corners(c)]
                                              for c in ref_cells]), detail)
    ref = float(np.median(ref_tone))
    tol = max(cfg.silhouette_tone_tol, 4 * float(np.median(np.abs(ref_tone - ref))))
    same = np.abs(tone - ref) <= tol
    b.cells = [c for c, f, s_, k in zip(cand_l, frac, seen, same, strict=True)
               if f >= 0.75 and s_ >= 0.6 and k]
    b.edge = [c for c, f, s_, k in zip(cand_l, frac, seen, same, strict=True)
              if k and 0.3 <= f * s_ and not (f >= 0.75 and s_ >= 0.6)]


def digit_score(h: np.ndarray, cells: list[Cell], detail: _Detail) -> tuple[float, float]:
    """How well the lattice puts each cell's digits where tiles carry them: how far the
    mean grey level at the three digit spots of a cell departs from the face's tone,
    over how far its three plain spots do (medians over cells; well above 1 when digits
    sit where the lattice says). Also the mean tile side in pixels."""
    if not cells:
        return 0.0, 0.0
    _, fd, fp, side = _cell_stats(h, cells, detail)
    return float(np.median(fd) / (np.median(fp) + 1.0)), side


def _best_fit(cfg: ReaderConfig, fits: list[np.ndarray], mask: np.ndarray,
              bbox: tuple[int, int, int, int], integ: _Detail, align: bool
              ) -> BoardGuess | None:
    """Of the lattices ``fits`` fitted to one region (``mask``, its bounding box ``bbox``),
    the one whose cells show their digits best, if well enough (moved first to where they
    show best with ``align``); None if none does."""
    best: BoardGuess | None = None
    for hx in fits:
        inner, edge = _tone_cells(cfg, hx, mask, bbox, integ)
        if len(inner) < cfg.silhouette_min_cells:
            continue
        if align:
            if _side_px(hx) < cfg.silhouette_align_min_side:
                continue
            # moved first; refitted cell by cell only where no shift shows the digits
            # (a refit may settle on part of a board whose shift read all of it)
            hm = _align_to_digits(cfg, hx, inner, integ)
            i2, e2 = _tone_cells(cfg, hm, mask, bbox, integ)
            if ((len(i2) < cfg.silhouette_min_cells
                 or digit_score(hm, i2, integ)[0] < cfg.silhouette_digit_min)
                    and cfg.silhouette_refit_rounds):
                r = _refit_to_digits(cfg, hx, mask, bbox, integ)
                if r is not None:
                    hm, i2, e2 = r.homography, r.cells, r.edge
            hx, inner, edge = hm, i2, e2
            if len(inner) < cfg.silhouette_min_cells:
                continue
        score, side = digit_score(hx, inner, integ)
        if side < cfg.min_side or score < cfg.silhouette_digit_min:
            continue
        if best is None or score > best.score:
            best = BoardGuess(hx, inner, edge, score, side)
    return best


def _side_px(h: np.ndarray) -> float:
    """Length in pixels of the lattice's unit side at the origin under ``h``."""
    return float(np.linalg.norm(np.diff(_project(h, np.array([[0.0, 0], [1, 0]])), axis=0)))


def _align_to_digits(cfg: ReaderConfig, h: np.ndarray, cells: list[Cell], detail: _Detail
                     ) -> np.ndarray:
    """The lattice moved (up to ``cfg.silhouette_align_frac`` of a side, coarse then fine)
    to where its cells' digit spots depart most from the faces' tone (digit_score): an
    outline that takes in the tiles' side faces on one side only shifts the lattice that
    way. Every shift of a step is judged in one vectorised call."""
    pc = _cell_px(h, cells)[1]
    side = float(np.linalg.norm(pc - pc[:, [1, 2, 0]], axis=2).mean())
    n = len(cells)
    best_t, best_s = np.zeros(2), -1.0
    centre = np.zeros(2)
    k = int(np.ceil(cfg.silhouette_align_frac / 0.1))
    for step, m in ((0.1 * side, k), (0.025 * side, 2)):
        g = np.arange(-m, m + 1) * step
        shifts = centre + np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)
        moved = (pc[None] + shifts[:, None, None, :]).reshape(-1, 3, 2)
        _, fd, fp, _ = _face_stats(moved, detail)
        sc = np.median(fd.reshape(-1, n), axis=1) / (np.median(fp.reshape(-1, n), axis=1) + 1)
        j = int(np.argmax(sc))
        if sc[j] > best_s:
            best_t, best_s = shifts[j], float(sc[j])
        centre = best_t
    return np.array([[1, 0, best_t[0]], [0, 1, best_t[1]], [0, 0, 1.0]]) @ h


class _Refit(NamedTuple):
    """A lattice refitted to its digits (:func:`_refit_to_digits`): its homography, its
    cells inside the region and those partly in, of the board's tone (:func:`_tone_cells`),
    and which of the former show their digits ((N,) bool, :func:`_showing`)."""

    homography: np.ndarray
    cells: list[Cell]
    edge: list[Cell]
    shown: np.ndarray


def _refit_to_digits(cfg: ReaderConfig, h: np.ndarray, mask: np.ndarray,
                     bbox: tuple[int, int, int, int], detail: _Detail) -> _Refit | None:
    """The lattice ``h`` fitted to its cells' digits (``cfg.silhouette_refit_*``): each
    cell inside the region ``mask`` moved to where its own digit spots show best, a
    homography fitted (RANSAC) to the moved corners of the cells that show them clearly,
    round after round, so a lattice a few % off in size or shape converges from the
    cells near where it is right. None if too few cells show their digits."""
    reach = cfg.silhouette_refit_reach
    side0 = _side_px(h)
    for _ in range(cfg.silhouette_refit_rounds):
        cells, _ = _cells_in(h, mask, bbox)
        if len(cells) < cfg.silhouette_min_cells:
            return None
        corners, pc = _cell_px(h, cells)
        side = float(np.linalg.norm(pc - pc[:, [1, 2, 0]], axis=2).mean())
        shift, ev, _ = _best_shifts(pc, side, reach, max(1, int(round(reach / 0.05))),
                                    detail)
        good = ev >= cfg.silhouette_refit_cell_min
        if good.sum() < cfg.silhouette_min_cells:
            return None
        dst = (pc + shift[:, None, :])[good].reshape(-1, 2)
        hn, _ = cv2.findHomography(corners[good].reshape(-1, 2), dst, cv2.RANSAC, 0.15 * side,
                                   maxIters=cfg.silhouette_refit_iters)
        if hn is None or abs(np.linalg.det(hn)) < 1e-12:
            return None
        h = hn
    if abs(np.log(_side_px(h) / side0)) > np.log(cfg.silhouette_refit_size):
        return None  # the outline gave the tile size to a few %: these are other spots
    # tiles show digits in (nearly) every cell; a patterned table only in some (dev
    # 71000331: a lattice fitted to a checked cloth's squares, 73 % of its cells)
    cells, edge = _tone_cells(cfg, h, mask, bbox, detail)
    if len(cells) < cfg.silhouette_min_cells:
        return None
    shown = _showing(cfg, h, cells, detail)
    return _Refit(h, cells, edge, shown) if shown.mean() >= cfg.silhouette_refit_shown else None


def _refit_weak(cfg: ReaderConfig, b: BoardGuess, mask: np.ndarray,
                bbox: tuple[int, int, int, int], detail: _Detail) -> BoardGuess:
    """The guess ``b`` fitted to its cells' digits (:func:`_refit_to_digits`) when fewer
    than ``cfg.silhouette_refit_below`` of its cells show them: an outline fits the
    lattice's size a few % off under a steep view, and its far arms then lie across
    the tiles (dev 71000465: 23 of 45 cells showing digits; refitted, 52 of 52). Kept
    when more cells then show digits, ranked as the guess was (its evidence taken from
    the outline's fit: a refitted guess outranked a better one, dev 71000285); not for
    tiles under ``cfg.silhouette_align_min_side`` px (digit-like evidence by chance)."""
    if (_side_px(b.homography) < cfg.silhouette_align_min_side
            or not cfg.silhouette_refit_rounds):
        return b
    n0 = int(_showing(cfg, b.homography, b.cells, detail).sum())
    if n0 >= cfg.silhouette_refit_below * len(b.cells):
        return b
    r = _refit_to_digits(cfg, b.homography, mask, bbox, detail)
    if r is None or int(r.shown.sum()) <= n0:
        return b
    return BoardGuess(r.homography, r.cells, r.edge, b.score,
                      digit_score(r.homography, r.cells, detail)[1])


def _tone_cells(cfg: ReaderConfig, h: np.ndarray, mask: np.ndarray,
                bbox: tuple[int, int, int, int], detail: _Detail
                ) -> tuple[list[Cell], list[Cell]]:
    """The cells of lattice ``h`` inside the region ``mask`` and those partly in
    (:func:`_cells_in`), of the board's tone (:func:`_same_tone`)."""
    inner, edge = _cells_in(h, mask, bbox)
    return _same_tone(cfg, h, inner, edge, detail)


def _same_tone(cfg: ReaderConfig, h: np.ndarray, inner: list[Cell], edge: list[Cell],
               detail: _Detail) -> tuple[list[Cell], list[Cell]]:
    """The cells whose face has the tone of the board's tiles (the median over the cells
    inside the region): a region may take in some table of a similar grey."""
    if not inner:
        return inner, edge
    tone, _, _, _ = _cell_stats(h, inner + edge, detail)
    ref = float(np.median(tone[: len(inner)]))
    tol = max(cfg.silhouette_tone_tol, 4 * float(np.median(np.abs(tone[: len(inner)] - ref))))
    ok = np.abs(tone - ref) <= tol
    return ([c for c, k in zip(inner, ok[: len(inner)], strict=True) if k],
            [c for c, k in zip(edge, ok[len(inner):], strict=True) if k])


def find_boards(cfg: ReaderConfig, gray: np.ndarray, near: np.ndarray | None = None,
                near_side: float | None = None,
                colour: Callable[[], np.ndarray] | None = None, close: int = 3,
                fallbacks: bool = True, short: bool = False) -> list[BoardGuess]:
    """Boards found from regions' outlines, best first (digit evidence x cells). With
    ``near`` (N, 2) points (faces of a board already found, tiles ``near_side`` px), only
    regions holding most of them and tiles of about that size are tried. ``colour`` gives
    the photo in colour (BGR, ``gray``'s size; made only when asked for): when no region
    of even tone outlines a board, regions of even colour are tried. ``close``: the
    kernel (px, at the search copy's size) closing the tone regions' gaps.
    ``fallbacks`` False: only the tone regions are searched, not the colour regions nor
    the frayed outlines (neither depends on ``close``: a search again with another
    kernel would only repeat them), nor the regions of local tone (which come last,
    after all the others: ``cfg.silhouette_local``). ``short``: only the tone regions
    whose outline shows no three directions at ``cfg.silhouette_peak_min`` but does at
    ``cfg.silhouette_short_peak`` (one direction's sides short: a small board seen
    steeply), fitted at that bar; [] with ``cfg.silhouette_short_peak`` 0."""
    if short and not cfg.silhouette_short_peak:
        return []
    if max(gray.shape) > cfg.detect_max_side:
        return []  # the double-size search: the photo itself was searched already
    if near is not None:
        return _find_boards(cfg, gray, near, near_side, colour, close, fallbacks, short)
    # the reader searches a photo's silhouettes again (the same copy, whole) when the first
    # board reads nothing or few of its cells: a whole search is kept with the copy for that
    return list(_derived(gray, ("boards", cfg, close, fallbacks, colour is None, short),
                         lambda: _find_boards(cfg, gray, near, near_side, colour, close,
                                              fallbacks, short)))


#: what the searches derive from a search copy (its halved copy, its regions' outlines,
#: the boards a whole search of it found), kept for the last few copies searched: the
#: reader searches one copy's silhouettes several times over (with the faces found, again
#: with the lattice moved onto the digits, for other boards), and the regions do not
#: depend on what a search then looks for.
#: (copy's id) -> (the copy, {key: what was derived}); the copy is kept so its id stays
#: its own while it is here
_DERIVED: dict[int, tuple[np.ndarray, dict[object, object]]] = {}
_DERIVED_LOCK = threading.Lock()
#: how many search copies are remembered
_DERIVED_COPIES = 4
_T = TypeVar("_T")


def _derived(copy: np.ndarray, key: object, make: Callable[[], _T]) -> _T:
    """What ``make()`` derives from the search copy ``copy`` under ``key``, made once
    while the copy is among the last few searched (see :data:`_DERIVED`); shared by the
    searches, so to be read only."""
    with _DERIVED_LOCK:
        entry = _DERIVED.get(id(copy))
        if entry is not None and entry[0] is copy and key in entry[1]:
            return entry[1][key]  # type: ignore[return-value]
    made = make()
    with _DERIVED_LOCK:
        entry = _DERIVED.get(id(copy))
        if entry is None or entry[0] is not copy:
            entry = (copy, {})
            _DERIVED[id(copy)] = entry
            while len(_DERIVED) > _DERIVED_COPIES:
                del _DERIVED[next(iter(_DERIVED))]
        entry[1][key] = made
    return made


def _region_key(cfg: ReaderConfig) -> ReaderConfig:
    """The settings a copy's regions are kept under: the search's, but for what a search
    does with the regions once traced (moving the lattice onto the digits)."""
    return replace(cfg, silhouette_align_near=False)


def _find_boards(cfg: ReaderConfig, gray: np.ndarray, near: np.ndarray | None,
                 near_side: float | None, colour: Callable[[], np.ndarray] | None,
                 close: int, fallbacks: bool, short: bool = False) -> list[BoardGuess]:
    """:func:`find_boards` without its memory of the last search."""
    if max(gray.shape) > cfg.silhouette_max_side:
        # an outline needs no fine detail: a large (upscaled) copy is searched halved
        f = cfg.silhouette_max_side / max(gray.shape)
        small = _derived(gray, ("halved", f), lambda: cv2.resize(
            gray, None, fx=f, fy=f, interpolation=cv2.INTER_AREA))
        scale = np.diag([1 / f, 1 / f, 1.0])
        small_colour = None if colour is None else (
            lambda: cv2.resize(colour(), (small.shape[1], small.shape[0]),
                               interpolation=cv2.INTER_AREA))
        return [BoardGuess(scale @ b.homography, b.cells, b.edge, b.score, b.side / f,
                           {v: p / f for v, p in b.vertex_px.items()})
                for b in _find_boards(cfg, small, None if near is None else near * f,
                                      None if near_side is None else near_side * f,
                                      small_colour, close, fallbacks, short)]
    integ = _Detail(gray)
    rkey = _region_key(cfg)
    blurred = _derived(gray, "blurred", lambda: cv2.GaussianBlur(gray, (0, 0), 1.5))
    regions = _derived(gray, ("tone", rkey, close), lambda: _regions(cfg, blurred, close))
    if short:
        # (the outlines showing three directions at the first bar were judged at it)
        low = replace(cfg, silhouette_peak_min=cfg.silhouette_short_peak)
        h, w = gray.shape
        regions = [r for r in regions if _Outline(r, _on_frame(cfg, r, w, h)).peaks(
            cfg.silhouette_peak_min) is None]
        return sorted(_boards_in(low, regions, gray, integ, near, near_side), key=rank)
    out = _boards_in(cfg, regions, gray, integ, near, near_side)
    if not out and fallbacks and colour is not None and cfg.silhouette_colour_levels:
        # (the colour copy is the grey copy's own, in colour: kept with it)
        shades = _derived(gray, ("colour", rkey),
                          lambda: _colour_regions(cfg, colour()))  # type: ignore[misc]
        out = _boards_in(cfg, shades, gray, integ, near, near_side)
    if not out and fallbacks and colour is not None and cfg.silhouette_colour_split:
        # none either: each colour channel parted midway between its two tones
        split = _derived(gray, ("split", rkey), lambda: _outlines(
            cfg, _colour_split(colour(), cfg.silhouette_colour_split),  # type: ignore[misc]
            gray.shape))
        out = _boards_in(cfg, split, gray, integ, near, near_side)
    if not out and fallbacks and cfg.silhouette_ragged_straight and near is None:
        # outlines frayed by a grainy table: the straight runs that remain still fall on
        # the lattice's lines (the digits then judge the fit, as for any outline); not
        # moved onto the digits, a search that cost seconds over a table's many grains
        # and found no more (dev 71000267: 8.8 -> 5.4 s); nor where faces found by their
        # edges already fix the board's lattice (``near``: a 6-tile board, +90 ms)
        ragged = replace(cfg, silhouette_min_straight=cfg.silhouette_ragged_straight,
                         silhouette_align_frac=0.0)
        out = _boards_in(ragged, regions, gray, integ, near, near_side)
    out.sort(key=rank)
    if cfg.silhouette_local and fallbacks:
        # regions of local tone come after all those (where one outlines the board too, it
        # is often less exactly; dev 71000321); not again in a search with gaps closed more
        local = _derived(gray, ("local", rkey, close),
                         lambda: _local_regions(cfg, blurred, close))
        more = _boards_in(cfg, local, gray, integ, near, near_side)
        out += sorted(more, key=rank)
    return out


def rank(b: BoardGuess) -> float:
    """Sort key of board guesses, best first: the digits' evidence times the square root
    of the cells (a lattice of half the size also covers the region)."""
    return -b.score * float(np.sqrt(len(b.cells)))


def _boards_in(cfg: ReaderConfig, regions: list[np.ndarray], gray: np.ndarray,
               integ: _Detail, near: np.ndarray | None, near_side: float | None
               ) -> list[BoardGuess]:
    """The boards whose silhouette is one of ``regions`` (outlines, see find_boards), in
    the regions' order. Each region is judged on its own, so with
    ``cfg.silhouette_threads`` above 1 they are judged on that many threads (this one
    and helpers; OpenCV and numpy's larger steps let go of the GIL); the answer is the
    same."""
    integ.at(0.0)  # the summed image, made once before the threads share it
    found: list[BoardGuess | None] = [None] * len(regions)
    # each thread takes the next region as it is free: a photo's masks trace a thousand
    # regions or more, most turned down at once, and a future per region (a thread
    # pool's) cost more than judging them (a 12 MP photo of a 6-tile board, searched
    # from its outline, read in 0.90x the time: ab_code_stop79_regions_12mp.json)
    todo = iter(range(len(regions)))
    lock = threading.Lock()
    failed: list[BaseException] = []

    def work() -> None:
        while not failed:
            with lock:
                i = next(todo, None)
            if i is None:
                return
            try:
                found[i] = _board_in(cfg, regions[i], gray, integ, near, near_side)
            except BaseException as e:  # handed to the caller, raised there
                failed.append(e)

    helpers = [threading.Thread(target=work, daemon=True)
               for _ in range(min(cfg.silhouette_threads, len(regions)) - 1)]
    for t in helpers:
        t.start()
    work()
    for t in helpers:
        t.join()
    if failed:
        raise failed[0]
    return [b for b in found if b is not None]


def _board_in(cfg: ReaderConfig, pts: np.ndarray, gray: np.ndarray, integ: _Detail,
              near: np.ndarray | None, near_side: float | None) -> BoardGuess | None:
    """The board whose silhouette is the outline ``pts`` (see :func:`_boards_in`), or
    None."""
    h, w = gray.shape
    if near is not None and len(points_inside(near, pts)) < 0.5 * len(near):
        return None
    best = None
    mask: np.ndarray | None = None
    # the photo's frame, where a region runs along it, is no side of a tile: its straight
    # runs there are not the lattice's (onyx 73000092: a marble table's region, cut by
    # the frame on three sides and by a vein above, drew a lattice of right triangles)
    outline = _Outline(pts, _on_frame(cfg, pts, w, h))
    # the outline as it is; then, where that shows no board, with its perspective
    # undone (a steep view bends the three directions and spreads the tile size)
    for fit in [_fit_outline] + ([_fit_rectified] if cfg.silhouette_rectify else []):
        fits = [_as_xy(h_idx) for h_idx in fit(cfg, pts, near_side, outline)]
        if not fits:
            continue
        if mask is None:  # only for an outline that fits a lattice (most do not)
            poly = pts.round().astype(np.int32).reshape(-1, 1, 2)
            mask = np.zeros((h, w), np.uint8)
            cv2.fillPoly(mask, [poly], 255)
            bbox = cv2.boundingRect(poly)
        best = _best_fit(cfg, fits, mask, bbox, integ, False)
        if best is None and cfg.silhouette_align_frac > 0 and (
                (near is None and fit is _fit_outline)
                or (near is not None and cfg.silhouette_align_near)):
            # no fit shows its digits where tiles carry them: each is tried moved to
            # where they show best (an outline taking in side faces on one side
            # only); not where faces found by their edges already fix the board's
            # lattice (the search cost 0.3-0.5 s on a 12 MP photo of a 6-tile board,
            # for nothing; only for the rival, ``cfg.near_rival``, where the moved
            # lattice of a steep view's rectified outline read onyx dev 73000011
            # whole), nor for a fit with its perspective undone (moved, one
            # read dev 71000633, a 50 degree view, with 7 of 90 digits wrong where
            # its far half missed the tiles)
            best = _best_fit(cfg, fits, mask, bbox, integ, True)
        if best is not None:
            break
    if best is None:
        return None
    assert mask is not None
    best = _refit_weak(cfg, best, mask, bbox, integ)
    best.vertex_px = _local_vertices(best, pts, outline)
    _recount(cfg, best, mask, integ)
    return best if len(best.cells) >= cfg.silhouette_min_cells else None


def _on_frame(cfg: ReaderConfig, pts: np.ndarray, w: int, h: int) -> np.ndarray | None:
    """Which points of the outline ``pts`` (N, 2) of a ``w`` x ``h`` photo's region lie on
    its frame (within 2 px of its edge): (N,) bool, or None with
    ``cfg.silhouette_frame_sides`` (the frame's runs counted as sides)."""
    if cfg.silhouette_frame_sides:
        return None
    x, y = pts[:, 0], pts[:, 1]
    return (x <= 2) | (y <= 2) | (x >= w - 3) | (y >= h - 3)


#: the cell a seed face is taken for (see :func:`boards_from_faces`)
_SEED_CELL: Cell = (0, 0, "U")


def boards_from_faces(cfg: ReaderConfig, faces: Sequence[Triangle], gray: np.ndarray
                      ) -> list[BoardGuess]:
    """Boards grown from single faces by their digits, best first (:func:`rank`): for
    a board no seam and no outline shows (see ``cfg.face_seed_boards``).

    ``faces``: faces found by their edges in ``gray`` (the detection copy; pixels). Each
    face whose digit spots show digits seeds a lattice (the face taken as cell U(0, 0),
    its affine map carried across the photo), grown by :func:`_grow_from`; a seed inside
    a board already grown is skipped. A board is kept with at least
    ``cfg.silhouette_min_cells`` cells showing digits and ``cfg.silhouette_digit_min`` of
    digit evidence over them (:func:`digit_score`); its ``edge`` is empty and its
    vertices those of its homography. [] on the double-size copy (as
    :func:`find_boards`) or with ``cfg.face_seed_boards`` 0.
    """
    if cfg.face_seed_boards <= 0 or max(gray.shape) > cfg.detect_max_side or not faces:
        return []
    detail = _Detail(gray)
    pts = np.array([f.pts for f in faces if f.side >= cfg.min_side]).reshape(-1, 3, 2)
    if not len(pts):
        return []
    _, fd, fp, _ = _face_stats(pts, detail)
    ev = fd / (fp + 1)
    order = [int(i) for i in np.argsort(-ev, kind="stable")
             if ev[i] >= cfg.silhouette_refit_cell_min][: cfg.face_seed_boards]
    return _grown(cfg, pts[order], gray.shape, detail)


def boards_from_seeds(cfg: ReaderConfig, seeds: np.ndarray, gray: np.ndarray
                      ) -> list[BoardGuess]:
    """Boards grown (as :func:`boards_from_faces` grows them) from the faces ``seeds``
    (N, 3, 2, pixels of ``gray``, the detection copy), in that order, best first; [] on
    the double-size copy or with ``cfg.face_seed_boards`` 0."""
    if cfg.face_seed_boards <= 0 or max(gray.shape) > cfg.detect_max_side or not len(seeds):
        return []
    return _grown(cfg, seeds, gray.shape, _Detail(gray))


def slid_seeds(cfg: ReaderConfig, faces: Sequence[Triangle], gray: np.ndarray
               ) -> np.ndarray:
    """Seeds (N, 3, 2, pixels of ``gray``, the detection copy) for
    :func:`boards_from_seeds` where no face of a board was found: the shape of a face of
    ``faces`` (found by their edges in ``gray``) slid across the photo, turned and
    moved in steps (``cfg.slid_turn_deg``, ``cfg.slid_step`` of its side), kept where its
    digit spots show digits (the evidence of :func:`digit_score` for one cell, at least
    ``cfg.silhouette_refit_cell_min``), best first, none within ``cfg.slid_apart`` of a
    side of a better one, at most ``cfg.face_seed_boards``. The shapes: the largest
    well-outlined faces, one per size (see ``cfg.slid_templates``). Empty on the
    double-size copy (as :func:`find_boards`), with ``cfg.slid_templates`` 0 or no such
    face."""
    none = np.zeros((0, 3, 2))
    if cfg.slid_templates <= 0 or max(gray.shape) > cfg.detect_max_side:
        return none
    shapes: list[np.ndarray] = []
    sides: list[float] = []
    for f in sorted(faces, key=lambda t: -t.side):
        e = np.linalg.norm(f.pts - f.pts[[1, 2, 0]], axis=1)
        if (f.fill < 0.85 or e.max() > 1.5 * e.min() or f.side < cfg.silhouette_align_min_side
                or any(1 / cfg.size_tolerance < f.side / s < cfg.size_tolerance
                       for s in sides)):
            continue
        shapes.append(f.pts - f.pts.mean(axis=0))
        sides.append(f.side)
        if len(shapes) >= cfg.slid_templates:
            break
    hh, ww = gray.shape[:2]
    detail = _Detail(gray)
    out: list[np.ndarray] = []
    for rel, side in zip(shapes, sides, strict=True):
        reach = float(np.linalg.norm(rel, axis=1).max())
        step = cfg.slid_step * side
        xs, ys = np.arange(reach, ww - reach, step), np.arange(reach, hh - reach, step)
        if not len(xs) or not len(ys):
            continue
        grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
        turns = np.deg2rad(np.arange(0.0, 120.0, cfg.slid_turn_deg))
        rot = np.stack([np.stack([np.cos(turns), -np.sin(turns)], axis=1),
                        np.stack([np.sin(turns), np.cos(turns)], axis=1)], axis=1)
        shaped = np.einsum("tij,kj->tki", rot, rel)  # (turns, 3, 2)
        cand = (grid[None, :, None, :] + shaped[:, None]).reshape(-1, 3, 2)
        _, fd, fp, _ = _face_stats(cand, detail)
        out += _best_apart(cfg, cand, fd / (fp + 1), side)
    return np.array(out).reshape(-1, 3, 2) if out else none


def _best_apart(cfg: ReaderConfig, cand: np.ndarray, ev: np.ndarray, side: float | None
                ) -> list[np.ndarray]:
    """The seeds ``cand`` (N, 3, 2) whose digit evidence ``ev`` (N,) is at least
    ``cfg.silhouette_refit_cell_min``, best first, none within ``cfg.slid_apart`` of a
    side (``side`` px; None: each seed's own mean side) of a better one, at most
    ``cfg.face_seed_boards``."""
    kept: list[np.ndarray] = []
    for i in np.argsort(-ev, kind="stable"):
        if ev[i] < cfg.silhouette_refit_cell_min or len(kept) >= cfg.face_seed_boards:
            break
        c = cand[i].mean(axis=0)
        s = side if side is not None else float(
            np.linalg.norm(cand[i] - cand[i][[1, 2, 0]], axis=1).mean())
        if all(np.linalg.norm(c - k.mean(axis=0)) >= cfg.slid_apart * s for k in kept):
            kept.append(cand[i])
    return kept


def pin_seeds(cfg: ReaderConfig, gray: np.ndarray,
              box: tuple[int, int, int, int] | None = None
              ) -> tuple[np.ndarray, list[np.ndarray]]:
    """Seeds (N, 3, 2, pixels of ``gray``, the detection copy) for
    :func:`boards_from_seeds` placed by the tiles' centre pins (see ``cfg.pin_top``): a
    pin with three pins of its size around it whose centroid it is seeds its cell, each
    corner twice the pin less the pin across the opposite edge. Kept as
    :func:`slid_seeds` keeps its seeds (digits shown there, apart, best first). Also the
    pins (M, 2) of each radius and sign that placed a cell, for :func:`pinned_share`.
    Pins are sought only inside ``box`` (x0, y0, x1, y1: pixels of ``gray``) if given.
    No seed on the double-size copy (as :func:`find_boards`), with ``cfg.pin_top`` 0 or
    no such pin."""
    none = np.zeros((0, 3, 2))
    if cfg.pin_top <= 0 or max(gray.shape) > cfg.detect_max_side:
        return none, []
    x0, y0, x1, y1 = box if box is not None else (0, 0, gray.shape[1], gray.shape[0])
    if x1 - x0 < 8 or y1 - y0 < 8:
        return none, []
    g = gray[y0:y1, x0:x1].astype(np.float32)
    smooth = cv2.GaussianBlur(g, (0, 0), 0.8)
    seeds, groups = [], []
    for r in cfg.pin_radii:
        for p in _pins(cfg, g, smooth, r):
            p = p + [x0, y0]
            cells = _pin_cells(cfg, p, r)
            if len(cells):
                seeds.append(cells)
                groups.append(p)
    if not seeds:
        return none, []
    cand = np.concatenate(seeds)
    kept = _best_apart(cfg, cand, faces_showing_digits(cand, gray, 0.0)[0], None)
    return (np.array(kept).reshape(-1, 3, 2) if kept else none), groups


def pinned_share(cfg: ReaderConfig, centres: np.ndarray, side: float,
                 groups: Sequence[np.ndarray]) -> float:
    """The largest share, over the pin ``groups`` (each (M, 2): see :func:`pin_seeds`),
    of the cell centres ``centres`` (N, 2) with a pin of that group within
    ``cfg.pin_near`` of the side ``side`` (px): a board the pins placed shows them at
    its cells, a lattice a patterned cloth's spots drew does not (0 with no cell)."""
    best = 0.0
    for p in groups:
        if not len(centres) or not len(p):
            continue
        d = np.linalg.norm(centres[:, None] - p[None], axis=2).min(axis=1)
        best = max(best, float(np.mean(d <= cfg.pin_near * side)))
    return best


#: the directions a pin's surroundings are sampled in (see :func:`_pins`)
_RING = np.stack([np.cos(np.linspace(0, 2 * np.pi, 16, endpoint=False)),
                  np.sin(np.linspace(0, 2 * np.pi, 16, endpoint=False))], axis=1)


def _pins(cfg: ReaderConfig, g: np.ndarray, smooth: np.ndarray, r: float
          ) -> list[np.ndarray]:
    """The pins of radius about ``r`` px in the grey image ``g`` (float32; ``smooth``:
    it lightly smoothed): per sign (light on dark, dark on light), the points (M, 2) of
    the strongest maxima of the scale-normalised Laplacian standing off a plain face
    (see ``cfg.pin_top``) and round (its Hessian's smaller eigenvalue at least
    ``cfg.pin_round`` of its larger), strongest first."""
    sigma = r / np.sqrt(2)
    blurred = cv2.GaussianBlur(g, (0, 0), sigma)
    lap = cv2.Laplacian(blurred, cv2.CV_32F) * (sigma * sigma)
    # the spot's roundness: its Hessian's eigenvalues alike (a stroke's, one about 0)
    dxx = cv2.Sobel(blurred, cv2.CV_32F, 2, 0, ksize=3)
    dyy = cv2.Sobel(blurred, cv2.CV_32F, 0, 2, ksize=3)
    dxy = cv2.Sobel(blurred, cv2.CV_32F, 1, 1, ksize=3)
    k = max(3, int(round(3 * r)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    hh, ww = g.shape
    out = []
    for resp in (-lap, lap):
        ys, xs = disk_maxima(resp, kernel, cfg.pin_response)
        order = np.argsort(-resp[ys, xs], kind="stable")[: 4 * cfg.pin_top]
        y, x = ys[order], xs[order]
        pts = np.stack([x, y], axis=1).astype(np.float64)
        ring = np.concatenate([pts[:, None] + f * r * _RING[None] for f in (2.0, 3.0)], axis=1)
        rx = np.clip(np.round(ring[..., 0]).astype(int), 0, ww - 1)
        ry = np.clip(np.round(ring[..., 1]).astype(int), 0, hh - 1)
        around = smooth[ry, rx]
        base = np.median(around, axis=1)
        dev = np.quantile(np.abs(around - base[:, None]), cfg.pin_ring_quantile, axis=1)
        contrast = np.abs(smooth[y, x] - base)
        half = np.sqrt(((dxx[y, x] - dyy[y, x]) / 2) ** 2 + dxy[y, x] ** 2)
        mid = np.abs(dxx[y, x] + dyy[y, x]) / 2
        round_ = (mid - half) >= cfg.pin_round * (mid + half)
        plain = (contrast >= cfg.pin_contrast) & (dev < cfg.pin_ring_dev * contrast) & round_
        out.append(pts[plain][: cfg.pin_top])
    return out


def disk_maxima(resp: np.ndarray, kernel: np.ndarray, floor: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """The pixels (rows (N,), columns (N,), in row-major order) of ``resp`` (float32,
    2-D) above ``floor`` that no pixel under ``kernel`` (uint8, odd square, holding its
    centre's 3 x 3 square) centred on them exceeds: the same pixels as
    ``(resp >= cv2.dilate(resp, kernel)) & (resp > floor)``, pixels beyond the image
    ignored as dilation ignores them. Made only at the maxima of each 3 x 3 square and
    pruned ring by ring of the kernel, nearest first (a wide kernel's dilation of a whole
    photo cost 20-40 ms per radius and sign)."""
    ys, xs = np.nonzero((resp >= cv2.dilate(resp, np.ones((3, 3), np.uint8)))
                        & (resp > floor))
    c = kernel.shape[0] // 2
    oy, ox = np.nonzero(kernel)
    oy, ox = oy - c, ox - c
    far = np.maximum(np.abs(oy), np.abs(ox))
    hh, ww = resp.shape
    # most 3 x 3 maxima are beaten within a few pixels: each ring prunes the rest
    for ring in range(2, c + 1):
        if not len(ys):
            break
        at = far == ring
        yy = ys[:, None] + oy[at][None]
        xx = xs[:, None] + ox[at][None]
        inside = (yy >= 0) & (yy < hh) & (xx >= 0) & (xx < ww)
        near = resp[np.clip(yy, 0, hh - 1), np.clip(xx, 0, ww - 1)]
        keep = (~inside | (near <= resp[ys, xs][:, None])).all(axis=1)
        ys, xs = ys[keep], xs[keep]
    return ys, xs


#: every way of taking 3 of a pin's 10 nearest pins (see :func:`_pin_cells`)
_TRIPLES = np.array(list(combinations(range(10), 3)))


def _pin_cells(cfg: ReaderConfig, pins: np.ndarray, r: float) -> np.ndarray:
    """The cells (M, 3, 2) the pins ``pins`` (N, 2) of radius ``r`` px place: each pin
    the centroid (within ``cfg.pin_centroid_err`` of their mean distance) of three of its
    10 nearest pins 8 to 25 radii off, at most 1.8 times as far as each other and no two
    within 60 degrees of one another as seen from it (the tiles across its tile's three
    edges, in any affine view; the nearest such three), its cell's corners twice it less
    each of them."""
    n = len(pins)
    if n < 4:
        return np.zeros((0, 3, 2))
    d = np.linalg.norm(pins[:, None] - pins[None], axis=2)
    d[(d < 8 * r) | (d > 25 * r)] = np.inf
    near = np.argsort(d, axis=1, kind="stable")[:, :10]  # (n, 10)
    ok_near = np.take_along_axis(d, near, axis=1) < np.inf
    triples = _TRIPLES[_TRIPLES.max(axis=1) < near.shape[1]]  # (fewer pins than 11)
    tri = near[:, triples]  # (n, T, 3)
    valid = ok_near[:, triples].all(axis=2)
    v = pins[tri] - pins[:, None, None]  # (n, T, 3, 2)
    length = np.linalg.norm(v, axis=3)
    mean = np.maximum(length.mean(axis=2), 1e-9)
    err = np.linalg.norm(v.sum(axis=2), axis=2) / mean
    ang = np.sort(np.arctan2(v[..., 1], v[..., 0]), axis=2)
    gaps = np.diff(np.concatenate([ang, ang[..., :1] + 2 * np.pi], axis=2), axis=2)
    good = (valid & (length.max(axis=2) <= 1.8 * length.min(axis=2))
            & (gaps.min(axis=2) >= np.pi / 3) & (err <= cfg.pin_centroid_err))
    # the nearest such three: the six pins of its tile's size beyond them (the next
    # ring, a side off) hold two threes it is the centroid of too
    mean = np.where(good, mean, np.inf)
    best = np.argmin(mean, axis=1)
    has = np.isfinite(mean[np.arange(n), best])
    q = pins[tri[np.arange(n), best]][has]  # (M, 3, 2)
    return 2 * pins[has][:, None] - q


def _grown(cfg: ReaderConfig, seeds: np.ndarray, shape: tuple[int, ...], detail: _Detail
           ) -> list[BoardGuess]:
    """The boards grown from ``seeds`` (N, 3, 2) one by one (:func:`_grow_from`), a seed
    inside a board grown before skipped; best first (:func:`rank`)."""
    from .fit import _in_tris  # (fit imports this module only within its functions)
    out: list[BoardGuess] = []
    covered = np.zeros((0, 3, 2))  # the cells of the boards grown (image corners)
    for seed in seeds:
        if _in_tris(seed.mean(axis=0), covered).any():
            continue
        b = _grow_from(cfg, seed, shape, detail)
        if b is None:
            continue
        out.append(b)
        covered = np.concatenate([covered, _cell_px(b.homography, b.cells)[1]])
    out.sort(key=rank)
    return out


def faces_showing_digits(faces: np.ndarray, gray: np.ndarray, reach: float
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Digit evidence (as :func:`digit_score` counts it for one cell) and tone (grey
    level) of each face ``faces`` (N, 3, 2, pixels of ``gray``), each moved up to
    ``reach`` of its mean side to where its digit spots show best (0: where it lies):
    (N,), (N,) and that move (N, 2, pixels). Only the part of ``gray`` around the faces
    is smoothed (a frontier of a few cells on a 12 MP photo's detection copy)."""
    n = len(faces)
    if not n:
        return np.zeros(0), np.zeros(0), np.zeros((0, 2))
    side = float(np.linalg.norm(faces - faces[:, [1, 2, 0]], axis=2).mean())
    pad = int(np.ceil((reach + 0.2) * side)) + 2
    hh, ww = gray.shape[:2]
    x0 = int(np.clip(np.floor(faces[..., 0].min()) - pad, 0, ww))
    y0 = int(np.clip(np.floor(faces[..., 1].min()) - pad, 0, hh))
    x1 = int(np.clip(np.ceil(faces[..., 0].max()) + pad + 1, x0, ww))
    y1 = int(np.clip(np.ceil(faces[..., 1].max()) + pad + 1, y0, hh))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return np.zeros(n), np.zeros(n), np.zeros((n, 2))
    detail = _Detail(gray[y0:y1, x0:x1])
    shift, ev, tone = _best_shifts(faces - [x0, y0], side, reach, 3 if reach > 0 else 0,
                                   detail)
    return ev, tone, shift


def _seed_homography(face: np.ndarray) -> np.ndarray | None:
    """The affine map (3, 3) of table units onto the face ``face`` (3, 2) as cell U(0, 0),
    its corners taken in the order that does not mirror the lattice (lattice y up,
    image y down: a negative determinant); None for a face with no area."""
    u0 = np.array([vertex_xy(v) for v in cell_corners(_SEED_CELL)], np.float32)
    for p in (face, face[::-1]):
        a = cv2.getAffineTransform(u0, p.astype(np.float32))
        if np.linalg.det(a[:, :2]) < -1e-6:
            return np.vstack([a, [0.0, 0.0, 1.0]])
    return None


def _best_shifts(pc: np.ndarray, side: float, reach: float, k: int, detail: _Detail
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each cell ``pc`` (N, 3, 2, pixels) moved (up to ``reach`` of ``side`` px, in ``k``
    steps each way, across and down) to where its digit spots show best (the evidence of
    :func:`digit_score` for the cell alone): the shifts (N, 2), the evidence there (N,)
    and the face's tone there (N,)."""
    g = np.arange(-k, k + 1) * (reach / max(k, 1)) * side
    shifts = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)
    n = len(pc)
    moved = (pc[:, None] + shifts[None, :, None, :]).reshape(-1, 3, 2)
    tone, fd, fp, _ = _face_stats(moved, detail)
    ev = (fd / (fp + 1)).reshape(n, -1)
    j = np.argmax(ev, axis=1)
    rows = np.arange(n)
    return shifts[j], ev[rows, j], tone.reshape(n, -1)[rows, j]


def _grow_from(cfg: ReaderConfig, face: np.ndarray, shape: tuple[int, ...],
               detail: _Detail) -> BoardGuess | None:
    """The board grown from one face ``face`` (3, 2) (see :func:`boards_from_faces`):
    ring after ring, the cells next to it that lie in the photo (``shape``) and show
    digits (``cfg.silhouette_refit_cell_min``) on a face of the seed's tone join;
    after each ring the homography is refitted (RANSAC) to the corners of the cells
    joined, each moved to where its digits show best. None if the face has no area, or
    the board grows too few cells, shows too little digit evidence, or its tile size
    drifts from the seed's by more than ``cfg.silhouette_refit_size``."""
    hh, ww = shape[:2]
    h = _seed_homography(face)
    if h is None:
        return None
    side0 = _side_px(h)
    _, _, tone0 = _best_shifts(face[None], side0, cfg.face_seed_reach, 3, detail)
    cells = [_SEED_CELL]
    for _ in range(cfg.face_seed_rounds):
        have = set(cells)
        front = sorted({nb for c in cells for nb in edge_neighbours(c)} - have)
        pc = _cell_px(h, front)[1]
        inside = ((pc[..., 0].min(axis=1) >= 0) & (pc[..., 1].min(axis=1) >= 0)
                  & (pc[..., 0].max(axis=1) < ww) & (pc[..., 1].max(axis=1) < hh))
        if not inside.any():
            break
        front = [c for c, k in zip(front, inside, strict=True) if k]
        _, ev, tone = _best_shifts(pc[inside], _side_px(h), cfg.face_seed_reach, 3, detail)
        join = ((ev >= cfg.silhouette_refit_cell_min)
                & (np.abs(tone - tone0[0]) <= cfg.silhouette_tone_tol))
        if not join.any():
            break
        cells += [c for c, k in zip(front, join, strict=True) if k]
        corners, pc = _cell_px(h, cells)
        side = float(np.linalg.norm(pc - pc[:, [1, 2, 0]], axis=2).mean())
        shift, ev_all, _ = _best_shifts(pc, side, cfg.face_seed_reach, 3, detail)
        good = ev_all >= cfg.silhouette_refit_cell_min
        if good.sum() >= cfg.silhouette_min_cells:
            dst = (pc + shift[:, None, :])[good].reshape(-1, 2)
            hn, _ = cv2.findHomography(corners[good].reshape(-1, 2), dst, cv2.RANSAC,
                                       0.15 * side)
            if hn is not None and abs(np.linalg.det(hn)) > 1e-12:
                h = hn
    if abs(np.log(_side_px(h) / side0)) > np.log(cfg.silhouette_refit_size):
        return None
    shown = _showing(cfg, h, cells, detail)
    kept = [c for c, k in zip(cells, shown, strict=True) if k]
    if len(kept) < cfg.silhouette_min_cells:
        return None
    score, side = digit_score(h, kept, detail)
    if side < cfg.min_side or score < cfg.silhouette_digit_min:
        return None
    return BoardGuess(h, kept, [], score, side)
