"""Tests of the Jellyfish .mat reader (bgtools.readers.mat) and of decode_bytes."""

from __future__ import annotations

import itertools
import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgtools.grammars import MAT_LINE, parser, terminals
from bgtools.readers import mat
from bgtools.readers.mat import (
    LineCell,
    ScanError,
    ScannedLine,
    looks_like_mat,
    parse_mat,
    scan_line,
    scan_line_lark,
)
from bgtools.readers.source import decode_bytes
from bgtools.record import Action, GameRecord, MatchRecord
from tests.helpers.paths import BUNDLED_CORPUS, FILES
from tests.helpers.paths import CORPUS as SHARED_CORPUS
from tests.helpers.strategies import mat_lines

CORPUS = SHARED_CORPUS if SHARED_CORPUS.is_dir() else BUNDLED_CORPUS
"""The shared corpus, or without it its licensed part shipped in tests/files/corpus."""

XG_FILE = FILES / "lazyBG_match1.txt"
GALAXY_FILE = FILES / "match3539770.txt"
STUDIO_FILE = FILES / "solnze_-_Lasse_3pt_2024_05_11_19_56_16.txt"
FIBS_FILE = SHARED_CORPUS / "fibs" / "willvlc-nori-2009Mar021903.txt"
"""A FIBS record with ratings: no licence allows shipping it, so it is read from the shared
corpus and its tests skip without it."""
DATA_FILES = [XG_FILE, GALAXY_FILE, STUDIO_FILE, *([FIBS_FILE] if FIBS_FILE.exists() else [])]

# Corpus files that are not .mat at all (SOURCES.md flag "other-format").
NOT_MAT = {"gnubg/match1486073_analyzed.txt"}


def read(path: Path) -> list[MatchRecord]:
    text, _ = decode_bytes(path.read_bytes())
    return parse_mat(text)


def one(text: str) -> MatchRecord:
    records = parse_mat(text)
    assert len(records) == 1
    return records[0]


def cells(game: GameRecord) -> list[tuple[str, int]]:
    return [(a.kind, a.player) for a in game.actions]


def sequence_issues(game: GameRecord) -> list[str]:
    """Structural sanity of one game's cells: players alternate (FORMATS.md 2.5), answers follow
    offers, nothing follows a drop or a result, at most one Wins, winner is not the dropper."""
    issues: list[str] = []
    moves = [a for a in game.actions if a.kind not in ("win", "loss", "resign")]
    for a, b in itertools.pairwise(moves):
        where = f"line {b.line}"
        if a.player == b.player:
            issues.append(f"{where}: {a.kind} by {a.player} then {b.kind} by {b.player}")
        if b.kind in ("take", "drop") and a.kind not in ("double", "beaver", "raccoon"):
            issues.append(f"{where}: {b.kind} after {a.kind}")
        if a.kind == "double" and b.kind not in ("take", "drop", "beaver"):
            issues.append(f"{where}: {b.kind} after a double")
        if a.kind == "drop":
            issues.append(f"{where}: {b.kind} after a drop")
    results = [i for i, a in enumerate(game.actions) if a.kind in ("win", "loss", "resign")]
    if results and any(a.kind not in ("win", "loss", "resign") for a in game.actions[results[0]:]):
        issues.append(f"a cell after the result on line {game.actions[results[0]].line}")
    wins = [a for a in game.actions if a.kind == "win"]
    if len(wins) > 1:
        issues.append("two Wins cells")
    if wins and moves and moves[-1].kind == "drop" and moves[-1].player == wins[0].player:
        issues.append("the dropper wins")
    return issues


def corpus_files(shared_only: bool = False) -> list[Path]:
    """The .mat/.txt files of the corpus (the shipped part without ../shared); with
    ``shared_only``, of the shared corpus alone (for totals and features only it has)."""
    if shared_only and not SHARED_CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in (".mat", ".txt")
                   and p.name != "SOURCES.md")
    if not files:
        pytest.skip("corpus is empty")
    return files


# --------------------------------------------------------------------------------------------
# The grammar and the fast path are the same thing
# --------------------------------------------------------------------------------------------


# The terminals the fast path reads a token with (all but PLAY_WORD, read as move words).
FAST_TERMINALS = [t.name for t in terminals(MAT_LINE).terminals if t.name != "PLAY_WORD"]


def _first_token(text: str) -> tuple[str, int] | None:
    """The terminal and end of the first token Lark's lexer reads in ``text``."""
    for token in parser(MAT_LINE).lex(text):
        return token.type, token.end_pos or 0
    return None


@pytest.mark.parametrize("name", FAST_TERMINALS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_token_the_fast_path_reads_is_the_one_the_lexer_reads(name: str,
                                                                data: st.DataObject) -> None:
    """Where the fast path reads terminal T (its pattern, as an atomic group), Lark's lexer
    reads T too, with the same extent: no terminal before T in the lexer's order matches
    there. So the fast path, which reads each token with the one terminal the grammar allows
    at that place, tokenises like the lexer."""
    terminal = terminals(MAT_LINE)[name]
    token = data.draw(st.from_regex(terminal.regex, fullmatch=True).filter(
        lambda t: bool(t) and not t[0].isspace()))
    text = token + data.draw(st.sampled_from(["", " ", "  x", "=>2", ")", ":", "/3", "1", "é"]))
    mine = re.compile(f"(?>{terminal.regex})").match(text)
    if mine is None:  # a lookahead of T's pattern fails on this suffix
        return
    assert _first_token(text) == (name, mine.end()), (name, text)


def _same(line: str) -> bool:
    """True when the fast path (the word scanner) read ``line``; then the grammar reads it
    the same (so the grammar accepts it)."""
    fast = mat._scan_words(line)  # noqa: SLF001 - the fast path under test
    if fast is None:
        return False
    ref = scan_line_lark(line)
    assert fast == ref, (line, fast, ref)
    return True


def _words_read_it(line: str) -> bool:
    """True when the word scanner reads ``line``, which :func:`_same` then proves right."""
    return mat._scan_words(line) is not None  # noqa: SLF001


def _fast_unless_an_error(line: str) -> None:
    """The fast path reads every line the grammar accepts (corpus lines: all of them)."""
    if not _same(line):
        assert isinstance(scan_line_lark(line), ScanError), line


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: p.name)
def test_fast_path_equals_grammar_on_data_files(path: Path) -> None:
    text, _ = decode_bytes(path.read_bytes())
    for line in text.split("\n"):
        _fast_unless_an_error(line)


# The words the word scanner classes by the grammar's terminals, as the lexer reads them.
WORDS = [
    "63:", "11:", "6:", "123:", "63:13/7", "1)", "12)", "12)x", "1234567890)", "13/7", "bar/21",
    "Bar/21(2)", "25/22*", "6/off", "13", "1234567890", "=>", "=>2", "Doubles", "doubles=>2",
    "Double", "Beavers", "Raccoon", "Takes", "take", "Drop", "Drops,", "Resigns", "Concede",
    "Wins", "Win", "Winsome", "Losses", "Loss", "point", "Points", "match", "Game", "game",
    "???", "????", "?????", "Cannot", "cannot", "Move", "and", "AND", "the", "Illegal", "play",
    "(1;2;-3;)", ";", "#x", "x;", "\u017f", "double\u017f", "\u0131llegal", "é",
]
SEPARATORS = [" ", "  ", "\t", "\xa0", "\u3000", "\x1c"]


def _lexed_tokens(text: str) -> list[tuple[str, int, int]]:
    """The tokens Lark's lexer reads in ``text``: (terminal, start, end)."""
    return [(t.type, t.start_pos or 0, t.end_pos or 0) for t in parser(MAT_LINE).lex(text)]


@settings(max_examples=600, deadline=None)
@given(st.one_of(st.sampled_from(WORDS),
                 st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=12)
                 .filter(lambda t: not any(c.isspace() for c in t))),
       st.sampled_from(SEPARATORS), st.sampled_from(WORDS))
def test_word_classes_are_the_lexers_tokens(word: str, blank: str, after: str) -> None:
    """A word the scanner classes as terminal T is one token T for the lexer, whatever
    follows it after a blank; a word it leaves (``-``) is not one token of its own there,
    or may begin a token of several words."""
    assert not any(c.isspace() for c in word)
    kind = mat._classify_word(word)  # noqa: SLF001
    text = word + blank + after
    first = _lexed_tokens(text)[0]
    if kind == "COMMENT":  # the rest of the line: the scanner reads it only as a whole line
        assert first == ("COMMENT", 0, len(text)), (word, after, first)
    elif kind != mat._SPLIT:  # noqa: SLF001
        assert first == (kind, 0, len(word)), (word, after, first)
    elif _lexed_tokens(word)[0] == (first[0], 0, len(word)):  # one token alone ...
        assert any(lead.fullmatch(word) for lead in mat._word_syntax().leads), word  # noqa: SLF001


_DIGIT_WORD_ALPHABET = "0123456789:)(/*xo\u0663\uff10"


@settings(max_examples=800, deadline=None)
@given(st.sampled_from("0123456789"),
       st.text(alphabet=st.sampled_from(_DIGIT_WORD_ALPHABET), max_size=14))
def test_digit_words_are_classed_as_the_terminals_class_them(first: str, rest: str) -> None:
    """The word scanner classes a word that begins with a digit from its code points, not by
    the terminals' expressions: the same class for every such word (Arabic-Indic and
    full-width digits are not [0-9])."""
    word = first + rest
    assert mat._digit_word_class(word) == mat._classify_word(word), word  # noqa: SLF001


def test_digit_words_up_to_four_characters_are_classed_as_the_terminals_class_them() -> None:
    """Every word of up to four characters of digits, ``:``, ``)`` and ``/`` that begins with
    a digit (all the shapes of roll, row, point and play prefixes), exhaustively."""
    alphabet = "09:)/"
    words = [first + "".join(rest) for first in "05" for size in range(4)
             for rest in itertools.product(alphabet, repeat=size)]
    for word in words:
        assert mat._digit_word_class(word) == mat._classify_word(word), word  # noqa: SLF001


def test_the_tokens_that_span_blanks_are_known() -> None:
    """The word scanner reads three terminals across blanks (and COMMENT, which takes the
    rest of the line); any other terminal that can match a blank must be taught to it."""
    syntax = mat._word_syntax()  # noqa: SLF001
    assert set(syntax.spanning) == {"ILLEGAL", "CANNOT_MOVE", "AND_THE_MATCH"}
    assert sorted(lead.pattern for lead in syntax.leads) == [
        "(?i:and)", "(?i:cannot)", "(?i:illegal)"]
    for terminal in terminals(MAT_LINE).terminals:
        can_span = any(re.compile(f"(?:{terminal.regex})").fullmatch(text) for text in
                       ("Cannot Move", "and the match", "Illegal play (1; 2)", "; a b"))
        assert can_span == (terminal.name in {*syntax.spanning, "COMMENT"}), terminal.name


def test_word_scanner_reads_every_gnubg_action_line() -> None:
    """Every line of GNU Backgammon's export but its score lines takes the quick path."""
    for path in sorted((FILES / "selfplay").glob("*.mat")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            if line.strip() and " : " not in line:
                assert _words_read_it(line), line
                assert _same(line)


@pytest.mark.slow
def test_fast_path_equals_grammar_on_corpus() -> None:
    seen: set[str] = set()
    for path in corpus_files():
        text, _ = decode_bytes(path.read_bytes())
        for line in text.split("\n"):
            if line not in seen:
                seen.add(line)
                _fast_unless_an_error(line)
    assert len(seen) > 1000


FRAGMENTS = [
    "  1)", "12)", "1)", "63:", "11:", "07:", "6:", "123:", "13/7", "bar/21", "25/22*", "8/5(2)",
    "6/off", "13", "7", "Doubles", "doubles", "Doubles=>2", "=>", "=>4", "2", "16", "Takes",
    "Drops", "Drop", "Wins", "wins", "Win", "1", "point", "Points", "and the match", "and",
    "the", "match", "Losses", "Loss", "Cannot Move", "cannot  move", "Cannot", "???", "????",
    "?????", "Illegal play (1;2;-3;)", "Illegal play (", "Illegal  play(x)", "Beavers",
    "Raccoons", "Resigns", "Concedes", "Game", "game", "; [Site \"x\"]", "# note", ";", "#",
    "1234567890", "9999999999)", "x", "Winsome", "Drops,", ":", ")", "(", "\t", "\xa0", "é",
]


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(FRAGMENTS),
                          st.sampled_from(["", " ", "  ", "      ", "\t"])),
                max_size=9),
       st.sampled_from(["", " ", "   "]))
def test_fast_path_equals_grammar_on_generated_lines(parts: list[tuple[str, str]],
                                                     lead: str) -> None:
    _same(lead + "".join(frag + sep for frag, sep in parts))


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(WORDS + FRAGMENTS), st.sampled_from(SEPARATORS)),
                max_size=9),
       st.sampled_from(["", " ", "   ", "\t"]))
def test_word_scanner_equals_grammar_on_lines_of_words(parts: list[tuple[str, str]],
                                                      lead: str) -> None:
    """Lines of words, blanks of every kind between them: whatever the word scanner reads,
    the grammar reads the same (and the scanner reads many of them)."""
    _same(lead + "".join(word + blank for word, blank in parts))


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mat_lines)
def test_fast_path_equals_grammar_on_lines_of_cells(line: str) -> None:
    _same(line)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\n\r"), max_size=80))
def test_fast_path_equals_grammar_on_random_text(line: str) -> None:
    _same(line)
    assert scan_line(line) == (mat._scan_words(line) or scan_line_lark(line))  # noqa: SLF001


def test_scan_examples() -> None:
    line = "  3) 33: 8/5 8/5 6/3 6/3         41: 25/21 10/9 "
    got = scan_line(line)
    assert isinstance(got, ScannedLine) and got.kind == "action"
    assert got.row == (2, 4, 3)
    assert got.cells == (
        LineCell("roll", 5, 24, "33", "play", 9, 24),
        LineCell("roll", 33, 47, "41", "play", 37, 47),
    )
    assert scan_line(" 3 point match") == ScannedLine("length", 3)
    assert scan_line(" Game 12") == ScannedLine("game", 12)
    assert scan_line("; [Site \"x\"]") == ScannedLine("comment")
    assert scan_line("   ") == ScannedLine("action")
    err = scan_line("  4)  Wins 2 pts")
    assert isinstance(err, ScanError) and err.offset == 13
    assert scan_line("  4)  Wins 2") == ScanError(12, "$END", ("POINT",))


# --------------------------------------------------------------------------------------------
# Inline texts
# --------------------------------------------------------------------------------------------

GNUBG_EXAMPLE = """\
; [EventDate "2026.11.29"]

 3 point match

 Game 1
 Alice : 0                      Bob : 0
  1)                             63: 13/7 13/10 
  2) 65: 24/18* 18/13            66: 
  3) 33: 8/5 8/5 6/3 6/3         41: 25/21 10/9 
  4)  Doubles => 2                Drops
      Wins 1 point

 Game 2
 Alice : 1                      Bob : 0
  1) 52: 13/8 13/11              64: 24/18 18/14* 
  2) 55: 25/20 13/8 6/1* 6/1     21: 25/23 6/5* 
  3)  Doubles => 2                Takes
  4) 42: 25/23 24/20*            62: 25/23 14/8 
  5) 65:                         Wins 2 points

 Game 4
 Alice : 2                      Bob : 2
  1) 52: 13/8 24/22              62: 24/18 18/16 
  2) 53: 8/3 6/3                 44: 24/20 20/16 13/9 13/9
                                  Wins 2 points
"""


def test_gnubg_skeleton() -> None:
    rec = one(GNUBG_EXAMPLE)
    assert rec.format == "mat" and rec.problems == []
    assert rec.match_length == 3 and rec.length_line == 3
    assert rec.tags == [("EventDate", "2026.11.29")]
    assert [g.number for g in rec.games] == [1, 2, 4]
    g1 = rec.games[0]
    assert (g1.line, g1.names, g1.score, g1.score_line) == (5, ("Alice", "Bob"), (0, 0), 6)
    assert g1.score_columns == (10, 39)
    assert cells(g1) == [("roll", 1), ("roll", 0), ("roll", 1), ("roll", 0), ("roll", 1),
                         ("double", 0), ("drop", 1), ("win", 0)]
    first = g1.actions[0]
    assert (first.line, first.column, first.dice, first.play_text, first.play_column) == (
        7, 34, (6, 3), "13/7 13/10", 38)
    dance = g1.actions[2]
    assert dance.dice == (6, 6) and dance.play_text == "" and dance.play_column is None
    assert g1.actions[5].cube == 2 and g1.actions[5].column == 7
    assert g1.actions[7].points == 1 and not g1.actions[7].and_the_match
    g2 = rec.games[1]
    assert cells(g2)[-2:] == [("roll", 0), ("win", 1)]
    assert g2.actions[-1].points == 2 and g2.actions[-2].play_text == ""
    assert cells(rec.games[2])[-1] == ("win", 1)
    assert rec.names == ("Alice", "Bob")


@pytest.mark.parametrize("name", ["N" * 20, "N" * 26, "N" * 27, "Somebody With A Long Name, Jr"])
def test_a_long_first_name_leaving_no_blank_before_the_second_is_read(name: str) -> None:
    """gnubg pads ``" NAME : s"`` to 32 characters and writes the second name straight after,
    so a first name of 27 characters (26 with a two-digit score) touches the second name."""
    original = (FILES / "selfplay" / "m3_s1.mat").read_text()
    score_line = re.compile(r"^ (\S+) : ([0-9]+) +(\S+) : ([0-9]+)$", re.MULTILINE)
    long_named = score_line.sub(
        lambda m: " " + f"{name} : {m[2]}".ljust(31) + f"{m[3]} : {m[4]}", original)
    first = score_line.search(original)
    assert first is not None
    assert (f"{name} : 0{first[3]} : 0" in long_named) == (len(name) >= 27)
    before, after = one(original), one(long_named)
    assert after.problems == []
    assert [g.names for g in after.games] == [(name, g.names[1]) for g in before.games]
    assert [(g.score, g.actions) for g in after.games] == [
        (g.score, g.actions) for g in before.games]


def test_money_beaver_and_drop_with_wins_on_same_row() -> None:
    text = """ 0 point match

 Game 1
 Alice : 0                      Bob : 0
  1)                             54: 13/8 24/20 
  2)  Doubles => 2                Beavers => 4
  3) 65: 24/18 18/13             42: 24/20 13/11 
                                  Wins 4 points

 Game 2
 Alice : 0                      Bob : 4
  1) 52: 13/8 24/22               Doubles => 2
  2)  Drops                       Wins 1 point 
  3)  Raccoons => 8
"""
    rec = one(text)
    assert rec.match_length == 0
    g1, g2 = rec.games
    assert cells(g1) == [("roll", 1), ("double", 0), ("beaver", 1), ("roll", 0), ("roll", 1),
                         ("win", 1)]
    assert g1.actions[2].cube == 4
    assert cells(g2) == [("roll", 0), ("double", 1), ("drop", 0), ("win", 1), ("raccoon", 0)]
    assert g2.actions[-1].cube == 8


def test_dialect_cells() -> None:
    text = """\ufeff; [Site "eXtreme Gammon"]\r
; [Player 1 "A B"]\r
; Set Pos=xxxxx\r
; a free comment\r
\r
11 point match\r
\r
 Game 1\r
 Jo Ann, Smith : 0                     Dice-K,1650 : 0\r
  1) 54: 24/20 13/8                    42: 8/4 6/4                       \r
  2) 66: Cannot Move                    Doubles => 2                     \r
  3)  Takes                            54: 22/18 8/3                     \r
  4) 21: Illegal play (25;0;1;)  11: \r
  5) 51: ???                           63: Bar/22 13/7*\r
  6) ????                               Wins 2 point and the match\r
"""
    rec = one(text)
    assert rec.problems == []
    assert rec.tags == [("Site", "eXtreme Gammon"), ("Player 1", "A B")]
    assert rec.comments == ["a free comment"]
    assert rec.extra["set_pos"] == [{"line": 3, "game": None, "text": "Set Pos=xxxxx"}]
    game = rec.games[0]
    assert game.names == ("Jo Ann, Smith", "Dice-K")
    assert game.extra["ratings"] == (None, "1650")
    acts = game.actions
    assert [(a.kind, a.player) for a in acts] == [
        ("roll", 0), ("roll", 1), ("roll", 0), ("double", 1), ("take", 0), ("roll", 1),
        ("roll", 0), ("roll", 1), ("roll", 0), ("roll", 1), ("resign", 0), ("win", 1)]
    assert acts[2].cannot_move and acts[2].play_text == "" and acts[2].play_column == 10
    assert acts[6].illegal and acts[6].illegal_text == "Illegal play (25;0;1;)"
    assert acts[6].play_text == "" and acts[7].dice == (1, 1) and acts[7].column == 34
    assert acts[8].resign_marker and acts[8].extra["marker"] == "???"
    assert acts[9].play_text == "Bar/22 13/7*" and acts[9].column == 40
    assert acts[10].resign_marker and acts[10].extra["marker"] == "????"
    assert acts[11].and_the_match and acts[11].points == 2
    assert all(a.extra.get("row") == (a.line or 0) - 9 for a in acts)


def test_row_numbers_optional_and_studio_shift() -> None:
    text = """7 point match
 Game 1
 A : 0                                  B : 0
 63: 13/7 13/10                         41: 24/23 13/9
                                        52: 13/8 13/11
  10) 21: 6/4 4/3                       Doubles => 2
  11)  Drops                            Wins 1 point
"""
    rec = one(text)
    assert rec.problems == []
    assert cells(rec.games[0]) == [("roll", 0), ("roll", 1), ("roll", 1), ("roll", 0),
                                   ("double", 1), ("drop", 0), ("win", 1)]


def test_overflowing_left_cell_and_any_right_column() -> None:
    text = """ 5 point match
 Game 1
 A : 0                       B : 0
  2) 33: 24/21 24/21 13/10 13/10 62: 24/22 22/16 
  3) 66: 21/15 21/15 15/9* 15/9  63: 25/22 13/7 
  4) 41: 8/7 6/2                          52: 13/8 13/11
  5) 52: 13/8 13/11
                                          Wins 1 point
"""
    rec = one(text)
    g = rec.games[0]
    assert cells(g) == [("roll", 0), ("roll", 1)] * 3 + [("roll", 0), ("win", 1)]
    assert g.actions[0].play_text == "24/21 24/21 13/10 13/10"
    assert g.actions[1].column == 34


def test_losses_rows() -> None:
    text = """3 point match

 Game 1
 lasse : 0                       tomtom : 0
  1) 42: 5/1 5/3                  Losses 2 point

      Wins 2 point and the match

 Game 2
 lasse : 0                       tomtom : 0
 26)  Losses 3 point                                               Wins 3 point and the match
"""
    g1, g2 = one(text).games
    assert cells(g1) == [("roll", 0), ("loss", 1), ("win", 0)]
    assert g1.actions[1].points == 2 and g1.actions[2].and_the_match
    assert cells(g2) == [("loss", 0), ("win", 1)]


def test_several_matches_in_one_file() -> None:
    text = """; [Site "one"]
 1 point match
 Game 1
 A : 0      B : 0
  1) 31: 8/5 6/5     42: 8/4 6/4
      Wins 1 point and the match

; [Site "two"]
 3 point match
 Game 1
 C : 0      D : 0
  1)                 42: 8/4 6/4
"""
    first, second = parse_mat(text)
    assert first.match_length == 1 and first.tags == [("Site", "one")]
    assert second.match_length == 3 and second.tags == [("Site", "two")] and second.length_line == 9
    assert second.games[0].names == ("C", "D") and cells(second.games[0]) == [("roll", 1)]


def test_truncated_file_and_comments_in_body() -> None:
    text = """ 3 point match

 Game 1
 A : 0                       B : 0
  1) 31: 8/5 6/5             42: 8/4 6/4
; abandoned here
  2) 61: 13/7 8"""
    rec = one(text)
    assert rec.problems == []
    assert rec.comments == ["abandoned here"]
    assert rec.games[0].comments == [(6, "abandoned here")]
    assert rec.games[0].actions[-1].play_text == "13/7 8"


def test_problems_are_reported_not_raised() -> None:
    text = """ 3 point match
  1) 31: 8/5 6/5             42: 8/4 6/4
 Game 1
  1) 31: 8/5 6/5             42: 8/4 6/4
  2) 77: 8/1                 Wins two points
  3) 31: 8/5   42: 8/4   Wins 1 point
  4) this is not a row
  5) 42: 8/4 6/4
"""
    rec = one(text)
    got = [(p.rule, p.line, p.column, p.game) for p in rec.problems]
    assert got == [
        ("syntax", 2, 6, None),    # action line before any game
        ("syntax", 4, 3, 1),       # no score line after the header
        ("syntax", 5, 35, 1),      # 'Wins two'
        ("syntax", 6, 26, 1),      # three cells on one row
        ("syntax", 7, 6, 1),       # junk
    ]
    assert "expected a number" in rec.problems[2].message
    assert all(p.severity.value == "error" for p in rec.problems)
    # the readable rows are still there
    assert [a.dice for a in rec.games[0].actions] == [(3, 1), (4, 2), (4, 2)]


def test_dice_out_of_range_is_a_problem() -> None:
    rec = one(" 1 point match\n Game 1\n A : 0    B : 0\n  1) 70: 8/1       42: 8/4 6/4\n")
    assert [(p.line, p.column) for p in rec.problems] == [(4, 6)]
    assert cells(rec.games[0]) == [("roll", 1)]


@pytest.mark.parametrize("text", ["", "\n\n", "hello world", "(;FF[4]GM[6])", '{"a": 1}',
                                  "The score (after 0 games) is: a 0, b 0 (match to 3 points)"])
def test_not_a_mat(text: str) -> None:
    rec = one(text)
    assert not looks_like_mat(text)
    assert rec.games == [] and rec.match_length is None
    assert "not a .mat" in rec.problems[0].message


def test_too_many_problems_are_capped() -> None:
    rec = one("junk line\n" * 1000)
    assert len(rec.problems) == mat.MAX_PROBLEMS + 1
    assert "not a .mat" in rec.problems[0].message
    assert "too many problems" in rec.problems[-1].message


def test_long_lines_and_numbers_do_not_break_the_reader() -> None:
    text = " 3 point match\n Game 1\n A : 0   B : 0\n" + "  1) 31: " + "8/5 " * 5000 + "\n"
    text += "  2) 31: 8/5 6/5   " + "9" * 500 + "\n Game 99999999999\n 1234567890 point match\n"
    text += " Game 2\n A : 1 : 2 : 3\n  1) 3" + "1" * 5000 + ": 8/5\n"
    rec = one(text)
    assert [p.line for p in rec.problems] == [4, 6, 7, 10]
    assert rec.games[0].actions[0].play_text.startswith("8/5 6/5   9999")
    assert rec.games[1].names == ("A", ": 2") and rec.games[1].score == (1, 3)


# --------------------------------------------------------------------------------------------
# looks_like_mat and decode_bytes
# --------------------------------------------------------------------------------------------


def test_looks_like_mat() -> None:
    for path in DATA_FILES:
        assert looks_like_mat(decode_bytes(path.read_bytes())[0])
    assert looks_like_mat(" Game 1\n\n Alice : 0     Bob : 0\n  1) 31: 8/5 6/5\n")
    assert not looks_like_mat(" Game 1\n hello\n")
    assert looks_like_mat("\ufeff\r\n 7 point match\r\n")


def test_decode_bytes() -> None:
    assert decode_bytes(b"\xef\xbb\xbfa\r\nb\rc\n") == ("a\nb\nc\n", "utf-8-sig")
    assert decode_bytes("Kévin\n".encode()) == ("Kévin\n", "utf-8")
    assert decode_bytes(b"\x93q\x94") == ("\u201cq\u201d", "cp1252")
    assert decode_bytes(b"a\x81b") == ("a\x81b", "latin-1")
    assert decode_bytes(b"") == ("", "utf-8")


@given(st.binary(max_size=300))
def test_decode_bytes_keeps_line_count(data: bytes) -> None:
    text, encoding = decode_bytes(data)
    assert "\r" not in text
    assert encoding in ("utf-8", "utf-8-sig", "cp1252", "latin-1")
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    assert text.count("\n") == body.count(b"\n") + body.count(b"\r") - body.count(b"\r\n")


# --------------------------------------------------------------------------------------------
# Robustness
# --------------------------------------------------------------------------------------------


def _check_record_shape(records: list[MatchRecord], text: str) -> None:
    assert records and all(isinstance(r, MatchRecord) for r in records)
    nlines = text.count("\n") + text.count("\r") + 1
    for rec in records:
        for p in rec.problems:
            assert p.rule == "syntax" and p.line is not None and 1 <= p.line <= nlines
        for game in rec.games:
            for a in game.actions:
                assert isinstance(a, Action) and a.player in (0, 1)
                assert a.line is not None and a.column is not None and a.column >= 1
                if a.kind == "roll":
                    assert a.dice is not None and all(1 <= d <= 6 for d in a.dice)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_parse_mat_never_raises_on_random_text(text: str) -> None:
    _check_record_shape(parse_mat(text), text)


MAT_ALPHABET = st.sampled_from(list(" \n\t0123456789:)/*;#[]\"=>?(") + [
    "Game ", "point match", "Wins ", "point", "Doubles", "Takes", "Drops", "Losses ", "\r\n",
    "Cannot Move", "Illegal play (", "and the match", "\ufeff"])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(MAT_ALPHABET, max_size=200).map("".join))
def test_parse_mat_never_raises_on_mat_like_noise(text: str) -> None:
    _check_record_shape(parse_mat(text), text)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_parse_mat_never_raises_on_mangled_files(data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(DATA_FILES))
    lines = decode_bytes(path.read_bytes())[0].split("\n")
    for _ in range(data.draw(st.integers(0, 6))):
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["delete", "duplicate", "cut", "swap", "insert"]))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "cut":
            lines[i] = lines[i][: data.draw(st.integers(0, max(0, len(lines[i]))))]
        elif op == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines.insert(i, data.draw(st.text(max_size=60)))
        if not lines:
            lines = [""]
    text = "\n".join(lines)
    _check_record_shape(parse_mat(text), text)


# --------------------------------------------------------------------------------------------
# The small copies of corpus files (always run)
# --------------------------------------------------------------------------------------------


def test_xg_file() -> None:
    data = XG_FILE.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and b"\r\n" in data
    text, encoding = decode_bytes(data)
    assert encoding == "utf-8-sig"
    (rec,) = parse_mat(text)
    assert rec.problems == [] and rec.match_length == 7 and len(rec.games) == 4
    assert rec.tag("player 1") is not None
    acts = [a for g in rec.games for a in g.actions]
    assert any(a.cannot_move for a in acts)
    resigned = [a for a in acts if a.resign_marker]
    assert [(a.line, a.dice) for a in resigned] == [(47, (1, 1)), (134, (4, 3))]
    assert all(rec.games[0].names == g.names for g in rec.games)
    for game in rec.games:
        assert sequence_issues(game) == []


def test_galaxy_losses_file() -> None:
    (rec,) = read(GALAXY_FILE)
    assert rec.problems == [] and [g.score for g in rec.games] == [(0, 0), (1, 0)]
    g1, g2 = rec.games
    assert cells(g1)[-3:] == [("double", 0), ("drop", 1), ("win", 0)]
    assert cells(g2)[-3:] == [("roll", 0), ("loss", 1), ("win", 0)]
    assert g2.actions[-1].and_the_match and g2.actions[-1].points == 2
    assert cells(g1)[0] == ("roll", 1) and g1.actions[0].column == 34


def test_studio_file() -> None:
    data = STUDIO_FILE.read_bytes()
    assert not data.endswith(b"\n")
    (rec,) = read(STUDIO_FILE)
    assert rec.problems == [] and rec.match_length == 3
    assert len(rec.tags) == 12 and rec.tag("ClockType") == "Standard 360/10"
    last = rec.games[1].actions[-3:]
    assert [(a.kind, a.player, a.resign_marker) for a in last] == [
        ("roll", 0, False), ("roll", 1, True), ("win", 0, False)]
    assert last[0].column == 7  # "  31) 51:": Studio's shifted numbering
    for game in rec.games:
        assert sequence_issues(game) == []


def test_fibs_file_with_ratings() -> None:
    if not FIBS_FILE.exists():
        pytest.skip("the FIBS record is only in the shared corpus")
    (rec,) = read(FIBS_FILE)
    assert rec.problems == []
    game = rec.games[0]
    assert game.names == ("willvlc", "nori") and game.extra["ratings"] == ("1757", "1779")
    assert game.actions[1].dice == (3, 6)  # as written, low die first
    assert game.score_columns == (17, 47)


def test_sequence_checker_catches_a_misattributed_cell() -> None:
    text = GNUBG_EXAMPLE.replace("  1)                             63: 13/7 13/10 ",
                                 "  1) 63: 13/7 13/10 ")
    assert sequence_issues(one(text).games[0]) != []


def test_speed_200_rolls() -> None:
    """The reader is in the hot path: well under 5 ms for a 200-roll file."""
    text = decode_bytes(XG_FILE.read_bytes())[0]
    rolls = sum(a.kind == "roll" for g in parse_mat(text)[0].games for a in g.actions)
    best = min(_timed(text) for _ in range(15))
    assert best * 200 / rolls < 0.005, f"{best * 1000:.2f} ms for {rolls} rolls"


def _timed(text: str) -> float:
    start = time.perf_counter()
    parse_mat(text)
    return time.perf_counter() - start


# --------------------------------------------------------------------------------------------
# The whole corpus (skipped when ../shared/corpus is absent)
# --------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_corpus_has_no_syntax_problems_and_sane_sequences() -> None:
    failures: list[str] = []
    for path in corpus_files():
        rel = path.relative_to(CORPUS).as_posix()
        text, _ = decode_bytes(path.read_bytes())
        records = parse_mat(text)
        if rel in NOT_MAT:
            assert not looks_like_mat(text) and records[0].problems
            continue
        assert looks_like_mat(text), rel
        assert len(records) == 1, rel
        rec = records[0]
        if rec.problems:
            failures.append(f"{rel}: {rec.problems[0]}")
        if not rec.games or rec.match_length is None:
            failures.append(f"{rel}: no games or no length")
        for game in rec.games:
            if game.names is None or game.score is None:
                failures.append(f"{rel} game {game.number}: no score line")
            for issue in sequence_issues(game):
                failures.append(f"{rel} game {game.number}: {issue}")
    assert failures == []


@pytest.mark.slow
def test_corpus_results_agree_with_next_score_line() -> None:
    """Where a game has a Wins (or Losses) cell, the next score line grows on the right side:
    checks the column attribution of result cells (except the two score-mismatch fixtures)."""
    mismatch = {"synthetic/BgMatchFormat_abandoned_money.mat",
                "synthetic/BgMatchFormat_money_session.mat"}
    bad: list[str] = []
    checked = 0
    for path in corpus_files(shared_only=True):
        rel = path.relative_to(CORPUS).as_posix()
        if rel in NOT_MAT or rel in mismatch:
            continue
        for rec in read(path):
            for game, nxt in zip(rec.games, rec.games[1:]):
                assert game.score is not None and nxt.score is not None
                gain = (nxt.score[0] - game.score[0], nxt.score[1] - game.score[1])
                result = [a for a in game.actions if a.kind in ("win", "loss")]
                if not result:
                    continue
                checked += 1
                a = result[0]
                winner = a.player if a.kind == "win" else 1 - a.player
                if not (gain[winner] > 0 and gain[1 - winner] == 0):
                    bad.append(f"{rel} game {game.number}: {a.kind} by {a.player}, gain {gain}")
    assert bad == [] and checked > 1000


@pytest.mark.slow
def test_corpus_multi_cell_shapes_seen() -> None:
    """Every dialect feature the reader claims is exercised somewhere in the corpus."""
    seen: set[str] = set()
    for path in corpus_files(shared_only=True):
        for rec in read(path):
            for game in rec.games:
                if game.extra.get("ratings"):
                    seen.add("ratings")
                for a in game.actions:
                    seen.add(a.kind)
                    for flag in ("cannot_move", "resign_marker", "illegal", "and_the_match"):
                        if getattr(a, flag):
                            seen.add(flag)
                    if a.kind == "roll" and a.dice and a.dice[0] < a.dice[1]:
                        seen.add("low-first")
    assert seen >= {"roll", "double", "take", "drop", "win", "loss", "resign", "cannot_move",
                    "resign_marker", "illegal", "and_the_match", "ratings", "low-first"}


@pytest.mark.slow
def test_corpus_names_have_no_stray_colons() -> None:
    for path in corpus_files():
        for rec in read(path):
            for game in rec.games:
                if game.names:
                    assert all(":" not in n and n == n.strip() for n in game.names), \
                        (path, game.names)
                    assert not re.search(r",\d+$", game.names[0] + game.names[1])


ROLL_LINE_PARTS = ["  1)", "12)", "1)", "0001)", "63:", "11:", "07:", "66:", "13/7", "bar/21",
                   "25/22*", "8/5(2)", "6/0", "6/off", "24/18*/13", "13/7x", "1/2)", "12/:",
                   "3/", "13", "7", "Doubles", "Takes", ")", ":", "é/3", "\t"]


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(ROLL_LINE_PARTS),
                          st.sampled_from([" ", "  ", "      ", ""])),
                max_size=8),
       st.sampled_from(["", " ", "   "]))
def test_roll_lines_fast_path_equals_the_grammar(parts: list[tuple[str, str]], lead: str) -> None:
    _same(lead + "".join(frag + sep for frag, sep in parts))


def test_fast_path_reads_every_gnubg_line() -> None:
    taken = total = 0
    for path in sorted((FILES / "selfplay").glob("*.mat")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            if line.strip():
                total += 1
                _fast_unless_an_error(line)
                taken += _same(line)
    assert taken > 0.9 * total, (taken, total)  # the rest: score lines, read apart


def _both_readers(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = parse_mat(text)
    with monkeypatch.context() as patch:
        patch.setattr(mat, "_scan_words", lambda line: None)
        general = parse_mat(text)
    assert fast == general


@pytest.mark.slow
def test_reader_reads_the_same_with_the_grammar_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [*DATA_FILES, *sorted((FILES / "selfplay").glob("*.mat"))]
    paths += corpus_files()
    for path in paths:
        text, _ = decode_bytes(path.read_bytes())
        _both_readers(text, monkeypatch)
    assert len(paths) > 15


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.tuples(st.sampled_from(ROLL_LINE_PARTS),
                                   st.sampled_from([" ", "  ", "                ", ""])),
                         max_size=6), max_size=8))
def test_generated_roll_lines_read_the_same_by_both_paths(
        lines: list[list[tuple[str, str]]]) -> None:
    body = "\n".join("".join(frag + sep for frag, sep in parts) for parts in lines)
    text = f" 5 point match\n\n Game 1\n alice : 0                 bob : 0\n{body}\n"
    with pytest.MonkeyPatch.context() as patch:
        _both_readers(text, patch)


_roll_cell = st.tuples(st.sampled_from(["63", "11", "52", "07", "44"]),
                       st.sampled_from(["", " 13/7 8/7", " 25/22* 6/0", " 8/5(2)", " 13/7x"]))


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["", "  1)", " 12)", "123)"]),
                          st.integers(0, 40), _roll_cell, st.integers(0, 40),
                          st.none() | _roll_cell), min_size=1, max_size=8))
def test_lone_and_paired_roll_cells_go_to_the_same_players(
        rows: list[tuple[str, int, tuple[str, str], int, tuple[str, str] | None]]) -> None:
    lines = []
    for row, pad1, (dice1, play1), pad2, second in rows:
        line = row + " " * pad1 + f"{dice1}:{play1}"
        if second is not None:
            line += " " * pad2 + f"{second[0]}:{second[1]}"
        lines.append(line)
    text = " 5 point match\n\n Game 1\n alice : 0                 bob : 0\n" + "\n".join(lines)
    with pytest.MonkeyPatch.context() as patch:
        _both_readers(text, patch)



_WRITTEN_DICE = {f"{a}{b}": (a, b) for a in range(1, 7) for b in range(1, 7)}


@given(st.text(alphabet="0123456789\u0663\uff16", min_size=2, max_size=2),
       st.sampled_from([" 24/23", "", " ???", " Cannot Move"]), st.booleans())
def test_a_roll_has_the_dice_of_its_two_digits_from_1_to_6(digits: str, rest: str,
                                                             numbered: bool) -> None:
    row = "  1) " if numbered else "     "
    text = f" 1 point match\n\n Game 1\n a : 0   b : 0\n{row}{digits}:{rest}\n"
    [record] = parse_mat(text)
    dice = _WRITTEN_DICE.get(digits)
    if dice is None:
        assert [p.rule for p in record.problems] == ["syntax"] or digits == "00"
        assert all(a.dice is None for a in record.games[0].actions)
    else:
        [action] = record.games[0].actions
        assert action.dice == dice and not record.problems
        assert action.extra.get("row") == (1 if numbered else None)
