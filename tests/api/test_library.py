"""The library as a python-chess user expects it (issue 17): ``bgtools.read``, ``match.replay``,
moments, ``match.write`` and the namespace, on the real files of ``samples/`` and ``tests/files``.

Where the library and the JSON contract give the same fact, the tests compare the library
with the command line's JSON output (``score``, ``replay --jsonl``, ``status``), field by
field, under the contract's names; facts about positions are checked against the engine
(``Position.play``, the IDs decoded back).
"""

from __future__ import annotations

import importlib
import inspect
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from typer.testing import CliRunner

import bgtools
from bgtools import (
    LimitExceededError,
    Match,
    OutputRefusedError,
    Position,
    UnreadableInputError,
    UnsupportedFormatError,
)
from bgtools.cli import app
from bgtools.limits import MAX_FILE_BYTES
from bgtools.readers.detect import load_file
from bgtools.reports.convert import ConversionError, InvalidRecordError
from tests.helpers.paths import FILES as TEST_FILES
from tests.helpers.paths import REPO, SAMPLES, at_least

GNUBG_MAT = SAMPLES / "example_gnubg.mat"
FILES = sorted([*SAMPLES.iterdir(), *TEST_FILES.glob("*.txt"),
                *(TEST_FILES / "sites").glob("*.txt"), *(TEST_FILES / "xg").glob("*.xg"),
                *(TEST_FILES / "xg").glob("*.bgf"), *(TEST_FILES / "setup").glob("*.sgf")])
runner = CliRunner()


def cli_json_lines(*args: str) -> list[dict[str, object]]:
    result = runner.invoke(app, list(args))
    assert result.exit_code in (0, 1), result.stderr
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def rel(path: Path) -> str:
    return str(path.relative_to(REPO))


# --- the manual's one-liner, as written ----------------------------------------------------

def test_the_library_pages_one_liner_runs_as_written() -> None:
    readme = (REPO / "docs" / "library.md").read_text(encoding="utf-8")
    command = ('python -c "import bgtools; '
               "print(bgtools.read('samples/example_gnubg.mat')[0].replay().final_score)\"")
    assert command in readme
    code = command.removeprefix('python -c "').removesuffix('"')
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO, check=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    score = cli_json_lines("score", "--json", rel(GNUBG_MAT))[0]["final_score"]
    assert out.stdout == f"{tuple(score)}\n"  # type: ignore[arg-type]


# --- reading ----------------------------------------------------------------------------

@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_kind_of_source_reads_the_same_records(path: Path) -> None:
    expected = load_file(path).records
    data = path.read_bytes()
    sources: list[object] = [str(path), path, data, bytearray(data), io.BytesIO(data)]
    if b"\x00" not in data and not data.startswith(b"RGMH"):
        text = data.decode("utf-8", errors="strict") if _is_utf8(data) else None
        if text is not None and "\n" in text:
            sources += [text, io.StringIO(text)]
    for source in sources:
        matches = bgtools.read(source)  # type: ignore[arg-type]
        assert [m.record for m in matches] == expected, type(source)
        assert matches.format == load_file(path).format


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def test_a_match_has_players_length_tags_games_and_actions() -> None:
    matches = bgtools.read(GNUBG_MAT)
    assert len(matches) == 1 and matches.path == GNUBG_MAT and matches.format == "mat"
    match = matches[0]
    assert isinstance(match, Match) and list(matches) == [match] and matches[:1] == [match]
    text = GNUBG_MAT.read_text(encoding="utf-8")
    assert match.players == ("Alice", "Bob") and " Alice : 0" in text
    assert match.match_length == 3 and " 3 point match" in text
    assert match.tags == [("EventDate", "2026.11.29")] and match.tag("eventdate") == "2026.11.29"
    assert len(match.games) == text.count(" Game ")
    first = match.games[0].actions[0]
    assert (first.kind, first.player, first.dice, first.play_text) == ("roll", 1, (6, 3),
                                                                      "13/7 13/10")
    assert match.problems == [] and match.source_format == "mat"


def test_reading_is_forgiving_problems_are_collected_on_the_match() -> None:
    lines = GNUBG_MAT.read_text(encoding="utf-8").splitlines(keepends=True)
    broken = "".join([*lines[:7], "xyzzy: a line no dialect writes\n", *lines[7:]])
    match = bgtools.read(broken)[0]
    assert [(p.rule, p.line) for p in match.problems] == [("syntax", 8)]
    replay = match.replay()
    assert not replay.valid and replay.problems[0].rule == "syntax"
    assert len(replay.games) == len(match.games)


def test_what_cannot_be_read_raises_typed_errors(tmp_path: Path) -> None:
    with pytest.raises(UnreadableInputError, match="no such file"):
        bgtools.read(tmp_path / "missing.mat")
    with pytest.raises(UnreadableInputError, match="is a directory"):
        bgtools.read(tmp_path)
    with pytest.raises(UnsupportedFormatError, match="empty"):
        bgtools.read(b"  \n")
    with pytest.raises(UnsupportedFormatError, match="binary"):
        bgtools.read(b"\x00\x01\x02 not a record")
    with pytest.raises(UnsupportedFormatError, match="not a match record"):
        bgtools.read("hello\nworld\n")
    with pytest.raises(LimitExceededError) as info:
        bgtools.read(io.BytesIO(b" " * (MAX_FILE_BYTES + 10)))
    assert info.value.limit_name == "MAX_FILE_BYTES"
    with pytest.raises(UnsupportedFormatError, match="is mat, not sgf"):
        bgtools.read(GNUBG_MAT, format="sgf")
    assert bgtools.read(SAMPLES / "example_gnubg.sgf", format="sgf")[0].source_format == "sgf"
    with pytest.raises(ValueError, match="unknown format"):
        bgtools.read(GNUBG_MAT, format="pgn")  # type: ignore[arg-type]


def test_reading_never_modifies_the_input(tmp_path: Path) -> None:
    copy = tmp_path / "m.mat"
    copy.write_bytes(GNUBG_MAT.read_bytes())
    before = copy.stat()
    bgtools.read(copy)[0].replay()
    after = copy.stat()
    assert (after.st_mtime_ns, after.st_size) == (before.st_mtime_ns, before.st_size)
    assert copy.read_bytes() == GNUBG_MAT.read_bytes()


# --- replaying: the contract's facts under the contract's names ------------------------------

@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_replay_gives_the_facts_of_score_json(path: Path) -> None:
    objects = cli_json_lines("score", "--json", rel(path))
    replays = [match.replay() for match in bgtools.read(path)]
    assert len(objects) == 1
    score, replay = objects[0], replays[-1]
    assert list(replay.final_score) == score["final_score"]
    assert replay.winner == score["winner"] and replay.complete == score["complete"]
    assert replay.match_length == score["match_length"]
    assert (list(replay.players) if replay.players else None) == score["players"]
    games = score["games"]
    assert isinstance(games, list)
    for game, expected in zip(replay.games, games, strict=True):
        for name in ("number", "crawford", "winner", "points", "cube", "result", "ended_by"):
            assert getattr(game, name) == expected[name], name
        assert list(game.score_before) == expected["score_before"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_action_gives_the_facts_of_replay_jsonl(path: Path) -> None:
    lines = cli_json_lines("replay", "--jsonl", rel(path))
    actions = [action for match in bgtools.read(path) for game in match.replay().games
               for action in game.actions]
    assert len(actions) == len(lines) > 0
    for action, line in zip(actions, lines):
        assert action.before.game == line["game"]
        for name in ("index", "line", "player", "action", "position_id_before",
                     "match_id_before", "cube_before", "cube_owner_before"):
            assert getattr(action, name) == line[name], (name, line)
        assert list(action.pips_before) == line["pips_before"]
        assert (list(action.dice) if action.dice else None) == line["dice"]
        if action.action == "move":
            assert (str(action.play) if action.play is not None else None) == line["play"]
            steps = action.steps
            assert (None if steps is None else [list(step) for step in steps]) == line["steps"]
            assert action.position_id_after == line["position_id_after"]
        else:
            assert action.play is None and "play" not in line


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_moments_walk_each_game_before_and_after_every_action(path: Path) -> None:
    for match in bgtools.read(path):
        replay = match.replay()
        for game in replay.games:
            moments = game.moments()
            assert len(moments) == len(game.actions) + 1 == len(game) + 1
            assert moments[-1].final and not any(m.final for m in moments[:-1])
            for k, action in enumerate(game.actions):
                assert action.before.move == k + 1 and action.after.move == k + 2
                if action.action == "move" and action.play is not None:
                    # The engine's own answer: the board after the play, opponent to act.
                    assert action.position_before.play(action.play) == action.position_after
            for moment in moments:
                mover, opponent = moment.position.pips
                actor = moment.state.on_roll
                assert moment.pips == ((mover, opponent) if actor == 0 else (opponent, mover))
                # (After the match's last game the score may pass the length, which the IDs
                # encode but GNU Backgammon's decoder refuses.)
                if moment.xgid and not moment.final:
                    assert Position.from_id(moment.xgid) == moment.position
                    parsed = bgtools.parse_id(moment.xgid).state
                    assert parsed is not None and parsed.score == moment.score
                    assert (parsed.cube_value, parsed.cube_owner) == tuple(moment.cube)
                if moment.match_id and not moment.final:
                    both = bgtools.parse_id(f"{moment.position_id}:{moment.match_id}")
                    assert both.position == moment.position and both.state is not None
                    assert both.state.score == moment.score
            if game.ended_by is not None:
                assert moments[-1].score == game.score_after
                assert game.actions[-1].score_after == game.score_after
            assert moments[0].score == game.score_before


def test_moments_give_the_facts_of_status_json() -> None:
    path = SAMPLES / "galaxy_match1486073.txt"
    replay = bgtools.read(path)[0].replay()
    for game in replay.games[:3]:
        moments = game.moments()
        for move in sorted({1, 2, len(moments) // 2, len(moments)}):
            expected = cli_json_lines("status", "--json", rel(path), "--game", str(game.number),
                                      "--move", str(move))[0]
            moment = moments[move - 1]
            assert moment.status() == {k: v for k, v in expected.items()
                                       if k not in ("schema", "file")}
            assert moment.match_id == expected["match_id"] and moment.xgid == expected["xgid"]
            assert moment.crawford == expected["crawford"]
            assert moment.cube._asdict() == expected["cube"]


def test_str_of_a_moment_is_the_board_of_show_ascii() -> None:
    replay = bgtools.read(GNUBG_MAT)[0].replay()
    moment = replay.games[1].moments()[4]
    result = runner.invoke(app, ["show", rel(GNUBG_MAT), "--game", "2", "--move", "5", "--ascii"])
    assert result.exit_code == 0
    assert str(moment) + "\n" == result.stdout


def test_unknown_rules_are_a_value_error() -> None:
    match = bgtools.read(GNUBG_MAT)[0]
    with pytest.raises(ValueError, match="unknown rules 'fibs'"):
        match.replay("fibs")
    assert match.replay("nocube").rules == "nocube"
    assert bgtools.read(SAMPLES / "galaxy_match1486073.txt")[0].replay().rules == "galaxy"


def test_position_ids_and_xgid() -> None:
    start = Position.initial()
    assert Position.from_id(start.position_id) == start == Position.from_id(start.xgid())
    state = bgtools.MatchState(match_length=7, score=(2, 5), cube_value=2, cube_owner=1,
                               on_roll=1, dice=(6, 4))
    after = start.play(start.legal_plays(3, 1)[0])
    parsed = bgtools.parse_id(after.xgid(state))
    assert parsed.position == after and parsed.state is not None
    assert (parsed.state.score, parsed.state.cube_value, parsed.state.cube_owner,
            parsed.state.on_roll, parsed.state.dice) == ((2, 5), 2, 1, 1, (6, 4))


# --- writing ------------------------------------------------------------------------------

def test_write_is_convert(tmp_path: Path) -> None:
    match = bgtools.read(SAMPLES / "galaxy_match1486073.txt")[0]
    for fmt in ("mat", "sgf", "json"):
        ours = tmp_path / f"lib.{fmt}"
        theirs = tmp_path / f"cli.{fmt}"
        match.write(ours)
        result = runner.invoke(app, ["convert", rel(SAMPLES / "galaxy_match1486073.txt"),
                                     "-o", str(theirs)])
        assert result.exit_code == 0, result.stderr
        assert ours.read_bytes() == theirs.read_bytes()
        buffer, binary = io.StringIO(), io.BytesIO()
        match.write(buffer, fmt)
        match.write(binary, fmt)
        assert buffer.getvalue().encode() == binary.getvalue() == theirs.read_bytes()
    # GNU Backgammon's own .mat export converts to itself byte for byte.
    out = io.StringIO()
    bgtools.read(GNUBG_MAT)[0].write(out, "mat")
    assert out.getvalue() == GNUBG_MAT.read_text(encoding="utf-8")


def test_write_refuses_what_convert_refuses(tmp_path: Path) -> None:
    copy = tmp_path / "m.mat"
    copy.write_bytes(GNUBG_MAT.read_bytes())
    match = bgtools.read(copy)[0]
    for overwrite in (False, True):
        with pytest.raises(OutputRefusedError, match="input file"):
            match.write(copy, overwrite=overwrite)
    link = tmp_path / "link.mat"
    link.symlink_to(copy)
    with pytest.raises(OutputRefusedError, match="input file"):
        match.write(link, overwrite=True)
    assert copy.read_bytes() == GNUBG_MAT.read_bytes()
    existing = tmp_path / "out.sgf"
    existing.write_text("keep me", encoding="utf-8")
    with pytest.raises(OutputRefusedError, match="exists"):
        match.write(existing)
    assert existing.read_text(encoding="utf-8") == "keep me"
    match.write(existing, overwrite=True)
    assert existing.read_text(encoding="utf-8").startswith("(;")
    with pytest.raises(ConversionError, match="cannot tell the format"):
        match.write(tmp_path / "out.pgn")
    with pytest.raises(ConversionError, match="needs format"):
        match.write(io.StringIO())
    typo = GNUBG_MAT.read_text(encoding="utf-8").replace("63: 13/7 13/10", "63: 13/7 13/9", 1)
    with pytest.raises(InvalidRecordError) as info:
        bgtools.read(typo)[0].write(tmp_path / "never.mat")
    assert [p.rule for p in info.value.problems] == ["dice-mismatch"]
    assert not (tmp_path / "never.mat").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.mat", "m.mat", "out.sgf"]


# --- the namespace ------------------------------------------------------------------------

def test_read_is_a_plain_function_with_its_signature_and_help() -> None:
    """Issue 40: ``bgtools.read`` was the readers' package with its class swapped for a
    callable one, so ``help`` showed the package and the signature was ``(source: Any, *,
    format: Any = None) -> Any``; the readers are ``bgtools.readers`` now."""
    import inspect
    import pydoc
    import sys
    import types

    import bgtools.api.reading
    import bgtools.readers.detect  # binds bgtools.readers: bgtools.read stays the function

    assert isinstance(bgtools.read, types.FunctionType)
    assert bgtools.read is bgtools.api.reading.read
    signature = inspect.signature(bgtools.read, eval_str=True)
    assert list(signature.parameters) == ["source", "format"]
    assert signature.parameters["source"].annotation == bgtools.api.reading.Source
    assert signature.parameters["format"].kind is inspect.Parameter.KEYWORD_ONLY
    assert signature.return_annotation is bgtools.MatchFile
    shown = pydoc.render_doc(bgtools.read, renderer=pydoc.plaintext)
    assert "Read the matches of ``source``" in shown
    assert "package" not in shown.lower()
    for name in ("bgtools", "bgtools.cli", "bgtools.readers"):
        importlib.import_module(name)
        assert type(sys.modules[name]) is types.ModuleType, name  # no class swapped


def test_dir_shows_only_the_public_api() -> None:
    assert dir(bgtools) == sorted(bgtools.__all__)
    importlib.import_module("bgtools.readers.detect")  # binds the subpackage: no new name

    assert dir(bgtools) == sorted(bgtools.__all__)
    assert callable(bgtools.read) and bgtools.readers.detect.load_file is load_file
    for name in bgtools.__all__:
        assert getattr(bgtools, name) is not None, name
    with pytest.raises(AttributeError):
        bgtools.no_such_name  # noqa: B018


def _public_members(obj: type) -> list[tuple[str, object]]:
    return [(name, member) for name, member in vars(obj).items()
            if not name.startswith("_") or name == "__init__"]


def test_everything_public_has_a_docstring_and_type_hints() -> None:
    missing = []
    for name in bgtools.__all__:
        value = getattr(bgtools, name)
        if name == "read":
            value = bgtools.api.read
        if not (inspect.isclass(value) or inspect.isfunction(value)):
            continue
        if not inspect.getdoc(value):
            missing.append(f"{name}: docstring")
        functions = [(name, value)] if inspect.isfunction(value) else _public_members(value)
        for member_name, member in functions:
            target = member.fget if isinstance(member, property) else member
            if isinstance(target, staticmethod | classmethod):
                target = target.__func__
            if not inspect.isfunction(target):
                continue
            if member_name != "__init__" and not inspect.getdoc(target):
                missing.append(f"{name}.{member_name}: docstring")
            hints = target.__annotations__
            params = [p for p in inspect.signature(target).parameters if p not in ("self",
                                                                                   "cls")]
            if "return" not in hints or any(p not in hints for p in params):
                missing.append(f"{name}.{member_name}: type hints")
    assert missing == []


# --- pictures: what Jupyter shows --------------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def _display_svg(obj: object) -> ElementTree.Element:
    """What a notebook does with an object that has ``_repr_svg_``: call it and show the SVG
    (IPython's SVG formatter parses it the same way); here, parse it."""
    method = getattr(obj, "_repr_svg_", None)
    assert callable(method), f"{type(obj).__name__} does not draw itself in a notebook"
    text = method()
    assert isinstance(text, str)
    root = ElementTree.fromstring(text)
    assert root.tag == f"{SVG}svg"
    assert int(root.attrib["width"]) > 0 and int(root.attrib["height"]) > 0
    return root


def _checkers(root: ElementTree.Element, kind: str) -> int:
    return sum(1 for node in root.iter(f"{SVG}circle")
               if {"checker", kind} <= set(node.attrib.get("class", "").split()))


def test_a_position_and_a_moment_draw_themselves_in_a_notebook() -> None:
    root = _display_svg(Position.initial())
    assert _checkers(root, "x") == _checkers(root, "o") == 15
    replay = bgtools.read(GNUBG_MAT)[0].replay()
    moment = replay.games[0].moments()[1]
    assert moment.dice == (6, 5)
    root = _display_svg(moment)
    title = root.find(f"{SVG}title")
    assert title is not None and "Alice" in (title.text or "") and "Bob" in (title.text or "")
    result = runner.invoke(app, ["show", rel(GNUBG_MAT), "--game", "1", "--move", "2",
                                 "--svg", "-"])
    assert result.exit_code == 0 and result.stdout.strip() == moment.svg().strip()
    assert ElementTree.fromstring(moment.svg(size=200)).attrib["width"] == "200"


def test_each_problem_is_found_in_the_action_it_points_into() -> None:
    text = GNUBG_MAT.read_text(encoding="utf-8")
    line = text.splitlines().index("  3) 33: 8/5 8/5 6/3 6/3         41: 25/21 10/9 ") + 1
    typo = text.replace("41: 25/21 10/9", "41: 25/21 10/8", 1)
    replay = bgtools.read(typo)[0].replay()
    actions = [a for game in replay.games for a in game.actions]
    bad = [a for a in actions if not a.legal]
    assert [(a.before.game, a.index, a.player, a.line) for a in bad] == [(1, 4, 1, line)]
    assert bad[0].source is not None and bad[0].source.play_text == "25/21 10/8"
    assert [p.rule for p in bad[0].problems] == ["dice-mismatch"]
    # The left-hand play of the same line is not blamed.
    same_line = [a for a in actions if a.line == line and a is not bad[0]]
    assert same_line and all(a.problems == [] for a in same_line)


# --- the whole corpus, and the types a user's checker sees -------------------------------

@pytest.mark.slow
def test_the_library_replays_every_corpus_file_as_validate_does(corpus: Path) -> None:
    from bgtools.readers.inputs import expand_paths
    from bgtools.reports.files import analyse_file, validate_json

    checked = refused = 0
    inputs = list(expand_paths([str(corpus)]))
    for display, path, error in inputs:
        assert path is not None and error is None, display
        expected = validate_json(analyse_file(display, path))
        try:
            replays = [match.replay() for match in bgtools.read(path)]
        except bgtools.BgtoolsError:
            assert expected["problems"][0]["rule"] == "unreadable", display
            refused += 1
            continue
        assert all(r.valid for r in replays) == expected["valid"], display
        assert [p.to_json() for r in replays for p in r.problems] == expected["problems"]
        for replay in replays:
            for game in replay.games:
                assert len(game.moments()) == len(game.actions) + 1
        checked += 1
    # The threshold follows the corpus given: the shared one, or the part a bare clone ships.
    assert checked + refused == len(inputs)
    assert checked >= at_least(corpus, 200, 20), (checked, refused)


USER_SCRIPT = '''
import io
import bgtools
from bgtools.readers.detect import load_file

matches: bgtools.MatchFile = bgtools.read("samples/example_gnubg.mat", format="mat")
replay: bgtools.Replay = matches[0].replay("auto")
score: tuple[int, int] = replay.final_score
winner: int | None = replay.winner
for game in replay.games:
    for action in game.actions:
        play: bgtools.Play | None = action.play
        after: bgtools.Position | None = action.position_after
    for moment in game.moments():
        pips: tuple[int, int] = moment.pips
        xgid: str = moment.position.xgid()
        owner: int | None = moment.cube.owner
        svg: str = moment.svg(size=300)
matches[0].write(io.StringIO(), "sgf", overwrite=False)
problems: list[bgtools.Problem] = matches[0].problems
records = load_file
'''


@pytest.mark.slow
def test_a_users_script_type_checks_under_mypy_strict(tmp_path: Path) -> None:
    from mypy import api

    script = tmp_path / "user.py"
    script.write_text(USER_SCRIPT, encoding="utf-8")
    out, err, code = api.run(["--strict", "--no-incremental", "--cache-dir", os.devnull,
                              str(script)])
    assert code == 0, out + err
    script.write_text(USER_SCRIPT + "wrong: str = replay.final_score\n", encoding="utf-8")
    out, _, code = api.run(["--strict", "--no-incremental", "--cache-dir", os.devnull,
                            str(script)])
    assert code == 1 and "Incompatible types in assignment" in out
