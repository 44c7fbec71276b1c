"""Time ``bgtools export`` and ``bgtools stats`` against ``bgtools validate`` on a directory.

``python benchmarks/bench_data.py DIR [--repeat 3] [--jobs 1] [--include-invalid]``

Each command runs as a subprocess, end to end (start-up included), ``--repeat`` times; the
best wall time and the best CPU time (user + system of the process and its workers, which
depends less on the machine's other load) are printed with the ratio to ``validate``, and
the peak memory (largest resident set of the process or a worker).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def measure(args: list[str], repeat: int) -> tuple[float, float, int]:
    """Best wall time, best CPU time (s) and peak resident memory (KB) of ``args``."""
    walls, cpus, peak = [], [], 0
    env = dict(os.environ, BGTOOLS_PROGRESS="0")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                       check=False)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        peak = max(peak, after.ru_maxrss)
    return min(walls), min(cpus), peak


def main(argv: list[str] | None = None) -> int:
    """Command line: print one line per command."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--include-invalid", action="store_true")
    args = parser.parse_args(argv)
    # The console script (``python -m bgtools.cli`` would register the commands of
    # cli_answers and cli_data on another copy of the app).
    bgtools = [str(Path(sys.executable).with_name("bgtools"))]
    common = [args.directory, "--jobs", str(args.jobs)]
    keep = ["--include-invalid"] if args.include_invalid else []
    with tempfile.TemporaryDirectory() as tmp:
        runs = {
            "validate --json": bgtools + ["validate", "--json", *common],
            "export --to csv": bgtools + ["export", *common, *keep, "--to", "csv", "-o",
                                          str(Path(tmp) / "rows.csv"), "--force"],
            "stats --json": bgtools + ["stats", "--json", *common, *keep],
        }
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            pass
        else:
            runs["export --to parquet"] = bgtools + [
                "export", *common, *keep, "--to", "parquet", "-o",
                str(Path(tmp) / "rows.parquet"), "--force"]
        base: tuple[float, float, int] | None = None
        for name, command in runs.items():
            wall, cpu, peak = measure(command, args.repeat)
            base = base or (wall, cpu, peak)
            print(f"{name:22s} wall {wall:7.2f} s ({wall / base[0]:4.2f}x)  "
                  f"cpu {cpu:7.2f} s ({cpu / base[1]:4.2f}x)  peak {peak / 1024:6.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
