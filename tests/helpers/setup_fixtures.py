"""GNU Backgammon records with set-up positions as a replay oracle (tests/files/setup/).

``python -m tests.helpers.setup_fixtures --regenerate`` (from the repository root) drives
gnubg through each scenario of ``SCENARIOS`` (set a board, the player to move, the cube by
hand, then let gnubg's 0-ply best move play on) and writes, for each:

* ``<name>.sgf``: gnubg's ``save match`` (set-up nodes ``AE``/``AW``/``AB``/``PL``/``CV``/``CP``);
* ``<name>.mat``: gnubg's ``export match mat`` of the same record, kept to show what gnubg
  writes: it warns that an edited game "cannot be exported correctly in this format" and
  writes the moves without the set-up (so bgtools refuses that conversion);
* ``<name>.json``: the truth: for every checker play, in order, the player, dice and
  gnubg's Position ID and Match ID before it (dice rolled) and the Position ID after it,
  read from gnubg while it plays; and each game's winner and points when it ended.

Tests only read the cached files; the generator needs the ``gnubg`` module. Run it under
``timeout`` with stdin from /dev/null.
"""

from __future__ import annotations

import argparse
import base64
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.helpers.paths import FILES, REPO
from tests.helpers.selfplay import current_ids, load_gnubg, quiet_stdout

DATA = FILES / "setup"


@dataclass(frozen=True)
class Scenario:
    """One record: ``length`` (0 = money), moves played from the start before the set-up,
    the set-up commands, then at most ``moves`` checker plays."""

    name: str
    seed: int
    length: int
    before: int
    setup: tuple[str, ...]
    moves: int


SCENARIOS: list[Scenario] = [
    # The FORMATS.md 3.3 position (Black on roll, 2 on the bar), cube at 4 owned by Black.
    Scenario("bar_cube4_m5", 7, 5, 0,
             ("set board B4D/BwDg/wMAYA", "set cube value 4", "set cube owner 1"), 12),
    # A mid-game reset in money play: three plays, then a new board, the other player to
    # move and a centred cube at 2.
    Scenario("midgame_money", 3, 0, 3,
             ("set board 4HPwATDgc/ABMA", "set turn 1", "set cube value 2",
              "set cube centre"), 8),
    # After the opening play, a bear-off race played to the end of the game, the cube at 2
    # owned by White.
    Scenario("race_m3", 11, 3, 1,
             ("set board d7cNAADb3Q4AAA", "set cube value 2", "set cube owner 0"), 60),
]
"""The cached set-up records (seeds fixed so regeneration is stable)."""


def load_cases(directory: Path = DATA) -> list[tuple[Path, dict[str, Any]]]:
    """Every cached ``(sgf path, truth)`` pair, sorted by name; empty when not generated."""
    out: list[tuple[Path, dict[str, Any]]] = []
    if not directory.is_dir():
        return out
    for truth_path in sorted(directory.glob("*.json")):
        sgf = truth_path.with_suffix(".sgf")
        if sgf.is_file():
            out.append((sgf, json.loads(truth_path.read_text(encoding="utf-8"))))
    return out


def _key(match_id: str) -> int:
    return int.from_bytes(base64.b64decode(match_id + "=="), "little")


def _playing(match_id: str) -> bool:
    return (_key(match_id) >> 8) & 7 == 1


def _play_one(gnubg: Any) -> dict[str, Any] | None:
    """Roll and play gnubg's best move for the player on roll; the truth of that play."""
    gnubg.command("roll")
    state = current_ids(gnubg)
    assert state is not None
    pos, mid = state
    key = _key(mid)
    dice = [(key >> 15) & 7, (key >> 18) & 7]
    player = (key >> 6) & 1
    if not dice[0]:
        return None  # gnubg passed a roll with no legal play on its own
    best = gnubg.findbestmove()
    if len(best) % 2 == 0:
        text = gnubg.movetupletostring(best, gnubg.board()) if best else ""
    else:
        # gnubg's module truncates bear-off moves ((6,) for 6/off 2/off): take the legal
        # play that bears off most; gnubg still judges the move and gives the IDs.
        from bgtools.engine.position import Position

        before = Position.from_id(pos)
        _, play = min(before.legal_results(dice[0], dice[1]).items(),
                           key=lambda item: (-item[0].mover[0], str(item[1])))
        text = str(play).replace("*", "")
    if text:
        gnubg.command("move " + text)
    after = current_ids(gnubg)
    assert after is not None and after[0] != pos, (pos, dice, text)
    return {"player": player, "dice": dice, "play": text, "position_id": pos,
            "match_id": mid, "position_id_after": after[0]}


def generate(sc: Scenario, directory: Path = DATA) -> dict[str, Any]:
    """Drive gnubg through ``sc``; write ``<name>.sgf``, ``.mat`` and ``.json``."""
    gnubg = load_gnubg()
    directory.mkdir(parents=True, exist_ok=True)
    plays: list[dict[str, Any]] = []
    with quiet_stdout():
        for command in ("set display off", "set sound enable off", "set automatic game off",
                        "set automatic roll off", "set player 0 human", "set player 1 human",
                        f"set seed {sc.seed}"):
            gnubg.command(command)
        gnubg.command(f"new match {sc.length}" if sc.length else "new session")
        # The opening roll is rolled by 'new match'; play it (and more) before the set-up.
        for i in range(sc.before):
            if i:
                gnubg.command("roll")
            best = gnubg.findbestmove()
            gnubg.command("move " + gnubg.movetupletostring(best, gnubg.board()))
        for command in sc.setup:
            gnubg.command(command)
        setup_state = current_ids(gnubg)
        for _ in range(sc.moves):
            state = current_ids(gnubg)
            if state is None or not _playing(state[1]):
                break
            item = _play_one(gnubg)
            if item is not None:
                plays.append(item)
        gnubg.command(f"save match {directory / (sc.name + '.sgf')}")
        gnubg.command(f"export match mat {directory / (sc.name + '.mat')}")
        match = gnubg.match()
    info = match["games"][-1]["info"]
    truth: dict[str, Any] = {
        "generator": "tests/helpers/setup_fixtures.py",
        "gnubg": str(getattr(gnubg, "short_version", "")),
        "match_length": sc.length,
        "setup": list(sc.setup),
        "state_after_setup": list(setup_state) if setup_state else None,
        "plays": plays,
        "winner": None if info.get("winner") is None else (0 if info["winner"] == "X" else 1),
        "points": info.get("points-won"),
    }
    (directory / f"{sc.name}.json").write_text(json.dumps(truth, indent=1) + "\n",
                                               encoding="utf-8")
    return truth


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--regenerate`` rebuilds every file (one scenario per process)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--regenerate", action="store_true", help="rebuild every cached file")
    parser.add_argument("--only", help="generate this one scenario in this process")
    args = parser.parse_args(argv)
    if args.only:
        sc = next(s for s in SCENARIOS if s.name == args.only)
        truth = generate(sc)
        print(f"{sc.name}: {len(truth['plays'])} plays, winner {truth['winner']}",
              file=sys.stderr)
        return 0
    if not args.regenerate:
        parser.print_help()
        return 2
    for sc in SCENARIOS:
        subprocess.run([sys.executable, "-m", "tests.helpers.setup_fixtures", "--only", sc.name],
                       cwd=REPO, stdin=subprocess.DEVNULL, check=True, timeout=600)
    return 0


if __name__ == "__main__":
    sys.exit(main())
