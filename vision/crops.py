"""Corner-digit crops: the one place where the crop geometry is defined.

Training and inference both cut their crops here, so a model always sees at run time
exactly the geometry it was trained on; :data:`CROP_VERSION` is stored in the model's
metadata and checked by :mod:`vision.classifier`.

Geometry, in tile-relative units (tile side = 1, so it is the same from 20 px to 200 px
tiles). For each corner ``k`` of a tile:

* the crop is centred on the digit: :data:`DIGIT_IN` (0.36) of the tile's height in from
  the corner, along the line from the corner to the tile centre;
* it is a square of side :data:`CROP_SIDE` (0.30) tile sides, so a digit of height about a
  fifth of the side fills about two thirds of it, leaving room for a few % of corner error;
* it is turned so that "up" in the crop points from the corner to the tile centre: a digit
  printed with its top toward the tile centre (the common editions) is upright in the crop,
  one printed the other way round is upside down.

The three corners ``corner_px`` of a tile fix an affine map from the canonical
(equilateral) tile to the image, so an oblique view is rectified too: each crop is cut
with one affine warp from the full-resolution image (or, for tiles large enough, from a
half-size copy, the corners halved alike: :meth:`vision.io.Photo.crop_gray`). The crops
are sampled in one ``cv2.remap`` call per 64 crops (:data:`_CHUNK`) at twice
the output resolution and box-filtered down (anti-aliasing for large tiles). Coordinates are
``(x, y)`` image pixels throughout; corners are in the cell's corner order (clockwise
seen from above, apex first), as in Reading JSON.
"""

from __future__ import annotations

import threading

import cv2
import numpy as np

from engine.errors import TriominosError

#: Bump whenever anything below changes what a crop contains; models record it.
CROP_VERSION = 1
#: Output crop side in pixels (the model's input size).
CROP_SIZE = 32
#: Digit centre: this fraction of the tile height in from its corner.
DIGIT_IN = 0.36
#: Crop side in tile sides.
CROP_SIDE = 0.30
#: Supersampling factor before the box filter.
_SUPER = 2
#: Crops sampled in one ``cv2.remap`` call (OpenCV takes fewer than SHRT_MAX map rows, 511
#: crops): 64 crops' maps (2 MB) took 6.1 ms for 450 crops, 16 took 9.0 ms, 511 took 8.1
#: ms and fresh arrays for all at once 13 ms (the 12 MP sample's tiles, ad-hoc).
_CHUNK = 64
#: Each thread's map and sample arrays, kept between calls (see :func:`_work`).
_WORK = threading.local()

_SQRT3 = float(np.sqrt(3.0))
#: Canonical tile, side 1, centroid at the origin, seen from above with y pointing *down*
#: (image convention): apex at the top, then clockwise (bottom right, bottom left).
_CANON = np.array([[0.0, -1.0 / _SQRT3], [0.5, 0.5 / _SQRT3], [-0.5, 0.5 / _SQRT3]])


class CropError(TriominosError):
    """Corner coordinates that cannot be cropped (wrong shape, degenerate or mirrored tile)."""


def _tile_affines(corner_px: np.ndarray) -> np.ndarray:
    """(N, 2, 3) affine maps canonical tile coordinates -> image pixels, one per tile."""
    n = corner_px.shape[0]
    src = np.concatenate([_CANON, np.ones((3, 1))], axis=1)  # (3, 3)
    # Solve src @ M.T = dst for every tile at once: M.T = inv(src) @ dst.
    inv = np.linalg.inv(src)
    mt = np.einsum("ij,njk->nik", inv, corner_px)  # (N, 3, 2)
    return np.transpose(mt, (0, 2, 1)).reshape(n, 2, 3)


def crop_affines(corner_px: np.ndarray, size: int = CROP_SIZE,
                 supersample: int = 1) -> np.ndarray:
    """Affine maps from crop pixels to image pixels, one per tile corner.

    Parameters
    ----------
    corner_px : (N, 3, 2) array
        Top-face corners of N tiles in image pixels ``(x, y)``, in the cell's corner order.
    size : int
        Crop side in pixels.
    supersample : int
        The map is for a crop ``size * supersample`` pixels wide.

    Returns
    -------
    (N*3, 2, 3) float64 array ``A`` with ``image_xy = A @ [u + 0.5, v + 0.5, 1]`` for crop
    pixel ``(u, v)`` (column, row); crop ``3*n + k`` is corner ``k`` of tile ``n``.
    """
    pts = _check_corners(corner_px)
    n = pts.shape[0]
    tile = _tile_affines(pts)  # (N, 2, 3)
    r = 1.0 / _SQRT3  # corner-to-centroid distance
    up = -_CANON / r  # (3, 2): from each corner toward the centre, unit length
    right = np.stack([-up[:, 1], up[:, 0]], axis=1)  # up turned 90 deg clockwise on screen
    centre = _CANON + DIGIT_IN * (_SQRT3 / 2) * up  # digit centres, (3, 2)
    s = size * supersample
    step = CROP_SIDE / s  # tile units per crop pixel
    # Crop pixel (u, v) -> canonical point: centre + (u - s/2)*step*right - (v - s/2)*step*up
    # (pixel centres are at u + 0.5, hence the -s/2 on coordinates that already include it).
    lin = np.stack([right * step, -up * step], axis=2)  # (3, 2, 2): columns for u and v
    off = centre - (s / 2) * step * (right - up)  # (3, 2)
    crop_to_canon = np.concatenate([lin, off[:, :, None]], axis=2)  # (3, 2, 3)
    # Compose: image = tile_lin @ canon + tile_off.
    tl, to = tile[:, :, :2], tile[:, :, 2]
    a_lin = np.einsum("nij,kjl->nkil", tl, crop_to_canon[:, :, :2])
    a_off = np.einsum("nij,kj->nki", tl, crop_to_canon[:, :, 2]) + to[:, None, :]
    out = np.concatenate([a_lin, a_off[..., None]], axis=3)  # (N, 3, 2, 3)
    return out.reshape(n * 3, 2, 3)


def _check_corners(corner_px: np.ndarray) -> np.ndarray:
    pts = np.asarray(corner_px, dtype=np.float64)
    if pts.ndim != 3 or pts.shape[1:] != (3, 2):
        raise CropError(f"corner_px must have shape (N, 3, 2), got {pts.shape}")
    if not np.all(np.isfinite(pts)):
        raise CropError("corner_px contains NaN or infinite coordinates")
    if len(pts):
        a, b, c = pts[:, 0], pts[:, 1], pts[:, 2]
        # Signed area in image coordinates (y down): clockwise on screen is positive.
        area = 0.5 * ((b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1])
                      - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0]))
        bad = np.flatnonzero(area <= 0.5)
        if len(bad):
            raise CropError(
                f"tile {int(bad[0])}: corners are degenerate or not clockwise on screen "
                f"(signed area {area[bad[0]]:.2f} px^2); a mirrored view would mirror digits")
    return pts


def _work(s: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """This thread's arrays for a chunk of :data:`_CHUNK` crops sampled ``s`` px a side:
    the x and y maps (float32, (_CHUNK, s, s)) and the samples (uint8, (_CHUNK * s, s)),
    made once and kept: memory written again costs no page faults."""
    got = getattr(_WORK, "arrays", None)
    if got is None or got[0].shape[1] != s:
        got = (np.empty((_CHUNK, s, s), np.float32), np.empty((_CHUNK, s, s), np.float32),
               np.empty((_CHUNK * s, s), np.uint8))
        _WORK.arrays = got
    return got


def corner_crops(image: np.ndarray, corner_px: np.ndarray, size: int = CROP_SIZE) -> np.ndarray:
    """Cut one digit crop per tile corner, turned so inward-topped digits are upright.

    Parameters
    ----------
    image : (H, W) or (H, W, 3) uint8 array
        The full-resolution photo (grey or BGR). Pass a downscaled copy (its corners
        scaled alike) only for tiles large enough that a crop loses nothing by it
        (:meth:`vision.io.Photo.crop_gray`): at small tile sizes every pixel counts.
    corner_px : (N, 3, 2) array
        Top-face corners of N tiles in image pixels ``(x, y)``, in the cell's corner order
        (clockwise as seen on screen, apex first). Any start corner works as long as the
        order is clockwise: crop ``k`` always belongs to the corner given ``k``-th.
    size : int
        Output side in pixels (the classifier expects :data:`CROP_SIZE`).

    Returns
    -------
    (N*3, size, size) uint8 array of grey crops; crop ``3*n + k`` is corner ``k`` of tile
    ``n``. Pixels outside the image are filled by edge replication.

    Raises
    ------
    CropError
        ``corner_px`` has the wrong shape, non-finite values, or a degenerate or
        anticlockwise (mirrored) tile.
    """
    img = np.asarray(image)
    if img.ndim not in (2, 3) or (img.ndim == 3 and img.shape[2] not in (1, 3)):
        raise CropError(f"image must be (H, W) grey or (H, W, 3) BGR, got shape {img.shape}")
    if img.dtype != np.uint8:
        raise CropError(f"image must be uint8, got {img.dtype}")
    aff = crop_affines(corner_px, size, _SUPER)
    m = aff.shape[0]
    if m == 0:
        return np.zeros((0, size, size), np.uint8)
    s = size * _SUPER
    a = aff.astype(np.float32)
    g = np.arange(s, dtype=np.float32) + 0.5
    u, v = g[None, None, :], g[None, :, None]
    out = np.empty((m, size, size), np.uint8)
    mxs, mys, bigs = _work(s)
    # a chunk of crops at a time, stacked into a tall map, its arrays kept from call to call:
    # fresh arrays for every crop at once (OpenCV takes up to 511 in one remap) cost twice
    # the time, most of it the new memory's page faults. Every crop is cut on its own, so
    # chunking changes nothing.
    for i in range(0, m, _CHUNK):
        c = a[i:i + _CHUNK]
        k = len(c)
        mx, my = mxs[:k], mys[:k]
        # (k, s, s) sample positions; -0.5 because OpenCV puts pixel centres at integers.
        np.add(c[:, 0, 0, None, None] * u, c[:, 0, 1, None, None] * v, out=mx)
        mx += c[:, 0, 2, None, None] - 0.5
        np.add(c[:, 1, 0, None, None] * u, c[:, 1, 1, None, None] * v, out=my)
        my += c[:, 1, 2, None, None] - 0.5
        if img.ndim == 3:
            big = cv2.remap(img, mx.reshape(k * s, s), my.reshape(k * s, s),
                            interpolation=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            big = cv2.cvtColor(big, cv2.COLOR_BGR2GRAY) if big.shape[2] == 3 else big[:, :, 0]
        else:
            big = cv2.remap(img, mx.reshape(k * s, s), my.reshape(k * s, s), dst=bigs[:k * s],
                            interpolation=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        # Box filter down by _SUPER (INTER_AREA at an integer factor is exactly that).
        small = cv2.resize(big, (size, k * size), interpolation=cv2.INTER_AREA)
        out[i:i + k] = small.reshape(k, size, size)
    return out


def crop_centres(corner_px: np.ndarray) -> np.ndarray:
    """Image position ``(x, y)`` of each crop's centre (the expected digit centre).

    Returns (N*3, 2) float64, same order as :func:`corner_crops`. Useful for overlays.
    """
    aff = crop_affines(corner_px, 1, 1)
    return aff[:, :, 0] * 0.5 + aff[:, :, 1] * 0.5 + aff[:, :, 2]
