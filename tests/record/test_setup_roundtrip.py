"""Set-ups (boards, turns, cubes set by hand) survive the JSON match format loss-free,
whatever reader made them: an SGF set-up node, an ``.xg`` game started from a set
position or edited at a play, XG's automatic doubles, a BGBlitz set-up, an ``.xgp``.

``GameRecord.setups`` keeps each set-up's place (``before``, the number of the action it
precedes); the JSON keeps it as the game's ``extra.setup_before``. A JSON file written
before that member places a set-up by its SGF node, as it always did.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.readers.detect import load_file
from bgtools.readers.json import parse_json
from bgtools.readers.xg import read_game_file
from bgtools.record import Action, GameRecord, MatchRecord
from bgtools.record.sgf import setup_from_sgf
from bgtools.write.json import dumps_file, dumps_match, record_to_json
from tests.helpers.fuzzing import build_xg
from tests.helpers.paths import CORPUS, REPO, SAMPLE_XG
from tests.helpers.paths import FILES as TEST_FILES
from tests.helpers.schema import schema_errors
from tests.helpers.xg_bodies import with_auto_doubles, xg_records

ROOTS = [CORPUS, TEST_FILES, REPO / "samples"]
SKIPPED = {"SOURCES.md", "README.md", "LICENSE"}
runner = CliRunner()


def match_files() -> list[Path]:
    """Every file under the roots (a file bgtools does not read is skipped by the test)."""
    found: list[Path] = []
    for root in ROOTS:
        if root.is_dir():
            found += [p for p in sorted(root.rglob("*"))
                      if p.is_file() and p.name not in SKIPPED and p.suffix != ".py"
                      and "__pycache__" not in p.parts]
    return found


FILES = match_files()


def file_id(path: Path) -> str:
    for root in ROOTS:
        if path.is_relative_to(root):
            return f"{root.name}/{path.relative_to(root)}"
    return str(path)


def readable(path: Path) -> list[MatchRecord]:
    """The records of ``path``; the test skips a file bgtools does not read."""
    try:
        return load_file(path).records
    except Exception as exc:  # noqa: BLE001 - unreadable files are other tests' business
        pytest.skip(f"not a match file bgtools reads: {exc}")


def round_trip(records: list[MatchRecord]) -> list[MatchRecord]:
    return parse_json(dumps_file(records))


def replay_lines(path: Path) -> tuple[int, list[dict[str, object]]]:
    """``replay --jsonl`` of ``path``: the exit code and each event without ``file``."""
    result = runner.invoke(app, ["replay", "--jsonl", str(path)])
    events = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    for event in events:
        event.pop("file", None)
    return result.exit_code, events


def assert_same_replay(original: Path, tmp_path: Path) -> None:
    """``original`` written as JSON replays to the same events (and exit code). The JSON
    is the codec's own text (``convert`` refuses a file with errors, which must round-trip
    too); ``convert`` of a file without errors writes the same match objects."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    converted = tmp_path / (original.name + ".json")
    converted.write_text(dumps_file(load_file(original).records), encoding="utf-8")
    assert replay_lines(converted) == replay_lines(original)


# --- every real file -------------------------------------------------------------------------


# Every file's whole record (set-ups included) round-trips in test_jsonfmt's
# test_file_round_trips_through_json, and its JSON copy replays alike in
# test_json_copy_replays_and_writes_like_the_original; here, the formats that can set up a
# board replay event for event alike.
SETUP_FILES = [p for p in FILES if p.suffix in (".sgf", ".xg", ".xgp", ".bgf")]


@pytest.mark.parametrize("path", SETUP_FILES, ids=file_id)
def test_files_that_may_set_up_replay_alike_from_json(path: Path, tmp_path: Path) -> None:
    readable(path)
    assert_same_replay(path, tmp_path)



# --- set-ups of the binary readers, made from a real .xg ------------------------------------


def edited_xg(tmp_path: Path, auto_doubles: int = 0, flagged: str = "move") -> Path:
    """The sample .xg with game 1 started from the position before its 6th play (a set
    position) and game 2 edited at its 5th play (its 3rd and 4th dropped), optionally
    with automatic doubles before game 2 (a cube set-up of the same node 0). The edit is
    flagged on the play's move record (``EditedMove``) or on the cube record before it
    (``EditedCube``, which holds the same position)."""
    body = read_game_file(SAMPLE_XG.read_bytes())
    if auto_doubles:
        body = with_auto_doubles(body, 2, auto_doubles)
    records = xg_records(body)
    headers = [i for i, r in enumerate(records) if r[8] == 1]
    moves = [i for i in range(headers[0], headers[1]) if records[i][8] == 3]
    records[headers[0]][21:47] = records[moves[5]][9:35]
    later = [i for i in range(headers[1], headers[2]) if records[i][8] == 3]
    dropped = range(later[2], later[4])
    if flagged == "move":
        records[later[4]][2528] = 1
    else:  # keep the cube record before the 5th play, drop the one before the 3rd
        cube = records[later[4] - 1]
        assert cube[8] == records[later[2] - 1][8] == 2
        assert cube[36:62] == records[later[4]][9:35]
        cube[296] = 1
        dropped = range(later[2] - 1, later[4] - 1)
    drop = set(range(moves[0], moves[5])) | set(dropped)
    path = tmp_path / "edited.xg"
    path.write_bytes(build_xg(b"".join(bytes(r) for i, r in enumerate(records)
                                       if i not in drop)))
    return path


@pytest.mark.parametrize("auto_doubles", [0, 2])
def test_an_edited_xg_round_trips_through_json(tmp_path: Path, auto_doubles: int) -> None:
    path = edited_xg(tmp_path, auto_doubles)
    records = load_file(path).records
    setups = [g.setups for g in records[0].games]
    mid_game = [s for game in setups for s in game if s.before > 0]
    assert mid_game and all(s.node == 0 for game in setups for s in game)
    if auto_doubles:
        assert len(setups[1]) == 2 and setups[1][0].cube == 1 << auto_doubles
    back = round_trip(records)
    assert [g.setups for g in back[0].games] == setups
    assert back == records
    assert schema_errors(record_to_json(records[0])) == []
    code, events = replay_lines(path)
    assert events and code == 0
    assert_same_replay(path, tmp_path)
    assert_same_replay(tmp_path / "edited.xg.json", tmp_path / "again")  # JSON -> JSON


def test_an_edit_flagged_on_the_cube_record_is_the_same_edit(tmp_path: Path) -> None:
    """XG flags an edit made at a cube decision on the cube record (``EditedCube``, v24+):
    the replay is that of the same edit flagged on the move record. It was ignored: the
    plays after it were false errors."""
    (tmp_path / "cube").mkdir()
    on_cube = edited_xg(tmp_path / "cube", flagged="cube")
    on_move = edited_xg(tmp_path)
    code, events = replay_lines(on_cube)
    assert code == 0 and events
    assert (code, events) == replay_lines(on_move)
    result = runner.invoke(app, ["validate", "--json", str(on_cube)])
    warnings = [(p["rule"], p["game"]) for p in json.loads(result.stdout)["problems"]]
    assert warnings == [("set-position", 1), ("set-position", 2)]


def test_the_place_is_what_the_old_node_rule_lost(tmp_path: Path) -> None:
    """The JSON without ``setup_before`` (as written before it) places XG's node-0 edit
    before the game's first action: the replay differs, which the member prevents."""
    path = edited_xg(tmp_path)
    obj = json.loads(dumps_match(load_file(path).records[0]))
    for game in obj["games"]:
        game["extra"].pop("setup_before", None)
    old = tmp_path / "old.json"
    old.write_text(json.dumps(obj))
    assert [s.before for g in parse_json(old.read_text())[0].games for s in g.setups] == \
        [0, 0]
    assert replay_lines(old) != replay_lines(path)


@pytest.mark.parametrize("name", ["bar_cube4_m5", "midgame_money", "race_m3"])
def test_sgf_json_without_the_member_reads_as_before(name: str) -> None:
    """A JSON file of an SGF written before ``setup_before`` existed reads the same
    set-ups: the member only states what the node numbers gave."""
    records = load_file(TEST_FILES / "setup" / f"{name}.sgf").records
    obj = json.loads(dumps_match(records[0]))
    assert any("setup_before" in g["extra"] for g in obj["games"])
    for game in obj["games"]:
        game["extra"].pop("setup_before", None)
    assert parse_json(json.dumps(obj)) == records


def test_a_position_file_round_trips(tmp_path: Path) -> None:
    """An .xgp (one game: a set-up and no action) keeps its set-up and its status."""
    body = read_game_file(SAMPLE_XG.read_bytes())
    records = xg_records(body)
    move = next(r for r in records if r[8] == 3)
    path = tmp_path / "p.xgp"
    path.write_bytes(build_xg(bytes(records[0]) + bytes(records[1]) + bytes(move)))
    loaded = load_file(path).records
    assert loaded[0].games[0].setups
    assert round_trip(loaded) == loaded


# --- any set-up, generated ----------------------------------------------------------------


PROPERTIES = st.lists(st.sampled_from([
    ("AE", ("a:y",)), ("AW", ("a", "a", "m")), ("AB", ("s", "y")), ("PL", ("W",)),
    ("PL", ("B",)), ("CV", ("4",)), ("CP", ("c",)), ("CP", ("w",)), ("CV", ("3",)),
    ("AW", ("zz",)),
]), min_size=1, max_size=4).map(tuple)


@st.composite
def games_with_setups(draw: st.DrawFn) -> GameRecord:
    count = draw(st.integers(0, 5))
    game = GameRecord(number=1, actions=[Action("roll", i % 2, dice=(3, 1), play_text="8/5 6/5")
                                         for i in range(count)])
    for index, action in enumerate(game.actions):
        if draw(st.booleans()):
            action.extra["sgf_node"] = index
    setups = []
    for _ in range(draw(st.integers(0, 4))):
        located = draw(st.booleans())
        setups.append(setup_from_sgf(
            draw(PROPERTIES), before=draw(st.integers(0, count)),
            node=draw(st.integers(0, 3)), line=draw(st.integers(1, 99)) if located else None,
            column=draw(st.integers(1, 99)) if located else None))
    game.setups = tuple(sorted(setups, key=lambda s: s.before))
    return game


@settings(max_examples=150, deadline=None)
@given(st.lists(games_with_setups(), min_size=1, max_size=3))
def test_generated_setups_round_trip(games: list[GameRecord]) -> None:
    """Any set-ups, at any place, of any node (several of one node, located or not)."""
    record = MatchRecord(format="xg", match_length=0, games=games)
    back = round_trip([record])
    assert [g.setups for g in back[0].games] == [g.setups for g in games]
    assert back == [record]
    assert schema_errors(record_to_json(record)) == []


# --- the .mat writer's refusal --------------------------------------------------------------


def test_the_mat_refusal_says_what_an_xg_setup_is(tmp_path: Path) -> None:
    path = edited_xg(tmp_path)
    result = runner.invoke(app, ["convert", str(path), "-o", str(tmp_path / "x.mat")])
    assert result.exit_code == 1
    assert "SGF set-up" not in result.stderr
    assert result.stderr.startswith("bgtools: error: ")
    assert ("game 1: a set-up (the board set by hand at the start of the game: a set "
            "position) has no .mat form; convert to SGF or JSON instead") in result.stderr
    assert not (tmp_path / "x.mat").exists()


def test_the_mat_refusal_words_an_edit_and_a_cube(tmp_path: Path) -> None:
    from bgtools.write.mat import UnwritableRecordError, write_mat

    records = load_file(edited_xg(tmp_path, auto_doubles=2)).records
    game = records[0].games[1]
    only_game_two = MatchRecord(format="xg", match_length=0, games=[game])
    with pytest.raises(UnwritableRecordError) as caught:
        write_mat(only_game_two)
    assert str(caught.value) == (
        "game 1: a set-up (the cube at 4 set by hand at the start of the game) "
        "(and 1 more set-up) has no .mat form; convert to SGF or JSON instead")
    edit = game.setups[1]
    game.setups = (edit,)
    with pytest.raises(UnwritableRecordError) as caught:
        write_mat(only_game_two)
    assert f"set by hand before action {edit.before + 1}: an edited position)" in \
        str(caught.value)


def test_the_mat_refusal_of_an_sgf_setup_node(tmp_path: Path) -> None:
    source = TEST_FILES / "setup" / "bar_cube4_m5.sgf"
    result = runner.invoke(app, ["convert", str(source), "-o", str(tmp_path / "x.mat")])
    assert result.exit_code == 1
    assert "a set-up (the board and the player to move set by hand before action 2: an " \
        "edited position) (and 2 more set-ups) has no .mat form" in result.stderr
