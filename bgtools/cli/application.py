"""The Typer application and what its commands share: options, consoles, JSON lines.

The commands live in one module per group (:mod:`bgtools.cli.validate`,
:mod:`bgtools.cli.answers`, :mod:`bgtools.cli.convert`, :mod:`bgtools.cli.data`) and register
themselves on :data:`app`; :mod:`bgtools.cli` imports them all. Heavy modules (Rich, Lark,
the readers) are imported inside the functions so that ``bgtools --help`` starts fast.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from typer.core import TyperCommand

from bgtools.cli.errors import fail, silence_stream

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping, Sequence

    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

__all__ = [
    "JobsOption",
    "JsonOption",
    "Paths",
    "RulesOption",
    "SchedulerOption",
    "app",
    "app_for",
    "check_rules",
    "check_scheduler",
    "command_name",
    "emit_json",
    "fit_table",
    "make_console",
    "no_files_message",
    "output_width",
    "resolve_jobs",
]

class _Command(TyperCommand):
    """A command whose usage line names its arguments as their help does (``PATH...``,
    ``[DICE]``): Typer would write a required argument in braces (``{PATH}``)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """The pieces of the usage line: ``[OPTIONS]``, then each argument's metavar."""
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                pieces.append(param.make_metavar(ctx))
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces


class _Typer(typer.Typer):
    """The Typer app, its commands made with :class:`_Command` unless told otherwise."""

    def command(self, *args: Any, cls: type[TyperCommand] | None = None,
                **kwargs: Any) -> Callable[[_F], _F]:
        """Register a command (as :meth:`typer.Typer.command`)."""
        register: Callable[[_F], _F] = super().command(*args, cls=cls or _Command, **kwargs)
        return register


_F = TypeVar("_F", bound=Callable[..., Any])


app = _Typer(
    name="bgtools",
    help="Validate, replay and inspect backgammon match files (.mat, SGF, .xg, .bgf).",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    # Click's plain help: paragraphs reflowed to the terminal (at most 80 columns), no boxes,
    # and no Rich to import for --help.
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 80},
)
"""The ``bgtools`` command line."""


def app_for(args: Sequence[str]) -> typer.Typer:
    """The app to run on the command line ``args``: when they name a command (after the
    global options, which take no value), a copy of :data:`app` that holds only that
    command, else :data:`app` itself.

    Typer builds the Click command of every registered command at every start (their
    signatures, types and help), which costs more than reading a small file.
    A run needs only its own command, and its usage, help and errors are the same.
    """
    chosen = _chosen_app(args)
    for info in chosen.registered_commands:
        _resolve_annotations(info.callback)
    return chosen


def command_name(args: Sequence[str]) -> str | None:
    """The command that the command line ``args`` names: the first argument that is not a
    global option (they take no value); None when there is none before ``--``."""
    for arg in args:
        if arg == "--":
            return None
        if not arg.startswith("-"):
            return arg
    return None


def _chosen_app(args: Sequence[str]) -> typer.Typer:
    wanted = command_name(args)
    if wanted is not None:
        for info in app.registered_commands:
            callback = info.callback
            name = info.name or (callback and typer.main.get_command_name(callback.__name__))
            if name == wanted:
                single = copy.copy(app)
                single.registered_commands = [info]
                return single
    return app


def _resolve_annotations(callback: Callable[..., Any] | None) -> None:
    """Replace the text of ``callback``'s annotations by what they name, once: Typer reads
    a command's annotations with ``typing.get_type_hints`` three times while it builds it,
    and each read of a text annotation compiles it anew."""
    annotations = getattr(callback, "__annotations__", None)
    if callback is None or not annotations or not any(
            isinstance(value, str) for value in annotations.values()):
        return
    from typing import get_type_hints

    callback.__annotations__ = get_type_hints(callback, include_extras=True)


def _version(value: bool) -> None:
    if value:
        from bgtools import __version__
        from bgtools.build import build_name

        sys.stdout.write(f"bgtools {__version__} ({build_name()})\n")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Validate, replay and inspect backgammon match files (.mat, SGF, .xg, .bgf)."""


def _check_jobs(value: int | None) -> int | None:
    if value is not None and value < 1:
        raise typer.BadParameter(f"{value}: give 1 or more worker processes")
    return value


Paths = Annotated[
    list[str],
    typer.Argument(metavar="PATH...", show_default=False,
                   help="Match files, directories or quoted globs."),
]
"""The input paths of the commands that read many files (files, directories, globs)."""

RulesOption = Annotated[
    str,
    typer.Option("--rules", metavar="PROFILE", show_default=False,
                 help="House rules: standard, galaxy, studio, xg, megammon, pieceofcake, nocube, "
                 "cube3, match-resign, nocrawford, or auto (the default: the file's site, "
                 "else standard)."),
]
"""``--rules PROFILE``; check its value with :func:`check_rules`."""

JobsOption = Annotated[
    int | None,
    typer.Option("--jobs", "-j", metavar="N", show_default=False, callback=_check_jobs,
                 help="Worker processes (default: one per core; 1: none)."),
]
"""``--jobs N``; :func:`resolve_jobs` gives the default."""

SchedulerOption = Annotated[
    str | None,
    typer.Option("--scheduler", metavar="ADDRESS", show_default=False,
                 help="Run on a Dask cluster: its scheduler's tcp://HOST:PORT, or local for "
                 "--jobs worker processes on this machine (needs bgtools[dask]). Same "
                 "output as --jobs."),
]
"""``--scheduler ADDRESS``; check it with :func:`check_scheduler`."""

JsonOption = Annotated[bool, typer.Option("--json", help="One JSON object per file.")]
"""``--json``: one JSON object per input file on stdout."""


def no_files_message(paths: Sequence[str]) -> str:
    """The error when ``paths`` hold no match file: it names them (an empty directory, a
    directory of other files)."""
    return f"{', '.join(paths)}: no match files found"


def check_rules(rules: str) -> None:
    """Exit with a usage error unless ``rules`` names a rule profile (or ``auto``)."""
    from bgtools.replay import PROFILE_NAMES

    if rules not in PROFILE_NAMES:
        fail(f"unknown rule profile {rules!r}; choose one of {', '.join(PROFILE_NAMES)}")


def check_scheduler(scheduler: str | None, jobs: int | None) -> None:
    """Exit with a one-line error unless ``--scheduler`` (when given) is ``local`` or a
    scheduler's address and Dask is installed; ``--jobs`` goes with ``local`` only (a
    cluster elsewhere has the workers it has)."""
    if scheduler is None:
        return
    from bgtools.batch.cluster import LOCAL
    from bgtools.batch.cluster import check_scheduler as check_address
    from bgtools.errors import BgtoolsError

    try:
        check_address(scheduler)
    except BgtoolsError as exc:
        fail(str(exc))
    if jobs is not None and scheduler != LOCAL:
        fail(f"--jobs sets the workers of --scheduler {LOCAL} only; the cluster at "
             f"{scheduler} has its own")


def resolve_jobs(jobs: int | None) -> int:
    """The number of worker processes: ``--jobs``, or by default the number of cores;
    never more than the cores (a note on stderr says so). The pool starts no more workers
    than there are inputs."""
    from bgtools.batch import default_jobs

    cores = default_jobs()
    if jobs is None:
        return cores
    if jobs > cores:
        from bgtools.cli.errors import note

        note(f"--jobs {jobs}: only {cores} core(s); running {cores} worker process(es)")
        return cores
    return jobs


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
    to no terminal (:func:`output_width`). A closed pipe ends the command quietly. Every
    string it draws (text, table cells, titles) shows its control characters escaped
    (:func:`bgtools.cli.terminal.terminal_text`): a line break in a cell or a title too,
    so a multi-line cell must be given as a Rich ``Text``."""
    return _quiet_pipe_console_class()(stderr=stderr, highlight=False, emoji=False,
                                       soft_wrap=True, width=output_width(stderr))


@cache
def _quiet_pipe_console_class() -> type[Console]:
    """Rich's Console, but a closed pipe (``bgtools score DIR | head -1``) ends the command
    with exit code 0, as ``--json`` does: Rich's own default exits 1, which the contract
    reserves for input with errors."""
    from rich.console import Console

    from bgtools.cli.terminal import terminal_text

    class QuietPipeConsole(Console):
        """A console whose closed pipe ends the command quietly with exit code 0, and whose
        strings show their control characters escaped."""

        def render_str(self, text: str, **options: Any) -> Text:
            """The Rich ``Text`` of ``text`` (markup read as usual), its control characters
            escaped first: an ESC or a line break from a file prints as ``\\xNN``."""
            return super().render_str(terminal_text(text), **options)

        def on_broken_pipe(self) -> None:
            """Write nothing more anywhere on this stream, and end with exit code 0."""
            self.quiet = True
            silence_stream(self.file)
            raise typer.Exit(0)

    return QuietPipeConsole


def fit_table(console: Console, table: Table, drop: Sequence[str],
              blank: Collection[str] = ()) -> Table:
    """Fit ``table`` to ``console``'s width: first put each word of the headers on its own
    line, then remove the columns whose every cell is in ``blank`` (such as ``"0"``: a
    column that says nothing), then those whose headers are in ``drop``, in that order,
    while it is still too wide; the columns left fold as Rich folds them.

    At a narrow terminal this keeps every cell of the columns that matter readable instead
    of cutting every column short. Returns ``table`` (changed in place).
    """
    from rich.measure import Measurement

    unlimited = console.options.update_width(UNLIMITED_WIDTH)

    def fits() -> bool:
        return Measurement.get(console, unlimited, table).maximum <= console.width

    if fits():
        return table
    from rich.text import Text

    for column in table.columns:
        if isinstance(column.header, str):
            # A Text, whose line breaks the console keeps (it escapes those of a string).
            column.header = Text("\n").join(console.render_str(word)
                                            for word in column.header.split())
    empty = [" ".join(str(c.header).split()) for c in table.columns
             if blank and all(isinstance(cell, str) and cell in blank for cell in c.cells)]
    for header in [*empty, *drop]:
        if fits():
            break
        table.columns[:] = [c for c in table.columns
                            if " ".join(str(c.header).split()) != header]
    return table


def emit_json(obj: Mapping[str, object]) -> None:
    """Print ``obj`` as one JSON line on stdout (UTF-8 as written, not ``\\u`` escapes)."""
    import json  # here, not at the top: ``bgtools --help`` needs no JSON (~5 M instructions)

    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
