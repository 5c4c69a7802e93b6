"""The real photo read turned and shrunk: does the reader read it the same every way?

``../shared/reference/real_product_photo_12_tiles.jpg`` (not in the repository: other
people's image) is a real oblique photo of 12 tiles: 10 joined on the board, 2 loose
(:data:`BOARD`, :data:`OFF`, read by eye). The issue asks for any rotation and tiles
from about 20 px a side; the synthetic evaluations draw their own tiles, this one real
photo does not change. Here it is shrunk (area-averaged, as a smaller photo is) by each
of ``--scales`` and turned by every ``--step`` degrees (canvas grown, edges
replicated), and each copy is read: right where the board and the tiles off it are
exactly those. ``--set KEY=VALUE`` reads with a :class:`vision.config.ReaderConfig`
field changed (a part switched off, to measure what it does).

Run: ``python -m benchmarks.real_turns --name real_turns`` ->
``benchmarks/results/NAME.json`` (about a minute).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from benchmarks.eval_reader import machine, model_info, parse_set, write_json

ROOT = Path(__file__).resolve().parents[1]
PHOTO = ROOT.parent / "shared" / "reference" / "real_product_photo_12_tiles.jpg"
#: the tiles joined on the real photo's board, and those lying apart from it
BOARD = frozenset({"3-3-3", "3-3-4", "0-1-5", "1-5-5", "1-3-5", "3-5-5", "3-4-5", "0-4-5",
                   "0-5-5", "0-0-4"})
OFF = frozenset({"4-4-5", "0-2-5"})


def turned(img: np.ndarray, deg: float, scale: float = 1.0) -> np.ndarray:
    """``img`` (H, W, 3) shrunk by ``scale`` (area-averaged) and turned ``deg`` degrees
    anticlockwise about its centre, the canvas grown to hold it, edges replicated."""
    if scale != 1.0:
        img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), deg, 1.0)
    c, s = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(h * s + w * c), int(h * c + w * s)
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    return cv2.warpAffine(img, m, (nw, nh), borderMode=cv2.BORDER_REPLICATE)


def read_tiles(img: np.ndarray, cfg: Any) -> tuple[set[str], set[str]]:
    """The tiles (names; "?" for one whose digits were not all read) on the board and off
    it as the reader reads ``img``; raises what the reader raises."""
    from vision.pipeline import read_array
    r = read_array(img, cfg, name="real")
    def names(ts: list[Any]) -> set[str]:
        return {t.tile.name() if t.tile is not None else "?" for t in ts}
    return names(r.tiles), names(r.off_board)


def main(argv: list[str] | None = None) -> None:
    """Command line: read every turned and shrunk copy, write the results file."""
    from vision.config import DEFAULT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photo", type=Path, default=PHOTO)
    ap.add_argument("--scales", default="1,0.75,0.6,0.5")
    ap.add_argument("--step", type=float, default=15.0)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--name", default="real_turns")
    args = ap.parse_args(argv)
    if not args.photo.is_file():
        sys.exit(f"error: {args.photo}: no such photo (../shared/reference/ is not here)")
    over = parse_set(args.set)
    try:
        cfg = dataclasses.replace(DEFAULT, **over)
    except TypeError as e:
        sys.exit(f"error: --set: {e}")
    img = cv2.imread(str(args.photo))
    t0 = time.time()
    rows = []
    for scale in [float(x) for x in args.scales.split(",")]:
        for deg in np.arange(0.0, 360.0, args.step):
            try:
                board, off = read_tiles(turned(img, float(deg), scale), cfg)
                row: dict[str, Any] = {"right": board == BOARD and off == OFF,
                                       "board_missing": sorted(BOARD - board),
                                       "board_extra": sorted(board - BOARD),
                                       "off": sorted(off)}
            except Exception as e:  # noqa: BLE001 - a refusal is a wrong reading here
                row = {"right": False, "error": str(e).splitlines()[0]}
            rows.append({"scale": scale, "deg": float(deg), **row})
    right = sum(r["right"] for r in rows)
    write_json(args.name, {
        "photo": args.photo.name, "set": over, "reads": len(rows), "right": right,
        "by_scale": {str(s): sum(r["right"] for r in rows if r["scale"] == s)
                     for s in sorted({r["scale"] for r in rows}, reverse=True)},
        "wrong": [r for r in rows if not r["right"]], "model": model_info(),
        "machine": machine(), "seconds": round(time.time() - t0, 1)})
    print(f"{right} of {len(rows)} read right")


if __name__ == "__main__":
    main()
