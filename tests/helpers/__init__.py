"""Helpers shared by the tests, ``scripts/`` and ``benchmarks/``: paths, Hypothesis
strategies, fuzzing mutators, the GNU Backgammon oracles and their cached fixtures.

Import them by name (``from tests.helpers.paths import CORPUS``) with the repository root on
``sys.path`` (pytest puts it there; the scripts insert it).
"""
