"""Charts of free spins with a state: a ``*_data`` function (exactly what is drawn, tested)
and a ``plot_*`` function (only draws) per state, and each state's report charts.

* expanding symbol: the RTP contribution of each symbol (:func:`expanding_data`);
* sticky wilds: the law of the sticky wilds left when a feature ends, and the expected win
  of a feature by the spins it is awarded (:func:`sticky_data`, :func:`spins_data`);
* collector: the law of the ladder's level when a feature ends (:func:`collector_data`).
"""

from __future__ import annotations

import pandas as pd

from slotmath.plot._common import axes as new_axes
from slotmath.report.free_spin_state import collector_levels, expanding_rows, sticky_counts

__all__ = ["charts_collector", "charts_expanding_symbol", "charts_sticky_wilds",
           "collector_data", "expanding_data", "plot_collector", "plot_expanding",
           "plot_spins", "plot_sticky", "spins_data", "sticky_data"]


def expanding_data(summary) -> pd.DataFrame:
    """Per expanding symbol: its probability, a feature's expected win with it, and its RTP
    contribution (exact values as floats)."""
    return pd.DataFrame([{"symbol": x, "probability": float(p), "win_per_feature": float(e),
                          "rtp": float(r)} for x, p, e, r in expanding_rows(summary)])


def plot_expanding(summary, ax=None):
    ax = new_axes(ax)
    d = expanding_data(summary)
    ax.bar(d["symbol"], d["rtp"] * 100, color="C1")
    ax.set_xlabel("expanding symbol")
    ax.set_ylabel("RTP contribution (%)")
    ax.set_title("Expanding symbol: RTP by symbol")
    return ax


def sticky_data(summary) -> pd.DataFrame:
    """The law of the number of sticky wilds when a feature ends."""
    return pd.DataFrame([{"sticky": k, "probability": float(p)}
                         for k, p in sticky_counts(summary).items()])


def plot_sticky(summary, ax=None):
    ax = new_axes(ax)
    d = sticky_data(summary)
    ax.bar(d["sticky"], d["probability"], color="C2")
    ax.set_xlabel("sticky wilds at the end of a feature")
    ax.set_ylabel("probability")
    ax.set_title("Sticky wilds")
    return ax


def spins_data(laws: dict) -> pd.DataFrame:
    """A feature's expected win (bets) by the spins it is awarded: ``laws`` maps spins to
    the chain's law (:meth:`slotmath.markov.free_spin_state.StateChain.law`)."""
    return pd.DataFrame([{"spins": n, "win_per_feature": float(law.mean)}
                         for n, law in sorted(laws.items())])


def plot_spins(laws: dict, ax=None):
    ax = new_axes(ax)
    d = spins_data(laws)
    ax.plot(d["spins"], d["win_per_feature"], marker="o", color="C2")
    ax.set_xlabel("spins awarded")
    ax.set_ylabel("expected win per feature (x bet)")
    ax.set_title("Win by spins awarded")
    return ax


def collector_data(summary) -> pd.DataFrame:
    """The law of the ladder's level (and its multiplier) when a feature ends."""
    spec = summary.mechanic.spec
    return pd.DataFrame([{"level": k, "multiplier": spec.multiplier(k), "probability": float(p)}
                         for k, p in collector_levels(summary).items()])


def plot_collector(summary, ax=None):
    ax = new_axes(ax)
    d = collector_data(summary)
    ax.bar([f"x{m}" for m in d["multiplier"]], d["probability"], color="C0")
    ax.set_xlabel("ladder at the end of a feature")
    ax.set_ylabel("probability")
    ax.set_title("Collector ladder")
    return ax


def charts_expanding_symbol(analysis) -> list:
    s = analysis.features["expanding_symbol"]
    return [("Expanding symbol: RTP by symbol", lambda ax: plot_expanding(s, ax))]


def charts_sticky_wilds(analysis) -> list:
    s = analysis.features["sticky_wilds"]
    return [("Sticky wilds at the end of a feature", lambda ax: plot_sticky(s, ax))]


def charts_collector(analysis) -> list:
    s = analysis.features["collector"]
    return [("Collector: ladder at the end of a feature", lambda ax: plot_collector(s, ax))]
