"""How often is a digit the reader chose against its crop right, by the reason it gives?

Where a corner's crop does not show the digit the board needs, the reader may choose
another and flags why (:func:`vision.pipeline._tile_reading`): to agree with the board,
as read from crops moved each way, as the likeliest digit the set allows where no other
tile shows one, and so on. This measures, on fresh synthetic photos (the same seeds and
styles as :mod:`benchmarks.eval_reader`), every board corner in view of every board tile
matched to its label by position: the reason its digit was chosen (``pixels``: its
crop's own first choice, kept; ``low confidence``: kept, but under the flag's bar), and
whether the digit reported and the crop's own first choice are the table's. So a rule
that overrules the crop can be judged by what it gains (crop wrong, rule right) against
what it loses (crop right, rule wrong), split by blur band.

It also counts the corners in view of the tiles read in part (a digit not seen: under a
hand, beyond the photo's edge): how many, how many right, and of those read at the
reader's ``confident`` bar or more (``sure``), how many right; and how many are
mismatches :attr:`vision.reading.Reading.board` keeps and reports (``kept``: the digit
stays on the reading's board and another tile's digit there differs), and how many of
those are right. And of the digits of tiles read in full where a tile read in part
shows a digit surely: how many are wrong where it shows the table's digit
(``full_wrong_told``) and right where it shows another (``full_right_contra``): what a
rule choosing the board's digits with theirs could gain, and lose. ``--faults`` reads
the photos with deliberate rule faults
(:mod:`benchmarks.eval_reader`'s ``--faults``).

Run: ``python -m benchmarks.inferred_digits --seed 71000000 --count 480 --name NAME``
(``--faults``) -> ``benchmarks/results/NAME.json``. About 2 s a photo on one core; all
cores are used (the 480 dev photos: 8 min on 2).
"""

from __future__ import annotations

import argparse
import os
import re
import time
from collections import defaultdict
from functools import partial
from multiprocessing import Pool
from typing import Any

from benchmarks.eval_reader import SIZE, _style, machine, model_info, write_json
from engine.lattice import Cell, cell_corners
from vision.reading import Reading

#: a corner flag naming a choice against the pixels: "corner K: pixels say X (p), read
#: as D (q) WHY", WHY starting "to ..." or "as ..." (its parentheses dropped)
_AGAINST = re.compile(r"^corner (\d): pixels say .*?, read as \d \([\d.]+\) (.*)$")
_LOW = re.compile(r"^corner (\d): low confidence ")
_NO_CLEAR = re.compile(r"^corner (\d): no clear digit ")


def reasons(flags: list[str]) -> dict[int, str]:
    """Corner -> the reason its digit is what it is, from a tile's ``flags``: the WHY of a
    choice against the pixels (what it adds in parentheses or after a colon dropped,
    so one rule is one reason), ``low confidence`` or ``no clear digit``; corners not
    named are absent (their crop's first choice, clearly)."""
    out: dict[int, str] = {}
    for f in flags:
        m = _AGAINST.match(f)
        if m:
            said = re.sub(r"\s*\([^)]*\)", "", m.group(2))
            out[int(m.group(1))] = said.split(":")[0].strip()
            continue
        for pat, name in ((_LOW, "low confidence"), (_NO_CLEAR, "no clear digit")):
            m = pat.match(f)
            if m and int(m.group(1)) not in out:
                out[int(m.group(1))] = name
    return out


def kept_mismatches(reading: Reading) -> dict[Cell, list[bool]]:
    """For each tile read in part on ``reading``'s board (:attr:`Reading.board`), per
    corner: whether its digit is a mismatch the reading keeps and reports (the digit stays
    on the board, and another tile's digit at that lattice point differs). Taken from the
    board itself, so this measures what the reader does."""
    board = reading.board
    out: dict[Cell, list[bool]] = {}
    for cell, digits in board.partial.items():
        out[cell] = [d is not None and any(e != d for c, e in board.digits_at(v).items()
                                           if c != cell)
                     for v, d in zip(cell_corners(cell), digits, strict=True)]
    return out


def corner_rows(label: dict[str, Any], reading: dict[str, Any], sure: float = 0.9
                ) -> list[dict[str, Any]]:
    """One row per board corner in view (inside the photo, not hidden) of each label tile
    matched by position to a reading tile (``mostly hidden`` ones left out, as the scoring
    does): the reason (:func:`reasons`; ``pixels`` where none is named), whether the
    digit read is the label's, whether no digit was reported there (``unread``: a corner
    left unknown, never right), and whether the crop's own first choice is; and, for a
    tile read in part (``part``), whether the digit was read at ``sure`` or more and
    whether it is a mismatch kept (``kept``: the reading tile's ``kept`` list, from
    :func:`kept_mismatches`; absent: none); for a tile read in full, where a tile read in
    part shows a digit at that lattice point at ``sure`` or more, whether one so shown is
    the label's (``told``) and whether one is another (``contra``)."""
    import numpy as np

    from vision.batch import _label_tiles, _nearest, _readable
    got = [(np.asarray(t["corner_px"], float), t) for t in reading["tiles"]]

    def in_part(t: dict[str, Any]) -> bool:
        """A board tile read in part (a digit not seen)."""
        return t.get("cell") is not None and None in t["corners"]

    # the digits tiles read in part show at each lattice point, read at ``sure`` or more
    part_sure: dict[Any, set[int]] = defaultdict(set)
    for t in reading["tiles"]:
        if in_part(t):
            for v, d, p in zip(cell_corners(tuple(t["cell"])), t["corners"],  # type: ignore[arg-type]
                               t["confidence"], strict=True):
                if d is not None and p >= sure:
                    part_sure[v].add(d)
    w, h = label.get("width", 1 << 30), label.get("height", 1 << 30)
    used: set[int] = set()
    rows: list[dict[str, Any]] = []
    for t, (lpx, ld, optional) in zip(label["tiles"], _label_tiles(label), strict=True):
        best = _nearest(lpx, got, used)
        if best < 0 or optional:
            continue
        gpx, rt = got[best]
        why = reasons(list(rt.get("flags", [])))
        probs = rt.get("probs")
        part = in_part(rt)
        kept = rt.get("kept") or [False] * 3
        for k in _readable(t, lpx, w, h):
            j = int(np.argmin(np.linalg.norm(gpx - lpx[k], axis=1)))
            own = int(np.argmax(probs[j])) if probs is not None else None
            d = rt["corners"][j]
            row = {"why": why.get(j, "pixels"), "right": d == ld[k], "unread": d is None,
                   "own_right": own == ld[k]}
            if part and d is not None:
                row |= {"part": True, "sure": float(rt["confidence"][j]) >= sure,
                        "kept": bool(kept[j])}
            elif not part and rt.get("cell") is not None:
                said = part_sure.get(cell_corners(tuple(rt["cell"]))[j], set())  # type: ignore[arg-type]
                if said:  # a tile read in part shows a digit here surely: its or another
                    row |= {"told": ld[k] in said, "contra": bool(said - {ld[k]})}
            rows.append(row)
    return rows


def one(seed: int, faults: bool = False) -> dict[str, Any]:
    """Render (with deliberate rule ``faults``) and read the photo of ``seed``: its corner
    rows (:func:`corner_rows`) and blur band (no rows where nothing was read)."""
    from vision.batch import conditions
    from vision.config import DEFAULT
    from vision.pipeline import read_array
    from vision.synth import render
    sample = render(seed, size=SIZE, style=_style(seed), faults=faults)
    blur = conditions(sample.label)["blur"]
    try:
        reading = read_array(sample.image, name=f"synth_{seed}")
    except Exception:  # noqa: BLE001 - a photo read as nothing has no corners to judge
        return {"seed": seed, "blur": blur, "rows": []}
    out = reading.to_json()
    # the JSON lists the tiles in cell order (Reading.to_json): the same order here
    tiles = sorted(reading.tiles, key=lambda t: t.cell or ())
    kept = kept_mismatches(reading)
    for js, t in zip(out["tiles"], tiles, strict=True):
        js["probs"] = t.probs.tolist()
        if t.cell in kept:
            js["kept"] = kept[t.cell]
    return {"seed": seed, "blur": blur,
            "rows": corner_rows(sample.label, out, DEFAULT.confident)}


def summarise(photos: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, int]]]:
    """Per reason, per blur band (and ``all``): corners, right, unread (no digit
    reported), the crop's own first choice right, gained (crop wrong, reported right)
    and lost (crop right, reported wrong)."""
    acc: dict[str, dict[str, dict[str, int]]] = defaultdict(
        lambda: defaultdict(lambda: dict.fromkeys(("corners", "right", "unread",
                                                   "own_right", "gained", "lost"), 0)))
    for ph in photos:
        for r in ph["rows"]:
            for band in (ph["blur"], "all"):
                a = acc[r["why"]][band]
                a["corners"] += 1
                a["right"] += r["right"]
                a["unread"] += r["unread"]
                a["own_right"] += r["own_right"]
                a["gained"] += r["right"] and not r["own_right"]
                a["lost"] += r["own_right"] and not r["right"]
    return {why: dict(sorted(b.items())) for why, b in sorted(acc.items())}


def summarise_part(photos: list[dict[str, Any]]) -> dict[str, int]:
    """Over the digits reported on tiles read in part (rows with ``part``): how many and
    how many right, of those read surely, and of the mismatches kept (see
    :func:`corner_rows`); and over the digits of tiles read in full where a tile read in
    part shows a digit surely: how many are wrong while it shows the table's digit
    (``full_wrong_told``: the most a rule choosing the board's digits with those of tiles
    read in part could put right) and how many are right while it shows another
    (``full_right_contra``: the most such a rule could put wrong)."""
    rows = [r for ph in photos for r in ph["rows"] if r.get("part")]
    out = {"digits": len(rows), "right": sum(r["right"] for r in rows)}
    for key in ("sure", "kept"):
        out[key] = sum(r[key] for r in rows)
        out[f"{key}_right"] = sum(r[key] and r["right"] for r in rows)
    full = [r for ph in photos for r in ph["rows"] if "told" in r]
    out["full_at_part"] = len(full)
    out["full_wrong_told"] = sum(not r["right"] and r["told"] for r in full)
    out["full_right_contra"] = sum(r["right"] and r["contra"] for r in full)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=71_000_000)
    ap.add_argument("--count", type=int, default=480)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--name", default="inferred_digits")
    ap.add_argument("--faults", action="store_true",
                    help="deliberate rule faults on every board (as eval_reader's)")
    a = ap.parse_args()
    t0 = time.perf_counter()
    with Pool(a.workers) as pool:
        photos = pool.map(partial(one, faults=a.faults), range(a.seed, a.seed + a.count),
                          chunksize=1)
    out = {"seeds": [a.seed, a.seed + a.count - 1], "photos": len(photos),
           "faults_on_boards": a.faults,
           "by_reason": summarise(photos), "in_part": summarise_part(photos),
           "wrong_by_photo": {str(p["seed"]): [r["why"] for r in p["rows"] if not r["right"]]
                              for p in photos if any(not r["right"] for r in p["rows"])},
           "model": model_info(), "machine": machine(),
           "seconds": round(time.perf_counter() - t0, 1)}
    write_json(a.name, out)
    for why, bands in out["by_reason"].items():
        b = bands["all"]
        print(f"{why:60.60s} {b['corners']:6d} right {b['right']:6d} unread {b['unread']:3d}"
              f" own {b['own_right']:6d} +{b['gained']} -{b['lost']}")
    print("tiles read in part:", ", ".join(f"{k} {v}" for k, v in out["in_part"].items()))


if __name__ == "__main__":
    main()
