"""One row per replayed action, for analysis and training data (``bgtools export``).

The rows are built from :meth:`bgtools.replay.Event.action_fields`, the action's fields in
``replay --jsonl``, so the export and the replay cannot drift apart (the tests compare them
row for row); the export adds the match's
index in the file, the XGID, the score and Crawford flag of the game and, on each game's
last row, its result. :data:`COLUMNS` lists the columns in order.

Workers turn each file into a chunk: CSV text (``csv``), or columns of Python values
(``parquet``); the parent streams the chunks into one file opened with
:func:`bgtools.write.atomic.open_atomically` (:class:`CsvSink`, :class:`ParquetSink`), so
memory stays constant over any number of files and the output is complete or absent.
Parquet needs pyarrow (``pip install 'bgtools[parquet]'``).
"""

from __future__ import annotations

import csv
import gc
import io
from operator import mul
from typing import Any, BinaryIO, Iterator

from bgtools.batch import FileReport, Input
from bgtools.engine import ids
from bgtools.engine.position import Position
from bgtools.replay import Event, MatchReplay

__all__ = [
    "COLUMNS",
    "FORMATS",
    "ExportUnavailableError",
    "CsvSink",
    "ParquetSink",
    "check_format",
    "csv_header",
    "csv_text",
    "export_report",
    "match_rows",
    "open_sink",
    "parquet_schema",
]

COLUMNS: tuple[str, ...] = (
    "file", "match", "game", "index", "player", "action",
    "dice", "play", "steps",
    "position_id_before", "position_id_after", "match_id_before", "xgid",
    "pips", "cube_value", "cube_owner", "score", "crawford",
    "winner", "points", "result", "ended_by",
)
"""The export's columns, in order (docs/CONTRACT-data.md describes each)."""

FORMATS = ("csv", "parquet")
"""The formats of ``export --to``."""

ROW_GROUP_ROWS = 1 << 16
"""Rows gathered before the Parquet sink writes a row group (bounds its memory)."""


class ExportUnavailableError(Exception):
    """The export format needs an optional dependency that is not installed."""


_XGIDS: dict[tuple[Position, ids.MatchState], str] = {}
"""XGIDs by (position, state): the openings of an archive's games recur (and whole games
in archives of copies); both keys are immutable."""
_XGIDS_MAX = 1 << 14
"""Entries kept in _XGIDS before it starts afresh, so memory stays bounded."""


def _xgid(event: Event) -> str:
    """The XGID of the moment before the event (``""`` when no XGID can hold it)."""
    key = (event.position_before, event.state_before)
    known = _XGIDS.get(key)
    if known is not None:
        return known
    state = event.state_before
    mover, opponent = event.position_before.mover[1:], event.position_before.opponent[1:]
    sides = (mover, opponent) if state.on_roll == 0 else (opponent, mover)
    try:
        xgid = ids.encode_xgid(sides, state)
    except ids.IdError:
        xgid = ""
    if len(_XGIDS) >= _XGIDS_MAX:
        _XGIDS.clear()
    _XGIDS[key] = xgid
    return xgid


_WEIGHTS = tuple(range(26))
"""Pips per checker on each slot of a side (off 0 ... bar 25), as Position.pips counts."""


def match_rows(display: str, match: int, replay: MatchReplay,
               events: list[Event]) -> Iterator[tuple[Any, ...]]:
    """The rows of one replayed match (``events``: all its events, in order), each a tuple
    of Python values in :data:`COLUMNS` order (lists for the list columns, None for none).

    The action's own fields come from :meth:`Event.action_fields`, as in ``replay
    --jsonl``; the rest is what :func:`bgtools.reports.files.event_json` adds (the Position ID
    after a move, pips, cube before), reusing the next action's Position ID when it is the
    position after the move (it nearly always is: encoding is the costly part)."""
    games = {summary.number: summary for summary in replay.games}
    last_of_game: dict[int, int] = {}
    for i, event in enumerate(events):
        last_of_game[event.game] = i
    fields = [event.action_fields() for event in events]
    count = len(events)
    for i, event in enumerate(events):
        own = fields[i]
        after_id: str | None = None
        if event.action == "move":
            after = event.position_after
            if after is not None:
                nxt = events[i + 1].position_before if i + 1 < count else None
                if nxt is not None and nxt.mover == after.opponent \
                        and nxt.opponent == after.mover:
                    after_id = str(fields[i + 1]["position_id_before"])
                else:
                    after_id = after.swapped().position_id
        before = event.position_before
        mover = sum(map(mul, before.mover, _WEIGHTS))
        opponent = sum(map(mul, before.opponent, _WEIGHTS))
        state = event.state_before
        summary = games.get(event.game)
        finished = (summary is not None and summary.ended_by is not None
                    and last_of_game[event.game] == i)
        yield (
            display, match, event.game, own["index"], own["player"], own["action"],
            own["dice"], own.get("play"), own.get("steps"), own["position_id_before"],
            after_id, own["match_id_before"], _xgid(event),
            [mover, opponent] if state.on_roll == 0 else [opponent, mover],
            state.cube_value, state.cube_owner,
            list(summary.score_before) if summary is not None else None,
            bool(summary.crawford) if summary is not None else None,
            summary.winner if finished and summary is not None else None,
            summary.points if finished and summary is not None else None,
            summary.result if finished and summary is not None else None,
            summary.ended_by if finished and summary is not None else None,
        )


def _pair(value: Any) -> str:
    return "" if value is None else f"[{value[0]},{value[1]}]"


def _steps(value: Any) -> str:
    if value is None:
        return ""
    return "[" + ",".join([f"[{a},{b}]" for a, b in value]) + "]"


def csv_text(rows: Iterator[tuple[Any, ...]]) -> tuple[str, int]:
    """The rows as CSV lines (no header) and their number: lists as JSON arrays (``[5,2]``),
    booleans as ``true``/``false``, None as an empty cell."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    count = 0
    for (file, match, game, index, player, action, dice, play, steps, pid, pid_after, mid,
         xgid, pips, cube, owner, score, crawford, winner, points, result, ended) in rows:
        writer.writerow((
            file, match, game, index, player, action, _pair(dice), play, _steps(steps), pid,
            pid_after, mid, xgid, _pair(pips), cube, owner, _pair(score),
            "" if crawford is None else "true" if crawford else "false",
            winner, points, result, ended))
        count += 1
    return out.getvalue(), count


def csv_header() -> str:
    """The CSV header line."""
    return ",".join(COLUMNS) + "\n"


def _columns(rows: Iterator[tuple[Any, ...]]) -> tuple[dict[str, list[Any]], int]:
    table = list(rows)
    if not table:
        return {name: [] for name in COLUMNS}, 0
    return {name: list(values) for name, values in zip(COLUMNS, zip(*table))}, len(table)


def export_report(item: Input, rules: str = "auto", include_invalid: bool = False,
                  to: str = "csv") -> FileReport:
    """The ``export`` job: read one file; for a used file, its rows as the payload:
    ``{"rows": n, "csv": text}`` or ``{"rows": n, "columns": {name: [values]}}``."""
    from bgtools.data.jobs import read_usable, with_payload

    report, result = read_usable(item, rules, include_invalid)
    if result is None:
        return report

    def rows() -> Iterator[tuple[Any, ...]]:
        for match, (replay, events) in enumerate(zip(result.replays, result.events)):
            yield from match_rows(report.display, match, replay, events)

    # Rows make many small objects and no reference cycles: the cyclic collector would only
    # rescan them, and the file's events, again and again (as in analyse_file).
    collecting = gc.isenabled()
    gc.disable()
    try:
        if to == "csv":
            text, count = csv_text(rows())
            return with_payload(report, {"rows": count, "csv": text})
        columns, count = _columns(rows())
        return with_payload(report, {"rows": count, "columns": columns})
    finally:
        if collecting:
            gc.enable()


# --- the sinks ----------------------------------------------------------------------------


class CsvSink:
    """Streams CSV chunks into a binary file, the header first."""

    def __init__(self, handle: BinaryIO) -> None:
        self.handle = handle
        self.rows = 0
        handle.write(csv_header().encode("utf-8"))

    def write(self, payload: dict[str, Any]) -> None:
        """Append one file's chunk."""
        self.handle.write(payload["csv"].encode("utf-8"))
        self.rows += int(payload["rows"])

    def close(self) -> None:
        """Finish the file (nothing to add for CSV)."""


def parquet_schema() -> Any:
    """The Parquet schema of the export (needs pyarrow)."""
    import pyarrow as pa

    small = pa.int16()
    return pa.schema([
        ("file", pa.string()), ("match", pa.int32()), ("game", pa.int32()),
        ("index", pa.int32()), ("player", pa.int8()), ("action", pa.string()),
        ("dice", pa.list_(pa.int8())), ("play", pa.string()),
        ("steps", pa.list_(pa.list_(pa.int8()))),
        ("position_id_before", pa.string()), ("position_id_after", pa.string()),
        ("match_id_before", pa.string()), ("xgid", pa.string()),
        ("pips", pa.list_(small)), ("cube_value", pa.int64()), ("cube_owner", pa.int8()),
        ("score", pa.list_(pa.int32())), ("crawford", pa.bool_()),
        ("winner", pa.int8()), ("points", pa.int64()), ("result", pa.string()),
        ("ended_by", pa.string()),
    ])


class ParquetSink:
    """Streams column chunks into a Parquet file, one row group per
    :data:`ROW_GROUP_ROWS` rows (needs pyarrow). Each file's columns become an Arrow record
    batch at once, so what waits for the next row group is compact Arrow memory."""

    def __init__(self, handle: BinaryIO) -> None:
        try:
            import pyarrow.parquet as pq
        except ImportError as exc:  # pragma: no cover - checked by open_sink
            raise ExportUnavailableError(_PARQUET_MISSING) from exc
        self.schema = parquet_schema()
        self.writer = pq.ParquetWriter(handle, self.schema, compression="zstd")
        self.pending: list[Any] = []
        self.pending_rows = 0
        self.rows = 0

    def write(self, payload: dict[str, Any]) -> None:
        """Append one file's columns; write a row group when enough rows are gathered."""
        import pyarrow as pa

        count = int(payload["rows"])
        if not count:
            return
        self.pending.append(pa.RecordBatch.from_pydict(payload["columns"], schema=self.schema))
        self.pending_rows += count
        self.rows += count
        if self.pending_rows >= ROW_GROUP_ROWS:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if not self.pending_rows:
            return
        table = pa.Table.from_batches(self.pending, schema=self.schema)
        self.writer.write_table(table, row_group_size=max(ROW_GROUP_ROWS, table.num_rows))
        self.pending = []
        self.pending_rows = 0

    def close(self) -> None:
        """Write what is pending and the file's footer."""
        self._flush()
        self.writer.close()


_PARQUET_MISSING = ("--to parquet needs pyarrow: pip install 'bgtools[parquet]'")


def check_format(to: str) -> None:
    """Raise ValueError for an unknown format, ExportUnavailableError when the format's
    library is missing."""
    if to not in FORMATS:
        raise ValueError(f"unknown export format {to!r}; choose csv or parquet")
    if to == "parquet":
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError as exc:
            raise ExportUnavailableError(_PARQUET_MISSING) from exc


def open_sink(to: str, handle: BinaryIO) -> CsvSink | ParquetSink:
    """The sink writing format ``to`` into ``handle``."""
    check_format(to)
    return CsvSink(handle) if to == "csv" else ParquetSink(handle)
