"""Reader for OGXM, OpenGammon's binary match format: a ``.ogxm`` file (one match) or a
``.ogxms`` stream (complete OGXM files back to back, as match databases publish them).

The bytes are decoded by the format's reference codec, the optional package ``ogxm``
(``pip install 'bgtools[ogxm]'``), into its JSON projection; this module turns that into
match records and holds no copy of the format's framing or rules. Without the package an
OGXM file is recognised (by its ``OGXM`` magic) and refused with one line naming the
package (:class:`CodecUnavailableError`, exit 2).

What is read (the projection's fields): ``player_white`` is player 0 (``Player 1``),
``player_black`` player 1; the match length, the Crawford and Jacoby rules, the variant and
the start time (``EventDate``/``EventTime``, UTC) become tags. Each ply is an action: a
roll (``action_id`` 0-20) with its dice and its exact steps (``from``, ``pips``: one per die;
points counted from White's bar for White, from Black's for Black; ``pips`` the distance
moved), a double, take, drop,
beaver or raccoon, or a resignation; each game's ``winner`` (0 White, 1 Black) and
``points_won`` are its result. The end markers (24-26, 30) repeat the result and are
skipped. A ply bgtools cannot replay (a position or cube set by hand, a settlement) is an
error on the record, never guessed at. ``x-`` annotations and analyses are not read.

Input limits: the file size and the counts of games and actions are those of every reader
(:mod:`bgtools.readers.detect`, counted here member by member so that a stream stops at the
first member past a limit), strings are bounded by MAX_STRING_CHARS
(:func:`bgtools.readers.bounds.check_strings`), and whatever the codec refuses (framing,
checksum, its own security limits) makes the file unreadable, with the codec's reason.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bgtools.errors import LimitExceededError, UnsupportedFormatError
from bgtools.limits import MAX_ACTIONS, MAX_GAMES, format_count
from bgtools.readers.bounds import check_strings
from bgtools.record import Action, ActionKind, GameRecord, MatchRecord, Problem

if TYPE_CHECKING:
    from types import ModuleType

__all__ = ["OGXM_MAGIC", "CodecUnavailableError", "codec", "looks_like_ogxm", "parse_ogxm",
           "play_order", "to_record", "to_records"]

OGXM_MAGIC = b"OGXM"
"""How every OGXM file (and so every stream) begins."""

INSTALL_HINT = "pip install 'bgtools[ogxm]'"

# The projection's action ids (OGXM's ply actions): 0-20 a roll (the 21 dice combinations),
# then the cube, the resignations, the end markers and the plies bgtools does not replay.
_LAST_ROLL = 20
# The cube's plies: the action and what it multiplies the cube by (a double changes nothing
# until it is taken; a beaver takes and redoubles at once).
_CUBE: dict[int, tuple[ActionKind, int]] = {
    21: ("double", 1), 22: ("take", 2), 23: ("drop", 1), 32: ("beaver", 4), 33: ("raccoon", 2)}
_END_MARKERS = frozenset({24, 25, 26, 30})
_RESIGNS = frozenset({27, 28})
_NOT_REPLAYED = {29: "a forfeit", 31: "a position set by hand", 34: "a settlement",
                 36: "a cube set by hand", 37: "a pass"}


class CodecUnavailableError(UnsupportedFormatError):
    """An OGXM file met without the ``ogxm`` package, its reference codec (exit 2)."""


def looks_like_ogxm(data: bytes) -> bool:
    """True when ``data`` starts with the ``OGXM`` magic (a file or a stream)."""
    return data[:4] == OGXM_MAGIC


def codec(name: str = "OGXM", doing: str = "reading") -> ModuleType:
    """The ``ogxm`` package; CodecUnavailableError (naming the input ``name`` and what was
    being done: ``reading``, ``writing``) when it is missing."""
    try:
        import ogxm  # the optional codec
    except ImportError:
        raise CodecUnavailableError(
            f"{name}: {doing} OGXM needs the ogxm package: {INSTALL_HINT}") from None
    module: ModuleType = ogxm
    return module


def parse_ogxm(data: bytes, name: str = "<input>") -> list[MatchRecord]:
    """Read an OGXM file or stream into one match record per member (see the module doc)."""
    ogxm = codec(name)
    games = actions = 0
    records = []
    for document in _documents(ogxm, data, name):
        check_strings(document, name)
        games += len(_list(document.get("games")))
        actions += sum(len(_list(game.get("plies"))) for game in _list(document.get("games"))
                       if isinstance(game, dict))
        if games > MAX_GAMES:
            raise LimitExceededError(
                f"{name} holds more than {format_count(MAX_GAMES)} games; the limit MAX_GAMES "
                f"is {format_count(MAX_GAMES)}", "MAX_GAMES", MAX_GAMES)
        if actions > MAX_ACTIONS:
            raise LimitExceededError(
                f"{name} holds more than {format_count(MAX_ACTIONS)} actions; the limit "
                f"MAX_ACTIONS is {format_count(MAX_ACTIONS)}", "MAX_ACTIONS", MAX_ACTIONS)
        records.append(to_record(document, name))
    if not records:
        raise UnsupportedFormatError(f"{name} is an empty OGXM stream, not a match record")
    return records


def to_records(documents: list[dict[str, Any]], name: str = "<input>") -> list[MatchRecord]:
    """Match records from OGXM JSON projections already decoded."""
    return [to_record(document, name) for document in documents]


def _unreadable(name: str, exc: Exception) -> UnsupportedFormatError:
    reason = " ".join(str(exc).split()) or type(exc).__name__
    return UnsupportedFormatError(f"{name} is not a readable OGXM file: {reason}")


def _documents(ogxm: ModuleType, data: bytes, name: str) -> Iterator[dict[str, Any]]:
    """The JSON projection of every member of ``data``: the members of a stream (OGXM v2
    files back to back, framed and verified by the codec), else the whole file as one
    member (an OGXM v1 file, which has no stream framing)."""
    try:
        members = list(ogxm.iter_stream(io.BytesIO(data)))
    except ogxm.StreamError as exc:
        if exc.offset != 0:
            raise _unreadable(name, exc) from None
        try:
            whole = _projection(ogxm, data)
        except (ogxm.OgxmError, ValueError, TypeError):
            raise _unreadable(name, exc) from None  # the stream's reason: the v2 framing
        yield whole
        return
    except (ogxm.OgxmError, ValueError, OverflowError) as exc:
        raise _unreadable(name, exc) from None
    if len(members) > MAX_GAMES:  # framing is cheap; decoding costs ~0.2 ms a ply
        raise LimitExceededError(
            f"{name} holds {format_count(len(members))} matches; the limit MAX_GAMES is "
            f"{format_count(MAX_GAMES)}", "MAX_GAMES", MAX_GAMES)
    for member in members:  # one at a time: the caller counts the limits in between
        try:
            document = _projection(ogxm, member)
        except (ogxm.OgxmError, ValueError, TypeError) as exc:
            raise _unreadable(name, exc) from None
        yield document


def _projection(ogxm: ModuleType, member: bytes) -> dict[str, Any]:
    document = ogxm.binary_to_json(member)
    if not isinstance(document, dict):
        raise TypeError("the codec gave no match document")
    return document


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _int(value: object, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def to_record(document: dict[str, Any], name: str = "<input>") -> MatchRecord:
    """One match record from an OGXM JSON projection (see the module doc)."""
    record = MatchRecord(format="ogxm")
    length = _int(document.get("match_length"))
    record.match_length = length
    white = _text(document.get("player_white")) or "White"
    black = _text(document.get("player_black")) or "Black"
    tags = record.tags
    tags.append(("Player 1", white))
    tags.append(("Player 2", black))
    event = _text(document.get("event"))
    if event:
        tags.append(("Event", event))
    started = document.get("started_at")
    if isinstance(started, int) and not isinstance(started, bool):
        try:
            moment = datetime.fromtimestamp(started / 1000, UTC)
        except (OverflowError, OSError, ValueError):
            moment = None
        if moment is not None:
            tags.append(("EventDate", moment.strftime("%Y.%m.%d")))
            tags.append(("EventTime", moment.strftime("%H:%M")))
    variant = _text(document.get("variant")) or "backgammon"
    if variant.lower() != "backgammon":
        tags.append(("Variation", variant))
    if length:
        tags.append(("Crawford", "On" if document.get("crawford") else "Off"))
    tags.append(("Jacoby", "On" if document.get("jacoby") else "Off"))
    record.extra["application"] = "OGXM"
    start = document.get("score_start")
    score: tuple[int, int] | None = None
    if isinstance(start, list) and len(start) == 2:
        score = (_int(start[0]), _int(start[1]))
    for index, game in enumerate(_list(document.get("games"))):
        if not isinstance(game, dict):
            continue
        record.games.append(_game(record, game, index, (white, black),
                                  score if index == 0 else None))
    return record


def _game(record: MatchRecord, game: dict[str, Any], index: int, names: tuple[str, str],
          score: tuple[int, int] | None) -> GameRecord:
    """One game of the projection: its plies as actions, then its result."""
    out = GameRecord(number=index + 1, names=names, score=score)
    crawford = game.get("is_crawford")
    if isinstance(crawford, bool):
        out.crawford = crawford
    actions = out.actions
    cube = 1

    def problem(message: str) -> None:
        record.problems.append(Problem("syntax", message, None, None, index + 1,
                                       move=len(actions) + 1))

    if game.get("is_default_board") is False:
        problem("the game starts from a position set up by hand, which bgtools does not "
                "read from OGXM")
    plies = [ply for ply in _list(game.get("plies")) if isinstance(ply, dict)]
    for at, ply in enumerate(plies):
        action = _int(ply.get("action_id"), -1)
        player = 0 if ply.get("color") == 1 else 1  # colour 1 is White, player 0
        if 0 <= action <= _LAST_ROLL:
            d1, d2 = _int(ply.get("d1")), _int(ply.get("d2"))
            steps = _steps(_list(ply.get("moves")), player, (d1, d2))
            if steps is None or not (1 <= d1 <= 6 and 1 <= d2 <= 6):
                problem(f"ply {action}: the dice or the moves are not a roll's")
                break
            if not steps and at + 1 < len(plies) and \
                    _int(plies[at + 1].get("action_id"), -1) in _RESIGNS:
                # Dice shown, then a resignation instead of a play.
                actions.append(Action("roll", player, dice=(d1, d2), dice_only=True,
                                      move=len(actions) + 1))
                continue
            # By position, as the binary readers build a roll: kind, player, line, column,
            # dice, play_text, play_column, steps.
            actions.append(Action("roll", player, None, None, (d1, d2), "", None, steps,
                                  move=len(actions) + 1))
        elif action in _CUBE:
            kind, factor = _CUBE[action]
            cube *= factor
            # A double offers twice the cube; a beaver or raccoon states the cube it makes.
            value = 2 * cube if kind == "double" else cube if kind in ("beaver", "raccoon") \
                else None
            actions.append(Action(kind, player, cube=value, move=len(actions) + 1))
        elif action in _RESIGNS:
            actions.append(Action("resign", player, move=len(actions) + 1))
        elif action in _END_MARKERS:
            continue
        else:
            what = _NOT_REPLAYED.get(action, f"action {action}")
            problem(f"the game holds {what} (OGXM action {action}), which bgtools does not "
                    "replay")
            break
    winner = game.get("winner")
    points = game.get("points_won")
    if winner in (0, 1) and isinstance(points, int) and not isinstance(points, bool):
        actions.append(Action("win", 0 if winner == 0 else 1, points=points,
                              move=len(actions) + 1))
    return out


def _steps(moves: list[Any], player: int, dice: tuple[int, int],
           ) -> tuple[tuple[int, int], ...] | None:
    """The exact steps of a roll in the mover's numbering (bar 25, off 0): White's ``from``
    counts from White's bar (0) up, Black's from Black's bar (25) down, and ``pips`` is the
    distance moved (a bear-off by a larger die moves the checker's own distance); None when
    a move is not one. In :func:`play_order`."""
    steps: list[tuple[int, int]] = []
    for move in moves:
        if not isinstance(move, dict):
            return None
        origin, pips = _int(move.get("from"), -1), _int(move.get("pips"))
        if not (0 <= origin <= 25 and 1 <= pips <= 6):
            return None
        source = 25 - origin if player == 0 else origin
        if source - pips < 0:
            return None
        steps.append((source, source - pips))
    return play_order(steps, dice)


def play_order(steps: Sequence[tuple[int, int]], dice: tuple[int, int],
               ) -> tuple[tuple[int, int], ...]:
    """``steps`` (mover's numbering) in the order OGXM files are read and written: as
    given, except that a bear-off by a die larger than its distance comes after the other
    steps (the highest point first). It is legal only once no checker is left above it, and
    the other steps (which only move checkers down) never need it first, so the play is the
    same set of steps in an order the rules allow, whatever order a producer listed them in.
    """
    exact = [step for step in steps if step[1] != 0 or step[0] in dice]
    beyond = sorted((step for step in steps if step[1] == 0 and step[0] not in dice),
                    reverse=True)
    return (*exact, *beyond)
