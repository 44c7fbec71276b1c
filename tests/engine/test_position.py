"""Hand-written cases for each rule of FORMATS.md section 6, named after the rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from bgtools import Play, Position, PositionError
from bgtools.engine import board
from tests.helpers.paths import REPO
from tests.helpers.strategies import dice, positions


def results(pos: Position, d1: int, d2: int) -> set[str]:
    return {str(p) for p in pos.legal_plays(d1, d2)}


def test_initial_position_id_and_pips() -> None:
    start = Position.initial()
    assert start.position_id == "4HPwATDgc/ABMA"
    assert start.pips == (167, 167)


def test_opening_counts_match_known_perft_values() -> None:
    # Distinct resulting positions from the start, a well-known table.
    start = Position.initial()
    counts = {roll: len(start.legal_plays(*roll)) for roll in [(3, 1), (6, 5), (1, 1), (6, 6)]}
    assert counts == {(3, 1): 16, (6, 5): 7, (1, 1): 42, (6, 6): 11}


def test_bar_first_all_bar_checkers_enter_before_anything_else() -> None:
    pos = Position.from_points({25: 2, 13: 13}, {24: 15})
    plays = pos.legal_plays(6, 5)
    assert [str(p) for p in plays] == ["bar/20 bar/19"]


def test_bar_first_one_entered_then_blocked_means_no_other_move() -> None:
    # Opponent holds my 20 (his 5), so the 5 cannot enter; with 2 on the bar only the 6 enters.
    pos = Position.from_points({25: 2, 13: 13}, {5: 2, 24: 13})
    assert results(pos, 6, 5) == {"bar/19"}


def test_blocked_point_applies_to_intermediate_landing() -> None:
    # 24/13 with 65 must land on 18 or 19 first; both blocked: no 24/13.
    pos = Position.from_points({24: 1, 6: 14}, {7: 2, 6: 2, 2: 11})
    assert all("24/13" not in text for text in results(pos, 6, 5))


def test_hit_on_intermediate_point_is_recorded() -> None:
    pos = Position.from_id("4OvEATDgc/ABMA")
    plays = {str(p): p for p in pos.legal_plays(6, 5)}
    assert "24/18*/13" in plays
    after = pos.play(plays["24/18*/13"])
    assert after.mover[25] == 1  # the opponent (now to act) is on the bar


def test_bearoff_only_with_all_checkers_home() -> None:
    pos = Position.from_points({8: 1, 6: 14}, {24: 15})
    assert all("off" not in text for text in results(pos, 6, 1))
    assert all("off" not in t for t in results(Position.from_points({9: 1, 6: 14}, {24: 15}), 2, 1))
    pos_home = Position.from_points({6: 15}, {24: 15})
    assert results(pos_home, 6, 6) == {"6/off(4)"}


def test_bearoff_higher_die_only_from_highest_point() -> None:
    pos = Position.from_points({4: 1, 2: 1}, {24: 15})
    # A 6 bears off the 4 (highest), never the 2 while the 4 is there.
    assert results(pos, 6, 5) == {"4/off 2/off"}
    only_low = Position.from_points({4: 2, 2: 1}, {24: 15})
    assert all(str(p).startswith("4/off") for p in only_low.legal_plays(5, 5))


def test_bearoff_checkers_brought_home_in_same_play_count() -> None:
    pos = Position.from_points({8: 1, 6: 14}, {24: 15})
    assert any("8/2" in t and "6/off" in t for t in results(pos, 6, 6))


def test_max_dice_both_dice_must_be_played_when_possible() -> None:
    # A 6 alone is possible from 13, but 13/8/2 or 13/7/2 ... only plays using both dice count.
    pos = Position.initial()
    assert all(len(p.steps) == 2 for p in pos.legal_plays(6, 5))


def test_max_dice_play_that_enables_second_die() -> None:
    # 13/7 is blocked, so the 5 must be played first to allow the 6: only 13/8/2.
    pos = Position.from_points({13: 1, 1: 14}, {18: 2, 1: 13})
    assert results(pos, 6, 5) == {"13/2"}


def test_higher_die_when_only_one_die_can_be_played() -> None:
    # One checker on 24; opponent blocks 12 (so 24/18/13 and 24/19/13 ... land on 13 blocked).
    pos = Position.from_points({24: 1}, {12: 2, 13: 13})
    plays = pos.legal_plays(6, 5)
    assert [str(p) for p in plays] == ["24/18"]


def test_doubles_up_to_four_times() -> None:
    pos = Position.initial()
    assert max(len(p.steps) for p in pos.legal_plays(3, 3)) == 4


def test_no_legal_play_returns_one_empty_play() -> None:
    closed = dict.fromkeys(range(1, 7), 2)
    closed[13] = 3
    pos = Position.from_points({25: 1, 6: 14}, closed)
    assert pos.legal_plays(4, 2) == [Play()]


def test_checkers_too_many_rejected() -> None:
    with pytest.raises(PositionError, match="at most 15"):
        Position.from_points({6: 16}, {24: 2})


def test_checkers_shared_point_rejected() -> None:
    with pytest.raises(PositionError, match="both players"):
        Position.from_points({6: 2}, {19: 1})


def test_game_result_single_gammon_backgammon() -> None:
    won_single = Position((15, *([0] * 25)), (3, 2, *([0] * 24)))  # loser has 3 off
    assert won_single.game_value() == 1
    gammon = Position.from_points({}, {6: 15})
    assert gammon.game_value() == 2
    backgammon = Position.from_points({}, {6: 14, 20: 1})
    assert backgammon.game_value() == 3
    on_bar = Position.from_points({}, {6: 14, 25: 1})
    assert on_bar.game_value() == 3
    assert Position.initial().game_value() == 0


@settings(max_examples=300, deadline=None)
@given(positions, dice)
def test_every_legal_play_replays_to_its_result(pos: Position, roll: tuple[int, int]) -> None:
    results_map = pos.legal_results(*roll)
    for result, play in results_map.items():
        assert pos.play(play) == result.swapped()
        # Each step is legal at the moment it is played (checked by the single-step rules).
        current = pos
        for (src, dst), hit in zip(play.steps, play.hits):
            die = roll[0] if roll[0] == roll[1] else None
            if die is None:
                die = src - dst if dst > 0 else None
            if die is not None:
                assert current.step_error(src, dst, die) is None
            current, hits = current.apply_steps([(src, dst)])
            assert hits == (hit,)


@settings(max_examples=300, deadline=None)
@given(positions, dice)
def test_plays_use_maximum_dice_and_are_distinct(pos: Position, roll: tuple[int, int]) -> None:
    plays = pos.legal_plays(*roll)
    lengths = {len(p.steps) for p in plays}
    assert len(lengths) == 1
    finals = [pos.play(p) for p in plays]
    assert len(set(finals)) == len(finals)
    # Checker conservation.
    for after in finals:
        assert sum(after.mover) == 15 and sum(after.opponent) == 15


@settings(max_examples=200, deadline=None)
@given(positions)
def test_position_id_round_trip(pos: Position) -> None:
    assert Position.from_id(pos.position_id) == pos


@settings(max_examples=300, deadline=None)
@given(positions, dice)
def test_no_step_shortcut_changes_no_result(pos: Position, roll: tuple[int, int]) -> None:
    # generate_plays answers a roll that cannot be played without searching.
    assert board.generate_plays(pos.mover, pos.opponent, *roll) == board.search_plays(
        pos.mover, pos.opponent, *roll)


@pytest.mark.parametrize("roll", [(d1, d2) for d1 in range(1, 7) for d2 in range(1, 7)])
def test_no_step_shortcut_on_the_bar_against_a_closed_board(roll: tuple[int, int]) -> None:
    closed = Position.from_points({25: 1, 13: 14}, dict.fromkeys(range(1, 7), 2) | {24: 3})
    assert board.generate_plays(closed.mover, closed.opponent, *roll) == board.search_plays(
        closed.mover, closed.opponent, *roll)
    assert closed.legal_plays(*roll) == [Play()]
    half = Position.from_points({25: 1, 13: 14}, dict.fromkeys(range(1, 6), 2) | {24: 5})
    assert board.generate_plays(half.mover, half.opponent, *roll) == board.search_plays(
        half.mover, half.opponent, *roll)


_NO_CYCLE_PROBE = """
import gc
from bgtools import Position
position = Position.initial()
gc.collect()
gc.disable()
for die1 in range(1, 7):
    for die2 in range(1, 7):
        assert position.legal_plays(die1, die2)
print(gc.collect())
"""


def test_generating_plays_leaves_no_reference_cycle() -> None:
    # Nothing a move generation allocates may need the cyclic collector to be freed: a batch
    # turns the collector off while it replays a file. In a fresh interpreter, because the
    # threads other tests leave in this process (Dask's, for one) make garbage of their own.
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _NO_CYCLE_PROBE], capture_output=True,
                          text=True, timeout=120, check=False, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["0"]
