"""The per-file jobs of the commands that read many files, and what they send back.

Each job (``validate``, ``score``, ``pips``, ``status``) reads and replays one file in a
worker and returns only a small :class:`FileReport` of JSON-ready data, never the replays or
their events.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

from bgtools.dataclass_methods import FrozenFieldMethods, prebuilt_dataclass
from bgtools.readers.inputs import Input
from bgtools.record import shown_names
from bgtools.reports.files import analyse_file, validate_json

if TYPE_CHECKING:
    from bgtools.record.model import ProblemObject
    from bgtools.reports.convert import PlannedOutput, TargetFormat
    from bgtools.reports.moments import MatchAnswers, Moment, MoveRef
    from bgtools.reports.objects import (
        MomentExtra,
        ReportExtra,
        ReportObject,
        ScoreExtra,
        ScoreObject,
        StatusObject,
    )

__all__ = [
    "FileReport",
    "Input",
    "absolute_input",
    "convert_report",
    "failed_report",
    "pips_report",
    "score_report",
    "status_report",
    "validate_report",
    "warm_up",
]



def absolute_input(item: Input) -> Input:
    """``item`` with its path made absolute, for a worker whose working directory is not
    this process's (on a cluster); its display, as messages show it, stays as given."""
    source = item.source
    if isinstance(source, Path):
        return item._replace(source=source.absolute())
    if isinstance(source, str):
        return item._replace(source=str(Path(source).absolute()))
    return item


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
    from bgtools.readers.detect import read_records
    from bgtools.replay import profile_for, replay_match

    try:
        for record in read_records(_WARM_UP_RECORD, "<warm-up>").records:
            replay_match(record, profile_for(record, "standard"))
    except Exception:  # noqa: BLE001  # pragma: no cover - only a cache, never a reason to fail
        pass


@prebuilt_dataclass
class FileReport(FrozenFieldMethods):
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
    objects: tuple[ReportObject, ...] = ()
    problems: tuple[ProblemObject, ...] = ()
    extra: tuple[ReportExtra, ...] = ()

    @property
    def errors(self) -> int:
        """The number of problems of severity ``error`` (an unreadable file counts one)."""
        if self.error is not None:
            return 1
        return sum(1 for p in self.problems if p["severity"] == "error")


def failed_report(display: str, failure: str) -> FileReport:
    """The report of a file whose job failed (a bug, or a worker that died)."""
    return FileReport(display, error=f"{display}: cannot be processed ({failure})")


def validate_report(item: Input, rules: str = "auto", expect: str | None = None) -> FileReport:
    """The ``validate`` job: read and replay one file, keep its JSON object.

    ``expect`` (``validate --expect``, checked already): the claimed result; a file whose
    result differs gets an ``expected-result`` error, and its object an ``expect`` member.
    """
    display, path, error = item
    result = analyse_file(display, path, error, rules)
    obj = validate_json(result)
    valid = result.valid
    problems = tuple(obj["problems"]) if result.error is None else ()
    if expect is not None:
        from bgtools.reports.expect import check_claim, claim_problem, expect_json, parse_claim

        claim = parse_claim(expect)
        readable = result.error is None
        reason = check_claim(result.replays, claim) if readable else None
        obj = {**obj, "expect": expect_json(claim, result.replays, reason, readable)}
        if reason is not None:
            problem = claim_problem(reason).to_json()
            problems = (*problems, problem)
            obj["problems"] = [*obj["problems"], problem]
            obj["valid"] = valid = False
    return FileReport(display, error=result.error, valid=valid,
                      rolls=sum(r.rolls for r in result.replays), rules=result.rules,
                      objects=(obj,), problems=problems)


def score_report(item: Input, rules: str = "auto") -> FileReport:
    """The ``score`` job: one ``score`` object per match of the file (numbered by
    ``match`` and ``matches`` when there are several), with what the human table needs
    besides (header names, post-Crawford games, running totals)."""
    from bgtools.reports.moments import header_names, running_totals, score_json

    display, path, error = item
    result = analyse_file(display, path, error, rules)
    problems = tuple(p.to_json() for p in result.problems) if result.error is None else ()
    objects: list[ScoreObject] = []
    extra: list[ScoreExtra] = []
    several = len(result.replays) > 1
    for number, replay in enumerate(result.replays, 1):
        obj = score_json(display, result.format or replay.record.format, replay)
        if several:
            obj["match"], obj["matches"] = number, len(result.replays)
        objects.append(obj)
        names = header_names(replay)
        extra.append({
            "names": list(shown_names(replay.names)),
            "header_names": list(names) if names is not None else None,
            "post_crawford": [g.post_crawford for g in replay.games],
            "totals": [list(t) for t in running_totals(replay)],
        })
    return FileReport(display, error=result.error, valid=result.valid,
                      rolls=sum(r.rolls for r in result.replays), objects=tuple(objects),
                      problems=problems, extra=tuple(extra))


def _pick_match(item: Input, rules: str, number: int | None = None
                ) -> tuple[FileReport, MatchAnswers | None]:
    """Read one file for ``pips``/``status``: its report so far and its match ``number``
    (1-based; None: the last), with the moments of its games; None when it has none or
    cannot be read, or when there is no such match (then the report's error says so)."""
    from bgtools.reports.moments import RangeError, analyse_answers, pick_match

    display, path, error = item
    result, answers = analyse_answers(display, path, error, rules)
    if result.error is not None:
        return FileReport(display, error=result.error), None
    report = FileReport(display, valid=result.valid,
                        rolls=sum(r.rolls for r in result.replays),
                        problems=tuple(p.to_json() for p in result.problems))
    if not answers:
        return report, None
    try:
        return report, pick_match(answers, number)
    except RangeError as exc:
        return replace(report, error=f"{display}: {exc}", problems=()), None


def _moment_extra(match: MatchAnswers, moment: Moment) -> MomentExtra:
    from bgtools.reports.moments import moment_extra

    return moment_extra(match, moment)


def pips_report(item: Input, rules: str = "auto", game: int | None = None,
                move: MoveRef | None = None, all_moves: bool = False,
                match_number: int | None = None) -> FileReport:
    """The ``pips`` job: the ``pips`` object of one moment of match ``match_number`` of the
    file (default: the last; ``--move`` alone: of its last game), or with ``all_moves`` of
    every moment of a game. A match or moment out of range is the file's error."""
    from bgtools.reports.moments import RangeError, pips_json

    report, match = _pick_match(item, rules, match_number)
    if match is None:
        return report
    try:
        if all_moves:
            match.moment(game, None)  # the game must exist and have moments
            number = game if game is not None else len(match.summary.games)
            moments = match.game_moments(number)
        else:
            if move is not None and game is None:
                game = len(match.summary.games)
            moments = [match.moment(game, move)]
    except RangeError as exc:
        return replace(report, error=f"{report.display}: {exc}", problems=())
    return replace(report, objects=tuple(pips_json(report.display, m) for m in moments),
                   extra=tuple(_moment_extra(match, m) for m in moments))


def status_report(item: Input, rules: str = "auto", game: int | None = None,
                  move: MoveRef | None = None, match_number: int | None = None
                  ) -> FileReport:
    """The ``status`` job: the ``status`` object of one moment of match ``match_number``
    of the file (default: the last; ``--move`` alone: of its last game). A match or moment
    out of range is the file's error."""
    from bgtools.reports.moments import RangeError, status_details, status_json

    report, match = _pick_match(item, rules, match_number)
    if match is None:
        return report
    if move is not None and game is None:
        game = len(match.summary.games)
    try:
        moment = match.moment(game, move)
    except RangeError as exc:
        return replace(report, error=f"{report.display}: {exc}", problems=())
    obj = status_json(report.display, match.summary, moment)
    # (cast: mypy does not take the details for a part of the object; no copy, no check)
    obj.update(cast("StatusObject", status_details(match, moment)))
    return replace(report, objects=(obj,),
                   extra=(_moment_extra(match, moment),))


def convert_report(item: Input, fmt: TargetFormat, plan: Mapping[str, PlannedOutput],
                   force: bool = False, rules: str = "auto",
                   make_directories: bool = False) -> FileReport:
    """The ``convert`` job: convert one input to ``fmt`` and write it (atomically, never
    over an input) where ``plan`` says, creating its directories when
    ``make_directories``; a planned target of None keeps the text (for standard output).

    ``error``: unreadable, refused or not written (exit 2). Otherwise ``extra`` holds
    ``written`` (the file written, or None), ``text`` (target None), ``games``,
    ``source_format`` and ``reason`` (why not converted: its errors are ``problems``).
    """
    from bgtools.errors import BgtoolsError, describe_error
    from bgtools.reports.convert import InvalidRecordError, convert_file
    from bgtools.write.atomic import protected_input, write_atomically
    from bgtools.write.mat import UnwritableRecordError

    display, source, error = item
    planned = plan.get(display)
    if error is not None or source is None:
        return FileReport(display, error=error or f"{display}: cannot be read")
    if planned is None:
        return FileReport(display, error=f"{display}: no output planned")
    if planned.refusal is not None:
        return FileReport(display, error=planned.refusal)
    try:
        conversion = convert_file(source, fmt, rules=rules, name=display)
    except InvalidRecordError as exc:
        return FileReport(display, problems=tuple(p.to_json() for p in exc.problems),
                          extra=({"written": None, "reason": str(exc)},))
    except UnwritableRecordError as exc:
        return FileReport(display, extra=({"written": None, "reason": f"{display}: {exc}"},))
    except (OSError, BgtoolsError) as exc:
        # An input that cannot be read exits 2, even a syntax error (whose own code is 1).
        return FileReport(display, error=describe_error(
            exc, "" if isinstance(exc, BgtoolsError) else display)[0])
    replay = conversion.replay
    target = planned.target
    if target is None:
        return FileReport(display, valid=True, rolls=replay.rolls, extra=({
            "written": None, "text": conversion.text, "reason": None},))
    try:
        if make_directories:
            target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, conversion.text, overwrite=force,
                         protect=protected_input(source))
    except OSError as exc:
        return FileReport(display, error=f"cannot write {target}: {exc.strerror or exc}")
    except BgtoolsError as exc:
        return FileReport(display, error=str(exc))
    return FileReport(display, valid=True, rolls=replay.rolls, extra=({
        "written": str(target), "games": len(replay.games),
        "source_format": conversion.source_format, "reason": None},))
