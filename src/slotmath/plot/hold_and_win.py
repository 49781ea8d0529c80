"""Hold & win charts: the respin round's win law (log scale), the booster frequencies and the
fill probability against the landing probability. Each is a ``*_data`` / ``plot_*`` pair."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pandas as pd

from slotmath.plot._common import axes, feature_of

__all__ = ["booster_data", "fill_sweep_data", "plot_boosters", "plot_fill_sweep",
           "plot_respin_win", "respin_win_data"]


def _summary(result):
    return feature_of(result, "hold_and_win")


def respin_win_data(result) -> pd.DataFrame:
    """What :func:`plot_respin_win` draws: P(a started round pays ``win_bets``) for every
    win of the law, and the tail ``at_least`` = P(win >= win_bets).

    ``result``: an :class:`~slotmath.analysis.Analysis` or its ``hold_and_win`` summary.

    Examples
    --------
    >>> from slotmath.features.hold_and_win import HoldAndWinSummary
    >>> s = HoldAndWinSummary(Fraction(1, 2), 0, 0, 0, 0, {}, True, 0,
    ...                       np.array([0, 0.5, 0, 0.5]), Fraction(2))
    >>> respin_win_data(s).to_dict(orient="list")
    {'win_bets': [2.0, 6.0], 'probability': [0.5, 0.5], 'at_least': [1.0, 0.5]}
    """
    s = _summary(result)
    law = np.asarray(s.win_law)
    idx = np.nonzero(law > 0)[0]
    probs = law[idx]
    tail = np.cumsum(probs[::-1])[::-1]
    return pd.DataFrame({"win_bets": idx * float(s.unit), "probability": probs,
                         "at_least": np.minimum(tail, 1.0)})


def plot_respin_win(result, ax=None):
    """The respin round's win law and its tail, log scale."""
    data = respin_win_data(result)
    ax = axes(ax)
    ax.plot(data["win_bets"], data["at_least"], color="tab:red", label="P(win >= x)")
    ax.scatter(data["win_bets"], data["probability"], s=2, color="tab:blue",
               label="P(win = x)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("respin round win (x total bet)")
    ax.set_ylabel("probability per started round")
    ax.set_title("Hold & win: the round's win")
    ax.legend()
    return ax


def booster_data(result) -> pd.DataFrame:
    """What :func:`plot_boosters` draws: P(booster fires at least ``times`` times) per
    started round, one row per booster and count.

    Examples
    --------
    >>> from slotmath.features.hold_and_win import HoldAndWinSummary
    >>> s = HoldAndWinSummary(Fraction(1), 0, 0, 0, 0, {"rows": [0.1, 0.01]}, True, 0)
    >>> booster_data(s).to_dict(orient="list")
    {'booster': ['rows', 'rows'], 'times': [1, 2], 'probability': [0.1, 0.01]}
    """
    s = _summary(result)
    rows = [(kind, j + 1, float(p)) for kind, levels in s.booster_levels.items()
            for j, p in enumerate(levels)]
    return pd.DataFrame(rows, columns=["booster", "times", "probability"])


def plot_boosters(result, ax=None):
    """Bars of each booster's P(fires at least j times), log scale."""
    data = booster_data(result)
    ax = axes(ax)
    labels = [f"{b} >= {t}" for b, t in zip(data["booster"], data["times"])]
    ax.bar(labels, data["probability"], color="tab:green")
    ax.set_yscale("log")
    ax.set_ylabel("probability per started round")
    ax.set_title("Hold & win: boosters")
    ax.tick_params(axis="x", rotation=60)
    return ax


def fill_sweep_data(spec, probabilities, held: int | None = None) -> pd.DataFrame:
    """What :func:`plot_fill_sweep` draws: the fill probability, expected win and respins of
    a round started with ``held`` (default: the trigger) for each cash landing probability
    (float64 chain per point; a few seconds each on a 5 x 6 grid).

    Examples
    --------
    >>> from slotmath.model.hold_and_win import HoldAndWin
    >>> spec = HoldAndWin("C", 1, 1, Fraction(1, 2), (Fraction(1),), (1,), rows=1,
    ...                   max_rows=1, reels=2)
    >>> fill_sweep_data(spec, [Fraction(1, 2)])["fill_probability"].tolist()
    [0.5]
    """
    from slotmath.markov.hold_and_win import HoldAndWinChain
    held = spec.trigger if held is None else held
    rows = []
    for p in probabilities:
        fig = HoldAndWinChain(replace(spec, cash_probability=Fraction(p))).figures(held)
        rows.append((float(p), fig.fill_probability, fig.mean, fig.expected_respins))
    return pd.DataFrame(rows, columns=["cash_probability", "fill_probability",
                                       "expected_win", "expected_respins"])


def plot_fill_sweep(data: pd.DataFrame, ax=None):
    """Fill probability (log scale) against the cash landing probability."""
    ax = axes(ax)
    ax.plot(data["cash_probability"], data["fill_probability"], marker="o")
    ax.set_yscale("log")
    ax.set_xlabel("cash landing probability per position per respin")
    ax.set_ylabel("P(grid full)")
    ax.set_title("Hold & win: fill probability")
    return ax


def charts(analysis) -> list:
    """The report's charts: the respin round's win law and the booster frequencies."""
    return [("Hold & win: the round's win", lambda ax: plot_respin_win(analysis, ax)),
            ("Hold & win: boosters", lambda ax: plot_boosters(analysis, ax))]
