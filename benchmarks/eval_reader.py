"""End-to-end accuracy of the photo reader on fresh synthetic photos.

Photos come from :func:`vision.synth.render` with seeds from ``--seed`` (default
70,000,000: far from the training seeds 1,000,000+ and validation seeds 9,000,000+ of
``vision.train.digit_data``) and only the styles held out of training (alternately the
held-out font and the held-out tile edition, :data:`vision.train.digit_data.HOLDOUT`).
Each photo is read by the full pipeline (:func:`vision.pipeline.read_array`) and matched
to its label by image position (:func:`vision.batch.score_reading`): tile precision and
recall on the board, corner-digit accuracy over the visible corners of the tiles found (a
missed tile counts against recall and against the photo, not here), the share of photos
read with no mistake at all (every tile found, nothing extra, every digit right), time
per stage, and all of these broken down by the photo's conditions (blur over the tile
side, tile size, tilt, glare, hands and objects, table: :func:`vision.batch.conditions`).

With ``--faults`` every board carries one or two deliberate rule faults (a tile whose
corner disagrees with its neighbour's, a tile touching the board by a corner only): the
reader must report them, never "repair" them to agree with the board. The results then
also give the share of faulted tiles a violation names and the share read as they lie
(``faults`` in the summary, three columns in the CSV).

Run: ``python -m benchmarks.eval_reader [--count 300] [--faults]`` ->
``benchmarks/results/reader_eval.json`` and ``reader_eval.csv`` (one row per photo;
``reader_eval_faults.*`` with ``--faults``). ``--model PATH`` reads with another digit
model (a retrained one, before it replaces the shipped one); the results name the model
read with (file and SHA-256) either way.

``--set KEY=VALUE`` (repeatable) reads with a :class:`vision.config.ReaderConfig` field
changed (a setting tried before it is changed for good), recorded in the results.

``--style KEY=VALUE`` (repeatable) renders every photo with that style key pinned
(``edition=onyx``) or restricted (``table=wood_light,wood_dark``), in the held-out font:
a kind of table the mixed sets hold few of, measured on its own (dark tiles on wood).

``--save-photos DIR`` also writes every photo rendered (PNG, lossless) and its label to
DIR: ``triominos eval DIR`` then reads the very same pixels elsewhere. The photos are
rendered with OpenCV, so another OpenCV release renders other photos; read so, the pixels
stay fixed and only the reader's side changes (OpenCV 5.1.0 against 5.0.0: most of the
held-out photos that read differently were rendered differently,
``benchmarks/results/held_pixels_opencv*.json``).

``--redo-empty CSV --name NAME`` reads again only the photos of an earlier results CSV
(same seeds and ``--faults`` as it was made with) whose board read no tile, and writes
``NAME.*`` for them, with the earlier rows' totals beside (``before``) and every photo
whose reading changed (``changed``): a change that can only alter those photos (a last
search when no board is read) is measured on them alone, in minutes.
Takes a while on 2 cores at the full count: run it with nohup in the background.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import time
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
SEED0 = 70_000_000
SIZE = (1024, 768)


def _style(k: int, pins: dict[str, Any] | None = None) -> dict[str, Any]:
    """The style photo ``k`` is rendered with: alternately the held-out font and the
    held-out tile edition (:data:`vision.train.digit_data.HOLDOUT`); with ``pins`` (style
    keys pinned or restricted, ``--style``), the held-out font on every photo and the
    pins (which may replace it)."""
    from vision.train.digit_data import HOLDOUT
    if pins:
        return {"font": list(HOLDOUT["font"]), **pins}
    key = sorted(HOLDOUT)[k % len(HOLDOUT)]
    return {key: list(HOLDOUT[key])}


def _styles_text(pins: dict[str, Any]) -> str:
    """The results' account of the styles rendered (see :func:`_style`)."""
    if pins:
        return "held-out font and pinned: " + ", ".join(
            f"{k}={','.join(v) if isinstance(v, list) else v}"
            for k, v in _style(0, pins).items())
    return "held out of training: " + ", ".join(
        f"{k}={v}" for k in sorted(_style(0) | _style(1)) for v in (_style(0) | _style(1))[k])


def parse_style(items: list[str]) -> dict[str, Any]:
    """``--style KEY=VALUE`` items as render's style pins: ``edition=onyx`` pins a key,
    ``table=wood_light,wood_dark`` restricts it to those options, a number pins a number.
    Raises :class:`vision.synth.StyleError` (one line) for an unknown key or option."""
    import numpy as np

    from vision.synth.styles import CATEGORICAL, sample_style
    out: dict[str, Any] = {}
    for it in items:
        key, sep, value = it.partition("=")
        if not sep or not value:
            raise SystemExit(f"--style {it!r}: expected KEY=VALUE")
        if key in CATEGORICAL:
            names = value.split(",")
            out[key] = names[0] if len(names) == 1 else names
        else:
            try:
                out[key] = json.loads(value)
            except ValueError:
                out[key] = value
    if out:  # a bad key or option: refused before any photo
        sample_style(np.random.default_rng(0), out, SIZE)
    return out


#: the installed packages whose release changes what is measured (OpenCV renders the
#: synthetic photos too: 5.1.0 rendered them otherwise than 5.0.0, and 62 of the 300
#: held-out photos read differently), named in every results file
READER_PACKAGES = ("opencv-python-headless", "numpy", "onnxruntime")


def machine() -> dict[str, Any]:
    """The machine a result is measured on: CPUs (count and model: the same code reads a
    few photos differently on two CPUs, the last bits of float maths differing), platform,
    Python version, and the releases of :data:`READER_PACKAGES` installed ("not
    installed" for one that is not)."""
    return {"cpu_count": os.cpu_count(), "cpu": cpu_model(), "platform": platform.platform(),
            "python": platform.python_version(), "packages": package_versions()}


def package_versions() -> dict[str, str]:
    """The installed release of each of :data:`READER_PACKAGES` (from its metadata; "not
    installed" where there is none)."""
    from importlib.metadata import PackageNotFoundError, version
    out = {}
    for name in READER_PACKAGES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "not installed"
    return out


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``'s first ``model name``; where there is none,
    what :mod:`platform` knows, or "unknown")."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def write_json(name: str, out: dict[str, Any]) -> None:
    """Write ``out`` to ``benchmarks/results/NAME.json`` (indented, one final newline)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


def model_info(path: str | Path | None = None) -> dict[str, Any]:
    """The digit model a run reads with: its file name and SHA-256 (default: the shipped
    ``models/digits.onnx``), recorded in the results so a figure names its model."""
    from vision.classifier import DEFAULT_MODEL, file_sha256
    model = Path(path) if path is not None else DEFAULT_MODEL
    return {"file": model.name, "sha256": file_sha256(model),
            "shipped": model.resolve() == DEFAULT_MODEL.resolve()}


def parse_set(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` items -> config overrides (VALUE as JSON, else the string).

    Raises SystemExit where an item has no ``=``, or where KEY is a setting of
    :class:`vision.config.ReaderConfig` whose kind VALUE does not fit (``False`` is no JSON:
    it would pass as a string, which is true).
    """
    from vision.config import DEFAULT
    out: dict[str, Any] = {}
    for it in items:
        key, sep, value = it.partition("=")
        if not sep:
            raise SystemExit(f"--set {it!r}: expected KEY=VALUE")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
        if hasattr(DEFAULT, key) and not _fits(getattr(DEFAULT, key), out[key]):
            kind = type(getattr(DEFAULT, key)).__name__
            raise SystemExit(f"{it!r}: {key} takes {'an' if kind == 'int' else 'a'} {kind}, "
                             "written as JSON "
                             "(true, false, 0.5, [1, 2])")
        if hasattr(DEFAULT, key) and isinstance(getattr(DEFAULT, key), tuple):
            # a setting's tuple, as the config holds it (a list is no key of the caches
            # the reader keeps per setting: every photo failed "unhashable type")
            out[key] = _as_tuple(out[key])
    return out


def _as_tuple(value: Any) -> Any:
    """``value`` (parsed JSON) with its lists, nested too, as tuples."""
    return tuple(_as_tuple(v) for v in value) if isinstance(value, list) else value


def _fits(default: Any, value: Any) -> bool:
    """Can ``value`` (parsed JSON) stand for a setting whose default is ``default``?"""
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(default, tuple):
        return isinstance(value, list)
    return True


@lru_cache(maxsize=2)
def _classifier(path: str) -> Any:
    """The digit model at ``path``, loaded once per process (``main`` loads it first, to
    refuse a bad one before any photo; workers forked after inherit that copy)."""
    from vision.classifier import DigitClassifier
    return DigitClassifier.load(path)


def _one(seed: int, faults: bool = False, model: str | None = None, cfg: Any = None,
         pins: dict[str, Any] | None = None, save: str | None = None) -> Any:
    """Render, read and score the photo of ``seed`` (with ``faults``); ``model``: the
    digit model's path (None: the shipped one); ``cfg``: the reader's settings (None: the
    defaults); ``pins``: style keys pinned (see :func:`_style`); ``save``: a folder the
    photo is also written to, as ``synth_<seed>.png`` (lossless: the pixels read) and its
    label beside it as ``.json`` (what ``triominos eval`` reads)."""
    from vision.batch import score_failure, score_reading
    from vision.config import DEFAULT
    from vision.io import NoTilesError
    from vision.pipeline import read_array
    from vision.synth import render
    sample = render(seed, size=SIZE, style=_style(seed, pins), faults=faults)
    name = f"synth_{seed}"
    if save is not None:
        _save(Path(save), name, sample)
    clf = _classifier(model) if model is not None else None
    try:
        reading = read_array(sample.image, cfg or DEFAULT, name=name,
                             classifier=clf).to_json()
    except Exception as e:  # noqa: BLE001 - every photo gets a row, errors included
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        return score_failure(name, sample.label, msg, isinstance(e, NoTilesError))
    return score_reading(name, sample.label, reading)


def _save(folder: Path, name: str, sample: Any) -> None:
    """Write ``sample``'s photo to ``folder`` as ``name``.png and its label as ``name``.json
    (the label naming the PNG)."""
    import cv2
    folder.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(folder / f"{name}.png"), sample.image):
        raise OSError(f"{folder / name}.png: could not be written")
    label = {**sample.label, "image": f"{name}.png"}
    (folder / f"{name}.json").write_text(json.dumps(label, indent=1) + "\n", encoding="utf-8")


#: the columns of a results CSV compared by ``--redo-empty`` (counts, not times)
_COMPARED = ("found_tiles", "matched", "digits", "digits_right", "perfect", "loose_found",
             "loose_matched", "faults_reported", "violations_false", "error")


def empty_rows(path: str | Path) -> list[dict[str, str]]:
    """The rows of results CSV ``path`` whose board read no tile (``found_tiles`` 0)."""
    with open(path, newline="", encoding="utf-8") as f:
        return [r for r in csv.DictReader(f) if int(r["found_tiles"] or 0) == 0]


def score_counts(score: Any, keys: tuple[str, ...] = _COMPARED) -> dict[str, Any]:
    """The columns ``keys`` of a :class:`vision.batch.PhotoScore` as its CSV row has them
    (``perfect`` as 0/1)."""
    return {k: int(v) if isinstance(v, bool) else v for k in keys for v in [getattr(score, k)]}


def compare_rows(before: list[dict[str, str]], scores: list[Any]
                 ) -> tuple[dict[str, int], list[dict[str, Any]]]:
    """The totals of the earlier rows ``before`` (:data:`_COMPARED` counts, and photos),
    and for each photo whose new score (``scores``, :class:`vision.batch.PhotoScore`, in
    the same order) differs in any of those columns: its path, label tiles and each
    column's value before and now."""
    now = [score_counts(sc) for sc in scores]
    totals: dict[str, int] = {"photos": len(before), "label_tiles": sum(
        int(r["label_tiles"]) for r in before)}
    for k in _COMPARED[:-1]:
        totals[k] = sum(int(r[k] or 0) for r in before)
    changed = []
    for r, n in zip(before, now, strict=True):
        was = {k: (r[k] if k == "error" else int(r[k] or 0)) for k in _COMPARED}
        if was != n:
            changed.append({"path": r["path"], "label_tiles": int(r["label_tiles"]),
                            **{k: [was[k], n[k]] for k in _COMPARED if was[k] != n[k]}})
    return totals, changed


def main() -> None:
    """Render, read and score ``--count`` photos; write the results files."""
    from vision.batch import _map, by_condition, intervals, photo_counts, summarise, write_csv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=SEED0)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--name", default=None,
                    help="results file stem (default reader_eval, reader_eval_faults)")
    ap.add_argument("--faults", action="store_true",
                    help="one or two deliberate rule faults on every board: how many the "
                         "reading reports, the faulted tiles read as they lie")
    ap.add_argument("--model", metavar="ONNX", default=None,
                    help="read with this digit model (its .sha256 sidecar beside it) "
                         "instead of the shipped one; its hash goes into the results")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="read with this vision.config.ReaderConfig field changed (VALUE as "
                         "JSON; repeatable; recorded in the results as \"set\")")
    ap.add_argument("--style", action="append", default=[], metavar="KEY=VALUE",
                    help="render every photo with this style key pinned (edition=onyx) or "
                         "restricted (table=wood_light,wood_dark), and the held-out font "
                         "(repeatable; recorded in the results as \"styles\")")
    ap.add_argument("--save-photos", metavar="DIR", default=None,
                    help="also write each photo rendered (PNG, lossless) and its label to "
                         "DIR: the same pixels can then be read elsewhere with "
                         "`triominos eval DIR` (another OpenCV release, another machine)")
    ap.add_argument("--redo-empty", metavar="CSV", default=None,
                    help="only the photos of this earlier results CSV whose board read no "
                         "tile (--name required)")
    args = ap.parse_args()
    if args.redo_empty and not args.name:
        ap.error("--redo-empty needs --name (not to overwrite the full results)")
    args.name = args.name or ("reader_eval_faults" if args.faults else "reader_eval")
    over = parse_set(args.set)
    from vision.synth import StyleError
    try:
        pins = parse_style(args.style)
    except StyleError as e:
        ap.error(f"--style: {e}")
    cfg = None
    if over:
        import dataclasses

        from vision.config import DEFAULT
        try:  # an unknown field: one line, before any photo
            cfg = dataclasses.replace(DEFAULT, **over)
        except TypeError as e:
            ap.error(f"--set: {e}")
    if args.model is not None:
        from vision.classifier import ModelError
        try:
            _classifier(args.model)  # a missing or damaged model: one line, before any photo
        except ModelError as e:
            ap.error(str(e))
    t0 = time.perf_counter()
    seeds = list(range(args.seed, args.seed + args.count))
    before: list[dict[str, str]] = []
    if args.redo_empty:
        before = empty_rows(args.redo_empty)
        seeds = [int(r["path"].removeprefix("synth_")) for r in before]
    scores = []
    one = partial(_one, faults=args.faults, model=args.model, cfg=cfg, pins=pins or None,
                  save=args.save_photos)
    for n, sc in enumerate(_map(one, seeds, args.workers), 1):  # type: ignore[arg-type]
        scores.append(sc)
        if n % 10 == 0 or n == len(seeds):
            print(f"{n}/{len(seeds)} photos", flush=True)
    s = summarise(scores)
    out = {**s.to_json(), "seeds": [seeds[0], seeds[-1]], "size": list(SIZE),
           "styles": _styles_text(pins),
           "targets": {"tile_precision": 0.995, "tile_recall": 0.995,
                       "corner_digit_accuracy": 0.998, "perfect_photos": 0.95},
           # (photos resampled: how far these figures could move on other photos alike)
           "intervals_95": intervals(photo_counts(scores)),
           "faults_on_boards": args.faults, "model": model_info(args.model),
           **({"set": over} if over else {}),
           "by_condition": by_condition(scores),
           "seconds": round(time.perf_counter() - t0, 1), "machine": machine()}
    if args.redo_empty:
        out["redo_of"] = Path(args.redo_empty).name
        out["before"], out["changed"] = compare_rows(before, scores)
    write_json(args.name, out)
    write_csv(RESULTS / f"{args.name}.csv", scores)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
