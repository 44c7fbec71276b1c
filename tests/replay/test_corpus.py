"""Every corpus file gets a verdict, and every accepted play is confirmed by legal_plays.

``GUILTY`` lists every error bgtools reports on the corpus, each checked by hand; the
reason says what is wrong in the file. A change that adds or removes an error fails here.
Without ``../shared/corpus`` the same checks run on its licensed part in
``tests/files/corpus`` (the tables then hold only the files shipped there).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bgtools.readers.inputs import expand_paths
from bgtools.replay import Event
from bgtools.reports.files import analyse_file
from tests.helpers.paths import at_least

pytestmark = pytest.mark.slow  # every file of the corpus

# (file, rule, line): why the file is guilty (checked by hand).
GUILTY: dict[tuple[str, str, int | None], str] = {
    ("fibs/Amirrr-nori-2009Feb151603.txt", "resign-value", 132):
        "'Wins 100 points' with the cube at 2 in a 5-point match: no result is worth 100",
    ("fibs/MONSTER-nori-2009Apr112157.txt", "resign-value", 76):
        "'Wins 16 points' after a roll with the cube at 2 in a 7-point match (worth 2, 4 or 6)",
    ("fibs/nicksbar-nori-2009Jan302316.txt", "empty-play", 36):
        "15 rolled with nothing played while 2/1 2/off and others are legal",
    ("fibs/nicksbar-nori-2009Jan302316.txt", "empty-play", 140):
        "64 rolled with nothing played while bearing off: 6/off 4/off is legal",
    ("fibs/nicksbar-nori-2009Jan302316.txt", "empty-play", 141):
        "46 rolled with nothing played while bearing off",
    ("fibs/nicksbar-nori-2009Jan302316.txt", "empty-play", 142):
        "25 rolled with nothing played while bearing off",
    ("fibs/nicksbar-nori-2009Jan302316.txt", "empty-play", 143):
        "65 rolled with nothing played while bearing off",
    ("synthetic/5nqfGw9bWG3deTaU.mat", "dice-mismatch", 25):
        "fixture: 13 played as 14/10 13/12 (a 4 and a 1)",
    ("synthetic/BgMatchFormat_abandoned_money.mat", "score-mismatch", 11):
        "fixture: game 2 starts 0-0 after game 1 was won (SOURCES.md flags score-mismatch)",
    ("synthetic/BgMatchFormat_money_session.mat", "score-mismatch", 11):
        "fixture: game 2 starts 0-0 after game 1 was won (SOURCES.md flags score-mismatch)",
    ("synthetic/BgMatchFormat_cube_take.mat", "bearoff-not-home", 10):
        "fixture: 6/0 5/0 from the starting position",
    ("synthetic/BgMatchFormat_dance.mat", "empty-play", 7):
        "fixture: a 'dance' from the starting position, where 52 can be played",
    ("synthetic/BgMatchFormat_dance.mat", "dice-mismatch", 8):
        "fixture: 21 played as 24/23 6/5, two 1s",
    ("synthetic/BgMatchFormat_doubles_hit_bearoff.mat", "opening-double", 7):
        "fixture: the game opens with 44",
    ("synthetic/BgMatchFormat_doubles_hit_bearoff.mat", "no-checker", 8):
        "fixture: bar/23 although nothing was hit",
    # Binary records have no lines (game 1, move 20): the same play as the .mat twin's.
    ("xg-binary/5nqfGw9bWG3deTaU.xg", "dice-mismatch", None):
        "fixture: 13 played as 14/10 13/12 (XG flags the play invalid too)",
    ("bgblitz/5nqfGw9bWG3deTaU.bgf", "dice-mismatch", None):
        "fixture: 13 played as 14/10 13/12",
}
UNREADABLE = ["gnubg/match1486073_analyzed.txt", "xg-binary/xgdatatools_example.xg"]
"""gnubg's analysis text export (not a .mat); xgdatatools' example.xg, a stub archive whose
temp.xg is 578 bytes of placeholder text, not records."""


# (file, rule, line): a new real file (issue 11) not yet read right, with the case
# number. Never a true defect (those go to GUILTY). Empty: every case of the issue is read.
PENDING: dict[tuple[str, str, int | None], int] = {}


def _corpus_results(corpus: Path) -> list[tuple[str, object]]:
    out = []
    for display, path, error in expand_paths([str(corpus)]):
        if display.endswith(".sgf"):
            continue
        moves: list[Event] = []
        result = analyse_file(display, path, error, on_event=moves.append)
        out.append((str(Path(display).relative_to(corpus)), (result, moves)))
    return out


@pytest.fixture(scope="module")
def results(corpus: Path) -> list[tuple[str, object]]:
    return _corpus_results(corpus)


def _present(corpus: Path, names: list[str]) -> list[str]:
    """The files of ``names`` that the corpus in use holds (all of them in the shared one)."""
    return [name for name in names if (corpus / name).exists()]


def _guilty(corpus: Path) -> set[tuple[str, str, int | None]]:
    return {key for key in GUILTY if (corpus / key[0]).exists()}


def test_every_error_is_in_the_hand_checked_table(results: list[tuple[str, object]],
                                                  corpus: Path) -> None:
    found: set[tuple[str, str, int | None]] = set()
    for name, (result, _) in results:  # type: ignore[misc]
        for problem in result.problems:
            if problem.severity.value == "error":
                found.add((name, problem.rule, problem.line))
    assert found - set(PENDING) == _guilty(corpus)
    # A pending entry that is already read right must leave the table.
    assert set(PENDING) <= found, sorted(set(PENDING) - found)
    assert not set(PENDING) & set(GUILTY)


def test_warnings_are_worth_reading(results: list[tuple[str, object]]) -> None:
    """No noise: ``match-incomplete`` only where a match really stops before its end."""
    incomplete = sorted(name for name, (result, _) in results  # type: ignore[misc]
                        for p in result.problems if p.rule == "match-incomplete")
    # FIBS logs end where the session's log ends (py199-nori ...1407 stops at 6-3 and
    # ...1420 starts there); the fixtures are written to stop early.
    assert all(name.startswith(("synthetic/BgMatchFormat_", "fibs/")) for name in incomplete), \
        incomplete


def test_every_mat_file_is_read(results: list[tuple[str, object]], corpus: Path) -> None:
    unreadable = [name for name, (result, _) in results if result.error]  # type: ignore[misc]
    assert unreadable == _present(corpus, UNREADABLE)
    assert len(results) >= at_least(corpus, 200, 20)


def test_every_accepted_play_is_legal_by_legal_plays(results: list[tuple[str, object]],
                                                     corpus: Path) -> None:
    checked = 0
    for name, (result, events) in results:  # type: ignore[misc]
        if result.error:
            continue
        bad_lines = {p.line for p in result.problems if p.severity.value == "error"}
        for event in events:
            if event.action != "move" or event.play is None or event.line in bad_lines:
                continue
            if event.position_after is None or event.dice is None:
                continue
            if not event.play.steps:
                continue
            legal = event.position_before.legal_results(*event.dice)
            assert event.position_after in legal, (name, event.line, str(event.play))
            checked += 1
    assert checked > at_least(corpus, 30_000, 2_000)


def test_valid_and_complete_counts(results: list[tuple[str, object]], corpus: Path) -> None:
    valid = sum(1 for _, (r, _) in results if not r.error and r.valid)  # type: ignore[misc]
    guilty_files = {name for name, _, _ in _guilty(corpus)} | {name for name, _, _ in PENDING}
    assert valid == len(results) - len(_present(corpus, UNREADABLE)) - len(guilty_files)
