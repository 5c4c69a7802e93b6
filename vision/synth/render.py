"""Compose one synthetic photo: board, table, props, camera, light; and its exact label.

Order of drawing (back to front): the table texture (z = 0, with flat props), shadows and
contact shadows, the tiles' side faces (far to near), the tiles' top faces (all at the
top of the tiles, so nothing but a hand or object above the table can hide them), then
hands/objects at the edge, then light, optics, sensor noise and JPEG.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from engine.board import Board, Status, Violation
from engine.lattice import Cell, cell_centroid
from engine.tiles import Tile

from ..reading import MOSTLY_HIDDEN
from . import camera as cam_mod
from . import table as table_mod
from .camera import Camera, make_camera, soft_blur
from .growth import add_faults, grow_board
from .objects import draw_occluders
from .styles import EDITIONS, sample_style
from .tiles import SQRT3, FaceSpec, edition_colours, render_face, sprite_geom

#: Local top-face corners of a tile of side 1 (apex, bottom right, bottom left), centroid 0.
LOCAL = np.array([[0.0, 1 / SQRT3], [0.5, -0.5 / SQRT3], [-0.5, -0.5 / SQRT3]])


@dataclass
class Piece:
    """One physical tile in the scene, its top face's pose in table units."""

    digits: tuple[int, int, int] | None   # corner order (apex first, clockwise); None: face down
    kind: str                             # "board" | "loose" | "rack"
    origin: np.ndarray                    # centroid of the top face (3,)
    ex: np.ndarray                        # local x axis (3,), unit
    ey: np.ndarray                        # local y axis (3,), toward the apex, unit
    side: float                           # edge length (table units)
    thickness: float
    cell: Cell | None = None
    face: np.ndarray = field(default_factory=lambda: np.zeros(3, np.float32))
    inks: list[np.ndarray] = field(default_factory=list)
    pin: np.ndarray | None = None
    seed: int = 0

    @property
    def normal(self) -> np.ndarray:
        """Unit normal of the top face (toward the viewer of the face)."""
        return np.cross(self.ex, self.ey)

    def top_corners(self) -> np.ndarray:
        """(3, 3) table points of the top face's corners in corner order."""
        return self.origin + np.outer(LOCAL[:, 0] * self.side, self.ex) + np.outer(
            LOCAL[:, 1] * self.side, self.ey)

    def outline(self, radius: float, z_drop: float = 0.0, n_arc: int = 4) -> np.ndarray:
        """(3*n_arc, 3) points of the rounded outline, lowered by ``z_drop`` along -normal."""
        r_in = 1 / (2 * SQRT3)
        rc = min(radius, 0.8 * r_in)
        pts = []
        for k in range(3):
            c = LOCAL[k] * (r_in - rc) / r_in
            a_mid = math.atan2(LOCAL[k][1], LOCAL[k][0])
            for t in np.linspace(-math.pi / 3, math.pi / 3, n_arc):
                p = c + rc * np.array([math.cos(a_mid + t), math.sin(a_mid + t)])
                pts.append(p)
        loc = np.array(pts) * self.side
        return (self.origin - self.normal * z_drop + np.outer(loc[:, 0], self.ex)
                + np.outer(loc[:, 1], self.ey))


def _drift_field(rs: np.random.Generator, board: Board, slope: float
                 ) -> Any:
    """A smooth displacement of the tiles over the board (hand-placed boards drift).

    Its gradient is at most ``slope`` (displacement per table unit), so neighbours (0.58
    apart) move by under 0.3 of the gap relative to each other: tiles never collide, yet a
    long board drifts by a noticeable part of a tile from one end to the other.
    """
    m = rs.uniform(-1, 1, (2, 2))
    m *= 0.5 / max(float(np.linalg.norm(m, 2)), 1e-9)
    u = rs.normal(0, 1, 2)
    u /= np.linalg.norm(u)
    v = rs.normal(0, 1, 2)
    v /= np.linalg.norm(v)
    lam = rs.uniform(4, 10)
    amp = 0.5 * lam / (2 * math.pi)
    phase = rs.uniform(0, 2 * math.pi)
    c0 = np.mean([cell_centroid(c) for c in board.cells], axis=0) if len(board) else np.zeros(2)

    def at(x: float, y: float) -> tuple[float, float]:
        p = np.array([x, y]) - c0
        d = m @ p + amp * math.sin(2 * math.pi * float(p @ u) / lam + phase) * v
        return float(d[0] * slope), float(d[1] * slope)

    return at


def _flat_piece(centre: tuple[float, float], angle: float, side: float, thick: float,
                digits: tuple[int, int, int] | None, kind: str, cell: Cell | None = None
                ) -> Piece:
    ex = np.array([math.cos(angle), math.sin(angle), 0.0])
    ey = np.array([-math.sin(angle), math.cos(angle), 0.0])
    return Piece(digits, kind, np.array([centre[0], centre[1], thick]), ex, ey, side, thick,
                 cell)


@dataclass
class Scene:
    """Everything placed on the table, before the camera sees it."""

    board: Board
    faults: list[dict[str, Any]]
    pieces: list[Piece]
    camera: Camera
    light: np.ndarray
    props: list[tuple[str, np.ndarray]]
    rack_box: np.ndarray | None = None    # (8, 3) corners of the rack's bar, or None
    target: np.ndarray = field(default_factory=lambda: np.zeros(3))
    table_rect: tuple[float, float, float, float] = (-1e3, -1e3, 1e3, 1e3)  # x0, y0, x1, y1


def _visible_rect(cam: Camera) -> np.ndarray:
    """(4, 2) table points (z = 0) seen at the image corners."""
    hinv = np.linalg.inv(cam.ground_homography(0.0))
    w, h = cam.width, cam.height
    c = np.array([[0, 0, 1], [w - 1, 0, 1], [w - 1, h - 1, 1], [0, h - 1, 1]], float)
    q = (hinv @ c.T).T
    return q[:, :2] / q[:, 2:3]


def build_scene(style: dict[str, Any], rngs: dict[str, np.random.Generator]) -> Scene:
    """Grow the board, lay out the tiles and props, place the camera (see :func:`render`)."""
    rb, rs = rngs["board"], rngs["scene"]
    board = grow_board(rb, int(style["n_tiles"]))
    faults = add_faults(rb, board) if style["faults"] else []
    w, h = int(style["width"]), int(style["height"])
    thick = float(style["thickness"])
    gap = float(style["gap"])
    side = 1.0 - gap
    # hand placement: an offset and a turn, kept inside the gap so tiles never overlap
    slack = gap / 2
    drift = _drift_field(rs, board, float(style["drift"]) * 0.5 * gap)
    pieces: list[Piece] = []
    for cell, digits in board:
        cx, cy = cell_centroid(cell)
        dx, dy = drift(cx, cy)
        cx, cy = cx + dx, cy + dy
        # bounded so two neighbours moving toward each other still leave a gap: a corner
        # moves at most 0.2 + 2 * 0.15 * sqrt(2) < 0.65 of half the gap
        jit = float(style["jitter"]) * slack
        turn = float(np.clip(rs.normal(0, 1), -2, 2)) * jit * 0.1 * SQRT3
        off = np.clip(rs.normal(0, 1, 2), -2, 2) * jit * 0.15
        base = 0.0 if cell[2] == "U" else math.pi
        p = _flat_piece((cx + off[0], cy + off[1]), base + turn, side, thick, digits, "board",
                        cell)
        pieces.append(p)
    cents = np.array([p.origin[:2] for p in pieces])
    centre = cents.mean(axis=0)
    radius = float(np.max(np.linalg.norm(cents - centre, axis=1))) + 0.6
    # the table: the board lies on it at least a unit from every edge
    margin = float(style["table_margin"])
    asp = math.sqrt(float(style["table_aspect"]))
    half = np.array([radius + margin * asp, radius + margin / asp])
    room = np.maximum(half - radius - 1.0, 0.0)
    tc = centre + rs.uniform(-1, 1, 2) * room
    table_rect = (float(tc[0] - half[0]), float(tc[1] - half[1]), float(tc[0] + half[0]),
                  float(tc[1] + half[1]))
    # --- camera -----------------------------------------------------------------------
    if style["tile_px"] is None:
        fill = float(style["board_fill"])
        style["tile_px"] = round(float(np.clip(fill * min(w, h) / (2 * radius), 20.0,
                                               min(200.0, 0.4 * min(w, h)))), 2)
    tile_px = float(style["tile_px"])
    view = min(w, h) / tile_px  # table units across the shorter side of the photo
    if style["off_frame"]:
        span = max(0.5 * view, radius * 0.9)
    else:
        span = max(0.0, 0.5 * view - radius) * 0.8
    a = math.radians(float(style["rotation_deg"]))
    off = np.array([style["board_dx"], style["board_dy"]], float) * 2 * span
    target = np.array([centre[0] + off[0] * math.cos(a) - off[1] * math.sin(a),
                       centre[1] + off[0] * math.sin(a) + off[1] * math.cos(a), 0.0])
    tilt = float(style["tilt_deg"])
    fov = float(style["fov_deg"])
    # keep the horizon out of the photo: the corner rays must hit the table well before it
    half_diag = math.degrees(math.atan(math.hypot(w, h) / max(w, h)
                                       * math.tan(math.radians(fov / 2))))
    if tilt + half_diag > 78.0:
        t = math.tan(math.radians(max(5.0, 78.0 - tilt))) * max(w, h) / math.hypot(w, h)
        fov = 2 * math.degrees(math.atan(t))
        style["fov_deg"] = round(fov, 2)
    cam = make_camera(w, h, target, tilt, float(style["rotation_deg"]),
                      float(style["roll_deg"]), fov, tile_px)
    el, az = math.radians(float(style["light_elevation_deg"])), math.radians(
        float(style["light_azimuth_deg"]))
    light = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    # --- loose tiles and props around the board, inside the photo ----------------------
    rect = _visible_rect(cam)
    lo, hi = rect.min(axis=0), rect.max(axis=0)
    lo = np.maximum(lo, centre - radius - 8)
    hi = np.minimum(hi, centre + radius + 8)
    used = {Tile.from_digits(d) for d in board.cells.values()}
    spare = sorted(t for t in _set_tiles(board) if t not in used)
    order = rs.permutation(len(spare))
    taken: list[np.ndarray] = [c for c in cents]
    path = _InPhoto(cam)

    def on_table(p: np.ndarray, m: float = 0.7) -> bool:
        return (table_rect[0] + m <= p[0] <= table_rect[2] - m
                and table_rect[1] + m <= p[1] <= table_rect[3] - m)

    def free_spot(clear: float, tries: int = 40) -> np.ndarray | None:
        for _ in range(tries):
            p = rs.uniform(lo, hi)
            if not path.inside(p) or not on_table(p, 0.5 + clear / 2):
                continue
            if taken and np.min(np.linalg.norm(np.array(taken) - p, axis=1)) < clear:
                continue
            return p
        return None

    k = 0
    rack_box = None
    if style["rack"]:
        n_rack = min(len(spare), int(3 + rs.integers(0, 7)))
        rack_tiles = [spare[int(order[i])] for i in range(n_rack)]
        k = n_rack
        own = rs.random() < 0.7  # our own rack shows faces; an opponent's shows backs
        rack_box = _place_rack(pieces, rs, cam, rack_tiles, own, side, thick, taken, on_table)
    for face_up, count in ((True, int(style["n_loose_up"])), (False, int(style["n_loose_down"]))):
        for _ in range(count):
            if k >= len(spare):
                break
            t = spare[int(order[k])]
            k += 1
            p = free_spot(1.25)
            if p is None:
                continue
            taken.append(p)
            rot = t.rotations()[int(rs.integers(len(t.rotations())))]
            pieces.append(_flat_piece((float(p[0]), float(p[1])), rs.uniform(0, 2 * math.pi),
                                      side, thick, rot if face_up else None, "loose"))
    props: list[tuple[str, np.ndarray]] = []
    wanted = (["score_pad"] if style["score_pad"] else []) + [
        ["pencil", "coins", "pencil", "coins", "box_lid"][int(rs.integers(5))]
        for _ in range(int(style["objects"]))]
    for name in wanted:
        p = free_spot({"score_pad": 3.2, "box_lid": 5.5}.get(name, 2.0))
        if p is not None:
            taken.append(p)
            props.append((name, p))
    # per-piece colours and seeds (tiles of a set differ slightly)
    rt = rngs["tiles"]
    for p in pieces:
        p.face, p.inks, p.pin = edition_colours(style["edition"], rt, p.digits)
        if style["test_pattern"]:
            p.face, p.inks = np.full(3, 250, np.float32), [np.zeros(3, np.float32)] * 3
        if not style["pin"]:
            p.pin = None
        p.seed = int(rt.integers(2**31))
    return Scene(board, faults, pieces, cam, light, props, rack_box, target, table_rect)


def _place_rack(pieces: list[Piece], rs: np.random.Generator, cam: Camera, tiles: list[Tile],
                own: bool, side: float, thick: float, taken: list[np.ndarray],
                on_table: Any = None) -> np.ndarray | None:
    """A rack near the photo's near edge: a bar, tiles standing in front of it leaning back.

    Appends the rack's tiles to ``pieces`` (kind ``rack``); returns the bar's 8 corners.
    """
    hinv = np.linalg.inv(cam.ground_homography(0.0))

    def table_at(u: float, v: float) -> np.ndarray:
        q = hinv @ np.array([u, v, 1.0])
        return q[:2] / q[2]

    w, h = cam.width, cam.height
    n = len(tiles)
    step = side + 0.06
    pts = np.array(taken) if taken else np.zeros((0, 2))
    inside = _InPhoto(cam)

    def frame(u: float, v: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        b = table_at(u, v)
        e = table_at(u + 10, v) - b
        dn = table_at(u, v + 10) - b  # toward the bottom of the photo: toward the camera
        e /= np.linalg.norm(e)
        dn -= e * float(dn @ e)
        return b, e, dn / np.linalg.norm(dn)

    def clearance(b: np.ndarray, e: np.ndarray, dn: np.ndarray) -> float:
        if not len(pts):
            return math.inf
        feet = b[None, :] + np.outer((np.arange(n) - (n - 1) / 2) * step, e)
        return min(float(np.min(np.linalg.norm(pts[:, None] - q[None], axis=2)))
                   for q in (feet, feet - dn * 0.6))

    # a free spot along the photo's near edge, else its far edge; the rack (tiles and bar,
    # about 1.3 units deep) must be clear of every tile already on the table
    placed = None
    for _ in range(16):
        u = w * rs.uniform(0.25, 0.75)
        v = h * (rs.uniform(0.78, 0.96) if rs.random() < 0.7 else rs.uniform(0.06, 0.25))
        b, e, dn = frame(u, v)
        if (clearance(b, e, dn) > 1.3 and inside.inside(b)
                and (on_table is None or on_table(b, 1.0 + n * step / 2))):
            placed = (b, e, dn)
            break
    if placed is None:  # push toward the camera until clear (may leave the frame)
        b, e, dn = frame(w * 0.5, h * 0.9)
        for _ in range(40):
            if clearance(b, e, dn) > 1.3:
                break
            b = b + dn * 0.5
        placed = (b, e, dn)
    base, ex2, down = placed
    lean = math.radians(rs.uniform(62, 76))
    ex = np.array([ex2[0], ex2[1], 0.0])
    nh = np.array([down[0], down[1], 0.0])
    ey = -nh * math.cos(lean) + np.array([0, 0, 1.0]) * math.sin(lean)
    if np.cross(ex, ey) @ nh < 0:  # the faces look toward the camera
        ex = -ex
    if not own:  # an opponent's rack: we see the backs
        ex, nh2 = -ex, -nh
        ey = -nh2 * math.cos(lean) + np.array([0, 0, 1.0]) * math.sin(lean)
    r_in = side / (2 * SQRT3)
    normal_dir = np.cross(ex, ey)
    for i, t in enumerate(tiles):
        along = (i - (n - 1) / 2) * step
        foot = np.array([base[0], base[1], 0.0]) + ex * along
        origin = foot + ey * r_in + normal_dir * thick
        rot = t.rotations()[int(rs.integers(len(t.rotations())))]
        pieces.append(Piece(rot if own else None, "rack", origin, ex.copy(), ey.copy(), side,
                            thick))
        taken.append(foot[:2])
    # the bar behind the tiles' feet
    back = -normal_dir
    back[2] = 0.0
    back /= np.linalg.norm(back)
    length, depth, height = n * step + 0.4, 0.5, 0.3 + 0.2 * rs.random()
    c0 = np.array([base[0], base[1], 0.0]) + back * 0.15
    corners = []
    for dz in (0.0, height):
        for a_, b_ in ((-1, 0), (1, 0), (1, 1), (-1, 1)):
            corners.append(c0 + ex * a_ * length / 2 + back * b_ * depth + np.array([0, 0, dz]))
    return np.array(corners)


def _set_tiles(board: Board) -> list[Tile]:
    from engine.tiles import tile_set
    return sorted(tile_set(board.set_name))


class _InPhoto:
    """Whether a table point (z = 0) lands inside the photo."""

    def __init__(self, cam: Camera) -> None:
        self.h = cam.ground_homography(0.0)
        self.w, self.hh = cam.width, cam.height

    def inside(self, p: np.ndarray, margin: float = 0.0) -> bool:
        q = self.h @ np.array([p[0], p[1], 1.0])
        if q[2] <= 0:
            return False
        x, y = q[0] / q[2], q[1] / q[2]
        return -margin <= x <= self.w - 1 + margin and -margin <= y <= self.hh - 1 + margin


# ----------------------------------------------------------------------------------------
# drawing


def _plane_texture(style: dict[str, Any], cam: Camera, z: float, name: str,
                   rng: np.random.Generator, budget: float
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, np.ndarray]:
    """A texture of the plane at height ``z`` covering what the photo sees of it.

    Returns (float32 BGR texture, lo, hi (table units of its corners), texels per unit,
    the 3x3 map from texture pixels to the photo).
    """
    w, h = cam.width, cam.height
    hg = cam.ground_homography(z)
    hinv = np.linalg.inv(hg)
    c = np.array([[0, 0, 1], [w - 1, 0, 1], [w - 1, h - 1, 1], [0, h - 1, 1]], float)
    q = (hinv @ c.T).T
    rect = q[:, :2] / q[:, 2:3]
    centre = rect.mean(axis=0)
    # clamp the far side: beyond ~60 units the texture is a blur anyway (reflected border)
    rect = centre + np.clip(rect - centre, -60, 60)
    lo, hi = rect.min(axis=0) - 0.5, rect.max(axis=0) + 0.5
    ext = hi - lo
    # texels per unit: as fine as the nearest part of the photo needs, within a budget
    scales = [float(np.hypot(*(_apply(hg, p + np.array([1.0, 0])) - _apply(hg, p))))
              for p in rect]
    ppu = max(4.0, min(max(scales), budget / float(max(ext))))
    tw, th = int(math.ceil(ext[0] * ppu)) + 1, int(math.ceil(ext[1] * ppu)) + 1
    tex = table_mod.table_texture(rng, name, th, tw, ppu)
    t = np.array([[1 / ppu, 0, lo[0]], [0, -1 / ppu, hi[1]], [0, 0, 1]])
    return tex, lo, hi, ppu, hg @ t


def _draw_table(style: dict[str, Any], scene: Scene, rng: np.random.Generator) -> np.ndarray:
    """The table top (with its flat props), and the floor beyond its edges, as uint8 BGR."""
    cam = scene.camera
    w, h = cam.width, cam.height
    cap = min(3000.0, 0.75 * max(w, h))
    name = "test" if style["test_pattern"] else style["table"]
    tex, lo, hi, ppu, m = _plane_texture(style, cam, 0.0, name, rng, cap)
    for prop, p in scene.props:
        pc = np.array([(p[0] - lo[0]) * ppu, (hi[1] - p[1]) * ppu])
        if prop == "score_pad":
            table_mod.draw_score_pad(tex, rng, pc, ppu)
        else:
            table_mod.PROPS[prop](tex, rng, pc, ppu)
    x0, y0, x1, y1 = scene.table_rect
    edge = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    uv = np.stack([(edge[:, 0] - lo[0]) * ppu, (hi[1] - edge[:, 1]) * ppu], axis=1)
    th, tw = tex.shape[:2]
    if uv[:, 0].min() > 0 or uv[:, 1].min() > 0 or uv[:, 0].max() < tw or uv[:, 1].max() < th:
        # the table ends inside the photo: the floor shows beyond it
        top = cv2.warpPerspective(np.clip(tex, 0, 255).astype(np.uint8), m, (w, h),
                                  flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        mask_tex = np.zeros((th, tw), np.float32)
        cv2.fillConvexPoly(mask_tex, (uv * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
        mask = cv2.warpPerspective(mask_tex, m, (w, h), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        zf = -float(style["table_height"])
        ftex, _, _, _, fm = _plane_texture(style, cam, zf, style["floor"], rng, cap * 0.4)
        floor = cv2.warpPerspective(np.clip(ftex * 0.7, 0, 255).astype(np.uint8), fm, (w, h),
                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        a = mask[:, :, None]
        img = (top * a + floor * (1 - a)).astype(np.uint8)
        _draw_table_edges(img, cam, scene.table_rect, np.clip(tex.mean(axis=(0, 1)), 0, 255))
        return img
    return cv2.warpPerspective(np.clip(tex, 0, 255).astype(np.uint8), m, (w, h),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


@lru_cache(maxsize=1)
def _grain_bank() -> np.ndarray:
    """The noise bank, slightly blurred (grain a pixel or two across), computed once."""
    return cv2.GaussianBlur(cam_mod.noise_bank(), (0, 0), 0.8)


def _surface_grain(img: np.ndarray, rng: np.random.Generator) -> None:
    """Fine surface grain (a few %) at the photo's own resolution, in place.

    The table texture is budgeted to at most ~3000 texels across, so a 12 MP photo would
    otherwise show a table softer than its tiles.
    """
    h, w = img.shape[:2]
    bank = _grain_bank()
    oy, ox = (int(v) for v in rng.integers(0, 1024, 2))
    n = bank.take(np.arange(oy, oy + h) % 1024, axis=0).take(np.arange(ox, ox + w) % 1024,
                                                                axis=1)
    gain = 1.0 + float(rng.uniform(0.02, 0.05)) * n
    # saturating multiply (a plain uint8 multiply would wrap bright texels round to 0)
    img[:] = cv2.multiply(img, cv2.merge([gain, gain, gain]), dtype=cv2.CV_8U)


def _draw_table_edges(img: np.ndarray, cam: Camera, rect: tuple[float, float, float, float],
                      colour: np.ndarray) -> None:
    """The table top's vertical edges (3 cm thick) where they face the camera (in place)."""
    x0, y0, x1, y1 = rect
    c = [np.array(v, float) for v in ((x0, y0, 0), (x1, y0, 0), (x1, y1, 0), (x0, y1, 0))]
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2, 0.0])
    drop = np.array([0, 0, 0.6])
    eye = cam.centre
    for k in range(4):
        a, b = c[k], c[(k + 1) % 4]
        quad = np.array([a, b, b - drop, a - drop])
        mid = quad.mean(axis=0)
        out = mid - centre
        out[2] = 0
        if out @ (eye - mid) <= 0 or (cam.depth(quad) < 0.5).any():
            continue
        cv2.fillConvexPoly(img, (cam.project(quad) * 16).astype(np.int32),
                           tuple(float(v) for v in colour * 0.55), cv2.LINE_AA, 4)


def _apply(hm: np.ndarray, p: np.ndarray) -> np.ndarray:
    q = hm @ np.array([p[0], p[1], 1.0])
    return q[:2] / q[2]


def _draw_shadows(img: np.ndarray, style: dict[str, Any], scene: Scene) -> None:
    """Soft cast shadows of every tile and contact darkening under them (in place)."""
    cam = scene.camera
    h, w = img.shape[:2]
    sc = 0.5
    sh = np.zeros((int(h * sc) + 1, int(w * sc) + 1), np.float32)
    ao = np.zeros_like(sh)
    L = scene.light
    drop = L / max(L[2], 0.15)
    for p in scene.pieces:
        top = p.outline(float(style["corner_radius"]))
        bottom = top - p.normal * p.thickness
        cast = top - np.outer(top[:, 2], drop)
        pts = cam.project(np.vstack([bottom, cast])) * sc
        hull = cv2.convexHull(pts.astype(np.float32))
        cv2.fillConvexPoly(sh, (hull * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
        fp = cam.project(bottom) * sc
        cv2.fillConvexPoly(ao, (cv2.convexHull(fp.astype(np.float32)) * 16).astype(np.int32),
                           1.0, cv2.LINE_AA, 4)
    tpx = float(style["tile_px"]) * sc
    sh = soft_blur(sh, max(0.6, 0.06 * tpx))
    ao = soft_blur(ao, max(0.6, 0.04 * tpx))
    dark = 1.0 - float(style["shadow"]) * np.clip(sh, 0, 1) - 0.3 * np.clip(ao, 0, 1)
    dark = cv2.resize(dark, (w, h), interpolation=cv2.INTER_LINEAR)
    np.multiply(img, dark[:, :, None], out=img, casting="unsafe")


def _draw_sides(img: np.ndarray, style: dict[str, Any], scene: Scene,
                pieces: list[Piece]) -> None:
    """The tiles' side faces and rounded edges, far to near (in place)."""
    cam = scene.camera
    eye = cam.centre
    L = scene.light
    amb, dif = 0.55, 0.45
    radius = float(style["corner_radius"])
    order = sorted(pieces, key=lambda p: -float(cam.depth(p.origin[None])[0]))
    for p in order:
        n = p.normal
        flat = amb + dif * max(float(n @ L), 0.0)
        top_r = p.outline(radius)
        bot_r = top_r - n * p.thickness
        pts = cam.project(np.vstack([top_r, bot_r]))
        hull = cv2.convexHull(pts.astype(np.float32))
        base = np.full(3, 30.0) if style["test_pattern"] else p.face * 0.62
        cv2.fillConvexPoly(img, (hull * 16).astype(np.int32),
                           tuple(float(c) for c in base), cv2.LINE_AA, 4)
        tc = p.top_corners()
        rc = min(radius, 0.8 / (2 * SQRT3)) * p.side * SQRT3  # where the rounding starts
        for k in range(3):
            a, b = tc[k], tc[(k + 1) % 3]
            e = b - a
            eh = e / np.linalg.norm(e)
            out = np.cross(n, eh)
            mid = (a + b) / 2 - n * p.thickness / 2
            if float(out @ (eye - mid)) <= 0:
                continue
            a2, b2 = a + eh * rc, b - eh * rc
            quad = np.array([a2, b2, b2 - n * p.thickness, a2 - n * p.thickness])
            q = cam.project(quad)
            shade = (amb + dif * max(float(out @ L), 0.0)) / flat
            col = np.full(3, 30.0) if style["test_pattern"] else np.clip(
                p.face * shade * 0.86, 0, 255)
            cv2.fillConvexPoly(img, (q * 16).astype(np.int32), tuple(float(c) for c in col),
                               cv2.LINE_AA, 4)


def _draw_rack(img: np.ndarray, style: dict[str, Any], scene: Scene, standing: list[Piece],
               rng: np.random.Generator) -> np.ndarray:
    """The rack's bar (a shaded box) in place; returns the mask of the bar and its tiles."""
    cam = scene.camera
    box = scene.rack_box
    assert box is not None
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    colour = np.array([(50, 90, 140), (30, 30, 32), (40, 40, 150), (150, 110, 60)]
                      [int(rng.integers(4))], np.float32)
    eye = cam.centre
    faces = ((4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))
    centre = box.mean(axis=0)
    L = scene.light
    for f in sorted(faces, key=lambda f: -float(cam.depth(box[list(f)].mean(axis=0)[None])[0])):
        q = box[list(f)]
        mid = q.mean(axis=0)
        nrm = np.cross(q[1] - q[0], q[3] - q[0])
        nrm /= np.linalg.norm(nrm)
        if nrm @ (mid - centre) < 0:
            nrm = -nrm
        if nrm @ (eye - mid) <= 0:
            continue
        shade = 0.5 + 0.5 * max(0.0, float(nrm @ L))
        pts = cam.project(q)
        cv2.fillConvexPoly(img, (pts * 16).astype(np.int32),
                           tuple(float(c) for c in colour * shade), cv2.LINE_AA, 4)
        cv2.fillConvexPoly(mask, np.round(pts).astype(np.int32), 255)
    radius = float(style["corner_radius"])
    for p in standing:
        pts = cam.project(np.vstack([p.outline(radius), p.outline(radius, p.thickness)]))
        cv2.fillConvexPoly(mask, np.round(cv2.convexHull(pts.astype(np.float32))).astype(
            np.int32), 255)
    return mask


def _toward(v: np.ndarray, p: Piece) -> np.ndarray:
    """A table direction as a unit vector in the sprite axes of ``p`` (x, y down, normal)."""
    u = v / max(float(np.linalg.norm(v)), 1e-9)
    return np.array([float(u @ p.ex), -float(u @ p.ey), float(u @ p.normal)])


def _sprite_side(cam: Camera, p: Piece) -> int:
    c = cam.project(p.top_corners())
    longest = max(float(np.hypot(*(c[k] - c[(k + 1) % 3]))) for k in range(3))
    want = min(480.0, max(16.0, longest * 1.2))
    # sizes in steps of ~10 % so the per-size fields (alpha, bevel normals) are reused
    return int(round(16 * 1.1 ** math.ceil(math.log(want / 16, 1.1))))


def _draw_tops(img: np.ndarray, style: dict[str, Any], scene: Scene,
               pieces: list[Piece]) -> None:
    """The tiles' top faces: one sprite each, warped by its exact homography (in place)."""
    cam = scene.camera
    h, w = img.shape[:2]
    ed = EDITIONS[style["edition"]]
    for p in pieces:
        corners_img = cam.project(p.top_corners())
        if (corners_img[:, 0].max() < -4 or corners_img[:, 1].max() < -4
                or corners_img[:, 0].min() > w + 4 or corners_img[:, 1].min() > h + 4):
            continue
        s = _sprite_side(cam, p)
        g = sprite_geom(s)
        L = scene.light
        light_s = np.array([float(L @ p.ex), -float(L @ p.ey), float(L @ p.normal)])
        spec = FaceSpec(p.digits, p.face, p.inks or [p.face] * 3,
                        p.pin if p.digits is not None else None, style["font"],
                        float(style["digit_height"]), float(style["digit_in"]),
                        float(style["digit_aspect"]), style["digit_up"],
                        float(style["corner_radius"]), float(style["bevel"]),
                        float(style["wear"]) if ed else 0.0, light_s, p.seed,
                        flat=bool(style["test_pattern"]),
                        view=_toward(cam.centre - p.origin, p), gloss=float(style["gloss"]))
        rgba = render_face(s, spec)
        u = p.side / s
        origin = p.origin - p.ex * g.cx * u + p.ey * g.cy * u
        hm = cam.plane_homography(origin, p.ex * u, -p.ey * u)
        quad = np.array([[0, 0], [g.width, 0], [g.width, g.height], [0, g.height]], float)
        q = (hm @ np.hstack([quad, np.ones((4, 1))]).T).T
        q = q[:, :2] / q[:, 2:3]
        x0 = max(0, int(math.floor(q[:, 0].min())) - 1)
        y0 = max(0, int(math.floor(q[:, 1].min())) - 1)
        x1 = min(w, int(math.ceil(q[:, 0].max())) + 2)
        y1 = min(h, int(math.ceil(q[:, 1].max())) + 2)
        if x1 <= x0 or y1 <= y0:
            continue
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float)
        warped = cv2.warpPerspective(rgba, shift @ hm, (x1 - x0, y1 - y0),
                                     flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                     borderValue=0)
        a = warped[:, :, 3:4]
        roi = img[y0:y1, x0:x1].astype(np.float32)
        face = warped[:, :, :3]
        face -= roi
        face *= a
        face += roi
        img[y0:y1, x0:x1] = np.clip(face, 0, 255).astype(np.uint8)


# ----------------------------------------------------------------------------------------
# labels


def _polygon_in_frame(pts: np.ndarray, w: int, h: int) -> tuple[float, float]:
    """(area inside the photo, total area) of a convex polygon in pixels."""
    poly = pts.astype(np.float32)
    total = abs(float(cv2.contourArea(poly)))
    frame = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]],
                     np.float32)
    inter, _ = cv2.intersectConvexConvex(poly, frame)
    return float(inter), total


def _covered(mask: np.ndarray | None, pts: np.ndarray) -> float:
    """Fraction of the polygon's pixels that an occluder covers."""
    if mask is None:
        return 0.0
    h, w = mask.shape
    x0, y0 = max(0, int(pts[:, 0].min())), max(0, int(pts[:, 1].min()))
    x1, y1 = min(w, int(pts[:, 0].max()) + 2), min(h, int(pts[:, 1].max()) + 2)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(poly, np.round(pts - [x0, y0]).astype(np.int32), 1)
    n = int(poly.sum())
    if n == 0:
        return 0.0
    return float((mask[y0:y1, x0:x1] > 127)[poly > 0].mean())


def _digit_hidden(mask: np.ndarray | None, cpx: np.ndarray, style: dict[str, Any]
                  ) -> list[int]:
    """Corners (0-2) whose digit an occluder hides: more than half of a disc the digit's
    height across, where the tile draws that digit, lies under ``mask`` (255 = hidden)."""
    if mask is None:
        return []
    h, w = mask.shape
    cen = cpx.mean(axis=0)
    side = float(np.mean(np.linalg.norm(cpx - cpx[[1, 2, 0]], axis=1)))
    r = max(1.0, 0.5 * float(style["digit_height"]) * side)
    out = []
    for k in range(3):
        # where vision.synth.tiles draws the digit (digit_in of the height, 1.5: height ->
        # median), in image pixels (affine: a tile is small against the perspective)
        c = cpx[k] + (cen - cpx[k]) * float(style["digit_in"]) * 1.5
        x0, y0 = int(np.floor(c[0] - r)), int(np.floor(c[1] - r))
        yy, xx = np.mgrid[y0:y0 + int(2 * r) + 2, x0:x0 + int(2 * r) + 2]
        disc = (xx - c[0]) ** 2 + (yy - c[1]) ** 2 <= r * r
        inside = disc & (xx >= 0) & (yy >= 0) & (xx < w) & (yy < h)
        if not inside.any():
            continue  # beyond the photo's edge: no occluder question
        if (mask[yy[inside], xx[inside]] > 127).mean() > 0.5:
            out.append(k)
    return out


def _r(v: float) -> float:
    return round(float(v), 2)


def label_violations(board: Board, seen: set[Cell]) -> list[Violation]:
    """The violations of ``board`` (the table's) a reader could report from the tiles in
    ``seen`` (those in view): each whose cells are all seen; and the board in pieces
    where every piece has a seen tile, named (as the engine names pieces) by each
    piece's lowest seen cell. (The engine names a piece by its lowest cell, which may lie
    out of view while the piece shows: a reader reading every tile in view names
    another.)"""
    out = []
    for v in board.violations():
        if v.kind == Status.DISCONNECTED:
            parts = [p & seen for p in board.components()]
            if all(parts):
                out.append(Violation(v.kind, tuple(sorted(min(p) for p in parts)), v.message))
        elif all(c in seen for c in v.cells):
            out.append(v)
    return out


def make_label(style: dict[str, Any], scene: Scene, occ: np.ndarray | None,
               rack_mask: np.ndarray | None = None) -> dict[str, Any]:
    """The Reading JSON (``triominos-reading/1``) of a rendered scene.

    ``occ`` (hands, objects) and ``rack_mask`` (the rack and its tiles) mark what hides
    the table; a tile more than 2 % hidden is flagged ``occluded``, and the corners whose
    digit is more than half hidden are listed in its ``hidden_corners`` (a label extension:
    a label names every digit, even one no reader can see, so scoring must know which);
    one more than half out of sight (hidden, or beyond the photo's edge, or both) is
    flagged ``mostly hidden`` (no reader can be asked to find it; evaluation treats it as
    optional, see :func:`vision.batch.score_reading`).
    """
    cam = scene.camera
    w, h = cam.width, cam.height
    tiles: list[dict[str, Any]] = []
    loose: list[dict[str, Any]] = []
    seen = Board(set_name=scene.board.set_name)
    sides: list[float] = []
    hidden = 0
    for p in scene.pieces:
        cpx = cam.project(p.top_corners())
        cen = cam.project(p.origin[None])[0]
        inside, total = _polygon_in_frame(cpx, w, h)
        if inside <= 0.5:
            hidden += p.kind == "board"
            continue
        flags = [] if inside >= total - 0.5 else ["partial"]
        hidden_by = max(_covered(occ, cpx),
                        _covered(rack_mask, cpx) if p.kind != "rack" else 0.0)
        hidden_digits: list[int] = []
        if hidden_by > 0.02:
            flags.append("occluded")
            if p.digits is not None:
                hidden_digits = sorted(set(_digit_hidden(occ, cpx, style)) | set(
                    _digit_hidden(rack_mask, cpx, style) if p.kind != "rack" else []))
        if (inside / max(total, 1e-9)) * (1.0 - hidden_by) < 0.5:
            # more than half out of sight, under a hand or object or beyond the photo's
            # edge: what shows may hold no digit at all, so no reader can be held to it
            flags.append(MOSTLY_HIDDEN)
        entry: dict[str, Any] = {}
        if p.kind == "board":
            assert p.cell is not None and p.digits is not None
            entry = {"cell": list(p.cell), "corners": list(p.digits),
                     "tile": Tile.from_digits(p.digits).name()}
            seen.cells[p.cell] = p.digits
            sides.extend(float(np.hypot(*(cpx[k] - cpx[(k + 1) % 3]))) for k in range(3))
        else:
            entry = {"tile": Tile.from_digits(p.digits).name() if p.digits else None,
                     "corners": list(p.digits) if p.digits else None,
                     "face_down": p.digits is None}
            if p.kind == "rack":
                flags.insert(0, "rack")
        if hidden_digits:
            # a digit nobody can see in the photo (the reader reports none there)
            entry["hidden_corners"] = hidden_digits
        entry.update({"corner_px": [[_r(x), _r(y)] for x, y in cpx],
                      "centroid_px": [_r(cen[0]), _r(cen[1])],
                      "confidence": [1.0, 1.0, 1.0] if p.digits else [],
                      "flags": flags})
        (tiles if p.kind == "board" else loose).append(entry)
    tiles.sort(key=lambda e: (e["cell"][1], e["cell"][0], e["cell"][2]))
    side_px = float(np.median(sides)) if sides else float(style["tile_px"])
    style["tile_side_px_measured"] = round(side_px, 2)
    style["tiles_out_of_frame"] = int(hidden)
    style["faults_made"] = scene.faults
    style["n_tiles_board"] = len(scene.board)
    return {"format": "triominos-reading/1", "image": "", "width": w, "height": h,
            "set": scene.board.set_name, "tiles": tiles,
            "violations": [v.to_json() for v in label_violations(scene.board, set(seen.cells))],
            "off_board": loose, "tile_side_px": round(side_px, 2),
            "style": style}


# ----------------------------------------------------------------------------------------


@dataclass
class Sample:
    """One synthetic photo: ``image`` (H x W x 3 uint8 BGR, after JPEG), its Reading
    ``label``, the JPEG ``jpeg`` bytes the image was decoded from, and the time each
    rendering stage took (``timing_ms``)."""

    image: np.ndarray
    label: dict[str, Any]
    jpeg: bytes = b""
    timing_ms: dict[str, float] = field(default_factory=dict)


def render(seed: int, *, size: tuple[int, int] | None = None,
           style: dict[str, Any] | None = None, faults: bool = False) -> Sample:
    """Render the synthetic photo number ``seed`` (deterministic) with its exact label.

    ``size`` is (width, height) in px (default: drawn from typical phone sizes);
    ``style`` pins (``{"font": "aileron"}``) or restricts (``{"table": ["cloth", "paper"]}``)
    any key of the style record, see :mod:`vision.synth.styles`; ``faults`` adds one or two
    deliberate rule faults to the board (reported under ``violations``).
    Raises StyleError (a TriominosError) for an unknown style key, name or bad value.
    """
    clock = _Clock()
    ss = np.random.SeedSequence(int(seed))
    names = ("style", "board", "scene", "tiles", "table", "objects", "photo")
    rngs = {n: np.random.default_rng(s) for n, s in zip(names, ss.spawn(len(names)),
                                                        strict=True)}
    st = sample_style(rngs["style"], style, size, faults)
    st["seed"] = int(seed)
    scene = build_scene(st, rngs)
    clock.lap("scene")
    img = _draw_table(st, scene, rngs["table"])
    if not st["test_pattern"]:
        _surface_grain(img, rngs["table"])
    clock.lap("table")
    _draw_shadows(img, st, scene)
    flat = [p for p in scene.pieces if p.kind != "rack"]
    _draw_sides(img, st, scene, flat)
    clock.lap("shadows_sides")
    _draw_tops(img, st, scene, flat)
    rack_mask = None
    if scene.rack_box is not None:
        standing = [p for p in scene.pieces if p.kind == "rack"]
        rack_mask = _draw_rack(img, st, scene, standing, rngs["objects"])
        _draw_sides(img, st, scene, standing)
        _draw_tops(img, st, scene, standing)
    clock.lap("tops")
    occ = draw_occluders(img, st, scene.camera, scene.light, rngs["objects"])
    clock.lap("objects")
    if st["test_pattern"]:
        image, data = cam_mod.jpeg_roundtrip(img, 100)
        return Sample(image, make_label(st, scene, occ, rack_mask), data, clock.laps)
    f = img.astype(np.float32)
    cam_mod.light_and_lens(f, st, rngs["photo"])
    out = cam_mod.optics_and_sensor(f, st, rngs["photo"], scene.camera, scene.target)
    clock.lap("photo")
    image, data = cam_mod.jpeg_roundtrip(out, int(st["jpeg_quality"]))
    clock.lap("jpeg")
    label = make_label(st, scene, occ, rack_mask)
    clock.lap("label")
    return Sample(image, label, data, clock.laps)


class _Clock:
    """Milliseconds per stage (for the benchmark)."""

    def __init__(self) -> None:
        self.t = time.perf_counter()
        self.laps: dict[str, float] = {}

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = round((now - self.t) * 1000, 2)
        self.t = now
