"""Benchmark the library against the validate path (issue 40): is ``Match.replay()`` as quick
as ``bgtools validate``'s replay of the same files, in one process?

``python benchmarks/bench_api.py [--distinct 300] [--corpus DIR] [--repeat 5]
[--builds compiled,pure]``

Two sets of files, each read and replayed whole in every pass (reading included, one
process, no subprocess start-up):

* the distinct self-play matches of ``benchmarks/make_selfplay.py`` (``--distinct N``: played
  by gnubg where its module is installed, else those of its cache and of
  ``tests/files/selfplay``, each content once);
* the corpus (``../shared/corpus``, every file bgtools reads).

Four ways are timed (CPU time of the process, the ways taking turns), the median of
``--repeat`` passes after one warm-up pass:

``validate``  ``bgtools validate``'s job for a file (``reports.files.analyse_file``);
``api``       ``bgtools.read(path)`` and ``match.replay()``, asking for the verdict
              (``valid``, ``problems``, ``final_score``);
``check``     ``bgtools.read(path)`` and ``match.validate()``;
``walk``      ``api``, then every action of every game and its moments (what a script
              that looks at every position pays).

The ratio ``api / validate`` is the one issue 40 bounds (at most 1.5). ``--builds`` times
each build of this checkout in a scratch copy (the compiled one built there, as
``scripts/test_builds.py`` does), so the tree itself is never touched. Run with another
checkout first on ``PYTHONPATH`` to time that one (``PYTHONPATH=../main python ...``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"


def distinct_selfplay(count: int) -> list[Path]:
    """Up to ``count`` distinct self-play matches: gnubg's (played and cached by
    make_selfplay) where the module is installed, else the cached ones and the test
    suite's, each content once."""
    sys.path.insert(0, str(HERE))
    from make_selfplay import DEFAULT_CACHE, have_gnubg
    from make_selfplay import distinct_matches as played

    if have_gnubg():
        return played(count)
    seen: set[bytes] = set()
    found: list[Path] = []
    for path in [*sorted(DEFAULT_CACHE.glob("*.mat")),
                 *sorted((REPO / "tests" / "files" / "selfplay").glob("*.mat"))]:
        data = path.read_bytes()
        if data not in seen and len(found) < count:
            seen.add(data)
            found.append(path)
    return found


def corpus_files(corpus: Path) -> list[Path]:
    """Every file of ``corpus`` that bgtools reads (an unreadable one is left out)."""
    import bgtools
    from bgtools.readers.inputs import expand_paths

    files: list[Path] = []
    for _, path, error in expand_paths([str(corpus)]):
        if error is None and isinstance(path, str | Path):
            try:
                bgtools.read(path)
            except bgtools.BgtoolsError:
                continue
            files.append(Path(path))
    return files


def ways() -> dict[str, Callable[[list[Path]], int]]:
    """The ways timed, each taking the files and returning the rolls replayed."""
    import bgtools
    from bgtools.reports.files import analyse_file

    def validate(files: list[Path]) -> int:
        return sum(r.rolls for path in files for r in analyse_file(str(path), path).replays)

    def api(files: list[Path]) -> int:
        rolls = 0
        for path in files:
            for match in bgtools.read(path):
                replay = match.replay()
                _ = replay.valid, replay.problems, replay.final_score
                rolls += replay.summary.rolls
        return rolls

    def check(files: list[Path]) -> int:
        for path in files:
            for match in bgtools.read(path):
                _ = match.validate().valid
        return 0  # a verdict does not count rolls

    def walk(files: list[Path]) -> int:
        rolls = 0
        for path in files:
            for match in bgtools.read(path):
                replay = match.replay()
                for game in replay.games:
                    for action in game.actions:
                        _ = action.position_before, action.play, action.pips_after
                rolls += replay.summary.rolls
        return rolls

    found: dict[str, Callable[[list[Path]], int]] = {"validate": validate, "api": api,
                                                     "walk": walk}
    if hasattr(bgtools.Match, "validate"):  # not before issue 40's change
        found["check"] = check
    return found


def measure(name: str, files: list[Path], repeat: int) -> None:
    """Time each way on ``files`` and print the medians and the ratios to validate.

    The ways take turns within each pass (so that another process's load falls on all of
    them alike), and each is timed in CPU seconds of this process (``process_time``), which
    another process's load disturbs less than the wall clock."""
    if not files:
        print(f"{name}: no file, skipped")
        return
    rolls = 0
    runs = ways()
    for run in runs.values():
        run(files)  # warm-up: the grammar, the memo of resolved plays
    times: dict[str, list[float]] = {way: [] for way in runs}
    for _ in range(repeat):
        for way, run in runs.items():
            start = time.process_time()
            counted = run(files)
            times[way].append(time.process_time() - start)
            rolls = max(rolls, counted)
    medians = {way: statistics.median(spent) for way, spent in times.items()}
    base = medians["validate"]
    shown = ", ".join(f"{way} {seconds:.3f} s ({seconds / base:.2f} x)"
                      for way, seconds in medians.items())
    print(f"{name}: {len(files)} files, {rolls} rolls; CPU, median of {repeat}: {shown}")


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--distinct", type=int, default=300)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--builds", default=None,
                        help="comma-separated builds to time: compiled, pure (default: the "
                             "bgtools imported)")
    args = parser.parse_args(argv)
    if args.builds:
        return run_builds(args, args.builds.split(","))
    import bgtools
    from bgtools.build import build_name

    print(f"bgtools from {Path(bgtools.__file__).parent} ({build_name()})")
    measure("distinct self-play matches", distinct_selfplay(args.distinct), args.repeat)
    if args.corpus.is_dir():
        measure("corpus", corpus_files(args.corpus), args.repeat)
    else:
        print(f"corpus: {args.corpus} is absent, skipped")
    return 0


def run_builds(args: argparse.Namespace, builds: list[str]) -> int:
    """Run this benchmark in a scratch copy of the tree for each build."""
    sys.path.insert(0, str(REPO / "scripts"))
    from test_builds import build_compiled, scratch_copy

    if any(b not in ("compiled", "pure") for b in builds):
        raise SystemExit("--builds takes compiled and/or pure")
    with tempfile.TemporaryDirectory(prefix="bgtools-bench-api-") as tmp:
        for build in builds:
            tree = scratch_copy(Path(tmp), build)
            if build == "compiled" and not build_compiled(tree):
                print("compiled build: could not be made; skipped")
                continue
            env = dict(os.environ, PYTHONPATH=str(tree))
            subprocess.run([sys.executable, str(tree / "benchmarks" / "bench_api.py"),
                            "--distinct", str(args.distinct), "--corpus", str(args.corpus),
                            "--repeat", str(args.repeat)], env=env, cwd=tree, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
