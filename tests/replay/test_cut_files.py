"""A file cut in the middle of a game: still valid (nothing in it is wrong), with
``match-incomplete`` and ``last-game-unfinished`` naming the game and its last row.

On gnubg's own export (tests/files/selfplay/m5_s1.mat, a 5-point match in 3 games) cut after
a row of game 3, and on the real FIBS log of the corpus that ends so.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.readers.detect import load_file
from bgtools.readers.mat import parse_mat
from bgtools.replay import MatchReplay, replay_match
from bgtools.rules import RULES
from tests.helpers.paths import FILES, corpus_file

SELFPLAY = FILES / "selfplay"
SOURCE = (SELFPLAY / "m5_s1.mat").read_text(encoding="utf-8")


def _replay(text: str) -> MatchReplay:
    (record,) = parse_mat(text)
    return replay_match(record)


def _cut_after(row: str) -> tuple[str, int]:
    """The source cut after its line ``row`` (which must be unique), and that line's number."""
    assert SOURCE.count(row) == 1
    end = SOURCE.index(row) + len(row)
    text = SOURCE[:end] + "\n"
    return text, text.count("\n")


def test_a_file_cut_in_a_game_names_the_game_and_its_last_row() -> None:
    text, line = _cut_after("  5) 52: 6/4 13/8                22: 24/22 13/11 13/11 6/4")
    replay = _replay(text)
    assert replay.valid and not replay.complete
    assert [(p.rule, p.severity.value) for p in replay.problems] == [
        ("match-incomplete", "warning"), ("last-game-unfinished", "warning")]
    cut = replay.problems[-1]
    assert (cut.line, cut.game) == (line, 3)
    assert "game 3" in cut.message and f"line {line}" in cut.message


def test_a_file_cut_between_games_or_whole_has_no_unfinished_game() -> None:
    assert [p.rule for p in _replay(SOURCE).problems] == []
    between = SOURCE[:SOURCE.index(" Game 3")]
    assert [p.rule for p in _replay(between).problems] == ["match-incomplete"]


def test_a_game_cut_before_it_starts_is_named_too() -> None:
    text = SOURCE[:SOURCE.index("  1)                             63: 24/18 18/15")]
    replay = _replay(text)
    assert sorted(p.rule for p in replay.problems) == ["last-game-unfinished",
                                                       "match-incomplete"]
    (cut,) = [p for p in replay.problems if p.rule == "last-game-unfinished"]
    assert cut.line == SOURCE.count("\n", 0, SOURCE.index(" Game 3")) + 1
    assert "game 3" in cut.message and "before its first move" in cut.message


def test_a_game_unfinished_before_another_is_still_an_error() -> None:
    game_3 = SOURCE.index(" Game 3")
    cut = SOURCE[:SOURCE.index("  1)", SOURCE.index(" Game 2"))]
    text = cut + SOURCE[game_3:]
    assert "error" in {p.severity.value for p in _replay(text).problems
                       if p.rule == "game-unfinished"}


def test_the_rule_is_registered_as_a_warning() -> None:
    assert RULES["last-game-unfinished"].severity == "warning"
    assert RULES["last-game-unfinished"].checked_by == "Game.play"
    result = CliRunner().invoke(app, ["rules"])
    assert result.exit_code == 0
    assert "last-game-unfinished" in result.output


def test_a_real_log_that_ends_in_a_game(corpus: Path) -> None:
    path = corpus_file(corpus, "fibs/HooShanG-nori-2009Jan291842.txt")
    (record,) = load_file(path).records
    replay = replay_match(record)
    last_row = len(path.read_text(encoding="utf-8").rstrip("\n").splitlines())
    assert replay.valid
    assert [(p.rule, p.line) for p in replay.problems if p.rule.endswith("unfinished")] == [
        ("last-game-unfinished", last_row)]


@pytest.mark.parametrize("flag", ["--json", ""])
def test_validate_reports_it(flag: str, tmp_path: Path) -> None:
    text, _ = _cut_after("  5) 52: 6/4 13/8                22: 24/22 13/11 13/11 6/4")
    path = tmp_path / "cut.mat"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path), *([flag] if flag else [])])
    assert result.exit_code == 0 and "last-game-unfinished" in result.output
