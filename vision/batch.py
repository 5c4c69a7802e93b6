"""Many photos: ``batch`` (one JSON line per photo, resumable, parallel) and ``eval``
(the reader measured against labelled photos, matched by image position)."""

from __future__ import annotations

import csv
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import TriominosError

from .config import DEFAULT
from .io import IMAGE_SUFFIXES
from .reading import MOSTLY_HIDDEN, flagged_tiles, to_check

STAGE_KEYS = ("decode", "detect", "classify", "reconstruct", "total")
#: How a label board tile lies, for the misses and wrong digits broken down by it
#: (:func:`tile_kind`); a photo the reader gave no reading for misses its tiles as
#: ``photo_not_read``
TILE_KINDS = ("in_plain_view", "under_hand_or_object", "cut_by_edge")
MISSED_KINDS = (*TILE_KINDS, "photo_not_read")
#: Why a photo is not read with no mistake, in the order judged (:func:`photo_mistake`:
#: the first that applies is the photo's): its board refused as too blurred to read, no
#: tiles found, another error, its board missed whole (nothing matched, nothing said),
#: board tiles missed, false board tiles, digits wrong only on tiles the reading flags,
#: a wrong digit on a tile it does not flag
MISTAKE_KINDS = ("refused_too_blurred", "no_tiles_found", "other_error", "board_missed",
                 "tiles_missed", "false_tiles", "digits_wrong_flagged",
                 "digits_wrong_unflagged")


def find_photos(root: str | Path) -> list[Path]:
    """Every image file under ``root`` (recursively), sorted."""
    r = Path(root)
    if r.is_file():
        return [r]
    if not r.is_dir():
        raise TriominosError(f"{r}: no such folder")
    return sorted(p for p in r.rglob("*") if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


def read_one(path: str) -> dict[str, Any]:
    """Read one photo; a JSON-able dict with ``path`` and either the Reading or ``error``
    (plus ``"no_tiles": true`` when the photo decoded but shows no tile)."""
    from .io import NoTilesError
    from .pipeline import read_photo
    try:
        r = read_photo(path, DEFAULT)
        return {"path": path, **r.to_json()}
    except NoTilesError as e:
        return {"path": path, "error": str(e), "no_tiles": True}
    except TriominosError as e:
        return {"path": path, "error": str(e)}
    except Exception as e:  # noqa: BLE001 - a batch must carry on whatever one file does
        return {"path": path, "error": f"{type(e).__name__}: {e}".splitlines()[0]}


def done_paths(out: Path) -> set[str]:
    """Paths already recorded in an existing results file (for resuming)."""
    if not out.exists():
        return set()
    seen: set[str] = set()
    with out.open(encoding="utf-8") as f:
        for line in f:
            try:
                seen.add(json.loads(line)["path"])
            except (ValueError, KeyError, TypeError):
                continue  # a line cut by an interrupted run: that photo is read again
    return seen


@dataclass
class BatchSummary:
    """What a batch run did; ``to_check``: photos read whose reading asks for a look
    (:func:`vision.reading.to_check`), the first few of them in ``check_examples``."""

    total: int = 0
    skipped: int = 0
    read: int = 0
    errors: int = 0
    tiles: int = 0
    seconds: float = 0.0
    error_examples: list[str] = field(default_factory=list)
    to_check: int = 0
    check_examples: list[str] = field(default_factory=list)


def run_batch(root: str | Path, out: str | Path, *, workers: int | None = None,
              progress: Callable[[int, int], None] | None = None) -> BatchSummary:
    """Read every photo under ``root`` into ``out`` (JSON lines), skipping photos already in
    ``out``. Uses a process pool over ``workers`` cores (default: all). ``progress(done,
    todo)`` is called after each photo."""
    t0 = time.perf_counter()
    outp = Path(out)
    photos = [str(p) for p in find_photos(root)]
    done = done_paths(outp)
    todo = [p for p in photos if p not in done]
    summary = BatchSummary(total=len(photos), skipped=len(photos) - len(todo))
    workers = workers or os.cpu_count() or 1
    # a line cut short by an interrupted run must not glue onto the next record
    if outp.exists() and outp.stat().st_size and not outp.read_bytes().endswith(b"\n"):
        with outp.open("a", encoding="utf-8") as f:
            f.write("\n")
    with outp.open("a", encoding="utf-8") as f:
        for n, rec in enumerate(_map(read_one, todo, workers), 1):
            f.write(json.dumps(rec) + "\n")
            f.flush()
            if "error" in rec:
                summary.errors += 1
                if len(summary.error_examples) < 5:
                    summary.error_examples.append(rec["error"])
            else:
                summary.read += 1
                summary.tiles += len(rec["tiles"])
                if to_check(rec):
                    summary.to_check += 1
                    if len(summary.check_examples) < 5:
                        summary.check_examples.append(rec["path"])
            if progress:
                progress(n, len(todo))
    summary.seconds = time.perf_counter() - t0
    return summary


def _map(fn: Callable[[str], dict[str, Any]], items: list[str], workers: int
         ) -> Iterator[dict[str, Any]]:
    if workers <= 1 or len(items) <= 1:
        yield from (fn(x) for x in items)
        return
    import multiprocessing as mp

    from .classifier import one_core_each
    ctx = mp.get_context("spawn" if os.name == "nt" else "fork")
    # the workers keep the cores busy: each runs its classifier batches on one thread
    with ctx.Pool(workers, initializer=one_core_each) as pool:
        yield from pool.imap(fn, items, chunksize=1)


# --- eval ------------------------------------------------------------------------------

@dataclass
class PhotoScore:
    """One labelled photo compared with its reading."""

    path: str
    label_tiles: int = 0
    found_tiles: int = 0
    matched: int = 0
    digits: int = 0
    digits_right: int = 0
    error: str = ""
    timing_ms: dict[str, float] = field(default_factory=dict)
    #: off the board (loose, rack, face-down): label tiles, tiles reported, matched by
    #: position, and matched ones read right (face-down as blank, face-up digit by digit)
    loose_label: int = 0
    loose_found: int = 0
    loose_matched: int = 0
    loose_right: int = 0
    #: the photo's conditions from its label's ``style`` record (see :func:`conditions`)
    conditions: dict[str, str] = field(default_factory=dict)
    #: deliberate rule faults on the board (the synthesiser's ``faults_made``) whose tile
    #: a reader can be asked to find, per kind (``corner_mismatch``, ``corner_only``):
    #: [how many, how many a violation of the reading names (the tile matched by
    #: position), how many tiles are read as they lie: every digit in view as on the
    #: table, not "repaired" to agree with the board]
    fault_counts: dict[str, list[int]] = field(default_factory=dict)
    #: violations the reading reports, and how many of them the table does not have: no
    #: violation of the same kind in the label names any of their tiles (matched by
    #: position). Counted only where the label lists the table's violations
    violations: int = 0
    violations_false: int = 0
    #: board tiles the reading flags (:func:`vision.reading.flagged_tiles`), and the wrong
    #: digits (in view, on tiles matched) of tiles it does not flag, of ``unflagged_digits``
    #: there; whether the reading asks for a look (:func:`vision.reading.to_check`)
    flagged: int = 0
    unflagged_digits: int = 0
    wrong_unflagged: int = 0
    to_check: bool = False
    #: required board tiles missed, by how they lie (:data:`MISSED_KINDS`), and how many
    #: of them the reading reports off the board where they lie
    missed: Counter[str] = field(default_factory=Counter)
    missed_off_board: int = 0
    #: wrong digits (in view, on tiles matched) by how their tile lies (:data:`TILE_KINDS`)
    wrong: Counter[str] = field(default_factory=Counter)

    @property
    def sure(self) -> bool:
        """Read with nothing to check (no error, and :func:`vision.reading.to_check`
        false): a mistake on such a photo is one the reader gave no sign of."""
        return not self.error and not self.to_check

    @property
    def faults(self) -> int:
        """Faults made (all kinds)."""
        return sum(c[0] for c in self.fault_counts.values())

    @property
    def faults_reported(self) -> int:
        """Faults a violation names (all kinds)."""
        return sum(c[1] for c in self.fault_counts.values())

    @property
    def faults_read_right(self) -> int:
        """Faulted tiles read as they lie (all kinds)."""
        return sum(c[2] for c in self.fault_counts.values())

    @property
    def perfect(self) -> bool:
        """Every board tile found, nothing extra, every digit right (off-board tiles are
        scored apart: ``loose_*``)."""
        return not self.mistake

    @property
    def mistake(self) -> str:
        """The kind of the photo's mistake (:func:`photo_mistake`; "" for none)."""
        return photo_mistake(vars(self))


def photo_mistake(row: Mapping[str, Any]) -> str:
    """The kind of a photo's mistake (one of :data:`MISTAKE_KINDS`, the first that
    applies; "" where it was read with no mistake, :attr:`PhotoScore.perfect`) from its
    scores: a :class:`PhotoScore`'s fields (``vars(score)``) or a results CSV row (numbers
    as text), with ``error``, ``label_tiles``, ``found_tiles``, ``matched``, ``digits``,
    ``digits_right`` and ``wrong_unflagged``. Raises ``KeyError`` or ``ValueError`` for a
    row without them."""
    error = str(row["error"] or "")
    if error:
        return ("refused_too_blurred" if "too blurred" in error
                else "no_tiles_found" if "no tiles found" in error else "other_error")
    label, found, matched = (int(row[k]) for k in ("label_tiles", "found_tiles", "matched"))
    if matched == 0 and label > 0:
        return "board_missed"
    if matched < label:
        return "tiles_missed"
    if found > matched:
        return "false_tiles"
    if int(row["digits_right"]) < int(row["digits"]):
        return ("digits_wrong_unflagged" if int(row["wrong_unflagged"])
                else "digits_wrong_flagged")
    return ""


def _label_tiles(label: dict[str, Any]) -> list[tuple[np.ndarray, list[int], bool]]:
    """(corner_px, corners, optional) per label tile; optional = more than half hidden."""
    return [(np.asarray(t["corner_px"], float), list(t["corners"]),
             MOSTLY_HIDDEN in t.get("flags", [])) for t in label["tiles"]]


def tile_kind(t: dict[str, Any]) -> str:
    """How a label tile ``t`` lies (one of :data:`TILE_KINDS`): partly under a hand or an
    object (flagged ``occluded``, whether or not also cut), partly beyond the photo's
    edge (``partial``), else in plain view."""
    flags = t.get("flags") or []
    if "occluded" in flags:
        return "under_hand_or_object"
    return "cut_by_edge" if "partial" in flags else "in_plain_view"


def _readable(t: dict[str, Any], lpx: np.ndarray, w: float, h: float) -> list[int]:
    """The corners of label tile ``t`` whose digit can be seen: inside the photo (``w`` x
    ``h``) and not listed in its ``hidden_corners`` (a digit under a hand or object)."""
    hidden = set(t.get("hidden_corners", []))
    return [k for k in range(3)
            if 0 <= lpx[k, 0] < w and 0 <= lpx[k, 1] < h and k not in hidden]


def required_tiles(label: dict[str, Any]) -> int:
    """How many of a label's board tiles a reader must find (all but ``mostly hidden``)."""
    return sum(not opt for _, _, opt in _label_tiles(label))


def _nearest(lpx: np.ndarray, got: list[tuple[np.ndarray, Any]], used: set[int]) -> int:
    """Index of the unused reading tile whose centroid is nearest the label tile's and
    closer than a third of its side (-1: none); marks it used."""
    best, bd = -1, float(np.linalg.norm(lpx[0] - lpx[1])) / 3
    for j, (gpx, _) in enumerate(got):
        d = float(np.linalg.norm(gpx.mean(0) - lpx.mean(0)))
        if j not in used and d < bd:
            best, bd = j, d
    if best >= 0:
        used.add(best)
    return best


def _right_in_view(gpx: np.ndarray, gd: list[int | None], lpx: np.ndarray, ld: list[int],
                   corners: list[int]) -> list[bool]:
    """For each label corner ``k`` of ``corners`` (a label tile's corners ``lpx`` (3, 2),
    digits ``ld``): whether the reading tile (``gpx``, digits ``gd``) reads ``ld[k]`` at its
    corner nearest it."""
    return [gd[int(np.argmin(np.linalg.norm(gpx - lpx[k], axis=1)))] == ld[k]
            for k in corners]


def score_reading(path: str, label: dict[str, Any], reading: dict[str, Any]) -> PhotoScore:
    """Match reading tiles to label tiles by image position (centroids closer than a third
    of a side), align corners by position, and count right digits.

    A label tile flagged ``mostly hidden`` (more than half out of sight: under a hand or
    object, or beyond the photo's edge) is optional: missing it is no miss, finding it is
    no false tile, and its digits (partly out of sight) are not scored. Nor are digits
    beyond the photo's edge or under a hand or object (the label's ``hidden_corners``).
    """
    sc = PhotoScore(path, conditions=conditions(label))
    lab = _label_tiles(label)
    w, h = label.get("width", 1 << 30), label.get("height", 1 << 30)
    got = [(np.asarray(t["corner_px"], float), list(t["corners"])) for t in reading["tiles"]]
    flagged = flagged_tiles(reading)
    sc.found_tiles = len(got)
    sc.flagged = sum(flagged)
    sc.to_check = to_check(reading)
    sc.timing_ms = dict(reading.get("timing_ms", {}))
    off = [(np.asarray(t["corner_px"], float), None) for t in reading.get("off_board", [])]
    used: set[int] = set()
    off_used: set[int] = set()
    for t, (lpx, ld, optional) in zip(label["tiles"], lab, strict=True):
        best = _nearest(lpx, got, used)
        sc.label_tiles += not optional or best >= 0
        if best < 0:
            if not optional:
                sc.missed[tile_kind(t)] += 1
                sc.missed_off_board += _nearest(lpx, off, off_used) >= 0
            continue
        sc.matched += 1
        if optional:
            continue
        # only digits in view can be read (not beyond the photo's edge, not under a hand);
        # digits are counted on the tiles found (a missed tile counts against recall)
        visible = _readable(t, lpx, w, h)
        sc.digits += len(visible)
        gpx, gd = got[best]
        right = sum(_right_in_view(gpx, gd, lpx, ld, visible))
        sc.digits_right += right
        if right < len(visible):
            sc.wrong[tile_kind(t)] += len(visible) - right
        if not flagged[best]:
            sc.unflagged_digits += len(visible)
            sc.wrong_unflagged += len(visible) - right
    _score_loose(sc, label, reading, w, h)
    _score_faults(sc, label, reading, w, h)
    _score_violations(sc, label, reading)
    return sc


def _score_violations(sc: PhotoScore, label: dict[str, Any], reading: dict[str, Any]
                      ) -> None:
    """The reading's violations against the label's (the table's, as the synthesiser
    lists them): one is false where no label violation of its kind names a tile it names
    (its cells' tiles matched to label tiles by position). Nothing is counted for a label
    that does not list the table's violations."""
    found = reading.get("violations") or []
    if not found or not isinstance(label.get("violations"), list):
        return
    kinds: dict[tuple[Any, ...], set[str]] = {}
    for v in label["violations"]:
        for c in v.get("cells", []):
            kinds.setdefault(tuple(c), set()).add(str(v.get("kind")))
    lab = [(np.asarray(t["corner_px"], float), tuple(t["cell"])) for t in label["tiles"]
           if "cell" in t]
    px = {tuple(t["cell"]): np.asarray(t["corner_px"], float) for t in reading["tiles"]
          if t.get("cell") is not None}
    sc.violations = len(found)
    for v in found:
        named = set()  # the label cells of the tiles it names
        for c in v.get("cells", []):
            j = _nearest(px[tuple(c)], lab, set()) if tuple(c) in px else -1  # type: ignore[arg-type]
            if j >= 0:
                named.add(lab[j][1])
        sc.violations_false += int(not any(str(v.get("kind")) in kinds.get(c, set())
                                           for c in named))


def _score_faults(sc: PhotoScore, label: dict[str, Any], reading: dict[str, Any],
                  w: float, h: float) -> None:
    """The label's deliberate faults (``style.faults_made``: a tile disagreeing with a
    neighbour at a corner, or touching the board by a corner only): each faulted tile is
    matched by position; it counts as reported where a violation of the reading names its
    cell, and as read right where its digits in view are the table's (``w`` x ``h``: the
    photo). A faulted tile out of sight (not in the label, or ``mostly hidden``) is left
    out."""
    st = label.get("style")
    made = st.get("faults_made") if isinstance(st, dict) else None
    if not made:
        return
    by_cell = {tuple(t["cell"]): t for t in label["tiles"] if "cell" in t}
    named = {tuple(c) for v in reading.get("violations", []) for c in v.get("cells", [])}
    tiles = reading["tiles"]
    got = [(np.asarray(t["corner_px"], float), list(t["corners"])) for t in tiles]
    for f in made:
        t = by_cell.get(tuple(f["cell"]))
        if t is None or MOSTLY_HIDDEN in t.get("flags", []):
            continue
        counts = sc.fault_counts.setdefault(str(f.get("kind", "?")), [0, 0, 0])
        counts[0] += 1
        lpx = np.asarray(t["corner_px"], float)
        best = _nearest(lpx, got, set())
        if best < 0:
            continue
        cell = tiles[best].get("cell")
        counts[1] += int(cell is not None and tuple(cell) in named)
        gpx, gd = got[best]
        counts[2] += all(_right_in_view(gpx, gd, lpx, t["corners"], _readable(t, lpx, w, h)))


def _score_loose(sc: PhotoScore, label: dict[str, Any], reading: dict[str, Any],
                 w: float, h: float) -> None:
    """Off-board tiles: matched by position like board tiles (``mostly hidden`` optional);
    a face-up one is read right when its digits in view are (inside the photo, ``w`` x
    ``h``, and not hidden: as on the board)."""
    got = [(np.asarray(t["corner_px"], float), t.get("corners") or [None] * 3)
           for t in reading.get("off_board", [])]
    sc.loose_found = len(got)
    used: set[int] = set()
    for t in label.get("off_board", []):
        lpx = np.asarray(t["corner_px"], float)
        optional = MOSTLY_HIDDEN in t.get("flags", [])
        best = _nearest(lpx, got, used)
        sc.loose_label += not optional or best >= 0
        if best < 0:
            continue
        sc.loose_matched += 1
        gpx, gd = got[best]
        ld = t.get("corners")
        if not ld:  # a blank back: right when no digit is claimed
            sc.loose_right += all(d is None for d in gd)
            continue
        sc.loose_right += all(_right_in_view(gpx, gd, lpx, ld, _readable(t, lpx, w, h)))


#: Conditions a labelled photo is broken down by (:func:`conditions`), in CSV order.
CONDITION_KEYS = ("blur", "blur_kind", "tile_px", "tilt", "glare", "occluders", "table",
                  "edition")
#: Blur bands, as the blur's standard deviation over the tile side (both in px).
BLUR_BANDS = ((0.02, "<0.02"), (0.04, "0.02-0.04"), (float("inf"), ">=0.04"))
_TILE_BANDS = ((30, "<30"), (50, "30-50"), (100, "50-100"), (float("inf"), ">=100"))
_TILT_BANDS = ((20, "<20"), (35, "20-35"), (float("inf"), ">=35"))


def _band(v: float, bands: tuple[tuple[float, str], ...]) -> str:
    return next((name for top, name in bands if v < top), "?")


def blur_sigma_px(style: dict[str, Any]) -> float:
    """The photo-wide blur of a synthesiser style as one Gaussian standard deviation (px).

    Defocus is a Gaussian of ``blur_px``; motion is a line 3 ``blur_px`` long (standard
    deviation length / sqrt(12)); no blur still leaves the lens' 0.5 px. Depth of field,
    which softens parts of the photo only, is not included.
    """
    kind, px = style.get("blur", "none"), float(style.get("blur_px", 0.0))
    if kind == "defocus" and px > 0.2:
        return px
    if kind == "motion" and px > 0.2:
        return 3.0 * px / np.sqrt(12.0)
    return 0.5


def conditions(label: dict[str, Any]) -> dict[str, str]:
    """The photo's conditions (keys :data:`CONDITION_KEYS`) from a synthesiser label's
    ``style`` record; {} for a label without one.

    ``blur``: :func:`blur_sigma_px` over the tile side, banded (:data:`BLUR_BANDS`);
    ``tile_px``: the measured tile side; ``tilt``: the camera's tilt in degrees;
    ``glare``: any glare spot; ``occluders``: a hand, objects or an object at the edge;
    ``table`` and ``edition`` (the tiles' look: ivory, onyx...) as named there.
    """
    st = label.get("style")
    if not isinstance(st, dict) or not st:
        return {}
    side = float(st.get("tile_side_px_measured") or label.get("tile_side_px") or 0.0)
    occl = (bool(st.get("hand")) or int(st.get("objects", 0) or 0) > 0
            or st.get("edge_object", "none") not in ("none", None))
    return {"blur": _band(blur_sigma_px(st) / side, BLUR_BANDS) if side > 0 else "?",
            "blur_kind": str(st.get("blur", "none")),
            "tile_px": _band(side, _TILE_BANDS) if side > 0 else "?",
            "tilt": _band(float(st.get("tilt_deg", 0.0)), _TILT_BANDS),
            "glare": "yes" if float(st.get("glare", 0.0) or 0.0) > 0 else "no",
            "occluders": "yes" if occl else "no",
            "table": str(st.get("table", "?")),
            "edition": str(st.get("edition", "?"))}


def by_condition(scores: list[PhotoScore]) -> dict[str, dict[str, dict[str, Any]]]:
    """Totals (:meth:`EvalSummary.to_json` plus ``label_tiles``) per condition and band:
    ``{"blur": {"<0.02": {...}, ...}, ...}``; photos without conditions are left out."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for key in CONDITION_KEYS:
        groups: dict[str, list[PhotoScore]] = {}
        for s in scores:
            if key in s.conditions:
                groups.setdefault(s.conditions[key], []).append(s)
        out[key] = {name: {**summarise(g).to_json(),
                           "label_tiles": sum(s.label_tiles for s in g)}
                    for name, g in sorted(groups.items())}
    return {k: v for k, v in out.items() if v}


def label_for(photo: Path) -> dict[str, Any] | None:
    """The synthesiser's label beside a photo (``name.json``), or None where there is none.

    Raises :class:`~engine.errors.TriominosError` (one line naming the label) where it is
    no label the scoring can use: not JSON, or its tiles (``tiles``, ``off_board``) not
    each three corners (``corner_px``, 3 x 2 numbers) and three digits (``corners``)."""
    p = photo.with_suffix(".json")
    if not p.exists():
        return None
    try:
        label = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise TriominosError(f"{p}: bad label: {str(e).splitlines()[0]}") from None
    why = _label_fault(label)
    if why:
        raise TriominosError(f"{p}: bad label: {why}")
    return label  # type: ignore[no-any-return]


def _label_fault(label: object) -> str:
    """What makes ``label`` unusable for scoring ("" where nothing does)."""
    if not isinstance(label, dict) or not isinstance(label.get("tiles"), list):
        return "no list of tiles"
    for key in ("tiles", "off_board"):
        for t in label.get(key) or []:
            try:
                px = np.asarray(t["corner_px"], float)
                digits = t.get("corners")
            except (TypeError, KeyError, ValueError, AttributeError):
                return f"a tile of {key} without corners"
            blank = key == "off_board" and not digits  # a face-down tile: no digits
            if px.shape != (3, 2) or not (blank or isinstance(digits, list)
                                          and len(digits) == 3):
                return f"a tile of {key} without 3 corners and digits"
    return ""


def score_failure(path: str, label: dict[str, Any], error: str, no_tiles: bool
                  ) -> PhotoScore:
    """Score a photo the reader gave no reading for. "No tiles found" where the label
    needs no board tile (every tile ``mostly hidden``, or none) is the right answer: it is
    scored as an empty reading (off-board label tiles still count as missed). Any other
    failure is an ``error`` with every required tile missed, on the board and off it."""
    if no_tiles and required_tiles(label) == 0:
        return score_reading(path, label, {"tiles": [], "off_board": []})
    sc = PhotoScore(path, error=error, conditions=conditions(label))
    sc.label_tiles = required_tiles(label)
    if sc.label_tiles:
        sc.missed["photo_not_read"] = sc.label_tiles
    w, h = label.get("width", 1 << 30), label.get("height", 1 << 30)
    _score_faults(sc, label, {"tiles": []}, w, h)  # faults made, none reported
    _score_loose(sc, label, {"off_board": []}, w, h)  # loose tiles too, none found
    return sc


def _eval_one(path: str) -> PhotoScore:
    label = label_for(Path(path)) or {"tiles": []}
    rec = read_one(path)
    if "error" in rec:
        return score_failure(path, label, rec["error"], bool(rec.get("no_tiles")))
    return score_reading(path, label, rec)


@dataclass
class EvalSummary:
    """Totals over a labelled folder."""

    photos: int
    precision: float
    recall: float
    digit_accuracy: float
    perfect_share: float
    errors: int
    mean_ms: dict[str, float]
    #: off-board tiles: precision, recall, and share of those found that are read right
    loose_precision: float = 1.0
    loose_recall: float = 1.0
    loose_read_right: float = 1.0
    #: deliberate rule faults (see :class:`PhotoScore`) per kind: kind -> [how many, how
    #: many a violation reports, how many read as they lie]
    fault_counts: dict[str, list[int]] = field(default_factory=dict)
    #: violations reported, how many of them the table does not have, on how many photos
    violations: int = 0
    violations_false: int = 0
    photos_false_violation: int = 0
    #: photos read with nothing to check (:attr:`PhotoScore.sure`); of them, those read
    #: with no mistake (:attr:`PhotoScore.perfect`, no false violation); the wrong digits
    #: (on the board, matched) and how many of them lie on tiles the reading flags; the
    #: digits on tiles it does not flag
    sure_photos: int = 0
    sure_right: int = 0
    wrong_digits: int = 0
    wrong_flagged: int = 0
    unflagged_digits: int = 0
    #: required board tiles missed by how they lie (:data:`MISSED_KINDS`), how many of
    #: them the readings report off the board; wrong digits by how their tile lies
    #: (:data:`TILE_KINDS`)
    missed: dict[str, int] = field(default_factory=dict)
    missed_off_board: int = 0
    wrong: dict[str, int] = field(default_factory=dict)
    #: photos left out for a label the scoring cannot use: one line each, why
    bad_labels: list[str] = field(default_factory=list)
    #: photos with a mistake by its kind (:data:`MISTAKE_KINDS`, :func:`photo_mistake`)
    lost: dict[str, int] = field(default_factory=dict)

    def breakdown_text(self) -> str:
        """One line: the board tiles missed and the digits read wrong, by how their tiles
        lie (in plain view, partly under a hand or object, cut by the photo's edge)."""
        m, w = self.missed, self.wrong
        missed = (f"{m.get('in_plain_view', 0)} in plain view, "
                  f"{m.get('under_hand_or_object', 0)} partly under a hand or object, "
                  f"{m.get('cut_by_edge', 0)} cut by the photo's edge, "
                  f"{m.get('photo_not_read', 0)} on photos not read "
                  f"({self.missed_off_board} of them reported off the board)"
                  if any(m.values()) else "none")
        wrong = (f"{w.get('in_plain_view', 0)} in plain view, "
                 f"{w.get('under_hand_or_object', 0)} under a hand or object, "
                 f"{w.get('cut_by_edge', 0)} cut by the edge" if any(w.values()) else "none")
        return f"missed board tiles: {missed}; wrong digits: {wrong}"

    def lost_text(self) -> str:
        """One line: the photos with a mistake, by its kind (:data:`MISTAKE_KINDS`, the
        first that applies), the kinds no photo has left out."""
        lost = {k: self.lost.get(k, 0) for k in MISTAKE_KINDS if self.lost.get(k, 0)}
        if not lost:
            return "photos with a mistake: none"
        return (f"photos with a mistake: {sum(lost.values())} ("
                + ", ".join(f"{k.replace('_', ' ')} {n}" for k, n in lost.items()) + ")")

    def to_json(self) -> dict[str, Any]:
        """Plain dict for a results file (``violations`` and ``faults`` only where there
        are any; faults as shares, overall and per kind)."""
        out: dict[str, Any] = {
            "photos": self.photos, "tile_precision": round(self.precision, 5),
            "tile_recall": round(self.recall, 5),
            "corner_digit_accuracy": round(self.digit_accuracy, 5),
            "perfect_photos": round(self.perfect_share, 5), "errors": self.errors,
            "off_board": {"precision": round(self.loose_precision, 5),
                          "recall": round(self.loose_recall, 5),
                          "read_right": round(self.loose_read_right, 5)},
            "mean_ms": {k: round(v, 1) for k, v in self.mean_ms.items()}}
        if self.violations:
            out["violations"] = {"reported": self.violations, "false": self.violations_false,
                                 "photos_with_a_false_one": self.photos_false_violation}
        out["trust"] = {
            "sure_photos": round(self.sure_photos / self.photos, 5) if self.photos else 0.0,
            "sure_right": (round(self.sure_right / self.sure_photos, 5) if self.sure_photos
                           else 1.0),
            "wrong_digits": self.wrong_digits,
            "wrong_digits_flagged": (round(self.wrong_flagged / self.wrong_digits, 5)
                                     if self.wrong_digits else 1.0),
            "unflagged_digits": self.unflagged_digits,
            "unflagged_digit_accuracy": (
                round(1 - (self.wrong_digits - self.wrong_flagged) / self.unflagged_digits, 5)
                if self.unflagged_digits else 1.0)}
        out["missed_tiles"] = {**{k: self.missed.get(k, 0) for k in MISSED_KINDS},
                               "reported_off_board": self.missed_off_board}
        out["wrong_digits"] = {k: self.wrong.get(k, 0) for k in TILE_KINDS}
        out["lost_photos"] = {k: self.lost.get(k, 0) for k in MISTAKE_KINDS}
        if self.bad_labels:
            out["bad_labels"] = list(self.bad_labels)

        def shares(n: int, reported: int, right: int) -> dict[str, Any]:
            return {"made": n, "reported": round(reported / n, 5),
                    "read_right": round(right / n, 5)}

        kinds = {k: c for k, c in sorted(self.fault_counts.items()) if c[0]}
        if kinds:
            total = [sum(c[i] for c in kinds.values()) for i in range(3)]
            out["faults"] = {**shares(*total),
                             "by_kind": {k: shares(*c) for k, c in kinds.items()}}
        return out


def run_eval(root: str | Path, csv_out: str | Path | None = None, *,
             workers: int | None = None, limit: int | None = None,
             progress: Callable[[int, int], None] | None = None
             ) -> tuple[EvalSummary, list[PhotoScore]]:
    """Read every labelled photo under ``root``; per-photo rows to ``csv_out`` and totals.
    A photo whose label is unusable (:func:`label_for`) is left out, its one-line reason
    kept in the summary's ``bad_labels``."""
    photos: list[str] = []
    bad: list[str] = []
    for p in find_photos(root):
        try:
            if label_for(p) is not None:
                photos.append(str(p))
        except TriominosError as e:
            bad.append(str(e))
    if limit:
        photos = photos[:limit]
    if not photos:
        raise TriominosError(f"{root}: no labelled photos (an image with a .json label beside "
                             "it)" + (f"; {len(bad)} bad labels, the first {bad[0]}" if bad
                                      else ""))
    scores: list[PhotoScore] = []
    for n, sc in enumerate(_map(_eval_one, photos, workers or os.cpu_count() or 1), 1):
        scores.append(sc)  # type: ignore[arg-type]
        if progress:
            progress(n, len(photos))
    summary = summarise(scores)
    summary.bad_labels = bad
    if csv_out:
        write_csv(csv_out, scores)
    return summary, scores


#: the per-photo counts the headline figures are made of (:func:`intervals`; CSV columns)
COUNT_KEYS = ("label_tiles", "found_tiles", "matched", "digits", "digits_right", "perfect")


def photo_counts(scores: list[PhotoScore]) -> dict[str, np.ndarray]:
    """The per-photo counts of :data:`COUNT_KEYS` (each (N,) int) of ``scores``."""
    return {k: np.array([int(getattr(s, k)) for s in scores], dtype=np.int64)
            for k in COUNT_KEYS}


def _figures(tot: dict[str, np.ndarray], photos: int) -> dict[str, np.ndarray]:
    """The headline figures of per-set totals of :data:`COUNT_KEYS` (each (R,): R sets
    of ``photos`` photos; nothing found, or no digit: 1.0): :func:`summarise`'s and
    :func:`intervals`'."""
    def ratio(a: str, b: str) -> np.ndarray:
        d = tot[b].astype(float)
        return np.divide(tot[a], d, out=np.ones(len(d)), where=d > 0)
    return {"tile_precision": ratio("matched", "found_tiles"),
            "tile_recall": ratio("matched", "label_tiles"),
            "corner_digit_accuracy": ratio("digits_right", "digits"),
            "perfect_photos": tot["perfect"] / photos}


def _set_figures(counts: dict[str, np.ndarray]) -> dict[str, float]:
    """:func:`_figures` of a whole set's per-photo ``counts`` (:data:`COUNT_KEYS`)."""
    tot = {k: np.array([v.sum()]) for k, v in counts.items()}
    return {k: float(v[0])
            for k, v in _figures(tot, max(1, len(counts["label_tiles"]))).items()}


def headline(counts: dict[str, np.ndarray]) -> dict[str, float]:
    """Tile precision and recall, corner digits right and photos with no mistake, from
    per-photo ``counts`` (:data:`COUNT_KEYS`; :func:`photo_counts`, or a results CSV's
    columns), rounded as the results files give them."""
    return {k: round(v, 5) for k, v in _set_figures(counts).items()}


def summarise(scores: list[PhotoScore]) -> EvalSummary:
    """Totals over per-photo scores."""
    fig = _set_figures(photo_counts(scores))
    digits = sum(s.digits for s in scores)
    right = sum(s.digits_right for s in scores)
    ok = [s for s in scores if not s.error]
    mean = {k: float(np.mean([s.timing_ms.get(k, 0.0) for s in ok])) if ok else 0.0
            for k in STAGE_KEYS}
    # (off the board as on it, a photo the reader failed on misses every tile: an error
    # must not drop its loose tiles from the count)
    lm = sum(s.loose_matched for s in scores)
    lf, ll = sum(s.loose_found for s in scores), sum(s.loose_label for s in scores)
    kinds: dict[str, list[int]] = {}
    for s in scores:
        for k, c in s.fault_counts.items():
            kinds[k] = [a + b for a, b in zip(kinds.get(k, [0, 0, 0]), c, strict=True)]
    missed = {k: sum(s.missed.get(k, 0) for s in scores) for k in MISSED_KINDS}
    wrong = {k: sum(s.wrong.get(k, 0) for s in scores) for k in TILE_KINDS}
    lost = Counter(m for m in (s.mistake for s in scores) if m)
    return EvalSummary(len(scores), fig["tile_precision"], fig["tile_recall"],
                       fig["corner_digit_accuracy"], fig["perfect_photos"],
                       sum(bool(s.error) for s in scores), mean,
                       lm / lf if lf else 1.0, lm / ll if ll else 1.0,
                       sum(s.loose_right for s in scores) / lm if lm else 1.0, kinds,
                       sum(s.violations for s in scores),
                       sum(s.violations_false for s in scores),
                       sum(s.violations_false > 0 for s in scores),
                       sum(s.sure for s in scores),
                       sum(s.sure and s.perfect and not s.violations_false for s in scores),
                       digits - right, digits - right - sum(s.wrong_unflagged for s in scores),
                       sum(s.unflagged_digits for s in scores), missed,
                       sum(s.missed_off_board for s in scores), wrong, lost=dict(lost))


def intervals(counts: dict[str, np.ndarray], level: float = 0.95, rounds: int = 2000,
              seed: int = 0) -> dict[str, list[float]]:
    """How far the headline figures (:func:`headline`) could move with other photos like
    these: for each, the central ``level`` interval over ``rounds`` bootstrap resamples
    of the photos (``counts``: :data:`COUNT_KEYS` per photo; drawn with replacement,
    seeded: the same every run). A photo is the unit resampled, as its tiles are missed
    together (a board refused whole). Raises ``ValueError`` for no photos."""
    n = len(counts["label_tiles"])
    if n == 0:
        raise ValueError("no photos to resample")
    idx = np.random.default_rng(seed).integers(0, n, size=(rounds, n))
    tot = {k: v[idx].sum(axis=1) for k, v in counts.items()}
    tail = (1 - level) / 2 * 100
    return {k: [round(float(x), 5) for x in np.percentile(v, [tail, 100 - tail])]
            for k, v in _figures(tot, n).items()}


def write_csv(path: str | Path, scores: list[PhotoScore]) -> None:
    """One row per photo."""
    with Path(path).open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["path", "label_tiles", "found_tiles", "matched", "digits", "digits_right",
                    "perfect", "error", *[f"{k}_ms" for k in STAGE_KEYS],
                    "loose_label", "loose_found", "loose_matched", "loose_right",
                    "faults", "faults_reported", "faults_read_right", "violations",
                    "violations_false", "flagged", "unflagged_digits", "wrong_unflagged",
                    "to_check", *[f"missed_{k}" for k in MISSED_KINDS],
                    "missed_off_board", *[f"wrong_{k}" for k in TILE_KINDS],
                    *CONDITION_KEYS])
        for s in scores:
            w.writerow([s.path, s.label_tiles, s.found_tiles, s.matched, s.digits,
                        s.digits_right, int(s.perfect), s.error,
                        *[round(s.timing_ms.get(k, 0.0), 1) for k in STAGE_KEYS],
                        s.loose_label, s.loose_found, s.loose_matched, s.loose_right,
                        s.faults, s.faults_reported, s.faults_read_right, s.violations,
                        s.violations_false, s.flagged, s.unflagged_digits, s.wrong_unflagged,
                        int(s.to_check), *[s.missed.get(k, 0) for k in MISSED_KINDS],
                        s.missed_off_board, *[s.wrong.get(k, 0) for k in TILE_KINDS],
                        *[s.conditions.get(k, "") for k in CONDITION_KEYS]])
