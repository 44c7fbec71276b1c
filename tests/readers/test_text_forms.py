"""One match text in the byte forms that editors, mail and shells give it reads the same.

Every real text record of the corpus is rewritten as it reaches users: CRLF or old-Mac CR
line ends, a UTF-8 byte-order mark, UTF-16 with its mark (Windows PowerShell's ``>``,
Notepad's "Unicode"), leading runs of blanks made tabs at 8-column stops (an editor's
"tabify", as ``unexpand -a``), trailing blanks removed. Each form must give the same
records: the players, the games, and every problem with its line and column.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from pathlib import Path

import pytest

from bgtools.errors import BgtoolsError, UnsupportedFormatError
from bgtools.readers.detect import read_records
from bgtools.replay import profile_for, replay_match


def _tabify_line(line: bytes) -> bytes:
    """``line`` with each run of two or more blanks that reaches a multiple of 8 columns
    ended by a tab instead (GNU ``unexpand -a``); an ASCII-only column count, as the
    rewritten files are compared in their own decoding anyway."""
    out = bytearray()
    column = 0
    blanks = 0
    for byte in line:
        if byte == 0x20:
            blanks += 1
            column += 1
            if column % 8 == 0:
                out += b"\t" if blanks > 1 else b" "
                blanks = 0
            continue
        out += b" " * blanks
        blanks = 0
        out.append(byte)
        column = column + 8 - column % 8 if byte == 0x09 else column + 1
    out += b" " * blanks
    return bytes(out)


def _tabify(data: bytes) -> bytes:
    return b"\n".join(_tabify_line(line) for line in data.split(b"\n"))


def _lf(data: bytes) -> bytes:
    return data.replace(b"\r\n", b"\n")


def _utf16(codec: str) -> Callable[[bytes], bytes]:
    def encode(data: bytes) -> bytes:
        return data.decode("utf-8").encode(codec)  # "utf-16" writes the native-order mark

    return encode


FORMS: dict[str, Callable[[bytes], bytes]] = {
    "crlf": lambda data: _lf(data).replace(b"\n", b"\r\n"),
    "cr": lambda data: _lf(data).replace(b"\n", b"\r"),
    "utf8-bom": lambda data: codecs.BOM_UTF8 + data,
    "utf16-le-bom": lambda data: codecs.BOM_UTF16_LE + _utf16("utf-16-le")(data),
    "utf16-be-bom": lambda data: codecs.BOM_UTF16_BE + _utf16("utf-16-be")(data),
    "tabified": lambda data: _tabify(_lf(data)),
    "trailing-blanks-stripped": lambda data: b"\n".join(
        line.rstrip() for line in _lf(data).split(b"\n")),
}


def _outcome(data: bytes) -> list[object]:
    try:
        loaded = read_records(data, "m")
    except BgtoolsError as exc:  # not a match record (an analysis export ...): still not one
        return [type(exc).__name__]
    outcome: list[object] = []
    for record in loaded.records:
        replay = replay_match(record, profile_for(record))
        outcome.append((replay.names, len(record.games), replay.final_score, sorted(
            (p.rule, p.severity.value, p.line, p.column, p.game) for p in replay.problems)))
    return outcome


@pytest.fixture(scope="module")
def originals(corpus: Path) -> list[tuple[Path, bytes, list[object]]]:
    """Every real text record of the corpus: its path, bytes and outcome as written."""
    paths = [path for path in sorted(corpus.rglob("*"))
             if path.suffix in (".mat", ".txt", ".sgf") and path.name != "SOURCES.md"]
    return [(path, data, _outcome(data)) for path in paths for data in [path.read_bytes()]]


def test_tabify_is_gnu_unexpand() -> None:
    assert _tabify_line(b"  1) 61: 13/7 8/7                43: 24/20") == \
        b"  1) 61: 13/7 8/7\t\t 43: 24/20"
    assert _tabify_line(b"a       b") == b"a\tb"
    assert _tabify_line(b"abcdefg b") == b"abcdefg b"
    assert _tabify_line(b"x").expandtabs(8) == b"x"


@pytest.mark.parametrize("form", sorted(FORMS))
def test_every_form_of_a_real_record_reads_the_same(
        originals: list[tuple[Path, bytes, list[object]]], form: str) -> None:
    rewrite = FORMS[form]
    checked = 0
    for path, data, original in originals:
        if path.suffix == ".sgf" and form == "tabified":
            continue  # SGF has no columns, and a tab in a name is a different name
        if form.startswith("utf16"):
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                continue  # a cp1252 file has no UTF-16 twin to compare with
        assert _outcome(rewrite(data)) == original, path.name
        checked += 1
    assert checked >= 10


def test_an_odd_length_utf16_file_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(UnsupportedFormatError, match="binary"):
        read_records(codecs.BOM_UTF16_LE + "3 point match\n".encode("utf-16-le") + b"\x00", "m")


# --- GNU Backgammon's analysis text (issue 42, item 12) ----------------------------------

GNUBG_TEXT_HEAD = """The score (after 0 games) is: lasse 0, jonnyb1169 0 (match to 3 points)

Match Information:
Date: 05/09/2023

Move number 1:  jonnyb1169 to play 53

 GNU Backgammon  Position ID: 4HPwATDgc/ABMA
                 Match ID   : cIhuAAAAAAAE
"""


def _analysis_text_refusal(data: bytes) -> str:
    with pytest.raises(UnsupportedFormatError) as caught:
        read_records(data, "m.txt")
    return str(caught.value)


ANALYSIS_REFUSAL = ("m.txt is GNU Backgammon's analysis text, not a match record: export the "
                    "match as .mat or .sgf")


def test_gnubg_analysis_text_is_named_as_such() -> None:
    """``export match text`` (boards and analysis) is not a match record: say what it is and
    how to get one, instead of 'not a match record bgtools recognises'."""
    assert _analysis_text_refusal(GNUBG_TEXT_HEAD.encode()) == ANALYSIS_REFUSAL


def test_a_real_gnubg_analysis_text_is_named_as_such(corpus: Path) -> None:
    from tests.helpers.paths import corpus_file

    real = corpus_file(corpus, "gnubg/match1486073_analyzed.txt").read_bytes()
    assert _analysis_text_refusal(real) == ANALYSIS_REFUSAL


@pytest.mark.parametrize("text", [
    GNUBG_TEXT_HEAD.replace("The score", "A score"),          # not gnubg's first line
    GNUBG_TEXT_HEAD.replace("GNU Backgammon  Position", "X"),  # no board follows
    "hello\n" + GNUBG_TEXT_HEAD,                               # the score is not first
])
def test_other_text_is_still_not_recognised(text: str) -> None:
    assert "not a match record bgtools recognises" in _analysis_text_refusal(text.encode())
