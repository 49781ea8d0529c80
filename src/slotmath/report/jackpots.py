"""Progressive jackpots in the PAR reports: the JSON section, the pool figures and tables, the
component errors and the compliance check's entries and disclosure
(``analysis.features["jackpots"]``, :class:`slotmath.features.jackpots.JackpotFigures`)."""

from __future__ import annotations

import math
from fractions import Fraction

import pandas as pd

from slotmath.report.figures import EXACT, ROUNDOFF, figure, figure_row, figure_table

__all__ = ["disclosure", "entries", "errors", "jackpot_frame", "json_section", "law_words",
           "pool_figures", "simulation", "simulation_text", "summary", "tables"]

#: pool_figures' keys that are figures (the others are the pool's rules, "1 in N" readings and
#: error bounds: plain numbers)
POOL_FIGURES = ("rtp", "contribution_rtp", "seed_rtp", "hits_per_round",
                "hit_probability_per_wheel_spin", "mean_value_at_hit", "mean_value_at_hit_bets",
                "mean_pool", "mean_restart_value")


def pool_figures(analysis) -> dict[str, dict]:
    """Per progressive jackpot: the figures a PAR sheet shows (plain floats; empty without)."""
    if "jackpots" not in analysis.features:
        return {}
    j = analysis.features["jackpots"]
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


def json_section(a) -> dict:
    j = a.features["jackpots"]
    out = {
        "rtp": figure(float(j.rtp)),
        "coin_prizes_replaced": figure(float(j.coin_loss)),
        "error": j.error,
        "wheel_spins_per_round": figure(j.mean_chances),
        "wheel_spins_per_round_float": float(j.mean_chances),
        "wheel_spins_law": {str(k): figure(float(p)) for k, p in sorted(j.chances.items())},
        "wheel_spins_law_error": j.chances_error,
        "coin_division_probability": figure(float(j.coin_probability)),
        "hits_one_in_rounds": 1 / j.hits_per_round if j.hits_per_round else None,
        "pools": {name: {k: figure(float(v)) if k in POOL_FIGURES else v
                         for k, v in pool.items()}
                  for name, pool in pool_figures(a).items()},
        "method": "renewal model of each pool (slotmath.markov.jackpot), numerical; pool "
                  "fed by play at this bet level only",
    }
    if not j.reachable:
        out["note"] = ("no round can spin the bonus wheel on these reels: no jackpot is ever "
                       "hit, and they are reported as zero")
    return {"jackpots": out}


def errors(a) -> dict[str, float]:
    """Error bounds of the components the pools make numerical: the jackpots' payout, and
    their driver's coin prizes (replaced by hits)."""
    j = a.features["jackpots"]
    pools = sum(p.error_bounds["rtp_contribution"] for p in j.pools.values())
    return {"jackpots": pools + ROUNDOFF, "bonus_wheel": (j.error - pools) + ROUNDOFF}


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


def law_words(law) -> str:
    """A pool's hit law (:class:`slotmath.markov.jackpot.LinearLaw`, ...) in plain words
    (:meth:`slotmath.model.hit_laws.HitLaw.in_words`), as the PAR tables show it.

    Examples
    --------
    >>> from slotmath.markov.jackpot import hit_law
    >>> law_words(hit_law("linear", {"rate": 8.1346e-07}))
    'pool x 8.1346e-07 per wheel spin, at most 1'
    """
    return law.definition.in_words(law.parameters)


def tables(a) -> list:
    j = a.features["jackpots"]
    if not j.reachable:
        return [("Jackpots", figure_table([
            figure_row(f"{spec.name}: RTP contribution", Fraction(0),
                       method="never hit: no round can spin the bonus wheel on these reels")
            for spec in a.game.jackpots]))]
    game = a.game
    out = [((f"Jackpots: overview (currency {game.currency or 'units'}, bet "
            f"{float(game.bet_value(a.level)):g})"), jackpot_frame(a))]
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
        rows.append({"figure": f"hit law ({p.pool.law.definition.name}, at this bet level)",
                     "value": None, "exact": "", "error": None,
                     "method": law_words(p.pool.law)})
        out.append((f"Jackpot {name}", figure_table(rows)))
    return out


def summary(a) -> list[tuple[str, str]]:
    j = a.features["jackpots"]
    if not j.reachable:
        return [("jackpots", "never hit: no round can spin the bonus wheel on these reels")]
    return [(f"jackpot {name}", (f"{p.rtp_contribution:.6%} RTP, 1 in "
             f"{p.mean_rounds_between_hits:,.0f} rounds")) for name, p in j.pools.items()]


def entries(a) -> dict[str, tuple]:
    """GLI-11's entries: each jackpot's hits per game (numerical, with its error)."""
    j = a.features["jackpots"]
    out = {}
    for spec in a.game.jackpots:
        pool = j.pools.get(spec.name)
        subject = f"jackpot {spec.name}"
        if pool is None:
            out[subject] = (0.0, 0.0, "no game can spin the bonus wheel, so it is never hit")
        else:
            out[subject] = (pool.hits_per_round, j.hits_error(pool),
                            "numerical (renewal model of the pool)")
    return out


def disclosure(a) -> list[tuple[str, str, float | None, bool, str]]:
    """ANZ's progressive disclosure, per jackpot: (subject, figure, value, passed, note)."""
    j, game = a.features["jackpots"], a.game
    currency = f" {game.currency}" if game.currency else ""
    rows = []
    for spec in game.jackpots:
        pool = j.pools.get(spec.name)
        value = None if pool is None else pool.hit_value_mean
        text = (f"reset {float(spec.seed):,g}{currency}, increment "
                f"{float(spec.contribution):.3%} of bet, expected hit value "
                + ("never" if value is None else f"{value:,.2f}{currency}"))
        passed = value is not None and math.isfinite(value)
        note = ("never hit: no game can spin the bonus wheel" if value is None
                else f"hit value numerical, error <= "
                     f"{pool.error_bounds.get('hit_value_mean', 0.0):.1e}")
        rows.append((f"jackpot {spec.name}", text, value, passed, note))
    return rows


def simulation(result, game) -> dict:
    """Each pool in a simulation's document: its hits, "1 in N rounds" (None if never hit),
    mean value at a hit (currency) and RTP share, each with its standard error."""
    from slotmath.report.simulation import finite

    pools = {}
    for pool in result.jackpots:
        pools[pool.name] = {
            "hits": pool.hits,
            "hits_per_round": pool.hits_per_round,
            "hits_per_round_std_error": pool.hits_per_round_std_error,
            "one_in": finite(pool.one_in),
            "mean_value": pool.mean_value,
            "mean_value_std_error": pool.mean_value_std_error,
            "rtp": pool.rtp,
            "rtp_std_error": pool.rtp_std_error,
            "hits_per_block": pool.hits_per_block,
            "final_pool": pool.final_pool,
            "final_reserve": pool.final_reserve,
        }
    return {"jackpot_rtp": result.jackpot_rtp, "jackpots": pools}


def simulation_text(result, game) -> list[str]:
    currency = game.currency or "currency"
    bet = float(game.bet_value(result.level))
    lines = [f"jackpots       RTP {result.jackpot_rtp:.6%} (bet {bet:,.6g} {currency})",
             (f"  {'pool':<12s} {'hits':>10s} {'1 in':>12s} {'mean value':>14s} "
             f"{'RTP':>11s} {'+/- (95%)':>11s}")]
    for pool in result.jackpots:
        one_in = f"{pool.one_in:,.1f}" if pool.hits else "never"
        lines.append(f"  {pool.name:<12s} {pool.hits:>10,} {one_in:>12s} "
                     f"{pool.mean_value:>10,.2f} {currency:<3s} {pool.rtp:>11.4%} "
                     f"{1.96 * pool.rtp_std_error:>11.4%}")
    thin = [p.name for p in result.jackpots if p.hits_per_block < 30]
    if thin:
        lines.append(f"  note: {', '.join(thin)} hit fewer than 30 times a block: run more "
                     "rounds before trusting the standard errors")
    return lines
