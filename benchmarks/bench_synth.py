"""Synthesiser speed: seconds per rendered photo, by photo size, with time per stage.

For each size, photos ``seed .. seed+n-1`` are rendered in one process (after two warm-up
renders that fill the glyph/sprite caches); the report gives median, p90 and max seconds per
photo (JPEG encode/decode included, file writing excluded) and the median milliseconds of
each stage. Styles are drawn at random, as for training.

Run: ``python -m benchmarks.bench_synth`` -> ``benchmarks/results/synth.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from vision.synth import render

RESULTS = Path(__file__).parent / "results" / "synth.json"
SIZES = ((1024, 768), (1632, 1224), (4032, 3024))
TARGET_2MP_S = 1.0


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def bench(n: int, seed: int, sizes: tuple[tuple[int, int], ...] = SIZES) -> dict[str, Any]:
    """Time ``n`` renders per size (fewer for 12 MP); returns the report dict."""
    out: dict[str, Any] = {}
    for w, h in sizes:
        k = max(3, n // 4) if w * h > 6e6 else n
        for s in range(2):
            render(10_000 + s, size=(w, h))
        secs: list[float] = []
        cpus: list[float] = []
        stages: dict[str, list[float]] = {}
        tiles: list[int] = []
        for i in range(k):
            t, c = time.perf_counter(), time.process_time()
            smp = render(seed + i, size=(w, h))
            secs.append(time.perf_counter() - t)
            cpus.append(time.process_time() - c)
            tiles.append(len(smp.label["tiles"]))
            for name, ms in smp.timing_ms.items():
                stages.setdefault(name, []).append(ms)
        out[f"{w}x{h}"] = {
            "megapixels": round(w * h / 1e6, 2), "photos": k,
            "median_s": round(statistics.median(secs), 3), "p90_s": round(_pct(secs, 0.9), 3),
            "max_s": round(max(secs), 3), "photos_per_s": round(k / sum(secs), 2),
            "cpu_median_s": round(statistics.median(cpus), 3),
            "median_tiles_in_label": statistics.median(tiles),
            "stage_median_ms": {n_: round(statistics.median(v), 1) for n_, v in stages.items()},
        }
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print a summary, write the JSON results file."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=40, help="photos per size (12 MP: n/4)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(RESULTS))
    a = ap.parse_args(argv)
    # other jobs on the machine inflate wall times: the load is recorded, and CPU seconds
    # per photo (all threads of this process) are given beside the wall seconds
    load_before = round(os.getloadavg()[0], 2)
    res = bench(a.n, a.seed)
    two = res["1632x1224"]
    report = {
        "benchmark": "synth", "what": "seconds per synthetic photo (render + JPEG), by size",
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                    "python": sys.version.split()[0],
                    "load_average_1min_before": load_before,
                    "load_average_1min_after": round(os.getloadavg()[0], 2)},
        "target": f"2 MP photo median well under {TARGET_2MP_S} s",
        "meets_target": two["median_s"] < TARGET_2MP_S / 2,
        "sizes": res,
    }
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    for k, v in res.items():
        print(f"{k:>10}: median {v['median_s']:.3f} s (cpu {v['cpu_median_s']:.3f} s)  "
              f"p90 {v['p90_s']:.3f} s  "
              f"max {v['max_s']:.3f} s  ({v['photos']} photos)  stages {v['stage_median_ms']}")
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
