"""The commands about the rules: ``validate``, ``replay``, ``rules`` and ``plays``.

Thin Typer commands over :mod:`bgtools.reports.files` (reading, replaying, the contract's
objects), :mod:`bgtools.reports.plays` and the batch runner of :mod:`bgtools.cli.progress`.
Registered on :data:`bgtools.cli.application.app` when :mod:`bgtools.cli` imports this module.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, cast

import typer

from bgtools.cli.application import (
    JobsOption,
    JsonOption,
    Paths,
    RulesOption,
    SchedulerOption,
    app,
    check_rules,
    check_scheduler,
    emit_json,
    fit_table,
    make_console,
    no_files_message,
    resolve_jobs,
)
from bgtools.cli.errors import EXIT_INTERRUPTED, fail, print_error, print_problem

if TYPE_CHECKING:
    from rich.console import Console

    from bgtools.batch import FileReport
    from bgtools.record.model import ProblemObject
    from bgtools.replay import Event
    from bgtools.reports.objects import ReplayRow, ValidateObject

__all__ = ["plays", "replay", "rule_table", "rules", "validate"]


def _validate_object(result: FileReport) -> ValidateObject:
    """The file's ``validate`` object; for a file whose job failed (a worker that died, an
    error bgtools did not expect) the ``unreadable`` object saying so: every input gets
    its object."""
    from bgtools.reports.files import unreadable_json

    if result.objects:
        return cast("ValidateObject", result.objects[0])  # a validate job's object
    return unreadable_json(result.display,
                           result.error or f"{result.display}: cannot be processed")


def _print_file_problems(console: Console, display: str,
                         problems: Iterable[ProblemObject], strip_prefix: bool = False) -> None:
    """One line per problem; ``strip_prefix`` drops a message's leading ``DISPLAY: ``."""
    from rich.markup import escape

    from bgtools.reports.files import problem_location

    for prob in problems:
        where = problem_location(display, prob)
        message = prob["message"]
        if strip_prefix and message.startswith(display + ": "):
            message = message[len(display) + 2:]
        colour = "red" if prob["severity"] == "error" else "yellow"
        console.print(
            f"{escape(where)}: [{colour}]{prob['severity']}[/][bold]"
            f"{escape('[' + prob['rule'] + ']')}[/]: {escape(message)}"
        )


@app.command()
def validate(
    paths: Paths,
    as_json: JsonOption = False,
    rules: RulesOption = "auto",
    jobs: JobsOption = None,
    scheduler: SchedulerOption = None,
    verbose: Annotated[bool, typer.Option(
        "--verbose", "-v", help="Add the slowest files to the summary.")] = False,
    expect: Annotated[str | None, typer.Option(
        "--expect", metavar="'NAME W-L'", show_default=False,
        help="The claimed result, such as 'Alice 7-5' (the winner, then the final score, "
             "his first): a file whose result differs is an error (expected-result).")]
    = None,
) -> None:
    """Check every roll, play and cube action against the rules.

    Score lines, results and the Crawford rule too. Directories are read recursively and
    quoted globs such as 'archive/**/*.mat' expanded; files are spread over --jobs
    processes and reported in input order, one line per problem
    (PATH:LINE:COLUMN: error[RULE]: MESSAGE). At a terminal a progress bar runs on stderr.
    A summary ends the output, also when Ctrl-C stops the run: the counts, the problems by
    rule and the files with errors (the first 20).

    Exit code: 0 every file valid (warnings allowed), 1 a file has errors, 2 a file cannot
    be read or the command is wrong, 130 interrupted.
    """
    from bgtools.batch import validate_report
    from bgtools.cli.progress import (
        print_interrupted,
        print_summary,
        run_batch,
        stderr_is_terminal,
    )

    check_rules(rules)
    check_scheduler(scheduler, jobs)
    if expect is not None:
        from bgtools.reports.expect import parse_claim

        try:
            parse_claim(expect)
        except ValueError as exc:
            fail(str(exc))
    console = None if as_json else make_console()

    def report(result: FileReport) -> None:
        if console is None:
            emit_json(_validate_object(result))
        elif result.error is not None:
            # The error line on stderr, and its problem line among the others on stdout, so
            # that grep 'error\[' finds unreadable files too.
            print_error(result.error)
            _print_file_problems(console, result.display,
                                 _validate_object(result)["problems"], strip_prefix=True)
        else:
            _print_file_problems(console, result.display, result.problems)

    summary = run_batch(validate_report, paths, resolve_jobs(jobs), as_json, report, rules=rules,
                        expect=expect, scheduler=scheduler)
    if summary.interrupted:
        if console is None and stderr_is_terminal():
            print_summary(summary, make_console(stderr=True), verbose)
        elif console is None:
            print_interrupted(summary)
        else:
            print_summary(summary, console, verbose)
        raise typer.Exit(EXIT_INTERRUPTED)
    if summary.done == 0:
        fail(no_files_message(paths))
    if summary.done == 1 and summary.unreadable:
        pass  # one unreadable file: its error line says it all
    elif console is not None:
        print_summary(summary, console, verbose)
    elif stderr_is_terminal():
        print_summary(summary, make_console(stderr=True), verbose)
    raise typer.Exit(summary.exit_code)


@app.command()
def replay(
    paths: Paths,
    jsonl: Annotated[bool, typer.Option("--jsonl", help="One JSON object per action.")] = False,
    rules: RulesOption = "auto",
) -> None:
    """Replay matches action by action: IDs, pips, cube and play."""
    from bgtools.readers.inputs import expand_paths
    from bgtools.reports.files import analyse_file, event_json, replay_rows

    check_rules(rules)
    worst = 0
    console = None if jsonl else make_console()
    seen = False
    for display, path, error in expand_paths(paths):
        seen = True
        events: list[Event] = []

        def collect(event: Event, display: str = display,
                    events: list[Event] = events) -> None:
            if jsonl:
                emit_json(event_json(display, event))
            else:
                events.append(event)

        result = analyse_file(display, path, error, rules, on_event=collect)
        if result.error is not None:
            print_error(result.error)
            worst = 2
            continue
        # The problems on stderr as validate words them; stdout keeps the table or JSON.
        for prob in result.problems:
            print_problem(display, prob.to_json())
        if not result.valid:
            worst = max(worst, 1)
        if console is not None:
            _print_replay_table(console, display, replay_rows(display, events))
    if not seen:
        fail(no_files_message(paths))
    raise typer.Exit(worst)


def _print_replay_table(console: Console, display: str, rows: list[ReplayRow]) -> None:
    from rich.table import Table

    table = Table(title=display)
    for col in ("game", "#", "line", "player", "action", "dice", "play", "pips 0-1",
                "cube", "position ID"):
        table.add_column(col)
    for row in rows:
        rolled = row["dice"]  # (every event object has its dice, null when none)
        dice = "".join(map(str, rolled)) if rolled else ""
        owner = row["cube_owner_before"]
        cube = f"{row['cube_before']}" + ("" if owner is None else f" (p{owner})")
        table.add_row(
            str(row["game"]), str(row["index"] + 1), str(row["line"] or ""),
            str(row["player"]), row["action"], dice, row["label"],
            f"{row['pips_before'][0]}-{row['pips_before'][1]}", cube,
            row["position_id_before"],
        )
    console.print(fit_table(console, table, drop=("position ID", "line", "#", "cube", "game")))


def rule_table() -> list[dict[str, str]]:
    """Every rule id ``validate`` reports, sorted, with its severity and description."""
    from bgtools.rules import RULES

    return [{"rule": rule.id, "severity": rule.severity, "description": rule.description}
            for rule in sorted(RULES.values(), key=lambda rule: rule.id)]


@app.command()
def rules(
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON object: every rule with its severity.")] = False,
) -> None:
    """List the rule ids the validator reports, with their severity."""
    from bgtools.record import SCHEMA

    table = rule_table()
    if as_json:
        emit_json({"schema": SCHEMA, "kind": "rules", "rules": table})
        return
    width = max(len(row["rule"]) for row in table)
    for row in table:
        sys.stdout.write(f"{row['rule'].ljust(width)}  {row['severity'].ljust(7)}  "
                         f"{row['description']}\n")


@app.command()
def plays(
    position: Annotated[str, typer.Argument(
        metavar="POSITION",
        help="Position ID, GNUbg ID (pos:match), XGID or an XG position file (.xgp).")],
    dice: Annotated[
        str | None,
        typer.Argument(metavar="[DICE]",
                       help="The roll, such as 52. Optional when the ID carries dice."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the legal plays of a position for a roll."""
    from pathlib import Path

    from bgtools.engine.position import PositionError, parse_id
    from bgtools.reports.plays import parse_dice, plays_json, roll_text

    file_dice: tuple[int, int] | None = None
    if Path(position).is_file():
        from bgtools.errors import BgtoolsError, describe_error
        from bgtools.readers.detect import read_input_bytes
        from bgtools.readers.xg import read_position_file

        try:
            board, file_dice = read_position_file(read_input_bytes(Path(position)), position)
        except (BgtoolsError, OSError) as exc:
            fail(*describe_error(exc, position))
        parsed = parse_id(board.position_id)
    else:
        try:
            parsed = parse_id(position)
        except PositionError:
            from bgtools.reports.moments import explain_id

            fail(f"{position}: not a Position ID, GNUbg ID or XGID: {explain_id(position)}")
    if dice is None and file_dice is not None:
        roll = file_dice
    elif dice is not None:
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
    from rich.table import Table

    pips = obj["pips"]
    table = Table(title=f"{obj['position_id']}, roll {roll_text(roll)}: pips {pips[0]} "
                  f"(on roll), {pips[1]} (opponent)")
    table.add_column("#", justify="right")
    table.add_column("play")
    table.add_column("pips after (on roll-opponent)", justify="right")
    table.add_column("position ID after")
    for i, row in enumerate(obj["plays"], 1):
        text = str(row["play"]) or "(no legal play)"
        pips_after = row["pips_after"]
        table.add_row(str(i), text, f"{pips_after[0]}-{pips_after[1]}",
                      str(row["position_id_after"]))
    make_console().print(table)
