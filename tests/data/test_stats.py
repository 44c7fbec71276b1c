"""``bgtools stats``: counts against GNU Backgammon's own record of its self-play matches,
tests that catch loaded dice, the dance counts against the rules engine, and the command's
behaviour on bad input."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.data.context import Seen
from bgtools.data.stats import (
    KINDS,
    Tally,
    add_file,
    file_tallies,
    group_json,
    keeps_dice_order,
    stats_json,
    stats_report,
)
from bgtools.engine import ids
from bgtools.engine.position import Position
from bgtools.readers.inputs import expand_paths
from bgtools.replay import Event
from bgtools.reports.files import analyse_file
from tests.helpers.paths import CORPUS, FILES, REPO
from tests.helpers.selfplay import load_cases
from tests.helpers.strategies import random_position
from tests.helpers.synthetic_matches import fair_die, loaded_die, random_match, write_archive

SELFPLAY = FILES / "selfplay"
runner = CliRunner()
CASES = load_cases()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def truth_counts(truth: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per player name, what gnubg's own record says: rolls, doubles, faces, cube actions,
    games won."""
    names = truth["players"]
    out: dict[str, dict[str, Any]] = {
        name: {"rolls": 0, "doubles": 0, "dice": Counter(), "double": 0, "take": 0,
               "drop": 0, "won": 0, "games": 0}
        for name in names}
    for game in truth["games"]:
        for name in names:
            out[name]["games"] += 1
        out[names[game["winner"]]]["won"] += 1
        for action in game["actions"]:
            mine = out[names[action["player"]]]
            if action["action"] == "move":
                d1, d2 = action["dice"]
                mine["rolls"] += 1
                mine["doubles"] += d1 == d2
                mine["dice"][d1] += 1
                mine["dice"][d2] += 1
            elif action["action"] in ("double", "take", "drop"):
                mine[action["action"]] += 1
    return out


def truth_board_counts(truth: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Per player, from gnubg's own Position IDs before and after every move: checkers hit,
    rolls made from the bar, dances and the dances expected."""
    names = truth["players"]
    out = {name: {"hits": 0, "bar_rolls": 0, "dances": 0, "expected": 0.0} for name in names}
    for game in truth["games"]:
        for action in game["actions"]:
            if action["action"] != "move":
                continue
            mine = out[names[action["player"]]]
            before = Position.from_id(action["position_id"])  # the mover's view
            if "position_id_after" in action:
                after = Position.from_id(action["position_id_after"])  # the opponent's view
                mine["hits"] += after.mover[25] - before.opponent[25]
            if before.mover[25]:
                d1, d2 = action["dice"]
                held = [q for q in range(1, 7) if before.opponent[q] >= 2]
                mine["bar_rolls"] += 1
                mine["dances"] += d1 in held and d2 in held
                mine["expected"] += (len(held) / 6) ** 2
    return out


def stats_of(paths: list[Path], by: str = "player") -> dict[str, Any]:
    tallies: dict[str, Tally] = {}
    matches = used = 0
    seen = Seen()
    for item in expand_paths([str(p) for p in paths]):
        report = stats_report(item, by=by)
        assert report.error is None and report.extra, report
        used += 1
        matches += add_file(report.extra[0], report.display, seen, tallies)
    return stats_json(tallies, by, used, 0, matches, seen.duplicates)


@pytest.mark.slow
@pytest.mark.skipif(not CASES, reason="no cached self-play matches")
@pytest.mark.parametrize("suffix", [".mat", ".sgf"])
@pytest.mark.parametrize("mat,truth", CASES, ids=[c[0].stem for c in CASES])
def test_counts_equal_gnubgs_record(mat: Path, truth: dict[str, Any], suffix: str) -> None:
    obj = stats_of([mat.with_suffix(suffix)])
    expected = truth_counts(truth)
    assert set(obj["players"]) == set(expected)
    for name, want in expected.items():
        got = obj["players"][name]
        assert got["rolls"] == want["rolls"]
        assert got["doubles"] == want["doubles"]
        assert got["dice"] == {str(f): want["dice"][f] for f in range(1, 7)}
        assert got["cube"]["doubles"] == want["double"]
        assert got["cube"]["takes"] == want["take"]
        assert got["cube"]["drops"] == want["drop"]
        assert got["games"]["played"] == want["games"]
        assert sum(got["games"]["won"].values()) == want["won"]
        assert sum(got["games"]["lost"].values()) == want["games"] - want["won"]
        assert got["opening_rolls"] + got["tested_rolls"] == got["rolls"]
        assert sum(got["kinds"].values()) == got["tested_rolls"]
    for name, want in truth_board_counts(truth).items():
        got = obj["players"][name]
        assert got["hits"] == want["hits"]
        assert got["bar_rolls"] == want["bar_rolls"]
        assert got["dances"] == want["dances"]
        assert got["expected_dances"] == pytest.approx(want["expected"])
    # gnubg writes the higher die first: no record keeps the order rolled.
    assert obj["all"]["ordered"]["rolls"] == 0
    assert obj["all"]["games"]["played"] == len(truth["games"])


@pytest.mark.skipif(not CASES, reason="no cached self-play matches")
def test_the_whole_archive_adds_up() -> None:
    mats = [mat for mat, _ in CASES]
    obj = stats_of(mats)
    want: Counter[str] = Counter()
    for _, truth in CASES:
        for name, counts in truth_counts(truth).items():
            want[name + ":rolls"] += counts["rolls"]
            want[name + ":drops"] += counts["drop"]
    for name in obj["players"]:
        assert obj["players"][name]["rolls"] == want[name + ":rolls"]
        assert obj["players"][name]["cube"]["drops"] == want[name + ":drops"]
    assert obj["all"]["rolls"] == sum(p["rolls"] for p in obj["players"].values())
    assert obj["files_read"] == len(mats) and obj["all"]["matches"] == len(mats)
    # Fair dice: nothing to see (the numbers are fixed, so this cannot flake).
    assert obj["all"]["chi_square"]["p_value"] > 0.01
    assert obj["all"]["dice_chi_square"]["p_value"] > 0.01


@pytest.mark.slow
def test_loaded_dice_get_a_tiny_p_value(tmp_path: Path) -> None:
    loaded = write_archive(tmp_path / "loaded", 4, loaded_die(), seed=100)
    fair = write_archive(tmp_path / "fair", 4, seed=100)
    bad = stats_of(loaded)["all"]
    good = stats_of(fair)["all"]
    assert bad["tested_rolls"] > 1000 and good["tested_rolls"] > 1000
    assert bad["chi_square"]["p_value"] < 1e-9
    assert bad["dice_chi_square"]["p_value"] < 1e-12
    assert int(bad["dice"]["6"]) > 1.3 * sum(bad["dice"].values()) / 6
    assert good["chi_square"]["p_value"] > 0.01
    assert good["dice_chi_square"]["p_value"] > 0.01
    # bgtools' writer keeps the order rolled: the 36 ordered outcomes are tested too.
    assert bad["ordered"]["rolls"] == bad["tested_rolls"]
    assert bad["ordered"]["chi_square"]["p_value"] < 1e-6
    assert good["ordered"]["chi_square"]["p_value"] > 0.01


def test_one_loaded_die_is_seen_in_the_order_rolled(tmp_path: Path) -> None:
    """The first die favours 1 and 6 (symmetrically: as often high-first as low-first, so
    the record still counts as keeping the order rolled), the second die is fair: the
    first die's faces show it, the second's do not."""
    ends = loaded_die((0.3, 0.1, 0.1, 0.1, 0.1, 0.3))
    archive = write_archive(tmp_path / "a", 4, ends, seed=11, second=fair_die)
    ordered = stats_of(archive)["all"]["ordered"]
    assert ordered["rolls"] > 1000
    assert sum(ordered["first_die"].values()) == sum(ordered["second_die"].values()) \
        == ordered["rolls"]
    assert ordered["first_die_chi_square"]["p_value"] < 1e-9
    assert ordered["second_die_chi_square"]["p_value"] > 0.01


def test_order_detection() -> None:
    def events(pairs: list[tuple[int, int]]) -> list[Any]:
        class E:
            def __init__(self, dice: tuple[int, int]) -> None:
                self.dice = dice
        return [E(d) for d in pairs]

    assert not keeps_dice_order(events([(6, 2), (5, 1), (4, 4), (3, 2)] * 10))  # sorted
    assert not keeps_dice_order(events([(2, 6), (1, 5)] * 10))  # sorted low-first
    assert keeps_dice_order(events([(6, 2), (1, 5), (3, 4), (5, 2)] * 10))
    # Mostly high-first with a few exceptions: a convention, not the order rolled.
    assert not keeps_dice_order(events([(6, 2)] * 60 + [(2, 6)] * 5))
    assert not keeps_dice_order(events([]))


def test_order_of_real_records() -> None:
    # FIBS: dice in the order rolled; no licence allows shipping it, so from the shared corpus.
    fibs = CORPUS / "fibs" / "willvlc-nori-2009Mar021903.txt"
    if not fibs.exists():
        pytest.skip("the FIBS record is only in the shared corpus")
    result = analyse_file(str(fibs), fibs, keep_events=True)
    assert keeps_dice_order(result.events[0])
    if CASES:
        mat = CASES[0][0]
        result = analyse_file(str(mat), mat, keep_events=True)
        assert not keeps_dice_order(result.events[0])  # gnubg sorts


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_dances_agree_with_the_rules_engine(seed: int) -> None:
    """A roll from the bar dances exactly when the engine finds no legal play, and the
    expected dances ((closed/6)**2) are the fraction of the 36 rolls that dance."""
    position = random_position(random.Random(seed), "bar")
    if not position.mover[25]:
        return
    state = ids.MatchState(match_length=0, score=(0, 0), cube_value=1, cube_owner=None,
                           on_roll=0, crawford=False, game_state=ids.GameState.PLAYING,
                           turn=0)
    tally = Tally()
    dancing = 0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            plays = position.legal_plays(d1, d2)
            no_play = len(plays) == 1 and not plays[0].steps
            dancing += no_play
            before = tally.dances[:]
            event = Event(1, 0, None, 0, "move", (d1, d2), plays[0], position, state)
            tally.add_roll(event, opening=False, keeps_order=False)
            assert (tally.dances != before) == no_play, (position, d1, d2)
    obj = group_json(tally)
    assert obj["bar_rolls"] == 36 and obj["dances"] == dancing
    assert obj["expected_dances"] == pytest.approx(dancing)


def test_groups_by_site_and_file(tmp_path: Path) -> None:
    a = tmp_path / "a.mat"
    b = tmp_path / "b.mat"
    a.write_text(random_match(1, site="Club A"), encoding="utf-8")
    b.write_text(random_match(2, names=("carol", "alice"), site="Club B"), encoding="utf-8")
    by_player = stats_of([a, b])
    assert set(by_player["players"]) == {"alice", "bob", "carol"}
    assert by_player["players"]["alice"]["matches"] == 2
    by_site = stats_of([a, b], by="site")
    assert set(by_site["sites"]) == {"Club A", "Club B"}
    by_file = stats_of([a, b], by="file")
    assert set(by_file["files"]) == {str(a), str(b)}
    for obj in (by_site, by_file):
        groups = obj["sites" if "sites" in obj else "files"]
        assert sum(g["rolls"] for g in groups.values()) == by_player["all"]["rolls"]
        assert groups[next(iter(groups))]["games"]["won"] is None  # no side per group
    games = by_player["all"]["games"]["played"]
    assert games == sum(g["games"]["played"] for g in by_site["sites"].values())
    assert by_player["players"]["alice"]["games"]["played"] == games  # alice played all


def test_cube_beavers_and_resignations(tmp_path: Path) -> None:
    text = """ 0 point match

 Game 1
 Alice : 0                      Bob : 0
  1)                             54: 13/8 24/20 
  2)  Doubles => 2                Beavers => 4
  3) 65: 24/18 18/13             42: 24/20 13/11 
                                  Wins 4 points

 Game 2
 Alice : 0                      Bob : 4
  1) 52: 13/8 24/22               Doubles => 2
  2)  Drops                       Wins 1 point 
"""
    path = tmp_path / "money.mat"
    path.write_text(text, encoding="utf-8")
    obj = stats_of([path])
    alice, bob = obj["players"]["Alice"], obj["players"]["Bob"]
    assert alice["cube"] == {"doubles": 1, "takes": 0, "drops": 1, "beavers": 0, "raccoons": 0,
                             "highest": 4}
    assert bob["cube"] == {"doubles": 1, "takes": 0, "drops": 0, "beavers": 1, "raccoons": 0,
                           "highest": 4}
    assert alice["games"]["resigned"] == 1  # game 1: she resigned after Bob's roll
    assert bob["games"]["won"] == {"single": 2, "gammon": 0, "backgammon": 0}
    assert obj["all"]["games"]["ended_by"] == {"bearoff": 0, "drop": 1, "resign": 1}


def raccoons_written(text: str) -> Counter[str]:
    """Per player name, the ``Raccoons`` cells of a .mat text: a cell left of the second
    name on its game's score line is the first player's."""
    out: Counter[str] = Counter()
    names: list[str] = []
    boundary = 0
    for line in text.splitlines():
        score = re.match(r"\s*(\S.*?)\s*:\s*\d+\s+(\S.*?)\s*:\s*\d+\s*$", line)
        if score:
            names = [score.group(1), score.group(2)]
            boundary = line.index(score.group(2), score.end(1) + 1)
            continue
        for cell in re.finditer(r"Raccoons", line):
            out[names[0] if cell.start() < boundary else names[1]] += 1
    return out


def test_raccoons_are_counted_per_player() -> None:
    path = FILES / "money_raccoons.mat"
    written = raccoons_written(path.read_text(encoding="utf-8"))
    assert sum(written.values()) >= 2 and len(written) == 2  # one by each player
    obj = stats_of([path])
    for name, player in obj["players"].items():
        assert player["cube"]["raccoons"] == written[name]
        # each raccoon answers a beaver of the other player, who answered a double
        assert player["cube"]["beavers"] == written[next(n for n in written if n != name)]
    assert obj["all"]["cube"]["raccoons"] == sum(written.values())
    by_site = stats_of([path], by="site")
    assert [g["cube"]["raccoons"] for g in by_site["sites"].values()] == [sum(written.values())]


def test_an_invalid_raccoon_counts_once(tmp_path: Path) -> None:
    # A raccoon answering a plain double is a problem (cube-answer): the replay gives it an
    # event, the record a cell; kept by --include-invalid, it is counted once.
    text = """ 0 point match

 Game 1
 Alice : 0                      Bob : 0
  1)                             54: 13/8 24/20 
  2)  Doubles => 2                Raccoons => 4
"""
    path = tmp_path / "bad.mat"
    path.write_text(text, encoding="utf-8")
    (item,) = expand_paths([str(path)])
    report = stats_report(item, include_invalid=True)
    assert report.valid is False and report.extra
    ((_print, _number, tallies),) = report.extra[0]["matches"]
    assert tallies["Bob"].raccoons == raccoons_written(text)["Bob"] == 1
    assert tallies["Alice"].raccoons == 0


# --- the command ----------------------------------------------------------------------------


@pytest.mark.skipif(not CASES, reason="no cached self-play matches")
def test_stats_json_contract() -> None:
    code, out, err = run("stats", str(CASES[0][0]), "--json", "-j", "1")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["schema"] == "bgtools/1" and obj["kind"] == "stats" and obj["by"] == "player"
    player = next(iter(obj["players"].values()))
    for key in ("rolls", "doubles", "dice", "chi_square", "dances", "expected_dances", "cube"):
        assert key in player
    assert set(player["dice"]) == {"1", "2", "3", "4", "5", "6"}
    assert set(player["chi_square"]) == {"statistic", "dof", "p_value"}
    assert set(player["cube"]) >= {"doubles", "takes", "drops", "beavers", "raccoons"}
    assert list(player["kinds"]) == list(KINDS)


def test_stats_tables_for_people(tmp_path: Path) -> None:
    path = tmp_path / "m.mat"
    path.write_text(random_match(3), encoding="utf-8")
    code, out, _ = run("stats", str(path))
    assert code == 0
    assert "alice" in out and "bob" in out and "dances" in out


def test_stats_table_shows_raccoons() -> None:
    path = FILES / "money_raccoons.mat"
    written = raccoons_written(path.read_text(encoding="utf-8"))
    code, out, _ = run("stats", str(path))
    assert code == 0
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("The cube"))
    header = lines[start + 2]
    assert "raccooned" in header
    column = [c.strip() for c in header.strip("┃").split("┃")].index("raccooned")
    for name, count in written.items():
        row = next(line for line in lines[start:] if line.strip("│").startswith(name))
        assert row.strip("│").split("│")[column].strip() == str(count)


def test_stats_skips_invalid_files_with_a_note(tmp_path: Path) -> None:
    good = tmp_path / "good.mat"
    good.write_text(random_match(4), encoding="utf-8")
    text = good.read_text()
    lines = text.splitlines(keepends=True)
    row = next(i for i, line in enumerate(lines) if line.strip().startswith("3)"))
    cells = lines[row].split(":")
    lines[row] = cells[0] + ": 13/1" + "\n"  # an impossible play
    bad = tmp_path / "bad.mat"
    bad.write_text("".join(lines), encoding="utf-8")
    code, out, err = run("stats", str(good), str(bad), "--json", "-j", "1")
    assert code == 1
    assert "bad.mat: skipped" in err and "--include-invalid" in err
    obj = json.loads(out)
    assert obj["files_read"] == 1 and obj["files_skipped"] == 1
    code, out, err = run("stats", str(good), str(bad), "--json", "--include-invalid")
    assert code == 1 and "skipped" not in err
    assert json.loads(out)["files_read"] == 2
    code, out, err = run("stats", str(bad), "--json")
    assert code == 1 and out == "" and "no match file to use" in err


@pytest.mark.parametrize("args", [
    ("stats", "/nonexistent/x.mat"),
    ("stats", "/nonexistent/x.mat", "--json"),
    ("stats", str(FILES), "--by", "country"),
    ("stats", str(FILES), "--plot", "out.gif"),
    ("stats", str(FILES), "--rules", "nonsense"),
])
def test_stats_bad_input_is_one_line(args: tuple[str, ...]) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert "Traceback" not in out + err
    assert out == "" or "Usage" in out + err


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_stats_plot(tmp_path: Path, suffix: str) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "m.mat"
    path.write_text(random_match(5), encoding="utf-8")
    image = tmp_path / ("rolls" + suffix)
    code, _, err = run("stats", str(path), "--plot", str(image))
    assert code == 0, err
    data = image.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data[:2000]
    code, _, err = run("stats", str(path), "--plot", str(image))
    assert code == 2 and "exists" in err and image.read_bytes() == data
    code, _, _ = run("stats", str(path), "--plot", str(image), "--force")
    assert code == 0


@pytest.mark.parametrize("args, panels", [
    (("--by", "file", "samples/example_gnubg.mat"), 1),
    (("samples/example_gnubg.mat",), 3),  # everything, then Alice and Bob
    (("samples",), 5),
])
def test_plot_titles_and_legend_cover_nothing(args: tuple[str, ...], panels: int) -> None:
    # The figure's title was drawn over the first panel's title (with matplotlib 3.7's
    # tight_layout), and the legend, inside the first panel, over its bars.
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt
    from matplotlib.text import Text

    from bgtools.data.plot import plot_figure

    paths = [str(REPO / a) if a.startswith("samples") else a for a in args]
    code, out, err = run("stats", "--json", *paths)
    assert code == 0, err
    figure = plot_figure(json.loads(out))
    try:
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        (title,) = [t.get_window_extent(renderer) for t in figure.get_children()
                    if isinstance(t, Text) and t.get_text() == figure.get_suptitle()]
        legend = figure.legends[0].get_window_extent(renderer)
        axes = figure.get_axes()
        assert len(axes) == panels
        for panel in axes:
            head = panel.title.get_window_extent(renderer)
            assert not title.overlaps(head) and not legend.overlaps(head)
            assert not title.overlaps(panel.get_window_extent(renderer))
            for bar in panel.patches:
                assert not legend.overlaps(bar.get_window_extent(renderer))
            assert not legend.overlaps(panel.get_window_extent(renderer))
    finally:
        plt.close(figure)


def test_position_helpers_used_by_the_dance_count() -> None:
    # The opponent's home-board point d (his numbering) is where the mover enters with d.
    pos = Position.from_points({25: 1, 13: 14}, {1: 2, 2: 2, 6: 3, 24: 8})
    tally = Tally()
    state = ids.MatchState(match_length=0, score=(0, 0), cube_value=1, cube_owner=None,
                           on_roll=0, crawford=False, game_state=ids.GameState.PLAYING, turn=0)
    for dice in ((1, 2), (6, 6), (1, 3)):
        tally.add_roll(Event(1, 0, None, 0, "move", dice, None, pos, state), False, False)
    assert tally.bar_rolls[3] == 3 and tally.dances[3] == 2
    assert group_json(tally)["expected_dances"] == pytest.approx(3 * 0.25)


_TALLIES: list[dict[str, Tally]] = []


def _file_tallies_once() -> list[dict[str, Tally]]:
    """Tallies of three small random matches, made once for the property below."""
    if not _TALLIES:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            for seed in (21, 22, 23):
                path = Path(tmp) / f"m{seed}.mat"
                path.write_text(random_match(seed, length=1), encoding="utf-8")
                result = analyse_file(str(path), path, keep_events=True)
                _TALLIES.append(file_tallies(result.replays, result.events, "player",
                                             str(path)))
    return _TALLIES


@settings(max_examples=30, deadline=None)
@given(st.permutations([0, 1, 2]))
def test_merging_is_order_free_and_counts_add_up(order: list[int]) -> None:
    per_file = _file_tallies_once()

    def merged(indices: list[int]) -> dict[str, Any]:
        tallies: dict[str, Tally] = {}
        for i in indices:
            for name, tally in per_file[i].items():
                copy = Tally()
                copy.merge(tally)
                tallies.setdefault(name, Tally()).merge(copy)
        return stats_json(tallies, "player", len(indices), 0, len(indices))

    obj = merged(order)
    assert obj == merged([0, 1, 2])
    for group in [*obj["players"].values(), obj["all"]]:
        assert sum(group["kinds"].values()) == group["tested_rolls"]
        assert sum(group["ordered"]["outcomes"].values()) == group["ordered"]["rolls"]
        assert sum(group["dice"].values()) == 2 * group["rolls"]
        assert group["dances"] <= group["bar_rolls"]
        assert sum(c["rolls"] for c in group["bar_by_closed_points"]) == group["bar_rolls"]


def test_the_dice_table_counts_and_rates_over_one_base() -> None:
    # example_gnubg.mat: Alice rolls 23 times, 3 of them the opening roll of a game; the
    # table showed 23 rolls beside 10 doubles at 50.0% (10 of the other 20).
    example = REPO / "samples" / "example_gnubg.mat"
    code, out, _ = run("stats", "--json", str(example))
    groups = json.loads(out)["players"]
    result = runner.invoke(app, ["stats", str(example)], env={"COLUMNS": "120", "NO_COLOR": "1"})
    assert code == 0 and result.exit_code == 0
    out = result.stdout
    lines = out.splitlines()
    assert "opening" in lines[0]  # the base is stated in the title
    header = [c.strip() for c in lines[2].strip("┃").split("┃")]
    checked = 0
    for line in lines[4:lines.index(next(x for x in lines if x.startswith("└")))]:
        cells = [c.strip() for c in line.strip("│").split("│")]
        if cells[0] not in groups:
            continue
        group = groups[cells[0]]
        rolls = int(cells[header.index("rolls")])
        count, percent = cells[header.index("doubles")].split()
        assert rolls == group["tested_rolls"] != group["rolls"]
        assert int(count) == group["tested_doubles"]
        assert percent == f"{int(count) / rolls:.1%}"
        checked += 1
    assert checked == 2
