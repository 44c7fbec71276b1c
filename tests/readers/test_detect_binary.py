"""``read.detect`` skips the binary readers for text: it relies on every file they accept
starting with one of ``BINARY_STARTS``. Held here against the readers' own checks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgtools.errors import UnsupportedFormatError
from bgtools.readers.bgf import looks_like_bgf
from bgtools.readers.detect import BINARY_STARTS
from bgtools.readers.xg import looks_like_xg
from tests.helpers.paths import REPO, corpus_file


@given(st.binary(max_size=64))
def test_the_binary_readers_accept_nothing_that_starts_otherwise(data: bytes) -> None:
    for candidate in (data, b"RGMH" + data, b'{"format":"BGF"' + data, b"{" + data):
        if looks_like_xg(candidate) or looks_like_bgf(candidate):
            assert candidate.startswith(BINARY_STARTS)


def test_binary_files_of_both_formats_start_so(corpus: Path) -> None:
    for relative in ("xg-binary", "bgblitz"):
        folder = corpus_file(corpus, relative)
        files = [p for p in folder.iterdir() if p.suffix in (".xg", ".bgf", ".xgp")]
        assert files, folder
        for path in files:
            assert path.read_bytes().startswith(BINARY_STARTS), path


def test_validating_a_mat_file_loads_no_binary_reader() -> None:
    probe = ("import sys; from bgtools.cli import main\n"
             "sys.argv = ['bgtools', 'validate', '--json', 'samples/example_gnubg.mat']\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m in ('bgtools.readers.xg', "
             "'bgtools.readers.bgf', 'bgtools.readers.smile', 'zlib_ng')), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True,
                          text=True, check=False, timeout=120)
    assert done.stderr.strip().splitlines()[-1] == "[]", done.stderr


def test_a_dos_end_of_file_mark_or_nul_padding_is_not_part_of_the_record() -> None:
    from bgtools.readers.detect import read_records
    from bgtools.replay.match import replay_match

    data = (REPO / "samples" / "example_gnubg.mat").read_bytes()
    plain = replay_match(read_records(data).records[0])
    assert not plain.problems  # the sample is clean: any problem a tail brings shows
    for tail in (b"\x1a", b"\x00" * 3, b"\x1a\x00\x00"):
        padded = replay_match(read_records(data + tail).records[0])
        assert padded.problems == plain.problems
        assert padded.final_score == plain.final_score
    for only in (b"\x1a", b"\x00" * 8, b"\n\x1a"):  # nothing but padding: an empty file
        with pytest.raises(UnsupportedFormatError, match="is empty"):
            read_records(only)
