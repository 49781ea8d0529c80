"""RTP breakdown: how much each source (lines or ways, scatter, free spins) returns."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

import pandas as pd

from slotmath.plot._common import axes

__all__ = ["plot_rtp_breakdown", "rtp_breakdown_data"]


def rtp_breakdown_data(result: Any) -> pd.DataFrame:
    """What :func:`plot_rtp_breakdown` draws: the RTP of each component.

    Parameters
    ----------
    result : Analysis or mapping
        An :class:`~slotmath.analysis.Analysis` (its ``components``) or a mapping
        component name -> exact RTP in total bets.

    Returns
    -------
    pandas.DataFrame
        One row per component, in the given order: ``component``, ``rtp_exact`` (Fraction),
        ``rtp`` (float), ``share`` (of the total RTP, float). ``df.attrs["total"]`` is the
        exact total.

    Examples
    --------
    >>> from fractions import Fraction
    >>> rtp_breakdown_data({"lines": Fraction(3, 5), "scatter": Fraction(1, 20),
    ...                     "free_spins": Fraction(3, 10)})
        component rtp_exact   rtp     share
    0       lines       3/5  0.60  0.631579
    1     scatter      1/20  0.05  0.052632
    2  free_spins      3/10  0.30  0.315789
    """
    components = result if isinstance(result, Mapping) else getattr(result, "components", None)
    if components is None:
        raise TypeError("expected an Analysis or a mapping of components, "
                        f"got {type(result).__name__}")
    names = list(components)
    exact = [Fraction(components[n]) for n in names]
    total = sum(exact, Fraction(0))
    df = pd.DataFrame({
        "component": names,
        "rtp_exact": exact,
        "rtp": [float(v) for v in exact],
        "share": [float(v / total) if total else 0.0 for v in exact],
    })
    df.attrs["total"] = total
    return df


def plot_rtp_breakdown(result: Any, ax=None):
    """Draw the RTP components as horizontal bars labelled in percent, the total in the title.

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
    ax.set_xlim(0, max(float(data["rtp"].max()) * 100 * 1.25, 1))
    ax.set_title(f"RTP breakdown (total {float(data.attrs['total']):.4%})")
    return ax
