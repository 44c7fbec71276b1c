"""Turn the bytes of a record file into text: BOM, encoding guess and line ends."""

from __future__ import annotations

__all__ = ["decode_bytes", "normalise_newlines"]

_BOM = b"\xef\xbb\xbf"


def normalise_newlines(text: str) -> str:
    """Replace CRLF and lone CR by LF (each line end stays one line end)."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Decode ``data`` and return ``(text, encoding)`` with LF line ends.

    A UTF-8 BOM is removed (encoding ``"utf-8-sig"``); then strict UTF-8 is tried, else
    cp1252, else latin-1 (which never fails).
    """
    had_bom = data.startswith(_BOM)
    if had_bom:
        data = data[len(_BOM):]
    try:
        text = data.decode("utf-8")
        encoding = "utf-8-sig" if had_bom else "utf-8"
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
            encoding = "cp1252"
        except UnicodeDecodeError:
            text = data.decode("latin-1")
            encoding = "latin-1"
    return normalise_newlines(text), encoding
