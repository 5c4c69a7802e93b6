"""Which rows of the evaluation sets a change made, and which the host.

The same code reads a few synthetic photos otherwise on another host (the last bits of
float maths differ between CPUs), so rows of a results CSV read again after a change
may differ from the committed ones for either reason. For every set of :data:`SETS`
whose results CSV in ``benchmarks/results`` differs from its version at git commit
``--rev`` (in the counts of :data:`KEYS`, not the times), each differing photo is
rendered and read again here twice in one process: with the settings ``--before``
(``KEY=VALUE`` of :class:`vision.config.ReaderConfig`, the setting the change added, at
its value before) and with the defaults. A row whose two readings differ was changed by
the change; one whose two readings agree, by the host.

Run after the sets are read again: ``python -m benchmarks.ab_rows --rev 873bdc3 --before
dark_seam_kernel=0 --name ab_rows_stop97`` -> ``benchmarks/results/NAME.json``: per set,
each differing row's counts committed and now, both readings here, and
``made_by_the_change``; and per set the totals of the rows so changed, before and after.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import io
import subprocess
from pathlib import Path
from typing import Any

from benchmarks.eval_reader import RESULTS, _one, machine, parse_set, score_counts, write_json

ROOT = Path(__file__).resolve().parents[1]

#: the evaluation sets: results name -> (``--faults``, ``--style`` pins), as the README's
#: commands read them (the seeds are each CSV's own)
SETS: dict[str, tuple[bool, dict[str, Any] | None]] = {
    "reader_eval": (False, None),
    "reader_eval_fresh": (False, None),
    "reader_eval_faults": (True, None),
    "dev_faults_eval": (True, None),
    "onyx_eval": (False, {"edition": "onyx"}),
    "onyx_eval_held_out": (False, {"edition": "onyx"}),
    "dev_eval": (False, None),
    "dev2_eval": (False, None),
    "dev3_eval": (False, None),
    "dev_check_eval": (False, {"table": "oilcloth_check"}),
}

#: the columns compared (counts, not times)
KEYS = ("label_tiles", "found_tiles", "matched", "digits", "digits_right", "perfect",
        "loose_found", "loose_matched", "loose_right", "faults_reported", "violations_false",
        "error")


def changed_rows(before: list[dict[str, str]], now: list[dict[str, str]]
                 ) -> list[tuple[dict[str, str], dict[str, str]]]:
    """The pairs (row before, row now) of two results CSVs of one set whose counts
    (:data:`KEYS`) differ, in order; an error compared without the hint closing it in
    brackets (:func:`error_kind`: why no tile was found, reworded at stop 98, is no
    change of what was read). Raises ``ValueError`` if the two do not list the same
    photos."""
    if [r["path"] for r in before] != [r["path"] for r in now]:
        raise ValueError("the two results list different photos")

    def key(r: dict[str, str]) -> list[str]:
        return [error_kind(r.get(k, "")) if k == "error" else r.get(k, "") for k in KEYS]

    return [(a, b) for a, b in zip(before, now, strict=True) if key(a) != key(b)]


def error_kind(error: str) -> str:
    """A results row's error without the hint in brackets closing it ("x: no tiles found
    (the photo is very dark)" -> "x: no tiles found")."""
    if error.endswith(")") and " (" in error:
        return error[:error.rindex(" (")]
    return error


def _committed(name: str, rev: str) -> list[dict[str, str]]:
    """The rows of results CSV ``name`` at git commit ``rev`` ([] where it has none)."""
    out = subprocess.run(["git", "show", f"{rev}:benchmarks/results/{name}.csv"], cwd=ROOT,
                         capture_output=True, text=True)
    return list(csv.DictReader(io.StringIO(out.stdout))) if out.returncode == 0 else []


def main() -> None:
    """Parse the arguments, read the differing rows again, write the results file."""
    from vision.classifier import one_core_each
    from vision.config import DEFAULT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", required=True, help="the commit whose results CSVs were read before")
    ap.add_argument("--before", action="append", default=[], metavar="KEY=VALUE",
                    help="a reader setting at its value before the change (repeatable)")
    ap.add_argument("--name", default="ab_rows")
    args = ap.parse_args()
    try:
        over = parse_set(args.before)
        before_cfg = dataclasses.replace(DEFAULT, **over)
    except (TypeError, ValueError) as e:
        raise SystemExit(f"ab_rows: --before: {e}") from None
    if subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{args.rev}^{{commit}}"],
                      cwd=ROOT, capture_output=True).returncode != 0:
        raise SystemExit(f"ab_rows: git knows no commit {args.rev!r}")
    one_core_each()  # (as the evaluation's workers read: one thread each)
    out: dict[str, Any] = {"rev": args.rev, "before": over, "sets": {}}
    for name, (faults, pins) in SETS.items():
        path = RESULTS / f"{name}.csv"
        old = _committed(name, args.rev)
        if not path.exists() or not old:
            continue
        with open(path, newline="", encoding="utf-8") as f:
            now = list(csv.DictReader(f))
        rows, by_change = [], {"before": dict.fromkeys(KEYS[:-1], 0),
                               "after": dict.fromkeys(KEYS[:-1], 0)}
        for a, b in changed_rows(old, now):
            seed = int(a["path"].rsplit("_", 1)[1])
            here = [score_counts(_one(seed, faults, pins=pins, cfg=c), KEYS)
                    for c in (before_cfg, DEFAULT)]
            made = here[0] != here[1]
            rows.append({"path": a["path"],
                         "committed": {k: a[k] for k in KEYS if a[k] != b[k]},
                         "now": {k: b[k] for k in KEYS if a[k] != b[k]},
                         "before_here": here[0], "after_here": here[1],
                         "made_by_the_change": made})
            if made:
                for tag, h in zip(("before", "after"), here, strict=True):
                    for k in KEYS[:-1]:
                        by_change[tag][k] += int(h[k] or 0)
            print(f"{name} {a['path']}: {'the change' if made else 'the host'}", flush=True)
        out["sets"][name] = {"rows_differing": len(rows),
                             "made_by_the_change": sum(r["made_by_the_change"] for r in rows),
                             "totals_of_those": by_change, "rows": rows}
    out["machine"] = machine()
    write_json(args.name, out)


if __name__ == "__main__":
    main()
