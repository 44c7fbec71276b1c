"""Mutators that mangle real record files, and the in-process check every mangled file must pass.

Shared by ``tests/hostile/test_fuzz.py`` (Hypothesis draws the edits) and ``scripts/fuzz.py`` (a
seeded random generator draws them, for as long as asked). An edit is a plain tuple
``(kind, where, size, choice)`` so that both can draw it and Hypothesis can shrink it.
"""

from __future__ import annotations

import json
import random
import struct
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from bgtools.errors import EXIT_PROBLEMS, EXIT_UNUSABLE, BgtoolsError, describe_error
from bgtools.readers.detect import read_records
from bgtools.replay import Event, profile_for, replay_match
from bgtools.reports.files import FileResult, event_json, validate_json
from bgtools.reports.moments import MatchAnswers, Moment, pips_json, score_json, status_json
from tests.helpers.paths import FILES, REPO, SHARED

Edit = tuple[str, int, int, int]
"""``(kind, where, size, choice)``: which mutator, at which offset (modulo the length),
how much, and which of the mutator's variants."""

JUNK = [b"\x00", b"\xef\xbb\xbf", b"\r", b"\t", b"\r\n", b"\n", b"(", b")", b"[", b"]", b";",
        b":", b"/", b"*", b"=>", b"-", b"#", b'"', b"'", b"\\", b"\xff", b"\xfc", b"\x93",
        b"\xe2\x80\x9c", b"\xc3", b" ", b"Game ", b" point match", b"Wins ", b"Doubles => ",
        b"Takes", b"Drops", b"(;", b"FF[4]", b"MI[length:", b"bar/", b"/off", b"(2)", b"25/",
        b"0/", b"\x7f", "\u00a0".encode("utf-8"), b"??? "]
NUMBERS = [b"0", b"-1", b"-5", b"64", b"65", b"999", b"1000", b"32767", b"32768",
           b"999999999", b"1000000000", b"99999999999999999999", b"9" * 5000, b"4294967296",
           b"00000000000000000003", b"1e9", b"3.5", b"\xd9\xa3"]


def _pos(data: bytes, where: int) -> int:
    return where % (len(data) + 1)


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _flip(data: bytes, where: int, size: int, choice: int) -> bytes:
    if not data:
        return data
    out = bytearray(data)
    for k in range(1 + size % 8):
        i = (where + k * 7919) % len(out)
        out[i] ^= 1 << ((choice + k) % 8)
    return bytes(out)


def _cut(data: bytes, where: int, size: int, choice: int) -> bytes:
    i = _pos(data, where)
    return data[:i] if choice % 2 else data[i:]


def _delete_span(data: bytes, where: int, size: int, choice: int) -> bytes:
    i = _pos(data, where)
    return data[:i] + data[i + size:]


def _shuffle_lines(data: bytes, where: int, size: int, choice: int) -> bytes:
    lines = _lines(data)
    start = where % max(1, len(lines))
    window = lines[start:start + 2 + size % 16]
    random.Random(choice).shuffle(window)
    return b"\n".join(lines[:start] + window + lines[start + len(window):])


def _delete_lines(data: bytes, where: int, size: int, choice: int) -> bytes:
    lines = _lines(data)
    start = where % max(1, len(lines))
    return b"\n".join(lines[:start] + lines[start + 1 + size % 8:])


def _duplicate_lines(data: bytes, where: int, size: int, choice: int) -> bytes:
    lines = _lines(data)
    start = where % max(1, len(lines))
    block = lines[start:start + 1 + size % 8]
    return b"\n".join(lines[:start] + block * (2 + choice % 3) + lines[start:])


def _move_line(data: bytes, where: int, size: int, choice: int) -> bytes:
    lines = _lines(data)
    if len(lines) < 2:
        return data
    line = lines.pop(where % len(lines))
    lines.insert(choice % (len(lines) + 1), line)
    return b"\n".join(lines)


def _insert_junk(data: bytes, where: int, size: int, choice: int) -> bytes:
    i = _pos(data, where)
    return data[:i] + JUNK[choice % len(JUNK)] * (1 + size % 4) + data[i:]


def _replace_number(data: bytes, where: int, size: int, choice: int) -> bytes:
    digits = [i for i in range(len(data)) if 48 <= data[i] <= 57]
    if not digits:
        return _insert_junk(data, where, size, choice)
    i = digits[where % len(digits)]
    j = i
    while j < len(data) and 48 <= data[j] <= 57:
        j += 1
    return data[:i] + NUMBERS[choice % len(NUMBERS)] + data[j:]


def _random_digits(data: bytes, where: int, size: int, choice: int) -> bytes:
    digits = [i for i in range(len(data)) if 48 <= data[i] <= 57]
    if not digits:
        return data
    out = bytearray(data)
    rng = random.Random(choice)
    for k in range(1 + size % 16):
        out[digits[(where + k * 104729) % len(digits)]] = 48 + rng.randrange(10)
    return bytes(out)


def _swap_words(data: bytes, where: int, size: int, choice: int) -> bytes:
    words = data.split(b" ")
    if len(words) < 2:
        return data
    a, b = where % len(words), (where + 1 + choice) % len(words)
    words[a], words[b] = words[b], words[a]
    return b" ".join(words)


def _case_and_tabs(data: bytes, where: int, size: int, choice: int) -> bytes:
    i = _pos(data, where)
    span = data[i:i + 1 + size * 4]
    span = span.swapcase() if choice % 2 else span.replace(b" ", b"\t")
    return data[:i] + span + data[i + len(span):]


def _sgf_values(data: bytes, where: int, size: int, choice: int) -> bytes:
    """Rewrite the letters inside one ``[...]`` value (SGF moves ``B[52hgge]``, points)."""
    opens = [i for i in range(len(data)) if data[i] == 91]  # "["
    if not opens:
        return _random_digits(data, where, size, choice)
    i = opens[where % len(opens)] + 1
    j = data.find(b"]", i)
    j = len(data) if j < 0 else j
    rng = random.Random(choice)
    alphabet = b"abcdefghijklmnopqrstuvwxyz0123456789:"
    value = bytes(rng.choice(alphabet) for _ in range(max(0, j - i + rng.randint(-2, 2))))
    return data[:i] + value + data[j:]


def _dice(data: bytes, where: int, size: int, choice: int) -> bytes:
    """Replace one roll ``DD:`` by another, possibly impossible (``07:``, ``66:``)."""
    rolls = [i for i in range(len(data) - 2)
             if 48 <= data[i] <= 57 and 48 <= data[i + 1] <= 57 and data[i + 2] == 58]
    if not rolls:
        return _random_digits(data, where, size, choice)
    i = rolls[where % len(rolls)]
    a, b = (choice % 8), (choice // 8) % 8
    return data[:i] + bytes([48 + a, 48 + b]) + data[i + 2:]


MUTATORS: dict[str, Callable[[bytes, int, int, int], bytes]] = {
    "flip": _flip,
    "cut": _cut,
    "delete-span": _delete_span,
    "shuffle-lines": _shuffle_lines,
    "delete-lines": _delete_lines,
    "duplicate-lines": _duplicate_lines,
    "move-line": _move_line,
    "insert-junk": _insert_junk,
    "replace-number": _replace_number,
    "random-digits": _random_digits,
    "swap-words": _swap_words,
    "case-and-tabs": _case_and_tabs,
    "sgf-values": _sgf_values,
    "dice": _dice,
}
"""Every mutator by name: ``f(data, where, size, choice) -> data``."""


def apply_edits(data: bytes, edits: Iterable[Edit]) -> bytes:
    """``data`` after every edit in turn (:data:`MUTATORS` or :data:`FIELD_MUTATORS`)."""
    for kind, where, size, choice in edits:
        mutate = MUTATORS.get(kind) or FIELD_MUTATORS[kind]
        data = mutate(data, where, size, choice)
    return data


def random_edits(rng: random.Random, count: int) -> list[Edit]:
    """``count`` random edits (the script's counterpart of the Hypothesis strategy)."""
    kinds = list(MUTATORS)
    return [(rng.choice(kinds), rng.randrange(1 << 30), rng.randrange(64), rng.randrange(1 << 16))
            for _ in range(count)]


def seed_files(max_bytes: int | None = None, corpus: bool = True) -> list[Path]:
    """Real record files to mangle: the samples, the test files, and (when present) the shared
    corpus and FORMATS.md's examples; only files of at most ``max_bytes``."""
    roots = [REPO / "samples", FILES]
    if corpus:
        roots += [SHARED / "corpus", SHARED / "docs" / "examples"]
    found: list[Path] = []
    for root in roots:
        if not root.is_dir():
            continue
        found.extend(
            path for path in sorted(root.rglob("*"))
            if path.suffix.lower() in (".mat", ".txt", ".sgf", ".gam") and path.is_file()
            and (max_bytes is None or path.stat().st_size <= max_bytes))
    return found


CLI_COMMANDS = [["validate", "--json"], ["replay", "--jsonl"], ["score", "--json"],
                ["status", "--json"], ["pips", "--json"], ["show", "--ascii"], ["show"],
                ["validate"], ["score"], ["status"], ["pips", "--all"], ["replay"],
                ["status", "--game", "2", "--move", "3"]]
"""Commands a mangled file goes through in :func:`check_cli`."""


def check_cli(data: bytes, target: Path, command: list[str]) -> int:
    """Write ``data`` to ``target`` and run ``bgtools COMMAND target`` through Typer's
    CliRunner; check exit code, tracebacks, JSON lines and that the input is unchanged.
    Returns the exit code; raises AssertionError on a bug."""
    from typer.testing import CliRunner

    from bgtools.cli import app

    target.write_bytes(data)
    result = CliRunner().invoke(app, [*command, str(target)])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"bgtools {' '.join(command)}: {result.exception!r}"
    out, err = result.stdout, result.stderr
    assert "Traceback" not in out + err
    assert result.exit_code in (0, 1, 2), result.exit_code
    lines = out.splitlines()
    if command == ["validate", "--json"]:
        assert len(lines) == 1
    if "--json" in command or "--jsonl" in command:
        for line in lines:
            assert json.loads(line)["file"] == str(target)
    assert target.read_bytes() == data
    return result.exit_code


def _dumps(obj: dict[str, Any]) -> str:
    text = json.dumps(obj, ensure_ascii=False)
    text.encode("utf-8")  # strict: a lone surrogate would fail here, as on a real stdout
    return text


def check_bytes(data: bytes, display: str = "fuzz.mat", boards: bool = True) -> int:
    """Run everything the CLI runs on ``data``, in-process, and return the exit code the
    contract asks for. Raises (AssertionError or any stray exception) on a bug."""
    result = FileResult(display)
    try:
        loaded = read_records(data, display)
    except BgtoolsError as exc:
        message, code = describe_error(exc, display)
        assert "\n" not in message and message, message
        assert code in (EXIT_PROBLEMS, EXIT_UNUSABLE)
        result.error = message
        _dumps(validate_json(result))
        return EXIT_UNUSABLE
    result.format, result.encoding = loaded.format, loaded.encoding
    for record in loaded.records:
        events: list[Event] = []
        replay = replay_match(record, profile_for(record), on_event=events.append)
        result.replays.append(replay)
        result.events.append(events)
        for event in events:
            _dumps(event_json(display, event))
        _dumps(score_json(display, loaded.format, replay))
        moments = MatchAnswers(replay, events).moments
        for game_moments in moments.values():
            for moment in (game_moments[0], game_moments[-1]):
                _dumps(pips_json(display, moment))
                _dumps(status_json(display, replay, moment))
            if boards:
                _board(game_moments[-1])
    obj = validate_json(result)
    _dumps(obj)
    for problem in obj["problems"]:
        assert problem["rule"] and problem["message"]
        assert problem["line"] is None or problem["line"] >= 1
        assert problem["column"] is None or problem["column"] >= 1
    return 0 if result.valid else EXIT_PROBLEMS


def _board(moment: Moment) -> None:
    """Draw the board of ``moment`` as ``show --ascii`` does (it must not fail)."""
    str(moment).encode("utf-8")


# --- a Smile encoder (the tests' .bgf bodies and the field mutations) -------------------------


def smile_vint(value: int) -> bytes:
    """An unsigned Smile VInt: 7 bits a byte, the last byte 6 bits with its high bit set."""
    out = [0x80 | (value & 0x3F)]
    value >>= 6
    while value:
        out.append(value & 0x7F)
        value >>= 7
    return bytes(reversed(out))


def _zigzag(value: int) -> int:
    return value * 2 if value >= 0 else -value * 2 - 1


class Encoder:
    """Smile with shared property names (Jackson's default), no shared string values."""

    def __init__(self) -> None:
        self.names: dict[str, int] = {}

    def document(self, value: object) -> bytes:
        """The whole document: header with the shared-names flag, then the value."""
        return b":)\n\x01" + self.value(value)

    def key(self, name: str) -> bytes:
        """A key: a back reference to a name already written, else the name (shared)."""
        index = self.names.get(name)
        if index is not None:
            return bytes([0x40 + index]) if index < 64 else bytes([0x30 | index >> 8,
                                                                    index & 0xFF])
        raw = name.encode()
        if not raw:
            return b"\x20"
        if len(raw) > 57 or (len(raw) == 1 and not raw.isascii()):
            return b"\x34" + raw + b"\xfc"  # a long name: never shared
        if len(self.names) >= 1024:
            self.names.clear()
        self.names[name] = len(self.names)
        return bytes([0x80 + len(raw) - 1] if raw.isascii() and len(raw) <= 64
                     else [0xC0 + len(raw) - 2]) + raw

    def value(self, value: object) -> bytes:
        """A value, by the shortest token the specification gives it."""
        if value is None:
            return b"\x21"
        if isinstance(value, bool):
            return b"\x23" if value else b"\x22"
        if isinstance(value, int):
            if -16 <= value <= 15:
                return bytes([0xC0 + _zigzag(value)])
            if _zigzag(value).bit_length() > 6 + 19 * 7:  # beyond a VInt of 20 bytes
                raw = value.to_bytes(value.bit_length() // 8 + 1, "big", signed=True)
                return b"\x26" + smile_vint(len(raw)) + smile_7bit(raw)  # a big integer
            token = b"\x24" if -2**31 <= value < 2**31 else b"\x25"
            return token + smile_vint(_zigzag(value))
        if isinstance(value, float):
            bits = struct.unpack(">Q", struct.pack(">d", value))[0]
            return b"\x29" + bytes((bits >> (7 * i)) & 0x7F for i in range(9, -1, -1))
        if isinstance(value, str):
            raw = value.encode()
            ascii_ = raw.isascii()
            if not raw:
                return b"\x20"
            if ascii_ and len(raw) <= 64:
                return bytes([0x40 + len(raw) - 1 if len(raw) <= 32
                              else 0x60 + len(raw) - 33]) + raw
            if not ascii_ and 2 <= len(raw) <= 65:
                return bytes([0x80 + len(raw) - 2 if len(raw) <= 33
                              else 0xA0 + len(raw) - 34]) + raw
            return (b"\xe0" if ascii_ else b"\xe4") + raw + b"\xfc"
        if isinstance(value, list):
            return b"\xf8" + b"".join(self.value(v) for v in value) + b"\xf9"
        assert isinstance(value, dict)
        return b"\xfa" + b"".join(self.key(k) + self.value(v) for k, v in value.items()) \
            + b"\xfb"



def smile_7bit(raw: bytes) -> bytes:
    """``raw`` as Smile's 7-bit groups (binary and big integer content), in linear time:
    each 7 bytes make 8 groups; the last bytes, fewer groups, their bits to the right."""
    out = bytearray()
    whole = len(raw) - len(raw) % 7
    for at in range(0, whole, 7):
        bits = int.from_bytes(raw[at:at + 7], "big")
        out += bytes((bits >> shift) & 0x7F for shift in range(49, -1, -7))
    rest = raw[whole:]
    if rest:
        groups = (len(rest) * 8 + 6) // 7
        bits = int.from_bytes(rest, "big") << (groups * 7 - len(rest) * 8)
        out += bytes((bits >> (7 * (groups - 1 - i))) & 0x7F for i in range(groups))
    return bytes(out)


# --- binary records (.xg, .bgf): mutate inside the container, keep it readable ------------

XG_PREFIX = b"RGMH" + bytes(8228)
"""An 8,232-byte rich-game header with no thumbnail (the reader checks only the magic)."""


def build_xg(body: bytes, osize: int | None = None, prefix: bytes = XG_PREFIX,
             member_crc: int | None = None, packed: bytes | None = None) -> bytes:
    """An ``.xg`` file whose archive holds ``body`` as ``temp.xg``, with valid checksums;
    ``osize`` overrides the size the index declares (a zlib bomb claims a small one),
    ``member_crc`` the member's CRC-32 and ``packed`` its compressed bytes (the archive CRC
    is always computed over what is stored)."""
    import struct
    import zlib

    packed = zlib.compress(body) if packed is None else packed
    entry = bytearray(532)
    entry[0] = 7
    entry[1:8] = b"temp.xg"
    struct.pack_into("<iiiI", entry, 512, len(body) if osize is None else osize, len(packed),
                     0, zlib.crc32(body) if member_crc is None else member_crc)
    index = zlib.compress(bytes(entry))
    archive = packed + index
    trailer = struct.pack("<Iiiiii12x", zlib.crc32(archive), 1, 1, len(index), len(packed), 1)
    return prefix + archive + trailer


def bgf_points(green: tuple[int, ...], red: tuple[int, ...]) -> list[int]:
    """BGBlitz's ``initial.points`` of a board whose sides are ``green`` (player 0) and
    ``red``, each in its own numbering: green positive from his 24-point at index 0, red
    negative, then green's and red's bars."""
    points = [0] * 26
    for point in range(1, 25):
        points[24 - point] += green[point]
        points[point - 1] -= red[point]
    points[24], points[25] = green[25], red[25]
    return points


def build_bgf(body: bytes, smile: bool = True) -> bytes:
    """A ``.bgf`` file: the header line, then ``body`` (Smile or JSON text) gzipped."""
    import gzip

    header = ('{"format":"BGF","version":"1.0","compress":true,"useSmile":%s}'
              % ("true" if smile else "false")).encode()
    return header + b"\n" + gzip.compress(body, mtime=0)  # the same bytes on every run


def _inner(data: bytes) -> tuple[str, bytes] | None:
    """("xg", temp.xg) or ("bgf", the Smile body) of a readable binary file, else None."""
    import gzip
    import zlib

    from bgtools.readers.xg import read_game_file

    if data[:4] == b"RGMH":
        try:
            return "xg", read_game_file(data)
        except BgtoolsError:
            return None
    line, _, body = data.partition(b"\n")
    if line.startswith(b'{"format":"BGF"'):
        try:
            return "bgf", gzip.decompress(body)
        except (OSError, EOFError, zlib.error):
            return None
    return None


def _rewrap(kind: str, body: bytes) -> bytes:
    return build_xg(body) if kind == "xg" else build_bgf(body)


def _record_field(data: bytes, where: int, size: int, choice: int) -> bytes:
    """XG: overwrite a field of one record (dice, moves, player, cube, scores, type) with
    an odd value; BGF: overwrite bytes of the Smile body. The container stays valid."""
    import struct

    inner = _inner(data)
    if inner is None:
        return _flip(data, where, size, choice)
    kind, body = inner
    buf = bytearray(body)
    if kind == "xg" and len(buf) >= 2560:
        rec = (where % (len(buf) // 2560)) * 2560
        offsets = [8, 12, 16, 20, 24, 28, 32, 48, 64, 68, 72, 76, 100, 104, 108, 2480, 92]
        value = [-1, 0, 1, 2, 6, 7, 24, 25, -2, 99999, 1 << 30, -(1 << 31), 255][choice % 13]
        at = rec + offsets[size % len(offsets)]
        if at == rec + 8:
            buf[at] = value & 0xFF
        else:
            struct.pack_into("<i", buf, at, value)
    else:
        at = _pos(bytes(buf), where)
        for i in range(min(1 + size % 4, len(buf) - at)):
            buf[at + i] = (choice >> (i * 3)) & 0xFF
    return _rewrap(kind, bytes(buf))


def _cut_records(data: bytes, where: int, size: int, choice: int) -> bytes:
    """Cut the decompressed body (XG: possibly mid-record) and rewrap it."""
    inner = _inner(data)
    if inner is None:
        return _cut(data, where, size, choice)
    kind, body = inner
    return _rewrap(kind, body[:_pos(body, where)])


def _duplicate_record(data: bytes, where: int, size: int, choice: int) -> bytes:
    """XG: repeat or drop one record; BGF: repeat a span of the Smile body."""
    inner = _inner(data)
    if inner is None:
        return data + data[:size]
    kind, body = inner
    if kind == "xg" and len(body) >= 2 * 2560:
        n = len(body) // 2560
        at = (where % (n - 1) + 1) * 2560
        rec = body[at:at + 2560]
        body = body[:at] + (rec + rec if choice % 2 else b"") + body[at + 2560:]
    else:
        at = _pos(body, where)
        body = body[:at] + body[at:at + size + 1] + body[at:]
    return _rewrap(kind, body)


BINARY_MUTATORS: dict[str, Callable[[bytes, int, int, int], bytes]] = {
    "record-field": _record_field,
    "cut-records": _cut_records,
    "duplicate-record": _duplicate_record,
    "flip": _flip,
    "cut": _cut,
}
"""Mutators for ``.xg`` and ``.bgf`` seeds: most edit inside the container and keep its
checksums valid, so the readers (not only the checksum) meet the damage."""


def apply_binary_edits(data: bytes, edits: Iterable[Edit]) -> bytes:
    """``data`` after every binary edit in turn (:data:`BINARY_MUTATORS` or
    :data:`BINARY_FIELD_MUTATORS`)."""
    for kind, where, size, choice in edits:
        mutate = BINARY_MUTATORS.get(kind) or BINARY_FIELD_MUTATORS[kind]
        data = mutate(data, where, size, choice)
    return data


def binary_seed_files(max_bytes: int | None = None, corpus: bool = True) -> list[Path]:
    """``.xg`` and ``.bgf`` files to mangle: the test files and (when present) the corpus."""
    roots = [FILES]
    if corpus:
        roots.append(SHARED / "corpus")
    found: list[Path] = []
    for root in roots:
        if root.is_dir():
            found += [p for p in sorted(root.rglob("*"))
                      if p.suffix.lower() in (".xg", ".bgf") and p.is_file()
                      and (max_bytes is None or p.stat().st_size <= max_bytes)]
    return found


# --- field mutations: what found the hostile files of issue 38 ---------------------------------
# Counts, lengths, nesting and numbers far beyond any real file, each just below and just
# above its limit too. Heavier than the mutators above (a case may build a megabyte), so
# tests/hostile/test_fuzz.py leaves them to scripts/fuzz.py and tests/hostile.

from bgtools import limits  # noqa: E402 - grouped with the mutations that use it

COUNTS = (15, 16, -16, 10**9, -(10**9), 1 << 62, -(1 << 63))
"""Checker counts and other integers a field may be given."""
LENGTHS = (limits.MAX_STRING_CHARS, limits.MAX_STRING_CHARS + 1,
           2 * limits.MAX_STRING_CHARS + 1, 1_000_000)
"""Lengths a string field may be given."""
DEPTHS = (199, 201, 10_000)
"""Nesting depths a value may be given (the Smile decoder's MAX_DEPTH is 200)."""
DIGITS = (19, 100, 101, 4_301, 20_000)
"""Decimal digits of the big integers a field may be given."""
_MARKER = "@@hostile@@"  # a string replaced after encoding (nested arrays, a big integer)


def _fields(document: object, wanted: type) -> list[tuple[Any, Any]]:
    """Every ``(container, key)`` of ``document`` whose value is a ``wanted`` (an int
    that is no bool, a str, a list), walked without recursion."""
    found: list[tuple[Any, Any]] = []
    pending = [document]
    while pending:
        value = pending.pop()
        items = (value.items() if isinstance(value, dict)
                 else enumerate(value) if isinstance(value, list) else ())
        for key, item in items:
            if type(item) is wanted:
                found.append((value, key))
            if isinstance(item, (dict, list)):
                pending.append(item)
    return found


def _bgf_field(data: bytes, where: int, size: int, choice: int) -> bytes:
    """A ``.bgf`` with one field of its decoded match made hostile (analysis included):
    an integer (a checker count ...) out of range, a string at or beyond MAX_STRING_CHARS,
    a list beyond MAX_ELEMENTS, a value nested beyond MAX_DEPTH, a big integer of up to
    20,000 digits; re-encoded (Smile without shared strings, or JSON text), rewrapped."""
    from bgtools.readers.smile import SmileError, decode_smile

    inner = _inner(data)
    if inner is None or inner[0] != "bgf":
        return _record_field(data, where, size, choice)
    body = inner[1]
    smile = body.startswith(b":)\n")
    try:
        document = decode_smile(body) if smile else json.loads(body)
    except (SmileError, ValueError):
        return _record_field(data, where, size, choice)
    action = choice % 5
    places = _fields(document, str if action == 1 else list if action == 2 else int)
    if not places:
        return _record_field(data, where, size, choice)
    container, key = places[where % len(places)]
    # What cannot be encoded as it stands (deep nesting, an integer Python will not write
    # as text) is a marker string, replaced after encoding.
    depth = DEPTHS[size % len(DEPTHS)]
    digits = DIGITS[size % len(DIGITS)]
    if action == 0:
        container[key] = COUNTS[size % len(COUNTS)]
    elif action == 1:
        container[key] = "A" * LENGTHS[size % len(LENGTHS)]
    elif action == 2:
        # One element more than the limit, each a scalar: repeating a list of games or
        # moves instead would encode millions of whole documents (minutes, gigabytes).
        first = container[key][0] if container[key] else 0
        item = first if isinstance(first, (int, float, str, bool)) else 0
        container[key] = [item] * (limits.MAX_ELEMENTS + 1)
    else:
        container[key] = _MARKER
    if smile:
        raw = (b"\xf8" * depth + b"\xf9" * depth if action == 3
               else Encoder().value(10 ** digits - 1))
        encoded = Encoder().document(document).replace(Encoder().value(_MARKER), raw)
    else:
        text = "[" * depth + "]" * depth if action == 3 else "9" * digits
        encoded = json.dumps(document).replace(json.dumps(_MARKER), text).encode()
    return build_bgf(encoded, smile=smile)


def _sgf_long_value(data: bytes, where: int, size: int, choice: int) -> bytes:
    """One ``[...]`` value (or a new comment) of a length at or beyond MAX_STRING_CHARS."""
    length = LENGTHS[choice % len(LENGTHS)]
    opens = [i for i in range(len(data)) if data[i] == 91]  # "["
    if not opens:
        return data + b"(;C[" + b"x" * length + b"])"
    i = opens[where % len(opens)] + 1
    j = data.find(b"]", i)
    return data[:i] + b"x" * length + (data[j:] if j >= 0 else b"]")


def _sgf_many_nodes(data: bytes, where: int, size: int, choice: int) -> bytes:
    """Nodes, game trees or games by the hundred thousand (at and beyond MAX_NODES,
    MAX_GAMES), or nesting deep, at one place."""
    token = (b";", b"(", b"(;", b")(;", b"(;GM[6])")[choice % 5]
    count = (1_000, limits.MAX_GAMES + 1, limits.MAX_NODES + 1)[size % 3]
    at = _pos(data, where)
    return data[:at] + token * count + data[at:]


FIELD_MUTATORS: dict[str, Callable[[bytes, int, int, int], bytes]] = {
    "sgf-long-value": _sgf_long_value,
    "sgf-many-nodes": _sgf_many_nodes,
}
"""The text field mutations (long values, many nodes and games, deep nesting)."""

BINARY_FIELD_MUTATORS: dict[str, Callable[[bytes, int, int, int], bytes]] = {
    "bgf-field": _bgf_field,
}
"""The ``.bgf`` field mutations (counts, long strings, many values, nesting, big integers)."""
