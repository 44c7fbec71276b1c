"""The bgtools/1 JSON match format: loss-free round trips, the shipped JSON Schema, reading
JSON back through every command, and clean errors on broken JSON."""

from __future__ import annotations

import copy
import json
import re
import tomllib
from dataclasses import astuple
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.errors import BgtoolsError, RecordSyntaxError, UnsupportedFormatError
from bgtools.readers.detect import detect_format, load_file, read_records
from bgtools.readers.json import MAX_JSON_DEPTH, JsonMatchError, looks_like_json_match, parse_json
from bgtools.readers.mat import parse_mat
from bgtools.readers.sgf import parse_sgf
from bgtools.record import Action, GameRecord, MatchRecord, Problem, Severity
from bgtools.record.json_codec import load_schema, schema_path
from bgtools.replay import Event, MatchReplay, replay_match
from bgtools.reports.convert import TARGET_FORMATS, render
from bgtools.reports.files import analyse_file, event_json, validate_json
from bgtools.write.json import dumps_file, dumps_match, record_to_json
from tests.helpers.paths import CORPUS, EXAMPLES, REPO, SAMPLES
from tests.helpers.paths import FILES as TEST_FILES
from tests.helpers.schema import schema_errors

ROOTS = [CORPUS, EXAMPLES, SAMPLES, TEST_FILES]
runner = CliRunner()


def record_files() -> list[Path]:
    """Every file under the roots that bgtools reads as a match record (.mat, SGF)."""
    found = []
    for root in ROOTS:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file() and detect_format(
                    path.read_bytes()[:65536].decode("utf-8", "replace")) in ("mat", "sgf"):
                found.append(path)
    return found


FILES = record_files()


def file_id(path: Path) -> str:
    for root in ROOTS:
        if path.is_relative_to(root):
            return f"{root.name}/{path.relative_to(root)}"
    return str(path)


def problem_keys(problems: list[Problem]) -> list[tuple[Any, ...]]:
    return [(p.rule, p.line, p.column, p.game, p.severity, p.message) for p in problems]


def replay_keys(replay: MatchReplay) -> tuple[Any, ...]:
    games = [(g.number, g.score_before, g.crawford, g.winner, g.points, g.cube, g.result,
              g.ended_by, g.rolls, g.final_on_roll,
              g.final_position.position_id if g.final_position else None)
             for g in replay.games]
    return (problem_keys(replay.problems), games, replay.final_score, replay.complete,
            replay.winner, replay.names, replay.match_length)


# --- the corpus: every record file round-trips --------------------------------------------------


def test_the_corpus_is_there_and_large() -> None:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not present")
    assert len(FILES) >= 200


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=file_id)
def test_file_round_trips_through_json(path: Path) -> None:
    records = load_file(path).records
    assert records
    text = dumps_file(records)
    for obj in (record_to_json(r) for r in records):
        assert schema_errors(obj) == []
    back = parse_json(text)
    assert back == records  # dataclass equality: every field, every action, every extra
    assert dumps_file(back) == text
    # The text is JSON whose data is exactly record_to_json's, object after object.
    decoder = json.JSONDecoder()
    pos, objs = 0, []
    while pos < len(text):
        obj, pos = decoder.raw_decode(text, pos)
        objs.append(obj)
        pos += 1
    assert objs == [record_to_json(r) for r in records]


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=file_id)
def test_json_copy_replays_and_writes_like_the_original(path: Path, tmp_path: Path) -> None:
    """Reading the JSON copy gives the same problems, games, results and score; and every
    writer (.mat, SGF, JSON) writes the copy exactly as it writes the original, so
    ``X -> json -> mat`` is ``X -> mat`` and ``X -> json -> sgf`` is ``X -> sgf``."""
    original = analyse_file(str(path), path, keep_events=True)
    target = tmp_path / (path.name + ".json")
    target.write_text(dumps_file([r.record for r in original.replays]), encoding="utf-8")
    copy_ = analyse_file(str(target), target, keep_events=True)
    assert copy_.error is None and copy_.format == "json"
    assert [replay_keys(r) for r in copy_.replays] == [replay_keys(r) for r in original.replays]
    ours, theirs = validate_json(copy_), validate_json(original)
    for key in ("file", "format"):
        ours.pop(key), theirs.pop(key)
    assert ours == theirs
    for i, replay in enumerate(original.replays):
        if not replay.valid:
            continue  # convert refuses records with errors
        for fmt in TARGET_FORMATS:
            try:
                direct = render(replay, original.events[i], fmt)
            except BgtoolsError:  # a record this format cannot express (Snowie's illegal play)
                with pytest.raises(BgtoolsError):
                    render(copy_.replays[i], copy_.events[i], fmt)
                continue
            assert render(copy_.replays[i], copy_.events[i], fmt) == direct, fmt


def test_sgf_analysis_properties_survive_verbatim(examples: Path) -> None:
    record = load_file(examples / "example.sgf").records[0]
    obj = record_to_json(record)
    game = obj["games"][0]
    root = dict(game["extra"]["sgf_root"])
    assert root["MI"] == ["length:3", "game:0", "ws:0", "bs:0"] and "GS" in root
    first = game["actions"][0]
    assert first["extra"]["sgf_props"] == [["B", ["63lrlo"]]]
    assert first["steps"] == [[13, 7], [13, 10]]
    back = parse_json(dumps_match(record))[0]
    assert back.games[0].extra["sgf_root"] == record.games[0].extra["sgf_root"]
    assert isinstance(back.games[0].extra["sgf_root"][0], tuple)  # same Python types back
    assert back.games[0].actions[0].steps == ((13, 7), (13, 10))


# --- derived data -------------------------------------------------------------------------------


def test_derived_section_matches_the_replay_and_is_ignored_when_read(examples: Path) -> None:
    record = load_file(examples / "example.sgf").records[0]
    events: list[Event] = []
    replay = replay_match(record, on_event=events.append)
    obj = record_to_json(record, replay, events)
    assert schema_errors(obj) == []
    derived = obj["derived"]
    assert derived["final_score"] == list(replay.final_score)
    assert derived["winner"] == replay.winner and derived["complete"] is replay.complete
    assert [g["result"] for g in derived["games"]] == [g.result for g in replay.games]
    rows = [row for g in derived["games"] for row in g["events"]]
    contract = [event_json("x", e) for e in events]
    assert len(rows) == len(contract)
    for row, full in zip(rows, contract):
        for key, value in row.items():
            assert full[key] == value, key
    assert [r["play"] for r in rows if r["action"] == "move"][:2] == ["13/10 13/7", "24/18*/13"]
    # The reader ignores derived data: same record with or without it, whatever it says.
    text = dumps_match(record, replay, events)
    assert parse_json(text) == [record]
    obj["derived"] = {"final_score": "nonsense"}
    assert parse_json(json.dumps(obj)) == [record]


# --- the schema file ----------------------------------------------------------------------------


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = load_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["schema"] == {"const": "bgtools/1",
                                              "description": schema["properties"]["schema"]
                                              ["description"]}


def test_every_schema_property_is_documented() -> None:
    missing = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                if "description" not in sub and "$ref" not in sub:
                    missing.append(f"{where}/{name}")
            for key, sub in node.items():
                walk(sub, f"{where}/{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{where}/{i}")

    schema = load_schema()
    walk({k: v for k, v in schema.items() if k != "$defs"}, "")
    for name, sub in schema["$defs"].items():
        if name not in ("derived", "anyValue"):
            walk(sub, f"$defs/{name}")
    assert missing == []


def test_schema_file_is_package_data() -> None:
    """``pip install .`` ships the schema: pyproject's package data covers the file."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    path = schema_path()  # the installed package's copy (the source tree's when editable)
    assert path.is_file() and path.parent.name == "schemas"
    assert "bgtools.schemas" in config["packages"]
    globs = config["package-data"]["bgtools.schemas"]
    source = REPO / "bgtools" / "schemas" / path.name
    assert source.read_bytes() == path.read_bytes()
    assert any(fnmatch(path.name, g) for g in globs)


# --- reading JSON through the commands ----------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def without_file(out: str) -> list[dict[str, Any]]:
    objs = [json.loads(line) for line in out.splitlines()]
    for obj in objs:
        obj.pop("file", None)
        obj.pop("format", None)
    return objs


@pytest.fixture
def json_copy(tmp_path: Path) -> tuple[Path, Path]:
    source = SAMPLES / "example_gnubg.mat"
    target = tmp_path / "example.json"
    target.write_text(dumps_file(load_file(source).records), encoding="utf-8")
    return source, target


@pytest.mark.parametrize("args", [
    ("validate", "--json"), ("score", "--json"), ("pips", "--json"),
    ("pips", "--json", "--game", "2", "--move", "5"), ("status", "--json"),
    ("status", "--json", "--game", "3", "--move", "1"), ("replay", "--jsonl"),
])
def test_commands_read_a_json_match_file_like_its_source(
        json_copy: tuple[Path, Path], args: tuple[str, ...]) -> None:
    source, target = json_copy
    code_src, out_src, _ = run(args[0], str(source), *args[1:])
    code_json, out_json, err = run(args[0], str(target), *args[1:])
    assert code_json == code_src == 0, err
    assert without_file(out_json) == without_file(out_src)
    assert out_json.strip()


def test_show_and_validate_text_on_a_json_file(json_copy: tuple[Path, Path]) -> None:
    source, target = json_copy
    code, out, _ = run("show", str(target), "--ascii")
    assert code == 0
    assert out == run("show", str(source), "--ascii")[1].replace(str(source), str(target))
    code, out, _ = run("validate", str(target), "--json")
    assert json.loads(out)["format"] == "json" and json.loads(out)["valid"]


def test_a_directory_with_json_and_other_json_files(tmp_path: Path,
                                                    json_copy: tuple[Path, Path]) -> None:
    (tmp_path / "notes.json").write_text('{"generator": "something else"}')
    code, out, _ = run("validate", str(tmp_path), "--json")
    objs = {Path(o["file"]).name: o for o in map(json.loads, out.splitlines())}
    assert objs["example.json"]["valid"]
    assert objs["notes.json"]["problems"][0]["rule"] == "unreadable"
    assert code == 2


# --- broken JSON: clean errors with a location --------------------------------------------------


def sample_json() -> str:
    return dumps_match(load_file(SAMPLES / "example_gnubg.mat").records[0])


def error_of(text: str) -> BgtoolsError:
    with pytest.raises(BgtoolsError) as info:
        read_records(text.encode("utf-8"), "m.json")
    return info.value


def test_truncated_json_names_the_place() -> None:
    text = sample_json()
    cut = text[:len(text) // 2]
    err = error_of(cut)
    assert isinstance(err, JsonMatchError)
    assert err.line == cut.count("\n") + 1 and err.column is not None
    assert str(err).startswith(f"m.json: line {err.line}, column {err.column}: not valid JSON")
    assert "\n" not in str(err)


def test_a_newer_schema_version_is_refused_clearly() -> None:
    text = sample_json().replace('"bgtools/1"', '"bgtools/2"', 1)
    err = error_of(text)
    assert isinstance(err, UnsupportedFormatError)
    assert "bgtools/2" in str(err) and "newer" in str(err) and "upgrade" in str(err)


def test_a_report_object_is_not_a_match() -> None:
    err = error_of('{"schema": "bgtools/1", "file": "m.mat", "format": "mat", "valid": true}')
    assert isinstance(err, UnsupportedFormatError) and "not a match" in str(err)


WRONG: list[tuple[str, Any, str]] = [
    ("/games/1/actions/3/dice", [7, 2], "integer 1 to 6"),
    ("/games/1/actions/3/dice", [1, 2, 3], "[die, die] with dice 1-6"),
    ("/games/0/actions/0/player", 2, "integer 0 to 1"),
    ("/games/0/actions/2/kind", "jump", "one of roll"),
    ("/games/0/actions/1/line", 0, "integer >= 1"),
    ("/games/0/actions/1/line", "7", "integer >= 1"),
    ("/games/1/names", ["only one"], "[a string, a string]"),
    ("/tags/0", ["Site"], "[name, value]"),
    ("/match_length", -3, "integer >= 0"),
    ("/games", {}, "an array"),
    ("/games/0/extra/ratings", "1500", "[a string or null"),
    ("/problems/0", {"rule": "syntax"}, "no member"),
    ("/games/0/actions/0/extra/row", True, "integer >= 0"),
    ("/games/0/actions/0/steps", [[26, 1]], "integer 0 to 25"),
    ("/games/0/actions/0/steps", [[6, 1, 1]], "[from, to] with points 0-25"),
]


def set_at(obj: Any, pointer: str, value: Any) -> Any:
    """A copy of ``obj`` with the value at JSON Pointer ``pointer`` replaced."""
    obj = copy.deepcopy(obj)
    parts = [int(p) if p.isdigit() else p for p in pointer.strip("/").split("/")]
    node = obj
    for part in parts[:-1]:
        node = node[part]
    if isinstance(node, list) and parts[-1] == len(node):
        node.append(value)
    else:
        node[parts[-1]] = value
    return obj


@pytest.mark.parametrize("pointer,value,expected", WRONG)
def test_a_value_of_the_wrong_type_is_located(pointer: str, value: Any, expected: str) -> None:
    obj = set_at(json.loads(sample_json()), pointer, value)
    assert schema_errors(obj)  # the schema refuses it too
    text = json.dumps(obj, indent=1, ensure_ascii=False)
    err = error_of(text)
    assert isinstance(err, JsonMatchError)
    where = err.message.split(":")[0]
    assert where.startswith(pointer) and expected in err.message, err.message
    # The line and column are where the bad value starts: the text before it is the same as
    # in a copy with a marker string in its place.
    marker = "\u00a7MARK\u00a7"
    marked = json.dumps(set_at(obj, where, marker), indent=1, ensure_ascii=False)
    offset = marked.index('"' + marker)
    assert text[:offset] == marked[:offset]
    line = marked.count("\n", 0, offset) + 1
    column = offset - marked.rfind("\n", 0, offset)
    assert (err.line, err.column) == (line, column)


def test_unknown_and_missing_members() -> None:
    obj = json.loads(sample_json())
    obj["games"][0]["actions"][0]["dice_typo"] = [1, 2]
    err = error_of(json.dumps(obj))
    assert "unknown member 'dice_typo'" in str(err)
    obj = json.loads(sample_json())
    del obj["games"][0]["score"]
    err = error_of(json.dumps(obj))
    assert "/games/0" in str(err) and "'score'" in str(err)


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 100_000])
def test_huge_nesting_is_refused_with_its_place(depth: int) -> None:
    text = '{"schema": "bgtools/1", "kind": "match",\n "extra": {"x": ' + "[" * depth \
        + "]" * depth + "}}"
    err = error_of(text)
    assert isinstance(err, JsonMatchError)
    assert err.line == 2 and "MAX_JSON_DEPTH" in str(err)
    assert err.column == len(' "extra": {"x": ') + MAX_JSON_DEPTH - 1


@pytest.mark.parametrize("text", [
    "", "   \n", "[]", "{", "{}", '{"schema": 1}', '{"schema": "bgtools/1", "kind": "match"}',
    '{"schema": "bgtools/1", "kind": "match", "match_length": ' + "9" * 5000 + "}",
    '{"schema": "bgtools/1", "kind": "match", "match_length": NaN}',
    sample_json() + "{",
    sample_json() + "garbage",
    sample_json().replace('"extra": {', '"extra": {"z": NaN, ', 1),
    sample_json().replace('"extra": {', '"extra": {"z": {"$tuple": 3}, ', 1),
])
def test_broken_json_gives_a_clean_error(text: str) -> None:
    with pytest.raises(BgtoolsError) as info:
        parse_json(text, "m.json")
    message = str(info.value)
    assert message.startswith("m.json") and "\n" not in message
    if isinstance(info.value, RecordSyntaxError):
        assert info.value.line is not None


@pytest.mark.parametrize("text", [
    sample_json()[:500],
    sample_json().replace('"bgtools/1"', '"bgtools/7"', 1),
    sample_json().replace('"player": 0', '"player": 5', 1),
    '{"schema": "bgtools/1", "kind": "match", "extra": ' + "[" * 50_000 + "}",
])
def test_broken_json_exits_2_without_traceback(tmp_path: Path, text: str) -> None:
    target = tmp_path / "broken.json"
    target.write_text(text, encoding="utf-8")
    for args in (("validate",), ("validate", "--json"), ("score",), ("pips", "--json"),
                 ("status",), ("show",), ("replay", "--jsonl")):
        result = runner.invoke(app, [args[0], str(target), *args[1:]])
        assert result.exit_code == 2, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "Traceback" not in result.output + result.stderr
        assert "broken.json" in result.output + result.stderr


def test_several_match_objects_in_one_file() -> None:
    records = load_file(SAMPLES / "example_gnubg.mat").records + \
        load_file(SAMPLES / "money_gnubg.mat").records
    text = dumps_file(records)
    assert parse_json(text) == records
    jsonl = "".join(json.dumps(record_to_json(r)) + "\n" for r in records)
    assert parse_json(jsonl) == records
    broken = text + text[:100]
    with pytest.raises(JsonMatchError, match="not valid JSON") as info:
        parse_json(broken)
    assert info.value.line is not None and info.value.line > text.count("\n")


def test_detection() -> None:
    assert looks_like_json_match(sample_json())
    assert detect_format("\ufeff  \n" + sample_json()) == "json"
    assert not looks_like_json_match('{"generator": "tests/selfplay.py"}')
    assert not looks_like_json_match('[{"schema": "bgtools/1"}]')
    assert detect_format((SAMPLES / "example_gnubg.mat").read_text()) == "mat"


def test_text_layout() -> None:
    text = sample_json()
    assert text.endswith("}\n")
    assert text.startswith('{\n  "schema": "bgtools/1",\n  "kind": "match"')
    action_lines = [line for line in text.split("\n") if line.lstrip().startswith('{"kind": ')]
    record = load_file(SAMPLES / "example_gnubg.mat").records[0]
    assert len(action_lines) == sum(len(g.actions) for g in record.games)
    assert '\n        {"kind": "roll", "player": 1, "line": 7, "column": 34, "dice": [6, 3], ' \
        '"play_text": "13/7 13/10", "play_column": 38, "extra": {"row": 1}},\n' in text


# --- property tests: generated and mangled inputs -----------------------------------------------


def assert_round_trip(records: list[MatchRecord], check_schema: bool = True) -> None:
    text = dumps_file(records)
    text.encode("utf-8")  # always writable as UTF-8
    back = parse_json(text)
    assert back == records
    assert dumps_file(back) == text
    if check_schema:
        for record in records:
            assert schema_errors(record_to_json(record)) == []


MAT_TEXT = (SAMPLES / "example_gnubg.mat").read_text()
SGF_TEXT = (EXAMPLES / "example.sgf").read_text() if EXAMPLES.is_dir() else \
    (SAMPLES / "example_gnubg.sgf").read_text()
GALAXY_TEXT = (SAMPLES / "galaxy_match1486073.txt").read_text()


@st.composite
def mangled(draw: st.DrawFn, text: str) -> str:
    """``text`` with a few random edits: cut, duplicated or inserted pieces, odd characters."""
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        j = draw(st.integers(i, min(len(text), i + 80)))
        op = draw(st.sampled_from(["cut", "dup", "insert", "swap-lines"]))
        if op == "cut":
            text = text[:i] + text[j:]
        elif op == "dup":
            text = text[:j] + text[i:j] + text[j:]
        elif op == "insert":
            piece = "".join(draw(st.lists(st.sampled_from(
                list("0123456789/:*()[];\\ \n\t abcxyWB") + ["Wins", "Doubles => 4", "Takes",
                                                             "é", "\u2028", "\x00"]),
                max_size=12)))
            text = text[:i] + piece + text[i:]
        else:
            lines = text.split("\n")
            a = draw(st.integers(0, len(lines) - 1))
            b = draw(st.integers(0, len(lines) - 1))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
    return text


SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@SLOW
@given(mangled(MAT_TEXT))
def test_mangled_mat_records_round_trip(text: str) -> None:
    assert_round_trip(parse_mat(text))


@pytest.mark.slow
@SLOW
@given(mangled(GALAXY_TEXT))
def test_mangled_galaxy_records_round_trip(text: str) -> None:
    assert_round_trip(parse_mat(text), check_schema=False)


@pytest.mark.slow
@SLOW
@given(mangled(SGF_TEXT))
def test_mangled_sgf_records_round_trip(text: str) -> None:
    assert_round_trip(parse_sgf(text))


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_read_as_mat_or_sgf_round_trips(text: str) -> None:
    assert_round_trip(parse_mat(text), check_schema=False)
    assert_round_trip(parse_sgf("(;" + text), check_schema=False)


UNICODE = st.text(st.characters(codec=None, exclude_categories=()), max_size=12)
LOCATION = st.none() | st.integers(1, 10**6)


@st.composite
def actions(draw: st.DrawFn) -> Action:
    kind = draw(st.sampled_from(["roll", "double", "take", "drop", "beaver", "raccoon", "win",
                                 "loss", "resign"]))
    action = Action(kind=kind, player=draw(st.integers(0, 1)), line=draw(LOCATION),
                    column=draw(LOCATION))
    if kind == "roll":
        action.dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
        action.play_text = draw(UNICODE)
        action.play_column = draw(LOCATION)
        action.steps = draw(st.none() | st.lists(
            st.tuples(st.integers(0, 25), st.integers(0, 25)), max_size=4).map(tuple))
        action.cannot_move = draw(st.booleans())
        action.illegal = draw(st.booleans())
        action.illegal_text = draw(st.none() | UNICODE)
        action.dice_only = draw(st.booleans())
    else:
        action.cube = draw(st.none() | st.integers(0, 2**40))
        action.points = draw(st.none() | st.integers(0, 2**40))
        action.and_the_match = draw(st.booleans())
    action.resign_marker = draw(st.booleans())
    extra = draw(st.dictionaries(st.sampled_from(["marker", "row", "sgf_props", "sgf_node",
                                                 "future_key", "$odd"]),
                                 st.just(None), max_size=3))
    for key in extra:
        if key == "marker":
            action.extra[key] = draw(UNICODE)
        elif key in ("row", "sgf_node"):
            action.extra[key] = draw(st.integers(0, 999))
        elif key == "sgf_props":
            action.extra[key] = draw(st.lists(st.tuples(UNICODE, st.lists(UNICODE, max_size=3)),
                                              max_size=3))
        else:
            action.extra[key] = draw(ANY_VALUE)
    return action


ANY_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | UNICODE
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.lists(inner, max_size=3).map(tuple)
    | st.dictionaries(UNICODE, inner, max_size=3),
    max_leaves=8)


@st.composite
def records(draw: st.DrawFn) -> MatchRecord:
    record = MatchRecord(format=draw(st.sampled_from(["mat", "sgf"])),
                         match_length=draw(st.none() | st.integers(0, 99)),
                         length_line=draw(LOCATION))
    record.tags = draw(st.lists(st.tuples(UNICODE, UNICODE), max_size=4))
    record.comments = draw(st.lists(UNICODE, max_size=3))
    for _ in range(draw(st.integers(0, 3))):
        game = GameRecord(number=draw(st.none() | st.integers(0, 99)), line=draw(LOCATION),
                          names=draw(st.none() | st.tuples(UNICODE, UNICODE)),
                          score=draw(st.none() | st.tuples(st.integers(0, 99),
                                                           st.integers(0, 99))),
                          score_line=draw(LOCATION),
                          score_columns=(draw(LOCATION), draw(LOCATION)),
                          actions=draw(st.lists(actions(), max_size=6)))
        if draw(st.booleans()):
            game.comments = draw(st.lists(st.tuples(st.integers(1, 99), UNICODE), max_size=2))
            game.extra["ratings"] = (draw(st.none() | UNICODE), draw(st.none() | UNICODE))
        record.games.append(game)
    record.problems = draw(st.lists(st.builds(
        Problem, rule=UNICODE, message=UNICODE, line=LOCATION, column=LOCATION,
        game=LOCATION, severity=st.sampled_from(list(Severity))), max_size=3))
    if draw(st.booleans()):
        record.extra["set_pos"] = [{"line": 3, "game": None, "text": draw(UNICODE)}]
        record.extra["anything"] = draw(ANY_VALUE)
    return record


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(records())
def test_generated_records_round_trip(record: MatchRecord) -> None:
    assert_round_trip([record])


# --- the schema and the reader agree on edited documents ----------------------------------------


def leaf_pointers(obj: Any, prefix: str = "") -> list[str]:
    out = [prefix] if prefix else []
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key != "derived":
                out += leaf_pointers(value, f"{prefix}/{key}")
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            out += leaf_pointers(value, f"{prefix}/{i}")
    return out


def agreement_base() -> dict[str, Any]:
    """A small match object that uses every member: an SGF game cut to a few actions, with
    .mat-only members added."""
    record = parse_sgf(SGF_TEXT)[0]
    game = record.games[0]
    game.actions = game.actions[:3] + game.actions[-2:]
    game.extra["sgf_nodes"] = game.extra["sgf_nodes"][:2]
    game.extra["sgf_root"] = record.extra["sgf_root"] = game.extra["sgf_root"][:3]
    game.extra["ratings"] = ("1500", None)
    game.extra["comments"] = [(4, "a comment")]
    game.actions[0].play_text = "13/7 13/10"
    game.actions[0].cannot_move = True
    game.actions[1].points = 1
    record.games = [game]
    record.extra["set_pos"] = [{"line": 2, "game": None, "text": "x"}]
    record.extra["future"] = (1, "a")
    record.problems = [Problem("syntax", "m", 1, 2, 1)]
    return record_to_json(record)


AGREEMENT_BASE = agreement_base()
POINTERS = leaf_pointers(AGREEMENT_BASE)
REPLACEMENTS = [None, -1, 0, 1, 2, 6, 7, 25, 26, 1.5, 2.0, "", "x", "roll", True, [], {},
                [1, 2], [7, 1], ["a", "b"], [None, None], {"$tuple": 1}, {"$tuple": []}]


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.sampled_from(POINTERS), st.sampled_from(REPLACEMENTS + ["<delete>", "<add>"]))
def test_schema_and_reader_accept_the_same_documents(pointer: str, value: Any) -> None:
    """One edit anywhere in a match object: the JSON Schema and parse_json agree on whether
    the result is valid (every pointer with every value agreed when run exhaustively)."""
    obj = copy.deepcopy(AGREEMENT_BASE)
    parts = [int(p) if re.fullmatch("[0-9]+", p) else p for p in pointer.strip("/").split("/")]
    parent = obj
    for part in parts[:-1]:
        parent = parent[part]
    last = parts[-1]
    if value == "<delete>":
        del parent[last]
    elif value == "<add>":
        target = parent[last]
        if isinstance(target, dict):
            target["unexpected"] = 1
        elif isinstance(target, list):
            target.append(0)
        else:
            return
    else:
        parent[last] = value
    schema_ok = not schema_errors(obj)
    try:
        parse_json(json.dumps(obj))
        reader_ok = True
    except BgtoolsError:
        reader_ok = False
    assert schema_ok == reader_ok, (pointer, value, schema_errors(obj)[:2])


def test_records_are_plain_dataclasses() -> None:
    """Equality of records compares every field (guards the round-trip tests above)."""
    record = load_file(SAMPLES / "example_gnubg.mat").records[0]
    other = parse_json(dumps_match(record))[0]
    other.games[0].actions[0].extra["row"] = 99
    assert other != record
    assert astuple(Problem("a", "b")) == ("a", "b", None, None, None, Severity.ERROR, None)


def test_any_unicode_survives_and_the_text_is_always_utf8() -> None:
    record = load_file(SAMPLES / "example_gnubg.mat").records[0]
    odd = "\ud800 lone surrogate, \u2028 line separator, \x00 nul, \U0001f3b2, \"quotes\" \\"
    record.tags.append(("Event", odd))
    record.comments.append(odd)
    assert record.games[0].names is not None
    record.games[0].names = (odd, "Bob")
    text = dumps_match(record)
    assert "\ud800" not in text and "\\ud800" in text
    data = text.encode("utf-8")
    loaded = read_records(b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n"), "m.json")
    assert loaded.format == "json" and loaded.records == [record]
