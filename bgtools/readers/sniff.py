"""What a text file is, from its first bytes: the content tests of format detection.

They live apart from the readers so that detecting a ``.mat`` (the commonest input) does not
import the SGF and JSON readers and the schema they build at import (start-up time).
:mod:`bgtools.readers.sgf` and :mod:`bgtools.readers.json` export them under the same names.
"""

from __future__ import annotations

import re

__all__ = ["looks_like_gnubg_text_export", "looks_like_json_match", "looks_like_sgf"]

_JSON_HEAD_RE = re.compile(r'\A\s*\{')
_SCHEMA_KEY_RE = re.compile(r'"schema"\s*:\s*"bgtools/')
_SGF_HEAD_RE = re.compile(r"\s*\(\s*;")
_GNUBG_TEXT_RE = re.compile(
    r"\A\s*The score \(after \d+ games?\) is: .*?^ *GNU Backgammon +Position ID: ",
    re.MULTILINE | re.DOTALL)


def looks_like_json_match(text: str) -> bool:
    """True when ``text`` starts (after blanks) with ``{`` and names a bgtools schema
    (``"schema": "bgtools/...``) in its first 64 KiB: a bgtools JSON file, though possibly
    of another version or kind, which :func:`bgtools.readers.json.parse_json` then refuses with
    a clear message."""
    head = text[:65536].lstrip("\ufeff")
    return _JSON_HEAD_RE.match(head) is not None and _SCHEMA_KEY_RE.search(head) is not None


def looks_like_sgf(text: str) -> bool:
    """True when ``text`` starts (after a BOM and blanks) like an SGF collection ``(;``."""
    return _SGF_HEAD_RE.match(text[:4096].lstrip("\ufeff")) is not None


def looks_like_gnubg_text_export(text: str) -> bool:
    """True when ``text`` is GNU Backgammon's ``export match text`` (its first line the score,
    ``The score (after N games) is: ...``, then boards headed ``GNU Backgammon  Position ID:``):
    an analysis to read, not a match record."""
    return _GNUBG_TEXT_RE.match(text[:16384].lstrip("\ufeff")) is not None
