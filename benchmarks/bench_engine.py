"""Engine speed: legal moves for a full rack plus all openings, per board.

Boards of 10, 30 and 50 tiles are grown by seeded random legal play
(:func:`engine.positions.random_board`, standard set). For each board the rack is 9 random
unplayed tiles (or all of them when fewer are left). One *board time* is one call of
``legal_placements`` + ``find_openings`` (near-openings included); each board is timed
``--repeat`` times and its median kept; the report gives the median (and p90, max) over
boards, plus the median of each board's fastest run and the load average at the start
(the machine is shared: other processes inflate the medians). Also reported: moves for
every unplayed tile (the no-rack mode of ``moves``).

Run: ``python -m benchmarks.bench_engine`` -> ``benchmarks/results/engine.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from engine import get_rules
from engine.board import Board
from engine.moves import legal_placements, unplayed_placements
from engine.openings import find_openings
from engine.positions import random_board
from engine.tiles import Tile

RESULTS = Path(__file__).parent / "results" / "engine.json"
# (tiles on the board, set): 50 standard tiles leave only 6 for the rack, so the 76-tile set
# is measured at 50 too, with a full 9-tile rack
SIZES = ((10, "standard"), (30, "standard"), (50, "standard"), (50, "extended"))
TARGET_MS = 2.0


def _times_ms(fn: Any, repeat: int) -> tuple[float, float]:
    """(median, min) of ``repeat`` timed calls, in milliseconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), min(times)


def _boards(size: int, set_name: str, count: int) -> list[tuple[Board, list[Tile]]]:
    out: list[tuple[Board, list[Tile]]] = []
    seed = 0
    while len(out) < count:
        board = random_board(size, seed=1000 * size + seed, set_name=set_name)
        seed += 1
        if len(board) != size:
            continue  # stuck before reaching the size: not a board of this size
        rng = random.Random(seed)
        unplayed = board.unplayed()
        rack = rng.sample(unplayed, min(9, len(unplayed)))
        out.append((board, rack))
    return out


def run(boards_per_size: int = 30, repeat: int = 15) -> dict[str, Any]:
    """Time every size; return the results record (also what is written to the file)."""
    rules = get_rules()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    sizes: dict[str, Any] = {}
    for size, set_name in SIZES:
        per_board, best, no_rack, n_moves, n_open = [], [], [], [], []
        for board, rack in _boards(size, set_name, boards_per_size):
            def both(board: Board = board, rack: list[Tile] = rack) -> None:
                legal_placements(board, rack, rules)
                find_openings(board, rules)
            med, low = _times_ms(both, repeat)
            per_board.append(med)
            best.append(low)
            no_rack.append(_times_ms(lambda b=board: unplayed_placements(b, rules), repeat)[0])
            n_moves.append(len(legal_placements(board, rack, rules)))
            o = find_openings(board, rules)
            n_open.append(len(o.pending) + len(o.near))
        per_board.sort()
        sizes[str(size) if set_name == "standard" else f"{size} {set_name}"] = {
            "boards": len(per_board),
            "median_ms": round(statistics.median(per_board), 4),
            "p90_ms": round(per_board[int(0.9 * (len(per_board) - 1))], 4),
            "max_ms": round(per_board[-1], 4),
            "median_of_best_ms": round(statistics.median(best), 4),
            "no_rack_moves_median_ms": round(statistics.median(no_rack), 4),
            "mean_legal_moves_for_rack": round(statistics.mean(n_moves), 1),
            "mean_openings_incl_near": round(statistics.mean(n_open), 1),
        }
    return {
        "benchmark": "engine: legal_placements(full rack) + find_openings, per board",
        "target_ms": TARGET_MS,
        "meets_target": all(s["median_ms"] < TARGET_MS for s in sizes.values()),
        "sizes": sizes,
        "repeat_per_board": repeat,
        "load_average_before": load,
        "note": "per board: median of the timed runs; median_of_best_ms uses each board's "
                "fastest run (less sensitive to other processes on the machine)",
        "machine": {"python": platform.python_implementation() + " " + platform.python_version(),
                    "platform": platform.platform(), "cpus": os.cpu_count(),
                    "processor": platform.processor() or platform.machine()},
    }


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: run, print a summary, write the results file."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=30, help="boards per size")
    ap.add_argument("--repeat", type=int, default=15, help="timed runs per board")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    res = run(args.boards, args.repeat)
    for size, s in res["sizes"].items():
        print(f"{size:>11} tiles: median {s['median_ms']:.3f} ms (p90 {s['p90_ms']:.3f}, "
              f"max {s['max_ms']:.3f}, best-run median {s['median_of_best_ms']:.3f}); "
              f"no-rack moves {s['no_rack_moves_median_ms']:.3f} ms; "
              f"{s['mean_legal_moves_for_rack']} moves, {s['mean_openings_incl_near']} openings")
    print(f"target < {TARGET_MS} ms per board: {'met' if res['meets_target'] else 'NOT met'}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
