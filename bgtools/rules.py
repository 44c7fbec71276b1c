"""Every rule bgtools reports, once: its id, its severity, what it means and where it is
checked (:data:`RULES`).

The table sits below every layer (it imports nothing of bgtools), so that each layer reads
its rules from here: the engine its words for a step that breaks a rule
(:attr:`Rule.step_message`), the replayer the severities of its problems, the CLI and the
documentation (``bgtools rules``, ``docs/rules.md``) the whole table.
"""

from __future__ import annotations

from typing import Final, Literal

from bgtools.dataclass_methods import FrozenFieldMethods, prebuilt_dataclass

__all__ = ["ERROR", "RULES", "WARNING", "Rule", "RuleSeverity"]

RuleSeverity = Literal["error", "warning"]
"""How bad a problem under a rule is: the values of :class:`bgtools.record.Severity`."""

ERROR: Final = "error"
"""An error: it makes a record invalid."""
WARNING: Final = "warning"
"""A warning: reported, but the record stays valid."""


# A prebuilt dataclass (see bgtools.dataclass_methods: start-up time).
@prebuilt_dataclass
class Rule(FrozenFieldMethods):
    """One rule: its stable ``id`` (in messages, JSON and tests), its ``severity``, a one-line
    ``description``, and ``checked_by``: where it is checked (methods of
    ``bgtools.replay.game.Game`` and ``bgtools.replay.match.MatchReplayer`` unless a module is
    named). ``step_message``: the engine's words for a step that breaks it (None for the
    rules no single step can break)."""

    id: str
    severity: RuleSeverity
    description: str
    checked_by: str
    step_message: str | None = None


_TABLE = (
    Rule("syntax", ERROR,
        "a line of the file cannot be read",
        "the readers (bgtools.read), as the record's problems",
    ),
    Rule("notation", ERROR,
        "a play is written in a notation that cannot be read",
        "Game.play_as_written",
    ),
    Rule("opening-double", ERROR,
        "the opening roll of a game cannot be a double",
        "Game.roll",
    ),
    Rule("turn-order", ERROR,
        "the players must alternate: this action is by the wrong player",
        "Game.take_turn",
    ),
    Rule("dice-mismatch", ERROR,
        "the moves written do not match the dice rolled",
        "Game.roll, Game.play_steps, bgtools.engine.resolve",
        step_message="the move does not match the dice",
    ),
    Rule("no-checker", ERROR,
        "a move starts from a point where the mover has no checker",
        "bgtools.engine.board.step_error",
        step_message="there is no checker of the mover on the starting point",
    ),
    Rule("blocked-point", ERROR,
        "a move lands on a point held by two or more opposing checkers",
        "bgtools.engine.board.step_error",
        step_message="the landing point is held by two or more opposing checkers",
    ),
    Rule("must-enter-bar", ERROR,
        "a player with a checker on the bar must enter it before moving others",
        "bgtools.engine.board.step_error",
        step_message="a checker on the bar must enter before any other move",
    ),
    Rule("bearoff-not-home", ERROR,
        "bearing off is allowed only with every checker in the home board",
        "bgtools.engine.board.step_error",
        step_message="bearing off needs all checkers in the home board",
    ),
    Rule("bearoff-higher-die", ERROR,
        "a die larger than needed bears off only from the highest point",
        "bgtools.engine.board.step_error",
        step_message="a higher die bears off only from the highest occupied point",
    ),
    Rule("max-dice", ERROR,
        "a play must use as many dice as possible",
        "bgtools.engine.resolve.check_maximal, Game.play_nothing",
    ),
    Rule("higher-die", ERROR,
        "when only one die can be played, the larger one must be played",
        "bgtools.engine.resolve.check_maximal",
    ),
    Rule("empty-play", ERROR,
        "a roll is written with no play although a legal play exists",
        "Game.play_nothing",
    ),
    Rule("forced-play-omitted", WARNING,
        "a roll with exactly one legal play was written with no play",
        "Game.play_nothing",
    ),
    Rule("ambiguous-play", WARNING,
        "a merged move could be played in several ways",
        "bgtools.engine.resolve.resolve_written_play",
    ),
    Rule("hit-mark", WARNING,
        "a hit mark '*' disagrees with the position",
        "bgtools.engine.resolve.resolve_written_play",
    ),
    Rule("illegal-play-line", WARNING,
        "the record itself marks a play as illegal",
        "Game.play_marked_illegal",
    ),
    Rule("cube-timing", ERROR,
        "the cube may be turned only by the player on roll, before rolling",
        "Game.take_turn",
    ),
    Rule("cube-not-owner", ERROR,
        "the cube may be turned only by its owner or while it is centred",
        "Game.double",
    ),
    Rule("cube-value", ERROR,
        "the value in 'Doubles => V' must be twice the current cube",
        "Game.double, Game.answer",
    ),
    Rule("cube-disabled", ERROR,
        "the cube is not in use under these rules",
        "Game.double",
    ),
    Rule("cube-dead", WARNING,
        "a double with the cube already dead (doubler's score plus cube reaches the length)",
        "Game.double",
    ),
    Rule("crawford-double", ERROR,
        "no doubling in the Crawford game",
        "Game.double",
    ),
    Rule("crawford-unknown", WARNING,
        (
            "a double in the first game of a file that starts with a player 1-away: it cannot be"
            " told whether that game is the Crawford game"
        ),
        "Game.double",
    ),
    Rule("cube-answer", ERROR,
        "a take, drop or beaver must answer a double",
        "Game.answer",
    ),
    Rule("cube-unanswered", ERROR,
        "a double must be answered before play goes on",
        "Game.take_turn",
    ),
    Rule("beaver-not-allowed", ERROR,
        "beavers only in money play where the rules allow them",
        "Game.answer",
    ),
    Rule("action-after-end", ERROR,
        "nothing may follow the end of a game but its result",
        "Game.act",
    ),
    Rule("wins-mismatch", ERROR,
        "the 'Wins N' points differ from the game's result",
        "Game.result, Game.check_written_points",
    ),
    Rule("expected-result", ERROR,
        "the match's result differs from the one claimed (validate --expect)",
        "bgtools.reports.expect.check_claim",
    ),
    Rule("resign-value", ERROR,
        "a resignation must be worth 1, 2 or 3 times the cube",
        "Game.resignation_value",
    ),
    Rule("match-resignation", WARNING,
        "the match was resigned: the winner got the points still needed",
        "Game.resignation_value",
    ),
    Rule("forfeit", WARNING,
        (
            "a forfeit: a game lost on time or abandoned (BGBlitz), or the site's forfeit marker"
            " ('Wins' 1004 times the cube, Backgammon Studio) or 'Wins N points and the match' "
            "with the points still needed beyond 3 times the cube, read as a resigned match"
        ),
        "Game.resignation_value",
    ),
    Rule("match-length", WARNING,
        "the site does not offer matches of this length",
        "MatchReplayer.check_length",
    ),
    Rule("game-unfinished", ERROR,
        "a game stops before it is over while later games follow",
        "Game.play",
    ),
    Rule("last-game-unfinished", WARNING,
        (
            "the file's last game stops before it is over: the record is cut in the middle of a "
            "game (not a position set up by hand)"
        ),
        "Game.play",
    ),
    Rule("score-mismatch", ERROR,
        "a game's score line differs from the running score",
        "MatchReplayer.score_before",
    ),
    Rule("game-after-match", ERROR,
        "a game follows the end of the match",
        "MatchReplayer.run",
    ),
    Rule("match-incomplete", WARNING,
        "the match stops before a player reached the match length",
        "MatchReplayer.finish",
    ),
    Rule("game-number", WARNING,
        "games are not numbered on from the first game: 1, 2, 3 ...",
        "MatchReplayer.check_number",
    ),
    Rule("no-games", ERROR,
        "the file holds no game",
        "MatchReplayer.run",
    ),
    Rule("sgf-setup-invalid", ERROR,
        "an SGF set-up node (AE/AW/AB, PL, CV, CP) gives no valid position or cube",
        "Game.apply_setup",
    ),
    Rule("encoding-assumed", WARNING,
        "the file is not UTF-8: it was read as cp1252 (else latin-1)",
        "bgtools.readers.source, as the record's problems",
    ),
    Rule("unreadable", ERROR,
        "the file cannot be read or is not a match record (exit 2)",
        "bgtools.reports.files.unreadable_json",
    ),
)

RULES: Final[dict[str, Rule]] = {rule.id: rule for rule in _TABLE}
"""Every rule bgtools reports, by id, in the order of the table."""
