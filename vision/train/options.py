"""The options of ``python -m vision.train.digits`` (argparse only, no torch): checked
before any crop is cut, and tested where the ``train`` extra is not installed."""

from __future__ import annotations

import argparse
from pathlib import Path

from vision.classifier import MODELS_DIR


def parse_args(argv: list[str] | None = None, description: str = "") -> argparse.Namespace:
    """The training command's options from ``argv`` (None: ``sys.argv[1:]``).

    Exits with argparse's one-line usage error (code 2) on a bad value, and on ``--hidden
    skip`` without ``--hands``: without hands and objects in the renders no digit is hidden,
    so the option would change nothing (it used to be accepted and silently ignored).
    """
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--train-renders", type=int, default=1400)
    ap.add_argument("--val-renders", type=int, default=200)
    ap.add_argument("--copies", type=int, default=2, help="jittered cuts per training render")
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--width", type=float, default=1.0, help="channel multiplier of the CNN")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=4e-3)
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (1: on a shared 2-core CPU, 2 threads spin-wait)")
    ap.add_argument("--workers", type=int, default=2, help="render processes")
    ap.add_argument("--hands", action="store_true",
                    help="renders keep hands and objects, a digit more than half under "
                         "one labelled none (tried, not shipped: models/README.md)")
    ap.add_argument("--hidden", choices=("none", "skip"), default="none",
                    help="with --hands: a digit more than half hidden is labelled none, or "
                         "skipped (not cut)")
    ap.add_argument("--hard", type=int, default=0, metavar="N",
                    help="N more training renders of small, blurred tiles (20-50 px a side, "
                         "defocus or motion blur of 0.8-2.5 px: where the shipped model errs most)")
    ap.add_argument("--out", type=Path, default=MODELS_DIR / "digits.onnx")
    args = ap.parse_args(argv)
    if args.hard < 0:
        ap.error(f"--hard must be 0 or more, not {args.hard}")
    if args.hidden != "none" and not args.hands:
        ap.error(f"--hidden {args.hidden} needs --hands: without hands or objects in the "
                 "renders no digit is hidden")
    return args
