"""The Typer application and what its commands share: options, consoles, JSON lines.

The commands live in one module per group (:mod:`bgtools.cli.validate`,
:mod:`bgtools.cli.answers`, :mod:`bgtools.cli.convert`, :mod:`bgtools.cli.data`) and register
themselves on :data:`app`; :mod:`bgtools.cli` imports them all. Heavy modules (Rich, Lark,
the readers) are imported inside the functions so that ``bgtools --help`` starts fast.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bgtools.cli.errors import fail, silence_stream

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.console import Console
    from rich.table import Table

__all__ = [
    "JobsOption",
    "JsonOption",
    "Paths",
    "RulesOption",
    "app",
    "check_rules",
    "emit_json",
    "fit_table",
    "make_console",
    "output_width",
    "resolve_jobs",
]

app = typer.Typer(
    name="bgtools",
    help="Validate, replay and inspect backgammon match files (.mat, SGF).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
"""The ``bgtools`` command line."""


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


Paths = Annotated[
    list[str],
    typer.Argument(help="Match files or directories (read recursively).", show_default=False),
]
"""The input paths of the commands that read many files (files, directories, globs)."""

RulesOption = Annotated[
    str,
    typer.Option("--rules", help="House rules: auto (the site named in the file, else "
                 "standard), standard, galaxy, studio, megammon, pieceofcake, nocube, cube3 "
                 "or match-resign."),
]
"""``--rules PROFILE``; check its value with :func:`check_rules`."""

JobsOption = Annotated[
    int | None,
    typer.Option("--jobs", "-j", min=1, show_default=False,
                 help="Worker processes (default: the number of cores; 1: no workers)."),
]
"""``--jobs N``; :func:`resolve_jobs` gives the default."""

JsonOption = Annotated[bool, typer.Option("--json", help="One JSON object per file.")]
"""``--json``: one JSON object per input file on stdout."""


def check_rules(rules: str) -> None:
    """Exit with a usage error unless ``rules`` names a rule profile (or ``auto``)."""
    from bgtools.replay import PROFILE_NAMES

    if rules not in PROFILE_NAMES:
        fail(f"unknown rule profile {rules!r}; choose one of {', '.join(PROFILE_NAMES)}")


def resolve_jobs(jobs: int | None) -> int:
    """The number of worker processes: ``--jobs``, or by default the number of cores."""
    from bgtools.batch import default_jobs

    return default_jobs() if jobs is None else jobs


UNLIMITED_WIDTH = 100_000
"""The width of the human output when it goes to no terminal and ``COLUMNS`` is unset:
in effect none, so that a file, a pipe, CI or cron gets every cell whole."""


def output_width(stderr: bool = False) -> int | None:
    """The width to draw stdout's (or stderr's) human output at: ``COLUMNS`` when it is set,
    the terminal's own width (None: Rich asks the terminal), else :data:`UNLIMITED_WIDTH`."""
    import os

    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    stream = sys.stderr if stderr else sys.stdout
    try:
        at_terminal = stream.isatty()
    except (AttributeError, ValueError):
        at_terminal = False
    return None if at_terminal else UNLIMITED_WIDTH


def make_console(stderr: bool = False) -> Console:
    """A Rich console for the human output (on stderr when ``stderr``): no highlighting,
    no emoji codes, long lines left unbroken, and never cut to a width when the output goes
    to no terminal (:func:`output_width`). A closed pipe ends the command quietly."""
    return _quiet_pipe_console_class()(stderr=stderr, highlight=False, emoji=False,
                                       soft_wrap=True, width=output_width(stderr))


@cache
def _quiet_pipe_console_class() -> type[Console]:
    """Rich's Console, but a closed pipe (``bgtools score DIR | head -1``) ends the command
    with exit code 0, as ``--json`` does: Rich's own default exits 1, which the contract
    reserves for input with errors."""
    from rich.console import Console

    class QuietPipeConsole(Console):
        """A console whose closed pipe ends the command quietly with exit code 0."""

        def on_broken_pipe(self) -> None:
            """Write nothing more anywhere on this stream, and end with exit code 0."""
            self.quiet = True
            silence_stream(self.file)
            raise typer.Exit(0)

    return QuietPipeConsole


def fit_table(console: Console, table: Table, drop: Sequence[str]) -> Table:
    """Fit ``table`` to ``console``'s width: first put each word of the headers on its own
    line, then remove the columns whose headers are in ``drop``, in that order, while it is
    still too wide; the columns left fold as Rich folds them.

    At a narrow terminal this keeps every cell of the columns that matter readable instead
    of cutting every column short. Returns ``table`` (changed in place).
    """
    from rich.measure import Measurement

    unlimited = console.options.update_width(UNLIMITED_WIDTH)

    def fits() -> bool:
        return Measurement.get(console, unlimited, table).maximum <= console.width

    if fits():
        return table
    for column in table.columns:
        if isinstance(column.header, str):
            column.header = "\n".join(column.header.split())
    for header in drop:
        if fits():
            break
        table.columns[:] = [c for c in table.columns
                            if " ".join(str(c.header).split()) != header]
    return table


def emit_json(obj: dict[str, Any]) -> None:
    """Print ``obj`` as one JSON line on stdout (UTF-8 as written, not ``\\u`` escapes)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
