"""The sensitivity heat map: how a figure changes with one symbol more or fewer on each reel."""

from __future__ import annotations

import numpy as np
import pandas as pd

from slotmath.plot._common import axes

__all__ = ["plot_sensitivity_heatmap", "sensitivity_heatmap_data"]

#: figure -> (scale to display, unit shown)
_SHOWN = {"rtp": (100, "RTP, percentage points"),
          "hit_frequency": (100, "hit frequency, percentage points"),
          "second_moment": (1, "E[X^2], bets^2"), "sd": (1, "SD, bets")}


def sensitivity_heatmap_data(sensitivities, figure: str = "rtp", change: int = 1
                             ) -> pd.DataFrame:
    """What :func:`plot_sensitivity_heatmap` draws: the change of ``figure`` for one
    ``change`` (+1 or -1), symbols by reels, as floats in the unit drawn (percentage points
    for the RTP and the hit frequency); NaN where the edit is impossible.

    Parameters
    ----------
    sensitivities : slotmath.tune.Sensitivities
    figure : {"rtp", "hit_frequency", "second_moment", "sd"}
    change : {1, -1}

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.tune import sensitivities
    >>> s = sensitivities(slotmath.load_game("data/games/tiny_lines.toml"))
    >>> sensitivity_heatmap_data(s).loc["BAR"].round(4).tolist()   # 73/1344 x 100 on reel 1
    [5.4315, -4.9851, -3.9435]
    """
    scale, _ = _SHOWN[figure]
    grid = sensitivities.grid(figure, change)
    return grid.map(lambda v: np.nan if v is None else float(v) * scale).astype(float)


def plot_sensitivity_heatmap(sensitivities, figure: str = "rtp", change: int = 1, ax=None):
    """A heat map of :func:`sensitivity_heatmap_data`, each cell labelled with its value.

    Returns
    -------
    matplotlib.axes.Axes
    """
    data = sensitivity_heatmap_data(sensitivities, figure, change)
    ax = axes(ax)
    values = data.to_numpy()
    bound = np.nanmax(np.abs(values)) if np.isfinite(values).any() else 1.0
    image = ax.imshow(np.ma.masked_invalid(values), cmap="RdBu", vmin=-bound, vmax=bound,
                      aspect="auto")
    ax.set_xticks(range(len(data.columns)), [f"reel {c}" for c in data.columns])
    ax.set_yticks(range(len(data.index)), list(data.index))
    for (i, j), v in np.ndenumerate(values):
        ax.text(j, i, "-" if np.isnan(v) else f"{v:+.3g}", ha="center", va="center",
                fontsize="small")
    _, unit = _SHOWN[figure]
    ax.figure.colorbar(image, ax=ax, label=unit)
    sign = "one more" if change > 0 else "one fewer"
    ax.set_title(f"{sensitivities.game.name} ({sensitivities.reel_set}): change of the "
                 f"{unit.split(',')[0]} with {sign} of a symbol", fontsize="medium")
    return ax
