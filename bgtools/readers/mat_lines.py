"""The scanned form of one ``.mat`` line, as the line grammar ``mat_line.lark`` defines it.

Shared by the fast scanner of :mod:`bgtools.readers.mat` and the Lark path of
:mod:`bgtools.readers.mat_grammar`, which are proven to give the same values.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["LineCell", "ScannedLine", "ScanError"]

class LineCell:
    """One cell of an action line as the grammar sees it (0-based, end-exclusive offsets).

    ``kind`` is an :data:`~bgtools.record.ActionKind`; for a roll ``dice`` is the two digits as
    written and ``rest`` one of ``""`` (nothing after the roll), ``"play"``, ``"cannot_move"``,
    ``"resign_mark"``, ``"illegal"``, with ``text_start``/``text_end`` delimiting that text.
    ``value`` is the cube value (``=> V``) or the points of a ``Wins``/``Losses`` cell.

    A value: compared by its fields, never changed after it is made. A plain class rather
    than a NamedTuple because the compiled reader makes one per cell, and a compiled class
    is made (and its fields read) directly in C.
    """

    kind: str
    start: int
    end: int
    dice: str
    rest: str
    text_start: int
    text_end: int
    value: int | None
    and_the_match: bool

    def __init__(self, kind: str, start: int, end: int, dice: str = "", rest: str = "",
                 text_start: int = -1, text_end: int = -1, value: int | None = None,
                 and_the_match: bool = False) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.dice = dice
        self.rest = rest
        self.text_start = text_start
        self.text_end = text_end
        self.value = value
        self.and_the_match = and_the_match

    def fields(self) -> tuple[str, int, int, str, str, int, int, int | None, bool]:
        """The fields in order, as a NamedTuple gives them."""
        return (self.kind, self.start, self.end, self.dice, self.rest, self.text_start,
                self.text_end, self.value, self.and_the_match)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LineCell) and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        return _repr("LineCell", _CELL_FIELDS, self.fields())


class ScannedLine:
    """A line classified by the grammar: ``comment``, ``length``, ``game`` or ``action``.

    ``number`` is the match length or the game number; for an action line ``row`` is the
    ``(start, end, N)`` of its ``N)`` token (or None) and ``cells`` its cells in order.
    A value, as :class:`LineCell` is.
    """

    kind: str
    number: int | None
    row: tuple[int, int, int] | None
    cells: tuple[LineCell, ...]

    def __init__(self, kind: str, number: int | None = None,
                 row: tuple[int, int, int] | None = None,
                 cells: tuple[LineCell, ...] = ()) -> None:
        self.kind = kind
        self.number = number
        self.row = row
        self.cells = cells

    def fields(self) -> tuple[str, int | None, tuple[int, int, int] | None,
                              tuple[LineCell, ...]]:
        """The fields in order, as a NamedTuple gives them."""
        return self.kind, self.number, self.row, self.cells

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ScannedLine) and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        return _repr("ScannedLine", _LINE_FIELDS, self.fields())


_CELL_FIELDS = ("kind", "start", "end", "dice", "rest", "text_start", "text_end", "value",
                "and_the_match")
_LINE_FIELDS = ("kind", "number", "row", "cells")


def _repr(name: str, names: tuple[str, ...], values: tuple[object, ...]) -> str:
    """``Name(field=value, ...)``, as a NamedTuple writes itself."""
    return f"{name}({', '.join(f'{n}={v!r}' for n, v in zip(names, values, strict=True))})"


class ScanError(NamedTuple):
    """An unreadable line: 0-based offset of the offending token, the token's terminal
    (``$END`` for the end of the line) and the terminals the grammar expected there."""

    offset: int
    found: str
    expected: tuple[str, ...] = ()
