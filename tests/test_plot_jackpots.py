"""Jackpot charts: the *_data frames agree with the pool analyses they are read from (checked
through DiscreteDistribution.cdf, which the binning does not use), and the plot_* functions
draw exactly what the data says."""

from fractions import Fraction
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from strategies import jackpot_game

import slotmath
from slotmath.plot import (
    hit_value_data,
    plot_hit_value,
    plot_pool,
    plot_rtp_breakdown,
    plot_rtp_by_level,
    plot_time_between_hits,
    pool_data,
    rtp_breakdown_data,
    rtp_by_level_data,
    time_between_hits_data,
)
from slotmath.plot.jackpots import _binned

GAMES = Path(__file__).resolve().parents[1] / "data" / "games"

# name of the data function -> (the pool's law, the pool figure it must average to)
LAWS = {
    "hit_value_data": ("hit_value_distribution", "hit_value_mean"),
    "time_between_hits_data": ("cycle_length_distribution", "mean_rounds_between_hits"),
    "pool_data": ("stationary_pool", "mean_pool"),
}
DATA = {"hit_value_data": hit_value_data, "time_between_hits_data": time_between_hits_data,
        "pool_data": pool_data}


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def game():
    return jackpot_game()


@pytest.fixture(scope="module")
def analyses(game):
    return {level: slotmath.analyze(game, level) for level in game.bet_levels}


@pytest.fixture(scope="module")
def frog_level_4():
    """Gold Money Frog at its fastest level: pool laws of 4,500 to 540,000 lattice points."""
    return slotmath.analyze(slotmath.load_game(GAMES / "gold_money_frog.toml"), 4)


# -- the pool laws ------------------------------------------------------------------------------
@pytest.mark.parametrize("function", sorted(DATA))
@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("name", ["MINI", "GRAND"])
def test_law_frames_agree_with_the_pool_analysis(analyses, function, level, name):
    a = analyses[level]
    pool = a.features["jackpots"].pools[name]
    law_name, mean_name = LAWS[function]
    law = getattr(pool, law_name)
    df = DATA[function](a, name)
    # the probabilities are the law's, bin by bin (through its cdf), and add up to 1
    assert df["probability"].sum() == pytest.approx(1, abs=1e-12)
    expected = law.cdf(df["high"].to_numpy()) - law.cdf(df["low"].to_numpy())
    expected[-1] += 1 - law.cdf(df["high"].iloc[-1])  # the last bin holds the far tail
    np.testing.assert_allclose(df["probability"], expected, rtol=0, atol=1e-12)
    # the bin means average back to the analysis' own figure
    assert df.attrs["mean"] == getattr(pool, mean_name)
    assert (df["bin_mean"] * df["probability"]).sum() == pytest.approx(df.attrs["mean"],
                                                                       rel=1e-12)
    assert df.attrs["error"] == pool.error_bounds[mean_name]
    # contiguous bins, each mean inside its bin (the last may hold the tail beyond it)
    np.testing.assert_array_equal(df["low"].to_numpy()[1:], df["high"].to_numpy()[:-1])
    inside = (df["bin_mean"] >= df["low"]) & (df["bin_mean"] <= df["high"])
    assert inside.iloc[:-1].all()
    assert 0 < df.attrs["beyond"] <= 1e-6
    assert df.attrs["beyond"] == pytest.approx(1 - law.cdf(df["high"].iloc[-1]), abs=1e-13)
    assert len(df) <= 50


def test_bins_hold_equally_many_lattice_points(analyses):
    a = analyses[1]
    law = a.features["jackpots"].pools["GRAND"].hit_value_distribution
    df = hit_value_data(a, "GRAND", bins=7)
    counts = [int(((law.values >= lo) & (law.values < hi)).sum())
              for lo, hi in zip(df["low"], df["high"])]
    assert len(set(counts[:-1])) == 1 and counts[-1] <= counts[0]
    assert len(df) == 7


def test_time_between_hits_counts_whole_rounds(analyses):
    a = analyses[1]
    pool = a.features["jackpots"].pools["MINI"]
    df = time_between_hits_data(a, "MINI", bins=10)
    # two hits in one round (N = 0) happen here: several wheel spins per round are possible
    assert pool.cycle_length_distribution.values[0] == 0
    assert df["low"].iloc[0] == -0.5
    assert np.all(df["low"] % 1 == 0.5)
    assert df.attrs["median"] == float(pool.cycle_length_distribution.quantile(0.5))


def test_hit_value_and_pool_frames_carry_money(game, analyses):
    a = analyses[2]
    pool = a.features["jackpots"].pools["GRAND"]
    for function, law in ((hit_value_data, pool.hit_value_distribution),
                          (pool_data, pool.stationary_pool)):
        df = function(a, "GRAND")
        assert df.attrs["seed"] == 40.0
        assert df.attrs["bet_value"] == float(game.bet_value(2))
        assert df.attrs["currency"] == "EUR"
        assert df["low"].iloc[0] < law.values[0] < df["high"].iloc[0]  # the lowest value is in
    # the pool after a round's contribution is above the seed
    assert pool_data(a, "GRAND")["bin_mean"].iloc[0] > 40.0


def test_a_large_lattice_is_binned_with_its_mean_kept(frog_level_4):
    a = frog_level_4
    for name, pool in a.features["jackpots"].pools.items():
        df = hit_value_data(a, name)
        assert len(df) == 50
        assert df["probability"].sum() == pytest.approx(1, abs=1e-12)
        assert (df["bin_mean"] * df["probability"]).sum() == pytest.approx(pool.hit_value_mean,
                                                                           rel=1e-12)
        df = time_between_hits_data(a, name)
        assert (df["bin_mean"] * df["probability"]).sum() == pytest.approx(
            pool.mean_rounds_between_hits, rel=1e-12)


def test_irregular_support_gets_equal_width_bins():
    values = np.array([1.0, 1.7, 4.0, 10.0])  # not evenly spaced
    probs = np.array([0.4, 0.1, 0.3, 0.2])
    df = _binned(values, probs, 3, 0.0)
    np.testing.assert_allclose(df["low"], [1, 4, 7])
    np.testing.assert_allclose(df["probability"], [0.5, 0.3, 0.2])
    np.testing.assert_allclose(df["bin_mean"], [1.14, 4.0, 10.0])
    lattice = _binned(np.array([1.0, 1.5, 4.0, 10.0]), probs, 3, 0.0)  # on a lattice of 0.5
    np.testing.assert_allclose(lattice["low"], [0.75, 4.25, 7.75])  # 7 points a bin, centred
    assert df.attrs["beyond"] == 0
    one = _binned(np.array([3.0]), np.array([1.0]), 5, 1e-6)
    assert one["probability"].tolist() == [1.0] and one["bin_mean"].tolist() == [3.0]
    folded = _binned(values, probs, 3, 0.25)  # the top 0.2 is folded into the last bin
    assert folded["high"].iloc[-1] == 4.0 and folded["probability"].iloc[-1] == pytest.approx(0.5)
    assert folded.attrs["beyond"] == pytest.approx(0.2)


def test_law_frames_refuse_bad_requests(analyses):
    a = analyses[1]
    with pytest.raises(ValueError, match="no jackpot 'SUPER'"):
        hit_value_data(a, "SUPER")
    with pytest.raises(ValueError, match="bins"):
        pool_data(a, "MINI", bins=0)
    with pytest.raises(ValueError, match="tail"):
        time_between_hits_data(a, "MINI", tail=1.0)
    plain = slotmath.analyze(slotmath.load_game(GAMES / "tiny_lines.toml"))
    with pytest.raises(ValueError, match="no progressive jackpots"):
        hit_value_data(plain, "MINI")


@pytest.mark.parametrize("plot, data", [(plot_hit_value, hit_value_data),
                                        (plot_time_between_hits, time_between_hits_data),
                                        (plot_pool, pool_data)])
def test_law_plots_draw_the_data(analyses, plot, data):
    a = analyses[1]
    df = data(a, "MINI", bins=12)
    ax = plot(a, "MINI", bins=12)
    assert isinstance(ax, Axes)
    (bins,) = ax.patches  # one filled step patch: a bin's height over its edges
    heights, edges, _ = bins.get_data()
    assert heights.tolist() == df["probability"].tolist()
    assert edges.tolist() == pytest.approx([*df["low"], df["high"].iloc[-1]])
    lines = [line.get_xdata()[0] for line in ax.get_lines()]
    assert df.attrs["mean"] in lines
    _, given = plt.subplots()
    assert plot(a, "GRAND", ax=given) is given


# -- RTP by bet level ---------------------------------------------------------------------------
def test_rtp_by_level_data_is_each_levels_analysis(game, analyses):
    df = rtp_by_level_data(game)
    assert df["level"].tolist() == [1, 2]
    names = df.attrs["components"]
    assert names == list(analyses[1].components)
    assert "max_win_cap" in names and "jackpots" in names
    for row, (level, a) in zip(df.itertuples(), analyses.items()):
        assert row.rtp == a.rtp and row.rtp_error == a.rtp_error
        assert row.bet_value == float(game.bet_value(level))
        assert [getattr(row, n) for n in names] == [float(a.components[n]) for n in names]
        assert sum(getattr(row, n) for n in names) == pytest.approx(row.rtp, abs=1e-14)
    assert (df["max_win_cap"] < 0).all()  # this game's low cap removes something at each level
    # analyses given are reused, and the result is the same
    reused = rtp_by_level_data(game, [2], analyses={2: analyses[2]})
    assert reused.iloc[0].tolist() == df.iloc[1].tolist()
    with pytest.raises(ValueError, match="level 1"):
        rtp_by_level_data(game, [2], analyses={2: analyses[1]})


def test_rtp_by_level_for_a_game_without_coin_value():
    game = slotmath.load_game(GAMES / "classic_3reel.toml")
    df = rtp_by_level_data(game)
    assert df["bet_value"].isna().all()
    assert df["rtp"].tolist() == [float(slotmath.analyze(game, lv).rtp) for lv in game.bet_levels]
    assert (df["rtp_error"] == 0).all()


def test_stacked_rtp_by_level_draws_every_part(game, analyses):
    df = rtp_by_level_data(game, analyses=analyses)
    ax = plot_rtp_by_level(df, published={1: 3.0, 5: 1.0})
    assert isinstance(ax, Axes)
    names = df.attrs["components"]
    heights = [p.get_height() for p in ax.patches]
    expected = [v * 100 for n in names for v in df[n]]
    assert heights == pytest.approx(expected)
    # the cap's bars hang below zero, every other part stacks upward from zero
    cap = ax.patches[names.index("max_win_cap") * 2:][:2]
    assert all(p.get_y() == 0 and p.get_height() < 0 for p in cap)
    assert ax.get_ylim()[0] < 0
    tops = [p.get_y() + p.get_height() for p in ax.patches if p.get_height() > 0]
    totals = [t.get_text() for t in ax.texts]
    assert totals == [f"{r:.2%}" for r in df[names].sum(axis=1)]
    assert max(tops) == pytest.approx(max(df[[n for n in names if n != "max_win_cap"]]
                                          .sum(axis=1)) * 100)
    marks = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(marks) == 1 and len(marks[0].get_segments()) == 1  # level 5 is not in the data
    assert marks[0].get_segments()[0][0][1] == pytest.approx(300.0)


def test_grouped_rtp_by_level_draws_chosen_parts(game, analyses):
    df = rtp_by_level_data(game, analyses=analyses)
    ax = plot_rtp_by_level(df, kind="grouped", components=["jackpots", "bonus_wheel"])
    assert [p.get_height() for p in ax.patches] == pytest.approx(
        [*(df["jackpots"] * 100), *(df["bonus_wheel"] * 100)])
    assert "jackpots, bonus_wheel" in ax.get_title()
    with pytest.raises(ValueError, match="kind"):
        plot_rtp_by_level(df, kind="pie")
    with pytest.raises(ValueError, match="no component"):
        plot_rtp_by_level(df, components=["ways"])


def test_plot_rtp_by_level_analyses_a_game_itself():
    game = slotmath.load_game(GAMES / "classic_3reel.toml")
    ax = plot_rtp_by_level(game)
    df = rtp_by_level_data(game)
    assert [t.get_text() for t in ax.texts] == [f"{r:.2%}" for r in df["rtp"]]


# -- the RTP breakdown with numerical parts -------------------------------------------------------
def test_rtp_breakdown_of_a_jackpot_game_keeps_numerical_parts_as_floats(analyses):
    a = analyses[1]
    df = rtp_breakdown_data(a)
    exact = dict(zip(df["component"], df["rtp_exact"]))
    assert exact["lines"] == a.components["lines"] and isinstance(exact["lines"], Fraction)
    assert exact["jackpots"] is None and exact["bonus_wheel"] is None
    assert exact["max_win_cap"] is None
    assert df["rtp"].tolist() == [float(v) for v in a.components.values()]
    assert df.attrs["total"] == pytest.approx(a.rtp, abs=1e-15)
    assert df["share"].sum() == pytest.approx(1, abs=1e-14)
    ax = plot_rtp_breakdown(a)
    widths = [p.get_width() for p in ax.patches]
    assert widths == pytest.approx(df["rtp"].to_numpy() * 100)
    assert widths[-1] < 0 and ax.get_xlim()[0] <= widths[-1]  # the cap's bar is on the axes
