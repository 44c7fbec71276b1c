"""The replayer's shortcuts reach what its general path reaches.

``Game.roll`` keeps the board as two plain sides and, with no listener, takes shortcuts
(``sides_after_plain_play``, ``sides_after_steps``, the memoised resolution without
objects, an unplayable roll written with no moves). With a listener every roll goes the
general way (``finish_play``, ``play_as_written``: Position and Play objects, each problem
worded where it is found). So a replay without a listener must give exactly the replay with
one: the same problems, game summaries (final positions included), score and winner; on
every real file, and on real files with a play, a die or a hit mark changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgtools.errors import BgtoolsError
from bgtools.readers.detect import read_records
from bgtools.replay import Event, MatchReplay, profile_for, replay_match
from tests.helpers.paths import CORPUS_IN_USE, FILES, REPO

_SKIPPED = {"SOURCES.md", "README.md", "LICENSE"}


def _files() -> list[Path]:
    roots = (REPO / "samples", FILES, CORPUS_IN_USE)
    found = {path for root in roots for path in root.rglob("*")
             if path.is_file() and path.name not in _SKIPPED and "__pycache__" not in path.parts}
    return sorted(found)


def _outcome(replay: MatchReplay) -> tuple[object, ...]:
    return (replay.problems, replay.games, replay.final_score, replay.complete, replay.winner,
            replay.rolls)


def _assert_same_replays(data: bytes, name: str) -> int:
    """Replay every record of ``data`` with and without a listener; the rolls replayed."""
    try:
        loaded = read_records(data, name)
    except BgtoolsError:
        return 0
    rolls = 0
    for record in loaded.records:
        profile = profile_for(record)
        quick = replay_match(record, profile)
        events: list[Event] = []
        general = replay_match(record, profile, on_event=events.append)
        assert _outcome(quick) == _outcome(general), name
        rolls += quick.rolls
    return rolls


def test_shortcuts_reach_the_general_replay_on_every_real_file() -> None:
    files = _files()
    assert len(files) >= 20
    rolls = sum(_assert_same_replays(path.read_bytes(), str(path)) for path in files)
    assert rolls > 10_000


_MAT_SAMPLES = sorted(
    path for path in (*(REPO / "samples").glob("*.mat"), *(FILES / "selfplay").rglob("*.mat"))
    if path.is_file())
_EDITS = ["", "*", "/", " ", "1", "2", "3", "5", "6", "0", "off", "bar", "25", "24/", "(2)"]


@pytest.mark.skipif(not _MAT_SAMPLES, reason="no .mat sample")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_shortcuts_reach_the_general_replay_on_edited_files(data: st.DataObject) -> None:
    # One to three characters of the moves (a point, a die, a mark, a separator) changed:
    # illegal plays, wrong hit marks, unplayable and partly played rolls, lost positions.
    path = data.draw(st.sampled_from(_MAT_SAMPLES))
    text = path.read_text("utf-8")
    moves = [i for i, char in enumerate(text) if char in "0123456789/*"
             and text.rfind(")", 0, i) > text.rfind("\n", 0, i)]
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.sampled_from(moves))
        text = text[:at] + data.draw(st.sampled_from(_EDITS)) + text[at + 1:]
        moves = [i for i in moves if i < len(text)]
    _assert_same_replays(text.encode("utf-8"), path.name)
