"""The charts of the PAR reports as PNG images, drawn by the :mod:`slotmath.plot` functions.

Figures are built with :class:`matplotlib.figure.Figure` and its Agg canvas, never through
pyplot: no window opens, no global figure is left behind, whatever backend is configured.

Examples
--------
>>> import slotmath
>>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
>>> charts = chart_images(a)
>>> [c.title for c in charts], charts[0].png[:4]
(['Win distribution', 'RTP breakdown', 'Win sizes'], b'\\x89PNG')
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from slotmath.features.base import hook

__all__ = ["Chart", "chart_images"]


def _distribution_known(a) -> bool:
    """Whether the round's law is computed; a round whose figures are simulated (they hold
    no law) has none to draw."""
    owner = a.composition.owner
    figures = a.composition.stationary[owner.name] if owner is not None else None
    return not (figures is not None and hasattr(figures, "no_distribution")
                and figures.distribution is None)

#: Size and resolution of each chart: 7.5 x 4.5 inches at 100 dpi is 750 x 450 pixels.
FIGSIZE = (7.5, 4.5)
DPI = 100
#: Bands of the win-distribution chart (log-spaced); one point per win would be thousands.
WIN_BINS = 40


@dataclass(frozen=True)
class Chart:
    """One chart: a title and its PNG bytes (``width`` x ``height`` pixels)."""

    title: str
    png: bytes
    width: int
    height: int


def _render(title: str, draw) -> Chart:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=FIGSIZE, dpi=DPI)
    FigureCanvasAgg(fig)
    draw(fig.add_subplot())
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    width, height = (round(v * DPI) for v in FIGSIZE)
    return Chart(title, buf.getvalue(), width, height)


def chart_images(analysis) -> list[Chart]:
    """The report's charts: win distribution, RTP breakdown, win sizes, then each declared
    feature's charts (its ``charts`` hook: per jackpot its value at a hit, time between hits
    and pool; the hold & win round's win and boosters; ...).

    The RTP by bet level (:func:`slotmath.plot.plot_rtp_by_level`) is left out: it needs the
    analysis of every level, and a report is of one.
    """
    from slotmath import plot

    a = analysis
    known = _distribution_known(a)  # else the feature playing the round draws what it knows
    charts = []
    if known:
        charts.append(_render("Win distribution",
                              lambda ax: plot.plot_win_distribution(a, ax, bins=WIN_BINS)))
    charts.append(_render("RTP breakdown", lambda ax: plot.plot_rtp_breakdown(a, ax)))
    if known:  # win sizes read the round's law
        charts.append(_render("Win sizes", lambda ax: plot.plot_win_sizes(a, ax)))
    for f in a.declared:
        made = hook(f, "charts")
        if made is not None:
            charts += [_render(title, draw) for title, draw in made(a)]
    return charts
