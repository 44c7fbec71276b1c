"""bgtools.readers.inflate: both inflaters of the chunks (the incremental ``_ZlibDecompressor``
where zlib-ng or the standard library has it, ``decompressobj`` otherwise) give the same
chunks, the same completeness and the same errors, on whole, damaged, truncated and
oversized streams; one-call inflating (``decompressobj`` always) is bounded and checked.
"""

from __future__ import annotations

import random
import zlib

import pytest

from bgtools.errors import LimitExceededError, UnsupportedFormatError
from bgtools.readers import inflate, xg
from tests.helpers.paths import CORPUS_IN_USE, FILES

# Compressible and not: records of zeros and of noise, as temp.xg's analysis is.
_PAYLOAD = (bytes(5000) + random.Random(13).randbytes(3000)) * 40  # the same every run
_STREAM = zlib.compress(_PAYLOAD)


@pytest.fixture(params=["incremental", "decompressobj"])
def inflater(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each inflater in turn (the fallback by hiding the incremental one)."""
    if request.param == "incremental":
        if inflate._Decompressor is None:  # noqa: SLF001 - the inflater under test
            pytest.skip("neither zlib-ng nor this Python has _ZlibDecompressor")
    else:
        monkeypatch.setattr(inflate, "_Decompressor", None)
    return str(request.param)


def _chunks(data: bytes, chunk: int, limit: int) -> tuple[list[bytes], bool]:
    chunks = inflate.InflatedChunks(data, chunk, limit)
    return list(chunks), chunks.complete


def test_the_incremental_inflater_is_used_where_available() -> None:
    # zlib-ng is a dependency and has it: the fallback is only for an install without it.
    pytest.importorskip("zlib_ng")
    assert inflate._Decompressor is not None  # noqa: SLF001


@pytest.mark.parametrize("chunk", [1, 4096, 128_000, len(_PAYLOAD), 10 * len(_PAYLOAD)])
def test_chunks_join_to_the_stream(inflater: str, chunk: int) -> None:
    found, complete = _chunks(_STREAM, chunk, len(_PAYLOAD))
    assert complete and b"".join(found) == _PAYLOAD
    assert all(len(piece) == chunk for piece in found[:-1])
    assert 0 < len(found[-1]) <= chunk


def test_a_stream_longer_than_the_limit_stops_incomplete(inflater: str) -> None:
    found, complete = _chunks(_STREAM, 128_000, len(_PAYLOAD) - 1)
    assert not complete and sum(map(len, found)) <= len(_PAYLOAD) - 1


@pytest.mark.parametrize("cut", [1, 100, len(_STREAM) // 2, len(_STREAM) - 1])
def test_a_truncated_stream_stops_incomplete(inflater: str, cut: int) -> None:
    found, complete = _chunks(_STREAM[:cut], 128_000, len(_PAYLOAD))
    assert not complete
    assert _PAYLOAD.startswith(b"".join(found))


def _damaged(stream: bytes = _STREAM) -> list[bytes]:
    out = []
    for at in (2, len(stream) // 3, len(stream) - 2):  # header, body, check value
        damaged = bytearray(stream)
        damaged[at] ^= 0x55
        out.append(bytes(damaged))
    return out


def test_both_inflaters_agree_on_damaged_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    if inflate._Decompressor is None:  # noqa: SLF001
        pytest.skip("only one inflater here")
    for data in [*_damaged(), _STREAM + b"trailing", _STREAM[:-4]]:
        incremental = _chunks(data, 128_000, len(_PAYLOAD))
        with monkeypatch.context() as patch:
            patch.setattr(inflate, "_Decompressor", None)
            fallback = _chunks(data, 128_000, len(_PAYLOAD))
        assert incremental == fallback
        assert incremental[1] == (data == _STREAM + b"trailing")  # only that one is whole


def _bad(why: str) -> UnsupportedFormatError:
    return UnsupportedFormatError(f"bad: {why}")


def test_one_call_inflating_is_bounded_and_checked() -> None:
    assert inflate.inflate_bounded(_STREAM, len(_PAYLOAD), "x", "the body", _bad) == _PAYLOAD
    with pytest.raises(LimitExceededError, match="MAX_DECOMPRESSED_BYTES"):
        inflate.inflate_bounded(_STREAM, len(_PAYLOAD) - 1, "x", "the body", _bad)
    with pytest.raises(UnsupportedFormatError, match="the body is truncated"):
        inflate.inflate_bounded(_STREAM[:-10], len(_PAYLOAD), "x", "the body", _bad)
    for data in _damaged():  # refused: as corrupt, or as longer than the bound once damaged
        with pytest.raises((UnsupportedFormatError, LimitExceededError)):
            inflate.inflate_bounded(data, len(_PAYLOAD), "x", "the body", _bad)
    gzipped = inflate.inflate_bounded(zlib.compress(_PAYLOAD, wbits=31), len(_PAYLOAD), "x",
                                      "the body", _bad, wbits=31)
    assert gzipped == _PAYLOAD


def test_a_stream_and_what_follows_it() -> None:
    assert inflate.inflate_stream(_STREAM + b"rest", len(_PAYLOAD), "x", "s") == (
        _PAYLOAD, b"rest")
    assert inflate.inflate_stream(_STREAM[:-1], len(_PAYLOAD), "x", "s") is None
    assert inflate.inflate_stream(b"not zlib", len(_PAYLOAD), "x", "s") is None


def test_xg_files_read_alike_with_either_inflater(monkeypatch: pytest.MonkeyPatch) -> None:
    if inflate._Decompressor is None:  # noqa: SLF001
        pytest.skip("only one inflater here")
    paths = sorted((FILES / "xg").glob("*.xg")) + sorted(CORPUS_IN_USE.glob("xg-binary/*.xg"))
    streamed = 0
    for path in paths:
        data = path.read_bytes()
        found = xg._archived(data, path.name, "temp.xg")  # noqa: SLF001
        incremental = xg._parse_streamed(found, path.name)  # noqa: SLF001
        with monkeypatch.context() as patch:
            patch.setattr(inflate, "_Decompressor", None)
            fallback = xg._parse_streamed(found, path.name)  # noqa: SLF001
        assert incremental == fallback, path
        streamed += incremental is not None
    assert streamed  # the bundled sample at least is read chunk by chunk


def _stating(gzipped: bytes, size: int) -> bytes:
    """``gzipped`` with its trailer's ISIZE replaced by ``size`` (its CRC-32 kept)."""
    return gzipped[:-4] + (size % 2**32).to_bytes(4, "little")


def _outcome(data: bytes, limit: int) -> object:
    try:
        return inflate.inflate_bounded(data, limit, "x", "the body", _bad, wbits=31)
    except (UnsupportedFormatError, LimitExceededError) as exc:
        return type(exc), str(exc)


def test_a_gzip_body_inflates_alike_whatever_size_it_states(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A gzip body is inflated into one buffer of the size its trailer states: whether the
    size is true, smaller, larger, beyond the limit or wrapped at 2**32, and whether the
    stream is whole, cut short, damaged or followed by another member, the result (bytes
    or error) is the one of the one-call inflater that ignores the stated size."""
    gzipped = zlib.compress(_PAYLOAD, wbits=31)
    size = len(_PAYLOAD)
    bodies = [_stating(gzipped, stated) for stated in
              (size, size - 1, size + 1, 0, 7, 2 * size, size + 2**32, 2**32 - 1)]
    bodies += [gzipped[:-10], gzipped[:len(gzipped) // 2], gzipped + gzipped,
               gzipped + zlib.compress(b"tail", wbits=31),
               *(_stating(damaged, size) for damaged in _damaged(gzipped))]
    for limit in (size, size - 1, 2 * size):
        for body in bodies:
            sized = _outcome(body, limit)
            with monkeypatch.context() as patch:
                patch.setattr(inflate, "_gzip_size", lambda data, wbits: None)
                assert sized == _outcome(body, limit)
    assert _outcome(gzipped, size) == _PAYLOAD
