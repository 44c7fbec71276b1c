"""Benchmark the strict replayer: read, parse and replay match files, report rolls per second.

Usage: python benchmarks/bench_validate.py [PATH ...] [--repeat N]
Default PATH: ../shared/corpus (every .mat/.txt file). The first pass includes cold caches
(Lark grammar load, notation memo); later passes show the steady state.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bgtools.readers.detect import load_file
from bgtools.readers.inputs import expand_paths
from bgtools.replay import replay_match


def main() -> None:
    """Read and replay every file ``--repeat`` times; print rolls per second per pass."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("paths", nargs="*",
                        default=[str(Path(__file__).resolve().parents[2] / "shared" / "corpus")])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    files = [path for _, path, err in expand_paths(args.paths)  # (paths as str: the walk's)
             if path is not None and err is None and Path(str(path)).suffix != ".sgf"]
    for attempt in range(1, args.repeat + 1):
        start = time.perf_counter()
        cpu_start = time.process_time()
        rolls = games = 0
        read_time = 0.0
        for path in files:
            t0 = time.perf_counter()
            try:
                loaded = load_file(path)
            except Exception:  # noqa: BLE001 - an unreadable file is skipped, as validate would
                continue
            read_time += time.perf_counter() - t0
            for record in loaded.records:
                replay = replay_match(record)
                rolls += replay.rolls
                games += len(replay.games)
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        print(f"pass {attempt}: {len(files)} files, {games} games, {rolls} rolls in "
              f"{elapsed:.2f} s = {rolls / elapsed:,.0f} rolls/s (cpu {cpu:.2f} s) "
              f"(reading {read_time:.2f} s, replay {elapsed - read_time:.2f} s)")


if __name__ == "__main__":
    main()
