"""The library is `mypy --strict` clean (the configuration is in pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.paths import REPO


def test_mypy_strict_is_clean() -> None:
    api = pytest.importorskip("mypy.api")
    stdout, stderr, status = api.run(["--config-file", str(REPO / "pyproject.toml"),
                                      str(REPO / "bgtools")])
    assert status == 0, stdout + stderr


def test_the_closed_vocabularies_are_literal_types(tmp_path: Path) -> None:
    """Issue 40: ``rules``, ``action``, ``result`` and ``ended_by`` are Literal types, so
    mypy refuses a rule profile that does not exist and knows the names an action has."""
    from typing import get_args

    from bgtools.api.replaying import RulesName
    from bgtools.replay import PROFILE_NAMES

    assert get_args(RulesName) == PROFILE_NAMES
    api = pytest.importorskip("mypy.api")
    code = ("import bgtools\n"
            "match = bgtools.read('samples/example_gnubg.mat')[0]\n"
            "replay = match.replay(rules='galaxy')\n"
            "game = replay.games[0]\n"
            "reveal_type(game.actions[0].action)\n"
            "reveal_type(game.result)\n"
            "reveal_type(game.ended_by)\n"
            "match.replay(rules='nonsense')\n")
    snippet = tmp_path / "snippet.py"
    snippet.write_text(code, encoding="utf-8")
    stdout, stderr, status = api.run(["--config-file", str(REPO / "pyproject.toml"),
                                      str(snippet)])
    assert status == 1, stdout + stderr
    errors = [line for line in stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and ":8: error:" in errors[0] and "'nonsense'" in errors[0], stdout
    assert "Literal['move'] | Literal['double'] |" in stdout
    assert "Literal['single'] | Literal['gammon'] | Literal['backgammon'] | None" in stdout
    assert "Literal['bearoff'] | Literal['drop'] | Literal['resign'] | None" in stdout
