"""The ``score``, ``pips``, ``status`` and ``show`` commands: answers from the shell.

Thin Typer commands over the jobs of :mod:`bgtools.batch` (the data, built in the workers),
:mod:`bgtools.reports.moments` and :mod:`bgtools.reports.board` (the board of a moment),
drawn by :mod:`bgtools.cli.board`. Registered on :data:`bgtools.cli.application.app` when
:mod:`bgtools.cli` imports this module.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, cast

import typer

from bgtools.cli.application import (
    JobsOption,
    JsonOption,
    Paths,
    RulesOption,
    app,
    check_rules,
    emit_json,
    fit_table,
    make_console,
    no_files_message,
    resolve_jobs,
)
from bgtools.cli.errors import EXIT_INTERRUPTED, fail, print_error, print_problem

if TYPE_CHECKING:
    from rich.console import Console

    from bgtools.batch import BatchSummary, FileReport, Input
    from bgtools.reports.board import BoardInfo
    from bgtools.reports.moments import MatchAnswers, Moment, MoveRef
    from bgtools.reports.objects import (
        GameResultObject,
        MomentExtra,
        ScoreExtra,
        ScoreObject,
        StatusObject,
    )

__all__ = ["not_an_id", "pips", "score", "show", "status"]

GameOption = Annotated[
    int | None,
    typer.Option("--game", metavar="N", help="Game number (1-based; default: the last game)."),
]
MatchOption = Annotated[
    int | None,
    typer.Option("--match", metavar="N", show_default=False,
                 help="The N-th match of a file that holds several (1-based, as score "
                 "--json numbers them; default: the last)."),
]
MoveOption = Annotated[
    str | None,
    typer.Option("--move", metavar="M", show_default=False,
                 help="Before the M-th action of the game (1-based), or before the action "
                 "in the file's row N, left or right column: 12a, 12b (default: after the "
                 "last action)."),
]


def _point_to_validate(display: str, count: int, rules: str) -> None:
    """The one line ``show`` and ``status`` say of a file's problems, instead of listing
    them over the answer: how many, and the command that lists them."""
    import shlex

    from bgtools.cli.errors import note
    from bgtools.cli.terminal import terminal_text

    if not count:
        return
    command = "bgtools validate " + ("" if rules == "auto" else f"--rules {rules} ")
    what, them = ("problem", "it") if count == 1 else ("problems", "them")
    # Escaped here: note() would make a line break in the name a space.
    note(f"{terminal_text(display)} has {count} {what}: "
         f"{command}{terminal_text(shlex.quote(display))} lists {them}")


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
        _point_to_validate(display, sum(len(m.summary.problems) for m in answers), rules)
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
    """Players, length, final score and winner, game by game.

    Directories are read recursively and quoted globs expanded; files are spread over
    --jobs processes and reported in input order.
    """
    from bgtools.batch import score_report

    check_rules(rules)

    def print_file(console: Console, result: FileReport) -> None:
        for obj, extra in zip(result.objects, result.extra):  # a score job's
            _print_score(console, cast("ScoreObject", obj), cast("ScoreExtra", extra))

    _answer_files(score_report, paths, jobs, as_json, print_file, with_format=True, rules=rules)


def _file_error(result: FileReport) -> str | None:
    """Why a file has no answer (unreadable, no match, a moment out of range), or None."""
    if result.error is not None:
        return result.error
    if not result.objects:
        return f"{result.display}: no match found"
    return None


def _report_problems(result: FileReport, list_rules: str | None = None) -> int:
    """Write a file's error or problems to stderr (with ``list_rules``, the rules the file
    was replayed under, only how many and how ``validate`` lists them); its exit code
    (0, 1 or 2)."""
    if result.error is None and list_rules is not None:
        _point_to_validate(result.display, len(result.problems), list_rules)
    elif result.error is None:
        for prob in result.problems:
            print_problem(result.display, prob)
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
    """Run a batch job (no validator summary: the answers are the output); Ctrl-C says how
    far it got on stderr and exits 130."""
    from bgtools.cli.progress import print_interrupted, run_batch

    summary = run_batch(job, paths, resolve_jobs(jobs), as_json, report, **options)
    if summary.interrupted:
        print_interrupted(summary)
        raise typer.Exit(EXIT_INTERRUPTED)
    if summary.done == 0:
        fail(no_files_message(paths))
    return summary


def _answer_files(job: Callable[..., FileReport], paths: list[str], jobs: int | None,
                  as_json: bool, print_file: Callable[[Console, FileReport], None], *,
                  with_format: bool = False, point_to_validate: bool = False,
                  **options: Any) -> NoReturn:
    """Run an answer job (score, pips, status) over ``paths`` and exit with the worst code.

    Each file's problems go to stderr (``point_to_validate``: how many, and the command
    that lists them); its answer is one JSON line (``--json``, or its error
    object) or, at a terminal, what ``print_file`` draws for a file that has an answer.
    """
    worst = 0
    console = None if as_json else make_console()

    def report(result: FileReport) -> None:
        nonlocal worst
        rules = options.get("rules", "auto") if point_to_validate else None
        worst = max(worst, _report_problems(result, rules))
        if console is None:
            _emit_objects(result, with_format=with_format)
        elif result.objects:
            print_file(console, result)

    _run(job, paths, jobs, as_json, report, **options)
    raise typer.Exit(worst)


def _verdict(names: list[str], final: list[int], winner: int | None, complete: bool) -> str:
    """``Bob wins 4-2`` (the winner's score first), else each player's score named."""
    if winner is not None:
        return f"{names[winner]} wins {final[winner]}-{final[1 - winner]}"
    each = f"{names[0]} {final[0]}, {names[1]} {final[1]}"
    return f"final score {each}" if complete else f"unfinished at {each}"


def _print_score(console: Console, obj: ScoreObject, extra: ScoreExtra) -> None:
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
    verdict = _verdict(names, final, obj["winner"], obj["complete"])
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
        won = g["winner"] if g["ended_by"] is not None else None  # None: unfinished
        winner = escape(names[won]) if won is not None else "-"
        points = str(g["points"]) if won is not None and g["points"] is not None else "-"
        row = [str(g["number"]), before, winner, points, g["result"] or "-",
               g["ended_by"] or "unfinished", str(g["cube"])]
        if length:
            row.append("Crawford" if g["crawford"] else "post-Crawford" if post_crawford else "")
        else:
            row.append(f"{total[0]}-{total[1]}")
        table.add_row(*row)
    console.print(fit_table(console, table, drop=("ended by", "cube", "points")))


# --- moments -------------------------------------------------------------------------------


def _names_positions(paths: list[str]) -> bool:
    """Whether the arguments are IDs rather than files: none names an existing path and
    each is written like a Position ID, GNUbg ID or XGID (valid or not)."""
    from bgtools.reports.moments import looks_like_id

    def exists(arg: str) -> bool:
        try:
            return Path(arg).exists()
        except OSError:  # a name too long for a path is no file
            return False

    return bool(paths) and all(not exists(arg) and looks_like_id(arg) for arg in paths)


def not_an_id(text: str) -> str:
    """The message for an argument that is no file and not a valid ID, with the reason."""
    from bgtools.reports.moments import explain_id

    return f"{text}: no such file, and not a Position ID, GNUbg ID or XGID: {explain_id(text)}"


def _answer_positions(texts: list[str], game: int | None, move: str | None, as_json: bool,
                      command: str, match: int | None = None) -> NoReturn:
    """``pips``/``status`` of positions given by their IDs: one answer each, in order; an
    ID that does not decode is an error (its reason on stderr; with ``--json`` its error
    object), exit 2."""
    from bgtools.reports.moments import position_answers

    if game is not None or move is not None or match is not None:
        fail("--match, --game and --move apply to match files, not to a position ID")
    console = None if as_json else make_console()
    worst = 0
    for text in texts:
        try:
            answers = position_answers(text)
        except ValueError:
            message = not_an_id(text)
            print_error(message)
            worst = 2
            if console is None:
                emit_json({"schema": "bgtools/1", "file": None, "id": text.strip(),
                           "error": message})
            continue
        obj = answers.pips if command == "pips" else answers.status
        if console is None:
            emit_json(obj)
        elif command == "pips":
            on_roll = answers.status["on_roll"]
            counts, lead = _pip_counts(answers.extra["names"], obj["pips"]).split("; ")
            if answers.status["match_id"] is not None and on_roll is not None:
                counts += f" (player {on_roll} on roll)"
            console.print(f"{obj['id']}: {counts}; {lead}", markup=False)
        else:
            _print_status(console, [("ID", answers.status["id"])], answers.status,
                          answers.extra)
    raise typer.Exit(worst)


def _pick(display: str, answers: list[MatchAnswers], game: int | None,
          move: MoveRef | str | None, match_number: int | None = None
          ) -> tuple[MatchAnswers, Moment]:
    """The moment asked for; exit 2 naming the valid range when it does not exist."""
    from bgtools.reports.moments import RangeError, pick_match

    try:
        match = pick_match(answers, match_number)
        if move is not None and game is None:
            game = len(match.summary.games)
        return match, match.moment(game, move)
    except RangeError as exc:
        fail(f"{display}: {exc}")


def _check_numbers(game: int | None, move: str | None, match: int | None = None
                   ) -> MoveRef | None:
    """The moment asked for, checked: ``--move`` parsed (a number or a row such as 12b)."""
    from bgtools.reports.moments import parse_move

    if match is not None and match < 1:
        fail(f"--match {match} is out of range: matches are numbered from 1")
    if game is not None and game < 1:
        fail(f"--game {game} is out of range: games are numbered from 1")
    if move is None:
        return None
    try:
        return parse_move(move)
    except ValueError as exc:
        fail(str(exc))


@app.command()
def pips(
    paths: Paths,
    game: GameOption = None,
    move: MoveOption = None,
    as_json: JsonOption = False,
    all_moves: Annotated[bool, typer.Option("--all", help="A table of every move of the game.")]
    = False,
    match: MatchOption = None,
    rules: RulesOption = "auto",
    jobs: JobsOption = None,
) -> None:
    """Both players' pip counts at one moment, or at every move.

    The moment is the end of the last game unless --game and --move say otherwise; --all
    gives a table of every move of the game.
    """
    from bgtools.batch import pips_report

    moment_ref = _check_numbers(game, move, match)
    check_rules(rules)
    if _names_positions(paths):
        if all_moves:
            fail("--all applies to match files, not to a position ID")
        _answer_positions(paths, game, move, as_json, "pips", match)

    def print_file(console: Console, result: FileReport) -> None:
        if all_moves:
            _print_all(console, result.display,
                       list(cast("tuple[MomentExtra, ...]", result.extra)))  # a pips job's
        else:
            (moment,) = cast("tuple[MomentExtra]", result.extra)
            console.print(f"{result.display}: {_where(moment)}: "
                          f"{_pip_counts(moment['names'], moment['pips'])}", markup=False)

    _answer_files(pips_report, paths, jobs, as_json, print_file, game=game, move=moment_ref,
                  all_moves=all_moves, rules=rules, match_number=match)


def _pip_counts(names: list[str], pips: list[int]) -> str:
    """``Alice 152, Bob 143; Bob leads by 9`` (the lead said once; ``even`` when equal)."""
    p0, p1 = pips
    if p0 == p1:
        lead = "even"
    else:
        leader = 0 if p0 < p1 else 1
        lead = f"{names[leader]} leads by {abs(p0 - p1)}"
    return f"{names[0]} {p0}, {names[1]} {p1}; {lead}"


def _where(moment: MomentExtra) -> str:
    """Where a moment is: its game and move, and its row of the file when it has one."""
    if moment["final"]:
        return f"game {moment['game']}, after the last action (move {moment['move']})"
    row = moment.get("row")
    return f"game {moment['game']}, move {moment['move']}" + (f" (row {row})" if row else "")


def _print_all(console: Console, display: str, moments: list[MomentExtra]) -> None:
    from rich.markup import escape
    from rich.table import Table

    names = moments[0]["names"]
    table = Table(title=f"{escape(display)}: game {moments[0]['game']}", show_edge=False,
                  pad_edge=False)
    table.add_column("move", justify="right")
    table.add_column("row", justify="right")
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
            play = m["words"]
        p0, p1 = m["pips"]
        table.add_row(str(m["move"]), m.get("row") or "", actor, str(p0), str(p1), roll,
                      escape(play or ""))
    console.print(fit_table(console, table, drop=("player",)))


@app.command()
def status(
    paths: Paths,
    game: GameOption = None,
    move: MoveOption = None,
    as_json: JsonOption = False,
    match: MatchOption = None,
    rules: RulesOption = "auto",
    jobs: JobsOption = None,
) -> None:
    """Score, Crawford, cube, turn, pips and IDs at one moment.

    The moment is the end of the file unless --game and --move say otherwise.
    """
    from bgtools.batch import status_report

    moment_ref = _check_numbers(game, move, match)
    check_rules(rules)
    if _names_positions(paths):
        _answer_positions(paths, game, move, as_json, "status", match)

    def print_file(console: Console, result: FileReport) -> None:
        (obj,), (moment,) = (cast("tuple[StatusObject]", result.objects),  # a status job's
                             cast("tuple[MomentExtra]", result.extra))
        _print_status(console, [("file", result.display), ("moment", _where(moment))],
                      obj, moment)

    _answer_files(status_report, paths, jobs, as_json, print_file, game=game,
                  move=moment_ref, rules=rules, point_to_validate=True, match_number=match)


CRAWFORD_TEXT = {"pre-crawford": "pre-Crawford", "crawford": "Crawford game",
                 "post-crawford": "post-Crawford", "money": "none (money session)"}
"""How the text output names the contract's ``crawford`` values (``Crawford`` is a name:
capitalised everywhere, also in ``post-Crawford``)."""

_ENDED_BY = {"bearoff": "borne off", "drop": "double dropped", "resign": "resigned"}


def _to_act(obj: StatusObject, moment: MomentExtra) -> str:
    """Who acts: the player on roll, the doubler and the player to answer, or nobody."""
    names = moment["names"]
    pending = moment.get("pending")
    if pending is not None:
        offer = (f"doubled to {pending['cube']}" if pending["action"] == "double"
                 else f"{pending['action']}ed")
        return f"{names[pending['by']]} {offer}, {names[pending['answer']]} to answer"
    if obj["on_roll"] is not None:
        return str(names[obj["on_roll"]])
    result = moment.get("result")
    return "nobody (match over)" if result and result["match_over"] else "nobody (game over)"


def _result_text(names: list[str], result: GameResultObject) -> str:
    """``Bob won the match 4-2`` or ``Alice won 2 points (gammon, resigned)``."""
    winner = result["winner"]
    if result["match_over"]:
        final = result["final_score"]
        return f"{names[winner]} won the match {final[winner]}-{final[1 - winner]}"
    points = result["points"]
    how = ", ".join(x for x in (result["result"], _ENDED_BY.get(result["ended_by"], "")) if x)
    return (f"{names[winner]} won {points} point{'' if points == 1 else 's'}"
            + (f" ({how})" if how else ""))


def _print_status(console: Console, head: list[tuple[str, str]], obj: StatusObject,
                  moment: MomentExtra) -> None:
    """The status of one moment as aligned ``key  value`` lines after ``head``."""
    names = moment["names"]
    length = obj["match_length"]
    rows = list(head)
    if length is not None:
        rows.append(("match", f"{length}-point match" if length else "money session"))
    result = moment.get("result")
    if result is not None:
        rows.append(("result", _result_text(names, result)))
    if obj["score"] is not None:
        rows.append(("score", f"{names[0]} {obj['score'][0]}, {names[1]} {obj['score'][1]}"))
    if obj["crawford"] is not None:
        rows.append(("Crawford", CRAWFORD_TEXT[obj["crawford"]]))
    if obj["cube"] is not None:
        owner = obj["cube"]["owner"]
        rows.append(("cube", f"{obj['cube']['value']} "
                     + ("(centred)" if owner is None else f"(owned by {names[owner]})")))
    rows.append(("to act", _to_act(obj, moment)))
    dice = moment["dice"]  # (every moment has its dice, null when none)
    if dice:
        rows.append(("dice", "".join(map(str, dice))))
    rows.append(("pips", _pip_counts(names, obj["pips"])))
    rows += [("position ID", obj["position_id"]), ("match ID", obj["match_id"] or "-"),
             ("XGID", obj["xgid"] or "-")]
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        console.print(f"{key.ljust(width)}  {value}", markup=False)


# --- show ----------------------------------------------------------------------------------


@app.command()
def show(
    path: Annotated[str, typer.Argument(
        metavar="PATH|ID", help="A match file, Position ID, GNUbg ID or XGID.",
        show_default=False)],
    game: GameOption = None,
    move: MoveOption = None,
    match: MatchOption = None,
    ascii_only: Annotated[bool, typer.Option("--ascii", help="A plain text board.")] = False,
    rules: RulesOption = "auto",
    svg: Annotated[str | None, typer.Option(
        "--svg", metavar="OUT.svg",
        help="Write the board as an SVG picture to OUT.svg ('-': stdout).",
        show_default=False)] = None,
    html: Annotated[str | None, typer.Option(
        "--html", metavar="OUT.html",
        help="Write one self-contained page that steps through every position of the match "
             "(arrow keys, Home, End) to OUT.html ('-': stdout).",
        show_default=False)] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Replace OUT.svg or OUT.html if it exists.")] = False,
) -> None:
    """Draw the board at a moment of a match, or of a position ID."""
    from bgtools.cli.board import rich_board, write_picture
    from bgtools.reports.board import id_board
    from bgtools.write.atomic import Protected, protected_input

    _check_numbers(game, move, match)
    check_rules(rules)
    if svg == "-" and html == "-":
        fail("--svg - and --html - cannot both write to standard output")
    info: BoardInfo | None = None
    protect: Protected = None  # the input file, never written over
    worst = 0
    from bgtools.readers.inputs import GLOB_CHARACTERS

    # A file first ('-': standard input), then an ID, then a glob (no ID holds * ? or [).
    is_file = path == "-" or Path(path).exists()
    if not is_file:
        info = id_board(path)
        if info is None and not GLOB_CHARACTERS.intersection(path):
            fail(not_an_id(path))
    if info is not None:
        if game is not None or move is not None or match is not None:
            fail("--match, --game and --move apply to match files, not to a position ID")
        if html is not None:
            fail("--html draws a whole match: give a match file, not a position ID")
    else:
        from itertools import islice

        from bgtools.readers.inputs import expand_paths

        items = list(islice(expand_paths([path]), 2))
        if len(items) > 1:
            fail(f"{path} holds several match files; show draws one board: name one of them")
        if items and items[0].source is not None:
            protect = protected_input(items[0].source)
        for display, answers, code in _inputs(items, rules):
            worst = max(worst, code)
            if not answers:
                continue
            chosen, moment = _pick(display, answers, game, move, match)
            info = moment.board()
            if html is not None:
                from bgtools.reports.html import match_html

                start = moment if game is not None or move is not None else None
                write_picture(match_html(chosen, display, start), html, force=force,
                              source=protect)
            break
    if info is not None and svg is not None:
        from bgtools.engine.diagram import svg_diagram

        write_picture(svg_diagram(info), svg, force=force, source=protect)
    if info is not None and svg is None and html is None:
        if ascii_only:
            from bgtools.cli.terminal import terminal_text
            from bgtools.reports.board import board_lines

            # ascii_board's lines, each with the names from the file escaped.
            sys.stdout.write("".join(terminal_text(line) + "\n" for line in board_lines(info)))
        else:
            console = make_console()
            console.print(rich_board(info, console.width), end="")
    raise typer.Exit(worst)
