"""Labelled synthetic photos of Triominos tables (issue 3).

>>> from vision.synth import render
>>> s = render(7, size=(640, 480))
>>> s.image.shape, s.label["format"]
((480, 640, 3), 'triominos-reading/1')

Public API: :func:`render` (one photo and its Reading label), :func:`stream` (many,
without files), :func:`style_names` / :func:`holdout` (the named styles, for pinning and
holding out), :class:`Sample`, :class:`StyleError`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .render import Sample, render
from .styles import CATEGORICAL, EDITIONS, FONTS, TABLES, StyleError, holdout, style_names


def stream(seed: int, n: int, **kw: Any) -> Iterator[Sample]:
    """Yield ``n`` samples: photo ``k`` is ``render(seed + k, **kw)`` (no files written).

    Keyword arguments are those of :func:`render` (``size``, ``style``, ``faults``).
    """
    for k in range(int(n)):
        yield render(int(seed) + k, **kw)


__all__ = ["CATEGORICAL", "EDITIONS", "FONTS", "TABLES", "Sample", "StyleError", "holdout",
           "render", "stream", "style_names"]
