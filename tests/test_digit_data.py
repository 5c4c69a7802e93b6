"""The classifier's training crops: tiles under a hand (numpy only, no torch)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synth import render
from vision.train import digit_data as dd


def test_hands_are_pinned_off_unless_asked_for() -> None:
    style = dd.split_style("train")
    assert style["hand"] is False and style["objects"] == 0
    with_hands = dd.split_style("train", hands=True)
    assert "hand" not in with_hands and "objects" not in with_hands
    assert with_hands["font"] == style["font"]  # the held-out styles stay out either way


def test_a_digit_under_a_hand_is_labelled_none_the_others_their_digit() -> None:
    s = render(53, size=(480, 360), style={"hand": True, "board_fill": 0.9})
    marked = [t for t in s.label["tiles"] if t.get("hidden_corners")]
    assert marked, "seed 53 has a hand over digits"
    t = marked[0]
    assert len(t["hidden_corners"]) < 3  # one digit at least in view
    label = {"style": s.label.get("style", {}), "tiles": [t]}
    # by default an occluded tile is left out: its label names digits nobody can see
    assert list(dd._tile_entries(label)) == []
    _, y, _ = dd.crops_from_render(s.image, label, np.random.default_rng(0),
                                   negatives=False)
    assert len(y) == 0
    (_, digits), = dd._tile_entries(label, occluded=True)
    assert digits == [None if k in t["hidden_corners"] else t["corners"][k]
                      for k in range(3)]
    x_none, y, _ = dd.crops_from_render(s.image, label, np.random.default_rng(0),
                                        negatives=False, occluded=True)
    outward = label["style"].get("digit_up", "centre") == "corner"
    assert y.tolist() == [dd.NONE_LABEL if k in t["hidden_corners"]
                          else t["corners"][k] + 6 * outward for k in range(3)]
    # ... or, hidden "skip", only the digits in view are cut (the crops the same)
    x, y, side = dd.crops_from_render(s.image, label, np.random.default_rng(0),
                                      negatives=False, occluded=True, hidden="skip")
    shown = [k for k in range(3) if k not in t["hidden_corners"]]
    assert y.tolist() == [t["corners"][k] + 6 * outward for k in shown]
    assert np.array_equal(x, x_none[shown]) and len(side) == len(shown)


def test_a_face_down_tile_gives_none_crops_only() -> None:
    px = [[100.0, 40.0], [160.0, 144.0], [40.0, 144.0]]
    label = {"tiles": [], "off_board": [{"corner_px": px, "corners": None,
                                         "face_down": True, "flags": []}]}
    (got_px, digits), = dd._tile_entries(label)
    assert digits is None and np.allclose(got_px, px)


def test_hidden_must_be_none_or_skip() -> None:
    with pytest.raises(ValueError, match="hidden"):
        dd.crops_from_render(np.zeros((10, 10, 3), np.uint8), {"tiles": []},
                             np.random.default_rng(0), hidden="guess")


def test_training_options_refuse_hidden_skip_without_hands(
        capsys: pytest.CaptureFixture[str]) -> None:
    from vision.train.options import parse_args
    # without hands in the renders no digit is hidden: "skip" would change nothing
    with pytest.raises(SystemExit) as e:
        parse_args(["--hidden", "skip"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith("--hidden skip needs --hands: without hands or objects in the "
                            "renders no digit is hidden")
    args = parse_args(["--hands", "--hidden", "skip", "--epochs", "3"])
    assert (args.hands, args.hidden, args.epochs) == (True, "skip", 3)
    assert parse_args([]).hidden == "none"


def test_hard_renders_are_small_blurred_tiles_from_their_own_seeds(
        capsys: pytest.CaptureFixture[str]) -> None:
    from vision.train.options import parse_args
    hard = dd.split_style("train", hard=True)
    assert {k: hard[k] for k in dd.HARD_STYLE} == dd.HARD_STYLE
    assert hard["font"] == dd.split_style("train")["font"]  # held-out styles stay out
    assert "tile_px" not in dd.split_style("train")
    s = render(dd.HARD_SEED0 + 4, size=dd.RENDER_SIZE, style=hard)
    st = s.label["style"]
    assert 20.0 <= st["tile_px"] <= 50.0 and st["blur"] in ("defocus", "motion")
    assert 0.8 <= st["blur_px"] <= 2.5
    # their seeds are none of the other training renders' (TRAIN_SEED0 + seed + i)
    assert dd.HARD_SEED0 - dd.TRAIN_SEED0 > 100_000
    with pytest.raises(ValueError, match="training only"):
        dd.build("val", 1, jitter=dd.NO_JITTER, hard=True, cache=None)
    assert parse_args(["--hard", "500"]).hard == 500 and parse_args([]).hard == 0
    with pytest.raises(SystemExit) as e:
        parse_args(["--hard", "-1"])
    assert e.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith(
        "--hard must be 0 or more, not -1")
