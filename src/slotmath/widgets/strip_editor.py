"""A strip editor panel: one slider per symbol and reel, exact figures and charts redrawn live.

Only wiring: the strips are edited by :mod:`slotmath.model.edit`, the figures come from
:func:`slotmath.analyze`, the charts from :mod:`slotmath.plot`.
"""

from __future__ import annotations

import html
import threading
import time
from collections.abc import Sequence

import ipywidgets as widgets
import pandas as pd
from matplotlib.figure import Figure

from slotmath.analysis import Analysis, analyze
from slotmath.features.base import hook
from slotmath.model.edit import (
    replace_reel,
    symbol_count,
    symbol_weight,
    with_symbol_count,
    with_symbol_weight,
)
from slotmath.model.game import Game, Reel
from slotmath.plot import (
    plot_rtp_breakdown,
    plot_rtp_sweep,
    rtp_sweep_data,
)
from slotmath.plot.sweep import edit_symbol
from slotmath.report.html import bound_text
from slotmath.rtp import RTPFigures, rtp_only
from slotmath.widgets.figure_view import FigureView, StaticFallback, draw_distribution

__all__ = ["StripEditor", "at_once_html", "reel_header_html", "rtp_html", "strip_editor",
           "summary_html"]

#: How far either side of the current value the sweep chart looks.
SWEEP_HALF_WIDTH = 3
#: Rows of the sweep chart kept for the next moves (each one analysis of an edited game).
SWEEPS_KEPT = 256
#: a game whose analysis takes longer than this (seconds) moves on Run, not on every slider
SLOW_AFTER = 5.0
#: rounds of the paired simulation that previews a move on a slow cascading game
PREVIEW_ROUNDS = 2_000_000
#: Pixels of a slider's track per step (a stop, or a unit of weight), so that a drag sets one
#: stop at a time (at 150 px a slider's track was 62 px for 20 steps: a 25 px drag moved 8
#: stops), up to a track of MAX_TRACK_PX (a weighted reel's range can be hundreds of units:
#: its readout takes a typed value, its arrow keys one unit). At 8 px a step three reels of
#: Classic Fruits (20 steps) sit side by side in JupyterLab in a 1500 px window.
STEP_PX, MIN_TRACK_PX, MAX_TRACK_PX = 8, 120, 480
#: Pixels beside the track: the readout and its margins; a symbol's label, at least LABEL_PX
#: and CHAR_PX per character.
READOUT_PX, LABEL_PX, CHAR_PX = 88, 48, 11


def track_width(steps: int) -> int:
    """The track of a slider over ``steps`` steps, in pixels: STEP_PX a step, within
    [MIN_TRACK_PX, MAX_TRACK_PX].

    Examples
    --------
    >>> track_width(20), track_width(8), track_width(82)
    (160, 120, 480)
    """
    return min(MAX_TRACK_PX, max(MIN_TRACK_PX, STEP_PX * steps))


def rtp_html(analysis: Analysis | RTPFigures) -> str:
    """The RTP in percent, and beside it the exact fraction when the RTP is exact, else the
    float with its error bound (a jackpot game's RTP is numerical: its float is no fraction).

    Examples
    --------
    >>> import slotmath
    >>> rtp_html(slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml")))
    '91.741071% &nbsp; <code>411/448</code>'
    """
    if analysis.exact:
        return f"{analysis.rtp_float:.6%} &nbsp; <code>{analysis.rtp}</code>"
    return (f"{analysis.rtp_float:.6%} &nbsp; <code>{analysis.rtp_float!r}</code> &plusmn; "
            f"{bound_text(analysis.rtp_error)} (numerical)")


def summary_html(analysis: Analysis) -> str:
    """The headline figures of an analysis as a small HTML table: exact where they are
    (:func:`rtp_html`).

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/classic_3reel.toml"))
    >>> "317035/332514" in summary_html(a)
    True
    """
    rows = [("RTP", rtp_html(analysis))]
    for name, value in analysis.components.items():
        rows.append((f"&nbsp;&nbsp;{html.escape(name)}", f"{float(value):.6%}"))
    hit = float(analysis.hit_frequency)
    rows.append(("hit frequency", f"{hit:.4%} (1 in {1 / hit:.3f})" if hit else "0"))
    rows.append(("SD (x bet)", f"{analysis.std:.4f}"))
    for f in analysis.declared:  # each feature's summary rows (its ``summary`` hook)
        summary = hook(f, "summary")
        if summary is not None:
            rows += [(html.escape(k), html.escape(v)) for k, v in summary(analysis)]
    mw = analysis.top_award
    rows.append(("top spin award", f"{float(mw.multiple):g} x bet, 1 in {mw.one_in:,.0f}"))
    body = "".join(f"<tr><td style='padding-right:1em'>{k}</td><td>{v}</td></tr>"
                   for k, v in rows)
    return f"<table class='slotmath-summary'>{body}</table>"


def at_once_html(figures: RTPFigures, before: Analysis) -> str:
    """A move's exact RTP and components (:func:`slotmath.analysis.rtp_only`), each with its
    change from ``before`` (the analysis shown), and what follows.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> text = at_once_html(slotmath.rtp_only(g), slotmath.analyze(g))
    >>> "411/448" in text and "+0.0000%" in text
    True
    """
    rows = [("RTP of this move", rtp_html(figures)
             + f" &nbsp; ({figures.rtp_float - before.rtp_float:+.4%})")]
    for name, value in figures.components.items():
        was = float(before.components.get(name, 0))
        rows.append((f"&nbsp;&nbsp;{html.escape(name)}",
                     f"{float(value):.6%} ({float(value) - was:+.4%})"))
    body = "".join(f"<tr><td style='padding-right:1em'>{k}</td><td>{v}</td></tr>"
                   for k, v in rows)
    return (f"<table class='slotmath-at-once'>{body}</table><i>Exact, from each modifier's "
            f"mean and the law of what starts the features. The distribution, SD, hit "
            f"frequency and charts below are of the strips before this move until the full "
            f"analysis in the background replaces them.</i>")


def reel_header_html(index: int, reel: Reel) -> str:
    """A reel's column head: ``reel 2``, its length in stops and, weighted, its total weight.

    Each edit of a plain reel adds or removes stops, so the length is what the sliders change.

    Examples
    --------
    >>> from slotmath.model.game import Reel
    >>> reel_header_html(0, Reel(("A", "B", "A")))
    "<b>reel 1</b><br><span class='slotmath-reel-length'>3 stops</span>"
    >>> reel_header_html(1, Reel(("A", "B"), (3, 5)))
    "<b>reel 2</b><br><span class='slotmath-reel-length'>2 stops, weight 8</span>"
    """
    length = f"{len(reel.symbols)} stops"
    if reel.weights is not None:
        length += f", weight {sum(reel.weights)}"
    return (f"<b>reel {index + 1}</b><br>"
            f"<span class='slotmath-reel-length'>{length}</span>")


class StripEditor(StaticFallback, widgets.VBox):
    """The panel built by :func:`strip_editor`.

    Attributes
    ----------
    original : Game
        The game as loaded; the sliders are always applied to it (so moving a slider back
        restores the original strip exactly).
    game : Game
        The game with the current slider values.
    analysis : Analysis
        :func:`slotmath.analyze` of ``game``.
    reel_headers : list of ipywidgets.HTML
        Each reel's column head: its number and its length in stops (and total weight on a
        weighted reel), as the edited game has them (:func:`reel_header_html`).
    sliders : dict (reel index, symbol) -> ipywidgets.IntSlider
        Reel index 0 is reel 1. On a plain reel a slider sets the symbol's number of stops;
        on a weighted reel its total stop weight.
    summary : ipywidgets.HTML
        The exact figures shown (see :func:`summary_html`), or the error of the last edit.
    charts : FigureView
        Win distribution, RTP breakdown and (with ``sweep``) the RTP against the last
        edited slider.
    figure : matplotlib.figure.Figure or None
        The figure last shown in ``charts`` (None with ``draw=False``).
    timings : dict
        Seconds from the last move to its figures shown (``"figures"``: the analysis and the
        summary, sent to the page before any chart is drawn) and to its charts drawn
        (``"charts"``).
    """

    def __init__(self, game: Game, reel_set: str = "base", *, level: int = 1,
                 symbols: Sequence[str] | None = None, max_value: int | None = None,
                 sweep: bool = True, draw: bool = True, slow_after: float = SLOW_AFTER,
                 background: bool = True, preview_rounds: int = PREVIEW_ROUNDS):
        self.original = game
        #: a slow cascading game previews a move and analyses it in the background
        self.background = background and game.cascades is not None
        #: a game with base-game modifiers shows a move's exact RTP at once (their tables
        #: are what a move recomputes) and analyses it in the background
        self.at_once = background and game.modifiers is not None
        self.quick: RTPFigures | None = None  # the last move's RTP, until its analysis is in
        self.preview_rounds = preview_rounds
        self.estimate = None  # the last move's PairedChange (a preview), or None
        self._pending: Game | None = None  # the latest edit the background has to analyse
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.slow_after = slow_after
        self.seconds = 0.0  # how long the last analysis took
        #: seconds of the last move: to its figures shown (the analysis included) and to its
        #: charts drawn (both from the move)
        self.timings: dict[str, float] = {}
        self._shown = self._drawn = 0.0
        self.reel_set = reel_set
        self.level = level
        self.sweep = sweep
        self.draw = draw
        self._last: tuple[int, str] | None = None
        self._sweeps: dict = {}  # the strips of a sweep's game -> its rtp_sweep_data row
        self._muted = False
        self.figure: Figure | None = None
        reels = game.reel_sets[reel_set].reels
        if symbols is None:
            on_reels = {s for reel in reels for s in reel.symbols}
            symbols = [s for s in game.symbols if s in on_reels]
        self.symbols = tuple(symbols)

        self.sliders: dict[tuple[int, str], widgets.IntSlider] = {}
        self.reel_headers = [widgets.HTML() for _ in reels]
        top = max_value if max_value is not None else self._default_max(reels)
        label = max(LABEL_PX, CHAR_PX * max((len(s) for s in self.symbols), default=1))
        width = label + track_width(top) + READOUT_PX
        columns = []
        for j, reel in enumerate(reels):
            column: list[widgets.Widget] = [self.reel_headers[j]]
            for s in self.symbols:
                value = self._value(reel, s)
                slider = widgets.IntSlider(
                    value=value, min=0, max=max(top, value), continuous_update=False,
                    description=s, disabled=reel.weights is not None and s not in reel.symbols,
                    style={"description_width": f"{label}px"},
                    layout=widgets.Layout(width=f"{width}px"),
                )
                slider.observe(self._on_change(j, s), names="value")
                self.sliders[(j, s)] = slider
                column.append(slider)
            box = widgets.VBox(column, layout=widgets.Layout(margin="0 16px 8px 0"))
            box.add_class("slotmath-reel")  # found by the browser suite
            columns.append(box)
        # one column per reel, as many side by side as the notebook is wide: a slider's track
        # keeps STEP_PX pixels per stop instead of shrinking to fit a fixed grid
        grid = widgets.HBox(columns, layout=widgets.Layout(flex_flow="row wrap"))
        self.reset_button = widgets.Button(description="Reset strips", icon="undo")
        self.reset_button.on_click(lambda _: self.reset())
        self.run_button = widgets.Button(description="Run", icon="play")
        self.run_button.on_click(lambda _: self.update())
        self.summary = widgets.HTML()
        self.charts = FigureView()
        self.notice = widgets.HTML()
        self.bar = widgets.FloatProgress(value=0.0, min=0.0, max=1.0, description="exact",
                                         layout=widgets.Layout(display="none", width="420px"))
        title = widgets.HTML(f"<b>{html.escape(game.name)}</b>: reel set "
                             f"<code>{html.escape(reel_set)}</code>, bet level {level}")
        super().__init__([title, grid, widgets.HBox([self.reset_button, self.run_button]),
                          self.notice, self.bar, self.summary, self.charts])
        self.add_class("slotmath-strip-editor")  # found by the browser suite
        self.game = game
        start = time.perf_counter()
        self.analysis = analyze(game, level)
        _ = self.analysis.components  # what a move recomputes: the figures and the chart's law
        try:
            _ = self.analysis.distribution
        except NotImplementedError:  # not computed for this game: the chart says so
            pass
        self.seconds = time.perf_counter() - start
        self._refresh()

    @property
    def on_demand(self) -> bool:
        """Whether a move waits for Run: the game's analysis took longer than
        ``slow_after`` seconds, so a slider does not silently take that long."""
        return self.seconds > self.slow_after

    # -- editing ----------------------------------------------------------------------------
    @staticmethod
    def _value(reel: Reel, symbol: str) -> int:
        if reel.weights is not None:
            return symbol_weight(reel, symbol)
        return symbol_count(reel, symbol)

    def _default_max(self, reels) -> int:
        top = max((self._value(r, s) for r in reels for s in self.symbols), default=0)
        return max(8, 2 * top)

    def _on_change(self, j: int, symbol: str):
        def handler(change):
            if self._muted:
                return
            self._last = (j, symbol)
            if self.at_once:  # the exact RTP now, the whole analysis in the background
                self.rtp_at_once()
                return
            if self.on_demand and self.background:  # preview now, exact in the background
                self.preview()
                return
            if self.on_demand:  # a slow game: say how long a move takes, run on request
                self.notice.value = self._notice(pending=True)
                return
            self.update()
        return handler

    def _notice(self, pending: bool = False) -> str:
        if self.at_once:
            return (f"<i>A move shows its exact RTP at once; its full analysis (about "
                    f"{self.seconds:.0f} s the last time) runs in the background and its "
                    f"figures and charts replace the others when it ends.</i>")
        if not self.on_demand:
            return ""
        if self.background:
            return (f"<i>This game's exact analysis takes about {self.seconds:.0f} s: a move "
                    f"shows a paired simulation's estimate at once and the exact figures when "
                    f"the analysis in the background ends.</i>")
        return (f"<i>This game's exact analysis takes about {self.seconds:.0f} s, so the "
                f"sliders wait for <b>Run</b>{' (edits pending)' if pending else ''}.</i>")

    def edited_game(self) -> Game:
        """The original game with every slider's value applied."""
        game = self.original
        for j, reel in enumerate(self.original.reel_sets[self.reel_set].reels):
            edited = reel
            for s in self.symbols:
                value = self.sliders[(j, s)].value
                if value == self._value(reel, s):
                    continue
                if reel.weights is None:
                    edited = with_symbol_count(edited, s, value)
                else:
                    edited = with_symbol_weight(edited, s, value)
            if edited is not reel:
                game = replace_reel(game, self.reel_set, j, edited)
        return game

    def update(self) -> None:
        """Recompute from the sliders and redraw. A failing edit (an empty strip, a feature
        that would never end) is reported in the summary, and the sliders go back to the last
        good state, which stays shown."""
        try:
            game = self.edited_game()
            start = time.perf_counter()
            analysis = analyze(game, self.level)
            _ = analysis.rtp  # compute now, inside the try
            self.seconds = time.perf_counter() - start
        except Exception as exc:  # noqa: BLE001 - a UI boundary: show it, keep the panel alive
            self._restore_sliders()  # the sliders show the strips the figures are of
            self.summary.value = (f"<span style='color:#b00'>cannot analyse this edit: "
                                  f"{html.escape(str(exc))}; the sliders are back where they "
                                  f"were</span>" + summary_html(self.analysis))
            return
        self.game, self.analysis = game, analysis
        self._refresh()
        self.timings = {"figures": self.seconds + self._shown,
                        "charts": self.seconds + max(self._shown, self._drawn)}

    # -- modifiers: the exact RTP at once, the whole analysis in the background ------------
    def rtp_at_once(self) -> None:
        """Show the sliders' game's exact RTP and components (:func:`slotmath.rtp_only`:
        each modifier's mean, not its joint table) with their change, and queue its whole
        analysis in the background. ``timings["rtp"]``: seconds from the move to the RTP
        computed, ``timings["figures"]``: to it shown."""
        try:
            game = self.edited_game()
            start = time.perf_counter()
            figures = rtp_only(game, self.level)
            seconds = time.perf_counter() - start
        except Exception as exc:  # noqa: BLE001 - a UI boundary: show it, keep the panel alive
            self._refused(exc)
            return
        start = time.perf_counter()
        self.quick = figures
        for j, reel in enumerate(game.reel_sets[self.reel_set].reels):
            self.reel_headers[j].value = reel_header_html(j, reel)
        self.notice.value = at_once_html(figures, self.analysis)
        self.timings = {"rtp": seconds, "figures": seconds + time.perf_counter() - start}
        self._queue(game)

    def _refused(self, exc: Exception) -> None:
        """An edit that cannot be analysed: said, and the sliders back where they were."""
        self._restore_sliders()
        self.notice.value = (f"<span style='color:#b00'>cannot analyse this edit: "
                             f"{html.escape(str(exc))}; the sliders are back where they "
                             f"were</span>")

    def _queue(self, game: Game) -> None:
        """Analyse ``game`` in the background: now, or after the analysis under way (the
        latest edit is analysed next)."""
        with self._lock:
            self._pending = game
            if self._thread is None or not self._thread.is_alive():
                self._start(game)

    # -- a slow cascading game: a preview, then the exact analysis in the background ------
    def preview(self) -> None:
        """Estimate the move's RTP change by a paired simulation (the last analysed strips
        and the sliders' on the same draws), show it with its 95 % interval at once, and queue
        the exact analysis of the sliders' game in the background."""
        from slotmath.simulate.cascades import paired_rounds

        try:
            game = self.edited_game()
            est = paired_rounds(self.game, game, self.preview_rounds, seed=0, level=self.level)
        except Exception as exc:  # noqa: BLE001 - a UI boundary: show it, keep the panel alive
            self._refused(exc)
            return
        self.estimate = est
        lo, hi = est.interval()
        now = float(self.analysis.rtp)
        self.notice.value = (
            f"<b>Estimated RTP {now + est.change:.4%}</b> (change {est.change:+.4%}, 95 %: "
            f"{lo:+.4%} to {hi:+.4%}; a paired simulation of {est.rounds:,} rounds, "
            f"{est.rounds_differing:,} of them paying differently: a statistical estimate). "
            f"<i>The exact analysis runs in the background; its figures replace this.</i>")
        self._queue(game)

    def _start(self, game: Game) -> None:
        self.bar.value, self.bar.layout.display = 0.0, None
        self._thread = threading.Thread(target=self._analyse, args=(game,), daemon=True)
        self._thread.start()

    def _heard(self, stage, done: int, total: int) -> None:
        if total:
            self.bar.value = done / total

    def _analyse(self, game: Game) -> None:
        """The background run: the exact analysis of ``game``; shown if it is still the
        latest edit, else the latest is analysed next."""
        start = time.perf_counter()
        try:
            analysis = analyze(game, self.level, progress=self._heard)
            _ = analysis.rtp, analysis.components
            try:
                _ = analysis.distribution
            except NotImplementedError:
                pass
            failed = None
        except Exception as exc:  # noqa: BLE001 - a background run: say it in the panel
            failed = str(exc)
        with self._lock:
            latest = self._pending
            if latest is game:
                self._pending = None
                self.bar.layout.display = "none"
            else:  # the sliders moved on meanwhile: analyse their game next
                self._start(latest)
        if latest is not game:
            return
        if failed is not None:
            self.notice.value = (f"<span style='color:#b00'>the exact analysis of this edit "
                                 f"failed: {html.escape(failed)}</span>")
            return
        self.seconds = time.perf_counter() - start
        self.game, self.analysis, self.estimate, self.quick = game, analysis, None, None
        self._refresh()

    def wait(self, timeout: float | None = None) -> None:
        """Block until the background analyses are done (for scripts and tests)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                thread = self._thread
            if thread is None or not thread.is_alive():
                with self._lock:
                    if self._thread is thread:
                        return
                continue
            thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
            if deadline is not None and time.monotonic() >= deadline:
                return

    def _set_sliders(self, game) -> None:
        """Every slider to ``game``'s value, without recomputing."""
        reels = game.reel_sets[self.reel_set].reels
        self._muted = True
        try:
            for (j, s), slider in self.sliders.items():
                slider.value = self._value(reels[j], s)
        finally:
            self._muted = False

    def _restore_sliders(self) -> None:
        """Every slider back to the value of the game last analysed, without recomputing."""
        self._set_sliders(self.game)

    def reset(self) -> None:
        """Put every slider back to the loaded game's value (one recomputation)."""
        self._set_sliders(self.original)
        self._last = None
        self.update()

    # -- display ----------------------------------------------------------------------------
    def _refresh(self) -> None:
        """The figures first (each widget's new value goes to the page as it is set, so the
        RTP is shown before the charts are drawn), then the charts."""
        start = time.perf_counter()
        for j, reel in enumerate(self.game.reel_sets[self.reel_set].reels):
            self.reel_headers[j].value = reel_header_html(j, reel)
        self.summary.value = summary_html(self.analysis)
        self.notice.value = self._notice()
        self.run_button.layout.display = None if self.on_demand and not self.at_once else "none"
        self._shown = time.perf_counter() - start
        self._drawn = 0.0
        if not self.draw:
            return
        # (no sweep where a move's analysis is slow or in the background: each of its
        # points is one more analysis)
        n = 3 if (self.sweep and self._last is not None and not self.on_demand
                  and not self.at_once) else 2
        fig = Figure(figsize=(5 * n, 3.6), layout="constrained")
        axes = fig.subplots(1, n)
        draw_distribution(self.analysis, axes[0])
        plot_rtp_breakdown(self.analysis, ax=axes[1])
        if n == 3:
            j, s = self._last
            value = self.sliders[(j, s)].value
            lo = max(0, value - SWEEP_HALF_WIDTH)
            reel = self.game.reel_sets[self.reel_set].reels[j]
            if reel.weights is not None and s not in reel.symbols:
                lo = value
            values = [v for v in range(lo, value + SWEEP_HALF_WIDTH + 1)
                      if self._sweep_ok(reel, s, v)]
            data = self._sweep_data(j, s, values)
            what = "total weight" if reel.weights is not None else "stops"
            plot_rtp_sweep(data, ax=axes[2], current=value, label=f"{s} {what} on reel {j + 1}")
        self.figure = fig
        self.charts.show(fig, keep_layout=True)
        self._drawn = time.perf_counter() - start

    def _sweep_data(self, j: int, symbol: str, values: list[int]) -> pd.DataFrame:
        """:func:`~slotmath.plot.rtp_sweep_data` of ``symbol`` on reel ``j`` at ``values``:
        a row computed for an earlier move (the same strips) is not computed again, so a
        slider moved a stop on analyses one value (the sweep's seven values share six)."""
        strips = {v: edit_symbol(self.game, symbol, v, reel_set=self.reel_set,
                                 reels=[j]).reel_sets[self.reel_set] for v in values}
        missing = [v for v in values if strips[v] not in self._sweeps]
        if missing:
            fresh = rtp_sweep_data(self.game, symbol, missing, reel_set=self.reel_set,
                                   reels=[j], level=self.level)
            for row in fresh.to_dict("records"):
                self._sweeps[strips[row["value"]]] = row
            while len(self._sweeps) > SWEEPS_KEPT:
                self._sweeps.pop(next(iter(self._sweeps)))
        return pd.DataFrame([self._sweeps[strips[v]] for v in values])

    @staticmethod
    def _sweep_ok(reel: Reel, symbol: str, value: int) -> bool:
        if reel.weights is None:
            return value > 0 or set(reel.symbols) != {symbol}
        others = sum(w for s, w in zip(reel.symbols, reel.weights) if s != symbol)
        return value > 0 or others > 0


def strip_editor(game: Game, reel_set: str = "base", *, level: int = 1,
                 symbols: Sequence[str] | None = None, max_value: int | None = None,
                 sweep: bool = True, draw: bool = True,
                 slow_after: float = SLOW_AFTER, background: bool = True) -> StripEditor:
    """An ipywidgets panel to change symbol counts on the reel strips and see the exact
    RTP, hit frequency and win distribution follow.

    One slider per symbol and reel of ``reel_set``: on a plain reel it sets the number of
    stops showing the symbol (copies are added or removed spread along the strip, see
    :func:`slotmath.model.edit.with_symbol_count`); on a weighted reel it sets the symbol's
    total stop weight. Each change (on release: ``continuous_update=False``) re-runs
    :func:`slotmath.analyze` on the edited game and redraws the charts.

    Parameters
    ----------
    game : Game
    reel_set : str
        The reel set to edit ("base", or the free-spin set).
    level : int
        Bet level of the analysis.
    symbols : sequence of str, optional
        The symbols to offer sliders for; default every symbol on the reel set.
    max_value : int, optional
        Slider maximum; default twice the largest count (or weight), at least 8.
    sweep : bool
        Also chart the RTP against the last edited slider (a few extra analyses per change).
    draw : bool
        Draw the charts (False: figures only, e.g. for tests).
    slow_after : float
        When the game's analysis takes longer than this (seconds), a move waits for the
        panel's Run button, which says how long a move takes; except, with ``background``,
        on a cascading game: a move shows at once the change a paired simulation estimates
        (:func:`slotmath.simulate.cascades.paired_rounds`: the old and the new strips
        played on the same draws, :data:`PREVIEW_ROUNDS` rounds, the change's 95 % interval),
        and the exact analysis runs in the background under a progress bar; its figures
        replace the estimate when it ends (a move made meanwhile is analysed next).
    background : bool
        See ``slow_after``. On a game with base-game modifiers (whose tables a strip move
        changes), every move shows at once its exact RTP and components
        (:func:`slotmath.rtp_only`: the modifiers' means) and the whole analysis follows in
        the background, under the progress bar; False: each move waits for the analysis.

    Returns
    -------
    StripEditor
        The panel (an ``ipywidgets.VBox``); display it as the last expression of a cell.

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.widgets import strip_editor
    >>> panel = strip_editor(slotmath.load_game("data/games/classic_3reel.toml"), draw=False)
    >>> panel.sliders[(0, "W3")].value = 2          # W3 weighs 2 on reel 1 instead of 1
    >>> panel.analysis.rtp
    Fraction(6350, 6003)
    """
    return StripEditor(game, reel_set, level=level, symbols=symbols, max_value=max_value,
                       sweep=sweep, draw=draw, slow_after=slow_after, background=background)
