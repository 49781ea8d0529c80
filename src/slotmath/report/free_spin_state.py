"""Free spins with a state in the PAR reports: each state's JSON section, its tables and its
summary rows (``analysis.features[name]``,
:class:`slotmath.features.free_spin_state.StateSummary`).

Every figure is exact (a Fraction) when the chain is (the free-spin state chain is solved in
integers up to :data:`slotmath.markov.free_spin_state.EXACT_MOVES` steps); the state-space
sizes are counts.
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from slotmath.report.figures import figure, figure_row, figure_table, rules_table

__all__ = ["collector_levels", "expanding_rows", "json_collector", "json_expanding_symbol",
           "json_sticky_wilds", "size_table", "sticky_counts", "summary_collector",
           "summary_expanding_symbol", "summary_sticky_wilds", "tables_collector",
           "tables_expanding_symbol", "tables_sticky_wilds"]

METHOD = ("exact backward induction over (spins left, spins awarded, state), each state's "
          "free spin enumerated over the full cycle of the free reels (virtual reels); the "
          "distribution by FFT")


def _exact(s, value):
    return value if s.exact else float(value)


def size_table(s) -> pd.DataFrame:
    """The chain's size: states and moves of the chain and of the mechanic."""
    return pd.DataFrame([{"what": k.replace("_", " "), "count": v} for k, v in s.size.items()])


def _section(s, extra: dict) -> dict:
    return {"state_space": dict(s.size), "exact": s.exact, "method": METHOD,
            "trigger_probability": figure(s.trigger_probability),
            "expected_win": figure(_exact(s, s.expected_win))} | extra


# -- expanding symbol -------------------------------------------------------------------
def expanding_rows(s) -> list[tuple[str, Fraction, Fraction, Fraction]]:
    """(symbol, probability, win per feature with it, RTP contribution), exact."""
    return [(x, p, e, s.trigger_probability * p * e) for x, (p, e) in s.by_start.items()]


def json_expanding_symbol(a) -> dict:
    s = a.features["expanding_symbol"]
    if s is None:
        return {"expanding_symbol": None}
    symbols = {x: {"probability": figure(p), "expected_win": figure(_exact(s, e)),
                   "rtp": figure(_exact(s, r))} for x, p, e, r in expanding_rows(s)}
    return {"expanding_symbol": _section(s, {"symbols": symbols})}


def tables_expanding_symbol(a) -> list:
    s = a.features["expanding_symbol"]
    if s is None:
        return []
    rows = pd.DataFrame([{"symbol": x, "probability": float(p), "win per feature (x bet)":
                          float(e), "RTP contribution": float(r)}
                         for x, p, e, r in expanding_rows(s)])
    spec = a.game.free_spins.state
    rules = rules_table([
        ("drawn when the feature starts", ", ".join(f"{x} (weight {w})" for x, w in
                                                    spec.symbols)),
        ("expands", ("on at least as many reels as its smallest line pay needs; pays on "
                     "every line for the reels it covers, after the normal pays")),
    ])
    return [("Expanding symbol: rules", rules), ("Expanding symbol: by symbol", rows),
            ("Expanding symbol: state space", size_table(s))]


def summary_expanding_symbol(a) -> list[tuple[str, str]]:
    s = a.features["expanding_symbol"]
    if s is None:
        return []
    best = max(expanding_rows(s), key=lambda r: r[2])
    return [("expanding symbol: richest", f"{best[0]} ({float(best[2]):.2f} x bet a feature)"),
            ("expanding symbol: state space",
             f"{s.size['states']} states, {s.size['moves']} moves")]


# -- sticky wilds -----------------------------------------------------------------------
def sticky_counts(s) -> dict[int, Fraction]:
    """Law of the number of sticky wilds when a feature ends."""
    out: dict[int, Fraction] = {}
    for (_, state), p in s.final.items():
        k = sum(1 for c in state if c)
        out[k] = out.get(k, 0) + p
    return dict(sorted(out.items()))


def json_sticky_wilds(a) -> dict:
    s = a.features["sticky_wilds"]
    if s is None:
        return {"sticky_wilds": None}
    counts = sticky_counts(s)
    m = s.mechanic
    return {"sticky_wilds": _section(s, {
        "symbols": list(m.wilds), "cells": len(m.cells), "possible_states": m.states,
        "sticky_at_end": {str(k): figure(p) for k, p in counts.items()},
        "expected_sticky_at_end": figure(sum((k * p for k, p in counts.items()), Fraction(0))),
    })}


def tables_sticky_wilds(a) -> list:
    s = a.features["sticky_wilds"]
    if s is None:
        return []
    m = s.mechanic
    counts = sticky_counts(s)
    rules = rules_table([
        ("sticky wilds", ", ".join(m.wilds)),
        ("cells they can stick on",
         f"{len(m.cells)} (reels {', '.join(str(j + 1) for j in m.wild_reels)})"),
        ("line multipliers", a.game.line_multipliers),
    ])
    figures = figure_table(
        [figure_row(f"{k} sticky wilds at the end", p) for k, p in counts.items()]
        + [figure_row("sticky wilds at the end (expected)",
                      sum((k * p for k, p in counts.items()), Fraction(0)))])
    return [("Sticky wilds: rules", rules), ("Sticky wilds: at the end of a feature", figures),
            ("Sticky wilds: state space", size_table(s))]


def summary_sticky_wilds(a) -> list[tuple[str, str]]:
    s = a.features["sticky_wilds"]
    if s is None:
        return []
    counts = sticky_counts(s)
    mean = sum((k * p for k, p in counts.items()), Fraction(0))
    return [("sticky wilds at the end of a feature", f"{float(mean):.3f}"),
            ("sticky wilds: state space",
             (f"{s.size['mechanic_states']} of {s.mechanic.states} cell states reached, "
              f"{s.size['states']} chain states, {s.size['moves']} moves"))]


# -- collector ----------------------------------------------------------------------------
def collector_levels(s) -> dict[int, Fraction]:
    """Law of the ladder's level when a feature ends."""
    spec = s.mechanic.spec
    out: dict[int, Fraction] = {}
    for (_, collected), p in s.final.items():
        level = spec.level(collected)
        out[level] = out.get(level, 0) + p
    return dict(sorted(out.items()))


def json_collector(a) -> dict:
    s = a.features["collector"]
    if s is None:
        return {"collector": None}
    spec = s.mechanic.spec
    levels = collector_levels(s)
    return {"collector": _section(s, {
        "levels_at_end": {str(k): {"multiplier": spec.multiplier(k), "probability": figure(p)}
                          for k, p in levels.items()},
        "expected_level": figure(sum((k * p for k, p in levels.items()), Fraction(0))),
        "mean_cash_value": figure(spec.mean_value),
    })}


def tables_collector(a) -> list:
    s = a.features["collector"]
    if s is None:
        return []
    spec = s.mechanic.spec
    levels = collector_levels(s)
    rules = rules_table([
        ("cash symbols", ", ".join(spec.cash)),
        ("cash values (x bet: weight)",
         ", ".join(f"{float(v):g}: {w}" for v, w in spec.values)),
        ("collector", spec.collector),
        ("every", f"{spec.every} collectors: +{spec.retrigger} spins, next level"),
        ("ladder", " -> ".join(f"x{m}" for m in (1, *spec.ladder))),
        ("ladder multiplies", spec.applies),
    ])
    figures = figure_table(
        [figure_row(f"level {k} (x{spec.multiplier(k)}) at the end", p)
         for k, p in levels.items()]
        + [figure_row("mean cash value (x bet)", spec.mean_value)])
    return [("Collector: rules", rules), ("Collector: ladder at the end of a feature", figures),
            ("Collector: state space", size_table(s))]


def summary_collector(a) -> list[tuple[str, str]]:
    s = a.features["collector"]
    if s is None:
        return []
    levels = collector_levels(s)
    top = max(levels)
    return [("collector: ladder's top level reached",
             f"{float(levels.get(top, 0)):.4%} of features"),
            ("collector: state space", f"{s.size['states']} states, {s.size['moves']} moves")]
