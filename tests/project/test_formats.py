"""The format registries (issue 39): one row per format in bgtools.readers.formats (reading)
and bgtools.write.formats (writing), and every list of formats bgtools shows read from them."""

from __future__ import annotations

import importlib
import subprocess
import sys
from typing import get_args

import pytest

from bgtools.readers import detect, formats
from bgtools.readers.formats import READ_FORMATS, READERS, FormatName
from bgtools.write.formats import WRITE_FORMATS, WRITERS, WriteFormatName, Writer, writer


def _resolves(reference: str) -> bool:
    module, _, function = reference.partition(":")
    return callable(getattr(importlib.import_module(module), function, None))


def test_every_read_format_has_one_row() -> None:
    assert sorted(row.name for row in READERS) == sorted(get_args(FormatName))
    assert get_args(FormatName) == READ_FORMATS


def test_every_write_format_has_one_row() -> None:
    assert sorted(row.name for row in WRITERS) == sorted(get_args(WriteFormatName))
    assert get_args(WriteFormatName) == WRITE_FORMATS
    for name in WRITE_FORMATS:
        assert writer(name).name == name
    with pytest.raises(KeyError):
        writer("xg")


@pytest.mark.parametrize("row", READERS, ids=lambda row: row.name)
def test_reader_rows_name_real_functions(row: formats.Reader) -> None:
    assert _resolves(row.recognise)
    assert _resolves(row.read)
    assert row.suffixes and all(s.startswith(".") and s == s.lower() for s in row.suffixes)
    assert bool(row.starts) == row.binary  # a binary format is tested by its magic first


@pytest.mark.parametrize("row", WRITERS, ids=lambda row: row.name)
def test_writer_rows_name_real_functions(row: Writer) -> None:
    assert _resolves(row.write)


def test_no_extension_names_two_formats() -> None:
    suffixes = [s for row in READERS for s in row.suffixes]
    assert len(suffixes) == len(set(suffixes))
    assert set(detect.RECORD_SUFFIXES) == set(suffixes)
    written = [s for row in WRITERS for s in row.suffixes]
    assert len(written) == len(set(written))
    # Every extension bgtools writes is one the directory walk reads back.
    assert set(written) <= set(suffixes)


def test_unrecognised_message_lists_every_format() -> None:
    listed = formats.recognised_formats()
    for row in READERS:
        assert row.title in listed


def test_text_detection_imports_no_binary_reader() -> None:
    """Recognising a text record imports no binary reader (start-up time): the rows' magic
    bytes are tested before their modules are loaded (in a fresh interpreter)."""
    code = ("import sys; from bgtools.readers.detect import read_records; "
            "read_records(b' 1 point match\\n\\n Game 1\\n A : 0   B : 0\\n', 'x.mat'); "
            "print(sorted(m for m in sys.modules if m.startswith('bgtools.readers.')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout
    assert "bgtools.readers.mat" in loaded
    for binary in ("xg", "bgf", "sgf", "json"):
        assert f"'bgtools.readers.{binary}'" not in loaded


def test_convert_help_lists_every_written_format() -> None:
    """``convert --to``'s metavar (written out in the command module, which imports no more
    than it needs at load time) names exactly the formats of WRITERS."""
    from bgtools.cli.convert import TO_METAVAR

    assert TO_METAVAR.split("|") == list(WRITE_FORMATS)
