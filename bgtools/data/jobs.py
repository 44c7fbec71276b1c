"""What the data commands (``stats``, ``standings``, ``export``) share: reading one file in a
worker and deciding whether its records are used.

A data job reads and replays one file and returns a :class:`~bgtools.batch.FileReport`
(so that :func:`bgtools.cli.progress.run_batch` runs it like ``validate``'s job, with the
progress bar, the summary and Ctrl-C) whose ``extra`` holds one *payload*: the command's
own small result for the file. A report without a payload is a file not used: unreadable
(``error``), or invalid and skipped (``valid`` false, without ``--include-invalid``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from bgtools.batch import FileReport, Input
from bgtools.reports.files import FileResult, analyse_file

__all__ = ["read_usable", "with_payload", "payload_of", "skip_note"]


def read_usable(item: Input, rules: str, include_invalid: bool,
                keep_events: bool = True) -> tuple[FileReport, FileResult | None]:
    """Read and replay one input: its report (error, validity, problems, rolls) and its
    result when the file is to be used (readable, and valid unless ``include_invalid``)."""
    display, path, error = item
    result = analyse_file(display, path, error, rules, keep_events=keep_events)
    if result.error is not None:
        return FileReport(display, error=result.error), None
    report = FileReport(display, valid=result.valid,
                        rolls=sum(r.rolls for r in result.replays),
                        problems=tuple(p.to_json() for p in result.problems))
    if not result.valid and not include_invalid:
        return report, None
    return report, result


def with_payload(report: FileReport, payload: dict[str, Any]) -> FileReport:
    """``report`` carrying the command's ``payload`` for the file."""
    return replace(report, extra=(payload,))


def payload_of(report: FileReport) -> dict[str, Any] | None:
    """The payload of a used file, or None for a file not used."""
    return cast("dict[str, Any]", report.extra[0]) if report.extra else None


def skip_note(report: FileReport) -> str:
    """The one line said about an invalid file left out: ``FILE: skipped: N error(s) (first:
    line L: rule); --include-invalid keeps it``."""
    errors = [p for p in report.problems if p["severity"] == "error"]
    first = ""
    if errors:
        where = f"line {errors[0]['line']}: " if errors[0]["line"] else ""
        first = f" (first: {where}{errors[0]['rule']})"
    count = len(errors)
    return (f"{report.display}: skipped: {count} error{'s' if count != 1 else ''}{first}; "
            "--include-invalid keeps it")
