"""The one table of the formats bgtools writes: one row per format.

A row names the format, its extensions (the first is the one ``convert -o DIR/`` gives its
outputs; each of them names the format in ``-o FILE``), whether it is text or binary and the
function that writes it, ``write(record, replay, events) -> str`` (text) or ``-> bytes``
(binary), named as ``"module:function"`` and imported on first use.
:mod:`bgtools.reports.convert` (and through it ``bgtools convert`` and ``Match.write``)
reads everything it knows of a format from here. The readers have their own table
(:mod:`bgtools.readers.formats`): readers may not import writers.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, get_args

if TYPE_CHECKING:
    from bgtools.record import MatchRecord
    from bgtools.replay import Event, MatchReplay

__all__ = ["WRITERS", "WRITE_FORMATS", "WriteFormatName", "Writer", "writer"]

WriteFormatName = Literal["mat", "sgf", "json", "ogxm"]
"""The formats bgtools writes, in the order the documentation lists them."""


@dataclass(frozen=True, slots=True)
class Writer:
    """One format bgtools writes (see the module doc)."""

    name: WriteFormatName
    suffixes: tuple[str, ...]
    binary: bool
    write: str

    @property
    def suffix(self) -> str:
        """The extension of the files ``convert -o DIR/`` writes in this format."""
        return self.suffixes[0]

    def render(self, record: MatchRecord, replay: MatchReplay,
               events: Sequence[Event]) -> str | bytes:
        """``record`` (replayed as ``replay``, with all its ``events``) in this format."""
        module, _, function = self.write.partition(":")
        written: str | bytes = getattr(importlib.import_module(module), function)(
            record, replay, events)
        return written


WRITERS: tuple[Writer, ...] = (
    Writer("mat", (".mat", ".txt", ".gam"), binary=False, write="bgtools.write.mat:write_mat"),
    Writer("sgf", (".sgf",), binary=False, write="bgtools.write.sgf:write_sgf"),
    Writer("json", (".json",), binary=False, write="bgtools.write.json:dumps_match"),
    Writer("ogxm", (".ogxm",), binary=True, write="bgtools.write.ogxm:write_ogxm"),
)
"""Every format bgtools writes."""

WRITE_FORMATS: tuple[WriteFormatName, ...] = get_args(WriteFormatName)
"""Every value of :data:`WriteFormatName`, in its order."""


def writer(name: str) -> Writer:
    """The row of the format ``name`` (KeyError for a format bgtools does not write)."""
    for row in WRITERS:
        if row.name == name:
            return row
    raise KeyError(name)
