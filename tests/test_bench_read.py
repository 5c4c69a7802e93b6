"""The speed benchmark's own arithmetic: decode-only and full reads timed in pairs, the
ratio of their medians and of each pair, and the score against a label beside the photo."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest
from helpers import needs_model

from benchmarks.bench_read import TARGET_RATIO, bench_photo, chosen_word, code_measured
from vision.batch import required_tiles
from vision.synth import render


@needs_model
def test_bench_photo_times_pairs_and_scores_against_the_label(tmp_path: Path) -> None:
    s = render(71_000_001, size=(640, 480))
    ok, jpg = cv2.imencode(".jpg", s.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    photo = tmp_path / "table.jpg"
    photo.write_bytes(jpg.tobytes())
    (tmp_path / "table.json").write_text(json.dumps(s.label), encoding="utf-8")
    out = bench_photo(photo.read_bytes(), str(photo), repeat=5)
    assert (out["width"], out["height"], out["repeat"]) == (640, 480, 5)
    assert out["decode_only_ms"] > 0 and out["full_read_ms"] > out["decode_only_ms"]
    # (from the medians before they are rounded to 0.1 ms)
    assert out["ratio"] == pytest.approx(out["full_read_ms"] / out["decode_only_ms"], rel=0.1)
    pairs = out["ratio_per_pair"]
    lo, hi = pairs["quartiles"]
    assert 0 < lo <= pairs["median"] <= hi
    # each pair's ratio is the same measure: its median near the ratio of the medians
    assert 0.5 * out["ratio"] <= pairs["median"] <= 2 * out["ratio"]
    # (of five pairs, the middle one is the median)
    assert pairs["within_target"] in ((3, 4, 5) if pairs["median"] <= TARGET_RATIO
                                      else (0, 1, 2))
    # the reading is scored against the label lying beside the photo
    assert out["against_label"]["label_tiles"] == required_tiles(s.label) > 0
    assert out["against_label"]["matched"] <= out["against_label"]["label_tiles"]
    assert set(out["stage_median_ms"]) == {"decode", "detect", "classify", "reconstruct",
                                           "total"}


@needs_model
def test_ab_read_tells_a_setting_that_changes_the_reading_from_one_that_does_not() -> None:
    from benchmarks.ab_read import compare
    # dev 71000576: a patch of cloth outlined as a face is dropped (drop_no_digit_tile)
    seed = 71_000_576
    alike = compare({}, {"silhouette_threads": 1}, [seed], repeat=2)
    other = compare({}, {"drop_no_digit_tile": False}, [seed], repeat=1)
    assert alike["same"] == 1 and alike["photos"][0]["same"]
    assert other["same"] == 0 and not other["photos"][0]["same"]
    for out in (alike, other):
        (p,) = out["photos"]
        assert p["seed"] == seed and p["a_s"] > 0 and p["b_s"] > 0
        assert out["a_total_s"] == pytest.approx(p["a_s"], abs=0.01)
        assert out["b_over_a"] == pytest.approx(p["b_s"] / p["a_s"], rel=0.05)
    with pytest.raises(TypeError):
        compare({}, {"no_such_setting": 1}, [seed])


def test_ab_code_reads_each_photo_with_both_readers_and_tells_if_they_agree() -> None:
    from benchmarks.ab_code import compare
    calls: list[str] = []

    def reader(tag: str, text: str) -> object:
        def read(photo: object) -> tuple[str, float]:
            calls.append(f"{tag}:{photo}")
            return (text + str(photo) if tag == "new" and photo == "b" else text), 0.01
        return read

    out = compare(reader("old", "r"), reader("new", "r"), [("A", "a"), ("B", "b")], 2)
    assert [p["same"] for p in out["photos"]] == [True, False] and out["same"] == 1
    # a warm read of each, then old-new and new-old
    assert calls[:6] == ["old:a", "new:a", "old:a", "new:a", "new:a", "old:a"]
    assert out["old_total_s"] == pytest.approx(0.02) and out["new_over_old"] == 1.0


def test_ab_code_imports_the_reader_of_a_commit_beside_this_one(tmp_path: Path) -> None:
    import shutil
    if shutil.which("git") is None or not (Path(__file__).resolve().parents[1] / ".git").exists():
        pytest.skip("not a git checkout")
    from benchmarks.ab_code import load_rev
    pkg = load_rev("HEAD", tmp_path)
    assert pkg.__name__ == "vision_HEAD" and Path(pkg.__file__).is_relative_to(tmp_path)
    pipeline = __import__("vision_HEAD.pipeline", fromlist=["read_image"])
    assert Path(pipeline.__file__).is_relative_to(tmp_path) and callable(pipeline.read_image)
    assert (tmp_path / "models" / "digits.onnx").is_file()
    with pytest.raises(ValueError, match="no_such_rev"):
        load_rev("no_such_rev", tmp_path)


def test_results_name_the_cpu_they_were_measured_on(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    # the same code reads a few photos differently on two CPUs: every results file names
    # the CPU's model (from /proc/cpuinfo where there is one, else what platform knows)
    import builtins

    from benchmarks.eval_reader import cpu_model, machine
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nvendor_id\t: GenuineIntel\n"
                    "model name\t: Example CPU @ 2.00GHz\nflags\t: fpu\n", encoding="utf-8")
    real_open = builtins.open

    def fake_open(path: object, *a: object, **k: object) -> object:
        if path == "/proc/cpuinfo":
            return real_open(info, *a, **k)  # type: ignore[call-overload]
        return real_open(path, *a, **k)  # type: ignore[call-overload]
    monkeypatch.setattr(builtins, "open", fake_open)
    assert cpu_model() == "Example CPU @ 2.00GHz"
    assert machine()["cpu"] == "Example CPU @ 2.00GHz"
    info.write_text("processor\t: 0\n", encoding="utf-8")
    assert cpu_model()  # no model line: platform's answer, never empty


def test_the_installed_opencv_is_the_release_the_reader_was_measured_with() -> None:
    # OpenCV 5.1.0 renders the synthetic photos otherwise than 5.0.0, on which every
    # threshold was set and every test photo made (62 of the 300 held-out photos read
    # differently): pyproject.toml pins the release, and a checkout installed with another
    # one would measure (and test) other photos
    import re
    from importlib.metadata import version

    from benchmarks.eval_reader import machine
    text = (Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    pin = re.search(r'"opencv-python-headless==([0-9.]+)"', text)
    assert pin is not None, "pyproject.toml pins no OpenCV release"
    assert version("opencv-python-headless") == pin.group(1)
    # and every results file names the releases it was measured with
    assert machine()["packages"]["opencv-python-headless"] == pin.group(1)
    assert set(machine()["packages"]) == {"opencv-python-headless", "numpy", "onnxruntime"}


def test_ab_code_takes_a_reading_without_notes_as_one_from_before_the_key(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Reading JSON gained "notes" (stop 57): an empty list compares equal to a reading of
    # an earlier commit, which has no such key; a note is a difference
    import json

    import numpy as np

    import vision.pipeline as pipeline
    from benchmarks.ab_code import _reader
    from vision.reading import BOARD_TOO_BLURRED, Reading
    made: list[Reading] = []
    monkeypatch.setattr(pipeline, "default_classifier", lambda: None)
    monkeypatch.setattr(pipeline, "read_array", lambda *a, **k: made[-1])
    read = _reader("vision")
    made.append(Reading("x", 4, 3))
    assert "notes" not in json.loads(read(np.zeros((3, 4, 3), np.uint8))[0])
    made.append(Reading("x", 4, 3, notes=[BOARD_TOO_BLURRED]))
    assert json.loads(read(np.zeros((3, 4, 3), np.uint8))[0])["notes"] == [BOARD_TOO_BLURRED]


def test_ab_code_refuses_seeds_that_are_not_whole_numbers_in_one_line() -> None:
    import subprocess
    import sys
    for bad, why in (("7100x", "whole numbers"), ("-5", "0 or more")):
        done = subprocess.run([sys.executable, "-m", "benchmarks.ab_code", "--rev", "HEAD",
                               "--seeds", bad], capture_output=True, text=True,
                              cwd=Path(__file__).resolve().parents[1], timeout=120)
        assert done.returncode != 0
        assert done.stderr.strip().splitlines() == [
            f"ab_code: --seeds must be {why}, got {bad!r}"]


def test_ab_code_renders_its_synthetic_photos_with_the_style_pinned() -> None:
    # --style edition=onyx: the onyx dev photos, as eval_reader --style renders them
    import subprocess
    import sys

    from benchmarks.ab_code import synthetic_photos
    from benchmarks.eval_reader import parse_style
    (name, onyx), = synthetic_photos([73_000_043], parse_style(["edition=onyx"]))
    (_, plain), = synthetic_photos([73_000_043])
    assert name == "synth_73000043"
    assert onyx.label["style"]["edition"] == "onyx" != plain.label["style"]["edition"]
    assert synthetic_photos([]) == []
    # a style it does not know: one line, before any photo
    done = subprocess.run([sys.executable, "-m", "benchmarks.ab_code", "--rev", "HEAD",
                           "--seeds", "1", "--style", "edition=nosuch"], capture_output=True,
                          text=True, cwd=Path(__file__).resolve().parents[1], timeout=120)
    assert done.returncode != 0
    err = done.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("ab_code: ") and "nosuch" in err[0]


def test_the_huge_page_mode_is_the_word_the_kernel_brackets() -> None:
    # recorded beside the speeds and the page faults (how the kernel may back fresh memory)
    assert chosen_word("always [madvise] never\n") == "madvise"
    assert chosen_word("[always] madvise never") == "always"
    assert chosen_word("") == "unknown"


def test_a_speed_result_names_the_commit_it_measured(tmp_path: Path) -> None:
    # a ratio is one code's on one host: the file says which (a run from a checkout of an
    # earlier commit names that one)
    import subprocess
    root = Path(__file__).resolve().parents[1]
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root,
                          capture_output=True, text=True).stdout.strip()
    if not head:
        pytest.skip("not a git checkout")
    assert code_measured(root) == f"{head} (working tree)"
    assert code_measured(tmp_path) == "unknown (working tree)"


def test_blur_hint_measures_a_photo_as_the_reader_hints_and_tallies_by_blur(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks import blur_hint
    from vision.pipeline import HINT_BLURRED
    # dev 71000022: defocused by 2.55 px, grainy (noise 7.7): blurred by its edges,
    # though its Laplacian's variance (its grain) was far over the bar before
    row = blur_hint.measure(71_000_022)
    assert row["blur_px"] == pytest.approx(2.55, abs=0.01) and row["laplacian"] > 15
    assert row["sharpness"] < 0.18 and row["hint"] == HINT_BLURRED
    rows = [row, {"blur_px": 0.5, "hint": "", "laplacian": 40.0, "mean_grey": 120.0},
            {"blur_px": 0.5, "hint": HINT_BLURRED, "laplacian": 9.0, "mean_grey": 120.0},
            {"blur_px": 1.2, "hint": "", "laplacian": 9.0, "mean_grey": 20.0}]
    t = blur_hint.tally(rows)
    assert t["sharp (0.6 px or less)"] == {"photos": 2, "said_blurred": 1,
                                          "said_blurred_before": 1}
    assert t["some (0.6-2 px)"] == {"photos": 1, "said_blurred": 0,
                                   "said_blurred_before": 0}  # very dark: not "blurred"
    assert t["blurred (2.5 px or more)"] == {"photos": 1, "said_blurred": 1,
                                            "said_blurred_before": 0}
    # the whole run, written where it is told (not into the repository's results here)
    wrote: dict[str, dict] = {}
    monkeypatch.setattr(blur_hint, "write_json", lambda name, out: wrote.setdefault(name, out))
    blur_hint.main(["--seed", "71000022", "--count", "2", "--workers", "1", "--name", "x"])
    assert [r["seed"] for r in wrote["x"]["photos"]] == [71_000_022, 71_000_023]
    assert wrote["x"]["bands"]["blurred (2 px or more)"]["said_blurred"] >= 1
    with pytest.raises(SystemExit, match="--count and --workers must be 1 or more"):
        blur_hint.main(["--count", "0"])
