"""Write output files atomically: a reader sees the old file or the whole new one, never half.

:func:`write_atomically` writes to a temporary file in the target's directory, flushes it
to disk, and renames it over the target (``os.replace``, atomic on POSIX). On any error,
Ctrl-C included, the temporary file is removed and the target is left as it was.
:func:`open_atomically` does the same for output streamed through a ``with`` block.

Only a regular file is ever replaced, and it keeps its permissions. A stream that exists
(a FIFO, a character device such as ``/dev/null``, or a process's open file reached
through ``/dev/stdout``, ``/dev/fd/N`` or ``/proc/PID/fd/N``) is written through instead,
never renamed over; any other file that is not regular (a block device, a socket) is
refused. :func:`check_output` says which, before any work is done.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from bgtools.errors import (
    InvalidPathError,
    OutputRefusedError,
    UnwritableOutputError,
    check_path_name,
)

__all__ = [
    "InvalidPathError",
    "OutputRefusedError",
    "STDIN_FD",
    "Protected",
    "UnwritableOutputError",
    "check_output",
    "open_atomically",
    "protected_input",
    "write_atomically",
    "write_bytes_atomically",
]

Protected = Path | str | int | None
"""What an output must never be: the input's path, or the file descriptor it was read from
(``0``: standard input, when it is a redirected file), or nothing."""

STDIN_FD = 0
"""Standard input's file descriptor: protected when the input was read from it (``-``)."""


def protected_input(source: object) -> Protected:
    """What an output must never overwrite for the input ``source`` (a path, or the bytes of
    standard input already read, as :data:`bgtools.readers.detect.InputSource` holds them):
    its path, or standard input's descriptor."""
    if isinstance(source, str | os.PathLike):
        return Path(source)
    return STDIN_FD


_MAX_LINKS = 40
"""The links followed to tell whether a path reaches a process's open file (as Linux's
own limit)."""


def _identity(info: os.stat_result) -> tuple[int, int]:
    return info.st_dev, info.st_ino


def _is_protected(path: Path, protect: Protected) -> bool:
    """Whether ``path`` is the file ``protect`` names (its path, or its open descriptor)."""
    if protect is None:
        return False
    try:
        if isinstance(protect, int):
            theirs = os.fstat(protect)
            if not stat.S_ISREG(theirs.st_mode):
                return False  # a pipe or a terminal: no file to overwrite
            return _identity(os.stat(path)) == _identity(theirs)
        return os.path.samefile(path, protect)
    except (OSError, ValueError):
        return False


def _reaches_open_file(path: Path) -> bool:
    """Whether ``path`` leads, through links, into ``/proc`` (Linux's links to the open files
    of a process: ``/dev/stdout``, ``/dev/fd/1``, ``/proc/self/fd/1``). Renaming over such
    a path would replace the link itself (``/dev/stdout``), never reach the open file."""
    current = os.path.abspath(path)
    for _ in range(_MAX_LINKS):
        parent = os.path.realpath(os.path.dirname(current))
        current = os.path.join(parent, os.path.basename(current))
        if current == "/proc" or current.startswith("/proc/"):
            return True
        if not os.path.islink(current):
            return False
        current = os.path.join(parent, os.readlink(current))
    return False


def check_output(path: Path, *, overwrite: bool = False, protect: Protected = None) -> bool:
    """Check that ``path`` may be written; True when it is a stream to write through.

    Raises OutputRefusedError for the input itself (``protect``, also through another name
    or a link), a directory, a file that is neither regular nor a stream (a block device,
    a socket), or an existing file without ``overwrite``; InvalidPathError for a path no
    file can have. A stream (a FIFO, a character device, a process's open file) is written
    through whether or not ``overwrite`` is given: nothing is replaced.
    """
    path = Path(path)
    check_path_name(path)
    if _is_protected(path, protect):
        raise OutputRefusedError(f"{path} is the input file; it is never overwritten")
    try:
        info: os.stat_result | None = os.stat(path)
    except OSError:
        info = None  # absent (or a dangling link): created; other errors come when writing
    if info is not None:
        mode = info.st_mode
        if stat.S_ISDIR(mode):
            raise OutputRefusedError(f"{path} is a directory")
        if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode):
            return True
        if not stat.S_ISREG(mode):
            raise OutputRefusedError(f"{path} is not a regular file, a FIFO or a character "
                                     "device; bgtools does not replace it")
        if _reaches_open_file(path):
            return True
    if not overwrite and os.path.lexists(path):
        raise OutputRefusedError(f"{path} exists; use --force to overwrite it")
    return False


def write_bytes_atomically(path: Path, data: bytes, *, overwrite: bool = False,
                           protect: Protected = None) -> None:
    """Write ``data`` to ``path`` atomically.

    Refuses (OutputRefusedError) an existing ``path`` unless ``overwrite``, and always
    refuses a ``path`` that is the same file as ``protect`` (the input: never overwritten,
    even through another name or a link). A new file gets the usual permissions (umask), a
    replaced one keeps its own; a stream is written through (see :func:`check_output`).
    What the system refuses raises UnwritableOutputError (an OSError).
    """
    with open_atomically(path, overwrite=overwrite, protect=protect) as handle, \
            _as_unwritable(Path(path)):
        handle.write(data)


@contextmanager
def _as_unwritable(path: Path) -> Iterator[None]:
    """Turn an OSError of writing ``path`` into UnwritableOutputError (kept as its cause)."""
    try:
        yield
    except UnwritableOutputError:
        raise
    except OSError as exc:
        raise UnwritableOutputError(exc.errno, exc.strerror or str(exc), str(path)) from exc


@contextmanager
def open_atomically(path: Path, *, overwrite: bool = False,
                    protect: Protected = None) -> Iterator[BinaryIO]:
    """A binary file to stream into; it becomes ``path`` only when the ``with`` block ends
    without an exception (then flushed to disk and renamed into place). On any exception,
    Ctrl-C included, the temporary file is removed and ``path`` is left as it was.

    The refusals are those of :func:`write_bytes_atomically`, checked before the block
    runs (and again at the rename without ``overwrite``, against a race). A stream (see
    :func:`check_output`) is opened and written through directly.
    """
    path = Path(path)
    if check_output(path, overwrite=overwrite, protect=protect):
        with _as_unwritable(path):
            stream = open(path, "wb")  # noqa: SIM115 - closed below, after the block
        with stream:
            yield stream
        return
    try:
        kept_mode: int | None = stat.S_IMODE(os.stat(path).st_mode) & 0o777
    except OSError:
        kept_mode = None
    directory = path.parent
    with _as_unwritable(path):
        fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            with _as_unwritable(path):
                handle.flush()
                os.fsync(handle.fileno())
        with _as_unwritable(path):
            _finish(temp, path, overwrite, kept_mode)
    except BaseException:
        with suppress(FileNotFoundError):
            temp.unlink()
        raise
    _fsync_directory(directory)


def _finish(temp: Path, path: Path, overwrite: bool, kept_mode: int | None) -> None:
    """Give ``temp`` its permissions and move it to ``path``."""
    if kept_mode is None:
        umask = os.umask(0)
        os.umask(umask)
        kept_mode = 0o666 & ~umask
    os.chmod(temp, kept_mode)
    if not overwrite:
        # os.link fails if the target appeared meanwhile: no silent overwrite in a race.
        try:
            os.link(temp, path)
        except FileExistsError:
            raise OutputRefusedError(f"{path} exists; use --force to overwrite it") from None
        except OSError:  # a file system without hard links
            os.replace(temp, path)
        else:
            temp.unlink()
    else:
        os.replace(temp, path)


def write_atomically(path: Path, text: str | bytes, *, overwrite: bool = False,
                     protect: Protected = None, encoding: str = "utf-8") -> None:
    """Write ``text`` (in ``encoding``; bytes as they are: a binary format) to ``path``
    atomically (see :func:`write_bytes_atomically`)."""
    data = text if isinstance(text, bytes) else text.encode(encoding)
    write_bytes_atomically(path, data, overwrite=overwrite, protect=protect)


def _fsync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

