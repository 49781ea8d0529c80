"""The tuning panel: targets in, the tuned game's PAR beside the original's out, the exact
sensitivity heat map, and "apply" to write the tuned game file.

Only wiring: the solver is :func:`slotmath.tune.tune`, the sensitivities
:func:`slotmath.tune.sensitivities`, the PAR rows :func:`slotmath.report.summary_frame` of
:func:`slotmath.analyze` on each game (the tuned game is analysed afresh, not read from the
solver's tables), the file :func:`slotmath.tune.game_file.tuned_text`. A game the window
tables do not cover gets their one-line reason instead of controls, and where the solver's
search path tunes it (minutes per step), how to run that.
"""

from __future__ import annotations

import html
import math
from fractions import Fraction
from pathlib import Path

import ipywidgets as widgets
import pandas as pd
from matplotlib.figure import Figure

from slotmath import report
from slotmath.analysis import Analysis, analyze
from slotmath.model.game import Game
from slotmath.plot.tuning import plot_sensitivity_heatmap
from slotmath.tune import check_tunable, sensitivities, tune
from slotmath.tune.awards import one_in as award_one_in
from slotmath.tune.game_file import tuned_text, tuned_weights_text
from slotmath.tune.layout import Layout, parse_rules, violations
from slotmath.tune.prize_weights import prize_weights
from slotmath.tune.reel_tables import NotWindowTunable
from slotmath.tune.sensitivity import modifiers_only
from slotmath.tune.solver import Step, TuneResult, default_method, sd_range, step_line
from slotmath.widgets.figure_view import FigureView

__all__ = ["TuningPanel", "layout_line", "par_side_by_side", "strip_changes", "weight_changes"]


def par_side_by_side(original: Analysis, tuned: Analysis) -> pd.DataFrame:
    """The PAR summary rows of both games side by side, and whether each row changed.

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/classic_3reel.toml"))
    >>> par_side_by_side(a, a).loc[0].tolist()
    ['RTP', '95.344858%  (317035/332514)', '95.344858%  (317035/332514)', '']
    """
    left = dict(zip(*report.summary_frame(original).to_dict("list").values()))
    right = dict(zip(*report.summary_frame(tuned).to_dict("list").values()))
    rows = [{"figure": k, "original": left.get(k, "-"), "tuned": right.get(k, "-"),
             "changed": "" if left.get(k) == right.get(k) else "changed"}
            for k in dict.fromkeys([*left, *right])]  # the original's order, then new rows
    return pd.DataFrame(rows, columns=["figure", "original", "tuned", "changed"])


def strip_changes(original: Game, tuned: Game, reel_set: str) -> pd.DataFrame:
    """Per reel and symbol, the count (or, on a weighted reel, the total stop weight) before
    and after, for the pairs that changed.

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.model.edit import replace_reel, with_symbol_count
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> t = replace_reel(g, "base", 0, with_symbol_count(g.base.reels[0], "BAR", 3))
    >>> strip_changes(g, t, "base").to_dict("records")
    [{'reel': 1, 'symbol': 'BAR', 'before': 1, 'after': 3}]
    """
    rows = []
    pairs = zip(original.reel_sets[reel_set].reels, tuned.reel_sets[reel_set].reels)
    for j, (a, b) in enumerate(pairs):
        for s in dict.fromkeys(a.symbols + b.symbols):
            before, after = _amount(a, s), _amount(b, s)
            if before != after:
                rows.append({"reel": j + 1, "symbol": s, "before": before, "after": after})
    return pd.DataFrame(rows, columns=["reel", "symbol", "before", "after"])


def weight_changes(original: Game, tuned: Game, kind: str) -> pd.DataFrame:
    """Per bonus-wheel division (``kind="wheel"``) or hold & win value (``"values"``), its
    weight before and after, for those that changed (a weight scale multiplies every weight:
    the shares are what the player meets).

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.tune.prize_weights import with_prize_weights
    >>> g = slotmath.load_game("data/games/golden_link.toml")
    >>> t = with_prize_weights(g, "values", [400, 300, 150, 80, 40, 12, 3, 2])
    >>> weight_changes(g, t, "values").to_dict("records")[0]
    {'prize': 'MINOR=50', 'before': 4, 'after': 3, 'share before': '0.4053%', 'share after': '0.3040%'}
    """
    a, b = prize_weights(original, kind), prize_weights(tuned, kind)
    rows = [{"prize": label, "before": x, "after": y, "share before": f"{x / a.total:.4%}",
             "share after": f"{y / b.total:.4%}"}
            for label, x, y in zip(a.labels, a.weights, b.weights)
            if x != y]
    return pd.DataFrame(rows, columns=["prize", "before", "after", "share before",
                                       "share after"])


def _amount(reel, symbol: str) -> int:
    return sum(w for s, w in zip(reel.symbols, reel.stop_weights) if s == symbol)


def _percent(x) -> str:
    return f"{float(x):.6%}"


def layout_line(game: Game, reel_set: str, layout: Layout) -> str:
    """Whether every reel of ``reel_set`` keeps ``layout``'s rules (the defaults added), read
    off the strips: one line for the panel.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/ways_243.toml")
    >>> layout_line(g, "base", Layout())
    'Layout: SC=3 apart; kept on every reel.'
    >>> layout_line(g, "base", Layout(stack={"LION": 2}))[:85]
    'Layout: SC=3 apart, LION in stacks of 2; broken on reel 1: LION: a run of 1 (stack 2)'
    """
    kept, broken = [], []
    for j, reel in enumerate(game.reel_sets[reel_set].reels):
        spacing, stack = layout.for_reel(game, j)
        kept.append((spacing, stack))
        bad = violations(reel.symbols, spacing, stack)
        if bad:
            broken.append(f"reel {j + 1}: {bad[0]}")
    rules = dict.fromkeys(f"{s}={d} apart" for sp, _ in kept for s, d in sp.items())
    rules |= dict.fromkeys(f"{s} in stacks of {k}" for _, st in kept for s, k in st.items())
    if not rules:
        return "Layout: no rules."
    head = "Layout: " + ", ".join(rules)
    more = f"; and {len(broken) - 2} more reels" if len(broken) > 2 else ""
    return head + ("; broken on " + "; ".join(broken[:2]) + more if broken
                   else "; kept on every reel.")


class TuningPanel(widgets.VBox):
    """Targets in (RTP, and optionally a hit-frequency range and a feature "1 in N" range),
    layout rules (spacing, stacks) and what the solver moves (symbol counts or stop
    weights), the tuned game's PAR beside the original's out, the sensitivity heat map, and a
    button that writes the tuned game file.

    Parameters
    ----------
    game : Game
    reel_set : str
        The reel set the solver may change.
    level : int
    draw : bool
        Draw the heat map (False: figures only, e.g. in tests).

    Attributes
    ----------
    result : TuneResult or None
        The last run of the solver.
    tuned : Analysis or None
        :func:`slotmath.analyze` of the tuned game.
    refusal : str or None
        Why the solver does not cover this game (then the panel shows only that).
    written : pathlib.Path or None
        The file the last "apply" wrote.
    figure : matplotlib.figure.Figure or None
        The sensitivity heat map shown (None until :meth:`show_sensitivities`, and with
        ``draw=False``).

    Examples
    --------
    >>> import slotmath
    >>> p = TuningPanel(slotmath.load_game("data/games/classic_3reel.toml"), draw=False)
    >>> p.target.value = 96.0
    >>> p.run()
    >>> p.result.met, p.tuned.rtp == p.result.figures.rtp
    (True, True)
    """

    def __init__(self, game: Game, reel_set: str = "base", *, level: int = 1,
                 draw: bool = True, analysis: Analysis | None = None):
        self.game, self.reel_set, self.level, self.draw = game, reel_set, level, draw
        self.result: TuneResult | None = None
        self.result_moves = "counts"
        self.tuned: Analysis | None = None
        self.written: Path | None = None
        self.refusal: str | None = None
        self.figure: Figure | None = None
        title = widgets.HTML(f"<b>{html.escape(game.name)}</b>: tune reel set "
                             f"<code>{html.escape(reel_set)}</code>, bet level {level}")
        #: a game the window tables do not cover (cascades, a feature playing the whole
        #: round, base-game modifiers): tuned by :func:`slotmath.tune.tune`'s path for it
        #: (the search, the proxy or common random numbers, each step confirmed by the
        #: game's analysis or, with modifiers, its exact RTP); the RTP target, hit-frequency
        #: and volatility ranges (every such path steers them), a feature range where the
        #: path steers one, and GLI-11; ``why``: the window tables' reason
        self.searched, self.why = False, ""
        #: whether such a game's path takes a feature range (:func:`_feature_offered`), and
        #: the path tune() takes (:func:`slotmath.tune.solver.default_method`, passed on)
        self.feature_offered, self.method = False, None
        #: its heat map: the RTP's entries, where the modifiers alone are the reason
        #: (:func:`slotmath.tune.sensitivity.modifiers_only`); no heat map for the others
        self.proxied = False
        try:
            check_tunable(game, level)
        except NotWindowTunable as exc:
            self.searched, self.why = True, exc.why
            self.proxied = modifiers_only(game, level)
        except ValueError as exc:
            self.refusal = str(exc)
            super().__init__([title, widgets.HTML(
                f"<p>Not tuned in this panel: {html.escape(self.refusal)}.</p>")])
            self.add_class("slotmath-tuning-panel")
            return
        self.original = analysis if analysis is not None else analyze(game, level)
        rtp = float(self.original.rtp) * 100
        style = {"description_width": "170px"}
        wide = widgets.Layout(width="330px")
        self.target = widgets.BoundedFloatText(value=round(rtp, 2), min=1.0, max=500.0,
                                               step=0.01, description="target RTP %",
                                               style=style, layout=wide)
        self.tolerance = widgets.BoundedFloatText(value=0.001, min=0.0, max=5.0, step=0.001,
                                                  description="within (points of %)",
                                                  style=style, layout=wide)
        hit = float(self.original.hit_frequency) * 100
        self.hit_on = widgets.Checkbox(value=False, description="hit frequency % in",
                                       indent=False, layout=widgets.Layout(width="170px"))
        self.hit_lo = widgets.FloatText(value=round(hit - 1, 2), layout=widgets.Layout(width="90px"))
        self.hit_hi = widgets.FloatText(value=round(hit + 1, 2), layout=widgets.Layout(width="90px"))
        # the volatility index at 90 % (z SD, z the normal quantile), as the CLI's
        vi = self.original.volatility_index(0.90)
        self.vi_on = widgets.Checkbox(value=False, description="volatility index 90% in",
                                      indent=False, layout=widgets.Layout(width="170px"))
        self.vi_lo = widgets.FloatText(value=round(vi * 0.9, 2),
                                       layout=widgets.Layout(width="90px"))
        self.vi_hi = widgets.FloatText(value=round(vi * 1.1, 2),
                                       layout=widgets.Layout(width="90px"))
        self.feature_on = widgets.Checkbox(value=False, description="feature 1 in N, N in",
                                           indent=False, layout=widgets.Layout(width="170px"))
        self.feature_lo = widgets.FloatText(value=100.0, layout=widgets.Layout(width="90px"))
        self.feature_hi = widgets.FloatText(value=200.0, layout=widgets.Layout(width="90px"))
        top = self.original.top_award
        top_n = round(top.one_in) if top is not None and math.isfinite(top.one_in) else 0
        self.max_win_on = widgets.Checkbox(value=False, description="max win 1 in N, N in",
                                           indent=False, layout=widgets.Layout(width="170px"))
        self.max_win_lo = widgets.FloatText(value=float(max(1, top_n // 2)),
                                            layout=widgets.Layout(width="90px"))
        self.max_win_hi = widgets.FloatText(value=float(max(2, top_n * 2)),
                                            layout=widgets.Layout(width="90px"))
        self.gli11 = widgets.Checkbox(value=True, indent=False,
                                      description="GLI-11: every award at least 1 in 100,000,000")
        self.spacing = widgets.Text(value="", placeholder="e.g. SC=3, BONUS=3",
                                    description="spacing SYMBOL=D", style=style, layout=wide)
        self.stack = widgets.Text(value="", placeholder="e.g. W=2",
                                  description="stacks SYMBOL=K", style=style, layout=wide)
        # the strip-order rule (slotmath.tune.layout: every symbol without a rule of its own
        # this many stops from its next copy; 1: none), for cascades' refills
        self.no_repeat = widgets.BoundedIntText(value=1, min=1, max=50,
                                                description="strip order: no repeat within",
                                                style=style, layout=wide)
        moves = [("symbol counts", "counts")]
        if any(r.weights is not None for r in game.reel_sets[reel_set].reels):
            moves.append(("stop weights", "weights"))
        for label, kind in (("wheel weights", "wheel"), ("value weights", "values")):
            try:
                prize_weights(game, kind)
            except ValueError:  # no wheel / no hold & win, or a law the solver refuses
                continue
            moves.append((label, kind))
        self.weight_scale = widgets.BoundedIntText(
            value=1, min=1, max=1000, description="weight scale (wheel, values)",
            style=style, layout=wide)
        self.moves = widgets.ToggleButtons(options=moves, value="counts",
                                           description="move", style={"button_width": "110px"})
        self.time_limit = widgets.IntSlider(value=30, min=5, max=300, step=5,
                                            description="time limit s", style=style,
                                            layout=wide)
        self.tune_button = widgets.Button(description="Tune", icon="sliders")
        self.tune_button.on_click(lambda _: self.run())
        self.progress = widgets.HTML()
        self.par = widgets.HTML()
        self.changes = widgets.HTML()
        stem = Path(game.source).stem if game.source else "game"
        self.path = widgets.Text(value=f"{stem}_tuned.toml", description="write to",
                                 style={"description_width": "70px"},
                                 layout=widgets.Layout(width="330px"))
        self.apply_button = widgets.Button(description="Apply", icon="save", disabled=True)
        self.apply_button.on_click(lambda _: self.apply())
        self.applied = widgets.HTML()
        self.heatmap = FigureView()
        # an empty image is a broken image in the page: the heat map joins the panel when drawn
        self.heatmap_box = widgets.VBox([])
        #: the exact sensitivities, computed on request (:meth:`show_sensitivities`): on a
        #: game with a round feature they take an analysis per window (Golden Link ~20 s)
        self.sensitivities = None
        self.sensitivity_button = widgets.Button(description="Sensitivity heat map",
                                                 icon="th")
        self.sensitivity_button.on_click(lambda _: self.show_sensitivities())
        controls = widgets.VBox([
            self.target, self.tolerance,
            widgets.HBox([self.hit_on, self.hit_lo, self.hit_hi]),
            widgets.HBox([self.vi_on, self.vi_lo, self.vi_hi]),
            widgets.HBox([self.feature_on, self.feature_lo, self.feature_hi]),
            widgets.HBox([self.max_win_on, self.max_win_lo, self.max_win_hi]),
            self.gli11,
            widgets.HTML("Layout rules (a scatter or bonus symbol is kept a window height "
                         "apart unless given here; SYMBOL=1 turns that off):"),
            self.spacing, self.stack, self.no_repeat, self.moves, self.weight_scale,
            self.time_limit, self.tune_button])
        if self.searched:  # the RTP, GLI-11 and the time the search may take
            self.time_limit.value = 120 if self.proxied else 300
            method = self.method = default_method(game, reel_set)
            how = ("by the proxy (one-stop swaps ranked by the window tables of the game "
                   "without its modifiers and round features, each round confirmed by the "
                   "game's exact RTP, <code>slotmath.rtp_only</code>: about a minute on Gus's "
                   "Gold Christmas; with a hit frequency range, by its whole analysis: "
                   "seconds a round). The heat map gives the RTP's exact changes (its hit "
                   "frequency and SD would take the modifiers' tables: a full analysis per "
                   "entry)" if self.proxied and method == "proxy" else
                   f"by <code>{method}</code> (each step confirmed "
                   f"by the game's own analysis: seconds to minutes a step; docs/tuning.md, "
                   f"\"Games the window tables do not cover\")" + (
                       ". The heat map gives the RTP's exact changes" if self.proxied else
                       ". No heat map: its entries would be one analysis each"))
            # layout rules where the path takes them (not crn's swaps of k stops)
            rules = ([] if method == "crn" else
                     [widgets.HTML("Layout rules (the search lays out every strip it tries; "
                                   "the proxy's swaps start from the laid-out strips and keep "
                                   "the rules):"), self.spacing, self.stack, self.no_repeat])
            # a feature range where the path steers one: the proxy's count-started feature
            # (free spins, hold & win), crn's free spins
            self.feature_offered = _feature_offered(game, method)
            feature = ([widgets.HBox([self.feature_on, self.feature_lo, self.feature_hi])]
                       if self.feature_offered else [])
            controls = widgets.VBox([
                widgets.HTML(f"<p><i>The window tables do not cover this game "
                             f"({html.escape(self.why)}): it is tuned {how}; the RTP target, "
                             f"hit frequency, volatility"
                             f"{', feature' if feature else ''} ranges and GLI-11.</i></p>"),
                self.target, self.tolerance,
                widgets.HBox([self.hit_on, self.hit_lo, self.hit_hi]),
                widgets.HBox([self.vi_on, self.vi_lo, self.vi_hi]), *feature, self.gli11,
                *rules, self.time_limit, self.tune_button])
        heat = ([] if self.searched and not self.proxied else  # (its entries: analyses)
                [widgets.HTML("<b>Exact change of the RTP per symbol added</b> "
                              "(percentage points)"), self.sensitivity_button, self.heatmap_box])
        super().__init__([title, controls, self.progress, self.par, self.changes,
                          widgets.HBox([self.path, self.apply_button]), self.applied, *heat])
        self.add_class("slotmath-tuning-panel")  # found by the browser suite
        self.par.value = self._par_html(self.original, self.original)

    def show_sensitivities(self) -> None:
        """Compute the exact sensitivities of the loaded game (once) and draw their heat map."""
        if self.refusal is not None or (self.searched and not self.proxied):
            return
        if self.sensitivities is None:
            self.sensitivity_button.description = "computing..."
            self.sensitivities = sensitivities(self.game, self.reel_set, self.level)
            self.sensitivity_button.layout.display = "none"
        if self.draw and self.figure is None:
            fig = Figure(figsize=(7, 3.2), layout="constrained")
            plot_sensitivity_heatmap(self.sensitivities, ax=fig.subplots())
            self.figure = fig
            self.heatmap.show(fig)
            self.heatmap_box.children = (self.heatmap,)

    def _par_html(self, original: Analysis, tuned: Analysis) -> str:
        frame = par_side_by_side(original, tuned)
        return frame.to_html(index=False, escape=True, classes="slotmath-tuning-par")

    def run(self) -> None:
        """Run the solver on the targets the controls give; show each step as it is taken,
        then the tuned game's PAR beside the original's. Bad targets are said in one line."""
        if self.refusal is not None:
            return
        lines: list[str] = []

        def heard(step: Step) -> None:
            lines.append(html.escape(step_line(step)))
            self.progress.value = "<pre>" + "\n".join(lines[-8:]) + "</pre>"

        try:
            kwargs = {}
            if self.hit_on.value:
                kwargs["hit_frequency"] = (Fraction(str(self.hit_lo.value)) / 100,
                                           Fraction(str(self.hit_hi.value)) / 100)
            if self.vi_on.value:  # (at 90 %, as the CLI's)
                kwargs["sd"] = sd_range((self.vi_lo.value, self.vi_hi.value))
            if self.feature_on.value:
                kwargs["feature_one_in"] = (self.feature_lo.value, self.feature_hi.value)
            if self.max_win_on.value:
                kwargs["max_win_one_in"] = (self.max_win_lo.value, self.max_win_hi.value)
            if not self.gli11.value:
                kwargs["gli11"] = None
            layout = Layout(parse_rules(self.spacing.value, "spacing"),
                            parse_rules(self.stack.value, "stacks"),
                            no_repeat=int(self.no_repeat.value))
            if self.searched:  # the path's own moves; the rules only when some is typed
                kwargs = {k: v for k, v in kwargs.items() if k in ("hit_frequency", "sd", "gli11")
                          or (k == "feature_one_in" and self.feature_offered)}
                kwargs["method"] = self.method
                if layout == Layout():
                    layout = None
            prizes = self.moves.value in ("wheel", "values")
            if prizes:
                kwargs["weight_scale"] = int(self.weight_scale.value)
            self.progress.value = "<i>tuning...</i>"
            result = tune(self.game, Fraction(str(self.target.value)) / 100, self.reel_set,
                          tolerance=Fraction(str(self.tolerance.value)) / 100,
                          time_limit=float(self.time_limit.value), level=self.level,
                          layout=layout, moves=self.moves.value, progress=heard, **kwargs)
        except ValueError as exc:
            self.progress.value = (f"<span style='color:#b00'>cannot tune: "
                                   f"{html.escape(str(exc))}</span>")
            return
        self.result = result
        self.result_moves = self.moves.value  # what Apply writes: strips or weights
        self.tuned = analyze(result.game, self.level)
        met = "every target met" if result.met else "not every target met: " + ", ".join(
            f"{k} misses by {float(v):.6g}" for k, v in result.misses.items() if v)
        odds = (f" Max win {float(result.figures.top_award):,g}x bet "
                f"{award_one_in(result.figures.top_probability)}.")
        if result.awards is not None and result.awards.rarest is not None:
            subject, rate = result.awards.rarest
            odds += f" Rarest award: {subject}, {award_one_in(rate)}."
        self.progress.value = (
            f"<pre>{chr(10).join(lines[-8:])}</pre><p>{len(result.steps)} steps in "
            f"{result.seconds:.1f} s; RTP {_percent(result.start.rtp)} &rarr; "
            f"{_percent(self.tuned.rtp)}; {html.escape(met)}.{html.escape(odds)}</p>" + (
                "" if prizes else
                f"<p>{html.escape(layout_line(result.game, self.reel_set, layout or Layout()))}</p>"))
        self.par.value = self._par_html(self.original, self.tuned)
        if prizes:
            changes = weight_changes(self.game, result.game, self.moves.value)
            what = "wheel" if self.moves.value == "wheel" else "value"
            self.changes.value = (f"<p>No {what} weight changed.</p>" if changes.empty else
                                  f"<b>{what.capitalize()} weight changes</b>"
                                  + changes.to_html(index=False))
        else:
            changes = strip_changes(self.game, result.game, self.reel_set)
            self.changes.value = ("<p>No strip changed.</p>" if changes.empty else
                                  "<b>Strip changes</b>" + changes.to_html(index=False))
        self.apply_button.disabled = self.game.source is None

    def apply(self, path: str | Path | None = None) -> Path | None:
        """Write the tuned game file (the original file with the tuned reel set, or with the
        tuned wheel or value weights) to ``path``
        (default: the panel's path box); say where, or why not."""
        if self.result is None or self.game.source is None:
            self.applied.value = "<i>tune first (and the game must come from a file)</i>"
            return None
        path = Path(path if path is not None else self.path.value)
        header = (f"Tuned by slotmath's tuning panel from {Path(self.game.source).name}: "
                  f"RTP {_percent(self.result.start.rtp)} -> {_percent(self.tuned.rtp)} "
                  f"(exact {self.tuned.rtp})")
        if self.result_moves in ("wheel", "values"):
            text = tuned_weights_text(self.game.source, self.result.game, self.result_moves,
                                      header)
        else:
            text = tuned_text(self.game.source, self.result.game, self.reel_set, header)
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            self.applied.value = (f"<span style='color:#b00'>cannot write {html.escape(str(path))}"
                                  f": {html.escape(exc.strerror or str(exc))}</span>")
            return None
        self.written = path
        self.applied.value = f"<p>Wrote <code>{html.escape(str(path))}</code>.</p>"
        return path


def _feature_offered(game: Game, method: str) -> bool:
    """Whether ``method`` steers a feature's "1 in N" on ``game``: the proxy where one free
    spins or hold & win feature starts by a count of its symbol
    (:func:`slotmath.tune.proxy.trigger_of`), common random numbers where the game has free
    spins; not the search."""
    if method == "crn":
        return game.free_spins is not None
    if method != "proxy" or game.grid is not None:
        return False
    from slotmath.tune.proxy import trigger_of

    try:
        trigger_of(game)
    except ValueError:
        return False
    return True
