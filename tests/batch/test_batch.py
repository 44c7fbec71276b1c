"""Whole archives: worker processes, input order, globs, progress, summary and Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.batch import Batch, BatchSummary, FileReport
from bgtools.cli import app
from bgtools.readers.inputs import expand_paths
from tests.helpers.paths import CORPUS, FILES, REPO, SAMPLES
from tests.helpers.processes import INTERRUPTIBLE_MAIN, alive, children

SELFPLAY = FILES / "selfplay"
runner = CliRunner()


def bgtools(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real program with piped stdout and stderr."""
    full_env = {key: value for key, value in os.environ.items() if key != "BGTOOLS_PROGRESS"}
    full_env.update({"PYTHONPATH": str(REPO), **(env or {})})
    return subprocess.run(
        [sys.executable, "-c", "from bgtools.cli import main; main()", *args],
        capture_output=True, text=True, env=full_env, timeout=600, stdin=subprocess.DEVNULL,
        check=False,
    )


def popen(*args: str, **kwargs: object) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("BGTOOLS_PROGRESS", None)
    return subprocess.Popen(
        [sys.executable, "-c", INTERRUPTIBLE_MAIN, *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
        env=env, **kwargs,  # type: ignore[call-overload]
    )


# --- the Batch runner ------------------------------------------------------------------------


def _square_slowly(n: int) -> int:
    # Earlier items take longer, so that later ones finish first in the workers.
    time.sleep(0.002 * (n % 5))
    return n * n


def _fail_on_three(n: int) -> int:
    if n == 3:
        raise ValueError("three is not welcome")
    return n


def _die_on_two(n: int) -> int:
    if n == 2:
        os._exit(7)
    return n


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_outcomes_come_in_input_order(jobs: int) -> None:
    with Batch(_square_slowly, jobs=jobs) as batch:
        outcomes = list(batch.map(range(40)))
    assert [o.index for o in outcomes] == list(range(40))
    assert [o.value for o in outcomes] == [n * n for n in range(40)]
    assert all(o.failure is None and o.seconds >= 0 for o in outcomes)


def test_inputs_are_drawn_lazily_within_the_window() -> None:
    drawn = 0

    def source() -> Iterator[int]:
        nonlocal drawn
        for n in range(200):
            drawn += 1
            yield n

    ahead = []
    with Batch(_square_slowly, jobs=2, window=6) as batch:
        for outcome in batch.map(source()):
            ahead.append(drawn - outcome.index)
    assert max(ahead) <= 6 + 1
    assert drawn == 200


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_job_is_reported_and_the_batch_goes_on(jobs: int) -> None:
    with Batch(_fail_on_three, jobs=jobs) as batch:
        outcomes = list(batch.map(range(6)))
    assert [o.value for o in outcomes] == [0, 1, 2, None, 4, 5]
    assert outcomes[3].failure == "ValueError: three is not welcome"


def test_a_dead_worker_is_reported_and_replaced() -> None:
    with Batch(_die_on_two, jobs=2) as batch:
        outcomes = list(batch.map(range(8)))
    assert [o.value for o in outcomes] == [0, 1, None, 3, 4, 5, 6, 7]
    assert outcomes[2].failure == "worker process died (exit code 7)"


def _pid(_: int) -> int:
    return os.getpid()


def test_jobs_1_runs_in_process_and_workers_are_started_only_as_needed() -> None:
    with Batch(_pid, jobs=1) as batch:
        assert {o.value for o in batch.map(range(3))} == {os.getpid()}
    with Batch(_pid, jobs=8) as batch:
        pids = {o.value for o in batch.map(range(2))}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2


def test_summary_counts_and_slowest_files() -> None:
    summary = BatchSummary(keep_slowest=2)
    error = {"severity": "error", "rule": "max-dice", "line": 1, "column": 1, "game": 1,
             "message": "m"}
    warning = {**error, "severity": "warning", "rule": "hit-mark"}
    summary.add(FileReport("a", valid=True, rolls=10, problems=(warning,)), 0.5)
    summary.add(FileReport("b", valid=False, rolls=20, problems=(error, error)), 0.1)
    summary.add(FileReport("c", error="c: cannot be read"), 0.9)
    summary.add(FileReport("d", valid=True, rolls=5), 0.2)
    assert (summary.valid, summary.invalid, summary.unreadable, summary.done) == (2, 1, 1, 4)
    assert (summary.errors, summary.warnings, summary.rolls) == (3, 1, 35)
    assert summary.rules == [("max-dice", "error", 2), ("unreadable", "error", 1),
                             ("hit-mark", "warning", 1)]
    assert summary.slowest == [("c", 0, 0.9), ("a", 10, 0.5)]


# --- inputs: directories and globs -------------------------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small tree: match files at several depths, a note and an unrelated file."""
    example = (SAMPLES / "example_gnubg.mat").read_bytes()
    for rel in ["b/deep/z.mat", "b/a.mat", "a.mat", "c/x.txt", "c/y.sgf"]:
        target = tmp_path / "root" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel.endswith(".sgf"):
            target.write_bytes((SAMPLES / "example_gnubg.sgf").read_bytes())
        else:
            target.write_bytes(example)
    (tmp_path / "root" / "c" / "notes.md").write_text("not a record\n")
    return tmp_path / "root"


def _files(args: list[str]) -> list[str]:
    return [display for display, _, _ in expand_paths(args)]


def test_directories_are_walked_recursively_in_sorted_order(tree: Path) -> None:
    assert _files([str(tree)]) == [str(tree / p) for p in
                                   ["a.mat", "b/a.mat", "b/deep/z.mat", "c/x.txt", "c/y.sgf"]]


WALKED = ["a.mat", "b/a.mat", "b/deep/z.mat", "c/x.txt", "c/y.sgf"]
"""The record files of ``tree``, in the order of its walk."""


@pytest.mark.parametrize("cwd, spelling", [
    ("root", "."), ("root", "./"), ("root", "./."), ("root", ".//"), (".", "root"),
    (".", "./root/"), (".", "root//."), ("root/b", "../../root"), ("root/b", ".."),
    (".", "ABSOLUTE/")])
def test_a_walked_file_is_shown_and_read_as_its_path_prints(
        tree: Path, cwd: str, spelling: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The walk joins strings instead of building a Path per file: each file must still be
    # shown as str(Path) prints it, however the directory argument is spelt.
    monkeypatch.chdir(tree.parent / cwd)
    arg = spelling.replace("ABSOLUTE", str(tree))
    walked = list(expand_paths([arg]))
    expected = [str(Path(arg) / rel) for rel in WALKED]
    assert [display for display, _, _ in walked] == expected
    assert [str(path) for _, path, _ in walked] == expected
    assert all(os.path.samefile(str(path), tree / rel) for (_, path, _), rel in zip(walked, WALKED))


def test_globs_expand_sorted_and_recursively(tree: Path) -> None:
    assert _files([f"{tree}/**/*.mat"]) == [str(tree / p) for p in
                                            ["a.mat", "b/a.mat", "b/deep/z.mat"]]
    assert _files([f"{tree}/b/*.mat"]) == [str(tree / "b/a.mat")]
    assert _files([f"{tree}/c/[xy].*"]) == [str(tree / "c/x.txt"), str(tree / "c/y.sgf")]
    # A directory matched by a glob is walked; nothing is listed twice.
    assert _files([f"{tree}/*"]) == _files([str(tree)])
    assert _files([f"{tree}/**"]) == _files([str(tree)]) + [str(tree / "c/notes.md")]


def test_a_glob_matching_nothing_exits_2_like_a_missing_file(tree: Path) -> None:
    pattern = f"{tree}/**/*.nothing"
    result = runner.invoke(app, ["validate", "--json", "-j", "1", f"{tree}/a.mat", pattern])
    assert result.exit_code == 2
    objs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["file"] for o in objs] == [f"{tree}/a.mat", pattern]
    assert objs[1]["problems"][0]["rule"] == "unreadable"
    assert "no file matches" in objs[1]["problems"][0]["message"]


def test_validate_takes_globs_end_to_end(tree: Path) -> None:
    done = bgtools("validate", "--json", "--jobs", "2", f"{tree}/**/*.mat")
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["file"] for line in done.stdout.splitlines()] == \
        [str(tree / p) for p in ["a.mat", "b/a.mat", "b/deep/z.mat"]]


# --- the same output with any number of jobs -------------------------------------------------


def _archives() -> list[Path]:
    return [p for p in (CORPUS, SELFPLAY) if p.is_dir()]


@pytest.mark.slow
def test_jobs_1_and_2_give_identical_output_on_the_corpus() -> None:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    paths = [str(CORPUS), str(SELFPLAY)]
    one = bgtools("validate", "--json", "--jobs", "1", *paths)
    two = bgtools("validate", "--json", "--jobs", "2", *paths)
    assert one.returncode == two.returncode == 2  # unreadable files among them
    assert one.stdout == two.stdout
    assert [json.loads(line)["file"] for line in one.stdout.splitlines()] == _files(paths)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["validate", "score", "pips", "status"])
def test_jobs_1_and_2_give_identical_human_and_json_output(command: str) -> None:
    paths = [str(SAMPLES), str(SELFPLAY)]
    for mode in (["--json"], []) if command in ("validate", "score") else (["--json"],):
        one = bgtools(command, *mode, "--jobs", "1", *paths)
        two = bgtools(command, *mode, "--jobs", "2", *paths)
        assert one.stdout and one.returncode == two.returncode
        assert one.stderr == two.stderr
        if command == "validate" and not mode:  # the summary's timings differ
            assert one.stdout.split("file(s):")[0] == two.stdout.split("file(s):")[0]
        else:
            assert one.stdout == two.stdout


@pytest.mark.slow
def test_selfplay_jobs_1_and_2_identical() -> None:
    one = bgtools("validate", "--json", "-j", "1", str(SELFPLAY))
    two = bgtools("validate", "--json", "-j", "2", str(SELFPLAY))
    assert one.stdout == two.stdout and one.returncode == two.returncode
    assert len(one.stdout.splitlines()) == len(_files([str(SELFPLAY)]))


def test_jobs_must_be_positive() -> None:
    result = runner.invoke(app, ["validate", "--jobs", "0", str(SAMPLES)])
    assert result.exit_code == 2


# --- progress bar and summary ------------------------------------------------------------------


@pytest.mark.slow
def test_no_progress_bar_when_piped_or_in_json_mode() -> None:
    piped = bgtools("validate", "-j", "2", str(SAMPLES), str(SELFPLAY))
    assert "rolls/s" not in piped.stderr and "\x1b[" not in piped.stderr
    assert "\x1b[" not in piped.stdout
    # Even when told that stderr is a terminal, --json gets no bar and stdout is JSON only.
    as_json = bgtools("validate", "--json", "-j", "2", str(SAMPLES), str(SELFPLAY),
                      env={"BGTOOLS_PROGRESS": "1"})
    assert "reading" not in as_json.stderr
    for line in as_json.stdout.splitlines():
        assert json.loads(line)["schema"] == "bgtools/1"
    # The hook itself works: with a "terminal" the bar is drawn on stderr, never on stdout.
    shown = bgtools("validate", "-j", "2", str(SAMPLES), str(SELFPLAY),
                    env={"BGTOOLS_PROGRESS": "1"})
    assert "rolls/s" in shown.stderr and "files" in shown.stderr
    assert "rolls/s" not in shown.stdout.split("file(s):")[0]


def test_summary_counts_a_mixed_directory(tmp_path: Path) -> None:
    text = (SAMPLES / "example_gnubg.mat").read_text()
    (tmp_path / "good.mat").write_text(text)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "bad.mat").write_text(text.replace("63: 13/7 13/10", "63: 13/7 13/9"))
    (tmp_path / "sub" / "worse.mat").write_text(text.replace("63: 13/7 13/10", "63: 13/7 13/9")
                                                .replace("41: 25/21 10/9", "41: 25/21 10/8"))
    (tmp_path / "notes.txt").write_text("just some notes\n")
    # Wide enough that Rich never shortens the long pytest paths in the tables.
    done = bgtools("validate", "--verbose", "--jobs", "2", str(tmp_path), env={"COLUMNS": "300"})
    assert done.returncode == 2
    out = done.stdout
    assert "4 file(s): 1 valid, 2 invalid, 1 unreadable" in out
    rules = out[out.index("problems by rule"):out.index("slowest files")]
    counts = {line.split()[0]: int(line.split()[-1]) for line in rules.splitlines()
              if line.split() and line.split()[-1].isdigit()}
    expected: dict[str, int] = {}
    for line in bgtools("validate", "--json", "--jobs", "1", str(tmp_path)).stdout.splitlines():
        for prob in json.loads(line)["problems"]:
            expected[prob["rule"]] = expected.get(prob["rule"], 0) + 1
    assert counts == expected
    assert counts["unreadable"] == 1 and counts["dice-mismatch"] >= 2
    slowest = out[out.index("slowest files"):out.index("3 file(s) with errors:")]
    assert sum(1 for line in slowest.splitlines() if str(tmp_path) in line) == 4
    failed = out[out.index("3 file(s) with errors:"):].splitlines()[1:]
    assert [line.split()[0] for line in failed] == [
        str(tmp_path / "notes.txt"), str(tmp_path / "sub" / "bad.mat"),
        str(tmp_path / "sub" / "worse.mat")]
    assert failed[0].endswith("unreadable")


# --- streaming and Ctrl-C ----------------------------------------------------------------------


@pytest.fixture
def big_archive(tmp_path: Path) -> tuple[Path, int]:
    """Thousands of match files (links to the corpus, or to the self-play files)."""
    sources = sorted(p for p in (CORPUS if CORPUS.is_dir() else SELFPLAY).rglob("*.mat"))
    count = 0
    copy = 0
    while count < 4000:
        folder = tmp_path / f"copy{copy:03d}"
        folder.mkdir()
        for i, source in enumerate(sources):
            (folder / f"{i:04d}_{source.name}").symlink_to(source)
            count += 1
        copy += 1
    return tmp_path, count


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux /proc")
def test_json_lines_stream_and_ctrl_c_stops_cleanly(big_archive: tuple[Path, int]) -> None:
    folder, total = big_archive
    proc = popen("validate", "--json", "--jobs", "2", str(folder))
    first = proc.stdout.readline() if proc.stdout else ""
    # The first object arrives while the run goes on: output is streamed, not collected.
    assert proc.poll() is None
    assert json.loads(first)["file"].startswith(str(folder / "copy000"))
    workers = children(proc.pid)
    assert len(workers) == 2
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "Traceback" not in out + err
    assert "interrupted after" in err
    lines = [first] + out.splitlines()
    assert 1 <= len(lines) < total
    for line in lines:
        json.loads(line)
    assert not [pid for pid in workers if alive(pid)]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux /proc")
def test_ctrl_c_at_a_terminal_prints_the_summary_and_exits_130(
        big_archive: tuple[Path, int]) -> None:
    folder, total = big_archive
    # A new session, so that the signal reaches the whole process group as Ctrl-C does.
    proc = popen("validate", "--jobs", "2", str(folder), start_new_session=True)
    workers: list[int] = []
    for _ in range(600):
        workers = children(proc.pid)
        if len(workers) == 2:
            break
        time.sleep(0.05)
    assert len(workers) == 2
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "Traceback" not in out + err
    assert "interrupted after" in out
    done = int(out.split("interrupted after ")[1].split()[0])
    assert 0 <= done < total
    assert f"{done} file(s):" in out
    assert not [pid for pid in workers if alive(pid)]
