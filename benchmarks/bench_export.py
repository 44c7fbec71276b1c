"""Time ``bgtools export`` against ``bgtools validate`` on the same inputs, in one run.

``python benchmarks/bench_export.py PATH... [--repeat 5] [--jobs 1] [--parquet]
[--callgrind]``

Each command runs as a subprocess, end to end (start-up included), ``--repeat`` times,
the commands taking turns so that a change in the machine's load touches them alike. For
each command the median CPU time (user + system of the process and its workers: other
processes on the machine change it less than the wall time) and the median wall time are
printed, with the ratio to ``validate``. ``--callgrind`` runs each command once under
``valgrind --tool=callgrind`` instead and prints the instructions executed (the same on a
loaded machine; about fifty times slower, so give it a few files).

Both commands read every input whatever its validity (``export --include-invalid``), so
they replay the same records.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from time import perf_counter

ENV = dict(os.environ, BGTOOLS_PROGRESS="0", PYTHONHASHSEED="0")


def cpu_and_wall(command: list[str]) -> tuple[float, float]:
    """The CPU time (s, the process and its children) and the wall time of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV,
                   check=False)
    wall = perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, wall


def instructions(command: list[str]) -> int:
    """The instructions one run executes, counted by callgrind (its children included)."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--trace-children=yes",
             f"--callgrind-out-file={tmp}/callgrind.%p", *command],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=ENV, check=False)
    counts = re.findall(r"Collected : (\d+)", done.stderr)
    if not counts:
        raise SystemExit(f"valgrind gave no count: {done.stderr[-500:]}")
    return sum(int(c) for c in counts)


def commands(bgtools: list[str], paths: list[str], jobs: int, out: Path,
             parquet: bool) -> dict[str, list[str]]:
    """The commands compared, ``validate`` first."""
    common = [*paths, "--jobs", str(jobs)]
    runs = {
        "validate --json": [*bgtools, "validate", "--json", *common],
        "export --to csv": [*bgtools, "export", *common, "--include-invalid", "--to", "csv",
                            "-o", str(out / "rows.csv"), "--force"],
    }
    if parquet:
        runs["export --to parquet"] = [*bgtools, "export", *common, "--include-invalid",
                                       "--to", "parquet", "-o", str(out / "rows.parquet"),
                                       "--force"]
    return runs


def main(argv: list[str] | None = None) -> int:
    """Command line: one line per command."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--parquet", action="store_true", help="also export --to parquet")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions under valgrind instead of timing")
    args = parser.parse_args(argv)
    # The console script beside this Python (the package installed in its environment).
    bgtools = [str(Path(sys.executable).with_name("bgtools"))]
    with tempfile.TemporaryDirectory() as tmp:
        runs = commands(bgtools, args.paths, args.jobs, Path(tmp), args.parquet)
        if args.callgrind:
            base_count = 0
            for name, command in runs.items():
                count = instructions(command)
                base_count = base_count or count
                print(f"{name:22s} {count / 1e9:8.3f} G instructions ({count / base_count:4.2f}x)")
            return 0
        cpus: dict[str, list[float]] = {name: [] for name in runs}
        walls: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.repeat):
            for name, command in runs.items():
                cpu, wall = cpu_and_wall(command)
                cpus[name].append(cpu)
                walls[name].append(wall)
        base_cpu = statistics.median(cpus["validate --json"])
        base_wall = statistics.median(walls["validate --json"])
        for name in runs:
            cpu, wall = statistics.median(cpus[name]), statistics.median(walls[name])
            print(f"{name:22s} cpu {cpu:7.2f} s ({cpu / base_cpu:4.2f}x)  "
                  f"wall {wall:7.2f} s ({wall / base_wall:4.2f}x)  "
                  f"median of {args.repeat}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
