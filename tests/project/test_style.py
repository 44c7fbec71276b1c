"""The code is ruff clean under the project's configuration (``[tool.ruff]`` in pyproject.toml),
so that CI, which runs the README's ``pytest``, also lints."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers.paths import REPO


def test_ruff_is_clean() -> None:
    pytest.importorskip("ruff")
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "bgtools", "tests", "scripts",
         "benchmarks"],
        cwd=REPO, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
