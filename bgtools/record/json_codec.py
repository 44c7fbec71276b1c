"""The JSON codec of the match record: bgtools' own loss-free JSON match format
(``"schema": "bgtools/1", "kind": "match"``).

One JSON object holds one :class:`~bgtools.record.MatchRecord` completely: header tags in
order, comments, games with names, score lines and their locations, every action with its
source line and column, the reader's syntax problems, and the ``extra`` data the readers keep
(SGF properties verbatim, ``.mat`` row numbers and markers). Decoding it
(:func:`decode_record`; :func:`bgtools.readers.json.parse_json` reads files) gives a record
equal (``==``) to the one written, so a writer can produce any format from it exactly as
from the original file.

The format is described field by field in the JSON Schema shipped with the package
(:func:`schema_path`, ``bgtools/schemas/match-1.schema.json``, draft 2020-12) and in the
manual (docs/contract.md, "The JSON match format"). Layout of the text written by
:func:`bgtools.write.json.dumps_match`:

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
from collections.abc import Sequence
from pathlib import Path
from typing import Generic, Literal, TypeAlias, TypeGuard, TypeVar, cast, get_args, overload

from bgtools.errors import BgtoolsError
from bgtools.record import (
    SCHEMA,
    Action,
    ActionKind,
    GameRecord,
    MatchRecord,
    Problem,
    SetUp,
    Severity,
)
from bgtools.record.sgf import crawford_from_sgf_rules, setup_from_sgf

__all__ = [
    "FORMAT_NAME",
    "KIND",
    "SCHEMA",
    "InvalidMatchData",
    "JsonObject",
    "JsonPath",
    "JsonValue",
    "decode_record",
    "encode_problem",
    "encode_record",
    "json_pointer",
    "load_schema",
    "schema_path",
    "show_value",
]

KIND = "match"
"""The ``kind`` of a match object (the contract's report objects have no ``kind``)."""

FORMAT_NAME = "json"
"""The format name of a bgtools JSON match file (``LoadedRecords.format``)."""

_SCHEMA_FILE = "match-1.schema.json"
_KINDS: tuple[str, ...] = get_args(ActionKind)
_SEVERITIES = {s.value: s for s in Severity}

JsonValue: TypeAlias = (
    bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"] | None
)
"""JSON data as :mod:`json` reads and writes it."""

JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object: a match object, a game, an action, a problem."""

# ---------------------------------------------------------------------------------------------
# Value codecs: one small description per value shape, used both ways, so that the JSON read
# back has exactly the Python types written (tuples stay tuples, lists stay lists).
# ---------------------------------------------------------------------------------------------

JsonPath = tuple[str | int, ...]

_T_co = TypeVar("_T_co", covariant=True)
_A = TypeVar("_A")
_B = TypeVar("_B")
_C = TypeVar("_C")


class InvalidMatchData(BgtoolsError):
    """A value that breaks the schema, at ``path`` inside the match object."""

    def __init__(self, path: JsonPath, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def json_pointer(path: JsonPath) -> str:
    """``path`` as a JSON Pointer (RFC 6901), ``""`` for the whole object."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def show_value(value: object) -> str:
    """``value`` as JSON, cut to 40 characters, for messages."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


class _Codec(Generic[_T_co]):
    """Encode a Python value to JSON data and decode JSON data back to a ``_T_co``, checking
    its shape both ways.

    ``encode`` takes any value and checks it at run time (raising TypeError): a record is only
    as well typed as the reader that built it, and its ``extra`` values are plain objects.
    ``decode`` returns the type it promises or raises :class:`InvalidMatchData`.
    """

    what = "a value"

    def encode(self, value: object) -> JsonValue:
        """The JSON data of ``value``; TypeError when it does not have this codec's shape."""
        raise NotImplementedError

    def decode(self, data: JsonValue, path: JsonPath) -> _T_co:
        """The Python value of ``data`` found at ``path``; InvalidMatchData when it breaks
        the schema."""
        raise NotImplementedError

    def fail(self, data: JsonValue, path: JsonPath) -> InvalidMatchData:
        """The error for ``data`` at ``path``, which is not what this codec reads."""
        return InvalidMatchData(path, f"expected {self.what}, found {show_value(data)}")


class _Str(_Codec[str]):
    what = "a string"

    def encode(self, value: object) -> JsonValue:
        if not isinstance(value, str):
            raise TypeError(f"{value!r} is not a string")
        return value

    def decode(self, data: JsonValue, path: JsonPath) -> str:
        if not isinstance(data, str):
            raise self.fail(data, path)
        return data


class _Int(_Codec[int]):
    def __init__(self, low: int | None = 0, high: int | None = None) -> None:
        self.low = low
        self.high = high
        if high is not None:
            self.what = f"an integer {low} to {high}"
        elif low is not None:
            self.what = f"an integer >= {low}"
        else:
            self.what = "an integer"

    def ok(self, value: object) -> TypeGuard[int]:
        """True when ``value`` is an int (not a bool) within the bounds."""
        return (isinstance(value, int) and not isinstance(value, bool)
                and (self.low is None or value >= self.low)
                and (self.high is None or value <= self.high))

    def encode(self, value: object) -> JsonValue:
        if not self.ok(value):
            raise TypeError(f"{value!r} is not {self.what}")
        return value

    def decode(self, data: JsonValue, path: JsonPath) -> int:
        if isinstance(data, float) and data.is_integer():
            data = int(data)  # JSON Schema counts 2.0 as an integer; so does the reader
        if not self.ok(data):
            raise self.fail(data, path)
        return data


class _Bool(_Codec[bool]):
    what = "true or false"

    def encode(self, value: object) -> JsonValue:
        if not isinstance(value, bool):
            raise TypeError(f"{value!r} is not a bool")
        return value

    def decode(self, data: JsonValue, path: JsonPath) -> bool:
        if not isinstance(data, bool):
            raise self.fail(data, path)
        return data


class _Optional(_Codec[_T_co | None]):
    def __init__(self, inner: _Codec[_T_co]) -> None:
        self.inner = inner
        self.what = f"{inner.what} or null"

    def encode(self, value: object) -> JsonValue:
        return None if value is None else self.inner.encode(value)

    def decode(self, data: JsonValue, path: JsonPath) -> _T_co | None:
        if data is None:
            return None
        try:
            return self.inner.decode(data, path)
        except InvalidMatchData as exc:
            if exc.path == path:
                raise self.fail(data, path) from None
            raise


class _List(_Codec[_T_co]):
    """A Python list (or, with ``as_tuple``, a tuple of any length) as a JSON array."""

    @overload
    def __init__(self: _List[list[_A]], item: _Codec[_A],
                 as_tuple: Literal[False] = False) -> None: ...

    @overload
    def __init__(self: _List[tuple[_A, ...]], item: _Codec[_A],
                 as_tuple: Literal[True]) -> None: ...

    def __init__(self, item: _Codec[object], as_tuple: bool = False) -> None:
        self.item = item
        self.as_tuple = as_tuple
        self.what = f"an array of {item.what.removeprefix('a ').removeprefix('an ')}s"

    def encode(self, value: object) -> JsonValue:
        if not isinstance(value, tuple if self.as_tuple else list):
            raise TypeError(f"{value!r} is not a {'tuple' if self.as_tuple else 'list'}")
        return [self.item.encode(v) for v in value]

    def decode(self, data: JsonValue, path: JsonPath) -> _T_co:
        if not isinstance(data, list):
            raise self.fail(data, path)
        items = [self.item.decode(v, path + (i,)) for i, v in enumerate(data)]
        # The overloads of __init__ tie _T_co to as_tuple: a tuple, else a list, of items.
        return cast(_T_co, tuple(items) if self.as_tuple else items)


class _Tuple(_Codec[_T_co]):
    """A fixed-length Python tuple as a JSON array."""

    @overload
    def __init__(self: _Tuple[tuple[_A, _B]], first: _Codec[_A], second: _Codec[_B], /, *,
                 what: str | None = None) -> None: ...

    @overload
    def __init__(self: _Tuple[tuple[_A, _B, _C]], first: _Codec[_A], second: _Codec[_B],
                 third: _Codec[_C], /, *, what: str | None = None) -> None: ...

    def __init__(self, *items: _Codec[object], what: str | None = None) -> None:
        self.items = items
        self.what = what or "[" + ", ".join(i.what for i in items) + "]"

    def encode(self, value: object) -> JsonValue:
        if not isinstance(value, tuple) or len(value) != len(self.items):
            raise TypeError(f"{value!r} is not a tuple of {len(self.items)}")
        return [c.encode(v) for c, v in zip(self.items, value)]

    def decode(self, data: JsonValue, path: JsonPath) -> _T_co:
        if not isinstance(data, list) or len(data) != len(self.items):
            raise self.fail(data, path)
        # The overloads of __init__ tie _T_co to the items' codecs, in order.
        return cast(_T_co, tuple(c.decode(v, path + (i,))
                                 for i, (c, v) in enumerate(zip(self.items, data))))


class _Fields(_Codec[dict[str, object]]):
    """A Python dict with a fixed set of keys as a JSON object."""

    def __init__(self, fields: dict[str, _Codec[object]], what: str) -> None:
        self.fields = fields
        self.what = what

    def encode(self, value: object) -> JsonValue:
        if not isinstance(value, dict) or set(value) != set(self.fields):
            raise TypeError(f"{value!r} does not have the keys {sorted(self.fields)}")
        return {k: c.encode(value[k]) for k, c in self.fields.items()}

    def decode(self, data: JsonValue, path: JsonPath) -> dict[str, object]:
        if not isinstance(data, dict):
            raise self.fail(data, path)
        for key in data:
            if key not in self.fields:
                raise InvalidMatchData(path + (key,), f"unknown member {key!r}")
        for key in self.fields:
            if key not in data:
                raise InvalidMatchData(path, f"missing member {key!r}")
        return {k: c.decode(data[k], path + (k,)) for k, c in self.fields.items()}


class _Any(_Codec[object]):
    """Any other value a reader may keep in ``extra``: JSON's own types, with tuples written
    as ``{"$tuple": [...]}`` (and a dict whose only key starts with ``$`` as
    ``{"$dict": {...}}``) so that they come back as tuples."""

    what = "a JSON value"

    def encode(self, value: object) -> JsonValue:
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

    def decode(self, data: JsonValue, path: JsonPath) -> object:
        if isinstance(data, list):
            return [self.decode(v, path + (i,)) for i, v in enumerate(data)]
        if isinstance(data, dict):
            if len(data) == 1:
                key, inner = next(iter(data.items()))
                if key == "$tuple":
                    if not isinstance(inner, list):
                        raise InvalidMatchData(path + (key,),
                                               f"expected an array, found {show_value(inner)}")
                    return tuple(self.decode(v, path + (key, i)) for i, v in enumerate(inner))
                if key == "$dict":
                    if not isinstance(inner, dict):
                        raise InvalidMatchData(path + (key,),
                                               f"expected an object, found {show_value(inner)}")
                    return {k: self.decode(v, path + (key, k)) for k, v in inner.items()}
            return {k: self.decode(v, path + (k,)) for k, v in data.items()}
        if isinstance(data, float) and not math.isfinite(data):
            raise InvalidMatchData(path, f"{data} is not a JSON number")
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

_MATCH_EXTRA: dict[str, _Codec[object]] = {
    "application": _STR,
    "rules": _List(_STR),
    "sgf_root": _PROPS,
    "set_pos": _List(_Fields({"line": _Int(1), "game": _Optional(_Int(1)), "text": _STR},
                             "an object {line, game, text}")),
}
_GAME_EXTRA: dict[str, _Codec[object]] = {
    "comments": _List(_Tuple(_Int(1), _STR)),
    "crawford_game": _BOOL,
    "ratings": _Tuple(_Optional(_STR), _Optional(_STR)),
    "rules": _List(_STR),
    "setup": _List(_Tuple(_COUNT, _PROPS)),
    "setup_before": _List(_COUNT),
    "sgf_nodes": _List(_PROPS),
    "sgf_result": _STR,
    "sgf_root": _PROPS,
    "sgf_variations": _COUNT,
}
_ACTION_EXTRA: dict[str, _Codec[object]] = {
    "forfeit": _BOOL,
    "illegal_text": _STR,
    "marker": _STR,
    "row": _COUNT,
    "sgf_dice_only": _BOOL,
    "sgf_invalid": _BOOL,
    "sgf_node": _COUNT,
    "sgf_props": _PROPS,
}
_ANY = _Any()
# The typed fields of the record that the JSON keeps in ``extra`` (the format predates them):
# Action.illegal_text, .dice_only and .forfeit, GameRecord.comments and .setups.


def _action_extra(action: Action) -> dict[str, object]:
    """``action.extra`` with the typed fields the JSON keeps there."""
    extra = dict(action.extra)
    if action.illegal_text is not None:
        extra["illegal_text"] = action.illegal_text
    if action.dice_only:
        extra["sgf_dice_only"] = True
    if action.forfeit:
        extra["forfeit"] = True
    return extra


def _take_action_fields(action: Action) -> None:
    """Move the typed fields the JSON keeps in ``extra`` out of ``action.extra``."""
    extra = action.extra
    if "illegal_text" in extra:
        action.illegal_text = str(extra.pop("illegal_text"))
    if "sgf_dice_only" in extra:
        action.dice_only = bool(extra.pop("sgf_dice_only"))
    if "forfeit" in extra:
        action.forfeit = bool(extra.pop("forfeit"))


def _game_extra(game: GameRecord) -> dict[str, object]:
    """``game.extra`` with the typed fields the JSON keeps there."""
    extra = dict(game.extra)
    if game.comments:
        extra["comments"] = list(game.comments)
    if game.setups:
        extra["setup"] = [(s.node, [(name, list(values)) for name, values in s.properties])
                          for s in game.setups]
        extra["setup_before"] = [s.before for s in game.setups]
        # A node with a located set-up lists all of its set-ups (null for an unknown line or
        # column), so that set-ups of one node take their places in turn.
        nodes = {s.node for s in game.setups if s.line is not None or s.column is not None}
        located = [[s.node, s.line, s.column] for s in game.setups if s.node in nodes]
        if located:
            extra["setup_at"] = located
    return extra


def _take_game_fields(game: GameRecord) -> None:
    """Move the typed fields the JSON keeps in ``extra`` out of ``game.extra``.

    A set-up's place is ``setup_before`` (the number of the action it precedes, one per
    set-up); a file written before that member, or an entry missing from it, places the
    set-up by its SGF node: before the first action of a later node (result actions have
    none). ``setup_at`` locates set-ups by node, in order: set-ups of one node (a binary
    reader's are all node 0) take its entries in turn, null for an unknown line or column.
    """
    extra = game.extra
    crawford_game = extra.get("crawford_game")
    rules = extra.get("rules")
    if isinstance(crawford_game, bool):  # kept in extra too: the JSON writes it from there
        game.crawford = crawford_game
    elif isinstance(rules, list):  # an SGF game's RU
        game.crawford = crawford_from_sgf_rules([r for r in rules if isinstance(r, str)])
    comments = extra.pop("comments", None)
    if isinstance(comments, list):
        game.comments = comments
    kept = extra.pop("setup", None)
    located = extra.pop("setup_at", None)
    stated = extra.pop("setup_before", None)
    if not isinstance(kept, list):
        if stated is not None:
            extra["setup_before"] = stated  # nothing to place: kept as written
        return
    where: dict[int, list[tuple[int | None, int | None]]] = {}
    for item in located if isinstance(located, list) else ():
        if (isinstance(item, (list, tuple)) and len(item) == 3 and isinstance(item[0], int)
                and all(v is None or isinstance(v, int) for v in item[1:])):
            where.setdefault(item[0], []).append((item[1], item[2]))
    befores = stated if isinstance(stated, list) else []
    setups: list[SetUp] = []
    for index, (node, props) in enumerate(kept):
        before = befores[index] if index < len(befores) else _before_node(game, node)
        places = where.get(node)
        line, column = places.pop(0) if places else (None, None)
        setups.append(setup_from_sgf(tuple((name, tuple(values)) for name, values in props),
                                     before=before, node=node, line=line, column=column))
    game.setups = tuple(setups)


def _before_node(game: GameRecord, node: int) -> int:
    """The number of the first action of ``game`` from an SGF node after ``node`` (the
    number of actions when there is none): where a set-up of that node is applied."""
    for index, action in enumerate(game.actions):
        at = action.extra.get("sgf_node")
        if not isinstance(at, int) or at + 1 > node:
            return index
    return len(game.actions)


def _encode_extra(extra: dict[str, object], known: dict[str, _Codec[object]]) -> JsonObject:
    out: JsonObject = {}
    for key in sorted(extra):
        if not isinstance(key, str):
            raise TypeError(f"extra key {key!r} is not a string")
        codec = known.get(key, _ANY)
        try:
            out[key] = codec.encode(extra[key])
        except TypeError as exc:
            raise TypeError(f"extra[{key!r}]: {exc}") from None
    return out


def _decode_extra(data: JsonValue, path: JsonPath,
                  known: dict[str, _Codec[object]]) -> dict[str, object]:
    if not isinstance(data, dict):
        raise InvalidMatchData(path, f"expected an object, found {show_value(data)}")
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
_ACTION_OPTIONAL: tuple[tuple[str, _Codec[object], object], ...] = (
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


def _action_json(action: Action) -> JsonObject:
    if action.kind not in _KINDS:
        raise TypeError(f"action kind {action.kind!r} is not one of {_KINDS}")
    out: JsonObject = {
        "kind": action.kind,
        "player": _PLAYER.encode(action.player),
        "line": _LOCATION.encode(action.line),
        "column": _LOCATION.encode(action.column),
    }
    for key, codec, default in _ACTION_OPTIONAL:
        value = getattr(action, key)
        if value != default or type(value) is not type(default):
            out[key] = codec.encode(value)
    extra = _action_extra(action)
    if extra:
        out["extra"] = _encode_extra(extra, _ACTION_EXTRA)
    return out


def _game_json(game: GameRecord) -> JsonObject:
    return {
        "number": _Optional(_COUNT).encode(game.number),
        "line": _LOCATION.encode(game.line),
        "names": _Optional(_NAMES).encode(game.names),
        "score": _Optional(_PAIR_INTS).encode(game.score),
        "score_line": _LOCATION.encode(game.score_line),
        "score_columns": _SCORE_COLUMNS.encode(game.score_columns),
        "extra": _encode_extra(_game_extra(game), _GAME_EXTRA),
        "actions": [_action_json(a) for a in game.actions],
    }


def encode_problem(problem: Problem) -> JsonObject:
    """The JSON object of a problem (``move`` only when it is located by move)."""
    return {
        "severity": problem.severity.value,
        "rule": _STR.encode(problem.rule),
        "line": _LOCATION.encode(problem.line),
        "column": _LOCATION.encode(problem.column),
        "game": _LOCATION.encode(problem.game),
        **({"move": _LOCATION.encode(problem.move)} if problem.move is not None else {}),
        "message": _STR.encode(problem.message),
    }



def encode_record(record: MatchRecord) -> JsonObject:
    """The match object of ``record`` (JSON data: dicts, lists, strings, numbers).

    Raises TypeError if the record holds a value JSON cannot carry.
    """
    obj: JsonObject = {
        "schema": SCHEMA,
        "kind": KIND,
        "source_format": _STR.encode(record.format),
        "match_length": _Optional(_COUNT).encode(record.match_length),
        "length_line": _LOCATION.encode(record.length_line),
        "tags": [_TAG.encode(t) for t in record.tags],
        "comments": _List(_STR).encode(record.comments),
        "extra": _encode_extra(record.extra, _MATCH_EXTRA),
        "problems": [encode_problem(p) for p in record.problems],
        "games": [_game_json(g) for g in record.games],
    }
    return obj


def _check_keys(data: JsonValue, path: JsonPath, required: Sequence[str],
                allowed: set[str] | Sequence[str], what: str) -> JsonObject:
    if not isinstance(data, dict):
        raise InvalidMatchData(path, f"expected {what}, found {show_value(data)}")
    for key in data:
        if key not in allowed:
            raise InvalidMatchData(path + (key,), f"unknown member {key!r} in {what}")
    for key in required:
        if key not in data:
            raise InvalidMatchData(path, f"{what} has no member {key!r}")
    return data


def _is_kind(value: JsonValue) -> TypeGuard[ActionKind]:
    return value in _KINDS


def _array(data: JsonObject, key: str) -> list[JsonValue]:
    """The array ``data[key]`` of a match object; InvalidMatchData when it is not one."""
    value = data[key]
    if not isinstance(value, list):
        raise InvalidMatchData((key,), f"expected an array, found {show_value(value)}")
    return value


def _action_from(data: JsonValue, path: JsonPath) -> Action:
    data = _check_keys(data, path, ("kind", "player", "line", "column"), _ACTION_KEYS,
                       "an action")
    kind = data["kind"]
    if not _is_kind(kind):
        raise InvalidMatchData(path + ("kind",), f"expected one of {', '.join(_KINDS)}, found "
                       f"{show_value(kind)}")
    action = Action(kind=kind, player=_PLAYER.decode(data["player"], path + ("player",)),
                    line=_LOCATION.decode(data["line"], path + ("line",)),
                    column=_LOCATION.decode(data["column"], path + ("column",)))
    for key, codec, _ in _ACTION_OPTIONAL:
        if key in data:
            setattr(action, key, codec.decode(data[key], path + (key,)))
    if "extra" in data:
        action.extra = _decode_extra(data["extra"], path + ("extra",), _ACTION_EXTRA)
        _take_action_fields(action)
    return action


def _game_from(data: JsonValue, path: JsonPath) -> GameRecord:
    data = _check_keys(data, path, _GAME_KEYS, _GAME_KEYS, "a game")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise InvalidMatchData(path + ("actions",),
                               f"expected an array, found {show_value(actions)}")
    game = GameRecord(
        number=_Optional(_COUNT).decode(data["number"], path + ("number",)),
        line=_LOCATION.decode(data["line"], path + ("line",)),
        names=_Optional(_NAMES).decode(data["names"], path + ("names",)),
        score=_Optional(_PAIR_INTS).decode(data["score"], path + ("score",)),
        score_line=_LOCATION.decode(data["score_line"], path + ("score_line",)),
        score_columns=_SCORE_COLUMNS.decode(data["score_columns"], path + ("score_columns",)),
        actions=[_action_from(a, path + ("actions", i)) for i, a in enumerate(actions)],
        extra=_decode_extra(data["extra"], path + ("extra",), _GAME_EXTRA),
    )
    _take_game_fields(game)
    return game


def _problem_from(data: JsonValue, path: JsonPath) -> Problem:
    data = _check_keys(data, path, _PROBLEM_KEYS, set(_PROBLEM_KEYS) | {"move"}, "a problem")
    severity = data["severity"]
    if not isinstance(severity, str) or severity not in _SEVERITIES:
        raise InvalidMatchData(path + ("severity",), f"expected \"error\" or \"warning\", found "
                       f"{show_value(severity)}")
    return Problem(
        rule=_STR.decode(data["rule"], path + ("rule",)),
        message=_STR.decode(data["message"], path + ("message",)),
        line=_LOCATION.decode(data["line"], path + ("line",)),
        column=_LOCATION.decode(data["column"], path + ("column",)),
        game=_LOCATION.decode(data["game"], path + ("game",)),
        severity=_SEVERITIES[severity],
        move=_LOCATION.decode(data.get("move"), path + ("move",)),
    )


def decode_record(data: JsonObject) -> MatchRecord:
    """The record of a match object whose ``schema`` and ``kind`` are already checked.

    Raises :class:`InvalidMatchData` (with the JSON path) for a value that breaks the schema.
    """
    path: JsonPath = ()
    data = _check_keys(data, path, _MATCH_KEYS, set(_MATCH_KEYS) | {"derived"},
                       "a match object")
    if "derived" in data and not isinstance(data["derived"], dict):
        raise InvalidMatchData(("derived",),
                               f"expected an object, found {show_value(data['derived'])}")
    tags, problems, games = (_array(data, key) for key in ("tags", "problems", "games"))
    return MatchRecord(
        format=_STR.decode(data["source_format"], ("source_format",)),
        match_length=_Optional(_COUNT).decode(data["match_length"], ("match_length",)),
        length_line=_LOCATION.decode(data["length_line"], ("length_line",)),
        tags=[_TAG.decode(t, ("tags", i))
              for i, t in enumerate(tags)],
        comments=_List(_STR).decode(data["comments"], ("comments",)),
        games=[_game_from(g, ("games", i)) for i, g in enumerate(games)],
        problems=[_problem_from(p, ("problems", i)) for i, p in enumerate(problems)],
        extra=_decode_extra(data["extra"], ("extra",), _MATCH_EXTRA),
    )


# ---------------------------------------------------------------------------------------------
# The schema file
# ---------------------------------------------------------------------------------------------


def schema_path() -> Path:
    """The path of the JSON Schema (draft 2020-12) of the match object, in the package."""
    return Path(__file__).resolve().parents[1] / "schemas" / _SCHEMA_FILE


def load_schema() -> JsonObject:
    """The JSON Schema of the match object, as data."""
    data: JsonObject = json.loads(schema_path().read_text(encoding="utf-8"))
    return data

