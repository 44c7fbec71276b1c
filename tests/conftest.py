"""Shared fixtures (the corpus location and GNU Backgammon as an oracle) and the hook that
keeps ``pytest -m "not slow"`` fast."""

from __future__ import annotations

import re
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import paths
from tests.helpers.paths import BUNDLED_CORPUS, CORPUS, EXAMPLES, REPO

_NOT_SLOW_RE = re.compile(r"\s*not\s+slow\s*")
_WHOLLY_SLOW_RE = re.compile(r"^pytestmark = pytest\.mark\.slow\b", re.MULTILINE)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to test compiled modules built in place from older sources: Python imports an
    extension module before its ``.py``, so a stale one would hide every edit made since
    (``python scripts/test_builds.py`` builds and removes them).

    mypyc's code lives in one shared library (``<hash>__mypyc`` at the top of the tree);
    the per-module files only load it, and a rebuild leaves those it would not change
    untouched, so a module counts as built when the newer of the two is."""
    shared = max((lib.stat().st_mtime for suffix in EXTENSION_SUFFIXES
                  for lib in REPO.glob(f"*__mypyc{suffix}")), default=0.0)
    for suffix in EXTENSION_SUFFIXES:
        for built in (REPO / "bgtools").rglob(f"*{suffix}"):
            source = built.with_name(built.name.removesuffix(suffix) + ".py")
            if source.is_file() and source.stat().st_mtime > max(built.stat().st_mtime,
                                                                   shared):
                pytest.exit(f"{built.relative_to(REPO)} is older than its source: remove the "
                            "compiled modules built in place (python scripts/test_builds.py "
                            "does) or build them again", returncode=4)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under ``-m "not slow"``, do not even import a module marked slow as a whole
    (``pytestmark = pytest.mark.slow``): building the parameters of some takes seconds."""
    if (collection_path.suffix == ".py" and collection_path.name.startswith("test_")
            and _NOT_SLOW_RE.fullmatch(config.getoption("markexpr") or "")
            and _WHOLLY_SLOW_RE.search(collection_path.read_text(encoding="utf-8"))):
        return True
    return None


SHARED_FIXTURES = frozenset({"corpus", "full_corpus", "examples"})
"""The fixtures whose files come from ``../shared`` when it is present."""
_SHARED_PATHS = (paths.SHARED, paths.CORPUS, paths.CORPUS_IN_USE, paths.SHARED_EXAMPLES,
                 paths.EXAMPLES)


def _holds_shared_path(namespace: dict[str, object]) -> bool:
    return any(value is shared for value in namespace.values() for shared in _SHARED_PATHS)


def _reads_shared(item: pytest.Item) -> bool:
    """Whether a test's inputs may come from ``../shared``: it asks for a corpus fixture, or its
    module holds one of the shared paths or an object of a helper module that holds one."""
    if SHARED_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    module = getattr(item, "module", None)
    if module is None:
        return False
    namespace = vars(module)
    if _holds_shared_path(namespace):
        return True
    import sys

    for value in namespace.values():
        home = sys.modules.get(getattr(value, "__module__", None) or "")
        if home is not None and home is not module and _holds_shared_path(vars(home)):
            return True
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``shared`` every test whose inputs may come from ``../shared``:
    ``scripts/test_builds.py`` runs those again without it, as a bare clone runs them."""
    del config
    for item in items:
        if _reads_shared(item):
            item.add_marker(pytest.mark.shared)


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
    """The shared corpus of real match files, or when it is absent its licensed part in
    ``tests/files/corpus`` (same layout); a test of a file not shipped there skips through
    :func:`corpus_file`."""
    return CORPUS if CORPUS.is_dir() else BUNDLED_CORPUS


@pytest.fixture(scope="session")
def full_corpus() -> Path:
    """The whole shared corpus (for tests of its totals); skip when it is absent."""
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    return CORPUS


@pytest.fixture(scope="session")
def examples() -> Path:
    """FORMATS.md's example records; skip when absent."""
    if not EXAMPLES.is_dir():
        pytest.skip("../shared/docs/examples is not present")
    return EXAMPLES
