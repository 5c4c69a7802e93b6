"""The reader as it is against the reader of an earlier commit, side by side in one process.

A change meant to make the reader faster without changing what it reads is measured this
way: the package ``vision`` of commit ``--rev`` (and its ``models``) is taken from git into
a temporary folder under another name and imported beside this tree's, and every photo is
read by both in turn, the order swapped every other time, ``--repeat`` times (reads in
separate processes, or minutes apart, differ by more than such a change on a shared
host: its speed drifts). For each photo: the median seconds of each, and whether the two
readings are the same (the Reading JSON less its timings, and its notes where it has none;
a photo with no tiles read is compared by its error). ``engine`` is this tree's for both.

Photos: JPEG/PNG files given, read from their bytes as ``triominos read`` reads them
(default: the 12 MP sample), ``--dev N`` fresh synthetic dev photos (seeds from
71,000,000, rendered as :mod:`benchmarks.eval_reader` renders them) and ``--seeds A,B``
synthetic photos of those seeds; ``--style KEY=VALUE`` (repeatable) renders the synthetic
ones with that style pinned, as ``eval_reader --style`` does (``edition=onyx`` with
``--seeds`` from 73,000,000: the onyx dev photos).

Run: ``python -m benchmarks.ab_code --rev af2a90d --dev 40 --name ab_code_stop45`` ->
``benchmarks/results/NAME.json``.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from benchmarks.eval_reader import SIZE, _style, machine, parse_style, write_json

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PHOTO = ROOT / "samples" / "photos" / "table_12mp.jpg"
DEV_SEED = 71_000_000


def load_rev(rev: str, into: Path) -> ModuleType:
    """The package ``vision`` of git commit ``rev``, imported as ``vision_<rev>`` from a
    copy under ``into`` (its ``models`` beside it, as the package expects). Raises
    ``ValueError`` (one line) if git does not know ``rev``."""
    try:
        data = subprocess.run(["git", "archive", "--format=tar", rev, "vision", "models"],
                              cwd=ROOT, capture_output=True, check=True).stdout
    except subprocess.CalledProcessError as e:
        msg = e.stderr.decode(errors="replace").strip().splitlines()
        raise ValueError(f"git cannot give {rev!r}: {msg[0] if msg else 'unknown'}") from None
    name = "vision_" + "".join(c if c.isalnum() else "_" for c in rev)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        try:
            tar.extractall(into, filter="data")
        except TypeError:  # (a Python before 3.10.12 / 3.11.4: no filters; git's own tar)
            tar.extractall(into)  # noqa: S202
    (into / "vision").rename(into / name)
    sys.path.insert(0, str(into))
    importlib.invalidate_caches()
    return importlib.import_module(name)


def synthetic_photos(seeds: list[int], pins: dict[str, Any] | None = None
                     ) -> list[tuple[str, Any]]:
    """The synthetic photos of ``seeds`` as :mod:`benchmarks.eval_reader` renders them
    (``pins``: style keys pinned, as its ``--style``): (``synth_<seed>``, the
    :class:`vision.synth.Sample`) each."""
    if not seeds:
        return []
    from vision.synth import render
    return [(f"synth_{s}", render(s, size=SIZE, style=_style(s, pins))) for s in seeds]


def _reader(pkg: str) -> Callable[[bytes | np.ndarray], tuple[str, float]]:
    """A function reading a photo (encoded bytes, or a decoded BGR array) with the package
    ``pkg``: the reading as canonical JSON text (timings left out; an unreadable photo as
    its error) and the seconds it took."""
    pipeline = importlib.import_module(f"{pkg}.pipeline")
    config = importlib.import_module(f"{pkg}.config")
    vio = importlib.import_module(f"{pkg}.io")
    clf = pipeline.default_classifier()
    cfg = config.DEFAULT

    def read(photo: bytes | np.ndarray) -> tuple[str, float]:
        t0 = time.perf_counter()
        try:
            if isinstance(photo, bytes):
                r = pipeline.read_image(cfg, vio.from_bytes(cfg, photo, "x"), classifier=clf)
            else:
                r = pipeline.read_array(photo, cfg, classifier=clf, name="x")
            out = r.to_json()
            out.pop("timing_ms", None)
            if not out.get("notes"):
                out.pop("notes", None)  # (no notes is as before the key was made)
            text = json.dumps(out, sort_keys=True)
        except vio.PhotoError as e:
            text = f"error: {e}"
        return text, time.perf_counter() - t0

    return read


def compare(old: Callable[[Any], tuple[str, float]], new: Callable[[Any], tuple[str, float]],
            photos: list[tuple[str, bytes | np.ndarray]], repeat: int) -> dict[str, Any]:
    """Read each photo with ``old`` and ``new`` in turn, ``repeat`` times (the order swapped
    every other time; one read of each first, untimed). Returns per photo the median
    seconds of each and whether every reading of both was the same, and the totals."""
    rows = []
    for name, photo in photos:
        old(photo), new(photo)  # warm: the first read of a process loads what it needs
        times: dict[str, list[float]] = {"old": [], "new": []}
        texts: set[str] = set()
        for k in range(repeat):
            for key in (("old", "new") if k % 2 == 0 else ("new", "old")):
                text, dt = (old if key == "old" else new)(photo)
                times[key].append(dt)
                texts.add(text)
        rows.append({"photo": name, "old_s": round(statistics.median(times["old"]), 4),
                     "new_s": round(statistics.median(times["new"]), 4),
                     "same": len(texts) == 1})
    to, tn = sum(r["old_s"] for r in rows), sum(r["new_s"] for r in rows)
    return {"repeat": repeat, "photos": rows, "old_total_s": round(to, 3),
            "new_total_s": round(tn, 3), "new_over_old": round(tn / to, 4) if to else None,
            "same": sum(r["same"] for r in rows)}


def main() -> None:
    """Parse the arguments, load the old reader, compare, write the results file."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", required=True, help="the earlier commit (any git revision)")
    ap.add_argument("photo", nargs="*", help="photo files (default: the 12 MP sample)")
    ap.add_argument("--dev", type=int, default=0, help="also this many dev photos")
    ap.add_argument("--seeds", default="",
                    help="also these synthetic photos (comma-separated seeds, rendered as "
                         "the dev photos are)")
    ap.add_argument("--style", action="append", default=[], metavar="KEY=VALUE",
                    help="render the synthetic photos with this style key pinned "
                         "(repeatable; as eval_reader --style)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--name", default="ab_code")
    args = ap.parse_args()
    from vision.synth import StyleError
    try:
        pins = parse_style(args.style) or None
    except StyleError as e:
        raise SystemExit(f"ab_code: {e}") from None
    try:
        seeds = [int(x) for x in args.seeds.split(",") if x.strip()]
    except ValueError:
        raise SystemExit(f"ab_code: --seeds must be whole numbers, got {args.seeds!r}"
                         ) from None
    if any(s < 0 for s in seeds):
        raise SystemExit(f"ab_code: --seeds must be 0 or more, got {args.seeds!r}")
    paths = [Path(p) for p in args.photo] or (
        [DEFAULT_PHOTO] if not args.dev and not seeds else [])
    photos: list[tuple[str, bytes | np.ndarray]] = []
    for p in paths:
        try:
            photos.append((p.name, p.read_bytes()))
        except OSError as e:
            raise SystemExit(f"ab_code: cannot read {p}: {e.strerror}") from None
    photos += [(name, sample.image) for name, sample in synthetic_photos(
        [*range(DEV_SEED, DEV_SEED + args.dev), *seeds], pins)]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            pkg = load_rev(args.rev, Path(tmp)).__name__
        except ValueError as e:
            raise SystemExit(f"ab_code: {e}") from None
        out = compare(_reader(pkg), _reader("vision"), photos, args.repeat)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    out = {"old": args.rev, "new": f"{commit} (working tree)",
           **({"style": pins} if pins else {}), **out, "machine": machine()}
    write_json(args.name, out)
    print(f"{len(photos)} photos, {args.repeat} reads each: {args.rev} {out['old_total_s']} s, "
          f"this tree {out['new_total_s']} s (new/old {out['new_over_old']}); read the same: "
          f"{out['same']} of {len(photos)}")


if __name__ == "__main__":
    main()
