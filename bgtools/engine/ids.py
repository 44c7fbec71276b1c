"""GNU Backgammon Position ID and Match ID, and eXtreme Gammon's XGID, as pure codecs.

This module sits at the very bottom of bgtools: it knows nothing of positions as objects,
only of *sides* in GNU Backgammon's layout (a sequence of 25 counts, index ``i`` = the
player's point ``i + 1`` in his own numbering, index 24 = his bar) and of the match state
fields packed into a Match ID.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Sequence
from dataclasses import replace
from enum import IntEnum
from itertools import compress

from bgtools.dataclass_methods import FrozenFieldMethods, prebuilt_dataclass
from bgtools.errors import BgtoolsError

__all__ = [
    "IdError",
    "GameState",
    "MatchState",
    "Side",
    "encode_position_id",
    "decode_position_id",
    "encode_match_id",
    "decode_match_id",
    "encode_xgid",
    "decode_xgid",
    "xgid_board",
]

Side = tuple[int, ...]
"""25 checker counts of one player in GNU Backgammon's layout (index 24 is the bar)."""

MAX_MATCH_LENGTH_BITS = 15
_POSITION_ID_RE = re.compile(r"^[A-Za-z0-9+/]{14}$")
_MATCH_ID_RE = re.compile(r"^[A-Za-z0-9+/]{12}$")


class IdError(BgtoolsError, ValueError):
    """A Position ID, Match ID or XGID that cannot be decoded or describes no legal state
    (also a ``ValueError``, as python-chess's errors of a bad FEN are)."""


class GameState(IntEnum):
    """The game-state field of a Match ID."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


def _bits_to_id(bits: list[int], nbytes: int) -> str:
    data = bytearray(nbytes)
    for k, bit in enumerate(bits):
        if bit:
            data[k >> 3] |= 1 << (k & 7)
    return _base64(bytes(data)).rstrip("=")


def _base64(data: bytes) -> str:
    # base64.b64encode is this call; importing base64 costs a start-up more than it does.
    return binascii.b2a_base64(data, newline=False).decode("ascii")


def _id_to_bytes(text: str, nbytes: int, what: str) -> bytes:
    import base64  # reading an ID is rare: its import is paid only then

    padded = text + "=" * (-len(text) % 4)
    try:
        data = base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise IdError(f"{what} {text!r} is not valid Base64") from exc
    if len(data) != nbytes:
        raise IdError(f"{what} {text!r} decodes to {len(data)} bytes, expected {nbytes}")
    return data


def _check_sides(not_on_roll: Sequence[int], on_roll: Sequence[int]) -> None:
    for who, side in (("player not on roll", not_on_roll), ("player on roll", on_roll)):
        if len(side) != 25:
            raise IdError(f"a side has 25 slots, got {len(side)}")
        if any(c < 0 for c in side):
            raise IdError(f"{who} has a negative checker count")
        if sum(side) > 15:
            raise IdError(f"{who} has {sum(side)} checkers; at most 15 are allowed")
    for i in range(24):
        if on_roll[i] and not_on_roll[23 - i]:
            raise IdError(f"both players have checkers on the on-roll player's point {i + 1}")


_SLOTS = range(50)


def encode_position_id(not_on_roll: Sequence[int], on_roll: Sequence[int]) -> str:
    """Return GNU Backgammon's 14-character Position ID of a position.

    ``not_on_roll`` and ``on_roll`` are sides in GNU Backgammon's layout; the side of the
    player *not* on roll is encoded first, exactly as gnubg does.
    """
    # Slot i holds `count` ones then one zero, least significant bit first, so its ones
    # start at bit i + (checkers on the slots before it); only occupied slots are visited
    # (a third or less: the export encodes one ID per action).
    slots = (*not_on_roll, *on_roll)
    key = 0
    before = 0
    for i in compress(_SLOTS, slots):
        count = slots[i]
        key |= ((1 << count) - 1) << (i + before)
        before += count
    return _base64(key.to_bytes(10, "little"))[:14]


def decode_position_id(text: str) -> tuple[Side, Side]:
    """Decode a Position ID into ``(side not on roll, side on roll)`` and check it is legal."""
    text = text.strip()
    if not _POSITION_ID_RE.match(text):
        raise IdError(f"{text!r} is not a Position ID (14 Base64 characters)")
    key = int.from_bytes(_id_to_bytes(text, 10, "Position ID"), "little")
    sides: list[list[int]] = [[0] * 25, [0] * 25]
    side = slot = 0
    for k in range(80):
        if side == 2:
            break
        if (key >> k) & 1:
            sides[side][slot] += 1
        else:
            slot += 1
            if slot == 25:
                side += 1
                slot = 0
    not_on_roll, on_roll = tuple(sides[0]), tuple(sides[1])
    _check_sides(not_on_roll, on_roll)
    return not_on_roll, on_roll


@prebuilt_dataclass
class MatchState(FrozenFieldMethods):
    """Every field of a GNU Backgammon Match ID.

    ``cube_owner`` is ``None`` for a centred cube; ``dice`` is ``None`` before the roll;
    ``resignation`` is 0 (none) or the level offered (1 single, 2 gammon, 3 backgammon).
    """

    match_length: int = 0
    """The match length in points (0: money play)."""
    score: tuple[int, int] = (0, 0)
    """The score ``(player 0, player 1)``."""
    cube_value: int = 1
    """The cube's value (1, 2, 4 ...)."""
    cube_owner: int | None = None
    """The cube's owner (0 or 1), None when centred."""
    on_roll: int = 0
    """The player on roll (0 or 1)."""
    crawford: bool = False
    """True in the Crawford game."""
    game_state: GameState = GameState.PLAYING
    """Whether the game is being played, over, dropped or resigned (:class:`GameState`)."""
    turn: int = 0
    """The player to act now (differs from :attr:`on_roll` while a double awaits its answer)."""
    doubled: bool = False
    """True while a double awaits its answer."""
    resignation: int = 0
    """The resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon."""
    dice: tuple[int, int] | None = None
    """The dice rolled and still to play, or None before the roll."""
    jacoby: bool = False
    """True when the Jacoby rule is on (money play)."""

    def with_(self, **changes: object) -> MatchState:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]


def _cube_log2(value: int) -> int:
    if value < 1 or value & (value - 1):
        raise IdError(f"cube value {value} is not a power of two")
    return value.bit_length() - 1


def encode_match_id(state: MatchState) -> str:
    """Return GNU Backgammon's 12-character Match ID of ``state``, bit-exact.

    Like gnubg, the larger die is stored first whatever order ``state.dice`` has.
    """
    dice = (max(state.dice), min(state.dice)) if state.dice else (0, 0)
    fields: list[tuple[int, int]] = [
        (_cube_log2(state.cube_value), 4),
        (3 if state.cube_owner is None else state.cube_owner, 2),
        (state.on_roll, 1),
        (int(state.crawford), 1),
        (int(state.game_state), 3),
        (state.turn, 1),
        (int(state.doubled), 1),
        (state.resignation, 2),
        (dice[0], 3),
        (dice[1], 3),
        (state.match_length, MAX_MATCH_LENGTH_BITS),
        (state.score[0], 15),
        (state.score[1], 15),
        (0 if state.jacoby else 1, 1),
    ]
    key = 0
    bit = 0
    for value, width in fields:
        if value < 0 or value >= 1 << width:
            raise IdError(f"match state value {value} does not fit in {width} bits")
        key |= value << bit
        bit += width
    return _base64(key.to_bytes(9, "little"))


def decode_match_id(text: str) -> MatchState:
    """Decode a Match ID; raise :class:`IdError` on values gnubg would refuse."""
    text = text.strip()
    if not _MATCH_ID_RE.match(text):
        raise IdError(f"{text!r} is not a Match ID (12 Base64 characters)")
    key = int.from_bytes(_id_to_bytes(text, 9, "Match ID"), "little")
    bit = 0

    def take(width: int) -> int:
        nonlocal bit
        value = (key >> bit) & ((1 << width) - 1)
        bit += width
        return value

    cube_log = take(4)
    owner = take(2)
    on_roll = take(1)
    crawford = bool(take(1))
    game_state = take(3)
    turn = take(1)
    doubled = bool(take(1))
    resignation = take(2)
    die1 = take(3)
    die2 = take(3)
    length = take(15)
    score0 = take(15)
    score1 = take(15)
    no_jacoby = take(1)
    if die1 > 6 or die2 > 6 or (die1 == 0) != (die2 == 0):
        raise IdError(f"Match ID {text!r} has invalid dice {die1}{die2}")
    if owner == 2:
        raise IdError(f"Match ID {text!r} has an invalid cube owner")
    if game_state > 4:
        raise IdError(f"Match ID {text!r} has an invalid game state {game_state}")
    if length > 64:
        raise IdError(f"Match ID {text!r} has match length {length}; at most 64 is allowed")
    if length and (score0 > length or score1 > length):
        raise IdError(f"Match ID {text!r} has a score above the match length")
    if not length and crawford:
        raise IdError(f"Match ID {text!r} sets the Crawford flag in money play")
    return MatchState(
        match_length=length,
        score=(score0, score1),
        cube_value=1 << cube_log,
        cube_owner=None if owner == 3 else owner,
        on_roll=on_roll,
        crawford=crawford,
        game_state=GameState(game_state),
        turn=turn,
        doubled=doubled,
        resignation=resignation,
        dice=(die1, die2) if die1 else None,
        jacoby=not no_jacoby,
    )


_XG_COUNT = "-abcdefghijklmnop"
_XG_TOP = tuple(_XG_COUNT)
_XG_BOTTOM = tuple(_XG_COUNT.upper())


def xgid_board(sides: tuple[Sequence[int], Sequence[int]]) -> str:
    """The position field of an XGID (its 26 characters after ``XGID=``); ``sides`` as for
    :func:`encode_xgid`."""
    top, bottom = sides
    # Point i (1-24, bottom's numbering) is bottom's point i or top's point 25 - i.
    return (_XG_TOP[top[24]]
            + "".join([_XG_BOTTOM[b] if b else _XG_TOP[t]
                       for b, t in zip(bottom[:24], top[23::-1])])
            + _XG_BOTTOM[bottom[24]])


def encode_xgid(sides: tuple[Sequence[int], Sequence[int]], state: MatchState) -> str:
    """Return the XGID of a position and match state.

    ``sides`` is ``(player 0's side, player 1's side)`` in GNU Backgammon's layout (not
    ordered by who is on roll). Player 0 is XG's top player, player 1 the bottom player.
    """
    owner = state.cube_owner
    cube_pos = 0 if owner is None else (1 if owner == 1 else -1)
    doubler = state.on_roll
    turn = 1 if doubler == 1 else -1
    if state.doubled:
        dice = "D"
    elif state.dice:
        dice = f"{state.dice[0]}{state.dice[1]}"
    else:
        dice = "00"
    flag = int(state.crawford) if state.match_length else int(state.jacoby)
    return (
        "XGID="
        + xgid_board(sides)
        + f":{_cube_log2(state.cube_value)}:{cube_pos}:{turn}:{dice}"
        + f":{state.score[1]}:{state.score[0]}:{flag}:{state.match_length}:10"
    )


# Complexity kept: one check per XGID field, in the field order of the format.
_XGID_FIELDS = ("position", "cube", "cube position", "turn", "dice", "score bottom",
                "score top", "Crawford/Jacoby", "match length", "maximum cube")


def decode_xgid(text: str) -> tuple[tuple[Side, Side], MatchState]:  # noqa: C901
    """Decode an XGID into ``((player 0 side, player 1 side), match state)``.

    The mapping is GNU Backgammon's own: the top player is player 0. An XGID has exactly
    ten fields (as XG and gnubg write it; docs/contract.md); the last, the
    maximum cube, must be a number and is otherwise not used (as in gnubg).
    """
    body = text.strip()
    if body.upper().startswith("XGID="):
        body = body[5:]
    fields = body.split(":")
    if len(fields) != len(_XGID_FIELDS):
        # XG and gnubg write all ten; gnubg's reader takes the last nine after the position,
        # so a shorter or longer one would be read with its fields shifted.
        raise IdError(f"XGID {text!r} has {len(fields)} fields; expected "
                      f"{len(_XGID_FIELDS)}: {', '.join(_XGID_FIELDS)}")
    board = fields[0]
    if len(board) != 26:
        raise IdError(f"XGID {text!r}: the position has {len(board)} characters, expected 26")
    top = [0] * 25
    bottom = [0] * 25

    def count(ch: str, upper: bool) -> int:
        low = ch.lower()
        if low not in _XG_COUNT[1:]:
            raise IdError(f"XGID {text!r}: invalid checker character {ch!r}")
        if ch.isupper() != upper:
            raise IdError(f"XGID {text!r}: {ch!r} is on the wrong player's bar")
        return _XG_COUNT.index(low)

    if board[0] != "-":
        top[24] = count(board[0], upper=False)
    if board[25] != "-":
        bottom[24] = count(board[25], upper=True)
    for i in range(1, 25):
        ch = board[i]
        if ch == "-":
            continue
        if ch.isupper():
            bottom[i - 1] = count(ch, upper=True)
        else:
            top[24 - i] = count(ch, upper=False)
    try:
        cube_log = int(fields[1])
        cube_pos = int(fields[2])
        turn = int(fields[3])
        dice_text = fields[4]
        score_bottom = int(fields[5])
        score_top = int(fields[6])
        flag = int(fields[7])
        length = int(fields[8])
        max_cube = int(fields[9])
    except ValueError as exc:
        raise IdError(f"XGID {text!r} has a non-numeric field") from exc
    if max_cube < 0:
        raise IdError(f"XGID {text!r} has a negative maximum cube {max_cube}")
    if not 0 <= cube_log <= 12 or cube_pos not in (-1, 0, 1) or turn not in (-1, 1):
        raise IdError(f"XGID {text!r} has an invalid cube or turn field")
    if not 0 <= length <= 64 or score_bottom < 0 or score_top < 0:
        raise IdError(f"XGID {text!r} has an invalid length or score")
    on_roll = 1 if turn == 1 else 0
    doubled = False
    dice: tuple[int, int] | None = None
    if dice_text.upper() == "D":
        doubled = True
    elif dice_text != "00":
        if len(dice_text) != 2 or not all(c in "123456" for c in dice_text):
            raise IdError(f"XGID {text!r} has invalid dice {dice_text!r}")
        dice = (int(dice_text[0]), int(dice_text[1]))
    _check_sides(tuple(top) if on_roll else tuple(bottom), tuple(bottom) if on_roll else tuple(top))
    state = MatchState(
        match_length=length,
        score=(score_top, score_bottom),
        cube_value=1 << cube_log,
        cube_owner=None if cube_pos == 0 else (1 if cube_pos == 1 else 0),
        on_roll=on_roll,
        crawford=bool(flag & 1) if length else False,
        turn=(1 - on_roll) if doubled else on_roll,
        doubled=doubled,
        dice=dice,
        jacoby=bool(flag & 1) if not length else False,
    )
    return (tuple(top), tuple(bottom)), state
