"""The legal plays of a position for a roll (``bgtools plays``), as the contract's JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bgtools.engine.position import Position
from bgtools.record import SCHEMA

if TYPE_CHECKING:
    from bgtools.reports.objects import PlayRow, PlaysObject

__all__ = ["parse_dice", "play_order", "plays_json", "roll_text"]


def parse_dice(text: str) -> tuple[int, int]:
    """A roll written as ``52``, ``5-2``, ``5,2`` or ``5 2``; ValueError otherwise."""
    cleaned = text.strip().replace("-", "").replace(",", "").replace(" ", "")
    if len(cleaned) != 2 or not all(c in "123456" for c in cleaned):
        raise ValueError(f"dice {text!r} must be two digits 1-6, such as 52")
    return int(cleaned[0]), int(cleaned[1])


def roll_text(roll: tuple[int, int]) -> str:
    """A roll as GNU Backgammon writes it: the higher die first (``52``, never ``25``)."""
    return f"{max(roll)}{min(roll)}"


def play_order(steps: list[list[int]], pips_after: list[int]) -> tuple[Any, ...]:
    """The order of :func:`plays_json`: by pips (the plays that leave the opponent the most
    pips first: hits; then the mover's fewest), then by points as numbers, highest first
    (``24/13`` before ``13/8 13/11`` before ``8/3 6/4``), never as text."""
    points = tuple(sorted(((-src, -dst) for src, dst in steps)))
    return (-pips_after[1], pips_after[0], points)


def plays_json(position: Position, roll: tuple[int, int]) -> PlaysObject:
    """Every legal play of ``position`` for ``roll``, with the position and pips after it
    (``pips_after``: the mover's, then the opponent's), in :func:`play_order`."""
    rows: list[PlayRow] = []
    for result, play in position.legal_results(*roll).items():
        rows.append(
            {
                "play": str(play),
                "steps": [list(step) for step in play.steps],
                "hits": sum(play.hits),
                "position_id_after": result.swapped().position_id,
                "pips_after": [result.pips[0], result.pips[1]],
            }
        )
    rows.sort(key=lambda row: play_order(row["steps"], row["pips_after"]))
    return {
        "schema": SCHEMA,
        "position_id": position.position_id,
        "dice": list(roll),
        "pips": list(position.pips),
        "plays": rows,
    }
