"""The commands about the rules: ``validate``, ``replay``, ``rules`` and ``plays``.

Thin Typer commands over :mod:`bgtools.reports.files` (reading, replaying, the contract's
objects), :mod:`bgtools.reports.plays` and the batch runner of :mod:`bgtools.cli.progress`.
Registered on :data:`bgtools.cli.app.app` when :mod:`bgtools.cli` imports this module.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bgtools.cli.app import (
    JobsOption,
    JsonOption,
    Paths,
    RulesOption,
    app,
    check_rules,
    emit_json,
    make_console,
    resolve_jobs,
)
from bgtools.cli.errors import EXIT_INTERRUPTED, fail, print_error

if TYPE_CHECKING:
    from rich.console import Console

    from bgtools.batch import FileReport
    from bgtools.replay import Event

__all__ = ["plays", "replay", "rules", "validate"]


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
    from bgtools.engine.position import PositionError, parse_id
    from bgtools.reports.plays import parse_dice, plays_json

    try:
        parsed = parse_id(position)
    except PositionError as exc:
        fail(f"{position!r}: {exc}")
    if dice is not None:
        try:
            roll = parse_dice(dice)
        except ValueError as exc:
            fail(str(exc))
    elif parsed.state is not None and parsed.state.dice is not None:
        roll = parsed.state.dice
    else:
        fail("give the dice (such as 52): the ID has none")
    obj = plays_json(parsed.position, roll)
    if as_json:
        emit_json(obj)
        return
    from rich.console import Console
    from rich.table import Table

    pips = obj["pips"]
    table = Table(title=f"{obj['position_id']}  roll {roll[0]}{roll[1]}  pips {pips[0]}-{pips[1]}")
    table.add_column("#", justify="right")
    table.add_column("play")
    table.add_column("pips after", justify="right")
    table.add_column("position ID after")
    for i, row in enumerate(obj["plays"], 1):
        text = str(row["play"]) or "(no legal play)"
        pips_after = row["pips_after"]
        table.add_row(str(i), text, f"{pips_after[0]}-{pips_after[1]}",
                      str(row["position_id_after"]))
    Console().print(table)


def _print_file_problems(console: Console, display: str,
                         problems: Iterable[dict[str, Any]]) -> None:
    from rich.markup import escape

    from bgtools.reports.files import problem_location

    for prob in problems:
        where = problem_location(display, prob)
        colour = "red" if prob["severity"] == "error" else "yellow"
        console.print(
            f"{escape(where)}: [{colour}]{prob['severity']}[/][bold]"
            f"{escape('[' + prob['rule'] + ']')}[/]: {escape(prob['message'])}"
        )


@app.command()
def validate(
    paths: Paths,
    as_json: JsonOption = False,
    rules: RulesOption = "auto",
    jobs: JobsOption = None,
    expect: Annotated[str | None, typer.Option(
        "--expect", metavar="'NAME W-L'", show_default=False,
        help="The claimed result, such as 'Alice 7-5' (the winner, then the final score, "
             "his first): a file whose result differs is an error (expected-result).")]
    = None,
) -> None:
    """Check every roll, play, cube action and score of match files against the rules.

    Directories are read recursively and quoted globs (``'archive/**/*.mat'``) expanded;
    files are spread over ``--jobs`` processes and reported in input order. At a terminal
    a progress bar runs on stderr; a summary ends the human output. Ctrl-C stops with the
    summary of what was done (exit code 130).
    """
    from bgtools.batch import validate_report
    from bgtools.cli.progress import (
        print_interrupted,
        print_summary,
        run_batch,
        stderr_is_terminal,
    )

    check_rules(rules)
    if expect is not None:
        from bgtools.reports.expect import parse_claim

        try:
            parse_claim(expect)
        except ValueError as exc:
            fail(str(exc))
    console = None if as_json else make_console()

    def report(result: FileReport) -> None:
        if console is None:
            emit_json(result.objects[0])
        elif result.error is not None:
            from rich.markup import escape  # Rich only for the text output

            console.print(f"[bold red]{escape(result.error)}[/]")
        else:
            _print_file_problems(console, result.display, result.problems)

    summary = run_batch(validate_report, paths, resolve_jobs(jobs), as_json, report, rules=rules,
                        expect=expect)
    if summary.interrupted:
        if console is None and stderr_is_terminal():
            print_summary(summary, make_console(stderr=True))
        elif console is None:
            print_interrupted(summary)
        else:
            print_summary(summary, console)
        raise typer.Exit(EXIT_INTERRUPTED)
    if summary.done == 0:
        if console is not None:
            console.print("[yellow]no match files found[/]")
            raise typer.Exit(2)
        fail("no match files found")
    if console is not None:
        print_summary(summary, console)
    elif stderr_is_terminal():
        print_summary(summary, make_console(stderr=True))
    raise typer.Exit(summary.exit_code)


@app.command()
def replay(
    paths: Paths,
    jsonl: Annotated[bool, typer.Option("--jsonl", help="One JSON object per action.")] = False,
    rules: RulesOption = "auto",
) -> None:
    """Replay match files action by action, with IDs, pips and cube at every step."""
    from bgtools.reports.files import analyse_file, event_json, expand_paths

    check_rules(rules)
    worst = 0
    console = None if jsonl else make_console()
    seen = False
    for display, path, error in expand_paths(paths):
        seen = True
        rows: list[dict[str, Any]] = []

        def collect(event: Event, display: str = display,
                    rows: list[dict[str, Any]] = rows) -> None:
            obj = event_json(display, event)
            if jsonl:
                emit_json(obj)
            else:
                rows.append(obj)

        result = analyse_file(display, path, error, rules, on_event=collect)
        if result.error is not None:
            print_error(result.error)
            worst = 2
            continue
        if not result.valid:
            worst = max(worst, 1)
        if console is not None:
            _print_replay_table(console, display, rows)
    if not seen:
        fail("no match files found")
    raise typer.Exit(worst)


def _print_replay_table(console: Console, display: str, rows: list[dict[str, Any]]) -> None:
    from rich.table import Table

    table = Table(title=display)
    for col in ("game", "#", "line", "player", "action", "dice", "play", "pips",
                "cube", "position ID"):
        table.add_column(col)
    for row in rows:
        dice = "".join(map(str, row["dice"])) if row.get("dice") else ""
        owner = row["cube_owner_before"]
        cube = f"{row['cube_before']}" + ("" if owner is None else f" (p{owner})")
        table.add_row(
            str(row["game"]), str(row["index"] + 1), str(row["line"] or ""),
            str(row["player"]), row["action"], dice, row.get("play") or "",
            f"{row['pips_before'][0]}-{row['pips_before'][1]}", cube,
            row["position_id_before"],
        )
    console.print(table)


@app.command()
def rules() -> None:
    """List the rule ids the validator reports, one line each."""
    from bgtools.replay import RULES

    width = max(len(rule) for rule in RULES)
    for rule, text in sorted(RULES.items()):
        sys.stdout.write(f"{rule.ljust(width)}  {text}\n")
