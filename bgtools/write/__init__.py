"""Replay to text: the shared script model and the .mat, SGF and JSON writers; atomic output."""
