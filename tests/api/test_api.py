"""The typed play API (``bgtools.parse_play`` / ``bgtools.play_text``) and start-up imports.

Like python-chess's ``parse_san``: a written play either resolves to the legal play it
means, or raises a NotationError (the grammar rejects the text) or an IllegalPlayError
(well-formed, but the rules forbid it; ``rule`` is one of the replayer's rule ids).
GNU Backgammon is the oracle for what is legal and for how a play is written.
"""

from __future__ import annotations

import doctest
import os
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bgtools
import bgtools.batch.reading
import bgtools.engine.plays
from bgtools import (
    IllegalPlayError,
    NotationError,
    Play,
    Position,
    parse_play,
    play_text,
)
from bgtools.rules import RULES
from tests.helpers.paths import REPO
from tests.helpers.strategies import dice, positions, random_position

KINDS = ["contact", "bar", "bearoff", "race", "prime", "mixed"]


def _gnubg_text(gnubg: ModuleType, an_move: tuple[int, ...], board: list[list[int]]) -> str:
    """gnubg's own notation of one of its plays (its raw 0-based steps made 1-based)."""
    flat: list[int] = []
    for i in range(0, 8, 2):
        if an_move[i] < 0:
            break
        flat += [an_move[i] + 1, an_move[i + 1] + 1]
    return str(gnubg.movetupletostring(tuple(flat), board))


def _game_positions(rng: random.Random, count: int) -> list[Position]:
    out: list[Position] = []
    while len(out) < count:
        pos = Position.initial()
        while not pos.is_game_over and len(out) < count:
            out.append(pos)
            pos = pos.play(rng.choice(pos.legal_plays(rng.randint(1, 6), rng.randint(1, 6))))
    return out


@pytest.mark.slow
def test_every_gnubg_play_written_by_gnubg_parses_to_gnubg_result(gnubg: ModuleType) -> None:
    from tests.helpers import gnubg_oracle

    if not gnubg_oracle.available():
        pytest.skip("gnubg's move generator is not reachable in this build")
    rng = random.Random(2026_11_29_2)
    cases = [random_position(rng, KINDS[i % len(KINDS)]) for i in range(600)]
    cases += _game_positions(rng, 600)
    checked = passes = 0
    for pos in cases:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        board = [list(side) for side in pos.to_gnubg()]
        moves = gnubg_oracle.legal_moves(board, d1, d2)
        if not moves:
            assert parse_play(pos, d1, d2, "") == Play()
            assert play_text(pos, d1, d2, "") == pos.swapped()
            passes += 1
            continue
        for an_move, (mover, opponent) in moves:
            text = _gnubg_text(gnubg, an_move, board)
            play = parse_play(pos, d1, d2, text)
            result, _ = pos.apply_steps(play.steps)
            assert (result.mover[1:], result.opponent[1:]) == (mover, opponent), (
                pos.position_id, d1, d2, text)
            checked += 1
    assert checked > 5000 and passes > 20, (checked, passes)


@pytest.mark.slow
def test_whatever_parses_is_legal_for_gnubg(gnubg: ModuleType) -> None:
    """Random one-die-per-step texts: success means gnubg lists the result as legal; every
    failure is typed, with a rule id the replayer knows."""
    from tests.helpers import gnubg_oracle

    if not gnubg_oracle.available():
        pytest.skip("gnubg's move generator is not reachable in this build")
    rng = random.Random(7)
    accepted = rejected = 0
    for i in range(3000):
        pos = random_position(rng, KINDS[i % len(KINDS)])
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        dice_left = [d1] * 4 if d1 == d2 else [d1, d2]
        sources = [p for p in range(1, 26) if pos.mover[p]]
        if not sources:
            continue
        parts = []
        for die in dice_left[: rng.randint(1, len(dice_left))]:
            src = rng.choice(sources)
            parts.append(f"{src}/{max(src - die, 0)}")
        text = " ".join(parts)
        try:
            result, _ = pos.apply_steps(parse_play(pos, d1, d2, text).steps)
        except IllegalPlayError as exc:
            assert exc.rule in RULES, exc.rule
            rejected += 1
            continue
        legal = gnubg_oracle.legal_results([list(s) for s in pos.to_gnubg()], d1, d2)
        assert (result.mover[1:], result.opponent[1:]) in legal, (pos.position_id, d1, d2, text)
        accepted += 1
    assert accepted > 300 and rejected > 300, (accepted, rejected)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(positions, dice)
def test_every_legal_play_text_parses_back(pos: Position, roll: tuple[int, int]) -> None:
    for result, play in pos.legal_results(*roll).items():
        text = str(play)
        parsed = parse_play(pos, roll[0], roll[1], text)
        assert pos.apply_steps(parsed.steps)[0] == result, (pos.position_id, roll, text)
        assert play_text(pos, roll[0], roll[1], text) == pos.play(play)


def _mutations(text: str, rng: random.Random) -> list[str]:
    """Small edits of a play's text: what a typo or a wrong transcription gives."""
    out = []
    words = text.split()
    if words:
        out.append(" ".join(words[:-1]))  # a step forgotten
        out.append(text + " " + words[0])  # a step twice
        out.append(" ".join(reversed(words[0].split("/"))))  # written backwards
    for _ in range(4):
        i = rng.randrange(len(text) + 1)
        out.append(text[:i] + rng.choice("0123456789/*() bo-x") + text[i:])
        if text:
            j = rng.randrange(len(text))
            out.append(text[:j] + text[j + 1:])
    return out


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(positions, dice, st.integers(0, 2**32))
def test_mutated_texts_parse_legally_or_raise_a_typed_error(
    pos: Position, roll: tuple[int, int], seed: int,
) -> None:
    rng = random.Random(seed)
    legal = pos.legal_results(*roll)
    for play in list(legal.values())[:3]:
        for text in _mutations(str(play), rng):
            try:
                parsed = parse_play(pos, roll[0], roll[1], text)
            except NotationError as exc:
                assert exc.column is not None and 1 <= exc.column <= len(text) + 1, (text, exc)
                continue
            except IllegalPlayError as exc:
                assert exc.rule in RULES and str(exc), (text, exc.rule)
                continue
            assert pos.apply_steps(parsed.steps)[0] in legal, (pos.position_id, roll, text)


# --- each kind of failure, with its rule id ----------------------------------------------

START = Position.initial()


@pytest.mark.parametrize("text,column", [
    ("24/x", 4), ("13/7 8/7**x", 10), ("26/20", 1), ("  24/", 6), ("8/4(5)", 1), ("???", 1),
])
def test_notation_errors_point_at_the_column(text: str, column: int) -> None:
    with pytest.raises(NotationError) as info:
        parse_play(START, 6, 4, text)
    assert info.value.column == column
    assert info.value.context == text


@pytest.mark.parametrize("pos,roll,text,rule", [
    (START, (6, 5), "24/18 6/1", "blocked-point"),
    (START, (6, 5), "24/12", "dice-mismatch"),
    (START, (6, 5), "24/18 13/8 8/3", "dice-mismatch"),
    (START, (6, 5), "24/18", "max-dice"),
    (START, (6, 5), "", "empty-play"),
    (START, (6, 5), "Cannot Move", "max-dice"),
    (START, (6, 5), "6/off 6/1", "bearoff-not-home"),
    (START, (6, 5), "23/17 23/18", "no-checker"),
    (START, (6, 5), "Illegal play 24/13", "illegal-play-line"),
    (Position.from_points({25: 1, 13: 2}, {6: 2}), (4, 3), "13/9 13/10", "must-enter-bar"),
    (Position.from_points({5: 1, 2: 1}, {1: 1}), (6, 1), "2/off 5/4", "bearoff-higher-die"),
])
def test_illegal_plays_name_their_rule(pos: Position, roll: tuple[int, int], text: str,
                                       rule: str) -> None:
    with pytest.raises(IllegalPlayError) as info:
        parse_play(pos, roll[0], roll[1], text)
    assert info.value.rule == rule
    assert f"{roll[0]}{roll[1]}" in str(info.value)


def test_smaller_die_when_the_larger_plays_is_higher_die() -> None:
    """Found, not chosen: positions where only one die can be played and the larger one is
    legal; writing a legal step of the smaller die must be refused as ``higher-die``."""
    rng = random.Random(3)
    found = 0
    for i in range(20_000):
        pos = random_position(rng, KINDS[i % len(KINDS)])
        d1, d2 = rng.sample(range(1, 7), 2)
        plays = pos.legal_plays(d1, d2)
        if len(plays[0].steps) != 1:
            continue
        low = min(d1, d2)
        legal = pos.legal_results(d1, d2)
        smaller = [(s, d) for s in range(1, 26) for d in (max(s - low, 0),)
                   if pos.step_error(s, d, low) is None
                   and pos.apply_steps([(s, d)])[0] not in legal]
        if not smaller:
            continue
        src, dst = smaller[0]
        with pytest.raises(IllegalPlayError) as info:
            parse_play(pos, d1, d2, f"{src}/{dst}")
        assert info.value.rule == "higher-die"
        found += 1
        if found == 20:
            break
    assert found == 20


def test_merged_and_ambiguous_plays_resolve_as_the_replayer_does() -> None:
    # The mover's 18 is the opponent's 7 (a blot); his 19, the opponent's 6, is open.
    blot_on_18 = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {7: 1, 13: 5, 8: 3, 5: 5})
    hit = parse_play(blot_on_18, 6, 5, "24/18*/13")
    assert hit.steps == ((24, 18), (18, 13)) and hit.hits == (True, False)
    no_hit = parse_play(blot_on_18, 6, 5, "24/13")  # the way that hits nothing is meant
    assert no_hit.steps == ((24, 19), (19, 13)) and not any(no_hit.hits)
    assert parse_play(START, 6, 6, "24/18(2) 13/7(2)").steps == (
        (24, 18), (24, 18), (13, 7), (13, 7))
    assert play_text(START, 6, 6, "13/7 24/18 13/7 24/18") == play_text(
        START, 6, 6, "24/18(2) 13/7(2)")


def test_bad_dice_are_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"dice must be 1\.\.6"):
        parse_play(START, 0, 7, "24/18")


def test_play_text_returns_the_position_for_the_next_player() -> None:
    after = play_text(START, 3, 1, "8/5 6/5")
    assert after == START.play(START.legal_results(3, 1)[START.apply_steps([(8, 5), (6, 5)])[0]])
    assert after.opponent[5] == 2


def test_docstring_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # bgtools' own example reads samples/
    for module in (bgtools, bgtools.engine.plays, bgtools.batch.reading):
        failures, tried = doctest.testmod(module)
        assert tried and not failures, module.__name__


# --- start-up: the CLI's first import leaves the heavy libraries alone --------------------

def _modules_loaded_by(code: str, names: tuple[str, ...]) -> list[str]:
    """Which of ``names`` a fresh interpreter has imported after running ``code``."""
    probe = (f"import sys\n{code}\n"
             f"sys.stderr.write('LOADED:' + ' '.join(m for m in {names!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=REPO, env={"PYTHONPATH": os.pathsep.join(sys.path)}, check=False)
    marker = [line for line in out.stderr.splitlines() if line.startswith("LOADED:")]
    assert marker, out.stderr
    return marker[-1].removeprefix("LOADED:").split()


def test_importing_the_cli_loads_no_heavy_library() -> None:
    loaded = _modules_loaded_by("import bgtools.cli",
                                ("lark", "rich", "pydantic", "bgtools.engine.position"))
    assert loaded == []


def test_validate_json_loads_neither_rich_nor_pydantic(examples: Path) -> None:
    """``validate --json`` prints JSON: no Rich; and Typer must not build pydantic
    validators for its options (typer 0.29 does on every run: pyproject keeps it out)."""
    code = ("from bgtools.cli import app\nfrom bgtools.cli.errors import run_app\n"
            "try:\n"
            f"    run_app(app, ['validate', '--json', {str(examples / 'example.mat')!r}])\n"
            "except SystemExit:\n    pass")
    assert _modules_loaded_by(code, ("rich", "pydantic")) == []


def test_the_library_pages_play_example_runs() -> None:
    readme = (REPO / "docs" / "library.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in readme.split("```python\n")[1:]]
    example = next(b for b in blocks if "parse_play" in b)
    names: dict[str, object] = {}
    exec(compile(example, "docs/library.md", "exec"), names)
    assert names["play"] == parse_play(START, 6, 5, "24/13")
    assert names["after"] == play_text(START, 6, 5, "24/13")
