"""Notation and resolution: every legal play, written in any style, resolves to itself."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgtools.engine.notation import parse_play
from bgtools.engine.position import Position
from bgtools.engine.resolve import resolve_play
from bgtools.errors import NotationError
from tests.helpers.strategies import dice, positions


def gnubg_mat_style(play_steps: tuple[tuple[int, int], ...], hits: tuple[bool, ...]) -> str:
    """One step per die, 25/0 for bar/off, '*' on hits (gnubg's .mat export)."""
    return " ".join(f"{s}/{d}{'*' if h else ''}" for (s, d), h in zip(play_steps, hits))


@pytest.mark.slow
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
    with contextlib.suppress(NotationError):
        parse_play(text)


# --- the quick path of resolve_play reads a play as the general path does ------------------


def _general(pos: Position, roll: tuple[int, int], text: str,
             monkeypatch: pytest.MonkeyPatch) -> object:
    from bgtools.engine import resolve

    with monkeypatch.context() as patch:
        patch.setattr(resolve, "_every_die_as_written", lambda *args: None)
        patch.setattr(resolve, "_one_checker_both_dice", lambda *args: None)
        patch.setattr(resolve, "_two_checkers_either_die", lambda *args: None)
        return resolve.resolve_play(pos, roll[0], roll[1], parse_play(text))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(positions, dice, st.randoms(use_true_random=False),
       st.lists(st.tuples(st.integers(1, 25), st.integers(0, 6)), min_size=2, max_size=4))
def test_quick_resolution_equals_the_general_path(pos: Position, roll: tuple[int, int],
                                                  rng: random.Random,
                                                  noise: list[tuple[int, int]]) -> None:
    monkeypatch = pytest.MonkeyPatch()
    texts = []
    for play in pos.legal_plays(*roll):
        steps = list(zip(play.steps, play.hits))
        rng.shuffle(steps)
        texts.append(gnubg_mat_style(tuple(s for s, _ in steps), tuple(h for _, h in steps)))
        texts.append(str(play))  # merged paths: 24/13, 8/2*/1
    texts += [f"{src}/{max(src - roll[0] - roll[1], 0)}" for src, _ in noise]
    texts += [f"{1 + src % 6}/off {1 + die % 6}/0" for src, die in noise]
    # Plays that are not legal, and steps of the right dice from anywhere.
    texts.append(" ".join(f"{src}/{max(src - die, 0)}" for src, die in noise))
    texts.append(" ".join(f"{src}/{max(src - roll[k % 2], 0)}" for k, (src, _) in enumerate(noise)))
    for text in texts:
        try:
            written = parse_play(text)
        except NotationError:
            continue  # noise such as 25/25
        quick = resolve_play(pos, roll[0], roll[1], written)
        assert quick == _general(pos, roll, text, monkeypatch), (pos.position_id, roll, text)


# --- the replayer's shortcut past resolve_play words a play as resolve_play does ----------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(positions, dice, st.randoms(use_true_random=False),
       st.lists(st.tuples(st.integers(1, 25), st.integers(0, 6)), min_size=2, max_size=4))
def test_replayer_shortcut_equals_resolve_play(pos: Position, roll: tuple[int, int],
                                               rng: random.Random,
                                               noise: list[tuple[int, int]]) -> None:
    from bgtools.engine import resolve

    texts = []
    marks = random.Random(rng.getrandbits(32))  # draws little from Hypothesis's data
    for play in pos.legal_plays(*roll):
        steps = list(zip(play.steps, play.hits))
        marks.shuffle(steps)
        texts.append(gnubg_mat_style(tuple(s for s, _ in steps), tuple(h for _, h in steps)))
        # Hit marks anywhere: right, missing or where nothing is hit.
        texts.append(gnubg_mat_style(tuple(s for s, _ in steps),
                                     tuple(marks.random() < 0.5 for _ in steps)))
        texts.append(str(play))
    texts.append(" ".join(f"{src}/{max(src - die, 0)}" for src, die in noise))
    texts.append(" ".join(f"{src}/{max(src - roll[k % 2], 0)}*"
                          for k, (src, _) in enumerate(noise)))
    texts += [f"{1 + src % 6}/off {1 + die % 6}/0" for src, die in noise]  # bear-offs
    for text in texts:
        try:
            written = parse_play(text)
        except NotationError:
            continue
        quick = resolve._resolved(pos, roll[0], roll[1], written)
        with pytest.MonkeyPatch.context() as patch:
            for quick_path in ("every_die_as_written", "two_checkers_either_die",
                               "_every_die_as_written", "_one_checker_both_dice",
                               "_two_checkers_either_die"):
                patch.setattr(resolve, quick_path, lambda *args: None)
            general = resolve._resolved(pos, roll[0], roll[1], written)
        assert quick == general, (pos.position_id, roll, text)
