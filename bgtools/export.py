"""One row per replayed action, for analysis and training data (``bgtools export``).

The rows are built from :func:`bgtools.reports.event_json`, the very object of ``replay
--jsonl``, so the export and the replay cannot drift apart; the export adds the match's
index in the file, the XGID, the score and Crawford flag of the game and, on each game's
last row, its result. :data:`COLUMNS` lists the columns in order.

Workers turn each file into a chunk: CSV text (``csv``), or columns of Python values
(``parquet``); the parent streams the chunks into one file opened with
:func:`bgtools.atomicio.open_atomically` (:class:`CsvSink`, :class:`ParquetSink`), so
memory stays constant over any number of files and the output is complete or absent.
Parquet needs pyarrow (``pip install 'bgtools[parquet]'``).
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any, BinaryIO, Iterator

from bgtools import ids
from bgtools.batch import FileReport, Input
from bgtools.replay import Event, MatchReplay
from bgtools.reports import event_json

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

LIST_COLUMNS = frozenset({"dice", "steps", "pips", "score"})
"""Columns holding lists: JSON arrays in CSV (``[5,2]``), lists in Parquet."""

FORMATS = ("csv", "parquet")
"""The formats of ``export --to``."""

ROW_GROUP_ROWS = 1 << 16
"""Rows gathered before the Parquet sink writes a row group (bounds its memory)."""


class ExportUnavailableError(Exception):
    """The export format needs an optional dependency that is not installed."""


def _xgid(event: Event) -> str:
    """The XGID of the moment before the event (``""`` when no XGID can hold it)."""
    state = event.state_before
    mover, opponent = event.position_before.mover[1:], event.position_before.opponent[1:]
    sides = (mover, opponent) if state.on_roll == 0 else (opponent, mover)
    try:
        return ids.encode_xgid(sides, state)
    except ids.IdError:
        return ""


def match_rows(display: str, match: int, replay: MatchReplay,
               events: list[Event]) -> Iterator[dict[str, Any]]:
    """The rows of one replayed match (``events``: all its events, in order), each a dict
    with the :data:`COLUMNS` as keys."""
    games = {summary.number: summary for summary in replay.games}
    last_of_game: dict[int, int] = {}
    for i, event in enumerate(events):
        last_of_game[event.game] = i
    for i, event in enumerate(events):
        obj = event_json(display, event)
        summary = games.get(event.game)
        last = summary is not None and last_of_game[event.game] == i
        finished = last and summary is not None and summary.ended_by is not None
        yield {
            "file": display,
            "match": match,
            "game": obj["game"],
            "index": obj["index"],
            "player": obj["player"],
            "action": obj["action"],
            "dice": obj["dice"],
            "play": obj.get("play"),
            "steps": obj.get("steps"),
            "position_id_before": obj["position_id_before"],
            "position_id_after": obj.get("position_id_after"),
            "match_id_before": obj["match_id_before"],
            "xgid": _xgid(event),
            "pips": obj["pips_before"],
            "cube_value": obj["cube_before"],
            "cube_owner": obj["cube_owner_before"],
            "score": list(summary.score_before) if summary is not None else None,
            "crawford": bool(summary.crawford) if summary is not None else None,
            "winner": summary.winner if finished and summary is not None else None,
            "points": summary.points if finished and summary is not None else None,
            "result": summary.result if finished and summary is not None else None,
            "ended_by": summary.ended_by if finished and summary is not None else None,
        }


def _csv_cell(name: str, value: Any) -> Any:
    if value is None:
        return ""
    if name in LIST_COLUMNS:
        return json.dumps(value, separators=(",", ":"))
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def csv_text(rows: Iterator[dict[str, Any]]) -> tuple[str, int]:
    """The rows as CSV lines (no header) and their number."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    count = 0
    for row in rows:
        writer.writerow([_csv_cell(name, row[name]) for name in COLUMNS])
        count += 1
    return out.getvalue(), count


def csv_header() -> str:
    """The CSV header line."""
    return ",".join(COLUMNS) + "\n"


def _columns(rows: Iterator[dict[str, Any]]) -> tuple[dict[str, list[Any]], int]:
    columns: dict[str, list[Any]] = {name: [] for name in COLUMNS}
    count = 0
    for row in rows:
        for name in COLUMNS:
            columns[name].append(row[name])
        count += 1
    return columns, count


def export_report(item: Input, rules: str = "standard", include_invalid: bool = False,
                  to: str = "csv") -> FileReport:
    """The ``export`` job: read one file; for a used file, its rows as the payload:
    ``{"rows": n, "csv": text}`` or ``{"rows": n, "columns": {name: [values]}}``."""
    from bgtools.datajobs import read_usable, with_payload

    report, result = read_usable(item, rules, include_invalid)
    if result is None:
        return report

    def rows() -> Iterator[dict[str, Any]]:
        for match, (replay, events) in enumerate(zip(result.replays, result.events)):
            yield from match_rows(report.display, match, replay, events)

    if to == "csv":
        text, count = csv_text(rows())
        return with_payload(report, {"rows": count, "csv": text})
    columns, count = _columns(rows())
    return with_payload(report, {"rows": count, "columns": columns})


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
    :data:`ROW_GROUP_ROWS` rows (needs pyarrow)."""

    def __init__(self, handle: BinaryIO) -> None:
        try:
            import pyarrow.parquet as pq
        except ImportError as exc:  # pragma: no cover - checked by open_sink
            raise ExportUnavailableError(_PARQUET_MISSING) from exc
        self.schema = parquet_schema()
        self.writer = pq.ParquetWriter(handle, self.schema, compression="zstd")
        self.pending: dict[str, list[Any]] = {name: [] for name in COLUMNS}
        self.pending_rows = 0
        self.rows = 0

    def write(self, payload: dict[str, Any]) -> None:
        """Append one file's columns; write a row group when enough rows are gathered."""
        columns = payload["columns"]
        for name in COLUMNS:
            self.pending[name].extend(columns[name])
        count = int(payload["rows"])
        self.pending_rows += count
        self.rows += count
        if self.pending_rows >= ROW_GROUP_ROWS:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if not self.pending_rows:
            return
        table = pa.Table.from_pydict(self.pending, schema=self.schema)
        self.writer.write_table(table)
        self.pending = {name: [] for name in COLUMNS}
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
