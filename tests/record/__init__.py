"""Tests of the records and their JSON codec (``bgtools.record``, ``bgtools.record_json``)."""
