"""The board's pieces: joined out of sight, or apart in plain view.

A board read from a photo can fall into pieces that are one on the table: the tiles
joining them lie under a hand or an object, beyond the photo's edge, or were read only in
part. The reconstruct stage also joins to the board the faces that lie squarely on its
lattice apart from it (:data:`~vision.reading.JOINED_BY_LATTICE`). But a tile placed
touching the board by a corner only, or a group set down apart, is a rule broken on the
table, and there the cells between show the bare table. A piece joins the rest through
one of its free edge-neighbour cells, so when every such cell is in view and shows the
table, no tile can be hidden there: the piece is reported as placed
(:data:`APART_IN_VIEW`). A free cell beyond the photo's edge hides nothing either when the
rest of the board has no free cell beyond it: tiles lying there would have to reach the
rest through cells in view. Otherwise it is judged as joined out of sight
(:data:`~vision.reading.JOINED_OUT_OF_SIGHT`, unless a flag already says how). A piece
of one tile that meets none of the board's tiles, not even at a corner, with the table in
view all round, was never placed on the board: a loose tile lying on its lattice by chance,
it goes off the board (:data:`LOOSE_ON_LATTICE`), unless a cell beside it showed the
classifier a digit (:data:`~vision.reading.BESIDE_SHOWN_DIGIT`: a tile under a hand the
table's colour).

"Shows the table" is judged by colour against the free cells around the board's own
piece (up to four steps out: a checked cloth's squares are bigger than a tile): a pixel is
the table's when some pixel of enough of those cells has nearly its colour (a checked
cloth has several colours; a hand over one or two of those cells is too few of them to
count; the light's strength may differ, its colour hardly), and is nearer it than the
colour of the tiles' bodies (their digits' ink left out: gold digits share a wood table's
colour). A blown-out
pixel (glare) has no colour left and proves nothing, a tile under the glare being as white,
unless the table is blown out so in enough of those cells. A tile lying in a cell would
cover all of it, so a cell that shows the table over a good part of its middle holds
none, whatever lies over the rest (a tile's side face, its shadow). But a cell at one of
whose vertices a tile's corner shows no digit is not in plain view, whatever its colour: a
hand or an object lies over that corner, and a hand the colour of a wood table passes for
the table. So is one where a tile two of whose corners showed no digit to their own crops
has a corner read from a crop moved off its outline (:data:`~vision.reading.MOVED_CROP`):
the digit is known, the hand may lie there still. So is it where too little table is in
view to judge any cell by its colour (a board filling the photo).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from engine.lattice import Cell, Vertex, cell_corners, cells_around, edge_neighbours

from .config import ReaderConfig
from .detect import is_clockwise
from .reading import (
    BESIDE_SHOWN_DIGIT,
    JOINED_OUT_OF_SIGHT,
    JOINED_UNSEEN,
    OUTLINE_INFERRED,
    Reading,
    TileReading,
)
from .spots import digit_blobs, spots_of

#: the flag of a tile of a piece of the board apart from the rest, the cells between in
#: plain view
APART_IN_VIEW = ("lies apart from the rest of the board, the cells between showing the "
                 "table (reported as placed)")


#: the flag of a tile off the board that lies on its lattice by chance: it touches none of
#: the board's tiles, and the cells around it show the table
LOOSE_ON_LATTICE = ("lies on the board's lattice by chance: touches none of its tiles, the "
                    "cells around it showing the table (off the board)")


def _pixels(image: np.ndarray, px: np.ndarray, shrink: float, away: list[np.ndarray],
            in_view: float = 1.0) -> tuple[np.ndarray, np.ndarray] | None:
    """BGR pixels (N, 3) of the triangle ``px`` shrunk toward its centroid, ~12 samples
    across, and their distances (N,) to the nearest triangle of ``away`` (tiles' top
    faces; inf with none); only those inside the photo, and None when under ``in_view``
    (share) of the shrunk triangle's samples are (1: all of it must be in view). A tile
    lying in a cell covers all of it, so the part in view tells as well as the whole."""
    c = px.mean(axis=0)
    pts = np.round(c + (px - c) * shrink).astype(np.int32)
    h, w = image.shape[:2]
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0) + 1
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(m, pts - [x0, y0], 1)
    k = max(1, int(min(x1 - x0, y1 - y0)) // 12)  # ~60 pixels: enough for a share
    ys, xs = np.nonzero(m[::k, ::k])
    ys, xs = y0 + ys * k, x0 + xs * k
    inside_photo = (xs >= 0) & (ys >= 0) & (xs < w) & (ys < h)
    if not inside_photo.any() or inside_photo.mean() < in_view:
        return None
    xs, ys = xs[inside_photo], ys[inside_photo]
    q = np.c_[xs, ys].astype(np.float64)
    near = _distance_to(q, away)
    inside = image[ys, xs]
    if inside.ndim == 1:  # a grey photo
        inside = np.repeat(inside[:, None], 3, axis=1)
    return inside[:, :3].astype(np.float32), near


def _distance(q: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """Distance (N,) of points ``q`` (N, 2) to the triangle ``tri`` (3, 2): 0 inside."""
    d = np.full(len(q), np.inf)
    sides = []
    for a, b in zip(tri, np.roll(tri, -1, axis=0), strict=True):
        e = b - a
        t = np.clip(((q - a) @ e) / max(float(e @ e), 1e-12), 0.0, 1.0)
        d = np.minimum(d, np.linalg.norm(q - (a + t[:, None] * e), axis=1))
        sides.append(e[0] * (q[:, 1] - a[1]) - e[1] * (q[:, 0] - a[0]))
    s = np.stack(sides)
    inside = (s >= 0).all(axis=0) | (s <= 0).all(axis=0)
    return np.where(inside, 0.0, d)


def _distance_to(q: np.ndarray, tris: list[np.ndarray]) -> np.ndarray:
    """Distance (N,) of points ``q`` (N, 2) to the nearest of triangles ``tris`` (each
    (3, 2)): 0 inside one, inf with none."""
    near = np.full(len(q), np.inf)
    for tri in tris:
        near = np.minimum(near, _distance(q, tri))
    return near


def _few(cells: list[np.ndarray], most: int = 32) -> list[np.ndarray]:
    """Each cell's pixels (N, 3) cut to at most ``most`` spread over them (a cell's colours
    are much alike), cells with fewer than 6 left out."""
    return [p[np.linspace(0, len(p) - 1, min(len(p), most)).astype(int)] for p in cells
            if len(p) >= 6]


def _body(cfg: ReaderConfig, pix: np.ndarray) -> np.ndarray:
    """The pixels of a tile's face ``pix`` (N, 3 BGR) of its body's colour: log lightness
    within ``cfg.apart_tile_body`` of the face's median (its digits' ink, gold on an onyx
    tile, left out: a wood table shares that colour); all of them with 0."""
    if not cfg.apart_tile_body or len(pix) < 6:
        return pix
    light = _log_colour(pix)[0]
    return pix[np.abs(light - np.median(light)) <= cfg.apart_tile_body]


def _blown(cfg: ReaderConfig, pix: np.ndarray) -> np.ndarray:
    """(N,) which of BGR pixels ``pix`` (N, 3) are blown out: every channel at least
    ``cfg.apart_clipped`` (glare or overexposure left no colour to judge)."""
    return pix.min(axis=1) >= cfg.apart_clipped


def _log_colour(pix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Log lightness (N,) and log chroma (N, 3) of BGR pixels (N, 3): the light's strength
    across the table scales all three channels, shifting the first and not the second."""
    f = np.log(pix.astype(np.float32) + np.float32(16.0))
    light = f.mean(axis=1)
    return light, f - light[:, None]


def _nearness(cfg: ReaderConfig, pix: np.ndarray, refs: list[np.ndarray]) -> np.ndarray:
    """(N,) how far the colour of each of ``pix`` (N, 3) is from the reference cells
    ``refs``: the distance within which at least ``cfg.apart_table_cells`` of them have a
    pixel, in units of the tolerances (at most 1: a match): log lightness over
    ``cfg.apart_table_light``, log chroma over ``cfg.apart_table_chroma``, the larger (the
    light is uneven across a table, its colour much less so)."""
    light, chroma = _log_colour(pix)
    rl, rc = _log_colour(np.concatenate(refs))
    d = np.maximum(np.abs(light[:, None] - rl[None, :]) / cfg.apart_table_light,
                   np.sqrt(((chroma[:, None, :] - rc[None, :, :]) ** 2).sum(axis=2))
                   / cfg.apart_table_chroma)
    starts = np.cumsum([0] + [len(r) for r in refs[:-1]])
    per_cell = np.minimum.reduceat(d, starts, axis=1)  # (N, cells)
    need = max(1, int(np.ceil(cfg.apart_table_cells * len(refs))))
    return np.partition(per_cell, need - 1, axis=1)[:, need - 1]


class _Table:
    """The table round a board, judged by colour: the free cells up to
    ``cfg.apart_table_steps`` steps from the board's piece ``main`` (cells), but those
    round the board's other tiles, give the table's colours; ``faces`` (cell: corners
    (3, 2) in original pixels, scaled by ``scale`` into ``img``) are the tiles taken as
    seen, whose pixels and digits tell nothing of the table. ``reading`` places the free
    cells (its homography) and names every tile's cell."""

    def __init__(self, cfg: ReaderConfig, img: np.ndarray, reading: Reading, scale: float,
                 main: set[Cell], faces: dict[Cell, np.ndarray]) -> None:
        self.cfg, self.img, self.reading, self.scale = cfg, img, reading, scale
        self.main = main
        cells = {t.cell for t in reading.tiles if t.cell is not None}
        # the table around the board's own piece: the free cells up to
        # cfg.apart_table_steps steps from it, but those around the other pieces
        ring, step = set(main), set(main)
        for _ in range(cfg.apart_table_steps):  # each step out from the last one's only
            step = {n for c in step for n in edge_neighbours(c)} - ring  # type: ignore[arg-type]
            ring |= step
        by_rest = {c for a in cells - main for v in cell_corners(a)  # type: ignore[arg-type]
                   for c in cells_around(v)}
        self.faces = {c: p * scale for c, p in faces.items()}
        self.side = float(np.median([np.linalg.norm(p[0] - p[1])
                                     for p in self.faces.values()]))
        self.margin = cfg.apart_table_margin * self.side
        band = cfg.apart_table_band * self.side
        self._px: dict[Cell, tuple[np.ndarray, np.ndarray] | None] = {}
        # the table's colours: away from the tiles (their sides and shadows reach past)
        self.table = _few([p[d > band] for p, d in filter(None, map(
            self.pixels, sorted(ring - cells - by_rest)))])
        # a blown-out pixel (glare, overexposure) has no colour left: it is the table's
        # only where the table itself shows so, in as many of its cells as a colour must be
        self.blown_table = bool(self.table) and float(np.mean(
            [_blown(cfg, p).mean() >= 0.5 for p in self.table])
        ) >= cfg.apart_table_cells
        #: enough of the table in view to judge a cell by its colour
        self.judged = len(self.table) >= cfg.apart_table_refs
        self._tile: list[np.ndarray] | None = None
        self._blobs: np.ndarray | None = None

    def pixels(self, cell: Cell) -> tuple[np.ndarray, np.ndarray] | None:
        """The pixels of ``cell`` in view and their distances to the faces round it
        (:func:`_pixels`), None where too little of it is in view."""
        if cell not in self._px:
            near = {c for v in cell_corners(cell) for c in cells_around(v)}
            self._px[cell] = _pixels(self.img, self.reading.cell_px(cell) * self.scale,
                                     self.cfg.apart_table_shrink,
                                     [self.faces[c] for c in near
                                      if c in self.faces and c != cell],
                                     self.cfg.apart_cell_in_view)
        return self._px[cell]

    def tile(self) -> list[np.ndarray]:
        """The tiles' own colours (their bodies', :func:`_body`): a pixel the colour of
        the tiles is no proof of table."""
        if self._tile is None:
            self._tile = self._bodies(sorted(self.main)[:24])
        return self._tile

    def _bodies(self, cells: list[Cell]) -> list[np.ndarray]:
        """The body colours (:func:`_body`) of the faces of those of ``cells`` read."""
        return _few([_body(self.cfg, p) for p, _ in filter(None, (
            _pixels(self.img, self.faces[c], self.cfg.apart_table_shrink, [])
            for c in cells if c in self.faces))])

    def digits_in(self, cell: Cell) -> bool:
        """Do two of ``cell``'s three digit spots have a digit blob (:mod:`vision.spots`)
        near them, off the faces?"""
        if self._blobs is None:
            img, faces, side = self.img, self.faces, self.side
            gray = img if img.ndim == 2 else cv2.cvtColor(img[:, :, :3], cv2.COLOR_BGR2GRAY)
            ref = spots_of(np.stack([faces[c] for c in sorted(self.main)])).reshape(-1, 2)
            every = np.concatenate(list(faces.values()))
            box = (every.min(axis=0) - 2 * side, every.max(axis=0) + 2 * side)
            found = digit_blobs(self.cfg, gray, side, ref, box)
            # those of the tiles read (their digits, their outlines' shadows) tell nothing
            self._blobs = found[_distance_to(found, list(faces.values())) > self.margin]
        if not len(self._blobs):
            return False
        at = spots_of((self.reading.cell_px(cell) * self.scale)[None])[0]  # (3, 2)
        d = np.linalg.norm(at[:, None, :] - self._blobs[None, :, :], axis=2).min(axis=1)
        return int((d <= self.cfg.apart_digit_reach * self.side).sum()) >= 2

    def plain(self, cell: Cell, least: float | None = None, lying: bool = False) -> bool:
        """Does ``cell`` show the table over enough of its middle (``least``, default
        ``cfg.apart_table_min``, of its pixels off the faces) to hold no tile? False where
        too little of it is in view to tell. Where the table's colour and the tiles' are
        alike, a cell showing no digits is the table's. With ``lying`` (a tile read
        there is being judged), the colour alone decides, a pixel is the table's only
        within ``cfg.drop_table_near`` of its colours and nearer them by
        ``cfg.drop_tile_margin`` than the tiles' colours and those of the tiles round the
        cell; short of ``least`` so, the cell is the table's too where at least
        ``cfg.drop_close_share`` of its pixels are nearer by the smaller
        ``cfg.drop_close_margin``."""
        cfg = self.cfg
        least = cfg.apart_table_min if least is None else least
        got = self.pixels(cell)
        if got is None:
            return False  # mostly beyond the photo's edge: a tile may lie there
        pix = got[0][got[1] > self.margin]
        if len(pix) < 6:
            return False
        near = _nearness(cfg, pix, self.table)
        # (a tile read there is judged by the table's colour closely: a hand the colour
        # of a wood table lies a little off it, dev 71000216)
        bare = near <= (cfg.drop_table_near if lying else 1.0)
        if not self.blown_table:
            bare &= ~_blown(cfg, pix)  # a tile's as well as the table's
        tile = self.tile() if cfg.apart_not_tile else []
        if tile:
            theirs = _nearness(cfg, pix, tile)
            if lying:
                # nearer the table by a margin (a light tile on a light table lies about
                # as near both, fresh 75000282: light grey tiles on white marble), and
                # nearer than the tiles round it, which lie in its light (a board's far
                # tiles under glare are lighter than those the tiles' colour was taken
                # from, onyx dev 73000043, black tiles on dark granite)
                around = self._around(cell)
                near_around = _nearness(cfg, pix, around) if around else None

                def nearer_by(margin: float) -> np.ndarray:
                    far = near + margin
                    out = bare & (far < theirs)
                    return out if near_around is None else out & (far < near_around)

                strict = nearer_by(cfg.drop_tile_margin)
                if (cfg.drop_close_share <= 1.0 and float(strict.mean()) < least
                        and float(nearer_by(cfg.drop_close_margin).mean())
                        >= cfg.drop_close_share):
                    # nearly all of it nearer the table by a smaller margin: bare wood
                    # a little off the tiles' colour (dev faults 71000151); a light tile
                    # on a light table is nearer it over 0.73-0.78 at no margin at all
                    return True
            else:
                strict = bare & (near < theirs)
                if (cfg.apart_no_digit and float(bare.mean()) >= least
                        and float(strict.mean()) < least):
                    # the table's colour and the tiles' alike: a tile lying there would
                    # show its digits
                    return not self.digits_in(cell)
            bare = strict
        return float(bare.mean()) >= least

    def _around(self, cell: Cell) -> list[np.ndarray]:
        """The body colours of the faces meeting ``cell`` at a vertex."""
        return self._bodies(sorted({c for v in cell_corners(cell) for c in cells_around(v)}
                                   - {cell}))


def _covered_corners(cfg: ReaderConfig, t: TileReading) -> list[Vertex]:
    """The vertices of board tile ``t`` where something lies over its corner: those whose
    crop shows no digit (``cfg.apart_covered_none``), and with ``cfg.apart_covered_moved``,
    where two of its corners showed none to their own crops, those read from a crop moved
    off its outline too (:attr:`~vision.reading.TileReading.moved_from_none`: a hand over
    the tile, the digit read beside the finger). One corner so read alone is an outline
    askew there, not a hand (dev with faults 71000222, 71000290, 71000357: a tile placed
    apart, so read, would be judged joined out of sight)."""
    ks = {k for k, p in enumerate(t.probs) if p[6] >= cfg.apart_covered_none}
    if cfg.apart_covered_moved and len(ks | set(t.moved_from_none)) >= 2:
        ks |= set(t.moved_from_none)
    corners = cell_corners(t.cell)  # type: ignore[arg-type]
    return [corners[k] for k in sorted(ks)]


def judge_pieces(cfg: ReaderConfig, image: Callable[[], np.ndarray], reading: Reading,
                 scale: float = 1.0) -> tuple[int, int]:
    """Flag (in place) the tiles of every piece of the board but its own
    (:meth:`~vision.reading.Reading.pieces`): :data:`APART_IN_VIEW` where every free
    edge-neighbour cell of the piece is in view and shows the table (or lies beyond the
    photo's edge while no free cell of the rest does: ``cfg.apart_edge_both``), no
    tile's corner at its vertices showing no digit (:func:`_covered_corners`; its
    joined-unseen flags dropped), else :data:`~vision.reading.JOINED_OUT_OF_SIGHT` where
    no flag says how it joins.
    :meth:`~vision.reading.Reading.board_violations` then reports the board in pieces, or
    a tile touching it by a corner only, as the table shows it.

    ``image`` gives the BGR photo at ``scale`` of the original pixels the tiles' corners
    are in (asked for only when the board is in pieces); the reading's homography places
    the free cells (:meth:`~vision.reading.Reading.cell_px`). Without a homography
    nothing is flagged; with too little table in view around the board's own piece to
    judge by colour, only the pieces beside a vertex where a corner shows no digit are
    (``cfg.apart_covered_unjudged``: joined out of sight), the rest reported as they lie.
    A piece of one tile meeting no other tile, the table in view all round, is moved to
    the reading's ``off_board`` instead (``cfg.apart_lone_loose``), unless it is flagged
    :data:`~vision.reading.BESIDE_SHOWN_DIGIT` (``cfg.apart_lone_digits``: judged joined
    out of sight).
    Returns the numbers of tiles flagged apart in view and joined out of sight (those
    moved off the board counted in neither).
    """
    tiles = reading.tiles
    parts = reading.pieces()
    if not cfg.apart_in_view or reading.homography is None or len(parts) < 2:
        return 0, 0
    cells = {t.cell for t in tiles if t.cell is not None}
    view = _Table(cfg, image(), reading, scale, {t.cell for t in parts[0]},  # type: ignore[misc]
                  {t.cell: t.corner_px for t in tiles if t.cell is not None})
    # the vertices where a tile's corner shows no digit: something lies over them
    covered = {v for t in tiles if t.cell is not None
               for v in _covered_corners(cfg, t)}
    # with too little table in view to judge by, only a piece beside such a vertex is
    # judged: joined out of sight (cfg.apart_covered_unjudged)
    judged = view.judged
    if not judged and not (covered and cfg.apart_covered_unjudged):
        return 0, 0
    pixels, plain = view.pixels, view.plain

    free = [{n for t in part for n in edge_neighbours(t.cell)} - cells  # type: ignore[arg-type]
            for part in parts]
    # the pieces with a free cell beyond the photo's edge: tiles lying beyond it can join
    # a piece to the rest only if the rest reaches beyond it too (all else is in view)
    out = ([any(pixels(n) is None for n in sorted(f)) for f in free]
           if cfg.apart_edge_both else [True] * len(parts))
    seen = hidden = 0
    loose: list[TileReading] = []
    for k, part in enumerate(parts[1:], start=1):
        near = free[k]
        beside = any(covered & set(cell_corners(n)) for n in near)
        if not judged and not beside:
            continue
        rest_out = any(o for j, o in enumerate(out) if j != k)
        bare = not beside and all(plain(n) or (not rest_out and pixels(n) is None)
                                  for n in sorted(near))
        lone = bare and len(part) == 1 and not _touches(part[0], cells)
        if lone and cfg.apart_lone_digits and BESIDE_SHOWN_DIGIT in part[0].flags:
            # a cell beside it of the table's colour showed a digit to the classifier: a
            # tile under a hand (as dark as the table), the lone tile joined through it
            bare = lone = False
        if lone and cfg.apart_lone_loose:
            loose.append(part[0])  # on no tile's edge or corner, the table all round
        elif bare:
            for t in part:
                t.flags = [f for f in t.flags if not f.startswith(JOINED_UNSEEN)]
                t.flags.append(APART_IN_VIEW)
                seen += 1
        else:
            for t in part:
                if not t.joined_unseen:
                    t.flags.append(JOINED_OUT_OF_SIGHT)
                    hidden += 1
    for t in loose:
        reading.tiles.remove(t)
        reading.off_board.append(as_off_board(t))
    return seen, hidden


def drop_on_table(cfg: ReaderConfig, image: Callable[[], np.ndarray], reading: Reading,
                  scale: float = 1.0) -> int:
    """Remove (in place) the board tiles whose outline was inferred from the lattice
    (:data:`~vision.reading.OUTLINE_INFERRED`: no edge of theirs was found) that show
    their digits at fewer than two corners (:attr:`~vision.reading.TileReading.own_digits`),
    or at two read unclearly (:func:`_shows_no_two`), and whose cell shows the table
    (:meth:`_Table.plain`: nearer the table's colours, taken round the tiles whose
    outlines were found, than the tiles', theirs and those round the cell, over at least
    ``cfg.drop_table_min`` of its middle, or nearer by the smaller ``cfg.drop_close_margin``
    over ``cfg.drop_close_share``): the classifier read digits in the table's
    grain or print there, and no tile lies in a cell the table shows. (Two digits read
    clearly are a tile's, whatever covers its middle: a hand the colour of a wood table
    passes for the table, dev3 76000174; two read unclearly are the grain's, dev2
    71000869.) ``image`` gives the BGR photo at ``scale`` of the original pixels. Nothing
    is dropped without ``cfg.drop_inferred_on_table``, a homography, or enough table in
    view to judge. Where no board tile's outline was found (a board fitted to its
    silhouette), the tiles whose crops' own first choices are their digits at all three
    corners, each at ``cfg.drop_table_read_min`` or more, stand for the tiles seen (none
    above 1). Returns the number of tiles removed."""
    if not cfg.drop_inferred_on_table or reading.homography is None:
        return 0
    guessed = [t for t in reading.tiles if t.cell is not None and OUTLINE_INFERRED in t.flags
               and _shows_no_two(cfg, t)]
    seen = {t.cell: t.corner_px for t in reading.tiles
            if t.cell is not None and OUTLINE_INFERRED not in t.flags}
    if not seen and cfg.drop_table_read_min <= 1.0:
        # no outline found on the board (a board fitted to its silhouette): its tiles are
        # those read clearly at all three corners
        seen = {t.cell: t.corner_px for t in reading.tiles
                if t.cell is not None and t.own_digits == 3
                and min(t.confidence) >= cfg.drop_table_read_min}
    if not guessed or not seen:
        return 0
    view = _Table(cfg, image(), reading, scale, set(seen), seen)
    if not view.judged:
        return 0
    # (a checked cloth's light squares share the tiles' colour: there the colour tells
    # nothing, nor does a cell showing no digits, a tile's being as blank under glare;
    # dev3 76000052, 76000221)
    gone = [t for t in guessed
            if view.plain(t.cell, cfg.drop_table_min, lying=True)]  # type: ignore[arg-type]
    for t in gone:
        reading.tiles.remove(t)
    return len(gone)


def _shows_no_two(cfg: ReaderConfig, t: TileReading) -> bool:
    """Does board tile ``t`` show its digits at fewer than two corners (its crops' own
    first choices, :attr:`~vision.reading.TileReading.own_corners`), or at two read each
    under ``cfg.drop_table_two_max``: no two digits a tile's, as :func:`drop_on_table`
    judges them."""
    own = t.own_corners
    if len(own) != 2:
        return len(own) < 2
    return all(float(t.probs[k, d]) < cfg.drop_table_two_max for k, d in own)


def _touches(tile: TileReading, cells: set[Cell]) -> bool:
    """Does ``tile`` share a vertex with a tile of another of ``cells``?"""
    assert tile.cell is not None
    mine = set(cell_corners(tile.cell))
    return any(mine & set(cell_corners(c)) for c in cells if c != tile.cell)


def as_off_board(t: TileReading, flag: str = LOOSE_ON_LATTICE) -> TileReading:
    """Board tile ``t`` as a tile off the board: no cell, its corners clockwise on screen
    (as off-board tiles are read), flagged ``flag`` (why it is off the board)."""
    px = t.corner_px
    k = [0, 1, 2] if is_clockwise(px) else [0, 2, 1]
    flags = [f for f in t.flags if not f.startswith(JOINED_UNSEEN)] + [flag]
    return TileReading(None, [t.corners[i] for i in k], px[k], [t.confidence[i] for i in k],
                       t.probs[k], flags)
