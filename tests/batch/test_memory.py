"""Memory over many files: a run keeps nothing per file (issues 15 and 16).

Each test runs one piece of the batch pipeline in this process over a small and a ten times
larger tree of hard links and compares the most memory held between two files (traced by
tracemalloc): a path, report or row kept per file would make the larger run's grow by
hundreds of bytes a file. The peak RSS of
the real commands on 10^3 to 10^5 files is measured by ``benchmarks/bench_memory.py``.
"""

from __future__ import annotations

import json
import os
import pathlib
import sys
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import rich

from bgtools.batch import Batch, BatchSummary, FileReport, Input, validate_report
from bgtools.cli.progress import run_batch
from bgtools.readers.inputs import count_inputs, expand_paths
from tests.helpers.paths import REPO

SAMPLE = REPO / "samples" / "example_gnubg.mat"

SMALL, LARGE = 400, 4000
"""Files in the small and the large tree."""

ALLOWED_GROWTH = 64 * 1024
"""Bytes the larger run's peak may exceed the smaller's by: 18 bytes a file at most over
the 3,600 more files (what a path kept per file costs is ten times that)."""


def _link(source: Path, target: Path) -> None:
    """``target`` as a hard link of ``source`` (a copy where links fail)."""
    try:
        os.link(source, target)
    except OSError:
        target.write_bytes(source.read_bytes())


def _tree(top: Path, count: int, per_directory: int = 100) -> Path:
    """``count`` hard links of the sample under ``top``, ``per_directory`` a directory.
    They link to a copy in ``top``'s parent, so that the sample's own count of links
    (65,000 at most on ext4) is left alone."""
    source = top.parent / SAMPLE.name
    if not source.exists():
        source.write_bytes(SAMPLE.read_bytes())
    for i in range(count):
        folder = top / f"d{i // per_directory:03d}"
        if i % per_directory == 0:
            folder.mkdir(parents=True)
        _link(source, folder / f"{i:05d}.mat")
    return top


@pytest.fixture(scope="module")
def trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The small and the large tree."""
    base = tmp_path_factory.mktemp("memory")
    return _tree(base / "small", SMALL), _tree(base / "large", LARGE)


@pytest.fixture(scope="module")
def replayed_trees(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A small and a large tree for the jobs that replay every file (a tenth of ``trees``:
    what a kept report or row costs a file still shows)."""
    base = tmp_path_factory.mktemp("replayed")
    return _tree(base / "small", SMALL // 10, 10), _tree(base / "large", LARGE // 10, 10)


_NOT_PER_FILE = (
    # pathlib interns the parts of every path it parses: the interpreter's table of
    # interned strings grows and shrinks with them, by a megabyte or two at a time.
    tracemalloc.Filter(False, pathlib.__file__),
    # Rich keeps what it draws in caches and samples of its own, each of a bounded size.
    tracemalloc.Filter(False, os.path.join(os.path.dirname(rich.__file__), "*")),
)


def _held(run: Callable[[Callable[[], None]], object], files: int) -> int:
    """The memory held after the last but one of ``files`` files, when everything kept per
    file would be there: ``run`` calls the function it is given after each file. Counted
    by tracemalloc, without what pathlib and Rich allocate (:data:`_NOT_PER_FILE`)."""
    calls = 0
    held: int | None = None

    def sample() -> None:
        nonlocal calls, held
        calls += 1
        if calls == files - 1:
            snapshot = tracemalloc.take_snapshot().filter_traces(_NOT_PER_FILE)
            held = sum(stat.size for stat in snapshot.statistics("filename"))

    tracemalloc.start()
    try:
        run(sample)
    finally:
        tracemalloc.stop()
    assert held is not None
    return held


def _growth(trees: tuple[Path, Path], run: Callable[[Path, Callable[[], None]], object],
            small_files: int = SMALL, large_files: int = LARGE) -> int:
    """How much more memory is held on the large tree than on the small (after a first
    run on the small one, untraced, that fills the caches and imports the modules)."""
    small, large = trees
    run(small, lambda: None)
    return (_held(lambda sample: run(large, sample), large_files)
            - _held(lambda sample: run(small, sample), small_files))


def _no_replay(item: Input) -> FileReport:
    """A job that reads nothing: the pipeline's own memory (walk, pool, summary)."""
    return FileReport(item[0], valid=True, rolls=1)


@pytest.mark.parametrize("progress", ["0", "1"], ids=["no-bar", "progress-bar"])
@pytest.mark.parametrize("glob", [False, True], ids=["directory", "glob"])
def test_the_batch_pipeline_keeps_nothing_per_file(
        trees: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, progress: str,
        glob: bool) -> None:
    # The progress bar needs a total; it used to come from a list of every input. A glob
    # matching directories used to keep every file walked, to list none twice.
    monkeypatch.setenv("BGTOOLS_PROGRESS", progress)
    # The bar's frames go nowhere (captured, they would pile up in memory).
    devnull = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    monkeypatch.setattr(sys, "stderr", devnull)
    seen: list[int] = []

    def run(top: Path, sample: Callable[[], None]) -> None:
        summary = run_batch(_no_replay, [str(top / "*") if glob else str(top)], 1, False,
                            lambda report: sample())
        seen.append(summary.done)

    assert _growth(trees, run) < ALLOWED_GROWTH
    devnull.close()
    assert seen == [SMALL, LARGE, SMALL]


def test_validate_over_many_files_keeps_nothing_per_file(
        replayed_trees: tuple[Path, Path]) -> None:
    # The real job: read and replay every file, print its JSON object, count the summary.
    def run(top: Path, sample: Callable[[], None]) -> None:
        def report(result: FileReport) -> None:
            json.dumps(result.objects[0])
            sample()

        summary = run_batch(validate_report, [str(top)], 1, True, report)
        assert summary.valid == summary.done

    assert _growth(replayed_trees, run, SMALL // 10, LARGE // 10) < ALLOWED_GROWTH


def test_a_flat_directory_costs_no_more_than_its_sorted_names(tmp_path: Path) -> None:
    # A sorted walk must list a whole directory; it keeps its names and nothing else per
    # file (not a Path, a tuple, a copy of the list, or an interned copy of each name).
    top = tmp_path / "flat"
    top.mkdir()
    source = tmp_path / SAMPLE.name
    source.write_bytes(SAMPLE.read_bytes())
    names = [f"{i:05d}.mat" for i in range(LARGE)]
    for name in names:
        _link(source, top / name)

    def walk(sample: Callable[[], None]) -> None:
        for _ in expand_paths([str(top)]):
            sample()

    names_size = sum(len(name) + 49 + 8 for name in names)  # the str objects, the list
    assert _held(walk, LARGE) < names_size + ALLOWED_GROWTH


def test_the_walk_interns_no_file_name(trees: tuple[Path, Path]) -> None:
    # pathlib interns every part it parses: a Path per walked file would put each new name
    # in the interpreter's table of interned strings, whose resizing grew the peak memory
    # of 10^5 files by 0.65 MB. While the walk's item is alive, an equal string must still
    # be new to the table.
    small, _ = trees
    checked = 0
    for _, path, _ in expand_paths([str(small)]):
        name = os.path.basename(os.fspath(path or ""))
        probe = "".join(list(name))  # a new object equal to the name
        assert sys.intern(probe) is probe, f"{name} was interned by the walk"
        checked += 1
    assert checked == SMALL


def test_the_progress_total_counts_what_the_walk_yields(trees: tuple[Path, Path]) -> None:
    small, _ = trees
    args = [str(small / "d000"), str(small / "d00*"), str(small / "missing"), "-"]
    expected = sum(1 for arg in args[:-1] for _ in expand_paths([arg])) + 1
    assert count_inputs(args) == expected == 100 + SMALL + 1 + 1


def test_the_summary_keeps_a_bounded_number_of_files() -> None:
    summary = BatchSummary()
    for i in range(10_000):
        summary.add(FileReport(f"f{i}.mat", error="f: cannot be read") if i % 2
                    else FileReport(f"f{i}.mat", problems=({"rule": "r", "severity": "error"},)),
                    seconds=i % 7 / 1000)
    assert len(summary.failed) == summary.keep_failed
    assert len(summary.slowest) == summary.keep_slowest
    assert summary.failed_count == summary.done == 10_000
    assert [f for f, _ in summary.failed] == [f"f{i}.mat" for i in range(summary.keep_failed)]


def test_the_pool_draws_no_further_ahead_than_its_window() -> None:
    drawn = 0
    yielded = 0
    ahead: list[int] = []

    def source() -> Iterator[int]:
        nonlocal drawn
        for i in range(2_000):
            drawn += 1
            ahead.append(drawn - yielded)
            yield i

    with Batch(abs, jobs=2, window=8) as batch:
        for outcome in batch.map(source()):
            assert outcome.index == yielded
            yielded += 1
    assert yielded == 2_000
    assert max(ahead) <= 8 + 1
