"""Every result object of the library pickles, in both builds, and comes back equal: from
``pickle`` in this process and from a worker process of a ``ProcessPoolExecutor`` (issue 40:
a compiled class's ``__new__`` calls its ``__init__``, so the default pickling failed there
with ``__init__() missing required argument``)."""

from __future__ import annotations

import copy
import pickle
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import bgtools
from tests.helpers.paths import FILES as TEST_FILES
from tests.helpers.paths import REPO

FILES = [
    REPO / "samples" / "example_gnubg.mat",
    REPO / "samples" / "example_gnubg.sgf",
    REPO / "samples" / "galaxy_match1486073.txt",
    TEST_FILES / "money_raccoons.mat",
    TEST_FILES / "corpus" / "xg-binary" / "B4_SrGcsKAQmoTyHlgJCbM.xg",
    TEST_FILES / "corpus" / "bgblitz" / "B4_SrGcsKAQmoTyHlgJCbM.bgf",
]


def result_objects(path: Path) -> list[object]:
    """One object of each kind the library gives for ``path``: the file, a match, its record,
    the replay and its parts (summary, profile, game, action, moment, event, problem)."""
    match_file = bgtools.read(path)
    match = match_file[0]
    replay = match.replay()
    game = replay.games[0]
    action = game.actions[0]
    objects: list[object] = [match_file, match, match.record, match.record.games[0],
                             replay, replay.summary, replay.summary.profile,
                             replay.summary.games[0], replay.events[0], game, action,
                             action.before, action.after, action.event, action.play,
                             game.moments()[-1], replay.problems]
    return objects


def read_and_replay(path: Path) -> tuple[bgtools.MatchFile, bgtools.Replay]:
    """What a worker process gives back: the file read and its first match replayed."""
    match_file = bgtools.read(path)
    return match_file, match_file[0].replay()


def assert_results_pickle(path: Path) -> None:
    """Each of :func:`result_objects` comes back equal from pickle and from a deep copy."""
    for obj in result_objects(path):
        again = pickle.loads(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))
        assert type(again) is type(obj)
        assert again == obj, type(obj).__name__
        assert copy.deepcopy(obj) == obj, type(obj).__name__


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_every_result_object_pickles_and_comes_back_equal(path: Path) -> None:
    assert_results_pickle(path)


def test_a_json_match_pickles(tmp_path: Path) -> None:
    json_file = tmp_path / "match.json"
    bgtools.read(FILES[0])[0].write(json_file)
    assert bgtools.read(json_file).format == "json"
    assert_results_pickle(json_file)


def test_results_come_back_equal_from_a_worker_process() -> None:
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(read_and_replay, FILES))
    for path, (match_file, replay) in zip(FILES, results, strict=True):
        here = bgtools.read(path)
        assert match_file == here
        assert replay == here[0].replay()
        assert replay.final_score == here[0].replay().final_score
        assert [game.result for game in replay.games] == [game.result for game in
                                                           here[0].replay().games]


def test_equality_tells_different_results_apart() -> None:
    one, other = (bgtools.read(FILES[0]), bgtools.read(FILES[3]))
    assert one != other
    assert one[0] != other[0]
    assert one[0].replay() != other[0].replay()
    assert one[0].replay() != one[0].replay("galaxy") or one[0].replay().rules == "galaxy"
    first, second = one[0].replay().games[0].actions[:2]
    assert first != second
