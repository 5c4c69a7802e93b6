"""Speed of a full photo read against the floor: decoding the same JPEG with OpenCV.

Both are timed side by side in one process on the same bytes (the file is read into memory
once, so disk speed does not count): ``cv2.imdecode`` alone, and the reader's full
pipeline (header check, decode, detection, lattice, one batched classifier call,
reconstruction). The classifier is loaded and one read is done before timing (a warm
process, as in ``batch``). Each is repeated ``--repeat`` times, interleaved; medians are
compared. Target: full read <= 3x decode.

Run: ``python -m benchmarks.bench_read [PHOTO]`` -> ``benchmarks/results/read_speed.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from vision.config import DEFAULT
from vision.io import Photo, decode
from vision.pipeline import default_classifier, read_image

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "read_speed.json"
DEFAULT_PHOTO = ROOT / "samples" / "photos" / "table_12mp.jpg"
TARGET_RATIO = 3.0


def _read_bytes(data: bytes, name: str) -> tuple[int, dict[str, float]]:
    t0 = time.perf_counter()
    img = decode(DEFAULT, data, name)
    ms = (time.perf_counter() - t0) * 1e3
    r = read_image(DEFAULT, Photo(name, img, DEFAULT.detect_max_side), decode_ms=ms)
    return len(r.tiles), r.timing_ms


def main() -> None:
    """Time decode-only vs full read; write the JSON results file and print a summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("photo", nargs="?", default=str(DEFAULT_PHOTO))
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--out", default=str(RESULTS))
    args = ap.parse_args()
    data = Path(args.photo).read_bytes()
    buf = np.frombuffer(data, np.uint8)
    cv2.setNumThreads(cv2.getNumThreads())
    default_classifier()
    tiles, _ = _read_bytes(data, args.photo)  # warm-up
    dec, full, stages = [], [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        dec.append((time.perf_counter() - t0) * 1e3)
        t0 = time.perf_counter()
        tiles, timing = _read_bytes(data, args.photo)
        full.append((time.perf_counter() - t0) * 1e3)
        stages.append(timing)
    h, w = img.shape[:2]
    d, f = statistics.median(dec), statistics.median(full)
    out = {
        "photo": os.path.relpath(args.photo, ROOT), "width": w, "height": h,
        "megapixels": round(w * h / 1e6, 1), "bytes": len(data), "repeat": args.repeat,
        "decode_only_ms": round(d, 1), "full_read_ms": round(f, 1),
        "ratio": round(f / d, 2), "target_ratio": TARGET_RATIO,
        "meets_target": f / d <= TARGET_RATIO,
        "tiles_on_board": tiles,
        "stage_median_ms": {k: round(statistics.median(s[k] for s in stages), 1)
                            for k in stages[0]},
        "machine": {"cpu_count": os.cpu_count(), "platform": platform.platform(),
                    "python": platform.python_version(), "opencv": cv2.__version__,
                    "opencv_threads": cv2.getNumThreads(),
                    # other work on the machine slows both sides, but not equally
                    "load_average_1min": round(os.getloadavg()[0], 2)},
    }
    Path(args.out).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(f"{out['photo']} ({out['megapixels']} MP): decode {d:.0f} ms, full read {f:.0f} ms, "
          f"ratio {f / d:.2f} (target <= {TARGET_RATIO}); stages {out['stage_median_ms']}")


if __name__ == "__main__":
    main()
