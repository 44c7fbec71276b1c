"""Pictures of a position with plain labels: ASCII and SVG; no files, no terminal.

A diagram is drawn from :class:`BoardInfo`: a position (seen from the player to act, as every
position of the engine) and the plain values written around it. The two players keep their
letter and their side of the screen, as in GNU Backgammon's ``show board``: ``X`` at the
bottom with his home board bottom right, ``O`` at the top. Only the point numbers follow the
player to act (``turn``): they are his, so his points 1-12 run along the bottom when ``X`` is
to act and along the top when ``O`` is, and the bar row is marked ``v`` or ``^`` to match.
With the defaults (``turn="x"``) a bare position is drawn from the side on roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol
from xml.sax.saxutils import escape

__all__ = [
    "BOARD_ROWS",
    "INFO_COLUMN",
    "BoardInfo",
    "BoardPosition",
    "CubeSide",
    "HomeSide",
    "Letter",
    "ascii_diagram",
    "board_lines",
    "board_start",
    "player_sides",
    "svg_diagram",
]

_ROWS = 5
_WIDTH = 80

INFO_COLUMN = 49
"""The column of :func:`board_lines` where the notes beside the board start."""
BOARD_ROWS = 2 * _ROWS + 3
"""The lines of the board itself in :func:`board_lines`: frame, points, bar row, frame."""

Letter = Literal["x", "o"]
"""A player on the board: ``x`` at the bottom, ``o`` at the top."""
CubeSide = Letter
"""Who owns the cube on a board (a :data:`Letter`)."""


class BoardPosition(Protocol):
    """What a diagram reads of a position (:class:`bgtools.engine.position.Position`).

    ``mover`` and ``opponent`` are 26 counts in each player's own numbering (0 off, 25 bar).
    """

    @property
    def mover(self) -> tuple[int, ...]:
        """The counts of the player to act."""

    @property
    def opponent(self) -> tuple[int, ...]:
        """The counts of the other player."""


HomeSide = Literal["right", "left"]
"""Where ``X``'s home board is drawn on the SVG board: bottom right (GNU Backgammon's
orientation) or bottom left (mirrored)."""


@dataclass(frozen=True, slots=True)
class BoardInfo:
    """A position and what is written around it.

    ``position`` is seen from the player to act; ``turn`` says which letter that is (``x``,
    the bottom player, or ``o``, the top one). ``x_*`` and ``o_*`` are the players by letter,
    fixed for a whole match. ``cube_owner`` is ``"x"``, ``"o"`` or None (centred); ``dice``
    the roll of the player to act, if rolled; ``on_roll`` whether he is to roll or play
    (not at a double, its answer or the end); ``status`` a short note (``Crawford game``,
    ``game over``...), parts separated by ``"; "``.

    ``to_act`` is the player who acts when it is not to roll or play (a double, its answer,
    a resignation or its acceptance): he gets the to-act marker, and ``action`` (what he
    does, in words) is written on his side. ``cube_offered`` is the player whose double
    awaits its answer: the cube is drawn on his side showing the value offered, twice
    ``cube_value`` (as GNU Backgammon draws it).
    """

    position: BoardPosition
    x_name: str = "X"
    o_name: str = "O"
    x_score: int | None = None
    o_score: int | None = None
    match_length: int | None = None
    cube_value: int = 1
    cube_owner: CubeSide | None = None
    dice: tuple[int, int] | None = None
    status: str = ""
    position_id: str = ""
    match_id: str = ""
    xgid: str = ""
    on_roll: bool = True
    turn: Letter = "x"
    to_act: Letter | None = None
    action: str = ""
    cube_offered: CubeSide | None = None
    last_play: tuple[tuple[int, int], ...] = ()
    last_player: Letter | None = None
    home: HomeSide = "right"


def _marked(info: BoardInfo) -> Letter | None:
    """The player the to-act marker points at: the one to act, else the one on roll."""
    if info.to_act is not None:
        return info.to_act
    return info.turn if info.on_roll else None


def player_sides(info: BoardInfo) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The counts of ``X`` and of ``O``, each in his own numbering (0 off, 25 bar)."""
    pos = info.position
    if info.turn == "x":
        return tuple(pos.mover), tuple(pos.opponent)
    return tuple(pos.opponent), tuple(pos.mover)


def _pips(side: tuple[int, ...]) -> int:
    return sum(point * count for point, count in enumerate(side))


# --- ASCII ---------------------------------------------------------------------------------

_LABELS_X_TOP = "+13-14-15-16-17-18------19-20-21-22-23-24-+"
_LABELS_X_BOTTOM = "+12-11-10--9--8--7-------6--5--4--3--2--1-+"
# The same edges numbered for O (O's point n is X's 25 - n).
_LABELS_O_TOP = "+12-11-10--9--8--7-------6--5--4--3--2--1-+"
_LABELS_O_BOTTOM = "+13-14-15-16-17-18------19-20-21-22-23-24-+"


def _cell(count: int, row: int, mark: str) -> str:
    """The 3-character cell of a point with ``count`` checkers at ``row`` (0 = edge)."""
    if count <= row:
        return "   "
    if row == _ROWS - 1 and count > _ROWS:
        return f"{count:>2} "
    return f" {mark} "


def _point(x: tuple[int, ...], o: tuple[int, ...], point: int) -> tuple[int, str]:
    """(count, mark) on ``X``'s point ``point``."""
    if x[point]:
        return x[point], "X"
    theirs = o[25 - point]
    return (theirs, "O") if theirs else (0, " ")


def _half(x: tuple[int, ...], o: tuple[int, ...], points: range, row: int) -> str:
    cells = []
    for point in points:
        count, mark = _point(x, o, point)
        cells.append(_cell(count, row, mark))
    return "".join(cells)


def _score_text(score: int | None) -> str:
    if score is None:
        return ""
    return f"{score} point" + ("" if score == 1 else "s")


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "~"


def _grid(info: BoardInfo) -> list[str]:
    """The 13 lines of the board itself, from ``X``'s side."""
    x, o = player_sides(info)
    top_left, top_right = range(13, 19), range(19, 25)
    bottom_left, bottom_right = range(12, 6, -1), range(6, 0, -1)
    top, bottom = ((_LABELS_X_TOP, _LABELS_X_BOTTOM) if info.turn == "x"
                   else (_LABELS_O_TOP, _LABELS_O_BOTTOM))
    grid = [" " + top]
    grid.extend(" |" + _half(x, o, top_left, row) + "|" + _cell(o[25], row, "O") + "|"
                + _half(x, o, top_right, row) + "|" for row in range(_ROWS))
    grid.append(("v" if info.turn == "x" else "^") + "|                  |BAR|                  |")
    grid.extend(" |" + _half(x, o, bottom_left, row) + "|" + _cell(x[25], row, "X") + "|"
                + _half(x, o, bottom_right, row) + "|" for row in reversed(range(_ROWS)))
    grid.append(" " + bottom)
    return grid


def _turn_note(info: BoardInfo) -> str:
    if not info.on_roll:
        return ""
    return f"Rolled {info.dice[0]}{info.dice[1]}" if info.dice else "On roll"


def _notes(info: BoardInfo) -> list[str]:
    """The notes beside each line of the grid: ``O`` at the top, ``X`` at the bottom."""
    x, o = player_sides(info)
    notes = [""] * BOARD_ROWS
    notes[0] = f"O: {info.o_name}"
    notes[1] = _score_text(info.o_score)
    notes[2] = f"pips {_pips(o)}, off {o[0]}"
    offered = info.cube_offered
    if info.cube_owner == "o" and offered is None:
        notes[3] = f"Cube: {info.cube_value}"
    if offered is not None:
        # As GNU Backgammon writes it: beside the player to answer, the cube off its place.
        notes[9 if offered == "o" else 3] = f"Cube offered at {2 * info.cube_value}"
    if info.turn == "o":
        notes[4] = _turn_note(info)
    middle = []
    if info.match_length:
        middle.append(f"{info.match_length} point match")
    elif info.match_length == 0:
        middle.append("money session")
    if info.cube_owner is None and offered is None:
        middle.append(f"(Cube: {info.cube_value})")
    notes[6] = " ".join(middle)
    if info.cube_owner == "x" and offered is None:
        notes[9] = f"Cube: {info.cube_value}"
    if info.turn == "x":
        notes[10] = _turn_note(info)
    if info.to_act is not None and info.action:
        notes[4 if info.to_act == "o" else 10] = info.action
    for k, part in enumerate(info.status.split("; ")[:3] if info.status else []):
        notes[7 + k] = part
    notes[11] = f"pips {_pips(x)}, off {x[0]}"
    notes[12] = f"X: {info.x_name}  " + _score_text(info.x_score)
    return notes


def board_lines(info: BoardInfo) -> list[str]:
    """The board and its side notes as plain lines (at most 80 characters each)."""
    x, o = player_sides(info)
    width = _WIDTH - INFO_COLUMN
    lines: list[str] = []
    if info.position_id:
        lines.append(f" Position ID: {info.position_id}")
    if info.match_id:
        lines.append(f" Match ID   : {info.match_id}")
    for text, note in zip(_grid(info), _notes(info), strict=True):
        fitted = _fit(note, width).rstrip()
        lines.append((text.ljust(INFO_COLUMN) + fitted).rstrip() if fitted else text)
    x_pips, o_pips = _pips(x), _pips(o)
    lines.append(f" Pip count  X: {x_pips}  O: {o_pips}  ({_lead(x_pips, o_pips)})")
    if info.xgid:
        lines.append(" " + info.xgid)
    return lines


def _lead(x: int, o: int) -> str:
    if x == o:
        return "even"
    return f"X leads by {o - x}" if x < o else f"O leads by {x - o}"


def ascii_diagram(info: BoardInfo) -> str:
    """A plain text board in the manner of GNU Backgammon's ``show board``."""
    return "\n".join(board_lines(info)) + "\n"


def board_start(info: BoardInfo) -> int:
    """The index in :func:`board_lines` of the board's first line (after the ID lines)."""
    return 2 if info.match_id else (1 if info.position_id else 0)


# --- SVG -----------------------------------------------------------------------------------
# Units of the viewBox; the picture is scaled to ``size`` pixels wide.
_CUBE_COLUMN = 50
_FRAME = 20
_POINT = 40
_HALF = 6 * _POINT
_BAR = 40
_TRAY = 50
_BAND = 30
_DEPTH = 170
_GAP = 60
_RADIUS = 18
_STACK = 5
_LEFT = _CUBE_COLUMN + _FRAME
_RIGHT = _LEFT + 2 * _HALF + _BAR
_TOP = _BAND + _FRAME
_BOTTOM = _TOP + 2 * _DEPTH + _GAP
_VIEW_WIDTH = _RIGHT + _FRAME + _TRAY
_VIEW_HEIGHT = _BOTTOM + _FRAME + 2 * _BAND
_MIDDLE = (_TOP + _BOTTOM) / 2

_STYLE = (
    ".frame{fill:#6b4423}.felt{fill:#2f6b47}.tray{fill:#3d2a16}"
    ".point.light{fill:#e0c590}.point.dark{fill:#8c3b2a}"
    ".checker{stroke-width:1.5}.x{fill:#f5f1e6;stroke:#333}.o{fill:#2b2b2b;stroke:#ccc}"
    ".count{font:bold 16px sans-serif;text-anchor:middle;dominant-baseline:central}"
    ".count.on-x{fill:#222}.count.on-o{fill:#eee}"
    ".number{font:11px sans-serif;fill:#f0e6d0;text-anchor:middle;dominant-baseline:central}"
    ".cube{fill:#fafafa;stroke:#222;stroke-width:1.5}.die{fill:#fafafa;stroke:#222}"
    ".die.o{fill:#2b2b2b;stroke:#ccc}.spot{fill:#222}.die.o+.spots .spot{fill:#eee}"
    ".cube-value{font:bold 18px sans-serif;text-anchor:middle;dominant-baseline:central}"
    ".label{font:15px sans-serif;fill:#222;dominant-baseline:central}"
    ".turn{font-weight:bold}"
)


def _column(point: int, home: HomeSide = "right") -> float:
    """The left edge of ``X``'s point ``point`` on the picture (``home``: the side of
    ``X``'s home board)."""
    right_half = _LEFT + _HALF + _BAR
    if point <= 6:
        left = right_half + (6 - point) * _POINT
    elif point <= 12:
        left = _LEFT + (12 - point) * _POINT
    elif point <= 18:
        left = _LEFT + (point - 13) * _POINT
    else:
        left = right_half + (point - 19) * _POINT
    return left if home == "right" else _LEFT + _RIGHT - _POINT - left


def _spot(point: int, letter: Letter, home: HomeSide) -> tuple[float, float]:
    """Where an arrow of a play starts or ends: ``point`` in ``letter``'s numbering (25
    his bar, 0 his tray)."""
    if point == 25:
        below = letter == "x"
        return (_LEFT + _HALF + _BAR / 2,
                _MIDDLE + (_GAP / 2 + _RADIUS if below else -_GAP / 2 - _RADIUS))
    if point == 0:
        return (_RIGHT + _FRAME + _TRAY / 2 - 2,
                _BOTTOM - 2 * _RADIUS if letter == "x" else _TOP + 2 * _RADIUS)
    x_point = point if letter == "x" else 25 - point
    centre = _column(x_point, home) + _POINT / 2
    depth = 0.45 * _DEPTH
    return centre, (_BOTTOM - depth if x_point <= 12 else _TOP + depth)


def _last_play_svg(info: BoardInfo) -> list[str]:
    """An arrow per step of the play that led to the position (``info.last_play``)."""
    letter = info.last_player
    if letter is None or not info.last_play:
        return []
    out = ['<defs><marker id="last-play-arrow" viewBox="0 0 10 10" refX="8" refY="5" '
           'markerWidth="5" markerHeight="5" orient="auto-start-reverse">'
           '<path d="M0,0 L10,5 L0,10 z" fill="#e8b920"/></marker></defs>']
    for src, dst in info.last_play:
        (x1, y1), (x2, y2) = _spot(src, letter, info.home), _spot(dst, letter, info.home)
        out.append(f'<line class="last-play" data-player="{letter}" data-from="{src}" '
                   f'data-to="{dst}" x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
                   'stroke="#e8b920" stroke-width="4" stroke-opacity="0.85" '
                   'marker-end="url(#last-play-arrow)"/>')
    return out


def _checker(cx: float, cy: float, letter: str) -> str:
    return f'<circle class="checker {letter}" cx="{cx:g}" cy="{cy:g}" r="{_RADIUS}"/>'


def _stack(cx: float, edge: float, step: float, count: int, letter: str) -> list[str]:
    """``count`` checkers from ``edge`` inward (``step`` per checker); a tall stack shows
    ``_STACK`` checkers with its count on the last."""
    shown = min(count, _STACK)
    out = [_checker(cx, edge + step * (k + 0.5), letter) for k in range(shown)]
    if count > _STACK:
        cy = edge + step * (shown - 0.5)
        out.append(f'<text class="count on-{letter}" x="{cx:g}" y="{cy:g}">{count}</text>')
    return out


def _points_svg(info: BoardInfo) -> list[str]:
    x, o = player_sides(info)
    out: list[str] = []
    for point in range(1, 25):
        left = _column(point, info.home)
        bottom = point <= 12
        base, apex = (_BOTTOM, _BOTTOM - _DEPTH) if bottom else (_TOP, _TOP + _DEPTH)
        shade = "dark" if point % 2 else "light"
        out.append(f'<polygon class="point {shade}" points="{left:g},{base} '
                   f'{left + _POINT:g},{base} {left + _POINT / 2:g},{apex}"/>')
        number = point if info.turn == "x" else 25 - point
        label_y = base + _FRAME / 2 if bottom else base - _FRAME / 2
        out.append(f'<text class="number" x="{left + _POINT / 2:g}" y="{label_y:g}">'
                   f'{number}</text>')
        count, letter = (x[point], "x") if x[point] else (o[25 - point], "o")
        step = -2 * _RADIUS if bottom else 2 * _RADIUS
        out.extend(_stack(left + _POINT / 2, base, step, count, letter))
    bar_x = _LEFT + _HALF + _BAR / 2
    out.extend(_stack(bar_x, _MIDDLE + _GAP / 2, 2 * _RADIUS, x[25], "x"))
    out.extend(_stack(bar_x, _MIDDLE - _GAP / 2, -2 * _RADIUS, o[25], "o"))
    return out


def _trays_svg(info: BoardInfo) -> list[str]:
    x, o = player_sides(info)
    left = _RIGHT + _FRAME + 8
    width = _TRAY - 16
    height = (_DEPTH - 10) / 15
    out = []
    for count, letter, edge, step in ((x[0], "x", _BOTTOM, -height), (o[0], "o", _TOP, height)):
        for k in range(count):
            y = edge + step * (k + 1) if step < 0 else edge + step * k
            out.append(f'<rect class="off {letter}" x="{left}" y="{y:g}" width="{width}" '
                       f'height="{height - 1:g}" rx="2"/>')
    return out


_SPOTS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
          4: [(0, 0), (2, 0), (0, 2), (2, 2)], 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
          6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}


def _dice_svg(info: BoardInfo) -> list[str]:
    if not info.dice or not info.on_roll:
        return []
    letter = info.turn
    # The player to act throws into his right-hand half: X's is the right one.
    half = _LEFT + _HALF + _BAR if letter == "x" else _LEFT
    side = 32
    out = []
    for k, value in enumerate(info.dice):
        left = half + _HALF / 2 - side - 6 + k * (side + 12)
        top = _MIDDLE - side / 2
        out.append(f'<rect class="die {letter}" x="{left:g}" y="{top:g}" width="{side}" '
                   f'height="{side}" rx="5"/>')
        spots = "".join(
            f'<circle class="spot" cx="{left + 7 + 9 * c:g}" cy="{top + 7 + 9 * r:g}" r="3"/>'
            for c, r in _SPOTS.get(value, []))
        out.append(f'<g class="spots">{spots}</g>')
    return out


def _cube_svg(info: BoardInfo) -> list[str]:
    side = 36
    owner = info.cube_owner or "centred"
    offered = ""
    if info.cube_offered is not None:
        # Offered: in the middle of the doubler's half (where he throws his dice), showing
        # the value offered, as GNU Backgammon draws a double awaiting its answer.
        half = _LEFT + _HALF + _BAR if info.cube_offered == "x" else _LEFT
        cx, cy = half + _HALF / 2, _MIDDLE
        shown = 2 * info.cube_value
        offered = f' data-offered-by="{info.cube_offered}"'
    else:
        cx = _CUBE_COLUMN / 2
        cy = {None: _MIDDLE, "x": _BOTTOM - side / 2, "o": _TOP + side / 2}[info.cube_owner]
        # A centred cube at 1 shows 64, as on a real cube and in GNU Backgammon.
        shown = 64 if info.cube_owner is None and info.cube_value == 1 else info.cube_value
    return [f'<g class="cube-group" data-owner="{owner}" data-value="{info.cube_value}"'
            f'{offered}><rect class="cube" x="{cx - side / 2:g}" y="{cy - side / 2:g}" '
            f'width="{side}" height="{side}" rx="4"/>'
            f'<text class="cube-value" x="{cx:g}" y="{cy:g}">{shown}</text></g>']


def _player_text(info: BoardInfo, letter: Letter) -> str:
    x, o = player_sides(info)
    name, score, side = ((info.x_name, info.x_score, x) if letter == "x"
                         else (info.o_name, info.o_score, o))
    parts = [f"{letter.upper()}: {name}"]
    if score is not None:
        parts.append(_score_text(score))
    parts.append(f"pips {_pips(side)}")
    if side[0]:
        parts.append(f"off {side[0]}")
    if letter == info.turn and info.on_roll:
        parts.append(f"rolled {info.dice[0]}{info.dice[1]}" if info.dice else "on roll")
    return ", ".join(parts)


def _labels_svg(info: BoardInfo) -> list[str]:
    out = []
    rows: tuple[tuple[Letter, float], ...] = (("o", _BAND / 2), ("x", _BOTTOM + _FRAME + _BAND / 2))
    for letter, y in rows:
        turn = " turn" if letter == _marked(info) else ""
        mark = "\u25b6 " if turn else ""
        out.append(f'<text class="label player-{letter}{turn}" x="{_LEFT}" y="{y:g}">'
                   f'{escape(mark + _player_text(info, letter))}</text>')
    match = []
    if info.match_length:
        match.append(f"{info.match_length} point match")
    elif info.match_length == 0:
        match.append("money session")
    if info.status:
        match.extend(info.status.split("; "))
    if info.action:
        match.append(info.action)
    if match:
        y = _BOTTOM + _FRAME + 1.5 * _BAND
        out.append(f'<text class="label match" x="{_LEFT}" y="{y:g}">'
                   f'{escape(", ".join(match))}</text>')
    return out


def svg_diagram(info: BoardInfo, *, size: int = 400) -> str:
    """A standalone ``<svg>`` of the board, ``size`` pixels wide, in GNU Backgammon's
    orientation: ``X`` at the bottom, home board bottom right, the borne-off trays on the
    right, the cube on the left (at its owner's side, in the middle when centred), the dice
    in the right-hand half of the player to act, and his point numbers along the edges.
    With ``info.home == "left"`` the points are mirrored (``X``'s home board bottom left;
    the trays stay on the right); ``info.last_play`` is drawn as arrows."""
    height = round(size * _VIEW_HEIGHT / _VIEW_WIDTH)
    body = [
        f'<rect class="background" width="{_VIEW_WIDTH}" height="{_VIEW_HEIGHT}" '
        'fill="#f7f3ea"/>',
        f'<rect class="frame" x="{_CUBE_COLUMN}" y="{_BAND}" '
        f'width="{_VIEW_WIDTH - _CUBE_COLUMN}" height="{_BOTTOM + _FRAME - _BAND}"/>',
        f'<rect class="felt" x="{_LEFT}" y="{_TOP}" width="{_HALF}" height="{_BOTTOM - _TOP}"/>',
        f'<rect class="felt" x="{_LEFT + _HALF + _BAR}" y="{_TOP}" width="{_HALF}" '
        f'height="{_BOTTOM - _TOP}"/>',
        f'<rect class="bar" x="{_LEFT + _HALF}" y="{_TOP}" width="{_BAR}" '
        f'height="{_BOTTOM - _TOP}" fill="#573718"/>',
        f'<rect class="tray" x="{_RIGHT + _FRAME}" y="{_TOP}" width="{_TRAY - 4}" '
        f'height="{_BOTTOM - _TOP}"/>',
    ]
    body += _points_svg(info) + _trays_svg(info) + _dice_svg(info) + _cube_svg(info)
    body += _labels_svg(info) + _last_play_svg(info)
    title = escape(f"{info.x_name} (X) vs {info.o_name} (O)")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{size}" '
            f'height="{height}" viewBox="0 0 {_VIEW_WIDTH} {_VIEW_HEIGHT}">'
            f"<title>{title}</title><style>{_STYLE}</style>"
            + "".join(body) + "</svg>\n")
