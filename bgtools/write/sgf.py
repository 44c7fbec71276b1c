"""Writer for GNU Backgammon SGF (``GM[6]``), laid out as gnubg's
``save match`` writes it: one game tree per game, the root node on one line, then one line
per node, ``)`` after the last node.

``write_sgf(record)`` replays the record (see :func:`bgtools.write.mat.normalise_match`)
and writes:

* for a record read from SGF: every node as read, property for property (analysis ``A``,
  ``DA``, ``LU``, comments ``C`` ... and gnubg's statistics ``GS`` included), so gnubg's
  own file comes back byte for byte; only ``MI`` and ``RE`` are recomputed when they
  disagree with the replay, and bgtools' ``HR`` (below) is stated afresh;
* for any other record: gnubg's root properties (``FF GM CA AP MI PW PB``, on the first game
  ``DT EV RO PC AN GC`` and bgtools' ``HR``, then ``RU RE``) with ``AP[bgtools:<version>]``,
  and the nodes gnubg
  writes: ``W[DDxxyy..]`` moves (steps in written order), ``double``/``take``/``drop``, a
  beaver as a ``double`` by the taker followed by the original doubler's ``take`` (or by his
  raccoon: his own ``double``, then the beaverer's ``take``), and a
  roll followed by a resignation as ``PL[W]DI[DD]``. gnubg's statistics (``GS``) are not
  invented.

``HR[profile]`` (house rules; gnubg skips properties it does not know) names the rule
profile the match was replayed under when the copy would not pick it by itself
(:func:`bgtools.replay.profile_to_state`); the SGF reader reads it as the ``Rules`` tag.

A Snowie ``Illegal play (...)`` cell has no SGF form: :class:`UnwritableRecordError`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bgtools import __version__
from bgtools.engine.position import Step
from bgtools.readers.sgf import kept_nodes, match_info
from bgtools.record import MatchRecord
from bgtools.replay import Event, MatchReplay
from bgtools.write.mat import (
    MatchScript,
    ScriptGame,
    ScriptMove,
    UnwritableRecordError,
    normalise_match,
)

__all__ = ["APPLICATION", "render_sgf", "sgf_steps", "write_sgf"]

APPLICATION = f"bgtools:{__version__}"
"""The ``AP`` value of SGF files bgtools writes from other formats."""

Props = list[tuple[str, list[str]]]

_ESCAPE_RE = re.compile(r"([\\\]])")
_RESULT_RE = re.compile(r"([WB])\+([0-9]+)(.*)", re.DOTALL)


def _escape(value: str) -> str:
    return _ESCAPE_RE.sub(r"\\\1", value)


def _props_text(props: Props) -> str:
    return "".join(name + "".join(f"[{_escape(v)}]" for v in values) for name, values in props)


def _letter(point: int, player: int) -> str:
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("a") + 24 - point)


def sgf_steps(steps: Sequence[Step], player: int) -> str:
    """The letter pairs of ``steps`` (mover's numbering) for ``player`` (0 = White)."""
    return "".join(_letter(src, player) + _letter(dst, player) for src, dst in steps)


def _colour(player: int) -> str:
    return "W" if player == 0 else "B"


def _result(game: ScriptGame) -> str | None:
    summary = game.summary
    if summary.winner is None or summary.points is None or summary.ended_by is None:
        return None
    return (f"{_colour(summary.winner)}+{summary.points}"
            + ("R" if summary.ended_by == "resign" else ""))


def _rules(script: MatchScript, game: ScriptGame) -> list[str]:
    rules: list[str] = []
    if not script.cube_in_use:
        rules.append("NoCube")
    if script.crawford_rule:
        rules.append("Crawford")
        if game.crawford:
            rules.append("CrawfordGame")
    if script.jacoby:
        rules.append("Jacoby")
    if script.info.variation is not None:
        rules.append("Nackgammon")
    beaver = script.record.tag("Beaver") if not script.length else None
    if beaver is not None:
        # Not gnubg's (it has no beaver rule per match and skips names it does not know):
        # the money session's stated rule, read back by our reader.
        rules.append("Beaver" if beaver.strip().lower() == "on" else "NoBeaver")
    return rules


def _match_info_values(script: MatchScript, index: int, game: ScriptGame) -> list[str]:
    return [f"length:{script.stated_length}", f"game:{index}", f"ws:{game.score[0]}",
            f"bs:{game.score[1]}"]


def _new_root(script: MatchScript, index: int, game: ScriptGame) -> Props:
    props: Props = [("FF", ["4"]), ("GM", ["6"]), ("CA", ["UTF-8"]), ("AP", [APPLICATION]),
                    ("MI", _match_info_values(script, index, game)),
                    ("PW", [script.names[0]]), ("PB", [script.names[1]])]
    if index == 0:
        info = script.info
        if info.date is not None:
            y, m, d = info.date
            props.append(("DT", [f"{y:04d}-{m:02d}-{d:02d}"]))
        for name, value in (("EV", info.event), ("RO", info.round), ("PC", info.site),
                            ("AN", info.annotator), ("GC", info.comment),
                            ("HR", info.rules)):
            if value is not None:
                props.append((name, [value]))
    rules = _rules(script, game)
    if rules:
        props.append(("RU", [":".join(rules)]))
    auto = _automatic_doubles_cube(game)
    if auto is not None:
        props.append(("CV", [str(auto)]))
    result = _result(game)
    if result is not None:
        props.append(("RE", [result]))
    return props


def _automatic_doubles_cube(game: ScriptGame) -> int | None:
    """The cube a game starts with after automatic doubles (a set-up of the cube alone
    before the first action, as read from XG's count or SGF's root ``CV``), else None."""
    for setup in game.record.setups:
        if (setup.before == 0 and setup.cube is not None and setup.cube > 1
                and not setup.sets_board and setup.turn is None
                and setup.cube_position is None):
            return setup.cube
    return None


def _kept_root(script: MatchScript, index: int, game: ScriptGame, original: Props) -> Props:
    """The root as read, with ``MI`` and ``RE`` recomputed where they disagree."""
    mi = _match_info_values(script, index, game)
    result = _result(game)
    props: Props = []
    seen_re = False
    for name, written in original:
        values = written
        if name == "MI":
            wanted = match_info(mi)
            have = match_info(values)
            if any(have.get(k) != v for k, v in wanted.items()):
                values = mi
        elif name == "RE":
            seen_re = True
            if result is None:
                continue
            m = _RESULT_RE.fullmatch(values[0].strip() if values else "")
            said = (m.group(1) + "+" + m.group(2) + ("R" if m.group(3).strip()[:1].upper() == "R"
                                                     else "")) if m else None
            if said != result:
                values = [result]
        elif name == "GS" and result is not None and not seen_re:
            props.append(("RE", [result]))
            seen_re = True
        elif name == "HR":
            continue  # the profile replayed under is stated afresh below
        props.append((name, list(values)))
    if index == 0 and script.info.rules is not None:
        props.append(("HR", [script.info.rules]))
    if result is not None and not seen_re:
        props.append(("RE", [result]))
    return props


def _setup_nodes(game: ScriptGame) -> list[tuple[int, Props]]:
    """The set-up nodes of a game read from another format (an XG set position, an edited
    position, a position file), each with the number of actions before it, as the record
    keeps their SGF properties; not the cube of automatic doubles, written in the root."""
    auto = _automatic_doubles_cube(game)
    out: list[tuple[int, Props]] = []
    for setup in game.record.setups:
        if auto is not None and setup.before == 0 and not setup.sets_board and \
                setup.turn is None and setup.cube == auto:
            auto = None  # the root's CV
            continue
        if setup.properties:
            out.append((setup.before, [(name, list(values))
                                       for name, values in setup.properties]))
    return out


def _new_nodes(game: ScriptGame) -> list[Props]:
    nodes: list[Props] = []
    moves = game.moves
    setups = _setup_nodes(game)
    position = {id(action): i for i, action in enumerate(game.record.actions)}
    for index, move in enumerate(moves):
        at = position.get(id(move.source)) if move.source is not None else None
        while setups and at is not None and setups[0][0] <= at:
            nodes.append(setups.pop(0)[1])
        colour = _colour(move.player)
        kind = move.kind
        if kind == "move":
            assert move.dice is not None
            value = f"{move.dice[0]}{move.dice[1]}" + sgf_steps(move.executable, move.player)
            nodes.append([(colour, [value])])
        elif kind == "dice":
            assert move.dice is not None
            dice = f"{move.dice[0]}{move.dice[1]}"
            if index + 1 < len(moves) and moves[index + 1].kind == "resign":
                nodes.append([("PL", [colour]), ("DI", [dice])])
            else:
                nodes.append([(colour, [dice])])
        elif kind == "illegal":
            raise UnwritableRecordError(
                f"game {game.number}: a Snowie 'Illegal play' cell has no SGF form")
        elif kind in ("double", "beaver", "raccoon"):
            nodes.append([(colour, ["double"])])
            # gnubg accepts a beaver (or a raccoon) with a take by the player it answers; a
            # raccoon is that player's own ``double`` instead, so no take comes between.
            answerer = 1 - move.player
            if kind != "double" and not (_next_is_take(moves, index, answerer)
                                         or _next_is_raccoon(moves, index, answerer)):
                nodes.append([(_colour(answerer), ["take"])])
        elif kind in ("take", "drop"):
            nodes.append([(colour, [kind])])
    nodes.extend(props for _, props in setups)
    return nodes


def _next_is_take(moves: list[ScriptMove], index: int, player: int) -> bool:
    nxt = moves[index + 1] if index + 1 < len(moves) else None
    return nxt is not None and nxt.kind == "take" and nxt.player == player


def _next_is_raccoon(moves: list[ScriptMove], index: int, player: int) -> bool:
    nxt = moves[index + 1] if index + 1 < len(moves) else None
    return nxt is not None and nxt.kind == "raccoon" and nxt.player == player


def render_sgf(script: MatchScript) -> str:
    """The SGF text of an already normalised match."""
    out: list[str] = []
    from_sgf = script.record.format == "sgf"
    for index, game in enumerate(script.games):
        kept = kept_nodes(game.record) if from_sgf else None
        if kept is not None:
            root = _kept_root(script, index, game, kept[0])
            nodes: list[Props] = kept[1]
        else:
            root = _new_root(script, index, game)
            nodes = _new_nodes(game)
        out.append("(;" + _props_text(root) + "\n")
        out.append("\n".join(";" + _props_text(node) for node in nodes))
        out.append(")\n")
    return "".join(out)


def write_sgf(record: MatchRecord, replay: MatchReplay | None = None,
              events: Sequence[Event] | None = None) -> str:
    """The GNU Backgammon SGF text of ``record`` (see the module description).

    ``replay`` and ``events`` may be passed to save a second replay: ``events`` must be all
    events of ``replay_match(record, ..., on_event=events.append)``. Raise
    :class:`UnwritableRecordError` when the record cannot be written as SGF.
    """
    return render_sgf(normalise_match(record, replay, events))
