"""Benchmark the JSON match codec: write every record of a directory as bgtools JSON and read
it back, best of ``--repeat`` passes.

Usage: python benchmarks/bench_json.py [PATH ...] [--repeat N]
Default PATH: ../shared/corpus. Prints the records, the JSON bytes and the time of
``dumps_match`` (encode and print) and of ``parse_json`` (decode), with actions per second.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bgtools.readers.detect import load_file
from bgtools.readers.inputs import expand_paths
from bgtools.readers.json import parse_json
from bgtools.record import MatchRecord
from bgtools.write.json import dumps_match


def load_records(paths: list[str]) -> list[MatchRecord]:
    """Every record of the readable files under ``paths``."""
    records: list[MatchRecord] = []
    for _, path, error in expand_paths(paths):
        if path is None or error is not None:
            continue
        try:
            records.extend(load_file(path).records)
        except Exception:  # noqa: BLE001 - an unreadable file is skipped, as validate would
            continue
    return records


def main() -> None:
    """Time encoding and decoding of every record; print the best pass of each."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("paths", nargs="*",
                        default=[str(Path(__file__).resolve().parents[2] / "shared" / "corpus")])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    records = load_records(args.paths)
    actions = sum(len(game.actions) for record in records for game in record.games)
    texts: list[str] = []
    encode_times: list[float] = []
    decode_times: list[float] = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        texts = [dumps_match(record) for record in records]
        encode_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        for text in texts:
            parse_json(text)
        decode_times.append(time.perf_counter() - start)
    size = sum(len(text.encode("utf-8")) for text in texts)
    encode, decode = min(encode_times), min(decode_times)
    print(f"{len(records)} records, {actions} actions, {size / 1e6:.1f} MB of JSON")
    print(f"encode {encode:.3f} s = {actions / encode:,.0f} actions/s; "
          f"decode {decode:.3f} s = {actions / decode:,.0f} actions/s (best of {args.repeat})")


if __name__ == "__main__":
    main()
