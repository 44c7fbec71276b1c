"""How the command line ends: the one place mapping errors to messages and exit codes.

:func:`run_app` runs the Typer app and turns whatever escapes a command into one line on
stderr and the contract's exit code (0 ok, 1 problems in the input, 2 usage or unusable
input, 130 interrupted). Never a traceback: an unexpected exception is reported in one line
as an internal error (set ``BGTOOLS_TRACEBACK=1`` to see the traceback while debugging).
"""

from __future__ import annotations

import errno
import os
import sys
from typing import Any, NoReturn

from bgtools.errors import EXIT_UNUSABLE, BgtoolsError, describe_error

__all__ = ["EXIT_INTERRUPTED", "error_line", "run_app", "silence_stdout"]

EXIT_INTERRUPTED = 130
"""Ctrl-C: the shell's convention (128 + SIGINT)."""


def error_line(message: str) -> str:
    """The one line written to stderr for an error: ``bgtools: error: MESSAGE``."""
    return "bgtools: error: " + " ".join(message.split()) + "\n"


def silence_stdout() -> None:
    """Point stdout at /dev/null so that flushing after a closed pipe raises nothing."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _stdout_pipe_closed() -> bool:
    """True when Click has seen stdout's pipe close (it then wraps stdout to pacify flushes)."""
    return type(sys.stdout).__name__ == "PacifyFlushWrapper"


def _write_stderr(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def run_app(app: Any, args: list[str] | None = None) -> NoReturn:
    """Run the Typer ``app`` (on ``args``, default ``sys.argv[1:]``) and exit with the
    contract's code, whatever happens.

    Typer itself ends usage errors (exit 2) and Ctrl-C (exit 130, quietly); a closed output
    pipe (``bgtools replay --jsonl | head``) ends quietly with 0; what escapes Typer ends here.
    """
    code: int
    try:
        app(args=args)
        code = 0
    except SystemExit as exc:
        if exc.code == 1 and _stdout_pipe_closed():
            # Click ends a closed pipe (``| head``) with 1, which the contract reserves for
            # input with errors: the reader simply stopped reading, so end quietly with 0.
            silence_stdout()
            sys.exit(0)
        raise
    except KeyboardInterrupt:
        _write_stderr("bgtools: interrupted\n")
        code = EXIT_INTERRUPTED
    except BrokenPipeError:
        silence_stdout()
        code = 0
    except BgtoolsError as exc:
        message, code = describe_error(exc, "")
        _write_stderr(error_line(message))
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            silence_stdout()
            code = 0
        else:
            message, code = describe_error(exc, str(exc.filename or "input"))
            _write_stderr(error_line(message))
    except Exception as exc:  # a bug in bgtools: still one line, never a traceback
        if os.environ.get("BGTOOLS_TRACEBACK") == "1":
            raise
        message, _ = describe_error(exc, "internal error")
        _write_stderr(error_line(message + " (a bug in bgtools: please report it)"))
        code = EXIT_UNUSABLE
    sys.exit(code)
