"""Charts of grid games (Megaways, pay anywhere, clusters): the win sizes with their intervals,
the ways in play, the drops a paid spin wins, the multiplier symbols' values. Each chart is a
``*_data(result) -> DataFrame`` (exactly what is drawn) and a ``plot_*(result, ax)`` that only
draws; ``result`` is an :class:`~slotmath.analysis.Analysis` of a grid game.

Simulated figures are drawn with their 95 % interval as an error bar; exact ones without.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from slotmath.plot._common import axes
from slotmath.stats.estimate import is_estimate

__all__ = ["charts", "drops_data", "multiplier_symbols_charts", "multiplier_values_data",
           "plot_drops", "plot_multiplier_values", "plot_ways_in_play",
           "plot_win_size_intervals", "tumbles_charts", "ways_in_play_data",
           "win_size_interval_data"]


def _interval_columns(values) -> tuple[list, list, list]:
    lows, highs, kinds = [], [], []
    for v in values:
        if is_estimate(v):
            lo, hi = v.interval()
            lows.append(lo)
            highs.append(hi)
            kinds.append("simulated")
        else:
            lows.append(float(v))
            highs.append(float(v))
            kinds.append("exact")
    return lows, highs, kinds


def win_size_interval_data(result: Any) -> pd.DataFrame:
    """Each win-size band's probability, with its 95 % interval where it is simulated
    (``lower_95 = upper_95 = probability`` where it is exact).

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("tests/data/grid/anywhere_tiny.toml"))
    >>> win_size_interval_data(a).iloc[:2]
         band  probability  lower_95  upper_95 method
    0       0         0.25      0.25      0.25  exact
    1  (0, 1]         0.75      0.75      0.75  exact
    """
    rows = result.win_sizes
    lows, highs, kinds = _interval_columns([r.probability for r in rows])
    return pd.DataFrame({"band": [r.label for r in rows],
                         "probability": [float(r.probability) for r in rows],
                         "lower_95": lows, "upper_95": highs, "method": kinds})


def plot_win_size_intervals(result: Any, ax=None):
    """Bars of the win sizes' probabilities (log scale), with 95 % error bars where
    simulated."""
    df = win_size_interval_data(result)
    ax = axes(ax)
    shown = df[df.probability > 0]
    x = np.arange(len(shown))
    p = shown.probability.to_numpy()
    err = np.vstack([p - shown.lower_95.to_numpy(), shown.upper_95.to_numpy() - p])
    ax.bar(x, p, color="#4c72b0")
    if (shown.method == "simulated").any():
        ax.errorbar(x, p, yerr=np.clip(err, 0, None), fmt="none", ecolor="black", capsize=3)
    ax.set_xticks(x, shown.band, rotation=45, ha="right")
    ax.set_yscale("log")
    ax.set_xlabel("round win (x bet)")
    ax.set_ylabel("probability")
    ax.set_title("Win sizes" + (" (simulated, 95% intervals)"
                                if (shown.method == "simulated").any() else ""))
    return ax


def ways_in_play_data(result: Any) -> pd.DataFrame:
    """The law of the ways in play of a ways grid game (exact: a product of height laws).

    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("tests/data/grid/megaways_tiny.toml"))
    >>> ways_in_play_data(a).tail(1)
       ways  probability exact
    5    36     0.296296  8/27
    """
    from slotmath.report.grid import _ways_law

    law = _ways_law(result.game)
    return pd.DataFrame({"ways": list(law), "probability": [float(p) for p in law.values()],
                         "exact": [str(p) for p in law.values()]})


def plot_ways_in_play(result: Any, ax=None):
    df = ways_in_play_data(result)
    ax = axes(ax)
    ax.bar(np.arange(len(df)), df.probability, color="#55a868")
    step = max(1, len(df) // 12)
    ax.set_xticks(np.arange(len(df))[::step], df.ways[::step], rotation=45, ha="right")
    ax.set_xlabel("ways in play")
    ax.set_ylabel("probability")
    ax.set_title("Ways in play (exact)")
    return ax


def drops_data(result: Any) -> pd.DataFrame:
    """How many drops a paid spin wins, with 95 % intervals where simulated."""
    law = result.features["tumbles"].drops
    lows, highs, kinds = _interval_columns(list(law.values()))
    return pd.DataFrame({"drops": list(law), "probability": [float(p) for p in law.values()],
                         "lower_95": lows, "upper_95": highs, "method": kinds})


def plot_drops(result: Any, ax=None):
    df = drops_data(result)
    ax = axes(ax)
    p = df.probability.to_numpy()
    ax.bar(df.drops, p, color="#c44e52")
    if (df.method == "simulated").any():
        err = np.vstack([p - df.lower_95.to_numpy(), df.upper_95.to_numpy() - p])
        ax.errorbar(df.drops, p, yerr=np.clip(err, 0, None), fmt="none", ecolor="black",
                    capsize=3)
    ax.set_yscale("log")
    ax.set_xlabel("drops that won in the paid spin")
    ax.set_ylabel("probability")
    ax.set_title("Tumbles per paid spin")
    return ax


def multiplier_values_data(result: Any) -> pd.DataFrame:
    """The multiplier symbols' value law, on the paid spin and in free spins."""
    m = result.game.multipliers
    free = m.free_values or m.values
    values = sorted(set(m.values) | set(free))
    total, ftotal = sum(m.values.values()), sum(free.values())
    return pd.DataFrame({"value": values,
                         "paid spin": [m.values.get(v, 0) / total for v in values],
                         "free spins": [free.get(v, 0) / ftotal for v in values]})


def plot_multiplier_values(result: Any, ax=None):
    df = multiplier_values_data(result)
    ax = axes(ax)
    x = np.arange(len(df))
    ax.bar(x - 0.2, df["paid spin"], width=0.4, label="paid spin")
    ax.bar(x + 0.2, df["free spins"], width=0.4, label="free spins")
    ax.set_xticks(x, df.value)
    ax.set_xlabel("multiplier value")
    ax.set_ylabel("probability")
    ax.set_title("Multiplier symbols' values")
    ax.legend()
    return ax


def charts(analysis) -> list:
    """The owner's charts: win sizes with intervals; the ways in play (ways games)."""
    out = [("Grid: win sizes", lambda ax: plot_win_size_intervals(analysis, ax))]
    if analysis.game.grid.pays == "ways" and analysis.game.grid.varies:
        out.append(("Grid: ways in play", lambda ax: plot_ways_in_play(analysis, ax)))
    return out


def tumbles_charts(analysis) -> list:
    return [("Tumbles per paid spin", lambda ax: plot_drops(analysis, ax))]


def multiplier_symbols_charts(analysis) -> list:
    return [("Multiplier symbols' values", lambda ax: plot_multiplier_values(analysis, ax))]
