"""The HTML page of a match (``show --html``) read back."""

from __future__ import annotations

import json
from typing import Any


def page_frames(html: str) -> list[dict[str, Any]]:
    """The frames the page holds (one per moment: game, move, action, score, SVG board ...),
    from its ``<script id="frames">`` JSON."""
    start = html.index('<script id="frames" type="application/json">')
    body = html[start:].split(">", 1)[1].split("</script>", 1)[0]
    frames: list[dict[str, Any]] = json.loads(body)
    return frames
