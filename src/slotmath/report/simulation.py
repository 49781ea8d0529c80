"""A simulation's results as JSON and as text (what ``slotmath simulate`` prints).

The document has the same shape for every game (:func:`slotmath.simulate.simulate`'s one
result type): the RTP, its standard error, the hit frequency, the SD, the components by
feature name and each round feature's trigger rate; each declared feature with a
``simulation`` hook adds its own details (a cap's capped rounds, each jackpot pool's hits).
"""

from __future__ import annotations

import math

from slotmath.features.base import hook

__all__ = ["finite", "simulation_dict", "simulation_text"]


def finite(value: float) -> float | None:
    """JSON has no infinity or NaN: ``None`` for them."""
    return value if math.isfinite(value) else None


def _declared(game):
    from slotmath.features.registry import declared

    return declared(game)


def simulation_dict(result, game) -> dict:
    """The figures of a :class:`~slotmath.simulate.SimulationResult` as plain JSON values
    (money in total bets unless the key says currency).

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.load_game("data/games/tiny_lines.toml")
    >>> d = simulation_dict(slotmath.simulate(game, 1000, seed=1), game)
    >>> d["spins"], sorted(d["components"]), sorted(d["trigger_rates"])
    (1000, ['free_spins', 'pays'], ['free_spins'])
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
        "hit_frequency": finite(result.hit_frequency),
        "std": finite(result.std),
        "components": dict(result.components),
        "trigger_rates": dict(result.trigger_rates),
        "trigger_rate": finite(result.trigger_rate),
        "spins_per_feature": finite(result.spins_per_feature),
    }
    if game.coin_value is not None:
        out["currency"] = game.currency
        out["bet_value"] = float(game.bet_value(level))
    for f in _declared(game):
        section = hook(f, "simulation")
        if section is not None:
            out |= section(result, game)
    return out


def simulation_text(result, game) -> str:
    """A simulation's headline figures, its components and each feature's details, as
    lines of text. Intervals are 95% (1.96 standard errors)."""
    level = result.level
    lines = [
        f"{game.name}: {result.spins:,} rounds, seed {result.seed}, level {level}",
        f"RTP            {result.rtp:.6%}  +/- {1.96 * result.std_error:.6%} (95%)",
        f"hit frequency  {result.hit_frequency:.6%}",
        f"SD (x bet)     {result.std:.4f}",
    ]
    if result.batches:
        lines.append(f"               (error by batch means over {result.batches} blocks of "
                     "rounds: a state carries over between rounds)")
    for name, value in result.components.items():
        lines.append(f"  {name:<16s} {value:.6%}")
    for name, rate in result.trigger_rates.items():
        lines.append(f"{name} started in {rate:.6%} of rounds"
                     + (f" (1 in {1 / rate:,.1f})" if rate else ""))
    for f in _declared(game):
        text = hook(f, "simulation_text")
        if text is not None:
            lines += text(result, game)
    return "\n".join(lines)
