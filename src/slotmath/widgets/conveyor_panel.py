"""A bauble-conveyor what-if panel: the wheel's weights and values and the random-wild law as
controls, the conveyor's analysis and charts redrawn on "Analyse".

The computation is kept apart from the widgets: :func:`design_from_controls` turns the
control values into a game (through
:func:`slotmath.model.persistent.with_conveyor_design`, so a bad design gets the model's
error) and :func:`conveyor_summary_html` gives the figures shown. :class:`ConveyorPanel`
only wires them to ipywidgets, :func:`slotmath.analyze` and :mod:`slotmath.plot`.
"""

from __future__ import annotations

import html

import ipywidgets as widgets
from IPython.display import display
from matplotlib.figure import Figure

from slotmath.analysis import analyze
from slotmath.errors import RuleError
from slotmath.model.game import Game
from slotmath.model.persistent import with_conveyor_design
from slotmath.plot import (
    plot_rtp_breakdown,
    plot_rtp_by_visible_state,
    plot_rtp_from_reset,
    plot_stationary,
)
from slotmath.widgets.figure_view import ChartPanel, FigureView

__all__ = ["ConveyorPanel", "conveyor_summary_html", "design_from_controls"]


def design_from_controls(game: Game, weights: dict, values: dict, empty_weight: int,
                         wild_per_row: int, no_wild: int) -> Game:
    """The game with the wheel's ``weights`` and ``values`` by bauble label, the wheel's
    ``empty_weight`` and the same random-wild law on every reel: ``no_wild`` against
    ``wild_per_row`` per row.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/conveyor_tiny.toml")
    >>> h = design_from_controls(g, {"surprise": 3}, {}, 2, 1, 8)
    >>> h.random_wilds.weights[0], dict((b.label, w) for b, w in h.conveyor.wheel)["surprise"]
    ((8, 1, 1), 3)
    """
    wilds = [[no_wild] + [wild_per_row] * rows for rows in game.rows]
    return with_conveyor_design(game, wheel=weights, values=values, empty_weight=empty_weight,
                                wild_weights=wilds)


def conveyor_summary_html(analysis) -> str:
    """The headline figures of a conveyor analysis as a small HTML table."""
    f = analysis.features["conveyor"]
    ap = f.advantage_play
    target = analysis.game.target_rtp
    rows = [("stationary RTP", f"{100 * float(f.rtp):.4f}%"
             + (f" (target {float(target):.2f}%)" if target is not None else ""))]
    rows += [(name, f"{100 * float(v):.4f}%") for name, v in f.components.items()]
    rows += [("best visible state", f"{100 * ap.best_rtp:.1f}%: {ap.best_state}"),
             ("P(state above 100%)", f"{ap.above_100_probability:.4f}")]
    body = "".join(f"<tr><td>{html.escape(a)}</td><td>{html.escape(b)}</td></tr>"
                   for a, b in rows)
    return f"<table>{body}</table>"


class ConveyorPanel:
    """Controls for every bauble's weight and value, the empty weight and the wild law."""

    def __init__(self, game: Game):
        self.game = game
        c = game.conveyor
        style = {"description_width": "initial"}
        self.weights = {b.label: widgets.BoundedIntText(w, min=0, max=10**6,
                                                        description=f"{b.label} weight",
                                                        style=style) for b, w in c.wheel}
        self.values = {b.label: widgets.BoundedIntText(b.value, min=1, max=10**6,
                                                       description=f"{b.label} value",
                                                       style=style)
                       for b, _ in c.wheel if b.feature in ("coin_win", "free_spins")}
        self.empty = widgets.BoundedIntText(c.empty_weight, min=0, max=10**6,
                                            description="no bauble weight", style=style)
        w0 = game.random_wilds.weights[0]
        self.no_wild = widgets.BoundedIntText(w0[0], min=0, max=10**6,
                                              description="no wild weight", style=style)
        self.wild_row = widgets.BoundedIntText(w0[1], min=0, max=10**6,
                                               description="wild weight per row", style=style)
        self.button = widgets.Button(description="Analyse")
        self.summary = widgets.HTML()
        self.charts = FigureView()
        self.button.on_click(lambda _: self.update())
        controls = (list(self.weights.values()) + list(self.values.values())
                    + [self.empty, self.no_wild, self.wild_row, self.button])
        self.widget = ChartPanel([widgets.HBox([widgets.VBox(controls[: len(controls) // 2]),
                                                widgets.VBox(controls[len(controls) // 2:])]),
                                  self.summary, self.charts], charts=self.charts, game=game)
        self.update()  # the file's design, shown at once (and stored with a saved notebook)

    def design(self) -> Game:
        return design_from_controls(
            self.game, {k: w.value for k, w in self.weights.items()},
            {k: w.value for k, w in self.values.items()}, self.empty.value,
            self.wild_row.value, self.no_wild.value)

    def update(self) -> None:
        try:
            game = self.design()
        except RuleError as err:
            self.summary.value = f"<b>Not a valid design:</b> {html.escape(str(err))}"
            return
        a = analyze(game)
        self.summary.value = conveyor_summary_html(a)
        fig = Figure(figsize=(11, 7))
        axs = fig.subplots(2, 2)
        plot_stationary(a, axs[0][0])
        plot_rtp_by_visible_state(a, axs[0][1])
        plot_rtp_from_reset(a, axs[1][0])
        plot_rtp_breakdown(a, axs[1][1])
        fig.tight_layout()
        self.charts.show(fig)  # an image widget: nothing is captured (see FigureView)

    def _ipython_display_(self):
        display(self.widget)


def feature_panel(analysis, draw: bool = True) -> widgets.Widget:
    """The workbench's conveyor panel (:class:`ConveyorPanel`) for ``analysis``' game."""
    return ConveyorPanel(analysis.game).widget
