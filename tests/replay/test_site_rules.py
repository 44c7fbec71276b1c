"""Site dialects and house rules: each reading on the real file that shows it (tests/files/sites,
copied from the corpus), and each profile rule on small written records where no real file
exists. A dialect reading must never hide a real defect: every test of a reading has a twin
where the same cell cannot mean what the dialect says, and is still an error."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.readers.detect import load_file
from bgtools.readers.mat import parse_mat
from bgtools.record import MatchRecord
from bgtools.replay import (
    PROFILES,
    Event,
    MatchReplay,
    is_money_session,
    profile_for,
    replay_match,
    site_profile_name,
)
from tests.helpers.paths import FILES, at_least

SITES = FILES / "sites"
SELFPLAY = FILES / "selfplay"


def _record(text: str) -> MatchRecord:
    (record,) = parse_mat(text)
    return record


def _replay(text: str, rules: str = "auto") -> MatchReplay:
    record = _record(text)
    return replay_match(record, profile_for(record, rules))


def _file(name: str, rules: str = "auto", events: list[Event] | None = None) -> MatchReplay:
    (record,) = load_file(SITES / name).records
    return replay_match(record, profile_for(record, rules),
                        on_event=events.append if events is not None else None)


def _problems(replay: MatchReplay) -> list[tuple[str, int | None]]:
    return [(p.rule, p.line) for p in replay.problems]


def _errors(replay: MatchReplay) -> list[str]:
    return [p.rule for p in replay.problems if p.severity.value == "error"]


# --- Backgammon Galaxy ------------------------------------------------------------------------


def test_galaxy_flush_losses_row_is_the_loser_named_by_the_next_wins() -> None:
    events: list[Event] = []
    replay = _file("match1100068.txt", events=events)
    assert replay.profile.name == "galaxy"
    assert _problems(replay) == []
    assert replay.final_score == (3, 0) and replay.winner == 0 and replay.complete
    resign = [e for e in events if e.action == "resign"]
    assert [(e.game, e.player) for e in resign] == [(2, 1)]  # bebeto resigned


def test_galaxy_losses_cell_in_a_column_keeps_its_column() -> None:
    text = (SITES / "match1100068.txt").read_text(encoding="utf-8")
    # The same cell on a numbered row in the left column is lasse's: lasse cannot both
    # lose and be credited with the win.
    moved = text.replace(" Losses 1 point\n", " 32)  Losses 1 point\n")
    assert moved != text
    assert "wins-mismatch" in _errors(_replay(moved))


def test_galaxy_match_resignation_gives_the_points_needed() -> None:
    replay = _file("match1988690.txt")
    assert _problems(replay) == []
    assert replay.final_score == (2, 5) and replay.winner == 1
    assert replay.games[-1].points == 4 and replay.games[-1].cube == 1
    # The rules of backgammon alone do not allow it.
    assert "resign-value" in _errors(_file("match1988690.txt", rules="standard"))


def test_galaxy_one_game_session_is_money_play() -> None:
    (record,) = load_file(SITES / "match8239468.txt").records
    assert record.match_length == 16 and is_money_session(record)
    replay = replay_match(record, profile_for(record))
    assert replay.match_length == 0
    assert _problems(replay) == []
    assert replay.final_score == (0, 1) and replay.complete
    assert replay.games[-1].result == "gammon" and replay.games[-1].points == 1
    # Read as a 16-point match it is a false error and a noise warning.
    strict = [p.rule for p in replay_match(record, profile_for(record, "standard")).problems]
    assert "wins-mismatch" in strict and "match-incomplete" in strict


def test_a_session_is_one_game_under_an_even_length() -> None:
    text = (SITES / "match8239468.txt").read_text(encoding="utf-8")
    assert not is_money_session(_record(text.replace("16 point match", "7 point match")))
    assert not is_money_session(_record(text.replace("16 point match", "2 point match")))
    second = text[text.index(" Game 1"):].replace(" Game 1", " Game 2")
    assert not is_money_session(_record(text + "\n" + second))


def _elo_score(record: MatchRecord) -> tuple[int, ...]:
    """Galaxy's final score as its header states it (``Player N Elo "S,00/0"``)."""
    return tuple(int(str(record.tag(f"Player {n} Elo")).split(",")[0]) for n in (1, 2))


def test_galaxy_session_credits_at_most_its_nominal_length() -> None:
    # A backgammon at cube 16 (48) in a session headed '16 point match': the site credits
    # 16 and writes 'and the match'; its header's Elo score is the oracle.
    (record,) = load_file(SITES / "galaxy_session16_capped.txt").records
    assert is_money_session(record)
    replay = replay_match(record, profile_for(record))
    assert _problems(replay) == [] and replay.complete
    game = replay.games[-1]
    assert (game.winner, game.result, game.cube, game.points) == (0, "backgammon", 16, 16)
    assert replay.final_score == _elo_score(record) == (16, 0)


@pytest.mark.parametrize("old, new", [
    ("Wins 16 point and the match", "Wins 20 point and the match"),  # not the length
    ("16 point match", "15 point match"),  # a real match: 15 points were needed
])
def test_a_session_cap_is_only_the_nominal_length(old: str, new: str) -> None:
    text = (SITES / "galaxy_session16_capped.txt").read_text(encoding="utf-8")
    assert old in text
    assert _errors(_replay(text.replace(old, new))) == ["wins-mismatch"]


def test_a_session_cap_where_the_game_is_worth_less_is_an_error() -> None:
    # match8239468: an uncubed gammon worth 1 in a 16-point session; no cap applies.
    text = (SITES / "match8239468.txt").read_text(encoding="utf-8")
    capped = text.replace("Wins 1 point\n", "Wins 16 point and the match\n")
    assert capped != text
    assert _errors(_replay(capped)) == ["wins-mismatch"]


@pytest.mark.slow
def test_galaxy_header_elo_equals_our_final_score(corpus: Path) -> None:
    """Galaxy's `Player N Elo "S,00/0"` is the site's final score, capped at the length."""
    checked = 0
    for path in sorted((corpus / "galaxy").glob("*.txt")):
        (record,) = load_file(path).records
        elo = [record.tag(f"Player {n} Elo") for n in (1, 2)]
        if None in elo:
            continue
        site = _elo_score(record)
        replay = replay_match(record, profile_for(record))
        assert replay.valid, path
        length = replay.match_length
        ours = tuple(min(s, length) if length else s for s in replay.final_score)
        assert ours == site, path
        checked += 1
    assert checked >= at_least(corpus, 45, 4)


# --- Backgammon Studio ------------------------------------------------------------------------

_HEAD = """; [Site "Backgammon Studio"]

 {length} point match

 Game 1
 Alice : {a}                            Bob : {b}
"""


def _studio(rows: str, length: int = 3, a: int = 0, b: int = 0, site: str = "") -> str:
    head = _HEAD.format(length=length, a=a, b=b)
    if site:
        head = head.replace("Backgammon Studio", site)
    return head + rows


def test_studio_concedes_after_a_roll() -> None:
    ok = _studio("  1) 31: 8/5 6/5                       62: Concedes\n"
                 "  2)  Wins 1 point\n")
    replay = _replay(ok)
    assert _problems(replay) == [("match-incomplete", 5)]
    assert replay.games[0].ended_by == "resign" and replay.games[0].winner == 0
    # The roller who conceded cannot be credited with the game.
    wrong = _studio("  1) 31: 8/5 6/5                       62: Concedes\n"
                    "  2)                                    Wins 1 point\n")
    assert _errors(_replay(wrong)) == ["wins-mismatch"]


def test_studio_resignation_before_rolling_with_dice_00() -> None:
    ok = _studio("  1) 31: 8/5 6/5                       00: ????\n"
                 "  2)  Wins 1 point\n")
    replay = _replay(ok)
    assert _errors(replay) == []
    assert replay.games[0].winner == 0 and replay.games[0].ended_by == "resign"
    wrong = _studio("  1) 31: 8/5 6/5                       00: ????\n"
                    "  2)                                    Wins 1 point\n")
    assert _errors(_replay(wrong)) == ["wins-mismatch"]
    # 00 is no roll: with a play it is still unreadable.
    assert "syntax" in _errors(_replay(_studio("  1) 31: 8/5 6/5       00: 24/23\n")))


def test_studio_forfeit_mark_on_the_real_file() -> None:
    replay = _file("Minchy_-_Llabba_13pt_2023_02_24_19_44_27.txt")
    assert replay.profile.name == "studio"
    assert _problems(replay) == [("forfeit", 220)]
    assert replay.valid and replay.complete and replay.winner == 1
    assert replay.final_score[1] >= 13
    strict = _file("Minchy_-_Llabba_13pt_2023_02_24_19_44_27.txt", rules="standard")
    assert _errors(strict) == ["resign-value"]


def test_studio_forfeit_is_exactly_1004_times_the_cube() -> None:
    rows = "  1) 31: 8/5 6/5                       62: ????\n  2)  Wins {n} point\n"
    forfeit = _replay(_studio(rows.format(n=1004)))
    assert [p.rule for p in forfeit.problems] == ["forfeit"]
    assert forfeit.final_score == (3, 0) and forfeit.complete
    assert _errors(_replay(_studio(rows.format(n=1005)))) == ["resign-value"]
    assert _errors(_replay(_studio(rows.format(n=1004)), rules="standard")) == ["resign-value"]


# --- a file that starts in the middle of a match ------------------------------------------------

def test_double_in_a_first_game_at_one_away_is_a_warning() -> None:
    rows = ("  1) 31: 8/5 6/5                        Doubles => 2\n"
            "  2)  Takes                             62: 24/18 13/11\n"
            "  3)  Wins 2 points and the match\n")
    text = _studio(rows, length=7, a=6, b=5).replace("Backgammon Studio", "FIBS")
    replay = _replay(text)
    assert [p.rule for p in replay.problems] == ["crawford-unknown"]
    assert replay.valid and replay.final_score == (8, 5)
    assert replay.games[0].crawford is False and replay.games[0].post_crawford is True
    # A later game at one-away is the Crawford game: there a double is an error.
    head, _, _ = text.partition(" Game 1")
    earlier = (" Game 1\n Alice : 4                            Bob : 5\n"
               "  1) 31: 8/5 6/5                        Doubles => 2\n"
               "  2)  Takes                             62: 24/18 13/11\n"
               "  3)  Wins 2 points\n\n")
    later = text[text.index(" Game 1"):].replace(" Game 1", " Game 2")
    assert "crawford-double" in _errors(_replay(head + earlier + later))


# --- the match's last Wins ------------------------------------------------------------------

def _last_wins(name: str, written: str, n: int) -> str:
    text = (SELFPLAY / name).read_text(encoding="utf-8")
    head, sep, tail = text.rpartition(written)
    assert sep
    return head + f"Wins {n} point{'s' if n > 1 else ''}" + tail


def test_match_winning_wins_accepts_the_value_or_the_points_needed() -> None:
    # m7_s8: at 3-5 of 7 player 1 bears off a backgammon with the cube at 2 (worth 6).
    assert _replay(_last_wins("m7_s8.mat", "Wins 6 points", 6)).valid  # gnubg's own
    assert _replay(_last_wins("m7_s8.mat", "Wins 6 points", 2)).valid  # the points needed


def test_match_winning_wins_of_the_length_is_a_hand_edit() -> None:
    assert _errors(_replay(_last_wins("m7_s8.mat", "Wins 6 points", 7))) == ["wins-mismatch"]
    assert _errors(_replay(_last_wins("m7_s8.mat", "Wins 6 points", 5))) == ["wins-mismatch"]


def test_xg_writes_the_length_after_a_match_ending_resignation() -> None:
    # m5_s1: at 3-4 of 5 a resignation worth 4 (cube 2) ends the match.
    text = _last_wins("m5_s1.mat", "Wins 4 points", 5)
    assert _errors(_replay(text)) == ["resign-value"]
    assert _replay(text, rules="xg").valid
    # eXtreme Gammon's own dialect (capitalised Off) picks that profile by itself.
    xg = text.replace("/0", "/Off")
    (record,) = parse_mat(xg)
    assert profile_for(record).name == "xg"
    assert replay_match(record, profile_for(record)).valid
    # The dialect shows in any game: here only in the first one's entries, as when the last
    # game is resigned before a chequer enters or bears off.
    game_2 = text.index(" Game 2")
    early = text[:game_2].replace(" 25/", " Bar/") + text[game_2:]
    assert "Bar/" in early and "Off" not in early
    (record,) = parse_mat(early)
    assert profile_for(record).name == "xg"
    assert replay_match(record, profile_for(record)).valid


# --- a match forfeited: 'Wins N points and the match', N the points still needed ------------

_FORFEIT_ROWS = (  # OpenGammon's export of a forfeited match: a game with no play at all
    "  1)                \n   Wins {n} point{s}{and_the_match}\n")


def _forfeit(n: int, and_the_match: bool = True, site: str = "OpenGammon") -> str:
    rows = _FORFEIT_ROWS.format(n=n, s="s" if n > 1 else "",
                                and_the_match=" and the match" if and_the_match else "")
    return _studio(rows, length=5, site=site)


def test_a_forfeited_match_gets_the_points_still_needed_with_a_warning() -> None:
    replay = _replay(_forfeit(5))
    assert replay.profile.name == "standard"  # no profile of the site's own
    assert _problems(replay) == [("forfeit", 8)] and replay.valid
    assert replay.complete and replay.winner == 0 and replay.final_score == (5, 0)
    # So mid-game, at any score: at 0-2 of 5, 3 points still needed with the cube at 1 is
    # within a resignation's value (a backgammon), so only 4 or more is a forfeit.
    rows = ("  1) 31: 8/5 6/5                       42: 8/4 6/4\n"
            "  2) 21: 13/11 6/5\n"
            "                                        Wins 5 points and the match\n")
    replay = _replay(_studio(rows, length=5))
    assert [p.rule for p in replay.problems] == ["forfeit"]
    assert replay.winner == 1 and replay.final_score == (0, 5)


def test_only_the_points_still_needed_and_the_match_read_as_a_forfeit() -> None:
    # Without "and the match", or with other points than the winner still needs, the cell is
    # a resignation worth more than a backgammon: still the error it always was.
    assert _errors(_replay(_forfeit(5, and_the_match=False))) == ["resign-value"]
    assert _errors(_replay(_forfeit(4))) == ["resign-value"]
    assert _errors(_replay(_forfeit(6))) == ["resign-value"]
    # A money session has no points still needed.
    money = _forfeit(5).replace(" 5 point match", " 0 point match")
    assert "resign-value" in _errors(_replay(money))


# --- MeGammon and Piece of Cake -------------------------------------------------------------

def _site(site: str, length: int, rows: str) -> str:
    return _studio(rows, length=length, site=site)


def test_megammon_resignation_gives_the_points_needed() -> None:
    rows = "  1) 31: 8/5 6/5                       62: ????\n  2)  Wins {n} point\n"
    ok = _replay(_site("MeGammon", 5, rows.format(n=5)))
    assert ok.profile.name == "megammon"
    assert _problems(ok) == [] and ok.complete and ok.final_score == (5, 0)
    assert _errors(_replay(_site("MeGammon", 5, rows.format(n=1)))) == ["resign-value"]


def test_megammon_length_it_does_not_offer_is_a_warning() -> None:
    rows = "  1) 31: 8/5 6/5                       62: ????\n  2)  Wins 15 point\n"
    assert [p.rule for p in _replay(_site("MeGammon", 15, rows)).problems] == ["match-length"]


def test_pieceofcake_resignation_ends_the_match_at_the_cube() -> None:
    rows = "  1) 31: 8/5 6/5                       62: ????\n  2)  Wins 1 point\n"
    replay = _replay(_site("Piece of Cake", 5, rows))
    assert replay.profile.name == "pieceofcake"
    assert _problems(replay) == []
    assert replay.complete and replay.winner == 0 and replay.final_score == (1, 0)
    # Under the standard rules the match is unfinished.
    assert [p.rule for p in _replay(_site("Piece of Cake", 5, rows), "standard").problems] \
        == ["match-incomplete"]
    # Nothing may follow: the match is over.
    text = _site("Piece of Cake", 5, rows)
    again = text[text.index(" Game 1"):].replace(" Game 1", " Game 2").replace(": 0 ", ": 1 ", 1)
    assert "game-after-match" in _errors(_replay(text + "\n" + again))
    assert [p.rule for p in _replay(_site("Piece of Cake", 9, rows)).problems] \
        == ["match-length"]


# --- choosing the profile --------------------------------------------------------------------

@pytest.mark.parametrize("site,name", [
    ("BackgammonGalaxy", "galaxy"), ("Backgammon Galaxy", "galaxy"),
    ("Backgammon Studio", "studio"), ("MeGammon", "megammon"),
    ("Piece of Cake", "pieceofcake"), ("FIBS", "standard"), ("", "standard"),
])
def test_auto_profile_from_the_site_tag(site: str, name: str) -> None:
    record = _record(_site(site, 3, "  1) 31: 8/5 6/5\n") if site else
                     _studio("  1) 31: 8/5 6/5\n").replace('; [Site "Backgammon Studio"]\n', ""))
    assert site_profile_name(record) == name
    assert profile_for(record).name == name
    assert name in PROFILES


runner = CliRunner()


def test_validate_json_names_the_rules() -> None:
    result = runner.invoke(app, ["validate", "--json", str(SITES / "match1988690.txt")])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["rules"] == "galaxy" and obj["valid"]
    result = runner.invoke(app, ["validate", "--json", "--rules", "standard",
                                 str(SITES / "match1988690.txt")])
    assert result.exit_code == 1 and json.loads(result.stdout)["rules"] == "standard"


@pytest.mark.parametrize("command", [
    ["score", "--json"], ["pips", "--json"], ["status", "--json"], ["show", "--ascii"],
    ["replay", "--jsonl"], ["validate", "--json"],
])
def test_every_replaying_command_takes_rules(command: list[str]) -> None:
    path = str(SITES / "match1988690.txt")
    good = runner.invoke(app, [*command, "--rules", "galaxy", path])
    assert good.exit_code == 0, good.output
    strict = runner.invoke(app, [*command, "--rules", "standard", path])
    assert strict.exit_code == 1, strict.output
    bad = runner.invoke(app, [*command, "--rules", "nosuch", path])
    assert bad.exit_code == 2
    assert re.search(r"unknown rule profile 'nosuch'", bad.output + (bad.stderr or ""))


def test_score_of_a_resigned_galaxy_match_is_final(tmp_path: Path) -> None:
    result = runner.invoke(app, ["score", "--json", str(SITES / "match1988690.txt")])
    obj = json.loads(result.stdout)
    assert obj["final_score"] == [2, 5] and obj["winner"] == 1 and obj["complete"]
    out = tmp_path / "m.mat"
    converted = runner.invoke(app, ["convert", str(SITES / "match1988690.txt"), "-o", str(out)])
    assert converted.exit_code == 0, converted.output
    again = runner.invoke(app, ["score", "--json", str(out)])
    assert json.loads(again.stdout)["final_score"] == [2, 5]


def test_the_rules_option_names_every_profile() -> None:
    """``--rules``'s help lists every profile the replayer knows (a new one is offered)."""
    from typer.models import OptionInfo

    from bgtools.cli.application import RulesOption
    from bgtools.replay.rules import PROFILE_NAMES

    option = next(m for m in RulesOption.__metadata__ if isinstance(m, OptionInfo))
    assert option.help is not None
    for name in PROFILE_NAMES:
        assert name in option.help, name


# --- a converted copy replays under the profile its source was replayed under ----------------

@pytest.mark.parametrize("fmt", ["mat", "sgf", "json"])
def test_a_copy_of_an_xg_dialect_file_keeps_the_xg_profile(tmp_path: Path, fmt: str) -> None:
    # The copy's plays are written in gnubg's way (off, not Off), so the dialect that picked
    # the xg profile is gone: the copy must name it, or its length-written resignation reads
    # back as an error.
    source = tmp_path / "xg.mat"
    source.write_text(_last_wins("m5_s1.mat", "Wins 4 points", 5).replace("/0", "/Off"),
                      encoding="utf-8")
    out = tmp_path / f"copy.{fmt}"
    converted = runner.invoke(app, ["convert", str(source), "-o", str(out)])
    assert converted.exit_code == 0, converted.output
    if fmt != "json":  # JSON keeps the play text as written
        assert "Off" not in out.read_text(encoding="utf-8").replace('"Off"', "")
    (record,) = load_file(out).records
    assert site_profile_name(record) == "xg"
    again = runner.invoke(app, ["validate", "--json", str(out)])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["rules"] == "xg"


@pytest.mark.parametrize("fmt", ["mat", "sgf", "json"])
def test_a_copy_made_under_explicit_rules_states_them(tmp_path: Path, fmt: str) -> None:
    # match1988690 without its Site tag: only --rules galaxy reads its resignation.
    text = (SITES / "match1988690.txt").read_text(encoding="utf-8")
    bare = re.sub(r"^; \[Site [^\n]*\n", "", text, flags=re.MULTILINE)
    assert bare != text
    source = tmp_path / "bare.txt"
    source.write_text(bare, encoding="utf-8")
    assert runner.invoke(app, ["validate", str(source)]).exit_code == 1
    out = tmp_path / f"copy.{fmt}"
    converted = runner.invoke(app, ["convert", "--rules", "galaxy", str(source), "-o", str(out)])
    assert converted.exit_code == 0, converted.output
    again = runner.invoke(app, ["validate", "--json", str(out)])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["rules"] == "galaxy"
    # Converted once more under the standard rules (it is not valid under them: refused).
    assert runner.invoke(app, ["convert", "--rules", "standard", str(out), "-o",
                               str(tmp_path / f"twice.{fmt}")]).exit_code == 1


def test_a_copy_of_a_site_file_needs_no_rules_tag(tmp_path: Path) -> None:
    out = tmp_path / "copy.mat"
    converted = runner.invoke(app, ["convert", str(SITES / "match1988690.txt"), "-o", str(out)])
    assert converted.exit_code == 0, converted.output
    written = out.read_text(encoding="utf-8")
    assert "Galaxy" in written and "[Rules" not in written


@pytest.mark.parametrize("value,name", [
    ("galaxy", "galaxy"), (" Galaxy ", "galaxy"), ("nocube", "nocube"),
    ("nosuch", "standard"), ("auto", "standard"),
])
def test_the_rules_tag_picks_the_profile(value: str, name: str) -> None:
    record = _record(f'; [Rules "{value}"]\n' + _studio("  1) 31: 8/5 6/5\n").replace(
        '; [Site "Backgammon Studio"]\n', ""))
    assert site_profile_name(record) == name
    # It wins over the site: it is what a file converted under --rules says.
    sited = _record(f'; [Rules "{value}"]\n' + _studio("  1) 31: 8/5 6/5\n"))
    assert site_profile_name(sited) == (name if name != "standard" else "studio")


def test_header_names_that_differ_only_by_blanks_are_the_score_lines(tmp_path: Path) -> None:
    # Backgammon Studio writes a name's trailing blank in its header ([Player 2 "Breum "]),
    # which the score line cannot show: the same player, not a second pair of names.
    rows = "  1) 31: 8/5 6/5                       62: ????\n  2)  Wins 1 point\n"
    head = '; [Player 1 "Alice"]\n; [Player 2 "{name}"]\n'
    names = {}
    for name in ("Bob ", " Bob", "Bobby"):
        path = tmp_path / f"m{len(names)}.mat"
        path.write_text(head.format(name=name) + _studio(rows), encoding="utf-8")
        result = runner.invoke(app, ["score", str(path)])
        assert result.exit_code == 0, result.output
        names[name] = "(header: " in result.stdout
    assert names == {"Bob ": False, " Bob": False, "Bobby": True}
