"""The ordered process pool: a job mapped over many inputs, in worker processes.

:class:`Batch` runs a job on every input and yields the outcomes *in input order* as they
complete, holding at most ``window`` outcomes ahead of the one awaited, so memory stays
constant on any number of files. ``jobs=1`` runs in this process, without a pool. Nothing
here knows what the job does.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from bgtools.dataclass_methods import FrozenFieldMethods, prebuilt_dataclass
from bgtools.errors import interrupt

if TYPE_CHECKING:  # pragma: no cover
    from multiprocessing.connection import Connection

__all__ = ["Batch", "Outcome", "default_jobs", "describe_failure", "run_job"]

T = TypeVar("T")
R = TypeVar("R")

def default_jobs() -> int:
    """The number of worker processes by default: the number of cores."""
    return os.cpu_count() or 1


@prebuilt_dataclass
class Outcome(FrozenFieldMethods, Generic[T, R]):
    """The result of the job on one input: ``value``, or ``failure`` when the job raised or
    its worker process died. ``seconds`` is the time the job took."""

    index: int
    item: T
    value: R | None
    failure: str | None
    seconds: float


@contextlib.contextmanager
def _frozen_start_up() -> Iterator[None]:
    """Run a batch with the objects made so far (modules, grammars, the warm-up's caches)
    frozen (:func:`gc.freeze`): the cyclic collector's oldest generation, which would walk
    them all again and again, no longer sees them, nor does a forked worker copy their
    pages by touching them. They are given back to the collector on exit."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def describe_failure(exc: BaseException) -> str:
    """The one line of a job's exception: its type and, when it has one, its message."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def run_job(job: Callable[[T], R], item: T) -> tuple[R | None, str | None, float]:
    """Run ``job`` on ``item`` with the cyclic collector off: what one job makes (a record
    and its replay: many small objects, nearly no reference cycles) is freed by reference
    counting when it ends, whereas a collection during the job walks all of it, and one
    soon after it walks only what is left."""
    collecting = gc.isenabled()
    gc.disable()
    start = time.perf_counter()
    try:
        value: R | None = job(item)
        failure = None
    except Exception as exc:  # noqa: BLE001 - a bug in a job must not stop the batch
        value, failure = None, describe_failure(exc)
    finally:
        if collecting:
            gc.enable()
    return value, failure, time.perf_counter() - start


_PARENT_POLL_SECONDS = 0.5
"""How often a worker that cannot ask the system to be told looks for its parent."""


def _watch_parent(parent: int) -> None:
    """Stop this worker (as SIGTERM does) once ``parent`` is no longer its parent."""
    while os.getppid() == parent:
        time.sleep(_PARENT_POLL_SECONDS)
    os.kill(os.getpid(), signal.SIGTERM)


def _die_with_parent(parent: int, forked_by_main_thread: bool) -> None:
    """Have this worker stopped by SIGTERM when its parent dies, however it dies (SIGKILL
    included): otherwise it would wait forever for work that never comes, since the other
    workers keep the parent's end of its pipe open.

    On Linux the system sends the signal (``prctl(PR_SET_PDEATHSIG)``), when the forking
    thread is the main thread (the system tells of that thread's end, not the process's);
    elsewhere a thread looks for the parent twice a second."""
    if forked_by_main_thread and sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            if libc.prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0) == 0:
                if os.getppid() != parent:  # it died before the request
                    os.kill(os.getpid(), signal.SIGTERM)
                return
        except (OSError, AttributeError):  # pragma: no cover - no libc to ask
            pass
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


_WORKER_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                        if hasattr(signal, name))
"""The signals a worker handles itself (see :func:`_worker_main`)."""


def _block(signals: tuple[int, ...]) -> tuple[int, ...]:
    """Block ``signals`` in this thread where the system can; the ones it blocked."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        return ()
    before = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    return tuple(number for number in signals if number not in before)


def _unblock(signals: tuple[int, ...]) -> None:
    """Unblock ``signals`` (a signal that came meanwhile is delivered now)."""
    if signals and hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, signals)


def _end_on_ignored_interrupt(unraisable: Any) -> None:
    """A worker's hook for exceptions Python cannot raise (in a callback, a destructor): a
    SIGTERM's KeyboardInterrupt there ends the worker as killed by SIGTERM, quietly, as the
    interrupt would have; anything else is reported as Python reports it."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        _end_as_killed_by_sigterm()
    else:
        sys.__unraisablehook__(unraisable)


def _end_as_killed_by_sigterm() -> None:
    """End this worker as killed by SIGTERM, as the parent reports it."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _worker_main(conn: Connection, job: Callable[[Any], Any], parent: int = 0,
                 forked_by_main_thread: bool = True) -> None:
    """Loop of a worker process: receive ``(index, item)``, send back the outcome.

    SIGTERM (from the parent stopping it, or from the system when the parent ``parent``
    dies) interrupts the job as Ctrl-C does, so that what it was writing is removed."""
    # Ctrl-C at a terminal (and a closed terminal's SIGHUP) reaches the whole process
    # group: the parent alone decides.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, interrupt)
    sys.unraisablehook = _end_on_ignored_interrupt
    try:
        if parent:
            _die_with_parent(parent, forked_by_main_thread)
        gc.freeze()  # the parent's objects: see _frozen_start_up
        _unblock(_WORKER_SIGNALS)  # blocked by the parent for the start (see _Worker)
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                break
            if message is None:
                break
            index, item = message
            value, failure, seconds = run_job(job, item)
            try:
                conn.send((index, value, failure, seconds))
            except (BrokenPipeError, EOFError):
                break
            except Exception as exc:  # noqa: BLE001 - an unpicklable result
                conn.send((index, None, f"result cannot be sent back: {describe_failure(exc)}",
                           seconds))
    except KeyboardInterrupt:
        # SIGTERM, the job's files cleaned up: end as killed by it.
        _end_as_killed_by_sigterm()
    finally:
        # Leave at once: no flushing of stdio buffers inherited from the parent.
        os._exit(0)


class _Worker:
    """One worker process and the pipe to it; ``busy`` is the index it is working on."""

    def __init__(self, context: Any, job: Callable[[Any], Any]) -> None:
        import multiprocessing

        self.conn, child = multiprocessing.Pipe(duplex=True)
        forked_by_main_thread = threading.current_thread() is threading.main_thread()
        self.process = context.Process(
            target=_worker_main, args=(child, job, os.getpid(), forked_by_main_thread),
            daemon=True)
        # The new process inherits these signals blocked, until _worker_main has its own
        # handlers: a SIGTERM that stops it while it starts would otherwise reach the
        # parent's handler there, and multiprocessing would print the traceback.
        blocked = _block(_WORKER_SIGNALS)
        try:
            self.process.start()
        finally:
            _unblock(blocked)
        child.close()
        self.busy: int | None = None

    def stop(self, force: bool) -> None:
        """Ask the worker to finish (or terminate it) and reap it."""
        if not force:
            try:
                self.conn.send(None)
            except (OSError, ValueError):
                force = True
        if force and self.process.is_alive():
            self.process.terminate()
        self.process.join(timeout=None if not force else 2.0)
        if self.process.is_alive():  # pragma: no cover - a worker ignoring SIGTERM
            self.process.kill()
            self.process.join()
        self.conn.close()


class Batch(Generic[T, R]):
    """Map ``job`` over inputs with ``jobs`` processes; outcomes come in input order.

    Use as a context manager so that the workers are stopped whatever happens::

        with Batch(job, jobs=4) as batch:
            for outcome in batch.map(items):
                ...

    ``job`` must be picklable (a module-level function, or a ``functools.partial`` of one)
    where processes are spawned rather than forked; items and results cross process
    boundaries and must be picklable and small. At most ``window`` outcomes are held
    ahead of the one awaited (default: 8 per worker), and inputs are drawn lazily.
    """

    def __init__(self, job: Callable[[T], R], jobs: int = 1, window: int | None = None) -> None:
        if jobs < 1:
            raise ValueError("jobs must be at least 1")
        self.job = job
        self.jobs = jobs
        self.window = max(window if window is not None else 8 * jobs, jobs)
        self._workers: list[_Worker] = []
        self._context: Any = None

    def __enter__(self) -> Batch[T, R]:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close(force=exc_type is not None)

    def start(self, count: int | None = None) -> None:
        """Start the workers now (at most ``count``, when the number of inputs is known).

        Starting them before any other thread exists (such as a progress display's) keeps
        the fork clean; :meth:`map` starts them itself otherwise.
        """
        if self.jobs == 1:
            return
        wanted = self.jobs if count is None else min(self.jobs, count)
        while len(self._workers) < wanted:
            self._spawn()

    def _spawn(self) -> _Worker:
        if self._context is None:
            # fork on Linux: the workers inherit the loaded modules, grammars and caches at
            # once. Elsewhere the platform's default (spawn on macOS and Windows).
            import multiprocessing  # here: a one-job run never pays for importing it

            linux = sys.platform.startswith("linux")
            self._context = multiprocessing.get_context("fork" if linux else None)
            if linux:
                import ctypes  # noqa: F401 - for _die_with_parent: imported once, inherited
        # Buffered output would be written twice by a forked child that flushed it.
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        # Ignore SIGINT from the fork until the worker sets its own handler (only the main
        # thread may change signal handlers).
        main = threading.current_thread() is threading.main_thread()
        previous = signal.getsignal(signal.SIGINT) if main else None
        if main:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            worker = _Worker(self._context, self.job)
        finally:
            if main and previous is not None:
                signal.signal(signal.SIGINT, previous)
        self._workers.append(worker)
        return worker

    def close(self, force: bool = False) -> None:
        """Stop every worker: politely after a complete run, at once after an interrupt."""
        workers, self._workers = self._workers, []
        if not force:
            force = any(w.busy is not None for w in workers)
        for worker in workers:
            if force and worker.process.is_alive():
                worker.process.terminate()
        for worker in workers:
            worker.stop(force)

    def map(self, items: Iterable[T]) -> Iterator[Outcome[T, R]]:
        """The outcome of the job on every item, in the order of ``items``."""
        if self.jobs == 1:
            with _frozen_start_up():
                for index, item in enumerate(items):
                    value, failure, seconds = run_job(self.job, item)
                    yield Outcome(index, item, value, failure, seconds)
            return
        yield from self._map_parallel(iter(items))

    def _map_parallel(self, source: Iterator[T]) -> Iterator[Outcome[T, R]]:
        pending: dict[int, T] = {}  # sent or waiting, by index
        done: dict[int, Outcome[T, R]] = {}
        queue: deque[int] = deque()  # drawn but not yet sent
        next_index = 0  # next index to draw from ``source``
        awaited = 0  # next index to yield
        exhausted = False
        while True:
            # Draw inputs up to the window, then hand them to idle workers.
            while not exhausted and next_index < awaited + self.window:
                try:
                    item = next(source)
                except StopIteration:
                    exhausted = True
                    break
                pending[next_index] = item
                queue.append(next_index)
                next_index += 1
            while queue:
                worker = next((w for w in self._workers if w.busy is None), None)
                if worker is None:
                    if len(self._workers) >= self.jobs:
                        break
                    worker = self._spawn()
                index = queue.popleft()
                if not self._send(worker, index, pending[index]):
                    done[index] = self._lost(worker, index, pending)
            while awaited in done:
                pending.pop(awaited, None)
                yield done.pop(awaited)
                awaited += 1
            if exhausted and awaited == next_index:
                return
            if not any(w.busy is not None for w in self._workers):
                continue
            self._collect(pending, done)

    def _send(self, worker: _Worker, index: int, item: T) -> bool:
        worker.busy = index
        try:
            worker.conn.send((index, item))
        except (OSError, ValueError):
            return False
        return True

    def _collect(self, pending: dict[int, T], done: dict[int, Outcome[T, R]]) -> None:
        """Wait for at least one busy worker to answer (or to die)."""
        from multiprocessing.connection import wait

        busy = [w for w in self._workers if w.busy is not None]
        ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy])
        for worker in busy:
            index = worker.busy
            assert index is not None
            if worker.conn in ready or worker.conn.poll():
                try:
                    got, value, failure, seconds = worker.conn.recv()
                except (EOFError, OSError):
                    done[index] = self._lost(worker, index, pending)
                    continue
                worker.busy = None
                done[got] = Outcome(got, pending[got], value, failure, seconds)
            elif worker.process.sentinel in ready:
                done[index] = self._lost(worker, index, pending)

    def _lost(self, worker: _Worker, index: int, pending: dict[int, T]) -> Outcome[T, R]:
        """A worker died on ``index``: replace it and report the input as failed."""
        worker.process.join(timeout=2.0)
        code = worker.process.exitcode
        worker.busy = None
        worker.stop(force=True)
        self._workers.remove(worker)
        if code is not None and code < 0:
            try:
                why = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                why = f"killed by signal {-code}"
        else:
            why = f"exit code {code}"
        return Outcome(index, pending[index], None, f"worker process died ({why})", 0.0)
