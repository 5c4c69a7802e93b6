"""Would a board whose digits were mostly chosen against their crops be better refused?

A blurred board is read by making its corners agree: where a crop's first choice does
not fit its neighbours, the board's choice overrules it (flagged). Some such boards come
out right (every overruled corner put right by the board), some come out with a third of
their digits wrong. This measures, on fresh synthetic photos (the same seeds and styles
as :mod:`benchmarks.eval_reader`), for each photo whose board was read: its board
corners, the share of them overruled (:func:`vision.pipeline._against`), how clearly its
crops read (mean first-choice probability), and its wrong digits against the label; then
for each bar on the overruled share, what refusing every board at or over it would cost
(digits no longer read, right ones among them) and save (wrong digits no longer
reported).

Run: ``python -m benchmarks.overruled_boards --seed 71000000 --count 1000 --name NAME``
-> ``benchmarks/results/NAME.json``. About 1 s a photo on one core.
"""

from __future__ import annotations

import argparse
import os
import time
from multiprocessing import Pool
from typing import Any

from benchmarks.eval_reader import SIZE, _style, machine, model_info, write_json

BARS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4)


def one(job: tuple[int, bool]) -> dict[str, Any] | None:
    """Render, read and score the photo of seed ``job[0]`` (faults ``job[1]``): its
    board's corner counts, or None where no board tile was read."""
    import numpy as np

    from vision.batch import score_reading
    from vision.pipeline import _against, read_array
    from vision.synth import render
    seed, faults = job
    sample = render(seed, size=SIZE, style=_style(seed), faults=faults)
    try:
        reading = read_array(sample.image, name=f"synth_{seed}")
    except Exception:  # noqa: BLE001 - a photo read as nothing has no board to judge
        return None
    board = [t for t in reading.tiles if t.cell is not None and "partial" not in t.flags]
    if not board:
        return None
    sc = score_reading(f"synth_{seed}", sample.label, reading.to_json())
    tops = np.array([float(t.probs[k, :6].max()) for t in board for k in range(3)])
    return {"seed": seed, "corners": 3 * len(board),
            "overruled": sum(len(_against(t)) for t in board),
            "clarity": round(float(tops.mean()), 4),
            "digits": sc.digits, "wrong": sc.digits - sc.digits_right}


def summarise(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per bar of :data:`BARS`: the photos whose overruled share is at or over it, their
    digits scored, right and wrong (what refusing those boards would give up and save)."""
    out = []
    for bar in BARS:
        hit = [r for r in rows if r["overruled"] / r["corners"] >= bar]
        digits = sum(r["digits"] for r in hit)
        wrong = sum(r["wrong"] for r in hit)
        out.append({"bar": bar, "photos": len(hit), "digits": digits, "wrong": wrong,
                    "right": digits - wrong,
                    "photos_mostly_right": sum(r["wrong"] * 10 < r["digits"] for r in hit)})
    return out


def main() -> None:
    """Command line: read the photos, write the per-photo rows and the summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=71_000_000)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--faults", action="store_true")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--name", default="overruled_boards")
    args = ap.parse_args()
    t0 = time.time()
    jobs = [(args.seed + i, args.faults) for i in range(args.count)]
    with Pool(args.workers) as pool:
        rows = [r for r in pool.imap(one, jobs, chunksize=4) if r is not None]
    rows.sort(key=lambda r: -r["overruled"] / r["corners"])
    write_json(args.name, {
        "seeds": [args.seed, args.seed + args.count - 1], "faults": args.faults,
        "photos_with_board": len(rows), "digits": sum(r["digits"] for r in rows),
        "wrong": sum(r["wrong"] for r in rows), "if_refused_at": summarise(rows),
        "photos": rows, "model": model_info(), "machine": machine(),
        "seconds": round(time.time() - t0, 1)})


if __name__ == "__main__":
    main()
