"""Synthetic but legal match records for the statistics tests: random legal plays, dice from
any distribution (fair or loaded), written as GNU Backgammon's ``.mat`` by bgtools' writer.

No cube is turned; a game ends when a player bears off his last checker and scores its
value (1, 2 or 3). The opening roll of a game is never a double (rolled again, as at the
board).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from bgtools.engine.position import Position
from bgtools.record import Action, GameRecord, MatchRecord
from bgtools.write.mat import write_mat

Die = Callable[[random.Random], int]


def fair_die(rng: random.Random) -> int:
    """A fair die."""
    return rng.randint(1, 6)


def loaded_die(weights: tuple[float, ...] = (0.15, 0.15, 0.15, 0.15, 0.15, 0.25)) -> Die:
    """A die showing face ``i + 1`` with probability ``weights[i]``."""
    faces = [1, 2, 3, 4, 5, 6]

    def roll(rng: random.Random) -> int:
        return rng.choices(faces, weights)[0]

    return roll


def random_game(rng: random.Random, die: Die, number: int, score: tuple[int, int],
                names: tuple[str, str], second: Die | None = None) -> tuple[GameRecord, int, int]:
    """One game of random legal plays: its record, the winner and the points won. The first
    die written is rolled with ``die``, the second with ``second`` (default: ``die``)."""
    other = second or die
    game = GameRecord(number, names=names, score=score)
    while True:
        d1, d2 = die(rng), other(rng)
        if d1 != d2:
            break
    player = rng.randint(0, 1)
    position = Position.initial()
    while True:
        plays = position.legal_plays(d1, d2)
        play = rng.choice(plays)
        game.actions.append(Action("roll", player, dice=(d1, d2), play_text=str(play)))
        after = position.play(play)  # seen from the opponent
        if after.opponent[0] == 15:  # the mover has borne everything off
            value = after.swapped().game_value()
            game.actions.append(Action("win", player, points=value))
            return game, player, value
        position = after
        player = 1 - player
        d1, d2 = die(rng), other(rng)


def random_match(seed: int, die: Die = fair_die, length: int = 5,
                 names: tuple[str, str] = ("alice", "bob"), site: str | None = None,
                 second: Die | None = None) -> str:
    """The ``.mat`` text of a random ``length``-point match (cube never turned)."""
    rng = random.Random(seed)
    record = MatchRecord("mat", match_length=length)
    if site is not None:
        record.tags.append(("Site", site))
    score = [0, 0]
    number = 1
    while max(score) < length:
        game, winner, points = random_game(rng, die, number, (score[0], score[1]), names,
                                           second)
        record.games.append(game)
        score[winner] += points
        number += 1
    return write_mat(record)


def write_archive(directory: Path, files: int, die: Die = fair_die, seed: int = 0,
                  length: int = 5, second: Die | None = None) -> list[Path]:
    """``files`` random matches in ``directory`` (``m000.mat`` ...)."""
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(files):
        path = directory / f"m{i:03d}.mat"
        path.write_text(random_match(seed + i, die, length, second=second), encoding="utf-8")
        out.append(path)
    return out
