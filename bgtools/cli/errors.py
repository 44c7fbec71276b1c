"""How the command line ends: the one place mapping errors to messages and exit codes.

Every ``bgtools: error:`` line is written by :func:`print_error` (:func:`fail` also ends the
command); :func:`run_app` runs the Typer app and turns whatever escapes a command into one
such line and the contract's exit code (0 ok, 1 problems in the input, 2 usage or unusable
input, 130 interrupted). Never a traceback: an unexpected exception is reported in one line
as an internal error (set ``BGTOOLS_TRACEBACK=1`` to see the traceback while debugging).
"""

from __future__ import annotations

import errno
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from bgtools.cli.terminal import terminal_text
from bgtools.errors import EXIT_INTERRUPTED, EXIT_UNUSABLE, BgtoolsError, describe_error

if TYPE_CHECKING:
    from bgtools.record.model import ProblemObject

__all__ = [
    "EXIT_INTERRUPTED",
    "INTERRUPTING_SIGNALS",
    "error_line",
    "fail",
    "note",
    "print_error",
    "print_problem",
    "run_app",
    "silence_stdout",
    "silence_stream",
    "usage_error_line",
]


def _one_line(message: str) -> str:
    # Line breaks only: a run of spaces may be part of a file name. Any other control
    # character (an ESC from a file's name) is shown escaped.
    return terminal_text(" ".join(message.splitlines()))


def error_line(message: str) -> str:
    """The one line written to stderr for an error: ``bgtools: error: MESSAGE`` (line
    breaks made spaces, other control characters escaped: :func:`terminal_text`)."""
    return "bgtools: error: " + _one_line(message) + "\n"


def print_error(message: str) -> None:
    """Write the error line of ``message`` to stderr (the command goes on)."""
    sys.stderr.write(error_line(message))


def fail(message: str, code: int = EXIT_UNUSABLE) -> NoReturn:
    """End the command with the error line of ``message`` (none when ``message`` is empty:
    the error was reported already) and exit code ``code``."""
    if message:
        print_error(message)
    raise typer.Exit(code)


def note(message: str) -> None:
    """One ``bgtools: note:`` line on stderr."""
    sys.stderr.write("bgtools: note: " + _one_line(message) + "\n")


def print_problem(display: str, problem: ProblemObject) -> None:
    """The line of one problem (in its JSON form) of the input ``display`` on stderr, as
    :func:`bgtools.reports.files.problem_text` words it, control characters escaped."""
    from bgtools.reports.files import problem_text

    sys.stderr.write(terminal_text(problem_text(display, problem).removesuffix("\n")) + "\n")


def silence_stdout() -> None:
    """Point stdout at /dev/null so that flushing after a closed pipe raises nothing."""
    silence_stream(sys.stdout)


def silence_stream(stream: Any) -> None:
    """Point ``stream``'s file descriptor at /dev/null (after its pipe closed), so that
    nothing written or flushed to it later raises."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
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


def usage_error_line(exc: Exception) -> str:
    """The one error line of a usage error from Typer's Click (a bad option value, a missing
    argument, an unknown option): its message, and where to find the command's help."""
    message = str(getattr(exc, "format_message", lambda: str(exc))()).strip().rstrip(".")
    # Click lays out a list of choices on indented lines ("Choose from:\n\tcsv,\n\t...").
    message = re.sub(r"[ \t]*\n[ \t]*", " ", message)
    message = message[:1].lower() + message[1:]
    ctx = getattr(exc, "ctx", None)
    command = getattr(ctx, "command_path", "") or "bgtools"
    # A sub-command's error names it; the root's does not (its name may be several words:
    # ``python -m bgtools``).
    if ctx is not None and getattr(ctx, "parent", None) is not None:
        message = f"{ctx.info_name}: {message}"
    return error_line(f"{message}; see '{command} --help'")


def _is_click_error(exc: Exception) -> bool:
    """True for Typer's Click exceptions (usage errors and the like): they carry an integer
    ``exit_code`` and a ``format_message``. Typer vendors Click privately, so they are
    recognised by what they offer rather than by class."""
    return isinstance(getattr(exc, "exit_code", None), int) and hasattr(exc, "format_message")


INTERRUPTING_SIGNALS = ("SIGTERM", "SIGHUP")
"""The signals that stop a command as Ctrl-C does (``kill``, a closed terminal): exit code
130, temporary files removed, worker processes stopped."""


@contextmanager
def _signals_interrupt() -> Iterator[None]:
    """Within the block, :data:`INTERRUPTING_SIGNALS` raise KeyboardInterrupt (unless the
    signal is ignored, as ``nohup`` makes SIGHUP); their handlers are restored after."""
    import signal
    import threading

    from bgtools.errors import interrupt

    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for name in INTERRUPTING_SIGNALS:
            number = getattr(signal, name, None)
            if number is not None and signal.getsignal(number) is not signal.SIG_IGN:
                previous[number] = signal.signal(number, interrupt)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def run_app(app: Any, args: list[str] | None = None) -> NoReturn:
    """Run the Typer ``app`` (on ``args``, default ``sys.argv[1:]``) and exit with the
    contract's code, whatever happens.

    Usage errors are one line on stderr and exit 2 (Typer would draw a box); Ctrl-C (and
    SIGTERM or SIGHUP: :data:`INTERRUPTING_SIGNALS`) ends with 130 quietly; a closed output
    pipe (``bgtools replay --jsonl | head``) ends quietly with 0; whatever else escapes a
    command is one line too.
    """
    code: int
    try:
        with _signals_interrupt():
            returned = app(args=args, standalone_mode=False)
        code = returned if isinstance(returned, int) else 0
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
    except Exception as exc:  # noqa: BLE001 - the one boundary: usage errors, bugs
        code = _report_unexpected(exc)
    sys.exit(code)


def _report_unexpected(exc: Exception) -> int:
    """Report an exception no command handled; the exit code."""
    if type(exc).__name__ == "NoArgsIsHelpError":  # ``bgtools`` alone: the help
        exc.show()  # type: ignore[attr-defined]
        return EXIT_UNUSABLE
    if _is_click_error(exc):
        _write_stderr(usage_error_line(exc))
        code = getattr(exc, "exit_code", EXIT_UNUSABLE)
        return code if code in (0, EXIT_UNUSABLE) else EXIT_UNUSABLE
    if type(exc).__name__ == "Abort":
        _write_stderr("bgtools: interrupted\n")
        return EXIT_INTERRUPTED
    # A bug in bgtools: still one line, never a traceback.
    if os.environ.get("BGTOOLS_TRACEBACK") == "1":
        raise exc
    message, _ = describe_error(exc, "internal error")
    _write_stderr(error_line(message + " (a bug in bgtools: please report it)"))
    return EXIT_UNUSABLE
