"""Cascades in the PAR reports: the JSON section (cascade counts, final multiplier, freed
bonus symbols, ways in play for a ways game, the free spins' carried multiplier), the
workbook's tables and the summary rows (``analysis.features["cascades"]``,
:class:`slotmath.exact.cascades.CascadeLaw`). The pays over every drop and the scatter counts
of the final window are the window's rows (:mod:`slotmath.report.pays`)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from slotmath.report.figures import figure, figure_row, figure_table, rules_table

if TYPE_CHECKING:  # pandas is imported where a table is made (the JSON needs none)
    import pandas as pd

__all__ = ["carried_multiplier_table", "cascade_section", "json_section", "mixture_quantiles",
           "summary", "tables"]


def _law(a):
    return a.features["cascades"]


def cascade_section(a) -> dict:
    """The ``cascades`` object of ``slotmath analyze --json`` (exact fractions as "p/q")."""
    law = _law(a)
    game = a.game
    rule = game.cascades.multiplier
    out = {
        "refill": game.cascades.refill,
        "multiplier": ({"ladder": list(rule.ladder)} if rule.ladder is not None else
                       {"start": rule.start, "step": rule.step, "max": rule.max}),
        "carry_multiplier": game.cascades.carry_multiplier,
        # where scatters count: on the final window, or on every fall (paying, triggering and
        # going with the winners, times the fall's multiplier when scatter_multiplied)
        "scatters": game.cascades.scatters,
        "scatter_multiplied": game.cascades.scatter_multiplied,
        "cascade_counts": {str(k): figure(p) for k, p in law.cascade_counts.items()},
        "expected_cascades": figure(sum((k * p for k, p in law.cascade_counts.items()),
                                        Fraction(0))),
        "final_multiplier": {str(k): figure(p) for k, p in law.final_multiplier.items()},
        "freed": {f"reel {r + 1} {e}": figure(p) for (r, e), p in law.freed.items()},
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
    if game.ways:  # the ways a window pays on (frozen bonus symbols split them)
        ways = law.ways_in_play
        top = max(ways)
        out["ways_in_play"] = {str(n): figure(p) for n, p in ways.items()}
        out["max_ways"] = top
        out["max_ways_probability"] = figure(ways[top])
    return out


def json_section(a) -> dict:
    section = cascade_section(a)
    out = {"cascades": section}
    if "max_ways" in section:
        out["max_ways"] = section["max_ways"]
    return out


def _law_table(law: dict, column: str) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame([{column: k, "probability": float(p), "probability_exact": str(p)}
                         for k, p in law.items()],
                        columns=[column, "probability", "probability_exact"])


def tables(a) -> list:
    """The rules, the law of the cascades per paid spin and of its final multiplier, what
    the frozen bonus symbols free, the ways in play (a ways game) and the multiplier carried
    into each free spin."""
    import pandas as pd

    law, spec = _law(a), a.game.cascades
    rule = spec.multiplier
    rules = rules_table([
        ("refill", spec.refill),
        ("multiplier", f"ladder {list(rule.ladder)}" if rule.ladder is not None else
         f"start {rule.start}, step {rule.step}, max {rule.max}"),
        ("carried through free spins", "yes" if spec.carry_multiplier else "no"),
    ] + ([("scatters", "every fall: they pay, trigger and go with the winners"
                       + (", x the fall's multiplier" if spec.scatter_multiplied else ""))]
         if spec.scatters == "every_fall" else []))
    expected = sum((k * p for k, p in law.cascade_counts.items()), Fraction(0))
    out = [("Cascades: rules", rules),
           ("Cascades: figures", figure_table([
               figure_row("expected cascades per paid spin", expected),
               figure_row("RTP of the later drops (multiplied)", a.components["cascades"])])),
           ("Cascades: cascades per paid spin", _law_table(law.cascade_counts, "cascades")),
           ("Cascades: final multiplier", _law_table(law.final_multiplier, "multiplier"))]
    if law.freed:
        out.append(("Cascades: bonus symbols freed", pd.DataFrame(
            [{"where": f"reel {r + 1} {e}", "probability": float(p),
              "probability_exact": str(p)} for (r, e), p in law.freed.items()])))
    if a.game.ways:
        out.append(("Cascades: ways in play", _law_table(law.ways_in_play, "ways")))
    carried = carried_multiplier_table(a)
    if carried is not None:
        out.append(("Cascades: multiplier carried into each free spin", carried))
    return out


def summary(a) -> list[tuple[str, str]]:
    law = _law(a)
    expected = sum((k * p for k, p in law.cascade_counts.items()), Fraction(0))
    some = 1 - law.cascade_counts.get(0, Fraction(0))
    return [("cascades per paid spin", f"{float(expected):.4f}"),
            ("paid spins with a cascade", f"{float(some):.6%}")]


def _carried_multiplier(a) -> list | None:
    """Per free spin: P(played | feature), E[carried multiplier | played] (exact figures)."""
    rows = _carried_rows(a)
    if rows is None:
        return None
    return [{"spin": int(r["spin"]), "played": figure(Fraction(r["played_exact"])),
             "mean_index": figure(Fraction(r["mean_index_exact"])),
             "mean_multiplier": figure(Fraction(r["mean_multiplier_exact"]))}
            for r in rows]


def _feature_win(a) -> dict | None:
    """Quantiles of the free-spin feature's win (numerical: drawn from the exact chain), its
    exact mean, and the bound on the sampled CDF."""
    feature = next((f for f in a.round.features if f.name == "free_spins"), None)
    if feature is None:
        return None
    starts = a.round.start_probabilities("free_spins")
    total = sum(starts.values(), Fraction(0))
    if not total:
        return None
    samples = {key: feature.win_samples(key) / feature.free.credits_per_bet for key in starts}
    mix = [(samples[key], p / total) for key, p in starts.items()]
    levels = (50, 90, 99, 99.9)
    values = mixture_quantiles(mix, [Fraction(str(x)) / 100 for x in levels])
    q = {str(x): figure(v) for x, v in zip(levels, values)}
    mean = sum((p * feature.law(k).mean for k, p in starts.items()), Fraction(0)) / total
    return {"mean": figure(mean), "quantiles_x_bet": q, "quantiles_exact": False,
            "method": "drawn from the exact free-spin chain (seeded)",
            "cdf_bound": feature.chain.bound(len(samples[next(iter(starts))]))}


def mixture_quantiles(parts: list, levels: list) -> list[float]:
    """The quantiles at ``levels`` of a mixture of samples: at each level, the least sample
    ``v`` whose mixture CDF reaches it, the CDF being ``sum_k share_k * #(samples_k <= v) /
    n_k`` over the parts ``(samples_k, share_k)`` (each sample of a part weighs ``share_k /
    n_k``), compared exactly (``share_k`` and the levels are fractions). The samples are
    sorted (each part's, and all together) once and the sorted values bisected, instead of
    sorting (sample, weight) pairs and adding up their float weights (Frozen Gems: 19 parts of
    400,000 samples).

    >>> parts = [(np.array([3.0, 1.0]), Fraction(1, 2)), (np.array([2.0]), Fraction(1, 2))]
    >>> mixture_quantiles(parts, [Fraction(1, 2), Fraction(1, 4), Fraction(1)])
    [2.0, 1.0, 3.0]
    """
    ranked = [(np.sort(x), share / len(x)) for x, share in parts if len(x) and share]
    values = np.sort(np.concatenate([x for x, _ in ranked]))

    def reaches(v, level) -> bool:
        return sum((w * int(np.searchsorted(x, v, "right")) for x, w in ranked),
                   Fraction(0)) >= level

    out = []
    for level in levels:
        lo, hi = 0, len(values) - 1  # the answer lies in [lo, hi]: the last value reaches 1
        while lo < hi:
            mid = (lo + hi) // 2
            if reaches(values[mid], level):
                hi = mid
            else:
                lo = mid + 1
        out.append(float(values[lo]))
    return out


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
    import pandas as pd

    rows = _carried_rows(a)
    if rows is None:
        return None
    return pd.DataFrame(rows, columns=["spin", "played", "mean_index", "mean_multiplier",
                                       "played_exact", "mean_index_exact",
                                       "mean_multiplier_exact"])


def _carried_rows(a) -> list[dict] | None:
    """:func:`carried_multiplier_table`'s rows (dicts), without pandas (the JSON reads them)."""
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
    return rows
