"""Write output files atomically: a reader sees the old file or the whole new one, never half.

:func:`write_atomically` writes to a temporary file in the target's directory, flushes it
to disk, and renames it over the target (``os.replace``, atomic on POSIX). On any error,
Ctrl-C included, the temporary file is removed and the target is left as it was.
:func:`open_atomically` does the same for output streamed through a ``with`` block.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from bgtools.errors import OutputRefusedError

__all__ = ["OutputRefusedError", "open_atomically", "write_atomically", "write_bytes_atomically"]


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def write_bytes_atomically(path: Path, data: bytes, *, overwrite: bool = False,
                           protect: Path | None = None) -> None:
    """Write ``data`` to ``path`` atomically.

    Refuses (OutputRefusedError) an existing ``path`` unless ``overwrite``, and always
    refuses a ``path`` that is the same file as ``protect`` (the input: never overwritten,
    even through another name or a link). The new file gets the usual permissions (umask).
    """
    with open_atomically(path, overwrite=overwrite, protect=protect) as handle:
        handle.write(data)


@contextmanager
def open_atomically(path: Path, *, overwrite: bool = False,
                    protect: Path | None = None) -> Iterator[BinaryIO]:
    """A binary file to stream into; it becomes ``path`` only when the ``with`` block ends
    without an exception (then flushed to disk and renamed into place). On any exception,
    Ctrl-C included, the temporary file is removed and ``path`` is left as it was.

    The refusals are those of :func:`write_bytes_atomically`, checked before the block
    runs (and again at the rename without ``overwrite``, against a race).
    """
    path = Path(path)
    if protect is not None and _same_file(path, Path(protect)):
        raise OutputRefusedError(f"{path} is the input file; it is never overwritten")
    if path.is_dir():
        raise OutputRefusedError(f"{path} is a directory")
    if not overwrite and os.path.lexists(path):
        raise OutputRefusedError(f"{path} exists; use --force to overwrite it")
    directory = path.parent
    fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)
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
    except BaseException:
        with suppress(FileNotFoundError):
            temp.unlink()
        raise
    _fsync_directory(directory)


def write_atomically(path: Path, text: str, *, overwrite: bool = False,
                     protect: Path | None = None, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically (see :func:`write_bytes_atomically`)."""
    write_bytes_atomically(path, text.encode(encoding), overwrite=overwrite, protect=protect)


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
