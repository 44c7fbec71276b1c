"""Sphinx configuration of bgtools' manual (``docs/``): user guide, reference, API.

Built by ``tests/project/test_docs.py`` with warnings as errors (``-W``); by hand:
``python -m sphinx -W -b html docs docs/_build``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

project = "bgtools"
author = "the bgtools developers"
copyright = "2026, the bgtools developers"  # noqa: A001 - Sphinx's own setting name
# myst_parser reads the Markdown pages (the user guide, the contract, the format notes), so
# that they read on their own in a clone and build into the site; bgtools_rules (docs/_ext)
# makes the rule reference from the rule table itself.
extensions = ["sphinx.ext.autodoc", "myst_parser", "bgtools_rules"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
# Headings get anchors, so that pages can link to a section (contract.md#stability).
myst_heading_anchors = 3
exclude_patterns = ["_build"]
root_doc = "index"
html_theme = "alabaster"
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": False}
# "Python" code in the pages is checked by tests/project/test_docs.py (doctest), not highlighted
# with guesses: a block that fails to lex would otherwise only warn.
highlight_language = "python3"
