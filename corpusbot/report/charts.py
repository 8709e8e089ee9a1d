"""The report's charts: matplotlib figures rendered to inline SVG.

matplotlib because it is the long-kept standard for static plots, needs no
JavaScript and no network to view its output, and its SVG (text kept as
text, ``svg.fonttype = none``) is a few kilobytes a chart whatever the
corpus size, since every chart is drawn from fixed-size histograms. The
``Figure`` object is used without ``pyplot``: no global state, no GUI
backend. Rendering is deterministic (fixed hash salt, no date), so the
same corpus gives the same page.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

try:
    from matplotlib import rc_context
    from matplotlib.figure import Figure
except ImportError as missing:  # pragma: no cover - exercised only without the extra
    raise ImportError("corpusbot report needs matplotlib: "
                      "pip install 'corpusbot[report]'") from missing

_STYLE = {"svg.fonttype": "none", "svg.hashsalt": "corpusbot", "font.size": 9,
          "axes.spines.top": False, "axes.spines.right": False}
WIDTH_INCHES = 7.0
COLORS = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3",
          "#8C8C8C", "#CCB974", "#64B5CD")


def to_svg(figure: Figure) -> str:
    """The figure as an ``<svg>`` element to put inline in HTML."""
    buffer = io.StringIO()
    with rc_context(_STYLE):
        figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def bars(labels: Sequence[str], series: dict[str, Sequence[float]], title: str,
         xlabel: str, log: bool = False) -> str:
    """Horizontal bars, one group per label (top to bottom), one bar per series."""
    with rc_context(_STYLE):
        height = 0.9 + 0.22 * len(labels) * max(1, len(series) * 0.7)
        figure = Figure(figsize=(WIDTH_INCHES, height))
        axes = figure.add_subplot()
        step = 0.8 / len(series)
        for number, (name, values) in enumerate(series.items()):
            places = [i + number * step for i in range(len(labels))]
            axes.barh(places, values, height=step, label=name, color=COLORS[number % 10])
        axes.set_yticks([i + 0.4 - step / 2 for i in range(len(labels))], labels=list(labels))
        axes.invert_yaxis()
        axes.set_xscale("log" if log else "linear")
        axes.set_xlabel(xlabel)
        axes.set_title(title, loc="left")
        if len(series) > 1:
            axes.legend(loc="lower right", frameon=False)
        return to_svg(figure)


def panels(labels: Sequence[str], series: dict[str, Sequence[float]]) -> str:
    """One horizontal bar panel per series (its name the title), side by side, sharing the
    labels."""
    with rc_context(_STYLE):
        figure = Figure(figsize=(WIDTH_INCHES, 0.9 + 0.25 * len(labels)), layout="constrained")
        axes = figure.subplots(1, len(series), sharey=True, squeeze=False)[0]
        for number, (name, values) in enumerate(series.items()):
            axes[number].barh(range(len(labels)), values, color=COLORS[number % 10])
            axes[number].set_title(name, loc="left")
        axes[0].set_yticks(range(len(labels)), labels=list(labels))
        axes[0].invert_yaxis()
        return to_svg(figure)


def histograms(edges: Sequence[float], series: dict[str, Sequence[int]], title: str,
               xlabel: str, log_x: bool = False) -> str:
    """One step line per series over the same bins (``len(edges) - 1`` counts each)."""
    with rc_context(_STYLE):
        figure = Figure(figsize=(WIDTH_INCHES, 2.8))
        axes = figure.add_subplot()
        for number, (name, counts) in enumerate(series.items()):
            axes.stairs(counts, edges, label=name, color=COLORS[number % 10], linewidth=1.5)
        if log_x:
            axes.set_xscale("log")
            axes.set_xlim(*_occupied(edges, series.values()))
        axes.set_xlabel(xlabel)
        axes.set_ylabel("documents")
        axes.set_title(title, loc="left")
        if series:
            axes.legend(frameon=False, ncols=min(len(series), 5), fontsize=8)
        return to_svg(figure)


def _occupied(edges: Sequence[float], series: Iterable[Sequence[int]]) -> tuple[float, float]:
    """The span of the bins any series has a count in (all of them when none has)."""
    used = [i for counts in series for i, count in enumerate(counts) if count]
    if not used:
        return edges[0], edges[-1]
    return edges[max(min(used) - 1, 0)], edges[min(max(used) + 2, len(edges) - 1)]
