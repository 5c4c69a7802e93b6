"""The ``triominos`` command line: parse, call, print. Logic lives in engine/ and vision/."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any, NoReturn, TypeVar

import typer

from engine import (
    Board,
    Cell,
    Check,
    Move,
    Rules,
    Tile,
    cell_name,
    check_change,
    check_text,
    find_openings,
    get_rules,
    legal_placements,
    moves_by_cell,
    parse_rack,
    unplayed_placements,
)
from engine.board import digits_text
from engine.errors import TriominosError

__version__ = "0.1.0"

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Read Triominos tables from photos; legal moves, hexagon openings, "
                       "score checks.")

T = TypeVar("T")


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one line to stderr and exit with ``code`` (2 = bad input)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def guarded(fn: Callable[[], T]) -> T:
    """Run ``fn``; turn any expected error (bad input, unreadable file) into one line + exit 2."""
    try:
        return fn()
    except TriominosError as e:
        fail(str(e))
    except OSError as e:
        fail(f"{getattr(e, 'filename', '') or ''}: {e.strerror or e}".lstrip(": "))


def _version(value: bool) -> None:
    if value:
        typer.echo(f"triominos {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", callback=_version,
                                                is_eager=True, help="Show the version.")]
          = False) -> None:
    """Triominos board reader."""


# --- engine commands (moves, openings, check) ---------------------------------------

RulesOpt = Annotated[str, typer.Option("--rules", help="Rule edition: goliath (default), "
                                       "pressman, pressman-classic, kids (or an alias).")]
SetRuleOpt = Annotated[list[str] | None, typer.Option(
    "--set-rule", metavar="KEY=VALUE", help="Override one rule value, e.g. bridge_bonus=50 "
    "(repeatable).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for programs.")]
DrawsOpt = Annotated[int, typer.Option("--draws", min=0, help="Tiles drawn this turn before "
                                       "playing (their penalty is part of the score).")]


def _load_board(path: str, *, strict: bool = True) -> Board:
    """The board in ``path``: Board JSON, or a photo (read by :mod:`vision`).

    ``strict=False`` lets a board with a duplicate or foreign tile load (the referee's
    AFTER board, whose new tile may be exactly that mistake).
    """
    from vision.commands import is_photo, photo_board  # photo branch (vision/)
    if is_photo(path):
        return photo_board(path)
    return Board.load(path, strict=strict)


def _rules(name: str, overrides: list[str] | None) -> Rules:
    return get_rules(name, overrides or [])


def _echo_json(data: object) -> None:
    import json
    typer.echo(json.dumps(data, indent=2))


def _table(title: str, *columns: str) -> Any:
    from rich.table import Table
    t = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    for c in columns:
        t.add_column(c, overflow="fold")
    return t


def _print(lines: list[str] | str, *tables: object) -> None:
    """Plain lines (a list, or one text) first, never wrapped so scripts can grep them; then
    rich tables."""
    typer.echo(lines if isinstance(lines, str) else "\n".join(lines))
    if tables:
        from rich.console import Console
        con = Console(highlight=False)
        for t in tables:
            con.print(t)


#: the mark of a move meeting a digit not seen, and the line that explains it
_UNSEEN_MARK = " *"
_UNSEEN_NOTE = ("* meets a tile read only in part where its digit was not seen: check that "
                "corner on the table")
#: ... of a cell at or beyond the photo's edge
_EDGE_MARK = " +"
_EDGE_NOTE = ("+ at or beyond the photo's edge: the table may hold a tile there, or beside "
              "it, that the photo does not show")


def _beyond(board: str, cells: list[Cell]) -> set[Cell]:
    """The cells the photo ``board`` cannot judge (none for Board JSON: it was not read)."""
    from vision import commands
    return commands.beyond_photo(board, cells)


def _board_lines(board: Board) -> list[str]:
    part = f" ({len(board.partial)} read in part)" if board.partial else ""
    lines = [f"board: {len(board)} tiles{part}, {board.set_name} set"]
    problems = board.violations()
    if problems:
        lines.append(f"warning: the board breaks the rules in {len(problems)} place(s):")
        lines += [f"  - {v.message}" for v in problems]
    return lines


def _check_rack(board: Board, rack: list[Tile]) -> None:
    seen: set[Tile] = set()
    for t in rack:
        if not t.in_set(board.set_name):
            fail(f"tile {t} in the rack is not in the {board.set_name} set (digits are read "
                 f"clockwise; its mirror {t.mirror()} is)")
        if t in seen:
            fail(f"tile {t} is given twice in the rack")
        seen.add(t)
        where = [c for c, d in board.cells.items() if Tile.from_digits(d) == t]
        if where:
            fail(f"tile {t} in the rack is already on the board at {cell_name(min(where))}")


def _short(m: Move, edge: bool = False) -> str:
    fig = f", {m.score.figure}" if m.score.figure else ""
    return (f"{m.tile} ({m.score.total}{fig}){_UNSEEN_MARK if m.unseen else ''}"
            f"{_EDGE_MARK if edge else ''}")


@app.command()
def moves(board: Annotated[str, typer.Argument(help="Board JSON file.")],
          rack: Annotated[str | None, typer.Option(
              "--rack", help='Your tiles, e.g. "0-1-2 3-4-5". Without it: every unplayed '
              "tile that fits, by cell.")] = None,
          rules: RulesOpt = "goliath", set_rule: SetRuleOpt = None, draws: DrawsOpt = 0,
          json_out: JsonOpt = False, overlay: OverlayOpt = None,
          hint: Annotated[bool, typer.Option("--hint", help="Rank by the strong engine's "
                                             "judgement, one line of why per move.")]
          = False) -> None:
    """Every legal placement of your tiles, best first, with score breakdown."""
    def run() -> None:
        _check_overlay(overlay)
        r = _rules(rules, set_rule)
        b = _load_board(board)
        tiles = parse_rack(rack) if rack is not None else None
        if tiles is not None:
            _check_rack(b, tiles)
        if hint:
            return _hint(b, tiles, r, draws, json_out, board)  # games section below
        found = (legal_placements(b, tiles, r, draws=draws) if tiles is not None
                 else unplayed_placements(b, r, draws=draws))
        edge = _beyond(board, sorted({m.cell for m in found}))
        _photo_overlay(board, overlay, [(m.placement.cell, m.placement.corners,
                                         f"{m.score.total}{'*' if m.unseen else ''}"
                                         f"{'+' if m.cell in edge else ''}")
                                        for m in found[:12]])
        if json_out:
            _echo_json({"rules": r.name, "set": b.set_name, "tiles_on_board": len(b),
                        "violations": [v.to_json() for v in b.violations()],
                        "rack": [t.name() for t in tiles] if tiles is not None else None,
                        "moves": [{**m.to_json(), "beyond_photo": m.cell in edge}
                                  for m in found]})
            return
        lines = [r.describe(), *_board_lines(b)]
        if tiles is not None:
            lines.append(f"rack: {' '.join(t.name() for t in tiles)}: "
                         f"{len(found)} legal placement{'s' if len(found) != 1 else ''}")
            t = _table("", "#", "tile", "placement", "score", "figure", "breakdown")
            for n, m in enumerate(found, 1):
                t.add_row(str(n), m.tile.name(),
                          m.placement.notation() + (_UNSEEN_MARK if m.unseen else "")
                          + (_EDGE_MARK if m.cell in edge else ""),
                          str(m.score.total), m.score.figure or "", m.score.breakdown)
        else:
            groups = moves_by_cell(found)
            lines.append(f"no rack: {len(found)} placements of unplayed tiles in "
                         f"{len(groups)} cells")
            t = _table("", "cell", "tiles that fit (score)")
            for cell, ms in sorted(groups.items(), key=lambda kv: kv[1][0].sort_key()):
                t.add_row(cell_name(cell), ", ".join(_short(m, cell in edge) for m in ms))
        if any(m.unseen for m in found):
            lines.append(_UNSEEN_NOTE)
        if edge:
            lines.append(_EDGE_NOTE)
        _print(lines, *([t] if found else []))
    guarded(run)


@app.command()
def openings(board: Annotated[str, typer.Argument(help="Board JSON file.")],
             rules: RulesOpt = "goliath", set_rule: SetRuleOpt = None,
             json_out: JsonOpt = False, overlay: OverlayOpt = None) -> None:
    """Pending hexagons (the one tile that closes each ring) and near-openings."""
    def run() -> None:
        _check_overlay(overlay)
        r = _rules(rules, set_rule)
        b = _load_board(board)
        found = find_openings(b, r)
        edge = _beyond(board, [o.cell for o in found.pending])
        _photo_overlay(board, overlay, [
            (o.cell, o.needs, (f"+{o.bonus}" if o.status == "open" else o.status)
             + ("+" if o.cell in edge else ""), o.status == "open") for o in found.pending])
        if json_out:
            data = found.to_json()
            for o in data["pending"]:
                o["beyond_photo"] = tuple(o["cell"]) in edge
            _echo_json({"rules": r.name, "set": b.set_name, "tiles_on_board": len(b), **data})
            return
        lines = [r.describe(), *_board_lines(b),
                 f"pending hexagons: {len(found.pending)} "
                 f"({sum(o.status == 'open' for o in found.pending)} open); "
                 f"near-openings (two tiles short): {len(found.near)}"]
        items: list[object] = []
        if found.pending:
            t = _table("pending hexagons", "cell", "needs", "tile", "figure", "bonus", "status")
            for o in found.pending:
                needs = digits_text(o.needs)
                t.add_row(cell_name(o.cell) + (_EDGE_MARK if o.cell in edge else ""), needs,
                          o.tile.name() if o.tile else "-", o.figure, f"+{o.bonus}",
                          o.describe())
            items.append(t)
        if edge:
            lines.append(_EDGE_NOTE)
        if found.near:
            t = _table("near-openings", "vertex", "digit", "gaps", "tiles that fit each gap",
                       "completable")
            for n in found.near:
                t.add_row(f"({n.vertex[0]},{n.vertex[1]})", str(n.digit),
                          " ".join(cell_name(c) for c in n.cells),
                          f"{n.candidates[0]} / {n.candidates[1]}",
                          ("maybe *" if n.unseen else "yes") if n.completable else "no")
            items.append(t)
            if any(n.unseen and n.completable for n in found.near):
                lines.append(_UNSEEN_NOTE)
        _print(lines, *items)
    guarded(run)


@app.command()
def check(board: Annotated[str, typer.Argument(help="Board JSON file (the board BEFORE).")],
          after: Annotated[str | None, typer.Argument(
              help="Board JSON after the turn: the one new tile is found and checked.")] = None,
          place: Annotated[str | None, typer.Option(
              "--place", help="The placement: CELL:a-b-c (tile) or CELL=a,b,c (corner "
              "digits), e.g. 0,0,D:2-5-5.")] = None,
          claimed: Annotated[int | None, typer.Option(
              "--claimed", help="The score the player claims.")] = None,
          rules: RulesOpt = "goliath", set_rule: SetRuleOpt = None, draws: DrawsOpt = 0,
          json_out: JsonOpt = False, overlay: OverlayOpt = None) -> None:
    """Is a placement legal, what does it score, does the claim hold (exit 1 if not)."""
    def run() -> Check:
        if (place is None) == (after is None):
            fail("give --place CELL:a-b-c or a second board (AFTER), not both" if place
                 else "give --place CELL:a-b-c or a second board (AFTER) to check")
        _check_overlay(overlay)
        r = _rules(rules, set_rule)
        b = _load_board(board)
        if place is not None:
            res = check_text(b, place, r, claimed=claimed, draws=draws)
        else:
            res = check_change(b, _load_after(after, b), r, claimed=claimed,  # type: ignore[arg-type]
                               draws=draws)
        from vision import commands
        res = commands.photo_check(board, res, after)  # unchanged for Board JSON
        if res.placement is not None:
            _photo_overlay(board, overlay, [(res.placement.cell, res.placement.corners,
                                             "ok" if res.legal else "illegal")])
        if json_out:
            _echo_json(res.to_json())
            return res
        lines = [r.describe()]
        if res.placement is not None:
            lines.append(f"placement: {res.placement.notation()} (tile {res.placement.tile})")
        if res.problems:
            lines.append("problems:")
            lines += [f"  - {p}" for p in res.problems]
        if res.unverified:
            lines.append("cannot be confirmed:")
            lines += [f"  - {p}" for p in res.unverified]
        if res.score is not None and res.legal:  # (--json also gives an illegal one's score)
            lines.append(f"score: {res.score.breakdown}")
        lines.append(f"verdict: {res.verdict()}")
        _print(lines)
        return res
    if not guarded(run).ok:
        raise typer.Exit(1)


# --- synthetic photos (synth) ----------------------------------------------------------

@app.command()
def synth(count: Annotated[int, typer.Option("--count", min=0, help="Number of photos.")] = 10,
          seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the first photo "
                                            "(photo k uses seed+k).")] = 0,
          out: Annotated[str, typer.Option("--out", help="Output folder.")] = "synth",
          size: Annotated[str | None, typer.Option("--size", help="WIDTHxHEIGHT (default: "
                                                   "typical phone sizes).")] = None,
          style: Annotated[list[str] | None, typer.Option(
              "--style", help="Pin a style key: key=value, key=a,b (choose among) or "
                              "key=lo,hi (range); repeatable.")] = None,
          faults: Annotated[bool, typer.Option("--faults", help="Put rule faults on the "
                                               "boards.")] = False,
          name: Annotated[str | None, typer.Option("--name", help="File name (no extension) "
                                                   "for a single photo.")] = None) -> None:
    """Make labelled synthetic photos: one JPEG + one Reading JSON each, deterministic."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from vision.synth.export import parse_size, parse_style, write_photos

    def run() -> Any:
        sz = parse_size(size) if size else None
        st = parse_style(style)
        with Progress("[progress.description]{task.description}", BarColumn(),
                      MofNCompleteColumn(), TimeRemainingColumn(), transient=True,
                      console=Console(stderr=True)) as bar:
            task = bar.add_task("rendering", total=count)
            return write_photos(out, count, seed, size=sz, style=st, faults=faults, name=name,
                                on_photo=lambda _: bar.advance(task))
    res = guarded(run)
    typer.echo(f"wrote {res.count} photos ({res.tiles} board tiles, "
               f"{res.bytes / 1e6:.1f} MB) to {res.out}")


# --- photo commands (read, batch, eval) ------------------------------------------------

OverlayOpt = Annotated[str | None, typer.Option(
    "--overlay", help="With a photo as the board: write the photo with the answer drawn on "
    "it as ghost tiles (e.g. out.png).")]


def _photo_overlay(board: str, out: str | None,
                   ghosts: list[tuple[Any, Any, str]]) -> None:
    """Draw ghost tiles on the photo the board was read from (``--overlay``)."""
    if out is None:
        return
    from vision import commands
    if not commands.is_photo(board):
        fail("--overlay needs a photo as the board (it draws on that photo)")
    commands.write_overlay(board, out, ghosts)


def _check_overlay(out: str | None) -> None:
    """Refuse an ``--overlay`` name that cannot be written, before reading anything."""
    if out is not None:
        from vision import commands
        commands.check_overlay(out)


def _load_after(path: str, before: Board) -> Board:
    """The AFTER board of ``check``; a photo is turned and shifted onto BEFORE's lattice
    (each photo fixes its own lattice origin)."""
    after = _load_board(path, strict=False)
    from vision import commands
    return commands.align_to(after, before) if commands.is_photo(path) else after


def _progress() -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    return Progress("[progress.description]{task.description}", BarColumn(),
                    MofNCompleteColumn(), TimeRemainingColumn(), transient=True)


@app.command()
def read(photo: Annotated[str, typer.Argument(help="Photo of the table (JPEG/PNG/WebP/BMP).")],
         overlay: Annotated[str | None, typer.Option(
             "--overlay", help="Write the photo with the reading drawn on it (e.g. out.png).")]
         = None,
         json_out: JsonOpt = False) -> None:
    """Read a photo: the board, its tiles, violations and flags (--json: Reading JSON)."""
    def run() -> None:
        from vision import commands
        _check_overlay(overlay)
        reading = commands.read(photo)
        if overlay:
            commands.write_overlay(photo, overlay)
        if json_out:
            _echo_json(reading.to_json())
        else:
            _print("\n".join(commands.report_lines(reading)))
    guarded(run)


@app.command()
def batch(folder: Annotated[str, typer.Argument(help="Folder of photos (searched recursively).")],
          out: Annotated[str, typer.Option("--out", help="JSON-lines results file (appended; "
                                           "photos already in it are skipped).")]
          = "results.jsonl",
          workers: Annotated[int, typer.Option("--workers", min=0,
                                               help="Processes (0 = all cores).")] = 0) -> None:
    """Read every photo in a folder: one JSON line each, resumable; bad files become error
    lines."""
    def run() -> None:
        from vision.batch import run_batch
        with _progress() as bar:
            task = bar.add_task("reading", total=None)
            s = run_batch(folder, out, workers=workers or None,
                          progress=lambda n, t: bar.update(task, completed=n, total=t))
        typer.echo(f"{s.total} photos: {s.read} read, {s.errors} errors, {s.skipped} already "
                   f"done; {s.tiles} tiles; {s.seconds:.1f} s -> {out}")
        for e in s.error_examples:
            typer.echo(f"  error: {e}")
        if s.to_check:
            more = " ..." if s.to_check > len(s.check_examples) else ""
            typer.echo(f"{s.to_check} of the {s.read} read have something to check (a tile "
                       f"flagged, a note, or no board): {', '.join(s.check_examples)}{more}")
    guarded(run)


@app.command("eval")
def eval_(folder: Annotated[str, typer.Argument(help="Folder of labelled photos (image + "
                                                "JSON label beside it).")],
          csv_out: Annotated[str, typer.Option("--csv", help="Per-photo CSV.")] = "eval.csv",
          limit: Annotated[int, typer.Option("--limit", min=0, help="At most this many photos "
                                             "(0 = all).")] = 0,
          workers: Annotated[int, typer.Option("--workers", min=0,
                                               help="Processes (0 = all cores).")] = 0,
          json_out: JsonOpt = False) -> None:
    """Measure the reader on labelled photos: tile precision/recall, digit accuracy, share of
    photos read with no mistake, time per stage; broken down by the photos' conditions
    (blur, tile size, tilt, glare, hands, table, tile edition) in the CSV and --json, with
    --json also each figure's 95 % interval over the photos resampled."""
    def run() -> None:
        from vision.batch import by_condition, intervals, photo_counts, run_eval
        with _progress() as bar:
            task = bar.add_task("evaluating", total=None)
            s, scores = run_eval(folder, csv_out, workers=workers or None,
                                 limit=limit or None,
                                 progress=lambda n, t: bar.update(task, completed=n, total=t))
        table = by_condition(scores)
        if json_out:
            _echo_json({**s.to_json(), "by_condition": table,
                        "intervals_95": intervals(photo_counts(scores)) if scores else {}})
            return
        typer.echo(f"{s.photos} photos ({s.errors} unreadable): tile precision "
                   f"{s.precision:.2%}, recall {s.recall:.2%}, corner digits "
                   f"{s.digit_accuracy:.2%}, photos with no mistake {s.perfect_share:.1%}")
        typer.echo(f"off the board (loose, rack, face-down): precision "
                   f"{s.loose_precision:.2%}, recall {s.loose_recall:.2%}, read right "
                   f"{s.loose_read_right:.2%}")
        t = s.to_json()["trust"]
        typer.echo(f"digits on tiles not flagged: {s.unflagged_digits}, right "
                   f"{t['unflagged_digit_accuracy']:.2%} (wrong digits on flagged tiles: "
                   f"{s.wrong_flagged} of {s.wrong_digits}); nothing to check: "
                   f"{s.sure_photos} photos, {t['sure_right']:.1%} of them with no mistake")
        typer.echo(s.breakdown_text())
        typer.echo(s.lost_text())
        typer.echo("mean time per photo: " + ", ".join(f"{k} {v:.0f} ms"
                                                       for k, v in s.mean_ms.items()))
        for band, b in table.get("blur", {}).items():
            typer.echo(f"  blur/tile side {band}: {b['photos']} photos, recall "
                       f"{b['tile_recall']:.2%}, digits {b['corner_digit_accuracy']:.2%}, "
                       f"no mistake {b['perfect_photos']:.1%}")
        typer.echo(f"per photo: {csv_out}")
        if s.bad_labels:
            typer.echo(f"left out, their labels unusable: {len(s.bad_labels)} photos, the "
                       f"first {s.bad_labels[0]}")
    guarded(run)


# --- games (play, audit) ---------------------------------------------------------------

def _hint(b: Board, tiles: list[Tile] | None, r: Rules, draws: int, json_out: bool,
          source: str) -> None:
    """``moves --hint``: the rack's moves ranked by the strong bot, one reason each
    (``source``: the board's file or photo, whose edge marks moves)."""
    from engine.bots import hint as rank
    if tiles is None:
        fail("--hint needs your tiles: add --rack \"a-b-c ...\"")
    ranked = rank(b, tiles, r, draws=draws)
    edge = _beyond(source, sorted({j.move.cell for j in ranked}))
    if json_out:
        _echo_json({"rules": r.name, "rack": [t.name() for t in tiles],
                    "hints": [{**j.move.to_json(), "beyond_photo": j.move.cell in edge,
                               "value": round(j.value, 1), "why": j.why()}
                              for j in ranked]})
        return
    lines = [r.describe(), *_board_lines(b),
             f"rack: {' '.join(t.name() for t in tiles)}: {len(ranked)} legal placements, "
             "ranked by the strong engine (value = expected points over your move, the "
             "opponent's reply and your next move)"]
    t = _table("", "#", "placement", "score", "value", "why")
    for n, j in enumerate(ranked, 1):
        t.add_row(str(n), j.move.placement.notation() + (_UNSEEN_MARK if j.move.unseen else "")
                  + (_EDGE_MARK if j.move.cell in edge else ""),
                  str(j.immediate), f"{j.value:.1f}", j.why())
    if any(j.move.unseen for j in ranked):
        lines.append(_UNSEEN_NOTE)
    if edge:
        lines.append(_EDGE_NOTE)
    _print(lines, *([t] if ranked else []))


@app.command()
def play(players: Annotated[str, typer.Option("--players", help="2-6 of random, greedy, "
                                              "strong, comma-separated.")] = "strong,greedy",
         games: Annotated[int, typer.Option("--games", help="Games to play.")] = 1,
         seed: Annotated[int, typer.Option("--seed", help="Seed of the first game.")] = 0,
         budget: Annotated[float, typer.Option("--budget", help="Strong bot's seconds per "
                                               "move.")] = 0.2,
         rounds: Annotated[int | None, typer.Option(
             "--rounds", help="Rounds per game (default: until someone reaches the target "
             "score).")] = None,
         save: Annotated[str | None, typer.Option(
             "--save", help="Folder to write each game's JSON record into.")] = None,
         sheet: Annotated[bool, typer.Option("--sheet", help="Print the last game's score "
                                             "sheet.")] = False,
         rules: RulesOpt = "goliath", set_rule: SetRuleOpt = None,
         json_out: JsonOpt = False) -> None:
    """Self-play: bots play whole games (seats rotate); progress bar and results table."""
    def run() -> None:
        from pathlib import Path

        from engine.bots import parse_players, selfplay
        from engine.game import score_sheet
        if games < 1:
            fail(f"--games must be at least 1, not {games}")
        if rounds is not None and rounds < 1:
            fail(f"--rounds must be at least 1, not {rounds}")
        r = _rules(rules, set_rule)
        parse_players(players, budget)  # bad names fail before the progress bar
        out = Path(save) if save else None
        if out:
            out.mkdir(parents=True, exist_ok=True)
        last: list[Any] = []

        def done(g: int, rec: Any) -> None:
            last[:] = [rec]
            if out:
                rec.save(out / f"game_{seed}_{g:04d}.json")
            bar.advance(task)
        with _progress() as bar:
            task = bar.add_task("playing", total=games)
            res = selfplay(players, games, seed, r, budget=budget, rounds=rounds, on_game=done)
        if json_out:
            _echo_json({"rules": r.name, "seed": seed, **res.to_json()})
            return
        lines = [r.describe(), f"{res.games} games, {res.rounds} rounds in {res.seconds:.1f} s"]
        if sheet and last:
            lines += score_sheet(last[0])
        t = _table("results", "player", "games won", "win rate", "rounds won", "avg total",
                   "avg per round", "s/move")
        for p in res.to_json()["players"]:  # type: ignore[union-attr]
            t.add_row(f"{p['slot'] + 1}. {p['name']}", f"{p['wins']:g}", f"{p['win_rate']:.1%}",
                      f"{p['round_wins']:g}", f"{p['avg_game_total']:.1f}",
                      f"{p['avg_round_score']:.1f}",
                      f"{p['sec_per_move']:.3f}" if p["sec_per_move"] is not None else "-")
        _print(lines, t)
    guarded(run)


@app.command()
def audit(game: Annotated[str, typer.Argument(help="Game record JSON (triominos-game/1) or a "
                                              "typed score sheet (triominos-scoresheet/1).")],
          json_out: JsonOpt = False) -> None:
    """Check a recorded game or a typed score sheet: names every wrong line (exit 1 if any)."""
    def run() -> Any:
        from engine.audit import audit_file
        rep = audit_file(game)
        if json_out:
            _echo_json(rep.to_json())
            return rep
        lines = [f"rules: {rep.rules}; players: {', '.join(rep.players)}", rep.summary()]
        lines += [f"  {p.text()}" for p in rep.problems]
        if rep.claimed and rep.claimed != rep.engine:
            for label, tot in (("claimed", rep.claimed), ("by the rules", rep.engine)):
                lines.append(f"totals {label}: " + ", ".join(
                    f"{x} {v}" for x, v in zip(rep.players, tot, strict=True)))
        _print(lines)
        return rep
    if not guarded(run).ok:
        raise typer.Exit(1)



def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    sys.exit(main())
