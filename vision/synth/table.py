"""Table surfaces and the flat things lying on them, drawn in table coordinates.

A texture covers a table rectangle at ``ppu`` pixels per table unit (tile side = 1);
texture pixel ``(u, v)`` is table point ``(x0 + u / ppu, y1 - v / ppu)`` (seen from above,
y up), so the renderer warps it onto the photo with one homography.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from .glyphs import glyph, glyph_text


def _noise(rng: np.random.Generator, h: int, w: int, cells_y: int, cells_x: int
           ) -> np.ndarray:
    g = rng.random((max(2, cells_y), max(2, cells_x))).astype(np.float32)
    return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)


def _grid(h: int, w: int, ppu: float) -> tuple[np.ndarray, np.ndarray]:
    """Table-unit coordinates (relative to the texture's top left) of every texel."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    return xx / ppu, yy / ppu


def _wood(rng: np.random.Generator, h: int, w: int, ppu: float, dark: bool) -> np.ndarray:
    """Planks along x (the camera turns the table anyway): fibres, growth rings, seams."""
    ext_x, ext_y = w / ppu, h / ppu
    base = np.array((45, 75, 115) if dark else (105, 160, 205), np.float32)
    base = base * rng.uniform(0.8, 1.15)
    pw = rng.uniform(1.5, 4.0)
    y = np.arange(h, dtype=np.float32)[:, None] / ppu
    plank = np.floor(y / pw)
    tone = 0.88 + 0.24 * ((np.sin(plank * 12.9898 + rng.uniform(0, 9)) * 43758.5453) % 1.0)
    # fibres: noise stretched along the grain (many cells across, few along)
    fib = _noise(rng, h, w, int(ext_y * 25) + 2, int(ext_x * 0.6) + 2)
    fib2 = _noise(rng, h, w, int(ext_y * 6) + 2, int(ext_x * 0.3) + 2)
    # growth rings: a slowly wandering stripe pattern with uneven contrast
    warp = _noise(rng, h, w, int(ext_y / 2) + 2, int(ext_x / 3) + 2)
    rings = np.sin((y * rng.uniform(1.5, 4.0) + 0.7 * warp + plank * 1.7) * 2 * math.pi)
    rings = np.clip(rings, 0, 1) ** 3 * (0.3 + 0.7 * fib2)
    seam = np.abs(y / pw - np.round(y / pw)) * pw * ppu
    seam_dark = np.clip(seam / 1.5, 0.35, 1.0)
    v = tone * (0.9 + 0.24 * (fib - 0.5) - 0.16 * rings + 0.1 * (fib2 - 0.5)) * seam_dark
    return base[None, None, :] * v[:, :, None]


def _cloth(rng: np.random.Generator, h: int, w: int, ppu: float) -> np.ndarray:
    palette = [(40, 105, 30), (110, 60, 25), (40, 40, 130), (90, 90, 90), (150, 180, 200),
               (60, 50, 45), (120, 70, 90)]
    base = np.array(palette[int(rng.integers(len(palette)))], np.float32) * rng.uniform(0.8, 1.2)
    x, y = _grid(h, w, ppu)
    k = rng.uniform(30, 60) * 2 * math.pi
    weave = 0.04 * np.sin(x * k) * np.sin(y * k)
    mottle = 0.12 * (_noise(rng, h, w, 8, 8) - 0.5)
    v = 1.0 + weave + mottle + 0.05 * (rng.random((h, w), dtype=np.float32) - 0.5)
    return base[None, None, :] * v[:, :, None]


def _paper(rng: np.random.Generator, h: int, w: int, ppu: float) -> np.ndarray:
    kraft = rng.random() < 0.3
    base = np.array((120, 165, 195) if kraft else (232, 238, 240), np.float32)
    v = 1.0 + 0.06 * (_noise(rng, h, w, 6, 6) - 0.5) + 0.04 * (
        rng.random((h, w), dtype=np.float32) - 0.5)
    return base[None, None, :] * v[:, :, None]


def _laminate(rng: np.random.Generator, h: int, w: int, ppu: float) -> np.ndarray:
    palette = [(200, 205, 210), (170, 190, 205), (90, 95, 100), (230, 230, 228),
               (140, 170, 190)]
    base = np.array(palette[int(rng.integers(len(palette)))], np.float32)
    v = 1.0 + 0.05 * (_noise(rng, h, w, 5, 5) - 0.5) + 0.05 * (
        rng.random((h, w), dtype=np.float32) - 0.5)
    return base[None, None, :] * v[:, :, None]


def _marble(rng: np.random.Generator, h: int, w: int, ppu: float) -> np.ndarray:
    """Polished stone: cloudy mottling and a few soft, branching veins."""
    x, y = _grid(h, w, ppu)
    light = rng.random() < 0.7
    base = np.array((215, 218, 220) if light else (60, 60, 64), np.float32)
    ex, ey = w / ppu, h / ppu
    # fractal turbulence (four octaves) makes the veins ragged rather than wavy lines
    turb = sum(0.5 ** o * _noise(rng, h, w, int(ey * 2 ** o / 4) + 2, int(ex * 2 ** o / 4) + 2)
               for o in range(4))
    a = rng.uniform(0, math.pi)
    s = x * math.cos(a) + y * math.sin(a)
    vein = np.abs(np.sin((s * rng.uniform(0.08, 0.2) + 0.7 * turb) * math.pi))
    strength = np.clip(_noise(rng, h, w, int(ey / 2) + 2, int(ex / 2) + 2) * 1.6 - 0.4, 0, 1)
    vein = (0.6 * np.exp(-(vein / 0.04) ** 2) + 0.4 * np.exp(-(vein / 0.15) ** 2)) * strength
    cloud = _noise(rng, h, w, int(ey / 1.5) + 2, int(ex / 1.5) + 2) - 0.5
    v = 1.0 + 0.1 * cloud + (-0.3 if light else 0.7) * vein
    return base[None, None, :] * v[:, :, None]


def _granite(rng: np.random.Generator, h: int, w: int, ppu: float) -> np.ndarray:
    base = np.array((110, 110, 115) if rng.random() < 0.5 else (60, 62, 66), np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    # speckles: a few sizes of random grains
    for cell, amp in ((0.04, 60), (0.12, 40)):
        gh, gw = max(2, int(h / (cell * ppu))), max(2, int(w / (cell * ppu)))
        g = rng.random((gh, gw)).astype(np.float32)
        g = cv2.resize(g, (w, h), interpolation=cv2.INTER_NEAREST if cell < 0.1 else
                       cv2.INTER_LINEAR)
        img += ((g - 0.5) * amp)[:, :, None]
    pink = (rng.random((h, w)) > 0.985).astype(np.float32)
    img += pink[:, :, None] * np.array([60, 50, 90], np.float32)
    return img


def _oilcloth_check(rng: np.random.Generator, h: int, w: int, ppu: float) -> np.ndarray:
    # axis-aligned: the camera turns the table anyway
    colours = [(50, 50, 190), (150, 80, 30), (50, 130, 40), (30, 130, 210)]
    c = np.array(colours[int(rng.integers(len(colours)))], np.float32)
    white = np.array((235, 238, 240), np.float32)
    p = rng.uniform(0.4, 1.2)
    su = (np.floor(np.arange(w, dtype=np.float32) / ppu / p) % 2).astype(np.float32)
    sv = (np.floor(np.arange(h, dtype=np.float32) / ppu / p) % 2).astype(np.float32)
    mix = 0.5 * (su[None, :] + sv[:, None])  # 0 white, 0.5 light, 1 full colour
    img = white[None, None, :] * (1 - mix[:, :, None]) + c[None, None, :] * mix[:, :, None]
    return img * (1.0 + 0.03 * (rng.random((h, w, 1), dtype=np.float32) - 0.5))


def _oilcloth_triangles(rng: np.random.Generator, h: int, w: int, ppu: float) -> np.ndarray:
    """A busy print with triangles and digits of its own (the reader's worst distractor)."""
    period = rng.uniform(2.0, 4.0)
    n = max(16, int(round(period * ppu)))
    cell = np.empty((n, n, 3), np.float32)
    bg = np.array([(230, 235, 240), (60, 140, 200), (200, 200, 150), (80, 60, 140)]
                  [int(rng.integers(4))], np.float32)
    cell[:] = bg
    pal = [(30, 30, 180), (180, 120, 30), (40, 160, 60), (20, 170, 230), (40, 40, 40),
           (230, 230, 230)]
    for _ in range(int(rng.integers(4, 9))):
        c = rng.uniform(0, n, 2)
        r = rng.uniform(0.15, 0.6) * ppu
        a = rng.uniform(0, 2 * math.pi)
        pts = np.array([[c[0] + r * math.cos(a + k * 2 * math.pi / 3),
                         c[1] + r * math.sin(a + k * 2 * math.pi / 3)] for k in range(3)])
        col = pal[int(rng.integers(len(pal)))]
        if rng.random() < 0.5:
            cv2.fillConvexPoly(cell, (pts * 16).astype(np.int32), col, cv2.LINE_AA, 4)
        else:
            cv2.polylines(cell, [(pts * 16).astype(np.int32)], True, col,
                          max(1, int(0.03 * ppu)), cv2.LINE_AA, 4)
    for _ in range(int(rng.integers(2, 6))):
        m = glyph("cv_sans_bold", int(rng.integers(0, 10) % 6),
                  max(4, int(rng.uniform(0.12, 0.35) * ppu)), 1.0, float(rng.uniform(0, 360)))
        x0, y0 = (int(v) for v in rng.uniform(0, n - m.shape[0], 2))
        if x0 >= 0 and y0 >= 0:
            col = np.array(pal[int(rng.integers(len(pal)))], np.float32)
            sub = cell[y0:y0 + m.shape[0], x0:x0 + m.shape[1]]
            a_ = m[:sub.shape[0], :sub.shape[1], None]
            sub[:] = sub * (1 - a_) + a_ * col
    reps = (h // n + 2, w // n + 2, 1)
    img = np.tile(cell, reps)
    oy, ox = int(rng.integers(n)), int(rng.integers(n))
    return img[oy:oy + h, ox:ox + w] * (1.0 + 0.03 * (rng.random((h, w, 1), dtype=np.float32)
                                                      - 0.5))


def table_texture(rng: np.random.Generator, name: str, h: int, w: int, ppu: float
                  ) -> np.ndarray:
    """The named surface as a float32 BGR texture (h x w) at ``ppu`` px per table unit."""
    if name == "wood_light":
        img = _wood(rng, h, w, ppu, dark=False)
    elif name == "wood_dark":
        img = _wood(rng, h, w, ppu, dark=True)
    elif name == "cloth":
        img = _cloth(rng, h, w, ppu)
    elif name == "paper":
        img = _paper(rng, h, w, ppu)
    elif name == "oilcloth_triangles":
        img = _oilcloth_triangles(rng, h, w, ppu)
    elif name == "oilcloth_check":
        img = _oilcloth_check(rng, h, w, ppu)
    elif name == "stone_marble":
        img = _marble(rng, h, w, ppu)
    elif name == "stone_granite":
        img = _granite(rng, h, w, ppu)
    elif name == "test":
        img = np.full((h, w, 3), 110.0, np.float32)
    else:
        img = _laminate(rng, h, w, ppu)
    return np.clip(img, 0, 255).astype(np.float32)


# --- flat props ---------------------------------------------------------------------------


def draw_score_pad(tex: np.ndarray, rng: np.random.Generator, centre_px: np.ndarray,
                   ppu: float) -> None:
    """A score pad: a ruled paper sheet with handwritten running totals."""
    w, h = rng.uniform(2.5, 3.5) * ppu, rng.uniform(3.5, 4.5) * ppu
    a = rng.uniform(-40, 40)
    box = cv2.boxPoints(((float(centre_px[0]), float(centre_px[1])), (w, h), a))
    cv2.fillConvexPoly(tex, (box * 16).astype(np.int32), (238, 242, 244), cv2.LINE_AA, 4)
    ex = (box[2] - box[1]) / np.linalg.norm(box[2] - box[1])  # along the lines
    ey = (box[0] - box[1]) / np.linalg.norm(box[0] - box[1])
    # ruled lines and the total column
    step = 0.3 * ppu
    n = int(np.linalg.norm(box[0] - box[1]) / step)
    for k in range(1, n):
        p = box[1] + ey * step * k
        q = p + ex * np.linalg.norm(box[2] - box[1])
        cv2.line(tex, tuple(int(v * 16) for v in p), tuple(int(v * 16) for v in q),
                 (200, 170, 150), max(1, int(0.015 * ppu)), cv2.LINE_AA, 4)
    ink = (120, 50, 20) if rng.random() < 0.6 else (30, 30, 30)
    hgt = max(4, int(0.2 * ppu))
    ang = -math.degrees(math.atan2(ex[1], ex[0]))
    for k in range(1, min(n, 12)):
        val = str(int(rng.integers(5, 400)))
        p = box[1] + ey * step * (k - 0.5) + ex * 0.3 * ppu
        for j, ch in enumerate(val):
            # handwriting: the Hershey script font has all ten digits
            _blend(tex, glyph_text("cv_italic", ch, hgt, ang), p + ex * j * hgt * 0.7, ink)


def _blend(tex: np.ndarray, m: np.ndarray, centre: np.ndarray, colour: tuple[int, ...]) -> None:
    h, w = m.shape
    x0, y0 = int(round(centre[0] - w / 2)), int(round(centre[1] - h / 2))
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(tex.shape[1], x0 + w), min(tex.shape[0], y0 + h)
    if xb <= xa or yb <= ya:
        return
    a = m[ya - y0:yb - y0, xa - x0:xb - x0, None]
    sub = tex[ya:yb, xa:xb]
    sub[:] = sub * (1 - a) + a * np.array(colour, np.float32)


def draw_pencil(tex: np.ndarray, rng: np.random.Generator, centre_px: np.ndarray,
                ppu: float) -> None:
    """A pencil or pen lying flat."""
    ln = rng.uniform(2.5, 3.5) * ppu
    a = rng.uniform(0, math.pi)
    d = np.array([math.cos(a), math.sin(a)])
    p, q = centre_px - d * ln / 2, centre_px + d * ln / 2
    col = [(40, 200, 240), (160, 60, 20), (30, 30, 30), (40, 40, 190)][int(rng.integers(4))]
    wdt = max(2, int(0.16 * ppu))
    cv2.line(tex, tuple(int(v * 16) for v in p), tuple(int(v * 16) for v in q), col, wdt,
             cv2.LINE_AA, 4)
    hl = tuple(min(255, c + 50) for c in col)
    cv2.line(tex, tuple(int(v * 16) for v in p), tuple(int(v * 16) for v in q), hl,
             max(1, wdt // 4), cv2.LINE_AA, 4)
    tip = q + d * 0.25 * ppu
    cv2.line(tex, tuple(int(v * 16) for v in q), tuple(int(v * 16) for v in tip), (120, 170, 210),
             max(1, wdt // 2), cv2.LINE_AA, 4)


def draw_coins(tex: np.ndarray, rng: np.random.Generator, centre_px: np.ndarray,
               ppu: float) -> None:
    """A few coins / game counters."""
    for _ in range(int(rng.integers(1, 5))):
        c = centre_px + rng.normal(0, 0.6 * ppu, 2)
        r = rng.uniform(0.25, 0.45) * ppu
        col = np.array([(60, 140, 190), (170, 170, 175), (40, 90, 150)][int(rng.integers(3))],
                       np.float32)
        cv2.circle(tex, (int(c[0] * 16), int(c[1] * 16)), int(r * 16),
                   tuple(float(v) for v in col), -1, cv2.LINE_AA, 4)
        cv2.circle(tex, (int(c[0] * 16), int(c[1] * 16)), int(r * 0.8 * 16),
                   tuple(float(v) * 0.8 for v in col), max(1, int(0.03 * ppu)), cv2.LINE_AA, 4)


def draw_box_lid(tex: np.ndarray, rng: np.random.Generator, centre_px: np.ndarray,
                 ppu: float) -> None:
    """The game's box lid lying flat: a coloured square with printed tiles and digits on it
    (box art is a strong distractor: tiles that are not on the table)."""
    side = rng.uniform(5.0, 7.0) * ppu
    a = rng.uniform(0, 90)
    box = cv2.boxPoints(((float(centre_px[0]), float(centre_px[1])), (side, side), a))
    bg = [(150, 70, 20), (40, 40, 170), (30, 110, 40), (20, 20, 25)][int(rng.integers(4))]
    cv2.fillConvexPoly(tex, (box * 16).astype(np.int32), bg, cv2.LINE_AA, 4)
    cv2.polylines(tex, [(box * 16).astype(np.int32)], True, (230, 230, 230),
                  max(1, int(0.05 * ppu)), cv2.LINE_AA, 4)
    c = np.asarray(centre_px, float)
    for _ in range(int(rng.integers(4, 10))):
        r = rng.uniform(0.25, 0.9) * ppu
        p = c + rng.uniform(-0.35, 0.35, 2) * side
        ang = rng.uniform(0, 2 * math.pi)
        pts = np.array([[p[0] + r * math.cos(ang + k * 2 * math.pi / 3),
                         p[1] + r * math.sin(ang + k * 2 * math.pi / 3)] for k in range(3)])
        cv2.fillConvexPoly(tex, (pts * 16).astype(np.int32), (215, 230, 238), cv2.LINE_AA, 4)
        for k in range(3):
            q = pts[k] + (p - pts[k]) * 0.55
            turn = -math.degrees(math.atan2(p[1] - q[1], p[0] - q[0])) - 90
            _blend(tex, glyph("cv_sans_bold", int(rng.integers(6)), max(3, int(r * 0.35)),
                              1.0, turn), q, (20, 20, 20))
    # the title band
    t = c + np.array([0.0, 0.32 * side])
    for j, ch in enumerate("TRIOMINOS"[: int(rng.integers(5, 10))]):
        _blend(tex, glyph_text("cv_sans_bold", ch, max(3, int(0.5 * ppu)), -a),
               t + np.array([(j - 4) * 0.4 * ppu, 0.0]), (40, 40, 200))


PROPS: dict[str, Any] = {"pencil": draw_pencil, "coins": draw_coins, "box_lid": draw_box_lid}
