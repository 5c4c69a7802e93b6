"""The engine commands end to end: moves, openings, check (typer's CliRunner, real app)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app

SAMPLES = Path(__file__).parents[1] / "samples" / "boards"
MIDGAME = str(SAMPLES / "midgame.json")
AFTER = str(SAMPLES / "midgame_after.json")
GOLIATH_LINE = ("rules: goliath (Goliath sheets: bridge 40, hexagon 50/60/70, draw up to 3 at "
                "-5, -10 if stuck)")
runner = CliRunner()


def run(*args: str) -> tuple[int, list[str], str]:
    r = runner.invoke(app, list(args), env={"COLUMNS": "160"})
    return r.exit_code, r.stdout.splitlines(), r.stderr


def test_moves_readme_command() -> None:
    code, out, err = run("moves", MIDGAME, "--rack", "0-1-2 2-3-5 4-4-5")
    assert (code, err) == (0, "")
    assert out[:3] == [GOLIATH_LINE, "board: 16 tiles, standard set",
                       "rack: 0-1-2 2-3-5 4-4-5: 3 legal placements"]
    rows = [line.split("│") for line in out if "│" in line]
    assert [[c.strip() for c in r] for r in rows] == [
        ["1", "0-1-2", "1,0,D=2,0,1", "53", "hexagon", "0+1+2 = 3, hexagon +50 = 53"],
        ["2", "2-3-5", "2,-1,U=2,3,5", "50", "bridge", "2+3+5 = 10, bridge +40 = 50"],
        ["3", "4-4-5", "2,-3,D=4,5,4", "13", "", "4+4+5 = 13"]]


def test_moves_json_rules_and_overrides() -> None:
    code, out, _ = run("moves", MIDGAME, "--rack", "2-3-5", "--rules", "kids", "--json")
    data = json.loads("\n".join(out))
    assert code == 0 and data["rules"] == "kids"
    assert [(m["notation"], m["score"]["total"]) for m in data["moves"]] == [("2,-1,U=2,3,5", 2)]
    code, out, _ = run("moves", MIDGAME, "--rack", "2-3-5", "--set-rule", "bridge_bonus=45",
                       "--set-rule", "draw_penalty=1", "--draws", "2", "--json")
    data = json.loads("\n".join(out))
    assert data["rules"] == "goliath+bridge_bonus=45,draw_penalty=1"
    assert data["moves"][0]["score"]["breakdown"] == "2+3+5 = 10, bridge +45, 2 draws -2 = 53"


def test_moves_without_rack_lists_cells() -> None:
    code, out, _ = run("moves", MIDGAME, "--rules", "pressman")
    assert code == 0 and out[0].startswith("rules: pressman (")
    assert out[2] == "no rack: 26 placements of unplayed tiles in 12 cells"
    assert any(line.startswith("1,0,D") and "0-1-2 (53, hexagon)" in line for line in out)


def test_moves_on_an_empty_board_offers_each_tile_once() -> None:
    code, out, _ = run("moves", str(SAMPLES / "empty.json"), "--rack", "0-0-0 5-5-5",
                       "--rules", "pressman", "--json")
    moves = json.loads("\n".join(out))["moves"]
    assert [(m["notation"], m["score"]["breakdown"]) for m in moves] == [
        ("0,0,U=0,0,0", "0+0+0 = 0, start +40 = 40"), ("0,0,U=5,5,5", "5+5+5 = 15, start +10 = 25")]


def test_broken_board_is_reported_not_refused() -> None:
    code, out, _ = run("moves", str(SAMPLES / "broken.json"), "--rack", "0-1-2")
    assert code == 0
    assert out[2] == "warning: the board breaks the rules in 5 place(s):"
    assert "  - tile 2-4-5 at -2,1,U touches the board only by a corner" in out


def test_openings() -> None:
    code, out, _ = run("openings", MIDGAME)
    assert code == 0 and out[0] == GOLIATH_LINE
    assert out[2] == "pending hexagons: 3 (1 open); near-openings (two tiles short): 3"
    open_row = [line for line in out if line.startswith("1,0,D ")]
    assert len(open_row) == 1 and "0-1-2" in open_row[0] and "+50" in open_row[0]
    code, out, _ = run("openings", MIDGAME, "--json")
    data = json.loads("\n".join(out))
    assert [o["status"] for o in data["pending"]] == ["open", "dead", "not in set"]
    assert data["pending"][1]["note"] == "dead: tile 3-3-4 is already on the board at -1,0,U"
    assert data["pending"][0]["placement"] == "1,0,D=2,0,1" and data["rules"] == "goliath"


def test_check_place_claims_and_exit_codes() -> None:
    code, out, _ = run("check", MIDGAME, "--place", "2,-1,U:2-3-5", "--claimed", "50")
    assert code == 0
    assert out == [GOLIATH_LINE, "placement: 2,-1,U=2,3,5 (tile 2-3-5)",
                   "score: 2+3+5 = 10, bridge +40 = 50",
                   "verdict: legal, scores 50, claim 50 holds"]
    code, out, _ = run("check", MIDGAME, "--place", "2,-1,U=2,3,5", "--claimed", "52")
    assert code == 1 and out[-1] == "verdict: legal, scores 50, claim 52 disputed (the score is 50)"
    code, out, _ = run("check", MIDGAME, "--place", "0,1,D:1-1-1")
    assert code == 1 and out[1:] == ["problems:", "  - cell 0,1,D already holds tile 0-0-1",
                                     "verdict: illegal"]


def test_check_before_after() -> None:
    code, out, _ = run("check", MIDGAME, AFTER, "--claimed", "53", "--rules", "pressman")
    assert code == 0 and out[0].startswith("rules: pressman (")
    assert out[1:] == ["placement: 1,0,D=2,0,1 (tile 0-1-2)",
                       "score: 0+1+2 = 3, hexagon +50 = 53",
                       "verdict: legal, scores 53, claim 53 holds"]
    code, out, _ = run("check", MIDGAME, MIDGAME, "--json")
    data = json.loads("\n".join(out))
    assert code == 1 and data["problems"] == ["no new tile: the boards have the same tiles"]


def write(tmp: Path, name: str, text: str) -> str:
    p = tmp / name
    p.write_text(text, encoding="utf-8")
    return str(p)


@pytest.mark.parametrize(("args", "message"), [
    (["moves", MIDGAME, "--rules", "monopoly"],
     "error: unknown rule edition 'monopoly' (known: goliath, pressman, pressman-classic, kids)"),
    (["moves", MIDGAME, "--rack", "0-1-x"],
     "error: not a tile: '0-1-x' (expected a-b-c with digits 0-5)"),
    (["moves", MIDGAME, "--rack", "0-1-7"],
     "error: not a tile: '0-1-7': digit 7 is out of range 0-5"),
    (["moves", MIDGAME, "--rack", "0-2-1"],
     "error: tile 0-2-1 in the rack is not in the standard set (digits are read clockwise; its "
     "mirror 0-1-2 is)"),
    (["moves", MIDGAME, "--rack", "3-3-3"],
     "error: tile 3-3-3 in the rack is already on the board at 0,0,U"),
    (["check", MIDGAME, "--place", "1,0,D:0-1"],
     "error: not a tile: '0-1' (expected a-b-c with digits 0-5)"),
    (["check", MIDGAME, "--place", "1,0,Q=0,1,2"],
     "error: not a placement: '1,0,Q=0,1,2': bad cell '1,0,Q' (expected i,j,U or i,j,D)"),
    (["check", MIDGAME], "error: give --place CELL:a-b-c or a second board (AFTER) to check"),
    (["check", MIDGAME, "--place", "1,0,D:0-1-2", "--draws", "4"],
     "error: goliath rules allow at most 3 draws per turn, not 4"),
    (["moves", MIDGAME, "--set-rule", "bridge_bonus=x"],
     "error: bad value in rule override 'bridge_bonus=x'"),
])
def test_bad_input_one_line_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert (code, out, err.splitlines()) == (2, [], [message])


@pytest.mark.parametrize(("name", "text", "message"), [
    ("twice.json", '{"format": "triominos-board/1", "tiles": [{"cell": [0,0,"U"], "corners": '
     '[1,1,1]}, {"cell": [0,0,"U"], "corners": [2,2,2]}]}', "tiles[1]: cell 0,0,U is given twice"),
    ("digit.json", '{"format": "triominos-board/1", "tiles": [{"cell": [0,0,"U"], "corners": '
     '[1,1,7]}]}', "tiles[0] at 0,0,U: bad corners [1, 1, 7] (expected three digits 0-5, "
     "null for a digit not seen)"),
    ("v2.json", '{"format": "triominos-board/2", "tiles": []}',
     "unknown format 'triominos-board/2' (expected 'triominos-board/1')"),
    ("trunc.json", '{"format": "triominos-board/1", "tiles": [',
     "not JSON: Expecting value at line 1 column 43"),
    ("empty.json", "", "empty file: expected Board JSON"),
    ("mirror.json", '{"format": "triominos-board/1", "tiles": [{"cell": [0,0,"U"], "corners": '
     '[0,2,1]}]}', "tiles[0] at 0,0,U: tile 0-2-1 is not in the standard set"),
])
def test_bad_board_files(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = write(tmp_path, name, text)
    for command in (["moves", path], ["openings", path], ["check", path, "--place", "0,0,D:1-1-1"],
                    ["check", path, MIDGAME], ["check", MIDGAME, path]):
        code, out, err = run(*command)
        if command[2:] == [path] and name == "mirror.json":
            # the AFTER board may hold exactly the mistake being refereed: it loads, and the
            # check fails (exit 1) naming the other differences
            assert code == 1 and out[-1] == "verdict: illegal"
            continue
        assert (code, out, err.splitlines()) == (2, [], [f"error: {path}: {message}"])


def test_missing_file() -> None:
    code, _, err = run("openings", "no/such/board.json")
    assert (code, err) == (2, "error: no/such/board.json: cannot read: No such file or directory\n")


def _part_board(tmp_path: Path) -> str:
    """0,0,U in full; 0,0,D beside it seen in part (its digit at vertex (1,1) not seen)."""
    p = tmp_path / "part.json"
    p.write_text(json.dumps({"format": "triominos-board/1", "set": "standard", "tiles": [
        {"cell": [0, 0, "U"], "corners": [1, 2, 3]},
        {"cell": [0, 0, "D"], "corners": [2, 1, None]}]}))
    return str(p)


def test_moves_mark_the_placements_that_meet_a_digit_not_seen(tmp_path: Path) -> None:
    board = _part_board(tmp_path)
    code, out, err = run("moves", board, "--rack", "2-2-5 0-3-4")
    assert (code, err) == (0, "")
    assert out[1] == "board: 2 tiles (1 read in part), standard set"
    assert ("* meets a tile read only in part where its digit was not seen: check that "
            "corner on the table") in out
    rows = [[c.strip() for c in line.split("│")] for line in out if "│" in line]
    assert rows and all(r[2].endswith(" *") == r[2].startswith("1,0,U") for r in rows)
    assert not any(r[2].startswith("0,0,D") for r in rows)  # its cell is taken
    code, out, _ = run("moves", board, "--rack", "2-2-5 0-3-4", "--json")
    moves = json.loads("\n".join(out))["moves"]
    assert {m["notation"][:5]: m["unseen_vertices"] for m in moves}["1,0,U"] == [[1, 1]]


def test_check_beside_a_digit_not_seen_is_not_confirmed(tmp_path: Path) -> None:
    board = _part_board(tmp_path)
    code, out, _ = run("check", board, "--place", "1,0,U=5,2,2", "--claimed", "9")
    assert code == 1
    assert out[-1] == "verdict: not confirmed (legal where seen, scores 9), claim 9 holds"
    assert "cannot be confirmed:" in out
    code, out, _ = run("check", board, "--place", "0,0,D=2,1,2")
    assert code == 1 and "  - cell 0,0,D already holds tile 2,1,? (seen in part)" in out
    code, out, _ = run("check", board, "--place", "0,-1,D=3,3,2", "--json")
    data = json.loads("\n".join(out))
    assert code == 0 and data["ok"] and data["unverified"] == []


def test_openings_beside_a_digit_not_seen(tmp_path: Path) -> None:
    # five of the six cells around (0,0); 0,-1,U seen in part, its digit at (1,-1) not
    # seen: the hexagon's one gap needs it (unseen); without 0,0,U, the ring two short
    # "maybe" completes
    ring = {(-1, -1, "D"): [1, 2, 0], (-1, 0, "D"): [0, 2, 0], (-1, 0, "U"): [2, 0, 2],
            (0, -1, "U"): [0, None, 1], (0, 0, "U"): [0, 0, 0]}

    def board(cells: dict) -> str:
        p = tmp_path / f"b{len(cells)}.json"
        p.write_text(json.dumps({"format": "triominos-board/1", "tiles": [
            {"cell": list(c), "corners": d} for c, d in cells.items()]}))
        return str(p)

    code, out, _ = run("openings", board(ring))
    assert code == 0 and "board: 5 tiles (1 read in part), standard set" in out
    row = next(line for line in out if line.startswith("0,-1,D"))
    assert "unknown: a digit it needs was not seen" in row and "0,?,?" not in row
    code, out, _ = run("openings", board({c: d for c, d in ring.items() if c != (0, 0, "U")}))
    row = next(line for line in out if line.startswith("(0,0)"))
    assert row.split("│")[-1].strip() == "maybe *"
    assert ("* meets a tile read only in part where its digit was not seen: check that "
            "corner on the table") in out


def test_hints_mark_the_placements_that_meet_a_digit_not_seen(tmp_path: Path) -> None:
    code, out, _ = run("moves", _part_board(tmp_path), "--rack", "2-2-5 0-3-4", "--hint")
    assert code == 0
    rows = [[c.strip() for c in line.split("│")] for line in out if "│" in line]
    assert rows and all(r[1].endswith(" *") == r[1].startswith("1,0,U") for r in rows)
    assert any(r[1].endswith(" *") for r in rows)
    assert ("* meets a tile read only in part where its digit was not seen: check that "
            "corner on the table") in out
