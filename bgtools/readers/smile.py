"""A small decoder of Smile, the binary JSON of the Jackson project (BGBlitz ``.bgf`` bodies).

Written from the Smile format specification (version 1.0): a ``:)\\n`` header with a
version/flags byte, then one value. Supported: every value token (shared and literal
strings, small/32/64-bit/big integers, float, double, big decimal, arrays, objects, 7-bit
binary) and every key token, with the shared-name and shared-value tables (1,024 entries,
reset when full). Raw (unescaped) binary is refused.

:func:`decode_smile` raises :class:`SmileError` (a ``ValueError``) on any malformed input:
truncation, an unknown token, a back reference to a string never seen, a string that is
not UTF-8, nesting deeper than :data:`MAX_DEPTH`; and :class:`SmileLimitError` (one of
them) on a document beyond a limit of :mod:`bgtools.limits`: more values than
:data:`~bgtools.limits.MAX_ELEMENTS`, a string or binary value built longer than
:data:`~bgtools.limits.MAX_STRING_CHARS`, a big integer or decimal longer than
:data:`~bgtools.limits.MAX_NUMBER_DIGITS`. It never recurses, so hostile input cannot
exhaust the stack, and its time is linear in the size of the data (the 7-bit groups of a
binary value or big number read past are checked in one pass, not decoded; one that is
built is bounded by its limit first). Inside a skipped member (BGBlitz's analysis), the
content of a string value is passed over by its length (to its end marker, for a long
string) and not decoded, since nothing reads it; every token is still checked, and names
are decoded (they enter the shared-name table).
"""

from __future__ import annotations

import operator
import re
import struct
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Final

from bgtools.errors import BgtoolsError
from bgtools.limits import MAX_ELEMENTS, MAX_NUMBER_DIGITS, MAX_STRING_CHARS, format_count

if TYPE_CHECKING:  # pragma: no cover
    # mypyc compiles an i64 to a C int64_t (the plain skip's byte loop). Only annotations
    # name it, which are never evaluated: mypy_extensions is not a run-time dependency.
    from mypy_extensions import i64

__all__ = ["FAST_AFTER", "MAX_DEPTH", "SMILE_MAGIC", "SmileError", "SmileLimitError",
           "decode_smile"]

SMILE_MAGIC = b":)\n"
"""The first three bytes of a Smile document."""

MAX_DEPTH = 200
"""Deepest nesting of arrays and objects accepted."""

_TABLE = 1024
_SHARED_MAX = 64  # strings up to 64 bytes go into the shared tables


def _token_sizes() -> tuple[int, ...]:
    """Bytes taken by each value token of a fixed size that needs no check and touches no
    table (0: any other token): the literals and the small ints. Strings (passed over by
    their length), floats and doubles (7-bit groups) and VInts (at most 20 bytes) are read
    with the token loop's checks, so that every skip finds a value malformed alike."""
    sizes = [0] * 256
    for token in (0x20, 0x21, 0x22, 0x23, *range(0xC0, 0xE0)):
        sizes[token] = 1
    return tuple(sizes)


_SIZES = _token_sizes()
_SMALL = tuple((n >> 1) ^ -(n & 1) for n in range(32))  # the small ints 0xC0-0xDF, zigzag

FAST_AFTER = 8
"""Skipped values read at one size of the shared-name table before the fast skip (a
regular expression) is compiled for that size; the plain token loop reads them until then."""

_FAST_DEPTH = 3  # objects nested in a skipped value (BGBlitz analysis: 3) the pattern walks
_FAST_COMPILES = 3  # fast-skip patterns one document may compile (each costs ~8 ms)
_FAST_KEPT = 8  # fast-skip patterns kept for the process
_FAST_WORTH = 160_000  # bytes left to read for which a compile (~30 M instructions) pays
_FAST_SLACK = 8  # a pattern for a table of N names serves tables of N to N + 8 names


def _byte(value: int) -> bytes:
    return re.escape(bytes([value]))


def _byte_range(low: int, high: int) -> bytes:
    return b"[" + _byte(low) + b"-" + _byte(high) + b"]"


def _skip_pattern(names: int) -> bytes:
    """A regular expression matching exactly the values the token loop of
    :meth:`_Decoder._skip` reads past without touching any table or failing, when the
    shared-name table holds ``names`` names and string values are not shared: literals,
    small ints, 32/64-bit ints (VInts of at most 20 bytes), 7-bit floats and doubles,
    tiny ASCII strings (any content, passed over by length as the token loop passes it),
    arrays of literals and ints, and objects (nested up to ``_FAST_DEPTH``) whose keys
    are back references to names already defined. Anything else (a new name, a reference
    out of the table, another string token, truncated data) does not match, and the token
    loop reads the value instead, with its checks."""
    seven = b"[\\x00-\\x7f]"
    vint = seven + b"{0,19}[\\x80-\\xff]"
    simple = b"[\\x20-\\x23\\xc0-\\xdf]|[\\x24\\x25]" + vint
    lengths = (10, 11, 9, 12, *range(1, 9), *range(13, 33))  # the commonest first
    strings = b"|".join(_byte(0x3F + n) + b"[\\x00-\\xff]{%d}" % n for n in lengths)
    scalar = b"|".join((simple, strings, b"\\x28" + seven + b"{5}",
                        b"\\x29" + seven + b"{10}"))
    array = b"\\xf8(?:" + simple + b")*+\\xf9"
    refs = [_byte_range(0x40, 0x40 + min(names, 64) - 1)] if names else []
    refs.extend(_byte(0x30 + high) + _byte_range(0, min(names - high * 256, 256) - 1)
                for high in range(4) if names > high * 256)
    value = b"(?:" + scalar + b"|" + array + b")"
    if refs:
        key = b"(?:" + b"|".join(refs) + b")"
        for _ in range(_FAST_DEPTH):
            value = b"(?:" + scalar + b"|" + array + b"|\\xfa(?:" + key + value + b")*+\\xfb)"
    return value


_fast_patterns: dict[int, re.Pattern[bytes]] = {}


def _signature_table() -> bytes:
    """The translation giving a skipped value's signature: each byte stands for its class,
    where a class holds the bytes that a value of the same layout may hold in its place
    (the digits, sign and point of number strings, the literals null/false/true, the
    small ints, the last bytes of a VInt). Every class of an ASCII byte is ASCII."""
    table = bytearray(range(256))
    for byte in b"0123456789.-":
        table[byte] = 0x30
    for low, high in ((0x21, 0x23), (0x80, 0xBF), (0xC0, 0xDF)):
        table[low:high + 1] = bytes([low]) * (high - low + 1)
    return bytes(table)


_SIGNATURE = _signature_table()
_MERGED = frozenset(byte for byte in range(256)
                    if _SIGNATURE.count(_SIGNATURE[byte]) > 1)  # bytes sharing a class
_LAYOUTS_KEPT = 4096  # layouts remembered for the process
_LAYOUT_DEPTH = 16  # the deepest nesting of a value whose layout is remembered
_GUESSES = 64  # an array's objects placed again after a guess proved wrong, at most


def _innermost(container: list[object] | dict[str, object],
               root: list[object]) -> tuple[list[object], dict[str, object] | None]:
    """The document loop's ``(top_list, top_dict)`` for the innermost ``container``: an
    object is filled through ``top_dict``, an array through ``top_list`` (``top_dict``
    None)."""
    if isinstance(container, dict):
        return root, container
    return container, None


class _Layout:
    """What makes a skipped value of a known signature read by the token loop exactly as
    the value its layout was learnt from (the same tokens at the same places, every check
    passed, no name defined): the table holds more than ``top_ref`` names, and the bytes
    at ``exact`` (key bytes whose class has other members: a long reference's ``0``) are
    ``values``. Every other token byte is alone in its class or stands for a class of
    equivalent one-byte tokens; content bytes are passed over by the length their token
    gives (a string's, any byte) or are 7-bit as the signature says (a float's)."""

    __slots__ = ("exact", "top_ref", "values")

    def __init__(self, exact: Callable[[bytes], object] | None, values: object,
                 top_ref: int) -> None:
        self.exact = exact
        self.values = values
        self.top_ref = top_ref


_layouts: dict[bytes, _Layout] = {}


# Complexity kept: one branch per token class the layout of a skipped value may hold.
def _layout(value: bytes, known: int) -> _Layout | None:  # noqa: C901
    """The layout of ``value`` when it is exactly one Smile value that the token loop reads
    without touching a table (string values not shared), with ``known`` names defined;
    None for anything else: a name defined, a reference beyond the table, a token other
    than back references, short ASCII strings, ints, floats, doubles, literals, arrays and
    objects, nesting deeper than ``_LAYOUT_DEPTH``, bytes left over."""
    size = len(value)
    exact: list[int] = []  # key bytes whose class has other members
    kinds: list[bool] = []  # the open containers, True for an object
    in_object = False
    top_ref = -1
    pos = 0
    while pos < size:
        b = value[pos]
        if in_object:
            if b == 0xFB:
                pos += 1
                kinds.pop()
                if not kinds:
                    break
                in_object = kinds[-1]
                continue
            if 0x40 <= b <= 0x7F:
                ref = b - 0x40
                pos += 1
            elif 0x30 <= b <= 0x33 and pos + 1 < size:
                ref = ((b & 0x03) << 8) | value[pos + 1]
                exact.extend(at for at in (pos, pos + 1) if value[at] in _MERGED)
                pos += 2
            else:
                return None
            if ref >= known or pos >= size:
                return None
            top_ref = max(top_ref, ref)
            b = value[pos]
        if 0xC0 <= b <= 0xDF or 0x21 <= b <= 0x23:  # one byte, as any of its class
            pos += 1
        elif 0x40 <= b <= 0x7F:  # a short ASCII string: its content is passed over
            pos += 1 + (b & 0x1F) + (1 if b < 0x60 else 33)
            if pos > size:
                return None
        elif b in {0x28, 0x29}:  # a float or a double: 7-bit groups
            pos += 6 if b == 0x28 else 11
            if pos > size or not value[pos - (5 if b == 0x28 else 10):pos].isascii():
                return None
        elif b in {0x24, 0x25}:  # an int: a VInt of at most 20 bytes
            pos += 1
            start = pos
            while pos < size and value[pos] < 0x80 and pos - start < 19:
                pos += 1
            if pos >= size or value[pos] < 0x80:
                return None
            pos += 1
        elif b in {0xF8, 0xFA}:
            if len(kinds) >= _LAYOUT_DEPTH:
                return None
            pos += 1
            in_object = b == 0xFA
            kinds.append(in_object)
            continue
        elif b == 0xF9 and kinds and not in_object:
            pos += 1
            kinds.pop()
            if not kinds:
                break
            in_object = kinds[-1]
            continue
        else:
            return None
        if not kinds:
            break
    if kinds or pos != size:
        return None
    getter = operator.itemgetter(*exact) if exact else None
    return _Layout(getter, getter(value) if getter is not None else None, top_ref)


def _layout_end(data: bytes, pos: int, stop: int, known: int) -> int:
    """``stop`` when ``data[pos:stop]`` is one value of a layout known (or learnt now, and
    kept) that the token loop reads without touching a table, with ``known`` names
    defined; else -1."""
    if stop <= pos:
        return -1
    value = data[pos:stop]
    signature = value.translate(_SIGNATURE)
    layout = _layouts.get(signature)
    if layout is None:
        layout = _layout(value, known)
        if layout is None:
            return -1
        if len(_layouts) >= _LAYOUTS_KEPT:
            _layouts.clear()
        _layouts[signature] = layout
    elif layout.top_ref >= known or (
            layout.exact is not None and layout.exact(value) != layout.values):
        return -1
    return stop


def _object_end(data: bytes, pos: int) -> int:
    """Where the object at ``pos`` ends if every 0xFA and 0xFB in it marks an object's
    start and end (a guess, checked by its layout); -1 when no such end is found."""
    stop = data.find(b"\xfb", pos) + 1
    opened = data.count(b"\xfa", pos + 1, stop) if stop else 0
    while opened:  # objects opened inside, each closed by one more 0xFB
        inner = stop
        for _ in range(opened):
            stop = data.find(b"\xfb", stop) + 1
            if not stop:
                return -1
        opened = data.count(b"\xfa", inner, stop)
    return stop or -1


def _element_places(data: bytes, pos: int) -> list[tuple[int, int]]:
    """Where the objects of the array at ``pos`` (BGBlitz's candidate plays) start and
    end, guessing that the array ends at its first 0xFB 0xF9 and that 0xFB 0xFA splits
    its objects (a guess: each object's layout checks it)."""
    stop = data.find(b"\xfb\xf9", pos) + 1  # the array's 0xF9
    if stop <= pos:
        return []
    offset = pos + 1  # where the piece begins
    pieces = data[offset:stop].split(b"\xfb\xfa")
    last = len(pieces) - 1
    places = []
    for index, piece in enumerate(pieces):
        start = offset - 1 if index else offset  # with the 0xFA split off
        places.append((start, offset + len(piece) + (1 if index < last else 0)))  # 0xFB
        offset += len(piece) + 2
    return places


_NATIVE = not __file__.endswith(".py")
"""True when this module runs compiled by mypyc: a per-byte loop over ``bytes`` is then a
loop of C loads, cheaper than the layouts' slice, translate and hash (and slower in pure
Python, where the layouts stay)."""

_END: Final = 0x100  # the document loop's mark for an object's end met in a key's place
_PLAIN_DEPTH: Final = 40  # the deepest nesting a plain skip reads (deeper: the token loop)


def _plain_string_end(data: bytes, pos: i64, size: i64) -> i64:
    """The end of the ``size`` 7-bit groups at ``pos`` (a float's or a double's) when all
    are below 0x80 and inside the data; else -1."""
    stop: i64 = pos + size
    if stop > len(data):
        return -1
    high: i64 = 0  # the bytes or-ed: one test after the loop, none a byte
    while pos < stop:
        high |= data[pos]
        pos += 1
    return stop if high < 0x80 else -1


# Complexity kept: one branch per token class a plain value may hold (for speed).
def _plain_end(data: bytes, pos: i64, known: i64) -> i64:  # noqa: C901
    """The end of the value at ``pos`` when the token loop of :meth:`_Decoder._skip`
    reads it without touching a table or failing (string values not shared, ``known``
    names defined): back references below ``known`` and empty keys, literals, small
    ints, VInts of at most 20 bytes, floats and doubles of 7-bit groups, strings (every
    string token but the long ones; the content passed over by its length, as the token
    loop passes it), arrays and objects nested up to ``_PLAIN_DEPTH``. Anything else (a
    name defined, a reference beyond the table, another token, data cut short) gives -1:
    the caller reads the value with the token loop, with its checks and errors. One pass
    over the token bytes, each an integer load once compiled; the commonest tokens (short
    back references, strings) tested first."""
    end: i64 = len(data)
    kinds: i64 = 0  # one bit per open container, the innermost lowest: 1 for an object
    depth: i64 = 0
    in_object = False
    b: i64
    last: i64
    while pos < end:
        b = data[pos]
        if (b == 0xFB) if in_object else (b == 0xF9 and depth > 0):  # the container closes
            pos += 1
            kinds >>= 1
            depth -= 1
            if depth == 0:
                return pos
            in_object = kinds & 1 == 1
            continue
        if in_object:
            if 0x40 <= b <= 0x7F:
                if b - 0x40 >= known:
                    return -1
                pos += 1
            elif 0x30 <= b <= 0x33:
                if pos + 1 >= end or ((b & 0x03) << 8) | data[pos + 1] >= known:
                    return -1
                pos += 2
            elif b == 0x20:
                pos += 1
            else:
                return -1
            if pos >= end:
                return -1
            b = data[pos]
        if 0x40 <= b <= 0xBF:  # a string of 1-65 bytes (0x40 + 1, 0x60 + 33, 0x80 + 2, 0xA0 + 34)
            pos += 2 + (b & 0x3F) + (b >> 7)  # its content passed over, not decoded
            if pos > end:
                return -1
        elif 0xC0 <= b <= 0xDF or 0x20 <= b <= 0x23:
            pos += 1
        elif 0x28 <= b <= 0x29:  # a float or a double: 7-bit groups
            pos = _plain_string_end(data, pos + 1, 5 if b == 0x28 else 10)
            if pos < 0:
                return -1
        elif 0x24 <= b <= 0x25:  # an int: a VInt of at most 20 bytes
            pos += 1
            last = pos + 19
            while pos < end and data[pos] < 0x80 and pos < last:
                pos += 1
            if pos >= end or data[pos] < 0x80:
                return -1
            pos += 1
        elif b == 0xF8 or b == 0xFA:  # noqa: PLR1714 - an i64 compared, not a set built
            if depth >= _PLAIN_DEPTH:
                return -1
            pos += 1
            depth += 1
            in_object = b == 0xFA
            kinds = (kinds << 1) | (1 if in_object else 0)
            continue
        else:
            return -1
        if depth == 0:
            return pos
    return -1


class SmileError(BgtoolsError, ValueError):
    """Malformed Smile input, with the byte offset where reading stopped."""


class SmileLimitError(SmileError):
    """A Smile document beyond a limit of :mod:`bgtools.limits`, which it names."""

    def __init__(self, message: str, limit_name: str, limit: int) -> None:
        super().__init__(message)
        self.limit_name = limit_name
        self.limit = limit


_DIGITS_PER_BYTE = 2.41  # log10(256), rounded up: the most decimal digits a byte makes


class _Decoder:
    __slots__ = ("asked", "compiles", "data", "fast", "fast_after", "keep", "names",
                 "native", "pos", "share_names", "share_values", "skip", "skipped", "values",
                 "worth")

    def __init__(self, data: bytes, skip: frozenset[str] = frozenset(),
                 fast_after: int | None = FAST_AFTER,
                 keep: frozenset[str] | None = None, native: bool = _NATIVE) -> None:
        self.data = data
        self.native = native  # skip by _plain_end (compiled), else by layouts and patterns
        self.skip = skip
        self.keep = keep
        # With fast_after given by the caller (the tests), patterns are compiled whatever
        # the size of the document; by default only where the rest of it pays for that.
        self.worth = _FAST_WORTH if fast_after == FAST_AFTER else 0
        self.fast: tuple[int, re.Pattern[bytes] | None] = (-1, None)  # the last lookup
        self.fast_after = fast_after
        self.compiles = 0
        self.asked: dict[int, int] = {}  # table size -> skipped values read at that size
        self.pos = 0
        self.names: list[str] = []
        # Whether the document loop skips a member of each name in the table, by index
        # (filled as the loop meets the names; emptied whenever the table may change
        # other than by growing).
        self.skipped: list[bool] = []
        self.values: list[str] = []
        self.share_names = True
        self.share_values = False

    def fail(self, why: str) -> SmileError:
        return SmileError(f"{why} at byte {self.pos}")

    def beyond(self, what: str, size: int, unit: str, limit_name: str,
               limit: int) -> SmileLimitError:
        """The error of ``what`` of ``size`` ``unit``, beyond the limit ``limit_name``."""
        return SmileLimitError(f"{what} of {format_count(size)} {unit} at byte {self.pos}; "
                               f"the limit {limit_name} is {format_count(limit)}",
                               limit_name, limit)

    def too_many(self) -> SmileLimitError:
        """The error of a document building more than MAX_ELEMENTS values."""
        return SmileLimitError(f"more than {format_count(MAX_ELEMENTS)} values at byte "
                               f"{self.pos}; the limit MAX_ELEMENTS is "
                               f"{format_count(MAX_ELEMENTS)}", "MAX_ELEMENTS", MAX_ELEMENTS)

    def long_text(self) -> str:
        """A long string (a value or a name), to its end marker, within MAX_STRING_CHARS
        (not decoded when its bytes alone are too many: a character takes 1 to 4)."""
        raw = self.until_end_marker()
        if len(raw) <= MAX_STRING_CHARS:
            return self.text(raw)
        text = self.text(raw) if len(raw) <= 4 * MAX_STRING_CHARS else None
        if text is None or len(text) > MAX_STRING_CHARS:
            size, unit = (len(raw), "bytes") if text is None else (len(text), "characters")
            raise self.beyond("a string", size, unit, "MAX_STRING_CHARS", MAX_STRING_CHARS)
        return text

    def byte(self) -> int:
        pos = self.pos
        if pos >= len(self.data):
            raise self.fail("the Smile data ends early")
        self.pos = pos + 1
        return self.data[pos]

    def take(self, n: int) -> bytes:
        pos = self.pos
        end = pos + n
        if end > len(self.data):
            raise self.fail("the Smile data ends early")
        self.pos = end
        return self.data[pos:end]

    def vint(self) -> int:
        """An unsigned variable-length integer: 7 bits a byte, the last byte 6 bits with
        its high bit set."""
        value = 0
        for _ in range(20):
            b = self.byte()
            if b & 0x80:
                return (value << 6) | (b & 0x3F)
            value = (value << 7) | b
        raise self.fail("a variable-length integer is too long")

    def zigzag(self) -> int:
        n = self.vint()
        return (n >> 1) ^ -(n & 1)

    def packed(self, nbytes: int) -> int:
        """``nbytes`` 7-bit groups, big-endian (floats, doubles, 7-bit binary)."""
        value = 0
        for b in self.take(nbytes):
            if b & 0x80:
                raise self.fail("a 7-bit group has its high bit set")
            value = (value << 7) | b
        return value

    def until_end_marker(self) -> bytes:
        end = self.data.find(b"\xfc", self.pos)
        if end < 0:
            raise self.fail("a long string has no end marker 0xFC")
        out = self.data[self.pos:end]
        self.pos = end + 1
        return out

    def text(self, raw: bytes) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise self.fail("a string is not UTF-8") from None

    def remember(self, table: list[str], value: str) -> None:
        if len(table) >= _TABLE:
            table.clear()
            if table is self.names:
                self.skipped.clear()
        table.append(value)

    def key(self, b: int) -> str:
        if b >= 0x80:
            if b <= 0xBF:
                name = self.text(self.take((b & 0x3F) + 1))
            elif b <= 0xF7:
                name = self.text(self.take((b - 0xC0) + 2))
            else:
                raise self.fail(f"unknown key token 0x{b:02x}")
            if self.share_names:
                self.remember(self.names, name)
            return name
        if b >= 0x40:
            return self.shared(self.names, b & 0x3F, "name")
        if b == 0x20:
            return ""
        if 0x30 <= b <= 0x33:
            return self.shared(self.names, ((b & 0x03) << 8) | self.byte(), "name")
        if b == 0x34:
            return self.long_text()
        raise self.fail(f"unknown key token 0x{b:02x}")

    def shared(self, table: list[str], index: int, what: str) -> str:
        if index >= len(table):
            raise self.fail(f"a reference to shared {what} {index} never defined")
        return table[index]

    # Complexity kept: one branch per Smile token class, as the specification lists them.
    def scalar(self, b: int) -> object:  # noqa: C901
        """A value token that is not an array or object start."""
        if b >= 0xC0:
            if b <= 0xDF:
                n = b & 0x1F
                return (n >> 1) ^ -(n & 1)
            if b in (0xE0, 0xE4):
                return self.long_text()
            if b == 0xE8:
                size = self.vint()
                if size > MAX_STRING_CHARS:
                    raise self.beyond("a binary value", size, "bytes", "MAX_STRING_CHARS",
                                      MAX_STRING_CHARS)
                return self.binary7(size)
            if 0xEC <= b <= 0xEF:
                return self.shared(self.values, ((b & 0x03) << 8) | self.byte(), "value")
            raise self.fail(f"unknown value token 0x{b:02x}")
        if b >= 0x40:
            if b < 0x60:
                raw = self.take((b & 0x1F) + 1)
            elif b < 0x80:
                raw = self.take((b & 0x1F) + 33)
            elif b < 0xA0:
                raw = self.take((b & 0x1F) + 2)
            else:
                raw = self.take((b & 0x1F) + 34)
            value = self.text(raw)
            if self.share_values and len(raw) <= _SHARED_MAX:
                self.remember(self.values, value)
            return value
        if b >= 0x20:
            if b == 0x20:
                return ""
            if b == 0x21:
                return None
            if b == 0x22:
                return False
            if b == 0x23:
                return True
            if b in (0x24, 0x25):
                return self.zigzag()
            if b == 0x26:
                return int.from_bytes(self.binary7(self.number_size()), "big", signed=True)
            if b == 0x28:
                bits = self.packed(5) & 0xFFFFFFFF
                return float(struct.unpack(">f", bits.to_bytes(4, "big"))[0])
            if b == 0x29:
                bits = self.packed(10) & 0xFFFFFFFFFFFFFFFF
                return float(struct.unpack(">d", bits.to_bytes(8, "big"))[0])
            if b == 0x2A:
                scale = self.zigzag()
                unscaled = int.from_bytes(self.binary7(self.number_size()), "big", signed=True)
                try:
                    return Decimal(unscaled).scaleb(-scale)
                except ArithmeticError:  # decimal.InvalidOperation: a scale out of range
                    raise self.fail(f"a big decimal's scale {scale} is out of range") from None
            raise self.fail(f"unknown value token 0x{b:02x}")
        if b >= 0x01:
            return self.shared(self.values, b - 1, "value")
        raise self.fail("unknown value token 0x00")

    def number_size(self) -> int:
        """The byte count of a big integer (or a big decimal's unscaled value), within
        MAX_NUMBER_DIGITS."""
        size = self.vint()
        digits = int(size * _DIGITS_PER_BYTE) + 1
        if digits > MAX_NUMBER_DIGITS:
            raise self.beyond("a big number", digits, "digits at most", "MAX_NUMBER_DIGITS",
                              MAX_NUMBER_DIGITS)
        return size

    def seven_bit_groups(self, size: int) -> bytes:
        """The 7-bit groups holding ``size`` bytes, each checked (one pass, in C)."""
        if size > len(self.data):
            raise self.fail("a binary value is longer than the data")
        raw = self.take((size * 8 + 6) // 7)
        if raw and max(raw) >= 0x80:
            self.pos -= len(raw)
            raise self.fail("a 7-bit group has its high bit set")
        return raw

    def binary7(self, size: int) -> bytes:
        """``size`` bytes from their 7-bit groups (callers bound ``size``: the shifts
        below take time quadratic in it)."""
        groups = self.seven_bit_groups(size)
        value = 0
        for b in groups:
            value = (value << 7) | b
        extra = len(groups) * 7 - size * 8
        return (value >> extra).to_bytes(size, "big") if size else b""

    def pass_scalar(self, b: int) -> None:
        """Read past a value token that is not an array or object start, building only
        what a shared table needs: binary and big numbers are checked, not decoded."""
        if b in (0xE8, 0x26):
            self.seven_bit_groups(self.vint())
        elif b == 0x2A:
            self.zigzag()
            self.seven_bit_groups(self.vint())
        else:
            self.scalar(b)

    def header(self) -> None:
        """The ``:)\\n`` magic and the version/flags byte (which tables are shared)."""
        if not self.data.startswith(SMILE_MAGIC):
            raise SmileError("not Smile: it does not start with ':)\\n'")
        self.pos = 3
        flags = self.byte()
        if flags >> 4:
            raise self.fail(f"Smile version {flags >> 4} is not 0")
        self.share_names = bool(flags & 0x01)
        self.share_values = bool(flags & 0x02)
        if flags & 0x04:
            raise self.fail("raw binary Smile content is not supported")

    # Complexity kept: the commonest tokens read in line, one branch each (for speed).
    def document(self) -> object:  # noqa: C901
        """The document's one value. The common tokens (short back references, small
        ints, literals, short ASCII strings, container marks) are read here in line; any
        other token, and every error, goes through the methods above, so the values and
        the errors are theirs."""
        self.header()
        root: list[object] = []
        # The containers being filled, innermost last; the root is a 1-element list. The
        # innermost is top_dict (an object) or top_list (an array, top_dict None).
        stack: list[list[object] | dict[str, object]] = [root]
        top_list: list[object] = root
        top_dict: dict[str, object] | None = None
        name = ""
        # A member is skipped when its name is in `chosen` (skip), or not in it (keep).
        wanted = self.keep is not None
        chosen = self.keep if self.keep is not None else self.skip
        data, names, sizes, small = self.data, self.names, _SIZES, _SMALL
        end = len(data)
        share_values = self.share_values
        # The compiled build's skip (skip_value's ways are the pure build's).
        plain = self.native and self.fast_after is not None and not share_values
        # The verdicts by table place pay once compiled (a set lookup costs ~130
        # instructions there); in pure Python the set is the quicker.
        by_place = self.native
        pos = self.pos
        value: object
        budget = MAX_ELEMENTS  # values still to build (arrays and objects included)
        try:
            while True:
                b = data[pos]
                pos += 1
                if top_dict is not None:  # b is a key, or the object's end
                    if 0x40 <= b <= 0x7F and b - 0x40 < len(names):
                        index = b - 0x40  # the name's place in the table, for its verdict
                        name = names[index]
                    elif 0x30 <= b <= 0x33 and ((b & 0x03) << 8) | data[pos] < len(names):
                        index = ((b & 0x03) << 8) | data[pos]
                        name = names[index]
                        pos += 1
                    elif b == 0xFB:
                        b = _END  # closed below, with the arrays
                    else:
                        self.pos = pos
                        name = self.key(b)
                        pos = self.pos
                        index = -1  # a name defined here: asked of the set
                    if b != _END:
                        if by_place and index >= 0:
                            skipped = self.skipped
                            while len(skipped) <= index:
                                skipped.append((names[len(skipped)] in chosen) is not wanted)
                            read_past = skipped[index]
                        else:
                            read_past = (name in chosen) is not wanted
                        if read_past:
                            if pos < end and sizes[data[pos]]:  # a literal or small int
                                pos += 1
                            else:
                                self.pos = pos
                                if plain:
                                    pos = self.skip_plain(data, pos)
                                else:
                                    self.skip_value()
                                    pos = self.pos
                            continue
                        b = data[pos]  # the member's value
                        pos += 1
                if 0xC0 <= b <= 0xDF:
                    value = small[b & 0x1F]
                elif 0x40 <= b <= 0x5F:  # a short ASCII string
                    stop = pos + (b & 0x1F) + 1
                    if stop > end:
                        self.pos = pos
                        raise self.fail("the Smile data ends early")
                    self.pos = stop
                    value = self.text(data[pos:stop])
                    if share_values:
                        self.remember(self.values, value)
                    pos = stop
                elif b & 0xFD == 0xF8:  # 0xF8 or 0xFA in one test (`in {...}` boxes b, compiled)
                    if len(stack) > MAX_DEPTH:
                        self.pos = pos
                        raise self.fail(f"nesting deeper than {MAX_DEPTH}")
                    budget -= 1
                    if budget < 0:
                        self.pos = pos
                        raise self.too_many()
                    child: list[object] | dict[str, object] = {} if b == 0xFA else []
                    if top_dict is not None:
                        top_dict[name] = child
                    else:
                        top_list.append(child)
                    stack.append(child)
                    top_list, top_dict = _innermost(child, root)
                    continue
                elif b == _END or (b == 0xF9 and top_dict is None and len(stack) > 1):
                    stack.pop()
                    if len(stack) == 1:
                        break
                    top_list, top_dict = _innermost(stack[-1], root)
                    continue
                else:
                    self.pos = pos
                    value = self.scalar(b)
                    pos = self.pos
                budget -= 1
                if budget < 0:
                    self.pos = pos
                    raise self.too_many()
                if top_dict is not None:
                    top_dict[name] = value
                else:
                    top_list.append(value)
                    if len(stack) == 1:
                        break
        except IndexError:  # data[pos] past the end: every other read is checked
            self.pos = pos
            raise self.fail("the Smile data ends early") from None
        self.pos = pos
        if pos < end and data[pos] != 0xFF:
            raise self.fail("data after the end of the Smile document")
        return root[0]

    def skip_value(self) -> None:
        """Read past one value without building it (only the shared tables grow): in place
        (a one-byte value, a short ASCII string, an empty array), by its layout (an object
        or an array of objects), with the fast pattern when it matches, else with the
        token loop (docs/bgf-format.md, "Reading speed")."""
        if self.pos < len(self.data) and _SIZES[self.data[self.pos]]:  # a literal, small int
            self.pos += 1
            return
        if self.fast_after is not None and not self.share_values:
            names = len(self.names)
            data, pos = self.data, self.pos
            b = data[pos] if pos < len(data) else 0
            if 0x40 <= b <= 0x7F:  # a short ASCII string, its content passed over
                end = pos + 1 + (b & 0x1F) + (1 if b < 0x60 else 33)
                if end <= len(data):
                    self.pos = end
                    return
            if data.startswith(b"\xf8\xf9", pos):  # an empty array
                self.pos = pos + 2
                return
            if data.startswith(b"\xfa", pos):
                end = _layout_end(data, pos, _object_end(data, pos), names)
                if end >= 0:
                    self.pos = end
                    return
            elif data.startswith(b"\xf8\xfa", pos):
                defined = self.names[:]
                try:
                    self.pos = self.skip_objects(data, pos)
                    return
                except (IndexError, SmileError):
                    # Malformed: read again below as before, for the same error.
                    self.names[:] = defined
                    self.skipped.clear()
                    self.pos = pos
            size, pattern = self.fast
            if size != names:
                pattern = self.fast_pattern(names)
                if pattern is not None:
                    self.fast = (names, pattern)
            if pattern is not None:
                fast = self.fast_end(pattern, self.data, self.pos)
                if fast is not None:
                    self.pos = fast
                    return
        try:
            self.pos = self._skip(self.data, self.pos)
        except IndexError:
            raise self.fail("the Smile data ends early") from None

    def skip_plain(self, data: bytes, pos: int) -> int:
        """The end of the value at ``pos``: by :func:`_plain_end` where it reads it, an
        array's elements one by one (the candidate plays, whose first may define names),
        else the token loop. Any element that is malformed sends the whole value to the
        token loop, for the error the token loop gives."""
        end = _plain_end(data, pos, len(self.names))
        if end >= 0:
            return end
        if pos + 1 < len(data) and data[pos] == 0xF8:
            defined = self.names[:]
            try:
                return self.skip_elements(data, pos)
            except (IndexError, SmileError):
                self.names[:] = defined
                self.skipped.clear()
                self.pos = pos
        try:
            return self._skip(data, pos)
        except IndexError:
            raise self.fail("the Smile data ends early") from None

    def skip_elements(self, data: bytes, pos: int) -> int:
        """The end of the array at ``pos``: each element by :func:`_plain_end`, else by the
        token loop (which defines the names an element defines), so that the whole reads
        exactly as the token loop reads the array. Malformed data raises SmileError or
        IndexError, whose place may differ from the whole array's."""
        pos += 1
        while data[pos] != 0xF9:
            end = _plain_end(data, pos, len(self.names))
            pos = end if end >= 0 else self._skip(data, pos, 1)
        return pos + 1

    def skip_objects(self, data: bytes, pos: int) -> int:
        """The end of the array at ``pos``, whose first element is an object: each object
        by its layout where it has one, any other element by the token loop, which reads
        exactly what the token loop of the whole array reads (the same names defined).
        Malformed data raises SmileError or IndexError, whose place may differ from the
        whole array's: the caller reads the array again for the error."""
        places = _element_places(data, pos)
        guesses = _GUESSES  # new guesses after one proved wrong
        names = len(self.names)
        pos += 1
        index = 0
        while data[pos] != 0xF9:
            if (index >= len(places) or places[index][0] != pos) and guesses:
                guesses -= 1
                places, index = _element_places(data, pos - 1), 0
            end = -1
            if index < len(places) and places[index][0] == pos:
                end = _layout_end(data, pos, places[index][1], names)
            if end < 0:
                end = self._skip(data, pos, 1)
                names = len(self.names)
            pos = end
            index += 1
        return pos + 1

    def fast_pattern(self, names: int) -> re.Pattern[bytes] | None:
        """A fast-skip pattern for a table of ``names`` names: one compiled for that size or
        a little less (stricter: a reference it does not know sends the value to the token
        loop), else a new one once that size has been asked for ``fast_after`` times in
        this document (its first values define the names, at sizes that do not recur) and
        enough of the document is left to pay for the compile."""
        for size in range(names, max(names - _FAST_SLACK, 0) - 1, -1):
            pattern = _fast_patterns.get(size)
            if pattern is not None:
                return pattern
        seen = self.asked[names] = self.asked.get(names, 0) + 1
        assert self.fast_after is not None
        if seen < self.fast_after or self.compiles >= _FAST_COMPILES \
                or len(self.data) - self.pos < self.worth:
            return None
        self.compiles += 1
        if len(_fast_patterns) >= _FAST_KEPT:
            del _fast_patterns[next(iter(_fast_patterns))]
        pattern = _fast_patterns[names] = re.compile(_skip_pattern(names), re.DOTALL)
        return pattern

    @staticmethod
    def fast_end(pattern: re.Pattern[bytes], data: bytes, pos: int) -> int | None:
        """The end of the value at ``pos`` when the pattern reads all of it; an array of
        objects (BGBlitz's candidate plays) one object at a time."""
        if data.startswith(b"\xf8\xfa", pos):
            pos += 1
            while data.startswith(b"\xfa", pos):
                found = pattern.match(data, pos)
                if found is None:
                    return None
                pos = found.end()
            return pos + 1 if data.startswith(b"\xf9", pos) else None
        found = pattern.match(data, pos)
        return None if found is None else found.end()

    # Complexity kept: one branch per Smile token class, as the specification lists them.
    def _skip(self, data: bytes, pos: int, outer: int = 0) -> int:  # noqa: C901
        """The position after the value at ``pos``: a lean loop over the tokens, the sizes
        of fixed-size values from a table, only shared strings decoded (for the tables)."""
        kinds: list[bool] = []  # open containers: True for an object
        in_object = False
        names = self.names
        known = len(names)  # the shared names defined so far (kept in step below)
        share_names, share_values = self.share_names, self.share_values
        sizes = _SIZES
        end = len(data)
        while True:
            if in_object:
                b = data[pos]
                pos += 1
                if 0x30 <= b <= 0x33:  # a long reference to a shared name
                    if ((b & 0x03) << 8) | data[pos] >= known:
                        self.pos = pos
                        raise self.fail("a reference to a shared name never defined")
                    pos += 1
                elif 0x40 <= b <= 0x7F:  # a short reference
                    if b - 0x40 >= known:
                        self.pos = pos
                        raise self.fail(f"a reference to shared name {b & 0x3F} never defined")
                elif b == 0xFB:
                    kinds.pop()
                    if not kinds:
                        return pos
                    in_object = kinds[-1]
                    continue
                elif 0x80 <= b <= 0xF7:  # a name, remembered for later references
                    size = (b & 0x3F) + 1 if b <= 0xBF else b - 0xBE
                    if pos + size > end:
                        raise IndexError
                    name = self.text(data[pos:pos + size])
                    if share_names:
                        self.remember(names, name)
                        known = len(names)
                    pos += size
                elif b == 0x34:
                    self.pos = pos
                    self.text(self.until_end_marker())
                    pos = self.pos
                elif b != 0x20:
                    self.pos = pos
                    raise self.fail(f"unknown key token 0x{b:02x}")
            b = data[pos]
            size = sizes[b]
            if size:  # a value of a fixed size that touches no table
                pos += size
                if pos > end:
                    raise IndexError
                if not kinds:
                    return pos
                continue
            pos += 1
            if b & 0xFD == 0xF8:  # 0xF8 or 0xFA
                in_object = b == 0xFA
                kinds.append(in_object)
                if len(kinds) + outer > MAX_DEPTH:
                    self.pos = pos
                    raise self.fail(f"nesting deeper than {MAX_DEPTH}")
                continue
            if b == 0xF9 and kinds and not in_object:
                kinds.pop()
                if not kinds:
                    return pos
                in_object = kinds[-1]
                continue
            if 0x40 <= b < 0xC0:  # a string: decoded only for the shared-value table
                size = (b & 0x1F) + (1, 33, 2, 34)[(b - 0x40) >> 5]
                if pos + size > end:
                    raise IndexError
                if share_values and size <= _SHARED_MAX:
                    self.remember(self.values, self.text(data[pos:pos + size]))
                pos += size
            elif b == 0xE0 or b == 0xE4:  # noqa: PLR1714 - a long string, to its end marker
                stop = data.find(b"\xfc", pos)
                if stop < 0:
                    self.pos = pos
                    raise self.fail("a long string has no end marker 0xFC")
                pos = stop + 1
            else:
                self.pos = pos
                self.pass_scalar(b)
                pos = self.pos
            if not kinds:
                return pos

    @staticmethod
    def innermost(stack: list[list[object] | dict[str, object]], root: list[object]
                  ) -> tuple[list[object], dict[str, object] | None]:
        """The innermost open container, as (array, None) or (the root, object)."""
        top = stack[-1]
        return (root, top) if isinstance(top, dict) else (top, None)


def decode_smile(data: bytes, skip: frozenset[str] = frozenset(),
                 fast_after: int | None = FAST_AFTER, *,
                 keep: frozenset[str] | None = None, native: bool | None = None) -> object:
    """Decode one Smile document (header included) into Python values: dict, list, str,
    int, float, Decimal, bytes, bool or None. Members of any object named in ``skip`` are
    read past without being built (and left out): a reader that needs no analysis skips
    it at a fraction of the cost. ``fast_after`` (see :data:`FAST_AFTER`; None: never)
    says when the skip may use its fast pattern, which reads the same bytes. With ``keep``,
    ``skip`` is not used: only the members named in ``keep`` are built, in every object
    (a reader that knows the members it reads). ``native`` chooses the fast skip: a
    plain scan of the bytes (the default when this module is compiled) or learnt layouts
    and patterns (the default in pure Python); both read what the token loop reads."""
    return _Decoder(data, skip, fast_after, keep,
                    _NATIVE if native is None else native).document()
