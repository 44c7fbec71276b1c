"""Reports built from replayed records: the JSON objects of the CLI contract.

Pure data: this module reads files through :mod:`bgtools.readers` and replays them, and returns
dictionaries and plain lines; printing them (Rich or JSON) is the CLI's business.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import field
from typing import TYPE_CHECKING, cast

from bgtools.dataclass_methods import FieldMethods, prebuilt_dataclass
from bgtools.errors import BgtoolsError, describe_error
from bgtools.record import SCHEMA, Problem
from bgtools.replay import Event, MatchReplay, profile_for, replay_match

if TYPE_CHECKING:
    from bgtools.readers.detect import InputSource
    from bgtools.record.model import ProblemObject
    from bgtools.reports.objects import EventObject, ReplayRow, ValidateObject

__all__ = [
    "FileResult",
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
    with collector_paused():
        return _analyse(result, path, rules, on_event, keep_events)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a read or a replay, as ``bgtools
    validate`` does: they allocate many small objects and no reference cycles, which the
    collector would only rescan again and again (a fifth of the time on large archives).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
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


def unreadable_json(display: str, message: str, fmt: str | None = None) -> ValidateObject:
    """The contract's ``validate`` object for a file that could not be read (or whose job
    failed): one ``unreadable`` error saying why."""
    return {
        "schema": SCHEMA, "file": display, "format": fmt, "rules": None,
        "valid": False, "games": 0, "complete": False,
        "problems": [{"severity": "error", "rule": "unreadable", "line": None,
                      "column": None, "game": None, "message": message}],
    }


def validate_json(result: FileResult) -> ValidateObject:
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


def event_json(display: str, event: Event) -> EventObject:
    """The contract's ``replay --jsonl`` object for one action."""
    before = event.position_before
    # Built in the contract's order, the action's fields (a compiled method's plain dict)
    # in the middle: typed as the whole object from the start (cast: no copy, no check).
    obj = cast("EventObject", {"schema": SCHEMA, "file": display, "game": event.game})
    obj.update(cast("EventObject", event.action_fields()))
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


def replay_rows(display: str, events: list[Event]) -> list[ReplayRow]:
    """The rows of ``bgtools replay``'s table: each event's ``replay --jsonl`` object with
    ``"label"``, its play as :func:`play_label` shows it."""
    rows: list[ReplayRow] = []
    for k, event in enumerate(events):
        following = events[k + 1] if k + 1 < len(events) else None
        if following is not None and following.game != event.game:
            following = None
        rows.append({**event_json(display, event), "label": play_label(event, following)})
    return rows


def problem_location(display: str, prob: ProblemObject) -> str:
    """``path:line:col`` of a problem in its JSON form (line and column left out when
    unknown); ``path: game G, move M`` for a binary record's problem."""
    where = display
    if prob["line"]:
        where += f":{prob['line']}" + (f":{prob['column']}" if prob["column"] else "")
    elif prob.get("move") is not None:  # a binary record (.xg, .bgf): no lines
        where += f": game {prob['game']}, move {prob['move']}"
    return where


def problem_text(display: str, prob: ProblemObject) -> str:
    """One plain line for a problem in its JSON form: ``path:line:col: severity[rule]: msg``."""
    return (f"{problem_location(display, prob)}: {prob['severity']}[{prob['rule']}]: "
            f"{prob['message']}\n")
