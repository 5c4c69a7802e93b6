"""``triominos synth``: files written, deterministic, clear errors."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cli import app
from engine.board import Board

runner = CliRunner()


def test_synth_writes_jpeg_and_reading_json_deterministically(tmp_path):
    args = ["synth", "--count", "2", "--seed", "40", "--size", "320x240",
            "--style", "font=aileron", "--style", "tilt_deg=10,30"]
    r1 = runner.invoke(app, args + ["--out", str(tmp_path / "a")])
    r2 = runner.invoke(app, args + ["--out", str(tmp_path / "b")])
    assert r1.exit_code == 0 and r2.exit_code == 0, r1.output
    assert "wrote 2 photos" in r1.output
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == ["synth_000040.jpg", "synth_000040.json", "synth_000041.jpg",
                     "synth_000041.json"]
    for n in names:
        assert (tmp_path / "a" / n).read_bytes() == (tmp_path / "b" / n).read_bytes()
    label = json.loads((tmp_path / "a" / "synth_000041.json").read_text())
    assert label["image"] == "synth_000041.jpg"
    assert (label["width"], label["height"]) == (320, 240)
    assert label["style"]["font"] == "aileron" and 10 <= label["style"]["tilt_deg"] <= 30
    assert len(Board.from_json(label, strict=False)) == len(label["tiles"])
    assert (tmp_path / "a" / "synth_000040.jpg").read_bytes()[:2] == b"\xff\xd8"


def test_synth_named_single_photo_and_faults(tmp_path):
    r = runner.invoke(app, ["synth", "--count", "1", "--seed", "3", "--size", "400x300",
                            "--faults", "--name", "table", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    label = json.loads((tmp_path / "table.json").read_text())
    assert label["image"] == "table.jpg" and label["style"]["faults"] is True


def test_synth_bad_input_is_one_line_and_exit_2(tmp_path):
    for extra in (["--style", "colour=red"], ["--style", "font=comic"], ["--size", "12"],
                  ["--style", "font"], ["--count", "2", "--name", "x"]):
        r = runner.invoke(app, ["synth", "--count", "1", "--out", str(tmp_path)] + extra)
        assert r.exit_code == 2, (extra, r.output)
        assert "error:" in r.output and "Traceback" not in r.output
    # a pinned number the scene cannot be built with (a camera tilted 90 degrees; a
    # table of no depth), or one that means nothing: named with its range
    for pin, says in (("tilt_deg=90", "tilt_deg must be within 0 to 80, got 90"),
                      ("table_aspect=0", "table_aspect must be within 0.2 to 5, got 0"),
                      ("fov_deg=0,60", "fov_deg must be within 10 to 120, got 0"),
                      ("tile_px=-5", "tile_px must be within 8 to 1000, got -5"),
                      ("noise=nan", "noise must be within 0 to 50, got nan")):
        r = runner.invoke(app, ["synth", "--count", "1", "--out", str(tmp_path),
                                "--style", pin])
        assert r.exit_code == 2 and says in r.output, (pin, r.output)
        assert "Traceback" not in r.output
    # a negative seed (numpy takes none): refused by the option, not a traceback
    r = runner.invoke(app, ["synth", "--count", "1", "--seed", "-5", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "Traceback" not in r.output and "--seed" in r.output


def _readme_command(name: str) -> list[str]:
    """The arguments of the README line that made sample ``name``."""
    import shlex
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    text = (root / "samples" / "README.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("triominos synth") and f"--name {name} " in line:
            args = shlex.split(line)[1:]
            out: list[str] = []
            for a in args:
                if a == "$O":
                    out += ["--count", "1"]
                elif a == "$S":
                    out += ["--size", "1024x768"]
                else:
                    out.append(a)
            return out
    raise AssertionError(f"no README command for {name}")


def test_committed_samples_regenerate_from_the_readme_commands(tmp_path):
    from pathlib import Path

    photos = Path(__file__).resolve().parent.parent / "samples" / "photos"
    for name in ("01_topdown_ivory_wood", "11_faults_referee"):
        r = runner.invoke(app, _readme_command(name) + ["--out", str(tmp_path)])
        assert r.exit_code == 0, r.output
        made = json.loads((tmp_path / f"{name}.json").read_text())
        kept = json.loads((photos / f"{name}.json").read_text())
        assert made == kept
    labels = sorted(photos.glob("*.json"))
    assert len(labels) >= 13
    for p in labels:
        lab = json.loads(p.read_text())
        assert (photos / lab["image"]).is_file()
        assert len(Board.from_json(lab, strict=False)) == len(lab["tiles"])
