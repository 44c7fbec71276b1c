"""The grammar side of move notation: Lark's parse of ``notation.lark`` and the Transformer of
its trees, for the plays that leave the fast path of :mod:`bgtools.engine.notation`.

Kept apart from that module so the fast path can be compiled (mypyc builds no class nested in
a function, and the Transformer class is made on first use so that Lark loads only then).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Literal

from bgtools.errors import NotationError
from bgtools.grammars import NOTATION, parser

if TYPE_CHECKING:  # pragma: no cover
    from lark import Token, Transformer
    from lark.tree import Meta

__all__ = ["BAR_POINT", "OFF_POINT", "RawPath", "SpecialForm", "parse_with_grammar"]

BAR_POINT = 25
OFF_POINT = 0

RawPath = tuple[tuple[int, ...], tuple[bool, ...], int, int]
"""A path as read, before the checks: ``(points, marks, repetition, 0-based column)``."""
SpecialForm = Literal["cannot_move", "resign", "illegal"]


if TYPE_CHECKING:  # pragma: no cover
    PlayTree = Transformer[Token, "SpecialForm | list[RawPath]"]


@cache
def _play_tree_reader() -> PlayTree:
    """The Transformer from a parse tree of ``notation.lark`` to a special form or the paths
    as read (a class made on first use: Lark loads only when a play leaves the fast path)."""
    from lark import Token, Transformer, v_args

    @v_args(inline=True)
    class PlayTreeReader(Transformer[Token, "SpecialForm | list[RawPath]"]):
        """One method per rule (or alias) of ``notation.lark``, bottom-up."""

        def start(self, play: SpecialForm | list[RawPath]) -> SpecialForm | list[RawPath]:
            return play

        def cannot_move(self, _token: Token) -> SpecialForm:
            return "cannot_move"

        def resign_mark(self, _token: Token) -> SpecialForm:
            return "resign"

        def illegal(self, _token: Token) -> SpecialForm:
            return "illegal"

        def items(self, *paths: RawPath) -> list[RawPath]:
            return list(paths)

        def item(self, path: tuple[tuple[int, ...], tuple[bool, ...], int],
                 repeat: int = 1) -> RawPath:
            points, marks, column = path
            return points, marks, repeat, column

        @v_args(inline=True, meta=True)
        def path(self, meta: Meta, *points: tuple[int, bool]
                 ) -> tuple[tuple[int, ...], tuple[bool, ...], int]:
            return (tuple(value for value, _ in points), tuple(mark for _, mark in points),
                    0 if meta.empty else meta.column - 1)

        def number_point(self, number: Token, mark: bool = False) -> tuple[int, bool]:
            return int(number), mark

        def bar_point(self, _bar: Token, mark: bool = False) -> tuple[int, bool]:
            return BAR_POINT, mark

        def off_point(self, _off: Token, mark: bool = False) -> tuple[int, bool]:
            return OFF_POINT, mark

        def mark(self, _star: Token) -> bool:
            return True

        def repeat(self, number: Token) -> int:
            return int(number)

    return PlayTreeReader()


def parse_with_grammar(text: str) -> SpecialForm | list[RawPath]:
    """Parse ``text`` with ``notation.lark``: a special form, or the paths as read (before
    the checks of :func:`bgtools.engine.notation.parse_play`); raise NotationError."""
    from lark.exceptions import LarkError, UnexpectedEOF, UnexpectedInput

    try:
        tree = parser(NOTATION).parse(text)
    except UnexpectedInput as exc:
        column = getattr(exc, "column", None)
        col = column if isinstance(column, int) and column > 0 else None
        token = getattr(exc, "token", None)
        if isinstance(exc, UnexpectedEOF) or getattr(token, "type", None) == "$END":
            col = len(text) + 1  # the play stops short: point just past its end
        raise NotationError(f"cannot read the play {text!r}", column=col, context=text) from None
    except LarkError as exc:  # pragma: no cover - defensive
        raise NotationError(f"cannot read the play {text!r}: {exc}", context=text) from None
    return _play_tree_reader().transform(tree)
