"""Whole archives: a per-file job mapped over many inputs, in worker processes.

:class:`Batch` runs a job on every input and yields the outcomes *in input order* as they
complete, holding at most ``window`` outcomes ahead of the one awaited, so memory stays
constant on any number of files. ``jobs=1`` runs in this process, without a pool.

The jobs for the commands (``validate``, ``score``, ``pips``, ``status``) read and replay one
file in the worker and send back only a small :class:`FileReport` of JSON-ready data,
never the replays or their events. :class:`BatchSummary` keeps the counts of a run (files
valid, invalid, unreadable; problems by rule; the slowest files) in constant memory.

No terminal code here: the CLI draws progress and the summary (:mod:`bgtools.cli.progress`).
"""

from __future__ import annotations

import heapq
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection, wait
from pathlib import Path
from types import TracebackType
from typing import Any, Callable, Generic, Iterable, Iterator, TypeVar

from bgtools.reports.files import SCHEMA, analyse_file, validate_json

__all__ = [
    "Input",
    "Outcome",
    "Batch",
    "FileReport",
    "BatchSummary",
    "default_jobs",
    "warm_up",
    "validate_report",
    "score_report",
    "pips_report",
    "status_report",
]

T = TypeVar("T")
R = TypeVar("R")

Input = tuple[str, "Path | None", "str | None"]
"""One input as :func:`bgtools.reports.files.expand_paths` yields it: ``(display, path, error)``."""


def default_jobs() -> int:
    """The number of worker processes by default: the number of cores."""
    return os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class Outcome(Generic[T, R]):
    """The result of the job on one input: ``value``, or ``failure`` when the job raised or
    its worker process died. ``seconds`` is the time the job took."""

    index: int
    item: T
    value: R | None
    failure: str | None
    seconds: float


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _run_one(job: Callable[[T], R], item: T) -> tuple[R | None, str | None, float]:
    start = time.perf_counter()
    try:
        value: R | None = job(item)
        failure = None
    except Exception as exc:  # a bug in a job must not stop the batch
        value, failure = None, _describe(exc)
    return value, failure, time.perf_counter() - start


def _worker_main(conn: Connection, job: Callable[[Any], Any]) -> None:
    """Loop of a worker process: receive ``(index, item)``, send back the outcome."""
    # Ctrl-C at a terminal reaches the whole process group: the parent alone decides.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                break
            if message is None:
                break
            index, item = message
            value, failure, seconds = _run_one(job, item)
            try:
                conn.send((index, value, failure, seconds))
            except (BrokenPipeError, EOFError):
                break
            except Exception as exc:  # an unpicklable result
                conn.send((index, None, f"result cannot be sent back: {_describe(exc)}",
                           seconds))
    finally:
        # Leave at once: no flushing of stdio buffers inherited from the parent.
        os._exit(0)


class _Worker:
    """One worker process and the pipe to it; ``busy`` is the index it is working on."""

    def __init__(self, context: Any, job: Callable[[Any], Any]) -> None:
        self.conn, child = multiprocessing.Pipe(duplex=True)
        self.process = context.Process(target=_worker_main, args=(child, job), daemon=True)
        self.process.start()
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
            linux = sys.platform.startswith("linux")
            self._context = multiprocessing.get_context("fork" if linux else None)
        # Buffered output would be written twice by a forked child that flushed it.
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
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
            for index, item in enumerate(items):
                value, failure, seconds = _run_one(self.job, item)
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


# --- the per-file jobs of the commands ------------------------------------------------------

_WARM_UP_RECORD = b"""
 1 point match

 Game 1
 a : 0                          b : 0
  1)                             63: 13/7 13/10
  2) 65: 24/18* 18/13            41: 25/21 10/9
"""


def warm_up() -> None:
    """Load what reading and replaying a first file loads (modules, grammars), so that forked
    workers inherit it and the first file's time is the file's own."""
    from bgtools.read.detect import read_records
    from bgtools.replay import profile_for, replay_match

    try:
        for record in read_records(_WARM_UP_RECORD, "<warm-up>").records:
            replay_match(record, profile_for(record, "standard"))
    except Exception:  # pragma: no cover - only a cache, never a reason to fail
        pass



@dataclass(frozen=True, slots=True)
class FileReport:
    """What a worker sends back about one file: small and picklable.

    ``objects`` are the contract's JSON objects of the file (``validate``: one; ``score``: one
    per match); ``problems`` the contract's problem objects; ``error`` the reason the file
    could not be read; ``extra`` what the human output needs besides the JSON.
    """

    display: str
    error: str | None = None
    valid: bool = False
    rolls: int = 0
    rules: str | None = None
    """The rule profile the file was replayed under (None: not replayed)."""
    objects: tuple[dict[str, Any], ...] = ()
    problems: tuple[dict[str, Any], ...] = ()
    extra: tuple[dict[str, Any], ...] = ()

    @property
    def errors(self) -> int:
        """The number of problems of severity ``error`` (an unreadable file counts one)."""
        if self.error is not None:
            return 1
        return sum(1 for p in self.problems if p["severity"] == "error")


def failed_report(display: str, failure: str) -> FileReport:
    """The report of a file whose job failed (a bug, or a worker that died)."""
    return FileReport(display, error=f"{display}: cannot be processed ({failure})")


def validate_report(item: Input, rules: str = "auto") -> FileReport:
    """The ``validate`` job: read and replay one file, keep its JSON object."""
    display, path, error = item
    result = analyse_file(display, path, error, rules)
    obj = validate_json(result)
    return FileReport(display, error=result.error, valid=result.valid,
                      rolls=sum(r.rolls for r in result.replays), rules=result.rules,
                      objects=(obj,),
                      problems=tuple(obj["problems"]) if result.error is None else ())


def score_report(item: Input, rules: str = "auto") -> FileReport:
    """The ``score`` job: one ``score`` object per match of the file, with what the
    human table needs besides (header names, post-Crawford games, running totals)."""
    from bgtools.reports.moments import header_names, running_totals, score_json

    display, path, error = item
    result = analyse_file(display, path, error, rules)
    problems = tuple(p.to_json() for p in result.problems) if result.error is None else ()
    objects = []
    extra = []
    for replay in result.replays:
        objects.append(score_json(display, result.format or replay.record.format, replay))
        names = header_names(replay)
        extra.append({
            "names": list(replay.names) if replay.names else None,
            "header_names": list(names) if names is not None else None,
            "post_crawford": [g.post_crawford for g in replay.games],
            "totals": [list(t) for t in running_totals(replay)],
        })
    return FileReport(display, error=result.error, valid=result.valid,
                      rolls=sum(r.rolls for r in result.replays), objects=tuple(objects),
                      problems=problems, extra=tuple(extra))


def _last_match(item: Input, rules: str) -> tuple[FileReport, Any]:
    """Read one file for ``pips``/``status``: its report so far and its last match (with
    the moments of its games), or None when it has none or cannot be read."""
    from bgtools.reports.moments import analyse_answers

    display, path, error = item
    result, answers = analyse_answers(display, path, error, rules)
    if result.error is not None:
        return FileReport(display, error=result.error), None
    report = FileReport(display, valid=result.valid,
                        rolls=sum(r.rolls for r in result.replays),
                        problems=tuple(p.to_json() for p in result.problems))
    return report, answers[-1] if answers else None


def _moment_extra(match: Any, moment: Any) -> dict[str, Any]:
    names = match.replay.names
    return {"names": list(names) if names else ["player 0", "player 1"],
            "game": moment.game, "move": moment.move, "final": moment.final,
            "player": moment.player, "dice": list(moment.dice) if moment.dice else None,
            "play": moment.play, "action": moment.action, "over": moment.over,
            "pips": list(moment.pips)}


def pips_report(item: Input, rules: str = "auto", game: int | None = None,
                move: int | None = None, all_moves: bool = False) -> FileReport:
    """The ``pips`` job: the ``pips`` object of one moment of the last match of the file
    (``--move`` alone: of its last game), or with ``all_moves`` of every moment of a game.
    A moment out of range is the file's error."""
    from bgtools.reports.moments import RangeError, pips_json

    report, match = _last_match(item, rules)
    if match is None:
        return report
    try:
        if all_moves:
            match.moment(game, None)  # the game must exist and have moments
            number = game if game is not None else len(match.replay.games)
            moments = match.game_moments(number)
        else:
            if move is not None and game is None:
                game = len(match.replay.games)
            moments = [match.moment(game, move)]
    except RangeError as exc:
        return replace(report, error=f"{report.display}: {exc}", problems=())
    return replace(report, objects=tuple(pips_json(report.display, m) for m in moments),
                   extra=tuple(_moment_extra(match, m) for m in moments))


def status_report(item: Input, rules: str = "auto", game: int | None = None,
                  move: int | None = None) -> FileReport:
    """The ``status`` job: the ``status`` object of one moment of the last match of the
    file (``--move`` alone: of its last game). A moment out of range is the file's error."""
    from bgtools.reports.moments import RangeError, status_json

    report, match = _last_match(item, rules)
    if match is None:
        return report
    if move is not None and game is None:
        game = len(match.replay.games)
    try:
        moment = match.moment(game, move)
    except RangeError as exc:
        return replace(report, error=f"{report.display}: {exc}", problems=())
    return replace(report, objects=(status_json(report.display, match.replay, moment),),
                   extra=(_moment_extra(match, moment),))


# --- the summary of a run -------------------------------------------------------------------


@dataclass(slots=True)
class BatchSummary:
    """Counts of a run, in constant memory: files valid, invalid and unreadable, problems by
    rule, rolls, and the ``slowest`` files (``keep_slowest`` of them)."""

    total: int | None = None
    keep_slowest: int = 5
    valid: int = 0
    invalid: int = 0
    unreadable: int = 0
    errors: int = 0
    warnings: int = 0
    rolls: int = 0
    interrupted: bool = False
    by_rule: Counter[tuple[str, str]] = field(default_factory=Counter)
    """``(rule, severity) -> count``."""
    by_profile: Counter[str] = field(default_factory=Counter)
    """Files replayed under each rule profile."""
    _slowest: list[tuple[float, int, str, int]] = field(default_factory=list)
    _started: float = field(default_factory=time.perf_counter)
    _elapsed: float | None = None

    @property
    def done(self) -> int:
        """Files processed so far."""
        return self.valid + self.invalid + self.unreadable

    def add(self, report: FileReport, seconds: float) -> None:
        """Count one file."""
        if report.error is not None:
            self.unreadable += 1
            self.errors += 1
            self.by_rule["unreadable", "error"] += 1
        else:
            if report.valid:
                self.valid += 1
            else:
                self.invalid += 1
            for prob in report.problems:
                self.by_rule[prob["rule"], prob["severity"]] += 1
                if prob["severity"] == "error":
                    self.errors += 1
                else:
                    self.warnings += 1
        self.rolls += report.rolls
        if report.rules is not None:
            self.by_profile[report.rules] += 1
        entry = (seconds, -self.done, report.display, report.rolls)
        if len(self._slowest) < self.keep_slowest:
            heapq.heappush(self._slowest, entry)
        else:
            heapq.heappushpop(self._slowest, entry)

    def finish(self, interrupted: bool = False) -> None:
        """Stop the clock."""
        self._elapsed = time.perf_counter() - self._started
        self.interrupted = interrupted

    @property
    def elapsed(self) -> float:
        """Seconds since the run started (until :meth:`finish`)."""
        if self._elapsed is not None:
            return self._elapsed
        return time.perf_counter() - self._started

    @property
    def slowest(self) -> list[tuple[str, int, float]]:
        """``(file, rolls, seconds)`` of the slowest files, slowest first."""
        ordered = sorted(self._slowest, key=lambda e: (-e[0], -e[1]))
        return [(display, rolls, seconds) for seconds, _, display, rolls in ordered]

    @property
    def rules(self) -> list[tuple[str, str, int]]:
        """``(rule, severity, count)``: errors first, then by count."""
        rows = [(rule, severity, count) for (rule, severity), count in self.by_rule.items()]
        rows.sort(key=lambda r: (r[1] != "error", -r[2], r[0]))
        return rows

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON object (not part of the contract's per-file output)."""
        return {
            "schema": SCHEMA, "files": self.done, "total": self.total, "valid": self.valid,
            "invalid": self.invalid, "unreadable": self.unreadable, "errors": self.errors,
            "warnings": self.warnings, "rolls": self.rolls, "seconds": round(self.elapsed, 3),
            "interrupted": self.interrupted,
            "rules": [{"rule": r, "severity": s, "count": c} for r, s, c in self.rules],
            "profiles": dict(self.by_profile.most_common()),
            "slowest": [{"file": f, "rolls": n, "seconds": round(t, 3)}
                        for f, n, t in self.slowest],
        }
