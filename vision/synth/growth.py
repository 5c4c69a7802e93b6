"""Boards for the photos: grown by legal play with the engine, optionally with faults.

Legality is the engine's (:func:`engine.moves.unplayed_placements`): there is one
implementation of the rules, and the synthesiser only chooses among the moves it offers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.board import Board
from engine.lattice import Cell, cell_corners, cells_around, edge_neighbours
from engine.moves import FIRST_CELL, unplayed_placements
from engine.rules import get_rules
from engine.tiles import Tile, tile_set


def grow_board(rng: np.random.Generator, n_tiles: int, set_name: str = "standard") -> Board:
    """A board of up to ``n_tiles`` tiles, each placed by a legal move chosen at random.

    Growth stops early when no unplayed tile fits anywhere (rare below ~40 tiles). Moves
    that score figures (bridges, hexagons) are slightly preferred, as players do.
    """
    rules = get_rules()
    board = Board(set_name=set_name)
    tiles = sorted(tile_set(set_name))
    first = tiles[int(rng.integers(len(tiles)))]
    rot = first.rotations()[int(rng.integers(len(first.rotations())))]
    board.put(FIRST_CELL, rot)
    while len(board) < n_tiles:
        moves = unplayed_placements(board, rules)
        if not moves:
            break
        base = np.array([m.score.total for m in moves], float)
        w = 1.0 + 0.02 * (base - base.min())
        pick = moves[int(rng.choice(len(moves), p=w / w.sum()))]
        board.cells[pick.placement.cell] = pick.placement.corners
    return board


def add_faults(rng: np.random.Generator, board: Board) -> list[dict[str, Any]]:
    """Put one or two deliberate faults on ``board`` (in place) and describe them.

    Kinds: ``corner_mismatch`` (a tile sharing an edge whose digit disagrees at a corner)
    and ``corner_only`` (a tile touching the board only at one vertex, digits agreeing).
    """
    done: list[dict[str, Any]] = []
    # the mismatch goes first, so the corner-only tile cannot gain an edge neighbour after
    kinds = [["corner_mismatch"], ["corner_only"], ["corner_mismatch", "corner_only"]][
        int(rng.integers(3))]
    for kind in kinds:
        cell = _fault_cell(rng, board, kind)
        if cell is None:
            continue
        digits = _fault_digits(rng, board, cell, kind)
        if digits is None:
            continue
        board.cells[cell] = digits
        done.append({"kind": kind, "cell": list(cell), "corners": list(digits)})
    return done


def _needed(board: Board, cell: Cell) -> list[int | None]:
    out: list[int | None] = []
    for v in cell_corners(cell):
        ds = set(board.digits_at(v).values())
        out.append(ds.pop() if len(ds) == 1 else None)
    return out


def _fault_cell(rng: np.random.Generator, board: Board, kind: str) -> Cell | None:
    if kind == "corner_mismatch":
        cands = sorted(board.frontier())
    else:
        near = {c for v in board.vertices() for c in cells_around(v)} - set(board.cells)
        cands = sorted(c for c in near
                       if not any(n in board.cells for n in edge_neighbours(c)))
    if not cands:
        return None
    return cands[int(rng.integers(len(cands)))]


def _fault_digits(rng: np.random.Generator, board: Board, cell: Cell, kind: str
                  ) -> tuple[int, int, int] | None:
    need = _needed(board, cell)
    used = board.used()
    free = [t for t in tile_set(board.set_name) if t not in used]
    order = rng.permutation(len(free))
    for idx in order:
        t: Tile = free[int(idx)]
        for rot in t.rotations():
            agree = [n is None or n == d for n, d in zip(need, rot, strict=True)]
            known = [n is not None for n in need]
            if kind == "corner_mismatch" and any(known) and not all(agree):
                return rot
            if kind == "corner_only" and all(agree):
                return rot
    return None
