"""Raccoons survive ``convert``: a money session with beavers and raccoons written to .mat,
SGF and JSON reads back as the same match (games, cube actions with values and owners,
results, final score), and the replay gives one event per raccoon."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.readers.detect import load_file
from bgtools.record import MatchRecord
from bgtools.replay import Event, replay_match
from tests.helpers.paths import FILES

RACCOONS = FILES / "money_raccoons.mat"
runner = CliRunner()


def _record(path: Path) -> MatchRecord:
    records = load_file(path).records
    assert len(records) == 1
    return records[0]


def _raccoon_cells(record: MatchRecord) -> int:
    return sum(1 for game in record.games for a in game.actions if a.kind == "raccoon")


def _summary(path: Path) -> list[object]:
    """What must survive a conversion: every event (player, action, dice, the position after
    a play, the cube's value and owner before it), each game's score, result and cube, the
    final score; the replay must be clean."""
    events: list[Event] = []
    replay = replay_match(_record(path), on_event=events.append)
    assert replay.valid, replay.problems
    assert not replay.problems, replay.problems
    rows = [(e.game, e.index, e.player, e.action, e.dice,
             e.position_after.position_id if e.position_after else None,
             e.state_before.cube_value, e.state_before.cube_owner) for e in events]
    games = [(g.score_before, g.winner, g.points, g.result, g.ended_by, g.cube)
             for g in replay.games]
    return [replay.match_length, replay.final_score, games, rows]


def _convert(source: Path, out: Path) -> None:
    result = runner.invoke(app, ["convert", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    check = runner.invoke(app, ["validate", str(out)])
    assert check.exit_code == 0, check.stdout + check.stderr


def test_the_source_is_a_clean_session_with_raccoons() -> None:
    record = _record(RACCOONS)
    assert record.match_length == 0
    assert record.tag("Beaver") == "On"
    assert _raccoon_cells(record) >= 2


def test_replay_gives_one_raccoon_event_per_raccoon_cell() -> None:
    record = _record(RACCOONS)
    events: list[Event] = []
    replay_match(record, on_event=events.append)
    raccoons = [e for e in events if e.action == "raccoon"]
    cells = [(gi + 1, a.player, a.line) for gi, game in enumerate(record.games)
             for a in game.actions if a.kind == "raccoon"]
    assert [(e.game, e.player, e.line) for e in raccoons] == cells
    for event in raccoons:
        # Before the raccoon the beaverer owns the beaver's cube and the raccoon is offered
        # by the other player, who is on roll.
        before = events[event.index - 1 + _first_index(events, event.game)]
        assert before.action == "beaver"
        assert event.state_before.cube_owner == before.player != event.player
        assert event.state_before.cube_value == 2 * 2 * before.state_before.cube_value
        assert event.state_before.on_roll == event.player == event.state_before.turn
        assert event.state_before.doubled


def _first_index(events: list[Event], game: int) -> int:
    return next(i for i, e in enumerate(events) if e.game == game)


def test_replay_jsonl_has_a_row_per_raccoon() -> None:
    result = runner.invoke(app, ["replay", "--jsonl", str(RACCOONS)])
    assert result.exit_code == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if '"action": "raccoon"' in line]
    assert len(rows) == _raccoon_cells(_record(RACCOONS))


@pytest.mark.parametrize("suffix", ["mat", "sgf", "json"])
def test_convert_keeps_the_raccoons(tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"out.{suffix}"
    _convert(RACCOONS, out)
    assert _raccoon_cells(_record(out)) == _raccoon_cells(_record(RACCOONS))
    assert _summary(out) == _summary(RACCOONS)


@pytest.mark.parametrize("suffix", ["mat", "json"])
def test_convert_keeps_the_beaver_setting(tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"out.{suffix}"
    _convert(RACCOONS, out)
    assert _record(out).tag("Beaver") == _record(RACCOONS).tag("Beaver")


def test_mat_through_sgf_gives_the_same_mat(tmp_path: Path) -> None:
    _convert(RACCOONS, tmp_path / "direct.mat")
    _convert(RACCOONS, tmp_path / "via.sgf")
    _convert(tmp_path / "via.sgf", tmp_path / "via.mat")
    assert _summary(tmp_path / "via.mat") == _summary(RACCOONS)
    direct = (tmp_path / "direct.mat").read_text().split(" 0 point match")[1]
    via = (tmp_path / "via.mat").read_text().split(" 0 point match")[1]
    assert via == direct

