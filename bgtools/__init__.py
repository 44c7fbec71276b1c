"""bgtools: validate, replay and convert backgammon match files.

The names below are loaded on first use, so that importing a submodule (the command line
starts with ``bgtools.cli``) does not pay for the rules engine it may not need.

>>> from bgtools import Position, parse_play, play_text
>>> str(parse_play(Position.initial(), 6, 4, "24/18 13/9"))
'24/18 13/9'
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from bgtools.engine.position import (
        BAR,
        OFF,
        Play,
        Position,
        PositionError,
        Step,
        format_play,
        parse_id,
    )
    from bgtools.engine.resolve import parse_play, play_text
    from bgtools.errors import BgtoolsError, IllegalPlayError, NotationError

__all__ = [
    "BAR",
    "OFF",
    "BgtoolsError",
    "IllegalPlayError",
    "NotationError",
    "Play",
    "Position",
    "PositionError",
    "Step",
    "format_play",
    "parse_id",
    "parse_play",
    "play_text",
]
__version__ = "0.1.0"

_HOMES = {
    "BAR": "bgtools.engine.position",
    "OFF": "bgtools.engine.position",
    "Play": "bgtools.engine.position",
    "Position": "bgtools.engine.position",
    "PositionError": "bgtools.engine.position",
    "Step": "bgtools.engine.position",
    "format_play": "bgtools.engine.position",
    "parse_id": "bgtools.engine.position",
    "BgtoolsError": "bgtools.errors",
    "IllegalPlayError": "bgtools.errors",
    "NotationError": "bgtools.errors",
    "parse_play": "bgtools.engine.resolve",
    "play_text": "bgtools.engine.resolve",
}


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'bgtools' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names with the module's own."""
    return sorted(set(globals()) | set(__all__))
