"""The result of a finished game, by name and by level: single (1), gammon (2), backgammon (3).

The one mapping between the names the contract writes (``"result": "gammon"``) and the levels
the rules count with (points = level x cube; a resignation offers a level).
"""

from __future__ import annotations

from typing import Literal

__all__ = ["RESULT_NAMES", "ResultName", "result_level", "result_name"]

ResultName = Literal["single", "gammon", "backgammon"]
"""How a finished game was won."""

RESULT_NAMES: tuple[ResultName, ...] = ("single", "gammon", "backgammon")
"""The names in the order of their levels: ``RESULT_NAMES[level - 1]``."""

_LEVELS: dict[str, int] = {name: level for level, name in enumerate(RESULT_NAMES, 1)}


def result_name(level: int) -> ResultName | None:
    """The name of level 1, 2 or 3; None for any other level."""
    return RESULT_NAMES[level - 1] if 1 <= level <= len(RESULT_NAMES) else None


def result_level(name: str | None) -> int:
    """The level (1, 2 or 3) of a result's name; 1 for None or an unknown name."""
    return _LEVELS.get(name or "", 1)
