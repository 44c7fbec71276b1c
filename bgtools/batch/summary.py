"""The summary of a run: its counts in constant memory, whatever the number of files."""

from __future__ import annotations

import heapq
import time
from collections import Counter
from dataclasses import field
from typing import Any

from bgtools.batch.jobs import FileReport
from bgtools.dataclass_methods import FieldMethods, prebuilt_dataclass
from bgtools.errors import EXIT_OK, EXIT_PROBLEMS, EXIT_UNUSABLE
from bgtools.record import SCHEMA

__all__ = ["BatchSummary"]


@prebuilt_dataclass
class BatchSummary(FieldMethods):
    """Counts of a run, in constant memory: files valid, invalid and unreadable, problems by
    rule, rolls, the ``slowest`` files (``keep_slowest`` of them) and the first
    ``keep_failed`` files with errors (``failed``)."""

    total: int | None = None
    keep_slowest: int = 5
    keep_failed: int = 20
    valid: int = 0
    invalid: int = 0
    unreadable: int = 0
    errors: int = 0
    warnings: int = 0
    rolls: int = 0
    interrupted: bool = False
    by_rule: Counter[tuple[str, str]] = field(default_factory=Counter)
    """``(rule, severity) -> count``."""
    by_profile: Counter[str] = field(default_factory=Counter)
    """Files replayed under each rule profile."""
    failed: list[tuple[str, int | None]] = field(default_factory=list)
    """``(file, errors)`` of the first files with errors, in input order; ``errors`` is
    None for a file that could not be read."""
    _slowest: list[tuple[float, int, str, int]] = field(default_factory=list)
    _started: float = field(default_factory=time.perf_counter)
    _elapsed: float | None = None

    @property
    def done(self) -> int:
        """Files processed so far."""
        return self.valid + self.invalid + self.unreadable

    def add(self, report: FileReport, seconds: float) -> None:
        """Count one file."""
        if report.error is not None:
            self.unreadable += 1
            self.errors += 1
            self.by_rule["unreadable", "error"] += 1
            self._note_failed(report.display, None)
        else:
            if report.valid:
                self.valid += 1
            else:
                self.invalid += 1
            for prob in report.problems:
                self.by_rule[prob["rule"], prob["severity"]] += 1
                if prob["severity"] == "error":
                    self.errors += 1
                else:
                    self.warnings += 1
            if not report.valid:
                self._note_failed(report.display, report.errors)
        self.rolls += report.rolls
        if report.rules is not None:
            self.by_profile[report.rules] += 1
        entry = (seconds, -self.done, report.display, report.rolls)
        if len(self._slowest) < self.keep_slowest:
            heapq.heappush(self._slowest, entry)
        else:
            heapq.heappushpop(self._slowest, entry)

    def _note_failed(self, display: str, errors: int | None) -> None:
        if len(self.failed) < self.keep_failed:
            self.failed.append((display, errors))

    @property
    def failed_count(self) -> int:
        """Files with errors (invalid or unreadable), listed in ``failed`` or not."""
        return self.invalid + self.unreadable

    def finish(self, interrupted: bool = False) -> None:
        """Stop the clock."""
        self._elapsed = time.perf_counter() - self._started
        self.interrupted = interrupted

    @property
    def elapsed(self) -> float:
        """Seconds since the run started (until :meth:`finish`)."""
        if self._elapsed is not None:
            return self._elapsed
        return time.perf_counter() - self._started

    @property
    def exit_code(self) -> int:
        """The contract's exit code of the run: 2 if a file was unreadable, else 1 if one
        had errors, else 0."""
        if self.unreadable:
            return EXIT_UNUSABLE
        return EXIT_PROBLEMS if self.invalid else EXIT_OK

    @property
    def slowest(self) -> list[tuple[str, int, float]]:
        """``(file, rolls, seconds)`` of the slowest files, slowest first."""
        ordered = sorted(self._slowest, key=lambda e: (-e[0], -e[1]))
        return [(display, rolls, seconds) for seconds, _, display, rolls in ordered]

    @property
    def rules(self) -> list[tuple[str, str, int]]:
        """``(rule, severity, count)``: errors first, then by count."""
        rows = [(rule, severity, count) for (rule, severity), count in self.by_rule.items()]
        rows.sort(key=lambda r: (r[1] != "error", -r[2], r[0]))
        return rows

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON object (not part of the contract's per-file output)."""
        return {
            "schema": SCHEMA, "files": self.done, "total": self.total, "valid": self.valid,
            "invalid": self.invalid, "unreadable": self.unreadable, "errors": self.errors,
            "warnings": self.warnings, "rolls": self.rolls, "seconds": round(self.elapsed, 3),
            "interrupted": self.interrupted,
            "rules": [{"rule": r, "severity": s, "count": c} for r, s, c in self.rules],
            "profiles": dict(self.by_profile.most_common()),
            "slowest": [{"file": f, "rolls": n, "seconds": round(t, 3)}
                        for f, n, t in self.slowest],
            "failed": [{"file": f, "errors": n} for f, n in self.failed],
        }
