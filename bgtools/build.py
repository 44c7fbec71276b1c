"""Which build of bgtools is running: the hot path compiled by mypyc, or pure Python.

``pip install`` compiles the engine, the ``.mat`` reader and the replayer with mypyc where a C
compiler is available (see ``setup.py``) and falls back to the pure-Python sources otherwise;
both builds run the same typed code. ``bgtools --version`` reports which one runs.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES

__all__ = ["COMPILED_PROBE", "is_compiled", "build_name"]

COMPILED_PROBE = "bgtools.replay.game"
"""A module of the hot path that the compiled build always compiles."""


def is_compiled() -> bool:
    """True when the hot path runs as extension modules built by mypyc (the module already
    imported, else the file Python would import: an extension module wins over a source)."""
    module = sys.modules.get(COMPILED_PROBE)
    if module is not None:
        origin = getattr(module, "__file__", None) or ""
        return any(origin.endswith(suffix) for suffix in EXTENSION_SUFFIXES)
    # os.path, not pathlib: --version imports nothing more (pathlib costs a third of it).
    folder = os.path.join(os.path.dirname(os.path.realpath(__file__)),
                          *COMPILED_PROBE.split(".")[1:-1])
    stem = COMPILED_PROBE.rsplit(".", 1)[1]
    return any(os.path.isfile(os.path.join(folder, f"{stem}{suffix}"))
               for suffix in EXTENSION_SUFFIXES)


def build_name() -> str:
    """``compiled with mypyc`` or ``pure Python``: what ``bgtools --version`` says."""
    return "compiled with mypyc" if is_compiled() else "pure Python"
