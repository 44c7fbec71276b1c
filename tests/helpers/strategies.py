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


# --- written notation: plays and .mat lines built from the grammars' pieces -----------------

_point_words = st.sampled_from(["13", "7", "0", "25", "24", "6", "1", "26", "99", "007", "bar",
                                "Bar", "BAR", "b", "B", "off", "Off", "OFF", "o", "O"])
_written_point = st.tuples(_point_words, st.sampled_from(["", "", "*"])).map("".join)
written_paths = st.tuples(
    st.lists(_written_point, min_size=2, max_size=4).map("/".join),
    st.sampled_from(["", "", "", "(2)", "(3)", "(4)", "(0)", "(5)", " (2)"]),
).map("".join)
"""One path of a written play, as writers write it and a little beyond (a bad point, a
repetition out of range, a blank before it)."""
written_plays = st.tuples(
    st.lists(st.tuples(written_paths, st.sampled_from([" ", " ", "  ", ", ", ",", "\t", ""])),
             max_size=5).map(lambda items: "".join(path + sep for path, sep in items)),
    st.sampled_from(["", "", " ", "x", "*", "/", "(2)"]),
).map("".join)
"""A written play: paths separated by blanks or commas (or by nothing), with an odd tail."""

mat_cells = st.one_of(
    st.tuples(st.sampled_from(["63:", "11:", "52:", "07:", "00:", "6:", "123:"]),
              st.sampled_from(["", " ", "  "]),
              st.one_of(written_plays,
                        st.sampled_from(["", "Cannot Move", "cannot  move", "???", "????",
                                         "Resigns", "Concedes", "Illegal play (25;0;1;)",
                                         "Illegal  play(x)", "13", "13 8/5"]))).map("".join),
    st.tuples(st.sampled_from(["Doubles", "doubles", "Double", "Beavers", "Raccoons"]),
              st.sampled_from(["", " => 2", "=>4", " =>", " => x", " => 1234567890"])
              ).map("".join),
    st.sampled_from(["Takes", "Take", "Drops", "Drop", "Resigns", "Concedes", "???", "????",
                     "?????", "Wins 1 point", "Wins 2 points and the match", "wins 4 point",
                     "Losses 3 point", "Loss 1 points and  the match", "Wins 2", "Wins point",
                     "Winsome", "Drops,"]),
)
"""One cell of a .mat action line, or something close to one."""
mat_lines = st.one_of(
    st.tuples(st.sampled_from(["", " ", "  ", "\t"]),
              st.sampled_from(["", "  1) ", " 12)  ", "1)", "0001) ", "9999999999) "]),
              st.lists(st.tuples(mat_cells, st.sampled_from([" ", "  ", "           ", "\t", ""])),
                       max_size=3).map(lambda cells: "".join(cell + sep for cell, sep in cells))
              ).map("".join),
    st.sampled_from(["; [Site \"x\"]", "# note", " 7 point match", "7 Point Match  ", "7 point",
                     " Game 12", "game 1 x", "Game", "  ;", "1234567890 point match"]),
)
"""A line of a .mat file: mostly action lines (row number, cells), and the other kinds."""
