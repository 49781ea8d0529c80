"""A modifiers panel: one slider per base-game modifier's frequency ("1 in N" paid spins),
the game's RTP and its breakdown (each modifier's uplift) recomputed at once and exactly:
the modifiers' tables and the plain round do not depend on the frequencies
(:func:`slotmath.features.modifiers.components_at`).

Only wiring: the chart is :func:`slotmath.plot.plot_rtp_breakdown` drawn into a
:class:`~slotmath.widgets.figure_view.FigureView` (an image widget: no captured display).
"""

from __future__ import annotations

from fractions import Fraction

import ipywidgets as widgets
from matplotlib.figure import Figure

from slotmath.analysis import Analysis
from slotmath.features.modifiers import components_at
from slotmath.plot import plot_rtp_breakdown
from slotmath.widgets.figure_view import ChartPanel, FigureView, figure_table

__all__ = ["modifiers_html", "modifiers_panel"]


def modifiers_html(analysis: Analysis, frequencies: dict[str, Fraction]) -> str:
    """The RTP, its components and each modifier's figures at ``frequencies``.

    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
    >>> "RTP" in modifiers_html(a, {})
    True
    """
    shares = analysis.features["modifiers"].shares if "modifiers" in analysis.features else {}
    comps = components_at(analysis.components, shares, frequencies)
    total = sum(float(v) for v in comps.values())
    rows = [("game RTP", f"{total:.4%}")]
    rows += [(f"  {k}", f"{float(v):.4%}") for k, v in comps.items() if v]
    for name, f in frequencies.items():
        s = shares[name]
        acts = (f"a spin it acts on: lines {float(s.lines):.3f} x bet, round "
                f"{float(s.round):.3f} x bet")
        rows.append((f"{name}: 1 in {float(1 / f):,.0f} paid spins", acts))
    return figure_table(rows)


def modifiers_panel(analysis: Analysis, draw: bool = True) -> widgets.VBox:
    """Frequency sliders for ``analysis.game``'s modifiers, the RTP breakdown at once (drawn
    with ``draw``)."""
    mods = analysis.game.modifiers
    if mods is None:
        raise ValueError(f"{analysis.game.name} has no modifiers")
    sliders = {m.name: widgets.IntSlider(value=round(1 / m.frequency), min=20,
                                         max=max(5000, round(2 / m.frequency)),
                                         description=f"{m.name} 1 in")
               for m in mods}
    out = widgets.HTML()
    chart = FigureView()

    def recompute(_=None):
        frequencies = {k: Fraction(1, s.value) for k, s in sliders.items()}
        out.value = modifiers_html(analysis, frequencies)
        if not draw:
            return
        figure = Figure(figsize=(6, 3), layout="constrained")
        plot_rtp_breakdown(components_at(analysis.components,
                                         analysis.features["modifiers"].shares, frequencies),
                           ax=figure.subplots())
        chart.show(figure)

    for s in sliders.values():
        s.observe(recompute, names="value")
    recompute()
    return ChartPanel([*sliders.values(), out, chart], charts=chart, game=analysis.game)
