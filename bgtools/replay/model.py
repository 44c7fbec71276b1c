"""What a replay gives: one :class:`Event` per action replayed, a :class:`GameSummary` per
game and the :class:`MatchReplay` of the whole record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from bgtools.engine import ids
from bgtools.engine.position import Play, Position
from bgtools.engine.results import ResultName
from bgtools.record import Action, MatchRecord, Problem, Severity
from bgtools.replay.rules import RuleProfile

__all__ = [
    "Event",
    "EventKind",
    "GameEnd",
    "GameSummary",
    "MatchReplay",
]

EventKind = Literal["move", "double", "take", "drop", "beaver", "raccoon", "resign", "accept"]
"""What an event replays: a roll and its play, a cube action, or one half of a resignation
(``resign`` by the loser, then ``accept`` by the winner)."""

GameEnd = Literal["bearoff", "drop", "resign"]
"""How a game ended: the last checker borne off, a double dropped, a resignation."""

@dataclass(slots=True)
class Event:
    """One replayed action, with the state before it (for ``replay --jsonl``)."""

    game: int
    index: int
    line: int | None
    player: int
    action: EventKind
    dice: tuple[int, int] | None
    play: Play | None
    position_before: Position
    state_before: ids.MatchState
    position_after: Position | None = None
    source: Action | None = None
    """The record's cell this event replays (writers need its text and properties)."""

    def action_fields(self) -> dict[str, object]:
        """The action as JSON fields, in the contract's order: index, line, player, action,
        dice, (for moves) the canonical play and its steps, the Position ID and Match ID
        before it (``""`` for a state no Match ID can hold, such as a cube beyond 2**15)."""
        fields: dict[str, object] = {
            "index": self.index,
            "line": self.line,
            "player": self.player,
            "action": self.action,
            "dice": list(self.dice) if self.dice else None,
        }
        if self.action == "move":
            play = self.play
            fields["play"] = str(play) if play is not None else None
            fields["steps"] = [list(s) for s in play.steps] if play is not None else None
        fields["position_id_before"] = self.position_before.position_id
        try:
            fields["match_id_before"] = ids.encode_match_id(self.state_before)
        except ids.IdError:
            fields["match_id_before"] = ""
        return fields


@dataclass(slots=True)
class GameSummary:
    """What happened in one game (the contract's ``score`` game object)."""

    number: int
    line: int | None
    score_before: tuple[int, int]
    crawford: bool
    post_crawford: bool
    winner: int | None = None
    points: int | None = None
    cube: int = 1
    result: ResultName | None = None
    ended_by: GameEnd | None = None
    rolls: int = 0
    actions: int = 0
    final_position: Position | None = None
    final_on_roll: int | None = None

    @property
    def score_after(self) -> tuple[int, int]:
        """The score after this game: the winner's points added (unchanged while it is not
        over)."""
        a, b = self.score_before
        if self.winner is None or self.points is None:
            return (a, b)
        return (a + self.points, b) if self.winner == 0 else (a, b + self.points)

    def score_fields(self, match_length: int) -> dict[str, object]:
        """The contract's ``score`` game object (``match_length`` 0: money, never Crawford)."""
        return {
            "number": self.number,
            "score_before": list(self.score_before),
            "crawford": bool(self.crawford) if match_length else False,
            "winner": self.winner if self.ended_by is not None else None,
            "points": self.points,
            "cube": self.cube,
            "result": self.result,
            "ended_by": self.ended_by,
        }


@dataclass(slots=True)
class MatchReplay:
    """The outcome of replaying a record: per-game summaries, problems, the final score."""

    record: MatchRecord
    profile: RuleProfile
    match_length: int
    names: tuple[str, str] | None
    games: list[GameSummary] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    final_score: tuple[int, int] = (0, 0)
    complete: bool = False
    winner: int | None = None
    rolls: int = 0

    @property
    def valid(self) -> bool:
        """True when no problem is an error."""
        return not any(p.severity is Severity.ERROR for p in self.problems)
