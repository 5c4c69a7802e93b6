"""Fit the lattice: which detected faces form the board, and which cell each occupies.

The assignment grows from tile to tile across shared edges (two corners in common), so a
hand-placed board that drifts across the table never slips a cell: each tile is placed
relative to its neighbour, not to a rigid grid. One homography table -> image, fitted by
RANSAC over all shared vertices, then (a) joins faces that the edge graph missed, (b)
proposes the empty cells around the board so that faces the detector merged or missed can
be checked, and (c) fixes the lattice's orientation (table "up" toward the top of the
photo). Every vertex's image position is the mean of the tile corners meeting there.
Past the faces, the homography is carried outward by the tiles' digits, found as blobs
(:mod:`vision.spots`): a board found by a few faces at one end lies right at the other.

Handedness: tile corners are taken clockwise on screen and mapped to a cell's corners in
the lattice's clockwise order, so the map never mirrors the board (checked: the
homography's Jacobian must have negative determinant, lattice y up vs image y down).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING

import cv2
import numpy as np

from engine.lattice import (
    SQRT3_2,
    Cell,
    Vertex,
    across_edge,
    cell_centroid,
    cell_corners,
    cell_from_vertices,
    edge_neighbours,
    rotate_vertex,
    vertex_neighbours,
    vertex_xy,
)

from .config import ReaderConfig
from .detect import (
    Triangle,
    clockwise,
    edge_map,
    expand_sides,
    face_tone,
    magnitude,
    points_inside,
    side_lengths,
    sobel_from,
)
from .detect import in_tris as _in_tris
from .spots import project, snap_to_digit_blobs

if TYPE_CHECKING:
    from .silhouette import BoardGuess


@dataclass
class LatticeFit:
    """The board's geometry in detection pixels.

    ``cells`` maps a cell to the index of its triangle in ``triangles`` (or -1 for a cell
    proposed from the lattice, not detected); ``vertex_px`` maps a lattice vertex to its
    image position; ``homography`` (3, 3) maps lattice ``(x, y, 1)`` (DESIGN.md units) to
    image pixels; ``loose`` indexes triangles not joined to the board.
    """

    triangles: list[Triangle]
    cells: dict[Cell, int] = field(default_factory=dict)
    vertex_px: dict[Vertex, np.ndarray] = field(default_factory=dict)
    homography: np.ndarray | None = None
    loose: list[int] = field(default_factory=list)
    side: float = 0.0
    #: empty-looking cells next to the board that edges outline: possible missed tiles
    proposed: set[Cell] = field(default_factory=set)
    tried: set[Cell] = field(default_factory=set, repr=False)
    #: cells near the board with no outline at all, for the classifier to judge
    candidates: set[Cell] = field(default_factory=set)
    #: candidate cell -> loose faces lying askew on it (dropped if the cell holds a tile)
    shadowed: dict[Cell, list[int]] = field(default_factory=dict)
    #: the board was fitted to its silhouette (vision.silhouette), not found by its edges
    from_silhouette: bool = False
    #: loose faces lying squarely on a candidate cell (a blank one is no tile off the board)
    squarely: set[int] = field(default_factory=set)
    #: loose faces of other sizes than the board's, offered by a silhouette's fit that
    #: replaced a board of one or two faces: dropped with the board if it is too blurred
    #: to read, and never faces of the boards searched next
    offered: set[int] = field(default_factory=set)
    #: ... those of them not of the size of its cells where they lie (all, without
    #: ``ReaderConfig.apart_board_size``): tiles only where they show digits
    apart: set[int] = field(default_factory=set)
    #: for a board fitted to its silhouette: a later silhouette (one of local tone, which
    #: come last) shows more digit evidence over its cells than this one
    outranked: bool = False
    #: for a board fitted to its silhouette: the fit its faces' edges gave (read instead
    #: if the silhouette's cells read as no digits: a lattice of the wrong size)
    by_edges: LatticeFit | None = field(default=None, repr=False)
    #: the next ring of candidates next to the given cells (those the classifier saw to
    #: hold tiles), past the rings made with the fit; None: no more (see _candidates)
    grow: Callable[[set[Cell]], set[Cell]] | None = field(default=None, repr=False)
    #: for a board fitted to its silhouette: the homography its guess gave (which guess)
    guess: np.ndarray | None = field(default=None, repr=False)
    #: for a board fitted to its silhouette: the same fit, its cells moved onto their
    #: digits (vision.spots.snap_to_digit_blobs), where that moved any
    snapped: LatticeFit | None = field(default=None, repr=False)
    #: the detection copy's size (w, h): an unseen corner completed as a parallelogram
    #: beyond it bends with the homography's perspective (see :meth:`_bend`;
    #: ``ReaderConfig.local_perspective``); None: never
    bend_beyond: tuple[int, int] | None = None
    #: for a board of 3+ faces joined by their edges whose outline showed no board of its
    #: lattice: that outline's board with its lattice moved onto the digits, made when
    #: called (None if none shows; ``ReaderConfig.near_rival``); None: not searched
    rival: Callable[[], LatticeFit | None] | None = field(default=None, repr=False)

    def corner_px(self, cell: Cell) -> np.ndarray:
        """(3, 2) image corners of ``cell`` in its corner order (refined vertices if known)."""
        vp = self.vertex_px
        corners = cell_corners(cell)
        out = [vp.get(v) for v in corners]
        if out[0] is None or out[1] is None or out[2] is None:
            out = [p if p is not None else self._local(cell, k)
                   for k, p in enumerate(out)]
        return np.array(out, dtype=np.float64)

    def _local(self, cell: Cell, k: int) -> np.ndarray:
        """Position of the unseen corner ``k`` of ``cell``: completes the parallelogram
        with the neighbour across the edge opposite it, where that neighbour's vertices
        are known (local, so it follows perspective and drift); the homography where it
        does not help."""
        vp = self.vertex_px
        corners = cell_corners(cell)
        a, b = corners[(k + 1) % 3], corners[(k + 2) % 3]
        _, c = across_edge(cell, k)  # the neighbour's corner that is neither a nor b
        pa, pb, pc = vp.get(a), vp.get(b), vp.get(c)
        if pa is not None and pb is not None and pc is not None:
            flat = pa + pb - pc
            return flat + self._bend(flat, corners[k], a, b, c)
        return self.project(vertex_xy(corners[k]))

    def _bend(self, flat: np.ndarray, d: Vertex, a: Vertex, b: Vertex, c: Vertex
              ) -> np.ndarray:
        """What perspective adds to ``flat``, the parallelogram ``a + b - c``'s fourth
        vertex ``d``, as the homography draws them: (2,) px. Zero where ``flat`` lies in
        the photo (:attr:`bend_beyond`; its pixels place the corners there, and a
        homography fitted over a hand-placed board bends the middle wrongly), with no
        homography, or where it would move ``d`` over half a side or past its horizon
        (a homography that far off there is no guide).

        The parallelogram is affine: on a table tilted 35 degrees or more, near the
        camera, it puts a corner beyond the photo's edge up to a third of a side short,
        and that corner shapes the crops of the digits in view (dev2 71000655)."""
        none = np.zeros(2)
        if self.bend_beyond is None or self.homography is None:
            return none
        w, h = self.bend_beyond
        if 0 <= flat[0] < w and 0 <= flat[1] < h:
            return none
        q = np.array([(*vertex_xy(v), 1.0) for v in (d, a, b, c)]) @ self.homography.T
        if not np.all(q[:, 2] * q[0, 2] > 0):  # a vertex past the horizon
            return none
        p = q[:, :2] / q[:, 2:]
        bend = p[0] - (p[1] + p[2] - p[3])
        return bend if float(np.hypot(*bend)) <= 0.5 * self.side else none

    def project(self, xy: tuple[float, float]) -> np.ndarray:
        """Image position of a lattice point (table units)."""
        assert self.homography is not None
        p = self.homography @ np.array([xy[0], xy[1], 1.0])
        return p[:2] / p[2]


def _view(cfg: ReaderConfig, img: np.ndarray | None) -> tuple[int, int] | None:
    """(w, h) of the detection image ``img``, beyond which the lattice's unseen corners
    bend with perspective (:attr:`LatticeFit.bend_beyond`); None without ``img`` or with
    ``cfg.local_perspective`` off."""
    if img is None or not cfg.local_perspective:
        return None
    return int(img.shape[1]), int(img.shape[0])


def _shared(a: np.ndarray, b: np.ndarray, tol: float) -> list[tuple[int, int]]:
    """Pairs (corner of a, corner of b) closer than ``tol``, each corner used once."""
    d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
    pairs: list[tuple[int, int]] = []
    used_b: set[int] = set()
    for i in np.argsort(d.min(axis=1)):
        j = int(np.argmin(d[i]))
        if d[i, j] < tol and j not in used_b:
            pairs.append((int(i), j))
            used_b.add(j)
    return pairs


def _edge_gap(p1: np.ndarray, p2: np.ndarray, q1: np.ndarray, q2: np.ndarray) -> float:
    """Mean distance of q1, q2 from the line p1-p2 (the width of a seam between edges)."""
    d = p2 - p1
    n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9)
    return float((abs((q1 - p1) @ n) + abs((q2 - p1) @ n)) / 2)


def gap_to_board(fit: LatticeFit, cell: Cell, pts: np.ndarray,
                 board: set[Cell] | None = None) -> float:
    """Smallest seam width (detection pixels) between a face ``pts`` ((3, 2) detection
    pixels, in ``cell``'s corner order) and the tiles of ``fit.cells`` it would share an
    edge with, at their vertices of ``fit.vertex_px`` (inf when no such edge is known).
    With ``board``, its cells count too, each at its outline as the lattice draws it
    (:meth:`LatticeFit.corner_px`: its known vertices, the rest completed from its
    neighbours'): a board tile read where the lattice put it has no outline of its own."""
    corners = cell_corners(cell)
    best = float("inf")
    for n in edge_neighbours(cell):
        drawn = board is not None and n in board
        if n not in fit.cells and not drawn:
            continue
        own = cell_corners(n)
        a, b = [v for v in own if v in corners]
        if a in fit.vertex_px and b in fit.vertex_px:
            pa, pb = fit.vertex_px[a], fit.vertex_px[b]
        elif drawn:
            out = fit.corner_px(n)
            pa, pb = out[own.index(a)], out[own.index(b)]
        else:
            continue
        best = min(best, _edge_gap(pa, pb, pts[corners.index(a)], pts[corners.index(b)]))
    return best


def _is_rotation(seq: tuple[Vertex, ...], ref: tuple[Vertex, ...]) -> int:
    """k such that ``seq`` == ``ref`` rotated to start at ``ref[k]``, else -1."""
    for k in range(3):
        if seq == ref[k:] + ref[:k]:
            return k
    return -1


#: rows of a face-by-face matrix worked at once (a busy photo has thousands of faces)
_ROW_BLOCK = 512


def _join_graph(cfg: ReaderConfig, tris: list[Triangle]
                ) -> dict[int, list[tuple[int, list[tuple[int, int]]]]]:
    """Edge-sharing neighbours: i -> [(j, [(corner_i, corner_j), (corner_i, corner_j)])]."""
    graph: dict[int, list[tuple[int, list[tuple[int, int]]]]] = {i: [] for i in range(len(tris))}
    if len(tris) < 2:
        return graph
    cents = np.array([t.centroid for t in tris])
    sides = np.array([t.side for t in tris])
    pts = np.array([t.pts for t in tris])
    tols = np.maximum(cfg.join_frac * sides, cfg.join_min_px)
    # candidate pairs i < j (row by row, as the graph's lists are ordered): near in place
    # and size; then only pairs with two corners of i near corners of j are worth pairing
    pairs_ij: list[np.ndarray] = []
    for r0 in range(0, len(tris), _ROW_BLOCK):  # rows in blocks: the full matrix may be large
        r = np.arange(r0, min(r0 + _ROW_BLOCK, len(tris)))
        dist = np.linalg.norm(cents[r, None, :] - cents[None, :, :], axis=2)
        near = ((dist < 1.3 * sides[r, None])
                & (np.abs(sides[None, :] / sides[r, None] - 1) < cfg.join_len_frac)
                & (np.arange(len(tris))[None, :] > r[:, None]))
        ii, jj = np.nonzero(near)
        pairs_ij.append(np.stack([r[ii], jj], axis=1))
    ij = np.concatenate(pairs_ij)
    d = np.linalg.norm(pts[ij[:, 0], :, None, :] - pts[ij[:, 1], None, :, :], axis=3)
    two = (d.min(axis=2) < tols[ij[:, 0], None]).sum(axis=1) >= 2
    for i, j in ij[two].tolist():
        side = sides[i]
        pairs = _shared(tris[i].pts, tris[j].pts, tols[i])
        if len(pairs) != 2:
            continue
        (a1, b1), (a2, b2) = pairs
        la = np.linalg.norm(tris[i].pts[a1] - tris[i].pts[a2])
        lb = np.linalg.norm(tris[j].pts[b1] - tris[j].pts[b2])
        if abs(la - lb) > cfg.join_len_frac * max(la, lb):
            continue
        gap = _edge_gap(tris[i].pts[a1], tris[i].pts[a2], tris[j].pts[b1], tris[j].pts[b2])
        if gap > max(cfg.join_gap_frac * side, cfg.join_min_px):
            continue  # parallel but apart: a loose tile lying next to the board
        graph[i].append((j, pairs))
        graph[j].append((i, [(b, a) for a, b in pairs]))
    return graph


def _grow(tris: list[Triangle], graph: dict[int, list[tuple[int, list[tuple[int, int]]]]],
          start: int) -> tuple[dict[Cell, int], dict[int, tuple[Vertex, Vertex, Vertex]]]:
    """Breadth-first cell assignment from ``start`` (placed at U(0,0)) across shared edges."""
    cell_of: dict[int, Cell] = {start: (0, 0, "U")}
    verts: dict[int, tuple[Vertex, Vertex, Vertex]] = {start: cell_corners((0, 0, "U"))}
    owner: dict[Cell, int] = {(0, 0, "U"): start}
    queue = deque([start])
    while queue:
        i = queue.popleft()
        vi = verts[i]
        for j, pairs in graph[i]:
            if j in cell_of:
                continue
            shared_i = {a for a, _ in pairs}
            k = ({0, 1, 2} - shared_i).pop()
            ncell = edge_neighbours(cell_of[i])[k]
            if ncell in owner:
                continue
            ncorners = cell_corners(ncell)
            vj: list[Vertex | None] = [None, None, None]
            for a, b in pairs:
                vj[b] = vi[a]
            rest = [v for v in ncorners if v not in vj]
            if len(rest) != 1:
                continue
            vj[vj.index(None)] = rest[0]
            seq = tuple(vj)  # type: ignore[arg-type]
            if _is_rotation(seq, ncorners) < 0:  # a mirrored join: not a real neighbour
                continue
            cell_of[j] = ncell
            verts[j] = seq  # type: ignore[assignment]
            owner[ncell] = j
            queue.append(j)
    return owner, verts


def _fit_h(cfg: ReaderConfig, vertex_px: dict[Vertex, np.ndarray], side: float
           ) -> np.ndarray | None:
    """Lattice -> image map (3, 3) from vertex correspondences (table units -> px): an
    affine map for few vertices or a thin band of them, a homography (RANSAC) otherwise
    or where it fits clearly more of a band two rows thick (``cfg.h_*``); None when
    under 3 vertices or the fit fails."""
    vs = sorted(vertex_px)
    src = np.array([vertex_xy(v) for v in vs], dtype=np.float64)
    dst = np.array([vertex_px[v] for v in vs], dtype=np.float64)
    if len(vs) < 3:
        return None
    spread = float(np.sqrt(max(np.linalg.eigvalsh(np.cov(src.T)).min(), 0.0)))
    aff = None
    if len(vs) < 8 or spread < cfg.h_thin_spread:
        # few points, or a long thin board: perspective is not determined, and a fitted
        # one would extrapolate wildly along the board; an affine map is safer
        a, _ = cv2.estimateAffine2D(src, dst, ransacReprojThreshold=0.12 * side)
        if a is None:
            return None
        aff = np.vstack([a, [0, 0, 1]])
        if len(vs) < 8 or spread < cfg.h_thick_min:
            return aff
    h, _ = cv2.findHomography(src, dst, cv2.RANSAC, 0.12 * side)
    if aff is None or h is None:
        return h if aff is None else aff
    # a board two rows thick under a steep view: the affine map misses its near tiles by
    # a third of a side (their faces' own corners are then judged off and moved), where a
    # homography fits every vertex (dev 71000920)
    near = cfg.h_fit_frac * side
    fit_h, fit_a = _fitting(h, src, dst, near), _fitting(aff, src, dst, near)
    return h if fit_h >= fit_a + cfg.h_better and fit_h >= cfg.h_fit_share * len(vs) else aff


def _fitting(h: np.ndarray, src: np.ndarray, dst: np.ndarray, near: float) -> int:
    """How many lattice points ``src`` (N, 2) the map ``h`` (3, 3) puts within ``near``
    px of their image positions ``dst`` (N, 2)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        err = np.linalg.norm(project(h, src) - dst, axis=1)
    return int(np.sum(err < near))


def _jac_det(h: np.ndarray, xy: tuple[float, float]) -> float:
    """Determinant of the homography's Jacobian at lattice point ``xy``."""
    eps = 1e-3
    def f(x: float, y: float) -> np.ndarray:
        p = h @ np.array([x, y, 1.0])
        return p[:2] / p[2]
    dx = (f(xy[0] + eps, xy[1]) - f(xy[0] - eps, xy[1])) / (2 * eps)
    dy = (f(xy[0], xy[1] + eps) - f(xy[0], xy[1] - eps)) / (2 * eps)
    return float(dx[0] * dy[1] - dx[1] * dy[0])


def _components(graph: dict[int, list[tuple[int, list[tuple[int, int]]]]], n: int
                ) -> list[int]:
    comp_of = [-1] * n
    c = 0
    for s in range(n):
        if comp_of[s] >= 0:
            continue
        stack = [s]
        comp_of[s] = c
        while stack:
            for j, _ in graph[stack.pop()]:
                if comp_of[j] < 0:
                    comp_of[j] = c
                    stack.append(j)
        c += 1
    return comp_of


def fit_lattice(cfg: ReaderConfig, tris: list[Triangle], gray: np.ndarray | None = None,
                edges: np.ndarray | None = None,
                colour: Callable[[], np.ndarray] | None = None,
                silhouette: bool = True,
                sized: Callable[[float], None] | None = None) -> LatticeFit:
    """Assign the board's faces to lattice cells.

    Starts from the largest edge-joined group of faces, then repeatedly adds groups that
    sit on the same lattice (a board split by a missed tile), single faces on lattice cells
    next to the board, and (with ``gray``, the grey detection image) empty cells next to the
    board that edges outline (faces the detector merged or missed, tiles cut by the photo's
    edge), refitting the homography each round. Returns a :class:`LatticeFit`; faces not
    joined to the board are listed in ``loose``. ``colour`` gives the photo in colour
    (BGR, ``gray``'s size), for the silhouette search only (made only if it runs;
    ``silhouette`` False: never). ``sized`` is told the tile side (px) the board of faces
    is fitted at as soon as it is known, before the fit (the reader starts work that
    depends on it on another core meanwhile); not called when no faces join.
    """
    fit = _fit_edges(cfg, tris, gray, edges, sized)
    n = len(fit.cells) + len(fit.proposed)
    # the faces the board's size left out (outside cfg.size_tolerance of its side)
    others = ([t for t in tris if not 1 / cfg.size_tolerance < t.side / fit.side
               < cfg.size_tolerance] if fit.cells and fit.side > 0 else [])
    if silhouette and gray is not None and n < cfg.silhouette_below:
        # few cells (or none): the seams may be hidden; the board's outline may show
        # faces the size of a real board (3+ faces joined) left out may be tiles nearer
        # the camera (a steep view's near tiles are much bigger than its far ones):
        # judged on the silhouette's lattice where they lie
        extra = others if len(fit.cells) >= 3 and cfg.silhouette_local_size else []
        # one or two faces joined tell no tile size (the whole board outlined as one
        # face): the faces of other sizes may be loose tiles beside the board
        apart = others if len(fit.cells) < cfg.silhouette_loose_below else []
        alt = _from_silhouette(cfg, fit.triangles if fit.cells else tris, gray,
                               fit if len(fit.cells) >= 3 else None, colour, extra, apart)
        # a board of 3+ faces joined by their edges is real: a silhouette that leaves
        # most of them out is something else (a tile cut by the frame, a cup)
        kept = _kept_faces(cfg, fit, alt) if alt else 0
        if (alt is not None and len(alt.cells) + len(alt.proposed) > n
                and (len(fit.cells) < 3 or kept >= 0.5 * len(fit.cells))):
            alt.by_edges = fit
            return alt
        if alt is None and len(fit.cells) >= 3 and cfg.near_rival:
            fit.rival = _moved_outline(cfg, fit, gray, colour, extra, apart)
    _add_local_loose(cfg, fit, others)
    return fit


def _kept_faces(cfg: ReaderConfig, fit: LatticeFit, alt: LatticeFit) -> int:
    """How many of the faces joined on ``fit``'s cells ``alt`` (a silhouette's board)
    keeps: as its own cells, or lying on a cell or a proposed cell of its lattice, of its
    size and within ``cfg.silhouette_kept_off`` of a side of its centre (0: never; a
    defocused board's seams: its faces found by their edges and its silhouette's outline
    agree on the lattice, but the silhouette's cells are matched to other faces; dev3
    76000346: 3 faces on the cells it holds, 1 its own)."""
    own, matched = set(fit.cells.values()), set(alt.cells.values())
    if cfg.silhouette_kept_off <= 0 or alt.homography is None:
        return len(own & matched)
    try:
        hinv = np.linalg.inv(alt.homography)
    except np.linalg.LinAlgError:
        return len(own & matched)
    held = set(alt.cells) | alt.proposed

    def lies_on(t: Triangle) -> bool:
        # on a cell it holds, near its centre, of its size (a lattice holding the faces
        # across its cells is another board: dev2 71000572, 2 of 5 faces within 0.15 of a
        # side of their cells' centres, 4 within 0.25)
        c = cell_at(hinv, t.centroid)
        return (c in held and 1 / cfg.size_tolerance < t.side / alt.side < cfg.size_tolerance
                and float(np.linalg.norm(alt.corner_px(c).mean(axis=0) - t.centroid))
                <= cfg.silhouette_kept_off * alt.side)

    return sum(i in matched or lies_on(fit.triangles[i]) for i in own)


def _moved_outline(cfg: ReaderConfig, fit: LatticeFit, gray: np.ndarray,
                   colour: Callable[[], np.ndarray] | None, extra: Sequence[Triangle],
                   apart: Sequence[Triangle]) -> Callable[[], LatticeFit | None]:
    """The search for ``fit``'s outline again, its lattice moved onto the tiles' digits
    (``cfg.silhouette_align_near``), made when called (see ``LatticeFit.rival``); on the
    board of faces as it is now (the reader adds faces and cells to it later)."""
    found = replace(fit, triangles=list(fit.triangles), cells=dict(fit.cells))
    moved = replace(cfg, silhouette_align_near=True)
    return lambda: _from_silhouette(moved, found.triangles, gray, found, colour, extra,
                                    apart)


def _add_local_loose(cfg: ReaderConfig, fit: LatticeFit, other: Sequence[Triangle]) -> None:
    """Add to ``fit``'s loose faces (in place) the faces of ``other`` (those the board's
    size left out: outside ``cfg.size_tolerance`` of its side) that have the size of the
    lattice cell they lie in, within ``cfg.loose_local_size``: a loose tile far beyond a
    board in a steep view is much smaller than the board's tiles (one near the camera,
    larger). Not those lying on a candidate cell (the lattice reads a tile there) or over
    a loose face already kept. Nothing with ``cfg.loose_local_size`` 0 or no homography."""
    if not cfg.loose_local_size or fit.homography is None or not fit.cells or fit.side <= 0:
        return
    if not other:
        return
    try:
        hinv = np.linalg.inv(fit.homography)
    except np.linalg.LinAlgError:
        return
    more = [t for t in _locally_sized(cfg.loose_local_size, fit.homography, hinv, other)
            if cell_at(hinv, t.centroid) not in fit.candidates]
    if not more:
        return
    first = len(fit.triangles)
    fit.triangles.extend(more)
    taken = np.array([fit.triangles[i].pts for i in fit.loose]).reshape(-1, 3, 2)
    # _loose judges them as it judged the rest (not on the board, one per place)
    for i in _loose(cfg, fit):
        if i < first:
            continue
        t = fit.triangles[i]
        if _overlaps(t, taken):
            continue
        fit.loose.append(i)
        taken = np.concatenate([taken, t.pts[None]])


def _fit_edges(cfg: ReaderConfig, tris: list[Triangle], gray: np.ndarray | None,
               edges: np.ndarray | None,
               sized: Callable[[float], None] | None = None) -> LatticeFit:
    """The board from the faces found and the edges between them (see fit_lattice)."""
    fit = LatticeFit(triangles=tris)
    if not tris:
        return fit
    # the edge field (a few ms) is made here, not on a second thread: the faces are
    # joined in Python meanwhile, and a thread waiting for the GIL between OpenCV calls
    # lost more than it saved (the 12 MP sample's read took about 10 ms longer)
    ef = None
    if gray is not None:
        ef = EdgeField.of(gray, edges if edges is not None else edge_map(cfg, gray))
    graph, comp_of, board = _select(cfg, tris)
    if len(board) < cfg.apart_grow_below and cfg.apart_grow:
        # few faces joined: faces inset in thick rims, or tiles set a little apart (a
        # pair may join where the rims are thinner: onyx dev 73000163, 2 of 44)
        apart = _grown_to_join(cfg, tris)
        least = 2 if len(board) == 1 else max(cfg.apart_grow_least,
                                              cfg.apart_grow_gain * len(board))
        if apart is not None and len(apart[1][2]) >= least:
            tris, (graph, comp_of, board) = apart
    # every tile has the board's size: other shapes (digit holes, background) are dropped
    side = float(np.median([tris[i].side for i in board]))
    keep = [i for i, t in enumerate(tris)
            if 1 / cfg.size_tolerance < t.side / side < cfg.size_tolerance]
    tris = [tris[i] for i in keep]
    if cfg.repose_below > 0 and ef is not None:
        tris = [_repose(cfg, t, ef, side) for t in tris]
        graph, comp_of, board = _select(cfg, tris)
    else:
        # the faces are as they were: their joins are too (joins are judged pair by pair)
        graph, comp_of, board = _select(cfg, tris, _kept_joins(graph, keep))
    side = float(np.median([tris[i].side for i in board]))
    if sized is not None:
        sized(side)
    fit = _grow_board(cfg, tris, graph, comp_of, board, side, ef)
    if gray is not None and fit.cells and fit.homography is not None:
        if cfg.digit_refit_rounds:
            _refit_to_digits(cfg, fit, gray)
        _candidates(cfg, fit, gray)
    return fit


def _refit_to_digits(cfg: ReaderConfig, fit: LatticeFit, gray: np.ndarray) -> None:
    """Carry the homography past the faces by the tiles' digits
    (:func:`vision.spots.refit_to_digit_blobs`): kept when it still puts the faces'
    vertices where they are (so it neither mirrors nor moves the lattice there)."""
    from .spots import refit_to_digit_blobs

    vs = sorted(fit.vertex_px)
    src = np.array([vertex_xy(v) for v in vs], dtype=np.float64)
    dst = np.array([fit.vertex_px[v] for v in vs], dtype=np.float64)
    assert fit.homography is not None
    r = refit_to_digit_blobs(cfg, fit.homography, sorted(fit.cells), (src, dst), gray,
                             fit.side)
    if r is None:
        return
    if np.median(np.linalg.norm(project(r[0], src) - dst, axis=1)) > (
            cfg.digit_refit_ransac * fit.side):
        return
    fit.homography = r[0]


def _grow_board(cfg: ReaderConfig, tris: list[Triangle],
                graph: dict[int, list[tuple[int, list[tuple[int, int]]]]],
                comp_of: list[int], members: list[int], side: float,
                ef: EdgeField | None) -> LatticeFit:
    """The board grown from the group of faces ``members``: its faces placed across
    shared edges, then aligned groups and edge-outlined empty cells added round by round
    (with ``ef``), the homography refitted each round; faces left out are ``loose``."""
    fit = LatticeFit(triangles=tris, side=side,
                     bend_beyond=_view(cfg, ef.edges if ef is not None else None))
    start = max(members, key=lambda i: (len(graph[i]), tris[i].fill))
    owner, verts = _grow(tris, graph, start)
    fit.cells = dict(owner)
    _update_vertices(fit, verts)
    fit.homography = _fit_h(cfg, fit.vertex_px, side)
    if fit.homography is None:
        fit.loose = _loose(cfg, fit)
        return fit
    for _ in range(cfg.fill_rounds):
        changed = _join_aligned(cfg, fit, verts, comp_of, graph)
        if ef is not None:
            changed = _propose(cfg, fit, verts, ef) or changed
        h2 = _fit_h(cfg, fit.vertex_px, side)
        fit.homography = h2 if h2 is not None else fit.homography
        if not changed:
            break
    _normalise(cfg, fit, verts)
    _settle(cfg, fit, verts)
    fit.loose = _loose(cfg, fit)
    return fit


def _from_silhouette(cfg: ReaderConfig, tris: list[Triangle], gray: np.ndarray,
                     found: LatticeFit | None = None,
                     colour: Callable[[], np.ndarray] | None = None,
                     extra: Sequence[Triangle] = (),
                     apart: Sequence[Triangle] = ()) -> LatticeFit | None:
    """The board fitted to its silhouette (:mod:`vision.silhouette`): faces found on its
    cells are its detected tiles, the other cells inside it are proposed (their outline
    inferred from the lattice), cells around it candidates; None if no board shows.
    ``extra``: faces of other sizes than ``tris``'s, kept where their size is the
    lattice's there (:func:`_guess_fit`); ``apart``: faces offered as loose faces only
    (``LatticeFit.offered``)."""
    from .silhouette import find_boards, rank
    # a board of joined faces found by its edges (``found``): only a silhouette holding
    # it, of its tiles' size, may complete it (and the search is much shorter)
    near = (np.array([found.triangles[i].centroid for i in found.cells.values()])
            if found is not None else None)
    splits = _face_splitter(cfg, tris, gray)
    guesses = find_boards(cfg, gray, near, found.side if found is not None else None, colour)
    for n, g in enumerate(guesses):
        if not splits(g):
            fit = _silhouette_fit(cfg, g, tris, gray, extra, apart)
            if fit is not None and cfg.rival_outranked and near is None:
                # (a whole search: the pipeline's search for rivals repeats it, free)
                fit.outranked = any(rank(b) < rank(g) for b in guesses[n + 1:])
            return fit
    return None


def other_boards(cfg: ReaderConfig, tris: list[Triangle], gray: np.ndarray,
                 colour: Callable[[], np.ndarray] | None,
                 placed: Sequence[tuple[np.ndarray, float]],
                 guesses: Sequence[np.ndarray] = (), close: int = 3,
                 fallbacks: bool = True, short: bool = False) -> Iterator[LatticeFit]:
    """Boards fitted to silhouettes anywhere in ``gray`` (best first), leaving out the
    ``guesses`` already read (``LatticeFit.guess``) and any with most of its cells on
    the cells of a lattice already read of about its tile size (``placed``: per
    lattice, its cells' centres (N, 2) and its tile side, ``gray``'s pixels): the next
    guesses when the board chosen read no digit (a dark floor beyond the table taken for
    the board, table-cloth triangles joined into one, a lattice of half the tiles' size
    over the board), or fewer tiles than another may. Same ``tris``, ``gray`` and
    ``colour`` as :func:`fit_lattice`; made one by one, as asked for. ``close``: the
    kernel (px) closing the gaps of the silhouettes' tone regions; ``fallbacks`` and
    ``short``: see :func:`vision.silhouette.find_boards`."""
    from .silhouette import find_boards
    splits = _face_splitter(cfg, tris, gray)
    for g in find_boards(cfg, gray, None, None, colour, close, fallbacks, short):
        if any(np.allclose(g.homography, h) for h in guesses) or splits(g):
            continue
        if _read_already(cfg, g, placed):
            continue
        fit = _silhouette_fit(cfg, g, tris, gray)
        if fit is not None:
            yield fit


def grown_boards(cfg: ReaderConfig, tris: list[Triangle], gray: np.ndarray,
                 placed: Sequence[tuple[np.ndarray, float]],
                 seeds: np.ndarray | None = None,
                 pins: Sequence[np.ndarray] | None = None) -> Iterator[LatticeFit]:
    """Boards grown from single faces of ``tris`` by their digits
    (:func:`vision.silhouette.boards_from_faces`; ``gray``: the detection copy they were
    found in), best first, as :func:`other_boards` fits them (leaving out those lying
    mostly on a lattice already read: ``placed``); made one by one, as asked for. For a
    board that neither seams nor an outline show. Unlike a silhouette's, such a board is
    not refused for cutting a well-outlined face into cells (:func:`_splits_a_face`):
    every cell of it shows digits, as a tile's few digits under small cells do not, and
    a checked cloth's squares outline big triangles over a board (dev 71000741). With
    ``seeds`` (N, 3, 2, pixels of ``gray``), grown from those faces instead
    (:func:`vision.silhouette.boards_from_seeds`); with ``pins`` (the pins that placed
    them: :func:`vision.silhouette.pin_seeds`), only boards showing them at
    ``cfg.pin_share`` of their cells (:func:`vision.silhouette.pinned_share`)."""
    from .silhouette import boards_from_faces, boards_from_seeds, pinned_share
    guesses = (boards_from_faces(cfg, tris, gray) if seeds is None
               else boards_from_seeds(cfg, seeds, gray))
    for g in guesses:
        if _read_already(cfg, g, placed):
            continue
        if pins is not None and pinned_share(cfg, _centres_px(g.homography, g.cells),
                                             g.side, pins) < cfg.pin_share:
            continue
        fit = _silhouette_fit(cfg, g, tris, gray)
        if fit is not None:
            yield fit


def _read_already(cfg: ReaderConfig, g: BoardGuess,
                  placed: Sequence[tuple[np.ndarray, float]]) -> bool:
    """Do most of the guess ``g``'s cells lie on the cells of a lattice of ``placed``
    (centres (N, 2), tile side) whose tiles are of its size (within
    ``cfg.size_tolerance``)? A lattice of half the tiles' size read over a board puts a
    cell near the centre of every cell of the right one (dev 71000815: the right one was
    never read, and a sharp photo was called too blurred)."""
    px = _centres_px(g.homography, g.cells)
    for centres, side in placed:
        if not len(centres) or not 1 / cfg.size_tolerance < g.side / side < cfg.size_tolerance:
            continue
        d = np.linalg.norm(px[:, None, :] - centres[None, :, :], axis=2).min(axis=1)
        if np.mean(d < 0.3 * g.side) > 0.5:
            return True
    return False


def other_sizes(cfg: ReaderConfig, tris: list[Triangle], gray: np.ndarray,
                edges: np.ndarray | None, tried: Sequence[float]) -> Iterator[LatticeFit]:
    """Boards of the faces ``tris`` (found by their edges in ``gray``, the detection
    image, with ``edges``) whose size is none of ``tried`` (px a side, within
    ``cfg.size_tolerance``), as :func:`fit_lattice` finds them without the silhouette
    search: the largest group first, then the next size left; made one by one, as asked
    for. For a photo whose board read nothing: a busy table's shapes (a checked cloth's
    squares cut into triangles) may outnumber a few big tiles lying on it."""
    sides = list(tried)
    while True:
        rest = [t for t in tris if not any(
            1 / cfg.size_tolerance < t.side / s < cfg.size_tolerance for s in sides)]
        if not any(t.fill >= 0.85 for t in rest):
            return
        fit = _fit_edges(cfg, rest, gray, edges)
        if fit.side <= 0:
            return
        sides.append(fit.side)
        yield fit


def _face_splitter(cfg: ReaderConfig, tris: list[Triangle], gray: np.ndarray
                   ) -> Callable[[BoardGuess], bool]:
    """Tells whether a board guess cuts a well-outlined face into cells (see
    :func:`_splits_a_face`)."""
    from .silhouette import cells_showing_digits
    faces = [t for t in tris if t.fill >= 0.85]
    return lambda g: _splits_a_face(g.homography, g.cells, g.side, faces,
                                    lambda h, cs: cells_showing_digits(cfg, h, cs, gray),
                                    cfg.split_board_shows)


def _silhouette_fit(cfg: ReaderConfig, g: BoardGuess, tris: list[Triangle],
                    gray: np.ndarray, extra: Sequence[Triangle] = (),
                    apart: Sequence[Triangle] = ()) -> LatticeFit | None:
    """The lattice fit of board guess ``g``: faces of ``tris`` on its cells are detected
    tiles, its other cells proposed, cells around it candidates; None if its homography is
    singular or every cell is cut by the photo's edge. Where its cells moved onto their
    digits (:func:`vision.spots.snap_to_digit_blobs`) move any, the fit so moved goes with
    it (``LatticeFit.snapped``), to be read too. Faces of ``extra`` (other sizes than
    ``tris``'s) join ``tris`` where they are of the size of the lattice's cell they lie
    on (within ``cfg.silhouette_local_size``); faces of ``apart`` are loose faces only
    (``LatticeFit.offered``: never on a cell, no vertex of the lattice moved by them)."""
    try:
        hinv = np.linalg.inv(g.homography)
    except np.linalg.LinAlgError:
        return None
    vpx = {v: g.vertex_px.get(v, project(g.homography, np.array([vertex_xy(v)]))[0])
           for c in g.cells for v in cell_corners(c)}
    if extra:
        tris = tris + _locally_sized(cfg.silhouette_local_size, g.homography, hinv, extra)
    fit = _guess_fit(cfg, g, tris, gray, hinv, vpx, apart)
    if fit is not None and cfg.silhouette_snap_rounds:
        moved, n = snap_to_digit_blobs(cfg, g.cells, vpx, gray, g.side,
                                       cfg.silhouette_snap_rounds)
        if n:
            fit.snapped = _guess_fit(cfg, g, tris, gray, hinv, moved, apart)
    return fit


def _locally_sized(tol: float, h: np.ndarray, hinv: np.ndarray,
                   faces: Sequence[Triangle]) -> list[Triangle]:
    """The faces (image px) whose mean side is within ``tol`` x of the side of the
    lattice cell (homography ``h``, ``hinv`` its inverse) their centroid lies in: tiles
    of the board's lattice, however far perspective scales them."""
    if not faces:
        return []
    # the cells of all centroids at once (as cell_at), their vertices (as cell_corners)
    q = np.c_[np.array([t.centroid for t in faces]), np.ones(len(faces))] @ hinv.T
    with np.errstate(divide="ignore", invalid="ignore"):
        y = q[:, 1] / q[:, 2] / (np.sqrt(3) / 2)
        x = q[:, 0] / q[:, 2] - y / 2
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = np.where(ok, x, 0.0), np.where(ok, y, 0.0)
    i, j = np.floor(x), np.floor(y)
    up = ((x - i) + (y - j) < 1)[:, None]
    du = np.array([[0, 1], [1, 0], [0, 0]], np.float64)  # U: (i, j+1), (i+1, j), (i, j)
    dd = np.array([[1, 0], [0, 1], [1, 1]], np.float64)  # D: (i+1, j), (i, j+1), (i+1, j+1)
    ij = np.c_[i, j][:, None, :] + np.where(up[:, :, None], du[None], dd[None])  # (N, 3, 2)
    xy = np.stack([ij[..., 0] + ij[..., 1] / 2, ij[..., 1] * (np.sqrt(3) / 2)], axis=-1)
    pts = project(h, xy.reshape(-1, 2)).reshape(-1, 3, 2)
    local = np.linalg.norm(pts - pts[:, [1, 2, 0]], axis=2).mean(axis=1)
    side = np.array([t.side for t in faces])
    with np.errstate(divide="ignore", invalid="ignore"):
        keep = ok & (local > 0) & (1 / tol < side / local) & (side / local < tol)
    return [t for t, k in zip(faces, keep, strict=True) if k]


def _guess_fit(cfg: ReaderConfig, g: BoardGuess, tris: list[Triangle], gray: np.ndarray,
               hinv: np.ndarray, vpx: dict[Vertex, np.ndarray],
               apart: Sequence[Triangle] = ()) -> LatticeFit | None:
    """:func:`_silhouette_fit`'s fit, its cells' vertices at ``vpx`` (image px) where no
    face fixes them (``hinv``: the guess's homography inverted); ``apart`` join its faces
    once its cells are placed, for its loose faces and candidates only."""
    fit = LatticeFit(triangles=tris, homography=g.homography, side=g.side,
                     from_silhouette=True, guess=g.homography, bend_beyond=_view(cfg, gray))
    inner = set(g.cells)
    verts: dict[int, tuple[Vertex, Vertex, Vertex]] = {}
    for i, t in enumerate(tris):
        if not 0.75 < t.side / g.side < 1.33:
            continue
        cell, vs, err = _aligned_cell(fit, hinv, t.pts)
        if cell in inner and err <= cfg.join_frac and cell not in fit.cells:
            fit.cells[cell] = i
            verts[i] = vs  # type: ignore[assignment]
    _update_vertices(fit, verts)
    h, w = gray.shape[:2]
    for c in g.cells:
        if c in fit.cells:
            continue
        pts = np.array([vpx[v] for v in cell_corners(c)])
        if (pts.min() < 0) or (pts[:, 0].max() > w - 1) or (pts[:, 1].max() > h - 1):
            continue  # cut by the photo's edge: left to the candidates (read as partial)
        fit.proposed.add(c)
        for v, p in zip(cell_corners(c), pts, strict=True):
            fit.vertex_px.setdefault(v, p)
    if not fit.cells and not fit.proposed:
        return None  # every cell of it cut by the photo's edge: no board to place
    h2 = _fit_h(cfg, fit.vertex_px, g.side)
    fit.homography = h2 if h2 is not None else fit.homography
    _normalise(cfg, fit, verts)
    if apart:
        fit.triangles = [*tris, *apart]  # loose faces only: the cells are placed
        fit.offered = set(range(len(tris), len(fit.triangles)))
        fit.apart = set(fit.offered)
        if cfg.apart_board_size and fit.homography is not None:
            # the size the board's faces told was a wrong one; those of the size of this
            # lattice's cells where they lie may be blank, face-down tiles, judged as any
            # loose face is (dev 71000045: two black backs on a white table)
            try:
                hi = np.linalg.inv(fit.homography)
            except np.linalg.LinAlgError:
                hi = None
            if hi is not None:
                sized = {id(t) for t in _locally_sized(cfg.loose_local_size, fit.homography,
                                                       hi, apart)}
                fit.apart = {len(tris) + k for k, t in enumerate(apart) if id(t) not in sized}
    fit.loose = _loose(cfg, fit)
    _candidates(cfg, fit, gray)
    return fit


def _centres_px(h: np.ndarray, cells: list[Cell]) -> np.ndarray:
    """(N, 2) image positions of the centres of ``cells`` through homography ``h``."""
    cen = np.array([cell_centroid(c) for c in cells]).reshape(-1, 2)
    p = np.hstack([cen, np.ones((len(cen), 1))]) @ h.T
    return p[:, :2] / p[:, 2:3]


def _splits_a_face(h: np.ndarray, cells: list[Cell], side: float, faces: list[Triangle],
                   shows: Callable[[np.ndarray, list[Cell]], np.ndarray] | None = None,
                   board_shows: float = 0.8) -> bool:
    """Does a lattice cut a well-outlined face much larger than its cells into several (a
    tile's digits taken for a board of small tiles)? A face two or three times a cell's
    side is no such sign: 4 or 9 tiles whose seams do not show outline one triangle; nor
    is a face at least 3.5 times it whose cells inside nearly all show digits (``shows``:
    which cells of lattice ``h`` do; at least ``board_shows`` of them), a board's own
    outline taken for one triangle: a tile's three digits show in a few of the small
    cells over it (dev 71000054, 71000220: 21-50 %), a board's in each (71000301,
    71000280: 100 %). With ``board_shows`` under 0.8, so too a face of any size over 1.5
    cells whose cells inside show digits that often: a part of a board of dark tiles
    outlined as one triangle (onyx dev 73000041: 2.5 cells a side, all three inside
    showing digits)."""
    if not cells:
        return False
    px = _centres_px(h, cells)
    for t in faces:
        k = t.side / side
        if k < 1.5:
            continue
        inside = _in_tri(px, t.pts)
        if inside.sum() < 2:
            continue
        uneven = abs(k - round(k)) > 0.12 * round(k)
        if not uneven and k < 3.5:
            continue
        # (at 0.8, the rule before: a face of no whole number of cells always splits)
        if (shows is None or (uneven and board_shows >= 0.8) or np.mean(
                shows(h, [c for c, i in zip(cells, inside, strict=True) if i])) < board_shows):
            return True
    return False


def _candidates(cfg: ReaderConfig, fit: LatticeFit, gray: np.ndarray) -> None:
    """Cells up to ``cfg.ring_cells`` steps from the board, inside the photo and free of
    loose faces: places a tile may lie whose seams the photo does not show (dark tiles
    on dark seams, glare). The classifier decides (no digits, no tile). The first
    ``cfg.ring_absorb`` rings are made here, the rest on demand (``LatticeFit.grow``)."""
    h, w = gray.shape[:2]
    m = 0.1 * fit.side
    occupied = set(fit.cells) | fit.proposed
    occ_px = np.array([fit.corner_px(c) for c in occupied])
    occ_cen = occ_px.mean(axis=1)
    occ_side = (np.linalg.norm(occ_px - occ_px[:, [1, 2, 0]], axis=2).mean(axis=1)
                if len(occ_px) else np.zeros(0))
    # the tone test is off at tone_tol 255 (no grey level is that far): not measured then
    tone_test = cfg.tone_tol < 255
    tone = spread = 0.0
    if tone_test:
        tones = np.array([face_tone(gray, fit.corner_px(c))
                          for c in fit.cells or fit.proposed])
        tone, spread = float(np.median(tones)), float(np.median(np.abs(tones - np.median(tones))))
    loose_c = np.array([fit.triangles[i].centroid for i in fit.loose]).reshape(-1, 2)
    ring = set(occupied)
    out: set[Cell] = set()
    absorbed: set[int] = set()
    def inside(pts: np.ndarray) -> np.ndarray:
        return ((pts[..., 0] >= m) & (pts[..., 1] >= m) & (pts[..., 0] <= w - 1 - m)
                & (pts[..., 1] <= h - 1 - m))

    # cells meeting the board at a corner only, cut by the photo's edge: the tiles
    # joining them may lie beyond it (pipeline.reconstruct joins one whose digit there
    # is the board's)
    at_corner = ({n for c in occupied for n in vertex_neighbours(c)} - occupied
                 if cfg.cut_corner_join else set())
    if at_corner:
        cut = list(at_corner)
        seen = inside(np.array([fit.corner_px(c) for c in cut])).all(axis=1)
        at_corner = {c for c, s in zip(cut, seen, strict=True) if not s}
    # a ring's outlines are measured all at once (numpy's overhead per call was most of
    # the cost: 76 cells judged one by one took ~22 ms of the 12 MP sample's read); a
    # bounding box tells most cells from the loose faces and tiles they cannot hold, the
    # exact tests are kept for the rest
    occ_lo, occ_hi = occ_px.min(axis=1) - _BOX_EPS, occ_px.max(axis=1) + _BOX_EPS

    def judge_ring(cells: list[Cell], n_ring: int, loose_c: np.ndarray,
                   loose_i: list[int], cut_ring: int | None = None) -> set[Cell]:
        """The candidates among ``cells`` (judged in their order, see :func:`judge`)."""
        if not cells:
            return set()
        pts = np.array([fit.corner_px(c) for c in cells])  # (N, 3, 2)
        seen_in = inside(pts)
        # points_inside's own first test (single precision): a loose face's centre in
        # the outline's box
        p32, q = pts.astype(np.float32), loose_c.astype(np.float32)
        lo32, hi32 = p32.min(axis=1)[:, None], p32.max(axis=1)[:, None]
        on_box = ((q >= lo32) & (q <= hi32)).all(axis=2).any(axis=1)
        cen = pts.mean(axis=1)
        dist = np.linalg.norm(occ_cen[None] - cen[:, None], axis=2)  # (N, M)
        order = (np.argsort(dist, axis=1)[:, :3] if cfg.candidate_local_size
                 and len(occ_side) else None)
        near = dist < 1.5 * fit.side
        lo, hi = pts.min(axis=1)[:, None] - _BOX_EPS, pts.max(axis=1)[:, None] + _BOX_EPS
        tile_in = (near & ((occ_cen >= lo) & (occ_cen <= hi)).all(axis=2)).any(axis=1)
        in_tile = (near & ((cen[:, None] >= occ_lo) & (cen[:, None] <= occ_hi)).all(axis=2)
                   ).any(axis=1)
        return {c for k, c in enumerate(cells)
                if judge(c, n_ring, loose_c, loose_i, cut_ring,
                         (pts[k], seen_in[k], bool(on_box[k]), cen[k], dist[k],
                          None if order is None else order[k], bool(tile_in[k]),
                          bool(in_tile[k])))}

    def judge(c: Cell, n_ring: int, loose_c: np.ndarray, loose_i: list[int],
              cut_ring: int | None,
              pre: tuple[np.ndarray, np.ndarray, bool, np.ndarray, np.ndarray,
                         np.ndarray | None, bool, bool]) -> bool:
        """Is cell ``c`` of ring ``n_ring`` a candidate (loose faces lying on it noted)?
        ``cut_ring``: its steps from tiles read, for a cell cut by the edge (n_ring).
        ``pre``: its outline's measures (:func:`judge_ring`): corners, which in view, a
        loose face's centre in its box, its centre, distances to the board's cells, the
        three nearest, a board cell's centre in its box, its centre in a board cell's."""
        pts, seen_in, on_box, cen, dist, order, tile_in, in_tile = pre
        cut_ring = n_ring if cut_ring is None else cut_ring
        if not seen_in.all() and not (seen_in.any() and cut_ring <= cfg.cut_ring_max):
            return False  # cut by the photo's edge: only so many steps from the board
        on_cell = points_inside(loose_c, pts) if on_box else []
        if on_cell:
            # a loose face sitting squarely on this cell is a board tile whose outline
            # was found poorly: the lattice's outline is read instead; a tile lying
            # askew or apart stays off the board
            k = on_cell[0]
            t = fit.triangles[loose_i[k]]
            d = np.linalg.norm(t.pts[:, None, :] - pts[None, :, :], axis=2).min(axis=1)
            if (len(on_cell) > 1 or np.linalg.norm(t.centroid - pts.mean(axis=0))
                    > cfg.adopt_frac * fit.side or d.max() > 2 * cfg.adopt_frac * fit.side):
                if not cfg.shadow_loose:
                    return False
                # askew: a tile lying apart, or a board tile outlined wrongly (a hand
                # or blur over its seams); the cell is read too, and if it shows a
                # board tile the askew face is dropped (pipeline.reconstruct)
                fit.shadowed[c] = [loose_i[j] for j in on_cell]
            elif cfg.keep_absorbed or n_ring >= cfg.ring_absorb:
                # squarely on it: its tile, read from the lattice's outline or its
                # own (pipeline._drifted_faces); off the board if the cell is not,
                # unless blank (the table between tiles, outlined by them)
                fit.shadowed[c] = [loose_i[k]]
                if n_ring < cfg.ring_absorb:
                    # (farther out, a blank face on a cell is a face-down tile)
                    fit.squarely.add(loose_i[k])
            else:
                absorbed.add(loose_i[k])
        local = fit.side
        if order is not None:
            # against the board's nearest tiles: a steep view's near tiles are bigger
            local = _median(occ_side[order].tolist())
        if not _plausible(pts, local):
            # the lattice is not known well here; where vertices corrected from the
            # board's outline bend it, the homography's own outline may still be a tile's
            # (the classifier reads the cell there too: pipeline._homography_outlines)
            if not cfg.candidate_h_shape:
                return False
            pts = np.array([fit.project(vertex_xy(v)) for v in cell_corners(c)])
            if not _plausible(pts, local):
                return False
            cen = pts.mean(axis=0)
            dist = np.linalg.norm(occ_cen - cen, axis=1)
            tile_in = in_tile = True  # (not measured for this outline: tested exactly)
        if tone_test and abs(face_tone(gray, pts) - tone) > max(cfg.tone_tol, 3 * spread):
            return False  # does not look like the board's tiles (table showing through)
        near = np.flatnonzero(dist < 1.5 * fit.side)  # overlapping a tile: no candidate
        return not (near.size and ((tile_in and _in_tri(occ_cen[near], pts).any())
                                   or (in_tile and _in_tris(cen, occ_px[near]).any())))

    considered = set(occupied)
    for n_ring in range(min(cfg.ring_cells, cfg.ring_absorb)):
        ring = {n for c in ring for n in edge_neighbours(c)} - occupied - out
        if n_ring == 0:
            ring |= at_corner
        considered |= ring
        out |= judge_ring(list(ring), n_ring, loose_c, fit.loose)
    fit.candidates = out
    fit.shadowed = {c: v for c, v in fit.shadowed.items() if c in out}
    fit.loose = [i for i in fit.loose if i not in absorbed]
    if cfg.ring_cells <= cfg.ring_absorb:
        return
    n_next = [cfg.ring_absorb]

    def grow(joined: set[Cell]) -> set[Cell]:
        # rings past ring_absorb are made only where the classifier saw tiles (most of a
        # table's cells that far out are never read): the cells next to ``joined`` not
        # judged yet; loose faces as they are now (faces cut by the edge added since)
        if n_next[0] >= cfg.ring_cells:
            return set()
        ring = {n for c in joined for n in edge_neighbours(c)} - considered
        considered.update(ring)
        loose_i = list(fit.loose)
        loose_now = np.array([fit.triangles[i].centroid for i in loose_i]).reshape(-1, 2)
        new = judge_ring(list(ring), n_next[0], loose_now, loose_i,
                         0 if cfg.cut_ring_from_read else None)
        for c in ring - new:
            fit.shadowed.pop(c, None)
        n_next[0] += 1
        fit.candidates |= new
        return new

    fit.grow = grow


#: px a triangle's bounding box is widened by before a point outside it is taken to lie
#: outside the triangle (far more than rounding moves one: a point on the triangle's edge
#: is always left to the exact test)
_BOX_EPS = 1e-3


def _plausible(pts: np.ndarray, side: float) -> bool:
    """Is the (3, 2) outline a tile's shape where tiles are ``side`` px (no side under 0.6
    or over 1.8 times it)?"""
    sides = side_lengths(pts)
    return min(sides) >= 0.6 * side and max(sides) <= 1.8 * side


def _median(xs: list[float]) -> float:
    """The median of a short list, as ``np.median`` gives it (the mean of the middle two
    for an even count), without its overhead (tens of microseconds a call)."""
    s = sorted(xs)
    n = len(s)
    return float(s[n // 2]) if n % 2 else float((s[n // 2 - 1] + s[n // 2]) / 2)


#: what :func:`_select` gives: the join graph, each face's group, the board's group
_Selection = tuple[dict[int, list[tuple[int, list[tuple[int, int]]]]], list[int], list[int]]


def _select(cfg: ReaderConfig, tris: list[Triangle],
            graph: dict[int, list[tuple[int, list[tuple[int, int]]]]] | None = None
            ) -> _Selection:
    """The join graph (``graph`` where it is known), each face's group, and the board's
    group (most faces, then most area)."""
    if graph is None:
        graph = _join_graph(cfg, tris)
    comp_of = _components(graph, len(tris))
    sizes = np.bincount(comp_of)
    area = np.bincount(comp_of, weights=[t.side ** 2 * t.fill for t in tris])
    best = int(np.lexsort((area, sizes))[-1])
    return graph, comp_of, [i for i in range(len(tris)) if comp_of[i] == best]


def _kept_joins(graph: dict[int, list[tuple[int, list[tuple[int, int]]]]], keep: list[int]
                ) -> dict[int, list[tuple[int, list[tuple[int, int]]]]]:
    """The join graph of the faces ``keep`` (indices into the faces of ``graph``, in
    order), renumbered 0.. in that order: what :func:`_join_graph` makes of those faces
    alone, each face's joins in the same order."""
    new = {old: n for n, old in enumerate(keep)}
    return {n: [(new[j], pairs) for j, pairs in graph[old] if j in new]
            for n, old in enumerate(keep)}


def _grown_to_join(cfg: ReaderConfig, tris: list[Triangle]
                   ) -> tuple[list[Triangle], _Selection] | None:
    """Where few faces of ``tris`` join (or none): the faces of one size (that of the face with
    the most such faces near it) grown outward by the fraction of ``cfg.apart_grow`` that
    joins the most of them into one group (3 or more; the smallest such growth), the other
    faces as they were, with their :func:`_select`; None if no growth joins 3."""
    cents = np.array([t.centroid for t in tris])
    sides = np.array([t.side for t in tris])
    count = np.zeros(len(tris), np.int64)
    for r0 in range(0, len(tris), _ROW_BLOCK):  # rows in blocks, as in _join_graph
        r = slice(r0, r0 + _ROW_BLOCK)
        dist = np.linalg.norm(cents[r, None, :] - cents[None, :, :], axis=2)
        kin = np.abs(sides[None, :] / sides[r, None] - 1) < cfg.join_len_frac
        count[r] = (kin & (dist < cfg.apart_reach * sides[r, None])).sum(axis=1)
    seed = int(np.lexsort((np.array([t.fill for t in tris]), count))[-1])
    if count[seed] < 3:
        return None
    own = np.flatnonzero(np.abs(sides / sides[seed] - 1) < cfg.join_len_frac)
    pts = np.array([tris[i].pts for i in own])
    best: tuple[list[Triangle], _Selection] | None = None
    for f in cfg.apart_grow:
        grown = expand_sides(pts, f * sides[own])
        alt = list(tris)
        for k, i in enumerate(own):
            alt[i] = Triangle(clockwise(grown[k]), tris[i].fill)
        sel = _select(cfg, alt)
        if len(sel[2]) >= 3 and (best is None or len(sel[2]) > len(best[1][2])):
            best = (alt, sel)
    return best


def _repose(cfg: ReaderConfig, t: Triangle, ef: EdgeField, side: float) -> Triangle:
    """A face whose outline the photo's edges do not confirm (a region cut short by its
    digits, or a hexagon-like region enclosed the wrong way round) is tried turned by 60
    degrees and grown, and its corners snapped to the edges; kept if clearly better."""
    reach = max(1.5, 0.04 * side)
    sup, _ = edge_support(ef, t.pts, reach)
    if sup.mean() >= cfg.repose_below:
        return t
    c = t.centroid
    best_pts, best_s = t.pts, float(sup.mean())
    for ang in (0.0, 60.0):
        a = np.deg2rad(ang)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        base = (t.pts - c) @ rot.T / max(t.side, 1e-6)  # unit side
        for sc in (0.9, 1.0, 1.1):  # the board's side, give or take perspective
            pts = clockwise(c + base * side * sc)
            s_, _ = edge_support(ef, pts, reach)
            if s_.mean() > best_s + 0.05:
                best_pts, best_s = pts, float(s_.mean())
    if best_pts is t.pts:
        return t
    pts = best_pts.copy()
    for k in range(3):
        pts = _snap_corner(ef, pts, k, reach, side)
    s_, _ = edge_support(ef, pts, reach)
    return Triangle(pts, t.fill) if s_.mean() > sup.mean() + 0.1 else t


def _snap_corner(ef: EdgeField, pts: np.ndarray, k: int, reach: float, side: float
                 ) -> np.ndarray:
    """Move corner ``k`` to where the two sides meeting there are best outlined."""
    best, best_s = pts[k].copy(), -1.0
    for step, n in ((0.05, 2), (0.015, 1)):
        centre = best.copy()
        for dx in range(-n, n + 1):
            for dy in range(-n, n + 1):
                trial = pts.copy()
                trial[k] = centre + np.array([dx, dy]) * step * side
                sup, _ = edge_support(ef, trial, reach)
                sc = sup[(k - 1) % 3] + sup[k]
                if sc > best_s + 1e-9:
                    best, best_s = trial[k].copy(), sc
    out = pts.copy()
    out[k] = best
    return out


def _in_tri(p: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """Which of the points ``p`` (N, 2) lie inside triangle ``tri`` (3, 2)."""
    a, b, c = tri
    v0, v1, v2 = c - a, b - a, p - a
    d00, d01, d11 = v0 @ v0, v0 @ v1, v1 @ v1
    d20, d21 = v2 @ v0, v2 @ v1
    den = d00 * d11 - d01 * d01
    if abs(den) < 1e-12:
        return np.zeros(len(p), bool)
    u = (d11 * d20 - d01 * d21) / den
    v = (d00 * d21 - d01 * d20) / den
    return (u >= 0) & (v >= 0) & (u + v <= 1)


def cell_at(hinv: np.ndarray, p: np.ndarray) -> Cell:
    """The lattice cell containing image point ``p`` (through the inverse homography)."""
    q = hinv @ np.array([p[0], p[1], 1.0])
    x, y = q[0] / q[2], q[1] / q[2]
    j = y / (np.sqrt(3) / 2)
    i = x - j / 2
    fi, fj = int(np.floor(i)), int(np.floor(j))
    return (fi, fj, "U" if (i - fi) + (j - fj) < 1 else "D")


def _loose(cfg: ReaderConfig, fit: LatticeFit) -> list[int]:
    """Faces off the board: one per place (the best filled where several overlap), none
    lying on a board cell (a digit's hole or a shape inside a tile), none too skewed for a
    tile lying flat (in the image, and with ``cfg.loose_plane_skew`` on the table plane
    too: a steep view squeezes a far tile's face)."""
    placed = set(fit.cells.values())
    board = [fit.corner_px(c) for c in (*fit.cells, *fit.proposed)]
    out: list[int] = []
    order = sorted((i for i in range(len(fit.triangles)) if i not in placed),
                   key=lambda i: -fit.triangles[i].fill)
    hinv = None
    if fit.homography is not None:
        try:
            hinv = np.linalg.inv(fit.homography)
        except np.linalg.LinAlgError:
            hinv = None
    occupied = set(fit.cells) | fit.proposed
    board_arr = np.array(board).reshape(-1, 3, 2)
    out_pts = np.zeros((len(order), 3, 2))  # the faces kept so far (vectorised tests)
    # the tests of each face alone, for all at once (a busy photo has hundreds)
    cents = np.array([fit.triangles[i].centroid for i in order]).reshape(-1, 2)
    on_board = _in_tris(cents, board_arr).any(axis=1)
    pts = np.array([fit.triangles[i].pts for i in order]).reshape(-1, 3, 2)
    sides = np.linalg.norm(pts - pts[:, [1, 2, 0]], axis=2)
    # too skewed for a tile lying flat (a sliver of background)
    skewed = sides.max(axis=1) > 1.8 * sides.min(axis=1)
    if cfg.loose_plane_skew and hinv is not None and skewed.any():
        q = np.c_[pts.reshape(-1, 2), np.ones(pts.size // 2)] @ hinv.T
        # on the board's side of the horizon (the sign its own points map with)
        ref = np.r_[board_arr.reshape(-1, 2).mean(axis=0), 1.0] @ hinv.T if len(
            board_arr) else np.ones(3)
        ahead = (np.sign(q[:, 2]) == np.sign(ref[2])).reshape(-1, 3).all(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            q = (q[:, :2] / q[:, 2:3]).reshape(-1, 3, 2)
            flat = np.linalg.norm(q - q[:, [1, 2, 0]], axis=2)
            skewed &= ~(ahead & (flat.max(axis=1) <= 1.8 * flat.min(axis=1)))
    for n, i in enumerate(order):
        if on_board[n] or skewed[n]:
            continue
        t = fit.triangles[i]
        c = t.centroid
        if hinv is not None:
            # a gap inside the board (an empty cell between tiles) is no loose tile
            cell = cell_at(hinv, c)
            if sum(n in occupied for n in edge_neighbours(cell)) >= 2:
                continue
        if _overlaps(t, out_pts[:len(out)]):
            continue
        out_pts[len(out)] = t.pts
        out.append(i)
    return out


def _overlaps(t: Triangle, kept: np.ndarray) -> bool:
    """Does face ``t`` lie over one of the faces ``kept`` (K, 3, 2): its centroid inside
    one, or one's centre inside it? (One loose face per place.)"""
    return bool(len(kept)) and bool(_in_tris(t.centroid, kept).any()
                                    or _in_tri(kept.mean(axis=1), t.pts).any())


def add_cut_faces(fit: LatticeFit, faces: list[Triangle], w: int, h: int) -> None:
    """Add faces cut by the photo's edge (``Triangle.cut``, detection pixels of a ``w`` x
    ``h`` image) to the loose faces, where no board cell, proposed cell or loose face
    already lies at the part in view. One on a candidate cell is shadowed by it: the
    lattice reads a board tile cut by the edge itself, as a candidate."""
    near = [fit.corner_px(c) for c in (*fit.cells, *fit.proposed)]
    taken = np.array(near + [fit.triangles[i].pts for i in fit.loose]).reshape(-1, 3, 2)
    cands = sorted(fit.candidates)
    cand_px = np.array([fit.corner_px(c) for c in cands]).reshape(-1, 3, 2)
    for t in faces:
        # the middle of its part in view: the centroid pulled inside the frame
        c = np.clip(t.centroid, [0, 0], [w - 1, h - 1])
        c = c + 0.25 * (np.clip(t.pts, [0, 0], [w - 1, h - 1]).mean(axis=0) - c)
        if len(taken) and _in_tris(c, taken).any():
            continue
        fit.triangles.append(t)
        fit.loose.append(len(fit.triangles) - 1)
        taken = np.concatenate([taken, t.pts[None]])
        # on a candidate cell: dropped if the cell shows a board tile (a face-down tile,
        # or one lying apart, stays off the board)
        on = np.flatnonzero(_in_tris(c, cand_px)) if len(cand_px) else []
        for k in on[:1]:
            fit.shadowed.setdefault(cands[k], []).append(len(fit.triangles) - 1)


def _update_vertices(fit: LatticeFit, verts: dict[int, tuple[Vertex, Vertex, Vertex]]) -> None:
    acc: dict[Vertex, list[np.ndarray]] = {}
    for i in fit.cells.values():
        if i < 0:
            continue
        for v, p in zip(verts[i], fit.triangles[i].pts, strict=True):
            acc.setdefault(v, []).append(p)
    # (np.mean's own overhead is most of its cost on a few points: the same sum / count)
    fit.vertex_px = {v: np.array(ps).sum(axis=0) / len(ps) for v, ps in acc.items()}


def _settle(cfg: ReaderConfig, fit: LatticeFit,
            verts: dict[int, tuple[Vertex, Vertex, Vertex]]) -> None:
    """Final vertex positions: the corners meeting at a vertex, pulled toward the
    homography's prediction where the two agree (a vertex seen by one corner only is the
    least certain); where they disagree (a drifting board) the corners win. A corner off
    its face's shape (:func:`_off_corners`) counts only where no other corner sees the
    vertex, and then where the face's other corners put it."""
    h = fit.homography
    if h is None:
        return
    faces = [i for i in fit.cells.values() if i >= 0]
    # per vertex, in order of trust: corners on their face's shape; where only corners off
    # it see the vertex, where the lattice's shape and the face's other corners put it (a
    # drifting board keeps its shape); else those corners as they are
    tiers: dict[Vertex, tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]] = {}
    projected: dict[Vertex, np.ndarray] = {}  # a vertex is shared by up to six faces

    def proj(v: Vertex) -> np.ndarray:
        p = projected.get(v)
        if p is None:
            p = projected[v] = fit.project(vertex_xy(v))
        return p

    for i in faces:
        pts, vs = fit.triangles[i].pts, verts[i]
        off = _off_corners(cfg, fit, pts, np.array([proj(v) for v in vs]))
        good = [j for j in range(3) if j not in off]
        for k, v in enumerate(vs):
            tier = tiers.setdefault(v, ([], [], []))
            if k not in off:
                tier[0].append(pts[k])
            elif good:
                drift = np.mean([pts[j] - proj(vs[j]) for j in good], axis=0)
                tier[1].append(proj(v) + drift)
            elif cfg.settle_lopsided_predict:
                tier[2].append(proj(v))
            else:
                tier[2].append(pts[k])
    acc = {v: next(t for t in tier if t) for v, tier in tiers.items()}
    out: dict[Vertex, np.ndarray] = dict(fit.vertex_px)  # keeps proposals' vertices
    for v, ps in acc.items():
        arr = np.array(ps)
        if len(arr) >= 3:  # a misshapen face must not drag a vertex its neighbours agree on
            med = np.median(arr, axis=0)
            ok = np.linalg.norm(arr - med, axis=1) < 0.12 * fit.side
            arr = arr[ok] if ok.any() else arr
        mean = arr.mean(axis=0)
        pred = proj(v)
        if np.linalg.norm(pred - mean) < cfg.settle_frac * fit.side:
            w = cfg.settle_weight
            mean = (mean * len(ps) + pred * w) / (len(ps) + w)
        out[v] = mean
    fit.vertex_px = out


def _off_corners(cfg: ReaderConfig, fit: LatticeFit, pts: np.ndarray, pred: np.ndarray
                 ) -> set[int]:
    """The corners of a face ``pts`` (3, 2) that lie off its cell's shape under the
    homography (``pred``: where it puts them, (3, 2)): all three when the centred shapes
    differ by over ``cfg.settle_shape_max`` x side (table between tiles outlined as one
    lopsided face), else the one corner furthest from where the other two and the lattice
    put it, when over ``cfg.settle_corner_max`` x side (a face cut short at one corner).
    Drift moves a whole face, so only its shape counts."""
    d = pts - pred
    dev = np.linalg.norm(d - d.mean(axis=0), axis=1)
    if dev.max() > cfg.settle_shape_max * fit.side:
        return {0, 1, 2}
    r = [float(np.linalg.norm(d[k] - (d.sum(axis=0) - d[k]) / 2)) for k in range(3)]
    k = int(np.argmax(r))
    if r[k] <= cfg.settle_corner_max * fit.side:
        return set()
    if cfg.settle_off_each:
        # a flattened face (two corners off, the third on): each corner far off the
        # centred shape, not only the worst
        return {k} | {j for j in range(3) if dev[j] > cfg.settle_corner_max * fit.side}
    return {k}


def _aligned(hinv: np.ndarray, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The lattice vertices nearest the corners of faces ``pts`` (N, 3, 2) under the
    inverse homography ``hinv``: (N, 3, 2) integer vertex coordinates, and each face's
    worst corner distance from its vertex (N,) (table units). All faces in one go: a
    busy photo has hundreds, and a call per face cost more than the maths."""
    n = len(pts)
    p = np.concatenate([pts.reshape(-1, 2), np.ones((3 * n, 1))], axis=1) @ hinv.T
    xy = p[:, :2] / p[:, 2:3]
    jj = xy[:, 1] / SQRT3_2
    ii = xy[:, 0] - jj / 2
    rv = np.round(np.stack([ii, jj], axis=1))
    back = np.stack([rv[:, 0] + rv[:, 1] / 2, rv[:, 1] * SQRT3_2], axis=1)
    err = np.linalg.norm(back - xy, axis=1).reshape(n, 3).max(axis=1)
    return rv.astype(np.int64).reshape(n, 3, 2), err


def _cell_at(rv: np.ndarray) -> tuple[Cell | None, tuple[Vertex, ...]]:
    """The cell whose vertices are ``rv`` (3, 2) in this (clockwise) order, or None, and
    the vertices as a tuple."""
    vs = tuple((int(a), int(b)) for a, b in rv)
    try:
        cell = cell_from_vertices(vs)
    except ValueError:
        return None, vs
    if _is_rotation(vs, cell_corners(cell)) < 0:
        return None, vs
    return cell, vs


def _aligned_cell(fit: LatticeFit, hinv: np.ndarray, pts: np.ndarray
                  ) -> tuple[Cell | None, tuple[Vertex, ...], float]:
    """The cell whose vertices lie nearest a face's corners (3, 2) under the homography,
    the corners' vertices (face corner order), and the worst distance (table units)."""
    rv, err = _aligned(hinv, pts[None])
    cell, vs = _cell_at(rv[0])
    return cell, vs, float(err[0])


def _join_aligned(cfg: ReaderConfig, fit: LatticeFit,
                  verts: dict[int, tuple[Vertex, Vertex, Vertex]], comp_of: list[int],
                  graph: dict[int, list[tuple[int, list[tuple[int, int]]]]]) -> bool:
    """Add faces that sit on free lattice cells: next to the board, or in a group of joined
    faces that sits on the lattice as a whole. Returns True if any face was added."""
    h = fit.homography
    assert h is not None
    try:
        hinv = np.linalg.inv(h)
    except np.linalg.LinAlgError:
        return False
    any_added = False
    changed = True
    all_pts = np.array([t.pts for t in fit.triangles], np.float64).reshape(-1, 3, 2)
    while changed:
        changed = False
        placed = set(fit.cells.values())
        occupied = set(fit.cells) | fit.proposed
        cand: dict[int, tuple[Cell, tuple[Vertex, ...], float]] = {}
        free = [i for i in range(len(fit.triangles)) if i not in placed]
        rvs, errs = _aligned(hinv, all_pts[free])
        for i, rv, err in zip(free, rvs, errs, strict=True):
            if err > 2 * cfg.join_frac:
                continue
            cell, vs = _cell_at(rv)
            if cell is not None and cell not in occupied:
                cand[i] = (cell, vs, float(err))
        per_comp: dict[int, int] = {}
        for i, (_, _, err) in cand.items():
            if err <= 1.5 * cfg.join_frac:
                per_comp[comp_of[i]] = per_comp.get(comp_of[i], 0) + 1
        for i, (cell, vs, err) in sorted(cand.items(), key=lambda kv: kv[1][2]):
            if cell in fit.cells or cell in fit.proposed:
                continue
            adjacent = False
            for n in edge_neighbours(cell):
                if n not in fit.cells and n not in fit.proposed:
                    continue
                a, b = [v for v in cell_corners(n) if v in vs]
                if a in fit.vertex_px and b in fit.vertex_px:
                    pa, pb = t_pts = (fit.triangles[i].pts[vs.index(a)],
                                      fit.triangles[i].pts[vs.index(b)])
                    del t_pts
                    if _edge_gap(fit.vertex_px[a], fit.vertex_px[b], pa, pb) \
                            > max(cfg.join_aligned_gap_frac * fit.side, cfg.join_min_px):
                        continue
                adjacent = True
            group = per_comp.get(comp_of[i], 0) >= 2 and err <= 1.5 * cfg.join_frac
            if not ((adjacent and err <= cfg.join_frac) or group):
                continue
            fit.cells[cell] = i
            verts[i] = vs  # type: ignore[assignment]
            changed = any_added = True
        if changed:
            _update_vertices(fit, verts)
    return any_added


def _normalise(cfg: ReaderConfig, fit: LatticeFit,
               verts: dict[int, tuple[Vertex, Vertex, Vertex]]) -> None:
    """Turn and shift the lattice so table "up" points up the photo and the board sits near
    the origin; refit the homography in the new coordinates."""
    h = fit.homography
    assert h is not None
    c0 = np.mean([vertex_xy(v) for v in fit.vertex_px], axis=0)
    best, best_turn = -2.0, 0
    for turn in range(6):
        ang = np.pi / 2 - turn * np.pi / 3  # lattice direction that becomes "up" after turning
        d = np.array([np.cos(ang), np.sin(ang)])
        a = fit.project(tuple(c0))
        b = fit.project(tuple(c0 + 0.5 * d))
        v = b - a
        up = -v[1] / (np.linalg.norm(v) + 1e-9)  # image up is -y
        if up > best:
            best, best_turn = up, turn
    rot = {v: rotate_vertex(v, best_turn) for vs in verts.values() for v in vs}
    # (a board fitted to its silhouette may have no detected face: its vertices then)
    cx = np.mean([vertex_xy(v) for v in (rot.values() if rot else
                                         (rotate_vertex(v, best_turn) for v in fit.vertex_px))],
                 axis=0)
    jc = int(round(cx[1] / (np.sqrt(3) / 2)))
    ic = int(round(cx[0] - jc / 2))
    new_verts = {i: tuple((rot[v][0] - ic, rot[v][1] - jc) for v in vs)
                 for i, vs in verts.items()}
    fit.cells = {cell_from_vertices(new_verts[i]): i for i in fit.cells.values()}
    fit.proposed = {cell_from_vertices([(rotate_vertex(v, best_turn)[0] - ic,
                                         rotate_vertex(v, best_turn)[1] - jc)
                                        for v in cell_corners(c)]) for c in fit.proposed}
    old_px = dict(fit.vertex_px)
    verts.clear()
    verts.update(new_verts)  # type: ignore[arg-type]
    _update_vertices(fit, verts)
    for v, p in old_px.items():  # vertices placed by proposals (no detected corner there)
        rv = rotate_vertex(v, best_turn)
        fit.vertex_px.setdefault((rv[0] - ic, rv[1] - jc), p)
    fit.homography = _fit_h(cfg, fit.vertex_px, fit.side)


@dataclass
class EdgeField:
    """Edge pixels (bool, (H, W)) and the gradients of the detection image, worked out
    where asked: ``grey`` is the image smoothed (3x3 Gaussian) with a 1 px border
    (reflect-101, as ``cv2.Sobel`` reads past the edge), (H + 2, W + 2) uint8; use
    :meth:`direction`."""

    edges: np.ndarray
    grey: np.ndarray

    @classmethod
    def of(cls, gray: np.ndarray, edges: np.ndarray) -> EdgeField:
        """From the grey detection image and its binary edge map."""
        g = cv2.GaussianBlur(gray, (3, 3), 0)
        return cls(edges > 0, cv2.copyMakeBorder(g, 1, 1, 1, 1, cv2.BORDER_REFLECT_101))

    def direction(self, yi: np.ndarray, xi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Unit gradient direction (x, y components, float32) at integer pixels ``(yi,
        xi)`` (any matching shapes, inside the image).

        The 3x3 Sobel gradients of the smoothed image and their magnitude (plus 1e-6,
        never 0), worked out at these pixels only: whole-image ``cv2.Sobel`` and
        ``cv2.magnitude`` took about 15 ms of a read of the 12 MP sample (under cProfile,
        ad-hoc) for the 31,000 pixels asked. The gradients are ``cv2.Sobel``'s (the sums
        are small integers, exact in float32); the magnitude is
        :func:`vision.detect.magnitude`'s, rounded once, not ``cv2.magnitude``'s, whose
        last bit depends on where the arrays lie in memory."""
        g, y, x = self.grey, yi + 1, xi + 1
        gx, gy = sobel_from(lambda dy, dx: g[y + dy, x + dx].astype(np.int32))
        if not gx.size:
            return gx, gy
        m = magnitude(gx, gy)
        m += np.float32(1e-6)
        return gx / m, gy / m


def edge_support(ef: EdgeField, pts: np.ndarray, reach: float, n: int = 10
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Per side of triangle ``pts`` (3, 2): the fraction of its sample points inside the
    image that have an edge pixel within ``reach`` px across the side whose gradient is
    perpendicular to the side; and the fraction of its points inside the image. For
    ``pts`` (M, 3, 2), of M triangles in one call (both (M, 3))."""
    h, w = ef.edges.shape
    a, b = pts.reshape(-1, 2), pts[..., [1, 2, 0], :].reshape(-1, 2)
    t = _along(n)
    q = a[:, None, :] + t[None, :, None] * (b - a)[:, None, :]
    inside = (q[..., 0] >= 0) & (q[..., 0] < w) & (q[..., 1] >= 0) & (q[..., 1] < h)
    vis = inside.mean(axis=1)
    sup = segment_support(ef, a, b, reach, n)
    return (np.where(vis > 0, sup / np.maximum(vis, 1e-9), 0.0).reshape(pts.shape[:-1]),
            vis.reshape(pts.shape[:-1]))


def _propose(cfg: ReaderConfig, fit: LatticeFit,
             verts: dict[int, tuple[Vertex, Vertex, Vertex]], ef: EdgeField) -> bool:
    """Add empty cells next to the board that are outlined by edges (faces the detector
    merged or missed; tiles cut by the photo's edge). Returns True if any was added."""
    h, w = ef.edges.shape
    # only next to detected faces: a chain of guesses would wander over a busy table
    frontier = {n for c in fit.cells for n in edge_neighbours(c)
                if n not in fit.cells and n not in fit.proposed and n not in fit.tried}
    fit.tried |= frontier  # a cell is judged once (its neighbours are fixed by then)
    placed = set(fit.cells.values())
    added = False
    m = 0.1 * fit.side
    tri_cen = np.array([t.centroid for t in fit.triangles]).reshape(-1, 2)
    order = sorted(frontier)
    reach = max(1.5, 0.04 * fit.side)
    # every cell's outline judged in one call; a cell whose outline a proposal before
    # it moves (a vertex it shares, now known) is judged again
    first = [fit.corner_px(c) for c in order]
    first_sup = edge_support(ef, np.reshape(first, (-1, 3, 2)), reach)
    for n_cell, cell in enumerate(order):
        pts = fit.corner_px(cell)
        inside = (pts[:, 0] >= m) & (pts[:, 1] >= m) & (pts[:, 0] < w - m) & (pts[:, 1] < h - m)
        if not inside.any():
            continue
        # a loose detection in this place is the same tile, placed imprecisely
        cen = pts.mean(axis=0)
        same = [int(i) for i in np.flatnonzero(np.linalg.norm(tri_cen - cen, axis=1)
                                                 < 0.3 * fit.side) if i not in placed]
        if same and inside.all():
            i = same[0]
            k = int(np.argmin(np.linalg.norm(fit.triangles[i].pts - pts[0], axis=1)))
            rolled = np.roll(fit.triangles[i].pts, -k, axis=0)
            if gap_to_board(fit, cell, rolled) > max(cfg.join_gap_frac * fit.side,
                                                      cfg.join_min_px):
                continue  # a tile lying there, but apart from the board: not joined
            ref = cell_corners(cell)
            verts[i] = ref[-k:] + ref[:-k] if k else ref
            fit.cells[cell] = i
            placed.add(i)
            added = True
            continue
        if np.array_equal(pts, first[n_cell]):
            sup, vis = first_sup[0][n_cell], first_sup[1][n_cell]
        else:
            sup, vis = edge_support(ef, pts, reach)
        if sup.min() < cfg.fill_edge_support and sup.mean() >= cfg.fill_snap_min:
            # nearly outlined: let the unseen vertex find the edges before judging
            pts = _snap_unknown(fit, ef, cell, pts, reach)
            sup, vis = edge_support(ef, pts, reach)
        ok = vis >= 0.5
        if ok.any() and sup[ok].min() >= cfg.fill_edge_support and (inside.all() or ok.sum() >= 1):
            fit.proposed.add(cell)
            for v, p in zip(cell_corners(cell), pts, strict=True):
                fit.vertex_px.setdefault(v, p)
            added = True
    if added:
        _update_vertices(fit, verts)
    return added


@lru_cache(maxsize=8)
def _along(n: int) -> np.ndarray:
    """The ``n`` sample points' positions along a side (fractions, away from its ends)."""
    t = np.linspace(0.15, 0.85, n)
    t.setflags(write=False)
    return t


def segment_support(ef: EdgeField, a: np.ndarray, b: np.ndarray, reach: float,
                    n: int = 10) -> np.ndarray:
    """Edge support of M segments ``a[m]``-``b[m]`` ((M, 2) each) at once: the fraction of
    sample points with an edge pixel across the segment whose gradient is perpendicular to
    it (points outside the image count as unsupported)."""
    h, w = ef.edges.shape
    t = _along(n)
    offs = np.arange(-int(np.ceil(reach)), int(np.ceil(reach)) + 1, dtype=np.float64)
    d = b - a
    nrm = np.empty_like(d)
    nrm[:, 0], nrm[:, 1] = -d[:, 1], d[:, 0]
    nrm /= np.linalg.norm(d, axis=1, keepdims=True) + 1e-9
    q = a[:, None, None, :] + t[None, :, None, None] * d[:, None, None, :] \
        + offs[None, None, :, None] * nrm[:, None, None, :]
    xi = np.round(q[..., 0]).astype(int)
    yi = np.round(q[..., 1]).astype(int)
    inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
    # (np.clip's own overhead is most of its cost on arrays this small)
    xi, yi = np.minimum(np.maximum(xi, 0), w - 1), np.minimum(np.maximum(yi, 0), h - 1)
    nx, ny = ef.direction(yi, xi)
    along = np.abs(nx * nrm[:, None, None, 0] + ny * nrm[:, None, None, 1]) > 0.9
    hit = (ef.edges[yi, xi] & along & inside).any(axis=2)
    return hit.mean(axis=1)


def _snap_unknown(fit: LatticeFit, ef: EdgeField, cell: Cell, pts: np.ndarray,
                  reach: float) -> np.ndarray:
    """Move the vertices of ``cell`` that no detected tile fixes to where the edges of the
    photo best outline the cell (a small search around the predicted spot, all candidate
    spots judged in one vectorised call)."""
    out = pts.copy()
    for k, v in enumerate(cell_corners(cell)):
        if v in fit.vertex_px:
            continue
        best = out[k].copy()
        for step, n in ((0.05, 2), (0.015, 1)):
            g = np.arange(-n, n + 1) * step * fit.side
            cand = best[None, :] + np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)
            prev = np.repeat(out[(k - 1) % 3][None], len(cand), axis=0)
            nxt = np.repeat(out[(k + 1) % 3][None], len(cand), axis=0)
            # both sides meeting at the vertex, in one call
            sup = segment_support(ef, np.concatenate([prev, cand]),
                                  np.concatenate([cand, nxt]), reach)
            score = sup[:len(cand)] + sup[len(cand):]
            best = cand[int(np.argmax(score))]
        out[k] = best
    return out
