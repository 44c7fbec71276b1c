"""Differential test of the replayer against GNU Backgammon's own self-play records.

For every cached self-play record (``tests/helpers/selfplay.py``; regenerate with
``python -m tests.helpers.selfplay --regenerate``) bgtools must replay gnubg's ``.mat`` export with
no problem, and every action's Position ID, Match ID, pips and position after must equal
what gnubg's own navigation of the match showed at that moment; results and scores must
equal gnubg's. The test reads cached files only, so gnubg is not needed to run it.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

from bgtools.engine import ids
from bgtools.readers.mat import parse_mat
from bgtools.readers.sgf import parse_sgf
from bgtools.replay import Event, MatchReplay, replay_match
from bgtools.reports.files import event_json
from tests.helpers.selfplay import load_cases

pytestmark = pytest.mark.slow  # the differential comparison with gnubg's own records

CASES = load_cases()
if not CASES:  # pragma: no cover - the cache is committed
    pytest.skip("no cached self-play records (run python -m tests.helpers.selfplay --regenerate)",
                allow_module_level=True)

MATCHES = [c for c in CASES if c[1]["match_length"]]
MONEY = [c for c in CASES if not c[1]["match_length"]]


def _ids(cases: list[tuple[Path, dict[str, Any]]]) -> list[str]:
    return [p.stem for p, _ in cases]


def _replay(path: Path) -> tuple[MatchReplay, list[dict[str, Any]]]:
    """Replay ``path`` (gnubg's ``.mat``, or its ``.sgf`` of the same match) and return the
    replay with the contract's event objects."""
    parse = parse_sgf if path.suffix == ".sgf" else parse_mat
    records = parse(path.read_text(encoding="utf-8"))
    assert len(records) == 1
    truth = dict(CASES).get(path.with_suffix(".mat"))
    if (truth is not None and records[0].match_length == 0 and "jacoby" in truth
            and records[0].tag("Jacoby") is None):
        # A .mat cannot say whether the session played Jacoby: state it as a header tag.
        records[0].tags.append(("Jacoby", "On" if truth["jacoby"] else "Off"))
    events: list[Event] = []
    replay = replay_match(records[0], on_event=events.append)
    return replay, [event_json(path.name, e) for e in events]


_cache: dict[Path, tuple[MatchReplay, list[dict[str, Any]]]] = {}


def replayed(path: Path) -> tuple[MatchReplay, list[dict[str, Any]]]:
    """``_replay`` memoised per file (several tests look at the same replay)."""
    if path not in _cache:
        _cache[path] = _replay(path)
    return _cache[path]


def truth_actions(truth: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """gnubg's actions as ``(game number, action)``, resignations included."""
    return [(gi + 1, a) for gi, g in enumerate(truth["games"]) for a in g["actions"]]


def without_accepts(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Our events but the ``accept`` that follows each ``resign``: gnubg's record holds the
    resignation only (its acceptance ends the game); :func:`test_accept_follows_resign`
    checks the accepts."""
    return [e for e in events if e["action"] != "accept"]


def paired(path: Path, truth: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Our events zipped with gnubg's actions, after checking that they line up."""
    _, events = replayed(path)
    ours_all = without_accepts(events)
    theirs = truth_actions(truth)
    assert len(ours_all) == len(theirs)
    for ours, (game, t) in zip(ours_all, theirs):
        where = f"{path.name}:{ours['line']} game {game}"
        assert (ours["game"], ours["action"], ours["player"]) == (game, t["action"],
                                                                   t["player"]), where
        if t["action"] == "move":
            assert ours["dice"] == t["dice"], where
            assert sorted(map(tuple, ours["steps"])) == sorted(map(tuple, t["move"])), where
    return [(o, t) for o, (_, t) in zip(ours_all, theirs)]


def mask_money(match_id: str, *, score: bool = True, jacoby: bool = True) -> str:
    """A Match ID with the score fields (bits 36-65) and/or the no-Jacoby bit 66 cleared."""
    key = int.from_bytes(base64.b64decode(match_id + "=="), "little")
    if score:
        key &= ~(((1 << 30) - 1) << 36)
    if jacoby:
        key &= ~(1 << 66)
    return base64.b64encode(key.to_bytes(9, "little")).decode()


@pytest.mark.parametrize("path,truth", CASES, ids=_ids(CASES))
def test_replays_without_problems(path: Path, truth: dict[str, Any]) -> None:
    """gnubg's own export is valid, complete and draws no warning at all."""
    replay, _ = replayed(path)
    assert [(p.rule, p.line, p.message) for p in replay.problems] == []
    assert replay.valid
    assert replay.complete


@pytest.mark.parametrize("path,truth", CASES, ids=_ids(CASES))
def test_results_equal_gnubg(path: Path, truth: dict[str, Any]) -> None:
    """Per game: score before, Crawford, winner, points, resignation; the final score."""
    replay, _ = replayed(path)
    assert list(replay.final_score) == truth["final_score"]
    assert len(replay.games) == len(truth["games"])
    for ours, theirs in zip(replay.games, truth["games"]):
        where = f"{path.name} game {ours.number}"
        assert list(ours.score_before) == theirs["score_before"], where
        assert ours.crawford == theirs["crawford"], where
        assert ours.winner == theirs["winner"], where
        assert ours.points == theirs["points"], where
        assert (ours.ended_by == "resign") == theirs["resigned"], where
        resign = [a for a in theirs["actions"] if a["action"] == "resign"]
        if resign:
            level = {1: "single", 2: "gammon", 3: "backgammon"}[resign[-1]["level"]]
            assert ours.result == level, where
    if truth["match_length"]:
        winner = 0 if truth["final_score"][0] > truth["final_score"][1] else 1
        assert replay.winner == winner


@pytest.mark.parametrize("path,truth", CASES, ids=_ids(CASES))
def test_position_ids_and_pips_equal_gnubg(path: Path, truth: dict[str, Any]) -> None:
    """Position ID before every action, after every play, and the pips before."""
    for ours, theirs in paired(path, truth):
        where = f"{path.name}:{ours['line']} {ours['action']}"
        assert ours["position_id_before"] == theirs["position_id"], where
        assert ours["pips_before"] == theirs["pips"], where
        if "position_id_after" in theirs:
            assert ours["position_id_after"] == theirs["position_id_after"], where


@pytest.mark.parametrize("path,truth", MATCHES, ids=_ids(MATCHES))
def test_match_ids_equal_gnubg(path: Path, truth: dict[str, Any]) -> None:
    """Match play: the Match ID before every action is bit-exact (dice before a play)."""
    for ours, theirs in paired(path, truth):
        where = f"{path.name}:{ours['line']} {ours['action']}"
        assert ours["match_id_before"] == theirs["match_id"], where


@pytest.mark.parametrize("path,truth", MONEY, ids=_ids(MONEY))
def test_money_match_ids_equal_gnubg_but_score_and_jacoby(path: Path,
                                                          truth: dict[str, Any]) -> None:
    """Money play: every Match ID field but the scores and the no-Jacoby bit agrees."""
    for ours, theirs in paired(path, truth):
        where = f"{path.name}:{ours['line']} {ours['action']}"
        assert mask_money(ours["match_id_before"]) == mask_money(theirs["match_id"]), where


def match_id_score(match_id: str) -> list[int]:
    """The score fields of a Match ID (bits 36-50 and 51-65): ``[player 0, player 1]``."""
    key = int.from_bytes(base64.b64decode(match_id + "=="), "little")
    return [(key >> 36) & 0x7FFF, (key >> 51) & 0x7FFF]


@pytest.mark.parametrize("path,truth", MONEY, ids=_ids(MONEY))
def test_money_match_id_scores(path: Path, truth: dict[str, Any]) -> None:
    """Money play: the Match ID carries the session's running score, as gnubg's does while
    it plays (checked live: after X wins 2 in game 1, game 2's Match ID holds 2-0). The
    truth files' IDs were read by stepping through the saved session, where gnubg shows
    0-0 in every game, so the score is compared with each game's running score instead."""
    _, events = replayed(path)
    games = truth["games"]
    assert any(g["score_before"] != [0, 0] for g in games)
    for ours in without_accepts(events):
        where = f"{path.name}:{ours['line']} {ours['action']}"
        expected = games[ours["game"] - 1]["score_before"]
        assert match_id_score(ours["match_id_before"]) == expected, where
    for ours, theirs in paired(path, truth):
        where = f"{path.name}:{ours['line']} {ours['action']}"
        assert (mask_money(ours["match_id_before"])
                == mask_money(theirs["match_id"])), where


JACOBY = [c for c in MONEY if c[1]["jacoby"]]
NO_JACOBY = [c for c in MONEY if not c[1]["jacoby"]]


@pytest.mark.parametrize("path,truth", JACOBY, ids=_ids(JACOBY))
def test_money_jacoby_bit_default(path: Path, truth: dict[str, Any]) -> None:
    """Money play with gnubg's default Jacoby rule: bit 66 of the Match ID."""
    for ours, theirs in paired(path, truth):
        assert (mask_money(ours["match_id_before"], jacoby=False)[-1]
                == mask_money(theirs["match_id"], jacoby=False)[-1])


@pytest.mark.parametrize("path,truth", NO_JACOBY, ids=_ids(NO_JACOBY))
def test_money_jacoby_bit_off(path: Path, truth: dict[str, Any]) -> None:
    """Money play with Jacoby off: bit 66 agrees."""
    for ours, theirs in paired(path, truth):
        assert (mask_money(ours["match_id_before"], jacoby=False)[-1]
                == mask_money(theirs["match_id"], jacoby=False)[-1])


@pytest.mark.parametrize("path,truth", CASES, ids=_ids(CASES))
def test_accept_follows_resign(path: Path, truth: dict[str, Any]) -> None:
    """Every resignation is a ``resign`` by the loser, then an ``accept`` by the winner from
    the same position: gnubg's Match ID with the winner to act and the level offered."""
    _, events = replayed(path)
    resigns = [(gi + 1, a) for gi, g in enumerate(truth["games"]) for a in g["actions"]
               if a["action"] == "resign"]
    pairs = [(e, events[i + 1] if i + 1 < len(events) else None)
             for i, e in enumerate(events) if e["action"] == "resign"]
    assert len(pairs) == len(resigns) == sum(e["action"] == "accept" for e in events)
    for (resign, accept), (game, theirs) in zip(pairs, resigns):
        where = f"{path.name}:{resign['line']}"
        assert accept is not None and accept["action"] == "accept", where
        assert (accept["game"], accept["index"]) == (game, resign["index"] + 1), where
        assert accept["player"] == 1 - resign["player"], where
        assert accept["position_id_before"] == resign["position_id_before"], where
        assert accept["pips_before"] == resign["pips_before"], where
        state = ids.decode_match_id(theirs["match_id"])
        offered = state.with_(turn=1 - theirs["player"], resignation=theirs["level"])
        expected = ids.encode_match_id(offered)
        if truth["match_length"]:
            assert accept["match_id_before"] == expected, where
        else:
            assert mask_money(accept["match_id_before"]) == mask_money(expected), where


@pytest.mark.parametrize("path,truth", CASES, ids=_ids(CASES))
def test_sgf_events_equal_the_mat_events(path: Path, truth: dict[str, Any]) -> None:
    """gnubg's SGF of the same match gives the same events, resignations included (SGF
    ``RE[..R]``, a ``DI`` node before a resignation after rolling)."""
    sgf = path.with_suffix(".sgf")
    if not sgf.is_file():  # pragma: no cover - the cache holds both
        pytest.skip("no SGF in the cache")
    _, from_mat = replayed(path)
    _, from_sgf = replayed(sgf)
    drop = ("line", "file")
    assert ([{k: v for k, v in e.items() if k not in drop} for e in from_sgf]
            == [{k: v for k, v in e.items() if k not in drop} for e in from_mat])


def test_cache_covers_the_interesting_cases() -> None:
    """The cached records hold cube actions, Crawford games, resignations, money play."""
    kinds = {a["action"] for _, t in CASES for g in t["games"] for a in g["actions"]}
    assert {"move", "double", "take", "drop", "resign"} <= kinds
    assert any(g["crawford"] for _, t in CASES for g in t["games"])
    assert MONEY and MATCHES
