"""The PAR figures of a cascading game: pays per entry over all drops, scatter counts of the
final window, and the cascade section of the JSON (cascade counts, final multiplier, freed
bonus symbols, ways in play)."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from slotmath.report.figures import figure

__all__ = ["carried_multiplier_table", "cascade_scatter_records", "cascade_scatter_table",
           "cascade_section", "cascade_symbol_table"]


def _law(a):
    return a.cascade_law


def cascade_symbol_table(a) -> pd.DataFrame:
    """Per pay-table entry and run: its exact RTP over every drop of the paid spin, each drop
    at its cascade multiplier (hits are not counted for cascading games: one spin can pay an
    entry in several drops)."""
    law = _law(a)
    cpb = law.credits_per_bet
    model = a.context.model
    rows = []
    for (key, run), credits in sorted(law.entry_weights.items()):
        contribution = Fraction(credits, law.cycle * cpb)
        rows.append({"symbol": key, "count": run,
                     "pay_x_bet": float(Fraction(model.key_credits[key].get(run, 0), cpb)),
                     "rtp": float(contribution), "rtp_exact": str(contribution)})
    return pd.DataFrame(rows, columns=["symbol", "count", "pay_x_bet", "rtp", "rtp_exact"])


def _scatter_rows(a) -> list[dict]:
    """The scatter rows with exact values: probability, pay and RTP as Fractions (the one
    place a cascading game's scatter RTP per count is computed; the table and the JSON read
    it)."""
    law = _law(a)
    game = a.game
    fs = game.free_spins
    name = fs.trigger if fs is not None else (game.scatters[0] if game.scatters else None)
    counts: dict = {}
    for (_c, _a, t, _k), w in law.joint.items():
        counts[t] = counts.get(t, 0) + w
    credits = a.context.model.scatter_credits.get(name, ()) if name else ()
    rows = []
    for t in sorted(counts):
        w = counts[t]
        pay = credits[t] if t < len(credits) else 0
        rows.append({"symbol": name, "count": t, "weight": w,
                     "probability": Fraction(w, law.cycle), "one_in": law.cycle / w,
                     "pay_x_bet": Fraction(pay, law.credits_per_bet),
                     "free_spins": fs.award_for(t) if fs is not None else 0,
                     "rtp": Fraction(w * pay, law.cycle * law.credits_per_bet)})
    return rows


SCATTER_COLUMNS = ["symbol", "count", "weight", "probability", "one_in", "pay_x_bet",
                   "free_spins", "rtp"]


def cascade_scatter_table(a) -> pd.DataFrame:
    """Per count of the trigger symbol in the spin's final window (every scatter that landed
    in the spin): weight, probability, pay, spins awarded, RTP."""
    rows = [{k: float(v) if isinstance(v, Fraction) else v for k, v in r.items()}
            for r in _scatter_rows(a)]
    return pd.DataFrame(rows, columns=SCATTER_COLUMNS)


def cascade_scatter_records(a) -> list[dict]:
    """The JSON ``scatters`` rows of a cascading game: probability and RTP as figures."""
    return [{k: figure(v) if k in ("probability", "rtp") else
             float(v) if isinstance(v, Fraction) else v for k, v in r.items()}
            for r in _scatter_rows(a)]


def cascade_section(a) -> dict:
    """The ``cascades`` object of ``slotmath analyze --json`` (exact fractions as "p/q")."""
    law = _law(a)
    ways = law.ways_in_play
    top = max(ways)
    game = a.game
    rule = game.cascades.multiplier
    return {
        "refill": game.cascades.refill,
        "multiplier": ({"ladder": list(rule.ladder)} if rule.ladder is not None else
                       {"start": rule.start, "step": rule.step, "max": rule.max}),
        "carry_multiplier": game.cascades.carry_multiplier,
        "cascade_counts": {str(k): figure(p) for k, p in law.cascade_counts.items()},
        "expected_cascades": figure(sum((k * p for k, p in law.cascade_counts.items()),
                                        Fraction(0))),
        "final_multiplier": {str(k): figure(p) for k, p in law.final_multiplier.items()},
        "freed": {f"reel {r + 1} {e}": figure(p) for (r, e), p in law.freed.items()},
        "ways_in_play": {str(n): figure(p) for n, p in ways.items()},
        "max_ways": top,
        "max_ways_probability": figure(ways[top]),
        "exact": True,
        "free_spins_win": _feature_win(a),
        "free_spins_multiplier": _carried_multiplier(a),
        "methods": {
            "exact": "cascade_counts, expected_cascades, final_multiplier, freed, ways_in_play, "
                     "max_ways_probability, free_spins_multiplier and free_spins_win.mean: exact "
                     "fractions of the full cycle (every stop combination and bonus ordering, "
                     "each chain to its end; the free spins' exact carried chain)",
            "numerical": "free_spins_win.quantiles_x_bet: read off features drawn from the "
                         "exact chain; each quantile's CDF level is within "
                         "free_spins_win.cdf_bound (DKW, 99.9%)",
        },
    }


def _carried_multiplier(a) -> list | None:
    """Per free spin: P(played | feature), E[carried multiplier | played] (exact figures)."""
    table = carried_multiplier_table(a)
    if table is None:
        return None
    return [{"spin": int(r.spin), "played": figure(Fraction(r.played_exact)),
             "mean_index": figure(Fraction(r.mean_index_exact)),
             "mean_multiplier": figure(Fraction(r.mean_multiplier_exact))}
            for r in table.itertuples()]


def _feature_win(a) -> dict | None:
    """Quantiles of the free-spin feature's win (numerical: drawn from the exact chain), its
    exact mean, and the bound on the sampled CDF."""
    import numpy as np

    feature = next((f for f in a.round.features if f.name == "free_spins"), None)
    if feature is None:
        return None
    starts = a.round.start_probabilities("free_spins")
    total = sum(starts.values(), Fraction(0))
    if not total:
        return None
    wins, weights = [], []
    for key, p in starts.items():
        w = feature.win_samples(key) / feature.free.credits_per_bet
        wins.append(w)
        weights.append(np.full(len(w), float(p / total) / len(w)))
    wins, weights = np.concatenate(wins), np.concatenate(weights)
    order = np.argsort(wins)
    cdf = np.cumsum(weights[order])
    q = {str(x): figure(float(wins[order][min(np.searchsorted(cdf, x / 100), len(cdf) - 1)]))
         for x in (50, 90, 99, 99.9)}
    mean = sum((p * feature.law(k).mean for k, p in starts.items()), Fraction(0)) / total
    return {"mean": figure(mean), "quantiles_x_bet": q, "quantiles_exact": False,
            "method": "drawn from the exact free-spin chain (seeded)",
            "cdf_bound": feature.chain.bound(len(feature.win_samples(next(iter(starts)))))}


def carried_multiplier_table(a) -> pd.DataFrame | None:
    """The cascade multiplier carried into each free spin, from the exact carried chain.

    Per free spin ``spin`` (1 = the first): ``played`` = P(the feature plays it | the feature
    started), ``mean_index`` = E[cascade index carried into it | it is played] and
    ``mean_multiplier`` = the free-spin rule's value there (``start + step*index``: a carried
    multiplier needs a linear rule, so the mean of the value is the value of the mean). Each
    with an ``*_exact`` copy ("p/q"). Mixed over the feature's starts (spins awarded, the
    trigger spin's final index) by their exact probabilities. Without a carried multiplier
    every free spin starts at index 0. None for a game without cascading free spins.
    """
    from slotmath.markov.cascade_free_spins import carried_index_by_spin

    feature = next((f for f in a.round.features if f.name == "free_spins"), None)
    if a.game.cascades is None or feature is None:
        return None
    starts = a.round.start_probabilities("free_spins")
    total = sum(starts.values(), Fraction(0))
    if not total:
        return None
    rule = a.game.cascades.rule(free=True)
    carry = a.game.cascades.carry_multiplier
    played: dict = {}
    mass: dict = {}
    for n in sorted({n for n, _ in starts}):
        for row in carried_index_by_spin(feature.chain, n):
            for (m, i0), p in starts.items():
                if m != n:
                    continue
                played[row.spin] = played.get(row.spin, Fraction(0)) + p * row.played
                if carry:
                    mass[row.spin] = (mass.get(row.spin, Fraction(0))
                                      + p * (i0 * row.played + row.index_mass))
    rows = []
    for spin in sorted(played):
        q = played[spin]
        index = mass.get(spin, Fraction(0)) / q
        value = rule.start + rule.step * index if carry else Fraction(rule.value(0))
        rows.append({"spin": spin, "played": float(q / total), "mean_index": float(index),
                     "mean_multiplier": float(value), "played_exact": str(q / total),
                     "mean_index_exact": str(index), "mean_multiplier_exact": str(value)})
    return pd.DataFrame(rows, columns=["spin", "played", "mean_index", "mean_multiplier",
                                       "played_exact", "mean_index_exact",
                                       "mean_multiplier_exact"])
