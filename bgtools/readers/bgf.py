"""Reader for BGBlitz match files (``.bgf``), layout in ``docs/bgf-format.md``.

A ``.bgf`` file is one JSON header line (``{"format":"BGF","version":"1.0","compress":true,
"useSmile":true}``), then the match: gzip- (or zlib-) compressed when ``compress``, in
Smile binary JSON (:mod:`bgtools.readers.smile`) when ``useSmile``, else JSON text. The
match object holds the settings and a ``games`` list; each game a ``moves`` list whose
entries are either a roll (``red``/``green`` the dice, ``from``/``to`` the checker moves in
the mover's numbering) or, with ``green`` 7, an action coded by ``red`` (1 double, 2 take,
3 drop, 4 end of game, 5 a dance with the dice in ``from[0]``/``to[0]``, 9 resign).

:func:`parse_bgf` raises :class:`~bgtools.errors.UnsupportedFormatError` for input that
is not a readable BGBlitz file and :class:`~bgtools.errors.LimitExceededError` when the
body would decompress beyond :data:`~bgtools.limits.MAX_DECOMPRESSED_BYTES` or holds more
values than :data:`~bgtools.limits.MAX_ELEMENTS` or a string longer than
:data:`~bgtools.limits.MAX_STRING_CHARS`. An initial position with more than 15 checkers
a side (or on a point) is an error, refused before any board is built from it. Values out
of range become problems (``rule="syntax"``) located by game and move.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bgtools.engine.board import NACKGAMMON_SIDE, START_SIDE
from bgtools.errors import LimitExceededError, UnsupportedFormatError
from bgtools.limits import MAX_DECOMPRESSED_BYTES, MAX_MATCH_LENGTH, format_count
from bgtools.readers.bounds import check_json_values, check_strings
from bgtools.readers.inflate import inflate_bounded
from bgtools.readers.smile import SmileError, SmileLimitError, decode_smile
from bgtools.readers.spans import BoardTracker, moves_text
from bgtools.readers.xg import Sides, board_setup
from bgtools.record import Action, GameRecord, MatchRecord, Problem, Severity

__all__ = ["looks_like_bgf", "parse_bgf", "read_bgf_document"]

_HEAD_LIMIT = 4096
_ANALYSIS = frozenset({"moveAnalysis", "equity", "luck", "pr", "prGreen", "prRed",
                       "dancingEquity"})
"""Members holding BGBlitz's analysis: read past, never built (bgtools invents none)."""
_READ = frozenset({
    # the match
    "matchlen", "nameGreen", "nameRed", "site", "event", "date", "round", "location",
    "comment", "useCrawford", "useJacoby", "useBeaver", "useCube", "finalGreen", "finalRed",
    "games",
    # a game, its initial position
    "scoreGreen", "scoreRed", "isCrawford", "initial", "points", "cube", "cubeOwner",
    "moves", "wonPoints", "wasResignation", "lostOnTime", "wasForfeit",
    # a move
    "player", "red", "green", "from", "to"})
"""Every member :class:`_Reader` reads, at any level: parse_bgf builds only these."""


def looks_like_bgf(data: bytes) -> bool:
    """True when ``data`` starts with a BGBlitz header line ``{"format":"BGF", ...}``."""
    head = data[:_HEAD_LIMIT].split(b"\n", 1)[0]
    return head.startswith(b"{") and b'"format"' in head and b'"BGF"' in head


def _bad(name: str, why: str) -> UnsupportedFormatError:
    return UnsupportedFormatError(f"{name} is not a readable BGBlitz file: {why}")


def read_bgf_document(data: bytes, name: str = "<input>",
                      members: frozenset[str] | None = None) -> tuple[dict[str, Any], object]:
    """The header line and the decoded match document of a ``.bgf`` file, without the
    analysis; with ``members``, a Smile body keeps only the members so named (the rest is
    read past and not built)."""
    line, sep, body = data.partition(b"\n")
    try:
        header = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _bad(name, "the header line is not JSON") from None
    if not isinstance(header, dict) or header.get("format") != "BGF":
        raise _bad(name, 'the header line has no "format":"BGF"')
    if not sep or not body:
        raise _bad(name, "there is nothing after the header line (truncated)")
    if header.get("compress"):
        wbits = 31 if body[:2] == b"\x1f\x8b" else 15  # gzip, else a bare zlib stream
        body = inflate_bounded(body, MAX_DECOMPRESSED_BYTES, name, "the compressed body",
                               lambda why: _bad(name, why), wbits)
    if header.get("useSmile"):
        try:
            document = decode_smile(body, _ANALYSIS, keep=members)
        except SmileLimitError as limit:  # its own name: mypyc types one name once per function
            raise LimitExceededError(f"{name}: {limit}", limit.limit_name, limit.limit) from None
        except SmileError as exc:
            raise _bad(name, f"the Smile body is damaged ({exc})") from None
    else:
        check_json_values(body, name)
        try:
            document = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise _bad(name, "the body is not JSON") from None
        check_strings(document, name)
    return header, document


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _all_ints(values: list[object]) -> bool:
    """True when every item is an int and none a bool (as ``_int`` reads each)."""
    for value in values:  # noqa: SIM110 - a loop is cheaper than a generator in pure Python
        if type(value) is not int:  # a bool (or an int subclass) is no point
            return False
    return True


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


class _Reader:
    """Turns a decoded BGBlitz match into one match record."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.record = MatchRecord(format="bgf")
        self.game: GameRecord | None = None
        self.nackgammon = False  # every game starts from nackgammon's position

    def problem(self, message: str, rule: str = "syntax",
                severity: Severity = Severity.ERROR) -> None:
        games = len(self.record.games)
        move = len(self.game.actions) + 1 if self.game is not None else None
        self.record.problems.append(
            Problem(rule, message, None, None, games or None, severity, move=move))

    def add(self, action: Action) -> None:
        assert self.game is not None
        action.move = len(self.game.actions) + 1
        self.game.actions.append(action)

    def match(self, doc: dict[str, Any]) -> None:
        record = self.record
        length = _int(doc.get("matchlen"))
        if length is None or length < 0:
            self.problem(f"the match length {doc.get('matchlen')!r} is not a number of points")
            length = 0
        record.match_length = length
        green, red = _text(doc.get("nameGreen")), _text(doc.get("nameRed"))
        tags = record.tags
        tags.append(("Player 1", green))
        tags.append(("Player 2", red))
        for key, tag in (("site", "Site"), ("event", "Event"), ("date", "EventDate"),
                         ("round", "Round"), ("location", "Place"), ("comment", "Comment")):
            value = _text(doc.get(key))
            if value:
                tags.append((tag, value))
        if length:
            tags.append(("Crawford", "On" if doc.get("useCrawford") else "Off"))
        tags.append(("Jacoby", "On" if doc.get("useJacoby") else "Off"))
        tags.append(("Beaver", "On" if doc.get("useBeaver") else "Off"))
        if doc.get("useCube") is False:
            tags.append(("CubeLimit", "1"))
        record.extra["application"] = "BGBlitz"
        final = (_int(doc.get("finalGreen")), _int(doc.get("finalRed")))
        if final[0] is not None and final[1] is not None:
            record.extra["final_score"] = final
        games = doc.get("games")
        if not isinstance(games, list):
            raise _bad(self.name, "the match has no list of games")
        if games and all(_starts_nackgammon(g) for g in games):
            # BGBlitz writes each game's starting position: nackgammon's in every game is a
            # nackgammon match (stated as XG's and gnubg's exports state it), not set-ups.
            tags.append(("Variation", "NackGammon"))
            self.nackgammon = True
        scores: list[tuple[int, int] | None] = [self.score(g) for g in games]
        last: tuple[int, int] | None = None
        if final[0] is not None and final[1] is not None:
            last = (final[0], final[1])
        for g, after in zip(games, scores[1:] + [last]):
            self.play_game(g, after)

    @staticmethod
    def score(game: object) -> tuple[int, int] | None:
        if not isinstance(game, dict):
            return None
        a, b = _int(game.get("scoreGreen")), _int(game.get("scoreRed"))
        return (a, b) if a is not None and b is not None and a >= 0 and b >= 0 else None

    # Complexity kept: one branch per BGBlitz action type, as the format lists them.
    def play_game(self, g: object, after: tuple[int, int] | None) -> None:  # noqa: C901
        if not isinstance(g, dict):
            raise _bad(self.name, "a game is not an object")
        score = self.score(g)
        game = GameRecord(number=len(self.record.games) + 1, names=self.record.names,
                          score=score)
        self.record.games.append(game)
        self.game = game
        if score is None:
            self.problem("the game's score scoreGreen/scoreRed is missing or negative")
        game.extra["crawford_game"] = bool(g.get("isCrawford"))
        if "isCrawford" in g:
            game.crawford = bool(g["isCrawford"])
        initial = g.get("initial")
        board = BoardTracker(NACKGAMMON_SIDE if self.nackgammon else START_SIDE)
        if not self.nackgammon and isinstance(initial, dict):
            self.initial(game, initial, board)
        moves = g.get("moves")
        if not isinstance(moves, list):
            self.problem("the game has no list of moves")
            moves = []
        cube = 1
        pending: int | None = None  # the doubler
        last: str | None = None
        last_player: int | None = None
        resignation: Action | None = None
        for m in moves:
            if not isinstance(m, dict):
                self.problem("a move is not an object")
                continue
            pid = m.get("player")
            if pid not in (1, -1):
                self.problem(f"the player {pid!r} is not -1 (green) or 1 (red)")
                continue
            p = 0 if pid == -1 else 1
            red, green = _int(m.get("red")), _int(m.get("green"))
            src, dst = m.get("from"), m.get("to")
            if not (isinstance(src, list) and isinstance(dst, list) and len(src) == len(dst)
                    and _all_ints(src) and _all_ints(dst)):
                self.problem("from/to are not two lists of points of the same length")
                continue
            if green == 7:
                if red == 1:
                    self.add(Action(kind="double", player=p, cube=2 * cube))
                    pending = p
                elif red == 2:
                    self.add(Action(kind="take", player=p))
                    cube *= 2
                    pending = None
                elif red == 3:
                    self.add(Action(kind="drop", player=p))
                    last = "drop"
                elif red == 4:
                    continue  # the end of the game
                elif red == 5:
                    d1, d2 = (src[0], dst[0]) if src else (0, 0)
                    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
                        self.problem(f"a dance with the dice {d1} and {d2}")
                        continue
                    self.add(Action(kind="roll", player=p, dice=(d1, d2), steps=()))
                elif red == 9:
                    resignation = Action(kind="resign", player=p)
                    self.add(resignation)
                    last = "resign"
                else:
                    self.problem(f"the action code red={red} is unknown")
                    continue
                last_player = p
                continue
            if red is None or green is None or not (1 <= red <= 6 and 1 <= green <= 6):
                self.problem(f"the dice {red!r} and {green!r} are not two dice 1-6")
                board.lost = True
                continue
            played: list[tuple[int, int]] = []
            a: int  # typed: compared in C once compiled (every entry is an int, checked above)
            b: int
            for a, b in zip(src, dst):
                if a == -1:
                    break
                if not (1 <= a <= 25 and 0 <= b <= 24):
                    self.problem(f"the move {a}/{b} is out of range (from 1-25, to 0-24)")
                    played = []
                    board.lost = True
                    break
                played.append((a, b))
            steps = board.play(p, (red, green), played)
            # Built once with its final fields (the dataclass's setters cost as much again),
            # by position, the quickest call (as read/mat.py does): kind, player, line,
            # column, dice, play_text, play_column, steps, cube, points, and_the_match,
            # cannot_move, resign_marker, illegal, move.
            game.actions.append(Action(
                "roll", p, None, None, (red, green),
                moves_text(played) if steps is None else "", None, steps, None, None,
                False, False, False, False, len(game.actions) + 1))
            last = "roll"
            last_player = p
        self.result(g, score, after, last, last_player, pending, resignation)
        self.game = None

    def initial(self, game: GameRecord, initial: dict[str, Any], board: BoardTracker) -> None:
        """A game that starts from a position set up in BGBlitz: a set-up before its first
        action (the replay starts from it, as for XG) and a ``set-position`` warning."""
        points = initial.get("points")
        cube, owner = initial.get("cube", 1), initial.get("cubeOwner", 0)
        if isinstance(points, list) and points[:26] == _START and cube == 1 and owner == 0:
            return
        crowded = _crowding(points)
        if crowded is not None:
            self.problem(f"the initial position {crowded}: at most 15 checkers a side; "
                         "bgtools replays the game from the starting position")
            return
        sides = _sides(points)
        if sides is None:
            self.problem("the initial position is not 26 checker counts; bgtools replays "
                         "the game from the starting position", rule="set-position",
                         severity=Severity.WARNING)
            return
        value = _int(cube)
        setup_cube = value if value is not None and value > 0 and not value & (value - 1) \
            else None
        # The owner is coded as a move's player: -1 green (player 0), 1 red, 0 centred.
        code = _int(owner)
        holder = None if code not in (-1, 1) else 0 if code == -1 else 1
        game.setups = (board_setup(0, sides, cube=setup_cube, owner=holder,
                                   centred=code == 0),)
        board.sides = sides
        unread = "" if code in (-1, 0, 1) else f"; the cube's owner {owner!r} is not -1, 0 or 1"
        self.problem("the game starts from a position set up in BGBlitz, not the starting "
                     f"position; the replay starts from it{unread}", rule="set-position",
                     severity=Severity.WARNING)

    def result(self, g: dict[str, Any], score: tuple[int, int] | None,
               after: tuple[int, int] | None, last: str | None, last_player: int | None,
               doubler: int | None, resignation: Action | None) -> None:
        """The win cell: the player whose score grows (the next game's score, or the final
        score), worth ``wonPoints`` (or the growth when the file gives 0)."""
        won = _int(g.get("wonPoints")) or 0
        winner: int | None = None
        gain = 0
        if score is not None and after is not None:
            d0, d1 = after[0] - score[0], after[1] - score[1]
            if d0 > 0 and d1 == 0:
                winner, gain = 0, d0
            elif d1 > 0 and d0 == 0:
                winner, gain = 1, d1
        if winner is None:
            if last == "drop" and doubler is not None:
                winner = doubler
            elif last == "resign" and resignation is not None:
                winner = 1 - resignation.player
            elif last == "roll" and last_player is not None:
                winner = last_player
        if winner is None:
            return  # unfinished
        if not won:
            won = gain
        if not won:
            return
        forfeit = g.get("lostOnTime") is True or g.get("wasForfeit") is True
        if resignation is None and (forfeit or g.get("wasResignation")):
            self.add(Action(kind="resign", player=1 - winner, forfeit=forfeit))
        elif resignation is not None and forfeit:
            resignation.forfeit = True
        self.add(Action(kind="win", player=winner, points=won))


def _starts_nackgammon(game: object) -> bool:
    """True when ``game`` is a BGBlitz game object whose ``initial`` is nackgammon's
    starting position, the cube centred at 1."""
    initial = game.get("initial") if isinstance(game, dict) else None
    if not isinstance(initial, dict) or initial.get("cube", 1) != 1 or \
            initial.get("cubeOwner", 0) != 0:
        return False
    side = list(NACKGAMMON_SIDE)
    return _sides(initial.get("points")) == (side, side)


def _crowding(points: object) -> str | None:
    """What in BGBlitz's ``initial.points`` (see :func:`_sides`) puts more than 15
    checkers on a point or a side, or None (also when it is no list of counts)."""
    if not (isinstance(points, list) and len(points) >= 26
            and all(_int(x) is not None for x in points[:26])):
        return None
    counts: list[int] = points[:26]
    for count in counts:
        if not -15 <= count <= 15:
            return f"puts {format_count(abs(count))} checkers on one point"
    green = sum(count for count in counts[:24] if count > 0) + max(counts[24], 0)
    red = -sum(count for count in counts[:24] if count < 0) + max(counts[25], 0)
    for side, total in (("green", green), ("red", red)):
        if total > 15:
            return f"gives {side} {total} checkers"
    return None


def _points(green: Sequence[int], red: Sequence[int]) -> list[int]:
    """BGBlitz's ``initial.points`` of the sides ``green``/``red`` (the inverse of
    :func:`_sides`)."""
    return [*(green[24 - index] - red[index + 1] for index in range(24)), green[25], red[25]]


_START = _points(START_SIDE, START_SIDE)
"""BGBlitz's ``initial.points`` of the starting position."""


def _sides(points: object) -> Sides | None:
    """Both sides (each in its own numbering) of BGBlitz's ``initial.points``: 24 points
    from green's 24-point (index 0) to his 1-point, green's checkers positive and red's
    negative, then green's bar and red's bar (counts); None when it is not that."""
    if not (isinstance(points, list) and len(points) >= 26
            and all(_int(x) is not None for x in points[:26])) or _crowding(points) is not None:
        return None
    green, red = [0] * 26, [0] * 26
    for index in range(24):
        count = points[index]
        if count > 0:
            green[24 - index] = count
        elif count < 0:
            red[index + 1] = -count
    green[25], red[25] = max(points[24], 0), max(points[25], 0)
    green[0], red[0] = 15 - sum(green[1:]), 15 - sum(red[1:])
    return green, red


def parse_bgf(data: bytes, name: str = "<input>") -> list[MatchRecord]:
    """Read a BGBlitz ``.bgf`` file into one match record (see the module doc)."""
    _, document = read_bgf_document(data, name, _READ)
    if not isinstance(document, dict):
        raise _bad(name, "the match is not an object")
    reader = _Reader(name)
    reader.match(document)
    length = reader.record.match_length or 0
    if length > MAX_MATCH_LENGTH:
        reader.record.length_line = None
    return [reader.record]
