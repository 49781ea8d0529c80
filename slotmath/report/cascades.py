"""The PAR figures of a cascading game: pays per entry over all drops, scatter counts of the
final window, and the cascade section of the JSON (cascade counts, final multiplier, freed
bonus symbols, ways in play)."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from slotmath.report.figures import figure

__all__ = ["cascade_scatter_table", "cascade_section", "cascade_symbol_table"]


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


def cascade_scatter_table(a) -> pd.DataFrame:
    """Per count of the trigger symbol in the spin's final window (every scatter that landed
    in the spin): weight, probability, pay, spins awarded, RTP."""
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
        rows.append({"symbol": name, "count": t, "weight": w, "probability": w / law.cycle,
                     "one_in": law.cycle / w, "pay_x_bet": pay / law.credits_per_bet,
                     "free_spins": fs.award_for(t) if fs is not None else 0,
                     "rtp": float(Fraction(w * pay, law.cycle * law.credits_per_bet))})
    return pd.DataFrame(rows, columns=["symbol", "count", "weight", "probability", "one_in",
                                       "pay_x_bet", "free_spins", "rtp"])


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
    }


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
    q = {str(x): float(wins[order][min(np.searchsorted(cdf, x / 100), len(cdf) - 1)])
         for x in (50, 90, 99, 99.9)}
    mean = sum((p * feature.law(k).mean for k, p in starts.items()), Fraction(0)) / total
    return {"mean": figure(mean), "quantiles_x_bet": q,
            "method": "drawn from the exact free-spin chain (seeded)",
            "cdf_bound": feature.chain.bound(len(feature.win_samples(next(iter(starts)))))}
