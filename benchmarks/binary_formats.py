"""Read + validate speed of .xg and .bgf files against their .mat twins (rolls per second).

    python benchmarks/binary_formats.py [CORPUS]   # default ../shared/corpus

For each match of the corpus held as ``gammonview/*.mat`` (or ``synthetic/``),
``xg-binary/*.xg`` and ``bgblitz/*.bgf``, times ``analyse_file`` (read, replay, every check)
with the replayer's caches cleared before each run, best of 5, and prints rolls/s per format
and the time split of the binary readers (decompression, decoding, building the record).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bgtools.engine import resolve
from bgtools.readers.detect import read_records
from bgtools.reports.files import analyse_file


def _best(fn: object, runs: int = 5) -> float:
    best = float("inf")
    for _ in range(runs):
        resolve._RESOLVED.clear()  # noqa: SLF001 - a fair, cold cache for every format
        resolve._LEGAL.clear()  # noqa: SLF001
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    """Print the table."""
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "corpus"
    totals = {"mat": [0.0, 0], "xg": [0.0, 0], "bgf": [0.0, 0]}
    reading = {"xg": 0.0, "bgf": 0.0}
    for xg in sorted((corpus / "xg-binary").glob("*.xg")):
        stem = xg.stem
        mat = corpus / "gammonview" / f"{stem}.mat"
        mat = mat if mat.exists() else corpus / "synthetic" / f"{stem}.mat"
        bgf = corpus / "bgblitz" / f"{stem}.bgf"
        if not (mat.exists() and bgf.exists()):
            continue
        row = [stem[:22].ljust(22)]
        for kind, path in (("mat", mat), ("xg", xg), ("bgf", bgf)):
            result = analyse_file(str(path), path)
            rolls = sum(r.rolls for r in result.replays)
            seconds = _best(lambda p=path: analyse_file(str(p), p))
            totals[kind][0] += seconds
            totals[kind][1] += rolls
            row.append(f"{kind} {seconds * 1000:6.1f} ms {rolls / seconds:8,.0f}/s")
            if kind in reading:
                data = path.read_bytes()
                reading[kind] += _best(lambda d=data: read_records(d, "x"))
        print("  ".join(row))
    print()
    for kind, (seconds, rolls) in totals.items():
        line = (f"{kind:4} {rolls:6} rolls in {seconds * 1000:7.1f} ms: "
                f"{rolls / seconds:8,.0f} rolls/s")
        if kind in reading:
            line += f"  (reading alone {reading[kind] * 1000:.1f} ms)"
        print(line)


if __name__ == "__main__":
    main()
