"""The cheap commands import only what they need (start-up time, issue 15).

Each command runs in a fresh interpreter, which then lists the modules it imported: the
listed heavy modules must be absent. A command that starts to need one (or a module that
starts to import one at load time) fails here, rather than slowly making every run dearer.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers.paths import CORPUS, REPO

SAMPLE_MAT = REPO / "samples" / "example_gnubg.mat"

_PROBE = """
import sys
sys.argv = ["bgtools", *sys.argv[1:]]
try:
    from bgtools.cli import main
    main()
except SystemExit:
    pass
finally:
    sys.stderr.write("\\nMODULES " + " ".join(sorted(sys.modules)) + "\\n")
"""

# Rich draws the human output; Lark parses what the fast paths do not; the replayer and the
# readers check files; importlib.resources (with tempfile, random, zipfile) loaded grammars;
# json writes --json output (Typer does not import it).
NOT_FOR_HELP = ("rich", "lark", "bgtools.replay", "bgtools.readers.mat", "bgtools.readers.detect",
                "bgtools.record", "importlib.resources", "tempfile", "multiprocessing", "json")
NOT_FOR_ONE_FILE = ("rich", "importlib.resources", "tempfile", "random", "zipfile",
                    "multiprocessing", "bgtools.write", "bgtools.data", "bgtools.api")


def imported(*args: str) -> set[str]:
    """The modules a run of ``bgtools ARGS`` imported."""
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True,
                          text=True, timeout=120, check=False, cwd=REPO)
    listed = done.stderr.rsplit("\nMODULES ", 1)
    assert len(listed) == 2, done.stderr[-2000:]
    return set(listed[1].split())


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["validate", "--help"],
                                  ["score", "--help"]], ids=" ".join)
def test_help_and_version_load_no_reader_rich_or_lark(args: list[str]) -> None:
    assert _loaded(imported(*args), NOT_FOR_HELP) == []


def test_version_alone_loads_no_typer_and_no_command() -> None:
    modules = imported("--version")
    assert "bgtools.build" in modules  # the probe ran the command
    assert _loaded(modules, ("typer", "click", "bgtools.cli.application",
                             "bgtools.cli.validate")) == []


@pytest.mark.parametrize("command,module", [("validate", "validate"), ("score", "answers"),
                                            ("convert", "convert"), ("stats", "data")])
def test_a_command_loads_only_its_own_command_module(command: str, module: str) -> None:
    others = {"validate", "answers", "convert", "data"} - {module}
    modules = imported(command, "--help")
    assert f"bgtools.cli.{module}" in modules
    assert _loaded(modules, tuple(f"bgtools.cli.{name}" for name in others)) == []


@pytest.mark.parametrize("command", ["validate", "score", "pips", "status"])
def test_one_mat_file_loads_no_rich_no_resources_and_no_other_layer(command: str) -> None:
    modules = imported(command, "--json", str(SAMPLE_MAT))
    assert "bgtools.replay" in modules  # the probe ran the command
    assert _loaded(modules, NOT_FOR_ONE_FILE) == []


def test_a_plain_mat_file_loads_no_lark() -> None:
    # Every line of this file takes the readers' fast paths, built from the grammars'
    # terminals without Lark (tests/project/test_grammars.py proves them equal).
    assert _loaded(imported("validate", "--json", str(SAMPLE_MAT)), ("lark",)) == []


@pytest.mark.parametrize("folder,suffix", [("xg-binary", "xg"), ("bgblitz", "bgf")])
def test_one_binary_file_loads_no_rich_no_resources_and_no_lark(folder: str, suffix: str) -> None:
    files = sorted((CORPUS / folder).glob(f"*.{suffix}"))
    if not files:
        pytest.skip(f"no .{suffix} file in {CORPUS / folder}")
    modules = imported("validate", "--json", str(files[0]))
    assert "bgtools.replay" in modules
    assert _loaded(modules, (*NOT_FOR_ONE_FILE, "lark")) == []
