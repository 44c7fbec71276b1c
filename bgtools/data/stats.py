"""Dice, bar, hit, cube and game statistics from replayed records (``bgtools stats``).

Per file, :func:`file_tallies` turns a replayed :class:`~bgtools.reports.files.FileResult` into
one :class:`Tally` per group (a player, a site or the file); tallies are plain counters,
small and picklable, so worker processes compute them and the parent only adds them up
(:meth:`Tally.merge`). :func:`stats_json` turns the totals into the contract's
``"kind": "stats"`` object, with the tests of :mod:`bgtools.data.probability`.

What is counted (docs/data.md and docs/contract.md say the same):

* **Rolls** are every roll of the record, the opening roll of each game included, counted
  for the player who moves with it. The opening roll is never a double (a tie is rolled
  again), so the uniformity tests leave it out: ``tested_rolls`` are the rolls after the
  opening roll of each game.
* **The 21 kinds** (``"11"``, ``"21"`` ... ``"65"``, higher die first) do not depend on the
  order the dice are written in; their chi-square test against 1/36 for a double and 2/36
  otherwise is ``chi_square`` (20 degrees of freedom).
* **The 36 ordered outcomes** are meaningful only where a record keeps the order the dice
  were rolled in. Many writers sort them (gnubg, XG and Galaxy write the higher die first,
  some sites the lower), so a record counts as order-preserving (:func:`keeps_dice_order`)
  only when its non-double rolls are written both ways, in proportions a fair coin could
  give (two-sided p >= :data:`ORDER_P_MIN`); only such records feed ``ordered``.
* **Each die**: ``dice`` counts the faces of both dice of every roll (order-free); the
  first and second die as written are in ``ordered``.
* **Dances**: a roll with a checker on the bar dances when both dice show points of the
  opponent's home board he holds (two or more checkers): with ``c`` such points the chance
  is ``(c/6)**2``, so ``expected_dances`` sums that over the rolls from the bar and
  ``dance_test`` compares it with the dances observed (exact Poisson-binomial test).
* **Raccoons** (the doubler redoubling at once after a beaver, where beavers are allowed)
  are counted from the record's cells, not from the replay's events: the replayer emits a
  ``raccoon`` event for a valid raccoon and for an invalid one (a raccoon answering a plain
  double) alike, so counting the cells, where every reader puts them (``.mat`` ``Raccoons
  => 8``, an SGF double after a beaver by the beavered player, XG's raccoon flag), counts
  each once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bgtools.batch import FileReport, Input
from bgtools.data.context import MatchFilter, Seen
from bgtools.data.probability import chi_square_test, poisson_binomial_test
from bgtools.engine.results import RESULT_NAMES, result_level
from bgtools.record import SCHEMA, is_unnamed, shown_names
from bgtools.replay import Event, MatchReplay

__all__ = [
    "GROUPINGS",
    "KINDS",
    "ORDER_P_MIN",
    "Tally",
    "add_file",
    "keeps_dice_order",
    "file_tallies",
    "match_tallies",
    "group_json",
    "stats_json",
    "player_names",
    "player_keys",
    "site_of",
    "stats_report",
]


GROUPINGS = ("player", "site", "file")
"""What ``stats --by`` groups the counts by."""

KINDS: tuple[str, ...] = tuple(f"{hi}{lo}" for hi in range(1, 7) for lo in range(1, hi + 1))
"""The 21 kinds of roll, higher die first: ``11``, ``21``, ``22``, ``31`` ... ``66``."""

ORDERED: tuple[str, ...] = tuple(f"{a}{b}" for a in range(1, 7) for b in range(1, 7))
"""The 36 ordered outcomes as written: first die, second die."""

ORDER_P_MIN = 0.001
"""A record whose high-first/low-first split of non-double rolls is less likely than this
for a fair coin is taken to write the dice in a convention, not in the order rolled."""

ENDINGS = ("bearoff", "drop", "resign")
UNKNOWN_SITE = "(unknown site)"


def _zeros(n: int) -> list[int]:
    return [0] * n


@dataclass(slots=True)
class Tally:
    """The counts of one group (a player, a site, a file), ready to be added up.

    ``written`` and ``ordered`` are 36 counts indexed ``6 * (first - 1) + (second - 1)``
    over the tested rolls (after each game's opening roll): ``written`` from every record,
    ``ordered`` from order-preserving records only. ``bar_rolls[c]`` and ``dances[c]``
    count the rolls from the bar facing ``c`` held home-board points, and those that
    danced. ``won`` and ``lost`` (by result) and ``resigned`` are kept per player only
    (``sided``); per site or file a game counts once in ``results`` and ``endings``.
    """

    sided: bool = True
    rolls: int = 0
    opening_rolls: int = 0
    doubles: int = 0
    dice: list[int] = field(default_factory=lambda: _zeros(6))
    written: list[int] = field(default_factory=lambda: _zeros(36))
    ordered: list[int] = field(default_factory=lambda: _zeros(36))
    bar_rolls: list[int] = field(default_factory=lambda: _zeros(7))
    dances: list[int] = field(default_factory=lambda: _zeros(7))
    hits: int = 0
    hitting_rolls: int = 0
    cube_doubles: int = 0
    takes: int = 0
    drops: int = 0
    beavers: int = 0
    raccoons: int = 0
    highest_cube: int = 1
    games: int = 0
    unfinished: int = 0
    results: list[int] = field(default_factory=lambda: _zeros(3))
    endings: list[int] = field(default_factory=lambda: _zeros(3))
    won: list[int] = field(default_factory=lambda: _zeros(3))
    lost: list[int] = field(default_factory=lambda: _zeros(3))
    resigned: int = 0
    files: int = 0
    matches: int = 0

    def merge(self, other: Tally) -> None:
        """Add ``other``'s counts to this tally."""
        for name in ("rolls", "opening_rolls", "doubles", "hits", "hitting_rolls",
                     "cube_doubles", "takes", "drops", "beavers", "raccoons", "games",
                     "unfinished", "resigned", "files", "matches"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("dice", "written", "ordered", "bar_rolls", "dances", "results",
                     "endings", "won", "lost"):
            mine: list[int] = getattr(self, name)
            for i, value in enumerate(getattr(other, name)):
                mine[i] += value
        self.highest_cube = max(self.highest_cube, other.highest_cube)

    # --- counting ----------------------------------------------------------------------

    def add_roll(self, event: Event, opening: bool, keeps_order: bool) -> None:
        """Count one replayed roll (a ``move`` event with dice)."""
        assert event.dice is not None
        d1, d2 = event.dice
        self.rolls += 1
        self.dice[d1 - 1] += 1
        self.dice[d2 - 1] += 1
        if d1 == d2:
            self.doubles += 1
        if opening:
            self.opening_rolls += 1
        else:
            cell = 6 * (d1 - 1) + (d2 - 1)
            self.written[cell] += 1
            if keeps_order:
                self.ordered[cell] += 1
        before = event.position_before
        if before.mover[25]:
            held = before.opponent
            closed = sum(1 for point in range(1, 7) if held[point] >= 2)
            self.bar_rolls[closed] += 1
            if held[d1] >= 2 and held[d2] >= 2:
                self.dances[closed] += 1
        play = event.play
        hit = sum(play.hits) if play is not None else 0
        if hit:
            self.hits += hit
            self.hitting_rolls += 1

    def add_cube(self, event: Event) -> None:
        """Count a cube action (double, take, drop, beaver) by the event's player.

        A raccoon is counted from the record (:func:`match_tallies`), so its event (valid
        or not) is not counted here."""
        if event.action == "double":
            self.cube_doubles += 1
        elif event.action == "take":
            self.takes += 1
        elif event.action == "drop":
            self.drops += 1
        elif event.action == "beaver":
            self.beavers += 1

    def add_game(self, winner: int | None, result: str | None, ended_by: str | None,
                 cube: int, side: int | None) -> None:
        """Count one game, seen from player ``side`` (None: once, for a site or file)."""
        self.games += 1
        self.highest_cube = max(self.highest_cube, cube)
        if ended_by is None or winner is None:
            self.unfinished += 1
            return
        level = result_level(result) - 1
        self.results[level] += 1
        if ended_by in ENDINGS:
            self.endings[ENDINGS.index(ended_by)] += 1
        if side is not None:
            if winner == side:
                self.won[level] += 1
            else:
                self.lost[level] += 1
                if ended_by == "resign":
                    self.resigned += 1


def keeps_dice_order(events: Iterable[Event]) -> bool:
    """True when a record seems to write the dice in the order rolled: its non-double rolls
    are written both high-first and low-first, in a split a fair coin could give (two-sided
    p at least :data:`ORDER_P_MIN`)."""
    high = low = 0
    for event in events:
        dice = event.dice
        if dice is not None and dice[0] != dice[1]:
            if dice[0] > dice[1]:
                high += 1
            else:
                low += 1
    if not high or not low:
        return False
    return poisson_binomial_test(high, {0.5: high + low}).p_value >= ORDER_P_MIN


def player_names(replay: MatchReplay) -> tuple[str, str]:
    """The players' names; ``player 0`` or ``player 1`` for one the record does not name."""
    return shown_names(replay.names)


def player_keys(replay: MatchReplay, display: str,
                aliases: dict[str, str] | None = None) -> tuple[str, str]:
    """The players as the data commands add them up across files: by name (an alias as the
    name it stands for); a player the file does not name as ``player 1 (FILE)``, never
    pooled with another file's."""
    first, second = (f"{name} ({display})" if is_unnamed(replay.names, side)
                     else (aliases or {}).get(name, name)
                     for side, name in enumerate(player_names(replay)))
    return first, second


def site_of(replay: MatchReplay) -> str:
    """The record's ``Site`` (or ``Place``) tag, or ``(unknown site)``."""
    site = replay.record.tag("Site") or replay.record.tag("Place")
    site = site.strip() if site else ""
    return site or UNKNOWN_SITE


def match_tallies(replay: MatchReplay, events: list[Event], by: str, display: str,
                  into: dict[str, Tally], aliases: dict[str, str] | None = None) -> None:
    """Add one replayed match (and all its ``events``) to the tallies ``into``, grouped
    ``by`` player (``aliases`` applied), site or file."""
    if by not in GROUPINGS:
        raise ValueError(f"unknown grouping {by!r}")
    if by == "player":
        keys = player_keys(replay, display, aliases)
    else:
        key = site_of(replay) if by == "site" else display
        keys = (key, key)
    sided = by == "player"
    tallies = [into.setdefault(k, Tally(sided=sided)) for k in keys]
    for tally in {id(t): t for t in tallies}.values():  # once per group of the match
        tally.matches += 1
    keeps_order = keeps_dice_order(events)
    opened: set[int] = set()
    for event in events:
        tally = tallies[event.player]
        if event.action == "move":
            if event.dice is None:
                continue
            opening = event.game not in opened
            opened.add(event.game)
            tally.add_roll(event, opening, keeps_order)
        else:
            tally.add_cube(event)
    for game in replay.record.games:
        for action in game.actions:
            if action.kind == "raccoon":
                tallies[action.player].raccoons += 1
    for summary in replay.games:
        if sided:
            for side in (0, 1):
                tallies[side].add_game(summary.winner, summary.result, summary.ended_by,
                                       summary.cube, side)
        else:
            tallies[0].add_game(summary.winner, summary.result, summary.ended_by,
                                summary.cube, None)


def file_tallies(replays: list[MatchReplay], events: list[list[Event]], by: str,
                 display: str) -> dict[str, Tally]:
    """The tallies of one file's replayed matches (``events[i]`` are ``replays[i]``'s),
    grouped ``by`` player, site or file; each group's ``files`` is 1."""
    out: dict[str, Tally] = {}
    for replay, match_events in zip(replays, events):
        match_tallies(replay, match_events, by, display, out)
    for tally in out.values():
        tally.files = 1
    return out


# --- the JSON object ----------------------------------------------------------------------


def _kind_counts(written: list[int]) -> list[int]:
    """The 21 kind counts (in :data:`KINDS` order) from 36 written-order counts."""
    out = []
    for kind in KINDS:
        hi, lo = int(kind[0]), int(kind[1])
        count = written[6 * (hi - 1) + (lo - 1)]
        if hi != lo:
            count += written[6 * (lo - 1) + (hi - 1)]
        out.append(count)
    return out


def _kind_expected(kind: str, total: int) -> float:
    return total * (1 if kind[0] == kind[1] else 2) / 36


def _chi(observed: list[int], expected: list[float]) -> dict[str, Any] | None:
    test = chi_square_test(observed, expected)
    return test.to_json() if test is not None else None


def group_json(tally: Tally) -> dict[str, Any]:
    """The contract's statistics object of one group (see docs/contract.md)."""
    tested = sum(tally.written)
    kinds = _kind_counts(tally.written)
    tested_doubles = sum(tally.written[7 * i] for i in range(6))
    dice_total = sum(tally.dice)
    ordered_total = sum(tally.ordered)
    first = [sum(tally.ordered[6 * a + b] for b in range(6)) for a in range(6)]
    second = [sum(tally.ordered[6 * a + b] for a in range(6)) for b in range(6)]
    trials: dict[float, int] = {}
    for closed, count in enumerate(tally.bar_rolls):
        if count:
            p = (closed / 6) ** 2
            trials[p] = trials.get(p, 0) + count
    dances = sum(tally.dances)
    bar_rolls = sum(tally.bar_rolls)
    dance_test = poisson_binomial_test(dances, trials) if bar_rolls else None
    doubles_test = poisson_binomial_test(tested_doubles, {1 / 6: tested}) if tested else None
    won = dict(zip(RESULT_NAMES, tally.won)) if tally.sided else None
    lost = dict(zip(RESULT_NAMES, tally.lost)) if tally.sided else None
    return {
        "files": tally.files,
        "matches": tally.matches,
        "rolls": tally.rolls,
        "opening_rolls": tally.opening_rolls,
        "tested_rolls": tested,
        "doubles": tally.doubles,
        "tested_doubles": tested_doubles,
        "doubles_rate": tested_doubles / tested if tested else None,
        "doubles_test": doubles_test.to_json() if doubles_test is not None else None,
        "dice": {str(face): tally.dice[face - 1] for face in range(1, 7)},
        "dice_chi_square": _chi(tally.dice, [dice_total / 6] * 6) if dice_total else None,
        "kinds": dict(zip(KINDS, kinds)),
        "chi_square": _chi(kinds, [_kind_expected(k, tested) for k in KINDS]) if tested
        else None,
        "ordered": {
            "rolls": ordered_total,
            "outcomes": dict(zip(ORDERED, tally.ordered)),
            "chi_square": _chi(tally.ordered, [ordered_total / 36] * 36) if ordered_total
            else None,
            "first_die": {str(face): first[face - 1] for face in range(1, 7)},
            "second_die": {str(face): second[face - 1] for face in range(1, 7)},
            "first_die_chi_square": _chi(first, [ordered_total / 6] * 6) if ordered_total
            else None,
            "second_die_chi_square": _chi(second, [ordered_total / 6] * 6) if ordered_total
            else None,
        },
        "bar_rolls": bar_rolls,
        "dances": dances,
        "expected_dances": dance_test.expected if dance_test is not None else 0.0,
        "dance_test": dance_test.to_json() if dance_test is not None else None,
        "bar_by_closed_points": [{"closed": c, "rolls": tally.bar_rolls[c],
                                  "dances": tally.dances[c]}
                                 for c in range(7) if tally.bar_rolls[c]],
        "hits": tally.hits,
        "hitting_rolls": tally.hitting_rolls,
        "cube": {"doubles": tally.cube_doubles, "takes": tally.takes, "drops": tally.drops,
                 "beavers": tally.beavers, "raccoons": tally.raccoons,
                 "highest": tally.highest_cube},
        "games": {
            "played": tally.games,
            "unfinished": tally.unfinished,
            "results": dict(zip(RESULT_NAMES, tally.results)),
            "ended_by": dict(zip(ENDINGS, tally.endings)),
            "won": won,
            "lost": lost,
            "resigned": tally.resigned if tally.sided else None,
        },
    }


GROUP_KEYS = {"player": "players", "site": "sites", "file": "files"}
"""The key of the groups in the ``stats`` object for each ``--by``."""


def stats_json(tallies: dict[str, Tally], by: str, files_read: int, files_skipped: int,
               matches: int, duplicates: int = 0) -> dict[str, Any]:
    """The contract's ``"kind": "stats"`` object: one statistics object per group (sorted
    by name) and ``all``, everything together (``matches`` matches in ``files_read``
    files; ``duplicates`` more left out as copies of a match counted already)."""
    total = Tally(sided=False)
    for tally in tallies.values():
        total.merge(tally)
    total.files = files_read
    total.matches = matches
    overall = group_json(total)
    if by == "player":
        # Every game was counted once for each player: count it once overall.
        overall["games"] = _games_once(tallies)
    return {
        "schema": SCHEMA,
        "kind": "stats",
        "by": by,
        "files_read": files_read,
        "files_skipped": files_skipped,
        "duplicate_matches": duplicates,
        GROUP_KEYS[by]: {name: group_json(tallies[name]) for name in sorted(tallies)},
        "all": overall,
    }


def _games_once(tallies: dict[str, Tally]) -> dict[str, Any]:
    """The overall games object of a per-player run, each game counted once (every game
    has exactly one winner and one loser, so the losers' counts give each game once)."""
    played = sum(t.games for t in tallies.values()) // 2
    unfinished = sum(t.unfinished for t in tallies.values()) // 2
    results = [sum(t.lost[i] for t in tallies.values()) for i in range(3)]
    endings = [sum(t.endings[i] for t in tallies.values()) // 2 for i in range(3)]
    return {"played": played, "unfinished": unfinished,
            "results": dict(zip(RESULT_NAMES, results)), "ended_by": dict(zip(ENDINGS, endings)),
            "won": None, "lost": None, "resigned": None}


# --- the per-file job ---------------------------------------------------------------------


def stats_report(item: Input, rules: str = "auto", by: str = "player",
                 include_invalid: bool = False,
                 filters: MatchFilter | None = None) -> FileReport:
    """The ``stats`` job: read one file; for a used file, the tallies of each of its matches
    that ``filters`` keep, with its fingerprint, as the payload (``{"matches":
    [(fingerprint, match number, {group: Tally})]}``): the parent counts each played match
    once (:func:`add_file`)."""
    from bgtools.data.context import match_context
    from bgtools.data.jobs import read_usable, with_payload

    report, result = read_usable(item, rules, include_invalid)
    if result is None:
        return report
    aliases = filters.aliases if filters is not None else None
    matches: list[tuple[str, int, dict[str, Tally]]] = []
    for number, (replay, events) in enumerate(zip(result.replays, result.events), 1):
        context = match_context(replay, events, report.display, number, aliases)
        if filters is not None and not filters.keeps(context):
            continue
        tallies: dict[str, Tally] = {}
        match_tallies(replay, events, by, report.display, tallies, aliases)
        matches.append((context.fingerprint, number, tallies))
    return with_payload(report, {"matches": matches})


def add_file(payload: dict[str, Any], display: str, seen: Seen,
             into: dict[str, Tally]) -> int:
    """Add a file's payload of :func:`stats_report` to ``into``, leaving out each match
    ``seen`` already (a duplicate); each group the file's counted matches touch gets one
    file. Return the number of matches counted."""
    mine: dict[str, Tally] = {}
    counted = 0
    for print_, number, tallies in payload["matches"]:
        if seen.first(print_, display, number) is not None:
            continue
        counted += 1
        for name, tally in tallies.items():
            known = mine.get(name)
            if known is None:
                mine[name] = tally
            else:
                known.merge(tally)
    for name, tally in mine.items():
        tally.files = 1
        known = into.get(name)
        if known is None:
            into[name] = tally
        else:
            known.merge(tally)
    return counted
