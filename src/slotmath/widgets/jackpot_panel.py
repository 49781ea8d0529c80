"""A jackpot what-if panel: one row of controls per progressive jackpot, the analysis redrawn live.

The computation is kept apart from the widgets: :func:`with_jackpot_controls` turns one row's
values into a game (through :func:`slotmath.model.edit.with_jackpot`),
:func:`starting_parameters` gives each hit law's starting values and
:func:`jackpot_summary_html` the figures shown. :class:`JackpotPanel` only wires them to
ipywidgets, :func:`slotmath.analyze` and the charts of :mod:`slotmath.plot`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure

from slotmath.analysis import Analysis, analyze
from slotmath.errors import RuleError
from slotmath.model import hit_laws
from slotmath.model.edit import with_jackpot
from slotmath.model.game import Game, JackpotSpec
from slotmath.plot import (
    plot_hit_value,
    plot_rtp_breakdown,
    plot_rtp_by_level,
    plot_time_between_hits,
    rtp_by_level_data,
)
from slotmath.widgets.figure_view import FigureView, StaticFallback

__all__ = [
    "LAW_PARAMETERS",
    "LAW_SCALE",
    "JackpotPanel",
    "jackpot_summary_html",
    "refusal_message",
    "starting_parameters",
    "with_jackpot_controls",
]

# The order the panel offers the laws in (any other law of the registry comes after them).
_FIRST_LAWS = ("linear", "saturating", "constant")
_PANEL_LAWS = tuple(sorted(hit_laws.LAWS, key=lambda name: (
    _FIRST_LAWS.index(name) if name in _FIRST_LAWS else len(_FIRST_LAWS))))

#: Each hit law's parameters, in the order the panel offers the laws (from
#: :data:`slotmath.model.hit_laws.LAWS`).
LAW_PARAMETERS: dict[str, tuple[str, ...]] = {
    name: hit_laws.LAWS[name].parameters for name in _PANEL_LAWS}

#: The parameter of each law that a jackpot's weight multiplies: the one the chance per wheel
#: spin is proportional to, at every pool (the one a bet level's factor multiplies).
LAW_SCALE: dict[str, str] = {
    name: hit_laws.LAWS[name].scaled_parameter for name in _PANEL_LAWS}


# -- the computation: control values -> game, figures -> HTML --------------------------------

def starting_parameters(spec: JackpotSpec, pool: Any) -> dict[str, dict[str, float]]:
    """Starting values of every hit law's parameters for one jackpot.

    The jackpot's own law starts from the game file's parameters. Each other law starts from
    the law giving the mean chance per wheel spin at the mean pool (``through`` in
    :mod:`slotmath.model.hit_laws`): *saturating* with ``half`` = the mean pool and ``p_max`` =
    twice the mean chance, *constant* with the mean chance, *linear* with ``rate`` = mean
    chance / mean pool.

    Parameters
    ----------
    spec : JackpotSpec
        The jackpot as in the game file.
    pool : PoolAnalysis
        Its figures at a reference bet level (``analyze(game, level).features["jackpots"].pools[name]``);
        only ``expected_hit_probability_per_spin`` and ``mean_pool`` are read.

    Returns
    -------
    dict law -> (dict parameter -> float)
        One entry per law of :data:`LAW_PARAMETERS`, before any level factor.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from types import SimpleNamespace
    >>> spec = JackpotSpec("MINOR", Fraction(50), Fraction(3, 125), Fraction(1, 10), "linear",
    ...                    {"rate": 1e-4})
    >>> pool = SimpleNamespace(expected_hit_probability_per_spin=0.02, mean_pool=160.0)
    >>> starting_parameters(spec, pool)
    {'linear': {'rate': 0.0001}, 'saturating': {'p_max': 0.04, 'half': 160.0}, 'constant': {'probability': 0.02}}
    """
    p = float(pool.expected_hit_probability_per_spin)
    mean_pool = float(pool.mean_pool)
    out = {name: hit_laws.LAWS[name].through(p, mean_pool) for name in LAW_PARAMETERS}
    out[spec.law] = dict(spec.parameters)
    return out


def with_jackpot_controls(game: Game, name: str, *, weight: float = 1.0,
                          contribution_percent: float | None = None, seed: float | None = None,
                          law: str | None = None,
                          parameters: Mapping[str, float] | None = None) -> Game:
    """A copy of ``game`` with jackpot ``name`` set as its row of the panel shows it.

    The pure part of :class:`JackpotPanel`: the same edit as
    :func:`slotmath.model.edit.with_jackpot`, in the panel's units.

    Parameters
    ----------
    game : Game
    name : str
        The jackpot.
    weight : float
        Multiplier on the hit law: it scales the law's :data:`LAW_SCALE` parameter (``rate``,
        ``p_max`` or ``probability``), so the chance per wheel spin at every pool.
    contribution_percent : float, optional
        Share of each paid bet contributed, in percent (rounded to 6 decimals, so that a
        slider's 2.4000000000000004 gives the exact 3/125 of a file's 2.4%). Default: the
        game's.
    seed : float, optional
        Restart value in currency. Default: the game's.
    law : str, optional
        One of :data:`LAW_PARAMETERS`. Default: the game's.
    parameters : mapping, optional
        The law's parameters before ``weight``. Default: the game's, when ``law`` is the
        game's law.

    Returns
    -------
    Game

    Raises
    ------
    ValueError
        As :func:`~slotmath.model.edit.with_jackpot`: a negative seed, contributions adding up
        to the whole bet, parameters missing or not those of ``law``.

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.load_game("data/games/gold_money_frog.toml")
    >>> major = game.jackpots[1]
    >>> major.law, dict(major.parameters), major.contribution
    ('linear', {'rate': 8.1346e-07}, Fraction(2, 125))
    >>> edited = with_jackpot_controls(game, "MAJOR", weight=2.0, contribution_percent=2.0)
    >>> dict(edited.jackpots[1].parameters), edited.jackpots[1].contribution
    ({'rate': 1.62692e-06}, Fraction(1, 50))
    >>> with_jackpot_controls(game, "MAJOR", law="saturating")
    Traceback (most recent call last):
    ...
    ValueError: give the saturating law's parameters (p_max, half) for jackpot 'MAJOR'
    """
    spec = game.jackpot(name)
    law = spec.law if law is None else law
    try:
        definition = hit_laws.law(law)
    except RuleError as err:
        raise err.about(f"jackpot {name!r}") from None
    if parameters is None:
        if law != spec.law:
            raise ValueError(f"give the {law} law's parameters "
                             f"({', '.join(definition.parameters)}) for jackpot {name!r}")
        parameters = spec.parameters
    parameters = {p: float(v) for p, v in parameters.items()}
    scaled = definition.scaled_parameter
    if scaled in parameters:  # else with_jackpot says which parameters the law takes
        parameters[scaled] *= weight
    changes: dict[str, Any] = {"law": law, "parameters": parameters}
    if contribution_percent is not None:
        changes["contribution"] = Fraction(str(round(contribution_percent, 6))) / 100
    if seed is not None:
        changes["seed"] = seed
    return with_jackpot(game, name, **changes)


def _delta(now: float, then: float | None, fmt: str, scale: float = 1.0, unit: str = "") -> str:
    """`` (+0.0123 pts)``: the change against the baseline, or nothing when there is none."""
    if then is None:
        return ""
    change = (now - then) * scale
    if abs(change) < 0.5 * 10 ** -int(fmt.rsplit(".", 1)[1][0]):  # rounds to zero: unchanged
        return " <span style='color:#777'>(=)</span>"
    return f" <span style='color:#555'>({change:+{fmt}}{unit})</span>"


def jackpot_summary_html(analysis: Analysis, baseline: Analysis | None = None) -> str:
    """The RTP, its parts and each jackpot's figures as a small HTML table (rounded for
    display), with each figure's change against ``baseline`` when given.

    Percentages are of the total bet; a change in RTP is in percentage points ("pts").

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.load_game("data/games/gold_money_frog.toml")
    >>> a = slotmath.analyze(game, 4)
    >>> "<b>92.9600%</b>" in jackpot_summary_html(a)
    True
    >>> "(+0.6500 pts)" in jackpot_summary_html(a, baseline=slotmath.analyze(game, 1))
    True
    """
    currency = html.escape(analysis.game.currency)
    base = baseline
    base_parts = dict(base.components) if base is not None else {}
    base_pools = (base.features["jackpots"].pools
                  if base is not None and "jackpots" in base.features else {})
    rtp_change = _delta(analysis.rtp_float, base and base.rtp_float, ".4f", 100, " pts")
    rows = [("RTP", (f"<b>{analysis.rtp_float:.4%}</b>{rtp_change} "
                     f"(error &le; {analysis.rtp_error:.0e})"))]
    rows += [(f"&nbsp;&nbsp;{html.escape(name)}", f"{float(value):.4%}" + _delta(
                 float(value), float(base_parts[name]) if name in base_parts else None,
                 ".4f", 100, " pts"))
             for name, value in analysis.components.items()]
    if "jackpots" in analysis.features:
        for name, pool in analysis.features["jackpots"].pools.items():
            was = base_pools.get(name)
            rows.append((html.escape(name), (
                f"1 in {pool.mean_rounds_between_hits:,.0f} rounds"
                f"{_delta(pool.mean_rounds_between_hits, was and was.mean_rounds_between_hits, ',.0f')}, "
                f"mean value at hit {pool.hit_value_mean:,.2f} {currency}"
                f"{_delta(pool.hit_value_mean, was and was.hit_value_mean, ',.2f')}, "
                f"RTP {pool.rtp_contribution:.4%}"
                f"{_delta(pool.rtp_contribution, was and was.rtp_contribution, '.4f', 100, ' pts')}, "
                f"p per wheel spin {pool.expected_hit_probability_per_spin:.3e}")))
    body = "".join(f"<tr><td style='padding-right:1em'>{k}</td><td>{v}</td></tr>"
                   for k, v in rows)
    head = ""
    if baseline is not None:
        head = (f"<tr><td colspan='2' style='color:#555'>in brackets: the change against the "
                f"game file at bet level {baseline.level} (RTPs in percentage points of the "
                f"bet)</td></tr>")
    return f"<table class='slotmath-jackpots'>{head}{body}</table>"


def refusal_message(error: Exception, changed: str, level: int) -> str:
    """One line saying which edit was not applied and what to change instead.

    ``changed`` names the control the user moved (``"GRAND weight"``, ``"bet level"``).

    Examples
    --------
    >>> from slotmath.errors import RuleError
    >>> refusal_message(RuleError(None, "saturating law: p_max x level factor = 1.2 > 1; "
    ...                           "lower p_max or the level factor"), "GRAND weight", 2)
    'GRAND weight not applied: at bet level 2 the chance per wheel spin would pass 100%; lower the weight or p_max.'
    """
    text = str(error)
    said = re.search(r"at bet level (\d+)", text)
    level = int(said.group(1)) if said else level
    law_parameter = ""
    if " x level factor" in text:
        law_parameter = text.split(" x level factor")[0].rsplit(" ", 1)[-1]
    if " x level factor" in text:
        why = (f"at bet level {level} the chance per wheel spin would pass 100%; lower the "
               f"weight or {law_parameter}")
    elif "probabilities add up to" in text:
        why = (f"at bet level {level} the jackpots' chances per wheel spin would add up to "
               "more than 100%; lower a weight or a law's chance")
    elif "survives more than" in text:
        pool = text.split(":", 1)[0]
        why = (f"at bet level {level} {pool} would almost never be hit; raise its weight or "
               "its law's chance, or choose another law")
    elif "contributions add up" in text:
        why = "the contributions would take the whole bet; lower a contribution"
    elif isinstance(error, RuleError) and error.field:
        why = f"{error.field.rsplit('.', 1)[-1]} {error.problem_with()}"
    else:
        why = text.rsplit(": ", 1)[-1]
    return f"{changed} not applied: {why}."


def _error_html(text: str, detail: str = "") -> str:
    """A one-line refusal in red; the error as raised, folded away, under it."""
    more = (f"<details><summary style='color:#777'>details</summary>"
            f"<span style='color:#777'>{html.escape(detail)}</span></details>" if detail else "")
    return f"<div class='slotmath-refusal'><span style='color:#b00'>{html.escape(text)}</span>{more}</div>"


# -- the widgets ---------------------------------------------------------------------------

#: Layout of a jackpot's row. Its controls are wider together than a notebook, so the row wraps
#: onto a second line instead of shrinking its children: with the flexbox default (shrink to
#: fit) every slider's track collapsed to a few dozen pixels, and the saturating law's second
#: box (``half``) was cut off.
ROW_LAYOUT = {"flex_flow": "row wrap", "align_items": "center"}
#: every control keeps its width (never shrunk by its row)
KEEP_WIDTH = "0 0 auto"
#: widths in px: a slider, the label before its track, a number box
SLIDER_WIDTH, LABEL_WIDTH, BOX_WIDTH = 330, 80, 190

def _fixed(width: int) -> widgets.Layout:
    return widgets.Layout(width=f"{width}px", min_width=f"{width}px", flex=KEEP_WIDTH)


def _label() -> dict:
    return {"description_width": f"{LABEL_WIDTH}px"}


class JackpotPanel(StaticFallback, widgets.VBox):
    """Jackpot what-ifs: one row of controls per progressive jackpot, the analysis and its
    charts redrawn on each change.

    Each row has a **weight** (log slider, 1/8 to 8: a multiplier on the hit law, see
    :func:`with_jackpot_controls`), the **contribution** in % of each paid bet, the **reseed**
    amount in currency, the hit **law** and that law's parameters (before the weight and the
    level factor; the other laws' boxes are hidden). Below the rows: the **bet level** of the
    analysis and an option to compute the **RTP by bet level** as well (one analysis per
    level). Sliders apply when released and number boxes on Enter
    (``continuous_update=False``). Reserve fractions and level factors stay as in the game.

    An edit the model refuses (hit chances adding up to more than 1, a pool that would
    practically never be hit, ...) is reported in red in ``figures``, in one line saying what
    to change (:func:`refusal_message`; the error as raised is folded under it); every control
    goes back to the last good state, so the controls always show what the figures and charts
    show, and nothing is raised.

    The figures show, in brackets, each one's change against the game file at the same bet
    level (``baseline``).

    Parameters
    ----------
    game : Game
        A game with progressive jackpots, as loaded.
    reference : Analysis, optional
        The analysis whose pools give the laws' starting parameters
        (:func:`starting_parameters`); default ``analyze(game, lowest bet level)``.
    level : int
        Bet level of the analysis shown first.
    analysis : Analysis, optional
        ``analyze(game, level)`` if already computed (saves one analysis).
    published : mapping level -> RTP, optional
        Published RTPs, marked on the RTP-by-level chart.
    draw : bool
        Draw the charts (False: figures only, e.g. for tests).

    Attributes
    ----------
    original : Game
        The game as loaded; the controls are always applied to it.
    controls : dict name -> dict
        Each jackpot's widgets: ``"weight"``, ``"contribution"`` (in %), ``"seed"``, ``"law"``
        and ``"parameters"`` (``[law][parameter]``).
    level : ipywidgets.ToggleButtons
        The bet level of the analysis.
    by_level : ipywidgets.Checkbox
        Whether to compute ``levels``.
    game : Game
        The game with the current control values (the last one analysed without error).
    analysis : Analysis
        :func:`slotmath.analyze` of ``game`` at the current level.
    levels : pandas.DataFrame or None
        :func:`slotmath.plot.rtp_by_level_data` of ``game`` when ``by_level`` is ticked.
    figures : ipywidgets.HTML
        The figures shown (:func:`jackpot_summary_html`), after the refusal of the last edit
        if it was refused.
    baseline : Analysis or None
        The game file's analysis at the current bet level (None if the file's game itself
        cannot be analysed there).
    charts : FigureView
        RTP breakdown (and RTP by level), each pool's value at a hit and rounds between hits.
    figure : matplotlib.figure.Figure or None
        The figure last shown in ``charts`` (None with ``draw=False``).

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.load_game("data/games/gold_money_frog.toml")
    >>> a4 = slotmath.analyze(game, 4)
    >>> panel = JackpotPanel(game, reference=a4, level=4, analysis=a4, draw=False)
    >>> panel.controls["MAJOR"]["weight"].value = 2.0   # the MAJOR's chance doubled
    >>> f"{panel.analysis.rtp:.4%}"
    '93.3850%'
    """

    def __init__(self, game: Game, *, reference: Analysis | None = None, level: int = 1,
                 analysis: Analysis | None = None,
                 published: Mapping[int, float] | None = None, draw: bool = True):
        if not game.jackpots:
            raise ValueError(f"{game.name} has no progressive jackpots")
        if analysis is not None and analysis.level != level:
            raise ValueError(f"analysis is at bet level {analysis.level}, not {level}")
        if reference is None:
            lowest = min(game.bet_levels)
            reference = (analysis if analysis is not None and analysis.level == lowest
                         else analyze(game, lowest))
        self.original = game
        self.published = dict(published) if published else None
        self.draw = draw
        self.figure: Figure | None = None
        self._muted = False
        self._baselines: dict[int, Analysis | None] = {reference.level: reference}
        if analysis is not None:
            self._baselines[analysis.level] = analysis
        pools = reference.features["jackpots"].pools
        self._starts = {spec.name: starting_parameters(spec, pools[spec.name])
                        for spec in game.jackpots}
        self.controls: dict[str, dict[str, Any]] = {}
        rows = [self._row(spec, game.currency) for spec in game.jackpots]
        self.level = widgets.ToggleButtons(options=list(game.bet_levels), value=level,
                                           description="bet level")
        self.by_level = widgets.Checkbox(
            value=False, description=f"RTP by bet level ({len(game.bet_levels)} analyses)")
        self.reset_button = widgets.Button(description="Reset", icon="undo")
        self.level.observe(self._changed, names="value")
        self.by_level.observe(self._changed, names="value")
        self.reset_button.on_click(lambda _: self.reset())
        self.figures = widgets.HTML()
        self.charts = FigureView()
        super().__init__([*rows, widgets.HBox([self.level, self.by_level, self.reset_button]),
                          self.figures, self.charts])
        self.add_class("slotmath-jackpot-panel")  # found by the browser suite
        self._show_parameters()
        self.game, self.levels = game, None
        self.analysis = analysis if analysis is not None else analyze(game, level)
        self._baselines.setdefault(level, self.analysis)
        self._good = self._values()
        self._refresh()

    def _row(self, spec: JackpotSpec, currency: str) -> widgets.HBox:
        """The controls of one jackpot, registered in ``controls`` and observed."""
        starts = self._starts[spec.name]
        c = {
            "weight": widgets.FloatLogSlider(
                value=1.0, base=2, min=-3, max=3, step=0.25, description="weight ×",
                continuous_update=False, layout=_fixed(SLIDER_WIDTH), style=_label()),
            "contribution": widgets.FloatSlider(
                value=float(spec.contribution) * 100, min=0, max=10, step=0.1,
                readout_format=".1f", description="contrib. %", continuous_update=False,
                layout=_fixed(SLIDER_WIDTH), style=_label()),
            "seed": widgets.BoundedFloatText(
                value=float(spec.seed), min=0, max=1e7, description=f"reseed {currency}",
                continuous_update=False, layout=_fixed(BOX_WIDTH), style=_label()),
            "law": widgets.Dropdown(options=list(LAW_PARAMETERS), value=spec.law,
                                    description="law", layout=_fixed(BOX_WIDTH),
                                    style=_label()),
            "parameters": {law: {p: widgets.FloatText(
                value=starts[law][p], description=p, continuous_update=False,
                layout=_fixed(BOX_WIDTH), style=_label()) for p in names}
                for law, names in LAW_PARAMETERS.items()},
        }
        self.controls[spec.name] = c
        parameter_boxes = [w for fields in c["parameters"].values() for w in fields.values()]
        for w in (c["weight"], c["contribution"], c["seed"], c["law"], *parameter_boxes):
            w.observe(self._changed, names="value")
        label = widgets.HTML(f"<b>{html.escape(spec.name)}</b>", layout=_fixed(60))
        return widgets.HBox([label, c["weight"], c["contribution"], c["seed"], c["law"],
                             *parameter_boxes], layout=widgets.Layout(**ROW_LAYOUT))

    def _show_parameters(self) -> None:
        for c in self.controls.values():
            for law, fields in c["parameters"].items():
                for w in fields.values():
                    w.layout.display = None if law == c["law"].value else "none"

    def _changed(self, change) -> None:
        if self._muted:
            return
        self._show_parameters()
        self.update()

    # -- the state the controls show ----------------------------------------------------------
    def _widgets(self) -> dict[tuple, widgets.ValueWidget]:
        out: dict[tuple, Any] = {("level",): self.level, ("by_level",): self.by_level}
        for name, c in self.controls.items():
            for key in ("weight", "contribution", "seed", "law"):
                out[(name, key)] = c[key]
            for law, fields in c["parameters"].items():
                for p, w in fields.items():
                    out[(name, "parameters", law, p)] = w
        return out

    def _values(self) -> dict[tuple, Any]:
        return {path: w.value for path, w in self._widgets().items()}

    def _restore(self, values: dict[tuple, Any]) -> None:
        """Every control back to ``values``, without recomputing."""
        self._muted = True
        try:
            for path, w in self._widgets().items():
                if w.value != values[path]:
                    w.value = values[path]
        finally:
            self._muted = False
        self._show_parameters()

    def _moved(self) -> str:
        """The control(s) that differ from the last good state, as the refusal names them."""
        names = []
        for path, value in self._values().items():
            if value == self._good[path]:
                continue
            if path == ("level",):
                names.append(f"bet level {value}")
            elif path == ("by_level",):
                names.append("RTP by bet level")
            elif path[1] == "parameters":
                names.append(f"{path[0]} {path[3]} = {value:g}")
            elif path[1] == "law":
                names.append(f"{path[0]} {value} law")
            elif path[1] == "weight":
                names.append(f"{path[0]} weight ×{value:g}")
            elif path[1] == "contribution":
                names.append(f"{path[0]} contribution {value:g}%")
            else:
                names.append(f"{path[0]} reseed {value:g}")
        return ", ".join(names) or "this edit"

    @property
    def baseline(self) -> Analysis | None:
        level = self.analysis.level
        if level not in self._baselines:
            try:
                base = analyze(self.original, level)
                _ = base.rtp
            except Exception:  # noqa: BLE001 - the file's game may not run at every level
                base = None
            self._baselines[level] = base
        return self._baselines[level]

    # -- editing ----------------------------------------------------------------------------
    def edited_game(self) -> Game:
        """The loaded game with every control's value applied (:func:`with_jackpot_controls`)."""
        game = self.original
        for name, c in self.controls.items():
            law = c["law"].value
            game = with_jackpot_controls(
                game, name, weight=c["weight"].value,
                contribution_percent=c["contribution"].value, seed=c["seed"].value, law=law,
                parameters={p: w.value for p, w in c["parameters"][law].items()})
        return game

    def update(self) -> None:
        """Re-analyse and redraw. An edit that fails is shown in ``figures`` and the last good
        state kept."""
        self.figures.value = "<i>computing…</i>"
        try:
            game = self.edited_game()
            analysis = analyze(game, self.level.value)
            _ = analysis.rtp  # compute now, inside the try
        except Exception as exc:  # noqa: BLE001 - a UI boundary: show it, keep the panel alive
            line = refusal_message(exc, self._moved(), self.level.value)
            self._restore(self._good)  # the controls show what the figures show
            self._refresh(line, str(exc), redraw=False)
            return
        levels, problem, detail = None, "", ""
        if self.by_level.value:
            try:
                levels = rtp_by_level_data(game, analyses={analysis.level: analysis})
            except Exception as exc:  # noqa: BLE001 - another level may fail where this one did not
                problem = "RTP by bet level: " + refusal_message(
                    exc, "the chart of every level", analysis.level)
                detail = str(exc)
                self._muted = True
                try:
                    self.by_level.value = False  # not drawn, so not ticked
                finally:
                    self._muted = False
        self.game, self.analysis, self.levels = game, analysis, levels
        self._good = self._values()
        self._refresh(problem, detail)

    def reset(self) -> None:
        """Every control back to its starting value, so the game file's jackpots (one
        recomputation, at the current bet level)."""
        self._muted = True
        try:
            for spec in self.original.jackpots:
                c = self.controls[spec.name]
                c["weight"].value = 1.0
                c["contribution"].value = float(spec.contribution) * 100
                c["seed"].value = float(spec.seed)
                c["law"].value = spec.law
                for law, fields in c["parameters"].items():
                    for p, w in fields.items():
                        w.value = self._starts[spec.name][law][p]
        finally:
            self._muted = False
        self._show_parameters()
        self.update()

    # -- display ----------------------------------------------------------------------------
    def _refresh(self, problem: str = "", detail: str = "", redraw: bool = True) -> None:
        """The figures, then the charts; the figures' changes against the game file come
        last when the file's analysis at this bet level is not yet known (a level shown
        for the first time): the chart does not wait for a second analysis."""
        a = self.analysis
        known = a.level in self._baselines
        refusal = _error_html(problem, detail) if problem else ""
        self.figures.value = refusal + jackpot_summary_html(a, self.baseline if known else None)
        if self.draw and redraw:
            self._draw()
        if not known:
            self.figures.value = refusal + jackpot_summary_html(a, self.baseline)

    def _draw(self) -> None:
        a = self.analysis
        pools = list(a.features["jackpots"].pools)
        columns = max(len(pools), 2)
        fig = Figure(figsize=(16 * columns / 3, 11), layout="constrained")
        grid = fig.add_gridspec(3, columns)
        plot_rtp_breakdown(a, ax=fig.add_subplot(grid[0, :] if self.levels is None
                                                 else grid[0, :-1]))
        if self.levels is not None:
            plot_rtp_by_level(self.levels, ax=fig.add_subplot(grid[0, -1]),
                              published=self.published)
        for column, name in enumerate(pools):
            plot_hit_value(a, name, ax=fig.add_subplot(grid[1, column]))
            plot_time_between_hits(a, name, ax=fig.add_subplot(grid[2, column]))
        fig.suptitle(f"bet level {a.level}")
        self.figure = fig
        self.charts.show(fig, keep_layout=True)


def feature_panel(analysis, draw: bool = True) -> JackpotPanel:
    """The workbench's jackpot panel for ``analysis``' game and bet level."""
    return JackpotPanel(analysis.game, level=analysis.level, analysis=analysis, draw=draw)
