"""Hypothesis strategies for random but legal backgammon positions."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from bgtools.engine.position import Position


def random_position(rng: random.Random, kind: str | None = None) -> Position:
    """A random legal position. ``kind`` biases it: contact, bar, bearoff, race, prime."""
    kind = kind or rng.choice(["contact", "bar", "bearoff", "race", "prime", "mixed"])
    mover = [0] * 26
    opp = [0] * 26

    def free_for_mover(q: int) -> bool:
        return q == 25 or opp[25 - q] == 0

    def free_for_opp(q: int) -> bool:
        return q == 25 or mover[25 - q] == 0

    def place(side: list[int], free: object, points: list[int], n: int) -> None:
        for _ in range(n):
            q = rng.choice(points)
            if free(q):  # type: ignore[operator]
                side[q] += 1

    if kind == "bearoff":
        place(mover, free_for_mover, list(range(1, 7)), rng.randint(1, 15))
        opp_points = list(range(1, 7)) + ([25] if rng.random() < 0.2 else [])
        place(opp, free_for_opp, opp_points, rng.randint(1, 15))
    elif kind == "race":
        place(mover, free_for_mover, list(range(1, 13)), rng.randint(3, 15))
        place(opp, free_for_opp, list(range(1, 13)), rng.randint(3, 15))
    elif kind == "prime":
        start = rng.randint(2, 19)
        for q in range(start, min(start + 6, 25)):
            opp_point = 25 - q
            if mover[q] == 0:
                opp[opp_point] = 2
        place(mover, free_for_mover, list(range(1, 26)), rng.randint(2, 15 - 0))
        place(opp, free_for_opp, list(range(1, 26)), rng.randint(0, 3))
    elif kind == "bar":
        mover[25] = rng.randint(1, 3)
        place(opp, free_for_opp, list(range(1, 8)), rng.randint(4, 12))
        place(mover, free_for_mover, list(range(1, 25)), rng.randint(2, 10))
        place(opp, free_for_opp, list(range(1, 26)), rng.randint(0, 3))
    else:
        place(mover, free_for_mover, list(range(1, 26)), rng.randint(1, 15))
        place(opp, free_for_opp, list(range(1, 26)), rng.randint(1, 15))
    for side in (mover, opp):
        while sum(side[1:]) > 15:
            q = max(i for i in range(1, 26) if side[i])
            side[q] -= 1
    return Position(tuple(mover), tuple(opp))


positions = st.builds(
    lambda seed, kind: random_position(random.Random(seed), kind),
    st.integers(0, 2**32 - 1),
    st.sampled_from(["contact", "bar", "bearoff", "race", "prime", "mixed"]),
)
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
