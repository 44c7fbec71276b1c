"""Tests of ``bgtools.cli``: the commands as a user runs them, their output and exit codes."""
