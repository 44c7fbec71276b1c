"""The shipped JSON Schema of the bgtools/1 match format, as the tests check objects
against it."""

from __future__ import annotations

from typing import Any

import jsonschema

from bgtools.record.json_codec import load_schema

VALIDATOR = jsonschema.Draft202012Validator(load_schema())
"""A validator of the shipped schema (``bgtools.record.json_codec.load_schema``)."""


def schema_errors(obj: Any) -> list[str]:
    """What the schema finds wrong in ``obj``, one ``where: what`` line each (none: valid)."""
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in VALIDATOR.iter_errors(obj)]
