"""OGXM (issue 39, part 2): the format added through the registry, read and written through
its reference codec (the optional package ``ogxm``).

Round trips (.mat -> .ogxm -> replay: the same verdict, score and positions; .ogxm -> .mat),
OGXM written by another producer (GammonView's ``gvformat``, from the corpus's ``.mat``
twins, and its files shipped in tests/files/ogxm), streams, hostile input, and bgtools
without the package (a one-line error, exit 2).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli import app
from bgtools.errors import BgtoolsError, UnsupportedFormatError
from bgtools.readers.detect import read_records
from bgtools.readers.ogxm import CodecUnavailableError, play_order
from bgtools.record import MatchRecord
from bgtools.replay import Event, MatchReplay, replay_match
from bgtools.write.mat import write_mat
from tests.helpers.paths import FILES, REPO

ogxm = pytest.importorskip("ogxm", reason="the optional OGXM codec (bgtools[ogxm])")

OGXM_DATA = FILES / "ogxm"
TWINS = ("B4_SrGcsKAQmoTyHlgJCbM", "MYdvw1qGuyaRUH__", "XCu3RJ0UvDg_Tldl")


def _replayed(record: MatchRecord) -> tuple[MatchReplay, list[Event]]:
    events: list[Event] = []
    return replay_match(record, on_event=events.append), events


def _facts(record: MatchRecord) -> dict[str, object]:
    """What two copies of a match must agree on, by player name (GammonView makes the
    alphabetically first name White whatever the .mat's order): the verdict (no errors),
    the final score and every game's result, and the position after every action (the
    mover's view) with the mover's name."""
    replay, events = _replayed(record)
    names = replay.names or ("", "")
    return {
        "errors": [p.rule for p in replay.problems if p.severity.value == "error"],
        "final": dict(zip(names, replay.final_score, strict=True)),
        "games": [(names[g.winner] if g.winner is not None else None, g.points, g.result)
                  for g in replay.games],
        "positions": [(names[e.player], e.action, e.dice and tuple(sorted(e.dice)),
                       e.position_after.position_id if e.position_after else None)
                      for e in events],
    }


def _mat_twins(corpus: Path) -> list[Path]:
    return sorted((corpus / "gammonview").glob("*.mat"))


def test_registry_row_reads_ogxm() -> None:
    """An .ogxm file goes through the registry like every format: detected by its magic,
    listed in READ_FORMATS, walked in directories."""
    import bgtools
    from bgtools.readers.detect import RECORD_SUFFIXES

    loaded = read_records((OGXM_DATA / f"{TWINS[0]}.ogxm").read_bytes(), "x.ogxm")
    assert (loaded.format, loaded.encoding, len(loaded.records)) == ("ogxm", "binary", 1)
    assert "ogxm" in bgtools.READ_FORMATS
    assert {".ogxm", ".ogxms"} <= set(RECORD_SUFFIXES)


@pytest.mark.parametrize("stem", TWINS)
def test_gammonview_ogxm_reads_as_its_mat_twin(stem: str, corpus: Path) -> None:
    """OGXM written by another producer (tests/files/ogxm, from GammonView's codec) replays
    as its .mat twin: no error, the same scores, results and positions."""
    twin = corpus / "gammonview" / f"{stem}.mat"
    ogxm_record = read_records((OGXM_DATA / f"{stem}.ogxm").read_bytes(), stem).records[0]
    mat_record = read_records(twin.read_bytes(), stem).records[0]
    assert _facts(ogxm_record) == _facts(mat_record)
    assert _facts(ogxm_record)["errors"] == []


def test_shipped_files_are_gammonviews_output(corpus: Path) -> None:
    """tests/files/ogxm is what gvformat writes from the .mat twins (SOURCES.md)."""
    gvformat = pytest.importorskip("gvformat")
    members = []
    for stem in TWINS:
        text = (corpus / "gammonview" / f"{stem}.mat").read_text("utf-8")
        written = gvformat.write_gvab(gvformat.mat_to_ogxm(text))
        assert written == (OGXM_DATA / f"{stem}.ogxm").read_bytes()
        members.append(written)
    assert b"".join(members) == (OGXM_DATA / "gammonview-twins.ogxms").read_bytes()


def test_every_corpus_twin_through_gammonview(corpus: Path) -> None:
    """Every GammonView .mat of the corpus, written as OGXM by gvformat at test time, reads
    back as the .mat does."""
    gvformat = pytest.importorskip("gvformat")
    twins = _mat_twins(corpus)
    assert twins
    for twin in twins:
        data = gvformat.write_gvab(gvformat.mat_to_ogxm(twin.read_text("utf-8")))
        from_ogxm = read_records(data, twin.name).records[0]
        from_mat = read_records(twin.read_bytes(), twin.name).records[0]
        assert _facts(from_ogxm) == _facts(from_mat), twin.name


def test_stream_holds_one_match_per_member() -> None:
    loaded = read_records((OGXM_DATA / "gammonview-twins.ogxms").read_bytes(), "s.ogxms")
    singles = [read_records((OGXM_DATA / f"{stem}.ogxm").read_bytes(), stem).records[0]
               for stem in TWINS]
    assert len(loaded.records) == len(TWINS)
    assert [_facts(r) for r in loaded.records] == [_facts(r) for r in singles]


def _mat_inputs(corpus: Path) -> list[Path]:
    samples = [p for p in sorted((REPO / "samples").glob("*.mat"))
               if p.name != "money_gnubg.mat"]  # a beaver: the codec refuses it (below)
    return _mat_twins(corpus) + samples


def test_mat_to_ogxm_and_back(corpus: Path, tmp_path: Path) -> None:
    """.mat -> convert --to ogxm -> the same verdict, score and positions; and the .ogxm
    -> .mat again; and writing the .ogxm again gives the same bytes."""
    runner = CliRunner()
    inputs = _mat_inputs(corpus)
    assert len(inputs) >= 3
    for source in inputs:
        written = tmp_path / f"{source.stem}.ogxm"
        result = runner.invoke(app, ["convert", str(source), "-o", str(written)])
        assert result.exit_code == 0, (source, result.output)
        original = read_records(source.read_bytes(), source.name).records[0]
        copy = read_records(written.read_bytes(), written.name).records[0]
        assert _facts(copy) == _facts(original), source.name
        back = tmp_path / f"{source.stem}.back.mat"
        result = runner.invoke(app, ["convert", str(written), "-o", str(back)])
        assert result.exit_code == 0, result.output
        assert _facts(read_records(back.read_bytes(), back.name).records[0]) == \
            _facts(original)
        again = tmp_path / f"{source.stem}.again.ogxm"
        assert runner.invoke(app, ["convert", str(written), "-o", str(again)]).exit_code == 0
        assert again.read_bytes() == written.read_bytes()


def test_ogxm_to_mat_matches_the_twin(corpus: Path) -> None:
    """GammonView's OGXM converted to .mat replays as the twin .mat."""
    for stem in TWINS:
        record = read_records((OGXM_DATA / f"{stem}.ogxm").read_bytes(), stem).records[0]
        replay, events = _replayed(record)
        text = write_mat(record, replay, events)
        again = read_records(text.encode("utf-8"), stem).records[0]
        twin = read_records((corpus / "gammonview" / f"{stem}.mat").read_bytes(), stem)
        assert _facts(again) == _facts(twin.records[0])


def test_standard_output_and_library_write_bytes(tmp_path: Path) -> None:
    """``convert -o - --to ogxm`` writes the bytes to standard output; Match.write writes a
    path or a binary file, and refuses a text file."""
    import io

    import bgtools

    source = OGXM_DATA / f"{TWINS[2]}.ogxm"
    result = CliRunner().invoke(app, ["convert", str(source), "-o", "-", "--to", "ogxm"])
    assert result.exit_code == 0
    match = bgtools.read(source)[0]
    binary = io.BytesIO()
    match.write(binary, "ogxm")
    assert result.stdout_bytes == binary.getvalue()
    assert _facts(read_records(binary.getvalue(), "b.ogxm").records[0]) == _facts(match.record)
    match.write(tmp_path / "m.ogxm")
    assert (tmp_path / "m.ogxm").read_bytes() == binary.getvalue()
    with pytest.raises(BgtoolsError, match="binary"):
        match.write(io.StringIO(), "ogxm")


def test_play_order_puts_larger_die_bear_offs_last() -> None:
    """A bear-off by a larger die is legal only once no checker is above it: read and
    written after the other steps, whatever order the producer listed them in."""
    assert play_order(((4, 0), (6, 0)), (5, 6)) == ((6, 0), (4, 0))
    assert play_order(((12, 6), (6, 0), (4, 0), (6, 0)), (6, 6)) == \
        ((12, 6), (6, 0), (6, 0), (4, 0))
    assert play_order(((3, 0), (1, 0)), (1, 4)) == ((1, 0), (3, 0))


def test_without_the_codec_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """bgtools works without the package: an OGXM input is unreadable with one line naming
    it (exit 2), other formats are unaffected, and writing OGXM is refused alike."""
    monkeypatch.setitem(sys.modules, "ogxm", None)  # import ogxm raises ImportError
    source = OGXM_DATA / f"{TWINS[0]}.ogxm"
    with pytest.raises(CodecUnavailableError):
        read_records(source.read_bytes(), "x.ogxm")
    result = CliRunner().invoke(app, ["validate", str(source)])
    assert result.exit_code == 2
    assert "reading OGXM needs the ogxm package: pip install 'bgtools[ogxm]'" in result.output
    assert "Traceback" not in result.output
    mat = REPO / "samples" / "example_gnubg.mat"
    assert CliRunner().invoke(app, ["validate", str(mat)]).exit_code == 0
    result = CliRunner().invoke(app, ["convert", str(mat), "-o", "-", "--to", "ogxm"])
    assert result.exit_code == 2
    assert "writing OGXM needs the ogxm package" in result.output


def test_codec_refusal_is_a_clean_error(tmp_path: Path) -> None:
    """A match the codec will not write (a beaver: ogxm 2.3 refuses the ply) is not
    converted, with the codec's reason, never a traceback."""
    result = CliRunner().invoke(app, ["convert", str(REPO / "samples" / "money_gnubg.mat"),
                                      "-o", str(tmp_path / "m.ogxm")])
    assert result.exit_code == 1
    assert "OGXM codec refused the match" in result.output
    assert not (tmp_path / "m.ogxm").exists()


def _mutations(seed: bytes, count: int, rng: random.Random) -> list[bytes]:
    out = []
    for _ in range(count):
        data = bytearray(seed)
        kind = rng.randrange(4)
        if kind == 0:
            data = data[:rng.randrange(4, len(data))]
        elif kind == 1:
            for _ in range(rng.randrange(1, 5)):
                data[rng.randrange(4, len(data))] = rng.randrange(256)
        elif kind == 2:  # the header's claimed size
            data[12:16] = rng.randrange(1 << 32).to_bytes(4, "little")
        else:
            data += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        out.append(bytes(data))
    return out


def test_hostile_ogxm_is_unreadable_with_one_line() -> None:
    """Truncated, corrupted, mis-sized or padded OGXM: readable, or unreadable with a
    one-line reason; never another exception."""
    rng = random.Random(39)
    seeds = [path.read_bytes() for path in sorted(OGXM_DATA.iterdir())]
    refused = 0
    for seed in seeds:
        for data in _mutations(seed, 150, rng):
            try:
                read_records(data, "h.ogxm")
            except UnsupportedFormatError as exc:
                assert "\n" not in str(exc)
                assert str(exc).startswith("h.ogxm")
                refused += 1
    assert refused > 0


def test_limits_apply_to_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream's games and actions are counted member by member against MAX_GAMES and
    MAX_ACTIONS (here lowered), as every reader's are."""
    from bgtools.errors import LimitExceededError
    from bgtools.readers import ogxm as reader

    data = (OGXM_DATA / "gammonview-twins.ogxms").read_bytes()
    monkeypatch.setattr(reader, "MAX_GAMES", 5)
    with pytest.raises(LimitExceededError, match="MAX_GAMES"):
        read_records(data, "s.ogxms")
    monkeypatch.setattr(reader, "MAX_GAMES", 10_000)
    monkeypatch.setattr(reader, "MAX_ACTIONS", 100)
    with pytest.raises(LimitExceededError, match="MAX_ACTIONS"):
        read_records(data, "s.ogxms")


def test_long_strings_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A name beyond MAX_STRING_CHARS is refused before a record is built."""
    from bgtools.errors import LimitExceededError
    from bgtools.readers import bounds

    monkeypatch.setattr(bounds, "MAX_STRING_CHARS", 4)
    with pytest.raises(LimitExceededError, match="MAX_STRING_CHARS"):
        read_records((OGXM_DATA / f"{TWINS[0]}.ogxm").read_bytes(), "x.ogxm")
