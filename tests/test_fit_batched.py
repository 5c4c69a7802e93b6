"""The reader's work done for many faces in one call gives what it gives face by face.

These helpers exist for speed only (a 12 MP read's time target): each must answer exactly
as the one-at-a-time form it replaced, so that a faster read reads the same.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.lattice import cell_corners, vertex_xy
from vision.config import DEFAULT
from vision.detect import edge_map, find_triangles, magnitude, median_gradient
from vision.fit import (
    EdgeField,
    LatticeFit,
    _aligned,
    _aligned_cell,
    _join_graph,
    _kept_joins,
    edge_support,
)
from vision.spots import project


def _homography() -> np.ndarray:
    """A board seen at a slant: table units -> px, some perspective."""
    return np.array([[60.0, 8.0, 200.0], [-5.0, 48.0, 150.0], [0.0004, 0.0012, 1.0]])


def test_faces_are_put_on_their_cells_in_one_call_as_one_by_one() -> None:
    h = _homography()
    cells = [(i, j, k) for i in range(-2, 3) for j in range(-1, 2) for k in ("U", "D")]
    rng = np.random.default_rng(5)
    faces = np.array([project(h, np.array([vertex_xy(v) for v in cell_corners(c)]))
                      for c in cells])
    # corners a little off, one face turned (its corners start elsewhere), one far off
    faces = faces + rng.normal(0, 2.0, faces.shape)
    faces[3] = faces[3][[1, 2, 0]]
    faces[5] += 25.0
    hinv = np.linalg.inv(h)
    rv, err = _aligned(hinv, faces)
    fit = LatticeFit(triangles=[], homography=h)
    for k, c in enumerate(cells):
        cell, vs, e = _aligned_cell(fit, hinv, faces[k])
        assert vs == tuple(map(tuple, rv[k].tolist()))
        assert e == err[k]
        if k != 5:
            assert cell == c and e < 0.1  # turned or not, the face is its cell's
    assert err[5] > 0.2
    empty_rv, empty_err = _aligned(hinv, np.zeros((0, 3, 2)))
    assert empty_rv.shape == (0, 3, 2) and empty_err.shape == (0,)


def _drawn_faces() -> tuple[np.ndarray, list[np.ndarray]]:
    """A grey image with light triangles on a dark table, and outlines on and off them."""
    img = np.full((240, 320), 40, np.uint8)
    tris = [np.array([[40.0, 40.0], [110.0, 60.0], [60.0, 120.0]]),
            np.array([[180.0, 50.0], [260.0, 70.0], [200.0, 150.0]]),
            np.array([[90.0, 160.0], [160.0, 170.0], [120.0, 225.0]])]
    for t in tris:
        cv2.fillPoly(img, [t.round().astype(np.int32)], 200)
    outlines = [t[[0, 2, 1]] for t in tris] + [tris[0] + 6.0, tris[1] + [0.0, 30.0],
                                               np.array([[290.0, 200.0], [350.0, 210.0],
                                                         [300.0, 260.0]])]  # past the edge
    return img, outlines


def test_outlines_are_judged_by_the_edges_in_one_call_as_one_by_one() -> None:
    img, outlines = _drawn_faces()
    ef = EdgeField.of(img, edge_map(DEFAULT, img))
    sup, vis = edge_support(ef, np.array(outlines), 3.0)
    assert sup.shape == vis.shape == (len(outlines), 3)
    for k, pts in enumerate(outlines):
        s1, v1 = edge_support(ef, pts, 3.0)
        assert np.array_equal(s1, sup[k]) and np.array_equal(v1, vis[k])
    assert sup[:3].min() >= 0.7 and sup[3:].max() == 0.0  # only the drawn faces are outlined
    assert vis[:5].min() == 1.0 and vis[5].max() < 1.0  # the last lies past the edge


def test_the_joins_of_the_faces_kept_are_those_found_among_them_alone() -> None:
    from benchmarks.eval_reader import SIZE, _style
    from vision.synth import render
    seed = 71_000_002
    gray = cv2.cvtColor(render(seed, size=SIZE, style=_style(seed)).image, cv2.COLOR_BGR2GRAY)
    tris = find_triangles(DEFAULT, gray, edge_map(DEFAULT, gray))
    graph = _join_graph(DEFAULT, tris)
    assert sum(len(v) for v in graph.values()) >= 20  # a board's faces, joined
    for keep in ([i for i in range(len(tris)) if i % 3], list(range(len(tris))),
                 list(range(0, len(tris), 2)), [0]):
        assert _kept_joins(graph, keep) == _join_graph(DEFAULT, [tris[i] for i in keep])


def test_which_corners_are_in_view_is_answered_for_all_tiles_at_once_as_one_by_one() -> None:
    from vision.io import from_array
    from vision.pipeline import _visible, _visible_each
    photo = from_array(DEFAULT, np.zeros((300, 400, 3), np.uint8))
    rng = np.random.default_rng(9)
    pxs = [rng.uniform(-60, 460, (3, 2)) for _ in range(40)]
    each = _visible_each(DEFAULT, pxs, 50.0, photo)
    assert each.shape == (40, 3) and 0 < each.sum() < 120
    for k, px in enumerate(pxs):
        assert np.array_equal(each[k], _visible(DEFAULT, px, 50.0, 400, 300))
    assert _visible_each(DEFAULT, [], 50.0, photo).shape == (0, 3)


def test_points_on_a_cell_are_found_in_one_call_as_one_by_one() -> None:
    from vision.detect import points_inside
    rng = np.random.default_rng(3)
    tri = np.array([[100.0, 50.0], [180.0, 160.0], [30.0, 150.0]])
    # a cell, and a board's outline (not convex)
    outline = np.array([[20.0, 20.0], [200.0, 20.0], [200.0, 200.0], [110.0, 90.0],
                        [20.0, 200.0]])
    pts = list(rng.uniform(0, 220, (300, 2))) + [tri[0], (tri[0] + tri[1]) / 2]
    for poly in (tri, outline):
        c = poly.astype(np.float32).reshape(-1, 1, 2)
        want = [k for k, p in enumerate(pts)  # OpenCV's test of each point, edges included
                if cv2.pointPolygonTest(c, (float(p[0]), float(p[1])), False) >= 0]
        assert points_inside(pts, poly) == points_inside(np.array(pts), poly) == want
        assert 20 < len(want) < 250
    assert len(pts) - 2 in points_inside(pts, tri)  # on its edge
    assert points_inside([], tri) == [] and points_inside(np.zeros((0, 2)), tri) == []


def test_the_step_across_a_faces_sides_is_measured_in_one_gather_as_pixel_by_pixel() -> None:
    from vision.loose import boundary_contrast
    rng = np.random.default_rng(4)
    tri = np.array([[60.0, 30.0], [140.0, 150.0], [20.0, 120.0]])

    def each(image: np.ndarray) -> float:  # the 3x3 means taken window pixel by pixel
        px, c = tri, tri.mean(axis=0)
        t = np.linspace(0.15, 0.85, 15)[:, None]
        ins, outs = [], []
        for k in range(3):
            a, b = px[k], px[(k + 1) % 3]
            n = np.array([b[1] - a[1], a[0] - b[0]]) / np.linalg.norm(b - a)
            n = n if np.dot(n, (a + b) / 2 - c) >= 0 else -n
            ins.append(a + (b - a) * t - n * 0.08 * 90)
            outs.append(a + (b - a) * t + n * 0.08 * 90)

        def grey(p: np.ndarray) -> np.ndarray:
            acc = np.zeros(len(p))
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    acc += image[p[:, 1] + dy, p[:, 0] + dx].reshape(len(p), -1).mean(axis=1)
            return acc / 9.0
        pi = np.round(np.concatenate(ins)).astype(int)
        po = np.round(np.concatenate(outs)).astype(int)
        return float(np.median(np.abs(grey(pi) - grey(po))))

    for shape in ((180, 200), (180, 200, 3)):
        img = rng.integers(0, 256, shape).astype(np.uint8)
        cv2.fillPoly(img, [tri.round().astype(np.int32)], (230, 230, 230))
        assert boundary_contrast(img, tri, 90.0) == each(img) > 20


def test_regions_seen_at_several_levels_are_kept_once_as_against_every_region_kept() -> None:
    from vision.silhouette import _outlines
    rng = np.random.default_rng(6)
    h, w = 300, 400
    masks = []
    for _ in range(8):  # the same blobs, a pixel or two bigger or moved at each level
        m = np.zeros((h, w), np.uint8)
        for k in range(12):
            x, y = 30 + (k % 4) * 90, 40 + (k // 4) * 90
            d = int(rng.integers(-2, 3))
            cv2.rectangle(m, (x + d, y + d), (x + 40 + 2 * d, y + 45 + d), 1, -1)
        masks.append(m > 0)
    got = _outlines(DEFAULT, masks, (h, w))
    boxes: list[np.ndarray] = []
    want = []
    for m in masks:  # the test against every region kept so far, as it was written first
        cs = cv2.findContours(cv2.morphologyEx(cv2.morphologyEx(
            m.astype(np.uint8) * 255, cv2.MORPH_CLOSE,
            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))), cv2.MORPH_OPEN,
            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))),
            cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0]
        for c in cs:
            a = cv2.contourArea(c)
            if len(c) < 40 or a < DEFAULT.silhouette_min_cells * DEFAULT.min_side ** 2 * 0.433:
                continue
            box = np.array([*cv2.boundingRect(c), a])
            if any((np.abs(b - box)[:4] < [4, 4, 6, 6]).all() and abs(b[4] - a) < 0.05 * a
                   for b in boxes):
                continue
            boxes.append(box)
            want.append(c.reshape(-1, 2))
    assert 12 <= len(got) == len(want) < 8 * 12
    assert all(np.array_equal(g, x) for g, x in zip(got, want, strict=True))


def test_faces_found_twice_are_merged_as_against_every_face_kept() -> None:
    from vision.detect import Triangle, _dedupe
    rng = np.random.default_rng(8)
    base = np.array([[0.0, 0.0], [30.0, 0.0], [15.0, 26.0]])
    cands = [Triangle(base * rng.uniform(0.5, 2.0) + rng.uniform(0, 300, 2),
                      float(rng.uniform(0.7, 1.0))) for _ in range(400)]
    cands += [Triangle(t.pts + rng.normal(0, 2.0, (3, 2)), t.fill * 0.99)  # seen again
              for t in cands[:150]]
    want = sorted(cands, key=lambda t: -t.fill)  # the test against every face kept
    cen = np.array([t.pts for t in want]).mean(axis=1)
    side = np.array([t.side for t in want])
    kept: list[int] = []
    for n in range(len(want)):
        k = np.array(kept, int)
        d = np.linalg.norm(cen[k] - cen[n], axis=1)
        ratio = side[n] / side[k]
        if not np.any((d < DEFAULT.dedupe_frac * np.minimum(side[k], side[n]))
                      & (ratio > 0.7) & (ratio < 1.4)):
            kept.append(n)
    got = _dedupe(DEFAULT, list(cands))
    assert [id(t) for t in got] == [id(want[n]) for n in kept]
    assert 150 < len(got) < 500


def _face_stats_as_written_first(pc: np.ndarray, ii: np.ndarray
                                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The silhouette search's face statistics as first written: numpy's reductions, the
    median, and every box mean by four lookups of the summed image."""
    def box(p: np.ndarray, r: float) -> np.ndarray:
        hh, ww = ii.shape[0] - 1, ii.shape[1] - 1
        rr = max(1, int(round(r)))
        xc, yc = np.round(p[:, 0]).astype(int), np.round(p[:, 1]).astype(int)
        x0, x1 = np.clip(xc - rr, 0, ww), np.clip(xc + rr + 1, 0, ww)
        y0, y1 = np.clip(yc - rr, 0, hh), np.clip(yc + rr + 1, 0, hh)
        area = np.maximum((x1 - x0) * (y1 - y0), 1)
        return (ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]) / area

    n = len(pc)
    cen = pc.mean(axis=1, keepdims=True)
    mids = (pc + pc[:, [1, 2, 0]]) / 2
    pd = (pc + 0.54 * (cen - pc)).reshape(-1, 2)
    pp = (cen + 0.6 * (mids - cen)).reshape(-1, 2)
    side = float(np.linalg.norm(pc - pc[:, [1, 2, 0]], axis=2).mean())
    r = max(1.5, 0.07 * side)
    md, mp = box(pd, r).reshape(n, 3), box(pp, r).reshape(n, 3)
    tone = np.median(mp, axis=1)
    return (tone, np.abs(md - tone[:, None]).mean(axis=1),
            np.abs(mp - tone[:, None]).mean(axis=1), side)


def test_face_statistics_are_those_of_numpys_reductions_and_of_box_by_box_lookups() -> None:
    from vision.silhouette import _Detail, _face_stats
    rng = np.random.default_rng(9)
    tri = np.array([[0.0, -0.577], [0.5, 0.289], [-0.5, 0.289]])
    tables = 0
    for h, w in ((61, 97), (240, 320)):
        detail = _Detail(rng.integers(0, 256, (h, w)).astype(np.uint8))
        ii = detail.at(0.0)
        for k in range(14):
            # faces of one size over and well beyond the image (a lattice runs past it),
            # asked for again and again as the search asks: the box means come from a
            # table of them all after a few calls
            n = int(rng.integers(50, 3000))
            centres = rng.random((n, 1, 2)) * [1.6 * w, 1.6 * h] - [0.3 * w, 0.3 * h]
            pc = centres + tri[None] * (20.0 + (k % 3)) * rng.uniform(0.97, 1.03)
            if k % 2:
                pc = pc.round() + 0.5  # halfway points: rounding ties
            got = _face_stats(pc, detail)
            want = _face_stats_as_written_first(pc, ii)
            assert all(np.array_equal(g, x) for g, x in zip(got[:3], want[:3], strict=True))
            assert got[3] == want[3]
        tables += len(detail._tables)
    # both ways of reading box means compared: the first calls read them box by box
    assert tables >= 1


def test_the_cells_in_a_region_are_those_counted_cell_by_cell() -> None:
    from vision.silhouette import _cells_in
    rng = np.random.default_rng(10)
    for _ in range(30):
        h, w = (int(v) for v in rng.integers(120, 500, 2))
        mask = np.zeros((h, w), np.uint8)
        pts = (rng.random((6, 2)) * [w, h]).astype(np.int32)
        cv2.fillPoly(mask, [cv2.convexHull(pts)], 255)
        bbox = cv2.boundingRect(pts)
        s, a = rng.uniform(10, 50), rng.uniform(0, np.pi)
        hom = np.array([[s * np.cos(a), -s * np.sin(a), rng.uniform(0, w)],
                        [s * np.sin(a), s * np.cos(a), rng.uniform(0, h)],
                        [rng.uniform(-1e-4, 1e-4), rng.uniform(-1e-4, 1e-4), 1.0]])
        inner, edge = _cells_in(hom, mask, bbox)
        # cell by cell: the share of its samples in the region (as written first)
        hinv = np.linalg.inv(hom)
        x, y, bw, bh = bbox
        m = max(bw, bh) // 8 + 4
        st = int(np.clip(np.linalg.norm(project(hom, np.array([[1.0, 0]]))[0]
                                        - project(hom, np.array([[0.0, 0]]))[0]) / 7, 2, 12))
        gx, gy = np.meshgrid(np.arange(max(0, x - m), min(w, x + bw + m), st),
                             np.arange(max(0, y - m), min(h, y + bh + m), st))
        q = np.stack([gx.ravel(), gy.ravel(), np.ones(gx.size)], axis=1) @ hinv.T
        jj = q[:, 1] / q[:, 2] / (np.sqrt(3.0) / 2)
        ii_ = q[:, 0] / q[:, 2] - jj / 2
        fi, fj = np.floor(ii_), np.floor(jj)
        up = (ii_ - fi) + (jj - fj) < 1
        inm = mask[gy, gx].ravel() > 0
        cells: dict[tuple[int, int, str], list[int]] = {}
        for a_, b_, u, k in zip(fi.astype(int), fj.astype(int), up, inm, strict=True):
            c = cells.setdefault((int(a_), int(b_), "U" if u else "D"), [0, 0])
            c[0] += 1
            c[1] += int(k)
        full = float(np.median([c[0] for c in cells.values()]))
        want_in, want_edge = [], []
        for cell in sorted(cells, key=lambda c: (c[0], c[1], c[2] == "U")):
            n_all, n_in = cells[cell]
            if n_in < max(0.3 * full, 1):
                continue
            mostly = n_in / max(n_all, 0.5 * full) >= 0.75 and n_all >= 0.6 * full
            (want_in if mostly else want_edge).append(cell)
        assert (inner, edge) == (want_in, want_edge)


def test_side_lengths_in_plain_floats_are_numpys_to_the_last_bit() -> None:
    from vision.detect import mean_side, side_lengths
    from vision.fit import _plausible

    rng = np.random.default_rng(7)
    for scale in (0.01, 1.0, 60.0, 4000.0):
        for pts in rng.normal(0.0, scale, (2000, 3, 2)):
            want = np.linalg.norm(pts - pts[[1, 2, 0]], axis=1)
            assert list(side_lengths(pts)) == want.tolist()
            assert mean_side(pts) == float(want.mean())
            assert _plausible(pts, scale) == (bool(want.min() >= 0.6 * scale)
                                              and bool(want.max() <= 1.8 * scale))
    # other dtypes keep numpy's own precision
    p32 = rng.normal(0.0, 500.0, (3, 2)).astype(np.float32)
    assert mean_side(p32) == float(np.linalg.norm(p32 - p32[[1, 2, 0]], axis=1).mean())


def _whole_gradients(g: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the reader once worked out over the whole image: the 3x3 Sobel gradients and
    their magnitude (float32)."""
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    return gx, gy, cv2.magnitude(gx, gy)


def test_gradient_directions_worked_out_where_asked_are_the_whole_images() -> None:
    rng = np.random.default_rng(21)
    for h, w in ((480, 640), (57, 31), (1008, 1344)):
        img = cv2.GaussianBlur(rng.integers(0, 256, (h, w), dtype=np.uint8), (0, 0), 1.2)
        gx, gy, mag = _whole_gradients(cv2.GaussianBlur(img, (3, 3), 0))
        mag += np.float32(1e-6)
        ef = EdgeField.of(img, edge_map(DEFAULT, img))
        yi, xi = rng.integers(0, h, (40, 10, 7)), rng.integers(0, w, (40, 10, 7))
        yi[:, 0], xi[:, 1], yi[:, 2], xi[:, 3] = 0, 0, h - 1, w - 1  # the borders too
        nx, ny = ef.direction(yi, xi)
        assert nx.shape == yi.shape and nx.dtype == np.float32
        # the same to the last bit or two (cv2.magnitude's square roots round otherwise)
        np.testing.assert_allclose(nx, gx[yi, xi] / mag[yi, xi], rtol=3e-7, atol=1e-9)
        np.testing.assert_allclose(ny, gy[yi, xi] / mag[yi, xi], rtol=3e-7, atol=1e-9)
        assert np.abs(nx).max() > 0.5  # real directions, not a constant
    none = ef.direction(np.zeros((0, 4), int), np.zeros((0, 4), int))
    assert none[0].shape == (0, 4)


def test_the_median_gradient_of_every_third_pixel_is_the_whole_images() -> None:
    rng = np.random.default_rng(22)
    for h, w in ((768, 1024), (1008, 1344), (100, 37), (5, 8)):
        g = cv2.GaussianBlur(rng.integers(0, 256, (h, w), dtype=np.uint8), (0, 0), 2.0)
        want = float(np.median(_whole_gradients(g)[2][::3, ::3]))
        assert median_gradient(g) == pytest.approx(want, rel=1e-6)
        assert want > 1.0


def test_gradient_magnitudes_are_rounded_once_wherever_the_arrays_lie() -> None:
    # Sobel sums are integers: their squares' sums are exact in float32, so a magnitude
    # rounded once is the float64 root rounded to float32, at every address in memory
    # (cv2.magnitude's vector code rounds some otherwise, which ones depending on the
    # arrays' alignment: one photo read twice in a process read two ways)
    rng = np.random.default_rng(23)
    gx0 = rng.integers(-1020, 1021, (61, 67)).astype(np.float32)
    gy0 = rng.integers(-1020, 1021, (61, 67)).astype(np.float32)
    want = np.sqrt(gx0.astype(np.float64) ** 2 + gy0.astype(np.float64) ** 2).astype(np.float32)
    for off in range(16):  # the same values copied to 16 alignments of one buffer
        bx, by = np.empty(gx0.size + 16, np.float32), np.empty(gx0.size + 16, np.float32)
        gx = bx[off:off + gx0.size].reshape(gx0.shape)
        gy = by[off:off + gy0.size].reshape(gy0.shape)
        gx[:], gy[:] = gx0, gy0
        assert np.array_equal(magnitude(gx, gy), want)
    # the reader's two users: the median gradient and the edges' directions
    g = cv2.GaussianBlur(rng.integers(0, 256, (120, 150), dtype=np.uint8), (0, 0), 1.5)
    p = cv2.copyMakeBorder(g, 1, 1, 1, 1, cv2.BORDER_REFLECT_101)
    sx = cv2.Sobel(p, cv2.CV_64F, 1, 0, ksize=3)[1:-1, 1:-1]
    sy = cv2.Sobel(p, cv2.CV_64F, 0, 1, ksize=3)[1:-1, 1:-1]
    exact = np.sqrt(sx ** 2 + sy ** 2).astype(np.float32)
    assert median_gradient(g) == float(np.median(exact[::3, ::3]))
    ef = EdgeField.of(g, np.zeros_like(g))
    yi, xi = np.mgrid[0:120, 0:150]
    nx, _ = ef.direction(yi, xi)
    s = cv2.GaussianBlur(g, (3, 3), 0)
    ps = cv2.copyMakeBorder(s, 1, 1, 1, 1, cv2.BORDER_REFLECT_101)
    gxs = cv2.Sobel(ps, cv2.CV_64F, 1, 0, ksize=3)[1:-1, 1:-1].astype(np.float32)
    gys = cv2.Sobel(ps, cv2.CV_64F, 0, 1, ksize=3)[1:-1, 1:-1].astype(np.float32)
    m = np.sqrt(gxs.astype(np.float64) ** 2 + gys.astype(np.float64) ** 2).astype(np.float32)
    assert np.array_equal(nx, gxs / (m + np.float32(1e-6)))
