"""The JSON document of ``slotmath analyze --json`` (plain dicts of str / int / float)."""

from __future__ import annotations

from fractions import Fraction

from slotmath.report.dead_pays import dead_pays
from slotmath.report.figures import figure
from slotmath.report.tables import confidence_frame, pool_figures, scatter_table, symbol_table

#: pool_figures' keys that are figures (the others are the pool's rules, "1 in N" readings and
#: error bounds: plain numbers)
POOL_FIGURES = ("rtp", "contribution_rtp", "seed_rtp", "hits_per_round",
                "hit_probability_per_wheel_spin", "mean_value_at_hit", "mean_value_at_hit_bets",
                "mean_pool", "mean_restart_value")


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
    out = {
        "method": "FFT over the free-spins chain, convolved with the exact base spin",
        "exact": False,
        "aliased_mass_bound": n.aliased_mass_bound,
        "dropped_mass": n.dropped_mass,
        "noise_floor": n.noise_floor,
        "mean_error": abs(n.mean_bets - float(a.round.mean)),  # against its own exact mean
    }
    rounding = getattr(n, "rounding_bets", 0.0)
    if rounding:  # wins moved to a coarser grid than their exact one (past MAX_GRID points)
        out["win_rounding_bets"] = rounding
    return out


def analysis_dict(a) -> dict:
    """Everything the PAR sheet shows; every figure in one shape, :func:`figure`.

    A figure is ``{"exact": "p/q" or None, "float": x}`` (docs/game-format.md, "The JSON
    document"); counts, the game's own parameters, "1 in N" readings, error bounds and the
    ``*_float`` copies kept for older readers are plain numbers.

    Examples
    --------
    >>> import slotmath
    >>> d = analysis_dict(slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml")))
    >>> sorted(d["components"])
    ['free_spins', 'lines', 'scatter']
    >>> d["rtp"]
    {'exact': '411/448', 'float': 0.9174107142857143}
    """
    game = a.game
    if game.conveyor is not None:  # persistent state: slotmath.report.conveyor
        from slotmath.report.conveyor import conveyor_analysis_dict
        return conveyor_analysis_dict(a) | {"dead_pays": dead_pays(a)}
    mw = a.top_award
    intervals = confidence_frame(a)
    out = {
        "name": game.name,
        "bet": game.bet,
        "bet_level": a.level,
        "total_bet": game.total_bet(a.level),
        "rtp": figure(a.rtp) if a.exact else figure(a.rtp_float),
        "rtp_float": a.rtp_float,
        "rtp_exact": a.exact,
        "rtp_error": a.rtp_error,
        "hit_frequency": figure(a.hit_frequency),
        "hit_frequency_float": float(a.hit_frequency),
        "base_hit_frequency": figure(a.base_hit_frequency),
        "std": figure(float(a.std)),
        "std_with_jackpots": figure(float(a.std_total)),
        "variance": figure(a.variance),
        "volatility_index": {"90": figure(float(a.volatility_index(0.90))),
                             "95": figure(float(a.volatility_index(0.95)))},
        "components": {k: figure(v) for k, v in a.components.items()},
        "components_float": {k: float(v) for k, v in a.components.items()},
        "free_spins": None,
        "max_win": {
            "multiple": figure(Fraction(mw.multiple)),
            "probability": figure(mw.probability),
            "one_in": mw.one_in,
            "scope": "paid spin",
        },
        "cycle": a.base_table.cycle,
        "credits_per_bet": a.base_table.credits_per_bet,
        "confidence_intervals": [
            {"spins": int(r.spins), "95": [r.lower_95, r.upper_95], "90": [r.lower_90, r.upper_90]}
            for r in intervals.itertuples()
        ],
        "confidence_intervals_method": intervals.attrs["method"],
        "round_distribution": distribution_notes(a),
        "win_sizes": [
            {"band": r.label, "probability": figure(r.probability),
             "rtp_share": figure(r.rtp_share)}
            for r in a.win_sizes
        ],
        "pays": _pay_records(a),
        "scatters": _scatter_records(a),
        "dead_pays": dead_pays(a),  # pay-table entries no outcome shows (report.dead_pays)
    }
    if game.cascades is not None:
        from slotmath.report.cascades import cascade_section

        out["cascades"] = cascade_section(a)
        out["max_ways"] = out["cascades"]["max_ways"]
    wheel = game.bonus_wheel
    if wheel is not None:
        out["bonus_wheel"] = {
            "symbol": wheel.symbol,
            "count": wheel.count,
            "per_spin": wheel.per_spin,
            "mean_prize": figure(wheel.mean),
            "multiplied_in_free_spins": wheel.multiplied,
            "wheel_spins_per_spin": {k: figure(v) for k, v in a.wheel_spins.items()},
            "rtp": (figure(a.components["bonus_wheel"]) if not game.jackpots
                    else figure(float(a.components["bonus_wheel"]))),
            "divisions": [
                {"division": r["division"], "kind": r["kind"],
                 "prize": None if r["prize"] is None else figure(Fraction(r["prize"])),
                 "probability": figure(r["probability"])}
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
            "rtp": figure(a.round.mean),
            "rtp_float": float(a.round.mean),
            "meaning": "paid round with every wheel spin paying coins and no cap (exact); the "
                       "hit frequency, SD, distribution and win sizes are of this round",
        }
    j = a.jackpots
    if j is not None:
        out["jackpots"] = {
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
            out["jackpots"]["note"] = ("no round can spin the bonus wheel on these reels: no "
                                       "jackpot is ever hit, and they are reported as zero")
    cap = a.cap
    if cap is not None:
        out["max_win_cap"] = {
            "cap_coins": _number(cap.cap_coins),
            "cap_bets": _number(cap.cap_bets),
            "cap_currency": (_number(cap.cap_coins * game.coin_value)
                             if game.coin_value is not None else None),
            "rtp_effect": figure(-cap.effect if cap.exact else -float(cap.effect)),
            "rtp_effect_exact": _exact(-cap.effect) if cap.exact else None,
            "probability_capped": figure(cap.probability if cap.exact
                                         else float(cap.probability)),
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
    if a.modifiers:
        from slotmath.report.hold_and_win_json import modifiers_section
        out["modifiers"] = modifiers_section(a)
    fs = a.free_spins
    if fs is not None:
        out["free_spins"] = {
            "trigger_probability": figure(fs.trigger_probability),
            "expected_spins": figure(fs.expected_spins),
            "expected_win": figure(fs.expected_win),
            "rtp": figure(fs.rtp),
            "max_spins": game.free_spins.max_spins,
            "spins_distribution_exact": (True if fs.spins_distribution is None
                                         else fs.spins_distribution.exact),
            "spins_tail_mass": (0.0 if fs.spins_distribution is None
                                else fs.spins_distribution.tail_mass),
        }
        if not fs.trigger_probability:
            out["free_spins"]["note"] = ("the trigger can never occur on these reels: the "
                                         "feature is reported as zero")
    return out


def _pay_records(a) -> list[dict]:
    """The pay table's rows, their hits per spin and RTP as figures (``rtp_exact`` kept)."""
    rows = symbol_table(a).to_dict(orient="records")
    if a.game.cascades is not None:  # every drop of the chain; hits are not counted
        for row in rows:
            row["rtp"] = figure(Fraction(row["rtp_exact"]))
        return rows
    cycle = a.direct.cycle
    for row in rows:
        row["hits_per_spin"] = figure(Fraction(row["hits"], cycle))
        row["rtp"] = figure(Fraction(row["rtp_exact"]))
    return rows


def _scatter_records(a) -> list[dict]:
    """The scatter table's rows, their probability and RTP as figures."""
    if a.game.cascades is not None:  # the final window of the chain, computed once there
        from slotmath.report.cascades import cascade_scatter_records

        return cascade_scatter_records(a)
    rows = scatter_table(a).to_dict(orient="records")
    d = a.direct
    for row in rows:
        credits = d.scatter_credits[row["symbol"]][row["count"]]
        row["probability"] = figure(Fraction(row["weight"], d.cycle))
        row["rtp"] = figure(Fraction(row["weight"] * credits, d.cycle * d.credits_per_bet))
    return rows
