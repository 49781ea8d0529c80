"""Charts as a new user saw them (issue 12, item 4): no noise drawn as data, readable axes."""

from __future__ import annotations

import itertools
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import slotmath
from slotmath.plot import plot_hit_value, plot_time_between_hits, plot_win_distribution
from slotmath.stats.accuracy import MASS_TOLERANCE, accuracy_floor

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"


@pytest.fixture(scope="module")
def fruits():
    return slotmath.analyze(slotmath.load_game(GAMES / "classic_fruits.toml"))


@pytest.fixture(scope="module")
def frog():
    return slotmath.analyze(slotmath.load_game(GAMES / "gold_money_frog.toml"), 1)


def test_the_accuracy_floor_is_the_stated_accuracy(fruits):
    d = fruits.distribution
    assert not fruits.distribution_exact
    assert accuracy_floor(d) >= MASS_TOLERANCE >= d.aliased_mass_bound + d.dropped_bound
    assert accuracy_floor(slotmath.analyze(slotmath.load_game(GAMES / "classic_3reel.toml"))
                          .distribution) == 0.0
    assert min(d.probs) < 1e-18  # the noise the chart used to draw as points


@pytest.mark.parametrize("bins", [None, 40])
def test_no_probability_below_the_accuracy_floor_is_drawn(fruits, bins):
    # the chart drew bars down to ~1e-20 against a stated accuracy of 1e-12
    floor = accuracy_floor(fruits.distribution)
    ax = Figure().add_subplot()
    plot_win_distribution(fruits, ax=ax, bins=bins)
    if bins is None:
        drawn = ax.collections[0].get_offsets()[:, 1]
    else:
        drawn = np.array([p.get_height() for p in ax.patches])
    assert len(drawn) > 10 and drawn.min() >= floor
    lines = [line for line in ax.lines if "numerical accuracy" in str(line.get_label())]
    assert len(lines) == 1 and lines[0].get_ydata()[0] == floor


def test_an_exact_distribution_has_no_floor_line():
    a = slotmath.analyze(slotmath.load_game(GAMES / "classic_3reel.toml"))
    ax = Figure().add_subplot()
    plot_win_distribution(a, ax=ax)
    assert not ax.lines and len(ax.collections[0].get_offsets()) == len(
        [c for c in a.distribution.credits if c > 0])


def test_pool_axes_have_short_labels_that_do_not_overlap_and_no_offset(frog):
    # the SUPER pool's x axis had ten six-digit labels running into each other, and the
    # rounds between hits a "1e6" offset
    fig = Figure(figsize=(16, 11), layout="constrained")  # the jackpot panel's figure
    grid = fig.add_gridspec(3, 3)
    for column, name in enumerate(frog.features["jackpots"].pools):
        plot_hit_value(frog, name, ax=fig.add_subplot(grid[1, column]))
        plot_time_between_hits(frog, name, ax=fig.add_subplot(grid[2, column]))
    FigureCanvasAgg(fig).draw()
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        assert ax.xaxis.get_offset_text().get_text() == "", ax.get_title()
        low, high = ax.get_xlim()
        shown = [t for t, x in zip(ax.get_xticklabels(), ax.get_xticks())
                 if low <= x <= high and t.get_text()]
        assert 3 <= len(shown) <= 7, ax.get_title()
        assert all(len(t.get_text()) <= 5 for t in shown), [t.get_text() for t in shown]
        boxes = sorted((t.get_window_extent(renderer) for t in shown), key=lambda b: b.x0)
        gaps = [b.x0 - a.x1 for a, b in itertools.pairwise(boxes)]
        assert min(gaps) >= 10, (ax.get_title(), gaps)  # pixels between two labels
