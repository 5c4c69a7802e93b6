"""Does "no tiles found" call the right photos blurred?

Where the reader finds no tile, its error adds a hint (:func:`vision.pipeline.why_empty`):
the photo very dark, showing hardly any detail, or blurred, the last judged by how steeply
its sharpest edges rise (:func:`vision.detect.edge_sharpness` under
``cfg.blur_hint_sharpness``). This renders synthetic photos as the evaluation does
(:mod:`benchmarks.eval_reader`: its seeds and styles), measures each one's detection copy
as the reader would, and counts the photos said to be blurred by how blurred the
synthesiser made them (:func:`vision.batch.blur_sigma_px`: sharp, 0.6 px or less; some,
under 2 px; blurred, 2 px or more; 2.5 px or more), beside the test made before (the
Laplacian's variance under 15, "blurred or featureless", which noise defeats). Every
photo is measured, not only those where no tile is found: the hint is judged on a
photo's pixels alone.

Run: ``python -m benchmarks.blur_hint [--seed 71000000] [--count 300] [--workers 2]
[--name blur_hint]`` -> ``benchmarks/results/NAME.json``. About 40 s for 300 photos on
2 cores (rendering most of it).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from multiprocessing import Pool
from typing import Any

from benchmarks.eval_reader import SIZE, _style, machine, write_json

#: the bands of blur counted: (name, whether a photo's blur (px, a Gaussian's standard
#: deviation) lies in it); the last two overlap
BANDS: tuple[tuple[str, Callable[[float], bool]], ...] = (
    ("sharp (0.6 px or less)", lambda b: b <= 0.6),
    ("some (0.6-2 px)", lambda b: 0.6 < b < 2.0),
    ("blurred (2 px or more)", lambda b: b >= 2.0),
    ("blurred (2.5 px or more)", lambda b: b >= 2.5))


def measure(seed: int) -> dict[str, Any]:
    """Render photo ``seed`` (as the evaluation does) and measure its detection copy:
    ``{"seed", "blur_px", "sharpness", "edges", "hint", "laplacian"}`` (``hint``: the
    hint the reader would give, "" for none)."""
    import cv2
    import numpy as np

    from vision.batch import blur_sigma_px
    from vision.config import DEFAULT
    from vision.detect import edge_sharpness
    from vision.io import from_array
    from vision.pipeline import why_empty
    from vision.synth import render
    sample = render(seed, size=SIZE, style=_style(seed))
    photo = from_array(DEFAULT, sample.image, f"synth_{seed}")
    gray = photo.scaled_gray()[0]
    sharp, n = edge_sharpness(gray)
    return {"seed": seed, "blur_px": round(blur_sigma_px(sample.label["style"]), 3),
            "sharpness": round(sharp, 4), "edges": n, "hint": why_empty(DEFAULT, photo),
            "laplacian": round(float(cv2.Laplacian(gray, cv2.CV_64F).var()), 1),
            "mean_grey": round(float(np.mean(gray)), 1)}


def tally(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per band of :data:`BANDS`: photos, how many the hint calls blurred (its text names
    blur: "blurred" or "hardly any detail: blurred, ..."), and how many the test before
    would have (Laplacian variance under 15 on a photo not very dark)."""
    out = {}
    for name, holds in BANDS:
        band = [r for r in rows if holds(r["blur_px"])]
        out[name] = {"photos": len(band),
                     "said_blurred": sum("blurred" in r["hint"] for r in band),
                     "said_blurred_before": sum(r["laplacian"] < 15 and r["mean_grey"] >= 35
                                                for r in band)}
    return out


def main(argv: list[str] | None = None) -> None:
    """Measure, tally and write the results (see the module's docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=71_000_000)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--name", default="blur_hint")
    args = ap.parse_args(argv)
    if args.count < 1 or args.workers < 1:
        raise SystemExit("blur_hint: --count and --workers must be 1 or more")
    seeds = range(args.seed, args.seed + args.count)
    if args.workers > 1:
        with Pool(args.workers) as pool:
            rows = pool.map(measure, seeds, chunksize=4)
    else:
        rows = [measure(s) for s in seeds]
    from vision.config import DEFAULT
    out = {"seeds": [args.seed, args.count], "size": list(SIZE),
           "bar": DEFAULT.blur_hint_sharpness, "edges_min": DEFAULT.blur_hint_edges,
           "bands": tally(rows), "photos": rows, "machine": machine()}
    write_json(args.name, out)
    for name, t in out["bands"].items():
        print(f"{name}: {t['said_blurred']} of {t['photos']} said blurred "
              f"(before: {t['said_blurred_before']})")


if __name__ == "__main__":
    main()
