"""Typed errors of the library, like python-chess's InvalidMoveError / IllegalMoveError.

Hierarchy (every one a :class:`BgtoolsError`):

- :class:`RecordSyntaxError`: text that cannot be read (:class:`NotationError`: a play);
- :class:`IllegalPlayError`: a play or action the rules forbid;
- :class:`UnsupportedFormatError`: input that is no match record bgtools knows;
- :class:`LimitExceededError`: input beyond one of the limits of :mod:`bgtools.limits`;
- :class:`UnreadableInputError`: a path that cannot be read (missing, a directory, no
  permission, not a regular file);
- :class:`InvalidPathError`: a path no file can have (a NUL, a lone surrogate), also a
  ``ValueError`` as Python's own error for it is;
- :class:`OutputRefusedError`: an output bgtools will not write (the input, a directory, an
  existing file without overwrite, a device);
- :class:`UnwritableOutputError`: an output the system would not let be written (a missing
  directory, no permission, a full disk), also an ``OSError`` with its ``errno``.

The errors of one layer live beside the code that raises them, derived from these:
``PositionError`` and ``IdError`` (the engine), ``SmileError`` (the BGF reader) and
``RangeError`` (a moment out of range), each also a ``ValueError``; ``InvalidMatchData`` (a
JSON value that breaks the schema), ``PlotUnavailableError`` and ``ExportUnavailableError``.

:func:`describe_error` is the one place that turns any of these (and ``OSError``) into a
one-line message and the contract's exit code; the CLI and the reports use it. The exit
codes (``EXIT_*``) are defined here too, once.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads it so)
if TYPE_CHECKING:  # pragma: no cover
    from typing import NoReturn

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_PROBLEMS",
    "EXIT_UNUSABLE",
    "BgtoolsError",
    "IllegalPlayError",
    "InvalidArgumentError",
    "InvalidPathError",
    "LimitExceededError",
    "NotationError",
    "OutputRefusedError",
    "RecordSyntaxError",
    "UnreadableInputError",
    "UnsupportedFormatError",
    "UnwritableOutputError",
    "check_path_name",
    "describe_error",
    "interrupt",
]

EXIT_OK = 0
"""Success (for ``validate``: every file valid, warnings allowed)."""
EXIT_PROBLEMS = 1
"""At least one input has errors."""
EXIT_UNUSABLE = 2
"""Usage error, or an input that cannot be read or is not recognised."""
EXIT_INTERRUPTED = 130
"""Stopped by Ctrl-C: 128 + SIGINT, as shells report it (the contract does not define it).
SIGTERM and SIGHUP stop a run the same way (see :func:`interrupt`)."""


def interrupt(signum: int, frame: object) -> NoReturn:
    """A signal handler that stops the program as Ctrl-C does, by raising KeyboardInterrupt:
    SIGTERM and SIGHUP then end a run like an interrupt (exit code
    :data:`EXIT_INTERRUPTED`, temporary files removed, workers stopped)."""
    raise KeyboardInterrupt


class BgtoolsError(Exception):
    """Base class of every error bgtools raises on bad input."""

    exit_code: int = EXIT_UNUSABLE
    """The contract's exit code when this error ends the reading of an input."""


class OutputRefusedError(BgtoolsError):
    """The output path may not be written: it exists (without overwrite), is a directory, is
    the input itself (also through a link, or standard input's file), lies outside the
    output directory, or is a file that is neither regular nor a stream (a block device, a
    socket)."""


class UnwritableOutputError(BgtoolsError, OSError):
    """An output the system would not let be written (a missing directory, no permission, a
    full disk, a name too long). Also an ``OSError``, with the ``errno`` and ``strerror`` of
    the system's error and the output's path as ``filename``."""

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.strerror}"


class InvalidArgumentError(BgtoolsError, ValueError):
    """A value a function of the library does not take: a rule profile, a format or dice
    that do not exist (``replay(rules="fibs")``, ``read(format="pgn")``,
    ``legal_plays(7, 1)``). Also a ``ValueError``, as Python's own error for a bad value
    is, so that ``except ValueError`` still catches it."""


class InvalidPathError(BgtoolsError, ValueError):
    """A path no file can have: a NUL character, or a lone surrogate that stands for no
    byte of a file name. Also a ``ValueError``, as Python's own error for such a path is."""


def check_path_name(path: str | os.PathLike[str]) -> None:
    """Raise :class:`InvalidPathError` unless ``path`` could name a file (no NUL, and
    encodable as a file name: an undecodable byte's surrogate escape is fine)."""
    try:
        raw = os.fsencode(path)
    except UnicodeEncodeError as exc:
        shown = os.fspath(path).encode("utf-8", "backslashreplace").decode("utf-8")
        raise InvalidPathError(f"{shown}: not a file name (a lone surrogate "
                               f"{exc.object[exc.start:exc.end]!a})") from None
    if b"\0" in raw:
        shown = raw.decode("utf-8", "backslashreplace").replace("\0", "\\x00")
        raise InvalidPathError(f"{shown}: not a file name (a NUL character)")


class RecordSyntaxError(BgtoolsError):
    """Text that cannot be read at all, with a 1-based line and column and the context line."""

    exit_code = EXIT_PROBLEMS

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 context: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.context = context

    def __str__(self) -> str:
        where = ""
        if self.line is not None:
            where = f"line {self.line}" + (f", column {self.column}" if self.column else "") + ": "
        text = where + self.message
        if self.context is not None:
            text += f"\n    {self.context}"
            if self.column:
                text += "\n    " + " " * (self.column - 1) + "^"
        return text


class NotationError(RecordSyntaxError):
    """A play written in a notation the grammar does not accept (``13/x``, ``26/20``)."""


class IllegalPlayError(BgtoolsError):
    """A play or cube action that the rules forbid; ``rule`` is the validator's rule id.

    :func:`bgtools.engine.plays.parse_play` raises it for a well-formed play that is illegal
    (``blocked-point``, ``max-dice``, ``higher-die``, ``dice-mismatch`` ...).
    """

    exit_code = EXIT_PROBLEMS

    def __init__(self, message: str, rule: str, line: int | None = None,
                 column: int | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.line = line
        self.column = column


class UnsupportedFormatError(BgtoolsError):
    """Input whose format is not recognised (not .mat, SGF or bgtools JSON)."""


class LimitExceededError(BgtoolsError):
    """Input beyond one of the named limits (file size, line length, match length ...)."""

    def __init__(self, message: str, limit_name: str, limit: int) -> None:
        super().__init__(message)
        self.limit_name = limit_name
        self.limit = limit


class UnreadableInputError(BgtoolsError):
    """A path that cannot be read: missing, a directory, not a regular file, no permission."""


def describe_error(exc: BaseException, display: str) -> tuple[str, int]:
    """One line and the exit code for an error met while reading the input ``display``.

    The message never spans lines (a syntax error's context and caret are dropped) and
    names the input (unless ``display`` is empty: then the error's own text is used).
    """
    if isinstance(exc, RecordSyntaxError):
        where = f"{display}:{exc.line}" if exc.line is not None else display
        if exc.line is not None and exc.column:
            where += f":{exc.column}"
        if not display and exc.line is not None:
            where = f"line {exc.line}" + (f", column {exc.column}" if exc.column else "")
        return f"{where}: {exc.message}" if where else exc.message, exc.exit_code
    if isinstance(exc, BgtoolsError):
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if display and display not in text:
            text = f"{display}: {text}"
        return text, exc.exit_code
    if isinstance(exc, PermissionError):
        return f"{display}: permission denied", EXIT_UNUSABLE
    if isinstance(exc, IsADirectoryError):
        return f"{display} is a directory", EXIT_UNUSABLE
    if isinstance(exc, FileNotFoundError):
        return f"{display}: no such file or directory", EXIT_UNUSABLE
    if isinstance(exc, OSError):
        return f"{display}: {exc.strerror or exc}", EXIT_UNUSABLE
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{display}: {type(exc).__name__}{': ' + text if text else ''}", EXIT_UNUSABLE
