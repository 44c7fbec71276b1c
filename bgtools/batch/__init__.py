"""Whole archives: a per-file job mapped over many inputs, in worker processes.

- :mod:`bgtools.batch.pool`: :class:`Batch`, the ordered process pool (outcomes in input
  order, constant memory, ``jobs=1`` without a pool);
- :mod:`bgtools.batch.jobs`: the per-file jobs of ``validate``, ``score``, ``pips`` and
  ``status``, each sending back a small :class:`FileReport`;
- :mod:`bgtools.batch.cluster`: :class:`~bgtools.batch.cluster.ClusterBatch`, the same jobs
  on the workers of a Dask scheduler (``bgtools[dask]``; imported only by who runs one);
- :mod:`bgtools.batch.summary`: :class:`BatchSummary`, the counts of a run (files valid,
  invalid, unreadable; problems by rule; the slowest files).

No terminal code here: the CLI draws progress and the summary (:mod:`bgtools.cli.progress`).
"""

from __future__ import annotations

from bgtools.batch.jobs import (
    FileReport,
    Input,
    absolute_input,
    convert_report,
    failed_report,
    pips_report,
    score_report,
    status_report,
    validate_report,
    warm_up,
)
from bgtools.batch.pool import Batch, Outcome, default_jobs
from bgtools.batch.summary import BatchSummary

__all__ = [
    "Input",
    "absolute_input",
    "Outcome",
    "Batch",
    "FileReport",
    "BatchSummary",
    "default_jobs",
    "failed_report",
    "convert_report",
    "warm_up",
    "validate_report",
    "score_report",
    "pips_report",
    "status_report",
]
