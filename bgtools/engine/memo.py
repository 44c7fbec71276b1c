"""One bounded memo for the hot paths: a dict that starts afresh when it is full.

The same plays, paths and positions recur across the games of an archive (openings,
replies, copies), so the engine and the replayer remember what they computed; starting
afresh when full keeps memory bounded on an archive of any size, at the cost of one
recomputation per entry dropped.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["BoundedMemo"]

K = TypeVar("K")
V = TypeVar("V")


class BoundedMemo(dict[K, V]):
    """A dict of at most ``limit`` entries: :meth:`remember` clears it when it is full.

    Lookups are the dict's own (``get``, ``in``, ``[]``), as fast as a plain dict's. Keys
    and values must be immutable: callers share them.
    """

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def remember(self, key: K, value: V) -> V:
        """Keep ``value`` under ``key`` (starting afresh when full) and return it."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value
