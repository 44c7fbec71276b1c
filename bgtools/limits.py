"""The named limits on input: bgtools refuses what lies beyond them, naming the limit.

Real files stay far below every limit (the shared corpus of about 200 real files: largest
file 0.5 MB, longest ``.mat`` line 153 characters, longest match 25 points, at most 50
games and 2,776 actions in a file). The limits are there so that hostile input costs bounded
time and memory.
"""

from __future__ import annotations

__all__ = [
    "MAX_ACTIONS",
    "MAX_DECOMPRESSED_BYTES",
    "MAX_ELEMENTS",
    "MAX_FILE_BYTES",
    "MAX_GAMES",
    "MAX_LINE_CHARS",
    "MAX_MATCH_LENGTH",
    "MAX_NAME_CHARS",
    "MAX_NODES",
    "MAX_NUMBER_DIGITS",
    "MAX_PROBLEMS",
    "MAX_SCORE",
    "MAX_STRING_CHARS",
]

MAX_FILE_BYTES = 16 * 1024 * 1024
"""Largest input file read, in bytes (checked with ``stat`` before reading)."""

MAX_DECOMPRESSED_BYTES = 4 * MAX_FILE_BYTES
"""Most bytes a compressed binary record (``.xg``, ``.bgf``) may decompress to. An ``.xg``
holds 2,560 bytes per action (the real ones decompress about 11 to 1, the largest to 1.2 MB),
so this is about 26,000 actions; a zlib bomb stops here instead of filling memory."""

MAX_LINE_CHARS = 2000
"""Longest ``.mat`` line read, in characters; a longer line is reported and skipped."""

MAX_MATCH_LENGTH = 999
"""Longest match accepted, in points (GNU Backgammon itself stops at 64)."""

MAX_PROBLEMS = 200
"""Syntax problems reported per record before a text reader stops listing them."""

MAX_GAMES = 10_000
"""Most games in one file (money sessions can hold hundreds)."""

MAX_ACTIONS = 100_000
"""Most actions (rolls, cube actions, results) in one file; the largest real file has 2,776.
Replaying is about 0.1 ms per action, so this bounds the time any file can take."""

MAX_SCORE = 32_767
"""Largest score on a score line: the widest value a Match ID can hold (15 bits)."""


MAX_STRING_CHARS = 65_536
"""Longest string field read (a comment, an SGF property value, a string of a ``.bgf`` or
JSON document), in characters: far beyond any real annotation (the longest in the corpus
has 259), and small enough that a file of them stays within memory bounded by its size."""

MAX_NAME_CHARS = 900
"""Longest player name or header tag value of a record, in characters, checked on every
record whatever its format (a name is drawn on every board and in every frame of a page).
Two names stay within one ``.mat`` line (:data:`MAX_LINE_CHARS`), so every match bgtools
reads it can also write as a ``.mat`` it reads back."""

MAX_ELEMENTS = 1_000_000
"""Most values (array elements, object members, arrays and objects) decoded from one
``.bgf`` or JSON document; the largest real ``.bgf`` builds about 5,300 and the largest
JSON match 4,500. Analysis that is read past is not counted (nothing of it is built)."""

MAX_NODES = 500_000
"""Most SGF nodes and game trees (each ``;`` and ``(``) in one file, counted while parsing
(a node holds at most one action: five times :data:`MAX_ACTIONS`, for the nodes and trees
that hold none). The largest real file has about 3,000."""

MAX_NUMBER_DIGITS = 100
"""Longest integer read from a binary document (a Smile big integer), in decimal digits:
far beyond any count in a match file, and far below the 4,300 digits at which Python
refuses to turn an int into text."""


def format_count(value: int) -> str:
    """``5242880`` -> ``"5,242,880"``: limits and sizes as people read them."""
    return f"{value:,}"
