"""Evaluate the shipped digit classifier on held-out styles, side by side with Tesseract.

    python -m benchmarks.eval_classifier [--renders 300] [--tesseract-crops 1000]

Crops are cut (with :func:`vision.crops.corner_crops`) from synthesiser renders of the
styles the model never saw in training (see ``vision.train.digit_data.HOLDOUT``), from
render seeds disjoint from training and from the training-time validation. Two cuts:
``exact`` (true corners) and ``jittered`` (corners off by ~1.5 % of a side, ~1 deg:
what a good detector delivers). Also the hand-marked corners of the real reference photo
when ``../shared/reference`` exists.

Tesseract (Debian ``tesseract-ocr``; benchmark only, never a runtime dependency) reads a
stratified subset of the same crops in single-character mode (``--psm 10``, whitelist
0-5), upscaled 3x, Otsu-binarised to dark text on white with a white border, and is
handed each crop already turned upright (an oracle our model does not get). It runs as
one process over a list of images, so its time per crop excludes process start-up.
Skipped with a note where it is absent.

Writes ``benchmarks/results/classifier.json``, ``classifier_confusion.csv`` and
``classifier_blur_bands.jpg`` (random crops per blur band, to judge their legibility by
eye; ``ceiling`` in the JSON says what the 99.9 % target asks of the most blurred band).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.classifier import CLASSES, RAW_CLASSES, DigitClassifier, whole_batches
from vision.crops import corner_crops
from vision.train import digit_data as dd

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
REAL_PHOTO = ROOT.parent / "shared" / "reference" / "real_product_photo_12_tiles.jpg"
REAL_CORNERS = ROOT / "tests" / "data" / "classifier" / "real_photo_corners.json"
EVAL_SEED = 5000  # render seeds VAL_SEED0 + 5000 + i: disjoint from the training-time val


def collapse(raw: np.ndarray) -> np.ndarray:
    """Raw class (0-12) -> output class (digit 0-5, none 6)."""
    raw = np.asarray(raw)
    return np.where(raw == 12, 6, raw % 6)


def scores(y_raw: np.ndarray, probs: np.ndarray, inward: np.ndarray) -> dict[str, Any]:
    """Accuracy, per-class accuracy, 7x7 confusion and print-convention accuracy."""
    y = collapse(y_raw)
    pred = probs.argmax(axis=1)
    cm = np.zeros((7, 7), np.int64)
    np.add.at(cm, (y, pred), 1)
    per = {CLASSES[c]: {"n": int(cm[c].sum()),
                        "accuracy": round(float(cm[c, c] / max(cm[c].sum(), 1)), 6)}
           for c in range(7)}
    # Convention: judged on digits 1-5 (a 0 looks alike both ways up).
    dig = (y_raw < 12) & (y_raw % 6 != 0)
    true_in = y_raw[dig] < 6
    conv_ok = (inward[dig] >= 0.5) == true_in
    return {"n": int(len(y)), "accuracy": round(float(np.mean(pred == y)), 6),
            "errors": int(np.sum(pred != y)), "per_class": per,
            "convention_accuracy_digits_1_5": round(float(np.mean(conv_ok)), 6)
            if len(conv_ok) else None,
            "confusion": cm.tolist()}


SIZE_BINS = (0, 30, 50, 100, 10_000)


BLUR_BINS = (0.0, 1e-9, 0.02, 0.04, 0.08, 10.0)


def blur_over_side(info: np.ndarray) -> np.ndarray:
    """(N,) each crop's render blur in px over its tile side in px (``info`` as cut by
    :func:`vision.train.digit_data.build`: side, blur)."""
    return info[:, 1] / np.maximum(info[:, 0], 1e-6)


def _acc(ok: np.ndarray, m: np.ndarray) -> dict[str, Any]:
    return {"n": int(m.sum()), "errors": int(np.sum(~ok[m])),
            "accuracy": round(float(ok[m].mean()), 6) if m.any() else None}


def strata(y_raw: np.ndarray, probs: np.ndarray, info: np.ndarray) -> dict[str, Any]:
    """Accuracy per tile-side bucket (px), per blur bucket (blur px / tile side px) and on
    the legible subset (tile side >= 30 px and blur <= 4 % of the side)."""
    ok = probs.argmax(axis=1) == collapse(y_raw)
    side, rel = info[:, 0], blur_over_side(info)
    by_side = {}
    for lo, hi in zip(SIZE_BINS[:-1], SIZE_BINS[1:], strict=True):
        name = f"{lo}-{hi}" if hi < 10_000 else f">={lo}"
        by_side[name] = _acc(ok, (side >= lo) & (side < hi))
    by_blur = {"none": _acc(ok, rel == 0)}
    for lo, hi in zip(BLUR_BINS[1:-1], BLUR_BINS[2:], strict=True):
        by_blur[f"{lo:.2f}-{hi:.2f}" if hi < 10 else f">={lo:.2f}"] = _acc(
            ok, (rel >= lo) & (rel < hi))
    return {"by_tile_side_px": by_side, "by_blur_over_side": by_blur,
            "legible": _acc(ok, (side >= 30) & (rel <= 0.04))}


#: Blur bands of the figure and the ceiling: (low, high) blur px / tile side px.
FIGURE_BANDS = ((0.0, 0.02), (0.02, 0.04), (0.04, 0.08), (0.08, 10.0))


def ceiling(y_raw: np.ndarray, probs: np.ndarray, info: np.ndarray,
            target: float = 0.999) -> dict[str, Any]:
    """What the accuracy target asks of the most blurred crops (blur >= 4 % of the side).

    ``errors_allowed``: errors the ``target`` leaves on all crops; ``band_accuracy_needed``:
    the accuracy the blurred band would need even if every other crop were read right.
    """
    ok = probs.argmax(axis=1) == collapse(y_raw)
    rel = blur_over_side(info)
    band = rel >= 0.04
    allowed = int(np.floor((1.0 - target) * len(ok)))
    n = int(band.sum())
    return {"target": target, "crops": int(len(ok)), "errors_allowed": allowed,
            "blur_ge_0.04": {"n": n, "errors": int(np.sum(~ok[band])),
                             "share_of_all_errors": round(float(np.sum(~ok[band])
                                                                / max(np.sum(~ok), 1)), 4),
                             "accuracy": round(float(ok[band].mean()), 6) if n else None},
            "band_accuracy_needed": round(1.0 - allowed / n, 4) if n else None,
            "accuracy_elsewhere": round(float(ok[~band].mean()), 6) if (~band).any() else None}


def blur_band_figure(x: np.ndarray, y_raw: np.ndarray, info: np.ndarray, path: Path,
                     per_band: int = 14, px: int = 48, seed: int = 0) -> Path:
    """An image (JPEG or PNG, by ``path``'s suffix) of ``per_band`` random digit crops per
    :data:`FIGURE_BANDS` row, each turned upright (the corner-print convention's crops by
    180 deg), with its true digit in green, so anyone can judge by eye which bands are
    legible at all."""
    rng = np.random.default_rng(seed)
    rel = blur_over_side(info)
    rows = []
    for lo, hi in FIGURE_BANDS:
        idx = np.flatnonzero((y_raw < 12) & (rel >= lo) & (rel < hi))
        pick = rng.choice(idx, size=min(per_band, len(idx)), replace=False) if len(idx) else []
        head = np.full((px, 3 * px, 3), 255, np.uint8)
        cv2.putText(head, f"{lo:.2f}-{hi:.2f}" if hi < 10 else f">={lo:.2f}", (4, px // 2 - 4),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1, cv2.LINE_AA)
        cv2.putText(head, f"({len(idx)} crops)", (4, px // 2 + 14), cv2.FONT_HERSHEY_SIMPLEX,
                    0.38, (80, 80, 80), 1, cv2.LINE_AA)
        cells = [head]
        for i in pick:
            c = x[i] if y_raw[i] < 6 else x[i][::-1, ::-1]
            c = cv2.cvtColor(cv2.resize(c, (px, px), interpolation=cv2.INTER_CUBIC),
                             cv2.COLOR_GRAY2BGR)
            cv2.putText(c, str(int(y_raw[i]) % 6), (2, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                        (0, 170, 0), 1, cv2.LINE_AA)
            cells.append(np.pad(c, ((1, 1), (1, 1), (0, 0)), constant_values=255)[1:-1, 1:-1])
        cells += [np.full((px, px, 3), 255, np.uint8)] * (per_band + 1 - len(cells))
        rows.append(np.hstack(cells))
    cv2.imwrite(str(path), np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


def latency(clf: DigitClassifier, crops: np.ndarray, n_crops: int = 168,
            reps: int = 60) -> dict[str, float]:
    """Median time of one batched call on ``n_crops`` crops (a full 56-tile board)."""
    batch = np.resize(crops, (n_crops, *crops.shape[1:]))
    for _ in range(5):
        clf.predict(batch)
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        clf.predict(batch)
        ts.append(time.perf_counter() - t)
    med = float(np.median(ts))
    return {"batch": n_crops, "median_ms": round(med * 1e3, 3),
            "p90_ms": round(float(np.percentile(ts, 90)) * 1e3, 3),
            "per_crop_us": round(med / n_crops * 1e6, 2)}


def crop_cut_latency() -> dict[str, float]:
    """Time to cut 168 crops (56 tiles) from a 12-megapixel image."""
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, (3024, 4032, 3), dtype=np.uint8)
    r = 60 / np.sqrt(3)
    ang = np.radians([-90.0, 30.0, 150.0])
    cen = rng.uniform(200, 2800, (56, 2))
    px = np.stack([cen[:, 0:1] + r * np.cos(ang), cen[:, 1:2] + r * np.sin(ang)], axis=2)
    corner_crops(img, px)
    ts = []
    for _ in range(30):
        t = time.perf_counter()
        corner_crops(img, px)
        ts.append(time.perf_counter() - t)
    return {"tiles": 56, "image": "4032x3024", "median_ms": round(float(np.median(ts)) * 1e3, 3)}


def tesseract(crops: np.ndarray, y_raw: np.ndarray) -> dict[str, Any]:
    """Tesseract single-character OCR on upright-turned crops; accuracy and time per crop."""
    exe = shutil.which("tesseract")
    if exe is None:
        return {"skipped": "tesseract not installed (apt-get install tesseract-ocr)"}
    version = subprocess.run([exe, "--version"], capture_output=True, text=True
                             ).stdout.splitlines()[0]
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i, (c, y) in enumerate(zip(crops, y_raw, strict=True)):
            img = c[::-1, ::-1] if 6 <= y < 12 else c  # oracle: turn outward digits upright
            img = cv2.resize(img, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
            # Otsu, then dark text on white (the digit is the minority of the pixels).
            _, img = cv2.threshold(img, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
            if np.mean(img) < 127:
                img = 255 - img
            img = cv2.copyMakeBorder(img, 16, 16, 16, 16, cv2.BORDER_CONSTANT, value=255)
            f = Path(tmp) / f"c{i:05d}.png"
            cv2.imwrite(str(f), img)
            files.append(str(f))
        lst = Path(tmp) / "list.txt"
        lst.write_text("\n".join(files) + "\n")
        t = time.perf_counter()
        out = subprocess.run([exe, str(lst), "stdout", "--psm", "10", "-l", "eng",
                              "-c", "tessedit_char_whitelist=012345"],
                             capture_output=True, text=True)
        dt = time.perf_counter() - t
    pages = out.stdout.split("\f")
    if len(pages) < len(crops):
        return {"skipped": f"tesseract output unreadable ({len(pages)} pages for "
                           f"{len(crops)} crops): {out.stderr.strip()[:200]}"}
    pred = []
    for p in pages[:len(crops)]:
        s = "".join(ch for ch in p if ch in "012345")
        pred.append(int(s[0]) if len(s) == 1 else 6)  # nothing or several chars: "none"
    pred_a = np.asarray(pred)
    y = collapse(y_raw)
    dig = y < 6
    return {"version": version, "n": int(len(y)),
            "accuracy": round(float(np.mean(pred_a == y)), 6),
            "accuracy_on_digits": round(float(np.mean(pred_a[dig] == y[dig])), 6),
            "ms_per_crop": round(dt / len(crops) * 1e3, 3),
            "note": "single process over an image list, --psm 10, whitelist 0-5, crops "
                    "turned upright by the true label (oracle), 3x upscaled, Otsu-binarised "
                    "to dark-on-white; no character or several = none"}


def real_photo(clf: DigitClassifier) -> dict[str, Any]:
    """The hand-marked corners of the reference photo: per-tile reading and accuracy."""
    if not REAL_PHOTO.is_file():
        return {"skipped": f"{REAL_PHOTO} not found"}
    img = cv2.imread(str(REAL_PHOTO))
    tiles = json.loads(REAL_CORNERS.read_text())
    px = np.array([t["corner_px"] for t in tiles], float)
    full = clf.predict_full(corner_crops(img, px))
    pred = full.probs.argmax(axis=1)
    truth = np.array([d for t in tiles for d in t["corners"]])
    rows = []
    for n, t in enumerate(tiles):
        p = pred[3 * n:3 * n + 3]
        rows.append({"tile": t["tile"], "truth": t["corners"],
                     "read": [CLASSES[int(c)] for c in p],
                     "confidence": [round(float(full.probs[3 * n + k].max()), 4)
                                    for k in range(3)]})
    dig = (truth % 6 != 0)
    return {"crops": int(len(truth)), "correct": int(np.sum(pred == truth)),
            "accuracy": round(float(np.mean(pred == truth)), 6),
            "convention_inward_share_digits_1_5": round(float(np.mean(full.inward[dig] >= 0.5)),
                                                        4),
            "tiles": rows}


def write_fixture(x: np.ndarray, y: np.ndarray, info: np.ndarray, per_class: int = 4) -> Path:
    """A tiny fixed test set: ``per_class`` random held-out crops of every raw class, drawn
    from the clearly legible ones (tile side >= 50 px, blur <= 2 % of the side)."""
    rng = np.random.default_rng(13)
    ok = (info[:, 0] >= 50) & (info[:, 1] <= 0.02 * info[:, 0])
    idx = np.concatenate([rng.choice(np.flatnonzero((y == c) & ok), per_class, replace=False)
                          for c in range(13)])
    out = ROOT / "tests" / "data" / "classifier" / "heldout_crops.npz"
    np.savez_compressed(out, x=x[idx], y=y[idx])
    return out


#: Top-face corners (apex, bottom right, bottom left) hand-marked on the 106x76 sprites.
SPRITE_CORNERS = [[50.0, 12.0], [88.5, 57.0], [12.5, 57.0]]


def sprites(clf: DigitClassifier) -> dict[str, Any]:
    """The reference sprites (the edition printing digit tops toward their corners)."""
    files = sorted(REAL_PHOTO.parent.glob("sprite_*x*x*x.png"))
    if not files:
        return {"skipped": f"no sprites in {REAL_PHOTO.parent}"}
    crops, truth = [], []
    for f in files:
        img = cv2.imread(str(f), cv2.IMREAD_COLOR)
        bl, top, br = (int(c) for c in f.stem.split("_")[1].split("x")[:3])
        crops.append(corner_crops(img, np.array([SPRITE_CORNERS])))
        truth += [top, br, bl]
    full = clf.predict_full(np.concatenate(crops))
    t = np.array(truth)
    pred = full.probs.argmax(axis=1)
    dig = t != 0
    return {"crops": int(len(t)), "correct": int(np.sum(pred == t)),
            "accuracy": round(float(np.mean(pred == t)), 6),
            "inward_prob_digits_1_5": [round(float(v), 3) for v in full.inward[dig]],
            "note": "corner order apex, bottom right, bottom left per sprite; as cut by "
                    "vision.crops the apex digits come out upside down (top toward the "
                    "corner) but the bottom ones near upright: the sprites do not follow one "
                    "convention at all three corners"}


def main(argv: list[str] | None = None) -> None:
    """Run the evaluation and write the results files."""
    ap = argparse.ArgumentParser(description="digit classifier vs Tesseract, held-out styles")
    ap.add_argument("--renders", type=int, default=300)
    ap.add_argument("--tesseract-crops", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=RESULTS / "classifier.json")
    ap.add_argument("--model", type=Path, default=None,
                    help="the model to measure (default: the shipped models/digits.onnx)")
    ap.add_argument("--write-fixture", action="store_true",
                    help="also (re)write tests/data/classifier/heldout_crops.npz")
    args = ap.parse_args(argv)

    clf = DigitClassifier.load(args.model)
    res: dict[str, Any] = {
        "model": {k: clf.metadata.get(k) for k in ("val_accuracy", "seed", "params",
                                                   "crop_version", "training_data")},
        "model_bytes": clf.path.stat().st_size,
        "machine": {"cpu": platform.processor() or platform.machine(),
                    "cores": os.cpu_count(), "onnxruntime_threads": 1,
                    "load_average_at_start": [round(v, 2) for v in os.getloadavg()],
                    "python": platform.python_version()},
        "holdout": dd.HOLDOUT, "renders": args.renders,
    }
    cuts: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    for name, jit in (("exact", dd.NO_JITTER), ("jittered", dd.EVAL_JITTER)):
        t = time.time()
        x, y, info = dd.build("val", args.renders, jitter=jit, seed=EVAL_SEED,
                              workers=args.workers)
        cuts[name] = (x, y, info)
        full = clf.predict_full(x)
        res[name] = scores(y, full.probs, full.inward)
        res[name].update(strata(y, full.probs, info))
        res[name]["raw_class_counts"] = dict(zip(RAW_CLASSES,
                                                 np.bincount(y, minlength=13).tolist(),
                                                 strict=True))
        print(f"{name}: {res[name]['accuracy']:.5f} on {len(y)} crops "
              f"({res[name]['errors']} errors), convention "
              f"{res[name]['convention_accuracy_digits_1_5']}, {time.time() - t:.0f} s",
              flush=True)
    x, y, info = cuts["exact"]
    res["ceiling"] = ceiling(y, clf.predict_full(x).probs, info)
    fig = blur_band_figure(x, y, info, args.out.with_name("classifier_blur_bands.jpg"))
    print(f"ceiling: {json.dumps(res['ceiling'])}; figure {fig}", flush=True)
    if args.write_fixture:
        write_fixture(x, y, info)
    # as the reader runs it (two halves at once, vision.classifier.SPLIT_MIN), one call on
    # one thread, and one call on two of onnxruntime's own threads
    res["latency_168_split"] = latency(clf, x[:168])
    with whole_batches():
        res["latency_168"] = latency(clf, x[:168])
        res["latency_168_2threads"] = latency(DigitClassifier.load(args.model, threads=2),
                                              x[:168])
    res["crop_cut_168"] = crop_cut_latency()
    # Tesseract on a stratified subset (equal share per output class) of the exact cut.
    rng = np.random.default_rng(0)
    yc = collapse(y)
    per = max(1, args.tesseract_crops // 7)
    idx = np.concatenate([rng.choice(np.flatnonzero(yc == c), size=min(per, int(np.sum(yc == c))),
                                     replace=False) for c in range(7) if np.any(yc == c)])
    idx.sort()
    tess = tesseract(x[idx], y[idx])
    t = time.perf_counter()
    sub = clf.predict_full(x[idx])
    dt = time.perf_counter() - t
    ours = scores(y[idx], sub.probs, sub.inward)
    res["side_by_side"] = {
        "crops": int(len(idx)), "subset": "stratified: equal count per class, exact cut",
        "ours": {"accuracy": ours["accuracy"],
                 "ms_per_crop": round(dt / len(idx) * 1e3, 4)},
        "tesseract": tess,
    }
    print("side by side:", json.dumps(res["side_by_side"]), flush=True)
    res["real_photo"] = real_photo(clf)
    res["sprites"] = sprites(clf)
    if "accuracy" in res["real_photo"]:
        print(f"real photo: {res['real_photo']['correct']}/{res['real_photo']['crops']}",
              flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(res, indent=1) + "\n")
    with open(args.out.with_name("classifier_confusion.csv"), "w") as f:
        for name in ("exact", "jittered"):
            f.write(f"# {name}: rows true, columns predicted\ntrue\\pred,"
                    + ",".join(CLASSES) + "\n")
            for c, row in zip(CLASSES, res[name]["confusion"], strict=True):
                f.write(c + "," + ",".join(str(v) for v in row) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
