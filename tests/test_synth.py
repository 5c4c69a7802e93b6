"""Synthetic photos: exact label geometry, determinism, legal boards, every style renders."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from engine.board import Board
from engine.errors import TriominosError
from vision.synth import StyleError, holdout, render, stream, style_names
from vision.synth.growth import grow_board
from vision.synth.render import label_violations
from vision.synth.styles import sample_style

#: Test pattern (flat white faces, black digits, dark sides, grey table), 1024 px wide,
#: oblique, with wide gaps so that pixels just outside one tile are never another tile.
PATTERN = {"test_pattern": True, "tilt_deg": 38.0, "gap": 0.1, "board_fill": 0.8,
           "corner_radius": 0.0, "n_tiles": 14, "jitter": 1.0}


def _inside_frame(pts: np.ndarray, w: int, h: int, margin: float = 3) -> bool:
    return bool((pts[:, 0] >= margin).all() and (pts[:, 0] <= w - 1 - margin).all()
                and (pts[:, 1] >= margin).all() and (pts[:, 1] <= h - 1 - margin).all())


def _bilinear(gray: np.ndarray, pts: np.ndarray) -> np.ndarray:
    x, y = pts[:, 0], pts[:, 1]
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = x - x0, y - y0
    g = gray.astype(float)
    return ((1 - fx) * (1 - fy) * g[y0, x0] + fx * (1 - fy) * g[y0, x0 + 1]
            + (1 - fx) * fy * g[y0 + 1, x0] + fx * fy * g[y0 + 1, x0 + 1])


def _edge_probes(c: np.ndarray, off: float) -> tuple[np.ndarray, np.ndarray]:
    """Points ``off`` px inside and outside each edge (20 per edge, away from the corners),
    plus points ``off`` px inside each corner along its bisector and outside it."""
    cen = c.mean(axis=0)
    ins, outs = [], []
    for k in range(3):
        a, b = c[k], c[(k + 1) % 3]
        e = (b - a) / np.linalg.norm(b - a)
        n = np.array([e[1], -e[0]])
        if np.dot(cen - a, n) < 0:
            n = -n  # inward normal
        for t in np.linspace(0.15, 0.85, 20):
            p = a + (b - a) * t
            ins.append(p + n * off)
            outs.append(p - n * off)
        bis = (cen - c[k]) / np.linalg.norm(cen - c[k])
        ins.append(c[k] + bis * off * 2.5)  # 2.5: a 60-degree corner is narrow
        outs.append(c[k] - bis * off)
    return np.array(ins), np.array(outs)


def _pattern_sample(seed: int = 11):
    s = render(seed, size=(1024, 768), style=PATTERN)
    gray = s.image.mean(axis=2)
    tiles = [t for t in s.label["tiles"]
             if _inside_frame(np.array(t["corner_px"]), 1024, 768) and not t["flags"]]
    assert len(tiles) >= 8, "the test needs several whole tiles in the frame"
    return s, gray, tiles


def _label_fits(gray: np.ndarray, corners: np.ndarray, off: float = 1.0) -> bool:
    ins, outs = _edge_probes(corners, off)
    return bool((_bilinear(gray, ins) > 200).all() and (_bilinear(gray, outs) < 200).all())


def test_label_corners_land_on_rendered_corners_within_1px():
    s, gray, tiles = _pattern_sample()
    assert s.label["tile_side_px"] > 40
    for t in tiles:
        c = np.array(t["corner_px"])
        assert _label_fits(gray, c), f"label of {t['cell']} is not on the rendered tile"


def test_label_check_detects_a_label_off_by_two_pixels():
    # the probe really constrains the corners: the same labels moved 2 px fail
    _, gray, tiles = _pattern_sample()
    for shift in ([2.0, 0.0], [0.0, -2.0], [-1.5, 1.5]):
        bad = [t for t in tiles if not _label_fits(gray, np.array(t["corner_px"]) + shift)]
        assert len(bad) == len(tiles)
    # one corner alone 2 px off is caught too
    t = tiles[0]
    c = np.array(t["corner_px"])
    c[1] += [1.5, -1.5]
    assert not _label_fits(gray, c)


def test_centroid_and_corner_order_clockwise_seen_from_above():
    s, _, tiles = _pattern_sample()
    for t in s.label["tiles"]:
        c = np.array(t["corner_px"])
        # image y points down: clockwise on screen has a positive shoelace sum
        area = sum(c[k, 0] * c[(k + 1) % 3, 1] - c[(k + 1) % 3, 0] * c[k, 1] for k in range(3))
        assert area > 0
        cen = np.array(t["centroid_px"])
        assert np.linalg.norm(cen - c.mean(axis=0)) < 0.05 * s.label["tile_side_px"]


def test_digits_sit_at_0_36_of_the_height_from_their_corner():
    s, gray, tiles = _pattern_sample()
    st = s.label["style"]
    errs, heights = [], []
    for t in tiles:
        c = np.array(t["corner_px"])
        cen = c.mean(axis=0)
        want = [c[k] + (cen - c[k]) * st["digit_in"] * 1.5 for k in range(3)]
        x0, y0 = np.floor(c.min(axis=0)).astype(int)
        x1, y1 = np.ceil(c.max(axis=0)).astype(int)
        yy, xx = np.mgrid[y0:y1 + 1, x0:x1 + 1]
        inner = np.zeros_like(gray, np.uint8)
        cv2.fillConvexPoly(inner, np.round(cen + (c - cen) * 0.93).astype(np.int32), 1)
        ink = (gray[y0:y1 + 1, x0:x1 + 1] < 100) & (inner[y0:y1 + 1, x0:x1 + 1] > 0)
        pts = np.stack([xx[ink], yy[ink]], axis=1).astype(float)
        side = np.mean([np.linalg.norm(c[k] - c[(k + 1) % 3]) for k in range(3)])
        for k in range(3):
            d = np.linalg.norm(pts - want[k], axis=1)
            mine = pts[d < 0.2 * side]
            assert len(mine) > 5
            errs.append(np.linalg.norm(mine.mean(axis=0) - want[k]) / side)
            heights.append(np.ptp(mine @ ((cen - c[k]) / np.linalg.norm(cen - c[k]))) / side)
    # ink centroid within 5 % of a side of the intended digit centre (digit shapes vary)
    assert np.median(errs) < 0.03 and max(errs) < 0.07
    # digit extent along the corner-centre line is about the digit height (~1/5 side)
    assert abs(np.median(heights) - st["digit_height"]) < 0.05


def test_render_is_deterministic_and_seeds_differ():
    a = render(5, size=(320, 240))
    b = render(5, size=(320, 240))
    c = render(6, size=(320, 240))
    assert np.array_equal(a.image, b.image) and a.label == b.label and a.jpeg == b.jpeg
    assert not np.array_equal(a.image, c.image)
    assert a.image.shape == (240, 320, 3) and a.image.dtype == np.uint8
    assert [x.label for x in stream(5, 2, size=(320, 240))][0] == a.label


def test_grown_boards_are_legal():
    for seed in range(6):
        b = grow_board(np.random.default_rng(seed), 56)
        assert b.is_valid(), b.violations()
        assert len(b) >= 30


def test_rendered_boards_are_legal_and_labels_load_as_boards():
    for seed in range(4):
        s = render(seed, size=(480, 360))
        assert s.label["format"] == "triominos-reading/1"
        assert s.label["violations"] == []
        board = Board.from_json(s.label, strict=False)
        # what the photo shows breaks no rule; it may be in pieces where the frame cuts it
        kinds = {v.kind.name for v in board.violations()}
        assert kinds <= {"DISCONNECTED"}
        if kinds:
            assert s.label["style"]["tiles_out_of_frame"] > 0
        assert len(board) == len(s.label["tiles"])
        for t in s.label["tiles"]:
            assert set(t) >= {"cell", "corners", "tile", "corner_px", "centroid_px", "flags"}


def test_faults_are_made_and_reported():
    kinds = set()
    for seed in range(6):
        s = render(seed, size=(640, 480), faults=True,
                   style={"board_fill": 0.6, "off_frame": 0, "hand": 0,
                          "edge_object": "none"})
        made = s.label["style"]["faults_made"]
        assert made
        got = {v["kind"] for v in s.label["violations"]}
        for f in made:
            kinds.add(f["kind"])
            assert f["kind"] in got
    assert kinds == {"corner_mismatch", "corner_only"}


def test_label_violations_are_those_a_reader_can_see() -> None:
    # a tile touching the board by a corner: the board is in two pieces, the engine
    # naming each by its lowest cell
    board = Board()
    for n, cell in enumerate([(0, 0, "U"), (0, 0, "D"), (0, -1, "D"), (-1, 0, "D"),
                              (1, 0, "D")]):
        board.cells[cell] = (n, n, n + 1)  # type: ignore[index]
    kinds = {v.kind.name: v.cells for v in board.violations()}
    assert {"CORNER_ONLY", "DISCONNECTED"} <= set(kinds)
    every = set(board.cells)
    assert kinds["DISCONNECTED"] == ((-1, 0, "D"), (1, 0, "D"))
    assert {v.kind.name: v.cells for v in label_violations(board, every)} == kinds
    # the main piece's lowest cell out of view: the piece is named by its lowest in view
    # (what a reader reading every tile in view names), the tile by a corner kept
    seen = every - {(-1, 0, "D")}
    got = {v.kind.name: v.cells for v in label_violations(board, seen)}
    assert got["DISCONNECTED"] == ((0, -1, "D"), (1, 0, "D"))
    assert got["CORNER_ONLY"] == ((1, 0, "D"),)
    # a piece wholly out of view: no reader can see the board in pieces, nor that tile
    got = {v.kind.name: v.cells for v in label_violations(board, every - {(1, 0, "D")})}
    assert not {"DISCONNECTED", "CORNER_ONLY"} & set(got)


def test_every_style_renders():
    names = style_names()
    assert set(names) >= {"edition", "font", "table"}
    seed = 0
    for key, options in names.items():
        for opt in options:
            seed += 1
            s = render(seed, size=(256, 192), style={key: opt, "n_tiles": 8})
            assert s.label["style"][key] == opt
            assert s.image.shape == (192, 256, 3)
            assert s.label["tiles"], f"{key}={opt} rendered no tile"


def test_pinning_restricting_and_holding_out_styles():
    rng = np.random.default_rng
    free = [sample_style(rng(k))["font"] for k in range(60)]
    assert len(set(free)) > 3
    keep = holdout("font", ["aileron", "cv_sans"])
    held = [sample_style(rng(k), {"font": keep})["font"] for k in range(60)]
    assert not {"aileron", "cv_sans"} & set(held)
    # pinning one key leaves every other choice of that seed unchanged
    a = sample_style(rng(3))
    b = sample_style(rng(3), {"table": "paper"})
    assert b["table"] == "paper"
    assert {k: v for k, v in a.items() if k != "table"} == {
        k: v for k, v in b.items() if k != "table"}
    with pytest.raises(StyleError):
        sample_style(rng(0), {"font": "comic_sans"})
    with pytest.raises(StyleError):
        sample_style(rng(0), {"colour": "red"})
    with pytest.raises(TriominosError):
        holdout("font", list(style_names()["font"]))


def test_partial_tiles_flagged_when_the_board_runs_off_the_frame():
    s = render(21, size=(400, 300), style={"board_fill": 2.5, "off_frame": 1, "n_tiles": 40})
    flags = [t["flags"] for t in s.label["tiles"]]
    assert any("partial" in f for f in flags)
    for t in s.label["tiles"]:
        c = np.array(t["corner_px"])
        inside = _inside_frame(c, 400, 300, margin=-0.5)
        assert ("partial" in t["flags"]) == (not inside)
    assert math.isfinite(s.label["tile_side_px"])


def test_rack_tiles_are_labelled_off_board_and_hide_what_is_behind():
    seen_rack = False
    for seed in range(40, 46):
        s = render(seed, size=(640, 480), style={"rack": True, "tilt_deg": [30, 50]})
        rack = [o for o in s.label["off_board"] if "rack" in o["flags"]]
        seen_rack |= bool(rack)
        for o in rack:
            assert len(o["corner_px"]) == 3
            assert (o["tile"] is None) == o["face_down"] == (o["corners"] is None)
        on_board = {tuple(t["cell"]) for t in s.label["tiles"]}
        assert len(on_board) == len(s.label["tiles"])
    assert seen_rack


def test_hand_flags_the_tiles_it_covers():
    flagged = 0
    for seed in range(50, 60):
        s = render(seed, size=(480, 360), style={"hand": True, "board_fill": 0.9})
        flagged += sum("occluded" in t["flags"] for t in s.label["tiles"])
        no_hand = render(seed, size=(480, 360), style={"hand": False, "board_fill": 0.9,
                                                       "edge_object": "none", "rack": False})
        assert not any("occluded" in t["flags"] for t in no_hand.label["tiles"])
    assert flagged > 0
