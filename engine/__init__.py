"""The Triominos rules engine: tiles, the lattice, boards, rule editions, scoring, moves.

Pure standard library. It is the referee: it never guesses.
"""

from .board import BOARD_FORMAT, Board, Status, Violation
from .errors import AmbiguousPlacementError, IllegalPlacementError, ParseError, TriominosError
from .lattice import Cell, Vertex, cell_corners, cell_name, parse_cell
from .moves import Move, Placement, is_legal, legal_placements, placement_problems
from .openings import NearOpening, Opening, Openings, find_openings
from .referee import Check, check_change, check_placement
from .rules import EDITIONS, Rules, get_rules
from .scoring import Score, score_pass, score_placement
from .tiles import Tile, parse_rack, tile_set

__all__ = [
    "BOARD_FORMAT", "Board", "Status", "Violation",
    "AmbiguousPlacementError", "IllegalPlacementError", "ParseError", "TriominosError",
    "Cell", "Vertex", "cell_corners", "cell_name", "parse_cell",
    "EDITIONS", "Rules", "get_rules",
    "Tile", "parse_rack", "tile_set",
    "Move", "Placement", "is_legal", "legal_placements", "placement_problems",
    "NearOpening", "Opening", "Openings", "find_openings",
    "Check", "check_change", "check_placement",
    "Score", "score_pass", "score_placement",
]
