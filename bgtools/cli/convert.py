"""The ``convert`` command: one match file to ``.mat``, SGF or bgtools JSON.

A thin Typer command over :mod:`bgtools.reports.convert` (reading, replaying, rendering) and
:mod:`bgtools.write.atomic` (writing). Registered on :data:`bgtools.cli.app.app` when
:mod:`bgtools.cli` imports this module.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from bgtools.cli.app import RulesOption, app, check_rules
from bgtools.cli.errors import fail
from bgtools.errors import EXIT_PROBLEMS

__all__ = ["convert"]

_SHOWN_PROBLEMS = 10


HELP = (
    "Convert a match to .mat, SGF or JSON.\n\n"
    "The .mat is written as GNU Backgammon exports it. "
    "A record with errors is not converted (exit 1). OUT is written to a temporary file and "
    "renamed, so it is complete or absent; IN is never modified; an existing OUT is kept "
    "unless --force is given."
)
"""The command's --help text (one paragraph a line: Typer keeps a docstring's line breaks)."""


@app.command(help=HELP)
def convert(  # noqa: C901 - one error path per way a conversion can fail, each with its exit code
    source: Annotated[Path, typer.Argument(help="The match file (.mat, SGF, JSON...).",
                                            metavar="IN", show_default=False)],
    output: Annotated[str, typer.Option("--output", "-o",
                                        help="The file to write ('-': stdout).",
                                        metavar="OUT", show_default=False)],
    to: Annotated[str | None, typer.Option("--to", metavar="mat|sgf|json",
                                           help="The format to write (default: from OUT's "
                                           "extension).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace OUT if it exists.")] = False,
    rules: RulesOption = "auto",
) -> None:
    """Convert a match file to .mat (as GNU Backgammon exports it), SGF or JSON (help: HELP)."""
    from bgtools.errors import BgtoolsError, describe_error
    from bgtools.reports.convert import (
        ConversionError,
        InvalidRecordError,
        convert_file,
        target_format,
    )
    from bgtools.reports.files import problem_text
    from bgtools.write.atomic import write_atomically
    from bgtools.write.mat import UnwritableRecordError

    check_rules(rules)
    to_stdout = output == "-"
    if to_stdout and to is None:
        fail("writing to standard output needs --to mat|sgf|json")
    try:
        fmt = target_format(output, to)
    except ConversionError as exc:
        fail(str(exc))
    if not source.exists():
        fail(f"{source}: no such file")
    if not source.is_file():
        fail(f"{source} is not a regular file")
    target = Path(output)
    if not to_stdout:
        if target.exists() and source.resolve() == target.resolve():
            fail(f"{output} is the input file; bgtools never overwrites its input")
        if target.exists() and not force:
            fail(f"{output} exists; use --force to replace it")
        if target.is_dir():
            fail(f"{output} is a directory")
    try:
        conversion = convert_file(source, fmt, rules=rules)
    except InvalidRecordError as exc:
        for prob in exc.problems[:_SHOWN_PROBLEMS]:
            sys.stderr.write(problem_text(str(source), prob.to_json()))
        if len(exc.problems) > _SHOWN_PROBLEMS:
            sys.stderr.write(f"... and {len(exc.problems) - _SHOWN_PROBLEMS} more\n")
        fail(str(exc), EXIT_PROBLEMS)
    except UnwritableRecordError as exc:
        fail(f"{source}: {exc}", EXIT_PROBLEMS)
    except (OSError, BgtoolsError) as exc:
        # An input that cannot be read exits 2, even a syntax error (whose own code is 1).
        fail(describe_error(exc, "" if isinstance(exc, BgtoolsError) else str(source))[0])
    if to_stdout:
        sys.stdout.write(conversion.text)
        return
    try:
        write_atomically(target, conversion.text, overwrite=force, protect=source)
    except FileExistsError:
        fail(f"{output} exists; use --force to replace it")
    except OSError as exc:
        fail(f"cannot write {output}: {exc.strerror or exc}")
    except BgtoolsError as exc:
        fail(str(exc))
    games = len(conversion.replay.games)
    sys.stderr.write(f"bgtools: wrote {output} ({fmt}, {games} game{'s' if games != 1 else ''}"
                     f" from {conversion.source_format})\n")
