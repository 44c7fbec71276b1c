"""The grammars package: its loader, and the terminals it reads without Lark."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bgtools import grammars
from bgtools.grammars import (
    MAT_LINE,
    NOTATION,
    GrammarSyntaxError,
    Terminal,
    parser,
    terminals,
)
from tests.helpers.paths import REPO, buildable_copy


@pytest.mark.parametrize("name", [NOTATION, MAT_LINE])
def test_terminals_are_those_lark_compiles(name: str) -> None:
    """terminals() reads every terminal with the pattern, flag and priority Lark gives it."""
    lark = parser(name)
    ignored = set(lark.ignore_tokens)
    compiled = {(t.name, t.pattern.to_regexp(), t.priority) for t in lark.terminals
                if t.name not in ignored}
    lexicon = terminals(name)
    derived = {(t.name, t.regex, t.priority) for t in lexicon.terminals}
    # Lark writes a flagless pattern bare; Terminal.regex always groups it.
    assert {(n, r if r.startswith("(?i:") else f"(?:{r})", p) for n, r, p in compiled} == derived
    assert [f"(?:{t.pattern.to_regexp()})" for t in lark.terminals if t.name in ignored] == \
        list(lexicon.ignored)


def test_the_grammars_are_read_from_the_top_level_folder_of_a_checkout() -> None:
    for name in (NOTATION, MAT_LINE):
        assert grammars.grammar_text(name) == (REPO / "grammars" / name).read_text("utf-8")
    assert not list((REPO / "bgtools" / "grammars").glob("*.lark"))  # one copy, at the top
    assert "action_line" in grammars.grammar_text(MAT_LINE)


def test_a_wheel_carries_the_grammars_as_package_data(tmp_path: Path) -> None:
    """The wheel's bgtools.grammars holds the top-level .lark files, and an installed
    package reads them from there (no checkout beside it)."""
    source = buildable_copy(tmp_path)  # pip builds in the folder it is given
    env = {**os.environ, "BGTOOLS_PURE": "1"}
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                            "--no-build-isolation", "-q", "-w", str(tmp_path / "dist"),
                            str(source)], env=env, capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("bgtools-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path / "site")
    for name in (NOTATION, MAT_LINE):
        installed = tmp_path / "site" / "bgtools" / "grammars" / name
        assert installed.read_bytes() == (REPO / "grammars" / name).read_bytes()
    script = ("import bgtools.grammars as g; print(g.__file__); "
              "print(len(g.grammar_text(g.MAT_LINE)))")
    shown = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                           text=True, check=True,
                           env={**os.environ, "PYTHONPATH": str(tmp_path / "site")})
    where, size = shown.stdout.split()
    assert Path(where).is_relative_to(tmp_path / "site")
    assert int(size) == len(grammars.grammar_text(MAT_LINE))


def test_each_parser_is_built_once() -> None:
    assert parser(MAT_LINE) is parser(MAT_LINE)
    assert parser(NOTATION) is not parser(MAT_LINE)


def test_a_lexicon_finds_terminals_by_name() -> None:
    lexicon = terminals(MAT_LINE)
    assert lexicon["ARROW"] == Terminal("ARROW", "=>", False, 5)
    assert lexicon["WINS"].regex == r"(?i:wins?(?!\S))"
    with pytest.raises(KeyError):
        lexicon["NOPE"]


@pytest.mark.parametrize("text", [
    'A: "a" | "b"\n',
    'A: "a"\n  | "b"\n',
    "%import common.WS\n",
    "A: /a/x\n",
    "A: B C\n",
])
def test_terminal_forms_not_read_are_refused(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grammars, "grammar_text", lambda name: text)
    with pytest.raises(GrammarSyntaxError):
        terminals(f"refused-{text!r}.lark")


def test_escapes_read_as_lark_reads_them(monkeypatch: pytest.MonkeyPatch) -> None:
    text = ('start: A B C\nA.3: /a[ \\t]\\/\\s/i\nB: "*"\nC: /\\x41\\\\/ // a comment\n'
            '%ignore /[ \\t]+/\n')
    monkeypatch.setattr(grammars, "grammar_text", lambda name: text)
    lexicon = terminals("escapes.lark")
    assert lexicon.terminals == (Terminal("A", "a[ \t]\\/\\s", True, 3), Terminal("B", r"\*"),
                                 Terminal("C", "A\\\\"))
    assert lexicon.ignored == ("(?:[ \t]+)",)
    from lark import Lark

    lark = Lark(text, parser="lalr")
    assert {t.name: t.pattern.value for t in lark.terminals} == {
        "A": "a[ \t]\\/\\s", "B": "*", "C": "A\\\\", "__IGNORE_0": "[ \t]+"}
