"""SVG boards (`show --svg`, `Position._repr_svg_`) and the HTML page of a match (`show --html`),
parsed back and checked against the positions of real matches; the page is driven in a real
headless Chromium when one is installed."""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import shutil
import struct
import subprocess
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from typer.testing import CliRunner

import bgtools.cli.answers  # noqa: F401  (registers the commands)
from bgtools.cli import app
from bgtools.engine.diagram import BoardInfo, player_sides, svg_diagram
from bgtools.engine.position import Position
from bgtools.reports.moments import MatchAnswers, Moment, analyse_answers
from tests.helpers.pages import page_frames
from tests.helpers.paths import FILES, REPO

EXAMPLE = REPO / "samples" / "example_gnubg.mat"
MATCHES = [EXAMPLE, REPO / "samples" / "galaxy_match1486073.txt",
           FILES / "selfplay" / "m3_s1.mat"]
NS = "{http://www.w3.org/2000/svg}"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def classes(element: ElementTree.Element) -> set[str]:
    return set(element.get("class", "").split())


def find(root: ElementTree.Element, *wanted: str) -> list[ElementTree.Element]:
    return [e for e in root.iter() if set(wanted) <= classes(e)]


def moments_of(path: Path) -> Iterator[tuple[MatchAnswers, Moment]]:
    result, answers = analyse_answers(str(path), path)
    assert result.error is None
    for match in answers:
        for moments in match.moments.values():
            for moment in moments:
                yield match, moment


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_every_moment_draws_its_checkers_cube_and_dice(path: Path) -> None:
    drawn = offers = 0
    for match, moment in moments_of(path):
        info = moment.board()
        root = ElementTree.fromstring(svg_diagram(info))
        assert root.tag == NS + "svg"
        for letter, side in zip("xo", player_sides(info), strict=True):
            on_board = side[1:26]
            shown = sum(min(count, 5) for count in on_board)
            assert len(find(root, "checker", letter)) == shown
            if max(on_board) <= 5:
                assert shown == 15 - side[0]
            counts = sorted(int(t.text or "") for t in find(root, "count", f"on-{letter}"))
            assert counts == sorted(c for c in on_board if c > 5)
            assert len(find(root, "off", letter)) == side[0]
        (cube,) = find(root, "cube-group")
        owner = moment.state.cube_owner
        assert cube.get("data-owner") == {None: "centred", 0: "o", 1: "x"}[owner]
        value = "".join(cube.itertext())
        before = match.moments[moment.game][moment.move - 2] if moment.move > 1 else None
        waiting = moment.over is None if moment.final else moment.state.doubled
        if waiting and before is not None and before.action == "double":
            # A double awaiting its answer: the value offered, in the doubler's half.
            doubler = "o" if before.player == 0 else "x"  # player 0 is O
            assert cube.get("data-offered-by") == doubler
            assert value == str(2 * moment.state.cube_value)
            (square,) = find(cube, "cube")
            middle = float(root.get("viewBox", "").split()[2]) / 2
            assert (float(square.get("x", "0")) > middle) == (doubler == "x")
            offers += 1
        else:
            assert cube.get("data-offered-by") is None
            assert value == ("64" if owner is None and moment.state.cube_value == 1
                             else str(moment.state.cube_value))
        # The to-act marker: the player on roll, or the one who doubles, answers, resigns
        # or accepts.
        marked = [label for label in find(root, "label") if "turn" in classes(label)]
        if not moment.final:
            (label,) = marked
            assert classes(label) >= {"player-o" if moment.player == 0 else "player-x"}
        dice = find(root, "die")
        spots = find(root, "spot")
        if moment.action == "move" and moment.dice and not moment.final:
            assert len(dice) == 2 and len(spots) == sum(moment.dice)
            assert all(classes(d) >= {"x" if moment.state.on_roll == 1 else "o"} for d in dice)
        else:
            assert not dice and not spots
        drawn += 1
    assert drawn > 10
    assert offers or path.name == "galaxy_match1486073.txt"  # the Galaxy match has no double


def centre(element: ElementTree.Element) -> tuple[float, float]:
    if element.tag == NS + "circle":
        return float(element.get("cx", "0")), float(element.get("cy", "0"))
    return float(element.get("x", "0")), float(element.get("y", "0"))


def test_orientation_is_gnubg_s_and_numbers_are_the_player_to_act_s() -> None:
    # Each player has all his checkers in his own home board.
    pos = Position.from_points({1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2},
                               {1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 3})
    for turn in ("x", "o"):
        info = BoardInfo(pos, turn=turn)  # type: ignore[arg-type]
        root = ElementTree.fromstring(svg_diagram(info))
        view = [float(v) for v in root.get("viewBox", "").split()]
        mid_x, mid_y = view[2] / 2, view[3] / 2
        xs = [centre(c) for c in find(root, "checker", "x")]
        os_ = [centre(c) for c in find(root, "checker", "o")]
        assert xs and all(x > mid_x - 40 and y > mid_y for x, y in xs)  # X: bottom right
        assert os_ and all(x > mid_x - 40 and y < mid_y for x, y in os_)  # O: top right
        numbers = [(centre(t), int(t.text or "")) for t in find(root, "number")]
        bottom = [n for (x, y), n in sorted(numbers) if y > mid_y]
        top = [n for (x, y), n in sorted(numbers) if y < mid_y]
        if turn == "x":
            assert bottom == list(range(12, 0, -1)) and top == list(range(13, 25))
        else:
            assert bottom == list(range(13, 25)) and top == list(range(12, 0, -1))


def test_bar_cube_owner_and_names_are_drawn_where_they_belong() -> None:
    pos = Position.from_points({25: 2, 6: 7, 5: 3}, {25: 1, 1: 12})
    info = BoardInfo(pos, x_name="Bob <&> \"B\"", o_name="Ann", cube_value=4, cube_owner="x",
                     dice=(6, 6), x_score=1, o_score=2, match_length=5)
    root = ElementTree.fromstring(svg_diagram(info, size=300))
    assert root.get("width") == "300"
    view = [float(v) for v in root.get("viewBox", "").split()]
    (bar,) = find(root, "bar")
    bar_left = float(bar.get("x", "0"))
    bar_right = bar_left + float(bar.get("width", "0"))
    on_bar = [centre(c) for c in find(root, "checker") if bar_left < centre(c)[0] < bar_right]
    assert len(on_bar) == 3
    (cube,) = find(root, "cube")
    assert float(cube.get("y", "0")) > view[3] / 2  # X owns it: his side
    text = " ".join("".join(t.itertext()) for t in find(root, "label"))
    assert "Bob <&> \"B\"" in text and "Ann" in text and "5 point match" in text
    assert "rolled 66" in text and "pips 37" in text and "pips 107" in text  # 2x25+7x6+3x5


def test_notebook_repr_svg_of_a_position_parses_as_svg() -> None:
    pos = Position.initial()
    svg = pos._repr_svg_()
    root = ElementTree.fromstring(svg)
    assert root.tag == NS + "svg"
    assert len(find(root, "checker")) == 30 - 2 * 5 + 2 * 5  # 5 on the 6 and 13 points: shown
    assert svg == svg_diagram(BoardInfo(pos))


# --- the CLI -----------------------------------------------------------------------------------


def test_show_svg_to_stdout_and_to_a_file(tmp_path: Path) -> None:
    code, out, _ = run("show", str(EXAMPLE), "--game", "1", "--move", "2", "--svg", "-")
    assert code == 0
    root = ElementTree.fromstring(out)
    assert "Alice" in "".join(root.itertext())
    target = tmp_path / "board.svg"
    code, out, err = run("show", str(EXAMPLE), "--game", "1", "--move", "2", "--svg",
                         str(target))
    assert code == 0 and out == "" and "wrote" in err
    assert ElementTree.parse(target).getroot().tag == NS + "svg"
    code, _, err = run("show", str(EXAMPLE), "--svg", str(target))
    assert code == 2 and err.startswith("bgtools: error: ") and "--force" in err
    code, _, _ = run("show", str(EXAMPLE), "--svg", str(target), "--force")
    assert code == 0
    code, out, _ = run("show", "4HPwATDgc/ABMA:cAlvAAAAAAAE", "--svg", "-")
    assert code == 0 and ElementTree.fromstring(out).tag == NS + "svg"


def test_show_never_writes_onto_its_input(tmp_path: Path) -> None:
    source = tmp_path / "m.mat"
    source.write_bytes(EXAMPLE.read_bytes())
    before = source.stat()
    for option in ("--svg", "--html"):
        code, _, err = run("show", str(source), option, str(source), "--force")
        assert code == 2 and err.startswith("bgtools: error: "), err
    assert source.read_bytes() == EXAMPLE.read_bytes()
    assert source.stat().st_mtime_ns == before.st_mtime_ns


def test_show_html_refuses_a_bare_id() -> None:
    code, _, err = run("show", "4HPwATDgc/ABMA", "--html", "-")
    assert code == 2 and "match file" in err
    code, out, err = run("show", str(EXAMPLE), "--html", "-", "--svg", "-")
    assert code == 2 and out == "" and "standard output" in err


def test_html_page_holds_every_moment_and_no_network(tmp_path: Path) -> None:
    target = tmp_path / "match.html"
    code, _, _ = run("show", str(EXAMPLE), "--html", str(target))
    assert code == 0
    html = target.read_text("utf-8")
    frames = page_frames(html)
    _, answers = analyse_answers(str(EXAMPLE), EXAMPLE)
    moments = [m for match in answers for ms in match.moments.values() for m in ms]
    assert len(frames) == len(moments)
    assert [(f["game"], f["move"]) for f in frames] == [(m.game, m.move) for m in moments]
    for frame in frames:
        ElementTree.fromstring(frame["svg"])
    assert any("doubles to 2" in f["action"] for f in frames)
    assert frames[0]["score"].startswith("Alice 0, Bob 0")
    for needle in ("http://", "https://", "src=", "@import", "url("):
        # The SVG namespace is a name, never fetched.
        assert needle not in html.replace("http://www.w3.org/2000/svg", "")


def _pips_all_rows(path: Path, game: int) -> dict[int, tuple[str, str, str]]:
    """``pips --all``'s table read back: move -> (player, roll, play) for each action."""
    result = CliRunner().invoke(app, ["pips", str(path), "--game", str(game), "--all"],
                                env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.stderr
    rows = {}
    for line in result.stdout.splitlines():
        cells = [c.strip() for c in line.split("\u2502")]
        if len(cells) == 7 and cells[0].isdigit() and cells[2] != "-":
            rows[int(cells[0])] = (cells[2], cells[5], cells[6])
    return rows


@pytest.mark.parametrize("path", MATCHES[:2], ids=lambda p: p.name)
def test_html_words_every_action_as_pips_all_does(tmp_path: Path, path: Path) -> None:
    # example_gnubg.mat game 2 row 5a: Alice rolls 65, then resigns; the page said "no play".
    target = tmp_path / "match.html"
    assert run("show", str(path), "--html", str(target))[0] == 0
    frames = page_frames(target.read_text("utf-8"))
    checked = 0
    for game in sorted({f["game"] for f in frames}):
        rows = _pips_all_rows(path, game)
        for frame in (f for f in frames if f["game"] == game and f["move"] in rows):
            player, roll, play = rows[frame["move"]]
            expected = f"{player} {roll}: {play}" if roll else f"{player} {play}"
            assert frame["action"] == expected
            checked += 1
    assert checked > 50
    if path == EXAMPLE:
        assert any(f["action"] == "Alice 65: (rolled, then resigned)" for f in frames)


# --- a real browser --------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def png_is_not_blank(data: bytes) -> bool:
    """Decode a PNG's pixels (8-bit RGB or RGBA, as Chromium writes) and check that they are
    not all one colour."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = chunk
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6)
    raw = zlib.decompress(idat)
    stride = width * (3 if colour == 2 else 4) + 1
    rows = {raw[r * stride + 1:(r + 1) * stride] for r in range(0, height, max(1, height // 50))}
    colours = {row[k:k + 3] for row in rows for k in range(0, len(row), 3 * 16)}
    return len(colours) > 20


class DevTools:
    """Chromium's DevTools protocol over ``--remote-debugging-pipe`` (file descriptors 3 and
    4, messages ended by NUL): no extra dependency."""

    def __init__(self, user_dir: Path) -> None:
        # Our ends of the pipes sit above 10, so that putting the child's ends on 3 and 4
        # cannot overwrite one of them; os.dup2 makes 3 and 4 inheritable.
        child_in, to_child = os.pipe()
        from_child, child_out = os.pipe()
        self.to_child = fcntl.fcntl(to_child, fcntl.F_DUPFD_CLOEXEC, 10)
        self.from_child = fcntl.fcntl(from_child, fcntl.F_DUPFD_CLOEXEC, 10)
        child_in_high = fcntl.fcntl(child_in, fcntl.F_DUPFD_CLOEXEC, 10)
        child_out_high = fcntl.fcntl(child_out, fcntl.F_DUPFD_CLOEXEC, 10)
        for fd in (to_child, from_child, child_in, child_out):
            os.close(fd)

        def fds() -> None:
            os.dup2(child_in_high, 3)
            os.dup2(child_out_high, 4)

        assert CHROMIUM is not None
        self.proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={user_dir}", "--remote-debugging-pipe",
             "--window-size=1100,800", "about:blank"],
            close_fds=False, preexec_fn=fds,  # noqa: PLW1509
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(child_in_high)
        os.close(child_out_high)
        self.buffer = b""
        self.next_id = 0

    def call(self, method: str, session: str | None = None, *, may_fail: bool = False,
             **params: Any) -> dict[str, Any]:
        """The result of ``method``; with ``may_fail``, {} when it failed (a page loading)."""
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self.to_child, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_child, 1 << 20)
                assert chunk, "chromium closed the pipe"
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            reply: dict[str, Any] = json.loads(raw)
            if reply.get("id") == self.next_id:
                if may_fail and "error" in reply:
                    return {}
                assert "error" not in reply, reply
                result: dict[str, Any] = reply.get("result", {})
                return result

    def close(self) -> None:
        """Close the browser and wait for it (killed after 20 s)."""
        with contextlib.suppress(AssertionError, OSError):
            self.call("Browser.close")
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_child)
        os.close(self.from_child)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_html_page_in_a_real_browser(tmp_path: Path) -> None:
    page = tmp_path / "match.html"
    assert run("show", str(EXAMPLE), "--html", str(page))[0] == 0
    frames = page_frames(page.read_text("utf-8"))
    # 1. A plain screenshot of a moment named by the fragment.
    shot = tmp_path / "shot.png"
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile1'}",
                    "--window-size=1100,800", f"--screenshot={shot}",
                    page.as_uri() + "#game=2&move=3"],
                   capture_output=True, timeout=120, check=False, stdin=subprocess.DEVNULL)
    assert png_is_not_blank(shot.read_bytes())
    # 2. Keys pressed in the page move through the match.
    tools = DevTools(tmp_path / "profile2")
    try:
        target = tools.call("Target.createTarget", url=page.as_uri() + "#game=1&move=2")
        session = tools.call("Target.attachToTarget", targetId=target["targetId"],
                             flatten=True)["sessionId"]

        def evaluate(expression: str) -> Any:
            for _ in range(200):
                reply = tools.call("Runtime.evaluate", session, may_fail=True,
                                   expression=expression, returnByValue=True)
                value = reply.get("result", {}).get("value")
                if value is not None:
                    return value
                tools.call("Runtime.evaluate", session, may_fail=True, awaitPromise=True,
                           expression="new Promise(r => setTimeout(r, 50))")
            return None

        def press(key: str, code: int) -> None:
            for kind in ("keyDown", "keyUp"):
                tools.call("Input.dispatchKeyEvent", session, type=kind, key=key, code=key,
                           windowsVirtualKeyCode=code)

        at = "document.body.getAttribute('data-at')"
        assert evaluate(at) == "1"  # the fragment's moment: game 1, move 2
        assert evaluate("document.getElementById('action').textContent") == frames[1]["action"]
        press("ArrowRight", 39)
        assert evaluate(at) == "2"
        assert evaluate("location.hash") == "#game=1&move=3"
        assert evaluate("document.querySelectorAll('#board svg circle.checker').length") > 0
        press("End", 35)
        assert evaluate(at) == str(len(frames) - 1)
        press("Home", 36)
        press("ArrowLeft", 37)
        assert evaluate(at) == "0"
        press("ArrowDown", 40)
        second = next(k for k, f in enumerate(frames) if f["game"] == 2)
        assert evaluate(at) == str(second)
        assert evaluate("document.getElementById('score').textContent") == frames[second]["score"]
        png = tools.call("Page.captureScreenshot", session, format="png")["data"]
        assert png_is_not_blank(base64.b64decode(png))
        # 3. Without a fragment, a page written with --game/--move opens at that moment.
        opened = tmp_path / "opened.html"
        assert run("show", str(EXAMPLE), "--game", "2", "--move", "3", "--html",
                   str(opened))[0] == 0
        target = tools.call("Target.createTarget", url=opened.as_uri())
        session = tools.call("Target.attachToTarget", targetId=target["targetId"],
                             flatten=True)["sessionId"]
        wanted = next(k for k, f in enumerate(frames) if (f["game"], f["move"]) == (2, 3))
        assert evaluate(at) == str(wanted)
        assert evaluate("location.hash") == "#game=2&move=3"
    finally:
        tools.close()
