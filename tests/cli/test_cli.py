"""The command line through Typer's CliRunner and a real subprocess: output, JSON, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from tests.helpers.paths import REPO, SAMPLES

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_plays_json_lists_distinct_plays() -> None:
    code, out, _ = run("plays", "4HPwATDgc/ABMA", "52", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["schema"] == "bgtools/1"
    assert obj["dice"] == [5, 2]
    assert len(obj["plays"]) == 8
    assert {p["play"] for p in obj["plays"]} >= {"13/11 13/8", "24/22 13/8", "13/6"}


def test_plays_takes_dice_from_a_gnubg_id() -> None:
    code, out, _ = run("plays", "4HPwATDgc/ABMA:cAlvAAAAAAAE", "--json")
    assert code == 0 and json.loads(out)["dice"] == [6, 3]


@pytest.mark.parametrize("args", [("plays", "nonsense", "52"), ("plays", "4HPwATDgc/ABMA", "72"),
                                  ("plays", "4HPwATDgc/ABMA")])
def test_plays_bad_input_exit_2_without_traceback(args: tuple[str, ...]) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert "Traceback" not in out + err
    assert "error" in err


def test_validate_samples_are_valid() -> None:
    code, out, _ = run("validate", str(SAMPLES), "--json")
    assert code == 0
    objs = [json.loads(line) for line in out.splitlines()]
    assert len(objs) == len([p for p in SAMPLES.iterdir() if p.is_file()])
    assert all(o["valid"] and o["complete"] and o["schema"] == "bgtools/1" for o in objs)


def test_validate_reports_an_illegal_play_with_location(tmp_path: Path) -> None:
    text = (SAMPLES / "example_gnubg.mat").read_text()
    bad = text.replace("63: 13/7 13/10", "63: 13/7 13/9", 1)
    target = tmp_path / "bad.mat"
    target.write_text(bad)
    before = target.read_bytes(), target.stat().st_mtime_ns
    code, out, _ = run("validate", str(target), "--json")
    assert code == 1
    obj = json.loads(out)
    assert obj["valid"] is False
    problem = obj["problems"][0]
    line_no = bad.splitlines().index(next(row for row in bad.splitlines() if "13/9" in row)) + 1
    assert problem["rule"] == "dice-mismatch"
    assert problem["line"] == line_no
    assert (target.read_bytes(), target.stat().st_mtime_ns) == before
    code, out, _ = run("validate", str(target))
    assert code == 1
    assert f"{target}:{line_no}:" in out and "error[dice-mismatch]" in out


def test_validate_missing_and_unrecognised_files_exit_2(tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("just some notes\n")
    code, out, _ = run("validate", str(junk), str(tmp_path / "missing.mat"), "--json")
    assert code == 2
    objs = [json.loads(line) for line in out.splitlines()]
    assert [o["valid"] for o in objs] == [False, False]


def test_replay_jsonl_follows_the_contract() -> None:
    code, out, _ = run("replay", str(SAMPLES / "example_gnubg.mat"), "--jsonl")
    assert code == 0
    events = [json.loads(line) for line in out.splitlines()]
    first = events[0]
    assert first["action"] == "move" and first["player"] == 1 and first["dice"] == [6, 3]
    assert first["position_id_before"] == "4HPwATDgc/ABMA"
    assert first["match_id_before"] == "cAlvAAAAAAAE"
    assert first["position_id_after"] == "4OvEATDgc/ABMA"
    assert first["pips_before"] == [167, 167]
    assert {e["action"] for e in events} >= {"move", "double", "take", "drop"}


def test_rules_lists_rule_ids() -> None:
    code, out, _ = run("rules")
    assert code == 0
    assert "max-dice" in out and "crawford-double" in out and "score-mismatch" in out


def test_subprocess_entry_point_and_broken_pipe() -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-c", "from bgtools.cli import main; main()", "replay",
         str(SAMPLES / "example_gnubg.mat"), "--jsonl"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )
    assert proc.returncode == 0
    assert len(proc.stdout.splitlines()) > 40
    shell = subprocess.run(
        f"'{sys.executable}' -c 'from bgtools.cli import main; main()' replay "
        f"'{SAMPLES / 'example_gnubg.mat'}' --jsonl | head -1",
        shell=True, capture_output=True, text=True, env=env, timeout=60, check=False,
    )
    assert shell.stdout.count("\n") == 1
    assert "Traceback" not in shell.stderr


def _command_names() -> list[str]:
    from typer.main import get_command

    return sorted(get_command(app).commands)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", _command_names())
def test_a_command_runs_alone_with_the_same_help_and_errors(name: str) -> None:
    from bgtools.cli.application import app_for

    single = app_for([name, "--help"])
    assert single is not app and len(single.registered_commands) == 1
    for args in ([name, "--help"], [name, "--no-such-option"]):
        whole = runner.invoke(app, args)
        alone = runner.invoke(single, args)
        assert (alone.exit_code, alone.stdout, alone.stderr) == \
            (whole.exit_code, whole.stdout, whole.stderr)
    assert app_for(["--version", name]).registered_commands == single.registered_commands


@pytest.mark.parametrize("args", [[], ["--help"], ["--version"], ["valid"], ["--", "validate"],
                                  ["nonsense", "validate"]])
def test_without_a_command_name_the_whole_app_runs(args: list[str]) -> None:
    from bgtools.cli.application import app_for

    assert app_for(args) is app


def test_command_modules_name_every_command_in_help_order() -> None:
    from typer.main import get_command_name

    from bgtools.cli import COMMAND_MODULES

    registered = [(info.name or get_command_name(info.callback.__name__),  # type: ignore[union-attr]
                   info.callback.__module__.rsplit(".", 1)[-1])  # type: ignore[union-attr]
                  for info in app.registered_commands]
    assert registered == list(COMMAND_MODULES.items())


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["validate", "--help"],
                                  ["score", "-h"], ["show", "--bogus"], ["nonsense"], ["valid"],
                                  ["--version", "score"], ["rules", "--json"]], ids=" ".join)
def test_a_run_that_loads_only_its_command_says_what_the_whole_app_says(
        args: list[str]) -> None:
    # main() loads only the module of the command named (--version alone: no Typer); the
    # whole app, every command registered, run by the same error boundary, must agree.
    env = {**os.environ, "COLUMNS": "80"}
    runs = [subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                           text=True, env=env, timeout=60, check=False)
            for code in ("from bgtools.cli import main; main()",
                         "from bgtools.cli import app, errors; errors.run_app(app)")]
    alone, whole = ((run.returncode, run.stdout, run.stderr) for run in runs)
    assert alone == whole
    assert whole[1] or whole[2]
