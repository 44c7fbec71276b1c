"""Recognise a record's format from its content and read it into match records.

The extension is only a hint: ``.txt`` files are often ``.mat``. This module is the one
place that turns bytes into :class:`~bgtools.record.MatchRecord` objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bgtools.errors import LimitExceededError, UnsupportedFormatError
from bgtools.record import MatchRecord

__all__ = [
    "MAX_FILE_BYTES",
    "RECORD_SUFFIXES",
    "LoadedRecords",
    "detect_format",
    "read_records",
    "load_file",
]

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest input file read (bytes); beyond it a LimitExceededError names the limit."""

RECORD_SUFFIXES = (".mat", ".txt", ".sgf", ".gam", ".json")
"""Extensions taken when a directory is walked."""


@dataclass(slots=True)
class LoadedRecords:
    """What a file holds: its format, the encoding assumed, and its match records."""

    format: str
    encoding: str
    records: list[MatchRecord] = field(default_factory=list)


def detect_format(text: str) -> str | None:
    """``"sgf"``, ``"mat"``, ``"json"`` (bgtools JSON) or None, from the content alone."""
    from bgtools.formats.jsonfmt import looks_like_json_match
    from bgtools.formats.mat import looks_like_mat
    from bgtools.formats.sgf import looks_like_sgf

    if looks_like_json_match(text):
        return "json"
    if looks_like_sgf(text):
        return "sgf"

    if looks_like_mat(text):
        return "mat"
    return None


def read_records(data: bytes, name: str = "<input>") -> LoadedRecords:
    """Decode ``data``, recognise its format and read it; raise UnsupportedFormatError."""
    if len(data) > MAX_FILE_BYTES:
        raise LimitExceededError(
            f"{name} is {len(data)} bytes; the limit MAX_FILE_BYTES is {MAX_FILE_BYTES}",
            "MAX_FILE_BYTES", MAX_FILE_BYTES,
        )
    if b"\x00" in data[:4096]:
        raise UnsupportedFormatError(f"{name} is a binary file, not a match record")
    from bgtools.formats.source import decode_bytes

    text, encoding = decode_bytes(data)
    fmt = detect_format(text)
    if fmt == "mat":
        from bgtools.formats.mat import parse_mat

        return LoadedRecords("mat", encoding, parse_mat(text))
    if fmt == "sgf":
        from bgtools.formats.sgf import parse_sgf

        return LoadedRecords("sgf", encoding, parse_sgf(text))
    if fmt == "json":
        from bgtools.formats.jsonfmt import parse_json

        return LoadedRecords("json", encoding, parse_json(text, name))
    raise UnsupportedFormatError(
        f"{name} is not a match record bgtools recognises (.mat or GNU Backgammon SGF)"
    )


def load_file(path: Path) -> LoadedRecords:
    """Read a file from disk (never modifying it) and return its records."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    return read_records(data, str(path))
