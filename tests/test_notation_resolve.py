"""Notation and resolution: every legal play, written in any style, resolves to itself."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgtools.errors import NotationError
from bgtools.notation import parse_play
from bgtools.position import Position
from bgtools.replay import RULES
from bgtools.resolve import resolve_play
from strategies import dice, positions


def gnubg_mat_style(play_steps: tuple[tuple[int, int], ...], hits: tuple[bool, ...]) -> str:
    """One step per die, 25/0 for bar/off, '*' on hits (gnubg's .mat export)."""
    return " ".join(f"{s}/{d}{'*' if h else ''}" for (s, d), h in zip(play_steps, hits))


@settings(max_examples=400, deadline=None)
@given(positions, dice, st.sampled_from(["display", "mat", "mat-shuffled", "no-marks"]))
def test_every_legal_play_resolves_to_its_result(pos: Position, roll: tuple[int, int],
                                                 style: str) -> None:
    for result, play in pos.legal_results(*roll).items():
        if not play.steps:
            continue
        if style == "display":
            text = str(play)
        elif style == "no-marks":
            text = str(play).replace("*", "")
        else:
            steps = list(zip(play.steps, play.hits))
            if style == "mat-shuffled":
                random.Random(len(steps)).shuffle(steps)
            text = gnubg_mat_style(tuple(s for s, _ in steps), tuple(h for _, h in steps))
        resolution = resolve_play(pos, roll[0], roll[1], parse_play(text))
        assert resolution.rule is None, (pos.position_id, roll, text, resolution.message)
        if style != "no-marks":
            assert resolution.result == result, (pos.position_id, roll, text)


@pytest.mark.parametrize("text", ["13/x", "26/20", "13", "5/bar", "off/3", "8/4(5)", "13//7"])
def test_bad_notation_raises_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_play(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789/*() ,bBaArRoOfF?-\t", max_size=30))
def test_parser_never_raises_anything_but_notation_error(text: str) -> None:
    try:
        parse_play(text)
    except NotationError:
        pass


def test_readme_lists_every_rule() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for rule in RULES:
        assert f"| `{rule}` |" in readme, rule
