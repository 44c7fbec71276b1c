"""The scanned form of one ``.mat`` line, as the line grammar ``mat_line.lark`` defines it.

Shared by the fast scanner of :mod:`bgtools.read.mat` and the Lark path of
:mod:`bgtools.read.mat_grammar`, which are proven to give the same values.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["LineCell", "ScannedLine", "ScanError"]

class LineCell(NamedTuple):
    """One cell of an action line as the grammar sees it (0-based, end-exclusive offsets).

    ``kind`` is an :data:`~bgtools.record.ActionKind`; for a roll ``dice`` is the two digits as
    written and ``rest`` one of ``""`` (nothing after the roll), ``"play"``, ``"cannot_move"``,
    ``"resign_mark"``, ``"illegal"``, with ``text_start``/``text_end`` delimiting that text.
    ``value`` is the cube value (``=> V``) or the points of a ``Wins``/``Losses`` cell.
    """

    kind: str
    start: int
    end: int
    dice: str = ""
    rest: str = ""
    text_start: int = -1
    text_end: int = -1
    value: int | None = None
    and_the_match: bool = False


class ScannedLine(NamedTuple):
    """A line classified by the grammar: ``comment``, ``length``, ``game`` or ``action``.

    ``number`` is the match length or the game number; for an action line ``row`` is the
    ``(start, end, N)`` of its ``N)`` token (or None) and ``cells`` its cells in order.
    """

    kind: str
    number: int | None = None
    row: tuple[int, int, int] | None = None
    cells: tuple[LineCell, ...] = ()


class ScanError(NamedTuple):
    """An unreadable line: 0-based offset of the offending token, the token's terminal
    (``$END`` for the end of the line) and the terminals the grammar expected there."""

    offset: int
    found: str
    expected: tuple[str, ...] = ()
