"""A replay as values that compare: what the tests of the readers hold equal between two
files of the same match (an ``.xg`` and its ``.mat`` twin, a file and its edited copy)."""

from __future__ import annotations

from pathlib import Path

from bgtools.replay import Event
from bgtools.reports.files import analyse_file

Key = tuple[object, ...]
"""One event of a replay: game, player, action, dice (sorted), Position ID before and after,
cube value and owner before, the play."""


def replay_keys(path: Path) -> tuple[list[Key], object]:
    """The file at ``path`` replayed (it must read): one :data:`Key` per event, and per match
    its final score, completeness, winner and games (winner, points, result, how it ended,
    cube)."""
    events: list[Event] = []
    result = analyse_file(str(path), path, on_event=events.append)
    assert result.error is None, result.error
    keys: list[Key] = []
    for e in events:
        after = e.position_after.position_id if e.position_after is not None else None
        keys.append((e.game, e.player, e.action, tuple(sorted(e.dice)) if e.dice else None,
                     e.position_before.position_id, after, e.state_before.cube_value,
                     e.state_before.cube_owner, str(e.play) if e.play is not None else None))
    summary = [(r.final_score, r.complete, r.winner,
                [(g.winner, g.points, g.result, g.ended_by, g.cube) for g in r.games])
               for r in result.replays]
    return keys, summary
