"""Answers about a replayed match: scores, the moments of a game, pips and status.

Pure data (no terminal code): the CLI commands ``score``, ``pips``, ``status`` and ``show``
print what this module computes. A *moment* is the state of the match just before one
action of a game (``move`` 1-based, as the contract's ``--move M``) or just after the last
action of the game (the move after the last one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from bgtools.engine import ids
from bgtools.engine.position import Position
from bgtools.engine.results import result_level
from bgtools.record_json import SCHEMA
from bgtools.replay import Event, GameSummary, MatchReplay

if TYPE_CHECKING:
    from bgtools.read.detect import InputSource
    from bgtools.reports.files import FileResult

__all__ = [
    "CrawfordStatus",
    "Moment",
    "MatchAnswers",
    "RangeError",
    "analyse_answers",
    "crawford_status",
    "score_json",
    "pips_json",
    "status_json",
    "moment_ids",
    "error_json",
]

CrawfordStatus = Literal["money", "crawford", "post-crawford", "pre-crawford"]
"""Where a game stands with the Crawford rule (``money``: no match, no Crawford rule)."""


class RangeError(ValueError):
    """A ``--game`` or ``--move`` outside the valid range (a usage error)."""


@dataclass(frozen=True, slots=True)
class Moment:
    """The match at one moment: ``position`` is seen from ``state.on_roll`` (the player to
    act; for a cube answer, the doubler as in the contract's Position ID).

    ``final`` is true for the moment after the last action of a game; then ``over`` is the
    way the game ended (``bearoff``, ``drop``, ``resign``) or None for an unfinished game.
    """

    game: int
    move: int
    position: Position
    state: ids.MatchState
    action: str | None = None
    dice: tuple[int, int] | None = None
    play: str | None = None
    player: int | None = None
    line: int | None = None
    final: bool = False
    over: str | None = None

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


@dataclass(slots=True)
class MatchAnswers:
    """One replayed match with the moments of each of its games."""

    replay: MatchReplay
    moments: dict[int, list[Moment]] = field(default_factory=dict)

    @property
    def game_numbers(self) -> list[int]:
        """The numbers of the games replayed (1-based)."""
        return [g.number for g in self.replay.games]

    def game_moments(self, game: int | None) -> list[Moment]:
        """The moments of ``game`` (default: the last game); RangeError outside 1..N."""
        count = len(self.replay.games)
        if count == 0:
            raise RangeError("the file holds no game")
        number = count if game is None else game
        if not 1 <= number <= count:
            raise RangeError(f"--game {game} is out of range: the file has games 1..{count}")
        return self.moments.get(number, [])

    def moment(self, game: int | None = None, move: int | None = None) -> Moment:
        """The moment before action ``move`` of ``game`` (default: after its last action)."""
        moments = self.game_moments(game)
        number = len(self.replay.games) if game is None else game
        if not moments:
            raise RangeError(f"game {number} has no moment to show")
        if move is None:
            return moments[-1]
        if not 1 <= move <= len(moments):
            raise RangeError(
                f"--move {move} is out of range: game {number} has moves 1..{len(moments)} "
                f"({len(moments) - 1} action(s); {len(moments)} is after the last one)"
            )
        return moments[move - 1]


def crawford_status(length: int, crawford: bool, post_crawford: bool) -> CrawfordStatus:
    """``money``, ``crawford``, ``post-crawford`` or ``pre-crawford``."""
    if not length:
        return "money"
    if crawford:
        return "crawford"
    if post_crawford:
        return "post-crawford"
    return "pre-crawford"


def build_moments(replay: MatchReplay, events: list[Event]) -> dict[int, list[Moment]]:
    """The moments of every game of ``replay`` from its ``events``."""
    by_game: dict[int, list[Event]] = {}
    for event in events:
        by_game.setdefault(event.game, []).append(event)
    out: dict[int, list[Moment]] = {}
    length = replay.match_length
    jacoby = bool(replay.profile.jacoby) if length == 0 else False
    for summary in replay.games:
        moments: list[Moment] = []
        game_events = by_game.get(summary.number, [])
        for k, event in enumerate(game_events):
            play = None
            if event.action == "move":
                play = str(event.play) if event.play is not None else None
            moments.append(Moment(summary.number, k + 1, event.position_before,
                                  event.state_before, event.action, event.dice, play,
                                  event.player, event.line))
        moments.append(_final_moment(summary, game_events, len(moments) + 1, length, jacoby))
        out[summary.number] = moments
    return out


def _final_moment(summary: GameSummary, events: list[Event], move: int, length: int,
                  jacoby: bool) -> Moment:
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
    return Moment(summary.number, move, position, state, final=True, over=summary.ended_by)


def analyse_answers(display: str, path: InputSource | None, error: str | None = None,
                    rules: str = "auto") -> tuple[FileResult, list[MatchAnswers]]:
    """Read and replay one file, collecting moments: ``(FileResult, [MatchAnswers])``."""
    from bgtools.reports.files import analyse_file

    result = analyse_file(display, path, error, rules, keep_events=True)
    answers = [MatchAnswers(replay, build_moments(replay, events))
               for replay, events in zip(result.replays, result.events)]
    return result, answers


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


def score_json(display: str, fmt: str | None, replay: MatchReplay) -> dict[str, Any]:
    """The contract's ``score`` object."""
    games = [g.score_fields(replay.match_length) for g in replay.games]
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


def error_json(display: str, message: str, *, with_format: bool = False) -> dict[str, Any]:
    """The object ``score``, ``pips`` and ``status --json`` print for a file they cannot
    answer about (unreadable, no match, a moment out of range), so that every input file
    has its line: ``error`` is the one-line message also written to stderr. ``score``
    objects carry ``"format": null`` too."""
    obj: dict[str, Any] = {"schema": SCHEMA, "file": display}
    if with_format:
        obj["format"] = None
    obj["error"] = message
    return obj


def pips_json(display: str, moment: Moment) -> dict[str, Any]:
    """The contract's ``pips`` object."""
    return {"schema": SCHEMA, "file": display, "game": moment.game, "move": moment.move,
            "pips": list(moment.pips)}


def status_json(display: str, replay: MatchReplay, moment: Moment) -> dict[str, Any]:
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
    """The header's ``Player 1``/``Player 2`` names when they differ from the score line's."""
    record = replay.record
    p1, p2 = record.tag("Player 1"), record.tag("Player 2")
    if p1 is None or p2 is None:
        return None
    if replay.names is not None and (p1, p2) == tuple(replay.names):
        return None
    return (p1, p2)
