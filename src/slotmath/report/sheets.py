"""What the PAR reports hold, sheet by sheet: one home for the xlsx workbook and the HTML.

Each :class:`Sheet` is a titled list of tables (pandas DataFrames) and notes; the renderers
(:mod:`slotmath.report.workbook`, :mod:`slotmath.report.html`) only lay them out. A figure
table has the columns ``figure``, ``value`` (the decimal), ``exact`` (the exact fraction as
text "p/q", empty when the figure is numerical), ``error`` (absolute error bound of ``value``:
0 when exact, empty when no bound is known) and ``method``. Exact values are written as text so
that nothing rounds them on the way to the lab.

Sheets without content are left out: a game without free spins, a bonus wheel, jackpots or a
cap has no Features sheet.

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

import math
from dataclasses import dataclass
from fractions import Fraction

import pandas as pd

from slotmath.report.tables import confidence_frame, scatter_table, symbol_table

__all__ = ["FIGURE_COLUMNS", "Sheet", "figure_row", "par_sheets"]

FIGURE_COLUMNS = ["figure", "value", "exact", "error", "method"]

#: Float64 rounding of one exact value, or one operation on a few: the error bound written
#: beside a decimal that is computed from exact figures in a handful of float operations.
ROUNDOFF = 1e-15
#: Total mass of an FFT distribution is 1 within this (tested in the free-spins chain), so no
#: band of the distribution can be off by more, beyond its folded and dropped mass.
FFT_MASS = 1e-12

EXACT = "exact"


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


def _is_exact(value) -> bool:
    return isinstance(value, (int, Fraction)) and not isinstance(value, bool)


def _text(value) -> str:
    """An exact value as "p/q" (an integer as itself)."""
    return str(Fraction(value))


def figure_row(figure: str, value, error: float | None = 0.0, method: str = EXACT) -> dict:
    """One row of a figure table: exact values get their text, numerical ones their bound.

    Examples
    --------
    >>> figure_row("hit frequency", Fraction(1, 3))["exact"]
    '1/3'
    >>> figure_row("SD", 2.5, 1e-15, "sqrt of the exact variance")["exact"]
    ''
    """
    if _is_exact(value):
        decimal = int(value) if isinstance(value, int) else float(value)
        return {"figure": figure, "value": decimal, "exact": _text(value), "error": 0.0,
                "method": method}
    return {"figure": figure, "value": float(value), "exact": "", "error": error,
            "method": method}


def _figures(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=FIGURE_COLUMNS)


def _one_in(p):
    """1 / p, exactly when p is exact (inf when p is 0)."""
    if not p:
        return math.inf
    return 1 / p if _is_exact(p) else 1 / float(p)


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
        ("full cycle (paid spin)", a.base_table.cycle),
    ]
    if game.coin_value is not None:
        rows += [("coin value", _text(game.coin_value)), ("currency", game.currency),
                 ("bet value", _text(game.bet_value(a.level)))]
    return pd.DataFrame([{"item": k, "value": v} for k, v in rows], columns=["item", "value"])


def _component_errors(a) -> dict[str, float]:
    """Error bound of each numerical RTP component."""
    out = {}
    j = a.jackpots
    if j is not None:
        pools = sum(p.error_bounds["rtp_contribution"] for p in j.pools.values())
        out["jackpots"] = pools + ROUNDOFF
        out["bonus_wheel"] = (j.error - pools) + ROUNDOFF  # coin prizes replaced by hits
    if a.cap is not None:
        out["max_win_cap"] = a.cap.error + ROUNDOFF
    hw = a.hold_and_win
    if hw is not None and not hw.exact:  # a float64 respin chain
        out["hold_and_win"] = hw.error + ROUNDOFF
    for name, error in getattr(a, "paid_spin_errors", {}).items():  # the modifiers' restated
        out[name] = error + ROUNDOFF
    return out


def _rtp_method(a) -> str:
    if a.exact:
        return EXACT
    parts = []
    if a.jackpots is not None:
        parts.append("progressive jackpots (renewal model of each pool)")
    if a.cap is not None and not a.cap.exact:
        parts.append("max-win cap read off the FFT round distribution")
    return "numerical: " + "; ".join(parts)


def _headline(a) -> pd.DataFrame:
    rows = [figure_row("RTP", a.rtp, a.rtp_error, _rtp_method(a))]
    errors = _component_errors(a)
    for name, value in a.components.items():
        rows.append(figure_row(f"RTP: {name}", value, errors.get(name),
                               EXACT if _is_exact(value) else "numerical"))
    if a.jackpots is not None or a.cap is not None:
        rows.append(figure_row("coin round RTP (wheel all coins, no cap)", a.round.mean))
    hf = a.hit_frequency
    rows += [
        figure_row("hit frequency", hf),
        figure_row("hit frequency: 1 in", _one_in(hf)),
        figure_row("base-spin hit frequency", a.base_hit_frequency),
        figure_row("variance (x bet squared)", a.variance, None,
                   EXACT if _is_exact(a.variance) else
                   "float64 second moment of a numerical feature law (no bound stated)"),
        figure_row("SD (x bet)", a.std, ROUNDOFF * max(a.std, 1.0),
                   "float64 square root of the exact variance"),
    ]
    if a.jackpots is None:
        for level in (0.90, 0.95):
            rows.append(figure_row(f"volatility index {level:.0%}", a.volatility_index(level),
                                   ROUNDOFF * max(a.volatility_index(level), 1.0),
                                   "normal quantile x SD (float64)"))
    else:
        approx = ("approximation, no error bound: leaves out the covariance of the coin win "
                  "with the jackpot payout")
        rows.append(figure_row("SD with jackpots (x bet)", a.std_total, None, approx))
        for level in (0.90, 0.95):
            rows.append(figure_row(f"volatility index {level:.0%}", a.volatility_index(level),
                                   None, "normal quantile x SD with jackpots: " + approx))
    mw = a.top_award
    rows += [
        figure_row("max win of the paid spin (x bet)", mw.multiple),
        figure_row("max win: probability", mw.probability),
        figure_row("max win: 1 in", _one_in(mw.probability)),
        figure_row("full cycle (paid spin)", a.base_table.cycle),
    ]
    return _figures(rows)


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
                         k for k, v in a.components.items() if _is_exact(v))
                     + " and the coin round's RTP, ")
        + "the hit frequencies, the variance, the top award and its probability, every pay-"
        "table hit count and contribution, the scatter counts, "
        + ("the free-spins figures, " if a.game.free_spins else "")
        + ("the bonus wheel's prizes and spins per spin, " if a.game.bonus_wheel else "")
        + ("each jackpot's seed and contribution, " if a.game.jackpots else "")
        + "the reel strips.",
    ]
    numerical = []
    if not a.exact:
        numerical.append(f"the RTP (error <= {a.rtp_error:.1e})")
    if not a.distribution_exact:
        d = a.distribution
        numerical.append(
            "the round's win distribution and the win-size table (FFT over the free-spins "
            f"chain: folded mass <= {d.aliased_mass_bound:.1e}, dropped noise <= "
            f"{d.dropped_bound:.1e}, total mass within {FFT_MASS:g})")
    if a.jackpots is not None:
        numerical.append("every jackpot figure (pool, value at hit, rounds between hits, "
                         "RTP), each with its bound")
    if a.cap is not None and not a.cap.exact:
        numerical.append(f"the max-win cap's effect (error <= {a.cap.error:.1e})")
    numerical.append("the SD and volatility index (float64 of exact figures"
                     + ("; with jackpots an approximation" if a.jackpots is not None else "")
                     + ") and the confidence intervals (normal approximation)")
    notes.append("Numerical: " + "; ".join(numerical) + ".")
    return tuple(notes)


def _summary(a) -> Sheet:
    return Sheet("Summary", (("Game", _game_table(a)), ("Headline figures", _headline(a))),
                 _notes(a))


# -- Pay table --------------------------------------------------------------------------------
def _pay_table(a) -> pd.DataFrame:
    d = a.direct
    frame = symbol_table(a)
    frame.insert(frame.columns.get_loc("pay_x_bet") + 1, "pay_exact",
                 [_text(Fraction(p.credits, d.credits_per_bet)) for p in d.pays])
    frame.insert(frame.columns.get_loc("hits_per_spin") + 1, "hits_per_spin_exact",
                 [_text(Fraction(p.hits, d.cycle)) for p in d.pays])
    frame.insert(frame.columns.get_loc("one_in") + 1, "one_in_exact",
                 [_text(Fraction(d.cycle, p.hits)) if p.hits else "never" for p in d.pays])
    return frame


def _scatters(a) -> pd.DataFrame:
    d = a.direct
    frame = scatter_table(a)
    probability, rtp, one_in = [], [], []
    for name, counts in d.scatter_counts.items():
        for c in sorted(counts):
            w = counts[c]
            probability.append(_text(Fraction(w, d.cycle)))
            one_in.append(_text(Fraction(d.cycle, w)) if w else "never")
            rtp.append(_text(Fraction(w * d.scatter_credits[name][c],
                                      d.cycle * d.credits_per_bet)))
    frame.insert(frame.columns.get_loc("probability") + 1, "probability_exact", probability)
    frame.insert(frame.columns.get_loc("one_in") + 1, "one_in_exact", one_in)
    frame["rtp_exact"] = rtp
    return frame


def _pays(a) -> Sheet:
    tables = [("Pay table (hits over the full cycle)", _pay_table(a))]
    scatters = _scatters(a)
    if len(scatters):
        tables.append(("Scatters (count anywhere in the window)", scatters))
    kind = "paylines (a spin paying on two lines counts twice)" if a.direct.kind != "ways" \
        else "stop combinations"
    return Sheet("Pay table", tuple(tables), (
        (f"hits: {kind} over the full cycle of {a.base_table.cycle:,} stop combinations, "
        "exact integers; pay_x_bet in total bets; rtp_exact adds up to the component exactly."),))


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
    exact = a.distribution_exact
    d = a.distribution
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
            "probability_exact": _text(r.probability) if exact else "",
            "probability_error": 0.0 if exact else moved,
            "one_in": r.one_in,
            "rtp_share": float(r.rtp_share),
            "rtp_share_exact": _text(r.rtp_share) if exact else "",
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


def _confidence(a) -> Sheet:
    frame = confidence_frame(a)
    frame["error"] = a.rtp_error + ROUNDOFF
    note = ("Where the RTP measured over N paid rounds lies with probability 90 % / 95 %: "
            f"{frame.attrs['method']}; 'error' bounds only the RTP's numerics.")
    if a.jackpots is not None:
        note += " With jackpots rounds are not independent (the pools carry over): a guide only."
    return Sheet("Confidence", (("RTP confidence intervals", frame),), (note,))


# -- Features ---------------------------------------------------------------------------------
def _free_spins(a) -> list[tuple[str, pd.DataFrame]]:
    fs, spec = a.free_spins, a.game.free_spins
    if spec is None:
        return []
    rules = pd.DataFrame([
        {"rule": "trigger symbol", "value": spec.trigger},
        {"rule": "spins awarded (by count)",
         "value": ", ".join(f"{c}: {n}" for c, n in sorted(spec.awards.items()))},
        {"rule": "reel set", "value": spec.reels},
        {"rule": "win multiplier", "value": spec.multiplier},
        {"rule": "retrigger", "value": "yes" if spec.retrigger else "no"},
        {"rule": "max spins", "value": "none" if spec.max_spins is None else spec.max_spins},
    ])
    if fs is None or not fs.trigger_probability:
        figures = _figures([
            figure_row("trigger probability", Fraction(0), method="never: the trigger cannot "
                       "show on these reels; the feature is reported as zero")])
    else:
        figures = _figures([
            figure_row("trigger probability", fs.trigger_probability),
            figure_row("trigger: 1 in", _one_in(fs.trigger_probability)),
            figure_row("spins per feature", fs.expected_spins),
            figure_row("win per feature (x bet)", fs.expected_win),
            figure_row("RTP contribution", a.components["free_spins"]),
        ])
    return [("Free spins: rules", rules), ("Free spins: figures", figures)]


def _wheel(a) -> list[tuple[str, pd.DataFrame]]:
    wheel = a.game.bonus_wheel
    if wheel is None:
        return []
    jackpots = a.jackpots
    rows = []
    total = sum(wheel.weights)
    weights = dict(zip(wheel.labels or [f"coins {i + 1}" for i in range(len(wheel.weights))],
                       wheel.weights))
    for r in a.wheel_outcomes():
        p = r["probability"]
        if jackpots is None:
            error = 0.0
        elif r["kind"] == "jackpot":
            pool = jackpots.pools.get(r["division"])
            error = 0.0 if pool is None else pool.error_bounds["expected_hit_probability_per_spin"]
        else:  # the coin divisions share what the jackpots leave, by weight
            error = sum(p.error_bounds["expected_hit_probability_per_spin"]
                        for p in jackpots.pools.values()) + ROUNDOFF
        rows.append({
            "division": r["division"], "kind": r["kind"],
            "prize_x_bet": None if r["prize"] is None else float(r["prize"]),
            "prize_exact": "" if r["prize"] is None else _text(r["prize"]),
            "weight": weights.get(r["division"]),
            "probability": float(p),
            "probability_exact": _text(p) if _is_exact(p) else "",
            "probability_error": error,
        })
    divisions = pd.DataFrame(rows)
    figures = [figure_row("mean coin prize per wheel spin (x bet, all divisions coins)",
                          wheel.mean)]
    for label, mean in a.wheel_spins.items():
        figures.append(figure_row(f"wheel spins per {label} spin", mean))
    value = a.components["bonus_wheel"]
    figures.append(figure_row("RTP contribution (coin prizes)", value,
                              _component_errors(a).get("bonus_wheel"),
                              EXACT if _is_exact(value) else "numerical: net of the spins "
                              "that hit a jackpot"))
    title = (f"Bonus wheel: divisions (total weight {total}"
             + ("; jackpot divisions at their stationary chance per spin)" if jackpots
                else ")"))
    rules = pd.DataFrame([
        {"rule": "symbol", "value": wheel.symbol},
        {"rule": "in succession from reel 1 on a line", "value": wheel.count},
        {"rule": "wheel spins", "value": wheel.per_spin},
        {"rule": "multiplied in free spins", "value": "yes" if wheel.multiplied else "no"},
    ])
    return [("Bonus wheel: rules", rules), (title, divisions),
            ("Bonus wheel: figures", _figures(figures))]


_POOL_FIGURES = (  # (label, PoolAnalysis attribute, its error_bounds key)
    ("RTP contribution", "rtp_contribution", "rtp_contribution"),
    ("RTP from the identity c + seed / (bet x rounds)", "rtp_from_identity",
     "rtp_from_identity"),
    ("seed part of the RTP", "seed_rtp", "rtp_contribution"),
    ("rounds between hits (1 in)", "mean_rounds_between_hits", "mean_rounds_between_hits"),
    ("hit probability per wheel spin", "expected_hit_probability_per_spin",
     "expected_hit_probability_per_spin"),
    ("hit probability per round", "expected_hit_probability_per_round",
     "expected_hit_probability_per_round"),
    ("mean value at hit (currency)", "hit_value_mean", "hit_value_mean"),
    ("mean pool (currency)", "mean_pool", "mean_pool"),
    ("mean restart value (currency)", "mean_restart_value", "mean_restart_value"),
)


def _jackpots(a) -> list[tuple[str, pd.DataFrame]]:
    j = a.jackpots
    if j is None:
        return []
    if not j.reachable:
        return [("Jackpots", _figures([
            figure_row(f"{spec.name}: RTP contribution", Fraction(0),
                       method="never hit: no round can spin the bonus wheel on these reels")
            for spec in a.game.jackpots]))]
    tables = []
    bet = float(j.bet_value)
    for name, p in j.pools.items():
        spec = a.game.jackpot(name)
        rows = [
            figure_row("seed (currency)", spec.seed),
            figure_row("contribution (share of the bet)", spec.contribution),
            figure_row("reserve (share of the contribution)", spec.reserve_fraction),
            figure_row("contribution part of the RTP", p.contribution_rtp),
        ]
        rows[-1]["method"] = EXACT
        for label, attr, key in _POOL_FIGURES:
            rows.append(figure_row(label, getattr(p, attr), p.error_bounds[key],
                                   "numerical: renewal model of the pool"))
        seed_row = next(r for r in rows if r["figure"] == "seed part of the RTP")
        seed_row["error"] = p.error_bounds["rtp_contribution"]
        rows.append(figure_row("hits per round", p.hits_per_round, j.hits_error(p),
                               "numerical: renewal model of the pool"))
        rows.append(figure_row("mean value at hit (x bet)", p.hit_value_mean / bet,
                               p.error_bounds["hit_value_mean"] / bet + ROUNDOFF,
                               "numerical: renewal model of the pool"))
        rows.append({"figure": "hit law", "value": None, "exact": repr(p.pool.law),
                     "error": None, "method": "rule of the game file"})
        tables.append((f"Jackpot {name}", _figures(rows)))
    return tables


def _cap(a) -> list[tuple[str, pd.DataFrame]]:
    cap = a.cap
    if cap is None:
        return []
    method = EXACT if cap.exact else "numerical: read off the FFT round distribution"
    d = a.distribution
    probability_error = (0.0 if cap.exact else d.aliased_mass_bound + d.dropped_bound + FFT_MASS)
    rows = [
        figure_row("cap (x bet)", cap.cap_bets),
        figure_row("cap (coins)", cap.cap_coins),
        figure_row("RTP removed", cap.effect, cap.error, method),
        figure_row("probability a round is capped", cap.probability, probability_error,
                   method + ("; with jackpots an upper bound" if a.jackpots else "")),
    ]
    if not cap.exact:
        rows.append(figure_row("resolution (noise floor of the distribution)",
                               cap.resolution, 0.0, "amounts below it are dropped"))
    return [("Max-win cap (coin win of a round; jackpots are paid outside it)",
             _figures(rows))]


def _features(a) -> Sheet | None:
    tables = _free_spins(a) + _wheel(a) + _jackpots(a) + _cap(a)
    if not tables:
        return None
    return Sheet("Features", tuple(tables))


def par_sheets(analysis) -> tuple[Sheet, ...]:
    """The sheets of the PAR report of ``analysis``, in order (no sheet without content).

    Charts are not here: :func:`slotmath.report.charts.chart_images` renders them.
    """
    a = analysis
    sheets = [_summary(a), _pays(a), _reels(a), _win_sizes(a), _confidence(a), _features(a)]
    return tuple(s for s in sheets if s is not None)

