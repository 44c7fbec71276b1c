"""The named limits on input: bgtools refuses what lies beyond them, naming the limit.

Real files stay far below every limit (the shared corpus of about 200 real files: largest
file 0.5 MB, longest ``.mat`` line 153 characters, longest match 25 points, at most 50
games and 2,776 actions in a file). The limits are there so that hostile input costs bounded time and memory.
"""

from __future__ import annotations

__all__ = [
    "MAX_ACTIONS",
    "MAX_DECOMPRESSED_BYTES",
    "MAX_FILE_BYTES",
    "MAX_GAMES",
    "MAX_LINE_CHARS",
    "MAX_MATCH_LENGTH",
    "MAX_PROBLEMS",
    "MAX_SCORE",
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


def format_count(value: int) -> str:
    """``5242880`` -> ``"5,242,880"``: limits and sizes as people read them."""
    return f"{value:,}"
