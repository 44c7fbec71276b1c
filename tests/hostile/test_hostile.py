"""Hostile input: never a traceback, never a hang, never a changed input, always the contract.

Every hostile file goes through every reading command (CliRunner, and some through a real
process): the exit code is the contract's (0 ok, 1 problems, 2 unreadable/unrecognisable),
nothing prints a traceback, and ``validate --json`` prints exactly one JSON line per file.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools import errors, limits
from bgtools.cli import app
from bgtools.errors import (
    BgtoolsError,
    LimitExceededError,
    UnreadableInputError,
    UnsupportedFormatError,
    describe_error,
)
from bgtools.readers import detect
from bgtools.readers.detect import load_file, read_records
from bgtools.readers.source import printable_path
from tests.helpers.paths import FILES, REPO, SAMPLES
from tests.helpers.processes import INTERRUPTIBLE_MAIN, has_open, run_bgtools

SAMPLE_MAT = SAMPLES / "example_gnubg.mat"
SAMPLE_SGF = SAMPLES / "example_gnubg.sgf"
runner = CliRunner()


@dataclass(frozen=True)
class Hostile:
    """A hostile input: its path (str: it may not be UTF-8) and the exit codes allowed."""

    path: str
    codes: frozenset[int]
    message: str | None = None
    """Text the error message must contain (a limit's name ...)."""


def _mat_with(**replace: str) -> str:
    text = SAMPLE_MAT.read_text(encoding="utf-8")
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    return text


def _build(directory: Path) -> dict[str, Hostile]:
    files: dict[str, Hostile] = {}

    def add(name: str, data: bytes, codes: set[int], message: str | None = None) -> None:
        path = directory / name
        path.write_bytes(data)
        files[name] = Hostile(str(path), frozenset(codes), message)

    sample = SAMPLE_MAT.read_bytes()
    add("empty.mat", b"", {2}, "empty")
    add("blank.mat", b"\n \r\n\t\n", {2}, "empty")
    add("binary.mat", bytes(range(256)) * 40, {2}, "binary")
    add("nul.mat", sample[:200] + b"\x00" * 5 + sample[200:], {2}, "binary")
    add("nul_late.mat", sample + b"\n" * 4096 + b"\x00\x00 Game 9\n" * 3 + b"\x00" * 5000, {1})
    long_line = b"  1) 31: " + b"8/5 " * (5 * 1024 * 1024 // 4) + b"\n"
    add("long_line.mat", sample.replace(b"\n  1)", b"\n" + long_line + b"  1)", 1), {1},
        "MAX_LINE_CHARS")
    nested = b"(;FF[4]GM[6]" + b"(" * 100_000 + b";" + b")" * 100_000 + b")\n"
    add("deep.sgf", nested, {1, 2})
    add("huge_length.mat", _mat_with(**{" 3 point match": " 99999999999999999999 point match"})
        .encode(), {2}, "MAX_MATCH_LENGTH")
    add("long_match.mat", _mat_with(**{" 3 point match": " 1000 point match"}).encode(), {2},
        "MAX_MATCH_LENGTH")
    add("negative_length.mat", _mat_with(**{" 3 point match": " -5 point match"}).encode(), {1})
    add("negative_score.mat", _mat_with(**{"Alice : 0 ": "Alice : -3"}).encode(), {1})
    add("huge_score.mat", _mat_with(**{"Alice : 0 ": "Alice : 999999999 "}).encode(), {2},
        "MAX_SCORE")
    sgf = SAMPLE_SGF.read_text(encoding="utf-8")
    add("negative_length.sgf", sgf.replace("[length:3]", "[length:-5]", 1).encode(), {0, 1})
    add("huge_length.sgf", sgf.replace("[length:3]", "[length:99999999999999999999]", 1)
        .encode(), {0, 1, 2})
    add("long_length.sgf", sgf.replace("[length:3]", "[length:999999999]", 1).encode(), {2},
        "MAX_MATCH_LENGTH")
    games = "".join(f" Game {n}\n a : 0    b : 0\n\n" for n in range(1, limits.MAX_GAMES + 2))
    add("many_games.mat", f" 0 point match\n\n{games}".encode(), {2}, "MAX_GAMES")
    add("many_actions.sgf", b"(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]" +
        b";B[31hgge];W[31hgge]" * (limits.MAX_ACTIONS // 2 + 1) + b")\n", {2}, "MAX_ACTIONS")
    cube = [" 0 point match", "", " Game 1", " a : 0                          b : 0",
            "  1) 31: 8/5 6/5                   Doubles => 2"]
    for k in range(10):  # the cube reaches 2**21: no Match ID can hold it
        cube += [f"  {3 * k + 2})  Takes                       21: 13/11 24/23",
                 f"  {3 * k + 3})  Doubles => {4 ** (k + 1)}                 Takes",
                 f"  {3 * k + 4}) 21: 13/11 24/23              Doubles => {2 * 4 ** (k + 1)}"]
    add("cube_overflow.mat", "\n".join(cube).encode() + b"\n", {1})
    cp1252 = sample.replace(b"Alice", b"M\xfcller").replace(b"Bob", b"P\xe2t\xe9 \x93Q\x94")
    add("cp1252.mat", cp1252, {0})
    add("latin1.mat", sample.replace(b"Alice", b"M\xfcller\x81"), {0})
    add("markup.mat", sample.replace(b"Alice", b"[/red]Al[bold]ice\\"), {0})
    add("bom_crlf.mat", b"\xef\xbb\xbf" + sample.replace(b"\n", b"\r\n"), {0})
    # A file name that is not UTF-8 (a Latin-1 system's "müller.mat").
    raw_name = os.fsencode(directory) + b"/m\xfcller.mat"
    with open(raw_name, "wb") as handle:
        handle.write(sample)
    files["latin1_name"] = Hostile(os.fsdecode(raw_name), frozenset({0}))
    empty_dir = directory / "empty_dir.mat"
    empty_dir.mkdir()
    files["directory"] = Hostile(str(empty_dir), frozenset({2}))
    files["missing"] = Hostile(str(directory / "missing.mat"), frozenset({2}),
                               "no such file")
    fifo = directory / "fifo.mat"
    os.mkfifo(fifo)
    files["fifo"] = Hostile(str(fifo), frozenset({2}), "empty")
    big = directory / "big.mat"
    with open(big, "wb") as handle:
        handle.truncate(100 * 1024 * 1024)  # sparse: no 100 MB written to the disk
    files["big"] = Hostile(str(big), frozenset({2}), "MAX_FILE_BYTES")
    return files


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Hostile]:
    """Every hostile input, built once per module in a temporary directory."""
    return _build(tmp_path_factory.mktemp("hostile"))


COMMANDS = [
    ("validate",),
    ("validate", "--json"),
    ("score",),
    ("score", "--json"),
    ("pips", "--json"),
    ("status", "--json"),
    ("status",),
    ("replay", "--jsonl"),
    ("show", "--ascii"),
]
HOSTILE_NAMES = [
    "empty.mat", "blank.mat", "binary.mat", "nul.mat", "nul_late.mat", "long_line.mat",
    "deep.sgf", "huge_length.mat", "long_match.mat", "negative_length.mat",
    "negative_score.mat", "huge_score.mat", "negative_length.sgf", "huge_length.sgf",
    "long_length.sgf", "many_games.mat", "many_actions.sgf", "cube_overflow.mat", "cp1252.mat",
    "latin1.mat", "markup.mat", "bom_crlf.mat", "latin1_name", "directory", "missing", "fifo",
    "big",
]


def _invoke(args: list[str]) -> tuple[int, str, str]:
    result = runner.invoke(app, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"bgtools {args} raised {result.exception!r}") from result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("name", HOSTILE_NAMES)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_hostile_input_keeps_the_contract(hostile: dict[str, Hostile], name: str,
                                          command: tuple[str, ...]) -> None:
    case = hostile[name]
    code, out, err = _invoke([*command, case.path])
    assert "Traceback" not in out + err
    if command[0] == "show" and code == 2 and name == "missing":
        return  # show also takes an ID: a missing file is "not a file and not an ID"
    allowed = set(case.codes)
    if command[0] != "validate" and 0 in allowed:
        allowed.add(1)  # warnings (match-incomplete ...) count as problems elsewhere
    assert code in allowed, (code, out[-500:], err[-500:])
    if command[0] == "validate" and name != "directory":
        if "--json" in command:
            lines = out.splitlines()
            assert len(lines) == 1, out[-500:]
            obj = json.loads(lines[0])
            assert obj["file"] == printable_path(case.path)
            assert obj["valid"] == (code == 0)
            if case.message is not None:
                assert case.message in json.dumps(obj), obj
        elif case.message is not None:
            assert case.message in out + err
    if code == 2 and command[0] != "validate" and name != "directory":
        assert err.count("\n") >= 1 and "error" in err
        if case.message is not None:
            assert case.message in err
    for line in out.splitlines() if "--json" in command or "--jsonl" in command else []:
        obj = json.loads(line)
        assert obj["file"] == printable_path(case.path)


@pytest.mark.slow
def test_validate_json_gives_one_line_per_input_in_order(hostile: dict[str, Hostile]) -> None:
    names = [n for n in HOSTILE_NAMES if n != "directory"]
    code, out, err = _invoke(["validate", "--json", *[hostile[n].path for n in names]])
    assert code == 2 and "Traceback" not in out + err
    objs = [json.loads(line) for line in out.splitlines()]
    assert [o["file"] for o in objs] == [printable_path(hostile[n].path) for n in names]


def test_an_empty_directory_is_no_match_files(hostile: dict[str, Hostile]) -> None:
    for command in (["validate"], ["validate", "--json"], ["score"], ["pips", "--json"]):
        code, out, err = _invoke([*command, hostile["directory"].path])
        assert code == 2 and "no match files found" in out + err


def test_non_utf8_files_say_which_encoding_was_assumed(hostile: dict[str, Hostile]) -> None:
    code, out, _ = _invoke(["validate", "--json", hostile["cp1252.mat"].path,
                            hostile["latin1.mat"].path, hostile["bom_crlf.mat"].path])
    assert code == 0
    cp1252, latin1, bom = (json.loads(line) for line in out.splitlines())
    warning = cp1252["problems"][0]
    assert (warning["rule"], warning["severity"], warning["line"]) == (
        "encoding-assumed", "warning", 6)
    assert "cp1252" in warning["message"]
    assert latin1["problems"][0]["rule"] == "encoding-assumed"
    assert "latin-1" in latin1["problems"][0]["message"]
    assert bom["problems"] == []
    code, out, _ = _invoke(["score", "--json", hostile["cp1252.mat"].path])
    assert json.loads(out)["players"] == ["Müller", "Pâté \u201cQ\u201d"]
    code, out, _ = _invoke(["validate", hostile["cp1252.mat"].path])
    assert "warning[encoding-assumed]" in out and "cp1252" in out


def test_a_non_utf8_file_name_is_read_and_printed_escaped(hostile: dict[str, Hostile]) -> None:
    path = hostile["latin1_name"].path
    code, out, _ = _invoke(["validate", "--json", path])
    assert code == 0
    assert json.loads(out)["file"].endswith("/m\\xfcller.mat")


@pytest.mark.slow
@pytest.mark.parametrize("command", [("validate", "--json"), ("validate",), ("replay", "--jsonl"),
                                     ("score", "--json"), ("status",)], ids=" ".join)
def test_hostile_inputs_in_a_real_process(hostile: dict[str, Hostile],
                                          command: tuple[str, ...]) -> None:
    names = ["empty.mat", "binary.mat", "long_line.mat", "huge_length.mat", "cp1252.mat",
             "latin1_name", "missing", "fifo", "big", "cube_overflow.mat"]
    proc = run_bgtools([*command, *[hostile[n].path for n in names]])
    out, err = proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")  # strict UTF-8
    assert proc.returncode == 2
    assert "Traceback" not in out + err
    for line in out.splitlines() if "--json" in command or "--jsonl" in command else []:
        json.loads(line)
    if command == ("validate", "--json"):
        assert len(out.splitlines()) == len(names)
    elif command[0] == "validate":  # the summary counts every input once
        assert f"{len(names)} file(s): " in out


def test_process_substitution_fifo_is_read(tmp_path: Path) -> None:
    """A FIFO with a writer (``bgtools validate <(cat m.mat)``) is read, not refused."""
    fifo = tmp_path / "pipe.mat"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"cat '{SAMPLE_MAT}' > '{fifo}'"])
    try:
        proc = run_bgtools(["validate", "--json", str(fifo)])
    finally:
        writer.wait(timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["games"] == 4


def test_broken_pipe_ends_quietly() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = (f"'{sys.executable}' -c 'from bgtools.cli import main; main()' replay --jsonl "
               f"'{SAMPLES}' '{FILES / 'selfplay'}' | head -1; "
               "exit ${PIPESTATUS[0]}")
    proc = subprocess.run(["bash", "-c", command], check=False, capture_output=True, env=env,
                          timeout=300, stdin=subprocess.DEVNULL)
    assert len(proc.stdout.splitlines()) == 1
    assert json.loads(proc.stdout)["index"] == 0
    assert proc.stderr == b""
    # The reader stopped reading: a quiet 0, never 1 (input errors), 120 or SIGPIPE (141).
    assert proc.returncode == 0


def test_ctrl_c_ends_with_130_and_no_traceback(tmp_path: Path) -> None:
    fifo = tmp_path / "slow.mat"
    os.mkfifo(fifo)
    keep_open = os.open(fifo, os.O_RDWR)  # a writer that never writes: the read blocks
    try:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        proc = subprocess.Popen(
            # --jobs 1: the read that blocks is then in the process we watch and signal.
            [sys.executable, "-c", INTERRUPTIBLE_MAIN, "validate",
             "--jobs", "1", str(fifo)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
            stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while not has_open(proc.pid, fifo):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(keep_open)
    assert proc.returncode == 130
    assert b"Traceback" not in out + err


# --- permissions -------------------------------------------------------------------------------


def test_unreadable_file_without_permission(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads any file; the in-process test below covers the error path")
    target = tmp_path / "secret.mat"
    shutil.copy(SAMPLE_MAT, target)
    target.chmod(0)
    code, out, _ = _invoke(["validate", "--json", str(target)])
    assert code == 2 and "permission denied" in out


def test_permission_error_path_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "secret.mat"
    shutil.copy(SAMPLE_MAT, target)
    real_open = os.open

    def refusing_open(path: object, flags: int, *args: int, **kwargs: object) -> int:
        if str(path) == str(target):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(detect.os, "open", refusing_open)
    for command in (["validate", "--json"], ["score", "--json"], ["replay", "--jsonl"],
                    ["status"]):
        code, out, err = _invoke([*command, str(target)])
        assert code == 2
        assert "permission denied" in out + err
        assert "Traceback" not in out + err


# --- the input is never touched ----------------------------------------------------------------


def _fingerprint(path: Path) -> tuple[bytes, int, int, int]:
    info = path.stat()
    return path.read_bytes(), info.st_mtime_ns, info.st_ctime_ns, stat.S_IMODE(info.st_mode)


@pytest.mark.parametrize("command", COMMANDS + [("pips",), ("replay",), ("show",)],
                         ids=" ".join)
@pytest.mark.parametrize("sample", ["example_gnubg.mat", "example_gnubg.sgf"])
def test_no_command_changes_its_input(tmp_path: Path, command: tuple[str, ...],
                                      sample: str) -> None:
    """Bytes, modification time, change time (metadata) and mode stay the same. The access
    time may legitimately change when a file is read (relatime), so it is not compared."""
    target = tmp_path / sample
    shutil.copy2(SAMPLES / sample, target)
    target.chmod(0o644)
    before = _fingerprint(target)
    listing = sorted(os.listdir(tmp_path))
    code, out, err = _invoke([*command, str(target)])
    assert code in (0, 1) and "Traceback" not in out + err
    assert _fingerprint(target) == before
    assert sorted(os.listdir(tmp_path)) == listing


# --- the library's typed errors ----------------------------------------------------------------


def test_limits_are_named_in_typed_errors(tmp_path: Path) -> None:
    big = tmp_path / "big.mat"
    with open(big, "wb") as handle:
        handle.truncate(limits.MAX_FILE_BYTES + 1)
    with pytest.raises(LimitExceededError) as info:
        load_file(big)
    assert info.value.limit_name == "MAX_FILE_BYTES"
    assert info.value.limit == limits.MAX_FILE_BYTES
    assert f"{limits.MAX_FILE_BYTES + 1:,} bytes" in str(info.value)
    with pytest.raises(LimitExceededError) as info:
        read_records(_mat_with(**{" 3 point match": " 5000 point match"}).encode(), "m.mat")
    assert info.value.limit_name == "MAX_MATCH_LENGTH"
    assert str(info.value) == "m.mat:3: a match of 5,000 points; the limit MAX_MATCH_LENGTH is 999"


def test_error_hierarchy_and_exit_codes(tmp_path: Path) -> None:
    for cls in (errors.RecordSyntaxError, errors.NotationError, errors.IllegalPlayError,
                UnsupportedFormatError, LimitExceededError, UnreadableInputError):
        assert issubclass(cls, BgtoolsError)
    with pytest.raises(UnsupportedFormatError):
        read_records(b"just some text\n", "t.txt")
    with pytest.raises(UnreadableInputError):
        load_file(tmp_path)
    assert describe_error(UnsupportedFormatError("x.txt is not a record"), "x.txt") == (
        "x.txt is not a record", 2)
    assert describe_error(errors.RecordSyntaxError("bad", 3, 7, "ctx\nmore"), "m.mat") == (
        "m.mat:3:7: bad", 1)
    assert describe_error(FileNotFoundError(2, "No such file"), "m.mat") == (
        "m.mat: no such file or directory", 2)
    assert describe_error(PermissionError(13, "Permission denied"), "m.mat")[1] == 2
    message, code = describe_error(LimitExceededError("m.mat is 9 bytes; the limit X is 1",
                                                      "X", 1), "m.mat")
    assert (message, code) == ("m.mat is 9 bytes; the limit X is 1", 2)
    assert "\n" not in describe_error(ValueError("a\nb"), "m.mat")[0]


# --- the one place where the command line ends ------------------------------------------------


def _run_app_with(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                  failure: BaseException) -> tuple[int, str]:
    from bgtools.cli import errors as cli_errors

    def failing(*args: object, **kwargs: object) -> None:
        raise failure

    with pytest.raises(SystemExit) as info:
        cli_errors.run_app(failing)
    code = info.value.code
    assert isinstance(code, int)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("failure,code,text", [
    (RuntimeError("boom\nsecond line"), 2, "internal error: RuntimeError: boom"),
    (LimitExceededError("m.mat is 9 bytes; the limit MAX_FILE_BYTES is 1", "MAX_FILE_BYTES", 1),
     2, "bgtools: error: m.mat is 9 bytes; the limit MAX_FILE_BYTES is 1"),
    (errors.RecordSyntaxError("bad line", 4, 2), 1, "error: line 4, column 2: bad line"),
    (PermissionError(13, "Permission denied", "m.mat"), 2, "m.mat: permission denied"),
    (KeyboardInterrupt(), 130, "interrupted"),
])
def test_run_app_ends_every_failure_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str],
                                               failure: BaseException, code: int,
                                               text: str) -> None:
    got, err = _run_app_with(monkeypatch, capsys, failure)
    assert got == code
    assert text in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_cube_beyond_any_match_id_still_replays(hostile: dict[str, Hostile]) -> None:
    code, out, err = _invoke(["replay", "--jsonl", hostile["cube_overflow.mat"].path])
    assert code == 1 and "Traceback" not in out + err
    rows = [json.loads(line) for line in out.splitlines()]
    assert max(row["cube_before"] for row in rows) >= 1 << 16
    assert rows[-1]["match_id_before"] == ""  # 4 bits hold the cube's log2: no Match ID


@pytest.mark.parametrize("command", [["score"], ["status"], ["show"]], ids=" ".join)
def test_rich_markup_in_a_name_is_printed_as_written(hostile: dict[str, Hostile],
                                                     command: list[str]) -> None:
    code, out, _ = _invoke([*command, hostile["markup.mat"].path])
    assert code == 0 and "[/red]Al[bold]ice" in out
