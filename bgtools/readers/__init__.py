"""Bytes to record: format detection, text decoding and one reader per format."""
