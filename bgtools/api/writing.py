"""Writing: :meth:`Match.write <bgtools.api.reading.Match.write>` with the rules of
``bgtools convert``: the match is replayed strictly and not written when it has errors; a
path is written atomically (:mod:`bgtools.write.atomic`), never onto the file the match was
read from, and an existing file only when asked."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import IO

from bgtools.api.replaying import RulesName, check_rules
from bgtools.record import MatchRecord, Severity
from bgtools.replay import Event, profile_for, replay_match
from bgtools.reports.convert import (
    TARGET_FORMATS,
    ConversionError,
    InvalidRecordError,
    TargetFormat,
    render,
    target_format,
)
from bgtools.write.atomic import check_output, write_atomically

__all__ = ["WriteFormat", "match_text", "write_match"]

WriteFormat = TargetFormat
"""The formats bgtools writes: ``mat`` (as GNU Backgammon exports it), ``sgf``, ``json``,
``ogxm`` (binary, through the optional package ``ogxm``)."""


def match_text(record: MatchRecord, format: WriteFormat,  # noqa: A002
               *, rules: RulesName = "auto") -> str:
    """The text of ``record`` in ``format``; raises InvalidRecordError when its replay under
    ``rules`` has errors, UnwritableRecordError when ``format`` cannot hold it (SGF
    set-up nodes in a ``.mat``), and ConversionError for a binary format (write it with
    :func:`write_match`)."""
    written = _rendered(record, format, rules)
    if isinstance(written, bytes):
        raise ConversionError(f"{format} is a binary format, not text: write it to a path or "
                              "to a file open in binary mode")
    return written


def _rendered(record: MatchRecord, format: WriteFormat,  # noqa: A002
              rules: RulesName) -> str | bytes:
    """``record`` in ``format`` (text, or bytes for a binary format), by convert's rules."""
    _checked_format(format)
    check_rules(rules)
    events: list[Event] = []  # the writers need them: one replay that records them
    summary = replay_match(record, profile_for(record, rules), on_event=events.append)
    errors = [p for p in summary.problems if p.severity is Severity.ERROR]
    if errors:
        raise InvalidRecordError(
            f"the match has {len(errors)} error{'s' if len(errors) != 1 else ''}; not written",
            errors)
    return render(summary, events, format)


def write_match(record: MatchRecord, target: str | os.PathLike[str] | IO[str] | IO[bytes],
                format: WriteFormat | None = None, *, overwrite: bool = False,  # noqa: A002
                rules: RulesName = "auto", source: Path | None = None) -> None:
    """Write ``record`` to ``target`` (a path or an open file), never onto ``source`` (the
    file it was read from): see :meth:`Match.write <bgtools.api.reading.Match.write>`."""
    if isinstance(target, str | os.PathLike):
        path = Path(target)
        fmt = _path_format(path, format)
        check_output(path, overwrite=overwrite, protect=source)  # before the work
        write_atomically(path, _rendered(record, fmt, rules), overwrite=overwrite,
                         protect=source)
        return
    if format is None:
        raise ConversionError(f"writing to a file object needs format={_FORMAT_WORDS}")
    written = _rendered(record, _checked_format(format), rules)
    if isinstance(target, io.TextIOBase):
        if isinstance(written, bytes):
            raise ConversionError(f"{format} is a binary format: open the file in binary mode")
        target.write(written)
    else:
        target.write(written if isinstance(written, bytes)  # type: ignore[arg-type]
                     else written.encode("utf-8"))


_FORMAT_WORDS = (", ".join(repr(name) for name in TARGET_FORMATS[:-1])
                 + f" or {TARGET_FORMATS[-1]!r}")


def _checked_format(format: str) -> WriteFormat:  # noqa: A002
    """``format`` when bgtools writes it, else ConversionError in the library's words."""
    for name in TARGET_FORMATS:
        if format == name:
            return name
    raise ConversionError(f"unknown format {format!r} to write; pass format={_FORMAT_WORDS}")


def _path_format(path: Path, format: WriteFormat | None) -> WriteFormat:  # noqa: A002
    """The format to write ``path`` in: ``format``, else the one its extension names (as
    ``bgtools convert`` tells it)."""
    if format is not None:
        return _checked_format(format)
    try:
        return target_format(str(path), None)
    except ConversionError:
        raise ConversionError(
            f"cannot tell the format to write from the name {path.name!r}: pass "
            f"format={_FORMAT_WORDS}, or name the file with its extension") from None
