"""The coloured board of ``bgtools show``: the plain board of :mod:`bgtools.reports.board`
drawn with Rich (X and O checkers coloured, the frame dimmed), and the writing of its pictures
(``--svg``, ``--html``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bgtools.reports.board import BOARD_ROWS, INFO_COLUMN, BoardInfo, board_lines, board_start

if TYPE_CHECKING:
    from rich.text import Text

    from bgtools.write.atomic import Protected

__all__ = ["rich_board", "write_picture"]

_CHECKER_STYLES = {"X": "bold cyan", "O": "bold magenta"}


def rich_board(info: BoardInfo, width: int | None = None) -> Text:
    """A Rich ``Text`` of the board of ``info``.

    Without colour (NO_COLOR, a pipe) it prints exactly as
    :func:`bgtools.reports.board.ascii_board`. When ``width`` is too narrow for the notes
    beside the board, they follow it instead (the board itself is never broken).
    """
    from rich.text import Text

    from bgtools.cli.terminal import terminal_text

    # The names beside the board come from the file: control characters escaped.
    lines = [terminal_text(line) for line in board_lines(info)]
    first = board_start(info)
    if width is not None and max(map(len, lines)) >= width:
        lines = _notes_below(lines, first)
    text = Text()
    for n, line in enumerate(lines):
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


def _notes_below(lines: list[str], first: int) -> list[str]:
    """The lines with the notes of the board's rows moved below the board: those of the top
    half on one line, the bar row's, then those of the bottom half (read from the frame up,
    so that each half's player comes first)."""
    rows = lines[first:first + BOARD_ROWS]
    notes = [row[INFO_COLUMN:].strip() for row in rows]
    middle = BOARD_ROWS // 2
    groups = [notes[:middle], notes[middle:middle + 1], notes[middle + 1:][::-1]]
    below = [" " + "; ".join(" ".join(n.split()) for n in group if n) for group in groups]
    board = [row[:INFO_COLUMN].rstrip() for row in rows]
    return [*lines[:first], *board, *[line for line in below if line.strip()],
            *lines[first + BOARD_ROWS:]]


def write_picture(text: str, output: str, *, force: bool, source: Protected) -> None:
    """Write a picture (SVG or HTML) to ``output`` (``-``: standard output), atomically and
    never onto ``source`` (see :func:`bgtools.write.atomic.check_output`); an existing file
    only with ``force``. Exit 2 with one error line when it cannot be written."""
    from bgtools.cli.errors import fail
    from bgtools.errors import BgtoolsError
    from bgtools.write.atomic import write_atomically

    if output == "-":
        sys.stdout.write(text)
        return
    target = Path(output)
    if target.is_dir():
        fail(f"{output} is a directory; name the file to write")
    try:
        write_atomically(target, text, overwrite=force, protect=source)
    except OSError as exc:
        fail(f"cannot write {output}: {exc.strerror or exc}")
    except BgtoolsError as exc:
        fail(str(exc))
    sys.stderr.write(f"bgtools: wrote {output}\n")
