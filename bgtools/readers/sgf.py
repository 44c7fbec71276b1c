"""Reader for GNU Backgammon SGF files (``GM[6]``).

``parse_sgf`` turns text into :class:`~bgtools.record.MatchRecord` objects. gnubg writes a
collection of game trees, one per game; consecutive games of the same match (by ``MI``) are
grouped into one record. Moves become :class:`~bgtools.record.Action` objects with exact
``steps`` in the mover's numbering (points 1-24, bar 25, off 0).

Design:

* The tokenizer is one regular expression walked with ``finditer`` (a value is matched
  possessively: linear time, no backtracking); the tree builder keeps an explicit stack, so
  nesting of any depth never recurses. Every node and property keeps its 1-based line and
  column. Game trees, nodes and value lengths are counted while tokenizing: beyond
  :data:`~bgtools.limits.MAX_GAMES`, :data:`~bgtools.limits.MAX_NODES` or
  :data:`~bgtools.limits.MAX_STRING_CHARS` the text is refused (LimitExceededError) before
  more is built.
* Nothing is lost: each game keeps its root properties (``extra["sgf_root"]``) and every
  later node's properties (``extra["sgf_nodes"]``), in order, values unescaped; each action
  keeps its node's properties (``extra["sgf_props"]``) so a writer can round-trip analysis.
* Set-up nodes (``AE``/``AW``/``AB``, ``PL``, ``CV``, ``CP``; a root ``CV`` of automatic
  doubles) become :class:`~bgtools.record.SetUp` values in ``GameRecord.setups``, each with
  its location and the action it comes before; the replay applies and checks them.
* The reader never raises on text: unreadable content becomes ``Problem(rule="syntax")``.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field, replace

from bgtools.errors import LimitExceededError
from bgtools.limits import MAX_GAMES, MAX_NODES, MAX_PROBLEMS, MAX_STRING_CHARS, format_count
from bgtools.readers.sniff import looks_like_sgf
from bgtools.record import (
    Action,
    ActionKind,
    GameRecord,
    MatchRecord,
    Problem,
    SetUp,
    Severity,
    SgfProperties,
)
from bgtools.record.sgf import crawford_from_sgf_rules, setup_from_sgf

__all__ = [
    "MAX_PROBLEMS",
    "SgfNode",
    "SgfProperty",
    "SgfTree",
    "kept_nodes",
    "looks_like_sgf",
    "match_info",
    "other_game",
    "parse_collection",
    "parse_sgf",
]

Props = list[tuple[str, list[str]]]

_TOKEN_RE = re.compile(
    r"(?P<ws>\s+)"
    r"|(?P<open>\()"
    r"|(?P<close>\))"
    r"|(?P<semi>;)"
    r"|(?P<ident>[A-Za-z]+)"
    r"|(?P<value>\[[^\\\]]*+(?:\\.[^\\\]]*+)*+\])"
    r"|(?P<other>[^\s()\[\];A-Za-z]+|\[)",
    re.DOTALL,
)
_UNESCAPE_RE = re.compile(r"\\(\r\n|\n\r|.)", re.DOTALL)
_MOVE_RE = re.compile(r"([1-6])([1-6])((?:[a-z][a-z]){0,4})")
_RESULT_RE = re.compile(r"([WBwb])\+([0-9]{0,9})(.*)", re.DOTALL)
_RESIGN_RE = re.compile(r"resign:([0-9]{1,9})")
"""Gibbon's (libgsgf's) resignation offer ``resign:N``, N the points offered (the cube
already counted in: 2 is a gammon at cube 1 or a single game at cube 2); its answers are the
moves ``accept`` and ``reject`` (a rejected offer: play goes on)."""

_SGF_VARIATIONS = ("Nackgammon", "Hypergammon1", "Hypergammon2", "Hypergammon3")
"""The games gnubg names in ``RU`` besides backgammon (its ``RU`` has no name for it)."""
_TAG_NAMES = {"EV": "Event", "RO": "Round", "PC": "Place", "AN": "Annotator",
              "GC": "Comment", "DT": "EventDate", "WR": "Rating 1", "BR": "Rating 2",
              "HR": "Rules"}
"""Root properties read as header tags. ``HR`` (house rules) is bgtools' own: the rule
profile a converted file was replayed under (gnubg skips properties it does not know)."""
_SETUP = {"AE", "AW", "AB", "CP", "CO", "CV"}


@dataclass(slots=True)
class SgfProperty:
    """One property: identifier, unescaped values, and the 1-based location of its name."""

    name: str
    values: list[str]
    line: int
    column: int


@dataclass(slots=True)
class SgfNode:
    """One node (``;`` and its properties) with the location of the ``;``."""

    line: int
    column: int
    props: list[SgfProperty] = field(default_factory=list)

    def get(self, name: str) -> SgfProperty | None:
        """The first property called ``name``, or None."""
        for prop in self.props:
            if prop.name == name:
                return prop
        return None


@dataclass(slots=True)
class SgfTree:
    """One game tree: its sequence of nodes and its variations."""

    line: int
    column: int
    nodes: list[SgfNode] = field(default_factory=list)
    children: list[SgfTree] = field(default_factory=list)
    closed: bool = False


class _Locator:
    """Offsets to 1-based (line, column), asked in increasing order (the tokenizer's): each
    call counts the line breaks since the last, so the whole walk costs one pass and no
    table of line starts (a text of 16 million line breaks would make one of 600 MB)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.offset = 0  # the last offset asked
        self.line = 1  # its line
        self.start = 0  # where that line starts

    def __call__(self, offset: int) -> tuple[int, int]:
        text = self.text
        if offset < self.offset:  # asked backwards: count again from the start
            self.offset, self.line, self.start = 0, 1, 0
        breaks = text.count("\n", self.offset, offset)
        if breaks:
            self.line += breaks
            self.start = text.rfind("\n", self.offset, offset) + 1
        self.offset = offset
        return self.line, offset - self.start + 1


def _beyond(what: str, limit_name: str, limit: int, line: int) -> LimitExceededError:
    """The error of an SGF text holding ``what`` (beyond a limit), found on ``line``; its
    message follows the file's name, which the caller puts before it."""
    return LimitExceededError(f"holds {what} (line {line}); the limit {limit_name} is "
                              f"{format_count(limit)}", limit_name, limit)


def _long(what: str, length: int, line: int) -> LimitExceededError:
    """The error of a property name or value of ``length`` characters."""
    return _beyond(f"{what} of {format_count(length)} characters", "MAX_STRING_CHARS",
                   MAX_STRING_CHARS, line)


def _unescaped(escape: re.Match[str]) -> str:
    """The text of an SGF escape: the character after the backslash, or nothing for a
    line break after it (a soft line break, SGF FF[4])."""
    char = escape.group(1)
    return "" if char in ("\n", "\r", "\r\n", "\n\r") else char


# Complexity kept: a hand-written SGF tokenizer: one branch per token.
def parse_collection(text: str) -> tuple[list[SgfTree], list[Problem]]:  # noqa: C901
    """Tokenize and build the game trees of ``text`` without recursion, with problems.
    Raises LimitExceededError (its message to follow the file's name) for more game trees
    than MAX_GAMES, more nodes and trees than MAX_NODES, or a property value or name
    longer than MAX_STRING_CHARS."""
    loc = _Locator(text)
    problems: list[Problem] = []
    built = 0  # nodes and game trees (each '(' and ';')

    def problem(message: str, offset: int, severity: Severity = Severity.ERROR) -> None:
        if len(problems) < MAX_PROBLEMS:
            line, col = loc(offset)
            problems.append(Problem("syntax", message, line, col, None, severity))

    trees: list[SgfTree] = []
    stack: list[SgfTree] = []
    node: SgfNode | None = None
    prop: SgfProperty | None = None  # the property still taking values
    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup
        start = m.start()
        if kind == "ws":
            continue
        if kind == "value":
            size = m.end() - start - 2
            if size > 2 * MAX_STRING_CHARS:  # too long even if every other character escapes
                raise _long("a property value", size, loc(start)[0])
            raw = m.group()[1:-1]
            value = _UNESCAPE_RE.sub(_unescaped, raw) if "\\" in raw else raw
            if len(value) > MAX_STRING_CHARS:
                raise _long("a property value", len(value), loc(start)[0])
            if prop is None:
                problem("a property value without a property name", start)
            else:
                prop.values.append(value)
            continue
        if prop is not None and not prop.values and m.group() != "[":
            problem(f"property {prop.name} has no value", start)
        prop = None
        if kind in ("open", "semi"):
            built += 1
            if built > MAX_NODES:
                raise _beyond(f"more than {format_count(MAX_NODES)} nodes and game trees",
                              "MAX_NODES", MAX_NODES, loc(start)[0])
        if kind == "open":
            line, col = loc(start)
            if not stack and len(trees) >= MAX_GAMES:
                raise _beyond(f"more than {format_count(MAX_GAMES)} games", "MAX_GAMES",
                              MAX_GAMES, line)
            tree = SgfTree(line, col)
            if stack:
                parent = stack[-1]
                if not parent.nodes:
                    problem("a game tree must start with a node ';' before '('", start)
                parent.children.append(tree)
            else:
                trees.append(tree)
            stack.append(tree)
            node = None
        elif kind == "close":
            if not stack:
                problem("')' without a matching '('", start)
            else:
                tree = stack.pop()
                tree.closed = True
                if not tree.nodes and not tree.children:
                    problem("an empty game tree '()'", start)
            node = None
        elif kind == "semi":
            line, col = loc(start)
            if not stack:
                problem("a node ';' outside any game tree '('", start)
                node = None
            elif stack[-1].children:
                problem("a node ';' after a variation", start)
                node = None
            else:
                node = SgfNode(line, col)
                stack[-1].nodes.append(node)
        elif kind == "ident":
            if node is None:
                problem(f"property {m.group()} outside a node", start)
                continue
            line, col = loc(start)
            if m.end() - start > MAX_STRING_CHARS:
                raise _long("a property name", m.end() - start, line)
            prop = SgfProperty(m.group(), [], line, col)
            node.props.append(prop)
        else:  # other, or an unterminated value
            if m.group() == "[":
                problem("a property value '[' is never closed", start)
                break
            problem(f"unexpected {m.group()[:20]!r}", start)
    if prop is not None and not prop.values:
        problem(f"property {prop.name} has no value", len(text))
    if stack:
        problem(f"{len(stack)} game tree(s) '(' never closed", len(text))
    return trees, problems


def _main_line(tree: SgfTree) -> tuple[list[SgfNode], int]:
    """The nodes of the first variation all the way down, and how many variations were
    dropped."""
    nodes: list[SgfNode] = []
    dropped = 0
    current: SgfTree | None = tree
    while current is not None:
        nodes.extend(current.nodes)
        dropped += max(0, len(current.children) - 1)
        current = current.children[0] if current.children else None
    return nodes, dropped


def _props(node: SgfNode) -> Props:
    return [(p.name, list(p.values)) for p in node.props]


def _frozen(props: Props) -> SgfProperties:
    return tuple((name, tuple(values)) for name, values in props)


def match_info(values: list[str]) -> dict[str, str]:
    """The ``key:value`` pairs of an ``MI`` property (``length``, ``game``, ``ws``, ``bs``)."""
    info: dict[str, str] = {}
    for v in values:
        key, sep, rest = v.partition(":")
        if sep:
            info[key.strip()] = rest.strip()
    return info


def _int(text: str | None) -> int | None:
    if text is None:
        return None
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def _point(letter: str, player: int, is_from: bool) -> int | None:
    """The mover's point number of an SGF letter (None when invalid there)."""
    if letter == "y":
        return 25 if is_from else None
    if letter == "z":
        return None if is_from else 0
    index = ord(letter) - ord("a")
    if not 0 <= index <= 23:
        return None
    return index + 1 if player == 0 else 24 - index


def kept_nodes(game: GameRecord) -> tuple[Props, list[Props]] | None:
    """The root properties and later nodes of an SGF game as this reader kept them (passed
    through in ``extra`` for a writer to give back verbatim), or None for another format."""
    root = game.extra.get("sgf_root")
    nodes = game.extra.get("sgf_nodes")
    if isinstance(root, list) and isinstance(nodes, list):
        return root, nodes
    return None


class _Reader:
    """Turns game trees into match records."""

    def __init__(self) -> None:
        self.records: list[MatchRecord] = []
        self.starts: list[tuple[tuple[int, int], MatchRecord, int]] = []
        self.prev_key: tuple[int | None, int | None, tuple[str, str] | None] | None = None
        self.unscored: list[tuple[MatchRecord, int, Action]] = []
        """Results written without their points (``RE[B+R]``): the record, the game's
        1-based place in it and the ``win``, for `score_from_next_games`."""

    def problem(self, record: MatchRecord, message: str, line: int | None, column: int | None,
                game: int | None, rule: str = "syntax",
                severity: Severity = Severity.ERROR) -> None:
        if len(record.problems) >= MAX_PROBLEMS:
            return
        if len(record.problems) == MAX_PROBLEMS - 1:
            message = f"too many problems, stopped listing them here (last: {message})"
        record.problems.append(Problem(rule, message, line, column, game, severity))

    def record_for(self, length: int | None, number: int | None,
                   names: tuple[str, str] | None) -> MatchRecord:
        """The current record, or a new one when this game starts another match."""
        if self.records and self.prev_key is not None:
            p_len, p_num, p_names = self.prev_key
            same = (length == p_len
                    and (number is None or p_num is None or number == p_num + 1)
                    and (names is None or p_names is None or names == p_names))
            if same:
                return self.records[-1]
        record = MatchRecord(format="sgf")
        self.records.append(record)
        return record

    def game(self, tree: SgfTree) -> None:
        nodes, dropped = _main_line(tree)
        if not nodes:
            record = self.records[-1] if self.records else MatchRecord(format="sgf")
            if not self.records:
                self.records.append(record)
            return
        root = nodes[0]
        mi = root.get("MI")
        info = match_info(mi.values) if mi else {}
        length = _int(info.get("length"))
        number0 = _int(info.get("game"))
        pw, pb = root.get("PW"), root.get("PB")
        names: tuple[str, str] | None = None
        if pw is not None or pb is not None:
            names = (pw.values[0] if pw and pw.values else "",
                     pb.values[0] if pb and pb.values else "")
        record = self.record_for(length, number0, names)
        self.prev_key = (length, number0, names)
        game = GameRecord(number=None if number0 is None else number0 + 1,
                          line=root.line, names=names)
        record.games.append(game)
        gi = len(record.games)
        self.starts.append(((tree.line, tree.column), record, gi))
        game.extra["sgf_root"] = _props(root)
        game.extra["sgf_nodes"] = [_props(n) for n in nodes[1:]]
        if dropped:
            game.extra["sgf_variations"] = dropped
            self.problem(record, f"{dropped} variation(s) ignored: only the main line is read",
                         tree.line, tree.column, gi, severity=Severity.WARNING)
        if mi is not None:
            game.score_line = mi.line
            ws, bs = _int(info.get("ws")), _int(info.get("bs"))
            if ws is not None and bs is not None:
                game.score = (ws, bs)
                game.score_columns = (mi.column, mi.column)
            elif "ws" in info or "bs" in info:
                self.problem(record, "MI scores ws/bs are not numbers", mi.line, mi.column, gi)
            if length is None and "length" in info:
                self.problem(record, "MI length is not a number", mi.line, mi.column, gi)
        else:
            self.problem(record, "the game has no MI[...] match information", root.line,
                         root.column, gi, severity=Severity.WARNING)
        self.root(record, game, root, length, mi, gi, len(record.games) == 1)
        self.moves(record, game, nodes, gi)

    def root(self, record: MatchRecord, game: GameRecord, root: SgfNode, length: int | None,
             mi: SgfProperty | None, gi: int, first: bool) -> None:
        gm = root.get("GM")
        other = _other_game(gm.values if gm is not None else [])
        if gm is not None and other is not None:
            self.problem(record, f"{other} is not backgammon (GM[6])", gm.line, gm.column, gi)
        ru = root.get("RU")
        rules = [r for r in (ru.values[0].split(":") if ru and ru.values else []) if r]
        game.extra["rules"] = rules
        game.crawford = crawford_from_sgf_rules(rules)
        if game.crawford:
            game.extra["crawford_game"] = True
        if not first:
            return
        record.match_length = length
        record.length_line = mi.line if mi else None
        record.extra["rules"] = rules
        record.extra["sgf_root"] = game.extra["sgf_root"]
        if game.names:
            record.tags.append(("Player 1", game.names[0]))
            record.tags.append(("Player 2", game.names[1]))
        for prop in root.props:
            tag = _TAG_NAMES.get(prop.name)
            if tag and prop.values:
                value = prop.values[0]
                if prop.name == "DT":
                    value = value.replace("-", ".")
                record.tags.append((tag, value))
        if length:
            record.tags.append(("Crawford", "On" if "Crawford" in rules else "Off"))
        elif length == 0:
            record.tags.append(("Jacoby", "On" if "Jacoby" in rules else "Off"))
            # bgtools' own names (gnubg writes neither): unstated, the profile decides.
            if "Beaver" in rules or "NoBeaver" in rules:
                record.tags.append(("Beaver", "On" if "Beaver" in rules else "Off"))
        if "NoCube" in rules:
            record.tags.append(("CubeLimit", "1"))
        variation = next((r for r in rules if r in _SGF_VARIATIONS), None)
        if variation is not None:  # gnubg's RU[Nackgammon], RU[Crawford:Hypergammon2] ...
            record.tags.append(("Variation", variation))
        app = root.get("AP")
        if app is not None and app.values:
            record.extra["application"] = app.values[0]

    # Complexity kept: one branch per SGF property of a move node.
    def moves(self, record: MatchRecord, game: GameRecord, nodes: list[SgfNode], gi: int) -> None:  # noqa: C901
        root = nodes[0]
        cube = 1
        cv = root.get("CV")
        setups: list[SetUp] = []
        if cv is not None:
            value = _int(cv.values[0] if cv.values else None)
            if value is None or value < 1:
                self.problem(record, f"CV[{cv.values[0] if cv.values else ''}] is not a cube "
                             "value", cv.line, cv.column, gi)
            elif value != 1:
                # Automatic doubles (money play): the game starts with a centred cube at CV.
                cube = value
                setups.append(setup_from_sgf((("CV", tuple(cv.values)),), before=0, node=0,
                                             line=cv.line, column=cv.column))
        pending: tuple[int, int] | None = None  # (doubler, offered value)
        beaver: int | None = None  # the original doubler after a beaver
        offers = _ResignationOffers(self, record, gi)
        actions = game.actions
        last_move = -1
        for index, node in enumerate(nodes[1:], 1):
            if node.get("W") or node.get("B") or node.get("DI"):
                last_move = index
        last_player: int | None = None
        for index, node in enumerate(nodes[1:], 1):
            props = _props(node)
            setup_props = [p for p in node.props if p.name in _SETUP]
            moves = [p for p in node.props if p.name in ("W", "B")]
            di = node.get("DI")
            pl = node.get("PL")
            is_setup = bool(setup_props) or (pl is not None and di is None and not moves)
            if is_setup:
                cvp = node.get("CV")
                if cvp is not None and _int(cvp.values[0] if cvp.values else None):
                    cube = _int(cvp.values[0]) or cube
            if len(moves) > 1:
                self.problem(record, "a node with more than one move", moves[1].line,
                             moves[1].column, gi)
            if moves and moves[0].values:
                prop = moves[0]
                player = 0 if prop.name == "W" else 1
                text = prop.values[0].strip() if prop.values else ""
                lower = text.lower()
                offers.before(lower)
                action: Action | None = None
                kind: ActionKind
                if lower == "double":
                    if pending is not None and player != pending[0]:
                        kind = "beaver"
                        value = 2 * pending[1]
                        beaver = pending[0]
                        pending = None
                        cube = value
                    elif beaver is not None and player == beaver:
                        kind = "raccoon"
                        value = 2 * cube
                        beaver = None
                        cube = value
                    else:
                        kind = "double"
                        value = 2 * cube
                        pending = (player, value)
                        beaver = None
                    action = Action(kind=kind, player=player, line=prop.line,
                                    column=prop.column, cube=value)
                elif lower in ("take", "drop"):
                    kind = "take" if lower == "take" else "drop"
                    if pending is not None and kind == "take":
                        cube = pending[1]
                    pending = None
                    beaver = None
                    action = Action(kind=kind, player=player, line=prop.line,
                                    column=prop.column)
                elif lower.startswith("resign") or lower in ("accept", "reject"):
                    action = offers.answer(prop, player, lower)
                else:
                    action = self.roll(record, prop, player, text, index == last_move, gi)
                    pending = None
                    beaver = None
                if action is not None:
                    last_player = player
            elif di is not None:
                player = last_player if last_player is not None else 0
                player = 1 - player if last_player is not None else player
                if pl is not None and pl.values:
                    who = pl.values[0].strip().upper()
                    if who in ("W", "B"):
                        player = 0 if who == "W" else 1
                    else:
                        self.problem(record, f"PL[{pl.values[0]}] is not W or B", pl.line,
                                     pl.column, gi)
                dice = di.values[0].strip() if di.values else ""
                if len(dice) == 2 and dice[0] in "123456" and dice[1] in "123456":
                    action = Action(kind="roll", player=player, line=di.line, column=di.column,
                                    dice=(int(dice[0]), int(dice[1])), steps=None,
                                    play_text="")
                    action.dice_only = True
                else:
                    self.problem(record, f"DI[{dice}]: dice must be two digits 1-6", di.line,
                                 di.column, gi)
                    action = None
            else:
                action = None
            if action is not None:
                action.extra["sgf_props"] = props
                action.extra["sgf_node"] = index - 1
                actions.append(action)
            if is_setup:
                # Applied (and checked) by the replay after this node's own action, if any.
                setups.append(setup_from_sgf(_frozen(props), before=len(actions), node=index,
                                             line=node.line, column=node.column))
        offers.before("")
        game.setups = tuple(setups)
        self.result(record, game, root, gi)

    def roll(self, record: MatchRecord, prop: SgfProperty, player: int, text: str, last: bool,
             gi: int) -> Action | None:
        """A ``DD`` + letter pairs move, or None (with a problem) when unreadable."""
        m = _MOVE_RE.fullmatch(text)
        if m is None:
            self.problem(record, f"{prop.name}[{text[:30]}] is not a move (dice and letter "
                         "pairs, double, take or drop)", prop.line, prop.column, gi)
            return None
        dice = (int(m.group(1)), int(m.group(2)))
        letters = m.group(3)
        action = Action(kind="roll", player=player, line=prop.line, column=prop.column,
                        dice=dice, play_column=prop.column)
        if not letters:
            if last:
                # A trailing DD node: a dance, or rolled and not played / then resigned.
                action.steps = None
                action.play_text = ""
            else:
                action.steps = ()
            return action
        steps: list[tuple[int, int]] = []
        for i in range(0, len(letters), 2):
            src = _point(letters[i], player, True)
            dst = _point(letters[i + 1], player, False)
            if src is None or dst is None:
                self.problem(record, f"{prop.name}[{text}]: {letters[i:i + 2]!r} is not a "
                             "step (from a-x or y, to a-x or z)", prop.line, prop.column, gi)
                action.play_text = text
                action.extra["sgf_invalid"] = True
                return action
            steps.append((src, dst))
        action.steps = tuple(steps)
        return action

    def result(self, record: MatchRecord, game: GameRecord, root: SgfNode, gi: int) -> None:
        re_prop = root.get("RE")
        if re_prop is None or not re_prop.values:
            return
        value = re_prop.values[0].strip()
        m = _RESULT_RE.fullmatch(value)
        rest = m.group(3).strip() if m is not None else ""
        resigned = rest[:1] in ("R", "r")
        if m is None or not (m.group(2) or resigned):
            game.extra["sgf_result"] = value
            if value not in ("", "?", "0", "Void"):
                self.problem(record, f"RE[{value}] is not a result W+n or B+n (R)",
                             re_prop.line, re_prop.column, gi, severity=Severity.WARNING)
            return
        winner = 0 if m.group(1) in ("W", "w") else 1
        points = int(m.group(2)) if m.group(2) else None
        line, col = re_prop.line, re_prop.column
        if resigned:
            game.actions.append(Action(kind="resign", player=1 - winner, line=line, column=col))
        elif rest:
            self.problem(record, f"RE[{value}]: {rest!r} is not understood", line, col, gi,
                         severity=Severity.WARNING)
        win = Action(kind="win", player=winner, line=line, column=col, points=points)
        game.actions.append(win)
        if points is None:
            self.unscored.append((record, gi, win))

    def score_from_next_games(self) -> None:
        """Give a resignation written without its points (``RE[B+R]``, which gnubg reads)
        the points the next game's score (``MI``) credits its winner with; without a next
        game the replayer values it at the cube."""
        for record, number, win in self.unscored:
            if number == len(record.games):
                continue
            before, after = record.games[number - 1].score, record.games[number].score
            if before is None or after is None:
                continue
            winner = win.player
            gained = after[winner] - before[winner]
            if gained > 0 and after[1 - winner] == before[1 - winner]:
                win.points = gained


_SGF_GAMES = {"1": "Go", "2": "Othello", "3": "chess", "4": "Gomoku and Renju",
              "5": "Nine Men's Morris", "7": "Chinese chess", "8": "Shogi",
              "9": "Lines of Action", "10": "Ataxx", "11": "Hex"}
"""The games of the SGF specification's ``GM`` numbers (FF[4]; 6 is backgammon)."""


def _other_game(values: list[str]) -> str | None:
    """``GM[1]: Go`` when a root's ``GM`` values name a game other than backgammon; None
    for ``GM[6]`` and for no game stated (no ``GM``, or an empty one: read as backgammon)."""
    stated = values[0].strip() if values else ""
    if stated in ("", "6"):
        return None
    name = _SGF_GAMES.get(stated)
    return f"GM[{stated[:20]}]: {name}" if name else f"GM[{stated[:20]}]"


def other_game(records: list[MatchRecord]) -> str | None:
    """The game other than backgammon an SGF's records state in a game's ``GM``
    (``GM[1]: Go``), or None: such a file is not a backgammon record at all."""
    for record in records:
        for game in record.games:
            root = game.extra.get("sgf_root")
            if isinstance(root, list):
                for name, values in root:
                    if name == "GM":
                        other = _other_game(values)
                        if other is not None:
                            return other
    return None


class _ResignationOffers:
    """Gibbon's resignations in one game: ``resign:N`` offers N points, the opponent's
    ``accept`` makes it the game's resignation (an ``Action`` of kind ``resign`` with the
    offer's points and location), his ``reject`` withdraws it. A token that cannot mean that
    (no number, an answer with no offer or by the resigner, an offer never answered) is a
    ``syntax`` error on its own line. The accepted resignation is located at the offer (its
    points are checked there); the answer's node keeps its place in ``sgf_nodes``."""

    def __init__(self, reader: _Reader, record: MatchRecord, gi: int) -> None:
        self.reader = reader
        self.record = record
        self.gi = gi
        self.open: tuple[int, int, SgfProperty] | None = None
        """The offer awaiting its answer: resigner, points, its property."""

    def problem(self, message: str, prop: SgfProperty) -> None:
        self.reader.problem(self.record, message, prop.line, prop.column, self.gi)

    def before(self, move: str) -> None:
        """Anything but an answer after an offer (``move``, lower case; "" at the end of
        the game): the offer was never answered."""
        if self.open is not None and move not in ("accept", "reject"):
            prop = self.open[2]
            self.problem(f"{prop.name}[{prop.values[0]}]: the resignation is never answered "
                         "(accept or reject)", prop)
            self.open = None

    def answer(self, prop: SgfProperty, player: int, move: str) -> Action | None:
        """An offer, or its answer: the resignation accepted, or None."""
        text = prop.values[0].strip()
        if move.startswith("resign"):
            m = _RESIGN_RE.fullmatch(move)
            if m is None or int(m.group(1)) == 0:
                self.problem(f"{prop.name}[{text[:30]}] is not a resignation "
                             "(resign:N, N the points offered)", prop)
                return None
            self.open = (player, int(m.group(1)), prop)
            return None
        if self.open is None or self.open[0] == player:
            whose = "no" if self.open is None else "the player's own"
            self.problem(f"{prop.name}[{text}] answers {whose} resignation", prop)
            self.open = None
            return None
        resigner, points, offer = self.open
        self.open = None
        if move == "reject":
            return None
        return Action(kind="resign", player=resigner, line=offer.line, column=offer.column,
                      points=points)


def parse_sgf(text: str) -> list[MatchRecord]:
    """Read a GNU Backgammon SGF text into match records (one per match; a money session
    is one record). Never raises on bad text: problems go to ``MatchRecord.problems``."""
    text = text.removeprefix("\ufeff")
    trees, problems = parse_collection(text)
    reader = _Reader()
    for tree in trees:
        if _main_line(tree)[0]:
            reader.game(tree)
    reader.score_from_next_games()
    if not reader.records:
        record = MatchRecord(format="sgf")
        record.problems.extend(problems)
        if not problems:
            record.problems.append(Problem("syntax", "no SGF game tree '(;...)' found", 1, 1))
        return [record]
    # Give each syntax problem to the game whose tree starts last before it.
    keys = [start for start, _, _ in reader.starts]
    for prob in problems:
        at = bisect.bisect_right(keys, (prob.line or 0, prob.column or 0)) - 1
        if at < 0:
            reader.records[0].problems.append(prob)
        else:
            _, record, gi = reader.starts[at]
            record.problems.append(replace(prob, game=gi))
    for record in reader.records:
        record.problems.sort(key=lambda p: (p.line or 0, p.column or 0))
    return reader.records
