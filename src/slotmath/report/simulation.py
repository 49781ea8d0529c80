"""A simulation's results as JSON and as text (what ``slotmath simulate`` prints)."""

from __future__ import annotations

import math


def _finite(value: float) -> float | None:
    """JSON has no infinity: ``None`` for it."""
    return value if math.isfinite(value) else None


def simulation_dict(result, game) -> dict:
    """The figures of a :class:`~slotmath.simulate.SimulationResult` as plain JSON values.

    Money is in total bets (RTP parts) unless the key says currency; ``jackpots`` maps each
    pool to its hits, "1 in N rounds" (``None`` if never hit), mean value at a hit
    (currency) and RTP share, each with its standard error.

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.load_game("data/games/tiny_lines.toml")
    >>> d = simulation_dict(slotmath.simulate(game, 1000, seed=1), game)
    >>> d["spins"], d["jackpots"], d["capped_rounds"]
    (1000, {}, 0)
    """
    level = result.level
    out = {
        "name": game.name,
        "spins": result.spins,
        "seed": result.seed,
        "bet_level": level,
        "total_bet": game.total_bet(level),
        "rtp": result.rtp,
        "std_error": result.std_error,
        "std_error_batches": result.batches,
        "hit_frequency": result.hit_frequency,
        "std": result.std,
        "components": {
            "base": result.base,
            "free_spins": result.free_spins,
            "bonus_wheel": result.bonus_wheel,
            "max_win_cap": result.max_win_cap,
            "jackpots": result.jackpot_rtp,
        },
        "trigger_rate": result.trigger_rate,
        "spins_per_feature": result.spins_per_feature,
        "max_win_cap": result.max_win_cap,
        "max_win_cap_std_error": result.max_win_cap_std_error,
        "capped_rounds": result.capped_rounds,
        "cap_coins": None,
        "jackpot_rtp": result.jackpot_rtp,
        "jackpots": {},
    }
    cap = game.cap_coins(level)
    if cap is not None:
        out["cap_coins"] = float(cap)
        out["cap_bets"] = float(cap / game.total_bet(level))
    if game.coin_value is not None:
        out["currency"] = game.currency
        out["bet_value"] = float(game.bet_value(level))
    for pool in result.jackpots:
        out["jackpots"][pool.name] = {
            "hits": pool.hits,
            "hits_per_round": pool.hits_per_round,
            "hits_per_round_std_error": pool.hits_per_round_std_error,
            "one_in": _finite(pool.one_in),
            "mean_value": pool.mean_value,
            "mean_value_std_error": pool.mean_value_std_error,
            "rtp": pool.rtp,
            "rtp_std_error": pool.rtp_std_error,
            "hits_per_block": pool.hits_per_block,
            "final_pool": pool.final_pool,
            "final_reserve": pool.final_reserve,
        }
    return out


def simulation_text(result, game) -> str:
    """A simulation's headline figures, its cap and its jackpots, as lines of text.

    Intervals are 95% (1.96 standard errors).
    """
    level = result.level
    lines = [
        f"{game.name}: {result.spins:,} rounds, seed {result.seed}, level {level}",
        f"RTP            {result.rtp:.6%}  +/- {1.96 * result.std_error:.6%} (95%)",
        f"hit frequency  {result.hit_frequency:.6%}",
        f"SD (x bet)     {result.std:.4f}",
    ]
    if result.batches:
        lines.append(f"               (error by batch means over {result.batches} blocks of "
                     "rounds: the pools carry over)")
    cap = game.cap_coins(level)
    if cap is not None:
        bets = cap / game.total_bet(level)
        one_in = (f", 1 in {result.spins / result.capped_rounds:,.0f} rounds"
                  if result.capped_rounds else "")
        lines.append(f"max-win cap    {float(bets):,.6g} x bet: {result.capped_rounds:,} rounds "
                     f"capped{one_in}, RTP {result.max_win_cap:+.6%} "
                     f"+/- {1.96 * result.max_win_cap_std_error:.6%}")
    if result.jackpots:
        currency = game.currency or "currency"
        bet = float(game.bet_value(level))
        lines.append(f"jackpots       RTP {result.jackpot_rtp:.6%} (bet {bet:,.6g} {currency})")
        head = (f"  {'pool':<12s} {'hits':>10s} {'1 in':>12s} {'mean value':>14s} "
                f"{'RTP':>11s} {'+/- (95%)':>11s}")
        lines.append(head)
        for pool in result.jackpots:
            one_in = f"{pool.one_in:,.1f}" if pool.hits else "never"
            lines.append(f"  {pool.name:<12s} {pool.hits:>10,} {one_in:>12s} "
                         f"{pool.mean_value:>10,.2f} {currency:<3s} {pool.rtp:>11.4%} "
                         f"{1.96 * pool.rtp_std_error:>11.4%}")
        thin = [p.name for p in result.jackpots if p.hits_per_block < 30]
        if thin:
            lines.append(f"  note: {', '.join(thin)} hit fewer than 30 times a block: run more "
                         "rounds before trusting the standard errors")
    return "\n".join(lines)
