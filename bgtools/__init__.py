"""bgtools: validate, replay and convert backgammon match files."""

from bgtools.position import BAR, OFF, Play, Position, PositionError, Step, format_play, parse_id

__all__ = ["BAR", "OFF", "Play", "Position", "PositionError", "Step", "format_play", "parse_id"]
__version__ = "0.1.0"
