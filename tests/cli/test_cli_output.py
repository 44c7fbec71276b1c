"""What people see (issue 14): output width, closed pipes, one-line errors, --help, summaries."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from bgtools.replay.rules import severity_of
from bgtools.rules import RULES
from tests.helpers.paths import FILES, REPO, SAMPLES

GALAXY = SAMPLES / "galaxy_match1486073.txt"
GNUBG_MAT = SAMPLES / "example_gnubg.mat"


def bgtools(*args: str, env: dict[str, str] | None = None,
            stdout: int | None = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    """Run the real program, stdout and stderr on pipes (no terminal), no COLUMNS unless
    ``env`` sets it."""
    full_env = {key: value for key, value in os.environ.items()
                if key not in ("BGTOOLS_PROGRESS", "COLUMNS", "LINES", "TERMINAL_WIDTH")}
    full_env.update({"PYTHONPATH": str(REPO), "NO_COLOR": "1", **(env or {})})
    return subprocess.run(
        [sys.executable, "-m", "bgtools", *args], stdout=stdout, stderr=subprocess.PIPE,
        text=True, env=full_env, timeout=300, stdin=subprocess.DEVNULL, check=False,
    )


def _replay_rows(path: Path) -> list[dict[str, object]]:
    out = bgtools("replay", "--jsonl", str(path)).stdout
    return [json.loads(line) for line in out.splitlines()]


# --- item 2: never cut off a terminal; COLUMNS honoured; a narrow terminal stays readable --


def test_replay_to_a_file_keeps_every_cell_whole() -> None:
    done = bgtools("replay", str(GALAXY))
    assert done.returncode == 0
    assert "…" not in done.stdout
    for row in _replay_rows(GALAXY):
        assert str(row["position_id_before"]) in done.stdout
        if row.get("play"):
            assert str(row["play"]) in done.stdout


def test_score_to_a_pipe_keeps_words_and_names_whole() -> None:
    done = bgtools("score", str(GNUBG_MAT))
    assert done.returncode == 0
    assert "…" not in done.stdout
    assert "post-Crawford" in done.stdout
    # The title is one line, however long.
    assert any(line.startswith(f"{GNUBG_MAT}: Alice vs Bob") and line.rstrip().endswith(
        "4-2") for line in done.stdout.splitlines())


@pytest.mark.parametrize("columns", [60, 80])
def test_columns_is_honoured_and_a_narrow_table_drops_columns_instead_of_cutting(
        columns: int) -> None:
    done = bgtools("score", str(GNUBG_MAT), env={"COLUMNS": str(columns)})
    assert done.returncode == 0
    table = done.stdout.splitlines()[1:]
    assert table and all(len(line.rstrip()) <= columns for line in table)
    assert "…" not in done.stdout
    assert "post-Crawford" in done.stdout and "gammon" in done.stdout
    wide = bgtools("score", str(GNUBG_MAT)).stdout
    assert ("ended by" in wide) and (("ended" in done.stdout) == (columns >= 80))


def test_a_narrow_replay_table_keeps_the_plays_whole() -> None:
    done = bgtools("replay", str(GALAXY), env={"COLUMNS": "60"})
    assert done.returncode == 0
    # The title is the path as given, whole (a clone in a deep directory has a long one).
    lines = [line for line in done.stdout.splitlines() if line != str(GALAXY)]
    assert lines and all(len(line) <= 60 for line in lines)
    for row in _replay_rows(GALAXY):
        if row.get("play"):
            assert str(row["play"]) in done.stdout


@pytest.mark.parametrize("command", ["stats", "standings"])
def test_a_narrow_data_table_keeps_the_names_whole_and_drops_empty_columns_first(
        command: str) -> None:
    names = json.loads(bgtools("standings", "--json", str(SAMPLES)).stdout)["players"]
    done = bgtools(command, str(SAMPLES), env={"COLUMNS": "60"})
    assert done.returncode == 0
    tables = [line for line in done.stdout.splitlines() if line[:1] in "┃│┏┡└"]
    assert tables and all(len(line) <= 60 for line in tables)
    assert "…" not in done.stdout
    rows = [line for line in tables if line.startswith("│")]
    for name in names:  # each name whole in the first column of its rows
        assert any(row.strip("│ ").startswith(name + " ") for row in rows), name
    wide = bgtools(command, str(SAMPLES), env={"COLUMNS": "250"}).stdout
    # A column of zeros only goes before a column that counts something.
    empty, counted = {"stats": ("raccooned", "won-lost"),
                      "standings": ("unfinished", "lost")}[command]
    assert empty in wide and counted in wide
    assert empty not in done.stdout and counted in done.stdout


def test_a_narrow_board_keeps_its_rows_and_moves_the_notes_below() -> None:
    moment = ("--game", "1", "--move", "2")
    wide = bgtools("show", "--ascii", str(GNUBG_MAT), *moment).stdout.splitlines()
    narrow = bgtools("show", str(GNUBG_MAT), *moment, env={"COLUMNS": "60"})
    assert narrow.returncode == 0
    lines = narrow.stdout.splitlines()
    assert all(len(line) < 60 for line in lines)
    frame = [n for n, line in enumerate(wide) if line.startswith(" +")]
    board = [line[:49].rstrip() for line in wide[frame[0]:frame[1] + 1]]
    start = lines.index(board[0])
    assert lines[start:start + len(board)] == board
    # Every word of the notes beside the board is still there, below it.
    notes = " ".join(line[49:] for line in wide[frame[0]:frame[1] + 1]).split()
    below = " ".join(lines[start + len(board):]).replace(";", "").split()
    assert notes and all(word in below for word in notes)
    # Wide enough, the coloured board (without colour) is the plain one.
    full = bgtools("show", str(GNUBG_MAT), *moment, env={"COLUMNS": "200"})
    assert full.stdout.splitlines() == wide


@pytest.mark.parametrize("width", [40, 60, 80, 120, 200])
def test_the_progress_bar_fits_the_terminal(width: int) -> None:
    from bgtools.cli.progress import progress_layout

    for total in (1, 2_600, 1_000_000):
        shown, bar = progress_layout(width, total)
        assert "bar" in shown and "files" in shown
        assert 10 <= bar <= 40
        digits = len(str(total))
        texts = {"reading": len("reading"), "bar": bar, "files": 2 * digits + len("/ files"),
                 "rate": len("100,000 rolls/s"), "errors": len("999 error(s)"),
                 "elapsed": len("0:00:00"), "eta": len("ETA 0:00:00")}
        used = sum(texts[name] for name in shown) + len(shown) - 1
        assert used < width or shown == ["bar", "files"]
    assert len(progress_layout(200, 2_600)[0]) == 7


# --- item 3: a closed pipe on human output exits 0 -----------------------------------------


@pytest.mark.parametrize("args", [
    ("score", str(SAMPLES)), ("replay", str(SAMPLES)), ("validate", str(SAMPLES)),
    ("pips", "--all", str(GNUBG_MAT)), ("status", str(SAMPLES)), ("rules",),
    ("plays", "4HPwATDgc/ABMA", "52"), ("score", "--json", str(SAMPLES)),
])
def test_a_closed_pipe_exits_0(args: tuple[str, ...]) -> None:
    read, write = os.pipe()
    os.close(read)  # nobody reads: the first write fails
    try:
        done = bgtools(*args, stdout=write)
    finally:
        os.close(write)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "error" not in done.stderr


def test_the_console_ends_a_closed_pipe_with_exit_0() -> None:
    from bgtools.cli.application import make_console

    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def fileno(self) -> int:
            raise ValueError("no descriptor")

    console = make_console()
    console.file = ClosedPipe()
    with pytest.raises(typer.Exit) as ended:
        console.print("a line")
    assert ended.value.exit_code == 0


# --- item 5: errors are one line on stderr ---------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (("validate", "--jobs", "0", str(SAMPLES)), "--jobs"),
    (("validate", "-j", "abc", str(SAMPLES)), "'abc' is not a valid int"),
    (("validate", "--no-such-option", str(SAMPLES)), "no such option"),
    (("validate",), "missing argument 'PATH...'"),
    (("score", "--rules", "nonsense", str(SAMPLES)), "unknown rule profile"),
    (("convert", str(GNUBG_MAT)), "missing option '--output'"),
    (("pips", "--game", "x", str(GNUBG_MAT)), "'x' is not a valid int"),
])
def test_usage_errors_are_one_line_on_stderr(args: tuple[str, ...], words: str) -> None:
    done = bgtools(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("bgtools: error: ") and words in lines[0]


def test_a_missing_file_is_one_error_line_and_a_greppable_problem(tmp_path: Path) -> None:
    missing = str(tmp_path / "nosuch.mat")
    done = bgtools("validate", missing)
    assert done.returncode == 2
    assert done.stderr == f"bgtools: error: {missing}: no such file or directory\n"
    assert done.stdout == f"{missing}: error[unreadable]: no such file or directory\n"
    # With another file the summary counts it, and the problem line is there to grep.
    both = bgtools("validate", missing, str(GNUBG_MAT))
    assert both.returncode == 2
    assert [line for line in both.stdout.splitlines() if "error[" in line] == [
        f"{missing}: error[unreadable]: no such file or directory"]
    assert "2 file(s): 1 valid, 0 invalid, 1 unreadable" in both.stdout


@pytest.mark.parametrize("command", ["validate", "replay", "score", "status"])
def test_an_empty_directory_is_named(tmp_path: Path, command: str) -> None:
    (tmp_path / "notes.md").write_text("not a match\n")
    done = bgtools(command, str(tmp_path))
    assert done.returncode == 2
    assert done.stderr == f"bgtools: error: {tmp_path}: no match files found\n"
    assert done.stdout == ""


# --- item 6: --help reads cleanly at 80 columns; item 14: -h ---------------------------------

COMMANDS = ["validate", "replay", "rules", "score", "pips", "status", "show", "convert",
            "stats", "standings", "export", "plays"]


def _help(*args: str, width: int = 80) -> str:
    from typer.testing import CliRunner

    from bgtools.cli import app

    result = CliRunner().invoke(app, [*args], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_reads_cleanly_at_80_columns(command: str) -> None:
    args = [command] if command else []
    text = _help(*args, "--help")
    assert text == _help(*args, "-h")
    assert text.startswith(f"Usage: bgtools {command}".rstrip() + " ")
    for line in text.splitlines():
        assert len(line) <= 80, line
        for bad in ("``", "{", "<str>", "<int", "[x>=", "\\[", "╭", "…"):
            assert bad not in line, line
        words = line.split()
        # No word left alone on a line (a reflowed paragraph or a help text's tail).
        assert len(words) != 1 or words[0].endswith(":") or words[0].startswith("-"), line
    if command not in ("", "rules"):
        usage = text.splitlines()[0]
        assert "[OPTIONS]" in usage and usage.split()[-1].strip("[].").isupper()


def test_the_command_list_gives_each_command_a_whole_sentence() -> None:
    text = _help("--help")
    listed = text[text.index("Commands:"):].splitlines()[1:]
    assert sorted(line.split()[0] for line in listed if line.strip()) == sorted(COMMANDS)
    assert all(line.rstrip().endswith(".") and not line.rstrip().endswith("...")
               for line in listed if line.strip())


# --- item 12: summaries for people ------------------------------------------------------------


def test_the_slowest_files_only_with_verbose() -> None:
    plain = bgtools("validate", "-j", "1", str(SAMPLES))
    assert plain.returncode == 0
    assert "4 file(s): 4 valid" in plain.stdout and "slowest files" not in plain.stdout
    verbose = bgtools("validate", "-v", "-j", "1", str(SAMPLES))
    assert "slowest files" in verbose.stdout
    assert sum(1 for line in verbose.stdout.splitlines() if str(SAMPLES) in line) == 4


def test_the_summary_lists_the_files_with_errors_up_to_a_limit() -> None:
    from rich.console import Console

    from bgtools.batch import BatchSummary, FileReport
    from bgtools.cli.progress import print_summary

    error = {"severity": "error", "rule": "max-dice", "line": 1, "column": 1, "game": 1,
             "message": "x"}
    summary = BatchSummary(keep_failed=2)
    summary.add(FileReport("good.mat", valid=True), 0.1)
    summary.add(FileReport("bad1.mat", valid=False, problems=(error, error)), 0.1)
    summary.add(FileReport("gone.mat", error="gone.mat: no such file or directory"), 0.1)
    summary.add(FileReport("bad2.mat", valid=False, problems=(error,)), 0.1)
    summary.finish()
    assert summary.failed == [("bad1.mat", 2), ("gone.mat", None)]
    assert summary.failed_count == 3
    out = io.StringIO()
    print_summary(summary, Console(file=out, width=200, no_color=True))
    lines = out.getvalue().splitlines()
    start = lines.index("3 file(s) with errors, the first 2 listed:")
    assert [line.split() for line in lines[start + 1:]] == [
        ["bad1.mat", "2", "error(s)"], ["gone.mat", "unreadable"]]
    assert summary.to_json()["failed"] == [{"file": "bad1.mat", "errors": 2},
                                           {"file": "gone.mat", "errors": None}]


@pytest.mark.parametrize("command", ["score", "pips", "status"])
def test_answers_print_no_validator_summary(command: str) -> None:
    # Even when stderr is taken for a terminal, where the summary used to go.
    done = bgtools(command, "-j", "1", str(SAMPLES), env={"BGTOOLS_PROGRESS": "1"})
    assert done.returncode == 0
    assert "file(s):" not in done.stdout + done.stderr
    assert "problems by rule" not in done.stdout + done.stderr
    assert str(GNUBG_MAT) in done.stdout


# --- item 14: what users look for first -------------------------------------------------------


def _documented_rules() -> dict[str, str]:
    """``rule -> severity`` as the code defines them: every rule of the rule table, with the
    severity the replayer gives its problems (the manual's rule reference, docs/rules.md, is
    made from them)."""
    return {rule: severity_of(rule).value for rule in RULES}


def test_rules_json_lists_every_rule_with_its_severity() -> None:
    done = bgtools("rules", "--json")
    assert done.returncode == 0
    (line,) = done.stdout.splitlines()
    obj = json.loads(line)
    assert obj["schema"] == "bgtools/1" and obj["kind"] == "rules"
    listed = {row["rule"]: row["severity"] for row in obj["rules"]}
    assert listed == _documented_rules()
    assert listed["unreadable"] == "error" and listed["match-incomplete"] == "warning"
    assert all(row["description"] and "(warning)" not in row["description"]
               for row in obj["rules"])
    # The human listing has the same rules and severities.
    human = bgtools("rules").stdout.splitlines()
    assert {line.split()[0]: line.split()[1] for line in human} == listed


def test_python_m_bgtools_and_version() -> None:
    from bgtools import __version__
    from bgtools.build import build_name

    done = bgtools("--version")
    assert (done.returncode, done.stdout) == (0, f"bgtools {__version__} ({build_name()})\n")


def test_shell_completion_is_offered_and_completes_commands() -> None:
    assert "--install-completion" in _help("--help")
    env = {key: value for key, value in os.environ.items() if key != "BGTOOLS_PROGRESS"}
    env.update({"PYTHONPATH": str(REPO), "_BGTOOLS_COMPLETE": "complete_bash",
                "COMP_WORDS": "bgtools val", "COMP_CWORD": "1"})
    done = subprocess.run(
        [sys.executable, "-c", "import sys; sys.argv[0] = 'bgtools'; "
         "from bgtools.cli import main; main()"],
        capture_output=True, text=True, env=env, timeout=60, check=False)
    assert done.returncode == 0
    assert done.stdout.split() == ["validate"]


@pytest.mark.parametrize("launch", [("-m", "bgtools"),
                                    ("-c", "from bgtools.cli import main; main()")])
def test_a_usage_error_names_the_sub_command_once_and_the_root_never(
        launch: tuple[str, str]) -> None:
    # The root's name may be several words (python -m bgtools): it must not be taken for a
    # sub-command's.
    def stderr(*args: str) -> str:
        done = subprocess.run([sys.executable, *launch, *args], check=False,
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
        assert done.returncode == 2
        return done.stderr

    assert stderr("nonsense").startswith("bgtools: error: no such command 'nonsense'; see '")
    assert stderr("validate", "--bogus").startswith("bgtools: error: validate: no such option")


def test_score_json_numbers_the_matches_of_a_file_of_several(tmp_path: Path) -> None:
    """One object per match; with several in a file each says which of how many it is."""
    selfplay = FILES / "selfplay"
    first, second = (selfplay / "m3_s1.mat").read_text(), (selfplay / "m3_s10.mat").read_text()
    both = tmp_path / "two.mat"
    both.write_text(first + "\n" + second)
    lines = bgtools("score", "--json", str(both), str(selfplay / "m3_s1.mat")).stdout
    objects = [json.loads(line) for line in lines.splitlines()]
    assert [(o["file"], o.get("match"), o.get("matches")) for o in objects] == [
        (str(both), 1, 2), (str(both), 2, 2), (str(selfplay / "m3_s1.mat"), None, None)]
    assert objects[0]["final_score"] == objects[2]["final_score"]
    assert objects[1]["final_score"] != objects[0]["final_score"]
