"""Batch runs at the terminal: the progress bar, the run loop and the summary table.

The commands that read many files (``validate``, ``score``, ``pips``, ``status``) run their
per-file job through :func:`run_batch`, which spreads the files over worker processes
(:class:`bgtools.batch.Batch`), shows a Rich progress bar on stderr when stderr is a
terminal (never with ``--json``), hands every report to the command in input order, and
stops cleanly on Ctrl-C. :func:`print_summary` draws the summary of the run;
:func:`print_interrupted` is its one line when stderr is no terminal.

``BGTOOLS_PROGRESS=1`` makes the program behave as if stderr were a terminal, ``0`` as if it
were not (for tests and scripts). Rich is imported only when something is drawn.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bgtools.batch import Batch, BatchSummary, FileReport, Input, failed_report, warm_up
from bgtools.batch.cluster import ClusterError
from bgtools.cli.errors import fail

if TYPE_CHECKING:
    from rich.console import Console

    from bgtools.batch.cluster import ClusterBatch

__all__ = [
    "print_interrupted",
    "print_summary",
    "progress_layout",
    "run_batch",
    "stderr_is_terminal",
]


def stderr_is_terminal() -> bool:
    """True when stderr is a terminal, or ``BGTOOLS_PROGRESS=1`` says to act as if it were."""
    forced = os.environ.get("BGTOOLS_PROGRESS")
    if forced in ("0", "1"):
        return forced == "1"
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


_PROGRESS_PARTS: tuple[tuple[str, int], ...] = (
    ("reading", 7), ("bar", 10), ("files", 0), ("rate", 15), ("errors", 12),
    ("elapsed", 7), ("eta", 11),
)
"""The parts of the progress bar, in display order, with the width each needs (the bar at
its narrowest; the file count's width depends on the total)."""

_PROGRESS_DROP_ORDER = ("reading", "elapsed", "rate", "eta", "errors")
"""The parts left out, in this order, while the bar does not fit the terminal's width (the
bar and the file count always stay)."""

_WIDEST_BAR = 40


def progress_layout(width: int, total: int | None) -> tuple[list[str], int]:
    """The parts of the progress bar that fit ``width`` columns, in display order, and the
    width of the bar itself (10 to 40 columns).

    The bar must never wrap at a narrow terminal: a wrapped transient bar leaves its
    lines behind. One column is kept free so that the terminal never wraps the line.
    """
    digits = len(str(total)) if total is not None else 1
    widths = dict(_PROGRESS_PARTS)
    widths["files"] = 2 * digits + len("/ files")
    shown = [name for name, _ in _PROGRESS_PARTS]

    def needed() -> int:
        return sum(widths[name] for name in shown) + len(shown) - 1

    available = width - 1
    for name in _PROGRESS_DROP_ORDER:
        if needed() <= available:
            break
        shown.remove(name)
    bar = widths["bar"] + max(0, available - needed())
    return shown, max(widths["bar"], min(_WIDEST_BAR, bar))


_UPDATE_SECONDS = 0.1
"""The shortest time between two updates of the progress bar."""


class _Progress:
    """The Rich progress bar of a run, or nothing at all when disabled."""

    def __init__(self, enabled: bool, total: int | None) -> None:
        self._progress: Any = None
        self._task: Any = None
        self._updated = -_UPDATE_SECONDS
        if not enabled:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        console = Console(stderr=True, force_terminal=True if stderr_is_terminal() else None,
                          highlight=False)
        try:
            stdout_is_terminal = sys.stdout.isatty()
        except (AttributeError, ValueError):
            stdout_is_terminal = False
        shown, bar_width = progress_layout(console.width, total)
        texts = {
            "reading": "[bold]{task.description}",
            "files": "{task.completed}/{task.total} files",
            "rate": "{task.fields[rate]} rolls/s",
            "errors": "{task.fields[errors]} error(s)",
            "eta": "ETA",
        }
        columns: list[Any] = []
        for name in shown:
            if name == "bar":
                columns.append(BarColumn(bar_width=bar_width))
            elif name == "elapsed":
                columns.append(TimeElapsedColumn())
            elif name == "eta":
                columns.extend((TextColumn(texts[name]), TimeRemainingColumn()))
            else:
                columns.append(TextColumn(texts[name]))
        # A terminal stdout shares the screen with the bar: the bar is taken down while a
        # file's lines are printed (see output), so it is refreshed only by update(), with no
        # refresh thread to draw it in between. A piped stdout is left be.
        self._pause_for_output = stdout_is_terminal
        self._progress = Progress(
            *columns,
            console=console,
            transient=True,
            auto_refresh=not stdout_is_terminal,
            redirect_stdout=False,
            redirect_stderr=not stdout_is_terminal,
        )
        self._task = self._progress.add_task("reading", total=total, rate="0", errors=0)

    def __enter__(self) -> _Progress:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    @contextmanager
    def output(self) -> Iterator[None]:
        """Around what the command prints for a file: at a terminal stdout the bar is taken
        down first and drawn again after, so that no line is printed over it."""
        if self._progress is None or not self._pause_for_output:
            yield
            return
        self._progress.stop()
        try:
            yield
        finally:
            sys.stdout.flush()
            self._progress.start()

    def update(self, summary: BatchSummary) -> None:
        """Show the state of the run (at most every :data:`_UPDATE_SECONDS`, and at its
        last file)."""
        if self._progress is None:
            return
        # Rich keeps a sample per update for its speed (up to 1,000 a task), and an update
        # costs more than a small file: ten a second are enough for the eye.
        now = time.monotonic()
        if now - self._updated < _UPDATE_SECONDS and summary.done != summary.total:
            return
        self._updated = now
        elapsed = summary.elapsed
        rate = f"{summary.rolls / elapsed:,.0f}" if elapsed > 0 else "0"
        self._progress.update(self._task, completed=summary.done, rate=rate,
                              errors=summary.errors)
        if self._pause_for_output:
            self._progress.refresh()


def _single_file(paths: list[str]) -> bool:
    return len(paths) == 1 and (paths[0] == "-" or Path(paths[0]).is_file())


def run_batch(job: Callable[..., FileReport], paths: list[str], jobs: int, as_json: bool,
              on_report: Callable[[FileReport], None], expanded: list[Input] | None = None,
              scheduler: str | None = None, **options: Any) -> BatchSummary:
    """Run ``job(item, **options)`` on every input of ``paths`` with ``jobs`` processes and
    give each report to ``on_report``, in input order; return the summary of the run.
    ``expanded``: the inputs of ``paths`` already expanded (not walked again).
    ``scheduler`` (``--scheduler``): run the jobs on the workers of that Dask scheduler
    instead (``local``: a cluster of ``jobs`` worker processes on this machine), with the
    same reports in the same order; see :mod:`bgtools.batch.cluster`.

    A progress bar is drawn on stderr when it is a terminal and not ``as_json``. Ctrl-C
    stops the workers and returns the summary of what was done, marked ``interrupted``.
    """
    from bgtools.readers.inputs import count_inputs, expand_paths

    show_progress = not as_json and stderr_is_terminal()
    summary = BatchSummary()
    interrupted = False
    try:
        inputs: Iterable[Input] = expand_paths(paths) if expanded is None else expanded
        if expanded is not None:
            summary.total = len(expanded)
        elif show_progress:
            # The total, for the bar and its ETA, from a walk of its own: keeping the inputs
            # in a list would hold every path of the run at once.
            summary.total = count_inputs(paths)
        if summary.total is not None:
            show_progress = show_progress and summary.total > 1  # one file: a bar says nothing
        executor: Batch[Input, FileReport] | ClusterBatch[Input, FileReport]
        if scheduler is not None:
            from bgtools.batch import absolute_input
            from bgtools.batch.cluster import ClusterBatch

            executor = ClusterBatch(partial(job, **options), scheduler, jobs)
            inputs = map(absolute_input, inputs)  # the workers' directory is not ours
        else:
            if _single_file(paths) or (summary.total is not None and summary.total <= 1):
                jobs = 1
            elif jobs > 1:
                warm_up()  # for the forked workers to inherit; one process loads as it goes
            executor = Batch(partial(job, **options), jobs)
        with executor as batch:
            if summary.total is not None:
                batch.start(summary.total)  # fork before the progress thread exists
            with _Progress(show_progress, summary.total) as progress:
                for outcome in batch.map(inputs):
                    report = outcome.value
                    if outcome.failure is not None or report is None:
                        report = failed_report(outcome.item.display, outcome.failure or "no result")
                    summary.add(report, outcome.seconds)
                    with progress.output():
                        on_report(report)
                    # Each file's output leaves at once, even into a pipe.
                    sys.stdout.flush()
                    progress.update(summary)
    except KeyboardInterrupt:
        interrupted = True
    except ClusterError as exc:  # no Dask, no scheduler, or the scheduler lost: a usage error
        fail(str(exc))
    summary.finish(interrupted)
    return summary


def print_summary(summary: BatchSummary, console: Console, verbose: bool = False) -> None:
    """Draw the summary of a run: files valid, invalid and unreadable, problems by rule, the
    slowest files (when ``verbose``), how far an interrupted run got, and last the files
    with errors (the first ``summary.keep_failed``)."""
    from rich.markup import escape
    from rich.table import Table

    elapsed = summary.elapsed
    rate = f"{summary.rolls / elapsed:,.0f}" if elapsed > 0 else "0"
    if summary.interrupted:
        of = f" of {summary.total}" if summary.total is not None else ""
        console.print(f"[bold yellow]interrupted[/] after {summary.done}{of} file(s)")
    console.print(
        f"[bold]{summary.done} file(s):[/] [green]{summary.valid} valid[/], "
        f"[red]{summary.invalid} invalid[/], {summary.unreadable} unreadable; "
        f"{summary.errors} error(s), {summary.warnings} warning(s); "
        f"{summary.rolls:,} rolls in {elapsed:.2f} s ({rate} rolls/s)"
    )
    if summary.by_profile:
        profiles = ", ".join(f"{name} {count}" for name, count in summary.by_profile.most_common())
        console.print(f"house rules (files): {escape(profiles)}")
    rules = summary.rules
    if rules:
        table = Table(title="problems by rule", show_edge=False, pad_edge=False)
        table.add_column("rule")
        table.add_column("severity")
        table.add_column("count", justify="right")
        for rule, severity, count in rules:
            colour = "red" if severity == "error" else "yellow"
            table.add_row(escape(rule), f"[{colour}]{severity}[/]", str(count))
        console.print(table)
    slowest = summary.slowest
    if verbose and summary.done > 1 and slowest:
        table = Table(title="slowest files", show_edge=False, pad_edge=False)
        table.add_column("file")
        table.add_column("rolls", justify="right")
        table.add_column("seconds", justify="right")
        for display, rolls, seconds in slowest:
            table.add_row(escape(display), str(rolls), f"{seconds:.3f}")
        console.print(table)
    if summary.done > 1 and summary.failed:
        _print_failed(summary, console)


def _print_failed(summary: BatchSummary, console: Console) -> None:
    """The files with errors, one a line, in input order (the first ``keep_failed``)."""
    from rich.markup import escape

    count = summary.failed_count
    shown = len(summary.failed)
    more = f", the first {shown} listed" if shown < count else ""
    console.print(f"[bold]{count} file(s) with errors[/]{more}:")
    width = max(len(display) for display, _ in summary.failed)
    for display, errors in summary.failed:
        why = "unreadable" if errors is None else f"{errors} error(s)"
        console.print(f"  {escape(display.ljust(width))}  [red]{why}[/]")


def print_interrupted(summary: BatchSummary) -> None:
    """The one line on stderr after Ctrl-C when no summary is drawn."""
    sys.stderr.write(f"bgtools: interrupted after {summary.done} file(s)\n")
