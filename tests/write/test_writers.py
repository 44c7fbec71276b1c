"""The .mat and SGF writers against GNU Backgammon's own files and loaders.

* byte for byte: gnubg's ``export match mat`` (self-play cache, FORMATS.md examples) from
  the .mat and from gnubg's ``save match`` SGF of the same match; gnubg's SGF written back;
* same tree: our SGF of a .mat against gnubg's SGF of the same match (analysis aside);
* round trips: every corpus match bgtools reads as valid, written as .mat and as SGF and
  read back, replays to the same games, positions, cube actions, results and score;
* loaders: Debian's gnubg (``/usr/games/gnubg``) loads our SGF to the same match, and the
  gnubg module imports our normalised .mat to the same final score.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bgtools.errors import BgtoolsError
from bgtools.readers.detect import load_file, read_records
from bgtools.readers.mat import parse_mat
from bgtools.readers.sgf import parse_collection, parse_sgf
from bgtools.readers.xg import RECORD_SIZE, read_game_file
from bgtools.record import MatchRecord
from bgtools.replay import Event, MatchReplay, profile_for, replay_match
from bgtools.write.mat import UnwritableRecordError, normalise_match, write_mat
from bgtools.write.sgf import APPLICATION, write_sgf
from tests.helpers.paths import CORPUS_IN_USE, FILES, SAMPLE_XG, at_least
from tests.helpers.selfplay import DATA as SELFPLAY

DEBIAN_GNUBG = Path("/usr/games/gnubg")


def _selfplay(suffix: str) -> list[Path]:
    return sorted(SELFPLAY.glob(f"*{suffix}"))


def _record(path: Path) -> MatchRecord:
    records = load_file(path).records
    assert len(records) == 1, path
    return records[0]


Fingerprint = tuple[list[Any], list[Any], tuple[int, int]]


def _fingerprint(record: MatchRecord,
                 keep: list[Any] | None = None) -> tuple[bool, Fingerprint]:
    """Validity, and per game (score, winner, points, how, level), per action (game, kind,
    player, roll, Position ID after), the final score. ``keep`` receives the replay and
    its events (a writer can take them instead of replaying again)."""
    events: list[Event] = []
    replay = replay_match(record, on_event=events.append)
    if keep is not None:
        keep.extend((replay, events))
    games = [(g.score_before, g.winner, g.points, g.ended_by, g.result) for g in replay.games]
    actions = [(e.game, e.action, e.player, tuple(sorted(e.dice)) if e.dice else None,
                e.position_after.position_id if e.position_after is not None else None)
               for e in events]
    return replay.valid, (games, actions, replay.final_score)


# --- byte for byte against gnubg ----------------------------------------------------------------


def test_selfplay_cache_has_gnubg_sgf() -> None:
    mats = _selfplay(".mat")
    if not mats:
        pytest.skip("self-play cache not generated")
    assert [p.stem for p in mats] == [p.stem for p in _selfplay(".sgf")]


def _gnubg_mat_files(examples: Path) -> list[Path]:
    return _selfplay(".mat") + [examples / "example.mat", examples / "money.mat"]


def test_mat_to_mat_is_gnubgs_export(examples: Path) -> None:
    files = _gnubg_mat_files(examples)
    for path in files:
        assert write_mat(_record(path)) == path.read_text(encoding="utf-8"), path
    assert len(files) >= 16


def test_sgf_to_mat_is_gnubgs_export(examples: Path) -> None:
    files = _selfplay(".sgf") + [examples / "example.sgf", examples / "money.sgf"]
    for path in files:
        expected = path.with_suffix(".mat").read_text(encoding="utf-8")
        assert write_mat(_record(path)) == expected, path


def test_sgf_to_sgf_is_byte_identical(examples: Path) -> None:
    files = _selfplay(".sgf") + [examples / "example.sgf", examples / "money.sgf"]
    for path in files:
        assert write_sgf(_record(path)) == path.read_text(encoding="utf-8"), path


def test_dialect_spellings_normalise_to_gnubgs_file(examples: Path) -> None:
    # BOM, CRLF, bar/off words, (2), 'Cannot Move' and a merged double 20/14(2) 13/1:
    # each step written once per die, in the order written.
    variant = _record(examples / "variant.mat")
    assert write_mat(variant) == (examples / "example.mat").read_text(encoding="utf-8")


def test_steps_keep_the_written_order() -> None:
    text = (" 1 point match\n\n Game 1\n a : 0                          b : 0\n"
            "  1) 21: 6/5 13/11               64: 24/14*\n")
    out = write_mat(parse_mat(text)[0])
    assert "  1) 21: 6/5 13/11 " in out
    # A merged segment becomes one step per die, the hit on the first landing point.
    assert "64: 24/18 18/14* \n" in out


def test_games_after_the_match_are_left_out(examples: Path) -> None:
    text = (examples / "example.mat").read_text(encoding="utf-8")
    extra = " Game 5\n Alice : 2                      Bob : 4\n  1) 52: 13/8 24/22\n"
    record = parse_mat(text + extra)[0]
    assert write_mat(record) == text


def _skeleton(text: str, drop_rules: bool = False) -> list[Any]:
    trees, problems = parse_collection(text)
    assert not problems
    out: list[Any] = []
    for tree in trees:
        root = [(p.name, p.values) for p in tree.nodes[0].props
                if p.name not in ("AP", "GS") and not (drop_rules and p.name == "RU")]
        nodes = [[(p.name, p.values) for p in node.props if p.name in ("W", "B", "PL", "DI")]
                 for node in tree.nodes[1:]]
        out.append((root, nodes))
    return out


def test_mat_to_sgf_is_gnubgs_tree(examples: Path) -> None:
    files = _gnubg_mat_files(examples)
    for path in files:
        record = _record(path)
        ours = write_sgf(record)
        assert f"AP[{APPLICATION}]" in ours
        # A money .mat does not say whether the Jacoby rule was played; without evidence
        # the writer, like gnubg's importer, assumes gnubg's default (on).
        unknown_jacoby = record.match_length == 0 and record.tag("Jacoby") is None
        expected = path.with_suffix(".sgf").read_text(encoding="utf-8")
        assert _skeleton(ours, unknown_jacoby) == _skeleton(expected, unknown_jacoby), path


# --- round trips over the corpus ----------------------------------------------------------------


@dataclass
class CorpusMatch:
    """A corpus match bgtools reads as valid, with its replay, events and fingerprint."""

    path: Path
    record: MatchRecord
    replay: MatchReplay
    events: list[Event]
    fingerprint: Fingerprint


def _valid_corpus_records(corpus: Path) -> list[CorpusMatch]:
    out: list[CorpusMatch] = []
    for path in sorted(corpus.rglob("*")):
        if not path.is_file() or path.suffix.lower() not in (".mat", ".txt", ".sgf"):
            continue
        try:
            loaded = load_file(path)
        except BgtoolsError:  # not a record bgtools reads: nothing to write
            loaded = None
        for record in loaded.records if loaded is not None else []:
            kept: list[Any] = []
            valid, fingerprint = _fingerprint(record, kept)
            if valid:
                out.append(CorpusMatch(path, record, kept[0], kept[1], fingerprint))
    return out


@pytest.fixture(scope="module")
def corpus_records(corpus: Path) -> list[CorpusMatch]:
    return _valid_corpus_records(corpus)


@pytest.mark.slow
@pytest.mark.parametrize("writer", [write_mat, write_sgf], ids=["mat", "sgf"])
def test_corpus_round_trip(writer: Any, corpus_records: list[CorpusMatch]) -> None:
    written = 0
    for match in corpus_records:
        path = match.path
        try:
            text = writer(match.record, match.replay, match.events)
        except UnwritableRecordError:
            assert writer is write_sgf and "Illegal play" in path.read_text(errors="replace")
            continue
        back = read_records(text.encode("utf-8")).records
        assert len(back) == 1, path
        valid_back, after = _fingerprint(back[0])
        assert valid_back, (path, back[0].problems[:3])
        assert after == match.fingerprint, path
        written += 1
    assert written >= len(corpus_records) - 1 and written > at_least(CORPUS_IN_USE, 150, 10)


def test_snowie_illegal_play_is_kept_in_mat_and_refused_in_sgf(corpus: Path) -> None:
    path = corpus / "gnubg" / "Nori-Kenji081229.txt"
    if not path.is_file():
        pytest.skip("Snowie sample not in the corpus")
    record = _record(path)
    text = write_mat(record)
    assert "11: Illegal play (25;0;1;0;0;Kenji;nori;" in text
    with pytest.raises(UnwritableRecordError):
        write_sgf(record)


def test_unreplayable_roll_is_refused() -> None:
    text = " 1 point match\n\n Game 1\n a : 0                          b : 0\n  1) 31: 6/1\n"
    with pytest.raises(UnwritableRecordError):
        write_mat(parse_mat(text)[0])


def test_sgf_header_from_mat_tags() -> None:
    text = ('; [Site "Club"]\n; [Event "Cup"]\n; [Round "Final"]\n; [EventDate "2020.02.24"]\n'
            '; [Transcriber "Tom"]\n; first line\n; second\n\n 1 point match\n\n Game 1\n'
            ' a : 0                          b : 0\n'
            '  1) 31: 8/5 6/5                  Doubles => 2\n'
            '  2)  Drops                       Wins 1 point \n')
    record = parse_mat(text)[0]
    sgf = write_sgf(record)
    assert sgf.startswith(f"(;FF[4]GM[6]CA[UTF-8]AP[{APPLICATION}]MI[length:1][game:0][ws:0]"
                          "[bs:0]PW[a]PB[b]DT[2020-02-24]EV[Cup]RO[Final]PC[Club]AN[Tom]"
                          "GC[first line\nsecond\n]RE[B+1]\n;W[31hefe]\n;B[double]\n"
                          ";W[drop])\n")  # no RU[Crawford] in a 1-point match, as gnubg
    mat = write_mat(record)
    assert mat.startswith('; [Site "Club"]\n; [Event "Cup"]\n; [Round "Final"]\n'
                          '; [EventDate "2020.02.24"]\n; [Transcriber "Tom"]\n\n; first line\n'
                          '; second\n\n 1 point match\n')
    # The SGF's properties come back into .mat form.
    assert write_mat(parse_sgf(sgf)[0]) == mat


def test_score_line_pads_by_bytes_and_keeps_long_names_apart() -> None:
    text = (" 1 point match\n\n Game 1\n Kévin : 0                      b : 0\n"
            "  1) 31: 8/5 6/5                  Doubles => 2\n"
            "  2)  Drops                       Wins 1 point \n")
    out = write_mat(parse_mat(text)[0])
    assert " Kévin : 0                     b : 0\n" in out  # 31 bytes, like C's %-31s
    long_names = text.replace("Kévin", "Somebody With A Very Long Name")
    out = write_mat(parse_mat(long_names)[0])
    assert " Somebody With A Very Long Name : 0  b : 0\n" in out
    assert _fingerprint(parse_mat(out)[0])[0]


def test_events_can_be_passed_in(examples: Path) -> None:
    record = _record(examples / "example.mat")
    events: list[Event] = []
    replay = replay_match(record, on_event=events.append)
    script = normalise_match(record, replay, events)
    assert [len(g.moves) for g in script.games] == [7, 10, 29, 5]
    assert write_mat(record, replay, events) == write_mat(record)


# --- GNU Backgammon loads what we write ----------------------------------------------------------


def _debian_gnubg_export(tmp_path: Path, texts: list[str]) -> list[Path | None]:
    """Load each SGF text into Debian's gnubg and ``export match mat`` it."""
    commands = ["set confirm new off", "set confirm save off"]
    outputs: list[Path] = []
    for i, text in enumerate(texts):
        sgf = tmp_path / f"{i}.sgf"
        sgf.write_text(text, encoding="utf-8")
        mat = tmp_path / f"{i}.mat"
        outputs.append(mat)
        commands += [f"load match {sgf}", f"export match mat {mat}"]
    script = tmp_path / "commands"
    script.write_text("\n".join(commands) + "\n", encoding="utf-8")
    subprocess.run([str(DEBIAN_GNUBG), "-t", "-q", "-r", "-c", str(script)],
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=600, check=False)
    return [m if m.is_file() else None for m in outputs]


@pytest.fixture(scope="module")
def debian_gnubg() -> Path:
    if not DEBIAN_GNUBG.is_file():
        pytest.skip("Debian's gnubg (/usr/games/gnubg) is not installed")
    return DEBIAN_GNUBG


def _house_rule_gnubg_lacks(record: MatchRecord, replay: MatchReplay) -> bool:
    """A site's house rule GNU Backgammon cannot record: a game resigned for more than 3
    times the cube (a match resignation), or a nominal length read as a money session."""
    return replay.match_length != (record.match_length or 0) or any(
        g.ended_by == "resign" and g.points is not None and g.points > 3 * g.cube
        for g in replay.games)


@pytest.mark.slow
def test_debian_gnubg_loads_our_sgf(debian_gnubg: Path, tmp_path: Path, examples: Path,
                                    corpus_records: list[CorpusMatch]) -> None:
    matches: list[tuple[Path, MatchRecord, Fingerprint, str]] = []
    for path in _gnubg_mat_files(examples):
        record = _record(path)
        matches.append((path, record, _fingerprint(record)[1], write_sgf(record)))
    for match in corpus_records:
        if _house_rule_gnubg_lacks(match.record, match.replay):
            continue
        try:
            text = write_sgf(match.record, match.replay, match.events)
        except UnwritableRecordError:
            continue
        matches.append((match.path, match.record, match.fingerprint, text))
    exported = _debian_gnubg_export(tmp_path, [text for *_, text in matches])
    for (path, _, fingerprint, _), mat in zip(matches, exported):
        assert mat is not None, f"gnubg did not load our SGF of {path}"
        back = read_records(mat.read_bytes()).records
        assert len(back) == 1, path
        assert _fingerprint(back[0])[1] == fingerprint, path
    assert len(matches) > at_least(CORPUS_IN_USE, 150, 20)


@pytest.mark.slow
def test_gnubg_imports_our_mat_to_the_same_score(
        gnubg: ModuleType, tmp_path: Path,
        corpus_records: list[CorpusMatch]) -> None:
    compared = 0
    for index, match in enumerate(corpus_records):
        path, record, replay = match.path, match.record, match.replay
        if record.match_length == 0:
            continue  # gnubg applies its own Jacoby default to imported sessions
        if _house_rule_gnubg_lacks(record, replay):
            continue
        target = tmp_path / f"{index}.mat"
        target.write_text(write_mat(record, replay, match.events), encoding="utf-8")
        gnubg.command(f"import mat {target}")
        gnu_games = gnubg.match()["games"]
        assert len(gnu_games) == len(replay.games), path
        for mine, theirs in zip(replay.games, gnu_games):
            info = theirs["info"]
            assert list(mine.score_before) == [info["score-X"], info["score-O"]], path
            if info.get("winner") is None:
                assert mine.ended_by is None, path
                continue
            assert mine.winner == (0 if info["winner"] == "X" else 1), (path, mine.number)
            assert mine.points == info["points-won"], (path, mine.number)
        last = gnu_games[-1]["info"]
        final = [last["score-X"], last["score-O"]]
        if last.get("winner") is not None:
            final[0 if last["winner"] == "X" else 1] += last["points-won"]
        assert tuple(final) == replay.final_score, path
        compared += 1
    assert compared > at_least(CORPUS_IN_USE, 100, 8)


def test_sgf_results_are_recomputed_when_wrong(examples: Path) -> None:
    original = (examples / "example.sgf").read_text(encoding="utf-8")
    broken = original.replace("RE[W+1]", "RE[W+5]", 1).replace("RE[B+2R]", "RE[B+2]", 1)
    assert broken != original
    assert write_sgf(parse_sgf(broken)[0]) == original


@pytest.mark.slow
def test_corpus_gnubg_sgf_byte_for_byte(full_corpus: Path) -> None:
    # Real gnubg files (1.0x, analysed: A, DA, LU, GS, comments): written back unchanged,
    # and the one that has its .mat export beside it gives that .mat.
    corpus = full_corpus
    files = sorted((corpus / "gnubg").glob("*.sgf"))
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert "".join(write_sgf(r) for r in parse_sgf(text)) == text, path
    pair = corpus / "gnubg" / "charlot1-charlot2_7p_2025-11-08-2305"
    if pair.with_suffix(".mat").is_file():
        expected = pair.with_suffix(".mat").read_text(encoding="utf-8")
        assert write_mat(_record(pair.with_suffix(".sgf"))) == expected
        assert write_mat(_record(pair.with_suffix(".mat"))) == expected
    assert len(files) >= 6


# --- the money session's rules: Jacoby and beavers ----------------------------------------------


def _rules(record: MatchRecord) -> tuple[str | None, str | None, bool | None, bool]:
    profile = profile_for(record)
    return record.tag("Jacoby"), record.tag("Beaver"), profile.jacoby, profile.beavers


def _session(jacoby: str, beaver: str) -> MatchRecord:
    """``tests/files/money_raccoons.mat`` (a beaver and a raccoon) under the rules given."""
    text = (FILES / "money_raccoons.mat").read_text(encoding="utf-8")
    text = text.replace('; [Beaver "On"]\n', f'; [Jacoby "{jacoby}"]\n; [Beaver "{beaver}"]\n')
    return parse_mat(text)[0]


def _verdict(record: MatchRecord) -> list[str]:
    return sorted(p.rule for p in replay_match(record).problems)


@pytest.mark.parametrize("jacoby", ["On", "Off"])
@pytest.mark.parametrize("beaver", ["On", "Off"])
def test_jacoby_and_beaver_survive_mat_and_sgf(jacoby: str, beaver: str) -> None:
    """Both rules come back from our .mat (XG's header tags) and our SGF (``RU``: gnubg's
    ``Jacoby``; ``Beaver``/``NoBeaver``, bgtools' names, which gnubg skips), and so does the
    verdict: with beavers off the beaver is an error in every form."""
    record = _session(jacoby, beaver)
    assert _rules(record)[:2] == (jacoby, beaver)
    mat = write_mat(record)
    assert f'; [Jacoby "{jacoby}"]\n; [Beaver "{beaver}"]\n' in mat
    sgf = write_sgf(record)
    ru = sgf.split("RU[", 1)[1].split("]", 1)[0].split(":")
    assert ("Jacoby" in ru) == (jacoby == "On")
    assert ru[-1] == ("Beaver" if beaver == "On" else "NoBeaver")
    expected = _verdict(record)
    assert ("beaver-not-allowed" in expected) == (beaver == "Off")
    for back in (parse_mat(mat)[0], parse_sgf(sgf)[0], parse_mat(write_mat(parse_sgf(sgf)[0]))[0],
                 parse_sgf(write_sgf(parse_mat(mat)[0]))[0]):
        assert _rules(back) == _rules(record)
        assert _verdict(back) == expected


def test_an_sgf_without_a_beaver_rule_states_none() -> None:
    """gnubg writes no beaver rule: its files leave it to the profile (beavers allowed)."""
    record = parse_mat((FILES / "money_raccoons.mat").read_text(encoding="utf-8").replace(
        '; [Beaver "On"]\n', ""))[0]
    back = parse_sgf(write_sgf(record))[0]
    assert back.tag("Beaver") is None and profile_for(back).beavers
    assert "Beaver" not in write_sgf(record)


def test_xg_session_rules_survive_conversion() -> None:
    """XG's match header (Jacoby on, beavers off, ``tests/files/xg``) through .mat and SGF."""
    path = SAMPLE_XG
    header = read_game_file(path.read_bytes())[:RECORD_SIZE]
    xg = load_file(path).records[0]
    assert _rules(xg)[:2] == tuple("On" if header[at] else "Off" for at in (101, 102))
    for text in (write_mat(xg), write_sgf(xg)):
        assert _rules(read_records(text.encode()).records[0]) == _rules(xg)


def test_debian_gnubg_loads_our_sgf_with_beaver_rules(debian_gnubg: Path,
                                                      tmp_path: Path) -> None:
    """gnubg skips the rule names it does not know: our SGF with ``NoBeaver`` and with
    ``Beaver`` loads to the same match as our .mat says."""
    xg = load_file(SAMPLE_XG).records[0]
    texts = [write_sgf(xg), write_sgf(xg).replace(":NoBeaver]", ":Beaver]")]
    assert all("Beaver]" in text for text in texts)
    expected = _fingerprint(xg)[1]
    for mat in _debian_gnubg_export(tmp_path, texts):
        assert mat is not None, "gnubg did not load our SGF"
        assert _fingerprint(read_records(mat.read_bytes()).records[0])[1] == expected
