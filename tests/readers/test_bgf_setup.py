"""BGBlitz games that start from a position set up by hand (``initial`` not the start):
the replay starts from that position, with a ``set-position`` warning, as for XG.

No published ``.bgf`` holds one, so the test builds it from a real match
(``tests/files/xg/B4_SrGcsKAQmoTyHlgJCbM.bgf``, MIT): game 1 cut to start at a later roll,
with the board the replay has there written as ``initial.points``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.readers.bgf import read_bgf_document
from bgtools.replay import Event
from bgtools.reports.files import analyse_file
from tests.helpers.fuzzing import bgf_points, build_bgf
from tests.helpers.paths import FILES, SAMPLE_BGF
from tests.helpers.replays import replay_keys
from tests.helpers.schema import schema_errors

SAMPLE = SAMPLE_BGF


def _points(event: Event) -> list[int]:
    """BGBlitz's ``initial.points`` of the board before ``event``: green (player 0)
    positive from his 24-point at index 0, red negative, then green's and red's bars."""
    mover, opponent = event.position_before.mover, event.position_before.opponent
    return bgf_points(mover, opponent) if event.player == 0 else bgf_points(opponent, mover)


def test_a_game_set_up_in_bgblitz_replays_from_its_position(tmp_path: Path) -> None:
    _, document = read_bgf_document(SAMPLE.read_bytes())
    assert isinstance(document, dict)
    events: list[Event] = []
    analyse_file(str(SAMPLE), SAMPLE, on_event=events.append)
    rolls = [e for e in events if e.game == 1 and e.action == "move"]
    moves = document["games"][0]["moves"]
    entries = [i for i, m in enumerate(moves) if m["green"] != 7 or m["red"] == 5]
    assert len(entries) == len(rolls) > 8
    cut = 8
    document["games"][0]["moves"] = moves[entries[cut]:]
    document["games"][0]["initial"]["points"] = _points(rolls[cut])
    changed = tmp_path / "setup.bgf"
    changed.write_bytes(build_bgf(json.dumps(document, default=str).encode(), smile=False))
    before = [e for e in replay_keys(SAMPLE)[0] if e[0] == 1]
    after = [e for e in replay_keys(changed)[0] if e[0] == 1]
    assert after and after == before[-len(after):]
    assert [e for e in replay_keys(changed)[0] if e[0] != 1] == \
        [e for e in replay_keys(SAMPLE)[0] if e[0] != 1]
    result = analyse_file(str(changed), changed)
    problems = [(p.rule, p.severity, p.game) for r in result.replays for p in r.problems]
    assert problems == [("set-position", "warning", 1)]


def test_the_set_up_cube_keeps_its_owner(tmp_path: Path) -> None:
    """A game cut to start after a take, with the board, cube and owner the replay has
    there as ``initial``: ``cubeOwner`` is coded as a move's player (-1 green, 1 red), so
    the replay goes on with the cube owned as in the whole game (a double by the owner's
    opponent only)."""
    _, document = read_bgf_document(SAMPLE.read_bytes())
    assert isinstance(document, dict)
    events: list[Event] = []
    analyse_file(str(SAMPLE), SAMPLE, on_event=events.append)
    index, event = next((i, e) for i, e in enumerate(events)
                        if e.action == "move" and e.state_before.cube_owner is not None)
    game = event.game
    rolls = [e for e in events if e.game == game and e.action == "move"]
    cut = rolls.index(event)
    moves = document["games"][game - 1]["moves"]
    entries = [i for i, m in enumerate(moves) if m["green"] != 7 or m["red"] == 5]
    assert len(entries) == len(rolls)
    document["games"][game - 1]["moves"] = moves[entries[cut]:]
    owner = event.state_before.cube_owner
    document["games"][game - 1]["initial"].update(
        points=_points(event), cube=event.state_before.cube_value,
        cubeOwner=-1 if owner == 0 else 1)
    changed = tmp_path / "owned.bgf"
    changed.write_bytes(build_bgf(json.dumps(document, default=str).encode(), smile=False))
    before = [e for e in replay_keys(SAMPLE)[0] if e[0] == game]
    after = [e for e in replay_keys(changed)[0] if e[0] == game]
    assert after == before[-len(after):] and after[0][6:8] == (event.state_before.cube_value,
                                                                owner)
    assert replay_keys(changed)[1] == replay_keys(SAMPLE)[1]
    result = analyse_file(str(changed), changed)
    problems = [(p.rule, p.severity, p.game) for r in result.replays for p in r.problems]
    assert problems == [("set-position", "warning", game)]
    assert "owner" not in result.replays[0].problems[0].message
    assert index > 0


MATCH = FILES / "xg" / "UL-CV6F9jMM-E1Pu.bgf"


@pytest.mark.parametrize("member", ["lostOnTime", "wasForfeit"])
def test_a_game_lost_on_time_or_forfeited_credits_the_files_points(tmp_path: Path,
                                                                   member: str) -> None:
    """Every BGBlitz game says whether it was lost on time or forfeited (false in every
    published file): the winner gets the file's points, whatever the cube, with a
    ``forfeit`` warning. Built from a real 5-point match: game 1 cut before its first double
    and lost on time by red, who so loses the match: green is credited the 5 points, which
    no resignation with the cube at 1 is worth (it was a false ``resign-value`` error)."""
    _, document = read_bgf_document(MATCH.read_bytes())
    assert isinstance(document, dict) and document["matchlen"] == 5
    game = document["games"][0]
    assert game[member] is False and game["wasResignation"] is False
    first_double = next(i for i, m in enumerate(game["moves"])
                        if m["green"] == 7 and m["red"] == 1)
    assert first_double > 10
    game["moves"] = game["moves"][:first_double]
    game[member], game["wonPoints"] = True, 5
    document["games"], document["finalGreen"], document["finalRed"] = [game], 5, 0
    changed = tmp_path / "timeout.bgf"
    changed.write_bytes(build_bgf(json.dumps(document, default=str).encode(), smile=False))
    result = analyse_file(str(changed), changed)
    (replay,) = result.replays
    assert [(p.rule, p.severity, p.game) for p in replay.problems] == [
        ("forfeit", "warning", 1)]
    assert (replay.final_score, replay.winner, replay.complete) == ((5, 0), 0, True)
    assert [(g.winner, g.points, g.ended_by, g.cube) for g in replay.games] == [
        (0, 5, "resign", 1)]
    # A JSON copy keeps the forfeit; a .mat or SGF copy cannot say it: refused.
    for fmt in ("mat", "sgf"):
        refused = CliRunner().invoke(app, ["convert", str(changed), "-o",
                                           str(tmp_path / f"copy.{fmt}")])
        assert refused.exit_code == 1, refused.output
        assert "forfeit" in refused.output and not (tmp_path / f"copy.{fmt}").exists()
    copy = tmp_path / "copy.json"
    converted = CliRunner().invoke(app, ["convert", str(changed), "-o", str(copy)])
    assert converted.exit_code == 0, converted.output
    written = json.loads(copy.read_text(encoding="utf-8"))
    assert schema_errors(written) == []
    resign = [a for a in written["games"][0]["actions"] if a["kind"] == "resign"]
    assert [a["extra"] for a in resign] == [{"forfeit": True}]
    (again,) = analyse_file(str(copy), copy).replays
    assert [(p.rule, p.game) for p in again.problems] == [("forfeit", 1)]
    assert again.final_score == (5, 0)
