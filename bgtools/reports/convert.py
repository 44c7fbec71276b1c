"""Convert one match record to ``.mat``, SGF or bgtools JSON.

The data flow is the project's usual one: the input is read (any format bgtools
recognises) and replayed under the strict rules, and a writer renders the replayed match.
A record with errors is not converted: a writer would have to guess what it means.
Writing is atomic (see :mod:`bgtools.write.atomic`), so on any failure nothing is left behind,
and the input file is never opened for writing.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bgtools.errors import BgtoolsError
from bgtools.readers.inputs import GLOB_CHARACTERS, Input, expand_paths
from bgtools.record import Problem, Severity
from bgtools.replay import Event, MatchReplay, profile_for, replay_match
from bgtools.write.formats import WRITE_FORMATS, WRITERS, WriteFormatName, writer

if TYPE_CHECKING:
    from bgtools.readers.detect import InputSource

__all__ = [
    "SUFFIXES",
    "TARGET_FORMATS",
    "Conversion",
    "ConversionError",
    "DirectoryPlan",
    "InvalidRecordError",
    "PlannedOutput",
    "TargetFormat",
    "convert_file",
    "plan_directory",
    "render",
    "target_format",
]

TargetFormat = WriteFormatName
TARGET_FORMATS: tuple[TargetFormat, ...] = WRITE_FORMATS
"""The formats bgtools writes (one row each in :data:`bgtools.write.formats.WRITERS`)."""

_SUFFIXES: dict[str, TargetFormat] = {suffix: row.name for row in WRITERS
                                      for suffix in row.suffixes}

SUFFIXES: dict[TargetFormat, str] = {row.name: row.suffix for row in WRITERS}
"""The extension of each format's files, as ``convert -o DIR/`` names them."""


class ConversionError(BgtoolsError):
    """A conversion that cannot be done as asked (target format, existing output ...)."""


class InvalidRecordError(BgtoolsError):
    """The input breaks the rules, so it is not converted; ``problems`` says where."""

    def __init__(self, message: str, problems: list[Problem]) -> None:
        super().__init__(message)
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Conversion:
    """What a conversion produced: the target format, the text written (bytes for a binary
    format) and its match."""

    format: TargetFormat
    text: str | bytes
    replay: MatchReplay
    source_format: str


def target_format(output: str | None, requested: str | None) -> TargetFormat:
    """The format to write: ``requested`` when given, else from the output's extension;
    JSON (loss-free) when there is no output name (``output`` None: standard output or a
    directory)."""
    if requested is not None:
        wanted = requested.lower().lstrip(".")
        for name in TARGET_FORMATS:
            if wanted == name:
                return name
        raise ConversionError(
            f"unknown target format {requested!r}; choose one of {', '.join(TARGET_FORMATS)}"
        )
    if output is None:
        return "json"
    suffix = Path(output).suffix.lower()
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    raise ConversionError(
        f"cannot tell the format from {output!r}; give --to {'|'.join(TARGET_FORMATS)}"
    )


def render(replay: MatchReplay, events: list[Event], fmt: TargetFormat) -> str | bytes:
    """``replay``'s record (``events``: all the replay produced) in ``fmt``: text, or bytes
    for a binary format."""
    return writer(fmt).render(replay.record, replay, events)


def convert_file(source: InputSource, fmt: TargetFormat, *, rules: str = "auto",
                 name: str | None = None) -> Conversion:
    """Read ``source`` (a file, or standard input already read), replay it strictly and
    render it as ``fmt`` (nothing is written); ``name`` is the input as messages show it.

    Raises :class:`InvalidRecordError` when the record has errors, :class:`ConversionError`
    when the file holds other than one match, and the readers' errors for unreadable input.
    """
    from bgtools.readers.detect import load_file

    shown = str(source) if name is None else name
    loaded = load_file(source, shown)
    if len(loaded.records) != 1:
        raise ConversionError(
            f"{shown} holds {len(loaded.records)} matches; bgtools converts one match per file"
        )
    record = loaded.records[0]
    events: list[Event] = []
    replay = replay_match(record, profile_for(record, rules), on_event=events.append)
    errors = [p for p in replay.problems if p.severity is Severity.ERROR]
    if errors:
        raise InvalidRecordError(
            f"{shown} has {len(errors)} error{'s' if len(errors) != 1 else ''}; not converted",
            errors,
        )
    return Conversion(fmt, render(replay, events, fmt), replay, loaded.format)


@dataclass(frozen=True, slots=True)
class PlannedOutput:
    """What ``convert -o DIR/`` does with one input: write ``target``, or nothing because of
    ``refusal`` (the target is an input, or exists without ``--force``: then ``exists``);
    ``note`` says why the name keeps the input's extension (another input has the same
    name)."""

    display: str
    target: Path | None
    refusal: str | None = None
    note: str | None = None
    exists: bool = False


@dataclass(frozen=True, slots=True)
class DirectoryPlan:
    """The inputs of ``convert -o DIR/`` as found once (those that cannot be read included;
    a readable one's source is its path) and the output of each readable one, by display."""

    inputs: list[Input]
    outputs: dict[str, PlannedOutput]


def _fixed_prefix(pattern: str) -> Path:
    """The leading directories of a glob that hold no wildcard (``a/b`` for ``a/b/**/*.mat``)."""
    parts: list[str] = []
    for part in Path(pattern).parts[:-1]:
        if GLOB_CHARACTERS.intersection(part):
            break
        parts.append(part)
    return Path(*parts) if parts else Path()


def _relative_name(arg: str, path: Path) -> Path:
    """Where the input ``path`` (found from the argument ``arg``) goes under the output
    directory: a file by its name; a file of a walked directory or of a glob by its path
    under that directory (or the glob's fixed prefix), so that subdirectories are kept."""
    argument = Path(arg)
    if argument.is_dir():
        base = argument
    elif argument.exists():
        return Path(path.name)
    else:
        base = _fixed_prefix(arg)
    try:
        return path.relative_to(base)
    except ValueError:
        return Path(path.name)


def _same_path(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _outside(target: Path, directory: Path) -> bool:
    """Whether ``target`` leaves ``directory``: by its name (``..`` from a glob such as
    ``trav/*/../../x.mat``) or, resolved, through a link to a directory elsewhere."""
    name = os.path.normpath(os.path.relpath(target, directory))
    if os.path.isabs(name) or name == os.pardir or name.startswith(os.pardir + os.sep):
        return True
    home = os.path.realpath(directory)
    return os.path.commonpath([home, os.path.realpath(target)]) != home


def _key(path: Path) -> str:
    return os.path.normcase(os.path.normpath(path))


def plan_directory(args: Sequence[str], directory: Path, fmt: TargetFormat, *,
                   force: bool = False) -> DirectoryPlan:
    """One output per input of ``args`` (files, directories, globs) in ``directory``: the
    input's name (its path under a walked directory or a glob's fixed prefix) with the
    format's extension in place of its own. Inputs that cannot be read get no output
    (their reading reports them). The inputs are found once: files written meanwhile into
    a walked directory are not read.

    Inputs that would share an output name (``m.mat`` and ``m.sgf`` to ``m.json``) keep
    their own extension before the new one (``m.mat.json``, ``m.sgf.json``), with a
    ``note``. Raises :class:`ConversionError` when names still clash (an input given twice;
    nothing is written) or when ``args`` holds ``-`` (standard input has no name). A target
    that is an input, that exists without ``force`` or that lies outside ``directory`` (a
    ``..`` in a glob's match, a link to a directory elsewhere) is refused (``refusal``); the
    other inputs are still converted.
    """
    from bgtools.readers.detect import STDIN_ARGUMENT
    if STDIN_ARGUMENT in args:
        raise ConversionError("standard input has no name to derive an output file name "
                              "from; convert it alone with -o FILE (or -o -)")
    suffix = SUFFIXES[fmt]
    found: list[tuple[str, Path, Path]] = []  # display, input, name under the directory
    inputs: list[Input] = []
    for arg in args:
        for display, source, error in expand_paths([arg]):
            if isinstance(source, (str, Path)):
                path = Path(source)
                found.append((display, path, _relative_name(arg, path)))
                inputs.append(Input(display, path, error))
            else:
                inputs.append(Input(display, None, error))
    first = [_key(name.with_suffix(suffix)) for _, _, name in found]
    shared = {key for key, count in Counter(first).items() if count > 1}
    targets: list[tuple[str, Path, str | None]] = []
    for (display, _path, name), key in zip(found, first):
        if key in shared:
            target = directory / (str(name) + suffix)
            targets.append((display, target, f"{target}: named with its input's extension "
                            f"(another input also gives {directory / name.with_suffix(suffix)})"))
        else:
            targets.append((display, directory / name.with_suffix(suffix), None))
    _refuse_clashes(targets)
    sources = [path for _, path, _ in found]
    outputs = {}
    for display, target, note in targets:
        refusal = None
        exists = False
        if _outside(target, directory):
            refusal = f"{target} lies outside {directory}; not written"
        elif any(_same_path(target, other) for other in sources):
            refusal = f"{target} is an input file; bgtools never overwrites its input"
        elif target.is_dir():
            refusal = f"{target} is a directory"
        elif os.path.lexists(target) and not force:
            refusal = f"{target} exists; use --force to replace it"
            exists = True
        outputs[display] = PlannedOutput(display, target, refusal, note, exists)
    return DirectoryPlan(inputs, outputs)


def _refuse_clashes(targets: Iterable[tuple[str, Path, str | None]]) -> None:
    by_target: dict[str, list[str]] = {}
    for display, target, _note in targets:
        by_target.setdefault(_key(target), []).append(display)
    clashes = [(name, displays) for name, displays in by_target.items() if len(displays) > 1]
    if clashes:
        name, displays = clashes[0]
        more = f" (and {len(clashes) - 1} more such name(s))" if len(clashes) > 1 else ""
        raise ConversionError(
            f"{name} would be written from {len(displays)} inputs ({', '.join(displays)})"
            f"{more}; nothing written: is an input given twice?")
