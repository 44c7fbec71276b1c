"""Positions and plays: the documented, immutable face of the rules engine.

Everything here is seen from the player to act (the *mover*): his points are numbered 1..24
in the direction he moves, his bar is 25 and his borne-off tray is 0. The opponent's side is
kept in the opponent's own numbering, so the mover's point ``q`` is the opponent's ``25 - q``.
The rules themselves (a step, the maximal-play rules, move generation, the starting
positions) are the board kernel's, :mod:`bgtools.engine.board`, which :class:`Position`
calls. Nothing in this module knows about files or terminals.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from bgtools.dataclass_methods import FrozenFieldMethods, prebuilt_dataclass
from bgtools.engine import board, ids
from bgtools.engine.board import BAR, CHECKERS, OFF, Step
from bgtools.errors import BgtoolsError, InvalidArgumentError

__all__ = [
    "BAR",
    "OFF",
    "CHECKERS",
    "PositionError",
    "Step",
    "Play",
    "Position",
    "format_play",
    "ParsedId",
    "parse_id",
    "unchecked_position",
    "check_dice",
]


class PositionError(BgtoolsError, ValueError):
    """A position that cannot exist: too many checkers, a shared point, a bad ID (also a
    ``ValueError``, as python-chess's errors of a bad board are)."""


# The classes here are frozen prebuilt dataclasses (see bgtools.dataclass_methods: generating
# their methods with dataclasses costs start-up time).


@prebuilt_dataclass
class Play(FrozenFieldMethods):
    """All the steps of one turn, in the order they are played.

    ``hits[i]`` tells whether step ``i`` hit an opposing blot. An empty play means the
    roll could not be played at all.
    """

    steps: tuple[Step, ...] = ()
    """The steps ``(from, to)`` in the order played, in the mover's numbering (bar 25, off 0);
    empty when no legal play."""
    hits: tuple[bool, ...] = ()
    """For each step, True when it hits a blot."""

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__ and isinstance(other, Play):  # (mypy: narrows)
            return self.steps == other.steps and self.hits == other.hits
        return NotImplemented

    def __hash__(self) -> int:  # type: ignore[override]  # frozen: hashable
        return hash((self.steps, self.hits))

    def __str__(self) -> str:
        return format_play(self.steps, self.hits)

    def __len__(self) -> int:
        return len(self.steps)


def _side(counts: Sequence[int], what: str) -> tuple[int, ...]:
    """Normalise a side given as 26 slots (0 = off) or 25 slots (gnubg layout, 24 = bar)."""
    if len(counts) == 25:
        board = [0, *counts]
    elif len(counts) == 26:
        board = list(counts)
    else:
        raise PositionError(f"{what}: a side has 25 or 26 slots, got {len(counts)}")
    if any((not isinstance(c, int)) or c < 0 for c in board):
        raise PositionError(f"{what}: checker counts must be non-negative integers")
    on_board = sum(board[1:])
    if on_board > CHECKERS:
        raise PositionError(f"{what} has {on_board} checkers; at most {CHECKERS} are allowed")
    board[0] = CHECKERS - on_board
    return tuple(board)


@prebuilt_dataclass
class Position(FrozenFieldMethods):
    """An immutable backgammon position seen from the player to act.

    ``mover[p]`` and ``opponent[p]`` are checker counts on point ``p`` of each player's own
    numbering; index 25 is the bar and index 0 the borne-off checkers (always
    ``15 - checkers on the board``).
    """

    mover: tuple[int, ...]
    """The checkers of the player to act: 26 counts, index 1-24 his points (24: his back point),
    25 the bar, 0 borne off."""
    opponent: tuple[int, ...]
    """The other player's checkers in his own numbering, as :attr:`mover`."""

    def __init__(self, mover: tuple[int, ...], opponent: tuple[int, ...]) -> None:
        checked_mover = _side(mover, "the player on roll")
        checked_opponent = _side(opponent, "the opponent")
        for q in range(1, 25):
            if checked_mover[q] and checked_opponent[25 - q]:
                raise PositionError(f"both players have checkers on the mover's point {q}")
        object.__setattr__(self, "mover", checked_mover)
        object.__setattr__(self, "opponent", checked_opponent)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__ and isinstance(other, Position):  # (mypy: narrows)
            return self.mover == other.mover and self.opponent == other.opponent
        return NotImplemented

    def __hash__(self) -> int:  # type: ignore[override]  # frozen: hashable
        return hash((self.mover, self.opponent))

    # --- construction -------------------------------------------------------------------

    @classmethod
    def initial(cls) -> Position:
        """The starting position (2 on 24, 5 on 13, 3 on 8, 5 on 6 for each player)."""
        return _INITIAL

    @classmethod
    def nackgammon_initial(cls) -> Position:
        """Nackgammon's starting position (2 on 24, 2 on 23, 4 on 13, 3 on 8, 4 on 6 for
        each player): the one variation of backgammon bgtools plays, whose rules are
        backgammon's once the checkers are set up."""
        return _NACKGAMMON_INITIAL

    @classmethod
    def from_points(cls, mover: dict[int, int], opponent: dict[int, int]) -> Position:
        """Build a position from ``{point: count}`` maps in each player's own numbering."""
        sides = []
        for what, points in (("the player on roll", mover), ("the opponent", opponent)):
            side = [0] * 26
            for point, count in points.items():
                if not 1 <= point <= 25:
                    raise PositionError(f"{what}: point {point} is not 1..25")
                side[point] += count
            sides.append(tuple(side))
        return cls(sides[0], sides[1])

    @classmethod
    def from_gnubg(cls, board: Sequence[Sequence[int]]) -> Position:
        """Build from gnubg's ``(side not on roll, side on roll)`` pair of 25-slot lists."""
        if len(board) != 2:
            raise PositionError("a gnubg board is a pair of sides")
        return cls(_side(board[1], "the player on roll"), _side(board[0], "the opponent"))

    @classmethod
    def from_id(cls, text: str) -> Position:
        """Parse a GNU Backgammon Position ID, a GNUbg ID (``pos:match``) or an XGID."""
        return parse_id(text).position

    # --- views --------------------------------------------------------------------------

    def __str__(self) -> str:
        """The ASCII board from the side on roll, as ``bgtools show --ascii`` draws it."""
        from bgtools.engine.diagram import BoardInfo, ascii_diagram

        return ascii_diagram(BoardInfo(self))

    def svg(self, *, size: int = 400, last_play: Play | None = None,
            home: Literal["right", "left"] = "right") -> str:
        """The board as a standalone SVG picture ``size`` pixels wide, the player to act at
        the bottom (``X``), as ``bgtools show --svg`` draws it.

        ``last_play`` is the play that led to this position, the opponent's (in his
        numbering, as :meth:`legal_plays` gave it to him): each of its steps is drawn as an
        arrow. ``home`` is the side of the bottom player's home board: ``right`` (GNU
        Backgammon's orientation) or ``left`` (mirrored).

        >>> start = Position.initial()
        >>> play = start.legal_plays(3, 1)[0]
        >>> start.play(play).svg(last_play=play).count('class="last-play"')
        2
        """
        from bgtools.engine.diagram import BoardInfo, svg_diagram

        steps = last_play.steps if last_play is not None else ()
        return svg_diagram(BoardInfo(self, last_play=steps, last_player="o", home=home),
                           size=size)

    def _repr_svg_(self) -> str:
        """The SVG board, for Jupyter (the IPython display protocol)."""
        return self.svg()

    def to_gnubg(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """gnubg's ``(side not on roll, side on roll)`` layout (25 slots, 24 = bar)."""
        return self.opponent[1:], self.mover[1:]

    @property
    def position_id(self) -> str:
        """GNU Backgammon's Position ID, encoded for the player to act."""
        return ids.encode_position_id(self.opponent[1:], self.mover[1:])

    def xgid(self, state: ids.MatchState | None = None) -> str:
        """eXtreme Gammon's XGID of this position at the match ``state`` (default: money
        play, cube centred, no dice); the player to act is ``state.on_roll``."""
        state = ids.MatchState() if state is None else state
        mover, opponent = self.mover[1:], self.opponent[1:]
        return ids.encode_xgid((mover, opponent) if state.on_roll == 0 else (opponent, mover),
                               state)

    @property
    def pips(self) -> tuple[int, int]:
        """Pip counts ``(mover, opponent)``; a checker on the bar counts 25."""
        return (
            sum(p * c for p, c in enumerate(self.mover)),
            sum(p * c for p, c in enumerate(self.opponent)),
        )

    def swapped(self) -> Position:
        """The same board seen from the other player."""
        return unchecked_position(self.opponent, self.mover)

    @property
    def winner_side(self) -> int | None:
        """``0`` if the mover has borne everything off, ``1`` if the opponent has, else None."""
        if self.mover[0] == CHECKERS:
            return 0
        if self.opponent[0] == CHECKERS:
            return 1
        return None

    def game_value(self) -> int:
        """1, 2 or 3 (single, gammon, backgammon) for a finished game; 0 if not finished."""
        who = self.winner_side
        if who is None:
            return 0
        loser = self.opponent if who == 0 else self.mover
        if loser[0]:
            return 1
        # Loser's points 19-24 are the winner's home board; 25 is his bar.
        if any(loser[19:26]):
            return 3
        return 2

    @property
    def is_game_over(self) -> bool:
        """True when one player has borne off all his checkers."""
        return self.winner_side is not None

    # --- rules ----------------------------------------------------------------------------

    def legal_plays(self, die1: int, die2: int) -> list[Play]:
        """One :class:`Play` per distinct resulting position, under every rule of play.

        With no legal play the list holds one empty Play (the turn passes).
        """
        check_dice(die1, die2)
        return [Play(steps, hits)
                for steps, hits, _, _ in board.generate_plays(self.mover, self.opponent, die1,
                                                              die2)]

    def legal_results(self, die1: int, die2: int) -> dict[Position, Play]:
        """Map every position reachable by a legal play (mover's view, before swapping)."""
        check_dice(die1, die2)
        return {unchecked_position(mover, opponent): Play(steps, hits)
                for steps, hits, mover, opponent in board.generate_plays(
                    self.mover, self.opponent, die1, die2)}

    def play(self, play: Play | Iterable[Step]) -> Position:
        """Apply a play's steps (trusted to be legal) and return the position, opponent to act."""
        steps = play.steps if isinstance(play, Play) else tuple(play)
        me = list(self.mover)
        opp = list(self.opponent)
        for src, dst in steps:
            board.apply_step(me, opp, src, dst)
        return unchecked_position(tuple(opp), tuple(me))

    def apply_steps(self, steps: Iterable[Step]) -> tuple[Position, tuple[bool, ...]]:
        """Apply steps without any check; return the mover's-view result and the hits."""
        me = list(self.mover)
        opp = list(self.opponent)
        hits = tuple(board.apply_step(me, opp, src, dst) for src, dst in steps)
        return unchecked_position(tuple(me), tuple(opp)), hits

    def step_error(self, src: int, dst: int, die: int) -> str | None:
        """Why one step with ``die`` is illegal here, as a rule id; None when it is legal.

        The rule ids are ``no-checker``, ``must-enter-bar``, ``blocked-point``,
        ``bearoff-not-home``, ``bearoff-higher-die`` and ``dice-mismatch``
        (:func:`bgtools.engine.board.step_error`).
        """
        return board.step_error(list(self.mover), list(self.opponent), src, dst, die)


def unchecked_position(mover: tuple[int, ...], opponent: tuple[int, ...]) -> Position:
    """Build a Position from sides that are already normalised (26 slots, index 0 = the
    checkers borne off) without validating them: the hot path of the replayer builds
    positions only from positions it has checked."""
    pos = Position.__new__(Position)
    object.__setattr__(pos, "mover", mover)
    object.__setattr__(pos, "opponent", opponent)
    return pos


def check_dice(die1: int, die2: int) -> None:
    """Refuse a roll that is not two dice 1-6 (:class:`~bgtools.errors.InvalidArgumentError`,
    a ``ValueError``)."""
    if not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise InvalidArgumentError(f"dice must be 1..6, got {die1} and {die2}")


def format_play(steps: Sequence[Step], hits: Sequence[bool] = ()) -> str:
    """Write steps in GNU Backgammon's display notation (``24/18*/13``, ``6/off(2)``).

    Steps are sorted by source (highest first), steps of one checker are joined, a ``*``
    follows a point where a blot was hit, and identical paths collapse into ``path(N)``.
    """
    if not steps:
        return ""
    hit_list = list(hits) if hits else [False] * len(steps)
    order = sorted(range(len(steps)), key=lambda i: (steps[i][0], steps[i][1]), reverse=True)
    chains: list[list[int]] = []  # each chain: points visited
    chain_hits: list[list[bool]] = []  # hit flag per visited point after the first
    for i in order:
        src, dst = steps[i]
        for c, chain in enumerate(chains):
            if chain[-1] == src and src != 0:
                chain.append(dst)
                chain_hits[c].append(hit_list[i])
                break
        else:
            chains.append([src, dst])
            chain_hits.append([hit_list[i]])
    # Identical paths collapse into path(N); compare them without hit marks.
    counts: dict[tuple[int, ...], int] = {}
    merged_marks: dict[tuple[int, ...], list[bool]] = {}
    for chain, marks in zip(chains, chain_hits):
        key = tuple(chain)
        if key in counts:
            counts[key] += 1
            merged_marks[key] = [a or b for a, b in zip(merged_marks[key], marks)]
        else:
            counts[key] = 1
            merged_marks[key] = list(marks)
    out: list[str] = []
    for chain_key, count in counts.items():
        marks = merged_marks[chain_key]
        parts = [board.point_name(chain_key[0])]
        for k, point in enumerate(chain_key[1:]):
            if marks[k]:
                parts.append(board.point_name(point) + "*")
            elif k == len(chain_key) - 2:
                parts.append(board.point_name(point))
        text = "/".join(parts)
        out.append(f"{text}({count})" if count != 1 else text)
    return " ".join(out)


@prebuilt_dataclass
class ParsedId(FrozenFieldMethods):
    """What an ID string says: the position (player to act on roll) and, when the ID
    carries one, the match state (GNUbg ID or XGID)."""

    position: Position
    state: ids.MatchState | None


def parse_id(text: str) -> ParsedId:
    """Parse a Position ID, a GNUbg ID (``pos:match``) or an XGID; raise PositionError."""
    raw = text.strip()
    try:
        if raw.upper().startswith("XGID=") or raw.count(":") >= 8:
            (side0, side1), state = ids.decode_xgid(raw)
            actor = state.on_roll
            sides = (side0, side1)
            return ParsedId(Position(sides[actor], sides[1 - actor]), state)
        if ":" in raw:
            pos_text, match_text = raw.split(":", 1)
            if pos_text.upper().startswith("GNUBGID"):
                raise PositionError(f"{text!r}: write the ID without a 'GNUbgID' label")
            not_on_roll, on_roll = ids.decode_position_id(pos_text)
            return ParsedId(Position(on_roll, not_on_roll), ids.decode_match_id(match_text))
        not_on_roll, on_roll = ids.decode_position_id(raw)
        return ParsedId(Position(on_roll, not_on_roll), None)
    except ids.IdError as exc:
        raise PositionError(str(exc)) from exc


_INITIAL = Position(board.START_SIDE, board.START_SIDE)
_NACKGAMMON_INITIAL = Position(board.NACKGAMMON_SIDE, board.NACKGAMMON_SIDE)
