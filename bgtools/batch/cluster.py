"""Whole archives on a Dask cluster: the same per-file jobs, on the workers of a scheduler.

:class:`ClusterBatch` is another executor for the jobs that :class:`bgtools.batch.pool.Batch`
runs in local processes, with the same interface (``start``, ``map``, ``close``, a context
manager) and the same outcomes, in input order: the inputs go to the workers of a
``dask.distributed`` scheduler in small chunks, at most ``window`` chunks ahead of the one
awaited, and each chunk runs the job on its inputs through :func:`bgtools.batch.pool.run_job`.
When a worker is lost mid-run the scheduler runs its chunks again on another worker (Dask's
own recovery); an outcome is yielded only from a chunk's one result, so no input is lost or
counted twice. A chunk that kills its workers every time it runs (Dask's ``KilledWorker``) is
run again one input a task, so that only the input that kills a worker is reported failed,
as the local pool reports it.

Dask is optional (``bgtools[dask]``): it is imported only when a run starts. The scheduler
is ``local`` (a ``LocalCluster`` of worker processes on this machine) or the address of a
running one; every worker needs the same bgtools as the client and the inputs at the same
paths (a shared file system): inputs go to workers as absolute paths
(:func:`bgtools.batch.jobs.absolute_input`), standard input as its bytes.
"""

from __future__ import annotations

import contextlib
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from types import TracebackType
from typing import Any, Generic, TypeVar

from bgtools.batch.pool import Outcome, default_jobs, describe_failure, run_job
from bgtools.errors import BgtoolsError

__all__ = [
    "CONNECT_SECONDS",
    "DASK_EXTRA",
    "LOCAL",
    "QUIET_LOCAL_CLUSTER",
    "ClusterBatch",
    "ClusterError",
    "ClusterUnavailableError",
    "check_scheduler",
    "run_chunk",
    "worker_version",
]

T = TypeVar("T")
R = TypeVar("R")

LOCAL = "local"
"""The scheduler address that starts a ``LocalCluster`` of worker processes on this machine."""

CONNECT_SECONDS = 10.0
"""How long connecting to a scheduler may take before the run gives up."""

DASK_EXTRA = "pip install 'bgtools[dask]'"
"""How to install what ``--scheduler`` needs."""

CHUNK = 32
"""Inputs per task at most: a task costs the scheduler (in this process, for ``local``) about
as much as a small file, so a chunk of many keeps that cost small; a lost worker costs a
chunk's inputs run again. When the number of inputs is known, a chunk is smaller where that
gives each worker thread at least four tasks."""

QUIET_LOCAL_CLUSTER: dict[str, Any] = {
    "dashboard_address": ":0", "scheduler_kwargs": {"dashboard": False}}
"""What keeps a ``LocalCluster`` from serving a dashboard and from taking (or warning that
another cluster took) the dashboard's port 8787: its HTTP routes go to a free port."""

_ADDRESS = re.compile(
    r"(?:(?P<scheme>tcp|tls|ws|wss)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)"
    r":(?P<port>[0-9]{1,5})")
"""A scheduler's address: ``[SCHEME://]HOST:PORT`` (an IPv6 host in brackets)."""


class ClusterError(BgtoolsError):
    """A scheduler address that is not one, a scheduler that cannot be reached in
    :data:`CONNECT_SECONDS`, workers that cannot run this bgtools, or a scheduler lost
    mid-run."""


class ClusterUnavailableError(ClusterError):
    """``--scheduler`` without Dask installed (the extra ``bgtools[dask]``)."""


def _parse_address(address: str) -> tuple[str, str, int]:
    """``(scheme, host, port)`` of a scheduler address; :class:`ClusterError` if it is none."""
    found = _ADDRESS.fullmatch(address)
    port = int(found["port"]) if found is not None else 0
    if found is None or not 0 < port < 65536:
        raise ClusterError(f"--scheduler {address!r}: not a scheduler address; give "
                           f"tcp://HOST:PORT (such as tcp://10.0.0.5:8786) or {LOCAL!r}")
    return found["scheme"] or "tcp", found["host"].strip("[]"), port


def check_scheduler(address: str) -> None:
    """Raise :class:`ClusterError` unless ``address`` is ``local`` or ``[SCHEME://]HOST:PORT``
    (scheme tcp, tls, ws or wss), and :class:`ClusterUnavailableError` unless Dask's
    distributed scheduler can be imported."""
    if address != LOCAL:
        _parse_address(address)
    try:
        import distributed  # noqa: F401
    except ImportError as exc:
        raise ClusterUnavailableError(
            f"--scheduler needs Dask, which cannot be imported ({exc}): {DASK_EXTRA}") from None


def run_chunk(job: Callable[[T], R], items: list[T]) -> list[tuple[R | None, str | None, float]]:
    """The task a worker runs: the job on each input of a chunk, as the local pool runs it
    (:func:`bgtools.batch.pool.run_job`: its value, or its failure, and its time)."""
    return [run_job(job, item) for item in items]


def worker_version() -> str:
    """The bgtools version of the process (asked of every worker when a run connects)."""
    from bgtools import __version__

    return __version__


def _probe(address: str) -> None:
    """Fail fast, and within :data:`CONNECT_SECONDS`, on a scheduler that cannot be reached
    or is none: Dask itself retries a refused connection until its timeout (and then says
    only that it timed out), and waits without end for a handshake that never comes (a
    port where some other server listens)."""
    import asyncio
    import socket

    _, host, port = _parse_address(address)
    try:
        with socket.create_connection((host, port), timeout=CONNECT_SECONDS):
            pass
    except OSError as exc:
        reason = exc.strerror or describe_failure(exc)
        if isinstance(exc, TimeoutError):
            reason = f"no answer in {CONNECT_SECONDS:g} s"
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {reason}") from None
    try:
        identity = asyncio.run(asyncio.wait_for(_identify(address), CONNECT_SECONDS))
    except TimeoutError:
        identity = f"no answer in {CONNECT_SECONDS:g} s"
    except Exception as exc:  # noqa: BLE001 - whatever the other end sent: one line
        identity = describe_failure(exc)
    if not isinstance(identity, dict) or identity.get("type") != "Scheduler":
        raise ClusterError(f"{address} is not a Dask scheduler ({identity!s:.200})")


async def _identify(address: str) -> Any:
    """What the server at ``address`` says it is, through Dask's own protocol."""
    from distributed.comm import connect

    comm = await connect(address, timeout=CONNECT_SECONDS)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


class ClusterBatch(Generic[T, R]):
    """Map ``job`` over inputs on the workers of the Dask scheduler ``scheduler``; outcomes
    come in input order, as :class:`bgtools.batch.pool.Batch` gives them.

    ``scheduler``: ``local`` (a ``LocalCluster`` of ``jobs`` worker processes, default one
    per core, one thread each) or ``[SCHEME://]HOST:PORT``. ``chunk`` inputs (at most) make
a task;
    at most ``window`` tasks are in flight (default: four per worker thread, at least
    eight). ``job`` and the inputs are pickled to the workers: a module-level function or
    a ``functools.partial`` of one, whose module the workers can import.
    """

    def __init__(self, job: Callable[[T], R], scheduler: str, jobs: int | None = None,
                 chunk: int = CHUNK, window: int | None = None) -> None:
        check_scheduler(scheduler)
        if chunk < 1:
            raise ValueError("chunk must be at least 1")
        self.job = job
        self.scheduler = scheduler
        self.jobs = jobs
        self.chunk = chunk
        self.window = window
        self._client: Any = None
        self._cluster: Any = None
        self._in_flight: deque[tuple[list[T], Any]] = deque()
        self._count: int | None = None

    def __enter__(self) -> ClusterBatch[T, R]:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def start(self, count: int | None = None) -> None:
        """Connect to the scheduler now (for ``local``: start at most ``count`` workers,
        when the number of inputs is known); :meth:`map` connects itself otherwise."""
        if count is not None:
            self._count = count
        if self._client is not None:
            return
        import distributed

        address = self.scheduler
        if address == LOCAL:
            import logging

            workers = self.jobs or default_jobs()
            if count is not None:
                workers = max(1, min(workers, count))
            try:
                self._cluster = distributed.LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True,
                    scheduler_port=0, silence_logs=logging.ERROR, **QUIET_LOCAL_CLUSTER)
            except Exception as exc:  # noqa: BLE001 - whatever stops Dask is one error line
                raise ClusterError(f"cannot start a local Dask cluster: "
                                   f"{describe_failure(exc)}") from None
            address = self._cluster.scheduler_address
        else:
            _probe(address)
        try:
            self._client = distributed.Client(address, timeout=CONNECT_SECONDS,
                                              set_as_default=False)
        except Exception as exc:  # noqa: BLE001 - whatever stops Dask is one error line
            self.close()
            raise ClusterError(f"cannot connect to the Dask scheduler at {self.scheduler}: "
                               f"{describe_failure(exc)}") from None
        self._check_workers()

    def _check_workers(self) -> None:
        """Every worker connected must run this version of bgtools."""
        from bgtools import __version__

        try:
            versions: dict[str, str] = self._client.run(worker_version)
        except Exception as exc:  # noqa: BLE001 - a worker without bgtools, for one
            self.close()
            raise ClusterError(f"the workers of {self.scheduler} cannot run bgtools "
                               f"({describe_failure(exc)}): install bgtools {__version__} "
                               "on every worker") from None
        for worker, version in sorted(versions.items()):
            if version != __version__:
                self.close()
                raise ClusterError(f"worker {worker} runs bgtools {version}, this is "
                                   f"{__version__}: install the same version on every worker")

    def close(self) -> None:
        """Cancel what is still in flight, disconnect, and stop a local cluster."""
        in_flight, self._in_flight = self._in_flight, deque()
        client, self._client = self._client, None
        cluster, self._cluster = self._cluster, None
        # Leaving anyway: whatever Dask raises while it shuts down changes nothing.
        if client is not None:
            with contextlib.suppress(Exception):
                if in_flight:
                    client.cancel([future for _, future in in_flight], force=True)
            with contextlib.suppress(Exception):
                client.close(timeout=CONNECT_SECONDS)
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close(timeout=CONNECT_SECONDS)

    def _threads(self) -> int:
        try:
            threads: dict[str, int] = self._client.nthreads()
            return max(1, sum(threads.values()))
        except Exception:  # noqa: BLE001 - only a default
            return 1

    def _submit(self, items: list[T]) -> Any:
        return self._client.submit(run_chunk, self.job, items, pure=False)

    def map(self, items: Iterable[T]) -> Iterator[Outcome[T, R]]:
        """The outcome of the job on every item, in the order of ``items``."""
        self.start()
        threads = self._threads()
        window = self.window if self.window is not None else max(8, 4 * threads)
        chunk = self.chunk
        if self._count is not None:  # at least four tasks a thread
            chunk = max(1, min(chunk, -(-self._count // (4 * threads))))
        source = iter(items)
        index = 0
        exhausted = False
        while True:
            while not exhausted and len(self._in_flight) < window:
                inputs = list(islice(source, chunk))
                if not inputs:
                    exhausted = True
                    break
                self._in_flight.append((inputs, self._submit(inputs)))
            if not self._in_flight:
                return
            inputs, future = self._in_flight[0]
            results = self._gather(inputs, future)
            self._in_flight.popleft()
            del future
            for item, (value, failure, seconds) in zip(inputs, results, strict=True):
                yield Outcome(index, item, value, failure, seconds)
                index += 1

    def _gather(self, chunk: list[T], future: Any, again: bool = False
                ) -> list[tuple[R | None, str | None, float]]:
        """The results of a chunk's task. A chunk that killed its workers each time it ran
        is run again one input a task: the input that kills a worker alone is failed."""
        from distributed import KilledWorker

        try:
            results: list[tuple[R | None, str | None, float]] = future.result()
            return results
        except KilledWorker:
            if len(chunk) == 1:
                if not again:
                    # A worker runs several tasks at once: an input may have died beside the
                    # one that kills. Once more, submitted only now that those before it
                    # are done.
                    return self._gather(chunk, self._submit(chunk), again=True)
                return [(None, "worker process died (killed every worker that ran it)", 0.0)]
        except Exception as exc:  # noqa: BLE001 - a lost scheduler, for one
            raise ClusterError(f"the Dask scheduler at {self.scheduler} failed the run: "
                               f"{describe_failure(exc)}") from None
        singles = [self._submit([item]) for item in chunk]
        return [result for item, single in zip(chunk, singles, strict=True)
                for result in self._gather([item], single)]
