"""Tests of hostile input: bounded time and memory, typed errors, safe writes."""
