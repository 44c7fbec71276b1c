"""Reader for eXtreme Gammon 2 match files (``.xg``), layout in ``docs/xg-format.md``.

An ``.xg`` file is a 8,232-byte ``RGMH`` rich-game header, a JPEG thumbnail, then a ZLB
archive: compressed files (``temp.xg`` the game records, ``temp.xgi``, ``temp.xgr`` rollouts,
``temp.xgc`` comments), a compressed index of them and a 36-byte trailer. ``temp.xg`` is a
sequence of 2,560-byte records: the match header, then per game a game header, cube and
move records, a game footer, and a match footer. Only ``temp.xg`` is decompressed, and only
the fields bgtools needs are decoded (no analysis).

:func:`parse_xg` raises :class:`~bgtools.errors.UnsupportedFormatError` for a file that
is not a readable XG archive (wrong magic, truncated, corrupt, records of the wrong size)
and :class:`~bgtools.errors.LimitExceededError` when the records would decompress beyond
:data:`~bgtools.limits.MAX_DECOMPRESSED_BYTES`. Values out of range in a readable record
become problems (``rule="syntax"``) located by game and move, never exceptions.
"""

from __future__ import annotations

import codecs
import struct
from datetime import datetime, timedelta
from typing import Final

from bgtools.engine.board import NACKGAMMON_SIDE, START_SIDE
from bgtools.engine.position import Position, PositionError
from bgtools.errors import LimitExceededError, UnsupportedFormatError
from bgtools.limits import MAX_DECOMPRESSED_BYTES, format_count
from bgtools.readers.inflate import InflatedChunks, crc32, inflate_bounded, inflate_stream
from bgtools.readers.spans import BoardTracker, moves_text
from bgtools.record import Action, GameRecord, MatchRecord, Problem, SetUp, Severity
from bgtools.record.sgf import setup_from_sgf

__all__ = ["XG_MAGIC", "RECORD_SIZE", "Sides", "board_setup", "looks_like_xg", "parse_xg",
           "position_dice", "read_game_file", "read_position_file"]

XG_MAGIC = b"RGMH"
"""The first four bytes of an ``.xg`` (and ``.xgp``) file."""
RECORD_SIZE = 2560
"""Size of one record of ``temp.xg``."""

_HEADER_SIZE = 8232
_TRAILER = struct.Struct("<iiiiii12x")  # crc, files, version, index size, data size, flag
_ENTRY_SIZE = 532
_ENTRY = struct.Struct("<iiii")  # original size, stored size, start, crc (at offset 512)
_MATCH_MAGIC = b"DMLI"
_MONEY_LENGTH = 99999


def _engine(position: Position) -> tuple[int, ...]:
    """``position`` as a PositionEngine of its player on roll (XG's player 1: positive his
    checkers, negative the other's; 0 the other's bar, 25 his), the inverse of
    :func:`_sides`."""
    mover, opponent = position.mover, position.opponent
    return (-opponent[25], *(mover[p] - opponent[25 - p] for p in range(1, 25)), mover[25])


_START = _engine(Position.initial())
_NACKGAMMON_START = _engine(Position.nackgammon_initial())
_INT = struct.Struct("<i")
_POSITION = struct.Struct("<26b")  # PositionEngine: 0 the opponent's bar, 1-24, 25 the bar
_MATCH = struct.Struct("<iiBBBBddiid")  # length .. date, at 92
_CUBE = struct.Struct("<iiiiii")  # active, double, take, beaver, raccoon, cube, at 12
_MOVE = struct.Struct("<i8i2ii")  # active, moves, dice, cube, at 64
# What a move record's roll reads, in one call: active, moves, dice (at 64), the invalid
# flag (at 2480) and the edited flag (at 2528).
_ROLL = struct.Struct("<i8i2i2372xi44xB")
# Bound once: a compiled call of the bound method skips looking up ``unpack_from`` on the
# Struct at every move record (and Final, a static, not a lookup in the module's dict).
_UNPACK_ROLL: Final = _ROLL.unpack_from
_UTF16LE_DECODE: Final = codecs.utf_16_le_decode
_GAME = struct.Struct("<iiB")  # scores, Crawford, at 12
_FOOTER = struct.Struct("<iiBxxxiii")  # scores, Crawford next, winner, points, termination
_DELPHI_EPOCH = datetime(1899, 12, 30)
_MAX_AUTO_DOUBLES = 15  # a cube of 2^15, the largest a set-up (SGF CV) takes
_VARIATIONS = {1: "Nackgammon", 2: "Hypergammon", 3: "Longgammon"}
# Records of temp.xg inflated at a time: 128,000 bytes stay in the processor's cache, and
# below glibc's mmap threshold (128 KiB), so each chunk's buffer is reused memory, not
# fresh pages (256,000-byte chunks cost ~600 page faults a pass over the corpus).
_CHUNK_RECORDS = 50


def looks_like_xg(data: bytes) -> bool:
    """True when ``data`` starts with the ``RGMH`` magic of eXtreme Gammon files."""
    return data[:4] == XG_MAGIC


_Member = tuple[bytes, int, bool]
# A member as the archive stores it: its bytes, size decompressed, whether stored. Its own
# CRC-32 in the index is not checked: the archive CRC covers its compressed bytes (and the
# index), and zlib's Adler-32 its inflated bytes, so it could only catch a wrong CRC field.


def _bad(name: str, why: str) -> UnsupportedFormatError:
    return UnsupportedFormatError(f"{name} is not a readable eXtreme Gammon file: {why}")


def read_game_file(data: bytes, name: str = "<input>", member: str = "temp.xg") -> bytes:
    """The decompressed ``member`` of an XG file's archive (``temp.xg``: the records)."""
    return _member_body(data, _archived(data, name, member), name, member)


def _member_body(data: bytes, found: _Member | None, name: str, member: str) -> bytes:
    """``member`` decompressed and checked, from what :func:`_archived` found of it."""
    if found is None:
        bare = _bare_stream(data, name) if member == "temp.xg" else None
        if bare is not None:
            return bare
        raise _bad(name, "the archive trailer is damaged or the file is truncated")
    raw, osize, stored = found
    body = raw if stored else inflate_bounded(raw, osize, name, member,
                                               lambda why: _bad(name, why))
    if len(body) != osize:
        raise _bad(name, f"{member} is damaged (its size is not the index's)")
    return body


def _archived(data: bytes, name: str, member: str) -> _Member | None:
    """``member`` as the archive stores it: its bytes, size decompressed and whether it is
    stored uncompressed; None when the file ends in no plausible archive
    trailer. Raises what :func:`read_game_file` raises for the archive around it."""
    if not looks_like_xg(data):
        raise _bad(name, "it does not start with RGMH")
    if len(data) < _HEADER_SIZE + _TRAILER.size:
        raise _bad(name, f"only {format_count(len(data))} bytes (truncated)")
    crc, count, _version, index_size, data_size, compressed = \
        _TRAILER.unpack_from(data, len(data) - _TRAILER.size)
    end = len(data) - _TRAILER.size
    start = end - index_size - data_size
    if not (0 < count <= 64 and index_size > 0 and data_size >= 0 and start >= _HEADER_SIZE):
        return None
    if crc32(memoryview(data)[start:end]) != crc & 0xFFFFFFFF:
        raise _bad(name, "the archive checksum does not match (truncated or corrupt)")
    index = data[end - index_size:end]
    if compressed:
        index = inflate_bounded(index, count * _ENTRY_SIZE, name, "the archive index",
                                lambda why: _bad(name, why))
    if len(index) < count * _ENTRY_SIZE:
        raise _bad(name, "the archive index is truncated")
    for i in range(count):
        entry = index[i * _ENTRY_SIZE:(i + 1) * _ENTRY_SIZE]
        size = min(entry[0], 255)
        if entry[1:1 + size].decode("latin-1").lower() != member:
            continue
        osize, csize, offset, _crc = _ENTRY.unpack_from(entry, 512)
        stored = entry[528] != 0
        if not (csize >= 0 and offset >= 0 and offset + csize <= data_size):
            raise _bad(name, f"{member} lies outside the archive")
        if osize > MAX_DECOMPRESSED_BYTES or osize < 0:
            raise LimitExceededError(
                f"{name}: {member} is {format_count(max(osize, 0))} bytes decompressed; the "
                f"limit MAX_DECOMPRESSED_BYTES is {format_count(MAX_DECOMPRESSED_BYTES)}",
                "MAX_DECOMPRESSED_BYTES", MAX_DECOMPRESSED_BYTES)
        return data[start + offset:start + offset + csize], osize, stored
    raise _bad(name, f"the archive holds no {member}")


def _bare_stream(data: bytes, name: str) -> bytes | None:
    """``temp.xg`` when the payload after the thumbnail is one bare zlib stream of it (no
    ZLB archive around it: written so by some converters, read so by gvformat), else None.
    Decompression stays bounded; zlib's own Adler-32 stands in for the archive's CRC."""
    thumbnail = _INT.unpack_from(data, 20)[0]
    start = _HEADER_SIZE + thumbnail
    if not (thumbnail >= 0 and start + 2 <= len(data)) or data[start] & 0x0F != 8 or (
            (data[start] << 8 | data[start + 1]) % 31):
        return None
    found = inflate_stream(data[start:], MAX_DECOMPRESSED_BYTES, name, "temp.xg")
    if found is None:
        return None
    body, rest = found
    if rest.strip(b"\x00") or len(body) < RECORD_SIZE or body[556:560] != _MATCH_MAGIC:
        return None
    return body


Sides = tuple[list[int], list[int]]
"""Both sides of a board, each in its own numbering (26 slots: 0 off, 1-24, 25 the bar)."""


def _sides(engine: tuple[int, ...], player: int = 0) -> Sides:
    """The board of a PositionEngine seen by ``player`` (positive counts his, negative the
    other's), as both sides indexed by player. Move and cube records store the position
    before the turn in player 1's frame (player 0 here); ``PositionEnd`` is in the mover's
    frame (both checked on every record of the corpus)."""
    mine = [0] * 26
    theirs = [0] * 26
    for point in range(1, 25):
        count = engine[point]
        if count > 0:
            mine[point] = count
        elif count < 0:
            theirs[25 - point] = -count
    mine[25] = max(engine[25], 0)
    theirs[25] = max(-engine[0], 0)
    mine[0] = 15 - sum(mine[1:])
    theirs[0] = 15 - sum(theirs[1:])
    return (mine, theirs) if player == 0 else (theirs, mine)


def board_setup(before: int, board: Sides, turn: int | None = None, cube: int | None = None,
           owner: int | None = None, centred: bool = False) -> SetUp:
    """A set-up of the whole board (and turn, cube), written as the SGF properties the
    record's JSON codec keeps: ``AE`` every point, then one ``AW``/``AB`` entry a checker
    (White is player 0: letter ``a`` is his 1-point, Black's 24; ``y`` the bar)."""
    white = [chr(96 + point) if point < 25 else "y"
             for point in range(1, 26) for _ in range(max(board[0][point], 0))]
    black = [chr(121 - point) if point < 25 else "y"
             for point in range(1, 26) for _ in range(max(board[1][point], 0))]
    properties: list[tuple[str, tuple[str, ...]]] = [("AE", ("a:y",))]
    if white:
        properties.append(("AW", tuple(white)))
    if black:
        properties.append(("AB", tuple(black)))
    if turn is not None:
        properties.append(("PL", ("W" if turn == 0 else "B",)))
    if cube is not None:
        properties.append(("CV", (str(cube),)))
    if centred or owner is not None:
        properties.append(("CP", ("c" if owner is None else "wb"[owner],)))
    return setup_from_sgf(tuple(properties), before=before, node=0)


def _restated(before: list[int], after: list[int], moves: list[tuple[int, int]]) -> str | None:
    """The checker moves that take the mover's side from ``before`` to ``after`` (his
    numbering), as ``.mat`` text: XG's own moves first where the boards bear them out,
    then the rest of the change, higher points first. None when no such moves exist (the
    change is not the mover's checkers moving)."""
    sources = [point for point in range(1, 26) for _ in range(before[point] - after[point])]
    targets = [point for point in range(25) for _ in range(after[point] - before[point])]
    if len(sources) != len(targets) or any(after[point] < 0 for point in range(26)):
        return None
    played: list[tuple[int, int]] = []
    for src, dst in moves:
        if src in sources and dst in targets:
            sources.remove(src)
            targets.remove(dst)
            played.append((src, dst))
    played.extend(zip(sorted(sources, reverse=True), sorted(targets, reverse=True)))
    return moves_text(played)


def _pascal(record: bytes, offset: int, size: int) -> str:
    n = min(record[offset], size - 1)
    return record[offset + 1:offset + 1 + n].decode("cp1252", errors="replace")


def _wide(record: bytes, offset: int, units: int = 129) -> str:
    """The UTF-16 string of at most ``units`` code units at ``offset``, up to its first
    NUL unit. Only the units before the NUL are decoded: the fields are 129 units for a
    name of a few."""
    end = offset + 2 * units
    stop = record.find(b"\x00\x00", offset, end)
    while stop >= 0 and (stop - offset) % 2:  # a NUL unit starts at an even distance
        stop = record.find(b"\x00\x00", stop + 1, end)
    # The codec's own function: bytes.decode("utf-16-le") finds it through the codec
    # registry first (~6k instructions a call, against ~2k).
    return _UTF16LE_DECODE(record[offset:end if stop < 0 else stop], "replace", True)[0]


def _date(value: float) -> tuple[str, str] | None:
    if not 1.0 <= value <= 2_958_465.0:  # 1899-12-31 .. 9999-12-31
        return None
    try:
        moment = _DELPHI_EPOCH + timedelta(days=value)
    except OverflowError:
        return None
    # Formatted by hand: two strftime calls cost ~38k instructions a file (the year has
    # four digits in the range above).
    return (f"{moment.year:04d}.{moment.month:02d}.{moment.day:02d}",
            f"{moment.hour:02d}:{moment.minute:02d}")


class _Reader:
    """Turns the records of ``temp.xg`` into one match record."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.record = MatchRecord(format="xg")
        self.game: GameRecord | None = None
        self.board = BoardTracker()
        self.cube = 1
        self.auto_doubles = 0  # the current game's automatic doubles (v26+)
        self.version = 0
        self.start = _START  # where every game starts (nackgammon's in a nackgammon match)

    def problem(self, message: str, rule: str = "syntax",
                severity: Severity = Severity.ERROR, move: int | None = None) -> None:
        games = len(self.record.games)
        if move is None and self.game is not None:
            move = len(self.game.actions) + 1
        self.record.problems.append(
            Problem(rule, message, None, None, games or None, severity, move=move))

    def add(self, action: Action) -> None:
        assert self.game is not None
        action.move = len(self.game.actions) + 1
        self.game.actions.append(action)

    def match(self, rec: bytes) -> None:
        if rec[556:560] != _MATCH_MAGIC:
            raise _bad(self.name, "the match header has no DMLI magic")
        length, variation, crawford, jacoby, beaver, auto, elo1, elo2, _e1, _e2, date = \
            _MATCH.unpack_from(rec, 92)
        self.version = _INT.unpack_from(rec, 552)[0]
        if variation not in (0, 1):
            raise UnsupportedFormatError(
                f"{self.name}: {_VARIATIONS.get(variation, f'variation {variation}')} is not "
                "backgammon; bgtools reads backgammon and nackgammon only")
        record = self.record
        if variation == 1:
            record.tags.append(("Variation", "NackGammon"))  # as XG's .mat export states it
            self.start = _NACKGAMMON_START
        if length == _MONEY_LENGTH:
            length = 0
        elif length < 0:
            self.problem(f"the match length {length} is negative", move=None)
            length = 0
        record.match_length = length
        wide = self.version >= 24
        p1 = (_wide(rec, 880) if wide else "") or _pascal(rec, 9, 41)
        p2 = (_wide(rec, 1138) if wide else "") or _pascal(rec, 50, 41)
        event = (_wide(rec, 622) if wide else "") or _pascal(rec, 136, 129)
        place = (_wide(rec, 1396) if wide else "") or _pascal(rec, 283, 129)
        round_ = (_wide(rec, 1654) if wide else "") or _pascal(rec, 417, 129)
        transcriber = _wide(rec, 1960) if self.version >= 30 else ""
        tags = record.tags
        tags.append(("Player 1", p1))
        tags.append(("Player 2", p2))
        if event:
            tags.append(("Event", event))
        when = _date(date)
        if when is not None:
            tags.append(("EventDate", when[0]))
            tags.append(("EventTime", when[1]))
        if round_:
            tags.append(("Round", round_))
        if place:
            tags.append(("Place", place))
        if transcriber:
            tags.append(("Transcriber", transcriber))
        if length:
            tags.append(("Crawford", "On" if crawford else "Off"))
        tags.append(("Jacoby", "On" if jacoby else "Off"))
        tags.append(("Beaver", "On" if beaver else "Off"))
        record.extra["xg"] = {
            "version": self.version, "elo": [elo1, elo2], "auto_doubles": bool(auto),
            "cube_limit": _INT.unpack_from(rec, 612)[0] if self.version >= 8 else None,
        }
        record.extra["application"] = "eXtreme Gammon"

    def game_header(self, body: bytes, at: int, position_file: bool = False) -> None:
        s1, s2, crawford = _GAME.unpack_from(body, at + 12)
        number = _INT.unpack_from(body, at + 48)[0]
        names = self.record.names
        game = GameRecord(number=number if 0 < number < 1_000_000 else None,
                          names=names, score=(s1, s2) if s1 >= 0 and s2 >= 0 else None)
        self.record.games.append(game)
        self.game = game
        game.extra["crawford_game"] = game.crawford = bool(crawford)
        start = self.start
        self.board = BoardTracker(START_SIDE if start is _START else NACKGAMMON_SIDE)
        if s1 < 0 or s2 < 0:
            self.problem(f"the game's score {s1}-{s2} is negative")
        self.start_cube(_INT.unpack_from(body, at + 64)[0] if self.version >= 26 else 0)
        initial = _POSITION.unpack_from(body, at + 21)
        if initial != start and not position_file:
            self.set_board(_sides(initial))
            self.problem("the game starts from a position set up in eXtreme Gammon, not the "
                         "starting position; the replay starts from it", rule="set-position",
                         severity=Severity.WARNING)

    def start_cube(self, auto_doubles: int) -> None:
        """The cube at the start of a game: 2^n after n automatic doubles (money play,
        the game header's ``NumberOfAutoDoubles``, v26+). XG's cube records still count
        from 1 in such a game, so the reader scales them by 2^n; the replay starts from a
        set-up of the cube alone (centred, as SGF's root ``CV``)."""
        if not 0 <= auto_doubles <= _MAX_AUTO_DOUBLES:
            self.problem(f"the number of automatic doubles {auto_doubles} is out of range "
                         f"(0-{_MAX_AUTO_DOUBLES})")
            auto_doubles = 0
        self.auto_doubles = auto_doubles
        self.cube = 1 << auto_doubles
        game = self.game
        if auto_doubles and game is not None:
            game.extra["xg_auto_doubles"] = auto_doubles
            game.setups = (*game.setups, setup_from_sgf(
                (("CV", (str(self.cube),)),), before=0, node=0))

    def set_board(self, board: Sides, turn: int | None = None) -> None:
        """Set the board by hand before the game's next action (a set-up the replay
        applies, as for an SGF set-up node); the board is followed from there."""
        game = self.game
        assert game is not None
        game.setups = (*game.setups, board_setup(len(game.actions), board, turn))
        self.board = BoardTracker()
        self.board.sides = board

    def position(self, body: bytes, at: int) -> None:
        """The position of a position file: one game set up from the cube or move record
        (board, player on roll, cube), with no action; the dice of a checker decision in
        ``extra["xg_position"]``."""
        cube_record = body[at + 8] == 2
        board = _sides(_POSITION.unpack_from(body, at + (36 if cube_record else 9)))
        turn = self.player(_INT.unpack_from(body, at + (12 if cube_record else 64))[0])
        code = _INT.unpack_from(body, at + (32 if cube_record else 108))[0]
        if not -15 <= code <= 15:
            self.problem(f"the cube value code {code} is out of range")
            code = 0
        owner = None if code == 0 or turn is None else turn if code > 0 else 1 - turn
        dice: list[int] | None = None
        if not cube_record:
            d1, d2 = _MOVE.unpack_from(body, at + 64)[9:11]
            if 1 <= d1 <= 6 and 1 <= d2 <= 6:
                dice = [d1, d2]
            elif (d1, d2) != (0, 0):
                self.problem(f"the dice {d1} and {d2} are not two dice 1-6")
        game = self.game
        assert game is not None
        cube = 1 << (abs(code) + self.auto_doubles)
        game.setups = (board_setup(0, board, turn, cube, owner, centred=code == 0),)
        self.record.extra["xg_position"] = {
            "decision": "cube" if cube_record else "checker", "dice": dice}

    def player(self, active: int) -> int | None:
        if active in (1, -1):
            return 0 if active == 1 else 1
        self.problem(f"the player on roll is {active}, not 1 or -1")
        return None

    def cube_record(self, body: bytes, at: int) -> None:
        if self.version >= 24 and body[at + 296] != 0:
            p = self.player(_INT.unpack_from(body, at + 12)[0])
            if p is not None:
                self.edited(body, at + 36, p)
        # Most cube records hold no double: the low byte of ``double`` (a little-endian
        # int32 at 16) tells, without unpacking the record's six fields (2.3 M -> 0.4 M
        # instructions on the corpus twins' 1,308 cube records).
        if body[at + 16] != 1:
            return
        active, double, take, beaver, raccoon, cube_b = _CUBE.unpack_from(body, at + 12)
        if double != 1:
            return  # 0 no double, -1 resigns next, -2 no cube decision
        p = self.player(active)
        if p is None:
            return
        if not -15 <= cube_b <= 15:
            self.problem(f"the cube value code {cube_b} is out of range")
            return
        self.cube = 1 << (abs(cube_b) + self.auto_doubles)
        self.add(Action(kind="double", player=p, cube=2 * self.cube))
        if take == 1:
            self.add(Action(kind="take", player=1 - p))
            self.cube *= 2
        elif take == 0:
            self.add(Action(kind="drop", player=1 - p))
        elif take == 2:
            self.add(Action(kind="beaver", player=1 - p, cube=4 * self.cube))
            self.cube *= 4
            if raccoon == 2 or beaver == 2:
                self.add(Action(kind="raccoon", player=p, cube=2 * self.cube))
                self.cube *= 2
        elif take != -1:  # -1: not answered yet (a match saved with the double pending)
            self.problem(f"the answer to the double is {take}, not 0 (drop), 1 (take), 2 "
                         "(beaver) or -1 (none yet)")

    def move_record(self, body: bytes, at: int) -> None:
        fields = _UNPACK_ROLL(body, at + 64)
        p = self.player(fields[0])
        if p is None:
            return
        d1: int = fields[9]  # typed: the compiled build compares them as C ints
        d2: int = fields[10]
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            self.problem(f"the dice {d1} and {d2} are not two dice 1-6")
            self.board.lost = True
            return
        if self.version >= 24 and fields[12] != 0:
            self.edited(body, at + 9, p)
        moves: list[tuple[int, int]] = []
        for i in range(1, 9, 2):
            src: int = fields[i]
            dst: int = fields[i + 1]
            if src == -1:
                break
            if not (0 <= src <= 24 and -1 <= dst <= 23):
                self.problem(f"the move {src}/{dst} is out of range (points 0-24 and -1)")
                self.board.lost = True
                moves = []
                break
            moves.append((src + 1, dst + 1))
        invalid = fields[11] == 2
        board = self.board
        before = board.sides[p].copy() if invalid and not board.lost else None
        steps = board.play(p, (d1, d2), moves)
        game = self.game
        assert game is not None
        actions = game.actions
        # Built once with its final fields (the dataclass's setters cost as much again),
        # by position, the quickest call (as read/bgf.py does): kind, player, line, column,
        # dice, play_text (when the dice cannot explain the moves: replayed as text, like
        # a .mat), play_column, steps, cube, points, and_the_match, cannot_move,
        # resign_marker, illegal, move.
        action = Action("roll", p, None, None, (d1, d2),
                        moves_text(moves) if steps is None else "", None, steps, None, None,
                        False, False, False, False, len(actions) + 1)
        if before is not None:
            self.restate(body, at, action, before, moves)
        if invalid:
            action.extra["xg_invalid"] = True
            self.problem("eXtreme Gammon marks this play as invalid", rule="illegal-play-line",
                         severity=Severity.WARNING)
        actions.append(action)

    def restate(self, body: bytes, at: int, action: Action, before: list[int],
                moves: list[tuple[int, int]]) -> None:
        """An illegal play XG was given (flagged invalid): its checker moves can leave a
        checker out (a move backwards is not stored), so the play is the change from the
        board before to the board XG stores after it (``PositionEnd``), given to the
        replayer as text. The replayer reports it as for a ``.mat`` file and carries on
        from that board, which is the one XG plays on."""
        p = action.player
        after = _sides(_POSITION.unpack_from(body, at + 35), p)
        if after == self.board.sides:
            return
        text = _restated(before, after[p], moves)
        if text is None:
            return
        action.steps = None
        action.play_text = text
        self.board.sides = after
        self.board.lost = False

    def edited(self, body: bytes, position_at: int, player: int) -> None:
        """XG's flag of a position edited at this play or cube decision (a move record's
        ``EditedMove``, a cube record's ``EditedCube``; the record's position before the
        turn at ``position_at``): a legitimate change of the board (not a play), set up
        before the turn, as gnubg's ``set board``."""
        board = _sides(_POSITION.unpack_from(body, position_at))
        if board == self.board.sides and not self.board.lost:
            return
        self.set_board(board, player)
        self.problem("the position was edited at this turn in eXtreme Gammon; the replay "
                     "goes on from the edited position", rule="set-position",
                     severity=Severity.WARNING)

    def footer(self, body: bytes, at: int) -> None:
        s1, s2, _crawford_next, winner, points, termination = _FOOTER.unpack_from(body, at + 12)
        game = self.game
        assert game is not None
        game.extra["xg_termination"] = termination
        if winner not in (1, -1):
            self.problem(f"the winner is {winner}, not 1 or -1")
            return
        w = 0 if winner == 1 else 1
        if not 0 <= points <= 1 << 20:
            self.problem(f"the game is worth {points} points")
            return
        score = game.score
        if self.auto_doubles and score is not None and points and \
                (s1, s2)[w] - score[w] == points << self.auto_doubles:
            # Undocumented: the footer's points may count the cube from 1, as the cube
            # records do; its scores then say the game was worth 2^n times that.
            points <<= self.auto_doubles
        if 100 <= termination < 200 or termination >= 1000:
            resign = Action(kind="resign", player=1 - w)
            if termination >= 1000:
                resign.extra["xg_settled"] = True
            self.add(resign)
        elif termination not in (0, 1, 2, 3):
            self.problem(f"the game ends with termination code {termination}",
                         severity=Severity.WARNING)
        self.add(Action(kind="win", player=w, points=points))
        game.extra["xg_final_score"] = (s1, s2)
        self.game = None

    def match_footer(self, body: bytes, at: int) -> None:
        s1, s2, winner = struct.unpack_from("<iii", body, at + 12)
        self.record.extra["final_score"] = (s1, s2)
        self.record.extra["xg_winner"] = winner

    def records(self, body: bytes, start: int, offset: int = 0) -> None:
        """Read the records of ``body`` from ``start`` on (every record but the match
        header and position files' records), ``offset`` the place of ``body`` in
        ``temp.xg`` (for the numbers of records in problems)."""
        for at in range(start, len(body), RECORD_SIZE):  # read in place, never copied
            kind = body[at + 8]
            if kind == 1:
                self.game_header(body, at)
            elif kind in (2, 3, 4):
                if self.game is None:
                    self.problem(f"a {('cube', 'move', 'game footer')[kind - 2]} record "
                                 "outside any game (no game header before it)", move=None)
                    continue
                if kind == 2:
                    self.cube_record(body, at)
                elif kind == 3:
                    self.move_record(body, at)
                else:
                    self.footer(body, at)
            elif kind == 5:
                self.match_footer(body, at)
            elif kind in (6, 7):
                continue  # "missing" and unimplemented entries: nothing to replay
            else:
                self.problem(f"record {(offset + at) // RECORD_SIZE + 1} has the unknown "
                             f"type {kind}", move=None)


def _position_record(body: bytes) -> bytes | None:
    """The record holding the position of a position file (``.xgp``), else None.

    A position file is a match header, one game header and the decision: a cube record,
    a move record, or both (XG writes a cube record before each move), with no footer. Of
    both, the cube record when it holds a double (a take/drop decision), else the move."""
    kinds: list[int] = []
    for at in range(0, len(body), RECORD_SIZE):
        if body[at + 8] not in (6, 7):
            if len(kinds) == 4:
                return None  # a fifth record: a match
            kinds.append(body[at + 8])
    if kinds[:2] != [0, 1] or kinds[2:] not in ([2], [3], [2, 3]):
        return None
    records = [body[at:at + RECORD_SIZE] for at in range(2 * RECORD_SIZE, len(body), RECORD_SIZE)
               if body[at + 8] in (2, 3)]
    cube = records[0] if records[0][8] == 2 else None
    if cube is not None and (len(records) == 1 or _INT.unpack_from(cube, 16)[0] == 1):
        return cube
    return records[-1]


def parse_xg(data: bytes, name: str = "<input>") -> list[MatchRecord]:
    """Read an eXtreme Gammon ``.xg`` file into one match record (see the module doc)."""
    found = _archived(data, name, "temp.xg")
    streamed = _parse_streamed(found, name)
    if streamed is not None:
        return [streamed]
    return [_parse_body(_member_body(data, found, name, "temp.xg"), name)]


def _parse_body(body: bytes, name: str) -> MatchRecord:
    """The match record of the whole of ``temp.xg``."""
    if not body or len(body) % RECORD_SIZE:
        raise _bad(name, f"temp.xg is {format_count(len(body))} bytes, not a whole number of "
                   f"{format_count(RECORD_SIZE)}-byte records")
    reader = _Reader(name)
    if body[8] != 0:
        raise _bad(name, "the first record is not the match header")
    reader.match(body[:RECORD_SIZE])
    position = _position_record(body)
    if position is not None:
        reader.game_header(body, RECORD_SIZE, position_file=True)
        reader.position(position, 0)
        return reader.record
    reader.records(body, RECORD_SIZE)
    return reader.record


def _parse_streamed(found: _Member | None, name: str) -> MatchRecord | None:
    """The match record of a file whose ``temp.xg`` is inflated ``_CHUNK_RECORDS`` records
    at a time (docs/xg-format.md, "Reading speed"), or None whenever that cannot give
    exactly what :func:`_parse_body` gives: no compressed member, a body that is not a
    whole number of records, corrupt or of another size than the index gives, one that
    may be a position file (the first chunk holds fewer than five records that are not
    skipped), any error. The caller then reads the whole body as before, for the same
    record or the same error. ``found`` is what :func:`_archived` found of ``temp.xg`` (it
    raised the errors of the archive around it)."""
    if found is None or found[2] or found[1] % RECORD_SIZE:
        return None
    raw, osize, _stored = found
    chunks = InflatedChunks(raw, _CHUNK_RECORDS * RECORD_SIZE, osize)
    reader = _Reader(name)
    at = 0
    try:
        for chunk in chunks:
            if len(chunk) % RECORD_SIZE:
                return None
            if not at:
                if len(chunk) < _CHUNK_RECORDS * RECORD_SIZE or chunk[8] != 0 or sum(
                        chunk[i + 8] not in (6, 7)
                        for i in range(0, len(chunk), RECORD_SIZE)) < 5:
                    return None
                reader.match(chunk[:RECORD_SIZE])
                reader.records(chunk, RECORD_SIZE)
            else:
                reader.records(chunk, 0, at)
            at += len(chunk)
    except Exception:  # noqa: BLE001 - any failure: _parse_body reads it again, for its error
        return None
    if not (at and chunks.complete and at == osize):
        return None
    return reader.record


def position_dice(record: MatchRecord) -> tuple[int, int] | None:
    """The dice to play of a record read from an XG position file (``.xgp``) of a checker
    decision, else None (a cube decision, no dice, or any other record)."""
    info = record.extra.get("xg_position")
    dice = info.get("dice") if isinstance(info, dict) else None
    if isinstance(dice, list) and len(dice) == 2 and all(
            isinstance(d, int) and 1 <= d <= 6 for d in dice):
        return dice[0], dice[1]
    return None


def read_position_file(data: bytes, name: str = "<input>"
                       ) -> tuple[Position, tuple[int, int] | None]:
    """The position of an XG position file (``.xgp``), seen from the player on roll, and
    its dice (None for a cube decision or when the file has none). Raises
    UnsupportedFormatError for a file that is not a readable position file."""
    record = parse_xg(data, name)[0]
    info = record.extra.get("xg_position")
    if not isinstance(info, dict) or not record.games or not record.games[0].setups:
        raise UnsupportedFormatError(f"{name} is not an eXtreme Gammon position file: it "
                                     "holds a match, not one position")
    setup = record.games[0].setups[0]
    turn = 0 if setup.turn is None else setup.turn
    white, black = [0] * 26, [0] * 26
    for letter in setup.white:
        white[25 if letter == 24 else letter + 1] += 1
    for letter in setup.black:
        black[25 if letter == 24 else 24 - letter] += 1
    mover, opponent = (white, black) if turn == 0 else (black, white)
    mover[0], opponent[0] = 15 - sum(mover[1:]), 15 - sum(opponent[1:])
    try:
        position = Position(tuple(mover), tuple(opponent))
    except PositionError as exc:
        raise UnsupportedFormatError(f"{name}: the position is not valid ({exc})") from None
    return position, position_dice(record)
