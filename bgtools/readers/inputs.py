"""The inputs of a command: its path arguments expanded into files, in a fixed order.

A file is taken as given, a directory walked (record files only, regular files only,
sorted, lazily), a glob expanded without following links to directories, ``-`` read as
standard input; an argument that names nothing becomes an input with an error, so that a
command reports it in its place. Every command and :func:`bgtools.read_many` expand their
arguments here, and the readers' table (:data:`bgtools.readers.detect.RECORD_SUFFIXES`)
decides which files a walk takes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from bgtools.errors import BgtoolsError, InvalidPathError, describe_error

if TYPE_CHECKING:
    from bgtools.readers.detect import InputSource

__all__ = ["GLOB_CHARACTERS", "Input", "RECURSIVE_WILDCARD", "count_inputs", "expand_paths",
           "glob_matches"]


class Input(NamedTuple):
    """One input of a command, as :func:`expand_paths` yields it."""

    display: str
    """The input's name as messages show it (printable: non-UTF-8 bytes as ``\\xNN``; ``-``
    for standard input)."""
    source: InputSource | None
    """What to read: a file's path, or standard input already read; None when the input
    cannot be read (see :attr:`error`)."""
    error: str | None
    """Why the input cannot be read (a missing path, a glob that matches nothing ...), or
    None."""


GLOB_CHARACTERS = frozenset("*?[")


def expand_paths(args: Iterable[str]) -> Iterator[Input]:
    """Yield an :class:`Input` ``(display, source, error)`` for every argument's inputs, lazily
    and in a fixed order.

    Files are taken as given; directories are walked recursively (record extensions only,
    regular files only, sorted). An argument with ``*``, ``?`` or ``[`` that is not an
    existing path is a glob (``**`` matches any depth, entering no link to a directory:
    :func:`glob_matches`): its matches, sorted, are taken as files or walked as directories,
    each once. A missing path or a glob that matches
    nothing yields an error. ``display`` is printable (non-UTF-8 bytes as ``\\xNN``).
    ``-`` is standard input, read whole here (in this process) when its turn comes and
    shown as ``-``; given twice it raises RepeatedStdinError. An empty path raises
    InvalidPathError (a usage error).
    """
    from bgtools.readers.detect import STDIN_ARGUMENT, RepeatedStdinError, read_stdin
    from bgtools.readers.source import printable_path

    args = list(args)
    if args.count(STDIN_ARGUMENT) > 1:
        raise RepeatedStdinError("standard input ('-') can be read only once; give '-' once")
    if "" in args:  # Path("") is "."; a usage error rather than the current directory
        raise InvalidPathError("an empty path names no file; give '.' for the current "
                               "directory")
    for arg in args:
        if arg == STDIN_ARGUMENT:
            try:
                yield Input(STDIN_ARGUMENT, read_stdin(), None)
            except (OSError, BgtoolsError) as exc:
                yield Input(STDIN_ARGUMENT, None, describe_error(exc, STDIN_ARGUMENT)[0])
            continue
        path = Path(arg)
        display = printable_path(arg)
        try:
            is_dir = path.is_dir()
            exists = is_dir or path.exists()
        except OSError as exc:  # a name too long, a loop of links ...
            yield Input(display, None, describe_error(exc, display)[0])
            continue
        if is_dir:
            yield from _walk(path)
        elif exists:
            # A FIFO is read without blocking (``<(cmd)`` works); the reader refuses the rest.
            yield Input(display, path, None)
        elif GLOB_CHARACTERS.intersection(arg):
            yield from _expand_glob(arg)
        else:
            yield Input(display, None, f"{display}: no such file or directory")


def count_inputs(args: Iterable[str]) -> int:
    """The number of inputs :func:`expand_paths` yields for ``args``, counted by a walk of
    its own that keeps none of them (for a progress bar's total); standard input is
    counted, not read."""
    from bgtools.readers.detect import STDIN_ARGUMENT

    args = list(args)
    others = [arg for arg in args if arg != STDIN_ARGUMENT]
    return sum(1 for _ in expand_paths(others)) + len(args) - len(others)


def _walk(top: Path) -> Iterator[Input]:
    """The record files under ``top`` as :func:`os.walk` visits them top-down (a
    directory's files, sorted, then each subdirectory, sorted), lazily: one directory is
    listed at a time and only the sorted names of its record files (plain ``str``) and of
    its subdirectories are held, so memory does not grow with the number of files."""
    from bgtools.readers.source import printable_path

    yield from _walk_directory(str(top), printable_path)


def _walk_directory(root: str, printable: Callable[[str], str],
                    ) -> Iterator[Input]:
    from bgtools.readers.detect import RECORD_SUFFIXES

    files: list[str] = []
    subdirectories: list[str] = []
    try:
        with os.scandir(root) as entries:
            for entry in entries:
                name = entry.name
                try:
                    if entry.is_dir():
                        # As os.walk: a link to a directory is not followed.
                        if not entry.is_symlink():
                            subdirectories.append(name)
                    # Only regular files: a FIFO or socket in a tree would block or fail.
                    elif name.lower().endswith(RECORD_SUFFIXES) and entry.is_file():
                        files.append(name)
                except OSError:
                    continue
    except OSError:  # as os.walk: a directory that cannot be listed is left out
        return
    files.sort()
    for name in files:
        # A str, not a Path: pathlib interns every part it parses, and a new name per file
        # keeps the interpreter's table of interned strings resizing (+0.65 MB of peak
        # memory from 10^3 to 10^5 files). ``root`` is normalised as ``str(Path)`` makes it
        # and ``name`` is one component, so the joined string is what ``str(Path(...))``
        # would print.
        candidate = _child_path(root, name)
        yield Input(printable(candidate), candidate, None)
    del files
    subdirectories.sort()
    for name in subdirectories:
        yield from _walk_directory(_child_path(root, name), printable)


def _child_path(root: str, name: str) -> str:
    """``str(Path(root) / name)`` for a normalised ``root`` and a single-component
    ``name``, without building (and interning) a Path."""
    return name if root == "." else os.path.join(root, name)


RECURSIVE_WILDCARD = "**"
"""The path component of a glob that matches any number of directories."""


def glob_matches(pattern: str) -> list[str]:
    """The matches of ``pattern`` as ``glob.glob(pattern, recursive=True)`` gives them (in no
    set order), except that ``**`` neither enters nor yields a link to a directory, as the
    walk of a directory does not: a link looping back would yield every file below it
    dozens of times, and two such links make Python's glob run for hours."""
    import glob

    parts = pattern.split(os.sep)
    if RECURSIVE_WILDCARD not in parts:
        return glob.glob(pattern, recursive=True)
    at = parts.index(RECURSIVE_WILDCARD)
    prefix = os.sep.join(parts[:at])
    last = at == len(parts) - 1  # "a/**": every file and directory below
    rest = os.sep.join(parts[at + 1:])  # "" for "a/**/": the directories, written "d/"
    if at == 0:
        bases = [""]
    elif not prefix:  # the root: "/**"
        bases = [os.sep]
    else:
        found = glob.glob(prefix) if glob.has_magic(prefix) else [prefix]
        bases = [base for base in found if os.path.isdir(base)]
    matches: list[str] = []
    for base in bases:
        for below in _tree(base, directories_only=not last):
            here = os.path.join(base, below) if base else below
            if last:
                if here:
                    matches.append(here)
            elif here:
                matches.extend(glob_matches(os.path.join(glob.escape(here), rest)))
            elif rest:
                matches.extend(glob_matches(rest))
    return matches


def _tree(base: str, directories_only: bool) -> Iterator[str]:
    """What ``**`` matches under the directory ``base``: ``""`` (no directory), then the
    path under ``base`` of every directory (and file, unless ``directories_only``) that is
    not hidden and not a link to a directory, entering no such link."""
    yield ""
    pending = [""]
    while pending:
        below = pending.pop()
        try:
            with os.scandir(os.path.join(base, below) if below else (base or ".")) as entries:
                listed = sorted((entry.name, _kind(entry)) for entry in entries
                                if not entry.name.startswith("."))
        except OSError:
            continue
        for name, kind in listed:
            path = os.path.join(below, name) if below else name
            if kind == "directory":
                yield path
                pending.append(path)
            elif kind == "file" and not directories_only:
                yield path


def _kind(entry: os.DirEntry[str]) -> str:
    """``directory`` (a real one), ``link`` (to a directory), or ``file`` (anything else)."""
    try:
        if entry.is_dir(follow_symlinks=False):
            return "directory"
        return "link" if entry.is_symlink() and entry.is_dir() else "file"
    except OSError:
        return "file"


def _expand_glob(pattern: str) -> Iterator[Input]:
    from bgtools.readers.source import printable_path

    matches = glob_matches(pattern)
    if not matches:
        yield Input(pattern, None, f"{pattern}: no file matches")
        return
    matches.sort()
    # Each input once, without a set of every file yielded: a match inside a directory
    # walked before is left out when that walk reached it (_reached_by_walk), and ``seen``
    # holds the matches taken as files, no more than the glob's own list.
    seen: set[str] = set()
    walked: set[str] = set()
    for match in matches:
        path = Path(match)
        display = printable_path(match)
        key = os.path.normpath(display)
        if key in seen or _reached_by_walk(os.path.normpath(match), walked):
            continue
        if path.is_dir():
            walked.add(os.path.normpath(match))
            for item in _walk(path):
                if os.path.normpath(item.display) not in seen:
                    yield item
            continue
        seen.add(key)
        if path.is_file():
            yield Input(display, path, None)
        else:
            yield Input(display, None, f"{display} is not a regular file")


def _reached_by_walk(match: str, walked: set[str]) -> bool:
    """Whether the walk of a directory in ``walked`` (normalised paths) yielded ``match``
    already, or all of it for a directory: it is below one through directories that are
    not links (a walk follows none), and is a record file or a directory that is no link."""
    if not walked:
        return False
    child = match
    while True:
        parent = os.path.dirname(child) or "."
        if parent == child:
            return False
        if parent in walked:
            break
        if os.path.islink(parent):
            return False
        child = parent
    from bgtools.readers.detect import RECORD_SUFFIXES

    if os.path.isdir(match):
        return not os.path.islink(match)
    return match.lower().endswith(RECORD_SUFFIXES) and os.path.isfile(match)
