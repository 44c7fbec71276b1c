"""Hostile files built from real ones, and a child process that runs bgtools under caps.

Each builder returns the bytes of one attack of issue 38 (a security probe found each one:
a few hundred bytes that made a reader take minutes or gigabytes). ``tests/hostile/`` runs
them through every command and the library; ``scripts/fuzz.py`` borrows the field mutations.
:func:`run_capped` runs one command in a child process with its address space capped
(``RLIMIT_AS``) and a time limit, and reports its peak memory.
"""

from __future__ import annotations

import gzip
import json
import os
import struct
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

from tests.helpers.fuzzing import build_bgf
from tests.helpers.paths import REPO

SAMPLE_BGF = REPO / "tests" / "data" / "xg" / "B4_SrGcsKAQmoTyHlgJCbM.bgf"
SAMPLE_SGF = REPO / "samples" / "example_gnubg.sgf"
SAMPLE_JSON = REPO / "samples" / "example_gnubg.json"
SAMPLE_MAT = REPO / "samples" / "example_gnubg.mat"

# --- a small Smile encoder (enough for BGBlitz documents and the attacks) ---------------------


def smile_vint(n: int) -> bytes:
    """An unsigned Smile VInt: 7 bits a byte, the last byte 6 bits with its high bit set."""
    out = [0x80 | (n & 0x3F)]
    n >>= 6
    while n:
        out.insert(0, n & 0x7F)
        n >>= 7
    return bytes(out)


def smile_7bit(raw: bytes) -> bytes:
    """``raw`` as Smile's 7-bit groups (binary and big integer content)."""
    bits = int.from_bytes(raw, "big") if raw else 0
    groups = (len(raw) * 8 + 6) // 7
    bits <<= groups * 7 - len(raw) * 8
    return bytes((bits >> (7 * (groups - 1 - i))) & 0x7F for i in range(groups))


def _smile_string(text: str) -> bytes:
    raw = text.encode("utf-8")
    if not raw:
        return b"\x20"
    if len(raw) <= 32 and raw.isascii():
        return bytes([0x40 + len(raw) - 1]) + raw
    return b"\xe4" + raw + b"\xfc"  # a long Unicode string, to its end marker


def _smile_key(name: str) -> bytes:
    raw = name.encode("utf-8")
    assert 1 <= len(raw) <= 64 and raw.isascii()
    return bytes([0x80 + len(raw) - 1]) + raw


def smile_value(value: Any) -> bytes:
    """One value in Smile, no shared strings (names are written out every time)."""
    if value is None:
        return b"\x21"
    if value is False or value is True:
        return b"\x23" if value else b"\x22"
    if isinstance(value, int):
        return b"\x24" + smile_vint((value << 1) ^ (value >> 63))
    if isinstance(value, float):
        bits = struct.unpack(">Q", struct.pack(">d", value))[0]
        return b"\x29" + bytes((bits >> (7 * i)) & 0x7F for i in range(9, -1, -1))
    if isinstance(value, str):
        return _smile_string(value)
    if isinstance(value, list):
        return b"\xf8" + b"".join(smile_value(v) for v in value) + b"\xf9"
    if isinstance(value, dict):
        return b"\xfa" + b"".join(_smile_key(k) + smile_value(v)
                                  for k, v in value.items()) + b"\xfb"
    raise TypeError(type(value))


def smile_document(value: Any, raw: bytes | None = None) -> bytes:
    """A Smile document (header without shared tables) of ``value``, or of the ``raw``
    value bytes when given."""
    return b":)\n\x00" + (smile_value(value) if raw is None else raw)


# --- the attacks -----------------------------------------------------------------------------


def bgf_match() -> dict[str, Any]:
    """A real BGBlitz match (tests/data), its analysis left out: the base of the attacks."""
    from bgtools.read.bgf import read_bgf_document

    _, document = read_bgf_document(SAMPLE_BGF.read_bytes())
    assert isinstance(document, dict)
    return document


def bgf_with(edit: Any = None, *, smile: bool = True) -> bytes:
    """The real match after ``edit(document)``, as a ``.bgf`` (Smile or JSON text)."""
    document = bgf_match()
    if edit is not None:
        edit(document)
    body = smile_document(document) if smile else json.dumps(document).encode()
    return build_bgf(body, smile=smile)


def bgf_raw_member(member: str, raw: bytes) -> bytes:
    """A ``.bgf`` whose match object holds ``member`` with the ``raw`` Smile value bytes,
    after the real match's members (a place every reader decodes)."""
    document = smile_value(bgf_match())
    assert document.endswith(b"\xfb")
    return build_bgf(b":)\n\x00" + document[:-1] + _smile_key(member) + raw + b"\xfb")


def bgf_points(count: int) -> bytes:
    """``initial.points`` of the first game with ``count`` checkers on one point."""
    def edit(document: dict[str, Any]) -> None:
        document["games"][0]["initial"]["points"][0] = count
    return bgf_with(edit)


def smile_empty_objects(count: int) -> bytes:
    """A ``.bgf`` whose games list holds ``count`` empty objects (gzip: ~2 KB a million)."""
    return bgf_raw_member("games", b"\xf8" + b"\xfa\xfb" * count + b"\xf9")


def smile_binary(size: int, token: int = 0xE8) -> bytes:
    """A 7-bit binary (0xE8) or big integer (0x26) value of ``size`` bytes, in a member no
    reader reads (skipped) and in one it reads (``matchlen``)."""
    value = bytes([token]) + smile_vint(size) + smile_7bit(b"\x01" * size)
    return bgf_raw_member("thumbnail", value)


def smile_big_integer_length(size: int) -> bytes:
    """A big integer claiming ``size`` bytes in ``matchlen`` (read by the reader)."""
    value = b"\x26" + smile_vint(size) + smile_7bit(b"\x01" * size)
    return bgf_raw_member("matchlen", value)


def bgf_long_name(chars: int, smile: bool = True) -> bytes:
    """A ``.bgf`` whose green player's name has ``chars`` characters."""
    def edit(document: dict[str, Any]) -> None:
        document["nameGreen"] = "A" * chars
    return bgf_with(edit, smile=smile)


def bgf_nested_header(depth: int) -> bytes:
    """A ``.bgf`` header line nested ``depth`` deep (json.loads: RecursionError)."""
    data = bgf_with()
    line, _, body = data.partition(b"\n")
    return (line[:-1] + b',"x":' + b"[" * depth + b"]" * depth + b"}\n" + body)


def sgf_long_value(chars: int) -> bytes:
    """The sample SGF with a ``chars``-character comment in its root."""
    text = SAMPLE_SGF.read_bytes()
    return text.replace(b"GM[6]", b"GM[6]C[" + b"x" * chars + b"]", 1)


def sgf_long_name(chars: int) -> bytes:
    """The sample SGF whose white player's name has ``chars`` characters."""
    text = SAMPLE_SGF.read_bytes()
    start = text.index(b"PW[") + 3
    return text[:start] + b"A" * chars + text[text.index(b"]", start):]


def sgf_many(token: bytes, count: int) -> bytes:
    """An SGF game followed by ``token`` repeated ``count`` times (``;``, ``(``, ``(;)``)."""
    return b"(;FF[4]GM[6]" + token * count + b")\n"


def json_long_name(chars: int) -> bytes:
    """The sample bgtools JSON match with a ``chars``-character player name."""
    document = json.loads(SAMPLE_JSON.read_bytes())
    document["players"][0] = "A" * chars
    return json.dumps(document).encode()


def json_big_integer(digits: int) -> bytes:
    """The sample bgtools JSON match with a ``digits``-digit match length."""
    document = json.loads(SAMPLE_JSON.read_bytes())
    text = json.dumps(document)
    return text.replace('"length": 3', '"length": ' + "9" * digits, 1).encode()


def gzipped_size(data: bytes) -> int:
    """Bytes ``data`` takes gzipped (how small an attack is on the wire)."""
    return len(gzip.compress(data))


# --- running a command under caps ---------------------------------------------------------------

MEMORY_CAP = 1 << 30
"""The memory a hostile input may make bgtools use: 1 GB (peak resident)."""
TIME_CAP = 10.0
"""Seconds a hostile input may make bgtools take."""
CHILD_CAP = 3 << 30
"""The address space (``RLIMIT_AS``) of the child: above MEMORY_CAP (an interpreter maps
more than it touches), so that a run over the cap shows as a measured peak over it rather
than as a MemoryError provoked by the cap itself; still a bound if a reader runs away."""

_PRELUDE = """\
import atexit, os, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
def _peak():
    with open('/proc/self/status') as status, open({peak!r}, 'w') as out:
        out.write(next(line for line in status if line.startswith('VmHWM')))
atexit.register(_peak)
sys.argv[0] = 'bgtools'
"""

CLI_MAIN = "from bgtools.cli import main; main()"
"""Child code: the command line, with the arguments given."""
LIBRARY_REPLAY = """\
import sys, bgtools
from bgtools.errors import BgtoolsError
try:
    for match in bgtools.read(sys.argv[1]):
        match.replay()
except BgtoolsError as exc:
    print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
    sys.exit(exc.exit_code)
"""
"""Child code: ``bgtools.read(path)`` then ``.replay()`` of every match; a typed error
ends with its exit code and one line, anything else with a traceback (exit 1)."""


@dataclass(frozen=True)
class Capped:
    """What one capped run gave."""

    code: int | None
    """The exit code; None when the run was killed at its time limit."""
    out: str
    err: str
    seconds: float
    peak_bytes: int | None
    """The child's peak resident memory (VmHWM); None when it could not say."""

    def describe(self) -> str:
        """``exit 2, 0.31 s, 42 MB`` (for messages and the report's table)."""
        code = "killed" if self.code is None else f"exit {self.code}"
        peak = "?" if self.peak_bytes is None else f"{self.peak_bytes / 1e6:.0f} MB"
        return f"{code}, {self.seconds:.2f} s, {peak}"


def run_capped(code: str, *args: str, memory: int = CHILD_CAP, seconds: float = 60.0,
               source: str | None = None) -> Capped:
    """Run ``python -c code args`` (in a directory of its own: ``-c`` puts the current
    directory first on the import path) with its address space capped at ``memory`` bytes,
    killed after ``seconds``; its exit code, output, wall time and peak resident memory.
    ``source``: the checkout whose bgtools runs (default: this one)."""
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        peak_file = os.path.join(scratch, "peak")
        env = {**os.environ, "PYTHONPATH": source or str(REPO), "PYTHONIOENCODING": "utf-8",
               "LC_ALL": "C.UTF-8", "COLUMNS": "100", "BGTOOLS_PROGRESS": "0"}
        prelude = _PRELUDE.format(cap=memory, peak=peak_file)
        start = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-c", prelude + code, *args],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, env=env, cwd=scratch)
        try:
            out, err = proc.communicate(timeout=seconds)
            returncode: int | None = proc.returncode
        except subprocess.TimeoutExpired:
            _peak_so_far(proc.pid, peak_file)
            proc.kill()
            out, err = proc.communicate()
            returncode = None
        elapsed = time.monotonic() - start
        peak: int | None = None
        try:
            with open(peak_file, encoding="ascii") as handle:
                peak = int(handle.read().split()[1]) * 1024  # "VmHWM:  1234 kB"
        except (OSError, IndexError, ValueError):
            pass
    return Capped(returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"),
                  elapsed, peak)


def _peak_so_far(pid: int, peak_file: str) -> None:
    """Keep the peak of a child about to be killed (it writes none itself then)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status, \
                open(peak_file, "w", encoding="ascii") as out:
            out.write(next(line for line in status if line.startswith("VmHWM")))
    except (OSError, StopIteration):
        pass
