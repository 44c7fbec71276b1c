"""Benchmark ``bgtools validate`` on an archive of GNU Backgammon self-play matches.

``python benchmarks/bench_archive.py [--files 500] [--repeat 3] [--jobs 1] [--keep DIR]``
``python benchmarks/bench_archive.py --distinct [300] --jobs 1 [--builds compiled,pure]``

1. Builds the archive with ``make_selfplay.py``: 7-point matches played by gnubg (or the
   test-suite's cached ones without gnubg), copied to ``--files`` files.
2. Times ``bgtools validate --json DIR`` as a subprocess, end to end (wall clock, interpreter
   start-up included), the median of ``--repeat`` runs, and counts the rolls replayed (bgtools'
   own replay, outside the timing).
3. Where the ``gnubg`` module is installed, times GNU Backgammon's ``import mat`` of the same
   files in one process (a loop of ``gnubg.command('import mat ...')``; the process start and
   module import are timed separately), and counts the rolls gnubg read.
4. Prints rolls per second for both and the ratio.

``--distinct N`` (issue 15) makes the archive of N distinct matches, no copies (so the memo
of resolved plays helps only where real archives repeat themselves: the openings), and
reports the median of ``--repeat`` runs (default 5). ``--builds compiled,pure`` times each
build of this checkout in the same run, each in a scratch copy of the tree (the compiled one
built there, as ``scripts/test_builds.py`` does), so the tree itself is never touched.

The machine's other load makes single runs noisy: take the median of several; the CPU time
(user + system of the validate process) is printed too, as it depends less on other load.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "scripts"))

from make_selfplay import have_gnubg, make_archive
from test_builds import build_compiled, scratch_copy

GNUBG_SCRIPT = r"""
import glob, json, os, sys, time
t0 = time.perf_counter()
import gnubg
gnubg.command("set threads 1")
start_up = time.perf_counter() - t0
files = sorted(glob.glob(os.path.join(sys.argv[1], "*.mat")))
saved = os.dup(1)
devnull = os.open(os.devnull, os.O_WRONLY)
os.dup2(devnull, 1)
try:
    t = time.perf_counter()
    for f in files:
        gnubg.command("import mat " + f)
    elapsed = time.perf_counter() - t
    rolls = 0
    for f in files:  # untimed: count what gnubg read
        gnubg.command("import mat " + f)
        for g in gnubg.match()["games"]:
            rolls += sum(1 for r in g["game"] if r["action"] == "move")
finally:
    import ctypes
    ctypes.CDLL(None).fflush(None)
    os.dup2(saved, 1)
print(json.dumps({"files": len(files), "rolls": rolls, "import_s": elapsed,
                  "start_up_s": start_up}))
"""


def bgtools_command(directory: Path, jobs: int | None) -> list[str]:
    """The ``bgtools validate`` command line run by the benchmark (this checkout's code)."""
    cmd = [sys.executable, "-c", "from bgtools.cli import main; main()", "validate", "--json"]
    if jobs is not None:
        cmd += ["--jobs", str(jobs)]
    return cmd + [str(directory)]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_bgtools(directory: Path, jobs: int | None, repeat: int,
                 tree: Path = REPO) -> tuple[float, float, list[dict[str, object]]]:
    """Median wall-clock time and median CPU time (user + system, the process and its
    workers) of ``bgtools validate --json`` of the bgtools in ``tree`` over ``repeat`` runs,
    and its JSON objects."""
    env = dict(os.environ, PYTHONPATH=str(tree) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    walls: list[float] = []
    cpus: list[float] = []
    objects: list[dict[str, object]] = []
    for _ in range(repeat):
        cpu = _children_cpu()
        start = time.perf_counter()
        # cwd=tree: ``python -c`` puts the working directory first on sys.path.
        done = subprocess.run(bgtools_command(directory, jobs), env=env, capture_output=True,
                              cwd=tree, text=True, stdin=subprocess.DEVNULL, timeout=3600,
                              check=False)
        elapsed = time.perf_counter() - start
        cpu = _children_cpu() - cpu
        if done.returncode not in (0, 1):
            raise SystemExit(f"bgtools validate failed ({done.returncode}): {done.stderr}")
        walls.append(elapsed)
        cpus.append(cpu)
        objects = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return statistics.median(walls), statistics.median(cpus), objects


def count_rolls(files: list[Path]) -> int:
    """Rolls replayed by bgtools in ``files`` (each distinct content replayed once)."""
    sys.path.insert(0, str(REPO))
    from bgtools.readers.detect import load_file
    from bgtools.replay import replay_match

    per_content: dict[bytes, int] = {}
    total = 0
    for path in files:
        data = path.read_bytes()
        if data not in per_content:
            per_content[data] = sum(replay_match(r).rolls for r in load_file(path).records)
        total += per_content[data]
    return total


def time_gnubg(directory: Path, repeat: int) -> dict[str, float] | None:
    """The median (by import time) of ``repeat`` gnubg ``import mat`` loops over the archive,
    or None without gnubg."""
    if not have_gnubg():
        return None
    runs: list[dict[str, float]] = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", GNUBG_SCRIPT, str(directory)],
                              capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              timeout=3600, check=False)
        wall = time.perf_counter() - start
        if done.returncode != 0:
            print(f"gnubg run failed: {done.stderr.strip()[-300:]}", file=sys.stderr)
            return None
        result = json.loads(done.stdout.strip().splitlines()[-1])
        result["wall_s"] = wall
        runs.append(result)
    runs.sort(key=lambda run: run["import_s"])
    return runs[len(runs) // 2]


def report_bgtools(directory: Path, rolls: int, jobs: int | None, repeat: int,
                   build: str, tree: Path = REPO) -> float:
    """Time ``bgtools validate`` of the bgtools in ``tree``; print and return its rolls/s."""
    seconds, cpu, objects = time_bgtools(directory, jobs, repeat, tree)
    invalid = sum(1 for o in objects if not o.get("valid"))
    rate = rolls / seconds
    print(f"bgtools validate ({build}): {seconds:.3f} s end to end (median of {repeat}) = "
          f"{rate:,.0f} rolls/s; CPU {cpu:.3f} s = {rolls / cpu:,.0f} rolls per CPU second; "
          f"{len(objects)} files checked, {invalid} invalid")
    return rate


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--matches", type=int, default=16, help="distinct self-play matches")
    parser.add_argument("--distinct", type=int, nargs="?", const=300, default=None,
                        metavar="N", help="N distinct matches, no copies (default 300)")
    parser.add_argument("--repeat", type=int, default=None,
                        help="runs per measurement (default 3, or 5 with --distinct)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="pass --jobs N to bgtools validate (default: not passed)")
    parser.add_argument("--builds", default=None,
                        help="comma-separated builds to time: compiled, pure (default: the "
                             "tree as it is)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="build (or reuse) the archive in this directory and keep it")
    args = parser.parse_args(argv)
    if args.distinct is not None:
        args.files = args.matches = args.distinct
    repeat = args.repeat or (5 if args.distinct is not None else 3)
    builds = args.builds.split(",") if args.builds else []
    if any(b not in ("compiled", "pure") for b in builds):
        parser.error("--builds takes compiled and/or pure")

    with tempfile.TemporaryDirectory(prefix="bgtools-bench-") as tmp:
        directory = args.keep or Path(tmp) / "archive"
        existing = sorted(directory.glob("*.mat")) if directory.is_dir() else []
        files = existing if len(existing) == args.files else make_archive(
            directory, args.files, args.matches)
        rolls = count_rolls(files)
        distinct = len({path.read_bytes() for path in files})
        print(f"archive: {len(files)} files ({distinct} distinct), {rolls} rolls ({directory})")

        rates: dict[str, float] = {}
        for build in builds or ["tree as it is"]:
            tree = REPO if not builds else scratch_copy(Path(tmp), build)
            if build == "compiled" and not build_compiled(tree):
                print("compiled build: could not be made; skipped")
                continue
            rates[build] = report_bgtools(directory, rolls, args.jobs, repeat, build, tree)

        gnubg = time_gnubg(directory, repeat)
        if gnubg is None:
            print("gnubg: module not installed, no comparison")
            return 0
        g_rate = gnubg["rolls"] / gnubg["import_s"]
        g_wall_rate = gnubg["rolls"] / gnubg["wall_s"]
        print(f"gnubg import mat: {gnubg['import_s']:.3f} s for {gnubg['files']:.0f} files, "
              f"{gnubg['rolls']:.0f} rolls = {g_rate:,.0f} rolls/s "
              f"(process end to end {gnubg['wall_s']:.3f} s = {g_wall_rate:,.0f} rolls/s; "
              f"module start-up {gnubg['start_up_s']:.3f} s; median of {repeat})")
        for build, rate in rates.items():
            print(f"ratio bgtools ({build}) / gnubg: {rate / g_rate:.3f} (import loop), "
                  f"{rate / g_wall_rate:.3f} (end to end); gnubg's whole process is "
                  f"{g_wall_rate / rate:.1f} x as fast")
    return 0


if __name__ == "__main__":
    sys.exit(main())
