"""A chart as an image widget: the panels' figures, drawn in the kernel and sent as PNG bytes.

The panels used to draw into an ``ipywidgets.Output`` (``with output: clear_output(wait=True);
display(fig)``). Under Voila that capture is mirrored by the server-side executor (nbclient),
which sends each captured output back to the kernel as widget messages while the notebook is
still being executed; on a slow first run (numba compiling its kernels) Voila's load then
never finished: the Gold Money Frog app stayed at "Executing 26 of 35" with an idle kernel
(``tests/browser/test_voila.py`` shows it on a cold numba cache). An ``Image`` widget is one
plain state update (its ``value``): nothing is captured, so nothing is mirrored, and its state
(the PNG) is what a saved notebook stores, so the chart also shows without a kernel.
"""

from __future__ import annotations

import base64
import io

import ipywidgets as widgets

__all__ = ["FigureView", "StaticFallback", "draw_distribution", "figure_table"]

#: Pixels per inch of the PNG sent to the browser (the panels' figures are 10-16 inches wide).
DPI = 72


def figure_table(rows) -> str:
    """An HTML table of (label, value) rows, values right-aligned: the figures a panel shows
    beside its chart.

    >>> figure_table([("RTP", "94.0000%")])
    "<table><tr><td>RTP</td><td style='text-align:right'>94.0000%</td></tr></table>"
    """
    body = "".join(f"<tr><td>{a}</td><td style='text-align:right'>{b}</td></tr>"
                   for a, b in rows)
    return f"<table>{body}</table>"


def draw_distribution(analysis, ax) -> None:
    """The round's win distribution on ``ax``, or, for a game whose analysis does not compute
    it (a persistent-state game played whole by its owner), one line on the axes saying so
    and where its figures are, instead of failing the panel that holds the chart."""
    import textwrap

    from slotmath.plot import plot_win_distribution

    try:
        plot_win_distribution(analysis, ax=ax, bins=40)
    except NotImplementedError as exc:
        ax.set_axis_off()
        ax.text(0.5, 0.5, textwrap.fill(f"Win distribution not computed: {exc}", 60),
                ha="center", va="center", fontsize=9, transform=ax.transAxes)


class FigureView(widgets.Image):
    """An ``ipywidgets.Image`` showing the last matplotlib figure given to :meth:`show`.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> view = FigureView()
    >>> fig = Figure(figsize=(2, 1))
    >>> _ = fig.subplots().plot([0, 1], [1, 0])
    >>> view.show(fig)
    >>> view.value[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """

    def __init__(self, **kwargs):
        kwargs.setdefault("format", "png")
        kwargs.setdefault("layout", widgets.Layout(max_width="100%", height="auto"))
        super().__init__(**kwargs)
        self._layouts: dict[tuple, list] = {}

    def show(self, fig, *, keep_layout: bool = False) -> None:
        """Render ``fig`` to PNG and show it (replacing the previous image).

        ``keep_layout``: a figure of the same shape as one shown before (its size, its axes'
        places in their grids) takes that one's axes positions instead of being laid out
        again. Matplotlib's constrained layout measures every text of the figure, which took
        about a third of a jackpot panel's redraw (issue 23). A panel's figure keeps its
        titles and labels from one move to the next; a tick label that grows (a sixth digit)
        takes the space the first layout left, and a figure of another shape (a chart added)
        is laid out afresh.
        """
        from matplotlib.layout_engine import ConstrainedLayoutEngine

        shape = _shape(fig)
        known = self._layouts.get(shape) if keep_layout else None
        if known is not None:
            positions, title = known
            fig.set_layout_engine("none")
            for ax, position in zip(fig.axes, positions):
                ax.set_position(position)
            if title is not None:
                _suptitle(fig).set_position(title)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=DPI)
        self.value = buffer.getvalue()
        if keep_layout and known is None and isinstance(fig.get_layout_engine(),
                                                        ConstrainedLayoutEngine):
            title = _suptitle(fig)  # the layout places it too
            self._layouts[shape] = ([ax.get_position().frozen() for ax in fig.axes],
                                    None if title is None else title.get_position())


def _suptitle(fig):
    """The figure's suptitle artist, or None (matplotlib keeps it as ``_suptitle``)."""
    return getattr(fig, "_suptitle", None) if fig.get_suptitle() else None


def _shape(fig) -> tuple:
    """What a figure's layout depends on besides its texts: its size and each axes' place."""
    places = []
    for ax in fig.axes:
        spec = ax.get_subplotspec()
        places.append(None if spec is None else spec.get_geometry())
    return (tuple(fig.get_size_inches()), tuple(places), bool(fig.get_suptitle()))


class StaticFallback:
    """Mixin for a panel with ``charts`` (a :class:`FigureView`): its output also carries the
    chart as ``image/png`` and a one-line ``text/plain``.

    JupyterLab draws a widget only in a trusted notebook (one run on this machine); a saved
    notebook opened elsewhere falls back to the output's safe types. Without this fallback
    that was ipywidgets' repr, ``JackpotPanel(children=(HBox(...``; now it is the panel's last
    chart, and the text says what the panel is.
    """

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        if isinstance(data, tuple):  # (data, metadata)
            data = data[0]
        game = getattr(self, "game", None)
        what = f" of {game.name}" if game is not None else ""
        data["text/plain"] = (f"{type(self).__name__}{what}: run the notebook to use its "
                              "controls")
        png = getattr(getattr(self, "charts", None), "value", b"")
        if png:
            data["image/png"] = base64.b64encode(png).decode("ascii")
        return data


class ChartPanel(StaticFallback, widgets.VBox):
    """A VBox of controls whose chart is the :class:`FigureView` ``charts``: what a panel built
    from plain widgets shows, with the static fallback of a saved notebook. ``game`` names it.

    Examples
    --------
    >>> view = FigureView()
    >>> panel = ChartPanel([widgets.HTML("x"), view], charts=view)
    >>> panel.charts is view
    True
    """

    def __init__(self, children, charts: FigureView, game=None, **kwargs):
        super().__init__(children, **kwargs)
        self.charts = charts
        self.game = game
