"""Recognise a record's format from its content and read it into match records.

The extension is only a hint: ``.txt`` files are often ``.mat``. This module is the one
place that turns bytes into :class:`~bgtools.record.MatchRecord` objects, and the one place
that enforces the limits of :mod:`bgtools.limits` on whole files.
"""

from __future__ import annotations

import os
import select
import stat
from dataclasses import field
from pathlib import Path
from typing import NoReturn

from bgtools.dataclass_methods import FieldMethods, FrozenFieldMethods, prebuilt_dataclass
from bgtools.errors import (
    BgtoolsError,
    LimitExceededError,
    UnreadableInputError,
    UnsupportedFormatError,
)
from bgtools.limits import (
    MAX_ACTIONS,
    MAX_FILE_BYTES,
    MAX_GAMES,
    MAX_MATCH_LENGTH,
    MAX_NAME_CHARS,
    MAX_SCORE,
    format_count,
)
from bgtools.readers.formats import (
    BINARY_STARTS,
    READERS,
    RECORD_SUFFIXES,
    UNICODE_ENCODINGS,
    Reader,
    recognised_formats,
)
from bgtools.record import MatchRecord, Problem, Severity

__all__ = [
    "BINARY_STARTS",
    "MAX_FILE_BYTES",
    "RECORD_SUFFIXES",
    "STDIN_ARGUMENT",
    "InputSource",
    "PLAYED_VARIATIONS",
    "LoadedRecords",
    "RepeatedStdinError",
    "StdinInput",
    "detect_format",
    "load_file",
    "read_input_bytes",
    "read_records",
    "read_stdin",
]

PLAYED_VARIATIONS = ("backgammon", "nackgammon")
"""The games bgtools replays (:attr:`~bgtools.record.MatchRecord.variation`): a file of
another (hypergammon, longgammon) is refused as unsupported, never replayed as backgammon."""

STDIN_ARGUMENT = "-"
"""The input argument that means standard input; it is also how messages and the JSON
``file`` fields name it (a file called ``-`` is given as ``./-``)."""


class RepeatedStdinError(BgtoolsError):
    """``-`` (standard input) given more than once: a usage error (exit 2)."""


# The two classes are prebuilt dataclasses (bgtools.dataclass_methods): dataclasses would compile
# their methods from source at every import of the readers.
@prebuilt_dataclass
class StdinInput(FrozenFieldMethods):
    """Standard input, read whole (up to MAX_FILE_BYTES) by the process that was given
    ``-``: its bytes travel with the input to a worker, whose own stdin is not the user's."""

    data: bytes


InputSource = str | Path | StdinInput
"""Where an input's bytes come from: a path to read (a ``str``, as the directory walk gives
it, or a ``Path``), or standard input already read."""


@prebuilt_dataclass
class LoadedRecords(FieldMethods):
    """What a file holds: its format, the encoding assumed, and its match records."""

    format: str
    encoding: str
    records: list[MatchRecord] = field(default_factory=list)


def detect_format(text: str) -> str | None:
    """The text format of ``text`` (``"json"``, ``"sgf"``, ``"mat"``: the text rows of
    :data:`~bgtools.readers.formats.READERS`, tried in order) or None, from the content
    alone."""
    row = _text_format(text)
    return None if row is None else row.name


def _text_format(text: str) -> Reader | None:
    """The first text row of READERS that recognises ``text``."""
    return next((row for row in READERS if not row.binary and row.recognises(text)), None)


def _too_big(name: str, size: int | str) -> LimitExceededError:
    shown = format_count(size) if isinstance(size, int) else size
    return LimitExceededError(
        f"{name} is {shown} bytes; the limit MAX_FILE_BYTES is {format_count(MAX_FILE_BYTES)}",
        "MAX_FILE_BYTES", MAX_FILE_BYTES,
    )


def _check_names(record: MatchRecord, name: str) -> None:
    """Refuse a record whose player names or header tag values exceed MAX_NAME_CHARS (not a
    ``Comment``: a game comment may be long prose, bounded by MAX_STRING_CHARS alone)."""
    longest = max((len(text) for game in record.games for text in game.names or ()),
                  default=0)
    longest = max(longest, max((len(value) for tag, value in record.tags if tag != "Comment"),
                               default=0))
    if longest > MAX_NAME_CHARS:
        raise LimitExceededError(
            f"{name}: a name or header tag of {format_count(longest)} characters; the limit "
            f"MAX_NAME_CHARS is {format_count(MAX_NAME_CHARS)}", "MAX_NAME_CHARS",
            MAX_NAME_CHARS)


def _check_records(records: list[MatchRecord], name: str) -> None:
    games = sum(len(record.games) for record in records)
    if games > MAX_GAMES:
        raise LimitExceededError(
            f"{name} holds {format_count(games)} games; the limit MAX_GAMES is "
            f"{format_count(MAX_GAMES)}", "MAX_GAMES", MAX_GAMES)
    actions = sum(len(game.actions) for record in records for game in record.games)
    if actions > MAX_ACTIONS:
        raise LimitExceededError(
            f"{name} holds {format_count(actions)} actions; the limit MAX_ACTIONS is "
            f"{format_count(MAX_ACTIONS)}", "MAX_ACTIONS", MAX_ACTIONS)
    for record in records:
        _check_names(record, name)
        variation = record.variation
        if variation not in PLAYED_VARIATIONS:
            raise UnsupportedFormatError(
                f"{name}: the file's game is {variation}, not backgammon; bgtools reads "
                "backgammon and nackgammon only")
        length = record.match_length
        if length is not None and length > MAX_MATCH_LENGTH:
            where = f"{name}:{record.length_line}" if record.length_line else name
            raise LimitExceededError(
                f"{where}: a match of {format_count(length)} points; the limit "
                f"MAX_MATCH_LENGTH is {format_count(MAX_MATCH_LENGTH)}",
                "MAX_MATCH_LENGTH", MAX_MATCH_LENGTH)
        for game in record.games:
            if game.score is not None and max(game.score) > MAX_SCORE:
                line = game.score_line or game.line
                where = f"{name}:{line}" if line else name
                raise LimitExceededError(
                    f"{where}: a score of {format_count(max(game.score))}; the limit MAX_SCORE "
                    f"is {format_count(MAX_SCORE)}", "MAX_SCORE", MAX_SCORE)


def _refuse_unrecognised(text: str, name: str) -> NoReturn:
    """Raise UnsupportedFormatError for a text of no format bgtools reads, naming GNU
    Backgammon's analysis text, which users take for a match record."""
    from bgtools.readers.sniff import looks_like_gnubg_text_export

    if looks_like_gnubg_text_export(text):
        raise UnsupportedFormatError(
            f"{name} is GNU Backgammon's analysis text, not a match record: export the match "
            "as .mat or .sgf")
    raise UnsupportedFormatError(
        f"{name} is not a match record bgtools recognises ({recognised_formats()})")


def read_records(data: bytes, name: str = "<input>") -> LoadedRecords:
    """Decode ``data``, recognise its format and read it.

    eXtreme Gammon and BGBlitz files are recognised by their magic bytes before anything
    else (``RGMH``; a ``{"format":"BGF"`` header line). Raises UnsupportedFormatError
    (empty, other binary or unrecognised input, an unreadable binary record) and
    LimitExceededError (beyond a limit of :mod:`bgtools.limits`). A file that is not UTF-8
    is read as cp1252 (else latin-1), with an ``encoding-assumed`` warning in every record;
    one with a UTF-16 byte-order mark is read as UTF-16.
    """
    if len(data) > MAX_FILE_BYTES:
        raise _too_big(name, len(data))
    binary = _read_binary(data, name)  # by magic bytes, which an empty file has not
    if binary is not None:
        _check_records(binary.records, name)
        return binary
    # Old DOS tools end a text file with Ctrl-Z (0x1A), and some pad it with NUL bytes:
    # neither is part of a text record (gnubg reads such files as without them). A binary
    # record, read above, is read whole: an .xg's archive trailer ends in zero bytes.
    from bgtools.readers.source import decode_text, decode_utf16

    text_bytes = data.rstrip(b"\x1a\x00")
    decoded = decode_utf16(data)
    if decoded is None:
        if not text_bytes.strip():
            raise UnsupportedFormatError(f"{name} is empty, not a match record")
        if b"\x00" in text_bytes[:4096]:
            raise UnsupportedFormatError(f"{name} is a binary file, not a match record")
        decoded = decode_text(text_bytes)
    elif not decoded.text.strip() or "\x00" in decoded.text[:4096]:
        raise UnsupportedFormatError(f"{name} is empty or binary, not a match record")
    text_format = _text_format(decoded.text)
    if text_format is None:
        _refuse_unrecognised(decoded.text, name)
    records, decoded, stated_encoding = text_format.read_text(decoded, text_bytes, name)
    _check_records(records, name)
    if decoded.encoding not in UNICODE_ENCODINGS and not stated_encoding:
        warning = Problem(
            "encoding-assumed",
            f"the file is not UTF-8; read as {decoded.encoding} (the first byte that is not "
            f"UTF-8 is on line {decoded.first_bad_line})",
            line=decoded.first_bad_line, severity=Severity.WARNING,
        )
        for record in records:
            record.problems.insert(0, warning)
    return LoadedRecords(text_format.name, decoded.encoding, records)


def _read_binary(data: bytes, name: str) -> LoadedRecords | None:
    """The records of a file of a binary format (the binary rows of
    :data:`~bgtools.readers.formats.READERS`: eXtreme Gammon, BGBlitz ...), recognised by
    their magic bytes; None for any other input."""
    if not data.startswith(BINARY_STARTS):
        return None  # text: the binary readers (and zlib-ng) are not even imported
    for row in READERS:
        if row.binary and row.recognises(data):
            return LoadedRecords(row.name, "binary", row.read_binary(data, name))
    return None


def read_input_bytes(path: str | Path, name: str | None = None) -> bytes:
    """The bytes of the input ``path``, never modifying it and never blocking on a FIFO.

    A regular file is measured before it is read; a FIFO or character device (``<(cmd)``,
    ``/dev/stdin``) is read up to MAX_FILE_BYTES + 1 bytes; a FIFO nobody writes to reads
    as empty. Raises UnreadableInputError, LimitExceededError or OSError; ``name`` is the
    path as messages show it.
    """
    name = str(path) if name is None else name
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except IsADirectoryError:
        raise UnreadableInputError(f"{name} is a directory") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISFIFO(info.st_mode) or stat.S_ISCHR(info.st_mode):
            os.set_blocking(fd, True)
        return _read_bounded(fd, info, name)
    finally:
        os.close(fd)


def read_stdin(fd: int = 0) -> StdinInput:
    """Read standard input (``fd``) whole, as bytes, bounded by MAX_FILE_BYTES like a file.

    A pipe, a FIFO, a terminal (until end of file) or a redirected regular file; a closed
    standard input raises UnreadableInputError, too much input LimitExceededError.
    """
    try:
        info = os.fstat(fd)
    except OSError:
        raise UnreadableInputError(f"{STDIN_ARGUMENT}: standard input is closed") from None
    return StdinInput(_read_bounded(fd, info, STDIN_ARGUMENT, wait=True))


def _read_bounded(fd: int, info: os.stat_result, name: str, *, wait: bool = False) -> bytes:
    """Read ``fd`` (whose ``fstat`` is ``info``) to its end, refusing more than
    MAX_FILE_BYTES: a regular file by its size before reading, anything else on the way.
    ``wait``: when ``fd`` is non-blocking, wait for data instead of taking what is there."""
    if stat.S_ISDIR(info.st_mode):
        raise UnreadableInputError(f"{name} is a directory")
    if stat.S_ISREG(info.st_mode):
        if info.st_size > MAX_FILE_BYTES:
            raise _too_big(name, info.st_size)
    elif not (stat.S_ISFIFO(info.st_mode) or stat.S_ISCHR(info.st_mode)
              or stat.S_ISSOCK(info.st_mode)):
        raise UnreadableInputError(f"{name} is not a regular file")
    chunks: list[bytes] = []
    total = 0
    while total <= MAX_FILE_BYTES:
        try:
            chunk = os.read(fd, min(1 << 20, MAX_FILE_BYTES + 1 - total))
        except BlockingIOError:
            if not wait:
                break  # a non-blocking character device with nothing to read
            # Standard input left non-blocking by whoever started us: wait for data.
            select.select([fd], [], [])
            continue
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    if total > MAX_FILE_BYTES:
        raise _too_big(name, f"more than {format_count(MAX_FILE_BYTES)}")
    return b"".join(chunks)


def load_file(path: InputSource, name: str | None = None) -> LoadedRecords:
    """Read a file from disk (never modifying it), or standard input already read, and
    return its records; ``name`` is the input as messages show it (default: ``path``, or
    ``-`` for standard input)."""
    if isinstance(path, StdinInput):
        shown = STDIN_ARGUMENT if name is None else name
        return read_records(path.data, shown)
    shown = str(path) if name is None else name
    return read_records(read_input_bytes(path, shown), shown)
