"""A workbench for any game: the PAR sheet, the charts, the strip editor, every declared
feature's panel and the player's view, in tabs.

The Python counterpart of ``slotmath workbench FILE`` (which writes the same sections as the
cells of a notebook, :mod:`slotmath.notebook`): :func:`sections` says which the game has. The
panels come from the registry (each feature's ``panel`` hook). A game whose analysis is slow
and which declares a fast stand-in (a feature's ``fast``) is worked on through the stand-in,
and the workbench says so; otherwise the strip editor waits for Run when a move would take
longer than a few seconds (:data:`slotmath.widgets.strip_editor.SLOW_AFTER`).
"""

from __future__ import annotations

import html

import ipywidgets as widgets
from matplotlib.figure import Figure

from slotmath.analysis import analyze
from slotmath.features.base import Kind, hook
from slotmath.model.game import Game
from slotmath.plot import plot_rtp_breakdown
from slotmath.widgets.figure_view import FigureView, draw_distribution

__all__ = ["CLOSING", "SECTIONS", "Workbench", "feature_panel", "sections", "stand_in",
           "workbench"]

#: The sections every workbench has, in order, with their titles; each declared feature with
#: a panel adds one more, titled by its declaration.
SECTIONS = {
    "par": "PAR sheet",
    "charts": "Distribution and breakdown",
    "strips": "Strip editor",
}
#: The sections every workbench ends with, after the features' panels: the player's view over
#: N rounds (:class:`~slotmath.widgets.player_panel.PlayerPanel`) and the tuning panel
#: (:class:`~slotmath.widgets.tuning_panel.TuningPanel`).
CLOSING = {"player": "Player's view", "tuning": "Tuning"}


def _declared(game: Game):
    from slotmath.features.registry import declared

    return declared(game)


def sections(game: Game) -> dict[str, str]:
    """The sections of a workbench for ``game``, in order, with their titles: the PAR sheet,
    the charts and the strip editor always, then each declared feature's panel, then the
    player's view and the tuning panel.

    Examples
    --------
    >>> import slotmath
    >>> list(sections(slotmath.load_game("data/games/classic_fruits.toml")))
    ['par', 'charts', 'strips', 'player', 'tuning']
    >>> list(sections(slotmath.load_game("data/games/gold_money_frog.toml")))
    ['par', 'charts', 'strips', 'bonus_wheel', 'jackpots', 'player', 'tuning']
    """
    out = dict(SECTIONS)
    out |= {f.name: f.title for f in _declared(game) if f.panel is not None}
    return out | CLOSING


def stand_in(game: Game) -> tuple[Game, str]:
    """The game the panels work on, and a note: ``game`` itself (note empty), or the fast
    stand-in a declared feature gives for a game whose exact analysis is slow.

    >>> import slotmath
    >>> stand_in(slotmath.load_game("data/games/tiny_lines.toml"))[1]
    ''
    """
    for f in _declared(game):
        fast = f.fast(game) if f.fast is not None else None
        if fast is not None:
            return fast, (f"The exact analysis of {game.name} takes too long for live "
                          f"panels: they work on {fast.name}, a declared stand-in "
                          f"({f.title.lower()}); its figures are the stand-in's. The game's "
                          "own figures: slotmath analyze FILE.")
    return game, ""


def feature_panel(analysis, name: str, *, draw: bool = True) -> widgets.Widget:
    """The panel of ``analysis``' feature ``name`` (its declaration's ``panel``).

    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("tests/data/doc_game.toml"))
    >>> type(feature_panel(a, "bonus_wheel", draw=False)).__name__
    'WheelPanel'
    """
    f = next((f for f in analysis.declared if f.name == name), None)
    if f is None or f.panel is None:
        raise ValueError(f"{analysis.game.name} has no panel {name!r}; its panels: "
                         f"{[f.name for f in analysis.declared if f.panel is not None]}")
    return hook(f, "panel")(analysis, draw=draw)


def _par_html(analysis) -> str:
    from slotmath import report

    parts = [("Summary", report.summary_frame(analysis)),
             ("Pay table", report.symbol_table(analysis))]
    for f in analysis.declared:
        made = hook(f, "tables")
        if made is not None and f.kind is not Kind.PAYS:
            parts += made(analysis)
    return "".join(f"<h4>{html.escape(title)}</h4>{frame.to_html(index=False)}"
                   for title, frame in parts)


class Workbench(widgets.Tab):
    """The tabs built by :func:`workbench`.

    Attributes
    ----------
    game : Game
        The game the panels work on (the declared stand-in of a slow game).
    note : str
        Why the panels work on a stand-in (empty: they work on the game itself).
    analysis : Analysis
        :func:`slotmath.analyze` of ``game`` at ``level``.
    panels : dict section -> widget
        One entry per :func:`sections` of the game: ``"par"`` (HTML), ``"charts"``
        (:class:`~slotmath.widgets.figure_view.FigureView`), ``"strips"``
        (:class:`~slotmath.widgets.StripEditor`), then each feature's panel by its name.
    """

    def __init__(self, game: Game, *, level: int = 1, draw: bool = True):
        from slotmath.widgets.strip_editor import StripEditor

        self.game, self.note = stand_in(game)
        self.analysis = analyze(self.game, level)
        self.panels: dict[str, widgets.Widget] = {}
        titles = sections(self.game)
        note = widgets.HTML(f"<i>{html.escape(self.note)}</i>") if self.note else None
        self.panels["par"] = widgets.HTML(
            (f"<p><i>{html.escape(self.note)}</i></p>" if self.note else "")
            + _par_html(self.analysis))
        charts = FigureView()
        if draw:
            fig = Figure(figsize=(11, 3.6), layout="constrained")
            left, right = fig.subplots(1, 2)
            draw_distribution(self.analysis, left)
            plot_rtp_breakdown(self.analysis, ax=right)
            charts.show(fig)
        self.panels["charts"] = charts
        self.panels["strips"] = StripEditor(self.game, level=level, draw=draw)
        for f in self.analysis.declared:
            if f.panel is not None:
                panel = feature_panel(self.analysis, f.name, draw=draw)
                self.panels[f.name] = widgets.VBox([note, panel]) if note else panel
        from slotmath.widgets.player_panel import PlayerPanel

        try:
            panel = PlayerPanel(self.analysis, draw=draw)
        except NotImplementedError as exc:  # no round law to play N rounds of: say which
            panel = widgets.HTML(f"<p>The player's view needs the round's win distribution: "
                                 f"{html.escape(str(exc))}.</p>")
        self.panels["player"] = widgets.VBox([note, panel]) if note else panel
        from slotmath.widgets.tuning_panel import TuningPanel

        self.panels["tuning"] = TuningPanel(self.game, level=level, draw=draw,
                                            analysis=self.analysis)
        super().__init__(list(self.panels.values()))
        self.titles = tuple(titles[name] for name in self.panels)


def workbench(game: Game, *, level: int = 1, draw: bool = True) -> Workbench:
    """Every view of ``game`` in one widget: its PAR sheet, the win distribution and RTP
    breakdown, the strip editor, each of its features' panels and the player's view
    (:func:`sections`), one tab each.

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
    ('PAR sheet', 'Distribution and breakdown', 'Strip editor', 'Bonus wheel', "Player's view", 'Tuning')
    >>> w.panels["bonus_wheel"].sliders[0].value = 80        # the one-bet division twice as likely
    >>> w.panels["bonus_wheel"].analysis.rtp < w.analysis.rtp
    True
    """
    return Workbench(game, level=level, draw=draw)
