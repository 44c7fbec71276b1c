"""``bgtools.read_many``: many inputs (files, folders, globs) read with worker processes, in
input order, each as ``bgtools.read`` reads it, or a ``ReadFailure`` in its place."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import bgtools
from tests.helpers.paths import FILES, SAMPLES

SITES = FILES / "sites"


def expected_paths() -> list[Path]:
    """The inputs of :func:`inputs`, in the order the command line takes them."""
    return [FILES / "money_raccoons.mat",
            *sorted(SAMPLES.iterdir()),
            *sorted(SAMPLES.glob("*.sgf")),
            FILES / "corpus" / "xg-binary" / "B4_SrGcsKAQmoTyHlgJCbM.xg"]


def inputs() -> list[str | Path]:
    """A file, a folder, a glob and a binary file."""
    return [FILES / "money_raccoons.mat", str(SAMPLES), str(SAMPLES / "*.sgf"),
            FILES / "corpus" / "xg-binary" / "B4_SrGcsKAQmoTyHlgJCbM.xg"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_read_many_reads_each_input_in_order_as_read_does(jobs: int) -> None:
    got = list(bgtools.read_many(inputs(), jobs=jobs))
    want = [bgtools.read(path) for path in expected_paths()]
    assert [f.path for f in got if isinstance(f, bgtools.MatchFile)] == [f.path for f in want]
    assert got == want


def test_one_worker_and_two_give_the_same() -> None:
    assert list(bgtools.read_many(inputs(), jobs=1)) == list(bgtools.read_many(inputs(), jobs=2))


def test_an_unreadable_input_gives_a_failure_in_its_place(tmp_path: Path) -> None:
    empty = tmp_path / "empty.mat"
    empty.write_bytes(b"")
    missing = tmp_path / "missing.mat"
    got = list(bgtools.read_many([empty, SAMPLES / "example_gnubg.mat", missing,
                                  str(tmp_path / "*.sgf")], jobs=2))
    assert [type(result).__name__ for result in got] == [
        "ReadFailure", "MatchFile", "ReadFailure", "ReadFailure"]
    failure = got[0]
    assert isinstance(failure, bgtools.ReadFailure)
    with pytest.raises(bgtools.UnsupportedFormatError) as raised:
        bgtools.read(empty)
    assert failure.path == str(empty)
    assert str(raised.value) in failure.message
    assert pickle.loads(pickle.dumps(failure)) == failure
    assert "no such file" in got[2].message  # type: ignore[union-attr]
    assert str(missing) in got[2].message  # type: ignore[union-attr]


def test_format_is_the_format_every_input_must_be_in() -> None:
    got = list(bgtools.read_many([SAMPLES / "example_gnubg.mat", SAMPLES / "example_gnubg.sgf"],
                                 format="sgf"))
    assert isinstance(got[0], bgtools.ReadFailure)
    assert got[1] == bgtools.read(SAMPLES / "example_gnubg.sgf")
    with pytest.raises(ValueError, match="unknown format"):
        list(bgtools.read_many(SAMPLES, format="pgn"))  # type: ignore[arg-type]


def test_one_path_is_taken_as_a_list_of_one() -> None:
    assert list(bgtools.read_many(SAMPLES / "example_gnubg.mat")) == [
        bgtools.read(SAMPLES / "example_gnubg.mat")]
