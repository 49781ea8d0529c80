"""The workbench's panels of free spins with a state, one per state, each recomputing exact
figures as its controls move (no enumeration: the free spin's moves are already known).

* expanding symbol: a weight per symbol; the game's RTP is linear in the symbols'
  probabilities (the feature is a mixture over the symbol drawn), so it is recomputed
  exactly from each symbol's win per feature;
* sticky wilds: the spins awarded; the chain gives a feature's exact expected win for any
  number of spins from the moves it already holds;
* collector: ``every`` and the spins a level awards; the chain is re-solved on the same free
  spin's table (the rules of the ladder do not change what a spin shows).

Only wiring: figures from :mod:`slotmath.features.free_spin_state` and
:mod:`slotmath.markov.free_spin_state`, charts from :mod:`slotmath.plot.free_spin_state`.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from fractions import Fraction

import ipywidgets as widgets
from matplotlib.figure import Figure

from slotmath.plot.free_spin_state import plot_collector, plot_expanding, plot_spins, plot_sticky
from slotmath.widgets.figure_view import ChartPanel, FigureView, figure_table

__all__ = ["collector_panel", "expanding_rtp", "expanding_symbol_panel", "ladder_rtp",
           "sticky_wilds_panel"]


def _round_feature(analysis):
    from slotmath.features.free_spins import StateRound

    return next(f for f in analysis.round.features if isinstance(f, StateRound))


def expanding_rtp(analysis, weights: dict[str, int]) -> Fraction:
    """The game's exact RTP with the expanding symbols drawn by ``weights``.

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("tests/data/free_spin_state/tiny_book.toml"))
    >>> expanding_rtp(a, dict(a.game.free_spins.state.symbols)) == a.rtp
    True
    """
    s = analysis.features["expanding_symbol"]
    total = sum(weights.values())
    if not total:
        raise ValueError("at least one expanding symbol needs a weight > 0")
    old = s.trigger_probability * sum((p * e for p, e in s.by_start.values()), Fraction(0))
    new = s.trigger_probability * sum((Fraction(weights.get(x, 0), total) * e
                                       for x, (_, e) in s.by_start.items()), Fraction(0))
    return analysis.rtp - old + new


def _show(view: FigureView, draw: bool, *plots) -> None:
    if not draw:
        return
    fig = Figure(figsize=(5 * len(plots), 3.2), layout="constrained")
    axes = fig.subplots(1, len(plots)) if len(plots) > 1 else [fig.subplots()]
    for ax, plot in zip(axes, plots):
        plot(ax)
    view.show(fig)


def expanding_symbol_panel(analysis, draw: bool = True) -> ChartPanel:
    """A weight per expanding symbol; the RTP and each symbol's share, exactly."""
    s = analysis.features["expanding_symbol"]
    spec = analysis.game.free_spins.state
    sliders = {x: widgets.IntSlider(value=w, min=0, max=max(10, 4 * w), description=x)
               for x, w in spec.symbols}
    out, chart = widgets.HTML(), FigureView()

    def update(_=None):
        weights = {x: sl.value for x, sl in sliders.items()}
        if not sum(weights.values()):
            out.value = "<i>give at least one symbol a weight</i>"
            return
        rtp = expanding_rtp(analysis, weights)
        total = sum(weights.values())
        edited = replace(s, by_start={x: (Fraction(weights[x], total), e)
                                      for x, (_, e) in s.by_start.items()})
        rows = [("game RTP", f"{float(rtp):.4%} (exact)"),
                ("file's RTP", f"{float(analysis.rtp):.4%}")]
        rows += [(f"  {x}: win per feature", f"{float(e):.3f} x bet")
                 for x, (_, e) in s.by_start.items()]
        out.value = figure_table(rows)
        _show(chart, draw, lambda ax: plot_expanding(edited, ax))

    for sl in sliders.values():
        sl.observe(update, names="value")
    update()
    return ChartPanel([*sliders.values(), out, chart], charts=chart, game=analysis.game)


def sticky_wilds_panel(analysis, draw: bool = True) -> ChartPanel:
    """The spins a feature is awarded; its exact expected win, and the sticky wilds left at
    the end of the game's features."""
    s = analysis.features["sticky_wilds"]
    feature = _round_feature(analysis)
    most = max(n for key in analysis.round.start_probabilities(feature.name) for n, _ in key)
    spins = widgets.IntSlider(value=most, min=1, max=most, description="spins")
    out, chart = widgets.HTML(), FigureView()
    laws: dict = {}

    def update(_=None):
        for n in range(1, spins.value + 1):
            if n not in laws:
                laws[n] = feature.chain.law({n: 1})
        law = laws[spins.value]
        rows = [("feature of", f"{spins.value} spins"),
                ("expected win", f"{float(law.mean):.4f} x bet (exact)"),
                ("P(it pays nothing)", f"{float(law.zero_probability):.4e}"),
                ("cells a wild can stick on", str(len(s.mechanic.cells))),
                ("chain", f"{s.size['states']} states, {s.size['moves']} moves")]
        out.value = figure_table(rows)
        shown = {n: laws[n] for n in range(1, spins.value + 1)}
        _show(chart, draw, lambda ax: plot_sticky(s, ax), lambda ax: plot_spins(shown, ax))

    spins.observe(update, names="value")
    update()
    return ChartPanel([spins, out, chart], charts=chart, game=analysis.game)


def ladder_rtp(analysis, every: int, retrigger: int):
    """The game's exact RTP and the feature's summary with the collector's ``every`` and
    ``retrigger`` changed (the free spin's table reused: those rules do not change what a
    spin shows).

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("tests/data/free_spin_state/tiny_collector.toml"))
    >>> spec = a.game.free_spins.state
    >>> ladder_rtp(a, spec.every, spec.retrigger)[0] == a.rtp
    True
    """
    from slotmath.features.free_spin_state import StateSummary
    from slotmath.features.free_spins import StateRound

    feature = _round_feature(analysis)
    mechanic = copy.copy(feature.mechanic)  # shares its enumerated classes
    mechanic.spec = replace(mechanic.spec, every=every, retrigger=retrigger)
    mechanic.awards = retrigger > 0
    mechanic._moves = {}
    edited = StateRound(replace(feature.spec, state=mechanic.spec), mechanic, feature.reels,
                        feature.window_multiplier)
    starts = analysis.round.start_probabilities(feature.name)
    p = sum(starts.values(), Fraction(0))
    old = sum((q * feature.law(k).mean for k, q in starts.items()), Fraction(0))
    new = sum((q * edited.law(k).mean for k, q in starts.items()), Fraction(0))
    final: dict = {}
    for k, q in starts.items():
        for end, r in edited.chain.final_states(dict(k)).items():
            final[end] = final.get(end, 0) + q / p * r
    summary = StateSummary("collector", p, new / p, final, {}, {}, True, mechanic)
    return analysis.rtp - old + new, summary


def collector_panel(analysis, draw: bool = True) -> ChartPanel:
    """``every`` (collectors a level) and the spins a level awards; the RTP and the ladder's
    level at the end of a feature, exactly."""
    spec = analysis.game.free_spins.state
    every = widgets.IntSlider(value=spec.every, min=1, max=max(8, spec.every), description="every")
    more = widgets.IntSlider(value=spec.retrigger, min=0, max=max(20, spec.retrigger),
                             description="+spins")
    out, chart = widgets.HTML(), FigureView()

    def update(_=None):
        rtp, summary = ladder_rtp(analysis, every.value, more.value)
        rows = [("game RTP", f"{float(rtp):.4%} (exact)"),
                ("file's RTP", f"{float(analysis.rtp):.4%}"),
                ("win per feature", f"{float(summary.expected_win):.3f} x bet")]
        out.value = figure_table(rows)
        _show(chart, draw, lambda ax: plot_collector(summary, ax))

    every.observe(update, names="value")
    more.observe(update, names="value")
    update()
    return ChartPanel([every, more, out, chart], charts=chart, game=analysis.game)
