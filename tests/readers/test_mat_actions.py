"""The .mat reader makes its commonest action, a roll with a play, by a positional call of
the dataclass (the quickest): it must equal the action written with keywords, every other
field at its default."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from bgtools.readers import mat
from bgtools.record import Action
from tests.helpers.paths import CORPUS, FILES, REPO


def _mat_files() -> list[Path]:
    files = sorted((REPO / "samples").glob("*.mat"))
    files += sorted(FILES.rglob("*.mat"))
    if CORPUS.is_dir():
        files += sorted(CORPUS.rglob("*.mat")) + sorted(CORPUS.rglob("*.txt"))
    return files


def test_roll_cells_equal_the_keyword_form() -> None:
    """Every roll with a play of the sample, data and corpus files equals the action made
    with keywords (so the positional call puts each value in its field), every other
    field at its default."""
    defaults = {f.name for f in fields(Action)} - {
        "kind", "player", "line", "column", "dice", "play_text", "play_column", "extra"}
    seen = 0
    for path in _mat_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for record in mat.parse_mat(text):
            for game in record.games:
                for action in game.actions:
                    if action.kind != "roll" or not action.play_text:
                        continue
                    assert all(getattr(action, name) == getattr(Action("roll", 0), name)
                               for name in defaults), action
                    assert action == Action(
                        kind="roll", player=action.player, line=action.line,
                        column=action.column, dice=action.dice, play_text=action.play_text,
                        play_column=action.play_column, extra=dict(action.extra))
                    assert set(action.extra) <= {"row"}
                    seen += 1
    if seen == 0:
        pytest.skip("no .mat file with plays found")
