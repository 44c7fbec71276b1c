"""Where the tests find their inputs: the repository, the shared corpus and the test data."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
"""The repository root (the directory of pyproject.toml)."""
CORPUS = REPO.parent / "shared" / "corpus"
"""The shared corpus of real match files (absent on some machines: tests then skip)."""
EXAMPLES = REPO.parent / "shared" / "docs" / "examples"
"""FORMATS.md's example records (absent on some machines: tests then skip)."""
DATA = REPO / "tests" / "data"
"""The committed test data (self-play and set-up fixtures, site files, .xg/.bgf files)."""
