"""The ``convert`` command: match files to ``.mat``, SGF, bgtools JSON or OGXM.

A thin Typer command over :mod:`bgtools.reports.convert` (reading, replaying, rendering,
naming the outputs of a directory) and the ``convert`` job of :mod:`bgtools.batch` (one
input converted and written atomically). Registered on :data:`bgtools.cli.application.app` when
:mod:`bgtools.cli` imports this module.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, cast

import typer

from bgtools.cli.application import JobsOption, RulesOption, app, check_rules, resolve_jobs
from bgtools.cli.errors import EXIT_INTERRUPTED, fail, note, print_error, print_problem
from bgtools.errors import EXIT_PROBLEMS, EXIT_UNUSABLE

if TYPE_CHECKING:
    from bgtools.batch import FileReport, Input
    from bgtools.reports.convert import TargetFormat
    from bgtools.reports.objects import ConvertInfo

__all__ = ["convert"]

_SHOWN_PROBLEMS = 10


HELP = (
    "Convert matches to .mat, SGF, JSON or OGXM.\n\n"
    "The .mat is written as GNU Backgammon exports it. One input goes to -o FILE (the format "
    "from --to or FILE's extension) or to -o - (standard output; JSON unless --to). Several "
    "inputs (files, directories, quoted globs) go to -o DIR/ (or an existing directory): one "
    "file per input, named after it (its path under a directory kept; m.mat and m.sgf "
    "become m.mat.json and m.sgf.json), JSON unless --to.\n\n"
    "A record with errors is not converted (exit 1). Each output is written to a temporary "
    "file and renamed, so it is complete or absent; no input is ever overwritten; an "
    "existing output is kept unless --force is given."
)
"""The command's --help text (one paragraph a line: Typer keeps a docstring's line breaks)."""

TO_METAVAR = "mat|sgf|json|ogxm"
"""The formats ``--to`` takes, as ``--help`` shows them: bgtools.write.formats.WRITE_FORMATS
(written out here: a command module imports no more than it needs at load time;
tests/project/test_formats.py holds the two equal)."""


@app.command(help=HELP)
def convert(
    sources: Annotated[list[str], typer.Argument(
        help="The match files to read (any format bgtools reads; directories and quoted "
             "globs with -o DIR/; '-' is standard input).",
        metavar="IN...", show_default=False)],
    output: Annotated[str, typer.Option(
        "--output", "-o", help="The file to write; DIR/ (or an existing directory): one file "
        "per input; '-': stdout.", metavar="OUT", show_default=False)],
    to: Annotated[str | None, typer.Option("--to", metavar=TO_METAVAR,
                                           help="The format (default: OUT's extension, "
                                           "else json).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace outputs that exist.")] = False,
    rules: RulesOption = "auto",
    jobs: JobsOption = None,
) -> None:
    """Convert match files to .mat, SGF, JSON or OGXM (help: HELP)."""
    from bgtools.reports.convert import ConversionError, target_format

    check_rules(rules)
    into_directory = output.endswith(("/", os.sep)) or (output != "-" and Path(output).is_dir())
    try:
        fmt = target_format(None if output == "-" or into_directory else output, to)
    except ConversionError as exc:
        fail(str(exc))
    if into_directory:
        _convert_into(sources, Path(output), fmt, force, rules, jobs)
    _convert_one(sources, output, fmt, force, rules)


def _single_input(sources: list[str], output: str) -> Input:
    """The one input of ``sources`` (read here: ``-`` is standard input); a usage error when
    there are several or none."""
    from itertools import islice

    from bgtools.readers.inputs import expand_paths

    if len(sources) > 1 or any(Path(s).is_dir() for s in sources if s != "-"):
        fail(f"several inputs need an output directory: -o {output.rstrip('/')}/")
    items = list(islice(expand_paths(sources), 2))
    if not items:
        fail("no match files found")
    if len(items) > 1:
        fail(f"{sources[0]} names several match files; several inputs need an output "
             f"directory: -o {output.rstrip('/')}/")
    return items[0]


def _convert_one(sources: list[str], output: str, fmt: TargetFormat, force: bool,
                 rules: str) -> NoReturn:
    """One input to the file ``output``, or to standard output (``-``)."""
    from bgtools.batch import convert_report
    from bgtools.errors import BgtoolsError
    from bgtools.reports.convert import PlannedOutput
    from bgtools.write.atomic import check_output, protected_input

    item = _single_input(sources, output)
    display, source, _ = item
    target = None if output == "-" else Path(output)
    if target is not None and source is not None:
        try:
            check_output(target, overwrite=force, protect=protected_input(source))
        except BgtoolsError as exc:
            fail(str(exc))
    plan = {display: PlannedOutput(display, target)}
    result = convert_report(item, fmt, plan, force=force, rules=rules)
    raise typer.Exit(_report(result, fmt))


def _convert_into(sources: list[str], directory: Path, fmt: TargetFormat, force: bool,
                  rules: str, jobs: int | None) -> NoReturn:
    """Every input of ``sources`` into ``directory``, one file each, with progress at a
    terminal and a summary line."""
    from bgtools.batch import convert_report
    from bgtools.cli.progress import run_batch
    from bgtools.reports.convert import ConversionError, plan_directory

    if directory.exists() and not directory.is_dir():
        fail(f"{directory} is not a directory")
    try:
        planned = plan_directory(sources, directory, fmt, force=force)
    except ConversionError as exc:
        fail(str(exc))
    for entry in planned.outputs.values():
        if entry.note is not None:
            note(entry.note)
    counts = {0: 0, EXIT_PROBLEMS: 0, EXIT_UNUSABLE: 0}
    existing = 0  # of the EXIT_UNUSABLE ones: refused because the output exists

    def report(result: FileReport) -> None:
        nonlocal existing
        code = _report(result, fmt)
        counts[code] += 1
        planned_output = planned.outputs.get(result.display)
        if code == EXIT_UNUSABLE and planned_output is not None and planned_output.exists:
            existing += 1

    summary = run_batch(convert_report, sources, resolve_jobs(jobs), False, report,
                        expanded=list(planned.inputs), fmt=fmt, plan=planned.outputs,
                        force=force, rules=rules, make_directories=True)
    done = sum(counts.values())
    if done == 0 and not summary.interrupted:
        fail("no match files found")
    shown = str(directory).rstrip("/") + "/"
    line = f"bgtools: converted {counts[0]} of {done} file(s) into {shown} ({fmt})"
    if counts[EXIT_PROBLEMS]:
        line += f"; {counts[EXIT_PROBLEMS]} not converted (errors in the record)"
    if existing:
        line += (f"; {existing} already exist (--force replaces them)" if existing > 1
                 else "; 1 already exists (--force replaces it)")
    if counts[EXIT_UNUSABLE] > existing:
        line += f"; {counts[EXIT_UNUSABLE] - existing} unreadable or refused"
    if summary.interrupted:
        line += f"; interrupted after {done} file(s)"
    sys.stderr.write(line + "\n")
    if summary.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)
    raise typer.Exit(max((code for code, count in counts.items() if count), default=0))


def _report(result: FileReport, fmt: TargetFormat) -> int:
    """Say what became of one input (stderr; the text itself on stdout for ``-o -``); its
    exit code: 0 converted, 1 not converted (errors in the record), 2 unreadable or
    refused."""
    from bgtools.cli.terminal import terminal_text

    if result.error is not None:
        print_error(result.error)
        return EXIT_UNUSABLE
    info = cast("ConvertInfo", result.extra[0])  # a convert job's
    written = info.get("text")
    if isinstance(written, bytes):  # a binary format
        sys.stdout.flush()
        sys.stdout.buffer.write(written)
        sys.stdout.buffer.flush()
        return 0
    if written is not None:
        sys.stdout.write(written)
        return 0
    if info["written"] is None:
        for prob in result.problems[:_SHOWN_PROBLEMS]:
            print_problem(result.display, prob)
        if len(result.problems) > _SHOWN_PROBLEMS:
            sys.stderr.write(f"... and {len(result.problems) - _SHOWN_PROBLEMS} more\n")
        print_error(info["reason"] or "")  # (always a reason when nothing was written)
        return EXIT_PROBLEMS
    games = info["games"]
    sys.stderr.write(terminal_text(f"bgtools: wrote {info['written']} ({fmt}, {games} game"
                                   f"{'s' if games != 1 else ''} from "
                                   f"{info['source_format']})") + "\n")
    return 0
