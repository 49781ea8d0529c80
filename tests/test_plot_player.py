"""The player's charts: each *_data frame against an independent path (exact integer
convolution, every path walked, hand values), and each plot_* draws what its data says."""

from fractions import Fraction
from math import erf, sqrt

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.axes import Axes
from player_reference import brute_ruin, exact_quantile, exact_total_law

from slotmath import player
from slotmath.exact.distribution import WinDistribution
from slotmath.plot.player import (
    ahead_data,
    hourly_loss_data,
    net_result_data,
    plot_ahead,
    plot_hourly_loss,
    plot_net_result,
    plot_round_outcomes,
    plot_rtp_funnel,
    plot_ruin,
    round_outcomes_data,
    rtp_funnel_data,
    ruin_data,
)

# 10 credits a bet: no win 9/17, 0.7 bet 5/17, 3.1 bets 2/17, 9 bets 1/17
LAW = WinDistribution.from_mapping({0: 9, 7: 5, 31: 2, 90: 1}, 10)


def normal_mass(lower, upper, mean, sd):
    def phi(x):
        return 0.5 * (1 + erf((x - mean) / (sd * sqrt(2))))
    return phi(upper) - phi(lower)


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_net_result_data_one_band_per_point():
    coin = WinDistribution.from_mapping({0: 1, 2: 1}, 1)
    df = net_result_data(player.session_law(coin, 2))
    assert df["lower"].tolist() == [-3, -1, 1] and df["upper"].tolist() == [-1, 1, 3]
    assert np.allclose(df["probability"], [0.25, 0.5, 0.25], atol=1e-15)
    expected = [normal_mass(lo, hi, 0.0, sqrt(2)) for lo, hi in zip(df["lower"], df["upper"])]
    assert np.allclose(df["normal"], expected, atol=1e-15)


def test_net_result_data_bands_hold_the_exact_mass():
    n = 30
    s = player.session_law(LAW, n)
    df = net_result_data(s, bins=20)
    assert len(df) == 20
    credits, probs = exact_total_law(LAW, n)
    net = np.array([Fraction(int(c), 10) - n for c in credits])
    for row in df.itertuples():
        inside = [p for x, p in zip(net, probs) if row.lower <= x < row.upper]
        assert abs(row.probability - float(sum(inside, Fraction(0)))) <= s.error_bound
    below = sum((p for x, p in zip(net, probs) if x < df["lower"].iloc[0]), Fraction(0))
    assert abs(df.attrs["below"] - float(below)) <= s.error_bound


def test_rtp_funnel_data_against_exact_quantiles():
    rounds, levels = [1, 4, 9], (0.1, 0.5, 0.9)
    df = rtp_funnel_data(player.rtp_funnel(LAW, rounds, levels))
    assert len(df) == 9 and df.attrs["rtp"] == float(LAW.mean)
    for row in df.itertuples():
        credits, probs = exact_total_law(LAW, row.rounds)
        x = Fraction(exact_quantile(credits, probs, Fraction(row.level)), 10 * row.rounds)
        assert row.lower <= x <= row.upper
        assert row.normal == pytest.approx(float(LAW.mean) + {0.1: -1.2815515655446004,
                                                              0.5: 0.0,
                                                              0.9: 1.2815515655446004}[
            row.level] * LAW.std / sqrt(row.rounds))


def test_ahead_data_against_the_exact_law():
    df = ahead_data(player.ahead_curve(LAW, [1, 5, 20]))
    for row in df.itertuples():
        credits, probs = exact_total_law(LAW, row.rounds)
        exact = sum((p for c, p in zip(credits, probs) if c > 10 * row.rounds), Fraction(0))
        assert row.lower <= exact <= row.upper
        assert abs(row.value - float(exact)) < 1e-12


def test_ruin_data_against_every_path():
    df = ruin_data(player.ruin_curve(LAW, 2, 5))
    weights = {int(c): int(w) for c, w in zip(LAW.credits, LAW.weights)}
    assert df["rounds"].tolist() == [1, 2, 3, 4, 5]
    for row in df.itertuples():
        assert row.value == float(brute_ruin(weights, 10, 2, row.rounds))
    assert df.attrs == {"bankroll": 2, "method": "exact"}


def test_hourly_loss_data_is_exact_per_cycle():
    law = WinDistribution.from_mapping({0: 52, 2: 48}, 1)   # RTP 96%
    df = hourly_loss_data([player.hourly_loss(law, c) for c in (2.5, 3, 7.2)])
    assert df["rounds_per_hour"].tolist() == [1440, 1200, 500]
    assert df["expected_loss"].tolist() == [57.6, 48.0, 20.0]
    assert set(df.columns) >= {"net_0.05", "net_0.5", "net_0.95", "net_0.05_normal"}


def test_round_outcomes_data_by_hand():
    df = round_outcomes_data(LAW)
    assert df["probability"].tolist() == pytest.approx([9 / 17, 5 / 17, 3 / 17], abs=1e-16)
    mean, sd = float(LAW.mean), LAW.std
    assert df["normal"].tolist() == pytest.approx([
        normal_mass(-np.inf, 0, mean, sd), normal_mass(0, 1, mean, sd),
        normal_mass(1, np.inf, mean, sd)], abs=1e-15)


def test_every_chart_draws_its_data():
    s = player.session_law(LAW, 50)
    ax = plot_net_result(s, bins=10)
    assert isinstance(ax, Axes) and len(ax.patches) == len(net_result_data(s, 10))
    funnel = player.rtp_funnel(LAW, [1, 10, 100])
    ax = plot_rtp_funnel(funnel)
    assert len(ax.lines) == 2 * 3 + 1
    assert isinstance(plot_ahead(player.ahead_curve(LAW, [1, 10])), Axes)
    ax = plot_ruin(player.ruin_curve(LAW, 3, 40))
    assert ax.lines[0].get_ydata()[-1] == pytest.approx(float(
        player.ruin_curve(LAW, 3, 40).exact[-1]))
    bounds = player.ruin_curve(LAW, 3, 40, method="bounds")
    assert len(plot_ruin(bounds).collections) == 1  # a band, no line of values
    assert isinstance(plot_hourly_loss([player.hourly_loss(LAW, c) for c in (2.5, 5)]), Axes)
    ax = plot_round_outcomes(LAW)
    assert len(ax.patches) == 6
