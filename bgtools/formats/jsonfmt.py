"""The old home of the JSON match format, kept so that scripts written against it still run.

Its names now live where the data flow puts them: :mod:`bgtools.record_json` (the codec, the
schema), :mod:`bgtools.readers.json` (:func:`parse_json`) and :mod:`bgtools.write.json`
(:func:`dumps_match`, :func:`record_to_json`). Nothing inside bgtools imports this module.
"""

from __future__ import annotations

from bgtools.readers.json import MAX_JSON_DEPTH, JsonMatchError, looks_like_json_match, parse_json
from bgtools.record_json import FORMAT_NAME, KIND, SCHEMA, load_schema, schema_path
from bgtools.write.json import dumps_file, dumps_match, record_to_json

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
