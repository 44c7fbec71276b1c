"""Bounded decompression for the binary readers (``.xg``'s zlib streams, ``.bgf``'s gzip
body): never more than a given number of bytes, whatever the file claims."""

from __future__ import annotations

import zlib
from collections.abc import Callable

from bgtools.errors import BgtoolsError, LimitExceededError
from bgtools.limits import MAX_DECOMPRESSED_BYTES, format_count

__all__ = ["inflate_bounded"]


def inflate_bounded(data: bytes, limit: int, name: str, what: str,
                    bad: Callable[[str], BgtoolsError], wbits: int = 15) -> bytes:
    """Decompress one zlib (``wbits`` 15) or gzip (31) stream of ``data``, never producing
    more than ``limit`` bytes (at most MAX_DECOMPRESSED_BYTES).

    A corrupt or truncated stream raises ``bad(reason)`` (the reader's own "not a readable
    file" error, ``what`` naming the stream in the reason); more than ``limit`` bytes raises
    LimitExceededError naming MAX_DECOMPRESSED_BYTES.
    """
    inflater = zlib.decompressobj(wbits)
    try:
        out = inflater.decompress(data, limit + 1)
    except zlib.error as exc:
        raise bad(f"{what} is corrupt ({exc})") from None
    if len(out) > limit:
        raise LimitExceededError(
            f"{name}: {what} decompresses to more than {format_count(limit)} bytes; the limit "
            f"MAX_DECOMPRESSED_BYTES is {format_count(MAX_DECOMPRESSED_BYTES)}",
            "MAX_DECOMPRESSED_BYTES", MAX_DECOMPRESSED_BYTES)
    if not inflater.eof:
        raise bad(f"{what} is truncated")
    return out
