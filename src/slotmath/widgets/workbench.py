"""A workbench for any game: the PAR sheet, the charts and every panel the game has, in tabs.

The Python counterpart of ``slotmath workbench FILE`` (which writes the same sections as the
cells of a notebook, :mod:`slotmath.notebook`): :func:`sections` says which the game has.
"""

from __future__ import annotations

import html

import ipywidgets as widgets
from matplotlib.figure import Figure

from slotmath.analysis import analyze
from slotmath.model.game import Game
from slotmath.plot import plot_rtp_breakdown, plot_win_distribution
from slotmath.widgets.figure_view import FigureView

__all__ = ["SECTIONS", "Workbench", "sections", "workbench"]

#: Every section a workbench can have, in order, with its title.
SECTIONS = {
    "par": "PAR sheet",
    "charts": "Distribution and breakdown",
    "strips": "Strip editor",
    "wheel": "Bonus wheel",
    "jackpots": "Jackpots",
}


def sections(game: Game) -> list[str]:
    """The sections of :data:`SECTIONS` a workbench for ``game`` has: the PAR sheet, the
    charts and the strip editor always, the wheel panel with a bonus wheel, the jackpot panel
    with progressive jackpots.

    Examples
    --------
    >>> import slotmath
    >>> sections(slotmath.load_game("data/games/classic_fruits.toml"))
    ['par', 'charts', 'strips']
    >>> sections(slotmath.load_game("data/games/gold_money_frog.toml"))
    ['par', 'charts', 'strips', 'wheel', 'jackpots']
    """
    out = ["par", "charts", "strips"]
    if game.bonus_wheel is not None:
        out.append("wheel")
    if game.jackpots:
        out.append("jackpots")
    return out


def _par_html(analysis) -> str:
    from slotmath import report

    parts = [("Summary", report.summary_frame(analysis)),
             ("Pay table", report.symbol_table(analysis))]
    if analysis.game.jackpots:
        parts.append(("Jackpots", report.jackpot_frame(analysis)))
    return "".join(f"<h4>{html.escape(title)}</h4>{frame.to_html(index=False)}"
                   for title, frame in parts)


class Workbench(widgets.Tab):
    """The tabs built by :func:`workbench`.

    Attributes
    ----------
    game : Game
    analysis : Analysis
        :func:`slotmath.analyze` of the game at ``level``.
    panels : dict section -> widget
        One entry per :func:`sections` of the game: ``"par"`` (HTML), ``"charts"``
        (:class:`~slotmath.widgets.figure_view.FigureView`), ``"strips"``
        (:class:`~slotmath.widgets.StripEditor`), ``"wheel"``
        (:class:`~slotmath.widgets.wheel_panel.WheelPanel`), ``"jackpots"``
        (:class:`~slotmath.widgets.JackpotPanel`).
    """

    def __init__(self, game: Game, *, level: int = 1, draw: bool = True):
        from slotmath.widgets.jackpot_panel import JackpotPanel
        from slotmath.widgets.strip_editor import StripEditor
        from slotmath.widgets.wheel_panel import WheelPanel

        self.game = game
        self.analysis = analyze(game, level)
        self.panels: dict[str, widgets.Widget] = {}
        for name in sections(game):
            if name == "par":
                panel = widgets.HTML(_par_html(self.analysis))
            elif name == "charts":
                panel = FigureView()
                if draw:
                    fig = Figure(figsize=(11, 3.6), layout="constrained")
                    left, right = fig.subplots(1, 2)
                    plot_win_distribution(self.analysis, ax=left, bins=40)
                    plot_rtp_breakdown(self.analysis, ax=right)
                    panel.show(fig)
            elif name == "strips":
                panel = StripEditor(game, level=level, draw=draw)
            elif name == "wheel":
                panel = WheelPanel(game, level=level, draw=draw)
            else:
                panel = JackpotPanel(game, level=level, analysis=self.analysis, draw=draw)
            self.panels[name] = panel
        super().__init__(list(self.panels.values()))
        self.titles = tuple(SECTIONS[name] for name in self.panels)


def workbench(game: Game, *, level: int = 1, draw: bool = True) -> Workbench:
    """Every view of ``game`` in one widget: its PAR sheet, the win distribution and RTP
    breakdown, the strip editor, and the bonus-wheel and jackpot panels where the game has
    them (:func:`sections`), one tab each.

    ``slotmath workbench FILE`` writes the same sections as notebook cells and opens them in
    JupyterLab (or, with ``--voila``, as an app).

    Parameters
    ----------
    game : Game
    level : int
        Bet level of every panel's analysis.
    draw : bool
        Draw the charts (False: figures only, e.g. for tests).

    Returns
    -------
    Workbench
        An ``ipywidgets.Tab``; display it as the last expression of a cell.

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.widgets import workbench
    >>> w = workbench(slotmath.load_game("tests/data/doc_game.toml"), draw=False)
    >>> w.titles
    ('PAR sheet', 'Distribution and breakdown', 'Strip editor', 'Bonus wheel')
    >>> w.panels["wheel"].sliders[0].value = 80        # the one-bet division twice as likely
    >>> w.panels["wheel"].analysis.rtp < w.analysis.rtp
    True
    """
    return Workbench(game, level=level, draw=draw)
