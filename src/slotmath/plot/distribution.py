"""The win distribution: probability of each win multiple, on log scales."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from slotmath.plot._common import as_distribution, axes
from slotmath.stats.accuracy import accuracy_floor

__all__ = ["plot_win_distribution", "win_distribution_data"]


def _band_index(credits: np.ndarray, cpb: int, edges: Sequence[Fraction]) -> np.ndarray:
    """Band of each amount: k for edges[k-1] < win <= edges[k] (in bets), exactly in credits;
    0 at or below the first edge, len(edges) above the last."""
    band = np.zeros(len(credits), dtype=np.int64)
    for e in edges:
        band += credits * e.denominator > e.numerator * cpb
    return band


def win_distribution_data(result: Any, bins: int | Sequence | None = None) -> pd.DataFrame:
    """What :func:`plot_win_distribution` draws: the probability of each non-zero win.

    Parameters
    ----------
    result : Analysis or distribution
        An :class:`~slotmath.analysis.Analysis` (its round ``distribution`` is used) or
        anything with ``credits``, ``probs`` and ``credits_per_bet``.
    bins : None, int or sequence of numbers
        None: one row per distinct win. An int: that many bands with log-spaced edges from
        the smallest to the largest win. A sequence: the band edges in multiples of the total
        bet (numbers or Fractions, decided exactly in credits); a band above the last edge is
        added when some win lies there, wins at or below the first edge are left out.

    Returns
    -------
    pandas.DataFrame
        Unbinned: ``credits``, ``multiple`` (win / total bet), ``probability``. Binned:
        ``lower``, ``upper`` (multiples; the band is ``lower < win <= upper``),
        ``probability``. Zero wins are never rows (they have no place on a log axis); their
        probability is in ``df.attrs["zero_probability"]``. For a numerical distribution,
        rows whose probability is below its stated accuracy
        (:func:`slotmath.stats.accuracy.accuracy_floor`, ``df.attrs["accuracy_floor"]``, 0 for
        an exact one) are noise, not data: they are left out, their total is in
        ``df.attrs["below_floor_mass"]``.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> d = WinDistribution.from_mapping({0: 4, 5: 2, 10: 1, 40: 1}, 10)
    >>> win_distribution_data(d)
       credits  multiple  probability
    0        5       0.5        0.250
    1       10       1.0        0.125
    2       40       4.0        0.125
    >>> win_distribution_data(d, bins=[0, 1, 2])
       lower  upper  probability
    0    0.0    1.0        0.375
    1    1.0    2.0        0.000
    2    2.0    4.0        0.125
    """
    dist = as_distribution(result)
    credits = np.asarray(dist.credits, dtype=np.int64)
    probs = np.asarray(dist.probs, dtype=np.float64)
    cpb = int(dist.credits_per_bet)
    zero = float(probs[credits == 0].sum())
    keep = credits > 0
    credits, probs = credits[keep], probs[keep]
    floor = accuracy_floor(dist)
    if bins is None:
        df = pd.DataFrame({"credits": credits, "multiple": credits / cpb, "probability": probs})
        df.attrs["zero_probability"] = zero
        return _above_floor(df, floor)
    multiples = credits / cpb
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool):
        if bins < 1:
            raise ValueError(f"bins must be >= 1, got {bins}")
        if len(credits) == 0:
            edges = np.array([0.0, 1.0])
        else:
            low, high = multiples[0], multiples[-1]
            edges = np.geomspace(low, high, bins + 1) if high > low else np.array([low, high])
        index = np.searchsorted(edges, multiples, side="left")
        index = np.clip(index, 1, len(edges) - 1)  # the smallest win belongs to band 1
        lower, upper = edges[:-1], edges[1:]
        probability = np.bincount(index - 1, weights=probs, minlength=len(lower))
    else:
        exact_edges = [Fraction(e) if not isinstance(e, float) else Fraction(str(e)) for e in bins]
        if len(exact_edges) < 2 or any(b <= a for a, b in itertools.pairwise(exact_edges)):
            raise ValueError("bin edges must be at least two strictly increasing numbers")
        index = _band_index(credits, cpb, exact_edges)
        lower = [float(e) for e in exact_edges[:-1]]
        upper = [float(e) for e in exact_edges[1:]]
        n_bands = len(lower)
        if np.any(index == len(exact_edges)):
            lower.append(float(exact_edges[-1]))
            upper.append(float(multiples[-1]))
            n_bands += 1
        inside = index > 0
        probability = np.bincount(index[inside] - 1, weights=probs[inside], minlength=n_bands)
    df = pd.DataFrame({"lower": np.asarray(lower, dtype=float),
                       "upper": np.asarray(upper, dtype=float),
                       "probability": probability})
    df.attrs["zero_probability"] = zero
    return _above_floor(df, floor)


def _above_floor(df: pd.DataFrame, floor: float) -> pd.DataFrame:
    """``df`` without the rows below ``floor`` (none when 0: exact), the floor in attrs."""
    attrs = dict(df.attrs)
    below = (df["probability"] < floor) if floor > 0 else np.zeros(len(df), dtype=bool)
    out = df[~below].reset_index(drop=True) if below.any() else df
    out.attrs = {**attrs, "accuracy_floor": floor,
                 "below_floor_mass": float(df["probability"][below].sum())}
    return out


def plot_win_distribution(result: Any, ax=None, bins: int | Sequence | None = None):
    """Draw the probability of each win multiple on log-log axes.

    Unbinned: one point per distinct win. Binned: a step histogram of the band
    probabilities. The probability of no win is given in the title. A numerical
    distribution's accuracy floor is drawn as a dashed line; nothing is drawn under it.

    Parameters
    ----------
    result : Analysis or distribution
    ax : matplotlib Axes, optional
    bins : see :func:`win_distribution_data`

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = win_distribution_data(result, bins)
    ax = axes(ax)
    if bins is None:
        ax.scatter(data["multiple"], data["probability"], s=6, color="C0")
    else:
        shown = data[data["probability"] > 0]
        ax.bar(shown["lower"], shown["probability"], width=shown["upper"] - shown["lower"],
               align="edge", color="C0", edgecolor="white", linewidth=0.5)
    floor = data.attrs["accuracy_floor"]
    if floor > 0:
        ax.axhline(floor, color="grey", linestyle="--", linewidth=1,
                   label=f"numerical accuracy {floor:.0e}: nothing below is drawn")
        ax.legend(loc="upper right", fontsize="small")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("win (x total bet)")
    ax.set_ylabel("probability" if bins is None else "probability per band")
    ax.set_title(f"Win distribution (P(no win) = {data.attrs['zero_probability']:.4f})")
    ax.grid(True, which="major", alpha=0.3)
    return ax
