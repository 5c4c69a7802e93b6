"""Reconstruct the board's digits from corner probabilities and the rules of the set.

Each lattice vertex carries one digit: the corners meeting there are read together (sum of
log-probabilities). Where the pixels are ambiguous, the set breaks the tie: a tile that
would be a mirror tile (not in the standard set) or a second copy of a tile already on the
board makes a reading less likely by ``cfg.set_penalty`` (in log-probability). Every digit
chosen against its corner's own first choice is flagged with both readings. A *confident*
disagreement between corners at one vertex is never merged: each corner keeps its own
reading, so the board shows the mismatch and ``Board.violations()`` reports it; nor is one
corner read clearly against the others that, read together, deny its digit (it keeps its
own, they take their joint choice).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from engine.lattice import Cell, Vertex, cell_corners
from engine.tiles import Tile

from .config import ReaderConfig

_EPS = 1e-4


@dataclass
class CornerChoice:
    """Digits chosen for the board: ``digits[cell]`` in corner order; ``joint[cell][k]`` is
    True where corner ``k`` was read together with others at its vertex."""

    digits: dict[Cell, list[int]]
    joint: dict[Cell, list[bool]]


def _vertex_groups(cells: list[Cell]) -> dict[Vertex, list[tuple[int, int]]]:
    groups: dict[Vertex, list[tuple[int, int]]] = {}
    for n, c in enumerate(cells):
        for k, v in enumerate(cell_corners(c)):
            groups.setdefault(v, []).append((n, k))
    return groups


def choose_digits(cfg: ReaderConfig, cells: list[Cell], probs: np.ndarray,
                  set_name: str = "standard", as_read: Iterable[int] = ()) -> CornerChoice:
    """Most probable consistent digits for the board.

    Parameters
    ----------
    cells : the N board cells.
    probs : (N, 3, 6) probabilities of digits 0-5 per corner (the ``none`` class removed
        and rows renormalised), corners in each cell's corner order.
    as_read : indices of cells whose every corner counts as read confidently (a tile
        whose pixels read a tile of the set clearly, which the board's digits would
        overrule at two corners or more: see :func:`vision.pipeline._choose`).

    Returns a :class:`CornerChoice`.
    """
    n = len(cells)
    logp = np.log(np.maximum(probs, _EPS))
    digits = np.argmax(probs, axis=2)  # (N, 3) each corner's own reading
    joint = np.zeros((n, 3), bool)
    sure = probs.max(axis=2) >= cfg.confident  # (N, 3)
    for a in as_read:
        sure[a] = True
    # per-vertex score tables for the set-constraint search: vertex -> (members, scores)
    free: list[tuple[list[tuple[int, int]], np.ndarray]] = []
    for members in _vertex_groups(cells).values():
        conf = {int(digits[a, k]) for a, k in members if sure[a, k]}
        if len(conf) > 1 or _denied(cfg, probs, digits, members):
            continue  # the table shows a mismatch: keep every corner's own reading
        alone = _denied_jointly(cfg, logp, digits, members)
        if alone is not None:
            # one tile placed against the rest: it keeps its digit, the others take their
            # joint choice
            lone, d = alone
            rest = [m for m in members if m != lone]
            for a, k in rest:
                digits[a, k] = d
                joint[a, k] = len(rest) > 1
            continue
        score = sum(logp[a, k] for a, k in members)
        d = int(np.argmax(score))
        for a, k in members:
            digits[a, k] = d
            joint[a, k] = len(members) > 1
        free.append((members, score))
    digits = _apply_set(cfg, cells, digits, free, set_name)
    return CornerChoice({c: [int(x) for x in digits[i]] for i, c in enumerate(cells)},
                        {c: [bool(x) for x in joint[i]] for i, c in enumerate(cells)})


def _denied(cfg: ReaderConfig, probs: np.ndarray, digits: np.ndarray,
            members: list[tuple[int, int]]) -> bool:
    """Whether the corners ``members`` of one vertex show a mismatch though only one
    digit is read confidently: a corner reads ``d`` at ``cfg.confident`` or more and
    every other corner reads another digit at ``cfg.mismatch_other`` or more, giving
    ``d`` under ``cfg.mismatch_denied`` (their pixels deny its digit, its own deny
    theirs; repairing the board there would hide a tile placed against the rule)."""
    if cfg.mismatch_denied <= 0 or len(members) < 2:
        return False
    for a, k in members:
        d = int(digits[a, k])
        if probs[a, k, d] < cfg.confident:
            continue
        others = [(b, j) for b, j in members if (b, j) != (a, k)]
        if all(int(digits[b, j]) != d and probs[b, j].max() >= cfg.mismatch_other
               and probs[b, j, d] < cfg.mismatch_denied for b, j in others):
            return True
    return False


def _denied_jointly(cfg: ReaderConfig, logp: np.ndarray, digits: np.ndarray,
                    members: list[tuple[int, int]]) -> tuple[tuple[int, int], int] | None:
    """The corner of ``members`` (one vertex) read clearly as ``d`` (at least
    ``cfg.mismatch_joint_min``; ``digits`` (N, 3): each corner's own first choice), no
    other corner reading ``d`` first, that stands against the others read together: their
    joint choice ``e`` (sum of log-probabilities, ``logp`` (N, 3, 6)), which one of them
    reads at ``cfg.mismatch_other`` or more, beats ``d`` by ``cfg.mismatch_joint`` or
    more, and that corner's own reading beats ``e`` by as much. Two readings that deny
    each other: a tile placed against the rule, not a misread (one other corner read
    unclearly keeps :func:`_denied` from seeing it; dev faults 71000176: 0 at 0.99
    against 2 at 0.88 and a blurred 2 or 3, repaired to 2 before). Returns that corner
    and ``e``; None where no corner so stands alone (``cfg.mismatch_joint`` 0: never)."""
    if cfg.mismatch_joint <= 0 or len(members) < 2:
        return None
    for a, k in members:
        d = int(digits[a, k])
        if logp[a, k, d] < np.log(cfg.mismatch_joint_min):
            continue
        others = [(b, j) for b, j in members if (b, j) != (a, k)]
        if any(int(digits[b, j]) == d for b, j in others):
            continue  # another corner reads it too: not alone
        rest = sum(logp[b, j] for b, j in others)
        e = int(np.argmax(rest))
        # (and one of the others reads e at mismatch_other or more: a witness, not only
        # the sum of unclear readings)
        if (e != d and rest[e] - rest[d] >= cfg.mismatch_joint
                and logp[a, k, d] - logp[a, k, e] >= cfg.mismatch_joint
                and any(int(digits[b, j]) == e and logp[b, j, e] >= np.log(cfg.mismatch_other)
                        for b, j in others)):
            return (a, k), e
    return None


def unshown_tiles(cells: list[Cell], shows: np.ndarray, most: int) -> set[int]:
    """Indices of tiles with more than ``most`` corners at a vertex where no corner shows a
    digit, repeated until none is left (dropping a tile takes its corners' support away).

    ``shows`` is (N, 3) bool: the corner's own first choice is a digit (not "none").
    """
    drop: set[int] = set()
    while True:
        keep = [n for n in range(len(cells)) if n not in drop]
        groups = _vertex_groups([cells[n] for n in keep])
        shown = {v for v, m in groups.items() if any(shows[keep[a], k] for a, k in m)}
        new = {n for n in keep
               if sum(v not in shown for v in cell_corners(cells[n])) > most}
        if not new:
            return drop
        drop |= new


@lru_cache(maxsize=2)
def _tables(set_name: str) -> tuple[np.ndarray, np.ndarray]:
    """For every digit triple code ``36a + 6b + c``: its tile's code and whether that tile
    is in the set (so whole boards are checked with array lookups)."""
    canon = np.zeros(216, np.int64)
    inset = np.zeros(216, bool)
    for code in range(216):
        t = Tile.from_digits([code // 36, code // 6 % 6, code % 6])
        a, b, c = t.digits
        canon[code] = 36 * a + 6 * b + c
        inset[code] = t.in_set(set_name)
    return canon, inset


def _problems(digits: np.ndarray, set_name: str) -> int:
    """How many tiles are outside the set or repeated."""
    canon, inset = _tables(set_name)
    codes = digits[:, 0] * 36 + digits[:, 1] * 6 + digits[:, 2]
    return int((~inset[codes]).sum() + len(codes) - len(np.unique(canon[codes])))


def bad_tiles(digits: np.ndarray, set_name: str) -> set[int]:
    """Indices of tiles outside the set or present more than once (every copy)."""
    where: dict[Tile, list[int]] = {}
    bad: set[int] = set()
    for n, row in enumerate(digits):
        t = Tile.from_digits([int(x) for x in row])
        if not t.in_set(set_name):
            bad.add(n)
        where.setdefault(t, []).append(n)
    for ns in where.values():
        if len(ns) > 1:
            bad.update(ns)
    return bad


def _apply_set(cfg: ReaderConfig, cells: list[Cell], digits: np.ndarray,
               free: list[tuple[list[tuple[int, int]], np.ndarray]], set_name: str
               ) -> np.ndarray:
    """Greedy: while a change of one vertex's digit removes set problems for less than
    ``cfg.set_penalty`` per problem in log-probability, make the cheapest such change.
    Only vertices of offending tiles are tried."""
    cur = _problems(digits, set_name)
    for _ in range(len(cells) + 2):
        if cur == 0:
            break
        bad = bad_tiles(digits, set_name)
        best: tuple[float, int, int] | None = None
        for vi, (members, score) in enumerate(free):
            if not any(a in bad for a, _ in members):
                continue
            d0 = int(digits[members[0][0], members[0][1]])
            for d in range(6):
                if d == d0:
                    continue
                cost = float(score[d0] - score[d])
                if cost >= cfg.set_penalty:
                    continue
                trial = digits.copy()
                for a, k in members:
                    trial[a, k] = d
                gain = cur - _problems(trial, set_name)
                if gain <= 0 or cost >= cfg.set_penalty * gain:
                    continue
                if best is None or cost / gain < best[0]:
                    best = (cost / gain, vi, d)
        if best is None:
            break
        members, _ = free[best[1]]
        for a, k in members:
            digits[a, k] = best[2]
        cur = _problems(digits, set_name)
    return digits
