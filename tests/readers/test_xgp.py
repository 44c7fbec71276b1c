"""eXtreme Gammon position files (``.xgp``): one position, for ``show``, ``status``,
``pips`` and ``plays``.

No ``.xgp`` file is published with a licence we can ship, so the tests build them from the
published layout (``docs/xg-format.md``): the ``RGMH`` container around a record stream of
a match header, a game header and the decision (a move record for a checker play, a cube
record for a cube decision), taken here from a real match (``tests/files/xg``). The
position each file gives must be the one the replay of that match has at that decision.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.errors import UnsupportedFormatError
from bgtools.readers.detect import read_records
from bgtools.readers.inputs import expand_paths
from bgtools.readers.xg import RECORD_SIZE, read_game_file, read_position_file
from bgtools.replay import Event
from bgtools.reports.files import analyse_file
from tests.helpers.fuzzing import build_xg
from tests.helpers.paths import SAMPLE_XG

MATCH = SAMPLE_XG


def _records() -> list[bytes]:
    body = read_game_file(MATCH.read_bytes())
    return [body[at:at + RECORD_SIZE] for at in range(0, len(body), RECORD_SIZE)]


def _game_one_events() -> list[Event]:
    events: list[Event] = []
    analyse_file(str(MATCH), MATCH, on_event=events.append)
    return [e for e in events if e.game == 1]


def _status(path: Path) -> dict[str, object]:
    out = CliRunner().invoke(app, ["status", "--json", str(path)])
    assert out.exit_code == 0, out.output
    return dict(json.loads(out.stdout))


def _decisions(kind: str) -> list[tuple[bytes, Event]]:
    """The records of game 1 of that kind ("move", or "double" for cube records holding a
    double) with the event the replay of the match gives for each."""
    records = _records()
    end = next(i for i, r in enumerate(records) if i > 1 and r[8] == 1)
    events = [e for e in _game_one_events() if e.action == kind]
    if kind == "move":
        chosen = [r for r in records[1:end] if r[8] == 3]
    else:
        chosen = [r for r in records[1:end]
                  if r[8] == 2 and struct.unpack_from("<i", r, 16)[0] == 1]
    assert len(chosen) == len(events) > 0
    return list(zip(chosen, events))


def _position_file(tmp_path: Path, record: bytes, name: str = "p.xgp") -> Path:
    records = _records()
    path = tmp_path / name
    path.write_bytes(build_xg(records[0] + records[1] + record))
    return path


def _assert_status_is_the_decision(status: dict[str, Any], event: Event) -> None:
    """``status --json`` of a position file names the position, the player on roll and the
    cube of the match's own moment before that decision."""
    assert status["position_id"] == event.position_before.position_id
    assert status["on_roll"] == event.player
    assert status["cube"] == {"value": event.state_before.cube_value,
                              "owner": event.state_before.cube_owner}


@pytest.mark.parametrize("index", [0, 5, 11, 17])
def test_a_checker_decision_gives_the_position_the_match_has_there(tmp_path: Path,
                                                                    index: int) -> None:
    record, event = _decisions("move")[index]
    path = _position_file(tmp_path, record)
    _assert_status_is_the_decision(_status(path), event)
    position, dice = read_position_file(path.read_bytes(), "p.xgp")
    assert position == event.position_before
    assert dice is not None and sorted(dice) == sorted(event.dice or ())


def test_a_cube_decision_gives_the_doubler_on_roll_and_the_cube(tmp_path: Path) -> None:
    record, event = _decisions("double")[0]
    path = _position_file(tmp_path, record)
    _assert_status_is_the_decision(_status(path), event)
    assert read_position_file(path.read_bytes())[1] is None


def test_a_position_file_validates_clean_and_is_found_by_content(tmp_path: Path) -> None:
    record, _ = _decisions("move")[3]
    path = _position_file(tmp_path, record, "position.bin")
    loaded = read_records(path.read_bytes(), "position.bin")
    assert loaded.format == "xg"
    (game,) = loaded.records[0].games
    assert game.actions == [] and len(game.setups) == 1
    out = CliRunner().invoke(app, ["validate", "--json", str(path)])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout.splitlines()[0])
    assert report["valid"] is True and report["problems"] == []
    renamed = path.rename(tmp_path / "position.xgp")
    assert [str(p) for _, p, _ in expand_paths([str(tmp_path)])] == [str(renamed)]


def test_show_pips_and_plays_take_a_position_file(tmp_path: Path) -> None:
    record, event = _decisions("move")[7]
    path = _position_file(tmp_path, record)
    shown = CliRunner().invoke(app, ["show", str(path)])
    assert shown.exit_code == 0 and event.position_before.position_id in shown.stdout
    pips = CliRunner().invoke(app, ["pips", "--json", str(path)])
    assert pips.exit_code == 0
    d1, d2 = event.dice or (0, 0)
    by_file = CliRunner().invoke(app, ["plays", "--json", str(path)])
    by_id = CliRunner().invoke(app, ["plays", "--json", event.position_before.position_id,
                                     f"{d1}{d2}"])
    assert by_file.exit_code == by_id.exit_code == 0, by_file.output
    assert json.loads(by_file.stdout)["plays"] == json.loads(by_id.stdout)["plays"]
    assert str(event.play) in [row["play"] for row in json.loads(by_file.stdout)["plays"]]


def test_plays_of_a_match_file_is_a_clean_error() -> None:
    out = CliRunner().invoke(app, ["plays", str(MATCH)])
    assert out.exit_code == 2
    assert "not an eXtreme Gammon position file" in out.stderr
    with pytest.raises(UnsupportedFormatError):
        read_position_file(MATCH.read_bytes())


@pytest.mark.parametrize("index", [0, 5, 11])
def test_a_checker_decision_has_the_dice_to_play(tmp_path: Path, index: int) -> None:
    """``status`` and ``show`` of a position file give its dice as for an XGID with dice:
    its XGID and Match ID are the match's own before that play (dice included)."""
    record, event = _decisions("move")[index]
    path = _position_file(tmp_path, record)
    move = _game_one_events().index(event) + 1
    out = CliRunner().invoke(app, ["status", "--json", str(MATCH), "--game", "1", "--move",
                                   str(move)])
    assert out.exit_code == 0, out.output
    in_match = json.loads(out.stdout)
    status = _status(path)
    assert (status["xgid"], status["match_id"]) == (in_match["xgid"], in_match["match_id"])
    d1, d2 = event.dice or (0, 0)
    assert f":{max(d1, d2)}{min(d1, d2)}:" in str(status["xgid"]) or \
        f":{d1}{d2}:" in str(status["xgid"])
    text = CliRunner().invoke(app, ["status", str(path)])
    assert text.exit_code == 0
    assert any(line.split()[:1] == ["dice"] for line in text.stdout.splitlines())
    shown = CliRunner().invoke(app, ["show", "--ascii", str(path)])
    by_id = CliRunner().invoke(app, ["show", "--ascii", str(status["xgid"])])
    assert shown.exit_code == by_id.exit_code == 0
    assert f"Rolled {d1}{d2}" in shown.stdout or f"Rolled {d2}{d1}" in shown.stdout
    assert _board_lines(shown.stdout) == _board_lines(by_id.stdout)


def _board_lines(text: str) -> list[str]:
    """The rows of an ASCII board between its frame lines, without the names beside it."""
    return [line[:44] for line in text.splitlines() if line.startswith(" |")]


def test_a_cube_decision_has_no_dice(tmp_path: Path) -> None:
    record, _ = _decisions("double")[0]
    status = _status(_position_file(tmp_path, record))
    assert str(status["xgid"]).split(":")[4] == "00"
