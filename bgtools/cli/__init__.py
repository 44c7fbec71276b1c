"""The ``bgtools`` command line: thin Typer commands over the library.

:mod:`bgtools.cli.application` holds the Typer :data:`app` and what the commands share; each group
of commands is a module that registers itself on it (:mod:`~bgtools.cli.validate`:
validate, replay, rules, plays; :mod:`~bgtools.cli.answers`: score, pips, status, show;
:mod:`~bgtools.cli.convert`; :mod:`~bgtools.cli.data`: stats, standings, export).
:mod:`bgtools.cli.errors` is the one place where errors become messages and exit codes
(0 ok, 1 problems in the input, 2 usage or unreadable input, 130 interrupted); never a
traceback. Heavy modules (Rich, Lark, the readers) are imported inside the commands so that
``bgtools --help`` starts fast; a run of one command loads only the module that defines it
(:data:`COMMAND_MODULES`), and ``bgtools --version`` loads no Typer.
"""

from __future__ import annotations

import gc
import sys
from importlib import import_module

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads it so)
if TYPE_CHECKING:  # pragma: no cover
    import typer

    from bgtools.cli.application import app

__all__ = ["COMMAND_MODULES", "app", "load_commands", "main"]

COMMAND_MODULES: dict[str, str] = {
    "validate": "validate", "replay": "validate", "rules": "validate", "plays": "validate",
    "score": "answers", "pips": "answers", "status": "answers", "show": "answers",
    "convert": "convert",
    "stats": "data", "standings": "data", "export": "data",
}
"""The module of :mod:`bgtools.cli` that defines each command, in the order ``--help``
lists them (``tests/cli/test_cli.py`` checks it against the registered commands)."""

_MODULE_ORDER = tuple(dict.fromkeys(COMMAND_MODULES.values()))


def load_commands(command: str | None = None) -> typer.Typer:
    """The Typer app with the module that defines ``command`` loaded, or every module when
    ``command`` is None or names no command (``--help`` lists them all; a mistyped name is
    told the names it may have meant). The commands are kept in the order of
    :data:`COMMAND_MODULES`, whatever order their modules were loaded in."""
    module = COMMAND_MODULES.get(command) if command is not None else None
    for name in _MODULE_ORDER if module is None else (module,):
        import_module(f"{__name__}.{name}")
    from bgtools.cli.application import app as loaded

    def module_rank(info: typer.models.CommandInfo) -> int:
        home = getattr(info.callback, "__module__", "").rsplit(".", 1)[-1]
        return _MODULE_ORDER.index(home) if home in _MODULE_ORDER else len(_MODULE_ORDER)

    loaded.registered_commands.sort(key=module_rank)  # stable: a module's own order stays
    return loaded


def __getattr__(name: str) -> typer.Typer:
    """``app``: the ``bgtools`` Typer app with every command loaded, on first use, as it was
    when this package imported every command module itself (PEP 562). The module that
    defines the app is :mod:`bgtools.cli.application`: a submodule named ``app`` would be
    bound to this attribute when imported."""
    if name == "app":
        return load_commands()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Console-script entry point: run the app; errors end as one line and an exit code."""
    args = sys.argv[1:]
    try:
        if args == ["--version"]:
            # What the eager option --version prints, without Typer (a quarter of a run).
            from bgtools import __version__
            from bgtools.build import build_name

            sys.stdout.write(f"bgtools {__version__} ({build_name()})\n")
            return
        # The imports (Typer, Click, Rich, the command's modules) make many objects and no
        # garbage worth a collection: the collector would rescan them at every few hundred
        # allocations. Collected off, then frozen out of the collector's generations.
        collecting = gc.isenabled()
        gc.disable()
        try:
            from bgtools.cli.application import app_for, command_name
            from bgtools.cli.errors import run_app

            load_commands(command_name(args))
            app = app_for(args)
        finally:
            gc.freeze()
            if collecting:
                gc.enable()
        run_app(app)
    finally:
        # The process ends here: the interpreter's collections at exit would only rescan
        # the whole heap (7 % of a one-file run); frozen, they skip it. Files are closed
        # by then (the writers close theirs), so no finaliser is needed.
        gc.freeze()
