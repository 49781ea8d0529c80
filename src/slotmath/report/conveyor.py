"""The persistent-state (bauble conveyor) sections of ``slotmath analyze`` and ``simulate``.

Figures come from :class:`slotmath.features.conveyor.ConveyorFigures`; exact values are
written as "p/q" text beside their float, as in :mod:`slotmath.report.json_report`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from slotmath.features.conveyor import REPORTED_SPINS, ConveyorFigures
from slotmath.report.figures import figure

__all__ = ["conveyor_analysis_dict", "conveyor_dict", "conveyor_simulation_dict",
           "conveyor_text", "json_section", "round_section", "summary", "tables"]

#: Figures of the plain analysis that describe the strips without wilds or baubles (or a
#: [free_spins] section a conveyor game does not have), so they are left out of a conveyor
#: game's report rather than shown wrong.
NOT_COMPUTED = ("std_with_jackpots", "pays", "scatters", "free_spins")
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
CONFIDENCE_SPINS = tuple(10**k for k in range(3, 9))


def _pair(value) -> dict:
    if isinstance(value, Fraction):
        return {"exact": str(value), "float": float(value)}
    return {"exact": None, "float": float(value)}


def _weighted_quantile(values: np.ndarray, weights: np.ndarray, q: float) -> float:
    order = np.argsort(values, kind="stable")
    cum = np.cumsum(weights[order])
    return float(values[order][min(int(np.searchsorted(cum, q * cum[-1])), len(cum) - 1)])


def conveyor_dict(figures: ConveyorFigures) -> dict:
    """The conveyor's figures: rtp, components, stationary law, RTP by visible state, RTP
    from reset, advantage play, each saying whether it is exact."""
    feature = figures.feature
    probability = np.array([float(p) for p in figures.probability])
    rtp = figures.state_rtp
    ap = figures.advantage_play
    holding = figures.holding()
    by_count: dict[str, float] = {}
    for k in holding:
        mask = np.array([sum(1 for x in s if x) == k for s in figures.states])
        if probability[mask].sum() > 0:
            by_count[str(k)] = float(probability[mask] @ rtp[mask] / probability[mask].sum())
    components = figures.components
    return {
        "rtp": figures.rtp if not figures.exact else str(figures.rtp),
        "rtp_float": float(figures.rtp),
        "rtp_exact": figures.exact,
        "rtp_error": figures.error,
        "target_rtp": (float(feature.game.target_rtp) if feature.game.target_rtp is not None
                       else None),
        "components": {k: _pair(v) | {"is_exact": isinstance(v, Fraction)}
                       for k, v in components.items()},
        "components_meaning": {
            "lines": "line wins with the random wilds, before any spread (paid spin)",
            "spreading_wild": "what the spreading wilds add to the paid spin's line wins",
            "coin_win": "coin-win baubles (surprises included) in the paid spin",
            "free_spins": "everything won in the free spins baubles award (their lines, "
                          "spreads and coins included); numerical, see free_spins_error",
        },
        "free_spins_error": figures.fs_error,
        "stationary": {
            "exact": True,
            "method": "e_reset P^n in Fractions: the conveyor forgets its start once its n "
                      "slots have been refilled",
            "states": len(figures.states),
            "holding": {str(k): _pair(p) for k, p in holding.items()},
            "by_position": [{label: _pair(p) for label, p in slot.items()}
                            for slot in figures.slot_law()],
            "positions": "slot 1 (above reel 1) first",
        },
        "rtp_by_visible_state": {
            "exact": False,
            "visible": "the whole conveyor (each bauble and its value) before the spin",
            "states": len(figures.states),
            "mean": float(probability @ rtp),
            "best": {"state": ap.best_state, "rtp": ap.best_rtp,
                     "probability": ap.best_probability},
            "worst": {"state": ap.worst_state, "rtp": ap.worst_rtp,
                      "probability": float(probability[rtp <= ap.worst_rtp + 1e-12].sum())},
            "quantiles": {str(q): _weighted_quantile(rtp, probability, q) for q in QUANTILES},
            "by_baubles_held": by_count,
        },
        "rtp_from_reset": {
            "exact": False,
            "meaning": "mean RTP of the first N paid spins from the empty conveyor (the "
                       "start, and every bet change)",
            "N": {str(n): v for n, v in zip(REPORTED_SPINS, figures.rtp_from_reset())},
        },
        "advantage_play": {
            "exact": False,
            "max_visible_state_rtp": ap.best_rtp,
            "max_state": ap.best_state,
            "max_state_probability": ap.best_probability,
            "any_state_above_100": ap.above_100,
            "probability_above_100": ap.above_100_probability,
            "one_in_spins_above_100": (1 / ap.above_100_probability
                                       if ap.above_100_probability else None),
        },
        "modelling": "slotmath/model/persistent.py and the game file's header",
    }


def conveyor_analysis_dict(a) -> dict:
    """The JSON document of ``slotmath analyze --json`` for a conveyor game: the headline
    keys of :func:`slotmath.report.json_report.analysis_dict` (exact text beside floats) and
    the conveyor's sections; what is not computed for a persistent-state game is listed in
    ``not_computed`` instead of being shown for the strips alone.

    Examples
    --------
    >>> import slotmath
    >>> d = conveyor_analysis_dict(slotmath.analyze(slotmath.load_game(
    ...     "tests/data/conveyor_tiny.toml")))
    >>> d["components"]["coin_win"]["exact"], d["rtp_exact"], sorted(d["rtp_from_reset"]["N"])
    ('59/96', False, ['1', '10', '100', '1000'])
    """
    game = a.game
    section = conveyor_dict(a.features["conveyor"])
    out = {
        "name": game.name,
        "bet": game.bet,
        "bet_level": a.level,
        "total_bet": game.total_bet(a.level),
        "rtp": figure(a.rtp) if section["rtp_exact"] else figure(float(section["rtp_float"])),
        "rtp_float": section["rtp_float"],
        "rtp_exact": section["rtp_exact"],
        "rtp_error": section["rtp_error"],
        "components": {k: {"exact": v["exact"] if v["is_exact"] else None, "float": v["float"]}
                       for k, v in section["components"].items()},
        "components_float": {k: v["float"] for k, v in section["components"].items()},
    }
    for key in ("target_rtp", "components_meaning", "free_spins_error", "stationary",
                "rtp_by_visible_state", "rtp_from_reset", "advantage_play", "modelling"):
        out[key] = section[key]
    out |= round_section(a.features["conveyor"])
    from slotmath.report.json_report import target_section

    out |= {k: v for k, v in target_section(a).items() if k != "target_rtp"}
    out["cycle"] = a.base_table.cycle
    out["not_computed"] = list(NOT_COMPUTED)
    if out["round_distribution"]["law"] is None:
        out["not_computed"].append("round_distribution.law")
    out["not_computed_note"] = (
        "per-symbol pays and scatters describe the strips alone; a conveyor game has no "
        "[free_spins] section (its free spins come from baubles: components.free_spins)"
        + ("; the law of what the bauble free spins pay is not computed, only its mean, "
           "second moment and P(win = 0), so the round's win sizes show the rounds that "
           "award free spins as one row" if out["round_distribution"]["law"] is None else ""))
    if game.coin_value is not None:
        out["coin_value"] = float(game.coin_value)
        out["currency"] = game.currency
    return out


def round_section(figures: ConveyorFigures, spins=CONFIDENCE_SPINS) -> dict:
    """The PAR figures of a paid round in the stationary law, in the keys of
    :func:`slotmath.report.json_report.analysis_dict`: hit frequency, SD, variance,
    volatility index, top award (``max_win``), win sizes, confidence intervals, with their
    errors and what the intervals mean for rounds that are not independent."""
    r = figures.round
    top = r.top_award
    e = r.errors
    free = figures.feature.free_spin_moments
    intervals = r.confidence_table(spins)
    return {
        "hit_frequency": figure(r.hit_frequency),
        "hit_frequency_float": float(r.hit_frequency),
        "hit_frequency_error": e["hit_frequency"],
        "base_hit_frequency": figure(r.spin.hit_probability),
        "std": figure(float(r.std)),
        "variance": figure(r.variance),
        "variance_error": e["variance"],
        "volatility_index": {"90": figure(float(r.volatility_index(0.90))),
                             "95": figure(float(r.volatility_index(0.95)))},
        "max_win": {
            "multiple": figure(top.multiple),
            "probability": figure(top.probability),
            "one_in": top.one_in,
            "scope": "paid spin: its lines, spreads and coins" + (
                "; the bauble free spins it may award come on top (they retrigger without "
                "end: the round's win has no upper bound)" if free is not None else ""),
        },
        "credits_per_bet": r.spin.credits_per_bet,
        "win_sizes": [
            {"band": w.label, "probability": figure(w.probability),
             "rtp_share": figure(w.rtp_share)}
            for w in r.win_sizes()
        ],
        "confidence_intervals": [
            {"spins": int(c.spins), "95": [c.lower_95, c.upper_95], "90": [c.lower_90, c.upper_90]}
            for c in intervals
        ],
        "confidence_intervals_method": (
            "RTP +/- z sqrt(Var(mean of N consecutive rounds)) from the stationary law, the "
            "normal approximation; the variance counts the covariances of rounds up to n "
            "apart (the conveyor carries baubles over: rounds n or more apart are "
            "independent); a session from the empty conveyor starts below the RTP "
            "(rtp_from_reset)"),
        "consecutive_rounds": {
            "covariances": [float(g) for g in r.covariances],
            "covariances_meaning": "Cov(W_t, W_t+k), k = 1, 2, ... (total bets squared)",
            "covariances_error": r.covariance_error,
            "asymptotic_std": math.sqrt(r.asymptotic_variance),
            "asymptotic_std_meaning": "sqrt(N Var(mean of N consecutive rounds)) for large "
                                      "N: the SD to use for the RTP over N rounds",
            "std_meaning": "SD of one paid round's win (its free spins included) in the "
                           "stationary law",
        },
        "round_distribution": {
            "method": ("exact law of the paid spin's own pay and the spins it awards "
                       "(full-cycle engine per spread pattern, mixed over the stationary "
                       "conveyor law)" + (
                           "; free spins by their mean, second moment and P(win = 0) "
                           "(chains over spins left and the free-spin conveyor, numerical)"
                           if free is not None else "")),
            "law": "exact" if r.round_law is not None else None,
            "free_spins_awarded": figure(1 - r.spin.spins_probability(0)),
        },
    }


def conveyor_text(a) -> str:
    """A short text summary of a conveyor game's analysis."""
    d = conveyor_dict(a.features["conveyor"])
    lines = [f"{a.game.name}: bauble conveyor (persistent state), bet level {a.level}",
             (f"RTP (stationary): {100 * d['rtp_float']:.4f}%  (error <= "
              f"{d['rtp_error']:.1e}; target {d['target_rtp']})")]
    for k, v in d["components"].items():
        tag = "exact" if v["is_exact"] else "numerical"
        lines.append(f"  {k:<15} {100 * v['float']:9.4f}%  ({tag})")
    lines.append("P(holding k baubles): " + ", ".join(
        f"{k}: {v['float']:.4f}" for k, v in d["stationary"]["holding"].items()))
    lines.append("RTP from reset: " + ", ".join(
        f"N={n}: {100 * v:.3f}%" for n, v in d["rtp_from_reset"]["N"].items()))
    ap = d["advantage_play"]
    lines.append(f"Best visible state: {100 * ap['max_visible_state_rtp']:.2f}% "
                 f"[{ap['max_state']}], probability {ap['max_state_probability']:.3g}")
    lines.append(f"States above 100%: {ap['any_state_above_100']}, stationary probability "
                 f"{ap['probability_above_100']:.4f}")
    r = round_section(a.features["conveyor"], spins=(10**6, 10**8))
    lines.append(f"Hit frequency: {100 * r['hit_frequency']['float']:.4f}% (1 in "
                 f"{1 / r['hit_frequency']['float']:.3f}); SD {r['std']['float']:.4f}, "
                 f"VI(90%) {r['volatility_index']['90']['float']:.4f}")
    top = r["max_win"]
    lines.append(f"Top award (paid spin): {top['multiple']['float']:g} x bet, 1 in "
                 f"{top['one_in']:.4g}")
    c = r["consecutive_rounds"]
    lines.append(f"Consecutive rounds: asymptotic SD {c['asymptotic_std']:.4f}; RTP over "
                 + ", ".join(f"{x['spins']:.0e} rounds in [{100 * x['95'][0]:.3f}%, "
                             f"{100 * x['95'][1]:.3f}%] (95%)"
                             for x in r["confidence_intervals"]))
    return "\n".join(lines)


def conveyor_simulation_dict(sim) -> dict:
    low, high = sim.interval(4.0)
    return {"spins": sim.spins, "seed": sim.seed, "rtp": sim.rtp, "std_error": sim.std_error,
            "interval_4se": [low, high], "components": sim.components,
            "method": "consecutive paid spins carrying the conveyor (batch-means error)"}


def json_section(a) -> dict:
    """The conveyor plays the whole round: its document is the game's."""
    return conveyor_analysis_dict(a)


def tables(a) -> list:
    """The stationary law of the conveyor, the RTP by visible state, the RTP from reset and
    the advantage-play check."""
    import pandas as pd

    from slotmath.report.figures import figure_row, figure_table

    figures = a.features["conveyor"]
    d = conveyor_dict(figures)
    holding = pd.DataFrame([{"baubles held": int(k), "probability": v["float"],
                             "probability_exact": v["exact"]}
                            for k, v in d["stationary"]["holding"].items()])
    by_state = d["rtp_by_visible_state"]
    ap = d["advantage_play"]
    states = figure_table([
        figure_row("visible states", by_state["states"], 0.0, "count"),
        figure_row("RTP of the best visible state", by_state["best"]["rtp"],
                   figures.error, "numerical"),
        figure_row("stationary probability of the best state", by_state["best"]["probability"],
                   None, "float64 of the exact law"),
        figure_row("RTP of the worst visible state", by_state["worst"]["rtp"], figures.error,
                   "numerical"),
        figure_row("stationary probability of states above 100%",
                   ap["probability_above_100"], None, "float64 of the exact law"),
    ])
    reset = pd.DataFrame([{"paid spins from reset": int(n), "mean RTP": v}
                          for n, v in d["rtp_from_reset"]["N"].items()])
    return [("Conveyor: baubles held (stationary law)", holding),
            ("Conveyor: RTP by visible state (advantage play)", states),
            ("Conveyor: RTP from the empty conveyor", reset)]


def summary(a) -> list[tuple[str, str]]:
    d = conveyor_dict(a.features["conveyor"])
    ap = d["advantage_play"]
    return [("conveyor: best visible state RTP", f"{ap['max_visible_state_rtp']:.4%}"),
            ("conveyor: states above 100%", f"{ap['probability_above_100']:.4%} of spins")]
