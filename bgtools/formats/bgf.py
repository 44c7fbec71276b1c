"""stub"""
from __future__ import annotations
from bgtools.record import MatchRecord
def looks_like_bgf(data: bytes) -> bool:
    return False
def parse_bgf(data: bytes, name: str = "<input>") -> list[MatchRecord]:
    raise NotImplementedError
