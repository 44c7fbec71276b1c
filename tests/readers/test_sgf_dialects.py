"""SGF as other programs write it: Gibbon's resignations (libgsgf's ``resign:N``, ``accept``,
``reject``) and SGF files of games other than backgammon.

Gibbon's own files are GPL (not shippable in this MIT test tree), so the record here is
written in Gibbon's form (``AP[gibbon (libgsgf):0.2.0 (0.2.0)]``, ``PB`` before ``PW``,
``RE[W+2Resign]``, as its ``src/7point.sgf``), with plays checked against its .mat twin.
Every reading has a twin where the token cannot mean a resignation, still an error there.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.errors import UnsupportedFormatError
from bgtools.readers.detect import load_file, read_records
from bgtools.readers.mat import parse_mat
from bgtools.readers.sgf import parse_sgf
from bgtools.record import MatchRecord
from bgtools.replay import MatchReplay, replay_match

_ROOT = ("(;FF[4]GM[6]CA[UTF-8]AP[gibbon (libgsgf):0.2.0 (0.2.0)]MI[length:3][game:{game}]"
         "[ws:{ws}][bs:0]PB[Bob]PW[Alice]RE[{result}]RU[{rules}]\n")
GAME_1 = (_ROOT.format(game=0, ws=0, result="W+2Resign", rules="Crawford")
          + ";W[31hefe]\n;B[42qusu]\n;W[65xrrm]\n;B[double]\n;W[take]\n;B[62agln]\n"
          ";W[53mhmj]\n;B[resign:2]\n;W[accept])\n")
"""Bob doubles, Alice takes; Bob resigns a single game at cube 2: 2 points (libgsgf: "the
value of the cube is already taken into account")."""
GAME_2 = (_ROOT.format(game=1, ws=2, result="W+1Resign", rules="Crawford:CrawfordGame")
          + ";B[43aelo]\n;W[55mhmhmhhc]\n;B[resign:1]\n;W[reject]\n;B[21lnno]\n"
          ";W[31hefe]\n;B[resign:1]\n;W[accept])\n")
"""Bob offers a single game, Alice rejects and play goes on; his second offer is accepted."""
GIBBON = GAME_1 + GAME_2
MAT_TWIN = """ 3 point match

 Game 1
 Alice : 0                          Bob : 0
  1) 31: 8/5 6/5                    42: 8/4 6/4
  2) 65: 24/13                      Doubles => 2
  3)  Takes                         62: 24/18 13/11
  4) 53: 13/8 13/10
      Wins 2 points

 Game 2
 Alice : 2                          Bob : 0
  1)                                43: 24/20 13/10
  2) 55: 13/8 13/8 13/8 8/3         21: 13/11 11/10
  3) 31: 8/5 6/5
      Wins 1 point and the match
"""
"""The same match as a .mat (as Gibbon exports it, or gnubg)."""


def _record(text: str) -> MatchRecord:
    (record,) = parse_sgf(text)
    return record


def _replay(text: str) -> MatchReplay:
    return replay_match(_record(text))


def _errors(replay: MatchReplay) -> list[tuple[str, int | None]]:
    return [(p.rule, p.line) for p in replay.problems if p.severity.value == "error"]


def test_gibbon_resignations_are_read() -> None:
    replay = _replay(GIBBON)
    assert replay.problems == [] and replay.complete and replay.final_score == (3, 0)
    assert [(g.ended_by, g.points, g.cube) for g in replay.games] == [
        ("resign", 2, 2), ("resign", 1, 1)]
    # The .mat twin says the same.
    (twin,) = parse_mat(MAT_TWIN)
    mat = replay_match(twin)
    assert mat.valid and mat.final_score == replay.final_score
    assert [(g.points, g.result) for g in mat.games] == [
        (g.points, g.result) for g in replay.games]


def test_an_accepted_resignation_is_located_at_the_offer() -> None:
    (resign,) = [a for a in _record(GAME_1).games[0].actions if a.points == 2
                 and a.kind == "resign"]
    assert (resign.player, resign.line) == (1, GAME_1.splitlines().index(";B[resign:2]") + 1)


def test_convert_writes_a_gibbon_file(tmp_path: Path) -> None:
    source = tmp_path / "gibbon.sgf"
    source.write_text(GIBBON, encoding="utf-8")
    for suffix in (".mat", ".sgf", ".json"):
        out = tmp_path / f"copy{suffix}"
        result = CliRunner().invoke(app, ["convert", str(source), "-o", str(out)])
        assert result.exit_code == 0, result.output
        (copy,) = load_file(out).records
        assert replay_match(copy).final_score == (3, 0) and replay_match(copy).valid


@pytest.mark.parametrize("old, new, rule, at", [
    (";B[resign:2]", ";B[resign:x]", "syntax", ";B[resign:x]"),  # no number of points
    (";B[resign:2]", ";B[resign:0]", "syntax", ";B[resign:0]"),  # nothing offered
    (";B[resign:2]", ";B[resign]", "syntax", ";B[resign]"),
    # Never answered: play went on.
    (";W[accept])", ";B[21lnno])", "syntax", ";B[resign:2]"),
    # The resigner cannot accept his own offer.
    (";W[accept])", ";B[accept])", "syntax", ";B[accept])"),
    (";W[53mhmj]\n;B[resign:2]\n", ";W[53mhmj]\n", "syntax", ";W[accept])"),  # no offer
    (";B[resign:2]", ";B[resign:5]", "resign-value", ";B[resign:5]"),  # not 2, 4, 6 at cube 2
    ("RE[W+2Resign]", "RE[W+4Resign]", "wins-mismatch", "(;FF[4]"),  # 2 points accepted
])
def test_a_resignation_token_that_cannot_mean_one_is_an_error(old: str, new: str, rule: str,
                                                               at: str) -> None:
    assert old in GAME_1
    text = GAME_1.replace(old, new)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith(at))
    errors = _errors(_replay(text))
    assert {r for r, _ in errors} <= {rule, "wins-mismatch"}, errors
    assert next(where for r, where in errors if r == rule) == line, errors


def test_a_rejected_resignation_lets_play_go_on() -> None:
    # Without the reject, Bob's roll after his offer leaves the offer unanswered.
    unanswered = GAME_2.replace(";W[reject]\n", "")
    assert [r for r, _ in _errors(_replay(unanswered))] == ["syntax"]


# --- SGF of another game --------------------------------------------------------------------

GO = "(;FF[4]GM[1]SZ[19]PB[Black]PW[White]KM[6.5]RE[B+R]\n;B[pd];W[dp];B[pp];W[dd];B[fq])\n"


@pytest.mark.parametrize("gm, shown", [("1", "GM[1]: Go"), ("2", "GM[2]: Othello"),
                                       ("42", "GM[42]"), ("x", "GM[x]")])
def test_an_sgf_of_another_game_is_unreadable(gm: str, shown: str, tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_text(GO.replace("GM[1]", f"GM[{gm}]"), encoding="utf-8")
    with pytest.raises(UnsupportedFormatError, match=r"an SGF of another game \(" +
                       shown.replace("[", r"\[").replace("]", r"\]") + r"\)"):
        read_records(path.read_bytes(), str(path))
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2 and "unreadable" in result.output
    assert "syntax" not in result.output and "dice" not in result.output


def test_a_backgammon_collection_with_one_other_game_is_refused() -> None:
    with pytest.raises(UnsupportedFormatError, match="Go"):
        read_records((GIBBON + GO).encode(), "mixed.sgf")


@pytest.mark.parametrize("gm", ["GM[6]", "", "GM[]", "GM[ 6 ]"])
def test_gm_6_or_none_stated_is_backgammon(gm: str) -> None:
    text = GIBBON.replace("GM[6]", gm)
    loaded = read_records(text.encode(), "gibbon.sgf")
    assert [replay_match(r).valid for r in loaded.records] == [True]
