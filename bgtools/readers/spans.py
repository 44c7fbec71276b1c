"""Exact steps from the per-checker moves that eXtreme Gammon and BGBlitz store.

Both binary formats store a play as the moves of each checker (``24/15`` off a 6-3), not as
one step per die. :class:`BoardTracker` follows the board of one game so that a reader can
split each checker's move into die steps (``24/18/15``): the route is the one the dice and
the board allow, a route without a hit on an intermediate point first (XG and BGBlitz list
a hit on the way as two moves), then the larger die first. A play the dice cannot explain
(an illegal play the file records) has no exact steps: the reader gives it as written text
(``14/10 13/12``, :func:`moves_text`), and the replayer reports it and carries on from the
board it writes, exactly as for a ``.mat`` file.

Only the rules of a single step are used, from the engine's board kernel
(:func:`bgtools.engine.board.step_error`, :func:`~bgtools.engine.board.step_is_legal`,
:func:`~bgtools.engine.board.apply_step`); no replay state. The module is compiled with the
readers (setup.py), so the board is plain lists of ints, as the kernel's.
"""

from __future__ import annotations

from itertools import permutations

from bgtools.engine.board import (
    START_SIDE,
    Step,
    apply_step,
    can_carry,
    point_name,
    step_error,
    step_is_legal,
    undo_step,
)

__all__ = ["BoardTracker", "moves_text"]


class BoardTracker:
    """The board of one game, each side in its own numbering (26 slots, 0 off, 25 bar)."""

    __slots__ = ("lost", "sides")

    def __init__(self, start: tuple[int, ...] = START_SIDE) -> None:
        """A board with both sides at ``start`` (the kernel's
        :data:`~bgtools.engine.board.START_SIDE`, or its ``NACKGAMMON_SIDE`` in a nackgammon
        match)."""
        self.sides: tuple[list[int], list[int]] = (list(start), list(start))
        self.lost = False
        """True once a play could not be followed (the board is no longer known)."""

    def play(self, player: int, dice: tuple[int, int],
             moves: list[Step]) -> tuple[Step, ...] | None:
        """The exact steps of ``player``'s checker ``moves`` with ``dice`` (None when the
        dice cannot explain them); the board moves on, literally for an illegal play."""
        if not moves:
            return ()
        me, opp = self.sides[player], self.sides[1 - player]
        found = None if self.lost else _split(me, opp, dice, moves)
        if found is not None:
            after = found[1]
            if after is not None:  # the boards the split played on
                if after[0] is not me:
                    self.sides = after if player == 0 else (after[1], after[0])
                return found[0]
        steps = None if found is None else found[0]
        for src, dst in moves if steps is None else steps:
            if not can_carry(me, opp, src, dst):
                self.lost = True
                break
            apply_step(me, opp, src, dst)
        return steps


def moves_text(moves: list[Step]) -> str:
    """Checker moves as ``.mat`` text: ``bar/22 6/off``."""
    return " ".join(f"{point_name(src)}/{point_name(dst)}" for src, dst in moves)


Boards = tuple[list[int], list[int]]


def _split(me: list[int], opp: list[int], dice: tuple[int, int], moves: list[Step]
           ) -> tuple[tuple[Step, ...], Boards | None] | None:
    """The exact steps of ``moves``, with the boards after them when the fast paths played
    them (None from the full search), or None when the dice cannot explain the moves. The
    first fast path plays on ``me`` and ``opp`` themselves (and returns them), and leaves
    them as they were when it fails; the others play on copies."""
    d1, d2 = dice
    # The usual case: one move per die (a bear-off by the die of its point, exactly: the
    # full search takes a larger die only for a checker on a lower point); checked step by
    # step.
    if len(moves) == (4 if d1 == d2 else 2):
        # Played on the boards themselves (no copies), each step undone if a later one
        # fails: ``hits`` has bit i set when the i-th move hit.
        # Each die once (four times a double, one move each): flags, not a list of the
        # dice left, whose membership test and removal cost more than the step's check.
        first_free = second_free = True
        played = 0
        hits = 0
        for src, dst in moves:
            die = src - dst
            if die == d1 and first_free:
                first_free = d1 == d2
            elif die == d2 and second_free and d1 != d2:
                second_free = False
            else:
                break
            # dst is src - die.
            if not step_is_legal(me, opp, src, die):
                break
            if apply_step(me, opp, src, dst):
                hits |= 1 << played
            played += 1
        else:
            return tuple(moves), (me, opp)
        while played:
            played -= 1
            src, dst = moves[played]
            undo_step(me, opp, src, dst, bool(hits >> played & 1))
    pool = [d1] * 4 if d1 == d2 else [d1, d2] if d1 > d2 else [d2, d1]
    first = _first_routes(me, opp, list(pool), moves)
    if first is not None:
        return first
    for order in _orders(moves):
        found = _assign(list(me), list(opp), pool, order)
        if found is not None:
            return tuple(found), None
    return None


def _candidates(pool: list[int], src: int, dst: int) -> list[list[tuple[int, ...]]]:
    """The dice routes ``_routes`` would try for one move, in groups of equal dice counts
    (fewest first; within a group, larger die first): empty when none can fit."""
    distance = src - dst
    if distance <= 0 or not pool:
        return []
    die = pool[0]
    if die == pool[-1]:  # a double, or one die left
        count = -(-distance // die) if dst == 0 else distance // die
        if count > len(pool) or (dst > 0 and distance % die):
            return []
        return [[(die,) * count]]
    high, low = pool
    both: list[list[tuple[int, ...]]] = [[(high, low), (low, high)]]
    if dst == 0:
        return [[(high,), (low,)], *both]
    if distance in pool:
        return [[(distance,)]]
    return both if distance == high + low else []


def _first_routes(me: list[int], opp: list[int], pool: list[int], moves: list[Step]
                  ) -> tuple[tuple[Step, ...], Boards] | None:
    """The full search's first answer without its search (the common case, much cheaper):
    the moves in file order, each by its best route (fewest dice, no hit on the way,
    larger die first), with the boards after them. None when that fails somewhere (a
    route that needs another order or another route): the full search decides then."""
    me, opp = list(me), list(opp)
    steps: list[Step] = []
    for src, dst in moves:
        best: tuple[int, tuple[int, ...], list[Step], list[int], list[int]] | None = None
        for group in _candidates(pool, src, dst):
            for dice in group:
                m2, o2 = me.copy(), opp.copy()
                here = src
                hits = 0
                route: list[Step] = []
                last = len(dice) - 1
                for i, die in enumerate(dice):
                    to = here - die
                    if i == last and dst == 0:
                        to = 0
                    elif to <= 0:
                        break
                    # ``to`` is here - die, or 0 forced: off with a smaller die is always a
                    # dice-mismatch; else step_is_legal is step_error's verdict.
                    if (to == 0 and here > die) or not step_is_legal(m2, o2, here, die):
                        break
                    if apply_step(m2, o2, here, to) and i < last:
                        hits += 1
                    route.append((here, to))
                    here = to
                else:
                    if best is None or hits < best[0]:
                        best = (hits, dice, route, m2, o2)
                        if not hits:
                            break  # no later route of the group can have fewer hits
            if best is not None:
                break
        if best is None:
            return None
        _, used, route, me, opp = best
        steps.extend(route)
        for die in used:
            pool.remove(die)
    return tuple(steps), (me, opp)


def _orders(moves: list[Step]) -> list[list[Step]]:
    """The checker moves in file order first, then (rarely needed) in other orders."""
    if len(moves) == 1:
        return [moves]
    seen: list[list[Step]] = [list(moves)]
    for perm in permutations(moves):
        candidate = list(perm)
        if candidate not in seen:
            seen.append(candidate)
    return seen


def _assign(me: list[int], opp: list[int], pool: list[int],
            moves: list[Step]) -> list[Step] | None:
    """Depth-first: die steps for each move in turn, legal one after another."""
    if not moves:
        return []
    src, dst = moves[0]
    for route, used in _routes(me, opp, pool, src, dst):
        m2, o2 = list(me), list(opp)
        for a, b in route:
            apply_step(m2, o2, a, b)
        rest = list(pool)
        for die in used:
            rest.remove(die)
        tail = _assign(m2, o2, rest, moves[1:])
        if tail is not None:
            return list(route) + tail
    return None


def _routes(me: list[int], opp: list[int], pool: list[int], src: int,
            dst: int) -> list[tuple[list[Step], tuple[int, ...]]]:
    """Legal die routes from ``src`` to ``dst`` (0 = off) with the dice they use, best
    first: fewer dice, no hit on an intermediate point, larger die first."""
    found: list[tuple[int, int, int, list[Step], tuple[int, ...]]] = []
    seen: set[tuple[int, ...]] = set()
    for n in range(1, len(pool) + 1):
        for dice in permutations(pool, n):
            if dice in seen:
                continue
            seen.add(dice)
            route = _walk(me, opp, dice, src, dst)
            if route is not None:
                steps, hits = route
                found.append((n, hits, -dice[0], steps, dice))
    found.sort(key=lambda item: (item[0], item[1], item[2]))
    return [(steps, dice) for _, _, _, steps, dice in found]


def _walk(me: list[int], opp: list[int], dice: tuple[int, ...], src: int,
          dst: int) -> tuple[list[Step], int] | None:
    m2, o2 = list(me), list(opp)
    here = src
    steps: list[Step] = []
    hits = 0
    for i, die in enumerate(dice):
        last = i == len(dice) - 1
        to = here - die
        if to <= 0 or (last and dst == 0):
            if not last or dst != 0:
                return None
            to = 0
        elif last and to != dst:
            return None
        if step_error(m2, o2, here, to, die) is not None:
            return None
        if apply_step(m2, o2, here, to) and not last:
            hits += 1
        steps.append((here, to))
        here = to
    return steps, hits
