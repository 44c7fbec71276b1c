"""Fuzzing: real record files mangled every which way never make bgtools crash.

Hypothesis draws edits (``tests/helpers/fuzzing.py``: byte flips, cuts, shuffled, deleted and
duplicated lines, inserted NUL/BOM/CR/tab/odd punctuation, huge numbers, random digits) of
real files. In-process, every mangled file must read, replay and give serialisable JSON for
every contract object, or raise only a typed error; through the CLI, every command must end
with 0, 1 or 2, no traceback and one JSON line per file. ``scripts/fuzz.py`` runs the same
mutators for as long as asked.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers.fuzzing import (
    BINARY_MUTATORS,
    CLI_COMMANDS,
    MUTATORS,
    Edit,
    apply_binary_edits,
    apply_edits,
    binary_seed_files,
    check_bytes,
    check_cli,
    seed_files,
)

pytestmark = pytest.mark.slow  # fuzz runs

# Small files keep the suite's fuzzing under a minute; scripts/fuzz.py takes them all.
SEEDS = seed_files(max_bytes=12_000)
SEED_BYTES = {path: path.read_bytes() for path in SEEDS}

edits_strategy = st.lists(
    st.tuples(st.sampled_from(sorted(MUTATORS)), st.integers(0, 1 << 30), st.integers(0, 63),
              st.integers(0, 1 << 16)),
    min_size=1, max_size=6,
)
FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                      HealthCheck.data_too_large])


def test_there_are_seed_files() -> None:
    names = {path.name for path in SEEDS}
    assert "example_gnubg.mat" in names and "example_gnubg.sgf" in names
    assert sum(path.suffix == ".mat" for path in SEEDS) >= 10


@pytest.mark.parametrize("kind", sorted(MUTATORS))
def test_every_mutator_changes_a_real_file(kind: str) -> None:
    data = SEED_BYTES[next(p for p in SEEDS if p.name == "example_gnubg.mat")]
    changed = {apply_edits(data, [(kind, where, 5, choice)])
               for where in (0, 101, 997) for choice in (1, 2, 7)}
    assert changed - {data}, kind


@settings(FUZZ, max_examples=400)
@given(seed=st.sampled_from(SEEDS), edits=edits_strategy)
def test_mangled_files_never_crash_the_library(seed: Path, edits: list[Edit]) -> None:
    data = apply_edits(SEED_BYTES[seed], edits)
    assert check_bytes(data, seed.name) in (0, 1, 2)


@settings(FUZZ, max_examples=150)
@given(data=st.binary(max_size=3000))
def test_random_bytes_never_crash_the_library(data: bytes) -> None:
    assert check_bytes(data, "random.mat") in (0, 1, 2)


@settings(FUZZ, max_examples=150)
@given(prefix=st.sampled_from([b"", b" 5 point match\n\n Game 1\n a : 0   b : 0\n",
                               b"(;FF[4]GM[6]MI[length:5][game:0][ws:0][bs:0]"]),
       text=st.text(alphabet=st.characters(codec="utf-8"), max_size=400))
def test_random_text_after_a_header_never_crashes(prefix: bytes, text: str) -> None:
    assert check_bytes(prefix + text.encode("utf-8", "surrogatepass"), "text.mat") in (0, 1, 2)


@settings(FUZZ, max_examples=40)
@given(seed=st.sampled_from(SEEDS), edits=edits_strategy,
       command=st.sampled_from(CLI_COMMANDS))
def test_mangled_files_through_the_cli(tmp_path_factory: pytest.TempPathFactory, seed: Path,
                                       edits: list[Edit], command: list[str]) -> None:
    data = apply_edits(SEED_BYTES[seed], edits)
    target = tmp_path_factory.mktemp("fuzz") / seed.name
    code = check_cli(data, target, command)
    if command[0] == "validate":
        assert code == check_bytes(data, str(target))


BINARY_SEEDS = binary_seed_files(max_bytes=70_000)
BINARY_BYTES = {path: path.read_bytes() for path in BINARY_SEEDS}
binary_edits = st.lists(
    st.tuples(st.sampled_from(sorted(BINARY_MUTATORS)), st.integers(0, 1 << 30),
              st.integers(0, 63), st.integers(0, 1 << 16)),
    min_size=1, max_size=3,
)


def test_there_are_binary_seed_files() -> None:
    assert {p.suffix for p in BINARY_SEEDS} >= {".xg", ".bgf"}


@settings(FUZZ, max_examples=60)
@given(seed=st.sampled_from(BINARY_SEEDS), edits=binary_edits)
def test_mangled_binary_files_never_crash_the_library(seed: Path, edits: list[Edit]) -> None:
    data = apply_binary_edits(BINARY_BYTES[seed], edits)
    assert check_bytes(data, seed.name, boards=False) in (0, 1, 2)
