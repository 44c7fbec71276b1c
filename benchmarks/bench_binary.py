"""Read + validate speed of the binary formats against their ``.mat`` twins, in one run.

    python benchmarks/bench_binary.py [CORPUS] [--runs N] [--callgrind]

For every match the corpus holds as ``gammonview/*.mat`` (or ``synthetic/``),
``xg-binary/*.xg`` and ``bgblitz/*.bgf``, times ``analyse_file`` (read, replay, every
check) with the replayer's caches cleared before each run, and prints rolls per second of
CPU time (best of ``--runs``) for each format, with the time of reading alone. Each run
times every format in turn, so that a machine shared with other work slows all alike.

The caches the readers and the replayer keep for the process (resolved plays, the Smile
decoder's layouts and patterns) are cleared before each run. CPU time still moves when
other work shares the cores; ``--callgrind`` also counts the instructions each format
costs (valgrind's callgrind, one cold pass over the files per format minus a pass that
only imports and loads them, with PYTHONHASHSEED=0), which is repeatable under load.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bgtools.engine import resolve
from bgtools.errors import UnsupportedFormatError
from bgtools.limits import MAX_DECOMPRESSED_BYTES
from bgtools.readers import smile
from bgtools.readers import xg as xg_reader
from bgtools.readers.detect import read_records
from bgtools.readers.inflate import InflatedChunks, inflate_bounded
from bgtools.reports.files import analyse_file

FORMATS = ("mat", "xg", "bgf")


def twins(corpus: Path) -> dict[str, list[Path]]:
    """The files of each format, in the same order of matches."""
    found: dict[str, list[Path]] = {kind: [] for kind in FORMATS}
    for xg in sorted((corpus / "xg-binary").glob("*.xg")):
        mat = corpus / "gammonview" / f"{xg.stem}.mat"
        mat = mat if mat.exists() else corpus / "synthetic" / f"{xg.stem}.mat"
        bgf = corpus / "bgblitz" / f"{xg.stem}.bgf"
        if mat.exists() and bgf.exists():
            for kind, path in zip(FORMATS, (mat, xg, bgf)):
                found[kind].append(path)
    return found


def _cold() -> None:
    resolve._RESOLVED.clear()  # noqa: SLF001 - every format starts from cold caches
    resolve._LEGAL.clear()  # noqa: SLF001
    smile._layouts.clear()  # noqa: SLF001 - the layouts of skipped values learnt
    smile._fast_patterns.clear()  # noqa: SLF001


def _best_interleaved(works: dict[str, Callable[[], object]], runs: int) -> dict[str, float]:
    """The best CPU time of each work over ``runs`` rounds, every round running each work
    once in turn (with cold caches), so that all share the machine's slow and quick
    moments alike."""
    best = dict.fromkeys(works, float("inf"))
    for _ in range(runs):
        for key, work in works.items():
            _cold()
            start = time.process_time()
            work()
            best[key] = min(best[key], time.process_time() - start)
    return best


def _analyse(paths: list[Path]) -> int:
    rolls = 0
    for path in paths:
        result = analyse_file(str(path), path)
        assert result.error is None, result.error
        rolls += sum(replay.rolls for replay in result.replays)
    return rolls


def _read_each(datas: list[bytes]) -> None:
    for data in datas:  # each record let go before the next is read, as analyse_file does
        read_records(data, "x")


def _inflating(kind: str, datas: list[bytes]) -> Callable[[], object]:
    """Only the decompression a reader of ``kind`` must do before it can read a record:
    ``temp.xg`` in the chunks the reader inflates, a ``.bgf`` body in one call."""
    if kind == "xg":
        members = [xg_reader._archived(data, "x", "temp.xg") for data in datas]  # noqa: SLF001
        chunk = xg_reader._CHUNK_RECORDS * xg_reader.RECORD_SIZE  # noqa: SLF001

        def inflate_xg() -> None:
            for member in members:
                assert member is not None
                for _ in InflatedChunks(member[0], chunk, member[1]):
                    pass
        return inflate_xg
    bodies = [data.partition(b"\n")[2] for data in datas]

    def inflate_bgf() -> None:
        for body in bodies:  # each body let go before the next, as a reader does
            inflate_bounded(body, MAX_DECOMPRESSED_BYTES, "x", "the body",
                            UnsupportedFormatError, 31 if body[:2] == b"\x1f\x8b" else 15)
    return inflate_bgf


def cpu_table(files: dict[str, list[Path]], runs: int) -> None:
    """Rolls per CPU second of each format, read + validate and reading alone; for the
    binary formats, the time of inflating alone, which no reader can avoid."""
    works: dict[str, Callable[[], object]] = {}
    for kind in FORMATS:
        paths = files[kind]
        datas = [path.read_bytes() for path in paths]
        works[kind] = lambda p=paths: _analyse(p)  # type: ignore[misc]
        works[f"{kind} reading"] = lambda d=datas: _read_each(d)  # type: ignore[misc]
        if kind != "mat":
            works[f"{kind} inflating"] = _inflating(kind, datas)
    best = _best_interleaved(works, runs)
    for kind in FORMATS:
        rolls = _analyse(files[kind])
        seconds, reading = best[kind], best[f"{kind} reading"]
        inflating = best.get(f"{kind} inflating")
        floor = "" if inflating is None else f", inflating alone {inflating * 1000:4.1f} ms"
        print(f"{kind:4} {len(files[kind])} files {rolls:6} rolls: {seconds * 1000:7.1f} ms CPU "
              f"= {rolls / seconds:8,.0f} rolls/s  (reading alone {reading * 1000:6.1f} ms"
              f"{floor})")


def _instructions(kind: str, corpus: Path) -> int:
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, __file__, str(corpus), "--inner", kind]
    environment = {**os.environ, "PYTHONHASHSEED": "0"}  # hash seeds change the work
    done = subprocess.run(command, capture_output=True, text=True, check=True,
                          env=environment)
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    assert found is not None, done.stderr[-2000:]
    return int(found.group(1))


def callgrind_table(files: dict[str, list[Path]], corpus: Path) -> None:
    """Instructions per roll of each format (one cold pass, imports subtracted)."""
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: no instruction counts")
        return
    base = _instructions("none", corpus)
    counts = {kind: _instructions(kind, corpus) - base for kind in FORMATS}
    rolls = {kind: _analyse(files[kind]) for kind in FORMATS}
    for kind in FORMATS:
        per_roll = counts[kind] / rolls[kind]
        ratio = counts[kind] / counts["mat"]
        print(f"{kind:4} {counts[kind] / 1e6:8.1f} M instructions = {per_roll:9,.0f} per roll "
              f"({ratio:.2f} x mat)")


def main() -> None:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", default=str(REPO.parent / "shared" / "corpus"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--inner", choices=("none", *FORMATS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    corpus = Path(args.corpus)
    files = twins(corpus)
    if args.inner is not None:  # one cold pass, under valgrind
        # Every reader's modules are loaded in the baseline too, so that only the work of
        # reading and validating is counted.
        import bgtools.readers.bgf
        import bgtools.readers.mat
        import bgtools.readers.xg  # noqa: F401

        for paths in files.values():
            for path in paths:
                path.read_bytes()
        if args.inner != "none":
            _analyse(files[args.inner])
        return
    if not files["mat"]:
        sys.exit(f"no twins under {corpus}")
    cpu_table(files, args.runs)
    if args.callgrind:
        callgrind_table(files, corpus)


if __name__ == "__main__":
    main()
