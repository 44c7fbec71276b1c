"""What a replay gives: one :class:`Event` per action replayed, a :class:`GameSummary` per
game and the :class:`MatchReplay` of the whole record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from bgtools.dataclass_methods import FACTORY_LIST, fields_eq, fields_reduce, fields_repr
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

# The three classes write their __init__ and delegate __repr__/__eq__ to
# bgtools.dataclass_methods: a compiled dataclass otherwise still has dataclasses compile
# its methods from source at every import. No "__hash__ = None": mypyc would make it a
# field; defining __eq__ alone makes the class unhashable, as a dataclass with eq.


@dataclass(slots=True, init=False, repr=False, eq=False)
class Event:  # noqa: PLW1641 - unhashable (eq, mutable), as Python makes it
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

    def __init__(self, game: int, index: int, line: int | None, player: int,
                 action: EventKind, dice: tuple[int, int] | None, play: Play | None,
                 position_before: Position, state_before: ids.MatchState,
                 position_after: Position | None = None, source: Action | None = None,
                 ) -> None:
        self.game = game
        self.index = index
        self.line = line
        self.player = player
        self.action = action
        self.dice = dice
        self.play = play
        self.position_before = position_before
        self.state_before = state_before
        self.position_after = position_after
        self.source = source

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented  # as generated (and mypyc's bool return allows it here)
        return fields_eq(self, other)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return fields_reduce(self)  # a compiled class pickles through its __init__

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


@dataclass(slots=True, init=False, repr=False, eq=False)
class GameSummary:  # noqa: PLW1641 - unhashable, as Python makes it
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

    def __init__(self, number: int, line: int | None, score_before: tuple[int, int],
                 crawford: bool, post_crawford: bool, winner: int | None = None,
                 points: int | None = None, cube: int = 1, result: ResultName | None = None,
                 ended_by: GameEnd | None = None, rolls: int = 0, actions: int = 0,
                 final_position: Position | None = None, final_on_roll: int | None = None,
                 ) -> None:
        self.number = number
        self.line = line
        self.score_before = score_before
        self.crawford = crawford
        self.post_crawford = post_crawford
        self.winner = winner
        self.points = points
        self.cube = cube
        self.result = result
        self.ended_by = ended_by
        self.rolls = rolls
        self.actions = actions
        self.final_position = final_position
        self.final_on_roll = final_on_roll

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented  # as generated (and mypyc's bool return allows it here)
        return fields_eq(self, other)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return fields_reduce(self)  # a compiled class pickles through its __init__

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


@dataclass(slots=True, init=False, repr=False, eq=False)
class MatchReplay:  # noqa: PLW1641 - unhashable, as Python makes it
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

    def __init__(self, record: MatchRecord, profile: RuleProfile, match_length: int,
                 names: tuple[str, str] | None, games: list[GameSummary] = FACTORY_LIST,
                 problems: list[Problem] = FACTORY_LIST, final_score: tuple[int, int] = (0, 0),
                 complete: bool = False, winner: int | None = None, rolls: int = 0,
                 ) -> None:
        self.record = record
        self.profile = profile
        self.match_length = match_length
        self.names = names
        self.games = [] if games is FACTORY_LIST else games
        self.problems = [] if problems is FACTORY_LIST else problems
        self.final_score = final_score
        self.complete = complete
        self.winner = winner
        self.rolls = rolls

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented  # as generated (and mypyc's bool return allows it here)
        return fields_eq(self, other)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return fields_reduce(self)  # a compiled class pickles through its __init__

    @property
    def valid(self) -> bool:
        """True when no problem is an error."""
        return not any(p.severity is Severity.ERROR for p in self.problems)
