"""Exceptions of the engine.

Three tiers, as in python-chess: a text or file that cannot be parsed
(:class:`ParseError`), a placement that breaks the rules (:class:`IllegalPlacementError`)
and a placement that could mean more than one thing (:class:`AmbiguousPlacementError`).
All derive from :class:`TriominosError`, itself a ``ValueError``, so a caller can catch one
type and print its one-line message. A well-formed board that breaks the rules is *not* an
exception: it loads, and :meth:`engine.board.Board.violations` names its problems.
"""

from __future__ import annotations

from pathlib import Path


class TriominosError(ValueError):
    """Base of every error the engine raises on bad input; ``str(e)`` is one line."""


class ParseError(TriominosError):
    """Text, a tile, a cell, a Board JSON document or a rule override could not be read."""


class IllegalPlacementError(TriominosError):
    """A placement that the rules forbid where the caller asked for a legal one."""


class AmbiguousPlacementError(TriominosError):
    """A placement naming a tile that fits its cell in more than one rotation."""


def read_input_file(path: str | Path) -> str:
    """Read a UTF-8 input file the user named. Raises ParseError ``"<path>: cannot read: ..."``."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ParseError(f"{p}: cannot read: {getattr(e, 'strerror', None) or e}") from None
