"""eXtreme Gammon (.xg) and BGBlitz (.bgf) files: read into the same record and replay.

The corpus holds the same matches as ``.xg``, ``.bgf`` and ``.mat``: replaying each binary
file must give exactly the events (position before and after each play, cube, results) and
final score of its ``.mat`` twin. ``tests/files/xg`` holds one MIT-licensed triple so that a
bare clone tests the readers too. Damaged input must end in one typed error, never a
traceback or unbounded memory.
"""

from __future__ import annotations

import gzip
import json
import struct
import zlib
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.errors import LimitExceededError, UnsupportedFormatError
from bgtools.limits import MAX_DECOMPRESSED_BYTES
from bgtools.readers import xg as xg_module
from bgtools.readers.detect import RECORD_SUFFIXES, read_records
from bgtools.readers.inputs import expand_paths
from bgtools.readers.smile import MAX_DEPTH, SmileError, decode_smile
from bgtools.readers.xg import RECORD_SIZE, read_game_file
from bgtools.reports.files import analyse_file
from tests.helpers.fuzzing import build_bgf, build_xg
from tests.helpers.paths import FILES, SAMPLE_BGF, SAMPLE_XG, corpus_file
from tests.helpers.replays import replay_keys

DATA = FILES / "xg"
SAMPLE_MAT = DATA / "B4_SrGcsKAQmoTyHlgJCbM.mat"
TWINS = ["3WNK_g1Z-PLsh_HyvQ5j4a", "5nqfGw9bWG3deTaU", "B4_SrGcsKAQmoTyHlgJCbM",
         "MYdvw1qGuyaRUH__", "Sz-2PgKnvb6aFls69-qFXg", "XCu3RJ0UvDg_Tldl", "baR-U643iUDpvzTC",
         "uwvEbd63UvdX7SDin5o_Iw"]
def _mat_twin(corpus: Path, stem: str) -> Path:
    mat = corpus / "gammonview" / f"{stem}.mat"
    return mat if mat.exists() else corpus_file(corpus, f"synthetic/{stem}.mat")


@pytest.mark.parametrize("stem", TWINS)
@pytest.mark.parametrize("kind", ["xg-binary/{}.xg", "bgblitz/{}.bgf"])
def test_binary_file_replays_exactly_like_its_mat_twin(corpus: Path, stem: str,
                                                       kind: str) -> None:
    events, summary = replay_keys(corpus_file(corpus, kind.format(stem)))
    mat_events, mat_summary = replay_keys(_mat_twin(corpus, stem))
    assert len(events) == len(mat_events) > 50
    assert events == mat_events
    assert summary == mat_summary


def test_the_bundled_sample_replays_like_its_twin() -> None:
    mat = replay_keys(SAMPLE_MAT)
    assert replay_keys(SAMPLE_XG) == mat
    assert replay_keys(SAMPLE_BGF) == mat
    assert mat[1][0][0] == (7, 1)  # type: ignore[index]


def test_the_bundled_match_replays_like_its_twin() -> None:
    """A 5-point match (the other bundled triple is a money session): the same events,
    Crawford state and results from all three forms, in a bare clone too."""
    stem = DATA / "UL-CV6F9jMM-E1Pu"
    mat = replay_keys(stem.with_suffix(".mat"))
    assert len(mat[0]) > 150
    assert replay_keys(stem.with_suffix(".xg")) == mat
    assert replay_keys(stem.with_suffix(".bgf")) == mat
    ((final, complete, winner, games),) = mat[1]  # type: ignore[misc]
    assert (final, complete, winner) == ((3, 5), True, 1)
    assert len(games) == 5


@pytest.mark.parametrize("path", ["synthetic/5nqfGw9bWG3deTaU.mat",
                                  "xg-binary/5nqfGw9bWG3deTaU.xg",
                                  "bgblitz/5nqfGw9bWG3deTaU.bgf"])
def test_the_illegal_play_is_caught_in_all_three_forms(corpus: Path, path: str) -> None:
    result = analyse_file(path, corpus_file(corpus, path))
    errors = [p for p in result.problems if p.severity.value == "error"]
    assert [(p.rule, p.game) for p in errors] == [("dice-mismatch", 1)]
    assert "14/10 13/12" in errors[0].message
    if path.endswith(".mat"):
        assert errors[0].line == 25 and errors[0].move is None
    else:
        assert errors[0].line is None and errors[0].column is None and errors[0].move == 20
    if path.endswith(".xg"):  # XG itself flags the play as invalid
        warnings = [(p.rule, p.game, p.move) for p in result.problems
                    if p.severity.value == "warning"]
        assert warnings == [("illegal-play-line", 1, 20)]


def test_binary_problems_print_game_and_move_and_json_has_move(corpus: Path) -> None:
    path = str(corpus / "xg-binary" / "5nqfGw9bWG3deTaU.xg")
    plain = CliRunner().invoke(app, ["validate", path])
    assert plain.exit_code == 1
    assert f"{path}: game 1, move 20: error[dice-mismatch]: 31 played as 14/10 13/12" \
        in plain.stdout
    out = CliRunner().invoke(app, ["validate", "--json", path])
    problem = json.loads(out.stdout)["problems"][1]
    assert problem == {"severity": "error", "rule": "dice-mismatch", "line": None,
                       "column": None, "game": 1, "move": 20,
                       "message": "31 played as 14/10 13/12: the moves do not match the dice"}


def test_text_problems_have_no_move_member(corpus: Path) -> None:
    out = CliRunner().invoke(app, ["validate", "--json",
                                   str(corpus_file(corpus, "synthetic/5nqfGw9bWG3deTaU.mat"))])
    problem = json.loads(out.stdout)["problems"][0]
    assert list(problem) == ["severity", "rule", "line", "column", "game", "message"]


def test_header_fields_are_read() -> None:
    xg = read_records(SAMPLE_XG.read_bytes(), "s.xg")
    bgf = read_records(SAMPLE_BGF.read_bytes(), "s.bgf")
    assert (xg.format, bgf.format) == ("xg", "bgf")
    for loaded in (xg, bgf):
        record = loaded.records[0]
        assert record.match_length == 0  # money (XG writes 99999)
        assert record.tag("Jacoby") == "Off" and record.tag("Beaver") == "Off"
        assert record.names == ("Fox", "Bluepoint02")
        assert [g.score for g in record.games] == [(0, 0), (1, 0), (1, 1)]
    assert xg.records[0].tag("EventDate") == "2026.01.04"
    assert bgf.records[0].tag("Site") == "SampleServer"
    last = xg.records[0].games[-1].actions
    assert [(a.kind, a.player, a.points) for a in last[-2:]] == [("resign", 1, None),
                                                                ("win", 0, 6)]


def test_formats_are_detected_by_content_and_directories_pick_them_up(tmp_path: Path) -> None:
    (tmp_path / "renamed.txt").write_bytes(SAMPLE_XG.read_bytes())
    (tmp_path / "blitz.dat").write_bytes(SAMPLE_BGF.read_bytes())
    assert read_records((tmp_path / "renamed.txt").read_bytes()).format == "xg"
    assert read_records((tmp_path / "blitz.dat").read_bytes()).format == "bgf"
    assert {".xg", ".xgp", ".bgf"} <= set(RECORD_SUFFIXES)
    (tmp_path / "a.xg").write_bytes(SAMPLE_XG.read_bytes())
    (tmp_path / "b.bgf").write_bytes(SAMPLE_BGF.read_bytes())
    walked = sorted(Path(d).name for d, _, _ in expand_paths([str(tmp_path)]))
    assert walked == ["a.xg", "b.bgf", "renamed.txt"]


@pytest.mark.parametrize("command", [["score"], ["pips"], ["status"], ["show", "--ascii"],
                                     ["replay", "--jsonl"], ["validate"]])
@pytest.mark.parametrize("sample", [SAMPLE_XG, SAMPLE_BGF])
def test_every_command_works_on_binary_files(command: list[str], sample: Path) -> None:
    result = CliRunner().invoke(app, [*command, str(sample)])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "Fox" in result.stdout or "position_id_before" in result.stdout \
        or "valid" in result.stdout


@pytest.mark.parametrize("to", ["mat", "sgf", "json"])
@pytest.mark.parametrize("sample", [SAMPLE_XG, SAMPLE_BGF])
def test_convert_keeps_the_match(tmp_path: Path, sample: Path, to: str) -> None:
    out = tmp_path / f"out.{to}"
    result = CliRunner().invoke(app, ["convert", str(sample), "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    assert replay_keys(out)[1] == replay_keys(sample)[1]
    if to != "sgf":  # SGF has no resignation-before-roll cell; every position still agrees
        assert [k[4:6] for k in replay_keys(out)[0]] == [k[4:6] for k in replay_keys(sample)[0]]


# --- damaged input -------------------------------------------------------------------------


def _flipped(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:]


def _body() -> bytes:
    return read_game_file(SAMPLE_XG.read_bytes())


def test_rebuilt_archive_reads_like_the_original() -> None:
    again = read_records(build_xg(_body()), "x.xg").records[0]
    original = read_records(SAMPLE_XG.read_bytes(), "x.xg").records[0]
    assert [len(g.actions) for g in again.games] == [len(g.actions) for g in original.games]


@pytest.mark.parametrize("data, message", [
    (b"RGMH" + bytes(100), "truncated"),
    (SAMPLE_XG.read_bytes()[:30_000], "truncated"),
    (_flipped(SAMPLE_XG.read_bytes(), 30_000), "checksum"),
    (SAMPLE_XG.read_bytes()[:-1], "trailer"),
    (build_xg(_body()[:RECORD_SIZE * 3 + 17]), "not a whole number of 2,560-byte records"),
    (build_xg(b""), "not a whole number"),
    (build_xg(bytes(RECORD_SIZE)), "no DMLI magic"),
    (build_xg(_body()[RECORD_SIZE:]), "not the match header"),
    (b'{"format":"BGF","compress":true,"useSmile":true}\n' + b"\x1f\x8b" + bytes(30),
     "corrupt"),
    (build_bgf(b":)\n\x01\xfa\x80a")[:-8], "truncated"),
    (build_bgf(b"not smile"), "Smile"),
    (build_bgf(b":)\n\x01\xfa\x80a\xc4"), "ends early"),
    (build_bgf(b'{"games": 3}', smile=False), "no list of games"),
    (b'{"format":"BGF"}\n', "nothing after the header"),
])
def test_damaged_files_are_one_line_errors(data: bytes, message: str) -> None:
    with pytest.raises(UnsupportedFormatError) as info:
        read_records(data, "bad")
    assert message in str(info.value) and "\n" not in str(info.value)
    assert info.value.exit_code == 2


def test_the_member_crc_field_is_not_what_guards_the_records() -> None:
    # The archive CRC covers the stored bytes and zlib's Adler-32 the inflated ones, so a
    # wrong CRC field alone changes nothing, and damage inside the stream is still caught.
    body = _body()
    original = read_records(SAMPLE_XG.read_bytes(), "x.xg").records[0]
    wrong_field = read_records(build_xg(body, member_crc=zlib.crc32(body) ^ 1), "x.xg")
    assert [len(g.actions) for g in wrong_field.records[0].games] == \
        [len(g.actions) for g in original.games]
    packed = bytearray(zlib.compress(body))
    packed[-2] ^= 0xFF  # inside the Adler-32: the stream inflates, the check fails
    with pytest.raises(UnsupportedFormatError, match="corrupt") as info:
        read_records(build_xg(body, packed=bytes(packed)), "bad.xg")
    assert "\n" not in str(info.value)


def test_wrong_magic_is_not_taken_for_xg() -> None:
    data = b"RGMX" + SAMPLE_XG.read_bytes()[4:]
    with pytest.raises(UnsupportedFormatError, match="binary file"):
        read_records(data, "bad")


@pytest.mark.slow
def test_zlib_bombs_stop_at_the_limit() -> None:
    bomb = bytes(MAX_DECOMPRESSED_BYTES + RECORD_SIZE)
    with pytest.raises(LimitExceededError, match="MAX_DECOMPRESSED_BYTES"):
        read_records(build_xg(bomb), "bomb.xg")  # the index tells the truth
    with pytest.raises(LimitExceededError, match="MAX_DECOMPRESSED_BYTES"):
        read_records(build_xg(bomb, osize=RECORD_SIZE), "bomb.xg")  # the index lies
    with pytest.raises(LimitExceededError, match="MAX_DECOMPRESSED_BYTES"):
        read_records(build_bgf(bomb), "bomb.bgf")


def test_the_xgdatatools_example_is_refused_cleanly(corpus: Path) -> None:
    path = corpus_file(corpus, "xg-binary/xgdatatools_example.xg")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert "578 bytes, not a whole number of 2,560-byte records" in result.stdout


def _set(body: bytes, record: int, offset: int, value: int) -> bytes:
    buf = bytearray(body)
    struct.pack_into("<i", buf, record * RECORD_SIZE + offset, value)
    return bytes(buf)


def _first(body: bytes, kind: int) -> int:
    return next(i for i in range(len(body) // RECORD_SIZE) if body[i * RECORD_SIZE + 8] == kind)


@pytest.mark.parametrize("kind, offset, value, expected", [
    (3, 100, 9, "the dice 9 and"),
    (3, 64, 3, "the player on roll is 3"),
    (3, 68, 40, "out of range"),
    (4, 24, 0, "the winner is 0"),
    (2, 20, 5, None),  # no double at the first cube record: the answer is not read
])
def test_out_of_range_values_are_problems(kind: int, offset: int, value: int,
                                          expected: str | None) -> None:
    body = _body()
    data = build_xg(_set(body, _first(body, kind), offset, value))
    record = read_records(data, "odd.xg").records[0]
    messages = [p.message for p in record.problems if p.rule == "syntax"]
    if expected is None:
        assert messages == []
    else:
        assert any(expected in m for m in messages), messages
        located = next(p for p in record.problems if p.rule == "syntax")
        assert located.game == 1 and located.move is not None and located.line is None


def test_an_unknown_record_type_is_a_problem() -> None:
    body = bytearray(_body())
    body[RECORD_SIZE * 5 + 8] = 42
    record = read_records(build_xg(bytes(body)), "odd.xg").records[0]
    assert any("unknown type 42" in p.message for p in record.problems)


# --- the Smile decoder ---------------------------------------------------------------------


def _vint(n: int) -> bytes:
    out = [0x80 | (n & 0x3F)]
    n >>= 6
    while n:
        out.insert(0, n & 0x7F)
        n >>= 7
    return bytes(out)


def test_smile_values_and_shared_names() -> None:
    doc = (b":)\n\x01\xfa"
           b"\x80a" + b"\xc4"  # "a": 2
           + b"\x81bb" + b"\xf8" + b"\x44xyzzy" + b"\x21\x22\x23\x20\xc1" + b"\xf9"
           + b"\x40" + b"\x24" + _vint(2 * 70000)  # back reference to "a": 70000
           + b"\x82ccc" + b"\x25" + _vint(2 * (1 << 40) - 1)  # -(2**40)
           + b"\x83dddd" + b"\x29" + bytes([0x01] + [0] * 9)  # 2.0 as 7-bit groups? see below
           + b"\xfb")
    value = decode_smile(doc)
    assert isinstance(value, dict)
    assert value["a"] == 70000  # the later duplicate key wins, read by reference
    assert value["bb"] == ["xyzzy", None, False, True, "", -1]
    assert value["ccc"] == -(1 << 40)
    assert isinstance(value["dddd"], float)


def test_smile_double_and_long_strings() -> None:
    bits = struct.unpack(">Q", struct.pack(">d", 1.5))[0]
    groups = bytes((bits >> (7 * i)) & 0x7F for i in range(9, -1, -1))
    text = "é" * 40
    doc = b":)\n\x00\xf8\x29" + groups + b"\xe4" + text.encode() + b"\xfc\xf9"
    assert decode_smile(doc) == [1.5, text]


@pytest.mark.parametrize("doc, message", [
    (b"{}", "not Smile"),
    (b":)\n\x01\xfa\x40\xc0\xfb", "never defined"),
    (b":)\n\x01\xfa\x80a", "ends early"),
    (b":)\n\x01\x27", "unknown value token"),
    (b":)\n\x01" + b"\xf8" * (MAX_DEPTH + 5), "nesting deeper"),
    (b":)\n\x01\xe0abc", "no end marker"),
    (b":)\n\x01\xc0\xc0", "data after the end"),
])
def test_smile_errors(doc: bytes, message: str) -> None:
    with pytest.raises(SmileError, match=message):
        decode_smile(doc)


@pytest.mark.slow
def test_smile_decoder_matches_gammonview_on_the_corpus(corpus: Path) -> None:
    bgf = pytest.importorskip("gvformat.bgf")
    for path in sorted((corpus / "bgblitz").glob("*.bgf"))[:3]:
        body = gzip.decompress(path.read_bytes().partition(b"\n")[2])
        assert decode_smile(body) == bgf.decode_smile(body)


def test_xg_records_match_gammonview_reading(corpus: Path) -> None:
    """Cross-check: every XG move record's dice and player as gvformat reads them."""
    xg = pytest.importorskip("gvformat.xg")
    path = corpus / "xg-binary" / "MYdvw1qGuyaRUH__.xg"
    theirs = [(m["dice"][0], m["dice"][1], m["actifp"])
              for kind, m in xg.read_xg(path) if kind == "move"]
    ours = [(a.dice[0], a.dice[1], 1 if a.player == 0 else -1)
            for g in read_records(path.read_bytes()).records[0].games
            for a in g.actions if a.kind == "roll" and a.dice is not None]
    assert ours == theirs and len(ours) == 125
    assert zlib.crc32(read_game_file(path.read_bytes())) != 0


# --- temp.xg inflated chunk by chunk --------------------------------------------------------


def _streamed_and_whole(data: bytes) -> tuple[object, object]:
    xg = xg_module
    whole: object
    try:
        whole = xg._parse_body(xg.read_game_file(data, "x.xg"), "x.xg")  # noqa: SLF001
    except Exception as exc:  # noqa: BLE001 - the error is what is compared
        whole = f"{type(exc).__name__}: {exc}"
    try:
        streamed: object = xg.parse_xg(data, "x.xg")[0]
    except Exception as exc:  # noqa: BLE001 - the error is what is compared
        streamed = f"{type(exc).__name__}: {exc}"
    return streamed, whole


def test_chunks_read_the_corpus_like_the_whole_body(corpus: Path) -> None:
    xg = xg_module
    paths = [SAMPLE_XG, *sorted((corpus / "xg-binary").glob("*.xg"))]
    streamed_files = 0
    for path in paths:
        data = path.read_bytes()
        streamed, whole = _streamed_and_whole(data)
        assert streamed == whole, path
        found = xg._archived(data, "x.xg", "temp.xg")  # noqa: SLF001
        streamed_files += xg._parse_streamed(found, "x.xg") is not None  # noqa: SLF001
    assert streamed_files >= 2  # the sample (120 records: 3 chunks) and the corpus matches


def _with_record(body: bytes, index: int, offset: int, value: int) -> bytes:
    changed = bytearray(body)
    changed[index * RECORD_SIZE + offset] = value
    return bytes(changed)


CHUNK = xg_module._CHUNK_RECORDS  # noqa: SLF001 - records a chunk, for bodies around it


@pytest.mark.parametrize("make", [
    lambda body: build_xg(_with_record(body, CHUNK + 10, 8, 42)),  # a problem in chunk 2
    lambda body: build_xg(_with_record(body, 3, 8, 42)),  # and in the first
    lambda body: build_xg(body, osize=len(body) - RECORD_SIZE),  # longer than declared
    lambda body: build_xg(body, osize=len(body) + RECORD_SIZE),  # shorter than declared
    lambda body: build_xg(body[:-RECORD_SIZE] + bytes(RECORD_SIZE)),  # skipped records last
    lambda body: build_xg(body[:RECORD_SIZE * CHUNK]),  # exactly one chunk
    lambda body: build_xg(body[:RECORD_SIZE * (CHUNK - 1)]),  # less than one
    lambda body: build_xg(body[:RECORD_SIZE * (CHUNK + 1)] + b"x"),  # a partial record last
    lambda body: build_xg(body + body),  # a second match header, read as an unknown record
])
def test_chunks_read_odd_bodies_like_the_whole_body(make: Callable[[bytes], bytes]) -> None:
    streamed, whole = _streamed_and_whole(make(_body()))
    assert streamed == whole


def test_chunks_read_a_damaged_stream_like_the_whole_body() -> None:
    data = bytearray(build_xg(_body()))
    packed_end = len(data) - 36 - 100  # inside the compressed temp.xg, near its end
    for at in (packed_end, packed_end - 2000, 9000):
        damaged = bytearray(data)
        damaged[at] ^= 0x55
        streamed, whole = _streamed_and_whole(bytes(damaged))
        assert streamed == whole


def _wide_decoded_whole(record: bytes, offset: int, units: int) -> str:
    text = record[offset:offset + 2 * units].decode("utf-16-le", errors="replace")
    cut = text.find("\x00")
    return text if cut < 0 else text[:cut]


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=80).map(lambda raw: raw.replace(b"\x01", b"\x00")),
       st.integers(0, 5), st.integers(0, 40))
def test_wide_strings_stop_at_the_first_nul_unit(record: bytes, offset: int,
                                                 units: int) -> None:
    """``_wide`` decodes only the units before the first NUL unit: the string is the one
    that decoding all the units and cutting at the first NUL gives (odd places, lone
    surrogates, fields cut short by the record's end)."""
    assert xg_module._wide(record, offset, units) == _wide_decoded_whole(  # noqa: SLF001
        record, offset, units)


@settings(max_examples=400, deadline=None)
@given(st.floats(-10.0, 3_000_000.0, allow_nan=False))
def test_dates_are_formatted_as_strftime_formats_them(value: float) -> None:
    """XG's date (days since 1899-12-30, a Delphi TDateTime) as ``EventDate``/``EventTime``:
    the hand-made format equals ``strftime``'s, from the first day to 9999-12-31."""
    found = xg_module._date(value)  # noqa: SLF001
    if not 1.0 <= value <= 2_958_465.0:
        assert found is None
        return
    moment = datetime(1899, 12, 30) + timedelta(days=value)
    assert found == (moment.strftime("%Y.%m.%d"), moment.strftime("%H:%M"))


def test_a_double_not_answered_yet_is_a_pending_double(tmp_path: Path) -> None:
    """A match saved while a double awaits its answer ends with a cube record whose answer
    is -1: the game stops at the double, unanswered (it was a false ``syntax`` error)."""
    body = read_game_file((DATA / "UL-CV6F9jMM-E1Pu.xg").read_bytes())
    starts = range(0, len(body), RECORD_SIZE)
    doubled = next(at for at in starts
                   if body[at + 8] == 2 and struct.unpack_from("<i", body, at + 16)[0] == 1)
    cut = bytearray(body[:doubled + RECORD_SIZE])
    assert struct.unpack_from("<i", cut, doubled + 20)[0] in (0, 1)
    struct.pack_into("<i", cut, doubled + 20, -1)
    path = tmp_path / "pending.xg"
    path.write_bytes(build_xg(bytes(cut)))
    (record,) = read_records(path.read_bytes(), "pending.xg").records
    assert record.problems == []
    assert record.games[-1].actions[-1].kind == "double"
    result = CliRunner().invoke(app, ["validate", "--json", str(path)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["complete"] is False
    # The match stops, and so does its last game (at the double: a record cut short).
    assert sorted(p["rule"] for p in report["problems"]) == ["last-game-unfinished",
                                                            "match-incomplete"]
