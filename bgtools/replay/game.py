"""One game replayed: a :class:`Game` owns the state of the game being replayed (board, turn,
cube, how it ended) and checks each action of its record against the rules.

Each rule is checked in one named method (see :attr:`bgtools.rules.Rule.checked_by`); the
rules of a single play belong to the engine (:func:`~bgtools.engine.resolve.resolve_written_play`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bgtools.engine import ids
from bgtools.engine.board import can_move
from bgtools.engine.notation import WrittenPlay, parse_play
from bgtools.engine.position import Play, Position, unchecked_position
from bgtools.engine.resolve import (
    IllegalStep,
    ResolvedPlay,
    check_maximal,
    legal_results,
    play_steps,
    resolve_written_play,
    resolve_written_sides,
    sides_after_plain_play,
    sides_after_steps,
)
from bgtools.engine.results import result_name
from bgtools.errors import NotationError
from bgtools.record import Action, GameRecord, Problem, SetUp, Severity
from bgtools.replay.model import Event, EventKind, GameEnd, GameSummary
from bgtools.replay.rules import RuleProfile, severity_of

__all__ = ["Game", "MatchContext"]

_NO_PLAY: Final = Play()
"""The empty play of a roll that cannot be played (immutable, so one serves every roll)."""


class MatchContext:
    """What every game of a match shares: its rules and length, the Jacoby flag its IDs
    carry, the listener of events, the list its problems go to, the position each game
    starts from (backgammon's, or nackgammon's) and, for a money session headed with a
    nominal length (Galaxy's ``16 point match``), that length (``session_cap``, else 0)
    (read-only fields)."""

    profile: Final[RuleProfile]
    length: Final[int]
    session_cap: Final[int]
    jacoby_for_ids: Final[bool]
    on_event: Final[Callable[[Event], None] | None]
    problems: Final[list[Problem]]
    initial: Final[Position]

    def __init__(self, profile: RuleProfile, length: int, jacoby_for_ids: bool,
                 on_event: Callable[[Event], None] | None, problems: list[Problem],
                 initial: Position, session_cap: int = 0) -> None:
        self.profile = profile
        self.length = length
        self.session_cap = session_cap
        self.jacoby_for_ids = jacoby_for_ids
        self.on_event = on_event
        self.problems = problems
        self.initial = initial


class Game:
    """The game being replayed. Its state, besides board, turn and cube:

    ``over`` (how it ended, None while it runs), ``synced`` (False once a play could not be
    applied: later plays are not checked), ``pending`` (a double awaiting its answer:
    doubler and value offered), ``beavered_by`` (a beaver not yet followed by a roll),
    ``turn_open`` (a set-up handed the turn: the next actor is on roll), and what a
    resignation needs: ``unplayed`` (the last roll, not played), ``resign_marked_by`` (who
    wrote a resignation mark after rolling), ``resign_open`` (a resignation whose level a
    later ``Wins N`` gives) and ``resigned`` (its cell and the state before it).
    """

    __slots__ = (
        "beavered_by",
        "context",
        "crawford",
        "crawford_unknown",
        "cube",
        "cube_owner",
        "cube_turned",
        "ends_match",
        "events",
        "is_last",
        "length",
        "mover_side",
        "number",
        "on_event",
        "on_roll",
        "opponent_side",
        "over",
        "pending",
        "points",
        "post_crawford",
        "profile",
        "record",
        "resign_marked_by",
        "resign_open",
        "resigned",
        "rolls",
        "score",
        "set_up",
        "setup_next",
        "synced",
        "turn_open",
        "unplayed",
        "value",
        "winner",
    )

    def __init__(self, record: GameRecord, number: int, score: tuple[int, int],
                 crawford: bool, post_crawford: bool, context: MatchContext, *,
                 is_last: bool, crawford_unknown: bool = False) -> None:
        self.record = record
        self.context = context
        self.profile = context.profile
        self.length = context.length
        self.on_event = context.on_event
        self.number = number
        self.score = score
        self.crawford = crawford
        self.post_crawford = post_crawford
        # The file starts in the middle of a match with a player 1-away: this game may be
        # the Crawford game or come after it.
        self.crawford_unknown = crawford_unknown
        self.is_last = is_last
        # The board as two sides seen from ``on_roll`` (None until the first roll tells who
        # opened): plain tuples, so that a roll builds no Position (see ``position``).
        initial = context.initial
        self.mover_side: tuple[int, ...] = initial.mover
        self.opponent_side: tuple[int, ...] = initial.opponent
        self.on_roll: int | None = None
        self.cube = 1
        self.cube_owner: int | None = None
        self.cube_turned = False
        self.pending: tuple[int, int] | None = None
        self.beavered_by: int | None = None
        self.over: GameEnd | None = None
        self.winner: int | None = None
        self.value = 0  # 1/2/3 for bear-off and resignation
        self.points = 0
        self.rolls = 0
        self.synced = True
        self.events = 0
        self.resign_open = False
        self.unplayed: tuple[int, tuple[int, int], Position] | None = None
        self.resign_marked_by: int | None = None
        self.resigned: tuple[int, Action, Position, ids.MatchState] | None = None
        # After a set-up: no opening roll rules (gnubg's 'set turn' after 'set board' leaves
        # no trace in the SGF it saves).
        self.set_up = False
        self.turn_open = False
        self.setup_next = False  # a set-up comes right after the action being replayed
        # Under a house rule where resigning ends the match (Piece of Cake, MeGammon).
        self.ends_match = False

    @property
    def position(self) -> Position:
        """The board seen from ``on_roll``, built from the sides on request."""
        return unchecked_position(self.mover_side, self.opponent_side)

    @position.setter
    def position(self, position: Position) -> None:
        self.mover_side = position.mover
        self.opponent_side = position.opponent

    # --- reporting ------------------------------------------------------------------------

    def problem(self, rule: str, message: str, line: int | None, column: int | None,
                action: Action | None, severity: Severity | None = None) -> None:
        """Report a problem; without a line (binary formats) the action's ``move`` locates
        it."""
        move = action.move if line is None and action is not None else None
        self.context.problems.append(Problem(rule, message, line, column, self.number,
                                             severity or severity_of(rule), move))

    def next_index(self) -> int:
        """The 0-based index of the next event of this game."""
        self.events += 1
        return self.events - 1

    def state(self, actor: int, *, dice: tuple[int, int] | None = None,
              doubled: bool = False, turn: int | None = None) -> ids.MatchState:
        """The match state with ``actor`` to act (gnubg: a money session's IDs carry its
        running score)."""
        return ids.MatchState(
            match_length=self.length,
            score=self.score,
            cube_value=self.cube,
            cube_owner=self.cube_owner,
            on_roll=actor,
            crawford=self.crawford,
            game_state=ids.GameState.PLAYING,
            turn=actor if turn is None else turn,
            doubled=doubled,
            dice=dice,
            jacoby=self.context.jacoby_for_ids,
        )

    def view_of(self, player: int) -> Position:
        """The position seen from ``player``."""
        if self.on_roll is None or self.on_roll == player:
            return self.position
        return self.position.swapped()

    def emit(self, player: int, kind: EventKind, dice: tuple[int, int] | None, play: Play | None,
             before: Position, action: Action, after: Position | None = None) -> None:
        """Tell the listener about one action replayed, with the state before it."""
        if self.on_event is None:
            return
        state = self.state(player, dice=dice)
        self.on_event(Event(self.number, self.next_index(), action.line, player, kind, dice,
                            play, before, state, after, source=action))

    # --- the game -------------------------------------------------------------------------

    def play(self) -> GameSummary:
        """Replay every action and set-up of the game; its summary."""
        record = self.record
        actions = record.actions
        count = len(actions)
        setups = record.setups
        done = 0
        for i, action in enumerate(actions):
            while done < len(setups) and setups[done].before <= i:
                self.apply_setup(setups[done], action)
                done += 1
            self.setup_next = done < len(setups) and setups[done].before == i + 1
            next_action = actions[i + 1] if i + 1 < count else None
            if action.kind == "roll" and self.over is None:
                self.roll(action, next_action)  # the common case of act()
            else:
                self.act(action, next_action)
        for setup in setups[done:]:
            self.apply_setup(setup, None)
        if self.resigned is not None and self.over == "resign" and self.on_event is not None:
            self.emit_resignation()
        if self.over is None and not self.is_last:
            self.problem("game-unfinished", f"game {self.number} stops before it is over but "
                         f"game {self.number + 1} follows", record.line, None, None)
        elif self.over is None and not setups:
            # A game with set-ups (a board, turn or cube set by hand: an SGF or .xgp
            # position) is a position to study, not a record cut short.
            self.report_cut(actions[-1] if actions else None)
        return self.summary(count)

    def report_cut(self, last: Action | None) -> None:
        """``last-game-unfinished``: the file ends in the middle of this, its last game
        (played from the start, no set-up); located at the game's last row (its last
        action; the game's line when it has none)."""
        record = self.record
        if last is None:
            self.problem("last-game-unfinished", f"game {self.number}, the file's last, stops "
                         "before its first move", record.line, None, None)
            return
        where = f"line {last.line}" if last.line is not None else f"action {last.move}" \
            if last.move is not None else "its last action"
        self.problem("last-game-unfinished", f"game {self.number}, the file's last, stops "
                     f"unfinished after {_describe(last)} ({where}): the record is cut in the "
                     "middle of the game", last.line, None, last)

    def summary(self, actions: int) -> GameSummary:
        """The game's summary once every action is replayed."""
        summary = GameSummary(self.number, self.record.line, self.score, self.crawford,
                              self.post_crawford)
        if self.crawford_unknown and not self.crawford:  # a double showed it is post-Crawford
            summary.crawford = False
            summary.post_crawford = True
        summary.actions = actions
        summary.winner = self.winner
        summary.points = self.points if self.over else None
        summary.cube = self.cube
        summary.ended_by = self.over
        summary.result = result_name(self.value) if self.over else None
        summary.rolls = self.rolls
        summary.final_position = self.position
        summary.final_on_roll = self.on_roll
        return summary

    def act(self, action: Action, next_action: Action | None) -> None:
        """Replay one action of any kind."""
        kind = action.kind
        if kind in ("win", "loss", "resign"):
            self.result(action)
            return
        if self.over is not None:
            self.problem("action-after-end", f"{_describe(action)} after the game ended "
                         f"({self.over})", action.line, action.column, action)
            return
        self.unplayed = None
        self.resign_marked_by = None
        if kind == "roll":
            self.roll(action, next_action)
        elif kind == "double":
            self.double(action)
        elif kind in ("take", "drop", "beaver", "raccoon"):
            self.answer(action)

    def take_turn(self, action: Action) -> None:
        """``action.player`` rolls or doubles, so he is on roll from now on. A double left
        unanswered is ``cube-unanswered``; rolling out of turn is ``turn-order``, doubling
        out of turn or before the opening roll ``cube-timing`` (a set-up that handed over
        the turn lets either player act)."""
        p = action.player
        rolling = action.kind == "roll"
        if self.pending is not None:
            self.problem("cube-unanswered", "the double was never answered before this roll"
                         if rolling else "a double follows a double that was never answered",
                         action.line, action.column, action)
            self.pending = None
        if self.on_roll is None:
            if not rolling:
                self.problem("cube-timing", "the cube cannot be turned before the opening roll",
                             action.line, action.column, action)
            self.on_roll = p
        elif self.on_roll != p:
            if not self.turn_open:
                if rolling:
                    self.problem("turn-order", f"player {p} rolls but it is player "
                                 f"{self.on_roll}'s turn", action.line, action.column, action)
                else:
                    self.problem("cube-timing", f"player {p} doubles but it is player "
                                 f"{self.on_roll}'s turn to roll", action.line, action.column,
                                 action)
            self.mover_side, self.opponent_side = self.opponent_side, self.mover_side
            self.on_roll = p
        self.turn_open = False

    def pass_turn(self) -> None:
        """The other player is on roll."""
        self.mover_side, self.opponent_side = self.opponent_side, self.mover_side
        assert self.on_roll is not None
        self.on_roll = 1 - self.on_roll

    # --- rolls ----------------------------------------------------------------------------

    def roll(self, action: Action, next_action: Action | None) -> None:
        """A roll and its play: the per-roll hot path."""
        p = action.player
        self.beavered_by = None  # a beaver is taken implicitly by the next roll
        self.unplayed = None
        self.resign_marked_by = p if action.resign_marker else None
        if self.pending is not None or self.on_roll != p:
            self.take_turn(action)
        self.turn_open = False
        dice = action.dice
        if dice is None or not (1 <= dice[0] <= 6 and 1 <= dice[1] <= 6):
            self.problem("dice-mismatch", f"dice {dice} are not two dice 1-6", action.line,
                         action.column, action)
            self.pass_turn()
            return
        d1, d2 = dice
        self.rolls += 1
        if self.rolls == 1 and d1 == d2 and not self.set_up:
            self.problem("opening-double", f"the opening roll {d1}{d2} is a double",
                         action.line, action.column, action)
        mover = self.mover_side
        opponent = self.opponent_side
        steps = action.steps
        if steps is not None and self.synced and self.on_event is None:
            # Exact steps (.xg, .bgf, SGF) with no problem and no listener: only the sides
            # after them matter; play_as_written words any problem.
            sides = sides_after_steps(mover, opponent, d1, d2, steps)
            if sides is not None:
                self.after_quiet_play(p, sides)
                return
        if self.synced and steps is None and not action.illegal:
            text = action.play_text
            if self.on_event is None:
                # The usual roll (no problem, no listener): only the sides after it matter.
                sides = sides_after_plain_play(mover, opponent, d1, d2, text)
                if sides is not None:
                    self.after_quiet_play(p, sides)
                    return
            if not text or text.isspace():
                # No moves written (resolve_written_play would say None): play_as_written's
                # usual case, a roll that cannot be played, with no listener.
                if self.on_event is None and mover[0] != 15 and not can_move(
                        mover, opponent, d1, d2):
                    self.pass_turn()
                    return
                self.play_as_written(action, next_action, unchecked_position(mover, opponent), d1,
                                     d2)
                return
            known = resolve_written_sides(mover, opponent, d1, d2, text)
            if known is not None:
                self.finish_play(action, unchecked_position(mover, opponent), d1, d2, known)
                return
        self.play_as_written(action, next_action, unchecked_position(mover, opponent), d1, d2)

    def after_quiet_play(self, player: int,
                         sides: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
        """``player`` played a roll that has no problem, with no listener: ``sides`` is the
        board after it from his view. The game ends when he has borne off his last checker
        (as finish_play and play_as_written end it), else the other player is on roll."""
        if sides[0][0] == 15:
            self.end_by_bearoff(player, unchecked_position(sides[0], sides[1]))
            return
        self.mover_side = sides[1]
        self.opponent_side = sides[0]
        self.on_roll = 1 - player

    def finish_play(self, action: Action, before: Position, d1: int, d2: int,
                    known: ResolvedPlay) -> None:
        """Report a resolved play's problems and move on to the position after it."""
        mover, opponent, steps, hits, problems = known
        play_col = action.play_column or action.column
        for rule, message in problems:
            self.problem(rule, message, action.line, play_col, action)
        p = action.player
        if mover is None:
            self.synced = False
            pos = before
        elif mover[0] == 15 or self.on_event is not None:
            pos = unchecked_position(mover, opponent)
        else:  # the usual roll: only the sides the opponent sees are needed
            self.mover_side = opponent
            self.opponent_side = mover
            self.on_roll = 1 - p
            return
        if self.on_event is not None:
            play = None if steps is None else Play(steps, hits)
            self.emit(p, "move", (d1, d2), play, before, action,
                      after=pos if play is not None else None)
        if pos.mover[0] == 15:
            self.end_by_bearoff(p, pos)
            return
        self.position = pos.swapped()
        self.on_roll = 1 - p

    def play_as_written(self, action: Action, next_action: Action | None, before: Position,
                        d1: int, d2: int) -> None:
        """Any other roll: exact steps (SGF), a play the notation rejects (``notation``),
        Snowie's illegal-play cell, a roll written with no moves, or a play after the
        replay lost the position."""
        p = action.player
        written: WrittenPlay
        if action.steps is not None:
            written = WrittenPlay("moves", (), "")
        else:
            try:
                written = parse_play(action.play_text)
            except NotationError as exc:
                play_col = action.play_column or action.column
                col = play_col + (exc.column - 1) if play_col and exc.column else play_col
                self.problem("notation", exc.message, action.line, col, action)
                self.synced = False
                self.emit(p, "move", (d1, d2), None, before, action)
                self.pass_turn()
                return
        if not self.synced:
            self.emit(p, "move", (d1, d2), None, before, action)
            self.pass_turn()
            return
        play: Play | None
        pos = before
        if action.steps is not None:
            play, pos = self.play_steps(action, before, d1, d2)
        elif action.illegal or written.kind == "illegal":
            play, pos = self.play_marked_illegal(action, written, before)
        elif written.kind in ("cannot_move", "resign") or not written.paths:
            play, pos = self.play_nothing(action, written, next_action, before, d1, d2)
        else:  # pragma: no cover - a play of moves is resolve_written_play's (see roll)
            known = resolve_written_play(before, d1, d2, action.play_text)
            assert known is not None
            self.finish_play(action, before, d1, d2, known)
            return
        self.emit(p, "move", (d1, d2), play, before, action,
                  after=pos if play is not None else None)
        if pos.mover[0] == 15:
            self.end_by_bearoff(p, pos)
            return
        self.position = pos
        self.pass_turn()

    def play_steps(self, action: Action, before: Position, d1: int,
                   d2: int) -> tuple[Play | None, Position]:
        """Exact steps (SGF): each legal with a die of the roll, then the play maximal."""
        assert action.steps is not None
        me = list(before.mover)
        opp = list(before.opponent)
        dice = [d1] * 4 if d1 == d2 else [d1, d2]
        hits = play_steps(me, opp, action.steps, dice)
        if isinstance(hits, IllegalStep):
            src, dst = hits.step
            self.problem(hits.rule or "dice-mismatch", f"{d1}{d2}: step {src}/{dst} is illegal "
                         f"({hits.rule})", action.line, action.column, action)
            self.synced = False
            return None, before
        result = unchecked_position(tuple(me), tuple(opp))
        play = Play(tuple(action.steps), hits)
        res = check_maximal(before, d1, d2, play, result)
        if res.rule is not None:
            self.problem(res.rule, res.message, action.line, action.column, action)
        return play, result

    def play_marked_illegal(self, action: Action, written: WrittenPlay,
                            before: Position) -> tuple[Play | None, Position]:
        """A play the record itself marks as illegal (``illegal-play-line``): the replay goes
        on from the board Snowie's cell gives, else it loses the position."""
        text = written.text if action.illegal_text is None else action.illegal_text
        board = _snowie_board(text, before)
        self.problem("illegal-play-line", "the record marks this play as illegal"
                     + ("; replay goes on from the position it gives" if board else ""),
                     action.line, action.play_column or action.column, action)
        if board is None:
            self.synced = False
            return None, before
        return Play(), board

    def play_nothing(self, action: Action, written: WrittenPlay, next_action: Action | None,
                     before: Position, d1: int, d2: int) -> tuple[Play | None, Position]:
        """A roll written with no moves: fine when it cannot be played, or when the record
        resigns, stops or sets the board after it; else ``max-dice`` (``Cannot Move``),
        ``forced-play-omitted`` (one legal play, assumed) or ``empty-play``."""
        if not can_move(before.mover, before.opponent, d1, d2):
            return _NO_PLAY, before  # the usual empty roll: legal_results would give just this
        legal = legal_results(before, d1, d2)
        sample = next(iter(legal.values()))
        roll = f"{d1}{d2}"
        play_col = action.play_column or action.column
        if not sample.steps:
            return sample, before
        if written.kind == "resign" or (
            next_action is not None and next_action.kind in ("win", "loss", "resign")
        ):
            self.unplayed = (action.player, (d1, d2), before)  # rolled, then resigned
            return None, before
        if (next_action is None and self.is_last) or self.setup_next:
            return None, before  # the record ends (or the board is set) after the roll
        if written.kind == "cannot_move":
            self.problem("max-dice", f"{roll} written as 'Cannot Move' but it can be played "
                         f"(e.g. {sample})", action.line, play_col, action)
            return None, before
        if len(legal) == 1:
            self.problem("forced-play-omitted", f"{roll} written with no play; the only "
                         f"legal play {sample} is assumed", action.line, play_col, action)
            return sample, next(iter(legal))
        self.problem("empty-play", f"{roll} written with no play but it can be played "
                     f"(e.g. {sample})", action.line, play_col, action)
        return None, before

    def end_by_bearoff(self, winner: int, pos: Position) -> None:
        """``winner`` has borne off his last checker in ``pos`` (his view): the game ends."""
        self.over = "bearoff"
        self.winner = winner
        self.value = pos.game_value()
        value = self.value
        if self.length == 0 and self.profile.jacoby and not self.cube_turned:
            value = 1
        self.points = self.cube * value
        self.position = pos

    # --- SGF set-up nodes -----------------------------------------------------------------

    def apply_setup(self, setup: SetUp, action: Action | None) -> None:
        """Apply a set-up (the board in absolute letters, the player to move,
        the cube) before ``action``; like a Snowie ``Illegal play`` cell, the replay goes on
        from the board it gives. A set-up that gives no valid position is
        ``sgf-setup-invalid`` and leaves the replay unsynced (later plays are not checked)."""
        if setup.line is None:
            line, column = self.record.line, None
        else:
            line, column = setup.line, setup.column
        for message in setup.errors:
            self.problem("sgf-setup-invalid", message, line, column, action)
        view = 0 if self.on_roll is None else self.on_roll
        white = list(self.position.mover if view == 0 else self.position.opponent)
        black = list(self.position.opponent if view == 0 else self.position.mover)
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
            self.problem("sgf-setup-invalid", problem, line, column, action)
            self.synced = False
            self.position = self.position if turn == view else self.position.swapped()
        elif setup.sets_board or turn != view:
            self.position = Position(tuple(mover), tuple(opponent))
            self.synced = self.synced or setup.sets_board
        if setup.sets_board or setup.turn is not None:
            self.on_roll = turn
            self.turn_open = True
            self.set_up = True
        self.pending = None
        self.beavered_by = None
        self.unplayed = None
        if setup.cube is not None:
            self.cube = setup.cube
        if setup.cube_position is not None:
            self.cube_owner = None if setup.cube_position == "centred" else setup.cube_position
            self.cube_turned = self.cube_owner is not None
        if self.over is None and self.synced and self.position.mover[0] == 15:
            self.end_by_bearoff(turn, self.position)
        elif self.over is None and self.synced and self.position.opponent[0] == 15:
            self.problem("sgf-setup-invalid", "the set-up gives a finished game: "
                         f"player {1 - turn} has no checker left", line, column, action)

    # --- cube -----------------------------------------------------------------------------

    def double(self, action: Action) -> None:
        """A double: only where the cube is in use, outside the Crawford game, by the cube's
        owner (or while it is centred), to twice the cube; a dead cube is worth a warning."""
        p = action.player
        line, column = action.line, action.column
        self.beavered_by = None
        self.take_turn(action)
        before = self.position if self.on_event is not None else None
        if self.crawford and self.crawford_unknown:
            self.problem("crawford-unknown", f"a double at {self.score[0]}-{self.score[1]} in "
                         "the file's first game: the file starts in the middle of the match, "
                         "so whether this is the Crawford game cannot be told; read as "
                         "post-Crawford", line, column, action)
            self.crawford = False
        if before is not None:  # a listener: the position is built only for it
            self.emit(p, "double", None, None, before, action)
        if not self.profile.cube_in_use(self.length):
            self.problem("cube-disabled", "the cube is not in use in this match", line, column,
                         action)
        if self.crawford:
            self.problem("crawford-double", "a double in the Crawford game (a match played "
                         "without the Crawford rule: --rules nocrawford)", line, column, action)
        if self.cube_owner is not None and self.cube_owner != p:
            self.problem("cube-not-owner", f"player {p} doubles but player {self.cube_owner} "
                         "owns the cube", line, column, action)
        if action.cube is not None and action.cube != 2 * self.cube:
            self.problem("cube-value", f"'Doubles => {action.cube}' but the cube is at "
                         f"{self.cube}: the new value is {2 * self.cube}", line, column, action)
        if self.length and self.score[p] + self.cube >= self.length and not self.crawford:
            self.problem("cube-dead", f"player {p} needs {self.length - self.score[p]} and the "
                         f"cube is already {self.cube}", line, column, action)
        self.pending = (p, 2 * self.cube)

    def answer(self, action: Action) -> None:
        """A take, drop, beaver or raccoon: it must answer a double of the other player
        (``cube-answer``); beavers only in money play where allowed."""
        p = action.player
        line, column = action.line, action.column
        kind = action.kind
        if kind not in ("take", "drop", "beaver", "raccoon"):
            return  # act() sends only answers here
        if self.beavered_by is not None and p != self.beavered_by and kind in ("take", "raccoon"):
            # The original doubler accepts the beaver (SGF writes it) or raccoons.
            if kind == "raccoon":
                if self.on_event is not None:
                    # As for a beaver: the state of the moment before it, with the roller
                    # (who doubled first and now redoubles) to act on the beaver's cube.
                    before = self.view_of(p)
                    state = self.state(p, doubled=True, turn=p)
                    self.on_event(Event(self.number, self.next_index(), line, p, kind, None,
                                        None, before, state, source=action))
                if action.cube is not None and action.cube != 2 * self.cube:
                    self.problem("cube-value", f"'Raccoons => {action.cube}' but the new value "
                                 f"is {2 * self.cube}", line, column, action)
                self.cube *= 2
                self.cube_owner = p
                self.beavered_by = p  # the other player may write an explicit take of it
                return
            self.beavered_by = None
            return
        if self.pending is None:
            self.problem("cube-answer", f"'{kind}' without a double to answer", line, column,
                         action)
            return
        doubler, value = self.pending
        if p == doubler:
            self.problem("cube-answer", f"player {p} answers his own double", line, column,
                         action)
            return
        if self.on_event is not None:
            before = self.view_of(doubler)
            state = self.state(doubler, doubled=True, turn=p)
            self.on_event(Event(self.number, self.next_index(), line, p, kind, None, None,
                                before, state, source=action))
        self.pending = None
        if kind == "take":
            self.cube = value
            self.cube_owner = p
            self.cube_turned = True
        elif kind == "drop":
            self.over = "drop"
            self.winner = doubler
            self.points = value // 2
            self.value = 1
        elif kind == "beaver":
            if self.length or not self.profile.beavers:
                self.problem("beaver-not-allowed",
                             "beavers are allowed only in money play" if self.length
                             else "beavers are not allowed by this session's rules", line,
                             column, action)
            if action.cube is not None and action.cube != 2 * value:
                self.problem("cube-value", f"'Beavers => {action.cube}' but the new value "
                             f"is {2 * value}", line, column, action)
            self.cube = 2 * value
            self.cube_owner = p
            self.cube_turned = True
            self.beavered_by = p
        else:
            self.problem("cube-answer", "a raccoon must follow a beaver", line, column, action)

    # --- results --------------------------------------------------------------------------

    def result(self, action: Action) -> None:
        """A result cell (``Wins N``, ``Losses N``, SGF ``RE``) or an explicit resignation:
        it must credit the game's winner with its value (``wins-mismatch``); while the game
        runs it is a resignation by the other player."""
        line, column = action.line, action.column
        n = action.points
        # ``win``: the player in this column won; ``loss`` and ``resign``: he lost/resigned.
        winner = action.player if action.kind == "win" else 1 - action.player
        if action.kind == "resign" and n is None:
            if self.over is None:
                self.note_resignation(1 - winner, action)
                self.pending = None
                self.over = "resign"
                self.winner = winner
                self.value = 1
                self.points = self.cube
                self.resign_open = True
            return
        if self.over is not None and not (self.over == "resign" and self.resign_open):
            self.check_written_points(action, winner, n)
            return
        if self.over is not None and winner != self.winner:
            self.problem("wins-mismatch", f"player {winner} is credited but player "
                         f"{self.winner} resigned... the other player won", line, column, action)
            return
        if self.over is None and self.resign_marked_by == winner:
            self.problem("wins-mismatch", f"player {winner} is credited but wrote a "
                         "resignation after rolling", line, column, action)
            return
        self.resign_open = False
        cube = self.cube
        if not self.synced and n is not None:
            # The position is unknown (an illegal or unreadable play): trust the result.
            level = n // cube if n % cube == 0 and 1 <= n // cube <= 3 else 1
            self.over = self.over or "bearoff"
            self.winner = winner
            self.value = level
            self.points = n
            return
        # The game is still running: a resignation by the other player.
        if self.over is None:
            self.note_resignation(1 - winner, action)
        self.pending = None
        self.over = "resign"
        self.winner = winner
        if n is None:
            self.value = 1
            self.points = cube
            return
        self.resignation_value(action, winner, n)

    def check_written_points(self, action: Action, winner: int, n: int | None) -> None:
        """The result cell of a game already over: the right winner, and its value as
        written (or as real writers write the last game of a match, :meth:`capped_ok`)."""
        line, column = action.line, action.column
        if winner != self.winner:
            self.problem("wins-mismatch", f"player {winner} is credited but player "
                         f"{self.winner} won the game", line, column, action)
            return
        if n is not None and n != self.points:
            if self.capped_ok(winner, n, self.points):
                return
            if self.session_capped(n):
                self.points = n
                return
            if (not self.length and self.profile.jacoby is None and self.over == "bearoff"
                    and not self.cube_turned and n == self.cube):
                self.points = n  # the session played the Jacoby rule without saying so
                return
            self.problem("wins-mismatch", f"'Wins {n}' but the game is worth {self.points} "
                         f"({self.how()})", line, column, action)

    def resignation_value(self, action: Action, winner: int, n: int) -> None:
        """Check ``Wins n`` as the value of a resignation, under the profile's house rule."""
        line, column = action.line, action.column
        cube = self.cube
        profile = self.profile
        rule = profile.resignation if self.length else "game"
        needed = self.length - self.score[winner]
        if self.resigned is not None and self.resigned[1].forfeit:
            # Lost on time or abandoned (the resignation's cell says): the file's points
            # stand, whatever the cube.
            self.value = 1
            self.points = n
            self.ends_match = bool(self.length) and n >= needed
            self.problem("forfeit", f"player {1 - winner} forfeited the game (lost on time or "
                         f"left it): player {winner} is credited the {n} points the file "
                         "gives", line, column, action)
            return
        if profile.forfeit_factor and self.length and n == profile.forfeit_factor * cube:
            # The match is over: the points needed, or the cube when that covers them.
            self.value = 1
            self.points = max(needed, cube)
            self.problem("forfeit", f"'Wins {n}' is {profile.forfeit_factor} times the cube "
                         f"({cube}), the site's mark of a forfeited match: read as a "
                         f"resignation of the match, player {winner} gets the {needed} points "
                         "still needed", line, column, action)
            return
        if rule == "match":
            self.value = 1
            self.points = needed
            self.ends_match = True
            if n != needed:
                self.problem("resign-value", f"'Wins {n}' as a resignation: under the "
                             f"{profile.name} rules resigning gives the {needed} points still "
                             "needed", line, column, action)
            return
        # Only a value no resignation of the game explains (more than 3 times the cube; a
        # smaller one is the game's value capped at the points needed) resigns the match:
        # under a house rule that allows it, or, where resigning gives 1-3 times the cube,
        # when the file says the match is over with exactly those points (a site's forfeit:
        # lost on time, left, resigned the match; OpenGammon writes one so, with no play).
        if self.length and n == needed and n > 3 * cube and (
                rule == "game-or-match" or (rule == "game" and action.and_the_match)):
            self.value = 1
            self.points = n
            if rule == "game":
                self.problem("forfeit", f"'Wins {n} points and the match' with the cube at "
                             f"{cube}: no resignation of a game is worth that, so the match was "
                             f"forfeited (lost on time, left or resigned): player {winner} "
                             f"gets the {n} points still needed", line, column, action)
            elif profile.name == "match-resign":  # a site's own rule is not worth a note
                self.problem("match-resignation", f"the match was resigned: player {winner} "
                             f"gets the {n} points still needed", line, column, action)
            return
        if rule == "match-at-cube":
            self.ends_match = True
        level = 1 if n <= cube else 2 if n <= 2 * cube else 3
        self.value = level
        self.points = cube * level
        if n != cube * level:
            if self.capped_ok(winner, n, cube * level):
                return
            self.problem("resign-value", f"'Wins {n}' as a resignation with the cube at {cube}: "
                         f"must be {cube}, {2 * cube} or {3 * cube}", line, column, action)

    def capped_ok(self, winner: int, n: int, computed: int) -> bool:
        """A match-winning 'Wins N' that real writers write instead of the game's value.

        The value capped at the points still needed (DailyGammon, Galaxy, Studio, others);
        the match length after a resignation that ends the match, in eXtreme Gammon's files
        ('Wins 9 point and the match' for a resignation worth 2 at 7-7 of 9); the match length
        for any game that ends the match under Galaxy's profile ('Wins 7 point and the match'
        for a backgammon at 5-4 of 7). Anything else is the wrong value.
        """
        if not self.length:
            return False
        needed = self.length - self.score[winner]
        if computed < needed:
            return False
        if n == needed:
            return True
        if n != self.length:
            return False
        return self.profile.wins_at_length or (
            self.over == "resign" and self.profile.resign_at_length)

    def session_capped(self, n: int) -> bool:
        """A money session's game worth more than the session's nominal length: Backgammon
        Galaxy credits that length and no more ('Wins 16 point and the match' for a
        backgammon at 16 in a session headed ``16 point match``; the header's ``Elo`` score
        agrees; a copy in gnubg's form writes 'Wins 16 points'). Only that length, only
        where it caps."""
        cap = self.context.session_cap
        return bool(cap) and n == cap < self.points

    def how(self) -> str:
        """How the game ended, for messages."""
        if self.over == "drop":
            return "a dropped cube at " + str(self.points)
        name = result_name(self.value) or "single"
        return f"{name} with the cube at {self.cube}"

    # --- resignations ---------------------------------------------------------------------

    def note_resignation(self, resigner: int, action: Action) -> None:
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

    def emit_resignation(self) -> None:
        """A resignation's two events: ``resign`` by the loser, ``accept`` by the winner (a
        record holds only accepted resignations), with gnubg's state before each. They are
        emitted once the game's level is final (an SGF 'RE' gives it after)."""
        assert self.on_event is not None and self.resigned is not None
        resigner, action, before, state = self.resigned
        self.on_event(Event(self.number, self.next_index(), action.line, resigner, "resign",
                            None, None, before, state, source=action))
        accepted = state.with_(turn=1 - resigner, resignation=self.value)
        self.on_event(Event(self.number, self.next_index(), action.line, 1 - resigner,
                            "accept", None, None, before, accepted, source=action))


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
