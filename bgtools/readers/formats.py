"""The one table of the formats bgtools reads: one row per format.

A row names the format, the extensions a directory walk takes, whether it is text or binary,
how its content is recognised and which function reads it. :mod:`bgtools.readers.detect`
walks the rows (binary ones by their magic bytes first, then the text ones on the decoded
text, in the order of :data:`READERS`); :data:`bgtools.READ_FORMATS`, the directory walk's
extensions and the message for an unrecognised file are all read from here.

A row names its functions as ``"module:function"`` and imports them on first use, so that
recognising a ``.mat`` (the commonest input) imports no other reader, and a format whose
codec is an optional package (OGXM) is listed without it. A new format is one module (a
``looks_like_*`` test and a reader of the signature below) and one row.

Signatures: a binary row's ``recognise(data: bytes) -> bool`` and
``read(data: bytes, name: str) -> list[MatchRecord]``; a text row's
``recognise(text: str) -> bool`` and
``read(decoded: DecodedText, data: bytes, name: str) -> TextReading`` (``data``: the file's
bytes without a DOS end-of-file mark or NUL padding, for a format that states its encoding).
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, get_args

from bgtools.errors import LimitExceededError, UnsupportedFormatError
from bgtools.limits import MAX_MATCH_LENGTH, format_count

if TYPE_CHECKING:
    from bgtools.readers.source import DecodedText
    from bgtools.record import MatchRecord

__all__ = [
    "BINARY_STARTS",
    "READERS",
    "READ_FORMATS",
    "RECORD_SUFFIXES",
    "UNICODE_ENCODINGS",
    "FormatName",
    "Reader",
    "TextReading",
    "read_json_text",
    "read_mat_text",
    "read_sgf_text",
    "recognised_formats",
]

FormatName = Literal["mat", "sgf", "json", "xg", "bgf", "ogxm"]
"""The formats bgtools reads, in the order the documentation lists them: Jellyfish ``.mat``,
GNU Backgammon SGF, bgtools JSON, eXtreme Gammon ``.xg``, BGBlitz ``.bgf`` and OGXM
(OpenGammon; read through the optional package ``ogxm``)."""

UNICODE_ENCODINGS = ("utf-8", "utf-8-sig", "utf-16")
"""The encodings a text file states by itself (no ``encoding-assumed`` warning)."""


class TextReading(NamedTuple):
    """What a text reader gives: the records, the text they were read from (re-decoded when
    the file states its own encoding, as SGF's ``CA``) and whether it stated one."""

    records: list[MatchRecord]
    decoded: DecodedText
    stated_encoding: bool = False


class Reader(NamedTuple):
    """One format bgtools reads (see the module doc for the signatures of the functions).
    A named tuple, not a dataclass: dataclasses compile their methods at import, which every
    command's start-up would pay.

    ``title``: how the message for an unrecognised file names it; ``starts``: for a binary
    format, how every file of it begins (tested before its module is imported).
    """

    name: FormatName
    title: str
    suffixes: tuple[str, ...]
    binary: bool
    recognise: str
    read: str
    starts: tuple[bytes, ...] = ()

    def recognises(self, content: bytes | str) -> bool:
        """Whether ``content`` (bytes for a binary format, the decoded text for a text
        format) is of this format."""
        if isinstance(content, bytes) and not content.startswith(self.starts):
            return False
        return bool(_function(self.recognise)(content))

    def read_binary(self, data: bytes, name: str) -> list[MatchRecord]:
        """The records of a binary file of this format."""
        records: list[MatchRecord] = _function(self.read)(data, name)
        return records

    def read_text(self, decoded: DecodedText, data: bytes, name: str) -> TextReading:
        """The records of a text file of this format (``data``: its bytes, for a format
        that states its own encoding)."""
        reading: TextReading = _function(self.read)(decoded, data, name)
        return reading


@cache  # detection asks for each text format's function for every file
def _function(reference: str) -> Any:  # the row's signature, by its kind
    """The function a row names as ``"module:function"``, imported on first use."""
    module, _, function = reference.partition(":")
    return getattr(importlib.import_module(module), function)


READERS: tuple[Reader, ...] = (
    # Binary formats first, by their magic bytes.
    Reader("xg", "eXtreme Gammon .xg", (".xg", ".xgp"), binary=True,
           recognise="bgtools.readers.xg:looks_like_xg", read="bgtools.readers.xg:parse_xg",
           starts=(b"RGMH",)),
    Reader("bgf", "BGBlitz .bgf", (".bgf",), binary=True,
           recognise="bgtools.readers.bgf:looks_like_bgf", read="bgtools.readers.bgf:parse_bgf",
           starts=(b"{",)),
    Reader("ogxm", "OGXM", (".ogxm", ".ogxms"), binary=True,
           recognise="bgtools.readers.ogxm:looks_like_ogxm",
           read="bgtools.readers.ogxm:parse_ogxm", starts=(b"OGXM",)),
    # Text formats: the strict content tests before the loose one (.mat).
    Reader("json", "bgtools JSON", (".json",), binary=False,
           recognise="bgtools.readers.sniff:looks_like_json_match",
           read="bgtools.readers.formats:read_json_text"),
    Reader("sgf", "GNU Backgammon SGF", (".sgf",), binary=False,
           recognise="bgtools.readers.sniff:looks_like_sgf",
           read="bgtools.readers.formats:read_sgf_text"),
    Reader("mat", ".mat", (".mat", ".txt", ".gam"), binary=False,
           recognise="bgtools.readers.mat:looks_like_mat",
           read="bgtools.readers.formats:read_mat_text"),
)
"""Every format bgtools reads, in the order they are tried."""

READ_FORMATS: tuple[FormatName, ...] = get_args(FormatName)
"""Every value of :data:`FormatName`, in its order."""

BINARY_STARTS: tuple[bytes, ...] = tuple(start for row in READERS if row.binary
                                          for start in row.starts)
"""How every file the binary readers accept begins; tests/readers/test_detect_binary.py holds the
readers' own checks to it."""

RECORD_SUFFIXES: tuple[str, ...] = tuple(suffix for row in READERS for suffix in row.suffixes)
"""Extensions taken when a directory is walked."""


def recognised_formats() -> str:
    """The formats bgtools reads as the message for an unrecognised file lists them."""
    titles = [row.title for name in READ_FORMATS for row in READERS if row.name == name]
    return f"{', '.join(titles[:-1])} or {titles[-1]}"


# The text formats' readers, each behind the text rows' one signature.

# Any number of digits: the .mat grammar takes at most 9, so a longer one would otherwise be
# a plain syntax error instead of naming MAX_MATCH_LENGTH. Compiled by re's cache on first
# use: most runs read no file with a suspect length line.
_ANY_LENGTH_LINE = r"^[ \t]*([0-9]+)[ \t]+point[ \t]+match[ \t]*$"
_ANY_LENGTH_FLAGS = re.IGNORECASE | re.MULTILINE | re.ASCII
# SGF's CA property (FF[4]): the charset the file states, read from its root node.
_SGF_CHARSET = re.compile(r"\bCA\s*\[([^\]]{1,40})\]")


def read_mat_text(decoded: DecodedText, data: bytes, name: str) -> TextReading:
    """The records of a ``.mat`` text; a match length beyond MAX_MATCH_LENGTH is refused
    by name, whatever its number of digits."""
    from bgtools.readers.mat import read_mat

    reading = read_mat(decoded.text)
    _check_length_lines(decoded.text, reading.length_suspects, name)
    return TextReading(reading.records, decoded)


def _check_length_lines(text: str, suspects: tuple[int, ...], name: str) -> None:
    """Refuse the first ``N point match`` line of ``text`` whose N is beyond
    MAX_MATCH_LENGTH. Only the lines numbered ``suspects`` (the .mat reader's
    :attr:`~bgtools.readers.mat.MatReading.length_suspects`, which include every such line)
    are looked at, not the whole text."""
    if not suspects:
        return
    lines = text.split("\n")
    for line in suspects:
        match = re.fullmatch(_ANY_LENGTH_LINE, lines[line - 1], _ANY_LENGTH_FLAGS)
        if match is None:
            continue
        digits = match.group(1).lstrip("0")
        if len(digits) > 9 or (digits and int(digits) > MAX_MATCH_LENGTH):
            shown = format_count(int(digits)) if len(digits) <= 30 else \
                f"{format_count(len(digits))}-digit number of"
            raise LimitExceededError(
                f"{name}:{line}: a match of {shown} points; the limit MAX_MATCH_LENGTH is "
                f"{format_count(MAX_MATCH_LENGTH)}", "MAX_MATCH_LENGTH", MAX_MATCH_LENGTH)


def read_sgf_text(decoded: DecodedText, data: bytes, name: str) -> TextReading:
    """The records of an SGF text, decoded in the charset its root states when it is not
    Unicode; an SGF of another game is unsupported, and the limits the tokenizer counts
    while parsing name the file first."""
    from bgtools.readers.sgf import other_game, parse_sgf

    stated_encoding = False
    if decoded.encoding not in UNICODE_ENCODINGS:
        stated = _sgf_stated_charset(data, decoded.text)
        if stated is not None:
            decoded = stated
            stated_encoding = True
    try:
        records = parse_sgf(decoded.text)
    except LimitExceededError as exc:
        raise LimitExceededError(f"{name} {exc}", exc.limit_name, exc.limit) from None
    other = other_game(records)
    if other is not None:
        raise UnsupportedFormatError(
            f"{name} is an SGF of another game ({other}), not backgammon (GM[6])")
    return TextReading(records, decoded, stated_encoding)


def _sgf_stated_charset(data: bytes, guessed: str) -> DecodedText | None:
    """An SGF file that is not UTF-8 (``guessed``: its text as guessed), decoded in the
    charset its root node's ``CA`` property states (``CA[ISO-8859-1]``,
    ``CA[windows-1252]``, ``CA[Shift_JIS]``), as GNU Backgammon reads it; None when the
    root states none, one Python does not know, or one the bytes are not in."""
    from bgtools.readers.source import decode_stated

    start = guessed.find("(;")
    end = guessed.find(";", start + 2) if start >= 0 else -1
    found = _SGF_CHARSET.search(guessed, 0, end if 0 <= end < 4096 else 4096)
    return None if found is None else decode_stated(data, found.group(1).strip())


def read_json_text(decoded: DecodedText, data: bytes, name: str) -> TextReading:
    """The records of a bgtools JSON text."""
    from bgtools.readers.json import parse_json

    return TextReading(parse_json(decoded.text, name), decoded)
