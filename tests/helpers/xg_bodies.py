"""Edits of a real eXtreme Gammon body (the records ``bgtools.readers.xg.read_game_file``
gives): the records one by one, and automatic doubles (money play) written into them.
``tests.helpers.fuzzing.build_xg`` packs an edited body into an ``.xg`` file again."""

from __future__ import annotations

import struct

from bgtools.readers.xg import RECORD_SIZE


def xg_records(body: bytes) -> list[bytearray]:
    """The records of ``body``, each a ``bytearray`` to edit in place."""
    return [bytearray(body[at:at + RECORD_SIZE]) for at in range(0, len(body), RECORD_SIZE)]


def with_auto_doubles(body: bytes, game: int, count: int,
                      footer_counts_from_one: bool = False) -> bytes:
    """``body`` (the records of a money session) with ``count`` automatic doubles before
    game ``game`` (from 1): the header's count, the footer's points 2^count times theirs
    (or left as the cube records count, ``footer_counts_from_one``, with the scores still
    the real ones), and every later score moved by what the winner gained more."""
    records = xg_records(body)
    records[0][103] = 1  # the match header's "automatic doubles in use"
    headers = [i for i, r in enumerate(records) if r[8] == 1]
    start = headers[game - 1]
    footer = next(i for i in range(start, len(records)) if records[i][8] == 4)
    struct.pack_into("<i", records[start], 64, count)
    winner, points = struct.unpack_from("<ii", records[footer], 24)
    extra = (points << count) - points
    if not footer_counts_from_one:
        struct.pack_into("<i", records[footer], 28, points << count)
    side = 12 if winner == 1 else 16
    for i in range(footer, len(records)):
        if records[i][8] in (1, 4, 5):
            value = struct.unpack_from("<i", records[i], side)[0]
            struct.pack_into("<i", records[i], side, value + extra)
    return b"".join(bytes(r) for r in records)
