"""Standard input: ``-`` reads a match from a pipe, as bytes, its format found by content.

Every test runs bgtools in a child process with real bytes on its standard input (a pipe),
as ``cat m.mat | bgtools validate -`` does.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.limits import MAX_FILE_BYTES
from tests.helpers.paths import FILES, REPO, SAMPLES

XG_DIR = FILES / "xg"


def run(args: list[str], stdin: bytes, cwd: Path | None = None,
        timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """``bgtools ARGS`` with the bytes ``stdin`` on a pipe as its standard input."""
    return subprocess.run(
        [sys.executable, "-c", "from bgtools.cli import main; main()", *args],
        input=stdin, capture_output=True, cwd=cwd, timeout=timeout, check=False,
        env={"PATH": "/usr/bin:/bin", "BGTOOLS_PROGRESS": "0", "PYTHONPATH": str(REPO)},
    )


def direct(args: list[str]) -> tuple[int, bytes]:
    """``bgtools ARGS`` in this process (the reference the piped run is compared with)."""
    result = CliRunner().invoke(app, args)
    return result.exit_code, result.stdout_bytes


def out_json(result: subprocess.CompletedProcess[bytes]) -> list[dict[str, object]]:
    return [json.loads(line) for line in result.stdout.decode().splitlines()]


def lines_json(stdout: bytes) -> list[dict[str, object]]:
    return [json.loads(line) for line in stdout.decode().splitlines()]


def test_validate_reads_a_pipe_and_names_it_dash() -> None:
    data = (SAMPLES / "example_gnubg.mat").read_bytes()
    result = run(["validate", "--json", "-"], data)
    assert result.returncode == 0, result.stderr
    (obj,) = out_json(result)
    assert obj["file"] == "-" and obj["valid"] is True and obj["format"] == "mat"
    from_file = lines_json(direct(["validate", "--json", str(SAMPLES / "example_gnubg.mat")])[1])
    assert {k: v for k, v in obj.items() if k != "file"} == \
        {k: v for k, v in from_file[0].items() if k != "file"}


@pytest.mark.parametrize("name", ["example_gnubg.sgf", "galaxy_match1486073.txt"])
def test_text_formats_are_recognised_by_content(name: str) -> None:
    result = run(["score", "--json", "-"], (SAMPLES / name).read_bytes())
    assert result.returncode == 0, result.stderr
    (obj,) = out_json(result)
    expected = lines_json(direct(["score", "--json", str(SAMPLES / name)])[1])[0]
    assert obj == {**expected, "file": "-"}


@pytest.mark.parametrize("suffix", [".xg", ".bgf"])
def test_binary_formats_through_a_pipe(suffix: str) -> None:
    (source,) = sorted(XG_DIR.glob(f"*{suffix}"))[:1]
    result = run(["score", "--json", "-"], source.read_bytes())
    assert result.returncode == 0, result.stderr
    (obj,) = out_json(result)
    assert obj["format"] == suffix[1:] and obj["file"] == "-"
    assert obj == {**lines_json(direct(["score", "--json", str(source)])[1])[0], "file": "-"}


def test_problems_of_piped_input_are_located_at_dash(tmp_path: Path) -> None:
    text = (SAMPLES / "example_gnubg.mat").read_text(encoding="utf-8")
    assert "13/7 13/10" in text
    broken = text.replace("13/7 13/10", "13/7 13/9", 1).encode()
    result = run(["validate", "-"], broken)
    assert result.returncode == 1
    line = next(ln for ln in result.stdout.decode().splitlines() if "error[" in ln)
    assert line.startswith("-:")


@pytest.mark.parametrize("command", [["pips"], ["status"], ["replay", "--jsonl"],
                                     ["show", "--ascii"], ["stats", "--json"],
                                     ["standings", "--json"]])
def test_every_reading_command_takes_dash(command: list[str]) -> None:
    source = SAMPLES / "example_gnubg.mat"
    piped = run([*command, "-"], source.read_bytes())
    code, stdout = direct([*command, str(source)])
    assert piped.returncode == code == 0, piped.stderr
    assert piped.stdout.replace(b"-", b"") == stdout.replace(
        str(source).encode(), b"").replace(b"-", b"")
    assert piped.stdout


def test_export_reads_dash(tmp_path: Path) -> None:
    source = SAMPLES / "example_gnubg.sgf"
    out = tmp_path / "moves.csv"
    result = run(["export", "-", "--to", "csv", "-o", str(out)], source.read_bytes())
    assert result.returncode == 0, result.stderr
    rows = out.read_text(encoding="utf-8").splitlines()
    assert len(rows) > 40 and all(row.startswith("-,") for row in rows[1:])


def test_dash_mixes_with_files_in_input_order() -> None:
    source = SAMPLES / "galaxy_match1486073.txt"
    result = run(["validate", "--json", "--jobs", "2", str(SAMPLES / "example_gnubg.mat"),
                  "-", str(SAMPLES / "money_gnubg.mat")], source.read_bytes())
    assert result.returncode == 0, result.stderr
    files = [obj["file"] for obj in out_json(result)]
    assert files == [str(SAMPLES / "example_gnubg.mat"), "-", str(SAMPLES / "money_gnubg.mat")]
    assert out_json(result)[1]["rules"] == "galaxy"


def test_dash_twice_is_a_usage_error() -> None:
    result = run(["validate", "-", "-"], (SAMPLES / "example_gnubg.mat").read_bytes())
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.decode().splitlines() == [
        "bgtools: error: standard input ('-') can be read only once; give '-' once"]


def test_empty_and_closed_stdin_are_unreadable() -> None:
    result = run(["score", "-"], b"")
    assert result.returncode == 2
    assert result.stderr.decode() == "bgtools: error: - is empty, not a match record\n"
    closed = subprocess.run(
        [sys.executable, "-c", "import os; os.close(0); from bgtools.cli import main; main()",
         "score", "-"],
        capture_output=True, timeout=60, check=False, stdin=subprocess.PIPE,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)})
    assert closed.returncode == 2
    assert closed.stderr.decode() == "bgtools: error: -: standard input is closed\n"


def test_stdin_is_bounded_by_max_file_bytes() -> None:
    result = run(["validate", "--json", "-"], b" " * (MAX_FILE_BYTES + 10))
    assert result.returncode == 2
    (obj,) = out_json(result)
    message = obj["problems"][0]["message"]  # type: ignore[index]
    assert "MAX_FILE_BYTES" in message and message.startswith("- is more than")


def test_a_file_named_dash_is_reached_as_dot_slash(tmp_path: Path) -> None:
    (tmp_path / "-").write_bytes((SAMPLES / "money_gnubg.mat").read_bytes())
    result = run(["score", "--json", "./-"], b"", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert out_json(result)[0]["file"] == "./-"
