"""The board of a moment of a match or of a bare ID: the :class:`BoardInfo` that
:mod:`bgtools.engine.diagram` draws (ASCII like GNU Backgammon's, SVG), whose names are
re-exported here. The CLI's coloured board (:mod:`bgtools.cli.board`) draws the same lines.

In a match each player keeps his letter and side for the whole match, as in GNU Backgammon:
the first player of the record (player 0, the left column of a ``.mat``) is ``O`` at the top,
the second ``X`` at the bottom; the point numbers are those of the player to act. A bare ID
has no players: it is drawn from the side on roll (``X``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from bgtools.engine.results import result_name
from bgtools.record import shown_names

if TYPE_CHECKING:
    from bgtools.reports.moments import MatchAnswers, Moment

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
    "moment_board",
    "svg_diagram",
]

ascii_board = ascii_diagram
"""The old name of :func:`bgtools.engine.diagram.ascii_diagram`."""


def letter_of(player: int) -> Letter:
    """The letter of player ``player`` (0 or 1) of a match: player 0 is ``O``, 1 is ``X``."""
    return "x" if player == 1 else "o"


def _cube_side(owner: int | None) -> CubeSide | None:
    return None if owner is None else letter_of(owner)


def moment_board(match: MatchAnswers, moment: Moment) -> BoardInfo:
    """The board of ``moment`` of ``match``: names, score, cube, dice, IDs and a status note
    (Crawford, a double and its answer, a resignation, the end of the game)."""
    from bgtools.reports.moments import crawford_status, moment_ids, pending_double

    replay = match.replay
    names = shown_names(replay.names)
    state = moment.state
    x, o = 1, 0
    summary = replay.games[moment.game - 1]
    position_id, match_id, xgid = moment_ids(moment)
    notes = []
    craw = crawford_status(replay.match_length, summary.crawford, summary.post_crawford)
    if craw in ("crawford", "post-crawford"):
        notes.append("Crawford game" if craw == "crawford" else "post-Crawford game")
    pending = pending_double(match, moment)
    # Who acts when it is not to roll or play, and what he does (the words of every view).
    actor: int | None = None
    action = ""
    if moment.final:
        notes.append(f"game over ({moment.over})" if moment.over else "record ends")
        if pending is not None:
            actor, action = pending["answer"], f"{names[pending['answer']]} to answer"
    elif moment.action != "move" and moment.player is not None:
        actor, action = moment.player, f"{names[moment.player]} {moment.words}"
        if moment.action in ("resign", "accept"):
            level = result_name(state.resignation)
            if level in ("gammon", "backgammon"):
                action += f" a {level}"
    offered = pending["by"] if pending is not None and pending["cube"] is not None else None
    position, to_act = moment.position, state.on_roll
    if moment.final and moment.dice is None:  # with dice: the roller is still to play them
        before = match.moments.get(moment.game, [])[-2:-1]
        if before and before[0].player == to_act:
            # The game is over: the turn has passed to the other player, as GNU Backgammon
            # numbers the points after the last action (a bear-off by the winner).
            position, to_act = position.swapped(), 1 - to_act
    return BoardInfo(
        position=position,
        x_name=names[x], o_name=names[o],
        x_score=state.score[x], o_score=state.score[o],
        match_length=replay.match_length,
        cube_value=state.cube_value,
        cube_owner=_cube_side(state.cube_owner),
        # A final moment has dice only for dice still to play (a position file's, a roll
        # the record stops after).
        dice=moment.dice_to_play,
        status="; ".join(notes),
        position_id=position_id, match_id=match_id, xgid=xgid,
        on_roll=moment.action == "move" if not moment.final else moment.dice is not None,
        turn=letter_of(to_act),
        to_act=letter_of(actor) if actor is not None else None,
        action=action,
        cube_offered=letter_of(offered) if offered is not None else None,
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
        # Drawn from the side on roll: X is whoever is on roll.
        cube_owner=None if state.cube_owner is None else ("x" if state.cube_owner == x else "o"),
        dice=state.dice, status="Doubles" if state.doubled else
        ("Crawford game" if state.crawford else ""),
        position_id=pos.position_id, match_id=match_id, xgid=xgid,
        on_roll=not state.doubled,
    )
