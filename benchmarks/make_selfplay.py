"""Make the benchmark archive: GNU Backgammon self-play 7-point matches copied to many files.

``python benchmarks/make_selfplay.py OUT_DIR [--files 500] [--matches 16]``

* The distinct matches are played once by gnubg (0-ply, seeded, ``set threads 1``), one
  process per match because gnubg keeps global state, and cached in ``--cache``
  (default ``~/.cache/bgtools-bench/selfplay``); later runs reuse the cache.
* Without the ``gnubg`` module the 7-point matches of ``tests/files/selfplay`` are used.
* ``OUT_DIR`` then receives ``--files`` copies (``m0000.mat`` ...), cycling through the
  distinct matches, so the archive looks like a real one: many files, recurring plays.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FALLBACK = REPO / "tests" / "files" / "selfplay"
DEFAULT_CACHE = (Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
                 / "bgtools-bench" / "selfplay")
FIRST_SEED = 1000
LENGTH = 7


def have_gnubg() -> bool:
    """True when the ``gnubg`` Python module can be imported (checked in a subprocess:
    importing it here would load gnubg into the benchmark process)."""
    probe = subprocess.run([sys.executable, "-c", "import gnubg"], stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=60, check=False)
    return probe.returncode == 0


def _play_one(seed: int, out: Path) -> None:
    """In this process: let gnubg play a 7-point match with ``seed`` and export it to ``out``."""
    sys.path.insert(0, str(REPO))  # for the tests.helpers package
    from tests.helpers.selfplay import Spec, load_gnubg, play_spec, quiet_stdout

    gnubg = load_gnubg()
    with quiet_stdout():
        play_spec(gnubg, Spec(out.stem, seed, LENGTH))
        gnubg.command(f"export match mat {out}")


def distinct_matches(count: int, cache: Path = DEFAULT_CACHE) -> list[Path]:
    """``count`` distinct 7-point self-play matches (generated once into ``cache``), or the
    fallback files from ``tests/files/selfplay`` when gnubg is not installed."""
    if not have_gnubg():
        found = sorted(FALLBACK.glob(f"m{LENGTH}_*.mat"))
        print(f"gnubg module not installed: using {len(found)} match(es) from {FALLBACK}",
              file=sys.stderr)
        return found
    cache.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for k in range(count):
        seed = FIRST_SEED + k
        path = cache / f"m{LENGTH}_seed{seed}.mat"
        if not path.is_file():
            tmp = path.with_suffix(".tmp.mat")
            subprocess.run([sys.executable, __file__, "--play-one", str(seed), str(tmp)],
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True,
                           timeout=600)
            tmp.replace(path)
        paths.append(path)
    return paths


def make_archive(out_dir: Path, files: int, matches: int,
                 cache: Path = DEFAULT_CACHE) -> list[Path]:
    """Fill ``out_dir`` with ``files`` copies of the distinct matches; return the copies."""
    sources = distinct_matches(matches, cache)
    if not sources:
        raise SystemExit("no self-play match available (no gnubg module, no fallback files)")
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for i in range(files):
        target = out_dir / f"m{i:04d}.mat"
        shutil.copyfile(sources[i % len(sources)], target)
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir", type=Path, nargs="?", default=Path("bench-archive"))
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--matches", type=int, default=16, help="distinct matches to play")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--play-one", nargs=2, metavar=("SEED", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.play_one:
        _play_one(int(args.play_one[0]), Path(args.play_one[1]))
        return 0
    written = make_archive(args.out_dir, args.files, args.matches, args.cache)
    print(f"{len(written)} files in {args.out_dir}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
