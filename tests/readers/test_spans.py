"""The fast paths of ``readers/spans.py`` (the binary readers' exact steps) against the
general one: ``BoardTracker.play`` against the full depth-first search, on boards reached by
legal play."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bgtools.engine.board import apply_step
from bgtools.engine.position import Position
from bgtools.readers import spans
from bgtools.readers.spans import BoardTracker

Step = tuple[int, int]

def _full_search(me: list[int], opp: list[int], dice: tuple[int, int],
                 moves: list[Step]) -> tuple[Step, ...] | None:
    """The general path: the depth-first search over the move orders, first answer."""
    d1, d2 = dice
    pool = [d1] * 4 if d1 == d2 else sorted((d1, d2), reverse=True)
    for order in spans._orders(moves):  # noqa: SLF001 - the general path under test
        found = spans._assign(list(me), list(opp), pool, order)  # noqa: SLF001
        if found is not None:
            return tuple(found)
    return None


def _checker_moves(steps: tuple[Step, ...], hits: tuple[bool, ...],
                   merges: list[bool]) -> list[Step]:
    """The steps as a file stores them: a checker's consecutive steps merged into one
    move (when ``merges`` says so and it hit nothing on the way)."""
    moves: list[Step] = []
    joinable = False
    for i, (src, dst) in enumerate(steps):
        if moves and joinable and moves[-1][1] == src and merges[i % len(merges)]:
            moves[-1] = (moves[-1][0], dst)
        else:
            moves.append((src, dst))
        joinable = not hits[i]
    return moves


def _play_against_full_search(position: Position,
                              turns: list[tuple[int, int, int, list[bool]]]) -> None:
    """Play ``turns`` (dice, a pick among the legal plays, how to merge its steps) from
    ``position``, player 0 on roll, checking that ``BoardTracker.play`` gives the full
    search's steps and the board those steps reach."""
    tracker = BoardTracker()
    tracker.sides = (list(position.mover), list(position.opponent))
    for number, (d1, d2, pick, merges) in enumerate(turns):
        if position.is_game_over:
            break
        player = number % 2
        play = position.legal_plays(d1, d2)
        chosen = play[pick % len(play)]
        _, hits = position.apply_steps(chosen.steps)
        moves = _checker_moves(tuple(chosen.steps), hits, merges)
        me, opp = list(tracker.sides[player]), list(tracker.sides[1 - player])
        assert (tuple(me), tuple(opp)) == (position.mover, position.opponent)
        expected = _full_search(me, opp, (d1, d2), moves) if moves else ()
        assert expected is not None
        for src, dst in expected:
            apply_step(me, opp, src, dst)
        assert tracker.play(player, (d1, d2), moves) == expected
        assert (tracker.sides[player], tracker.sides[1 - player]) == (me, opp)
        position = position.play(chosen)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(0, 10_000),
                          st.lists(st.booleans(), min_size=1, max_size=4)),
                min_size=1, max_size=60))
def test_play_is_the_full_search(turns: list[tuple[int, int, int, list[bool]]]) -> None:
    """On a game of legal plays written as checker moves, ``BoardTracker.play`` gives the
    full search's steps and the board those steps reach."""
    _play_against_full_search(Position.initial(), turns)


home_boards = st.lists(st.integers(0, 4), min_size=6, max_size=6).filter(
    lambda counts: 0 < sum(counts) <= 15)


@settings(max_examples=150, deadline=None)
@given(home_boards, home_boards,
       st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(0, 10_000),
                          st.lists(st.booleans(), min_size=1, max_size=4)),
                min_size=1, max_size=20))
def test_bear_offs_are_the_full_search(mine: list[int], theirs: list[int],
                                       turns: list[tuple[int, int, int, list[bool]]]) -> None:
    """From bear-off positions (every checker home, some off), where the fast path takes
    a checker off by the die of its point and the full search weighs larger dice,
    ``BoardTracker.play`` still gives the full search's steps and board."""
    def side(counts: list[int]) -> tuple[int, ...]:
        return (15 - sum(counts), *counts, *[0] * 19)

    _play_against_full_search(Position(side(mine), side(theirs)), turns)
