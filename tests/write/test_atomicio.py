"""bgtools.write.atomic: output appears whole or not at all, never over the input."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from bgtools.errors import BgtoolsError
from bgtools.write import atomic as atomicio
from bgtools.write.atomic import OutputRefusedError, UnwritableOutputError, write_atomically
from tests.helpers.paths import FILES


def _names(directory: Path) -> set[str]:
    return {p.name for p in directory.iterdir()}


def test_writes_the_text_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "out.mat"
    write_atomically(target, "Müller\n 3 point match\n")
    assert target.read_text(encoding="utf-8") == "Müller\n 3 point match\n"
    assert _names(tmp_path) == {"out.mat"}
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


def test_refuses_an_existing_target_unless_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "out.mat"
    target.write_text("old")
    with pytest.raises(OutputRefusedError, match="exists"):
        write_atomically(target, "new")
    assert target.read_text() == "old"
    write_atomically(target, "new", overwrite=True)
    assert target.read_text() == "new"
    assert _names(tmp_path) == {"out.mat"}


def test_never_writes_onto_the_protected_input(tmp_path: Path) -> None:
    source = tmp_path / "in.mat"
    source.write_bytes(b"input bytes")
    link = tmp_path / "link.mat"
    link.symlink_to(source)
    hard = tmp_path / "hard.mat"
    os.link(source, hard)
    for target in (source, link, hard):
        with pytest.raises(OutputRefusedError, match="input"):
            write_atomically(target, "x", overwrite=True, protect=source)
    assert source.read_bytes() == b"input bytes"
    assert _names(tmp_path) == {"in.mat", "link.mat", "hard.mat"}


def test_refuses_a_directory(tmp_path: Path) -> None:
    with pytest.raises(OutputRefusedError, match="directory"):
        write_atomically(tmp_path, "x", overwrite=True)


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"), KeyboardInterrupt()])
@pytest.mark.parametrize("existing", [None, "old content"])
def test_a_failure_mid_write_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   failure: BaseException,
                                                   existing: str | None) -> None:
    target = tmp_path / "out.mat"
    if existing is not None:
        target.write_text(existing)
    before = _names(tmp_path)
    written: list[str] = []

    def failing_fsync(fd: int) -> None:
        # The data went to the temporary file: fail exactly between write and rename.
        written.extend(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp"))
        raise failure

    monkeypatch.setattr(atomicio.os, "fsync", failing_fsync)
    with pytest.raises(type(failure)):
        write_atomically(target, "new content " * 1000, overwrite=True)
    assert written, "the temporary file existed while writing"
    assert _names(tmp_path) == before
    if existing is None:
        assert not target.exists()
    else:
        assert target.read_text() == existing


def test_a_missing_directory_is_an_oserror_and_creates_nothing(tmp_path: Path) -> None:
    """A typed error (issue 38) that is still the OSError it was, with its errno."""
    with pytest.raises(UnwritableOutputError) as caught:
        write_atomically(tmp_path / "no" / "out.mat", "x")
    assert isinstance(caught.value, OSError) and isinstance(caught.value, BgtoolsError)
    assert caught.value.errno == errno.ENOENT
    assert str(caught.value) == f"cannot write {tmp_path / 'no' / 'out.mat'}: " \
        "No such file or directory"
    assert _names(tmp_path) == set()


def test_convert_onto_a_hard_link_of_its_input_is_a_clean_refusal(tmp_path: Path) -> None:
    """Issue 12: a hard link of IN as OUT (with --force) is refused with a one-line error and
    exit 2, never 'internal error'; IN is unchanged."""
    from typer.testing import CliRunner

    from bgtools.cli import app
    from bgtools.errors import BgtoolsError

    assert issubclass(OutputRefusedError, BgtoolsError)
    source = tmp_path / "in.mat"
    source.write_bytes((FILES / "selfplay" / "m3_s1.mat").read_bytes())
    before = source.read_bytes()
    link = tmp_path / "link.mat"
    os.link(source, link)
    result = CliRunner().invoke(app, ["convert", str(source), "-o", str(link), "--force"])
    assert result.exit_code == 2
    assert "internal error" not in result.output
    assert "is the input file" in result.output
    assert source.read_bytes() == before
