"""Soak test against GNU Backgammon: gnubg plays varied matches, bgtools must find them legal.

    python scripts/soak_gnubg.py [--matches 100] [--seed0 5000] [--cache DIR] [--timeout 900]

Needs the ``gnubg`` Python module (not a test, kept out of CI). Each match is played by
gnubg against itself (0-ply chequer play and cube, seeded, ``set threads 1``) in its own
process under a timeout (gnubg keeps global state), and cached in ``--cache`` (default
``~/.cache/bgtools-soak``) as ``NAME.mat`` (``export match mat``), ``NAME.sgf``
(``save match``) and ``NAME.gnubg.json`` (gnubg's own per-game results); later runs reuse
the cache. ``NAME`` spells the settings: ``m7_s5003_nocrawford``, ``money_s5012_j0_b0_g5`` ...

The matches vary the length (1 to 25 points), money sessions (Jacoby on/off, beavers on/off
when gnubg offers ``set beavers``, several games; with ``--auto-doubles`` half of them
with gnubg's automatic doubles, see below), the Crawford rule (off through
``set automatic crawford off`` when gnubg has it), the cube (a few with ``set cube use off``)
and the seed. Every ``.mat`` and ``.sgf`` is then checked with bgtools' library:

* any problem of severity error is a false error (gnubg's own matches are legal); the
  ``.mat`` of a match without the Crawford rule is checked with a ``Crawford Off`` tag
  supplied (gnubg's export cannot state the rule; its ``crawford-double`` errors without
  it are listed apart, as a known limit, and do not fail the run);
* warnings are counted and listed;
* the ``.mat`` and the ``.sgf`` must agree with each other and with gnubg (games, each
  game's winner and points, final score, match winner);
* each is converted (``Match.write``) to ``.mat``, ``.sgf`` and ``.json`` in a temporary
  directory, read back and replayed: no error, same final score, same per-game results.

``--auto-doubles`` is off by default: gnubg 1.1.0a16's records of a session with automatic
doubles contradict themselves (its SGF states the doubled cube ``CV[n]`` and the result at
it, ``RE[W+8]``, but the next game's score ``MI[ws][bs]``, like its ``.mat`` export, counts
the game without the automatic doubles), so bgtools rightly reports ``score-mismatch``.

Prints a summary table and the findings; exits 1 when any false error, disagreement,
round-trip failure or crash was found, 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bgtools import Match, Replay

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # bgtools and the tests.helpers package from this tree

DEFAULT_CACHE = (Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
                 / "bgtools-soak")
LENGTHS = (1, 2, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25)
MONEY = ((True, True), (False, True), (True, False), (False, False))  # (jacoby, beavers)
DEFAULT_BEAVERS = 3  # gnubg's default number of beavers allowed


@dataclass(frozen=True)
class Spec:
    """One gnubg self-play record: a match of ``length`` points, or money (``length`` 0)."""

    seed: int
    length: int
    games: int = 0  # money sessions: how many games
    jacoby: bool = True  # money sessions only
    beavers: bool = True  # money sessions only
    crawford: bool = True  # matches only
    cube: bool = True
    auto_doubles: int = 0  # money sessions only: gnubg's 'set automatic doubles' limit

    @property
    def name(self) -> str:
        """The cache file stem, spelling every setting."""
        if self.length == 0:
            base = (f"money_s{self.seed}_j{int(self.jacoby)}_b{int(self.beavers)}"
                    f"_g{self.games}" + (f"_ad{self.auto_doubles}" if self.auto_doubles else ""))
        else:
            base = f"m{self.length}_s{self.seed}" + ("" if self.crawford else "_nocrawford")
        return base + ("" if self.cube else "_nocube")

    def settings(self) -> str:
        """The settings in words, for the report."""
        if self.length == 0:
            out = (f"money, {self.games} games, jacoby {'on' if self.jacoby else 'off'}, "
                   f"beavers {'on' if self.beavers else 'off'}"
                   + (f", automatic doubles {self.auto_doubles}" if self.auto_doubles else ""))
        else:
            out = f"{self.length}-point match, crawford {'on' if self.crawford else 'off'}"
        return out + ("" if self.cube else ", cube off")


def make_specs(count: int, seed0: int, features: set[str],
               auto_doubles: bool = False) -> list[Spec]:
    """``count`` varied specs from seed ``seed0`` on (deterministic, so the cache is reused);
    ``auto_doubles``: half the money sessions with gnubg's automatic doubles (limit 2)."""
    slots = len(LENGTHS) + len(MONEY)
    specs: list[Spec] = []
    for i in range(count):
        seed = seed0 + i
        slot = i % slots
        cube = i % 11 != 10
        if slot < len(LENGTHS):
            length = LENGTHS[slot]
            crawford = not ("crawford" in features and length > 1 and (i // slots) % 2 == 1)
            specs.append(Spec(seed, length, crawford=crawford, cube=cube))
        else:
            jacoby, beavers = MONEY[slot - len(LENGTHS)]
            if "beavers" not in features:
                beavers = True
            auto = 2 if (auto_doubles and "autodoubles" in features
                         and (i // slots) % 2 == 1) else 0
            specs.append(Spec(seed, 0, games=3 + i % 4, jacoby=jacoby, beavers=beavers,
                              cube=True, auto_doubles=auto))
    return specs


# --- playing (in a child process, with gnubg) -------------------------------------------------


def probe_features(timeout: float = 120.0) -> set[str]:
    """Which optional settings this gnubg has: ``crawford`` (``set automatic crawford``) and
    ``beavers`` (``set beavers``), read from ``help set`` in a child process."""
    code = ("import gnubg\ngnubg.command('set threads 1')\n"
            "gnubg.command('help set')\ngnubg.command('help set automatic')\n")
    try:
        done = subprocess.run([sys.executable, "-c", code], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return set()
    if done.returncode != 0:
        return set()
    lines = [line.split() for line in done.stdout.splitlines()]
    words = {parts[0] for parts in lines if parts}
    features: set[str] = {"gnubg"}
    if "beavers" in words:
        features.add("beavers")
    if "crawford" in words:  # 'set crawford' (this game) and 'set automatic crawford'
        features.add("crawford")
    if "doubles" in words:  # 'set automatic doubles N'
        features.add("autodoubles")
    return features


def play_one(spec: Spec, out_dir: Path) -> None:
    """In this process: let gnubg play ``spec``; write its ``.mat``, ``.sgf``, ``.gnubg.json``."""
    from tests.helpers import selfplay

    gnubg = selfplay.load_gnubg()
    stem = out_dir / spec.name
    with selfplay.quiet_stdout():
        selfplay.play_spec(
            gnubg, selfplay.Spec(spec.name, spec.seed, spec.length, spec.games, spec.jacoby),
            (f"set beavers {DEFAULT_BEAVERS if spec.beavers else 0}",
             "set automatic crawford " + ("on" if spec.crawford else "off"),
             "set cube use " + ("on" if spec.cube else "off"),
             f"set automatic doubles {spec.auto_doubles}"))
        gnubg.command(f"export match mat {stem}.tmp.mat")
        gnubg.command(f"save match {stem}.tmp.sgf")
        match = gnubg.match()
    games: list[dict[str, Any]] = []
    rolls = 0
    for game in match["games"]:
        info = game["info"]
        rolls += sum(1 for r in game["game"] if r["action"] == "move")
        winner = info.get("winner")
        games.append({
            "score_before": [info["score-X"], info["score-O"]],
            "winner": None if winner is None else (0 if winner == "X" else 1),
            "points": info.get("points-won"),
            "resigned": bool(info.get("resigned")),
        })
    truth = {"spec": asdict(spec), "gnubg": str(getattr(gnubg, "short_version", "")),
             "games": games, "rolls": rolls}
    Path(f"{stem}.tmp.json").write_text(json.dumps(truth) + "\n", encoding="utf-8")


def ensure_played(spec: Spec, cache: Path, timeout: float) -> str | None:
    """Play ``spec`` into ``cache`` unless cached; None when done, else why it failed."""
    stem = cache / spec.name
    finals = [Path(f"{stem}{ext}") for ext in (".mat", ".sgf", ".gnubg.json")]
    if all(p.is_file() for p in finals):
        return None
    cache.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, __file__, "--play-one", json.dumps(asdict(spec)), str(cache)]
    try:
        done = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return f"gnubg timed out after {timeout:.0f} s"
    if done.returncode != 0:
        return f"gnubg process failed ({done.returncode}): {done.stderr.strip()[-300:]}"
    for tmp_ext, final in zip((".tmp.mat", ".tmp.sgf", ".tmp.json"), finals):
        Path(f"{stem}{tmp_ext}").replace(final)
    return None


# --- checking (bgtools only) ------------------------------------------------------------------


GameResult = tuple[int | None, int | None]  # (winner, points)


@dataclass
class Findings:
    """What the soak found, by kind; each item is one line of the report."""

    false_errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)
    round_trips: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    unstated: list[str] = field(default_factory=list)
    """Known limit, not a failure: a no-Crawford match's ``.mat`` cannot state the rule."""
    error_rules: Counter[str] = field(default_factory=Counter)
    warning_rules: Counter[str] = field(default_factory=Counter)
    files: Counter[str] = field(default_factory=Counter)
    rolls: int = 0
    actions: int = 0
    played: Counter[str] = field(default_factory=Counter)
    not_played: list[str] = field(default_factory=list)

    def failed(self) -> bool:
        """True when something must make the run exit 1."""
        return bool(self.false_errors or self.disagreements or self.round_trips
                    or self.crashes or self.not_played)


@dataclass(frozen=True)
class Outcome:
    """The replayed result of one file, for comparisons."""

    games: list[GameResult]
    final_score: tuple[int, int]
    winner: int | None
    errors: list[str]


def outcome_of(replay: Replay) -> Outcome:
    """The :class:`Outcome` of a :class:`bgtools.Replay`."""
    return Outcome(
        games=[(g.winner, g.points) for g in replay.games],
        final_score=(replay.final_score[0], replay.final_score[1]),
        winner=replay.winner,
        errors=[f"{p.rule} (line {p.line}): {p.message}" for p in replay.errors()],
    )


def differences(a: Outcome, b: Outcome) -> list[str]:
    """How two outcomes differ (games, per-game results, final score, winner)."""
    out: list[str] = []
    if len(a.games) != len(b.games):
        out.append(f"{len(a.games)} games vs {len(b.games)}")
    for n, (ga, gb) in enumerate(zip(a.games, b.games), 1):
        if ga != gb:
            out.append(f"game {n}: winner/points {ga} vs {gb}")
    if a.final_score != b.final_score:
        out.append(f"final score {a.final_score} vs {b.final_score}")
    if a.winner != b.winner:
        out.append(f"match winner {a.winner} vs {b.winner}")
    return out


def gnubg_outcome(truth: dict[str, Any]) -> Outcome:
    """gnubg's own results (``.gnubg.json``) as an :class:`Outcome`."""
    games = [(g["winner"], g["points"]) for g in truth["games"]]
    final = [0, 0]
    if truth["games"]:
        last = truth["games"][-1]
        final = list(last["score_before"])
        if last["winner"] is not None:
            final[last["winner"]] += last["points"]
    length = truth["spec"]["length"]
    winner = None
    if length:
        winner = next((p for p in (0, 1) if final[p] >= length), None)
    return Outcome(games, (final[0], final[1]), winner, [])


def check_file(path: Path, label: str, findings: Findings,
               crawford_off: bool = False) -> tuple[Match, Outcome] | None:
    """Read and replay one file: record its false errors and warnings; the match read and
    its outcome. ``crawford_off``: gnubg played the match without the Crawford rule, which a
    ``.mat`` cannot state; its ``crawford-double`` errors without the rule are counted in
    ``findings.unstated`` and the file is then checked with the rule supplied (a
    ``Crawford Off`` tag, as bgtools' own ``.mat`` writes it)."""
    import bgtools

    findings.files[path.suffix] += 1
    try:
        matches = bgtools.read(path)
        if len(matches) != 1:
            findings.disagreements.append(f"{label}: {len(matches)} matches in the file")
            return None
        match = matches[0]
        if crawford_off and match.tag("Crawford") is None:
            plain = match.replay()
            doubles = [p for p in plain.errors() if p.rule == "crawford-double"]
            if doubles:
                findings.unstated.append(f"{label}: {len(doubles)} crawford-double without "
                                         f"the rule (line {doubles[0].line})")
            match.record.tags.append(("Crawford", "Off"))
        replay = match.replay()
    except Exception:  # noqa: BLE001  # any exception on a legal gnubg file is a finding
        findings.crashes.append(f"{label}: {traceback.format_exc(limit=3).strip()}")
        return None
    for event in replay.events:
        findings.actions += 1
        if event.dice is not None:
            findings.rolls += 1
    for problem in replay.problems:
        where = f"{label} line {problem.line} game {problem.game}"
        text = f"{where}: {problem.rule}: {problem.message}"
        if problem.severity is bgtools.Severity.ERROR:
            findings.false_errors.append(text)
            findings.error_rules[problem.rule] += 1
        else:
            findings.warnings.append(text)
            findings.warning_rules[problem.rule] += 1
    return match, outcome_of(replay)


def check_round_trip(match: Match, label: str, expected: Outcome, findings: Findings) -> None:
    """Convert ``match`` to ``.mat``, ``.sgf`` and ``.json``, read back, replay, compare."""
    import bgtools

    with tempfile.TemporaryDirectory(prefix="bgtools-soak-") as tmp:
        for fmt in ("mat", "sgf", "json"):
            target = Path(tmp) / f"rt.{fmt}"
            where = f"{label} -> .{fmt}"
            try:
                match.write(target)
                back = bgtools.read(target)
                got = outcome_of(back[0].replay())
            except Exception as exc:  # noqa: BLE001  # a refused or broken conversion
                findings.round_trips.append(f"{where}: {type(exc).__name__}: {exc}")
                continue
            for err in got.errors:
                findings.round_trips.append(f"{where}: error after the round trip: {err}")
            for diff in differences(expected, got):
                findings.round_trips.append(f"{where}: {diff}")


def check_spec(spec: Spec, cache: Path, findings: Findings) -> None:
    """Every check of one cached spec."""
    stem = cache / spec.name
    truth = json.loads(Path(f"{stem}.gnubg.json").read_text(encoding="utf-8"))
    oracle = gnubg_outcome(truth)
    outcomes: dict[str, Outcome] = {}
    for ext in (".mat", ".sgf"):
        path = Path(f"{stem}{ext}")
        label = f"{path.name} [{spec.settings()}]"
        checked = check_file(path, label, findings,
                             crawford_off=ext == ".mat" and not spec.crawford)
        if checked is None:
            continue
        match, got = checked
        outcomes[ext] = got
        for diff in differences(oracle, got):
            findings.disagreements.append(f"{label}: gnubg vs bgtools: {diff}")
        check_round_trip(match, label, got, findings)
    if len(outcomes) == 2:
        for diff in differences(outcomes[".mat"], outcomes[".sgf"]):
            findings.disagreements.append(f"{spec.name} [{spec.settings()}]: .mat vs .sgf: "
                                          f"{diff}")


def kind_of(spec: Spec) -> str:
    """The summary row of a spec."""
    if spec.length == 0:
        return (f"money j{int(spec.jacoby)} b{int(spec.beavers)}"
                + (f" ad{spec.auto_doubles}" if spec.auto_doubles else ""))
    return f"{spec.length}-point" + ("" if spec.crawford else " no-crawford")


def print_report(findings: Findings, seconds: float, features: set[str]) -> None:
    """The summary table and every finding."""
    rows = [
        ("matches played and checked", sum(findings.played.values())),
        ("matches gnubg failed to play", len(findings.not_played)),
        (".mat files", findings.files[".mat"]),
        (".sgf files", findings.files[".sgf"]),
        ("actions replayed", findings.actions),
        ("rolls replayed", findings.rolls),
        ("false errors", len(findings.false_errors)),
        ("warnings", len(findings.warnings)),
        ("disagreements", len(findings.disagreements)),
        ("round-trip failures", len(findings.round_trips)),
        ("crashes", len(findings.crashes)),
        ("no-Crawford .mat needing the rule", len(findings.unstated)),
    ]
    print(f"gnubg soak ({seconds:.0f} s; optional settings found: "
          f"{', '.join(sorted(features - {'gnubg'})) or 'none'})")
    for name, value in rows:
        print(f"  {name:<30} {value:>8}")
    print("  by kind:")
    for kind, n in sorted(findings.played.items()):
        print(f"    {kind:<28} {n:>8}")
    sections = (("gnubg failures", findings.not_played), ("FALSE ERRORS", findings.false_errors),
                ("DISAGREEMENTS", findings.disagreements),
                ("ROUND-TRIP FAILURES", findings.round_trips), ("CRASHES", findings.crashes),
                ("warnings", findings.warnings),
                ("no-Crawford .mat files: gnubg's export cannot state the rule (checked with "
                 "a Crawford Off tag supplied; a known limit, not a failure)",
                 findings.unstated))
    for title, items in sections:
        if items:
            print(f"\n{title} ({len(items)}):")
            for item in items[:200]:
                print("  " + item)
            if len(items) > 200:
                print(f"  ... and {len(items) - 200} more")
    for title, rules in (("error rules", findings.error_rules),
                         ("warning rules", findings.warning_rules)):
        if rules:
            print(f"\n{title}: " + ", ".join(f"{r} x{n}" for r, n in rules.most_common()))


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring); the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100, help="matches to soak (default 100)")
    parser.add_argument("--seed0", type=int, default=5000, help="first seed (default 5000)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE,
                        help=f"cache directory (default {DEFAULT_CACHE})")
    parser.add_argument("--timeout", type=float, default=900.0,
                        help="seconds allowed per gnubg match (default 900)")
    parser.add_argument("--auto-doubles", action="store_true",
                        help="also money sessions with automatic doubles (gnubg's records of "
                             "them contradict themselves: see above)")
    parser.add_argument("--play-one", nargs=2, metavar=("SPEC", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play_one:
        play_one(Spec(**json.loads(args.play_one[0])), Path(args.play_one[1]))
        return 0
    if args.matches < 1:
        print("--matches must be at least 1", file=sys.stderr)
        return 2
    start = time.monotonic()
    features = probe_features()
    if "gnubg" not in features:
        print("the gnubg Python module cannot be imported: nothing to soak", file=sys.stderr)
        return 2
    findings = Findings()
    specs = make_specs(args.matches, args.seed0, features, args.auto_doubles)
    for n, spec in enumerate(specs, 1):
        failure = ensure_played(spec, args.cache, args.timeout)
        if failure is not None:
            findings.not_played.append(f"{spec.name}: {failure}")
            continue
        check_spec(spec, args.cache, findings)
        findings.played[kind_of(spec)] += 1
        print(f"[{n}/{len(specs)}] {spec.name}: {len(findings.false_errors)} false errors, "
              f"{len(findings.disagreements)} disagreements, {len(findings.round_trips)} "
              f"round-trip failures so far", file=sys.stderr, flush=True)
    print_report(findings, time.monotonic() - start, features)
    return 1 if findings.failed() else 0


if __name__ == "__main__":
    sys.exit(main())
