"""The sensitivity heat map draws what its data function gives, entry by entry."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

import slotmath
from slotmath.plot.tuning import plot_sensitivity_heatmap, sensitivity_heatmap_data
from slotmath.tune import sensitivities
from tests.bundled import ROOT


def test_heatmap_data_is_each_entry_in_percentage_points():
    game = slotmath.load_game(ROOT / "data" / "games" / "tiny_lines.toml")
    s = sensitivities(game)
    for change in (1, -1):
        data = sensitivity_heatmap_data(s, "rtp", change)
        seen = {(e.symbol, e.reel + 1): e for e in s.entries if e.change == change}
        for symbol in data.index:
            for reel in data.columns:
                entry = seen.get((symbol, reel))
                if entry is None:
                    assert math.isnan(data.loc[symbol, reel])
                else:
                    assert data.loc[symbol, reel] == float(entry.figures.rtp - s.base.rtp) * 100
    sd = sensitivity_heatmap_data(s, "sd", 1)
    w = next(e for e in s.entries if (e.symbol, e.reel, e.change) == ("W", 0, 1))
    assert sd.loc["W", 1] == w.figures.sd - s.base.sd


def test_heatmap_draws_one_cell_per_entry():
    s = sensitivities(slotmath.load_game(ROOT / "data" / "games" / "classic_3reel.toml"))
    ax = plot_sensitivity_heatmap(s, "hit_frequency", -1)
    data = sensitivity_heatmap_data(s, "hit_frequency", -1)
    assert len(ax.texts) == data.size
    assert [t.get_text() for t in ax.get_yticklabels()] == list(data.index)
    plt.close(ax.figure)
