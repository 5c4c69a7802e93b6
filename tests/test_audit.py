"""The audit: typed score sheets (wrong bonus, missed draw penalty, illegal placement, round
end) and recorded games; the ``audit`` command."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from engine import get_rules
from engine.audit import audit_data, audit_file, audit_sheet, sheet_from_game
from engine.bots import GreedyBot
from engine.errors import ParseError
from engine.game import play_game

GAMES = Path(__file__).resolve().parent.parent / "samples" / "games"
runner = CliRunner()


def test_typed_sheet_sample_is_correct():
    rep = audit_file(GAMES / "scoresheet.json")
    assert rep.ok and rep.lines_checked == 48
    assert rep.claimed == rep.engine


def test_typed_sheet_names_wrong_bonus_missed_draw_penalty_and_illegal_placement():
    rep = audit_file(GAMES / "scoresheet_errors.json")
    by_line = {p.line: p for p in rep.problems}
    assert sorted(by_line) == [10, 41, 47]
    assert by_line[10].kind == "score" and "missed draw penalty" in by_line[10].message
    assert by_line[41].kind == "illegal" and "corner" in by_line[41].message
    assert by_line[47].kind == "score" and "wrong bonus" in by_line[47].message
    assert "bridge" in by_line[47].message
    assert by_line[47].player == "Ann" and by_line[10].player == "Bo"


def _sheet(seed: int = 4, edition: str = "goliath") -> tuple[dict, object]:
    g = play_game(get_rules(edition), [GreedyBot(), GreedyBot()], seed=seed, rounds=1)
    return json.loads(json.dumps(sheet_from_game(g))), g


def _first(sheet: dict, pred) -> int:
    return next(i for i, t in enumerate(sheet["rounds"][0]["turns"]) if pred(t))


def test_every_kind_of_claim_error_on_a_generated_sheet():
    sheet, _ = _sheet()
    assert audit_sheet(sheet).ok
    bad = copy.deepcopy(sheet)
    turns = bad["rounds"][0]["turns"]
    fail = _first(bad, lambda t: "place" not in t and t.get("draws") == 3)
    turns[fail]["claimed"] = -15            # forgot the -10 for failing after 3 draws
    plain = _first(bad, lambda t: "place" in t and not t.get("draws") and t["claimed"] > 0
                   and turns.index(t) > 0)
    turns[plain]["claimed"] += 40           # a bridge that is not there
    rep = audit_sheet(bad)
    msgs = {p.line: p.message for p in rep.problems}
    assert set(msgs) == {fail + 1, plain + 1}
    assert "missed draw penalty" in msgs[fail + 1]
    assert "bridge +40 was claimed that the placement does not form" in msgs[plain + 1]


def test_draw_rules_on_a_sheet():
    sheet, _ = _sheet()
    bad = copy.deepcopy(sheet)
    turns = bad["rounds"][0]["turns"]
    k = _first(bad, lambda t: "place" not in t and t.get("draws") == 3)
    turns[k]["draws"] = 4
    turns[k]["claimed"] = -30
    msgs = " | ".join(p.message for p in audit_sheet(bad).problems)
    assert "allows at most 3" in msgs
    bad2 = copy.deepcopy(sheet)
    bad2["rounds"][0]["turns"][k]["draws"] = 1  # passing with tiles left in the pool
    bad2["rounds"][0]["turns"][k]["claimed"] = -5
    msgs2 = " | ".join(p.message for p in audit_sheet(bad2).problems)
    assert "passed after 1 draw(s) while the pool still had" in msgs2


def test_round_end_claims_are_checked():
    sheet, g = _sheet(seed=4)
    end = sheet["rounds"][0]["end"]
    assert audit_sheet(sheet).ok
    who = next(iter(end["claimed"]))
    end["claimed"][who] += 25
    rep = audit_sheet(sheet)
    assert len(rep.problems) == 1 and rep.problems[0].turn is None
    assert "round end" in rep.problems[0].text()


def test_out_of_turn_is_named():
    sheet, _ = _sheet()
    turns = sheet["rounds"][0]["turns"]
    turns[3]["player"] = turns[2]["player"]
    kinds = {(p.line, p.kind) for p in audit_sheet(sheet).problems}
    assert (4, "order") in kinds


def test_recorded_game_audit_and_a_tampered_one():
    data = json.loads((GAMES / "strong_vs_greedy_round.json").read_text())
    assert audit_data(data).ok
    bad = copy.deepcopy(data)
    bad["rounds"][0]["turns"][6]["score"]["total"] -= 5
    rep = audit_data(bad)
    assert [(p.turn, p.kind) for p in rep.problems if p.turn is not None] == [(7, "score")]


@pytest.mark.parametrize("data,match", [
    ({"format": "nope"}, "unknown format"),
    ({"format": "triominos-scoresheet/1", "players": ["A"], "rounds": []}, "2-6 different"),
    ({"format": "triominos-scoresheet/1", "players": ["A", "B"],
      "rounds": [{"turns": [{"player": "C", "claimed": 1}]}]}, "unknown player"),
    ({"format": "triominos-scoresheet/1", "players": ["A", "B"],
      "rounds": [{"turns": [{"player": "A", "place": "9,9", "claimed": 1}]}]}, "not a placement"),
])
def test_malformed_input_is_a_parse_error(data, match):
    with pytest.raises(ParseError, match=match):
        audit_data(data)


def test_cli_audit_ok_errors_and_bad_input(tmp_path):
    ok = runner.invoke(app, ["audit", str(GAMES / "scoresheet.json")])
    assert ok.exit_code == 0 and "all correct" in ok.output
    bad = runner.invoke(app, ["audit", str(GAMES / "scoresheet_errors.json")])
    assert bad.exit_code == 1
    assert "line 10" in bad.output and "line 41" in bad.output and "line 47" in bad.output
    js = runner.invoke(app, ["audit", str(GAMES / "scoresheet_errors.json"), "--json"])
    assert js.exit_code == 1 and len(json.loads(js.output)["problems"]) == 3
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    for arg in (str(junk), str(tmp_path / "missing.json")):
        res = runner.invoke(app, ["audit", arg])
        assert res.exit_code == 2
        assert len(res.output.strip().splitlines()) == 1 and "error:" in res.output
        assert "Traceback" not in res.output
