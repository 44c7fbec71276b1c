"""The board kernel: the rules of backgammon over the bare board, each defined once.

A side is 26 checker counts in its owner's numbering: index 0 the checkers borne off, 1-24
the points in the direction he moves, 25 the bar. The rules are plain functions of the two
sides of a board seen from the player to act (the *mover*, ``me``) and his opponent
(``opp``), as mutable lists; the mover's point ``q`` is the opponent's ``25 - q``:

* one step: why it is illegal (:func:`step_error`, whose verdict :func:`step_is_legal`
  gives for a step by one die) and playing it (:func:`apply_step`);
* the maximal-play rules: as many dice as can be played, the larger die when only one can
  (:func:`can_move`, :func:`uses_most_dice`, and the filter of :func:`generate_plays`);
* move generation: every legal play of a roll, one per distinct result
  (:func:`generate_plays`);
* the starting positions (:data:`START_SIDE`, :data:`NACKGAMMON_SIDE`) and the name of a
  point (:func:`point_name`).

:class:`~bgtools.engine.position.Position` (the documented, pure-Python class), the resolver
of written plays, the replayer and the binary readers all call these functions. The module
is compiled by mypyc where a compiler exists (setup.py), so it is written for that: plain
lists of ints, loops rather than generators, ``x[i] = x[i] - 1`` rather than ``x[i] -= 1``
(compiled, the augmented form is a generic number operation).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

__all__ = [
    "BAR",
    "BLOCK",
    "CHECKERS",
    "NACKGAMMON_SIDE",
    "OFF",
    "START_SIDE",
    "GeneratedPlay",
    "Step",
    "apply_step",
    "can_carry",
    "can_move",
    "generate_plays",
    "mover_step_error",
    "point_name",
    "search_plays",
    "step_error",
    "step_is_legal",
    "undo_step",
    "uses_most_dice",
]

BAR: Final = 25
"""The index of a side's bar."""
OFF: Final = 0
"""The index of a side's borne-off checkers."""
CHECKERS: Final = 15
"""Checkers per player."""
BLOCK: Final = 2
"""Opposing checkers that hold a point against the mover (a lone one is a blot, hit)."""

START_SIDE: Final = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
"""One side at the start of a game, in its own numbering (2 on 24, 5 on 13, 3 on 8, 5 on 6)."""
NACKGAMMON_SIDE: Final = (0, 0, 0, 0, 0, 0, 4, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                          2, 2, 0)
"""One side at the start of a nackgammon game (2 on 24, 2 on 23, 4 on 13, 3 on 8, 4 on 6)."""

Step = tuple[int, int]
"""One checker moved by one die: ``(from, to)`` in the mover's numbering (bar 25, off 0)."""

GeneratedPlay = tuple[tuple[Step, ...], tuple[bool, ...], tuple[int, ...], tuple[int, ...]]
"""A legal play as :func:`generate_plays` gives it: its steps, whether each hit, and the
sides after it (the mover's, the opponent's; still the mover's view)."""


def point_name(point: int) -> str:
    """A point as the move notation writes it: ``bar`` (25), ``off`` (0), else its number."""
    if point == BAR:
        return "bar"
    if point <= 0:
        return "off"
    return str(point)


# --- one step ---------------------------------------------------------------------------------


def step_error(me: list[int], opp: list[int], src: int, dst: int, die: int) -> str | None:
    """Why moving one checker of the mover from ``src`` to ``dst`` (0 or less: off) with
    ``die`` is illegal, as a rule id; None when it is legal.

    The rule ids are ``no-checker``, ``must-enter-bar``, ``blocked-point``,
    ``bearoff-not-home``, ``bearoff-higher-die`` and ``dice-mismatch``. All but
    ``blocked-point`` read the mover's side alone (:func:`mover_step_error`); a point is
    blocked when the opponent has :data:`BLOCK` checkers or more on it.
    """
    rule = mover_step_error(me, src, dst, die)
    if rule is None and dst > 0 and opp[25 - dst] >= BLOCK:
        return "blocked-point"
    return rule


def mover_step_error(me: list[int], src: int, dst: int, die: int) -> str | None:
    """:func:`step_error` but for the block on ``dst``: the rules of a step that read only
    the mover's side (the replayer's common roll reads the opponent's side apart, unmoved
    unless a blot is hit)."""
    if not 1 <= src <= 25 or me[src] == 0:
        return "no-checker"
    if me[25] and src != 25:
        return "must-enter-bar"
    if dst > 0:
        if src - dst != die:
            return "dice-mismatch"
        return None
    # Bearing off.
    if src == 25:
        return "bearoff-not-home"
    for point in range(7, 26):
        if me[point]:
            return "bearoff-not-home"
    if src == die:
        return None
    if src > die:
        return "dice-mismatch"
    point = src + 1
    while point < 7:  # a higher die bears off only from the highest point
        if me[point]:
            return "bearoff-higher-die"
        point += 1
    return None


def step_is_legal(me: list[int], opp: list[int], src: int, die: int) -> bool:
    """Whether the mover can move a checker from ``src`` with ``die``: to ``src - die``, or
    off when that is 0 or less (:func:`step_error`'s verdict)."""
    return step_error(me, opp, src, src - die, die) is None


def apply_step(me: list[int], opp: list[int], src: int, dst: int) -> bool:
    """Move one checker of the mover from ``src`` to ``dst`` (0 or less: off) without any
    check; a lone opposing checker there goes to its bar. Return True when it hit."""
    me[src] = me[src] - 1
    if dst <= 0:
        me[0] = me[0] + 1
        return False
    me[dst] = me[dst] + 1
    there = 25 - dst
    if opp[there] == 1:
        opp[there] = 0
        opp[25] = opp[25] + 1
        return True
    return False


def can_carry(me: list[int], opp: list[int], src: int, dst: int) -> bool:
    """Whether a checker of the mover can be carried from ``src`` to ``dst`` (0: off) with
    the dice and the order of play aside: he has a checker there and ``dst`` (0-24) is not
    held by the opponent. How an illegal play is followed as written, to carry on after it."""
    return (1 <= src <= 25 and 0 <= dst <= 24 and me[src] > 0
            and (dst == 0 or opp[25 - dst] < 2))


def undo_step(me: list[int], opp: list[int], src: int, dst: int, hit: bool) -> None:
    """Undo ``apply_step(me, opp, src, dst)`` (``dst`` a point, or 0 off) that returned
    ``hit``."""
    me[dst] = me[dst] - 1
    me[src] = me[src] + 1
    if hit:
        opp[25 - dst] = 1
        opp[25] = opp[25] - 1


# --- the maximal-play rules -------------------------------------------------------------------


def can_move(mover: Sequence[int], opponent: Sequence[int], die1: int, die2: int) -> bool:
    """Whether the mover has any legal play of the roll: some checker can move with some
    die (then every legal play has at least one step; else the only legal play is empty)."""
    me = list(mover)
    opp = list(opponent)
    return _any_step(me, opp, die1) or (die2 != die1 and _any_step(me, opp, die2))


def _any_step(me: list[int], opp: list[int], die: int) -> bool:
    """Whether some checker of the mover can move with ``die``."""
    if me[25]:
        return step_is_legal(me, opp, 25, die)  # no other checker may move
    for src in range(25, 0, -1):  # noqa: SIM110 - a loop compiles to C; any(generator) does not
        if me[src] and step_is_legal(me, opp, src, die):
            return True
    return False


def _can_play_both(me: list[int], opp: list[int], die1: int, die2: int) -> bool:
    """Whether both dice of a non-double can be played, in one order or the other."""
    for first, second in ((die1, die2), (die2, die1)):
        for src in range(25, 0, -1):
            if me[src] and step_is_legal(me, opp, src, first):
                me2 = me.copy()
                opp2 = opp.copy()
                apply_step(me2, opp2, src, src - first)
                if _any_step(me2, opp2, second):
                    return True
    return False


def _can_play_double(me: list[int], opp: list[int], die: int, count: int) -> bool:
    """Whether ``count`` steps of ``die`` can be played one after another."""
    if count <= 0:
        return True
    for src in range(25, 0, -1):
        if me[src] and step_is_legal(me, opp, src, die):
            me2 = me.copy()
            opp2 = opp.copy()
            apply_step(me2, opp2, src, src - die)
            if count == 1 or _can_play_double(me2, opp2, die, count - 1):
                return True
    return False


def _takes_die(me: list[int], opp: list[int], src: int, dst: int, die1: int,
               die2: int) -> int:
    """The die the move generator credits a one-step play with: ``die1`` when that die
    makes the step legal (:func:`search_plays` tries ``die1`` first), else ``die2``."""
    return die1 if step_error(me, opp, src, dst, die1) is None else die2


def _credits_larger_die(me: list[int], opp: list[int], die1: int, die2: int) -> bool:
    """Whether some one-step play is credited (:func:`_takes_die`) with the larger die."""
    high = max(die1, die2)
    for src in range(25, 0, -1):
        if me[src] and step_is_legal(me, opp, src, high):
            dst = max(src - high, 0)
            if _takes_die(me, opp, src, dst, die1, die2) == high:
                return True
    return False


def uses_most_dice(mover: Sequence[int], opponent: Sequence[int], die1: int, die2: int,
                   steps: Sequence[Step]) -> bool:
    """Whether the legal play ``steps`` of ``die1``/``die2`` (legal one after another from
    the sides ``mover``/``opponent``) leads to one of the results :func:`generate_plays`
    gives (exactly: tests/engine/test_resolve_steps.py proves it): it uses every die, or no play
    uses more, and when only one die of a non-double can be played, it is credited with the
    larger die or no play is (the generator's rule, :func:`_takes_die`). Without generating
    the plays."""
    count = len(steps)
    me = list(mover)
    opp = list(opponent)
    if die1 == die2:
        return count >= 4 or not _can_play_double(me, opp, die1, count + 1)
    if count >= 2:
        return True
    if count == 0:
        return not (_any_step(me, opp, die1) or _any_step(me, opp, die2))
    if _can_play_both(me, opp, die1, die2):
        return False
    src, dst = steps[0]
    if _takes_die(me, opp, src, dst, die1, die2) == max(die1, die2):
        return True
    return not _credits_larger_die(me, opp, die1, die2)


# --- move generation --------------------------------------------------------------------------


def _die_steps(me: list[int], opp: list[int], die: int) -> list[Step]:
    """Every legal single step with ``die``, highest source first (the bar first)."""
    steps: list[Step] = []
    for src in range(25, 0, -1):
        if me[src]:
            dst = src - die
            if step_error(me, opp, src, dst, die) is None:
                steps.append((src, max(0, dst)))
    return steps


_Found = dict[tuple[tuple[int, ...], tuple[int, ...]],
              tuple[tuple[Step, ...], tuple[bool, ...], int]]
"""The longest plays found so far, by result: their steps, hits and first die."""


class _PlaySearch:
    """The state of one move generation: the longest plays found, by result, and the
    states already walked. A class, not closures over the generator's locals: a recursive
    inner function is a reference cycle, left for the cyclic collector (which a batch turns
    off while it replays a file)."""

    __slots__ = ("best", "found", "seen")

    def __init__(self) -> None:
        self.best = 0
        self.found: _Found = {}
        self.seen: set[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = set()

    def record(self, me: list[int], opp: list[int], steps: list[Step], hits: list[bool],
               first_die: int) -> None:
        """Keep a finished play if it is as long as the longest found."""
        n = len(steps)
        if n < self.best:
            return
        if n > self.best:
            self.best = n
            self.found.clear()
        key = (tuple(me), tuple(opp))
        if key not in self.found:
            self.found[key] = (tuple(steps), tuple(hits), first_die)

    def walk(self, me: list[int], opp: list[int], dice: tuple[int, ...], steps: list[Step],
             hits: list[bool], first_die: int) -> None:
        """Play each distinct die of ``dice`` every legal way, depth first."""
        if not dice:
            self.record(me, opp, steps, hits, first_die)
            return
        state = (dice, tuple(me), tuple(opp))
        if state in self.seen:
            return
        self.seen.add(state)
        moved = False
        tried: list[int] = []
        for i in range(len(dice)):
            die = dice[i]
            if die in tried:
                continue
            tried.append(die)
            rest = dice[:i] + dice[i + 1:]
            for src, dst in _die_steps(me, opp, die):
                moved = True
                me2 = me.copy()
                opp2 = opp.copy()
                hit = apply_step(me2, opp2, src, dst)
                steps.append((src, dst))
                hits.append(hit)
                self.walk(me2, opp2, rest, steps, hits, first_die or die)
                steps.pop()
                hits.pop()
        if not moved:
            self.record(me, opp, steps, hits, first_die)


def search_plays(mover: Sequence[int], opponent: Sequence[int], die1: int,
                 die2: int) -> list[GeneratedPlay]:
    """:func:`generate_plays` by the full search alone, without its shortcut for a roll that
    cannot be played (tests/engine/test_position.py proves the shortcut changes no result)."""
    search = _PlaySearch()
    dice = (die1,) * 4 if die1 == die2 else (die1, die2)
    search.walk(list(mover), list(opponent), dice, [], [], 0)
    items = list(search.found.items())
    if search.best == 1 and die1 != die2:
        # Only one die can be played: the larger one when it can be.
        high = max(die1, die2)
        larger = [item for item in items if item[1][2] == high]
        if larger:
            items = larger
    plays: list[GeneratedPlay] = []
    for (me, opp), (steps, hits, _) in items:
        plays.append((steps, hits, me, opp))
    if not plays:
        plays.append(((), (), tuple(mover), tuple(opponent)))
    return plays


def generate_plays(mover: Sequence[int], opponent: Sequence[int], die1: int,
                   die2: int) -> list[GeneratedPlay]:
    """Every legal play of ``die1``/``die2`` for the mover of the sides ``mover``/``opponent``,
    one per distinct result, under every rule of play: as many dice as can be played and,
    when only one die of a non-double can be, the larger one where it can. With no legal
    play the list holds one empty play (the turn passes)."""
    if not can_move(mover, opponent, die1, die2):
        # The roll cannot be played at all (often: on the bar against a closed board).
        return [((), (), tuple(mover), tuple(opponent))]
    return search_plays(mover, opponent, die1, die2)
