"""Sphinx configuration of bgtools' API reference and tutorial (``docs/``).

Built by ``tests/test_docs.py`` with warnings as errors (``-W``); by hand:
``python -m sphinx -W -b html docs docs/_build``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

project = "bgtools"
author = "the bgtools developers"
copyright = "2026, the bgtools developers"  # noqa: A001 - Sphinx's own setting name
extensions = ["sphinx.ext.autodoc"]
# The Markdown pages of docs/ (format notes, contract amendments) are linked from the README;
# this site is the reStructuredText pages only.
source_suffix = {".rst": "restructuredtext"}
exclude_patterns = ["_build"]
root_doc = "index"
html_theme = "alabaster"
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": False}
# "Python" code in the pages is checked by tests/test_docs.py (doctest), not highlighted
# with guesses: a block that fails to lex would otherwise only warn.
highlight_language = "python3"
