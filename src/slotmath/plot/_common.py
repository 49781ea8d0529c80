"""Shared helpers of the plot modules: what counts as a result, where to draw."""

from __future__ import annotations

from typing import Any


def as_distribution(result: Any):
    """The win distribution of ``result``: an Analysis's ``.distribution``, or the object
    itself when it already has ``credits``, ``probs`` and ``credits_per_bet``."""
    if all(hasattr(result, name) for name in ("credits", "probs", "credits_per_bet")):
        return result
    dist = getattr(result, "distribution", None)
    if dist is not None:
        return dist
    raise TypeError(
        "expected an Analysis or a win distribution (credits, probs, credits_per_bet), "
        f"got {type(result).__name__}"
    )


def feature_of(result: Any, name: str):
    """Feature ``name``'s figures when ``result`` is an Analysis (``result.features[name]``;
    None when its game has no such feature), else ``result`` itself (already the figures)."""
    features = getattr(result, "features", None)
    if features is None or isinstance(result, type):
        return result
    return features.get(name, None)


def axes(ax=None):
    """``ax``, or new Axes on a new pyplot figure."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    return ax
