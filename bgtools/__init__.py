"""bgtools: read, validate, replay and convert backgammon match files.

The public API is what ``__all__`` lists (``dir(bgtools)`` shows nothing else): reading
(:func:`bgtools.read`, :class:`Match`, :class:`MatchFile`), replaying (:class:`Replay`,
:class:`ReplayedGame`, :class:`ReplayedAction`, :class:`Moment`, :class:`Cube`), positions
and plays (:class:`Position`, :class:`Play`, :func:`parse_play`, :func:`play_text` ...),
problems (:class:`Problem`, :class:`Severity`) and the typed errors. The names are loaded on
first use, so that importing a submodule (the command line starts with ``bgtools.cli``)
does not pay for the rules engine it may not need.

>>> import bgtools
>>> replay = bgtools.read("samples/example_gnubg.mat")[0].replay()
>>> replay.valid, replay.final_score, replay.winner
(True, (2, 4), 1)
>>> from bgtools import Position, parse_play
>>> str(parse_play(Position.initial(), 6, 4, "24/18 13/9"))
'24/18 13/9'
"""

from __future__ import annotations

__version__ = "0.1.0"

from importlib import import_module

# typing.TYPE_CHECKING without importing typing: 'bgtools --version' needs nothing of it
# (mypy reads this constant as it reads typing's).
TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

    from bgtools.api.reading import READ_FORMATS, Match, MatchFile, read
    from bgtools.api.replaying import Replay, ReplayedAction, ReplayedGame, Verdict
    from bgtools.batch.reading import ReadFailure, read_many
    from bgtools.data.frames import to_arrow, to_pandas, to_polars
    from bgtools.engine.ids import MatchState
    from bgtools.engine.plays import parse_play, play_text
    from bgtools.engine.position import (
        BAR,
        OFF,
        Play,
        Position,
        PositionError,
        Step,
        format_play,
        parse_id,
    )
    from bgtools.errors import (
        BgtoolsError,
        IllegalPlayError,
        InvalidArgumentError,
        InvalidPathError,
        LimitExceededError,
        NotationError,
        OutputRefusedError,
        RecordSyntaxError,
        UnreadableInputError,
        UnsupportedFormatError,
        UnwritableOutputError,
    )
    from bgtools.record import Problem, Severity
    from bgtools.reports.convert import ConversionError, InvalidRecordError
    from bgtools.reports.moments import Cube, Moment
    from bgtools.write.mat import UnwritableRecordError

__all__ = [
    # reading, replaying, writing
    "read",
    "read_many",
    "ReadFailure",
    "READ_FORMATS",
    "Match",
    "MatchFile",
    "Replay",
    "ReplayedGame",
    "ReplayedAction",
    "Moment",
    "Cube",
    "Verdict",
    "Problem",
    "Severity",
    # data frames
    "to_arrow",
    "to_pandas",
    "to_polars",
    # positions and plays
    "BAR",
    "OFF",
    "MatchState",
    "Play",
    "Position",
    "PositionError",
    "Step",
    "format_play",
    "parse_id",
    "parse_play",
    "play_text",
    # errors
    "BgtoolsError",
    "ConversionError",
    "IllegalPlayError",
    "InvalidArgumentError",
    "InvalidPathError",
    "InvalidRecordError",
    "LimitExceededError",
    "NotationError",
    "OutputRefusedError",
    "RecordSyntaxError",
    "UnreadableInputError",
    "UnsupportedFormatError",
    "UnwritableOutputError",
    "UnwritableRecordError",
]
_HOMES = {
    "read": "bgtools.api.reading",
    "READ_FORMATS": "bgtools.api.reading",
    "read_many": "bgtools.batch.reading",
    "ReadFailure": "bgtools.batch.reading",
    "Match": "bgtools.api.reading",
    "MatchFile": "bgtools.api.reading",
    "Replay": "bgtools.api.replaying",
    "ReplayedGame": "bgtools.api.replaying",
    "ReplayedAction": "bgtools.api.replaying",
    "Moment": "bgtools.reports.moments",
    "Cube": "bgtools.reports.moments",
    "Verdict": "bgtools.api.replaying",
    "to_arrow": "bgtools.data.frames",
    "to_pandas": "bgtools.data.frames",
    "to_polars": "bgtools.data.frames",
    "Problem": "bgtools.record",
    "Severity": "bgtools.record",
    "MatchState": "bgtools.engine.ids",
    "BAR": "bgtools.engine.position",
    "OFF": "bgtools.engine.position",
    "Play": "bgtools.engine.position",
    "Position": "bgtools.engine.position",
    "PositionError": "bgtools.engine.position",
    "Step": "bgtools.engine.position",
    "format_play": "bgtools.engine.position",
    "parse_id": "bgtools.engine.position",
    "parse_play": "bgtools.engine.plays",
    "play_text": "bgtools.engine.plays",
    "BgtoolsError": "bgtools.errors",
    "ConversionError": "bgtools.reports.convert",
    "InvalidRecordError": "bgtools.reports.convert",
    "UnwritableRecordError": "bgtools.write.mat",
    "IllegalPlayError": "bgtools.errors",
    "InvalidArgumentError": "bgtools.errors",
    "LimitExceededError": "bgtools.errors",
    "NotationError": "bgtools.errors",
    "OutputRefusedError": "bgtools.errors",
    "RecordSyntaxError": "bgtools.errors",
    "UnreadableInputError": "bgtools.errors",
    "UnsupportedFormatError": "bgtools.errors",
    "InvalidPathError": "bgtools.errors",
    "UnwritableOutputError": "bgtools.errors",
}


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'bgtools' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public API: the names of ``__all__``."""
    return sorted(__all__)
