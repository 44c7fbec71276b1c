"""The JSON objects of the CLI contract (docs/contract.md), each named once as a ``TypedDict``.

:mod:`bgtools.reports` builds them, :mod:`bgtools.batch` carries them (``FileReport``) and
:mod:`bgtools.cli` prints them or reads their fields. A ``TypedDict`` is a plain ``dict`` at
run time: these types check the keys, they neither copy nor validate anything, and the key
order is the order the builders write (the contract's order). The problem object,
``ProblemObject``, is :class:`bgtools.record.Problem`'s, named in :mod:`bgtools.record.model`
for type checking only (import it from there).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, TypeAlias, TypedDict

if TYPE_CHECKING:  # a type only (bgtools.record builds no class for it at run time)
    from bgtools.record.model import ProblemObject

__all__ = [
    "ConvertInfo",
    "CubeObject",
    "ErrorObject",
    "EventObject",
    "ExpectObject",
    "GameResultObject",
    "MomentExtra",
    "PendingObject",
    "PipsObject",
    "PlayRow",
    "PlaysObject",
    "ReplayRow",
    "ReportExtra",
    "ReportObject",
    "ScoreExtra",
    "ScoreGameObject",
    "ScoreObject",
    "StatusDetails",
    "StatusObject",
    "ValidateObject",
]


class ExpectObject(TypedDict):
    """``validate --expect``'s ``expect`` member (reports/expect.py)."""

    claimed: str
    """The claim as read, ``NAME W-L``."""
    result: str | None
    """The file's result written the same way; null without a winner, or unreadable."""
    matches: bool | None
    """Whether they agree; null when the file could not be read."""


class ValidateObject(TypedDict):
    """``validate --json``: one object per file (reports/files.py)."""

    schema: str
    file: str
    """The path as given (``-``: standard input)."""
    format: str | None
    """``mat``, ``sgf``, ``json``, ``xg``, ``bgf``, ``ogxm``; null when not recognised."""
    rules: str | None
    """The house-rule profile replayed under; null for an unreadable file."""
    valid: bool
    """No problem of severity ``error``."""
    games: int
    complete: bool
    """Every match reached its length."""
    problems: list[ProblemObject]
    expect: NotRequired[ExpectObject]
    """Only with ``--expect``, last."""


class ScoreGameObject(TypedDict):
    """A game of a ``score`` object (``GameSummary.score_fields``, in bgtools.replay)."""

    number: int
    """1-based."""
    score_before: list[int]
    crawford: bool
    """Always false in money play."""
    winner: int | None
    """Null for an unfinished game."""
    points: int | None
    """What the winner scored."""
    cube: int
    """The value played for (for a drop: before the refused double)."""
    result: str | None
    """``single``, ``gammon`` or ``backgammon``; null for an unfinished game."""
    ended_by: str | None
    """``bearoff``, ``drop`` or ``resign``; null for an unfinished game."""


class ScoreObject(TypedDict):
    """``score --json``: one object per match of the file (reports/moments.py)."""

    schema: str
    file: str
    format: str | None
    match_length: int
    """0 for money play."""
    players: list[str] | None
    final_score: list[int]
    winner: int | None
    complete: bool
    games: list[ScoreGameObject]
    match: NotRequired[int]
    """1-based, only when the file holds several matches."""
    matches: NotRequired[int]
    """How many, only when the file holds several matches."""


class ErrorObject(TypedDict):
    """What ``score``, ``pips`` and ``status --json`` print for an input they cannot answer
    about (reports/moments.py, cli/answers.py)."""

    schema: str
    file: str | None
    """Null for an ID."""
    id: NotRequired[str]
    """The ID as given, for an ID that does not decode."""
    format: NotRequired[None]
    """``score`` objects only: always null."""
    error: str
    """The one-line message also written to stderr."""


class PipsObject(TypedDict):
    """``pips --json`` (reports/moments.py)."""

    schema: str
    file: str | None
    """Null for a position given by its ID."""
    id: NotRequired[str]
    """The ID as given; only for a position given by its ID."""
    game: int | None
    move: int | None
    pips: list[int]
    """``[player 0, player 1]``."""


class CubeObject(TypedDict):
    """``status``'s ``cube``."""

    value: int
    owner: int | None
    """Null: centred."""


class PendingObject(TypedDict):
    """A double awaiting its answer (``status``'s ``pending``)."""

    by: int
    """The doubler."""
    action: str
    """``double``, ``beaver`` or ``raccoon``."""
    cube: int | None
    """The value offered; null after a beaver or raccoon."""
    answer: int
    """The player to answer."""


class GameResultObject(TypedDict):
    """``status``'s ``result``: who won the game just finished, and how."""

    winner: int
    points: int | None
    result: str | None
    """``single``, ``gammon`` or ``backgammon``."""
    ended_by: str
    """``bearoff``, ``drop`` or ``resign``."""
    match_over: bool
    final_score: list[int]


class StatusDetails(TypedDict):
    """What ``status --json`` of a match file adds to the moment's fields, each null when
    there is nothing to say (reports/moments.py)."""

    players: list[str] | None
    dice: list[int] | None
    """The dice rolled and still to play."""
    pending: PendingObject | None
    result: GameResultObject | None


class StatusObject(TypedDict):
    """``status --json`` (reports/moments.py)."""

    schema: str
    file: str | None
    """Null for a position given by its ID."""
    id: NotRequired[str]
    """The ID as given; only for a position given by its ID."""
    game: int | None
    move: int | None
    match_length: int | None
    score: list[int] | None
    crawford: str | None
    """``pre-crawford``, ``crawford``, ``post-crawford`` or ``money``."""
    cube: CubeObject | None
    on_roll: int | None
    """Null after a finished match."""
    pips: list[int]
    position_id: str
    match_id: str | None
    xgid: str | None
    players: NotRequired[list[str] | None]
    """This key and the next three: a match file's only (:class:`StatusDetails`)."""
    dice: NotRequired[list[int] | None]
    pending: NotRequired[PendingObject | None]
    result: NotRequired[GameResultObject | None]


class EventObject(TypedDict):
    """``replay --jsonl``: one object per action (reports/files.py; the action's own fields
    are ``Event.action_fields``)."""

    schema: str
    file: str
    game: int
    index: int
    """0-based, in the game."""
    line: int | None
    """Null in a binary file."""
    player: int | None
    action: str
    dice: list[int] | None
    play: NotRequired[str | None]
    """Moves only: the canonical play; null when it could not be replayed."""
    steps: NotRequired[list[list[int]] | None]
    """Moves only."""
    position_id_before: str
    match_id_before: str
    position_id_after: str | None
    pips_before: list[int]
    cube_before: int
    cube_owner_before: int | None


class ReplayRow(EventObject):
    """A row of ``bgtools replay``'s table: the event object and its play as shown."""

    label: str


class PlayRow(TypedDict):
    """A legal play of a ``plays --json`` object."""

    play: str
    """Canonical notation; ``""`` for a roll with no legal play."""
    steps: list[list[int]]
    hits: int
    position_id_after: str
    """Encoded for the opponent, who acts next."""
    pips_after: list[int]
    """The mover's, then the opponent's."""


class PlaysObject(TypedDict):
    """``plays --json`` (reports/plays.py)."""

    schema: str
    position_id: str
    dice: list[int]
    """As given."""
    pips: list[int]
    """The mover's, then the opponent's."""
    plays: list[PlayRow]
    """Ordered by pips, then by points (:func:`bgtools.reports.plays.play_order`)."""


class MomentExtra(TypedDict):
    """What the human output of ``pips`` and ``status`` says about a moment besides the
    JSON (reports/moments.py). A position given by its ID has no ``player``, ``play``,
    ``action``, ``label`` nor ``words``."""

    names: list[str]
    game: int | None
    move: int | None
    final: bool
    """After the last action of the game."""
    player: NotRequired[int | None]
    dice: list[int] | None
    play: NotRequired[str | None]
    action: NotRequired[str | None]
    over: object
    """The game's end at a final moment (None: not over)."""
    pips: list[int]
    row: str | None
    label: NotRequired[str]
    words: NotRequired[str]
    pending: PendingObject | None
    result: GameResultObject | None


class ScoreExtra(TypedDict):
    """What ``score``'s table needs besides the JSON, per match (batch/jobs.py)."""

    names: list[str]
    header_names: list[str] | None
    post_crawford: list[bool]
    totals: list[list[int]]


class ConvertInfo(TypedDict):
    """What a ``convert`` job says about one file (batch/jobs.py)."""

    written: str | None
    """The output written; null when printed, or refused."""
    text: NotRequired[str | bytes]
    """The converted text, when printed to stdout."""
    games: NotRequired[int]
    source_format: NotRequired[str]
    reason: str | None
    """Why the file was not converted, else null."""


ReportObject: TypeAlias = ValidateObject | ScoreObject | PipsObject | StatusObject
"""A ``FileReport``'s JSON objects: one command's objects each."""

ReportExtra: TypeAlias = MomentExtra | ScoreExtra | ConvertInfo | dict[str, Any]
"""A ``FileReport``'s extra objects: what one command's human output needs, or a data
command's payload for the file (bgtools.data.jobs: a generic JSON object)."""
