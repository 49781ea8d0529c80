"""The bonus wheel in the PAR reports: the JSON section, the workbook's tables and the
compliance check's entry (``analysis.features["bonus_wheel"]``,
:class:`slotmath.features.bonus_wheel.WheelFigures`)."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from slotmath.features.base import hook
from slotmath.report.figures import (
    EXACT,
    ROUNDOFF,
    exact_text,
    figure,
    figure_row,
    figure_table,
    is_exact,
    rules_table,
)

__all__ = ["entries", "json_section", "tables"]


def _driven(a) -> dict:
    """The figures of the stationary features the wheel drives, by name."""
    c = a.composition
    return {name: c.stationary[name] for name, f in c.stationary_built.items()
            if f.driven_by == "bonus_wheel"}


def json_section(a) -> dict:
    w = a.features["bonus_wheel"]
    wheel = w.wheel
    component = a.components["bonus_wheel"]
    out = {
        "symbol": wheel.symbol,
        "count": wheel.count,
        "per_spin": wheel.per_spin,
        "mean_prize": figure(wheel.mean),
        "multiplied_in_free_spins": wheel.multiplied,
        "wheel_spins_per_spin": {k: figure(v) for k, v in w.spins_per_spin.items()},
        "rtp": figure(component) if not _driven(a) else figure(float(component)),
        "divisions": [
            {"division": r["division"], "kind": r["kind"],
             "prize": None if r["prize"] is None else figure(Fraction(r["prize"])),
             "probability": figure(r["probability"])}
            for r in w.outcomes()
        ],
    }
    if _driven(a):
        out["divisions_note"] = (
            "jackpot divisions at their stationary chance per wheel spin; their chance at "
            "given pools: analysis.features[\"bonus_wheel\"].outcomes(pools)")
    return {"bonus_wheel": out}


def tables(a) -> list:
    w = a.features["bonus_wheel"]
    wheel = w.wheel
    driven = _driven(a)
    rows = []
    total = sum(wheel.weights)
    weights = dict(zip(wheel.labels or [f"coins {i + 1}" for i in range(len(wheel.weights))],
                       wheel.weights))
    errors = {}  # each won division's error per wheel spin, and the coin divisions' share
    for figures in driven.values():
        for name, pool in figures.pools.items():
            errors[name] = pool.error_bounds["expected_hit_probability_per_spin"]
    for r in w.outcomes():
        p = r["probability"]
        if not driven:
            error = 0.0
        elif r["kind"] != "coins":
            error = errors.get(r["division"], 0.0)
        else:  # the coin divisions share what the won divisions leave, by weight
            error = sum(errors.values()) + ROUNDOFF
        rows.append({
            "division": r["division"], "kind": r["kind"],
            "prize_x_bet": None if r["prize"] is None else float(r["prize"]),
            "prize_exact": "" if r["prize"] is None else exact_text(r["prize"]),
            "weight": weights.get(r["division"]),
            "probability": float(p),
            "probability_exact": exact_text(p) if is_exact(p) else "",
            "probability_error": error,
        })
    divisions = pd.DataFrame(rows)
    figures = [figure_row("mean coin prize per wheel spin (x bet, all divisions coins)",
                          wheel.mean)]
    for label, mean in w.spins_per_spin.items():
        figures.append(figure_row(f"wheel spins per {label} spin", mean))
    value = a.components["bonus_wheel"]
    error = None
    for f in a.declared:
        found = hook(f, "errors")
        if found is not None:
            error = found(a).get("bonus_wheel", error)
    figures.append(figure_row("RTP contribution (coin prizes)", value, error,
                              EXACT if is_exact(value) else "numerical: net of the spins "
                              "that hit a jackpot"))
    title = (f"Bonus wheel: divisions (total weight {total}"
             + ("; jackpot divisions at their stationary chance per spin)" if driven else ")"))
    rules = rules_table([
        ("symbol", wheel.symbol),
        ("in succession from reel 1 on a line", wheel.count),
        ("wheel spins", wheel.per_spin),
        ("multiplied in free spins", "yes" if wheel.multiplied else "no"),
    ])
    return [("Bonus wheel: rules", rules), (title, divisions),
            ("Bonus wheel: figures", figure_table(figures))]


def entries(a) -> dict[str, tuple]:
    """GLI-11's entry to the wheel: expected wheel spins per game (paid spin and the spins
    of its round features), exact."""
    spins = a.features["bonus_wheel"].spins_per_spin
    rate = spins["base"]
    for f in a.round.features:
        if f.reels is not None:
            rate += a.round.feature_spins(f.name) * spins[f.name]
    return {"bonus wheel entry": (rate, 0.0,
                                  "expected wheel spins per game (paid spin and free spins)")}
