"""Reports built from replayed records: the JSON objects of the CLI contract.

Pure data: this module reads files through :mod:`bgtools.readers` and replays them, and returns
dictionaries and plain lines; printing them (Rich or JSON) is the CLI's business.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bgtools.dataclass_methods import FieldMethods, prebuilt_dataclass
from bgtools.errors import BgtoolsError, InvalidPathError, describe_error
from bgtools.record import SCHEMA, Problem
from bgtools.replay import Event, MatchReplay, profile_for, replay_match

if TYPE_CHECKING:
    from bgtools.readers.detect import InputSource

__all__ = [
    "FileResult",
    "expand_paths",
    "glob_matches",
    "count_inputs",
    "analyse_file",
    "validate_json",
    "event_json",
    "play_label",
    "problem_location",
    "replay_rows",
    "problem_text",
]


# FileResult is a prebuilt dataclass (bgtools.dataclass_methods): dataclasses would compile its
# methods from source at every import of the reports.
@prebuilt_dataclass
class FileResult(FieldMethods):
    """One input file: its format, its replayed matches, or why it could not be read."""

    display: str
    format: str | None = None
    encoding: str | None = None
    replays: list[MatchReplay] = field(default_factory=list)
    error: str | None = None
    events: list[list[Event]] = field(default_factory=list)
    """Per replay, its events, when ``analyse_file(..., keep_events=True)`` asked for them."""

    @property
    def problems(self) -> list[Problem]:
        """Every problem of every match in the file, in file order."""
        out: list[Problem] = []
        for replay in self.replays:
            out.extend(replay.problems)
        return out

    @property
    def rules(self) -> str | None:
        """The name of the rule profile the file was replayed under (of its first match;
        ``auto`` picks one per match), or None when nothing was replayed."""
        return self.replays[0].profile.name if self.replays else None

    @property
    def valid(self) -> bool:
        """Readable and without errors."""
        return self.error is None and all(r.valid for r in self.replays)


GLOB_CHARACTERS = frozenset("*?[")


def expand_paths(args: Iterable[str]) -> Iterator[tuple[str, InputSource | None, str | None]]:
    """Yield ``(display, path, error)`` for every input, lazily and in a fixed order.

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
                yield STDIN_ARGUMENT, read_stdin(), None
            except (OSError, BgtoolsError) as exc:
                yield STDIN_ARGUMENT, None, describe_error(exc, STDIN_ARGUMENT)[0]
            continue
        path = Path(arg)
        display = printable_path(arg)
        try:
            is_dir = path.is_dir()
            exists = is_dir or path.exists()
        except OSError as exc:  # a name too long, a loop of links ...
            yield display, None, describe_error(exc, display)[0]
            continue
        if is_dir:
            yield from _walk(path)
        elif exists:
            # A FIFO is read without blocking (``<(cmd)`` works); the reader refuses the rest.
            yield display, path, None
        elif GLOB_CHARACTERS.intersection(arg):
            yield from _expand_glob(arg)
        else:
            yield display, None, f"{display}: no such file or directory"


def count_inputs(args: Iterable[str]) -> int:
    """The number of inputs :func:`expand_paths` yields for ``args``, counted by a walk of
    its own that keeps none of them (for a progress bar's total); standard input is
    counted, not read."""
    from bgtools.readers.detect import STDIN_ARGUMENT

    args = list(args)
    others = [arg for arg in args if arg != STDIN_ARGUMENT]
    return sum(1 for _ in expand_paths(others)) + len(args) - len(others)


def _walk(top: Path) -> Iterator[tuple[str, str | None, str | None]]:
    """The record files under ``top`` as :func:`os.walk` visits them top-down (a
    directory's files, sorted, then each subdirectory, sorted), lazily: one directory is
    listed at a time and only the sorted names of its record files (plain ``str``) and of
    its subdirectories are held, so memory does not grow with the number of files."""
    from bgtools.readers.source import printable_path

    yield from _walk_directory(str(top), printable_path)


def _walk_directory(root: str, printable: Callable[[str], str],
                    ) -> Iterator[tuple[str, str | None, str | None]]:
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
        yield printable(candidate), candidate, None
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


def _expand_glob(pattern: str) -> Iterator[tuple[str, InputSource | None, str | None]]:
    from bgtools.readers.source import printable_path

    matches = glob_matches(pattern)
    if not matches:
        yield pattern, None, f"{pattern}: no file matches"
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
                if os.path.normpath(item[0]) not in seen:
                    yield item
            continue
        seen.add(key)
        if path.is_file():
            yield display, path, None
        else:
            yield display, None, f"{display} is not a regular file"


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


def analyse_file(display: str, path: InputSource | None, error: str | None = None,
                 rules: str = "auto", on_event: Callable[[Event], None] | None = None,
                 keep_events: bool = False) -> FileResult:
    """Read and replay one file; unreadable input becomes ``FileResult.error``.

    ``on_event`` sees every event of the file as it happens; ``keep_events`` also keeps
    each replay's events in ``FileResult.events``.
    """
    result = FileResult(display)
    if error is not None or path is None:
        result.error = error or f"{display}: cannot be read"
        return result
    # Reading and replaying allocate many small objects and no reference cycles: the cyclic
    # collector would only rescan them (a fifth of the time on large archives).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _analyse(result, path, rules, on_event, keep_events)
    finally:
        if collecting:
            gc.enable()


def _analyse(result: FileResult, path: InputSource, rules: str,
             on_event: Callable[[Event], None] | None, keep_events: bool) -> FileResult:
    display = result.display
    from bgtools.readers.detect import load_file

    try:
        loaded = load_file(path, display)
    except (OSError, BgtoolsError) as exc:
        result.error = describe_error(exc, display)[0]
        return result
    result.format = loaded.format
    result.encoding = loaded.encoding
    for record in loaded.records:
        profile = profile_for(record, rules)
        sink = on_event
        if keep_events:
            kept: list[Event] = []
            result.events.append(kept)
            sink = kept.append if on_event is None else _tee(kept.append, on_event)
        result.replays.append(replay_match(record, profile, on_event=sink))
    return result


def _tee(first: Callable[[Event], None],
         second: Callable[[Event], None]) -> Callable[[Event], None]:
    def both(event: Event) -> None:
        first(event)
        second(event)

    return both


def unreadable_json(display: str, message: str, fmt: str | None = None) -> dict[str, Any]:
    """The contract's ``validate`` object for a file that could not be read (or whose job
    failed): one ``unreadable`` error saying why."""
    return {
        "schema": SCHEMA, "file": display, "format": fmt, "rules": None,
        "valid": False, "games": 0, "complete": False,
        "problems": [{"severity": "error", "rule": "unreadable", "line": None,
                      "column": None, "game": None, "message": message}],
    }


def validate_json(result: FileResult) -> dict[str, Any]:
    """The contract's ``validate`` object for one file."""
    if result.error is not None:
        return unreadable_json(result.display, result.error, result.format)
    games = sum(len(r.games) for r in result.replays)
    complete = bool(result.replays) and all(r.complete for r in result.replays)
    return {
        "schema": SCHEMA,
        "file": result.display,
        "format": result.format,
        "rules": result.rules,
        "valid": result.valid,
        "games": games,
        "complete": complete,
        "problems": [p.to_json() for p in result.problems],
    }


def event_json(display: str, event: Event) -> dict[str, Any]:
    """The contract's ``replay --jsonl`` object for one action."""
    before = event.position_before
    obj: dict[str, Any] = {"schema": SCHEMA, "file": display, "game": event.game}
    obj.update(event.action_fields())
    if event.action == "move":
        after = event.position_after
        obj["position_id_after"] = after.swapped().position_id if after is not None else None
    else:  # a cube action, a resignation or its answer leaves the board as it was
        obj["position_id_after"] = obj["position_id_before"]
    mover, opponent = before.pips
    actor = event.state_before.on_roll
    obj["pips_before"] = [mover, opponent] if actor == 0 else [opponent, mover]
    obj["cube_before"] = event.state_before.cube_value
    obj["cube_owner_before"] = event.state_before.cube_owner
    return obj


def play_label(event: Event, following: Event | None = None,
               text: str | None = None) -> str:
    """How a table shows the play of a ``move`` event (``""`` for other actions), so that
    no two cases look alike: the play; ``(no legal play)`` for a roll that cannot be played
    (a dance); a play the file does not write but the rules force, followed by
    ``(assumed)``; ``(rolled, then resigned)``; ``(not played)`` when the record stops after
    the roll; and the text as written followed by ``(not replayed)`` (``(empty; not
    replayed)`` when nothing is written) for a play the replay could not apply, whose
    problem is reported. ``following`` is the next event of the game, if any; ``text`` is
    ``str(event.play)`` when the caller has it already."""
    if event.action != "move":
        return ""
    source = event.source
    written = ""
    if source is not None:
        written = (source.illegal_text if source.illegal and source.illegal_text is not None
                   else source.play_text).strip()
    play = event.play
    if play is not None:
        if text is None:
            text = str(play)
        if source is not None and source.illegal:
            return f"{text or written} (marked illegal)".strip()
        if not text:
            return "(no legal play)"
        if source is not None and source.steps is None and not written:
            return f"{text} (assumed)"
        return text
    if following is not None and following.action == "resign":
        return "(rolled, then resigned)"
    if following is None and not written:
        return "(not played)"
    return f"{written} (not replayed)" if written else "(empty; not replayed)"


ACTION_VERBS = {"take": "takes", "drop": "drops", "beaver": "beavers", "raccoon": "raccoons",
                "resign": "resigns", "accept": "accepts"}
"""The verb of each action other than a play or a double, as the views word it."""


def action_words(action: str | None, label: str, cube_value: int) -> str:
    """How every view words one action, without its player and dice: a ``move`` as
    :func:`play_label` shows it (``label``), ``doubles to 4`` (``cube_value``: the cube
    before the action), ``takes``, ``drops``, ``beavers``, ``resigns``, ``accepts``."""
    if action == "move":
        return label
    if action == "double":
        return f"doubles to {2 * cube_value}"
    return ACTION_VERBS.get(action or "", action or "acts")


def replay_rows(display: str, events: list[Event]) -> list[dict[str, Any]]:
    """The rows of ``bgtools replay``'s table: each event's ``replay --jsonl`` object with
    ``"label"``, its play as :func:`play_label` shows it."""
    rows: list[dict[str, Any]] = []
    for k, event in enumerate(events):
        following = events[k + 1] if k + 1 < len(events) else None
        if following is not None and following.game != event.game:
            following = None
        rows.append({**event_json(display, event), "label": play_label(event, following)})
    return rows


def problem_location(display: str, prob: dict[str, Any]) -> str:
    """``path:line:col`` of a problem in its JSON form (line and column left out when
    unknown); ``path: game G, move M`` for a binary record's problem."""
    where = display
    if prob["line"]:
        where += f":{prob['line']}" + (f":{prob['column']}" if prob["column"] else "")
    elif prob.get("move") is not None:  # a binary record (.xg, .bgf): no lines
        where += f": game {prob['game']}, move {prob['move']}"
    return where


def problem_text(display: str, prob: dict[str, Any]) -> str:
    """One plain line for a problem in its JSON form: ``path:line:col: severity[rule]: msg``."""
    return (f"{problem_location(display, prob)}: {prob['severity']}[{prob['rule']}]: "
            f"{prob['message']}\n")
