"""The two builds of bgtools (``setup.py``): the hot path compiled by mypyc, or pure Python.

``scripts/test_builds.py`` runs the suite on each and sets ``BGTOOLS_EXPECT_BUILD``, so a run
meant for the compiled build fails here if the pure modules ran instead (and the reverse).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from importlib import import_module
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from bgtools.build import is_compiled
from tests.helpers.paths import REPO, buildable_copy


def compiled_sources() -> list[str]:
    """``setup.py``'s list of the modules it compiles, read without running it."""
    tree = ast.parse((REPO / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets):
            value = ast.literal_eval(node.value)
            assert isinstance(value, list)
            return [str(item) for item in value]
    raise AssertionError("setup.py has no COMPILED list")


def module_is_extension(name: str) -> bool:
    origin = getattr(import_module(name), "__file__", None) or ""
    return any(origin.endswith(suffix) for suffix in EXTENSION_SUFFIXES)


def test_the_expected_build_runs() -> None:
    expected = os.environ.get("BGTOOLS_EXPECT_BUILD")
    if expected is None:
        pytest.skip("BGTOOLS_EXPECT_BUILD is not set (scripts/test_builds.py sets it)")
    assert expected in ("compiled", "pure")
    assert is_compiled() == (expected == "compiled")


def test_every_listed_module_comes_from_the_same_build() -> None:
    names = [source.removesuffix(".py").replace("/", ".") for source in compiled_sources()]
    assert "bgtools.replay.game" in names  # bgtools.build's probe must be compiled
    kinds = {name: module_is_extension(name) for name in names}
    assert set(kinds.values()) == {is_compiled()}, kinds


def test_the_documented_api_stays_pure_python() -> None:
    # Compiled functions and classes lose their docstrings and signatures.
    compiled = compiled_sources()
    for name in ("bgtools.engine.position", "bgtools.engine.ids", "bgtools.engine.plays",
                 "bgtools.record.model", "bgtools.api.reading", "bgtools.api.replaying"):
        assert name.replace(".", "/") + ".py" not in compiled, name
        assert not module_is_extension(name), name


def _build_in_place(tree: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tree,
                          env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=600, check=False, stdin=subprocess.DEVNULL)


def _extensions(tree: Path) -> list[Path]:
    return [p for suffix in EXTENSION_SUFFIXES for p in tree.rglob(f"*{suffix}")]


def test_bgtools_pure_builds_no_extension_and_says_so(tmp_path: Path) -> None:
    tree = buildable_copy(tmp_path)
    done = _build_in_place(tree, BGTOOLS_PURE="1")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "installing the pure-Python build" in done.stderr
    assert _extensions(tree) == []


@pytest.mark.slow
def test_without_a_compiler_the_build_falls_back_to_pure_python(tmp_path: Path) -> None:
    pytest.importorskip("mypyc")
    tree = buildable_copy(tmp_path)
    done = _build_in_place(tree, CC="false", LDSHARED="false")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "compiling failed" in done.stderr and "pure-Python build" in done.stderr
    assert _extensions(tree) == []


def _except_names_with_two_types(source: str) -> list[str]:
    """Functions of ``source`` that bind one ``except ... as NAME`` to two exception types."""
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        types: dict[str, set[str]] = {}
        for node in ast.walk(function):
            if isinstance(node, ast.ExceptHandler) and node.name and node.type is not None:
                types.setdefault(node.name, set()).add(ast.unparse(node.type))
        found += [f"{function.name}: {name} as {sorted(kinds)}"
                  for name, kinds in types.items() if len(kinds) > 1]
    return found


def test_compiled_modules_bind_each_except_name_to_one_type() -> None:
    # mypyc gives a name one type per function: `except A as exc` then `except B as exc`
    # makes the compiled build raise TypeError when B is caught (the pure build is fine).
    found = {path: names for path in compiled_sources()
             if (names := _except_names_with_two_types((REPO / path).read_text("utf-8")))}
    assert found == {}


def test_the_except_name_check_finds_a_reused_name() -> None:
    source = ("def f():\n    try:\n        pass\n    except KeyError as exc:\n        pass\n"
              "    except ValueError as exc:\n        pass\n")
    assert _except_names_with_two_types(source) == ["f: exc as ['KeyError', 'ValueError']"]
