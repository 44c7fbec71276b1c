"""The documentation: the manual (``docs/``, a Sphinx site of reStructuredText and Markdown
pages) builds with warnings as errors, every example in it, in the README and in the
docstrings runs, no link points at a file (or a heading) the repository does not have, and
nothing shipped points outside the repository.

The examples of the Markdown pages (README.md, docs/*.md) are fenced blocks, each of a kind:

- ``console``: ``$ COMMAND`` lines, run by bash in a temporary directory holding a copy of
  ``samples/`` (and ``tests/files``), with ``bgtools`` the program of this tree. The lines
  after a command, up to the next, are its output (stdout, then stderr; ``...`` standing
  for any text, as in doctest); a command ending in ``# exit N`` must exit with N, any
  other with 0.
- ``python``: run one after the other in one namespace per page, in such a directory.
- ``sh``: recipes that install packages or run long jobs (the suite, benchmarks, fuzzing), so
  they are not run here; each command is checked instead: the extras it installs exist, the
  scripts it runs exist and accept the options it gives them.
- ``json``, ``sql``, ``text``: shown, not run (the SQL query runs in tests/data/test_export.py).

Sphinx and myst-parser are in the ``test`` extra; DuckDB and pyarrow too, and the page that
needs them is skipped without them. Nothing here reads ``../shared``: a bare clone runs it all.
"""

from __future__ import annotations

import doctest
import importlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from bgtools.cli.validate import rule_table
from tests.helpers.paths import FILES, REPO

DOCS = REPO / "docs"
PAGES = sorted(DOCS.glob("*.rst"))
MARKDOWN = [REPO / "README.md", *sorted(DOCS.glob("*.md"))]
NEEDS = {"duckdb.rst": ("duckdb", "pyarrow")}
"""The optional modules a page's examples import."""
KINDS = {"console", "python", "sh", "json", "sql", "text"}
"""The kinds of fenced block a Markdown page may hold (see the module's docstring)."""


def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    build = pytest.importorskip("sphinx.cmd.build", reason="pip install -e '.[test]'")
    pytest.importorskip("myst_parser", reason="pip install -e '.[test]'")
    started = time.perf_counter()
    warnings = tmp_path / "warnings.txt"
    code = build.build_main(["-W", "--keep-going", "-q", "-E", "-b", "html",
                             "-w", str(warnings), str(DOCS), str(tmp_path / "html")])
    assert code == 0, warnings.read_text(encoding="utf-8")
    assert time.perf_counter() - started < 90
    html = tmp_path / "html"
    api = (html / "api.html").read_text(encoding="utf-8")
    for name in ("bgtools.api.reading.read", "Replay.final_score", "Moment.xgid",
                 "ReplayedAction.position_after", "Match.write", "Position.xgid"):
        assert name in api, name
    assert undocumented(api) == []
    # Every page of docs/ is in the site (in a toctree), so none is left unlinked.
    for page in [*PAGES, *DOCS.glob("*.md")]:
        assert (html / f"{page.stem}.html").is_file(), page.name
    # The rule reference is made from the rule table: every rule with its severity.
    rules = (html / "rules.html").read_text(encoding="utf-8")
    for row in rule_table():
        cell = f'<code class="docutils literal notranslate"><span class="pre">{row["rule"]}'
        assert cell in rules, row["rule"]
        after = rules[rules.index(cell):]
        assert f"<p>{row['severity']}</p>" in after[:after.index("</tr>")], row["rule"]


REACHED = ("bgtools.record.MatchRecord", "bgtools.record.GameRecord", "bgtools.record.Action",
           "bgtools.record.SetUp")
"""Public classes outside ``bgtools.__all__`` that the API hands out (``match.record``,
``match.games``, an action's ``source``): documented as the names of ``__all__`` are."""


def public_members(cls: object) -> list[str]:
    """The public names a class defines: its fields (NamedTuple, dataclass), enum members,
    slots, annotated attributes and everything in its own namespace."""
    import dataclasses
    import enum
    import inspect

    if not isinstance(cls, type):
        return []
    names: list[str] = list(getattr(cls, "_fields", ()))
    if dataclasses.is_dataclass(cls):
        names += [f.name for f in dataclasses.fields(cls)]
    if issubclass(cls, enum.Enum):
        names += list(cls.__members__)
    slots = cls.__dict__.get("__slots__", ())
    names += [slots] if isinstance(slots, str) else list(slots)
    names += list(inspect.get_annotations(cls))
    names += list(cls.__dict__)
    return [name for name in dict.fromkeys(names) if not name.startswith("_")]


def undocumented(api_html: str) -> list[str]:
    """Every public name of the API that the built reference (``api.html``) lacks or shows
    without a description: each name of ``bgtools.__all__`` (and of :data:`REACHED`) and
    each public member of each such class (a field, a property, a method, an enum member),
    also a namedtuple field that only says "Alias for field number N"."""
    import bgtools

    homes = bgtools.__getattr__.__globals__["_HOMES"]
    targets = [(f"{homes[name]}.{name}", getattr(bgtools, name)) for name in bgtools.__all__]
    for dotted in REACHED:
        module, _, name = dotted.rpartition(".")
        targets.append((dotted, getattr(importlib.import_module(module), name)))
    missing: list[str] = []
    for dotted, obj in targets:
        if f'id="{dotted}"' not in api_html:
            missing.append(dotted)
            continue
        for member in public_members(obj):
            anchor = f'id="{dotted}.{member}"'
            if anchor not in api_html:
                missing.append(f"{dotted}.{member}")
                continue
            entry = api_html[api_html.index(anchor):]
            entry = entry[:entry.find("</dd>")]
            described = re.sub(r"<[^>]+>", "", entry[entry.find("<dd>"):]).strip()
            if not described or "Alias for field number" in described:
                missing.append(f"{dotted}.{member} (no description)")
    return missing


def test_the_undocumented_check_finds_an_undocumented_name() -> None:
    """:func:`undocumented` is not blind: a reference without a member's entry, or with
    only the namedtuple's own words for a field, is caught."""
    anchor = 'id="bgtools.reports.moments.Cube.value"'
    page = f'<dt id="bgtools.reports.moments.Cube"></dt><dd>x</dd><dt {anchor}></dt><dd></dd>'
    found = undocumented(page)
    assert "bgtools.reports.moments.Cube.value (no description)" in found
    assert "bgtools.reports.moments.Cube.owner" in found
    assert "bgtools.api.reading.Match" in found


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


# --- the Markdown pages' examples ------------------------------------------------------------

FENCE = re.compile(r"^```([^\s`]*)[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def fenced_blocks(markdown: str) -> list[tuple[str, str]]:
    """The fenced blocks of a Markdown text, in order: ``(kind, body)``."""
    return [(match[1], match[2]) for match in FENCE.finditer(markdown)]


def blocks_of(kind: str) -> list[tuple[Path, int, str]]:
    """Every block of ``kind`` in the Markdown pages: ``(page, number, body)``."""
    found = []
    for page in MARKDOWN:
        for number, (block_kind, body) in enumerate(
                fenced_blocks(page.read_text(encoding="utf-8")), start=1):
            if block_kind == kind:
                found.append((page, number, body))
    return found


def block_id(case: tuple[Path, int, str]) -> str:
    """``README.md#3``: a block's page and number, for test ids."""
    return f"{case[0].name}#{case[1]}"


@pytest.fixture
def sandbox(tmp_path: Path) -> Path:
    """A directory with a copy of ``samples/`` and ``tests/files``, and ``bin/bgtools``: the
    program of this tree."""
    shutil.copytree(REPO / "samples", tmp_path / "samples")
    shutil.copytree(FILES, tmp_path / "tests" / "files")
    program = tmp_path / "bin" / "bgtools"
    program.parent.mkdir()
    # The console script's entry point, named as the console script is.
    entry = 'import sys; sys.argv[0] = "bgtools"; from bgtools.cli import main; sys.exit(main())'
    command = f"exec {shlex.quote(sys.executable)} -c {shlex.quote(entry)}"
    program.write_text(f'#!/bin/sh\n{command} "$@"\n', encoding="utf-8")
    program.chmod(0o755)
    return tmp_path


def test_every_page_block_is_of_a_known_kind() -> None:
    for page in MARKDOWN:
        for kind, _ in fenced_blocks(page.read_text(encoding="utf-8")):
            assert kind in KINDS or kind.startswith("{"), f"{page.name}: ```{kind}"
    assert len(blocks_of("console")) >= 10 and len(blocks_of("python")) >= 4


def console_commands(body: str) -> list[tuple[str, int, list[str]]]:
    """The ``$`` commands of a console block: ``(command, exit code, output lines)``."""
    commands: list[tuple[str, int, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            command = line[2:]
            wanted = re.search(r"#\s*exit (\d+)\s*$", command)
            commands.append((command, int(wanted[1]) if wanted else 0, []))
        else:
            assert commands, f"output before any command: {line!r}"
            commands[-1][2].append(line)
    return commands


@pytest.mark.parametrize("case", blocks_of("console"), ids=block_id)
def test_console_examples_run(case: tuple[Path, int, str], sandbox: Path) -> None:
    env = {key: value for key, value in os.environ.items()
           if key not in ("BGTOOLS_PROGRESS", "COLUMNS", "LINES", "TERMINAL_WIDTH")}
    env.update({"PATH": f"{sandbox / 'bin'}{os.pathsep}{env.get('PATH', '')}",
                "PYTHONPATH": str(REPO), "NO_COLOR": "1"})
    checker = doctest.OutputChecker()
    for command, code, expected in console_commands(case[2]):
        done = subprocess.run(["bash", "-c", command], cwd=sandbox, env=env, text=True,
                              capture_output=True, stdin=subprocess.DEVNULL, timeout=300,
                              check=False)
        output = done.stdout + done.stderr
        assert done.returncode == code, f"{command}\n{output}"
        if expected:
            want = "\n".join(expected) + "\n"
            assert checker.check_output(want, output, doctest.ELLIPSIS), (
                f"{command}\nexpected:\n{want}got:\n{output}")


@pytest.mark.parametrize("page", [page for page in MARKDOWN
                                  if "```python" in page.read_text(encoding="utf-8")],
                         ids=lambda p: p.name)
def test_python_examples_run(page: Path, sandbox: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(sandbox)
    names: dict[str, object] = {}
    for _, number, body in [case for case in blocks_of("python") if case[0] == page]:
        exec(compile(body, f"{page.name}, block {number}", "exec"), names)


def script_help(script: list[str]) -> str:
    """The ``--help`` text of a script or module of the repository."""
    done = subprocess.run([sys.executable, *script, "--help"], cwd=REPO, text=True,
                          capture_output=True, timeout=120, check=False,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, f"{script}: {done.stderr}"
    return done.stdout


def check_recipe(command: str, extras: set[str]) -> None:
    """One command of an ``sh`` block, checked without running it."""
    words = shlex.split(command, comments=True)
    while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):
        words = words[1:]  # BGTOOLS_PURE=1 ...
    if not words:
        return
    if words[:2] == ["pip", "install"]:
        for target in (word for word in words[2:] if not word.startswith("-")):
            match = re.fullmatch(r"(?:\.|bgtools)(?:\[([\w,]+)\])?", target)
            assert match, f"pip installs {target!r}, not bgtools: {command}"
            assert set((match[1] or "").split(",")) - {""} <= extras, command
        return
    if words[0] in ("python", "python3"):
        args = words[1:]
        if args[:2] in (["-m", "sphinx"], ["-m", "pytest"]) or args[0] == "-c":
            return  # the one-liner of docs/library.md runs in tests/api/test_library.py
        script = args[:2] if args[0] == "-m" else args[:1]
        if script[0] != "-m":
            assert (REPO / script[0]).is_file(), command
        else:
            assert (REPO / (script[1].replace(".", "/") + ".py")).is_file(), command
        options = [word.split("=")[0] for word in args if word.startswith("--")]
        if options:
            text = script_help(script)
            for option in options:
                assert option in text, f"{option} not in {script} --help: {command}"
        return
    # dask: the scheduler and worker of bgtools[dask] (docs/validating.md, "On a cluster").
    assert words[0] in ("pytest", "ruff", "mypy", "bgtools", "dask"), (
        f"unchecked recipe: {command}")


def test_sh_recipes_name_what_exists() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    extras = set(pyproject["project"]["optional-dependencies"])
    for _, _, body in blocks_of("sh"):
        for line in body.splitlines():
            for command in line.split("&&"):
                check_recipe(command.strip(), extras)


def test_the_readme_states_the_quick_start_and_the_python_version() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "pip install . && bgtools validate samples/" in readme
    assert "pip install '.[test]' && python scripts/test_builds.py" in readme
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    version = pyproject["project"]["requires-python"].removeprefix(">=")
    assert f"Python {version} or newer" in readme
    assert len(readme.splitlines()) <= 250


# --- links ---------------------------------------------------------------------------------

LINK = re.compile(r"\]\(([^)\s]+)\)|`[^`<]*<([^>`]+)>`_")
"""A Markdown link ``[text](target)`` or a reStructuredText one ``\\`text <target>\\`_``."""

SHIPPED_TEXT = [REPO / "README.md", REPO / "ARCHITECTURE.md", *sorted(DOCS.rglob("*.md")),
                *sorted(DOCS.rglob("*.rst")), *sorted(DOCS.rglob("*.py")),
                *sorted((REPO / "bgtools").rglob("*.py")),
                *sorted((REPO / "grammars").glob("*.lark")),
                *sorted((REPO / "bgtools").rglob("*.json"))]
"""The files a reader of a clone or a user of the package reads: README, ARCHITECTURE.md, the
manual, and bgtools' code (its messages and docstrings), grammars and schemas."""


def heading_anchors(markdown: str) -> set[str]:
    """The anchors of a Markdown page's headings, as GitHub and myst-parser make them."""
    anchors = set()
    for heading in re.findall(r"^#+ (.+)$", FENCE.sub("", markdown), flags=re.MULTILINE):
        text = re.sub(r"[^\w\- ]", "", heading.lower().replace("`", ""))
        anchors.add(text.replace(" ", "-"))
    return anchors


@pytest.mark.parametrize("page", [*MARKDOWN, *PAGES], ids=lambda p: p.name)
def test_every_link_points_at_a_file_of_the_repository(page: Path) -> None:
    for match in LINK.finditer(page.read_text(encoding="utf-8")):
        target = match[1] or match[2]
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address, or a place on the same page
        name, _, anchor = target.partition("#")
        path = (page.parent / name).resolve()
        assert path.exists(), f"{page.name}: {target}"
        assert path.is_relative_to(REPO), f"{page.name}: {target} is outside the repository"
        if anchor and path.suffix == ".md":
            assert anchor in heading_anchors(path.read_text(encoding="utf-8")), (
                f"{page.name}: {target}: no such heading")


def test_nothing_shipped_points_outside_the_repository() -> None:
    for path in SHIPPED_TEXT:
        text = path.read_text(encoding="utf-8")
        for outside in ("../shared", "shared/docs", "shared/corpus", "FORMATS.md"):
            assert outside not in text, f"{path.relative_to(REPO)} mentions {outside}"
