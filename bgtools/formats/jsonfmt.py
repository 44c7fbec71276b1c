"""bgtools' own loss-free JSON match format (``"schema": "bgtools/1", "kind": "match"``).

One JSON object holds one :class:`~bgtools.record.MatchRecord` completely: header tags in
order, comments, games with names, score lines and their locations, every action with its
source line and column, the reader's syntax problems, and the ``extra`` data the readers keep
(SGF properties verbatim, ``.mat`` row numbers and markers). Reading it back with
:func:`parse_json` gives a record equal (``==``) to the one written, so a writer can produce
any format from it exactly as from the original file.

The format is described field by field in the JSON Schema shipped with the package
(:func:`schema_path`, ``bgtools/schemas/match-1.schema.json``, draft 2020-12) and in the
README. Layout of the text written by :func:`dumps_match`:

* UTF-8, keys in a fixed documented order, indented by two spaces, ending in a newline;
  every action (and every derived event) on a line of its own, and any other array or
  object whose compact form is short on one line too, so that files diff well.
* An action writes ``kind``, ``player``, ``line`` and ``column`` always and its other fields
  only when they differ from their defaults (the schema gives each default).
* An optional ``derived`` member (from a replay) holds computed data for scripts: canonical
  plays, results, the final score. It is never read back.

A file may hold several match objects one after another (a ``.mat`` file with several
matches); JSON Lines (one compact object per line) is the special case of that.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

from bgtools.errors import RecordSyntaxError, UnsupportedFormatError
from bgtools.record import (
    Action,
    ActionKind,
    GameRecord,
    MatchRecord,
    Problem,
    Severity,
)

if TYPE_CHECKING:
    from bgtools.replay import Event, MatchReplay

__all__ = [
    "FORMAT_NAME",
    "KIND",
    "MAX_JSON_DEPTH",
    "SCHEMA",
    "JsonMatchError",
    "dumps_file",
    "dumps_match",
    "load_schema",
    "looks_like_json_match",
    "parse_json",
    "record_to_json",
    "schema_path",
]

SCHEMA = "bgtools/1"
"""The version tag every bgtools JSON object carries."""

KIND = "match"
"""The ``kind`` of a match object (the contract's report objects have no ``kind``)."""

FORMAT_NAME = "json"
"""The format name of a bgtools JSON match file (``LoadedRecords.format``)."""

MAX_JSON_DEPTH = 64
"""Deepest nesting of arrays and objects read; a match object nests about ten deep."""

_SCHEMA_FILE = "match-1.schema.json"
_KINDS: tuple[str, ...] = get_args(ActionKind)
_SEVERITIES = {s.value: s for s in Severity}
_WIDTH = 96  # an array or object whose compact form is at most this long stays on one line


class JsonMatchError(RecordSyntaxError):
    """A bgtools JSON match text that cannot be read: invalid JSON or a field that breaks
    the schema, with the 1-based line and column of the offending value and, when the
    reader was told it, the file's name."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 source: str | None = None) -> None:
        super().__init__(message, line, column)
        self.source = source

    def __str__(self) -> str:
        where = f"{self.source}: " if self.source else ""
        if self.line is not None:
            where += f"line {self.line}" + (f", column {self.column}" if self.column else "")
            where += ": "
        return where + self.message


# ---------------------------------------------------------------------------------------------
# Value codecs: one small description per value shape, used both ways, so that the JSON read
# back has exactly the Python types written (tuples stay tuples, lists stay lists).
# ---------------------------------------------------------------------------------------------

JsonPath = tuple[str | int, ...]


class _Invalid(Exception):
    """A value that breaks the schema, at ``path`` inside the match object."""

    def __init__(self, path: JsonPath, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def _pointer(path: JsonPath) -> str:
    """``path`` as a JSON Pointer (RFC 6901), ``""`` for the whole object."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


class _Codec:
    """Encode a Python value to JSON data and decode it back, checking its shape."""

    what = "a value"

    def encode(self, value: Any) -> Any:
        raise NotImplementedError

    def decode(self, data: Any, path: JsonPath) -> Any:
        raise NotImplementedError

    def fail(self, data: Any, path: JsonPath) -> _Invalid:
        return _Invalid(path, f"expected {self.what}, found {_show(data)}")


class _Str(_Codec):
    what = "a string"

    def encode(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise TypeError(f"{value!r} is not a string")
        return value

    def decode(self, data: Any, path: JsonPath) -> Any:
        if not isinstance(data, str):
            raise self.fail(data, path)
        return data


class _Int(_Codec):
    def __init__(self, low: int | None = 0, high: int | None = None) -> None:
        self.low = low
        self.high = high
        if high is not None:
            self.what = f"an integer {low} to {high}"
        elif low is not None:
            self.what = f"an integer >= {low}"
        else:
            self.what = "an integer"

    def ok(self, value: Any) -> bool:
        return (isinstance(value, int) and not isinstance(value, bool)
                and (self.low is None or value >= self.low)
                and (self.high is None or value <= self.high))

    def encode(self, value: Any) -> Any:
        if not self.ok(value):
            raise TypeError(f"{value!r} is not {self.what}")
        return value

    def decode(self, data: Any, path: JsonPath) -> Any:
        if isinstance(data, float) and data.is_integer():
            data = int(data)  # JSON Schema counts 2.0 as an integer; so does the reader
        if not self.ok(data):
            raise self.fail(data, path)
        return data


class _Bool(_Codec):
    what = "true or false"

    def encode(self, value: Any) -> Any:
        if not isinstance(value, bool):
            raise TypeError(f"{value!r} is not a bool")
        return value

    def decode(self, data: Any, path: JsonPath) -> Any:
        if not isinstance(data, bool):
            raise self.fail(data, path)
        return data


class _Optional(_Codec):
    def __init__(self, inner: _Codec) -> None:
        self.inner = inner
        self.what = f"{inner.what} or null"

    def encode(self, value: Any) -> Any:
        return None if value is None else self.inner.encode(value)

    def decode(self, data: Any, path: JsonPath) -> Any:
        if data is None:
            return None
        try:
            return self.inner.decode(data, path)
        except _Invalid as exc:
            if exc.path == path:
                raise self.fail(data, path) from None
            raise


class _List(_Codec):
    """A Python list (or, with ``as_tuple``, a tuple of any length) as a JSON array."""

    def __init__(self, item: _Codec, as_tuple: bool = False) -> None:
        self.item = item
        self.as_tuple = as_tuple
        self.what = f"an array of {item.what.removeprefix('a ').removeprefix('an ')}s"

    def encode(self, value: Any) -> Any:
        if not isinstance(value, tuple if self.as_tuple else list):
            raise TypeError(f"{value!r} is not a {'tuple' if self.as_tuple else 'list'}")
        return [self.item.encode(v) for v in value]

    def decode(self, data: Any, path: JsonPath) -> Any:
        if not isinstance(data, list):
            raise self.fail(data, path)
        items = [self.item.decode(v, path + (i,)) for i, v in enumerate(data)]
        return tuple(items) if self.as_tuple else items


class _Tuple(_Codec):
    """A fixed-length Python tuple as a JSON array."""

    def __init__(self, *items: _Codec, what: str | None = None) -> None:
        self.items = items
        self.what = what or "[" + ", ".join(i.what for i in items) + "]"

    def encode(self, value: Any) -> Any:
        if not isinstance(value, tuple) or len(value) != len(self.items):
            raise TypeError(f"{value!r} is not a tuple of {len(self.items)}")
        return [c.encode(v) for c, v in zip(self.items, value)]

    def decode(self, data: Any, path: JsonPath) -> Any:
        if not isinstance(data, list) or len(data) != len(self.items):
            raise self.fail(data, path)
        return tuple(c.decode(v, path + (i,)) for i, (c, v) in enumerate(zip(self.items, data)))


class _Fields(_Codec):
    """A Python dict with a fixed set of keys as a JSON object."""

    def __init__(self, fields: dict[str, _Codec], what: str) -> None:
        self.fields = fields
        self.what = what

    def encode(self, value: Any) -> Any:
        if not isinstance(value, dict) or set(value) != set(self.fields):
            raise TypeError(f"{value!r} does not have the keys {sorted(self.fields)}")
        return {k: c.encode(value[k]) for k, c in self.fields.items()}

    def decode(self, data: Any, path: JsonPath) -> Any:
        if not isinstance(data, dict):
            raise self.fail(data, path)
        for key in data:
            if key not in self.fields:
                raise _Invalid(path + (key,), f"unknown member {key!r}")
        for key in self.fields:
            if key not in data:
                raise _Invalid(path, f"missing member {key!r}")
        return {k: c.decode(data[k], path + (k,)) for k, c in self.fields.items()}


class _Any(_Codec):
    """Any other value a reader may keep in ``extra``: JSON's own types, with tuples written
    as ``{"$tuple": [...]}`` (and a dict whose only key starts with ``$`` as
    ``{"$dict": {...}}``) so that they come back as tuples."""

    what = "a JSON value"

    def encode(self, value: Any) -> Any:
        if value is None or isinstance(value, (str, bool, int)):
            return value
        if isinstance(value, float):
            if not math.isfinite(value):
                raise TypeError(f"{value!r} has no JSON form")
            return value
        if isinstance(value, list):
            return [self.encode(v) for v in value]
        if isinstance(value, tuple):
            return {"$tuple": [self.encode(v) for v in value]}
        if isinstance(value, dict):
            if not all(isinstance(k, str) for k in value):
                raise TypeError(f"{value!r} has keys that are not strings")
            out = {k: self.encode(value[k]) for k in sorted(value)}
            if len(value) == 1 and next(iter(value)).startswith("$"):
                return {"$dict": out}
            return out
        raise TypeError(f"{type(value).__name__} {value!r} has no JSON form")

    def decode(self, data: Any, path: JsonPath) -> Any:
        if isinstance(data, list):
            return [self.decode(v, path + (i,)) for i, v in enumerate(data)]
        if isinstance(data, dict):
            if len(data) == 1:
                key, inner = next(iter(data.items()))
                if key == "$tuple":
                    if not isinstance(inner, list):
                        raise _Invalid(path + (key,), f"expected an array, found {_show(inner)}")
                    return tuple(self.decode(v, path + (key, i)) for i, v in enumerate(inner))
                if key == "$dict":
                    if not isinstance(inner, dict):
                        raise _Invalid(path + (key,), f"expected an object, found {_show(inner)}")
                    return {k: self.decode(v, path + (key, k)) for k, v in inner.items()}
            return {k: self.decode(v, path + (k,)) for k, v in data.items()}
        if isinstance(data, float) and not math.isfinite(data):
            raise _Invalid(path, f"{data} is not a JSON number")
        return data


_STR = _Str()
_BOOL = _Bool()
_COUNT = _Int(0)
_LOCATION = _Optional(_Int(1))
_PLAYER = _Int(0, 1)
_DIE = _Int(1, 6)
_POINT = _Int(0, 25)
_PROPS = _List(_Tuple(_STR, _List(_STR), what="[name, [values]]"))
"""SGF properties of a node in order: ``[("DA", ["..."]), ...]``."""

_MATCH_EXTRA: dict[str, _Codec] = {
    "application": _STR,
    "rules": _List(_STR),
    "sgf_root": _PROPS,
    "set_pos": _List(_Fields({"line": _Int(1), "game": _Optional(_Int(1)), "text": _STR},
                             "an object {line, game, text}")),
}
_GAME_EXTRA: dict[str, _Codec] = {
    "comments": _List(_Tuple(_Int(1), _STR)),
    "crawford_game": _BOOL,
    "ratings": _Tuple(_Optional(_STR), _Optional(_STR)),
    "rules": _List(_STR),
    "setup": _List(_Tuple(_COUNT, _PROPS)),
    "sgf_nodes": _List(_PROPS),
    "sgf_result": _STR,
    "sgf_root": _PROPS,
    "sgf_variations": _COUNT,
}
_ACTION_EXTRA: dict[str, _Codec] = {
    "illegal_text": _STR,
    "marker": _STR,
    "row": _COUNT,
    "sgf_dice_only": _BOOL,
    "sgf_invalid": _BOOL,
    "sgf_node": _COUNT,
    "sgf_props": _PROPS,
}
_ANY = _Any()


def _encode_extra(extra: dict[str, object], known: dict[str, _Codec]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in sorted(extra):
        if not isinstance(key, str):
            raise TypeError(f"extra key {key!r} is not a string")
        codec = known.get(key, _ANY)
        try:
            out[key] = codec.encode(extra[key])
        except TypeError as exc:
            raise TypeError(f"extra[{key!r}]: {exc}") from None
    return out


def _decode_extra(data: Any, path: JsonPath, known: dict[str, _Codec]) -> dict[str, object]:
    if not isinstance(data, dict):
        raise _Invalid(path, f"expected an object, found {_show(data)}")
    return {k: known.get(k, _ANY).decode(v, path + (k,)) for k, v in data.items()}


# ---------------------------------------------------------------------------------------------
# Record <-> JSON data
# ---------------------------------------------------------------------------------------------

_DICE = _Tuple(_DIE, _DIE, what="[die, die] with dice 1-6")
_STEPS = _List(_Tuple(_POINT, _POINT, what="[from, to] with points 0-25"), as_tuple=True)
_PAIR_INTS = _Tuple(_COUNT, _COUNT)
_NAMES = _Tuple(_STR, _STR)
_SCORE_COLUMNS = _Tuple(_LOCATION, _LOCATION)
_TAG = _Tuple(_STR, _STR, what="[name, value]")

# Optional action fields: JSON name, codec, default. Written only when not the default.
_ACTION_OPTIONAL: tuple[tuple[str, _Codec, Any], ...] = (
    ("dice", _DICE, None),
    ("play_text", _STR, ""),
    ("play_column", _Int(1), None),
    ("steps", _STEPS, None),
    ("cube", _COUNT, None),
    ("points", _COUNT, None),
    ("and_the_match", _BOOL, False),
    ("cannot_move", _BOOL, False),
    ("resign_marker", _BOOL, False),
    ("illegal", _BOOL, False),
    ("move", _COUNT, None),
)
_ACTION_KEYS = {"kind", "player", "line", "column", "extra"} | {k for k, _, _ in _ACTION_OPTIONAL}
_GAME_KEYS = ("number", "line", "names", "score", "score_line", "score_columns", "extra",
              "actions")
_MATCH_KEYS = ("schema", "kind", "source_format", "match_length", "length_line", "tags",
               "comments", "extra", "problems", "games")
_PROBLEM_KEYS = ("severity", "rule", "line", "column", "game", "message")


def _action_json(action: Action) -> dict[str, Any]:
    if action.kind not in _KINDS:
        raise TypeError(f"action kind {action.kind!r} is not one of {_KINDS}")
    out: dict[str, Any] = {
        "kind": action.kind,
        "player": _PLAYER.encode(action.player),
        "line": _LOCATION.encode(action.line),
        "column": _LOCATION.encode(action.column),
    }
    for key, codec, default in _ACTION_OPTIONAL:
        value = getattr(action, key)
        if value != default or type(value) is not type(default):
            out[key] = codec.encode(value)
    if action.extra:
        out["extra"] = _encode_extra(action.extra, _ACTION_EXTRA)
    return out


def _game_json(game: GameRecord) -> dict[str, Any]:
    return {
        "number": _Optional(_COUNT).encode(game.number),
        "line": _LOCATION.encode(game.line),
        "names": _Optional(_NAMES).encode(game.names),
        "score": _Optional(_PAIR_INTS).encode(game.score),
        "score_line": _LOCATION.encode(game.score_line),
        "score_columns": _SCORE_COLUMNS.encode(game.score_columns),
        "extra": _encode_extra(game.extra, _GAME_EXTRA),
        "actions": [_action_json(a) for a in game.actions],
    }


def _problem_json(problem: Problem) -> dict[str, Any]:
    return {
        "severity": problem.severity.value,
        "rule": _STR.encode(problem.rule),
        "line": _LOCATION.encode(problem.line),
        "column": _LOCATION.encode(problem.column),
        "game": _LOCATION.encode(problem.game),
        **({"move": _LOCATION.encode(problem.move)} if problem.move is not None else {}),
        "message": _STR.encode(problem.message),
    }


def record_to_json(record: MatchRecord, replay: MatchReplay | None = None,
                   events: Sequence[Event] | None = None) -> dict[str, Any]:
    """The match object of ``record`` (JSON data: dicts, lists, strings, numbers).

    With ``replay`` (the record's :class:`~bgtools.replay.MatchReplay`) a read-only
    ``derived`` member is added: players, final score, winner, per-game results; with
    ``events`` too (the replay's events, from ``replay_match(..., on_event=...)`` or
    ``analyse_file(..., keep_events=True)``) every game also lists its replayed actions with
    the canonical play. Raises TypeError if the record holds a value JSON cannot carry.
    """
    obj: dict[str, Any] = {
        "schema": SCHEMA,
        "kind": KIND,
        "source_format": _STR.encode(record.format),
        "match_length": _Optional(_COUNT).encode(record.match_length),
        "length_line": _LOCATION.encode(record.length_line),
        "tags": [_TAG.encode(t) for t in record.tags],
        "comments": _List(_STR).encode(record.comments),
        "extra": _encode_extra(record.extra, _MATCH_EXTRA),
        "problems": [_problem_json(p) for p in record.problems],
        "games": [_game_json(g) for g in record.games],
    }
    if replay is not None:
        obj["derived"] = _derived(replay, events)
    return obj


def _derived(replay: MatchReplay, events: Sequence[Event] | None) -> dict[str, Any]:
    per_game: dict[int, list[dict[str, Any]]] = {}
    for event in events or ():
        row = event.action_fields()
        per_game.setdefault(event.game, []).append(row)
    games = []
    for summary in replay.games:
        game = summary.score_fields(replay.match_length)
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
        "problems": [_problem_json(p) for p in replay.problems],
        "games": games,
    }


def _check_keys(data: Any, path: JsonPath, required: Sequence[str],
                allowed: set[str] | Sequence[str], what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _Invalid(path, f"expected {what}, found {_show(data)}")
    for key in data:
        if key not in allowed:
            raise _Invalid(path + (key,), f"unknown member {key!r} in {what}")
    for key in required:
        if key not in data:
            raise _Invalid(path, f"{what} has no member {key!r}")
    return data


def _action_from(data: Any, path: JsonPath) -> Action:
    data = _check_keys(data, path, ("kind", "player", "line", "column"), _ACTION_KEYS,
                       "an action")
    kind = data["kind"]
    if kind not in _KINDS:
        raise _Invalid(path + ("kind",), f"expected one of {', '.join(_KINDS)}, found "
                       f"{_show(kind)}")
    action = Action(kind=kind, player=_PLAYER.decode(data["player"], path + ("player",)),
                    line=_LOCATION.decode(data["line"], path + ("line",)),
                    column=_LOCATION.decode(data["column"], path + ("column",)))
    for key, codec, _ in _ACTION_OPTIONAL:
        if key in data:
            setattr(action, key, codec.decode(data[key], path + (key,)))
    if "extra" in data:
        action.extra = _decode_extra(data["extra"], path + ("extra",), _ACTION_EXTRA)
    return action


def _game_from(data: Any, path: JsonPath) -> GameRecord:
    data = _check_keys(data, path, _GAME_KEYS, _GAME_KEYS, "a game")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise _Invalid(path + ("actions",), f"expected an array, found {_show(actions)}")
    return GameRecord(
        number=_Optional(_COUNT).decode(data["number"], path + ("number",)),
        line=_LOCATION.decode(data["line"], path + ("line",)),
        names=_Optional(_NAMES).decode(data["names"], path + ("names",)),
        score=_Optional(_PAIR_INTS).decode(data["score"], path + ("score",)),
        score_line=_LOCATION.decode(data["score_line"], path + ("score_line",)),
        score_columns=_SCORE_COLUMNS.decode(data["score_columns"], path + ("score_columns",)),
        actions=[_action_from(a, path + ("actions", i)) for i, a in enumerate(actions)],
        extra=_decode_extra(data["extra"], path + ("extra",), _GAME_EXTRA),
    )


def _problem_from(data: Any, path: JsonPath) -> Problem:
    data = _check_keys(data, path, _PROBLEM_KEYS, set(_PROBLEM_KEYS) | {"move"}, "a problem")
    severity = data["severity"]
    if not isinstance(severity, str) or severity not in _SEVERITIES:
        raise _Invalid(path + ("severity",), f"expected \"error\" or \"warning\", found "
                       f"{_show(severity)}")
    return Problem(
        rule=_STR.decode(data["rule"], path + ("rule",)),
        message=_STR.decode(data["message"], path + ("message",)),
        line=_LOCATION.decode(data["line"], path + ("line",)),
        column=_LOCATION.decode(data["column"], path + ("column",)),
        game=_LOCATION.decode(data["game"], path + ("game",)),
        severity=_SEVERITIES[severity],
        move=_LOCATION.decode(data.get("move"), path + ("move",)),
    )


def _record_from(data: dict[str, Any]) -> MatchRecord:
    """The record of a match object whose ``schema`` and ``kind`` are already checked."""
    path: JsonPath = ()
    data = _check_keys(data, path, _MATCH_KEYS, set(_MATCH_KEYS) | {"derived"},
                       "a match object")
    if "derived" in data and not isinstance(data["derived"], dict):
        raise _Invalid(("derived",), f"expected an object, found {_show(data['derived'])}")
    for key in ("tags", "problems", "games"):
        if not isinstance(data[key], list):
            raise _Invalid((key,), f"expected an array, found {_show(data[key])}")
    return MatchRecord(
        format=_STR.decode(data["source_format"], ("source_format",)),
        match_length=_Optional(_COUNT).decode(data["match_length"], ("match_length",)),
        length_line=_LOCATION.decode(data["length_line"], ("length_line",)),
        tags=[_TAG.decode(t, ("tags", i))
              for i, t in enumerate(data["tags"])],
        comments=_List(_STR).decode(data["comments"], ("comments",)),
        games=[_game_from(g, ("games", i)) for i, g in enumerate(data["games"])],
        problems=[_problem_from(p, ("problems", i)) for i, p in enumerate(data["problems"])],
        extra=_decode_extra(data["extra"], ("extra",), _MATCH_EXTRA),
    )


# ---------------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------------

_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_encode_string: Any = getattr(json.encoder, "c_encode_basestring", None) or \
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

    def compact(self, value: Any) -> str:
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

    def pretty(self, value: Any, indent: str, one_line_items: bool = False,
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


def _dumps_object(obj: dict[str, Any]) -> str:
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


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------

_HEAD_RE = re.compile(r'\A\s*\{')
_SCHEMA_KEY_RE = re.compile(r'"schema"\s*:\s*"bgtools/')
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_BRACKET_RE = re.compile(_STRING + r'|[\[{]|[\]}]', re.DOTALL)
_TOKEN_RE = re.compile(_STRING + r'|[\[\]{},:]|[^\s\[\]{},:"]+', re.DOTALL)
_SPACE_RE = re.compile(r"\s*")
_VERSION_RE = re.compile(r"bgtools/([0-9]+)\Z")


def looks_like_json_match(text: str) -> bool:
    """True when ``text`` starts (after blanks) with ``{`` and names a bgtools schema
    (``"schema": "bgtools/...``) in its first 64 KiB: a bgtools JSON file, though possibly
    of another version or kind, which :func:`parse_json` then refuses with a clear message."""
    head = text[:65536].lstrip("\ufeff")
    return _HEAD_RE.match(head) is not None and _SCHEMA_KEY_RE.search(head) is not None


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _check_depth(text: str, source: str | None) -> None:
    """Refuse nesting beyond MAX_JSON_DEPTH before ``json`` recurses into it."""
    depth = 0
    for m in _BRACKET_RE.finditer(text):
        c = m.group()[0]
        if c in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                line, col = _line_col(text, m.start())
                raise JsonMatchError(f"arrays and objects nested deeper than {MAX_JSON_DEPTH} "
                                     "(the limit MAX_JSON_DEPTH)", line, col, source)
        elif c in "]}":
            depth -= 1


def _value_offset(text: str, start: int, target: JsonPath) -> int:
    """The offset of the value at ``target`` in the (valid) JSON value starting at
    ``start``; the nearest enclosing value found when the path is not all there."""
    keys: list[str | int] = []
    kinds: list[str] = []  # "{" or "[" per open container
    awaiting_key = False
    best = start
    for m in _TOKEN_RE.finditer(text, start):
        tok = m.group()
        if awaiting_key and tok.startswith('"'):
            keys[-1] = json.loads(tok)
            awaiting_key = False
            continue
        if tok == ":":
            continue
        if tok == ",":
            if kinds[-1] == "{":
                awaiting_key = True
            else:
                index = keys[-1]
                keys[-1] = index + 1 if isinstance(index, int) else 0
            continue
        if tok in "]}":
            keys.pop()
            kinds.pop()
            if not kinds:
                break
            continue
        here = tuple(keys)
        if here == target:
            return m.start()
        if here == target[:len(here)]:
            best = m.start()
        if tok in "[{":
            kinds.append(tok)
            keys.append("" if tok == "{" else 0)
            awaiting_key = tok == "{"
    return best


def parse_json(text: str, source: str | None = None) -> list[MatchRecord]:
    """Read a bgtools JSON match text (one or more match objects one after another) into
    match records, each equal to the record it was written from.

    Raises :class:`JsonMatchError` (a RecordSyntaxError) with the line and column for text
    that is not JSON or breaks the schema, and UnsupportedFormatError for a bgtools JSON
    object of another schema version or kind. ``source`` names the input in messages.
    """
    text = text.removeprefix("\ufeff")
    decoder = json.JSONDecoder()
    records: list[MatchRecord] = []
    _check_depth(text, source)
    pos = _SPACE_RE.match(text, 0).end()  # type: ignore[union-attr]
    while pos < len(text):
        start = pos
        try:
            data, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise JsonMatchError(f"not valid JSON: {exc.msg}", exc.lineno, exc.colno,
                                 source) from None
        except (ValueError, RecursionError) as exc:
            line, col = _line_col(text, start)
            raise JsonMatchError(f"not valid JSON: {exc}", line, col, source) from None
        nth = f"JSON value {len(records) + 1}" if records else "the JSON value"
        _check_header(data, nth, source, text, start)
        try:
            records.append(_record_from(data))
        except _Invalid as exc:
            line, col = _line_col(text, _value_offset(text, start, exc.path))
            where = _pointer(exc.path) or "/"
            raise JsonMatchError(f"{where}: {exc.message}", line, col, source) from None
        pos = _SPACE_RE.match(text, pos).end()  # type: ignore[union-attr]
    if not records:
        raise JsonMatchError("no JSON match object (the text is empty)", 1, 1, source)
    return records


def _check_header(data: Any, nth: str, source: str | None, text: str, start: int) -> None:
    name = f"{source}: " if source else ""
    line, col = _line_col(text, start)
    if not isinstance(data, dict):
        raise JsonMatchError(f"{nth} is not a JSON object", line, col, source)
    schema = data.get("schema")
    if not isinstance(schema, str):
        found = f"has \"schema\": {_show(schema)}, not" if "schema" in data else "has no"
        raise JsonMatchError(f"{nth} {found} \"schema\": \"{SCHEMA}\"", line, col, source)
    if schema != SCHEMA:
        version = _VERSION_RE.match(schema)
        if version is not None and int(version.group(1)) > 1:
            raise UnsupportedFormatError(
                f"{name}{nth} uses schema {schema!r}, newer than this bgtools reads "
                f"({SCHEMA}); upgrade bgtools")
        raise UnsupportedFormatError(f"{name}{nth} has schema {_show(schema)}, not {SCHEMA!r}")
    kind = data.get("kind")
    if kind != KIND:
        what = f"kind {_show(kind)}" if "kind" in data else "no \"kind\" (a report of a command)"
        raise UnsupportedFormatError(
            f"{name}{nth} is a bgtools JSON object with {what}, not a match "
            f"(\"kind\": \"{KIND}\"); only match objects can be read back")


# ---------------------------------------------------------------------------------------------
# The schema file
# ---------------------------------------------------------------------------------------------


def schema_path() -> Path:
    """The path of the JSON Schema (draft 2020-12) of the match object, in the package."""
    return Path(__file__).resolve().parent.parent / "schemas" / _SCHEMA_FILE


def load_schema() -> dict[str, Any]:
    """The JSON Schema of the match object, as data."""
    data: dict[str, Any] = json.loads(schema_path().read_text(encoding="utf-8"))
    return data

