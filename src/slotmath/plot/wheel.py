"""The bonus wheel's coin divisions: each one's prize, stop weight and share of the coin stops."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from slotmath.plot._common import axes

__all__ = ["plot_wheel", "wheel_data"]


def wheel_data(game) -> pd.DataFrame:
    """What :func:`plot_wheel` draws: one row per coin division of the game's bonus wheel.

    Parameters
    ----------
    game : Game
        A game with a ``bonus_wheel``.

    Returns
    -------
    pandas.DataFrame
        ``division`` (the label, or the prize as "N x bet"), ``prize`` (x total bet, exact),
        ``weight``, ``share`` (exact: weight / sum of the coin weights; with jackpots, the
        share of what the jackpot divisions leave) and ``share_float``.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from slotmath.model.game import BonusWheel, Game
    >>> g = Game("g", (3, 3, 3), 5, {}, {}, paylines=((1, 1, 1),), bonus_wheel=BonusWheel(
    ...     "B", 3, "once", (Fraction(1), Fraction(5)), (3, 1)))
    >>> wheel_data(g)[["division", "prize", "weight", "share"]]
      division prize  weight share
    0  1 x bet     1       3   3/4
    1  5 x bet     5       1   1/4
    """
    wheel = game.bonus_wheel
    if wheel is None:
        raise ValueError(f"{game.name} has no bonus wheel")
    total = sum(wheel.weights)
    labels = wheel.labels or tuple(f"{float(p):g} x bet" for p in wheel.prizes)
    shares = [Fraction(w, total) for w in wheel.weights]
    return pd.DataFrame({"division": list(labels), "prize": list(wheel.prizes),
                         "weight": list(wheel.weights), "share": shares,
                         "share_float": [float(s) for s in shares]})


def plot_wheel(game, ax=None):
    """Bars of each coin division's share of the coin stops, labelled with its prize.

    Parameters
    ----------
    game : Game
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = wheel_data(game)
    ax = axes(ax)
    positions = range(len(data))
    ax.bar(positions, data["share_float"], color="#4c72b0")
    ax.set_xticks(list(positions), data["division"], rotation=30, ha="right")
    ax.set_ylabel("share of the coin stops")
    mean = sum(data["prize"] * data["share"])
    ax.set_title(f"bonus wheel: weights {', '.join(map(str, data['weight']))}; "
                 f"mean coin prize {float(mean):.4g} x bet", fontsize="medium")
    return ax


def charts(analysis) -> list:
    """The report's chart of the wheel's divisions."""
    return [("Bonus wheel", lambda ax: plot_wheel(analysis.game, ax))]
