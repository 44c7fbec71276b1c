"""The limits on decoded documents (JSON text, a ``.bgf`` body): values and string lengths.

A JSON text is refused before it is parsed when it may hold more than
:data:`~bgtools.limits.MAX_ELEMENTS` values (counted by its commas and opening brackets:
a bound, in one pass in C), and after, when a string in it (a member's name or value) is
longer than :data:`~bgtools.limits.MAX_STRING_CHARS`. Both raise
:class:`~bgtools.errors.LimitExceededError` naming the limit.
"""

from __future__ import annotations

from bgtools.errors import LimitExceededError
from bgtools.limits import MAX_ELEMENTS, MAX_STRING_CHARS, format_count

__all__ = ["check_json_values", "check_strings", "long_string_error"]


def check_json_values(text: str | bytes, name: str) -> None:
    """Refuse a JSON text that may hold more than MAX_ELEMENTS values: each value but the
    first follows a comma or opens an array or object."""
    if isinstance(text, str):
        bound = text.count(",") + text.count("[") + text.count("{")
    else:
        bound = text.count(b",") + text.count(b"[") + text.count(b"{")
    if bound > MAX_ELEMENTS:
        raise LimitExceededError(
            f"{name} holds up to {format_count(bound)} JSON values; the limit MAX_ELEMENTS "
            f"is {format_count(MAX_ELEMENTS)}", "MAX_ELEMENTS", MAX_ELEMENTS)


def long_string_error(name: str, length: int) -> LimitExceededError:
    """The error of a string of ``length`` characters in ``name`` (beyond MAX_STRING_CHARS)."""
    return LimitExceededError(
        f"{name} holds a string of {format_count(length)} characters; the limit "
        f"MAX_STRING_CHARS is {format_count(MAX_STRING_CHARS)}", "MAX_STRING_CHARS",
        MAX_STRING_CHARS)


def check_strings(document: object, name: str) -> None:
    """Refuse a decoded document holding a string (a value or a member's name) longer
    than MAX_STRING_CHARS; a walk with a stack of its own, never a recursion."""
    pending = [document]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if len(value) > MAX_STRING_CHARS:
                raise long_string_error(name, len(value))
        elif isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, dict):
            pending.extend(value)  # the names
            pending.extend(value.values())
