"""The package layout's promises (ARCHITECTURE.md), checked on the source: imports run one
way only, no private name crosses a module, there is no import cycle, and the rules engine
and the replayer read no reader's ``extra``.

Every import counts, including those inside functions (kept there for start-up time).
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.paths import REPO

PACKAGE = REPO / "bgtools"

# Lower layers first; a module may import only from its own layer and those before it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("bgtools.errors", "bgtools.limits", "bgtools.build", "bgtools.dataclass_methods",
     "bgtools.dataclass_inits", "bgtools.rules"),
    ("bgtools.grammars",),
    ("bgtools.engine",),
    ("bgtools.record",),
    ("bgtools.readers",),
    ("bgtools.replay",),
    ("bgtools.write",),
    ("bgtools.reports",),
    # The library's facade (read, replay, write from Python); bgtools/__init__ re-exports it.
    ("bgtools.api",),
    ("bgtools.batch",),
    ("bgtools.data",),
    ("bgtools.cli",),
    # The facade: the public API (bgtools/__init__).
    ("bgtools", "bgtools.__main__"),
)
# What the rules engine and the replayer must never import, whatever the layer order says.
FORBIDDEN_BELOW = {
    "bgtools.engine": ("bgtools.readers", "bgtools.write", "bgtools.reports", "bgtools.batch",
                       "bgtools.data", "bgtools.cli", "bgtools.record"),
    "bgtools.replay": ("bgtools.readers", "bgtools.write", "bgtools.reports", "bgtools.batch",
                       "bgtools.data", "bgtools.cli"),
}
# The root package's own metadata may be read from anywhere.
ROOT_METADATA = {"__version__"}

# Violations known when the layout landed, being removed by the rest of issue 12 (an entry is
# a finding without its line number). A finding not listed fails its test, and so does a
# listed one that is gone: delete it from here when it is fixed.
PENDING: dict[str, set[str]] = {
}


def check_findings(kind: str, findings: list[str]) -> None:
    """Fail on a finding not in PENDING[kind], and on a PENDING entry no longer found."""
    pending = PENDING.get(kind, set())
    found = {re.sub(r":[0-9]+(:|$)", r"\1", finding) for finding in findings}
    assert sorted(found - pending) == [], "new violations"
    assert sorted(pending - found) == [], "fixed: delete these from PENDING"


def module_name(path: Path) -> str:
    """The dotted name of a source file of the package."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache  # parsed once for all the tests of this module
def sources() -> list[tuple[str, Path, ast.Module]]:
    """Every module of the package with its parsed source."""
    return [(module_name(path), path, ast.parse(path.read_text("utf-8")))
            for path in sorted(PACKAGE.rglob("*.py"))]


def imports(name: str, path: Path, tree: ast.Module) -> Iterator[tuple[str, str | None, int]]:
    """(imported module, imported name or None, line) for every bgtools import of a module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "bgtools":
                    yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "bgtools":
                continue
            for alias in node.names:
                yield target, alias.name, node.lineno


def layer_of(name: str) -> int:
    """The index in LAYERS of the most specific entry that ``name`` belongs to."""
    best, best_len = -1, -1
    for index, members in enumerate(LAYERS):
        for member in members:
            if (name == member or name.startswith(member + ".")) and len(member) > best_len:
                best, best_len = index, len(member)
    assert best >= 0, f"{name} is in no layer of ARCHITECTURE.md"
    return best


def all_modules() -> set[str]:
    return {name for name, _, _ in sources()}


def resolve_target(target: str, imported: str | None, modules: set[str]) -> str:
    """The module an import statement loads: ``from bgtools.readers import mat`` loads
    ``bgtools.readers.mat``."""
    if imported is not None and f"{target}.{imported}" in modules:
        return f"{target}.{imported}"
    return target


def test_every_module_is_in_a_layer() -> None:
    for name, _, _ in sources():
        layer_of(name)


def test_imports_run_one_way() -> None:
    modules = all_modules()
    upward = []
    for name, path, tree in sources():
        own = layer_of(name)
        for target, imported, line in imports(name, path, tree):
            if target == "bgtools" and imported in ROOT_METADATA:
                continue
            loaded = resolve_target(target, imported, modules)
            if layer_of(loaded) > own:
                upward.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {name} imports {loaded}")
    assert upward == []


@pytest.mark.parametrize("package", sorted(FORBIDDEN_BELOW))
def test_engine_and_replayer_import_no_reader_or_writer(package: str) -> None:
    modules = all_modules()
    found = []
    for name, path, tree in sources():
        if name != package and not name.startswith(package + "."):
            continue
        for target, imported, line in imports(name, path, tree):
            loaded = resolve_target(target, imported, modules)
            if any(loaded == f or loaded.startswith(f + ".") for f in FORBIDDEN_BELOW[package]):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {loaded}")
    check_findings(f"reader {package}", found)


@pytest.mark.parametrize("package", sorted(FORBIDDEN_BELOW))
def test_engine_and_replayer_read_no_extra(package: str) -> None:
    found = []
    for name, path, tree in sources():
        if name != package and not name.startswith(package + "."):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "extra":
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    check_findings(f"extra {package}", found)


def test_no_private_name_crosses_a_module() -> None:
    modules = all_modules()
    crossings = []
    for name, path, tree in sources():
        aliases: set[str] = set()
        for target, imported, line in imports(name, path, tree):
            if imported is not None and imported.startswith("_") and imported not in ROOT_METADATA:
                crossings.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {target}.{imported}")
            if imported is not None and resolve_target(target, imported, modules) != target:
                aliases.add(imported)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                crossings.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: "
                                 f"{node.value.id}.{node.attr}")
    check_findings("private", crossings)


def test_no_import_cycle() -> None:
    modules = all_modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path, tree in sources():
        for target, imported, _ in imports(name, path, tree):
            if target == "bgtools" and imported in ROOT_METADATA:
                # The root's metadata (``__version__``) is set before the root imports
                # anything, so reading it closes no cycle (the root re-exports the facade).
                continue
            loaded = resolve_target(target, imported, modules)
            if loaded in modules and loaded != name:
                # A package's __init__ runs before any of its modules: importing a module of
                # a package imports the package too, so a package importing its own modules
                # is the normal shape, not a cycle; the reverse edge (module -> its package's
                # __init__) closes one.
                graph[name].add(loaded)
    cycles = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        trail.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(trail[trail.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, trail)
        trail.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    check_findings("cycle", cycles)


# Exceptions that are not errors of the input: a grammar file of bgtools' own that the
# terminal reader cannot read (a bug, reported as one), and the control flow of a data run.
NOT_INPUT_ERRORS = {"bgtools.grammars.GrammarSyntaxError", "bgtools.cli.data._Abort"}


def test_every_exception_is_a_bgtools_error() -> None:
    """Every exception class bgtools defines derives from BgtoolsError (errors.py's promise),
    so that ``except BgtoolsError`` catches whatever bgtools raises on purpose."""
    import importlib

    from bgtools.errors import BgtoolsError

    outside = []
    for name, _, tree in sources():
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and f"{name}.{node.name}" not in NOT_INPUT_ERRORS:
                cls = getattr(importlib.import_module(name), node.name)
                if (isinstance(cls, type) and issubclass(cls, BaseException)
                        and not issubclass(cls, BgtoolsError)):
                    outside.append(f"{name}.{node.name}")
    assert outside == []
