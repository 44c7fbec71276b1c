"""What `replay`, `score`, `pips`, `status` and `plays` say (issue 14, items 4 and 8-11):
problems of a replayed file, moments named by the file's rows, positions given by their ID,
the wording of the answers. Every expectation is checked against another command's JSON or
the file's own text, not against the code that prints it."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.errors import BgtoolsError
from bgtools.readers.detect import load_file, read_records
from bgtools.replay import Event, profile_for, replay_match
from bgtools.reports.moments import MatchAnswers
from bgtools.write.mat import write_mat
from tests.helpers.paths import CORPUS, FILES, SAMPLES

EXAMPLE = SAMPLES / "example_gnubg.mat"
EXAMPLE_SGF = SAMPLES / "example_gnubg.sgf"
EMPTY_PLAY = FILES / "setup" / "bar_cube4_m5.mat"  # line 7: a 51 written with no play
NICKSBAR = CORPUS / "fibs" / "nicksbar-nori-2009Jan302316.txt"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})
    return result.exit_code, result.stdout, result.stderr


def json_lines(*args: str) -> list[dict[str, Any]]:
    code, out, err = run(*args)
    assert code in (0, 1), err
    return [json.loads(line) for line in out.splitlines()]


# --- item 4: replay of a file with errors --------------------------------------------------


@pytest.mark.parametrize("path", [EMPTY_PLAY, NICKSBAR], ids=["tests-files", "corpus"])
def test_replay_prints_the_problems_validate_prints(path: Path) -> None:
    if not path.exists():
        pytest.skip("the shared corpus is absent")
    code, _, err = run("replay", str(path))
    assert code == 1
    _, validated, _ = run("validate", str(path))
    problems = [line for line in validated.splitlines() if re.search(r"(error|warning)\[", line)]
    assert problems and err.splitlines() == problems
    code, out, err_jsonl = run("replay", "--jsonl", str(path))
    assert code == 1 and err_jsonl.splitlines() == problems
    assert all(json.loads(line)["schema"] == "bgtools/1" for line in out.splitlines())


@pytest.mark.parametrize("path", [EMPTY_PLAY, NICKSBAR], ids=["tests-files", "corpus"])
@pytest.mark.parametrize("command", ["status", "show"])
def test_show_and_status_point_to_validate_instead_of_listing(command: str, path: Path
                                                              ) -> None:
    if not path.exists():
        pytest.skip("the shared corpus is absent")
    _, validated, _ = run("validate", str(path))
    problems = [line for line in validated.splitlines() if re.search(r"(error|warning)\[", line)]
    code, out, err = run(command, str(path))
    assert code == 1 and out
    count = len(problems)
    assert err.splitlines() == [f"bgtools: note: {path} has {count} problems: "
                                f"bgtools validate {path} lists them"]
    code, _, err = run(command, "--rules", "galaxy", str(path))
    assert f"bgtools validate --rules galaxy {path} lists them" in err


def test_replay_table_tells_a_dance_from_an_illegal_empty_play() -> None:
    # example_gnubg.mat row 2: Bob's 66 from the bar cannot be played (a dance).
    dance = [o for o in json_lines("replay", "--jsonl", str(EXAMPLE))
             if o["action"] == "move" and o["play"] == ""]
    assert dance, "the example has a dance"
    # bar_cube4_m5.mat line 7: a 51 written with no play although it can be played.
    illegal = [o for o in json_lines("replay", "--jsonl", str(EMPTY_PLAY))
               if o["action"] == "move" and o["play"] is None]
    assert illegal and illegal[0]["line"] == 7
    assert illegal[0]["steps"] is None and illegal[0]["position_id_after"] is None

    def play_cells(path: Path, line: int) -> list[str]:
        _, out, _ = run("replay", str(path))
        cells = []
        for row in out.splitlines():
            parts = [p.strip() for p in row.split("│")]
            if len(parts) > 7 and parts[3] == str(line) and parts[5] == "move":
                cells.append(parts[7])
        return cells

    assert "(no legal play)" in play_cells(EXAMPLE, dance[0]["line"])
    assert "(empty; not replayed)" in play_cells(EMPTY_PLAY, 7)


def test_pips_all_says_why_a_roll_has_no_play() -> None:
    code, out, _ = run("pips", str(EXAMPLE), "--game", "2", "--all")
    assert code == 0
    # Game 2, row 5: Alice rolls 65 and resigns (the file writes '65:' then Bob's 'Wins').
    assert "(rolled, then resigned)" in out and "(not replayed)" not in out


# --- item 9: moments named by the file's rows ----------------------------------------------


def _row_line(path: Path, game: int, row: int) -> int:
    """The line number of ``row)`` in game ``game`` of a .mat file, read from its text."""
    current = 0
    for number, text in enumerate(path.read_text().splitlines(), 1):
        if text.strip().startswith("Game "):
            current = int(text.split()[1])
        elif current == game and re.match(rf"\s*{row}\)", text):
            return number
    raise AssertionError(f"no row {row} in game {game}")


@pytest.mark.parametrize("game, row, column", [(3, 12, "b"), (3, 1, "a"), (1, 1, "b"),
                                                (2, 3, "b")])
def test_move_by_row_is_the_action_of_that_cell(game: int, row: int, column: str) -> None:
    line = _row_line(EXAMPLE, game, row)
    player = "ab".index(column)
    actions = [o for o in json_lines("replay", "--jsonl", str(EXAMPLE))
               if o["game"] == game and o["line"] == line and o["player"] == player]
    number = actions[0]["index"] + 1
    by_number = json_lines("status", str(EXAMPLE), "--game", str(game), "--move", str(number),
                           "--json")
    by_row = json_lines("status", str(EXAMPLE), "--game", str(game), "--move",
                        f"{row}{column}", "--json")
    assert by_row == by_number
    # The SGF of the same match names the same moment by the same row.
    by_row_sgf = json_lines("status", str(EXAMPLE_SGF), "--game", str(game), "--move",
                            f"{row}{column}", "--json")
    assert by_row_sgf[0]["position_id"] == by_number[0]["position_id"]
    assert by_row_sgf[0]["match_id"] == by_number[0]["match_id"]
    _, text, _ = run("pips", str(EXAMPLE), "--game", str(game), "--move", f"{row}{column}")
    assert f"move {number} (row {row}{column})" in text


def _rows(path_or_text: Path | str, name: str = "x.mat") -> dict[int, list[str | None]]:
    """Each game's row labels, resignations left out (gnubg writes them as 'Wins' lines)."""
    if isinstance(path_or_text, Path):
        records = load_file(path_or_text).records
    else:
        records = read_records(path_or_text.encode(), name).records
    events: list[Event] = []
    replay = replay_match(records[0], profile_for(records[0], "auto"), on_event=events.append)
    return {game: [m.row for m in moments if m.action not in ("resign", "accept")]
            for game, moments in MatchAnswers(replay, events).moments.items()}


def _rowless_records() -> list[Path]:
    found = sorted((FILES / "selfplay").glob("*.sgf")) + sorted((FILES / "xg").glob("*.xg"))
    found += sorted((FILES / "xg").glob("*.bgf"))
    if CORPUS.exists():
        for pattern in ("*/*.sgf", "*/*.xg", "*/*.bgf"):
            found += sorted(CORPUS.glob(pattern))
    return found


def test_rows_of_records_without_rows_are_gnubg_export_rows() -> None:
    """SGF, .xg and .bgf have no row numbers: theirs are those of the .mat that GNU
    Backgammon's export (bgtools' byte-exact writer) makes of the same match."""
    checked = 0
    for path in _rowless_records():
        try:  # the corpus also holds damaged and unwritable files: not this test's subject
            record = load_file(path).records[0]
            if not replay_match(record, profile_for(record, "auto")).valid:
                continue
            exported = write_mat(record)
        except BgtoolsError:
            continue
        assert _rows(path) == _rows(exported), path
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("move, wanted", [
    ("0", "moves are numbered from 1"),
    ("0a", "rows are numbered from 1"),
    ("x1", "neither a move number"),
    ("12c", "neither a move number"),
])
def test_bad_move_forms_are_usage_errors(move: str, wanted: str) -> None:
    for command in ("pips", "status", "show"):
        code, out, err = run(command, str(EXAMPLE), "--move", move)
        assert code == 2 and wanted in err and out == ""
        assert err.startswith("bgtools: error: ") and err.count("\n") == 1


def test_a_row_out_of_range_names_the_rows() -> None:
    code, _, err = run("pips", str(EXAMPLE), "--game", "3", "--move", "16a")
    assert code == 2 and "game 3 has rows 1a..15a" in err  # game 3 ends with row 15)


def test_a_row_written_twice_is_ambiguous(tmp_path: Path) -> None:
    text = EXAMPLE.read_text()
    line = _row_line(EXAMPLE, 3, 12)
    lines = text.splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace(" 12)", " 11)", 1)
    damaged = tmp_path / "renumbered.mat"
    damaged.write_text("".join(lines))
    code, _, err = run("status", str(damaged), "--game", "3", "--move", "11a")
    assert code == 2 and "ambiguous" in err and f"{line - 1} and {line}" in err
    code, _, _ = run("status", str(damaged), "--game", "3", "--move", "10a")
    assert code == 0


# --- item 8: positions given by their ID ---------------------------------------------------


@pytest.mark.parametrize("game, move", [(1, "1"), (2, "5"), (2, "6"), (3, "9"), (4, "3")])
def test_pips_and_status_of_an_id_agree_with_the_file(game: int, move: str) -> None:
    (moment,) = json_lines("status", str(EXAMPLE), "--game", str(game), "--move", move,
                           "--json")
    for text in (f"{moment['position_id']}:{moment['match_id']}", moment["xgid"]):
        (status,) = json_lines("status", text, "--json")
        assert status["id"] == text and status["file"] is None
        for key in ("match_length", "score", "cube", "on_roll", "pips", "position_id",
                    "match_id", "xgid", "crawford"):
            assert status[key] == moment[key], (text, key)
        (pips,) = json_lines("pips", text, "--json")
        assert pips["pips"] == moment["pips"]


def test_pips_of_a_bare_position_id_is_from_the_player_on_roll() -> None:
    (moment,) = json_lines("status", str(EXAMPLE), "--game", "1", "--move", "2", "--json")
    mover = moment["on_roll"]
    (pips,) = json_lines("pips", moment["position_id"], "--json")
    assert pips["pips"] == [moment["pips"][mover], moment["pips"][1 - mover]]
    code, out, _ = run("pips", moment["position_id"])
    assert code == 0 and f"player on roll {pips['pips'][0]}, opponent {pips['pips'][1]}" in out


@pytest.mark.parametrize("text, reason", [
    ("4HPwATDgc/ABM", "13 characters; a Position ID has 14"),
    ("4HPwATDgc/ABMA:cAlvAAAAAAA", "11 characters; a Match ID has 12"),
    ("4HPwATDgc/AB-A", "'-' is not a Base64 character"),
    ("+/////////////", "at most 15 are allowed"),
])
def test_a_mistyped_id_says_why(text: str, reason: str) -> None:
    for args in (("pips", text), ("status", text), ("show", text), ("plays", text, "52")):
        code, out, err = run(*args)
        assert code == 2 and out == "", args
        assert err.startswith("bgtools: error: ") and err.count("\n") == 1, args
        assert reason in err, (args, err)
    code, out, _ = run("pips", text, "--json")
    (obj,) = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and obj["id"] == text and reason in obj["error"]


def test_a_missing_file_is_still_a_missing_file() -> None:
    code, _, err = run("pips", "nosuch.mat")
    assert code == 2 and err == "bgtools: error: nosuch.mat: no such file or directory\n"


def test_game_and_move_do_not_apply_to_an_id() -> None:
    code, _, err = run("status", "4HPwATDgc/ABMA", "--move", "3")
    assert code == 2 and "not to a position ID" in err


# --- items 10 and 11: wording ----------------------------------------------------------------


def test_status_at_a_pending_double_names_doubler_and_taker() -> None:
    replayed = json_lines("replay", "--jsonl", str(EXAMPLE))
    offers = [o for o in replayed if o["action"] == "double"]
    assert offers
    names = json_lines("score", str(EXAMPLE), "--json")[0]["players"]
    for offer in offers:
        code, out, _ = run("status", str(EXAMPLE), "--game", str(offer["game"]), "--move",
                           str(offer["index"] + 2))
        doubler = offer["player"]
        value = 2 * offer["cube_before"]
        assert code == 0
        assert f"{names[doubler]} doubled to {value}, {names[1 - doubler]} to answer" in out


def test_status_after_the_match_says_who_won_and_the_final_score() -> None:
    (score,) = json_lines("score", str(EXAMPLE), "--json")
    winner, final = score["winner"], score["final_score"]
    code, out, _ = run("status", str(EXAMPLE))
    assert code == 0
    assert (f"{score['players'][winner]} won the match {final[winner]}-{final[1 - winner]}"
            in out)
    assert "nobody (match over)" in out


def test_crawford_is_capitalised_in_text_output() -> None:
    games = json_lines("score", str(EXAMPLE), "--json")[0]["games"]
    crawford = next(g["number"] for g in games if g["crawford"])
    _, during, _ = run("status", str(EXAMPLE), "--game", str(crawford), "--move", "1")
    _, after, _ = run("status", str(EXAMPLE), "--game", str(crawford + 1), "--move", "1")
    _, before, _ = run("status", str(EXAMPLE), "--game", "1", "--move", "1")
    _, table, _ = run("score", str(EXAMPLE))
    assert "Crawford game" in during and "post-Crawford" in after and "pre-Crawford" in before
    for text in (during, after, before, table):
        assert "crawford" not in text  # the JSON values stay lowercase; the text does not


def test_score_puts_the_winners_score_first() -> None:
    for path in (EXAMPLE, SAMPLES / "galaxy_match1486073.txt"):
        (obj,) = json_lines("score", str(path), "--json")
        winner, final = obj["winner"], obj["final_score"]
        _, out, _ = run("score", str(path))
        first = out.splitlines()[0]
        if winner is not None:
            names = obj["players"]
            assert first.endswith(f"{names[winner]} wins {final[winner]}-{final[1 - winner]}")


def test_pips_says_the_lead_once() -> None:
    (obj,) = json_lines("pips", str(EXAMPLE), "--json")
    names = json_lines("score", str(EXAMPLE), "--json")[0]["players"]
    p0, p1 = obj["pips"]
    leader = 0 if p0 < p1 else 1
    _, out, _ = run("pips", str(EXAMPLE))
    assert out.rstrip().endswith(f"{names[0]} {p0}, {names[1]} {p1}; "
                                 f"{names[leader]} leads by {abs(p0 - p1)}")
    said = out.replace(str(EXAMPLE), "")  # the checkout's path may hold the word
    assert "difference" not in said and said.count("lead") == 1


def test_plays_writes_the_roll_high_die_first_and_names_the_pip_sides() -> None:
    code, out, _ = run("plays", "4HPwATDgc/ABMA", "25")
    assert code == 0 and "roll 52" in out and "roll 25" not in out
    assert "167 (on roll), 167 (opponent)" in out and "on roll-opponent" in out


@pytest.mark.parametrize("position, dice", [("4HPwATDgc/ABMA", "52"), ("4HPwATDgc/ABMA", "66"),
                                            ("4HPwATDgc/ABMA", "61"),
                                            ("0HPwBRCD88EAWA", "53")])
def test_plays_are_ordered_by_pips_then_points_not_text(position: str, dice: str) -> None:
    (obj,) = json_lines("plays", position, dice, "--json")
    plays = obj["plays"]
    assert len(plays) > 2
    keys = [(-p["pips_after"][1], p["pips_after"][0]) for p in plays]
    assert keys == sorted(keys)  # hits (the opponent's pips) first, then the mover's pips
    for a, b in itertools.pairwise(plays):
        if a["pips_after"] == b["pips_after"]:
            # Within equal pips, the highest starting point comes first, as a number.
            assert max(s[0] for s in a["steps"]) >= max(s[0] for s in b["steps"])


def test_status_of_a_record_that_stops_after_a_double(tmp_path: Path) -> None:
    """The example cut just after Alice's double in game 2 (Bob's 'Takes' and the rest
    removed): the end of the record is a double waiting for its answer."""
    lines = EXAMPLE.read_text().splitlines(keepends=True)
    offer = next(k for k, line in enumerate(lines) if "Doubles => 2" in line and "Takes" in line)
    cut = tmp_path / "cut.mat"
    cut.write_text("".join(lines[:offer]) + lines[offer].split("Takes")[0].rstrip() + "\n")
    code, out, err = run("status", str(cut))
    # The record is cut short: match-incomplete and last-game-unfinished, as validate says.
    listed = json_lines("validate", "--json", str(cut))[0]["problems"]
    assert sorted(p["rule"] for p in listed) == ["last-game-unfinished", "match-incomplete"]
    assert code == 0 and f"{cut} has 2 problems: bgtools validate {cut} lists them" in err
    assert "Alice doubled to 2, Bob to answer" in out


# --- issue 42, item 10: a file of several matches ------------------------------------------


def test_match_picks_one_match_of_a_file_that_holds_several(tmp_path: Path) -> None:
    # A .mat of two matches one after the other (docs/contract.md): the example, then Galaxy's.
    galaxy = SAMPLES / "galaxy_match1486073.txt"
    both = tmp_path / "two.mat"
    both.write_text(EXAMPLE.read_text() + galaxy.read_text())
    scores = json_lines("score", "--json", str(both))
    assert [(s["match"], s["matches"]) for s in scores] == [(1, 2), (2, 2)]

    def without_file(objs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in obj.items() if k != "file"} for obj in objs]

    for number, alone in ((1, EXAMPLE), (2, galaxy)):
        for args in (["status", "--json"], ["pips", "--json"],
                     ["status", "--json", "--game", "2", "--move", "3"]):
            assert without_file(json_lines(*args, "--match", str(number), str(both))) == \
                without_file(json_lines(*args, str(alone)))
        _, board, _ = run("show", "--ascii", "--match", str(number), str(both))
        assert board == run("show", "--ascii", str(alone))[1]
    # Without --match: the last match, as before.
    assert without_file(json_lines("status", "--json", str(both))) == \
        without_file(json_lines("status", "--json", str(galaxy)))
    for command in ("status", "pips", "show"):
        code, _, err = run(command, "--match", "3", str(both))
        assert code == 2
        assert f"{both}: --match 3 is out of range: the file holds 2 matches" in err
    code, _, err = run("status", "--match", "0", str(both))
    assert code == 2 and "matches are numbered from 1" in err
