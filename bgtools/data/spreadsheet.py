"""CSV cells that a spreadsheet shows as text, never runs as a formula.

A spreadsheet that opens a CSV file takes a cell beginning with ``=``, ``+``, ``-`` or
``@`` for a formula (``=HYPERLINK(...)``, ``@SUM(...)``, ``-2+3``) and may run it. A file
name or a player's name is the file's author's text: :func:`text_cell` writes such a cell
with a leading ``'``, which spreadsheets read as "text follows". Only cells of free text
taken from the files go through it (``export``'s ``file``, ``standings``' ``player`` and
``opponent``): numbers stay numbers (``-3``), and the IDs bgtools computes stay whole.
"""

from __future__ import annotations

__all__ = ["FORMULA_STARTS", "text_cell"]

FORMULA_STARTS = frozenset("=+-@")
"""The characters that make a spreadsheet read a cell as a formula."""

_STANDARD_INPUT = "-"


def text_cell(text: str) -> str:
    """``text`` as a CSV cell of text: prefixed with ``'`` when it begins with one of
    :data:`FORMULA_STARTS`; a lone ``-`` (standard input's name, no formula) stays."""
    if text[:1] in FORMULA_STARTS and text != _STANDARD_INPUT:
        return "'" + text
    return text
