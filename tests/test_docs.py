"""The documentation: the Sphinx site (``docs/``: API reference from the docstrings and the
tutorial) builds with warnings as errors, and every example in it, in the docstrings and in
the README runs.

Sphinx is in the ``test`` extra; DuckDB and pyarrow too, and the page that needs them is
skipped without them.
"""

from __future__ import annotations

import doctest
import importlib
import re
import time
from pathlib import Path

import pytest

from tests.helpers.paths import REPO

DOCS = REPO / "docs"
PAGES = sorted(DOCS.glob("*.rst"))
NEEDS = {"duckdb.rst": ("duckdb", "pyarrow")}
"""The optional modules a page's examples import."""


def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    build = pytest.importorskip("sphinx.cmd.build", reason="pip install -e '.[test]'")
    started = time.perf_counter()
    warnings = tmp_path / "warnings.txt"
    code = build.build_main(["-W", "--keep-going", "-q", "-E", "-b", "html",
                             "-w", str(warnings), str(DOCS), str(tmp_path / "html")])
    assert code == 0, warnings.read_text(encoding="utf-8")
    assert time.perf_counter() - started < 60
    api = (tmp_path / "html" / "api.html").read_text(encoding="utf-8")
    for name in ("bgtools.api.reading.read", "Replay.final_score", "Moment.xgid",
                 "ReplayedAction.position_after", "Match.write", "Position.xgid"):
        assert name in api, name


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_example_of_the_pages_runs(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for module in NEEDS.get(page.name, ()):
        pytest.importorskip(module)
    text = page.read_text(encoding="utf-8")
    # An example is a doctest (">>>"): a code block would not run, so there is none.
    assert ".. code-block::" not in text and "::\n\n    " not in text.replace(">>>", "")
    monkeypatch.chdir(REPO)
    result = doctest.testfile(str(page), module_relative=False, report=True,
                              optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0 or page.name == "api.rst", page.name


@pytest.mark.parametrize("module", ["bgtools", "bgtools.api.reading", "bgtools.api.replaying",
                                    "bgtools.api.writing"])
def test_docstring_examples_run(module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0


def python_blocks(markdown: str) -> list[str]:
    """The fenced ```python blocks of a Markdown text, in order."""
    return re.findall(r"^```python\n(.*?)^```", markdown, flags=re.MULTILINE | re.DOTALL)


def test_every_python_block_of_the_readme_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = python_blocks((REPO / "README.md").read_text(encoding="utf-8"))
    assert len(blocks) >= 4
    monkeypatch.chdir(REPO)
    # The JSON section's block reads "any .mat or SGF match" named by ``path``.
    names: dict[str, object] = {"path": Path("samples/example_gnubg.mat")}
    for number, block in enumerate(blocks, start=1):
        exec(compile(block, f"README.md, python block {number}", "exec"), names)
