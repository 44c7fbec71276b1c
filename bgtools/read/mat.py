"""Reader for Jellyfish ``.mat`` match files (structure only, FORMATS.md section 2).

``parse_mat`` turns text into :class:`~bgtools.record.MatchRecord` objects: header tags and
comments, the match length, and per game its score line and its cells as
:class:`~bgtools.record.Action` objects in chronological order, each with its player and its
1-based line and column. No backgammon rule is checked and plays are not parsed: the play text
is kept as written with its column.

Design:

* The syntax of one line is defined by the Lark grammar ``grammars/mat_line.lark`` (LALR, basic
  lexer). It classifies a line (comment, match length, game header, action line) and splits an
  action line into an optional row number ``N)`` and its cells.
* The hot path does not run Lark: :func:`scan_line` is a regex tokenizer built from the same
  terminal patterns, in the same order, plus a hand-written recogniser of the same grammar.
  The test-suite proves the two equivalent (terminal table, every corpus line, generated
  lines). :func:`scan_line_lark` runs the grammar itself; the reader uses it only to word the
  message of an unreadable line.
* Cells are given to players by the token rule of FORMATS.md 2.5, never by fixed columns: with
  two cells the first is player 0's and the second player 1's (whatever their columns, so an
  overflowing left cell is fine); a lone cell is player 1's when it starts nearer to the
  game's right-cell column (learnt from the score line and from two-cell rows) than to the
  left-cell column (just after ``N)``).
* The reader never raises on text: unreadable lines become ``Problem(rule="syntax")`` entries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from bgtools.engine import notation
from bgtools.read.source import normalise_newlines
from bgtools.limits import MAX_LINE_CHARS, MAX_PROBLEMS
from bgtools.record import Action, ActionKind, GameRecord, MatchRecord, Problem

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark

__all__ = [
    "parse_mat",
    "looks_like_mat",
    "scan_line",
    "scan_line_lark",
    "LineCell",
    "ScannedLine",
    "ScanError",
    "TERMINALS",
    "GRAMMAR_FILE",
]

GRAMMAR_FILE = "mat_line.lark"

# ---------------------------------------------------------------------------------------------
# Terminals: a copy of the terminal section of grammars/mat_line.lark, in Lark's lexer order
# (priority desc, then widest first). tests/test_mat_reader.py checks that this table equals the
# grammar's terminals, in the same order.
# ---------------------------------------------------------------------------------------------

TERMINALS: tuple[tuple[str, str, bool], ...] = (
    # (name, pattern, ignore case)
    ("COMMENT", r"[;#].*", False),
    ("ILLEGAL", r"illegal\s+play\s*\([^)]*\)", True),
    ("AND_THE_MATCH", r"and\s+the\s+match(?!\S)", True),
    ("CANNOT_MOVE", r"cannot\s+move(?!\S)", True),
    ("RESIGNS", r"(?:resigns?|concedes?)(?!\S)", True),
    ("RACCOONS", r"raccoons?(?![^\s=])", True),
    ("BEAVERS", r"beavers?(?![^\s=])", True),
    ("DOUBLES", r"doubles?(?![^\s=])", True),
    ("LOSSES", r"loss(?:es)?(?!\S)", True),
    ("POINT", r"points?(?!\S)", True),
    ("DROPS", r"drops?(?!\S)", True),
    ("TAKES", r"takes?(?!\S)", True),
    ("MATCH", r"match(?!\S)", True),
    ("WINS", r"wins?(?!\S)", True),
    ("GAME", r"game(?!\S)", True),
    ("RESIGN_MARK", r"\?\?\?\??(?!\S)", False),
    ("ROWNUM", r"[0-9]{1,9}\)", False),
    ("ROLL", r"[0-9][0-9]:", False),
    ("ARROW", r"=>", False),
    ("INT", r"[0-9]{1,9}(?!\S)", False),
    ("PLAY_WORD", r"\S+", False),
)

_MASTER = re.compile(
    r"\s*(?:"
    + "|".join(
        f"(?P<{name}>{'(?i:' + pattern + ')' if icase else pattern})"
        for name, pattern, icase in TERMINALS
    )
    + ")"
)

# Whole-line patterns that need context and so are not part of the line grammar.
_FIRST_SCORE_RE = re.compile(r":[ \t]*(?P<s0>[0-9]{1,9})[ \t]+")
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


# ---------------------------------------------------------------------------------------------
# Scanned line: the result of the line grammar, shared by the fast path and the Lark path.
# ---------------------------------------------------------------------------------------------


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
    """An unreadable line: 0-based offset of the offending token and a short description."""

    offset: int
    found: str


_CUBE_KINDS = {"DOUBLES": "double", "BEAVERS": "beaver", "RACCOONS": "raccoon"}
_BARE_KINDS = {"TAKES": "take", "DROPS": "drop", "RESIGNS": "resign"}
_RESULT_KINDS = {"WINS": "win", "LOSSES": "loss"}
_ROLL_MARKERS = {"CANNOT_MOVE": "cannot_move", "RESIGN_MARK": "resign_mark", "RESIGNS": "resign_mark",
                 "ILLEGAL": "illegal"}


def _tokens(line: str) -> list[tuple[str, int, int]]:
    """Lex ``line`` exactly like the grammar's basic lexer: ``(terminal, start, end)``."""
    out: list[tuple[str, int, int]] = []
    match = _MASTER.match
    pos = 0
    while True:
        m = match(line, pos)
        if m is None:
            return out
        name = m.lastgroup
        assert name is not None
        out.append((name, m.start(name), m.end()))
        pos = m.end()


_WORD = r"[0-9]++/\S*+"  # starts with digits then '/': the lexer can only read PLAY_WORD
# Possessive quantifiers: blanks and words never need giving back here (a word and a roll
# cannot start alike), and not trying makes the match about twice as fast.
_ROLLS_LINE = re.compile(
    r" *+(?:([0-9]{1,9})\) ++)?"
    r"([0-9][0-9]):(?: ++(" + _WORD + r"(?: ++" + _WORD + r")*+))?"
    r"(?: ++([0-9][0-9]):(?: ++(" + _WORD + r"(?: ++" + _WORD + r")*+))?)? *+"
)


_DICE = {f"{a}{b}": (a, b) for a in range(1, 7) for b in range(1, 7)}
_FAST_LINES = True
"""The reader takes :func:`_scan_rolls` lines straight to actions (tests switch it off to
compare with the general path)."""


def _scan_rolls(line: str) -> ScannedLine | None:
    """The most common action line in one regex match: an optional ``N)`` and one or two
    rolls, each with or without a play of ``from/to`` words, blanks between tokens.

    None for any other line. When it answers, :func:`_scan_tokens` (and so the grammar)
    gives the same result: every word of such a line is one token of the kind read here
    (tests/test_mat_reader.py checks it).
    """
    m = _ROLLS_LINE.fullmatch(line)
    if m is None:
        return None
    row = None
    if m.start(1) >= 0:
        row = (m.start(1), m.end(1) + 1, int(m.group(1)))
    cells = []
    for dice_group in (2, 4):
        s = m.start(dice_group)
        if s < 0:
            break
        ps, pe = m.span(dice_group + 1)
        if ps >= 0:
            cells.append(LineCell("roll", s, pe, m.group(dice_group), "play", ps, pe))
        else:
            cells.append(LineCell("roll", s, s + 3, m.group(dice_group)))
    return ScannedLine("action", row=row, cells=tuple(cells))


def scan_line(line: str) -> ScannedLine | ScanError:
    """Classify and split one line (no newline) following ``mat_line.lark``; fast path."""
    fast = _scan_rolls(line)
    if fast is not None:
        return fast
    return _scan_tokens(line)


def _scan_tokens(line: str) -> ScannedLine | ScanError:
    """:func:`scan_line` for every line: the grammar's lexer and a recogniser of its rules."""
    toks = _tokens(line)
    n = len(toks)
    if n == 0:
        return ScannedLine("action")
    first = toks[0][0]
    if first == "COMMENT":
        return ScannedLine("comment") if n == 1 else ScanError(toks[1][1], toks[1][0])
    if first == "INT":
        if n >= 2 and toks[1][0] == "POINT":
            if n >= 3 and toks[2][0] == "MATCH":
                if n == 3:
                    return ScannedLine("length", int(line[toks[0][1]:toks[0][2]]))
                return ScanError(toks[3][1], toks[3][0])
            return _eol_or(toks, 2, len(line))
        return _eol_or(toks, 1, len(line))
    if first == "GAME":
        if n >= 2 and toks[1][0] == "INT":
            if n == 2:
                return ScannedLine("game", int(line[toks[1][1]:toks[1][2]]))
            return ScanError(toks[2][1], toks[2][0])
        return _eol_or(toks, 1, len(line))
    i = 0
    row: tuple[int, int, int] | None = None
    if first == "ROWNUM":
        s, e = toks[0][1], toks[0][2]
        row = (s, e, int(line[s:e - 1]))
        i = 1
    cells: list[LineCell] = []
    while i < n:
        name, s, e = toks[i]
        if name == "ROLL":
            i += 1
            if i < n and toks[i][0] in _ROLL_MARKERS:
                _, ms, me = toks[i]
                cells.append(LineCell("roll", s, me, line[s:s + 2], _ROLL_MARKERS[toks[i][0]], ms, me))
                i += 1
            elif i < n and (toks[i][0] == "PLAY_WORD" or toks[i][0] == "INT"):
                ps = toks[i][1]
                while i < n and (toks[i][0] == "PLAY_WORD" or toks[i][0] == "INT"):
                    i += 1
                pe = toks[i - 1][2]
                cells.append(LineCell("roll", s, pe, line[s:s + 2], "play", ps, pe))
            else:
                cells.append(LineCell("roll", s, e, line[s:s + 2]))
        elif name in _CUBE_KINDS:
            i += 1
            if i < n and toks[i][0] == "ARROW":
                if i + 1 < n and toks[i + 1][0] == "INT":
                    _, vs, ve = toks[i + 1]
                    cells.append(LineCell(_CUBE_KINDS[name], s, ve, value=int(line[vs:ve])))
                    i += 2
                else:
                    return _eol_or(toks, i + 1, len(line))
            else:
                cells.append(LineCell(_CUBE_KINDS[name], s, e))
        elif name == "RESIGN_MARK":
            cells.append(LineCell("resign", s, e, rest="resign_mark", text_start=s, text_end=e))
            i += 1
        elif name in _BARE_KINDS:
            cells.append(LineCell(_BARE_KINDS[name], s, e))
            i += 1
        elif name in _RESULT_KINDS:
            if i + 2 < n and toks[i + 1][0] == "INT" and toks[i + 2][0] == "POINT":
                _, vs, ve = toks[i + 1]
                end = toks[i + 2][2]
                atm = i + 3 < n and toks[i + 3][0] == "AND_THE_MATCH"
                if atm:
                    end = toks[i + 3][2]
                cells.append(LineCell(_RESULT_KINDS[name], s, end, value=int(line[vs:ve]),
                                      and_the_match=atm))
                i += 4 if atm else 3
            elif i + 1 < n and toks[i + 1][0] == "INT":
                return _eol_or(toks, i + 2, len(line))
            else:
                return _eol_or(toks, i + 1, len(line))
        else:
            return ScanError(s, name)
    return ScannedLine("action", row=row, cells=tuple(cells))


def _eol_or(toks: list[tuple[str, int, int]], i: int, eol: int) -> ScanError:
    """The error at token ``i``, or at the end of the line when the line stops too early."""
    if i < len(toks):
        return ScanError(toks[i][1], toks[i][0])
    return ScanError(eol, "$END")


# ---------------------------------------------------------------------------------------------
# The grammar itself (Lark), loaded lazily once.
# ---------------------------------------------------------------------------------------------

def grammar_text() -> str:
    """The text of ``mat_line.lark``: from the source tree, else from ``bgtools.grammars``."""
    return notation.grammar_text(GRAMMAR_FILE)


def line_parser() -> Lark:
    """The LALR parser of ``mat_line.lark`` (built on first use, then cached)."""
    return notation.load_grammar(GRAMMAR_FILE, lexer="basic", propagate_positions=False)


def scan_line_lark(line: str) -> ScannedLine | ScanError:
    """Classify and split one line with the Lark grammar (reference for :func:`scan_line`)."""
    from lark import Token, Tree
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

    try:
        tree = line_parser().parse(line)
    except UnexpectedToken as err:
        bad = err.token
        if bad.type == "$END" or bad.start_pos is None:
            return ScanError(len(line), "$END")
        return ScanError(bad.start_pos, str(bad.type))
    except UnexpectedCharacters as err:  # pragma: no cover - PLAY_WORD matches any non-blank
        return ScanError(err.pos_in_stream or 0, "?")
    except UnexpectedInput:  # pragma: no cover
        return ScanError(len(line), "$END")

    def tok(x: Any) -> Token:
        assert isinstance(x, Token)
        return x

    kind = str(tree.data)
    if kind == "comment_line":
        return ScannedLine("comment")
    if kind == "length_line":
        return ScannedLine("length", int(tok(tree.children[0])))
    if kind == "game_line":
        return ScannedLine("game", int(tok(tree.children[1])))
    row: tuple[int, int, int] | None = None
    cells: list[LineCell] = []
    for child in tree.children:
        if isinstance(child, Token):  # ROWNUM
            s = child.start_pos or 0
            row = (s, child.end_pos or s, int(str(child)[:-1]))
            continue
        assert isinstance(child, Tree)
        ckind = str(child.data)
        first = tok(child.children[0])
        s = first.start_pos or 0
        e = first.end_pos or s
        if ckind == "roll":
            if len(child.children) == 1:
                cells.append(LineCell("roll", s, e, str(first)[:2]))
                continue
            rest = child.children[1]
            assert isinstance(rest, Tree)
            words = [tok(w) for w in rest.children]
            ts, te = words[0].start_pos or 0, words[-1].end_pos or 0
            cells.append(LineCell("roll", s, te, str(first)[:2], str(rest.data), ts, te))
        elif ckind in ("double", "beaver", "raccoon"):
            if len(child.children) == 2:
                cube = child.children[1]
                assert isinstance(cube, Tree)
                value = tok(cube.children[1])
                cells.append(LineCell(ckind, s, value.end_pos or e, value=int(value)))
            else:
                cells.append(LineCell(ckind, s, e))
        elif ckind == "resign" and first.type == "RESIGN_MARK":
            cells.append(LineCell("resign", s, e, rest="resign_mark", text_start=s, text_end=e))
        elif ckind in ("take", "drop", "resign"):
            cells.append(LineCell(ckind, s, e))
        else:  # win, loss
            parts = [tok(x) for x in child.children]
            cells.append(LineCell(ckind, s, parts[-1].end_pos or e, value=int(parts[1]),
                                  and_the_match=len(parts) == 4))
    return ScannedLine("action", row=row, cells=tuple(cells))


def _describe_error(line: str, err: ScanError) -> str:
    """A human message for an unreadable line, with the grammar's expectations when known."""
    if err.found == "$END":
        found = "end of line"
    else:
        words = line[err.offset:].split(None, 1)
        found = repr(words[0][:40]) if words else "end of line"
    expected = ""
    try:
        from lark.exceptions import UnexpectedInput

        try:
            line_parser().parse(line)
        except UnexpectedInput as lark_err:
            names = sorted(getattr(lark_err, "expected", None) or ())
            if names:
                expected = " (expected " + ", ".join(_PRETTY.get(x, x) for x in names) + ")"
    except Exception:  # noqa: BLE001 - the message is best effort, reading must go on
        expected = ""
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
    followed by a number and blanks; the line must end with ``: s1``. None if it does not fit."""
    m = _FIRST_SCORE_RE.search(line)
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


@dataclass(slots=True)
class _GameState:
    """Per-game layout knowledge used to give a lone cell to a column."""

    game: GameRecord
    index: int
    left_column: int = _DEFAULT_LEFT_COLUMN
    right_column: int = _DEFAULT_RIGHT_COLUMN
    awaiting_score: bool = True
    flush_result: Action | None = None
    """A ``Losses N`` cell on an unnumbered row written left of the left column (Galaxy):
    its column says nothing, so it is the loser's, i.e. of the player the next ``Wins`` cell
    does not name."""


class _Reader:
    """Line-by-line state machine building the records."""

    def __init__(self) -> None:
        self.records: list[MatchRecord] = [MatchRecord(format="mat")]
        self.state: _GameState | None = None
        self.pending: list[tuple[int, str]] = []  # comment lines after games, owner not known yet

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
        if self.record.games:
            self.records.append(MatchRecord(format="mat"))
            self.state = None
        elif self.record.length_line is not None:
            self.problem(f"second match length line (first on line {self.record.length_line})", lineno)
        self.flush_pending()
        self.record.match_length = length
        self.record.length_line = lineno

    def game_line(self, lineno: int, number: int) -> None:
        self.flush_pending()
        if self.state is not None and self.state.awaiting_score:
            self.problem(f"game {self.state.game.number} has no score line", self.state.game.line or lineno)
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
            action = self.make_action(lineno, line, cell, player)
            if action is not None:
                if row is not None:
                    action.extra["row"] = row
                if (flush is not None and action.kind == "win" and actions
                        and actions[-1] is flush and flush.player == action.player):
                    flush.player = 1 - action.player
                actions.append(action)
        if (scanned.row is None and len(cells) == 1 and cells[0].kind == "loss"
                and cells[0].start + 1 < left):
            state.flush_result = actions[-1]  # make_action always makes a loss cell's action

    def make_action(self, lineno: int, line: str, cell: LineCell, player: int) -> Action | None:
        kind = cell.kind
        column = cell.start + 1
        if kind == "roll":
            d1, d2 = ord(cell.dice[0]) - 48, ord(cell.dice[1]) - 48
            if cell.dice == "00" and cell.rest == "resign_mark":
                # Backgammon Studio's resignation before rolling: no dice, then the marker.
                action = Action(kind="resign", player=player, line=lineno, column=column,
                                resign_marker=True)
                action.extra["marker"] = line[cell.start:cell.text_end]
                return action
            if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
                self.problem(f"roll {cell.dice!r}: dice must be 1 to 6", lineno, column)
                return None
            rest = cell.rest
            action = Action(kind="roll", player=player, line=lineno, column=column, dice=(d1, d2))
            if rest == "play":
                action.play_text = line[cell.text_start:cell.text_end]
                action.play_column = cell.text_start + 1
            elif rest:
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
            return Action(kind=akind, player=player, line=lineno, column=column, cube=cell.value)
        if kind in ("win", "loss"):
            akind = "win" if kind == "win" else "loss"
            return Action(kind=akind, player=player, line=lineno, column=column, points=cell.value,
                          and_the_match=cell.and_the_match)
        akind = "take" if kind == "take" else ("drop" if kind == "drop" else "resign")
        action = Action(kind=akind, player=player, line=lineno, column=column)
        if cell.rest == "resign_mark":
            action.resign_marker = True
            action.extra["marker"] = line[cell.start:cell.end]
        return action

    def rolls_line(self, lineno: int, line: str, m: re.Match[str], state: _GameState) -> bool:
        """:meth:`action_line` for a line :func:`_scan_rolls` reads, straight from its match
        (the hot path: most lines of a record); False (nothing done) when a roll's dice are
        not 1 to 6, which the general path reports."""
        _, (row_start, row_end), (start1, _), (text1, end1), (start2, _), (text2, end2) = m.regs
        dice1 = _DICE.get(line[start1:start1 + 2])
        dice2 = _DICE.get(line[start2:start2 + 2]) if start2 >= 0 else None
        if dice1 is None or (start2 >= 0 and dice2 is None):
            return False
        if self.pending:
            self.flush_pending()
        row: int | None = None
        if row_start >= 0:
            row = int(line[row_start:row_end])
            left = row_end + 3
            state.left_column = left
        else:
            left = state.left_column
        actions = state.game.actions
        player = 0
        if start2 < 0:
            if 2 * start1 + 2 >= left + state.right_column:
                player = 1
        else:
            if 2 * start1 + 2 >= left + state.right_column + 2:
                self.problem("two cells in the right column", lineno, start1 + 1)
                return True
            if start2 - (end1 if text1 >= 0 else start1 + 3) >= 2:
                state.right_column = start2 + 1
        if text1 >= 0:
            actions.append(Action("roll", player, lineno, start1 + 1, dice1, line[text1:end1],
                                  text1 + 1, extra={} if row is None else {"row": row}))
        else:
            actions.append(Action("roll", player, lineno, start1 + 1, dice1,
                                  extra={} if row is None else {"row": row}))
        if start2 >= 0:
            if text2 >= 0:
                actions.append(Action("roll", 1, lineno, start2 + 1, dice2, line[text2:end2],
                                      text2 + 1, extra={} if row is None else {"row": row}))
            else:
                actions.append(Action("roll", 1, lineno, start2 + 1, dice2,
                                      extra={} if row is None else {"row": row}))
        return True

    # -- driver -----------------------------------------------------------------------------
    def feed(self, lineno: int, line: str) -> None:
        if not line or line.isspace():
            return
        if len(line) > MAX_LINE_LENGTH:
            self.problem(f"line {lineno} is {len(line):,} characters long; the limit "
                         f"MAX_LINE_CHARS is {MAX_LINE_LENGTH:,}; line skipped", lineno, 1)
            return
        state = self.state
        if state is not None and state.awaiting_score:
            stripped = line.lstrip()
            if stripped[0] not in ";#":
                sl = _split_score_line(line)
                if sl is not None:
                    self.score_line(lineno, sl, state)
                    return
                state.awaiting_score = False
                self.problem("expected a score line 'name : score   name : score' after the game header",
                             lineno, len(line) - len(stripped) + 1)
        scanned = scan_line(line)
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
            self.problem(f"game {self.state.game.number} has no score line", self.state.game.line or nlines)
        first = self.records[0]
        if len(self.records) == 1 and first.length_line is None and not first.games:
            first.problems.insert(0, Problem(
                rule="syntax", line=1, column=1,
                message="not a .mat match file: no 'N point match' line and no 'Game N' header"))
        return self.records


def parse_mat(text: str) -> list[MatchRecord]:
    """Read a ``.mat`` text into match records (usually one; one per ``N point match`` line
    that follows games). Never raises on bad text: problems go to ``MatchRecord.problems``."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = normalise_newlines(text).split("\n")
    reader = _Reader()
    feed = reader.feed
    if not _FAST_LINES:
        for lineno, line in enumerate(lines, 1):
            feed(lineno, line)
        return reader.finish(len(lines))
    rolls = _ROLLS_LINE.fullmatch
    rolls_line = reader.rolls_line
    for lineno, line in enumerate(lines, 1):
        # What feed() would do with a line of rolls once the game's score line is read.
        state = reader.state
        if state is not None and not state.awaiting_score and len(line) <= MAX_LINE_LENGTH:
            m = rolls(line)
            if m is not None and rolls_line(lineno, line, m, state):
                continue
        feed(lineno, line)
    return reader.finish(len(lines))


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
