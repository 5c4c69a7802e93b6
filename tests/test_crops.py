"""Crop geometry (vision.crops): hand-drawn synthetic tiles with known digits."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.crops import (
    CROP_SIZE,
    DIGIT_IN,
    CropError,
    corner_crops,
    crop_centres,
)


def _glyph(digit: str, px: int) -> np.ndarray:
    """A white-on-black glyph of height ~px, upright, in a square patch of side 2*px."""
    scale = px / 22.0
    patch = np.zeros((2 * px, 2 * px), np.uint8)
    (w, h), _ = cv2.getTextSize(digit, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, px // 6))
    org = (px - w // 2, px + h // 2)
    cv2.putText(patch, digit, org, cv2.FONT_HERSHEY_SIMPLEX, scale, 255, max(1, px // 6),
                cv2.LINE_AA)
    return patch


def _draw_tile(img: np.ndarray, corners: np.ndarray, digits: str, inward: bool = True) -> None:
    """Draw a light tile with dark digits at DIGIT_IN of its height, turned with the tile.

    ``inward``: digit tops point at the tile centre (common editions); else at the corner.
    """
    cv2.fillPoly(img, [np.round(corners).astype(np.int32)], (200, 225, 235))
    side = float(np.linalg.norm(corners[1] - corners[0]))
    centroid = corners.mean(axis=0)
    for k, d in enumerate(digits):
        to_c = centroid - corners[k]
        u = to_c / np.linalg.norm(to_c)
        centre = corners[k] + DIGIT_IN * side * np.sqrt(3) / 2 * u
        px = max(4, int(round(side / 5)))
        g = _glyph(d, px)
        # Angle turning the glyph's "up" (0,-1) onto u (or -u for the other convention).
        up = u if inward else -u
        ang = np.degrees(np.arctan2(up[0], -up[1]))
        m = cv2.getRotationMatrix2D((px, px), -ang, 1.0)
        m[:, 2] += centre - px
        mask = cv2.warpAffine(g, m, (img.shape[1], img.shape[0])).astype(np.float32) / 255
        img[:] = (img * (1 - mask[..., None]) + 20 * mask[..., None]).astype(np.uint8)


def _upright(digit: str, side: float = 150.0) -> np.ndarray:
    """The reference: the digit on an unturned tile of the same size, its bottom-left corner

    (the one corner whose inward digit is drawn without any rotation)."""
    img = np.full((400, 400, 3), 255, np.uint8)
    tile = _up_tile(200, 200, side)
    _draw_tile(img, tile, digit * 3)
    return corner_crops(img, tile[None])[2]


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    """Normalised correlation of the crops' centres (the digit, not the tile outline)."""
    a, b = a[6:-6, 6:-6], b[6:-6, 6:-6]
    a = a.astype(np.float64) - a.mean()
    b = b.astype(np.float64) - b.mean()
    return float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum() + 1e-9))


def _up_tile(cx: float, cy: float, side: float, turn_deg: float = 0.0) -> np.ndarray:
    """Corners (apex first, clockwise on screen) of a tile centred at (cx, cy)."""
    r = side / np.sqrt(3)
    angles = np.radians([-90.0, 30.0, 150.0]) + np.radians(turn_deg)
    return np.stack([cx + r * np.cos(angles), cy + r * np.sin(angles)], axis=1)


@pytest.mark.parametrize("side", [60.0, 120.0, 240.0])
@pytest.mark.parametrize("turn", [0.0, 60.0, 180.0, 37.0])
def test_inward_digits_come_out_upright(side: float, turn: float) -> None:
    img = np.full((400, 400, 3), 255, np.uint8)
    corners = _up_tile(200, 200, side, turn)
    _draw_tile(img, corners, "253")
    crops = corner_crops(img, corners[None])
    assert crops.shape == (3, CROP_SIZE, CROP_SIZE) and crops.dtype == np.uint8
    refs = {d: _upright(d, side) for d in "012345"}
    for crop, digit in zip(crops, "253", strict=True):
        ok = _ncc(crop, refs[digit])
        # Upright beats upside-down and every other digit.
        assert ok > 0.5, (side, turn, digit, ok)
        assert ok > _ncc(crop, refs[digit][::-1, ::-1]) + 0.1
        for other in "0134" if side >= 100 else "":  # NCC is too crude for tiny glyphs
            if other != digit:
                assert ok > _ncc(crop, refs[other])


def test_outward_digits_come_out_upside_down() -> None:
    img = np.full((400, 400, 3), 255, np.uint8)
    corners = _up_tile(200, 200, 150, 20)
    _draw_tile(img, corners, "525", inward=False)
    for crop, digit in zip(corner_crops(img, corners[None]), "525", strict=True):
        ref = _upright(digit)
        assert _ncc(crop, ref[::-1, ::-1]) > _ncc(crop, ref) + 0.2


def test_down_tile_and_order_is_per_corner() -> None:
    """A down-pointing tile: crop k belongs to the corner given k-th, whatever the start."""
    img = np.full((400, 400, 3), 255, np.uint8)
    corners = _up_tile(200, 200, 150, 180)  # apex at the bottom
    _draw_tile(img, corners, "142")
    refs = {d: _upright(d) for d in "0123456"}
    for shift in range(3):
        cs = np.roll(corners, -shift, axis=0)
        crops = corner_crops(img, cs[None])
        for crop, digit in zip(crops, np.roll(list("142"), -shift), strict=True):
            best = max("012345", key=lambda d: _ncc(crop, refs[d]))
            assert best == digit


def test_oblique_view_is_rectified() -> None:
    """A tile squashed vertically (a ~50 deg oblique view) still gives upright digits."""
    img = np.full((400, 400, 3), 255, np.uint8)
    flat = _up_tile(200, 200, 200, 10)
    squash = np.array([[1.0, 0.0], [0.0, 0.6]])
    corners = (flat - 200) @ squash.T + 200
    big = np.full((400, 400, 3), 255, np.uint8)
    _draw_tile(big, flat, "351")
    m = np.hstack([squash, (200 - squash @ [200, 200])[:, None]])
    img = cv2.warpAffine(big, m, (400, 400), borderValue=(255, 255, 255))
    refs = {d: _upright(d) for d in "012345"}
    for crop, digit in zip(corner_crops(img, corners[None]), "351", strict=True):
        assert max("012345", key=lambda d: _ncc(crop, refs[d])) == digit
        assert _ncc(crop, refs[digit]) > 0.6


def test_centres_and_grey_input() -> None:
    corners = np.stack([_up_tile(100, 100, 60), _up_tile(250, 150, 90, 180)])
    cen = crop_centres(corners)
    assert cen.shape == (6, 2)
    for n in range(2):
        c = corners[n].mean(axis=0)
        side = np.linalg.norm(corners[n][1] - corners[n][0])
        for k in range(3):
            d = np.linalg.norm(cen[3 * n + k] - corners[n][k])
            assert d == pytest.approx(DIGIT_IN * side * np.sqrt(3) / 2, rel=1e-9)
            assert np.linalg.norm(cen[3 * n + k] - c) < np.linalg.norm(corners[n][k] - c)
    img = np.random.default_rng(0).integers(0, 256, (300, 300, 3), dtype=np.uint8)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    a, b = corner_crops(img, corners), corner_crops(grey, corners)
    assert a.shape == b.shape == (6, CROP_SIZE, CROP_SIZE)
    assert np.abs(a.astype(int) - b.astype(int)).max() <= 2
    assert corner_crops(img, np.zeros((0, 3, 2))).shape == (0, CROP_SIZE, CROP_SIZE)


@pytest.mark.parametrize("bad", [
    np.zeros((2, 3)),  # wrong shape
    np.array([[[0, 0], [10, 0], [20, 0]]], float),  # degenerate
    _up_tile(50, 50, 30)[::-1][None],  # anticlockwise: would mirror every digit
    np.full((1, 3, 2), np.nan),
])
def test_bad_corners_are_one_line_errors(bad: np.ndarray) -> None:
    with pytest.raises(CropError) as e:
        corner_crops(np.zeros((100, 100), np.uint8), bad)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("channels", [1, 3])
def test_many_tiles_match_cutting_them_in_chunks(channels: int) -> None:
    """700 tiles (2,100 crops) in one call: more than one remap can take at once
    (OpenCV's maps hold fewer than 32,767 rows, 511 crops) and many of the chunks the
    crops are sampled in, each into arrays kept from the call before, cut exactly as in
    calls of other sizes (one tile, 7, 100)."""
    rng = np.random.default_rng(5)
    img = rng.integers(0, 256, (600, 800, 3), dtype=np.uint8)
    img = cv2.GaussianBlur(img, (0, 0), 1.5)  # texture that interpolation must get right
    if channels == 1:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    corners = np.stack([_up_tile(x, y, s, t) for x, y, s, t in zip(
        rng.uniform(-20, 820, 700), rng.uniform(-20, 620, 700), rng.uniform(15, 120, 700),
        rng.uniform(0, 360, 700), strict=True)])
    crops = corner_crops(img, corners)
    assert crops.shape == (2100, CROP_SIZE, CROP_SIZE)
    for n in (100, 7, 1):
        parts = np.concatenate([corner_crops(img, corners[i:i + n]) for i in range(0, 700, n)])
        np.testing.assert_array_equal(crops, parts)
    assert crops.std() > 5  # real pixels, not a constant fill


def test_crops_cut_on_two_threads_at_once_are_those_cut_on_one() -> None:
    """Each thread samples into arrays of its own: two threads cutting at once (a server
    reading two photos) get what one thread gets."""
    import threading

    rng = np.random.default_rng(8)
    img = cv2.GaussianBlur(rng.integers(0, 256, (500, 700), dtype=np.uint8), (0, 0), 1.5)
    sets = [np.stack([_up_tile(x, y, s, t) for x, y, s, t in zip(
        rng.uniform(0, 700, 90), rng.uniform(0, 500, 90), rng.uniform(20, 90, 90),
        rng.uniform(0, 360, 90), strict=True)]) for _ in range(2)]
    want = [corner_crops(img, c) for c in sets]
    got: list[list[bool]] = [[], []]

    def cut(k: int) -> None:
        for _ in range(15):
            got[k].append(bool(np.array_equal(corner_crops(img, sets[k]), want[k])))

    threads = [threading.Thread(target=cut, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [[True] * 15, [True] * 15]
