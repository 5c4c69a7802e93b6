"""How far would the evaluation's figures move on other photos like them?

The figures of :mod:`benchmarks.eval_reader` (tile precision and recall, corner digits
right, photos with no mistake) come from 200-520 photos each, and their misses come in
lumps: a board refused as too blurred, or not found, loses all its tiles at once. So two
sets of 300 photos drawn alike can differ by several points of recall. This reads the
per-photo CSVs those runs wrote and gives, per set, each figure and its 95 % bootstrap
interval (:func:`vision.batch.intervals`: the photos resampled with replacement, 2,000
times, seeded), and how many of its photos each tile edition holds (the onyx tiles, read
worst, vary most between sets); also the held-out and fresh sets as one
(:data:`POOLED`).

Run: ``python -m benchmarks.intervals [NAME ...]`` (default: the sets in :data:`SETS`;
each NAME a ``benchmarks/results/NAME.csv``) -> ``benchmarks/results/intervals.json``
(``--name`` to write another file). Under a second.
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.eval_reader import RESULTS, write_json
from vision.batch import COUNT_KEYS, headline, intervals

#: the evaluation sets measured every stop (README, "How well it reads")
SETS = ("reader_eval", "reader_eval_fresh", "reader_eval_faults", "dev_eval", "dev2_eval",
        "dev3_eval", "dev_faults_eval", "onyx_eval", "onyx_eval_held_out")
#: sets also measured together, where each was read (the photos of both, as one set)
POOLED = {"held_out_and_fresh": ("reader_eval", "reader_eval_fresh")}


def read_counts(path: Path) -> tuple[dict[str, np.ndarray], dict[str, int]]:
    """The per-photo counts (:data:`vision.batch.COUNT_KEYS`) of a results CSV, and how
    many of its photos each edition holds (empty where the CSV has no ``edition``
    column). Raises ``ValueError`` naming the file for a CSV without those columns."""
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    missing = [k for k in COUNT_KEYS if rows and k not in rows[0]]
    if not rows or missing:
        raise ValueError(f"{path}: no photo rows with {', '.join(missing or COUNT_KEYS)}")
    counts = {k: np.array([int(r[k]) for r in rows], dtype=np.int64) for k in COUNT_KEYS}
    editions = Counter(r["edition"] for r in rows if r.get("edition"))
    return counts, dict(sorted(editions.items()))


def main() -> None:
    """Read the CSVs named (or :data:`SETS`), write the figures and their intervals."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", default=list(SETS))
    ap.add_argument("--name", default="intervals", help="results file stem")
    args = ap.parse_args()
    out: dict[str, Any] = {"level": 0.95, "rounds": 2000, "seed": 0, "sets": {}}
    read: dict[str, tuple[dict[str, np.ndarray], dict[str, int]]] = {}
    for name in args.names:
        try:
            read[name] = read_counts(RESULTS / f"{name}.csv")
        except (OSError, ValueError) as e:
            raise SystemExit(f"error: {e}") from None
    for pooled, parts in POOLED.items():
        if all(p in read for p in parts):
            counts = {k: np.concatenate([read[p][0][k] for p in parts]) for k in COUNT_KEYS}
            editions = sum((Counter(read[p][1]) for p in parts), Counter())
            read[pooled] = counts, dict(sorted(editions.items()))
    for name, (counts, editions) in read.items():
        out["sets"][name] = {"photos": len(counts["label_tiles"]),
                             "figures": headline(counts),
                             "intervals_95": intervals(counts), "editions": editions}
    write_json(args.name, out)
    for name, s in out["sets"].items():
        f, iv = s["figures"], s["intervals_95"]
        print(f"{name} ({s['photos']} photos): " + ", ".join(
            f"{k} {100 * f[k]:.2f} % [{100 * iv[k][0]:.2f}, {100 * iv[k][1]:.2f}]"
            for k in f))
    print(json.dumps({k: v["editions"] for k, v in out["sets"].items()}))


if __name__ == "__main__":
    main()
