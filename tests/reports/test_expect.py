"""``validate --expect "NAME W-L"``: a director checks a submitted match against its claim."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.readers.detect import load_file
from bgtools.replay import profile_for, replay_match
from bgtools.reports.expect import parse_claim
from bgtools.rules import RULES
from tests.helpers.paths import FILES, SAMPLES

runner = CliRunner()


def validate(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["validate", "--jobs", "1", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


def result_of(path: Path) -> tuple[str, int, int, int]:
    """Winner's name, his score, the loser's, the length: from the replay, not from bgtools'
    --expect code."""
    record = load_file(path).records[0]
    replay = replay_match(record, profile_for(record, "auto"))
    assert replay.winner is not None and replay.names is not None
    won, lost = replay.final_score[replay.winner], replay.final_score[1 - replay.winner]
    return replay.names[replay.winner], won, lost, replay.match_length or 0


REAL_FILES = [SAMPLES / "example_gnubg.mat", SAMPLES / "example_gnubg.sgf",
              FILES / "corpus" / "galaxy" / "match1484923.txt",
              FILES / "corpus" / "studio" / "Llabba_-_Iradch49_7pt_2023_05_15_18_07_54.txt",
              FILES / "corpus" / "xg-binary" / "XCu3RJ0UvDg_Tldl.xg"]


@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: p.name)
def test_the_true_result_passes_and_a_wrong_one_fails(path: Path) -> None:
    winner, won, lost, _ = result_of(path)
    assert validate("--expect", f"{winner} {won}-{lost}", path)[0] == 0
    code, out, _ = validate("--expect", f"{winner} {won}-{lost + 1}" if won > lost + 1
                            else f"{winner} {won + 1}-{lost}", path)
    assert code == 1
    (line,) = [ln for ln in out.splitlines() if "error[" in ln]
    assert line.startswith(f"{path}: error[expected-result]: the file's result is "
                           f"{winner} {won}-{lost}, not ")


def test_the_other_player_as_winner_fails() -> None:
    path = SAMPLES / "example_gnubg.mat"
    winner, won, lost, _ = result_of(path)
    loser = ({"Alice", "Bob"} - {winner}).pop()
    code, out, _ = validate("--expect", f"{loser} {won}-{lost}", path)
    assert code == 1
    assert f"not {loser} {won}-{lost} as claimed" in out


def test_names_ignore_case_and_a_capped_score_is_accepted() -> None:
    path = SAMPLES / "example_gnubg.mat"
    winner, won, lost, length = result_of(path)
    assert won > length  # the sample's last game gave more points than needed
    assert validate("--expect", f"{winner.upper()} wins {won}-{lost}", path)[0] == 0
    assert validate("--expect", f"{winner} {length}-{lost}", path)[0] == 0


def test_json_carries_the_claim_and_the_problem() -> None:
    path = SAMPLES / "example_gnubg.mat"
    winner, won, lost, _ = result_of(path)
    code, out, _ = validate("--json", "--expect", f"{winner} {won}-{lost}", path)
    obj = json.loads(out)
    assert code == 0 and obj["valid"] is True
    assert obj["expect"] == {"claimed": f"{winner} {won}-{lost}",
                             "result": f"{winner} {won}-{lost}", "matches": True}
    code, out, _ = validate("--json", "--expect", "Nobody 9-0", path)
    obj = json.loads(out)
    assert code == 1 and obj["valid"] is False
    assert obj["expect"]["matches"] is False
    assert obj["problems"][-1]["rule"] == "expected-result"
    assert "Nobody is not a player of this match" in obj["problems"][-1]["message"]


def test_without_expect_the_json_is_unchanged() -> None:
    out = validate("--json", SAMPLES / "example_gnubg.mat")[1]
    assert "expect" not in json.loads(out)


def test_unfinished_money_and_unreadable_files() -> None:
    code, out, _ = validate("--expect", "Bob 5-0", SAMPLES / "money_gnubg.mat")
    assert code == 1 and "is a money session" in out
    code, out, _ = validate("--json", "--expect", "Bob 5-0", "nosuch.mat")
    obj = json.loads(out)
    assert code == 2 and obj["expect"] == {"claimed": "Bob 5-0", "result": None,
                                           "matches": None}


def test_an_unfinished_match_is_not_won(tmp_path: Path) -> None:
    text = (SAMPLES / "example_gnubg.mat").read_text(encoding="utf-8")
    cut = tmp_path / "cut.mat"
    cut.write_text(text[:text.index(" Game 4")], encoding="utf-8")
    code, out, _ = validate("--expect", "Bob 4-2", cut)
    assert code == 1 and "the match is unfinished at" in out


@pytest.mark.parametrize("text", ["Bob", "7-5", "Bob 5-7", "Bob 5-5", "Bob seven-five"])
def test_a_malformed_claim_is_a_usage_error(text: str) -> None:
    code, out, err = validate("--expect", text, SAMPLES / "example_gnubg.mat")
    assert code == 2 and out == ""
    assert err.startswith("bgtools: error: --expect ") and len(err.splitlines()) == 1


def test_claims_parse_names_with_spaces() -> None:
    claim = parse_claim("  Mochy Kazuki  wins 7 - 3 ")
    assert (claim.winner, claim.won, claim.lost) == ("Mochy Kazuki", 7, 3)


def test_the_rule_is_listed() -> None:
    assert "expected-result" in RULES
