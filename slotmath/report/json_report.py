"""The JSON document of ``slotmath analyze --json`` (plain dicts of str / int / float)."""

from __future__ import annotations

from fractions import Fraction


def _exact(value) -> str:
    """Exact number as "p/q" (``str(Fraction)``); an exact sympy number as its text."""
    return str(value)


def _number(value):
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else float(value)


def analysis_dict(a) -> dict:
    """Everything the PAR sheet shows, exact values as "p/q" strings.

    Examples
    --------
    >>> import slotmath
    >>> d = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml")).to_dict()
    >>> sorted(d["components"])
    ['free_spins', 'lines', 'scatter']
    """
    game = a.game
    mw = a.max_win
    out = {
        "name": game.name,
        "bet": game.bet,
        "bet_level": a.level,
        "total_bet": game.total_bet(a.level),
        "rtp": _exact(a.rtp),
        "rtp_float": a.rtp_float,
        "hit_frequency": _exact(a.hit_frequency),
        "hit_frequency_float": float(a.hit_frequency),
        "base_hit_frequency": _exact(a.base_hit_frequency),
        "std": a.std,
        "variance": _exact(a.variance),
        "volatility_index": {"90": a.volatility_index(0.90), "95": a.volatility_index(0.95)},
        "components": {k: _exact(v) for k, v in a.components.items()},
        "components_float": {k: float(v) for k, v in a.components.items()},
        "free_spins": None,
        "max_win": {
            "multiple": _number(mw.multiple),
            "probability": _exact(mw.probability),
            "one_in": mw.one_in,
            "scope": "paid spin",
        },
        "cycle": a.base_table.cycle,
        "credits_per_bet": a.base_table.credits_per_bet,
        "confidence_intervals": [
            {"spins": n, "95": list(a.confidence_interval(n, 0.95)),
             "90": list(a.confidence_interval(n, 0.90))}
            for n in (10**3, 10**4, 10**5, 10**6, 10**7, 10**8)
        ],
        "round_distribution": a.distribution_error,
        "win_sizes": [
            {"band": r.label, "probability": float(r.probability), "rtp_share": float(r.rtp_share)}
            for r in a.win_sizes
        ],
        "pays": a.symbol_table.to_dict(orient="records"),
        "scatters": a.scatter_table.to_dict(orient="records"),
    }
    wheel = game.bonus_wheel
    if wheel is not None:
        out["bonus_wheel"] = {
            "symbol": wheel.symbol,
            "count": wheel.count,
            "per_spin": wheel.per_spin,
            "mean_prize": _exact(wheel.mean),
            "multiplied_in_free_spins": wheel.multiplied,
            "wheel_spins_per_spin": {k: _exact(v) for k, v in a.wheel_spins.items()},
            "rtp": _exact(a.components["bonus_wheel"]),
        }
    fs = a.free_spins
    if fs is not None:
        out["free_spins"] = {
            "trigger_probability": _exact(fs.trigger_probability),
            "expected_spins": _exact(fs.expected_spins),
            "expected_win": _exact(fs.expected_win),
            "rtp": _exact(fs.rtp),
            "spins_distribution_exact": fs.spins_distribution.exact,
            "spins_tail_mass": fs.spins_distribution.tail_mass,
        }
    return out
