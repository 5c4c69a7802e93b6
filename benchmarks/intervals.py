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

Each set's photos with a mistake are also counted by its kind (``lost_photos``:
:func:`vision.batch.photo_mistake`: a board refused as too blurred, no tiles found, a
board missed whole, tiles missed, false tiles, digits wrong on flagged tiles only, an
unflagged wrong digit; the first that applies), over the set and per blur band
(``lost_by_blur``: photos, photos with no mistake and those kinds per band of the blur
against the tile side): where the figure farthest from its target, photos with no
mistake, is lost.

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
from vision.batch import (
    COUNT_KEYS,
    MISTAKE_KINDS,
    TILE_KINDS,
    headline,
    intervals,
    photo_mistake,
)

#: the evaluation sets measured every stop (README, "How well it reads")
SETS = ("reader_eval", "reader_eval_fresh", "reader_eval_faults", "dev_eval", "dev2_eval",
        "dev3_eval", "dev_faults_eval", "onyx_eval", "onyx_eval_held_out")
#: sets also measured together, where each was read (the photos of both, as one set)
POOLED = {"held_out_and_fresh": ("reader_eval", "reader_eval_fresh")}


def read_rows(path: Path) -> list[dict[str, str]]:
    """The photo rows of a results CSV. Raises ``ValueError`` naming the file for a CSV
    without the columns of :data:`vision.batch.COUNT_KEYS`."""
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    missing = [k for k in COUNT_KEYS if rows and k not in rows[0]]
    if not rows or missing:
        raise ValueError(f"{path}: no photo rows with {', '.join(missing or COUNT_KEYS)}")
    return rows


def read_counts(path: Path) -> tuple[dict[str, np.ndarray], dict[str, int]]:
    """The per-photo counts (:data:`vision.batch.COUNT_KEYS`) of a results CSV, and how
    many of its photos each edition holds (empty where the CSV has no ``edition``
    column). Raises ``ValueError`` naming the file for a CSV without those columns."""
    return _counts(read_rows(path))


def _counts(rows: list[dict[str, str]]) -> tuple[dict[str, np.ndarray], dict[str, int]]:
    counts = {k: np.array([int(r[k]) for r in rows], dtype=np.int64) for k in COUNT_KEYS}
    editions = Counter(r["edition"] for r in rows if r.get("edition"))
    return counts, dict(sorted(editions.items()))


def lost_photos(rows: list[dict[str, str]]) -> dict[str, Any]:
    """The photos of results CSV ``rows`` with a mistake, by its kind
    (:data:`vision.batch.MISTAKE_KINDS`), over all and per blur band (rows without a
    ``blur`` column count as "?"), and those lost to tiles missed by how their missed
    tiles lie (``tiles_missed_how``: any in plain view, else under a hand or an object,
    else cut by the photo's edge; and how many of them report a missed tile off the
    board): ``{"lost_photos": {kind: n}, "tiles_missed_how": {...}, "lost_by_blur": {band:
    {"photos", "no_mistake", "lost_photos", "tiles_missed_how"}}}``. Raises ``ValueError`` for a
    row without the columns :func:`vision.batch.photo_mistake` needs."""
    def summary(rs: list[tuple[dict[str, str], str]]) -> dict[str, Any]:
        # each row with its kind; the photos lost to tiles missed also by how their
        # missed tiles lie: any in plain view, else any under a hand or an object, else
        # cut by the photo's edge; and those reporting one or more of them off the board
        kinds = Counter(k for _, k in rs)
        miss = [r for r, k in rs if k == "tiles_missed"]
        first = Counter(next((k for k in TILE_KINDS if int(r.get(f"missed_{k}") or 0)), "?")
                        for r in miss)
        return {"lost_photos": {k: kinds.get(k, 0) for k in MISTAKE_KINDS},
                "tiles_missed_how": {
                    **{k: first.get(k, 0) for k in TILE_KINDS},
                    "reported_off_board": sum(int(r.get("missed_off_board") or 0) > 0
                                              for r in miss)}}
    try:
        judged = [(r, photo_mistake(r)) for r in rows]
        bands: dict[str, list[tuple[dict[str, str], str]]] = {}
        for r, k in judged:
            bands.setdefault(r.get("blur") or "?", []).append((r, k))
        return {**summary(judged),
                "lost_by_blur": {b: {"photos": len(rs),
                                     "no_mistake": sum(k == "" for _, k in rs),
                                     **summary(rs)}
                                 for b, rs in sorted(bands.items())}}
    except KeyError as e:
        raise ValueError(f"a results row without the column {e}") from None


def main() -> None:
    """Read the CSVs named (or :data:`SETS`), write the figures and their intervals."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", default=list(SETS))
    ap.add_argument("--name", default="intervals", help="results file stem")
    args = ap.parse_args()
    out: dict[str, Any] = {"level": 0.95, "rounds": 2000, "seed": 0, "sets": {}}
    rows: dict[str, list[dict[str, str]]] = {}
    for name in args.names:
        try:
            rows[name] = read_rows(RESULTS / f"{name}.csv")
        except (OSError, ValueError) as e:
            raise SystemExit(f"error: {e}") from None
    for pooled, parts in POOLED.items():
        if all(p in rows for p in parts):
            rows[pooled] = [r for p in parts for r in rows[p]]
    for name, rs in rows.items():
        try:
            counts, editions = _counts(rs)
            lost = lost_photos(rs)
        except ValueError as e:
            raise SystemExit(f"error: {name}.csv: {e}") from None
        out["sets"][name] = {"photos": len(counts["label_tiles"]),
                             "figures": headline(counts),
                             "intervals_95": intervals(counts), "editions": editions,
                             **lost}
    write_json(args.name, out)
    for name, s in out["sets"].items():
        f, iv = s["figures"], s["intervals_95"]
        print(f"{name} ({s['photos']} photos): " + ", ".join(
            f"{k} {100 * f[k]:.2f} % [{100 * iv[k][0]:.2f}, {100 * iv[k][1]:.2f}]"
            for k in f))
    print(json.dumps({k: v["editions"] for k, v in out["sets"].items()}))
    for name, s in out["sets"].items():
        lost = {k: n for k, n in s["lost_photos"].items() if n}
        print(f"{name}: {sum(lost.values())} photos with a mistake: "
              + ", ".join(f"{k} {n}" for k, n in lost.items()))


if __name__ == "__main__":
    main()
