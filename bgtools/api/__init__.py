"""The library's facade: read, replay and write matches from Python.

A layer after :mod:`bgtools.reports` (ARCHITECTURE.md): it uses the readers, the replayer,
the writers and the reports, and nothing below imports it. The names are re-exported by
:mod:`bgtools` (``bgtools.read``, ``bgtools.Match`` ...), which loads them on first use.
"""

from __future__ import annotations

from bgtools.api.reading import READ_FORMATS, Match, MatchFile, ReadFormat, Source, read
from bgtools.api.replaying import Cube, Moment, Replay, ReplayedAction, ReplayedGame, Verdict
from bgtools.api.writing import WriteFormat, match_text, write_match

__all__ = [
    "READ_FORMATS",
    "Cube",
    "Match",
    "MatchFile",
    "Moment",
    "ReadFormat",
    "Replay",
    "ReplayedAction",
    "ReplayedGame",
    "Source",
    "Verdict",
    "WriteFormat",
    "match_text",
    "read",
    "write_match",
]
