"""Tests of ``bgtools.write``: the writers, ``convert`` and safe writes."""
