"""The Smile decoder of BGBlitz bodies: malformed input is a SmileError, never another
exception (the fuzz tests find such cases; each one found is kept here)."""

from __future__ import annotations

import pytest

from bgtools.readers.smile import SmileError, decode_smile


def test_a_smile_big_decimal_with_a_scale_out_of_range_is_malformed() -> None:
    """Found by the fuzz test: Decimal.scaleb raised InvalidOperation through the reader."""
    huge_scale = b"\x2a" + b"\x7f\x7f\x7f\x7f\xbf" + b"\x81" + b"\x00\x40"
    with pytest.raises(SmileError, match="out of range"):
        decode_smile(b":)\n\x00" + huge_scale)
