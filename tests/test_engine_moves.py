"""Placements: notation, legality with every reason, move generation, perft tables.

Move generation is checked against a brute-force oracle that knows nothing of frontiers or
digit maps: try every tile in every rotation in every cell near the board and keep the
placements after which the board has no violation at all.

Regenerate the perft table (only after a deliberate rules change) with
``python tests/test_engine_moves.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import (
    AmbiguousPlacementError,
    Board,
    IllegalPlacementError,
    ParseError,
    Placement,
    Tile,
    get_rules,
    is_legal,
    legal_placements,
    placement_problems,
)
from engine.lattice import Cell, cell_corners, cells_around, edge_neighbours, vertex_neighbours
from engine.moves import FIRST_CELL, apply, moves_by_cell, unplayed_placements
from engine.positions import random_board

GOLIATH = get_rules()
PERFT = Path(__file__).parent / "data" / "perft.json"


def domino() -> Board:
    b = Board()
    b.put((0, 0, "U"), (5, 5, 5))
    b.put((0, 0, "D"), (5, 5, 2))
    return b


# ---- notation -------------------------------------------------------------------------

def test_parse_both_forms_and_round_trip() -> None:
    b = domino()
    # 1,0,U's left edge is 0,0,D's right edge: (1,1)=2 and (1,0)=5
    p = Placement.parse("1,0,U:2-4-5", b)
    assert p == Placement((1, 0, "U"), (2, 4, 5))
    assert (p.notation(), p.tile.name()) == ("1,0,U=2,4,5", "2-4-5")
    assert Placement.parse(p.notation(), b) == p
    assert Placement.parse(" 1 , 0 , u = 245 ", b) == p
    assert Placement.parse("1,0,U=2-4-5", b) == p
    assert Placement.parse("0,-1,D=5,3,5", b).corners == (5, 3, 5)  # "=" checks no rule


@pytest.mark.parametrize("text", ["", "0,0,D", "0,0,X:1-2-3", "0,0,D=1,2", "0,0,D=1,2,6",
                                  "0,0,D:1-2", "x,0,D:1-2-3", "0,0,D=1,2,3,4", "0,0,D:7-7-7"])
def test_parse_errors(text: str) -> None:
    with pytest.raises(ParseError):
        Placement.parse(text, domino())


def test_named_tile_rotation_is_found_or_refused() -> None:
    b = domino()
    assert Placement.parse("1,0,U:4-5-2", b).corners == (2, 4, 5)
    with pytest.raises(IllegalPlacementError, match="fits 1,0,U in no rotation"):
        Placement.parse("1,0,U:0-1-3", b)
    with pytest.raises(IllegalPlacementError, match="already holds tile 2-5-5"):
        Placement.parse("0,0,D:1-1-1", b)
    with pytest.raises(IllegalPlacementError, match="shares no edge"):
        Placement.parse("5,5,U:1-1-1", b)


def test_ambiguous_only_without_an_edge_neighbour() -> None:
    with pytest.raises(AmbiguousPlacementError) as e:
        Placement.parse("0,0,U:0-1-2", Board())
    assert str(e.value) == ("tile 0-1-2 fits 0,0,U in 3 rotations: 0,0,U=0,1,2 or "
                            "0,0,U=1,2,0 or 0,0,U=2,0,1 (give the corners with CELL=a,b,c)")
    assert Placement.parse("0,0,U:3-3-3", Board()).corners == (3, 3, 3)  # one rotation only
    # with an edge neighbour at most one rotation can fit, whatever the tile
    b = random_board(20, seed=4)
    for cell in b.frontier():
        for t in b.unplayed():
            try:
                Placement.parse(f"{cell[0]},{cell[1]},{cell[2]}:{t}", b)
            except IllegalPlacementError:
                pass


# ---- legality -------------------------------------------------------------------------

def test_every_reason_is_named() -> None:
    b = domino()
    p = Placement((0, 0, "D"), (1, 1, 1))
    assert placement_problems(b, p, GOLIATH) == ["cell 0,0,D already holds tile 2-5-5",
                                                 "corner 0 of 0,0,D at vertex (1,0) is 1, but "
                                                 "the board shows 5 (from 0,0,U) there",
                                                 "corner 1 of 0,0,D at vertex (0,1) is 1, but "
                                                 "the board shows 5 (from 0,0,U) there"]
    p = Placement((1, 0, "U"), (2, 5, 5))  # fits, but the tile lies at 0,0,D already
    assert placement_problems(b, p, GOLIATH) == ["tile 2-5-5 is already on the board at 0,0,D"]
    p = Placement((1, 0, "U"), (0, 2, 1))  # mirror tile, and digits disagree along the edge
    assert placement_problems(b, p, GOLIATH) == [
        "tile 0-2-1 is not in the standard set",
        "corner 0 of 1,0,U at vertex (1,1) is 0, but the board shows 2 (from 0,0,D) there",
        "corner 2 of 1,0,U at vertex (1,0) is 1, but the board shows 5 (from 0,0,D, 0,0,U) "
        "there"]
    far = Placement((4, 4, "U"), (1, 1, 1))
    assert placement_problems(b, far, GOLIATH) == [
        "tile 1-1-1 at 4,4,U shares no edge with a tile (it does not touch the board)"]


def test_every_corner_must_agree_not_only_along_edges() -> None:
    # 1,0,U shares an edge with 0,0,D only; its corner (2,0) meets 2,-1,U corner to corner
    b = Board()
    for text in ("0,0,U=5,5,5", "0,0,D=5,5,2", "0,-1,D=4,5,5", "1,-1,U=5,1,4", "1,-2,D=1,4,1",
                 "2,-2,U=1,5,1", "2,-2,D=5,1,5", "2,-1,U=3,5,1"):
        p = Placement.parse(text, b)
        b.put(p.cell, p.corners)
    assert b.is_valid()
    good = Placement((1, 0, "U"), (2, 3, 5))
    bad = Placement((1, 0, "U"), (2, 4, 5))  # (2,0)=4 disagrees with 2,-1,U only
    assert is_legal(b, good, GOLIATH)
    assert placement_problems(b, bad, GOLIATH) == [
        "corner 1 of 1,0,U at vertex (2,0) is 4, but the board shows 3 (from 2,-1,U) there"]
    assert Placement.parse("1,0,U:2-4-5", domino()) == bad  # fine without 2,-1,U
    with pytest.raises(IllegalPlacementError, match="fits 1,0,U in no rotation"):
        Placement.parse("1,0,U:2-4-5", b)
    with pytest.raises(IllegalPlacementError, match="1,0,U=2,4,5 is illegal"):
        apply(b, bad, GOLIATH)
    assert apply(b, good, GOLIATH).cells[(1, 0, "U")] == (2, 3, 5)


def test_first_move_on_an_empty_board() -> None:
    rack = [Tile.parse(t) for t in ("0-1-2", "4-4-4", "0-0-0", "0-2-1")]
    moves = legal_placements(Board(), rack, get_rules("pressman"))
    assert [(m.tile.name(), m.cell, m.score.total) for m in moves] == [
        ("0-0-0", FIRST_CELL, 40), ("4-4-4", FIRST_CELL, 22), ("0-1-2", FIRST_CELL, 3)]
    # any cell and rotation is legal on an empty board
    assert is_legal(Board(), Placement((7, -3, "D"), (2, 0, 1)), GOLIATH)


# ---- move generation -------------------------------------------------------------------

def oracle(board: Board, rack: list[Tile]) -> set[tuple[Cell, tuple[int, int, int]]]:
    """Brute force: every placement after which a valid board stays valid."""
    cells = {n for c in board.cells for n in vertex_neighbours(c)} - set(board.cells)
    out = set()
    for cell in cells:
        for t in rack:
            for r in t.rotations():
                # cheap necessary condition first; the verdict is the full validity check
                if any(d != r[k] for k, v in enumerate(cell_corners(cell))
                       for d in board.digits_at(v).values()):
                    continue
                after = board.copy()
                after.cells[cell] = r
                if after.is_valid():
                    out.add((cell, r))
    return out


def oracle_figure(board: Board, cell: Cell) -> str | None:
    """Figures from the definitions, by looking at the board after the placement."""
    after = set(board.cells) | {cell}
    rings = sum(all(c in after for c in cells_around(v)) for v in cell_corners(cell))
    if rings:
        return ("hexagon", "double hexagon", "triple hexagon")[rings - 1]
    matched = [k for k, n in enumerate(edge_neighbours(cell)) if n in board.cells]
    if len(matched) == 1:
        opposite = cell_corners(cell)[matched[0]]
        if any(c in board.cells for c in cells_around(opposite)):
            return "bridge"
    return None


@pytest.mark.parametrize("seed", range(12))
def test_generation_matches_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    set_name = "extended" if seed % 3 == 0 else "standard"
    board = random_board(rng.choice([2, 6, 15, 30, 45]), seed=seed, set_name=set_name)
    assert board.is_valid()
    rack = board.unplayed()
    moves = unplayed_placements(board, GOLIATH)
    assert {(m.cell, m.placement.corners) for m in moves} == oracle(board, rack)
    for m in moves:
        assert m.score.figure == oracle_figure(board, m.cell)
        assert m.score.total == m.tile.total + m.score.figure_bonus
        assert is_legal(board, m.placement, GOLIATH)
    assert moves == sorted(moves, key=lambda m: m.sort_key())
    assert [m.score.total for m in moves] == sorted((m.score.total for m in moves), reverse=True)


def test_rack_filtering_and_grouping() -> None:
    b = domino()
    rack = [Tile.parse("5-5-5"), Tile.parse("0-2-1"), Tile.parse("2-4-5"), Tile.parse("2-4-5")]
    moves = legal_placements(b, rack, GOLIATH)
    assert {m.tile.name() for m in moves} == {"2-4-5"}  # on the board / not in the set: none
    groups = moves_by_cell(moves)
    assert sum(len(v) for v in groups.values()) == len(moves)
    assert legal_placements(b, rack, GOLIATH, draws=2)[0].score.total == moves[0].score.total - 10


# ---- perft tables ----------------------------------------------------------------------

def perft_positions() -> list[dict[str, Any]]:
    """The positions of the committed table (seeded, so regeneration is reproducible)."""
    out = []
    specs = [(0, "standard", 0.7), (1, "standard", 0.7), (5, "standard", 0.3),
             (10, "standard", 0.7), (15, "standard", 0.2), (20, "standard", 0.5),
             (30, "standard", 0.7), (40, "standard", 0.4), (48, "standard", 0.7),
             (10, "extended", 0.3), (35, "extended", 0.5), (60, "extended", 0.7)]
    for n, (size, set_name, compact) in enumerate(specs):
        board = random_board(size, seed=100 + n, set_name=set_name, compact=compact)
        rng = random.Random(n)
        unplayed = board.unplayed()
        rack = sorted(rng.sample(unplayed, min(9, len(unplayed))))
        out.append({"name": f"{set_name}-{size}-{n}", "rules": ("goliath", "pressman")[n % 2],
                    "rack": " ".join(t.name() for t in rack), "board": board.to_json()})
    # hand-built figure positions (see test_engine_scoring.py) and the README's sample
    for name, rules, rack_text, cells in HAND_BUILT:
        board = Board()
        for text in cells:
            p = Placement.parse(text, board)
            board.put(p.cell, p.corners)
        out.append({"name": name, "rules": rules, "rack": rack_text, "board": board.to_json()})
    sample = Board.load(Path(__file__).parents[1] / "samples" / "boards" / "midgame.json")
    for rules in ("goliath", "pressman"):
        out.append({"name": f"midgame-{rules}", "rules": rules, "rack": "0-1-2 2-3-5 4-4-5",
                    "board": sample.to_json()})
    return out


HAND_BUILT = [
    ("bridge", "goliath", "1-4-4 1-2-4 0-0-0",
     ["0,0,U=4,1,3", "0,-1,D=1,3,1", "1,-1,U=1,5,1", "1,-1,D=5,1,2", "2,-1,U=2,5,5",
      "2,-1,D=5,2,3", "2,0,U=2,3,2", "1,0,D=2,4,2"]),
    ("pocket", "pressman", "1-1-5 0-1-4 3-4-5",
     ["0,0,U=5,1,2", "0,-1,D=2,2,1", "0,-1,U=2,2,2", "0,-2,D=0,2,2", "1,-2,U=2,0,0",
      "1,-2,D=0,2,3", "2,-2,U=3,5,0", "2,-2,D=5,3,3", "2,-1,U=2,3,3", "1,-1,D=3,1,2",
      "1,0,U=1,2,1"]),
    ("triple", "goliath", "2-4-5 1-1-1 0-3-3",
     ["-1,-1,D=5,5,5", "-1,0,D=5,2,2", "-1,0,U=2,5,5", "-1,1,D=2,2,3", "-1,1,U=2,2,2",
      "0,-1,D=4,5,4", "0,-1,U=5,4,5", "0,0,D=4,2,4", "0,1,U=3,4,2", "1,-1,D=3,4,1",
      "1,-1,U=4,3,4", "1,0,U=4,1,4"]),
]


def perft_row(pos: dict[str, Any]) -> dict[str, Any]:
    board = Board.from_json(pos["board"])
    rules = get_rules(pos["rules"])
    rack = [Tile.parse(t) for t in pos["rack"].split()]
    moves = legal_placements(board, rack, rules)
    every = unplayed_placements(board, rules)
    return {**pos, "placements": len(moves), "figures": _figures(moves),
            "best": f"{moves[0].placement.notation()} {moves[0].score.total}" if moves else None,
            "unplayed_placements": len(every), "unplayed_figures": _figures(every)}


def _figures(moves: list[Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for m in moves:
        key = m.score.figure or "plain"
        out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items()))


def test_perft_table() -> None:
    table = json.loads(PERFT.read_text(encoding="utf-8"))
    assert len(table) >= 10
    for row in table:
        assert perft_row({k: row[k] for k in ("name", "rules", "rack", "board")}) == row


def test_perft_counts_agree_with_brute_force() -> None:
    for row in json.loads(PERFT.read_text(encoding="utf-8"))[1:]:
        board = Board.from_json(row["board"])
        rack = [Tile.parse(t) for t in row["rack"].split()]
        assert len(oracle(board, [t for t in rack if t not in board.used()])) == row["placements"]


if __name__ == "__main__":
    rows = [perft_row(p) for p in perft_positions()]
    PERFT.parent.mkdir(parents=True, exist_ok=True)
    PERFT.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(rows)} rows to {PERFT}")
