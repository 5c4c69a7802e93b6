"""Does a photo read the same whatever the process read before it?

The reader keeps nothing between photos that changes what it reads, so every photo of a
set read in one process front to back, and in another back to front, must give the same
reading. Before stop 101 one did not (``cv2.magnitude``'s last bit depended on where its
arrays lay in memory: :func:`vision.detect.magnitude`), and the evaluation's rows read
again after a change then differed for no reason of the change's.

Run: ``python -m benchmarks.read_order --seed 76000000 --count 100 [--style KEY=VALUE]
[--name read_order]`` -> ``benchmarks/results/NAME.json``: the photos, those read
differently in the two orders (none, where the reader is sound), the machine. The two
orders run at once, one process each (a few minutes for 100 photos on two cores).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
from typing import Any

from benchmarks.eval_reader import machine, parse_style, write_json


def read_in_order(seeds: list[int], pins: dict[str, Any] | None) -> dict[int, str]:
    """Render and read the photos of ``seeds`` in the order given, in this process, as
    :mod:`benchmarks.ab_code` renders and reads them: each photo's reading as canonical
    JSON text, its times left out (an unreadable photo as its error)."""
    from benchmarks.ab_code import _reader, synthetic_photos
    read = _reader("vision")
    # rendered one at a time: a set's photos are not all held at once
    return {seed: read(synthetic_photos([seed], pins)[0][1].image)[0] for seed in seeds}


def differing(a: dict[int, str], b: dict[int, str]) -> list[int]:
    """The seeds whose two readings differ (both dicts over the same seeds), sorted."""
    return sorted(s for s in a if a[s] != b.get(s))


def main() -> None:
    """Read the set front to back and back to front, one process each; write the seeds
    read differently."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=76_000_000)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--style", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--name", default="read_order")
    args = ap.parse_args()
    pins = parse_style(args.style) or None
    seeds = list(range(args.seed, args.seed + args.count))
    # fresh processes (spawn): nothing read before the first photo but the imports
    with mp.get_context("spawn").Pool(2) as pool:
        fwd, back = pool.starmap(read_in_order, [(seeds, pins), (seeds[::-1], pins)])
    diff = differing(fwd, back)
    out = {"seeds": [args.seed, args.seed + args.count - 1], "style": pins or "held out",
           "photos": len(seeds), "read_differently": diff, "machine": machine()}
    write_json(args.name, out)
    print(f"{len(diff)} of {len(seeds)} photos read differently front to back and back "
          f"to front{': ' + ', '.join(map(str, diff)) if diff else ''}")


if __name__ == "__main__":
    main()
