"""Drawing a backgammon board as text: a plain ASCII board like GNU Backgammon's and a Rich
renderable with the same layout (readable at 80 columns and without colour).

The board is always drawn from the player to act (``X``, at the bottom, home board bottom
right, points 1-12 along the bottom and 13-24 along the top); the opponent is ``O``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bgtools.engine.position import Position

__all__ = ["BoardInfo", "board_lines", "ascii_board", "rich_board"]

_TOP = "+13-14-15-16-17-18------19-20-21-22-23-24-+"
_BOTTOM = "+12-11-10--9--8--7-------6--5--4--3--2--1-+"
_ROWS = 5
_INFO_COLUMN = 49
_WIDTH = 80


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
    cube_owner: str | None = None
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


def _bar_cell(count: int, row: int, mark: str) -> str:
    return _cell(count, row, mark)


def _score_text(score: int | None, length: int | None) -> str:
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
        grid.append(" |" + _half(pos, top_left, row) + "|" + _bar_cell(o_bar, row, "O") + "|"
                    + _half(pos, top_right, row) + "|")
    grid.append("v|                  |BAR|                  |")
    for row in reversed(range(_ROWS)):
        grid.append(" |" + _half(pos, bottom_left, row) + "|" + _bar_cell(x_bar, row, "X") + "|"
                    + _half(pos, bottom_right, row) + "|")
    grid.append(" " + _BOTTOM)

    x_pips, o_pips = pos.pips
    width = _WIDTH - _INFO_COLUMN
    notes = [""] * len(grid)
    notes[0] = f"O: {info.o_name}"
    notes[1] = _score_text(info.o_score, info.match_length)
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
    notes[12] = f"X: {info.x_name}  " + _score_text(info.x_score, info.match_length)
    lines: list[str] = []
    if info.position_id:
        lines.append(f" Position ID: {info.position_id}")
    if info.match_id:
        lines.append(f" Match ID   : {info.match_id}")
    for text, note in zip(grid, notes):
        note = _fit(note, width).rstrip()
        lines.append((text.ljust(_INFO_COLUMN) + note).rstrip() if note else text)
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


def rich_board(info: BoardInfo) -> Any:
    """A Rich ``Text`` of the same board: X and O checkers coloured, frame dimmed.

    Without colour (NO_COLOR, a pipe) it prints exactly as :func:`ascii_board`.
    """
    from rich.text import Text

    text = Text()
    lines = board_lines(info)
    board_start = 2 if info.match_id else (1 if info.position_id else 0)
    board_end = board_start + 13
    for n, line in enumerate(lines):
        if board_start <= n < board_end:
            board, notes = line[:_INFO_COLUMN], line[_INFO_COLUMN:]
            for ch in board:
                if ch == "X":
                    text.append(ch, style="bold cyan")
                elif ch == "O":
                    text.append(ch, style="bold magenta")
                elif ch in "+-|":
                    text.append(ch, style="dim")
                else:
                    text.append(ch)
            style = ""
            if notes.startswith("X:"):
                style = "bold cyan"
            elif notes.startswith("O:"):
                style = "bold magenta"
            text.append(notes, style=style)
        else:
            text.append(line, style="bold" if n < board_start else "")
        text.append("\n")
    return text
