"""Record every command's output on a set of match files, or compare it with a recording.

The architecture work (issue 12) promises that behaviour is unchanged: on the whole corpus,
``validate --json``, ``score --json``, ``replay --jsonl`` and every ``convert`` output are
byte-identical before and after. This script makes that checkable::

    python scripts/check_identical.py record /tmp/before      # on the old commit
    python scripts/check_identical.py record /tmp/after       # on the new one
    python scripts/check_identical.py compare /tmp/before /tmp/after

``record`` runs the CLI in process (Typer's test runner, one worker, fixed terminal width)
over every file under the given roots (default: ``../shared/corpus``, ``tests/files`` and
``samples``) and writes one file per (command, input): the exit code, stdout and stderr. It
also records the commands that read a whole archive at once (stats, standings, export).
``compare`` lists every output that differs and exits 1 if any does.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ROOTS = (REPO.parent / "shared" / "corpus", REPO / "tests" / "files", REPO / "samples")
SKIPPED_NAMES = {"SOURCES.md", "README.md", "LICENSE"}
# The one thing that differs between two runs of the same code: the validator's own timing.
TIMING_RE = re.compile(r"in [0-9.]+ s \([0-9,]+ rolls/s\)")

PER_FILE_COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("validate-json", ("validate", "--json", "-j", "1")),
    ("validate-text", ("validate", "-j", "1")),
    ("score-json", ("score", "--json", "-j", "1")),
    ("score-text", ("score", "-j", "1")),
    ("replay-jsonl", ("replay", "--jsonl")),
    ("status-json", ("status", "--json", "-j", "1")),
    ("pips-json", ("pips", "--json", "-j", "1")),
    ("pips-all", ("pips", "--all", "-j", "1")),
    ("show-ascii", ("show", "--ascii")),
    ("show-svg", ("show", "--svg", "-")),
    ("show-html", ("show", "--html", "-")),
)
CONVERT_TARGETS = ("mat", "sgf", "json")


def input_files(roots: Sequence[Path]) -> list[Path]:
    """Every regular file under ``roots``, sorted, without the corpus's descriptions."""
    files: list[Path] = []
    for root in roots:
        if root.is_file():
            files.append(root)
        elif root.is_dir():
            files.extend(
                path for path in root.rglob("*")
                if path.is_file() and path.name not in SKIPPED_NAMES
                and "__pycache__" not in path.parts
            )
    # Relative to the repository, so that two checkouts side by side print the same paths.
    return sorted({Path(os.path.relpath(path, REPO)) for path in files})


def output_name(kind: str, path: Path) -> str:
    """A flat, stable file name for one (command, input) pair."""
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:10]
    return f"{kind}/{path.name}.{digest}.txt"


def record(destination: Path, roots: Sequence[Path]) -> int:
    """Run every command on every file and write what it printed under ``destination``."""
    os.environ.update({"COLUMNS": "100", "TERM": "dumb", "NO_COLOR": "1"})
    os.chdir(REPO)
    from typer.testing import CliRunner

    from bgtools.cli import app

    runner = CliRunner()
    # A directory of this run's own (runs side by side must not share converted files); its
    # name is written as "(work)" in the recording, so that two runs compare equal.
    work = Path(tempfile.mkdtemp(prefix="bgtools-check-identical-"))

    def run(kind: str, path: Path, args: Sequence[str], produced: Path | None = None) -> None:
        result = runner.invoke(app, list(args), catch_exceptions=True)
        stdout = TIMING_RE.sub("in (time)", result.stdout)
        text = f"exit {result.exit_code}\n--- stdout\n{stdout}\n--- stderr\n{result.stderr}\n"
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            text += f"--- exception\n{type(result.exception).__name__}: {result.exception}\n"
        if produced is not None:
            text += "--- file\n"
            text += produced.read_text("utf-8", "replace") if produced.exists() else "(none)\n"
        text = text.replace(str(work), "(work)")
        target = destination / output_name(kind, path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, "utf-8")

    destination = destination.resolve()
    files = input_files(roots)
    (destination / "inputs.txt").parent.mkdir(parents=True, exist_ok=True)
    (destination / "inputs.txt").write_text("".join(f"{path}\n" for path in files), "utf-8")
    for number, path in enumerate(files, 1):
        for kind, args in PER_FILE_COMMANDS:
            run(kind, path, (*args, str(path)))
        for target_format in CONVERT_TARGETS:
            produced = work / f"converted.{target_format}"
            produced.unlink(missing_ok=True)
            run(f"convert-{target_format}", path,
                ("convert", str(path), "-o", str(produced), "--force"), produced)
        if number % 50 == 0:
            print(f"{number}/{len(files)} files", file=sys.stderr)
    archive = [str(path) for path in files]
    run("stats-json", Path("all"), ("stats", "--json", "-j", "1", *archive))
    run("stats-by-file", Path("all"), ("stats", "--json", "--by", "file", "-j", "1", *archive))
    run("standings-json", Path("all"), ("standings", "--json", "-j", "1", *archive))
    csv_out = work / "export.csv"
    csv_out.unlink(missing_ok=True)
    run("export-csv", Path("all"),
        ("export", "--to", "csv", "-o", str(csv_out), "-j", "1", *archive), csv_out)
    print(f"recorded {len(files)} files into {destination}", file=sys.stderr)
    return 0


def compare(before: Path, after: Path) -> int:
    """Print every recorded output that differs between two recordings; 1 if any does."""
    names_before = {str(p.relative_to(before)) for p in before.rglob("*.txt")}
    names_after = {str(p.relative_to(after)) for p in after.rglob("*.txt")}
    differing = sorted(
        name for name in names_before & names_after
        if (before / name).read_bytes() != (after / name).read_bytes()
    )
    for name in sorted(names_before ^ names_after):
        print(f"only in {'before' if name in names_before else 'after'}: {name}")
    for name in differing:
        print(f"differs: {name}")
    total = len(names_before | names_after)
    unpaired = len(names_before ^ names_after)
    print(f"{total} outputs compared, {len(differing)} differ, {unpaired} unpaired")
    return 1 if differing or names_before ^ names_after else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``record DIR [ROOT...]`` or ``compare BEFORE AFTER``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="run every command and write its output")
    rec.add_argument("destination", type=Path)
    rec.add_argument("roots", type=Path, nargs="*")
    cmp_ = sub.add_parser("compare", help="compare two recordings")
    cmp_.add_argument("before", type=Path)
    cmp_.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "record":
        return record(args.destination, args.roots or DEFAULT_ROOTS)
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
