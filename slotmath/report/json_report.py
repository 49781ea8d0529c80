"""The JSON document of ``slotmath analyze --json`` (plain dicts of str / int / float)."""

from __future__ import annotations

from fractions import Fraction

from slotmath.report.tables import pool_figures, scatter_table, symbol_table


def _exact(value) -> str:
    """Exact number as "p/q" (``str(Fraction)``); an exact sympy number as its text."""
    return str(value)


def _number(value):
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else float(value)


def distribution_notes(a) -> dict:
    """How the round distribution was computed and its error bounds (probability mass)."""
    if a.distribution_exact:
        return {"method": "exact full-cycle enumeration", "exact": True}
    n = a.distribution
    return {
        "method": "FFT over the free-spins chain, convolved with the exact base spin",
        "exact": False,
        "aliased_mass_bound": n.aliased_mass_bound,
        "dropped_mass": n.dropped_mass,
        "noise_floor": n.noise_floor,
        "mean_error": abs(n.mean_bets - float(a.round.mean)),  # against its own exact mean
    }


def analysis_dict(a) -> dict:
    """Everything the PAR sheet shows, exact values as "p/q" strings.

    Examples
    --------
    >>> import slotmath
    >>> d = analysis_dict(slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml")))
    >>> sorted(d["components"])
    ['free_spins', 'lines', 'scatter']
    """
    game = a.game
    mw = a.top_award
    out = {
        "name": game.name,
        "bet": game.bet,
        "bet_level": a.level,
        "total_bet": game.total_bet(a.level),
        "rtp": _exact(a.rtp) if a.exact else a.rtp_float,
        "rtp_float": a.rtp_float,
        "rtp_exact": a.exact,
        "rtp_error": a.rtp_error,
        "hit_frequency": _exact(a.hit_frequency),
        "hit_frequency_float": float(a.hit_frequency),
        "base_hit_frequency": _exact(a.base_hit_frequency),
        "std": a.std,
        "std_with_jackpots": a.std_total,
        "variance": _exact(a.variance),
        "volatility_index": {"90": a.volatility_index(0.90), "95": a.volatility_index(0.95)},
        "components": {k: _exact(v) if isinstance(v, (int, Fraction)) else float(v)
                       for k, v in a.components.items()},
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
        "round_distribution": distribution_notes(a),
        "win_sizes": [
            {"band": r.label, "probability": float(r.probability), "rtp_share": float(r.rtp_share)}
            for r in a.win_sizes
        ],
        "pays": symbol_table(a).to_dict(orient="records"),
        "scatters": scatter_table(a).to_dict(orient="records"),
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
            "rtp": (_exact(a.components["bonus_wheel"]) if not game.jackpots
                    else float(a.components["bonus_wheel"])),
            "divisions": [
                {"division": r["division"], "kind": r["kind"],
                 "prize": None if r["prize"] is None else _number(r["prize"]),
                 "probability": (_exact(r["probability"]) if isinstance(r["probability"], Fraction)
                                 else r["probability"])}
                for r in a.wheel_outcomes()
            ],
        }
        if game.jackpots:
            out["bonus_wheel"]["divisions_note"] = (
                "jackpot divisions at their stationary chance per wheel spin; their chance at "
                "given pools: Analysis.wheel_outcomes(pools)")
    if game.coin_value is not None:
        out["coin_value"] = _number(game.coin_value)
        out["currency"] = game.currency
        out["bet_value"] = _number(game.bet_value(a.level))
    if a.jackpots is not None or a.cap is not None:
        out["coin_round"] = {
            "rtp": _exact(a.round.mean),
            "rtp_float": float(a.round.mean),
            "meaning": "paid round with every wheel spin paying coins and no cap (exact); the "
                       "hit frequency, SD, distribution and win sizes are of this round",
        }
    j = a.jackpots
    if j is not None:
        out["jackpots"] = {
            "rtp": j.rtp,
            "coin_prizes_replaced": j.coin_loss,
            "error": j.error,
            "wheel_spins_per_round": _exact(j.mean_chances),
            "wheel_spins_per_round_float": float(j.mean_chances),
            "wheel_spins_law": {str(k): p for k, p in sorted(j.chances.items())},
            "wheel_spins_law_error": j.chances_error,
            "coin_division_probability": j.coin_probability,
            "hits_one_in_rounds": 1 / j.hits_per_round if j.hits_per_round else None,
            "pools": pool_figures(a),
            "method": "renewal model of each pool (slotmath.markov.jackpot), numerical; pool "
                      "fed by play at this bet level only",
        }
        if not j.reachable:
            out["jackpots"]["note"] = ("no round can spin the bonus wheel on these reels: no "
                                       "jackpot is ever hit, and they are reported as zero")
    cap = a.cap
    if cap is not None:
        out["max_win_cap"] = {
            "cap_coins": _number(cap.cap_coins),
            "cap_bets": _number(cap.cap_bets),
            "cap_currency": (_number(cap.cap_coins * game.coin_value)
                             if game.coin_value is not None else None),
            "rtp_effect": 0.0 - float(cap.effect),  # (no "-0.0")
            "rtp_effect_exact": _exact(-cap.effect) if cap.exact else None,
            "probability_capped": float(cap.probability),
            "exact": cap.exact,
            "error": cap.error,
            "resolution": cap.resolution,
            "scope": "coin win of a paid round (base spin, its free spins, wheel coin prizes); "
                     "jackpots are paid outside the cap",
        }
    if a.hold_and_win is not None:
        from slotmath.report.hold_and_win_json import hold_and_win_section, top_award
        out["hold_and_win"] = hold_and_win_section(a)
        if game.hold_and_win.top_award is not None:
            out["max_win"] = top_award(a)
    fs = a.free_spins
    if fs is not None:
        out["free_spins"] = {
            "trigger_probability": _exact(fs.trigger_probability),
            "expected_spins": _exact(fs.expected_spins),
            "expected_win": _exact(fs.expected_win),
            "rtp": _exact(fs.rtp),
            "spins_distribution_exact": (True if fs.spins_distribution is None
                                         else fs.spins_distribution.exact),
            "spins_tail_mass": (0.0 if fs.spins_distribution is None
                                else fs.spins_distribution.tail_mass),
        }
        if not fs.trigger_probability:
            out["free_spins"]["note"] = ("the trigger can never occur on these reels: the "
                                         "feature is reported as zero")
    return out
