"""Archives as datasets (issue 41): the tables of ``export``, the fingerprint that finds a
match read twice, the filters of the data commands, the Parquet dataset, and the questions
DuckDB answers from the dataset alone."""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.data.context import MatchFilter, match_context, read_aliases
from bgtools.data.export import (
    DATASET_SCHEMA,
    TABLES,
    parquet_schema,
)
from bgtools.readers.inputs import expand_paths
from bgtools.reports.files import analyse_file
from tests.helpers.paths import CORPUS, FILES, REPO, SAMPLES

CONTRACT = REPO / "docs" / "contract.md"
TWIN_MAT = FILES / "selfplay" / "m3_s2.mat"
TWIN_SGF = FILES / "selfplay" / "m3_s2.sgf"
GALAXY = FILES / "match3539770.txt"

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def local_inputs() -> list[str]:
    """The repository's own archive: samples, the bundled corpus, self-play matches."""
    return [str(SAMPLES), str(FILES / "corpus"), str(FILES / "selfplay"), str(GALAXY),
            str(FILES / "money_raccoons.mat")]


ARCHIVES = [pytest.param(local_inputs, id="tests-files"),
            pytest.param(lambda: [str(CORPUS)], id="corpus",
                         marks=pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus"))]


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


# --- the fingerprint and duplicates -------------------------------------------------------


def _fingerprints(path: Path) -> list[str]:
    (display, source, error), = expand_paths([str(path)])
    result = analyse_file(display, source, error, keep_events=True)
    return [match_context(r, e, display, n).fingerprint
            for n, (r, e) in enumerate(zip(result.replays, result.events), 1)]


def test_a_mat_and_its_sgf_twin_share_a_fingerprint_other_matches_do_not() -> None:
    assert _fingerprints(TWIN_MAT) == _fingerprints(TWIN_SGF)
    prints = [p for mat in sorted((FILES / "selfplay").glob("*.mat"))
              for p in _fingerprints(mat)]
    assert len(prints) > 10 and len(set(prints)) == len(prints)


def test_standings_and_stats_count_a_match_read_twice_once(tmp_path: Path) -> None:
    copy = tmp_path / "elsewhere" / TWIN_MAT.name
    copy.parent.mkdir()
    shutil.copy(TWIN_MAT, copy)
    code, once, _ = run("standings", "--json", str(TWIN_MAT))
    assert code == 0
    code, out, err = run("standings", "--json", str(TWIN_MAT), str(TWIN_SGF), str(copy))
    assert code == 0
    obj, single = json.loads(out), json.loads(once)
    assert obj["duplicate_matches"] == 2 and obj["files_read"] == 3
    assert obj["players"] == single["players"] and obj["matches"] == single["matches"] == 1
    assert "duplicate" not in err  # --json says it in the object
    err = run("standings", "--csv", str(TWIN_MAT), str(TWIN_SGF), str(copy))[2]
    assert "2 duplicate match(es) counted once" in err
    code, out, err = run("stats", "--json", str(TWIN_MAT), str(TWIN_SGF), str(copy))
    code, alone, _ = run("stats", "--json", str(TWIN_MAT))
    stats, one = json.loads(out), json.loads(alone)
    assert stats["duplicate_matches"] == 2
    assert stats["all"]["rolls"] == one["all"]["rolls"] > 0
    assert stats["all"]["matches"] == 1


def test_export_marks_the_second_reading(tmp_path: Path) -> None:
    code, out, err = run("export", str(TWIN_MAT), str(TWIN_SGF), "--table", "matches",
                         "-o", "-")
    assert code == 0, err
    first, second = csv_rows(out)
    assert first["fingerprint"] == second["fingerprint"]
    assert (first["duplicate"], first["duplicate_of_file"]) == ("false", "")
    assert (second["duplicate"], second["duplicate_of_file"],
            second["duplicate_of_match"]) == ("true", str(TWIN_MAT), "1")
    code, out, _ = run("export", str(TWIN_MAT), str(TWIN_SGF), "-o", "-")
    marks = {(row["file"], row["duplicate"]) for row in csv_rows(out)}
    assert marks == {(str(TWIN_MAT), "false"), (str(TWIN_SGF), "true")}


def test_matches_without_a_roll_are_never_duplicates(tmp_path: Path) -> None:
    text = " 3 point match\n\n Game 1\n Alice : 0                     Bob : 0\n"
    for name in ("a.mat", "b.mat"):
        (tmp_path / name).write_text(text, encoding="utf-8")
    _code, out, _err = run("export", str(tmp_path), "--table", "matches", "-o", "-",
                         "--include-invalid")
    rows = csv_rows(out)
    assert len(rows) == 2 and rows[0]["fingerprint"] != rows[1]["fingerprint"]
    assert {row["duplicate"] for row in rows} == {"false"}


# --- the tables -----------------------------------------------------------------------------


def test_every_row_carries_its_match_context() -> None:
    code, out, err = run("export", str(GALAXY), "-o", "-")
    assert code == 0, err
    rows = csv_rows(out)
    _, score, _ = run("score", "--json", str(GALAXY))
    obj = json.loads(score)
    assert {row["match"] for row in rows} == {"1"}  # 1-based, as score --json
    names = (obj["players"][0], obj["players"][1]) if "players" in obj else None
    for row in rows:
        assert row["site"] == "BackgammonGalaxy" and row["date"] == "2023-11-12"
        assert row["time"] == "20:14:00" and row["match_id"] == "3539770"
        assert row["match_length"] == "3" and row["line"]
        mover = int(row["player"])
        if names is not None:
            assert row["player_name"] == names[mover]
        score_before = json.loads(row["score"])
        assert int(row["player_away"]) == 3 - score_before[mover]
        assert int(row["opponent_away"]) == 3 - score_before[1 - mover]
        assert row["crawford_state"] in ("normal", "crawford", "post-crawford")


def test_binary_rows_carry_the_move_not_a_line() -> None:
    xg = next((FILES / "corpus" / "xg-binary").glob("*.xg"))
    _code, out, _err = run("export", str(xg), "-o", "-")
    rows = csv_rows(out)
    assert rows and all(row["line"] == "" and row["move"] for row in rows)
    assert all(row["player_rating"] != "" for row in rows)  # XG states each Elo


def test_the_cube_table_pairs_each_offer_with_its_answer() -> None:
    raccoons = FILES / "money_raccoons.mat"
    code, out, err = run("export", str(raccoons), "--table", "cubes", "-o", "-")
    assert code == 0, err
    rows = csv_rows(out)
    code, actions_out, _ = run("export", str(raccoons), "-o", "-")
    actions = csv_rows(actions_out)
    offers = [i for i, a in enumerate(actions) if a["action"] in ("double", "beaver",
                                                                   "raccoon")]
    assert [(r["game"], r["index"]) for r in rows] == [
        (actions[i]["game"], actions[i]["index"]) for i in offers]
    for row, i in zip(rows, offers):
        after = actions[i + 1]["action"] if i + 1 < len(actions) else None
        assert row["answer"] == (after if after in ("take", "drop", "beaver", "raccoon")
                                 else "")
        pips = json.loads(actions[i]["pips"])
        doubler = int(row["doubler"])
        assert (int(row["doubler_pips"]), int(row["taker_pips"])) == (
            pips[doubler], pips[1 - doubler])
        assert int(row["cube_offered"]) == 2 * int(row["cube_before"])
    # double 1 -> 2, beaver -> 4, raccoon -> 8
    assert [r["cube_offered"] for r in rows[:3]] == ["2", "4", "8"]


def test_the_games_table_agrees_with_score() -> None:
    _code, out, _ = run("export", str(GALAXY), "--table", "games", "-o", "-")
    rows = csv_rows(out)
    games = json.loads(run("score", "--json", str(GALAXY))[1])["games"]
    assert len(rows) == len(games)
    for row, game in zip(rows, games):
        assert (int(row["winner"]), int(row["points"]), row["result"], row["ended_by"]) == (
            game["winner"], game["points"], game["result"], game["ended_by"])
        assert [int(row["score_0"]), int(row["score_1"])] == game["score_before"]


# --- filters --------------------------------------------------------------------------------


def test_filters_pick_matches(tmp_path: Path) -> None:
    paths = [str(FILES / "corpus"), str(GALAXY)]
    code, out, _ = run("export", *paths, "--table", "matches", "-o", "-")
    everything = csv_rows(out)
    player = everything[0]["player_0"]
    for args, keep in (
        (("--player", player), lambda r: player in (r["player_0"], r["player_1"])),
        (("--site", "backgammongalaxy"), lambda r: r["site"] == "BackgammonGalaxy"),
        (("--event", "*paris*"), lambda r: "paris" in r["event"].lower()),
        (("--since", "2023-01-01", "--until", "2023-12-31"),
         lambda r: r["date"].startswith("2023")),
    ):
        code, out, err = run("export", *paths, "--table", "matches", "-o", "-", *args)
        got = [(r["file"], r["match"]) for r in csv_rows(out)]
        want = [(r["file"], r["match"]) for r in everything if keep(r)]
        assert got == want and want, (args, err)
    code, out, err = run("standings", "--json", *paths, "--since", "2099-01-01")
    assert code == 1 or json.loads(out)["matches"] == 0
    code, _, err = run("stats", *paths, "--since", "not-a-date")
    assert code == 2 and "--since" in err


def test_aliases_count_one_player(tmp_path: Path) -> None:
    aliases = tmp_path / "aliases.txt"
    aliases.write_text("# comment\nLasse = lasse, tomtom\n", encoding="utf-8")
    assert read_aliases(aliases) == {"lasse": "Lasse", "tomtom": "Lasse"}
    code, out, err = run("standings", "--json", str(GALAXY), "--aliases", str(aliases))
    assert code == 0, err
    assert set(json.loads(out)["players"]) == {"Lasse"}
    code, out, _ = run("export", str(GALAXY), "--aliases", str(aliases), "--player",
                       "tomtom", "--table", "matches", "-o", "-")
    (row,) = csv_rows(out)
    assert row["player_0"] == row["player_1"] == "Lasse"
    bad = tmp_path / "bad.txt"
    bad.write_text("Lasse = lasse\nBob = lasse\n", encoding="utf-8")
    code, _, err = run("stats", str(GALAXY), "--aliases", str(bad))
    assert code == 2 and "bad.txt:2" in err
    assert MatchFilter(players=("tomtom",), aliases={"tomtom": "Lasse"}).active


# --- the dataset ---------------------------------------------------------------------------


def _export_dataset(target: Path, paths: list[str], *more: str) -> str:
    code, _, err = run("export", *paths, "-o", f"{target}/", "-j", "1", *more)
    assert code in (0, 1, 2), err
    assert "parquet dataset" in err, err
    return err


def test_the_dataset_layout_metadata_and_bounded_files(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    from bgtools.data import export

    monkeypatch.setattr(export, "FILE_ROWS", 100)
    target = tmp_path / "ds"
    _export_dataset(target, local_inputs())
    assert sorted(p.name for p in target.iterdir()) == sorted(TABLES)
    parts = list((target / "actions").rglob("*.parquet"))
    assert all(p.parent.name.startswith("year=") and p.parent.parent.name.startswith("site=")
               for p in parts)
    for part in parts:
        meta = pq.read_metadata(part)
        assert meta.num_rows < 100 + 2000  # closed once past the bound, after one match
        keys = meta.metadata
        assert keys[b"bgtools.schema"] == DATASET_SCHEMA.encode()
        assert keys[b"bgtools.table"] == b"actions" and b"bgtools.version" in keys
        assert keys[b"bgtools.rule_profiles"]
    assert len(parts) > len({p.parent for p in parts})  # some partition has several files
    assert not list(target.glob(".bgtools-export-*"))


def test_append_adds_only_new_inputs(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    duckdb = pytest.importorskip("duckdb")
    target = tmp_path / "ds"
    _export_dataset(target, [str(TWIN_MAT)])
    before = {p: p.stat().st_mtime_ns for p in target.rglob("*.parquet")}
    code, _, err = run("export", str(TWIN_MAT), "-o", f"{target}/")
    assert code == 2 and "--append" in err
    err = _export_dataset(target, [str(TWIN_MAT), str(TWIN_SGF), str(GALAXY)], "--append")
    assert {p: p.stat().st_mtime_ns for p in before} == before
    rows = duckdb.sql(f"SELECT file, duplicate, duplicate_of_file FROM "
                      f"read_parquet('{target}/matches/**/*.parquet', hive_partitioning=true)"
                      " ORDER BY file").fetchall()
    assert sorted(rows) == sorted([(str(TWIN_MAT), False, None),
                                   (str(TWIN_SGF), True, str(TWIN_MAT)),
                                   (str(GALAXY), False, None)])
    err = run("export", str(TWIN_MAT), "-o", f"{target}/", "--append")[2]
    assert "nothing to add" in err


def test_the_contract_lists_every_column_with_its_type_and_nullability() -> None:
    pytest.importorskip("pyarrow")
    text = CONTRACT.read_text(encoding="utf-8")
    for table, columns in TABLES.items():
        start = text.index(f"#### The `{table}` table")
        block = text[start:text.index("\n\n#", start + 1)]
        listed = {}
        for line in block.splitlines():
            if line.startswith("| `"):
                cells = [c.strip() for c in line.strip("|").split("|")]
                listed[cells[0].strip("`")] = (cells[1].strip("`"), cells[2])
        assert tuple(listed) == columns, table
        for field in parquet_schema(table):
            kind, nullable = listed[field.name]
            assert kind == str(field.type).replace("dictionary<values=string, indices=int8, "
                                                   "ordered=0>", "dictionary<string>"), field
            assert nullable == ("yes" if field.nullable else "no"), field


# --- the questions, from the dataset alone -------------------------------------------------


def _reference(paths: list[str]) -> dict[str, Any]:
    """The answers computed from the replays themselves (each played match once)."""
    seen: set[str] = set()
    lead: dict[tuple[Any, Any, str], list[int]] = defaultdict(list)
    rates: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for display, source, error in expand_paths(paths):
        result = analyse_file(display, source, error, keep_events=True)
        if result.error is not None or not result.valid:
            continue
        for number, (replay, events) in enumerate(zip(result.replays, result.events), 1):
            context = match_context(replay, events, display, number)
            if context.fingerprint in seen:
                continue
            seen.add(context.fingerprint)
            scores = {g.number: g.score_before for g in replay.games}
            for i, event in enumerate(events[:-1]):
                answer = events[i + 1].action
                if event.action != "double" or answer not in ("take", "drop"):
                    continue
                mover, opponent = event.position_before.pips
                own, other = ((mover, opponent) if event.state_before.on_roll == event.player
                              else (opponent, mover))
                score = scores[event.game]
                length = replay.match_length
                away = ((length - score[event.player], length - score[1 - event.player])
                        if length else (None, None))
                lead[(*away, answer)].append(other - own)
                rates[event.state_before.cube_value * 2][answer == "drop"] += 1
    return {"lead": lead, "rates": rates}


@pytest.mark.parametrize("archive", ARCHIVES)
def test_duckdb_answers_from_the_dataset_alone(tmp_path: Path, archive: Any) -> None:
    pytest.importorskip("pyarrow")
    duckdb = pytest.importorskip("duckdb")
    paths = archive()
    target = tmp_path / "ds"
    _export_dataset(target, paths)
    reference = _reference(paths)

    def table(name: str) -> str:
        return f"read_parquet('{target}/{name}/**/*.parquet', hive_partitioning=true)"

    # The average lead in pips at a double taken and dropped, by away score.
    got = duckdb.sql(f"""
        SELECT doubler_away, taker_away, answer, count(*), avg(taker_pips - doubler_pips)
        FROM {table('cubes')}
        WHERE offer = 'double' AND answer IN ('take', 'drop') AND NOT duplicate
        GROUP BY ALL""").fetchall()
    want = reference["lead"]
    assert len(got) == len(want) > 3
    for away, taker_away, answer, count, mean in got:
        leads = want[(away, taker_away, answer)]
        assert count == len(leads) and mean == pytest.approx(sum(leads) / len(leads))

    # Take and drop rates by cube value.
    got = duckdb.sql(f"""
        SELECT cube_offered, count(*) FILTER (answer = 'take'),
               count(*) FILTER (answer = 'drop'),
               count(*) FILTER (answer = 'take') / count(*) AS take_rate
        FROM {table('cubes')}
        WHERE offer = 'double' AND answer IN ('take', 'drop') AND NOT duplicate
        GROUP BY cube_offered ORDER BY cube_offered""").fetchall()
    assert {cube: [takes, drops] for cube, takes, drops, _ in got} == reference["rates"]
    assert all(rate == pytest.approx(t / (t + d)) for _, t, d, rate in got)

    # Every player's results by event, against standings --event for each event.
    got = duckdb.sql(f"""
        WITH sides AS (
          SELECT event, player_0 AS player, winner = 0 AS won, winner = 1 AS lost,
                 winner IS NULL AS unfinished, final_score_0 AS points_for,
                 final_score_1 AS points_against
          FROM {table('matches')} WHERE NOT duplicate AND valid AND match_length > 0
          UNION ALL
          SELECT event, player_1, winner = 1, winner = 0, winner IS NULL, final_score_1,
                 final_score_0
          FROM {table('matches')} WHERE NOT duplicate AND valid AND match_length > 0)
        SELECT event, player, count(*), count(*) FILTER (won), count(*) FILTER (lost),
               count(*) FILTER (unfinished), sum(points_for), sum(points_against)
        FROM sides WHERE event IS NOT NULL GROUP BY ALL ORDER BY ALL""").fetchall()
    by_event: dict[str, dict[str, tuple[int, ...]]] = defaultdict(dict)
    for event, player, *counts in got:
        by_event[event][player] = tuple(counts)
    assert by_event
    for event, players in by_event.items():
        pattern = "".join(f"[{c}]" if c in "*?[]" else c for c in event)
        code, out, err = run("standings", "--json", *paths, "--event", pattern)
        assert code in (0, 1, 2), err
        standings = json.loads(out)["players"]
        assert {name: (p["matches"], p["wins"], p["losses"], p["unfinished"],
                       p["points_for"], p["points_against"])
                for name, p in standings.items() if p["matches"]} == players, event


def test_a_hostile_site_makes_a_short_folder(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    duckdb = pytest.importorskip("duckdb")
    text = GALAXY.read_text(encoding="utf-8")
    site = "../" + "x/" * 200 + "\u00e9"
    hostile = tmp_path / "in" / "hostile.txt"
    hostile.parent.mkdir()
    hostile.write_text(text.replace('"BackgammonGalaxy"', f'"{site}"'), encoding="utf-8")
    target = tmp_path / "ds"
    _export_dataset(target, [str(hostile)])
    (folder,) = {p.parent.parent for p in (target / "matches").rglob("*.parquet")}
    assert folder.parent == target / "matches" and len(folder.name) < 140
    (got,) = duckdb.sql(f"SELECT site FROM read_parquet('{target}/matches/**/*.parquet', "
                        "hive_partitioning=true)").fetchall()
    assert got[0].startswith("../x/x/")
