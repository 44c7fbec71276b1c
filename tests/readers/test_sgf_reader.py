"""The GNU Backgammon SGF reader: agreement with .mat, the corpus, robustness."""

from __future__ import annotations

import string
from pathlib import Path
from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgtools.readers.detect import detect_format, read_records
from bgtools.readers.mat import parse_mat
from bgtools.readers.sgf import looks_like_sgf, parse_collection, parse_sgf
from bgtools.record import MatchRecord, Severity
from bgtools.replay import Event, MatchReplay, replay_match

Trace = list[tuple[int, int, str, tuple[int, int] | None, object, object]]


def _replay(record: MatchRecord) -> tuple[MatchReplay, Trace]:
    trace: Trace = []

    def on_event(ev: Event) -> None:
        trace.append((ev.game, ev.player, ev.action, ev.dice, ev.position_before,
                      ev.position_after))

    return replay_match(record, on_event=on_event), trace


def _one(text: str, reader: str) -> MatchRecord:
    records = parse_sgf(text) if reader == "sgf" else parse_mat(text)
    assert len(records) == 1
    return records[0]


@pytest.mark.parametrize("name", ["example", "money"])
def test_examples_agree_with_mat(examples: Path, name: str) -> None:
    sgf = _one((examples / f"{name}.sgf").read_text(encoding="utf-8"), "sgf")
    mat = _one((examples / f"{name}.mat").read_text(encoding="utf-8"), "mat")
    assert sgf.format == "sgf"
    assert sgf.problems == []
    assert sgf.match_length == mat.match_length
    assert sgf.names == mat.names
    out_s, trace_s = _replay(sgf)
    out_m, trace_m = _replay(mat)
    assert out_s.valid and out_m.valid, (out_s.problems, out_m.problems)
    assert out_s.problems == [] or all(p.severity is Severity.WARNING for p in out_s.problems)
    assert out_s.final_score == out_m.final_score
    assert out_s.complete == out_m.complete
    assert [(g.winner, g.points, g.result, g.cube, g.rolls, g.score_before)
            for g in out_s.games] == [(g.winner, g.points, g.result, g.cube, g.rolls,
                                       g.score_before) for g in out_m.games]
    assert [g.score for g in sgf.games] == [g.score for g in mat.games]
    assert [g.number for g in sgf.games] == [g.number for g in mat.games]
    assert trace_s == trace_m
    assert len(trace_s) >= 8


def test_example_details(examples: Path) -> None:
    rec = _one((examples / "example.sgf").read_text(encoding="utf-8"), "sgf")
    g1 = rec.games[0]
    first = g1.actions[0]
    assert (first.kind, first.player, first.dice, first.steps) == ("roll", 1, (6, 3),
                                                                   ((13, 7), (13, 10)))
    assert (first.line, first.column) == (2, 2)
    assert first.extra["sgf_props"] == [("B", ["63lrlo"])]
    assert g1.actions[2].steps == ()  # B[66]: a dance
    assert [a.kind for a in g1.actions[-3:]] == ["double", "drop", "win"]
    assert g1.actions[-3].cube == 2
    assert g1.actions[-1].points == 1
    g2 = rec.games[1]
    assert [(a.kind, a.player, a.points) for a in g2.actions[-3:]] == [
        ("roll", 0, None), ("resign", 0, None), ("win", 1, 2)]
    assert g2.actions[-3].steps is None and g2.actions[-3].dice == (6, 5)
    assert rec.games[2].extra.get("crawford_game") is True
    assert rec.tag("Crawford") == "On"
    assert rec.tag("EventDate") == "2026.11.29"
    root = g1.extra["sgf_root"]
    assert isinstance(root, list) and root[0] == ("FF", ["4"])
    assert ("MI", ["length:3", "game:0", "ws:0", "bs:0"]) in root


@pytest.mark.parametrize("written", ["B+R", "B+Resign", "b+2r", "B+2Resign", " B+2R "])
def test_resignation_results_gnubg_reads_are_read(examples: Path, written: str) -> None:
    """gnubg reads RE's winner letter in either case and a resignation without its points;
    those points are what the next game's MI score credits (game 2 of the example: a
    resignation with the cube at 2 at 1-0, and the next game at 1-2)."""
    text = (examples / "example.sgf").read_text(encoding="utf-8")
    assert text.count("RE[B+2R]") == 2
    edited = text.replace("RE[B+2R]", f"RE[{written}]", 1)
    original, changed = _one(text, "sgf"), _one(edited, "sgf")
    assert changed.problems == []
    (before, _), (after, _) = _replay(original), _replay(changed)
    assert after.valid and after.problems == [], after.problems
    assert after.final_score == before.final_score == (2, 4)
    assert [(g.winner, g.points, g.result) for g in after.games] == [
        (g.winner, g.points, g.result) for g in before.games]
    assert [a.kind for a in changed.games[1].actions[-2:]] == ["resign", "win"]


def test_a_result_without_points_or_resignation_is_still_a_warning() -> None:
    text = ("(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.08]MI[length:1][game:0][ws:0][bs:0]"
            "PW[a]PB[b]RE[B+]\n;B[31hefe])\n")
    (record,) = parse_sgf(text)
    assert [(p.rule, p.severity) for p in record.problems] == [("syntax", Severity.WARNING)]


def test_money_beaver(examples: Path) -> None:
    rec = _one((examples / "money.sgf").read_text(encoding="utf-8"), "sgf")
    kinds = [(a.kind, a.player, a.cube) for a in rec.games[0].actions[1:4]]
    assert kinds == [("double", 0, 2), ("beaver", 1, 4), ("take", 0, None)]
    assert rec.tag("Jacoby") == "On"


@pytest.mark.slow
def test_corpus_sgf_replays_clean(full_corpus: Path) -> None:
    files = sorted(full_corpus.rglob("*.sgf"))
    assert len(files) >= 6
    for path in files:
        loaded = read_records(path.read_bytes(), str(path))
        assert loaded.format == "sgf"
        for record in loaded.records:
            assert record.problems == [], path
            out = replay_match(record)
            errors = [p for p in out.problems if p.severity is Severity.ERROR]
            assert errors == [], (path, errors)
            assert out.complete, path
            # analysis properties are kept on the actions
            names = {n for g in record.games for a in g.actions
                     for n, _ in cast("list[tuple[str, list[str]]]",
                                      a.extra.get("sgf_props", []))}
            assert {"A", "LU"} <= names or {"DA"} <= names, path


@pytest.mark.slow
@pytest.mark.parametrize("sgf_name,mat_name", [
    ("charlot1-charlot2_7p_2025-11-08-2305.sgf", "charlot1-charlot2_7p_2025-11-08-2305.mat"),
    ("test-match01_analyzed.sgf", "test-match01.txt"),
])
def test_corpus_sgf_agrees_with_mat_export(corpus: Path, sgf_name: str, mat_name: str) -> None:
    """Matches in the corpus as both .sgf and .mat: same games, results, positions."""
    sgf_path = corpus / "gnubg" / sgf_name
    mat_path = corpus / "gnubg" / mat_name
    if not (sgf_path.exists() and mat_path.exists()):
        pytest.skip("pair not in the corpus")
    sgf = _one(sgf_path.read_text(encoding="utf-8"), "sgf")
    mat = _one(mat_path.read_text(encoding="latin-1"), "mat")
    out_s, trace_s = _replay(sgf)
    out_m, trace_m = _replay(mat)
    assert out_s.final_score == out_m.final_score
    assert [(g.winner, g.points) for g in out_s.games] == [(g.winner, g.points)
                                                           for g in out_m.games]
    assert [t[:4] for t in trace_s] == [t[:4] for t in trace_m]
    assert trace_s == trace_m


@pytest.mark.slow
def test_deep_nesting_is_a_problem_not_an_exception() -> None:
    n = 100_000
    for text in ("(" * n, "(" * n + ")" * n, "(" * n + ";W[52mhmk]" + ")" * n,
                 "(;" * n, "(;GM[6]" + "(;B[double]" * n):
        records = parse_sgf(text)
        assert records and records[0].problems
        assert all(p.rule == "syntax" for p in records[0].problems)
        replay_match(records[0])


def test_tokenizer_details() -> None:
    text = "(;FF[4]\n  C[a \\] b \\\\ c]AW[a][b]\n [c]\n;W[31hefe]C[x\ny])"
    trees, problems = parse_collection(text)
    assert problems == []
    root, move = trees[0].nodes
    c, aw = root.props[1], root.props[2]
    assert (c.name, c.values, c.line, c.column) == ("C", ["a ] b \\ c"], 2, 3)
    assert (aw.values, aw.line, aw.column) == (["a", "b", "c"], 2, 17)
    assert (move.line, move.column) == (4, 1)
    assert move.props[1].values == ["x\ny"]
    records = parse_sgf(text)
    assert records[0].games[0].actions[0].steps == ((8, 5), (6, 5))


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r", "\n\r"])
def test_a_soft_line_break_is_removed(newline: str) -> None:
    """SGF FF[4]: a line break after a backslash is a soft line break, removed (a long
    name or comment wrapped by its writer); an escaped character stays."""
    text = f"(;FF[4]PW[Anna\\{newline}Lena]C[one\\{newline}two\\]]PB[b]MI[length:1])"
    trees, problems = parse_collection(text)
    assert problems == []
    root = trees[0].nodes[0]
    assert [(p.name, p.values) for p in root.props[1:3]] == [("PW", ["AnnaLena"]),
                                                             ("C", ["onetwo]"])]


def test_black_coordinates_bar_and_off() -> None:
    text = ("(;GM[6]MI[length:0][game:0][ws:0][bs:0];B[61yg];W[66fzezdzcz])")
    actions = parse_sgf(text)[0].games[0].actions
    assert actions[0].steps == ((25, 18),)
    assert actions[1].steps == ((6, 0), (5, 0), (4, 0), (3, 0))


def test_setup_node_is_kept_for_the_replay() -> None:
    text = ("(;GM[6]MI[length:0][game:0][ws:0][bs:0]RE[W+1]"
            ";PL[B]AE[a:y]AW[a][a][a]AB[s][y];B[double];W[drop])")
    rec = parse_sgf(text)[0]
    assert rec.problems == []  # applied and checked by the replay (tests/readers/test_sgf_setup.py)
    (setup,) = rec.games[0].setups
    assert setup.properties[1] == ("AE", ("a:y",)) and setup.turn == 1 and setup.sets_board
    assert (setup.node, setup.line, setup.column, setup.before) == (1, 1, 47, 0)
    assert [a.kind for a in rec.games[0].actions] == ["double", "drop", "win"]


def test_matches_are_grouped_by_mi() -> None:
    game = "(;GM[6]MI[length:{L}][game:{G}][ws:0][bs:0]PW[a]PB[b];W[double];B[drop])"
    text = "".join(game.format(L=L, G=G) for L, G in ((3, 0), (3, 1), (3, 0), (0, 0), (0, 1)))
    records = parse_sgf(text)
    assert [len(r.games) for r in records] == [2, 1, 2]
    assert [r.match_length for r in records] == [3, 3, 0]


def test_bad_content_is_reported() -> None:
    rec = parse_sgf("(;GM[6]MI[length:1][game:0][ws:0][bs:0]\n;W[9z]%%;B[12ab]XX;W[double)")
    rules = {(p.rule, p.line) for p in rec[0].problems}
    assert ("syntax", 2) in rules
    assert parse_sgf("")[0].problems
    assert parse_sgf("hello")[0].problems


def test_detection() -> None:
    assert looks_like_sgf("\ufeff  \n(\n;FF[4]")
    assert not looks_like_sgf(" 3 point match")
    assert detect_format("(;FF[4]GM[6])") == "sgf"


_ALPHABET = string.ascii_letters[:30] + "()[];\\: \n0123456+"


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzz_mangled_sgf_never_raises(examples: Path, data: st.DataObject) -> None:
    base = (examples / "example.sgf").read_text(encoding="utf-8")
    text = base
    for _ in range(data.draw(st.integers(1, 8))):
        pos = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(["del", "ins", "cut"]))
        if op == "del":
            text = text[:pos] + text[pos + data.draw(st.integers(1, 5)):]
        elif op == "ins":
            text = text[:pos] + data.draw(st.text(_ALPHABET, max_size=6)) + text[pos:]
        else:
            text = text[:pos]
    for record in parse_sgf(text):
        assert record.format == "sgf"
        replay_match(record)


@settings(max_examples=300, deadline=None)
@given(st.text(_ALPHABET, max_size=200))
def test_fuzz_random_text_never_raises(text: str) -> None:
    for record in parse_sgf(text):
        replay_match(record)


@pytest.mark.parametrize("digits", ["\u00b3", "\u0663", "\uff15"])  # ³, Arabic 3, wide 5
def test_non_ascii_digits_in_the_match_length_are_no_length(digits: str) -> None:
    # str.isdigit() accepts superscripts, Arabic-Indic and full-width digits, and int()
    # rejects some of them: the reader must report a syntax problem, not crash or read them.
    text = (f"(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.06]MI[length:{digits}][game:0][ws:0]"
            "[bs:0]PW[a]PB[b]RU[]\n;B[52lkrk]\n)")
    (record,) = parse_sgf(text)
    assert record.match_length is None
    assert [(p.rule, p.message) for p in record.problems] == [
        ("syntax", "MI length is not a number")]
