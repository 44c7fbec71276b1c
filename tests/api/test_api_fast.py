"""The library on the fast model (issue 40): ``Match.replay()`` runs the replay ``bgtools
validate`` runs and makes events, moments and play texts only when asked for;
``Match.validate()`` gives the verdict alone. The timing itself is in
``benchmarks/bench_api.py`` (not a timed test)."""

from __future__ import annotations

import contextlib
import html
import io
import itertools
import json
import pickle
import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from typer.testing import CliRunner

import bgtools
from bgtools.cli import app
from bgtools.readers.inputs import expand_paths
from bgtools.reports.files import analyse_file, validate_json
from bgtools.write.formats import WRITE_FORMATS
from tests.helpers.paths import REPO

SAMPLE = REPO / "samples" / "example_gnubg.mat"


def corpus_matches(corpus: Path) -> list[tuple[Path, bgtools.Match]]:
    """Every match of every readable file of the corpus."""
    found: list[tuple[Path, bgtools.Match]] = []
    for _, path, error in expand_paths([str(corpus)]):
        if error is not None or not isinstance(path, str | Path):
            continue
        try:
            found.extend((Path(path), match) for match in bgtools.read(path))
        except bgtools.BgtoolsError:
            continue
    return found


def test_replay_records_nothing_until_asked() -> None:
    """The verdict of a replay needs no event and no moment: none is made until an action
    or a moment is asked for, and then only the moments of the game asked for."""
    replay = bgtools.read(SAMPLE)[0].replay()
    assert replay.valid and replay.final_score == (2, 4)
    assert vars(replay)["_events"] is None
    assert replay.verdict.valid
    assert vars(replay)["_events"] is None
    games = replay.games  # the games' results come from the summary
    assert [g.winner for g in games] and vars(replay)["_events"] is None
    second = games[1].actions
    assert second and vars(replay)["_events"] is not None
    assert set(vars(replay)["_moments_by_game"]) == {2}  # only the game asked for
    assert games[1].moments()[0] == second[0].before


def test_lazy_replay_pickles_and_compares() -> None:
    """A replay pickles before and after its events are made, and compares equal either
    way (equality looks at the events)."""
    match = bgtools.read(SAMPLE)[0]
    fresh = match.replay()
    walked = match.replay()
    assert [len(g) for g in walked.games]
    assert pickle.loads(pickle.dumps(fresh)) == walked
    assert pickle.loads(pickle.dumps(walked)) == fresh


def test_a_listener_changes_no_result(corpus: Path) -> None:
    """The replay that records events (made on first use) ends as the verdict's replay:
    the same summary (games, problems, score) on every match of the corpus."""
    from bgtools.replay import replay_match

    checked = 0
    for _path, match in corpus_matches(corpus):
        replay = match.replay()
        events: list[object] = []
        with_events = replay_match(match.record, replay.summary.profile,
                                   on_event=events.append)
        assert with_events == replay.summary, _path
        assert len(replay.events) == len(events) == sum(len(g) for g in replay.games)
        checked += 1
    assert checked > 0


def test_validate_is_the_verdict_of_bgtools_validate(corpus: Path) -> None:
    """``match.validate()`` says what ``bgtools validate --json`` says of the file (valid,
    rules, problems, games, complete) and equals ``match.replay().verdict``."""
    compared = 0
    for _, path, error in expand_paths([str(corpus)]):
        if error is not None or not isinstance(path, str | Path):
            continue
        try:
            matches = bgtools.read(path)
        except bgtools.BgtoolsError:
            continue
        verdicts = [m.validate() for m in matches]
        assert verdicts == [m.replay().verdict for m in matches]
        expected = validate_json(analyse_file(str(path), path))
        if len(matches) == 1:  # validate_json speaks of the file as a whole
            verdict = verdicts[0]
            assert verdict.valid == expected["valid"]
            assert verdict.rules == expected["rules"]
            assert verdict.games == expected["games"]
            assert verdict.complete == expected["complete"]
            assert [p.to_json() for p in verdict.problems] == expected["problems"]
            assert len(verdict.errors()) + len(verdict.warnings()) == len(verdict.problems)
            compared += 1
    assert compared > 0


def test_validate_refuses_unknown_rules() -> None:
    """An unknown profile name is refused by ``validate`` as by ``replay``."""
    match = bgtools.read(SAMPLE)[0]
    with pytest.raises(ValueError, match="unknown rules"):
        match.validate("fibs")  # type: ignore[arg-type]


# --- typed errors -------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: bgtools.read(SAMPLE)[0].replay(rules="fibs"),  # type: ignore[arg-type]
    lambda: bgtools.read(SAMPLE)[0].validate(rules="fibs"),  # type: ignore[arg-type]
    lambda: bgtools.read(SAMPLE, format="pgn"),  # type: ignore[arg-type]
    lambda: bgtools.Position.initial().legal_plays(7, 1),
    lambda: bgtools.parse_play(bgtools.Position.initial(), 0, 1, "24/23"),
    lambda: bgtools.play_text(bgtools.Position.initial(), 3, 9, "24/21"),
], ids=["replay-rules", "validate-rules", "read-format", "legal-plays-dice",
        "parse-play-dice", "play-text-dice"])
def test_a_bad_argument_is_a_typed_error(call: object) -> None:
    """A value the library does not take raises ``InvalidArgumentError``: a
    ``BgtoolsError`` (so ``except BgtoolsError`` catches every error bgtools raises on
    purpose) and still a ``ValueError``."""
    assert callable(call)
    with pytest.raises(bgtools.InvalidArgumentError) as caught:
        call()
    assert isinstance(caught.value, bgtools.BgtoolsError)
    assert isinstance(caught.value, ValueError)
    assert "choose one of" in str(caught.value) or "dice must be 1..6" in str(caught.value)


def test_write_answers_in_library_words(tmp_path: Path) -> None:
    """``match.write`` names its own argument, not the command line's ``--to``."""
    match = bgtools.read(SAMPLE)[0]
    with pytest.raises(bgtools.ConversionError) as caught:
        match.write(tmp_path / "x.pgn")
    message = str(caught.value)
    written = ", ".join(repr(name) for name in WRITE_FORMATS[:-1]) + f" or {WRITE_FORMATS[-1]!r}"
    assert "--to" not in message and f"format={written}" in message
    assert "'x.pgn'" in message
    with pytest.raises(bgtools.ConversionError) as caught:
        match.write(tmp_path / "x.mat", format="pgn")  # type: ignore[arg-type]
    assert "--to" not in str(caught.value) and "format='mat'" in str(caught.value)
    assert not list(tmp_path.iterdir())


# --- the tutorial's scripts ------------------------------------------------------------------

def tutorial_scripts() -> list[str]:
    """The three scripts of docs/library.md's "Three scripts", in order."""
    text = (REPO / "docs" / "library.md").read_text(encoding="utf-8")
    section = text[text.index("## Three scripts"):]
    section = section[:section.index("\n## ", 1)]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)


def script_output(body: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What a script prints, run from the repository's root."""
    monkeypatch.chdir(REPO)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(body, "docs/library.md", "exec"), {})
    return printed.getvalue().splitlines()


def cli_lines(monkeypatch: pytest.MonkeyPatch, *args: str) -> list[dict[str, Any]]:
    """The JSON objects the command line prints for ``args``, run from the root."""
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(app, list(args))
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def test_the_tutorial_has_three_scripts() -> None:
    assert len(tutorial_scripts()) == 3


def test_script_players_and_final_score(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first script says what ``score --json`` says of each file of the folder."""
    printed = script_output(tutorial_scripts()[0], monkeypatch)
    expected = [f"{o['file']}: {' - '.join(o['players'])} "
                f"{o['final_score'][0]}-{o['final_score'][1]}"
                for o in cli_lines(monkeypatch, "score", "--json", "samples/")]
    assert printed == expected and len(expected) >= 4


def test_script_doubled_then_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second script lists each double answered by a drop, with the Position ID and
    pips ``replay --jsonl`` gives for the double."""
    printed = script_output(tutorial_scripts()[1], monkeypatch)
    events = cli_lines(monkeypatch, "replay", "--jsonl", "samples/")
    expected = [f"{double['file']} game {double['game']}: {double['position_id_before']} "
                f"pips {double['pips_before'][0]}-{double['pips_before'][1]}"
                for double, answer in itertools.pairwise(events)
                if double["action"] == "double" and answer["action"] == "drop"
                and (double["file"], double["game"]) == (answer["file"], answer["game"])]
    assert printed == expected and expected


def test_script_illegal_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """The third script lists each illegal play at the line and with the rule that
    ``validate --json`` reports for the file (its errors are all illegal plays)."""
    printed = script_output(tutorial_scripts()[2], monkeypatch)
    (report,) = cli_lines(monkeypatch, "validate", "--json",
                          "tests/files/xg/hQ8sVn2LbTdF4wRm.mat")
    errors = [p for p in report["problems"] if p["severity"] == "error"]
    found = [re.match(r"line (\d+): .* \((.*)\)$", line) for line in printed]
    assert all(found) and errors
    assert [(int(m[1]), m[2]) for m in found if m] == [(p["line"], p["rule"]) for p in errors]


# --- position_id_after: the API, replay --jsonl and the export agree -----------------------

def test_position_id_after_agrees_everywhere(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    """For every action of the samples (cube actions and resignations too), the API's
    ``position_id_after``, ``replay --jsonl``'s and the export's are the same; an action
    other than a move leaves the board as it was (the ID after is the ID before)."""
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    paths = sorted(str(p.relative_to(REPO)) for p in (REPO / "samples").iterdir())
    lines = cli_lines(monkeypatch, "replay", "--jsonl", *paths)
    out = tmp_path / "actions.parquet"
    result = CliRunner().invoke(app, ["export", *paths, "--to", "parquet", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    rows = pq.read_table(out).to_pylist()
    api = [action for path in paths for match in bgtools.read(REPO / path)
           for game in match.replay().games for action in game.actions]
    assert len(api) == len(lines) == len(rows)
    kinds = set()
    for action, line, row in zip(api, lines, rows, strict=True):
        assert action.position_id_after == line["position_id_after"] \
            == row["position_id_after"], line
        if action.action != "move":
            kinds.add(action.action)
            assert line["position_id_after"] == line["position_id_before"]
            assert action.position_after == action.position_before
    assert {"double", "take", "drop"} <= kinds


# --- data frames -------------------------------------------------------------------------------

def test_to_arrow_is_the_export(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``bgtools.to_arrow`` of the files read gives the table ``bgtools export --to
    parquet`` writes for them: the same schema (columns and types) and the same rows; a
    match, a replay and a list of files give their part of it."""
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    paths = sorted(str(p.relative_to(REPO)) for p in (REPO / "samples").iterdir())
    out = tmp_path / "actions.parquet"
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(app, ["export", *paths, "--to", "parquet", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    exported = pq.read_table(out)
    files = [bgtools.read(path) for path in paths]
    table = bgtools.to_arrow(files)
    assert table.schema.equals(exported.schema, check_metadata=False)
    assert table.to_pylist() == exported.to_pylist()
    first = bgtools.to_arrow(files[0][0])
    assert first.to_pylist() == [r for r in exported.to_pylist() if r["file"] == paths[0]]
    bare = bgtools.to_arrow(files[0][0].replay()).to_pylist()
    assert [dict(r, file=paths[0]) for r in bare] == first.to_pylist()


def test_frames_doctest(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyarrow")
    import doctest

    import bgtools.data.frames

    monkeypatch.chdir(REPO)
    assert doctest.testmod(bgtools.data.frames).failed == 0


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_data_frames_of_pandas_and_polars(library: str) -> None:
    """Where pandas or polars is installed, the data frame holds the table's rows."""
    pytest.importorskip("pyarrow")
    pytest.importorskip(library)
    match = bgtools.read(SAMPLE)[0]
    table = bgtools.to_arrow(match)
    frame = bgtools.to_pandas(match) if library == "pandas" else bgtools.to_polars(match)
    assert list(frame.columns) == table.column_names and len(frame) == table.num_rows


def test_a_missing_library_is_a_typed_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without pandas (or polars), asking for its data frame says what to install."""
    import sys

    from bgtools.data.export import ExportUnavailableError

    pytest.importorskip("pyarrow")
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails
    monkeypatch.setitem(sys.modules, "polars", None)
    match = bgtools.read(SAMPLE)[0]
    with pytest.raises(ExportUnavailableError, match="pip install pandas"):
        bgtools.to_pandas(match)
    with pytest.raises(ExportUnavailableError, match="pip install polars"):
        bgtools.to_polars(match)


# --- notebook: the match stepper and the SVG board -------------------------------------------

def _svg(text: str) -> ElementTree.Element:
    return ElementTree.fromstring(text)


def _labels(root: ElementTree.Element) -> dict[str, float]:
    """The x of each point-number label of an SVG board."""
    return {el.text or "": float(el.get("x", "nan")) for el in root.iter(f"{SVG}text")
            if el.get("class") == "number"}


SVG = "{http://www.w3.org/2000/svg}"


def test_position_svg_marks_the_last_play_and_takes_size_and_home() -> None:
    """``Position.svg``: ``size`` pixels wide; ``last_play`` (the opponent's play, in his
    numbering) drawn as one arrow per step, from and to the points it names; ``home="left"``
    mirrors the points (each label's x reflected about the board's middle)."""
    start = bgtools.Position.initial()
    play = bgtools.parse_play(start, 6, 4, "24/18 13/9")
    after = start.play(play)
    root = _svg(after.svg(size=500, last_play=play))
    assert root.get("width") == "500"
    arrows = [el for el in root.iter(f"{SVG}line") if el.get("class") == "last-play"]
    assert [(int(a.get("data-from", "")), int(a.get("data-to", ""))) for a in arrows] \
        == list(play.steps)
    labels = _labels(root)  # the player to act's numbering: the opponent's 24 is his 1
    for arrow, (src, dst) in zip(arrows, play.steps, strict=True):
        assert float(arrow.get("x1", "nan")) == labels[str(25 - src)]
        assert float(arrow.get("x2", "nan")) == labels[str(25 - dst)]
    assert "last-play" not in after.svg()
    mirrored = _labels(_svg(after.svg(home="left")))
    sums = {labels[n] + mirrored[n] for n in labels}
    assert len(sums) == 1 and labels["1"] > mirrored["1"]
    assert after._repr_svg_() == after.svg()


def test_moment_svg_marks_the_play_just_made() -> None:
    """With ``last_play=True`` a moment after a move draws that move's steps; before the
    first action, or by default (as ``show --svg``), nothing is marked."""
    replay = bgtools.read(SAMPLE)[0].replay()
    marked = 0
    for game in replay.games:
        moments = game.moments()
        assert "last-play" not in moments[0].svg(last_play=True)
        for action, after in zip(game.actions, moments[1:], strict=True):
            root = _svg(after.svg(last_play=True))
            arrows = [(int(el.get("data-from", "")), int(el.get("data-to", "")))
                      for el in root.iter(f"{SVG}line") if el.get("class") == "last-play"]
            expected = list(action.steps or ()) if action.action == "move" else []
            assert arrows == expected, action
            marked += bool(arrows)
            assert "last-play" not in after.svg()
    assert marked > 20


def test_replay_html_is_the_page_of_show_html(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    """``Replay.html`` is the page ``bgtools show --html`` writes, and ``_repr_html_``
    holds it in an iframe for Jupyter."""
    monkeypatch.chdir(REPO)
    out = tmp_path / "match.html"
    shown = "samples/example_gnubg.mat"
    result = CliRunner().invoke(app, ["show", shown, "--html", str(out)])
    assert result.exit_code == 0, result.stderr
    replay = bgtools.read(shown)[0].replay()
    assert replay.html(shown) == out.read_text(encoding="utf-8")
    frame = replay._repr_html_()
    assert frame.startswith("<iframe srcdoc=\"")
    srcdoc = frame[len("<iframe srcdoc=\""):frame.index("\" style=")]
    assert html.unescape(srcdoc) == replay.html()
