"""Terminal injection (issue 38): ESC and OSC sequences, CSI and line breaks in player names,
plays and file names reach the terminal escaped, from every command that prints text from
a file; the JSON output keeps them as they are (``json.dumps`` escapes them itself).

The hostile record is ``tests/files/hostile/control_characters.json`` (names with an OSC
title sequence, a colour, a line break that would forge an ``error[...]`` line and a C1
CSI; a play with a trailing ESC sequence), copied under a file name holding an OSC
sequence and a line break.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bgtools.cli.terminal import CONTROL_CHARACTERS, terminal_text
from tests.helpers.paths import FILES
from tests.helpers.processes import run_bgtools

HOSTILE = FILES / "hostile" / "control_characters.json"
NAMES = ("Al\x1b]0;owned\x07ice\x1b[31m", "Bo\nb: error[fake]\x9b2J")
HOSTILE_FILE_NAME = "m\x1b]0;t\x07\n.json"

INJECTED = re.compile("\x1b\\]0;|\x07|\x9b|\x1b\\[2J|\x1b\\[31m")
"""What the file would send to the terminal (the Rich styles of a real terminal are ESC
sequences too, but the runs here write to pipes: no style at all)."""


@pytest.fixture(scope="module")
def hostile_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hostile record under a hostile file name."""
    path = tmp_path_factory.mktemp("terminal") / HOSTILE_FILE_NAME
    path.write_bytes(HOSTILE.read_bytes())
    return path


def test_the_data_file_holds_the_control_characters() -> None:
    """The test file is what the tests say (a rewrite that lost them would pass them all)."""
    record = json.loads(HOSTILE.read_text(encoding="utf-8"))
    assert all(tuple(game["names"]) == NAMES for game in record["games"])
    assert any("\x1b[2J" in action.get("play_text", "") for game in record["games"]
               for action in game["actions"])


@pytest.mark.parametrize("text", ["Alice", "Müller", "P\u00e2t\u00e9 \u201cQ\u201d", "", "a b",
                                  "日本語", "\u00a0nbsp", "x\\x1b"])
def test_printable_text_is_left_as_it_is(text: str) -> None:
    """Ordinary names have no control character: unchanged (the very object)."""
    assert terminal_text(text) is text or terminal_text(text) == text


def test_every_control_character_is_escaped() -> None:
    """C0 (line feed and tab included), DEL and C1, each as ``\\xNN``; nothing else."""
    for code in range(0x100):
        char = chr(code)
        if code in CONTROL_CHARACTERS:
            assert terminal_text(char) == f"\\x{code:02x}"
        else:
            assert terminal_text(char) == char
    assert terminal_text(NAMES[0]) == "Al\\x1b]0;owned\\x07ice\\x1b[31m"
    assert terminal_text(NAMES[1]) == "Bo\\x0ab: error[fake]\\x9b2J"


COMMANDS = [
    ["score"], ["status"], ["pips"], ["pips", "--all"], ["show"], ["show", "--ascii"],
    ["replay"], ["validate"], ["validate", "--verbose"],
    ["stats", "--include-invalid"], ["stats", "--by", "file", "--include-invalid"],
    ["standings", "--include-invalid"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_text_from_a_file_reaches_the_terminal_escaped(hostile_file: Path,
                                                        command: list[str]) -> None:
    """Every command that prints names, plays or file names printed the file's ESC, OSC and
    CSI sequences raw, and a line break in a name forged lines (``b: error[fake]``)."""
    done = run_bgtools([*command, str(hostile_file), str(hostile_file)] if command[0] in (
        "validate", "stats", "standings", "score") else [*command, str(hostile_file)])
    output = (done.stdout + done.stderr).decode("utf-8")
    assert done.returncode in (0, 1), output
    assert "Traceback" not in output
    assert not INJECTED.findall(output)
    assert not [line for line in output.splitlines() if line.startswith("b: error[fake]")]
    # What was there is shown, escaped: the file's name, and the players' where printed
    # whole (not by standings, nor by stats but --by file).
    if command[0] not in ("stats", "standings") or "file" in command:
        assert terminal_text(hostile_file.name) in output  # a narrow table folds the path
    if command in (["score"], ["status"], ["pips"], ["show"], ["show", "--ascii"],
                   ["stats", "--include-invalid"], ["standings", "--include-invalid"]):
        assert "Al\\x1b]0;owned\\x07ice\\x1b[31m" in output
        assert "Bo\\x0ab: error[fake]\\x9b2J" in output


def test_convert_reports_escaped(hostile_file: Path, tmp_path: Path) -> None:
    """``convert -o DIR/`` names what it wrote (the input's name) and the problems."""
    done = run_bgtools(["convert", str(hostile_file), "-o", f"{tmp_path}/"])
    output = (done.stdout + done.stderr).decode("utf-8")
    assert done.returncode == 1, output
    assert not INJECTED.findall(output)
    assert terminal_text(hostile_file.name) in output


@pytest.mark.parametrize("command", [["score", "--json"], ["validate", "--json"],
                                     ["status", "--json"], ["replay", "--jsonl"],
                                     ["standings", "--json", "--include-invalid"]],
                         ids=" ".join)
def test_json_output_keeps_the_text_as_it_is(hostile_file: Path, command: list[str]) -> None:
    """The JSON is for programs: json.dumps escapes control characters itself, and the
    values read back are the file's own (not ``\\xNN`` text)."""
    done = run_bgtools([*command, str(hostile_file)])
    assert done.returncode in (0, 1), done.stderr
    lines = done.stdout.decode("utf-8").splitlines()
    objects = [json.loads(line) for line in lines]
    assert "\x1b" not in done.stdout.decode("utf-8")  # escaped by json.dumps: \u001b
    if command[0] == "standings":
        assert set(objects[0]["players"]) == set(NAMES)
    else:
        assert all(obj["file"] == str(hostile_file) for obj in objects)
    if command[0] == "score":
        assert objects[0]["players"] == list(NAMES)
