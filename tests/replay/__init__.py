"""Tests of ``bgtools.replay``: the rules of a match and of a site, checked on records."""
