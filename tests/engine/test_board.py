"""The board kernel (``engine/board.py``): each rule against the rulebook, stated here
independently of the code, and the one definition of a point's name and of the starting
positions against every place that uses them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgtools.engine import board
from bgtools.engine.position import Position, format_play
from bgtools.readers import bgf, xg
from bgtools.readers.spans import BoardTracker, moves_text
from tests.helpers.strategies import dice, positions

sides_lists = st.lists(st.integers(0, 4), min_size=26, max_size=26)


@st.composite
def mover_sides(draw: st.DrawFn) -> list[int]:
    """A mover's side, often with every checker home (so that bearing off is tried)."""
    side = draw(sides_lists)
    if draw(st.booleans()):
        side[7:26] = [0] * 19
    return side


def _rulebook_steps(me: list[int], opp: list[int], die: int) -> list[board.Step]:
    """The single steps of ``die`` as the rulebook states them: a checker on the bar enters
    first (on the opponent's home board, where he has fewer than two checkers); else any
    checker moves ``die`` points to a point the opponent does not hold, and when every
    checker is home, one bears off from the point of the die, or with a larger die from the
    highest point held."""
    if me[25]:
        return [] if opp[die] >= 2 else [(25, 25 - die)]
    home = sum(me[7:26]) == 0
    highest = max((p for p in range(1, 7) if me[p]), default=0)
    steps: list[board.Step] = []
    for src in range(24, 0, -1):
        if me[src] == 0:
            continue
        if src - die >= 1:
            if opp[25 - (src - die)] < 2:
                steps.append((src, src - die))
        elif home and src in (die, highest):
            steps.append((src, 0))
    return steps


@settings(max_examples=500, deadline=None)
@given(mover_sides(), sides_lists, st.integers(1, 6))
def test_legal_single_steps_are_the_rulebooks(me: list[int], opp: list[int], die: int) -> None:
    legal = [(src, max(src - die, 0)) for src in range(25, 0, -1)
             if me[src] and board.step_is_legal(me, opp, src, die)]
    assert legal == _rulebook_steps(me, opp, die)


@settings(max_examples=500, deadline=None)
@given(mover_sides(), sides_lists, st.integers(-2, 27), st.integers(-1, 25), st.integers(1, 6))
def test_step_error_names_the_rule_broken(me: list[int], opp: list[int], src: int, dst: int,
                                          die: int) -> None:
    rule = board.step_error(me, opp, src, dst, die)
    on_board = 1 <= src <= 25
    if not on_board or me[src] == 0:
        assert rule == "no-checker"
    elif me[25] and src != 25:
        assert rule == "must-enter-bar"
    elif dst > 0:
        expected = ("dice-mismatch" if src - dst != die
                    else "blocked-point" if opp[25 - dst] >= 2 else None)
        assert rule == expected
    elif src == 25 or any(me[7:26]):
        assert rule == "bearoff-not-home"
    elif src > die:
        assert rule == "dice-mismatch"
    elif src < die and any(me[src + 1:7]):
        assert rule == "bearoff-higher-die"
    else:
        assert rule is None
    # A bear-off may be given as 0 or as src - die (the hot paths' form): the same verdict.
    if dst <= 0 and on_board:
        assert rule == board.step_error(me, opp, src, src - die if src < die else 0, die)
    if on_board:
        assert board.step_is_legal(me, opp, src, die) == (
            board.step_error(me, opp, src, max(src - die, 0), die) is None)


@settings(max_examples=300, deadline=None)
@given(mover_sides(), sides_lists, st.integers(-2, 27), st.integers(-1, 25), st.integers(1, 6))
def test_mover_step_error_is_step_error_but_the_block(me: list[int], opp: list[int], src: int,
                                                      dst: int, die: int) -> None:
    rule = board.step_error(me, opp, src, dst, die)
    assert board.mover_step_error(me, src, dst, die) == (
        None if rule == "blocked-point" else rule)


@settings(max_examples=300, deadline=None)
@given(sides_lists, sides_lists, st.integers(1, 25), st.integers(0, 24))
def test_apply_step_hits_a_blot_and_undo_step_restores(me: list[int], opp: list[int], src: int,
                                                       dst: int) -> None:
    if dst >= src:
        return  # a step moves forward
    before = (list(me), list(opp))
    hit = board.apply_step(me, opp, src, dst)
    assert hit == (dst > 0 and before[1][25 - dst] == 1)
    assert me[src] == before[0][src] - 1
    assert me[dst] == before[0][dst] + 1
    if hit:
        assert opp[25 - dst] == 0 and opp[25] == before[1][25] + 1
    else:
        assert opp == before[1]
    board.undo_step(me, opp, src, dst, hit)
    assert (me, opp) == before


@settings(max_examples=300, deadline=None)
@given(sides_lists, sides_lists, st.integers(-2, 27), st.integers(-2, 27))
def test_can_carry_a_checker_to_an_open_point(me: list[int], opp: list[int], src: int,
                                              dst: int) -> None:
    expected = (1 <= src <= 25 and 0 <= dst <= 24 and me[src] > 0
                and (dst == 0 or opp[25 - dst] <= 1))
    assert board.can_carry(me, opp, src, dst) == expected


@settings(max_examples=300, deadline=None)
@given(positions, dice)
def test_can_move_is_a_legal_play_with_steps(pos: Position, roll: tuple[int, int]) -> None:
    assert board.can_move(pos.mover, pos.opponent, *roll) == bool(
        pos.legal_plays(*roll)[0].steps)


@settings(max_examples=200, deadline=None)
@given(positions, dice)
def test_generated_plays_are_positions_legal_plays(pos: Position,
                                                   roll: tuple[int, int]) -> None:
    generated = board.generate_plays(pos.mover, pos.opponent, *roll)
    assert [(play.steps, play.hits) for play in pos.legal_plays(*roll)] == [
        (steps, hits) for steps, hits, _, _ in generated]
    for steps, _, mover, opponent in generated:
        assert pos.apply_steps(steps)[0] == Position(mover, opponent)


def test_the_starting_positions() -> None:
    start = dict(enumerate(board.START_SIDE))
    assert {point: count for point, count in start.items() if count} == {
        24: 2, 13: 5, 8: 3, 6: 5}
    nack = dict(enumerate(board.NACKGAMMON_SIDE))
    assert {point: count for point, count in nack.items() if count} == {
        24: 2, 23: 2, 13: 4, 8: 3, 6: 4}
    for side in (board.START_SIDE, board.NACKGAMMON_SIDE):
        assert len(side) == 26 and sum(side) == board.CHECKERS
    assert Position.initial() == Position(board.START_SIDE, board.START_SIDE)
    assert Position.nackgammon_initial() == Position(board.NACKGAMMON_SIDE,
                                                     board.NACKGAMMON_SIDE)
    assert Position.initial().pips == (167, 167)
    # Each reader's starting board is the kernel's, in its own layout.
    assert BoardTracker().sides == (list(board.START_SIDE), list(board.START_SIDE))
    engine = xg._START  # noqa: SLF001 - the reader's layout of the start, under test
    assert engine == (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0,
                      0, 2, 0)
    points = bgf._START  # noqa: SLF001 - the reader's layout of the start, under test
    assert points == [2, 0, 0, 0, 0, -5, 0, -3, 0, 0, 0, 5, -5, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0,
                      -2, 0, 0]


@pytest.mark.parametrize("point, name", [(25, "bar"), (0, "off"), (-1, "off"), (1, "1"),
                                        (24, "24")])
def test_point_name(point: int, name: str) -> None:
    assert board.point_name(point) == name


def test_every_writer_of_points_names_them_alike() -> None:
    assert format_play(((25, 20), (6, 0)), (False, False)) == "bar/20 6/off"
    assert moves_text([(25, 20), (6, 0)]) == "bar/20 6/off"
