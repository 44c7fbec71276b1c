"""Starting bgtools in a child process (the Ctrl-C and signal tests) and watching it: its
children, whether a process still lives, what it has open."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers.paths import REPO

INTERRUPTIBLE_MAIN = (
    "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "signal.signal(signal.SIGHUP, signal.SIG_DFL); "
    "signal.signal(signal.SIGTERM, signal.SIG_DFL); "
    "from bgtools.cli import main; main()"
)
"""``python -c`` code that runs the CLI as a terminal would: Ctrl-C raises KeyboardInterrupt.

A test runner started in the background by a non-interactive shell (``nohup ... &``) ignores
SIGINT (and ``nohup`` SIGHUP, which bgtools then rightly leaves ignored), children inherit
that, and Python then installs no KeyboardInterrupt handler: without this the Ctrl-C and
signal tests would watch a process that cannot be interrupted.
"""


def run_bgtools(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    """``bgtools ARGS`` in a child process (UTF-8, 100 columns, no standard input unless
    ``kwargs`` give one), its output captured as bytes; at most 120 seconds."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8",
           "LC_ALL": "C.UTF-8", "COLUMNS": "100"}
    options: dict[str, object] = {"stdin": subprocess.DEVNULL, **kwargs}
    return subprocess.run(  # type: ignore[call-overload,no-any-return]
        [sys.executable, "-c", "from bgtools.cli import main; main()", *args],
        check=False, capture_output=True, env=env, timeout=120, **options)


def children(pid: int) -> list[int]:
    """Process ids whose parent is ``pid`` (Linux /proc)."""
    kids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == pid:
            kids.append(int(entry.name))
    return kids


def alive(pid: int) -> bool:
    """Whether the process ``pid`` exists and is not a zombie (Linux /proc)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


def has_open(pid: int, path: Path) -> bool:
    """Whether the process ``pid`` has ``path`` open (Linux /proc)."""
    fd_dir = Path(f"/proc/{pid}/fd")
    try:
        return any(os.readlink(fd_dir / fd) == str(path) for fd in os.listdir(fd_dir))
    except OSError:
        return False
