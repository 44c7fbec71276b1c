"""The layout of the tests (issue 39): the test folders mirror the packages of bgtools
(``tests/engine`` tests ``bgtools/engine`` ...), beside the folders that test across them
(``oracle``, ``hostile``, ``project``); no test module lies flat in ``tests/``; and a test
module imports nothing from another test module: what two of them share is a helper, in
``tests/helpers``."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers.paths import FILES, REPO

TESTS = REPO / "tests"
ACROSS = frozenset({"oracle", "hostile", "project"})
"""The test folders that mirror no package: the tests against GNU Backgammon, the tests of
hostile input, the checks of the whole project."""
NOT_TESTS = frozenset({"helpers", FILES.name})
"""The folders of ``tests`` that hold no test: the shared helpers, the files the tests read."""


def folders_of_tests() -> list[Path]:
    """Every folder of ``tests`` that holds tests."""
    return sorted(path for path in TESTS.iterdir()
                  if path.is_dir() and path.name not in NOT_TESTS and path.name[0] not in "._")


def imports_from_tests(path: Path) -> list[str]:
    """What the Python file ``path`` imports from the package ``tests`` other than
    ``tests.helpers`` (a relative import counts by the module it names)."""
    package = path.relative_to(REPO).with_suffix("").parts[:-1]
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[:len(package) - node.level + 1], *filter(None, [base])])
            names = [f"{base}.{alias.name}" if base == "tests" else base for alias in node.names]
        else:
            continue
        found += [name for name in names if (name == "tests" or name.startswith("tests."))
                  and name != "tests.helpers" and not name.startswith("tests.helpers.")]
    return found


def test_no_test_module_lies_flat_in_tests() -> None:
    flat = sorted(path.name for path in TESTS.glob("*.py")
                  if path.name not in ("__init__.py", "conftest.py"))
    assert flat == [], "a test module goes in the folder of the package it tests"


def test_the_test_folders_mirror_the_packages() -> None:
    """A folder named as no package of bgtools (``bgtools/NAME/`` or ``bgtools/NAME.py``),
    and not one of the folders that test across them, is a misplaced folder."""
    package = REPO / "bgtools"
    stray = [folder.name for folder in folders_of_tests() if folder.name not in ACROSS
             and not (package / folder.name).is_dir()
             and not (package / f"{folder.name}.py").is_file()]
    assert stray == []


def test_every_test_folder_is_a_package() -> None:
    """``tests/NAME/__init__.py``: its modules import as ``tests.NAME.test_x``, so two
    folders may hold modules of the same name."""
    assert [folder.name for folder in folders_of_tests()
            if not (folder / "__init__.py").is_file()] == []


def test_tests_import_from_other_tests_only_through_helpers() -> None:
    """Nothing of a test module (its private names least of all) is imported elsewhere: what
    two modules share is a helper, in ``tests/helpers``. The helpers and conftest.py import
    no test module either."""
    offences = {str(path.relative_to(REPO)): names
                for path in sorted(TESTS.rglob("*.py"))
                if FILES not in path.parents and (names := imports_from_tests(path))}
    assert offences == {}
