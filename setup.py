"""Build bgtools, compiling its hot path with mypyc where a C compiler is available.

The metadata is in ``pyproject.toml``; this file only adds the compiled modules. mypyc (part
of mypy, brought by build isolation) compiles the same typed sources that run as pure Python,
so there is one definition of every rule. The build falls back to the pure-Python package,
saying so, when mypyc or a C compiler is missing or fails, or when ``BGTOOLS_PURE=1`` is set.
``bgtools --version`` tells which build runs.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# The per-roll path: reading a .mat (or an .xg, or a .bgf with its Smile body), parsing and
# resolving plays, replaying them, and the board kernel under all of them (engine/board: the
# rules of a step, the maximal-play rules, move generation, as plain functions that
# engine/position's documented Position delegates to). Modules that define the documented
# library API
# (engine/position, engine/ids, engine/plays, record/, api/) stay pure Python: compiled
# functions and classes lose their docstrings and signatures, which help(), IDEs and the
# Sphinx reference read. So do the modules that build Lark Transformer classes on first use
# (engine/notation_grammar, readers/mat_grammar): mypyc compiles no class nested in a function.
COMPILED = [
    "bgtools/engine/board.py",
    "bgtools/engine/memo.py",
    "bgtools/engine/notation.py",
    "bgtools/engine/resolve.py",
    "bgtools/engine/results.py",
    "bgtools/readers/mat.py",
    "bgtools/readers/mat_lines.py",
    "bgtools/readers/smile.py",
    "bgtools/readers/spans.py",
    "bgtools/readers/bgf.py",
    "bgtools/readers/xg.py",
    "bgtools/replay/game.py",
    "bgtools/replay/match.py",
    "bgtools/replay/model.py",
    "bgtools/replay/rules.py",
]


def _say(message: str) -> None:
    print(f"bgtools build: {message}", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """``build_ext`` that leaves the pure-Python package in place when compiling fails.

    All or nothing: the compiled modules share one runtime library, so a partial build
    would not import; on any failure every extension already built is removed.
    """

    def run(self) -> None:
        """Build every extension, or none (see the class)."""
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any compiler failure means: stay pure
            for ext in self.extensions:
                built = self.get_ext_fullpath(ext.name)
                if os.path.exists(built):
                    os.remove(built)
            _say(f"compiling failed ({exc}); installing the pure-Python build")
            return
        if self.inplace:
            # mypyc has just translated the current sources; an extension whose C did not
            # change (an edited docstring or comment) is not relinked, so it keeps its old
            # time and would look older than its source to the test suite's check for
            # stale builds (tests/conftest.py). It is current: say so in its time.
            for ext in self.extensions:
                built = self.get_ext_fullpath(ext.name)
                if os.path.exists(built):
                    os.utime(built)


GRAMMARS = "grammars"
"""The Lark grammars' folder at the top of the repository, installed as ``bgtools.grammars``'
data (where ``bgtools/grammars/__init__.py`` reads them)."""


class BuildPyWithGrammars(build_py):
    """``build_py`` that also copies the top-level ``grammars/*.lark`` into the built
    ``bgtools/grammars`` package, so that a wheel carries them as package data."""

    def run(self) -> None:
        """Build the Python modules, then copy the grammars beside their loader."""
        super().run()
        target = os.path.join(self.build_lib, "bgtools", "grammars")
        self.mkpath(target)
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), GRAMMARS)
        for name in sorted(os.listdir(source)):
            if name.endswith(".lark"):
                self.copy_file(os.path.join(source, name), os.path.join(target, name))


def _compiled_modules() -> list[Any]:
    if os.environ.get("BGTOOLS_PURE", "") not in ("", "0"):
        _say("BGTOOLS_PURE is set; installing the pure-Python build")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not installed; installing the pure-Python build")
        return []
    try:
        # The build environment holds only the build requirements: the runtime
        # dependencies (lark, zlib-ng) are missing there, and only modules that stay pure
        # import them, so their types are not needed. Type errors are mypy's job in the
        # test suite (tests/project/test_typing.py); here they would only block the compiled build.
        return list(mypycify(["--ignore-missing-imports", "--follow-imports=silent",
                              *COMPILED], opt_level="3", multi_file=True))
    except BaseException as exc:  # noqa: BLE001 - mypyc exits on type errors; stay pure
        _say(f"mypyc failed ({exc!r}); installing the pure-Python build")
        return []


setup(ext_modules=_compiled_modules(),
      cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPyWithGrammars})
