"""``python -m bgtools.cli``: the ``bgtools`` command."""

from bgtools.cli import main

main()
