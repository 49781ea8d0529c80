"""The player's view panel: rounds, bankroll and game cycle as sliders; the figures of
:mod:`slotmath.player` (exact beside normal) and their charts, redrawn on each change.

Only wiring: the figures come from :mod:`slotmath.player`, the charts from
:mod:`slotmath.plot.player`. The panel reads an analysis through three public attributes only,
``distribution`` (the round's win law), ``rtp`` and ``game`` (its name), so anything shaped
like an :class:`~slotmath.analysis.Analysis` will do.
"""

from __future__ import annotations

import html
from fractions import Fraction

import ipywidgets as widgets
from matplotlib.figure import Figure

from slotmath import player
from slotmath.plot.player import (
    plot_ahead,
    plot_hourly_loss,
    plot_net_result,
    plot_round_outcomes,
    plot_rtp_funnel,
    plot_ruin,
)
from slotmath.widgets.figure_view import FigureView, StaticFallback

__all__ = ["BANKROLL_CHOICES", "CYCLE_CHOICES", "ROUND_CHOICES", "PlayerPanel", "format_figure"]

#: the round counts offered (the curves are drawn at those up to the one chosen)
ROUND_CHOICES = (10, 30, 100, 300, 1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000)
#: the bankrolls offered, in bets
BANKROLL_CHOICES = (1, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 50_000)
#: the game cycles of the loss-per-hour chart, in seconds
CYCLE_CHOICES = (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10)


def format_figure(f: player.PlayerFigure, percent: bool = True) -> tuple[str, str]:
    """``(computed, normal)`` texts of a figure: exact, within its bounds, or its bounds.

    Examples
    --------
    >>> format_figure(player.PlayerFigure(Fraction(1, 4), 0.25, 0.25, 0.3, "exact"))
    ('25.000000% (exact)', '30.0000%')
    >>> format_figure(player.PlayerFigure(None, 0.1, 0.2, 0.15, "bounds"))
    ('10.0000% .. 20.0000%', '15.0000%')
    """
    def text(x, digits):
        return f"{x:.{digits}%}" if percent else f"{x:,.{digits}f}"
    if f.exact:
        computed = f"{text(float(f.value), 6)} (exact)"
    elif f.value is not None and f.upper - f.lower < 1e-6 * (1 if percent else 100):
        computed = text(float(f.value), 6 if percent else 2)
    elif f.value is not None:
        computed = f"{text(float(f.value), 4)} (in {text(f.lower, 4)} .. {text(f.upper, 4)})"
    else:
        computed = f"{text(f.lower, 4)} .. {text(f.upper, 4)}"
    return computed, text(f.normal, 4)


class PlayerPanel(StaticFallback, widgets.VBox):
    """Sliders for the rounds played, the bankroll and the game cycle; the player's figures
    and six charts.

    Parameters
    ----------
    analysis : Analysis-like
        Read through ``distribution``, ``rtp`` and ``game`` only.
    rounds, bankroll : int
        Starting values (one of :data:`ROUND_CHOICES`, :data:`BANKROLL_CHOICES`).
    cycle_seconds : float
        Starting game cycle (1 .. 10 s in half seconds; default 2.5, the UK minimum).
    draw : bool
        Draw the charts (False: the figures only, e.g. in tests).
    max_seconds : float
        How long the risk-of-ruin recursion may take before bounds are shown instead.

    Attributes
    ----------
    law : PlayerLaw
    rounds, bankroll, cycle : ipywidgets sliders
    figures : ipywidgets.HTML
        The table of figures: computed (exact, within bounds, or bounds) and normal.
    charts : FigureView
    figure : matplotlib Figure or None
        The last figure drawn.

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/classic_3reel.toml"))
    >>> panel = PlayerPanel(a, rounds=100, bankroll=20, draw=False)
    >>> panel.rounds.value = 1_000
    >>> "1,000 rounds" in panel.figures.value
    True
    """

    def __init__(self, analysis, *, rounds: int = 1_000, bankroll: int = 100,
                 cycle_seconds: float = 2.5, draw: bool = True, max_seconds: float = 5.0):
        self.law = player.as_player_law(analysis.distribution)
        self.rtp = analysis.rtp
        self.game = analysis.game
        self.draw = draw
        self.max_seconds = max_seconds
        self.figure: Figure | None = None
        self._sessions: dict[int, player.SessionLaw] = {}
        self._ruin: dict[tuple[int, int], player.RuinCurve] = {}
        self._hours: dict[float, player.HourlyLoss] = {}
        self.rounds = widgets.SelectionSlider(options=ROUND_CHOICES, value=rounds,
                                              description="rounds N", continuous_update=False)
        self.bankroll = widgets.SelectionSlider(options=BANKROLL_CHOICES, value=bankroll,
                                                description="bankroll", continuous_update=False)
        self.cycle = widgets.FloatSlider(value=cycle_seconds, min=1.0, max=10.0, step=0.5,
                                         description="cycle (s)", continuous_update=False)
        self.figures = widgets.HTML()
        self.charts = FigureView()
        for slider in (self.rounds, self.bankroll, self.cycle):
            slider.observe(self._changed, names="value")
        super().__init__([widgets.HBox([self.rounds, self.bankroll, self.cycle]), self.figures,
                          self.charts])
        self.refresh()

    # -- computations, each done once per setting --------------------------------------------
    def session(self, n: int) -> player.SessionLaw:
        if n not in self._sessions:
            self._sessions[n] = player.session_law(self.law, n)
        return self._sessions[n]

    def _counts(self) -> list[int]:
        return [n for n in ROUND_CHOICES if n <= self.rounds.value]

    def ruin(self) -> player.RuinCurve:
        key = (self.bankroll.value, self.rounds.value)
        if key not in self._ruin:
            plan = player.ruin_plan(self.law, *key, max_seconds=self.max_seconds)
            counts = self._counts() if plan["method"] == "bounds" else None
            sessions = {n: self.session(n) for n in counts} if counts else None
            self._ruin[key] = player.ruin_curve(self.law, *key, method=plan["method"],
                                                rounds=counts, sessions=sessions)
        return self._ruin[key]

    def hour(self, cycle: float) -> player.HourlyLoss:
        if cycle not in self._hours:
            self._hours[cycle] = player.hourly_loss(self.law, cycle, rtp=self.rtp)
        return self._hours[cycle]

    # -- display -----------------------------------------------------------------------------
    def _note(self) -> str:
        gap = abs(float(self.rtp) - float(self.law.mean))
        if gap <= 1e-9 + self.law.error:
            return ""
        return (f"<p><i>The round's win law has mean {float(self.law.mean):.4%}, the game's RTP "
                f"is {float(self.rtp):.4%}: jackpots or a max-win cap act outside the law. "
                "The session figures are the law's; the loss per hour uses the RTP.</i></p>")

    def table_rows(self) -> list[tuple[str, str, str]]:
        """(figure, computed, normal) rows of the figures table."""
        n, b = self.rounds.value, self.bankroll.value
        s = self.session(n)
        rows = []

        def add(label, fig, percent=True):
            rows.append((label, *format_figure(fig, percent)))
        add(f"P(ahead after {n:,} rounds)", player.probability_ahead(self.law, n, session=s))
        add("P(exactly even)", player.probability_even(self.law, n, session=s))
        for q, f in zip((0.05, 0.5, 0.95),
                        player.rtp_quantiles(self.law, n, (0.05, 0.5, 0.95), session=s)):
            add(f"session RTP, {q:.0%} quantile", f)
        curve = self.ruin()
        add(f"risk of ruin, {b:,} bets within {n:,} rounds ({curve.method})", curve.figure())
        hour = self.hour(float(self.cycle.value))
        loss = hour.expected_loss
        exact = " (exact)" if isinstance(loss, Fraction) else ""
        label = (f"expected loss per hour at {float(self.cycle.value):g} s "
                 f"({float(hour.rounds_per_hour):,.0f} rounds)")
        rows.append((label, f"{float(loss):,.2f} bets{exact}", f"{float(loss):,.2f} bets"))
        add("P(ahead after an hour)", hour.ahead)
        add("losses disguised as wins: P(0 < win <= stake)",
            player.losses_disguised_as_wins(self.law))
        return rows

    def refresh(self) -> None:
        """Recompute the figures (and the charts) for the sliders' values."""
        body = "".join(f"<tr><td>{html.escape(a)}</td><td style='text-align:right'>{b}</td>"
                       f"<td style='text-align:right'>{c}</td></tr>"
                       for a, b, c in self.table_rows())
        name = html.escape(getattr(self.game, "name", ""))
        self.figures.value = (f"<b>{name}</b>{self._note()}<table><tr><th>figure</th>"
                              "<th>computed</th><th>normal approximation</th></tr>"
                              f"{body}</table>")
        if self.draw:
            self.redraw()

    def redraw(self) -> None:
        counts = self._counts()
        sessions = {n: self.session(n) for n in counts}
        figure = Figure(figsize=(15, 8), layout="constrained")
        ax = figure.subplots(2, 3)
        plot_net_result(self.session(self.rounds.value), ax=ax[0, 0])
        plot_rtp_funnel(player.rtp_funnel(self.law, counts, sessions=sessions), ax=ax[0, 1])
        plot_ahead(player.ahead_curve(self.law, counts, sessions=sessions), ax=ax[0, 2])
        plot_ruin(self.ruin(), ax=ax[1, 0])
        plot_hourly_loss([self.hour(float(c)) for c in CYCLE_CHOICES], ax=ax[1, 1])
        ax[1, 1].axvline(float(self.cycle.value), color="C2", linewidth=1)
        plot_round_outcomes(self.law, ax=ax[1, 2])
        self.figure = figure
        self.charts.show(figure)

    def _changed(self, _change=None) -> None:
        self.refresh()
