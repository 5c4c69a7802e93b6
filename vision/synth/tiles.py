"""One tile's top face as a sprite: the canonical apex-up triangle with digits and pin.

Sprite frame: pixels, y down. The tile's top face is the equilateral triangle of side ``S``
px with its apex at the top; corner ``k`` (apex, bottom right, bottom left) is corner ``k``
of the tile in Reading JSON order (clockwise seen from above). The renderer maps this frame
onto the photo with one homography, so the label corners are exactly the sprite corners
:func:`sprite_corners` pushed through that same matrix.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .glyphs import glyph
from .styles import EDITIONS

SQRT3 = math.sqrt(3.0)
MARGIN = 3.0  # px of empty border around the triangle in a sprite


@dataclass(frozen=True)
class SpriteGeom:
    """Where the triangle lies in a sprite of side ``side`` px (see module doc)."""

    side: int
    width: int
    height: int
    cx: float
    cy: float

    def corners(self) -> np.ndarray:
        """(3, 2) sprite px of corners apex, bottom right, bottom left."""
        s, h = self.side, self.side * SQRT3 / 2
        return np.array([[self.cx, self.cy - 2 * h / 3], [self.cx + s / 2, self.cy + h / 3],
                         [self.cx - s / 2, self.cy + h / 3]])


def sprite_geom(side: int) -> SpriteGeom:
    """Geometry of the sprite for a triangle of ``side`` px."""
    h = side * SQRT3 / 2
    return SpriteGeom(side, int(math.ceil(side + 2 * MARGIN)), int(math.ceil(h + 2 * MARGIN)),
                      MARGIN + side / 2, MARGIN + 2 * h / 3)


def sprite_corners(side: int) -> np.ndarray:
    """(3, 2) sprite px of the three corners (apex, bottom right, bottom left)."""
    return sprite_geom(side).corners()


def _sdf_convex(px: np.ndarray, py: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """Signed distance (px, positive outside) to a convex clockwise-on-screen polygon."""
    n = len(poly)
    inside = np.full(px.shape, -np.inf, np.float32)
    outside = np.full(px.shape, np.inf, np.float32)
    centre = poly.mean(axis=0)
    for k in range(n):
        a, b = poly[k], poly[(k + 1) % n]
        e = b - a
        ln = float(np.hypot(*e))
        nrm = np.array([e[1], -e[0]]) / ln
        if np.dot(centre - a, nrm) > 0:  # make the normal point outwards
            nrm = -nrm
        inside = np.maximum(inside, (px - a[0]) * nrm[0] + (py - a[1]) * nrm[1])
        t = np.clip(((px - a[0]) * e[0] + (py - a[1]) * e[1]) / (ln * ln), 0, 1)
        outside = np.minimum(outside, np.hypot(px - a[0] - t * e[0], py - a[1] - t * e[1]))
    return np.where(inside <= 0, inside, outside).astype(np.float32)


@lru_cache(maxsize=128)
def _base(side: int, radius: float, bevel: float) -> tuple[np.ndarray, ...]:
    """Cached per-size fields: alpha, bevel depth t (0 rim..1 flat), outward normal x/y."""
    g = sprite_geom(side)
    py, px = np.mgrid[0:g.height, 0:g.width].astype(np.float32)
    c = g.corners()
    cen = c.mean(axis=0)
    r_in = side / (2 * SQRT3)
    rc = min(radius * side, 0.8 * r_in)
    inset = cen + (c - cen) * (r_in - rc) / r_in
    sdf = _sdf_convex(px, py, inset) - rc
    alpha = np.clip(0.5 - sdf, 0, 1).astype(np.float32)
    bw = max(1.0, bevel * side)
    t = np.clip(-sdf / bw, 0, 1).astype(np.float32)
    gy, gx = np.gradient(sdf)
    nn = np.hypot(gx, gy) + 1e-6
    return (alpha, t, (gx / nn).astype(np.float32), (gy / nn).astype(np.float32),
            ((px - g.cx) / side).astype(np.float32), ((py - g.cy) / side).astype(np.float32))


@dataclass
class FaceSpec:
    """Everything one tile face needs (digits in corner order, or None for a blank back)."""

    digits: tuple[int, int, int] | None
    face: np.ndarray            # BGR float (3,)
    ink: list[np.ndarray]       # BGR float (3,) per corner
    pin: np.ndarray | None      # BGR float (3,) or None
    font: str
    digit_height: float         # fraction of the side
    digit_in: float             # fraction of the tile height, from the corner
    digit_aspect: float
    digit_up: str               # "centre" or "corner"
    radius: float
    bevel: float
    wear: float
    light: np.ndarray           # unit 3-vector toward the light, in sprite axes (x, y down, z up)
    seed: int
    flat: bool = False          # test pattern: no shading at all
    view: np.ndarray | None = None  # unit 3-vector toward the camera, sprite axes
    gloss: float = 0.0          # strength of the specular highlight (glossy plastic)


# Digit turn (degrees anticlockwise as displayed) per corner, so its top points at the centre.
_TURN_CENTRE = (180.0, 60.0, -60.0)


def _q(v: np.ndarray | None, step: float) -> tuple[float, ...] | None:
    return None if v is None else tuple(round(float(x) / step) * step for x in v)


@lru_cache(maxsize=256)
def _shading(side: int, radius: float, bevel: float, light: tuple[float, ...],
             view: tuple[float, ...] | None, gloss: float, flat: bool
             ) -> tuple[np.ndarray, np.ndarray | None]:
    """Relative shading (H x W) and additive highlight (H x W or None) of a face.

    Cached: the tiles of one board share a few orientations, so light and view (in sprite
    axes) are quantised and each field is computed once per size and orientation.
    """
    _, t, nx, ny, rx, ry = _base(side, radius, bevel)
    if flat:
        return np.ones_like(t), None
    lx, ly, lz = light
    amb, dif = 0.55, 0.45
    flat_shade = amb + dif * max(lz, 0.0)
    theta = (1.0 - t) * (math.pi / 2 * 0.85)
    st, ct = np.sin(theta), np.cos(theta)
    ndotl = st * (nx * lx + ny * ly) + ct * lz
    rel = (amb + dif * np.minimum(np.maximum(ndotl, 0), 1)) / flat_shade
    # a slight gloss gradient across the face (plastic is never perfectly flat-lit)
    rel = (rel * (1.0 + 0.04 * (rx * lx + ry * ly))).astype(np.float32)
    if gloss <= 0 or view is None:
        return rel, None
    # Blinn-Phong highlight over the bevel normals: bright rims where the rounded edge
    # mirrors the light to the camera, a sheen over the face near the light's reflection
    hv = np.array(light) + np.array(view)
    hv = hv / max(float(np.linalg.norm(hv)), 1e-6)
    x = np.minimum(np.maximum(st * (nx * hv[0] + ny * hv[1]) + ct * hv[2], 0), 1)
    x8 = x * x
    x8 *= x8
    x8 *= x8
    hl = (gloss * 110.0) * (x8 * x8 * x8 * x8 * x8)  # x ** 40
    return rel, hl.astype(np.float32)


def render_face(side: int, spec: FaceSpec) -> np.ndarray:
    """Draw one face: float32 H x W x 4 (BGR in 0..255, then alpha in 0..1)."""
    g = sprite_geom(side)
    # radius and bevel on a coarse grid so the per-size fields are shared between renders
    rq = round(round(spec.radius / 0.01) * 0.01, 3)
    bq = round(round(spec.bevel / 0.005) * 0.005, 4)
    alpha = _base(side, rq, bq)[0]
    rng = np.random.default_rng(spec.seed)
    lx, ly, _ = (float(v) for v in spec.light)
    rel, hl = _shading(side, rq, bq, _q(spec.light, 0.02), _q(spec.view, 0.05),
                       round(spec.gloss, 1), spec.flat)
    out = np.empty((g.height, g.width, 4), np.float32)
    img = out[:, :, :3]
    np.multiply(rel[:, :, None], spec.face[None, None, :], out=img)
    if hl is not None:
        img += hl[:, :, None]
    out[:, :, 3] = alpha
    corners = g.corners()
    cen = np.array([g.cx, g.cy])
    if spec.wear > 0.05:
        _scuff(img, rng, side, corners, spec.wear, spec.face)
    if spec.digits is not None:
        hpx = max(3, round(spec.digit_height * side))
        for k, d in enumerate(spec.digits):
            pos = corners[k] + (cen - corners[k]) * (spec.digit_in * 1.5)  # 1.5: height->median
            turn = _TURN_CENTRE[k] + (180.0 if spec.digit_up == "corner" else 0.0)
            m = glyph(spec.font, int(d), hpx, round(spec.digit_aspect, 2), turn)
            _paste(img, m, pos, spec.ink[k], 0.96)
        if spec.pin is not None:
            _pin(img, cen, side, spec.pin, lx, ly)
    return out


def _paste(img: np.ndarray, mask: np.ndarray, centre: np.ndarray, colour: np.ndarray,
           opacity: float) -> None:
    """Alpha-blend ``colour`` through ``mask`` centred at ``centre`` (clipped to the image)."""
    h, w = mask.shape
    x0 = int(round(centre[0] - w / 2))
    y0 = int(round(centre[1] - h / 2))
    xa, ya = max(0, x0), max(0, y0)
    xb, yb = min(img.shape[1], x0 + w), min(img.shape[0], y0 + h)
    if xb <= xa or yb <= ya:
        return
    a = mask[ya - y0:yb - y0, xa - x0:xb - x0, None] * opacity
    roi = img[ya:yb, xa:xb]
    roi *= 1 - a
    roi += a * colour[None, None, :]


def _pin(img: np.ndarray, cen: np.ndarray, side: int, colour: np.ndarray, lx: float,
         ly: float) -> None:
    r = 0.04 * side
    if r < 0.6:
        return
    n = int(math.ceil(r + 2))
    x0, y0 = int(cen[0]) - n, int(cen[1]) - n
    yy, xx = np.mgrid[y0:y0 + 2 * n + 1, x0:x0 + 2 * n + 1].astype(np.float32)
    d = np.hypot(xx - cen[0], yy - cen[1])
    a = np.minimum(np.maximum(r + 0.5 - d, 0), 1)
    hl = np.exp(-(((xx - cen[0] + 0.45 * r * lx) ** 2 + (yy - cen[1] + 0.45 * r * ly) ** 2)
                  / (0.3 * r * r + 0.3)))
    rim = np.maximum(1 - np.abs(d - r * 0.85) / max(0.25 * r, 0.6), 0)
    shade = (0.75 + 0.6 * hl - 0.25 * rim)[:, :, None]
    col = np.minimum(colour[None, None, :] * shade + 60 * hl[:, :, None], 255)
    ys, xs = slice(max(0, y0), y0 + 2 * n + 1), slice(max(0, x0), x0 + 2 * n + 1)
    sub = img[ys, xs]
    aa = a[:sub.shape[0], :sub.shape[1], None]
    sub *= 1 - aa
    sub += aa * col[:sub.shape[0], :sub.shape[1]]


def _scuff(img: np.ndarray, rng: np.random.Generator, side: int, corners: np.ndarray,
           wear: float, face: np.ndarray) -> None:
    """Wear: faint scratches and grime, more with ``wear``."""
    n = int(rng.integers(0, 2 + int(6 * wear)))
    if n:
        # faint scratches: a little darker (grime in them) or lighter (scuffed gloss); drawn
        # as a signed mask (``img`` may be a view OpenCV cannot draw on)
        marks = np.zeros(img.shape[:2], np.float32)
        for _ in range(n):
            sign = -0.1 if rng.random() < 0.6 else 0.06
            p = rng.dirichlet([1, 1, 1]) @ corners
            ang = rng.uniform(0, math.pi)
            ln = rng.uniform(0.03, 0.2) * side
            q = p + ln * np.array([math.cos(ang), math.sin(ang)])
            cv2.line(marks, (int(p[0] * 16), int(p[1] * 16)), (int(q[0] * 16), int(q[1] * 16)),
                     sign, max(1, side // 120), cv2.LINE_AA, 4)
        img += marks[:, :, None] * face[None, None, :]
    if wear > 0.3:
        # grime toward the rim: darken by a low-frequency random field
        h, w_ = img.shape[:2]
        f = cv2.resize(rng.random((4, 4)).astype(np.float32), (w_, h),
                       interpolation=cv2.INTER_CUBIC)
        img *= (1.0 - 0.08 * wear * f)[:, :, None]


def edition_colours(edition: str, rng: np.random.Generator, digits: tuple[int, int, int] | None,
                    ) -> tuple[np.ndarray, list[np.ndarray], np.ndarray | None]:
    """Per-tile face colour (with the edition's jitter), ink per corner, pin colour."""
    ed = EDITIONS[edition]
    # tiles of one set differ in brightness and a little in yellowness, not in hue
    bright = rng.normal(0, ed.face_jitter)
    yellow = rng.normal(0, ed.face_jitter * 0.6)
    face = np.clip(np.array(ed.face, np.float32) + bright
                   + yellow * np.array([-1.0, -0.15, 0.25]), 0, 255).astype(np.float32)
    if ed.ink is None:
        inks = [np.array(ed.value_inks[d], np.float32) for d in (digits or (0, 0, 0))]
    else:
        inks = [np.array(ed.ink, np.float32)] * 3
    pin = None if ed.pin is None else np.array(ed.pin, np.float32)
    return face, inks, pin
