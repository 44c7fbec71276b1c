"""Replaying: :meth:`Match.replay <bgtools.api.reading.Match.replay>` gives a :class:`Replay`,
the strict replay of a match: whether it is valid, its problems, final score and winner,
each game's result (:class:`ReplayedGame`) and, for every action, the moments before and
after it (:class:`ReplayedAction`, :class:`Moment`).

The names are those of the JSON contract for the same facts: ``final_score``, ``winner``,
``complete`` (``score --json``); a game's ``score_before``, ``winner``, ``points``,
``cube``, ``result``, ``ended_by``; an action's ``index``, ``player``, ``action``,
``dice``, ``play``, ``steps``, ``position_id_before``, ``match_id_before``,
``position_id_after``, ``pips_before``, ``cube_before``, ``cube_owner_before``
(``replay --jsonl``); a moment's ``score``, ``crawford``, ``cube``, ``on_roll``, ``pips``,
``position_id``, ``match_id`` and ``xgid`` (``status --json``). Players are 0 and 1 and
every pair is ``(player 0, player 1)``, as in the contract.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from bgtools.engine.position import Play, Position, Step
from bgtools.engine.results import ResultName
from bgtools.errors import InvalidArgumentError
from bgtools.record import Action, GameRecord, MatchRecord, Problem, Severity
from bgtools.replay import (
    PROFILE_NAMES,
    Event,
    EventKind,
    GameEnd,
    GameSummary,
    MatchReplay,
    profile_for,
    replay_match,
)
from bgtools.reports.files import collector_paused
from bgtools.reports.moments import Cube, MatchAnswers, Moment

__all__ = ["Cube", "Moment", "Replay", "ReplayedAction", "ReplayedGame", "RulesName", "Verdict",
           "check_rules", "collector_paused",
           "verdict_of"]

RulesName = Literal["auto", "standard", "nocube", "cube3", "match-resign", "nocrawford",
                    "galaxy", "xg", "studio", "megammon", "pieceofcake"]
"""The rule profiles a match is replayed under (``--rules``; ``auto``: chosen from the
file's ``Site`` tag), as :data:`bgtools.replay.PROFILE_NAMES` lists them (a test keeps the
two equal)."""


@dataclass(frozen=True)
class Verdict:
    """What ``bgtools validate`` says of one match, and no more: whether it is valid under
    which rules, its problems and where the match ended, as :meth:`Match.validate
    <bgtools.api.reading.Match.validate>` gives it (a replay that records no action)."""

    rules: str
    """The name of the rule profile used (``standard``, ``galaxy`` ...)."""
    valid: bool
    """True when no problem is an error (warnings allowed)."""
    problems: tuple[Problem, ...]
    """Every problem, the reader's and the replay's, in file order."""
    games: int
    """The number of games replayed."""
    complete: bool
    """True when the match was played to its end (money play: the last game ended)."""
    final_score: tuple[int, int]
    """The score after the last game, ``(player 0, player 1)``."""
    winner: int | None
    """The player who won the match (0 or 1), or None (unfinished, or money play)."""

    def errors(self) -> list[Problem]:
        """The problems of severity ``error`` (those that make the match invalid)."""
        return [p for p in self.problems if p.severity is Severity.ERROR]

    def warnings(self) -> list[Problem]:
        """The problems of severity ``warning``."""
        return [p for p in self.problems if p.severity is Severity.WARNING]


def verdict_of(summary: MatchReplay) -> Verdict:
    """The :class:`Verdict` of a replayer's result."""
    return Verdict(summary.profile.name, summary.valid, tuple(summary.problems),
                   len(summary.games), summary.complete, summary.final_score, summary.winner)


def check_rules(rules: str) -> None:
    """Refuse a rule profile name that ``bgtools rules`` does not list
    (:class:`~bgtools.errors.InvalidArgumentError`, a ``ValueError``)."""
    if rules not in PROFILE_NAMES:
        raise InvalidArgumentError(
            f"unknown rules {rules!r}; choose one of {', '.join(PROFILE_NAMES)}")


class Replay(MatchAnswers):
    """The strict replay of one match record under a rule profile (``rules``: a profile
    name, as ``--rules``), as :meth:`Match.replay <bgtools.api.reading.Match.replay>` gives it.

    Forgiving like the reader: every problem is collected in :attr:`problems` (with a
    stable rule id and a location) and the replay goes on, so a replay always has games.
    It is the object ``pips``, ``status`` and ``show`` answer from
    (:class:`~bgtools.reports.moments.MatchAnswers`: :attr:`summary`, the replayer's own
    result; :attr:`events`; each game's :class:`Moment` objects), with the verdict, the
    games and the HTML page added.

    Making one costs what ``bgtools validate`` costs: the verdict (:attr:`valid`,
    :attr:`problems`, :attr:`final_score` ...) and each game's result come from the
    validator's replay, and the actions (:attr:`events`) and the moments are made when
    first asked for.
    """

    def __init__(self, record: MatchRecord, rules: RulesName = "auto") -> None:
        check_rules(rules)
        with collector_paused():
            summary = replay_match(record, profile_for(record, rules))
        super().__init__(summary)

    @property
    def rules(self) -> str:
        """The name of the rule profile used (``standard``, ``galaxy`` ...), as
        ``validate --json``'s ``rules``."""
        return self.summary.profile.name

    @property
    def valid(self) -> bool:
        """True when no problem is an error (warnings allowed)."""
        return self.summary.valid

    @property
    def verdict(self) -> Verdict:
        """What ``bgtools validate`` says of the match (:class:`Verdict`)."""
        return verdict_of(self.summary)

    @property
    def problems(self) -> list[Problem]:
        """Every problem, the reader's and the replay's, in file order."""
        return self.summary.problems

    @property
    def match_length(self) -> int:
        """The length replayed: 0 for money play (also a site's money session)."""
        return self.summary.match_length

    @property
    def players(self) -> tuple[str, str] | None:
        """The names of player 0 and player 1, or None."""
        return self.summary.names

    @property
    def final_score(self) -> tuple[int, int]:
        """The score after the last game, ``(player 0, player 1)``."""
        return self.summary.final_score

    @property
    def winner(self) -> int | None:
        """The player who won the match (0 or 1), or None (unfinished, or money play)."""
        return self.summary.winner

    @property
    def complete(self) -> bool:
        """True when the match was played to its end (money play: the last game ended)."""
        return self.summary.complete

    @cached_property
    def games(self) -> list[ReplayedGame]:
        """Each game as replayed, in order."""
        return [ReplayedGame(self, summary) for summary in self.summary.games]

    def __repr__(self) -> str:
        state = "valid" if self.valid else f"{len(self.errors())} error(s)"
        return (f"<Replay {self.rules}: {len(self.summary.games)} games, final score "
                f"{self.final_score[0]}-{self.final_score[1]}, {state}>")

    def errors(self) -> list[Problem]:
        """The problems of severity ``error`` (those that make the match invalid)."""
        return [p for p in self.problems if p.severity is Severity.ERROR]

    def html(self, title: str = "") -> str:
        """The match as one HTML page that steps through every moment of every game (the
        page of ``bgtools show --html``; ``title``: what to call the match, by default its
        players)."""
        from bgtools.reports.html import match_html

        names = self.players
        return match_html(self, title or (" - ".join(names) if names else "match"))

    def _repr_html_(self) -> str:
        """The match stepper of :meth:`html`, for Jupyter (the IPython display protocol): the
        page inside an ``<iframe>``, so that its script and styles stay its own."""
        from html import escape

        return (f'<iframe srcdoc="{escape(self.html(), quote=True)}" '
                'style="width:100%;height:760px;border:0" title="bgtools match"></iframe>')


class ReplayedGame:
    """One game as replayed: its result (the ``score`` object's game fields), its actions
    and its moments."""

    def __init__(self, replay: Replay, summary: GameSummary) -> None:
        self.replay = replay
        """The match replay this game belongs to."""
        self.summary = summary
        """The replayer's summary of the game (:class:`~bgtools.replay.GameSummary`)."""

    @property
    def _events(self) -> list[Event]:
        return self.replay.game_events(self.summary.number)

    @property
    def number(self) -> int:
        """The game's number in the file, from 1."""
        return self.summary.number

    @property
    def record(self) -> GameRecord:
        """The game as written."""
        return self.replay.record.games[self.number - 1]

    @property
    def score_before(self) -> tuple[int, int]:
        """The score before the game."""
        return self.summary.score_before

    @property
    def score_after(self) -> tuple[int, int]:
        """The score after the game (the same while it is unfinished)."""
        return self.summary.score_after

    @property
    def crawford(self) -> bool:
        """True for the Crawford game (never in money play)."""
        return bool(self.summary.crawford) and self.replay.match_length > 0

    @property
    def winner(self) -> int | None:
        """The winner (0 or 1), or None for an unfinished game."""
        return self.summary.winner if self.summary.ended_by is not None else None

    @property
    def points(self) -> int | None:
        """The points the winner scored."""
        return self.summary.points

    @property
    def cube(self) -> int:
        """The cube value the game was played for (for a drop: before the refused double)."""
        return self.summary.cube

    @property
    def result(self) -> ResultName | None:
        """``single``, ``gammon`` or ``backgammon`` (a resignation: the level resigned)."""
        return self.summary.result

    @property
    def ended_by(self) -> GameEnd | None:
        """``bearoff``, ``drop`` or ``resign``; None for an unfinished game."""
        return self.summary.ended_by

    @property
    def problems(self) -> list[Problem]:
        """The problems located in this game."""
        return [p for p in self.replay.problems if p.game == self.number]

    @cached_property
    def actions(self) -> list[ReplayedAction]:
        """Every action replayed, in order, each with the moments before and after it and
        the problems found in it."""
        moments = self.moments()
        located: dict[int, list[Problem]] = {}
        for problem in self.problems:
            index = self._action_at(problem)
            if index is not None:
                located.setdefault(index, []).append(problem)
        return [ReplayedAction(event, before, after, located.get(k, []))
                for k, (event, before, after) in enumerate(zip(self._events, moments,
                                                               moments[1:]))]

    def _action_at(self, problem: Problem) -> int | None:
        """The index of the action a problem points into: by ``move`` in binary formats;
        else the last action on its line that starts at or before its column."""
        if problem.move is not None:
            return problem.move - 1 if 0 < problem.move <= len(self._events) else None
        found: int | None = None
        for index, event in enumerate(self._events):
            if problem.line is None or event.line != problem.line:
                continue
            column = event.source.column if event.source is not None else None
            if found is None or (problem.column is not None and column is not None
                                 and column <= problem.column):
                found = index
        return found

    def moments(self) -> list[Moment]:
        """The moments of the game: before each action, then after the last one (so one
        more than :attr:`actions`). ``moments()[m - 1]`` is ``status --move m``."""
        return list(self.replay.game_moments(self.number))

    def __iter__(self) -> Iterator[ReplayedAction]:
        return iter(self.actions)

    def __len__(self) -> int:
        return len(self._events)

    def __repr__(self) -> str:
        if self.ended_by is None:
            outcome = "unfinished"
        else:
            outcome = f"player {self.winner} wins {self.points} ({self.result}, {self.ended_by})"
        return f"<ReplayedGame {self.number}: {len(self)} actions, {outcome}>"

    def __eq__(self, other: object) -> bool:
        """The same game of an equal replay."""
        if other.__class__ is not self.__class__ or not isinstance(other, ReplayedGame):
            return NotImplemented
        return (self.replay, self.summary) == (other.replay, other.summary)

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dataclass with eq


class ReplayedAction:
    """One action replayed (a move, a cube action, a resignation or its acceptance), with
    the :class:`Moment` before and after it."""

    __slots__ = ("after", "before", "event", "problems")

    def __init__(self, event: Event, before: Moment, after: Moment,
                 problems: list[Problem]) -> None:
        self.event = event
        """The replayer's event (:class:`~bgtools.replay.Event`)."""
        self.before = before
        """The moment just before the action."""
        self.after = after
        """The moment just after it (before the next action, or the end of the game)."""
        self.problems = problems
        """The problems found in this action (an illegal play, a cube action out of turn
        ...), located by their line and column (binary formats: by move)."""

    @property
    def source(self) -> Action | None:
        """The record's cell this action replays: what the file writes (``play_text``,
        ``dice``, ``line``, ``column`` ...)."""
        return self.event.source

    @property
    def legal(self) -> bool:
        """False when a problem of severity ``error`` was found in this action."""
        return not any(p.severity is Severity.ERROR for p in self.problems)

    @property
    def index(self) -> int:
        """The action's 0-based index in its game."""
        return self.event.index

    @property
    def line(self) -> int | None:
        """The line of the file that writes it (None in binary formats)."""
        return self.event.line

    @property
    def player(self) -> int:
        """Who acts: 0 or 1."""
        return self.event.player

    @property
    def action(self) -> EventKind:
        """``move``, ``double``, ``take``, ``drop``, ``beaver``, ``raccoon``, ``resign`` or
        ``accept``."""
        return self.event.action

    @property
    def dice(self) -> tuple[int, int] | None:
        """The roll of a move, as written."""
        return self.event.dice

    @property
    def play(self) -> Play | None:
        """The play of a move (an empty Play when the roll could not be played; None when
        the roller resigned instead of playing, or for an action that is not a move);
        ``str(play)`` is the contract's canonical ``play``."""
        return self.event.play if self.event.action == "move" else None

    @property
    def steps(self) -> tuple[Step, ...] | None:
        """The play's steps ``(from, to)`` in the mover's numbering (bar 25, off 0)."""
        return self.play.steps if self.play is not None else None

    @property
    def position_before(self) -> Position:
        """The position before the action, seen from the player to act (for a cube
        answer: the doubler, as the contract's Position ID)."""
        return self.before.position

    @property
    def position_after(self) -> Position | None:
        """The position after the action. After a move, seen from the opponent, who acts
        next (as :meth:`Position.play <bgtools.engine.position.Position.play>` gives it);
        None for a roll that was not played (the roller resigned instead) or could not be
        replayed, as the contract's null ``position_id_after``. Any other action (a cube
        action, a resignation or its answer) leaves the board as it was:
        :attr:`position_before`, seen as it is seen."""
        if self.event.action == "move":
            after = self.event.position_after
            return after.swapped() if after is not None and self.play is not None else None
        return self.position_before

    @property
    def position_id_before(self) -> str:
        """GNU Backgammon's Position ID before the action."""
        return self.before.position_id

    @property
    def position_id_after(self) -> str | None:
        """The Position ID of :attr:`position_after` (for a move: encoded for the opponent;
        for any other action: :attr:`position_id_before`), as ``replay --jsonl`` and
        ``export`` give it."""
        after = self.position_after
        return after.position_id if after is not None else None

    @property
    def match_id_before(self) -> str:
        """GNU Backgammon's Match ID before the action (``""`` when no Match ID holds it)."""
        return self.before.match_id

    @property
    def pips_before(self) -> tuple[int, int]:
        """Pip counts before the action, ``(player 0, player 1)``."""
        return self.before.pips

    @property
    def pips_after(self) -> tuple[int, int]:
        """Pip counts after the action."""
        return self.after.pips

    @property
    def cube_before(self) -> int:
        """The cube value before the action."""
        return self.before.cube.value

    @property
    def cube_owner_before(self) -> int | None:
        """The cube's owner before the action (None: centred)."""
        return self.before.cube.owner

    @property
    def cube_after(self) -> Cube:
        """The cube after the action (a take turns it to the taker)."""
        return self.after.cube

    @property
    def score_before(self) -> tuple[int, int]:
        """The match score before the action."""
        return self.before.score

    @property
    def score_after(self) -> tuple[int, int]:
        """The match score after the action (changed only by the game's last action)."""
        return self.after.score

    def __repr__(self) -> str:
        what: str = self.action
        if self.action == "move":
            dice = f"{self.dice[0]}{self.dice[1]}" if self.dice else "??"
            written = self.source.play_text if self.source is not None else "?"
            what = f"{dice}: {self.play}" if self.play is not None else f"{dice}: {written}?"
        return f"<ReplayedAction game {self.event.game} #{self.index}: player {self.player} {what}>"

    def __eq__(self, other: object) -> bool:
        """The same action, moments and problems."""
        if other.__class__ is not self.__class__ or not isinstance(other, ReplayedAction):
            return NotImplemented
        return ((self.event, self.before, self.after, self.problems)
                == (other.event, other.before, other.after, other.problems))

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dataclass with eq
