"""The plain play reader (string methods, no regular expression) reads what the grammar reads.

``notation._parse_plain`` is the one fast reader of ``parse_play``: whenever it returns paths
they must be the grammar's paths, its vocabulary is the grammar's terminals; when it returns
None the grammar decides, so it may decline anything, but it must take the plays that
writers write and (nearly) every play of the real files.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgtools.engine.notation import (
    _digits_end,
    _is_separator,
    _parse_lark,
    _parse_plain,
    _point_word,
    _segments_by_item,
    _segments_of,
    parse_play,
    plain_segments,
)
from bgtools.engine.notation_grammar import BAR_POINT, OFF_POINT
from bgtools.engine.position import Position
from bgtools.errors import NotationError
from bgtools.grammars import NOTATION, terminals
from tests.helpers.paths import at_least
from tests.helpers.strategies import dice, positions, written_plays

_TOKENS = ["13", "7", "0", "25", "24", "6", "1", "99", "007", "00000", "12345", "bar", "Bar",
           "BAR", "b", "B", "off", "Off", "OFF", "o", "O", "ba", "of", "bo", "ob", "/", "/",
           "/", "*", "*", "**", "(", ")", "(2)", "(4)", "(0)", "(10)", "( 2)", "()", " ", " ",
           ",", "\t", "\n", "x", "?", "???", "-", "\u0663", "\u00a0", "cannot move",
           "illegal play", "Bart", "offf"]


def _agrees(text: str) -> bool:
    """True when the plain reader took ``text``; then it reads what the grammar reads."""
    stripped = text.strip()
    plain = _parse_plain(stripped)
    _segments_agree(text)
    if plain is None:
        return False
    try:
        grammar = _parse_lark(stripped)
    except NotationError:
        raise AssertionError(f"plain reader accepts {stripped!r}, the grammar rejects it") \
            from None
    assert grammar == plain, (stripped, plain, grammar)
    return True


def _segments_agree(text: str) -> None:
    """plain_segments gives parse_play's segments, or None (never for a plain play that
    parse_play accepts, never for a text parse_play rejects). Read piece by piece between
    blanks (the memo's path for a new text) they are the whole text's."""
    stripped = text.strip()
    assert _segments_by_item(stripped) == _segments_of(stripped), stripped
    segments = plain_segments(text)
    try:
        written = parse_play(text)
    except NotationError:
        assert segments is None, text
        return
    if segments is not None:
        assert segments == written.segments, (text, segments, written.segments)
    elif _parse_plain(text.strip()) is not None:
        raise AssertionError(f"plain_segments declines the plain play {text!r}")


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=14).map("".join))
def test_plain_reader_accepts_only_what_the_grammar_reads_the_same(text: str) -> None:
    _agrees(text)


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet="0123456789/*() ,bBaArRoOfF?\t\n", max_size=24))
def test_plain_reader_on_random_characters(text: str) -> None:
    _agrees(text)


@settings(max_examples=1000, deadline=None)
@given(written_plays)
def test_plain_reader_on_written_plays(text: str) -> None:
    _agrees(text)


@settings(max_examples=200, deadline=None)
@given(positions, dice, st.sampled_from(["display", "mat", "words", "commas"]))
def test_plain_reader_takes_every_legal_play_as_writers_write_it(
        pos: Position, roll: tuple[int, int], style: str) -> None:
    for play in pos.legal_plays(*roll):
        if not play.steps:
            continue
        if style == "mat":
            text = " ".join(f"{s}/{d}{'*' if h else ''}" for (s, d), h in zip(play.steps,
                                                                              play.hits))
        else:
            text = str(play)
            if style == "words":
                text = text.replace("bar", "Bar").replace("off", "Off")
            elif style == "commas":
                text = text.replace(" ", ", ")
        assert _agrees(text), text


def test_plain_reader_takes_the_common_shapes() -> None:
    for text in ["24/18* 13/11", "bar/22 6/off(2)", "Bar/20, 13/11", "8/4*(2) 6/2(2)", "25/0",
                 "B/22 O/3", "24/18*/13", "6/5(4)", "BAR/off", "\t13/7\t8/7*"]:
        assert _agrees(text), text
    assert _parse_plain("") == [] and _parse_plain(" , ") == []


def test_plain_reader_declines_what_it_does_not_know() -> None:
    # Left to the general path: blanks inside an item, a word glued to a point, a lone
    # point, a repetition apart from its path, the special forms, non-ASCII digits.
    for text in ["13 / 7", "13/7b/5", "13", "8/4 (2)", "Cannot Move", "????", "13/\u0667",
                 "13/7*(2", "13/", "/7", "13/7x"]:
        assert _parse_plain(text) is None, text


def test_errors_are_the_general_paths() -> None:
    # The plain reader hands over the points it read; the checks and their messages are
    # parse_play's whatever reader read the text.
    for text, message in [("26/20", "point 26 in '26/20' does not exist (1-24, bar 25, off 0)"),
                          ("5/bar", "'5/bar': the bar can only be a starting point"),
                          ("off/3", "'off/3': off can only be the last point of a path"),
                          ("8/4(5)", "repetition (5) in '8/4(5)' must be 2, 3 or 4")]:
        assert _parse_plain(text) is not None
        try:
            parse_play(text)
        except NotationError as exc:
            assert exc.message == message
            assert exc.column == 1
        else:
            raise AssertionError(text)


def test_the_plain_vocabulary_is_the_grammars() -> None:
    """The words, digits, separators and marks the plain reader knows are the grammar's
    terminals (read from notation.lark), character by character and word by word."""
    lexicon = terminals(NOTATION)
    for length in (1, 2, 3, 4):
        for letters in itertools.product("bBaArRoOfFx", repeat=length):
            word = "".join(letters)
            expected = (BAR_POINT if re.fullmatch(lexicon["BAR"].regex, word)
                        else OFF_POINT if re.fullmatch(lexicon["OFF"].regex, word) else -1)
            assert _point_word(word, 0, len(word)) == (
                (expected, len(word)) if expected >= 0 else (-1, 0)), word
    ignored = "|".join(lexicon.ignored)
    for code in range(0x3100):
        char = chr(code)
        assert _is_separator(code) == bool(re.fullmatch(ignored, char)), hex(code)
        assert (_digits_end(char, 0, 1) == 1) == bool(
            re.fullmatch(lexicon["NUMBER"].regex, char)), hex(code)
    marks = {"STAR": 42, "_SLASH": 47, "_LPAR": 40, "_RPAR": 41}  # the codes the reader reads
    for name, code in marks.items():
        assert re.fullmatch(lexicon[name].regex, chr(code)), name


@pytest.mark.slow
def test_plain_reader_on_every_play_of_the_corpus(corpus: Path) -> None:
    from bgtools.readers.detect import load_file

    taken = total = 0
    for path in sorted(corpus.rglob("*")):
        if path.suffix.lower() not in (".mat", ".txt") or not path.is_file():
            continue
        try:
            loaded = load_file(path)
        except Exception:  # noqa: BLE001 - unreadable corpus files are other tests' business
            continue
        for record in loaded.records:
            for game in record.games:
                for action in game.actions:
                    if action.kind == "roll" and action.play_text:
                        total += 1
                        taken += _agrees(action.play_text)
    assert total > at_least(corpus, 10000, 1000) and taken > 0.99 * total, (taken, total)
