"""Differential tests against GNU Backgammon (the ``gnubg`` module and its cached self-play
records): legal plays, replays, and what its soak found."""
