"""Test-only oracle: GNU Backgammon's complete set of legal plays for a roll.

This module calls gnubg's own C move generator, ``GenerateMoves()`` from
``eval.c``, which the PyPI ``gnubg`` wheel (1.1.0a16) exports from
``gnubg/_gnubg.cpython-*.so``.  We reach it with :mod:`ctypes` by
``dlopen``-ing the already-imported extension, so the same process-wide
gnubg state is used.  ``GenerateMoves(pml, anBoard, n0, n1, fPartial=0)``
tries both die orders, keeps only plays that use the maximum number of dice
and then the maximum number of pips (gnubg's legality rule), and
de-duplicates them by resulting position key.  So the movelist it fills
is exactly "the set of distinct legal resulting positions".

Each result is decoded with gnubg's ``PositionFromKey()`` from the key that
gnubg stored with the move (the very key gnubg de-duplicates on), and is
cross-checked against applying the move's ``anMove`` steps with gnubg's
``ApplyMove()``.

Board format (FORMATS.md 0.3): a position is a pair ``(side of the player
NOT on roll, side of the player on roll)``; a side is 25 counts, index
``i`` = that player's point ``i + 1`` in his own numbering, index 24 = bar.

Struct layout (checked against gnubg's ``eval.h`` and the disassembly of
``SaveMoves`` in this very binary):

* ``movelist``: ``unsigned cMoves, cMaxMoves, cMaxPips; int iMoveBest;
  float rBestScore; move *amMoves`` (``amMoves`` at offset 24).
* ``move``: ``int anMove[8]`` at 0, ``positionkey key`` (7 x uint32) at 32,
  ``unsigned cMoves`` at 60, ``cPips`` at 64; ``sizeof(move) == 0x428``
  (in this build; it depends on gnubg's ``rolloutcontext`` layout, which is
  why :func:`available` re-validates against known answers).

``amMoves`` points to a per-thread gnubg buffer; results are copied out
immediately.  Call only from the thread that imported gnubg (the usual case).

Traps handled here: ``set threads 1`` is issued on load (otherwise gnubg
can hang); nothing here uses ``gnubg.hint()`` (crashes) or
``gnubg.find_best_moves`` (truncates move tuples at the first bear-off).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any

Side = tuple[int, ...]
Position = tuple[Side, Side]

__all__ = ["Position", "Side", "available", "legal_moves", "legal_results"]

_MOVE_SIZE = 0x428  # sizeof(move) in gnubg 1.1.0a16 wheel (from SaveMoves: imul $0x428)
_OFF_ANMOVE = 0x00  # int anMove[8]
_OFF_KEY = 0x20  # positionkey key: unsigned int data[7]
_OFF_CMOVES = 0x3C  # unsigned int cMoves (dice used)
_OFF_CPIPS = 0x40  # unsigned int cPips (pips used)
_MAX_MOVES = 3060  # MAX_MOVES from eval.h (buffer holds MAX_INCOMPLETE_MOVES)

_TanBoard = (ctypes.c_uint * 25) * 2


class _MoveList(ctypes.Structure):
    """gnubg ``movelist`` (eval.h)."""

    _fields_ = [
        ("cMoves", ctypes.c_uint),
        ("cMaxMoves", ctypes.c_uint),
        ("cMaxPips", ctypes.c_uint),
        ("iMoveBest", ctypes.c_int),
        ("rBestScore", ctypes.c_float),
        ("amMoves", ctypes.c_void_p),
    ]


class _PositionKey(ctypes.Structure):
    """gnubg ``positionkey`` (union of ``unsigned int data[7]``)."""

    _fields_ = [("data", ctypes.c_uint * 7)]


_lib: Any | None = None
_load_error: str | None = None
_ok: bool | None = None


@contextlib.contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Silence C-level writes to fd 1 (gnubg.command prints with printf)."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no usable fd 1: nothing to silence
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            try:
                yield
            finally:
                libc_flush = getattr(ctypes.CDLL(None), "fflush", None)
                if libc_flush is not None:
                    libc_flush(None)
                os.dup2(saved, 1)
    finally:
        os.close(saved)


def _load() -> Any:
    """Import gnubg, set it single-threaded and bind the C functions (once)."""
    global _lib, _load_error  # noqa: PLW0603 - the library is bound once per process
    if _lib is not None:
        return _lib
    if _load_error is not None:
        raise RuntimeError(_load_error)
    try:
        import gnubg  # type: ignore[import-untyped,import-not-found,unused-ignore]

        with _quiet_stdout():
            gnubg.command("set threads 1")
        lib = ctypes.CDLL(gnubg._gnubg.__file__)  # noqa: SLF001 - the C extension's file
        lib.GenerateMoves.argtypes = [
            ctypes.POINTER(_MoveList),
            ctypes.POINTER(_TanBoard),
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_int,
        ]
        lib.GenerateMoves.restype = ctypes.c_int
        lib.PositionFromKey.argtypes = [
            ctypes.POINTER(_TanBoard),
            ctypes.POINTER(_PositionKey),
        ]
        lib.PositionFromKey.restype = None
        lib.ApplyMove.argtypes = [
            ctypes.POINTER(_TanBoard),
            ctypes.c_int * 8,
            ctypes.c_int,
        ]
        lib.ApplyMove.restype = ctypes.c_int
    except Exception as exc:  # ImportError, OSError, AttributeError ...
        _load_error = f"gnubg oracle unavailable: {exc!r}"
        raise RuntimeError(_load_error) from exc
    _lib = lib
    return lib


def _to_tan(board: Sequence[Sequence[int]]) -> Any:
    if len(board) != 2 or any(len(side) != 25 for side in board):
        raise ValueError("board must be a pair of 25-count sides (gnubg layout)")
    tb = _TanBoard()
    for s in range(2):
        for i in range(25):
            v = int(board[s][i])
            if not 0 <= v <= 15:
                raise ValueError(f"bad checker count {v} at side {s} index {i}")
            tb[s][i] = v
    return tb


def _from_tan(tb: Any) -> Position:
    return tuple(int(x) for x in tb[0]), tuple(int(x) for x in tb[1])


def _generate(
    board: Sequence[Sequence[int]], d1: int, d2: int
) -> list[tuple[tuple[int, ...], Position, int, int]]:
    """Raw gnubg movelist: [(anMove, result as (not-mover, mover), dice used, pips used)]."""
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError(f"bad dice {d1}{d2}")
    lib = _load()
    tb = _to_tan(board)
    ml = _MoveList()
    n = lib.GenerateMoves(ctypes.byref(ml), ctypes.byref(tb), int(d1), int(d2), 0)
    if n < 0 or n > _MAX_MOVES or n != ml.cMoves:
        raise RuntimeError(f"GenerateMoves returned {n} (cMoves={ml.cMoves})")
    out = []
    base = ml.amMoves
    for k in range(n):
        addr = base + k * _MOVE_SIZE
        an = tuple((ctypes.c_int * 8).from_address(addr + _OFF_ANMOVE))
        key = _PositionKey.from_buffer_copy(
            (ctypes.c_uint * 7).from_address(addr + _OFF_KEY)
        )
        cmoves = ctypes.c_uint.from_address(addr + _OFF_CMOVES).value
        cpips = ctypes.c_uint.from_address(addr + _OFF_CPIPS).value
        res = _TanBoard()
        lib.PositionFromKey(ctypes.byref(res), ctypes.byref(key))
        out.append((an, _from_tan(res), cmoves, cpips))
    # Cross-check every entry: applying anMove to the input must give the keyed position.
    for an, res_pos, _, _ in out:
        chk = _to_tan(board)
        if lib.ApplyMove(ctypes.byref(chk), (ctypes.c_int * 8)(*an), 1) != 0:
            raise RuntimeError(f"gnubg ApplyMove rejected its own move {an}")
        if _from_tan(chk) != res_pos:
            raise RuntimeError(
                f"key/ApplyMove mismatch for move {an}: struct layout wrong?"
            )
    return out


def legal_moves(
    board: Sequence[Sequence[int]], d1: int, d2: int
) -> list[tuple[tuple[int, ...], Position]]:
    """gnubg's move list for ``board`` and roll ``d1 d2`` (one entry per distinct result).

    Each entry is ``(anMove, result)``: ``anMove`` is gnubg's raw 8-int step list
    (0-based source/destination point indices of the mover, 24 = bar, destination
    -1 = borne off, list terminated by -1); ``result`` is in the same orientation
    as :func:`legal_results`, i.e. ``(mover's side, opponent's side)``.
    Empty list when the roll cannot be played at all.
    """
    return [
        (an, (res[1], res[0]))
        for an, res, _, _ in _generate(board, d1, d2)
        if an[0] >= 0
    ]


def legal_results(board: Sequence[Sequence[int]], d1: int, d2: int) -> set[Position]:
    """All distinct positions reachable by a legal play, according to GNU Backgammon.

    ``board`` is in gnubg format: ``(side NOT on roll, side ON roll)``, each 25
    counts, index ``i`` = that player's point ``i+1`` in his own numbering,
    index 24 = bar (FORMATS.md 0.3).  The player on roll (``board[1]``) moves
    with dice ``d1``, ``d2`` (order irrelevant; doubles give four steps).

    Returned orientation is NOT swapped for the next turn: each result is
    ``(side of the player who just moved, side of his opponent)`` as tuples of
    25 ints -- i.e. ``(new board[1], new board[0])``.  A hit checker appears on
    the opponent's index 24; borne-off checkers simply disappear.

    Legality is gnubg's: the maximum number of dice must be used, and among
    those, the maximum number of pips (so with only one die playable the larger
    one is played when possible).  If the roll cannot be played at all the
    result is ``{(board[1], board[0])}`` (the unchanged position, same
    orientation).
    """
    raw = _generate(board, d1, d2)
    results = {(res[1], res[0]) for an, res, _, _ in raw if an[0] >= 0}
    if not results:
        results = {(tuple(int(x) for x in board[1]), tuple(int(x) for x in board[0]))}
    return results


def _start() -> tuple[list[int], list[int]]:
    side = [0] * 25
    side[5], side[7], side[12], side[23] = 5, 3, 5, 2
    return list(side), list(side)


def _self_check() -> list[str]:
    """Known answers; returns a list of failure messages (empty = all good)."""
    fails: list[str] = []
    start = _start()
    # Opening position: distinct resulting positions, as computed independently by a
    # brute-force reference generator (see tests/helpers/ORACLE_NOTES.md).
    for (a, b), want in {
        (3, 1): 16,
        (1, 3): 16,
        (6, 6): 11,
        (1, 1): 42,
        (6, 5): 7,
        (5, 5): 4,
    }.items():
        got = len(legal_results(start, a, b))
        if got != want:
            fails.append(f"start {a}{b}: {got} != {want}")
    res31 = legal_results(start, 3, 1)
    made5 = [0] * 25
    made5[4], made5[5], made5[7], made5[12], made5[23] = 2, 4, 2, 5, 2
    if (tuple(made5), tuple(start[0])) not in res31:
        fails.append("start 31: 8/5 6/5 missing")
    # Bear-off with doubles: 4 checkers on my 1..4 points, 66 -> all off (one result).
    bo = ([0] * 25, [1, 1, 1, 1] + [0] * 21)
    bo[0][20] = 2
    if legal_results(bo, 6, 6) != {(tuple([0] * 25), tuple(bo[0]))}:
        fails.append("bear-off 66 did not bear everything off")
    # Closed board, on the bar: no legal move -> unchanged position.
    closed_opp = [0] * 25
    for p in range(6):
        closed_opp[p] = 2
    closed_opp[12] = 3
    me = [0] * 25
    me[24], me[12] = 1, 14
    blocked = (closed_opp, me)
    if legal_results(blocked, 6, 5) != {(tuple(me), tuple(closed_opp))}:
        fails.append("closed board: expected unchanged position")
    # Either die alone is playable but not both -> the larger (6) must be played.
    # Mover: 1 checker on his 24 point, 14 on his 1 point (not all home: no bear-off).
    # Opponent blocks the mover's 13 point (his index 24-13) with 2, 13 spare on the
    # mover's 22 point (index 2).  24/18 and 24/19 are open, 18/13 and 19/13 are not.
    opp = [0] * 25
    opp[24 - 13], opp[2] = 2, 13
    mine = [0] * 25
    mine[23], mine[0] = 1, 14
    after = list(mine)
    after[23], after[17] = 0, 1
    if legal_results((opp, mine), 6, 5) != {(tuple(after), tuple(opp))}:
        fails.append("one-die roll: expected only 24/18")
    return fails


def available() -> bool:
    """True if gnubg imports, GenerateMoves is reachable and the self-check passes."""
    global _ok  # noqa: PLW0603 - the self-check runs once per process
    if _ok is None:
        try:
            _load()
            _ok = not _self_check()
        except Exception:  # noqa: BLE001 -- any failure means "oracle not usable"
            _ok = False
    return _ok


if __name__ == "__main__":
    try:
        _load()
    except RuntimeError as e:
        print(e)
        sys.exit(1)
    problems = _self_check()
    for p in problems:
        print("FAIL:", p)
    s = _start()
    total = sum(len(legal_results(s, a, b)) for a in range(1, 7) for b in range(a, 7))
    print(f"opening position: {total} distinct results over the 21 rolls")
    print("31 ->", len(legal_results(s, 3, 1)), "results")
    print("OK" if not problems else f"{len(problems)} FAILURES")
    sys.exit(1 if problems else 0)
