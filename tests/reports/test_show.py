"""`show` keeps its players: each keeps his letter and side for a whole match (GNU Backgammon's
``show board``), the point numbers are those of the player to act; checked on real matches by
reading the drawn boards back."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest

from bgtools.engine.diagram import (
    INFO_COLUMN,
    BoardInfo,
    ascii_diagram,
    board_lines,
    board_start,
)
from bgtools.engine.position import Position
from bgtools.reports.board import id_board
from bgtools.reports.moments import MatchAnswers, Moment, analyse_answers
from tests.helpers.paths import FILES, REPO

MATCHES = [
    REPO / "samples" / "example_gnubg.mat",
    REPO / "samples" / "galaxy_match1486073.txt",
    FILES / "selfplay" / "m3_s1.mat",
    FILES / "selfplay" / "m3_s10.sgf",
    FILES / "sites" / "match1100068.txt",
]

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


def steps_of(answers: list[MatchAnswers]) -> Iterator[tuple[Moment, Moment]]:
    for match in answers:
        for moments in match.moments.values():
            yield from pairwise(moments)


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_stepping_through_a_match_keeps_every_checker_in_place(path: Path) -> None:
    answers = answers_of(path)
    checked = 0
    for before, after in steps_of(answers):
        grid_before = grid_of(before.board())
        grid_after = grid_of(after.board())
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
    names = match.summary.names or ("player 0", "player 1")
    for moments in match.moments.values():
        for moment in moments:
            info = moment.board()
            lines = board_lines(info)
            start = board_start(info)
            assert lines[start].endswith(f"O: {names[0]}"[:31].rstrip())
            assert f"X: {names[1]}"[:20] in lines[start + 12]
            grid = grid_of(info)
            x_to_act = moment.state.on_roll == 1
            if moment.final and len(moments) > 1:
                # Game over: the numbers are those of the player who did not act last, as
                # GNU Backgammon passes the turn after the last action.
                x_to_act = moments[-2].player == 0
            # The player to act's point 1 is bottom right when he is X, top right when O.
            assert labels(grid)[1] == (("bottom", 11) if x_to_act else ("top", 11))
            assert grid[6][0] == ("v" if x_to_act else "^")


def test_the_note_of_the_roll_sits_beside_the_player_to_act() -> None:
    match = answers_of(MATCHES[0])[0]
    first, second = match.moment(1, 1), match.moment(1, 2)
    lines_x = board_lines(first.board())[2:15]
    lines_o = board_lines(second.board())[2:15]
    assert lines_x[10].endswith(f"Rolled {first.dice[0]}{first.dice[1]}")  # type: ignore[index]
    assert lines_o[4].endswith(f"Rolled {second.dice[0]}{second.dice[1]}")  # type: ignore[index]
    assert "Rolled" not in "".join(lines_x[:6]) and "Rolled" not in "".join(lines_o[7:])


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_a_cube_action_or_resignation_is_written_beside_the_player_who_acts(path: Path
                                                                          ) -> None:
    match = answers_of(path)[0]
    names = match.summary.names or ("player 0", "player 1")
    seen = 0
    for moments in match.moments.values():
        for before, moment in zip([None, *moments], moments):
            if moment.final or moment.action == "move" or moment.player is None:
                continue
            info = moment.board()
            lines = board_lines(info)[board_start(info):][:13]
            notes = [line[INFO_COLUMN:] for line in lines]
            top, bottom = "".join(notes[:6]), "".join(notes[7:])
            mine, other = (top, bottom) if moment.player == 0 else (bottom, top)  # 0 is O
            assert f"{names[moment.player]} " in mine and names[moment.player] not in other
            if moment.action in ("take", "drop", "beaver") and before is not None:
                offered = 2 * before.state.cube_value
                assert f"Cube offered at {offered}" in mine
                assert "Cube:" not in "".join(notes)  # the cube is off its place
            seen += 1
    assert seen or path.name.startswith("galaxy")


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


@pytest.mark.slow
def test_stepping_keeps_checkers_in_place_on_corpus_matches(corpus: Path) -> None:
    files = sorted(corpus.rglob("*.mat"))[:40]
    assert files
    for path in files:
        result, answers = analyse_answers(str(path), path)
        if result.error is not None or not result.valid:
            continue
        for before, after in steps_of(answers):
            old = cells(grid_of(before.board()))
            new = cells(grid_of(after.board()))
            if before.action != "move":
                assert old == new
                continue
            where = labels(grid_of(before.board()))
            points, hits, _ = touched(before.play or "")
            moved = {cell for cell in old.keys() | new.keys() if old.get(cell) != new.get(cell)}
            assert {c for c in moved if not c[0].startswith("bar")} == {where[p]
                                                                        for p in points | hits}


GNUBG_WALK = """
import os, sys
import gnubg
gnubg.command("set threads 1")
gnubg.command("set display off")
gnubg.command("import mat " + sys.argv[1])
gnubg.command("first game")
for game in range(int(sys.argv[2])):
    seen = None
    for _ in range(1000):
        gnubg.command("next")
        here = (gnubg.position_id(), gnubg.match_id())
        if here == seen:
            break
        seen = here
        sys.stdout.flush()
        os.write(1, b"=== game %d\\n" % (game + 1))
        gnubg.command("show board")
    gnubg.command("next game")
"""


def gnubg_grids(path: Path, games: int) -> dict[int, list[list[str]]]:
    """GNU Backgammon's own ``show board`` grids of each game, position after position, in a
    child process (gnubg prints from C). Stacks above 9 written in hex (``A``) as we write
    them (``10``)."""
    proc = subprocess.run([sys.executable, "-c", GNUBG_WALK, str(path), str(games)],
                          capture_output=True, text=True, timeout=300, check=False,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out: dict[int, list[list[str]]] = {}
    for block in proc.stdout.split("=== game ")[1:]:
        number, _, text = block.partition("\n")
        lines = text.splitlines()
        first = next(k for k, line in enumerate(lines) if line.startswith(" +1"))
        grid = [re.sub(r" ([A-F]) ", lambda m: f"{int(m.group(1), 16):>2} ", line[:44]).rstrip()
                for line in lines[first:first + 13]]
        out.setdefault(int(number), []).append(grid)
    return out


def deduplicated(grids: list[list[str]]) -> list[list[str]]:
    return [grid for k, grid in enumerate(grids) if k == 0 or grid != grids[k - 1]]


@pytest.mark.slow
@pytest.mark.parametrize("path", [MATCHES[0], MATCHES[2], FILES / "selfplay"
                                  / "m3_s2.mat"], ids=lambda p: p.name)
def test_boards_are_gnubg_s_show_board(gnubg: object, path: Path) -> None:
    """Every board GNU Backgammon shows while stepping through a game (its grid: checkers,
    point numbers, the v/^ mark) is one of ours, in the same order."""
    match = answers_of(path)[0]
    theirs = gnubg_grids(path, len(match.summary.games))
    compared = 0
    for game, moments in match.moments.items():
        ours = deduplicated([[line.rstrip() for line in grid_of(m.board())]
                             for m in moments])
        position = 0
        for grid in deduplicated(theirs.get(game, [])):
            while position < len(ours) and ours[position] != grid:
                position += 1
            assert position < len(ours), (path.name, game, "\n".join(grid))
            compared += 1
    assert compared >= len(match.moments)
