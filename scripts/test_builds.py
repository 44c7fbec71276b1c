"""Run the test suite on both builds of bgtools: compiled by mypyc, and pure Python.

``python scripts/test_builds.py [--only compiled|pure] [--serial] [--workers N] [PYTEST ARGS ...]``

``pip install .`` compiles the hot path with mypyc where it can (``setup.py``) and falls back
to pure Python where it cannot, so both builds must pass. This script (the README's test
command, and what CI runs):

* runs ``pytest -m "not slow"`` on the pure-Python build, in a scratch copy of the tree
  (its own source, no compiled module; ``../shared`` is not beside it, so it also tests what
  a bare clone tests, with the corpus files shipped in ``tests/data``);
* meanwhile builds the compiled modules in place (``setup.py build_ext --inplace``) and runs
  the whole suite on them, then removes them, whatever happened, so that the source tree is
  pure Python again (a stale compiled module would hide edits).

The two runs go side by side (``--serial`` runs them in turn), and the compiled build's run
is spread over ``--workers`` processes (pytest-xdist, one per core by default): the whole
suite is most of the time, and the pure run leaves a core idle once it is done. The slow tests
(oracle comparisons, the whole corpus, fuzzing) run on the compiled build only: both builds
run the same source. Each run sets ``BGTOOLS_EXPECT_BUILD``, which ``tests/test_build.py``
checks against the modules that actually ran. Extra arguments go to both pytest runs;
``--only pure`` runs the whole suite on the pure build. The exit status is 0 only when every
run passed.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def compiled_files() -> list[Path]:
    """The extension modules built in place: under ``bgtools/`` and mypyc's shared runtime
    library at the top of the tree."""
    found: list[Path] = []
    for suffix in EXTENSION_SUFFIXES:
        found.extend((REPO / "bgtools").rglob(f"*{suffix}"))
        found.extend(REPO.glob(f"*__mypyc{suffix}"))
    return sorted(set(found))


def remove_compiled() -> None:
    """Leave the source tree pure Python (a stale compiled module would hide edits)."""
    for path in compiled_files():
        path.unlink()


def build_in_place() -> bool:
    """Compile the hot path next to its sources; True when the compiled build is there."""
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "--parallel",
                           str(os.cpu_count() or 1)], cwd=REPO, check=False,
                          stdout=subprocess.DEVNULL)
    built = compiled_files()
    if done.returncode != 0 or not built:
        return False
    # A rebuild rewrites mypyc's shared library but may leave a module's small stub as it
    # was: its old time would make the suite's stale-module check refuse a fresh build.
    for path in built:
        os.utime(path)
    return True


SCRATCH_IGNORED = (".git", ".ci-venv", ".venv", "build", "dist", "__pycache__", ".hypothesis",
                   ".mypy_cache", ".pytest_cache", "_build", "fuzz-crashes", "*.egg-info",
                   *(f"*{suffix}" for suffix in EXTENSION_SUFFIXES))


def pure_copy(parent: Path) -> Path:
    """A copy of the tree under ``parent`` with no compiled module and no build output."""
    tree = parent / "bgtools-pure"
    shutil.copytree(REPO, tree, ignore=shutil.ignore_patterns(*SCRATCH_IGNORED), symlinks=True)
    return tree


def pytest_command(build: str, tree: Path,
                   arguments: list[str]) -> tuple[list[str], dict[str, str]]:
    """The pytest command line and environment for one build's run in ``tree``."""
    print(f"== pytest on the {build} build ({tree}): pytest {' '.join(arguments)}", flush=True)
    env = {**os.environ, "BGTOOLS_EXPECT_BUILD": build}
    return [sys.executable, "-m", "pytest", *arguments], env


def worker_arguments(workers: int) -> list[str]:
    """pytest's arguments that spread a run over ``workers`` processes (none for one)."""
    if workers <= 1:
        return []
    if importlib.util.find_spec("xdist") is None:  # pytest-xdist, from the test extra
        print("== pytest-xdist is not installed: the compiled build's run uses one process",
              flush=True)
        return []
    return ["-n", str(workers), "--dist", "worksteal"]


def run_compiled(arguments: list[str], workers: int = 1) -> int:
    """Build in place, run the suite on the compiled build, leave the tree pure again."""
    try:
        if not build_in_place():
            print("== the compiled build could not be made (see setup.py's message)",
                  file=sys.stderr)
            return 1
        command, env = pytest_command("compiled", REPO, [*worker_arguments(workers), *arguments])
        return subprocess.run(command, cwd=REPO, env=env, check=False).returncode
    finally:
        remove_compiled()


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=("compiled", "pure"), default=None,
                        help="test one build only (the pure one then runs the whole suite)")
    parser.add_argument("--serial", action="store_true",
                        help="run the two builds one after the other, not side by side")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes for the compiled build's run (default: one per core)")
    args, pytest_args = parser.parse_known_args(argv)
    if args.only == "compiled":
        return int(run_compiled(pytest_args, args.workers) != 0)
    pure_args = pytest_args if args.only == "pure" else ["-m", "not slow", *pytest_args]
    with tempfile.TemporaryDirectory(prefix="bgtools-test-builds-") as scratch:
        tree = pure_copy(Path(scratch))
        command, env = pytest_command("pure", tree, pure_args)
        if args.only == "pure" or args.serial:
            pure_status = subprocess.run(command, cwd=tree, env=env, check=False).returncode
            compiled_status = 0 if args.only == "pure" else run_compiled(pytest_args,
                                                                        args.workers)
        else:
            log = Path(scratch) / "pure.log"
            with log.open("wb") as out:
                pure = subprocess.Popen(command, cwd=tree, env=env, stdout=out,
                                        stderr=subprocess.STDOUT)
                try:
                    compiled_status = run_compiled(pytest_args, args.workers)
                finally:
                    pure_status = pure.wait()
            print("== the pure build's run:", flush=True)
            sys.stdout.write(log.read_text(encoding="utf-8", errors="replace"))
        print(f"== compiled build: {'passed' if compiled_status == 0 else 'FAILED'}; "
              f"pure build: {'passed' if pure_status == 0 else 'FAILED'}", flush=True)
        return int(compiled_status != 0 or pure_status != 0)


if __name__ == "__main__":
    sys.exit(main())
