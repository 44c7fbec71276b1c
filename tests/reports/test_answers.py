"""`score`, `pips`, `status` and `show`: contract JSON, GNU Backgammon as oracle, golden boards."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.testing import CliRunner

import bgtools.cli.answers  # noqa: F401  (registers the commands)
from bgtools.cli import app
from bgtools.cli.board import rich_board
from bgtools.engine.position import Position
from bgtools.readers.inputs import expand_paths
from bgtools.reports.board import BoardInfo, ascii_board
from bgtools.reports.moments import MatchAnswers, analyse_answers, crawford_status, moment_ids
from tests.helpers.paths import SAMPLES, at_least, nameless_copy

EXAMPLE = SAMPLES / "example_gnubg.mat"
MONEY = SAMPLES / "money_gnubg.mat"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str) -> list[dict[str, Any]]:
    code, out, err = run(*args, "--json")
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


# --- contract JSON ----------------------------------------------------------------------------


def test_score_json_of_the_example_match() -> None:
    (obj,) = run_json("score", str(EXAMPLE))
    assert obj == {
        "schema": "bgtools/1", "file": str(EXAMPLE), "format": "mat", "match_length": 3,
        "players": ["Alice", "Bob"], "final_score": [2, 4], "winner": 1, "complete": True,
        "games": [
            {"number": 1, "score_before": [0, 0], "crawford": False, "winner": 0, "points": 1,
             "cube": 1, "result": "single", "ended_by": "drop"},
            {"number": 2, "score_before": [1, 0], "crawford": False, "winner": 1, "points": 2,
             "cube": 2, "result": "single", "ended_by": "resign"},
            {"number": 3, "score_before": [1, 2], "crawford": True, "winner": 0, "points": 1,
             "cube": 1, "result": "single", "ended_by": "bearoff"},
            {"number": 4, "score_before": [2, 2], "crawford": False, "winner": 1, "points": 2,
             "cube": 1, "result": "gammon", "ended_by": "resign"},
        ],
    }


def test_score_json_money_session() -> None:
    (obj,) = run_json("score", str(MONEY))
    assert obj["match_length"] == 0 and obj["final_score"] == [0, 5]
    assert [g["points"] for g in obj["games"]] == [4, 1]
    assert all(g["crawford"] is False for g in obj["games"])


def test_status_json_at_the_start_and_after_the_match() -> None:
    (start,) = run_json("status", str(EXAMPLE), "--game", "1", "--move", "1")
    # The contract's keys and values first, unchanged; the keys issue 42 added after them.
    added = {key: start.pop(key) for key in ("players", "dice", "pending", "result")}
    assert added == {"players": ["Alice", "Bob"], "dice": [6, 3], "pending": None,
                     "result": None}
    assert start == {
        "schema": "bgtools/1", "file": str(EXAMPLE), "game": 1, "move": 1, "match_length": 3,
        "score": [0, 0], "crawford": "pre-crawford", "cube": {"value": 1, "owner": None},
        "on_roll": 1, "pips": [167, 167], "position_id": "4HPwATDgc/ABMA",
        "match_id": "cAlvAAAAAAAE",
        "xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:63:0:0:0:3:10",
    }
    (end,) = run_json("status", str(EXAMPLE))
    assert end["score"] == [2, 4] and end["on_roll"] is None
    assert end["crawford"] == "post-crawford" and end["game"] == 4
    # What gnubg itself shows after importing the file (checked in test_end_ids_match_gnubg).
    assert end["position_id"] == "4HPDMQCM5+ABJA" and end["match_id"] == "MENgACAAIAAE"


def test_status_json_says_what_the_text_says() -> None:
    # example_gnubg.mat game 1 row 4: Alice (left column) 'Doubles => 2', Bob 'Drops'.
    (offer,) = run_json("status", str(EXAMPLE), "--game", "1", "--move", "4b")
    assert offer["pending"] == {"by": 0, "action": "double", "cube": 2, "answer": 1}
    assert offer["dice"] is None and offer["result"] is None
    _, text, _ = run("status", str(EXAMPLE), "--game", "1", "--move", "4b")
    assert "to act       Alice doubled to 2, Bob to answer" in text
    # Every roll: the dice of the replayed action.
    rolls = [json.loads(line) for line in run("replay", "--jsonl", str(EXAMPLE))[1].splitlines()]
    game2 = [r for r in rolls if r["game"] == 2 and r["action"] == "move"]
    for row in game2[:6]:
        (obj,) = run_json("status", str(EXAMPLE), "--game", "2", "--move",
                          str(row["index"] + 1))
        assert obj["dice"] == row["dice"] and obj["pending"] is None
    # After the match: the result, as score --json has it.
    (end,) = run_json("status", str(EXAMPLE))
    (score,) = run_json("score", str(EXAMPLE))
    assert end["players"] == score["players"]
    result = end["result"]
    assert result["match_over"] is True and result["winner"] == score["winner"]
    assert result["final_score"] == score["final_score"]
    last = score["games"][-1]
    assert (result["points"], result["result"], result["ended_by"]) == (
        last["points"], last["result"], last["ended_by"])


def test_status_after_a_take_and_in_the_crawford_game() -> None:
    (taken,) = run_json("status", str(EXAMPLE), "--game", "2", "--move", "7")
    assert taken["cube"] == {"value": 2, "owner": 1}
    (craw,) = run_json("status", str(EXAMPLE), "--game", "3", "--move", "1")
    assert craw["crawford"] == "crawford" and craw["score"] == [1, 2]
    (money,) = run_json("status", str(MONEY))
    assert money["crawford"] == "money"


def test_pips_json_default_and_by_move() -> None:
    (last,) = run_json("pips", str(EXAMPLE))
    # Game 4: four plays, Alice's resignation and Bob's acceptance; then the end (move 7).
    assert last == {"schema": "bgtools/1", "file": str(EXAMPLE), "game": 4, "move": 7,
                    "pips": [152, 143]}
    (resign,) = run_json("pips", str(EXAMPLE), "--game", "4", "--move", "5")
    assert resign["pips"] == [152, 143]
    (opening,) = run_json("pips", str(EXAMPLE), "--game", "1", "--move", "2")
    assert opening["pips"] == [167, 158]  # Bob played 63 first


def test_pips_all_table_lists_every_move() -> None:
    code, out, _ = run("pips", str(EXAMPLE), "--game", "1", "--all")
    assert code == 0
    for text in ("13/10 13/7", "24/18*/13", "(no legal play)", "double", "drop", "game over"):
        assert text in out


@pytest.mark.parametrize("args, wanted", [
    (("pips", str(EXAMPLE), "--game", "9"), "games 1..4"),
    (("status", str(EXAMPLE), "--game", "1", "--move", "99"), "moves 1..8"),
    (("show", str(EXAMPLE), "--game", "0"), "numbered from 1"),
    (("pips", str(EXAMPLE), "--move", "0"), "numbered from 1"),
])
def test_out_of_range_is_a_usage_error(args: tuple[str, ...], wanted: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and wanted in err and "Traceback" not in out + err


def test_several_files_and_directories() -> None:
    objs = run_json("score", str(SAMPLES))
    files = [o["file"] for o in objs]
    assert len(objs) == len([p for p in SAMPLES.iterdir() if p.is_file()])
    assert files == sorted(files)


def test_invalid_record_still_reports_with_problems_on_stderr(tmp_path: Path) -> None:
    text = EXAMPLE.read_text().replace("63: 13/7 13/10", "63: 13/7 13/9", 1)
    bad = tmp_path / "bad.mat"
    bad.write_text(text)
    code, out, err = run("score", str(bad), "--json")
    assert code == 1
    assert json.loads(out)["final_score"] == [2, 4]
    assert "error" in err and "bad.mat:7" in err
    code, out, err = run("status", str(bad))
    assert code == 1 and "Alice 2, Bob 4" in out


def test_unreadable_input_exit_2(tmp_path: Path) -> None:
    code, _, err = run("score", str(tmp_path / "missing.mat"))
    assert code == 2 and "no such file" in err
    code, _, err = run("show", "not-an-id")
    assert code == 2 and "not a Position ID" in err


def _bgtools(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the real program (worker processes included) with piped output."""
    return subprocess.run(
        [sys.executable, "-c", "from bgtools.cli import main; main()", *args],
        capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL, check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )


@pytest.mark.parametrize("command", ["score", "pips", "status"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_json_has_one_line_per_input_file_even_unreadable(tmp_path: Path, command: str,
                                                          jobs: str) -> None:
    missing = tmp_path / "missing.mat"
    binary = tmp_path / "binary.mat"
    binary.write_bytes(b"\x00\x01\x02 not text \xff\xfe")
    paths = [str(EXAMPLE), str(missing), str(binary), str(MONEY)]
    proc = _bgtools(command, "--json", "--jobs", jobs, *paths)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    objs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["file"] for o in objs] == paths
    good = [o for o in objs if "error" not in o]
    assert [o["file"] for o in good] == [str(EXAMPLE), str(MONEY)]
    assert all(o["schema"] == "bgtools/1" for o in objs)
    head = {"schema": "bgtools/1", "file": str(missing)}
    if command == "score":
        head["format"] = None
        assert good[0]["format"] == "mat"
    else:
        assert good[0]["game"] == 4
    assert objs[1] == {**head, "error": f"{missing}: no such file or directory"}
    assert set(objs[2]) == set(head) | {"error"} and objs[2]["file"] == str(binary)
    assert "binary" in objs[2]["error"] and "\n" not in objs[2]["error"]
    # The error lines on stderr are kept, one per unreadable file.
    assert proc.stderr.splitlines() == [f"bgtools: error: {objs[1]['error']}",
                                        f"bgtools: error: {objs[2]['error']}"]


def test_json_error_object_for_a_moment_out_of_range() -> None:
    proc = _bgtools("status", "--json", str(EXAMPLE), "--game", "1", "--move", "99")
    assert proc.returncode == 2
    (obj,) = [json.loads(line) for line in proc.stdout.splitlines()]
    assert obj["file"] == str(EXAMPLE) and "moves 1..8" in obj["error"]
    assert set(obj) == {"schema", "file", "error"}


def test_show_draws_one_board_only(tmp_path: Path) -> None:
    code, out, err = run("show", str(EXAMPLE), str(MONEY))
    assert code == 2 and "unexpected extra argument" in err and not out
    code, out, err = run("show", str(SAMPLES))
    assert code == 2 and "several match files" in err and not out
    (tmp_path / "only.mat").write_text(EXAMPLE.read_text())
    code, out, _ = run("show", str(tmp_path), "--ascii")
    assert code == 0 and out == run("show", str(EXAMPLE), "--ascii")[1]
    code, out, err = run("show", str(tmp_path / "missing.mat"))
    assert code == 2 and "no such file" in err and not out


def test_crawford_status_names() -> None:
    assert crawford_status(0, False, False) == "money"
    assert crawford_status(5, True, False) == "crawford"
    assert crawford_status(5, False, True) == "post-crawford"
    assert crawford_status(5, False, False) == "pre-crawford"


# --- corpus: no crash, consistent JSON ----------------------------------------------------------


@pytest.mark.slow
def test_corpus_score_and_status_never_crash(corpus: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "from bgtools.cli import main; main()", "status", str(corpus),
         "--json"],
        capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL, check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert "Traceback" not in proc.stderr
    objs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(objs) > at_least(corpus, 100, 20)
    # One line per input file, in input order: an error object for an unreadable one.
    assert [o["file"] for o in objs] == [d for d, _, _ in expand_paths([str(corpus)])]
    errors = [o for o in objs if "error" in o]
    assert proc.stderr.count("bgtools: error: ") == len(errors)
    assert all(set(o) == {"schema", "file", "error"} for o in errors)
    for obj in objs:
        if "error" in obj:
            continue
        assert set(obj) == {"schema", "file", "game", "move", "match_length", "score",
                            "crawford", "cube", "on_roll", "pips", "position_id", "match_id",
                            "xgid", "players", "dice", "pending", "result"}
        assert obj["crawford"] in ("pre-crawford", "crawford", "post-crawford", "money")
        assert len(obj["position_id"]) == 14


# --- GNU Backgammon as the oracle ---------------------------------------------------------------


def _gnubg_files(corpus: Path | None) -> list[Path]:
    files = sorted(SAMPLES.glob("*.mat"))
    if corpus is not None:
        files += sorted((corpus / "gnubg").glob("*.mat"))
        files += sorted((corpus / "synthetic").glob("BgMatchFormat_*.mat"))
    return files


def _import(gnubg: ModuleType, path: Path) -> dict[str, Any] | None:
    try:
        gnubg.command(f"import mat {path}")
        match: dict[str, Any] = gnubg.match()
    except Exception:  # noqa: BLE001 - gnubg fails in its own ways on files it cannot import
        return None
    return match


@pytest.fixture(scope="module")
def gnubg_files(full_corpus: Path) -> list[Path]:
    return _gnubg_files(full_corpus)


def _comparable(gnubg: ModuleType,
                files: list[Path]) -> Iterator[tuple[Path, dict[str, Any], MatchAnswers]]:
    """Files gnubg imports with games and bgtools reads as one valid match."""
    for path in files:
        match = _import(gnubg, path)
        if not match or not match.get("games"):
            continue
        result, answers = analyse_answers(str(path), path)
        if not result.valid or len(answers) != 1:
            continue
        yield path, match, answers[0]


@pytest.mark.slow
def test_scores_match_gnubg(gnubg: ModuleType, gnubg_files: list[Path]) -> None:
    compared = 0
    for path, match, answer in _comparable(gnubg, gnubg_files):
        replay = answer.summary
        if replay.match_length == 0:
            continue  # gnubg applies its own Jacoby default to sessions (FORMATS.md 2.9)
        gnu_games = match["games"]
        assert len(gnu_games) == len(replay.games), path
        for mine, theirs in zip(replay.games, gnu_games):
            info = theirs["info"]
            assert list(mine.score_before) == [info["score-X"], info["score-O"]], path
            if info.get("winner") is None:
                assert mine.ended_by is None, path
                continue
            assert mine.winner == (0 if info["winner"] == "X" else 1), (path, mine.number)
            assert mine.points == info["points-won"], (path, mine.number)
            assert (mine.ended_by == "resign") == bool(info["resigned"]), (path, mine.number)
        last = gnu_games[-1]["info"]
        final = [last["score-X"], last["score-O"]]
        if last.get("winner") is not None:
            final[0 if last["winner"] == "X" else 1] += last["points-won"]
        assert list(replay.final_score) == final, path
        compared += 1
    assert compared >= 5


@pytest.mark.slow
def test_positions_and_pips_match_gnubg(gnubg: ModuleType, gnubg_files: list[Path]) -> None:
    checked = 0
    for path, match, answer in _comparable(gnubg, gnubg_files):
        moments = answer.moments
        for number, game in enumerate(match["games"], 1):
            theirs = [(a["board"], tuple(sorted(a["dice"])))
                      for a in game["game"] if a.get("action") == "move"]
            mine = [(m.position.position_id, tuple(sorted(m.dice or ())))
                    for m in moments[number] if m.action == "move" and m.play is not None]
            assert mine[: len(theirs)] == theirs[: len(mine)], (path, number)
            for m in moments[number]:
                if m.action == "move":
                    p = Position.from_id(m.position.position_id).pips
                    assert sorted(p) == sorted(m.pips)
            checked += len(theirs)
    assert checked > 200


@pytest.mark.slow
def test_resign_ids_match_gnubg(gnubg: ModuleType, gnubg_files: list[Path]) -> None:
    """The moment before a resignation (``resign``, also after a roll not played) is the
    state gnubg shows after the record before its resignation; ``accept`` follows."""
    checked = 0
    for path, match, answer in _comparable(gnubg, gnubg_files):
        for number, game in enumerate(match["games"], 1):
            records = list(game["game"])
            kinds = [r.get("action") for r in records]
            if "resign" not in kinds or not answer.summary.match_length:
                continue
            gnubg.command("first game")
            for _ in range(number - 1):
                gnubg.command("next game")
            for _ in range(kinds.index("resign")):
                gnubg.command("next")
            theirs = tuple(gnubg.gnubg_id().split(":"))
            moments = answer.moments[number]
            actions = [m.action for m in moments]
            assert actions[-3:] == ["resign", "accept", None], (path, number)
            resign, accept = moments[-3], moments[-2]
            assert moment_ids(resign)[:2] == theirs, (path, number)
            assert accept.position == resign.position and accept.player == 1 - resign.player
            checked += 1
    assert checked >= 2


@pytest.mark.slow
def test_end_ids_match_gnubg(gnubg: ModuleType) -> None:
    """After an import gnubg stands at the end of the match: same IDs as our final status."""
    for path in (EXAMPLE, *sorted(SAMPLES.glob("*.mat"))):
        assert _import(gnubg, path) is not None
        _, answers = analyse_answers(str(path), path)
        final = answers[-1].moment()
        position_id, match_id, _ = moment_ids(final)
        if answers[-1].summary.match_length:
            assert (position_id, match_id) == (gnubg.position_id(), gnubg.match_id()), path


# --- human output: golden boards and tables at 80 columns, no colour -----------------------------

GOLDEN_START = """\
 Position ID: 4HPwATDgc/ABMA
 Match ID   : cAlvAAAAAAAE
 +13-14-15-16-17-18------19-20-21-22-23-24-+     O: Alice
 | X           O    |   | O              X |     0 points
 | X           O    |   | O              X |     pips 167, off 0
 | X           O    |   | O                |
 | X                |   | O                |
 | X                |   | O                |
v|                  |BAR|                  |     3 point match (Cube: 1)
 | O                |   | X                |
 | O                |   | X                |
 | O           X    |   | X                |
 | O           X    |   | X              O |     Rolled 63
 | O           X    |   | X              O |     pips 167, off 0
 +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: Bob  0 points
 Pip count  X: 167  O: 167  (even)
 XGID=-b----E-C---eE---c-e----B-:0:0:1:63:0:0:0:3:10
"""


def test_show_ascii_golden() -> None:
    code, out, _ = run("show", str(EXAMPLE), "--game", "1", "--move", "1", "--ascii")
    assert code == 0
    assert out == GOLDEN_START


def test_show_rich_without_colour_is_the_same_board() -> None:
    info_code, out, _ = run("show", "4HPwATDgc/ABMA:cAlvAAAAAAAE")
    assert info_code == 0
    lines = out.splitlines()
    assert lines[2] == GOLDEN_START.splitlines()[2].replace("Alice", "player 0")
    assert all(len(line) <= 80 for line in lines)
    assert "\x1b[" not in out


def test_rich_board_at_80_columns_no_colour() -> None:
    from rich.console import Console

    pos = Position.from_points({25: 2, 6: 10, 5: 3}, {1: 12, 13: 3})
    info = BoardInfo(position=pos, x_name="a" * 60, o_name="Bob", x_score=3, o_score=4,
                     match_length=7, cube_value=4, cube_owner="o", dice=(3, 1))
    buf = io.StringIO()
    Console(file=buf, width=80, no_color=True, color_system=None).print(rich_board(info), end="")
    text = buf.getvalue()
    assert text == ascii_board(info)
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert "10" in lines[7] and "Cube: 4" in lines[3] and "Rolled 31" in text
    assert " | X |" in lines[11] or "| X |" in lines[11]


def test_show_bare_xgid_and_subprocess_without_colour() -> None:
    xgid = "XGID=aa-BBbBB-----D------AbbcdB:1:1:-1:31:2:4:0:9:10"
    proc = subprocess.run(
        [sys.executable, "-c", "from bgtools.cli import main; main()", "show", xgid],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "80"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "\x1b[" not in proc.stdout
    assert "bDbwgGDvNgDAUA" in proc.stdout and "EYElAUAAEAAE" in proc.stdout
    assert "Pip count  X: 113  O: 162" in proc.stdout


GOLDEN_SCORE = """\
samples/example_gnubg.mat: Alice vs Bob, 3-point match; Bob wins 4-2
game ┃ score before ┃ winner ┃ points ┃ result ┃ ended by ┃ cube ┃ note
━━━━━╇━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━━━╇━━━━━━╇━━━━━━━━━━━━━━
   1 │ 0-0          │ Alice  │      1 │ single │ drop     │    1 │
   2 │ 1-0          │ Bob    │      2 │ single │ resign   │    2 │
   3 │ 1-2          │ Alice  │      1 │ single │ bearoff  │    1 │ Crawford
   4 │ 2-2          │ Bob    │      2 │ gammon │ resign   │    1 │ post-Crawford
"""


def test_score_human_golden() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "from bgtools.cli import main; main()", "score",
         "samples/example_gnubg.mat"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False,
        cwd=SAMPLES.parent, env={**os.environ, "NO_COLOR": "1", "COLUMNS": "80"},
    )
    assert proc.returncode == 0, proc.stderr
    got = "\n".join(line.rstrip() for line in proc.stdout.splitlines()) + "\n"
    assert got == GOLDEN_SCORE


# --- a record that stops with dice rolled and not played ------------------------------------

# What GNU Backgammon 1.07 (Debian, ``gnubg -t``: ``load match`` of the SGF and ``import
# mat`` of its .mat twin, then ``show board``) shows for the game below: Alice on roll,
# "Rolled 63", in the position she rolled them in.
UNPLAYED_POSITION_ID = "4HPhADHMTvADIA"
UNPLAYED_MATCH_ID = "MAFvAAAAAAAE"


def _unplayed_roll_files(tmp_path: Path) -> tuple[Path, Path]:
    """Game 1 of the example match cut after its 5th play, then Alice's roll 63 written
    without a play: an SGF ending in ``PL[W]DI[63]`` and the .mat cell ``63:``."""
    sgf = (SAMPLES / "example_gnubg.sgf").read_text().split(")")[0]
    nodes = sgf.split("\n;")
    root = nodes[0].replace("RE[W+1]", "")
    sgf_path = tmp_path / "unplayed.sgf"
    sgf_path.write_text("\n;".join([root, *nodes[1:6], "PL[W]DI[63]"]) + ")\n")
    mat = EXAMPLE.read_text().split(" Game 2")[0].splitlines()
    rows = [line for line in mat if line.lstrip()[:2] in ("1)", "2)", "3)")]
    head = mat[:mat.index(rows[0])]
    mat_path = tmp_path / "unplayed.mat"
    mat_path.write_text("\n".join([*head, *rows, "  4) 63:", ""]))
    return sgf_path, mat_path


def test_status_after_an_unplayed_roll_gives_the_dice_to_play(tmp_path: Path) -> None:
    sgf_path, mat_path = _unplayed_roll_files(tmp_path)
    for path in (sgf_path, mat_path):
        (obj,) = run_json("status", str(path))
        assert obj["on_roll"] == 0, path
        assert (obj["position_id"], obj["match_id"]) == (UNPLAYED_POSITION_ID,
                                                         UNPLAYED_MATCH_ID), path
        assert obj["xgid"].split(":")[4] == "63"
        # The same moment as before the roll itself, and as the replay's last event.
        (before,) = run_json("status", "--move", str(obj["move"] - 1), str(path))
        assert {k: v for k, v in before.items() if k != "move"} == \
            {k: v for k, v in obj.items() if k != "move"}
        code, out, _ = run("replay", "--jsonl", str(path))
        last = json.loads(out.splitlines()[-1])
        assert (last["dice"], last["play"], last["match_id_before"]) == \
            ([6, 3], None, UNPLAYED_MATCH_ID)
        code, out, err = run("status", str(path))
        assert code == 0, err
        rows = dict(line.split(None, 1) for line in out.splitlines() if line.strip())
        assert rows["dice"].strip() == "63" and rows["to"].split()[-1] == "Alice"


def test_a_played_last_roll_leaves_the_opponent_to_act(tmp_path: Path) -> None:
    """Only a roll written without a play is still to play: the file cut after a played
    roll has the other player to act and no dice."""
    sgf_path, _ = _unplayed_roll_files(tmp_path)
    played = tmp_path / "played.sgf"
    played.write_text(sgf_path.read_text().replace("\n;PL[W]DI[63])", ")"))
    (obj,) = run_json("status", str(played))
    assert obj["on_roll"] == 0 and obj["xgid"].split(":")[4] == "00"
    assert obj["position_id"] == UNPLAYED_POSITION_ID


def test_show_after_an_unplayed_roll_draws_the_roller_to_play(tmp_path: Path) -> None:
    """``show``'s board after the last action is the board before the roll (the roller's
    side up, ``Rolled 63`` on it, as gnubg's ``show board``), noting that the record ends."""
    sgf_path, _ = _unplayed_roll_files(tmp_path)
    code, final, err = run("show", "--ascii", str(sgf_path))
    assert code == 0, err
    code, before, err = run("show", "--ascii", "--move", "6", str(sgf_path))
    assert code == 0, err
    assert "record ends" in final
    assert [line.replace("record ends", "").rstrip() for line in final.splitlines()] == \
        [line.rstrip() for line in before.splitlines()]
    assert "Rolled 63" in final.splitlines()[6] and UNPLAYED_POSITION_ID in final


@pytest.mark.parametrize("name, position_id, match_id", [
    # gnubg 1.07 (Debian, gnubg -t): import mat, show board: "Rolled 53" / "Rolled 62".
    ("Kopanze-nori-2009Mar012212.txt", "XgAAwN4WgFABAA", "EYHuAAAAIAAE"),
    ("PghPete-nori-2009Jan242317.txt", "4HPwATDgc/ABMA", "MAHrAGAAKAAE"),
])
def test_fibs_records_that_stop_after_a_roll_match_gnubg(name: str, position_id: str,
                                                         match_id: str) -> None:
    """Two FIBS matches of the corpus stop after a roll written without a play
    (``57) 53:``): the status after the last action is gnubg's, the roll still to play."""
    from tests.helpers.paths import CORPUS, corpus_file

    path = corpus_file(CORPUS, f"fibs/{name}")
    (obj,) = run_json("status", str(path))
    assert (obj["position_id"], obj["match_id"]) == (position_id, match_id)


def test_an_empty_name_is_shown_as_player_1(tmp_path: Path) -> None:
    nameless = nameless_copy(tmp_path / "nameless.txt")
    (obj,) = run_json("score", str(nameless))
    assert obj["players"] == ["lasse", ""]  # the contract's JSON keeps what the file says
    code, out, _ = run("score", str(nameless))
    assert code == 0
    assert f"{nameless}: lasse vs player 1, 3-point match; lasse wins 3-0" in out
    code, out, _ = run("status", str(nameless))
    assert "score        lasse 3, player 1 0" in out
    code, out, _ = run("show", "--ascii", str(nameless))
    assert "player 1" in out
