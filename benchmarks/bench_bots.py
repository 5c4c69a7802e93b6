"""Bot strength and self-play speed.

1. **strong vs greedy**: ``--rounds`` single rounds of 2-player Goliath. Deal ``k`` is played
   twice, once with the strong bot in each seat (seats alternate, same tiles: a paired
   design that cancels most of the luck of the deal). A round is won by the higher round
   score (a tie counts half). Reported: win rate with a 95 % Wilson interval, average score
   per round of each bot and the paired difference with a 95 % interval, thinking time per
   move.
2. **strength vs budget**: the same over ``--sweep-rounds`` rounds at each budget in
   ``--budgets`` (0.05 / 0.2 / 1 s by default).
3. **speed**: greedy vs greedy rounds per second (one process, the engine's raw speed).

Runs on at most 2 worker processes (the machine is shared). Results are rewritten after
every ``--flush`` rounds, so an interrupted run leaves what finished, with its count.

Run: ``python -m benchmarks.bench_bots`` -> ``benchmarks/results/bots.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from engine.bots import GreedyBot, StrongBot
from engine.game import play_game
from engine.rules import get_rules

RESULTS = Path(__file__).parent / "results" / "bots.json"


class _Clocked:
    """Counts the strong bot's moves and thinking seconds."""

    def __init__(self, bot: StrongBot) -> None:
        self.bot, self.name, self.moves, self.seconds = bot, bot.name, 0, 0.0

    def choose(self, view: Any, moves: Any, rng: Any) -> Any:
        t0 = time.perf_counter()
        pick = self.bot.choose(view, moves, rng)
        self.seconds += time.perf_counter() - t0
        self.moves += 1
        return pick


def play_pair_round(job: tuple[int, float, str]) -> dict[str, Any]:
    """One round: deal ``k // 2``, the strong bot in seat ``k % 2``. Returns its numbers."""
    k, budget, tag = job
    strong = _Clocked(StrongBot(budget=budget))
    seat = k % 2
    players = [strong, GreedyBot()] if seat == 0 else [GreedyBot(), strong]
    rec = play_game(get_rules("goliath"), players, seed=f"{tag}/{k // 2}", rounds=1)
    sc = rec.rounds[0].scores(2)
    return {"k": k, "strong": sc[seat], "greedy": sc[1 - seat], "moves": strong.moves,
            "think": strong.seconds, "turns": len(rec.rounds[0].turns),
            "end": rec.rounds[0].end.reason if rec.rounds[0].end else None}


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion ``p`` over ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def summarise(rows: list[dict[str, Any]], budget: float, target: int) -> dict[str, Any]:
    """Win rate (ties half) + Wilson CI, average scores, paired difference CI, time/move."""
    n = len(rows)
    if not n:
        return {"budget_s": budget, "rounds": 0, "rounds_planned": target}
    wins = sum(1.0 if r["strong"] > r["greedy"] else 0.5 if r["strong"] == r["greedy"] else 0.0
               for r in rows)
    ties = sum(r["strong"] == r["greedy"] for r in rows)
    rate = wins / n
    lo, hi = wilson(rate, n)
    diffs = [r["strong"] - r["greedy"] for r in rows]
    md = statistics.mean(diffs)
    sd = statistics.stdev(diffs) if n > 1 else 0.0
    moves = sum(r["moves"] for r in rows)
    return {"budget_s": budget, "rounds": n, "rounds_planned": target,
            "complete": n >= target,
            "strong_win_rate": round(rate, 4), "win_rate_ci95": [round(lo, 4), round(hi, 4)],
            "wins": wins, "ties": ties,
            "strong_avg_round_score": round(statistics.mean(r["strong"] for r in rows), 2),
            "greedy_avg_round_score": round(statistics.mean(r["greedy"] for r in rows), 2),
            "avg_difference": round(md, 2),
            "avg_difference_ci95": [round(md - 1.96 * sd / math.sqrt(n), 2),
                                    round(md + 1.96 * sd / math.sqrt(n), 2)],
            "strong_sec_per_move_mean": round(sum(r["think"] for r in rows) / moves, 4)
            if moves else None,
            "strong_moves": moves,
            "rounds_ended_blocked": sum(r["end"] == "blocked" for r in rows)}


def run_matches(budget: float, rounds: int, workers: int, tag: str,
                flush: Any = None) -> list[dict[str, Any]]:
    """Play ``rounds`` paired rounds at ``budget`` on ``workers`` processes."""
    jobs = [(k, budget, tag) for k in range(rounds)]
    rows: list[dict[str, Any]] = []
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for row in pool.imap_unordered(play_pair_round, jobs, chunksize=2):
            rows.append(row)
            if flush and len(rows) % 50 == 0:
                flush(rows)
            if len(rows) % 50 == 0:
                print(f"  {tag} budget {budget}: {len(rows)}/{rounds}", file=sys.stderr,
                      flush=True)
    rows.sort(key=lambda r: r["k"])
    return rows


def greedy_speed(rounds: int) -> dict[str, Any]:
    """Greedy vs greedy single rounds per second, one process."""
    t0 = time.perf_counter()
    turns = 0
    for k in range(rounds):
        rec = play_game(get_rules("goliath"), [GreedyBot(), GreedyBot()], seed=f"speed/{k}",
                        rounds=1)
        turns += len(rec.rounds[0].turns)
    dt = time.perf_counter() - t0
    return {"rounds": rounds, "seconds": round(dt, 2), "rounds_per_second": round(rounds / dt, 1),
            "turns_per_second": round(turns / dt, 0), "processes": 1}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and write the results JSON."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--budget", type=float, default=0.2)
    ap.add_argument("--budgets", default="0.05,0.2,1.0")
    ap.add_argument("--sweep-rounds", type=int, default=200)
    ap.add_argument("--speed-rounds", type=int, default=200)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=str(RESULTS))
    ap.add_argument("--sweep-only", action="store_true",
                    help="keep the main result in --out, redo only the budget sweep (the "
                         "main budget's entry is then the main result itself)")
    args = ap.parse_args(argv)
    workers = max(1, min(2, args.workers))  # shared machine: never more than 2
    out = Path(args.out)
    doc: dict[str, Any] = {
        "benchmark": "bench_bots", "rules": "goliath", "players": 2,
        "design": "single rounds; each deal played twice with the strong bot in each seat "
                  "(seats alternate); a round is won by the higher round score, ties count "
                  "half; 95% Wilson interval for the win rate, normal interval for the mean "
                  "paired score difference",
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "platform": platform.platform(), "workers": workers,
                    "load_avg_at_start": list(os.getloadavg()),
                    "note": "CPU shared with other jobs (a model was training); thinking "
                            "times are wall clock"},
        "strong_settings": {k: v for k, v in vars(StrongBot()).items()
                            if k not in ("clock", "budget")},
        "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }

    def write() -> None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")

    def flush_main(rows: list[dict[str, Any]]) -> None:
        doc["strong_vs_greedy"] = summarise(rows, args.budget, args.rounds)
        write()

    if args.sweep_only:
        doc = json.loads(out.read_text(encoding="utf-8"))
        doc["sweep_load_avg_at_start"] = list(os.getloadavg())
        doc["sweep_started_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        sweep: list[dict[str, Any]] = []
        for b in (float(x) for x in args.budgets.split(",") if x.strip()):
            if b == doc["strong_vs_greedy"]["budget_s"]:
                entry = dict(doc["strong_vs_greedy"], note="the main result (same deals first)")
            else:
                entry = summarise(run_matches(b, args.sweep_rounds, workers, "main"), b,
                                  args.sweep_rounds)
            sweep.append(entry)
            doc["strength_vs_budget"] = sweep
            write()
        doc["sweep_finished_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        write()
        return 0
    t0 = time.perf_counter()
    rows = run_matches(args.budget, args.rounds, workers, "main", flush_main)
    flush_main(rows)
    doc["strong_vs_greedy"]["wall_seconds"] = round(time.perf_counter() - t0, 1)
    s = doc["strong_vs_greedy"]
    doc["target"] = {"win_rate_at_least": 0.6, "budget_at_most_s": 0.2,
                     "win_rate_met": s["strong_win_rate"] >= 0.6,
                     "win_rate_ci_low_above_0.6": s["win_rate_ci95"][0] >= 0.6,
                     "higher_average_met": s["avg_difference_ci95"][0] > 0}
    doc["speed_greedy_vs_greedy"] = greedy_speed(args.speed_rounds)
    write()
    sweep = []
    for b in (float(x) for x in args.budgets.split(",") if x.strip()):
        if b == args.budget and args.sweep_rounds <= len(rows):
            sub = rows[:args.sweep_rounds]  # same deals: reuse the main run's first rounds
        else:
            sub = run_matches(b, args.sweep_rounds, workers, "main")
        sweep.append(summarise(sub, b, args.sweep_rounds))
        doc["strength_vs_budget"] = sweep
        write()
    doc["finished_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    write()
    s = doc["strong_vs_greedy"]
    print(f"strong vs greedy: {s['strong_win_rate']:.1%} wins {s['win_rate_ci95']} over "
          f"{s['rounds']} rounds; avg {s['strong_avg_round_score']} vs "
          f"{s['greedy_avg_round_score']} -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
