"""The Lark side of the ``.mat`` line grammar: ``mat_line.lark``'s parse of a line and the
Transformer of its trees, for the lines that leave the fast scanner of
:mod:`bgtools.readers.mat` (and as the definition that scanner is proven equal to).

Kept apart from that module so the fast scanner can be compiled (mypyc builds no class nested
in a function; the Transformer class is made on first use so that Lark loads only then).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from bgtools.grammars import MAT_LINE, parser
from bgtools.readers.mat_lines import LineCell, ScanError, ScannedLine

if TYPE_CHECKING:  # pragma: no cover
    from lark import Token, Transformer

__all__ = ["scan_line_lark"]

if TYPE_CHECKING:  # pragma: no cover
    LineTree = Transformer[Token, ScannedLine]
    RollRest = tuple[str, int, int]


def _span(token: Token) -> tuple[int, int]:
    """A token's 0-based, end-exclusive offsets in the line."""
    start = token.start_pos or 0
    return start, token.end_pos or start


@cache
def _line_tree_reader() -> LineTree:  # noqa: C901 - counts the class's one-line methods
    """The Transformer from a parse tree of ``mat_line.lark`` to a :class:`ScannedLine`
    (a class made on first use: Lark loads only when a line leaves the fast path)."""
    from lark import Token, Transformer, v_args

    @v_args(inline=True)
    class LineTreeReader(Transformer[Token, ScannedLine]):
        """One method per rule (or alias) of ``mat_line.lark``, bottom-up."""

        def start(self, line: ScannedLine) -> ScannedLine:
            return line

        def comment_line(self, _comment: Token) -> ScannedLine:
            return ScannedLine("comment")

        def length_line(self, length: Token, _point: Token, _match: Token) -> ScannedLine:
            return ScannedLine("length", int(length))

        def game_line(self, _game: Token, number: Token) -> ScannedLine:
            return ScannedLine("game", int(number))

        def action_line(self, row: Token | None, *cells: LineCell) -> ScannedLine:
            if row is None:
                return ScannedLine("action", cells=cells)
            start, end = _span(row)
            return ScannedLine("action", row=(start, end, int(row[:-1])), cells=cells)

        def roll(self, dice: Token, rest: RollRest | None = None) -> LineCell:
            start, end = _span(dice)
            if rest is None:
                return LineCell("roll", start, end, dice[:2])
            kind, text_start, text_end = rest
            return LineCell("roll", start, text_end, dice[:2], kind, text_start, text_end)

        def cannot_move(self, token: Token) -> RollRest:
            return ("cannot_move", *_span(token))

        def resign_mark(self, token: Token) -> RollRest:
            return ("resign_mark", *_span(token))

        def illegal(self, token: Token) -> RollRest:
            return ("illegal", *_span(token))

        def play(self, *words: Token) -> RollRest:
            return "play", _span(words[0])[0], _span(words[-1])[1]

        def cube_value(self, _arrow: Token, value: Token) -> Token:
            return value

        def _cube(self, kind: str, offer: Token, value: Token | None) -> LineCell:
            end = _span(offer if value is None else value)[1]
            return LineCell(kind, _span(offer)[0], end,
                            value=None if value is None else int(value))

        def double(self, offer: Token, value: Token | None = None) -> LineCell:
            return self._cube("double", offer, value)

        def beaver(self, offer: Token, value: Token | None = None) -> LineCell:
            return self._cube("beaver", offer, value)

        def raccoon(self, offer: Token, value: Token | None = None) -> LineCell:
            return self._cube("raccoon", offer, value)

        def take(self, token: Token) -> LineCell:
            return LineCell("take", *_span(token))

        def drop(self, token: Token) -> LineCell:
            return LineCell("drop", *_span(token))

        def resign(self, token: Token) -> LineCell:
            start, end = _span(token)
            if token.type == "RESIGN_MARK":  # XG's resignation cell '????'
                return LineCell("resign", start, end, rest="resign_mark", text_start=start,
                                text_end=end)
            return LineCell("resign", start, end)

        def _result(self, kind: str, first: Token, points: Token, point: Token,
                    and_the_match: Token | None) -> LineCell:
            last = point if and_the_match is None else and_the_match
            return LineCell(kind, _span(first)[0], _span(last)[1], value=int(points),
                            and_the_match=and_the_match is not None)

        def win(self, wins: Token, points: Token, point: Token,
                and_the_match: Token | None = None) -> LineCell:
            return self._result("win", wins, points, point, and_the_match)

        def loss(self, losses: Token, points: Token, point: Token,
                 and_the_match: Token | None = None) -> LineCell:
            return self._result("loss", losses, points, point, and_the_match)

    return LineTreeReader()


def scan_line_lark(line: str) -> ScannedLine | ScanError:
    """Classify and split one line with the Lark grammar (the definition :func:`scan_line`
    is proven equal to)."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

    try:
        tree = parser(MAT_LINE).parse(line)
    except UnexpectedToken as err:
        expected = tuple(sorted(getattr(err, "expected", None) or ()))
        bad = err.token
        if bad.type == "$END" or bad.start_pos is None:
            return ScanError(len(line), "$END", expected)
        return ScanError(bad.start_pos, str(bad.type), expected)
    except UnexpectedCharacters as err:  # pragma: no cover - PLAY_WORD matches any non-blank
        return ScanError(err.pos_in_stream or 0, "?")
    except UnexpectedInput:  # pragma: no cover
        return ScanError(len(line), "$END")
    return _line_tree_reader().transform(tree)
