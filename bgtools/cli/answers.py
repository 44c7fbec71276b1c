"""The ``score``, ``pips``, ``status`` and ``show`` commands: answers from the shell.

Thin Typer commands over the jobs of :mod:`bgtools.batch` (the data, built in the workers),
:mod:`bgtools.reports.moments` and :mod:`bgtools.reports.board` (the board of a moment),
drawn by :mod:`bgtools.cli.board`. Registered on :data:`bgtools.cli.app.app` when
:mod:`bgtools.cli` imports this module.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

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

    from bgtools.batch import BatchSummary, FileReport, Input
    from bgtools.reports.board import BoardInfo
    from bgtools.reports.moments import MatchAnswers, Moment

__all__ = ["pips", "score", "show", "status"]

GameOption = Annotated[
    int | None, typer.Option("--game", help="Game number (1-based; default: the last game).")
]
MoveOption = Annotated[
    int | None,
    typer.Option("--move", help="Before the M-th action of the game (1-based; default: "
                 "after the last action)."),
]


def _problems_to_stderr(display: str, answers: list[MatchAnswers]) -> None:
    from bgtools.reports.files import problem_text

    for match in answers:
        for prob in match.replay.problems:
            sys.stderr.write(problem_text(display, prob.to_json()))


def _inputs(items: Iterable[Input], rules: str = "auto"
            ) -> Iterator[tuple[str, list[MatchAnswers], int]]:
    """Yield ``(display, answers, code)`` per readable input (as ``expand_paths`` yields
    them); report unreadable ones."""
    from bgtools.reports.moments import analyse_answers

    seen = False
    for display, path, error in items:
        seen = True
        result, answers = analyse_answers(display, path, error, rules)
        if result.error is not None:
            print_error(result.error)
            yield display, [], 2
            continue
        _problems_to_stderr(display, answers)
        code = 0 if result.valid else 1
        if not answers:
            print_error(f"{display}: no match found")
            code = 2
        yield display, answers, code
    if not seen:
        fail("no match files found")


# --- score ---------------------------------------------------------------------------------


@app.command()
def score(paths: Paths, as_json: JsonOption = False, rules: RulesOption = "auto",
          jobs: JobsOption = None) -> None:
    """The score of matches: players, length, final score, winner and every game.

    Directories are read recursively and quoted globs expanded; files are spread over
    ``--jobs`` processes and reported in input order.
    """
    from bgtools.batch import score_report

    check_rules(rules)

    def print_file(console: Console, result: FileReport) -> None:
        for obj, extra in zip(result.objects, result.extra):
            _print_score(console, obj, extra)

    _answer_files(score_report, paths, jobs, as_json, print_file, with_format=True, rules=rules)


def _file_error(result: FileReport) -> str | None:
    """Why a file has no answer (unreadable, no match, a moment out of range), or None."""
    if result.error is not None:
        return result.error
    if not result.objects:
        return f"{result.display}: no match found"
    return None


def _report_problems(result: FileReport) -> int:
    """Write a file's error or problems to stderr; its exit code (0, 1 or 2)."""
    from bgtools.reports.files import problem_text

    if result.error is None:
        for prob in result.problems:
            sys.stderr.write(problem_text(result.display, prob))
    error = _file_error(result)
    if error is not None:
        print_error(error)
        return 2
    return 0 if result.valid else 1


def _emit_objects(result: FileReport, *, with_format: bool = False) -> None:
    """``--json``: the file's objects, or its error object so that every input has a line."""
    from bgtools.reports.moments import error_json

    error = _file_error(result)
    if error is not None:
        emit_json(error_json(result.display, error, with_format=with_format))
        return
    for obj in result.objects:
        emit_json(obj)


def _run(job: Callable[..., FileReport], paths: list[str], jobs: int | None, as_json: bool,
         report: Callable[[FileReport], None], **options: Any) -> BatchSummary:
    """Run a batch job; at a terminal, the summary on stderr; Ctrl-C exits 130."""
    from bgtools.cli.progress import (
        print_interrupted,
        print_summary,
        run_batch,
        stderr_is_terminal,
    )

    summary = run_batch(job, paths, resolve_jobs(jobs), as_json, report, **options)
    if summary.interrupted or summary.done > 1:
        if stderr_is_terminal():
            print_summary(summary, make_console(stderr=True))
        elif summary.interrupted:
            print_interrupted(summary)
    if summary.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)
    if summary.done == 0:
        fail("no match files found")
    return summary


def _answer_files(job: Callable[..., FileReport], paths: list[str], jobs: int | None,
                  as_json: bool, print_file: Callable[[Console, FileReport], None], *,
                  with_format: bool = False, **options: Any) -> NoReturn:
    """Run an answer job (score, pips, status) over ``paths`` and exit with the worst code.

    Each file's problems go to stderr; its answer is one JSON line (``--json``, or its error
    object) or, at a terminal, what ``print_file`` draws for a file that has an answer.
    """
    worst = 0
    console = None if as_json else make_console()

    def report(result: FileReport) -> None:
        nonlocal worst
        worst = max(worst, _report_problems(result))
        if console is None:
            _emit_objects(result, with_format=with_format)
        elif result.objects:
            print_file(console, result)

    _run(job, paths, jobs, as_json, report, **options)
    raise typer.Exit(worst)


def _print_score(console: Console, obj: dict[str, Any], extra: dict[str, Any]) -> None:
    from rich.markup import escape
    from rich.table import Table

    names = extra["names"] or ["player 0", "player 1"]
    length = obj["match_length"]
    kind = f"{length}-point match" if length else "money session"
    final = obj["final_score"]
    title = f"{names[0]} vs {names[1]}, {kind}"
    other = extra["header_names"]
    if other is not None:
        title += f" (header: {other[0]} vs {other[1]})"
    if obj["winner"] is not None:
        verdict = f"{names[obj['winner']]} wins {final[0]}-{final[1]}"
    elif obj["complete"]:
        verdict = f"final {final[0]}-{final[1]}"
    else:
        verdict = f"unfinished at {final[0]}-{final[1]}"
    console.print(f"[bold]{escape(obj['file'])}[/]: {escape(title)}; {escape(verdict)}")
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("game", justify="right")
    table.add_column("score before")
    table.add_column("winner")
    table.add_column("points", justify="right")
    table.add_column("result")
    table.add_column("ended by")
    table.add_column("cube", justify="right")
    if length:
        table.add_column("note")
    else:
        table.add_column("total")
    for g, post_crawford, total in zip(obj["games"], extra["post_crawford"], extra["totals"]):
        before = f"{g['score_before'][0]}-{g['score_before'][1]}"
        finished = g["ended_by"] is not None and g["winner"] is not None
        winner = escape(names[g["winner"]]) if finished else "-"
        points = str(g["points"]) if finished and g["points"] is not None else "-"
        row = [str(g["number"]), before, winner, points, g["result"] or "-",
               g["ended_by"] or "unfinished", str(g["cube"])]
        if length:
            row.append("Crawford" if g["crawford"] else "post-Crawford" if post_crawford else "")
        else:
            row.append(f"{total[0]}-{total[1]}")
        table.add_row(*row)
    console.print(table)


# --- moments -------------------------------------------------------------------------------


def _pick(display: str, answers: list[MatchAnswers], game: int | None,
          move: int | None) -> tuple[MatchAnswers, Moment]:
    """The moment asked for; exit 2 naming the valid range when it does not exist."""
    from bgtools.reports.moments import RangeError

    match = answers[-1]
    if move is not None and game is None:
        game = len(match.replay.games)
    try:
        return match, match.moment(game, move)
    except RangeError as exc:
        fail(f"{display}: {exc}")


def _check_numbers(game: int | None, move: int | None) -> None:
    if game is not None and game < 1:
        fail(f"--game {game} is out of range: games are numbered from 1")
    if move is not None and move < 1:
        fail(f"--move {move} is out of range: moves are numbered from 1")


@app.command()
def pips(
    paths: Paths,
    game: GameOption = None,
    move: MoveOption = None,
    as_json: JsonOption = False,
    all_moves: Annotated[bool, typer.Option("--all", help="A table of every move of the game.")]
    = False,
    rules: RulesOption = "auto",
    jobs: JobsOption = None,
) -> None:
    """Pip counts of both players at one moment (default: the end of the last game)."""
    from bgtools.batch import pips_report

    _check_numbers(game, move)
    check_rules(rules)

    def print_file(console: Console, result: FileReport) -> None:
        if all_moves:
            _print_all(console, result.display, list(result.extra))
        else:
            (moment,) = result.extra
            names = moment["names"]
            p0, p1 = moment["pips"]
            if p0 == p1:
                lead = "even"
            else:
                leader = 0 if p0 < p1 else 1
                lead = f"{names[leader]} leads by {abs(p0 - p1)}"
            console.print(f"{result.display}: {_where(moment)}: {names[0]} {p0}, "
                          f"{names[1]} {p1} (difference {p1 - p0:+d}; {lead})", markup=False)

    _answer_files(pips_report, paths, jobs, as_json, print_file, game=game, move=move,
                  all_moves=all_moves, rules=rules)


def _where(moment: dict[str, Any]) -> str:
    if moment["final"]:
        return f"game {moment['game']}, after the last action (move {moment['move']})"
    return f"game {moment['game']}, move {moment['move']}"


def _print_all(console: Console, display: str, moments: list[dict[str, Any]]) -> None:
    from rich.markup import escape
    from rich.table import Table

    names = moments[0]["names"]
    table = Table(title=f"{escape(display)}: game {moments[0]['game']}", show_edge=False,
                  pad_edge=False)
    table.add_column("move", justify="right")
    table.add_column("player")
    table.add_column(escape(names[0]), justify="right")
    table.add_column(escape(names[1]), justify="right")
    table.add_column("roll")
    table.add_column("play")
    for m in moments:
        if m["final"]:
            actor = "-"
            roll = ""
            play = f"(game over: {m['over']})" if m["over"] else "(end of record)"
        else:
            actor = escape(names[m["player"]]) if m["player"] is not None else "-"
            roll = f"{m['dice'][0]}{m['dice'][1]}" if m["dice"] else ""
            play = (m["play"] if m["action"] == "move" else m["action"]) or ""
            if m["action"] == "move" and not play:
                play = "(no play)" if m["play"] == "" else "(not played)"
        p0, p1 = m["pips"]
        table.add_row(str(m["move"]), actor, str(p0), str(p1), roll, escape(play or ""))
    console.print(table)


@app.command()
def status(
    paths: Paths,
    game: GameOption = None,
    move: MoveOption = None,
    as_json: JsonOption = False,
    rules: RulesOption = "auto",
    jobs: JobsOption = None,
) -> None:
    """Score, Crawford status, cube, player on roll, pips and IDs at one moment."""
    from bgtools.batch import status_report

    _check_numbers(game, move)
    check_rules(rules)

    def print_file(console: Console, result: FileReport) -> None:
        (obj,), (moment,) = result.objects, result.extra
        names = moment["names"]
        length = obj["match_length"]
        owner = obj["cube"]["owner"]
        on_roll = obj["on_roll"]
        rows = [
            ("file", result.display),
            ("moment", _where(moment)),
            ("match", f"{length}-point match" if length else "money session"),
            ("score", f"{names[0]} {obj['score'][0]}, {names[1]} {obj['score'][1]}"),
            ("crawford", obj["crawford"]),
            ("cube", f"{obj['cube']['value']} "
                     + ("(centred)" if owner is None else f"(owned by {names[owner]})")),
            ("on roll", "nobody (game over)" if on_roll is None else names[on_roll]),
            ("pips", f"{names[0]} {obj['pips'][0]}, {names[1]} {obj['pips'][1]}"),
            ("position ID", obj["position_id"]),
            ("match ID", obj["match_id"]),
            ("XGID", obj["xgid"]),
        ]
        width = max(len(k) for k, _ in rows)
        for key, value in rows:
            console.print(f"{key.ljust(width)}  {value}", markup=False)

    _answer_files(status_report, paths, jobs, as_json, print_file, game=game, move=move,
                  rules=rules)


# --- show ----------------------------------------------------------------------------------


@app.command()
def show(
    path: Annotated[str, typer.Argument(
        help="A match file, or a Position ID, GNUbg ID (pos:match) or XGID.",
        show_default=False)],
    game: GameOption = None,
    move: MoveOption = None,
    ascii_only: Annotated[bool, typer.Option("--ascii", help="A plain text board.")] = False,
    rules: RulesOption = "auto",
) -> None:
    """Draw the board of a moment of a match, or of a bare position ID."""
    from bgtools.cli.board import rich_board
    from bgtools.reports.board import ascii_board, id_board, moment_board

    _check_numbers(game, move)
    check_rules(rules)
    info: BoardInfo | None = None
    worst = 0
    from bgtools.reports.files import GLOB_CHARACTERS

    # A file first ('-': standard input), then an ID, then a glob (no ID holds * ? or [).
    is_file = path == "-" or Path(path).exists()
    if not is_file:
        info = id_board(path)
        if info is None and not GLOB_CHARACTERS.intersection(path):
            fail(f"{path}: no such file, and not a Position ID, GNUbg ID or XGID")
    if info is not None:
        if game is not None or move is not None:
            fail("--game and --move apply to match files, not to a position ID")
    else:
        from itertools import islice

        from bgtools.reports.files import expand_paths

        items = list(islice(expand_paths([path]), 2))
        if len(items) > 1:
            fail(f"{path} holds several match files; show draws one board: name one of them")
        for display, answers, code in _inputs(items, rules):
            worst = max(worst, code)
            if not answers:
                continue
            match, moment = _pick(display, answers, game, move)
            info = moment_board(match, moment)
            break
    if info is not None:
        if ascii_only:
            sys.stdout.write(ascii_board(info))
        else:
            make_console().print(rich_board(info), end="")
    raise typer.Exit(worst)
