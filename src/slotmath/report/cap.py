"""The max-win cap in the PAR reports: the JSON section, the workbook's table, the summary
rows and its component's error (``analysis.features["max_win_cap"]``,
:class:`slotmath.features.cap.CapFigures`)."""

from __future__ import annotations

from fractions import Fraction

from slotmath.report.figures import (
    EXACT,
    FFT_MASS,
    ROUNDOFF,
    exact_text,
    figure,
    figure_row,
    figure_table,
)

__all__ = ["errors", "json_section", "simulation", "simulation_text", "summary", "tables"]


def _number(value):
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else float(value)


def json_section(a) -> dict:
    cap, game = a.features["max_win_cap"], a.game
    return {"max_win_cap": {
        "cap_coins": _number(cap.cap_coins),
        "cap_bets": _number(cap.cap_bets),
        "cap_currency": (_number(cap.cap_coins * game.coin_value)
                         if game.coin_value is not None else None),
        "rtp_effect": figure(-cap.effect if cap.exact else -float(cap.effect)),
        "rtp_effect_exact": exact_text(-cap.effect) if cap.exact else None,
        "probability_capped": figure(cap.probability if cap.exact else float(cap.probability)),
        "exact": cap.exact,
        "error": cap.error,
        "resolution": cap.resolution,
        "scope": "coin win of a paid round (base spin, its free spins, wheel coin prizes); "
                 "jackpots are paid outside the cap",
    }}


def errors(a) -> dict[str, float]:
    return {"max_win_cap": a.features["max_win_cap"].error + ROUNDOFF}


def tables(a) -> list:
    cap = a.features["max_win_cap"]
    method = EXACT if cap.exact else "numerical: read off the FFT round distribution"
    d = a.distribution
    probability_error = (0.0 if cap.exact else d.aliased_mass_bound + d.dropped_bound + FFT_MASS)
    rows = [
        figure_row("cap (x bet)", cap.cap_bets),
        figure_row("cap (coins)", cap.cap_coins),
        figure_row("RTP removed", cap.effect, cap.error, method),
        figure_row("probability a round is capped", cap.probability, probability_error,
                   method + ("; with jackpots an upper bound"
                             if a.composition.carried else "")),
    ]
    if not cap.exact:
        rows.append(figure_row("resolution (noise floor of the distribution)",
                               cap.resolution, 0.0, "amounts below it are dropped"))
    return [("Max-win cap (coin win of a round; jackpots are paid outside it)",
             figure_table(rows))]


def summary(a) -> list[tuple[str, str]]:
    cap = a.features["max_win_cap"]
    return [
        ("max win cap (x bet)", f"{float(cap.cap_bets):g}  ({float(cap.cap_coins):g} coins)"),
        ("max win cap: RTP removed", f"{float(cap.effect):.3e}"),
        ("max win cap: rounds capped", f"{float(cap.probability):.3e}"),
    ]


def simulation(result, game) -> dict:
    """The cap in a simulation's document: the RTP it removed, the rounds it capped."""
    cap = game.cap_coins(result.level)
    return {"max_win_cap": result.max_win_cap,
            "max_win_cap_std_error": result.max_win_cap_std_error,
            "capped_rounds": result.capped_rounds, "cap_coins": float(cap),
            "cap_bets": float(cap / game.total_bet(result.level))}


def simulation_text(result, game) -> list[str]:
    bets = game.cap_coins(result.level) / game.total_bet(result.level)
    one_in = (f", 1 in {result.spins / result.capped_rounds:,.0f} rounds"
              if result.capped_rounds else "")
    return [(f"max-win cap    {float(bets):,.6g} x bet: {result.capped_rounds:,} rounds "
            f"capped{one_in}, RTP {result.max_win_cap:+.6%} "
            f"+/- {1.96 * result.max_win_cap_std_error:.6%}")]
