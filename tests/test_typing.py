"""The library is `mypy --strict` clean (the configuration is in pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

import pytest


def test_mypy_strict_is_clean() -> None:
    api = pytest.importorskip("mypy.api")
    root = Path(__file__).resolve().parents[1]
    stdout, stderr, status = api.run(["--config-file", str(root / "pyproject.toml"),
                                      str(root / "bgtools")])
    assert status == 0, stdout + stderr
