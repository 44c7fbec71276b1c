"""``python -m bgtools``: the ``bgtools`` command."""

from bgtools.cli import main

if __name__ == "__main__":
    main()
