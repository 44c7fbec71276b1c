"""Move notation: parse a written play (``13/7 8/7*``, ``bar/22``, ``6/off(2)``) into paths.

The grammar lives in ``grammars/notation.lark`` and is the definition of what is accepted.
It is loaded lazily, once, as an LALR parser; results are memoised per distinct text because
the same play strings recur constantly in match files. Parse errors become
:class:`bgtools.errors.NotationError` with the column and the context line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from bgtools.engine.memo import BoundedMemo
from bgtools.errors import NotationError

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark

__all__ = ["WrittenPath", "WrittenPlay", "parse_play", "grammar_text", "load_grammar"]

BAR_POINT = 25
OFF_POINT = 0


@dataclass(frozen=True, slots=True)
class WrittenPath:
    """One item of a written play: a checker's path ``points`` (from, [via ...], to).

    ``marks[i]`` tells whether ``*`` followed ``points[i]``; ``count`` is the ``(N)``
    repetition (1 when absent); ``column`` is the 0-based offset of the item in the text.
    """

    points: tuple[int, ...]
    marks: tuple[bool, ...]
    count: int = 1
    column: int = 0


@dataclass(frozen=True, slots=True)
class WrittenPlay:
    """A parsed play: ``kind`` says whether it lists paths or is one of the special forms."""

    kind: Literal["moves", "cannot_move", "resign", "illegal"]
    paths: tuple[WrittenPath, ...] = ()
    text: str = ""
    segments: tuple[tuple[int, int, bool], ...] = field(init=False, repr=False, compare=False)
    """Every written ``from -> to`` segment with its hit mark, repetitions expanded
    (computed once: parsed plays are memoised and replayed many times)."""

    def __post_init__(self) -> None:
        out: list[tuple[int, int, bool]] = []
        for path in self.paths:
            for _ in range(path.count):
                for i in range(len(path.points) - 1):
                    out.append((path.points[i], path.points[i + 1], path.marks[i + 1]))
        object.__setattr__(self, "segments", tuple(out))


def grammar_text(name: str) -> str:
    """The text of a grammar file from ``grammars/`` (source tree or installed package)."""
    local = Path(__file__).resolve().parents[2] / "grammars" / name
    if local.is_file():
        return local.read_text(encoding="utf-8")
    return resources.files("bgtools.grammars").joinpath(name).read_text(encoding="utf-8")


_PARSERS: dict[str, "Lark"] = {}


def load_grammar(name: str, **options: object) -> "Lark":
    """Load a grammar from ``grammars/`` once as an LALR parser.

    ``options`` are passed to Lark (a grammar is always loaded with the same options, so
    the cache is keyed by name).
    """
    parser = _PARSERS.get(name)
    if parser is None:
        from lark import Lark

        parser = Lark(grammar_text(name), parser="lalr", **options)
        _PARSERS[name] = parser
    return parser


def _point_value(token_type: str, token: str) -> int:
    if token_type == "bar_point":
        return BAR_POINT
    if token_type == "off_point":
        return OFF_POINT
    return int(token)


RawPath = tuple[tuple[int, ...], tuple[bool, ...], int, int]
"""A path as read, before the checks: ``(points, marks, repetition, 0-based column)``."""

_POINT = r"(?:[0-9]+|[bB][aA][rR]|[oO][fF][fF]|[bB]|[oO])\*?"
_FAST_ITEM = re.compile(r"[ \t,]*(" + _POINT + r"(?:/" + _POINT + r")+)(?:\(([0-9]+)\))?(?=[ \t,]|\Z)")
_FAST_POINT = re.compile(r"([0-9]+|[bB][aA][rR]|[oO][fF][fF]|[bB]|[oO])(\*?)")
_FAST_TAIL = re.compile(r"[ \t,]*")


_FAST_PATHS: BoundedMemo[str, tuple[tuple[int, ...], tuple[bool, ...]]] = BoundedMemo(1 << 16)
"""The points and hit marks of each path text ``_parse_fast`` has read (``13/7*``): a few
thousand distinct paths make up the plays of a whole archive."""


def _parse_fast(text: str) -> list[RawPath] | None:
    """Read the common shape of a play (paths of points joined by ``/``, each with an
    optional ``*`` and ``(N)``, separated by blanks or commas) without Lark.

    None when the text has any other shape: the grammar then decides. Whenever this returns
    paths, the grammar reads the same paths (tests/test_notation_resolve.py proves it).
    """
    out: list[RawPath] = []
    pos = 0
    end = len(text)
    item = _FAST_ITEM.match
    while True:
        m = item(text, pos)
        if m is None:
            tail = _FAST_TAIL.match(text, pos)
            return out if tail is not None and tail.end() == end else None
        item_text = m.group(1)
        known = _FAST_PATHS.get(item_text)
        if known is None:
            points: list[int] = []
            marks: list[bool] = []
            for word, star in _FAST_POINT.findall(item_text):
                first = word[0]
                points.append(BAR_POINT if first in "bB" else OFF_POINT if first in "oO"
                              else int(word))
                marks.append(bool(star))
            known = _FAST_PATHS.remember(item_text, (tuple(points), tuple(marks)))
        repeat = m.group(2)
        out.append((known[0], known[1], 1 if repeat is None else int(repeat), m.start(1)))
        pos = m.end()


def _parse_lark(text: str) -> WrittenPlay | list[RawPath]:
    """Parse with the grammar: a special form, or the paths as read; raise NotationError."""
    from lark import Token, Tree
    from lark.exceptions import LarkError, UnexpectedEOF, UnexpectedInput

    try:
        tree = load_grammar("notation.lark", propagate_positions=True).parse(text)
    except UnexpectedInput as exc:
        column = getattr(exc, "column", None)
        col = column if isinstance(column, int) and column > 0 else None
        token = getattr(exc, "token", None)
        if isinstance(exc, UnexpectedEOF) or getattr(token, "type", None) == "$END":
            col = len(text) + 1  # the play stops short: point just past its end
        raise NotationError(f"cannot read the play {text!r}", column=col, context=text) from None
    except LarkError as exc:  # pragma: no cover - defensive
        raise NotationError(f"cannot read the play {text!r}: {exc}", context=text) from None
    play = tree.children[0]
    assert isinstance(play, Tree)
    if play.data == "cannot_move":
        return WrittenPlay("cannot_move", (), text)
    if play.data == "resign_mark":
        return WrittenPlay("resign", (), text)
    if play.data == "illegal":
        return WrittenPlay("illegal", (), text)
    out: list[RawPath] = []
    for item in play.children:
        assert isinstance(item, Tree)
        path_tree = item.children[0]
        assert isinstance(path_tree, Tree)
        points: list[int] = []
        marks: list[bool] = []
        for point in path_tree.children:
            assert isinstance(point, Tree)
            token = point.children[0]
            assert isinstance(token, Token)
            points.append(_point_value(str(point.data), str(token)))
            marks.append(len(point.children) > 1)
        column = (path_tree.meta.column - 1) if not path_tree.meta.empty else 0
        count = 1
        if len(item.children) > 1:
            repeat = item.children[1]
            assert isinstance(repeat, Tree)
            count = int(str(repeat.children[0]))
        out.append((tuple(points), tuple(marks), count, column))
    return out


@lru_cache(maxsize=65536)
def parse_play(text: str) -> WrittenPlay:
    """Parse one written play. Raise :class:`NotationError` when the text is not a play.

    Point numbers are checked to be 0..25 (bar only as a source, off only as a
    destination); a repetition must be 2..4.
    """
    stripped = text.strip()
    raw = _parse_fast(stripped)
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
        for i, value in enumerate(points):
            if value > BAR_POINT:
                raise NotationError(
                    f"point {value} in {stripped!r} does not exist (1-24, bar 25, off 0)",
                    column=column + 1,
                    context=stripped,
                )
            if value == BAR_POINT and i > 0:
                raise NotationError(
                    f"{stripped!r}: the bar can only be a starting point",
                    column=column + 1,
                    context=stripped,
                )
            if value == OFF_POINT and i < len(points) - 1:
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


_PATHS: BoundedMemo[RawPath, WrittenPath] = BoundedMemo(1 << 16)
"""Written paths shared between parsed plays (they are immutable): an archive writes a few
thousand distinct paths in tens of thousands of plays, and every object kept alive in the
parse cache is one more for the cyclic garbage collector to rescan."""
