"""Write bgtools' own JSON match files (``"schema": "bgtools/1"``), optionally with what a
replay derived (canonical plays, results, the final score: the ``derived`` member).

The record's members and their layout are :mod:`bgtools.record.json_codec`'s; this module adds
``derived`` and prints the text: UTF-8, keys in the documented order, indented by two
spaces, every action and event on a line of its own, short containers on one line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import cast

from bgtools.record import MatchRecord
from bgtools.record.json_codec import JsonObject, JsonValue, encode_problem, encode_record
from bgtools.replay import Event, MatchReplay
from bgtools.replay.rules import profile_to_state, stated_profile_name, states_no_crawford

__all__ = ["dumps_file", "dumps_match", "record_to_json"]

_WIDTH = 96  # an array or object whose compact form is at most this long stays on one line


def record_to_json(record: MatchRecord, replay: MatchReplay | None = None,
                   events: Sequence[Event] | None = None) -> JsonObject:
    """The match object of ``record`` (JSON data: dicts, lists, strings, numbers).

    With ``replay`` (the record's :class:`~bgtools.replay.MatchReplay`) a read-only
    ``derived`` member is added: players, final score, winner, per-game results; with
    ``events`` too (the replay's events, from ``replay_match(..., on_event=...)`` or
    ``analyse_file(..., keep_events=True)``) every game also lists its replayed actions with
    the canonical play. Raises TypeError if the record holds a value JSON cannot carry.
    """
    obj = encode_record(record)
    if replay is not None:
        tags = obj["tags"]
        assert isinstance(tags, list)
        if (replay.match_length and not replay.profile.crawford
                and not states_no_crawford(record)):
            # Replayed without the Crawford rule (--rules nocrawford): say so as the .mat
            # writer does, or the file would read back as a Crawford match.
            tags.append(["Crawford", "Off"])
        stated = profile_to_state(record, replay.profile)
        if stated != stated_profile_name(record):
            # Replayed under a profile the copy's site would not pick (--rules galaxy, or
            # eXtreme Gammon's dialect), or not under the one its Rules tag names: say so
            # as the .mat and SGF writers do.
            tags[:] = [t for t in tags if not (isinstance(t, list) and t
                                                and str(t[0]).lower() == "rules")]
            if stated is not None:
                tags.append(["Rules", stated])
        obj["derived"] = _derived(replay, events)
    return obj


def _derived(replay: MatchReplay, events: Sequence[Event] | None) -> JsonObject:
    # The replay's contract fields (action_fields, score_fields) hold JSON data only:
    # strings, numbers, booleans, None and lists of them.
    per_game: dict[int, list[JsonValue]] = {}
    for event in events or ():
        row = cast(JsonObject, event.action_fields())
        per_game.setdefault(event.game, []).append(row)
    games: list[JsonValue] = []
    for summary in replay.games:
        game = cast(JsonObject, summary.score_fields(replay.match_length))
        if events is not None:
            game["events"] = per_game.get(summary.number, [])
        games.append(game)
    return {
        "rules": replay.profile.name,
        "match_length": replay.match_length,
        "players": list(replay.names) if replay.names else None,
        "final_score": list(replay.final_score),
        "winner": replay.winner,
        "complete": replay.complete,
        "valid": replay.valid,
        "problems": [encode_problem(p) for p in replay.problems],
        "games": games,
    }


_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_encode_string: Callable[[str], str] = getattr(json.encoder, "c_encode_basestring", None) or \
    json.encoder.py_encode_basestring


def _string(text: str) -> str:
    out: str = _encode_string(text)
    if _SURROGATE_RE.search(out):  # a lone surrogate cannot be written as UTF-8: escape it
        out = _SURROGATE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", out)
    return out


class _Printer:
    """Writes JSON data in the file layout; each container's compact form is built once."""

    def __init__(self) -> None:
        self.flat: dict[int, str] = {}
        self.out: list[str] = []

    def compact(self, value: JsonValue) -> str:
        """The one-line form of ``value`` (containers' forms are kept by identity)."""
        if isinstance(value, str):
            return _string(value)
        if isinstance(value, (dict, list)):
            known = self.flat.get(id(value))
            if known is None:
                if isinstance(value, dict):
                    known = "{" + ", ".join(f"{_string(k)}: {self.compact(v)}"
                                            for k, v in value.items()) + "}"
                else:
                    known = "[" + ", ".join(self.compact(v) for v in value) + "]"
                self.flat[id(value)] = known
            return known
        if value is None or isinstance(value, bool):
            return "null" if value is None else ("true" if value else "false")
        if isinstance(value, int):
            return int.__repr__(value)
        return json.dumps(value)

    def pretty(self, value: JsonValue, indent: str, one_line_items: bool = False,
               lead: int = 0) -> None:
        """Append ``value``: short containers on one line, others one member a line.
        ``lead`` is the width of what precedes the value on its line after the indent."""
        out = self.out
        flat = self.compact(value)
        if (not isinstance(value, (dict, list)) or not value
                or len(indent) + lead + len(flat) <= _WIDTH):
            out.append(flat)
            return
        inner = indent + "  "
        if isinstance(value, dict):
            out.append("{")
            for i, (key, item) in enumerate(value.items()):
                name = _string(key) + ": "
                out.append(("\n" if i == 0 else ",\n") + inner + name)
                self.pretty(item, inner, key in ("actions", "events"), len(name))
            out.append("\n" + indent + "}")
        else:
            out.append("[")
            for i, item in enumerate(value):
                out.append(("\n" if i == 0 else ",\n") + inner)
                if one_line_items:
                    out.append(self.compact(item))
                else:
                    self.pretty(item, inner)
            out.append("\n" + indent + "]")


def _dumps_object(obj: JsonObject) -> str:
    printer = _Printer()
    printer.pretty(obj, "")
    return "".join(printer.out) + "\n"


def dumps_match(record: MatchRecord, replay: MatchReplay | None = None,
                events: Sequence[Event] | None = None) -> str:
    """The text of ``record``'s match object (see the module docstring for the layout):
    UTF-8-ready text ending in a newline. ``replay``/``events`` as in
    :func:`record_to_json`."""
    return _dumps_object(record_to_json(record, replay, events))


def dumps_file(records: Sequence[MatchRecord], replays: Sequence[MatchReplay] | None = None,
               events: Sequence[Sequence[Event]] | None = None) -> str:
    """The text of a JSON match file holding every record of an input file, one match
    object after another. ``replays`` and ``events``, when given, run parallel to
    ``records`` (``FileResult.replays`` and ``FileResult.events``)."""
    parts = []
    for i, record in enumerate(records):
        replay = replays[i] if replays is not None and i < len(replays) else None
        evs = events[i] if events is not None and i < len(events) else None
        parts.append(dumps_match(record, replay, evs))
    return "".join(parts)


