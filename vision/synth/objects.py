"""Things above the table at the edge of the photo: a hand, a mug, a phone.

They are drawn in image space after the tiles (they hide what is under them) and return
an occluder mask, so labels can flag tiles they cover as ``occluded``.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from .camera import Camera, soft_blur

_SKIN = [(105, 140, 195), (90, 125, 180), (70, 100, 150), (50, 75, 115), (125, 160, 215)]


def _edge_point(rng: np.random.Generator, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """A point on the photo's border and a unit direction pointing inwards."""
    side = int(rng.integers(4))
    t = rng.uniform(0.1, 0.9)
    p, d = {0: (np.array([t * w, 0.0]), np.array([0.0, 1.0])),
            1: (np.array([w - 1.0, t * h]), np.array([-1.0, 0.0])),
            2: (np.array([t * w, h - 1.0]), np.array([0.0, -1.0])),
            3: (np.array([0.0, t * h]), np.array([1.0, 0.0]))}[side]
    a = rng.uniform(-0.5, 0.5)
    c, s = math.cos(a), math.sin(a)
    return p, np.array([c * d[0] - s * d[1], s * d[0] + c * d[1]])


def _capsule(mask: np.ndarray, a: np.ndarray, b: np.ndarray, ra: float, rb: float) -> None:
    """A tapered capsule from ``a`` (radius ``ra``) to ``b`` (radius ``rb``)."""
    e = b - a
    ln = float(np.linalg.norm(e))
    if ln < 1e-6:
        return
    n = np.array([-e[1], e[0]]) / ln
    quad = np.array([a + n * ra, b + n * rb, b - n * rb, a - n * ra])
    cv2.fillConvexPoly(mask, (quad * 4).astype(np.int32), 255, cv2.LINE_AA, 2)
    for c, r in ((a, ra), (b, rb)):
        cv2.circle(mask, (int(c[0] * 4), int(c[1] * 4)), max(1, int(r * 4)), 255, -1,
                   cv2.LINE_AA, 2)


def _hand_mask(mask: np.ndarray, rng: np.random.Generator, p: np.ndarray, d: np.ndarray,
               size: float) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """A hand reaching in from ``p`` along ``d``: forearm, palm, four jointed fingers, thumb.

    Returns the fingertips as (tip, direction, radius) for the nails.
    """
    n = np.array([-d[1], d[0]])
    palm = p + d * size * 0.35
    cv2.ellipse(mask, (int(palm[0] * 4), int(palm[1] * 4)),
                (int(size * 0.3 * 4), int(size * 0.36 * 4)),
                math.degrees(math.atan2(d[1], d[0])) + 90, 0, 360, 255, -1, cv2.LINE_AA, 2)
    _capsule(mask, p - d * size * 0.6, palm, size * 0.2, size * 0.26)
    spread = rng.uniform(0.03, 0.18)
    curl = rng.uniform(-0.25, 0.25)
    tips = []
    for k in range(4):
        off = (k - 1.5) * 0.155 * size
        base = palm + d * size * 0.27 + n * off
        ang = (k - 1.5) * spread
        r0 = size * (0.068 if k < 3 else 0.058)
        ln = size * (0.46, 0.5, 0.47, 0.37)[k] * rng.uniform(0.9, 1.05)
        pt, r = base, r0
        dk = d * math.cos(ang) + n * math.sin(ang)
        for seg in range(3):  # three phalanges, a little curl at each joint
            a2 = curl * (seg + 1) * 0.4
            dk = dk * math.cos(a2) + np.array([-dk[1], dk[0]]) * math.sin(a2)
            nxt = pt + dk * ln * (0.42, 0.33, 0.25)[seg]
            r1 = r * 0.9
            _capsule(mask, pt, nxt, r, r1)
            pt, r = nxt, r1
        tips.append((pt, dk, r))
    side = 1 if rng.random() < 0.5 else -1
    tb = palm + n * side * size * 0.24 - d * size * 0.05
    tm = tb + (d * 0.35 + n * side * 0.9) * size * 0.22
    tt = tm + (d * 0.8 + n * side * 0.4) * size * 0.2
    _capsule(mask, tb, tm, size * 0.09, size * 0.075)
    _capsule(mask, tm, tt, size * 0.075, size * 0.065)
    tdir = (tt - tm) / max(float(np.linalg.norm(tt - tm)), 1e-6)
    tips.append((tt, tdir, size * 0.065))
    return tips


def _mug_mask(mask: np.ndarray, p: np.ndarray, size: float) -> np.ndarray:
    cv2.circle(mask, (int(p[0] * 4), int(p[1] * 4)), int(size * 0.5 * 4), 255, -1,
               cv2.LINE_AA, 2)
    return p


def _phone_mask(mask: np.ndarray, rng: np.random.Generator, p: np.ndarray, size: float
                ) -> float:
    """A phone lying flat: a rectangle with rounded corners. Returns its angle (degrees)."""
    ang = float(rng.uniform(0, 180))
    r = size * 0.07
    box = cv2.boxPoints(((float(p[0]), float(p[1])), (size * 0.5 - 2 * r, size - 2 * r), ang))
    cv2.fillConvexPoly(mask, (box * 4).astype(np.int32), 255, cv2.LINE_AA, 2)
    for a, b in zip(box, np.roll(box, -1, axis=0), strict=True):
        _capsule(mask, a, b, r, r)
    return ang


def draw_occluders(img: np.ndarray, style: dict[str, Any], cam: Camera, light: np.ndarray,
                   rng: np.random.Generator) -> np.ndarray | None:
    """Draw the style's hand / edge object on ``img`` (uint8 BGR, in place).

    Returns the occluder mask (uint8, 255 = hidden) or None when nothing was drawn.
    """
    kinds = (["hand"] if style["hand"] else []) + (
        [style["edge_object"]] if style["edge_object"] != "none" else [])
    if not kinds:
        return None
    h, w = img.shape[:2]
    occ = np.zeros((h, w), np.uint8)
    tile = float(style["tile_side_px_hint"]) if "tile_side_px_hint" in style else float(
        style["tile_px"])
    for kind in kinds:
        mask = np.zeros((h, w), np.uint8)
        p, d = _edge_point(rng, w, h)
        tips: list[tuple[np.ndarray, np.ndarray, float]] = []
        if kind == "hand":
            size = min(0.7 * min(w, h), tile * rng.uniform(3.0, 5.0))
            tips = _hand_mask(mask, rng, p - d * size * 0.2, d, size)
            col = np.array(_SKIN[int(rng.integers(len(_SKIN)))], np.float32)
        elif kind == "mug":
            size = min(0.5 * min(w, h), tile * rng.uniform(1.6, 2.4))
            _mug_mask(mask, p + d * size * 0.15, size)
            col = np.array([(230, 230, 230), (40, 40, 160), (150, 90, 30), (40, 40, 40)]
                           [int(rng.integers(4))], np.float32)
        else:
            size = min(0.6 * min(w, h), tile * rng.uniform(2.5, 3.5))
            _phone_mask(mask, rng, p + d * size * 0.1, size)
            col = np.array((25, 25, 28), np.float32)
        ys, xs = np.nonzero(mask)
        if len(xs) == 0:
            continue
        # soft shadow cast on the table, offset away from the light (the region drawn must
        # hold the whole blurred, shifted shadow, or its edge shows as a straight line)
        off = -light[:2] / max(light[2], 0.3) * size * 0.25
        pad = int(np.abs(off).max() + 3 * (size * 0.08 + 1)) + 4
        x0, x1 = max(0, xs.min() - pad), min(w, xs.max() + pad)
        y0, y1 = max(0, ys.min() - pad), min(h, ys.max() + pad)
        # shade at a reduced scale k (a big hand spans a million pixels and is soft anyway),
        # then upsample colour, coverage and shadow and composite at full resolution
        rw, rh = x1 - x0, y1 - y0
        k = min(1.0, math.sqrt(250_000 / max(1, rw * rh)))
        sw, shh = max(2, round(rw * k)), max(2, round(rh * k))
        kx, ky = sw / rw, shh / rh
        ms = cv2.resize(mask[y0:y1, x0:x1], (sw, shh),
                        interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
        shift = np.array([[1, 0, off[0] * kx], [0, 1, off[1] * ky]], np.float32)
        sh = cv2.warpAffine(ms, shift, (sw, shh), borderValue=0)
        sh = soft_blur(sh, (size * 0.08 + 1) * k)
        # the object itself, slightly out of focus (it is nearer the camera than the table)
        m = cv2.GaussianBlur(ms, (0, 0), max(0.7, size * 0.01 * k))
        # full-resolution coordinates of the reduced pixels (1-D, broadcast on use)
        yy = (y0 + (np.arange(shh, dtype=np.float32) + 0.5) / ky - 0.5)[:, None]
        xx = (x0 + (np.arange(sw, dtype=np.float32) + 0.5) / kx - 0.5)[None, :]
        along = ((xx - p[0]) * d[0] + (yy - p[1]) * d[1]) / size
        shade = 0.75 + 0.35 * np.clip(along, 0, 1)
        inside = (ms > 0.5).astype(np.uint8)
        if kind == "mug":
            cen = p + d * size * 0.15
            r = np.hypot(xx - cen[0], yy - cen[1]) / (size * 0.5)
            # seen from above: a rim, and coffee (or tea) inside with a bright reflection
            inner = np.clip((0.8 - r) * 40, 0, 1).astype(np.float32)
            hl = np.exp(-((xx - cen[0] + 0.2 * size) ** 2 + (yy - cen[1] + 0.2 * size) ** 2)
                        / (0.01 * size * size))
            shade = (1.0 - 0.3 * r * (1 - inner)).astype(np.float32)
            drink = np.array((25, 50, 90) if rng.random() < 0.7 else (30, 110, 170), np.float32)
            colr = (col[None, None, :] * (1 - inner[:, :, None])
                    + inner[:, :, None] * (drink + 160 * hl[:, :, None]))
        elif kind == "hand":
            # rounded volumes: brighter along each finger's middle, darker at its sides;
            # slightly redder toward the edges (skin scatters red light)
            dist = cv2.distanceTransform(inside, cv2.DIST_L2, 5) / k
            vol = np.sqrt(np.clip(dist / max(1.0, size * 0.06), 0, 1))
            shade = shade * (0.62 + 0.38 * vol)
            mott = cv2.resize(rng.random((8, 8)).astype(np.float32), (sw, shh),
                              interpolation=cv2.INTER_CUBIC)
            colr = (col[None, None, :] * (0.95 + 0.1 * mott[:, :, None])
                    + (1 - vol[:, :, None]) * np.array([-12, -8, 10], np.float32))
            colr = np.ascontiguousarray(colr, np.float32)
            nail = tuple(float(v) for v in np.clip(col * 1.12 + [12, 12, 18], 0, 255))
            for tip, tdir, r in tips:  # nails: paler, glossy ovals at the fingertips
                c = (tip - tdir * r * 0.35 - np.array([x0, y0])) * k
                cv2.ellipse(colr, (int(c[0] * 4), int(c[1] * 4)),
                            (max(1, int(r * k * 0.55 * 4)), max(1, int(r * k * 0.75 * 4))),
                            math.degrees(math.atan2(tdir[1], tdir[0])) + 90, 0, 360, nail,
                            -1, cv2.LINE_AA, 2)
        elif kind == "phone":
            # dark glass with a soft reflection band, a lighter metal rim
            dist = cv2.distanceTransform(inside, cv2.DIST_L2, 5) / k
            rim = (dist < max(1.5, size * 0.025)).astype(np.float32)
            a = math.radians(float(rng.uniform(0, 180)))
            band = np.cos(((xx - p[0]) * math.cos(a) + (yy - p[1]) * math.sin(a))
                          / (0.25 * size))
            glass = np.array((22, 22, 26), np.float32) + 35 * np.clip(band, 0, 1)[:, :, None] ** 4
            metal = np.array([(150, 150, 155), (60, 60, 64), (120, 160, 190)]
                             [int(rng.integers(3))], np.float32)
            colr = glass * (1 - rim[:, :, None]) + metal * rim[:, :, None]
            shade = np.ones_like(shade)
        else:
            colr = np.broadcast_to(col, (shh, sw, 3))
        obj = np.ascontiguousarray(colr * shade[:, :, None], np.float32)
        up = (rw, rh)
        obj_f = cv2.resize(obj, up, interpolation=cv2.INTER_LINEAR)
        m_f = cv2.resize(m, up, interpolation=cv2.INTER_LINEAR)[:, :, None]
        sh_f = cv2.resize(sh, up, interpolation=cv2.INTER_LINEAR)[:, :, None]
        roi = img[y0:y1, x0:x1].astype(np.float32)
        roi *= 1 - 0.45 * sh_f
        roi = roi * (1 - m_f) + obj_f * m_f
        img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
        occ[y0:y1, x0:x1] = np.maximum(occ[y0:y1, x0:x1], (m_f[:, :, 0] * 255).astype(np.uint8))
    return occ
