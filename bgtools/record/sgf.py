"""What SGF properties say of a record: a set-up node's board, turn and cube, and an SGF
game's ``RU`` rules.

The SGF reader reads them from the file; the JSON codec rebuilds a set-up and a game's
Crawford flag from the properties it keeps, and the ``.xg`` reader writes its set-ups as the
same properties, so each is read here, once.
"""

from __future__ import annotations

from bgtools.record.model import CubePosition, SetUp, SgfProperties

__all__ = ["crawford_from_sgf_rules", "setup_from_sgf"]


def setup_from_sgf(properties: SgfProperties, *, before: int, node: int,
                   line: int | None = None, column: int | None = None) -> SetUp:
    """The set-up that one SGF node's properties state (``AE``/``AW``/``AB``, ``PL``,
    ``CV``, ``CP``), before the game's action number ``before``; a value that cannot be read
    becomes one of its ``errors``. ``node`` and ``line``/``column`` locate the node."""
    errors: list[str] = []
    emptied: list[int] = []
    white: list[int] = []
    black: list[int] = []
    turn: int | None = None
    cube: int | None = None
    position: CubePosition | None = None
    for name, values in properties:
        first = values[0].strip() if values else ""
        if name == "AE":
            emptied.extend(_setup_letters(values, name, errors))
        elif name == "AW":
            white.extend(_setup_letters(values, name, errors))
        elif name == "AB":
            black.extend(_setup_letters(values, name, errors))
        elif name == "PL":
            if first.upper() in ("W", "B"):
                turn = 0 if first.upper() == "W" else 1
            else:
                errors.append(f"PL[{first[:20]}] is not W or B")
        elif name == "CV":
            value = int(first) if first.isdigit() and len(first) <= 9 else None
            if value is None or value < 1 or value & (value - 1) or value > 1 << 15:
                errors.append(f"CV[{first[:20]}] is not a cube value (1, 2, 4 ...)")
            else:
                cube = value
        elif name in ("CP", "CO"):
            where = first.lower()
            if where in {"c", "n"}:
                position = "centred"
            elif where in ("w", "b"):
                position = 0 if where == "w" else 1
            else:
                errors.append(f"{name}[{first[:20]}] is not c, w or b")
    return SetUp(before, tuple(emptied), tuple(white), tuple(black), turn, cube, position,
                 tuple(errors), line, column, node, properties)


def _setup_letters(values: tuple[str, ...], name: str, errors: list[str]) -> list[int]:
    """The letter indexes of point-list values (``a``, ``a:y`` ranges inclusive)."""
    out: list[int] = []
    for value in values:
        text = value.strip()
        if len(text) == 3 and text[1] == ":":
            lo, hi = ord(text[0]) - 97, ord(text[2]) - 97
            if 0 <= lo <= hi <= 24:
                out.extend(range(lo, hi + 1))
                continue
        elif len(text) == 1 and 0 <= ord(text) - 97 <= 24:
            out.append(ord(text) - 97)
            continue
        errors.append(f"{name}[{value[:20]}] is not a point a-x or the bar y")
    return out


def crawford_from_sgf_rules(rules: list[str]) -> bool | None:
    """What an SGF game's ``RU`` rules (split at ``:``) say of it: True for the Crawford
    game (``Crawford:CrawfordGame``), False for another game of a match with the Crawford
    rule (``Crawford``), None when they do not name the rule (:attr:`GameRecord.crawford`)."""
    if "CrawfordGame" in rules:
        return True
    return False if "Crawford" in rules else None
