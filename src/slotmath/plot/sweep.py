"""RTP against a varied parameter: how the game's figures move with one symbol's frequency."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pandas as pd

from slotmath.model.edit import replace_reel, with_symbol_count, with_symbol_weight
from slotmath.model.game import Game, Reel
from slotmath.plot._common import axes

__all__ = ["edit_symbol", "plot_rtp_sweep", "rtp_sweep_data"]


def _edit(reel: Reel, symbol: str, value: int) -> Reel:
    """Count on a plain reel; total weight on a weighted (virtual) reel."""
    if reel.weights is None:
        return with_symbol_count(reel, symbol, value)
    return with_symbol_weight(reel, symbol, value)


def edit_symbol(game: Game, symbol: str, value: int, *, reel_set: str = "base",
                reels: Sequence[int] | None = None) -> Game:
    """``game`` with ``symbol`` set to ``value`` on each of ``reels`` of ``reel_set``.

    On a plain reel ``value`` is the number of stops showing the symbol
    (:func:`~slotmath.model.edit.with_symbol_count`); on a weighted reel it is the symbol's
    total stop weight (:func:`~slotmath.model.edit.with_symbol_weight`).

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/classic_fruits.toml")
    >>> edited = edit_symbol(g, "W", 3, reels=[1, 2])
    >>> [reel.symbols.count("W") for reel in edited.base.reels]
    [0, 3, 3, 1, 1]
    """
    indices = range(game.n_reels) if reels is None else reels
    for j in indices:
        reel = game.reel_sets[reel_set].reels[j]
        game = replace_reel(game, reel_set, j, _edit(reel, symbol, value))
    return game


def rtp_sweep_data(game: Game, symbol: str, values: Iterable[int], *, reel_set: str = "base",
                   reels: Sequence[int] | None = None, level: int = 1) -> pd.DataFrame:
    """What :func:`plot_rtp_sweep` draws: exact figures of the game as one symbol varies.

    Parameters
    ----------
    game : Game
    symbol : str
    values : iterable of int
        Counts (plain reels) or total weights (weighted reels) to try, see
        :func:`edit_symbol`.
    reel_set : str
    reels : sequence of int, optional
        Reel indices (0 = reel 1) to edit, each set to the value; default all reels.
    level : int
        Bet level.

    Returns
    -------
    pandas.DataFrame
        One row per value: ``value``, ``rtp_exact`` (Fraction), ``rtp``, ``hit_frequency``
        and ``std`` (floats), from :func:`slotmath.analyze` of the edited game.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/classic_3reel.toml")
    >>> rtp_sweep_data(g, "W3", [1, 2], reels=[0])[["value", "rtp_exact"]]
       value      rtp_exact
    0      1  317035/332514
    1      2      6350/6003
    """
    from slotmath.analysis import analyze

    rows = []
    for value in values:
        a = analyze(edit_symbol(game, symbol, int(value), reel_set=reel_set, reels=reels), level)
        rows.append({"value": int(value), "rtp_exact": a.rtp, "rtp": a.rtp_float,
                     "hit_frequency": float(a.hit_frequency), "std": a.std})
    return pd.DataFrame(rows, columns=["value", "rtp_exact", "rtp", "hit_frequency", "std"])


def plot_rtp_sweep(data: pd.DataFrame, ax=None, current: int | None = None,
                   label: str = "symbol count"):
    """Draw RTP (in percent) against the varied value, marking the ``current`` one.

    Parameters
    ----------
    data : pandas.DataFrame
        From :func:`rtp_sweep_data`.
    ax : matplotlib Axes, optional
    current : int, optional
        The value the game has now; drawn as a larger point.
    label : str
        x-axis label.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes(ax)
    ax.plot(data["value"], data["rtp"] * 100, marker="o", color="C0")
    if current is not None:
        here = data[data["value"] == current]
        if len(here):
            ax.scatter(here["value"], here["rtp"] * 100, s=80, color="C3", zorder=3,
                       label=f"now: {float(here['rtp'].iloc[0]):.3%}")
            ax.legend(loc="best")
    ax.set_xlabel(label)
    ax.set_ylabel("RTP (% of total bet)")
    ax.set_title("RTP as one symbol varies")
    ax.grid(True, alpha=0.3)
    return ax
