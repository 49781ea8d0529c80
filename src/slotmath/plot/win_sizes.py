"""Win-size table chart: how often each band of win sizes comes and what it returns."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pandas as pd

from slotmath.plot._common import as_distribution, axes
from slotmath.stats.par import DEFAULT_EDGES, win_size_table

__all__ = ["plot_win_sizes", "win_size_data"]


def win_size_data(result: Any, edges: Sequence = DEFAULT_EDGES) -> pd.DataFrame:
    """What :func:`plot_win_sizes` draws: the win-size table of the round.

    Parameters
    ----------
    result : Analysis or distribution
    edges : sequence of numbers
        Band edges in multiples of the total bet, starting at 0
        (see :func:`slotmath.stats.par.win_size_table`).

    Returns
    -------
    pandas.DataFrame
        ``band`` (label), ``probability``, ``one_in`` and ``rtp_share`` (the band's part of
        the RTP, in total bets), floats; the shares add up to the RTP.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> d = WinDistribution.from_mapping({0: 6, 5: 1, 10: 1, 30: 2}, 10)
    >>> win_size_data(d, edges=(0, 1, 2))
         band  probability  one_in  rtp_share
    0       0          0.6   1.667       0.00
    1  (0, 1]          0.2   5.000       0.15
    2  (1, 2]          0.0     inf       0.00
    3     > 2          0.2   5.000       0.60
    """
    rows = win_size_table(as_distribution(result), edges)
    return pd.DataFrame({
        "band": [r.label for r in rows],
        "probability": [float(r.probability) for r in rows],
        "one_in": [round(r.one_in, 3) if math.isfinite(r.one_in) else r.one_in for r in rows],
        "rtp_share": [float(r.rtp_share) for r in rows],
    })


def plot_win_sizes(result: Any, ax=None, edges: Sequence = DEFAULT_EDGES):
    """Draw each band's share of the RTP as bars, each labelled with how often it comes.

    Parameters
    ----------
    result : Analysis or distribution
    ax : matplotlib Axes, optional
    edges : sequence of numbers

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = win_size_data(result, edges)
    ax = axes(ax)
    positions = list(range(len(data)))
    bars = ax.bar(positions, data["rtp_share"] * 100, color="C2")
    labels = ["" if not math.isfinite(v) else f"1 in {v:,.0f}" if v >= 10 else f"1 in {v:.2f}"
              for v in data["one_in"]]
    ax.bar_label(bars, labels=labels, fontsize=7, rotation=90, padding=3)
    ax.set_xticks(positions, data["band"], rotation=45, ha="right")
    ax.set_xlabel("win (x total bet)")
    ax.set_ylabel("share of RTP (% of total bet)")
    top = float(data["rtp_share"].max()) * 100 if len(data) else 0.0
    ax.set_ylim(0, max(top * 1.5, 1))
    ax.set_title("Win sizes: RTP share and frequency")
    return ax
