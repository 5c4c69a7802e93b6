"""Two reader settings side by side on the same photos: time, and whether they read alike.

Each photo (a fresh synthetic dev photo, rendered as :mod:`benchmarks.eval_reader`
renders them) is read under setting A and under setting B (``ReaderConfig`` fields, given
as JSON), in turn and ``--repeat`` times, the order swapped every other time, so that the
machine's drifting speed falls on both alike. For each photo the mean time of each and
whether the two readings are the same (the Reading JSON less its timings; a photo with no
tiles read is compared by its error). A change meant to make the reader faster without
changing what it reads is measured this way.

Run: ``python -m benchmarks.ab_read --b '{"silhouette_threads": 1}' --seed 71000000
--count 30 --name ab_silhouette_threads`` -> ``benchmarks/results/NAME.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import replace
from typing import Any

import numpy as np

from benchmarks.eval_reader import SIZE, _style, machine, write_json
from vision.config import DEFAULT, ReaderConfig
from vision.io import PhotoError
from vision.pipeline import default_classifier, read_array


def _read(cfg: ReaderConfig, image: np.ndarray) -> tuple[str, float]:
    """The reading of ``image`` under ``cfg`` as canonical JSON text (timings left out;
    an unreadable photo as its error) and the seconds it took."""
    t0 = time.perf_counter()
    try:
        out = read_array(image, cfg, name="x").to_json()
        out.pop("timing_ms", None)
        text = json.dumps(out, sort_keys=True)
    except PhotoError as e:
        text = f"error: {e}"
    return text, time.perf_counter() - t0


def compare(a: dict[str, Any], b: dict[str, Any], seeds: list[int], repeat: int = 2
            ) -> dict[str, Any]:
    """Read each dev photo of ``seeds`` under the settings ``a`` and ``b`` (overrides of
    the default ``ReaderConfig``), alternately, ``repeat`` times each. Returns per photo
    the mean seconds of each and whether the readings are the same, and the totals.
    Raises ``TypeError`` for a field ``ReaderConfig`` does not have."""
    from vision.synth import render
    cfg_a, cfg_b = replace(DEFAULT, **a), replace(DEFAULT, **b)
    default_classifier()
    photos = []
    for seed in seeds:
        image = render(seed, size=SIZE, style=_style(seed)).image
        times: dict[str, list[float]] = {"a": [], "b": []}
        texts: dict[str, set[str]] = {"a": set(), "b": set()}
        for k in range(repeat):
            for key, cfg in ((("a", cfg_a), ("b", cfg_b)) if k % 2 == 0
                             else (("b", cfg_b), ("a", cfg_a))):
                text, dt = _read(cfg, image)
                times[key].append(dt)
                texts[key].add(text)
        photos.append({"seed": seed, "a_s": round(statistics.mean(times["a"]), 3),
                       "b_s": round(statistics.mean(times["b"]), 3),
                       "same": texts["a"] == texts["b"] and len(texts["a"]) == 1})
    ta, tb = sum(p["a_s"] for p in photos), sum(p["b_s"] for p in photos)
    return {"a": a, "b": b, "repeat": repeat, "photos": photos,
            "a_total_s": round(ta, 2), "b_total_s": round(tb, 2),
            "b_over_a": round(tb / ta, 3) if ta else None,
            "same": sum(p["same"] for p in photos)}


def main() -> None:
    """Parse the settings and photos, compare, write the results file, print a summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="{}", help="setting A: ReaderConfig fields as JSON")
    ap.add_argument("--b", default="{}", help="setting B: ReaderConfig fields as JSON")
    ap.add_argument("--seed", type=int, default=71_000_000, help="first dev seed")
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--seeds", default="", help="these seeds (comma-separated) instead")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--name", default="ab_read")
    args = ap.parse_args()
    seeds = ([int(s) for s in args.seeds.split(",")] if args.seeds
             else list(range(args.seed, args.seed + args.count)))
    try:
        out = compare(json.loads(args.a), json.loads(args.b), seeds, args.repeat)
    except (json.JSONDecodeError, TypeError) as e:
        raise SystemExit(f"ab_read: bad setting: {e}") from None
    out["machine"] = machine()
    write_json(args.name, out)
    print(f"{len(seeds)} photos: A {out['a_total_s']} s, B {out['b_total_s']} s "
          f"(B/A {out['b_over_a']}); read the same: {out['same']} of {len(seeds)}")


if __name__ == "__main__":
    main()
