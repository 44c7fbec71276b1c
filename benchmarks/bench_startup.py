"""Start-up cost of the cheap commands, with Typer's own import as the baseline, in one run.

    python benchmarks/bench_startup.py [--python PY] [--runs N] [--callgrind] [--all]

Runs each command as a fresh process of the interpreter ``--python`` (default: this one;
point it at a venv where bgtools is installed, not editable, so that its ``.pyc`` files
exist) and prints the CPU time (user + sys of the child, median of ``--runs``, the commands
taken in turn so that a busy machine slows them alike) and, with ``--callgrind``, the
instructions of one run (valgrind's callgrind, children not traced, PYTHONHASHSEED=0),
which are repeatable under load. The baselines are ``python -c pass`` and
``python -c "import typer"``; bgtools' own share is a command's figure minus Typer's.

The commands: ``bgtools --help``, ``bgtools --version`` and ``validate --json`` of one
``.mat`` (``--all`` adds ``score``, ``pips`` and ``status`` of it, ``validate --help`` and
``validate`` of one ``.xg`` and one ``.bgf`` when the corpus holds them). Each runs in a
temporary directory, so the checkout is not on ``sys.path``; the ``bgtools`` script of the
interpreter's directory is used when it exists, else ``python -m bgtools``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
MAT = REPO / "samples" / "example_gnubg.mat"


def commands(python: str, every: bool) -> dict[str, list[str]]:
    """The command lines to measure, by name."""
    script = Path(python).parent / "bgtools"
    bgtools = [str(script)] if script.exists() else [python, "-m", "bgtools"]
    found = {
        "python -c pass": [python, "-c", "pass"],
        "import typer": [python, "-c", "import typer"],
        "bgtools --help": [*bgtools, "--help"],
        "bgtools --version": [*bgtools, "--version"],
        "validate --json .mat": [*bgtools, "validate", "--json", str(MAT)],
    }
    if every:
        found["validate --help"] = [*bgtools, "validate", "--help"]
        for name in ("score", "pips", "status"):
            found[f"{name} --json .mat"] = [*bgtools, name, "--json", str(MAT)]
        for kind, folder in (("xg", "xg-binary"), ("bgf", "bgblitz")):
            files = sorted((CORPUS / folder).glob(f"*.{kind}"))
            if files:
                found[f"validate --json .{kind}"] = [*bgtools, "validate", "--json",
                                                     str(files[0])]
    return found


def environment() -> dict[str, str]:
    """The children's environment: fixed hash seed and width, bytecode written and read."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    return {**env, "PYTHONHASHSEED": "0", "COLUMNS": "80"}


def cpu_seconds(command: list[str], cwd: str) -> float:
    """The CPU time (user + sys) of one run of ``command``."""
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen(command, cwd=cwd, env=environment(), stdout=null,
                                 stderr=null)
    _, status, usage = os.wait4(child.pid, 0)
    assert os.waitstatus_to_exitcode(status) in (0, 1), command
    return usage.ru_utime + usage.ru_stime


def instructions(command: list[str], cwd: str) -> int:
    """The instructions one run of ``command`` executes (callgrind; children not traced)."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--trace-children=no",
         "--callgrind-out-file=/dev/null", *command],
        cwd=cwd, env=environment(), capture_output=True, text=True, check=False)
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    assert found is not None, done.stderr[-2000:]
    return int(found.group(1))


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter whose installed bgtools to measure")
    parser.add_argument("--runs", type=int, default=15, help="runs per command (median)")
    parser.add_argument("--callgrind", action="store_true",
                        help="also count instructions (one run each, under valgrind)")
    parser.add_argument("--all", action="store_true", help="measure more commands")
    args = parser.parse_args()
    found = commands(args.python, args.all)
    version = subprocess.run([*found["bgtools --version"]], capture_output=True, text=True,
                             env=environment(), check=True).stdout.strip()
    print(f"{version}, {args.python}")
    with tempfile.TemporaryDirectory() as cwd:
        for command in found.values():  # warm the page cache and write the .pyc files
            cpu_seconds(command, cwd)
        times: dict[str, list[float]] = {name: [] for name in found}
        for _ in range(args.runs):
            for name, command in found.items():
                times[name].append(cpu_seconds(command, cwd))
        counts: dict[str, int] = {}
        if args.callgrind and shutil.which("valgrind") is not None:
            counts = {name: instructions(command, cwd) for name, command in found.items()}
    typer_ms = statistics.median(times["import typer"]) * 1000
    typer_count = counts.get("import typer", 0)
    print(f"{'command':24} {'CPU ms':>7} {'- typer':>8}" + (
        f" {'M instr':>8} {'- typer':>8}" if counts else ""))
    for name in found:
        ms = statistics.median(times[name]) * 1000
        line = f"{name:24} {ms:7.1f} {ms - typer_ms:+8.1f}"
        if counts:
            line += f" {counts[name] / 1e6:8.1f} {(counts[name] - typer_count) / 1e6:+8.1f}"
        print(line)


if __name__ == "__main__":
    main()
