"""Where the tests find their inputs: the repository, the shared corpus and the test files."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
"""The repository root (the directory of pyproject.toml)."""
FILES = REPO / "tests" / "files"
"""The committed test files (self-play and set-up fixtures, site files, .xg/.bgf files); not
``tests/data``, which holds the tests of ``bgtools/data`` as ``tests/engine`` those of
``bgtools/engine``."""
SHARED = Path(os.environ.get("BGTOOLS_TEST_SHARED") or REPO.parent / "shared")
"""The shared folder of real files and format docs: ``../shared`` beside the repository, or
the folder ``BGTOOLS_TEST_SHARED`` names (``scripts/test_builds.py`` names one that does not
exist to test as a bare clone does). Absent on a bare clone: the tests then use the files
shipped in ``tests/files`` or skip."""
CORPUS = SHARED / "corpus"
"""The shared corpus of real match files (absent on some machines: tests then skip)."""
BUNDLED_CORPUS = FILES / "corpus"
"""A small licensed part of the corpus shipped with the tests, in the same layout (one
directory per producer or dialect; sources in ``tests/files/SOURCES.md``): what the
corpus tests read when ``../shared/corpus`` is absent."""
CORPUS_IN_USE = CORPUS if CORPUS.is_dir() else BUNDLED_CORPUS
"""The corpus the corpus tests read: the shared one, else the part shipped in tests/files."""
SHARED_EXAMPLES = SHARED / "docs" / "examples"
"""FORMATS.md's example records, beside the shared docs."""
EXAMPLES = SHARED_EXAMPLES if SHARED_EXAMPLES.is_dir() else FILES / "examples"
"""FORMATS.md's example records: the shared copy, else the copy in ``tests/files/examples``."""


def corpus_file(corpus: Path, relative: str) -> Path:
    """``corpus / relative``, skipping the test when that file is absent: a corpus file
    whose licence keeps it out of ``tests/files/corpus`` is tested with the shared corpus."""
    import pytest

    path = corpus / relative
    if not path.exists():
        pytest.skip(f"{relative} is only in the shared corpus (not shipped in tests/files)")
    return path


def at_least(corpus: Path, shared: int, shipped: int) -> int:
    """A size a corpus test expects: ``shared`` for the shared corpus, ``shipped`` for the
    part shipped in ``tests/files/corpus`` (a bare clone)."""
    return shared if corpus == CORPUS else shipped


SAMPLE_XG = FILES / "xg" / "B4_SrGcsKAQmoTyHlgJCbM.xg"
"""A real eXtreme Gammon money session (its source in ``tests/files/SOURCES.md``): the tests
of the binary readers edit its records."""
SAMPLE_BGF = FILES / "xg" / "B4_SrGcsKAQmoTyHlgJCbM.bgf"
"""The same match as :data:`SAMPLE_XG`, as BGBlitz writes it."""
SAMPLES = REPO / "samples"
"""The sample match files shipped with the repository."""

GALAXY_SAMPLE = REPO / "samples" / "galaxy_match1486073.txt"
"""A real Backgammon Galaxy match (lasse against jonnyb1169, 3 points) shipped as a sample."""


def nameless_copy(target: Path, first_name: str = "lasse") -> Path:
    """:data:`GALAXY_SAMPLE` with its second player's name empty, as Galaxy writes a player
    it has no name for (``[Player 2 ""]``, nothing before the score line's second ``:``),
    and its first player named ``first_name``; written to ``target``."""
    text = GALAXY_SAMPLE.read_text("utf-8")
    header = '; [Player 2 "jonnyb1169"]'
    assert header in text and "jonnyb1169 :" in text
    text = text.replace(header, '; [Player 2 ""]').replace("jonnyb1169 :", " " * 11 + ":")
    target.write_text(text.replace("lasse", first_name), "utf-8")
    return target


def buildable_copy(parent: Path) -> Path:
    """The files that build bgtools (``setup.py``, ``pyproject.toml``, the package, the
    grammars ...) copied to ``parent / "tree"``, with no compiled module or cache: a build
    there never writes into the repository."""
    import shutil
    from importlib.machinery import EXTENSION_SUFFIXES

    tree = parent / "tree"
    ignored = shutil.ignore_patterns("__pycache__", *(f"*{s}" for s in EXTENSION_SUFFIXES))
    for folder in ("bgtools", "grammars"):
        shutil.copytree(REPO / folder, tree / folder, ignore=ignored)
    for name in ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE"):
        shutil.copy(REPO / name, tree / name)
    return tree
