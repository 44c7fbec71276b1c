"""A claimed result checked against a match file: ``validate --expect "Alice 7-5"``.

A director receives a match file with a claim (who won, and the final score); the claim is
checked against the replayed match. A claim is ``NAME W-L``: the winner as the file's score
lines name him (compared without regard to case or surrounding spaces) and the final score,
the winner's points first (``Alice wins 7-5`` is read the same). A match won with more
points than it needed may be claimed either way (``Bob 4-2`` or ``Bob 3-2`` of 3 points).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bgtools.record import Problem, Severity, shown_names
from bgtools.replay import MatchReplay

if TYPE_CHECKING:
    from bgtools.reports.objects import ExpectObject

__all__ = ["RULE", "Claim", "check_claim", "claim_problem", "expect_json", "parse_claim"]

RULE = "expected-result"
"""The rule id of a result that differs from the claim."""

_CLAIM_RE = re.compile(r"^\s*(?P<name>\S.*?)\s+(?:wins\s+)?(?P<won>\d{1,5})\s*-\s*(?P<lost>\d{1,5})"
                       r"\s*$", re.IGNORECASE | re.ASCII)


@dataclass(frozen=True, slots=True)
class Claim:
    """A claimed result: the winner's name and the final score, the winner's points first."""

    winner: str
    won: int
    lost: int

    def __str__(self) -> str:
        return f"{self.winner} {self.won}-{self.lost}"


def parse_claim(text: str) -> Claim:
    """Read ``NAME W-L`` (or ``NAME wins W-L``); ValueError says what is expected."""
    found = _CLAIM_RE.match(text)
    if found is None:
        raise ValueError(f"--expect {text!r}: write the winner and the final score, the "
                         "winner's first, as in --expect 'Alice 7-5'")
    won, lost = int(found["won"]), int(found["lost"])
    if won <= lost:
        raise ValueError(f"--expect {text!r}: the winner's score comes first and is the "
                         "higher, as in --expect 'Alice 7-5'")
    return Claim(found["name"], won, lost)


def _result_text(replay: MatchReplay) -> str | None:
    """The file's result written like a claim (``Bob 7-5``), or None without a winner."""
    if replay.winner is None or replay.names is None:
        return None
    won = replay.final_score[replay.winner]
    lost = replay.final_score[1 - replay.winner]
    return f"{replay.names[replay.winner]} {won}-{lost}"


def check_claim(replays: list[MatchReplay], claim: Claim) -> str | None:
    """Why the file's match differs from ``claim`` (one line), or None when it agrees."""
    if len(replays) != 1:
        return f"the file holds {len(replays)} matches; --expect checks a file of one match"
    (replay,) = replays
    a, b = replay.final_score
    names = shown_names(replay.names)
    if not replay.match_length:
        return f"the file is a money session ({names[0]} {a}, {names[1]} {b}): no winner"
    if replay.winner is None:
        return (f"the match is unfinished at {names[0]} {a}, {names[1]} {b} "
                f"(of {replay.match_length}), not won as claimed ({claim})")
    wanted = claim.winner.strip().casefold()
    if wanted not in (name.strip().casefold() for name in names):
        return (f"{claim.winner} is not a player of this match ({names[0]}, {names[1]}); "
                f"its result is {_result_text(replay)}")
    result = _result_text(replay)
    winner_matches = names[replay.winner].strip().casefold() == wanted
    won, lost = replay.final_score[replay.winner], replay.final_score[1 - replay.winner]
    # A match won with more points than it needed (4-2 of 3) may be claimed capped (3-2).
    if winner_matches and claim.won in (won, min(won, replay.match_length)) \
            and claim.lost == lost:
        return None
    return f"the file's result is {result}, not {claim} as claimed"


def expect_json(claim: Claim, replays: list[MatchReplay], reason: str | None,
                readable: bool) -> ExpectObject:
    """The ``expect`` member of a ``validate --json`` object: the claim, the file's result
    (``null`` without a winner or when unreadable) and whether they agree (``null`` when
    the file could not be read)."""
    result = _result_text(replays[0]) if readable and len(replays) == 1 else None
    return {"claimed": str(claim), "result": result,
            "matches": (reason is None) if readable else None}


def claim_problem(reason: str) -> Problem:
    """The problem reported for a result that differs from the claim."""
    return Problem(RULE, reason, severity=Severity.ERROR)
