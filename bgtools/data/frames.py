"""Matches as data frames: the rows of ``bgtools export`` for matches read in Python.

:func:`to_arrow` gives one row per replayed action, with the columns and types of ``bgtools
export --to parquet`` (:data:`bgtools.data.export.COLUMNS`), made by the export's own row
builder (:func:`bgtools.data.export.match_rows`) and schema, so that a table made here and
the export of the same file are equal. :func:`to_pandas` and :func:`to_polars` convert it
where pandas or polars is installed; none of the three libraries is required by bgtools.

>>> import bgtools
>>> table = bgtools.to_arrow(bgtools.read("samples/example_gnubg.mat"))
>>> table.num_rows, table.column_names[:3]
(53, ['file', 'match', 'game'])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from bgtools.api import Match, MatchFile, Replay
from bgtools.api.replaying import RulesName
from bgtools.data.context import match_context
from bgtools.data.export import COLUMNS, ExportUnavailableError, match_rows, parquet_schema

__all__ = ["FrameSource", "to_arrow", "to_pandas", "to_polars"]

FrameSource = Replay | Match | MatchFile | Iterable[Replay | Match | MatchFile]
"""What :func:`to_arrow` takes: a replay, a match (replayed under ``rules``), the matches of
a file, or any number of these (the files of :func:`bgtools.read_many`, say)."""


def _needs(module: str, extra: str) -> ExportUnavailableError:
    return ExportUnavailableError(f"this needs {module}: pip install {extra}")


def _replays(source: FrameSource, rules: RulesName) -> Iterator[tuple[str, int, Replay]]:
    """``(file, match index, replay)`` for each match of ``source``, as the export names
    them: the path of the file read (``""`` for text, bytes or a file object, or a bare
    replay) and the match's number in it, from 1 (as ``score --json``)."""
    if isinstance(source, Replay):
        yield "", 1, source
    elif isinstance(source, Match):
        matches = source.file
        index = 1 if matches is None else next(
            (k for k, match in enumerate(matches, 1) if match is source), 1)
        path = source.path
        yield "" if path is None else str(path), index, source.replay(rules)
    elif isinstance(source, MatchFile):
        shown = "" if source.path is None else str(source.path)
        for index, match in enumerate(source, 1):
            yield shown, index, match.replay(rules)
    else:
        for item in source:
            yield from _replays(item, rules)


def to_arrow(source: FrameSource, *, rules: RulesName = "auto") -> Any:
    """A ``pyarrow.Table`` of one row per action of every match of ``source``, with the
    columns, types and values of ``bgtools export --to parquet`` (docs/contract.md, "The
    export schema"). A match is replayed under ``rules`` (a :class:`~bgtools.Replay` is
    taken as it is); unlike the export, a match with errors is not left out. A match read
    twice in ``source`` (one fingerprint) is marked ``duplicate`` on its later readings.
    Needs pyarrow (``pip install 'bgtools[parquet]'``): else
    :class:`~bgtools.data.export.ExportUnavailableError`."""
    try:
        import pyarrow as pa
    except ImportError as exc:
        raise _needs("pyarrow", "'bgtools[parquet]'") from exc
    rows: list[tuple[Any, ...]] = []
    seen: set[str] = set()  # fingerprints: a later reading of a match is marked, as export does
    for display, index, replay in _replays(source, rules):
        context = match_context(replay.summary, replay.events, display, index)
        rows.extend(match_rows(context, replay.summary, replay.events,
                               duplicate=context.fingerprint in seen))
        seen.add(context.fingerprint)
    columns = ({name: list(values) for name, values in zip(COLUMNS, zip(*rows), strict=True)}
               if rows else {name: [] for name in COLUMNS})
    return pa.Table.from_pydict(columns, schema=parquet_schema())


def to_pandas(source: FrameSource, *, rules: RulesName = "auto") -> Any:
    """:func:`to_arrow`'s table as a ``pandas.DataFrame`` (needs pyarrow and pandas)."""
    table = to_arrow(source, rules=rules)
    try:
        import pandas  # noqa: F401 - pyarrow's to_pandas imports it; say what is missing
    except ImportError as exc:
        raise _needs("pandas", "pandas") from exc
    return table.to_pandas()


def to_polars(source: FrameSource, *, rules: RulesName = "auto") -> Any:
    """:func:`to_arrow`'s table as a ``polars.DataFrame`` (needs pyarrow and polars)."""
    table = to_arrow(source, rules=rules)
    try:
        import polars
    except ImportError as exc:
        raise _needs("polars", "polars") from exc
    return polars.from_arrow(table)
