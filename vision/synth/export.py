"""Writing synthetic photos to a folder (what ``triominos synth`` does), and its argument
parsing: ``--size WxH`` and ``--style key=value``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import ParseError

from .render import render


def parse_size(text: str) -> tuple[int, int]:
    """``"1600x1200"`` -> (1600, 1200). Raises ParseError for anything else."""
    m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text or "")
    if not m:
        raise ParseError(f"bad size {text!r} (expected WIDTHxHEIGHT, e.g. 1600x1200)")
    w, h = int(m.group(1)), int(m.group(2))
    if not (32 <= w <= 8192 and 32 <= h <= 8192):
        raise ParseError(f"size {w}x{h} out of range (32-8192 px a side)")
    return w, h


def _value(text: str) -> Any:
    t = text.strip()
    if "," in t:
        parts = [_value(p) for p in t.split(",") if p.strip()]
        return parts
    if t.lower() in ("true", "yes", "on"):
        return True
    if t.lower() in ("false", "no", "off"):
        return False
    try:
        return int(t)
    except ValueError:
        pass
    try:
        return float(t)
    except ValueError:
        return t


def parse_style(items: Sequence[str] | None) -> dict[str, Any]:
    """``["font=aileron", "tilt_deg=20,40", "table=cloth,paper"]`` -> a style dict.

    A comma list is a choice among names, or a [low, high] range for two numbers.
    Raises ParseError for an item without ``=``.
    """
    out: dict[str, Any] = {}
    for item in items or ():
        if "=" not in item:
            raise ParseError(f"bad --style {item!r} (expected key=value)")
        k, v = item.split("=", 1)
        out[k.strip()] = _value(v)
    return out


@dataclass
class SynthSummary:
    """What :func:`write_photos` wrote."""

    out: str
    count: int
    first_seed: int
    files: list[str] = field(default_factory=list)
    tiles: int = 0
    bytes: int = 0


def write_photos(out: str | Path, count: int, seed: int, *, size: tuple[int, int] | None = None,
                 style: dict[str, Any] | None = None, faults: bool = False,
                 prefix: str = "synth", name: str | None = None,
                 on_photo: Callable[[int], None] | None = None) -> SynthSummary:
    """Render photos ``seed .. seed+count-1`` into ``out``: ``<prefix>_<seed>.jpg`` + ``.json``
    (or ``<name>.jpg`` + ``.json`` for a single photo given a ``name``).

    The JSON is the photo's Reading label (its ``image`` field names the JPEG). Deterministic
    for a seed. Raises StyleError/ParseError for a bad style or name, OSError if ``out`` is
    unwritable.
    """
    if count < 0:
        raise ParseError(f"--count must be 0 or more, got {count}")
    if name is not None and (count != 1 or not re.fullmatch(r"[\w.-]+", name)):
        raise ParseError(f"--name {name!r} needs --count 1 and a plain file name")
    d = Path(out)
    d.mkdir(parents=True, exist_ok=True)
    summary = SynthSummary(str(d), count, seed)
    for k in range(count):
        s = render(seed + k, size=size, style=style, faults=faults)
        stem = name or f"{prefix}_{seed + k:06d}"
        s.label["image"] = f"{stem}.jpg"
        (d / f"{stem}.jpg").write_bytes(s.jpeg)
        (d / f"{stem}.json").write_text(json.dumps(s.label, indent=1) + "\n", encoding="utf-8")
        summary.files.append(f"{stem}.jpg")
        summary.tiles += len(s.label["tiles"])
        summary.bytes += len(s.jpeg)
        if on_photo is not None:
            on_photo(k)
    return summary
