"""The data commands: ``stats``, ``standings`` and ``export``, over whole archives.

Thin Typer commands over :mod:`bgtools.data.stats`, :mod:`bgtools.data.standings` and
:mod:`bgtools.data.export`: each runs its per-file job through
:func:`bgtools.cli.progress.run_batch` (the paths, globs and ``--jobs`` of ``validate``),
leaves invalid files out with a note (``--include-invalid`` keeps them) and ends with the
contract's exit code (0; 1 when an input had errors; 2 when one could not be read; 130 after
Ctrl-C). Registered on :data:`bgtools.cli.application.app` when :mod:`bgtools.cli` imports this
module.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from bgtools.cli.application import (
    JobsOption,
    Paths,
    RulesOption,
    SchedulerOption,
    app,
    check_rules,
    check_scheduler,
    emit_json,
    fit_table,
    make_console,
    resolve_jobs,
)
from bgtools.cli.errors import EXIT_INTERRUPTED, fail, note, print_error

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from bgtools.batch import FileReport, Input
    from bgtools.data.context import MatchFilter
    from bgtools.data.standings import Standings

__all__ = ["export", "standings", "stats"]

IncludeInvalid = Annotated[
    bool, typer.Option("--include-invalid",
                       help="Use files with errors too (by default each is left out, "
                            "with a note).")]
Force = Annotated[bool, typer.Option("--force", help="Replace the output file if it exists.")]
PlayerFilter = Annotated[list[str] | None, typer.Option(
    "--player", metavar="NAME", show_default=False,
    help="Only matches NAME plays in (repeat for any of several; after --aliases).")]
EventFilter = Annotated[str | None, typer.Option(
    "--event", metavar="PATTERN", show_default=False,
    help="Only matches whose Event tag matches PATTERN (shell pattern, any case).")]
SiteFilter = Annotated[str | None, typer.Option(
    "--site", metavar="PATTERN", show_default=False,
    help="Only matches whose Site or Place tag matches PATTERN (shell pattern, any case).")]
SinceFilter = Annotated[str | None, typer.Option(
    "--since", metavar="DATE", show_default=False,
    help="Only matches played on or after DATE (YYYY-MM-DD; a match without a date is left out).")]
UntilFilter = Annotated[str | None, typer.Option(
    "--until", metavar="DATE", show_default=False,
    help="Only matches played on or before DATE (YYYY-MM-DD; a match without a date is left out).")]
AliasesOption = Annotated[Path | None, typer.Option(
    "--aliases", metavar="FILE", show_default=False,
    help="Count several names as one player (FILE: lines NAME = ALIAS, ...).")]


class Grouping(str, Enum):
    """What ``stats --by`` groups by."""

    player = "player"
    site = "site"
    file = "file"


class ExportFormat(str, Enum):
    """The formats of ``export --to``."""

    csv = "csv"
    parquet = "parquet"


def _check_output(output: Path, force: bool, paths: list[str], what: str) -> None:
    """Refuse an output that is a directory, exists without ``--force``, is an input (also
    standard input's file) or cannot be replaced (see
    :func:`bgtools.write.atomic.check_output`)."""
    from bgtools.errors import BgtoolsError
    from bgtools.readers.detect import STDIN_ARGUMENT
    from bgtools.write.atomic import STDIN_FD, check_output

    if str(output) == STDIN_ARGUMENT:
        fail(f"{what} needs a file name: the output is written to a file, atomically")
    if output.is_dir():
        fail(f"{what} {output} is a directory")
    try:
        check_output(output, overwrite=force)
        if output.exists():
            for arg in paths:
                check_output(output, overwrite=True,
                             protect=STDIN_FD if arg == STDIN_ARGUMENT else Path(arg))
    except BgtoolsError as exc:
        fail(str(exc))
    parent = output.parent
    if not parent.is_dir():
        fail(f"cannot write {output}: no such directory {parent}")


def _export_format_of(output: Path) -> ExportFormat:
    """The format ``export`` writes when ``--to`` is not given: the output's extension
    (``.csv``, ``.parquet``); a usage error for any other."""
    suffix = output.suffix.lower().lstrip(".")
    if suffix not in ExportFormat.__members__:
        fail(f"export: {output} has no .csv or .parquet extension: name the format with "
             "--to csv or --to parquet")
    return ExportFormat(suffix)


def _match_filter(players: list[str] | None, event: str | None, site: str | None,
                  since: str | None, until: str | None,
                  aliases: Path | None) -> MatchFilter:
    """The filters of the options; a usage error (exit 2) for a date or an aliases file
    that cannot be read."""
    import datetime as dt

    from bgtools.data.context import MatchFilter, read_aliases

    dates: list[dt.date | None] = []
    for name, text in (("--since", since), ("--until", until)):
        if text is None:
            dates.append(None)
            continue
        try:
            dates.append(dt.date.fromisoformat(text.strip()))
        except ValueError:
            fail(f"{name} {text!r} is not a date YYYY-MM-DD")
    names: dict[str, str] = {}
    if aliases is not None:
        try:
            names = read_aliases(aliases)
        except OSError as exc:
            fail(f"cannot read --aliases {aliases}: {exc.strerror or exc}")
        except (ValueError, UnicodeDecodeError) as exc:
            fail(f"--aliases: {exc}")
    return MatchFilter(tuple(players or ()), event, site, dates[0], dates[1], names)


def _note_duplicates(count: int, marked: bool = False) -> None:
    """Say how many matches were copies of one read already: counted once, or (``export``)
    marked."""
    if count:
        done = "marked duplicate" if marked else "counted once"
        note(f"{count} duplicate match(es) {done} (the same played content as a match "
             "read before)")


class _Abort(Exception):
    """Stop a run whose output must not be written: a message and an exit code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class DataRun:
    """How a data command's run went: files used, skipped (invalid) and unreadable, and
    the exit code so far."""

    # A plain class: a dataclass is generated at import, by every command's start-up.
    __slots__ = ("code", "skipped", "unreadable", "used")

    def __init__(self) -> None:
        self.used = 0
        self.skipped = 0
        self.unreadable = 0
        self.code = 0


def _run_data(job: Callable[..., FileReport], paths: list[str], jobs: int | None,
              quiet: bool, on_payload: Callable[[dict[str, Any], str], None],
              expanded: list[Input] | None = None, **options: Any) -> DataRun:
    """Run a data job over ``paths`` (or the inputs ``expanded``); give each used file's
    payload and name to ``on_payload`` in input order. Unreadable files are one error line,
    invalid files left out one note.
    Raise :class:`_Abort` after Ctrl-C, without input, or without a file to use."""
    from bgtools.cli.progress import print_summary, run_batch, stderr_is_terminal
    from bgtools.data.jobs import payload_of, skip_note

    run = DataRun()

    def report(result: FileReport) -> None:
        if result.error is not None:
            print_error(result.error)
            run.unreadable += 1
            run.code = 2
            return
        payload = payload_of(result)
        if payload is None:
            note(skip_note(result))
            run.skipped += 1
            run.code = max(run.code, 1)
            return
        run.used += 1
        if not result.valid:  # kept by --include-invalid
            run.code = max(run.code, 1)
        on_payload(payload, result.display)

    summary = run_batch(job, paths, resolve_jobs(jobs), quiet, report, expanded=expanded,
                        **options)
    if (summary.interrupted or summary.done > 1) and stderr_is_terminal() and not quiet:
        print_summary(summary, make_console(stderr=True))
    if summary.interrupted:
        raise _Abort(f"interrupted after {summary.done} file(s); nothing written",
                     EXIT_INTERRUPTED)
    if summary.done == 0:
        raise _Abort("no match files found", 2)
    if run.used == 0:
        # Unreadable files have had their error line; invalid ones only a note.
        message = (f"no match file to use ({run.skipped} invalid, left out; "
                   "--include-invalid keeps them)") if run.skipped else ""
        raise _Abort(message, max(run.code, 1))
    return run


# --- stats ----------------------------------------------------------------------------------


@app.command()
def stats(
    paths: Paths,
    by: Annotated[Grouping, typer.Option("--by", metavar="player|site|file",
                                         help="Group the counts by player, site "
                                         "(the Site or Place tag) or file.")] = Grouping.player,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object (kind "
                                          "\"stats\"), no tables.")] = False,
    plot: Annotated[Path | None, typer.Option("--plot", metavar="FILE",
                                              help="Also draw observed against expected "
                                              "rolls to FILE (.png or .svg; needs "
                                              "bgtools[plot]).", show_default=False)] = None,
    force: Force = False,
    include_invalid: IncludeInvalid = False,
    rules: RulesOption = "auto",
    jobs: JobsOption = None,
    player: PlayerFilter = None,
    event: EventFilter = None,
    site: SiteFilter = None,
    since: SinceFilter = None,
    until: UntilFilter = None,
    aliases: AliasesOption = None,
    scheduler: SchedulerOption = None,
) -> None:
    """Dice, hits, cube and game statistics by player, site or file.

    Rolls by kind (21) and, where a record keeps the order rolled, ordered outcomes (36),
    each with a chi-square test against fair dice; each die's faces; doubles; dances from
    the bar against the number expected from the open points; hits; doubles, takes, drops
    and beavers; games by result. Opening rolls are counted but left out of the tests.
    """
    from bgtools.data.context import Seen
    from bgtools.data.stats import Tally, add_file, stats_json, stats_report

    check_rules(rules)
    check_scheduler(scheduler, jobs)
    filters = _match_filter(player, event, site, since, until, aliases)
    plot_format = None
    if plot is not None:
        from bgtools.data.plot import PlotUnavailableError, check_plot

        try:
            plot_format = check_plot(plot.name)
        except PlotUnavailableError as exc:
            fail(str(exc))
        _check_output(plot, force, paths, "--plot")
    tallies: dict[str, Tally] = {}
    matches = 0
    seen = Seen()

    def add(payload: dict[str, Any], display: str) -> None:
        nonlocal matches
        matches += add_file(payload, display, seen, tallies)

    try:
        run = _run_data(stats_report, paths, jobs, as_json, add, rules=rules, by=by.value,
                        include_invalid=include_invalid, filters=filters,
                        scheduler=scheduler)
    except _Abort as exc:
        fail(exc.message, exc.code)
    if not as_json:  # the object says it: duplicate_matches
        _note_duplicates(seen.duplicates)
    obj = stats_json(tallies, by.value, run.used, run.skipped, matches, seen.duplicates)
    if plot is not None and plot_format is not None:
        _write_plot(plot, plot_format, obj, force)
    if as_json:
        emit_json(obj)
    else:
        _print_stats(make_console(), obj)
    raise typer.Exit(run.code)


def _write_plot(plot: Path, fmt: str, obj: dict[str, Any], force: bool) -> None:
    from bgtools.data.plot import render_plot
    from bgtools.write.atomic import OutputRefusedError, write_bytes_atomically

    try:
        write_bytes_atomically(plot, render_plot(obj, fmt), overwrite=force)
    except OutputRefusedError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {plot}: {exc.strerror or exc}")
    note(f"wrote {plot}")


BLANK_CELLS = ("0", "-", "")
"""The cells of a data table that say nothing: a column of them goes first when the table
is too wide for the terminal."""


def _p(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3g}" if value >= 0.001 else f"{value:.1e}"


def _table(title: str, by: str, columns: list[str]) -> Table:
    from rich.table import Table

    table = Table(title=title, title_justify="left", pad_edge=False)
    table.add_column(by, overflow="fold")
    for col in columns:
        table.add_column(col, justify="right", no_wrap=True)
    return table


def _print_stats(console: Console, obj: dict[str, Any]) -> None:
    from rich.markup import escape

    by = obj["by"]
    key = {"player": "players", "site": "sites", "file": "files"}[by]
    groups: dict[str, Any] = dict(obj[key])
    if len(groups) > 1:
        groups["(all)"] = obj["all"]
    dice = _table("Dice: every roll but each game's opening one; p-values against fair dice",
                  by,
                  ["rolls", "doubles", "p", "21 kinds", "ordered", "36 ord."])
    faces = _table("Faces of both dice, every roll", by, ["1", "2", "3", "4", "5", "6", "p"])
    bar = _table("From the bar, and hits", by,
                 ["rolls", "dances", "expected", "p", "hits"])
    cube = _table("The cube", by, ["doubled", "took", "dropped", "beavered", "raccooned",
                                   "top cube"])
    games_table = _table("Games", by, ["games", "won-lost", "single", "gammon", "backgammon",
                                       "resigned"])
    for name, g in groups.items():
        label = escape(name)
        rate = g["doubles_rate"]
        dice.add_row(
            label, str(g["tested_rolls"]),
            f"{g['tested_doubles']} {rate:.1%}" if rate is not None else "0",
            _p(g["doubles_test"]["p_value"]) if g["doubles_test"] else "-",
            _p(g["chi_square"]["p_value"]) if g["chi_square"] else "-",
            str(g["ordered"]["rolls"]),
            _p(g["ordered"]["chi_square"]["p_value"]) if g["ordered"]["chi_square"] else "-")
        faces.add_row(label, *(str(g["dice"][str(f)]) for f in range(1, 7)),
                      _p(g["dice_chi_square"]["p_value"]) if g["dice_chi_square"] else "-")
        test = g["dance_test"]
        bar.add_row(label, str(g["bar_rolls"]), str(g["dances"]),
                    f"{g['expected_dances']:.1f}", _p(test["p_value"]) if test else "-",
                    str(g["hits"]))
        c, games = g["cube"], g["games"]
        won, lost, results = games["won"], games["lost"], games["results"]
        cube.add_row(label, str(c["doubles"]), str(c["takes"]), str(c["drops"]),
                     str(c["beavers"]), str(c["raccoons"]), str(c["highest"]))
        games_table.add_row(
            label, str(games["played"]),
            f"{sum(won.values())}-{sum(lost.values())}" if won is not None and lost is not None
            else "-",
            str(results["single"]), str(results["gammon"]), str(results["backgammon"]),
            str(games["resigned"]) if games["resigned"] is not None
            else str(games["ended_by"]["resign"]))
    # At a narrow terminal, the columns that say nothing go first, then the least needed.
    drops = {dice: ("36 ord.", "ordered", "21 kinds"), faces: ("p",),
             bar: ("expected", "p"), cube: ("raccooned", "beavered", "top cube"),
             games_table: ("resigned", "backgammon", "gammon", "single")}
    for table, drop in drops.items():
        console.print(fit_table(console, table, drop=drop, blank=BLANK_CELLS))
    console.print(f"{obj['files_read']} file(s) read, {obj['files_skipped']} left out as "
                  "invalid. p: two-sided for doubles and dances, chi-square for the 21 kinds, "
                  "the faces and the 36 ordered outcomes (only records that keep the order "
                  "rolled).")


# --- standings ------------------------------------------------------------------------------


@app.command()
def standings(
    paths: Paths,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (kind "
                                          "\"standings\").")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV: a row per player, then "
                                         "one per opponent.")] = False,
    include_invalid: IncludeInvalid = False,
    rules: RulesOption = "auto",
    jobs: JobsOption = None,
    player: PlayerFilter = None,
    event: EventFilter = None,
    site: SiteFilter = None,
    since: SinceFilter = None,
    until: UntilFilter = None,
    aliases: AliasesOption = None,
    scheduler: SchedulerOption = None,
) -> None:
    """Matches played and won, and points, per player and pair.

    Per player across matches: matches played, won, lost and unfinished, points for and
    against, and the same for every pair of players. Money sessions are counted but score
    nothing."""
    from bgtools.data.context import Seen
    from bgtools.data.standings import Standings, standings_report

    check_rules(rules)
    check_scheduler(scheduler, jobs)
    if as_json and as_csv:
        fail("choose one of --json and --csv")
    filters = _match_filter(player, event, site, since, until, aliases)
    table = Standings()
    seen = Seen()

    def add(payload: dict[str, Any], display: str) -> None:
        for print_, number, outcome in payload["outcomes"]:
            if seen.first(print_, display, number) is None:
                table.add(outcome)

    try:
        run = _run_data(standings_report, paths, jobs, as_json or as_csv, add, rules=rules,
                        include_invalid=include_invalid, filters=filters,
                        scheduler=scheduler)
    except _Abort as exc:
        fail(exc.message, exc.code)
    if not as_json:  # the object says it: duplicate_matches
        _note_duplicates(seen.duplicates)
    if as_json:
        emit_json(table.to_json(run.used, run.skipped, seen.duplicates))
    elif as_csv:
        sys.stdout.write(table.to_csv())
    else:
        _print_standings(make_console(), table)
    raise typer.Exit(run.code)


def _print_standings(console: Console, table: Standings) -> None:
    from rich.markup import escape
    from rich.table import Table

    main = Table(title=f"standings: {table.matches} match(es)"
                 + (f", {table.money_sessions} money session(s)" if table.money_sessions
                    else ""))
    for col in ("#", "player", "matches", "won", "lost", "unfinished", "points for",
                "points against", "diff"):
        main.add_column(col, justify="left" if col == "player" else "right")
    pairs = Table(title="pair by pair")
    for col in ("player", "opponent", "matches", "won", "lost", "points", ):
        pairs.add_column(col, justify="left" if col in ("player", "opponent") else "right")
    rank = 0
    for name in table.order():
        standing = table.players[name]
        total = standing.total
        if total.matches == 0:
            continue
        rank += 1
        main.add_row(str(rank), escape(name), str(total.matches), str(total.wins),
                     str(total.losses), str(total.unfinished), str(total.points_for),
                     str(total.points_against), f"{total.points_for - total.points_against:+d}")
        for other in sorted(standing.opponents):
            rec = standing.opponents[other]
            pairs.add_row(escape(name), escape(other), str(rec.matches), str(rec.wins),
                          str(rec.losses), f"{rec.points_for}-{rec.points_against}")
    console.print(fit_table(console, main, drop=("points for", "points against", "#",
                                                 "matches"), blank=BLANK_CELLS))
    console.print(fit_table(console, pairs, drop=("matches",), blank=BLANK_CELLS))


# --- export ---------------------------------------------------------------------------------


class ExportTable(str, Enum):
    """The tables of ``export --table``."""

    actions = "actions"
    cubes = "cubes"
    games = "games"
    matches = "matches"


def _is_dataset(output: str) -> bool:
    """True when ``-o`` names a dataset folder: it ends with a slash or is a directory."""
    return output.endswith(("/", "\\")) or Path(output).is_dir()


@app.command()
def export(
    paths: Paths,
    output: Annotated[str, typer.Option(
        "--output", "-o", metavar="TARGET", show_default=False,
        help="A file to write (format from its extension); DIR/ (or an existing "
        "folder): a Parquet dataset of every table; - for CSV on standard output.")],
    to: Annotated[ExportFormat | None, typer.Option(
        "--to", help="csv, or parquet (needs bgtools[parquet]); default: the extension of "
        "the output (.csv or .parquet).", metavar="csv|parquet", show_default=False)] = None,
    table: Annotated[ExportTable, typer.Option(
        "--table", metavar="TABLE",
        help="The table a file (or -) holds: actions, cubes, games or matches (one row "
        "per action, cube decision, game or match).")] = ExportTable.actions,
    append: Annotated[bool, typer.Option(
        "--append", help="Add to an existing dataset (DIR/) only the inputs it does not "
        "hold yet.")] = False,
    force: Force = False,
    include_invalid: IncludeInvalid = False,
    rules: RulesOption = "auto",
    jobs: JobsOption = None,
    player: PlayerFilter = None,
    event: EventFilter = None,
    site: SiteFilter = None,
    since: SinceFilter = None,
    until: UntilFilter = None,
    aliases: AliasesOption = None,
    scheduler: SchedulerOption = None,
) -> None:
    """Actions, cube decisions, games and matches as tables.

    A file (CSV or Parquet) holds one table (--table, default actions: one row per
    replayed action, with its match's context); DIR/ is a Parquet dataset of all four, one
    folder per table, partitioned by site and year. A match met twice (the same played
    content) is marked duplicate. A file is written to a temporary file and renamed when
    complete, a dataset's new files moved in at the end: nothing is written after an error
    that stops the run or Ctrl-C.
    """
    from bgtools.data.export import TABLES

    check_rules(rules)
    check_scheduler(scheduler, jobs)
    filters = _match_filter(player, event, site, since, until, aliases)
    if output == "-":
        if to is not None and to is not ExportFormat.csv:
            fail("export -o - writes CSV only")
        if append:
            fail("--append adds to a dataset (-o DIR/)")
        _export_file(paths, None, ExportFormat.csv, table.value, force, include_invalid,
                     rules, jobs, filters, scheduler)
    if _is_dataset(output):
        if to is ExportFormat.csv:
            fail("export to a folder writes a Parquet dataset: --to csv needs a file name")
        _export_dataset(paths, Path(output), append, force, include_invalid, rules, jobs,
                        filters, scheduler)
    if append:
        fail("--append adds to a dataset: name a folder, -o DIR/")
    target = Path(output)
    fmt = to if to is not None else _export_format_of(target)
    assert table.value in TABLES
    _export_file(paths, target, fmt, table.value, force, include_invalid, rules, jobs,
                 filters, scheduler)


def _export_file(paths: list[str], output: Path | None, fmt: ExportFormat, table: str,
                 force: bool, include_invalid: bool, rules: str, jobs: int | None,
                 filters: MatchFilter, scheduler: str | None) -> NoReturn:
    """``export`` into one file (``output``; None: CSV to standard output): one table."""
    from bgtools.data.context import Seen
    from bgtools.data.export import (
        ExportUnavailableError,
        check_format,
        export_report,
        mark_duplicate,
        open_sink,
    )
    from bgtools.write.atomic import OutputRefusedError, open_atomically

    try:
        check_format(fmt.value)
    except ExportUnavailableError as exc:
        fail(str(exc))
    if output is not None:
        _check_output(output, force, paths, "-o")
    seen = Seen()
    as_text = fmt is ExportFormat.csv
    rows = 0

    def run_into(handle: Any) -> DataRun:
        nonlocal rows
        sink = open_sink(fmt.value, handle, table, rules)

        def write(payload: dict[str, Any], display: str) -> None:
            for chunk in payload["matches"]:
                first = seen.first(chunk["fingerprint"], chunk["file"], chunk["match"])
                if first is not None:
                    mark_duplicate(chunk, first, as_text)
                sink.write(chunk)

        run = _run_data(export_report, paths, jobs, output is None, write, rules=rules,
                        include_invalid=include_invalid, to=fmt.value, tables=(table,),
                        filters=filters, scheduler=scheduler)
        sink.close()
        rows = sink.rows
        return run

    try:
        if output is None:
            run = run_into(sys.stdout.buffer)
            sys.stdout.buffer.flush()
        else:
            with open_atomically(output, overwrite=force) as handle:
                run = run_into(handle)
    except _Abort as exc:
        fail(exc.message, exc.code)
    except OutputRefusedError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {output or 'standard output'}: {exc.strerror or exc}")
    _note_duplicates(seen.duplicates, marked=True)
    if output is not None:
        note(f"wrote {output} ({fmt.value}, {rows:,} row(s) from {run.used} file(s))")
    raise typer.Exit(run.code)


def _export_dataset(paths: list[str], directory: Path, append: bool, force: bool,
                    include_invalid: bool, rules: str, jobs: int | None,
                    filters: MatchFilter, scheduler: str | None) -> NoReturn:
    """``export -o DIR/``: every table into a Parquet dataset; ``append``: only the inputs
    the dataset does not hold yet, duplicates marked against what it holds."""
    from bgtools.data.context import Seen
    from bgtools.data.export import (
        TABLES,
        DatasetSink,
        ExportUnavailableError,
        check_format,
        dataset_inputs,
        export_report,
        mark_duplicate,
    )
    from bgtools.readers.inputs import expand_paths

    try:
        check_format("parquet")
    except ExportUnavailableError as exc:
        fail(str(exc))
    if directory.exists() and not directory.is_dir():
        fail(f"-o {directory} is not a folder")
    holds = directory.is_dir() and any(directory.iterdir())
    if holds and not append and not force:
        fail(f"-o {directory} is not empty: --append adds to the dataset, --force adds "
             "beside what it holds")
    if not directory.parent.is_dir():
        fail(f"cannot write {directory}: no such directory {directory.parent}")
    seen = Seen()
    known: set[str] = set()
    if append and holds:
        try:
            known, firsts = dataset_inputs(directory)
        except Exception as exc:  # noqa: BLE001 - pyarrow's errors name no common type
            fail(f"cannot read the dataset {directory}: {exc}")
        seen.firsts.update(firsts)
    inputs = [item for item in expand_paths(paths) if item.display not in known]
    if known and not inputs:
        note(f"{directory}: every input is in the dataset already; nothing to add")
        raise typer.Exit(0)
    try:
        directory.mkdir(exist_ok=True)
    except OSError as exc:
        fail(f"cannot write {directory}: {exc.strerror or exc}")
    sink = DatasetSink(directory, rules)

    def write(payload: dict[str, Any], display: str) -> None:
        for chunk in payload["matches"]:
            first = seen.first(chunk["fingerprint"], chunk["file"], chunk["match"])
            if first is not None:
                mark_duplicate(chunk, first, False)
            sink.write(chunk)

    try:
        run = _run_data(export_report, paths, jobs, False, write, expanded=inputs,
                        rules=rules, include_invalid=include_invalid, to="parquet",
                        tables=tuple(TABLES), filters=filters, scheduler=scheduler)
        sink.close()
    except _Abort as exc:
        sink.discard()
        fail(exc.message, exc.code)
    except OSError as exc:
        sink.discard()
        fail(f"cannot write {directory}: {exc.strerror or exc}")
    except BaseException:
        sink.discard()
        raise
    _note_duplicates(seen.duplicates, marked=True)
    counts = ", ".join(f"{sink.table_rows[name]:,} {name}" for name in TABLES)
    note(f"wrote {directory} (parquet dataset: {counts}; from {run.used} file(s))")
    raise typer.Exit(run.code)
