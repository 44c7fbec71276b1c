"""The format-neutral match record: what a file *says*, before any rule is checked.

Readers (``bgtools.formats``) turn text into a :class:`MatchRecord`; the replayer
(``bgtools.replay``) walks it and checks it against the rules. Nothing here knows about
the rules of backgammon beyond the vocabulary, nor about terminals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

__all__ = [
    "Severity",
    "Problem",
    "ActionKind",
    "Action",
    "GameRecord",
    "MatchRecord",
]


class Severity(str, Enum):
    """How bad a problem is: errors make a record invalid, warnings do not."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in a record, with a stable rule id and a 1-based location.

    Text formats locate a problem by ``line``/``column``; binary formats (``.xg``, ``.bgf``)
    have no lines, so ``line``/``column`` are None and ``game`` and ``move`` (the action's
    1-based position in its game) locate it.
    """

    rule: str
    message: str
    line: int | None = None
    column: int | None = None
    game: int | None = None
    severity: Severity = Severity.ERROR
    move: int | None = None

    def to_json(self) -> dict[str, object]:
        """The contract's JSON form of a problem (``move`` only when known: binary formats)."""
        out: dict[str, object] = {
            "severity": self.severity.value,
            "rule": self.rule,
            "line": self.line,
            "column": self.column,
            "game": self.game,
        }
        if self.move is not None:
            out["move"] = self.move
        out["message"] = self.message
        return out


ActionKind = Literal["roll", "double", "take", "drop", "beaver", "raccoon", "win", "loss", "resign"]
"""What one cell of a record says.

``roll``: dice and a play (possibly empty); ``double``/``beaver``/``raccoon``: a cube offer
with the value written (``cube``); ``take``/``drop``: an answer; ``win``/``loss``: a result
cell (``points``) for the player in that column; ``resign``: an explicit resignation
(SGF ``RE[..R]``, ``DI`` node) with ``points`` when known.
"""


@dataclass(slots=True)
class Action:
    """One cell of a record, attributed to player 0 or 1, with its source location.

    For a ``roll``: ``dice`` as written (either order), ``play_text`` the play exactly as
    written (``""`` for nothing), and the flags the dialects use: ``cannot_move``
    (``Cannot Move``), ``resign_marker`` (``???``/``????``), ``illegal`` (Snowie's
    ``Illegal play (...)``). ``play_column`` is where the play text starts. For SGF moves
    the reader fills ``steps`` (already exact, one per die) instead of ``play_text``.
    """

    kind: ActionKind
    player: int
    line: int | None = None
    column: int | None = None
    dice: tuple[int, int] | None = None
    play_text: str = ""
    play_column: int | None = None
    steps: tuple[tuple[int, int], ...] | None = None
    cube: int | None = None
    points: int | None = None
    and_the_match: bool = False
    cannot_move: bool = False
    resign_marker: bool = False
    illegal: bool = False
    move: int | None = None
    """For records without lines (``.xg``, ``.bgf``): the 1-based number of the action in
    its game, which locates its problems."""
    extra: dict[str, object] = field(default_factory=dict)


@dataclass(slots=True)
class GameRecord:
    """One game as written: its header, its score line and its cells in order."""

    number: int | None
    line: int | None = None
    names: tuple[str, str] | None = None
    score: tuple[int, int] | None = None
    score_line: int | None = None
    score_columns: tuple[int | None, int | None] = (None, None)
    actions: list[Action] = field(default_factory=list)
    extra: dict[str, object] = field(default_factory=dict)


@dataclass(slots=True)
class MatchRecord:
    """A whole file's match (or money session) as written, plus reader problems.

    ``match_length`` is 0 for money play and None when the file has no length line.
    ``tags`` are header tags in file order. ``problems`` holds syntax problems found while
    reading (the reader is forgiving: it records and carries on).
    """

    format: str
    match_length: int | None = None
    length_line: int | None = None
    tags: list[tuple[str, str]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    games: list[GameRecord] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    extra: dict[str, object] = field(default_factory=dict)

    def tag(self, name: str) -> str | None:
        """The value of the first header tag called ``name`` (case-insensitive), or None."""
        wanted = name.lower()
        for key, value in self.tags:
            if key.lower() == wanted:
                return value
        return None

    @property
    def names(self) -> tuple[str, str] | None:
        """Player names from the first game's score line, else from header tags."""
        for game in self.games:
            if game.names:
                return game.names
        p1, p2 = self.tag("Player 1"), self.tag("Player 2")
        if p1 is not None and p2 is not None:
            return (p1, p2)
        return None
