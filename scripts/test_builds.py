"""Run the test suite on both builds of bgtools: compiled by mypyc, and pure Python.

``python scripts/test_builds.py [--only compiled|pure] [PYTEST ARGS ...]``

``pip install .`` compiles the hot path with mypyc where it can (``setup.py``) and falls back
to pure Python where it cannot, so both builds must pass. This script (the README's test
command, and what CI runs):

1. builds the compiled modules in place (``setup.py build_ext --inplace``), runs the whole
   suite on them, with ``BGTOOLS_EXPECT_BUILD=compiled`` (``tests/test_build.py`` fails if
   the pure modules ran instead);
2. removes them again, whatever happened, so the source tree is pure Python, and runs the
   suite without the tests marked ``slow`` on it (``BGTOOLS_EXPECT_BUILD=pure``): the slow
   tests (oracle comparisons, the corpus, fuzzing) ran on the compiled build already, and
   both builds run the same source.

Extra arguments go to both pytest runs. The exit status is 0 only when every run passed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
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
    return done.returncode == 0 and bool(compiled_files())


def run_pytest(build: str, arguments: list[str]) -> int:
    """Run pytest on the tree as it is, telling the suite which build it must find."""
    print(f"== pytest on the {build} build: pytest {' '.join(arguments)}", flush=True)
    env = {**os.environ, "BGTOOLS_EXPECT_BUILD": build}
    return subprocess.run([sys.executable, "-m", "pytest", *arguments], cwd=REPO, env=env,
                          check=False).returncode


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=("compiled", "pure"), default=None,
                        help="test one build only (the pure one then runs the whole suite)")
    args, pytest_args = parser.parse_known_args(argv)
    status = 0
    try:
        if args.only != "pure":
            if not build_in_place():
                print("== the compiled build could not be made (see setup.py's message)",
                      file=sys.stderr)
                return 1
            status |= run_pytest("compiled", pytest_args) != 0
        remove_compiled()
        if args.only != "compiled":
            pure_args = pytest_args if args.only == "pure" else ["-m", "not slow", *pytest_args]
            status |= run_pytest("pure", pure_args) != 0
    finally:
        remove_compiled()
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
