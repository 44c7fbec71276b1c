"""The match loop: each game of a record replayed in turn (:class:`~bgtools.replay.game.Game`),
with what lies between games checked here: numbering, score lines, the Crawford game, games
after the end of the match, and whether the match is complete."""

from __future__ import annotations

from collections.abc import Callable

from bgtools.engine.position import Position
from bgtools.record import GameRecord, MatchRecord, Problem
from bgtools.replay.game import Game, MatchContext
from bgtools.replay.model import Event, MatchReplay
from bgtools.replay.rules import RuleProfile, profile_for, severity_of

__all__ = ["MatchReplayer", "replay_match"]


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
    MatchReplayer(record, profile, out, on_event).run()
    out.problems.sort(key=lambda p: (p.line or 0, p.column or 0))
    return out


class MatchReplayer:
    """Replays the games of one record into ``out``."""

    def __init__(self, record: MatchRecord, profile: RuleProfile, out: MatchReplay,
                 on_event: Callable[[Event], None] | None) -> None:
        self.record = record
        self.profile = profile
        self.out = out
        self.length = out.match_length
        # gnubg plays and imports money sessions with the Jacoby rule unless told otherwise.
        jacoby_for_ids = (profile.jacoby is not False) if self.length == 0 else False
        initial = Position.nackgammon_initial() if record.variation == "nackgammon" \
            else Position.initial()
        session_cap = record.match_length or 0 if profile.money_session else 0
        self.context = MatchContext(profile, self.length, jacoby_for_ids, on_event,
                                    out.problems, initial, session_cap)
        # Under a house rule where resigning ends the match (Piece of Cake, MeGammon).
        self.ended_by_resignation = False

    def problem(self, rule: str, message: str, line: int | None, column: int | None,
                game: int | None) -> None:
        """Report a problem of the match (between games)."""
        self.out.problems.append(Problem(rule, message, line, column, game, severity_of(rule)))

    def run(self) -> None:
        """Replay every game, then settle the match."""
        record = self.record
        if not record.games:
            self.problem("no-games", "the file holds no game", record.length_line, None, None)
            return
        self.check_length()
        score: tuple[int, int] | None = None
        # The score the games' results give from the first score line on, never set from a
        # later line: a line that agrees with it after a mismatch shows that the mismatched
        # line was the one wrong (reported there), not this one.
        counted: tuple[int, int] | None = None
        crawford_done = False
        crawford_counted = False  # a game started 1-away by the counted score
        match_over_at: int | None = None
        # Numbering may start anywhere (an excerpt of a longer match): later games follow on.
        first_number = record.games[0].number
        first_number = 1 if first_number is None else first_number
        for index, game in enumerate(record.games):
            self.check_number(game, index, first_number)
            if match_over_at is not None:
                self.problem("game-after-match", f"game {index + 1} follows the end of the "
                             f"match (won in game {match_over_at})", game.line, None, index + 1)
                break
            running = score
            score = self.score_before(game, index, score, counted)
            if counted is None:
                counted = score
            elif score != running and score == counted:
                # Back on the counted score after a wrong line: the Crawford game is the
                # one the counted scores give, not the one the wrong line suggested.
                crawford_done = crawford_counted
            if self.length and self.length - 1 in counted:
                crawford_counted = True
            is_crawford = False
            post = False
            if self.length and self.profile.crawford:
                length = self.length
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
            if unknown and game.crawford is not None:
                # Unless the file says which it is (gnubg's saved game: RU[Crawford] for a
                # post-Crawford game, RU[Crawford:CrawfordGame] for the Crawford game).
                unknown = False
                is_crawford = game.crawford
                post = not game.crawford
            played = Game(game, index + 1, score, is_crawford, post, self.context,
                          is_last=index == len(record.games) - 1, crawford_unknown=unknown)
            summary = played.play()
            self.out.games.append(summary)
            self.out.rolls += summary.rolls
            self.ended_by_resignation = self.ended_by_resignation or played.ends_match
            counted = (counted[0] + summary.score_after[0] - score[0],
                       counted[1] + summary.score_after[1] - score[1])
            score = summary.score_after
            if self.length and match_over_at is None and (
                    max(score) >= self.length or self.ended_by_resignation):
                match_over_at = index + 1
        self.finish(score or (0, 0))

    def check_length(self) -> None:
        """``match-length``: a length the site's profile does not offer."""
        offered = self.profile.lengths
        if offered is not None and self.length not in offered:
            shown = ", ".join("money" if n == 0 else str(n) for n in sorted(offered))
            self.problem("match-length", f"a {self.length}-point match: the "
                         f"{self.profile.name} rules offer {shown}", self.record.length_line,
                         None, None)

    def check_number(self, game: GameRecord, index: int, first_number: int) -> None:
        """``game-number``: games are numbered on from the file's first game."""
        expected = first_number + index
        if game.number is not None and index > 0 and game.number != expected:
            self.problem(
                "game-number",
                f"game {game.number} is the file's game {index + 1}" if first_number == 1
                else f"game {game.number} should be game {expected}: the file starts at "
                f"game {first_number}",
                game.line, None, index + 1,
            )

    def score_before(self, game: GameRecord, index: int, running: tuple[int, int] | None,
                     counted: tuple[int, int] | None) -> tuple[int, int]:
        """The score before a game: the running score, checked against the game's score
        line (``score-mismatch``; the score line wins); the first game's as written. A line
        that differs from the running score but agrees with ``counted`` (the results since
        the first line, no line taken on the way) is right: an earlier line was the wrong
        one, already reported, and one typo is one error, as one missing game is."""
        written = game.score
        if running is None:
            return written or (0, 0)
        if written is None or written == running:
            return running
        if written != counted:
            col = game.score_columns[0] if written[0] != running[0] else game.score_columns[1]
            self.problem(
                "score-mismatch",
                f"score line says {written[0]}-{written[1]} but the games before give "
                f"{running[0]}-{running[1]}",
                game.score_line, col, index + 1,
            )
        return written

    def finish(self, final: tuple[int, int]) -> None:
        """The final score, whether the match is complete (``match-incomplete``) and its
        winner."""
        out = self.out
        out.final_score = final
        if not self.length:
            last_game = out.games[-1] if out.games else None
            out.complete = bool(last_game and last_game.winner is not None)
            return
        out.complete = max(final) >= self.length
        if out.complete:
            out.winner = 0 if final[0] > final[1] else 1
        elif self.ended_by_resignation:
            out.complete = True
            out.winner = out.games[-1].winner
        else:
            last = self.record.games[-1]
            self.problem("match-incomplete", f"the match stops at {final[0]}-{final[1]} in a "
                         f"{self.length}-point match", last.line, None, len(self.record.games))
