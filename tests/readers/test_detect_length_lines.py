"""The MAX_MATCH_LENGTH check of ``N point match`` lines looks only at the lines the .mat
reader names (``read_mat(...).length_suspects``), not at the whole text: it must refuse
exactly what the whole-text scan it replaced refused, with the same message."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgtools.errors import LimitExceededError
from bgtools.limits import MAX_LINE_CHARS, MAX_MATCH_LENGTH, format_count
from bgtools.readers.detect import read_records
from bgtools.readers.formats import _check_length_lines
from bgtools.readers.mat import read_mat
from tests.helpers.paths import SAMPLES

# The general path: every line of the text, as read_records checked it before.
_ANY_LENGTH_LINE = re.compile(r"^[ \t]*([0-9]+)[ \t]+point[ \t]+match[ \t]*$",
                              re.IGNORECASE | re.MULTILINE | re.ASCII)


def whole_text_check(text: str, name: str) -> None:
    """The check as it was: a scan of the whole text."""
    for match in _ANY_LENGTH_LINE.finditer(text):
        digits = match.group(1).lstrip("0")
        if len(digits) > 9 or (digits and int(digits) > MAX_MATCH_LENGTH):
            line = text.count("\n", 0, match.start()) + 1
            shown = format_count(int(digits)) if len(digits) <= 30 else \
                f"{format_count(len(digits))}-digit number of"
            raise LimitExceededError(
                f"{name}:{line}: a match of {shown} points; the limit MAX_MATCH_LENGTH is "
                f"{format_count(MAX_MATCH_LENGTH)}", "MAX_MATCH_LENGTH", MAX_MATCH_LENGTH)


def outcome(check: Callable[[str, str], None], text: str, name: str) -> str | None:
    """The message ``check`` refuses ``text`` with, or None when it accepts it."""
    try:
        check(text, name)
    except LimitExceededError as exc:
        return str(exc)
    return None


def suspects_check(text: str, name: str) -> None:
    """The check as it is: only the lines the reader names."""
    _check_length_lines(text, read_mat(text).length_suspects, name)


_BLANKS = st.one_of(st.sampled_from(["", " ", "\t"]),
                    st.text(alphabet=" \t\x0b\xa0\u3000", max_size=3))
_DIGITS = st.one_of(
    st.integers(0, 2 * MAX_MATCH_LENGTH).map(str),
    st.text(alphabet="0123456789", min_size=1, max_size=25),
    st.integers(0, 3).map(lambda zeros: "0" * zeros + str(MAX_MATCH_LENGTH + 1)),
)
_ODD_WORD = st.sampled_from(["POINTS", "points", "pt", "matches", "point match", ":", "game",
                             "Game 1"])
_POINT = st.one_of(st.sampled_from(["point", "Point", "POINT"]), _ODD_WORD)
_MATCH = st.one_of(st.sampled_from(["match", "Match", "MATCH"]), _ODD_WORD)


@st.composite
def length_lines(draw: st.DrawFn) -> str:
    """A line shaped like an ``N point match`` line, right or nearly."""
    parts = [draw(_BLANKS), draw(_DIGITS), draw(_BLANKS) or draw(st.sampled_from(["", " "])),
             draw(_POINT), draw(_BLANKS) or " ", draw(_MATCH), draw(_BLANKS)]
    line = "".join(parts)
    if draw(st.integers(0, 5)) == 0:  # beyond MAX_LINE_CHARS: the reader skips it
        line += " " * (MAX_LINE_CHARS + 1 - len(line)) + draw(st.sampled_from(["", "\t", "x"]))
    return line


_OTHER_LINES = st.sampled_from([
    "", " ", " Game 1", " Game 2", " a : 0                          b : 0",
    " a : 0   b : 0", "  1) 31: 8/5 6/5                 42: 8/4 6/4",
    "  2)  Doubles => 2                 Takes", "; [Site \"x\"]", "# 5 point match",
    "  3) 64: 24/18 18/14            Wins 1 point", " Wins 2 points and the match",
    "12: 5 point match", "  7) 5 point match",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(length_lines(), _OTHER_LINES), min_size=1, max_size=12),
       st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_suspect_lines_refuse_what_the_whole_text_scan_refused(
        lines: list[str], newline: str, bom: bool) -> None:
    text = ("\ufeff" if bom else "") + newline.join(lines)
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # as read_records gives it
    assert outcome(suspects_check, text, "f.mat") == outcome(whole_text_check, text, "f.mat")


def test_every_refused_line_is_a_suspect() -> None:
    """The reader names the lines beyond the limit, and not the ordinary ones."""
    text = SAMPLES.joinpath("example_gnubg.mat").read_text(encoding="utf-8")
    assert read_mat(text).length_suspects == ()
    lines = text.split("\n")
    lines[0:0] = [" 1000 point match", "", " 12345678901 point match"]
    suspects = read_mat("\n".join(lines)).length_suspects
    assert 1 in suspects and 3 in suspects


_REFUSED = "f.mat:1: a match of 1,000 points; the limit MAX_MATCH_LENGTH is 999"


@pytest.mark.parametrize("first_line, message", [
    (" 1000 point match", _REFUSED),
    (" 0000001000 point match", _REFUSED),
    (" " + "9" * 40 + " point match",
     "f.mat:1: a match of 40-digit number of points; the limit MAX_MATCH_LENGTH is 999"),
    (" 1000 point match" + " " * MAX_LINE_CHARS, _REFUSED),  # a line the reader skips
])
def test_read_records_refuses_a_long_match(first_line: str, message: str) -> None:
    data = f"{first_line}\n\n Game 1\n a : 0    b : 0\n  1) 31: 8/5 6/5\n".encode()
    with pytest.raises(LimitExceededError) as info:
        read_records(data, "f.mat")
    assert str(info.value) == message
