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


def _hand_mask(mask: np.ndarray, rng: np.random.Generator, p: np.ndarray, d: np.ndarray,
               size: float) -> None:
    """A hand reaching in from ``p`` along ``d``: palm, four fingers, a thumb."""
    n = np.array([-d[1], d[0]])
    palm = p + d * size * 0.35
    cv2.ellipse(mask, (int(palm[0] * 4), int(palm[1] * 4)),
                (int(size * 0.32 * 4), int(size * 0.42 * 4)),
                math.degrees(math.atan2(d[1], d[0])) + 90, 0, 360, 255, -1, cv2.LINE_AA, 2)
    wrist = p - d * size * 0.3
    cv2.line(mask, tuple(int(v * 4) for v in wrist), tuple(int(v * 4) for v in palm), 255,
             int(size * 0.5), cv2.LINE_AA, 2)
    spread = rng.uniform(0.05, 0.25)
    for k in range(4):
        off = (k - 1.5) * 0.17 * size
        base = palm + d * size * 0.3 + n * off
        ang = (k - 1.5) * spread
        dk = d * math.cos(ang) + n * math.sin(ang)
        ln = size * (0.45 if k in (1, 2) else 0.38) * rng.uniform(0.85, 1.1)
        tip = base + dk * ln
        cv2.line(mask, tuple(int(v * 4) for v in base), tuple(int(v * 4) for v in tip), 255,
                 max(2, int(size * 0.14)), cv2.LINE_AA, 2)
    side = 1 if rng.random() < 0.5 else -1
    tb = palm + n * side * size * 0.28
    tt = tb + (d * 0.5 + n * side * 0.8) * size * 0.35
    cv2.line(mask, tuple(int(v * 4) for v in tb), tuple(int(v * 4) for v in tt), 255,
             max(2, int(size * 0.16)), cv2.LINE_AA, 2)


def _mug_mask(mask: np.ndarray, p: np.ndarray, size: float) -> np.ndarray:
    cv2.circle(mask, (int(p[0] * 4), int(p[1] * 4)), int(size * 0.5 * 4), 255, -1,
               cv2.LINE_AA, 2)
    return p


def _phone_mask(mask: np.ndarray, rng: np.random.Generator, p: np.ndarray, size: float
                ) -> np.ndarray:
    box = cv2.boxPoints(((float(p[0]), float(p[1])), (size * 0.5, size), rng.uniform(0, 180)))
    cv2.fillConvexPoly(mask, (box * 4).astype(np.int32), 255, cv2.LINE_AA, 2)
    return box


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
        if kind == "hand":
            size = min(0.7 * min(w, h), tile * rng.uniform(3.0, 5.0))
            _hand_mask(mask, rng, p - d * size * 0.2, d, size)
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
        pad = int(size * 0.25) + 4
        x0, x1 = max(0, xs.min() - pad), min(w, xs.max() + pad)
        y0, y1 = max(0, ys.min() - pad), min(h, ys.max() + pad)
        m = mask[y0:y1, x0:x1].astype(np.float32) / 255.0
        # soft shadow cast on the table, offset away from the light
        off = -light[:2] / max(light[2], 0.3) * size * 0.25
        shift = np.array([[1, 0, off[0]], [0, 1, off[1]]], np.float32)
        sh = cv2.warpAffine(m, shift, (m.shape[1], m.shape[0]), borderValue=0)
        sh = soft_blur(sh, size * 0.08 + 1)
        roi = img[y0:y1, x0:x1].astype(np.float32)
        roi *= (1 - 0.45 * sh)[:, :, None]
        # the object itself, slightly out of focus (it is nearer the camera than the table)
        m = cv2.GaussianBlur(m, (0, 0), max(0.7, size * 0.01))
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        along = ((xx - p[0]) * d[0] + (yy - p[1]) * d[1]) / size
        shade = 0.75 + 0.35 * np.clip(along, 0, 1)
        if kind == "mug":
            cen = p + d * size * 0.15
            r = np.hypot(xx - cen[0], yy - cen[1]) / (size * 0.5)
            # seen from above: a rim, and coffee (or tea) inside with a bright reflection
            inner = np.clip((0.8 - r) * 40, 0, 1).astype(np.float32)
            hl = np.exp(-((xx - cen[0] + 0.2 * size) ** 2 + (yy - cen[1] + 0.2 * size) ** 2)
                        / (0.01 * size * size))
            shade = (1.0 - 0.3 * r * (1 - inner) + 0.0 * inner).astype(np.float32)
            drink = np.array((25, 50, 90) if rng.random() < 0.7 else (30, 110, 170), np.float32)
            colr = (col[None, None, :] * (1 - inner[:, :, None])
                    + inner[:, :, None] * (drink + 160 * hl[:, :, None]))
        else:
            colr = np.broadcast_to(col, roi.shape)
        obj = colr * shade[:, :, None]
        roi = roi * (1 - m[:, :, None]) + obj * m[:, :, None]
        img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
        occ[y0:y1, x0:x1] = np.maximum(occ[y0:y1, x0:x1], (m * 255).astype(np.uint8))
    return occ
