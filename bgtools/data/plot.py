"""``stats --plot FILE``: the rolls observed against the rolls expected, as PNG or SVG.

One panel per group (the groups with the most tested rolls, at most :data:`MAX_PANELS`,
after a first panel for everything together): a bar per kind of roll (``11`` ... ``66``)
with the count observed, the count expected from fair dice and a band of two standard
deviations around it, and the chi-square test in the title. Drawn with matplotlib (its Agg
back end, no display needed), an optional dependency: ``pip install 'bgtools[plot]'``.
"""

from __future__ import annotations

import io
import math
from typing import Any

from bgtools.errors import BgtoolsError

__all__ = ["MAX_PANELS", "PLOT_SUFFIXES", "PlotUnavailableError", "check_plot", "plot_figure",
           "render_plot"]

MAX_PANELS = 8
"""Group panels drawn besides the panel of everything together."""

PLOT_SUFFIXES = {".png": "png", ".svg": "svg"}
"""The image formats ``--plot`` writes, by the file's extension."""

_MISSING = "--plot needs matplotlib: pip install 'bgtools[plot]'"


class PlotUnavailableError(BgtoolsError):
    """``--plot`` was asked for a format or without the library it needs."""


def check_plot(name: str) -> str:
    """The image format for the file ``name`` (``png`` or ``svg``); PlotUnavailableError
    for another extension or when matplotlib is missing."""
    suffix = name[name.rfind("."):].lower() if "." in name else ""
    fmt = PLOT_SUFFIXES.get(suffix)
    if fmt is None:
        raise PlotUnavailableError(f"--plot {name}: the file must end in .png or .svg")
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise PlotUnavailableError(_MISSING) from exc
    return fmt


def _panel(axes: Any, title: str, group: dict[str, Any]) -> None:
    kinds = list(group["kinds"])
    observed = [group["kinds"][k] for k in kinds]
    tested = group["tested_rolls"]
    probabilities = [(1 if k[0] == k[1] else 2) / 36 for k in kinds]
    expected = [tested * p for p in probabilities]
    spread = [2 * math.sqrt(tested * p * (1 - p)) for p in probabilities]
    xs = list(range(len(kinds)))
    axes.bar(xs, observed, color="#4c72b0", label="observed")
    axes.errorbar(xs, expected, yerr=spread, fmt="_", color="black", markersize=12,
                  capsize=2, linewidth=1, label="expected ± 2 sd")
    axes.set_xticks(xs)
    axes.set_xticklabels(kinds, fontsize=7)
    chi = group["chi_square"]
    test = f"χ² {chi['statistic']:.1f} (dof {chi['dof']}), p = {chi['p_value']:.3g}" if chi \
        else "no rolls tested"
    axes.set_title(f"{title}: {tested} rolls; {test}", fontsize=9)
    axes.tick_params(axis="y", labelsize=7)


def plot_figure(stats: dict[str, Any]) -> Any:
    """The matplotlib figure of a ``stats`` object's rolls by kind (close it with
    ``matplotlib.pyplot.close``). Its layout is constrained, so that the figure's title,
    the legend (below the panels, outside them: it never covers a bar) and each panel's
    title keep apart whatever the number of panels."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    key = {"player": "players", "site": "sites", "file": "files"}[stats["by"]]
    groups: dict[str, Any] = stats[key]
    chosen = sorted(groups, key=lambda name: (-groups[name]["tested_rolls"], name))
    chosen = chosen[:MAX_PANELS]
    panels = [("all", stats["all"])] + [(name, groups[name]) for name in chosen]
    if len(groups) == 1:
        panels = panels[1:]
    figure, axes_list = plt.subplots(len(panels), 1, figsize=(9, 2.6 * len(panels) + 0.6),
                                     squeeze=False, layout="constrained")
    for axes, (title, group) in zip(axes_list[:, 0], panels):
        _panel(axes, title, group)
    figure.suptitle("Rolls by kind, observed against fair dice (opening rolls left out)",
                    fontsize=10)
    handles, labels = axes_list[0, 0].get_legend_handles_labels()
    figure.legend(handles, labels, fontsize=7, loc="outside lower center", ncols=2)
    return figure


def render_plot(stats: dict[str, Any], fmt: str) -> bytes:
    """The image (``png`` or ``svg``) of a ``stats`` object's rolls by kind."""
    import matplotlib.pyplot as plt

    figure = plot_figure(stats)
    try:
        out = io.BytesIO()
        figure.savefig(out, format=fmt, dpi=100,
                       metadata={"Date": None} if fmt == "svg" else None)
        return out.getvalue()
    finally:
        plt.close(figure)
