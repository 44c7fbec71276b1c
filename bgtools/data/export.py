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
import datetime as dt
import gc
import hashlib
import io
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from operator import mul
from pathlib import Path
from typing import Any, BinaryIO

from bgtools.batch import FileReport, Input
from bgtools.data.context import MatchContext, MatchFilter, crawford_state, match_context
from bgtools.data.spreadsheet import text_cell
from bgtools.engine import ids
from bgtools.engine.memo import BoundedMemo
from bgtools.engine.position import Play, Position
from bgtools.errors import BgtoolsError
from bgtools.replay import Event, MatchReplay

__all__ = [
    "COLUMNS",
    "CUBE_COLUMNS",
    "DATASET_SCHEMA",
    "FORMATS",
    "GAME_COLUMNS",
    "MATCH_COLUMNS",
    "PARTITIONS",
    "TABLES",
    "ExportUnavailableError",
    "CsvSink",
    "DatasetSink",
    "ParquetSink",
    "cell_text",
    "check_format",
    "csv_header",
    "csv_text",
    "cube_rows",
    "dataset_inputs",
    "export_report",
    "game_rows",
    "mark_duplicate",
    "match_row",
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
    "line", "move", "player_name", "opponent_name", "player_rating", "opponent_rating",
    "match_length", "player_away", "opponent_away", "crawford_state",
    "event", "site", "date", "time", "round", "match_id", "fingerprint", "duplicate",
)
"""The columns of the actions table, in order (docs/contract.md, "The export schema",
describes each)."""

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


GameCells = tuple[tuple[Any, Any], tuple[Any, Any, Any, Any], tuple[tuple[Any, Any], Any]]
"""A game's cells: its score and Crawford flag (every row), its result (its last row), and
each side's away count with the game's Crawford state (every row)."""

_NO_RESULT = (None, None, None, None)


def _aways(length: int, score: tuple[int, int]) -> tuple[int | None, int | None]:
    """Each side's points to go before a game (None for money)."""
    if not length:
        return None, None
    return length - score[0], length - score[1]


def _game_cells(replay: MatchReplay, as_text: bool) -> dict[int, GameCells]:
    """Per game number, the cells of :data:`GameCells`, as values or as CSV text."""
    out: dict[int, GameCells] = {}
    length = replay.match_length
    for summary in replay.games:
        score: Any = summary.score_before
        crawford: Any = bool(summary.crawford)
        aways = _aways(length, summary.score_before)
        state = crawford_state(length, summary.crawford, summary.post_crawford)
        if as_text:
            score = f"[{score[0]},{score[1]}]"
            crawford = "true" if crawford else "false"
        else:
            score = list(score)
        ending = ((summary.winner, summary.points, summary.result, summary.ended_by)
                  if summary.ended_by is not None else _NO_RESULT)
        out[summary.number] = ((score, crawford), ending, (aways, state))
    return out


def cell_text(value: Any) -> Any:
    """``value`` as a CSV cell: lists as compact JSON arrays, booleans ``true``/``false``,
    dates and times in ISO form; strings, numbers and None as they are (for ``csv.writer``)."""
    if value is None or (isinstance(value, (str, int)) and not isinstance(value, bool)):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return json.dumps(value, separators=(",", ":"))
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return value


def _free_text(value: str | None, as_text: bool) -> str | None:
    """A cell of text from a file: safe for a spreadsheet in CSV
    (:func:`bgtools.data.spreadsheet.text_cell`)."""
    if value is None or not as_text:
        return value
    return text_cell(value)


SideCells = tuple[tuple[Any, ...], tuple[Any, ...]]
"""Per mover (0, 1): his name, his opponent's, and their ratings."""


def _context_cells(context: MatchContext, duplicate: bool,
                   as_text: bool) -> tuple[SideCells, tuple[Any, ...]]:
    """The actions table's cells that depend only on the match: per mover (0, 1) his name,
    his opponent's and their ratings; and the match's tail cells (event ... duplicate)."""
    names = [_free_text(name, as_text) for name in context.names]
    ratings = context.ratings
    sides = ((names[0], names[1], ratings[0], ratings[1]),
             (names[1], names[0], ratings[1], ratings[0]))
    tail: tuple[Any, ...] = (
        _free_text(context.event, as_text), _free_text(context.site, as_text),
        context.date, context.time, _free_text(context.round, as_text),
        _free_text(context.match_id, as_text), context.fingerprint, duplicate)
    if as_text:
        tail = tuple(cell_text(v) for v in tail)
    return sides, tail


def match_rows(context: MatchContext, replay: MatchReplay, events: list[Event],
               as_text: bool = False, duplicate: bool = False) -> Iterator[tuple[Any, ...]]:
    """The actions table's rows of one replayed match (``events``: all its events, in
    order; ``context``: its :func:`bgtools.data.context.match_context`), one per event, each
    a tuple in :data:`COLUMNS` order: Python values (sequences for the list columns, None
    for none) or, ``as_text``, the cells of a CSV row (lists as JSON arrays, booleans as
    ``true``/``false``; numbers and None as they are, for ``csv.writer``; text from the file
    as :func:`bgtools.data.spreadsheet.text_cell` writes it).

    The action's own fields are those of :meth:`Event.action_fields`, as in ``replay
    --jsonl`` (the tests compare them row for row); the rest is what
    :func:`bgtools.reports.files.event_json` adds (the Position ID after a move, pips, cube
    before), reusing the next action's Position ID when it is the position after the move
    (it nearly always is: encoding is the costly part), and the match's context. Each ID,
    play and pip count is computed once per distinct value in a run (see :func:`_befores`
    and the memos)."""
    games = _game_cells(replay, as_text)
    display = _free_text(context.file, as_text)
    match = context.match
    sides, tail = _context_cells(context, duplicate, as_text)
    length = context.length
    no_game: GameCells = ((None, None), _NO_RESULT, ((None, None), None))
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
        head, ending, (aways, game_state) = games.get(event.game, no_game)
        player = event.player
        source = event.source
        yield (
            display, match, event.game, event.index, player, event.action,
            dice, play_text, steps, pid, after_id, match_id,
            _xgid(event.position_before, state.on_roll, suffix),
            pips, state.cube_value, state.cube_owner, *head,
            *(ending if last_of_game[event.game] == i else _NO_RESULT),
            event.line, source.move if source is not None else None,
            *sides[player], length, aways[player], aways[1 - player], game_state,
            *tail,
        )


CUBE_COLUMNS: tuple[str, ...] = (
    "file", "match", "game", "index", "doubler", "offer", "cube_before", "cube_offered",
    "answer", "doubler_name", "taker_name", "doubler_pips", "taker_pips",
    "doubler_score", "taker_score", "doubler_away", "taker_away", "match_length",
    "crawford_state", "position_id", "xgid", "event", "site", "date", "fingerprint",
    "duplicate",
)
"""The columns of the cube decisions table: one row per offer (a double, beaver or
raccoon) with its answer."""

GAME_COLUMNS: tuple[str, ...] = (
    "file", "match", "game", "player_0", "player_1", "match_length", "score_0", "score_1",
    "away_0", "away_1", "crawford_state", "winner", "winner_name", "points", "result",
    "ended_by", "cube", "moves", "actions", "line", "event", "site", "date", "fingerprint",
    "duplicate",
)
"""The columns of the games table: one row per game."""

MATCH_COLUMNS: tuple[str, ...] = (
    "file", "match", "fingerprint", "duplicate", "duplicate_of_file", "duplicate_of_match",
    "player_0", "player_1", "rating_0", "rating_1", "match_length", "final_score_0",
    "final_score_1", "winner", "winner_name", "complete", "valid", "games", "rules",
    "producer", "format", "event", "site", "date", "time", "round", "match_id",
)
"""The columns of the matches table: one row per match."""

TABLES: dict[str, tuple[str, ...]] = {
    "actions": COLUMNS, "cubes": CUBE_COLUMNS, "games": GAME_COLUMNS,
    "matches": MATCH_COLUMNS,
}
"""The export's tables and their columns."""

_OFFERS = frozenset(("double", "beaver", "raccoon"))
_ANSWERS = frozenset(("take", "drop", "beaver", "raccoon"))


def cube_rows(context: MatchContext, replay: MatchReplay, events: list[Event],
              duplicate: bool = False) -> Iterator[tuple[Any, ...]]:
    """The cube decisions table's rows of one match (Python values, :data:`CUBE_COLUMNS`
    order): each offer with the answer that follows it in the game (None: none written),
    both players' pips and scores before it, as the doubler and the taker."""
    games = {summary.number: summary for summary in replay.games}
    length = context.length
    offered = 1
    for i, event in enumerate(events):
        if event.action not in _OFFERS:
            continue
        answer = events[i + 1] if i + 1 < len(events) else None
        answer_kind = (answer.action if answer is not None and answer.game == event.game
                       and answer.action in _ANSWERS else None)
        before = event.position_before
        state = event.state_before
        mover_pips, opponent_pips = before.pips
        doubler = event.player
        own_pips, other_pips = ((mover_pips, opponent_pips) if state.on_roll == doubler
                                else (opponent_pips, mover_pips))
        summary = games.get(event.game)
        score = summary.score_before if summary is not None else (0, 0)
        aways = _aways(length, score)
        game_state = (crawford_state(length, summary.crawford, summary.post_crawford)
                      if summary is not None else None)
        _, suffix = _state_cells(state)
        previous = events[i - 1] if i else None
        # A beaver's state still shows the cube before the double it answers.
        cube = (offered if previous is not None and previous.game == event.game
                and previous.action in _OFFERS else state.cube_value)
        offered = cube * 2
        yield (
            context.file, context.match, event.game, event.index, doubler, event.action,
            cube, offered, answer_kind, context.names[doubler],
            context.names[1 - doubler], own_pips, other_pips, score[doubler],
            score[1 - doubler], aways[doubler], aways[1 - doubler], length, game_state,
            before.position_id, _xgid(before, state.on_roll, suffix),
            context.event, context.site, context.date, context.fingerprint, duplicate,
        )


def game_rows(context: MatchContext, replay: MatchReplay, events: list[Event],
              duplicate: bool = False) -> Iterator[tuple[Any, ...]]:
    """The games table's rows of one match (Python values, :data:`GAME_COLUMNS` order)."""
    moves: dict[int, int] = {}
    actions: dict[int, int] = {}
    for event in events:
        actions[event.game] = actions.get(event.game, 0) + 1
        if event.action == "move":
            moves[event.game] = moves.get(event.game, 0) + 1
    length = context.length
    for summary in replay.games:
        score = summary.score_before
        aways = _aways(length, score)
        winner = summary.winner if summary.ended_by is not None else None
        yield (
            context.file, context.match, summary.number, *context.names, length, *score,
            *aways, crawford_state(length, summary.crawford, summary.post_crawford),
            winner, context.names[winner] if winner is not None else None,
            summary.points if winner is not None else None, summary.result,
            summary.ended_by, summary.cube, moves.get(summary.number, 0),
            actions.get(summary.number, 0), summary.line, context.event, context.site,
            context.date, context.fingerprint, duplicate,
        )


def match_row(context: MatchContext, replay: MatchReplay,
              duplicate_of: tuple[str, int] | None = None) -> tuple[Any, ...]:
    """The matches table's row of one match (Python values, :data:`MATCH_COLUMNS` order).
    ``winner``: the match's winner (None for money and unfinished matches)."""
    winner = replay.winner if replay.complete and replay.match_length else None
    first_file, first_match = duplicate_of if duplicate_of is not None else (None, None)
    return (
        context.file, context.match, context.fingerprint, duplicate_of is not None,
        first_file, first_match, *context.names, *context.ratings, context.length,
        *replay.final_score, winner, context.names[winner] if winner is not None else None,
        replay.complete, replay.valid, len(replay.games), context.rules, context.producer,
        context.format, context.event, context.site, context.date, context.time,
        context.round, context.match_id,
    )


_FREE_TEXT = frozenset((
    "file", "player_name", "opponent_name", "doubler_name", "taker_name", "player_0",
    "player_1", "winner_name", "event", "site", "round", "match_id", "producer",
    "duplicate_of_file"))
"""The columns of text from a file, written as :func:`text_cell` in CSV."""


def _text_row(columns: tuple[str, ...], row: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(text_cell(v) if name in _FREE_TEXT and isinstance(v, str) else cell_text(v)
                 for name, v in zip(columns, row))


def csv_text(rows: Iterable[Sequence[Any]]) -> str:
    """The CSV lines (no header) of rows given as text cells (``match_rows(...,
    as_text=True)``): None as an empty cell."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def csv_header(table: str = "actions") -> str:
    """The CSV header line of ``table``."""
    return ",".join(TABLES[table]) + "\n"


def _columns(names: tuple[str, ...], rows: Iterable[tuple[Any, ...]]) -> dict[str, list[Any]]:
    table = list(rows)
    if not table:
        return {name: [] for name in names}
    return {name: list(values) for name, values in zip(names, zip(*table))}


def _table_rows(table: str, context: MatchContext, replay: MatchReplay, events: list[Event],
                as_text: bool) -> Iterator[tuple[Any, ...]]:
    """The rows of ``table`` for one match (text cells when ``as_text``)."""
    if table == "actions":
        yield from match_rows(context, replay, events, as_text)
        return
    if table == "cubes":
        rows: Iterable[tuple[Any, ...]] = cube_rows(context, replay, events)
    elif table == "games":
        rows = game_rows(context, replay, events)
    else:
        rows = (match_row(context, replay),)
    columns = TABLES[table]
    for row in rows:
        yield _text_row(columns, row) if as_text else row


def export_report(item: Input, rules: str = "auto", include_invalid: bool = False,
                  to: str = "csv", tables: tuple[str, ...] = ("actions",),
                  filters: MatchFilter | None = None) -> FileReport:
    """The ``export`` job: read one file; for a used file, one chunk per match kept by
    ``filters`` as the payload: ``{"rows": n, "matches": [chunk]}``, each chunk
    ``{"file", "match", "fingerprint", "site", "year", "rules", "rows", "tables": {table:
    (rows, data)}}`` with ``data`` the CSV text (``to`` csv) or the columns (``{name:
    [values]}``) of each of ``tables``. The parent marks duplicates (:func:`mark_duplicate`)."""
    from bgtools.data.jobs import read_usable, with_payload

    report, result = read_usable(item, rules, include_invalid)
    if result is None:
        return report
    as_text = to == "csv"
    aliases = filters.aliases if filters is not None else None
    chunks: list[dict[str, Any]] = []
    total = 0
    # Rows make many small objects and no reference cycles: the cyclic collector would only
    # rescan them, and the file's events, again and again (as in analyse_file).
    collecting = gc.isenabled()
    gc.disable()
    try:
        for number, (replay, events) in enumerate(zip(result.replays, result.events), 1):
            context = match_context(replay, events, report.display, number, aliases)
            if filters is not None and not filters.keeps(context):
                continue
            data: dict[str, tuple[int, Any]] = {}
            for table in tables:
                rows = list(_table_rows(table, context, replay, events, as_text))
                data[table] = (len(rows), csv_text(rows) if as_text
                               else _columns(TABLES[table], rows))
            count = len(events)
            total += count
            chunks.append({"file": context.file, "match": number,
                           "fingerprint": context.fingerprint, "site": context.site,
                           "year": context.year, "rules": context.rules, "rows": count,
                           "tables": data})
    finally:
        if collecting:
            gc.enable()
    return with_payload(report, {"rows": total, "matches": chunks})


def mark_duplicate(chunk: dict[str, Any], first: tuple[str, int], as_text: bool) -> None:
    """Mark every row of a match's ``chunk`` as a duplicate of the match ``first`` (file,
    match) met before it in the run: ``duplicate`` true, and in the matches table
    ``duplicate_of_file`` and ``duplicate_of_match``."""
    for table, (count, data) in chunk["tables"].items():
        columns = TABLES[table]
        marks: dict[str, Any] = {"duplicate": True}
        if table == "matches":
            marks.update(duplicate_of_file=first[0], duplicate_of_match=first[1])
        if as_text:
            rows: list[Any] = [list(row) for row in csv.reader(io.StringIO(data))]
            for name, value in marks.items():
                where = columns.index(name)
                cell = text_cell(value) if isinstance(value, str) else cell_text(value)
                for row in rows:
                    row[where] = cell
            chunk["tables"][table] = (count, csv_text(rows))
        else:
            for name, value in marks.items():
                data[name] = [value] * count


# --- the sinks ----------------------------------------------------------------------------


class CsvSink:
    """Streams one table's CSV chunks into a binary file, the header first."""

    def __init__(self, handle: BinaryIO, table: str = "actions") -> None:
        self.handle = handle
        self.table = table
        self.rows = 0
        handle.write(csv_header(table).encode("utf-8"))

    def write(self, chunk: dict[str, Any]) -> None:
        """Append one match's chunk."""
        count, text = chunk["tables"][self.table]
        self.handle.write(text.encode("utf-8"))
        self.rows += int(count)

    def close(self) -> None:
        """Finish the file (nothing to add for CSV)."""


DATASET_SCHEMA = "bgtools-dataset/1"
"""The version of the export's tables, in every Parquet file's metadata
(``bgtools.schema``)."""

PARTITIONS = ("site", "year")
"""The Hive partitions of a dataset (``site=S/year=Y/``), outermost first."""


def parquet_schema(table: str = "actions", partitioned: bool = False) -> Any:
    """The Parquet schema of ``table`` (needs pyarrow): keys not nullable, closed
    vocabularies dictionary-encoded; ``partitioned``: without the partition columns (their
    values are the folders')."""
    import pyarrow as pa

    i8, i16, i32, i64 = pa.int8(), pa.int16(), pa.int32(), pa.int64()
    text, flag, number = pa.string(), pa.bool_(), pa.float64()
    words = pa.dictionary(pa.int8(), pa.string())
    types: dict[str, Any] = {
        "file": text, "match": i32, "game": i32, "index": i32, "player": i8,
        "action": words, "dice": pa.list_(i8), "play": text,
        "steps": pa.list_(pa.list_(i8)), "position_id_before": text,
        "position_id_after": text, "match_id_before": text, "xgid": text,
        "pips": pa.list_(i16), "cube_value": i64, "cube_owner": i8,
        "score": pa.list_(i32), "crawford": flag, "winner": i8, "points": i64,
        "result": words, "ended_by": words, "line": i32, "move": i32,
        "player_name": text, "opponent_name": text, "player_rating": number,
        "opponent_rating": number, "match_length": i32, "player_away": i32,
        "opponent_away": i32, "crawford_state": words, "event": text, "site": text,
        "date": pa.date32(), "time": pa.time32("ms"), "round": text, "match_id": text,
        "fingerprint": text, "duplicate": flag,
        "doubler": i8, "offer": words, "cube_before": i64, "cube_offered": i64,
        "answer": words, "doubler_name": text, "taker_name": text, "doubler_pips": i16,
        "taker_pips": i16, "doubler_score": i32, "taker_score": i32, "doubler_away": i32,
        "taker_away": i32, "position_id": text,
        "player_0": text, "player_1": text, "score_0": i32, "score_1": i32, "away_0": i32,
        "away_1": i32, "winner_name": text, "cube": i64, "moves": i32, "actions": i32,
        "duplicate_of_file": text, "duplicate_of_match": i32, "rating_0": number,
        "rating_1": number, "final_score_0": i32, "final_score_1": i32, "complete": flag,
        "valid": flag, "games": i32, "rules": words, "producer": text, "format": words,
    }
    keys = {"file", "match", "game", "index", "fingerprint", "duplicate", "player",
            "action", "doubler", "offer", "player_0", "player_1", "player_name",
            "opponent_name", "doubler_name", "taker_name", "match_length", "rules", "format",
            "complete", "valid", "games", "moves", "actions"}
    fields = [pa.field(name, types[name], nullable=name not in keys)
              for name in TABLES[table] if not (partitioned and name in PARTITIONS)]
    return pa.schema(fields)


def _batch(table: str, columns: dict[str, list[Any]], schema: Any) -> Any:
    import pyarrow as pa

    return pa.RecordBatch.from_pydict({name: columns[name] for name in schema.names},
                                      schema=schema)


def _metadata(table: str, rules: str) -> dict[str, str]:
    from bgtools import __version__

    return {"bgtools.schema": DATASET_SCHEMA, "bgtools.version": __version__,
            "bgtools.table": table, "bgtools.rules": rules}


class ParquetSink:
    """Streams one table's column chunks into a Parquet file, one row group per
    :data:`ROW_GROUP_ROWS` rows (needs pyarrow). Each chunk becomes an Arrow record batch at
    once, so what waits for the next row group is compact Arrow memory. ``rules``: the
    ``--rules`` of the run, with the profiles met added to the metadata at the end."""

    def __init__(self, handle: BinaryIO, table: str = "actions", rules: str = "auto",
                 partitioned: bool = False) -> None:
        try:
            import pyarrow.parquet as pq
        except ImportError as exc:  # pragma: no cover - checked by open_sink
            raise ExportUnavailableError(_PARQUET_MISSING) from exc
        self.table = table
        self.schema = parquet_schema(table, partitioned).with_metadata(_metadata(table, rules))
        self.writer = pq.ParquetWriter(handle, self.schema, compression="zstd")
        self.pending: list[Any] = []
        self.pending_rows = 0
        self.rows = 0
        self.profiles: set[str] = set()

    def write(self, chunk: dict[str, Any]) -> None:
        """Append one match's columns; write a row group when enough rows are gathered."""
        count, columns = chunk["tables"][self.table]
        self.profiles.add(chunk["rules"])
        if not count:
            return
        self.pending.append(_batch(self.table, columns, self.schema))
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
        """Write what is pending, the profiles met and the file's footer."""
        self._flush()
        self.writer.add_key_value_metadata(
            {"bgtools.rule_profiles": ",".join(sorted(self.profiles))})
        self.writer.close()


_PARQUET_MISSING = ("--to parquet needs pyarrow: pip install 'bgtools[parquet]'")

FILE_ROWS = 1 << 20
"""Rows after which a dataset's file is closed and the next one begun (bounds each file)."""


MAX_PARTITION_CHARS = 120
"""The longest partition value in a folder name; a longer site is cut, with a hash of the
whole added (so two long sites stay apart)."""


def _partition_value(value: object) -> str:
    """A Hive partition folder's value: URL-quoted; ``__HIVE_DEFAULT_PARTITION__`` for
    none (read back as null by DuckDB, Arrow and Spark)."""
    from urllib.parse import quote

    if value is None or value == "":
        return "__HIVE_DEFAULT_PARTITION__"
    text = quote(str(value), safe=" ")
    if len(text) > MAX_PARTITION_CHARS:  # a folder name has at most 255 bytes
        digest = hashlib.sha256(str(value).encode()).hexdigest()[:12]
        text = text[:MAX_PARTITION_CHARS - 13].rstrip("%0123456789ABCDEF") + "~" + digest
    return text


class DatasetSink:
    """Writes every table into a Parquet dataset: ``DIR/TABLE/site=S/year=Y/part-*.parquet``
    (Hive partitions), each file at most :data:`FILE_ROWS` rows. The files are written
    under a hidden folder of ``DIR`` and moved into place by :meth:`close`, so an
    interrupted run adds nothing; new file names never replace old ones (``--append``)."""

    def __init__(self, directory: Path, rules: str = "auto",
                 file_rows: int | None = None) -> None:
        check_format("parquet")
        self.directory = directory
        self.rules = rules
        self.file_rows = FILE_ROWS if file_rows is None else file_rows
        self.staging = Path(tempfile.mkdtemp(prefix=".bgtools-export-", dir=directory))
        self.run = self.staging.name.rsplit("-", 1)[-1]
        self.open: dict[tuple[str, str], tuple[ParquetSink, BinaryIO, int]] = {}
        self.done: list[Path] = []
        self.counter = 0
        self.rows = 0
        self.table_rows = dict.fromkeys(TABLES, 0)

    def _folder(self, table: str, chunk: dict[str, Any]) -> str:
        return (f"{table}/site={_partition_value(chunk['site'])}/"
                f"year={_partition_value(chunk['year'])}")

    def write(self, chunk: dict[str, Any]) -> None:
        """Append one match's tables to their partitions' open files."""
        self.rows += int(chunk["rows"])
        for table in TABLES:
            count = int(chunk["tables"][table][0])
            self.table_rows[table] += count
            folder = self._folder(table, chunk)
            key = (table, folder)
            entry = self.open.get(key)
            if entry is None:
                self.counter += 1
                path = self.staging / folder / f"part-{self.run}-{self.counter:05d}.parquet"
                path.parent.mkdir(parents=True, exist_ok=True)
                handle: BinaryIO = path.open("wb")
                sink = ParquetSink(handle, table, self.rules, partitioned=True)
                entry = (sink, handle, 0)
            sink, handle, rows = entry
            sink.write({"tables": {table: (count, chunk["tables"][table][1])},
                        "rules": chunk["rules"]})
            rows += count
            if rows >= self.file_rows:
                self._finish(sink, handle)
                self.open.pop(key, None)
            else:
                self.open[key] = (sink, handle, rows)

    def _finish(self, sink: ParquetSink, handle: BinaryIO) -> None:
        sink.close()
        handle.close()
        self.done.append(Path(handle.name))

    def close(self) -> None:
        """Finish every file and move them into the dataset."""
        for sink, handle, _ in self.open.values():
            self._finish(sink, handle)
        self.open.clear()
        for path in self.done:
            target = self.directory / path.relative_to(self.staging)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, target)
        self.discard()

    def discard(self) -> None:
        """Remove the staging folder (and what it still holds)."""
        for _sink, handle, _rows in self.open.values():
            handle.close()
        self.open.clear()
        shutil.rmtree(self.staging, ignore_errors=True)


def dataset_inputs(directory: Path) -> tuple[set[str], dict[str, tuple[str, int]]]:
    """What a dataset already holds (for ``--append``): the input files it was made from and
    the first file and match of each fingerprint."""
    import pyarrow.dataset as ds

    folder = directory / "matches"
    files: set[str] = set()
    firsts: dict[str, tuple[str, int]] = {}
    if not folder.is_dir():
        return files, firsts
    table = ds.dataset(folder, format="parquet").to_table(
        columns=["file", "match", "fingerprint", "duplicate"])
    for file, match, print_, duplicate in zip(*(table.column(n).to_pylist() for n in
                                                 ("file", "match", "fingerprint",
                                                  "duplicate"))):
        files.add(file)
        if not duplicate:
            firsts.setdefault(print_, (file, match))
    return files, firsts


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


def open_sink(to: str, handle: BinaryIO, table: str = "actions",
              rules: str = "auto") -> CsvSink | ParquetSink:
    """The sink writing ``table`` in format ``to`` into ``handle``."""
    check_format(to)
    return CsvSink(handle, table) if to == "csv" else ParquetSink(handle, table, rules)
