"""``bgtools show`` finds its one file like the other commands: a quoted glob, or ``-``."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from bgtools.cli import app
from tests.helpers.paths import SAMPLES

runner = CliRunner()


def show(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["show", "--ascii", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_glob_matching_one_file_draws_it() -> None:
    code, out, err = show(f"{SAMPLES}/galaxy_*.txt", "--game", "1", "--move", "3")
    assert code == 0, err
    assert out == show(str(SAMPLES / "galaxy_match1486073.txt"), "--game", "1", "--move", "3")[1]
    assert "Position ID" in out


def test_a_glob_matching_several_files_is_a_usage_error() -> None:
    code, out, err = show(f"{SAMPLES}/example_gnubg.*")
    assert code == 2 and out == ""
    assert err == (f"bgtools: error: {SAMPLES}/example_gnubg.* holds several match files; "
                   "show draws one board: name one of them\n")


def test_a_glob_matching_nothing_is_reported_like_a_missing_file(tmp_path: Path) -> None:
    code, out, err = show(f"{tmp_path}/*.mat")
    assert code == 2 and out == ""
    assert err == f"bgtools: error: {tmp_path}/*.mat: no file matches\n"


def test_ids_are_still_ids() -> None:
    code, out, _ = show("4HPwATDgc/ABMA")
    assert code == 0 and "4HPwATDgc/ABMA" in out
