"""The grammars package: its loader, and the terminals it reads without Lark."""

from __future__ import annotations

from importlib import resources

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


def test_grammars_come_from_the_package_resources() -> None:
    names = {entry.name for entry in resources.files("bgtools.grammars").iterdir()}
    assert {NOTATION, MAT_LINE} <= names
    assert "action_line" in grammars.grammar_text(MAT_LINE)


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
