"""The triangular lattice: the one coordinate system of the product (see DESIGN.md).

Seen from above with y pointing up and a tile edge of 1 unit:

* a **vertex** ``(i, j)`` lies at ``(i + j/2, j*sqrt(3)/2)``;
* a **cell** is ``(i, j, "U")`` or ``(i, j, "D")``. ``U(i,j)`` has vertices ``(i,j)``,
  ``(i+1,j)``, ``(i,j+1)`` (apex ``(i,j+1)`` up); ``D(i,j)`` has ``(i+1,j)``, ``(i+1,j+1)``,
  ``(i,j+1)`` (apex ``(i+1,j)`` down);
* a cell's **corners** are listed clockwise starting at the apex.

>>> cell_corners((0, 0, "U"))
((0, 1), (1, 0), (0, 0))
>>> parse_cell("0,-2,D")
(0, -2, 'D')
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from .errors import ParseError

Vertex = tuple[int, int]
Cell = tuple[int, int, str]

SQRT3_2 = math.sqrt(3) / 2
_CELL_RE = re.compile(r"^\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*[\"']?([UuDd])[\"']?\s*\)?\s*$")


def make_cell(i: int, j: int, kind: str) -> Cell:
    """A validated cell tuple. Raises ParseError for a non-integer index or a kind not U/D."""
    if (not isinstance(i, int) or isinstance(i, bool) or not isinstance(j, int)
            or isinstance(j, bool) or kind not in ("U", "D")):
        raise ParseError(f"not a cell: {[i, j, kind]!r} (expected [i, j, \"U\"|\"D\"])")
    return (i, j, kind)


def parse_cell(text: str) -> Cell:
    """Parse ``i,j,U`` / ``i,j,D`` (brackets, quotes and lower case accepted)."""
    m = _CELL_RE.match(text) if isinstance(text, str) else None
    if not m:
        raise ParseError(f"not a cell: {text!r} (expected i,j,U or i,j,D)")
    return (int(m.group(1)), int(m.group(2)), m.group(3).upper())


def cell_name(cell: Cell) -> str:
    """The text form ``i,j,U`` of a cell (pastes back into :func:`parse_cell`)."""
    return f"{cell[0]},{cell[1]},{cell[2]}"


def vertex_name(v: Vertex) -> str:
    """The text form ``(i,j)`` of a vertex."""
    return f"({v[0]},{v[1]})"


def vertex_xy(v: Vertex) -> tuple[float, float]:
    """Position of a vertex in table units (tile edge = 1, y up)."""
    return (v[0] + v[1] / 2, v[1] * SQRT3_2)


def cell_corners(cell: Cell) -> tuple[Vertex, Vertex, Vertex]:
    """The cell's three vertices clockwise from its apex (the order of Board JSON corners)."""
    i, j, k = cell
    if k == "U":
        return ((i, j + 1), (i + 1, j), (i, j))
    return ((i + 1, j), (i, j + 1), (i + 1, j + 1))


def cell_centroid(cell: Cell) -> tuple[float, float]:
    """Centre of the cell in table units."""
    pts = [vertex_xy(v) for v in cell_corners(cell)]
    return (sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3)


def edge_neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    """The three cells sharing an edge with ``cell``.

    Ordered so that neighbour ``k`` lies across the edge *opposite* corner ``k``.
    """
    i, j, k = cell
    if k == "U":
        # corners: apex (i,j+1), (i+1,j), (i,j); opposite apex = bottom edge
        return ((i, j - 1, "D"), (i - 1, j, "D"), (i, j, "D"))
    # corners: apex (i+1,j), (i,j+1), (i+1,j+1); opposite apex = top edge
    return ((i, j + 1, "U"), (i + 1, j, "U"), (i, j, "U"))


def across_edge(cell: Cell, k: int) -> tuple[Cell, Vertex]:
    """The cell across the edge opposite corner ``k`` of ``cell``, and its corner that is
    not on that edge (the fourth vertex of the rhombus the two cells make)."""
    corners = cell_corners(cell)
    edge = (corners[(k + 1) % 3], corners[(k + 2) % 3])
    nb = edge_neighbours(cell)[k]
    return nb, next(v for v in cell_corners(nb) if v not in edge)


def cells_around(v: Vertex) -> tuple[Cell, ...]:
    """The six cells that meet at vertex ``v`` (its hexagon ring)."""
    i, j = v
    return ((i, j, "U"), (i - 1, j, "U"), (i, j - 1, "U"),
            (i - 1, j, "D"), (i - 1, j - 1, "D"), (i, j - 1, "D"))


def vertex_neighbours(cell: Cell) -> set[Cell]:
    """Every other cell sharing at least one vertex with ``cell`` (12 cells)."""
    out: set[Cell] = set()
    for v in cell_corners(cell):
        out.update(cells_around(v))
    out.discard(cell)
    return out


def cell_from_vertices(vs: Iterable[Vertex]) -> Cell:
    """The cell whose vertex set is ``vs``. Raises ParseError if they form no cell."""
    pts = sorted(set(vs))
    if len(pts) == 3:
        sums = sorted(p[0] + p[1] for p in pts)
        if sums[0] + 1 == sums[1] == sums[2]:
            lo = min(pts, key=lambda p: p[0] + p[1])
            cell: Cell = (lo[0], lo[1], "U")
        elif sums[0] == sums[1] == sums[2] - 1:
            hi = max(pts, key=lambda p: p[0] + p[1])
            cell = (hi[0] - 1, hi[1] - 1, "D")
        else:
            cell = (0, 0, "?")
        if cell[2] != "?" and sorted(cell_corners(cell)) == pts:
            return cell
    raise ParseError(f"vertices {pts!r} do not form a lattice cell")


# --- symmetry: the lattice is mapped onto itself by 60-degree turns and translations ---

def rotate_vertex(v: Vertex, turns: int = 1) -> Vertex:
    """Rotate a vertex about the origin by ``turns`` x 60 degrees anticlockwise."""
    i, j = v
    for _ in range(turns % 6):
        i, j = -j, i + j
    return (i, j)


def transform_cell(cell: Cell, corners: tuple[int, int, int], turns: int = 0,
                   shift: Vertex = (0, 0)) -> tuple[Cell, tuple[int, int, int]]:
    """Move a cell and its corner digits by a rotation (``turns`` x 60 deg) then a translation.

    Returns the new cell and its digits re-listed in the new cell's corner order, so the
    same physical tile lies there. Handedness is kept (rotations never mirror).
    """
    digit_at = {}
    for v, d in zip(cell_corners(cell), corners, strict=True):
        rv = rotate_vertex(v, turns)
        digit_at[(rv[0] + shift[0], rv[1] + shift[1])] = d
    new = cell_from_vertices(digit_at)
    return new, tuple(digit_at[v] for v in cell_corners(new))  # type: ignore[return-value]
