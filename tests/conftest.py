"""Shared fixtures: the corpus location and GNU Backgammon as an oracle."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers.paths import CORPUS, EXAMPLES


@pytest.fixture(scope="session")
def gnubg() -> ModuleType:
    """The `gnubg` module (GNU Backgammon), configured for tests; skip when missing."""
    try:
        import gnubg as module
    except Exception:  # noqa: BLE001  # pragma: no cover - a broken build fails in any way
        pytest.skip("the gnubg module is not installed")
    module.command("set threads 1")
    return module


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The shared corpus of real match files; skip when it is absent."""
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    return CORPUS


@pytest.fixture(scope="session")
def examples() -> Path:
    """FORMATS.md's example records; skip when absent."""
    if not EXAMPLES.is_dir():
        pytest.skip("../shared/docs/examples is not present")
    return EXAMPLES
