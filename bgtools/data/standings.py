"""Standings across matches (``bgtools standings``): per player, matches played and won,
points for and against, and the results against each opponent.

A worker turns each file into :class:`MatchOutcome` objects (names, length, final score,
winner); :class:`Standings` adds them up in the parent and gives the contract's JSON
object, a CSV table and the order of the table. Money sessions have no winner and their
points are not match points: they are only counted (``money_sessions``).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from bgtools.batch import FileReport, Input
from bgtools.data.context import MatchFilter
from bgtools.data.spreadsheet import text_cell
from bgtools.record import SCHEMA
from bgtools.replay import MatchReplay

__all__ = ["MatchOutcome", "Record", "Standings", "outcome_of", "standings_report",
           "CSV_COLUMNS"]


CSV_COLUMNS = ("player", "opponent", "matches", "wins", "losses", "unfinished",
               "points_for", "points_against")
"""The columns of ``standings --csv``: one row per player (``opponent`` empty: the totals),
then one per opponent of that player."""


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """One match as the standings see it: who played, the length (0: money), the final
    score and the winner (None while the match is unfinished)."""

    names: tuple[str, str]
    length: int
    score: tuple[int, int]
    winner: int | None


def outcome_of(replay: MatchReplay, display: str,
               aliases: dict[str, str] | None = None) -> MatchOutcome:
    """The outcome of one replayed match of the file ``display`` (players as
    :func:`bgtools.data.stats.player_keys` names them)."""
    from bgtools.data.stats import player_keys

    winner = replay.winner if replay.complete and replay.match_length else None
    return MatchOutcome(player_keys(replay, display, aliases), replay.match_length,
                        replay.final_score, winner)


@dataclass(slots=True)
class Record:
    """Matches, wins, losses, unfinished matches and points of a player (or of a player
    against one opponent)."""

    matches: int = 0
    wins: int = 0
    losses: int = 0
    unfinished: int = 0
    points_for: int = 0
    points_against: int = 0

    def add(self, mine: int, theirs: int, won: bool | None) -> None:
        """Count one match: the points scored each way; ``won`` None when unfinished."""
        self.matches += 1
        self.points_for += mine
        self.points_against += theirs
        if won is None:
            self.unfinished += 1
        elif won:
            self.wins += 1
        else:
            self.losses += 1

    def to_json(self) -> dict[str, int]:
        """The record's JSON fields."""
        return {"matches": self.matches, "wins": self.wins, "losses": self.losses,
                "unfinished": self.unfinished, "points_for": self.points_for,
                "points_against": self.points_against}

    def row(self) -> list[int]:
        """The record's CSV cells, in :data:`CSV_COLUMNS` order after the names."""
        return [self.matches, self.wins, self.losses, self.unfinished, self.points_for,
                self.points_against]


@dataclass(slots=True)
class PlayerStanding:
    """A player's totals, money sessions and record against each opponent."""

    total: Record = field(default_factory=Record)
    money_sessions: int = 0
    opponents: dict[str, Record] = field(default_factory=dict)


@dataclass(slots=True)
class Standings:
    """The standings of every player over the matches added so far."""

    players: dict[str, PlayerStanding] = field(default_factory=dict)
    matches: int = 0
    money_sessions: int = 0

    def add(self, outcome: MatchOutcome) -> None:
        """Count one match (or money session) for both its players."""
        if outcome.length == 0:
            self.money_sessions += 1
            for name in dict.fromkeys(outcome.names):
                self.players.setdefault(name, PlayerStanding()).money_sessions += 1
            return
        self.matches += 1
        for side in (0, 1):
            name, other = outcome.names[side], outcome.names[1 - side]
            standing = self.players.setdefault(name, PlayerStanding())
            won = None if outcome.winner is None else outcome.winner == side
            mine, theirs = outcome.score[side], outcome.score[1 - side]
            standing.total.add(mine, theirs, won)
            standing.opponents.setdefault(other, Record()).add(mine, theirs, won)

    def order(self) -> list[str]:
        """Players best first: most wins, then best point difference, then by name."""
        def key(name: str) -> tuple[int, int, int, str]:
            t = self.players[name].total
            return (-t.wins, t.losses, t.points_against - t.points_for, name)

        return sorted(self.players, key=key)

    def to_json(self, files_read: int, files_skipped: int,
                duplicates: int = 0) -> dict[str, Any]:
        """The contract's ``"kind": "standings"`` object (players in :meth:`order`)."""
        players: dict[str, Any] = {}
        for name in self.order():
            standing = self.players[name]
            obj: dict[str, Any] = standing.total.to_json()
            obj["money_sessions"] = standing.money_sessions
            obj["opponents"] = {other: standing.opponents[other].to_json()
                                for other in sorted(standing.opponents)}
            players[name] = obj
        return {"schema": SCHEMA, "kind": "standings", "files_read": files_read,
                "files_skipped": files_skipped, "duplicate_matches": duplicates,
                "matches": self.matches,
                "money_sessions": self.money_sessions, "players": players}

    def to_csv(self) -> str:
        """The standings as CSV (:data:`CSV_COLUMNS`, a header row first); a name that a
        spreadsheet would run as a formula is written as text
        (:func:`bgtools.data.spreadsheet.text_cell`)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for name in self.order():
            standing = self.players[name]
            if standing.total.matches == 0:
                continue  # money sessions only
            player = text_cell(name)
            writer.writerow([player, "", *standing.total.row()])
            for other in sorted(standing.opponents):
                writer.writerow([player, text_cell(other), *standing.opponents[other].row()])
        return out.getvalue()


def standings_report(item: Input, rules: str = "auto", include_invalid: bool = False,
                     filters: MatchFilter | None = None) -> FileReport:
    """The ``standings`` job: read one file; for a used file, the outcomes of its matches
    that ``filters`` keep, each with its fingerprint and number, as the payload
    (``{"outcomes": [(fingerprint, match, MatchOutcome)]}``): the parent counts each played
    match once."""
    from bgtools.data.context import match_context
    from bgtools.data.jobs import read_usable, with_payload

    report, result = read_usable(item, rules, include_invalid)
    if result is None:
        return report
    aliases = filters.aliases if filters is not None else None
    outcomes: list[tuple[str, int, MatchOutcome]] = []
    for number, (replay, events) in enumerate(zip(result.replays, result.events), 1):
        context = match_context(replay, events, report.display, number, aliases)
        if filters is not None and not filters.keeps(context):
            continue
        outcomes.append((context.fingerprint, number,
                         outcome_of(replay, report.display, aliases)))
    return with_payload(report, {"outcomes": outcomes})
