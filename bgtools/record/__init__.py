"""The record: what a file *says*, typed, before any rule is checked.

:mod:`~bgtools.record.model` holds the record's types (:class:`MatchRecord`,
:class:`GameRecord`, :class:`Action`, :class:`SetUp`, :class:`Problem`), re-exported here;
:mod:`~bgtools.record.sgf` reads what SGF properties say of a record (a set-up node, a game's
``RU`` rules); :mod:`~bgtools.record.json_codec` is the codec of bgtools' JSON match format
(``bgtools/1``) and its JSON Schema. Importing this package loads the model only.
"""

from bgtools.record import model
from bgtools.record.model import *  # noqa: F403 - the package's names are the model's

__all__ = model.__all__
