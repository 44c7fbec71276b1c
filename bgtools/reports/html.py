"""A whole match as one self-contained HTML page: the SVG board of every moment (drawn by
:mod:`bgtools.engine.diagram`), stepped through with the keyboard, with the notation of each
action and the score. No network: no external script, font or image.

Keys: right and left arrows (next, previous moment), Home and End (first, last), up and down
(start of the previous, next game). The page honours and keeps the fragment
``#game=G&move=M`` (the numbering of ``--game`` and ``--move``), so a moment can be linked;
without one it opens at the moment it was written for (``show --game/--move``).
"""

from __future__ import annotations

import json
from html import escape
from typing import TYPE_CHECKING

from bgtools.engine.diagram import svg_diagram
from bgtools.record import shown_names

if TYPE_CHECKING:
    from bgtools.reports.moments import MatchAnswers, Moment

__all__ = ["match_html", "moment_notation"]


def moment_notation(match: MatchAnswers, moment: Moment) -> str:
    """What happens at ``moment``, in words and notation: ``Bob 63: 13/7 13/10``, ``Alice
    doubles to 2``, ``Bob drops``; after a game's last action, who won it and how."""
    names = shown_names(match.summary.names)
    if moment.final:
        summary = match.summary.games[moment.game - 1]
        if summary.winner is None or summary.points is None:
            return "The record ends (game not finished)"
        points = f"{summary.points} point" + ("" if summary.points == 1 else "s")
        how = ", ".join(part for part in (summary.result, summary.ended_by) if part)
        return f"{names[summary.winner]} wins {points}" + (f" ({how})" if how else "")
    who = names[moment.player] if moment.player is not None else "?"
    if moment.action == "move":
        dice = f"{moment.dice[0]}{moment.dice[1]}" if moment.dice else ""
        return f"{who} {dice}: {moment.words}"
    return f"{who} {moment.words}"


def _score_text(match: MatchAnswers, moment: Moment) -> str:
    replay = match.summary
    names = shown_names(replay.names)
    score = moment.state.score
    length = (f"{replay.match_length} point match" if replay.match_length
              else "money session")
    return f"{names[0]} {score[0]}, {names[1]} {score[1]} ({length})"


_STYLE = """
body{font:16px/1.4 system-ui,sans-serif;margin:1em auto;max-width:1100px;color:#222;
background:#fbf8f1}
h1{font-size:1.3em;margin:.2em 0}
.layout{display:flex;gap:1.5em;align-items:flex-start}
#board svg{display:block;max-width:100%;height:auto}
#action{font-weight:bold;min-height:1.4em}
nav button{font-size:1em;margin-right:.3em}
#moves{max-height:560px;overflow:auto;font-size:.9em;margin:0;padding-left:1em;min-width:16em}
#moves h2{font-size:1em;margin:.6em 0 .2em}
#moves ol{margin:0;padding-left:2.2em}
#moves li{cursor:pointer}
#moves li.current{background:#ffe08a}
.help{color:#666;font-size:.85em}
"""

_SCRIPT = """
(function () {
  var frames = JSON.parse(document.getElementById('frames').textContent);
  var board = document.getElementById('board');
  var items = document.querySelectorAll('#moves li');
  var at = -1;
  function text(id, value) { document.getElementById(id).textContent = value; }
  function show(k) {
    k = Math.max(0, Math.min(frames.length - 1, k));
    var f = frames[k];
    if (at >= 0) { items[at].classList.remove('current'); }
    at = k;
    board.innerHTML = f.svg;
    text('where', 'Game ' + f.game + ', move ' + f.move + ' of ' + f.moves
         + ' (position ' + (k + 1) + ' of ' + frames.length + ')');
    text('score', f.score);
    text('action', f.action);
    items[k].classList.add('current');
    items[k].scrollIntoView({block: 'nearest'});
    document.body.setAttribute('data-at', String(k));
    try { history.replaceState(null, '', '#game=' + f.game + '&move=' + f.move); }
    catch (e) { /* some file: URLs refuse it; the page still works */ }
  }
  function gameStart(k, step) {
    var game = frames[k].game + step;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].game === game && frames[i].move === 1) { return i; }
    }
    return k;
  }
  function fromHash() {
    var start = +document.body.getAttribute('data-start') || 0;
    var m = /game=(\\d+)&move=(\\d+)/.exec(location.hash);
    if (!m) { return start; }
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].game === +m[1] && frames[i].move === +m[2]) { return i; }
    }
    return start;
  }
  document.addEventListener('keydown', function (e) {
    var next = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: frames.length - 1,
                ArrowDown: gameStart(at, 1), ArrowUp: gameStart(at, -1)}[e.key];
    if (next === undefined) { return; }
    e.preventDefault();
    show(next);
  });
  var buttons = {first: function () { return 0; }, prev: function () { return at - 1; },
                 next: function () { return at + 1; },
                 last: function () { return frames.length - 1; }};
  Object.keys(buttons).forEach(function (id) {
    document.getElementById(id).addEventListener('click', function () { show(buttons[id]()); });
  });
  items.forEach(function (item, k) {
    item.addEventListener('click', function () { show(k); });
  });
  window.addEventListener('hashchange', function () { show(fromHash()); });
  show(fromHash());
})();
"""


def match_html(match: MatchAnswers, title: str, start: Moment | None = None) -> str:
    """The page of ``match`` (every moment of every game); ``title`` names it (the file).
    It opens at ``start`` (default: the first moment) unless its address names another."""
    replay = match.summary
    names = shown_names(replay.names)
    frames: list[dict[str, object]] = []
    listing: list[str] = []
    first = 0
    for game in match.game_numbers:
        moments = match.moments.get(game, [])
        listing.append(f"<h2>Game {game}</h2><ol>")
        for moment in moments:
            if start is not None and (moment.game, moment.move) == (start.game, start.move):
                first = len(frames)
            notation = moment_notation(match, moment)
            frames.append({
                "game": game, "move": moment.move, "moves": len(moments),
                "svg": svg_diagram(moment.board(), size=660),
                "action": notation, "score": _score_text(match, moment),
            })
            listing.append(f"<li>{escape(notation)}</li>")
        listing.append("</ol>")
    length = f"{replay.match_length} point match" if replay.match_length else "money session"
    heading = escape(f"{names[0]} (O) vs {names[1]} (X), {length}")
    # No "<" inside the <script> element: "</script" would end it, and "<!--" followed by
    # "<script" (in a player's name) would make the parser look past its end. Only the JSON's
    # strings can hold one, written "\u003c" there.
    data = json.dumps(frames, ensure_ascii=False).replace("<", "\\u003c")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}: {heading}</title><style>{_STYLE}</style></head>\n"
        f'<body data-start="{first}">'
        f"<h1>{heading}</h1><p class=\"help\">{escape(title)}. Keys: left and right arrows "
        "step, Home and End go to the first and last position, up and down to the previous "
        "and next game.</p>"
        '<div class="layout"><div><p id="where"></p><p id="score"></p>'
        '<div id="board"></div><p id="action"></p>'
        '<nav><button id="first" title="Home">Home</button>'
        '<button id="prev" title="Left arrow">&#x25C0;</button>'
        '<button id="next" title="Right arrow">&#x25B6;</button>'
        '<button id="last" title="End">End</button></nav></div>'
        f'<div id="moves">{"".join(listing)}</div></div>\n'
        f'<script id="frames" type="application/json">{data}</script>\n'
        f"<script>{_SCRIPT}</script>\n</body></html>\n"
    )
