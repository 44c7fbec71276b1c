"""Nackgammon is replayed from its own starting position; other variations are refused.

The records are GNU Backgammon's own (tests/files/variations, see tests/files/SOURCES.md):
a nackgammon match as gnubg exports it (``; [Variation "NackGammon"]``) and saves it
(``RU[Crawford:Nackgammon]``), and a hypergammon one. An eXtreme Gammon file states its
variation in the match header (0 backgammon, 1 nackgammon, 2 hypergammon, 3 longgammon).
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bgtools
from bgtools.cli import app
from bgtools.engine.position import Position
from bgtools.errors import UnsupportedFormatError
from bgtools.readers.detect import read_records
from bgtools.readers.xg import read_game_file
from bgtools.replay import Event, profile_for, replay_match
from bgtools.reports.files import analyse_file
from bgtools.write.mat import normalise_match
from bgtools.write.sgf import render_sgf
from tests.helpers.fuzzing import bgf_points, build_bgf, build_xg
from tests.helpers.paths import FILES, SAMPLE_XG
from tests.helpers.replays import replay_keys

DATA = FILES / "variations"
NACK_MAT = DATA / "nackgammon_5pt.mat"
NACK_SGF = DATA / "nackgammon_5pt.sgf"
runner = CliRunner()
# GNU Backgammon's own records of a 3-chequer hypergammon match, verbatim (its SGF without
# the analysis properties; tests/files/SOURCES.md): kept here, not as files, because every
# file under tests/files is a record bgtools reads and these are refused.
HYPERGAMMON = {
    "hypergammon3.mat": (
        b'; [EventDate "2026.12.03"]\n; [Variation "HyperGammon (3)"]\n\n 1 point match\n\n'
        b" Game 1\n gnubg : 0                      root : 0\n"
        b"  1) 32:       Wins 3 points\n\n"),
    "hypergammon3.sgf": (
        b"(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:1][game:0][ws:0][bs:0]"
        b"PW[gnubg]PB[root]DT[2026-12-03]RU[Hypergammon3]RE[W+3R]\n;PL[B]DI[32])\n"),
}


def _replay(data: bytes) -> bgtools.Replay:
    return bgtools.read(data)[0].replay()


@pytest.mark.parametrize("path", [NACK_MAT, NACK_SGF], ids=lambda p: p.suffix)
def test_gnubg_nackgammon_match_replays_from_the_nackgammon_start(path: Path) -> None:
    assert bgtools.read(path)[0].variation == "nackgammon"
    replay = _replay(path.read_bytes())
    assert replay.problems == []
    assert replay.complete and replay.final_score == (0, 6)
    starts = [game.actions[0].before.position for game in replay.games]
    assert len(starts) == 3
    assert all(start == Position.nackgammon_initial() for start in starts)
    nack = Position.nackgammon_initial()
    assert nack.mover == nack.opponent and nack.mover[23] == 2 and nack.mover[13] == 4
    assert sum(nack.mover) == 15 and nack != Position.initial()


def test_the_same_plays_from_backgammon_start_are_errors() -> None:
    text = NACK_MAT.read_text(encoding="utf-8")
    assert '; [Variation "NackGammon"]\n' in text
    stripped = text.replace('; [Variation "NackGammon"]\n', "")
    record = read_records(stripped.encode(), "m").records[0]
    assert record.variation == "backgammon"
    replay = replay_match(record, profile_for(record))
    assert {p.rule for p in replay.problems} & {"no-checker", "blocked-point", "dice-mismatch"}


@pytest.mark.parametrize("target", ["mat", "sgf", "json"])
def test_a_copy_states_nackgammon_and_replays_the_same(target: str, tmp_path: Path) -> None:
    out = tmp_path / f"copy.{target}"
    result = runner.invoke(app, ["convert", str(NACK_MAT), "-o", str(out)])
    assert result.exit_code == 0, result.output
    copy = out.read_text(encoding="utf-8")
    stated = {"mat": '; [Variation "NackGammon"]', "sgf": "Nackgammon", "json": "NackGammon"}
    assert stated[target] in copy
    record = read_records(out.read_bytes(), out.name).records[0]
    assert record.variation == "nackgammon"
    replay = replay_match(record, profile_for(record))
    assert replay.problems == [] and replay.final_score == (0, 6)


def test_the_sgf_writer_names_the_variation_in_ru() -> None:
    record = read_records(NACK_MAT.read_bytes(), "m").records[0]
    text = render_sgf(normalise_match(record))
    assert text.count("RU[Crawford:Nackgammon]") == 3  # each game's root, as gnubg writes


@pytest.mark.parametrize("name, shown", [("hypergammon3.mat", "HyperGammon (3)"),
                                         ("hypergammon3.sgf", "Hypergammon3")])
def test_other_variations_are_refused_not_replayed_as_backgammon(name: str, shown: str,
                                                                 tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_bytes(HYPERGAMMON[name])
    with pytest.raises(UnsupportedFormatError, match="not backgammon"):
        read_records(path.read_bytes(), name)
    result = runner.invoke(app, ["validate", "--json", str(path)])
    assert result.exit_code == 2
    assert shown in result.output and "Traceback" not in result.output


def _xg_with_variation(variation: int) -> bytes:
    body = bytearray(read_game_file(SAMPLE_XG.read_bytes()))
    struct.pack_into("<i", body, 96, variation)  # the match header's variation
    return build_xg(bytes(body))


def test_xg_nackgammon_is_read_with_its_variation() -> None:
    record = read_records(_xg_with_variation(1), "m.xg").records[0]
    assert record.variation == "nackgammon"
    assert record.tag("Variation") == "NackGammon"
    # The sample's games start from backgammon's position, which XG's game header gives:
    # in a nackgammon match that is a set-up, replayed from, and warned about.
    replay = replay_match(record, profile_for(record))
    rules = {p.rule for p in replay.problems}
    assert rules == {"set-position"}
    plain = read_records(SAMPLE_XG.read_bytes(), "m.xg").records[0]
    assert replay.final_score == replay_match(plain, profile_for(plain)).final_score


@pytest.mark.parametrize("variation, shown", [(2, "Hypergammon"), (3, "Longgammon")])
def test_xg_other_variations_are_refused(variation: int, shown: str) -> None:
    with pytest.raises(UnsupportedFormatError, match=shown):
        read_records(_xg_with_variation(variation), "m.xg")


@pytest.mark.parametrize("tag, variation", [
    (None, "backgammon"), ("Backgammon", "backgammon"), ("Standard", "backgammon"),
    ("Standard Backgammon", "backgammon"), ("", "backgammon"),
    ("NackGammon", "nackgammon"), ("nackgammon", "nackgammon"), ("Nack Gammon", "nackgammon"),
    ("HyperGammon (3)", "HyperGammon (3)"), ("LongGammon", "LongGammon"),
    ("Acey-Deucey", "Acey-Deucey"),
])
def test_the_variation_tag_is_read_leniently(tag: str | None, variation: str) -> None:
    text = NACK_MAT.read_text(encoding="utf-8").replace('; [Variation "NackGammon"]\n', "")
    if tag is not None:
        text = f'; [Variation "{tag}"]\n' + text
    data = text.encode()
    if variation in ("backgammon", "nackgammon"):
        assert read_records(data, "m").records[0].variation == variation
    else:
        with pytest.raises(UnsupportedFormatError, match="not backgammon"):
            read_records(data, "m")


def _bgblitz_document(path: Path, start: Position) -> dict[str, object]:
    """The match of ``path`` as BGBlitz's JSON document: every game from ``start``, each
    roll's steps as its ``from``/``to`` (the mover's numbering, 0 off), cube actions coded
    by ``red`` with ``green`` 7, a dance as code 5 with its dice."""
    events: list[Event] = []
    result = analyse_file(str(path), path, on_event=events.append)
    replay, = result.replays
    record = bgtools.read(path)[0]
    games: list[dict[str, object]] = []
    score = [0, 0]
    codes = {"double": 1, "take": 2, "drop": 3}
    for number, summary in enumerate(replay.games, start=1):
        moves: list[dict[str, object]] = []
        for event in (e for e in events if e.game == number):
            side = -1 if event.player == 0 else 1
            if event.action == "move" and event.dice is not None:
                steps = event.play.steps if event.play is not None else ()
                if steps:
                    moves.append({"player": side, "red": event.dice[0],
                                  "green": event.dice[1], "from": [s for s, _ in steps],
                                  "to": [max(d, 0) for _, d in steps]})
                else:
                    moves.append({"player": side, "red": 5, "green": 7,
                                  "from": [event.dice[0]], "to": [event.dice[1]]})
            elif event.action in codes:
                moves.append({"player": side, "red": codes[event.action], "green": 7,
                              "from": [], "to": []})
        games.append({"scoreGreen": score[0], "scoreRed": score[1], "isCrawford": False,
                      "initial": {"points": bgf_points(start.mover, start.opponent),
                                  "cube": 1, "cubeOwner": 0},
                      "moves": moves, "wonPoints": summary.points,
                      "wasResignation": False})
        assert summary.winner is not None
        score[summary.winner] += summary.points
    return {"matchlen": record.match_length, "nameGreen": record.players[0],
            "nameRed": record.players[1], "useCrawford": True, "useJacoby": False,
            "useBeaver": False, "useCube": True, "finalGreen": score[0],
            "finalRed": score[1], "games": games}


def test_a_bgblitz_match_from_the_nackgammon_start_is_nackgammon(tmp_path: Path) -> None:
    """BGBlitz writes each game's starting position (``initial.points``): when every game
    starts from nackgammon's, the match is nackgammon (no set-ups, no ``set-position``
    warnings) and replays exactly as gnubg's own record of it; one game from another
    start keeps the set-ups."""
    document = _bgblitz_document(NACK_MAT, Position.nackgammon_initial())
    copy = tmp_path / "nack.bgf"
    copy.write_bytes(build_bgf(json.dumps(document).encode(), smile=False))
    match = bgtools.read(copy)[0]
    assert match.variation == "nackgammon"
    assert replay_keys(copy) == replay_keys(NACK_MAT)
    replay = match.replay()
    assert replay.problems == [] and replay.final_score == (0, 6)
    games = document["games"]
    assert isinstance(games, list)
    standard = Position.initial()
    games[0]["initial"]["points"] = bgf_points(standard.mover, standard.opponent)
    mixed = tmp_path / "mixed.bgf"
    mixed.write_bytes(build_bgf(json.dumps(document).encode(), smile=False))
    assert bgtools.read(mixed)[0].variation == "backgammon"
    problems = [(p.rule, p.game) for p in bgtools.read(mixed)[0].replay().problems
                if p.severity == "warning"]
    assert problems == [("set-position", 2), ("set-position", 3)]
