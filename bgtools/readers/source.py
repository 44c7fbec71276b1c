"""Turn the bytes of a record file into text: BOM, encoding guess and line ends."""

from __future__ import annotations

import codecs

from bgtools.dataclass_methods import FrozenFieldMethods, prebuilt_dataclass

__all__ = ["DecodedText", "decode_bytes", "decode_stated", "decode_text", "decode_utf16",
           "normalise_newlines", "printable_path"]

_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


# A prebuilt dataclass (bgtools.dataclass_methods): dataclasses would compile its methods from
# source at every import of a text reader.
@prebuilt_dataclass
class DecodedText(FrozenFieldMethods):
    """Decoded text with LF line ends, the encoding assumed, and where UTF-8 failed.

    ``first_bad_line`` is the 1-based line of the first byte that is not UTF-8 (None when
    the file is UTF-8).
    """

    text: str
    encoding: str
    first_bad_line: int | None = None


def normalise_newlines(text: str) -> str:
    """Replace CRLF and lone CR by LF (each line end stays one line end)."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def decode_text(data: bytes) -> DecodedText:
    """Decode ``data``: a UTF-8 BOM is removed (encoding ``"utf-8-sig"``); then strict
    UTF-8 is tried, else cp1252, else latin-1 (which never fails)."""
    had_bom = data.startswith(_BOM)
    if had_bom:
        data = data[len(_BOM):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad_line = data.count(b"\n", 0, exc.start) + data.count(b"\r", 0, exc.start) \
            - data.count(b"\r\n", 0, exc.start) + 1
        try:
            text, encoding = data.decode("cp1252"), "cp1252"
        except UnicodeDecodeError:
            text, encoding = data.decode("latin-1"), "latin-1"
        return DecodedText(normalise_newlines(text), encoding, bad_line)
    return DecodedText(normalise_newlines(text), "utf-8-sig" if had_bom else "utf-8")


def decode_stated(data: bytes, charset: str) -> DecodedText | None:
    """Decode ``data`` in the ``charset`` the file itself states (SGF ``CA[ISO-8859-1]``),
    a UTF-8 BOM removed as by :func:`decode_text`; None when Python knows no such charset or
    the bytes are not in it."""
    try:
        codec = codecs.lookup(charset)
        text = data.removeprefix(_BOM).decode(codec.name)
    except (LookupError, UnicodeDecodeError):
        return None
    return DecodedText(normalise_newlines(text), codec.name)


def decode_utf16(data: bytes) -> DecodedText | None:
    """Decode ``data`` as UTF-16 when it begins with a UTF-16 byte-order mark (what Windows
    PowerShell's ``>`` and Notepad's "Unicode" write), the mark removed, and Ctrl-Z or NUL
    characters at the end dropped as for other text; None when it has no such mark or is not
    valid UTF-16 (an odd length, a lone surrogate)."""
    if not data.startswith(_UTF16_BOMS):
        return None
    try:
        text = data.decode("utf-16")
    except UnicodeDecodeError:
        return None
    return DecodedText(normalise_newlines(text.rstrip("\x1a\x00")), "utf-16")


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Decode ``data`` and return ``(text, encoding)`` with LF line ends (see decode_text)."""
    decoded = decode_text(data)
    return decoded.text, decoded.encoding


def printable_path(arg: str) -> str:
    """A path as given, made printable as UTF-8: bytes that are not UTF-8 in a file name
    (``m\\xfcller.mat`` from a Latin-1 system) are written as ``\\xNN`` escapes."""
    try:
        arg.encode("utf-8")
    except UnicodeEncodeError:
        try:
            raw = arg.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:  # a lone surrogate that no file name produced
            return arg.encode("utf-8", "backslashreplace").decode("utf-8")
        return raw.decode("utf-8", "backslashreplace")
    return arg
