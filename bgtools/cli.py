"""The ``bgtools`` command line: thin Typer commands over the library.

Heavy modules (Rich, Lark, the readers) are imported inside the commands so that
``bgtools --help`` starts fast. Every error becomes one clean line and an exit code
(0 ok, 1 problems in the input, 2 usage or unreadable input); never a traceback.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, NoReturn

import typer

SCHEMA = "bgtools/1"

app = typer.Typer(
    name="bgtools",
    help="Validate, replay and inspect backgammon match files (.mat, SGF).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from bgtools import __version__

        sys.stdout.write(f"bgtools {__version__}\n")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Validate, replay and inspect backgammon match files (.mat, SGF)."""


class UsageFailure(Exception):
    """A usage error or unusable input: exit code 2 with a message."""


def _emit_json(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _fail(message: str, code: int = 2) -> NoReturn:
    sys.stderr.write(f"bgtools: error: {message}\n")
    raise typer.Exit(code)


def _parse_dice(text: str) -> tuple[int, int]:
    cleaned = text.strip().replace("-", "").replace(",", "").replace(" ", "")
    if len(cleaned) != 2 or not all(c in "123456" for c in cleaned):
        raise UsageFailure(f"dice {text!r} must be two digits 1-6, such as 52")
    return int(cleaned[0]), int(cleaned[1])


@app.command()
def plays(
    position: Annotated[str, typer.Argument(help="Position ID, GNUbg ID (pos:match) or XGID.")],
    dice: Annotated[
        str | None,
        typer.Argument(help="The roll, such as 52. Optional when the ID carries dice."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the legal plays of a position for a roll."""
    from bgtools.position import PositionError, parse_id

    try:
        parsed = parse_id(position)
    except PositionError as exc:
        _fail(f"{position!r}: {exc}")
    try:
        if dice is not None:
            roll = _parse_dice(dice)
        elif parsed.state is not None and parsed.state.dice is not None:
            roll = parsed.state.dice
        else:
            raise UsageFailure("give the dice (such as 52): the ID has none")
    except UsageFailure as exc:
        _fail(str(exc))
    pos = parsed.position
    results = pos.legal_results(*roll)
    rows = []
    for result, play in results.items():
        after = result.swapped()
        rows.append(
            {
                "play": str(play),
                "steps": [list(step) for step in play.steps],
                "hits": sum(play.hits),
                "position_id_after": after.position_id,
                "pips_after": [result.pips[0], result.pips[1]],
            }
        )
    rows.sort(key=lambda row: (row["pips_after"][1] * -1, str(row["play"])))
    if as_json:
        _emit_json(
            {
                "schema": SCHEMA,
                "position_id": pos.position_id,
                "dice": list(roll),
                "pips": list(pos.pips),
                "plays": rows,
            }
        )
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(
        title=f"{pos.position_id}  roll {roll[0]}{roll[1]}  pips {pos.pips[0]}-{pos.pips[1]}",
    )
    table.add_column("#", justify="right")
    table.add_column("play")
    table.add_column("pips after", justify="right")
    table.add_column("position ID after")
    for i, row in enumerate(rows, 1):
        text = str(row["play"]) or "(no legal play)"
        pips_after = row["pips_after"]
        table.add_row(str(i), text, f"{pips_after[0]}-{pips_after[1]}", str(row["position_id_after"]))
    console.print(table)


def main() -> None:
    """Console-script entry point: run the app, mapping stray errors to exit codes."""
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("bgtools: interrupted\n")
        sys.exit(130)
    except BrokenPipeError:
        # Output closed early (``bgtools ... | head``): end quietly.
        try:
            sys.stdout = open("/dev/null", "w")  # noqa: SIM115
        except OSError:
            pass
        sys.exit(0)


if __name__ == "__main__":  # pragma: no cover
    main()
