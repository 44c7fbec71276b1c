"""Benchmark legal-play generation on a fixed random sample of positions and rolls.

Usage: python benchmarks/bench_legal_plays.py [--count N] [--seed S]
Prints positions per second for all rolls together and for doubles alone.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for the tests.helpers package

from bgtools.engine.position import Position
from tests.helpers.strategies import random_position


def sample(count: int, seed: int) -> list[tuple[Position, int, int]]:
    """A fixed sample: half random positions of every kind, half from random games."""
    rng = random.Random(seed)
    kinds = ["contact", "bar", "bearoff", "race", "prime", "mixed"]
    cases = [(random_position(rng, kinds[i % 6]), rng.randint(1, 6), rng.randint(1, 6))
             for i in range(count // 2)]
    while len(cases) < count:
        pos = Position.initial()
        while not pos.is_game_over and len(cases) < count:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            cases.append((pos, d1, d2))
            pos = pos.play(rng.choice(pos.legal_plays(d1, d2)))
    return cases


def main() -> None:
    """Time legal-play generation on the sample and print positions per second."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cases = sample(args.count, args.seed)
    for label, subset in (("all rolls", cases), ("doubles", [c for c in cases if c[1] == c[2]]),
                          ("non-doubles", [c for c in cases if c[1] != c[2]])):
        start = time.perf_counter()
        plays = 0
        for pos, d1, d2 in subset:
            plays += len(pos.legal_plays(d1, d2))
        elapsed = time.perf_counter() - start
        print(f"{label:12s} {len(subset):6d} positions  {len(subset) / elapsed:9.0f} positions/s"
              f"  {plays / len(subset):6.1f} plays/position")


if __name__ == "__main__":
    main()
