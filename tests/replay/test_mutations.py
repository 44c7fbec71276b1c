"""Mutation suite: one edit to a GNU Backgammon self-play ``.mat`` breaks exactly one rule.

Each case takes a cached self-play record (``tests/helpers/selfplay.py``), which replays clean,
applies one edit that violates one rule, re-writes the file exactly as gnubg lays it out,
and checks that the replayer reports that rule, on the edited line, and no other error.
Where to edit is found from gnubg's truth file (positions before each action).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bgtools.engine.position import Position
from bgtools.readers.mat import parse_mat
from bgtools.record import Severity
from bgtools.replay import replay_match
from tests.helpers.selfplay import load_cases

pytestmark = pytest.mark.slow  # mutation runs; building the cases alone takes seconds

CASES = load_cases()
if not CASES:  # pragma: no cover - the cache is committed
    pytest.skip("no cached self-play records (run python -m tests.helpers.selfplay --regenerate)",
                allow_module_level=True)


# --- a cell model of gnubg's .mat export, and its exact writer --------------------------------


@dataclass
class Cell:
    """One cell: ``player``, its text as gnubg writes it, and for results the layout."""

    player: int
    text: str
    wins: str | None = None  # None: an action; "own": a line of its own; "right": same row
    truth: dict[str, Any] | None = None  # gnubg's action for this cell


@dataclass
class Game:
    """One game: header line, score line, cells in order."""

    header: str
    score: str
    cells: list[Cell] = field(default_factory=list)


@dataclass
class Mat:
    """A whole gnubg ``.mat``: the text before the first game, then the games."""

    prefix: list[str]
    games: list[Game]
    truth: dict[str, Any]


def read_mat(text: str, truth: dict[str, Any]) -> Mat:
    """Split gnubg's export into cells (exact inverse of ``write_mat``)."""
    lines = text.split("\n")
    assert lines[-1] == ""
    lines = lines[:-1]
    start = next(i for i, s in enumerate(lines) if re.match(r"^ Game \d+$", s))
    mat = Mat(lines[:start], [], truth)
    game: Game | None = None
    i = start
    while i < len(lines):
        line = lines[i]
        if re.match(r"^ Game \d+$", line):
            game = Game(line, lines[i + 1])
            mat.games.append(game)
            i += 2
            continue
        assert game is not None
        if line == "":
            i += 1
            continue
        if re.match(r"^ {6}Wins", line):
            game.cells.append(Cell(0, line, "own"))
        elif re.match(r"^ {34}Wins", line):
            game.cells.append(Cell(1, line, "own"))
        else:
            m = re.match(r"^( *\d+\) )(.*)$", line)
            assert m and len(m.group(1)) == 5, line
            rest = line[5:]
            if rest[:1].isdigit():
                m = re.match(r"(\d\d):((?: \d+/\d+\*?)*)", rest)
                assert m, line
                left = _roll_cell((int(m.group(1)[0]), int(m.group(1)[1])),
                                  m.group(2).split())
                game.cells.append(Cell(0, left))
                right = rest[max(27, len(left)) + 1:]
            else:
                left, right = line[5:32], line[33:]
                if left.strip():
                    game.cells.append(Cell(0, left.rstrip(" ")))
            if right:
                if right.strip().startswith("Wins"):
                    game.cells.append(Cell(1, right, "right"))
                else:
                    game.cells.append(Cell(1, right))
        i += 1
    for game, tgame in zip(mat.games, truth["games"]):
        actions = [a for a in tgame["actions"] if a["action"] != "resign"]
        cells = [c for c in game.cells if c.wins is None]
        assert len(actions) == len(cells)
        for cell, action in zip(cells, actions):
            assert cell.player == action["player"]
            cell.truth = action
    written = write_mat(mat)
    if written != text:
        pairs = zip(written.split("\n"), text.split("\n"))
        raise AssertionError(next((a, b) for a, b in pairs if a != b))
    return mat


def write_mat(mat: Mat, marks: dict[int, int] | None = None) -> str:
    """gnubg's layout (FORMATS.md 2.11); ``marks`` maps ``id(cell)`` to its 1-based line."""
    out = list(mat.prefix)
    for game in mat.games:
        out.append(game.header)
        out.append(game.score)
        row: str | None = None  # an open row: a left cell written, the right one not yet
        rows = 0
        for cell in game.cells:
            if cell.wins == "own":
                if row is not None:
                    out.append(row)
                    row = None
                out.append(cell.text)
            elif cell.player == 0:
                if row is not None:
                    out.append(row)
                rows += 1
                row = f"{rows:3d}) " + cell.text.ljust(27) + " "
            else:
                if row is None:  # the left cell of this row is empty
                    rows += 1
                    row = f"{rows:3d}) " + " " * 28
                out.append(row + cell.text)
                row = None
            if marks is not None:
                marks[id(cell)] = len(out) + (1 if row is not None else 0)
        if row is not None:
            out.append(row)
        out.append("")
    return "\n".join(out) + "\n"


def _roll_cell(dice: tuple[int, int], steps: list[Any]) -> str:
    """A roll cell as gnubg writes it; a step is ``(src, dst)`` or its text (``13/7*``)."""
    text = f"{dice[0]}{dice[1]}: "
    for k, step in enumerate(steps):
        text += (step if isinstance(step, str) else f"{step[0]}/{step[1]}") \
            + (" " if k < 3 else "")
    return text


def _wins(player: int, points: int) -> Cell:
    word = "point" if points == 1 else "points"
    pad = 6 if player == 0 else 34
    return Cell(player, " " * pad + f"Wins {points} {word}", "own")


# --- finding a place to edit ------------------------------------------------------------------


def before(cell: Cell) -> Position:
    """The position before ``cell``'s action, seen from the player to act."""
    assert cell.truth is not None
    return Position.from_id(cell.truth["position_id"])


def rolls(mat: Mat) -> list[tuple[int, Game, Cell]]:
    """Every roll cell with its game index."""
    return [(gi, g, c) for gi, g in enumerate(mat.games) for c in g.cells
            if c.truth is not None and c.truth["action"] == "move"]


def _independent(steps: list[list[int]]) -> bool:
    """Two steps of which the second does not move the checker the first moved."""
    return len(steps) == 2 and steps[1][0] != steps[0][1]


Mutator = Callable[[Mat], Cell | None]
"""Edits ``mat`` in place and returns the cell (or a cell standing for a line) to blame."""


def mut_dice(mat: Mat) -> Cell | None:
    for _, _, cell in rolls(mat):
        d1, d2 = cell.truth["dice"]
        steps = cell.truth["move"]
        if d1 == d2 or len(steps) != 2 or any(dst == 0 for _, dst in steps):
            continue
        others = [d for d in range(6, 0, -1) if d not in (d1, d2)]
        cell.text = _roll_cell((others[0], others[1]), [tuple(s) for s in steps])
        return cell
    return None


def mut_blocked(mat: Mat) -> Cell | None:
    for _, _, cell in rolls(mat):
        pos = before(cell)
        steps = cell.truth["move"]
        d1, d2 = cell.truth["dice"]
        if d1 == d2 or pos.mover[25] or not _independent(steps):
            continue
        (s1, e1), (s2, e2) = steps
        die = s1 - e1
        if e1 <= 0 or die not in (d1, d2):
            continue
        for x in range(24, die, -1):
            if x in (s1, s2) or not pos.mover[x] or pos.opponent[25 - (x - die)] < 2:
                continue
            cell.text = _roll_cell((d1, d2), [(x, x - die), (s2, e2)])
            return cell
    return None


def mut_bar(mat: Mat) -> Cell | None:
    for _, _, cell in rolls(mat):
        pos = before(cell)
        steps = cell.truth["move"]
        d1, d2 = cell.truth["dice"]
        if d1 == d2 or pos.mover[25] != 1 or len(steps) != 2 or steps[0][0] != 25:
            continue
        die = 25 - steps[0][1]
        for x in range(24, die, -1):
            if pos.mover[x] and x != steps[1][0] and pos.opponent[25 - (x - die)] < 2:
                second = steps[1] if steps[1][0] != steps[0][1] else None
                if second is None:
                    break
                cell.text = _roll_cell((d1, d2), [(x, x - die), tuple(second)])
                return cell
    return None


def mut_half(mat: Mat) -> Cell | None:
    for _, _, cell in rolls(mat):
        d1, d2 = cell.truth["dice"]
        steps = cell.truth["move"]
        if d1 == d2 or len(steps) != 2 or steps[0][1] == 0:
            continue
        cell.text = _roll_cell((d1, d2), [tuple(steps[0])])
        return cell
    return None


def mut_higher(mat: Mat) -> Cell | None:
    """Re-roll one turn to dice of which only one can be played, and play the smaller.

    gnubg's self-play never met such a roll where the smaller die was playable too, so the
    dice are changed as well (any dice may be written: they are what was rolled)."""
    for _, _, cell in rolls(mat):
        pos = before(cell)
        for big in range(6, 1, -1):
            for small in range(big - 1, 0, -1):
                legal = pos.legal_results(big, small)
                if any(len(play.steps) != 1 for play in legal.values()):
                    continue
                for x in range(24, small, -1):
                    if pos.step_error(x, x - small, small) is not None:
                        continue
                    after, _ = pos.apply_steps([(x, x - small)])
                    if after not in legal:
                        cell.text = _roll_cell((big, small), [(x, x - small)])
                        return cell
    return None


def mut_bearoff(mat: Mat) -> Cell | None:
    for _, _, cell in rolls(mat):
        pos = before(cell)
        steps = cell.truth["move"]
        d1, d2 = cell.truth["dice"]
        outside = sum(pos.mover[7:26])
        if d1 == d2 or pos.mover[25] or outside < 2 or not _independent(steps):
            continue
        (s1, e1), (s2, e2) = steps
        die = s1 - e1
        if die in (d1, d2) and e1 > 0 and pos.mover[die] and s2 != die:
            cell.text = _roll_cell((d1, d2), [(die, 0), (s2, e2)])
            return cell
    return None


def mut_cube_value(mat: Mat) -> Cell | None:
    for game in mat.games:
        for cell in game.cells:
            if cell.text == " Doubles => 2":
                cell.text = " Doubles => 4"
                return cell
    return None


def _truncate_resign(mat: Mat, gi: int, keep: int, extra: list[Cell], cube: int) -> None:
    """Keep the first ``keep`` cells of the last game ``gi``, append ``extra``, then end it
    with a resignation worth enough for gnubg's winner to win the match."""
    game = mat.games[gi]
    tgame = mat.truth["games"][gi]
    winner = tgame["winner"]
    needed = mat.truth["match_length"] - tgame["score_before"][winner]
    level = next((lv for lv in (1, 2, 3) if cube * lv >= needed), 3)
    game.cells = game.cells[:keep] + extra + [_wins(winner, cube * level)]


def _roll_turns(game: Game) -> list[int]:
    """Indexes of roll cells after the opening roll."""
    return [k for k, c in enumerate(game.cells)
            if k > 0 and c.truth is not None and c.truth["action"] == "move"]


def mut_crawford(mat: Mat) -> Cell | None:
    gi = len(mat.games) - 1
    if not mat.truth["games"][gi]["crawford"]:
        return None
    game = mat.games[gi]
    k = _roll_turns(game)[2]
    p = game.cells[k].player
    double = Cell(p, " Doubles => 2")
    _truncate_resign(mat, gi, k, [double, Cell(1 - p, " Takes")], 2)
    return double


def mut_not_owner(mat: Mat) -> Cell | None:
    gi = len(mat.games) - 1
    game = mat.games[gi]
    takes = [k for k, c in enumerate(game.cells) if c.text.strip() == "Takes"]
    if len(takes) != 1 or not mat.truth["match_length"]:
        return None
    owner = game.cells[takes[0]].player
    later = [k for k in _roll_turns(game) if k > takes[0] and game.cells[k].player != owner]
    if not later or any("Doubles" in c.text for c in game.cells[takes[0]:]):
        return None
    double = Cell(1 - owner, " Doubles => 4")
    _truncate_resign(mat, gi, later[0], [double, Cell(owner, " Takes")], 4)
    return double


def _score_cell(game: Game) -> Cell:
    """A stand-in cell whose line is the game's score line (see ``line_of``)."""
    return Cell(-1, game.score)


def mut_score(mat: Mat) -> Cell | None:
    return _mut_score_of(mat, len(mat.games) - 1)


def mut_score_between(mat: Mat) -> Cell | None:
    """A wrong score line between two right ones: one error, on that line alone (the next
    line, which the results bear out, is not blamed for the typo before it)."""
    for gi in range(1, len(mat.games) - 1):
        cell = _mut_score_of(mat, gi)
        if cell is not None:
            if [g.score for g in mat.games].count(cell.text) > 1:
                return None  # line_of finds a score line by its text
            return cell
    return None


def _mut_score_of(mat: Mat, gi: int) -> Cell | None:
    if gi == 0:
        return None
    game = mat.games[gi]
    loser = 1 - mat.truth["games"][gi]["winner"]
    m = re.match(r"^( .* : )(\d+)( +)(.* : )(\d+)$", game.score)
    assert m
    scores = [int(m.group(2)), int(m.group(5))]
    if scores[loser] == 0:
        return None
    scores[loser] -= 1
    game.score = game.score[: m.start(2)] + str(scores[0]) + game.score[m.end(2): m.start(5)] \
        + str(scores[1])
    return _score_cell(game)


def mut_wins(mat: Mat) -> Cell | None:
    for game, tgame in zip(mat.games[:-1], mat.truth["games"]):
        if tgame["resigned"]:
            continue
        cell = game.cells[-1]
        assert cell.wins
        n = tgame["points"]
        cell.text = cell.text.replace(f"Wins {n} point", f"Wins {n + 1} point")
        cell.text = cell.text.replace(f"Wins {n + 1} point ", f"Wins {n + 1} points ") \
            if n == 1 else cell.text
        if n == 1 and cell.text.endswith("point"):
            cell.text += "s"
        return cell
    return None


def _header_cell(game: Game) -> Cell:
    return Cell(-2, game.header)


def mut_after_match(mat: Mat) -> Cell | None:
    if not mat.truth["match_length"]:
        return None
    extra = copy.deepcopy(mat.games[0])
    n = len(mat.games) + 1
    extra.header = f" Game {n}"
    final = mat.truth["final_score"]
    names = mat.truth["players"]
    extra.score = " " + f"{names[0]} : {final[0]}".ljust(31) + f"{names[1]} : {final[1]}"
    mat.games.append(extra)
    return _header_cell(extra)


def mut_turn(mat: Mat) -> Cell | None:
    for game in mat.games:
        for k, cell in enumerate(game.cells[1:-1], start=1):
            t = cell.truth
            nxt = game.cells[k + 1].truth
            if t and t["action"] == "move" and not t["move"] and nxt and nxt["action"] == "move":
                del game.cells[k]
                return game.cells[k]
    return None


def mut_opening(mat: Mat) -> Cell | None:
    for game, tgame in zip(mat.games, mat.truth["games"]):
        if tgame["points"] > 3 or game.cells[0].truth is None:
            continue
        first = game.cells[0]
        pos = before(first)
        plays = pos.legal_plays(3, 3)
        opening = Cell(first.player, _roll_cell((3, 3), list(plays[0].steps)))
        resign = _wins(tgame["winner"], tgame["points"])
        game.cells = [opening, resign]
        if tgame["points"] == 3:  # a resignation of 3 with the cube at 1 is a backgammon
            pass
        return opening
    return None


def mut_incomplete(mat: Mat) -> Cell | None:
    if not mat.truth["match_length"] or len(mat.games) < 2:
        return None
    del mat.games[-1]
    return _header_cell(mat.games[-1])


@dataclass(frozen=True)
class Mutation:
    """A mutation: the rule it breaks, how, and which records to try (first that fits)."""

    rule: str
    mutate: Mutator
    severity: Severity = Severity.ERROR
    xfail: str | None = None
    moves_on: bool = False  # the edit changes the position: later plays may be illegal too


MUTATIONS = [
    Mutation("dice-mismatch", mut_dice),
    Mutation("blocked-point", mut_blocked, moves_on=True),
    Mutation("must-enter-bar", mut_bar, moves_on=True),
    Mutation("max-dice", mut_half, moves_on=True),
    Mutation("higher-die", mut_higher, moves_on=True),
    Mutation("bearoff-not-home", mut_bearoff, moves_on=True),
    Mutation("cube-value", mut_cube_value),
    Mutation("crawford-double", mut_crawford),
    Mutation("cube-not-owner", mut_not_owner),
    Mutation("score-mismatch", mut_score),
    Mutation("score-mismatch", mut_score_between),
    Mutation("wins-mismatch", mut_wins),
    Mutation("game-after-match", mut_after_match),
    Mutation("turn-order", mut_turn),
    Mutation("opening-double", mut_opening),
    Mutation("match-incomplete", mut_incomplete, Severity.WARNING),
]

RECORDS_PER_MUTATION = 3


def line_of(mat: Mat, target: Cell) -> tuple[str, int]:
    """Write ``mat`` and find the 1-based line of ``target`` (a cell, score or header)."""
    marks: dict[int, int] = {}
    text = write_mat(mat, marks)
    if target.player >= 0:
        return text, marks[id(target)]
    lines = text.split("\n")
    return text, len(lines) - lines[::-1].index(target.text)  # the last such line


def instances(mutation: Mutation) -> list[Any]:
    """Up to ``RECORDS_PER_MUTATION`` records this mutation applies to."""
    out: list[Any] = []
    for path, truth in CASES:
        if len(out) >= RECORDS_PER_MUTATION:
            break
        mat = read_mat(path.read_text(encoding="utf-8"), truth)
        target = mutation.mutate(mat)
        if target is None:
            continue
        text, line = line_of(mat, target)
        marks = [pytest.mark.xfail(strict=True, reason=mutation.xfail)] if mutation.xfail else []
        out.append(pytest.param(mutation.rule, mutation.severity, mutation.moves_on,
                                path.stem, text, line,
                                id=f"{mutation.rule}-{mutation.mutate.__name__}-{path.stem}",
                                marks=marks))
    return out


PARAMS = [p for m in MUTATIONS for p in instances(m)]


@pytest.mark.parametrize("rule,severity,moves_on,name,text,line", PARAMS)
def test_mutation_is_reported(rule: str, severity: Severity, moves_on: bool, name: str,
                              text: str, line: int) -> None:
    """The mutated record draws ``rule`` on the edited line, and no other error.

    An edit that changes the position (a step moved or dropped) leaves the rest of gnubg's
    game unplayable from the new position, so there only errors on later lines may follow.
    """
    records = parse_mat(text)
    assert len(records) == 1
    replay = replay_match(records[0])
    got = [(p.rule, p.line, p.severity.value) for p in replay.problems]
    errors = [(p.rule, p.line) for p in replay.problems if p.severity is Severity.ERROR]
    assert (rule, line, severity.value) in got, f"{name}: expected {rule} at line {line}: {got}"
    expected_errors = [(rule, line)] if severity is Severity.ERROR else []
    if moves_on:
        assert errors[:1] == expected_errors, f"{name}: {got}"
        assert all(at > line for _, at in errors[1:] if at is not None), f"{name}: {got}"
    else:
        assert errors == expected_errors, f"{name}: {got}"


def test_every_mutation_found_a_record() -> None:
    """Each rule of the suite is exercised on at least one self-play record."""
    covered = {p.values[0] for p in PARAMS}
    assert covered == {m.rule for m in MUTATIONS}, {m.rule for m in MUTATIONS} - covered


@pytest.mark.parametrize("path,truth", CASES, ids=[p.stem for p, _ in CASES])
def test_writer_round_trip(path: Path, truth: dict[str, Any]) -> None:
    """The cell model re-writes gnubg's export byte for byte (checked inside read_mat)."""
    read_mat(path.read_text(encoding="utf-8"), truth)
