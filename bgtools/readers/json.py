"""Read bgtools' own JSON match files (``"schema": "bgtools/1"``): one or more match objects.

The codec (what each member means, and the record it decodes to) is
:mod:`bgtools.record.json_codec`; this module finds the objects in a text, locates a bad value by
line and column, and refuses other schema versions and kinds clearly.
"""

from __future__ import annotations

import json
import re

from bgtools.errors import RecordSyntaxError, UnsupportedFormatError
from bgtools.readers.bounds import check_json_values, check_strings
from bgtools.readers.sniff import looks_like_json_match
from bgtools.record import MatchRecord
from bgtools.record.json_codec import (
    KIND,
    SCHEMA,
    InvalidMatchData,
    JsonObject,
    JsonPath,
    JsonValue,
    decode_record,
    json_pointer,
    show_value,
)

__all__ = ["MAX_JSON_DEPTH", "JsonMatchError", "looks_like_json_match", "parse_json"]

MAX_JSON_DEPTH = 64
"""Deepest nesting of arrays and objects read; a match object nests about ten deep."""


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


_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_BRACKET_RE = re.compile(_STRING + r'|[\[{]|[\]}]', re.DOTALL)
_TOKEN_RE = re.compile(_STRING + r'|[\[\]{},:]|[^\s\[\]{},:"]+', re.DOTALL)
_SPACE_RE = re.compile(r"\s*")
_VERSION_RE = re.compile(r"bgtools/([0-9]{1,9})\Z")  # a longer number is no version


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
    object of another schema version or kind, and LimitExceededError for a text that may
hold more than MAX_ELEMENTS values or holds a string longer than MAX_STRING_CHARS.
``source`` names the input in messages.
    """
    text = text.removeprefix("\ufeff")
    decoder = json.JSONDecoder()
    records: list[MatchRecord] = []
    _check_depth(text, source)
    check_json_values(text, source or "<input>")
    pos = _SPACE_RE.match(text, 0).end()  # type: ignore[union-attr]
    value: JsonValue
    while pos < len(text):
        start = pos
        try:
            value, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise JsonMatchError(f"not valid JSON: {exc.msg}", exc.lineno, exc.colno,
                                 source) from None
        except (ValueError, RecursionError) as exc:
            line, col = _line_col(text, start)
            raise JsonMatchError(f"not valid JSON: {exc}", line, col, source) from None
        check_strings(value, source or "<input>")
        nth = f"JSON value {len(records) + 1}" if records else "the JSON value"
        match_object = _check_header(value, nth, source, text, start)
        try:
            records.append(decode_record(match_object))
        except InvalidMatchData as exc:
            line, col = _line_col(text, _value_offset(text, start, exc.path))
            where = json_pointer(exc.path) or "/"
            raise JsonMatchError(f"{where}: {exc.message}", line, col, source) from None
        pos = _SPACE_RE.match(text, pos).end()  # type: ignore[union-attr]
    if not records:
        raise JsonMatchError("no JSON match object (the text is empty)", 1, 1, source)
    return records


def _check_header(data: JsonValue, nth: str, source: str | None, text: str,
                  start: int) -> JsonObject:
    """``data`` if it is a match object of this schema; else the error that says what it is."""
    name = f"{source}: " if source else ""
    line, col = _line_col(text, start)
    if not isinstance(data, dict):
        raise JsonMatchError(f"{nth} is not a JSON object", line, col, source)
    schema = data.get("schema")
    if not isinstance(schema, str):
        found = f"has \"schema\": {show_value(schema)}, not" if "schema" in data else "has no"
        raise JsonMatchError(f"{nth} {found} \"schema\": \"{SCHEMA}\"", line, col, source)
    if schema != SCHEMA:
        version = _VERSION_RE.match(schema)
        if version is not None and int(version.group(1)) > 1:
            raise UnsupportedFormatError(
                f"{name}{nth} uses schema {schema!r}, newer than this bgtools reads "
                f"({SCHEMA}); upgrade bgtools")
        raise UnsupportedFormatError(f"{name}{nth} has schema {show_value(schema)}, not {SCHEMA!r}")
    kind = data.get("kind")
    if kind != KIND:
        what = (f"kind {show_value(kind)}" if "kind" in data
                else "no \"kind\" (a report of a command)")
        raise UnsupportedFormatError(
            f"{name}{nth} is a bgtools JSON object with {what}, not a match "
            f"(\"kind\": \"{KIND}\"); only match objects can be read back")
    return data
