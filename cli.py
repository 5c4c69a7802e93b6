"""The ``triominos`` command line: parse, call, print. Logic lives in engine/ and vision/."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, NoReturn, TypeVar

import typer

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

# --- synthetic photos (synth) ----------------------------------------------------------

# --- photo commands (read, batch, eval) ------------------------------------------------

# --- games (play, audit) ---------------------------------------------------------------


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    sys.exit(main())
