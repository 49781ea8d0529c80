"""Charts of a persistent-state (bauble conveyor) analysis: the stationary law, the RTP by
visible state, the RTP from reset. ``result`` is an :class:`~slotmath.analysis.Analysis` of
a conveyor game or its :class:`~slotmath.features.conveyor.ConveyorFigures`."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from slotmath.plot._common import axes, feature_of

__all__ = ["plot_rtp_by_visible_state", "plot_rtp_from_reset", "plot_stationary",
           "rtp_by_visible_state_data", "rtp_from_reset_data", "stationary_data"]

RESET_SPINS = (1, 2, 3, 5, 7, 10, 20, 50, 100, 200, 500, 1000)


def _figures(result: Any):
    figures = feature_of(result, "conveyor")
    if hasattr(figures, "slot_law"):
        return figures
    raise TypeError(f"expected the analysis of a conveyor game, got {type(result).__name__}")


def stationary_data(result: Any) -> pd.DataFrame:
    """What :func:`plot_stationary` draws: the stationary law of each slot's content.

    One row per (slot, content): ``slot`` (1 = above reel 1), ``content`` (a bauble's
    label or "empty"), ``probability`` (float) and ``exact`` (the Fraction).

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("tests/data/conveyor_tiny.toml"))
    >>> df = stationary_data(a)
    >>> df[df.slot == 1].head(2)
       slot         content  probability exact
    0     1           empty          0.2   1/5
    1     1  spreading_wild          0.2   1/5
    """
    rows = []
    for j, law in enumerate(_figures(result).slot_law(), start=1):
        for content, p in law.items():
            rows.append({"slot": j, "content": content, "probability": float(p), "exact": p})
    return pd.DataFrame(rows)


def plot_stationary(result: Any, ax=None):
    """Stacked bars: each slot's stationary probability of holding each bauble (the rest of
    each bar's height to 1 is the slot being empty)."""
    ax = axes(ax)
    df = stationary_data(result)
    table = df.pivot(index="slot", columns="content", values="probability")
    table = table[[c for c in dict.fromkeys(df.content) if c != "empty"]]
    bottom = np.zeros(len(table))
    for content in table.columns:
        ax.bar(table.index, table[content], bottom=bottom, label=content)
        bottom += table[content].to_numpy()
    ax.set_xlabel("slot (above reel)")
    ax.set_ylabel("stationary probability of a bauble")
    ax.set_xticks(list(table.index))
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    return ax


def rtp_by_visible_state_data(result: Any, bins: int = 40) -> pd.DataFrame:
    """What :func:`plot_rtp_by_visible_state` draws: the stationary probability of visible
    states by their RTP, binned (``low``, ``high`` in percent, ``probability``)."""
    f = _figures(result)
    rtp = 100 * f.state_rtp
    p = np.array([float(x) for x in f.probability])
    edges = np.linspace(rtp.min(), rtp.max() + 1e-9, bins + 1)
    counts, _ = np.histogram(rtp, bins=edges, weights=p)
    return pd.DataFrame({"low": edges[:-1], "high": edges[1:], "probability": counts})


def plot_rtp_by_visible_state(result: Any, ax=None, bins: int = 40):
    """Histogram (log probability) of the RTP of the next spin by visible state, 100% and
    the stationary RTP marked."""
    ax = axes(ax)
    df = rtp_by_visible_state_data(result, bins)
    ax.bar(df.low, df.probability, width=df.high - df.low, align="edge")
    ax.set_yscale("log")
    ax.axvline(100, color="red", linestyle="--", label="100%")
    ax.axvline(100 * float(_figures(result).rtp), color="black", label="stationary RTP")
    ax.set_xlabel("RTP of the next spin given the visible conveyor (%)")
    ax.set_ylabel("stationary probability")
    ax.legend()
    return ax


def rtp_from_reset_data(result: Any, spins=RESET_SPINS) -> pd.DataFrame:
    """What :func:`plot_rtp_from_reset` draws: ``N`` and the mean RTP (%) of the first ``N``
    paid spins from the empty conveyor."""
    f = _figures(result)
    return pd.DataFrame({"N": list(spins), "rtp": [100 * x for x in f.rtp_from_reset(spins)]})


def plot_rtp_from_reset(result: Any, ax=None, spins=RESET_SPINS):
    """The RTP-from-reset curve against the stationary RTP (log N axis)."""
    ax = axes(ax)
    df = rtp_from_reset_data(result, spins)
    ax.plot(df.N, df.rtp, marker="o", label="first N spins from reset")
    ax.axhline(100 * float(_figures(result).rtp), color="black", linestyle="--",
               label="stationary RTP")
    ax.set_xscale("log")
    ax.set_xlabel("N paid spins after a reset (start or bet change)")
    ax.set_ylabel("RTP (%)")
    ax.legend()
    return ax


def charts(analysis) -> list:
    """The report's charts: the stationary law of the slots, the RTP by visible state and
    the RTP from reset."""
    return [("Conveyor: stationary law", lambda ax: plot_stationary(analysis, ax)),
            ("Conveyor: RTP by visible state", lambda ax: plot_rtp_by_visible_state(analysis, ax)),
            ("Conveyor: RTP from reset", lambda ax: plot_rtp_from_reset(analysis, ax))]
