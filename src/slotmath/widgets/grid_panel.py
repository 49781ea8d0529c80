"""A grid-game panel (Megaways, pay anywhere, clusters): how the game is analysed (method,
accuracy or rounds, seed) and, for a Megaways game, each reel's law of heights, as controls;
the figures, each simulated one with its interval, and the charts redrawn on "Analyse".

The computation is kept apart from the widgets: :func:`design_from_controls` turns the control
values into a game (the model's rules check it) and :func:`grid_summary_html` gives the figures
shown; :class:`GridPanel` only wires them to ipywidgets, :func:`slotmath.analyze` and
:mod:`slotmath.plot`.
"""

from __future__ import annotations

import html
from dataclasses import replace
from fractions import Fraction

import ipywidgets as widgets
from IPython.display import display
from matplotlib.figure import Figure

from slotmath.analysis import analyze
from slotmath.errors import RuleError
from slotmath.model.game import Game
from slotmath.model.grid import METHODS, AnalysisSettings, Grid, HeightLaw
from slotmath.plot import plot_rtp_breakdown
from slotmath.plot.grid import plot_ways_in_play, plot_win_size_intervals
from slotmath.stats.estimate import is_estimate
from slotmath.widgets.figure_view import ChartPanel, FigureView

__all__ = ["GridPanel", "design_from_controls", "feature_panel", "grid_summary_html"]


def design_from_controls(game: Game, method: str, accuracy: float, rounds: int, seed: int,
                         heights: dict[int, int] | None = None) -> Game:
    """The game analysed by ``method`` at ``accuracy`` (RTP 95 % half-width, total bets) or
    ``rounds`` (0: by the accuracy), from ``seed``; with ``heights`` (height -> weight) every
    reel of a ways grid takes that law.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/grid/megaways_tiny.toml")
    >>> h = design_from_controls(g, "simulate", 0.01, 0, 3, {2: 1, 3: 1})
    >>> h.analysis.method, h.analysis.seed, h.grid.heights[0].weights[2]
    ('simulate', 3, 1)
    """
    settings = game.analysis or AnalysisSettings()
    settings = replace(settings, method=method, accuracy=Fraction(str(accuracy)),
                       rounds=int(rounds) or None, seed=int(seed))
    out = replace(game, analysis=settings)
    if heights is not None:
        law = HeightLaw(heights)
        grid = game.grid
        out = replace(out, grid=Grid(grid.pays, (law,) * grid.n_reels, grid.top_reel,
                                     grid.cluster_size, grid.adjacency),
                      rows=(law.max,) * grid.n_reels)
    return out


def _cell(value, percent: bool) -> str:
    spec = ".4%" if percent else ".4f"
    text = format(float(value), spec)
    if is_estimate(value):
        lo, hi = value.interval()
        text += f" <small>(95%: {format(lo, spec)} to {format(hi, spec)})</small>"
    return text


def grid_summary_html(analysis) -> str:
    """The headline figures of a grid game's analysis as a small HTML table; a simulated
    figure shows its interval."""
    a = analysis
    f = a.features[a.composition.owner.name]
    rows = [("method", html.escape(f.plan.text())), ("RTP", _cell(a.rtp, True))]
    rows += [(html.escape(k), _cell(v, True)) for k, v in a.components.items()]
    rows += [("hit frequency", _cell(a.hit_frequency, True)), ("SD (x bet)", _cell(a.std, False))]
    if f.simulation is not None:
        s = f.simulation
        rows.append(("simulated", (f"{s.rounds:,} rounds, seed {s.seed}, {s.seconds:.1f} s "
                                   f"({s.rounds_per_second:,.0f} rounds/s)")))
    body = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


class GridPanel:
    """Controls for the analysis (and a Megaways game's heights); "Analyse" redraws."""

    def __init__(self, game: Game, draw: bool = True):
        self.game = game
        s = game.analysis or AnalysisSettings()
        style = {"description_width": "initial"}
        self.method = widgets.Dropdown(options=list(METHODS), value=s.method,
                                       description="method", style=style)
        self.accuracy = widgets.FloatLogSlider(value=float(s.accuracy), base=10, min=-4, max=-1,
                                               step=0.1, description="accuracy (RTP +/-)",
                                               style=style, readout_format=".4f")
        self.rounds = widgets.BoundedIntText(s.rounds or 0, min=0, max=10**11,
                                             description="rounds (0: by accuracy)", style=style)
        self.seed = widgets.BoundedIntText(s.seed, min=0, max=2**32 - 1, description="seed",
                                           style=style)
        controls = [self.method, self.accuracy, self.rounds, self.seed]
        self.heights = {}
        grid = game.grid
        if grid.pays == "ways" and grid.varies:
            law = grid.heights[0]
            self.heights = {h: widgets.BoundedIntText(law.weights.get(h, 0), min=0, max=10**6,
                                                      description=f"height {h} weight",
                                                      style=style)
                            for h in range(min(law.heights), max(law.heights) + 1)}
            controls += list(self.heights.values())
        self.button = widgets.Button(description="Analyse")
        self.summary = widgets.HTML()
        self.charts = FigureView()
        self.draw = draw
        self.button.on_click(lambda _: self.update())
        self.widget = ChartPanel([widgets.VBox([*controls, self.button]), self.summary,
                                  self.charts], charts=self.charts, game=game)
        self.update()

    def design(self) -> Game:
        heights = ({h: w.value for h, w in self.heights.items()} if self.heights else None)
        return design_from_controls(self.game, self.method.value, self.accuracy.value,
                                    self.rounds.value, self.seed.value, heights)

    def update(self) -> None:
        try:
            game = self.design()
            a = analyze(game)
            self.summary.value = grid_summary_html(a)
        except (RuleError, ValueError) as err:
            self.summary.value = f"<b>Not analysed:</b> {html.escape(str(err))}"
            return
        if not self.draw:
            return
        ways = game.grid.pays == "ways" and game.grid.varies
        fig = Figure(figsize=(11, 3.6), layout="constrained")
        axs = fig.subplots(1, 3 if ways else 2)
        plot_win_size_intervals(a, axs[0])
        plot_rtp_breakdown(a, axs[1])
        if ways:
            plot_ways_in_play(a, axs[2])
        self.charts.show(fig)

    def _ipython_display_(self):
        display(self.widget)


def feature_panel(analysis, draw: bool = True) -> widgets.Widget:
    """The workbench's grid panel (:class:`GridPanel`) for ``analysis``' game."""
    return GridPanel(analysis.game, draw=draw).widget
