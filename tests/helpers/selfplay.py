"""GNU Backgammon self-play matches as a replay oracle (cached under tests/files/selfplay/).

``python -m tests.helpers.selfplay --regenerate`` (from the repository root) lets gnubg
(0-ply, seeded, cube in use) play the matches and money sessions of ``SPECS`` against itself
and writes, for each:

* ``<name>.mat``: gnubg's own ``export match mat``;
* ``<name>.sgf``: gnubg's own ``save match`` of the same game record (same step order);
* ``<name>.json``: the "truth": per game gnubg's score before, Crawford flag, winner, points,
  resignation; per action (move, double, take, drop, resign; players 0 = left column = gnubg's
  X) gnubg's Position ID and Match ID *before* the action, the pips before and, for moves,
  the Position ID after.

How the IDs are read (gnubg's own navigation of its game record, nothing recomputed):

* ``next roll`` from the start of a game visits, for every checker play, the state before
  it with the dice rolled (Match ID carries the dice), then the state after it;
* ``next`` visits the state after every record (move, double, take, drop, resign), so the
  state before a cube action or a resignation is the state after the previous record.

Tests only read the cached files (``load_cases``); the generator needs the ``gnubg`` module.
Run it under ``timeout`` with stdin from /dev/null (gnubg can block on a terminal).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.helpers.paths import FILES, REPO

DATA = FILES / "selfplay"


@dataclass(frozen=True)
class Spec:
    """One generated record: a match of ``length`` points (0 = money session of ``games``)."""

    name: str
    seed: int
    length: int
    games: int = 0
    jacoby: bool = True  # money sessions only (gnubg's default is on)


SPECS: list[Spec] = [
    Spec("m3_s1", 1, 3),
    Spec("m3_s2", 2, 3),
    Spec("m3_s3", 3, 3),
    Spec("m4_s4", 4, 4),
    Spec("m5_s1", 1, 5),
    Spec("m5_s5", 5, 5),
    Spec("m5_s6", 6, 5),
    Spec("m5_s7", 7, 5),
    Spec("m7_s8", 8, 7),
    Spec("m7_s9", 9, 7),
    Spec("m3_s10", 10, 3),
    Spec("m3_s11", 11, 3),
    Spec("money_s3_jacoby", 3, 0, games=4, jacoby=True),
    Spec("money_s12_nojacoby", 12, 0, games=4, jacoby=False),
]
"""The cached self-play records (seeds and lengths are fixed so regeneration is stable)."""


# --- reading the cache (no gnubg needed) ------------------------------------------------------


def load_cases(directory: Path = DATA) -> list[tuple[Path, dict[str, Any]]]:
    """Every cached ``(mat path, truth)`` pair, sorted by name; empty when not generated."""
    out: list[tuple[Path, dict[str, Any]]] = []
    if not directory.is_dir():
        return out
    for truth_path in sorted(directory.glob("*.json")):
        mat = truth_path.with_suffix(".mat")
        if mat.is_file():
            out.append((mat, json.loads(truth_path.read_text(encoding="utf-8"))))
    return out


# --- generation (needs gnubg) -----------------------------------------------------------------


@contextlib.contextmanager
def quiet_stdout() -> Iterator[None]:
    """Silence gnubg's C-level stdout (boards, messages) while it plays."""
    sys.stdout.flush()
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        yield
    finally:
        try:
            import ctypes

            ctypes.CDLL(None).fflush(None)
        except Exception:  # noqa: BLE001  # pragma: no cover - flushing C stdio is best effort
            pass
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


def load_gnubg() -> Any:
    """The ``gnubg`` module, set to one thread."""
    import gnubg  # type: ignore[import-not-found]

    gnubg.command("set threads 1")
    return gnubg


def current_ids(gnubg: Any) -> tuple[str, str] | None:
    """gnubg's ``(Position ID, Match ID)`` now, or None when it has no position."""
    try:
        pos, mid = gnubg.gnubg_id().split(":")
    except ValueError:
        return None
    return pos, mid


def _on_roll(match_id: str) -> int:
    """Bit 6 of a Match ID (the player on roll)."""
    import base64

    return (base64.b64decode(match_id + "==")[0] >> 6) & 1


def _dice(match_id: str) -> tuple[int, int]:
    """The dice of a Match ID (bits 15-17 and 18-20; 0 = not rolled)."""
    import base64

    key = int.from_bytes(base64.b64decode(match_id + "=="), "little")
    return (key >> 15) & 7, (key >> 18) & 7


def _pips(gnubg: Any, position_id: str, match_id: str) -> list[int]:
    """``[pips of player 0, pips of player 1]`` from gnubg's board for the IDs."""
    board = gnubg.position_from_id(position_id)  # (not on roll, on roll)
    counts = [sum((i + 1) * n for i, n in enumerate(side)) for side in board]
    roller = _on_roll(match_id)
    return [counts[1], counts[0]] if roller == 0 else [counts[0], counts[1]]


def _walk(gnubg: Any, game_index: int, command: str, steps: int) -> list[tuple[str, str] | None]:
    """The states visited by ``steps`` times ``command`` from the start of game ``game_index``."""
    gnubg.command("first game")
    for _ in range(game_index):
        gnubg.command("next game")
    out: list[tuple[str, str] | None] = []
    for _ in range(steps):
        gnubg.command(command)
        out.append(current_ids(gnubg))
    return out


def play_spec(gnubg: Any, spec: Spec, settings: Sequence[str] = ()) -> None:
    """Let gnubg play the match or session of ``spec`` against itself (0-ply, seeded), with
    the gnubg ``settings`` commands (``set beavers 0``, ...) given before it starts."""
    gnubg.command("set display off")
    gnubg.command("set sound enable off")
    gnubg.command("set jacoby " + ("on" if spec.jacoby else "off"))
    for setting in settings:
        gnubg.command(setting)
    gnubg.command("set automatic game " + ("on" if spec.length else "off"))
    for p in (0, 1):
        gnubg.command(f"set player {p} gnubg")
        gnubg.command(f"set player {p} chequerplay evaluation plies 0")
        gnubg.command(f"set player {p} cubedecision evaluation plies 0")
    gnubg.command(f"set seed {spec.seed}")
    if spec.length:
        gnubg.command(f"new match {spec.length}")
    else:
        gnubg.command("new session")
        for _ in range(spec.games - 1):
            gnubg.command("new game")


def generate(spec: Spec, directory: Path = DATA) -> dict[str, Any]:
    """Let gnubg play ``spec``, write ``<name>.mat`` and ``<name>.json``; return the truth."""
    gnubg = load_gnubg()
    directory.mkdir(parents=True, exist_ok=True)
    mat_path = directory / f"{spec.name}.mat"
    with quiet_stdout():
        play_spec(gnubg, spec)
        gnubg.command(f"export match mat {mat_path}")
        gnubg.command(f"save match {directory / (spec.name + '.sgf')}")
        match = gnubg.match()
        games_out: list[dict[str, Any]] = []
        for gi, game in enumerate(match["games"]):
            records = list(game["game"])
            moves = [r for r in records if r["action"] == "move"]
            rolled = _walk(gnubg, gi, "next roll", 3 * len(records) + 2)
            after = _walk(gnubg, gi, "next", len(records))
            # Pick, in order, the visited state before each play: its board, dice rolled.
            befores_with_dice: list[tuple[str, str] | None] = []
            j = 0
            for rec in moves:
                want = tuple(sorted(rec["dice"]))
                while j < len(rolled) and not (
                    rolled[j] is not None and rolled[j][0] == rec["board"]
                    and tuple(sorted(_dice(rolled[j][1]))) == want
                ):
                    j += 1
                assert j < len(rolled), (spec.name, gi, rec)
                befores_with_dice.append(rolled[j])
                j += 1
            actions: list[dict[str, Any]] = []
            k = 0
            for i, rec in enumerate(records):
                kind = rec["action"]
                player = 0 if rec["player"] == "X" else 1
                if kind == "move":
                    state = befores_with_dice[k]
                    k += 1
                else:
                    state = after[i - 1] if i else None
                assert state is not None, (spec.name, gi, i, rec)
                pos, mid = state
                if "board" in rec:
                    assert rec["board"] == pos, (spec.name, gi, i, rec, pos)
                item: dict[str, Any] = {"player": player, "action": kind}
                if kind == "move":
                    item["dice"] = list(rec["dice"])
                    item["move"] = [list(s) for s in rec["move"]]
                if kind == "resign":
                    item["level"] = rec.get("points")
                item["position_id"] = pos
                item["match_id"] = mid
                item["pips"] = _pips(gnubg, pos, mid)
                if kind == "move" and after[i] is not None:
                    item["position_id_after"] = after[i][0]
                actions.append(item)
            info = game["info"]
            games_out.append({
                "score_before": [info["score-X"], info["score-O"]],
                "crawford": bool(info.get("crawford", False)),
                "winner": 0 if info["winner"] == "X" else 1,
                "points": info["points-won"],
                "resigned": bool(info["resigned"]),
                "actions": actions,
            })
    last = games_out[-1]
    final = list(last["score_before"])
    final[last["winner"]] += last["points"]
    truth: dict[str, Any] = {
        "generator": "tests/helpers/selfplay.py",
        "gnubg": str(getattr(gnubg, "short_version", "")),
        "seed": spec.seed,
        "match_length": spec.length,
        "jacoby": spec.jacoby if spec.length == 0 else None,
        "players": [match["match-info"]["X"]["name"], match["match-info"]["O"]["name"]],
        "final_score": final,
        "games": games_out,
    }
    (directory / f"{spec.name}.json").write_text(
        json.dumps(truth, separators=(",", ":")) + "\n", encoding="utf-8"
    )
    return truth


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--regenerate`` rebuilds the cache (one spec per process by default)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--regenerate", action="store_true", help="rebuild every cached file")
    parser.add_argument("--only", help="generate this one spec in this process")
    args = parser.parse_args(argv)
    if args.only:
        spec = next(s for s in SPECS if s.name == args.only)
        truth = generate(spec)
        n = sum(len(g["actions"]) for g in truth["games"])
        print(f"{spec.name}: {len(truth['games'])} games, {n} actions, "
              f"final {truth['final_score']}", file=sys.stderr)
        return 0
    if not args.regenerate:
        parser.print_help()
        return 2
    import subprocess

    # One process per spec: gnubg keeps global state (match, RNG, settings) between commands.
    for spec in SPECS:
        subprocess.run(
            [sys.executable, "-m", "tests.helpers.selfplay", "--only", spec.name],
            cwd=REPO, stdin=subprocess.DEVNULL, check=True, timeout=600,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
