"""`show` keeps its players: each keeps his letter and side for a whole match (GNU Backgammon's
``show board``), the point numbers are those of the player to act; checked on real matches by
reading the drawn boards back."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest

from bgtools.engine.diagram import BoardInfo, ascii_diagram, board_lines, board_start
from bgtools.engine.position import Position
from bgtools.reports.board import id_board, moment_board
from bgtools.reports.moments import MatchAnswers, Moment, analyse_answers

ROOT = Path(__file__).resolve().parents[1]
MATCHES = [
    ROOT / "samples" / "example_gnubg.mat",
    ROOT / "samples" / "galaxy_match1486073.txt",
    ROOT / "tests" / "data" / "selfplay" / "m3_s1.mat",
    ROOT / "tests" / "data" / "selfplay" / "m3_s10.sgf",
    ROOT / "tests" / "data" / "sites" / "match1100068.txt",
]
SHARED_MAT = ROOT.parent / "shared" / "corpus"

# A screen cell: ("top"|"bottom"|"bar-top"|"bar-bottom", column index); its content (letter, count).
Cell = tuple[str, int]


def answers_of(path: Path) -> list[MatchAnswers]:
    result, answers = analyse_answers(str(path), path)
    assert result.error is None, result.error
    return answers


def grid_of(info: BoardInfo) -> list[str]:
    lines = board_lines(info)
    start = board_start(info)
    return [line[:44] for line in lines[start:start + 13]]


def cells(grid: list[str]) -> dict[Cell, tuple[str, int]]:
    """What each screen cell holds, read back from the drawing (a count on a tall stack)."""
    out: dict[Cell, tuple[str, int]] = {}
    starts = [2 + 3 * c for c in range(6)] + [25 + 3 * c for c in range(6)]
    for half, rows in (("top", grid[1:6]), ("bottom", list(reversed(grid[7:12])))):
        for column, start in enumerate([*starts, 21]):
            marks = [row[start:start + 3].strip() for row in rows]
            letters = {m for m in marks if m in ("X", "O")}
            if not letters:
                continue
            (letter,) = letters
            count = sum(1 for m in marks if m == letter)
            if marks[-1].isdigit():
                count = int(marks[-1])
            key = (f"bar-{half}", 0) if start == 21 else (half, column)
            out[key] = (letter, count)
    return out


def labels(grid: list[str]) -> dict[int, Cell]:
    """The point number written at each column's edge: number -> cell."""
    out: dict[int, Cell] = {}
    starts = [2 + 3 * c for c in range(6)] + [25 + 3 * c for c in range(6)]
    for half, line in (("top", grid[0]), ("bottom", grid[12])):
        for column, start in enumerate(starts):
            out[int(line[start:start + 2].strip("-"))] = (half, column)
    return out


def touched(play: str) -> tuple[set[int], set[int], bool]:
    """(points whose mover count changes, points hit, entered from the bar) of a written play,
    in the mover's numbering (bar 25, off 0)."""
    net: dict[int, int] = {}
    hits: set[int] = set()
    for chain in play.split():
        match = re.fullmatch(r"([^()]+)(?:\((\d)\))?", chain)
        assert match, chain
        times = int(match.group(2) or 1)
        points = match.group(1).split("/")
        values = [25 if p.rstrip("*") == "bar" else 0 if p == "off" else int(p.rstrip("*"))
                  for p in points]
        hits.update(v for p, v in zip(points, values) if p.endswith("*"))
        net[values[0]] = net.get(values[0], 0) - times
        net[values[-1]] = net.get(values[-1], 0) + times
    changed = {p for p, n in net.items() if n and 1 <= p <= 24}
    return changed, hits, net.get(25, 0) != 0


def steps_of(answers: list[MatchAnswers]) -> Iterator[tuple[Moment, Moment, MatchAnswers]]:
    for match in answers:
        for moments in match.moments.values():
            yield from ((a, b, match) for a, b in pairwise(moments))


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_stepping_through_a_match_keeps_every_checker_in_place(path: Path) -> None:
    answers = answers_of(path)
    checked = 0
    for before, after, match in steps_of(answers):
        grid_before = grid_of(moment_board(match, before))
        grid_after = grid_of(moment_board(match, after))
        old, new = cells(grid_before), cells(grid_after)
        changed = {cell for cell in old.keys() | new.keys() if old.get(cell) != new.get(cell)}
        if before.action != "move":
            assert not changed, (before, changed)
            continue
        # The numbers on the board before the move are the mover's: find his points by them.
        where = labels(grid_before)
        points, hits, from_bar = touched(before.play or "")
        mover = "X" if before.state.on_roll == 1 else "O"
        bar_of = {"X": ("bar-bottom", 0), "O": ("bar-top", 0)}
        expected = {where[p] for p in points | hits}
        if from_bar:
            expected.add(bar_of[mover])
        if hits:
            expected.add(bar_of["O" if mover == "X" else "X"])
        assert changed == expected, (path.name, before.game, before.move, before.play)
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_players_keep_letter_and_numbers_follow_the_player_to_act(path: Path) -> None:
    answers = answers_of(path)
    match = answers[0]
    names = match.replay.names or ("player 0", "player 1")
    for moments in match.moments.values():
        for moment in moments:
            info = moment_board(match, moment)
            lines = board_lines(info)
            start = board_start(info)
            assert lines[start].endswith(f"O: {names[0]}"[:31].rstrip())
            assert f"X: {names[1]}"[:20] in lines[start + 12]
            grid = grid_of(info)
            x_to_act = moment.state.on_roll == 1
            # The player to act's point 1 is bottom right when he is X, top right when O.
            assert labels(grid)[1] == (("bottom", 11) if x_to_act else ("top", 11))
            assert grid[6][0] == ("v" if x_to_act else "^")


def test_the_note_of_the_roll_sits_beside_the_player_to_act() -> None:
    match = answers_of(MATCHES[0])[0]
    first, second = match.moment(1, 1), match.moment(1, 2)
    lines_x = board_lines(moment_board(match, first))[2:15]
    lines_o = board_lines(moment_board(match, second))[2:15]
    assert lines_x[10].endswith(f"Rolled {first.dice[0]}{first.dice[1]}")  # type: ignore[index]
    assert lines_o[4].endswith(f"Rolled {second.dice[0]}{second.dice[1]}")  # type: ignore[index]
    assert "Rolled" not in "".join(lines_x[:6]) and "Rolled" not in "".join(lines_o[7:])


def test_a_bare_id_is_drawn_from_the_side_on_roll() -> None:
    info = id_board("4HPwATDgc/ABMA:cAlvAAAAAAAE")
    assert info is not None and info.turn == "x"
    grid = grid_of(info)
    assert labels(grid)[1] == ("bottom", 11) and grid[6][0] == "v"


def test_position_str_is_the_ascii_board_and_repr_stays() -> None:
    pos = Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    text = str(pos)
    assert text == ascii_diagram(BoardInfo(pos))
    grid = text.splitlines()[:13]
    on_board = cells([line[:44] for line in grid])
    assert on_board[("bottom", 11 - 5)] == ("X", 5)  # X's 6 point
    assert on_board[("top", 6)] == ("O", 5)  # O's 6 point is X's 19, top column 6
    assert repr(pos).startswith("Position(mover=(")


@pytest.mark.skipif(not SHARED_MAT.is_dir(), reason="../shared/corpus is absent")
def test_stepping_keeps_checkers_in_place_on_corpus_matches() -> None:
    files = sorted(SHARED_MAT.rglob("*.mat"))[:40]
    assert files
    for path in files:
        result, answers = analyse_answers(str(path), path)
        if result.error is not None or not result.valid:
            continue
        for before, after, match in steps_of(answers):
            old = cells(grid_of(moment_board(match, before)))
            new = cells(grid_of(moment_board(match, after)))
            if before.action != "move":
                assert old == new
                continue
            where = labels(grid_of(moment_board(match, before)))
            points, hits, _ = touched(before.play or "")
            moved = {cell for cell in old.keys() | new.keys() if old.get(cell) != new.get(cell)}
            assert {c for c in moved if not c[0].startswith("bar")} == {where[p]
                                                                        for p in points | hits}
