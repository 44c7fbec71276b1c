"""A file that starts with a player 1-away (gnubg's saved game) says in its SGF ``RU`` whether
its first game is the Crawford game: the replay takes its word rather than guess (a `.mat`
cannot say, and gets a ``crawford-unknown`` warning for a double there:
tests/replay/test_site_rules)."""

from __future__ import annotations

from bgtools.readers.detect import read_records
from bgtools.replay import profile_for, replay_match
from tests.helpers.paths import FILES

# Game 4 of a gnubg self-play 5-point match: at 1-4, after the Crawford game, with a double.
MATCH = FILES / "selfplay" / "m5_s1.sgf"


def _saved_game(rules: str) -> bytes:
    text = MATCH.read_text(encoding="utf-8")
    game = "(;FF[4]" + text.split("(;FF[4]")[4]
    assert "MI[length:5][game:3][ws:1][bs:4]" in game and "RU[Crawford]" in game
    assert "[double]" in game
    replaced = game.replace("RU[Crawford]", f"RU[{rules}]")
    return replaced.encode("utf-8")


def _problems(data: bytes) -> list[tuple[str, str]]:
    (record,) = read_records(data, "m.sgf").records
    replay = replay_match(record, profile_for(record))
    # The match goes on after the saved game (match-incomplete is true and beside the point).
    return [(p.rule, p.severity.value) for p in replay.problems if p.rule != "match-incomplete"]


def test_a_saved_post_crawford_game_is_read_as_the_file_says() -> None:
    assert _problems(_saved_game("Crawford")) == []


def test_a_saved_crawford_game_with_a_double_is_a_crawford_double() -> None:
    assert ("crawford-double", "error") in _problems(_saved_game("Crawford:CrawfordGame"))

