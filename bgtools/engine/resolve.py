"""Resolve a written play against a position and a roll, fast.

A written play lists segments (``24/13``, ``bar/22``, ``6/off``) in any order, possibly
merged (one segment for several dice) and with or without hit marks. Resolving finds the
exact steps, checks each against the rules, and proves the play uses as many dice as the
rules demand, generating every legal play only in the rare case where the written play
leaves dice unused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Final

from bgtools.dataclass_methods import fields_eq, fields_hash, fields_repr
from bgtools.engine import notation
from bgtools.engine.board import (
    BLOCK,
    Step,
    apply_step,
    can_carry,
    mover_step_error,
    point_name,
    step_error,
    uses_most_dice,
)
from bgtools.engine.memo import BoundedMemo
from bgtools.engine.notation import WrittenPlay
from bgtools.engine.position import Play, Position, unchecked_position
from bgtools.errors import NotationError
from bgtools.rules import RULES

__all__ = [
    "IllegalStep",
    "ResolvedPlay",
    "Resolution",
    "check_maximal",
    "every_die_as_written",
    "legal_results",
    "play_steps",
    "resolve_play",
    "resolve_written_play",
    "resolve_written_sides",
    "sides_after_plain_play",
    "sides_after_steps",
    "two_checkers_either_die",
]


def _step_words(rule: str) -> str:
    """The words for a step that breaks ``rule`` (the rule table's, else the id itself)."""
    known = RULES.get(rule)
    if known is None or known.step_message is None:
        return rule
    return known.step_message


# The classes here write their methods and declare their fields Final, as
# bgtools.engine.notation's (see there).


@dataclass(slots=True, init=False, repr=False, eq=False)
class Resolution:
    """The outcome of resolving a written play.

    On success ``play`` holds the exact steps and ``result`` the position after it (still
    from the mover's view). On failure ``rule`` is the rule id and ``message`` explains;
    ``result`` is then the best-effort position as written (or None when even that fails).
    ``ambiguous`` is set when merged segments allowed several different results.
    """

    play: Final[Play | None]
    result: Final[Position | None]
    rule: Final[str | None]
    message: Final[str]
    ambiguous: Final[bool]

    def __init__(self, play: Play | None, result: Position | None, rule: str | None = None,
                 message: str = "", ambiguous: bool = False) -> None:
        self.play = play
        self.result = result
        self.rule = rule
        self.message = message
        self.ambiguous = ambiguous

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented  # as generated (and mypyc's bool return allows it here)
        return fields_eq(self, other)

    def __hash__(self) -> int:
        return fields_hash(self)


def _segment_options(src: int, dst: int, dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The die sequences that can carry one checker from ``src`` to ``dst``."""
    d1, d2 = dice[0], dice[1]
    options: list[tuple[int, ...]] = []
    if d1 == d2:
        d = d1
        if dst > 0:
            dist = src - dst
            if dist > 0 and dist % d == 0 and dist // d <= 4:
                options.append((d,) * (dist // d))
        else:
            n = 1
            while n <= 4 and src - (n - 1) * d > 0:
                if src - n * d <= 0:
                    options.append((d,) * n)
                    break
                n += 1
        return options
    if dst > 0:
        dist = src - dst
        for seq in ((d1,), (d2,), (d1, d2), (d2, d1)):
            if sum(seq) == dist and seq not in options:
                options.append(seq)
        return options
    for seq in ((d1,), (d2,)):
        if seq[0] >= src and seq not in options:
            options.append(seq)
    if not options:
        options.extend(seq for seq in ((d1, d2), (d2, d1))
                       if src - seq[0] >= 1 and seq[1] >= src - seq[0])
    return options


def _uses_dice(seqs: Sequence[tuple[int, ...]], dice: tuple[int, ...]) -> bool:
    pool = list(dice)
    for seq in seqs:
        for die in seq:
            if die in pool:
                pool.remove(die)
            else:
                return False
    return True


def resolve_play(  # noqa: C901 - the written play's cases in the order they are tried
    pos: Position, die1: int, die2: int, written: WrittenPlay,
) -> Resolution:
    """Resolve ``written`` for the mover of ``pos`` rolling ``die1``/``die2``."""
    dice = (die1,) * 4 if die1 == die2 else (die1, die2)
    segments = written.segments
    if len(segments) == len(dice):
        as_written = _every_die_as_written(pos, die1, die2, segments)
        if as_written is not None:
            return as_written
    elif len(segments) == 1 and die1 != die2:
        merged = _one_checker_both_dice(pos, die1, die2, segments[0])
        if merged is not None:
            return merged
    if len(segments) == 2 and die1 != die2:
        bearing_off = _two_checkers_either_die(pos, die1, die2, segments)
        if bearing_off is not None:
            return bearing_off
    if not segments:
        return check_maximal(pos, die1, die2, Play(), pos)
    if len(segments) > len(dice):
        return Resolution(
            None, None, "dice-mismatch",
            f"{len(segments)} checker moves written but a roll of {die1}{die2} "
            f"allows at most {len(dice)}",
        )
    per_segment: list[list[tuple[int, ...]]] = []
    for src, dst, _ in segments:
        if src == dst:
            return Resolution(None, None, "dice-mismatch", f"{src}/{dst} does not move")
        if dst > src:
            return Resolution(
                None, None, "dice-mismatch",
                f"{point_name(src)}/{point_name(dst)} moves backwards",
            )
        options = _segment_options(src, dst, (die1, die2))
        if not options:
            return Resolution(
                None, None, "dice-mismatch",
                f"{point_name(src)}/{point_name(dst)} cannot be played with {die1}{die2}",
            )
        per_segment.append(options)

    if all(len(options) == 1 and len(options[0]) == 1 for options in per_segment):
        quick = _single_steps(pos, segments, [options[0][0] for options in per_segment], dice)
        if quick is not None:
            play, result = quick
            return check_maximal(pos, die1, die2, play, result)

    finals: dict[Position, tuple[tuple[Step, ...], tuple[bool, ...]]] = {}
    deepest: list[object] = [-1, None, None]  # depth, rule, step

    for combo in product(*per_segment):
        if not _uses_dice(combo, dice):
            continue
        # Each segment becomes a chain of steps; chains may interleave.
        chains: list[list[tuple[int, int, int]]] = []
        for (src, _dst, _), seq in zip(segments, combo):
            chain: list[tuple[int, int, int]] = []
            at = src
            for die in seq:
                nxt = at - die
                chain.append((at, max(0, nxt), die))
                at = nxt
            chains.append(chain)
        _search(list(pos.mover), list(pos.opponent), chains, [0] * len(chains), [], [],
                finals, deepest)

    if not finals:
        roll = f"{die1}{die2}"
        if not deepest[1]:
            return Resolution(
                None, _literal(pos, segments), "dice-mismatch",
                f"{roll} played as {written.text}: the moves do not match the dice",
            )
        rule = str(deepest[1])
        step = deepest[2]
        where = ""
        if isinstance(step, tuple):
            where = f"{point_name(step[0])}/{point_name(step[1])}: "
        message = f"{roll} played as {written.text}: {where}{_step_words(rule)}"
        return Resolution(None, _literal(pos, segments), rule, message)

    ambiguous = False
    if len(finals) > 1:
        # Writers that merge segments split them where they hit (``24/18*/13``), so the
        # reading whose hits agree with the written marks is the one meant.
        marked = {dst for _, dst, mark in segments if mark}
        agreeing = [
            result for result, (steps, hits) in finals.items()
            if {dst for (_, dst), hit in zip(steps, hits) if hit} == marked
        ]
        if len(agreeing) == 1:
            chosen = agreeing[0]
        else:
            ambiguous = True
            pool = agreeing or list(finals)
            chosen = min(pool, key=lambda r: sum(finals[r][1]))
    else:
        chosen = next(iter(finals))
    steps, hits = finals[chosen]
    resolution = check_maximal(pos, die1, die2, Play(steps, hits), chosen)
    if ambiguous and resolution.rule is None:
        return Resolution(resolution.play, resolution.result, None, "", True)
    return resolution


_Sides = tuple[tuple[int, ...], tuple[int, ...], tuple[Step, ...], tuple[bool, ...]]
"""A play found on bare sides: the sides after it, its steps and its hits."""


def _resolution_of(sides: _Sides | None) -> Resolution | None:
    """The Resolution of a play found by a bare-sides shortcut (None stays None)."""
    if sides is None:
        return None
    mover, opponent, steps, hits = sides
    return Resolution(Play(steps, hits), unchecked_position(mover, opponent))


def _every_die_as_written(
    pos: Position, die1: int, die2: int, segments: Sequence[tuple[int, int, bool]],
) -> Resolution | None:
    """The common play, quickly: one segment per die (no bearing off), every step legal in
    the order written. The general path would read it the same way (each segment can only
    be its own die, the written order is the first it tries, all dice are used); None for
    any other play."""
    return _resolution_of(every_die_as_written(pos.mover, pos.opponent, die1, die2, segments))


def every_die_as_written(
    mover: tuple[int, ...], opponent: tuple[int, ...], die1: int, die2: int,
    segments: Sequence[tuple[int, int, bool]],
) -> _Sides | None:
    """The replayer's hot path: the play of :func:`_every_die_as_written` on the bare sides
    of a position, as the sides after it, its steps and its hits (no objects built); None
    when the play is not one segment per die, each legal in the order written.

    ``segments`` must hold one segment per die (two, or four for a double), each step
    checked by :func:`~bgtools.engine.board.step_error`.
    """
    if die1 != die2:
        (src1, dst1, _), (src2, dst2, _) = segments
        if dst1 <= 0 or dst2 <= 0:
            return None
        first, second = src1 - dst1, src2 - dst2
        if not ((first == die1 and second == die2) or (first == die2 and second == die1)):
            return None
    else:
        for src, dst, _ in segments:
            if dst <= 0 or src - dst != die1:
                return None
    me = list(mover)
    opp = list(opponent)
    steps: list[Step] = []
    hits: list[bool] = []
    for src, dst, _ in segments:
        # Every dst > 0 and src - dst is a die of the roll (checked above).
        if step_error(me, opp, src, dst, src - dst) is not None:
            return None
        hits.append(apply_step(me, opp, src, dst))
        steps.append((src, dst))
    return tuple(me), tuple(opp), tuple(steps), tuple(hits)


def _one_checker_both_dice(
    pos: Position, die1: int, die2: int, segment: tuple[int, int, bool],
) -> Resolution | None:
    """A non-double played by one checker written as one segment (``24/13``), quickly:
    the two orders (``die1`` first, then ``die2`` first, as the general path tries them),
    answered only when one is legal, or both are with the same result (then the general
    path keeps the first); None otherwise."""
    src, dst, _ = segment
    if dst <= 0 or src - dst != die1 + die2:
        return None
    found: tuple[Play, Position] | None = None
    for first, second in ((die1, die2), (die2, die1)):
        mid = src - first
        me = list(pos.mover)
        opp = list(pos.opponent)
        if step_error(me, opp, src, mid, first) is not None:
            continue
        hit1 = apply_step(me, opp, src, mid)
        if step_error(me, opp, mid, dst, second) is not None:
            continue
        hit2 = apply_step(me, opp, mid, dst)
        result = unchecked_position(tuple(me), tuple(opp))
        if found is None:
            found = (Play(((src, mid), (mid, dst)), (hit1, hit2)), result)
        elif found[1] != result:
            return None
    if found is None:
        return None
    return Resolution(found[0], found[1])


def _two_checkers_either_die(
    pos: Position, die1: int, die2: int, segments: Sequence[tuple[int, int, bool]],
) -> Resolution | None:
    """A non-double written as two one-die segments where a bear-off could take either die
    (``4/off 4/off`` with 54), quickly: the general path's readings in its order (die
    choices, then the first segment first or second), answered when every legal reading
    gives the same result (the general path then keeps the first); None otherwise."""
    return _resolution_of(
        two_checkers_either_die(pos.mover, pos.opponent, die1, die2, segments))


def two_checkers_either_die(
    mover: tuple[int, ...], opponent: tuple[int, ...], die1: int, die2: int,
    segments: Sequence[tuple[int, int, bool]],
) -> _Sides | None:
    """The replayer's hot path for bearing off: the play of :func:`_two_checkers_either_die`
    on the bare sides of a position, as the sides after it, its steps and its hits; None
    when that shortcut does not answer. ``segments`` must be two, the dice different."""
    (src1, dst1, _), (src2, dst2, _) = segments
    options1 = _segment_options(src1, dst1, (die1, die2))
    options2 = _segment_options(src2, dst2, (die1, die2))
    if any(len(seq) != 1 for seq in options1) or any(len(seq) != 1 for seq in options2):
        return None
    found: tuple[tuple[int, ...], tuple[int, ...], tuple[Step, ...], tuple[bool, ...]] | None
    found = None
    for (first,), (second,) in product(options1, options2):
        if first == second:
            continue  # both dice must be used
        step1 = (src1, max(src1 - first, 0), first)
        step2 = (src2, max(src2 - second, 0), second)
        for order in ((step1, step2), (step2, step1)):
            me = list(mover)
            opp = list(opponent)
            steps = ((order[0][0], order[0][1]), (order[1][0], order[1][1]))
            hits = play_steps(me, opp, steps, (order[0][2], order[1][2]), in_order=True)
            if not isinstance(hits, IllegalStep):
                if found is None:
                    found = (tuple(me), tuple(opp), steps, hits)
                elif found[0] != tuple(me) or found[1] != tuple(opp):
                    return None
                # The other order moves the same checkers the same way, so it can only
                # reach this same result: nothing to learn from it.
                break
    return found


def _single_steps(
    pos: Position, segments: Sequence[tuple[int, int, bool]], dice_used: list[int],
    dice: tuple[int, ...],
) -> tuple[Play, Position] | None:
    """Fast path for plays written one step per die: the result does not depend on the
    order, so one legal order (as written, or bar first then highest first) proves it."""
    if not _uses_dice([(d,) for d in dice_used], dice):
        return None
    steps = [(src, max(0, dst), die)
             for (src, dst, _), die in zip(segments, dice_used)]
    orders = [steps]
    canonical = sorted(steps, key=lambda s: (s[0], s[1]), reverse=True)
    if canonical != steps:
        orders.append(canonical)
    for order in orders:
        me = list(pos.mover)
        opp = list(pos.opponent)
        moves = tuple((src, dst) for src, dst, _ in order)
        hits = play_steps(me, opp, moves, [die for _, _, die in order], in_order=True)
        if not isinstance(hits, IllegalStep):
            return Play(moves, hits), unchecked_position(tuple(me), tuple(opp))
    return None


@dataclass(slots=True, init=False, repr=False, eq=False)
class IllegalStep:
    """The first step of a sequence that cannot be played, and the rule it breaks with the
    first die tried (None when no die was left for it)."""

    step: Final[Step]
    rule: Final[str | None]

    def __init__(self, step: Step, rule: str | None) -> None:
        self.step = step
        self.rule = rule

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented  # as generated (and mypyc's bool return allows it here)
        return fields_eq(self, other)

    def __hash__(self) -> int:
        return fields_hash(self)


def play_steps(me: list[int], opp: list[int], steps: Sequence[Step], dice: Sequence[int], *,
               in_order: bool = False) -> tuple[bool, ...] | IllegalStep:
    """Play ``steps`` one after the other on the mutable sides ``me``/``opp``, each checked
    by :func:`~bgtools.engine.board.step_error` with a die: ``dice[i]`` for ``steps[i]``
    when ``in_order``, else the first die of ``dice`` not used yet that makes it legal.

    Return the hits of the steps, or the first step that cannot be played (the sides are
    then left as they were after the steps before it).
    """
    hits: list[bool] = []
    if in_order:
        for (src, dst), die in zip(steps, dice):
            rule = step_error(me, opp, src, dst, die)
            if rule is not None:
                return IllegalStep((src, dst), rule)
            hits.append(apply_step(me, opp, src, dst))
        return tuple(hits)
    pool = list(dice)
    for src, dst in steps:
        first_error: str | None = None
        for die in dict.fromkeys(pool):
            rule = step_error(me, opp, src, dst, die)
            if rule is None:
                pool.remove(die)
                break
            first_error = first_error or rule
        else:
            return IllegalStep((src, dst), first_error)
        hits.append(apply_step(me, opp, src, dst))
    return tuple(hits)


def _search(
    me: list[int],
    opp: list[int],
    chains: list[list[tuple[int, int, int]]],
    index: list[int],
    steps: list[Step],
    hits: list[bool],
    finals: dict[Position, tuple[tuple[Step, ...], tuple[bool, ...]]],
    deepest: list[object],
) -> None:
    done = True
    for c, chain in enumerate(chains):
        i = index[c]
        if i >= len(chain):
            continue
        done = False
        src, dst, die = chain[i]
        rule = step_error(me, opp, src, dst, die)
        if rule is not None:
            if len(steps) > int(deepest[0]):  # type: ignore[call-overload]
                deepest[0], deepest[1] = len(steps), rule
                deepest[2] = (src, dst)
            continue
        me2, opp2 = me[:], opp[:]
        hit = apply_step(me2, opp2, src, dst)
        index[c] += 1
        steps.append((src, dst))
        hits.append(hit)
        _search(me2, opp2, chains, index, steps, hits, finals, deepest)
        steps.pop()
        hits.pop()
        index[c] -= 1
    if done:
        key = unchecked_position(tuple(me), tuple(opp))
        if key not in finals:
            finals[key] = (tuple(steps), tuple(hits))


def check_maximal(pos: Position, die1: int, die2: int, play: Play, result: Position) -> Resolution:
    """Prove a resolved play uses as many dice as possible, and the larger die when only
    one can be played; generate legal plays only when dice were left unused and
    :func:`uses_most_dice` cannot prove the play maximal (a problem to word, or a rare
    bear-off that a longer play also reaches)."""
    full = 4 if die1 == die2 else 2
    if len(play.steps) == full:
        return Resolution(play, result)
    me = list(pos.mover)
    opp = list(pos.opponent)
    if (_play_steps_quietly(me, opp, play.steps, die1, die2)
            and tuple(me) == result.mover and tuple(opp) == result.opponent
            and uses_most_dice(pos.mover, pos.opponent, die1, die2, play.steps)):
        return Resolution(play, result)  # the legal plays would hold it: none generated
    legal = pos.legal_results(die1, die2)
    if result in legal:
        return Resolution(play, result)
    sample = next(iter(legal.values()))
    most = len(sample.steps)
    roll = f"{die1}{die2}"
    written = str(play) or "nothing"
    if most > len(play.steps):
        return Resolution(
            play, result, "max-dice",
            f"{roll} played as {written}; {most} dice can be played (e.g. {sample})",
        )
    return Resolution(
        play, result, "higher-die",
        f"{roll} played as {written}; when only one die can be played the larger must be "
        f"played (e.g. {sample})",
    )


# --- the replayer's entry point: a written play resolved once, its problems worded ----------


ResolvedPlay = tuple[
    tuple[int, ...] | None, tuple[int, ...], tuple[Step, ...] | None, tuple[bool, ...],
    tuple[tuple[str, str], ...],
]
"""A written play resolved, as plain tuples: the sides after it (mover's view; the mover's
side None when the play cannot be applied), its steps (None when there is no play) and hits,
and its problems ``(rule, message)``. Tuples of numbers and strings only, so the cyclic
garbage collector stops tracking the memo's entries (it would otherwise rescan hundreds of
thousands of Position and Play objects on a large archive)."""

_RESOLVED: Final[BoundedMemo[tuple[tuple[int, ...], tuple[int, ...], int, int, str],
                              ResolvedPlay]] = BoundedMemo(1 << 17)
"""Resolved plays by (position, dice, play text as written): everything in a ResolvedPlay is
immutable and depends on nothing else."""

_LEGAL: Final[BoundedMemo[tuple[tuple[int, ...], tuple[int, ...], int, int],
                           dict[Position, Play]]] = BoundedMemo(1 << 12)
"""Legal results by (position, dice) for rolls written without a play; each entry holds every
legal result of a roll, so far fewer are kept."""


def resolve_written_play(position: Position, die1: int, die2: int,
                         text: str) -> ResolvedPlay | None:
    """The play ``text`` writes for the mover of ``position`` rolling ``die1``/``die2``,
    resolved (see :func:`resolve_play`) with its problems worded, memoised.

    None when ``text`` writes no moves (an empty play, ``Cannot Move``, a resignation or
    illegal-play mark) or is no play at all (the notation rejects it): the caller decides.
    """
    return resolve_written_sides(position.mover, position.opponent, die1, die2, text)


def resolve_written_sides(mover: tuple[int, ...], opponent: tuple[int, ...], die1: int,
                          die2: int, text: str) -> ResolvedPlay | None:
    """:func:`resolve_written_play` of the position with the sides ``mover``/``opponent``,
    which it builds only when the memo does not know the play (the replayer keeps sides,
    not positions)."""
    key = (mover, opponent, die1, die2, text)
    known = _RESOLVED.get(key)
    if known is None:
        try:
            written = notation.parse_play(text)
        except NotationError:
            return None
        if written.kind != "moves" or not written.paths:
            return None
        known = _RESOLVED.remember(
            key, _resolved(unchecked_position(mover, opponent), die1, die2, written))
    return known


def _play_steps_quietly(me: list[int], opp: list[int], steps: Sequence[Step], die1: int,
                        die2: int) -> bool:
    """:func:`play_steps` (not ``in_order``) with the dice of the roll ``die1``/``die2``,
    without its objects: each step takes the first unused die that makes it legal; False
    when a step has none (the sides are then partly moved)."""
    if die1 == die2:
        if len(steps) > 4:
            return False
        for src, dst in steps:
            if step_error(me, opp, src, dst, die1) is not None:
                return False
            apply_step(me, opp, src, dst)
        return True
    first_free = True
    second_free = True
    for src, dst in steps:
        if first_free and step_error(me, opp, src, dst, die1) is None:
            first_free = False
        elif second_free and step_error(me, opp, src, dst, die2) is None:
            second_free = False
        else:
            return False
        apply_step(me, opp, src, dst)
    return True


def sides_after_steps(mover: tuple[int, ...], opponent: tuple[int, ...], die1: int,
                      die2: int, steps: Sequence[Step]
                      ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The replayer's per-roll path for exact steps (``.xg``, ``.bgf``, SGF): the sides
    after ``steps`` when the general path (``Game.play_steps``: :func:`play_steps`, then
    :func:`check_maximal`) finds no problem in them; None when it finds one, which it then
    words (tests/engine/test_resolve_steps.py proves the two equal)."""
    me = list(mover)
    opp = list(opponent)
    if not _play_steps_quietly(me, opp, steps, die1, die2):
        return None
    if len(steps) < (4 if die1 == die2 else 2) and not uses_most_dice(
            mover, opponent, die1, die2, steps):
        return None
    return tuple(me), tuple(opp)


def _fits(src: int, dst: int, die: int) -> bool:
    """Whether ``die`` carries a checker from ``src`` to ``dst`` in one step: exactly to a
    point, or off with a die of at least ``src``."""
    return src - dst == die if dst > 0 else dst == 0 and die >= src


def _play_segments(mover: tuple[int, ...], opponent: tuple[int, ...],
                   segments: tuple[tuple[int, int, bool], ...], first_die: int,
                   other_die: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Play ``segments`` in the order written, the first with ``first_die`` and the others
    with ``other_die``, each step checked (the kernel's :func:`~bgtools.engine.board.step_error`
    as :func:`~bgtools.engine.board.mover_step_error` and the block on the point reached,
    then moved as :func:`~bgtools.engine.board.apply_step` moves it); the sides after them,
    or None when a step is illegal or a ``*`` marks a step that hits nothing.

    The opponent's side is read, not copied: his counts change only where a lone checker
    is hit (1 to 0: a block stays a block, an open point stays open) and on his bar, which
    no step of the mover reads. So it is copied only when something is hit, and returned
    as it is otherwise (most rolls hit nothing: copying it costs the replayer 3%)."""
    me = list(mover)
    hit: list[int] = []  # the opponent's points hit, in his numbering
    die = first_die
    for src, dst, mark in segments:
        # src - die is dst, or 0 or less for a bear-off (the segment fits the die).
        if mover_step_error(me, src, src - die, die) is not None:
            return None
        die = other_die
        me[src] = me[src] - 1
        if dst <= 0:
            me[0] = me[0] + 1
            if mark:
                return None  # a hit-mark problem: resolve_written_play words it
            continue
        there = 25 - dst
        count = opponent[there]
        if count >= BLOCK:
            return None  # blocked-point
        me[dst] = me[dst] + 1
        if count == 1 and there not in hit:
            hit.append(there)
        elif mark:
            return None  # a hit-mark problem: resolve_written_play words it
    if not hit:
        return tuple(me), opponent
    opp = list(opponent)
    for there in hit:
        opp[there] = 0
    opp[25] = opp[25] + len(hit)
    return tuple(me), tuple(opp)


def sides_after_plain_play(mover: tuple[int, ...], opponent: tuple[int, ...], die1: int,
                           die2: int, text: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The replayer's per-roll path: the sides after the play ``text`` when it is the common
    play that :func:`resolve_written_play` resolves with no problem: one segment per die,
    each one die's step (to a point, or off), legal in the order written with one way of
    giving the segments the dice (die1 to the first, else die2 to the first), every
    written ``*`` on a checker hit there. Every such reading moves the same checkers to the
    same points, so the general path reaches the same sides. Also one segment of a
    non-double that one die only carries, when no play uses more dice
    (:func:`_sides_after_one_step`). None for any other play or
    text: the caller then asks :func:`resolve_written_play` (tests/engine/test_resolve_plain.py
    proves the two equal).

    Unmemoised on purpose: this costs less than building and hashing a memo key of two
    positions, and most rolls of distinct matches would miss the memo anyway.
    """
    segments = notation.plain_segments(text)
    if segments is None:
        return None
    # The count in a variable: ``len(segments) == 4`` would narrow the tuple's type to four
    # items, which the compiled code then unpacks and boxes again for every call.
    count = len(segments)
    if die1 == die2:
        if count != 4:
            return None
        for src, dst, _ in segments:
            if not _fits(src, dst, die1):
                return None
        return _play_segments(mover, opponent, segments, die1, die1)
    if count == 1:
        return _sides_after_one_step(mover, opponent, die1, die2, segments[0])
    if count != 2:
        return None
    src1, dst1, _mark1 = segments[0]
    src2, dst2, _mark2 = segments[1]
    if _fits(src1, dst1, die1) and _fits(src2, dst2, die2):
        sides = _play_segments(mover, opponent, segments, die1, die2)
        if sides is not None:
            return sides
    if _fits(src1, dst1, die2) and _fits(src2, dst2, die1):
        return _play_segments(mover, opponent, segments, die2, die1)
    return None


def _sides_after_one_step(mover: tuple[int, ...], opponent: tuple[int, ...], die1: int,
                          die2: int, segment: tuple[int, int, bool]
                          ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """:func:`sides_after_plain_play` for one segment of a non-double that one die, and only
    one, carries (a roll where only one die can be played: entering from the bar, a
    blocked board): the exact step's sides (:func:`sides_after_steps`, which answers only
    when no play uses more dice or the larger die), its ``*`` on a checker hit there. A
    segment both dice carry (a bear-off) or neither (a checker moving both dice) is left
    to the general path."""
    src, dst, mark = segment
    if _fits(src, dst, die1) == _fits(src, dst, die2):
        return None
    if mark and (dst <= 0 or opponent[25 - dst] != 1):
        return None  # a hit-mark problem: resolve_written_play words it
    return sides_after_steps(mover, opponent, die1, die2, ((src, dst),))


def legal_results(position: Position, die1: int, die2: int) -> dict[Position, Play]:
    """``position.legal_results(die1, die2)``, memoised: the dictionary must not be changed."""
    key = (position.mover, position.opponent, die1, die2)
    legal = _LEGAL.get(key)
    if legal is None:
        legal = _LEGAL.remember(key, position.legal_results(die1, die2))
    return legal


def _resolved(before: Position, d1: int, d2: int, written: WrittenPlay) -> ResolvedPlay:
    """Resolve ``written`` and word its problems (see :data:`ResolvedPlay`)."""
    segments = written.segments
    if len(segments) == (4 if d1 == d2 else 2):
        # resolve_play tries this first too; here it builds no Resolution, Play or Position.
        sides = every_die_as_written(before.mover, before.opponent, d1, d2, segments)
        if sides is not None:
            mover, opponent, steps, hits = sides
            for _, _dst, mark in segments:
                if mark:
                    return mover, opponent, steps, hits, _hit_mark_problems(
                        segments, steps, hits)
            return mover, opponent, steps, hits, ()
        if d1 != d2:
            # resolve_play's next try for two segments, likewise without objects.
            sides = two_checkers_either_die(before.mover, before.opponent, d1, d2, segments)
            if sides is not None:
                mover, opponent, steps, hits = sides
                return mover, opponent, steps, hits, _hit_mark_problems(segments, steps, hits)
    resolution = resolve_play(before, d1, d2, written)
    problems: list[tuple[str, str]] = []
    if resolution.rule is not None:
        problems.append((resolution.rule, resolution.message))
    result = resolution.result
    if result is None:
        return None, (), None, (), tuple(problems)
    play = resolution.play
    if resolution.ambiguous:
        problems.append(("ambiguous-play", (f"{d1}{d2} {written.text} can be played in "
                                            f"several ways; read as {play}")))
    if play is None:
        return result.mover, result.opponent, None, (), tuple(problems)
    if resolution.rule is None:
        problems.extend(_hit_mark_problems(segments, play.steps, play.hits))
    return result.mover, result.opponent, play.steps, play.hits, tuple(problems)


def _hit_mark_problems(segments: Sequence[tuple[int, int, bool]], steps: tuple[Step, ...],
                       hits: tuple[bool, ...]) -> tuple[tuple[str, str], ...]:
    """The ``hit-mark`` problem when a written ``*`` marks a point where nothing is hit."""
    marked = {dst for _, dst, mark in segments if mark}
    if marked:
        hit_points = {dst for (_, dst), hit in zip(steps, hits) if hit}
        unhit = marked - hit_points
        if unhit:
            points = ", ".join(map(str, sorted(unhit)))
            return (("hit-mark", f"'*' after {points} but nothing is hit there"),)
    return ()


def _literal(pos: Position, segments: Sequence[tuple[int, int, bool]]) -> Position | None:
    """Apply written segments literally, ignoring dice and blocks, to carry on after an
    illegal play; None when a segment starts where the mover has no checker."""
    me = list(pos.mover)
    opp = list(pos.opponent)
    for src, dst, _ in segments:
        if not can_carry(me, opp, src, dst):
            return None
        apply_step(me, opp, src, dst)
    return unchecked_position(tuple(me), tuple(opp))
