"""Position ID, Match ID and XGID: worked examples, round trips, and equality with gnubg."""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgtools import Position, PositionError, parse_id
from bgtools.engine.ids import (
    GameState,
    IdError,
    MatchState,
    decode_match_id,
    decode_position_id,
    decode_xgid,
    encode_match_id,
    encode_position_id,
    encode_xgid,
)
from tests.helpers.strategies import positions, random_position

WORKED_POSITION_IDS = {
    "4HPwATDgc/ABMA": "start",
    "4OvEATDgc/ABMA": "after 63 13/7 13/10",
    "B4D/BwDg/wMAYA": "two on the bar",
}


@pytest.mark.parametrize("pid", sorted(WORKED_POSITION_IDS))
def test_position_id_worked_examples_round_trip(pid: str) -> None:
    not_on_roll, on_roll = decode_position_id(pid)
    assert encode_position_id(not_on_roll, on_roll) == pid


def test_position_id_example_3_contents() -> None:
    not_on_roll, on_roll = decode_position_id("B4D/BwDg/wMAYA")
    assert not_on_roll[0] == 3 and not_on_roll[12] == 12
    assert on_roll[5] == 13 and on_roll[24] == 2


@pytest.mark.parametrize(
    "mid, fields",
    [
        ("cAlvAAAAAAAE", dict(match_length=3, cube_owner=None, on_roll=1, turn=1, dice=(6, 3))),
        ("QYkqASAAIAAA", dict(match_length=9, score=(2, 4), cube_value=2, cube_owner=0, on_roll=1,
                              dice=(5, 2), jacoby=True)),
        ("MBlgAAAAAAAE", dict(match_length=3, on_roll=0, turn=1, doubled=True)),
        ("sAFmABAAEAAE", dict(match_length=3, score=(1, 2), crawford=True, dice=(4, 1))),
        ("MAxgABAAAAAE", dict(match_length=3, score=(1, 0), game_state=GameState.DROPPED, turn=1)),
        ("cQkAAAAAAAAA", dict(match_length=0, cube_value=2, on_roll=1, turn=1, jacoby=True)),
    ],
)
def test_match_id_worked_examples(mid: str, fields: dict[str, object]) -> None:
    state = decode_match_id(mid)
    for name, value in fields.items():
        assert getattr(state, name) == value, name
    assert encode_match_id(state) == mid


@pytest.mark.parametrize(
    "xgid, gnubg_id",
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10", "4HPwATDgc/ABMA:cInqAAAAAAAE"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:63:0:0:0:3:10", "4HPwATDgc/ABMA:cAlvAAAAAAAE"),
        ("XGID=-b----EAC-A-eC---c-e----B-:0:0:-1:65:0:0:0:3:10", "4OvEATDgc/ABMA:MAF3AAAAAAAE"),
        ("XGID=-b----E-C---eE---c-e---AA-:0:0:1:52:3:1:0:7:10", "4HPwATDgc/ABKA:cInqABAAGAAE"),
        ("XGID=aa-BBbBB-----D------AbbcdB:1:1:-1:31:2:4:0:9:10", "bDbwgGDvNgDAUA:EYElAUAAEAAE"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:44:6:4:1:7:10", "4HPwATDgc/ABMA:8AnyAEAAMAAE"),
    ],
)
def test_xgid_worked_examples(xgid: str, gnubg_id: str) -> None:
    parsed = parse_id(xgid)
    assert parsed.state is not None
    assert f"{parsed.position.position_id}:{encode_match_id(parsed.state)}" == gnubg_id
    sides, state = decode_xgid(xgid)
    assert encode_xgid(sides, state) == xgid


def test_gnubg_id_gives_position_of_player_on_roll() -> None:
    parsed = parse_id("4HPwATDgc/ABMA:cAlvAAAAAAAE")
    assert parsed.position == Position.initial()
    assert parsed.state is not None and parsed.state.dice == (6, 3)


@pytest.mark.parametrize("bad", ["", "hello", "4HPwATDgc/ABM", "////////////// ", "XGID=---:1",
                                 "4HPwATDgc/ABMA:!!!!!!!!!!!!", "AAAAAAAAAAAAAA:cAlvAAAAAAA/"])
def test_bad_ids_raise_position_error(bad: str) -> None:
    with pytest.raises(PositionError):
        parse_id(bad)


_START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:63:0:0:0:3:10"


@pytest.mark.parametrize("xgid, why", [
    (_START_XGID.rsplit(":", 1)[0], "has 9 fields; expected 10"),  # no maximum cube
    (_START_XGID + ":0", "has 11 fields; expected 10"),
    (_START_XGID.split(":", 1)[0], "has 1 fields; expected 10"),
    (_START_XGID[:-2] + "x", "non-numeric"),
    (_START_XGID[:-2] + "-1", "negative maximum cube"),
])
def test_an_xgid_has_exactly_ten_fields(xgid: str, why: str) -> None:
    """XG and gnubg write ten fields (FORMATS.md 5.1); gnubg's reader takes the last nine
    after the position, so a 9-field XGID would be read shifted: it is refused, clearly."""
    with pytest.raises(IdError, match=why):
        decode_xgid(xgid)
    with pytest.raises(PositionError):
        parse_id(xgid)


@pytest.mark.parametrize("max_cube", ["0", "6", "10", "12"])
def test_the_maximum_cube_is_read_and_not_used(max_cube: str) -> None:
    assert decode_xgid(_START_XGID[:-2] + max_cube) == decode_xgid(_START_XGID)


def test_position_id_with_too_many_checkers_rejected() -> None:
    with pytest.raises(IdError):
        decode_position_id("//////////////")


match_states = st.builds(
    MatchState,
    match_length=st.integers(1, 25),
    score=st.tuples(st.integers(0, 24), st.integers(0, 24)),
    cube_value=st.sampled_from([1, 2, 4, 8, 16, 32, 64]),
    cube_owner=st.sampled_from([None, 0, 1]),
    on_roll=st.integers(0, 1),
    crawford=st.booleans(),
    game_state=st.sampled_from(list(GameState)),
    turn=st.integers(0, 1),
    doubled=st.booleans(),
    resignation=st.integers(0, 3),
    dice=st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    jacoby=st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(match_states)
def test_match_id_round_trip(state: MatchState) -> None:
    if state.score[0] > state.match_length or state.score[1] > state.match_length:
        state = state.with_(score=(0, 0))
    if state.dice:
        state = state.with_(dice=(max(state.dice), min(state.dice)))
    assert decode_match_id(encode_match_id(state)) == state


@settings(max_examples=300, deadline=None)
@given(positions, match_states)
def test_xgid_round_trip(pos: Position, state: MatchState) -> None:
    if state.dice:
        state = state.with_(dice=(max(state.dice), min(state.dice)))
    state = state.with_(game_state=GameState.PLAYING, resignation=0, jacoby=False,
                        score=(min(state.score[0], 63), min(state.score[1], 63)))
    if state.doubled:
        state = state.with_(dice=None, turn=1 - state.on_roll)
    else:
        state = state.with_(turn=state.on_roll)
    sides = ((pos.mover[1:], pos.opponent[1:]) if state.on_roll == 0
             else (pos.opponent[1:], pos.mover[1:]))
    xgid = encode_xgid(sides, state)
    back_sides, back_state = decode_xgid(xgid)
    assert back_sides == sides
    assert back_state == state
    assert parse_id(xgid).position == pos


@pytest.mark.slow
def test_ids_equal_gnubg_on_random_positions(gnubg: ModuleType) -> None:
    rng = random.Random(20261129)
    for _ in range(3000):
        pos = random_position(rng)
        board = [list(side) for side in pos.to_gnubg()]
        assert pos.position_id == gnubg.position_id(board)
        assert Position.from_gnubg(gnubg.position_from_id(pos.position_id)) == pos


@pytest.mark.slow
def test_match_ids_equal_gnubg_on_random_states(gnubg: ModuleType) -> None:
    rng = random.Random(7)
    for _ in range(3000):
        length = rng.randint(1, 25)
        score = (rng.randint(0, length - 1), rng.randint(0, length - 1))
        cube = rng.choice([1, 2, 4, 8, 16, 32, 64])
        owner = rng.choice([None, 0, 1])
        on_roll = rng.randint(0, 1)
        crawford = rng.random() < 0.2
        dice = (rng.randint(1, 6), rng.randint(1, 6)) if rng.random() < 0.7 else None
        ci = gnubg.cube_info(cube, -1 if owner is None else owner, on_roll, length, score,
                             int(crawford), 0)
        pi = gnubg.pos_info(on_roll, 0, 0, 1, dice or (0, 0))
        ours = MatchState(match_length=length, score=score, cube_value=cube, cube_owner=owner,
                          on_roll=on_roll, turn=on_roll, crawford=crawford, dice=dice)
        assert encode_match_id(ours) == gnubg.match_id(ci, pi)
