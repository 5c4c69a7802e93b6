"""Corner-crop data sets for the digit classifier, cut from synthesiser renders.

Numpy/OpenCV only (no torch): shared by the training recipe (:mod:`vision.train.digits`) and
the evaluation (``benchmarks/eval_classifier.py``), so both cut crops with the one geometry
of :mod:`vision.crops`.

Splits hold out whole styles so validation measures generalisation: the training renders
never use the font(s) or edition(s) in :data:`HOLDOUT`; the validation renders use only
them (one set of renders with a held-out font, one with a held-out tile edition).

Labels are indices into :data:`vision.classifier.RAW_CLASSES`: ``d`` for a digit printed
with its top toward the tile centre, ``6 + d`` for one printed toward its corner, ``12``
for "none" (table, blank tile backs, a crop that missed its digit).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np

from vision.crops import CROP_SIZE, CROP_VERSION, corner_crops

#: Styles never seen in training; validation renders use exactly these.
HOLDOUT: dict[str, list[str]] = {"font": ["cv_sans"], "edition": ["travel_grey"]}
NONE_LABEL = 12
#: Style keys pinned for every render: no hands/objects hiding labelled digits (occlusion
#: is an augmentation instead, so a label is never a digit nobody can see). With
#: ``hands`` (:func:`split_style`, :func:`build`) nothing is pinned: hands and objects
#: come as the synthesiser draws them, a digit more than half under one labelled "none"
#: (see :func:`_tile_entries`). Tried at stop 68 and not shipped (models/README.md).
_PINNED: dict[str, Any] = {"hand": False, "objects": 0}
#: The style of the "hard" renders (:func:`build` with ``hard``): small tiles, blurred
#: (0.8-2.5 px, 2-12 % of their side), where the shipped model errs most (models/README.md).
HARD_STYLE: dict[str, Any] = {"tile_px": [20.0, 50.0], "blur": ["defocus", "motion"],
                              "blur_px": [0.8, 2.5]}
#: Their seeds, apart from the other training renders' (TRAIN_SEED0 + seed + i).
HARD_SEED0 = 1_500_000
#: Render size: tile_px still spans 20-200 px at this size (see vision.synth.styles).
RENDER_SIZE = (1024, 768)
#: Seed offsets so train and validation renders never share a seed.
TRAIN_SEED0 = 1_000_000
VAL_SEED0 = 9_000_000
DEFAULT_CACHE = Path(__file__).resolve().parents[2] / "out" / "digit_cache"


@dataclass(frozen=True)
class Jitter:
    """Mis-registration of the tile corners before cutting (tile-side units / degrees).

    ``rot``: s.d. of a rotation about the tile centre; ``shift``: s.d. of a translation;
    ``corner``: s.d. of independent per-corner noise; ``scale``: s.d. of a relative scale.
    Each is clipped at 2.5 s.d.
    """

    rot: float = 0.0
    shift: float = 0.0
    corner: float = 0.0
    scale: float = 0.0


TRAIN_JITTER = Jitter(rot=2.0, shift=0.02, corner=0.01, scale=0.03)
EVAL_JITTER = Jitter(rot=1.0, shift=0.015, corner=0.008, scale=0.02)
NO_JITTER = Jitter()


def split_style(split: str, part: int = 0, hands: bool = False, hard: bool = False
                ) -> dict[str, Any]:
    """The ``style=`` restriction for a split: ``train``, or ``val`` part 0 (held-out font)
    / part 1 (held-out edition); hands and objects pinned off unless ``hands``; with
    ``hard``, also :data:`HARD_STYLE`."""
    from vision.synth.styles import holdout

    if split == "train":
        style = {k: holdout(k, v) for k, v in HOLDOUT.items()}
    elif split == "val":
        key = list(HOLDOUT)[part % len(HOLDOUT)]
        style = {key: list(HOLDOUT[key])}
    else:
        raise ValueError(f"unknown split {split!r} (train or val)")
    return {**style, **({} if hands else _PINNED), **(HARD_STYLE if hard else {})}


def jitter_corners(corners: np.ndarray, rng: np.random.Generator, j: Jitter) -> np.ndarray:
    """Perturb (N, 3, 2) tile corners by ``j`` (see :class:`Jitter`); returns a new array."""
    c = np.asarray(corners, np.float64)
    if len(c) == 0 or j == NO_JITTER:
        return c.copy()
    n = len(c)
    side = np.linalg.norm(c[:, [1, 2, 0]] - c, axis=2).mean(axis=1)  # (N,)
    cen = c.mean(axis=1, keepdims=True)

    def g(sd: float, shape: tuple[int, ...]) -> np.ndarray:
        return np.clip(rng.normal(0.0, 1.0, shape), -2.5, 2.5) * sd

    ang = np.radians(g(j.rot, (n,)))
    sc = 1.0 + g(j.scale, (n,))
    cos, sin = np.cos(ang) * sc, np.sin(ang) * sc
    rel = c - cen
    rot = np.stack([cos[:, None] * rel[..., 0] - sin[:, None] * rel[..., 1],
                    sin[:, None] * rel[..., 0] + cos[:, None] * rel[..., 1]], axis=2)
    out = cen + rot + g(j.shift, (n, 1, 2)) * side[:, None, None]
    return out + g(j.corner, (n, 3, 2)) * side[:, None, None]


def _inside(corners: np.ndarray, w: int, h: int, margin: float = 0.0) -> np.ndarray:
    """(N,) bool: every corner of each tile lies inside the image (with a margin in px)."""
    x, y = corners[..., 0], corners[..., 1]
    return np.all((x >= margin) & (y >= margin) & (x <= w - 1 - margin)
                  & (y <= h - 1 - margin), axis=1)


def _tile_entries(label: dict[str, Any], occluded: bool = False
                  ) -> Iterable[tuple[np.ndarray, list[int | None] | None]]:
    """(corner_px (3,2), digits or None for a face-down tile) for every tile in a label.

    A tile flagged ``occluded`` is left out (its label may name a digit nobody can see),
    unless ``occluded``: then each digit more than half hidden (the label's
    ``hidden_corners``) is None, to be labelled "none", and the others are kept."""
    for t in list(label.get("tiles", [])) + list(label.get("off_board", [])):
        px = t.get("corner_px")
        if px is None or ("occluded" in t.get("flags", []) and not occluded):
            continue
        digits = t.get("corners")
        if bool(t.get("face_down")) or digits is None:
            yield np.asarray(px, np.float64), None
            continue
        hidden = set(t.get("hidden_corners", [])) if occluded else set()
        yield np.asarray(px, np.float64), [None if k in hidden else int(d)
                                           for k, d in enumerate(digits)]


def crops_from_render(image: np.ndarray, label: dict[str, Any], rng: np.random.Generator,
                      jitter: Jitter = NO_JITTER, copies: int = 1,
                      negatives: bool = True, occluded: bool = False, hidden: str = "none"
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All labelled crops of one render: (M, S, S) uint8 crops, (M,) int64 labels and
    (M,) float32 tile side in px (of the tile, or pseudo-tile, each crop was cut from).

    Every face-up tile gives 3 crops per copy (each copy with its own ``jitter``), labelled
    by digit and the render's print convention; corners outside the frame are skipped.
    Tiles under a hand or an object are left out, or with ``occluded`` kept, their digits
    more than half hidden labelled "none" (:func:`_tile_entries`), or with ``hidden``
    "skip" not cut at all (only the digits in view taught).
    With ``negatives``: face-down tiles, tile-sized triangles on bare table, and tiles
    turned by 60 deg (so every crop falls between two digits) give "none" crops.
    """
    h, w = image.shape[:2]
    if hidden not in ("none", "skip"):
        raise ValueError(f"hidden must be 'none' or 'skip', not {hidden!r}")
    style = label.get("style", {})
    outward = style.get("digit_up", "centre") == "corner"
    unseen = NONE_LABEL if hidden == "none" else -1  # -1: cut, then dropped
    pos_c, pos_y, neg_c = [], [], []
    for px, digits in _tile_entries(label, occluded):
        if not np.all(np.isfinite(px)):
            continue
        if digits is None:
            neg_c.append(px)
        else:
            pos_c.append(px)
            pos_y.append([unseen if d is None else d + 6 * outward for d in digits])
    crops: list[np.ndarray] = []
    labels: list[np.ndarray] = []
    sides: list[np.ndarray] = []
    if pos_c:
        pc, py = np.stack(pos_c), np.asarray(pos_y, np.int64)
        keep = _inside(pc, w, h, margin=2.0) & _clockwise(pc)
        pc, py = pc[keep], py[keep]
        for _ in range(copies):
            if len(pc):
                jc = jitter_corners(pc, rng, jitter)
                ok = _clockwise(jc)
                y = py[ok].reshape(-1)
                cut = y >= 0
                crops.append(corner_crops(image, jc[ok])[cut])
                labels.append(y[cut])
                sides.append(np.repeat(_sides(jc[ok]), 3)[cut])
    if negatives and pos_c:
        allc = np.stack(pos_c + neg_c)
        side = float(np.median(np.linalg.norm(allc[:, 1] - allc[:, 0], axis=1)))
        negs = [np.stack(neg_c)] if neg_c else []
        # Tiles turned by 60 deg about their centre: crops land between two digits.
        k = max(1, len(pos_c) // 10)
        pick = np.stack(pos_c)[rng.choice(len(pos_c), size=min(k, len(pos_c)), replace=False)]
        negs.append(_turn(pick, 60.0 + rng.normal(0, 5, len(pick))))
        negs.append(_bare_table(allc, side, w, h, rng, max(3, len(pos_c) // 8)))
        nc = np.concatenate([n for n in negs if len(n)]) if any(len(n) for n in negs) else None
        if nc is not None:
            nc = nc[_inside(nc, w, h, margin=2.0) & _clockwise(nc)]
            nc = jitter_corners(nc, rng, jitter)
            nc = nc[_clockwise(nc)]
            if len(nc):
                crops.append(corner_crops(image, nc))
                labels.append(np.full(3 * len(nc), NONE_LABEL, np.int64))
                sides.append(np.repeat(_sides(nc), 3))
    if not crops:
        return (np.zeros((0, CROP_SIZE, CROP_SIZE), np.uint8), np.zeros(0, np.int64),
                np.zeros(0, np.float32))
    return np.concatenate(crops), np.concatenate(labels), np.concatenate(sides)


def _sides(c: np.ndarray) -> np.ndarray:
    """(N,) float32 mean edge length of (N, 3, 2) tiles."""
    return np.linalg.norm(c[:, [1, 2, 0]] - c, axis=2).mean(axis=1).astype(np.float32)


def _clockwise(c: np.ndarray) -> np.ndarray:
    a, b, d = c[:, 0], c[:, 1], c[:, 2]
    area = ((b[:, 0] - a[:, 0]) * (d[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (d[:, 0] - a[:, 0]))
    return area > 4.0


def _turn(c: np.ndarray, deg: np.ndarray) -> np.ndarray:
    cen = c.mean(axis=1, keepdims=True)
    a = np.radians(np.asarray(deg, float))[:, None]
    rel = c - cen
    return cen + np.stack([np.cos(a) * rel[..., 0] - np.sin(a) * rel[..., 1],
                           np.sin(a) * rel[..., 0] + np.cos(a) * rel[..., 1]], axis=2)


def _bare_table(tiles: np.ndarray, side: float, w: int, h: int, rng: np.random.Generator,
                n: int) -> np.ndarray:
    """Up to ``n`` tile-sized triangles whose centres are >= 1.2 sides from every tile."""
    cen = tiles.mean(axis=1)
    out = []
    for _ in range(20 * n):
        if len(out) >= n:
            break
        s = side * float(np.exp(rng.normal(0, 0.15)))
        p = rng.uniform([s, s], [w - s, h - s]) if w > 2 * s and h > 2 * s else None
        if p is None:
            break
        if len(cen) and np.min(np.linalg.norm(cen - p, axis=1)) < 1.2 * side:
            continue
        r = s / np.sqrt(3)
        a = np.radians([-90.0, 30.0, 150.0]) + rng.uniform(0, 2 * np.pi)
        out.append(np.stack([p[0] + r * np.cos(a), p[1] + r * np.sin(a)], axis=1))
    return np.stack(out) if out else np.zeros((0, 3, 2))


def _render_crops(args: tuple[int, str, int, Jitter, int, bool, str, bool]
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    seed, split, part, jitter, copies, hands, hidden, hard = args
    from vision.synth import render

    sample = render(seed, size=RENDER_SIZE, style=split_style(split, part, hands, hard))
    rng = np.random.default_rng(seed + 17)
    x, y, side = crops_from_render(sample.image, sample.label, rng, jitter, copies,
                                   occluded=hands, hidden=hidden)
    st = sample.label.get("style", {})
    blur = float(st.get("blur_px", 0.0)) if st.get("blur", "none") != "none" else 0.0
    return x, y, np.stack([side, np.full_like(side, blur)], axis=1)


def build(split: str, n_renders: int, *, jitter: Jitter, copies: int = 1, seed: int = 0,
          workers: int = 2, cache: Path | None = DEFAULT_CACHE, log: bool = True,
          hands: bool = False, hidden: str = "none", hard: bool = False
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cut the crops of ``n_renders`` renders of a split; cached as .npz under ``cache``.

    The cache is keyed by the arguments, not by the synthesiser's source (which evolves):
    a cached file cut from another synthesiser version is used with a printed note.

    Deterministic for given arguments (render seeds are ``TRAIN_SEED0``/``VAL_SEED0`` +
    ``seed`` + i; validation alternates the held-out font and edition). With ``hands``
    the renders keep their hands and objects (see :data:`_PINNED`), a digit more than half
    under one labelled "none" or, ``hidden`` "skip", not cut. With ``hard`` (training
    only) the renders are of :data:`HARD_STYLE`, seeds ``HARD_SEED0`` + ``seed`` + i.
    Returns (M, S, S) uint8 crops, (M,) int64 labels over RAW_CLASSES and (M, 2) float32
    info: the tile side in px and the render's blur in px (0: no blur) of each crop.
    """
    spec = {"split": split, "n": n_renders, "jitter": jitter.__dict__,
            "copies": copies, "seed": seed, "crop_version": CROP_VERSION,
            "holdout": HOLDOUT, "pinned": {} if hands else _PINNED, "size": RENDER_SIZE}
    if hands and hidden != "none":
        spec["hidden"] = hidden  # (the first variant's key left as it was: its cache)
    if hard:
        if split != "train":
            raise ValueError("hard renders are for training only")
        spec["hard"] = HARD_STYLE
    key = json.dumps(spec, sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    path = cache / f"{split}_{n_renders}_{digest}.npz" if cache is not None else None
    if path is not None and path.is_file():
        with np.load(path) as z:
            if "info" in z:
                if log and str(z["synth"]) != _synth_fingerprint():
                    print(f"  note: {path.name} was cut from an older synthesiser "
                          f"({z['synth']}); delete it to re-render", flush=True)
                return z["x"], z["y"], z["info"]
    base = (HARD_SEED0 if hard else TRAIN_SEED0 if split == "train" else VAL_SEED0) + seed
    jobs = [(base + i, split, i % 2, jitter, copies, hands, hidden, hard)
            for i in range(n_renders)]
    xs, ys, ss = [], [], []
    t0 = time.time()
    if workers > 1:
        with get_context("fork").Pool(workers) as pool:
            for i, (x, y, sd) in enumerate(pool.imap(_render_crops, jobs, chunksize=4)):
                xs.append(x)
                ys.append(y)
                ss.append(sd)
                if log and (i + 1) % 100 == 0:
                    print(f"  {split}: {i + 1}/{n_renders} renders, "
                          f"{sum(len(a) for a in ys)} crops, {time.time() - t0:.0f} s",
                          flush=True)
    else:
        for job in jobs:
            x, y, sd = _render_crops(job)
            xs.append(x)
            ys.append(y)
            ss.append(sd)
    x, y, info = np.concatenate(xs), np.concatenate(ys), np.concatenate(ss)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez(tmp, x=x, y=y, info=info, synth=np.str_(_synth_fingerprint()))
        tmp.replace(path)
    return x, y, info


def _synth_fingerprint() -> str:
    """Hash of the synthesiser's source, so a changed synthesiser invalidates the cache."""
    root = Path(__file__).resolve().parents[1] / "synth"
    h = hashlib.sha256()
    for p in sorted(root.glob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()[:16]
