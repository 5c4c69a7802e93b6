"""Rule editions as data (see RULES.md), registered by name with aliases.

Every number the scoring and game code uses lives in a :class:`Rules` record. An edition is
found with :func:`get_rules`; single values can be overridden from the command line with
``key=value`` strings (:meth:`Rules.with_overrides`). No code branches on edition *names*.

Where the sheets leave a case open the engine takes the reading documented in RULES.md:
a *pocket* is a placement matching exactly two sides that closes no hexagon.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from .errors import ParseError


@dataclass(frozen=True)
class Rules:
    """One rule edition. Scores are points; ``None`` for a limit means "no limit"."""

    name: str
    description: str
    aliases: tuple[str, ...] = ()
    # placement scoring
    tile_points: str = "sum"          # "sum": digits' sum; "one": 1 point per tile (kids)
    bridge_bonus: int = 40
    pocket_bonus: int = 0             # 0 = the edition has no pocket figure
    hexagon_bonus: int = 50
    double_hexagon_bonus: int = 60
    triple_hexagon_bonus: int = 70
    # start
    start: str = "draw"               # "draw": highest drawn tile starts; "triple": highest triple
    start_triple_bonus: int = 0       # extra for opening with a triple (pressman +10)
    start_zero_bonus: int = 0         # extra on top for opening with 0-0-0 (pressman +30)
    # drawing
    draw_limit: int | None = 3        # tiles a player may draw in one turn
    draw_penalty: int = 5             # per drawn tile
    failed_draw_penalty: int = 10     # still unable after drawing the limit
    empty_pool_penalty: int = 0       # passing because the pool is empty
    # end of round
    going_out_bonus: int = 25         # plus the sum of the other hands
    going_out_takes_hands: bool = True
    finish_round_of_turns: bool = False
    blocked_scoring: str = "subtract_own"  # or "lowest_wins"
    round_winner_bonus: int = 0       # kids: +5 to the round's winner
    target_score: int = 400
    deal: tuple[tuple[int, int], ...] = ((2, 9), (3, 7), (4, 7), (5, 6), (6, 6))
    sources: tuple[str, ...] = field(default=())

    def deal_size(self, players: int) -> int:
        """Tiles dealt to each of ``players`` (2-6). Raises ParseError outside that range."""
        for n, k in self.deal:
            if n == players:
                return k
        raise ParseError(f"{self.name} rules are for 2-6 players, not {players}")

    @property
    def has_pocket(self) -> bool:
        """Whether this edition pays the pocket figure."""
        return self.pocket_bonus > 0

    def with_overrides(self, overrides: list[str] | tuple[str, ...]) -> Rules:
        """A copy with ``key=value`` overrides applied (e.g. ``hexagon_bonus=60``).

        Raises ParseError for an unknown key or a value of the wrong type.
        """
        if not overrides:
            return self
        types = {f.name: f.type for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for text in overrides:
            key, sep, raw = text.partition("=")
            key, raw = key.strip().replace("-", "_"), raw.strip()
            if not sep or key not in types or key in ("name", "aliases", "deal", "sources"):
                settable = ", ".join(k for k in types
                                     if k not in ("name", "aliases", "deal", "sources"))
                raise ParseError(f"bad rule override {text!r} (use key=value; keys: {settable})")
            current = getattr(self, key)
            try:
                if isinstance(current, bool):
                    if raw.lower() not in ("true", "false", "yes", "no", "1", "0"):
                        raise ValueError
                    value: Any = raw.lower() in ("true", "yes", "1")
                elif isinstance(current, int) or "int" in str(types[key]):
                    value = None if raw.lower() in ("none", "unlimited") else int(raw)
                else:
                    value = raw
            except ValueError:
                raise ParseError(f"bad value in rule override {text!r}") from None
            changes[key] = value
        return dataclasses.replace(self, name=f"{self.name}+" + ",".join(overrides), **changes)

    def describe(self) -> str:
        """One line naming the edition, for every command's output."""
        return f"rules: {self.name} ({self.description})"


GOLIATH = Rules(
    name="goliath",
    description="Goliath sheets: bridge 40, hexagon 50/60/70, draw up to 3 at -5, -10 if stuck",
    aliases=("default", "goliath-2020", "nordic"),
    sources=("000", "003", "001 variant A"),
)

PRESSMAN = Rules(
    name="pressman",
    description="Pressman sheets: pocket 40, highest triple starts (+10, 0-0-0 +40), "
                "draw up to 5, -10 on an empty pool",
    aliases=("joker",),
    pocket_bonus=40,
    start="triple",
    start_triple_bonus=10,
    start_zero_bonus=30,
    draw_limit=5,
    empty_pool_penalty=10,
    finish_round_of_turns=True,
    blocked_scoring="lowest_wins",
    sources=("002", "001 variant B"),
)

PRESSMAN_CLASSIC = dataclasses.replace(
    PRESSMAN,
    name="pressman-classic",
    description="older Pressman edition: double hexagon 100, triple 150, no draw limit",
    aliases=("pressman-old",),
    double_hexagon_bonus=100,
    triple_hexagon_bonus=150,
    draw_limit=None,
    sources=("001",),
)

KIDS = Rules(
    name="kids",
    description="simple scoring for children: 1 per tile, +1 bridge, +1/+2/+3 hexagons, "
                "+5 to the round's winner, no penalties",
    aliases=("children", "simple"),
    tile_points="one",
    bridge_bonus=1,
    hexagon_bonus=1,
    double_hexagon_bonus=2,
    triple_hexagon_bonus=3,
    draw_penalty=0,
    failed_draw_penalty=0,
    going_out_bonus=0,
    going_out_takes_hands=False,
    round_winner_bonus=5,
    blocked_scoring="lowest_wins",    # no penalties: a blocked round only names a winner (+5)
    sources=("001", "004"),
)

EDITIONS: tuple[Rules, ...] = (GOLIATH, PRESSMAN, PRESSMAN_CLASSIC, KIDS)


def get_rules(name: str = "goliath", overrides: list[str] | tuple[str, ...] = ()) -> Rules:
    """Look up an edition by name or alias (case-insensitive), then apply overrides.

    Raises ParseError naming the known editions for an unknown name.
    """
    key = (name or "goliath").strip().lower()
    for r in EDITIONS:
        if key == r.name or key in r.aliases:
            return r.with_overrides(list(overrides))
    known = ", ".join(r.name for r in EDITIONS)
    raise ParseError(f"unknown rule edition {name!r} (known: {known})")
