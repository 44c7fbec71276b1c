"""The coloured board of ``bgtools show``: the plain board of :mod:`bgtools.reports.board`
drawn with Rich (X and O checkers coloured, the frame dimmed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgtools.reports.board import BOARD_ROWS, INFO_COLUMN, BoardInfo, board_lines, board_start

if TYPE_CHECKING:
    from rich.text import Text

__all__ = ["rich_board"]

_CHECKER_STYLES = {"X": "bold cyan", "O": "bold magenta"}


def rich_board(info: BoardInfo) -> Text:
    """A Rich ``Text`` of the board of ``info``.

    Without colour (NO_COLOR, a pipe) it prints exactly as
    :func:`bgtools.reports.board.ascii_board`.
    """
    from rich.text import Text

    text = Text()
    first = board_start(info)
    for n, line in enumerate(board_lines(info)):
        if first <= n < first + BOARD_ROWS:
            board, notes = line[:INFO_COLUMN], line[INFO_COLUMN:]
            for ch in board:
                if ch in _CHECKER_STYLES:
                    text.append(ch, style=_CHECKER_STYLES[ch])
                elif ch in "+-|":
                    text.append(ch, style="dim")
                else:
                    text.append(ch)
            # A note "X: name" or "O: name" is in its player's colour.
            player = notes[:1] if notes[1:2] == ":" else ""
            text.append(notes, style=_CHECKER_STYLES.get(player, ""))
        else:
            text.append(line, style="bold" if n < first else "")
        text.append("\n")
    return text
