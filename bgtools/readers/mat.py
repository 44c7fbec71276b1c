"""Reader for Jellyfish ``.mat`` match files (structure only).

``parse_mat`` turns text into :class:`~bgtools.record.MatchRecord` objects: header tags and
comments, the match length, and per game its score line and its cells as
:class:`~bgtools.record.Action` objects in chronological order, each with its player and its
1-based line and column. No backgammon rule is checked and plays are not parsed: the play text
is kept as written with its column.

Design:

* The syntax of one line is defined by the Lark grammar ``grammars/mat_line.lark``
  (LALR, basic lexer). It classifies a line (comment, match length, game header, action line)
  and splits an action line into an optional row number ``N)`` and its cells.
* The hot path does not run Lark: one fast reader, the word scanner (``_scan_words``), reads
  every common line, the same on both builds. Most lines are tokens of one blank-separated
  word each, so it splits the line with ``str`` methods (compiled to C), classes each word by
  the grammar's own terminals (read from the grammar file when first needed; memoised per
  word) and reads the rules' shapes from those classes. Any other line (a token glued to the
  next, more than two cells, an unreadable line) goes to the grammar, which also words every
  syntax error. tests/readers/test_mat_reader.py proves the word scanner equal to the grammar
  (:func:`scan_line_lark`, a Lark Transformer over the parse tree) on every corpus line and
  on generated lines, and its classes equal to the lexer's tokens.
* Each cell becomes an :class:`~bgtools.record.Action` in one place (``_Reader.make_action``).
* Cells are given to players by their tokens, never by fixed columns: with
  two cells the first is player 0's and the second player 1's (whatever their columns, so an
  overflowing left cell is fine); a lone cell is player 1's when it starts nearer to the
  game's right-cell column (learnt from the score line and from two-cell rows) than to the
  left-cell column (just after ``N)``).
* The reader never raises on text: unreadable lines become ``Problem(rule="syntax")`` entries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Final, NamedTuple

from bgtools.dataclass_methods import fields_eq, fields_repr
from bgtools.grammars import MAT_LINE, Terminal, terminals
from bgtools.limits import MAX_LINE_CHARS, MAX_MATCH_LENGTH, MAX_PROBLEMS
from bgtools.readers.mat_grammar import scan_line_lark
from bgtools.readers.mat_lines import LineCell, ScanError, ScannedLine
from bgtools.readers.source import normalise_newlines
from bgtools.record import Action, ActionKind, GameRecord, MatchRecord, Problem

if TYPE_CHECKING:  # pragma: no cover
    pass

__all__ = [
    "MatReading",
    "parse_mat",
    "read_mat",
    "looks_like_mat",
    "scan_line",
    "scan_line_lark",
    "LineCell",
    "ScannedLine",
    "ScanError",
]

# Whole-line patterns that need context and so are not part of the line grammar.
_FIRST_SCORE_RE = re.compile(r":[ \t]*(?P<s0>[0-9]{1,9})[ \t]+")
# gnubg pads the left half of a score line to a fixed width, so a long first name leaves no
# blank between the first score and the second name: " LONG...NAME : 0Other : 0".
_TIGHT_SCORE_RE = re.compile(r":[ \t]*(?P<s0>[0-9]{1,9})(?=[^0-9:\s])")
_TAG_RE = re.compile(r'^\s*[;#]\s*\[\s*(?P<name>[^"\[\]]*?)\s+"(?P<value>.*)"\s*\]\s*$')
_SET_POS_RE = re.compile(r"^\s*[;#]\s*Set\s+Pos\s*=", re.IGNORECASE)
_RATING_RE = re.compile(r"^(?P<name>.*?)\s*,\s*(?P<rating>-?[0-9]{1,9}(?:[.,][0-9]{1,9})?)$")
_LENGTH_LINE_RE = re.compile(r"^[ \t]*[0-9]{1,9}[ \t]+point[ \t]+match[ \t]*$",
                             re.IGNORECASE | re.MULTILINE)
_GAME_LINE_RE = re.compile(r"^[ \t]*game[ \t]+[0-9]{1,9}[ \t]*$", re.IGNORECASE)

MAX_LINE_LENGTH = MAX_LINE_CHARS
"""Longer lines are reported as problems and skipped (real lines are under 200 characters)."""

_DEFAULT_LEFT_COLUMN = 6  # 1-based column of a left cell after "  N) " (gnubg, XG, Galaxy)
_DEFAULT_RIGHT_COLUMN = 34  # 1-based column of gnubg's right cell


_DICE_PAIRS: Final[tuple[tuple[int, int] | None, ...]] = tuple(
    (index // 7, index % 7) if 1 <= index // 7 <= 6 and 1 <= index % 7 <= 6 else None
    for index in range(49))
"""The dice ``(a, b)`` at ``7 * a + b``, None where a die is not 1 to 6."""


def _dice_of(text: str) -> tuple[int, int] | None:
    """The dice of a roll's two digits (``"63"``: ``(6, 3)``), None unless both are 1 to 6.
    Computed from the code points: a dict lookup would hash every new string."""
    if len(text) != 2:
        return None
    first = ord(text[0]) - 48
    second = ord(text[1]) - 48
    if 0 <= first <= 6 and 0 <= second <= 6:
        return _DICE_PAIRS[7 * first + second]
    return None
_CUBES = (("double", "DOUBLES"), ("beaver", "BEAVERS"), ("raccoon", "RACCOONS"))
_BARE = (("take", "TAKES"), ("drop", "DROPS"), ("resign", "RESIGNS"))
_RESULTS = (("win", "WINS"), ("loss", "LOSSES"))
_ROLL_RESTS = ("play", "cannot_move", "resign_mark", "illegal")


# ---------------------------------------------------------------------------------------------
# The word scanner: most lines are tokens of one blank-separated word each, read with str
# methods (compiled to C) and a memo of each word's terminal.
# ---------------------------------------------------------------------------------------------

_SPLIT: Final = "-"
"""The class of a word the lexer does not read as one token of its own (``63:13/7``: a roll,
then a play word), or that may begin a token of several words (``Cannot Move``): the word
scanner leaves its line to the grammar, unless the grammar expects that token there."""

_CUBE_KINDS: Final = {name: kind for kind, name in _CUBES}
_BARE_KINDS: Final = {name: kind for kind, name in _BARE}
_RESULT_KINDS: Final = {name: kind for kind, name in _RESULTS}


class _WordSyntax:
    """The terminals as the word scanner uses them (see :func:`_word_syntax`)."""

    single: Final[tuple[tuple[str, re.Pattern[str]], ...]]
    """Every terminal in the lexer's order (priority first), as an atomic group."""
    leads: Final[tuple[re.Pattern[str], ...]]
    """The first word of each terminal that spans blanks (``cannot`` of ``cannot\\s+move``)."""
    spanning: Final[dict[str, re.Pattern[str]]]
    """Those terminals by name, as atomic groups."""

    def __init__(self, single: tuple[tuple[str, re.Pattern[str]], ...],
                 leads: tuple[re.Pattern[str], ...], spanning: dict[str, re.Pattern[str]]) -> None:
        self.single = single
        self.leads = leads
        self.spanning = spanning


@cache
def _word_syntax() -> _WordSyntax:
    """The word scanner's view of ``mat_line.lark``'s terminals (once, on first use)."""
    lexicon = terminals(MAT_LINE)
    ordered = sorted(lexicon.terminals, key=lambda terminal: -terminal.priority)
    single = tuple((t.name, re.compile(f"(?>{t.regex})")) for t in ordered)
    spanning = {t.name: t for t in ordered if "\\s+" in t.pattern}
    leads = tuple(re.compile(Terminal(t.name, t.pattern.split("\\s+", 1)[0], t.ignore_case).regex)
                  for t in spanning.values())
    return _WordSyntax(single, leads,
                       {name: re.compile(f"(?>{t.regex})") for name, t in spanning.items()})


def _classify_word(word: str) -> str:
    """The terminal the lexer reads the blank-delimited ``word`` as, or :data:`_SPLIT`."""
    syntax = _word_syntax()
    for lead in syntax.leads:
        if lead.fullmatch(word) is not None:
            return _SPLIT
    for name, pattern in syntax.single:
        m = pattern.match(word)
        if m is not None:
            return name if m.end() == len(word) else _SPLIT
    return _SPLIT  # pragma: no cover - PLAY_WORD reads any word


_WORD_CLASSES: Final[dict[str, str]] = {}
"""Each word's class: the words of a whole archive are a few thousand (rolls, paths,
keywords). A plain dict, emptied when full (as a ``BoundedMemo``), because compiled code
looks a plain dict up directly and a dict subclass through its ``get`` method."""
_WORD_CLASSES_LIMIT: Final = 1 << 14


def _digit_word_class(word: str) -> str:
    """:func:`_classify_word` of a word that begins with an ASCII digit, from its code points:
    the terminals a digit can begin are ``ROLL`` (``63:``), ``ROWNUM`` (``12)``), ``INT`` (1 to
    9 digits) and ``PLAY_WORD`` (``13/7``), so the lexer's priorities reduce to this order
    (``63:13/7`` and ``12)x`` begin a token that ends inside the word: :data:`_SPLIT`)."""
    size = len(word)
    digits = 1
    while digits < size and 48 <= ord(word[digits]) <= 57:
        digits += 1
    if digits == 2 and size > 2 and ord(word[2]) == 58:  # [0-9][0-9]:
        return "ROLL" if size == 3 else _SPLIT
    if digits <= 9 and digits < size and ord(word[digits]) == 41:  # [0-9]{1,9}\)
        return "ROWNUM" if size == digits + 1 else _SPLIT
    if digits == size and size <= 9:  # [0-9]{1,9} and the word ends
        return "INT"
    return "PLAY_WORD"


def _word_class(word: str) -> str:
    """:func:`_classify_word`, memoised; a word that begins with a digit (a roll, a row, a
    point, most plays) by :func:`_digit_word_class`, which costs less than hashing it."""
    if 48 <= ord(word[0]) <= 57:
        return _digit_word_class(word)
    known = _WORD_CLASSES.get(word)
    if known is None:
        if len(_WORD_CLASSES) >= _WORD_CLASSES_LIMIT:
            _WORD_CLASSES.clear()
        known = _WORD_CLASSES[word] = _classify_word(word)
    return known


def _spanning_end(line: str, name: str, start: int) -> int:
    """The end of the blank-spanning token ``name`` read at ``start`` when it ends a word;
    else -1."""
    m = _word_syntax().spanning[name].match(line, start)
    if m is None:
        return -1
    end = m.end()
    return end if end == len(line) or line[end].isspace() else -1


_EMPTY_LINE: Final = ScannedLine("action")
_COMMENT_LINE: Final = ScannedLine("comment")
_NO_CELL: Final[tuple[LineCell | None, int, int]] = (None, 0, 0)


def _scan_words(line: str) -> ScannedLine | None:
    """:func:`scan_line` for a line whose tokens are one blank-separated word each (but the
    grammar's ``Cannot Move``, ``Illegal play (...)`` and ``and the match``), of the line
    shapes the grammar knows, with at most two cells; None for any other line."""
    words = line.split()
    count = len(words)
    if count == 0:
        return _EMPTY_LINE
    first = _word_class(words[0])
    if first == "COMMENT":
        return _COMMENT_LINE
    if first == "INT" or first == "GAME":  # noqa: PLR1714 - compiled: no set lookup
        return _header_line(words, first)
    index = 0
    pos = 0
    row: tuple[int, int, int] | None = None
    if first == "ROWNUM":
        word = words[0]
        pos = line.find(word)
        row = (pos, pos + len(word), int(word[:-1]))
        pos += len(word)
        index = 1
    cells: list[LineCell] = []
    while index < count:
        if len(cells) == 2:
            return None
        cell, index, pos = _word_cell(line, words, index, pos)
        if cell is None:
            return None
        cells.append(cell)
    return ScannedLine("action", None, row, tuple(cells))


def _header_line(words: list[str], first: str) -> ScannedLine | None:
    """A match length line ``N point match`` or a game header ``Game N``, read by words."""
    if first == "INT":
        if (len(words) == 3 and _word_class(words[1]) == "POINT"
                and _word_class(words[2]) == "MATCH"):
            return ScannedLine("length", int(words[0]))
        return None
    if len(words) == 2 and _word_class(words[1]) == "INT":
        return ScannedLine("game", int(words[1]))
    return None


def _word_cell(line: str, words: list[str], index: int,
               pos: int) -> tuple[LineCell | None, int, int]:
    """The cell that begins at ``words[index]`` (found at or after ``pos`` in ``line``), the
    index of the word after it and the end of the cell; :data:`_NO_CELL` when the words there
    are not a cell the word scanner reads."""
    word = words[index]
    kind = _word_class(word)
    start = line.find(word, pos)
    end = start + len(word)
    index += 1
    if kind == "ROLL":
        return _roll_cell(line, words, index, start, end)
    cube = _CUBE_KINDS.get(kind)
    if cube is not None:
        return _cube_cell(line, words, index, cube, start, end)
    bare = _BARE_KINDS.get(kind)
    if bare is not None:
        return LineCell(bare, start, end), index, end
    if kind == "RESIGN_MARK":
        return LineCell("resign", start, end, "", "resign_mark", start, end), index, end
    result = _RESULT_KINDS.get(kind)
    if result is not None:
        return _result_cell(line, words, index, result, start, end)
    return _NO_CELL


def _roll_cell(line: str, words: list[str], index: int, start: int,
               end: int) -> tuple[LineCell | None, int, int]:
    """A roll ``DD:`` (read from ``start`` to ``end``) and what follows it: a play, a
    resignation marker, ``Cannot Move``, ``Illegal play (...)``, or nothing."""
    dice = line[start:start + 2]
    count = len(words)
    if index < count:
        word = words[index]
        kind = _word_class(word)
        # The grammar's play: (PLAY_WORD | INT)+. Compared, not looked up in a set: compiled,
        # two string compares cost a tenth of a set lookup.
        if kind == "PLAY_WORD" or kind == "INT":  # noqa: PLR1714
            text_start = line.find(word, end)
            text_end = text_start + len(word)
            index += 1
            while index < count:
                word = words[index]
                word_kind = _word_class(word)
                if word_kind != "PLAY_WORD" and word_kind != "INT":  # noqa: PLR1714
                    break
                text_end = line.find(word, text_end) + len(word)
                index += 1
            return (LineCell("roll", start, text_end, dice, "play", text_start, text_end),
                    index, text_end)
        if kind == "RESIGN_MARK" or kind == "RESIGNS":  # noqa: PLR1714
            text_start = line.find(word, end)
            text_end = text_start + len(word)
            return (LineCell("roll", start, text_end, dice, "resign_mark", text_start, text_end),
                    index + 1, text_end)
        if kind == _SPLIT:
            text_start = line.find(word, end)
            for name, rest in (("CANNOT_MOVE", "cannot_move"), ("ILLEGAL", "illegal")):
                text_end = _spanning_end(line, name, text_start)
                if text_end >= 0:
                    index += len(line[text_start:text_end].split())
                    return (LineCell("roll", start, text_end, dice, rest, text_start, text_end),
                            index, text_end)
            return _NO_CELL
    return LineCell("roll", start, end, dice), index, end


def _cube_cell(line: str, words: list[str], index: int, kind: str, start: int,
               end: int) -> tuple[LineCell | None, int, int]:
    """A cube offer (``Doubles``, ``Beavers``, ``Raccoons``) with its optional ``=> V``."""
    count = len(words)
    if index < count and _word_class(words[index]) == "ARROW":
        if index + 1 == count or _word_class(words[index + 1]) != "INT":
            return _NO_CELL
        value = words[index + 1]
        value_end = line.find(value, line.find("=>", end) + 2) + len(value)
        return LineCell(kind, start, value_end, value=int(value)), index + 2, value_end
    return LineCell(kind, start, end), index, end


def _result_cell(line: str, words: list[str], index: int, kind: str, start: int,
                 end: int) -> tuple[LineCell | None, int, int]:
    """A result ``Wins N point(s)`` or ``Losses N point(s)``, with its optional
    ``and the match``."""
    count = len(words)
    if (index + 2 > count or _word_class(words[index]) != "INT"
            or _word_class(words[index + 1]) != "POINT"):
        return _NO_CELL
    value = words[index]
    point = words[index + 1]
    end = line.find(point, line.find(value, end) + len(value)) + len(point)
    index += 2
    and_the_match = False
    if index < count and _word_class(words[index]) == _SPLIT:
        match_end = _spanning_end(line, "AND_THE_MATCH", line.find(words[index], end))
        if match_end < 0:
            return _NO_CELL
        index += len(line[end:match_end].split())
        end = match_end
        and_the_match = True
    return LineCell(kind, start, end, value=int(value), and_the_match=and_the_match), index, end


def scan_line(line: str) -> ScannedLine | ScanError:
    """Classify and split one line (no newline) as ``mat_line.lark`` does: the fast path,
    else the grammar itself."""
    fast = _scan_words(line)
    if fast is not None:
        return fast
    return scan_line_lark(line)


def _describe_error(line: str, err: ScanError) -> str:
    """A human message for an unreadable line, with the grammar's expectations when known."""
    if err.found == "$END":
        found = "end of line"
    else:
        words = line[err.offset:].split(None, 1)
        found = repr(words[0][:40]) if words else "end of line"
    expected = ""
    if err.expected:
        expected = " (expected " + ", ".join(_PRETTY.get(x, x) for x in err.expected) + ")"
    return f"unreadable line: unexpected {found} at column {err.offset + 1}{expected}"


_PRETTY = {
    "$END": "end of line", "ROLL": "a roll 'DD:'", "INT": "a number", "POINT": "'point(s)'",
    "MATCH": "'match'", "ARROW": "'=>'", "PLAY_WORD": "a play", "DOUBLES": "'Doubles'",
    "BEAVERS": "'Beavers'", "RACCOONS": "'Raccoons'", "TAKES": "'Takes'", "DROPS": "'Drops'",
    "RESIGNS": "'Resigns'", "WINS": "'Wins'", "LOSSES": "'Losses'", "ROWNUM": "a row number 'N)'",
    "AND_THE_MATCH": "'and the match'", "CANNOT_MOVE": "'Cannot Move'", "RESIGN_MARK": "'???'",
    "ILLEGAL": "'Illegal play (...)'", "COMMENT": "a comment", "GAME": "'Game'",
}


class _ScoreLine(NamedTuple):
    """A parsed score line: raw names and scores with 0-based offsets."""

    name0: str
    score0: int
    col0: int
    name1: str
    score1: int
    col1: int
    name1_col: int


def _split_score_line(line: str) -> _ScoreLine | None:
    """Split ``name0 : s0   name1 : s1`` like gnubg: name 0 ends at the first colon that is
    followed by a number and blanks; the line must end with ``: s1``. None if it does not fit.
    A line without such a colon may be gnubg's with no blank after the first score."""
    split = _split_score_at(line, _FIRST_SCORE_RE.search(line))
    if split is None:
        split = _split_score_at(line, _TIGHT_SCORE_RE.search(line))
    return split


def _split_score_at(line: str, m: re.Match[str] | None) -> _ScoreLine | None:
    """The score line split after the first score ``m`` (see `_split_score_line`)."""
    if m is None:
        return None
    rest_start = m.end()
    end = len(line.rstrip())
    j = end
    while j > rest_start and "0" <= line[j - 1] <= "9":
        j -= 1
    if j == end or end - j > 9:
        return None
    k = j
    while k > rest_start and line[k - 1] in " \t":
        k -= 1
    if k == rest_start or line[k - 1] != ":":
        return None
    name1 = line[rest_start:k - 1].strip()
    name1_col = rest_start + (len(line[rest_start:k]) - len(line[rest_start:k].lstrip()))
    return _ScoreLine(line[:m.start()].strip(), int(m.group("s0")), m.start("s0"),
                      name1, int(line[j:end]), j, name1_col)


# ---------------------------------------------------------------------------------------------
# The reader.
# ---------------------------------------------------------------------------------------------


@dataclass(slots=True, init=False, repr=False, eq=False)
class _GameState:  # noqa: PLW1641 - unhashable, as Python makes a class with __eq__ alone
    """Per-game layout knowledge used to give a lone cell to a column (its methods written
    here, as replay.model's: dataclasses would compile them from source at every import)."""

    game: GameRecord
    index: int
    left_column: int = _DEFAULT_LEFT_COLUMN
    right_column: int = _DEFAULT_RIGHT_COLUMN
    awaiting_score: bool = True
    flush_result: Action | None = None
    """A ``Losses N`` cell on an unnumbered row written left of the left column (Galaxy):
    its column says nothing, so it is the loser's, i.e. of the player the next ``Wins`` cell
    does not name."""

    def __init__(self, game: GameRecord, index: int,
                 left_column: int = _DEFAULT_LEFT_COLUMN,
                 right_column: int = _DEFAULT_RIGHT_COLUMN, awaiting_score: bool = True,
                 flush_result: Action | None = None) -> None:
        self.game = game
        self.index = index
        self.left_column = left_column
        self.right_column = right_column
        self.awaiting_score = awaiting_score
        self.flush_result = flush_result

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented  # as generated (and mypyc's bool return allows it here)
        return fields_eq(self, other)


class _Reader:
    """Line-by-line state machine building the records."""

    def __init__(self) -> None:
        self.records: list[MatchRecord] = [MatchRecord(format="mat")]
        self.state: _GameState | None = None
        self.pending: list[tuple[int, str]] = []  # comment lines after games, owner not known yet
        self.length_suspects: list[int] = []

    @property
    def record(self) -> MatchRecord:
        return self.records[-1]

    @property
    def capped(self) -> bool:
        """True once the current record holds MAX_PROBLEMS problems."""
        return len(self.record.problems) >= MAX_PROBLEMS

    def problem(self, message: str, line: int, column: int | None = None) -> None:
        problems = self.record.problems
        if len(problems) >= MAX_PROBLEMS:
            return
        if len(problems) == MAX_PROBLEMS - 1:
            message = f"too many problems, stopped listing them here (last: {message})"
        game = self.state.index if self.state is not None else None
        problems.append(Problem(rule="syntax", message=message, line=line,
                                            column=column, game=game))

    # -- comments ---------------------------------------------------------------------------
    def comment(self, lineno: int, line: str) -> None:
        if self.record.games:
            self.pending.append((lineno, line))
        else:
            self.store_comment(lineno, line)

    def store_comment(self, lineno: int, line: str) -> None:
        record = self.record
        tag = _TAG_RE.match(line)
        if tag is not None:
            record.tags.append((tag.group("name"), tag.group("value")))
            return
        text = line.strip()[1:].strip()
        if _SET_POS_RE.match(line):
            set_pos = record.extra.setdefault("set_pos", [])
            assert isinstance(set_pos, list)
            set_pos.append({"line": lineno, "game": self.state.index if self.state else None,
                            "text": text})
            return
        record.comments.append(text)
        if self.state is not None:
            self.state.game.comments.append((lineno, text))

    def flush_pending(self) -> None:
        for lineno, line in self.pending:
            self.store_comment(lineno, line)
        self.pending.clear()

    # -- structure lines --------------------------------------------------------------------
    def length_line(self, lineno: int, length: int) -> None:
        if length > MAX_MATCH_LENGTH:
            self.length_suspects.append(lineno)
        if self.record.games:
            self.records.append(MatchRecord(format="mat"))
            self.state = None
        elif self.record.length_line is not None:
            self.problem("second match length line "
                         f"(first on line {self.record.length_line})", lineno)
        self.flush_pending()
        self.record.match_length = length
        self.record.length_line = lineno

    def game_line(self, lineno: int, number: int) -> None:
        self.flush_pending()
        if self.state is not None and self.state.awaiting_score:
            self.problem(f"game {self.state.game.number} has no score line",
                         self.state.game.line or lineno)
        game = GameRecord(number=number, line=lineno)
        self.record.games.append(game)
        self.state = _GameState(game, len(self.record.games))

    def score_line(self, lineno: int, sl: _ScoreLine, state: _GameState) -> None:
        game = state.game
        names = [sl.name0, sl.name1]
        ratings: list[str | None] = [None, None]
        for k in (0, 1):
            if "," in names[k]:
                r = _RATING_RE.match(names[k])
                if r is not None and r.group("name"):
                    names[k], ratings[k] = r.group("name"), r.group("rating")
        game.names = (names[0], names[1])
        game.score = (sl.score0, sl.score1)
        game.score_line = lineno
        game.score_columns = (sl.col0 + 1, sl.col1 + 1)
        if ratings != [None, None]:
            game.extra["ratings"] = (ratings[0], ratings[1])
        state.right_column = max(sl.name1_col + 1, 2 * _DEFAULT_LEFT_COLUMN)
        state.awaiting_score = False

    # -- action lines -----------------------------------------------------------------------
    def action_line(self, lineno: int, line: str, scanned: ScannedLine) -> None:
        cells = scanned.cells
        if not cells:
            return
        state = self.state
        if state is None:
            self.problem("action line before any 'Game N' header", lineno, cells[0].start + 1)
            return
        if self.pending:
            self.flush_pending()
        if scanned.row is not None:
            left = scanned.row[1] + 2
            state.left_column = left
        else:
            left = state.left_column
        if len(cells) == 1:
            col = cells[0].start + 1
            players: tuple[int, ...] = (1 if 2 * col >= left + state.right_column else 0,)
        elif len(cells) == 2:
            first_col = cells[0].start + 1
            if 2 * first_col >= left + state.right_column + 2:
                self.problem("two cells in the right column", lineno, first_col)
                return
            players = (0, 1)
            if cells[1].start - cells[0].end >= 2:
                state.right_column = cells[1].start + 1
        else:
            self.problem(f"{len(cells)} cells on one row (at most 2: left and right)", lineno,
                         cells[2].start + 1)
            return
        row = scanned.row[2] if scanned.row is not None else None
        actions = state.game.actions
        flush = state.flush_result
        state.flush_result = None
        for cell, player in zip(cells, players):
            action = self.make_action(lineno, line, cell, player, row)
            if action is not None:
                if (flush is not None and action.kind == "win" and actions
                        and actions[-1] is flush and flush.player == action.player):
                    flush.player = 1 - action.player
                actions.append(action)
        if (scanned.row is None and len(cells) == 1 and cells[0].kind == "loss"
                and cells[0].start + 1 < left):
            state.flush_result = actions[-1]  # make_action always makes a loss cell's action

    def make_action(self, lineno: int, line: str, cell: LineCell, player: int,
                    row: int | None) -> Action | None:
        """The action of one cell, with its ``row`` number in ``extra`` when the line has one
        (None, and a problem, for a roll whose dice are not 1 to 6)."""
        if cell.rest == "play" and cell.kind == "roll":
            dice = _dice_of(cell.dice)
            if dice is not None:
                # Most cells. Every argument positional: the quickest call (a keyword makes
                # the class call build a dict of them).
                return Action("roll", player, lineno, cell.start + 1, dice,
                              line[cell.text_start:cell.text_end], cell.text_start + 1,
                              None, None, None, False, False, False, False, None, None, False,
                              False, {} if row is None else {"row": row})
        action = self.other_action(lineno, line, cell, player)
        if action is not None and row is not None:
            action.extra["row"] = row
        return action

    def other_action(self, lineno: int, line: str, cell: LineCell,
                     player: int) -> Action | None:
        """:meth:`make_action` for every cell but a play of dice 1 to 6 (which it makes
        itself), without the row. (The actions of the common cells are made with positional
        arguments only, in the order of Action's fields: a keyword makes the class call build
        a dict.)"""
        kind = cell.kind
        column = cell.start + 1
        if kind == "roll":
            dice = _dice_of(cell.dice)
            rest = cell.rest
            if dice is None:
                if cell.dice == "00" and rest == "resign_mark":
                    # Backgammon Studio's resignation before rolling: no dice, then the marker.
                    action = Action(kind="resign", player=player, line=lineno, column=column,
                                    resign_marker=True)
                    action.extra["marker"] = line[cell.start:cell.text_end]
                    return action
                self.problem(f"roll {cell.dice!r}: dice must be 1 to 6", lineno, column)
                return None
            assert rest != "play", "make_action makes a play's action"
            action = Action("roll", player, lineno, column, dice)
            if rest:
                action.play_column = cell.text_start + 1
                if rest == "cannot_move":
                    action.cannot_move = True
                elif rest == "resign_mark":
                    action.resign_marker = True
                    action.extra["marker"] = line[cell.text_start:cell.text_end]
                else:
                    action.illegal = True
                    action.illegal_text = line[cell.text_start:cell.text_end]
            return action
        akind: ActionKind
        if kind in ("double", "beaver", "raccoon"):
            akind = "double" if kind == "double" else ("beaver" if kind == "beaver" else "raccoon")
            return Action(akind, player, lineno, column, None, "", None, None, cell.value)
        if kind in ("win", "loss"):
            akind = "win" if kind == "win" else "loss"
            return Action(akind, player, lineno, column, None, "", None, None, None, cell.value,
                          cell.and_the_match)
        akind = "take" if kind == "take" else ("drop" if kind == "drop" else "resign")
        action = Action(akind, player, lineno, column)
        if cell.rest == "resign_mark":
            action.resign_marker = True
            action.extra["marker"] = line[cell.start:cell.end]
        return action

    # -- driver -----------------------------------------------------------------------------
    def feed(self, lineno: int, line: str) -> None:
        if not line or line.isspace():
            return
        if len(line) > MAX_LINE_LENGTH:
            self.length_suspects.append(lineno)
            self.problem(f"line {lineno} is {len(line):,} characters long; the limit "
                         f"MAX_LINE_CHARS is {MAX_LINE_LENGTH:,}; line skipped", lineno, 1)
            return
        if "\t" in line:
            # A tab advances to the next multiple of 8 columns (an editor's "tabify" keeps
            # the layout so): a lone cell's column says whose it is. Columns in problems
            # are then those of the expanded line, as a terminal shows it.
            line = line.expandtabs(8)
        state = self.state
        if state is not None and state.awaiting_score:
            stripped = line.lstrip()
            if stripped[0] not in ";#":
                sl = _split_score_line(line)
                if sl is not None:
                    self.score_line(lineno, sl, state)
                    return
                state.awaiting_score = False
                self.problem("expected a score line 'name : score   name : score' after the "
                             "game header", lineno, len(line) - len(stripped) + 1)
        fast = _scan_words(line)
        if fast is None:
            self.length_suspects.append(lineno)
            scanned: ScannedLine | ScanError = scan_line_lark(line)
        else:
            scanned = fast
        if isinstance(scanned, ScanError):
            if not self.capped:
                self.problem(_describe_error(line, scanned), lineno, scanned.offset + 1)
            return
        kind = scanned.kind
        if kind == "action":
            self.action_line(lineno, line, scanned)
        elif kind == "comment":
            self.comment(lineno, line)
        elif kind == "length":
            assert scanned.number is not None
            self.length_line(lineno, scanned.number)
        else:
            assert scanned.number is not None
            self.game_line(lineno, scanned.number)

    def finish(self, nlines: int) -> list[MatchRecord]:
        self.flush_pending()
        if self.state is not None and self.state.awaiting_score:
            self.problem(f"game {self.state.game.number} has no score line",
                         self.state.game.line or nlines)
        first = self.records[0]
        if len(self.records) == 1 and first.length_line is None and not first.games:
            first.problems.insert(0, Problem(
                rule="syntax", line=1, column=1,
                message="not a .mat match file: no 'N point match' line and no 'Game N' header"))
        return self.records


class MatReading(NamedTuple):
    """What :func:`read_mat` gives: the records, and the lines that may be match length
    lines beyond MAX_MATCH_LENGTH."""

    records: list[MatchRecord]
    length_suspects: tuple[int, ...]
    """The 1-based numbers, in order, of the lines read as a match length above
    MAX_MATCH_LENGTH, skipped as too long, or left by the fast paths to the grammar: every
    ``N point match`` line whose N is beyond the limit (or has more than 9 digits) is one
    of them, so the input limits need to look at these lines only."""


def read_mat(text: str) -> MatReading:
    """:func:`parse_mat`, with the lines the input limits need to look at."""
    text = text.removeprefix("\ufeff")
    lines = normalise_newlines(text).split("\n")
    reader = _Reader()
    feed = reader.feed
    for lineno, line in enumerate(lines, 1):
        feed(lineno, line)
    return MatReading(reader.finish(len(lines)), tuple(reader.length_suspects))


def parse_mat(text: str) -> list[MatchRecord]:
    """Read a ``.mat`` text into match records (usually one; one per ``N point match`` line
    that follows games). Never raises on bad text: problems go to ``MatchRecord.problems``."""
    return read_mat(text).records


def looks_like_mat(text: str) -> bool:
    """True when ``text`` looks like a ``.mat`` file: an ``N point match`` line, or a
    ``Game N`` header whose next non-blank line is a ``name : score   name : score`` line
    (only the first 64 KiB are looked at)."""
    head = normalise_newlines(text[:65536].lstrip("\ufeff"))
    if head.lstrip().startswith("(;"):
        return False
    if _LENGTH_LINE_RE.search(head):
        return True
    lines = head.split("\n")
    for i, line in enumerate(lines):
        if len(line) <= MAX_LINE_LENGTH and _GAME_LINE_RE.match(line):
            for nxt in lines[i + 1:i + 6]:
                if nxt.strip():
                    if len(nxt) <= MAX_LINE_LENGTH and _split_score_line(nxt) is not None:
                        return True
                    break
    return False
