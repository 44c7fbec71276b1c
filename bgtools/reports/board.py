"""The board of a moment as plain text: what is written around it (:class:`BoardInfo`, built
from a moment of a match or from a bare ID) and the ASCII board like GNU Backgammon's
(readable at 80 columns). The CLI's coloured board (:mod:`bgtools.cli.board`) draws the same
lines.

The board is always drawn from the player to act (``X``, at the bottom, home board bottom
right, points 1-12 along the bottom and 13-24 along the top); the opponent is ``O``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from bgtools.engine.position import Position
from bgtools.engine.results import result_name

if TYPE_CHECKING:
    from bgtools.reports.moments import MatchAnswers, Moment

__all__ = [
    "BOARD_ROWS",
    "INFO_COLUMN",
    "BoardInfo",
    "CubeSide",
    "ascii_board",
    "board_lines",
    "board_start",
    "id_board",
    "moment_board",
]

_TOP = "+13-14-15-16-17-18------19-20-21-22-23-24-+"
_BOTTOM = "+12-11-10--9--8--7-------6--5--4--3--2--1-+"
_ROWS = 5
_WIDTH = 80

INFO_COLUMN = 49
"""The column of :func:`board_lines` where the notes beside the board start."""
BOARD_ROWS = 2 * _ROWS + 3
"""The lines of the board itself in :func:`board_lines`: frame, points, bar row, frame."""

CubeSide = Literal["x", "o"]
"""Who owns the cube on a board: ``x`` the player to act, ``o`` the other."""


@dataclass(frozen=True, slots=True)
class BoardInfo:
    """What is written around the board; ``x_*`` is the player to act, ``o_*`` the other.

    ``cube_owner`` is ``"x"``, ``"o"`` or None (centred); ``dice`` the roll of the player
    to act, if rolled; ``status`` a short note (``Crawford game``, ``Doubles``...).
    """

    position: Position
    x_name: str = "X"
    o_name: str = "O"
    x_score: int | None = None
    o_score: int | None = None
    match_length: int | None = None
    cube_value: int = 1
    cube_owner: CubeSide | None = None
    dice: tuple[int, int] | None = None
    status: str = ""
    position_id: str = ""
    match_id: str = ""
    xgid: str = ""
    on_roll: bool = True


def _cell(count: int, row: int, mark: str) -> str:
    """The 3-character cell of a point with ``count`` checkers at ``row`` (0 = edge)."""
    if count <= row:
        return "   "
    if row == _ROWS - 1 and count > _ROWS:
        return f"{count:>2} "
    return f" {mark} "


def _point(pos: Position, point: int) -> tuple[int, str]:
    """(count, mark) on point ``point`` of the player to act."""
    if pos.mover[point]:
        return pos.mover[point], "X"
    theirs = pos.opponent[25 - point]
    return (theirs, "O") if theirs else (0, " ")


def _half(pos: Position, points: list[int], row: int) -> str:
    out = []
    for point in points:
        count, mark = _point(pos, point)
        out.append(_cell(count, row, mark))
    return "".join(out)


def _score_text(score: int | None) -> str:
    if score is None:
        return ""
    return f"{score} point" + ("" if score == 1 else "s")


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "~"


def board_lines(info: BoardInfo) -> list[str]:
    """The board and its side notes as plain lines (at most 80 characters each)."""
    pos = info.position
    top_left, top_right = list(range(13, 19)), list(range(19, 25))
    bottom_left, bottom_right = list(range(12, 6, -1)), list(range(6, 0, -1))
    o_bar, x_bar = pos.opponent[25], pos.mover[25]
    grid: list[str] = [" " + _TOP]
    for row in range(_ROWS):
        grid.append(" |" + _half(pos, top_left, row) + "|" + _cell(o_bar, row, "O") + "|"
                    + _half(pos, top_right, row) + "|")
    grid.append("v|                  |BAR|                  |")
    for row in reversed(range(_ROWS)):
        grid.append(" |" + _half(pos, bottom_left, row) + "|" + _cell(x_bar, row, "X") + "|"
                    + _half(pos, bottom_right, row) + "|")
    grid.append(" " + _BOTTOM)

    x_pips, o_pips = pos.pips
    width = _WIDTH - INFO_COLUMN
    notes = [""] * len(grid)
    notes[0] = f"O: {info.o_name}"
    notes[1] = _score_text(info.o_score)
    notes[2] = f"pips {o_pips}, off {pos.opponent[0]}"
    if info.cube_owner == "o":
        notes[3] = f"Cube: {info.cube_value}"
    middle = []
    if info.match_length:
        middle.append(f"{info.match_length} point match")
    elif info.match_length == 0:
        middle.append("money session")
    if info.cube_owner is None:
        middle.append(f"(Cube: {info.cube_value})")
    notes[6] = " ".join(middle)
    if info.cube_owner == "x":
        notes[9] = f"Cube: {info.cube_value}"
    if info.on_roll:
        notes[10] = f"Rolled {info.dice[0]}{info.dice[1]}" if info.dice else "On roll"
    for k, part in enumerate(info.status.split("; ")[:3] if info.status else []):
        notes[7 + k] = part
    notes[11] = f"pips {x_pips}, off {pos.mover[0]}"
    notes[12] = f"X: {info.x_name}  " + _score_text(info.x_score)
    lines: list[str] = []
    if info.position_id:
        lines.append(f" Position ID: {info.position_id}")
    if info.match_id:
        lines.append(f" Match ID   : {info.match_id}")
    for text, note in zip(grid, notes):
        note = _fit(note, width).rstrip()
        lines.append((text.ljust(INFO_COLUMN) + note).rstrip() if note else text)
    lines.append(f" Pip count  X: {x_pips}  O: {o_pips}  "
                 f"({_lead(x_pips, o_pips)})")
    if info.xgid:
        lines.append(" " + info.xgid)
    return lines


def _lead(x: int, o: int) -> str:
    if x == o:
        return "even"
    return f"X leads by {o - x}" if x < o else f"O leads by {x - o}"


def ascii_board(info: BoardInfo) -> str:
    """A plain text board in the manner of GNU Backgammon's ``show board``."""
    return "\n".join(board_lines(info)) + "\n"


def board_start(info: BoardInfo) -> int:
    """The index in :func:`board_lines` of the board's first line (after the ID lines)."""
    return 2 if info.match_id else (1 if info.position_id else 0)


def _cube_side(owner: int | None, x: int) -> CubeSide | None:
    return None if owner is None else ("x" if owner == x else "o")


def moment_board(match: MatchAnswers, moment: Moment) -> BoardInfo:
    """The board of ``moment`` of ``match``: names, score, cube, dice, IDs and a status note
    (Crawford, a double and its answer, a resignation, the end of the game)."""
    from bgtools.reports.moments import crawford_status, moment_ids

    replay = match.replay
    names = replay.names if replay.names else ("player 0", "player 1")
    state = moment.state
    x = state.on_roll
    o = 1 - x
    summary = replay.games[moment.game - 1]
    position_id, match_id, xgid = moment_ids(moment)
    notes = []
    craw = crawford_status(replay.match_length, summary.crawford, summary.post_crawford)
    if craw in ("crawford", "post-crawford"):
        notes.append("Crawford game" if craw == "crawford" else "post-Crawford game")
    if moment.final:
        notes.append(f"game over ({moment.over})" if moment.over else "record ends")
    elif moment.action == "double":
        notes.append("Doubles")
    elif moment.action in ("take", "drop", "beaver"):
        notes.append(f"Doubled; {names[o]} {moment.action}s")
    elif moment.action in ("resign", "accept") and moment.player is not None:
        resigner = moment.player if moment.action == "resign" else 1 - moment.player
        level = result_name(state.resignation)
        offered = f" a {level}" if level in ("gammon", "backgammon") else ""
        notes.append(f"{names[resigner]} resigns{offered}"
                     + (f"; {names[1 - resigner]} accepts" if moment.action == "accept" else ""))
    return BoardInfo(
        position=moment.position,
        x_name=names[x], o_name=names[o],
        x_score=state.score[x], o_score=state.score[o],
        match_length=replay.match_length,
        cube_value=state.cube_value,
        cube_owner=_cube_side(state.cube_owner, x),
        dice=moment.dice if moment.action == "move" else None,
        status="; ".join(notes),
        position_id=position_id, match_id=match_id, xgid=xgid,
        on_roll=not moment.final and moment.action == "move",
    )


def id_board(text: str) -> BoardInfo | None:
    """The board of a bare Position ID, GNUbg ID or XGID; None if ``text`` is none of them."""
    from bgtools.engine import ids
    from bgtools.engine.position import PositionError, parse_id

    try:
        parsed = parse_id(text)
    except PositionError:
        return None
    pos = parsed.position
    state = parsed.state
    if state is None:
        return BoardInfo(position=pos, position_id=pos.position_id, on_roll=False)
    x = state.on_roll
    sides = (pos.mover[1:], pos.opponent[1:]) if x == 0 else (pos.opponent[1:], pos.mover[1:])
    try:
        xgid = ids.encode_xgid(sides, state)
        match_id = ids.encode_match_id(state)
    except ids.IdError:
        xgid = match_id = ""
    return BoardInfo(
        position=pos, x_name=f"player {x}", o_name=f"player {1 - x}",
        x_score=state.score[x], o_score=state.score[1 - x], match_length=state.match_length,
        cube_value=state.cube_value,
        cube_owner=_cube_side(state.cube_owner, x),
        dice=state.dice, status="Doubles" if state.doubled else
        ("Crawford game" if state.crawford else ""),
        position_id=pos.position_id, match_id=match_id, xgid=xgid,
        on_roll=not state.doubled,
    )
