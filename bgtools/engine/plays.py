"""The typed API of plays: a written play in, a legal :class:`Play` or a typed error out.

Like python-chess's ``Board.parse_san``/``push_san``, over the resolver of
:mod:`bgtools.engine.resolve` (the replayer's reading of written plays). Kept apart from the
resolver, which ``pip install`` compiles with mypyc: compiled functions lose their docstrings
and signatures, and these are part of the library's documented API.
"""

from __future__ import annotations

from bgtools.engine import notation
from bgtools.engine.position import Play, Position, check_dice
from bgtools.engine.resolve import resolve_play
from bgtools.errors import IllegalPlayError, NotationError

__all__ = ["parse_play", "play_text"]


def parse_play(position: Position, die1: int, die2: int, text: str) -> Play:
    """The legal :class:`Play` that ``text`` writes for the mover of ``position`` rolling
    ``die1``/``die2``; like python-chess's ``Board.parse_san``.

    ``text`` is any notation the grammar accepts (docs/library.md): steps one per die or
    merged (``24/13``, ``24/18*/13``), ``bar``/``25`` and ``off``/``0``, repetitions
    (``6/off(2)``), in any order; an empty text (or ``Cannot Move``) when the roll cannot
    be played. A ``*`` is information only: a wrong hit mark is no error. A merged move
    that could be played several ways is read as the replayer reads it (the way whose hits
    agree with the marks, else the one hitting least).

    Raises :class:`~bgtools.errors.NotationError` (with ``column``, 1-based in ``text``)
    when the grammar rejects the text, and :class:`~bgtools.errors.IllegalPlayError` when
    a well-formed play is illegal: its ``rule`` is the replayer's rule id (``no-checker``,
    ``must-enter-bar``, ``blocked-point``, ``bearoff-not-home``, ``bearoff-higher-die``,
    ``dice-mismatch``, ``max-dice``, ``higher-die``, ``empty-play``, ``illegal-play-line``).
    Dice outside 1..6 raise ``ValueError``.

    >>> from bgtools import Position, parse_play
    >>> start = Position.initial()
    >>> parse_play(start, 6, 5, "24/13").steps
    ((24, 18), (18, 13))
    >>> str(parse_play(start, 3, 1, "8/5 6/5"))
    '8/5 6/5'
    >>> parse_play(start, 6, 6, "24/18 24/18 13/7(2)").steps
    ((24, 18), (24, 18), (13, 7), (13, 7))
    >>> parse_play(start, 6, 5, "24/18 6/1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bgtools.errors.IllegalPlayError: 65 played as 24/18 6/1: 6/1: the landing point is held by ...
    >>> parse_play(start, 6, 5, "24/x")
    Traceback (most recent call last):
    ...
    bgtools.errors.NotationError: cannot read the play '24/x'
        24/x
           ^
    """
    return _resolve_text(position, die1, die2, text)[0]


def play_text(position: Position, die1: int, die2: int, text: str) -> Position:
    """Play the written ``text`` (see :func:`parse_play`, which raises the same errors) and
    return the position after it, seen by the opponent (the next player to act), like
    :meth:`Position.play`; python-chess's ``Board.push_san``.

    >>> from bgtools import Position, play_text
    >>> after = play_text(Position.initial(), 3, 1, "8/5 6/5")
    >>> after.opponent[5], after.opponent[8], after.opponent[6]
    (2, 2, 4)
    """
    return _resolve_text(position, die1, die2, text)[1].swapped()


def _resolve_text(position: Position, die1: int, die2: int, text: str) -> tuple[Play, Position]:
    """The play ``text`` writes and the position after it (mover's view), or a typed error."""
    check_dice(die1, die2)
    lead = len(text) - len(text.lstrip())
    try:
        written = notation.parse_play(text)
    except NotationError as exc:
        # The notation reads the stripped text; point the column into the text as given.
        column = exc.column + lead if exc.column else len(text.rstrip()) + 1
        raise NotationError(exc.message, column=column, context=text) from None
    roll = f"{die1}{die2}"
    if written.kind == "resign":
        raise NotationError(f"{written.text!r} marks a resignation, not a play",
                            column=lead + 1, context=text)
    if written.kind == "illegal":
        raise IllegalPlayError(f"{roll} played as {written.text!r}: the text itself marks "
                               "the play as illegal",
                               "illegal-play-line")
    if not written.segments:
        legal = position.legal_results(die1, die2)
        result, sample = next(iter(legal.items()))
        if not sample.steps:
            return sample, result
        if written.kind == "cannot_move":
            raise IllegalPlayError(f"{roll} written as {written.text!r} but it can be played "
                                   f"(e.g. {sample})", "max-dice")
        raise IllegalPlayError(f"{roll} written with no play but it can be played "
                               f"(e.g. {sample})", "empty-play")
    resolution = resolve_play(position, die1, die2, written)
    if resolution.rule is not None or resolution.play is None or resolution.result is None:
        message = resolution.message
        if not message.startswith(f"{roll} "):
            message = f"{roll} played as {written.text}: {message}"
        raise IllegalPlayError(message, resolution.rule or "dice-mismatch")
    return resolution.play, resolution.result
