"""Tests of ``bgtools.data``: statistics, standings, the tables of an archive (the files the
tests read are in ``tests/files``, not here)."""
