"""What the PAR reports hold, sheet by sheet: one home for the xlsx workbook and the HTML.

Each :class:`Sheet` is a titled list of tables (pandas DataFrames) and notes; the renderers
(:mod:`slotmath.report.workbook`, :mod:`slotmath.report.html`) only lay them out. A figure
table has the columns ``figure``, ``value`` (the decimal), ``exact`` (the exact fraction as
text "p/q", empty when the figure is numerical), ``error`` (absolute error bound of ``value``:
0 when exact, empty when no bound is known) and ``method``. Exact values are written as text so
that nothing rounds them on the way to the lab.

Sheets without content are left out: a game with no feature beyond its pays has no Features
sheet; every feature a game has is one section of it (its ``tables`` hook).

Examples
--------
>>> import slotmath
>>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
>>> [s.name for s in par_sheets(a)]
['Summary', 'Pay table', 'Reel strips', 'Win sizes', 'Confidence', 'Features']
>>> summary = par_sheets(a)[0].table("Headline figures")
>>> rtp = summary.set_index("figure").loc["RTP"]
>>> rtp["exact"], float(rtp["error"])
('411/448', 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pandas as pd

from slotmath.features.base import Kind, hook
from slotmath.report.figures import (
    EXACT,
    FFT_MASS,
    FIGURE_COLUMNS,
    ROUNDOFF,
    exact_text,
    figure_row,
    figure_table,
    is_exact,
    one_in,
)
from slotmath.report.pays import note as pay_note
from slotmath.report.tables import confidence_frame
from slotmath.stats.estimate import is_estimate, scaled
from slotmath.stats.par import normal_quantile

__all__ = ["FIGURE_COLUMNS", "Sheet", "figure_row", "par_sheets"]

@dataclass(frozen=True)
class Sheet:
    """One sheet of the report: ``tables`` is a tuple of (title, DataFrame)."""

    name: str
    tables: tuple[tuple[str, pd.DataFrame], ...]
    notes: tuple[str, ...] = ()

    def table(self, title: str) -> pd.DataFrame:
        """The table called ``title``."""
        for t, frame in self.tables:
            if t == title:
                return frame
        raise KeyError(f"sheet {self.name!r} has no table {title!r}")


# -- Summary ----------------------------------------------------------------------------------
def _game_table(a) -> pd.DataFrame:
    game = a.game
    rows = [
        ("game", game.name),
        ("source", game.source or ""),
        ("bet level", a.level),
        ("total bet (coins)", game.total_bet(a.level)),
        ("reels x rows", f"{game.n_reels} x {'/'.join(str(r) for r in game.rows)}"),
        ("pays", "ways" if game.ways else f"{game.n_lines} lines"),
        ("reel sets", ", ".join(game.reel_sets)),
        ("full cycle (paid spin)", _cycle(a)),
    ]
    if game.coin_value is not None:
        rows += [("coin value", exact_text(game.coin_value)), ("currency", game.currency),
                 ("bet value", exact_text(game.bet_value(a.level)))]
    return pd.DataFrame([{"item": k, "value": v} for k, v in rows], columns=["item", "value"])


def _cycle(a):
    """The paid spin's full cycle, or what stands for it where the round is simulated."""
    try:
        return a.base_table.cycle
    except NotImplementedError:
        return "not enumerated (simulated)"


def _component_errors(a) -> dict[str, float]:
    """Error bound of each numerical RTP component (each feature's ``errors`` hook)."""
    out: dict[str, float] = {}
    for f in a.declared:
        errors = hook(f, "errors")
        if errors is not None:
            out |= errors(a)
    return out


def _numerical_features(a) -> list:
    """The declared features whose figures make the RTP numerical."""
    c = a.composition
    inexact_rounds = {f.name for f in a.composition.round_features if not getattr(f, "exact", True)}
    return [f for f in a.declared
            if f.name in c.carried or f.name in inexact_rounds
            or (f.name in c.operations and not c.operations[f.name].exact)]


def _rtp_method(a) -> str:
    if a.exact:
        return EXACT
    return "numerical: " + "; ".join(f"{f.title.lower()} ({f.kind.value} feature)"
                                     for f in _numerical_features(a))


def _headline(a) -> pd.DataFrame:
    rows = [figure_row("RTP", a.rtp, a.rtp_error, _rtp_method(a))]
    if a.game.target_rtp is not None:  # the designer's target, and how far the RTP is from it
        target = Fraction(a.game.target_rtp) / 100
        rows.append(figure_row("target RTP", target, method="the game file's target_rtp"))
        rows.append(figure_row("RTP - target", a.rtp - target if a.exact
                               else a.rtp_float - float(target), a.rtp_error,
                               EXACT if a.exact else "numerical (the RTP's error)"))
    errors = _component_errors(a)
    for name, value in a.components.items():
        rows.append(figure_row(f"RTP: {name}", value, errors.get(name),
                               EXACT if is_exact(value) else "numerical"))
    carried = bool(a.composition.carried)
    if carried or a.composition.operations:
        rows.append(figure_row("coin round RTP (every prize paid, no cap)", a.round.mean))
    hf = a.hit_frequency
    rows += [
        figure_row("hit frequency", hf),
        figure_row("hit frequency: 1 in", one_in(hf)),
        figure_row("base-spin hit frequency", a.base_hit_frequency),
        figure_row("variance (x bet squared)", a.variance, None,
                   EXACT if is_exact(a.variance) else
                   "float64 second moment of a numerical feature law (no bound stated)"),
        figure_row("SD (x bet)", a.std, ROUNDOFF * max(a.std, 1.0),
                   "float64 square root of the exact variance"),
    ]
    if not carried:
        for level in (0.90, 0.95):
            vi = a.volatility_index(level)
            if is_estimate(a.std_total):  # a simulated SD: its interval, scaled
                vi = scaled(a.std_total, normal_quantile(level))
            rows.append(figure_row(f"volatility index {level:.0%}", vi,
                                   ROUNDOFF * max(vi, 1.0), "normal quantile x SD (float64)"))
    else:
        approx = ("approximation, no error bound: leaves out the covariance of the round's "
                  "win with the carried state's payout")
        rows.append(figure_row("SD of the whole return (x bet)", a.std_total, None, approx))
        for level in (0.90, 0.95):
            rows.append(figure_row(f"volatility index {level:.0%}", a.volatility_index(level),
                                   None, "normal quantile x SD of the whole return: " + approx))
    mw = a.top_award
    rows += [
        figure_row("max win of the paid spin (x bet)", mw.multiple),
        figure_row("max win: probability", mw.probability),
        figure_row("max win: 1 in", one_in(mw.probability)),
    ]
    if not isinstance(_cycle(a), str):
        rows.append(figure_row("full cycle (paid spin)", a.base_table.cycle))
    return figure_table(rows)


def _simulated_notes(a, headline: pd.DataFrame) -> tuple[str, ...]:
    """The notes of a sheet whose figures are (partly) simulated: which are, which exact."""
    simulated = [r for r in headline.itertuples() if str(r.method).startswith("simulated")]
    exact = [r.figure for r in headline.itertuples() if r.method == EXACT]
    return (
        ("Figures are per paid round (the paid spin and every feature it starts), in multiples "
         "of the total bet unless stated."),
        ("Simulated (seeded Monte Carlo, reproducible from its seed on any number of cores): "
         + ", ".join(r.figure for r in simulated) + ". For each, 'exact' is empty, 'error' is "
         "the half-width of its 95% confidence interval and 'method' gives the interval and "
         "the rounds simulated."),
        "Exact: " + (", ".join(exact) if exact else "none of the headline figures")
        + "; the reel strips.",
        f"Numerical: the RTP (error <= {a.rtp_error:.1e})" if not a.exact else
        "Numerical: the SD and volatility index where the variance is exact (float64).",
    )


def _notes(a) -> tuple[str, ...]:
    notes = [
        ("Figures are per paid round (the paid spin and every feature it starts), in multiples "
         "of the total bet unless stated."),
        ("'exact' is the exact value as a fraction p/q, written as text so that no program "
         "rounds it; 'value' is its nearest float64. Where 'exact' is empty the figure is "
         "numerical and 'error' is an absolute bound on 'value' (empty: no bound is known, see "
         "'method')."),
        "Exact: " + ("the RTP and every component, " if a.exact else
                     "the RTP components " + ", ".join(
                         k for k, v in a.components.items() if is_exact(v))
                     + " and the coin round's RTP, ")
        + "the hit frequencies, the variance, the top award and its probability, every pay-"
        "table hit count and contribution, the scatter counts, every figure of the Features "
        "sheet with an exact text, the reel strips.",
    ]
    numerical = []
    if not a.exact:
        numerical.append(f"the RTP (error <= {a.rtp_error:.1e})")
    if not a.distribution_exact:
        d = a.distribution
        numerical.append(
            "the round's win distribution and the win-size table (FFT over the features' "
            f"chains: folded mass <= {d.aliased_mass_bound:.1e}, dropped noise <= "
            f"{d.dropped_bound:.1e}, total mass within {FFT_MASS:g})")
    numerical += [f"the {f.title.lower()} figures without an exact text (each with its bound)"
                  for f in _numerical_features(a)]
    carried = bool(a.composition.carried)
    numerical.append("the SD and volatility index (float64 of exact figures"
                     + ("; with a state carried between rounds an approximation" if carried
                        else "") + ") and the confidence intervals")
    notes.append("Numerical: " + "; ".join(numerical) + ".")
    return tuple(notes)


def _summary(a) -> Sheet:
    headline = _headline(a)
    simulated = any(str(m).startswith("simulated") for m in headline["method"])
    return Sheet("Summary", (("Game", _game_table(a)), ("Headline figures", headline)),
                 _simulated_notes(a, headline) if simulated else _notes(a))


# -- Pay table --------------------------------------------------------------------------------
def _pays(a) -> Sheet:
    pays = next(f for f in a.declared if f.kind is Kind.PAYS)
    return Sheet("Pay table", tuple(hook(pays, "tables")(a)), (pay_note(a),))


# -- Reel strips ------------------------------------------------------------------------------
def _counts(reel_set) -> pd.DataFrame:
    reels = reel_set.reels
    names = list(dict.fromkeys(s for r in reels for s in r.symbols))
    weighted = any(r.weights is not None for r in reels)
    rows = []
    for name in names:
        row = {"symbol": name}
        for i, reel in enumerate(reels, 1):
            row[f"reel {i}"] = reel.symbols.count(name)
        if weighted:
            for i, reel in enumerate(reels, 1):
                row[f"reel {i} weight"] = sum(w for s, w in zip(reel.symbols, reel.stop_weights)
                                              if s == name)
        rows.append(row)
    total = {"symbol": "total"} | {k: sum(r[k] for r in rows) for k in rows[0] if k != "symbol"}
    return pd.DataFrame([*rows, total])


def _strips(reel_set) -> pd.DataFrame:
    reels = reel_set.reels
    weighted = any(r.weights is not None for r in reels)
    columns: dict[str, list] = {"stop": list(range(max(len(r) for r in reels)))}
    for i, reel in enumerate(reels, 1):
        pad = [""] * (len(columns["stop"]) - len(reel))
        columns[f"reel {i}"] = list(reel.symbols) + pad
        if weighted:
            columns[f"reel {i} weight"] = list(reel.stop_weights) + pad
    return pd.DataFrame(columns)


def _reels(a) -> Sheet:
    tables = []
    for name, reel_set in a.game.reel_sets.items():
        tables.append((f"{name}: symbol counts per reel", _counts(reel_set)))
        tables.append((f"{name}: strips (top to bottom)", _strips(reel_set)))
    return Sheet("Reel strips", tuple(tables), (
        ("Counts are stops per reel; where a reel set has stop weights, the weight columns add "
        "the weights of each symbol's stops (a stop's weight is how many virtual stops it "
        "covers)."),))


# -- Win sizes and confidence -----------------------------------------------------------------
def _win_sizes(a) -> Sheet:
    try:
        d = a.distribution
    except NotImplementedError as why:  # the bands come from the feature playing the round
        return _bands_without_distribution(a, str(why))
    exact = a.distribution_exact
    moved = 0.0 if exact else d.aliased_mass_bound + d.dropped_bound + FFT_MASS
    top = float(d.credits[-1]) / d.credits_per_bet if len(d.credits) else 0.0
    rows = []
    for r in a.win_sizes:
        upper = top if r.upper is None else float(r.upper)
        rows.append({
            "band": r.label,
            "lower": float(r.lower),
            "upper": None if r.upper is None else float(r.upper),
            "probability": float(r.probability),
            "probability_exact": exact_text(r.probability) if exact else "",
            "probability_error": 0.0 if exact else moved,
            "one_in": r.one_in,
            "rtp_share": float(r.rtp_share),
            "rtp_share_exact": exact_text(r.rtp_share) if exact else "",
            "rtp_share_error": 0.0 if exact else moved * upper,
        })
    frame = pd.DataFrame(rows)
    if exact:
        note = "Exact: the round's distribution is a full-cycle enumeration."
    else:
        note = ("Numerical: the round's distribution is an FFT over the free-spins chain. A "
                "band's probability is off by at most the mass folded back by the grid "
                f"({d.aliased_mass_bound:.1e}) plus the noise dropped ({d.dropped_bound:.1e}) "
                f"plus {FFT_MASS:g}; its RTP share by that mass times the band's upper edge (the "
                f"largest win, {top:g} x bet, for the last band).")
    return Sheet("Win sizes", (("Win sizes (round win, x bet; band lower < win <= upper)",
                                frame),), (note,))


def _bands_without_distribution(a, why: str) -> Sheet:
    """The win sizes of a game whose round distribution is not computed: the bands the
    feature playing the round gives, exact where their figures are."""
    rows = []
    for r in a.win_sizes:
        rows.append({
            "band": r.label,
            "lower": None if r.lower is None else float(r.lower),
            "upper": None if r.upper is None else float(r.upper),
            "probability": float(r.probability),
            "probability_exact": exact_text(r.probability) if is_exact(r.probability) else "",
            "one_in": r.one_in,
            "rtp_share": float(r.rtp_share),
            "rtp_share_exact": exact_text(r.rtp_share) if is_exact(r.rtp_share) else "",
        })
        for name, value in (("probability", r.probability), ("rtp_share", r.rtp_share)):
            if is_estimate(value):  # simulated: its 95 % interval beside it
                lo, hi = value.interval()
                rows[-1] |= {f"{name}_lower_95": lo, f"{name}_upper_95": hi}
    return Sheet("Win sizes", (("Win sizes (round win, x bet; band lower < win <= upper)",
                                pd.DataFrame(rows)),), (why,))


def _confidence(a) -> Sheet:
    frame = confidence_frame(a)
    frame["error"] = a.rtp_error + ROUNDOFF
    note = ("Where the RTP measured over N paid rounds lies with probability 90 % / 95 %: "
            f"{frame.attrs['method']}; 'error' bounds only the RTP's numerics.")
    if a.composition.carried:
        note += (" With a state carried between rounds (jackpot pools, a conveyor) rounds are "
                 "not independent: a guide only.")
    return Sheet("Confidence", (("RTP confidence intervals", frame),), (note,))


# -- Features ---------------------------------------------------------------------------------
def _features(a) -> Sheet | None:
    """One section per declared feature (its ``tables`` hook), in registry order."""
    tables = []
    for f in a.declared:
        made = hook(f, "tables")
        if made is not None and f.kind is not Kind.PAYS:
            tables += made(a)
    if not tables:
        return None
    return Sheet("Features", tuple(tables))


def par_sheets(analysis) -> tuple[Sheet, ...]:
    """The sheets of the PAR report of ``analysis``, in order (no sheet without content).

    Charts are not here: :func:`slotmath.report.charts.chart_images` renders them.
    """
    a = analysis
    from slotmath.report.modes import modes_sheet

    sheets = [_summary(a), _pays(a), _reels(a), _win_sizes(a), _confidence(a), _features(a),
              modes_sheet(a)]
    return tuple(s for s in sheets if s is not None)
