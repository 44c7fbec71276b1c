"""What the data commands know of a match besides its actions: its context (players,
length, event, site, date, ratings ...), its fingerprint, and the filters that pick matches.

:func:`match_context` gathers a replayed match's context once, for every row of every table
of ``export`` and for the filters of ``stats``, ``standings`` and ``export``.
:func:`fingerprint` names the *played content* of a match (the dice, plays and cube actions
of its games, and its length), not its bytes: the same match read from a ``.mat`` and from
its ``.sgf`` twin, or one file copied into two folders, has one fingerprint, and the data
commands count it once (:class:`Seen`). :class:`MatchFilter` is ``--player``, ``--event``,
``--site``, ``--since``/``--until`` and ``--aliases``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

from bgtools.record import is_unnamed, shown_names
from bgtools.replay import Event, MatchReplay

__all__ = [
    "CRAWFORD_STATES",
    "CUBE_ACTIONS",
    "MatchContext",
    "MatchFilter",
    "Seen",
    "crawford_state",
    "fingerprint",
    "match_context",
    "parse_date",
    "read_aliases",
]

CRAWFORD_STATES = ("money", "normal", "crawford", "post-crawford")
"""A game's place in the Crawford rule (``crawford_state``): a money game; a match game
before the Crawford game (or in a match without the rule); the Crawford game; after it."""

CUBE_ACTIONS = frozenset(("double", "take", "drop", "beaver", "raccoon"))
"""The events that change or answer the cube (with the moves: the played content)."""

_DATE_RE = re.compile(r"\s*([0-9]{4})[-./]([0-9]{1,2})[-./]([0-9]{1,2})")
_TIME_RE = re.compile(r"\s*([0-9]{1,2})[:.h]([0-9]{2})(?::([0-9]{2}))?")


def parse_date(text: str | None) -> dt.date | None:
    """The date at the start of ``text`` (``2026.01.13``, ``2026-01-13``, ``2026/1/13``),
    or None when there is none or it is no calendar date."""
    if not text:
        return None
    found = _DATE_RE.match(text)
    if found is None:
        return None
    try:
        return dt.date(int(found.group(1)), int(found.group(2)), int(found.group(3)))
    except ValueError:
        return None


def parse_time(text: str | None) -> dt.time | None:
    """The time of day at the start of ``text`` (``14:30``, ``14:30:05``), or None."""
    if not text:
        return None
    found = _TIME_RE.match(text)
    if found is None:
        return None
    try:
        return dt.time(int(found.group(1)), int(found.group(2)), int(found.group(3) or 0))
    except ValueError:
        return None


def crawford_state(length: int, crawford: bool, post_crawford: bool) -> str:
    """The game's value of :data:`CRAWFORD_STATES`."""
    if not length:
        return "money"
    if crawford:
        return "crawford"
    return "post-crawford" if post_crawford else "normal"


def fingerprint(replay: MatchReplay, events: list[Event], where: str = "") -> str:
    """The fingerprint of the played content of a match: its length and, game by game, every
    move (dice, higher first, and the board after it) and cube action, in order
    (16 hex digits of SHA-256). Names, tags, comments, the file's format, the side each
    player is written on and how a game's end is written are left out, so two records of one
    match have one fingerprint and two different matches (practically) never do. A match
    without a single roll has no played content to recognise: ``where`` (its file and
    number) names it instead, so it is never taken for another."""
    digest = hashlib.sha256(f"{replay.match_length}".encode())
    game = 0
    rolled = False
    for event in events:
        if event.game != game:
            game = event.game
            digest.update(b"|G")
        if event.action == "move":
            dice = event.dice
            if dice is None:
                continue
            rolled = True
            digest.update(f";{max(dice)}{min(dice)}:".encode())
            after = event.position_after
            if after is not None:  # the board after the play: how the play is written varies
                digest.update(bytes(after.mover) + bytes(after.opponent))
        elif event.action in CUBE_ACTIONS:
            digest.update(f";{event.action}".encode())
    if not rolled:
        digest.update(f"|unplayed|{where}".encode())
    return digest.hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class MatchContext:
    """One replayed match as every table of ``export`` and the filters see it.

    ``match`` is its 1-based index in the file (as ``score --json``); ``names`` the players
    as the data commands add them up (aliases applied; a player the file does not name is
    ``player 1 (FILE)``); ``length`` 0 for money; ``date``/``time`` from the header tags;
    ``ratings`` where the file states them; ``rules`` the rule profile of the replay;
    ``producer`` the program that wrote the file where it says so."""

    file: str
    match: int
    fingerprint: str
    names: tuple[str, str]
    length: int
    event: str | None
    site: str | None
    date: dt.date | None
    time: dt.time | None
    round: str | None
    match_id: str | None
    ratings: tuple[float | None, float | None]
    rules: str
    producer: str | None
    format: str

    @property
    def year(self) -> int | None:
        """The year of the match's date (a partition of the dataset), or None."""
        return self.date.year if self.date is not None else None


def _tag(replay: MatchReplay, *names: str) -> str | None:
    for name in names:
        value = replay.record.tag(name)
        if value is not None and value.strip():
            return value.strip()
    return None


def match_context(replay: MatchReplay, events: list[Event], display: str, match: int,
                  aliases: dict[str, str] | None = None) -> MatchContext:
    """The context of ``replay`` (its events ``events``), match number ``match`` (1-based)
    of the file ``display``."""
    names = shown_names(replay.names)
    keys = tuple(f"{name} ({display})" if is_unnamed(replay.names, side) else
                 (aliases or {}).get(name, name) for side, name in enumerate(names))
    producer = replay.record.extra.get("application")
    return MatchContext(
        file=display, match=match,
        fingerprint=fingerprint(replay, events, f"{display}\0{match}"),
        names=(keys[0], keys[1]), length=replay.match_length,
        event=_tag(replay, "Event"), site=_tag(replay, "Site", "Place"),
        date=parse_date(_tag(replay, "EventDate", "Date")),
        time=parse_time(_tag(replay, "EventTime", "Time")),
        round=_tag(replay, "Round"), match_id=_tag(replay, "Match ID"),
        ratings=replay.record.ratings, rules=replay.profile.name,
        producer=producer if isinstance(producer, str) and producer else None,
        format=replay.record.format)


@dataclass(frozen=True, slots=True)
class MatchFilter:
    """The matches a data command keeps: ``players`` (any one of them plays; names after
    ``aliases``), ``event`` and ``site`` (shell patterns, case-insensitive), a date range
    ``since``..``until`` (inclusive; a match without a date is left out by either).
    ``aliases`` maps each alias to the one name the player is counted under."""

    players: tuple[str, ...] = ()
    event: str | None = None
    site: str | None = None
    since: dt.date | None = None
    until: dt.date | None = None
    aliases: dict[str, str] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        """True when some match may be left out."""
        return bool(self.players or self.event or self.site or self.since or self.until)

    def keeps(self, context: MatchContext) -> bool:
        """True when the match of ``context`` passes every filter."""
        if self.players:
            wanted = {self.aliases.get(p, p) for p in self.players}
            if not wanted.intersection(context.names):
                return False
        for pattern, value in ((self.event, context.event), (self.site, context.site)):
            if pattern is not None and not fnmatchcase((value or "").lower(), pattern.lower()):
                return False
        if self.since is not None or self.until is not None:
            if context.date is None:
                return False
            if self.since is not None and context.date < self.since:
                return False
            if self.until is not None and context.date > self.until:
                return False
        return True


def read_aliases(path: Path) -> dict[str, str]:
    """The aliases of ``--aliases FILE``: a line ``NAME = ALIAS, ALIAS ...`` counts every
    alias as NAME; blank lines and ``#`` comments are ignored. Raise ValueError, naming the
    line, for a line without ``=`` or an alias given two names."""
    aliases: dict[str, str] = {}
    text = path.read_text(encoding="utf-8-sig")
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, rest = line.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ValueError(f"{path}:{number}: expected NAME = ALIAS, ALIAS ...")
        for alias in (a.strip() for a in rest.split(",")):
            if not alias:
                continue
            if aliases.get(alias, name) != name:
                raise ValueError(f"{path}:{number}: {alias!r} is already an alias of "
                                 f"{aliases[alias]!r}")
            aliases[alias] = name
    return aliases


class Seen:
    """The fingerprints met so far in a run, in input order: the first match of each is
    counted; a later one is a duplicate of it (:meth:`first`)."""

    __slots__ = ("duplicates", "firsts")

    def __init__(self) -> None:
        self.firsts: dict[str, tuple[str, int]] = {}
        self.duplicates = 0

    def first(self, print_: str, file: str, match: int) -> tuple[str, int] | None:
        """None for a fingerprint not met before (now remembered as ``file``, ``match``);
        else the file and match it was first met in (counted as a duplicate)."""
        known = self.firsts.get(print_)
        if known is None:
            self.firsts[print_] = (file, match)
            return None
        self.duplicates += 1
        return known
