"""The grammars of the notations bgtools reads, and their one loader.

``notation.lark`` defines a written play (``13/7 8/7*``, ``bar/22``), ``mat_line.lark`` one line
of a Jellyfish ``.mat`` file. They are the definition of both notations: files in the
repository's top-level ``grammars/``, installed as this package's data:

* :func:`parser` builds a grammar's Lark parser (LALR) on first use, once;
* :func:`terminals` reads a grammar's terminals (name, pattern, flags, priority) from the same
  text without Lark, so that the readers' fast readers know the grammar's own vocabulary
  and a file whose every line takes a fast reader never loads Lark (start-up time).
  ``tests/project/test_grammars.py`` proves the terminals equal to those Lark compiles.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from bgtools.dataclass_methods import FrozenFieldMethods, prebuilt_dataclass

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark

__all__ = ["MAT_LINE", "NOTATION", "GrammarSyntaxError", "Lexicon", "Terminal", "grammar_text",
           "parser", "terminals"]

NOTATION = "notation.lark"
"""The move notation: one turn's play as written in a record."""
MAT_LINE = "mat_line.lark"
"""One line of a ``.mat`` file: its kind, and an action line's row number and cells."""

_LARK_OPTIONS: dict[str, dict[str, object]] = {
    # The column of every path of a play is reported in messages.
    NOTATION: {"propagate_positions": True},
    # A context-free lexer: a token never depends on the parser state, which is what lets
    # the .mat fast path read tokens with the terminals' patterns alone.
    MAT_LINE: {"lexer": "basic"},
}


def grammar_text(name: str) -> str:
    """The text of the grammar file ``name`` (for example :data:`MAT_LINE`)."""
    data = _grammar_bytes(name)
    # Text mode's universal newlines, as resources' read_text gives them.
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def _grammar_bytes(name: str) -> bytes:
    """The bytes of the grammar file ``name``: beside this module in an installed package
    (``setup.py`` copies the repository's ``grammars/`` there), else in ``grammars/`` at the
    top of the source tree this module runs from (a checkout, an editable install)."""
    # The package's loader reads its own files (from a directory or a zip) without
    # importlib.resources, whose import (tempfile, random, zipfile) costs more than a
    # one-file run's reading; pkgutil.get_data reads resources the same way.
    import os

    here = os.path.dirname(__file__)
    loader = __spec__.loader if __spec__ is not None else None
    places = (os.path.join(here, name),
              os.path.join(here, os.pardir, os.pardir, "grammars", name))
    for path in places:
        try:
            if loader is not None and hasattr(loader, "get_data"):
                data: bytes = loader.get_data(path)
                return data
            with open(path, "rb") as grammar:
                return grammar.read()
        except FileNotFoundError:
            continue
    raise FileNotFoundError(f"the grammar {name} is neither in {here} nor in the source "
                            "tree's grammars/")


@cache
def parser(name: str) -> Lark:
    """The LALR parser of the grammar ``name``, built on first use with that grammar's options."""
    from lark import Lark

    return Lark(grammar_text(name), parser="lalr", **_LARK_OPTIONS[name])


@prebuilt_dataclass
class Terminal(FrozenFieldMethods):
    """A terminal of a grammar: ``pattern`` is a Python regular expression (a string literal
    is escaped), ``ignore_case`` its ``i`` flag, ``priority`` the lexer's (0 when not given)."""

    name: str
    pattern: str
    ignore_case: bool = False
    priority: int = 0

    @property
    def regex(self) -> str:
        """The pattern as a group with its flag, to be embedded in a larger expression."""
        return f"(?i:{self.pattern})" if self.ignore_case else f"(?:{self.pattern})"


@prebuilt_dataclass
class Lexicon(FrozenFieldMethods):
    """The terminals of one grammar, in the order of the file, and what it ignores."""

    terminals: tuple[Terminal, ...]
    ignored: tuple[str, ...]
    """The patterns of the ``%ignore`` lines (what may separate two tokens), as groups."""

    def __getitem__(self, name: str) -> Terminal:
        for terminal in self.terminals:
            if terminal.name == name:
                return terminal
        raise KeyError(name)


class GrammarSyntaxError(ValueError):
    """A grammar file uses a form of terminal that :func:`terminals` does not read."""


_TERMINAL_LINE = re.compile(
    r"(?P<name>_?[A-Z][A-Z0-9_]*)(?:\.(?P<priority>-?[0-9]+))?\s*:(?P<body>.*)")
_LITERAL = re.compile(
    r"\s*(?:/(?P<regex>(?:\\.|[^/\\])+)/(?P<regex_flags>[imslux]*)"
    r"|\"(?P<string>[^\"\\]+)\"(?P<string_flags>i?))\s*(?://.*)?"
)
_IGNORE_LINE = re.compile(r"%ignore\s+(?P<body>.*)")
_ESCAPE = re.compile(r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)")
_CHARACTER_ESCAPES = {"n": "\n", "f": "\f", "t": "\t", "r": "\r", '"': '"'}


def _unescape(match: re.Match[str]) -> str:
    """A regex literal's escape as Lark reads it: the characters ``\\n \\f \\t \\r \\xHH
    \\uHHHH \\UHHHHHHHH`` and ``\\"`` become what they stand for; every other escape is left
    to the regular expression."""
    escape = match.group()
    if escape[1] in "xuU":
        return chr(int(escape[2:], 16))  # noqa: FURB166 - a backslash escape, not 0x
    return _CHARACTER_ESCAPES.get(escape[1], escape)


def _literal(text: str, where: str) -> tuple[str, bool]:
    """The Python pattern and the ignore-case flag of one literal (``/re/i`` or ``"str"``)."""
    m = _LITERAL.fullmatch(text)
    if m is None:
        raise GrammarSyntaxError(f"{where}: only one /regex/ or \"string\" literal is read here")
    if m.group("string") is not None:
        return re.escape(m.group("string")), m.group("string_flags") == "i"
    flags = m.group("regex_flags")
    if set(flags) - {"i"}:
        raise GrammarSyntaxError(f"{where}: only the i flag is read here")
    return _ESCAPE.sub(_unescape, m.group("regex")), flags == "i"


@cache
def terminals(name: str) -> Lexicon:
    """The terminals of the grammar ``name``, read from its text (no Lark): each a single
    ``/regex/`` or ``"string"`` literal, ``%ignore`` of a literal or a terminal's name.

    Raise :class:`GrammarSyntaxError` on any other form of terminal, rather than guess.
    """
    found: list[Terminal] = []
    ignored: list[str] = []
    in_terminal = False
    for number, raw in enumerate(grammar_text(name).splitlines(), 1):
        line = raw.strip()
        where = f"{name}:{number}"
        if not line or line.startswith("//"):
            continue
        if line.startswith("|"):
            if in_terminal:
                raise GrammarSyntaxError(f"{where}: a terminal of several alternatives")
            continue
        ignore = _IGNORE_LINE.fullmatch(line)
        if ignore is not None:
            body = ignore.group("body").split("//")[0].strip()
            by_name = {t.name: t for t in found}
            if body in by_name:
                ignored.append(by_name[body].regex)
            else:
                ignored.append(Terminal("%ignore", *_literal(body, where)).regex)
            in_terminal = False
            continue
        if line.startswith("%"):
            raise GrammarSyntaxError(f"{where}: {line.split()[0]} is not read here")
        definition = _TERMINAL_LINE.fullmatch(line)
        in_terminal = definition is not None
        if definition is None:
            continue  # a rule
        pattern, ignore_case = _literal(definition.group("body"), where)
        priority = definition.group("priority")
        found.append(Terminal(definition.group("name"), pattern, ignore_case,
                              int(priority) if priority is not None else 0))
    return Lexicon(tuple(found), tuple(ignored))
