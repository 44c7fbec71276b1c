"""Reading many files from Python: :func:`read_many`, the library's side of the command
line's batches (the same expansion of paths, the same ordered pool of worker processes)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from functools import partial
from pathlib import Path

from bgtools.api.reading import MatchFile, ReadFormat, check_read_format, read
from bgtools.batch.jobs import Input, warm_up
from bgtools.batch.pool import Batch
from bgtools.dataclass_methods import FrozenFieldMethods, prebuilt_dataclass
from bgtools.errors import BgtoolsError, describe_error
from bgtools.readers.detect import StdinInput

__all__ = ["ReadFailure", "read_many"]

PathArgument = str | os.PathLike[str]
"""A file, a directory or a glob, as the command line takes it."""


@prebuilt_dataclass
class ReadFailure(FrozenFieldMethods):
    """An input :func:`read_many` could not read: ``path`` as the command line shows it and
    ``message``, the one-line error the command line prints for it (a missing file, a glob
    that matches nothing, a file that is not a match record, a limit exceeded ...).

    It stands in the results at the input's place, so that one bad file does not stop the
    others; :func:`bgtools.read` raises the typed error for the same input."""

    path: str
    """The input as the command line shows it."""
    message: str
    """The one-line error the command line prints for it."""


def read_many(paths: PathArgument | Iterable[PathArgument], *, jobs: int = 1,
              format: ReadFormat | None = None,  # noqa: A002
              ) -> Iterator[MatchFile | ReadFailure]:
    """Read every match file of ``paths`` with ``jobs`` worker processes, in input order.

    ``paths`` (one or many) are expanded as the command line expands them: a file is read
    as given, a directory is walked recursively (the record extensions, sorted), a glob
    (``*``, ``?``, ``[...]``, ``**`` for any depth) gives its matches sorted, and ``-`` is
    standard input. Each input gives the :class:`~bgtools.api.reading.MatchFile` that
    :func:`bgtools.read` gives for it (``format``: the format every input must be in), or a
    :class:`ReadFailure` where that raises. The files are read lazily, a few ahead of the one
    awaited, so memory stays bounded on any number of files; ``jobs=1`` reads in this
    process. A usage error (an empty path, ``-`` given twice) raises
    :class:`~bgtools.errors.BgtoolsError` before anything is read.

    >>> import bgtools
    >>> [len(f) for f in bgtools.read_many(["samples/example_gnubg.mat", "samples/*.sgf"])]
    [1, 1]
    """
    from bgtools.readers.inputs import expand_paths

    check_read_format(format)
    if isinstance(paths, str | os.PathLike):
        paths = [paths]
    inputs = list(expand_paths([os.fspath(path) for path in paths]))  # usage errors now
    if jobs > 1:
        warm_up()  # forked workers inherit what reading loads
    with Batch(partial(_read_input, format=format), jobs=jobs) as batch:
        for outcome in batch.map(inputs):
            if outcome.value is not None:
                yield outcome.value
            else:
                display = outcome.item.display
                yield ReadFailure(display, f"{display}: {outcome.failure}")


def _read_input(item: Input, format: ReadFormat | None = None,  # noqa: A002
                ) -> MatchFile | ReadFailure:
    """The job of a worker: read one expanded input."""
    display, source, error = item
    if error is not None or source is None:
        return ReadFailure(display, error or f"{display}: nothing to read")
    try:
        if isinstance(source, StdinInput):
            return read(source.data, format=format)
        return read(Path(source), format=format)
    except BgtoolsError as exc:
        return ReadFailure(display, describe_error(exc, display)[0])
