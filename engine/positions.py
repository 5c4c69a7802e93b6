"""Seeded random legal positions, for tests, benchmarks and sample boards.

:func:`random_board` plays random legal placements from the unplayed tiles, preferring
(with probability ``compact``) the placements that match the most sides, so that boards
grow rings and hexagon openings like real tables do rather than long thin chains.
"""

from __future__ import annotations

import random

from .board import Board
from .moves import unplayed_placements
from .rules import Rules, get_rules


def random_board(n_tiles: int, seed: int = 0, *, set_name: str = "standard",
                 rules: Rules | None = None, compact: float = 0.7) -> Board:
    """A legal board of up to ``n_tiles`` tiles grown by seeded random play.

    Stops early when no unplayed tile fits anywhere (rare below ~45 standard tiles).
    Deterministic for a given seed. Raises ParseError for an unknown set name.
    """
    rng = random.Random(seed)
    rules = rules or get_rules()
    board = Board(set_name=set_name)
    while len(board) < n_tiles:
        moves = unplayed_placements(board, rules)
        if not moves:
            break
        if rng.random() < compact:
            best = max(m.score.matched_sides for m in moves)
            moves = [m for m in moves if m.score.matched_sides == best]
        m = rng.choice(moves)
        board.cells[m.cell] = m.placement.corners
    return board
