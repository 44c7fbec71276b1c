"""Writer for OGXM, OpenGammon's binary match format, through its reference codec (the
optional package ``ogxm``: ``pip install 'bgtools[ogxm]'``).

The replayed match becomes the codec's JSON projection (the fields
:mod:`bgtools.readers.ogxm` reads) and the codec writes the bytes, with a CRC-32 checksum
(so that the file can be a member of a ``.ogxms`` stream). Written: the players (player 0
White), the match length, the Crawford and Jacoby rules, the variant, and each game's plies
(rolls with their steps, the cube actions, a resignation with its value) and result
(``winner``, ``points_won``). Not written: tags OGXM has no plain field for (event, date,
site, comments), which the JSON format keeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bgtools.engine.results import ResultName, result_level
from bgtools.readers.ogxm import codec, play_order
from bgtools.record import MatchRecord
from bgtools.replay import Event, MatchReplay, replay_match
from bgtools.write.mat import UnwritableRecordError, normalise_match

__all__ = ["ogxm_document", "write_ogxm"]

# The projection's action ids of the cube (see bgtools.readers.ogxm).
_CUBE_ACTIONS = {"double": 21, "take": 22, "drop": 23, "beaver": 32, "raccoon": 33}
_RESIGN = 27
# The first action id of each lower die: a roll's id counts the 21 combinations in order
# (11, 12, ... 16, 22, ... 66).
_FIRST_OF = (0, 6, 11, 15, 18, 20)


def _roll_id(dice: tuple[int, int]) -> int:
    low, high = sorted(dice)
    return _FIRST_OF[low - 1] + high - low


def _colour(player: int) -> int:
    """The projection's colour of ``player``: 1 is White (player 0)."""
    return 1 if player == 0 else 0


def ogxm_document(record: MatchRecord, replay: MatchReplay,
                  events: Sequence[Event]) -> dict[str, Any]:
    """The OGXM JSON projection of ``record`` (replayed as ``replay``, with its ``events``)."""
    script = normalise_match(record, replay, events)  # the rules as the .mat writer states them
    document: dict[str, Any] = {
        "player_white": script.names[0],
        "player_black": script.names[1],
        "match_length": script.stated_length,
        "variant": record.variation,
        "crawford": script.crawford_rule,
        "jacoby": script.jacoby,
        "checksum": "crc32",
    }
    per_game: dict[int, list[Event]] = {}
    for event in events:
        per_game.setdefault(event.game, []).append(event)
    games = []
    for index, summary in enumerate(replay.games):
        plies: list[dict[str, Any]] = []
        for event in per_game.get(summary.number, []):
            ply = _ply(event, summary.result, index)
            if ply:
                plies.append(ply)
        game: dict[str, Any] = {"plies": plies}
        if summary.winner is not None and summary.points is not None:
            game["winner"] = summary.winner  # 0 White, 1 Black
            game["points_won"] = summary.points
        games.append(game)
    document["games"] = games
    return document


def _ply(event: Event, result: ResultName | None, game: int) -> dict[str, Any]:
    """The ply of one event ({} for the winner's acceptance of a resignation, which OGXM
    does not record)."""
    colour = _colour(event.player)
    action = event.action
    if action == "move":
        if event.dice is None:
            raise UnwritableRecordError(f"game {game + 1}: a roll without dice has no OGXM form")
        # No play: dice shown, then a resignation (an empty roll before it).
        steps = () if event.play is None else play_order(event.play.steps, event.dice)
        return {"action_id": _roll_id(event.dice), "color": colour,
                "d1": min(event.dice), "d2": max(event.dice),
                "moves": [{"from": 25 - src if event.player == 0 else src, "pips": src - dst}
                          for src, dst in steps]}
    if action in _CUBE_ACTIONS:
        return {"action_id": _CUBE_ACTIONS[action], "color": colour}
    if action == "resign":
        return {"action_id": _RESIGN, "color": colour,
                "resign_value": result_level(result)}
    return {}


def write_ogxm(record: MatchRecord, replay: MatchReplay | None = None,
               events: Sequence[Event] | None = None) -> bytes:
    """The OGXM bytes of ``record`` (replayed here unless ``replay`` and all its ``events``
    are given). Raises CodecUnavailableError without the ``ogxm`` package."""
    ogxm = codec("OGXM", "writing")
    if replay is None or events is None:
        collected: list[Event] = []
        replay = replay_match(record, on_event=collected.append)
        events = collected
    try:
        written: bytes = ogxm.json_to_binary(ogxm_document(record, replay, events))
    except ogxm.OgxmError as exc:
        raise UnwritableRecordError(f"the OGXM codec refused the match: {exc}") from None
    return written
