"""Hostile files built from real ones, and a child process that runs bgtools under caps.

Each builder returns the bytes of one attack of issue 38 (a security probe found each one:
a few hundred bytes that made a reader take minutes or gigabytes). ``tests/hostile/`` runs
them through every command and the library; ``scripts/fuzz.py`` borrows the field mutations.
:func:`run_capped` runs one command in a child process with its address space capped
(``RLIMIT_AS``) and a time limit, and reports its peak memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.helpers.fuzzing import Encoder, build_bgf, smile_7bit, smile_vint
from tests.helpers.paths import FILES, REPO, SAMPLE_BGF

SAMPLE_SGF = REPO / "samples" / "example_gnubg.sgf"
SAMPLE_JSON = REPO / "samples" / "example_gnubg.json"
SAMPLE_MAT = REPO / "samples" / "example_gnubg.mat"

# --- the attacks -----------------------------------------------------------------------------


def bgf_match() -> dict[str, Any]:
    """A real BGBlitz match (tests/files), its analysis left out: the base of the attacks."""
    from bgtools.readers.bgf import read_bgf_document

    _, document = read_bgf_document(SAMPLE_BGF.read_bytes())
    assert isinstance(document, dict)
    return document


def bgf_with(edit: Callable[[dict[str, Any]], object] | None = None, *,
             smile: bool = True) -> bytes:
    """The real match after ``edit(document)``, as a ``.bgf`` (Smile or JSON text)."""
    document = bgf_match()
    if edit is not None:
        edit(document)
    body = Encoder().document(document) if smile else json.dumps(document).encode()
    return build_bgf(body, smile=smile)


def bgf_raw_member(member: str, raw: bytes) -> bytes:
    """A ``.bgf`` whose match object holds ``member`` with the ``raw`` Smile value bytes,
    after the real match's members (where a member read replaces the real one)."""
    encoder = Encoder()
    document = encoder.document(bgf_match())
    assert document.endswith(b"\xfb")
    return build_bgf(document[:-1] + encoder.key(member) + raw + b"\xfb")


def bgf_points(index: int, count: int) -> bytes:
    """``initial.points[index]`` of the first game set to ``count`` checkers."""
    def edit(document: dict[str, Any]) -> None:
        document["games"][0]["initial"]["points"][index] = count
    return bgf_with(edit)


def smile_seven_bit(token: int, size: int) -> bytes:
    """A 7-bit binary (0xE8) or big integer (0x26) value of ``size`` bytes, in Smile."""
    groups = smile_7bit(b"\x01" * 7) * (size // 7) + smile_7bit(b"\x01" * (size % 7))
    return bytes([token]) + smile_vint(size) + groups


def bgf_text(member: str, chars: int, smile: bool = True) -> bytes:
    """A ``.bgf`` whose ``member`` (a name, a tag) is ``chars`` characters long."""
    def edit(document: dict[str, Any]) -> None:
        document[member] = "A" * chars
    return bgf_with(edit, smile=smile)


def bgf_nested_header(depth: int) -> bytes:
    """A ``.bgf`` header line nested ``depth`` deep (json.loads: RecursionError)."""
    line, _, body = bgf_with().partition(b"\n")
    return line[:-1] + b',"x":' + b"[" * depth + b"]" * depth + b"}\n" + body


def sgf_root(extra: bytes) -> bytes:
    """The sample SGF with ``extra`` properties in its root node."""
    return SAMPLE_SGF.read_bytes().replace(b"GM[6]", b"GM[6]" + extra, 1)


def sgf_named(white: str) -> bytes:
    """The sample SGF with white's name ``white`` (escaped for SGF) in every game."""
    text = SAMPLE_SGF.read_bytes()
    escaped = white.replace("\\", "\\\\").replace("]", "\\]").encode()
    assert b"PW[Alice]" in text
    return text.replace(b"PW[Alice]", b"PW[" + escaped + b"]")  # in every game


def sgf_tail(token: bytes, count: int) -> bytes:
    """An SGF game followed by ``token`` repeated ``count`` times (``;``, ``(``, ``)(;``)."""
    return b"(;FF[4]GM[6]" + token * count + b")\n"


def json_match() -> dict[str, Any]:
    """The sample match as bgtools JSON (decoded): the base of the JSON attacks."""
    from bgtools.readers.detect import read_records
    from bgtools.write.json import dumps_file

    loaded = read_records(SAMPLE_MAT.read_bytes(), SAMPLE_MAT.name)
    document = json.loads(dumps_file(loaded.records))
    assert isinstance(document, dict)
    return document


def json_with(edit: Callable[[dict[str, Any]], object]) -> bytes:
    """The sample match as bgtools JSON after ``edit(document)``."""
    document = json_match()
    edit(document)
    return json.dumps(document).encode()


def json_text_replaced(old: str, new: str) -> bytes:
    """The sample match as bgtools JSON text, ``old`` replaced by ``new`` once."""
    text = json.dumps(json_match())
    assert old in text
    return text.replace(old, new, 1).encode()


@dataclass(frozen=True)
class Attack:
    """One hostile input of issue 38: how to build it, and what bgtools must answer."""

    item: str
    """The item of issue 38 it reproduces."""
    build: Callable[[], bytes]
    suffix: str
    codes: frozenset[int]
    """The exit codes allowed (0 only where the damage is in data never read)."""
    says: str
    """Text the one-line answer must hold (a limit's name ...)."""
    stored: bool = False
    """Kept in tests/files/hostile (small); else built in the test."""


def _set_names(first: str) -> Callable[[dict[str, Any]], None]:
    def edit(document: dict[str, Any]) -> None:
        for game in document["games"]:
            game["names"][0] = first
    return edit


ERRORS = frozenset({1, 2})
UNREADABLE = frozenset({2})
ATTACKS: dict[str, Attack] = {
    "bgf-points-1e9.bgf": Attack("1", lambda: bgf_points(0, 10**9), ".bgf", frozenset({1}),
                                 "1,000,000,000 checkers on one point", stored=True),
    "bgf-points-minus-1e9.bgf": Attack("1", lambda: bgf_points(5, -10**9), ".bgf",
                                       frozenset({1}), "checkers on one point", stored=True),
    "bgf-points-16-a-side.bgf": Attack("1", lambda: bgf_points(0, 3), ".bgf", frozenset({1}),
                                       "gives green 16 checkers", stored=True),
    "bgf-bar-1e9.bgf": Attack("1", lambda: bgf_points(24, 10**9), ".bgf", frozenset({1}),
                              "checkers on one point", stored=True),
    "smile-30M-empty-objects.bgf": Attack(
        "2", lambda: bgf_raw_member("games", b"\xf8" + b"\xfa\xfb" * 30_000_000 + b"\xf9"),
        ".bgf", UNREADABLE, "MAX_ELEMENTS"),
    "smile-20M-small-ints.bgf": Attack(
        "2", lambda: bgf_raw_member("games", b"\xf8" + b"\xc0" * 20_000_000 + b"\xf9"),
        ".bgf", UNREADABLE, "MAX_ELEMENTS"),
    "bgf-json-2M-empty-objects.bgf": Attack(
        "2", lambda: build_bgf(b'{"games":[' + b"{}," * 2_000_000 + b"{}]}", smile=False),
        ".bgf", UNREADABLE, "MAX_ELEMENTS"),
    "json-3M-empty-arrays.json": Attack(
        "2", lambda: json_text_replaced('"games": [', '"x": [' + "[]," * 3_000_000
                                        + '[]], "games": ['),
        ".json", UNREADABLE, "MAX_ELEMENTS"),
    "smile-binary-3MB-skipped.bgf": Attack(
        "3", lambda: bgf_raw_member("thumbnail", smile_seven_bit(0xE8, 3_000_000)), ".bgf",
        frozenset({0}), '"valid": true'),
    "smile-big-integer-300KB-skipped.bgf": Attack(
        "3", lambda: bgf_raw_member("thumbnail", smile_seven_bit(0x26, 300_000)), ".bgf",
        frozenset({0}), '"valid": true', stored=True),
    "smile-big-decimal-300KB-skipped.bgf": Attack(
        "3", lambda: bgf_raw_member("thumbnail", b"\x2a\x80" + smile_seven_bit(0x26, 300_000)[1:]),
        ".bgf", frozenset({0}), '"valid": true', stored=True),
    "smile-binary-3MB-name.bgf": Attack(
        "3", lambda: bgf_raw_member("nameGreen", smile_seven_bit(0xE8, 3_000_000)), ".bgf",
        UNREADABLE, "MAX_STRING_CHARS"),
    "smile-big-integer-length.bgf": Attack(
        "3", lambda: bgf_raw_member("matchlen", smile_seven_bit(0x26, 2_000)), ".bgf",
        UNREADABLE, "MAX_NUMBER_DIGITS", stored=True),
    "sgf-16MB-value.sgf": Attack("4", lambda: sgf_root(b"C[" + b"x" * 16_000_000 + b"]"),
                                 ".sgf", UNREADABLE, "MAX_STRING_CHARS"),
    "sgf-16MB-unclosed-value.sgf": Attack(
        "4", lambda: b"(;FF[4]GM[6]C[" + b"\\]" * 5_000_000, ".sgf", ERRORS, "never closed"),
    "sgf-16M-nodes.sgf": Attack("4", lambda: sgf_tail(b";", 16_000_000), ".sgf",
                                UNREADABLE, "MAX_NODES"),
    "sgf-16M-trees.sgf": Attack("4", lambda: sgf_tail(b"(", 16_000_000), ".sgf",
                                UNREADABLE, "MAX_NODES"),
    "sgf-729k-games.sgf": Attack("4", lambda: sgf_tail(b")(;", 729_000), ".sgf",
                                 UNREADABLE, "MAX_GAMES"),
    "sgf-16M-line-breaks.sgf": Attack("4", lambda: sgf_root(b"\n" * 16_000_000), ".sgf",
                                      frozenset({0}), '"valid": true'),
    "bgf-50MB-name.bgf": Attack("5", lambda: bgf_text("nameGreen", 50_000_000), ".bgf",
                                UNREADABLE, "MAX_STRING_CHARS"),
    "bgf-json-50MB-name.bgf": Attack(
        "5", lambda: bgf_text("nameRed", 50_000_000, smile=False), ".bgf", UNREADABLE,
        "MAX_STRING_CHARS"),
    "bgf-long-event.bgf": Attack("5", lambda: bgf_text("event", 5_000), ".bgf", UNREADABLE,
                                 "MAX_NAME_CHARS", stored=True),
    "sgf-5000-character-name.sgf": Attack("5", lambda: sgf_named("A" * 5_000), ".sgf",
                                          UNREADABLE, "MAX_NAME_CHARS"),
    "sgf-4MB-names.sgf": Attack("5", lambda: sgf_named("A" * 4_000_000), ".sgf", UNREADABLE,
                                "MAX_STRING_CHARS"),
    "json-4MB-names.json": Attack(
        "5", lambda: json_with(_set_names("A" * 4_000_000)), ".json",
        UNREADABLE, "MAX_STRING_CHARS"),
    "bgf-nested-header.bgf": Attack("6", lambda: bgf_nested_header(100_000), ".bgf",
                                    UNREADABLE, "header line is not JSON"),
    "json-5000-digit-length.json": Attack(
        "6", lambda: json_text_replaced('"match_length": 3',
                                 '"match_length": ' + "9" * 5_000), ".json",
        ERRORS, "not valid JSON"),
    "json-5000-digit-schema.json": Attack(
        "6", lambda: json_text_replaced('"schema": "bgtools/1"',
                                        '"schema": "bgtools/' + "9" * 5_000 + '"'),
        ".json", UNREADABLE, "not 'bgtools/1'"),
    "name-colon.sgf": Attack("10", lambda: sgf_named("Alice : 3"), ".sgf", frozenset({0}),
                             '"valid": true', stored=True),
    "name-newline.sgf": Attack("10", lambda: sgf_named("Al\nice\r\n; x"), ".sgf",
                               frozenset({0}), '"valid": true', stored=True),
    "name-semicolon.sgf": Attack("10", lambda: sgf_named("; [Site \"x\"]"), ".sgf",
                                 frozenset({0}), '"valid": true', stored=True),
}
"""Every attack of issue 38's reader half, by file name."""

HOSTILE_DATA = FILES / "hostile"
"""Where the small attacks are kept (``python -m tests.helpers.hostile_files`` writes them)."""


def attack_bytes(name: str) -> bytes:
    """The bytes of the attack ``name``: the kept file, else built now."""
    attack = ATTACKS[name]
    if attack.stored:
        return (HOSTILE_DATA / name).read_bytes()
    return attack.build()


def write_stored() -> None:
    """Write the small attacks into tests/files/hostile."""
    HOSTILE_DATA.mkdir(parents=True, exist_ok=True)
    for name, attack in ATTACKS.items():
        if attack.stored:
            (HOSTILE_DATA / name).write_bytes(attack.build())


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


if __name__ == "__main__":
    write_stored()
