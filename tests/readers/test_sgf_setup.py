"""SGF set-up nodes (FORMATS.md 3.3): the replay applies the board, turn and cube they set.

The oracle is GNU Backgammon: ``tests/helpers/setup_fixtures.py`` set up positions in gnubg (board,
turn, cube value and owner), let it play on and saved its SGF with gnubg's Position ID and
Match ID before every play and the Position ID after it (``tests/files/setup/``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.readers.json import parse_json
from bgtools.readers.sgf import parse_sgf
from bgtools.record import Severity
from bgtools.record.sgf import setup_from_sgf
from bgtools.replay import Event, MatchReplay, replay_match
from bgtools.reports.files import event_json
from bgtools.write.json import dumps_match
from bgtools.write.mat import UnwritableRecordError, write_mat
from bgtools.write.sgf import write_sgf
from tests.helpers.setup_fixtures import load_cases

CASES = load_cases()

if not CASES:  # pragma: no cover - the fixtures are committed
    pytest.skip("no set-up records (run python -m tests.helpers.setup_fixtures --regenerate)",
                allow_module_level=True)

HEAD = "(;FF[4]GM[6]MI[length:0][game:0][ws:0][bs:0]PW[w]PB[b]RU[]"


def replay_text(text: str) -> tuple[MatchReplay, list[dict[str, Any]]]:
    """The replay of an SGF text and its ``replay --jsonl`` objects."""
    records = parse_sgf(text)
    assert len(records) == 1
    events: list[Event] = []
    replay = replay_match(records[0], on_event=events.append)
    return replay, [event_json("x.sgf", e) for e in events]


def rules(replay: MatchReplay) -> list[str]:
    return [p.rule for p in replay.problems]


@pytest.mark.parametrize("path,truth", CASES, ids=[p.stem for p, _ in CASES])
def test_replay_reaches_gnubg_ids_after_the_setup(path: Path, truth: dict[str, Any]) -> None:
    replay, events = replay_text(path.read_text(encoding="utf-8"))
    setup_line = replay.record.games[0].setups[-1].line
    assert setup_line is not None
    ours = [e for e in events if e["action"] == "move" and e["steps"] and e["line"] > setup_line]
    theirs = [p for p in truth["plays"] if p["play"]]  # gnubg's plays after its set-up
    assert len(ours) == len(theirs) > 0
    for mine, gnubg in zip(ours, theirs):
        where = f"{path.name}:{mine['line']}"
        assert mine["player"] == gnubg["player"], where
        assert sorted(mine["dice"]) == sorted(gnubg["dice"]), where
        assert mine["position_id_before"] == gnubg["position_id"], where
        assert mine["match_id_before"] == gnubg["match_id"], where
        assert mine["position_id_after"] == gnubg["position_id_after"], where


@pytest.mark.parametrize("path,truth", CASES, ids=[p.stem for p, _ in CASES])
def test_validate_is_clean_and_results_equal_gnubg(path: Path, truth: dict[str, Any]) -> None:
    replay, _ = replay_text(path.read_text(encoding="utf-8"))
    assert set(rules(replay)) <= {"match-incomplete"}, replay.problems
    game = replay.games[-1]
    if truth["winner"] is None:
        assert game.winner is None
    else:
        assert (game.winner, game.points) == (truth["winner"], truth["points"])


def test_fixtures_cover_setups_at_start_and_mid_game() -> None:
    texts = {p.stem: p.read_text(encoding="utf-8") for p, _ in CASES}
    assert ";PL[B]DI[51]\n;PL[B]AE[a:y]" in texts["bar_cube4_m5"]  # dice, then a new board
    assert "CP[b]" in texts["bar_cube4_m5"] and "CP[w]" in texts["race_m3"]
    assert ";B[41aest]\n;PL[W]AE[a:y]" in texts["midgame_money"]  # after three plays
    assert any(t["winner"] is not None for _, t in CASES)


def test_cube_from_setup_is_in_the_events() -> None:
    path = next(p for p, _ in CASES if p.stem == "bar_cube4_m5")
    _, events = replay_text(path.read_text(encoding="utf-8"))
    first = next(e for e in events if e["action"] == "move" and e["steps"])
    assert (first["cube_before"], first["cube_owner_before"]) == (4, 1)
    assert first["pips_before"][1] == 13 * 6 + 2 * 25


@pytest.mark.parametrize("path,truth", CASES, ids=[p.stem for p, _ in CASES])
def test_sgf_keeps_setup_nodes_and_json_round_trips(path: Path, truth: dict[str, Any]) -> None:
    text = path.read_text(encoding="utf-8")
    record = parse_sgf(text)[0]
    assert write_sgf(record) == text
    back = parse_json(dumps_match(record))[0]
    assert back.games[0].setups == record.games[0].setups != ()
    assert back == record
    events: list[Event] = []
    replay_match(back, on_event=events.append)
    _, expected = replay_text(text)
    assert [event_json("x.sgf", e) for e in events] == expected


@pytest.mark.parametrize("path,truth", CASES, ids=[p.stem for p, _ in CASES])
def test_mat_of_a_setup_game_is_refused(path: Path, truth: dict[str, Any]) -> None:
    # gnubg's own export drops the set-up: its .mat does not hold the game.
    gnubg_mat = path.with_suffix(".mat").read_text(encoding="utf-8")
    assert "AE" not in gnubg_mat and "Cube" not in gnubg_mat.split("Game 1")[1][:200]
    with pytest.raises(UnwritableRecordError, match="set-up"):
        write_mat(parse_sgf(path.read_text(encoding="utf-8"))[0])


def test_convert_to_mat_refuses_cleanly(tmp_path: Path) -> None:
    path = CASES[0][0]
    out = tmp_path / "out.mat"
    result = CliRunner().invoke(app, ["convert", str(path), "-o", str(out)])
    assert result.exit_code == 1
    assert "set-up" in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not out.exists()


def test_root_cube_value_starts_the_game_with_a_centred_cube() -> None:
    replay, events = replay_text(HEAD + "CV[2];W[31hefe];B[double];W[take])")
    assert rules(replay) == ["match-incomplete"] or not replay.problems
    assert (events[0]["cube_before"], events[0]["cube_owner_before"]) == (2, None)
    assert events[1]["action"] == "double" and replay.games[0].cube == 4


def test_setup_replaces_the_board_and_the_turn() -> None:
    # Black to move with 13 on his 6-point and 2 on the bar; White 3 on 1, 12 on 13.
    setup = ";PL[B]AE[a:y]AW[a][a][a]" + "AW" + "[m]" * 12 + "AB" + "[s]" * 13 + "[y][y]"
    replay, events = replay_text(HEAD + setup + ";B[52yeyb])")
    assert not [p for p in replay.problems if p.severity is Severity.ERROR]
    assert events[0]["position_id_before"] == "B4D/BwDg/wMAYA"  # FORMATS.md 4.1 example 3
    assert events[0]["player"] == 1
    assert events[0]["steps"] == [[25, 20], [25, 23]]


def test_opening_double_is_fine_after_a_setup_and_turn_follows_the_mover() -> None:
    setup = ";PL[W]AE[f][h][m][s][q][l]"  # empty some points: the rest stays
    replay, events = replay_text(HEAD + setup + ";B[55lgggqlql])")
    assert "opening-double" not in rules(replay)
    assert "turn-order" not in rules(replay)
    assert events[0]["player"] == 1


@pytest.mark.parametrize("setup,fragment", [
    (";AE[a:y]AW[a][a][a][a][a][a][a][a][a][a][a][a][a][a][a][a]", "16 checkers"),
    (";AE[a:y]AW[a]AB[a]", "same point"),
    (";PL[X]", "PL[X]"),
    (";CV[3]", "CV[3]"),
    (";CP[q]", "CP[q]"),
    (";AE[a:y]AW[A]", "AW[A]"),
])
def test_invalid_setup_is_an_error(setup: str, fragment: str) -> None:
    replay, _ = replay_text(HEAD + setup + ";W[31hese])")
    bad = [p for p in replay.problems if p.rule == "sgf-setup-invalid"]
    assert bad and bad[0].severity is Severity.ERROR and fragment in bad[0].message
    assert bad[0].line == 1 and bad[0].column is not None


def test_invalid_board_leaves_later_plays_unchecked() -> None:
    replay, _ = replay_text(HEAD + ";AE[a:y]AW[a]AB[a];W[31hese];B[31hese])")
    assert rules(replay).count("sgf-setup-invalid") == 1
    assert not set(rules(replay)) & {"no-checker", "turn-order", "dice-mismatch"}


def test_setup_ranges_are_inclusive() -> None:
    setup = setup_from_sgf((("AE", ("a:c", "y")), ("AW", ("b",)), ("CP", ("c",)), ("CV", ("8",))),
                           before=0, node=1)
    assert setup.emptied == (0, 1, 2, 24) and setup.white == (1,)
    assert (setup.cube_position, setup.cube, setup.errors) == ("centred", 8, ())


def test_root_cube_value_keeps_the_opening_roll_rules() -> None:
    replay, _ = replay_text(HEAD + "CV[2];W[33hehefefe])")
    assert "opening-double" in rules(replay)


def test_setup_of_the_turn_only_keeps_the_board() -> None:
    replay, events = replay_text(HEAD + ";W[31hefe];PL[W];W[21fdhg])")
    assert "turn-order" not in rules(replay) and not replay.problems
    assert events[1]["player"] == 0 and events[1]["steps"] == [[6, 4], [8, 7]]
