"""``bgtools convert`` beyond one file: standard output without ``--to``, several inputs into
a directory (names, subdirectories, clashes, refusals, summary), and standard input."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.readers.detect import load_file
from bgtools.replay import replay_match
from tests.helpers.paths import FILES, REPO, SAMPLES

runner = CliRunner()


def convert(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["convert", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def same_match(a: Path, b: Path) -> bool:
    """Both files replay to the same positions, games, results and final score."""
    def shape(path: Path) -> list[object]:
        record = load_file(path).records[0]
        positions: list[object] = []
        replay = replay_match(record, on_event=lambda e: positions.append(
            e.position_after and e.position_after.position_id))
        assert replay.valid, replay.problems
        games = [(g.score_before, g.winner, g.points, g.result) for g in replay.games]
        return [replay.match_length, replay.final_score, games, positions]
    return shape(a) == shape(b)


def test_dash_output_defaults_to_json() -> None:
    code, out, _ = convert(SAMPLES / "example_gnubg.mat", "-o", "-")
    assert code == 0
    assert out.startswith("{") and '"schema": "bgtools/1"' in out
    assert out == convert(SAMPLES / "example_gnubg.mat", "-o", "-", "--to", "json")[1]


def test_a_directory_of_inputs_into_an_output_directory(tmp_path: Path) -> None:
    source = tmp_path / "in"
    (source / "sub").mkdir(parents=True)
    shutil.copy(SAMPLES / "galaxy_match1486073.txt", source)
    shutil.copy(SAMPLES / "money_gnubg.mat", source / "sub")
    code, _, err = convert(source, "-o", f"{tmp_path / 'out'}/", "--to", "sgf")
    assert code == 0, err
    assert tree(tmp_path / "out") == ["galaxy_match1486073.sgf", "sub/money_gnubg.sgf"]
    assert same_match(tmp_path / "out" / "sub" / "money_gnubg.sgf", SAMPLES / "money_gnubg.mat")
    lines = err.splitlines()
    assert lines[-1] == f"bgtools: converted 2 of 2 file(s) into {tmp_path / 'out'}/ (sgf)"
    assert sum(line.startswith("bgtools: wrote ") for line in lines) == 2


def test_an_existing_directory_without_slash_receives_one_file_per_input(
        tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    code, _, err = convert(SAMPLES / "example_gnubg.mat", "-o", out)
    assert code == 0, err
    assert tree(out) == ["example_gnubg.json"]
    assert f"bgtools: wrote {out / 'example_gnubg.json'} (json" in err


def test_inputs_sharing_a_name_keep_their_extension_with_a_note(tmp_path: Path) -> None:
    code, _, err = convert(SAMPLES / "example_gnubg.mat", SAMPLES / "example_gnubg.sgf",
                           SAMPLES / "money_gnubg.mat", "-o", f"{tmp_path}/", "--to", "mat")
    assert code == 0, err
    assert tree(tmp_path) == ["example_gnubg.mat.mat", "example_gnubg.sgf.mat",
                              "money_gnubg.mat"]
    assert err.count("bgtools: note: ") == 2
    # GNU Backgammon's own .mat export and its SGF give the very same .mat.
    assert (tmp_path / "example_gnubg.mat.mat").read_bytes() == \
        (tmp_path / "example_gnubg.sgf.mat").read_bytes() == \
        (SAMPLES / "example_gnubg.mat").read_bytes()


def test_an_input_given_twice_writes_nothing(tmp_path: Path) -> None:
    code, _, err = convert(SAMPLES / "money_gnubg.mat", SAMPLES / "money_gnubg.mat",
                           "-o", f"{tmp_path}/out/")
    assert code == 2
    assert err.startswith("bgtools: error: ") and "given twice" in err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_outputs_never_replace_inputs_nor_existing_files_without_force(tmp_path: Path) -> None:
    shutil.copy(SAMPLES / "money_gnubg.mat", tmp_path)
    shutil.copy(SAMPLES / "galaxy_match1486073.txt", tmp_path)
    (tmp_path / "galaxy_match1486073.mat").write_text("precious\n", encoding="utf-8")
    before = {name: (tmp_path / name).read_bytes() for name in tree(tmp_path)}
    stamp = os.stat(tmp_path / "money_gnubg.mat").st_mtime_ns
    for force in ((), ("--force",)):
        code, _, err = convert(tmp_path / "money_gnubg.mat", tmp_path / "galaxy_match1486073.txt",
                               "-o", tmp_path, "--to", "mat", *force)
        assert code == 2
        assert "money_gnubg.mat is an input file" in err
    assert os.stat(tmp_path / "money_gnubg.mat").st_mtime_ns == stamp
    assert (tmp_path / "money_gnubg.mat").read_bytes() == before["money_gnubg.mat"]
    # Without --force the existing output was kept; with it, it was replaced.
    assert (tmp_path / "galaxy_match1486073.mat").read_text(encoding="utf-8") != "precious\n"
    assert same_match(tmp_path / "galaxy_match1486073.mat",
                      tmp_path / "galaxy_match1486073.txt")


def test_existing_output_in_a_directory_is_refused_and_counted(tmp_path: Path) -> None:
    (tmp_path / "money_gnubg.json").write_text("precious\n", encoding="utf-8")
    code, _, err = convert(SAMPLES / "money_gnubg.mat", SAMPLES / "galaxy_match1486073.txt",
                           "-o", f"{tmp_path}/")
    assert code == 2
    assert (tmp_path / "money_gnubg.json").read_text(encoding="utf-8") == "precious\n"
    assert (tmp_path / "galaxy_match1486073.json").exists()
    assert err.splitlines()[-1] == (f"bgtools: converted 1 of 2 file(s) into {tmp_path}/ "
                                    "(json); 1 already exists (--force replaces it)")


def test_a_rerun_counts_existing_outputs_apart_from_failures(tmp_path: Path) -> None:
    source = tmp_path / "in"
    source.mkdir()
    for sample in ("example_gnubg.mat", "money_gnubg.mat", "galaxy_match1486073.txt"):
        shutil.copy(SAMPLES / sample, source)
    (source / "broken.mat").write_bytes(b"\x00\x01 not a match\n")
    out = f"{tmp_path}/out/"
    first = convert(source, "-o", out)
    assert first[2].splitlines()[-1] == (f"bgtools: converted 3 of 4 file(s) into {out} "
                                         "(json); 1 unreadable or refused")
    code, _, err = convert(source, "-o", out)
    assert code == 2
    assert err.splitlines()[-1] == (f"bgtools: converted 0 of 4 file(s) into {out} (json); "
                                    "3 already exist (--force replaces them); "
                                    "1 unreadable or refused")
    code, _, err = convert(source, "-o", out, "--force")
    assert err.splitlines()[-1] == (f"bgtools: converted 3 of 4 file(s) into {out} (json); "
                                    "1 unreadable or refused")


def test_records_with_errors_are_left_out_and_the_others_converted(tmp_path: Path) -> None:
    source = tmp_path / "in"
    source.mkdir()
    text = (SAMPLES / "example_gnubg.mat").read_text(encoding="utf-8")
    (source / "bad.mat").write_text(text.replace("13/7 13/10", "13/7 13/9", 1),
                                    encoding="utf-8")
    shutil.copy(SAMPLES / "money_gnubg.mat", source)
    code, _, err = convert(source, "-o", f"{tmp_path}/out/", "--jobs", "2")
    assert code == 1
    assert tree(tmp_path / "out") == ["money_gnubg.json"]
    assert "bad.mat has 1 error; not converted" in err
    assert "not converted (errors in the record)" in err.splitlines()[-1]


def test_glob_keeps_the_path_under_its_fixed_prefix(tmp_path: Path) -> None:
    code, _, err = convert(f"{FILES}/sites/**/*.txt", "-o", f"{tmp_path}/", "--to", "json")
    expected = sorted(str(p.relative_to(FILES / "sites").with_suffix(".json"))
                      for p in (FILES / "sites").rglob("*.txt"))
    assert expected
    written = tree(tmp_path)
    assert set(written) <= set(expected) and written, err
    assert code in (0, 1)


def test_several_inputs_need_a_directory_and_stdin_needs_a_name(tmp_path: Path) -> None:
    code, _, err = convert(SAMPLES / "money_gnubg.mat", SAMPLES / "example_gnubg.mat",
                           "-o", tmp_path / "one.mat")
    assert code == 2 and "need an output directory" in err
    code, _, err = convert(SAMPLES, "-o", "-")
    assert code == 2 and "need an output directory" in err
    code, _, err = convert("-", "-o", f"{tmp_path}/")
    assert code == 2 and "standard input has no name" in err
    assert tree(tmp_path) == []


def test_output_path_that_is_a_file_used_as_a_directory(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x\n", encoding="utf-8")
    code, _, err = convert(SAMPLES / "money_gnubg.mat", "-o", f"{tmp_path / 'plain'}/")
    assert code == 2 and "is not a directory" in err


@pytest.mark.parametrize("fmt", ["mat", "sgf", "json"])
def test_standard_input_converts_through_a_pipe(fmt: str) -> None:
    source = SAMPLES / "example_gnubg.sgf"
    piped = subprocess.run(
        [sys.executable, "-c", "from bgtools.cli import main; main()",
         "convert", "-", "-o", "-", "--to", fmt],
        input=source.read_bytes(), capture_output=True, timeout=60, check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)})
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.decode() == convert(source, "-o", "-", "--to", fmt)[1]
    if fmt == "mat":
        assert piped.stdout == (SAMPLES / "example_gnubg.mat").read_bytes()
