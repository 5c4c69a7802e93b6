"""Digit glyphs for the tile faces: OpenCV Hershey fonts and Pillow's bundled font.

No font files are read: Hershey fonts are built into OpenCV and ``ImageFont.load_default``
ships a scalable font inside Pillow. Glyphs are rendered once at a reference size, cropped
to their ink, and cached per (font, digit, height, aspect, angle).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from .styles import FONTS, StyleError

_REF_H = 160  # reference glyph height (px) before scaling down

# name -> (OpenCV font id, stroke thickness as a fraction of the digit height). OpenCV 4
# draws Hershey vector fonts, OpenCV 5 its built-in sans (thickness > 1 = bold): either way
# a different face from Pillow's and the stroke fonts below.
_CV: dict[str, tuple[int, float]] = {
    "cv_sans": (cv2.FONT_HERSHEY_SIMPLEX, 0.0),
    "cv_sans_bold": (cv2.FONT_HERSHEY_DUPLEX, 0.12),
    "cv_italic": (cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 0.1),
}

# Stroke fonts drawn here (version-independent): name -> stroke width / digit height, and
# width scale. Digits are polylines in a box 0.6 wide, 1 tall (y down).
_STROKE: dict[str, tuple[float, float]] = {
    "stroke_bold": (0.17, 1.0), "stroke_regular": (0.11, 1.0),
    "stroke_condensed": (0.14, 0.75),
}


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float) -> list:
    n = max(4, int(abs(a1 - a0) / 8))
    return [(cx + rx * np.cos(np.radians(a)), cy + ry * np.sin(np.radians(a)))
            for a in np.linspace(a0, a1, n)]


def _strokes(d: int) -> list[list[tuple[float, float]]]:
    if d == 0:
        return [_arc(0.3, 0.5, 0.27, 0.47, 0, 360)]
    if d == 1:
        return [[(0.1, 0.22), (0.34, 0.03), (0.34, 0.97)]]
    if d == 2:
        top = _arc(0.3, 0.3, 0.26, 0.27, 195, 385)
        return [top + [(0.04, 0.97), (0.58, 0.97)]]
    if d == 3:
        return [_arc(0.3, 0.27, 0.24, 0.24, 205, 450) + _arc(0.3, 0.74, 0.27, 0.24, 270, 520)]
    if d == 4:
        return [[(0.44, 0.97), (0.44, 0.03), (0.03, 0.7), (0.6, 0.7)]]
    return [[(0.54, 0.03), (0.12, 0.03), (0.08, 0.47)] + _arc(0.3, 0.68, 0.27, 0.29, 215, 520)]


def _crop(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask > 8)
    return mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


@lru_cache(maxsize=256)
def _reference(font: str, text: str) -> np.ndarray:
    """The text's ink (uint8 mask) at about ``_REF_H`` px high, cropped to its ink."""
    if font not in FONTS:
        raise StyleError(f"unknown font {font!r} (known: {', '.join(FONTS)})")
    if font in _STROKE and text.isdigit() and int(text) <= 5:
        frac, wscale = _STROKE[font]
        t = frac * _REF_H
        pad = int(t) + 4
        canvas = np.zeros((_REF_H + 2 * pad, _REF_H + 2 * pad), np.uint8)
        for line in _strokes(int(text)):
            pts = np.array([[pad + t / 2 + x * wscale * (_REF_H - t), pad + t / 2 + y * (
                _REF_H - t)] for x, y in line]) * 16
            cv2.polylines(canvas, [pts.astype(np.int32)], False, 255, max(1, round(t)),
                          cv2.LINE_AA, 4)
        return _crop(canvas)
    if font in _CV or font in _STROKE:
        fid, frac = _CV.get(font, _CV["cv_sans_bold"])
        (_, th), _ = cv2.getTextSize("8", fid, 1.0, 1)
        scale = _REF_H / th
        thick = max(1, round(frac * _REF_H))
        canvas = np.zeros((_REF_H * 3, _REF_H * 3), np.uint8)
        # zeros are slashed or dotted in these faces; tiles print a plain oval: use "O",
        # narrowed to the width of an "8"
        glyph_text = "O" if text == "0" else text
        cv2.putText(canvas, glyph_text, (_REF_H // 2, int(_REF_H * 1.8)), fid, scale, 255,
                    thick, cv2.LINE_AA)
        out = _crop(canvas)
        if text == "0":
            ref8 = _reference(font, "8")
            out = cv2.resize(out, (ref8.shape[1], out.shape[0]), interpolation=cv2.INTER_AREA)
        return out
    from PIL import Image, ImageDraw, ImageFont  # Pillow ships with scikit-image

    size = int(_REF_H * 1.4)
    pil_font = ImageFont.load_default(size=size)
    stroke = round(0.045 * size) if font == "aileron_bold" else 0
    img = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(img).text((size // 3, size // 3), text, fill=255, font=pil_font,
                             stroke_width=stroke, stroke_fill=255)
    return _crop(np.asarray(img))


@lru_cache(maxsize=4096)
def glyph(font: str, digit: int, height: int, aspect: float, angle_deg: float) -> np.ndarray:
    """The digit's ink as a float32 mask (0..1), ``height`` px tall, turned ``angle_deg``
    anticlockwise (as displayed), on a square canvas whose centre is the ink's centre.

    ``aspect`` scales the width (condensed < 1 < wide). Raises StyleError for an unknown font.
    """
    return _turned(_reference(font, str(digit)), height, aspect, angle_deg)


def glyph_text(font: str, text: str, height: int, angle_deg: float) -> np.ndarray:
    """Like :func:`glyph` for any short text (score-pad handwriting), not cached."""
    return _turned(_reference(font, text), height, 1.0, angle_deg)


def _turned(ref: np.ndarray, height: int, aspect: float, angle_deg: float) -> np.ndarray:
    h = max(3, int(height))
    w = max(2, round(ref.shape[1] * h / ref.shape[0] * aspect))
    small = cv2.resize(ref, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    side = int(np.ceil(np.hypot(w, h))) + 4
    m = cv2.getRotationMatrix2D((w / 2 - 0.5, h / 2 - 0.5), angle_deg, 1.0)
    m[0, 2] += side / 2 - w / 2
    m[1, 2] += side / 2 - h / 2
    return cv2.warpAffine(small, m, (side, side), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=0)
