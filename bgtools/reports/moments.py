"""Answers about a replayed match: scores, the moments of a game, pips and status.

Pure data (no terminal code): the CLI commands ``score``, ``pips``, ``status`` and ``show``
print what this module computes. A *moment* is the state of the match just before one
action of a game (``move`` 1-based, as the contract's ``--move M``) or just after the last
action of the game (the move after the last one). A moment can also be named by the file's
own numbering (:class:`RowRef`, ``--move 12b``): the row ``12)`` of a ``.mat`` file, left
column ``a`` or right column ``b``; for records without rows (SGF, ``.xg``, ``.bgf``) the
rows GNU Backgammon's ``.mat`` export gives the same game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal, NamedTuple, cast

from bgtools.engine import ids
from bgtools.engine.position import Play, Position
from bgtools.engine.results import result_level, result_name
from bgtools.errors import BgtoolsError
from bgtools.record import SCHEMA, GameRecord, MatchRecord, shown_names
from bgtools.replay import Event, GameSummary, MatchReplay, replay_match
from bgtools.reports.files import action_words, collector_paused, play_label

if TYPE_CHECKING:
    from bgtools.engine.diagram import HomeSide
    from bgtools.readers.detect import InputSource
    from bgtools.reports.board import BoardInfo
    from bgtools.reports.files import FileResult
    from bgtools.reports.objects import (
        CubeObject,
        ErrorObject,
        GameResultObject,
        MomentExtra,
        PendingObject,
        PipsObject,
        ScoreGameObject,
        ScoreObject,
        StatusDetails,
        StatusObject,
    )

__all__ = [
    "CrawfordStatus",
    "Moment",
    "MatchAnswers",
    "MoveRef",
    "RangeError",
    "RowRef",
    "parse_move",
    "pick_match",
    "analyse_answers",
    "Cube",
    "game_moments",
    "crawford_status",
    "score_json",
    "pips_json",
    "status_json",
    "status_details",
    "pending_double",
    "moment_ids",
    "moment_extra",
    "error_json",
    "explain_id",
    "looks_like_id",
    "PositionAnswers",
    "position_answers",
]

CrawfordStatus = Literal["money", "crawford", "post-crawford", "pre-crawford"]
"""Where a game stands with the Crawford rule (``money``: no match, no Crawford rule)."""


class RangeError(BgtoolsError, ValueError):
    """A ``--game`` or ``--move`` outside the valid range (a usage error; also a
    ``ValueError``)."""


ROW_COLUMNS = "ab"
"""The letters of a row's columns: ``a`` the left one (the first player of the score line,
player 0), ``b`` the right one (player 1)."""


@dataclass(frozen=True, slots=True)
class RowRef:
    """A moment named by the file's own numbering: before the action in row ``row``
    (``12)`` in a ``.mat`` file), column ``a`` (left: player 0) or ``b`` (right: player 1)."""

    row: int
    column: Literal["a", "b"]

    def __str__(self) -> str:
        return f"{self.row}{self.column}"


MoveRef = int | RowRef
"""What ``--move`` names: the n-th action of the game (1-based) or a row of the file."""

_MOVE_RE = re.compile(r"\s*(\d+)\s*([abAB]?)\s*")


def parse_move(text: str | int) -> MoveRef:
    """``--move`` as written: ``12`` is the 12th action of the game (counted from 1),
    ``12a``/``12b`` the file's row ``12)``, left or right column. ValueError otherwise
    (also for 0: both count from 1)."""
    if isinstance(text, int):
        number, column = text, ""
    else:
        found = _MOVE_RE.fullmatch(text)
        if found is None:
            raise ValueError(f"--move {text!r} is neither a move number (such as 12) nor a "
                             "row of the file (such as 12a or 12b)")
        number, column = int(found[1]), found[2].lower()
    if number < 1:
        what = "rows" if column else "moves"
        raise ValueError(f"--move {text} is out of range: {what} are numbered from 1")
    if column == "a":
        return RowRef(number, "a")
    if column == "b":
        return RowRef(number, "b")
    return number


class Cube(NamedTuple):
    """The cube at a moment: its ``value`` and its ``owner`` (0, 1, or None when centred),
    as the ``cube`` object of ``status --json``."""

    value: int
    """The cube's value (1, 2, 4 ...)."""
    owner: int | None
    """The player who owns the cube (0 or 1), or None when it is centred."""


@dataclass(frozen=True, slots=True, repr=False)
class Moment:
    """The match at one moment of a game: before an action, or after the game's last one.

    ``position`` is seen from ``state.on_roll`` (the player to act; for a cube answer, the
    doubler, as the contract's Position ID). ``final`` is true for the moment after the
    last action of a game; then ``over`` is the way the game ended (``bearoff``, ``drop``,
    ``resign``) or None for an unfinished game. ``str(moment)`` is the board as ``bgtools
    show --ascii`` draws it. The commands ``pips``, ``status`` and ``show`` answer from
    these objects, and the library gives the same ones (:meth:`bgtools.ReplayedGame.moments`).
    """

    game: int
    """The game's number, from 1."""
    move: int
    """The moment's number in its game, from 1 (``status --move``)."""
    position: Position
    """The board, seen from the player to act."""
    state: ids.MatchState
    """The match state (score, cube, turn, dice ...) as a Match ID holds it."""
    action: str | None = None
    """The action that follows this moment (None after the last one)."""
    dice: tuple[int, int] | None = None
    """The roll of the move that follows, once rolled (None before a cube action)."""
    play: str | None = None
    """The canonical play of the move that follows."""
    player: int | None = None
    """Who takes that action."""
    line: int | None = None
    """The line of the file that writes that action (None in binary formats)."""
    final: bool = False
    """True for the moment after the game's last action."""
    over: str | None = None
    """How the game ended (``bearoff``, ``drop``, ``resign``) at its final moment."""
    row: str | None = None
    """The action's place in the file's numbering (``12b``: row 12, right column), None
    for the moment after the last action and for a cell without a row number."""
    label: str = ""
    """How a table shows the play of a ``move`` (see
    :func:`bgtools.reports.files.play_label`); ``""`` for other actions."""
    match: MatchAnswers = field(kw_only=True, compare=False)
    """The replayed match the moment belongs to."""

    @property
    def dice_to_play(self) -> tuple[int, int] | None:
        """The dice rolled and still to play at this moment: before a ``move``, its roll;
        after the last action, the dice of a record that stops after a roll (a position
        file's, a roll not played); else None."""
        return self.dice if self.action == "move" or self.final else None

    @property
    def words(self) -> str:
        """The action in words, as every view words it (:func:`action_words`)."""
        return action_words(self.action, self.label, self.state.cube_value)

    @property
    def pips(self) -> tuple[int, int]:
        """Pip counts ``(player 0, player 1)``."""
        mover, opponent = self.position.pips
        return (mover, opponent) if self.state.on_roll == 0 else (opponent, mover)

    @property
    def on_roll(self) -> int | None:
        """The player to act, or None once the game is over."""
        return None if self.over is not None else self.state.on_roll

    def sides(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(player 0's side, player 1's side) in gnubg's 25-slot layout."""
        mover, opponent = self.position.mover[1:], self.position.opponent[1:]
        return (mover, opponent) if self.state.on_roll == 0 else (opponent, mover)

    @property
    def match_length(self) -> int:
        """The match length (0: money)."""
        return self.match.summary.match_length

    @property
    def score(self) -> tuple[int, int]:
        """The match score ``(player 0, player 1)`` at this moment."""
        return self.state.score

    @property
    def cube(self) -> Cube:
        """The cube's value and owner."""
        return Cube(self.state.cube_value, self.state.cube_owner)

    @property
    def crawford(self) -> CrawfordStatus:
        """``pre-crawford``, ``crawford``, ``post-crawford`` or ``money``."""
        summary = self.match.summary
        game = summary.games[self.game - 1]
        return crawford_status(summary.match_length, game.crawford, game.post_crawford)

    @property
    def position_id(self) -> str:
        """GNU Backgammon's Position ID, encoded for the player to act."""
        return self.position.position_id

    @property
    def match_id(self) -> str:
        """GNU Backgammon's Match ID (``""`` for a state no Match ID can hold)."""
        return moment_ids(self)[1]

    @property
    def xgid(self) -> str:
        """eXtreme Gammon's XGID (``""`` for a state it cannot hold)."""
        return moment_ids(self)[2]

    def status(self) -> dict[str, object]:
        """The facts of ``status --json`` at this moment, under its names (without
        ``schema`` and ``file``)."""
        # (cast: the contract's object, with two of its keys then dropped)
        obj = cast("dict[str, object]", status_json("", self.match.summary, self))
        obj.update(status_details(self.match, self))
        for key in ("schema", "file"):
            obj.pop(key)
        return obj

    def board(self) -> BoardInfo:
        """What is drawn around the board: names, score, cube, dice, IDs and a status note
        (Crawford, a double and its answer, a resignation, the end of the game)."""
        # (the drawing modules are imported by what draws, not by every command)
        from bgtools.reports.board import BoardInfo, letter_of

        match = self.match
        summary = match.summary
        names = shown_names(summary.names)
        state = self.state
        x, o = 1, 0
        position_id, match_id, xgid = moment_ids(self)
        notes = []
        craw = self.crawford
        if craw in ("crawford", "post-crawford"):
            notes.append("Crawford game" if craw == "crawford" else "post-Crawford game")
        pending = pending_double(match, self)
        # Who acts when it is not to roll or play, and what he does (the words of every
        # view).
        actor: int | None = None
        action = ""
        if self.final:
            notes.append(f"game over ({self.over})" if self.over else "record ends")
            if pending is not None:
                actor, action = pending["answer"], f"{names[pending['answer']]} to answer"
        elif self.action != "move" and self.player is not None:
            actor, action = self.player, f"{names[self.player]} {self.words}"
            if self.action in ("resign", "accept"):
                level = result_name(state.resignation)
                if level in ("gammon", "backgammon"):
                    action += f" a {level}"
        offered = pending["by"] if pending is not None and pending["cube"] is not None else None
        position, to_act = self.position, state.on_roll
        if self.final and self.dice is None:  # with dice: the roller is still to play them
            before = match.game_moments(self.game)[-2:-1]
            if before and before[0].player == to_act:
                # The game is over: the turn has passed to the other player, as GNU
                # Backgammon numbers the points after the last action (a bear-off by the
                # winner).
                position, to_act = position.swapped(), 1 - to_act
        return BoardInfo(
            position=position,
            x_name=names[x], o_name=names[o],
            x_score=state.score[x], o_score=state.score[o],
            match_length=summary.match_length,
            cube_value=state.cube_value,
            cube_owner=None if state.cube_owner is None else letter_of(state.cube_owner),
            # A final moment has dice only for dice still to play (a position file's, a
            # roll the record stops after).
            dice=self.dice_to_play,
            status="; ".join(notes),
            position_id=position_id, match_id=match_id, xgid=xgid,
            on_roll=self.action == "move" if not self.final else self.dice is not None,
            turn=letter_of(to_act),
            to_act=letter_of(actor) if actor is not None else None,
            action=action,
            cube_offered=letter_of(offered) if offered is not None else None,
        )

    def svg(self, *, size: int = 400, last_play: bool = False,
            home: HomeSide = "right") -> str:
        """The board as a standalone SVG picture ``size`` pixels wide, with the cube, the
        dice and the players' names and scores (as ``bgtools show --svg`` draws it).

        With ``last_play=True`` the play just made (when the action before this moment is
        a move) is drawn as arrows (``bgtools show --svg`` draws none); ``home`` is the
        side of the bottom player's home board: ``right`` (GNU Backgammon's orientation)
        or ``left`` (mirrored)."""
        from bgtools.engine.diagram import svg_diagram
        from bgtools.reports.board import letter_of

        info = replace(self.board(), home=home)
        previous = self.previous_play() if last_play else None
        if previous is not None:
            player, play = previous
            info = replace(info, last_play=play.steps, last_player=letter_of(player))
        return svg_diagram(info, size=size)

    def previous_play(self) -> tuple[int, Play] | None:
        """``(player, play)`` of the move just before this moment, or None when the action
        before it is not a move with a play (or there is none)."""
        if self.move < 2:
            return None
        event = self.match.game_events(self.game)[self.move - 2]
        if event.action != "move" or event.play is None:
            return None
        return event.player, event.play

    def _repr_svg_(self) -> str:
        """The SVG board, for Jupyter (the IPython display protocol)."""
        return self.svg()

    def __str__(self) -> str:
        from bgtools.engine.diagram import ascii_diagram

        return ascii_diagram(self.board()).rstrip("\n")

    def __repr__(self) -> str:
        return (f"<Moment game {self.game} move {self.move}: {self.position_id}:"
                f"{self.match_id}>")


class MatchAnswers:
    """One replayed match and the moments of its games: what ``pips``, ``status`` and
    ``show`` answer from. The library's :class:`bgtools.Replay` is one, with the verdict,
    the games and the HTML page added.

    ``events``: the replayer's events of every action, when the replay recorded them;
    else they are recorded on first use, by replaying the record once more with a
    listener (the replay is deterministic, and a listener changes none of its results: a
    test checks it). The moments are built from them on first use.
    """

    def __init__(self, summary: MatchReplay, events: list[Event] | None = None) -> None:
        self.summary = summary
        """The replayer's own result (:class:`~bgtools.replay.MatchReplay`): its games,
        problems and final score."""
        self._events = events
        self._events_by_game: dict[int, list[Event]] | None = None
        self._moments_by_game: dict[int, list[Moment]] = {}
        self._moments: dict[int, list[Moment]] | None = None

    @property
    def record(self) -> MatchRecord:
        """The match record replayed."""
        return self.summary.record

    @property
    def events(self) -> list[Event]:
        """Every replayed action as the replayer gives it, in order."""
        if self._events is None:
            events: list[Event] = []
            with collector_paused():
                replay_match(self.summary.record, self.summary.profile,
                             on_event=events.append)
            self._events = events
        return self._events

    def game_events(self, number: int) -> list[Event]:
        """The replayer's events of game ``number`` (1-based), in order."""
        if self._events_by_game is None:
            by_game: dict[int, list[Event]] = {}
            for event in self.events:
                by_game.setdefault(event.game, []).append(event)
            self._events_by_game = by_game
        return self._events_by_game.get(number, [])

    @property
    def moments(self) -> dict[int, list[Moment]]:
        """The moments of each game, by its number: before each action, then after the
        last one."""
        if self._moments is None:
            self._moments = {number: self._moments_of(number) for number in self.game_numbers}
        return self._moments

    def _moments_of(self, number: int) -> list[Moment]:
        """The moments of game ``number`` (a game of the replay), built on first use."""
        made = self._moments_by_game.get(number)
        if made is None:
            made = game_moments(self, self.summary.games[number - 1], self.game_events(number))
            self._moments_by_game[number] = made
        return made

    @property
    def game_numbers(self) -> list[int]:
        """The numbers of the games replayed (1-based)."""
        return [g.number for g in self.summary.games]

    def game_moments(self, game: int | None = None) -> list[Moment]:
        """The moments of ``game`` (default: the last game); RangeError outside 1..N."""
        count = len(self.summary.games)
        if count == 0:
            raise RangeError("the file holds no game")
        number = count if game is None else game
        if not 1 <= number <= count:
            raise RangeError(f"--game {game} is out of range: the file has games 1..{count}")
        return self._moments_of(number)

    def moment(self, game: int | None = None, move: MoveRef | str | None = None) -> Moment:
        """The moment before action ``move`` of ``game`` (default: after its last action).

        ``move`` is the action's number in the game (1-based), or a row of the file
        (:class:`RowRef`, or its text such as ``"12b"``: see :func:`parse_move`).
        """
        moments = self.game_moments(game)
        number = len(self.summary.games) if game is None else game
        if not moments:
            raise RangeError(f"game {number} has no moment to show")
        if move is None:
            return moments[-1]
        if isinstance(move, str):
            try:
                move = parse_move(move)
            except ValueError as exc:
                raise RangeError(str(exc)) from None
        if isinstance(move, RowRef):
            return _moment_at_row(moments, number, move)
        if not 1 <= move <= len(moments):
            raise RangeError(
                f"--move {move} is out of range: game {number} has moves 1..{len(moments)} "
                f"({len(moments) - 1} action(s); {len(moments)} is after the last one)"
            )
        return moments[move - 1]

    def __eq__(self, other: object) -> bool:
        """The same replay: equal summaries (record, rules, games, problems) and events."""
        if other.__class__ is not self.__class__ or not isinstance(other, MatchAnswers):
            return NotImplemented
        return (self.summary, self.events) == (other.summary, other.events)

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dataclass with eq

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.summary.profile.name}: "
                f"{len(self.summary.games)} games>")


def pick_match(answers: list[MatchAnswers], number: int | None) -> MatchAnswers:
    """Match ``number`` (1-based, as ``score --json``'s ``match``) of a file's matches, the
    last one when None; RangeError naming how many the file holds when there is no such
    match (``answers`` is not empty)."""
    if number is None:
        return answers[-1]
    if not 1 <= number <= len(answers):
        held = f"{len(answers)} matches" if len(answers) != 1 else "one match"
        raise RangeError(f"--match {number} is out of range: the file holds {held}")
    return answers[number - 1]


def _moment_at_row(moments: list[Moment], game: int, ref: RowRef) -> Moment:
    """The first moment of row ``ref``; RangeError when the game has no such row or when
    the file writes it on two lines (a damaged numbering: name the move by number)."""
    label = str(ref)
    found = [m for m in moments if m.row == label]
    if not found:
        rows = [m.row for m in moments if m.row is not None]
        have = f"rows {rows[0]}..{rows[-1]}" if rows else "no numbered rows"
        raise RangeError(f"--move {label} is out of range: game {game} has {have}")
    lines = sorted({m.line for m in found if m.line is not None})
    if len(lines) > 1:
        raise RangeError(f"--move {label} is ambiguous: game {game} numbers lines "
                         f"{lines[0]} and {lines[1]} as row {ref.row}; name the move by "
                         f"its number (--move {found[0].move} or --move {found[-1].move})")
    return found[0]


def row_labels(events: list[Event]) -> list[str | None]:
    """The row of each event of one game, as ``12b`` (row 12, right column).

    A ``.mat`` record has its own numbering (``12)``): each cell keeps its row, and its
    column is its player's (a cell on a line without a number has none). Other records are
    numbered as GNU Backgammon's ``.mat`` export numbers the same game: one cell per move
    record, left then right, the game's first roll in the right column when player 1
    rolls it. A resignation and its acceptance have no row (gnubg writes them as a
    ``Wins`` line, numbered or not depending on the column), nor has the take that follows
    a beaver (gnubg does not write it).
    """
    if any(e.source is not None and "row" in e.source.extra for e in events):
        out: list[str | None] = []
        for event in events:
            row = event.source.extra.get("row") if event.source is not None else None
            out.append(f"{row}{ROW_COLUMNS[event.source.player]}"
                       if isinstance(row, int) and event.source is not None else None)
        return out
    labels: list[str | None] = []
    cell = 0
    previous: str | None = None
    for event in events:
        kind = event.action
        if kind in ("resign", "accept") or (kind == "take" and previous == "beaver"):
            labels.append(None)
        else:
            if cell == 0 and kind == "move" and event.player == 1:
                cell = 1
            labels.append(f"{cell // 2 + 1}{ROW_COLUMNS[cell % 2]}")
            cell += 1
        previous = kind
    return labels


def crawford_status(length: int, crawford: bool, post_crawford: bool) -> CrawfordStatus:
    """``money``, ``crawford``, ``post-crawford`` or ``pre-crawford``."""
    if not length:
        return "money"
    if crawford:
        return "crawford"
    if post_crawford:
        return "post-crawford"
    return "pre-crawford"


def game_moments(match: MatchAnswers, summary: GameSummary,
                 game_events: list[Event]) -> list[Moment]:
    """The moments of one game of ``match`` (``summary``) from its events, in order:
    before each action, then after the last one."""
    replay = match.summary
    length = replay.match_length
    jacoby = bool(replay.profile.jacoby) if length == 0 else False
    moments: list[Moment] = []
    for k, (event, row) in enumerate(zip(game_events, row_labels(game_events))):
        play = None
        if event.action == "move":
            play = str(event.play) if event.play is not None else None
        following = game_events[k + 1] if k + 1 < len(game_events) else None
        moments.append(Moment(summary.number, k + 1, event.position_before,
                              event.state_before, event.action, event.dice, play,
                              event.player, event.line, row=row,
                              label=play_label(event, following, play), match=match))
    final = _final_moment(match, summary, game_events, len(moments) + 1, length, jacoby)
    if not game_events and final.over is None:
        final = _with_position_dice(replay, final)
    elif final.over is None and _ends_with_unplayed_roll(
            replay.record.games[summary.number - 1], game_events[-1]):
        final = _with_unplayed_roll(final, game_events[-1])
    moments.append(final)
    return moments


def _with_position_dice(replay: MatchReplay, moment: Moment) -> Moment:
    """The moment of a position file (an ``.xgp``: a set-up and no action) with the dice
    the file gives to play, as for an XGID with dice."""
    from bgtools.readers.xg import position_dice

    dice = position_dice(replay.record)
    if dice is None:
        return moment
    return replace(moment, dice=dice, state=moment.state.with_(dice=dice))


def _ends_with_unplayed_roll(game: GameRecord, last: Event) -> bool:
    """True when the record stops after a roll it writes with no play (an SGF ``DI``
    node, a ``.mat`` cell ``63:``), nothing set by hand after it: the dice are rolled and
    still to play, as GNU Backgammon loads such a file (a roll it cannot play is an empty
    play, not None, and stays played)."""
    source = last.source
    return (last.action == "move" and last.play is None and last.dice is not None
            and source is not None and source.kind == "roll" and not source.play_text
            and not source.steps and not source.cannot_move and not source.illegal
            and not source.resign_marker
            and not any(setup.before >= len(game.actions) for setup in game.setups))


def _with_unplayed_roll(moment: Moment, last: Event) -> Moment:
    """The moment after a record that stops with dice rolled and not played: the roller
    to act with those dice in the position he rolled them in (as gnubg's ``.mat`` and SGF
    imports, and an ``.xgp`` checker decision, give it)."""
    return replace(moment, position=last.position_before, dice=last.dice,
                   state=last.state_before.with_(dice=last.dice))


def _final_moment(match: MatchAnswers, summary: GameSummary, events: list[Event], move: int,
                  length: int, jacoby: bool) -> Moment:
    """The moment after the last action of a game."""
    owner: int | None = None
    if events:
        last = events[-1]
        owner = last.state_before.cube_owner
        if last.action in ("take", "beaver"):
            owner = last.player
    on_roll = summary.final_on_roll if summary.final_on_roll is not None else 0
    position = summary.final_position or Position.initial()
    score = summary.score_before
    game_state = ids.GameState.PLAYING
    resignation = 0
    if summary.ended_by is not None and summary.winner is not None:
        score = summary.score_after
        game_state = {"bearoff": ids.GameState.OVER, "drop": ids.GameState.DROPPED,
                      "resign": ids.GameState.RESIGNED}[summary.ended_by]
        if summary.ended_by == "resign":
            # gnubg keeps the level resigned in the Match ID of a resigned game.
            resignation = result_level(summary.result)
    state = ids.MatchState(
        match_length=length, score=score, cube_value=summary.cube, cube_owner=owner,
        on_roll=on_roll, crawford=summary.crawford, game_state=game_state, turn=on_roll,
        resignation=resignation, jacoby=jacoby,
    )
    return Moment(summary.number, move, position, state, final=True, over=summary.ended_by,
                  match=match)


def analyse_answers(display: str, path: InputSource | None, error: str | None = None,
                    rules: str = "auto") -> tuple[FileResult, list[MatchAnswers]]:
    """Read and replay one file, collecting moments: ``(FileResult, [MatchAnswers])``."""
    from bgtools.reports.files import analyse_file

    result = analyse_file(display, path, error, rules, keep_events=True)
    answers = [MatchAnswers(replay, events)
               for replay, events in zip(result.replays, result.events)]
    return result, answers


def moment_extra(match: MatchAnswers, moment: Moment) -> MomentExtra:
    """What the human output of ``pips`` and ``status`` says about a moment besides the
    contract's JSON: the names, where it is (game, move, row), its action, and

    - ``pending``: a double awaiting its answer (``by`` the doubler, ``action``, ``cube`` the
      value offered, ``answer`` the player to answer), else None;
    - ``result``: after the last action of a finished game, who won it (``winner``,
      ``points``, ``result``, ``ended_by``) and, when it ended the match, ``match_over``
      and the ``final_score``; else None.
    """
    return {"names": list(shown_names(match.summary.names)),
            "game": moment.game, "move": moment.move, "final": moment.final,
            "player": moment.player, "dice": list(moment.dice) if moment.dice else None,
            "play": moment.play, "action": moment.action, "over": moment.over,
            "pips": list(moment.pips), "row": moment.row, "label": moment.label,
            "words": moment.words,
            "pending": pending_double(match, moment), "result": _game_result(match, moment)}


def status_details(match: MatchAnswers, moment: Moment) -> StatusDetails:
    """What ``status --json`` of a match file adds to :func:`status_json`: ``players``
    (as ``score --json`` gives them), ``dice`` (:attr:`Moment.dice_to_play`), ``pending``
    (a double awaiting its answer: ``by``, ``action``, ``cube``, ``answer``) and ``result``
    (after a game's last action: who won it, how, and whether it ended the match), each
    null when there is none."""
    dice = moment.dice_to_play
    return {"players": _players(match.summary), "dice": list(dice) if dice else None,
            "pending": pending_double(match, moment), "result": _game_result(match, moment)}


def pending_double(match: MatchAnswers, moment: Moment) -> PendingObject | None:
    """The double awaiting its answer at ``moment`` (``by``: the doubler, ``action``,
    ``cube``: the value offered, None after a beaver or raccoon; ``answer``: the player to
    answer), or None."""
    # Before an answer the state says so; at the end of a record that stops after a double
    # (an unfinished game), the last action does.
    waiting = moment.over is None if moment.final else moment.state.doubled
    if not waiting or moment.move < 2:
        return None
    offer = match.game_moments(moment.game)[moment.move - 2]
    if offer.action not in ("double", "beaver", "raccoon") or offer.player is None:
        return None
    cube = 2 * offer.state.cube_value if offer.action == "double" else None
    return {"by": offer.player, "action": offer.action, "cube": cube,
            "answer": 1 - offer.player}


def _game_result(match: MatchAnswers, moment: Moment) -> GameResultObject | None:
    replay = match.summary
    summary = replay.games[moment.game - 1]
    if not moment.final or summary.winner is None or summary.ended_by is None:
        return None
    match_over = (moment.game == len(replay.games) and replay.complete
                  and replay.winner == summary.winner)
    return {"winner": summary.winner, "points": summary.points, "result": summary.result,
            "ended_by": summary.ended_by, "match_over": match_over,
            "final_score": list(replay.final_score)}


def moment_ids(moment: Moment) -> tuple[str, str, str]:
    """``(position_id, match_id, xgid)`` of a moment."""
    position_id = moment.position.position_id
    try:
        match_id = ids.encode_match_id(moment.state)
    except ids.IdError:
        match_id = ""
    try:
        xgid = ids.encode_xgid(moment.sides(), moment.state)
    except ids.IdError:
        xgid = ""
    return position_id, match_id, xgid


def _players(replay: MatchReplay) -> list[str] | None:
    return list(replay.names) if replay.names else None


def score_json(display: str, fmt: str | None, replay: MatchReplay) -> ScoreObject:
    """The contract's ``score`` object."""
    # (cast: the compiled replay's plain dicts are the contract's game objects)
    games = cast("list[ScoreGameObject]",
                 [g.score_fields(replay.match_length) for g in replay.games])
    return {
        "schema": SCHEMA,
        "file": display,
        "format": fmt,
        "match_length": replay.match_length,
        "players": _players(replay),
        "final_score": list(replay.final_score),
        "winner": replay.winner,
        "complete": replay.complete,
        "games": games,
    }


def error_json(display: str, message: str, *, with_format: bool = False) -> ErrorObject:
    """The object ``score``, ``pips`` and ``status --json`` print for a file they cannot
    answer about (unreadable, no match, a moment out of range), so that every input file
    has its line: ``error`` is the one-line message also written to stderr. ``score``
    objects carry ``"format": null`` too."""
    if with_format:
        return {"schema": SCHEMA, "file": display, "format": None, "error": message}
    return {"schema": SCHEMA, "file": display, "error": message}


def pips_json(display: str, moment: Moment) -> PipsObject:
    """The contract's ``pips`` object."""
    return {"schema": SCHEMA, "file": display, "game": moment.game, "move": moment.move,
            "pips": list(moment.pips)}


def status_json(display: str, replay: MatchReplay, moment: Moment) -> StatusObject:
    """The contract's ``status`` object."""
    summary = replay.games[moment.game - 1]
    position_id, match_id, xgid = moment_ids(moment)
    return {
        "schema": SCHEMA,
        "file": display,
        "game": moment.game,
        "move": moment.move,
        "match_length": replay.match_length,
        "score": list(moment.state.score),
        "crawford": crawford_status(replay.match_length, summary.crawford,
                                    summary.post_crawford),
        "cube": {"value": moment.state.cube_value, "owner": moment.state.cube_owner},
        "on_roll": moment.on_roll,
        "pips": list(moment.pips),
        "position_id": position_id,
        "match_id": match_id,
        "xgid": xgid,
    }


def running_totals(replay: MatchReplay) -> list[tuple[int, int]]:
    """The score after each game (the running total of a money session)."""
    return [g.score_after for g in replay.games]


def header_names(replay: MatchReplay) -> tuple[str, str] | None:
    """The header's ``Player 1``/``Player 2`` names when they differ from the score line's
    by more than blanks (Backgammon Studio writes ``[Player 2 "Breum "]`` for ``Breum``,
    whose score line cannot show a trailing blank)."""
    record = replay.record
    p1, p2 = record.tag("Player 1"), record.tag("Player 2")
    if p1 is None or p2 is None:
        return None
    if replay.names is not None and [" ".join(name.split()) for name in (p1, p2)] == [
            " ".join(name.split()) for name in replay.names]:
        return None
    return (p1, p2)


# --- a position given by its ID ----------------------------------------------------------------

_BASE64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_ID_LIKE = re.compile(r"[^\s.:]{10,20}(:[^\s.:]{8,16})?")


def looks_like_id(text: str) -> bool:
    """Whether ``text`` is written like a Position ID, GNUbg ID or XGID, valid or mistyped
    (10 to 20 characters without a dot or a space, a Match ID after a colon; an XGID):
    what a command that also takes files treats as an ID when no file has that name."""
    raw = text.strip()
    return (raw.upper().startswith("XGID=") or raw.count(":") >= 8
            or (_ID_LIKE.fullmatch(raw) is not None and not raw.isdigit()))


def _base64_problem(part: str, what: str, size: int) -> str | None:
    """Why ``part`` cannot be a ``what`` of ``size`` Base64 characters, or None."""
    bad = next((ch for ch in part if ch not in _BASE64), None)
    if bad is not None:
        return (f"{bad!r} is not a Base64 character (A-Z, a-z, 0-9, + and /); "
                f"a {what} has {size} of them")
    if len(part) != size:
        return f"{len(part)} characters; a {what} has {size}"
    return None


def explain_id(text: str) -> str:
    """Why ``text`` is not a Position ID, GNUbg ID (``pos:match``) or XGID, in a few words
    (``13 characters; a Position ID has 14``); ``""`` when it is one."""
    from bgtools.engine.position import PositionError, parse_id

    raw = text.strip()
    try:
        parse_id(raw)
    except PositionError as exc:
        reason = str(exc)
    else:
        return ""
    if not (raw.upper().startswith("XGID=") or raw.count(":") >= 8):
        if ":" in raw:
            pos_text, match_text = raw.split(":", 1)
            shape = (_base64_problem(pos_text, "Position ID", 14)
                     or _base64_problem(match_text, "Match ID", 12))
        else:
            shape = _base64_problem(raw, "Position ID", 14)
        if shape is not None:
            return shape
    # The right shape: the decoder says what is wrong (too many checkers, bad fields...).
    return reason.replace(f"{raw!r}: ", "").replace(f" {raw!r}", "")


@dataclass(frozen=True, slots=True)
class PositionAnswers:
    """What ``pips`` and ``status`` say about a position given by its ID (no file).

    ``pips`` and ``status`` are the JSON objects (the file objects' keys, ``file``,
    ``game`` and ``move`` null, plus ``id``); ``extra`` what their text needs, as
    :func:`moment_extra` gives it. A bare Position ID names no player and holds no match
    state: player 0 is the player on roll, and the match fields are null.
    """

    pips: PipsObject
    status: StatusObject
    extra: MomentExtra


def _id_crawford(state: ids.MatchState) -> CrawfordStatus:
    length = state.match_length
    return crawford_status(length, state.crawford,
                           bool(length) and not state.crawford and length - 1 in state.score)


def position_answers(text: str) -> PositionAnswers:
    """The answers about the position of an ID; ValueError with :func:`explain_id`'s reason
    when ``text`` is not an ID."""
    from bgtools.engine.position import PositionError, parse_id

    try:
        parsed = parse_id(text)
    except PositionError:
        raise ValueError(explain_id(text)) from None
    pos, state = parsed.position, parsed.state
    mover, opponent = pos.pips
    # What an ID without a match state (a Position ID alone) leaves unknown stays None.
    match_length: int | None = None
    score: list[int] | None = None
    crawford: str | None = None
    cube: CubeObject | None = None
    match_id: str | None = None
    xgid: str | None = None
    dice: list[int] | None = None
    pending: PendingObject | None = None
    if state is None:
        pips = [mover, opponent]
        on_roll: int | None = 0
        names = ["player on roll", "opponent"]
    else:
        x = state.on_roll
        pips = [mover, opponent] if x == 0 else [opponent, mover]
        sides = ((pos.mover[1:], pos.opponent[1:]) if x == 0
                 else (pos.opponent[1:], pos.mover[1:]))
        try:
            match_id = ids.encode_match_id(state)
            xgid = ids.encode_xgid(sides, state)
        except ids.IdError:
            match_id = xgid = ""
        over = state.game_state != ids.GameState.PLAYING
        match_length, score = state.match_length, list(state.score)
        crawford = _id_crawford(state)
        cube = {"value": state.cube_value, "owner": state.cube_owner}
        on_roll = None if over else x
        names = ["player 0", "player 1"]
        dice = list(state.dice) if state.dice and not state.doubled else None
        if state.doubled and not over:
            pending = {"by": x, "action": "double", "cube": 2 * state.cube_value,
                       "answer": 1 - x}
    ident = text.strip()
    # In the order of the file objects' keys (``id`` after ``file``); ``extra`` as
    # moment_extra's, without the keys of an action.
    status: StatusObject = {
        "schema": SCHEMA, "file": None, "id": ident, "game": None, "move": None,
        "match_length": match_length, "score": score, "crawford": crawford, "cube": cube,
        "on_roll": on_roll, "pips": pips, "position_id": pos.position_id,
        "match_id": match_id, "xgid": xgid}
    return PositionAnswers(
        {"schema": SCHEMA, "file": None, "id": ident, "game": None, "move": None,
         "pips": pips}, status,
        {"game": None, "move": None, "final": False, "row": None, "over": None,
         "result": None, "pending": pending, "names": names, "dice": dice, "pips": pips})
