"""Tests of ``bgtools.api``: the library (``bgtools.read``, ``Match``, ``Replay``,
``read_many``)."""
