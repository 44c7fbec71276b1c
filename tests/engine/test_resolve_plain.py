"""The replayer's per-roll path past the memo reads a play as resolve_written_play does.

``resolve.sides_after_plain_play`` answers only the common play that resolves with no
problem; whenever it answers, :func:`resolve_written_play` (the general, memoised path) must
give the same sides and no problem. When it declines, the replayer asks the general path.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bgtools.engine.position import Position
from bgtools.engine.resolve import resolve_written_play, sides_after_plain_play
from tests.helpers.strategies import dice, positions


def _mat_style(steps: tuple[tuple[int, int], ...], marks: tuple[bool, ...]) -> str:
    return " ".join(f"{s}/{d}{'*' if m else ''}" for (s, d), m in zip(steps, marks))


def _texts(pos: Position, roll: tuple[int, int], rng: random.Random) -> list[str]:
    """Plays as writers write them (shuffled, with right, missing and wrong hit marks),
    merged paths, and plays of the right dice from anywhere."""
    noise = [(rng.randint(1, 25), rng.randint(0, 6)) for _ in range(rng.randint(2, 4))]
    texts = []
    for play in pos.legal_plays(*roll):
        steps = list(zip(play.steps, play.hits))
        rng.shuffle(steps)
        texts.append(_mat_style(tuple(s for s, _ in steps), tuple(h for _, h in steps)))
        texts.append(_mat_style(tuple(s for s, _ in steps),
                                tuple(rng.random() < 0.5 for _ in steps)))
        texts.append(str(play))
    texts.append(" ".join(f"{src}/{max(src - die, 0)}" for src, die in noise))
    texts.append(" ".join(f"{src}/{max(src - roll[k % 2], 0)}*"
                          for k, (src, _) in enumerate(noise)))
    texts += ["", "Cannot Move", "????", "13/x", "26/20"]
    return texts


@settings(max_examples=400, deadline=None)
@given(positions, dice, st.integers(0, 2**32 - 1))
def test_plain_play_sides_equal_the_general_path(pos: Position, roll: tuple[int, int],
                                                 seed: int) -> None:
    for text in _texts(pos, roll, random.Random(seed)):
        quick = sides_after_plain_play(pos.mover, pos.opponent, roll[0], roll[1], text)
        if quick is None:
            continue
        general = resolve_written_play(pos, roll[0], roll[1], text)
        assert general is not None, (pos.position_id, roll, text)
        mover, opponent, _steps, _hits, problems = general
        assert problems == (), (pos.position_id, roll, text, problems)
        assert quick == (mover, opponent), (pos.position_id, roll, text)


@settings(max_examples=200, deadline=None)
@given(positions, dice)
def test_plain_play_sides_take_the_common_play(pos: Position, roll: tuple[int, int]) -> None:
    # Every legal play of all its dice, written a die per step with its hits marked (bearing
    # off or not), is the common play: the quick path must take it, not only decline.
    full = 4 if roll[0] == roll[1] else 2
    for result, play in pos.legal_results(*roll).items():
        if len(play.steps) != full:
            continue
        text = _mat_style(play.steps, play.hits)
        quick = sides_after_plain_play(pos.mover, pos.opponent, roll[0], roll[1], text)
        assert quick == (result.mover, result.opponent), (pos.position_id, roll, text)


def test_plain_play_sides_on_the_opening() -> None:
    pos = Position.initial()
    assert sides_after_plain_play(pos.mover, pos.opponent, 3, 1, "8/5 6/5") is not None
    # A hit mark where nothing is hit, a merged path, a bear-off: the general path's.
    for text in ["8/5* 6/5", "24/20", "24/21 0/0", "6/off 5/off"]:
        assert sides_after_plain_play(pos.mover, pos.opponent, 3, 1, text) is None, text


def test_plain_play_sides_bear_off_with_either_die() -> None:
    pos = Position.from_points({4: 1, 3: 1, 1: 2}, {20: 2})
    after = sides_after_plain_play(pos.mover, pos.opponent, 6, 5, "4/off 3/off")
    assert after is not None and after[0][0] == 13 and not after[0][3] and not after[0][4]
    # Written the other way round, 3/off cannot come first (a higher die bears off only from
    # the highest point): the quick path declines, the general path plays 4/off first.
    assert sides_after_plain_play(pos.mover, pos.opponent, 6, 5, "3/off 4/off") is None
    general = resolve_written_play(pos, 6, 5, "3/off 4/off")
    assert general is not None and general[:2] == after and general[4] == ()


def test_plain_play_sides_hit_each_blot_once() -> None:
    # Two checkers onto the same blot: the first hits it, the second lands on the emptied
    # point; the opponent's side is copied only when something is hit.
    pos = Position.from_points({13: 2, 8: 2, 6: 5}, {20: 1, 11: 3, 1: 2})
    after = sides_after_plain_play(pos.mover, pos.opponent, 3, 3, "8/5* 8/5 13/10 13/10")
    assert after is not None
    assert after[0][5] == 2 and after[1][20] == 0 and after[1][25] == 1
    assert sides_after_plain_play(pos.mover, pos.opponent, 3, 3,
                                  "8/5* 8/5* 13/10 13/10") is None
    quiet = sides_after_plain_play(pos.mover, pos.opponent, 3, 3, "13/10 13/10 6/3 6/3")
    assert quiet is not None and quiet[1] is pos.opponent
    general = resolve_written_play(pos, 3, 3, "8/5* 8/5 13/10 13/10")
    assert general is not None and general[:2] == after and general[4] == ()


@st.composite
def _blocked(draw: st.DrawFn) -> Position:
    """The mover on the bar against a home board of 3 to 6 made points: often only one
    die of a roll (or none) can be played."""
    closed = draw(st.sets(st.integers(1, 6), min_size=3, max_size=6))
    opponent = dict.fromkeys(closed, 2)
    opponent[13] = 15 - 2 * len(closed)
    on_bar = draw(st.integers(1, 2))
    spread = draw(st.lists(st.integers(1, 11), min_size=0, max_size=4))
    mover: dict[int, int] = {25: on_bar}
    for point in spread:
        mover[point] = mover.get(point, 0) + 1
    mover[6] = mover.get(6, 0) + 15 - on_bar - len(spread)
    return Position.from_points(mover, opponent)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_blocked(), positions), dice, st.integers(1, 25), st.booleans())
def test_one_step_plays_equal_the_general_path(pos: Position, roll: tuple[int, int],
                                               src: int, mark: bool) -> None:
    # A play of one segment: taken only when one die carries it and no play uses more
    # dice (or the larger die); then exactly the general path's sides, with no problem.
    for die in roll:
        text = f"{src}/{max(src - die, 0)}{'*' if mark else ''}"
        quick = sides_after_plain_play(pos.mover, pos.opponent, roll[0], roll[1], text)
        if quick is None:
            continue
        general = resolve_written_play(pos, roll[0], roll[1], text)
        assert general is not None and general[4] == (), (pos.position_id, roll, text)
        assert quick == general[:2], (pos.position_id, roll, text)


@settings(max_examples=200, deadline=None)
@given(_blocked(), dice)
def test_one_step_plays_are_taken(pos: Position, roll: tuple[int, int]) -> None:
    # Every legal play of one step of a non-double, written as gnubg writes it, that one
    # die only carries: the quick path takes it (not only declines).
    if roll[0] == roll[1]:
        return
    for result, play in pos.legal_results(*roll).items():
        if len(play.steps) != 1:
            continue
        (src, dst), = play.steps
        carried = [die for die in roll if (src - dst == die if dst else die >= src)]
        if len(carried) != 1:
            continue
        text = _mat_style(play.steps, play.hits)
        quick = sides_after_plain_play(pos.mover, pos.opponent, roll[0], roll[1], text)
        assert quick == (result.mover, result.opponent), (pos.position_id, roll, text)
