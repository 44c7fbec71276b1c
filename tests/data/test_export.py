"""``bgtools export``: the rows equal ``replay --jsonl``'s actions row for row, the extra
columns agree with ``status`` and ``score``, Parquet equals CSV, the manual's DuckDB query
(docs/data.md) runs, and bad input leaves no output file."""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path
from typing import Annotated, Any

import pytest
import typer
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.cli.data import ExportFormat
from bgtools.data.context import match_context
from bgtools.data.export import COLUMNS, ParquetSink, match_rows
from bgtools.data.spreadsheet import text_cell
from bgtools.engine import ids
from bgtools.readers.inputs import expand_paths
from bgtools.reports.files import analyse_file
from bgtools.write import atomic as atomicio
from tests.helpers.paths import CORPUS, FILES, REPO, SAMPLES
from tests.helpers.selfplay import load_cases
from tests.helpers.synthetic_matches import random_match

DATA_PAGE = REPO / "docs" / "data.md"
"""The manual's page of the data commands: its DuckDB query runs here."""
CASES = load_cases()
runner = CliRunner()

LISTS = ("dice", "steps", "pips", "score")
INTS = ("match", "game", "index", "player", "cube_value", "cube_owner", "winner", "points",
        "line", "move", "match_length", "player_away", "opponent_away")
FLOATS = ("player_rating", "opponent_rating")
BOOLS = ("crawford", "duplicate")

# replay --jsonl key -> export column
SAME = {"file": "file", "game": "game", "index": "index", "player": "player",
        "action": "action", "dice": "dice", "play": "play", "steps": "steps",
        "position_id_before": "position_id_before", "position_id_after": "position_id_after",
        "match_id_before": "match_id_before", "pips_before": "pips",
        "cube_before": "cube_value", "cube_owner_before": "cube_owner"}


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def read_csv(path: Path) -> list[dict[str, Any]]:
    """The export's CSV with its cells decoded (lists, numbers, booleans, None)."""
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        assert tuple(reader.fieldnames or ()) == COLUMNS
        rows = []
        for raw in reader:
            row: dict[str, Any] = {}
            for name, cell in raw.items():
                if cell == "":
                    row[name] = None
                elif name in LISTS:
                    row[name] = json.loads(cell)
                elif name in INTS:
                    row[name] = int(cell)
                elif name in FLOATS:
                    row[name] = float(cell)
                elif name in BOOLS:
                    row[name] = {"true": True, "false": False}[cell]
                elif name == "date":
                    row[name] = dt.date.fromisoformat(cell)
                elif name == "time":
                    row[name] = dt.time.fromisoformat(cell)
                else:
                    row[name] = cell
            rows.append(row)
    return rows


def inputs() -> list[str]:
    paths = [str(p) for p in sorted(FILES.glob("*.txt"))] + [str(SAMPLES)]
    paths += [str(mat) for mat, _ in CASES[:4]] + [str(mat.with_suffix(".sgf"))
                                                  for mat, _ in CASES[:4]]
    return paths


def test_rows_equal_replay_jsonl_row_for_row(tmp_path: Path) -> None:
    out = tmp_path / "rows.csv"
    code, _, err = run("export", *inputs(), "--to", "csv", "-o", str(out), "-j", "1",
                       "--include-invalid")
    assert code in (0, 1), err
    code, jsonl, _ = run("replay", *inputs(), "--jsonl")
    actions = [json.loads(line) for line in jsonl.splitlines()]
    rows = read_csv(out)
    assert len(rows) == len(actions) > 1000
    for row, action in zip(rows, actions):
        for key, column in SAME.items():
            want = action.get(key)
            if column == "play" and action["action"] == "move" and want == "":
                want = None  # CSV writes "" and null alike; the steps ([]) tell them apart
            assert row[column] == want, (key, row, action)




def _reference_rows(replay: Any, events: list[Any]) -> list[dict[str, Any]]:
    """Each event's own fields (``Event.action_fields``), its XGID straight from the codec and
    its pips from the position: what the export's memoised, per-position path must give."""
    out = []
    for event in events:
        fields = event.action_fields()
        state = event.state_before
        pos = event.position_before
        sides = ((pos.mover[1:], pos.opponent[1:]) if state.on_roll == 0
                 else (pos.opponent[1:], pos.mover[1:]))
        try:
            fields["xgid"] = ids.encode_xgid(sides, state)
        except ids.IdError:
            fields["xgid"] = ""
        mover, opponent = pos.pips
        fields["pips"] = [mover, opponent] if state.on_roll == 0 else [opponent, mover]
        out.append(fields)
    return out


@pytest.mark.parametrize("as_text", [False, True])
def test_match_rows_equal_action_fields_for_every_action(as_text: bool) -> None:
    paths = [str(FILES), str(SAMPLES)] + ([str(CORPUS)] if CORPUS.is_dir() else [])
    checked = 0
    for display, path, error in expand_paths(paths):
        result = analyse_file(display, path, error, keep_events=True)
        for match, (replay, events) in enumerate(zip(result.replays, result.events), 1):
            context = match_context(replay, events, display, match)
            rows = list(match_rows(context, replay, events, as_text))
            assert len(rows) == len(events)
            for row, want in zip(rows, _reference_rows(replay, events)):
                got = dict(zip(COLUMNS, row))
                for key in ("index", "player", "action", "position_id_before",
                            "match_id_before", "xgid"):
                    assert got[key] == want[key], (display, key, got, want)
                assert got["play"] == want.get("play")
                for key in ("dice", "steps", "pips"):
                    value = want.get(key)
                    if as_text:
                        value = None if value is None else json.dumps(value, separators=(",", ":"))
                    assert (got[key] if as_text or got[key] is None
                            else json.loads(json.dumps(got[key]))) == value, (display, key)
                checked += 1
    assert checked > 1000


def _games(rows: list[dict[str, Any]]) -> dict[tuple[str, int, int], list[dict[str, Any]]]:
    out: dict[tuple[str, int, int], list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault((row["file"], row["match"], row["game"]), []).append(row)
    return out


@pytest.mark.skipif(not CASES, reason="no cached self-play matches")
def test_results_scores_and_xgids(tmp_path: Path) -> None:
    mat = CASES[0][0]
    out = tmp_path / "rows.csv"
    assert run("export", str(mat), "--to", "csv", "-o", str(out))[0] == 0
    rows = read_csv(out)
    _code, score_out, _ = run("score", str(mat), "--json")
    games = json.loads(score_out)["games"]
    by_game = _games(rows)
    assert len(by_game) == len(games)
    for game in games:
        game_rows = by_game[(str(mat), 1, game["number"])]
        assert [r["index"] for r in game_rows] == list(range(len(game_rows)))
        last = game_rows[-1]
        assert (last["winner"], last["points"], last["result"], last["ended_by"]) == (
            game["winner"], game["points"], game["result"], game["ended_by"])
        assert all(r["result"] is None and r["winner"] is None for r in game_rows[:-1])
        assert all(r["score"] == game["score_before"] for r in game_rows)
        assert all(r["crawford"] == game["crawford"] for r in game_rows)
    # The XGID of a row is status's XGID of the same moment (before the action).
    for row in rows[:: max(1, len(rows) // 12)]:
        _code, status_out, _ = run("status", str(mat), "--game", str(row["game"]),
                                  "--move", str(row["index"] + 1), "--json")
        status = json.loads(status_out)
        assert status["xgid"] == row["xgid"]
        assert status["match_id"] == row["match_id_before"]


def test_parquet_equals_csv(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    paths = inputs()
    csv_out, parquet_out = tmp_path / "rows.csv", tmp_path / "rows.parquet"
    assert run("export", *paths, "--to", "csv", "-o", str(csv_out), "--include-invalid",
               "-j", "2")[0] in (0, 1)
    assert run("export", *paths, "--to", "parquet", "-o", str(parquet_out),
               "--include-invalid", "-j", "2")[0] in (0, 1)
    table = pq.read_table(parquet_out)
    assert tuple(table.column_names) == COLUMNS
    from_parquet = table.to_pylist()
    from_csv = read_csv(csv_out)
    assert len(from_parquet) == len(from_csv)
    for a, b in zip(from_parquet, from_csv):
        if a["action"] == "move" and a["play"] == "":
            a["play"] = None
        for name in ("file", "player_name", "opponent_name", "event", "site", "round",
                     "match_id"):  # CSV writes text from a file as spreadsheet text
            if a[name] is not None:
                a[name] = text_cell(a[name])
        assert a == b


def test_parquet_streams_row_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    from bgtools.data import export

    monkeypatch.setattr(export, "ROW_GROUP_ROWS", 50)
    out = tmp_path / "rows.parquet"
    assert run("export", str(SAMPLES), "--to", "parquet", "-o", str(out), "-j", "1")[0] == 0
    meta = pq.ParquetFile(out).metadata
    sizes = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
    assert len(sizes) >= 3 and all(size >= 50 for size in sizes[:-1])
    assert sum(sizes) == meta.num_rows > 200


DUCKDB_QUERY_START = "<!-- duckdb-query -->"


def manual_query() -> str:
    text = DATA_PAGE.read_text(encoding="utf-8")
    start = text.index(DUCKDB_QUERY_START)
    block = text[text.index("```sql", start) + len("```sql"):]
    return block[: block.index("```")]


@pytest.mark.skipif(not CASES, reason="no cached self-play matches")
def test_the_manuals_duckdb_query(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    duckdb = pytest.importorskip("duckdb")
    mats = [str(mat) for mat, _ in CASES]
    monkeypatch.chdir(tmp_path)
    assert run("export", *mats, "--to", "csv", "-o", "moves.csv")[0] == 0
    rows = duckdb.sql(manual_query()).fetchall()
    answers = {answer: count for answer, count, _ in rows}
    _code, out, _ = run("stats", *mats, "--json")
    cube = json.loads(out)["all"]["cube"]
    assert answers == {"drop": cube["drops"], "take": cube["takes"]}


# --- bad input and atomic output ------------------------------------------------------------


def test_existing_output_needs_force(tmp_path: Path) -> None:
    out = tmp_path / "rows.csv"
    out.write_text("keep me")
    code, _, err = run("export", str(SAMPLES), "--to", "csv", "-o", str(out))
    assert code == 2 and "exists" in err and out.read_text() == "keep me"
    code, _, err = run("export", str(SAMPLES), "--to", "csv", "-o", str(out), "--force")
    assert code == 0 and out.read_text().startswith("file,match,game,")


@pytest.mark.parametrize("case", ["missing-input", "no-directory", "bad-format", "all-invalid",
                                  "directory", "bad-rules"])
def test_bad_input_one_line_no_output(tmp_path: Path, case: str) -> None:
    out = tmp_path / "rows.csv"
    args = ["export", str(SAMPLES), "--to", "csv", "-o", str(out)]
    if case == "missing-input":
        args[1] = str(tmp_path / "missing.mat")
    elif case == "no-directory":
        out = tmp_path / "nowhere" / "rows.csv"
        args[-1] = str(out)
    elif case == "bad-format":
        args[3] = "xlsx"
    elif case == "all-invalid":
        bad = tmp_path / "bad.mat"
        bad.write_text(random_match(1).replace("1) ", "1) 66: 24/1 ", 1), encoding="utf-8")
        args[1] = str(bad)
    elif case == "directory":
        out = tmp_path
        args[-1] = str(out)
    elif case == "bad-rules":
        args += ["--rules", "nonsense"]
    code, stdout, err = run(*args)
    assert code in (1, 2)
    assert "Traceback" not in stdout + err
    if case != "bad-format":  # Typer words its own usage errors
        assert err.count("\n") <= 2 and "error" in err
    if case != "directory":
        assert not out.exists()
    assert not list(tmp_path.glob(".rows.csv.*"))  # no temporary file left behind


def test_an_interrupted_export_leaves_nothing(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from bgtools.data import export

    calls = {"n": 0}
    original = export.CsvSink.write

    def interrupt(self: Any, payload: dict[str, Any]) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        original(self, payload)

    monkeypatch.setattr(export.CsvSink, "write", interrupt)
    out = tmp_path / "rows.csv"
    code, _, err = run("export", str(SAMPLES), "--to", "csv", "-o", str(out), "-j", "1")
    assert code == 130 and "interrupted" in err
    assert not out.exists() and not list(tmp_path.iterdir())


def test_open_atomically_streams_or_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    with atomicio.open_atomically(target) as handle:
        handle.write(b"one ")
        assert not target.exists()
        handle.write(b"two")
    assert target.read_bytes() == b"one two"

    def fail_halfway() -> None:
        with atomicio.open_atomically(target, overwrite=True) as handle:
            handle.write(b"half")
            raise RuntimeError("stop")

    with pytest.raises(RuntimeError):
        fail_halfway()
    assert target.read_bytes() == b"one two" and len(list(tmp_path.iterdir())) == 1
    with pytest.raises(atomicio.OutputRefusedError), atomicio.open_atomically(target):
        pass


def test_parquet_sink_without_rows_writes_a_valid_file(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    target = tmp_path / "empty.parquet"
    with target.open("wb") as handle:
        ParquetSink(handle).close()
    assert pq.read_table(target).num_rows == 0


def test_invalid_files_are_skipped_with_a_note(tmp_path: Path) -> None:
    good = tmp_path / "good.mat"
    good.write_text(random_match(4), encoding="utf-8")
    lines = good.read_text().splitlines(keepends=True)
    row = next(i for i, line in enumerate(lines) if line.strip().startswith("3)"))
    lines[row] = lines[row].split(":")[0] + ": 13/1\n"  # an impossible play
    bad = tmp_path / "bad.mat"
    bad.write_text("".join(lines), encoding="utf-8")
    out = tmp_path / "rows.csv"
    code, _, err = run("export", str(good), str(bad), "--to", "csv", "-o", str(out), "-j", "1")
    assert code == 1
    assert "bad.mat: skipped" in err and "--include-invalid" in err
    files = {row["file"] for row in read_csv(out)}
    assert files == {str(good)}
    code, _, err = run("export", str(good), str(bad), "--to", "csv", "-o", str(out), "--force",
                       "--include-invalid")
    assert code == 1 and "bad.mat: skipped" not in err
    assert {row["file"] for row in read_csv(out)} == {str(good), str(bad)}


@pytest.mark.parametrize("name, fmt", [("rows.csv", "csv"), ("rows.parquet", "parquet"),
                                       ("ROWS.CSV", "csv")])
def test_the_format_is_taken_from_the_extension(tmp_path: Path, name: str, fmt: str) -> None:
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / name
    code, _, err = run("export", str(SAMPLES), "-o", str(out))
    assert code == 0, err
    assert f"({fmt}, " in err
    assert out.read_bytes().startswith(b"PAR1" if fmt == "parquet" else b"file,match,game,")


def test_to_wins_over_the_extension_and_no_extension_is_a_usage_error(tmp_path: Path) -> None:
    out = tmp_path / "rows.parquet"
    code, _, _ = run("export", str(SAMPLES), "-o", str(out), "--to", "csv")
    assert code == 0 and out.read_text().startswith("file,match,game,")
    bare = tmp_path / "rows"
    code, _, err = run("export", str(SAMPLES), "-o", str(bare))
    assert code == 2 and not bare.exists()
    assert err == (f"bgtools: error: export: {bare} has no .csv or .parquet extension: name "
                   "the format with --to csv or --to parquet\n")


def test_a_missing_choice_is_listed_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # Click lists the choices of a required option on indented lines ("\n\tcsv,\n\t...").
    from bgtools.cli.errors import run_app

    probe = typer.Typer()

    @probe.command()
    def pick(to: Annotated[ExportFormat, typer.Option("--to")]) -> None:
        """A command with a required choice."""

    @probe.command()
    def other() -> None:
        """A second command, so that ``pick`` is a sub-command."""

    with pytest.raises(SystemExit) as info:
        run_app(probe, ["pick"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "\t" not in err and err.count("\n") == 1
    assert "Choose from: csv, parquet;" in err
