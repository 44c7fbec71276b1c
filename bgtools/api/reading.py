"""Reading: :func:`read` turns a path, text, bytes or a binary file object into the matches
of the file (:class:`MatchFile`, a sequence of :class:`Match`).

Like python-chess's ``chess.pgn.read_game``, reading is forgiving: what a file says wrongly
becomes a :class:`~bgtools.record.Problem` on the match (``match.problems``) and reading goes
on. Only input that cannot be read at all raises, with the typed errors of
:mod:`bgtools.errors`: :class:`~bgtools.errors.UnreadableInputError` (a missing file, a
directory, no permission), :class:`~bgtools.errors.UnsupportedFormatError` (empty, binary,
not a match file, not the ``format`` asked for) and
:class:`~bgtools.errors.LimitExceededError` (beyond a limit of :mod:`bgtools.limits`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, overload

from bgtools.api.replaying import (
    Replay,
    RulesName,
    Verdict,
    check_rules,
    collector_paused,
    verdict_of,
)
from bgtools.api.writing import WriteFormat, write_match
from bgtools.errors import (
    InvalidArgumentError,
    UnreadableInputError,
    UnsupportedFormatError,
    check_path_name,
)
from bgtools.readers import formats
from bgtools.record import GameRecord, MatchRecord, Problem

__all__ = ["READ_FORMATS", "Match", "MatchFile", "ReadFormat", "Source", "check_read_format",
           "read"]

ReadFormat = formats.FormatName
"""The formats bgtools reads (one row each in :data:`bgtools.readers.formats.READERS`):
Jellyfish ``.mat``, GNU Backgammon SGF, bgtools JSON, eXtreme Gammon ``.xg``, BGBlitz
``.bgf`` and OGXM (through the optional package ``ogxm``)."""
READ_FORMATS: tuple[ReadFormat, ...] = formats.READ_FORMATS
"""Every value of :data:`ReadFormat`."""

Source = str | os.PathLike[str] | bytes | bytearray | IO[bytes] | IO[str]
"""What :func:`read` takes: a path (``str`` without a line break, or a path object), the
text of a record (``str`` with a line break), its bytes, or an open file."""


class Match:
    """One match (or money session) as its file writes it, before any rule is checked.

    The facts carry the names of the JSON contract (``match_length``, ``players``);
    :attr:`record` is the underlying :class:`~bgtools.record.MatchRecord`.
    """

    __slots__ = ("_file", "record")

    def __init__(self, record: MatchRecord, file: MatchFile | None = None) -> None:
        self.record = record
        """What the file says of the match (:class:`~bgtools.record.MatchRecord`), before any
        rule is checked."""
        self._file = file

    @property
    def source_format(self) -> str:
        """The format the match was read from (one of :data:`READ_FORMATS`: ``mat``, ``sgf``,
        ``json``, ``xg``, ``bgf``, ``ogxm``)."""
        return self._file.format if self._file is not None else self.record.format

    @property
    def file(self) -> MatchFile | None:
        """The :class:`MatchFile` the match was read with (None for a match made from a
        bare record)."""
        return self._file

    @property
    def path(self) -> Path | None:
        """The file the match was read from, or None for text, bytes or a file object."""
        return self._file.path if self._file is not None else None

    @property
    def match_length(self) -> int | None:
        """The match length in points; 0 for money play, None when the file gives none."""
        return self.record.match_length

    @property
    def players(self) -> tuple[str, str] | None:
        """The names of player 0 and player 1 (None when the file names nobody)."""
        return self.record.names

    @property
    def variation(self) -> str:
        """``"backgammon"`` or ``"nackgammon"``: the game played, which sets the position
        every game starts from (a file of another variation is not read)."""
        return self.record.variation

    @property
    def tags(self) -> list[tuple[str, str]]:
        """The header tags in file order, ``(name, value)``."""
        return self.record.tags

    def tag(self, name: str) -> str | None:
        """The value of the first header tag called ``name`` (any case), or None."""
        return self.record.tag(name)

    @property
    def games(self) -> list[GameRecord]:
        """The games as written, each with its :attr:`~bgtools.record.GameRecord.actions`."""
        return self.record.games

    @property
    def problems(self) -> list[Problem]:
        """What the reader could not read (syntax problems, an assumed encoding); the rules
        are checked by :meth:`replay`, whose problems include these."""
        return self.record.problems

    def replay(self, rules: RulesName = "auto") -> Replay:
        """Replay the match strictly under the house rules ``rules`` (``auto``: chosen from
        the file's ``Site`` tag, as ``bgtools validate`` does; see ``bgtools rules`` and
        docs/house-rules.md for the profiles). An unknown profile name raises
        :class:`~bgtools.errors.InvalidArgumentError` (a ``ValueError``)."""
        return Replay(self.record, rules)

    def validate(self, rules: RulesName = "auto") -> Verdict:
        """Check the match under the house rules ``rules`` as ``bgtools validate`` does and
        give only the verdict (valid, problems, final score): the quickest check, for a
        script that needs no action or moment. ``match.replay(rules).verdict`` is equal."""
        from bgtools.replay import profile_for, replay_match

        check_rules(rules)
        with collector_paused():
            return verdict_of(replay_match(self.record, profile_for(self.record, rules)))

    def write(self, target: str | os.PathLike[str] | IO[str] | IO[bytes],
              format: WriteFormat | None = None, *, overwrite: bool = False,  # noqa: A002
              rules: RulesName = "auto") -> None:
        """Write the match as ``.mat``, SGF, bgtools JSON or OGXM (binary: to a path or a
        binary file), with ``bgtools convert``'s rules.

        ``target`` is a path (the format then defaults to its extension) or an open file
        (``format`` required). A path is written atomically (a temporary file renamed into
        place), never onto the file the match was read from, and an existing file only with
        ``overwrite``. A match whose replay under ``rules`` has errors is not written
        (:class:`~bgtools.reports.convert.InvalidRecordError`, with its ``problems``).
        """
        write_match(self.record, target, format, overwrite=overwrite, rules=rules,
                    source=self.path)

    def __repr__(self) -> str:
        names = " - ".join(self.players) if self.players else "unnamed players"
        length = self.match_length
        kind = "money" if length == 0 else (f"{length} points" if length else "no length")
        return f"<Match {names}, {kind}, {len(self.games)} games>"

    def __eq__(self, other: object) -> bool:
        """An equal record read from the same file in the same format."""
        if other.__class__ is not self.__class__ or not isinstance(other, Match):
            return NotImplemented
        return ((self.record, self.path, self.source_format)
                == (other.record, other.path, other.source_format))

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dataclass with eq


class MatchFile(Sequence[Match]):
    """The matches of one input, in file order (most files hold one), with the input's
    ``format``, the ``encoding`` assumed (``binary`` for a binary format) and its ``path``
    (None unless read from a path)."""

    __slots__ = ("_matches", "encoding", "format", "path")

    def __init__(self, records: list[MatchRecord], format: str,  # noqa: A002
                 encoding: str, path: Path | None = None) -> None:
        self.format = format
        """The format read: ``mat``, ``sgf``, ``json``, ``xg`` or ``bgf``."""
        self.encoding = encoding
        """The text encoding assumed (``utf-8``, ``cp1252`` ...; ``binary`` for ``.xg`` and
        ``.bgf``)."""
        self.path = path
        """The file read, or None for text, bytes or a file object."""
        self._matches = [Match(record, self) for record in records]

    @overload
    def __getitem__(self, index: int) -> Match: ...

    @overload
    def __getitem__(self, index: slice) -> list[Match]: ...

    def __getitem__(self, index: int | slice) -> Match | list[Match]:
        return self._matches[index]

    def __len__(self) -> int:
        return len(self._matches)

    def __iter__(self) -> Iterator[Match]:
        return iter(self._matches)

    def __repr__(self) -> str:
        where = f" {str(self.path)!r}" if self.path is not None else ""
        return f"<MatchFile{where} {self.format}, {len(self)} match(es)>"

    def __eq__(self, other: object) -> bool:
        """The same input read alike: format, encoding, path and equal records."""
        if other.__class__ is not self.__class__ or not isinstance(other, MatchFile):
            return NotImplemented
        return ((self.format, self.encoding, self.path, [match.record for match in self])
                == (other.format, other.encoding, other.path, [match.record for match in other]))

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dataclass with eq


@overload
def read(source: str | os.PathLike[str], *,  # a path, or a record's text (with a line break)
         format: ReadFormat | None = None) -> MatchFile: ...


@overload
def read(source: bytes | bytearray, *,  # a record's bytes
         format: ReadFormat | None = None) -> MatchFile: ...


@overload
def read(source: IO[bytes] | IO[str], *,  # a file object open for reading
         format: ReadFormat | None = None) -> MatchFile: ...


def read(source: Source, *, format: ReadFormat | None = None) -> MatchFile:  # noqa: A002
    """Read the matches of ``source``, recognising its format from the content.

    ``source`` is a path (a ``str`` without a line break, or a path object), the text of a
    record (a ``str`` with a line break), its bytes, or a file object open for reading
    (binary or text). ``format``, when given, is the format the input must be in
    (one of :data:`READ_FORMATS`): another one raises
    :class:`~bgtools.errors.UnsupportedFormatError`.

    >>> import bgtools
    >>> match = bgtools.read("samples/example_gnubg.mat")[0]
    >>> match.players, match.match_length
    (('Alice', 'Bob'), 3)
    >>> bgtools.read(" 1 point match\\n\\n Game 1\\n A : 0   B : 0\\n")[0].match_length
    1
    """
    check_read_format(format)
    with collector_paused():
        return _read(source, format)


def _read(source: Source, format: ReadFormat | None) -> MatchFile:  # noqa: A002
    """:func:`read`'s work, with the collector paused."""
    from bgtools.readers.detect import load_file, read_records

    path: Path | None = None
    try:
        if isinstance(source, os.PathLike) or (isinstance(source, str)
                                                   and not _is_text(source)):
            check_path_name(source)  # a NUL or a lone surrogate: InvalidPathError
            path = Path(source)
            loaded = load_file(path)
        else:
            data = _source_bytes(source)
            loaded = read_records(data, getattr(source, "name", "<input>")
                                  if not isinstance(source, str | bytes | bytearray)
                                  else "<input>")
    except OSError as exc:
        from bgtools.errors import describe_error

        raise UnreadableInputError(describe_error(exc, str(path or "<input>"))[0]) from exc
    if format is not None and loaded.format != format:
        shown = path if path is not None else "the input"
        raise UnsupportedFormatError(f"{shown} is {loaded.format}, not {format}")
    return MatchFile(loaded.records, loaded.format, loaded.encoding, path)


def check_read_format(format: str | None) -> None:  # noqa: A002
    """Refuse a ``format`` that is not one of :data:`READ_FORMATS` (None: any) with
    :class:`~bgtools.errors.InvalidArgumentError` (a ``ValueError``)."""
    if format is not None and format not in READ_FORMATS:
        raise InvalidArgumentError(
            f"unknown format {format!r}; choose one of {', '.join(READ_FORMATS)}")


def _source_bytes(source: str | bytes | bytearray | IO[bytes] | IO[str]) -> bytes:
    """The bytes of an in-memory source or an open file (read up to one byte past the file
    size limit, so that a huge stream is refused without being read whole)."""
    from bgtools.limits import MAX_FILE_BYTES

    if isinstance(source, str):
        return source.encode("utf-8")
    if isinstance(source, bytes | bytearray):
        return bytes(source)
    if not hasattr(source, "read"):
        raise TypeError(f"cannot read a match from {type(source).__name__}")
    data = source.read(MAX_FILE_BYTES + 1)
    if isinstance(data, str):
        return data.encode("utf-8")
    if not isinstance(data, bytes | bytearray):
        raise TypeError(f"the file object gave {type(data).__name__}, not bytes")
    return bytes(data)


def _is_text(source: str) -> bool:
    """A ``str`` with a line break is a record's text; one without is a path."""
    return "\n" in source or "\r" in source
