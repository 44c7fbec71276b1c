"""Replay rules checked on small edits of a real gnubg export (tests/files/selfplay)."""

from __future__ import annotations

import re
import subprocess
import sys

from bgtools.readers.mat import parse_mat
from bgtools.replay import replay_match
from tests.helpers.paths import FILES, REPO

SELFPLAY = FILES / "selfplay"


def _renumbered(numbers: list[int]) -> str:
    """m7_s8.mat (7 games) with its ``Game N`` headers renumbered to ``numbers``."""
    text = (SELFPLAY / "m7_s8.mat").read_text(encoding="utf-8")
    it = iter(numbers)
    out = re.sub(r"(?m)^ Game \d+$", lambda m: f" Game {next(it)}", text)
    assert out.count(" Game ") == len(numbers) == 7
    return out


def _rules(text: str) -> list[tuple[str, int | None]]:
    (record,) = parse_mat(text)
    return [(p.rule, p.game) for p in replay_match(record).problems]


def test_games_numbered_from_one_have_no_game_number_warning() -> None:
    assert _rules(_renumbered([1, 2, 3, 4, 5, 6, 7])) == []


def test_numbering_may_start_after_one() -> None:
    # An excerpt of a longer match: games 3..9 follow on from the first.
    assert _rules(_renumbered([3, 4, 5, 6, 7, 8, 9])) == []


def test_a_gap_in_numbering_from_a_later_start_is_one_warning() -> None:
    problems = _rules(_renumbered([3, 4, 5, 7, 8, 9, 10]))
    assert problems == [("game-number", 4), ("game-number", 5), ("game-number", 6),
                        ("game-number", 7)]
    (record,) = parse_mat(_renumbered([3, 4, 5, 7, 8, 9, 10]))
    first = replay_match(record).problems[0]
    assert "should be game 6" in first.message and "starts at game 3" in first.message


def test_numbering_from_one_with_a_gap() -> None:
    assert _rules(_renumbered([1, 2, 4, 4, 5, 6, 7])) == [("game-number", 3)]


def test_importing_the_cli_loads_neither_lark_nor_rich() -> None:
    # Start-up time: the notation and line grammars (Lark) and Rich load only when used.
    code = 'import sys, bgtools.cli; print("lark" in sys.modules, "rich" in sys.modules)'
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=REPO, env={"PYTHONPATH": str(REPO), "PATH": ""})
    assert done.stdout.split() == ["False", "False"]


def test_validating_a_gnubg_export_does_not_load_lark() -> None:
    # Every line and play of a gnubg export is on the fast paths, proven equal to the grammars.
    code = ("import sys; from pathlib import Path; from bgtools.reports.files import analyse_file; "
            f"r = analyse_file('m', Path({str(SELFPLAY / 'm7_s8.mat')!r})); "
            "print(r.valid, 'lark' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=REPO, env={"PYTHONPATH": str(REPO), "PATH": ""})
    assert done.stdout.split() == ["True", "False"]


def test_every_rule_is_checked_in_one_named_place() -> None:
    import importlib

    from bgtools.replay import game, match
    from bgtools.rules import RULES

    owners = {"Game": game.Game, "MatchReplayer": match.MatchReplayer}
    for rule, places in ((rule.id, rule.checked_by) for rule in RULES.values()):
        for place in places.split(", "):
            name = place.split(" ")[0]
            owner, _, attribute = name.rpartition(".")
            if owner in owners:
                assert callable(getattr(owners[owner], attribute)), (rule, place)
            elif name.startswith("bgtools.") and "(" not in name:
                module, _, function = name.rpartition(".")
                try:
                    target = importlib.import_module(name)
                except ImportError:
                    target = getattr(importlib.import_module(module), function)
                assert target is not None, (rule, place)
