"""Speed of a full photo read against the floor: decoding the same JPEG with OpenCV.

Both are timed side by side in one process on the same bytes (the file is read into memory
once, so disk speed does not count): ``cv2.imdecode`` alone (in colour, OpenCV's default),
and the reader's full pipeline (header check, decode, detection, lattice, one batched
classifier call, reconstruction). The reader decodes a JPEG straight to grey (it reads grey
levels; colour is decoded only for judging off-board tiles, shrunk, on a second thread;
a 12 MP one at half size where its tiles are big enough: ``ReaderConfig.half_grey_from``),
so a grey-only ``cv2.imdecode`` is timed too and the ratio to it recorded beside the one
the target is set on. The classifier is loaded and one read is done before timing (a warm
process, as in ``batch``). Each is repeated ``--repeat`` times, interleaved; medians are
compared (the ratio of the two medians; the ratio of each read to the decode timed just
before it is recorded too, its median, quartiles and how many pairs are within the target:
on a shared machine the speed drifts between runs). Target: full read <= 3x decode. The
machine's load average is recorded before and after (other work slows both sides, but not
equally), and where the photo has a label beside it (``name.json``) the reading is scored
against it: a faster read must not lose a tile or a digit.

The minor page faults of each side are recorded too: the colour decode writes a fresh
36 MB image (glibc maps blocks that large anew each time), and on the project's machine a
fault costs about 3.4 us, so about half of its time is faults; the read touches half as
many new pages. Where faults are cheap the decode is faster and the ratio higher (with
``MALLOC_MMAP_THRESHOLD_`` raised so no page is mapped anew, 28 ms against 135 ms).

The same is measured on ``--synth N`` fresh synthetic 12 MP photos (rendered first, into
a temporary folder), so that the figure is not one photo's. Rendering them first changes
the decode floor of the main photo too: in a process that has rendered them, the colour
decode's 36 MB came from memory already mapped (about 250 faults, 48 ms on the AMD host at
stop 64); in one that has not (``--synth 0``), from fresh pages each time (about 9,700
faults, 82 ms), while the read's own time hardly moved (328 and 308 ms). Compare ratios
only between runs with the same ``--synth``.

Run: ``python -m benchmarks.bench_read [PHOTO]`` -> ``benchmarks/results/read_speed.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from benchmarks.eval_reader import machine
from vision.batch import label_for, score_reading
from vision.config import DEFAULT
from vision.io import from_bytes
from vision.pipeline import default_classifier, read_image
from vision.reading import Reading

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "read_speed.json"
DEFAULT_PHOTO = ROOT / "samples" / "photos" / "table_12mp.jpg"
TARGET_RATIO = 3.0
#: first seed of the synthetic 12 MP photos (dev seeds: never used to train or to evaluate)
SYNTH_SEED = 72_000_000


def _read_bytes(data: bytes, name: str) -> tuple[Reading, dict[str, float]]:
    t0 = time.perf_counter()
    photo = from_bytes(DEFAULT, data, name)
    ms = (time.perf_counter() - t0) * 1e3
    r = read_image(DEFAULT, photo, decode_ms=ms)
    return r, r.timing_ms


def huge_pages() -> str:
    """The kernel's transparent huge page mode (the bracketed word of
    ``/sys/kernel/mm/transparent_hugepage/enabled``: always, madvise or never; "unknown"
    where it cannot be read): how fresh memory may be backed, recorded beside the page
    faults since they decide much of the decode's time."""
    try:
        text = Path("/sys/kernel/mm/transparent_hugepage/enabled").read_text(encoding="utf-8")
    except OSError:
        return "unknown"
    return chosen_word(text)


def chosen_word(text: str) -> str:
    """The word a kernel setting file marks chosen: ``"always [madvise] never"`` ->
    ``"madvise"`` ("unknown" where none is bracketed)."""
    mode = [w[1:-1] for w in text.split() if w.startswith("[") and w.endswith("]")]
    return mode[0] if mode else "unknown"


def _minor_faults() -> int:
    """Minor page faults of this process so far (all its threads)."""
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_minflt)


def bench_photo(data: bytes, name: str, repeat: int) -> dict[str, Any]:
    """Time decode-only (colour and grey) against full reads of one photo's bytes,
    interleaved ``repeat`` times after a warm-up read; score the last reading against the
    photo's label where one lies beside it. Returns the medians and the score."""
    buf = np.frombuffer(data, np.uint8)
    reading, _ = _read_bytes(data, name)  # warm-up
    dec, grey, full, stages = [], [], [], []
    dec_faults, full_faults = [], []
    for _ in range(repeat):
        f0 = _minor_faults()
        t0 = time.perf_counter()
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        dec.append((time.perf_counter() - t0) * 1e3)
        dec_faults.append(_minor_faults() - f0)
        t0 = time.perf_counter()
        cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)
        grey.append((time.perf_counter() - t0) * 1e3)
        f0 = _minor_faults()
        t0 = time.perf_counter()
        reading, timing = _read_bytes(data, name)
        full.append((time.perf_counter() - t0) * 1e3)
        full_faults.append(_minor_faults() - f0)
        stages.append(timing)
    label = label_for(Path(name))
    score = None
    if label is not None:
        sc = score_reading(name, label, reading.to_json())
        score = {"label_tiles": sc.label_tiles, "matched": sc.matched,
                 "found": sc.found_tiles, "digits": sc.digits,
                 "digits_right": sc.digits_right, "perfect": sc.perfect}
    h, w = img.shape[:2]
    d, f, g = statistics.median(dec), statistics.median(full), statistics.median(grey)
    # each read against the decode just before it: the machine's speed drifts (other
    # guests of a shared host), and a pair is timed within a fraction of a second
    pairs = sorted(b / a for a, b in zip(dec, full, strict=True))
    q = statistics.quantiles(pairs, n=4) if len(pairs) >= 2 else [pairs[0]] * 3
    return {
        "width": w, "height": h, "megapixels": round(w * h / 1e6, 1), "bytes": len(data),
        "repeat": repeat, "decode_only_ms": round(d, 1), "full_read_ms": round(f, 1),
        "ratio": round(f / d, 2),
        "ratio_per_pair": {"median": round(statistics.median(pairs), 2),
                           "quartiles": [round(q[0], 2), round(q[2], 2)],
                           "within_target": sum(r <= TARGET_RATIO for r in pairs)},
        "grey_decode_only_ms": round(g, 1),
        "ratio_to_grey_decode": round(f / g, 2), "tiles_on_board": len(reading.tiles),
        # fresh memory the process touched (a page fault per 4 KiB page): a colour
        # decode writes its whole image to new pages, and where faults are dear (on the
        # project's machine about 3.4 us each) they are a large part of its time
        "decode_minor_faults": int(statistics.median(dec_faults)),
        "full_read_minor_faults": int(statistics.median(full_faults)),
        "against_label": score,
        "stage_median_ms": {k: round(statistics.median(s[k] for s in stages), 1)
                            for k in stages[0]},
    }


def code_measured(root: Path) -> str:
    """The code a run measures: the commit checked out at ``root`` ("<short hash> (working
    tree)"; a run from another checkout, an earlier commit's, names that one), or
    "unknown (working tree)" outside a git checkout."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root,
                                capture_output=True, text=True).stdout.strip()
    except OSError:  # no git on the machine
        commit = ""
    return f"{commit or 'unknown'} (working tree)"


def main() -> None:
    """Time decode-only vs full read; write the JSON results file and print a summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("photo", nargs="?", default=str(DEFAULT_PHOTO))
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--synth", type=int, default=8,
                    help="also time this many fresh synthetic 12 MP photos (seeds "
                         f"{SYNTH_SEED}+, rendered first; 0 = none)")
    ap.add_argument("--out", default=str(RESULTS))
    args = ap.parse_args()
    cv2.setNumThreads(cv2.getNumThreads())
    default_classifier()
    others: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.synth:
            from vision.synth.export import write_photos
            write_photos(tmp, args.synth, SYNTH_SEED, size=(4032, 3024))
        load0 = os.getloadavg()[0]
        main_run = bench_photo(Path(args.photo).read_bytes(), args.photo, args.repeat)
        for jpg in sorted(Path(tmp).glob("*.jpg")):
            one = bench_photo(jpg.read_bytes(), str(jpg), args.repeat)
            others.append({"photo": jpg.name, **{k: one[k] for k in (
                "decode_only_ms", "full_read_ms", "ratio", "tiles_on_board", "against_label")}})
        load1 = os.getloadavg()[0]
    out = {"photo": os.path.relpath(args.photo, ROOT), **main_run,
           "target_ratio": TARGET_RATIO, "meets_target": main_run["ratio"] <= TARGET_RATIO}
    if others:
        ratios = [o["ratio"] for o in others]
        out["synthetic_12mp"] = {
            "count": len(others), "seeds": [SYNTH_SEED, SYNTH_SEED + len(others) - 1],
            "ratio_median": round(statistics.median(ratios), 2),
            "ratio_max": round(max(ratios), 2),
            "within_target": sum(r <= TARGET_RATIO for r in ratios), "photos": others}
    out["code"] = code_measured(ROOT)
    out["machine"] = {**machine(), "opencv": cv2.__version__,
                      "opencv_threads": cv2.getNumThreads(),
                      "transparent_hugepage": huge_pages(),
                      # other work on the machine slows both sides, but not equally
                      "load_average_1min": round(load0, 2),
                      "load_average_1min_after": round(load1, 2)}
    Path(args.out).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(f"{out['photo']} ({out['megapixels']} MP): decode {main_run['decode_only_ms']:.0f} ms, "
          f"full read {main_run['full_read_ms']:.0f} ms, ratio {main_run['ratio']:.2f} (target "
          f"<= {TARGET_RATIO}); stages {out['stage_median_ms']}; load {load0:.2f} -> "
          f"{load1:.2f}; against label {out['against_label']}")
    if others:
        sy = out["synthetic_12mp"]
        print(f"{sy['count']} synthetic 12 MP photos: ratio median {sy['ratio_median']}, max "
              f"{sy['ratio_max']}, {sy['within_target']} within the target")


if __name__ == "__main__":
    main()
