"""Cascade charts: how many cascades a paid spin has, and the multiplier a carried cascade
multiplier brings into each free spin. Both exact (from the cascade law and the carried
free-spin chain)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pandas as pd

from slotmath.plot._common import axes, feature_of

__all__ = [
    "carried_multiplier_data",
    "cascade_count_data",
    "cascade_win_data",
    "freed_data",
    "plot_carried_multiplier",
    "plot_cascade_counts",
    "plot_cascade_wins",
    "plot_freed",
]


def cascade_count_data(result: Any) -> pd.DataFrame:
    """What :func:`plot_cascade_counts` draws: the exact law of a paid spin's cascade count.

    Parameters
    ----------
    result : Analysis, CascadeLaw or mapping
        An :class:`~slotmath.analysis.Analysis` of a cascading game (its ``features["cascades"]``), a
        :class:`~slotmath.exact.cascades.CascadeLaw`, or a mapping cascades -> probability.

    Returns
    -------
    pandas.DataFrame
        One row per count: ``cascades``, ``probability_exact`` (Fraction), ``probability``,
        ``at_least`` (P(count >= cascades), float) and ``multiplier`` (the final multiplier
        ``cascades + 1`` of the rule 1, 2, 3, ... when the result is a mapping; the rule's
        value otherwise).

    Examples
    --------
    >>> from fractions import Fraction
    >>> cascade_count_data({0: Fraction(1, 2), 1: Fraction(3, 8), 2: Fraction(1, 8)})
       cascades probability_exact  probability  at_least  multiplier
    0         0               1/2        0.500     1.000           1
    1         1               3/8        0.375     0.500           2
    2         2               1/8        0.125     0.125           3
    """
    law = feature_of(result, "cascades")
    if law is None:
        raise TypeError("this game has no cascades")
    if isinstance(law, Mapping):
        counts, values = dict(law), None
    elif hasattr(law, "cascade_counts"):
        counts, values = law.cascade_counts, law.final_values
    else:
        raise TypeError("expected an Analysis, a CascadeLaw or a mapping, "
                        f"got {type(result).__name__}")
    ks = sorted(counts)
    probs = [Fraction(counts[k]) for k in ks]
    tail, at_least = Fraction(0), []
    for p in reversed(probs):
        tail += p
        at_least.append(float(tail))
    return pd.DataFrame({
        "cascades": ks,
        "probability_exact": pd.Series(probs, dtype=object),
        "probability": [float(p) for p in probs],
        "at_least": at_least[::-1],
        "multiplier": [k + 1 if values is None else values[k] for k in ks],
    })


def plot_cascade_counts(result: Any, ax=None):
    """Draw P(cascade count = k) as bars on a log axis.

    Parameters
    ----------
    result : Analysis, CascadeLaw or mapping
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    from matplotlib.ticker import MaxNLocator

    data = cascade_count_data(result)
    data = data[data["probability"] > 0]
    ax = axes(ax)
    ax.bar(data["cascades"], data["probability"], color="C0")
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("cascades in a paid spin")
    ax.set_ylabel("probability")
    mean = float(sum(data["cascades"] * data["probability_exact"]))
    ax.set_title(f"cascade count (exact; mean {mean:.4f})")
    return ax


def carried_multiplier_data(result: Any) -> pd.DataFrame:
    """What :func:`plot_carried_multiplier` draws: per free spin, the probability the feature
    plays it and the expected cascade multiplier carried into it, exact
    (:func:`slotmath.report.cascades.carried_multiplier_table`).

    Parameters
    ----------
    result : Analysis or DataFrame
        Of a cascading game with free spins; or figures already computed (a DataFrame with
        ``spin``, ``played`` and ``mean_multiplier``, e.g. read from the JSON's
        ``cascades.free_spins_multiplier``), returned as they are.

    Returns
    -------
    pandas.DataFrame
        ``spin``, ``played``, ``mean_index``, ``mean_multiplier`` (floats) and their
        ``*_exact`` copies ("p/q").

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("tests/data/cascades/tiny_free_spins.toml"))
    >>> df = carried_multiplier_data(a)
    >>> df[["spin", "mean_multiplier_exact"]].head(2)
       spin mean_multiplier_exact
    0     1              2718/799
    1     2           76247/12784
    """
    from slotmath.report.cascades import carried_multiplier_table

    if isinstance(result, pd.DataFrame):
        missing = {"spin", "played", "mean_multiplier"} - set(result.columns)
        if missing:
            raise TypeError(f"a figures table needs the columns {sorted(missing)}")
        return result
    table = carried_multiplier_table(result)
    if table is None:
        raise TypeError("expected the Analysis of a cascading game with free spins")
    return table


def plot_carried_multiplier(result: Any, ax=None):
    """Draw the expected multiplier carried into each free spin (line, left axis) and the
    probability the feature plays that spin (bars, right axis).

    Parameters
    ----------
    result : Analysis
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = carried_multiplier_data(result)
    ax = axes(ax)
    ax.plot(data["spin"], data["mean_multiplier"], marker="o", markersize=3, color="C1",
            label="E[multiplier carried in | spin played]")
    ax.set_xlabel("free spin")
    ax.set_ylabel("expected carried multiplier")
    twin = ax.twinx()
    twin.bar(data["spin"], data["played"], color="C0", alpha=0.25, label="P(spin played)")
    twin.set_ylabel("P(the feature plays this spin)")
    twin.set_ylim(0, 1.05)
    ax.set_zorder(twin.get_zorder() + 1)
    ax.patch.set_visible(False)
    ax.set_title("the multiplier through the free spins (exact)")
    return ax


def cascade_win_data(result: Any) -> pd.DataFrame:
    """What :func:`plot_cascade_wins` draws: the exact law of a paid cascading spin's win
    (every drop at its multiplier, scatter pays; free spins not included).

    Parameters
    ----------
    result : Analysis or CascadeLaw
        An :class:`~slotmath.analysis.Analysis` of a cascading game (its ``features["cascades"]``) or
        a :class:`~slotmath.exact.cascades.CascadeLaw` (a lean one too: the win is kept).

    Returns
    -------
    pandas.DataFrame
        One row per distinct win > 0: ``win_exact`` (Fraction, in total bets), ``win``,
        ``probability_exact``, ``probability``, ``at_least`` (P(win >= this), float).
        ``df.attrs["zero"]`` is P(win = 0), exact.

    Examples
    --------
    >>> from slotmath.exact.cascades import CascadeLaw
    >>> law = CascadeLaw({(0, 0, 0, 0): 5, (10, 0, 0, 1): 2, (30, 0, 0, 2): 1}, 8, 10,
    ...                  (0, 0, 0), {}, (1, 2, 3), {}, {}, {})
    >>> df = cascade_win_data(law)
    >>> df[["win", "probability_exact", "at_least"]]
       win probability_exact  at_least
    0  1.0               1/4     0.375
    1  3.0               1/8     0.125
    >>> df.attrs["zero"]
    Fraction(5, 8)
    """
    law = feature_of(result, "cascades")
    if law is None or not hasattr(law, "joint"):
        raise TypeError("expected the Analysis of a cascading game or a CascadeLaw, "
                        f"got {type(result).__name__}")
    weights: dict = {}
    for (c, _a, _t, _k), w in law.joint.items():
        weights[c] = weights.get(c, 0) + w
    wins = sorted(c for c in weights if c > 0)
    probs = [Fraction(weights[c], law.cycle) for c in wins]
    tail, at_least = Fraction(0), []
    for p in reversed(probs):
        tail += p
        at_least.append(float(tail))
    df = pd.DataFrame({
        "win_exact": pd.Series([Fraction(c, law.credits_per_bet) for c in wins], dtype=object),
        "win": [c / law.credits_per_bet for c in wins],
        "probability_exact": pd.Series(probs, dtype=object),
        "probability": [float(p) for p in probs],
        "at_least": at_least[::-1],
    })
    df.attrs["zero"] = Fraction(weights.get(0, 0), law.cycle)
    return df


def plot_cascade_wins(result: Any, ax=None):
    """Draw P(paid-spin win >= x) against x on log-log axes (exact).

    Parameters
    ----------
    result : Analysis or CascadeLaw
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = cascade_win_data(result)
    ax = axes(ax)
    ax.step(data["win"], data["at_least"], where="post", color="C2")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("paid-spin win x (total bets)")
    ax.set_ylabel("P(win >= x)")
    ax.set_title(f"paid-spin win (exact; P(win > 0) = {1 - float(data.attrs['zero']):.4f})")
    return ax


def freed_data(result: Any) -> pd.DataFrame:
    """What :func:`plot_freed` draws: how often each reel's frozen bonus symbol is freed in a
    paid spin, by effect (exact).

    Parameters
    ----------
    result : Analysis or CascadeLaw
        Of a cascading game with ``[bonus_symbols]``.

    Returns
    -------
    pandas.DataFrame
        One row per (reel, effect) that can be freed: ``reel`` (1 = the first), ``effect``,
        ``probability_exact`` (Fraction), ``probability``.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from slotmath.exact.cascades import CascadeLaw
    >>> law = CascadeLaw({(0, 0, 0, 0): 4}, 4, 1, (0, 0, 0), {0: 4}, (1,),
    ...                  {(0, "BW"): 1, (1, "S2"): 2}, {}, {})
    >>> freed_data(law)
       reel effect probability_exact  probability
    0     1     BW               1/4         0.25
    1     2     S2               1/2         0.50
    """
    law = feature_of(result, "cascades")
    if law is None or not hasattr(law, "freed"):
        raise TypeError("expected the Analysis of a cascading game or a CascadeLaw, "
                        f"got {type(result).__name__}")
    rows = [{"reel": r + 1, "effect": e, "probability_exact": p, "probability": float(p)}
            for (r, e), p in sorted(law.freed.items())]
    return pd.DataFrame(rows, columns=["reel", "effect", "probability_exact", "probability"])


def plot_freed(result: Any, ax=None):
    """Draw each reel's freeing probability per paid spin, one bar per effect, log axis.

    Parameters
    ----------
    result : Analysis or CascadeLaw
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = freed_data(result)
    data = data[data["probability"] > 0]
    ax = axes(ax)
    effects = sorted(set(data["effect"]))
    width = 0.8 / max(len(effects), 1)
    for i, effect in enumerate(effects):
        part = data[data["effect"] == effect]
        ax.bar(part["reel"] + (i - (len(effects) - 1) / 2) * width, part["probability"],
               width, label=effect, color=f"C{i}")
    ax.set_yscale("log")
    ax.set_xticks(sorted(set(data["reel"])))
    ax.set_xlabel("reel")
    ax.set_ylabel("P(freed in a paid spin)")
    ax.set_title("bonus symbols freed (exact)")
    if effects:
        ax.legend(fontsize="small")
    return ax


def charts(analysis) -> list:
    """The report's charts: the law of the cascade count, and the multiplier carried into
    each free spin where the game has free spins."""
    out = [("Cascades per paid spin", lambda ax: plot_cascade_counts(analysis, ax))]
    if analysis.game.free_spins is not None:
        out.append(("Multiplier carried into each free spin",
                    lambda ax: plot_carried_multiplier(analysis, ax)))
    return out
