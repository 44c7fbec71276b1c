"""``bgtools convert``: formats, round trips through JSON, and the safety rules of writing."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.errors import BgtoolsError
from bgtools.readers.detect import load_file
from bgtools.replay import replay_match
from tests.helpers.paths import FILES, SAMPLES, at_least

SELFPLAY = FILES / "selfplay"
runner = CliRunner()


def convert(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["convert", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def match_summary(path: Path) -> list[object]:
    """Games, plays (as positions), cube actions, results and score, read back by bgtools."""
    record = load_file(path).records[0]
    events: list[object] = []
    replay = replay_match(
        record,
        on_event=lambda e: events.append(
            (e.game, e.player, e.action, e.dice and tuple(sorted(e.dice)),
             e.position_after and e.position_after.position_id)
        ),
    )
    assert replay.valid, replay.problems
    games = [(g.score_before, g.winner, g.points, g.result, g.ended_by) for g in replay.games]
    return [replay.match_length, replay.final_score, games, events]


def test_gnubg_mat_converts_to_itself_byte_for_byte(tmp_path: Path) -> None:
    out = tmp_path / "out.mat"
    code, _, err = convert(SAMPLES / "example_gnubg.mat", "-o", out)
    assert code == 0, err
    assert out.read_bytes() == (SAMPLES / "example_gnubg.mat").read_bytes()


@pytest.mark.parametrize("name", ["example_gnubg.mat", "example_gnubg.sgf", "money_gnubg.mat",
                                  "galaxy_match1486073.txt"])
def test_json_is_a_lossless_stop_on_the_way(tmp_path: Path, name: str) -> None:
    """X -> json -> mat equals X -> mat, and X -> json -> sgf equals X -> sgf."""
    source = SAMPLES / name
    assert convert(source, "-o", tmp_path / "a.json")[0] == 0
    for fmt in ("mat", "sgf", "json"):
        direct, via = tmp_path / f"direct.{fmt}", tmp_path / f"via.{fmt}"
        assert convert(source, "-o", direct)[0] == 0
        code, _, err = convert(tmp_path / "a.json", "-o", via)
        assert code == 0, err
        assert via.read_bytes() == direct.read_bytes(), fmt


@pytest.mark.parametrize("name", ["example_gnubg.mat", "money_gnubg.mat", "galaxy_match1486073.txt",
                                  "m7_s8.mat"])
@pytest.mark.parametrize("fmt", ["mat", "sgf", "json"])
def test_every_format_reads_back_to_the_same_match(tmp_path: Path, name: str, fmt: str) -> None:
    source = SAMPLES / name if (SAMPLES / name).exists() else SELFPLAY / name
    out = tmp_path / f"out.{fmt}"
    code, _, err = convert(source, "-o", out)
    assert code == 0, err
    assert match_summary(out) == match_summary(source)


@pytest.mark.slow
def test_corpus_files_convert_and_read_back_alike(tmp_path: Path, corpus: Path) -> None:
    """Every valid corpus match: -> json -> mat reads back to the same match."""
    checked = 0
    for source in sorted(corpus.rglob("*")):
        if source.suffix.lower() not in (".mat", ".txt", ".sgf") or not source.is_file():
            continue
        try:
            loaded = load_file(source)
        except BgtoolsError:  # unreadable files are test_hostile's business
            continue
        if len(loaded.records) != 1 or not replay_match(loaded.records[0]).valid:
            continue
        json_out, mat_out = tmp_path / "m.json", tmp_path / "m.mat"
        assert convert(source, "-o", json_out, "--force")[0] == 0, source
        code, _, err = convert(json_out, "-o", mat_out, "--force")
        assert code == 0, (source, err)
        assert match_summary(mat_out) == match_summary(source), source
        checked += 1
    assert checked >= at_least(corpus, 150, 15)


def test_to_option_overrides_the_extension_and_dash_writes_stdout(tmp_path: Path) -> None:
    code, out, _ = convert(SAMPLES / "example_gnubg.mat", "-o", "-", "--to", "mat")
    assert code == 0
    assert out == (SAMPLES / "example_gnubg.mat").read_text(encoding="utf-8")
    target = tmp_path / "match.txt"
    assert convert(SAMPLES / "example_gnubg.mat", "-o", target, "--to", "sgf")[0] == 0
    assert target.read_text(encoding="utf-8").startswith("(;FF[4]GM[6]")


@pytest.mark.parametrize("args", [("-o", "out.xyz"), ("-o", "out.mat", "--to", "pdf"),
                                  ("-o", "-", "--to", "pdf")])
def test_unknown_target_format_is_a_usage_error(tmp_path: Path, args: tuple[str, ...]) -> None:
    before = snapshot(tmp_path)
    code, _, err = convert(SAMPLES / "example_gnubg.mat", *[
        str(tmp_path / a) if a.startswith("out") else a for a in args])
    assert code == 2 and "Traceback" not in err
    assert snapshot(tmp_path) == before


def test_existing_output_is_kept_without_force_and_replaced_with_it(tmp_path: Path) -> None:
    out = tmp_path / "out.mat"
    out.write_text("precious\n", encoding="utf-8")
    code, _, err = convert(SAMPLES / "example_gnubg.mat", "-o", out)
    assert code == 2 and "--force" in err
    assert out.read_text(encoding="utf-8") == "precious\n"
    code, _, _ = convert(SAMPLES / "example_gnubg.mat", "-o", out, "--force")
    assert code == 0
    assert out.read_bytes() == (SAMPLES / "example_gnubg.mat").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.mat"]


def test_the_input_is_never_the_output_even_with_force(tmp_path: Path) -> None:
    source = tmp_path / "m.mat"
    shutil.copy(SAMPLES / "galaxy_match1486073.txt", source)
    before = source.read_bytes(), os.stat(source).st_mtime_ns
    for target in (source, tmp_path / "." / "m.mat"):
        code, _, err = convert(source, "-o", target, "--force")
        assert code == 2 and "input" in err
    assert (source.read_bytes(), os.stat(source).st_mtime_ns) == before


def test_a_record_with_errors_is_not_converted(tmp_path: Path) -> None:
    source = tmp_path / "bad.mat"
    text = (SAMPLES / "example_gnubg.mat").read_text(encoding="utf-8")
    assert "13/7 13/10" in text
    source.write_text(text.replace("13/7 13/10", "13/7 13/9", 1), encoding="utf-8")
    code, _, err = convert(source, "-o", tmp_path / "out.sgf")
    assert code == 1
    assert "dice-mismatch" in err or "illegal" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mat"]


@pytest.mark.parametrize("content", [b"", b"\x00\x01binary", b"hello world\n"])
def test_unreadable_input_leaves_nothing_behind(tmp_path: Path, content: bytes) -> None:
    source = tmp_path / "in.mat"
    source.write_bytes(content)
    code, out, err = convert(source, "-o", tmp_path / "out.json")
    assert code == 2 and "Traceback" not in out + err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mat"]


def test_missing_input_and_directory_input_are_usage_errors(tmp_path: Path) -> None:
    assert convert(tmp_path / "nope.mat", "-o", tmp_path / "o.mat")[0] == 2
    assert convert(tmp_path, "-o", tmp_path / "o.mat")[0] == 2
    assert not (tmp_path / "o.mat").exists()
