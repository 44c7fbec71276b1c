"""The ``bgtools`` command line: thin Typer commands over the library.

:mod:`bgtools.cli.app` holds the Typer :data:`app` and what the commands share; each group
of commands is a module that registers itself on it (:mod:`~bgtools.cli.validate`:
validate, replay, rules, plays; :mod:`~bgtools.cli.answers`: score, pips, status, show;
:mod:`~bgtools.cli.convert`; :mod:`~bgtools.cli.data`: stats, standings, export).
:mod:`bgtools.cli.errors` is the one place where errors become messages and exit codes
(0 ok, 1 problems in the input, 2 usage or unreadable input, 130 interrupted); never a
traceback. Heavy modules (Rich, Lark, the readers) are imported inside the commands so that
``bgtools --help`` starts fast.
"""

from __future__ import annotations

# Importing a command module registers its commands; --help lists them in this order.
# isort: off
from bgtools.cli import validate, answers, convert, data  # noqa: F401
# isort: on
import gc
import sys

from bgtools.cli.app import app, app_for
from bgtools.cli.errors import run_app

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point: run the app; errors end as one line and an exit code."""
    try:
        run_app(app_for(sys.argv[1:]))
    finally:
        # The process ends here: the interpreter's collections at exit would only rescan
        # the whole heap (7 % of a one-file run); frozen, they skip it. Files are closed
        # by then (the writers close theirs), so no finaliser is needed.
        gc.freeze()
