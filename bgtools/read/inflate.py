"""Bounded decompression for the binary readers (``.xg``'s zlib streams, ``.bgf``'s gzip
body): never more than a given number of bytes, whatever the file claims.

Inflating dominates reading an ``.xg`` file (its records are 2,560 bytes each, mostly
analysis that must be inflated to be passed over), so the faster zlib-ng implementation is
used when it is installed (the ``zlib-ng`` package, a dependency: about six times the
speed of the standard library's zlib on the corpus); the standard library otherwise. Both
give the same bytes and the same checks.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from bgtools.errors import BgtoolsError, LimitExceededError
from bgtools.limits import MAX_DECOMPRESSED_BYTES, format_count

__all__ = ["crc32", "inflate_bounded", "inflate_stream"]

_zlib: ModuleType
try:
    from zlib_ng import zlib_ng as _zlib
except ImportError:  # pragma: no cover - the dependency is missing: the standard library
    _zlib = zlib

_ERRORS: tuple[type[Exception], ...] = (zlib.error, _zlib.error)


def crc32(data: bytes) -> int:
    """The CRC-32 of ``data`` (unsigned), as zlib computes it."""
    return int(_zlib.crc32(data)) & 0xFFFFFFFF


def _inflate(data: bytes, limit: int, name: str, what: str, wbits: int) -> tuple[Any, bytes]:
    """The decompressor after one bounded call on ``data``, and what it produced; zlib's
    errors propagate, more than ``limit`` bytes raises LimitExceededError."""
    inflater = _zlib.decompressobj(wbits)
    out = inflater.decompress(data, limit + 1)
    if len(out) > limit:
        raise LimitExceededError(
            f"{name}: {what} decompresses to more than {format_count(limit)} bytes; the limit "
            f"MAX_DECOMPRESSED_BYTES is {format_count(MAX_DECOMPRESSED_BYTES)}",
            "MAX_DECOMPRESSED_BYTES", MAX_DECOMPRESSED_BYTES)
    return inflater, bytes(out)


def inflate_stream(data: bytes, limit: int, name: str, what: str,
                   wbits: int = 15) -> tuple[bytes, bytes] | None:
    """The decompressed stream at the start of ``data`` and the bytes after it, or None
    when ``data`` does not hold a whole stream (corrupt or truncated). More than ``limit``
    bytes (at most MAX_DECOMPRESSED_BYTES) raises LimitExceededError, ``what`` naming the
    stream."""
    try:
        inflater, out = _inflate(data, limit, name, what, wbits)
    except _ERRORS:
        return None
    if not inflater.eof:
        return None
    return out, bytes(inflater.unused_data)


def inflate_bounded(data: bytes, limit: int, name: str, what: str,
                    bad: Callable[[str], BgtoolsError], wbits: int = 15) -> bytes:
    """Decompress one zlib (``wbits`` 15) or gzip (31) stream of ``data``, never producing
    more than ``limit`` bytes (at most MAX_DECOMPRESSED_BYTES).

    A corrupt or truncated stream raises ``bad(reason)`` (the reader's own "not a readable
    file" error, ``what`` naming the stream in the reason); more than ``limit`` bytes raises
    LimitExceededError naming MAX_DECOMPRESSED_BYTES.
    """
    try:
        inflater, out = _inflate(data, limit, name, what, wbits)
    except _ERRORS as exc:
        raise bad(f"{what} is corrupt ({exc})") from None
    if not inflater.eof:
        raise bad(f"{what} is truncated")
    return out
