"""eXtreme Gammon's automatic doubles (money play): from file version 26 a game header holds
``NumberOfAutoDoubles`` (offset 64), and the game's cube records still count from 1: the
real cube is 2^n times theirs (xgdatatools' ``xgstruct.py``, from XG's published layout).

No real file with automatic doubles is published, so the tests patch the money session of
``tests/files/xg/B4_SrGcsKAQmoTyHlgJCbM.xg`` (version 30): the match header's automatic
doubles flag, a game's count, and, consistently, what the count implies: the game's points
in its footer, and every score after it (game headers, game footers, the match footer).
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.readers.detect import read_records
from bgtools.readers.xg import read_game_file
from bgtools.reports.files import analyse_file
from tests.helpers.fuzzing import build_xg
from tests.helpers.paths import SAMPLE_XG
from tests.helpers.replays import Key, replay_keys
from tests.helpers.xg_bodies import with_auto_doubles, xg_records


def _write(tmp_path: Path, body: bytes, name: str) -> Path:
    path = tmp_path / name
    path.write_bytes(build_xg(body))
    return path


def _problems(path: Path) -> list[tuple[str, str]]:
    result = analyse_file(str(path), path)
    assert result.error is None, result.error
    return [(p.rule, p.severity) for r in result.replays for p in r.problems]


def _scaled(keys: list[Key], game: int, factor: int) -> list[Key]:
    """The events of the original with game ``game``'s cube values times ``factor``."""
    out: list[Key] = []
    for key in keys:
        cube = key[6]
        assert isinstance(cube, int)
        out.append((*key[:6], cube * factor, *key[7:]) if key[0] == game else key)
    return out


@pytest.mark.parametrize("game, count", [(1, 1), (3, 1), (3, 2), (2, 4)])
@pytest.mark.parametrize("counts_from_one", [False, True])
def test_the_cube_starts_at_two_to_the_count(tmp_path: Path, game: int, count: int,
                                             counts_from_one: bool) -> None:
    body = read_game_file(SAMPLE_XG.read_bytes())
    patched = _write(tmp_path, with_auto_doubles(body, game, count, counts_from_one), "a.xg")
    keys, summary = replay_keys(SAMPLE_XG)
    patched_keys, patched_summary = replay_keys(patched)
    assert patched_keys == _scaled(keys, game, 1 << count)
    [(final, _, _, games)] = summary  # type: ignore[misc]
    [(p_final, _, _, p_games)] = patched_summary  # type: ignore[misc]
    won = games[game - 1]
    assert p_games[game - 1] == (won[0], won[1] << count, won[2], won[3], won[4] << count)
    assert [g for i, g in enumerate(p_games) if i != game - 1] == \
        [g for i, g in enumerate(games) if i != game - 1]
    gained = (won[1] << count) - won[1]
    assert p_final == tuple(s + gained * (side == won[0]) for side, s in enumerate(final))
    assert _problems(patched) == _problems(SAMPLE_XG) == []


def test_the_record_sets_up_the_cube_and_scales_the_doubles() -> None:
    body = with_auto_doubles(read_game_file(SAMPLE_XG.read_bytes()), 3, 2)
    record = read_records(build_xg(body), "a.xg").records[0]
    third = record.games[2]
    [setup] = third.setups
    assert (setup.before, setup.cube, setup.sets_board, setup.turn) == (0, 4, False, None)
    assert third.extra["xg_auto_doubles"] == 2
    assert [(a.kind, a.cube) for a in third.actions if a.kind == "double"] == [("double", 8)]
    assert [a.points for a in third.actions if a.kind == "win"] == [24]
    assert not record.games[0].setups and not record.games[1].setups


def test_a_version_before_26_has_no_count(tmp_path: Path) -> None:
    """Before version 26 the bytes at 64 are not the count: they are not read."""
    records = xg_records(read_game_file(SAMPLE_XG.read_bytes()))
    struct.pack_into("<i", records[0], 552, 25)
    headers = [i for i, r in enumerate(records) if r[8] == 1]
    struct.pack_into("<i", records[headers[0]], 64, 3)
    record = read_records(build_xg(b"".join(bytes(r) for r in records)), "a.xg").records[0]
    assert all(not g.setups for g in record.games)


@pytest.mark.parametrize("count", [-1, 16, 1 << 30])
def test_an_impossible_count_is_a_problem(count: int) -> None:
    records = xg_records(read_game_file(SAMPLE_XG.read_bytes()))
    headers = [i for i, r in enumerate(records) if r[8] == 1]
    struct.pack_into("<i", records[headers[0]], 64, count)
    record = read_records(build_xg(b"".join(bytes(r) for r in records)), "a.xg").records[0]
    assert [(p.rule, p.game) for p in record.problems] == [("syntax", 1)]
    assert "automatic doubles" in record.problems[0].message
    assert not record.games[0].setups


@pytest.mark.parametrize("to", ["sgf", "json"])
def test_convert_keeps_the_automatic_doubles(tmp_path: Path, to: str) -> None:
    body = with_auto_doubles(read_game_file(SAMPLE_XG.read_bytes()), 3, 1)
    patched = _write(tmp_path, body, "a.xg")
    out = tmp_path / f"a.{to}"
    result = CliRunner().invoke(app, ["convert", str(patched), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert replay_keys(out) == replay_keys(patched)
    if to == "sgf":
        roots = [line for line in out.read_text().splitlines() if line.startswith("(;")]
        assert ["CV[2]" in root for root in roots] == [False, False, True]


def test_a_position_file_gives_the_cube_of_its_automatic_doubles(tmp_path: Path) -> None:
    """An ``.xgp`` of a checker decision on a centred cube after two automatic doubles:
    the cube is 4, centred."""
    records = xg_records(read_game_file(SAMPLE_XG.read_bytes()))
    move = next(r for r in records if r[8] == 3 and struct.unpack_from("<i", r, 108)[0] == 0)
    header = records[1]
    struct.pack_into("<i", header, 64, 2)
    path = tmp_path / "p.xgp"
    path.write_bytes(build_xg(bytes(records[0]) + bytes(header) + bytes(move)))
    out = CliRunner().invoke(app, ["status", "--json", str(path)])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["cube"] == {"value": 4, "owner": None}


def test_a_set_position_survives_conversion_to_sgf(tmp_path: Path) -> None:
    """A game XG set up by hand (the game header's initial position) and a position edited
    at a play are SGF set-up nodes in the converted file, which replays alike."""
    records = xg_records(read_game_file(SAMPLE_XG.read_bytes()))
    headers = [i for i, r in enumerate(records) if r[8] == 1]
    moves = [i for i in range(headers[0], headers[1]) if records[i][8] == 3]
    records[headers[0]][21:47] = records[moves[5]][9:35]  # game 1 starts at its 6th play
    later = [i for i in range(headers[1], headers[2]) if records[i][8] == 3]
    records[later[4]][2528] = 1  # game 2: edited at its 5th play, 3rd and 4th dropped
    drop = set(range(moves[0], moves[5])) | set(range(later[2], later[4]))
    body = b"".join(bytes(r) for i, r in enumerate(records) if i not in drop)
    patched = _write(tmp_path, body, "s.xg")
    assert [p[0] for p in _problems(patched)] == ["set-position", "set-position"]
    out = tmp_path / "s.sgf"
    result = CliRunner().invoke(app, ["convert", str(patched), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert replay_keys(out) == replay_keys(patched)
    assert _problems(out) == []
    assert out.read_text().count(";AE[a:y]") == 2
