"""The homography carried outward by the tiles' digits (vision.spots), on drawn boards."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.lattice import Cell, cell_corners, vertex_xy
from vision.config import DEFAULT
from vision.spots import DIGIT_FRAC, digit_spots, refit_to_digit_blobs, snap_to_digit_blobs
from vision.spots import project as _project

SIDE = 60.0
# lattice (table units) -> image px: 60 px a side, turned, a mild perspective
H_TRUE = np.array([[SIDE * 0.97, SIDE * 0.20, 300.0],
                   [-SIDE * 0.15, -SIDE * 0.90, 330.0],
                   [0.0004, 0.0006, 1.0]])
BOARD = [(i, j, o) for i in range(-3, 4) for j in range(-1, 3) for o in "UD"]
FACES = [(0, 0, "U"), (0, 0, "D"), (1, 0, "U")]


def _drawn(cells: list[Cell], specks: int = 0, seed: int = 0) -> np.ndarray:
    """A grey photo of light tiles on ``cells`` with a dark digit at each spot (blurred
    a little), and ``specks`` digit-sized dark specks strewn over the table."""
    img = np.full((700, 800), 120, np.uint8)
    for c in cells:
        px = _project(H_TRUE, np.array([vertex_xy(v) for v in cell_corners(c)]))
        cv2.fillConvexPoly(img, px.round().astype(np.int32), 225)
    for p in _project(H_TRUE, digit_spots(cells).reshape(-1, 2)):
        cv2.ellipse(img, (int(p[0]), int(p[1])), (5, 7), 0, 0, 360, 40, -1)
    rng = np.random.default_rng(seed)
    for _ in range(specks):
        x, y = rng.uniform(20, 780), rng.uniform(20, 680)
        cv2.ellipse(img, (int(x), int(y)), (5, 7), 0, 0, 360, 40, -1)
    return cv2.GaussianBlur(img, (0, 0), 1.5)


def _faces_anchors() -> tuple[np.ndarray, np.ndarray]:
    vs = sorted({v for c in FACES for v in cell_corners(c)})
    src = np.array([vertex_xy(v) for v in vs], float)
    return src, _project(H_TRUE, src)


def _off_truth() -> np.ndarray:
    """A homography right at the faces and drifting away from them: a few % too big and
    turned 2 degrees about their middle, as one fitted to a few faces extrapolates."""
    c = _faces_anchors()[0].mean(axis=0)
    a, k = np.radians(3.0), 1.03
    t = np.array([[k * np.cos(a), -k * np.sin(a), 0], [k * np.sin(a), k * np.cos(a), 0],
                  [0, 0, 1.0]])
    move = np.array([[1, 0, c[0]], [0, 1, c[1]], [0, 0, 1.0]])
    return H_TRUE @ move @ t @ np.linalg.inv(move)


def _spot_error(h: np.ndarray, cells: list[Cell]) -> float:
    s = digit_spots(cells).reshape(-1, 2)
    return float(np.linalg.norm(_project(h, s) - _project(H_TRUE, s), axis=1).max()) / SIDE


def test_digit_spots_lie_on_the_lines_to_the_centre() -> None:
    (spots,) = digit_spots([(0, 0, "U")])
    vs = np.array([vertex_xy(v) for v in cell_corners((0, 0, "U"))])
    centre = vs.mean(axis=0)
    for v, s in zip(vs, spots, strict=True):
        # DIGIT_IN (0.36) of the tile's height from the corner, toward the centre
        assert np.linalg.norm(s - v) == pytest.approx(0.36 * np.sqrt(3) / 2)
        (dx, dy), (ex, ey) = s - v, centre - v
        assert dx * ey - dy * ex == pytest.approx(0.0, abs=1e-12)
    assert DIGIT_FRAC == pytest.approx(0.54)


def test_the_lattice_is_carried_to_the_far_tiles_by_their_digits() -> None:
    h0 = _off_truth()
    assert _spot_error(h0, FACES) < 0.1 < 0.25 < _spot_error(h0, BOARD)
    r = refit_to_digit_blobs(DEFAULT, h0, FACES, _faces_anchors(), _drawn(BOARD), SIDE)
    assert r is not None
    h, beyond = r
    assert _spot_error(h, BOARD) < 0.05
    assert set(beyond) == set(BOARD) - set(FACES)


def test_no_digits_past_the_faces_leave_the_lattice_as_it_was() -> None:
    h0 = _off_truth()
    # the faces alone (nothing to carry the lattice on), and then the table strewn with
    # specks of a digit's size where no tile lies: no cell shows three digits in place
    for specks in (0, 120):
        img = _drawn(FACES, specks=specks, seed=3)
        assert refit_to_digit_blobs(DEFAULT, h0, FACES, _faces_anchors(), img, SIDE) is None


def test_the_refit_needs_each_cell_s_three_digits_moved_alike() -> None:
    h0 = _off_truth()
    img = _drawn(BOARD)
    strict = DEFAULT.__class__(**{**DEFAULT.__dict__, "digit_refit_rigid": 0.0})
    assert refit_to_digit_blobs(strict, h0, FACES, _faces_anchors(), img, SIDE) is None


def _fit_on_faces(h: np.ndarray) -> object:
    from vision.fit import LatticeFit
    src, dst = _faces_anchors()
    vs = sorted({v for c in FACES for v in cell_corners(c)})
    return LatticeFit(triangles=[], cells={c: k for k, c in enumerate(FACES)},
                      vertex_px=dict(zip(vs, dst, strict=True)), homography=h, side=SIDE)


def test_the_fit_takes_the_refit_only_where_it_keeps_the_faces_in_place(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from vision import fit as fit_mod
    from vision import spots
    img = _drawn(BOARD)
    fit = _fit_on_faces(_off_truth())
    fit_mod._refit_to_digits(DEFAULT, fit, img)
    assert _spot_error(fit.homography, BOARD) < 0.05  # type: ignore[attr-defined]
    # a refit that mirrors the lattice, or moves it off the faces' own vertices, is not
    # taken (the faces fix the lattice where they lie)
    mirror = H_TRUE @ np.diag([-1.0, 1.0, 1.0])
    moved = np.array([[1, 0, 0.3 * SIDE], [0, 1, 0], [0, 0, 1.0]]) @ H_TRUE
    for bad in (mirror, moved):
        monkeypatch.setattr(spots, "refit_to_digit_blobs", lambda *a, h=bad: (h, BOARD))
        fit = _fit_on_faces(_off_truth())
        fit_mod._refit_to_digits(DEFAULT, fit, img)
        assert np.array_equal(fit.homography, _off_truth())  # type: ignore[attr-defined]


def test_blobs_found_around_the_faces_are_the_whole_photo_s_there() -> None:
    from vision.spots import digit_blobs
    img = _drawn(BOARD, specks=60, seed=5)
    ref = _project(H_TRUE, digit_spots(FACES).reshape(-1, 2))
    whole = digit_blobs(DEFAULT, img, SIDE, ref)
    box = (ref.min(axis=0) - 2.5 * SIDE, ref.max(axis=0) + 2.5 * SIDE)
    part = digit_blobs(DEFAULT, img, SIDE, ref, box)
    inner = ((whole >= box[0] + SIDE) & (whole <= box[1] - SIDE)).all(axis=1)
    assert inner.sum() >= 20 and len(part) < len(whole)
    got = {tuple(p) for p in part}
    assert all(tuple(p) in got for p in whole[inner])
    assert all(((p >= box[0] - 2) & (p <= box[1] + 2)).all() for p in part)


#: a board of 12 tiles, three sides across
SMALL = [(i, j, o) for i in range(-1, 2) for j in range(0, 2) for o in "UD"]


def _off_vertices(cells: list[Cell]) -> dict[tuple[int, int], np.ndarray]:
    """The cells' vertices as an outline's lattice puts them: 5 % too big about the
    board's first corner (a slanted view's side faces widen the outline) and moved a
    tenth of a side."""
    vs = sorted({v for c in cells for v in cell_corners(c)})
    xy = np.array([vertex_xy(v) for v in vs])
    o = xy.min(axis=0)
    off = _project(H_TRUE, o + 1.05 * (xy - o)) + np.array([0.06, 0.08]) * SIDE
    return dict(zip(vs, off, strict=True))


def _vertex_error(vpx: dict[tuple[int, int], np.ndarray]) -> np.ndarray:
    """Each vertex's distance from its true place, in tile sides."""
    return np.array([np.linalg.norm(p - _project(H_TRUE, np.array([vertex_xy(v)]))[0])
                     for v, p in vpx.items()]) / SIDE


def test_a_lattice_off_its_tiles_is_moved_onto_their_digits_cell_by_cell() -> None:
    cells = SMALL
    vpx = _off_vertices(cells)
    assert _vertex_error(vpx).mean() > 0.15
    # dark digits on light tiles, and light digits on dark tiles (the photo inverted)
    for img in (_drawn(cells), 255 - _drawn(cells)):
        out, moved = snap_to_digit_blobs(DEFAULT, cells, vpx, img, SIDE, 2)
        assert moved == len(cells)
        err = _vertex_error(out)
        # each cell moved as a whole: a vertex of one cell only keeps that cell's 5 % size
        assert err.max() < 0.04 and err.mean() < 0.02
        assert set(out) == set(vpx) and out is not vpx
    assert _vertex_error(vpx).mean() > 0.15  # the vertices given are left as they were


def test_a_lattice_is_moved_only_where_each_cell_shows_three_digits_moved_alike() -> None:
    cells = SMALL
    vpx = _off_vertices(cells)
    strict = DEFAULT.__class__(**{**DEFAULT.__dict__, "digit_refit_rigid": 0.0})
    tight = DEFAULT.__class__(**{**DEFAULT.__dict__, "digit_refit_gate": 0.05})
    # no digits on the tiles, only specks strewn over the table; digits, but the three of
    # a cell not moved exactly alike, or further than the gate; no round at all
    for cfg, img, rounds in ((DEFAULT, _drawn([], specks=60, seed=0), 2),
                             (strict, _drawn(cells), 2), (tight, _drawn(cells), 2),
                             (DEFAULT, _drawn(cells), 0)):
        out, moved = snap_to_digit_blobs(cfg, cells, vpx, img, SIDE, rounds)
        assert moved == 0
        assert all(np.array_equal(out[v], vpx[v]) for v in vpx)
