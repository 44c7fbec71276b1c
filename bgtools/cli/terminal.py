"""Text from a file made safe for a terminal: the one function for it, :func:`terminal_text`.

A player's name, a play, a tag or a file name is the file's author's text. Printed raw, an
ESC or OSC sequence in it would recolour the terminal, set its title, hide or rewrite
lines, and a line break would forge a line of output (a fake ``error[...]``). The CLI's
human output shows every control character as ``\\xNN`` instead: everything drawn by its
Rich consoles (see :func:`bgtools.cli.application.make_console`) and every line it writes itself
(errors, notes, problems, the board). The JSON output is left as it is: ``json.dumps``
escapes control characters already, and a program reads it.
"""

from __future__ import annotations

__all__ = ["CONTROL_CHARACTERS", "terminal_text"]

CONTROL_CHARACTERS = frozenset([*range(0x20), *range(0x7F, 0xA0)])
"""The code points shown escaped: C0 (line breaks and tabs included), DEL and C1 (which some
terminals read as ESC sequences: U+009B is a CSI)."""

_ESCAPES = {code: f"\\x{code:02x}" for code in CONTROL_CHARACTERS}


def terminal_text(text: str) -> str:
    """``text`` with every control character written as ``\\xNN`` (``\\x1b`` for ESC,
    ``\\x0a`` for a line break), so that it prints as one harmless run of characters."""
    if text.isprintable():  # nearly always: no copy
        return text
    return text.translate(_ESCAPES)

