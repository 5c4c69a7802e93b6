"""Styles: every random choice of a synthetic photo, drawn from named option lists.

A *style* is a flat dict (JSON-able) recording each choice (edition, font, table, camera,
light, degradations...). :func:`sample_style` draws one from a seeded generator; any key can
be *pinned* by the caller (``{"font": "stroke_bold"}``) or *restricted* to a list of
names (``{"font": ["aileron", "cv_sans"]}``), so training can hold out whole styles
(:func:`holdout`) and evaluation can use unseen ones. Every key is drawn from the generator
whether pinned or not, so pinning one key never changes the others for a given seed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.errors import TriominosError

BGR = tuple[int, int, int]


class StyleError(TriominosError):
    """A style key or value the synthesiser does not know (names the key and the options)."""


@dataclass(frozen=True)
class Edition:
    """How a tile set looks: face/ink/pin colours (BGR), digit convention, weight."""

    face: BGR
    ink: BGR | None            # None: digits coloured by value (see ``value_inks``)
    pin: BGR | None            # None: no centre pin
    digit_up: str = "centre"   # "centre": digit tops point at the tile centre; "corner"
    face_jitter: float = 6.0   # per-tile colour variation (0-255 units)
    wear: float = 0.0          # 0 clean .. 1 scuffed
    weight: float = 1.0        # sampling weight
    value_inks: tuple[BGR, ...] = field(default=())


_VALUE_INKS: tuple[BGR, ...] = ((30, 30, 30), (40, 40, 200), (170, 90, 20),
                                (40, 140, 40), (20, 120, 230), (140, 40, 130))

#: The tile editions (name -> look). Weights favour the common ivory sets.
EDITIONS: dict[str, Edition] = {
    "classic_ivory": Edition(face=(200, 226, 236), ink=(22, 22, 24), pin=(50, 140, 190),
                             weight=4.0),
    "white_modern": Edition(face=(236, 238, 240), ink=(18, 18, 20), pin=(60, 150, 200),
                            face_jitter=4.0, weight=2.0),
    "yellowed_old": Edition(face=(150, 200, 224), ink=(35, 30, 30), pin=(40, 110, 150),
                            face_jitter=10.0, wear=0.8, weight=1.5),
    "onyx": Edition(face=(28, 27, 30), ink=(70, 175, 215), pin=(60, 160, 205),
                    face_jitter=3.0, weight=1.5),
    "value_colours": Edition(face=(222, 232, 238), ink=None, pin=(55, 145, 195),
                             value_inks=_VALUE_INKS, weight=1.5),
    "travel_grey": Edition(face=(205, 210, 212), ink=(90, 40, 20), pin=None, weight=1.0),
    "corner_print": Edition(face=(228, 232, 234), ink=(15, 15, 15), pin=(120, 130, 140),
                            digit_up="corner", weight=1.5),
}

#: Digit fonts: OpenCV Hershey fonts and Pillow's bundled scalable font (no files needed).
FONTS: tuple[str, ...] = ("stroke_bold", "stroke_regular", "stroke_condensed", "cv_sans",
                          "cv_sans_bold", "cv_italic", "aileron", "aileron_bold")

#: Table surfaces.
TABLES: tuple[str, ...] = ("wood_light", "wood_dark", "cloth", "paper", "oilcloth_triangles",
                           "oilcloth_check", "stone_marble", "stone_granite", "laminate")

#: Floors seen beyond the table's edge.
FLOORS: tuple[str, ...] = ("wood_dark", "wood_light", "stone_granite", "laminate", "cloth")

#: Lighting set-ups (colour temperature / character of the light).
LIGHTS: tuple[str, ...] = ("daylight", "warm_lamp", "fluorescent", "overcast", "flash")

#: Default photo sizes (width, height); portrait variants are drawn too.
SIZES: tuple[tuple[int, int], ...] = ((1024, 768), (1280, 960), (1600, 1200), (1920, 1080),
                                      (2016, 1512), (1440, 1080), (4032, 3024))
_SIZE_WEIGHTS = (3.0, 3.0, 3.0, 2.0, 2.0, 2.0, 0.3)

#: Keys whose values are names from a list (restrictable with a list of names).
CATEGORICAL: dict[str, tuple[str, ...]] = {
    "edition": tuple(EDITIONS), "font": FONTS, "table": TABLES, "light": LIGHTS,
    "digit_up": ("centre", "corner"), "blur": ("none", "defocus", "motion"),
    "edge_object": ("none", "mug", "phone"), "floor": FLOORS,
}


def style_names() -> dict[str, list[str]]:
    """The named options of every categorical style key (``{"font": [...], ...}``)."""
    return {k: list(v) for k, v in CATEGORICAL.items()}


def holdout(key: str, names: Sequence[str]) -> list[str]:
    """The options of ``key`` minus ``names``: pass as ``style={key: holdout(...)}``.

    Raises StyleError for an unknown key or name.
    """
    if key not in CATEGORICAL:
        raise StyleError(f"unknown style key {key!r} (known: {', '.join(CATEGORICAL)})")
    bad = [n for n in names if n not in CATEGORICAL[key]]
    if bad:
        raise StyleError(f"unknown {key} {bad[0]!r} (known: {', '.join(CATEGORICAL[key])})")
    left = [n for n in CATEGORICAL[key] if n not in names]
    if not left:
        raise StyleError(f"holding out every {key} leaves nothing to render")
    return left


#: the values a pinned number may take (the drawn ones lie well inside): beyond them the
#: scene cannot be built (a camera tilted 90 degrees sees no table) or the key means
#: nothing (a negative gap); keys not listed (angles, flags) take any finite number within
#: a million either way
PINNED_RANGES: dict[str, tuple[float, float]] = {
    "digit_height": (0.05, 0.4), "digit_in": (0.1, 0.6), "digit_aspect": (0.3, 2.0),
    "wear": (0.0, 1.0), "thickness": (0.0, 0.5), "corner_radius": (0.0, 0.25),
    "bevel": (0.0, 0.2), "gap": (0.0, 0.3), "jitter": (0.0, 5.0), "drift": (0.0, 3.0),
    "gloss": (0.0, 1.0), "n_tiles": (1, 76), "n_loose_up": (0, 20), "n_loose_down": (0, 20),
    "table_margin": (0.0, 100.0), "table_aspect": (0.2, 5.0), "table_height": (0.0, 50.0),
    "objects": (0, 10), "tilt_deg": (0.0, 80.0), "fov_deg": (10.0, 120.0),
    "board_fill": (0.05, 3.0), "tile_px": (8.0, 1000.0), "board_dx": (-1.0, 1.0),
    "board_dy": (-1.0, 1.0), "light_elevation_deg": (5.0, 90.0), "shadow": (0.0, 1.0),
    "uneven_light": (0.0, 1.0), "glare": (0.0, 1.0), "colour_cast": (0.0, 0.3),
    "vignette": (0.0, 1.0), "dof": (0.0, 1.0), "blur_px": (0.0, 20.0), "noise": (0.0, 50.0),
    "sharpen": (0.0, 2.0), "exposure": (-2.0, 2.0), "contrast": (-1.0, 2.0),
    "jpeg_quality": (1, 100)}


class _Picker:
    """Draws each style key from ``rng``, then applies the caller's pin/restriction."""

    def __init__(self, rng: np.random.Generator, pinned: Mapping[str, Any]) -> None:
        self.rng = rng
        self.pinned = dict(pinned)
        self.used: set[str] = set()

    def choice(self, key: str, options: Sequence[str], weights: Sequence[float] | None = None
               ) -> str:
        w = np.asarray(weights if weights is not None else [1.0] * len(options), float)
        u = float(self.rng.random())
        self.used.add(key)
        pin = self.pinned.get(key)
        if isinstance(pin, str):
            if pin not in options:
                raise StyleError(f"unknown {key} {pin!r} (known: {', '.join(options)})")
            return pin
        if isinstance(pin, (list, tuple)):
            bad = [p for p in pin if p not in options]
            if bad or not pin:
                raise StyleError(f"unknown {key} {bad[0] if bad else '[]'!r} "
                                 f"(known: {', '.join(options)})")
            keep = [i for i, o in enumerate(options) if o in pin]
            options = [options[i] for i in keep]
            w = w[keep]
        elif pin is not None:
            raise StyleError(f"style {key} must be a name or a list of names, not {pin!r}")
        if w.sum() <= 0:  # a restriction kept only zero-weight options: pick among them
            w = np.ones_like(w)
        cdf = np.cumsum(w) / w.sum()
        return options[int(min(np.searchsorted(cdf, u, side="right"), len(options) - 1))]

    def number(self, key: str, draw: Callable[[float, float], float]) -> float:
        """``draw(u1, u2)`` maps two uniforms to a value; a pinned number or [lo, hi] wins."""
        u1, u2 = float(self.rng.random()), float(self.rng.random())
        self.used.add(key)
        pin = self.pinned.get(key)
        if pin is None:
            return float(draw(u1, u2))
        if isinstance(pin, bool):
            return float(pin)
        if isinstance(pin, (int, float)):
            return self._in_range(key, float(pin))
        if (isinstance(pin, (list, tuple)) and len(pin) == 2
                and all(isinstance(p, (int, float)) for p in pin)):
            lo, hi = (self._in_range(key, float(p)) for p in pin)
            return lo + u1 * (hi - lo)
        raise StyleError(f"style {key} must be a number or [low, high], not {pin!r}")

    @staticmethod
    def _in_range(key: str, v: float) -> float:
        """``v``, pinned for ``key``, if finite and within :data:`PINNED_RANGES`."""
        lo, hi = PINNED_RANGES.get(key, (-1e6, 1e6))
        if not (np.isfinite(v) and lo <= v <= hi):
            raise StyleError(f"style {key} must be within {lo:g} to {hi:g}, got {v:g}")
        return v

    def flag(self, key: str, p: float) -> bool:
        return self.number(key, lambda u, _: float(u < p)) >= 0.5


def sample_style(rng: np.random.Generator, pinned: Mapping[str, Any] | None = None,
                 size: tuple[int, int] | None = None, faults: bool = False) -> dict[str, Any]:
    """Draw a complete style record. ``pinned`` fixes or restricts keys (see module doc).

    Raises StyleError for an unknown key, an unknown name, or a malformed value.
    """
    pk = _Picker(rng, pinned or {})
    s: dict[str, Any] = {}
    # --- photo size -------------------------------------------------------------------
    si = pk.choice("size_class", [f"{w}x{h}" for w, h in SIZES], _SIZE_WEIGHTS)
    portrait = pk.flag("portrait", 0.3)
    if size is None:
        w, h = (int(v) for v in si.split("x"))
        if portrait:
            w, h = h, w
    else:
        w, h = int(size[0]), int(size[1])
        if not (32 <= w <= 8192 and 32 <= h <= 8192):
            raise StyleError(f"photo size {w}x{h} out of range (32-8192 px a side)")
    s["width"], s["height"] = w, h
    # --- the set ----------------------------------------------------------------------
    names = list(EDITIONS)
    s["edition"] = pk.choice("edition", names, [EDITIONS[n].weight for n in names])
    ed = EDITIONS[s["edition"]]
    # mostly the edition's own convention; sometimes the other one (style variety)
    flip = pk.flag("digit_up_flip", 0.1)
    up = ("corner" if ed.digit_up == "centre" else "centre") if flip else ed.digit_up
    s["digit_up"] = pk.choice("digit_up", ["centre", "corner"],
                              [1.0, 0.0] if up == "centre" else [0.0, 1.0])
    s["font"] = pk.choice("font", list(FONTS), [3, 1, 1.5, 1, 2, 0.5, 1, 3])
    s["digit_height"] = round(pk.number("digit_height", lambda u, _: 0.17 + 0.06 * u), 4)
    s["digit_in"] = round(pk.number("digit_in", lambda u, _: 0.33 + 0.06 * u), 4)
    s["digit_aspect"] = round(pk.number("digit_aspect", lambda u, _: 0.8 + 0.35 * u), 3)
    s["wear"] = round(pk.number("wear", lambda u, _: min(1.0, ed.wear + 0.35 * u * u)), 3)
    # measured on the reference photo: sides about 0.15 of the edge, corners well rounded
    s["thickness"] = round(pk.number("thickness", lambda u, _: 0.09 + 0.09 * u), 4)
    s["corner_radius"] = round(pk.number("corner_radius", lambda u, _: 0.05 + 0.07 * u), 4)
    s["bevel"] = round(pk.number("bevel", lambda u, _: 0.02 + 0.04 * u), 4)
    s["gap"] = round(pk.number("gap", lambda u, _: 0.012 + 0.035 * u), 4)
    s["jitter"] = round(pk.number("jitter", lambda u, _: 0.2 + 0.8 * u), 3)
    s["drift"] = round(pk.number("drift", lambda u, _: u), 3)
    s["gloss"] = round(pk.number("gloss", lambda u, _: u), 3)
    s["pin"] = ed.pin is not None and pk.flag("pin", 0.95)
    # --- board and table ------------------------------------------------------------------
    s["n_tiles"] = int(pk.number("n_tiles", lambda u, v: 5 + round(51 * u ** 1.3)))
    if not 1 <= s["n_tiles"] <= 76:
        raise StyleError(f"n_tiles must be 1-76, got {s['n_tiles']}")
    s["faults"] = bool(faults)
    s["n_loose_up"] = int(pk.number("n_loose_up", lambda u, v: int(u * 5) if v < 0.7 else 0))
    s["n_loose_down"] = int(pk.number("n_loose_down", lambda u, v: int(u * 6) if v < 0.6 else 0))
    s["table"] = pk.choice("table", list(TABLES), [2, 1.5, 1.5, 1, 1, 0.8, 1, 0.8, 1])
    # the table ends somewhere: room around the board (table units), its shape, and the
    # floor seen beyond its edge in wide oblique photos, about 15 units (75 cm) lower
    s["table_margin"] = round(pk.number("table_margin", lambda u, _: 2 + 20 * u ** 1.5), 2)
    s["table_aspect"] = round(pk.number("table_aspect", lambda u, _: 0.6 + 0.8 * u), 3)
    s["floor"] = pk.choice("floor", list(FLOORS))
    s["table_height"] = round(pk.number("table_height", lambda u, _: 13 + 3 * u), 2)
    s["score_pad"] = pk.flag("score_pad", 0.35)
    s["hand"] = pk.flag("hand", 0.25)
    s["edge_object"] = pk.choice("edge_object", ["none", "mug", "phone"], [5, 1, 1])
    s["objects"] = int(pk.number("objects", lambda u, v: int(u * 3) if v < 0.5 else 0))
    s["rack"] = pk.flag("rack", 0.2)
    # --- camera -----------------------------------------------------------------------------
    s["tilt_deg"] = round(pk.number("tilt_deg", lambda u, _: 50.0 * u ** 0.8), 2)
    s["rotation_deg"] = round(pk.number("rotation_deg", lambda u, _: 360.0 * u), 2)
    s["roll_deg"] = round(pk.number("roll_deg", lambda u, v: (u - 0.5) * 20 if v < 0.7
                                    else (u - 0.5) * 360), 2)
    s["fov_deg"] = round(pk.number("fov_deg", lambda u, _: 35 + 40 * u), 2)
    # how much of the photo's shorter side the board spans (over 1: it runs off the frame);
    # the tile size in px follows from it and the board's size, within 20-200 px
    s["board_fill"] = round(pk.number("board_fill", lambda u, v: 0.35 + 0.75 * u
                                      if v < 0.8 else 1.1 + 0.8 * u), 3)
    tpx = pk.number("tile_px", lambda u, _: -1.0)  # pinned, or derived by the scene
    s["tile_px"] = round(tpx, 2) if tpx > 0 else None
    s["off_frame"] = pk.flag("off_frame", 0.15)
    s["board_dx"] = round(pk.number("board_dx", lambda u, _: u - 0.5), 3)
    s["board_dy"] = round(pk.number("board_dy", lambda u, _: u - 0.5), 3)
    # --- light and degradations ---------------------------------------------------------
    s["light"] = pk.choice("light", list(LIGHTS), [3, 2, 1.5, 1.5, 1])
    s["light_azimuth_deg"] = round(pk.number("light_azimuth_deg", lambda u, _: 360 * u), 1)
    s["light_elevation_deg"] = round(pk.number("light_elevation_deg",
                                               lambda u, _: 30 + 55 * u), 1)
    s["shadow"] = round(pk.number("shadow", lambda u, _: 0.15 + 0.45 * u), 3)
    s["uneven_light"] = round(pk.number("uneven_light", lambda u, _: 0.35 * u), 3)
    s["big_shadow"] = pk.flag("big_shadow", 0.2)
    s["glare"] = round(pk.number("glare", lambda u, v: 0.9 * u if v < 0.4 else 0.0), 3)
    s["colour_cast"] = round(pk.number("colour_cast", lambda u, _: 0.07 * u), 3)
    s["vignette"] = round(pk.number("vignette", lambda u, _: 0.45 * u), 3)
    # depth of field: parts of an oblique table far from the focused board go soft
    s["dof"] = round(pk.number("dof", lambda u, v: u if v < 0.4 else 0.0), 3)
    s["blur"] = pk.choice("blur", ["none", "defocus", "motion"], [3, 2, 1])
    s["blur_px"] = round(pk.number("blur_px", lambda u, _: 0.3 + 2.7 * u * u), 3)
    s["blur_angle_deg"] = round(pk.number("blur_angle_deg", lambda u, _: 180 * u), 1)
    s["noise"] = round(pk.number("noise", lambda u, _: 1.0 + 9.0 * u * u), 3)
    s["sharpen"] = round(pk.number("sharpen", lambda u, v: 0.6 * u if v < 0.5 else 0.0), 3)
    s["exposure"] = round(pk.number("exposure", lambda u, _: -0.6 + 0.9 * u), 3)
    s["contrast"] = round(pk.number("contrast", lambda u, _: -0.4 + 1.2 * u), 3)
    s["jpeg_quality"] = int(pk.number("jpeg_quality", lambda u, _: 60 + int(36 * u)))
    if not 1 <= s["jpeg_quality"] <= 100:
        raise StyleError(f"jpeg_quality must be 1-100, got {s['jpeg_quality']}")
    # test pattern (never drawn at random): flat white faces, black digits, dark sides, a flat
    # grey table, nothing else; for tests that check labels against pixels
    s["test_pattern"] = pk.flag("test_pattern", 0.0)
    if s["test_pattern"]:
        s.update(n_loose_up=0, n_loose_down=0, score_pad=False, hand=False, edge_object="none",
                 objects=0, rack=False, glare=0.0, uneven_light=0.0, big_shadow=False,
                 vignette=0.0, colour_cast=0.0, blur="none", noise=0.0, jpeg_quality=100, dof=0.0,
                 sharpen=0.0, table_margin=60.0, exposure=0.0, contrast=0.0,
                 wear=0.0, pin=False, light="daylight", shadow=0.0, bevel=0.0)
    unknown = sorted(set(pk.pinned) - pk.used)
    if unknown:
        raise StyleError(f"unknown style key {unknown[0]!r} (known: {', '.join(sorted(pk.used))})")
    return s
