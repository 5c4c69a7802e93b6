"""The shipped digit classifier (vision.classifier): loading, checks, fixed crops, real photo."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.classifier import (
    CLASSES,
    DEFAULT_MODEL,
    RAW_CLASSES,
    DigitClassifier,
    ModelError,
    file_sha256,
)
from vision.crops import CROP_SIZE, CROP_VERSION, corner_crops

DATA = Path(__file__).resolve().parent / "data" / "classifier"
REAL = Path(__file__).resolve().parents[2] / "shared" / "reference"


@pytest.fixture(scope="module")
def clf() -> DigitClassifier:
    return DigitClassifier.load()


def test_default_model_loads_with_metadata(clf: DigitClassifier) -> None:
    assert clf.path == DEFAULT_MODEL
    m = clf.metadata
    assert tuple(m["raw_classes"]) == RAW_CLASSES
    assert m["classes"] == list(CLASSES)
    assert m["input_size"] == CROP_SIZE and m["crop_version"] == CROP_VERSION
    for key in ("normalisation", "training_data", "seed", "val_accuracy"):
        assert key in m
    assert 0.95 <= m["val_accuracy"] <= 1.0  # all held-out crops, illegible ones included
    assert m["training_data"]["holdout"]  # validation styles were held out
    assert DEFAULT_MODEL.stat().st_size < 1_000_000  # a few hundred KB


def test_predict_shapes_and_probabilities(clf: DigitClassifier) -> None:
    crops = np.random.default_rng(1).integers(0, 256, (5, CROP_SIZE, CROP_SIZE), np.uint8)
    p = clf.predict(crops)
    assert p.shape == (5, 7) and p.dtype == np.float32
    assert np.allclose(p.sum(axis=1), 1, atol=1e-5)
    full = clf.predict_full(crops)
    assert full.raw.shape == (5, 13) and full.inward.shape == (5,)
    assert np.allclose(full.probs, p)
    assert clf.predict(np.zeros((0, CROP_SIZE, CROP_SIZE), np.uint8)).shape == (0, 7)
    with pytest.raises(ModelError):
        clf.predict(np.zeros((3, 20, 20), np.uint8))


def _one_line(e: pytest.ExceptionInfo[ModelError]) -> str:
    msg = str(e.value)
    assert "\n" not in msg and msg
    return msg


def test_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError) as e:
        DigitClassifier.load(tmp_path / "digits.onnx")
    assert "not found" in _one_line(e)


def test_missing_checksum_is_a_clear_error(tmp_path: Path) -> None:
    shutil.copy(DEFAULT_MODEL, tmp_path / "digits.onnx")
    with pytest.raises(ModelError) as e:
        DigitClassifier.load(tmp_path / "digits.onnx")
    assert "checksum" in _one_line(e)


def test_damaged_model_fails_its_hash(tmp_path: Path) -> None:
    model = tmp_path / "digits.onnx"
    data = bytearray(DEFAULT_MODEL.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte somewhere in the weights
    model.write_bytes(bytes(data))
    shutil.copy(DEFAULT_MODEL.with_name("digits.onnx.sha256"), tmp_path / "digits.onnx.sha256")
    with pytest.raises(ModelError) as e:
        DigitClassifier.load(model)
    assert "damaged" in _one_line(e)


def test_unreadable_model_with_matching_hash(tmp_path: Path) -> None:
    model = tmp_path / "digits.onnx"
    model.write_bytes(b"not an onnx file")
    (tmp_path / "digits.onnx.sha256").write_text(f"{file_sha256(model)}  digits.onnx\n")
    with pytest.raises(ModelError) as e:
        DigitClassifier.load(model)
    assert "cannot be loaded" in _one_line(e)


def test_fixed_crops_are_classified_correctly(clf: DigitClassifier) -> None:
    """Legible held-out-style crops (every raw class), committed in tests/data/classifier
    (written by ``python -m benchmarks.eval_classifier --write-fixture``)."""
    with np.load(DATA / "heldout_crops.npz") as z:
        x, y = z["x"], z["y"]
    assert set(y.tolist()) == set(range(13))
    full = clf.predict_full(x)
    want = np.where(y == 12, 6, y % 6)
    assert np.array_equal(full.probs.argmax(axis=1), want)
    # The print convention, on digits whose shape shows it (not 0, not none).
    shows = (y < 12) & (y % 6 != 0)
    assert np.array_equal(full.inward[shows] > 0.5, y[shows] < 6)


def test_a_large_batch_read_in_two_halves_at_once_reads_as_one_call(
        clf: DigitClassifier, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    import vision.classifier as vc

    with np.load(DATA / "heldout_crops.npz") as z:
        x = z["x"]
    assert len(x) >= 2 * vc.SPLIT_MIN
    threads: list[str] = []
    real = clf._session.run

    def run(*a, **k):  # type: ignore[no-untyped-def]
        threads.append(threading.current_thread().name)
        return real(*a, **k)

    monkeypatch.setattr(clf, "_session", type("S", (), {"run": staticmethod(run)})())
    split = clf.predict_raw(x)
    assert len(threads) == 2 and len(set(threads)) == 2  # two halves, two threads
    threads.clear()
    with vc.whole_batches():
        whole = clf.predict_raw(x)
    assert threads == [threading.current_thread().name]
    assert np.array_equal(split, whole)  # each crop read on its own: the same to the bit
    # split again after the block; a small batch is one call
    threads.clear()
    clf.predict_raw(x)
    clf.predict_raw(x[:vc.SPLIT_MIN - 1])
    assert len(threads) == 3


def test_a_half_failing_on_the_other_thread_fails_the_call(
        clf: DigitClassifier, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    def run(*a, **k):  # type: ignore[no-untyped-def]
        if threading.current_thread() is not threading.main_thread():
            raise RuntimeError("onnxruntime failed")
        return [np.zeros((len(a[1][clf._input]), 13), np.float32)]

    monkeypatch.setattr(clf, "_session", type("S", (), {"run": staticmethod(run)})())
    with pytest.raises(RuntimeError, match="onnxruntime failed"):
        clf.predict_raw(np.zeros((40, CROP_SIZE, CROP_SIZE), np.uint8))


def test_batch_workers_read_their_batches_on_one_thread() -> None:
    from vision.batch import _map

    got = list(_map(_split_setting, ["a", "b", "c"], 2))
    assert [g["split_min"] for g in got] == [0, 0, 0]


def _split_setting(_: str) -> dict[str, int]:
    import vision.classifier as vc

    return {"split_min": vc._split_min}


def test_real_photo_hand_marked_corners(clf: DigitClassifier) -> None:
    """Crops cut at hand-measured corners of the real reference photo (skips without it)."""
    photo = REAL / "real_product_photo_12_tiles.jpg"
    if not photo.is_file():
        pytest.skip("../shared/reference not available")
    import cv2

    tiles = json.loads((DATA / "real_photo_corners.json").read_text())
    img = cv2.imread(str(photo))
    px = np.array([t["corner_px"] for t in tiles], float)
    full = clf.predict_full(corner_crops(img, px))
    truth = np.array([d for t in tiles for d in t["corners"]])
    assert np.mean(full.probs.argmax(axis=1) == truth) >= 35 / 36
    # This edition prints digit tops toward the tile centre.
    assert np.mean(full.inward[truth != 0] > 0.5) >= 0.9


def test_ceiling_and_blur_band_figure(tmp_path: Path) -> None:
    import cv2

    from benchmarks.eval_classifier import blur_band_figure, ceiling
    # 1000 crops: 100 blurred past 4 % of the side (50 read wrong), 900 sharp (all right)
    y = np.tile(np.arange(6), 167)[:1000]
    info = np.stack([np.full(1000, 50.0), np.r_[np.full(100, 3.0), np.zeros(900)]], axis=1)
    pred = y.copy()
    pred[:50] = (y[:50] + 1) % 6
    probs = np.eye(7)[pred]
    c = ceiling(y, probs, info)
    assert c["errors_allowed"] == 1 and c["blur_ge_0.04"]["errors"] == 50
    assert c["blur_ge_0.04"]["share_of_all_errors"] == 1.0
    assert c["band_accuracy_needed"] == 0.99 and c["accuracy_elsewhere"] == 1.0
    x = np.random.default_rng(0).integers(0, 255, (1000, CROP_SIZE, CROP_SIZE), np.uint8)
    img = cv2.imread(str(blur_band_figure(x, y, info, tmp_path / "b.png", per_band=5, px=40)))
    assert img.shape == (4 * 40, 8 * 40, 3)  # a row per band: 3 cells of heading + 5 crops


def test_digits_read_at_the_label_corners() -> None:
    # the benchmark of the classifier alone: a sharp photo's board read at its label's
    # exact corners, and the totals over photos
    from benchmarks.eval_label_corners import photo_at_label_corners, shares
    row = photo_at_label_corners(71_000_000)  # sharp, tiles of 100 px or more
    assert row["blur"] == "<0.02" and row["tiles"] >= 5
    assert row["digits"] >= 3 * row["tiles"] and row["digits_right"] == row["digits"]
    assert row["tiles_clear"] == row["tiles"]
    worse = {**row, "digits_right": row["digits"] - 1, "tiles_clear": row["tiles"] - 1}
    s = shares([row, worse])
    assert s["photos"] == 2 and s["photos_all_digits_right"] == 0.5
    assert s["digit_accuracy"] == round(1 - 1 / (2 * row["digits"]), 5)
    assert s["photos_all_tiles_clear"] == 0.5
