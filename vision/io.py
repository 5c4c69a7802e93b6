"""Load a photo: any common format, EXIF orientation applied, bombs and broken files refused.

Coordinates: images are numpy arrays indexed ``[row, col]``; geometry is ``(x, y)`` pixels.
"""

from __future__ import annotations

import copy
import threading
import warnings
from pathlib import Path

import cv2
import numpy as np

from engine.errors import TriominosError

from .config import ReaderConfig

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".heif",
                  ".avif")


class PhotoError(TriominosError):
    """A photo that cannot be read, or in which no board can be found (one-line message)."""


class NoTilesError(PhotoError):
    """A photo that decoded but shows no tile ("no tiles found"): an empty table, a hand
    over every tile, a photo of something else. Evaluation scores it as an empty reading."""


class Photo:
    """A decoded photo, full resolution, after EXIF orientation.

    ``image`` is the BGR uint8 array (H, W, 3) and ``gray`` the grey one (H, W). The reader
    itself only needs grey levels (detection and digit crops), so a JPEG loaded by
    :func:`load` is decoded straight to grey (about a third of a colour decode: the decoder
    skips the colour planes) and its colour is decoded only when asked for: in full by
    :attr:`image` (overlays), reduced by :meth:`colour` (off-board tiles' colour). A photo
    built from an array has both at once. Downscaled copies for detection are made on
    demand (:meth:`scaled`, :meth:`scaled_gray`) and kept.

    A large JPEG may be decoded in grey at half size only (``half``; the decoder's own
    reduction: its size ``size`` (W, H) in full then comes from the header): the copy
    searched for tiles is made from it, and so are the digit crops of tiles at least
    ``half_min_side`` px a side (:meth:`crop_gray`); the full grey image is decoded only
    when asked for (smaller tiles, :attr:`gray`).
    """

    def __init__(self, path: str, image: np.ndarray | None = None, max_side: int = 1400,
                 *, gray: np.ndarray | None = None, encoded: bytes | None = None,
                 half: np.ndarray | None = None, size: tuple[int, int] | None = None,
                 half_min_side: float = 0.0) -> None:
        if image is None and (gray is None and (half is None or size is None)
                              or encoded is None):
            raise ValueError("Photo needs its BGR image, or its grey image (full, or half "
                             "with its size) and encoded bytes")
        self.path = path
        self.max_side = max_side
        self._image = image
        self._gray = gray
        self._half = half
        self._size = size
        self.half_min_side = half_min_side
        self._gray_job: threading.Thread | None = None
        self._encoded = encoded
        self._copies: dict[int, tuple[np.ndarray, float]] = {}
        self._grays: dict[int, tuple[np.ndarray, float]] = {}
        self._colours: dict[int, np.ndarray] = {}
        self._pending: dict[int, threading.Thread] = {}
        #: the default detection copies (:meth:`scaled`, :meth:`scaled_gray` without a
        #: size) are made this many times smaller again (:meth:`searched_at`)
        self.search_factor = 1.0
        self._searched: dict[tuple[str, int], tuple[np.ndarray, float]] = {}

    def __repr__(self) -> str:
        return f"Photo({self.path!r}, {self.width}x{self.height})"

    @property
    def image(self) -> np.ndarray:
        """The full-resolution BGR image (H, W, 3) uint8, decoded on first use if the photo
        was loaded in grey."""
        self._join(1)
        if self._image is None:
            img = self._decode_colour(1)
            if img is None or img.shape[:2] != (self.height, self.width):
                raise PhotoError(f"{self.path}: cannot decode the image in colour")
            self._image = img
        return self._image

    def searched_at(self, factor: float) -> Photo:
        """This photo with its default detection copies (:meth:`scaled` and
        :meth:`scaled_gray` called without a size) ``factor`` times the size they were
        (area-averaged): a search for tiles at another scale, its pixels still reported in
        the original's. The decoded images are shared, nothing is decoded again, and the
        digit crops are cut from the same full-resolution image."""
        self.join_decodes()
        view = copy.copy(self)
        # (the caches are the view's own from here, the copies made so far shared)
        view._copies, view._grays = dict(self._copies), dict(self._grays)
        view._colours, view._pending = dict(self._colours), {}
        view.search_factor = self.search_factor * factor
        view._searched = {}
        return view

    def join_decodes(self) -> None:
        """Wait for the images being decoded on background threads (:meth:`prefetch_gray`,
        :meth:`prefetch_colour`)."""
        self._join_gray()
        for factor in list(self._pending):
            self._join(factor)

    def _search_copy(self, kind: str, m: int, base: tuple[np.ndarray, float]
                     ) -> tuple[np.ndarray, float]:
        """``base`` (a detection copy and its scale) shrunk by :attr:`search_factor`."""
        if (kind, m) not in self._searched:
            img, s = base
            h, w = img.shape[:2]
            size = (max(1, round(w * self.search_factor)), max(1, round(h * self.search_factor)))
            self._searched[kind, m] = (cv2.resize(img, size, interpolation=cv2.INTER_AREA),
                                       s * size[0] / w)
        return self._searched[kind, m]

    def scaled(self, max_side: int | None = None) -> tuple[np.ndarray, float]:
        """A copy with its longest side <= ``max_side`` (default: the detection size, times
        :attr:`search_factor`) and its scale factor (copy px / original px)."""
        m = int(max_side or self.max_side)
        if max_side is None and self.search_factor != 1.0:
            return self._search_copy("colour", m, self.scaled(m))
        if m not in self._copies:
            h, w = self.height, self.width
            f = int(np.ceil(max(h, w) / m))
            if self._image is None and f > 1 and min(h, w) >= f:
                # a JPEG read in grey: the decoder shrinks by 2, 4 or 8 itself, and the
                # rest of the way is a small resize (not a full colour decode and a shrink)
                r = 1 << (min(f, 8).bit_length() - 1)
                img = self.colour(r)
                hh, ww = h // f, w // f
                if img.shape[:2] != (hh, ww):
                    img = cv2.resize(img, (ww, hh), interpolation=cv2.INTER_AREA)
                self._copies[m] = (img, 1.0 / f)
            else:
                self._copies[m] = _downscale(m, self.image)
        return self._copies[m]

    @property
    def gray(self) -> np.ndarray:
        """The full-resolution image in grey (H, W) uint8, converted once (decoded, for a
        JPEG read at half size). Detection and the digit crops only look at grey levels,
        and on a 12 MP photo working on one channel instead of three saves tens of ms.
        Raises :class:`PhotoError` if a JPEG read at half size cannot be decoded in full."""
        self._join_gray()
        if self._gray is None:
            if self._half is not None:
                g = self._decode_gray()
                if g is None:
                    raise PhotoError(f"{self.path}: cannot decode the image in full")
                self._gray = g
            else:
                self._gray = cv2.cvtColor(self.image, cv2.COLOR_BGR2GRAY)
        return self._gray

    def scaled_gray(self, max_side: int | None = None) -> tuple[np.ndarray, float]:
        """Like :meth:`scaled`, in grey: a copy of :attr:`gray` with its longest side <=
        ``max_side`` and its scale factor (made from the half-size grey where the photo
        was read so: resized to the same size and scale)."""
        m = int(max_side or self.max_side)
        if max_side is None and self.search_factor != 1.0:
            return self._search_copy("gray", m, self.scaled_gray(m))
        if m not in self._grays:
            f = _shrink_factor(m, self.width, self.height)
            if self._half is not None and self._gray is None and f >= 2:
                small = cv2.resize(self._half, (self.width // f, self.height // f),
                                   interpolation=cv2.INTER_AREA)
                self._grays[m] = (small, 1.0 / f)
            else:
                self._grays[m] = _downscale(m, self.gray)
        return self._grays[m]

    def crop_gray(self, side: float) -> tuple[np.ndarray, float]:
        """The grey image to cut the digit crops of tiles ``side`` px a side (full-image
        px) from, and its scale (copy px per original px): the half-size grey of a JPEG
        read so where the tiles are at least ``half_min_side`` px a side (a crop covers
        0.3 of a side, sampled at 32 px: half of such a tile's pixels are plenty), else
        the full-resolution :attr:`gray`."""
        if self._half is not None and side >= self.half_min_side:
            return self._half, 0.5
        return self.gray, 1.0

    def prefetch_gray(self, side: float) -> None:
        """Start decoding the full grey image on a background thread where the crops of
        tiles ``side`` px a side will need it (:meth:`crop_gray`) and it is not decoded:
        :attr:`gray` then waits for it."""
        if (self._half is None or self._gray is not None or self._gray_job is not None
                or side >= self.half_min_side):
            return

        def work() -> None:
            g = self._decode_gray()
            if g is not None:  # a failure is met again, and reported, by gray
                self._gray = g

        self._gray_job = threading.Thread(target=work, daemon=True)
        self._gray_job.start()

    def _decode_gray(self) -> np.ndarray | None:
        """The encoded photo decoded in grey, full size (None if it fails)."""
        g = cv2.imdecode(np.frombuffer(self._encoded, np.uint8),  # type: ignore[arg-type]
                         cv2.IMREAD_GRAYSCALE)
        return g if g is not None and g.shape == (self.height, self.width) else None

    def colour(self, factor: int) -> np.ndarray:
        """The BGR image shrunk by the whole ``factor`` (1, 2, 4 or 8): pixel ``(x, y)`` of
        the copy covers original pixels ``[f x, f x + f)`` across and likewise down, so
        original coordinates times ``1 / factor`` land on it. Made once per factor.

        A JPEG loaded in grey is decoded at that size directly (the decoder's own
        reduction: ~17 ms for a 12 MP photo against ~55 ms in full); otherwise the full
        image is block-averaged. Raises ``ValueError`` for another factor.
        """
        if factor not in (1, 2, 4, 8):
            raise ValueError(f"colour copy factor must be 1, 2, 4 or 8, not {factor}")
        if factor == 1:
            return self.image
        self._join(factor)
        if factor not in self._colours:
            img = self._decode_colour(factor) if self._image is None else None
            self._colours[factor] = img if img is not None else _shrink(self.image, factor)
        return self._colours[factor]

    def prefetch_colour(self, factor: int) -> None:
        """Start decoding :meth:`colour` ``(factor)`` on a background thread (OpenCV's
        decoder lets go of the GIL, so it runs on another core while the reader goes on);
        :meth:`colour` then waits for it. Nothing to do for a photo already in colour."""
        if (self._image is not None or factor in self._colours or factor in self._pending
                or factor not in (1, 2, 4, 8)):
            return

        def work() -> None:
            img = self._decode_colour(factor)
            if img is not None:  # a failure is met again, and reported, by colour()
                if factor == 1:
                    if img.shape[:2] == (self.height, self.width):
                        self._image = img
                else:
                    self._colours[factor] = img

        th = threading.Thread(target=work, daemon=True)
        self._pending[factor] = th
        th.start()

    def _join_gray(self) -> None:
        """Wait for the full grey image being decoded by :meth:`prefetch_gray`, if it is."""
        if self._gray_job is not None:
            self._gray_job.join()
            self._gray_job = None

    def _join(self, factor: int) -> None:
        th = self._pending.pop(factor, None)
        if th is not None:
            th.join()

    def _decode_colour(self, factor: int) -> np.ndarray | None:
        """The encoded photo decoded in colour at 1 / ``factor`` (None if it fails)."""
        flag = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2,
                4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}[factor]
        return cv2.imdecode(np.frombuffer(self._encoded, np.uint8), flag)  # type: ignore[arg-type]

    @property
    def small(self) -> np.ndarray:
        """The detection copy."""
        return self.scaled()[0]

    @property
    def scale(self) -> float:
        """Detection copy px per original px."""
        return self.scaled()[1]

    @property
    def width(self) -> int:
        """Width of the original image in pixels."""
        if self._size is not None:
            return self._size[0]
        return int((self._image if self._image is not None else self.gray).shape[1])

    @property
    def height(self) -> int:
        """Height of the original image in pixels."""
        if self._size is not None:
            return self._size[1]
        return int((self._image if self._image is not None else self.gray).shape[0])


#: the ISO base media file brands of HEIF images (the file type box's major brand)
_HEIF_BRANDS = (b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs",
                b"mif1", b"msf1")
_heif_opener = threading.Lock()
_heif_registered = False


def _says_heif(data: bytes) -> bool:
    """Do the bytes begin as a HEIF file does (a file type box naming a HEIF brand)?"""
    return data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS


def sniffed_image(head: bytes) -> bool:
    """Do a file's first bytes (16 or more) begin as those of an image the reader
    decodes (JPEG, PNG, BMP, TIFF, WebP, HEIF or AVIF)? For files without a telling
    suffix."""
    return (head.startswith((b"\xff\xd8", b"\x89PNG", b"BM", b"II*\x00", b"MM\x00*"))
            or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")
            or _says_heif(head) or (head[4:8] == b"ftyp" and head[8:12] in (b"avif", b"avis")))


def _register_heif(data: bytes) -> None:
    """Let Pillow open HEIF files (pillow-heif's opener; once per process, and only for
    bytes that say they are HEIF: the import costs about 0.1 s): only the primary image
    is decoded, no thumbnails, depth maps or auxiliary images."""
    global _heif_registered
    if _heif_registered or not _says_heif(data):
        return
    with _heif_opener:
        if not _heif_registered:
            from pillow_heif import register_heif_opener
            register_heif_opener(thumbnails=False, depth_images=False, aux_images=False)
            _heif_registered = True


def _header_size(data: bytes, name: str) -> tuple[int, int, str, bool]:
    """(width, height, format, has_alpha) from the header only (no pixel decoding; for
    HEIF, the size as displayed: its turn applied)."""
    import io as _io

    from PIL import Image  # lazy: Pillow only reads the header here
    _register_heif(data)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            Image.MAX_IMAGE_PIXELS = None  # we apply our own, clearer limit
            with Image.open(_io.BytesIO(data)) as im:
                alpha = im.mode in ("RGBA", "LA", "PA") or (
                    im.mode == "P" and "transparency" in im.info)
                return im.size[0], im.size[1], (im.format or "?"), alpha
    except Exception:  # Pillow raises many types for garbage; all mean "not an image"
        if _says_heif(data):  # (libheif reads the whole container to open it)
            raise PhotoError(f"{name}: damaged or truncated HEIF file") from None
        raise PhotoError(f"{name}: not an image (unknown or damaged format)") from None


def check_size(cfg: ReaderConfig, w: int, h: int, name: str) -> None:
    """Refuse an image (``w`` x ``h`` px) whose copy searched for tiles (its longest side
    brought to at most ``cfg.detect_max_side`` by a whole factor) would be under
    ``cfg.min_detect_side`` px along its shorter side: too small, or too narrow, to hold a
    tile the reader can find (the smallest it looks for is ``cfg.min_side`` px a side).

    Raises :class:`PhotoError` (one line)."""
    f = _shrink_factor(cfg.detect_max_side, w, h)
    if min(w, h) // f < cfg.min_detect_side:
        raise PhotoError(f"{name}: image too small or too narrow to read ({w}x{h} px; "
                         f"searched at {w // f}x{h // f}, it needs {cfg.min_detect_side} "
                         "px or more on its shorter side)")


def _looks_truncated(data: bytes, fmt: str) -> bool:
    """Cheap end-of-file checks: decoders often return half an image without complaint."""
    if fmt == "JPEG":
        return b"\xff\xd9" not in data[-4096:]
    if fmt == "PNG":
        return b"IEND" not in data[-64:]
    if fmt == "WEBP" and len(data) >= 8:
        return int.from_bytes(data[4:8], "little") + 8 > len(data)
    if fmt == "BMP" and len(data) >= 6:
        return int.from_bytes(data[2:6], "little") > len(data)
    return False


def _check(cfg: ReaderConfig, data: bytes, name: str) -> tuple[str, bool, int, int]:
    """Refuse what must not be decoded; returns (format, has_alpha, width, height) from
    the header.

    Raises :class:`PhotoError` (one line) for empty, unknown, truncated or oversized images.
    """
    if not data:
        raise PhotoError(f"{name}: empty file")
    w, h, fmt, alpha = _header_size(data, name)
    if w <= 0 or h <= 0:
        raise PhotoError(f"{name}: image has no pixels ({w}x{h})")
    if w * h > cfg.max_pixels:
        raise PhotoError(f"{name}: image too large ({w}x{h} = {w * h / 1e6:.0f} MP, limit "
                         f"{cfg.max_pixels / 1e6:.0f} MP); refusing to decode")
    if _looks_truncated(data, fmt):
        raise PhotoError(f"{name}: truncated {fmt} file")
    return fmt, alpha, w, h


def decode(cfg: ReaderConfig, data: bytes, name: str = "image") -> np.ndarray:
    """Decode image bytes to BGR uint8 (H, W, 3) with EXIF orientation applied.

    Grayscale becomes three equal channels; alpha is composited over white. Raises
    :class:`PhotoError` (one line) for empty, unknown, truncated or oversized images.
    """
    fmt, alpha, _, _ = _check(cfg, data, name)
    # not OpenCV's: it decodes no HEIF (an iPhone's photos), and leaves an AVIF's
    # orientation unapplied
    if fmt == "HEIF":
        return _heif_decode(data, name)
    if fmt == "AVIF":
        return _avif_decode(data, name)
    buf = np.frombuffer(data, np.uint8)
    if alpha:
        raw = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
        if raw is not None and raw.ndim == 3 and raw.shape[2] == 4:
            if raw.dtype != np.uint8:
                raw = (raw / 257).astype(np.uint8)
            return _over_white(raw)
    # IMREAD_COLOR applies the EXIF orientation and turns grayscale into 3 channels
    img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if img is None or img.size == 0:
        raise PhotoError(f"{name}: cannot decode {fmt} image")
    return img


def _over_white(bgra: np.ndarray) -> np.ndarray:
    """A BGRA uint8 image (H, W, 4) composited over white: BGR (H, W, 3)."""
    a = bgra[:, :, 3:4].astype(np.float32) / 255.0
    img = (bgra[:, :, :3].astype(np.float32) * a + 255.0 * (1 - a)).astype(np.uint8)
    return np.ascontiguousarray(img)


def _heif_decode(data: bytes, name: str) -> np.ndarray:
    """Decode a HEIF image (pillow-heif, straight to BGR: a quarter faster on a 12 MP
    photo than through Pillow) to BGR uint8 (H, W, 3), turned upright by its container's
    own rotation and mirror (libheif applies them; its EXIF orientation is informative
    only in HEIF, and not applied again), 8 bits per channel, alpha composited over
    white, grey as three equal channels. Raises :class:`PhotoError` (one line) where it
    fails."""
    from pillow_heif import open_heif
    try:
        arr = np.asarray(open_heif(data, convert_hdr_to_8bit=True, bgr_mode=True))
    except Exception:  # libheif's errors for a damaged file come in several types
        raise PhotoError(f"{name}: damaged or truncated HEIF file") from None
    if arr.size == 0:
        raise PhotoError(f"{name}: cannot decode HEIF image")
    if arr.ndim == 2:
        return cv2.cvtColor(arr, cv2.COLOR_GRAY2BGR)
    if arr.shape[2] == 4:
        return _over_white(arr)
    return np.ascontiguousarray(arr)


def _avif_decode(data: bytes, name: str) -> np.ndarray:
    """Decode an AVIF image with Pillow to BGR uint8 (H, W, 3), turned upright by its
    EXIF orientation (OpenCV's decoder leaves it unapplied), alpha composited over
    white, grey as three equal channels. Raises :class:`PhotoError` (one line) where it
    fails."""
    import io as _io

    from PIL import Image, ImageOps
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(_io.BytesIO(data)) as im:
                up = ImageOps.exif_transpose(im)
                if up.mode in ("RGBA", "LA", "PA") or "transparency" in up.info:
                    bgr = _over_white(np.asarray(up.convert("RGBA"))[:, :, [2, 1, 0, 3]])
                else:
                    bgr = np.ascontiguousarray(np.asarray(up.convert("RGB"))[:, :, ::-1])
    except Exception:  # the decoders raise many types for a damaged file
        raise PhotoError(f"{name}: damaged or truncated AVIF file") from None
    if bgr.size == 0:
        raise PhotoError(f"{name}: cannot decode AVIF image")
    return bgr


def from_bytes(cfg: ReaderConfig, data: bytes, name: str = "image") -> Photo:
    """A :class:`Photo` from encoded bytes (the same checks and errors as :func:`decode`).

    A JPEG without alpha is decoded to grey only (EXIF orientation applied, as in colour);
    its colour waits until asked for (:attr:`Photo.image`, :meth:`Photo.colour`). One so
    large that the copy searched for tiles is at most ``1 / cfg.half_grey_from`` of it is
    decoded at half size (see :class:`Photo`). Other formats are decoded in colour at
    once. An image too small or too narrow to search for tiles is refused before decoding
    (:func:`check_size`).
    """
    fmt, alpha, w, h = _check(cfg, data, name)
    check_size(cfg, w, h, name)
    if fmt == "JPEG" and not alpha:
        half = (cfg.half_grey_from >= 2
                and _shrink_factor(cfg.detect_max_side, w, h) >= cfg.half_grey_from)
        gray = cv2.imdecode(np.frombuffer(data, np.uint8),
                            cv2.IMREAD_REDUCED_GRAYSCALE_2 if half else cv2.IMREAD_GRAYSCALE)
        if gray is None or gray.size == 0:
            raise PhotoError(f"{name}: cannot decode {fmt} image")
        if half:
            # the header's size, turned as the decoder turned it (EXIF orientation)
            size = (w, h) if gray.shape == ((h + 1) // 2, (w + 1) // 2) else (h, w)
            return Photo(name, None, cfg.detect_max_side, half=gray, encoded=data, size=size,
                         half_min_side=cfg.half_grey_min_side)
        return Photo(name, None, cfg.detect_max_side, gray=gray, encoded=data)
    return Photo(name, decode(cfg, data, name), cfg.detect_max_side)


def _shrink(image: np.ndarray, f: int) -> np.ndarray:
    """The image shrunk by the whole factor ``f``: each pixel the mean of an f x f block,
    after cutting the image to a multiple of ``f`` (at most f - 1 px off its right and
    bottom edges). A power-of-two factor is done as successive halvings: OpenCV's area
    averaging is several times faster at exactly 2."""
    h, w = image.shape[:2]
    hh, ww = max(1, h // f), max(1, w // f)
    if h < f or w < f:  # a sliver: no whole block along one side
        return cv2.resize(image, (ww, hh), interpolation=cv2.INTER_AREA)
    small = image[:hh * f, :ww * f]
    k = f
    while k % 2 == 0:
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2),
                           interpolation=cv2.INTER_AREA)
        k //= 2
    if k > 1:
        small = cv2.resize(small, (ww, hh), interpolation=cv2.INTER_AREA)
    return small


def _shrink_factor(max_side: int, w: int, h: int) -> int:
    """The smallest whole factor bringing the longest of ``w``, ``h`` to at most
    ``max_side`` (1: none needed)."""
    return max(1, -(-max(w, h) // max_side))


def _downscale(max_side: int, image: np.ndarray) -> tuple[np.ndarray, float]:
    """Shrink by the smallest integer factor ``f`` that brings the longest side to at most
    ``max_side`` (see :func:`_shrink`); returns the copy and its exact scale ``1 / f``."""
    h, w = image.shape[:2]
    f = _shrink_factor(max_side, w, h)
    if f == 1:
        return image, 1.0
    if h < f or w < f:  # a sliver: the scale is the one along its long side
        small = _shrink(image, f)
        return small, small.shape[1] / w
    return _shrink(image, f), 1.0 / f


def downscale(cfg: ReaderConfig, image: np.ndarray) -> tuple[np.ndarray, float]:
    """The detection copy (longest side <= ``cfg.detect_max_side``) and its scale factor."""
    return _downscale(cfg.detect_max_side, image)


def load(cfg: ReaderConfig, path: str | Path) -> Photo:
    """Read a photo file. Raises :class:`PhotoError` with a one-line message on any problem."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except IsADirectoryError:
        raise PhotoError(f"{p}: is a directory, not a photo") from None
    except OSError as e:
        raise PhotoError(f"{p}: cannot read: {e.strerror or e}") from None
    return from_bytes(cfg, data, str(p))


def from_array(cfg: ReaderConfig, image: np.ndarray, name: str = "array") -> Photo:
    """Wrap an already decoded BGR (or gray) uint8 image as a :class:`Photo`. Raises
    :class:`PhotoError` for one too small or too narrow to read (:func:`check_size`)."""
    check_size(cfg, image.shape[1], image.shape[0], name)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return Photo(name, image, cfg.detect_max_side)
