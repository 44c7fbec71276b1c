"""Hostile files meet the readers (issue 38, the reader half): bounded time and memory,
one-line typed errors, and writers whose files read back.

Every attack of :data:`tests.helpers.hostile_files.ATTACKS` (each built from a security
probe's reproducer: small ones kept in ``tests/files/hostile``, big ones built here) goes
through ``validate --json``, ``score``, ``convert``, ``show --html`` and the library
(``bgtools.read(...)`` then ``.replay()``) in a child process whose address space is capped
(``RLIMIT_AS``) and which is killed at a time limit: each must answer within
:data:`~tests.helpers.hostile_files.TIME_CAP` seconds and a peak of
:data:`~tests.helpers.hostile_files.MEMORY_CAP` bytes, with exit 1 or 2 (0 where the damage
lies in data no reader reads), no traceback and no internal error. The unit tests below pin
each fix where it is made.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools import limits
from bgtools.cli import app
from bgtools.errors import LimitExceededError
from bgtools.readers.detect import read_records
from bgtools.readers.sgf import parse_collection
from bgtools.readers.smile import SmileError, SmileLimitError, decode_smile
from bgtools.write.mat import mat_name
from tests.helpers.fuzzing import Encoder, apply_binary_edits, apply_edits, check_bytes
from tests.helpers.hostile_files import (
    ATTACKS,
    CLI_MAIN,
    HOSTILE_DATA,
    LIBRARY_REPLAY,
    MEMORY_CAP,
    TIME_CAP,
    Capped,
    attack_bytes,
    bgf_raw_member,
    run_capped,
    sgf_named,
    smile_seven_bit,
)

runner = CliRunner()


def _raw(value: bytes) -> bytes:
    """A Smile document (no shared strings) of the value bytes ``value``."""
    return b":)\n\x00" + value


@pytest.fixture(scope="module")
def attack_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every attack written to a file (big ones built once per module)."""
    directory = tmp_path_factory.mktemp("attacks")
    files = {}
    for name in ATTACKS:
        path = directory / name
        path.write_bytes(attack_bytes(name))
        files[name] = path
    return files


def _within_caps(run: Capped, what: str) -> None:
    assert run.code is not None, f"{what}: killed after {run.seconds:.1f} s"
    assert run.seconds < TIME_CAP, f"{what}: {run.describe()}"
    assert run.peak_bytes is not None and run.peak_bytes < MEMORY_CAP, f"{what}: {run.describe()}"
    assert "Traceback" not in run.out + run.err, f"{what}: {run.err[-2000:]}"
    assert "internal error" not in run.out + run.err, f"{what}: {run.err[-500:]}"


def test_the_small_attacks_are_kept() -> None:
    for name, attack in ATTACKS.items():
        if attack.stored:
            assert (HOSTILE_DATA / name).read_bytes() == attack.build(), name


def test_validate_json_answers_every_attack_within_the_caps(
        attack_files: dict[str, Path]) -> None:
    # One process for all (the suite's quick check; each alone is timed below): one JSON
    # object per file, in order, each saying what its attack must.
    names = list(ATTACKS)
    run = run_capped(CLI_MAIN, "validate", "--json", "-j", "1",
                     *(str(attack_files[name]) for name in names),
                     seconds=TIME_CAP * len(names))
    assert run.code == 2 and run.peak_bytes is not None and run.peak_bytes < MEMORY_CAP, \
        run.describe()
    assert "Traceback" not in run.out + run.err and "internal error" not in run.out + run.err
    objects = [json.loads(line) for line in run.out.splitlines()]
    assert [obj["file"] for obj in objects] == [str(attack_files[name]) for name in names]
    for name, obj in zip(names, objects):
        attack = ATTACKS[name]
        text = json.dumps(obj)
        assert attack.says in text, (name, text[:500])
        code = 0 if obj["valid"] else 2 if obj["problems"][0]["rule"] == "unreadable" else 1
        assert code in attack.codes, (name, text[:500])
        assert all("\n" not in problem["message"] for problem in obj["problems"])


COMMANDS = {
    "validate-json": ("validate", "--json", "-j", "1"),
    "score": ("score", "-j", "1"),
    "convert-mat": ("convert", "-j", "1", "-o", "{out}.mat"),
    "show-html": ("show", "--html", "{out}.html"),
}


@pytest.mark.slow
@pytest.mark.parametrize("command", [*COMMANDS, "library"])
@pytest.mark.parametrize("name", list(ATTACKS))
def test_every_attack_on_every_command_is_bounded(attack_files: dict[str, Path], name: str,
                                                  command: str, tmp_path: Path) -> None:
    attack = ATTACKS[name]
    path = str(attack_files[name])
    if command == "library":
        run = run_capped(LIBRARY_REPLAY, path, seconds=TIME_CAP + 5)
    else:
        args = [arg.format(out=tmp_path / "out") for arg in COMMANDS[command]]
        run = run_capped(CLI_MAIN, *args, path, seconds=TIME_CAP + 5)
    _within_caps(run, f"{command} {name}")
    allowed = set(attack.codes)
    if 0 in allowed and command != "validate-json":
        allowed.add(1)  # a warning is a problem to the other commands
    if command == "library" and 1 in attack.codes:
        allowed.add(0)  # the library raises only for unreadable input
    assert run.code in allowed, (run.describe(), run.err[-500:])
    if command == "validate-json":  # one object, saying it
        lines = run.out.strip().splitlines()
        assert len(lines) == 1 and json.loads(lines[0])["file"] == path, run.out[-1000:]
        assert attack.says in lines[0], lines
    elif run.code == 2:  # one line, saying it
        lines = run.err.strip().splitlines()
        assert len(lines) == 1, run.err[-1000:]
        assert attack.says in lines[0], lines


# --- 1: .bgf initial positions ----------------------------------------------------------------


@pytest.mark.parametrize("name, says", [
    ("bgf-points-1e9.bgf", "puts 1,000,000,000 checkers on one point"),
    ("bgf-points-minus-1e9.bgf", "puts 1,000,000,000 checkers on one point"),
    ("bgf-bar-1e9.bgf", "puts 1,000,000,000 checkers on one point"),
    ("bgf-points-16-a-side.bgf", "gives green 16 checkers"),
])
def test_a_crowded_initial_position_is_an_error_and_no_board(name: str, says: str) -> None:
    start = time.process_time()
    record = read_records((HOSTILE_DATA / name).read_bytes(), name).records[0]
    assert time.process_time() - start < 1
    errors = [p for p in record.problems if p.severity.value == "error"]
    assert [p.game for p in errors] == [1] and says in errors[0].message
    assert errors[0].rule == "syntax" and "at most 15 checkers a side" in errors[0].message
    assert record.games[0].setups == ()  # replayed from the starting position


# --- 2, 3: Smile ------------------------------------------------------------------------------


def test_smile_counts_the_values_it_builds() -> None:
    just_enough = _raw(b"\xf8" + b"\xc0" * (limits.MAX_ELEMENTS - 1) + b"\xf9")
    assert len(decode_smile(just_enough)) == limits.MAX_ELEMENTS - 1  # type: ignore[arg-type]
    for value in (b"\xc0", b"\xfa\xfb", b"\xf8\xf9"):
        too_many = _raw(b"\xf8" + value * limits.MAX_ELEMENTS + b"\xf9")
        with pytest.raises(SmileLimitError, match="MAX_ELEMENTS") as info:
            decode_smile(too_many)
        assert info.value.limit_name == "MAX_ELEMENTS"
    # What is read past is not built, and not counted.
    skipped = _raw(b"\xfa\x80a\xf8" + b"\xfa\xfb" * limits.MAX_ELEMENTS
                             + b"\xf9\x80b\xc2\xfb")
    assert decode_smile(skipped, frozenset({"a"})) == {"b": 1}


@pytest.mark.parametrize("token", [0xE8, 0x26])
def test_seven_bit_values_read_past_take_linear_time(token: int) -> None:
    # 3 MB of binary (or a 3 MB big integer) in a member read past: one pass over its
    # groups (it took minutes: each group shifted the whole number so far).
    value = smile_seven_bit(token, 3_000_000)
    document = _raw(b"\xfa\x80a" + value + b"\x80b\xc2\xfb")
    start = time.process_time()
    assert decode_smile(document, frozenset({"a"})) == {"b": 1}
    assert time.process_time() - start < 2
    broken = bytearray(document)
    broken[-10] |= 0x80  # a group with its high bit set is still found
    with pytest.raises(SmileError, match="high bit"):
        decode_smile(bytes(broken), frozenset({"a"}))


def test_seven_bit_values_built_are_capped_and_exact() -> None:
    assert decode_smile(_raw(smile_seven_bit(0xE8, 5))) == b"\x01" * 5
    assert decode_smile(_raw(smile_seven_bit(0x26, 2))) == 0x0101
    size = limits.MAX_STRING_CHARS
    assert decode_smile(_raw(smile_seven_bit(0xE8, size))) == b"\x01" * size
    with pytest.raises(SmileLimitError, match="MAX_STRING_CHARS"):
        decode_smile(_raw(smile_seven_bit(0xE8, size + 1)))
    with pytest.raises(SmileLimitError, match="MAX_NUMBER_DIGITS"):
        decode_smile(_raw(smile_seven_bit(0x26, limits.MAX_NUMBER_DIGITS)))
    with pytest.raises(SmileLimitError, match="MAX_NUMBER_DIGITS"):
        decode_smile(_raw(b"\x2a\x80" + smile_seven_bit(0x26, 1000)[1:]))


def test_smile_strings_are_capped() -> None:
    size = limits.MAX_STRING_CHARS
    assert decode_smile(Encoder().document("é" * size)) == "é" * size
    for text in ("x" * (size + 1), "é" * (size + 1), "x" * (50 * size)):
        with pytest.raises(SmileLimitError, match="MAX_STRING_CHARS"):
            decode_smile(Encoder().document(text))
    long_name = b"\xfa\x34" + b"n" * (size + 1) + b"\xfc\xc0\xfb"
    with pytest.raises(SmileLimitError, match="MAX_STRING_CHARS"):
        decode_smile(_raw(long_name))


def test_a_bgf_beyond_a_limit_is_a_typed_error_naming_it() -> None:
    data = bgf_raw_member("nameGreen", Encoder().value("A" * (limits.MAX_STRING_CHARS + 1)))
    with pytest.raises(LimitExceededError) as info:
        read_records(data, "m.bgf")
    assert info.value.limit_name == "MAX_STRING_CHARS"
    beyond = limits.format_count(limits.MAX_STRING_CHARS + 1)
    assert str(info.value).startswith(f"m.bgf: a string of {beyond} characters")


# --- 4: SGF ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, limit", [
    ("(;FF[4]" + ";" * limits.MAX_NODES + ")", "MAX_NODES"),
    ("(;FF[4]" + "(" * limits.MAX_NODES, "MAX_NODES"),
    ("(;FF[4])" * (limits.MAX_GAMES + 1), "MAX_GAMES"),
    ("(;FF[4]C[" + "x" * (limits.MAX_STRING_CHARS + 1) + "])", "MAX_STRING_CHARS"),
    ("(;FF[4]C[" + "\\]" * (limits.MAX_STRING_CHARS + 1) + "])", "MAX_STRING_CHARS"),
    ("(;FF[4]" + "X" * (limits.MAX_STRING_CHARS + 1) + "[1])", "MAX_STRING_CHARS"),
])
def test_sgf_limits_are_counted_while_parsing(text: str, limit: str) -> None:
    with pytest.raises(LimitExceededError) as info:
        parse_collection(text)
    assert info.value.limit_name == limit
    with pytest.raises(LimitExceededError, match=f"^x.sgf holds .*the limit {limit} is"):
        read_records(text.encode(), "x.sgf")


def test_sgf_just_within_the_limits_is_read() -> None:
    # Each limit on its own (both at once would be 10,000 values of 131,072 characters).
    value = "\\]" * limits.MAX_STRING_CHARS  # twice the limit written, the limit read
    trees, problems = parse_collection(f"(;FF[4]C[{value}])")
    assert problems == [] and trees[0].nodes[0].props[1].values == ["]" * limits.MAX_STRING_CHARS]
    trees, problems = parse_collection("(;FF[4]C[\\]])" * limits.MAX_GAMES)
    assert len(trees) == limits.MAX_GAMES and problems == []


def test_sgf_values_are_scanned_in_linear_time_and_located_in_one_pass() -> None:
    # An unclosed value of 10 MB of escapes: the old pattern backtracked through it.
    start = time.process_time()
    trees, problems = parse_collection("(;FF[4]\n\nC[" + "\\]" * 5_000_000)
    assert time.process_time() - start < 2
    assert [(p.line, p.column) for p in problems][:1] == [(3, 2)]  # the "["
    assert "never closed" in problems[0].message
    text = "(;FF[4]" + "\n" * 1_000 + "C[a\nb]\n;B[52lgjg])"
    trees, problems = parse_collection(text)
    move = trees[0].nodes[1]
    assert (move.line, move.column) == (1003, 1) and problems == []


# --- 5: long names through every command -------------------------------------------------------


def test_a_long_game_comment_is_read_not_refused(tmp_path: Path) -> None:
    """A game comment (SGF GC) may be prose longer than a name: only MAX_STRING_CHARS bounds
    it, and the file reads with the comment whole."""
    comment = "a long note on the match. " * 200
    source = tmp_path / "commented.sgf"
    note = b"GM[6]GC[" + comment.encode() + b"]"
    source.write_bytes(sgf_named("Alice").replace(b"GM[6]", note, 1))
    record = read_records(source.read_bytes(), source.name).records[0]
    assert ("Comment", comment) in record.tags


def test_a_name_at_the_limit_is_read_and_written_back(tmp_path: Path) -> None:
    name = "N" * limits.MAX_NAME_CHARS
    source = tmp_path / "long.sgf"
    source.write_bytes(sgf_named(name))
    for target in ("mat", "sgf", "json"):
        out = tmp_path / f"written.{target}"
        result = runner.invoke(app, ["convert", str(source), "-o", str(out)])
        assert result.exit_code == 0, result.output
        assert read_records(out.read_bytes(), out.name).records[0].names == (name, "Bob")


# --- 6: every input gets its object ------------------------------------------------------------


@pytest.mark.parametrize("failure", [MemoryError(), RecursionError("maximum recursion depth"),
                                     ValueError("Exceeds the limit (4300 digits)")])
@pytest.mark.parametrize("json_output", [True, False])
def test_a_failed_job_still_gives_its_file_an_unreadable_object(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, failure: Exception,
        json_output: bool) -> None:
    import bgtools.batch

    def failing(item: object, **options: object) -> None:
        raise failure

    first, second = tmp_path / "a.sgf", tmp_path / "b.sgf"
    first.write_bytes(sgf_named("Alice"))
    second.write_bytes(sgf_named("Alice"))
    monkeypatch.setattr(bgtools.batch, "validate_report", failing)
    args = ["validate", "-j", "1", *(["--json"] if json_output else []), str(first),
            str(second)]
    result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert result.exit_code == 2
    if json_output:
        objects = [json.loads(line) for line in result.stdout.splitlines()]
        assert [obj["file"] for obj in objects] == [str(first), str(second)]
        for obj in objects:
            problem = obj["problems"][0]
            assert (obj["valid"], problem["rule"]) == (False, "unreadable")
            assert problem["message"].startswith(f"{obj['file']}: cannot be processed (")
            assert type(failure).__name__ in problem["message"]
    else:
        assert result.stdout.count("error[unreadable]") == 2
    assert "internal error" not in result.output


# --- 10: what convert writes reads back alike --------------------------------------------------


@pytest.mark.parametrize("name, first", [
    ("Alice : 3", "Alice . 3"), ("12:30", "12.30"), ("Al\nice\r\n; x", "Al ice  ; x"),
    ("; [Site \"x\"]", "[Site \"x\"]"), (";#;", "Player 1"), ("  Bob  ", "Bob"),
    ("a:b", "a:b"), ("\x00\x1b[31mred", "[31mred"),
])
def test_a_name_is_written_on_its_line(name: str, first: str) -> None:
    assert mat_name(name, 0) == first
    assert ":" in mat_name("Alice : 3", 1)  # the second name's colons are read back as such


def _verdict(path: Path) -> tuple[int, bool, int]:
    result = runner.invoke(app, ["validate", "--json", "-j", "1", str(path)])
    obj = json.loads(result.stdout)
    return result.exit_code, obj["valid"], obj["games"]


@pytest.mark.parametrize("name", ["name-colon.sgf", "name-newline.sgf", "name-semicolon.sgf"])
@pytest.mark.parametrize("target", ["mat", "sgf", "json"])
def test_every_written_file_validates_as_its_source(tmp_path: Path, name: str,
                                                    target: str) -> None:
    source = HOSTILE_DATA / name
    out = tmp_path / f"out.{target}"
    result = runner.invoke(app, ["convert", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert _verdict(out) == _verdict(source) == (0, True, 4)
    written = read_records(out.read_bytes(), out.name).records[0]
    original = read_records(source.read_bytes(), source.name).records[0]
    assert written.names is not None and original.names is not None
    assert written.names[1] == original.names[1]
    if target != "mat":
        assert written.names == original.names  # SGF and JSON say any name


# --- the fuzz script's field mutations ---------------------------------------------------------


@pytest.mark.parametrize("kind, choices", [("sgf-long-value", range(4)),
                                           ("sgf-many-nodes", range(5))])
def test_the_sgf_field_mutations_meet_the_limits(kind: str, choices: range) -> None:
    sample = (HOSTILE_DATA / "name-colon.sgf").read_bytes()
    for choice in choices:
        for size in range(3):
            data = apply_edits(sample, [(kind, 7, size, choice)])
            assert data != sample
            start = time.process_time()
            assert check_bytes(data, "f.sgf") in (0, 1, 2)
            assert time.process_time() - start < TIME_CAP


@pytest.mark.parametrize("choice", [0, 1, 3, 4])  # 2 (a list beyond MAX_ELEMENTS): below
def test_the_bgf_field_mutations_meet_the_limits(choice: int) -> None:
    sample = (HOSTILE_DATA / "bgf-points-1e9.bgf").read_bytes()
    for size in range(5):
        data = apply_binary_edits(sample, [("bgf-field", 11 * size + 3, size, choice)])
        assert data != sample
        start = time.process_time()
        assert check_bytes(data, "f.bgf") in (1, 2)
        assert time.process_time() - start < TIME_CAP


def test_the_bgf_field_mutation_of_a_list_meets_max_elements() -> None:
    sample = (HOSTILE_DATA / "bgf-points-1e9.bgf").read_bytes()
    for where in range(0, 40, 7):
        data = apply_binary_edits(sample, [("bgf-field", where, 0, 2)])
        assert check_bytes(data, "f.bgf") in (1, 2)
