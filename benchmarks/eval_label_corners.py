"""How well the shipped classifier reads the held-out photos where the geometry is exact.

The reader's misses are of two kinds: tiles its geometry loses (no outline, a lattice
off its cells) and digits the classifier cannot read even from the right place. This
measures the second alone. For the same photos as :mod:`benchmarks.eval_reader` (same
seeds, same held-out styles), each board tile's corners are cut at the label's exact
corner pixels (:func:`vision.crops.corner_crops`, one batched classifier call a photo)
and every digit in view is read by the classifier's first choice, with no reconstruction
(no agreement between neighbours). Per photo: its digits in view, how many are read
right, and the tiles whose digits are all right at a confidence of at least
:data:`CLEAR` (what the reader needs to accept a tile without help from its
neighbours). The share of photos whose every digit is read right so is a ceiling for
``perfect_photos`` of a reader that trusts its classifier alone; the breakdown by blur
shows where the classifier (issue 4), not the geometry, sets the limit.

Run: ``python -m benchmarks.eval_label_corners [--count 300] [--seed 70000000]`` ->
``benchmarks/results/label_corners.json`` (and ``.csv``, one row per photo).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import time
from typing import Any

import numpy as np

from benchmarks.eval_reader import RESULTS, SEED0, SIZE, _style, machine, write_json

#: a digit read at least this sure counts as clear (the reader's adopt_loose_min)
CLEAR = 0.7


def photo_at_label_corners(seed: int) -> dict[str, Any]:
    """Render photo ``seed`` and read its board tiles' digits at the label's corners.

    Returns the photo's conditions (:func:`vision.batch.conditions`), ``tiles`` (board
    tiles with every corner in view), ``digits``/``digits_right`` (corners in view of all
    required board tiles) and ``tiles_clear`` (of ``tiles``, all three digits right at
    :data:`CLEAR` or more)."""
    import cv2

    from vision.batch import _label_tiles, _readable, conditions
    from vision.classifier import digit_probs
    from vision.crops import corner_crops
    from vision.pipeline import default_classifier
    from vision.synth import render
    sample = render(seed, size=SIZE, style=_style(seed))
    label = sample.label
    gray = (sample.image if sample.image.ndim == 2
            else cv2.cvtColor(sample.image, cv2.COLOR_BGR2GRAY))
    w, h = label["width"], label["height"]
    px, truth, seen = [], [], []
    for t, (lpx, digits, optional) in zip(label["tiles"], _label_tiles(label), strict=True):
        if not optional:
            px.append(lpx)
            truth.append(digits)
            seen.append(_readable(t, lpx, w, h))
    row: dict[str, Any] = {"seed": seed, **conditions(label), "tiles": 0, "digits": 0,
                           "digits_right": 0, "tiles_clear": 0}
    if not px:
        return row
    probs = digit_probs(default_classifier().predict_raw(
        corner_crops(gray, np.stack(px)))).reshape(len(px), 3, 7)
    for p, ld, vis in zip(probs, truth, seen, strict=True):
        right = p.argmax(axis=1) == np.asarray(ld)
        row["digits"] += len(vis)
        row["digits_right"] += int(right[vis].sum())
        if len(vis) == 3:
            row["tiles"] += 1
            row["tiles_clear"] += bool(right.all() and (p.max(axis=1) >= CLEAR).all())
    return row


def shares(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Totals over photo rows (:func:`photo_at_label_corners`): digit accuracy, share of
    tiles read clearly, shares of photos with every digit right and every tile clear."""
    digits = sum(r["digits"] for r in rows)
    tiles = sum(r["tiles"] for r in rows)
    return {"photos": len(rows),
            "digit_accuracy": round(sum(r["digits_right"] for r in rows) / max(digits, 1), 5),
            "tiles_clear": round(sum(r["tiles_clear"] for r in rows) / max(tiles, 1), 5),
            "photos_all_digits_right": round(
                sum(r["digits_right"] == r["digits"] for r in rows) / max(len(rows), 1), 5),
            "photos_all_tiles_clear": round(
                sum(r["tiles_clear"] == r["tiles"] for r in rows) / max(len(rows), 1), 5)}


def main() -> None:
    """Read ``--count`` photos at their label's corners; write the results files."""
    from vision.batch import _map
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=SEED0)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--name", default="label_corners")
    args = ap.parse_args()
    t0 = time.perf_counter()
    seeds = list(range(args.seed, args.seed + args.count))
    rows = list(_map(photo_at_label_corners, seeds, args.workers))  # type: ignore[arg-type]
    bands = sorted({r.get("blur", "?") for r in rows})
    out = {**shares(rows), "clear": CLEAR, "seeds": [seeds[0], seeds[-1]],
           "by_blur": {b: shares([r for r in rows if r.get("blur", "?") == b])
                       for b in bands},
           "seconds": round(time.perf_counter() - t0, 1), "machine": machine()}
    write_json(args.name, out)
    with open(RESULTS / f"{args.name}.csv", "w", newline="", encoding="utf-8") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0]))
        wr.writeheader()
        wr.writerows(rows)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
