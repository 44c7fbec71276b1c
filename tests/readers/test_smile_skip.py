"""The skip of unneeded Smile values (BGBlitz analysis) reads exactly the bytes the full
decode reads: the fast skips (the plain scan of the compiled build, ``native=True``; the
learnt layouts and the fast pattern of the pure build, ``native=False``; each tested in
both builds) and the token loop agree with each other and with the full decode, on random
Smile documents and on every BGBlitz body of the corpus.

The documents are written by a small Smile encoder below (shared names on, shared values
off, as BGBlitz writes them), following the Smile 1.0 specification.
"""

from __future__ import annotations

import math
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgtools.readers.bgf import read_bgf_document
from bgtools.readers.smile import SmileError, decode_smile
from tests.helpers.fuzzing import Encoder
from tests.helpers.paths import CORPUS, FILES

BODIES = sorted({*(path for path in FILES.rglob("*.bgf") if "hostile" not in path.parts),
                 *(CORPUS / "bgblitz").glob("*.bgf")})  # BGBlitz's own (not the hostile ones)
ANALYSIS = frozenset({"moveAnalysis", "equity", "luck", "pr", "prGreen", "prRed",
                      "dancingEquity"})


def _without(value: object, skip: frozenset[str]) -> object:
    """``value`` with the members named in ``skip`` left out of every object."""
    if isinstance(value, list):
        return [_without(v, skip) for v in value]
    if isinstance(value, dict):
        return {k: _without(v, skip) for k, v in value.items() if k not in skip}
    return value


def _only(value: object, keep: frozenset[str]) -> object:
    """``value`` with only the members named in ``keep`` in every object."""
    if isinstance(value, list):
        return [_only(v, keep) for v in value]
    if isinstance(value, dict):
        return {k: _only(v, keep) for k, v in value.items() if k in keep}
    return value


NAMES = st.sampled_from(["a", "bb", "red", "eq", "moveAnalysis", "equity", "x" * 40, "é",
                         "", "ünïcode-name"])
SCALARS = (st.none() | st.booleans() | st.integers(-2**70, 2**70)
           | st.floats(allow_nan=False)
           | st.text(max_size=70) | st.sampled_from(["0.18096678", "-0.00000000", "ACCEPT"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(NAMES, inner, max_size=6), max_leaves=40)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 300), VALUES, VALUES, VALUES)
def test_the_fast_skip_the_token_loop_and_the_full_decode_agree(
        defined: int, kept: object, skipped: object, after: object) -> None:
    """Random documents, with up to 300 names defined first (long back references):
    skipping ``equity`` and ``moveAnalysis`` members with the fast pattern (compiled at
    once) or with the token loop gives the full decode without those members."""
    prefix = {f"name{i}": i for i in range(defined)}
    document = [prefix, {"a": kept, "equity": skipped, "red": after},
                {"moveAnalysis": [skipped, {"eq": skipped}], "bb": after}]
    data = Encoder().document(document)
    full = decode_smile(data)
    assert full == document
    skip = frozenset({"equity", "moveAnalysis"})
    expected = _without(document, skip)
    for native in (True, False):
        assert decode_smile(data, skip, fast_after=1, native=native) == expected
    assert decode_smile(data, skip, fast_after=None) == expected
    keep = frozenset({"a", "red", "bb", "eq"})
    for native in (True, False):
        assert decode_smile(data, keep=keep, fast_after=1, native=native) \
            == _only(document, keep)


def _outcome(data: bytes, skip: frozenset[str], fast_after: int | None,
             native: bool = False) -> object:
    try:
        return decode_smile(data, skip, fast_after, native=native)
    except SmileError as exc:
        return f"SmileError: {exc}"


def _all_alike(data: bytes, skip: frozenset[str]) -> None:
    """The plain scan, the layouts and patterns, and the token loop alone give the same
    value or the same error."""
    slow = _outcome(data, skip, None)
    assert _outcome(data, skip, 1, native=True) == slow
    assert _outcome(data, skip, 1, native=False) == slow


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 100), VALUES,
       st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1,
                max_size=3),
       st.integers(0, 10**6))
def test_damaged_documents_skip_alike(defined: int, skipped: object,
                                      edits: list[tuple[int, int]], cut: int) -> None:
    """Damaged bytes (changed, and the end cut off): the fast pattern and the token loop
    give the same value or the same error, so the pattern accepts nothing the loop
    rejects (a reference beyond the table, a bad 7-bit group, a too long VInt, ...)."""
    prefix = {f"name{i}": i for i in range(defined)}
    data = bytearray(Encoder().document(
        [prefix, {"equity": skipped, "red": 1}, {"equity": [skipped, {"eq": skipped}]}]))
    start = len(Encoder().document([prefix]))  # damage the part after the names
    for where, byte in edits:
        data[start + where % (len(data) - start)] = byte
    damaged = bytes(data[:len(data) - cut % 4])
    _all_alike(damaged, frozenset({"equity"}))


_SAME_CLASS = [b"0123456789.-", b"\x21\x22\x23", bytes(range(0x80, 0xC0)),
               bytes(range(0xC0, 0xE0))]  # bytes a value of one layout may swap


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 300), VALUES,
       st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255), st.booleans()),
                min_size=1, max_size=4))
def test_a_value_of_a_learnt_layout_is_read_as_the_token_loop_reads_it(
        defined: int, skipped: object, edits: list[tuple[int, int, bool]]) -> None:
    """A skipped value met three times: the first defines its names, the second (all
    back references) is learnt, the third has bytes changed, mostly within their
    signature class so that the learnt layout is looked up, sometimes to any byte: the
    skip by layout gives the token loop's value or error."""
    prefix = {f"name{i}": i for i in range(defined)}
    encoder = Encoder()
    head = encoder.document([prefix, {"equity": skipped, "red": 1}])[:-2]  # open: ...}]
    head += b"\xfb" + encoder.value({"equity": skipped, "red": 2})[:-1]
    again = bytearray(encoder.value({"equity": skipped, "red": 3}))
    for where, byte, same_class in edits:
        at = where % len(again)
        group = next((g for g in _SAME_CLASS if again[at] in g), None) if same_class \
            else bytes(range(256))
        if group is not None:
            again[at] = group[byte % len(group)]
    data = head + b"\xfb" + bytes(again) + b"\xf9"
    _all_alike(data, frozenset({"equity"}))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.dictionaries(NAMES, VALUES, max_size=4), min_size=1, max_size=6),
       st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=2),
       st.integers(0, 3))
def test_an_array_of_objects_is_skipped_as_the_token_loop_skips_it(
        objects: list[dict[str, object]], edits: list[tuple[int, int]], cut: int) -> None:
    """Arrays of objects (BGBlitz's candidate plays), met twice so that the second has
    its objects' layouts learnt, some objects defining names, some bytes changed and the
    end cut off: each object by its layout or by the token loop gives the token loop's
    value or error for the whole array."""
    data = bytearray(Encoder().document(
        [{"moveAnalysis": objects, "red": 1}, {"moveAnalysis": objects, "red": 2}]))
    for where, byte in edits:
        data[where % len(data)] = byte
    damaged = bytes(data[:len(data) - cut])
    _all_alike(damaged, frozenset({"moveAnalysis"}))


_TOKEN_BYTES = st.sampled_from([0x00, 0x20, 0x21, 0x23, 0x24, 0x25, 0x26, 0x28, 0x29, 0x2A,
                                 0x30, 0x31, 0x34, 0x40, 0x41, 0x4A, 0x5F, 0x60, 0x7F, 0x80,
                                 0x81, 0x9F, 0xA0, 0xBF, 0xC0, 0xDF, 0xE0, 0xE8, 0xEC, 0xF8,
                                 0xF9, 0xFA, 0xFB, 0xFC, 0xFF])


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 300), st.lists(_TOKEN_BYTES | st.integers(0, 255), max_size=60),
       st.booleans())
def test_any_bytes_in_a_skipped_member_skip_alike(defined: int, value: list[int],
                                                  closed: bool) -> None:
    """Any bytes, mostly token bytes, where a skipped member's value should be: the plain
    scan and the layouts read what the token loop reads, or fail as it fails."""
    encoder = Encoder()
    head = encoder.document([{f"name{i}": i for i in range(defined)}])[:-1]  # open: ...}
    data = head + b"\xfa" + encoder.key("eq") + bytes(value) + (b"\xfb\xf9" if closed else b"")
    _all_alike(data, frozenset({"eq"}))


@pytest.mark.parametrize("depth", [1, 40, 41, 42, 200, 201, 202])
@pytest.mark.parametrize("kind", ["array", "object"])
def test_deep_skipped_values_read_as_the_token_loop_reads_them(depth: int, kind: str) -> None:
    """Skipped values nested around the plain scan's limit (40) and the decoder's (200):
    the same value or the same error (too deep) whichever way they are read."""
    value: object = 1
    for _ in range(depth - 1):
        value = [value] if kind == "array" else {"eq": value}
    data = Encoder().document([{"eq": value, "red": 1}, {"eq": value}])
    _all_alike(data, frozenset({"eq"}))


def _ref(index: int) -> bytes:
    return bytes([0x40 + index]) if index < 64 else bytes([0x30 | index >> 8, index & 0xFF])


@pytest.mark.parametrize("names", [1, 2, 63, 64, 65, 100, 255, 256, 257, 600])
def test_a_skipped_reference_is_checked_against_the_table_size(names: int) -> None:
    """With ``names`` names defined, a skipped object may refer to the last of them and
    not to the next: the fast pattern reads the one and leaves the other to the token
    loop, which reports it, exactly as without the pattern."""
    before = {f"n{i}": i for i in range(names - 1)}
    head = b":)\n\x01\xf8" + Encoder().value(before) + b"\xfa\x81eq"  # name names - 1
    assert decode_smile(head + b"\xfa\xfb\xfb\xf9") == [before, {"eq": {}}]
    for index, fine in ((names - 1, True), (names, False)):
        data = head + b"\xfa" + _ref(index) + b"\xc2\xfb\xfb\xf9"
        slow = _outcome(data, frozenset({"eq"}), None)
        _all_alike(data, frozenset({"eq"}))
        assert (slow == [before, {}]) is fine
        if not fine:
            assert "never defined" in str(slow)


def test_the_encoder_writes_what_the_decoder_reads() -> None:
    """The test's encoder is checked on fixed values, so that the property above tests
    the decoder and not the encoder."""
    value = {"a": [1, -17, 2**40, 1.5, "", "é" * 40, "x" * 100, None, True],
             **{f"k{i}": i for i in range(80)}, "k70": {"k3": math.pi}}
    assert decode_smile(Encoder().document(value)) == value


def _body(path: Path) -> bytes:
    data = path.read_bytes()
    body = data.partition(b"\n")[2]
    return zlib.decompress(body, 31 if body[:2] == b"\x1f\x8b" else 15)


@pytest.mark.skipif(not BODIES, reason="no .bgf files")
@pytest.mark.parametrize("path", BODIES, ids=lambda p: p.name)
def test_every_bgblitz_body_skips_to_what_the_full_decode_reads(path: Path) -> None:
    """The reader's skip (fast pattern from the first value on, and the token loop) gives
    the full decode of the body without the analysis members."""
    body = _body(path)
    expected = _without(decode_smile(body), ANALYSIS)
    for native in (True, False):
        assert decode_smile(body, ANALYSIS, fast_after=1, native=native) == expected
    assert decode_smile(body, ANALYSIS, fast_after=None) == expected
    assert read_bgf_document(path.read_bytes())[1] == expected
    full = decode_smile(body)
    keep = frozenset({"matchlen", "games", "scoreRed", "moves", "player", "red", "from"})
    for native in (True, False):
        assert decode_smile(body, keep=keep, fast_after=1, native=native) == _only(full, keep)
    assert decode_smile(body, keep=keep, fast_after=None) == _only(full, keep)


@pytest.mark.parametrize("value", [
    b"\x28\x7f\x7f\x80\x00\x00",  # a float with a 7-bit group's high bit set
    b"\x24" + b"\x01" * 25 + b"\x81",  # a VInt longer than 20 bytes
    b"\xfa\x81\xff\xfe\xc2\xfb",  # an object whose new name is not UTF-8
    b"\xfa\x34\xff\xfc\xc2\xfb",  # a long name that is not UTF-8
])
def test_a_skipped_value_is_malformed_when_its_decode_is(value: bytes) -> None:
    """The skip checks the tokens the decode checks: a value whose tokens cannot be
    decoded cannot be skipped either, by the fast pattern or by the token loop."""
    data = b":)\n\x01\xfa\x81eq" + value + b"\x82red\xc2\xfb"
    with pytest.raises(SmileError):
        decode_smile(data)
    for fast_after, native in ((1, True), (1, False), (None, False)):
        with pytest.raises(SmileError):
            decode_smile(data, frozenset({"eq"}), fast_after, native=native)


@pytest.mark.parametrize("value", [
    b"\x41\xff\xfe",  # a tiny ASCII string that is not UTF-8
    b"\x61" + b"\xff" * 34,  # a short ASCII one
    b"\x81\xc3\x28\xa0",  # a tiny Unicode one (a broken two-byte sequence)
    b"\xe0\xff\xfe\xfc",  # a long ASCII one, to its end marker
    b"\xe4\xed\xa0\x80\xfc",  # a long Unicode one: a lone surrogate, as Java may write it
    b"\xf8\x41\xff\xfe\xfa\x81eq\x41\xff\xfe\xfb\xf9",  # inside an array and an object
])
def test_a_skipped_string_is_passed_over_not_decoded(value: bytes) -> None:
    """A string inside a skipped member (BGBlitz's analysis, which nothing reads) is passed
    over by its length or to its end marker, not decoded: content that is not UTF-8 there
    does not refuse the file, by any way of skipping; kept, it does."""
    data = b":)\n\x01\xfa\x81eq" + value + b"\x82red\xc2\xfb"
    with pytest.raises(SmileError, match="not UTF-8"):
        decode_smile(data)
    for fast_after, native in ((1, True), (1, False), (None, False)):
        assert decode_smile(data, frozenset({"eq"}), fast_after, native=native) == {"red": 1}


def test_a_skipped_long_string_without_its_end_marker_is_malformed() -> None:
    data = b":)\n\x01\xfa\x81eq\xe0abc"
    outcomes = {_outcome(data, frozenset({"eq"}), fast_after, native)
                for fast_after, native in ((1, True), (1, False), (None, False))}
    assert outcomes == {"SmileError: a long string has no end marker 0xFC at byte 9"}
    with pytest.raises(SmileError, match="no end marker 0xFC at byte 9"):
        decode_smile(data)


@settings(max_examples=300, deadline=None)
@given(st.integers(0x40, 0xBF), st.integers(0, 70), st.integers(0, 255),
       st.integers(-3, 3))
def test_every_string_token_skips_as_the_token_loop_reads_it(token: int, where: int,
                                                             byte: int, short: int) -> None:
    """Every string token 0x40-0xBF (the plain scan computes its length from the token
    and passes over its content): content of the right length, of a few bytes more or less,
    with any byte at any place, read alike whichever way, value or error (a byte that
    leaves the rest malformed, or the data ends early)."""
    size = (token & 0x1F) + (1, 33, 2, 34)[(token - 0x40) >> 5]
    content = bytearray(b"7" * max(size + short, 0))
    if content:
        content[where % len(content)] = byte
    value = bytes([token]) + bytes(content)
    encoder = Encoder()
    head = encoder.document([{"red": 1}])[:-1]  # open: ...}
    data = head + b"\xfa" + encoder.key("eq") + value + encoder.key("red") + b"\xc2\xfb\xf9"
    _all_alike(data, frozenset({"eq"}))


@pytest.mark.parametrize("tail", [b"\xfb", b"\xfb\xfb", b"\xf9", b"\xf9\xf9", b"\xfb\xf9",
                                  b"\xf9\xfb", b"", b"\xff", b"\xfb\xf9\xff", b"\xfb\xf9\xf9"])
def test_a_member_without_a_value_and_stray_ends_fail(tail: bytes) -> None:
    """The document loop closes an object (0xFB in a key's place) and an array (0xF9 in a
    value's place) in one block: only the right ends make a document; an end in the wrong
    place (0xFB for a value, 0xF9 for a key, one too many, none) is an error, the same
    whichever way the document is read."""
    encoder = Encoder()
    head = encoder.document([{"red": 1}])[:-1]  # the root array left open
    cases = ((b"\xfa" + encoder.key("red"), ()),  # a key without its value
             (b"\xfa" + encoder.key("red") + b"\xc2", (b"\xfb\xf9", b"\xfb\xf9\xff")),
             (b"\xf8\xc2", (b"\xf9\xf9",)))
    for body, closing in cases:
        data = head + body + tail
        outcomes = set()
        for keep in (None, frozenset({"red"})):
            for native in (True, False):
                try:
                    outcomes.add(repr(decode_smile(data, keep=keep, native=native)))
                except SmileError as exc:
                    outcomes.add(f"SmileError: {exc}")
        outcomes.add(str(_outcome(data, frozenset(), None)))
        assert len(outcomes) == 1, outcomes
        assert outcomes.pop().startswith("SmileError") == (tail not in closing)


@pytest.mark.parametrize("fillers", [0, 60, 70, 1020, 1021, 1022, 1023, 2046])
def test_members_are_kept_by_name_across_a_table_reset(fillers: int) -> None:
    """The document loop keeps its verdict (read or skip) for each name by its place in
    the shared-name table: when the table fills up and starts again, a place holds
    another name (with 1,022 fillers, ``zz`` at 0 where ``red`` was, ``red`` at 1 where
    ``eq`` was), and each member is still kept or skipped by its own name, short and long
    back references alike."""
    document = [{"red": 1, "eq": 0}, {"red": 1, "eq": [0]},  # references: verdicts kept
                {f"n{i}": i for i in range(fillers)},
                {"zz": 9, "red": 2, "eq": [1, {"red": 3, "eq": 4}], "n5": 7},
                {"red": 5, "eq": {"eq": 6, "red": 8}, "zz": [1], "n70": "x"}]
    data = Encoder().document(document)
    keep, skip = frozenset({"red"}), frozenset({"eq"})
    for native in (True, False):
        assert decode_smile(data, keep=keep, native=native) == _only(document, keep)
        assert decode_smile(data, skip, native=native) == _without(document, skip)
