"""Move notation: parse a written play (``13/7 8/7*``, ``bar/22``, ``6/off(2)``) into paths.

The grammar ``grammars/notation.lark`` is the definition of what is accepted. The
common shape of a play (paths of points, blanks or commas between them) is read by one fast
reader, :func:`_parse_plain`, with string methods that compile to plain C; any other text
goes to the grammar's parser (Lark, loaded on first use), whose tree a Transformer reads,
and which words every syntax error. The fast reader is proven to read what the grammar
reads (tests/engine/test_notation_plain.py) and takes every play of the real files. Results are
memoised per distinct text because the same play strings recur constantly in match files.
Parse errors become :class:`bgtools.errors.NotationError` with the column and the context
line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from bgtools.dataclass_methods import fields_eq, fields_hash, fields_repr
from bgtools.engine.memo import BoundedMemo
from bgtools.engine.notation_grammar import (
    BAR_POINT,
    OFF_POINT,
    RawPath,
    parse_with_grammar,
)
from bgtools.errors import NotationError

__all__ = ["PlayKind", "Segments", "WrittenPath", "WrittenPlay", "parse_play", "plain_segments"]



# The classes here write their methods (bgtools.dataclass_methods: generated ones cost
# start-up time, and a compiled class's generated __init__ runs as Python). Their fields are
# Final: read-only, which the compiled classes enforce.


@dataclass(slots=True, init=False, repr=False, eq=False)
class WrittenPath:
    """One item of a written play: a checker's path ``points`` (from, [via ...], to).

    ``marks[i]`` tells whether ``*`` followed ``points[i]``; ``count`` is the ``(N)``
    repetition (1 when absent); ``column`` is the 0-based offset of the item in the text.
    """

    points: Final[tuple[int, ...]]
    marks: Final[tuple[bool, ...]]
    count: Final[int]
    column: Final[int]

    def __init__(self, points: tuple[int, ...], marks: tuple[bool, ...], count: int = 1,
                 column: int = 0) -> None:
        self.points = points
        self.marks = marks
        self.count = count
        self.column = column

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented  # as generated (and mypyc's bool return allows it here)
        return fields_eq(self, other)

    def __hash__(self) -> int:
        return fields_hash(self)


PlayKind = Literal["moves", "cannot_move", "resign", "illegal"]
"""What a written play is: paths, or one of the special forms."""


@dataclass(slots=True, init=False, repr=False, eq=False)
class WrittenPlay:
    """A parsed play: ``kind`` says whether it lists paths or is one of the special forms."""

    kind: Final[PlayKind]
    paths: Final[tuple[WrittenPath, ...]]
    text: Final[str]
    segments: tuple[tuple[int, int, bool], ...] = field(init=False, repr=False, compare=False)
    """Every written ``from -> to`` segment with its hit mark, repetitions expanded
    (computed once: parsed plays are memoised and replayed many times)."""

    def __init__(self, kind: PlayKind, paths: tuple[WrittenPath, ...] = (),
                 text: str = "") -> None:
        self.kind = kind
        self.paths = paths
        self.text = text
        out: list[tuple[int, int, bool]] = []
        for path in paths:
            points = path.points
            marks = path.marks
            last = len(points) - 1
            for _ in range(path.count):
                out.extend([(points[i], points[i + 1], marks[i + 1]) for i in range(last)])
        self.segments = tuple(out)

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented  # as generated (and mypyc's bool return allows it here)
        return fields_eq(self, other)

    def __hash__(self) -> int:
        return fields_hash(self)


_BAR: Final[int] = BAR_POINT
_OFF: Final[int] = OFF_POINT
"""The grammar's bar and off as this module's constants (compiled: no global lookup)."""
_LONGEST_NUMBER: Final = 4
"""Longer digit runs (never a real point) are left to the general path."""


def _is_separator(code: int) -> bool:
    """What ``%ignore`` skips between the items of a play in notation.lark: blank, tab,
    comma (characters as their codes: ``ord(text[i])`` compiles to a plain read)."""
    return code in (32, 9, 44)


def _ends_point(text: str, at: int, end: int) -> bool:
    """Whether a point may end before ``at`` in the plain shape: at the end, or before a
    separator, ``/``, ``*`` or ``(``."""
    if at >= end:
        return True
    code = ord(text[at])
    return _is_separator(code) or code in (47, 42, 40)


def _is_letter(text: str, at: int, end: int, lower: int) -> bool:
    """Whether the ASCII letter ``lower`` (its code, in either case) is at ``at``."""
    return at < end and ord(text[at]) | 32 == lower


def _point_word(text: str, at: int, end: int) -> tuple[int, int]:
    """The point a word of letters names at ``at`` (``bar``/``b`` 25, ``off``/``o`` 0, any
    case) and where the word ends; ``(-1, at)`` when it is none of these words followed by
    what may end a point (the general path then decides)."""
    first = ord(text[at]) | 32
    if first == 98:  # b, bar
        value = _BAR
        whole = _is_letter(text, at + 1, end, 97) and _is_letter(text, at + 2, end, 114)
    elif first == 111:  # o, off
        value = _OFF
        whole = _is_letter(text, at + 1, end, 102) and _is_letter(text, at + 2, end, 102)
    else:
        return -1, at
    after = at + 3 if whole else at + 1
    if not _ends_point(text, after, end):
        return -1, at
    return value, after


def _digits_end(text: str, at: int, end: int) -> int:
    """Where the run of ASCII digits starting at ``at`` ends (``at`` when there is none)."""
    while at < end and 48 <= ord(text[at]) <= 57:
        at += 1
    return at


def _plain_point(text: str, at: int, end: int) -> tuple[int, int]:
    """The point written at ``at`` (a number or a word) and where it ends, before any
    ``*``; ``(-1, at)`` when no plain point starts there."""
    if at == end:
        return -1, at
    stop = _digits_end(text, at, end)
    if stop == at:
        return _point_word(text, at, end)
    if stop - at > _LONGEST_NUMBER or not _ends_point(text, stop, end):
        return -1, at
    return int(text[at:stop]), stop


def _plain_path(text: str, at: int, end: int) -> tuple[list[int], list[bool], int] | None:
    """The points and hit marks of the path starting at ``at`` and where it ends; None
    when no plain path of two points or more starts there."""
    points: list[int] = []
    marks: list[bool] = []
    while True:
        value, at = _plain_point(text, at, end)
        if value < 0:
            return None
        points.append(value)
        marked = at < end and ord(text[at]) == 42  # *
        marks.append(marked)
        if marked:
            at += 1
        if at < end and ord(text[at]) == 47:  # /
            at += 1
        else:
            return (points, marks, at) if len(points) >= 2 else None


def _parse_plain(text: str) -> list[RawPath] | None:
    """The plain shape of a play read with string methods only (no regular expression):
    items of points (ASCII digits, or ``bar``/``b``/``off``/``o`` in any case) joined by
    ``/``, each point with an optional ``*``, each item with an optional ``(N)`` right after
    it, items separated by blanks, tabs or commas.

    None for any other text, which the grammar reads. Whenever this returns paths they are
    the grammar's (tests/engine/test_notation_plain.py proves it). The vocabulary is the grammar's
    terminals: ``NUMBER``, ``BAR``, ``OFF``, ``STAR``, ``/``, ``(N)`` and the separators
    ``%ignore`` skips (tests/engine/test_notation_plain.py checks them against notation.lark).
    """
    out: list[RawPath] = []
    end = len(text)
    at = 0
    while True:
        while at < end and _is_separator(ord(text[at])):
            at += 1
        if at == end:
            return out
        path = _plain_path(text, at, end)
        if path is None:
            return None
        points, marks, after = path
        count = 1
        if after < end and ord(text[after]) == 40:  # (
            stop = _digits_end(text, after + 1, end)
            if (stop == after + 1 or stop - after - 1 > _LONGEST_NUMBER or stop == end
                    or ord(text[stop]) != 41):  # )
                return None
            count = int(text[after + 1:stop])
            after = stop + 1
        if after < end and not _is_separator(ord(text[after])):
            return None
        out.append((tuple(points), tuple(marks), count, at))
        at = after


Segments = tuple[tuple[int, int, bool], ...]
"""A play's ``from -> to`` segments with their hit marks, as :attr:`WrittenPlay.segments`."""


def plain_segments(text: str) -> Segments | None:
    """``parse_play(text).segments`` for a play the plain reader reads and that passes
    every check of :func:`parse_play`; None for any other text (never an error: the caller
    then asks :func:`parse_play`). Memoised per text, without building a
    :class:`WrittenPlay` (the replayer's per-roll path needs only the segments; on distinct
    matches most play texts are new).
    """
    known = _SEGMENTS.get(text)
    if known is None:
        read = _segments_by_item(text.strip())
        if read is None:
            return None
        known = _SEGMENTS.remember(text, read)
    return known


def _segments_by_item(stripped: str) -> Segments | None:
    """:func:`_segments_of` of ``stripped``, read blank-separated piece by piece, each piece
    memoised: no token of the plain shape holds a blank, so the plain reader reads the
    pieces as it reads the whole (tests/engine/test_notation_plain.py proves it). On distinct
    matches most play texts are new, but they are made of a few thousand pieces."""
    pieces = stripped.split(" ")
    if len(pieces) == 2:  # the usual play of a non-double: no tuple of tuples to join
        first = _piece_segments(pieces[0])
        second = _piece_segments(pieces[1])
        if first is None or second is None:
            return None
        return first + second
    out: Segments = ()
    for piece in pieces:
        segments = _piece_segments(piece)
        if segments is None:
            return None
        out += segments
    return out


def _piece_segments(piece: str) -> Segments | None:
    """The segments of one blank-free piece of a plain play, memoised (see
    :func:`_segments_by_item`)."""
    known = _PIECES.get(piece)
    if known is None:
        read = _segments_of(piece)
        if read is None:
            return None
        known = _PIECES.remember(piece, read)
    return known


def _segments_of(stripped: str) -> Segments | None:
    """The segments of a plain play (see :func:`plain_segments`), None when it is not one."""
    raw = _parse_plain(stripped)
    if raw is None:
        return None
    out: list[tuple[int, int, bool]] = []
    for points, marks, count, _column in raw:
        if not 1 <= count <= 4:
            return None
        last = len(points) - 1
        for i, value in enumerate(points):
            if value > _BAR or (value == _BAR and i > 0) or (value == _OFF and i < last):
                return None
        for _ in range(count):
            out.extend([(points[i], points[i + 1], marks[i + 1]) for i in range(last)])
    return tuple(out)


def _parse_lark(text: str) -> WrittenPlay | list[RawPath]:
    """Parse with the grammar: a special form, or the paths as read; raise NotationError."""
    read = parse_with_grammar(text)
    if isinstance(read, str):
        return WrittenPlay(read, (), text)
    return read


def parse_play(text: str) -> WrittenPlay:
    """Parse one written play. Raise :class:`NotationError` when the text is not a play.

    Point numbers are checked to be 0..25 (bar only as a source, off only as a
    destination); a repetition must be 2..4.
    """
    known = _PLAYS.get(text)
    if known is None:
        known = _PLAYS.remember(text, _read_play(text))
    return known


def _read_play(text: str) -> WrittenPlay:
    """:func:`parse_play` without its memo."""
    stripped = text.strip()
    raw = _parse_plain(stripped)
    if raw is None:
        parsed = _parse_lark(stripped)
        if isinstance(parsed, WrittenPlay):
            return parsed
        raw = parsed
    paths: list[WrittenPath] = []
    for points, marks, count, column in raw:
        if not 1 <= count <= 4:
            raise NotationError(
                f"repetition ({count}) in {stripped!r} must be 2, 3 or 4",
                column=column + 1,
                context=stripped,
            )
        last = len(points) - 1
        for i, value in enumerate(points):
            if value > _BAR:
                raise NotationError(
                    f"point {value} in {stripped!r} does not exist (1-24, bar 25, off 0)",
                    column=column + 1,
                    context=stripped,
                )
            if value == _BAR and i > 0:
                raise NotationError(
                    f"{stripped!r}: the bar can only be a starting point",
                    column=column + 1,
                    context=stripped,
                )
            if value == _OFF and i < last:
                raise NotationError(
                    f"{stripped!r}: off can only be the last point of a path",
                    column=column + 1,
                    context=stripped,
                )
        key = (points, marks, count, column)
        path = _PATHS.get(key)
        if path is None:
            path = _PATHS.remember(key, WrittenPath(points, marks, count, column))
        paths.append(path)
    return WrittenPlay("moves", tuple(paths), stripped)


_SEGMENTS: Final[BoundedMemo[str, Segments]] = BoundedMemo(1 << 16)
"""The segments of plain plays, by their text as written (see :func:`plain_segments`)."""
_PIECES: Final[BoundedMemo[str, Segments]] = BoundedMemo(1 << 14)
"""The segments of the blank-free pieces of plain plays (``13/7*``, ``6/off(2)``, ``""``)."""
_PLAYS: Final[BoundedMemo[str, WrittenPlay]] = BoundedMemo(1 << 16)
"""Plays already parsed, by their text as written (a text that is not a play is not kept)."""
_PATHS: Final[BoundedMemo[RawPath, WrittenPath]] = BoundedMemo(1 << 16)
"""Written paths shared between parsed plays (they are immutable): an archive writes a few
thousand distinct paths in tens of thousands of plays, and every object kept alive in the
parse cache is one more for the cyclic garbage collector to rescan."""
