"""Perft-style differential test: our legal plays against GNU Backgammon's own generator.

For each random position and roll the *set of resulting positions* must be identical to
the one gnubg's C ``GenerateMoves`` gives (see tests/helpers/ORACLE_NOTES.md for how it is reached).
"""

from __future__ import annotations

import random
from collections import Counter
from types import ModuleType

import pytest

from bgtools.engine.position import Position
from tests.helpers.strategies import random_position

pytestmark = pytest.mark.slow  # 20,000 positions against GNU Backgammon's move generator

KINDS = ["contact", "bar", "bearoff", "race", "prime", "mixed"]
SAMPLES = 20_000


@pytest.fixture(scope="module")
def oracle(gnubg: ModuleType) -> ModuleType:
    from tests.helpers import gnubg_oracle

    if not gnubg_oracle.available():
        pytest.skip("gnubg's move generator is not reachable in this build")
    return gnubg_oracle


def game_positions(rng: random.Random, count: int) -> list[Position]:
    """Positions met in random games played to the end (covers races and bear-offs)."""
    out: list[Position] = []
    while len(out) < count:
        pos = Position.initial()
        while not pos.is_game_over and len(out) < count:
            out.append(pos)
            plays = pos.legal_plays(rng.randint(1, 6), rng.randint(1, 6))
            pos = pos.play(rng.choice(plays))
    return out


def test_legal_results_equal_gnubg(oracle: ModuleType) -> None:
    rng = random.Random(2026_11_29)
    cases = [random_position(rng, KINDS[i % len(KINDS)]) for i in range(SAMPLES // 2)]
    cases += game_positions(rng, SAMPLES - len(cases))
    stats: Counter[str] = Counter()
    for pos in cases:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        ours = {(r.mover[1:], r.opponent[1:]) for r in pos.legal_results(d1, d2)}
        theirs = oracle.legal_results([list(s) for s in pos.to_gnubg()], d1, d2)
        assert ours == theirs, f"{pos.position_id} {d1}{d2}: {len(ours)} vs {len(theirs)}"
        plays = pos.legal_plays(d1, d2)
        used = len(plays[0].steps)
        stats["doubles" if d1 == d2 else "non-doubles"] += 1
        stats["no legal play" if used == 0 else f"{used} dice used"] += 1
        if d1 != d2 and used == 1:
            stats["only one die playable"] += 1
        if pos.mover[25]:
            stats["on the bar"] += 1
        if any("off" in str(p) for p in plays):
            stats["bear-off plays"] += 1
    assert sum(stats[k] for k in ("doubles", "non-doubles")) == SAMPLES
    # The sample must really cover the hard cases.
    assert stats["only one die playable"] >= 200, stats
    assert stats["no legal play"] >= 200, stats
    assert stats["bear-off plays"] >= 2000, stats
    assert stats["on the bar"] >= 2000, stats
