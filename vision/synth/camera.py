"""The camera: a pinhole looking at the table, and the photo's degradations.

Table frame: x right, y up (the lattice of DESIGN.md, tile side = 1 unit), z up out of the
table. Image frame: OpenCV pixels, x right, y down, the centre of pixel (0, 0) at (0, 0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np


def _rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


@dataclass
class Camera:
    """Pinhole camera: image = K (R X + t) for table points X (3-vectors, table units)."""

    K: np.ndarray
    R: np.ndarray
    t: np.ndarray
    width: int
    height: int

    @property
    def P(self) -> np.ndarray:
        """The 3x4 projection matrix."""
        return self.K @ np.hstack([self.R, self.t[:, None]])

    @property
    def centre(self) -> np.ndarray:
        """The camera centre in table units."""
        return -self.R.T @ self.t

    def project(self, pts: np.ndarray) -> np.ndarray:
        """(N, 3) table points -> (N, 2) image pixels."""
        p = np.asarray(pts, float).reshape(-1, 3)
        q = (self.P @ np.hstack([p, np.ones((len(p), 1))]).T).T
        return q[:, :2] / q[:, 2:3]

    def depth(self, pts: np.ndarray) -> np.ndarray:
        """(N, 3) table points -> (N,) distance along the optical axis."""
        p = np.asarray(pts, float).reshape(-1, 3)
        return (self.R @ p.T).T[:, 2] + self.t[2]

    def plane_homography(self, origin: np.ndarray, ex: np.ndarray, ey: np.ndarray
                         ) -> np.ndarray:
        """3x3 H mapping plane coords (u, v, 1) of X = origin + u ex + v ey to the image."""
        m = np.column_stack([ex, ey, origin])
        return self.P[:, :3] @ m + np.outer(self.P[:, 3], [0, 0, 1])

    def ground_homography(self, z: float = 0.0) -> np.ndarray:
        """3x3 H mapping table (x, y, 1) at height ``z`` to the image."""
        return self.plane_homography(np.array([0, 0, z]), np.array([1.0, 0, 0]),
                                     np.array([0, 1.0, 0]))


def make_camera(width: int, height: int, target: np.ndarray, tilt_deg: float,
                rotation_deg: float, roll_deg: float, fov_deg: float, tile_px: float
                ) -> Camera:
    """A camera centred on table point ``target`` seeing tiles about ``tile_px`` px a side.

    ``tilt_deg`` is the angle between the optical axis and the table's normal (0 = straight
    down), ``rotation_deg`` turns the table under the camera, ``roll_deg`` turns the camera
    about its axis, ``fov_deg`` is the horizontal field of view of the longer side.
    """
    f = 0.5 * max(width, height) / math.tan(math.radians(fov_deg) / 2)
    K = np.array([[f, 0, (width - 1) / 2], [0, f, (height - 1) / 2], [0, 0, 1]])
    dist = f / tile_px
    # straight down: table x -> image x, table y -> image -y, table z -> toward the camera
    r0 = np.diag([1.0, -1.0, -1.0])
    # tilting by -tilt puts the camera on the table's -y side (before the table turn), so
    # the near edge of the table is at the bottom of the photo, as a phone held upright sees
    R = _rot_z(math.radians(roll_deg)) @ _rot_x(-math.radians(tilt_deg)) @ r0 @ _rot_z(
        math.radians(rotation_deg))
    t = np.array([0, 0, dist]) - R @ np.asarray(target, float)
    return Camera(K, R, t, width, height)


# --------------------------------------------------------------------------------------
# photometric degradations (float32 BGR images, 0..255)


_LIGHT_TINT: dict[str, tuple[float, float, float]] = {
    # BGR gains of the illuminant before white balance does its (imperfect) job
    "daylight": (1.0, 1.0, 1.0), "warm_lamp": (0.86, 0.97, 1.07),
    "fluorescent": (1.0, 1.02, 0.97), "overcast": (1.04, 1.0, 0.97), "flash": (1.0, 1.0, 1.0),
}


def soft_blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur that stays fast for large ``sigma``: blur a downscaled copy."""
    if sigma <= 4.0:
        return cv2.GaussianBlur(img, (0, 0), max(sigma, 0.1))
    k = sigma / 2.0
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(2, int(w / k)), max(2, int(h / k))),
                       interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 2.0)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _field(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Smooth random field in 0..1 of ``shape`` (rows, cols)."""
    g = rng.random((cells, cells)).astype(np.float32)
    return cv2.resize(g, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def light_and_lens(img: np.ndarray, style: dict[str, Any], rng: np.random.Generator) -> None:
    """In place: uneven light, a soft big shadow, glare, colour cast, vignetting."""
    h, w = img.shape[:2]
    sh, sw = max(8, h // 8), max(8, w // 8)
    gain = np.ones((sh, sw), np.float32)
    un = float(style["uneven_light"])
    if un > 0:
        gain *= 1.0 - un * _field(rng, (sh, sw), 3) + un * 0.3
    if style["big_shadow"]:
        # the photographer's / a lamp's shadow: a soft dark blob across part of the frame
        mask = np.zeros((sh, sw), np.float32)
        c = (int(rng.uniform(0, sw)), int(rng.uniform(0, sh)))
        ax = (int(rng.uniform(0.2, 0.5) * sw), int(rng.uniform(0.2, 0.5) * sh))
        cv2.ellipse(mask, c, ax, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), 0.08 * max(sw, sh))
        gain *= 1.0 - 0.45 * mask
    v = float(style["vignette"])
    if v > 0:
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
        r2 = ((xx - sw / 2) / (sw / 2)) ** 2 + ((yy - sh / 2) / (sh / 2)) ** 2
        gain *= 1.0 - v * np.clip(r2 / 2, 0, 1) ** 1.5
    add = np.zeros((sh, sw), np.float32)
    gl = float(style["glare"])
    if gl > 0:
        for _ in range(int(rng.integers(1, 3))):
            c = np.array([rng.uniform(0.1, 0.9) * sw, rng.uniform(0.1, 0.9) * sh])
            s = rng.uniform(0.04, 0.15) * max(sw, sh)
            yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
            add += gl * 150 * np.exp(-((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (2 * s * s))
    # auto-exposure is never exact: a global gain of a fraction of a stop either way
    gain *= float(2.0 ** float(style.get("exposure", 0.0)))
    tint = np.array(_LIGHT_TINT[style["light"]], np.float32)
    cc = float(style["colour_cast"])
    tint = tint * (1 + rng.uniform(-cc, cc, 3).astype(np.float32))
    tint /= tint.mean()
    # one full-resolution pass: the tint is folded into the low-resolution gain
    gain3 = cv2.resize(gain[:, :, None] * tint[None, None, :], (w, h),
                       interpolation=cv2.INTER_LINEAR)
    np.multiply(img, gain3, out=img)
    if gl > 0:
        img += cv2.resize(add, (w, h), interpolation=cv2.INTER_LINEAR)[:, :, None]


def depth_of_field(img: np.ndarray, cam: Camera, focus: np.ndarray, amount: float
                   ) -> np.ndarray:
    """Blend toward a blurred copy where the table is far from the focus distance.

    The blur grows with the difference of inverse depths (as a thin lens's circle of
    confusion does); ``amount`` 1 gives about 0.4 % of the photo's width at the frame edge
    of a 50-degree view.
    """
    if amount <= 0.01:
        return img
    h, w = img.shape[:2]
    sh, sw = max(4, h // 16), max(4, w // 16)
    hinv = np.linalg.inv(cam.ground_homography(0.0))
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float64)
    uv = np.stack([xs.ravel() * w / sw, ys.ravel() * h / sh, np.ones(xs.size)])
    q = hinv @ uv
    pts = np.stack([q[0] / q[2], q[1] / q[2], np.zeros(xs.size)], axis=1)
    inv = 1.0 / np.maximum(cam.depth(pts), 1e-6)
    inv_f = 1.0 / float(cam.depth(np.asarray(focus, float)[None])[0])
    coc = np.abs(inv - inv_f) / inv_f
    weight = np.clip(coc.reshape(sh, sw) * 2.5, 0, 1).astype(np.float32)
    if float(weight.max()) < 0.05:
        return img
    sigma = amount * 0.004 * w
    blurred = soft_blur(img, sigma)
    wmap = cv2.resize(weight, (w, h), interpolation=cv2.INTER_LINEAR)[:, :, None]
    return img + (blurred - img) * wmap


def optics_and_sensor(img: np.ndarray, style: dict[str, Any], rng: np.random.Generator,
                      cam: Camera | None = None, focus: np.ndarray | None = None
                      ) -> np.ndarray:
    """Depth of field, blur (defocus or motion), sensor noise; returns uint8 BGR."""
    if cam is not None and focus is not None:
        img = depth_of_field(img, cam, focus, float(style.get("dof", 0.0)))
    b = style["blur"]
    px = float(style["blur_px"])
    if b == "defocus" and px > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), px)
    elif b == "motion" and px > 0.2:
        n = int(math.ceil(px * 3)) | 1
        k = np.zeros((n, n), np.float32)
        a = math.radians(float(style["blur_angle_deg"]))
        c = n // 2
        dx, dy = math.cos(a) * px * 1.5, math.sin(a) * px * 1.5
        cv2.line(k, (int(round(c - dx)), int(round(c - dy))),
                 (int(round(c + dx)), int(round(c + dy))), 1.0, 1, cv2.LINE_AA)
        k /= k.sum()
        img = cv2.filter2D(img, -1, k)
    else:
        img = cv2.GaussianBlur(img, (0, 0), 0.5)  # no lens is perfectly sharp
    sigma = float(style["noise"])
    if sigma > 0:
        h, w = img.shape[:2]
        # luminance noise at full resolution plus coarser chroma noise, as phones leave it;
        # cut from a fixed bank at a random offset (drawing fresh normals costs more than
        # the rest of the photo, and nobody sees a 1024 px period in sensor noise)
        bank = noise_bank()
        oy, ox = (int(v) for v in rng.integers(0, 1024, 2))
        rows = np.arange(oy, oy + h) % 1024
        cols = np.arange(ox, ox + w) % 1024
        n = bank.take(rows, axis=0).take(cols, axis=1)
        cv2.scaleAdd(np.dstack([n, n, n]), sigma, img, img)
        ch = rng.standard_normal((h // 4 + 1, w // 4 + 1, 3), dtype=np.float32) * (sigma * 0.5)
        img += cv2.resize(ch, (w, h), interpolation=cv2.INTER_LINEAR)
    out = np.clip(img, 0, 255).astype(np.uint8)
    return phone_processing(out, style)


def phone_processing(img: np.ndarray, style: dict[str, Any]) -> np.ndarray:
    """The phone's own processing on uint8 BGR: tone curve, then sharpening (with halos)."""
    contrast = float(style.get("contrast", 0.0))
    if abs(contrast) > 0.01:
        # an S-curve (contrast > 0) or a flatter one about mid-grey, as a look-up table
        x = np.arange(256, dtype=np.float32) / 255.0
        lut = np.clip(255.0 * (x + contrast * x * (1 - x) * (2 * x - 1)) + 0.5, 0, 255)
        img = cv2.LUT(img, lut.astype(np.uint8))
    sharpen = float(style.get("sharpen", 0.0))
    if sharpen > 0.01:
        soft = cv2.GaussianBlur(img, (0, 0), 1.2)
        img = cv2.addWeighted(img, 1 + sharpen, soft, -sharpen, 0)
    return img


@lru_cache(maxsize=1)
def noise_bank() -> np.ndarray:
    """A fixed 1024 x 1024 field of standard normal noise (seeded: deterministic)."""
    return np.random.default_rng(12345).standard_normal((1024, 1024), dtype=np.float32)


def jpeg_roundtrip(img: np.ndarray, quality: int) -> tuple[np.ndarray, bytes]:
    """Encode as JPEG at ``quality`` and decode again: (decoded BGR uint8, JPEG bytes)."""
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:  # pragma: no cover - OpenCV always encodes uint8 BGR
        raise RuntimeError("JPEG encoding failed")
    data = buf.tobytes()
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), data
