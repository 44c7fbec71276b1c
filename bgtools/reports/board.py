"""The board of a moment of a match or of a bare ID: the :class:`BoardInfo` that
:mod:`bgtools.engine.diagram` draws (ASCII like GNU Backgammon's, SVG), whose names are
re-exported here. The CLI's coloured board (:mod:`bgtools.cli.board`) draws the same lines.

In a match each player keeps his letter and side for the whole match, as in GNU Backgammon:
the first player of the record (player 0, the left column of a ``.mat``) is ``O`` at the top,
the second ``X`` at the bottom; the point numbers are those of the player to act. A bare ID
has no players: it is drawn from the side on roll (``X``).
"""

from __future__ import annotations

from bgtools.engine.diagram import (
    BOARD_ROWS,
    INFO_COLUMN,
    BoardInfo,
    CubeSide,
    Letter,
    ascii_diagram,
    board_lines,
    board_start,
    svg_diagram,
)

__all__ = [
    "BOARD_ROWS",
    "INFO_COLUMN",
    "BoardInfo",
    "CubeSide",
    "Letter",
    "ascii_board",
    "ascii_diagram",
    "board_lines",
    "board_start",
    "id_board",
    "letter_of",
    "svg_diagram",
]

ascii_board = ascii_diagram
"""The old name of :func:`bgtools.engine.diagram.ascii_diagram`."""


def letter_of(player: int) -> Letter:
    """The letter of player ``player`` (0 or 1) of a match: player 0 is ``O``, 1 is ``X``."""
    return "x" if player == 1 else "o"


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
        # Drawn from the side on roll: X is whoever is on roll.
        cube_owner=None if state.cube_owner is None else ("x" if state.cube_owner == x else "o"),
        dice=state.dice, status="Doubles" if state.doubled else
        ("Crawford game" if state.crawford else ""),
        position_id=pos.position_id, match_id=match_id, xgid=xgid,
        on_roll=not state.doubled,
    )
