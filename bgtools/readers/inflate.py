"""Bounded decompression for the binary readers (``.xg``'s zlib streams, ``.bgf``'s gzip
body): never more than a given number of bytes, whatever the file claims.

Inflating dominates reading an ``.xg`` file (its records are 2,560 bytes each, mostly
analysis that must be inflated to be passed over), so the faster zlib-ng implementation is
used when it is installed (the ``zlib-ng`` package, a dependency); the standard library
otherwise. Both
give the same bytes and the same checks.

Where the module has it, the incremental ``_ZlibDecompressor`` (zlib-ng's, as Python
3.12's zlib has: the decompressor ``gzip`` reads with) inflates chunk by chunk
(:class:`InflatedChunks`, ``temp.xg``). Unlike ``decompressobj``, it keeps the compressed
input itself, so a call asking for the next chunk copies nothing (``decompressobj`` hands
back the input left as a new ``unconsumed_tail`` each call), and it writes a chunk into
one buffer instead of growing one by reallocation (docs/development.md has the figures).
The same bytes, bound and Adler-32 check.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from bgtools.errors import BgtoolsError, LimitExceededError
from bgtools.limits import MAX_DECOMPRESSED_BYTES, format_count

__all__ = ["InflatedChunks", "crc32", "inflate_bounded", "inflate_stream"]

_zlib: ModuleType
try:
    from zlib_ng import zlib_ng as _zlib
except ImportError:  # pragma: no cover - the dependency is missing: the standard library
    _zlib = zlib

_ERRORS: tuple[type[Exception], ...] = (zlib.error, _zlib.error)
# None where neither zlib-ng nor the standard library has it (Python 3.11's zlib):
# decompressobj then, which gives the same bytes.
_Decompressor: Any = getattr(_zlib, "_ZlibDecompressor", None) or getattr(
    zlib, "_ZlibDecompressor", None)


def crc32(data: bytes | memoryview) -> int:
    """The CRC-32 of ``data`` (unsigned), as zlib computes it."""
    return int(_zlib.crc32(data)) & 0xFFFFFFFF


class InflatedChunks:
    """The zlib stream ``data`` decompressed ``chunk`` bytes at a time (the last chunk
    shorter), never more than ``limit`` bytes in all; ``complete`` tells, once iterated,
    whether the stream ended cleanly (its Adler-32 checked) within the limit.

    Iterating stops early, without an error, when the stream is corrupt, truncated or
    longer than ``limit``: a caller that finds it incomplete reads the stream again with
    :func:`inflate_bounded`, for the error. A chunk small enough to stay in the
    processor's cache is read quicker than one buffer of the whole output, which is
    written out to memory and read back (and grown block by block while inflating)."""

    def __init__(self, data: bytes, chunk: int, limit: int) -> None:
        self.data = data
        self.chunk = chunk
        self.limit = limit
        self.complete = False

    def __iter__(self) -> Iterator[bytes]:
        """The chunks, in order (see the class)."""
        incremental = _Decompressor is not None
        inflater = _Decompressor(15) if incremental else _zlib.decompressobj(15)
        produced = 0
        pending = self.data
        try:
            while True:
                out = inflater.decompress(pending, min(self.chunk, self.limit + 1 - produced))
                produced += len(out)
                if produced > self.limit:
                    return
                if not out:  # the stream's end read after a full chunk, or no progress
                    self.complete = bool(inflater.eof)
                    return
                yield out
                if inflater.eof:
                    self.complete = True
                    return
                # The incremental decompressor keeps the input it has not read;
                # decompressobj hands it back.
                pending = b"" if incremental else inflater.unconsumed_tail
        except _ERRORS:
            return


_GZIP_WBITS = 31
_GZIP_MINIMUM = 18  # a 10-byte header, an empty deflate block, the 8-byte trailer


def _gzip_size(data: bytes, wbits: int) -> int | None:
    """The size a gzip stream states for its content (its last four bytes, ISIZE: the size
    modulo 2**32), or None for a zlib stream or one too short to hold a gzip trailer."""
    if wbits != _GZIP_WBITS or len(data) < _GZIP_MINIMUM:
        return None
    return int.from_bytes(data[-4:], "little")


def _inflate(data: bytes, limit: int, name: str, what: str, wbits: int) -> tuple[Any, bytes]:
    """The decompressor after one bounded call on ``data``, and what it produced; zlib's
    errors propagate, more than ``limit`` bytes raises LimitExceededError."""
    stated = _gzip_size(data, wbits)
    if stated is not None and stated <= limit and _Decompressor is not None:
        # A gzip body that states its size (a .bgf's) is inflated into one buffer of that
        # size: 3.6 ms against 4.5-5.0 ms for the eight corpus .bgf bodies, best of 50.
        # Taken only when the stream ends there, exactly; anything else (a stream longer
        # or shorter than stated, several members, damage) is inflated again below, for
        # the same bytes or the same error.
        sized = _Decompressor(wbits)
        try:
            out = sized.decompress(data, stated + 1)
        except _ERRORS:
            pass
        else:
            if sized.eof and len(out) == stated:
                return sized, out
    # decompressobj, not the incremental decompressor: in one call for a whole body of
    # unknown size it costs more instructions (~2.7 M more for the eight corpus .bgf
    # bodies) but less time (4.6 ms against 5.9 ms, best of 30), its output grown in
    # blocks.
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
