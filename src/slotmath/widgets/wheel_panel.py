"""A bonus-wheel panel: one slider per coin division's stop weight, the exact figures redrawn.

Only wiring: the weights are set by :func:`slotmath.model.edit.with_wheel_weights`, the figures
come from :func:`slotmath.analyze`, the charts from :mod:`slotmath.plot`.
"""

from __future__ import annotations

import html

import ipywidgets as widgets
from matplotlib.figure import Figure

from slotmath.analysis import Analysis, analyze
from slotmath.model.edit import with_wheel_weights
from slotmath.model.game import Game
from slotmath.plot import plot_rtp_breakdown
from slotmath.plot.wheel import plot_wheel, wheel_data
from slotmath.widgets.figure_view import FigureView, StaticFallback

__all__ = ["WheelPanel", "figures_html"]


def figures_html(analysis: Analysis) -> str:
    """The figures a panel shows: exact ones as :func:`~slotmath.widgets.summary_html`, a
    game with jackpots as :func:`~slotmath.widgets.jackpot_summary_html`."""
    from slotmath.widgets.jackpot_panel import jackpot_summary_html
    from slotmath.widgets.strip_editor import summary_html

    if analysis.game.jackpots:
        return jackpot_summary_html(analysis)
    return summary_html(analysis)


class WheelPanel(StaticFallback, widgets.VBox):
    """The bonus wheel's coin weights as sliders; each change re-analyses the game exactly.

    Parameters
    ----------
    game : Game
        A game with a bonus wheel.
    level : int
        Bet level of the analysis.
    draw : bool
        Draw the charts (False: figures only, e.g. for tests).

    Attributes
    ----------
    original, game : Game
        As loaded; with the current weights.
    analysis : Analysis
    sliders : list of ipywidgets.IntSlider
        One per coin division, in the file's order.
    figures : ipywidgets.HTML
        The figures shown, or the error of the last edit (the last good state is kept).
    charts : FigureView
        The wheel's coin shares and the RTP breakdown.

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.load_game("tests/data/doc_game.toml")
    >>> panel = WheelPanel(game, draw=False)
    >>> panel.sliders[-1].value = 6           # the top division three times as likely
    >>> panel.analysis.rtp == slotmath.analyze(panel.game).rtp
    True
    """

    def __init__(self, game: Game, *, level: int = 1, draw: bool = True):
        if game.bonus_wheel is None:
            raise ValueError(f"{game.name} has no bonus wheel")
        self.original, self.level, self.draw = game, level, draw
        self.figure: Figure | None = None
        data = wheel_data(game)
        top = max(8, 2 * max(data["weight"]))
        self.sliders = [widgets.IntSlider(
            value=int(weight), min=0, max=top, description=str(division),
            continuous_update=False, style={"description_width": "90px"},
            layout=widgets.Layout(width="360px"))
            for division, weight in zip(data["division"], data["weight"])]
        for s in self.sliders:
            s.observe(lambda _change: self.update(), names="value")
        self.reset_button = widgets.Button(description="Reset wheel", icon="undo")
        self.reset_button.on_click(lambda _: self.reset())
        self.figures = widgets.HTML()
        self.charts = FigureView()
        title = widgets.HTML(f"<b>{html.escape(game.name)}</b>: bonus wheel coin weights, "
                             f"bet level {level}")
        super().__init__([title, *self.sliders, self.reset_button, self.figures, self.charts])
        self.add_class("slotmath-wheel-panel")  # found by the browser suite
        self._muted = False
        self.game = game
        self.analysis = analyze(game, level)
        self._refresh()

    def update(self) -> None:
        """Re-analyse with the sliders' weights; a refused edit is shown, the last good
        state kept."""
        if self._muted:
            return
        try:
            game = with_wheel_weights(self.original, [s.value for s in self.sliders])
            analysis = analyze(game, self.level)
            _ = analysis.rtp  # compute now, inside the try
        except Exception as exc:  # noqa: BLE001 - a UI boundary: show it, keep the panel alive
            self.figures.value = (f"<span style='color:#b00'>cannot analyse these weights: "
                                  f"{html.escape(str(exc))}</span>")
            return
        self.game, self.analysis = game, analysis
        self._refresh()

    def reset(self) -> None:
        """The file's weights back (one recomputation)."""
        self._muted = True
        try:
            for s, weight in zip(self.sliders, self.original.bonus_wheel.weights):
                s.value = int(weight)
        finally:
            self._muted = False
        self.update()

    def _refresh(self) -> None:
        self.figures.value = figures_html(self.analysis)
        if not self.draw:
            return
        fig = Figure(figsize=(11, 3.6), layout="constrained")
        left, right = fig.subplots(1, 2)
        plot_wheel(self.game, ax=left)
        plot_rtp_breakdown(self.analysis, ax=right)
        self.figure = fig
        self.charts.show(fig, keep_layout=True)


def feature_panel(analysis, draw: bool = True) -> WheelPanel:
    """The workbench's bonus-wheel panel for ``analysis``' game and bet level."""
    return WheelPanel(analysis.game, level=analysis.level, draw=draw)
