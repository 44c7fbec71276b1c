"""Long fuzz run: mangle real record files for a while and check every result in-process.

    python scripts/fuzz.py --duration 600 [--seed 7] [--crashes fuzz-crashes] [--max-bytes N]

Uses the mutators of ``tests/helpers/fuzzing.py`` (byte flips, cuts, shuffled, deleted,
duplicated and moved lines, inserted NUL/BOM/CR/tab/punctuation, huge and negative numbers,
random digits ...) on the samples, the test data and the shared corpus when present, and for
``.xg``/``.bgf`` seeds the binary mutators (record fields, cuts and repeated records inside
a container whose checksums stay valid). With ``--field-rate`` of the cases (default a
tenth), also one field mutation of issue 38: an SGF value at and beyond MAX_STRING_CHARS,
nodes, trees or games by the hundred thousand; a ``.bgf`` field made a checker count out of
range, a long string, a list beyond MAX_ELEMENTS, a value nested deep or a big integer.
Every mangled file goes through reading, replay and
every JSON builder of the CLI contract, and every Nth through a CLI command (Typer's
CliRunner); anything but the typed errors, a traceback, an exit code other than 0/1/2 or a
bad JSON line is a crash. Each crashing input is saved in the crash directory with the
traceback next to it. Prints the number of cases run; exits 1 when something crashed.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # for the tests.helpers package

from tests.helpers.fuzzing import (
    BINARY_FIELD_MUTATORS,
    BINARY_MUTATORS,
    CLI_COMMANDS,
    FIELD_MUTATORS,
    apply_binary_edits,
    apply_edits,
    binary_seed_files,
    check_bytes,
    check_cli,
    random_edits,
    seed_files,
)


def main(argv: list[str] | None = None) -> int:
    """Run the fuzzer; return the exit status (0: no crash)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60.0, help="seconds to run (default 60)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: time)")
    parser.add_argument("--crashes", type=Path, default=Path("fuzz-crashes"),
                        help="directory for crashing inputs (default ./fuzz-crashes)")
    parser.add_argument("--max-bytes", type=int, default=200_000,
                        help="only seed files up to this size (default 200000)")
    parser.add_argument("--max-edits", type=int, default=8, help="edits per case (default 8)")
    parser.add_argument("--cli-every", type=int, default=10,
                        help="also run every Nth case through the CLI (0: never; default 10)")
    parser.add_argument("--field-rate", type=float, default=0.1,
                        help="share of the cases that also get one field mutation (issue 38: "
                             "counts, lengths, nesting, big integers; default 0.1)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else int(time.time())
    rng = random.Random(seed)
    files = seed_files(args.max_bytes) + binary_seed_files(args.max_bytes)
    if not files:
        print("no seed files found", file=sys.stderr)
        return 2
    seeds = [(path, path.read_bytes()) for path in files]
    print(f"seed {seed}: {len(seeds)} seed files, {args.duration:g} s", flush=True)
    start = time.monotonic()
    cases = crashes = cli_cases = 0
    workdir = Path(tempfile.mkdtemp(prefix="bgtools-fuzz-"))
    codes = {0: 0, 1: 0, 2: 0}
    seen: set[str] = set()
    next_report = start + 60
    while time.monotonic() - start < args.duration:
        path, data = rng.choice(seeds)
        if path.suffix.lower() in (".xg", ".bgf"):  # edited inside the container
            kinds = sorted(BINARY_MUTATORS)
            edits = [(rng.choice(kinds), rng.randrange(1 << 30), rng.randrange(64),
                      rng.randrange(1 << 16)) for _ in range(rng.randint(1, 3))]
            if rng.random() < args.field_rate:
                edits.append((rng.choice(sorted(BINARY_FIELD_MUTATORS)), rng.randrange(1 << 30),
                              rng.randrange(64), rng.randrange(1 << 16)))
            mangled = apply_binary_edits(data, edits)
        else:
            edits = random_edits(rng, rng.randint(1, args.max_edits))
            if rng.random() < args.field_rate:
                edits.append((rng.choice(sorted(FIELD_MUTATORS)), rng.randrange(1 << 30),
                              rng.randrange(64), rng.randrange(1 << 16)))
            mangled = apply_edits(data, edits)
        cases += 1
        try:
            codes[check_bytes(mangled, path.name)] += 1
            if args.cli_every and cases % args.cli_every == 0:
                cli_cases += 1
                check_cli(mangled, workdir / path.name, rng.choice(CLI_COMMANDS))
        except Exception:  # noqa: BLE001 - every stray exception is a finding
            text = traceback.format_exc()
            key = hashlib.sha1(text.splitlines()[-1].encode() + text.splitlines()[-3].encode())
            digest = hashlib.sha1(mangled).hexdigest()[:16]
            args.crashes.mkdir(parents=True, exist_ok=True)
            (args.crashes / f"{digest}{path.suffix}").write_bytes(mangled)
            (args.crashes / f"{digest}.txt").write_text(
                f"seed file: {path}\nedits: {edits}\n\n{text}", encoding="utf-8")
            crashes += 1
            if key.hexdigest() not in seen:
                seen.add(key.hexdigest())
                print(f"CRASH {digest}: {text.splitlines()[-1]}", flush=True)
        if time.monotonic() >= next_report:
            next_report += 60
            print(f"{cases} cases, {crashes} crashes ({time.monotonic() - start:.0f} s)",
                  flush=True)
    elapsed = time.monotonic() - start
    shutil.rmtree(workdir, ignore_errors=True)
    print(f"{cases} cases ({cli_cases} also through the CLI) in {elapsed:.0f} s "
          f"({cases / elapsed:.0f}/s); exit codes "
          f"0: {codes[0]}, 1: {codes[1]}, 2: {codes[2]}; {crashes} crashes "
          f"({len(seen)} distinct)" + (f", saved in {args.crashes}" if crashes else ""))
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
