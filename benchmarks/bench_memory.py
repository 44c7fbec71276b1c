"""Peak memory of the archive commands on 10^3, 10^4 and 10^5 copies of one file.

``python benchmarks/bench_memory.py [--counts 1000 10000 100000] [--source FILE]
[--per-dir 1000 | --flat] [--jobs 1 0] [--only NAME...] [--keep DIR]``

The copies are hard links (no disk space) in a temporary tree of ``--per-dir`` files per
directory (a sorted walk lists a whole directory at once, so a flat directory of 10^5 names
costs its listing: ``--flat`` measures that too). Each command (``validate --json``,
``validate`` with the progress bar off, ``export --to csv`` and ``--to parquet``, ``stats
--json``, ``standings --json``) runs under ``/usr/bin/time -v`` once per count and per
``--jobs`` value (0: the default, one worker process per core), and its peak resident set
("Maximum resident set size": the largest of the process and its workers) is printed in
MB, with the growth from the smallest count. Outputs go to /dev/null or a temporary file.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ENV = dict(os.environ, BGTOOLS_PROGRESS="0", PYTHONHASHSEED="0")
SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "example_gnubg.mat"


def make_copies(source: Path, top: Path, count: int, per_dir: int | None) -> None:
    """``count`` hard links of ``source`` under ``top`` (``per_dir`` a directory, or flat)."""
    top.mkdir(parents=True)
    suffix = source.suffix
    for i in range(count):
        if per_dir is None:
            target = top / f"{i:06d}{suffix}"
        else:
            folder = top / f"d{i // per_dir:04d}"
            if i % per_dir == 0:
                folder.mkdir()
            target = folder / f"{i:06d}{suffix}"
        try:
            os.link(source, target)
        except OSError:  # another file system: copy
            target.write_bytes(source.read_bytes())


def commands(bgtools: str, top: Path, out: Path) -> dict[str, list[str]]:
    """The commands measured, by name (``--jobs`` is added per run)."""
    path = str(top)
    return {
        "validate --json": [bgtools, "validate", "--json", path],
        "validate": [bgtools, "validate", path],
        "export --to csv": [bgtools, "export", path, "--to", "csv", "-o",
                            str(out / "rows.csv"), "--force"],
        "export --to parquet": [bgtools, "export", path, "--to", "parquet", "-o",
                                str(out / "rows.parquet"), "--force"],
        "stats --json": [bgtools, "stats", "--json", path],
        "standings --json": [bgtools, "standings", "--json", path],
    }


def peak_rss(command: list[str]) -> tuple[float, float]:
    """The peak resident set (MB) and the wall time (s) of one run under /usr/bin/time -v."""
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-v", *command], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, env=ENV, check=False)
    wall = time.perf_counter() - start
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"/usr/bin/time gave no peak: {done.stderr[-500:]}")
    return int(found.group(1)) / 1000, wall


def main(argv: list[str] | None = None) -> int:
    """Command line: one line per command and jobs value, one column per count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--source", type=Path, default=SAMPLE)
    parser.add_argument("--per-dir", type=int, default=1000)
    parser.add_argument("--flat", action="store_true", help="all copies in one directory")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 0],
                        help="--jobs values (0: the default)")
    parser.add_argument("--only", nargs="+", help="command names to run (default: all)")
    args = parser.parse_args(argv)
    bgtools = str(Path(sys.executable).with_name("bgtools"))
    per_dir = None if args.flat else args.per_dir
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
        base = Path(tmp)
        tops = {}
        for count in args.counts:
            tops[count] = base / f"n{count}"
            make_copies(args.source, tops[count], count, per_dir)
        names = list(commands(bgtools, base, base))
        if args.only:
            names = [n for n in names if n in args.only]
        width = max(len(n) for n in names) + 10
        head = "".join(f"{c:>16,}" for c in args.counts)
        print(f"{'peak RSS, MB':{width}s}{head}   (growth from {args.counts[0]:,})")
        for name in names:
            for jobs in args.jobs:
                label = f"{name} --jobs {jobs or 'default'}"
                peaks = []
                cells = ""
                for count in args.counts:
                    command = commands(bgtools, tops[count], base)[name]
                    if jobs:
                        command += ["--jobs", str(jobs)]
                    peak, wall = peak_rss(command)
                    peaks.append(peak)
                    cells += f"{peak:9.1f} ({wall:4.0f}s)"
                print(f"{label:{width}s}{cells}   {peaks[-1] - peaks[0]:+.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
