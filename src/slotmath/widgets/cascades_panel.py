"""The workbench's cascades panel: the multiplier rule and the frozen bonus symbols'
arrangement weights, re-analysed exactly on Run, with the cascade-count law and the RTP
breakdown.

The panel analyses the game it is given; the workbench gives it a cascading game's declared
fast stand-in (:func:`slotmath.features.cascades.fast_variant`) when the game's own strips are
long, and says so above the controls.
"""

from __future__ import annotations

import html
import time
from dataclasses import replace

import ipywidgets as widgets
from matplotlib.figure import Figure

from slotmath.analysis import analyze
from slotmath.plot import plot_cascade_counts, plot_rtp_breakdown
from slotmath.widgets.figure_view import ChartPanel, FigureView

__all__ = ["edited_game", "feature_panel"]


def edited_game(game, step: int | None = None, weights: tuple[int, ...] | None = None):
    """``game`` with its paid spin's multiplier step and its bonus arrangements' weights set.

    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/cascades/tiny_free_spins.toml")
    >>> edited_game(g, step=2).cascades.multiplier.step
    2
    """
    c = game.cascades
    if step is not None and c.multiplier.ladder is None:
        game = replace(game, cascades=replace(c, multiplier=replace(c.multiplier, step=step)))
    b = game.bonus_symbols
    if weights is not None and b is not None:
        arrangements = tuple((w, symbols) for w, (_, symbols) in zip(weights, b.arrangements))
        game = replace(game, bonus_symbols=replace(b, arrangements=arrangements))
    return game


def _figures_html(a, seconds: float) -> str:
    rows = [("RTP", f"{a.rtp_float:.4%}" + ("" if a.exact else " (numerical)"))]
    rows += [(k, f"{float(v):.4%}") for k, v in a.components.items()]
    law = a.features["cascades"]
    expected = sum(k * float(p) for k, p in law.cascade_counts.items())
    rows.append(("cascades per paid spin", f"{expected:.4f}"))
    rows.append(("analysis time", f"{seconds:.1f} s"))
    body = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>"
                   for k, v in rows)
    return f"<table>{body}</table>"


def feature_panel(analysis, draw: bool = True) -> widgets.Widget:
    """The multiplier step (a linear rule) and the bonus arrangements' weights of
    ``analysis``' game; Run re-analyses it exactly and redraws."""
    game = analysis.game
    rule = game.cascades.multiplier
    controls = []
    step = None
    if rule.ladder is None:
        step = widgets.IntSlider(rule.step, 0, max(5, 2 * rule.step), description="step")
        controls.append(step)
    weights = []
    if game.bonus_symbols is not None:
        weights = [widgets.BoundedIntText(w, min=0, max=10**6, description=", ".join(s)[:20])
                   for w, s in game.bonus_symbols.arrangements]
        controls += weights
    out, chart, run = widgets.HTML(), FigureView(), widgets.Button(description="Run")

    def show(a, seconds):
        out.value = _figures_html(a, seconds)
        if not draw:
            return
        fig = Figure(figsize=(10, 3.4), layout="constrained")
        left, right = fig.subplots(1, 2)
        plot_cascade_counts(a, left)
        plot_rtp_breakdown(a, right)
        chart.show(fig)

    def recompute(_=None):
        start = time.perf_counter()
        try:
            edited = edited_game(game, step.value if step is not None else None,
                                 tuple(w.value for w in weights) if weights else None)
            a = analyze(edited, analysis.level)
            _ = a.components
        except Exception as exc:  # noqa: BLE001 - a UI boundary: show it, keep the panel
            out.value = f"<span style='color:#b00'>{html.escape(str(exc))}</span>"
            return
        show(a, time.perf_counter() - start)

    run.on_click(recompute)
    start = time.perf_counter()
    _ = analysis.components
    show(analysis, time.perf_counter() - start)
    return ChartPanel([widgets.HBox(controls + [run]), out, chart], charts=chart, game=game)
