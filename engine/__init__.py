"""The Triominos rules engine: tiles, the lattice, boards, rule editions, scoring, moves.

Pure standard library. It is the referee: it never guesses.
"""

from .board import BOARD_FORMAT, Board, Status, Violation
from .errors import AmbiguousPlacementError, IllegalPlacementError, ParseError, TriominosError
from .lattice import Cell, Vertex, cell_corners, cell_name, parse_cell
from .rules import EDITIONS, Rules, get_rules
from .tiles import Tile, parse_rack, tile_set

__all__ = [
    "BOARD_FORMAT", "Board", "Status", "Violation",
    "AmbiguousPlacementError", "IllegalPlacementError", "ParseError", "TriominosError",
    "Cell", "Vertex", "cell_corners", "cell_name", "parse_cell",
    "EDITIONS", "Rules", "get_rules",
    "Tile", "parse_rack", "tile_set",
]
