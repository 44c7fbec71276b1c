"""Replay to the contract's JSON objects (files, moments, conversions); no terminal."""
