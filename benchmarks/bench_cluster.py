"""Benchmark ``--scheduler`` against ``--jobs``: files per second, and per worker (issue 41).

``python benchmarks/bench_cluster.py [--files 100000] [--workers 1,2] [--command validate]
[--scheduler ADDRESS] [--repeat 1] [--keep DIR]``

1. Builds an archive of ``--files`` files in a temporary directory (or ``--keep DIR``) by
   copying the readable match files of the shared corpus (else ``tests/files/corpus``), each
   copy under a new name, round robin, so the archive's mix of formats and sizes is the
   corpus's.
2. Times ``bgtools COMMAND --json ARCHIVE`` as a subprocess (wall clock, end to end: start-up,
   and for ``--scheduler local`` the start of the cluster, included) with ``--jobs W`` and
   with ``--scheduler local --jobs W`` for each W of ``--workers`` (and with ``--scheduler
   ADDRESS`` when given: a running cluster, whose worker count is asked of it), checks that
   both print the same output, and prints files/s and files/s per worker (median of
   ``--repeat`` runs).

The machine's other load makes single runs noisy: on a shared machine take several.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
BUNDLED = REPO / "tests" / "files" / "corpus"
SUFFIXES = {".mat", ".txt", ".sgf", ".xg", ".bgf", ".json"}


def seed_files() -> list[Path]:
    """The readable match files of the corpus (those ``bgtools validate`` can read)."""
    from bgtools.reports.files import analyse_file

    root = CORPUS if CORPUS.is_dir() else BUNDLED
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)
    return [p for p in files if analyse_file(str(p), p).error is None]


def build_archive(directory: Path, count: int) -> None:
    """``count`` copies of the seed files under new names, 1,000 to a subdirectory."""
    seeds = seed_files()
    if not seeds:
        sys.exit("no seed files: neither ../shared/corpus nor tests/files/corpus")
    for number in range(count):
        seed = seeds[number % len(seeds)]
        target = directory / f"{number // 1000:03d}" / f"m{number:06d}{seed.suffix}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(seed, target)


def timed_run(command: list[str]) -> tuple[float, str]:
    """Wall seconds of ``bgtools COMMAND`` and a digest of its stdout."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", "from bgtools.cli import main; main()",
                           *command], capture_output=True, check=False,
                          stdin=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1, 2) or not done.stdout:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): "
                 f"{done.stderr.decode()[-2000:]}")
    return seconds, hashlib.sha256(done.stdout).hexdigest()


def remote_workers(address: str) -> int:
    """The worker threads of a running cluster."""
    import distributed

    with distributed.Client(address, timeout=10, set_as_default=False) as client:
        return max(1, sum(client.nthreads().values()))


def main() -> None:
    """Build the archive, run each configuration, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--command", default="validate",
                        choices=["validate", "stats", "standings"])
    parser.add_argument("--scheduler", help="also a running cluster at this address")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="build (or reuse) the archive here")
    args = parser.parse_args()
    counts = [int(w) for w in args.workers.split(",")]

    scratch = None
    directory = args.keep
    if directory is None:
        scratch = tempfile.TemporaryDirectory(prefix="bench_cluster_")
        directory = Path(scratch.name)
    try:
        if not any(directory.rglob("m*")):
            start = time.perf_counter()
            build_archive(directory, args.files)
            print(f"archive: {args.files:,} files in {directory} "
                  f"({time.perf_counter() - start:.1f} s to build)")
        files = sum(1 for p in directory.rglob("m*") if p.is_file())
        runs: list[tuple[str, int, list[str]]] = []
        for workers in counts:
            runs.append((f"--jobs {workers}", workers, ["--jobs", str(workers)]))
            runs.append((f"--scheduler local --jobs {workers}", workers,
                         ["--scheduler", "local", "--jobs", str(workers)]))
        if args.scheduler:
            runs.append((f"--scheduler {args.scheduler}", remote_workers(args.scheduler),
                         ["--scheduler", args.scheduler]))
        digests = set()
        print(f"{'run':<34} {'workers':>7} {'seconds':>9} {'files/s':>9} {'per worker':>10}")
        for label, workers, options in runs:
            times = []
            for _ in range(args.repeat):
                seconds, digest = timed_run([args.command, "--json", *options,
                                             str(directory)])
                times.append(seconds)
                digests.add(digest)
            seconds = statistics.median(times)
            rate = files / seconds
            print(f"{label:<34} {workers:>7} {seconds:>9.2f} {rate:>9.1f} "
                  f"{rate / workers:>10.1f}", flush=True)
        print("output identical in every run" if len(digests) == 1
              else f"OUTPUT DIFFERS: {len(digests)} distinct outputs")
    finally:
        if scratch is not None:
            scratch.cleanup()


if __name__ == "__main__":
    main()
