"""PAR-sheet tables as pandas DataFrames, built from an :class:`~slotmath.analysis.Analysis`.

Examples
--------
>>> import slotmath
>>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
>>> list(summary_frame(a).columns), len(symbol_table(a)) > 0
(['figure', 'value'], True)
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd


def _one_in(p) -> float:
    return float("inf") if not p else 1 / float(p)


def symbol_table(analysis) -> pd.DataFrame:
    """Per pay-table entry and count: hits per cycle, hits per spin, pay and RTP contribution.

    For lines games ``hits`` adds up over the paylines (a spin paying on two lines counts
    twice), so ``hits_per_spin`` can exceed 1 and ``one_in`` is spins per hit. Rows are split
    by the credits paid, so a multiplier wild's x2 and x4 wins of the same entry are separate
    rows. For ways games ``hits`` counts stop combinations (``hits_per_spin`` is then a
    probability), ``ways`` is the summed number of ways and ``pay_x_bet`` is the pay per way.
    ``rtp_exact`` is the exact contribution as "p/q"; the contributions add up to the lines
    or ways component exactly.
    """
    if analysis.game.cascades is not None:
        from slotmath.report.cascades import cascade_symbol_table

        return cascade_symbol_table(analysis)
    d = analysis.direct
    cpb = d.credits_per_bet
    rows = []
    for p in d.pays:
        contribution = Fraction(p.total_credits, d.cycle * cpb)
        row = {
            "symbol": p.key,
            "count": p.count,
            "pay_x_bet": float(Fraction(p.credits, cpb)),
            "hits": p.hits,
            "hits_per_spin": p.hits / d.cycle,
            "one_in": _one_in(Fraction(p.hits, d.cycle)),
            "rtp": float(contribution),
            "rtp_exact": str(contribution),
        }
        if d.kind == "ways":
            row["ways"] = p.ways
        rows.append(row)
    columns = ["symbol", "count", "pay_x_bet", "hits"] + (["ways"] if d.kind == "ways" else [])
    columns += ["hits_per_spin", "one_in", "rtp", "rtp_exact"]
    return pd.DataFrame(rows, columns=columns)


def scatter_table(analysis) -> pd.DataFrame:
    """Per scatter symbol and count anywhere in the window: weight, probability, pay, spins."""
    if analysis.game.cascades is not None:
        from slotmath.report.cascades import cascade_scatter_table

        return cascade_scatter_table(analysis)
    d = analysis.direct
    game = analysis.game
    fs = game.free_spins
    cpb = d.credits_per_bet
    rows = []
    for name, counts in d.scatter_counts.items():
        for c in sorted(counts):
            w = counts[c]
            credits = d.scatter_credits[name][c]
            rows.append({
                "symbol": name,
                "count": c,
                "weight": w,
                "probability": w / d.cycle,
                "one_in": _one_in(Fraction(w, d.cycle)),
                "pay_x_bet": float(Fraction(credits, cpb)),
                "free_spins": fs.award_for(c) if fs is not None and fs.trigger == name else 0,
                "rtp": float(Fraction(w * credits, d.cycle * cpb)),
            })
    return pd.DataFrame(rows, columns=["symbol", "count", "weight", "probability", "one_in",
                                       "pay_x_bet", "free_spins", "rtp"])


def win_size_frame(analysis) -> pd.DataFrame:
    """Probability and RTP share of each band of round wins (multiples of the total bet)."""
    rows = [{"band": r.label, "probability": float(r.probability), "one_in": r.one_in,
             "rtp_share": float(r.rtp_share)} for r in analysis.win_sizes]
    return pd.DataFrame(rows, columns=["band", "probability", "one_in", "rtp_share"])


def confidence_frame(analysis, spins=(10**3, 10**4, 10**5, 10**6, 10**7, 10**8)) -> pd.DataFrame:
    """90 % and 95 % intervals of the RTP measured over N paid rounds, in total bets.

    From the law of the mean of N rounds where the round's distribution is known, so never
    below 0; otherwise the normal approximation cut at 0
    (:func:`slotmath.stats.interval.rtp_intervals`). ``attrs["method"]`` says which, and why.
    """
    from slotmath.stats.interval import rtp_intervals

    found = rtp_intervals(analysis, spins, (0.90, 0.95))
    rows = []
    for n in spins:
        i90, i95 = found[n, 0.90], found[n, 0.95]
        rows.append({"spins": n, "lower_90": i90.lower, "upper_90": i90.upper,
                     "lower_95": i95.lower, "upper_95": i95.upper})
    frame = pd.DataFrame(rows)
    frame.attrs["method"] = found[spins[0], 0.95].method
    frame.attrs["resolution"] = max(i.resolution for i in found.values())
    return frame


def summary_frame(analysis) -> pd.DataFrame:
    """The headline figures as one two-column table (figure, value)."""
    a = analysis
    mw = a.top_award
    if a.exact:
        items = [("RTP", f"{a.rtp_float:.6%}  ({a.rtp})")]
    else:
        items = [("RTP", f"{a.rtp_float:.6%}  (numerical, error <= {a.rtp_error:.1e})")]
    for name, value in a.components.items():
        items.append((f"  {name}", f"{float(value):.6%}"))
    if a.jackpots is not None or a.cap is not None:
        items.append(("coin round RTP (wheel all coins, no cap)", f"{float(a.round.mean):.6%}"))
    items += [
        ("hit frequency", f"{float(a.hit_frequency):.6%}  (1 in {_one_in(a.hit_frequency):.3f})"),
        ("base-spin hit frequency", f"{float(a.base_hit_frequency):.6%}"),
        ("SD (x bet)", f"{a.std:.4f}"),
        *([("SD with jackpots (x bet, approx.)", f"{a.std_total:.4f}")]
          if a.jackpots is not None else []),
        ("volatility index 90%", f"{a.volatility_index(0.90):.4f}"),
        ("volatility index 95%", f"{a.volatility_index(0.95):.4f}"),
        ("max win (x bet)", f"{float(mw.multiple):g}  (1 in {mw.one_in:,.0f})"),
        ("full cycle", f"{a.base_table.cycle:,}"),
    ]
    fs = a.free_spins
    if fs is not None and not fs.trigger_probability:
        items.append(("free spins: trigger", "never (the trigger cannot show on these reels)"))
    elif fs is not None:
        items += [
            ("free spins: trigger", (f"{float(fs.trigger_probability):.6%}  "
                                    f"(1 in {_one_in(fs.trigger_probability):.1f})")),
            ("free spins: spins per feature", f"{float(fs.expected_spins):.4f}"),
            ("free spins: win per feature (x bet)", f"{float(fs.expected_win):.4f}"),
        ]
    cap = a.cap
    if cap is not None:
        items += [
            ("max win cap (x bet)", f"{float(cap.cap_bets):g}  ({float(cap.cap_coins):g} coins)"),
            ("max win cap: RTP removed", f"{float(cap.effect):.3e}"),
            ("max win cap: rounds capped", f"{float(cap.probability):.3e}"),
        ]
    return pd.DataFrame(items, columns=["figure", "value"])


def pool_figures(analysis) -> dict[str, dict]:
    """Per progressive jackpot: the figures a PAR sheet shows (plain floats; empty without)."""
    j = analysis.jackpots
    if j is None:
        return {}
    out = {}
    for name, p in j.pools.items():
        out[name] = {
            "seed": float(p.pool.seed),
            "contribution": float(p.pool.contribution),
            "reserve_fraction": float(p.pool.reserve_fraction),
            "law": repr(p.pool.law),
            "rtp": p.rtp_contribution,
            "rtp_error": p.error_bounds["rtp_contribution"],
            "contribution_rtp": float(p.contribution_rtp),
            "seed_rtp": p.seed_rtp,
            "one_in_rounds": p.mean_rounds_between_hits,
            # the same "1 in N", in paid spins (a paid spin and its free spins are a round)
            "one_in_spins": p.mean_rounds_between_hits,
            "hits_per_round": p.hits_per_round,
            "hit_probability_per_wheel_spin": p.expected_hit_probability_per_spin,
            "mean_value_at_hit": p.hit_value_mean,
            "mean_value_at_hit_bets": p.hit_value_mean / float(j.bet_value),
            "mean_pool": p.mean_pool,
            "mean_restart_value": p.mean_restart_value,
        }
    return out


def jackpot_frame(analysis) -> pd.DataFrame:
    """One row per progressive jackpot: its rules and long-run figures (empty without)."""
    j = analysis.jackpots
    if j is None:
        return pd.DataFrame()
    rows = []
    for name, f in pool_figures(analysis).items():
        rows.append({
            "jackpot": name,
            "seed": f["seed"],
            "contribution": f["contribution"],
            "rtp": f["rtp"],
            "seed_rtp": f["seed_rtp"],
            "one_in_rounds": f["one_in_rounds"],
            "p_per_wheel_spin": f["hit_probability_per_wheel_spin"],
            "mean_value_at_hit": f["mean_value_at_hit"],
            "mean_value_x_bet": f["mean_value_at_hit_bets"],
            "mean_pool": f["mean_pool"],
        })
    return pd.DataFrame(rows)


__all__ = ["confidence_frame", "jackpot_frame", "pool_figures", "scatter_table", "summary_frame",
           "symbol_table", "win_size_frame"]
