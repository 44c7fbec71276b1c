"""``bgtools standings``: wins and points against GNU Backgammon's own record of its
self-play matches, pair by pair results, CSV and bad input."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.data.standings import CSV_COLUMNS, MatchOutcome, Standings
from tests.helpers.paths import FILES, nameless_copy
from tests.helpers.selfplay import load_cases
from tests.helpers.synthetic_matches import random_match

CASES = load_cases()
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.slow
@pytest.mark.skipif(not CASES, reason="no cached self-play matches")
def test_standings_equal_gnubgs_record() -> None:
    mats = [mat for mat, truth in CASES]
    code, out, err = run("standings", *map(str, mats), "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["kind"] == "standings" and obj["schema"] == "bgtools/1"
    wins: Counter[str] = Counter()
    points_for: Counter[str] = Counter()
    played: Counter[str] = Counter()
    money = 0
    for _, truth in CASES:
        names = truth["players"]
        if truth["match_length"] == 0:
            money += 1
            continue
        final = truth["final_score"]
        winner = 0 if final[0] > final[1] else 1
        wins[names[winner]] += 1
        for side in (0, 1):
            played[names[side]] += 1
            points_for[names[side]] += final[side]
    assert obj["money_sessions"] == money
    assert obj["matches"] == sum(played.values()) // 2
    for name, player in obj["players"].items():
        assert player["matches"] == played[name]
        assert player["wins"] == wins[name]
        assert player["losses"] == played[name] - wins[name]
        assert player["points_for"] == points_for[name]
        assert player["money_sessions"] == money
        (other,) = player["opponents"]
        pair = player["opponents"][other]
        assert pair["wins"] == player["wins"] and pair["points_against"] == points_for[other]
    first = next(iter(obj["players"]))
    assert obj["players"][first]["wins"] == max(wins.values())  # best first


def test_pair_by_pair_and_csv() -> None:
    table = Standings()
    table.add(MatchOutcome(("ann", "bob"), 7, (7, 3), 0))
    table.add(MatchOutcome(("bob", "cy"), 5, (5, 4), 0))
    table.add(MatchOutcome(("cy", "ann"), 5, (6, 2), 0))
    table.add(MatchOutcome(("ann", "cy"), 5, (2, 1), None))  # unfinished
    table.add(MatchOutcome(("ann", "bob"), 0, (12, 3), None))  # money: no points
    obj = table.to_json(4, 0)
    ann = obj["players"]["ann"]
    assert (ann["matches"], ann["wins"], ann["losses"], ann["unfinished"]) == (3, 1, 1, 1)
    assert (ann["points_for"], ann["points_against"]) == (11, 10)
    assert ann["money_sessions"] == 1
    assert ann["opponents"]["cy"] == {"matches": 2, "wins": 0, "losses": 1, "unfinished": 1,
                                      "points_for": 4, "points_against": 7}
    # One win and one loss each: the point difference orders them (cy +2, ann +1, bob -3).
    assert list(obj["players"]) == ["cy", "ann", "bob"]
    rows = list(csv.reader(io.StringIO(table.to_csv())))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert ["ann", "", "3", "1", "1", "1", "11", "10"] in rows
    assert ["ann", "bob", "1", "1", "0", "0", "7", "3"] in rows
    assert sum(1 for r in rows[1:] if r[1] == "") == 3


def test_standings_command_csv_and_table(tmp_path: Path) -> None:
    a, b = tmp_path / "a.mat", tmp_path / "b.mat"
    a.write_text(random_match(1, length=3), encoding="utf-8")
    b.write_text(random_match(2, length=3, names=("bob", "carol")), encoding="utf-8")
    code, out, _ = run("standings", str(tmp_path), "--csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    totals = {r["player"]: r for r in rows if r["opponent"] == ""}
    assert set(totals) == {"alice", "bob", "carol"}
    assert int(totals["bob"]["matches"]) == 2
    assert sum(int(r["wins"]) for r in totals.values()) == 2
    code, out, _ = run("standings", str(tmp_path))
    assert code == 0 and "carol" in out and "pair by pair" in out


@pytest.mark.parametrize("args", [
    ("standings", "/nonexistent/m.mat"),
    ("standings", "/nonexistent/m.mat", "--json"),
    ("standings", str(FILES), "--json", "--csv"),
])
def test_standings_bad_input(args: tuple[str, ...]) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.startswith("bgtools: error:") and err.count("\n") == 1



def test_an_empty_name_is_a_player_of_its_own_file(tmp_path: Path) -> None:
    first = nameless_copy(tmp_path / "a.txt", "lasse")
    second = nameless_copy(tmp_path / "b.txt", "bob")
    for one in (first, second):
        code, out, err = run("standings", "--json", str(one))
        assert code == 0, err
        players = json.loads(out)["players"]
        assert set(players) - {"lasse", "bob"} == {f"player 1 ({one})"}
        assert players[f"player 1 ({one})"]["matches"] == 1
    # Both files hold one played match (the names differ, the play does not): it counts
    # once, under the names of the file read first, and the run says so.
    code, out, err = run("standings", "--json", str(first), str(second))
    assert code == 0, err
    obj = json.loads(out)
    assert set(obj["players"]) == {"lasse", f"player 1 ({first})"}
    assert obj["matches"] == 1 and obj["duplicate_matches"] == 1
    assert "duplicate" not in err  # --json says it in the object
    assert "1 duplicate match(es) counted once" in run("standings", str(first), str(second))[2]
    code, out, _ = run("standings", "--csv", str(first), str(second))
    rows = list(csv.reader(io.StringIO(out)))
    assert len(rows) == len({tuple(row) for row in rows}), "no two rows alike"
    assert ["lasse", f"player 1 ({first})", "1", "1", "0", "0", "3", "0"] in rows
    code, out, _ = run("stats", "--json", str(first), str(second))
    assert set(json.loads(out)["players"]) == {"lasse", f"player 1 ({first})"}
    assert json.loads(out)["duplicate_matches"] == 1
