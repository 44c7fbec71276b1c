"""Tests of ``bgtools.reports``: the contract's JSON objects, the answers, the boards and pages."""
