"""One row per replayed action, for analysis and training data (``bgtools export``).

The rows hold the action's fields of ``replay --jsonl`` (:meth:`bgtools.replay.Event.
action_fields`; the tests compare them row for row, and :func:`match_rows` with those
fields for every action), computed once per distinct value (memoised Match IDs and plays,
one Position ID per position); the export adds the match's index in the file, the XGID, the
score and Crawford flag of the game and, on each game's last row, its result.
:data:`COLUMNS` lists the columns in order.

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
from collections.abc import Iterable, Iterator
from operator import mul
from typing import Any, BinaryIO

from bgtools.batch import FileReport, Input
from bgtools.data.spreadsheet import text_cell
from bgtools.engine import ids
from bgtools.engine.memo import BoundedMemo
from bgtools.engine.position import Play, Position
from bgtools.errors import BgtoolsError
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
"""The export's columns, in order (docs/contract.md, "The export schema", describes each)."""

FORMATS = ("csv", "parquet")
"""The formats of ``export --to``."""

ROW_GROUP_ROWS = 1 << 16
"""Rows gathered before the Parquet sink writes a row group (bounds its memory)."""


class ExportUnavailableError(BgtoolsError):
    """The export format needs an optional dependency that is not installed."""


StateCells = tuple[str, str | None]
"""A match state's cells: its Match ID (``""`` for a state none can hold) and the fields of
its XGID after the position (None for a state no XGID can hold)."""

_STATES: BoundedMemo[ids.MatchState, StateCells] = BoundedMemo(1 << 14)
"""The cells of each match state: within a match the state changes only with the dice, the
player on roll, the cube and the score, so about half the actions of an archive repeat one."""

_ANY_BOARD = ((0,) * 25, (0,) * 25)

PlayCells = tuple[str, tuple[tuple[int, int], ...], str]
"""A play's cells: its canonical text, its steps, and the steps as CSV text (``[[24,22]]``)."""

_PLAYS: BoundedMemo[Play, PlayCells] = BoundedMemo(1 << 14)
"""The cells of each play: plays recur (the openings, the common replies), and formatting
one is the costliest part of a row after the IDs."""

_DICE_TEXT: dict[tuple[int, int], str] = {
    (a, b): f"[{a},{b}]" for a in range(1, 7) for b in range(1, 7)}


def _state_cells(state: ids.MatchState) -> StateCells:
    """The Match ID of ``state`` as :meth:`Event.action_fields` gives it, and its XGID's
    fields after the position (they depend on the state alone)."""
    known = _STATES.get(state)
    if known is not None:
        return known
    try:
        match_id = ids.encode_match_id(state)
    except ids.IdError:
        match_id = ""
    suffix: str | None
    try:
        suffix = ids.encode_xgid(_ANY_BOARD, state)[5 + 26:]
    except ids.IdError:
        suffix = None
    return _STATES.remember(state, (match_id, suffix))


def _xgid(position: Position, on_roll: int, suffix: str | None) -> str:
    """The XGID of ``position`` (the view of player ``on_roll``) with the state's ``suffix``
    (``""`` when no XGID can hold the state)."""
    if suffix is None:
        return ""
    mover, opponent = position.mover[1:], position.opponent[1:]
    return ("XGID=" + ids.xgid_board((mover, opponent) if on_roll == 0 else (opponent, mover))
            + suffix)


def _play_cells(play: Play) -> PlayCells:
    """The cells of ``play``: ``str(play)`` and its steps, as :meth:`Event.action_fields`
    gives them, and the steps' CSV text."""
    known = _PLAYS.get(play)
    if known is not None:
        return known
    steps = tuple((a, b) for a, b in play.steps)
    text = "[" + ",".join([f"[{a},{b}]" for a, b in steps]) + "]"
    return _PLAYS.remember(play, (str(play), steps, text))


_WEIGHTS = tuple(range(26))
"""Pips per checker on each slot of a side (off 0 ... bar 25), as Position.pips counts."""

Before = tuple[str, int, int]
"""A position's Position ID and the pips of its mover and of his opponent."""


def _befores(events: list[Event]) -> list[Before]:
    """Per event, the Position ID and pips of the position before it, each computed once
    for a run of actions on one position (a double, its answer and the next roll)."""
    out: list[Before] = []
    last: Position | None = None
    known: Before = ("", 0, 0)
    for event in events:
        before = event.position_before
        if before is not last:  # the replay passes one object for a run on one position
            known = (before.position_id, sum(map(mul, before.mover, _WEIGHTS)),
                     sum(map(mul, before.opponent, _WEIGHTS)))
            last = before
        out.append(known)
    return out


GameCells = tuple[tuple[Any, Any], tuple[Any, Any, Any, Any]]
"""A game's cells: its score and Crawford flag (every row), its result (its last row)."""

_NO_RESULT = (None, None, None, None)


def _game_cells(replay: MatchReplay, as_text: bool) -> dict[int, GameCells]:
    """Per game number, the cells of :data:`GameCells`, as values or as CSV text."""
    out: dict[int, GameCells] = {}
    for summary in replay.games:
        score: Any = summary.score_before
        crawford: Any = bool(summary.crawford)
        if as_text:
            score = f"[{score[0]},{score[1]}]"
            crawford = "true" if crawford else "false"
        else:
            score = list(score)
        ending = ((summary.winner, summary.points, summary.result, summary.ended_by)
                  if summary.ended_by is not None else _NO_RESULT)
        out[summary.number] = ((score, crawford), ending)
    return out


def match_rows(display: str, match: int, replay: MatchReplay, events: list[Event],
               as_text: bool = False) -> Iterator[tuple[Any, ...]]:
    """The rows of one replayed match (``events``: all its events, in order), one per event,
    each a tuple in :data:`COLUMNS` order: Python values (sequences for the list columns,
    None for none) or, ``as_text``, the cells of a CSV row (lists as JSON arrays, booleans
    as ``true``/``false``; numbers and None as they are, for ``csv.writer``; the file's
    name as :func:`bgtools.data.spreadsheet.text_cell` writes it).

    The action's own fields are those of :meth:`Event.action_fields`, as in ``replay
    --jsonl`` (the tests compare them row for row); the rest is what
    :func:`bgtools.reports.files.event_json` adds (the Position ID after a move, pips, cube
    before), reusing the next action's Position ID when it is the position after the move
    (it nearly always is: encoding is the costly part). Each ID, play and pip count is
    computed once per distinct value in a run (see :func:`_befores` and the memos)."""
    games = _game_cells(replay, as_text)
    if as_text:
        display = text_cell(display)
    no_game: GameCells = ((None, None), _NO_RESULT)
    last_of_game: dict[int, int] = {}
    for i, event in enumerate(events):
        last_of_game[event.game] = i
    befores = _befores(events)
    count = len(events)
    text = 2 if as_text else 1  # which PlayCells column holds the steps
    for i, event in enumerate(events):
        pid, mover_pips, opponent_pips = befores[i]
        play_text: str | None = None
        steps: Any = None
        after_id: str | None = None
        if event.action == "move":
            play = event.play
            if play is not None:
                cells = _play_cells(play)
                play_text, steps = cells[0], cells[text]
            after = event.position_after
            if after is not None:
                nxt = events[i + 1].position_before if i + 1 < count else None
                if nxt is not None and nxt.mover == after.opponent \
                        and nxt.opponent == after.mover:
                    after_id = befores[i + 1][0]
                else:
                    after_id = after.swapped().position_id
        else:  # a cube action, a resignation or its answer leaves the board as it was
            after_id = pid
        state = event.state_before
        match_id, suffix = _state_cells(state)
        dice: Any = event.dice
        if as_text:
            dice = _DICE_TEXT[dice] if dice is not None else None
            pips: Any = (f"[{mover_pips},{opponent_pips}]" if state.on_roll == 0
                         else f"[{opponent_pips},{mover_pips}]")
        else:
            pips = ([mover_pips, opponent_pips] if state.on_roll == 0
                    else [opponent_pips, mover_pips])
        head, ending = games.get(event.game, no_game)
        yield (
            display, match, event.game, event.index, event.player, event.action,
            dice, play_text, steps, pid, after_id, match_id,
            _xgid(event.position_before, state.on_roll, suffix),
            pips, state.cube_value, state.cube_owner, *head,
            *(ending if last_of_game[event.game] == i else _NO_RESULT),
        )


def csv_text(rows: Iterable[tuple[Any, ...]]) -> str:
    """The CSV lines (no header) of rows given as text cells (``match_rows(...,
    as_text=True)``): None as an empty cell."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def csv_header() -> str:
    """The CSV header line."""
    return ",".join(COLUMNS) + "\n"


def _columns(rows: Iterator[tuple[Any, ...]]) -> dict[str, list[Any]]:
    table = list(rows)
    if not table:
        return {name: [] for name in COLUMNS}
    return {name: list(values) for name, values in zip(COLUMNS, zip(*table))}


def export_report(item: Input, rules: str = "auto", include_invalid: bool = False,
                  to: str = "csv") -> FileReport:
    """The ``export`` job: read one file; for a used file, its rows as the payload:
    ``{"rows": n, "csv": text}`` or ``{"rows": n, "columns": {name: [values]}}``."""
    from bgtools.data.jobs import read_usable, with_payload

    report, result = read_usable(item, rules, include_invalid)
    if result is None:
        return report

    count = sum(len(events) for events in result.events)  # one row per event

    def rows(as_text: bool) -> Iterator[tuple[Any, ...]]:
        for match, (replay, events) in enumerate(zip(result.replays, result.events)):
            yield from match_rows(report.display, match, replay, events, as_text)

    # Rows make many small objects and no reference cycles: the cyclic collector would only
    # rescan them, and the file's events, again and again (as in analyse_file).
    collecting = gc.isenabled()
    gc.disable()
    try:
        if to == "csv":
            return with_payload(report, {"rows": count, "csv": csv_text(rows(True))})
        return with_payload(report, {"rows": count, "columns": _columns(rows(False))})
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
