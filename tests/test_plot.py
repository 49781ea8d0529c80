"""Charts: the *_data frames checked exactly, the plot_* functions draw what the data says."""

from fractions import Fraction
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.axes import Axes

import slotmath
from slotmath import report
from slotmath.exact.brute import brute_force
from slotmath.exact.cycle import spin_table
from slotmath.exact.distribution import FloatDistribution, WinDistribution
from slotmath.model.edit import replace_reel, with_symbol_weight
from slotmath.plot import (
    edit_symbol,
    plot_rtp_breakdown,
    plot_rtp_sweep,
    plot_win_distribution,
    plot_win_sizes,
    rtp_breakdown_data,
    rtp_sweep_data,
    win_distribution_data,
    win_size_data,
)
from slotmath.stats.par import win_size_table

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"

# A hand-made distribution in credits, 10 credits per bet, total weight 16:
# no win 8/16, 0.5 bet 4/16, 1 bet 2/16, 3 bets 1/16, 25 bets 1/16.
HAND = WinDistribution.from_mapping({0: 8, 5: 4, 10: 2, 30: 1, 250: 1}, 10)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def three_reel():
    game = slotmath.load_game(GAMES / "classic_3reel.toml")
    return game, slotmath.analyze(game)


@pytest.fixture(scope="module")
def fruits():
    game = slotmath.load_game(GAMES / "classic_fruits.toml")
    return game, slotmath.analyze(game)


# -- win distribution -------------------------------------------------------------------------
def test_win_distribution_data_one_row_per_win():
    df = win_distribution_data(HAND)
    assert list(df.columns) == ["credits", "multiple", "probability"]
    assert df["credits"].tolist() == [5, 10, 30, 250]
    assert df["multiple"].tolist() == [0.5, 1.0, 3.0, 25.0]
    assert df["probability"].tolist() == [0.25, 0.125, 0.0625, 0.0625]
    assert df.attrs["zero_probability"] == 0.5


def test_win_distribution_data_bins_by_edges_exactly():
    # (0, 1]: 0.5 and 1 bets; (1, 2]: nothing; (2, 10]: 3 bets; above 10: 25 bets.
    df = win_distribution_data(HAND, bins=[0, 1, 2, 10])
    assert df["lower"].tolist() == [0.0, 1.0, 2.0, 10.0]
    assert df["upper"].tolist() == [1.0, 2.0, 10.0, 25.0]
    assert df["probability"].tolist() == [0.375, 0.0, 0.0625, 0.0625]
    # an edge that is not a binary float is still decided exactly in credits
    thirds = WinDistribution.from_mapping({0: 1, 1: 1, 2: 1}, 3)
    df = win_distribution_data(thirds, bins=[0, Fraction(1, 3), Fraction(2, 3)])
    assert df["probability"].tolist() == [1 / 3, 1 / 3]
    # wins at or below the first edge are left out; no band above when nothing is there
    df = win_distribution_data(HAND, bins=[1, 30])
    assert df["probability"].tolist() == [0.125]
    with pytest.raises(ValueError, match="increasing"):
        win_distribution_data(HAND, bins=[2, 1])


def test_win_distribution_data_log_bins():
    df = win_distribution_data(HAND, bins=2)  # edges 0.5, sqrt(12.5), 25
    assert df["lower"].tolist() == pytest.approx([0.5, 12.5**0.5])
    assert df["upper"].tolist() == pytest.approx([12.5**0.5, 25.0])
    assert df["probability"].tolist() == [0.4375, 0.0625]
    assert df["probability"].sum() + df.attrs["zero_probability"] == 1.0


def test_win_distribution_data_takes_an_analysis_or_any_distribution(fruits):
    _, analysis = fruits
    df = win_distribution_data(analysis)
    dist = analysis.distribution
    floor = df.attrs["accuracy_floor"]  # numerical: the rows below its accuracy are left out
    assert df["credits"].tolist() == [int(c) for c, p in zip(dist.credits, dist.probs)
                                      if c > 0 and p >= floor]
    assert df["probability"].sum() + df.attrs["zero_probability"] + df.attrs[
        "below_floor_mass"] == pytest.approx(1, abs=1e-12)
    floats = FloatDistribution([0, 5, 10], [0.5, 0.25, 0.25], 10)
    assert win_distribution_data(floats)["probability"].tolist() == [0.25, 0.25]
    with pytest.raises(TypeError, match="distribution"):
        win_distribution_data(object())


def test_plot_win_distribution_draws_the_data():
    _, ax = plt.subplots()
    assert plot_win_distribution(HAND, ax=ax) is ax
    points = ax.collections[0].get_offsets()
    np.testing.assert_array_equal(points, [[0.5, 0.25], [1, 0.125], [3, 0.0625], [25, 0.0625]])
    assert ax.get_yscale() == "log" and ax.get_xscale() == "log"
    binned = plot_win_distribution(HAND, bins=[0, 1, 2, 10])
    assert isinstance(binned, Axes) and binned is not ax
    assert [p.get_height() for p in binned.patches] == [0.375, 0.0625, 0.0625]  # empty band skipped


# -- RTP breakdown ----------------------------------------------------------------------------
def test_rtp_breakdown_data_is_the_exact_components(fruits):
    _, analysis = fruits
    df = rtp_breakdown_data(analysis)
    assert df["component"].tolist() == ["lines", "scatter", "free_spins"]
    assert df["rtp_exact"].tolist() == [analysis.components[k] for k in df["component"]]
    assert df.attrs["total"] == analysis.rtp  # components add up exactly
    assert df["rtp"].tolist() == [float(v) for v in df["rtp_exact"]]
    assert df["share"].sum() == pytest.approx(1, abs=1e-15)


def test_rtp_breakdown_data_from_a_mapping_and_its_plot():
    parts = {"ways": Fraction(1, 2), "scatter": Fraction(1, 8), "free_spins": Fraction(3, 8)}
    df = rtp_breakdown_data(parts)
    assert df["rtp"].tolist() == [0.5, 0.125, 0.375]
    assert df["share"].tolist() == [0.5, 0.125, 0.375]
    ax = plot_rtp_breakdown(parts)
    assert isinstance(ax, Axes)
    assert [p.get_width() for p in ax.patches] == [50.0, 12.5, 37.5]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["ways", "scatter", "free_spins"]
    with pytest.raises(TypeError):
        rtp_breakdown_data(3)


# -- win sizes --------------------------------------------------------------------------------
def test_win_size_data_matches_the_exact_table():
    df = win_size_data(HAND, edges=(0, 1, 2, 5))
    assert df["band"].tolist() == ["0", "(0, 1]", "(1, 2]", "(2, 5]", "> 5"]
    assert df["probability"].tolist() == [0.5, 0.375, 0.0, 0.0625, 0.0625]
    # shares in bets: 0.5*4/16 + 1*2/16 = 0.25, 3/16, 25/16
    assert df["rtp_share"].tolist() == [0.0, 0.25, 0.0, 0.1875, 1.5625]
    assert df["one_in"].tolist() == [2.0, 2.667, float("inf"), 16.0, 16.0]
    assert sum(Fraction(r.rtp_share) for r in win_size_table(HAND, (0, 1, 2, 5))) == HAND.mean


def test_win_size_data_of_an_analysis_and_its_plot(three_reel):
    _, analysis = three_reel
    df = win_size_data(analysis)
    assert df["rtp_share"].sum() == pytest.approx(analysis.rtp_float, rel=1e-12)
    assert df["probability"].tolist() == report.win_size_frame(analysis)["probability"].tolist()
    ax = plot_win_sizes(analysis)
    assert isinstance(ax, Axes)
    assert [p.get_height() for p in ax.patches] == (df["rtp_share"] * 100).tolist()


# -- RTP sweep --------------------------------------------------------------------------------
def test_rtp_sweep_data_agrees_with_the_engine_and_brute_force(three_reel):
    game, analysis = three_reel
    df = rtp_sweep_data(game, "W3", [0, 1, 3], reels=[2])
    assert df["value"].tolist() == [0, 1, 3]
    assert df["rtp_exact"].iloc[1] == analysis.rtp  # W3 weighs 1 on every reel already
    for value, rtp in zip(df["value"], df["rtp_exact"]):
        edited = replace_reel(game, "base", 2, with_symbol_weight(game.base.reels[2], "W3", value))
        assert rtp == spin_table(edited).mean_bets
    assert df["rtp_exact"].iloc[2] == brute_force(edit_symbol(game, "W3", 3, reels=[2])).mean_bets
    assert df["rtp"].is_monotonic_increasing  # a heavier wild returns more


def test_rtp_sweep_with_free_spins_and_its_plot(fruits):
    game, _ = fruits
    df = rtp_sweep_data(game, "SC", [1, 2], reels=[1, 3])  # base reels 2 and 4 hold 1 SC
    for value, rtp in zip(df["value"], df["rtp_exact"]):
        assert rtp == slotmath.analyze(edit_symbol(game, "SC", value, reels=[1, 3])).rtp
    assert df["rtp_exact"].iloc[0] == slotmath.analyze(game).rtp
    assert df["rtp"].iloc[1] > df["rtp"].iloc[0]  # more scatters, more features
    ax = plot_rtp_sweep(df, current=1)
    assert isinstance(ax, Axes)
    np.testing.assert_array_equal(ax.lines[0].get_xydata(), np.c_[[1, 2], df["rtp"] * 100])
    assert ax.collections[0].get_offsets().tolist() == [[1.0, df["rtp"].iloc[0] * 100]]
