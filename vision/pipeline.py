"""The photo reader, stage by stage: decode -> detect -> classify -> reconstruct.

Each stage is one function taking the :class:`~vision.config.ReaderConfig` first;
:func:`read_photo` runs them all and times each one. Errors a user can cause (not an
image, no tiles) are :class:`~vision.io.PhotoError` with a one-line message.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import islice
from pathlib import Path
from typing import TypedDict

import cv2
import numpy as np

from engine.board import Status, Violation
from engine.lattice import (
    Cell,
    Vertex,
    across_edge,
    cell_centroid,
    cell_corners,
    edge_neighbours,
    vertex_neighbours,
    vertex_xy,
)
from engine.tiles import Tile, rotations

from .apart import as_off_board, drop_on_table, judge_pieces
from .classifier import DigitClassifier, digit_probs
from .config import DEFAULT, ReaderConfig
from .crops import CROP_SIDE, corner_crops
from .detect import (
    Triangle,
    dark_faces,
    edge_map,
    edge_sharpness,
    find_cut_faces,
    find_triangles,
    in_tris,
    mean_side,
    rim_faces,
)
from .fit import (
    LatticeFit,
    add_cut_faces,
    cell_at,
    fit_lattice,
    gap_to_board,
    grown_boards,
    other_boards,
    other_sizes,
)
from .io import NoTilesError, Photo, from_array, load
from .loose import alike_shape, colour_faces, prune_loose, shape_pose
from .reading import (
    BESIDE_SHOWN_DIGIT,
    BOARD_TOO_BLURRED,
    HIDDEN_CORNER,
    HIDDEN_TWO,
    JOINED_BY_LATTICE,
    MEETS_AT_CORNER,
    MOVED_CROP,
    MOVED_CROP_UNSURE,
    OUTLINE_INFERRED,
    SET_KINDS,
    Reading,
    TileReading,
    cell_text,
)
from .reconstruct import CornerChoice, bad_tiles, choose_digits, unshown_tiles
from .silhouette import faces_showing_digits, pin_seeds, slid_seeds
from .spots import spots_of

#: the flag of a tile read alone, clearly, where no board was found (reported off it)
READ_ALONE = "read alone where no board was found (one tile is no board)"
#: the flag of a loose face read clearly by a search that found no board, reported as the
#: only reading (``cfg.alone_loose``): off the board as seen, perhaps a tile of a board
#: not found
NO_BOARD_FOUND = ("read clearly where no board was found: off the board as seen, perhaps a "
                  "tile of a board not found")
#: the flag of a loose face read from its outline moved (:func:`_move_loose`)
MOVED_OUTLINE = "read from its outline moved a little (its own read unsurely)"
#: the flag of an off-board tile whose outline its edges did not show: found as a region
#: of the board tiles' colour, its outline that region's triangle
BY_COLOUR = "outline found by the tiles' colour (its edges show none)"
#: the flag of a tile a board grown against the board read found beside it
RIVAL_BESIDE = ("read on a board grown from the digits beside this one (its own cell missed "
                "the tile's digits), agreeing with its neighbours")
#: the flag of a tile meeting the board at a vertex only, past a tile under a hand
MET_PAST_HIDDEN = (f"{MEETS_AT_CORNER} (the tile between lies under a hand or an "
                   "object)")
#: the flag of a board cell read from a loose face lying on it, not the lattice's outline
READ_OWN_OUTLINE = ("read from its own outline, off the lattice (a hand-placed part of the "
                    "board drifted)")
#: the flag of a tile with a corner under a hand one cell from the board, the cell between
#: read past the hand (a digit in view, no whole tile)
PAST_HIDDEN_CELL = ("joined out of sight: the cell between it and the board shows a digit "
                    "but no whole tile (a tile under a hand or an object)")


@lru_cache(maxsize=1)
def default_classifier() -> DigitClassifier:
    """The shipped digit classifier, loaded once per process."""
    return DigitClassifier.load()


@dataclass
class Found:
    """Output of the detect stage: the lattice fit (detection pixels) and the triangles."""

    fit: LatticeFit
    scale: float
    #: set by :func:`reconstruct`: a board was found but too blurred to read, and dropped
    too_blurred: bool = False


@dataclass
class Seen:
    """One tile to classify: its cell (None off the board), corners in original pixels,
    whether it came from a detected face (False: a cell proposed by the lattice)."""

    cell: Cell | None
    px: np.ndarray
    detected: bool
    candidate: bool = False
    #: index of its face in the fit's triangles (loose faces only; -1 otherwise)
    face: int = -1
    #: its corners clearly disagree on the print convention (set by classify)
    mixed: bool = False
    #: corners read again from a moved crop (set by classify, see ``cfg.reread_min``)
    reread: tuple[int, ...] = ()
    #: ... of a face cut by the photo's edge, digits its own crop read unsurely that a
    #: moved crop read as another (``cfg.reread_unsure_below``): (corner, the digit its
    #: own crop read, that probability)
    reread_unsure: tuple[tuple[int, int, float], ...] = ()
    #: read from its outline moved off the lattice with no digit to go by (see
    #: :func:`_shift_free`)
    shifted: bool = False
    #: a loose face read at its cell's outline (see :func:`_read_tiles`): its own outline
    #: and probabilities (3, 7), read again if it joins no board (see :func:`reconstruct`)
    own: tuple[np.ndarray, np.ndarray] | None = None
    #: read from its outline moved off the lattice where a digit read there clearly was
    #: one the board overruled (see :func:`_reread_conflicts`): that corner, that digit
    #: and its probability there
    conflict: tuple[int, int, float] | None = None
    #: where read unsurely (see :func:`_steady`), its outline then and its probabilities
    #: (3, 7) averaged over crops moved a little each way; the board's digits are chosen
    #: from these while its outline is unchanged
    steady: tuple[np.ndarray, np.ndarray] | None = None
    #: a loose face read from its outline moved a little, that outline kept where it was
    #: found (see :func:`_move_loose`)
    moved: bool = False


def detect(cfg: ReaderConfig, photo: Photo) -> Found:
    """Find tile faces on a downscaled copy and fit the lattice to them.

    A large photo is tried first on a coarse copy (``cfg.coarse_max_side``); when the tiles
    found there are big enough (``cfg.coarse_min_side`` px a side) that answer stands,
    otherwise the finer detection copy is used (small tiles need every pixel).
    """
    if cfg.coarse_max_side and max(photo.width, photo.height) > cfg.detect_max_side:
        small, s = photo.scaled_gray(cfg.coarse_max_side)
        found = _detect_on(cfg, small, s)
        if found.fit.cells and found.fit.side >= cfg.coarse_min_side:
            return found
    small, s = photo.scaled_gray()
    # the colour copy (off-board tiles are judged in it) is decoded on the other core
    # while the lattice is fitted, pure Python on this one: its size follows the tiles';
    # so is the full grey image of a photo read at half size, where its tiles are small

    def sized(side: float) -> None:
        photo.prefetch_gray(side / s)
        photo.prefetch_colour(_colour_factor(cfg, side / s))

    found = _detect_on(cfg, small, s, lambda: photo.scaled()[0], sized)
    n = len(found.fit.cells) + len(found.fit.proposed)
    small_tiles = not found.fit.cells or found.fit.side < cfg.upscale_below
    if cfg.upscale_below and (small_tiles or n < cfg.upscale_few) and s >= 1.0:
        # small tiles at full resolution: outlines are a few pixels and digits touch them;
        # a doubled copy separates them better (kept if it finds more of the board; when
        # the tiles looked big, only if it finds a real board there, not table speckle)
        big = cv2.resize(photo.image, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)
        again = _detect_on(cfg, big, 2.0)
        n2 = len(again.fit.cells) + len(again.fit.proposed)
        if n2 > n and (small_tiles or n2 >= cfg.upscale_few):
            return again
    return found


def _detect_on(cfg: ReaderConfig, small: np.ndarray, scale: float,
               colour: Callable[[], np.ndarray] | None = None,
               sized: Callable[[float], None] | None = None) -> Found:
    """Detect and fit on one copy of the photo (grey, or BGR) at ``scale`` of the original;
    ``colour`` gives that copy in colour when the silhouette search asks for it; ``sized``
    is told the side of the tiles found (that copy's px) before the lattice is fitted."""
    gray = small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    edges = edge_map(cfg, gray)
    tris: list[Triangle] = find_triangles(cfg, gray, edges)
    if colour is None and small.ndim == 3:
        colour = lambda: small  # noqa: E731
    fit = fit_lattice(cfg, tris, gray, edges, colour, sized=sized)
    outlined = fit.from_silhouette
    if cfg.rim_block and fit.from_silhouette:
        # no board of faces: bevelled tiles may show their faces inside shaded rims
        fit = _with_more_faces(cfg, fit, tris, rim_faces(cfg, gray, edges, tris), gray, edges)
    if cfg.dark_gamma and (fit.from_silhouette or len(fit.cells) < cfg.dark_below or (
            outlined and cfg.dark_after_rims)):
        # few faces by their edges: dark tiles' seams may show on a brightened copy (also
        # where faces in rims made a board in the silhouette's place: the brightened copy
        # may show more of it, onyx dev 73000031: 4 faces in rims, 12 dark ones)
        more, bright, b_edges = dark_faces(cfg, gray, tris)
        made = _with_more_faces(cfg, fit, tris, more, bright, b_edges)
        if made is fit and cfg.dark_seam_kernel and (scale <= 1.0 or cfg.dark_seam_doubled):
            # no bigger board: the seams sought again with a wider black-hat (bevelled
            # grooves on granite, whose grains set Canny's threshold over theirs; onyx
            # dev 73000043); only then, as other faces moved the boards the first made
            # (onyx dev 73000031, 73000064: 16 and 41 tiles read, 10 and 31 so); not on
            # the copy doubled for small tiles, whose grooves are twice as wide again
            more, bright, b_edges = dark_faces(cfg, gray, tris, cfg.dark_seam_kernel)
            made = _with_more_faces(cfg, fit, tris, more, bright, b_edges)
        fit = made
    _with_cut_faces(cfg, fit, gray, edges)
    if fit.rival is not None:
        fit.rival = _cut_too(cfg, fit.rival, gray, edges)
    return Found(fit, scale)


def _cut_too(cfg: ReaderConfig, make: Callable[[], LatticeFit | None], gray: np.ndarray,
             edges: np.ndarray) -> Callable[[], LatticeFit | None]:
    """``make`` (a fit made when called: ``LatticeFit.rival``) with the faces cut by the
    photo's edge added to what it makes, as to the fit read first."""
    def made() -> LatticeFit | None:
        fit = make()
        if fit is not None:
            _with_cut_faces(cfg, fit, gray, edges)
        return fit
    return made


def _with_more_faces(cfg: ReaderConfig, fit: LatticeFit, tris: list[Triangle],
                     more: list[Triangle], gray: np.ndarray, edges: np.ndarray) -> LatticeFit:
    """The lattice fitted to the faces ``tris`` and ``more`` (faces found another way;
    ``gray`` and ``edges``: the image they were found in, no silhouette search) where it
    makes a bigger board than ``fit`` of 3 faces or more (in place of a silhouette's
    lattice, only one holding 3 or more faces of ``more``: ``cfg.more_faces_own``); else
    ``fit`` (where ``fit`` is a silhouette's and that lattice holds 3 or more faces of
    ``more``, with it as ``fit.by_edges``, read if the silhouette's cells read no tile:
    ``cfg.more_faces_fallback``)."""
    if not more:
        return fit
    alt = fit_lattice(cfg, tris + more, gray, edges, silhouette=False)
    # a board of the faces found before, fitted anew on this copy, is no board of these
    # faces: a rack's tiles and the gaps between them (dev2 71000684)
    new = {id(t) for t in more}
    own = sum(id(alt.triangles[i]) in new for i in alt.cells.values()) >= 3
    bigger = (len(alt.cells) >= 3 and len(alt.cells) + len(alt.proposed)
              > len(fit.cells) + len(fit.proposed))
    if bigger and (own or not fit.from_silhouette or not cfg.more_faces_own):
        return alt
    if (cfg.more_faces_fallback and fit.from_silhouette and own
            and len(alt.cells) > len(fit.by_edges.cells if fit.by_edges else ())):
        # a silhouette's lattice of more cells stands, but a board of 3 or more of these
        # faces is read if its cells read as no digits (the wood grain beside a board of
        # dark tiles drew the silhouette's lattice; the faces showed on the brightened
        # copy)
        fit.by_edges = alt
    return fit


def _with_cut_faces(cfg: ReaderConfig, fit: LatticeFit, gray: np.ndarray,
                    edges: np.ndarray | None) -> None:
    """Add the faces cut by the photo's edge to ``fit`` (``gray``, its ``edges``: the
    detection copy; see :func:`vision.fit.add_cut_faces`), with ``cfg.cut_faces``."""
    if cfg.cut_faces and fit.side > 0:
        assert edges is not None
        add_cut_faces(fit, find_cut_faces(cfg, gray, edges, fit.side, fit.homography),
                      gray.shape[1], gray.shape[0])


def _other_boards(cfg: ReaderConfig, photo: Photo, scale: float, read: list[LatticeFit],
                  n: int, close: int = 3, fallbacks: bool = True, short: bool = False
                  ) -> Iterator[Found]:
    """At most ``n`` boards fitted to other silhouettes of the detection copy than those
    the fits ``read`` (at ``scale``; the first detect's) placed (see
    :func:`vision.fit.other_boards`; ``close``: its kernel; ``fallbacks`` and ``short``:
    see :func:`vision.silhouette.find_boards`)."""
    if n <= 0:
        return
    gray, s, tris, edges, placed = _search_copy(cfg, photo, scale, read)
    boards = other_boards(cfg, tris, gray, lambda: photo.scaled()[0], placed,
                          [fit.guess for fit in read if fit.guess is not None], close,
                          fallbacks, short)
    yield from _found_each(cfg, islice(boards, n), gray, edges, s)


def _search_copy(cfg: ReaderConfig, photo: Photo, scale: float, read: list[LatticeFit],
                 every_face: bool = False
                 ) -> tuple[np.ndarray, float, list[Triangle], np.ndarray | None,
                            list[tuple[np.ndarray, float]]]:
    """The detection copy searched for other boards (:func:`_other_boards`,
    :func:`_grown_boards`): its grey image, its scale, its faces found by their edges
    and its edge map (None where the first detect's faces, ``read[0]``'s, are reused:
    made only if asked for; with ``every_face`` never, as those are only the faces of
    the size of its board), and per fit of ``read`` (at ``scale``) its cells' centres
    and tile side in that copy's pixels."""
    gray, s, tris, edges = _copy_faces(cfg, photo, None if every_face else
                                       Found(read[0], scale))
    placed = [(np.array([fit.project(cell_centroid(c)) for c in (*fit.cells, *fit.proposed)]
                        ).reshape(-1, 2) * (s / scale), fit.side * (s / scale))
              for fit in read if fit.homography is not None and fit.side > 0]
    return gray, s, tris, edges, placed


def _copy_faces(cfg: ReaderConfig, photo: Photo, first: Found | None
                ) -> tuple[np.ndarray, float, list[Triangle], np.ndarray | None]:
    """The detection copy's grey image, its scale, its faces found by their edges and its
    edge map: the faces of the fit ``first`` (and no edge map: made only if asked for)
    where that fit was found on this copy, else found anew (``first`` None: always)."""
    gray, s = photo.scaled_gray()
    if first is not None and abs(s - first.scale) < 1e-9:
        fit = first.fit  # its faces of the board's size (not those offered as loose only)
        return gray, s, [t for i, t in enumerate(fit.triangles) if i not in fit.offered], None
    edges = edge_map(cfg, gray)
    return gray, s, find_triangles(cfg, gray, edges), edges


def _found_each(cfg: ReaderConfig, fits: Iterable[LatticeFit], gray: np.ndarray,
                edges: np.ndarray | None, s: float) -> Iterator[Found]:
    """Each fit of ``fits`` (on the detection copy ``gray`` at scale ``s``, its ``edges``
    or None: made when first needed) with the faces cut by the photo's edge added."""
    for alt in fits:
        if cfg.cut_faces and edges is None:
            edges = edge_map(cfg, gray)
        _with_cut_faces(cfg, alt, gray, edges)
        yield Found(alt, s)


def _grown_boards(cfg: ReaderConfig, photo: Photo, scale: float, read: list[LatticeFit],
                  n: int) -> Iterator[Found]:
    """At most ``n`` boards grown from single faces of the detection copy by their digits
    (see :func:`vision.fit.grown_boards`; every face found there, not only those of the
    size of a board read), leaving out those on the fits ``read`` (at ``scale``; the
    first detect's first)."""
    if n <= 0 or cfg.face_seed_boards <= 0:
        return
    gray, s, tris, edges, placed = _search_copy(cfg, photo, scale, read, every_face=True)
    yield from _found_each(cfg, islice(grown_boards(cfg, tris, gray, placed), n), gray,
                           edges, s)


def _seeded_boards(cfg: ReaderConfig, photo: Photo, detected: Found, seeds: np.ndarray
                   ) -> Iterator[Found]:
    """The boards grown from the faces ``seeds`` (N, 3, 2, pixels of the detection copy)
    by their digits (:func:`vision.fit.grown_boards`), their faces those of the first
    detect (``detected``) where it searched that copy."""
    gray, s, tris, edges = _copy_faces(cfg, photo, detected)
    yield from _found_each(cfg, grown_boards(cfg, tris, gray, [], seeds), gray, edges, s)


def _slid_boards(cfg: ReaderConfig, photo: Photo, n: int) -> Iterator[Found]:
    """At most ``n`` boards grown by their digits (:func:`vision.fit.grown_boards`) from
    the seeds a face's shape finds slid across the detection copy
    (:func:`vision.silhouette.slid_seeds`; every face found there, anew: see
    :func:`_copy_faces`)."""
    if n <= 0 or cfg.slid_templates <= 0:
        return
    gray, s, tris, edges = _copy_faces(cfg, photo, None)
    seeds = slid_seeds(cfg, tris, gray)
    if len(seeds):
        yield from _found_each(
            cfg, islice(grown_boards(cfg, tris, gray, [], seeds, None), n), gray, edges, s)


def _pin_boards(cfg: ReaderConfig, photo: Photo, n: int, first: Found | None = None,
                near: Sequence[TileReading] = ()) -> Iterator[Found]:
    """At most ``n`` boards grown by their digits (:func:`vision.fit.grown_boards`) from
    the seeds the tiles' centre pins place on the detection copy
    (:func:`vision.silhouette.pin_seeds`; its faces those of the fit ``first`` where it
    was found there, else found anew: see :func:`_copy_faces`), sought only within
    ``cfg.pin_rival_reach`` x side of the tiles ``near`` if any are given."""
    if n <= 0 or cfg.pin_top <= 0:
        return
    gray, s, tris, edges = _copy_faces(cfg, photo, first)
    box = None
    if near:
        px = np.concatenate([t.corner_px for t in near]) * s
        pad = cfg.pin_rival_reach * float(np.mean([mean_side(t.corner_px) for t in near])) * s
        lo, hi = np.floor(px.min(axis=0) - pad), np.ceil(px.max(axis=0) + pad)
        box = (int(max(lo[0], 0)), int(max(lo[1], 0)), int(min(hi[0], gray.shape[1])),
               int(min(hi[1], gray.shape[0])))
    seeds, groups = pin_seeds(cfg, gray, box)
    if len(seeds):
        yield from _found_each(
            cfg, islice(grown_boards(cfg, tris, gray, [], seeds, groups), n), gray, edges, s)


def _neighbour_faces(board: Sequence[TileReading]) -> np.ndarray:
    """The outlines (M, 3, 2, original pixels) of the cells across the edges of the
    ``board`` tiles, each its tile mirrored through that edge's midpoint (so it follows
    the tiles' own drift and perspective), those on a tile of the board left out and each
    cell once."""
    px = np.stack([t.corner_px for t in board]).astype(float)  # (N, 3, 2)
    a, b = px[:, [1, 2, 0]], px[:, [2, 0, 1]]
    nb = np.stack([b, a, a + b - px], axis=2).reshape(-1, 3, 2)  # (as the tile turns)
    side = float(np.linalg.norm(px - px[:, [1, 2, 0]], axis=2).mean())
    cen = nb.mean(axis=1)
    free = np.linalg.norm(cen[:, None] - px.mean(axis=1)[None], axis=2).min(axis=1) > side / 3
    # each cell once: two tiles beside one cell both mirror onto it (the first kept)
    near = np.linalg.norm(cen[:, None] - cen[None], axis=2) <= side / 3
    first = ~np.tril(near & free[None, :], k=-1).any(axis=1)
    return nb[free & first]


def _unread_cells(cfg: ReaderConfig, photo: Photo, board: Sequence[TileReading],
                  off: Sequence[TileReading]) -> np.ndarray:
    """The cells next to the board read (:func:`_neighbour_faces`), wholly in the photo
    and on no tile read off the board with a digit (with ``cfg.grown_rival_off_front``:
    on any), that show digits at their spots (moved up to ``cfg.face_seed_reach`` of a
    side: ``cfg.silhouette_refit_cell_min``) on a face of the board's tone (within
    ``cfg.silhouette_tone_tol`` of its tiles' median), as the detection copy shows them:
    their outlines (M, 3, 2, that copy's pixels), clearest first; none for a board of no
    tile."""
    none = np.zeros((0, 3, 2))
    tiles = [t for t in board if t.cell is not None]
    if not tiles:
        return none
    nb = _neighbour_faces(tiles)
    side = float(np.mean([mean_side(t.corner_px) for t in tiles]))
    inside = ((nb[..., 0].min(axis=1) >= 0) & (nb[..., 1].min(axis=1) >= 0)
              & (nb[..., 0].max(axis=1) <= photo.width - 1)
              & (nb[..., 1].max(axis=1) <= photo.height - 1))
    shown = [t for t in off if t.shows_digit] if not cfg.grown_rival_off_front else []
    if shown:
        oc = np.array([t.corner_px.mean(axis=0) for t in shown])
        d = np.linalg.norm(nb.mean(axis=1)[:, None] - oc[None], axis=2).min(axis=1)
        inside &= d > side / 2
    if not inside.any():
        return none
    gray, s = photo.scaled_gray()
    faces = nb[inside] * s
    ev, tone, shift = faces_showing_digits(faces, gray, cfg.face_seed_reach)
    if not (ev >= cfg.silhouette_refit_cell_min).any():
        return none  # (most boards: their tiles' tone is never needed)
    ref = float(np.median(faces_showing_digits(
        np.stack([t.corner_px for t in tiles]) * s, gray, 0.0)[1]))
    shows = (ev >= cfg.silhouette_refit_cell_min) & (np.abs(tone - ref)
                                                     <= cfg.silhouette_tone_tol)
    order = [int(i) for i in np.argsort(-ev, kind="stable") if shows[i]]
    return (faces + shift[:, None, :])[order]


def _board_seeds(cfg: ReaderConfig, photo: Photo, board: Sequence[TileReading], n: int
                 ) -> np.ndarray:
    """Seeds for boards grown from the board read: its ``n`` tiles (with a cell) whose
    digit spots show best, each moved up to ``cfg.face_seed_reach`` of a side to where
    they do, in the detection copy's pixels (N, 3, 2)."""
    tiles = [t for t in board if t.cell is not None]
    gray, s = photo.scaled_gray()
    faces = np.stack([t.corner_px for t in tiles]) * s
    ev, _, shift = faces_showing_digits(faces, gray, cfg.face_seed_reach)
    order = np.argsort(-ev, kind="stable")[:n]
    return (faces + shift[:, None, :])[order]


def _h_full(found: Found) -> np.ndarray | None:
    """The lattice -> original pixel homography (3, 3) of a fit found (None if none)."""
    h = found.fit.homography
    return None if h is None else np.diag([1 / found.scale, 1 / found.scale, 1.0]) @ h


def _pruned(cfg: ReaderConfig, photo: Photo, found: Found, board: list[TileReading],
            off: list[TileReading]) -> list[TileReading]:
    """The believable tiles of ``off`` beside ``board`` on the lattice of ``found``
    (:func:`vision.loose.prune_loose`, judged in the colour copy its tile size asks for)."""
    if not off:
        return off
    f = _colour_factor(cfg, side_full=found.fit.side / found.scale)
    return prune_loose(cfg, photo.colour(f), off, board, _h_full(found), scale=1.0 / f)


def _apart(tiles: Sequence[TileReading], others: Sequence[TileReading]
           ) -> list[TileReading]:
    """The ``tiles`` whose centre lies farther than a third of their side from every
    tile of ``others``."""
    if not others:
        return list(tiles)
    oc = np.array([t.corner_px.mean(axis=0) for t in others])
    return [t for t in tiles
            if np.linalg.norm(oc - t.corner_px.mean(axis=0), axis=1).min()
            > mean_side(t.corner_px) / 3]


class _OutgrowRules(TypedDict):
    """The options of :func:`_outgrows`, by name."""

    off_alike: bool
    reread: tuple[float, float] | None
    as_pixels: bool
    sure: float | None
    twice: bool


def _outgrow_rules(cfg: ReaderConfig) -> _OutgrowRules:
    """The options of :func:`_outgrows` as ``cfg``'s ``grown_rival_*`` settings give them
    (a board grown against the board read): its keyword arguments."""
    return {"off_alike": cfg.grown_rival_off_alike,
            "reread": ((cfg.grown_rival_unsure, cfg.grown_rival_clear)
                       if cfg.grown_rival_unsure > 0 else None),
            "as_pixels": cfg.grown_rival_pixels,
            "sure": cfg.grown_rival_sure if cfg.grown_rival_sure <= 1.0 else None,
            "twice": cfg.grown_rival_twice}


def _outgrows(board: Sequence[TileReading], off: Sequence[TileReading],
              board2: Sequence[TileReading], off_alike: bool = False,
              reread: tuple[float, float] | None = None, as_pixels: bool = False,
              sure: float | None = None, twice: bool = False) -> bool:
    """Does ``board2`` read more tiles than ``board``, every tile of ``board`` among them
    where it lay (within a third of the tiles' side, each its own) with the same digits,
    its other tiles farther from those (one tile read twice overlaps itself; the next
    cell's centre lies 0.58 of a side away, 0.4 across a drifted gap) and each showing
    its digits (its crops' first choices at two corners, or every corner in view), and
    no tile read off the board (``off``) with a digit among them (a blank face may be an
    outline no tile fills)? With ``off_alike``, a tile read off the board may be among
    them where the tile there reads its digits (a board tile beyond a drifted gap the
    first board's lattice did not cross, read whole by both). With ``reread`` (unsure,
    clear), a tile of ``board`` whose crops read no corner at ``unsure`` or more may be
    read otherwise by ``board2``, whose tile there reads each digit as its crop's first
    choice at ``clear`` or more (a tile the first board's outline missed, read again).
    With ``as_pixels``, a tile of ``board`` may also read otherwise in ``board2`` where
    ``board2`` reads it as its own crops' first choices show it, a digit at every corner
    (the first chose some against them, to agree with its neighbours on a lattice off
    the tiles). With ``sure``, a tile of ``board`` or ``off`` may be read otherwise where
    ``board2`` reads the same digits at each of its corners whose digit it read at ``sure``
    or more (counted from any corner): it may differ where that tile's reading was unsure
    (a board read on a lattice off its tiles, whose crops cut digits in two). With
    ``twice``, tiles of ``board`` lying on one another (centres within a quarter of a
    side: one tile read twice, on two cells a bent lattice folds together) count as one,
    matched by one tile of ``board2`` as either reads."""
    if not board2 or (len(board2) <= len(board) and not twice):
        return False
    c2 = np.array([t.corner_px.mean(axis=0) for t in board2])
    c1 = np.array([t.corner_px.mean(axis=0) for t in board])
    side = float(np.mean([mean_side(t.corner_px) for t in board2]))
    at: dict[int, list[int]] = {}  # board's tiles (indices) by the tile of board2 nearest
    for i, c in enumerate(c1):
        d = np.linalg.norm(c2 - c, axis=1)
        k = int(np.argmin(d))
        if d[k] > side / 3:
            return False
        at.setdefault(k, []).append(i)
    if len(board2) <= len(at):
        return False
    for k, idx in at.items():
        if len(idx) > 1 and not (twice and np.linalg.norm(
                c1[idx][:, None] - c1[idx][None], axis=2).max() <= side / 4):
            return False
        if not any(_turned_alike(board2[k], t) or (
                reread is not None and _read_again(t, board2[k], *reread)) or (
                as_pixels and _as_its_pixels(board2[k], t)) or (
                sure is not None and _alike_where_sure(board2[k], t, sure))
                for t in (board[i] for i in idx)):
            return False
    new = np.array([k not in at for k in range(len(board2))])
    if np.linalg.norm(c2[new][:, None] - c1[None], axis=2).min() <= side / 3:
        return False
    # a tile added must show its digits: at two corners or more (each corner in view, of
    # a partial tile) its crop's own first choice, not only digits chosen to agree with
    # the tiles around it
    if not all(_shows_digits(t) for t, n in zip(board2, new, strict=True) if n):
        return False
    for t in off:
        if all(d is None for d in t.corners):
            continue
        d = np.linalg.norm(c2 - t.corner_px.mean(axis=0), axis=1)
        k = int(np.argmin(d))
        if d[k] > side / 3:
            continue
        if not (off_alike and None not in t.corners and _turned_alike(board2[k], t)) and not (
                sure is not None and _alike_where_sure(board2[k], t, sure)):
            return False
    return True


def _shows_digits(t: TileReading) -> bool:
    """Does ``t`` show its digits: its crops' own first choices at two corners or more
    (each corner read, of a tile with fewer), not only digits chosen to agree with the
    tiles around it?"""
    return t.own_digits >= min(2, sum(d is not None for d in t.corners))


def _without_unshown(board: Sequence[TileReading], board2: list[TileReading]
                     ) -> list[TileReading]:
    """``board2`` without its tiles lying apart from every tile of ``board``
    (:func:`_apart`) that do not show their digits (:func:`_shows_digits`); all of it
    where ``board`` is empty."""
    if not board:
        return board2
    apart = {id(t) for t in _apart(board2, board)}
    return [t for t in board2 if _shows_digits(t) or id(t) not in apart]


def _beside_from_rival(cfg: ReaderConfig, found: Found, board: list[TileReading],
                       off: list[TileReading], board2: Sequence[TileReading]
                       ) -> list[TileReading]:
    """Tiles of ``board2`` (a board grown against ``board`` that did not replace it) to
    add to ``board``: whole tiles each of whose corners' crops read their digit as first
    choice at ``cfg.rival_beside_clear`` or more, lying where ``board`` and ``off`` hold
    no tile, squarely on a free cell of ``found``'s lattice beside ``board``
    (:func:`_squarely`, centre within ``cfg.adopt_loose_frac`` sides of the cell's), and
    agreeing with ``board``'s digits at every vertex they share, two at least. Each is
    returned on its cell, corners in the cell's order, flagged."""
    fit, s = found.fit, found.scale
    if fit.homography is None or not board or cfg.rival_beside_clear > 1.0:
        return []
    try:
        hinv = np.linalg.inv(fit.homography)
    except np.linalg.LinAlgError:
        return []
    side = fit.side / s
    cells = {t.cell for t in board if t.cell is not None}
    shows: dict[Vertex, set[int]] = {}
    for t in board:
        _add_shown(shows, t.cell, t.corners)
    taken = [t.corner_px.mean(axis=0) for t in board + off
             if t.cell is not None or t.shows_digit]
    out: list[TileReading] = []
    for t in board2:
        if None in t.corners or "partial" in t.flags:
            continue
        own = np.argmax(t.probs, axis=1)
        if any(int(own[k]) != d or float(t.probs[k, d]) < cfg.rival_beside_clear
               for k, d in enumerate(t.corners)):
            continue
        c = t.corner_px.mean(axis=0)
        if taken and float(np.min(np.linalg.norm(np.array(taken) - c, axis=1))) < side / 2:
            continue
        cell = cell_at(hinv, c * s)
        if cell in cells or not cells.intersection(edge_neighbours(cell)):
            continue
        outline = fit.corner_px(cell) / s
        k, turn, size = _turn_size(t.corner_px, outline)
        if (np.linalg.norm(outline.mean(axis=0) - c) > cfg.adopt_loose_frac * side
                or not _squarely(cfg, turn, size)):
            continue
        p = np.roll(t.probs, -k, axis=0)  # its digits are these first choices (above)
        if not _agrees(cell, p, shows):
            continue
        digits = [int(d) for d in np.roll(t.corners, -k)]
        out.append(_tile_reading(cfg, cell, np.roll(t.corner_px, -k, axis=0), p, digits,
                                 [RIVAL_BESIDE]))
        cells.add(cell)
        _add_shown(shows, cell, digits)
        taken.append(c)
    return out


def _with_beside_from_rival(cfg: ReaderConfig, found: Found, board: list[TileReading],
                            off: list[TileReading], board2: list[TileReading]
                            ) -> tuple[list[TileReading], list[TileReading]]:
    """``board`` with the tiles :func:`_beside_from_rival` takes from ``board2`` (a rival
    that did not replace it) added, and ``off`` without the readings of those tiles."""
    more = _beside_from_rival(cfg, found, board, off, board2)
    if not more:
        return board, off
    return board + more, [t for t in off if not any(
        np.linalg.norm(t.corner_px.mean(axis=0) - m.corner_px.mean(axis=0))
        < mean_side(m.corner_px) / 2 for m in more)]


def _as_its_pixels(a: TileReading, b: TileReading) -> bool:
    """Does ``a`` read the digits ``b``'s own crops show as their first choices (a digit
    at each corner of ``b``), counted from any corner?"""
    own = np.argmax(b.probs, axis=1)
    return bool((own < 6).all()) and tuple(a.corners) in rotations(
        tuple(int(d) for d in own))  # type: ignore[arg-type]


def _alike_where_sure(a: TileReading, b: TileReading, sure: float) -> bool:
    """Does ``a`` read ``b``'s digit at each corner where ``b`` read one at probability
    ``sure`` or more, counted from some corner of ``a`` (a corner ``a`` names no digit at,
    cut by the photo's edge, reads none)?"""
    at = [(k, d) for k, d in enumerate(b.corners) if d is not None and b.probs[k, d] >= sure]
    return any(all(r[k] == d for k, d in at)
               for r in rotations(tuple(a.corners)))  # type: ignore[arg-type]


def _turned_alike(a: TileReading, b: TileReading) -> bool:
    """Do ``a`` and ``b`` read the same digits, counted from any corner?"""
    return tuple(a.corners) in rotations(tuple(b.corners))  # type: ignore[arg-type]


def _read_again(was: TileReading, now: TileReading, unsure: float, clear: float) -> bool:
    """Is tile ``was`` read unsurely (no corner's top probability at ``unsure``) and ``now``
    clearly (each digit its crop's first choice, at ``clear`` or more)?"""
    if None in now.corners:
        return False
    top = now.probs.max(axis=1)
    return bool(was.probs.max(axis=1).max() < unsure and top.min() >= clear
                and all(int(np.argmax(now.probs[k])) == d for k, d in enumerate(now.corners)))


def _other_sizes(cfg: ReaderConfig, photo: Photo, tried: list[float], n: int
                 ) -> Iterator[Found]:
    """At most ``n`` boards of faces found by their edges on the detection copy at other
    sizes than ``tried`` (px a side in the photo; see :func:`vision.fit.other_sizes`)."""
    gray, s = photo.scaled_gray()
    edges = edge_map(cfg, gray)
    tris = find_triangles(cfg, gray, edges)
    for alt in islice(other_sizes(cfg, tris, gray, edges, [t * s for t in tried]), n):
        _with_cut_faces(cfg, alt, gray, edges)
        yield Found(alt, s)


#: the hints of :func:`why_empty`
HINT_DARK = " (the photo is very dark)"
HINT_PLAIN = " (the photo shows hardly any detail: blurred, or of a plain surface)"
HINT_BLURRED = " (the photo is blurred: hold the camera still, focus on the tiles)"


def why_empty(cfg: ReaderConfig, photo: Photo) -> str:
    """The hint added to "no tiles found" (its text, with a leading space, or ""): the
    photo very dark (mean grey under 35), showing hardly any edge
    (``cfg.blur_hint_edges``), or its sharpest edges blurred
    (:func:`vision.detect.edge_sharpness` under ``cfg.blur_hint_sharpness``), judged on
    the detection copy. A noisy photo is judged by its edges, not its noise (the
    Laplacian's variance, judged before, called a grainy blurred photo sharp and a
    smooth sharp one blurred: onyx dev 73000028, three clear black tiles on dark wood)."""
    gray = photo.scaled_gray()[0]
    if float(gray.mean()) < 35:
        return HINT_DARK
    sharp, n = edge_sharpness(gray)
    if n < cfg.blur_hint_edges:
        return HINT_PLAIN
    return HINT_BLURRED if sharp < cfg.blur_hint_sharpness else ""


def _visible(cfg: ReaderConfig, px: np.ndarray, side: float, w: int, h: int) -> np.ndarray:
    """Which corners of ``px`` (N, 2) lie in a ``w`` x ``h`` photo, or within
    ``cfg.visible_margin_frac`` x ``side`` px of it (N,) bool."""
    m = cfg.visible_margin_frac * side
    return ((px[:, 0] >= -m) & (px[:, 1] >= -m) & (px[:, 0] <= w - 1 + m)
            & (px[:, 1] <= h - 1 + m))


def _visible_each(cfg: ReaderConfig, pxs: Sequence[np.ndarray], side: float, photo: Photo
                  ) -> np.ndarray:
    """:func:`_visible` of each tile's corners ``pxs`` ((3, 2) each) in one call: (N, 3)."""
    flat = np.reshape(pxs, (-1, 2))
    return _visible(cfg, flat, side, photo.width, photo.height).reshape(-1, 3)


def _cut_joined(cfg: ReaderConfig, photo: Photo, t: Seen, p: np.ndarray, side: float,
                how: str) -> TileReading:
    """The board tile of face ``t`` (placed on its cell), cut by the photo's edge and
    joined to the board as ``how`` says: partial, its digits read only where in view
    (:func:`_shown`; ``p`` (3, 7) its crops' probabilities, ``side`` the tiles' side in
    full-image pixels)."""
    vis = _visible(cfg, t.px, side, photo.width, photo.height)
    shown = _shown(cfg, t.px, p, vis, side, photo.width, photo.height)
    return _tile_reading(cfg, t.cell, t.px, p, _digits_shown(p, shown),
                         ["partial", how, *_seen_flags(t)])


def _shown(cfg: ReaderConfig, px: np.ndarray, p: np.ndarray, vis: np.ndarray, side: float,
           w: int, h: int) -> np.ndarray:
    """Which corners of a tile cut by the photo's edge are read: those inside the photo
    (``vis``), and those whose corner lies beyond it while the digit's own spot (0.54 of
    the way to the centre, a crop's half-width inside the frame) is in view and read
    clearly (top probability at least ``cfg.partial_read_min``): a digit sits a third of a
    side in from its corner, and a photo's edge may cut the tile between the two. With
    ``cfg.partial_crop_beyond``, a corner in view whose crop lies wholly beyond the edge
    (its spot more than a crop's half-width past it) is not read: the crop repeats the
    photo's border."""
    if cfg.partial_crop_beyond:
        vis = vis & _spot_in_view(px, side, w, h, -CROP_SIDE / 2)
    if cfg.partial_read_min > 1.0:
        return vis
    return vis | (_spot_in_view(px, side, w, h) & (p[:, :6].max(axis=1) >= cfg.partial_read_min))


def _spot_in_view(px: np.ndarray, side: float, w: int, h: int,
                  inside: float = CROP_SIDE / 2) -> np.ndarray:
    """Which corners' digit spots (0.54 of the way from corner to centre of the tile
    ``px`` (3, 2), ``side`` px) lie in a ``w`` x ``h`` photo, ``inside`` sides inside
    (0.15: a crop's half-width)."""
    spot = px + 0.54 * (px.mean(axis=0) - px)
    m = inside * side
    return ((spot[:, 0] >= m) & (spot[:, 1] >= m) & (spot[:, 0] <= w - 1 - m)
            & (spot[:, 1] <= h - 1 - m))


def classify(cfg: ReaderConfig, photo: Photo, found: Found, classifier: object
             ) -> tuple[list[Seen], np.ndarray, str]:
    """Cut the corner crops from the full-resolution image and classify them in batches.

    Every outlined or proposed cell and every loose face is read in one classifier call.
    Outline-less candidate cells around the board are read ring by ring, only where they
    touch a cell already seen to hold a tile: reconstruct keeps a candidate only when it
    joins the board (or a tile of it cut by the photo's edge), so the others are never
    needed and most of the table around a board is not read at all. The cells meeting
    those at a corner only are read last, in full view (one may hold a tile set down
    touching the board by a corner: kept only where it shows one, read again from its
    outline moved where it shows part of one: :func:`_corner_shift`), and so are those
    cut by the photo's edge (a tile joined beyond it).

    Returns the tiles read (cells, proposed cells, candidates read, loose faces), their
    probabilities (N, 3, 7) (digits 0-5, none; a digit's two print conventions summed)
    and the board's print convention (``inward``/``outward``), a reported fact only. A
    tile whose corners clearly disagree on the convention is marked (``Seen.mixed``), and
    a board tile read unsurely is read again from moved crops (``Seen.steady``,
    :func:`_steady`).
    """
    fit, s = found.fit, found.scale
    side_full = fit.side / s
    def ok(ts: list[Seen]) -> list[Seen]:
        return [t for t in ts if _upright(t.px)]
    cells = ok([Seen(c, fit.corner_px(c) / s, True) for c in sorted(fit.cells)]
               + [Seen(c, fit.corner_px(c) / s, False) for c in sorted(fit.proposed)])
    loose = ok([Seen(None, fit.triangles[i].pts / s, True, face=i) for i in fit.loose])
    base = cells + loose
    probs, raw = _read_tiles(cfg, photo, base, side_full, classifier,
                             _cell_outlines(cfg, photo, fit, s, len(cells), loose))
    if loose:
        # loose shapes are judged in colour: decoded on another core while the rest is
        # read, where detection did not start it while fitting the lattice (a board fitted
        # to its silhouette; after the first, largest classifier call, which takes that
        # core too; a blank board cell, rarer, waits for its colour)
        photo.prefetch_colour(_colour_factor(cfg, side_full))
    owners = Counter(v for c in fit.cells for v in cell_corners(c))
    anchored = {v for v, k in owners.items() if k >= cfg.h_outline_anchor}
    faces = np.array([t.px for t in cells if t.detected]).reshape(-1, 3, 2)
    _homography_outlines(cfg, photo, fit, s, anchored, faces, cells, probs, raw, classifier)
    # cells seen to hold a tile (on the board or cut by the photo's edge), and outlined
    # cells read past (a digit at most, no whole tile: cfg.past_outlined), then rings of
    # candidates touching them
    means = _none_means(cfg, photo, base, probs, side_full)
    joined = {t.cell for t, nm in zip(base, means, strict=True)
              if t.cell is not None and nm <= cfg.none_threshold}
    joined |= _read_past(cfg, photo, base, probs, side_full, means)
    read: list[tuple[Seen, np.ndarray, np.ndarray]] = []
    # outlines read as tiles with no face of their own (proposed cells, then the rings'
    # candidates as they join, read past included): no shift-search move puts a digit
    # spot on one (cfg.shift_off_tiles)
    tiles_read = [t.px for t, nm in zip(base, means, strict=True)
                  if t.cell is not None and not t.detected and nm <= cfg.none_threshold]
    todo = set(fit.candidates)
    tried: set[Cell] = set()  # cells met at a corner read already

    def read_already() -> set[Cell | None]:
        """The cells read so far: faces, candidates and cells met at a corner."""
        return {t.cell for t in cells} | {t.cell for t, _, _ in read} | tried

    budget = cfg.shift_max
    # the candidates ring by ring, then the cells meeting the tiles seen at a corner only;
    # a tile seen there in full view (set down touching the board by a corner) has its
    # own rings read in turn (up to cfg.corner_ring_rounds times: the board beyond it,
    # when the faces found by their edges were that tile alone)
    for _ in range(cfg.corner_ring_rounds + 1):
        while True:
            near = sorted(c for c in todo if any(nb in joined for nb in edge_neighbours(c)))
            if not near and fit.grow is not None:
                # the next ring, made only next to tiles seen; not a cell read already (a
                # cell met at a corner, read before its tile joined the board: read twice,
                # it was reported twice, onyx dev 73000021)
                got = read_already()
                near = sorted(c for c in fit.grow(joined) if c not in got)
            if not near:
                break
            todo.difference_update(near)
            ring = ok([Seen(c, fit.corner_px(c) / s, False, True) for c in near])
            p_ring, r_ring = _read_tiles(cfg, photo, ring, side_full, classifier)
            _homography_outlines(cfg, photo, fit, s, anchored, faces, ring, p_ring, r_ring,
                                 classifier)
            budget -= _shift_search(cfg, photo, ring, p_ring, r_ring, side_full, classifier,
                                    faces, budget, np.reshape(tiles_read, (-1, 3, 2))
                                    if cfg.shift_off_tiles else None)
            means = _none_means(cfg, photo, ring, p_ring, side_full)
            for t, p, r, nm in zip(ring, p_ring, r_ring, means, strict=True):
                read.append((t, p, r))
                if nm <= max(cfg.candidate_none_max, cfg.candidate_pass_none_max):
                    joined.add(t.cell)
                    tiles_read.append(t.px)
        at = {v for c in joined for v in cell_corners(c)}  # type: ignore[arg-type]
        # a tile cut by the photo's edge may meet the board at a corner only, the tiles
        # joining them beyond the edge; one in full view so is a tile set down touching the
        # board by a corner only (a fault the engine reports)
        cut_at = ({c for c in todo if set(cell_corners(c)) & at} if cfg.cut_corner_join
                  else set())
        done = read_already()
        full_at = (_corner_cells(joined, done) if cfg.corner_only_join else set())
        seen_at: set[Cell] = set()  # tiles in full view so seen
        if cut_at or full_at:
            ring, whole = [], []
            for t in ok([Seen(c, fit.corner_px(c) / s, False, True)
                         for c in sorted(cut_at | full_at)]):
                w = bool(_visible(cfg, t.px, side_full, photo.width, photo.height).all())
                if t.cell in (full_at if w else cut_at):
                    ring.append(t)
                    whole.append(w)
            tried |= {t.cell for t in ring}  # type: ignore[misc]
            todo -= tried
            if ring:
                p_ring, r_ring = _read_tiles(cfg, photo, ring, side_full, classifier)
                if cfg.corner_shift_seed <= 1.0:
                    _corner_shift(cfg, photo, fit, s, joined, ring, whole, p_ring, r_ring,
                                  side_full, classifier, faces)
                # a cell met at a corner in full view is kept only where it shows a tile (the
                # rest is table, judged as before from the cells beside the tiles)
                for t, w, p, r in zip(ring, whole, p_ring, r_ring, strict=True):
                    if not w or _clear_tile(cfg, p):
                        read.append((t, p, r))
                        if w:
                            seen_at.add(t.cell)  # type: ignore[arg-type]
        if not seen_at:
            break
        joined |= seen_at
    read.sort(key=lambda x: x[0].cell)  # type: ignore[arg-type, return-value]
    seen = cells + [t for t, _, _ in read] + loose
    probs = np.concatenate([probs[:len(cells)], np.zeros((0, 3, 7))]
                           + [p[None] for _, p, _ in read] + [probs[len(cells):]])
    raw = np.concatenate([raw[:len(cells)], np.zeros((0, 3, 13))]
                         + [r[None] for _, _, r in read] + [raw[len(cells):]])
    if not seen:
        return seen, np.zeros((0, 3, 7)), "inward"
    _reread(cfg, photo, seen, probs, raw, side_full, classifier,
            predicted_corners(cfg, fit, seen, s))
    _move_loose(cfg, photo, seen, probs, raw, side_full, classifier)
    _shift_free(cfg, photo, seen, probs, raw, side_full, classifier, faces,
                cfg.silhouette_read_min if fit.from_silhouette else cfg.board_read_min)
    flat_p, flat_r = probs.reshape(-1, 7), raw.reshape(-1, 13)
    din, dout = flat_r[:, 0:6].sum(axis=1), flat_r[:, 6:12].sum(axis=1)
    # the board's convention, reported as a fact (the digits do not depend on it): the
    # likelier one over the crops that show a digit whose shape tells (not a 0)
    shows = (flat_p[:, 1:6].sum(axis=1) > 0.5) & (flat_p[:, 0] < 0.5)
    score = float(np.sum(np.log(din[shows] + 1e-6) - np.log(dout[shows] + 1e-6)))
    conv = "inward" if score >= 0 else "outward"
    for t, m in zip(seen, _mixed_convention(raw), strict=True):
        t.mixed = bool(m)
    _steady(cfg, photo, seen, probs, side_full, classifier)
    return seen, probs, conv


def _cell_outlines(cfg: ReaderConfig, photo: Photo, fit: LatticeFit, scale: float,
                   first: int, loose: list[Seen]) -> dict[int, np.ndarray]:
    """For :func:`_read_tiles`: the lattice outline (full-image pixels) of the candidate
    cell each loose face of ``loose`` lies on alone (``LatticeFit.shadowed``), by its
    index in the tiles read (``first`` + its place in ``loose``); only outlines in full
    view, of faces at least ``cfg.cell_outline_size`` of the cell's side (not a speck).
    Empty with ``cfg.cell_outline_size`` above 1."""
    if cfg.cell_outline_size > 1:
        return {}
    on = {faces[0]: c for c, faces in fit.shadowed.items() if len(faces) == 1}
    out: dict[int, np.ndarray] = {}
    for j, t in enumerate(loose):
        if t.face not in on:
            continue
        px = fit.corner_px(on[t.face]) / scale
        if (_upright(px) and _visible(cfg, px, fit.side / scale, photo.width,
                                      photo.height).all()
                and mean_side(t.px) >= cfg.cell_outline_size * mean_side(px)):
            out[first + j] = px
    return out


def _crops(photo: Photo, outlines: np.ndarray) -> np.ndarray:
    """The corner crops (:func:`corner_crops`) of tile ``outlines`` (M, 3, 2), full-image
    pixels, cut from the grey copy their size calls for (:meth:`Photo.crop_gray`: the
    median of their sides; a call's outlines are of one board, one size)."""
    side = float(np.median([mean_side(p) for p in outlines])) if len(outlines) else np.inf
    img, s = photo.crop_gray(side)
    return corner_crops(img, outlines * s if s != 1.0 else outlines)


def _read_outlines(photo: Photo, outlines: np.ndarray, classifier: object
                   ) -> tuple[np.ndarray, np.ndarray]:
    """One classifier call for the corners of tile ``outlines`` (M, 3, 2), full-image
    pixels: probabilities (M, 3, 7) and the raw ones (M, 3, 13) (see :func:`_read_tiles`)."""
    raw = classifier.predict_raw(_crops(photo, outlines))  # type: ignore[attr-defined]
    return digit_probs(raw).reshape(len(outlines), 3, 7), raw.reshape(len(outlines), 3, 13)


def _homography_outlines(cfg: ReaderConfig, photo: Photo, fit: LatticeFit, scale: float,
                         anchored: set[Vertex], faces: np.ndarray, seen: list[Seen],
                         probs: np.ndarray, raw: np.ndarray, classifier: object) -> None:
    """Read again, where the lattice's homography puts its free corners, a cell without a
    face of its own whose outline (chained from its neighbours) lies elsewhere: a chain
    of proposed cells can wander off an arm of the board, where the homography fitted to
    the whole board still lies on its tiles. Corners that outlined faces fix
    (``anchored`` vertices, see ``cfg.h_outline_anchor``) stay. The homography's outline
    replaces the cell's outline, probabilities (``probs`` (N, 3, 7), ``raw``) in place,
    and its free vertices in ``fit.vertex_px`` (so cells beyond it are placed from it),
    when all three of its corners then show digits and it reads clearer
    (``cfg.h_outline_gain``). A cell's own face is read so too where its crops show no
    digit at ``cfg.h_outline_face_none`` corners or more (a hand cut its outline short);
    ``faces`` (F, 3, 2) are the board's outlined faces, which that outline must not cover
    (the cell's own face aside)."""
    if cfg.h_outline_min <= 0 or fit.homography is None or not seen:
        return
    side_full = fit.side / scale
    todo: list[tuple[int, np.ndarray]] = []
    for n, t in enumerate(seen):
        if t.cell is None or (t.detected and int(np.sum(np.argmax(probs[n], axis=1) == 6))
                              < cfg.h_outline_face_none):
            continue
        # (a face's own outline is no other tile the homography's may cover)
        others = faces[np.abs(faces - t.px).max(axis=(1, 2)) > 0] if t.detected else faces
        vs = cell_corners(t.cell)
        pure = np.array([fit.project(vertex_xy(v)) / scale for v in vs])
        alt = np.array([t.px[k] if v in anchored else pure[k] for k, v in enumerate(vs)])
        # (and, for a candidate, the homography's whole outline where faces fix a corner
        # elsewhere: the corners of rounded faces found on one side of a vertex only lie
        # off it, dev 71000873: two cells between faces read no digit at a corner 6 px
        # off)
        for out in (alt, pure) if cfg.h_outline_pure and t.candidate else (alt,):
            if np.linalg.norm(out - t.px, axis=1).max() <= cfg.h_outline_min * side_full:
                continue
            # (nor where the alt outline, just added for this cell, lies as near)
            if (out is pure and todo and todo[-1][0] == n
                    and np.linalg.norm(pure - alt, axis=1).max() <= cfg.h_outline_min * side_full):
                continue
            # the cell's shape as the homography sees it, on no outlined face: corners
            # fixed by faces and the homography's disagree where the board itself lies
            # elsewhere
            ratio = (np.linalg.norm(out - out[[1, 2, 0]], axis=1)
                     / np.linalg.norm(pure - pure[[1, 2, 0]], axis=1))
            # (a homography folded across the horizon turns a far cell's outline over:
            # dev 71000815 raised a crop error on a mirrored outline)
            if (not (1 / cfg.h_outline_shape < ratio).all()
                    or (ratio > cfg.h_outline_shape).any() or not _upright(out)
                    or _overlaps(out, others, cfg.shift_overlap_max)):
                continue
            todo.append((n, out))
    if not todo:
        return
    p_m, raw_m = _read_outlines(photo, np.stack([a for _, a in todo]), classifier)
    best: dict[int, tuple[float, int]] = {}
    for j, (n, _) in enumerate(todo):
        q = _quality(p_m[j])
        if ((p_m[j].argmax(axis=1) < 6).all() and q > _quality(probs[n]) + cfg.h_outline_gain
                and q > best.get(n, (-np.inf, -1))[0]):
            best[n] = (q, j)
    for n, (_, j) in best.items():
        out = todo[j][1]
        seen[n] = replace(seen[n], px=out)
        probs[n], raw[n] = p_m[j], raw_m[j]
        for k, v in enumerate(cell_corners(seen[n].cell)):  # type: ignore[arg-type]
            if v not in anchored:
                fit.vertex_px[v] = out[k] * scale


def _shift_search(cfg: ReaderConfig, photo: Photo, ring: list[Seen], probs: np.ndarray,
                  raw: np.ndarray, side_full: float, classifier: object, faces: np.ndarray,
                  budget: int, off: np.ndarray | None = None) -> int:
    """Read again, from its whole outline moved, a candidate cell that shows a clear digit
    (``cfg.shift_seed_min``) at one corner and none at another: a hand-placed arm of the
    board drifts off the lattice, so the lattice's outline of its tile misses some of
    its digits. The outline moves ``cfg.shift_fracs`` x side toward and away from each of
    its corners, never onto the board's outlined faces (``faces``, (F, 3, 2)) nor with a
    digit spot (:func:`vision.spots.spots_of`) inside an outline of ``off`` (F', 3, 2:
    cells read as tiles with no face of their own, or candidates the rings go on past,
    whose outlines the lattice drew and may lie a little off their tiles;
    ``cfg.shift_off_tiles``); the move
    that reads best replaces the outline, probabilities (``probs`` (N, 3, 7), ``raw``)
    and corners in place when all three of its corners then show digits, or, where none
    does, two read at least ``cfg.shift_hidden_min`` and the third none (a hand over
    it). A cell cut by the photo's edge with two corners or more in view is judged on
    those (``cfg.shift_partial_seed_min``). At most ``budget`` cells are tried; returns
    how many were."""
    if budget <= 0 or not cfg.shift_fracs:
        return 0
    arg = probs.argmax(axis=2)
    vis = list(_visible_each(cfg, [t.px for t in ring], side_full, photo))
    todo = [n for n in range(len(ring))
            if vis[n].sum() >= 2 and (arg[n][vis[n]] == 6).any()
            and probs[n][vis[n], :6].max() >= (cfg.shift_seed_min if vis[n].all()
                                               else cfg.shift_partial_seed_min)]
    todo = todo[:budget]
    _shift_best(cfg, photo, ring, probs, raw, side_full, classifier, faces, todo, vis, 0.0,
                cfg.shift_fracs, cfg.shift_hidden_min, off)
    return len(todo)


def _corner_shift(cfg: ReaderConfig, photo: Photo, fit: LatticeFit, s: float,
                  joined: set[Cell], ring: list[Seen], whole: list[bool], probs: np.ndarray,
                  raw: np.ndarray, side_full: float, classifier: object, faces: np.ndarray
                  ) -> list[int]:
    """Read again, from its whole outline moved (``cfg.shift_fracs`` x side, as
    :func:`_shift_search` does), a cell met at a corner only, in full view (``whole``),
    that shows a digit of at least ``cfg.corner_shift_seed`` at one corner and none at
    another: a tile set down touching the board by a corner lies off the lattice by hand,
    so the lattice's outline misses some of its digits. No move covers an outlined face
    (``faces``) or a cell seen to hold a tile (``joined``); one is kept where every
    corner then reads at least ``cfg.corner_shift_min``. In place; returns the cells
    moved."""
    arg = probs.argmax(axis=2)
    todo = [n for n in range(len(ring))
            if whole[n] and (arg[n] == 6).any()
            and float(probs[n][:, :6].max()) >= cfg.corner_shift_seed]
    if not todo:
        return []
    held = np.array([fit.corner_px(c) / s for c in sorted(joined)]).reshape(-1, 3, 2)
    vis = [np.ones(3, bool)] * len(ring)
    return _shift_best(cfg, photo, ring, probs, raw, side_full, classifier,
                       np.concatenate([faces.reshape(-1, 3, 2), held]), todo, vis,
                       cfg.corner_shift_min, cfg.shift_fracs)


def _shift_free(cfg: ReaderConfig, photo: Photo, seen: list[Seen], probs: np.ndarray,
                raw: np.ndarray, side_full: float, classifier: object, faces: np.ndarray,
                read_min: float) -> None:
    """Read again, from its whole outline moved (as :func:`_shift_search` does, by
    ``cfg.shift_free_fracs`` x side), every cell whose outline no face of its own fixes
    and that shows a digit at one corner but none at another, all three corners in
    view, with no clear digit to go by: where the board's seams do not show (black
    tiles joined edge to edge) or an arm of it drifted, its lattice lies up to a fifth
    of a side off the tiles, and a proposed cell's crops then miss one or two of its
    digits (dev 71000941, black tiles on a printed cloth). So is, by
    ``cfg.shift_free_blank_fracs`` x side, a cell that shows no digit at any corner but
    reads "none" unclearly (its mean probability under ``cfg.shift_free_blank``): its
    crops may fall just beside all three digits (onyx dev 73000114); it is kept only
    where all three then show digits, or, where no move shows three, two read at least
    ``cfg.shift_free_blank_hidden`` and the third none (a hand over it: the lattice
    carried across the hand lies off the tiles there, onyx dev 73000078).

    No move covers an outlined face (``faces``), a loose face showing a digit (any, with
    ``cfg.shift_blank_face``) or a cell read as a whole tile, and one is kept only where
    every corner then reads at least ``cfg.shift_free_min`` (of six moves or more, one
    may read weakly by chance), or, where none does, two corners read at least
    ``cfg.shift_hidden_min`` and the third none (a hand over it); the cell is then
    marked ``shifted`` (its clarity says nothing of the photo's, see
    :func:`_read_clearly`), and the cells its new outline covers are read as showing no
    digit. Only on a board whose outlined and proposed cells read at least ``read_min``
    where the lattice put them (reconstruct's bar for a board clear enough to read):
    moves over a blurred board find some reading of its smudges. In place, like
    :func:`_shift_search`."""
    if cfg.shift_free_min > 1.0 or not cfg.shift_free_fracs or not seen:
        return
    outlined = [n for n, t in enumerate(seen) if t.cell is not None and not t.candidate]
    if not outlined or _read_clearly(cfg, photo, seen, probs, outlined, side_full) < read_min:
        return
    arg = probs.argmax(axis=2)
    vis_all = _visible_each(cfg, [t.px for t in seen], side_full, photo)
    vis = list(vis_all)
    free = [n for n, t in enumerate(seen) if t.cell is not None and not t.detected
            and vis[n].all() and (arg[n] == 6).any()]
    todo = [n for n in free if (arg[n] < 6).any()]
    # a cell showing no digit at all, clearly, is the table (most candidates around a
    # board); unclearly, its crops may lie beside its tile's digits
    none_means = _none_means(cfg, photo, seen, probs, side_full, vis_all)
    blank = [n for n in free if (arg[n] == 6).all() and none_means[n] < cfg.shift_free_blank]
    # a move never covers a cell read as a whole tile (it would read that tile's digits),
    # nor a loose face showing a digit (whether that tile joins the board is judged from
    # where it lies: the real product photo's loose 4-4-5 lies a third of a side past a
    # board cell); one showing none may be a board tile's face a hand cuts short
    whole = [t.px for n, t in enumerate(seen)
             if (t.cell is None and (cfg.shift_blank_face or (arg[n] < 6).any()))
             or (arg[n] < 6).all()]
    held = np.concatenate([faces.reshape(-1, 3, 2), np.reshape(whole, (-1, 3, 2))])
    moved = _shift_best(cfg, photo, seen, probs, raw, side_full, classifier, held, todo,
                        vis, cfg.shift_free_min, cfg.shift_free_fracs, cfg.shift_hidden_min)
    if blank:
        # (three digits shown, or two clearly and none where a hand lies over the third)
        moved += _shift_best(cfg, photo, seen, probs, raw, side_full, classifier, held,
                             blank, vis, cfg.shift_free_min, cfg.shift_free_blank_fracs,
                             cfg.shift_free_blank_hidden)
    if not moved:
        return
    for n in moved:
        seen[n] = replace(seen[n], shifted=True)
    # tiles do not overlap: a cell whose outline the moved one covers (over
    # shift_overlap_max of its area; none read as a whole tile) read some of that tile's
    # digits, and holds no other tile
    over = np.stack([seen[n].px for n in moved])
    for n, t in enumerate(seen):
        if (t.cell is not None and not t.detected and not t.shifted
                and _overlaps(t.px, over, cfg.shift_overlap_max)):
            probs[n] = 0.0
            probs[n][:, 6] = 1.0


def _shift_best(cfg: ReaderConfig, photo: Photo, ring: list[Seen], probs: np.ndarray,
                raw: np.ndarray, side_full: float, classifier: object, faces: np.ndarray,
                todo: list[int], vis: list[np.ndarray], floor: float,
                fracs: tuple[float, ...], hidden_min: float = 2.0,
                off: np.ndarray | None = None) -> list[int]:
    """Move the outlines of ``ring[n]`` for ``n`` in ``todo`` ``fracs`` x side
    toward and away from each corner (never over an outlined face of ``faces``, nor with
    a digit spot inside an outline of ``off`` (F', 3, 2), where given) and read
    the moves in one classifier call; the move that reads best, every corner in view
    (``vis``) showing a digit read at least ``floor``, replaces the outline, ``probs``
    and ``raw`` in place where it reads clearer than the outline did. Where no move so
    reads, the one reading best at two corners, each at least ``hidden_min``, with no
    digit at the third (all three in view; a hand over that corner) replaces it where
    the outline showed fewer than two digits so clearly (``hidden_min`` above 1:
    never). Returns the cells moved."""
    centres = faces.mean(axis=1)
    moves = [(n, m) for n in todo
             for m in _outline_moves(cfg, ring[n].px, side_full, fracs, faces, centres)]
    if off is not None and len(off) and moves:
        on = _spot_inside(np.stack([m for _, m in moves]), off)
        moves = [mv for mv, o in zip(moves, on, strict=True) if not o]
    if not moves:
        return []
    p_m, raw_m = _read_outlines(photo, np.stack([m for _, m in moves]), classifier)

    # a cut cell is judged on the corners in view where the lattice put it
    best: dict[int, tuple[float, int]] = {n: (_quality(probs[n][vis[n]]), -1) for n in todo}
    two: dict[int, tuple[float, int]] = {}
    for j, (n, _) in enumerate(moves):
        p = p_m[j][vis[n]]
        shown = p.argmax(axis=1) < 6
        if shown.all() and p[:, :6].max(axis=1).min() >= floor and _quality(p) > best[n][0]:
            best[n] = (_quality(p), j)
        elif (hidden_min <= 1.0 and vis[n].all() and shown.sum() == 2
              and p[shown, :6].max(axis=1).min() >= hidden_min
              and _quality(p[shown]) > two.get(n, (-np.inf, -1))[0]):
            two[n] = (_quality(p[shown]), j)
    for n, (q, j) in two.items():
        # a move showing two digits clearly and none at the third corner (a hand over it),
        # where no move shows three and the outline showed fewer than two so clearly
        if best[n][1] < 0 and int(np.sum(probs[n][:, :6].max(axis=1) >= hidden_min)) < 2:
            best[n] = (q, j)
    out = []
    for n, (_, j) in best.items():
        if j >= 0:
            ring[n] = replace(ring[n], px=moves[j][1])
            probs[n], raw[n] = p_m[j], raw_m[j]
            out.append(n)
    return out


def _outline_moves(cfg: ReaderConfig, px: np.ndarray, side: float,
                   fracs: Sequence[float], faces: np.ndarray,
                   centres: np.ndarray | None = None) -> list[np.ndarray]:
    """Outline ``px`` (3, 2) moved ``fracs`` x ``side`` (px) toward and away from each of
    its corners, each move covering no more than ``cfg.shift_overlap_max`` of its area of
    any of ``faces`` (F, 3, 2; ``centres`` their centres, see :func:`_overlaps`)."""
    arms = px - px.mean(axis=0)
    unit = arms / np.linalg.norm(arms, axis=1, keepdims=True)
    return [m for f in fracs for u in (*unit, *-unit) for m in [px + f * side * u]
            if not _overlaps(m, faces, cfg.shift_overlap_max, centres)]


def _overlaps(px: np.ndarray, faces: np.ndarray, most: float,
              centres: np.ndarray | None = None) -> bool:
    """Does triangle ``px`` (3, 2) cover more than ``most`` of its area of any of
    ``faces`` (F, 3, 2)? (``centres``: the faces' centres (F, 2), where many triangles
    are tried against the same faces.)"""
    if not len(faces):
        return False
    centres = faces.mean(axis=1) if centres is None else centres
    near = np.linalg.norm(centres - px.mean(axis=0), axis=1) < 2 * np.linalg.norm(
        px[0] - px[1])
    a = abs(_clockwise_area(px))
    tri = px.astype(np.float32)
    for f in faces[near]:
        inter, _ = cv2.intersectConvexConvex(tri, f.astype(np.float32))
        if inter > most * a:
            return True
    return False


def predicted_corners(cfg: ReaderConfig, fit: LatticeFit, seen: list[Seen], scale: float
                      ) -> dict[int, np.ndarray] | None:
    """Where the lattice's homography puts the corners of each cell in ``seen`` outlined by
    a face of its own: index -> (3, 2) full-image pixels (``scale``: detection px per
    full-image px); None when ``cfg.reread_predicted`` is off or there is no homography.
    (A cell without a face of its own already has the lattice's corners, and where the
    board drifts the homography's lie off its tiles: one proposed across such a gap
    read digits of the tiles beside it.)"""
    if not cfg.reread_predicted or fit.homography is None:
        return None
    return {n: np.array([fit.project(vertex_xy(v)) for v in cell_corners(t.cell)]) / scale
            for n, t in enumerate(seen) if t.cell is not None and t.detected}


#: unit steps (6, 2) each of six ways on screen, 60 degrees apart (moved crops and outlines)
_SIX_WAYS = np.array([[np.cos(a), np.sin(a)] for a in np.arange(6) * np.pi / 3])


def _reread(cfg: ReaderConfig, photo: Photo, seen: list[Seen], probs: np.ndarray,
            raw: np.ndarray, side_full: float, classifier: object,
            predicted: dict[int, np.ndarray] | None = None) -> None:
    """Read again, from crops moved a little, the one corner of a cell's tile whose crop
    shows no digit while its two others do (an outline found askew, or a lattice vertex
    seen by that face alone, puts the crop beside the digit). With ``predicted`` (seen
    index -> (3, 2) corners the lattice's homography puts there, full-image pixels), the
    corner is also read where the homography puts it: a face outlined wrongly at one
    corner (merged with a shadow, cut by a finger) puts its own vertex 0.2-0.6 of a side
    off, where the board's lattice is right within a few %; and (``cfg.reread_parallelogram``)
    where the tile across the opposite edge, outlined by its own face, puts it
    (:func:`_across`: where a thin or bent board's homography does not). The most
    confident moved crop replaces the corner's probabilities in place when its digit
    reaches ``cfg.reread_min``; the corner is listed in ``Seen.reread`` (reported as a
    flag). So is a loose face's (no cell) whose two other digits read at
    ``cfg.reread_loose_min`` or more: its outline is its own edges alone. And a loose
    face's cut by the photo's edge whose digit in view reads under
    ``cfg.reread_unsure_below``, where a moved crop reads another digit (listed in
    ``Seen.reread_unsure``). And a board cell's two corners in view showing no digit, its
    third read at ``cfg.reread_loose_min`` or more: a moved crop's digit is taken there
    only at ``cfg.reread_two_none_min`` or more and where it agrees with the digits other
    cells read clearly at that vertex (a hand lies over such a cell: moved, a crop can
    read a finger's edge or a neighbour's digit)."""
    if cfg.reread_min > 1.0:
        return
    arg = probs.argmax(axis=2)  # (N, 3)
    vis_all = _visible_each(cfg, [t.px for t in seen], side_full, photo)
    todo: list[tuple[int, int]] = []
    unsure: list[tuple[int, int]] = []  # digits read unsurely (read after todo's)
    two: list[tuple[int, int]] = []  # a cell's two corners showing no digit (then)
    for n, t in enumerate(seen):
        none, vis = arg[n] == 6, vis_all[n]
        if t.cell is None and t.face >= 0 and not vis.all() and not none.any():
            # a loose face cut by the photo's edge, a digit in view read unsurely: its
            # outline, its own edges alone, may be cut short there (a side face or a
            # shadow taken for the table); it may be the board's tile the lattice put
            # off it (cfg.drift_face_cut)
            unsure += [(n, int(k)) for k in np.flatnonzero(
                vis & (probs[n, :, :6].max(axis=1) < cfg.reread_unsure_below))]
            continue
        if (cfg.reread_two_none_min <= 1.0 and t.cell is not None and none.sum() == 2
                and vis.all()
                and float(probs[n, :, :6].max(axis=1)[~none][0]) >= cfg.reread_loose_min):
            # a board cell reading one digit clearly and none at two corners: a hand over
            # them, or an outline drawn off its tile there (the lattice under a hand)
            two += [(n, int(k)) for k in np.flatnonzero(none)]
            continue
        if none.sum() != 1:
            continue
        if t.cell is None and (t.face < 0 or float(np.delete(
                probs[n, :, :6].max(axis=1), np.flatnonzero(none)).min()) < cfg.reread_loose_min):
            continue  # a loose face: only two digits read clearly beside the one not shown
        if not vis.all():
            continue  # a corner outside the photo shows nothing wherever the crop goes
        todo.append((n, int(np.flatnonzero(none)[0])))
    todo = (todo + unsure + two)[:cfg.reread_max]
    if not todo:
        return
    faced = {t.cell: t.px for t in seen if t.cell is not None and t.detected}
    moves: list[np.ndarray] = []
    for n, k in todo:
        px = seen[n].px
        cen = px.mean(axis=0)
        for f in cfg.reread_pull:
            v = px.copy()
            v[k] = v[k] + f * (cen - v[k])
            moves.append(v)
        for u in _SIX_WAYS:
            moves.append(px + cfg.reread_shift * side_full * u)
        v = (_at_predicted(px, predicted[n], [k])
             if predicted is not None and n in predicted else None)
        moves.append(px.copy() if v is None else v)  # (itself again where none predicted)
        if cfg.reread_parallelogram:  # (a loose face has no neighbour: itself again)
            moves.append(px.copy() if seen[n].cell is None
                         else _across(seen[n].cell, px, k, faced))
    per = len(moves) // len(todo)
    # the digits other cells read clearly at each vertex: a moved crop of a cell showing
    # no digit at two corners must agree with them (a hand over the corner: moved, the
    # crop can land on a neighbour's digit)
    clear = _board_shows(seen, probs, [m for m, t in enumerate(seen) if t.cell is not None],
                         cfg.reread_min) if two else {}
    twos = set(two)
    p_m, raw_m = _read_outlines(photo, np.stack(moves), classifier)
    p_m, raw_m = p_m.reshape(len(todo), per, 3, 7), raw_m.reshape(len(todo), per, 3, 13)
    for j, (n, k) in enumerate(todo):
        r, p = raw_m[j, :, k], p_m[j, :, k]  # (per, 13), (per, 7): corner k of each outline
        best = int(np.argmax(p[:, :6].max(axis=1)))
        d = int(np.argmax(p[best, :6]))
        if d == arg[n, k]:
            continue  # a digit read unsurely read so again, more surely: no news
        if (n, k) in twos:
            v = cell_corners(seen[n].cell)[k]  # type: ignore[arg-type]
            if (v in clear and d not in clear[v]) or p[best, d] < cfg.reread_two_none_min:
                continue
        if p[best, d] >= cfg.reread_min:
            if arg[n, k] < 6:
                seen[n].reread_unsure = (*seen[n].reread_unsure,
                                         (k, int(arg[n, k]), float(probs[n, k, arg[n, k]])))
            else:
                seen[n].reread = (*seen[n].reread, k)
            probs[n, k], raw[n, k] = p[best], r[best]


def _at_predicted(px: np.ndarray, predicted: np.ndarray, ks: Sequence[int]
                  ) -> np.ndarray | None:
    """Outline ``px`` (3, 2) with its corners ``ks`` where the lattice's homography puts
    them (``predicted`` (3, 2), :func:`predicted_corners`); None where that outline is no
    tile (a corner predicted past the others)."""
    v = px.copy()
    v[list(ks)] = predicted[list(ks)]
    return v if _upright(v) else None


def _move_loose(cfg: ReaderConfig, photo: Photo, seen: list[Seen], probs: np.ndarray,
                raw: np.ndarray, side_full: float, classifier: object) -> None:
    """Read again, from its outline moved each of ``cfg.move_loose_fracs`` x
    ``side_full`` (px) each of six ways, a loose face (no cell) in full view that shows
    digits at two corners or more, one read under ``cfg.move_loose_below``: a tile seen
    obliquely shows its side below its face, and the face found with it can put every
    crop beside its digit. The clearest move's reading (by its least digit probability)
    replaces the face's
    (``probs`` (N, 3, 7), ``raw`` (N, 3, 13), in place) where all three of its corners
    read a digit at ``cfg.move_loose_min`` or more and another move reads the same three
    digits so too; the face is marked ``Seen.moved`` (reported as a flag). Its outline
    (``Seen.px``) stays the one found: where the tile lies, and how far from the board
    (moved toward it, a loose tile beside a board would measure no seam between). At
    most ``cfg.move_loose_max`` faces, in one classifier call."""
    if cfg.move_loose_below > 1.0 or cfg.move_loose_max <= 0:
        return
    todo = [n for n, t in enumerate(seen)
            if t.cell is None and t.face >= 0
            and int(np.sum(probs[n].argmax(axis=1) < 6)) >= 2
            and float(probs[n, :, :6].max(axis=1).min()) < cfg.move_loose_below
            and _visible(cfg, t.px, side_full, photo.width, photo.height).all()]
    todo = todo[:cfg.move_loose_max]
    if not todo:
        return
    steps = side_full * np.concatenate([f * _SIX_WAYS for f in cfg.move_loose_fracs])  # (K, 2)
    k = len(steps)
    moves = np.stack([seen[n].px + d for n in todo for d in steps])
    p_m, raw_m = _read_outlines(photo, moves, classifier)
    p_m, raw_m = p_m.reshape(len(todo), k, 3, 7), raw_m.reshape(len(todo), k, 3, 13)
    for j, n in enumerate(todo):
        digit, top = p_m[j, :, :, :6].argmax(axis=2), p_m[j, :, :, :6].max(axis=2)  # (K, 3)
        least = np.where(p_m[j, :, :, 6] < top, top, 0.0).min(axis=1)  # (K,)
        clear = least >= cfg.move_loose_min
        best = int(np.argmax(least))
        if not clear[best] or int(np.sum(clear & (digit == digit[best]).all(axis=1))) < 2:
            continue
        probs[n], raw[n] = p_m[j, best], raw_m[j, best]
        seen[n].moved = True


def _across(cell: Cell, px: np.ndarray, k: int, faced: dict[Cell | None, np.ndarray]
            ) -> np.ndarray:
    """Outline ``px`` (3, 2) of ``cell`` with its corner ``k`` moved to complete the
    parallelogram with the neighbour across the edge opposite it, where ``faced`` (cell ->
    its face's outline, in its corner order) has that neighbour; else ``px`` itself (as
    is one that would turn the outline over)."""
    nb, far = across_edge(cell, k)
    if nb not in faced:
        return px.copy()
    v = px.copy()
    v[k] = px[(k + 1) % 3] + px[(k + 2) % 3] - faced[nb][cell_corners(nb).index(far)]
    return v if _upright(v) else px.copy()


def _read_tiles(cfg: ReaderConfig, photo: Photo, seen: list[Seen], side_full: float,
                classifier: object, on_cell: dict[int, np.ndarray] | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """One classifier call for the corners of ``seen``: probabilities (N, 3, 7) (digits
    0-5 with both print conventions summed, none) and the raw ones (N, 3, 13).

    A loose tile larger than the board's is likely its top face plus a side face seen
    obliquely: its crops are also cut from shrunken outlines (in the same call), and the
    outline that reads best replaces its own (``Seen.px``). A loose face lying on a
    lattice cell (``on_cell``: its index in ``seen`` -> the cell's outline (3, 2)) is
    read at the cell's outline too, which replaces its own where it shows a digit at two
    corners or more, at more of them than its own or as many, clearer by
    ``cfg.h_outline_gain``: a hand over a board tile cuts its outline short.
    """
    if not seen:
        return np.zeros((0, 3, 7)), np.zeros((0, 3, 13))
    variants: list[tuple[int, np.ndarray]] = []
    for n, t in enumerate(seen):
        tside = mean_side(t.px)
        if (t.cell is None and 1.05 * side_full < tside < 1.4 * side_full
                and len(variants) < 14 * cfg.loose_variants_max):
            for sc in cfg.loose_shrink:
                k = min(1.0, sc * side_full / tside)
                for a in (*t.px, *(t.px + t.px[[1, 2, 0]]) / 2, t.px.mean(axis=0)):
                    if k < 1.0 or not np.allclose(a, t.px.mean(axis=0)):
                        variants.append((n, a + (t.px - a) * k))
    cell_out = sorted((on_cell or {}).items())
    px = np.stack([t.px for t in seen] + [v for _, v in variants] + [v for _, v in cell_out])
    raw_all = classifier.predict_raw(_crops(photo, px))  # type: ignore[attr-defined]
    # a digit is a digit whichever way up it is printed: the convention is summed away
    # (an edition, or even one tile, may show both; a board-wide choice of one convention
    # loses every digit of a board where it goes wrong)
    probs_all = digit_probs(raw_all)
    probs = probs_all[: 3 * len(seen)].copy()
    raw = raw_all[: 3 * len(seen)].copy()
    if variants:
        best: dict[int, tuple[float, int]] = {}
        for n in {n for n, _ in variants}:
            best[n] = (_quality(probs[3 * n:3 * n + 3]), -1)
        for v, (n, _) in enumerate(variants):
            at = slice(3 * (len(seen) + v), 3 * (len(seen) + v) + 3)
            if _quality(probs_all[at]) > best[n][0]:
                best[n] = (_quality(probs_all[at]), v)
        for n, (_, v) in best.items():
            if v >= 0:
                at = slice(3 * (len(seen) + v), 3 * (len(seen) + v) + 3)
                seen[n].px = variants[v][1]
                probs[3 * n:3 * n + 3] = probs_all[at]
                raw[3 * n:3 * n + 3] = raw_all[at]
    for v, (n, out) in enumerate(cell_out, start=len(seen) + len(variants)):
        at, own = slice(3 * v, 3 * v + 3), probs[3 * n:3 * n + 3]
        shown = int(np.sum(np.argmax(probs_all[at], axis=1) < 6))
        was = int(np.sum(np.argmax(own, axis=1) < 6))
        if shown >= 2 and (shown > was or (shown == was and _quality(probs_all[at])
                                           > _quality(own) + cfg.h_outline_gain)):
            seen[n].own = (seen[n].px, own.copy())
            seen[n].px = out
            probs[3 * n:3 * n + 3] = probs_all[at]
            raw[3 * n:3 * n + 3] = raw_all[at]
    return probs.reshape(len(seen), 3, 7), raw.reshape(len(seen), 3, 13)


def _none_means(cfg: ReaderConfig, photo: Photo, seen: Sequence[Seen], probs: np.ndarray,
                side_full: float, vis: np.ndarray | None = None) -> np.ndarray:
    """Mean "none" probability over each tile's corners in view (1 where none is), for the
    tiles ``seen`` (probabilities ``probs`` (N, 3, 7)) in a few calls: (N,) float64, the
    same values to the bit as ``p[vis, 6].mean()`` tile by tile (a corner out of view adds
    an exact 0 to the sum; the mean is taken in ``probs``' precision, as numpy's is).
    ``vis``: which corners are in view (N, 3), :func:`_visible_each` of ``seen``, where the
    caller has it."""
    if not len(seen):
        return np.zeros(0)
    if vis is None:
        vis = _visible_each(cfg, [t.px for t in seen], side_full, photo)
    total = (probs[:, :, 6] * vis).sum(axis=1)
    count = vis.sum(axis=1)
    mean = total / np.maximum(count, 1).astype(total.dtype)
    # (as Python floats are: compared with a setting, a float32 would round it)
    return np.where(count > 0, mean, 1.0).astype(np.float64)


def _mixed_convention(raw: np.ndarray) -> np.ndarray:
    """(N,) bool: the tile's corners clearly disagree on the print convention, one digit
    confidently top-inward and another confidently top-outward (0s and unclear crops do
    not count). ``raw`` is (N, 3, 13) over :data:`vision.classifier.RAW_CLASSES`."""
    din, dout = raw[:, :, 1:6].sum(axis=2), raw[:, :, 7:12].sum(axis=2)
    sure = din + dout > 0.8
    return (np.any(sure & (din > 0.9 * (din + dout)), axis=1)
            & np.any(sure & (dout > 0.9 * (din + dout)), axis=1))


def reconstruct(cfg: ReaderConfig, photo: Photo, found: Found, seen: list[Seen],
                probs: np.ndarray, set_name: str = "standard") -> tuple[list[TileReading],
                                                                       list[TileReading]]:
    """Decide which tiles are on the board and their digits. Returns (board, off_board).

    Candidates read as tiles that join the board only through the tiles placed after its
    digits are chosen (partly under a hand, or cut by the photo's edge) are decided again
    with those tiles as part of the board (``cfg.bridge_under_hand``): a second pass on
    the seen tiles as given. A loose face read at its cell's outline that joins no board
    is read as its own outline showed it (``Seen.own``), in a pass with those readings:
    its digits there may be the table's. Rewrites ``seen`` and ``probs`` in place (faces
    joined)."""
    seen0, probs0 = list(seen), probs.copy()
    board, off = _bridged(cfg, photo, found, seen, probs, set_name)
    back = [n for n, t in enumerate(seen) if t.own is not None and t.cell is None]
    if back:
        for n in back:
            px, p = seen0[n].own  # type: ignore[misc]
            # (read again at its own outline: what was read from moved crops of the
            # cell's outline is no longer its reading, nor flagged)
            seen0[n], probs0[n] = replace(seen0[n], px=px, own=None, reread=(),
                                          reread_unsure=(), moved=False), p
        board, off = _bridged(cfg, photo, found, seen0, probs0, set_name)
        seen[:], probs[...] = seen0, probs0
    return board, off


def _bridged(cfg: ReaderConfig, photo: Photo, found: Found, seen: list[Seen],
             probs: np.ndarray, set_name: str) -> tuple[list[TileReading], list[TileReading]]:
    """:func:`_reconstruct`, and again with the bridge it gives (see :func:`reconstruct`);
    ``seen`` and ``probs`` rewritten in place."""
    seen0, probs0 = list(seen), probs.copy()
    board, off, bridge, met = _reconstruct(cfg, photo, found, seen, probs, set_name)
    if bridge or met:
        board, off, _, _ = _reconstruct(cfg, photo, found, seen0, probs0, set_name, bridge,
                                        met)
        seen[:], probs[...] = seen0, probs0
    return board, off


def _reconstruct(cfg: ReaderConfig, photo: Photo, found: Found, seen: list[Seen],
                 probs: np.ndarray, set_name: str, bridge: frozenset[Cell] = frozenset(),
                 bridge_met: frozenset[Cell] = frozenset()
                 ) -> tuple[list[TileReading], list[TileReading], frozenset[Cell],
                            frozenset[Cell]]:
    """:func:`reconstruct` once, the cells of ``bridge`` taken as the board's (they join
    candidates to it), and those of ``bridge_met`` as candidates meeting it at a vertex
    past a hand (:func:`_met_past_late`). Returns (board, off_board, the bridge a second
    pass would use: empty when it would join nothing more, and the cells it would join
    so: ``cfg.met_past_late``)."""
    side_full = found.fit.side / found.scale
    board_idx: list[int] = []
    off: list[TileReading] = []
    off_face: list[int] = []  # the loose face behind each off-board reading (-1: none)
    partial: list[TileReading] = []
    # ... of them, those outlined on the board's lattice, their seen index and corners read
    cut_faces: list[tuple[TileReading, int, np.ndarray]] = []
    edge_cands: list[int] = []  # outline-less cells cut by the photo's edge that show digits
    hidden: list[int] = []  # outline-less cells showing digits at two corners, none at one
    hidden2: list[int] = []  # ... a digit at one corner only, clearly, none at two
    # ... of hidden_weak, those whose weak digit is faint enough to be a finger's edge:
    # read as hidden2 where the board does not show that digit there
    weak2: list[int] = []
    hidden_cut: set[int] = set()  # ... of hidden, those cut by the photo's edge
    hidden_weak: set[int] = set()  # ... of hidden, those reading one digit weakly
    blank_two: dict[int, TileReading] = {}  # ... of them, faces: blank unless they join
    # loose faces in full view reading a digit clearly at each corner (at least
    # cfg.adopt_loose_min): the only ones that may join the board (a shape read
    # unsurely is no evidence of a board tile)
    loose_n: list[int] = []
    # ... and those reading two digits so and none at the third (a corner under a hand)
    loose_hidden: list[int] = []
    # ... and those cut by the photo's edge reading two digits or more so (in view)
    loose_cut: dict[int, np.ndarray] = {}
    # ... and those in full view reading each digit less surely (cfg.adopt_unsure_min):
    # they join only where their digits agree with the board's
    loose_unsure: list[int] = []
    vis_all = _visible_each(cfg, [t.px for t in seen], side_full, photo)
    none_means = _none_means(cfg, photo, seen, probs, side_full, vis_all)
    # candidates whose crops read a tile already read, their outline lying over it
    over = _over_tiles(cfg, seen, none_means) if cfg.candidate_on_tiles else set()
    for n, t in enumerate(seen):
        vis = vis_all[n]
        p = probs[n]
        none_mean = float(none_means[n])
        if n in over:
            continue
        if t.candidate:
            if none_mean <= cfg.candidate_none_max:
                (board_idx if vis.all() else edge_cands).append(n)
            elif _one_hidden(cfg, p, vis):
                hidden.append(n)
            elif _one_hidden_cut(cfg, photo, t.px, p, vis, side_full):
                hidden.append(n)
                hidden_cut.add(n)
            elif _two_hidden(cfg, p, vis, 0.0):
                hidden2.append(n)
            elif (cfg.hidden_weak_min < cfg.candidate_hidden_min <= 1.0
                  and _one_hidden(cfg, p, vis, cfg.hidden_weak_min)
                  and float(p[:, :6].max(axis=1).max()) >= cfg.hidden_weak_clear):
                # one of the two digits in view read weakly (a finger over its edge), the
                # other clearly: a tile only where the board's tiles show the weak digit
                # there clearly (the crop at a vertex beside a board tile also reads that
                # tile's digit weakly: the clear one is this cell's own evidence)
                hidden.append(n)
                hidden_weak.add(n)
                if _two_hidden(cfg, p, vis):
                    weak2.append(n)  # ... else, maybe its weak digit a finger's edge
            elif _two_hidden(cfg, p, vis):
                # a faint digit at a hidden corner: a finger's edge (cfg.two_hidden_unclear)
                hidden2.append(n)
            elif cfg.two_hidden_cut and _two_hidden(cfg, p, vis, cut=True):
                # ... or a cell cut by the photo's edge showing one digit, its other corner
                # in view under a hand or an object
                hidden2.append(n)
            continue
        if none_mean > cfg.none_threshold:
            cut = t.face >= 0 and found.fit.triangles[t.face].cut
            # a strip along a tile's far side (cut near it by the photo's edge) showing no
            # digit is no evidence of a tile: a score pad's lines, a printed cloth's shapes
            strip = (cut and found.fit.triangles[t.face].strip is not None
                     and not cfg.cut_strip_blank)
            blank = None
            if (t.detected and (vis.all() or cut) and not strip
                    and t.face not in found.fit.squarely and t.face not in found.fit.apart):
                blank = _blank(t, p)
                if cut:  # face-down, or its digits beyond the photo's edge: not known
                    blank.flags = ["partial", "no digit in view"]
            if (cfg.cell_two_hidden and t.cell is not None
                    and _two_hidden(cfg, p, vis, 0.0)):
                # a face on a cell reading one digit clearly and none at two corners is no
                # blank one: two of its corners lie under a hand or an object (dev
                # 71000591); reported blank, as before, if it joins nothing
                hidden2.append(n)
                if blank is not None:
                    blank_two[n] = blank
            elif blank is not None:
                off.append(blank)
                off_face.append(t.face)
            continue  # a proposed empty cell, or a shape that is not a tile
        if not vis.all():
            # cut by the photo's edge: read what is visible, never guess the rest
            shown = _shown(cfg, t.px, p, vis, side_full, photo.width, photo.height)
            strip = t.face >= 0 and found.fit.triangles[t.face].strip is not None
            if ((t.cell is not None and cfg.partial_face_clear or strip)
                    and not _clear_in_view(cfg, p, shown)):
                # no digit in view read clearly: the table, outlined by tiles; or a strip
                # at the frame showing only a scrap of a digit (a board tile mostly beyond
                # the edge, its neighbour's digit at the seam: dev2 71000623)
                continue
            if t.cell is not None and cfg.partial_face_lone:
                # a corner in view whose pixels clearly say no digit tells none (its spot
                # may lie beyond the edge): unknown, not a guess
                shown = shown & ~(p[:, 6] >= cfg.partial_read_min)
            digits = _digits_shown(p, shown)
            tr = _tile_reading(cfg, t.cell, t.px, p, digits, ["partial", *_seen_flags(t)])
            if t.cell is not None:
                partial.append(tr)
                cut_faces.append((tr, n, shown))
            else:
                off.append(tr)
                off_face.append(t.face)
                if (cfg.adopt_loose_cut and shown.sum() >= (1 if cfg.adopt_cut_one else 2)
                        and p[shown, :6].max(axis=1).min() >= cfg.adopt_loose_min):
                    loose_cut[n] = shown
            continue
        if t.cell is None:
            # two digits read clearly and none at the third (a hand over it) is no blank
            # shape, however unsure the hidden corner's digit
            hid = cfg.adopt_loose_hidden and _one_hidden(cfg, p, vis, cfg.adopt_loose_min)
            blank = (int(np.sum(np.argmax(p, axis=1) == 6)) > cfg.unshown_corners_max
                     or float(p[:, :6].max(axis=1).mean()) < cfg.loose_read_min)
            if blank and not (hid and cfg.hidden_face_not_blank):
                # a face-up tile shows a digit at every corner; two corners whose pixels
                # say "no digit" are a shape of the table (granite specks read as 45
                # loose tiles on one photo), judged as a blank one; so are digits read
                # no better than guesses (specks again: 53 "tiles" at 0.22-0.55)
                if t.face in found.fit.squarely or t.face in found.fit.apart:
                    # the table between tiles, outlined by them; or a blank shape of
                    # another size than the board's (mostly the table's print)
                    continue
                off.append(_blank(t, p))
            else:
                off.append(_tile_reading(cfg, None, t.px, p, None, _reread_flags(t)))
                if p[:, :6].max(axis=1).min() >= cfg.adopt_loose_min:
                    loose_n.append(n)
                elif hid:
                    loose_hidden.append(n)
                elif (vis.all() and cfg.adopt_unsure_min < cfg.adopt_loose_min
                      and p[:, :6].max(axis=1).min() >= cfg.adopt_unsure_min):
                    loose_unsure.append(n)
            off_face.append(t.face)
            continue
        board_idx.append(n)
    # a candidate may join the board through its tiles cut by the photo's edge
    cut = ({tr.cell for tr in partial if tr.cell is not None} | bridge,
           {seen[n].cell for n in edge_cands if seen[n].cell is not None})
    # (one cut by the photo's edge is reported partial: never a tile of the board in full)
    weak = _weak_corners(probs, hidden_weak)  # their corner read weakly
    pre = board_idx + _hidden_told(cfg, seen, probs, board_idx,
                                   [n for n in hidden if n not in hidden_cut], weak)
    board_idx = _connected(seen, pre, *cut)
    # candidates read clearly that meet the board at a vertex only, past a tile mostly
    # under a hand or an object: joined there (and the cells they join edge to edge)
    met = (_met_past_hidden(cfg, photo, seen, probs, board_idx, side_full)
           if cfg.full_at_vertex and board_idx else set())
    corner_only: set[Cell] = set()  # ... and those met at a corner in plain view
    if cfg.corner_only_join and board_idx:
        at_corner = _met_at_corner(cfg, photo, seen, probs, board_idx, side_full) - met
        met |= at_corner
        if cfg.corner_only_reported:
            corner_only = at_corner
    met |= bridge_met
    if met:
        cut = (cut[0] | met, cut[1])
        board_idx = _connected(seen, pre, *cut)
    read_min = cfg.silhouette_read_min if found.fit.from_silhouette else cfg.board_read_min
    tops = _visible_tops(cfg, photo, seen, probs, board_idx, side_full)
    clarity = float(np.mean(tops)) if tops.size else 0.0
    if board_idx and (clarity < read_min or float(tops.max(initial=0.0)) < cfg.board_clear_top):
        # a board too blurred to read (on the whole, or not one digit clearly): its digits
        # would be guesses
        board_idx = []
        found.too_blurred = True
        # nor are the faces offered beside it as loose only: its blur makes shapes read as
        # digits (dev faults 71000321: four such "tiles" beside a blurred board)
        off, off_face = _without_faces(off, off_face, found.fit.offered)
    shows = np.argmax(probs[board_idx], axis=2) < 6 if board_idx else np.zeros((0, 3), bool)
    unshown = unshown_tiles([seen[n].cell for n in board_idx], shows,  # type: ignore[misc]
                            cfg.unshown_corners_max)
    if unshown:
        board_idx = _connected(seen, [n for i, n in enumerate(board_idx) if i not in unshown],
                               *cut)
    adopted = (_adopt_loose(cfg, found, seen, probs, board_idx, loose_n, loose_hidden,
                            unsure=loose_unsure)
               if board_idx else [])
    apart = (_adopt_apart(cfg, found, seen, probs, board_idx + adopted,
                          [n for n in loose_n + loose_hidden if n not in adopted],
                          loose_hidden)
             if board_idx and cfg.adopt_apart else [])
    if adopted or apart:
        off, off_face = _without_faces(off, off_face,
                                       {seen[n].face for n in adopted + apart})
        board_idx = _rejoin(cfg, seen, probs, board_idx + adopted + apart, pre, cut)
    if apart and cfg.adopt_beside_apart:
        # the board now runs round the pieces joined apart: loose faces lying next to them
        # join as next to any tile of it (dev 71000918: two beside a piece apart)
        def left(ns: list[int]) -> list[int]:
            return [n for n in ns if seen[n].cell is None]
        more = _adopt_loose(cfg, found, seen, probs, board_idx, left(loose_n),
                            left(loose_hidden), unsure=left(loose_unsure))
        if more:
            off, off_face = _without_faces(off, off_face, {seen[n].face for n in more})
            board_idx = _rejoin(cfg, seen, probs, board_idx + more, pre, cut)
            adopted = adopted + more
    # faces cut by the photo's edge lying next to the board so joined: partial, read only
    # where in view
    for n in (_adopt_loose(cfg, found, seen, probs, board_idx, [], (), loose_cut)
              if board_idx and loose_cut else []):
        off, off_face = _without_faces(off, off_face, {seen[n].face})
        partial.append(_cut_joined(
            cfg, photo, seen[n], probs[n], side_full, "joined off the lattice: a face cut by "
            "the photo's edge lying on the cell next to the board, its digits agreeing with "
            "the board's"))
    # a joined face with a corner under a hand whose digit no other tile shows: partial,
    # that digit unknown (never a guess)
    for n in _untold(seen, probs, board_idx, [n for n in adopted + apart if n in loose_hidden]):
        board_idx.remove(n)
        digits = _digits_shown(probs[n], np.argmax(probs[n], axis=1) < 6)
        how = (f"{JOINED_BY_LATTICE}: lies on the board's lattice apart from it" if n in apart
               else "joined off the lattice: a loose face lying on the cell next to the board")
        partial.append(_tile_reading(cfg, seen[n].cell, seen[n].px, probs[n], digits,
                                     ["partial", HIDDEN_CORNER, how, *_seen_flags(seen[n])]))
    drifted = _drifted_faces(cfg, found, seen, probs, board_idx, loose_n)
    if drifted and cfg.adopt_after_drift:
        # a drifted cell's own face fixes its vertices: the cells next to it are then
        # predicted from it, and loose faces lying on them join (the arm followed on)
        used = {found.fit.shadowed[seen[n].cell][0] for n in drifted}  # type: ignore[index]
        for n in drifted:
            for v, q in zip(cell_corners(seen[n].cell), seen[n].px,  # type: ignore[arg-type]
                            strict=True):
                found.fit.vertex_px[v] = q * found.scale
        more = _adopt_loose(cfg, found, seen, probs, board_idx,
                            [n for n in loose_n if seen[n].cell is None
                             and seen[n].face not in used])
        if more:
            off, off_face = _without_faces(off, off_face, {seen[n].face for n in more})
            board_idx = _rejoin(cfg, seen, probs, board_idx + more, pre, cut)
            adopted = adopted + more
    board_idx, choice = _choose(cfg, seen, probs, board_idx, cut, set_name,
                                clarity >= cfg.support_clarity)
    cells = [seen[n].cell for n in board_idx]
    # an askew face on a cell that shows a board tile was that tile outlined wrongly
    off, off_face = _without_faces(off, off_face, _shadowed(found, cells))
    # kept only next to the board or to a tile of it cut by the photo's edge (a row of
    # such tiles along the edge), read only where visible
    joined = set(cells) | {tr.cell for tr in partial if tr.cell is not None}
    # cells with a corner under a hand that the board cannot tell: partial, that digit
    # unknown (only where the two in view are clear and agree with the board)
    under = _hidden_untold(cfg, seen, probs, board_idx, hidden, weak) if board_idx else []
    # ... and those with two corners under it, one digit in view agreeing with the board:
    # the hidden digits are told by the board's tiles at their vertices, else unknown
    told = {seen[n].cell for n in board_idx + under}
    under2 = (_two_hidden_agree(cfg, seen, probs, board_idx,
                                hidden2 + [n for n in weak2 if seen[n].cell not in told])
              if board_idx else [])
    under += under2
    # a cell cut by the photo's edge under a loose face cut there too: that face is its
    # tile, the lattice drawn off it (dev 71000200: a fifth of a side off, its 5 read as a
    # 4 at 0.33 from the lattice's crop, 0.98 from the face's)
    cut_drifted: set[int] = set()
    if cfg.drift_face_cut:
        was = {n: (seen[n], probs[n].copy()) for n in edge_cands}
        for n in _drifted_faces(cfg, found, seen, probs, list(edge_cands), list(loose_cut)):
            if (_visible(cfg, was[n][0].px, side_full, photo.width, photo.height)
                    & ~_visible(cfg, seen[n].px, side_full, photo.width, photo.height)).any():
                # (a corner in view on the lattice's outline lies beyond the edge on the
                # face's, drawn on past it: dev3 76000221, a 3 read at 0.97 lost)
                seen[n], probs[n] = was[n]
            else:
                cut_drifted.add(n)
    todo = list(edge_cands) + under
    placed_under: list[Cell | None] = []
    at_vertex: dict[Vertex, set[int]] = {}  # the digits the board's tiles show, as chosen
    for c in cells:
        _add_shown(at_vertex, c, choice.digits[c])  # type: ignore[index]
    # a face cut by the photo's edge showing one digit alone, not surely, and not the
    # board's there: table print outlined by the board's tiles (dev faults 71000266)
    if cfg.partial_face_lone:
        lone = {id(tr) for tr, n, shown in cut_faces
                if _lone_digit_off(cfg, tr.cell, probs[n], shown, at_vertex)}  # type: ignore[arg-type]
        partial = [tr for tr in partial if id(tr) not in lone]
    for tr in partial:  # the board's tiles cut by the photo's edge: the digits in view
        _add_shown(at_vertex, tr.cell, tr.corners)
    passed = (_read_past(cfg, photo, seen, probs, side_full, none_means)
              if cfg.hidden_at_vertex and under else set())
    board_cells = set(cells)

    def place(todo: list[int]) -> list[int]:
        # joins the cells of todo that reach the board (repeatedly: one joined may let
        # another join); returns those left
        while todo:
            rest = []
            for n in todo:
                t = seen[n]
                at_corner = beyond = past_cell = False
                if n in under2 and not board_cells.intersection(edge_neighbours(t.cell)):  # type: ignore[arg-type]
                    # two corners hidden: only beside a tile of the board in full, or meeting
                    # it at a vertex past a tile under the same hand (cfg.two_hidden_past)
                    past = (cfg.two_hidden_past and t.cell not in joined
                            and any(nb in passed and nb not in joined
                                    for nb in edge_neighbours(t.cell))  # type: ignore[arg-type]
                            and _meets_at_corner(cfg, photo, t, probs[n], at_vertex, side_full))
                    if not past:
                        rest.append(n)
                        continue
                if t.cell in joined or not any(nb in joined  # type: ignore[arg-type]
                                               for nb in edge_neighbours(t.cell)):
                    meets = t.cell not in joined and _meets_at_corner(cfg, photo, t, probs[n],
                                                                      at_vertex, side_full)
                    at_corner = cfg.cut_corner_join and n not in under and meets
                    # a tile with a corner under a hand meeting the board at a vertex only:
                    # the tile between, partly in view, lies under the hand too
                    beyond = (n in under and meets and any(
                        nb in passed and nb not in joined
                        for nb in edge_neighbours(t.cell)))  # type: ignore[arg-type]
                    # ... or one cell from the board: the cell between, read past the hand,
                    # lies beside the board (dev 71000403)
                    past_cell = (cfg.hidden_past_cell and n in under and not beyond
                                 and t.cell not in joined
                                 and _past_hidden_cell(t.cell, probs[n], passed, joined,  # type: ignore[arg-type]
                                                       at_vertex))
                    if not (at_corner or beyond or past_cell):
                        rest.append(n)
                        continue
                # (a face of its own, where one outlined it: cfg.cell_two_hidden)
                flags = ["partial"] + ([] if t.detected else [OUTLINE_INFERRED])
                if at_corner:
                    flags.append(f"{MEETS_AT_CORNER} (the tiles between lie beyond "
                                 "the photo's edge)")
                if beyond:
                    flags.append(MET_PAST_HIDDEN)
                elif past_cell:
                    flags.append(PAST_HIDDEN_CELL)
                if n in cut_drifted:
                    flags.append(READ_OWN_OUTLINE)
                if n in under:
                    shown = (_two_hidden_shown(cfg, probs[n]) if n in under2
                             else np.argmax(probs[n], axis=1) < 6)
                    # (one of under2 cut by the photo's edge has one corner hidden, the
                    # other beyond the edge: cfg.two_hidden_cut)
                    flags.insert(1, HIDDEN_TWO if n in under2 and vis_all[n].all()
                                 else HIDDEN_CORNER)
                    placed_under.append(t.cell)
                else:
                    vis = _visible(cfg, t.px, side_full, photo.width, photo.height)
                    shown = _shown(cfg, t.px, probs[n], vis, side_full, photo.width, photo.height)
                    if not _clear_in_view(cfg, probs[n], shown):
                        continue  # no digit in view read clearly: no evidence of a tile
                    if _lone_digit_off(cfg, t.cell, probs[n], shown, at_vertex):  # type: ignore[arg-type]
                        continue  # one digit, not the board's there: table texture
                digits = _digits_shown(probs[n], shown)
                if n in under2:
                    placed = {tr.tile for tr in partial} | {
                        Tile.from_digits(choice.digits[c]) for c in cells}  # type: ignore[index]
                    digits = _told_by_board(t.cell, digits, at_vertex, set_name,  # type: ignore[arg-type]
                                            placed)
                    if None not in digits:
                        flags.remove("partial")  # every digit known: a tile of the board
                partial.append(_tile_reading(cfg, t.cell, t.px, probs[n], digits,
                                             flags + _seen_flags(t)))
                _add_shown(at_vertex, t.cell, digits)
                joined.add(t.cell)
            if len(rest) == len(todo):
                return rest
            todo = rest
        return []

    left = place(todo)
    # faces apart from the board that meet only those tiles at a vertex (a tile beyond a
    # hand, touching the tiles under it): judged again with their digits
    # (and faces cut by the photo's edge lying on the lattice apart from it: the board
    # runs on beyond the edge)
    cut_off = ({n: v for n, v in loose_cut.items() if seen[n].cell is None}
               if cfg.apart_cut_min > 0 else {})
    n_partial = len(partial)  # (the tiles read partial before those joined late)
    late = [n for n in loose_n + loose_hidden if seen[n].cell is None]
    late = (_adopt_apart(cfg, found, seen, probs, board_idx, late + list(cut_off),
                         loose_hidden, at_vertex, joined | {tr.cell for tr in partial},
                         cut_off)
            if cfg.adopt_apart and cfg.adopt_apart_late and board_idx and (late or cut_off)
            else [])
    if late:
        off, off_face = _without_faces(off, off_face, {seen[n].face for n in late})
    for n in [n for n in late if n in cut_off]:  # partial, read only where in view
        late.remove(n)
        partial.append(_cut_joined(
            cfg, photo, seen[n], probs[n], side_full, f"{JOINED_BY_LATTICE}: a face cut by "
            "the photo's edge lying on the board's lattice apart from it"))
    late_digits: dict[int, list[int | None]] = {}  # late faces' digits: their own, agreeing
    for n in late:
        own = _digits_shown(probs[n], np.argmax(probs[n], axis=1) < 6)
        k = next((k for k, d in enumerate(own) if d is None), -1)
        told = at_vertex.get(cell_corners(seen[n].cell)[k], set()) if k >= 0 else set()
        if k >= 0 and len(told) == 1:
            own[k] = next(iter(told))  # the hidden corner's digit, as the board shows it
        late_digits[n] = own
    for n in [n for n in late if None in late_digits[n]]:  # the hidden digit untold
        late.remove(n)
        partial.append(_tile_reading(
            cfg, seen[n].cell, seen[n].px, probs[n], late_digits[n],
            ["partial", HIDDEN_CORNER, f"{JOINED_BY_LATTICE}: lies on the board's lattice "
             "apart from it", *_seen_flags(seen[n])]))
    if left and cfg.under_after_late and len(partial) + len(late) > n_partial:
        # the tiles joined late may reach a cell left unjoined (under a hand, or cut by the
        # photo's edge; dev2 71000915: a 5-5-5 under a cup beside a face cut by the edge):
        # tried again where a digit it shows is theirs or the board's there, none differing
        for tr in partial[n_partial:]:
            _add_shown(at_vertex, tr.cell, tr.corners)
            joined.add(tr.cell)  # type: ignore[arg-type]
        for n in late:
            _add_shown(at_vertex, seen[n].cell, late_digits[n])
            joined.add(seen[n].cell)  # type: ignore[arg-type]
        place([n for n in left if _agrees(seen[n].cell, probs[n], at_vertex, least=1)])  # type: ignore[arg-type]
    # (judged once every cell is placed, on either try)
    for n, tr in blank_two.items():
        if seen[n].cell not in joined:  # joined nothing: a shape showing a speck
            off.append(tr)
            off_face.append(seen[n].face)
    # an askew face on a cell under a hand was its tile, outlined short by the hand
    off, off_face = _without_faces(off, off_face, _shadowed(found, placed_under))
    if cfg.cut_beside_board:
        # a face cut by the photo's edge on a board cell read as partial is that tile; on a
        # cell next to the board, a board tile read too little to join (most of it beyond
        # the edge): neither is a tile apart from it
        off, off_face = _without_faces(off, off_face, _cut_beside(
            found, set(cells) | {seen[n].cell for n in late}
            | {tr.cell for tr in partial if tr.cell is not None}))
    board: list[TileReading] = []
    seen_tiles: dict[Tile, Cell] = {}
    shown_by = _shown_by(seen, probs, board_idx, partial)
    # the cells showing a digit but no whole tile, beside which a tile joined by the
    # lattice is joined under a hand (whatever the colour of the hand: vision.apart)
    past = (_read_past(cfg, photo, seen, probs, side_full, none_means)
            if cfg.apart_lone_digits and (apart or late) else set())
    for n, c in zip(board_idx + late, cells + [seen[n].cell for n in late], strict=True):
        assert c is not None
        digits = late_digits[n] if n in late else choice.digits[c]
        alone = [k for k, v in enumerate(cell_corners(c)) if not shown_by.get(v, set()) - {n}]
        tr = _tile_reading(cfg, c, seen[n].px, probs[n], digits, _seen_flags(seen[n]),
                           _steadiest(seen[n], probs[n]), alone)
        t = tr.tile
        if t is not None and not t.in_set(set_name):
            tr.flags.append(f"tile {t} is not in the {set_name} set")
        if t is not None and t in seen_tiles:
            tr.flags.append(f"tile {t} also at {cell_text(seen_tiles[t])}")
        if t is not None:
            seen_tiles.setdefault(t, c)
        if not seen[n].detected:
            tr.flags.append(OUTLINE_INFERRED)
        if c in met and c not in corner_only:
            # (a tile met at a corner with no hand or object between is a fault the
            # engine reports, not a tile joined out of sight)
            tr.flags.append(MET_PAST_HIDDEN)
        if n in adopted:
            tr.flags.append("joined off the lattice: a loose face lying on the cell next to "
                            "the board (a hand-placed part of it drifted)")
        elif n in apart or n in late:
            tr.flags.append(f"{JOINED_BY_LATTICE}: lies on the board's lattice apart from "
                            "it (joined under a hand or an object, or at a corner only)")
            if past.intersection(edge_neighbours(c)):
                tr.flags.append(BESIDE_SHOWN_DIGIT)
        elif n in drifted:
            tr.flags.append(READ_OWN_OUTLINE)
        board.append(tr)
    more: frozenset[Cell] = frozenset()
    more_met: frozenset[Cell] = frozenset()
    if cfg.bridge_under_hand and not bridge and not bridge_met:
        # the cells joined after the choice (under a hand, cut by the photo's edge)
        late_cells = {tr.cell for tr in partial if tr.cell is not None} - cut[0]
        on = {tr.cell for tr in board} | late_cells
        joins = {seen[n].cell for n in _connected(seen, pre, cut[0] | late_cells, cut[1])}
        if joins - on - cut[0]:
            more = frozenset(late_cells)
        if cfg.met_past_late and late_cells:
            more_met = frozenset(_met_past_late(cfg, photo, seen, probs, on | cut[0],
                                                late_cells, at_vertex, side_full))
    return board + partial, off, more, more_met


def _met_past_late(cfg: ReaderConfig, photo: Photo, seen: list[Seen], probs: np.ndarray,
                   on: set[Cell], late: set[Cell], at_vertex: dict[Vertex, set[int]],
                   side_full: float) -> set[Cell]:
    """Cells of candidates in full view read clearly (mean "none" at most
    ``cfg.candidate_none_max``), on none of ``on`` (the board's cells, the tiles joined
    after its digits were chosen among them), that share a vertex with one of ``late``
    (those tiles: under a hand, cut by the photo's edge), lie beside a cell read past a
    hand (:func:`_read_past`), and meet the board at a vertex whose digit they read as
    the board's, agreeing at every vertex they share (:func:`_meets_at_corner` against
    ``at_vertex``, the digits its tiles show, at least ``cfg.full_at_vertex_min``): the
    :func:`_met_past_hidden` test made again with the late tiles' digits (:func:`_met_past`)."""
    corners = {v for c in late for v in cell_corners(c)}
    return _met_past(cfg, photo, seen, probs, on, side_full, lambda: at_vertex,
                     lambda cell: bool(corners.intersection(cell_corners(cell))))


def _choose(cfg: ReaderConfig, seen: list[Seen], probs: np.ndarray, board_idx: list[int],
            cut: tuple[set[Cell], set[Cell]], set_name: str, sharp: bool
            ) -> tuple[list[int], CornerChoice]:
    """The board's digits (:func:`choose_digits`). On a ``sharp`` board (its digits read
    clearly on the whole), the cells whose digits would come from their neighbours rather
    than their own pixels (:func:`_unsupported`: an empty cell among the board's tiles,
    outlined by them) are dropped first, and the candidates that then no longer join the
    board. (On a blurred board, the neighbours rightly tell what the pixels barely show.)
    On any board, so are the cells showing no digit at any corner
    (:func:`_no_digit_shown`), those showing none at two corners whose digits from
    their neighbours make no tile of the set (:func:`_no_set_tile`), and those whose
    pixels barely back digits that make no tile of the set or a second copy of one
    (:func:`_unsupported_misfits`), and those making no tile of the set with two digits
    guessed (:func:`_guessed_misfits`). Returns the board's seen indices and the
    choice."""
    rounds = 4 if sharp or cfg.drop_no_set_tile else 1
    as_read: set[int] = set()  # seen indices of tiles read as their pixels show them
    for r in range(rounds):
        cells = [seen[n].cell for n in board_idx]
        pinned = {i for i, n in enumerate(board_idx) if n in as_read}
        bp = np.array([_steadiest(seen[n], probs[n]) for n in board_idx]).reshape(-1, 3, 7)
        dp = bp[:, :, :6]
        if cfg.none_is_no_evidence and board_idx:
            dp = dp + bp[:, :, 6:7] / 6
        dp = dp / np.maximum(dp.sum(axis=2, keepdims=True), 1e-12)
        choice = choose_digits(cfg, cells, dp, set_name, pinned)  # type: ignore[arg-type]
        if r == rounds - 1:
            break  # the last round only chooses: the choice returned is for these cells
        weak = _no_set_tile(cfg, probs, board_idx, cells, choice.digits, set_name)  # type: ignore[arg-type]
        weak |= _no_digit_shown(cfg, probs, board_idx)
        weak |= _guessed_misfits(cfg, probs, board_idx, cells, choice.digits, set_name)  # type: ignore[arg-type]
        # (a misfit on a sharp board needs more backing than any tile there: a table's
        # print between tiles reads digits weakly; on a blurred one the neighbours tell
        # what the pixels barely show, and only misfits under support_min go)
        weak |= _unsupported_misfits(cfg, probs, board_idx, cells, choice.digits,  # type: ignore[arg-type]
                                     set_name, sharp)
        if sharp:
            weak |= _unsupported(cfg, probs, board_idx, cells, choice.digits)  # type: ignore[arg-type]
        # a tile its pixels read clearly as a tile of the set, which the board's digits
        # overrule (two corners or more: its pixels no longer back them), was placed
        # against the rule: it stays as it reads, the mismatch reported, not dropped
        # (faults 70000026: 3, 5, 1 at 0.99, 0.89, 0.78 beside two 2s read clearly)
        kept = _as_read(cfg, seen, probs, board_idx, cells, choice.digits,  # type: ignore[arg-type]
                        weak - pinned, set_name)
        as_read |= {board_idx[i] for i in kept}
        weak -= kept
        if not weak:
            if kept:
                continue  # chosen again, those tiles as read
            break
        board_idx = _connected(seen, [n for i, n in enumerate(board_idx) if i not in weak],
                               *cut)
    return board_idx, choice


def _as_read(cfg: ReaderConfig, seen: list[Seen], probs: np.ndarray, board_idx: list[int],
             cells: list[Cell], digits: dict[Cell, list[int]], weak: set[int],
             set_name: str) -> set[int]:
    """Positions of ``weak`` (in ``board_idx``: tiles about to be dropped) whose own
    pixels read a tile clearly (every corner's first choice a digit, at
    ``cfg.as_read_min`` or more: :func:`_steadiest` of ``probs``) that the chosen
    ``digits`` overrule at two corners or more, a tile of the set that no other tile of
    the board reads (``cfg.as_read_min`` 0: none)."""
    if cfg.as_read_min <= 0 or not weak:
        return set()
    others = {Tile.from_digits(digits[c]) for i, c in enumerate(cells) if i not in weak}
    out: set[int] = set()
    for i in sorted(weak):
        p = _steadiest(seen[board_idx[i]], probs[board_idx[i]])
        own = [int(d) for d in np.argmax(p, axis=1)]
        if (6 in own or float(p.max(axis=1).min()) < cfg.as_read_min
                or sum(a != b for a, b in zip(own, digits[cells[i]], strict=True)) < 2):
            continue
        tile = Tile.from_digits(own)
        if tile.in_set(set_name) and tile not in others:
            others.add(tile)
            out.add(i)
    return out


def _steadiest(t: Seen, p: np.ndarray) -> np.ndarray:
    """The probabilities (3, 7) to choose a tile's digits by: its steadier reading
    (``Seen.steady``) where one was made from its present outline, else its own ``p``."""
    if t.steady is not None and np.array_equal(t.steady[0], t.px):
        return t.steady[1]
    return p


def _unsupported(cfg: ReaderConfig, probs: np.ndarray, board_idx: list[int],
                 cells: list[Cell], digits: dict[Cell, list[int]],
                 least: float | None = None) -> set[int]:
    """Positions in ``board_idx`` of tiles whose own pixels barely back their final
    ``digits``: the probabilities (``probs``, (N, 3, 7)) of those digits sum to under
    ``least`` (default ``cfg.support_min``; 0: none)."""
    least = cfg.support_min if least is None else least
    if least <= 0:
        return set()
    return {i for i, (n, c) in enumerate(zip(board_idx, cells, strict=True))
            if sum(float(probs[n, k, d]) for k, d in enumerate(digits[c])) < least}


def _unsupported_misfits(cfg: ReaderConfig, probs: np.ndarray, board_idx: list[int],
                         cells: list[Cell], digits: dict[Cell, list[int]], set_name: str,
                         sharp: bool = False) -> set[int]:
    """Positions in ``board_idx`` of tiles whose own pixels barely back their final
    ``digits`` (:func:`_unsupported`: under ``cfg.support_min``, on a ``sharp`` board
    under ``cfg.misfit_support_min``) and whose digits make no tile of the set or one
    another cell has too (``cfg.drop_unsupported_misfit`` False: none)."""
    if not cfg.drop_unsupported_misfit or not cells:
        return set()
    bad = bad_tiles(np.array([digits[c] for c in cells]), set_name)
    least = max(cfg.support_min, cfg.misfit_support_min) if sharp else cfg.support_min
    return bad & _unsupported(cfg, probs, board_idx, cells, digits, least)


def _guessed_misfits(cfg: ReaderConfig, probs: np.ndarray, board_idx: list[int],
                     cells: list[Cell], digits: dict[Cell, list[int]], set_name: str
                     ) -> set[int]:
    """Positions in ``board_idx`` of tiles whose final ``digits`` make no tile of the set
    and two of which their own pixels give under ``cfg.misfit_guess_max`` each."""
    if cfg.misfit_guess_max <= 0 or not cells:
        return set()
    bad = bad_tiles(np.array([digits[c] for c in cells]), set_name)
    return {i for i in bad
            if sum(float(probs[board_idx[i], k, d]) < cfg.misfit_guess_max
                   for k, d in enumerate(digits[cells[i]])) >= 2}


def _no_digit_shown(cfg: ReaderConfig, probs: np.ndarray, board_idx: list[int]) -> set[int]:
    """Positions in ``board_idx`` of tiles whose own pixels say "no digit" at every corner
    (``probs`` (N, 3, 7)): every digit would be a guess from the neighbours (dev
    71000576: the table beside a board outlined as a face, read 0-2-4 at 0.00, 0.19 and
    0.12). ``cfg.drop_no_digit_tile`` False: none."""
    if not cfg.drop_no_digit_tile:
        return set()
    return {i for i, n in enumerate(board_idx) if bool((probs[n].argmax(axis=1) == 6).all())}


def _no_set_tile(cfg: ReaderConfig, probs: np.ndarray, board_idx: list[int],
                 cells: list[Cell], digits: dict[Cell, list[int]], set_name: str) -> set[int]:
    """Positions in ``board_idx`` of tiles whose own pixels say "no digit" at two corners
    or more (``probs`` (N, 3, 7)) and whose ``digits``, taken from their neighbours, make
    no tile of the set: the table between tiles, outlined by them (dev 71000190; a mirror
    tile is a misreading in a standard set). ``cfg.drop_no_set_tile`` False: none."""
    if not cfg.drop_no_set_tile:
        return set()
    return {i for i, (n, c) in enumerate(zip(board_idx, cells, strict=True))
            if int(np.sum(probs[n].argmax(axis=1) == 6)) >= 2
            and not Tile.from_digits(digits[c]).in_set(set_name)}


def _quality(p: np.ndarray) -> float:
    """How clearly a tile's (3, 7) probabilities show a digit at every corner (the sum of
    the log top digit probabilities)."""
    return float(np.log(p[:, :6].max(axis=1) + 1e-6).sum())


def _turn_size(px: np.ndarray, outline: np.ndarray) -> tuple[int, float, float]:
    """How a face's outline ``px`` (3, 2) lies on a cell's ``outline`` (3, 2), wherever
    its centre: (corners it is turned round, degrees turned beyond that, size ratio)."""
    arms = outline - outline.mean(axis=0)
    own = px - px.mean(axis=0)
    size = float(np.linalg.norm(own, axis=1).mean() / np.linalg.norm(arms, axis=1).mean())
    turns = [float(np.abs(np.angle(
        (np.roll(own, -k, axis=0) @ [1, 1j]) / (arms @ [1, 1j]), deg=True)).max())
        for k in range(3)]
    k = int(np.argmin(turns))
    return k, turns[k], size


def _lies_on(cfg: ReaderConfig, px: np.ndarray, outline: np.ndarray) -> int:
    """How many corners a face's outline ``px`` (3, 2) is turned round from a cell's
    ``outline`` (3, 2) it lies on: turned at most ``cfg.adopt_loose_turn_deg`` from it and
    of its size within ``cfg.adopt_loose_size``, wherever its centre (-1: askew, or not a
    tile's size)."""
    k, turn, size = _turn_size(px, outline)
    return k if _squarely(cfg, turn, size) else -1


def _squarely(cfg: ReaderConfig, turn: float, size: float,
              turn_max: float | None = None) -> bool:
    """A face turned ``turn`` degrees from a cell, of ``size`` times its size, lies on it
    (:func:`_lies_on`; turned at most ``turn_max`` degrees, default
    ``cfg.adopt_loose_turn_deg``)."""
    most = cfg.adopt_loose_turn_deg if turn_max is None else turn_max
    return turn <= most and 1 / cfg.adopt_loose_size < size < cfg.adopt_loose_size


def _drifted_faces(cfg: ReaderConfig, found: Found, seen: list[Seen], probs: np.ndarray,
                   board_idx: list[int], loose_n: list[int]) -> list[int]:
    """Board cells (``board_idx``; or candidates cut by the photo's edge) read only where
    the lattice puts them, under a loose face that is their tile outlined off the lattice:
    a hand-placed arm drifts, the lattice's crops then miss its digits by a fifth of a
    side, and the face's own outline is the better read. The face (one per cell, of
    ``loose_n``: faces reading three digits clearly, or faces cut by the photo's edge;
    lying on the cell as :func:`_lies_on` has it) replaces the cell's corners and
    probabilities in ``seen`` and ``probs`` in place. Returns the indices of the cells so
    read."""
    if not cfg.drift_face_over_lattice or not found.fit.shadowed:
        return []
    by_face = {seen[n].face: n for n in loose_n}
    out: list[int] = []
    for n in board_idx:
        t = seen[n]
        faces = found.fit.shadowed.get(t.cell, []) if t.candidate else []  # type: ignore[arg-type]
        if len(faces) != 1 or faces[0] not in by_face:
            continue
        m = by_face[faces[0]]
        k = _lies_on(cfg, seen[m].px, t.px)
        if k < 0 or _quality(probs[m]) <= _quality(probs[n]):
            continue  # askew, or the lattice's outline reads as well
        # (the face's corner j is the cell's j - k: what its crops were read from goes too)
        face = seen[m]
        seen[n] = replace(t, px=np.roll(face.px, -k, axis=0),
                          reread=tuple((j - k) % 3 for j in face.reread),
                          reread_unsure=tuple(((j - k) % 3, d, q)
                                              for j, d, q in face.reread_unsure))
        probs[n] = np.roll(probs[m], -k, axis=0)
        out.append(n)
    return out


def _shadowed(found: Found, cells: list[Cell | None]) -> set[int]:
    """The loose faces lying askew on ``cells`` (``LatticeFit.shadowed``)."""
    return {i for c in cells for i in found.fit.shadowed.get(c, [])}  # type: ignore[arg-type]


def _cut_beside(found: Found, on: set[Cell | None]) -> set[int]:
    """The faces cut by the photo's edge (``Triangle.cut``) lying on a cell of the board
    ``on`` (one read as partial there) or on one sharing a side with its cells
    (``LatticeFit.shadowed``); and the strips along a tile's far side
    (``Triangle.strip``) whose part in view lies on such a cell, a candidate or not (the
    ring of candidates may stop short of a board tile mostly beyond the edge: dev
    71000478)."""
    near = on | {nb for c in on if c is not None for nb in edge_neighbours(c)}
    out = {i for i in _shadowed(found, list(near)) if found.fit.triangles[i].cut}
    fit = found.fit
    strips = [i for i in fit.loose if fit.triangles[i].strip is not None]
    if strips and fit.homography is not None:
        try:
            hinv = np.linalg.inv(fit.homography)
        except np.linalg.LinAlgError:
            return out
        out |= {i for i in strips if cell_at(hinv, fit.triangles[i].strip) in near}
    return out


def _on_board(found: Found, off: list[TileReading]) -> set[int]:
    """Positions in ``off`` of the readings centred on a cell of ``found``'s board (one
    outlined by a face, or proposed inside its silhouette): pieces of that board (a blank
    face of its own cells, or a loose face over them), not tiles apart from it."""
    fit = found.fit
    if fit.homography is None or not off:
        return set()
    try:
        hinv = np.linalg.inv(fit.homography)
    except np.linalg.LinAlgError:
        return set()
    board = set(fit.cells) | set(fit.proposed)
    return {j for j, t in enumerate(off)
            if cell_at(hinv, t.corner_px.mean(axis=0) * found.scale) in board}


def _off_blurred(cfg: ReaderConfig, blurred: Sequence[Found], off: list[TileReading]
                 ) -> list[TileReading]:
    """``off`` without the readings lying on a board of ``blurred`` (boards found too
    blurred to read, :func:`_on_board`): pieces of it, unless they show every digit at
    ``cfg.adopt_loose_min`` or more (a tile of its own, read where the board's are not)."""
    on = set().union(*(_on_board(b, off) for b in blurred))
    return [t for j, t in enumerate(off)
            if j not in on or (t.complete and min(t.confidence) >= cfg.adopt_loose_min)]


def _without_faces(off: list[TileReading], off_face: list[int], faces: set[int]
                   ) -> tuple[list[TileReading], list[int]]:
    """The off-board readings, and the face behind each (-1: none), but those of
    ``faces``: the two lists kept in step."""
    keep = [j for j, i in enumerate(off_face) if i < 0 or i not in faces]
    return [off[j] for j in keep], [off_face[j] for j in keep]


def _adopt_loose(cfg: ReaderConfig, found: Found, seen: list[Seen], probs: np.ndarray,
                 board_idx: list[int], loose_n: list[int], hidden: Sequence[int] = (),
                 cut: dict[int, np.ndarray] | None = None, unsure: Sequence[int] = ()
                 ) -> list[int]:
    """Join to the board the loose faces of ``loose_n`` (three digits in full view, read
    clearly: see :func:`reconstruct`) that lie squarely on a free cell next to
    it: centroid within ``cfg.adopt_loose_frac`` sides of the cell's, turned at most
    ``cfg.adopt_loose_turn_deg`` from it, of its size within ``cfg.adopt_loose_size``
    (an outline found too big or small still shows where and which way the tile lies).
    A hand-placed arm of the board drifts off the lattice fitted to the rest; each face
    joined fixes its vertices (``found.fit.vertex_px``), so the next cell out is predicted
    from it and the arm is followed round by round. A loose tile lying apart, askew or off
    a cell stays off.

    Faces of ``hidden`` (two digits read clearly, none at the third corner: a hand over
    it) join so too where their two digits agree with the board's at their vertices (as
    :func:`_hidden_corner` has it; :func:`_untold` then judges the third digit).

    Faces of ``cut`` (face index -> the corners (3,) bool whose digits are in view: a face
    cut by the photo's edge) join so too where the digits in view agree with the board's
    at two vertices or more (:func:`_agrees`); so do faces of ``unsure`` (three digits in
    full view, one or more read less clearly: a tile's side face or a shadow over a
    corner), and only so.

    With ``cfg.adopt_gap_clear``, a face read clearly or less surely joins only lying
    against the board: a seam of table over ``cfg.adopt_unsure_gap`` of a side between
    it and a board tile beside its cell (:func:`vision.fit.gap_to_board`; with
    ``cfg.adopt_gap_drawn`` board tiles read where the lattice puts them count too) is a
    tile set down apart.

    Rewrites the joined faces' ``seen`` entries (their cell, corners in the cell's order)
    and ``probs`` rows in place; returns their indices.
    """
    fit, s = found.fit, found.scale
    cut = cut or {}
    if cfg.adopt_loose_frac <= 0 or not (loose_n or cut or unsure) or fit.homography is None:
        return []
    side = fit.side / s
    occupied = {seen[n].cell for n in board_idx}
    todo = list(loose_n) + list(hidden) + list(cut) + list(unsure)
    shows = _board_shows(seen, probs, board_idx)
    reach = max(cfg.adopt_loose_frac, cfg.adopt_agree_frac)
    out: list[int] = []
    changed = True
    while changed and todo:
        changed = False
        frontier = sorted({nb for c in occupied for nb in edge_neighbours(c)}  # type: ignore[arg-type]
                          - occupied)
        if not frontier:
            break
        outline = np.array([fit.corner_px(c) / s for c in frontier])  # (F, 3, 2)
        centre = outline.mean(axis=1)
        for n in list(todo):
            t = seen[n]
            d = np.linalg.norm(centre - t.px.mean(axis=0), axis=1)
            j = int(np.argmin(d))
            if d[j] > reach * side or frontier[j] in occupied:
                continue
            k, turn, size = _turn_size(t.px, outline[j])
            # turned further from the cell than a tile lies squarely: the lattice's shape
            # of a cell may be off there (a steep view), so only with the board's digits
            askew = not _squarely(cfg, turn, size)
            if askew and not _squarely(cfg, turn, size, cfg.adopt_agree_turn_deg):
                continue  # lying askew, or not a tile's size: a loose tile near the board
            cell = frontier[j]
            if n in unsure or (cfg.adopt_gap_clear and n in loose_n):
                # only lying against the board (a loose tile set down beside it, a seam of
                # table between, read 0.69 at one corner on the real photo and agreed with
                # the board's digits by chance: 0.29 of a side off; turned or shrunk, that
                # photo reads it clearly)
                if _seam_between(cfg, fit, cell, np.roll(t.px, -k, axis=0) * s, occupied):
                    continue
            p = np.roll(probs[n], -k, axis=0)
            shown = np.roll(cut[n], -k) if n in cut else np.argmax(p, axis=1) < 6
            if n in hidden and not _hidden_corner(cell, p, shows)[1]:
                continue  # its digits in view disagree with the board's
            if ((n in cut or n in unsure or askew or d[j] > cfg.adopt_loose_frac * side)
                    and not _agrees(cell, p, shows, shown)):
                # cut, askew or far off its cell: only with the board's digits; one
                # digit in view will do for a face lying squarely on its cell
                one = (n in cut and int(shown.sum()) == 1 and not askew
                       and d[j] <= cfg.adopt_loose_frac * side)
                if not (one and _agrees(cell, p, shows, shown, least=1)):
                    continue
            _place(found, seen, probs, n, cell, k)
            _add_shown(shows, cell, _digits_shown(probs[n], shown))
            occupied.add(cell)
            out.append(n)
            todo.remove(n)
            changed = True
    return out


def _over_tiles(cfg: ReaderConfig, seen: list[Seen], none_means: np.ndarray) -> set[int]:
    """Indices of the candidates of ``seen`` with a digit spot
    (:func:`vision.spots.spots_of`) inside the outline of a cell read as a tile: a face
    or a proposed cell whose mean "none" (``none_means`` (N,)) is at most
    ``cfg.none_threshold`` (edges included). Their crops read that tile's digits, not
    their own (``cfg.candidate_on_tiles``)."""
    tiles = np.array([t.px for t, nm in zip(seen, none_means, strict=True)
                      if t.cell is not None and not t.candidate
                      and nm <= cfg.none_threshold]).reshape(-1, 3, 2)
    cands = [n for n, t in enumerate(seen) if t.candidate]
    if not len(tiles) or not cands:
        return set()
    hit = _spot_inside(np.array([seen[n].px for n in cands]), tiles)
    return {n for n, h in zip(cands, hit, strict=True) if h}


def _spot_inside(outlines: np.ndarray, tris: np.ndarray) -> np.ndarray:
    """Which of tile ``outlines`` (M, 3, 2) have a digit spot
    (:func:`vision.spots.spots_of`) inside one of the triangles ``tris`` (K, 3, 2, same
    pixels; edges included): (M,) bool."""
    hit = in_tris(spots_of(outlines).reshape(-1, 2), tris)
    return hit.any(axis=1).reshape(-1, 3).any(axis=1)


def _seam_between(cfg: ReaderConfig, fit: LatticeFit, cell: Cell, pts: np.ndarray,
                  occupied: set[Cell]) -> bool:
    """Is a face ``pts`` ((3, 2) detection pixels, in ``cell``'s corner order) set down
    apart from the board: a seam of table over ``cfg.adopt_unsure_gap`` of a side between
    it and a board tile beside ``cell`` (:func:`vision.fit.gap_to_board`; with
    ``cfg.adopt_gap_drawn`` the board's cells ``occupied`` count at the lattice's
    outline too)? False where no such tile's edge is known."""
    gap = gap_to_board(fit, cell, pts, occupied if cfg.adopt_gap_drawn else None)
    return bool(np.isfinite(gap) and gap > cfg.adopt_unsure_gap * fit.side)


def _agrees(cell: Cell, p: np.ndarray, shows: dict[Vertex, set[int]],
            shown: np.ndarray | None = None, least: int = 2) -> bool:
    """A face on ``cell`` reading ``p`` (3, 7, in the cell's corner order) shows a digit
    (at its corners ``shown`` (3,) bool, default: where it reads one) at ``least`` or more
    vertices where the board shows digits (``shows``, see :func:`_board_shows`), each one
    of the board's there."""
    own = np.argmax(p, axis=1)
    shown = own < 6 if shown is None else shown
    met = [int(own[j]) in shows[v] for j, v in enumerate(cell_corners(cell))
           if v in shows and shown[j] and own[j] < 6]
    return len(met) >= least and all(met)


def _place(found: Found, seen: list[Seen], probs: np.ndarray, n: int, cell: Cell, k: int
           ) -> None:
    """Put loose face ``seen[n]`` on ``cell``, its corners (and ``probs[n]`` rows) turned
    ``k`` round into the cell's order; the cell's vertices it is first to see are fixed
    from it (``found.fit.vertex_px``)."""
    seen[n] = replace(seen[n], cell=cell, px=np.roll(seen[n].px, -k, axis=0))
    probs[n] = np.roll(probs[n], -k, axis=0)
    for v, q in zip(cell_corners(cell), seen[n].px, strict=True):
        found.fit.vertex_px.setdefault(v, q * found.scale)


def _adopt_apart(cfg: ReaderConfig, found: Found, seen: list[Seen], probs: np.ndarray,
                 board_idx: list[int], todo: list[int], hidden: Sequence[int] = (),
                 shows: dict[Vertex, set[int]] | None = None,
                 occupied: set[Cell] | None = None,
                 cut: dict[int, np.ndarray] | None = None) -> list[int]:
    """Join to the board the loose faces of ``todo`` (read clearly, as for
    :func:`_adopt_loose`) that lie squarely on free cells of its lattice apart from it, in
    groups joined by shared vertices whose digits agree: a group of two or more, or one
    touching the board at a vertex whose digit it shows too. Tiles under a hand or an
    object, or met at a corner only, still lie on the board's lattice; a loose tile lies
    there only by chance, and does not also match its neighbours' digits. A face of
    ``hidden`` (no digit at one corner: see :func:`_adopt_loose`) counts only its two
    digits in view; alone, it joins also where the third corner's vertex is the board's
    (the hand over its corner lies over the tiles joining it), or where it lies exactly
    on its cell (``cfg.apart_exact_*``: a loose tile lies so by chance about once in
    a thousand, a tile joined under a hand always does). The board's digits at each vertex
    and its cells are those of ``board_idx`` unless given (``shows``, ``occupied``). A
    face on a cell beside the board with a seam of table between is a tile set down
    apart, as in :func:`_adopt_loose` (``cfg.adopt_gap_clear``), unless its group holds a
    face with no such seam (``cfg.apart_seam_grouped``: the seam measured to a cell the
    lattice drew off its tile). A face of ``cut``
    (face index -> its corners (3,) bool whose digits are in view: cut by the photo's
    edge) counts only the digits in view; alone, it joins only showing at least
    ``cfg.apart_cut_min`` of them.
    Rewrites ``seen`` and ``probs`` as :func:`_adopt_loose` does; returns the indices
    joined."""
    fit, s = found.fit, found.scale
    if fit.homography is None:
        return []
    try:
        hinv = np.linalg.inv(fit.homography)
    except np.linalg.LinAlgError:  # a degenerate fit: no lattice to lie on
        return []
    side = fit.side / s
    if occupied is None:
        occupied = {seen[n].cell for n in board_idx}  # type: ignore[misc]
    if shows is None:
        shows = _board_shows(seen, probs, board_idx)
    on: dict[int, tuple[Cell, int, dict[Vertex, int]]] = {}
    untold: dict[int, Vertex] = {}  # a hidden face's vertex with no digit in view
    exact: set[int] = set()  # faces lying exactly on their cell (cfg.apart_exact_*)
    far: set[int] = set()  # faces further off their cell than adopt_loose_frac
    seamed: set[int] = set()  # a seam of table to the board (cfg.apart_seam_grouped)
    for n in todo:
        px = seen[n].px
        cell, outline, off_centre, (k, turn, size) = _nearest_square_cell(
            cfg, fit, hinv, px, s)
        if cell in occupied or off_centre > max(cfg.adopt_loose_frac, cfg.apart_far_frac) * side:
            continue
        if cfg.adopt_gap_clear and occupied.intersection(edge_neighbours(cell)):
            # beside the board, a seam of table in view between: a tile set down apart
            # (the real photo's 4-4-5, turned 15 degrees), not one joined out of sight
            if _seam_between(cfg, fit, cell, np.roll(px, -k, axis=0) * s, occupied):
                if not cfg.apart_seam_grouped:
                    continue
                seamed.add(n)
        if off_centre > cfg.adopt_loose_frac * side:
            far.add(n)
        if _squarely(cfg, turn, size):
            if (off_centre <= cfg.apart_exact_frac * side and turn <= cfg.apart_exact_turn_deg
                    and 1 / cfg.apart_exact_size <= size <= cfg.apart_exact_size):
                exact.add(n)
            p = np.roll(probs[n], -k, axis=0)
            digits = np.argmax(p[:, :6], axis=1)
            unseen = int(np.argmax(p[:, 6])) if n in hidden else -1
            inview = np.roll(cut[n], -k) if cut and n in cut else np.ones(3, bool)
            on[n] = (cell, k, {v: int(d) for j, (v, d) in enumerate(zip(
                cell_corners(cell), digits, strict=True)) if j != unseen and inview[j]})
            if unseen >= 0:
                untold[n] = cell_corners(cell)[unseen]
    taken = [c for c, _, _ in on.values()]
    on = {n: x for n, x in on.items() if taken.count(x[0]) == 1}  # one face per cell
    # the loose faces showing a digit off the board's cells, to judge whether a group
    # stands in a rack (as they lie before any group joins; their cells looked up once a
    # group is so judged)
    has_digit = (np.argmax(probs, axis=2) < 6).any(axis=1) if len(seen) else []
    loose_px = [t.px for t, digit in zip(seen, has_digit, strict=True)
                if t.cell is None and t.face >= 0 and digit]
    rack: list[tuple[np.ndarray, float, float]] | None = None

    def racked() -> list[tuple[np.ndarray, float, float]]:
        nonlocal rack
        if rack is None:
            rack = [shape_pose(px) for px in loose_px
                    if _nearest_square_cell(cfg, fit, hinv, px, s)[0] not in occupied]
        return rack
    out: list[int] = []
    left = set(on)
    while left:
        group, stack = set(), [left.pop()]
        while stack:  # faces joined through shared vertices
            a = stack.pop()
            group.add(a)
            near = {b for b in left if set(on[a][2]) & set(on[b][2])}
            left -= near
            stack += near
        if group <= seamed:
            # every face a seam of table from the board: set down apart from it; a face
            # with a seam joins only with a face of its group with none (dev3 76000355:
            # two tiles beyond a hand, the lattice 0.25 of a side off there, the seam
            # measured to the cell it drew beside one of them)
            continue
        at: dict[Vertex, set[int]] = {}
        for n in group:
            for v, d in on[n][2].items():
                at.setdefault(v, set()).add(d)
        if any(len(ds) > 1 for ds in at.values()):
            continue  # its own tiles disagree: not a board's
        touch = [v for v in at if v in shows]
        if any(not at[v] <= shows[v] for v in touch):
            continue  # disagrees with the board where it touches it
        # a hidden corner meeting the board: the hand lies over what joins them
        met = [n for n in group if n in untold and untold[n] in shows]
        if len(group) < 2 and not touch and not met and not group & exact:
            continue
        if cut and len(group) < 2 and group <= set(cut) and len(at) < cfg.apart_cut_min:
            continue  # one face cut by the edge showing too little of itself
        if group & far and len(group) < 2 and len(touch) < 2:
            # further off the lattice (a steep view extrapolated, a drifting arm): only a
            # group of its own, or meeting the board's digits at two vertices
            continue
        if (cfg.apart_rack_bend_deg > 0 and len(group) >= 2 and not touch and not met
                and _in_a_rack(cfg, [seen[n].px for n in sorted(group)],
                               [on[n][0] for n in sorted(group)], racked())):
            # (a group of two or more, meeting the board nowhere: a lone face, or one
            # meeting the board's digits, has its own tests, and a board's tiles found
            # as loose faces stand in rows too, dev2 71000759)
            continue
        for n in sorted(group):
            cell, k, _ = on[n]
            _place(found, seen, probs, n, cell, k)
            out.append(n)
    return out


def _in_a_rack(cfg: ReaderConfig, faces: Sequence[np.ndarray], cells: Sequence[Cell],
               loose: Sequence[tuple[np.ndarray, float, float]]) -> bool:
    """Do the faces of a group (``faces``, each (3, 2) pixels, lying on ``cells``) stand
    in a rack: no two sharing an edge (a board's tiles in a row alternate their turn,
    each joined to the next by an edge), and one of them standing in a straight row, two
    of its neighbours alike in size and turn (:func:`vision.loose.alike_shape`), among
    the group's other faces and the ``loose`` faces (poses, :func:`shape_pose`), lying on
    opposite sides of it within ``cfg.apart_rack_bend_deg`` (a board's tiles of one turn
    around a tile lie on three lines 60 degrees apart)."""
    if any(b in edge_neighbours(a) for a in cells for b in cells):
        return False
    poses = [shape_pose(px) for px in faces]
    for p in poses:
        near = [q[0] - p[0] for q in [*loose, *poses]
                if alike_shape(cfg, p, q, cfg.loose_dedupe_frac)]
        for i, u in enumerate(near):
            for w in near[i + 1:]:
                cos = float(u @ w) / (np.linalg.norm(u) * np.linalg.norm(w))
                if cos <= -np.cos(np.radians(cfg.apart_rack_bend_deg)):
                    return True
    return False


def _nearest_square_cell(cfg: ReaderConfig, fit: LatticeFit, hinv: np.ndarray,
                         px: np.ndarray, s: float
                         ) -> tuple[Cell, np.ndarray, float, tuple[int, float, float]]:
    """The cell a face ``px`` (3, 2, full-image pixels) lies on: the cell holding its
    centre, or where it lies squarely (:func:`_squarely`) only on one of that cell's
    edge neighbours, the nearest of those (a face off its cell by a third of a side has
    its centre in the next cell, of the other orientation). Returns the cell, its outline
    (3, 2), the distance between the centres (px) and :func:`_turn_size` on it."""
    best = None
    c0 = cell_at(hinv, px.mean(axis=0) * s)
    for cell in (c0, *edge_neighbours(c0)):
        outline = fit.corner_px(cell) / s
        off = float(np.linalg.norm(outline.mean(axis=0) - px.mean(axis=0)))
        ts = _turn_size(px, outline)
        key = (not _squarely(cfg, ts[1], ts[2]), cell != c0, off)
        if best is None or key < best[0]:
            best = (key, cell, outline, off, ts)
    assert best is not None
    return best[1], best[2], best[3], best[4]


def _corner_cells(joined: set[Cell], done: set[Cell | None]) -> set[Cell]:
    """The cells meeting the cells ``joined`` (those seen to hold tiles) at a vertex only,
    not among ``done`` (cells read already). (Those beside them are the candidates',
    judged ring by ring.)"""
    return {c for j in joined for c in vertex_neighbours(j)
            if c not in done and c not in joined
            and not joined.intersection(edge_neighbours(c))}


def _meets_at_corner(cfg: ReaderConfig, photo: Photo, t: Seen, p: np.ndarray,
                     shows: dict[Vertex, set[int]], side_full: float,
                     least: float | None = None) -> bool:
    """Whether candidate ``t`` (a cell cut by the photo's edge; ``p`` (3, 7)) meets the
    board at a vertex in view whose digit it reads clearly (at least ``least``, by default
    ``cfg.adopt_loose_min``) as the one digit the board's tiles show there (``shows``:
    vertex -> their digits there, as chosen), and agrees with the board at every vertex
    they share: a tile joined to the board by tiles beyond the edge. A cell of table
    meeting the board there reads no digit at that corner."""
    vis = _visible(cfg, t.px, side_full, photo.width, photo.height)
    own = np.argmax(p, axis=1)
    least = cfg.adopt_loose_min if least is None else least
    met = False
    for k, v in enumerate(cell_corners(t.cell)):  # type: ignore[arg-type]
        if v not in shows or not vis[k] or own[k] == 6:
            continue
        if shows[v] != {int(own[k])}:
            return False
        met = met or float(p[k].max()) >= least
    return met


def _clear_in_view(cfg: ReaderConfig, p: np.ndarray, shown: np.ndarray) -> bool:
    """Does a tile cut by the photo's edge read some digit at a corner in view (``shown``
    (3,) bool; ``p`` (3, 7)) with at least ``cfg.partial_clear_min``?"""
    return bool(shown.any() and float(p[shown, :6].max()) >= cfg.partial_clear_min)


def _lone_digit_off(cfg: ReaderConfig, cell: Cell, p: np.ndarray, shown: np.ndarray,
                    at_vertex: dict[Vertex, set[int]]) -> bool:
    """Does a cell cut by the photo's edge show one corner alone (``shown``), its digit
    (``p`` (3, 7)) read under ``cfg.partial_one_min`` and other than the one the board's
    tiles show at that vertex (``at_vertex``)? Table texture beside the board's vertex
    reads so (dev 71000456: 5 at 0.73 where the board shows 1); a tile's digit there is
    the board's."""
    if int(shown.sum()) != 1:
        return False
    k = int(np.flatnonzero(shown)[0])
    d = int(np.argmax(p[k, :6]))
    board = at_vertex.get(cell_corners(cell)[k], set())
    return float(p[k, d]) < cfg.partial_one_min and bool(board) and d not in board


def _add_shown(shows: dict[Vertex, set[int]], cell: Cell | None,
               digits: list[int | None] | list[int]) -> None:
    """Add a cell's digits (but unknown ones) to ``shows`` (vertex -> digits)."""
    for v, d in zip(cell_corners(cell), digits, strict=True):  # type: ignore[arg-type]
        if d is not None:
            shows.setdefault(v, set()).add(d)


def _past_hidden_cell(cell: Cell, p: np.ndarray, passed: set[Cell], joined: set[Cell],
                      at_vertex: dict[Vertex, set[int]]) -> bool:
    """Does ``cell`` (a tile with a corner under a hand, ``p`` (3, 7)) lie beside a cell of
    ``passed`` (read past a hand: a digit in view, no whole tile) that lies beside a cell
    of ``joined`` (the board's), no digit it reads (first choices) differing from the
    ones the board shows at the same vertex (``at_vertex``)? The tile between lies under
    the hand."""
    own = np.argmax(p, axis=1)
    if any(v in at_vertex and own[k] < 6 and at_vertex[v] != {int(own[k])}
           for k, v in enumerate(cell_corners(cell))):
        return False
    return any(nb in passed and nb not in joined
               and any(m in joined for m in edge_neighbours(nb))  # type: ignore[arg-type]
               for nb in edge_neighbours(cell))  # type: ignore[arg-type]


def _board_shows(seen: list[Seen], probs: np.ndarray, board_idx: list[int],
                 sure: float = 0.0) -> dict[Vertex, set[int]]:
    """The digits the board's tiles (``board_idx``) show at each vertex (first choices;
    only those read at least ``sure``)."""
    shows: dict[Vertex, set[int]] = {}
    for n in board_idx:
        p = probs[n]
        shown = (np.argmax(p, axis=1) < 6) & (p[:, :6].max(axis=1) >= sure)
        _add_shown(shows, seen[n].cell, _digits_shown(p, shown))
    return shows


def _shown_by(seen: list[Seen], probs: np.ndarray, board_idx: list[int],
              partial: list[TileReading]) -> dict[Vertex, set[int]]:
    """Which tiles show a digit at each vertex by their own pixels: the positions in
    ``seen`` of the tiles of ``board_idx`` whose first choice there is a digit, and -1 for
    a tile read in part (``partial``) with a digit there."""
    out: dict[Vertex, set[int]] = {}
    for n in board_idx:
        for v, own in zip(cell_corners(seen[n].cell), np.argmax(probs[n], axis=1),  # type: ignore[arg-type]
                          strict=True):
            if own < 6:
                out.setdefault(v, set()).add(n)
    for tr in partial:
        if tr.cell is None:
            continue
        for v, d in zip(cell_corners(tr.cell), tr.corners, strict=True):
            if d is not None:
                out.setdefault(v, set()).add(-1)
    return out


def _digits_shown(p: np.ndarray, shown: np.ndarray) -> list[int | None]:
    """A tile's first-choice digits (``p`` (3, 7)) at the corners ``shown`` (3,) bool,
    unknown (None) at the others."""
    return [int(np.argmax(p[k, :6])) if shown[k] else None for k in range(3)]


def _weak_corners(probs: np.ndarray, weak: set[int]) -> dict[int, int]:
    """For each cell of ``weak`` (``probs`` (N, 3, 7); :func:`_one_hidden` only at
    ``cfg.hidden_weak_min``), its corner (0-2) whose digit in view reads least surely."""
    out = {}
    for n in weak:
        p = probs[n]
        tops = np.where(np.argmax(p, axis=1) < 6, p[:, :6].max(axis=1), np.inf)
        out[n] = int(np.argmin(tops))
    return out


def _weak_told(cell: Cell, p: np.ndarray, k: int, clear: dict[Vertex, set[int]]) -> bool:
    """Does the board show, among its digits read clearly at each vertex (``clear``:
    :func:`_board_shows` at ``cfg.hidden_veto_min``), the digit corner ``k`` of ``cell``
    reads weakly (``p`` (3, 7)), at that vertex?"""
    return int(np.argmax(p[k])) in clear.get(cell_corners(cell)[k], set())


def _hidden_told(cfg: ReaderConfig, seen: list[Seen], probs: np.ndarray,
                 board_idx: list[int], hidden: list[int], weak: dict[int, int] | None = None
                 ) -> list[int]:
    """The cells of ``hidden`` (one corner showing no digit) whose hidden corner meets a
    tile of ``board_idx`` that shows a digit there (the board tells that corner's digit,
    so the tile is no guess) and whose two digits agree with every digit the board's
    tiles show at the same vertices (a cell astride other tiles' digits reads some).
    A cell of ``weak`` (index -> its corner read weakly, :func:`_weak_corners`) only
    where the board shows that corner's digit too, clearly (:func:`_weak_told`)."""
    shows = _board_shows(seen, probs, board_idx)
    clear = _board_shows(seen, probs, board_idx, cfg.hidden_veto_min) if weak else {}
    out = []
    for n in hidden:
        k, agree = _hidden_corner(seen[n].cell, probs[n], shows)  # type: ignore[arg-type]
        if agree and cell_corners(seen[n].cell)[k] in shows:  # type: ignore[arg-type]
            if weak and n in weak and not _weak_told(seen[n].cell, probs[n], weak[n],  # type: ignore[arg-type]
                                                     clear):
                continue
            out.append(n)
    return out


def _untold(seen: list[Seen], probs: np.ndarray, board_idx: list[int], hidden: list[int]
            ) -> list[int]:
    """The tiles of ``hidden`` (on ``board_idx``'s cells, no digit at one corner) whose
    hidden corner's vertex no other tile of ``board_idx`` shows a digit at."""
    out = []
    for n in hidden:
        shows = _board_shows(seen, probs, [m for m in board_idx if m != n])
        k = int(np.argmax(probs[n][:, 6]))
        if cell_corners(seen[n].cell)[k] not in shows:  # type: ignore[arg-type]
            out.append(n)
    return out


def _hidden_untold(cfg: ReaderConfig, seen: list[Seen], probs: np.ndarray,
                   board_idx: list[int], hidden: list[int],
                   weak: dict[int, int] | None = None) -> list[int]:
    """The cells of ``hidden`` (one corner showing no digit) left out of ``board_idx``
    whose two digits in view are read at least ``cfg.hidden_partial_min`` and agree with
    every digit the board's tiles show at the same vertices read at least
    ``cfg.hidden_veto_min`` (the hand over this corner often covers a board tile's corner
    too, whose crop then reads a guess). A cell of ``weak`` (index -> its corner read
    weakly) counts that corner's digit only where the board shows it there clearly
    (:func:`_weak_told`)."""
    if cfg.hidden_partial_min > 1 or not hidden:
        return []
    shows = _board_shows(seen, probs, board_idx, cfg.hidden_veto_min)
    taken = {seen[n].cell for n in board_idx}
    out = []
    for n in hidden:
        if seen[n].cell in taken:
            continue
        k, agree = _hidden_corner(seen[n].cell, probs[n], shows)  # type: ignore[arg-type]
        w = weak.get(n, -1) if weak else -1
        clear = min(float(probs[n][j].max()) for j in range(3) if j not in (k, w))
        if w >= 0 and not _weak_told(seen[n].cell, probs[n], w, shows):  # type: ignore[arg-type]
            continue
        if agree and clear >= cfg.hidden_partial_min:
            out.append(n)
    return out


def _hidden_corner(cell: Cell, p: np.ndarray, shows: dict[Vertex, set[int]]
                   ) -> tuple[int, bool]:
    """The corner (0-2) of ``cell`` whose crop shows no digit most clearly (``p`` (3, 7)),
    and whether the other two corners' digits agree with every digit the board shows at
    their vertices (``shows``, :func:`_board_shows`): a cell astride other tiles' digits
    reads some of theirs."""
    own = np.argmax(p, axis=1)
    k = int(np.argmax(p[:, 6]))
    corners = cell_corners(cell)
    return k, all(int(own[j]) in shows[v] for j, v in enumerate(corners)
                  if j != k and v in shows)


def _two_hidden(cfg: ReaderConfig, p: np.ndarray, vis: np.ndarray,
                unclear: float | None = None, cut: bool = False) -> bool:
    """A cell in full view whose crops show no digit at two corners and a clear one (at
    least ``cfg.two_hidden_min``) at the third (``p`` (3, 7)): a tile with two corners
    under a hand or an object (above 1: never). A corner whose digit reads under
    ``unclear`` (default ``cfg.two_hidden_unclear``) counts as showing none: a finger's
    edge across it. With ``cut``, a cell with one corner beyond the photo's edge instead
    (``vis`` (3,) bool: the corners in view), its digit shown in view: a tile with its
    other corner in view under a hand or an object."""
    shown = _two_hidden_shown(cfg, p, unclear)
    return bool((int(vis.sum()) == 2 and bool(vis[shown].all()) if cut else vis.all())
                and shown.sum() == 1 and float(p[shown, :6].max()) >= cfg.two_hidden_min)


def _two_hidden_shown(cfg: ReaderConfig, p: np.ndarray, unclear: float | None = None
                      ) -> np.ndarray:
    """The corners (3,) bool of a cell's crops ``p`` (3, 7) showing a digit, as
    :func:`_two_hidden` judges them: a digit read first and, at ``unclear`` (default
    ``cfg.two_hidden_unclear``) or more, clearly (below it, a finger's edge read as a digit
    is none)."""
    least = cfg.two_hidden_unclear if unclear is None else unclear
    return (np.argmax(p, axis=1) < 6) & (p[:, :6].max(axis=1) >= least)


def _two_hidden_agree(cfg: ReaderConfig, seen: list[Seen], probs: np.ndarray,
                      board_idx: list[int], hidden2: list[int]) -> list[int]:
    """The cells of ``hidden2`` (:func:`_two_hidden`) left out of ``board_idx`` whose digit
    in view is one the board's tiles show at its vertex (a tile there, not a speck)."""
    shows = _board_shows(seen, probs, board_idx)
    taken = {seen[n].cell for n in board_idx}
    out = []
    for n in hidden2:
        cell = seen[n].cell
        if cell in taken:
            continue
        k = int(np.flatnonzero(_two_hidden_shown(cfg, probs[n]))[0])  # its one digit
        v = cell_corners(cell)[k]  # type: ignore[arg-type]
        if v in shows and int(np.argmax(probs[n][k, :6])) in shows[v]:
            out.append(n)
    return out


def _told_by_board(cell: Cell, digits: list[int | None], at_vertex: dict[Vertex, set[int]],
                   set_name: str, placed: set[Tile | None]) -> list[int | None]:
    """``digits`` of ``cell`` with each unknown one told by the board where its tiles show
    one digit at that vertex (``at_vertex``); all unknown ones stay unknown if the tile so
    completed would be none of the set or one already ``placed`` (never a guess that
    makes a violation the pixels do not show)."""
    told = list(digits)
    for k, v in enumerate(cell_corners(cell)):
        if told[k] is None and len(at_vertex.get(v, ())) == 1:
            told[k] = next(iter(at_vertex[v]))
    if None not in told:
        tile = Tile.from_digits(told)  # type: ignore[arg-type]
        if not tile.in_set(set_name) or tile in placed:
            return list(digits)
    return told


def _one_hidden(cfg: ReaderConfig, p: np.ndarray, vis: np.ndarray,
                least: float | None = None) -> bool:
    """A cell in full view whose crops show a clear digit (at least ``least``, default
    ``cfg.candidate_hidden_min``) at two corners and none at the third (``p`` (3, 7)): a
    tile with one corner hidden (by a hand, an object)."""
    none = np.argmax(p, axis=1) == 6
    least = cfg.candidate_hidden_min if least is None else least
    return bool(vis.all() and none.sum() == 1 and p[~none, :6].max(axis=1).min() >= least)


def _one_hidden_cut(cfg: ReaderConfig, photo: Photo, px: np.ndarray, p: np.ndarray,
                    vis: np.ndarray, side: float) -> bool:
    """A cell cut by the photo's edge at one corner (``vis``: the corners in view) whose
    crops (``p`` (3, 7)) show no digit at a corner in view, a digit at the other (at least
    ``cfg.candidate_hidden_min``) and, beyond the edge, a digit whose spot is in the photo
    (its crop maybe not wholly) read at least ``cfg.hidden_cut_min``: a tile with a corner
    under a hand at the photo's edge. ``px`` (3, 2) original pixels; ``side`` px."""
    if cfg.hidden_cut_min > 1 or int(vis.sum()) != 2:
        return False
    none = np.argmax(p, axis=1) == 6
    if none.sum() != 1 or not vis[none].all():
        return False  # the corner showing no digit is the one in view, under the hand
    beyond = int(np.flatnonzero(~vis)[0])
    if not _spot_in_view(px, side, photo.width, photo.height, 0.0)[beyond]:
        return False
    other = int(np.flatnonzero(vis & ~none)[0])
    return bool(p[beyond, :6].max() >= cfg.hidden_cut_min
                and p[other, :6].max() >= cfg.candidate_hidden_min)


def _blank(t: Seen, p: np.ndarray) -> TileReading:
    """An off-board shape that shows no digits (a face-down tile, or a shape of the table:
    :func:`vision.loose.prune_loose` judges which)."""
    return TileReading(None, [None, None, None], t.px.astype(np.float64), [0.0, 0.0, 0.0],
                       p.astype(np.float32), ["face-down or blank"])


def _colour_factor(cfg: ReaderConfig, side_full: float) -> int:
    """How far (1, 2, 4 or 8) the colour photo may be shrunk for judging off-board tiles:
    as far as keeps tiles of ``side_full`` px at least ``cfg.loose_colour_min_side`` px a
    side (their colour and outline contrast are read from a few dozen pixels)."""
    f = 1
    while f < 8 and side_full / (2 * f) >= cfg.loose_colour_min_side:
        f *= 2
    return f


def _by_colour(cfg: ReaderConfig, photo: Photo, f: int, h_full: np.ndarray | None,
               board: Sequence[TileReading], off: Sequence[TileReading], clf: object
               ) -> list[TileReading]:
    """Off-board tiles apart from ``board`` and ``off`` whose outlines their edges did not
    show, found as regions of the board tiles' colour (:func:`vision.loose.colour_faces`,
    on the colour copy shrunk by ``f`` that off-board tiles are judged in; ``h_full``: the
    lattice's homography in full-image px, or None). Each region's outlines are read by
    the classifier, all in one call; the one whose least sure corner is surest stands,
    kept if all three corners read as digits at ``cfg.colour_loose_min`` or more, and
    flagged :data:`BY_COLOUR` (its outline is the region's, not edges seen)."""
    s = 1.0 / f
    regions = colour_faces(cfg, photo.colour(f), [t.corner_px * s for t in board],
                           [t.corner_px * s for t in [*board, *off]], h_full, s)
    if not regions:
        return []
    probs, _ = _read_outlines(photo, np.concatenate(regions) / s, clf)
    out: list[TileReading] = []
    first = 0
    for tries in regions:
        p_all = probs[first:first + len(tries)]
        first += len(tries)
        surest = p_all[:, :, :6].max(axis=2).min(axis=1)
        k = int(np.argmax(surest))
        p = p_all[k]
        if (np.argmax(p, axis=1) == 6).any() or surest[k] < cfg.colour_loose_min:
            continue
        out.append(_tile_reading(cfg, None, tries[k] / s, p, None, [BY_COLOUR]))
    return out


def _read_clearly(cfg: ReaderConfig, photo: Photo, seen: list[Seen], probs: np.ndarray,
                  idx: list[int], side_full: float) -> float:
    """Mean top digit probability over the visible corners of the tiles ``idx``: how
    clearly the classifier reads them (low on a board too blurred to read)."""
    top = _visible_tops(cfg, photo, seen, probs, idx, side_full)
    return float(np.mean(top)) if top.size else 0.0


def _visible_tops(cfg: ReaderConfig, photo: Photo, seen: list[Seen], probs: np.ndarray,
                  idx: list[int], side_full: float) -> np.ndarray:
    """Top digit probability (M,) of each visible corner of the tiles ``idx`` (empty when
    none), leaving out cells read where their outline was moved unless all were."""
    # a cell read where its outline was moved until it showed digits says nothing of how
    # sharp the photo is (moves over a blurred board find some reading)
    idx = [n for n in idx if not seen[n].shifted] or idx
    if not idx:
        return np.zeros(0)
    vis = _visible_each(cfg, [seen[n].px for n in idx], side_full, photo)
    return probs[idx][:, :, :6].max(axis=2)[vis].astype(np.float64)


def _reread_flags(t: Seen) -> list[str]:
    """Flags of the corners of ``t`` read from a moved crop (:func:`_reread`), and of a
    loose face read from its outline moved (:func:`_move_loose`)."""
    out = [f"corner {k}: {MOVED_CROP}" for k in t.reread]
    out += [f"corner {k}: {MOVED_CROP_UNSURE} (its own read {d} at {p:.2f})"
            for k, d, p in t.reread_unsure]
    if t.moved:
        out.append(MOVED_OUTLINE)
    return out


def _seen_flags(t: Seen) -> list[str]:
    """Flags of what classify noticed: corners that disagree on the print convention,
    corners (or a loose face) read from a moved crop (:func:`_reread_flags`)."""
    out = ["corners disagree on the print convention (top toward centre / corner)"
           ] if t.mixed else []
    out += _reread_flags(t)
    if t.conflict is not None:
        k, d, pd = t.conflict
        out.append(f"read from its outline moved off the lattice (where the lattice put "
                   f"it, corner {k} read {d} ({pd:.2f}), a digit the board overruled)")
    return out


def _upright(px: np.ndarray) -> bool:
    """Is triangle ``px`` (3, 2, image pixels) a tile's outline: clockwise on screen and
    not degenerate? A lattice folded by a bad fit (a homography across the horizon) gives
    outlines turned over, whose crops would mirror digits (cutting them raises)."""
    return _clockwise_area(px) > 1.0


def _clockwise_area(px: np.ndarray) -> float:
    """Signed area of a triangle in image pixels, positive when clockwise on screen."""
    a, b, c = px
    return float(0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])))


def _read_past(cfg: ReaderConfig, photo: Photo, seen: list[Seen], probs: np.ndarray,
               side_full: float, means: np.ndarray | None = None) -> set[Cell]:
    """Cells of candidates read past a tile mostly under a hand: a digit in view but no
    tile (mean "none" over ``cfg.candidate_none_max``, at most
    ``cfg.candidate_pass_none_max``); with ``cfg.past_outlined`` also cells outlined on
    the lattice (faces, proposed cells) so read, their mean "none" over
    ``cfg.none_threshold`` (under it they are tiles). ``means``: :func:`_none_means` of
    ``seen``, where the caller has them."""
    if means is None:
        means = _none_means(cfg, photo, seen, probs, side_full)
    return {t.cell for t, nm in zip(seen, means, strict=True)  # type: ignore[misc]
            if t.cell is not None and nm <= cfg.candidate_pass_none_max
            and (cfg.candidate_none_max < nm if t.candidate
                 else cfg.past_outlined and cfg.none_threshold < nm)}


def _off_board_in_view(cfg: ReaderConfig, photo: Photo, seen: list[Seen], on: set[Cell],
                       side_full: float, keep: Callable[[int], bool]) -> list[int]:
    """Indices of the candidates of ``seen`` on no cell of ``on`` (the board's), in full
    view, for which ``keep`` (an index) holds."""
    return [n for n, t in enumerate(seen) if t.candidate and t.cell not in on and keep(n)
            and _visible(cfg, t.px, side_full, photo.width, photo.height).all()]


def _met_past_hidden(cfg: ReaderConfig, photo: Photo, seen: list[Seen], probs: np.ndarray,
                     board_idx: list[int], side_full: float) -> set[Cell]:
    """Cells of candidates in full view read clearly at every corner (mean "none" at
    most ``cfg.candidate_none_max``), left out of ``board_idx`` as not joined edge to edge,
    that meet it at a vertex whose digit they read as the board's (:func:`_meets_at_corner`)
    beside a candidate read past a hand (a digit in view, no tile:
    ``cfg.candidate_pass_none_max``): the tile between lies under the hand or an object."""
    return _met_past(cfg, photo, seen, probs, {seen[n].cell for n in board_idx}, side_full,
                     lambda: _board_shows(seen, probs, board_idx))


def _met_past(cfg: ReaderConfig, photo: Photo, seen: list[Seen], probs: np.ndarray,
              on: set[Cell], side_full: float, shows: Callable[[], dict[Vertex, set[int]]],
              near: Callable[[Cell], bool] = lambda cell: True) -> set[Cell]:
    """The test of :func:`_met_past_hidden` and :func:`_met_past_late`: cells of
    candidates in full view on none of ``on`` (the board's cells), for which ``near``
    holds, read clearly (mean "none" at most ``cfg.candidate_none_max``), beside a
    candidate read past a hand (:func:`_read_past`), that meet the board at a vertex
    whose digit they read as the board's, agreeing at every vertex they share
    (:func:`_meets_at_corner`, at least ``cfg.full_at_vertex_min``, against ``shows()``:
    vertex -> the digits the board's tiles show there; asked only where such a cell
    lies beside a cell read past a hand)."""
    means = _none_means(cfg, photo, seen, probs, side_full)
    full = _off_board_in_view(cfg, photo, seen, on, side_full, lambda n: near(
        seen[n].cell) and means[n] <= cfg.candidate_none_max)  # type: ignore[arg-type]
    passed = _read_past(cfg, photo, seen, probs, side_full, means) - on if full else set()
    if not passed:
        return set()
    at = shows()
    return {seen[n].cell for n in full  # type: ignore[misc]
            if any(nb in passed for nb in edge_neighbours(seen[n].cell))  # type: ignore[arg-type]
            and _meets_at_corner(cfg, photo, seen[n], probs[n], at, side_full,
                                 cfg.full_at_vertex_min)}


def _clear_tile(cfg: ReaderConfig, p: np.ndarray) -> bool:
    """Does a cell in full view read a digit at every corner (``p`` (3, 7)), each of at
    least ``cfg.corner_only_min``, with mean "none" at most ``cfg.candidate_none_max``?"""
    return bool((p.argmax(axis=1) < 6).all()
                and float(p[:, :6].max(axis=1).min()) >= cfg.corner_only_min
                and float(p[:, 6].mean()) <= cfg.candidate_none_max)


def _met_at_corner(cfg: ReaderConfig, photo: Photo, seen: list[Seen], probs: np.ndarray,
                   board_idx: list[int], side_full: float) -> set[Cell]:
    """Cells of candidates in full view read clearly at every corner (a digit at each, of
    at least ``cfg.corner_only_min``, mean "none" at most ``cfg.candidate_none_max``),
    beside no tile of ``board_idx``, that meet it at a vertex whose digit they read as
    the board's (:func:`_meets_at_corner`, at least ``cfg.full_at_vertex_min``) and agree
    with it at every vertex they share: a tile set down touching the board by a corner
    only."""
    on = {seen[n].cell for n in board_idx}
    full = _off_board_in_view(cfg, photo, seen, on, side_full, lambda n: (
        not on.intersection(edge_neighbours(seen[n].cell))  # type: ignore[arg-type]
        and _clear_tile(cfg, probs[n])))
    if not full:
        return set()
    shows = _board_shows(seen, probs, board_idx)
    return {seen[n].cell for n in full  # type: ignore[misc]
            if _meets_at_corner(cfg, photo, seen[n], probs[n], shows, side_full,
                                cfg.full_at_vertex_min)}


def _rejoin(cfg: ReaderConfig, seen: list[Seen], probs: np.ndarray, board_idx: list[int],
            pre: list[int], cut: tuple[set[Cell], set[Cell]]) -> list[int]:
    """``board_idx`` with the candidates of ``pre`` that :func:`_connected` dropped and
    that now join it (through faces joined off the lattice), each showing a digit at
    every corner on a cell not yet taken (``cfg.rejoin_after_adopt``)."""
    if not cfg.rejoin_after_adopt:
        return board_idx
    taken = {seen[n].cell for n in board_idx}
    back = [n for n in pre if n not in board_idx and seen[n].candidate
            and seen[n].cell not in taken and bool((probs[n].argmax(axis=1) < 6).all())]
    if not back:
        return board_idx
    kept = set(_connected(seen, board_idx + back, *cut))
    return board_idx + [n for n in back if n in kept]


def _connected(seen: list[Seen], idx: list[int], cut: set[Cell] | frozenset[Cell] = frozenset(),
               cut_cands: set[Cell] | frozenset[Cell] = frozenset()) -> list[int]:
    """Keep cells from outline-less candidates only where they join the board edge to
    edge: through other kept cells, the board's outlined tiles cut by the photo's edge
    (``cut``), or candidates cut by it (``cut_cands``, placed later when they join). A lone
    digit-like blob is not a tile of the board."""
    by_cell = {seen[n].cell: n for n in idx}
    keep = {c for c, n in by_cell.items() if not seen[n].candidate} | set(cut)
    stack = list(keep)
    while stack:
        for nb in edge_neighbours(stack.pop()):  # type: ignore[arg-type]
            if (nb in by_cell or nb in cut_cands) and nb not in keep:
                keep.add(nb)
                stack.append(nb)
    return [n for n in idx if seen[n].cell in keep]


def _drop_partial_unsure(cfg: ReaderConfig, reading: Reading) -> int:
    """Remove (in place) the board tiles of ``reading`` whose outline was inferred from
    the lattice (:data:`~vision.reading.OUTLINE_INFERRED`), read in part, their third
    corner taken as under a hand (:data:`HIDDEN_CORNER`: no digit there), one of their
    two digits their crops' own first choice at a probability under
    ``cfg.drop_partial_unsure``: a guessed outline, one clear digit and a hand inferred
    from a corner showing none are no tile (the classifier reads digits in a printed
    cloth too). A corner beyond the photo's edge is no inference: such tiles stay. Nor is
    a digit chosen against the pixels (:attr:`~vision.reading.TileReading.against`)
    weighed here: the board tells it. Returns the number removed; none with
    ``cfg.drop_partial_unsure`` at 0."""
    if cfg.drop_partial_unsure <= 0:
        return 0

    def unsure(t: TileReading) -> bool:
        return any(t.confidence[k] < cfg.drop_partial_unsure for k, _ in t.own_corners)

    gone = [t for t in reading.tiles
            if t.cell is not None and OUTLINE_INFERRED in t.flags and HIDDEN_CORNER in t.flags
            and sum(d is not None for d in t.corners) == 2 and unsure(t)]
    for t in gone:
        reading.tiles.remove(t)
    return len(gone)


def _unseen_alone(cfg: ReaderConfig, reading: Reading) -> None:
    """Leave unknown (in place) each corner of a board tile of ``reading`` that no other
    tile meets with a digit, whose pixels say "no digit" at ``cfg.alone_none_hidden`` or
    more (a hand over it), where the set leaves more than one digit there
    (:func:`_new_set_tile`): the digit chosen there was a guess among those, not a
    reading. The tile becomes ``partial``, flagged as hidden, the corner's "pixels say"
    flag dropped. Where one digit is left (the set tells it) the choice stands. After the
    searches, whose comparisons weigh the tiles as chosen; nothing with
    ``cfg.alone_none_hidden`` above 1."""
    if cfg.alone_none_hidden > 1.0:
        return
    met: Counter[Vertex] = Counter()
    for t in reading.tiles:
        if t.cell is not None:
            met.update(v for v, d in zip(cell_corners(t.cell), t.corners, strict=True)
                       if d is not None)
    for t in reading.tiles:
        if t.cell is None or not t.complete:
            continue
        unseen = [k for k, v in enumerate(cell_corners(t.cell))
                  if met[v] == 1 and int(np.argmax(t.probs[k])) == 6
                  and t.probs[k, 6] >= cfg.alone_none_hidden
                  and sum(_new_set_tile(reading, t, [d if j == k else t.corners[j]  # type: ignore[misc]
                                                     for j in range(3)])
                          for d in range(6)) > 1]
        if not unseen:
            continue
        for k in unseen:
            t.corners[k] = None
            t.confidence[k] = 0.0
        t.flags = ["partial", HIDDEN_TWO if len(unseen) > 1 else HIDDEN_CORNER] + [
            f for f in t.flags if not any(f.startswith(f"corner {k}: ") for k in unseen)]


def _tile_reading(cfg: ReaderConfig, cell: Cell | None, px: np.ndarray, p: np.ndarray,
                  digits: list[int] | list[int | None] | None, flags: list[str],
                  steady: np.ndarray | None = None, alone: Sequence[int] = ()
                  ) -> TileReading:
    """A TileReading with per-corner flags (choice against the pixels, low confidence).
    ``steady`` (3, 7): the probabilities the digits were chosen by where not ``p`` (the
    mean over moved crops, :func:`_steady`); a digit those favour over ``p``'s is flagged
    as read so. At the corners ``alone`` no other tile shows a digit: a digit chosen
    there against the pixels is flagged as the likeliest left, not as the board's."""
    if digits is None:
        digits = [int(np.argmax(p[k, :6])) for k in range(3)]
    conf: list[float] = []
    out_flags = list(flags)
    for k, d in enumerate(digits):
        if d is None:
            conf.append(0.0)
            continue
        own = int(np.argmax(p[k]))
        pd = float(p[k, d])
        conf.append(pd)
        if own != d and own == 6 and cell is None:
            out_flags.append(f"corner {k}: no clear digit (best {d}, {pd:.2f})")
        elif own != d:
            what = "no digit" if own == 6 else f"{own}"
            if steady is not None and int(np.argmax(steady[k])) == d:
                why = f"as read from crops moved each way ({float(steady[k, d]):.2f})"
            elif k in alone:
                # no other tile meets that corner: the choice fell on the likeliest digit
                # the set leaves (the crop's own weaker reading), not on a neighbour's
                why = "as the likeliest digit the set allows (no other tile shows one there)"
            else:
                why = "to agree with the board"
            out_flags.append(f"corner {k}: pixels say {what} ({float(p[k, own]):.2f}), "
                             f"read as {d} ({pd:.2f}) {why}")
        elif pd < cfg.low_confidence:
            out_flags.append(f"corner {k}: low confidence {pd:.2f} for {d}")
    return TileReading(cell, list(digits), px.astype(np.float64), conf, p.astype(np.float32),
                       out_flags)


def _beside_joined(cfg: ReaderConfig, photo: Photo, found: Found, board: list[TileReading],
                   first: list[Seen], last: list[Seen]) -> list[Seen]:
    """Candidate cells next to a board tile that lies off where classify read its cell
    (``first``; by more than a tenth of a side: a face joined, or a drifted cell read from
    its own face, in :func:`reconstruct`), not read at that place yet (``last``: the cells
    read so far): an arm of the board drifting on, or a row of it
    running off the photo beyond such an arm. Their outline is predicted from those tiles:
    the vertices they fix, and across the edge shared with one the parallelogram it
    completes. Only those cut by the photo's edge with ``cfg.full_beside_joined`` off;
    none with ``cfg.cut_beside_joined`` off."""
    if not cfg.cut_beside_joined or found.fit.homography is None:
        return []
    s = found.scale
    side_full = found.fit.side / s

    def moved(was: dict[Cell | None, np.ndarray], cell: Cell, px: np.ndarray) -> bool:
        old = was.get(cell)
        return old is None or float(np.abs(old - px).max()) > 0.1 * side_full

    at_first = {t.cell: t.px for t in first if t.cell is not None}
    at_last = {t.cell: t.px for t in last if t.cell is not None}
    placed = {t.cell for t in board}
    off_lattice = [t for t in board
                   if t.cell is not None and moved(at_first, t.cell, t.corner_px)]
    # the vertices those tiles fix; a cell's third one across the edge it shares with such
    # a tile completes the parallelogram (tiles are locally one affine lattice)
    fixed = {v: np.asarray(p, float) for t in off_lattice
             for v, p in zip(cell_corners(t.cell), t.corner_px, strict=True)}  # type: ignore[arg-type]
    third: dict[Cell, dict[Vertex, np.ndarray]] = {}
    for t in off_lattice:
        tv = cell_corners(t.cell)  # type: ignore[arg-type]
        for k in range(3):
            nb, v_new = across_edge(t.cell, k)  # type: ignore[arg-type]
            third.setdefault(nb, {})[v_new] = (fixed[tv[(k + 1) % 3]] + fixed[tv[(k + 2) % 3]]
                                               - fixed[tv[k]])
    out: list[Seen] = []
    for c in sorted(set(third) - placed):
        px = np.array([fixed[v] if v in fixed else third[c][v] for v in cell_corners(c)])
        vis = _visible(cfg, px, side_full, photo.width, photo.height)
        if ((vis.all() and not cfg.full_beside_joined) or not vis.any()
                or not _upright(px) or not moved(at_last, c, px)):
            continue
        out.append(Seen(c, px, False, True))
    return out


def read_image(cfg: ReaderConfig, photo: Photo, *, classifier: object | None = None,
               set_name: str = "standard", decode_ms: float = 0.0) -> Reading:
    """Run detect, classify and reconstruct on a loaded photo.

    Where no board is read in a sharp photo (no hint of :func:`why_empty`), the search is
    made again on detection copies ``cfg.rescale_empty`` times the size
    (:meth:`Photo.searched_at`): big tiles, or dark ones whose seams a copy of one size
    does not show, may show at another. That reading is taken where its board has at
    least ``cfg.rescale_min_tiles`` tiles, read clearly (the median probability of its
    digits at least ``cfg.rescale_clear``); its ``timing_ms["detect"]`` then includes the
    first search.

    Raises :class:`NoTilesError` ("no tiles found") when the photo shows no tile.
    """
    t0 = time.perf_counter()
    try:
        reading = _read_once(cfg, photo, classifier, set_name, decode_ms)
    except NoTilesError:
        again = _searched_again(cfg, photo, classifier, set_name, decode_ms, t0)
        if again is None:
            raise
        return again
    if not reading.tiles:
        again = _searched_again(cfg, photo, classifier, set_name, decode_ms, t0)
        if again is not None:
            return again
    return reading


def _searched_again(cfg: ReaderConfig, photo: Photo, classifier: object | None,
                    set_name: str, decode_ms: float, t0: float) -> Reading | None:
    """For :func:`read_image`, whose first search (begun at ``t0``, ``time.perf_counter``)
    read no board: the reading of a sharp photo searched again on detection copies
    ``cfg.rescale_empty`` times the size, where it reads a board clearly; else None."""
    if not 0 < cfg.rescale_empty != 1 or why_empty(cfg, photo):
        return None
    first_ms = (time.perf_counter() - t0) * 1e3
    try:
        again = _read_once(cfg, photo.searched_at(cfg.rescale_empty), classifier, set_name,
                           decode_ms)
    except NoTilesError:
        return None
    if len(again.tiles) < cfg.rescale_min_tiles or not _board_clear(again, cfg.rescale_clear):
        return None
    again.timing_ms["detect"] += first_ms
    again.timing_ms["total"] += first_ms
    return again


def _board_clear(reading: Reading, least: float) -> bool:
    """Whether ``reading`` has board tiles whose digits read (their corners' confidence,
    hidden corners aside) have a median of at least ``least``."""
    conf = [c for t in reading.tiles for d, c in zip(t.corners, t.confidence, strict=True)
            if d is not None]
    return bool(conf) and float(np.median(conf)) >= least


def _read_once(cfg: ReaderConfig, photo: Photo, classifier: object | None, set_name: str,
               decode_ms: float) -> Reading:
    """:func:`read_image`'s search and reading on one size of detection copy."""
    t0 = time.perf_counter()
    found = detected = detect(cfg, photo)
    t1 = time.perf_counter()
    if not found.fit.cells and not found.fit.loose and not found.fit.proposed:
        raise NoTilesError(f"{photo.path}: no tiles found{why_empty(cfg, photo)}")
    clf = classifier if classifier is not None else default_classifier()
    blurred: list[Found] = []  # the boards found too blurred to read
    # the first search that read no board but a loose face clearly: a loose tile in view,
    # kept off the board if nothing else is read (a board of onyx tiles under a hand,
    # dev3 76000177: a 0-5-5 read at 0.96-0.98 by a board grown from single faces)
    loose_alone: list[tuple[Found, str, list[TileReading]]] = []

    def read(f: Found, rounds: int = 0
             ) -> tuple[Found, str, list[TileReading], list[TileReading]]:
        out = _read_found(cfg, photo, f, clf, set_name, rounds)
        if out[0].too_blurred:
            blurred.append(out[0])
        if cfg.alone_loose and not loose_alone and not out[2]:
            clear = [t for t in out[3] if _clear_whole(cfg, t)]
            if clear:
                loose_alone.append((out[0], out[1], [
                    replace(t, flags=[*t.flags, NO_BOARD_FOUND]) for t in clear]))
        return out

    found, conv, board, off = read(found, cfg.beside_joined_rounds)
    t2 = time.perf_counter()

    def first_more(boards: Iterable[Found]) -> None:
        """Read ``boards`` in turn: the first to read more board tiles than the board
        read so far takes its place, and no further one is made."""
        nonlocal found, conv, board, off
        for again in boards:
            again, conv2, board2, off2 = read(again)
            if len(board2) > len(board):
                found, conv, board, off = again, conv2, board2, off2
                return

    by_edges = found.fit.by_edges
    if (not board and cfg.silhouette_fallback and by_edges is not None
            and (by_edges.cells or by_edges.loose)):
        # no tile read on the silhouette's lattice (a wrong size fits a frayed outline
        # too): the faces found by their edges are read instead
        again = Found(by_edges, found.scale)
        again, conv2, board2, off2 = read(again)
        # else the first answer stands (the loose tiles it read clearly too)
        if not _nothing_read(board2, off2) and (
                board2 or not cfg.fallback_keeps_more or _showing(off2) >= _showing(off)):
            found, conv, board, off = again, conv2, board2, off2
    nothing = _search_on(cfg, board, off)
    sil = detected.fit
    # (the silhouette's fit read: as fitted, or with its cells moved onto their digits)
    own = found.fit is sil or found.fit is sil.snapped
    weak = sil.from_silhouette and (not own or sil.outranked or len(board) < cfg.rival_below * (
        len(sil.cells) + len(sil.proposed)))
    if nothing or weak:
        # nothing read: the board chosen may be something else (a dark floor beyond the
        # table, a cloth's printed triangles); the next boards the silhouettes show are
        # read. A board fitted to its silhouette that read few of its cells (or none: its
        # faces found by their edges were read instead) is also weighed against the next
        # one (its digits' evidence ranked a patch of grainy cloth above a board's)
        n = cfg.other_boards if nothing else cfg.rival_boards
        for again in _other_boards(cfg, photo, detected.scale,
                                   [detected.fit, found.fit], n):
            again, conv2, board2, off2 = read(again)
            # a silhouette stands for a board: loose tiles alone are not one
            if len(board2) > len(board):
                found, conv, board, off = again, conv2, board2, off2
                if nothing:
                    break
    # still nothing: the silhouettes again, their gaps closed more (a board's outline
    # notched by the light digits of its small dark tiles)
    for close in cfg.other_boards_close:
        if not _search_on(cfg, board, off):
            break
        first_more(_other_boards(cfg, photo, detected.scale, [detected.fit, found.fit],
                                 cfg.other_boards, close, cfg.other_boards_close_fallbacks))
    if cfg.other_boards_levels and _search_on(cfg, board, off):
        # still nothing: the tone regions at grey levels between those searched (a board
        # outlined at one level only; its regions alone, the others were searched)
        levels = replace(cfg, silhouette_levels=cfg.other_boards_levels)
        first_more(_other_boards(levels, photo, detected.scale, [detected.fit, found.fit],
                                 cfg.other_boards, fallbacks=False))
    # a tile read clearly alone at another size: no board, but kept off it if nothing else
    # is read
    alone: tuple[Found, str, list[TileReading]] | None = None
    if cfg.other_sizes and _search_on(cfg, board, off):
        # still nothing: the faces found by their edges at other sizes than the boards
        # read (a few big tiles on a checked cloth)
        tried = [fit.side / sc for fit, sc in ((detected.fit, detected.scale),
                                               (found.fit, found.scale)) if fit.side > 0]
        # the size whose faces read the most tiles clearly wins (a hand's outline is a
        # face too; a blurred photo's guesses are no tiles)
        most = 0
        for again in _other_sizes(cfg, photo, tried, cfg.other_sizes):
            again, conv2, board2, off2 = read(again)
            n_read = sum(t.tile is not None and min(t.confidence) >= cfg.other_sizes_clear
                         for t in board2 + off2)
            # two tiles joined at least: one alone is a loose tile, not a board (sample 12:
            # a loose tile beside a board too blurred to find)
            if len(board2) >= 2 and n_read > most:
                most, found, conv, board, off = n_read, again, conv2, board2, off2
            elif (len(board2) == 1 and board2[0].tile is not None and alone is None
                  and min(board2[0].confidence) >= cfg.alone_clear):
                alone = again, conv2, [as_off_board(board2[0], READ_ALONE),
                                       *[t for t in off2 if t.shows_digit]]
    beside: list[TileReading] = []  # tiles off a board a grown one replaced
    if len(board) < cfg.grown_below:
        # still no board read: one grown from single faces by their digits (a defocused
        # board on a cloth of the tiles' grey shows neither seams nor an outline)
        first_more(_grown_boards(cfg, photo, detected.scale, [detected.fit, found.fit],
                                 cfg.other_boards))
        if len(board) < cfg.grown_below:
            # still none: one grown from where a face's shape, slid across the photo,
            # shows digits (dark tiles on a dark table: no seam, no outline, and the
            # faces found are their digits' strokes; dev faults 71000379)
            first_more(_slid_boards(cfg, photo, cfg.other_boards))
        if len(board) < cfg.grown_below:
            # still none: the outlines one of whose three directions has short sides (a
            # small board seen steeply: onyx dev 73000081); after the searches above, as
            # such an outline's lattice is the least sure (onyx dev 73000178, dev
            # 71000325: read worse by it where a search above read them right)
            first_more(_other_boards(cfg, photo, detected.scale, [detected.fit, found.fit],
                                     cfg.other_boards, short=True))
        if len(board) < cfg.grown_below:
            # still none, last: one grown from where the tiles' centre pins place a cell
            # (black tiles joined on granite: no seam, no outline, no face of their size;
            # onyx dev 73000121); after the short outlines, which read onyx dev 73000081
            # better (11 of 12 tiles; the pins' board, 5)
            first_more(_pin_boards(cfg, photo, cfg.other_boards))
    elif cfg.grown_rival_front > 0 and len(
            _unread_cells(cfg, photo, board, off)) >= cfg.grown_rival_front:
        # a board read whose next cells show digits on its tiles' face: part of it may
        # lie beyond a gap its fit did not cross; a board grown by its digits from its
        # clearest tile is weighed against it, then one from the next (onyx dev
        # 73000116: an arm in the shade reached from its second tile only)
        seeds = _board_seeds(cfg, photo, board, cfg.grown_rival_seeds)
        # then the boards the tiles' pins place, where few of the board's tiles are faces
        # outlining its lattice (a steep view: a lattice resting on the far tiles, and so
        # one grown from its tiles, strays off the near ones; fresh 75000249)
        pinned = (cfg.pin_rivals if len(found.fit.cells) < cfg.pin_rival_faces * len(board)
                  else 0)
        # where only cells on tiles read off the board show digits, a board grown past
        # them is an arm only if it reads cfg.grown_rival_off_front tiles more (a loose
        # tile set down beside the board, its digits read, is no arm: the real photo)
        least = 1 if not cfg.grown_rival_off_front or len(_unread_cells(
            replace(cfg, grown_rival_off_front=0), photo, board, off)
        ) >= cfg.grown_rival_front else cfg.grown_rival_off_front
        def outgrown(board2: list[TileReading]) -> bool:
            # (board, off and least as they stand when called)
            return (_outgrows(board, off, board2, **_outgrow_rules(cfg))
                    and len(board2) >= len(board) + least)

        def weigh(boards: Iterable[Found], first: bool) -> bool:
            # read ``boards`` in turn; the first that outgrows the board read takes its
            # place (True). Against the first board read (``first``), the tiles read off
            # it stay where the rival reads none, and one turned down gives it the tiles
            # beside it that it missed
            nonlocal found, conv, board, off, beside
            for again in boards:
                again, conv2, board2, off2 = read(again)
                takes = outgrown(board2)
                if not takes and cfg.grown_rival_drop_unshown:
                    # (a tile of it mostly under a hand, its digits there guessed from
                    # the board's, is no reason to turn down the tiles it reads clearly;
                    # more such tiles are a rival read on guesses: a blurred board)
                    shown = _without_unshown(board, board2)
                    takes = (len(board2) - cfg.grown_rival_drop_unshown <= len(shown)
                             < len(board2) and outgrown(shown))
                    board2 = shown if takes else board2
                if takes:
                    if first:
                        # the tiles read off the first board, judged on its lattice (the
                        # grown one's homography, fitted to the board's digits, may
                        # stretch far off it), stay where the second reads none
                        beside = _apart(_pruned(cfg, photo, found, board, off), board2)
                    found, conv, board, off = again, conv2, board2, off2
                    return True
                if first:
                    # not the board read, but its tiles beside it that the first missed,
                    # read clearly on their own cells and agreeing with it, are the table's
                    board, off = _with_beside_from_rival(cfg, found, board, off, board2)
            return False

        near = board
        took = weigh(_seeded_boards(cfg, photo, detected, seeds), True)
        if took and cfg.pin_rivals_after_grown:
            # the pins' boards are weighed against the board grown from the first's tiles
            # too: that one follows the first's lattice, and an arm drifted off it shows
            # no digit on its cells; the pins show each tile's centre (checked-cloth dev
            # 77000014: 10 -> 22 tiles grown, the pins' board 34 of 34)
            least, near = 1, board
        elif took:
            pinned = 0
        weigh(_pin_boards(cfg, photo, pinned, first=detected, near=near), not took)
    rival = detected.fit.rival  # (made only with cfg.near_rival)
    if rival is not None:
        # a board of faces whose outline showed no board of its lattice: that outline's
        # board moved onto its digits, where the board read is small beside it (a steep
        # view: onyx dev 73000011, only its 6 near tiles found by their edges); after
        # every other search, as before them it read dev2 71000922 worse (40 -> 31
        # tiles: the board grown by its digits was no longer sought)
        alt = rival()
        if alt is not None and len(board) < cfg.near_rival_share * (
                len(alt.cells) + len(alt.proposed)):
            again, conv2, board2, off2 = read(Found(alt, detected.scale))
            if len(board2) > len(board):
                found, conv, board, off = again, conv2, board2, off2
                beside = []
    if alone is None and loose_alone:
        alone = loose_alone[0]
    if alone is not None and _nothing_read(board, off):
        # still nothing but one tile read clearly alone at another size: a loose tile the
        # photo shows (the board under a hand, dev 71000829), not "no tiles found"; with
        # the others read there that show digits (blank shapes of that size may be pieces
        # of a board too blurred to find: sample 12). Else the loose faces a search read
        # clearly where it read no board (cfg.alone_loose)
        found, conv, board, off = alone[0], alone[1], [], alone[2]
    f = _colour_factor(cfg, side_full=found.fit.side / found.scale)
    h_full = _h_full(found)
    off = _pruned(cfg, photo, found, board, off)
    if beside:
        off += _apart(beside, off)
    if board and cfg.colour_loose:
        off += _pruned(cfg, photo, found, board,
                       _by_colour(cfg, photo, f, h_full, board, off, clf))
    if blurred and not board and cfg.blurred_board_faces:
        off = _off_blurred(cfg, blurred, off)
    if board and cfg.off_on_board:
        # each tile lies in one place: one read off the board on a board tile is that tile
        # again, from its own outline beside the cell the board read it on
        off = _apart(off, board)
    if _nothing_read(board, off) and not _clear_partial(cfg, off):
        if found.too_blurred:
            raise NoTilesError(f"{photo.path}: no tiles read: the board is too blurred for "
                               "its digits to be read (hold the camera still, focus on it)")
        # nothing shows a digit: blank shapes alone are no evidence of a Triominos table
        raise NoTilesError(f"{photo.path}: no tiles found{why_empty(cfg, photo)}")
    reading = Reading(Path(photo.path).name, photo.width, photo.height, set_name, board, off,
                      convention=conv, homography=h_full, confident=cfg.confident)
    if found.too_blurred and not board:
        # tiles read off the board too blurred to read: the empty board is not the table's
        # (only the board kept, not one the search tried: a cloth printed with triangles
        # is judged too blurred too, dev faults 71000333, a sharp photo)
        reading.notes.append(BOARD_TOO_BLURRED)
    # a lone corner a hand covers: unknown, not a guess among the digits the set leaves
    _unseen_alone(cfg, reading)
    _drop_partial_unsure(cfg, reading)
    drop_on_table(cfg, lambda: photo.colour(f), reading, scale=1.0 / f)
    judge_pieces(cfg, lambda: photo.colour(f), reading, scale=1.0 / f)
    _misread_sets(cfg, reading)
    t3 = time.perf_counter()
    reading.timing_ms = {"decode": decode_ms, "detect": (t1 - t0) * 1e3,
                         "classify": (t2 - t1) * 1e3, "reconstruct": (t3 - t2) * 1e3}
    reading.timing_ms["total"] = sum(reading.timing_ms.values())
    return reading


def _misread_sets(cfg: ReaderConfig, reading: Reading) -> None:
    """Put right (in place, with ``cfg.misread_set``) the board tiles that a repeated-tile
    or not-in-the-set violation names and one of whose digits was chosen against its
    pixels (its crop's first choice another digit, or no digit): one set holds each tile
    once and no mirror tile, so the choice is wrong there. Where each such corner's crop
    reads its own digit at ``cfg.misread_own_min`` or more (not from moved crops) and
    those digits make a tile of the set the board holds nowhere else, the tile is read as
    its pixels show (flagged; a corner it then disagrees at is a mismatch the table
    shows); else it is flagged :data:`~vision.reading.MISREAD_SET` and no such violation
    is reported there (:meth:`~vision.reading.Reading.board_violations`). With
    ``cfg.misread_set_clear``, so is each tile such a violation names that is read clearly
    (which of two copies is misread, the pixels do not tell), unless the tiles meeting it
    where it disagrees with them tell the digit first (``cfg.misread_set_vertex``,
    :func:`_told_by_vertex`)."""
    if not cfg.misread_set:
        return
    at = {t.cell: t for t in reading.tiles if t.cell is not None}
    done: set[Cell] = set()
    while True:
        found = [v for v in reading.board.violations() if v.kind & SET_KINDS]
        todo = [(v, c) for v in found for c in v.cells if c not in done and at[c].against]
        if not todo:
            break
        v, c = todo[0]
        done.add(c)
        t = at[c]
        what = _set_kind_text(v)
        if _as_pixels_show(cfg, reading, t, what):
            continue
        k = t.against[0]
        # (what: "a tile ...": the flag starts with MISREAD_SET)
        t.flags.append(f"reads as {what} ({t.tile}) only through corner {k}'s "
                       f"{t.corners[k]} ({t.confidence[k]:.2f}), chosen against its pixels: "
                       "misread, not reported as a violation")
    if cfg.misread_set_vertex:
        while _told_by_vertex(reading, at):
            found = [v for v in reading.board.violations() if v.kind & SET_KINDS]
    if not cfg.misread_set_clear:
        return
    # read clearly and still a second copy or a mirror tile: misread all the same (which
    # copy is, the pixels do not tell); ``found``: the board's set violations as it is now
    for v in found:
        if any(at[c].misread_set for c in v.cells):
            continue  # (one of them misread already: that tells it)
        for c in v.cells:
            t = at[c]
            if v.kind & Status.NOT_IN_SET:
                t.flags.append(f"reads as a tile not in the set ({t.tile}, a mirror tile?): "
                               "misread, not reported as a violation")
            else:
                other = cell_text(next(o for o in v.cells if o != c))
                t.flags.append(f"reads as a tile the board holds twice ({t.tile}, also at "
                               f"{other}): one of the two misread, not reported as a "
                               "violation")


def _told_by_vertex(reading: Reading, at: dict[Cell, TileReading]) -> bool:
    """Put right one board tile that a repeated-tile or not-in-the-set violation names,
    read clearly (no digit of it chosen against its pixels, none flagged misread), at a
    corner where it disagrees with the other tiles meeting there: where those not named
    by such a violation all show one digit, and that digit there (at one corner of the
    tile only) makes a tile of the set the board holds nowhere else, the tile is read so
    (flagged with both readings). A mirror tile or a second copy is no tile on the table,
    so the reading is wrong, and the vertex tells where (dev 71000246: a blurred 3 read
    as 1 at 0.86 and 0.95 on two tiles meeting three 3s, making 1-4-2 and a second
    1-4-4). A tile placed against the rule is a tile of the set, never so put right.
    Returns whether one was."""
    found = [v for v in reading.board.violations() if v.kind & SET_KINDS]
    named = {c for v in found for c in v.cells}
    shown: dict[Vertex, list[tuple[Cell, int]]] = {}
    for t in reading.tiles:
        if t.cell is not None:
            for v, d in zip(cell_corners(t.cell), t.corners, strict=True):
                if d is not None:
                    shown.setdefault(v, []).append((t.cell, d))
    for v in found:
        for c in v.cells:
            t = at[c]
            if t.misread_set or None in t.corners:  # (a digit against its pixels: so flagged)
                continue
            what = _set_kind_text(v)
            fixes = []
            for k, vert in enumerate(cell_corners(c)):
                told = {d for o, d in shown.get(vert, []) if o != c and o not in named}
                if len(told) != 1 or t.corners[k] in told:
                    continue
                d = next(iter(told))
                digits = list(t.corners)
                digits[k] = d
                if _new_set_tile(reading, t, digits):  # type: ignore[arg-type]
                    fixes.append((k, d))
            if len(fixes) != 1:
                continue  # none, or the vertex does not tell which corner
            k, d = fixes[0]
            was = t.corners[k]
            _drop_made_flags(reading, t)
            t.corners[k], t.confidence[k] = d, float(t.probs[k, d])
            t.flags.append(f"corner {k}: pixels say {was} ({float(t.probs[k, was]):.2f}), "
                           f"read as {d} ({t.confidence[k]:.2f}) as the tiles meeting it "
                           f"there show: its {was} would make it {what}")
            return True
    return False


def _set_kind_text(v: Violation) -> str:
    """What a repeated-tile or not-in-the-set violation ``v`` says its tiles make."""
    return ("a tile not in the set" if v.kind & Status.NOT_IN_SET
            else "a tile the board holds twice")


def _new_set_tile(reading: Reading, t: TileReading, digits: list[int]) -> bool:
    """Do ``digits`` make a tile of the reading's set that no board tile but ``t`` is?"""
    tile = Tile.from_digits(digits)
    return tile.in_set(reading.set_name) and tile not in {
        o.tile for o in reading.tiles if o is not t and o.tile is not None}


def _drop_made_flags(reading: Reading, t: TileReading) -> None:
    """Drop the flags of the tile board tile ``t`` made before its digits are put right
    (reconstruct's "not in the set", "also at": on ``t``, or on the other copy naming
    ``t``'s cell): stale once they are."""
    old = t.tile
    assert t.cell is not None  # a board tile
    t.flags = [f for f in t.flags if not f.startswith(f"tile {old} ")]
    for o in reading.tiles:
        o.flags = [f for f in o.flags if f != f"tile {old} also at {cell_text(t.cell)}"]


def _as_pixels_show(cfg: ReaderConfig, reading: Reading, t: TileReading, what: str
                    ) -> bool:
    """Read board tile ``t`` (its digits ``what`` the violation says) as its pixels show
    at its corners read against them, if they allow (see :func:`_misread_sets`); whether
    it was."""
    own = list(t.corners)
    against = t.against
    for k in against:
        d = int(np.argmax(t.probs[k]))
        if (d == 6 or float(t.probs[k, d]) < cfg.misread_own_min
                or any(f.startswith(f"corner {k}:") and "crops moved" in f for f in t.flags)):
            return False
        own[k] = d
    if not _new_set_tile(reading, t, own):  # type: ignore[arg-type]
        return False
    _drop_made_flags(reading, t)
    for k in against:
        was = t.corners[k]
        d = own[k]
        t.corners[k], t.confidence[k] = d, float(t.probs[k, d])
        t.flags = [f for f in t.flags if not f.startswith(f"corner {k}: pixels say")]
        t.flags.append(f"corner {k}: read as its pixels show, {d} ({t.confidence[k]:.2f}): "
                       f"the board's {was} there would make it {what}")
    return True


def _read_board(cfg: ReaderConfig, photo: Photo, found: Found, clf: object,
                set_name: str, rounds: int) -> tuple[str, list[TileReading], list[TileReading]]:
    """Classify and reconstruct a fit of the photo, then read the cells next to tiles
    joined only in reconstruct (in at most ``rounds`` rounds): its print convention,
    board tiles and off-board tiles."""
    seen, probs, conv = classify(cfg, photo, found, clf)
    seen0, probs0 = list(seen), probs.copy()  # reconstruct rewrites the faces it joins
    board, off = reconstruct(cfg, photo, found, seen, probs, set_name)
    again = _reread_conflicts(cfg, photo, found, clf, seen0, probs0, board)
    if again is not None:
        board2, off2 = reconstruct(cfg, photo, found, list(again[0]), again[1].copy(),
                                   set_name)
        if _fewer_overruled(board, board2):
            seen0, probs0 = again
            board, off = board2, off2
    first = seen0
    for _ in range(rounds):
        extra = _beside_joined(cfg, photo, found, board, first, seen0) if board else []
        if not extra:
            break
        # cells next to tiles joined only in reconstruct (drifted, or found apart):
        # classify never saw them there; read, they may join (as partial where cut by
        # the photo's edge), and the tiles they add have neighbours of their own
        more, _ = _read_tiles(cfg, photo, extra, found.fit.side / found.scale, clf)
        redone = {t.cell for t in extra}  # read again where the joined tiles put them
        keep = [n for n, t in enumerate(seen0) if t.cell not in redone]
        seen0, probs0 = [seen0[n] for n in keep] + extra, np.concatenate([probs0[keep], more])
        n_before = len(board)
        board, off = reconstruct(cfg, photo, found, list(seen0), probs0.copy(), set_name)
        if len(board) <= n_before:
            break
    return conv, board, off


def _overruled(board: list[TileReading]) -> int:
    """How many corners of ``board`` read a digit other than their crop's first choice."""
    return sum(len(t.against) for t in board if t.cell is not None)


def _fewer_overruled(board: list[TileReading], again: list[TileReading]) -> bool:
    """Is ``again`` (the board read again, some tiles from moved outlines) the better
    reading: no tile fewer, and fewer corners whose digit overrules their crop's?"""
    return len(again) >= len(board) and _overruled(again) < _overruled(board)


def _reread_conflicts(cfg: ReaderConfig, photo: Photo, found: Found, clf: object,
                      seen: list[Seen], probs: np.ndarray, board: list[TileReading]
                      ) -> tuple[list[Seen], np.ndarray] | None:
    """Board tiles read again from their outlines moved a little, where a crop read a
    digit clearly that the board's choice overruled (see ``cfg.conflict_own_min``).

    ``seen``, ``probs`` (N, 3, 7): what :func:`reconstruct` was given; ``board``: what it
    made of them. Only tiles in full view on the lattice outline they were read at, on a
    board read clearly (``cfg.support_clarity``). Each is moved
    ``cfg.conflict_shift_fracs`` x side toward and away from each corner, never over
    another board tile's outline (``cfg.shift_overlap_max``), and, a tile outlined by its
    own face, with each overruled corner where the lattice's homography puts it
    (``cfg.conflict_predicted``), all in one classifier call; the move reading every
    corner at least ``cfg.conflict_free_min``, another digit at an overruled corner,
    clearest, replaces its outline and probabilities. Returns the
    changed copies of ``seen`` and ``probs`` (the tiles moved marked
    ``Seen.conflict``), or None where no tile so moved."""
    if cfg.conflict_own_min > 1.0 or not cfg.conflict_shift_fracs or not board:
        return None
    side_full = found.fit.side / found.scale
    at = {t.cell: n for n, t in enumerate(seen) if t.cell is not None}
    todo: dict[int, list[int]] = {}
    on: list[int] = []
    for tr in board:
        n = at.get(tr.cell) if tr.cell is not None else None
        if n is None or not np.array_equal(seen[n].px, tr.corner_px):
            continue
        on.append(n)
        p = probs[n]
        own = p.argmax(axis=1)
        ks = [k for k, d in enumerate(tr.corners) if d is not None and own[k] < 6
              and own[k] != d and p[k, own[k]] >= cfg.conflict_own_min
              and p[k, d] < cfg.conflict_chosen_max]
        if ks and None not in tr.corners and _visible(cfg, tr.corner_px, side_full, photo.width,
                                                     photo.height).all():
            todo[n] = ks
    if not todo or _read_clearly(cfg, photo, seen, probs, on, side_full) < cfg.support_clarity:
        return None
    outlines = np.array([tr.corner_px for tr in board]).reshape(-1, 3, 2)
    moves = [(n, m) for n in todo for m in _outline_moves(
        cfg, seen[n].px, side_full, cfg.conflict_shift_fracs,
        outlines[~np.all(np.isclose(outlines, seen[n].px), axis=(1, 2))])]  # (not its own)
    # a face traced short at a corner (the tile's thick side at the board's edge) puts
    # the crop half off its digit, where the lattice is right within a few % of a side
    predicted = (predicted_corners(cfg, found.fit, seen, found.scale)
                 if cfg.conflict_predicted else None) or {}
    for n, ks in todo.items():
        v = _at_predicted(seen[n].px, predicted[n], ks) if n in predicted else None
        if v is not None and not np.allclose(v, seen[n].px):
            moves.append((n, v))
    if not moves:
        return None
    p_m, _ = _read_outlines(photo, np.stack([m for _, m in moves]), clf)
    best: dict[int, tuple[float, int]] = {}
    for j, (n, _) in enumerate(moves):
        q = p_m[j]
        arg = q.argmax(axis=1)
        if (arg == 6).any() or float(q[:, :6].max(axis=1).min()) < cfg.conflict_free_min:
            continue
        if all(arg[k] == probs[n][k].argmax() for k in todo[n]):
            continue  # the overruled digit again: the move tells nothing new
        if _quality(q) > best.get(n, (-np.inf, -1))[0]:
            best[n] = (_quality(q), j)
    if not best:
        return None
    seen2, probs2 = list(seen), probs.copy()
    for n, (_, j) in best.items():
        k = todo[n][0]
        d = int(probs[n][k].argmax())
        seen2[n] = replace(seen[n], px=moves[j][1], conflict=(k, d, float(probs[n][k, d])))
        probs2[n] = p_m[j]
    return seen2, probs2


def _read_found(cfg: ReaderConfig, photo: Photo, found: Found, clf: object, set_name: str,
                rounds: int = 0) -> tuple[Found, str, list[TileReading], list[TileReading]]:
    """Read a fit of the photo (:func:`_read_board`; ``rounds``: of cells next to tiles
    joined only in reconstruct); where its cells moved onto their digits make another
    (``LatticeFit.snapped``), that is read too and kept if it reads more tiles, or as
    many more of them clearly (:func:`_read_key`). Returns the fit kept, its print
    convention, board tiles and off-board tiles."""
    conv, board, off = _read_board(cfg, photo, found, clf, set_name, rounds)
    if found.fit.snapped is not None:
        again = Found(found.fit.snapped, found.scale)
        conv2, board2, off2 = _read_board(cfg, photo, again, clf, set_name, rounds)
        if _read_key(cfg, board2) > _read_key(cfg, board):
            return again, conv2, board2, off2
    return found, conv, board, off


def _read_key(cfg: ReaderConfig, board: list[TileReading]) -> tuple[int, int]:
    """How many tiles ``board`` has, and how many of them show a digit, every digit in
    view read at ``cfg.snap_clear`` or more."""
    clear = sum(t.shows_digit
                and all(c >= cfg.snap_clear for c, d in zip(t.confidence, t.corners, strict=True)
                        if d is not None) for t in board)
    return len(board), clear


def _steady(cfg: ReaderConfig, photo: Photo, seen: list[Seen], probs: np.ndarray,
            side_full: float, classifier: object) -> None:
    """Read each board tile showing digits (``probs`` (N, 3, 7): no corner's "none" over
    0.5) again from its outline moved ``cfg.steady_shift`` x the side (``side_full``, px)
    left, right, up and down, in one classifier call; the mean of the five readings goes
    to ``Seen.steady``. Every such tile of a blurred board (read less clearly than
    ``cfg.support_clarity``, :func:`_read_clearly`), only those with a digit read under
    ``cfg.steady_below`` on another. A blurred or half-hidden digit read from one crop can
    turn on where the crop falls; ``probs`` itself stays as read (the thresholds that
    judge blur and clarity were set on single crops)."""
    if cfg.steady_shift <= 0:
        return
    idx = [n for n, t in enumerate(seen)
           if t.cell is not None and float(probs[n, :, 6].max()) < 0.5]
    if idx and _read_clearly(cfg, photo, seen, probs, idx, side_full) >= cfg.support_clarity:
        # a board read clearly: only its tiles with a digit read less surely (most boards
        # have few or none: the 12 MP sample none)
        idx = [n for n in idx if float(probs[n, :, :6].max(axis=1).min()) < cfg.steady_below]
    if not idx:
        return
    d = cfg.steady_shift * side_full
    base = np.stack([seen[n].px for n in idx])
    moved = np.concatenate([base + [dx, dy] for dx, dy in ((d, 0), (-d, 0), (0, d), (0, -d))])
    p = _read_outlines(photo, moved, classifier)[0].reshape(4, len(idx), 3, 7)
    mean = (probs[idx] + p.sum(axis=0)) / 5
    for i, n in enumerate(idx):
        seen[n].steady = (seen[n].px.copy(), mean[i])


def _nothing_read(board: list[TileReading], off: list[TileReading]) -> bool:
    """No tile on the board and no digit read off it."""
    return not board and all(t.tile is None for t in off)


def _clear_partial(cfg: ReaderConfig, off: list[TileReading]) -> bool:
    """Whether ``off`` holds a tile cut by the photo's edge whose every digit in view reads
    at ``cfg.partial_off_clear`` or more (0 = never): a tile the photo shows, so the photo
    is read, not refused (dev 71000380: the board under a blurred hand, a loose tile at
    the edge read 0 and 5 at 0.97 and 0.93, the photo called "no tiles read")."""
    if cfg.partial_off_clear <= 0:
        return False
    return any(t.shows_digit and "partial" in t.flags
               and min(c for d, c in zip(t.corners, t.confidence, strict=True)
                       if d is not None) >= cfg.partial_off_clear for t in off)


def _clear_whole(cfg: ReaderConfig, t: TileReading) -> bool:
    """Whether ``t`` is read as a tile on its own outline, not cut by the photo's edge,
    every digit at ``cfg.alone_clear`` or more (not read so only from its outline or a
    corner's crop moved: a blurred board's face, dev faults 71000321)."""
    return (t.tile is not None and "partial" not in t.flags
            and min(t.confidence) >= cfg.alone_clear
            and not any(f == MOVED_OUTLINE or f.endswith(MOVED_CROP) for f in t.flags))


def _showing(off: list[TileReading]) -> int:
    """How many tiles of ``off`` show a digit at some corner."""
    return sum(t.shows_digit for t in off)


def _search_on(cfg: ReaderConfig, board: list[TileReading], off: list[TileReading]) -> bool:
    """Whether :func:`read_image` searches on for a board: none read, and (unless
    ``cfg.search_past_loose``) no digit read off it either. Loose tiles read beside a lattice
    that holds no tile of the board say nothing of where the board lies (dev faults
    71000331: 5 loose tiles read, the board of 47 tiles, on another lattice, never
    searched for)."""
    return not board if cfg.search_past_loose else _nothing_read(board, off)


def read_photo(path: str | Path, cfg: ReaderConfig = DEFAULT, *,
               classifier: object | None = None, set_name: str = "standard") -> Reading:
    """Read a photo file into a :class:`Reading` (all stages, timed).

    Raises :class:`PhotoError` for unreadable files and photos with no tiles, and
    :class:`~vision.classifier.ModelError` if the shipped model is missing or damaged.
    """
    t0 = time.perf_counter()
    photo = load(cfg, path)
    ms = (time.perf_counter() - t0) * 1e3
    return read_image(cfg, photo, classifier=classifier, set_name=set_name, decode_ms=ms)


def read_array(image: np.ndarray, cfg: ReaderConfig = DEFAULT, *,
               classifier: object | None = None, name: str = "array") -> Reading:
    """Read an already decoded BGR image (e.g. a synthetic render)."""
    return read_image(cfg, from_array(cfg, image, name), classifier=classifier)
