"""Jobs for the tests of ``--scheduler`` (tests/batch/test_cluster.py): ``validate``'s own job,
with a worker process that dies on one input (once, or every time) or a pause per input.

They live in a module, not in the test file, so that Dask's worker processes import them by
name as they import bgtools' own jobs.
"""

from __future__ import annotations

import os
import time

from bgtools.batch import FileReport, Input, validate_report


def dies_once_on(item: Input, target: str, marker: str) -> FileReport:
    """``validate_report``, but the worker process that first runs it on the input shown as
    ``target`` dies there (``marker``, a file created then, says it has happened)."""
    if item[0] == target:
        try:
            handle = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass
        else:
            os.close(handle)
            os._exit(1)
    return validate_report(item)


def dies_on(item: Input, target: str) -> FileReport:
    """``validate_report``, but every worker process that runs it on ``target`` dies."""
    if item[0] == target:
        os._exit(1)
    return validate_report(item)


def slowly(item: Input, seconds: float) -> FileReport:
    """``validate_report`` after a pause of ``seconds`` (a run long enough to kill a worker
    in the middle of it)."""
    time.sleep(seconds)
    return validate_report(item)
