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
import json
import multiprocessing as mp
from typing import Any

from benchmarks.eval_reader import SIZE, _style, machine, parse_style, write_json


def reading_key(reading: dict[str, Any]) -> str:
    """A reading (Reading JSON) as text, its times left out: what two reads of one photo
    must share."""
    return json.dumps({k: v for k, v in reading.items() if k != "timing_ms"}, sort_keys=True)


def read_in_order(seeds: list[int], pins: dict[str, Any] | None) -> dict[int, str]:
    """Render and read the photos of ``seeds`` in the order given, in this process:
    each photo's :func:`reading_key` (or its error's first line)."""
    from vision.config import DEFAULT
    from vision.pipeline import read_array
    from vision.synth import render
    out: dict[int, str] = {}
    for seed in seeds:
        sample = render(seed, size=SIZE, style=_style(seed, pins))
        try:
            out[seed] = reading_key(read_array(sample.image, DEFAULT,
                                               name=f"synth_{seed}").to_json())
        except Exception as e:  # noqa: BLE001 - a photo with no tiles reads as its error
            out[seed] = "error: " + (str(e).splitlines()[0] if str(e) else type(e).__name__)
    return out


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
