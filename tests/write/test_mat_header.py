"""The header of a written .mat: what it states of the rules, and the source's own tags.

* ``[Crawford "Off"]`` only where the Crawford rule could apply: gnubg's .mat of a 1-point
  match says nothing of it, so neither does ours (tests/files/onepoint: gnubg's own
  ``export match mat`` and ``save match`` of one 1-point match);
* a .mat written from a record keeps the header tags of the source that a .mat header can
  hold (``Site``, ``Match ID``, players' ``Elo``, ``CubeLimit``...), in the source's order,
  none twice, while gnubg's own .mat still comes back byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bgtools.readers.detect import load_file
from bgtools.readers.mat import parse_mat
from bgtools.record import MatchRecord
from bgtools.write.mat import write_mat
from bgtools.write.sgf import write_sgf
from tests.helpers.paths import FILES

ONE_POINT = FILES / "onepoint" / "m1_s13"


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
    """A one-game match (tests/files/onepoint's game) under another length and tag."""
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


# --- the source's own header tags ------------------------------------------------------------

SITES = FILES / "sites"


def test_a_galaxy_file_keeps_its_header_tags_in_order() -> None:
    record = _record(SITES / "match8239468.txt")
    out = write_mat(record)
    (copy,) = parse_mat(out)
    # All but the defaults of the rules the writer owns (Variation "Backgammon",
    # Crawford "On": what a .mat without them is read with), in the source's order.
    owned_defaults = {("Variation", "Backgammon"), ("Crawford", "On")}
    assert copy.tags == [t for t in record.tags if t not in owned_defaults]
    assert [name for name, _ in copy.tags][:6] == [
        "Site", "Match ID", "Player 1", "Player 2", "Player 1 Elo", "Player 2 Elo"]
    assert "CubeLimit" in dict(copy.tags)
    # Written again, nothing changes.
    assert write_mat(copy) == out


def test_tags_the_writer_owns_are_written_once_from_the_replay() -> None:
    text = (ONE_POINT.with_suffix(".mat").read_text(encoding="utf-8")
            .replace('; [EventDate "2026.12.05"]\n',
                     '; [Match ID "77"]\n; [Site "Club"]\n; [Place "Other"]\n'
                     '; [EventDate "2026.12.05"]\n; [Crawford "Off"]\n; [Rules "standard"]\n'
                     '; [EventDate "1999.01.01"]\n; [Player 1 Elo "1500"]\n'))
    out = write_mat(parse_mat(text)[0])
    header = out[:out.index(" 1 point match")]
    assert header == ('; [Match ID "77"]\n; [Site "Club"]\n; [EventDate "2026.12.05"]\n'
                      '; [Player 1 Elo "1500"]\n\n')


def test_gnubgs_own_mat_is_unchanged_and_an_sgf_source_adds_no_tag() -> None:
    mat = ONE_POINT.with_suffix(".mat")
    assert write_mat(_record(mat)) == mat.read_text(encoding="utf-8")
    # The SGF reader makes tags of PW/PB (Player 1, Player 2): gnubg's export writes none.
    assert write_mat(_record(ONE_POINT.with_suffix(".sgf"))) == mat.read_text(encoding="utf-8")


@pytest.mark.parametrize("suffix", [".mat", ".sgf", ".json"])
def test_a_capped_galaxy_session_converts_to_copies_read_the_same(
        suffix: str, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from bgtools.cli import app
    from bgtools.replay import replay_match

    out = tmp_path / f"copy{suffix}"
    result = CliRunner().invoke(app, ["convert", str(SITES / "galaxy_session16_capped.txt"),
                                      "-o", str(out)])
    assert result.exit_code == 0, result.output
    replay = replay_match(_record(out))
    assert replay.valid and replay.final_score == (16, 0)
    assert [(g.result, g.cube, g.points) for g in replay.games] == [("backgammon", 16, 16)]
