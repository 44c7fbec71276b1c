"""Tests of ``bgtools.batch``: the ordered process pool, the cluster executor, memory over many
files."""
