"""The Triominos rules engine: tiles, the lattice, boards, rule editions, scoring, moves.

Pure standard library. It is the referee: it never guesses.
"""

from .board import BOARD_FORMAT, Board, Status, Violation
from .errors import AmbiguousPlacementError, IllegalPlacementError, ParseError, TriominosError
from .lattice import Cell, Vertex, cell_corners, cell_name, parse_cell
from .moves import (
    Move,
    Placement,
    is_legal,
    legal_placements,
    moves_by_cell,
    placement_problems,
    unplayed_placements,
)
from .openings import NearOpening, Opening, Openings, find_openings
from .referee import Check, check_change, check_placement, check_text
from .rules import EDITIONS, Rules, get_rules
from .scoring import Score, score_pass, score_placement
from .tiles import Tile, parse_rack, tile_set

__all__ = [
    "BOARD_FORMAT", "Board", "Status", "Violation",
    "AmbiguousPlacementError", "IllegalPlacementError", "ParseError", "TriominosError",
    "Cell", "Vertex", "cell_corners", "cell_name", "parse_cell",
    "EDITIONS", "Rules", "get_rules",
    "Tile", "parse_rack", "tile_set",
    "Move", "Placement", "is_legal", "legal_placements", "moves_by_cell", "placement_problems",
    "unplayed_placements",
    "NearOpening", "Opening", "Openings", "find_openings",
    "Check", "check_change", "check_placement", "check_text",
    "Score", "score_pass", "score_placement",
]
