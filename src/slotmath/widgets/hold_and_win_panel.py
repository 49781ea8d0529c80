"""A hold & win panel: sliders for the landing probabilities and the value weights, the
round's figures, the named values' odds (a Link game's jackpots) and the game's RTP
recomputed on demand (a float64 chain solve, ~3 s on a
5 x 6 grid), with the booster chart.

Only wiring: the rules are :class:`slotmath.model.hold_and_win.HoldAndWin` (edited with
``dataclasses.replace``), the figures come from
:class:`slotmath.markov.hold_and_win.HoldAndWinChain`, the chart from
:mod:`slotmath.plot.hold_and_win`.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import ipywidgets as widgets
from matplotlib.figure import Figure

from slotmath.analysis import Analysis
from slotmath.markov.hold_and_win import HoldAndWinChain
from slotmath.model.hold_and_win import BOOSTER_KINDS, HoldAndWin
from slotmath.report.hold_and_win import named_value_odds
from slotmath.widgets.figure_view import ChartPanel, FigureView, figure_table

__all__ = ["edited_spec", "figures_html", "hold_and_win_panel"]


def edited_spec(spec: HoldAndWin, cash_one_in: int, booster_one_in: dict[str, int],
                low_weight: int) -> HoldAndWin:
    """``spec`` with cash probability 1/``cash_one_in``, each booster's gem probability
    1/n and the lowest value's weight ``low_weight``.

    Examples
    --------
    >>> spec = HoldAndWin("C", 1, 1, Fraction(1, 2), (Fraction(1), Fraction(2)), (1, 1),
    ...                   rows=1, max_rows=1, reels=2)
    >>> edited_spec(spec, 4, {}, 3).cash_probability, edited_spec(spec, 4, {}, 3).value_weights
    (Fraction(1, 4), (3, 1))
    """
    boosters = tuple(replace(b, probability=Fraction(1, booster_one_in[b.kind]))
                     if b.kind in booster_one_in else b for b in spec.boosters)
    return replace(spec, cash_probability=Fraction(1, cash_one_in), boosters=boosters,
                   value_weights=(low_weight, *spec.value_weights[1:]))


#: features whose part of the RTP this panel recomputes (the paid spin's window, its
#: modifiers' mixture, hold & win started from it); any other is held as in the file
RECOMPUTED = ("pays", "hold_and_win", "modifiers")


def figures_html(spec: HoldAndWin, analysis: Analysis) -> str:
    """The round's figures and the game's RTP for ``spec`` (the paid spin of ``analysis``
    unchanged: the respin rules do not touch it). In a game with other features (free spins,
    a wheel, a cap) their part is held as the file's analysis gives it, and said so: a hold &
    win inside free spins is not recomputed by the panel."""
    start = analysis.round.start_probabilities("hold_and_win")
    chain = HoldAndWinChain(spec)
    trigger = sum(start.values(), Fraction(0))
    feature = sum(float(p) * chain.figures(k).mean for k, p in start.items())
    # the paid spin's window as the round reads it (with modifiers: their mixture)
    lines = float(analysis.round.base.mean_bets)
    others = [f for f in analysis.declared if f.name not in RECOMPUTED]
    rest = 0.0
    if others:  # the rest of the file's RTP, at the file's own rules
        filed = HoldAndWinChain(analysis.game.hold_and_win)
        rest = float(analysis.rtp) - lines - sum(float(p) * filed.figures(k).mean
                                                 for k, p in start.items())
    k0 = min(start)
    fig = chain.figures(k0)
    rows = [("game RTP", f"{lines + feature + rest:.4%}"),
            ("  paid spin's window", f"{lines:.4%}"),
            ("  hold & win from the paid spin", f"{feature:.4%}")]
    if others:
        held = f"  {', '.join(f.title.lower() for f in others)}, as in the file (not recomputed here)"
        rows.append((held, f"{rest:.4%}"))
    rows += [("trigger from the paid spin", f"1 in {1 / float(trigger):,.1f}"),
             (f"round from {k0} held: expected win", f"{fig.mean:.3f} x bet"),
             ("  expected respins", f"{fig.expected_respins:.3f}"),
             ("  fill probability", f"{fig.fill_probability:.3e}")]
    rows += [(f"  {kind} fires at least once", f"{levels[0]:.4f}")
             for kind, levels in fig.booster_levels.items()]
    named = named_value_odds(spec, chain, start)  # the named values, at these rules
    rows += [(f"{r['name']} ({float(r['value']):g} x bet) shows in a paid round",
              f"1 in {1 / float(r['at_least_one']):,.0f}" if r["at_least_one"] else "never")
             for r in named]
    return figure_table(rows)


def hold_and_win_panel(analysis: Analysis, draw: bool = True) -> widgets.VBox:
    """Sliders for ``analysis.game``'s hold & win, a button to recompute, the figures (and,
    with ``draw``, the booster chart)."""
    spec = analysis.game.hold_and_win
    if spec is None:
        raise ValueError(f"{analysis.game.name} has no hold & win")
    cash = widgets.IntSlider(value=round(1 / spec.cash_probability), min=5, max=40,
                             description="cash 1 in")
    gems = {b.kind: widgets.IntSlider(value=round(1 / b.probability), min=2, max=40,
                                      description=f"{b.kind} 1 in")
            for b in spec.boosters if b.kind in BOOSTER_KINDS}
    low = widgets.IntSlider(value=spec.value_weights[0], min=1,
                            max=4 * spec.value_weights[0], description="x1 weight")
    out = widgets.HTML(figures_html(spec, analysis))
    chart = FigureView()
    button = widgets.Button(description="recompute")

    def recompute(_=None):
        # the file's own rules until a slider moves (the sliders round them to 1 in n)
        edited = spec if _ is None else edited_spec(
            spec, cash.value, {k: s.value for k, s in gems.items()}, low.value)
        out.value = figures_html(edited, analysis)
        if not draw:
            return
        from slotmath.plot.hold_and_win import plot_boosters
        figure = Figure(figsize=(6, 3), layout="constrained")
        chain = HoldAndWinChain(edited).figures(spec.trigger)
        plot_boosters(chain, ax=figure.subplots())  # (its booster_levels)
        chart.show(figure)  # an image widget: nothing is captured (see FigureView)

    button.on_click(recompute)
    recompute()  # the file's figures and chart, shown at once (and stored when saved)
    return ChartPanel([cash, *gems.values(), low, button, out, chart], charts=chart,
                      game=analysis.game)
