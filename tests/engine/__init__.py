"""Tests of ``bgtools.engine``: the board kernel, positions, IDs, notation and resolution."""
