"""The header of a written .mat: what it states of the rules, and the source's own tags.

* ``[Crawford "Off"]`` only where the Crawford rule could apply: gnubg's .mat of a 1-point
  match says nothing of it, so neither does ours (tests/data/onepoint: gnubg's own
  ``export match mat`` and ``save match`` of one 1-point match);
* a .mat written from a record keeps the header tags of the source that a .mat header can
  hold (``Site``, ``Match ID``, players' ``Elo``, ``CubeLimit``...), in the source's order,
  none twice, while gnubg's own .mat still comes back byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bgtools.read.detect import load_file
from bgtools.read.mat import parse_mat
from bgtools.record import MatchRecord
from bgtools.write.mat import write_mat
from bgtools.write.sgf import write_sgf

DATA = Path(__file__).resolve().parent / "data"
ONE_POINT = DATA / "onepoint" / "m1_s13"


def _record(path: Path) -> MatchRecord:
    (record,) = load_file(path).records
    return record


# --- the Crawford rule ----------------------------------------------------------------------


@pytest.mark.parametrize("source", [".sgf", ".mat"])
def test_a_one_point_match_is_written_as_gnubg_exports_it(source: str) -> None:
    expected = ONE_POINT.with_suffix(".mat").read_text(encoding="utf-8")
    record = _record(ONE_POINT.with_suffix(source))
    assert write_mat(record) == expected
    assert "Crawford" not in write_mat(record)
    # And as gnubg saves it: no RU[Crawford] in a 1-point match's SGF.
    sgf = write_sgf(record)
    assert "RU[" not in sgf
    if source == ".sgf":
        assert sgf == ONE_POINT.with_suffix(".sgf").read_text(encoding="utf-8")


def _match(length: int, crawford: str | None) -> MatchRecord:
    """A one-game match (tests/data/onepoint's game) under another length and tag."""
    text = ONE_POINT.with_suffix(".mat").read_text(encoding="utf-8")
    text = text.replace(" 1 point match", f" {length} point match")
    text = text.replace("Wins 1 point and the match", "Wins 1 point" if length > 1 else
                        "Wins 1 point and the match")
    if crawford is not None:
        text = f'; [Crawford "{crawford}"]\n' + text
    (record,) = parse_mat(text)
    return record


@pytest.mark.parametrize("length, crawford, written", [
    (1, "Off", False),  # cannot apply: nothing to say
    (0, "Off", False),  # a money session has no Crawford rule
    (3, "Off", True),  # a match where the rule could apply and is off says so
    (3, "On", False),  # on is what a .mat without the tag is read with
    (3, None, False),
])
def test_crawford_off_is_written_only_where_the_rule_could_apply(
        length: int, crawford: str | None, written: bool) -> None:
    out = write_mat(_match(length, crawford))
    assert ('; [Crawford "Off"]\n' in out) is written, out[:300]
