"""Writer for the Jellyfish ``.mat`` match text exactly as GNU Backgammon exports it.

``write_mat(record)`` replays a :class:`~bgtools.record.MatchRecord` (read from any
format) and writes what gnubg's ``export match mat`` writes for the same match
(docs/converting.md): header tags, free comment, the length line, per game a score line and
the cells laid out in gnubg's columns, ``Wins`` lines in gnubg's four placements.

What comes from the file and what from the replay:

* plays keep the **written order** of their steps (merged segments such as ``24/18*/13``,
  ``24/13`` or ``13/7(2)`` are expanded into one step per die, in the order written); the
  dice keep their written order; hit marks are recomputed (gnubg's rule: ``*`` on the first
  step landing on a point that held an opposing checker before the play);
* score lines, cube values and every ``Wins N`` are computed by the replay, so dialect
  files (``Cannot Move``, ``???``, ``bar``/``off`` words, missing marks, capped
  ``Wins N``, wrong score lines) come out as a normalised gnubg file;
* games after the end of the match are left out (gnubg's importer ignores them);
* a Snowie ``Illegal play (...)`` cell is written back verbatim after its roll (gnubg and
  bgtools both read it; no legal play describes it);
* a roll the replay could not follow (an illegal or unreadable play) cannot be written:
  :class:`UnwritableRecordError`; nor can a game with SGF set-up nodes (a board, turn or
  cube set by hand): a .mat has no way to say it, and gnubg's own export writes the moves
  without the set-up (the result does not replay).

The game script built here (:func:`normalise_match`) is shared with the SGF writer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from bgtools.engine.notation import parse_play
from bgtools.engine.position import Play, Position, Step
from bgtools.engine.resolve import IllegalStep, play_steps
from bgtools.engine.results import result_level
from bgtools.errors import BgtoolsError
from bgtools.record import Action, GameRecord, MatchRecord, SetUp
from bgtools.replay import (
    Event,
    GameSummary,
    MatchReplay,
    crawford_can_apply,
    profile_to_state,
    replay_match,
)

__all__ = [
    "MatchInfo",
    "MatchScript",
    "ScriptGame",
    "ScriptMove",
    "UnwritableRecordError",
    "mat_name",
    "mat_text",
    "normalise_match",
    "write_mat",
]


class UnwritableRecordError(BgtoolsError):
    """A record that cannot be written in the requested format (with the reason)."""


MoveKind = Literal["move", "dice", "illegal", "double", "beaver", "raccoon", "take", "drop",
                   "resign"]


@dataclass(frozen=True, slots=True)
class ScriptMove:
    """One of gnubg's move records, as a writer needs it.

    ``move``: a roll and its ``steps`` (written order, one per die) with gnubg's hit
    ``marks``; ``dice``: rolled and not played (then resigned, or the record stops);
    ``illegal``: a Snowie illegal-play cell (``text``); ``double``/``beaver``/``raccoon``:
    ``cube`` is the value offered; ``take``/``drop``; ``resign``: ``player`` resigned ``level``
    (1-3) with the cube at ``cube``, worth ``points`` when that is not ``level`` times the
    cube (a resignation of the match: the points the winner still needed).
    """

    kind: MoveKind
    player: int
    dice: tuple[int, int] | None = None
    steps: tuple[Step, ...] = ()
    marks: tuple[bool, ...] = ()
    cube: int = 1
    level: int = 0
    points: int | None = None
    text: str = ""
    source: Action | None = None
    executable: tuple[Step, ...] = ()
    """The steps in an order in which each one is legal when played (``steps`` itself when
    the written order is; SGF needs one)."""


@dataclass(slots=True)
class ScriptGame:
    """One game: its number (1-based), score before it, moves and result."""

    number: int
    score: tuple[int, int]
    crawford: bool
    moves: list[ScriptMove]
    summary: GameSummary
    record: GameRecord
    bearoff_value: int = 0
    """1-3 for a game ended by bearing off (the position's value, before any Jacoby rule)."""


@dataclass(slots=True)
class MatchInfo:
    """The match information gnubg keeps: place, event, round, date, annotator, comment."""

    site: str | None = None
    event: str | None = None
    round: str | None = None
    date: tuple[int, int, int] | None = None
    annotator: str | None = None
    comment: str | None = None
    """The free comment, lines joined by newlines, ending in a newline (gnubg's form)."""
    jacoby: str | None = None
    """The session's ``Jacoby`` setting (``On``/``Off``) when the record states it."""
    beaver: str | None = None
    """The session's ``Beaver`` setting (``On``/``Off``) when the record states it."""
    crawford: str | None = None
    """``Off`` for a match played without the Crawford rule (else None: gnubg writes no
    tag, and the Crawford rule is what a .mat without one is read with)."""
    variation: str | None = None
    """``NackGammon`` for a nackgammon match (the tag as gnubg and eXtreme Gammon write it;
    SGF: ``RU[Nackgammon]``), else None."""
    rules: str | None = None
    """The rule profile the copy states (``Rules`` tag, SGF ``HR``): the one it was replayed
    under when neither its site nor ``standard`` would pick it (:func:`profile_to_state`)."""
    source_tags: list[tuple[str, str]] | None = None
    """A ``.mat`` source's header tags in its order (None for another format): the copy
    keeps those the writer does not own (``Match ID``, ``Player 1 Elo``, ``CubeLimit``...)
    and writes its own at the place of the source's (:data:`_WRITER_TAGS`)."""


@dataclass(slots=True)
class MatchScript:
    """A replayed record in the shape both writers walk."""

    record: MatchRecord
    replay: MatchReplay
    length: int
    names: tuple[str, str]
    info: MatchInfo
    games: list[ScriptGame] = field(default_factory=list)
    crawford_rule: bool = True
    jacoby: bool = False
    cube_in_use: bool = True
    stated_length: int = 0
    """The length the copy states: ``length``, or a money session's nominal length (Galaxy's
    ``16 point match``), which a copy needs to be read as that session again (its points
    capped at that length)."""


_DATE_RE = re.compile(r"\s*(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")
_SCORE_COLON_RE = re.compile(r":(?=[ \t]*[0-9])")


def mat_text(value: str) -> str:
    """``value`` as one piece of a ``.mat`` line: every control character (a line break,
    a tab, a NUL, which would make the file binary) becomes a space."""
    return _CONTROL_RE.sub(" ", value)


def mat_name(name: str, player: int) -> str:
    """A player's name as the ``.mat`` reader reads it back from the score line: on one
    line, without the blanks the reader strips, not starting a comment (``;``, ``#``),
    and, for the first name, without a colon the reader would take for the one before its
    score (``Alice : 3``, ``12:30``: written ``.``). A name left empty is ``Player N``."""
    text = mat_text(name).strip().lstrip(";#").strip()
    if player == 0:
        text = _SCORE_COLON_RE.sub(".", text)
    return text or f"Player {player + 1}"


_WRITER_TAGS = {"site": "Site", "place": "Site", "event": "Event", "round": "Round",
                "eventdate": "EventDate", "transcriber": "Transcriber",
                "annotator": "Transcriber", "crawford": "Crawford", "jacoby": "Jacoby",
                "beaver": "Beaver", "rules": "Rules", "variation": "Variation",
                "comment": "Comment"}
"""The header tags the writer owns (by lower-case name: the tag it writes for them, from the
record and its replay): a source's tag of these names is never copied, so none is written
twice and none contradicts the replay (a 1-point match's ``Crawford "Off"``)."""


def _kept_tags(record: MatchRecord) -> list[tuple[str, str]] | None:
    """The header tags of a ``.mat`` source, in order, that a ``.mat`` header line can hold
    again (one line, no quote-breaking name); None for another format (gnubg's export of an
    SGF writes only its own tags)."""
    if record.format != "mat":
        return None
    return [(name, value) for name, value in record.tags
            if name.strip() and not any(c in name for c in '"[]\r\n')
            and "\n" not in value and "\r" not in value]


def _match_info(record: MatchRecord) -> MatchInfo:
    info = MatchInfo()
    info.source_tags = _kept_tags(record)
    info.site = record.tag("Site") or record.tag("Place")
    info.event = record.tag("Event")
    info.round = record.tag("Round")
    info.annotator = record.tag("Transcriber") or record.tag("Annotator")
    application = record.extra.get("application")
    if not (record.format == "sgf" and isinstance(application, str)
            and application.startswith("GNU Backgammon")):
        # gnubg's SGF states the Jacoby rule in RU and its export of it writes no tag.
        info.jacoby = record.tag("Jacoby")
    info.beaver = record.tag("Beaver")
    if record.variation == "nackgammon":
        info.variation = "NackGammon"
    date = record.tag("EventDate")
    if date is not None:
        m = _DATE_RE.match(date)
        if m is not None and int(m.group(1)) > 1900:
            info.date = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
    comment = record.tag("Comment")
    if comment is not None:
        info.comment = comment if comment.endswith("\n") else comment + "\n"
    elif record.format == "mat":
        in_games: set[str] = set()
        for game in record.games:
            in_games.update(text for _, text in game.comments)
        lines = [c for c in record.comments if c not in in_games]
        if lines:
            info.comment = "".join(line + "\n" for line in lines)
    return info


def normalise_match(record: MatchRecord, replay: MatchReplay | None = None,
                    events: Sequence[Event] | None = None) -> MatchScript:
    """Replay ``record`` (unless ``replay`` and its ``events`` are given: the events from
    ``replay_match(record, on_event=events.append)``) into the script both writers walk.

    Raise :class:`UnwritableRecordError` when a roll could not be replayed or a game was
    forfeited (lost on time: ``Action.forfeit``), which neither format can say.
    """
    for index, written in enumerate(record.games):
        if any(action.forfeit for action in written.actions):
            raise UnwritableRecordError(
                f"game {index + 1}: a forfeit (a game lost on time or abandoned) has no .mat "
                "or SGF form, which would read it as a resignation; convert to JSON instead")
    if replay is None or events is None:
        collected: list[Event] = []
        replay = replay_match(record, replay.profile if replay else None,
                              on_event=collected.append)
        events = collected
    per_game: dict[int, list[Event]] = {}
    for event in events:
        per_game.setdefault(event.game, []).append(event)
    names = record.names or ("Player 1", "Player 2")
    profile = replay.profile
    script = MatchScript(record, replay, replay.match_length, names, _match_info(record))
    script.stated_length = (record.match_length or 0) if profile.money_session \
        else replay.match_length
    # The Crawford rule is stated only where it could apply (gnubg's .mat and SGF of a
    # 1-point match or a money session say nothing of it, whatever the record's tag).
    could_apply = crawford_can_apply(replay.match_length)
    script.crawford_rule = could_apply and profile.crawford
    if could_apply and not profile.crawford:
        script.info.crawford = "Off"
    script.info.rules = profile_to_state(record, profile)
    script.jacoby = replay.match_length == 0 and profile.jacoby is not False
    if replay.match_length == 0 and profile.jacoby is None:
        # The file does not say: a gammon on a centred cube counted in full shows the
        # session was played without the Jacoby rule; otherwise gnubg's default (on).
        script.jacoby = not any(
            g.ended_by == "bearoff" and g.cube == 1 and g.points is not None and g.points > 1
            for g in replay.games)
    script.cube_in_use = profile.cube_in_use(replay.match_length)
    last_index = len(replay.games) - 1
    for index, summary in enumerate(replay.games):
        game_record = record.games[index]
        moves = _game_moves(summary, per_game.get(summary.number, []), index == last_index)
        game = ScriptGame(summary.number, summary.score_before, summary.crawford, moves,
                          summary, game_record)
        if summary.ended_by == "bearoff" and summary.points is not None:
            # The replay's own value of the game (the Jacoby rule applied), per cube.
            game.bearoff_value = summary.points // summary.cube
        script.games.append(game)
    return script


def _game_moves(summary: GameSummary, events: list[Event], last_game: bool) -> list[ScriptMove]:
    moves: list[ScriptMove] = []
    # The cube the game starts with: 1, or as set up before its first action (automatic
    # doubles).
    cube = events[0].state_before.cube_value if events else 1
    last_move = max((i for i, e in enumerate(events) if e.action == "move"), default=-1)
    for i, event in enumerate(events):
        source = event.source
        kind = event.action
        player = event.player
        if kind == "move":
            assert event.dice is not None
            if source is not None and source.illegal:
                text = (source.play_text if source.illegal_text is None
                        else source.illegal_text).strip()
                moves.append(ScriptMove("illegal", player, event.dice, text=text, source=source))
                continue
            written = source is not None and bool(source.play_text.strip() or source.steps)
            if event.play is None and not written:
                resigned = summary.ended_by == "resign" and i == last_move
                unfinished = summary.ended_by is None and last_game and i == len(events) - 1
                # SGF dice shown, then the board set by hand (a set-up node follows).
                superseded = source is not None and source.dice_only
                if resigned or unfinished or superseded:
                    moves.append(ScriptMove("dice", player, event.dice, source=source))
                    continue
            if event.play is None:
                where = f" (line {event.line})" if event.line else ""
                raise UnwritableRecordError(
                    f"game {summary.number}: the roll {event.dice[0]}{event.dice[1]}{where} "
                    "could not be replayed, so it cannot be written")
            steps = _written_order(source, event.play)
            marks = _gnubg_marks(event.position_before, steps)
            executable = steps
            if steps != event.play.steps and not _legal_order(event.position_before,
                                                              event.dice, steps):
                executable = event.play.steps
            moves.append(ScriptMove("move", player, event.dice, steps, marks, source=source,
                                    executable=executable))
        elif kind in ("double", "beaver", "raccoon"):
            cube *= 2
            moves.append(ScriptMove(kind, player, cube=cube, source=source))
        elif kind in ("take", "drop"):
            moves.append(ScriptMove(kind, player, cube=cube, source=source))
    if summary.ended_by == "resign" and summary.winner is not None:
        level = result_level(summary.result)
        points = summary.points if summary.points != level * cube else None
        moves.append(ScriptMove("resign", 1 - summary.winner, cube=cube, level=level,
                                points=points))
    return moves


def _written_order(source: Action | None, play: Play) -> tuple[Step, ...]:
    """The steps of ``play`` in the order the record wrote them, one per die."""
    if source is None or source.steps is not None or not source.play_text.strip():
        return play.steps
    try:
        written = parse_play(source.play_text)
    except BgtoolsError:
        return play.steps
    pool = list(play.steps)
    out: list[Step] = []
    for src, dst, _ in written.segments:
        chain = _chain(pool, src, dst)
        if chain is None:
            return play.steps
        for step in chain:
            pool.remove(step)
        out.extend(chain)
    if pool:
        return play.steps
    return tuple(out)


def _legal_order(before: Position, dice: tuple[int, int], steps: tuple[Step, ...]) -> bool:
    """True when ``steps`` can be played one after the other in this order."""
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    played = play_steps(list(before.mover), list(before.opponent), steps, pool)
    return not isinstance(played, IllegalStep)


def _chain(pool: list[Step], src: int, dst: int) -> list[Step] | None:
    """Steps from ``pool`` carrying one checker from ``src`` to ``dst`` (depth first)."""
    if src == dst:
        return []
    for step in dict.fromkeys(pool):
        if step[0] == src and step[1] >= dst:
            rest = list(pool)
            rest.remove(step)
            tail = _chain(rest, step[1], dst)
            if tail is not None:
                return [step, *tail]
    return None


def _gnubg_marks(before: Position, steps: tuple[Step, ...]) -> tuple[bool, ...]:
    """gnubg's ``*``: the destination held an opposing checker before the play, and no
    earlier step of the play landed there."""
    marks: list[bool] = []
    seen: set[int] = set()
    for _, dst in steps:
        mark = dst > 0 and dst not in seen and before.opponent[25 - dst] > 0
        marks.append(mark)
        seen.add(dst)
    return tuple(marks)


# --- the .mat layout -------------------------------------------------------------------------


def _plural(n: int) -> str:
    return "s" if n > 1 else ""


def _move_text(move: ScriptMove) -> str:
    assert move.dice is not None
    text = f"{move.dice[0]}{move.dice[1]}: "
    if move.kind == "illegal":
        return text + move.text
    parts: list[str] = []
    for i, ((src, dst), mark) in enumerate(zip(move.steps, move.marks)):
        parts.append(f"{src}/{dst}" + ("*" if mark else "") + (" " if i < 3 else ""))
    return text + "".join(parts)


# Complexity kept: one branch per kind of .mat cell written.
def _write_game(out: list[str], game: ScriptGame, names: tuple[str, str]) -> None:  # noqa: C901
    """gnubg's ``ExportGameJF`` for one game (same counters, same spacing)."""
    out.append(f" Game {game.number}\n")
    left = f"{mat_name(names[0], 0)} : {game.score[0]}"
    # C's %-31s pads by bytes. With 31 bytes or more gnubg writes no gap at all and its own
    # reader then misreads the second name; two spaces keep the line readable.
    width = len(left.encode("utf-8"))
    gap = " " * (31 - width) if width < 31 else "  "
    out.append(f" {left}{gap}{mat_name(names[1], 1)} : {game.score[1]}\n")
    i = 0
    file_cube = 1
    dice_rolled = False
    roller = -1
    moves = game.moves
    for index, move in enumerate(moves):
        kind = move.kind
        if kind == "take" and index > 0 and moves[index - 1].kind in ("beaver", "raccoon"):
            continue  # gnubg writes no 'Takes' after a beaver (nor we after a raccoon)
        if kind in ("move", "illegal"):
            dice_rolled = False
            sz = _move_text(move)
        elif kind == "double":
            file_cube *= 2
            sz = f" Doubles => {file_cube}"
        elif kind == "beaver":
            file_cube *= 2
            sz = f" Beavers => {file_cube}"
        elif kind == "raccoon":
            file_cube *= 2
            sz = f" Raccoons => {file_cube}"
        elif kind == "take":
            sz = " Takes"
        elif kind == "drop":
            n = file_cube // 2
            gap = "\n      " if i & 1 else " " * 23
            sz = f" Drops{gap}Wins {n} point{_plural(n)}"
        elif kind == "resign":
            n = move.level * file_cube if move.points is None else move.points
            if dice_rolled and roller != move.player:
                # The opponent of the player who rolled resigns: gnubg would write the
                # 'Wins' on the roll's line, where no reader finds it; end the line first.
                out.append("\n")
                dice_rolled = False
                wins = f"Wins {n} point{_plural(n)}\n"
                sz = ("      " if move.player == 1 else " " * 34) + wins
            elif move.player == 1:
                odd = bool(i & 1) ^ dice_rolled
                sz = ("\n" if odd else "") + f"      Wins {n} point{_plural(n)}\n"
            elif i & 1:
                odd = not dice_rolled
                sz = (" " if odd else " " * 24) + f"Wins {n} point{_plural(n)}\n"
            else:
                odd = dice_rolled
                sz = (" " if odd else " " * 34) + f"Wins {n} point{_plural(n)}\n"
        else:  # dice rolled, not played
            assert move.dice is not None
            sz = f"{move.dice[0]}{move.dice[1]}: "
            dice_rolled = True
            roller = move.player
        if i == 0 and kind in ("move", "illegal", "dice") and move.player == 1:
            out.append("  1)" + " " * 29)
            i += 1
        if (i & 1) or kind == "resign":
            out.append(sz)
            if kind != "dice":
                out.append("\n")
        elif kind != "dice":
            out.append(f"{(i >> 1) + 1:3d}) {sz:<27} ")
        else:
            out.append(f"{(i >> 1) + 1:3d}) {sz:<3}")
        if kind == "drop":
            out.append("\n")
            if not i & 1:
                out.append("\n")
        if kind == "move" and index == len(moves) - 1 and game.bearoff_value:
            n = game.bearoff_value * file_cube
            pad = " " * 34 if i & 1 else "\n      "
            out.append(f"{pad}Wins {n} point{_plural(n)}\n\n")
        i += 1
        if kind == "raccoon" and _next_by_same_player(moves, index):
            # The raccoon is the roller's second cube cell in a row: leave the other
            # player's cell empty so the next one lands in the roller's column again.
            out.append("\n" if i & 1 else f"{(i >> 1) + 1:3d}) " + " " * 28)
            i += 1


def _next_by_same_player(moves: list[ScriptMove], index: int) -> bool:
    """Whether the move written after ``moves[index]`` (a take after it is not written) is
    by the same player, and not a resignation (which is laid out on its own)."""
    player = moves[index].player
    for move in moves[index + 1:]:
        if move.kind == "take":
            continue
        return move.player == player and move.kind != "resign"
    return False


def _own_tags(info: MatchInfo) -> dict[str, str]:
    """The tags the writer writes, in its order (gnubg's for the first five)."""
    own: dict[str, str] = {}
    if info.site is not None:
        own["Site"] = info.site
    if info.event is not None:
        own["Event"] = info.event
    if info.round is not None:
        own["Round"] = info.round
    if info.date is not None:
        y, m, d = info.date
        own["EventDate"] = f"{y:4d}.{m:02d}.{d:02d}"
    if info.annotator is not None:
        own["Transcriber"] = info.annotator
    # Not in gnubg's export (its import ignores them); XG's files state the match's or the
    # session's rules so, in this order, and our reader reads them back. gnubg's export of
    # a match without the Crawford rule says nothing, and so reads back as a Crawford match.
    if info.crawford is not None:
        own["Crawford"] = info.crawford
    if info.jacoby is not None:
        own["Jacoby"] = info.jacoby
    if info.beaver is not None:
        own["Beaver"] = info.beaver
    if info.rules is not None:
        own["Rules"] = info.rules
    if info.variation is not None:
        own["Variation"] = info.variation
    return own


def _header_tags(info: MatchInfo) -> list[tuple[str, str]]:
    """The header's tags in order: the writer's own; with a ``.mat`` source, the source's
    tags in its order, each of the writer's own at the place of the first source tag of its
    name (the rest after them)."""
    own = _own_tags(info)
    if info.source_tags is None:
        return list(own.items())
    tags: list[tuple[str, str]] = []
    for name, value in info.source_tags:
        owner = _WRITER_TAGS.get(name.strip().lower())
        if owner is None:
            tags.append((name, value))
        elif owner in own:
            tags.append((owner, own.pop(owner)))
    tags.extend(own.items())
    return tags


def _header(info: MatchInfo) -> str:
    out = [f'; [{name} "{mat_text(value)}"]\n' for name, value in _header_tags(info)]
    if info.comment is not None:
        # Each line a comment line: a CR would end one (the reader reads it as a line break).
        lines = info.comment.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        text = "\n".join(mat_text(line) for line in lines)
        out.append("\n; ")
        for k, ch in enumerate(text):
            if ch == "\n" and k + 1 < len(text):
                out.append("\n; ")
            else:
                out.append(ch)
    out.append("\n")
    return "".join(out)


def write_mat(record: MatchRecord, replay: MatchReplay | None = None,
              events: Sequence[Event] | None = None) -> str:
    """The ``.mat`` text GNU Backgammon's ``export match mat`` writes for ``record``.

    ``replay`` and ``events`` may be passed to save a second replay: ``events`` must be all
    events of ``replay_match(record, ..., on_event=events.append)``. Raise
    :class:`UnwritableRecordError` when a roll of the record could not be replayed or a game
    has set-ups (a board, turn or cube set by hand, whatever the reader: an SGF set-up node,
    a set or edited position of ``.xg`` or ``.bgf``), which a .mat cannot say.
    """
    for index, game in enumerate(record.games):
        if game.setups:
            # gnubg's own export writes such a game's moves without the set-up (and warns
            # "this game was edited during play and cannot be exported correctly").
            more = len(game.setups) - 1
            raise UnwritableRecordError(
                f"game {index + 1}: {_describe_setup(game.setups[0])}"
                + (f" (and {more} more set-up{'s' if more > 1 else ''})" if more else "")
                + " has no .mat form; convert to SGF or JSON instead")
    script = normalise_match(record, replay, events)
    return render_mat(script)


def _describe_setup(setup: SetUp) -> str:
    """What a set-up is, in words, whatever the reader that found it: ``a set-up (the
    board and the player to move set by hand before action 15: an edited position)``."""
    what: list[str] = []
    if setup.sets_board:
        what.append("the board")
    if setup.turn is not None:
        what.append("the player to move")
    if setup.cube is not None or setup.cube_position is not None:
        cube = "the cube" if setup.cube is None else f"the cube at {setup.cube}"
        if setup.cube_position == "centred":
            cube += " (centred)"
        elif setup.cube_position is not None:
            cube += f" (owned by player {setup.cube_position})"
        what.append(cube)
    if not what:
        what.append("nothing readable")
    listed = what[0] if len(what) == 1 else ", ".join(what[:-1]) + " and " + what[-1]
    where = "at the start of the game" if setup.before == 0 else \
        f"before action {setup.before + 1}"
    kind = ""
    if setup.sets_board:
        kind = ": a set position" if setup.before == 0 else ": an edited position"
    return f"a set-up ({listed} set by hand {where}{kind})"


def render_mat(script: MatchScript) -> str:
    """The ``.mat`` text of an already normalised match."""
    out = [_header(script.info), f" {script.stated_length} point match\n\n"]
    for game in script.games:
        _write_game(out, game, script.names)
    return "".join(out)
