"""RTP breakdown: how much each source (lines or ways, scatter, free spins, bonus wheel,
jackpots, a max-win cap) returns."""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from slotmath.plot._common import axes

__all__ = ["plot_rtp_breakdown", "rtp_breakdown_data"]


def rtp_breakdown_data(result: Any) -> pd.DataFrame:
    """What :func:`plot_rtp_breakdown` draws: the RTP of each component.

    Parameters
    ----------
    result : Analysis or mapping
        An :class:`~slotmath.analysis.Analysis` (its ``components``) or a mapping
        component name -> RTP in total bets: an exact Fraction (or int), or a float where the
        part is numerical (progressive jackpots, a max-win cap on a free-spins game). A
        max-win cap's component is negative (the RTP it removes).

    Returns
    -------
    pandas.DataFrame
        One row per component, in the given order: ``component``, ``rtp_exact`` (the Fraction,
        or None for a numerical part), ``rtp`` (float), ``share`` (of the total RTP, float;
        negative for a negative part). ``df.attrs["total"]`` is the total: exact when every
        part is, else a float.

    Examples
    --------
    >>> from fractions import Fraction
    >>> rtp_breakdown_data({"lines": Fraction(3, 5), "scatter": Fraction(1, 20),
    ...                     "free_spins": Fraction(3, 10)})
        component rtp_exact   rtp     share
    0       lines       3/5  0.60  0.631579
    1     scatter      1/20  0.05  0.052632
    2  free_spins      3/10  0.30  0.315789

    Numerical parts stay floats; they are not dressed up as fractions:

    >>> df = rtp_breakdown_data({"lines": Fraction(1, 2), "jackpots": 0.25,
    ...                          "max_win_cap": -0.05})
    >>> df
         component rtp_exact   rtp     share
    0        lines       1/2  0.50  0.714286
    1     jackpots      None  0.25  0.357143
    2  max_win_cap      None -0.05 -0.071429
    >>> df.attrs["total"]
    0.7
    """
    components = result if isinstance(result, Mapping) else getattr(result, "components", None)
    if components is None:
        raise TypeError("expected an Analysis or a mapping of components, "
                        f"got {type(result).__name__}")
    names = list(components)
    values = [components[n] for n in names]
    exact = [_exact(v) for v in values]
    if all(v is not None for v in exact):
        total: Fraction | float = sum(exact, Fraction(0))
    else:
        total = math.fsum(float(v) for v in values)
    parts = exact if isinstance(total, Fraction) else [float(v) for v in values]
    df = pd.DataFrame({
        "component": names,
        "rtp_exact": pd.Series(exact, dtype=object),
        "rtp": [float(v) for v in values],
        "share": [float(v / total) if total else 0.0 for v in parts],
    })
    df.attrs["total"] = total
    return df


def _exact(value) -> Fraction | None:
    """``value`` as a Fraction when it is exact (int, Fraction, sympy Rational), else None."""
    if isinstance(value, (float, np.floating)):
        return None
    return Fraction(value)


def plot_rtp_breakdown(result: Any, ax=None):
    """Draw the RTP components as horizontal bars labelled in percent, the total in the title.

    A negative component (the RTP a max-win cap removes) is drawn to the left of zero.

    Parameters
    ----------
    result : Analysis or mapping
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = rtp_breakdown_data(result)
    ax = axes(ax)
    positions = range(len(data))
    bars = ax.barh(list(positions), data["rtp"] * 100, color=[f"C{i}" for i in positions])
    ax.bar_label(bars, labels=[f"{v:.3%}" for v in data["rtp"]], padding=3)
    ax.set_yticks(list(positions), data["component"])
    ax.invert_yaxis()
    ax.set_xlabel("RTP (% of total bet)")
    top = max(float(data["rtp"].max()) * 100 * 1.25, 1)
    ax.set_xlim(min(float(data["rtp"].min()) * 100 * 1.25, 0), top)
    if (data["rtp"] < 0).any():
        ax.axvline(0, color="black", linewidth=0.8)
    ax.set_title(f"RTP breakdown (total {float(data.attrs['total']):.4%})")
    return ax
