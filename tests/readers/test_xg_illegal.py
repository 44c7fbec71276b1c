"""eXtreme Gammon files beyond the plain archive: a bare zlib payload, the illegal plays XG
was given (flagged invalid, their checker moves short of the board XG stores), and boards
set up by hand (a game that starts from a set position, a position edited at a play).

``tests/files/xg/hQ8sVn2LbTdF4wRm`` and ``rK7pXm4TqLb9NzWd`` (GammonView's samples, MIT) hold
the same match as ``.xg`` and ``.mat``: each ``.xg`` is a bare zlib stream of its records
(no ZLB archive) and holds illegal plays: ``14/8 15/10 6/8`` off a 6-5 (a checker moved
backwards, which XG's move list leaves out), ``13/9 13/7`` off a 6-3 and ``13/3 7/4`` off a
3-3. Both forms must replay alike and report the same errors.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

from bgtools.errors import UnsupportedFormatError
from bgtools.readers.detect import read_records
from bgtools.readers.xg import RECORD_SIZE, read_game_file
from bgtools.reports.files import analyse_file
from tests.helpers.fuzzing import XG_PREFIX, build_xg
from tests.helpers.paths import FILES, SAMPLE_XG
from tests.helpers.replays import replay_keys

DATA = FILES / "xg"
ILLEGAL = ["hQ8sVn2LbTdF4wRm", "rK7pXm4TqLb9NzWd"]


def _errors(path: Path) -> list[tuple[str, int | None]]:
    result = analyse_file(str(path), path)
    assert result.error is None, result.error
    return [(p.rule, p.game) for r in result.replays for p in r.problems
            if p.severity == "error"]


def test_a_bare_zlib_payload_reads_as_the_archive_member() -> None:
    body = read_game_file(SAMPLE_XG.read_bytes())
    bare = XG_PREFIX + zlib.compress(body)
    assert read_game_file(bare) == body
    archived = read_records(build_xg(body), "a.xg").records[0]
    assert read_records(bare, "b.xg").records[0].games == archived.games
    real = read_game_file((DATA / "hQ8sVn2LbTdF4wRm.xg").read_bytes())
    assert len(real) % RECORD_SIZE == 0 and real[556:560] == b"DMLI"


@pytest.mark.parametrize("cut", [10, 2000, -5])
def test_a_damaged_bare_payload_is_unreadable_not_a_crash(cut: int) -> None:
    body = read_game_file(SAMPLE_XG.read_bytes())
    packed = zlib.compress(body)
    with pytest.raises(UnsupportedFormatError, match="not a readable eXtreme Gammon"):
        read_records(XG_PREFIX + packed[:cut], "cut.xg")


@pytest.mark.parametrize("stem", ILLEGAL)
def test_illegal_plays_replay_and_report_like_the_mat_twin(stem: str) -> None:
    xg, mat = DATA / f"{stem}.xg", DATA / f"{stem}.mat"
    assert replay_keys(xg) == replay_keys(mat)
    errors = _errors(xg)
    assert errors == _errors(mat)
    assert errors and {rule for rule, _ in errors} == {"dice-mismatch"}


def test_a_play_xg_stores_short_is_restated_from_its_board() -> None:
    record = read_records((DATA / "hQ8sVn2LbTdF4wRm.xg").read_bytes(), "h.xg").records[0]
    action = record.games[1].actions[37]
    assert action.extra.get("xg_invalid") is True
    assert (action.dice, action.play_text) == ((6, 5), "14/8 15/10 6/8")


def _records(body: bytes) -> list[bytes]:
    return [body[at:at + RECORD_SIZE] for at in range(0, len(body), RECORD_SIZE)]


def test_a_game_set_up_by_hand_replays_from_its_position(tmp_path: Path) -> None:
    """Game 1 cut to start at its 6th move record, with that record's board as the game
    header's initial position: the replay of game 1 gives the same plays from there on."""
    body = read_game_file(SAMPLE_XG.read_bytes())
    records = _records(body)
    headers = [i for i, r in enumerate(records) if r[8] == 1]
    start = headers[0]
    moves = [i for i in range(start, headers[1]) if records[i][8] == 3]
    cut = moves[5]
    header = bytearray(records[start])
    header[21:47] = records[cut][9:35]
    edited = records[:start] + [bytes(header)] + records[cut:]
    original = tmp_path / "original.xg"
    original.write_bytes(build_xg(body))
    changed = tmp_path / "setup.xg"
    changed.write_bytes(build_xg(b"".join(edited)))
    before = [e for e in replay_keys(original)[0] if e[0] == 1]
    after = [e for e in replay_keys(changed)[0] if e[0] == 1]
    assert after and after == before[-len(after):]
    assert [e for e in replay_keys(changed)[0] if e[0] != 1] == \
        [e for e in replay_keys(original)[0] if e[0] != 1]
    result = analyse_file(str(changed), changed)
    rules = [(p.rule, p.severity) for r in result.replays for p in r.problems]
    assert rules == [("set-position", "warning")]


def test_a_position_edited_at_a_play_is_set_up_there(tmp_path: Path) -> None:
    """XG's edited flag (v24+) on a move whose stored board differs from the game's: a
    set-position warning, and the replay goes on from the edited board."""
    body = read_game_file(SAMPLE_XG.read_bytes())
    records = _records(body)
    assert struct.unpack_from("<i", records[0], 552)[0] >= 24
    headers = [i for i, r in enumerate(records) if r[8] == 1]
    moves = [i for i in range(headers[0], headers[1]) if records[i][8] == 3]
    # Drop moves 3 and 4 of game 1 (with their cube records) and flag move 5 as edited.
    drop = set(range(moves[2], moves[4]))
    flagged = bytearray(records[moves[4]])
    flagged[2528] = 1
    edited = [bytes(flagged) if i == moves[4] else r for i, r in enumerate(records)
              if i not in drop]
    original = tmp_path / "original.xg"
    original.write_bytes(build_xg(body))
    changed = tmp_path / "edited.xg"
    changed.write_bytes(build_xg(b"".join(edited)))
    before = [e[1:] for e in replay_keys(original)[0] if e[0] == 1]
    after = [e[1:] for e in replay_keys(changed)[0] if e[0] == 1]
    assert after[:2] == before[:2]
    assert after[2:] == before[4:]
    result = analyse_file(str(changed), changed)
    problems = [(p.rule, p.severity, p.game) for r in result.replays for p in r.problems]
    assert problems == [("set-position", "warning", 1)]

