"""Run the test suite on both builds of bgtools: compiled by mypyc, and pure Python.

``python scripts/test_builds.py [--only compiled|pure] [--serial] [--workers N] [PYTEST ARGS ...]``

``pip install .`` compiles the hot path with mypyc where it can (``setup.py``) and falls back
to pure Python where it cannot, so both builds must pass. This script (the README's test
command, and what CI runs) tests each build in a scratch copy of the tree, never in the tree
itself (a compiled module beside its source would hide every later edit), and each copy sits
where no ``../shared`` is beside it, as on a bare clone:

* the pure-Python build runs ``pytest -m "not slow"`` in its copy;
* meanwhile the compiled build is made as a wheel of its own copy (``pip wheel``, as
  ``pip install .`` makes one, in the scratch folder) whose compiled modules go beside the
  copy's sources; or, where the installed bgtools is compiled from sources equal to the
  tree's, as after CI's ``pip install .``, that install's modules are copied in; and it runs
  the whole suite, spread over ``--workers`` processes (pytest-xdist).

Where the shared folder of real files is present (``../shared`` beside the repository, or the
folder ``BGTOOLS_TEST_SHARED`` names), the compiled build's whole-suite run reads it, and the
slow tests that read it (marked ``shared`` by ``tests/conftest.py``) then run once more
without it: so a developer's or CI's run also proves what a bare clone's run proves. The
slow tests (oracle comparisons, the whole corpus, fuzzing) run on the compiled build only:
both builds run the same source.

Each run sets ``BGTOOLS_EXPECT_BUILD``, which ``tests/project/test_build.py`` checks against the
modules that actually ran. Extra arguments go to every pytest run; ``--only pure`` runs the
whole suite on the pure build. The exit status is 0 only when every run passed.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("BGTOOLS_TEST_SHARED") or REPO.parent / "shared")
"""The shared folder the tests read when it is present (as ``tests/helpers/paths.py`` finds it)."""

SCRATCH_IGNORED = (".git", ".ci-venv", ".venv", "build", "dist", "__pycache__", ".hypothesis",
                   ".mypy_cache", ".pytest_cache", "_build", "fuzz-crashes", "*.egg-info",
                   *(f"*{suffix}" for suffix in EXTENSION_SUFFIXES))


def scratch_copy(parent: Path, build: str) -> Path:
    """A copy of the tree under ``parent`` with no compiled module and no build output."""
    tree = parent / f"bgtools-{build}"
    shutil.copytree(REPO, tree, ignore=shutil.ignore_patterns(*SCRATCH_IGNORED), symlinks=True)
    return tree


def place_compiled(place: Path, data: bytes) -> None:
    """Put a compiled module's bytes at ``place`` in a copy, with a new time: newer than the
    copied sources, as ``tests/conftest.py``'s check for stale builds wants."""
    place.parent.mkdir(parents=True, exist_ok=True)
    place.write_bytes(data)


def build_compiled(tree: Path) -> bool:
    """Make the compiled build of the copy ``tree`` as a user gets it: a wheel built by pip
    (``pip wheel``, as ``pip install .`` builds one), its compiled modules then placed beside
    the copy's sources; True when the wheel is compiled, else setup.py's reason is printed.
    The wheel and pip's build output stay in the scratch folder and are removed, so nothing
    is built in the tree."""
    wheels = tree.parent / f"{tree.name}-wheel"
    # No build isolation: the test extra's setuptools and mypy build it, offline. Verbose, so
    # that setup.py's messages (why it stayed pure) are in the output, shown on failure.
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--verbose", "--no-deps",
                           "--no-build-isolation", "--no-index", "--wheel-dir", str(wheels),
                           str(tree)], check=False, capture_output=True, text=True,
                          errors="replace")
    for output in (tree / "build", *tree.glob("*.egg-info")):
        shutil.rmtree(output, ignore_errors=True)
    built = sorted(wheels.glob("bgtools-*.whl"))
    modules: list[str] = []
    if done.returncode == 0 and len(built) == 1:
        with zipfile.ZipFile(built[0]) as wheel:
            modules = [name for name in wheel.namelist()
                       if name.endswith(tuple(EXTENSION_SUFFIXES))]
            for name in modules:
                place_compiled(tree / name, wheel.read(name))
    shutil.rmtree(wheels, ignore_errors=True)
    if not modules:
        lines = (done.stdout + done.stderr).splitlines()
        said = [line.strip() for line in lines if "bgtools build:" in line]
        sys.stderr.write("\n".join(dict.fromkeys(said) or lines[-20:]) + "\n")
    return bool(modules)


def installed_modules_for(tree: Path) -> list[tuple[Path, Path]] | None:
    """The compiled modules of the installed bgtools, each with its place in ``tree``, when
    that install is compiled and its sources are those of ``tree`` byte for byte (so that its
    modules are what building ``tree`` would make); else None.

    CI's ``pip install .`` has just compiled this very tree into a wheel: testing that wheel's
    modules saves compiling it a second time, and tests what a user installs."""
    from importlib import metadata

    try:
        where = metadata.distribution("bgtools")
    except metadata.PackageNotFoundError:
        return None
    files = list(where.files or [])
    compiled = [file for file in files
                if any(str(file).endswith(suffix) for suffix in EXTENSION_SUFFIXES)]
    sources = {file.as_posix() for file in files
               if file.suffix == ".py" and file.parts[0] == "bgtools"}
    wanted = {path.relative_to(tree).as_posix() for path in (tree / "bgtools").rglob("*.py")}
    if not compiled or sources != wanted:
        return None
    for name in sorted(wanted):
        if Path(where.locate_file(name)).read_bytes() != (tree / name).read_bytes():
            return None
    return [(Path(where.locate_file(file)), tree / file.as_posix()) for file in compiled]


def pytest_command(build: str, tree: Path, arguments: list[str],
                   shared: Path) -> tuple[list[str], dict[str, str]]:
    """The pytest command line and environment for one run in ``tree``, reading ``shared``."""
    where = "with" if (shared / "corpus").is_dir() else "without"
    print(f"== pytest on the {build} build, {where} the shared corpus ({tree}): "
          f"pytest {' '.join(arguments)}", flush=True)
    env = {**os.environ, "BGTOOLS_EXPECT_BUILD": build, "BGTOOLS_TEST_SHARED": str(shared)}
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


def run_compiled(scratch: Path, arguments: list[str], workers: int) -> int:
    """Make the compiled build in a copy (the installed modules where they match it, see
    :func:`installed_modules_for`, else a wheel built from it, see :func:`build_compiled`),
    run the whole suite on it (with the shared folder where there is one), then, where there
    was one, the slow tests that read it without it."""
    tree = scratch_copy(scratch, "compiled")
    installed = installed_modules_for(tree)
    if installed is not None:
        print(f"== the compiled build: the installed bgtools' {len(installed)} modules, "
              "compiled from these very sources", flush=True)
        for module, place in installed:
            place_compiled(place, module.read_bytes())
    elif not build_compiled(tree):
        print("== the compiled build could not be made (see setup.py's message)",
              file=sys.stderr)
        return 1
    nowhere = scratch / "no-shared"
    with_shared = (SHARED / "corpus").is_dir()
    runs = [([*worker_arguments(workers), *arguments], SHARED if with_shared else nowhere)]
    if with_shared:
        runs.append(([*worker_arguments(workers), "-m", "slow and shared", *arguments],
                     nowhere))
    status = 0
    for run_arguments, shared in runs:
        command, env = pytest_command("compiled", tree, run_arguments, shared)
        status |= subprocess.run(command, cwd=tree, env=env, check=False).returncode
    return status


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
    with tempfile.TemporaryDirectory(prefix="bgtools-test-builds-") as name:
        scratch = Path(name)
        if args.only == "compiled":
            return int(run_compiled(scratch, pytest_args, args.workers) != 0)
        pure_args = pytest_args if args.only == "pure" else ["-m", "not slow", *pytest_args]
        tree = scratch_copy(scratch, "pure")
        command, env = pytest_command("pure", tree, pure_args, scratch / "no-shared")
        if args.only == "pure" or args.serial:
            pure_status = subprocess.run(command, cwd=tree, env=env, check=False).returncode
            compiled_status = 0 if args.only == "pure" else run_compiled(scratch, pytest_args,
                                                                        args.workers)
        else:
            log = scratch / "pure.log"
            with log.open("wb") as out:
                pure = subprocess.Popen(command, cwd=tree, env=env, stdout=out,
                                        stderr=subprocess.STDOUT)
                try:
                    compiled_status = run_compiled(scratch, pytest_args, args.workers)
                finally:
                    pure_status = pure.wait()
            print("== the pure build's run:", flush=True)
            sys.stdout.write(log.read_text(encoding="utf-8", errors="replace"))
        print(f"== compiled build: {'passed' if compiled_status == 0 else 'FAILED'}; "
              f"pure build: {'passed' if pure_status == 0 else 'FAILED'}", flush=True)
        return int(compiled_status != 0 or pure_status != 0)


if __name__ == "__main__":
    sys.exit(main())
