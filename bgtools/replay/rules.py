"""The rules a replay checks: the house rules of the sites (:class:`RuleProfile`,
:data:`PROFILES`), with the choice of a profile for a file (:func:`profile_for`), and the
severity of a problem (:func:`severity_of`, from the rule table :data:`bgtools.rules.RULES`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Literal

from bgtools.dataclass_methods import fields_eq, fields_hash, fields_reduce, fields_repr
from bgtools.record import MatchRecord, Severity
from bgtools.rules import RULES

__all__ = [
    "PROFILES",
    "PROFILE_NAMES",
    "STUDIO_FORFEIT_FACTOR",
    "CubeRule",
    "ResignationRule",
    "RuleProfile",
    "crawford_can_apply",
    "is_money_session",
    "is_xg_dialect",
    "states_no_crawford",
    "profile_for",
    "profile_to_state",
    "severity_of",
    "site_profile_name",
    "stated_profile_name",
]

def severity_of(rule: str) -> Severity:
    """The severity of a problem under ``rule`` (an error for an id not in the table)."""
    known = RULES.get(rule)
    return Severity.ERROR if known is None else Severity(known.severity)


ResignationRule = Literal["game", "game-or-match", "match", "match-at-cube"]
"""What a resignation is worth in match play.

``game``: 1, 2 or 3 times the cube (the rules of backgammon). ``game-or-match``: that, or the
points the winner still needs (a resignation of the whole match). ``match``: resigning ends
the match and the winner gets the points still needed. ``match-at-cube``: resigning ends the
match; the winner is credited with the game's points at the cube (1, 2 or 3 times it), and
the match is over even when that falls short of its length.
"""


CubeRule = Literal["on", "off", "min3"]
"""When the cube is in use: always, never, or only in matches of 3 points or more."""


# Its methods are written, and its fields Final, as bgtools.engine.notation's (see there).
@dataclass(slots=True, init=False, repr=False, eq=False)
class RuleProfile:
    """Site-dependent rules: Crawford, cube use, Jacoby, beavers, resignations, lengths.

    ``money_sessions``: the site heads its one-game money sessions with a nominal length
    (Backgammon Galaxy, :func:`is_money_session`); ``money_session``: this file is one, so it
    is replayed as money play (set by :func:`profile_for`). ``lengths``: the match lengths the
    site offers (None: any); another length is a ``match-length`` warning. ``forfeit_factor``:
    a site's forfeit marker, a ``Wins N`` of exactly this many times the cube after a
    resignation (read as a resignation of the match).
    ``wins_at_length``: the site writes the match length as the ``Wins N`` of the game that
    ends the match; ``resign_at_length``: so it does for a resignation that ends the match.
    """

    name: Final[str]
    crawford: Final[bool]
    cube: Final[CubeRule]
    jacoby: Final[bool | None]  # None: unknown, accept results with or without it
    beavers: Final[bool]
    resignation: Final[ResignationRule]
    money_sessions: Final[bool]
    money_session: Final[bool]
    lengths: Final[frozenset[int] | None]
    forfeit_factor: Final[int | None]
    wins_at_length: Final[bool]
    resign_at_length: Final[bool]

    def __init__(self, name: str, crawford: bool = True, cube: CubeRule = "on",
                 jacoby: bool | None = None, beavers: bool = True,
                 resignation: ResignationRule = "game", money_sessions: bool = False,
                 money_session: bool = False, lengths: frozenset[int] | None = None,
                 forfeit_factor: int | None = None, wins_at_length: bool = False,
                 resign_at_length: bool = False) -> None:
        self.name = name
        self.crawford = crawford
        self.cube = cube
        self.jacoby = jacoby
        self.beavers = beavers
        self.resignation = resignation
        self.money_sessions = money_sessions
        self.money_session = money_session
        self.lengths = lengths
        self.forfeit_factor = forfeit_factor
        self.wins_at_length = wins_at_length
        self.resign_at_length = resign_at_length

    def __repr__(self) -> str:
        return fields_repr(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented  # as generated (and mypyc's bool return allows it here)
        return fields_eq(self, other)

    def __hash__(self) -> int:
        return fields_hash(self)

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return fields_reduce(self)  # a compiled class pickles through its __init__

    @property
    def match_resignation(self) -> bool:
        """True when a resignation may be credited with the points the winner still needs."""
        return self.resignation in ("game-or-match", "match")

    def cube_in_use(self, match_length: int) -> bool:
        """True when the cube may be turned in a match of ``match_length`` (0: money)."""
        return not (self.cube == "off" or (self.cube == "min3" and 0 < match_length < 3))


STUDIO_FORFEIT_FACTOR = 1004
"""Backgammon Studio ends a match that a player abandons with ``DD: ????`` and then
``Wins N`` where N is 1004 times the cube (4016 at 4, 1004 at 1): no game is worth that, so
it is read as the forfeit of the match (see docs/house-rules.md, "Site dialects")."""

PROFILES: dict[str, RuleProfile] = {
    "standard": RuleProfile("standard"),
    "nocube": RuleProfile("nocube", cube="off"),
    "cube3": RuleProfile("cube3", cube="min3"),
    "match-resign": RuleProfile("match-resign", resignation="game-or-match"),
    # A match played without the Crawford rule (GNU Backgammon's 'set automatic crawford
    # off'): its .mat export cannot say so, and a [Crawford "Off"] tag does the same.
    "nocrawford": RuleProfile("nocrawford", crawford=False),
    # Backgammon Galaxy: a resignation may give the points still needed (match1988690: Wins 4
    # at 2-1 of 5, cube 1); its money sessions are headed with an even nominal length.
    "galaxy": RuleProfile("galaxy", resignation="game-or-match", wins_at_length=True,
                          money_sessions=True),
    # eXtreme Gammon's .mat export: the rules of backgammon; a resignation that ends the
    # match may be written as the match length (Moriuchi-Kawauchi 2022: 'Wins 9' at 7-7).
    "xg": RuleProfile("xg", resign_at_length=True),
    # Backgammon Studio: the rules of backgammon, plus its forfeit marker.
    "studio": RuleProfile("studio", forfeit_factor=STUDIO_FORFEIT_FACTOR),
    # MeGammon: ranked 1, 3, 5, 7; friendly 1 to 13, with or without the cube; resigning ends
    # the match with the points still needed; no beavers and no Jacoby in match play.
    "megammon": RuleProfile("megammon", resignation="match", beavers=False,
                            lengths=frozenset(range(1, 14))),
    # Piece of Cake: a single game or a match to 3, 5 or 7; resigning or leaving ends the
    # match, the winner credited with the game's points at the cube; Crawford applies.
    "pieceofcake": RuleProfile("pieceofcake", resignation="match-at-cube",
                               lengths=frozenset({0, 1, 3, 5, 7})),
}
"""The rule profiles selectable with ``--rules`` (``auto``, the default, picks one per file)."""

PROFILE_NAMES = ("auto", *PROFILES)
"""Every value ``--rules`` takes."""

_SITE_PROFILES = (
    ("backgammongalaxy", "galaxy"), ("backgammon galaxy", "galaxy"),
    ("backgammon studio", "studio"), ("backgammonstudio", "studio"),
    ("megammon", "megammon"), ("piece of cake", "pieceofcake"), ("pieceofcake", "pieceofcake"),
)


def site_profile_name(record: MatchRecord) -> str:
    """The profile ``--rules auto`` picks for ``record``: the site named by its ``Site``
    header tag (SGF: ``PC``, read as ``Place``) when bgtools knows its house rules; else
    ``xg`` for eXtreme Gammon's dialect (:func:`is_xg_dialect`); else ``standard``."""
    stated = stated_profile_name(record)
    if stated is not None:
        return stated
    site = _site_profile(record)
    if site is not None:
        return site
    if is_xg_dialect(record):
        return "xg"
    return "standard"


def _site_profile(record: MatchRecord) -> str | None:
    site = record.tag("Site") or record.tag("Place")
    if site is not None:
        wanted = " ".join(site.lower().split())
        for needle, name in _SITE_PROFILES:
            if needle in wanted:
                return name
    return None


def stated_profile_name(record: MatchRecord) -> str | None:
    """The profile named by the record's ``Rules`` header tag (what bgtools writes when a
    file was converted under a profile its copy could not otherwise show, SGF ``HR``), when
    it is one of :data:`PROFILES`; else None."""
    tag = record.tag("Rules")
    if tag is None:
        return None
    name = tag.strip().lower()
    return name if name in PROFILES else None


def profile_to_state(record: MatchRecord, profile: RuleProfile) -> str | None:
    """The profile name a written copy of ``record`` replayed under ``profile`` must state
    in a ``Rules`` tag so that ``--rules auto`` replays the copy the same way: None when the
    profile is ``standard`` or the copy's ``Site`` tag picks it already. (A ``.mat`` or SGF
    copy's plays are written in gnubg's way, so eXtreme Gammon's dialect, which picks ``xg``,
    is not seen in it; a JSON copy keeps the play text and states ``xg`` all the same.)"""
    if profile.name == "standard" or _site_profile(record) == profile.name:
        return None
    return profile.name


def is_xg_dialect(record: MatchRecord) -> bool:
    """True when a game of the record writes plays in eXtreme Gammon's own way, with a
    capitalised ``Bar`` or ``Off`` (``Bar/24``, ``6/Off``): no other producer in the corpus
    does (its ``Site`` tag names the venue, not the program). Any game, as the one whose
    resignation the dialect explains may end before a chequer enters or bears off."""
    for game in record.games:
        for action in game.actions:
            text = action.play_text
            if text and ("Off" in text or "Bar/" in text):
                return True
    return False


def is_money_session(record: MatchRecord) -> bool:
    """A Backgammon Galaxy money session: one game under an even nominal length of 4 or
    more (Galaxy heads its sessions ``16 point match``, also 4 and 8; the length is never
    reached and an uncubed gammon is worth 1, the Jacoby rule of money play)."""
    length = record.match_length or 0
    return len(record.games) == 1 and length >= 4 and length % 2 == 0


def crawford_can_apply(length: int) -> bool:
    """True when a match of ``length`` points can have a Crawford game: 2 points or more (in
    a 1-point match both players start 1-away, and a money session has no length), so only
    there does a match with the rule off differ from one with it on."""
    return length >= 2


def states_no_crawford(record: MatchRecord) -> bool:
    """True when the record's header says its match has no Crawford rule
    (``[Crawford "Off"]``)."""
    tag = record.tag("Crawford")
    return tag is not None and tag.strip().lower() == "off"


def profile_for(record: MatchRecord, name: str = "auto") -> RuleProfile:
    """The profile ``name`` refined by the file's header tags (Crawford, CubeLimit, Jacoby,
    Beaver); ``auto`` first picks the site's profile (:func:`site_profile_name`)."""
    if name == "auto":
        name = site_profile_name(record)
    base = PROFILES[name]
    crawford = base.crawford
    cube: CubeRule = base.cube
    jacoby = base.jacoby
    beavers = base.beavers
    if states_no_crawford(record):
        crawford = False
    tag = record.tag("CubeLimit")
    if tag is not None and tag.strip() == "1":
        cube = "off"
    tag = record.tag("Jacoby")
    if tag is not None:
        jacoby = tag.strip().lower() == "on"
    tag = record.tag("Beaver")
    if tag is not None:
        beavers = tag.strip().lower() == "on"
    session = base.money_sessions and is_money_session(record)
    key = (name, crawford, cube, jacoby, beavers, session)
    refined = _REFINED.get(key)
    if refined is None:
        refined = replace(base, crawford=crawford, cube=cube, jacoby=jacoby,
                          beavers=beavers, money_session=session)
        _REFINED[key] = refined
    return refined


_REFINED: dict[tuple[str, bool, CubeRule, bool | None, bool, bool], RuleProfile] = {}
"""The profiles :func:`profile_for` made, by what refined them (a few dozen at most:
``dataclasses.replace`` costs more than the rest of choosing a file's profile)."""
