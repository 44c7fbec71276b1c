"""Typed errors of the library, like python-chess's InvalidMoveError / IllegalMoveError.

The CLI maps each to a one-line message and an exit code in one place (``bgtools.cli``).
"""

from __future__ import annotations

__all__ = [
    "BgtoolsError",
    "RecordSyntaxError",
    "UnsupportedFormatError",
    "LimitExceededError",
    "NotationError",
]


class BgtoolsError(Exception):
    """Base class of every error bgtools raises on bad input."""


class RecordSyntaxError(BgtoolsError):
    """Text that cannot be read at all, with a 1-based line and column and the context line."""

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


class UnsupportedFormatError(BgtoolsError):
    """Input whose format is not recognised (not .mat, SGF or bgtools JSON)."""


class LimitExceededError(BgtoolsError):
    """Input beyond one of the named limits (file size, line length, match length ...)."""

    def __init__(self, message: str, limit_name: str, limit: int) -> None:
        super().__init__(message)
        self.limit_name = limit_name
        self.limit = limit
