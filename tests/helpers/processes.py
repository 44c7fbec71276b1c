"""Starting bgtools in a child process for the Ctrl-C tests."""

from __future__ import annotations

INTERRUPTIBLE_MAIN = (
    "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from bgtools.cli import main; main()"
)
"""``python -c`` code that runs the CLI as a terminal would: Ctrl-C raises KeyboardInterrupt.

A test runner started in the background by a non-interactive shell (``nohup ... &``) ignores
SIGINT, children inherit that, and Python then installs no KeyboardInterrupt handler: without
this the Ctrl-C tests would watch a process that cannot be interrupted.
"""
