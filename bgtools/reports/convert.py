"""Convert one match record to ``.mat``, SGF or bgtools JSON.

The data flow is the project's usual one: the input is read (any format bgtools
recognises) and replayed under the strict rules, and a writer renders the replayed match.
A record with errors is not converted: a writer would have to guess what it means.
Writing is atomic (see :mod:`bgtools.write.atomic`), so on any failure nothing is left behind,
and the input file is never opened for writing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from bgtools.errors import BgtoolsError
from bgtools.record import Problem, Severity
from bgtools.replay import Event, MatchReplay, profile_for, replay_match

__all__ = [
    "TARGET_FORMATS",
    "Conversion",
    "ConversionError",
    "InvalidRecordError",
    "TargetFormat",
    "convert_file",
    "render",
    "target_format",
]

TargetFormat = Literal["mat", "sgf", "json"]
TARGET_FORMATS: tuple[TargetFormat, ...] = ("mat", "sgf", "json")
"""The formats bgtools writes."""

_SUFFIXES: dict[str, TargetFormat] = {
    ".mat": "mat",
    ".txt": "mat",
    ".gam": "mat",
    ".sgf": "sgf",
    ".json": "json",
}


class ConversionError(BgtoolsError):
    """A conversion that cannot be done as asked (target format, existing output ...)."""


class InvalidRecordError(BgtoolsError):
    """The input breaks the rules, so it is not converted; ``problems`` says where."""

    def __init__(self, message: str, problems: list[Problem]) -> None:
        super().__init__(message)
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Conversion:
    """What a conversion produced: the target format, the text written and its match."""

    format: TargetFormat
    text: str
    replay: MatchReplay
    source_format: str


def target_format(output: str, requested: str | None) -> TargetFormat:
    """The format to write: ``requested`` when given, else from the output's extension."""
    if requested is not None:
        wanted = requested.lower().lstrip(".")
        for name in TARGET_FORMATS:
            if wanted == name:
                return name
        raise ConversionError(
            f"unknown target format {requested!r}; choose one of {', '.join(TARGET_FORMATS)}"
        )
    suffix = Path(output).suffix.lower()
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    raise ConversionError(
        f"cannot tell the format from {output!r}; give --to {'|'.join(TARGET_FORMATS)}"
    )


def render(replay: MatchReplay, events: list[Event], fmt: TargetFormat) -> str:
    """The text of ``replay``'s record (``events``: all the replay produced) in ``fmt``."""
    if fmt == "mat":
        from bgtools.write.mat import write_mat

        return write_mat(replay.record, replay, events)
    if fmt == "sgf":
        from bgtools.write.sgf import write_sgf

        return write_sgf(replay.record, replay, events)
    from bgtools.write.json import dumps_match

    return dumps_match(replay.record, replay, events)


def convert_file(source: Path, fmt: TargetFormat, *, rules: str = "auto") -> Conversion:
    """Read ``source``, replay it strictly and render it as ``fmt`` (nothing is written).

    Raises :class:`InvalidRecordError` when the record has errors, :class:`ConversionError`
    when the file holds other than one match, and the readers' errors for unreadable input.
    """
    from bgtools.read.detect import load_file

    loaded = load_file(source)
    if len(loaded.records) != 1:
        raise ConversionError(
            f"{source} holds {len(loaded.records)} matches; bgtools converts one match per file"
        )
    record = loaded.records[0]
    events: list[Event] = []
    replay = replay_match(record, profile_for(record, rules), on_event=events.append)
    errors = [p for p in replay.problems if p.severity is Severity.ERROR]
    if errors:
        raise InvalidRecordError(
            f"{source} has {len(errors)} error{'s' if len(errors) != 1 else ''}; not converted",
            errors,
        )
    return Conversion(fmt, render(replay, events, fmt), replay, loaded.format)
