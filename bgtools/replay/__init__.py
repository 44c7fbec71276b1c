"""The strict replayer: walk a :class:`~bgtools.record.MatchRecord` game by game and check
every roll, play, cube action, result and score line against the rules of backgammon.

Forgiving by design: every problem is collected (with a stable rule id, line and column)
and the replay carries on from the position as written wherever it can, so one bad row
does not cascade into fifty errors. Every rule id is in :data:`bgtools.rules.RULES`.

The modules: ``rules`` (the house rules of the sites and the choice of a
profile), ``model`` (what a replay gives: events, game summaries, the match replay),
``game`` (one game replayed, each rule checked in a named method) and ``match`` (the match
loop, :func:`replay_match`).
"""

from __future__ import annotations

from bgtools.replay.match import replay_match
from bgtools.replay.model import Event, EventKind, GameEnd, GameSummary, MatchReplay
from bgtools.replay.rules import (
    PROFILE_NAMES,
    PROFILES,
    STUDIO_FORFEIT_FACTOR,
    CubeRule,
    ResignationRule,
    RuleProfile,
    crawford_can_apply,
    is_money_session,
    is_xg_dialect,
    profile_for,
    profile_to_state,
    site_profile_name,
    stated_profile_name,
)

__all__ = [
    "PROFILES",
    "PROFILE_NAMES",
    "STUDIO_FORFEIT_FACTOR",
    "CubeRule",
    "Event",
    "EventKind",
    "GameEnd",
    "GameSummary",
    "MatchReplay",
    "ResignationRule",
    "RuleProfile",
    "crawford_can_apply",
    "is_money_session",
    "is_xg_dialect",
    "profile_for",
    "profile_to_state",
    "replay_match",
    "site_profile_name",
    "stated_profile_name",
]
