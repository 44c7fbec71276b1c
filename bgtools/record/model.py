"""The format-neutral match record: what a file *says*, before any rule is checked.

Readers (``bgtools.readers``) turn text into a :class:`MatchRecord`; the replayer
(``bgtools.replay``) walks it and checks it against the rules. Nothing here knows about
the rules of backgammon beyond the vocabulary, nor about terminals.
"""

from __future__ import annotations

import math
import re
from dataclasses import field
from enum import Enum
from typing import TYPE_CHECKING, Literal

from bgtools.dataclass_methods import FieldMethods, FrozenFieldMethods, prebuilt_dataclass

if TYPE_CHECKING:  # a type only: no class to build at the import of every command
    from typing import NotRequired, TypedDict

    class ProblemObject(TypedDict):
        """The contract's problem object (:meth:`Problem.to_json`), with the other contract
        objects in :mod:`bgtools.reports.objects`."""

        severity: str
        """``error`` or ``warning``."""
        rule: str
        """The stable rule id (``bgtools rules``)."""
        line: int | None
        """1-based; null when no single place is to blame, and in a binary file."""
        column: int | None
        game: int | None
        """1-based."""
        move: NotRequired[int]
        """The 1-based action of its game; binary files only."""
        message: str

__all__ = [
    "Severity",
    "Problem",
    "ActionKind",
    "Action",
    "CubePosition",
    "SetUp",
    "SgfProperties",
    "GameRecord",
    "MatchRecord",
    "UNNAMED",
    "is_unnamed",
    "shown_names",
    "SCHEMA",
]

SCHEMA = "bgtools/1"
"""The version tag every bgtools JSON object carries (the record's JSON form and every
report object of the contract)."""


# The records are prebuilt dataclasses (bgtools.dataclass_methods): dataclasses would compile
# their methods from source at every import (about half of this module's import, paid by every
# run of the command line).


class Severity(str, Enum):
    """How bad a problem is: errors make a record invalid, warnings do not."""

    ERROR = "error"
    """The match breaks a rule: it is invalid."""
    WARNING = "warning"
    """Worth knowing, not a broken rule: the match stays valid."""


@prebuilt_dataclass
class Problem(FrozenFieldMethods):
    """One problem found in a record, with a stable rule id and a 1-based location.

    Text formats locate a problem by ``line``/``column``; binary formats (``.xg``, ``.bgf``)
    have no lines, so ``line``/``column`` are None and ``game`` and ``move`` (the action's
    1-based position in its game) locate it.
    """

    rule: str
    """The stable rule id (``bgtools rules`` lists them; ``unreadable`` for a file that cannot
    be read)."""
    message: str
    """What is wrong, in words."""
    line: int | None = None
    """The 1-based line of the file (None in binary formats, or when no line applies)."""
    column: int | None = None
    """The 1-based column on that line (None when the problem is the whole line or has no
    line)."""
    game: int | None = None
    """The 1-based number of the game the problem is in (None for the match's header or the
    file)."""
    severity: Severity = Severity.ERROR
    """:class:`Severity`: an error makes the match invalid, a warning does not."""
    move: int | None = None
    """In binary formats (``.xg``, ``.bgf``): the 1-based number of the action in its game; else
    None."""

    def to_json(self) -> ProblemObject:
        """The contract's JSON form of a problem (``move`` only when known: binary formats)."""
        if self.move is None:
            return {"severity": self.severity.value, "rule": self.rule, "line": self.line,
                    "column": self.column, "game": self.game, "message": self.message}
        return {"severity": self.severity.value, "rule": self.rule, "line": self.line,
                "column": self.column, "game": self.game, "move": self.move,
                "message": self.message}


ActionKind = Literal["roll", "double", "take", "drop", "beaver", "raccoon", "win", "loss", "resign"]
"""What one cell of a record says.

``roll``: dice and a play (possibly empty); ``double``/``beaver``/``raccoon``: a cube offer
with the value written (``cube``); ``take``/``drop``: an answer; ``win``/``loss``: a result
cell (``points``) for the player in that column; ``resign``: an explicit resignation
(SGF ``RE[..R]``, ``DI`` node) with ``points`` when known.
"""


@prebuilt_dataclass
class Action(FieldMethods):
    """One cell of a record, attributed to player 0 or 1, with its source location.

    For a ``roll``: ``dice`` as written (either order), ``play_text`` the play exactly as
    written (``""`` for nothing), and the flags the dialects use: ``cannot_move``
    (``Cannot Move``), ``resign_marker`` (``???``/``????``), ``illegal`` (Snowie's
    ``Illegal play (...)``). ``play_column`` is where the play text starts. For SGF moves
    the reader fills ``steps`` (already exact, one per die) instead of ``play_text``.
    ``illegal_text`` is the text of Snowie's ``Illegal play (...)`` cell (with ``illegal``);
    ``dice_only`` marks a roll shown without a play (an SGF ``DI`` node). ``forfeit``
    marks a ``resign`` that was a forfeit (BGBlitz's ``lostOnTime``, ``wasForfeit``): the
    winner gets the points the file credits, whatever the cube.
    """

    kind: ActionKind
    """What the cell is: ``roll``, ``double``, ``take``, ``drop``, ``beaver``, ``raccoon``,
    ``resign``, ``win`` or ``loss``."""
    player: int
    """Who acts: 0 (the left column of a ``.mat``) or 1."""
    line: int | None = None
    """The 1-based line of the cell (None in binary formats)."""
    column: int | None = None
    """The 1-based column where the cell starts (None in binary formats)."""
    dice: tuple[int, int] | None = None
    """The roll as written (either order), for a ``roll``; else None."""
    play_text: str = ""
    """The play exactly as written (``""`` for nothing), for a ``roll``."""
    play_column: int | None = None
    """The 1-based column where :attr:`play_text` starts."""
    steps: tuple[tuple[int, int], ...] | None = None
    """Exact steps ``(from, to)`` in the mover's numbering (SGF, ``.xg``, ``.bgf``), instead of
    :attr:`play_text`; else None."""
    cube: int | None = None
    """The cube value a ``double`` offers, as written (None when the file gives none)."""
    points: int | None = None
    """The points a ``win``, ``loss`` or ``resign`` says were scored."""
    and_the_match: bool = False
    """True when a ``win`` cell says ``and the match``."""
    cannot_move: bool = False
    """True for a roll written ``Cannot Move``."""
    resign_marker: bool = False
    """True for a roll marked as resigned after (``???``/``????``)."""
    illegal: bool = False
    """True for Snowie's ``Illegal play (...)`` cell."""
    move: int | None = None
    """For records without lines (``.xg``, ``.bgf``): the 1-based number of the action in
    its game, which locates its problems."""
    illegal_text: str | None = None
    """The text of Snowie's ``Illegal play (...)`` cell (with :attr:`illegal`)."""
    dice_only: bool = False
    """True for a roll shown without a play (an SGF ``DI`` node)."""
    forfeit: bool = False
    """True for a ``resign`` that was a forfeit (BGBlitz's ``lostOnTime``, ``wasForfeit``)."""
    extra: dict[str, object] = field(default_factory=dict)
    """What a reader passes through untouched (SGF properties, .mat markers and rows)."""


SgfProperties = tuple[tuple[str, tuple[str, ...]], ...]
"""The properties of one SGF node in order, values unescaped: ``(("AE", ("a:c",)), ...)``."""

CubePosition = Literal[0, 1, "centred"]
"""Where a set-up puts the cube: owned by player 0 or 1, or in the middle."""


@prebuilt_dataclass
class SetUp(FrozenFieldMethods):
    """A board, turn or cube set by hand inside a game (an SGF set-up node: ``AE``/``AW``/
    ``AB``, ``PL``, ``CV``, ``CP``; a root ``CV`` of automatic doubles).

    The replay applies it just before the game's action number ``before`` (0-based; the
    number of actions is "after the last"). ``emptied``, ``white`` and ``black`` are
    absolute 0-based letter indexes (``a`` = 0 .. ``x`` = 23, ``y`` = 24 the bar): points
    emptied (both colours), then one checker added per entry. ``turn`` is the player to move
    (0 = White, 1 = Black), ``cube`` the cube value, ``cube_position`` where the cube is;
    each None when the node does not set it. ``errors`` word the values that cannot be read.
    ``line``/``column`` locate the node (None: unknown, the game's line is used); ``node``
    (0 = the root) and ``properties`` are the node as written, kept for loss-free JSON.
    """

    before: int
    """The 0-based number of the game's action the set-up comes before (the number of actions:
    after the last)."""
    emptied: tuple[int, ...] = ()
    """The points emptied, both colours (absolute letter indexes: ``a`` = 0 .. ``x`` = 23, ``y``
    = 24 the bar)."""
    white: tuple[int, ...] = ()
    """One White checker added per entry (letter indexes, as :attr:`emptied`)."""
    black: tuple[int, ...] = ()
    """One Black checker added per entry (letter indexes, as :attr:`emptied`)."""
    turn: int | None = None
    """The player to move (0 = White, 1 = Black), or None when the node does not set it."""
    cube: int | None = None
    """The cube value, or None when the node does not set it."""
    cube_position: CubePosition | None = None
    """Where the cube is (0, 1 or ``centred``), or None when the node does not set it."""
    errors: tuple[str, ...] = ()
    """The values of the node that cannot be read, in words."""
    line: int | None = None
    """The 1-based line of the node (None: unknown, the game's line is used)."""
    column: int | None = None
    """The 1-based column of the node (None: unknown)."""
    node: int = 0
    """The node's number in the game tree (0: the root), kept for loss-free JSON."""
    properties: SgfProperties = ()
    """The node's properties as written, kept for loss-free JSON."""

    @property
    def sets_board(self) -> bool:
        """True when the node changes checkers (``AE``, ``AW`` or ``AB``)."""
        return bool(self.emptied or self.white or self.black)


@prebuilt_dataclass
class GameRecord(FieldMethods):
    """One game as written: its header, its score line and its cells in order.

    ``setups`` are the boards, turns or cubes set by hand inside the game, in order;
    ``comments`` the free comment lines written inside it, ``(line, text)`` (each also in
    :attr:`MatchRecord.comments`). ``crawford``: whether the file itself states that this
    is the Crawford game (SGF ``RU[Crawford:CrawfordGame]``, ``RU[Crawford]`` for another
    game; eXtreme Gammon's and BGBlitz's flags); None where it states nothing.
    """

    number: int | None
    """The game's number as the file writes it (None when it writes none)."""
    line: int | None = None
    """The 1-based line of the game's header (None in binary formats)."""
    names: tuple[str, str] | None = None
    """The players' names on the game's score line, ``(player 0, player 1)``, or None."""
    score: tuple[int, int] | None = None
    """The score before the game as the file writes it, ``(player 0, player 1)``, or None."""
    score_line: int | None = None
    """The 1-based line of the score line (None when there is none)."""
    score_columns: tuple[int | None, int | None] = (None, None)
    """The 1-based columns of the two scores on the score line (None where unknown)."""
    actions: list[Action] = field(default_factory=list)
    """The game's cells in order (:class:`Action`)."""
    setups: tuple[SetUp, ...] = ()
    """The boards, turns or cubes set by hand inside the game, in order."""
    comments: list[tuple[int, str]] = field(default_factory=list)
    """The free comment lines written inside the game, ``(line, text)``."""
    extra: dict[str, object] = field(default_factory=dict)
    """What a reader passes through untouched (SGF properties, ratings)."""
    crawford: bool | None = None
    """Whether the file states that this is the Crawford game (None: it states nothing)."""


UNNAMED = ("player 0", "player 1")
"""How the views name player 0 and player 1 when the file names nobody."""


def is_unnamed(names: tuple[str, str] | None, side: int) -> bool:
    """True when the file gives player ``side`` no name: no names, or a blank one (Galaxy
    writes ``[Player 2 ""]`` for a player whose account is gone)."""
    return names is None or not names[side].strip()


def shown_names(names: tuple[str, str] | None) -> tuple[str, str]:
    """The names every view shows: the file's, ``player 0``/``player 1`` for a player it
    does not name (see :func:`is_unnamed`)."""
    if names is None:
        return UNNAMED
    first, second = (UNNAMED[side] if is_unnamed(names, side) else names[side]
                     for side in (0, 1))
    return first, second


_OTHER_GAMES = ("hyper", "long", "acey", "gul", "plakoto", "fevga", "nard", "moultezim")
"""What names a variation other than backgammon and nackgammon in a ``Variation`` tag (its
blanks removed, lower case): gnubg's ``HyperGammon (3)``, XG's ``LongGammon`` ..."""


@prebuilt_dataclass
class MatchRecord(FieldMethods):
    """A whole file's match (or money session) as written, plus reader problems.

    ``match_length`` is 0 for money play and None when the file has no length line.
    ``tags`` are header tags in file order. ``problems`` holds syntax problems found while
    reading (the reader is forgiving: it records and carries on).
    """

    format: str
    """The format read: ``mat``, ``sgf``, ``json``, ``xg`` or ``bgf``."""
    match_length: int | None = None
    """The match length in points: 0 for money play, None when the file gives none."""
    length_line: int | None = None
    """The 1-based line that gives the length (None when there is none)."""
    tags: list[tuple[str, str]] = field(default_factory=list)
    """The header tags in file order, ``(name, value)``."""
    comments: list[str] = field(default_factory=list)
    """The free comment lines of the file, in order."""
    games: list[GameRecord] = field(default_factory=list)
    """The games in file order (:class:`GameRecord`)."""
    problems: list[Problem] = field(default_factory=list)
    """What the reader could not read (the reader records a problem and carries on)."""
    extra: dict[str, object] = field(default_factory=dict)
    """What a reader passes through untouched (SGF properties, ratings)."""

    def tag(self, name: str) -> str | None:
        """The value of the first header tag called ``name`` (case-insensitive), or None."""
        wanted = name.lower()
        for key, value in self.tags:
            if key.lower() == wanted:
                return value
        return None

    @property
    def variation(self) -> str:
        """The game played, from the ``Variation`` header tag (eXtreme Gammon's and gnubg's
        ``.mat`` tag, which the SGF and XG readers also set): ``"nackgammon"`` when it names
        nackgammon; the tag as written when it names another game bgtools does not play
        (hypergammon, longgammon, acey-deucey ...); else ``"backgammon"`` (no tag,
        ``Backgammon``, ``Standard``, or a name bgtools does not know: a site's own word for
        backgammon is not worth refusing its file over)."""
        tag = self.tag("Variation")
        if tag is None:
            return "backgammon"
        name = "".join(tag.split()).lower()
        if "nack" in name:
            return "nackgammon"
        if any(other in name for other in _OTHER_GAMES):
            return tag.strip()
        return "backgammon"

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

    @property
    def ratings(self) -> tuple[float | None, float | None]:
        """Each player's rating where the file states one, else None: the header's rating
        tags (SGF ``WR``/``BR`` as ``Rating 1``/``Rating 2``; GNU Backgammon's ``Player 1
        Elo`` ``rating/experience``), the ``Name, rating`` of a score line (FIBS, Galaxy),
        or eXtreme Gammon's Elo fields, in that order for each side."""
        found: list[float | None] = [None, None]
        stated: list[list[object]] = [[], []]
        for side in (0, 1):
            stated[side] += [self.tag(f"Rating {side + 1}"), self.tag(f"Player {side + 1} Elo")]
        for game in self.games:
            pair = game.extra.get("ratings")
            if isinstance(pair, tuple) and len(pair) == 2:
                stated[0].append(pair[0])
                stated[1].append(pair[1])
                break
        xg = self.extra.get("xg")
        if isinstance(xg, dict):
            elo = xg.get("elo")
            if isinstance(elo, (list, tuple)) and len(elo) == 2:
                stated[0].append(elo[0])
                stated[1].append(elo[1])
        for side in (0, 1):
            for value in stated[side]:
                rating = _rating(value)
                if rating is not None:
                    found[side] = rating
                    break
        return found[0], found[1]


_RATING_TEXT = re.compile(r"\s*(-?[0-9]{1,9}(?:[.,][0-9]{1,9})?)")


def _rating(value: object) -> float | None:
    """A rating as a number: a float or int as it is; text by its leading number (``1500.00/0``
    and ``3,00/0`` as GNU Backgammon writes the Elo tag, ``1702``); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        match = _RATING_TEXT.match(value)
        if match is not None:
            return float(match.group(1).replace(",", "."))
    return None
