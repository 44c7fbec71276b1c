"""The strict replayer: walk a :class:`~bgtools.record.MatchRecord` game by game and check
every roll, play, cube action, result and score line against the rules of backgammon.

Forgiving by design: every problem is collected (with a stable rule id, line and column)
and the replay carries on from the position as written wherever it can, so one bad row
does not cascade into fifty errors. See ``RULES`` for every rule id.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Literal

from bgtools.engine import ids
from bgtools.errors import NotationError
from bgtools.engine.notation import WrittenPlay, parse_play
from bgtools.engine.position import (
    Play,
    Position,
    Step,
    apply_step,
    step_error,
    unchecked_position,
)
from bgtools.record import Action, GameRecord, MatchRecord, Problem, SetUp, Severity
from bgtools.engine.resolve import (
    check_maximal,
    every_die_as_written,
    resolve_play,
    two_checkers_either_die,
)

__all__ = [
    "RULES",
    "RuleProfile",
    "PROFILES",
    "PROFILE_NAMES",
    "ResignationRule",
    "STUDIO_FORFEIT_FACTOR",
    "is_money_session",
    "is_xg_dialect",
    "site_profile_name",
    "profile_for",
    "Event",
    "GameSummary",
    "MatchReplay",
    "replay_match",
]

RULES: dict[str, str] = {
    "syntax": "a line of the file cannot be read",
    "notation": "a play is written in a notation that cannot be read",
    "opening-double": "the opening roll of a game cannot be a double",
    "turn-order": "the players must alternate: this action is by the wrong player",
    "dice-mismatch": "the moves written do not match the dice rolled",
    "no-checker": "a move starts from a point where the mover has no checker",
    "blocked-point": "a move lands on a point held by two or more opposing checkers",
    "must-enter-bar": "a player with a checker on the bar must enter it before moving others",
    "bearoff-not-home": "bearing off is allowed only with every checker in the home board",
    "bearoff-higher-die": "a die larger than needed bears off only from the highest point",
    "max-dice": "a play must use as many dice as possible",
    "higher-die": "when only one die can be played, the larger one must be played",
    "empty-play": "a roll is written with no play although a legal play exists",
    "forced-play-omitted": "a roll with exactly one legal play was written with no play (warning)",
    "ambiguous-play": "a merged move could be played in several ways (warning)",
    "hit-mark": "a hit mark '*' disagrees with the position (warning)",
    "illegal-play-line": "the record itself marks a play as illegal (warning)",
    "cube-timing": "the cube may be turned only by the player on roll, before rolling",
    "cube-not-owner": "the cube may be turned only by its owner or while it is centred",
    "cube-value": "the value in 'Doubles => V' must be twice the current cube",
    "cube-disabled": "the cube is not in use under these rules",
    "cube-dead": "a double with the cube already dead (doubler's score plus cube reaches the length) (warning)",
    "crawford-double": "no doubling in the Crawford game",
    "crawford-unknown": "a double in the first game of a file that starts with a player 1-away: it cannot be told whether that game is the Crawford game (warning)",
    "cube-answer": "a take, drop or beaver must answer a double",
    "cube-unanswered": "a double must be answered before play goes on",
    "beaver-not-allowed": "beavers only in money play where the rules allow them",
    "action-after-end": "nothing may follow the end of a game but its result",
    "wins-mismatch": "the 'Wins N' points differ from the game's result",
    "resign-value": "a resignation must be worth 1, 2 or 3 times the cube",
    "match-resignation": "the match was resigned: the winner got the points still needed (note)",
    "forfeit": "the site's forfeit marker ('Wins' 1004 times the cube, Backgammon Studio): the match is read as resigned (warning)",
    "match-length": "the site does not offer matches of this length (warning)",
    "game-unfinished": "a game stops before it is over while later games follow",
    "score-mismatch": "a game's score line differs from the running score",
    "game-after-match": "a game follows the end of the match",
    "match-incomplete": "the match stops before a player reached the match length (warning)",
    "game-number": "games are not numbered on from the first game: 1, 2, 3 ... (warning)",
    "no-games": "the file holds no game",
    "sgf-setup-invalid": "an SGF set-up node (AE/AW/AB, PL, CV, CP) gives no valid position or cube",
    "encoding-assumed": "the file is not UTF-8: it was read as cp1252 (else latin-1) (warning)",
}
"""Every rule id the replayer reports, with a one-line description."""

_WARNINGS = {
    "forced-play-omitted", "ambiguous-play", "hit-mark", "illegal-play-line", "cube-dead",
    "match-incomplete", "game-number", "match-resignation", "encoding-assumed",
    "crawford-unknown", "match-length", "forfeit",
}


_KnownPlay = tuple[
    tuple[int, ...] | None, tuple[int, ...], tuple[Step, ...] | None, tuple[bool, ...],
    tuple[tuple[str, str], ...],
]
"""A written play resolved, as plain tuples: the sides of the result (mover's view; the
mover's side None when the play cannot be applied), the play's steps (None when there is
no play) and hits, and its problems ``(rule, message)``. Tuples of numbers and strings only,
so the cyclic garbage collector stops tracking the entries of :data:`_RESOLVED` (it would
otherwise rescan hundreds of thousands of Position and Play objects on a large archive)."""

_RESOLVED: dict[tuple[tuple[int, ...], tuple[int, ...], int, int, str], _KnownPlay] = {}
"""Resolved plays by (position, dice, play text as written): the same play from the same
position recurs across the games of an archive (openings, replies, copies), and everything
in a _KnownPlay is immutable and depends on nothing else."""
_RESOLVED_MAX = 1 << 17
"""Entries kept before _RESOLVED starts afresh, so memory stays bounded on any archive."""

_LEGAL: dict[tuple[tuple[int, ...], tuple[int, ...], int, int], dict[Position, Play]] = {}
"""Legal results by (position, dice) for rolls written without a play (read only)."""
_LEGAL_MAX = 1 << 12
"""Entries kept in _LEGAL: each holds every legal result of a roll, so far fewer."""


def _remember(key: tuple[tuple[int, ...], tuple[int, ...], int, int, str],
              known: _KnownPlay) -> None:
    """Keep a resolved play in _RESOLVED, starting afresh when it is full."""
    if len(_RESOLVED) >= _RESOLVED_MAX:
        _RESOLVED.clear()
    _RESOLVED[key] = known


def _resolved_play(before: Position, d1: int, d2: int, written: WrittenPlay) -> _KnownPlay:
    """Resolve ``written`` and word its problems (see :data:`_KnownPlay`)."""
    segments = written.segments
    if len(segments) == (4 if d1 == d2 else 2):
        # resolve_play tries this first too; here it builds no Resolution, Play or Position.
        sides = every_die_as_written(before.mover, before.opponent, d1, d2, segments)
        if sides is not None:
            mover, opponent, steps, hits = sides
            for _, dst, mark in segments:
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


def _hit_mark_problems(segments: tuple[tuple[int, int, bool], ...], steps: tuple[Step, ...],
                       hits: tuple[bool, ...]) -> tuple[tuple[str, str], ...]:
    """The ``hit-mark`` problem when a written ``*`` marks a point where nothing is hit."""
    marked = {dst for _, dst, mark in segments if mark}
    if marked:
        hit_points = {dst for (_, dst), hit in zip(steps, hits) if hit}
        extra = marked - hit_points
        if extra:
            points = ", ".join(map(str, sorted(extra)))
            return (("hit-mark", f"'*' after {points} but nothing is hit there"),)
    return ()


def _legal_results(pos: Position, d1: int, d2: int) -> dict[Position, Play]:
    """``pos.legal_results(d1, d2)``, memoised (the dictionary must not be changed)."""
    key = (pos.mover, pos.opponent, d1, d2)
    legal = _LEGAL.get(key)
    if legal is None:
        legal = pos.legal_results(d1, d2)
        if len(_LEGAL) >= _LEGAL_MAX:
            _LEGAL.clear()
        _LEGAL[key] = legal
    return legal


ResignationRule = Literal["game", "game-or-match", "match", "match-at-cube"]
"""What a resignation is worth in match play.

``game``: 1, 2 or 3 times the cube (the rules of backgammon). ``game-or-match``: that, or the
points the winner still needs (a resignation of the whole match). ``match``: resigning ends
the match and the winner gets the points still needed. ``match-at-cube``: resigning ends the
match; the winner is credited with the game's points at the cube (1, 2 or 3 times it), and
the match is over even when that falls short of its length.
"""


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """Site-dependent rules: Crawford, cube use, Jacoby, beavers, resignations, lengths.

    ``money_sessions``: the site heads its one-game money sessions with a nominal length
    (Backgammon Galaxy, :func:`is_money_session`); ``money_session``: this file is one, so it
    is replayed as money play (set by :func:`profile_for`). ``lengths``: the match lengths the site offers (None: any); another length is a
    ``match-length`` warning. ``forfeit_factor``: a site's forfeit marker, a ``Wins N`` of
    exactly this many times the cube after a resignation (read as a resignation of the match).
    ``wins_at_length``: the site writes the match length as the ``Wins N`` of the game that
    ends the match; ``resign_at_length``: so it does for a resignation that ends the match.
    """

    name: str
    crawford: bool = True
    cube: str = "on"  # "on", "off", or "min3" (the cube is used only in matches of 3+)
    jacoby: bool | None = None  # None: unknown, accept results with or without it
    beavers: bool = True
    resignation: ResignationRule = "game"
    money_sessions: bool = False
    money_session: bool = False
    lengths: frozenset[int] | None = None
    forfeit_factor: int | None = None
    wins_at_length: bool = False
    resign_at_length: bool = False

    @property
    def match_resignation(self) -> bool:
        """True when a resignation may be credited with the points the winner still needs."""
        return self.resignation in ("game-or-match", "match")


STUDIO_FORFEIT_FACTOR = 1004
"""Backgammon Studio ends a match that a player abandons with ``DD: ????`` and then
``Wins N`` where N is 1004 times the cube (4016 at 4, 1004 at 1): no game is worth that, so
it is read as the forfeit of the match (see README, "How site files are read")."""

PROFILES: dict[str, RuleProfile] = {
    "standard": RuleProfile("standard"),
    "nocube": RuleProfile("nocube", cube="off"),
    "cube3": RuleProfile("cube3", cube="min3"),
    "match-resign": RuleProfile("match-resign", resignation="game-or-match"),
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
    site = record.tag("Site") or record.tag("Place")
    if site is not None:
        wanted = " ".join(site.lower().split())
        for needle, name in _SITE_PROFILES:
            if needle in wanted:
                return name
    if is_xg_dialect(record):
        return "xg"
    return "standard"


def is_xg_dialect(record: MatchRecord) -> bool:
    """True when the record's last game writes plays in eXtreme Gammon's own way, with a
    capitalised ``Bar`` or ``Off`` (``Bar/24``, ``6/Off``): no other producer in the corpus
    does (its ``Site`` tag names the venue, not the program)."""
    if not record.games:
        return False
    return any("Off" in a.play_text or "Bar/" in a.play_text
               for a in record.games[-1].actions if a.play_text)


def is_money_session(record: MatchRecord) -> bool:
    """A Backgammon Galaxy money session: one game under an even nominal length of 4 or
    more (Galaxy heads its sessions ``16 point match``, also 4 and 8; the length is never
    reached and an uncubed gammon is worth 1, the Jacoby rule of money play)."""
    length = record.match_length or 0
    return len(record.games) == 1 and length >= 4 and length % 2 == 0


def profile_for(record: MatchRecord, name: str = "auto") -> RuleProfile:
    """The profile ``name`` refined by the file's header tags (Crawford, CubeLimit, Jacoby,
    Beaver); ``auto`` first picks the site's profile (:func:`site_profile_name`)."""
    if name == "auto":
        name = site_profile_name(record)
    base = PROFILES[name]
    crawford = base.crawford
    cube = base.cube
    jacoby = base.jacoby
    beavers = base.beavers
    tag = record.tag("Crawford")
    if tag is not None and tag.strip().lower() == "off":
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
    return replace(base, crawford=crawford, cube=cube, jacoby=jacoby, beavers=beavers,
                   money_session=session)


@dataclass(slots=True)
class Event:
    """One replayed action, with the state before it (for ``replay --jsonl``)."""

    game: int
    index: int
    line: int | None
    player: int
    action: str
    dice: tuple[int, int] | None
    play: Play | None
    position_before: Position
    state_before: ids.MatchState
    position_after: Position | None = None
    source: Action | None = None
    """The record's cell this event replays (writers need its text and properties)."""

    def action_fields(self) -> dict[str, object]:
        """The action as JSON fields, in the contract's order: index, line, player, action,
        dice, (for moves) the canonical play and its steps, the Position ID and Match ID
        before it (``""`` for a state no Match ID can hold, such as a cube beyond 2**15)."""
        fields: dict[str, object] = {
            "index": self.index,
            "line": self.line,
            "player": self.player,
            "action": self.action,
            "dice": list(self.dice) if self.dice else None,
        }
        if self.action == "move":
            play = self.play
            fields["play"] = str(play) if play is not None else None
            fields["steps"] = [list(s) for s in play.steps] if play is not None else None
        fields["position_id_before"] = self.position_before.position_id
        try:
            fields["match_id_before"] = ids.encode_match_id(self.state_before)
        except ids.IdError:
            fields["match_id_before"] = ""
        return fields


@dataclass(slots=True)
class GameSummary:
    """What happened in one game (the contract's ``score`` game object)."""

    number: int
    line: int | None
    score_before: tuple[int, int]
    crawford: bool
    post_crawford: bool
    winner: int | None = None
    points: int | None = None
    cube: int = 1
    result: str | None = None
    ended_by: str | None = None
    rolls: int = 0
    actions: int = 0
    final_position: Position | None = None
    final_on_roll: int | None = None

    def score_fields(self, match_length: int) -> dict[str, object]:
        """The contract's ``score`` game object (``match_length`` 0: money, never Crawford)."""
        return {
            "number": self.number,
            "score_before": list(self.score_before),
            "crawford": bool(self.crawford) if match_length else False,
            "winner": self.winner if self.ended_by is not None else None,
            "points": self.points,
            "cube": self.cube,
            "result": self.result,
            "ended_by": self.ended_by,
        }


@dataclass(slots=True)
class MatchReplay:
    """The outcome of replaying a record: per-game summaries, problems, the final score."""

    record: MatchRecord
    profile: RuleProfile
    match_length: int
    names: tuple[str, str] | None
    games: list[GameSummary] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    final_score: tuple[int, int] = (0, 0)
    complete: bool = False
    winner: int | None = None
    rolls: int = 0

    @property
    def valid(self) -> bool:
        """True when no problem is an error."""
        return not any(p.severity is Severity.ERROR for p in self.problems)


class _Game:
    """Mutable state of the game being replayed."""

    def __init__(self, number: int, score: tuple[int, int], crawford: bool, length: int,
                 jacoby: bool) -> None:
        self.number = number
        self.score = score
        self.crawford = crawford
        # The file starts in the middle of a match with a player 1-away: this game may be
        # the Crawford game or come after it (set by the match loop).
        self.crawford_unknown = False
        self.length = length
        self.jacoby = jacoby
        # ``position`` is seen from ``on_roll``; None until the first roll tells who opened.
        self.position = Position.initial()
        self.on_roll: int | None = None
        self.cube = 1
        self.cube_owner: int | None = None
        self.cube_turned = False
        self.pending: tuple[int, int] | None = None  # (doubler, offered value)
        self.beavered_by: int | None = None
        self.over: str | None = None  # "bearoff", "drop", "resign"
        self.winner: int | None = None
        self.value = 0  # 1/2/3 for bear-off and resignation
        self.points = 0
        self.rolls = 0
        self.synced = True  # False after a play that could not be applied at all
        self.events = 0
        self.resign_open = False  # a resignation whose level a later 'Wins N' gives
        # The last roll, when it was not played (rolled, then resigned): (player, dice, before).
        self.unplayed: tuple[int, tuple[int, int], Position] | None = None
        # The player who wrote a resignation after rolling (``DD: ????``, ``DD: Concedes``).
        self.resign_marked_by: int | None = None
        # The resignation: (resigner, its record cell, position and state before it); its
        # events are emitted once the game's level is final (an SGF 'RE' gives it after).
        self.resigned: tuple[int, Action, Position, ids.MatchState] | None = None
        # After an SGF set-up node: no opening roll rules, and the next actor is on roll
        # (gnubg's 'set turn' after 'set board' leaves no trace in the SGF it saves).
        self.set_up = False
        self.turn_open = False
        self.setup_next = False  # a set-up node follows the action being replayed

    def next_index(self) -> int:
        """The 0-based index of the next event of this game."""
        self.events += 1
        return self.events - 1

    def state(self, actor: int, *, dice: tuple[int, int] | None = None,
              doubled: bool = False, turn: int | None = None) -> ids.MatchState:
        return ids.MatchState(
            match_length=self.length,
            score=self.score,  # gnubg: a money session's IDs carry its running score
            cube_value=self.cube,
            cube_owner=self.cube_owner,
            on_roll=actor,
            crawford=self.crawford,
            game_state=ids.GameState.PLAYING,
            turn=actor if turn is None else turn,
            doubled=doubled,
            dice=dice,
            jacoby=self.jacoby,
        )

    def resignation(self, resigner: int, action: Action) -> None:
        """Note the state before ``resigner`` resigns as gnubg has it: the state of the game
        then (the player on roll, with his dice after a roll he did not play; the taker to
        act while a double awaits an answer), whoever resigns."""
        if self.unplayed is not None:
            roller, dice, before = self.unplayed
            state = self.state(roller, dice=dice)
        else:
            on_roll = resigner if self.on_roll is None else self.on_roll
            before = self.view_of(on_roll)
            if self.pending is not None:
                state = self.state(on_roll, doubled=True, turn=1 - self.pending[0])
            else:
                state = self.state(on_roll)
        self.resigned = (resigner, action, before, state)

    def view_of(self, player: int) -> Position:
        """The position seen from ``player``."""
        if self.on_roll is None or self.on_roll == player:
            return self.position
        return self.position.swapped()


def replay_match(
    record: MatchRecord,
    profile: RuleProfile | None = None,
    *,
    on_event: Callable[[Event], None] | None = None,
) -> MatchReplay:
    """Replay ``record`` under ``profile`` (default: ``standard`` refined by header tags).

    ``on_event`` is called with every action replayed (computing IDs costs time; pass it
    only when needed).
    """
    profile = profile or profile_for(record)
    length = 0 if profile.money_session else record.match_length or 0
    out = MatchReplay(record, profile, length, record.names)
    out.problems.extend(record.problems)
    replayer = _Replayer(record, profile, out, on_event)
    replayer.run()
    out.problems.sort(key=lambda p: (p.line or 0, p.column or 0))
    return out


class _Replayer:
    def __init__(self, record: MatchRecord, profile: RuleProfile, out: MatchReplay,
                 on_event: Callable[[Event], None] | None) -> None:
        self.record = record
        self.profile = profile
        self.out = out
        self.on_event = on_event
        self.length = out.match_length
        # gnubg plays and imports money sessions with the Jacoby rule unless told otherwise.
        self.jacoby_for_ids = (profile.jacoby is not False) if self.length == 0 else False
        self.game_no = 0
        self.last_game = False
        # Under a house rule where resigning ends the match (Piece of Cake, MeGammon).
        self.match_ended_by_resignation = False
        self.action: Action | None = None  # the action being replayed (binary formats'
        # problems are located by its ``move``)

    def problem(self, rule: str, message: str, line: int | None, column: int | None,
                severity: Severity | None = None) -> None:
        if severity is None:
            severity = Severity.WARNING if rule in _WARNINGS else Severity.ERROR
        move = None
        if line is None and self.action is not None:
            move = self.action.move
        self.out.problems.append(
            Problem(rule, message, line, column, self.game_no or None, severity, move)
        )

    # --- the match ------------------------------------------------------------------------

    def run(self) -> None:
        record = self.record
        length = self.length
        if not record.games:
            self.problem("no-games", "the file holds no game", record.length_line, None)
            return
        offered = self.profile.lengths
        if offered is not None and length not in offered:
            shown = ", ".join("money" if n == 0 else str(n) for n in sorted(offered))
            self.problem("match-length", f"a {length}-point match: the {self.profile.name} "
                         f"rules offer {shown}", record.length_line, None)
        score: tuple[int, int] | None = None
        crawford_done = False
        match_over_at: int | None = None
        # Numbering may start anywhere (an excerpt of a longer match): later games follow on.
        first_number = record.games[0].number
        first_number = 1 if first_number is None else first_number
        for index, game in enumerate(record.games):
            self.game_no = index + 1
            written = game.score
            expected = first_number + index
            if game.number is not None and index > 0 and game.number != expected:
                self.problem(
                    "game-number",
                    f"game {game.number} is the file's game {index + 1}" if first_number == 1
                    else f"game {game.number} should be game {expected}: the file starts at "
                    f"game {first_number}",
                    game.line, None,
                )
            if match_over_at is not None:
                self.problem(
                    "game-after-match",
                    f"game {index + 1} follows the end of the match (won in game {match_over_at})",
                    game.line, None,
                )
                break
            if score is None:
                score = written or (0, 0)
            elif written is not None and written != score:
                line = game.score_line
                col = game.score_columns[0] if written[0] != score[0] else game.score_columns[1]
                self.problem(
                    "score-mismatch",
                    f"score line says {written[0]}-{written[1]} but the games before give "
                    f"{score[0]}-{score[1]}",
                    line, col,
                )
                score = written
            is_crawford = False
            post = False
            if length and self.profile.crawford:
                if crawford_done:
                    post = True
                elif (score[0] == length - 1) != (score[1] == length - 1):
                    is_crawford = True
                    crawford_done = True
                elif score[0] == length - 1 and score[1] == length - 1:
                    crawford_done = True
                    post = True
            # A file that starts at a score with a player 1-away (a log continued from an
            # earlier file) cannot tell whether its first game is the Crawford game.
            unknown = is_crawford and index == 0 and score != (0, 0)
            summary = self.play_game(game, index + 1, score, is_crawford, post,
                                     is_last=index == len(record.games) - 1,
                                     crawford_unknown=unknown)
            self.out.games.append(summary)
            if summary.winner is not None and summary.points is not None:
                s = list(score)
                s[summary.winner] += summary.points
                score = (s[0], s[1])
            if length and match_over_at is None and (
                    max(score) >= length or self.match_ended_by_resignation):
                match_over_at = index + 1
        self.out.final_score = score or (0, 0)
        if length:
            self.out.complete = max(self.out.final_score) >= length
            if self.out.complete:
                a, b = self.out.final_score
                self.out.winner = 0 if a > b else 1
            elif self.match_ended_by_resignation:
                self.out.complete = True
                self.out.winner = self.out.games[-1].winner
            else:
                last = record.games[-1]
                self.game_no = len(record.games)
                fs = self.out.final_score
                self.problem(
                    "match-incomplete",
                    f"the match stops at {fs[0]}-{fs[1]} in a {length}-point match",
                    last.line, None,
                )
        else:
            last_game = self.out.games[-1] if self.out.games else None
            self.out.complete = bool(last_game and last_game.winner is not None)

    # --- one game -------------------------------------------------------------------------

    def play_game(self, record: GameRecord, number: int, score: tuple[int, int],
                  crawford: bool, post: bool, is_last: bool,
                  crawford_unknown: bool = False) -> GameSummary:
        g = _Game(number, score, crawford, self.length, self.jacoby_for_ids)
        g.crawford_unknown = crawford_unknown
        self.last_game = is_last
        summary = GameSummary(number, record.line, score, crawford, post)
        actions = record.actions
        count = len(actions)
        do_roll = self.do_roll
        setups = record.setups
        done = 0
        for i, action in enumerate(actions):
            self.action = action
            while done < len(setups) and setups[done].before <= i:
                self.apply_setup(g, setups[done])
                done += 1
            g.setup_next = done < len(setups) and setups[done].before == i + 1
            next_action = actions[i + 1] if i + 1 < count else None
            if action.kind == "roll" and g.over is None:
                do_roll(g, action, next_action)  # the common case of do_action
            else:
                self.do_action(g, action, next_action)
        self.action = None
        for setup in setups[done:]:
            self.apply_setup(g, setup)
        summary.actions += count
        if g.resigned is not None and g.over == "resign" and self.on_event is not None:
            self.emit_resignation(g)
        if g.over is None:
            if not is_last:
                self.problem(
                    "game-unfinished",
                    f"game {number} stops before it is over but game {number + 1} follows",
                    record.line, None,
                )
        if g.crawford_unknown and not g.crawford:  # a double showed it is post-Crawford
            summary.crawford = False
            summary.post_crawford = True
        summary.winner = g.winner
        summary.points = g.points if g.over else None
        summary.cube = g.cube
        summary.ended_by = g.over
        summary.result = {1: "single", 2: "gammon", 3: "backgammon"}.get(g.value) if g.over else None
        summary.rolls = g.rolls
        summary.final_position = g.position
        summary.final_on_roll = g.on_roll
        self.out.rolls += g.rolls
        return summary

    def do_action(self, g: _Game, action: Action, next_action: Action | None) -> None:
        kind = action.kind
        if kind in ("win", "loss", "resign"):
            self.do_result(g, action)
            return
        if g.over is not None:
            self.problem("action-after-end", f"{_describe(action)} after the game ended "
                         f"({g.over})", action.line, action.column)
            return
        g.unplayed = None
        g.resign_marked_by = None
        if kind == "roll":
            self.do_roll(g, action, next_action)
        elif kind == "double":
            self.do_double(g, action)
        elif kind in ("take", "drop", "beaver", "raccoon"):
            self.do_answer(g, action)

    # --- rolls ----------------------------------------------------------------------------

    def do_roll(self, g: _Game, action: Action, next_action: Action | None) -> None:
        p = action.player
        line, column = action.line, action.column
        g.beavered_by = None  # a beaver is taken implicitly by the next roll
        g.unplayed = None
        g.resign_marked_by = p if action.resign_marker else None
        if g.pending is not None:
            self.problem("cube-unanswered", "the double was never answered before this roll",
                         line, column)
            g.pending = None
        if g.on_roll is None:
            g.on_roll = p
        elif g.on_roll != p:
            if not g.turn_open:
                self.problem("turn-order", f"player {p} rolls but it is player {g.on_roll}'s "
                             "turn", line, column)
            g.position = g.position.swapped()
            g.on_roll = p
        g.turn_open = False
        dice = action.dice
        if dice is None or not (1 <= dice[0] <= 6 and 1 <= dice[1] <= 6):
            self.problem("dice-mismatch", f"dice {dice} are not two dice 1-6", line, column)
            self.pass_turn(g)
            return
        d1, d2 = dice
        g.rolls += 1
        if g.rolls == 1 and d1 == d2 and not g.set_up:
            self.problem("opening-double", f"the opening roll {d1}{d2} is a double", line, column)
        before = g.position
        play_col = action.play_column or column
        if g.synced and action.steps is None and not action.illegal:
            text = action.play_text
            key = (before.mover, before.opponent, d1, d2, text)
            known = _RESOLVED.get(key)
            if known is None:
                # The general path below, shortened for the usual written play of moves (a
                # text it cannot read, or a special form, goes on to the general path).
                try:
                    parsed: WrittenPlay | None = parse_play(text)
                except NotationError:
                    parsed = None
                if parsed is not None and parsed.kind == "moves" and parsed.paths:
                    known = _resolved_play(before, d1, d2, parsed)
                    _remember(key, known)
            if known is not None:
                mover = known[0]
                if mover is not None and mover[0] != 15 and not known[4] \
                        and self.on_event is None:
                    # finish_play's usual case, inline: no problem, no listener, game on.
                    g.position = unchecked_position(known[1], mover)
                    g.on_roll = 1 - p
                    return
                self.finish_play(g, action, before, d1, d2, play_col, known)
                return
        pos = before
        written: WrittenPlay | None = None
        if action.steps is not None:
            written = WrittenPlay("moves", tuple(), "")
        else:
            try:
                written = parse_play(action.play_text)
            except NotationError as exc:
                col = play_col + (exc.column - 1) if play_col and exc.column else play_col
                self.problem("notation", exc.message, line, col)
                g.synced = False
                self.emit(g, p, "move", (d1, d2), None, before, action)
                self.pass_turn(g)
                return
        play: Play | None = None
        if not g.synced:
            self.emit(g, p, "move", (d1, d2), None, before, action)
            self.pass_turn(g)
            return
        roll = f"{d1}{d2}"
        if action.steps is not None:
            play, pos = self.check_steps(g, action, before, d1, d2)
        elif action.illegal or written.kind == "illegal":
            text = written.text if action.illegal_text is None else action.illegal_text
            board = _snowie_board(text, before)
            self.problem("illegal-play-line", "the record marks this play as illegal"
                         + ("; replay goes on from the position it gives" if board else ""),
                         line, play_col)
            if board is None:
                g.synced = False
            else:
                pos = board
                play = Play()
        elif written.kind in ("cannot_move", "resign") or not written.paths:
            legal = _legal_results(before, d1, d2)
            sample = next(iter(legal.values()))
            if not sample.steps:
                play = sample
            elif written.kind == "resign" or (
                next_action is not None and next_action.kind in ("win", "loss", "resign")
            ):
                play = None  # rolled, then resigned: the result cell follows
                g.unplayed = (p, (d1, d2), before)
            elif (next_action is None and self.last_game) or g.setup_next:
                play = None  # the record ends (or the board is set) after the roll
            elif written.kind == "cannot_move":
                self.problem("max-dice", f"{roll} written as 'Cannot Move' but it can be played "
                             f"(e.g. {sample})", line, play_col)
                play = None
            elif len(legal) == 1:
                self.problem("forced-play-omitted", f"{roll} written with no play; the only "
                             f"legal play {sample} is assumed", line, play_col)
                play = sample
                pos = next(iter(legal))
            else:
                self.problem("empty-play", f"{roll} written with no play but it can be played "
                             f"(e.g. {sample})", line, play_col)
                play = None
        else:
            known = _resolved_play(before, d1, d2, written)
            _remember((before.mover, before.opponent, d1, d2, action.play_text), known)
            self.finish_play(g, action, before, d1, d2, play_col, known)
            return
        self.emit(g, p, "move", (d1, d2), play, before, action,
                  after=pos if play is not None else None)
        if pos.mover[0] == 15:
            self.end_by_bearoff(g, p, pos)
            return
        g.position = pos
        self.pass_turn(g)

    def finish_play(self, g: _Game, action: Action, before: Position, d1: int, d2: int,
                    play_col: int | None, known: _KnownPlay) -> None:
        """Report a resolved play's problems and move on to the position after it."""
        mover, opponent, steps, hits, problems = known
        line = action.line
        for rule, message in problems:
            self.problem(rule, message, line, play_col)
        p = action.player
        if mover is None:
            g.synced = False
            pos = before
        elif mover[0] == 15 or self.on_event is not None:
            pos = unchecked_position(mover, opponent)
        else:  # the usual roll: only the position the opponent sees is needed
            g.position = unchecked_position(opponent, mover)
            g.on_roll = 1 - p
            return
        if self.on_event is not None:
            play = None if steps is None else Play(steps, hits)
            self.emit(g, p, "move", (d1, d2), play, before, action,
                      after=pos if play is not None else None)
        if pos.mover[0] == 15:
            self.end_by_bearoff(g, p, pos)
            return
        g.position = pos.swapped()
        g.on_roll = 1 - p

    def end_by_bearoff(self, g: _Game, winner: int, pos: Position) -> None:
        """``winner`` has borne off his last checker in ``pos`` (his view): the game ends."""
        g.over = "bearoff"
        g.winner = winner
        g.value = pos.game_value()
        g.points = self.bearoff_points(g)
        g.position = pos

    def bearoff_points(self, g: _Game) -> int:
        value = g.value
        if self.length == 0 and self.profile.jacoby and not g.cube_turned:
            value = 1
        return g.cube * value

    def check_steps(self, g: _Game, action: Action, before: Position, d1: int,
                    d2: int) -> tuple[Play | None, Position]:
        """Check exact steps (SGF): each step legal with a die, then maximal."""
        assert action.steps is not None
        me = list(before.mover)
        opp = list(before.opponent)
        dice = [d1] * 4 if d1 == d2 else [d1, d2]
        hits: list[bool] = []
        for src, dst in action.steps:
            err = None
            used = None
            for die in dict.fromkeys(dice):
                e = step_error(me, opp, src, dst, die)
                if e is None:
                    used = die
                    break
                err = err or e
            if used is None:
                self.problem(err or "dice-mismatch", f"{d1}{d2}: step {src}/{dst} is illegal "
                             f"({err})", action.line, action.column)
                g.synced = False
                return None, before
            dice.remove(used)
            hits.append(apply_step(me, opp, src, dst))
        result = unchecked_position(tuple(me), tuple(opp))
        play = Play(tuple(action.steps), tuple(hits))
        res = check_maximal(before, d1, d2, play, result)
        if res.rule is not None:
            self.problem(res.rule, res.message, action.line, action.column)
        return play, result

    def pass_turn(self, g: _Game) -> None:
        g.position = g.position.swapped()
        assert g.on_roll is not None
        g.on_roll = 1 - g.on_roll

    # --- SGF set-up nodes -----------------------------------------------------------------

    def apply_setup(self, g: _Game, setup: SetUp) -> None:
        """Apply an SGF set-up node: the board (absolute letters, FORMATS.md 3.3), the player
        to move and the cube; like a Snowie ``Illegal play`` cell, the replay goes on from
        the board it gives. A set-up that gives no valid position is ``sgf-setup-invalid``
        and leaves the replay unsynced (later plays are not checked)."""
        if setup.line is None:
            line, column = self.record.games[self.game_no - 1].line, None
        else:
            line, column = setup.line, setup.column
        for message in setup.errors:
            self.problem("sgf-setup-invalid", message, line, column)
        view = 0 if g.on_roll is None else g.on_roll
        white = list(g.position.mover if view == 0 else g.position.opponent)
        black = list(g.position.opponent if view == 0 else g.position.mover)
        if setup.sets_board:
            for i in setup.emptied:
                white[25 if i == 24 else i + 1] = 0
                black[25 if i == 24 else 24 - i] = 0
            for i in setup.white:
                white[25 if i == 24 else i + 1] += 1
            for i in setup.black:
                black[25 if i == 24 else 24 - i] += 1
        turn = view if setup.turn is None else setup.turn
        mover, opponent = (white, black) if turn == 0 else (black, white)
        problem = _setup_problem(white, black) if setup.sets_board else None
        if problem is not None:
            self.problem("sgf-setup-invalid", problem, line, column)
            g.synced = False
            g.position = g.position if turn == view else g.position.swapped()
        elif setup.sets_board or turn != view:
            g.position = Position(tuple(mover), tuple(opponent))
            g.synced = g.synced or setup.sets_board
        if setup.sets_board or setup.turn is not None:
            g.on_roll = turn
            g.turn_open = True
            g.set_up = True
        g.pending = None
        g.beavered_by = None
        g.unplayed = None
        if setup.cube is not None:
            g.cube = setup.cube
        if setup.cube_position is not None:
            g.cube_owner = None if setup.cube_position == "centred" else setup.cube_position
            g.cube_turned = g.cube_owner is not None
        if g.over is None and g.synced and g.position.mover[0] == 15:
            self.end_by_bearoff(g, turn, g.position)
        elif g.over is None and g.synced and g.position.opponent[0] == 15:
            self.problem("sgf-setup-invalid", "the set-up gives a finished game: "
                         f"player {1 - turn} has no checker left", line, column)

    # --- cube -----------------------------------------------------------------------------

    def do_double(self, g: _Game, action: Action) -> None:
        p = action.player
        line, column = action.line, action.column
        g.beavered_by = None
        if g.pending is not None:
            self.problem("cube-unanswered", "a double follows a double that was never answered",
                         line, column)
            g.pending = None
        if g.on_roll is None:
            self.problem("cube-timing", "the cube cannot be turned before the opening roll",
                         line, column)
            g.on_roll = p
        elif g.on_roll != p:
            if not g.turn_open:
                self.problem("cube-timing", f"player {p} doubles but it is player "
                             f"{g.on_roll}'s turn to roll", line, column)
            g.position = g.position.swapped()
            g.on_roll = p
        g.turn_open = False
        before = g.position
        if g.crawford and g.crawford_unknown:
            self.problem("crawford-unknown", f"a double at {g.score[0]}-{g.score[1]} in the "
                         "file's first game: the file starts in the middle of the match, so "
                         "whether this is the Crawford game cannot be told; read as "
                         "post-Crawford", line, column)
            g.crawford = False
        if self.on_event is not None:
            self.emit(g, p, "double", None, None, before, action)
        cube_rule = self.profile.cube
        if cube_rule == "off" or (cube_rule == "min3" and 0 < self.length < 3):
            self.problem("cube-disabled", "the cube is not in use in this match", line, column)
        if g.crawford:
            self.problem("crawford-double", "a double in the Crawford game", line, column)
        if g.cube_owner is not None and g.cube_owner != p:
            self.problem("cube-not-owner", f"player {p} doubles but player {g.cube_owner} owns "
                         "the cube", line, column)
        if action.cube is not None and action.cube != 2 * g.cube:
            self.problem("cube-value", f"'Doubles => {action.cube}' but the cube is at {g.cube}: "
                         f"the new value is {2 * g.cube}", line, column)
        if self.length and g.score[p] + g.cube >= self.length and not g.crawford:
            self.problem("cube-dead", f"player {p} needs {self.length - g.score[p]} and the cube "
                         f"is already {g.cube}", line, column)
        g.pending = (p, 2 * g.cube)

    def do_answer(self, g: _Game, action: Action) -> None:
        p = action.player
        line, column = action.line, action.column
        kind = action.kind
        if g.beavered_by is not None and p != g.beavered_by and kind in ("take", "raccoon"):
            # The original doubler accepts the beaver (SGF writes it) or raccoons.
            if kind == "raccoon":
                if action.cube is not None and action.cube != 2 * g.cube:
                    self.problem("cube-value", f"'Raccoons => {action.cube}' but the new value "
                                 f"is {2 * g.cube}", line, column)
                g.cube *= 2
                g.cube_owner = p
                g.beavered_by = p  # the other player may write an explicit take of it
                return
            g.beavered_by = None
            return
        if g.pending is None:
            self.problem("cube-answer", f"'{kind}' without a double to answer", line, column)
            return
        doubler, value = g.pending
        if p == doubler:
            self.problem("cube-answer", f"player {p} answers his own double", line, column)
            return
        if self.on_event is not None:
            before = g.view_of(doubler)
            state = g.state(doubler, doubled=True, turn=p)
            self.on_event(Event(g.number, g.next_index(), line, p, kind, None, None, before,
                                state, source=action))
        g.pending = None
        if kind == "take":
            g.cube = value
            g.cube_owner = p
            g.cube_turned = True
        elif kind == "drop":
            g.over = "drop"
            g.winner = doubler
            g.points = value // 2
            g.value = 1
        elif kind == "beaver":
            if self.length or not self.profile.beavers:
                self.problem("beaver-not-allowed",
                             "beavers are allowed only in money play" if self.length
                             else "beavers are not allowed by this session's rules", line, column)
            if action.cube is not None and action.cube != 2 * value:
                self.problem("cube-value", f"'Beavers => {action.cube}' but the new value "
                             f"is {2 * value}", line, column)
            g.cube = 2 * value
            g.cube_owner = p
            g.cube_turned = True
            g.beavered_by = p
        else:
            self.problem("cube-answer", "a raccoon must follow a beaver", line, column)

    # --- results --------------------------------------------------------------------------

    def do_result(self, g: _Game, action: Action) -> None:
        line, column = action.line, action.column
        n = action.points
        # ``win``: the player in this column won; ``loss`` and ``resign``: he lost/resigned.
        winner = action.player if action.kind == "win" else 1 - action.player
        if action.kind == "resign" and n is None:
            if g.over is None:
                g.resignation(1 - winner, action)
                g.pending = None
                g.over = "resign"
                g.winner = winner
                g.value = 1
                g.points = g.cube
                g.resign_open = True
            return
        if g.over is not None and not (g.over == "resign" and g.resign_open):
            if winner != g.winner:
                self.problem("wins-mismatch", f"player {winner} is credited but player {g.winner} "
                             f"won the game", line, column)
                return
            if n is not None and n != g.points:
                if self.capped_ok(g, winner, n, g.points):
                    return
                if (not self.length and self.profile.jacoby is None and g.over == "bearoff"
                        and not g.cube_turned and n == g.cube):
                    g.points = n  # the session played the Jacoby rule without saying so
                    return
                self.problem("wins-mismatch", f"'Wins {n}' but the game is worth {g.points} "
                             f"({_how(g)})", line, column)
            return
        if g.over is not None and winner != g.winner:
            self.problem("wins-mismatch", f"player {winner} is credited but player {g.winner} "
                         "resigned... the other player won", line, column)
            return
        if g.over is None and g.resign_marked_by == winner:
            self.problem("wins-mismatch", f"player {winner} is credited but wrote a "
                         "resignation after rolling", line, column)
            return
        g.resign_open = False
        cube = g.cube
        if not g.synced and n is not None:
            # The position is unknown (an illegal or unreadable play): trust the result.
            level = n // cube if n % cube == 0 and 1 <= n // cube <= 3 else 1
            g.over = g.over or "bearoff"
            g.winner = winner
            g.value = level
            g.points = n
            return
        # The game is still running: a resignation by the other player.
        if g.over is None:
            g.resignation(1 - winner, action)
        g.pending = None
        g.over = "resign"
        g.winner = winner
        if n is None:
            g.value = 1
            g.points = cube
            return
        self.resignation_value(g, winner, n, line, column)

    def resignation_value(self, g: _Game, winner: int, n: int, line: int | None,
                          column: int | None) -> None:
        """Check ``Wins n`` as the value of a resignation, under the profile's house rule."""
        cube = g.cube
        profile = self.profile
        rule = profile.resignation if self.length else "game"
        needed = self.length - g.score[winner]
        if profile.forfeit_factor and self.length and n == profile.forfeit_factor * cube:
            # The match is over: the points needed, or the cube when that covers them.
            g.value = 1
            g.points = max(needed, cube)
            self.problem("forfeit", f"'Wins {n}' is {profile.forfeit_factor} times the cube "
                         f"({cube}), the site's mark of a forfeited match: read as a "
                         f"resignation of the match, player {winner} gets the {needed} points "
                         "still needed", line, column)
            return
        if rule == "match":
            g.value = 1
            g.points = needed
            self.match_ended_by_resignation = True
            if n != needed:
                self.problem("resign-value", f"'Wins {n}' as a resignation: under the "
                             f"{profile.name} rules resigning gives the {needed} points still "
                             "needed", line, column)
            return
        # Only a value no resignation of the game explains (more than 3 times the cube; a
        # smaller one is the game's value capped at the points needed) resigns the match.
        if rule == "game-or-match" and n == needed and n > 3 * cube:
            g.value = 1
            g.points = n
            if profile.name == "match-resign":  # a site's own rule is not worth a note
                self.problem("match-resignation", f"the match was resigned: player {winner} "
                             f"gets the {n} points still needed", line, column)
            return
        if rule == "match-at-cube":
            self.match_ended_by_resignation = True
        level = 1 if n <= cube else 2 if n <= 2 * cube else 3
        g.value = level
        g.points = cube * level
        if n != cube * level:
            if self.capped_ok(g, winner, n, cube * level):
                return
            self.problem("resign-value", f"'Wins {n}' as a resignation with the cube at {cube}: "
                         f"must be {cube}, {2 * cube} or {3 * cube}", line, column)

    def capped_ok(self, g: _Game, winner: int, n: int, computed: int) -> bool:
        """A match-winning 'Wins N' that real writers write instead of the game's value.

        The value capped at the points still needed (DailyGammon, Galaxy, Studio, others);
        the match length after a resignation that ends the match, in eXtreme Gammon's files
        ('Wins 9 point and the match' for a resignation worth 2 at 7-7 of 9); the match length
        for any game that ends the match under Galaxy's profile ('Wins 7 point and the match'
        for a backgammon at 5-4 of 7). Anything else is the wrong value.
        """
        if not self.length:
            return False
        needed = self.length - g.score[winner]
        if computed < needed:
            return False
        if n == needed:
            return True
        if n != self.length:
            return False
        return self.profile.wins_at_length or (
            g.over == "resign" and self.profile.resign_at_length)

    # --- events ---------------------------------------------------------------------------

    def emit_resignation(self, g: _Game) -> None:
        """A resignation's two events: ``resign`` by the loser, ``accept`` by the winner (a
        record holds only accepted resignations), with gnubg's state before each."""
        assert self.on_event is not None and g.resigned is not None
        resigner, action, before, state = g.resigned
        self.on_event(Event(g.number, g.next_index(), action.line, resigner, "resign", None,
                            None, before, state, source=action))
        accepted = state.with_(turn=1 - resigner, resignation=g.value)
        self.on_event(Event(g.number, g.next_index(), action.line, 1 - resigner, "accept",
                            None, None, before, accepted, source=action))

    def emit(self, g: _Game, player: int, kind: str, dice: tuple[int, int] | None,
             play: Play | None, before: Position, action: Action,
             after: Position | None = None) -> None:
        if self.on_event is None:
            return
        state = g.state(player, dice=dice)
        self.on_event(Event(g.number, g.next_index(), action.line, player, kind, dice, play,
                            before, state, after, source=action))


def _snowie_board(text: str, near: Position) -> Position | None:
    """The position after a Snowie ``Illegal play (...)`` cell, from the mover's view.

    The cell holds Snowie's text position: 12 header fields, then 26 board values (index
    0 and 25 are the bars, positive and negative values are the two players). Which sign is
    the mover is not stated, so the reading closest to the position before the play wins.
    """
    inner = text[text.find("(") + 1 : text.rfind(")")] if "(" in text else text
    fields = inner.split(";")
    if len(fields) < 38:
        return None
    try:
        values = [int(v) for v in fields[12:38]]
    except ValueError:
        return None
    plus = [0] * 26
    minus = [0] * 26
    for i in range(1, 25):
        if values[i] > 0:
            plus[i] = values[i]
        elif values[i] < 0:
            minus[25 - i] = -values[i]
    plus[25] = abs(values[25])
    minus[25] = abs(values[0])
    best: tuple[int, Position] | None = None
    for mover, opponent in ((plus, minus), (minus, plus)):
        try:
            candidate = Position(tuple(mover), tuple(opponent))
        except ValueError:
            continue
        distance = sum(abs(a - b) for a, b in zip(candidate.mover, near.mover))
        distance += sum(abs(a - b) for a, b in zip(candidate.opponent, near.opponent))
        if best is None or distance < best[0]:
            best = (distance, candidate)
    return best[1] if best else None


def _setup_problem(white: list[int], black: list[int]) -> str | None:
    """Why a set-up board (absolute: each side in its own numbering, 25 the bar) is not a
    position, or None."""
    for name, side in (("White", white), ("Black", black)):
        on_board = sum(side[1:])
        if on_board > 15:
            return f"the set-up gives {name} {on_board} checkers; at most 15 are allowed"
    for q in range(1, 25):
        if white[q] and black[25 - q]:
            letter = chr(96 + q)
            return (f"the set-up puts White and Black checkers on the same point "
                    f"({letter}: White's {q}, Black's {25 - q})")
    return None


def _describe(action: Action) -> str:
    if action.kind == "roll" and action.dice:
        return f"a roll of {action.dice[0]}{action.dice[1]}"
    return f"'{action.kind}'"


def _how(g: _Game) -> str:
    if g.over == "drop":
        return "a dropped cube at " + str(g.points)
    name = {1: "single", 2: "gammon", 3: "backgammon"}.get(g.value, "single")
    return f"{name} with the cube at {g.cube}"
