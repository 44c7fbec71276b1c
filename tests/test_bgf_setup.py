"""BGBlitz games that start from a position set up by hand (``initial`` not the start):
the replay starts from that position, with a ``set-position`` warning, as for XG.

No published ``.bgf`` holds one, so the test builds it from a real match
(``tests/data/xg/B4_SrGcsKAQmoTyHlgJCbM.bgf``, MIT): game 1 cut to start at a later roll,
with the board the replay has there written as ``initial.points``.
"""

from __future__ import annotations

import json
from pathlib import Path

from bgtools.read.bgf import read_bgf_document
from bgtools.replay import Event
from bgtools.reports.files import analyse_file
from tests.helpers.fuzzing import build_bgf
from tests.test_xg import _events

SAMPLE = Path(__file__).resolve().parent / "data" / "xg" / "B4_SrGcsKAQmoTyHlgJCbM.bgf"


def _points(event: Event) -> list[int]:
    """BGBlitz's ``initial.points`` of the board before ``event``: green (player 0)
    positive from his 24-point at index 0, red negative, then green's and red's bars."""
    mover, opponent = event.position_before.mover, event.position_before.opponent
    green, red = (mover, opponent) if event.player == 0 else (opponent, mover)
    points = [0] * 26
    for point in range(1, 25):
        points[24 - point] += green[point]
        points[point - 1] -= red[point]
    points[24], points[25] = green[25], red[25]
    return points


def test_a_game_set_up_in_bgblitz_replays_from_its_position(tmp_path: Path) -> None:
    _, document = read_bgf_document(SAMPLE.read_bytes())
    assert isinstance(document, dict)
    events: list[Event] = []
    analyse_file(str(SAMPLE), SAMPLE, on_event=events.append)
    rolls = [e for e in events if e.game == 1 and e.action == "move"]
    moves = document["games"][0]["moves"]
    entries = [i for i, m in enumerate(moves) if m["green"] != 7 or m["red"] == 5]
    assert len(entries) == len(rolls) > 8
    cut = 8
    document["games"][0]["moves"] = moves[entries[cut]:]
    document["games"][0]["initial"]["points"] = _points(rolls[cut])
    changed = tmp_path / "setup.bgf"
    changed.write_bytes(build_bgf(json.dumps(document, default=str).encode(), smile=False))
    before = [e for e in _events(SAMPLE)[0] if e[0] == 1]
    after = [e for e in _events(changed)[0] if e[0] == 1]
    assert after and after == before[-len(after):]
    assert [e for e in _events(changed)[0] if e[0] != 1] == \
        [e for e in _events(SAMPLE)[0] if e[0] != 1]
    result = analyse_file(str(changed), changed)
    problems = [(p.rule, p.severity, p.game) for r in result.replays for p in r.problems]
    assert problems == [("set-position", "warning", 1)]
