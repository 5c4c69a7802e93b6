"""Tiles and tile sets.

A tile is the cyclic triple of its digits read clockwise (seen from above). It may be
rotated but never reflected. Its name is the rotation that is lexicographically smallest,
written ``a-b-c``. The ``standard`` set holds the 56 tiles ``a-b-c`` with ``a <= b <= c``;
the ``extended`` set adds the 20 mirror tiles ``a-c-b`` with ``a < b < c`` (76 in all).

>>> Tile.parse("2-0-1")
Tile.parse('0-1-2')
>>> Tile.parse("021").in_set("standard")
False
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product

from .errors import ParseError

DIGITS = range(6)
Digits = tuple[int, int, int]

_TILE_RE = re.compile(r"^\s*([0-5])\s*-?\s*([0-5])\s*-?\s*([0-5])\s*$")
_DIGITS_RE = re.compile(r"^\s*(\d)\s*-?\s*(\d)\s*-?\s*(\d)\s*$")  # to name a bad digit


def rotations(digits: Digits) -> tuple[Digits, Digits, Digits]:
    """The three cyclic rotations of a clockwise digit triple, starting with ``digits`` itself."""
    a, b, c = digits
    return ((a, b, c), (b, c, a), (c, a, b))


def canonical(digits: Digits) -> Digits:
    """The lexicographically smallest rotation of ``digits`` (the tile's name order)."""
    return min(rotations(digits))


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """A physical tile: its digits clockwise in canonical rotation.

    Build it with :meth:`parse` or :meth:`from_digits`; the constructor expects the canonical
    rotation already and raises :class:`~engine.errors.ParseError` otherwise.
    """

    digits: Digits

    def __post_init__(self) -> None:
        if len(self.digits) != 3 or any(d not in DIGITS for d in self.digits):
            raise ParseError(f"a tile has three digits 0-5, got {self.digits!r}")
        if canonical(self.digits) != tuple(self.digits):
            raise ParseError(f"{self.digits!r} is not a canonical rotation; use Tile.from_digits")

    @classmethod
    def from_digits(cls, digits: tuple[int, ...] | list[int]) -> Tile:
        """The tile whose clockwise corner digits are ``digits`` (any rotation).

        Raises ParseError for anything but three digits 0-5.
        """
        ds = tuple(digits)
        try:
            hit = _BY_DIGITS.get(ds)  # type: ignore[arg-type]
        except TypeError:  # unhashable junk: let the check below name it
            hit = None
        if hit is not None and type(ds[0]) is int and type(ds[1]) is int and type(ds[2]) is int:
            return hit  # fast path: move generation asks this for every tile on the board
        if len(ds) != 3 or not all(isinstance(d, int) and not isinstance(d, bool) and d in DIGITS
                                   for d in ds):
            raise ParseError(f"a tile has three digits 0-5, got {list(ds)!r}")
        tile = cls(canonical(ds))  # type: ignore[arg-type]
        _BY_DIGITS[ds] = tile  # type: ignore[index]
        return tile

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse ``a-b-c`` or ``abc`` (any rotation). Raises ParseError naming the text."""
        m = _TILE_RE.match(text) if isinstance(text, str) else None
        if not m:
            big = _DIGITS_RE.match(text) if isinstance(text, str) else None
            bad = [d for d in big.groups() if int(d) > 5] if big else []
            if bad:
                raise ParseError(f"not a tile: {text!r}: digit {bad[0]} is out of range 0-5")
            raise ParseError(f"not a tile: {text!r} (expected a-b-c with digits 0-5)")
        return cls.from_digits(tuple(int(g) for g in m.groups()))

    def name(self) -> str:
        """The tile's name ``a-b-c``."""
        return "-".join(str(d) for d in self.digits)

    def __str__(self) -> str:
        return self.name()

    def __repr__(self) -> str:
        return f"Tile.parse({self.name()!r})"

    @property
    def total(self) -> int:
        """The sum of the three digits (the tile's base score)."""
        return sum(self.digits)

    def rotations(self) -> list[Digits]:
        """The distinct clockwise corner orders of this tile (1 for a triple, else 3)."""
        out: list[Digits] = []
        for r in rotations(self.digits):
            if r not in out:
                out.append(r)
        return out

    def mirror(self) -> Tile:
        """The mirror image (digits read anticlockwise); equal to itself unless all differ."""
        a, b, c = self.digits
        return Tile.from_digits((a, c, b))

    @property
    def is_triple(self) -> bool:
        """True for ``a-a-a`` tiles."""
        return self.digits[0] == self.digits[1] == self.digits[2]

    def in_set(self, set_name: str) -> bool:
        """Whether this tile exists in the named set (``standard`` or ``extended``)."""
        return self in tile_set(set_name)


#: Oriented digit triple -> its Tile, filled as tiles are made (at most 216 entries).
_BY_DIGITS: dict[Digits, Tile] = {}

SET_NAMES = ("standard", "extended")


def _build_sets() -> dict[str, frozenset[Tile]]:
    allt = {Tile.from_digits(d) for d in product(DIGITS, repeat=3)}
    std = {t for t in allt if t.digits[0] <= t.digits[1] <= t.digits[2]}
    return {"standard": frozenset(std), "extended": frozenset(allt)}


_SETS = _build_sets()


def tile_set(name: str) -> frozenset[Tile]:
    """The tiles of a set by name. Raises ParseError for an unknown set name."""
    try:
        return _SETS[name]
    except (KeyError, TypeError):
        raise ParseError(f"unknown tile set {name!r} (known: {', '.join(SET_NAMES)})") from None


def parse_rack(text: str) -> list[Tile]:
    """Parse a rack: tiles separated by spaces and/or commas (``"0-1-2 3-4-5"``).

    Raises ParseError naming the first bad entry; an empty rack is an error too.
    """
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    if not parts:
        raise ParseError("empty rack: give tiles like \"0-1-2 3-4-5\"")
    return [Tile.parse(p) for p in parts]
