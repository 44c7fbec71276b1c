"""The ``bgtools`` command line: thin Typer commands over the library.

Heavy modules (Rich, Lark, the readers) are imported inside the commands so that
``bgtools --help`` starts fast. Every error becomes one clean line and an exit code
(0 ok, 1 problems in the input, 2 usage or unreadable input); never a traceback.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Iterable, NoReturn

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
    from bgtools.engine.position import PositionError, parse_id

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
    rows: list[dict[str, Any]] = []
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


Paths = Annotated[
    list[str],
    typer.Argument(help="Match files or directories (read recursively).", show_default=False),
]
RulesOption = Annotated[
    str,
    typer.Option("--rules", help="House rules: auto (the site named in the file, else "
                 "standard), standard, galaxy, studio, megammon, pieceofcake, nocube, cube3 "
                 "or match-resign."),
]


def check_rules(rules: str) -> None:
    """Exit with a usage error unless ``rules`` names a rule profile (or ``auto``)."""
    from bgtools.replay import PROFILE_NAMES

    if rules not in PROFILE_NAMES:
        _fail(f"unknown rule profile {rules!r}; choose one of {', '.join(PROFILE_NAMES)}")


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, emoji=False, soft_wrap=True)


def _problem_location(display: str, prob: dict[str, Any]) -> str:
    """``path:line:col`` of a problem in its JSON form (line and column left out when
    unknown); ``path: game G, move M`` for a binary record's problem."""
    where = display
    if prob["line"]:
        where += f":{prob['line']}" + (f":{prob['column']}" if prob["column"] else "")
    elif prob.get("move") is not None:  # a binary record (.xg, .bgf): no lines
        where += f": game {prob['game']}, move {prob['move']}"
    return where


def _problem_text(display: str, prob: dict[str, Any]) -> str:
    """One plain line for a problem in its JSON form: ``path:line:col: severity[rule]: msg``."""
    return (f"{_problem_location(display, prob)}: {prob['severity']}[{prob['rule']}]: "
            f"{prob['message']}\n")


JobsOption = Annotated[
    int | None,
    typer.Option("--jobs", "-j", min=1, show_default=False,
                 help="Worker processes (default: the number of cores; 1: no workers)."),
]


def _jobs(jobs: int | None) -> int:
    from bgtools.batch import default_jobs

    return default_jobs() if jobs is None else jobs


def _print_file_problems(console: Any, display: str, problems: Iterable[dict[str, Any]]) -> None:
    from rich.markup import escape

    for prob in problems:
        where = _problem_location(display, prob)
        colour = "red" if prob["severity"] == "error" else "yellow"
        console.print(
            f"{escape(where)}: [{colour}]{prob['severity']}[/][bold]"
            f"{escape('[' + prob['rule'] + ']')}[/]: {escape(prob['message'])}"
        )


@app.command()
def validate(
    paths: Paths,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per file.")] = False,
    rules: RulesOption = "auto",
    jobs: JobsOption = None,
) -> None:
    """Check every roll, play, cube action and score of match files against the rules.

    Directories are read recursively and quoted globs (``'archive/**/*.mat'``) expanded;
    files are spread over ``--jobs`` processes and reported in input order. At a terminal
    a progress bar runs on stderr; a summary ends the human output. Ctrl-C stops with the
    summary of what was done (exit code 130).
    """
    from bgtools.batch import FileReport, validate_report
    from bgtools.cli.progress import INTERRUPTED, print_summary, run_batch, stderr_is_terminal

    check_rules(rules)
    console = None if as_json else _console()

    def report(result: FileReport) -> None:
        if console is None:
            _emit_json(result.objects[0])
        elif result.error is not None:
            from rich.markup import escape  # Rich only for the text output

            console.print(f"[bold red]{escape(result.error)}[/]")
        else:
            _print_file_problems(console, result.display, result.problems)

    summary = run_batch(validate_report, paths, _jobs(jobs), as_json, report, rules=rules)
    if summary.interrupted:
        if console is None and stderr_is_terminal():
            print_summary(summary, _console(stderr=True))
        elif console is None:
            sys.stderr.write(f"bgtools: interrupted after {summary.done} file(s)\n")
        else:
            print_summary(summary, console)
        raise typer.Exit(INTERRUPTED)
    if summary.done == 0:
        if console is not None:
            console.print("[yellow]no match files found[/]")
            raise typer.Exit(2)
        _fail("no match files found")
    if console is not None:
        print_summary(summary, console)
    elif stderr_is_terminal():
        print_summary(summary, _console(stderr=True))
    worst = 2 if summary.unreadable else 1 if summary.invalid else 0
    raise typer.Exit(worst)


@app.command()
def replay(
    paths: Paths,
    jsonl: Annotated[bool, typer.Option("--jsonl", help="One JSON object per action.")] = False,
    rules: RulesOption = "auto",
) -> None:
    """Replay match files action by action, with IDs, pips and cube at every step."""
    from bgtools.replay import Event
    from bgtools.reports.files import analyse_file, event_json, expand_paths

    check_rules(rules)
    worst = 0
    console = None if jsonl else _console()
    seen = False
    for display, path, error in expand_paths(paths):
        seen = True
        rows: list[dict[str, Any]] = []

        def collect(event: Event, display: str = display) -> None:
            obj = event_json(display, event)
            if jsonl:
                _emit_json(obj)
            else:
                rows.append(obj)

        result = analyse_file(display, path, error, rules, on_event=collect)
        if result.error is not None:
            sys.stderr.write(f"bgtools: error: {result.error}\n")
            worst = 2
            continue
        if not result.valid:
            worst = max(worst, 1)
        if console is not None:
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
    if not seen:
        _fail("no match files found")
    raise typer.Exit(worst)


@app.command()
def rules() -> None:
    """List the rule ids the validator reports, one line each."""
    from bgtools.replay import RULES

    width = max(len(rule) for rule in RULES)
    for rule, text in sorted(RULES.items()):
        sys.stdout.write(f"{rule.ljust(width)}  {text}\n")


def main() -> None:
    """Console-script entry point: run the app; errors end as one line and an exit code."""
    from bgtools.cli.errors import run_app

    run_app(app)


# The answer commands (score, pips, status, show), convert and the data commands (stats,
# standings, export) register themselves on ``app``.
from bgtools.cli import answers, convert, data  # noqa: E402,F401

if __name__ == "__main__":  # pragma: no cover
    main()
