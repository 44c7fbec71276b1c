"""The legal plays of a position for a roll (``bgtools plays``), as the contract's JSON."""

from __future__ import annotations

from typing import Any

from bgtools.engine.position import Position
from bgtools.record_json import SCHEMA

__all__ = ["parse_dice", "plays_json"]


def parse_dice(text: str) -> tuple[int, int]:
    """A roll written as ``52``, ``5-2``, ``5,2`` or ``5 2``; ValueError otherwise."""
    cleaned = text.strip().replace("-", "").replace(",", "").replace(" ", "")
    if len(cleaned) != 2 or not all(c in "123456" for c in cleaned):
        raise ValueError(f"dice {text!r} must be two digits 1-6, such as 52")
    return int(cleaned[0]), int(cleaned[1])


def plays_json(position: Position, roll: tuple[int, int]) -> dict[str, Any]:
    """Every legal play of ``position`` for ``roll``, with the position and pips after it;
    the plays that leave the opponent the most pips first, then by their text."""
    rows: list[dict[str, Any]] = []
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
    rows.sort(key=lambda row: (row["pips_after"][1] * -1, str(row["play"])))
    return {
        "schema": SCHEMA,
        "position_id": position.position_id,
        "dice": list(roll),
        "pips": list(position.pips),
        "plays": rows,
    }
