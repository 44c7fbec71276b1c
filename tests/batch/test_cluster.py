"""``--scheduler``: the batch commands on a Dask cluster (issue 41) give what ``--jobs 1``
gives, byte for byte, on a real ``dask.distributed`` scheduler with two worker processes on
this machine; a worker lost mid-run loses no file and counts none twice; without Dask, or
with a scheduler that is wrong or away, one error line and exit 2."""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bgtools.batch import Batch, FileReport, Input, absolute_input, validate_report
from bgtools.batch.cluster import QUIET_LOCAL_CLUSTER, ClusterBatch
from bgtools.cli import app
from bgtools.readers.inputs import expand_paths
from tests.helpers import cluster_jobs
from tests.helpers.paths import FILES
from tests.helpers.processes import run_bgtools

runner = CliRunner()


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a LocalCluster: a scheduler in this process and two worker processes
    of one thread each (a task that kills its worker twice is given up: Dask's
    ``KilledWorker``)."""
    distributed = pytest.importorskip("distributed")
    import logging

    import dask

    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, scheduler_port=0,
            silence_logs=logging.ERROR, **QUIET_LOCAL_CLUSTER)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def sample(corpus: Path) -> list[str]:
    """Files of every kind: the first two of each directory of the corpus (the shared one,
    else its part in tests/files), FORMATS.md's examples, and hostile files (unreadable)."""
    paths = [str(path) for directory in sorted(p for p in corpus.iterdir() if p.is_dir())
             for path in sorted(p for p in directory.iterdir() if p.is_file())[:2]]
    return [*paths, str(FILES / "examples"), str(FILES / "hostile")]


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("command", [
    ["validate", "--json"],
    ["stats", "--json"],
    ["stats", "--json", "--by", "file", "--include-invalid"],
    ["standings", "--json"],
    ["standings", "--csv"],
])
def test_a_cluster_gives_what_one_process_gives(scheduler: str, sample: list[str],
                                                command: list[str]) -> None:
    alone = run(*command, "--jobs", "1", *sample)
    spread = run(*command, "--scheduler", scheduler, *sample)
    assert alone[1].strip(), alone
    assert spread == alone


def test_export_on_a_cluster_writes_the_same_rows(scheduler: str, sample: list[str],
                                                  tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    alone, spread = tmp_path / "alone.parquet", tmp_path / "spread.parquet"
    code, _, err = run("export", "--jobs", "1", "-o", str(alone), *sample)
    assert (code, err.count("row(s) from")) == (2, 1), err
    spread_run = run("export", "--scheduler", scheduler, "-o", str(spread), *sample)
    assert spread_run == (code, "", err.replace(str(alone), str(spread)))
    rows = pq.read_table(alone).to_pylist()
    assert len(rows) > 1000
    assert pq.read_table(spread).to_pylist() == rows


def test_relative_paths_reach_workers_in_another_directory(scheduler: str, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """Inputs go to the workers as absolute paths; messages show them as given."""
    monkeypatch.chdir(FILES)
    alone = run("validate", "--json", "-j", "1", "examples", "hostile")
    assert run("validate", "--json", "--scheduler", scheduler, "examples", "hostile") == alone
    assert '"file": "examples/' in alone[1]
    assert absolute_input(Input("x.mat", "x.mat", None)) == ("x.mat", str(FILES / "x.mat"), None)


def _outcomes(batch: Batch[Input, FileReport] | ClusterBatch[Input, FileReport],
              inputs: list[Input]) -> list[tuple[int, str, Any, str | None]]:
    """What a run gives, but the time each job took."""
    with batch:
        return [(o.index, o.item[0], o.value, o.failure) for o in batch.map(inputs)]


def _inputs(paths: list[str]) -> list[Input]:
    return [absolute_input(item) for item in expand_paths(paths)]


def test_a_worker_that_dies_mid_run_loses_no_file(scheduler: str, sample: list[str],
                                                  tmp_path: Path) -> None:
    """The worker running the fifth input dies on it: Dask runs that chunk again on
    another worker, and every input is reported once, as ``--jobs 1`` reports it."""
    inputs = _inputs(sample)
    target = inputs[4][0]
    marker = tmp_path / "died"
    expected = _outcomes(Batch(validate_report), inputs)
    job = partial(cluster_jobs.dies_once_on, target=target, marker=str(marker))
    assert _outcomes(ClusterBatch(job, scheduler), inputs) == expected
    assert marker.exists()  # a worker did die


@pytest.mark.slow
def test_an_input_that_kills_every_worker_fails_alone(scheduler: str, sample: list[str]
                                                      ) -> None:
    """A chunk given up by Dask is run again input by input: only the input that kills its
    worker is failed, as the local pool fails the input whose worker died."""
    inputs = _inputs(sample)[:12]
    target = inputs[2][0]
    expected = _outcomes(Batch(validate_report), inputs)
    got = _outcomes(ClusterBatch(partial(cluster_jobs.dies_on, target=target), scheduler),
                    inputs)
    assert got[2][3] is not None and got[2][3].startswith("worker process died")
    assert got[:2] + got[3:] == expected[:2] + expected[3:]


@pytest.mark.slow
def test_a_worker_killed_by_signal_mid_run_loses_no_file(scheduler: str, sample: list[str]
                                                         ) -> None:
    """SIGKILL to a worker process while it works on a chunk (and holds results not yet
    gathered): the scheduler runs its tasks again, the outcomes are those of one process."""
    import distributed

    inputs = _inputs(sample)[:24]
    expected = _outcomes(Batch(validate_report), inputs)
    with distributed.Client(scheduler, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=60)  # after a test that killed some
        pids = sorted(client.run(os.getpid).values())
    assert len(pids) == 2
    got = []
    with ClusterBatch(partial(cluster_jobs.slowly, seconds=0.05), scheduler, chunk=4) as batch:
        for outcome in batch.map(inputs):
            if outcome.index == 0:
                os.kill(pids[-1], signal.SIGKILL)
            got.append((outcome.index, outcome.item[0], outcome.value, outcome.failure))
    assert got == expected


@pytest.mark.slow
def test_scheduler_local_starts_its_own_workers() -> None:
    pytest.importorskip("distributed")
    paths = [str(FILES / "examples"), str(FILES / "hostile")]
    alone = run_bgtools(["validate", "--json", "-j", "1", *paths])
    spread = run_bgtools(["validate", "--json", "-j", "2", "--scheduler", "local", *paths])
    assert (spread.returncode, spread.stdout, spread.stderr) == (
        alone.returncode, alone.stdout, alone.stderr)


# --- errors -----------------------------------------------------------------------------------


def _one_error_line(err: str) -> str:
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("bgtools: error: ") and "Traceback" not in err
    return err


@pytest.mark.parametrize("command", ["validate", "stats", "standings", "export"])
def test_without_dask_the_error_names_the_extra(command: str, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    output = ["-o", str(tmp_path / "rows.csv")] if command == "export" else []
    code, out, err = run(command, *output, "--scheduler", "local", str(FILES / "examples"))
    assert (code, out) == (2, "")
    assert "pip install 'bgtools[dask]'" in _one_error_line(err)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("address", ["nonsense", "http://10.0.0.5:8786", "tcp://host",
                                     "tcp://host:0", "tcp://host:70000", ""])
def test_a_bad_address_is_one_error_line(address: str) -> None:
    code, out, err = run("validate", "--scheduler", address, str(FILES / "examples"))
    assert (code, out) == (2, "")
    assert "not a scheduler address" in _one_error_line(err)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_an_unreachable_scheduler_is_one_error_line_at_once() -> None:
    pytest.importorskip("distributed")
    address = f"tcp://127.0.0.1:{_free_port()}"
    start = time.monotonic()
    code, out, err = run("stats", "--scheduler", address, str(FILES / "examples"))
    assert time.monotonic() - start < 5
    assert (code, out) == (2, "")
    assert _one_error_line(err) == (f"bgtools: error: cannot reach the Dask scheduler at "
                                    f"{address}: Connection refused\n")


def test_a_server_that_is_no_scheduler_is_given_up_in_bounded_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Dask alone would wait for ever for the handshake of a server that says nothing."""
    pytest.importorskip("distributed")
    from bgtools.batch import cluster

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1.0)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        accepted: list[socket.socket] = []
        thread = threading.Thread(target=lambda: accepted.append(server.accept()[0]),
                                  daemon=True)
        thread.start()
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        start = time.monotonic()
        code, out, err = run("validate", "--scheduler", address, str(FILES / "examples"))
        assert time.monotonic() - start < 5
        for conn in accepted:
            conn.close()
    assert (code, out) == (2, "")
    assert _one_error_line(err) == (f"bgtools: error: {address} is not a Dask scheduler "
                                    "(no answer in 1 s)\n")


def test_jobs_go_with_a_local_cluster_only() -> None:
    pytest.importorskip("distributed")
    code, out, err = run("validate", "-j", "2", "--scheduler", "tcp://10.0.0.5:8786",
                         str(FILES / "examples"))
    assert (code, out) == (2, "")
    assert "--jobs sets the workers of --scheduler local only" in _one_error_line(err)
