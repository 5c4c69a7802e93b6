"""The corner-digit classifier: a small ONNX CNN run by onnxruntime (no torch needed).

Input: grey crops from :func:`vision.crops.corner_crops` (``(N, S, S)`` uint8). The model
does its own normalisation inside the graph (per-crop standardisation), so callers pass
raw pixels.

Classes (13 raw outputs, see ``metadata["raw_classes"]``): the six digits printed with
their top toward the tile centre (``0``..``5``, upright in the crop), the six digits
printed the other way round (``0r``..``5r``, upside down in the crop), and ``none`` (a
blank tile back, table, a crop that missed). :meth:`DigitClassifier.predict` marginalises
the print convention away and returns probabilities for ``0``..``5``, ``none``;
:meth:`DigitClassifier.predict_full` also returns, per crop, the probability that the
digit is printed top-inward: the board's convention is a fact to report and check, never a
reason to drop a digit's other half (an edition, even one tile, may show both).

The model file is checked against its SHA-256 sidecar (``digits.onnx.sha256``) before
onnxruntime ever sees it: a missing, damaged or swapped model is a one-line
:class:`ModelError`.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import TriominosError

from .crops import CROP_SIZE, CROP_VERSION

#: Where the shipped model lives (repo-relative, works from any working directory).
MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
DEFAULT_MODEL = MODELS_DIR / "digits.onnx"
#: Output classes of :meth:`DigitClassifier.predict`: digits 0-5 then "none".
CLASSES: tuple[str, ...] = ("0", "1", "2", "3", "4", "5", "none")
NONE = 6
#: Raw model outputs: top-inward digits, top-outward digits, none.
RAW_CLASSES: tuple[str, ...] = tuple(f"{d}" for d in range(6)) + tuple(
    f"{d}r" for d in range(6)) + ("none",)


#: A batch of at least this many crops is run in two halves at once, the second on another
#: thread (onnxruntime lets go of the GIL and may be run from several threads at once;
#: each crop is read on its own, so the probabilities are those of one call). On the
#: project's 2-core machine a second onnxruntime thread gave the whole read nothing, and
#: two halves cut a 168-crop batch from 32 to 19 ms and the 12 MP sample's classification
#: stage by about 16 ms (docs/MEASUREMENTS.md, stop 74). 0: never (a process that has
#: only its core, such as a worker of a batch over every core: :func:`one_core_each`).
SPLIT_MIN = 16
_split_min = SPLIT_MIN


def one_core_each() -> None:
    """Run every batch of this process on its own thread (no split: see
    :data:`SPLIT_MIN`); for worker processes that each have a core to themselves."""
    global _split_min
    _split_min = 0


@contextmanager
def whole_batches() -> Iterator[None]:
    """Within the block, every batch is one call on the caller's thread (no split: see
    :data:`SPLIT_MIN`); for timing the model itself."""
    global _split_min
    was, _split_min = _split_min, 0
    try:
        yield
    finally:
        _split_min = was


class ModelError(TriominosError):
    """The digit model is missing, damaged, does not match its checksum, or is incompatible."""


@dataclass(frozen=True)
class DigitPrediction:
    """What the classifier says about N crops.

    ``probs``: (N, 7) float32, probabilities of ``0``..``5``, ``none`` (rows sum to 1).
    ``inward``: (N,) float32, P(digit printed with its top toward the tile centre | a digit);
    0.5 where the model cannot tell (e.g. a ``0``, or ``none``).
    ``raw``: (N, 13) float32, the model's own probabilities over :data:`RAW_CLASSES`.
    """

    probs: np.ndarray
    inward: np.ndarray
    raw: np.ndarray


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _expected_sha(model: Path) -> str:
    side = model.with_name(model.name + ".sha256")
    if not side.is_file():
        raise ModelError(f"digit model checksum file missing: {side}")
    text = side.read_text(encoding="utf-8").split()
    if not text or len(text[0]) != 64:
        raise ModelError(f"digit model checksum file unreadable: {side}")
    return text[0].lower()


class DigitClassifier:
    """A loaded, verified digit model. Build it with :meth:`load`."""

    def __init__(self, session: Any, metadata: dict[str, Any], path: Path) -> None:
        self._session = session
        self._input = session.get_inputs()[0].name
        self.metadata = metadata
        self.path = path
        self.size = int(metadata["input_size"])

    @classmethod
    def load(cls, path: str | Path | None = None, threads: int = 1) -> DigitClassifier:
        """Load and verify the model (default ``models/digits.onnx`` of this repository).

        ``threads``: onnxruntime intra-op threads (1 by default: the model is tiny and the
        machine is shared; 2 roughly halves the latency of a 168-crop batch on an idle CPU).

        Raises :class:`ModelError` (one line) if the file or its ``.sha256`` sidecar is
        missing, the hash does not match, onnxruntime cannot read it, or its crop geometry
        version differs from :data:`vision.crops.CROP_VERSION`.
        """
        model = Path(path) if path is not None else DEFAULT_MODEL
        if not model.is_file():
            raise ModelError(f"digit model not found: {model} (see models/README.md to retrain)")
        want = _expected_sha(model)
        got = file_sha256(model)
        if got != want:
            raise ModelError(f"digit model {model.name} is damaged or was replaced: SHA-256 "
                             f"{got[:12]}... does not match its sidecar {want[:12]}...")
        import onnxruntime as ort  # deferred: importing costs ~0.1 s

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = max(1, int(threads))
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        try:
            sess = ort.InferenceSession(str(model), sess_options=opts,
                                        providers=["CPUExecutionProvider"])
        except Exception as e:  # onnxruntime raises its own opaque types
            raise ModelError(f"digit model {model} cannot be loaded: "
                             f"{str(e).splitlines()[0][:200]}") from None
        meta = _parse_metadata(sess.get_modelmeta().custom_metadata_map, model)
        return cls(sess, meta, model)

    def predict_raw(self, crops: np.ndarray) -> np.ndarray:
        """(N, 13) float32 probabilities over :data:`RAW_CLASSES`, one onnxruntime call.

        ``crops``: (N, S, S) uint8 (or float in 0..255) grey crops from
        :func:`vision.crops.corner_crops`, S = ``self.size``.
        """
        x = np.asarray(crops)
        if x.ndim != 3 or x.shape[1:] != (self.size, self.size):
            raise ModelError(f"crops must have shape (N, {self.size}, {self.size}), "
                             f"got {x.shape}")
        if len(x) == 0:
            return np.zeros((0, len(RAW_CLASSES)), np.float32)
        x = x.astype(np.float32, copy=False)[:, None, :, :]
        logits = self._logits(x)
        z = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(z)
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)

    def _logits(self, x: np.ndarray) -> np.ndarray:
        """The model's logits (N, 13) for float crops ``x`` (N, 1, S, S): a batch of
        :data:`SPLIT_MIN` or more in two halves run at once (the second on a thread of its
        own, started here: nothing outlives the call, and a forked process has none)."""
        if not _split_min or len(x) < _split_min:
            return self._session.run(None, {self._input: x})[0]
        h = len(x) // 2
        second: list[Any] = []

        def run_second() -> None:
            try:
                second.append(self._session.run(None, {self._input: x[h:]})[0])
            except BaseException as e:  # raised on the caller's thread below
                second.append(e)

        th = threading.Thread(target=run_second, daemon=True)
        th.start()
        try:
            first = self._session.run(None, {self._input: x[:h]})[0]
        finally:
            th.join()
        if isinstance(second[0], BaseException):
            raise second[0]
        return np.concatenate([first, second[0]])

    def predict_full(self, crops: np.ndarray) -> DigitPrediction:
        """Digit probabilities plus the print convention, from one batched call."""
        raw = self.predict_raw(crops)
        probs = digit_probs(raw)
        d_in, d_out = raw[:, 0:6].sum(axis=1), raw[:, 6:12].sum(axis=1)
        inward = np.where(d_in + d_out > 1e-6, d_in / np.maximum(d_in + d_out, 1e-12), 0.5)
        return DigitPrediction(probs=probs, inward=inward.astype(np.float32), raw=raw)

    def predict(self, crops: np.ndarray) -> np.ndarray:
        """(N, 7) float32 probabilities of ``0``..``5``, ``none`` for N crops, one call."""
        return self.predict_full(crops).probs


def digit_probs(raw: np.ndarray) -> np.ndarray:
    """Raw probabilities (..., 13) -> (..., 7) of ``0``..``5``, ``none``: each digit's two
    print conventions summed (a digit is a digit whichever way up it is printed)."""
    return np.concatenate([raw[..., 0:6] + raw[..., 6:12], raw[..., 12:13]], axis=-1)


def _parse_metadata(props: dict[str, str], model: Path) -> dict[str, Any]:
    """Decode the JSON values stored in the ONNX ``metadata_props`` and check them."""
    meta: dict[str, Any] = {}
    for k, v in props.items():
        try:
            meta[k] = json.loads(v)
        except ValueError:
            meta[k] = v
    for key in ("raw_classes", "input_size", "crop_version"):
        if key not in meta:
            raise ModelError(f"digit model {model.name} lacks metadata {key!r}")
    if tuple(meta["raw_classes"]) != RAW_CLASSES:
        raise ModelError(f"digit model {model.name} has classes {meta['raw_classes']}, "
                         f"expected {list(RAW_CLASSES)}")
    if int(meta["crop_version"]) != CROP_VERSION:
        raise ModelError(f"digit model {model.name} was trained on crop geometry "
                         f"v{meta['crop_version']}, this code cuts v{CROP_VERSION}: retrain")
    if int(meta["input_size"]) != CROP_SIZE:
        raise ModelError(f"digit model {model.name} expects {meta['input_size']} px crops, "
                         f"vision.crops cuts {CROP_SIZE} px")
    return meta
