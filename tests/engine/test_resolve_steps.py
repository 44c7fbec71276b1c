"""The compiled paths for exact steps and for maximality against the general ones.

``resolve.sides_after_steps`` (the replayer's per-roll path for ``.xg``, ``.bgf`` and SGF
steps) must answer only when the general path (``play_steps``, then the legal results of
the move generator) finds no problem, with the same sides; ``resolve.uses_most_dice`` must
say whether a legal play is among ``Position.legal_results`` (exactly, but for a bear-off
that a longer play also reaches: it then declines and the generator decides); and
``check_maximal``, which asks it first, must give the Resolution it gave by generating the
plays.
"""

from __future__ import annotations

import random
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from bgtools.engine.board import Step, apply_step, step_is_legal, uses_most_dice
from bgtools.engine.position import Play, Position, unchecked_position
from bgtools.engine.resolve import (
    IllegalStep,
    Resolution,
    check_maximal,
    legal_results,
    play_steps,
    sides_after_steps,
)
from tests.helpers.strategies import dice, positions


def _generated_check(pos: Position, d1: int, d2: int, play: Play,
                     result: Position) -> Resolution:
    """check_maximal as it was before its compiled test: by the generated legal plays."""
    if len(play.steps) == (4 if d1 == d2 else 2):
        return Resolution(play, result)
    legal = legal_results(pos, d1, d2)
    if result in legal:
        return Resolution(play, result)
    sample = next(iter(legal.values()))
    most = len(sample.steps)
    roll = f"{d1}{d2}"
    written = str(play) or "nothing"
    if most > len(play.steps):
        return Resolution(play, result, "max-dice",
                          f"{roll} played as {written}; {most} dice can be played "
                          f"(e.g. {sample})")
    return Resolution(play, result, "higher-die",
                      f"{roll} played as {written}; when only one die can be played the "
                      f"larger must be played (e.g. {sample})")


def _step_sequences(pos: Position, roll: tuple[int, int],
                    rng: random.Random) -> list[tuple[Step, ...]]:
    """Legal plays, their prefixes (plays that leave dice unused) in several orders, every
    single step of either die, and random steps (mostly illegal)."""
    found: list[tuple[Step, ...]] = [()]
    plays = pos.legal_plays(*roll)
    for play in rng.sample(plays, min(len(plays), 6)):
        steps = play.steps
        for cut in range(len(steps) + 1):
            found.append(steps[:cut])
        found.extend(list(permutations(steps))[:3])
    for die in set(roll):
        for src in range(1, 26):
            if step_is_legal(list(pos.mover), list(pos.opponent), src, die):
                found.append(((src, max(src - die, 0)),))
    for _ in range(3):
        count = rng.randint(1, 5)
        found.append(tuple((src, max(src - rng.choice(roll), rng.choice((0, -1))))
                           for src in (rng.randint(0, 25) for _ in range(count))))
    return found


def _general(pos: Position, d1: int, d2: int,
             steps: tuple[Step, ...]) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The sides after ``steps`` when Game.play_steps reports no problem, else None."""
    me, opp = list(pos.mover), list(pos.opponent)
    hits = play_steps(me, opp, steps, [d1] * 4 if d1 == d2 else [d1, d2])
    if isinstance(hits, IllegalStep):
        return None
    result = Position(tuple(me), tuple(opp))
    if _generated_check(pos, d1, d2, Play(steps, hits), result).rule is not None:
        return None
    return result.mover, result.opponent


@settings(max_examples=150, deadline=None)
@given(positions, dice, st.integers(0, 2**32 - 1))
def test_sides_after_steps_is_the_general_path(pos: Position, roll: tuple[int, int],
                                               seed: int) -> None:
    d1, d2 = roll
    for steps in _step_sequences(pos, roll, random.Random(seed)):
        expected = _general(pos, d1, d2, steps)
        quick = sides_after_steps(pos.mover, pos.opponent, d1, d2, steps)
        if quick is None and expected is not None:
            # Declined, the general path then answers: only a bear-off that a longer play
            # also reaches (3/off of a 3-1, 3/2/off also legal) is left to it.
            assert any(dst <= 0 for _, dst in steps), (pos.position_id, roll, steps)
        else:
            assert quick == expected, (pos.position_id, roll, steps)


@settings(max_examples=150, deadline=None)
@given(positions, dice, st.integers(0, 2**32 - 1))
def test_uses_most_dice_is_membership_of_the_legal_results(
        pos: Position, roll: tuple[int, int], seed: int) -> None:
    d1, d2 = roll
    legal = legal_results(pos, d1, d2)
    for steps in _step_sequences(pos, roll, random.Random(seed)):
        me, opp = list(pos.mover), list(pos.opponent)
        if isinstance(play_steps(me, opp, steps, [d1] * 4 if d1 == d2 else [d1, d2]),
                      IllegalStep):
            continue
        full = len(steps) == (4 if d1 == d2 else 2)
        expected = full or Position(tuple(me), tuple(opp)) in legal
        if uses_most_dice(pos.mover, pos.opponent, d1, d2, steps):
            assert expected, (pos.position_id, roll, steps)
        elif expected:
            # A play leaving dice unused that the legal results still hold, because a longer
            # play reaches the same board: that needs a bear-off (every other step moves a
            # checker by its die, so a longer play would leave fewer pips or more off).
            assert any(dst <= 0 for _, dst in steps), (pos.position_id, roll, steps)


@settings(max_examples=100, deadline=None)
@given(positions, dice, st.integers(0, 2**32 - 1))
def test_check_maximal_is_unchanged(pos: Position, roll: tuple[int, int], seed: int) -> None:
    # Whatever it is given (legal plays, and results that are not the steps' own), the
    # answer and the wording are those of the generated plays.
    d1, d2 = roll
    for steps in _step_sequences(pos, roll, random.Random(seed)):
        me, opp = list(pos.mover), list(pos.opponent)
        hits = tuple(apply_step(me, opp, src, dst) for src, dst in steps
                     if 1 <= src <= 25 and me[src] > 0)
        if len(hits) != len(steps) or min(me) < 0:
            continue
        play = Play(steps, hits)
        for result in (unchecked_position(tuple(me), tuple(opp)), pos):
            assert check_maximal(pos, d1, d2, play, result) == _generated_check(
                pos, d1, d2, play, result), (pos.position_id, roll, steps)


def test_uses_most_dice_on_known_positions() -> None:
    # 6-5, one checker on the bar against a board open only on the 5 point, and 20/14
    # blocked: entering with the 5 is the only play; nothing leaves a die that can be played.
    bar = Position.from_points({25: 1}, {1: 2, 2: 2, 3: 2, 4: 2, 6: 2, 11: 2})
    assert len(bar.legal_results(6, 5)) == 1
    assert uses_most_dice(bar.mover, bar.opponent, 6, 5, ((25, 20),))
    assert not uses_most_dice(bar.mover, bar.opponent, 6, 5, ())
    # Only one die can be played (13/8/2 and 13/7/2 are blocked) and it must be the larger:
    # 13/7 (the 6), not 13/8 (the 5).
    one_die = Position.from_points({13: 1}, {23: 2})
    assert uses_most_dice(one_die.mover, one_die.opponent, 5, 6, ((13, 7),))
    assert not uses_most_dice(one_die.mover, one_die.opponent, 5, 6, ((13, 8),))
    resolution = check_maximal(one_die, 5, 6, Play(((13, 8),), (False,)),
                               Position.from_points({8: 1}, {23: 2}))
    assert resolution.rule == "higher-die", resolution
    assert sides_after_steps(one_die.mover, one_die.opponent, 5, 6, ((13, 8),)) is None
    after = sides_after_steps(one_die.mover, one_die.opponent, 5, 6, ((13, 7),))
    assert after == (Position.from_points({7: 1}, {23: 2}).mover, one_die.opponent)
