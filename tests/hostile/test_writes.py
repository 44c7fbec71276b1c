"""Writes that never replace what is not ours (issue 38): streams written through, modes
kept, the input never overwritten (also as standard input), no target outside ``-o DIR/``;
SIGTERM and SIGHUP handled as Ctrl-C, workers that die with their parent; globs that follow
no link to a directory; the smaller cases (HTML, CSV cells, an empty path, ``--jobs``, the
library's typed errors).

Nothing here touches a file outside ``tmp_path``: a device is a mocked ``stat``, a
process's open file a link to ``/proc/self/fd/N`` of a file in ``tmp_path``.
"""

from __future__ import annotations

import csv
import glob
import io
import json
import os
import select
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bgtools
from bgtools.cli import app
from bgtools.errors import (
    BgtoolsError,
    InvalidPathError,
    OutputRefusedError,
    UnwritableOutputError,
)
from bgtools.readers.inputs import glob_matches
from bgtools.write import atomic
from bgtools.write.atomic import check_output, write_atomically
from tests.helpers.pages import page_frames
from tests.helpers.paths import REPO
from tests.helpers.processes import INTERRUPTIBLE_MAIN, alive, children, has_open, run_bgtools

SAMPLE = REPO / "samples" / "example_gnubg.mat"
runner = CliRunner()
LINUX_PROC = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs Linux /proc")


def invoke(args: list[str]) -> tuple[int, str, str]:
    """``bgtools ARGS`` in this process: exit code, stdout, stderr (no exception escapes)."""
    result = runner.invoke(app, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"bgtools {args} raised {result.exception!r}") from result.exception
    return result.exit_code, result.stdout, result.stderr


def names(directory: Path) -> set[str]:
    """The names in ``directory``."""
    return {p.name for p in directory.iterdir()}


class FifoReader:
    """Holds a FIFO open (read and write, so that a writer never blocks on opening it) and
    gathers what is written into it, in a thread, until :meth:`finish`."""

    def __init__(self, fifo: Path) -> None:
        self.fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        self.data = bytearray()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._gather, daemon=True)
        self.thread.start()

    def _gather(self) -> None:
        while True:
            finishing = self.done.is_set()  # before the select: it then sees all written
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if ready:
                self.data += os.read(self.fd, 1 << 16)
            elif finishing:
                return

    def finish(self) -> bytes:
        """Everything written so far (waits for the pipe to be empty)."""
        self.done.set()
        self.thread.join(timeout=30)
        os.close(self.fd)
        return bytes(self.data)


# --- item 7: never replace a FIFO, a device or a process's open file; keep the mode ---------


WRITERS: dict[str, tuple[list[str], bytes]] = {
    "convert": (["convert", str(SAMPLE), "--to", "mat", "--force", "-o"], b"Game 1"),
    "export": (["export", str(SAMPLE), "--to", "csv", "--force", "-o"], b"position_id_before"),
    "show --svg": (["show", str(SAMPLE), "--force", "--svg"], b"<svg"),
    "show --html": (["show", str(SAMPLE), "--force", "--html"], b"<!DOCTYPE html>"),
}
"""Each command that writes a file: its arguments, the target's option last (the test
gives the target), and a piece its output must hold."""


@pytest.mark.parametrize("through_link", [False, True], ids=["fifo", "link-to-fifo"])
@pytest.mark.parametrize("command", ["convert", "export", "show --svg", "show --html"])
def test_force_writes_through_a_fifo_and_never_replaces_it(
        tmp_path: Path, command: str, through_link: bool) -> None:
    """The probe: ``export ... -o /dev/null --force`` as root replaced /dev/null with a
    regular file. A FIFO stands for it here."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    target = fifo
    if through_link:
        target = tmp_path / "link"
        target.symlink_to(fifo)
    args, expected = WRITERS[command]
    reader = FifoReader(fifo)
    try:
        code, _, err = invoke([*args, str(target)])
    finally:
        written = reader.finish()
    assert code == 0, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced"
    assert through_link == target.is_symlink()
    assert expected in written
    assert names(tmp_path) == ({"fifo", "link"} if through_link else {"fifo"})


def test_stats_plot_writes_through_a_fifo(tmp_path: Path) -> None:
    """``stats --plot`` writes through the same writer (with matplotlib installed)."""
    pytest.importorskip("matplotlib")
    fifo = tmp_path / "plot.svg"
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    try:
        code, _, err = invoke(["stats", str(SAMPLE), "--plot", str(fifo), "--force"])
    finally:
        written = reader.finish()
    assert code == 0, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and b"<svg" in written


@LINUX_PROC
def test_a_link_to_an_open_file_is_written_through_not_replaced(tmp_path: Path) -> None:
    """``-o /dev/stdout`` with stdout a regular file: /dev/stdout is a link into /proc, and
    renaming over it replaced the system's link. A link to /proc/self/fd/N stands for it;
    the file open as N gets the output, the link stays."""
    sink = tmp_path / "sink.mat"
    fd = os.open(sink, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        link = tmp_path / "stdout"
        link.symlink_to(f"/proc/self/fd/{fd}")
        code, _, err = invoke(["convert", str(SAMPLE), "--to", "mat", "--force", "-o", str(link)])
    finally:
        os.close(fd)
    assert code == 0, err
    assert link.is_symlink()
    assert b"Game 1" in sink.read_bytes()
    assert names(tmp_path) == {"sink.mat", "stdout"}


def _stat_as(mode: int, real: os.stat_result) -> os.stat_result:
    fields = list(real)
    fields[stat.ST_MODE] = mode
    return os.stat_result(fields)


@pytest.mark.parametrize("kind, stream", [(stat.S_IFCHR, True), (stat.S_IFBLK, False),
                                              (stat.S_IFSOCK, False)],
                         ids=["character device", "block device", "socket"])
def test_devices_are_written_through_or_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 kind: int, stream: bool) -> None:
    """A device is a mocked stat of a file in tmp_path (no device is made or touched): a
    character device (/dev/null, a terminal) is a stream, a block device or socket is
    refused, with or without overwrite; neither is ever renamed over."""
    target = tmp_path / "device"
    target.write_bytes(b"")
    real_stat = os.stat

    def fake_stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        result = real_stat(path, *args, **kwargs)  # type: ignore[arg-type]
        if os.fspath(path) == str(target):  # type: ignore[arg-type]
            return _stat_as(kind | 0o666, result)
        return result

    monkeypatch.setattr(atomic.os, "stat", fake_stat)
    for overwrite in (False, True):
        if stream:
            assert check_output(target, overwrite=overwrite) is True
        else:
            with pytest.raises(OutputRefusedError, match="does not replace it"):
                check_output(target, overwrite=overwrite)
    renamed: list[object] = []
    monkeypatch.setattr(atomic.os, "replace", lambda *a: renamed.append(a))
    if stream:
        write_atomically(target, "through", overwrite=True)
        assert target.read_text() == "through"
    else:
        with pytest.raises(OutputRefusedError):
            write_atomically(target, "x", overwrite=True)
        assert target.read_bytes() == b""
    assert not renamed and names(tmp_path) == {"device"}


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o604])
def test_force_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path, mode: int) -> None:
    """``--force`` on a 600 file left it 644 (the umask's)."""
    target = tmp_path / "out.mat"
    target.write_text("old")
    target.chmod(mode)
    code, _, err = invoke(["convert", str(SAMPLE), "-o", str(target), "--force"])
    assert code == 0, err
    assert "Game 1" in target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == mode
    write_atomically(target, "again", overwrite=True)
    assert stat.S_IMODE(target.stat().st_mode) == mode


# --- item 8: standard input's file, and targets outside -o DIR/ -----------------------------


@pytest.mark.parametrize("command", [["convert", "-", "--to", "mat"],
                                     ["export", "-", "--to", "csv"]], ids=["convert", "export"])
def test_standard_input_redirected_from_the_target_is_refused(tmp_path: Path,
                                                               command: list[str]) -> None:
    """``convert - -o in.mat --force < in.mat`` overwrote its input."""
    source = tmp_path / "in.mat"
    source.write_bytes(SAMPLE.read_bytes())
    before = source.read_bytes()
    with source.open("rb") as stdin:
        done = run_bgtools([*command, "-o", str(source), "--force"], stdin=stdin)
    assert done.returncode == 2, done.stderr
    assert b"is the input file" in done.stderr
    assert source.read_bytes() == before
    assert names(tmp_path) == {"in.mat"}


def test_standard_input_from_another_file_is_written(tmp_path: Path) -> None:
    """Standard input redirected from another file: the target is written as before."""
    source = tmp_path / "in.mat"
    source.write_bytes(SAMPLE.read_bytes())
    target = tmp_path / "out.mat"
    target.write_text("old")
    with source.open("rb") as stdin:
        done = run_bgtools(["convert", "-", "-o", str(target), "--force"], stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert "Game 1" in target.read_text()


def _tree_with_a_way_out(tmp_path: Path) -> Path:
    (tmp_path / "trav" / "a").mkdir(parents=True)
    (tmp_path / "x.mat").write_bytes(SAMPLE.read_bytes())
    (tmp_path / "trav" / "a" / "y.mat").write_bytes(SAMPLE.read_bytes())
    (tmp_path / "out").mkdir()
    return tmp_path


def test_a_glob_match_outside_the_output_directory_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``convert 'trav/*/../../x.mat' -o out/`` wrote out/a/../../x.json, outside out/."""
    monkeypatch.chdir(_tree_with_a_way_out(tmp_path))
    code, _, err = invoke(["convert", "trav/*/../../x.mat", "trav/**/*.mat", "-o", "out/"])
    assert code == 2
    assert "lies outside out" in err
    assert not (tmp_path / "x.json").exists()
    assert (tmp_path / "out" / "a" / "y.json").is_file()  # the other input is converted
    assert names(tmp_path) == {"trav", "x.mat", "out"}


def test_a_link_in_the_output_directory_leading_out_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """out/a a link to a directory elsewhere: out/a/y.json would resolve outside out/."""
    monkeypatch.chdir(_tree_with_a_way_out(tmp_path))
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "out" / "a").symlink_to(tmp_path / "elsewhere")
    code, _, err = invoke(["convert", "trav/**/*.mat", "-o", "out/"])
    assert code == 2 and "lies outside out" in err
    assert not list((tmp_path / "elsewhere").iterdir())


# --- item 11: SIGTERM and SIGHUP; workers die with their parent -----------------------------


@pytest.fixture
def blocking_input(tmp_path: Path) -> Iterator[Path]:
    """A FIFO that a writer holds open without writing: reading it blocks."""
    fifo = tmp_path / "slow.mat"
    os.mkfifo(fifo)
    keep_open = os.open(fifo, os.O_RDWR)
    try:
        yield fifo
    finally:
        os.close(keep_open)


def _wait_until(condition: object, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _popen(args: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("BGTOOLS_PROGRESS", None)
    return subprocess.Popen(  # type: ignore[call-overload,no-any-return]
        [sys.executable, "-c", INTERRUPTIBLE_MAIN, *args], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, **kwargs)


@LINUX_PROC
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
def test_a_signal_during_export_is_an_interrupt_and_leaves_no_temporary_file(
        tmp_path: Path, blocking_input: Path, signum: int) -> None:
    """SIGTERM or SIGHUP during ``export`` left ``.out.csv.*.tmp`` behind (exit 143/129)."""
    output = tmp_path / "out.csv"
    proc = _popen(["export", str(SAMPLE), str(blocking_input), "--to", "csv", "-o",
                   str(output), "--jobs", "1"])
    try:
        _wait_until(lambda: has_open(proc.pid, blocking_input)
                    and any(n.startswith(".out.csv.") for n in names(tmp_path)))
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130, err
    assert b"Traceback" not in err and b"nothing written" in err
    assert names(tmp_path) == {"slow.mat"}


@LINUX_PROC
def test_workers_end_when_their_parent_is_killed(tmp_path: Path, blocking_input: Path) -> None:
    """Killing the parent under ``--jobs 2`` left its workers blocked forever (the other
    worker holds the parent's end of each pipe open)."""
    inputs = [str(SAMPLE), str(blocking_input)] * 2
    proc = _popen(["validate", "--jobs", "2", *inputs], start_new_session=True)
    workers: list[int] = []
    try:
        def started() -> bool:
            workers[:] = children(proc.pid)
            return len(workers) == 2 and any(has_open(w, blocking_input) for w in workers)

        _wait_until(started)
        proc.kill()
        proc.wait(timeout=30)
        _wait_until(lambda: not any(alive(w) for w in workers), seconds=30)
    finally:
        proc.kill()
        for worker in workers:
            if alive(worker):
                os.kill(worker, signal.SIGKILL)


def test_an_ignored_hangup_stays_ignored() -> None:
    """``nohup bgtools ...``: run_app takes SIGHUP as an interrupt only when it is not
    ignored, and gives every handler back when the command ends."""
    from bgtools.cli.errors import run_app

    def command(args: list[str], standalone_mode: bool) -> int:
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
        return 0

    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    term = signal.getsignal(signal.SIGTERM)
    try:
        with pytest.raises(SystemExit) as ended:
            run_app(command, [])
        assert ended.value.code == 0
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) is term
    finally:
        signal.signal(signal.SIGHUP, previous)


# --- item 12: globs follow no link to a directory -------------------------------------------


def _looping_tree(tmp_path: Path, links: int) -> Path:
    sub = tmp_path / "d" / "sub"
    sub.mkdir(parents=True)
    (sub / "m.mat").write_bytes(SAMPLE.read_bytes())
    for n in range(links):
        (sub / f"loop{n}").symlink_to("../" * (n + 1))
    return tmp_path


@pytest.mark.parametrize("links", [1, 2])
def test_a_glob_through_looping_links_reads_each_file_once(tmp_path: Path, links: int) -> None:
    """One looping link made ``validate 'd/**/*.mat'`` report one file 41 times; two made
    it run for hours (here bounded by run_bgtools's timeout)."""
    root = _looping_tree(tmp_path, links)
    started = time.monotonic()
    done = run_bgtools(["validate", "--json", "--jobs", "1", "d/**/*.mat"], cwd=root)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().count('"file"') == 1
    assert time.monotonic() - started < 60


def test_glob_matches_is_glob_without_links(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a tree without links, glob_matches gives what glob.glob does, trailing '/' and
    repeated '**' included (as lists: glob.glob repeats a match too)."""
    monkeypatch.chdir(REPO)
    patterns = ["tests/files/**/*.mat", "tests/files/**", "tests/files/**/", "**/*.sgf",
                "tests/*/**/*.txt", "tests/files/**/s*/**/*.mat", "samples/**/*",
                f"{REPO}/samples/**/*.mat", "t*/**/x*", "tests/files/**/*/",
                "tests/**/**/*.mat", "tests/files/**/.*", "missing/**/*.mat", "samples/**"]
    for pattern in patterns:
        assert sorted(glob_matches(pattern)) == sorted(glob.glob(pattern, recursive=True)), \
            pattern


def test_glob_matches_leaves_out_links_to_directories(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``**`` neither yields nor enters the looping link; a path through it is followed."""
    monkeypatch.chdir(_looping_tree(tmp_path, 1))
    assert sorted(glob_matches("d/**")) == ["d/", "d/sub", "d/sub/m.mat"]
    assert glob_matches("d/**/*.mat") == ["d/sub/m.mat"]
    # A link given by the pattern itself (no **) is followed, as any path through it.
    assert glob_matches("d/sub/loop0/sub/*.mat") == ["d/sub/loop0/sub/m.mat"]


# --- item 13: HTML, CSV cells, an empty path, --jobs, the library's errors ------------------


def _with_names(tmp_path: Path, first: str, second: str) -> Path:
    path = tmp_path / "names.mat"
    text = SAMPLE.read_text(encoding="utf-8")
    path.write_text(text.replace("Alice", first).replace("Bob", second), encoding="utf-8")
    return path


def test_a_comment_opening_in_a_name_does_not_break_the_html_page(tmp_path: Path) -> None:
    """``<!--<script>`` in a name put the page's script in the 'double escaped' state."""
    source = _with_names(tmp_path, "<!--<script>", "</script><b>")
    page = tmp_path / "page.html"
    code, _, err = invoke(["show", str(source), "--html", str(page)])
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    start = html.index('<script id="frames" type="application/json">')
    body = html[start:html.index("</script>", start)]
    assert "<" not in body[len('<script id="frames" type="application/json">'):]
    assert html.count("<script") == 2 and html.count("</script>") == 2
    frames = page_frames(html)
    assert any("<!--<script>" in frame["score"] for frame in frames)


def _csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_csv_text_cells_cannot_run_as_formulas(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A name such as ``=HYPERLINK(...)`` went to the CSV as it was: a spreadsheet runs it."""
    formula = '=HYPERLINK("http://x","y")'
    source = _with_names(tmp_path, formula, "-3")
    code, out, err = invoke(["standings", "--csv", str(source)])
    assert code == 0, err
    rows = _csv(out)
    players = {row[0] for row in rows[1:]}
    assert players == {"'" + formula, "'-3"}
    assert {row[1] for row in rows[1:]} == {"", "'" + formula, "'-3"}
    assert all(cell.lstrip("-").isdigit() for row in rows[1:] for cell in row[2:])
    # The JSON keeps the names as they are.
    _, as_json, _ = invoke(["standings", "--json", str(source)])
    assert set(json.loads(as_json)["players"]) == {formula, "-3"}

    (tmp_path / "@SUM(1+1).mat").write_bytes(source.read_bytes())
    monkeypatch.chdir(tmp_path)
    code, _, err = invoke(["export", "@SUM(1+1).mat", "--to", "csv", "-o", "rows.csv"])
    assert code == 0, err
    rows = _csv((tmp_path / "rows.csv").read_text(encoding="utf-8"))
    header = rows[0]
    assert {row[0] for row in rows[1:]} == {"'@SUM(1+1).mat"}
    for name in ("game", "index", "player", "cube_value"):
        column = header.index(name)
        assert all(row[column].isdigit() for row in rows[1:])


def test_a_lone_dash_stays_and_names_are_written_as_they_are_otherwise() -> None:
    """text_cell prefixes exactly the cells a spreadsheet would read as a formula."""
    from bgtools.data.spreadsheet import text_cell

    assert [text_cell(t) for t in ("-", "Alice", "+1", "=1", "@a", "-a", "", "'x")] == \
        ["-", "Alice", "'+1", "'=1", "'@a", "'-a", "", "'x"]


@pytest.mark.parametrize("command", [["validate"], ["score"], ["stats"], ["export", "--to",
                                                                           "csv", "-o", "x"]])
def test_an_empty_path_is_a_usage_error(tmp_path: Path, command: list[str]) -> None:
    """``validate ''`` validated the current directory."""
    (tmp_path / "m.mat").write_bytes(SAMPLE.read_bytes())
    done = run_bgtools([*command, ""], cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.decode() == ("bgtools: error: an empty path names no file; give '.' "
                                    "for the current directory\n")
    assert done.stdout == b""
    assert names(tmp_path) == {"m.mat"}


def test_jobs_beyond_the_cores_is_capped_and_said(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``--jobs 300`` on 2 cores started 300 workers; now 2, and a note says so."""
    from bgtools.batch import pool
    from bgtools.cli.application import resolve_jobs

    monkeypatch.setattr(pool.os, "cpu_count", lambda: 2)
    assert resolve_jobs(300) == 2
    assert "--jobs 300: only 2 core(s); running 2 worker process(es)" in capsys.readouterr().err
    assert (resolve_jobs(2), resolve_jobs(1), resolve_jobs(None)) == (2, 1, 2)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("path", ["/tmp/a\0b.mat", "x\ud800.mat"], ids=["NUL", "surrogate"])
def test_the_library_raises_typed_errors_for_impossible_paths(tmp_path: Path, path: str) -> None:
    """``bgtools.read`` and ``Match.write`` raised ValueError / UnicodeEncodeError."""
    with pytest.raises(InvalidPathError) as caught:
        bgtools.read(path)
    assert isinstance(caught.value, ValueError)
    match = bgtools.read(SAMPLE)[0]
    with pytest.raises(InvalidPathError):
        match.write(path)
    with pytest.raises(InvalidPathError):
        match.write(tmp_path / path.replace("/tmp/", ""))
    assert names(tmp_path) == set()


def test_the_library_raises_typed_errors_for_unwritable_targets(tmp_path: Path) -> None:
    """``match.write('/nonexistent/dir/x.mat')`` raised FileNotFoundError naming a hidden
    temporary file."""
    match = bgtools.read(SAMPLE)[0]
    missing = tmp_path / "nonexistent" / "dir" / "x.mat"
    with pytest.raises(UnwritableOutputError) as caught:
        match.write(missing)
    assert isinstance(caught.value, OSError) and isinstance(caught.value, BgtoolsError)
    assert str(caught.value) == f"cannot write {missing}: No such file or directory"
    too_long = tmp_path / ("y" * 300 + ".mat")
    with pytest.raises(UnwritableOutputError, match="File name too long"):
        match.write(too_long)
    with pytest.raises(BgtoolsError):
        bgtools.read(tmp_path / "nonexistent.mat")
    assert names(tmp_path) == set()

