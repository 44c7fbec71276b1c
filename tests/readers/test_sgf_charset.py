"""SGF's CA property: a file that is not UTF-8 is decoded in the charset it states."""

from __future__ import annotations

import pytest

from bgtools.readers.detect import read_records
from tests.helpers.paths import FILES

SGF = FILES / "selfplay" / "m5_s1.sgf"


def _sgf(charset: str, name: str, encoding: str) -> bytes:
    data = SGF.read_bytes()
    assert b"CA[UTF-8]" in data and b"PW[gnubg]" in data
    return data.replace(b"CA[UTF-8]", f"CA[{charset}]".encode()).replace(
        b"PW[gnubg]", b"PW[" + name.encode(encoding) + b"]")


def _rules(data: bytes) -> tuple[str, list[str], list[str]]:
    loaded = read_records(data, "m.sgf")
    (record,) = loaded.records
    return loaded.encoding, list(record.names or ()), [p.rule for p in record.problems]


@pytest.mark.parametrize("charset,name,encoding", [
    ("ISO-8859-1", "Müller", "latin-1"),
    ("windows-1252", "Pâté \u201cQ\u201d", "cp1252"),
    ("Shift_JIS", "望月正行", "shift_jis"),  # cp1252 would make it mojibake
])
def test_the_stated_charset_decodes_the_file_without_a_warning(
        charset: str, name: str, encoding: str) -> None:
    got, names, rules = _rules(_sgf(charset, name, encoding))
    assert name in names
    assert "encoding-assumed" not in rules
    assert got != "cp1252" or charset == "windows-1252"


def test_a_charset_the_bytes_are_not_in_is_still_an_assumption() -> None:
    # CA[UTF-8] over Latin-1 bytes, and a charset Python does not know: read as before.
    for charset in ("UTF-8", "x-unknown-charset"):
        encoding, names, rules = _rules(_sgf(charset, "Müller", "latin-1"))
        assert encoding == "cp1252" and "Müller" in names
        assert rules[0] == "encoding-assumed"
