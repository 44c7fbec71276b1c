"""The Typer application and what its commands share: options, consoles, JSON lines.

The commands live in one module per group (:mod:`bgtools.cli.validate`,
:mod:`bgtools.cli.answers`, :mod:`bgtools.cli.convert`, :mod:`bgtools.cli.data`) and register
themselves on :data:`app`; :mod:`bgtools.cli` imports them all. Heavy modules (Rich, Lark,
the readers) are imported inside the functions so that ``bgtools --help`` starts fast.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bgtools.cli.errors import fail

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "JobsOption",
    "JsonOption",
    "Paths",
    "RulesOption",
    "app",
    "check_rules",
    "emit_json",
    "make_console",
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


def make_console(stderr: bool = False) -> Console:
    """A Rich console for the human output (on stderr when ``stderr``): no highlighting,
    no emoji codes, long lines left unbroken."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, emoji=False, soft_wrap=True)


def emit_json(obj: dict[str, Any]) -> None:
    """Print ``obj`` as one JSON line on stdout (UTF-8 as written, not ``\\u`` escapes)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
