"""PAR statistics on hand-computed distributions and on generated ones."""

from __future__ import annotations

import math
from dataclasses import FrozenInstanceError, asdict
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slotmath.exact.distribution import FloatDistribution, WinDistribution
from slotmath.stats import (
    confidence_table,
    hit_frequency,
    hit_frequency_one_in,
    normal_quantile,
    par_summary,
    rtp,
    rtp_confidence_interval,
    standard_deviation,
    top_award,
    volatility_index,
    win_size_table,
)

SETTINGS = settings(max_examples=80, deadline=None)

# One spin in four pays 10 credits = 1 bet.
TINY = WinDistribution.from_mapping({0: 3, 10: 1}, credits_per_bet=10)


@st.composite
def dists(draw):
    cpb = draw(st.sampled_from([1, 3, 10, 25]))
    keys = draw(st.lists(st.integers(0, 40 * cpb), min_size=1, max_size=10, unique=True))
    # Some amounts exactly on band edges, some far beyond the last edge.
    keys += draw(st.lists(st.sampled_from([e * cpb for e in (1, 2, 5, 1000, 2000)]), max_size=3))
    weights = {k: draw(st.integers(1, 10**12)) for k in keys}
    return WinDistribution.from_mapping(weights, cpb)


# -- hand-computed --------------------------------------------------------------------------
def test_normal_quantiles():
    assert normal_quantile(0.90) == pytest.approx(1.6448536269514722, rel=1e-12)
    assert normal_quantile(0.95) == pytest.approx(1.959963984540054, rel=1e-12)
    for bad in (0, 1, 1.5, -0.1):
        with pytest.raises(ValueError):
            normal_quantile(bad)


def test_tiny_distribution_by_hand():
    sd = math.sqrt(3 / 16)  # E[X] = 1/4, E[X^2] = 1/4 in bets
    assert rtp(TINY) == Fraction(1, 4) and isinstance(rtp(TINY), Fraction)
    assert hit_frequency(TINY) == Fraction(1, 4) and isinstance(hit_frequency(TINY), Fraction)
    assert hit_frequency_one_in(TINY) == 4.0
    assert standard_deviation(TINY) == pytest.approx(sd, rel=1e-15)
    assert volatility_index(TINY, 0.90) == pytest.approx(1.6449 * sd, rel=1e-4)
    assert volatility_index(TINY, 0.95) == pytest.approx(1.9600 * sd, rel=1e-4)
    ci = rtp_confidence_interval(TINY, 10_000, 0.95)
    assert (ci.spins, ci.confidence) == (10_000, 0.95)
    assert ci.lower == pytest.approx(0.25 - 1.959964 * sd / 100, rel=1e-6)
    assert ci.upper == pytest.approx(0.25 + 1.959964 * sd / 100, rel=1e-6)
    top = top_award(TINY)
    assert (top.credits, top.multiple, top.probability, top.one_in) == (10, 1, Fraction(1, 4), 4.0)


def test_win_size_table_by_hand():
    # cpb 10: wins 0, 0.5x, 1x (on the edge: in (0, 1]), 3x, 1500x
    d = WinDistribution.from_mapping({0: 10, 5: 4, 10: 2, 30: 3, 15_000: 1}, 10)
    rows = {r.label: r for r in win_size_table(d)}
    assert list(rows) == [
        "0", "(0, 1]", "(1, 2]", "(2, 5]", "(5, 10]", "(10, 20]", "(20, 50]", "(50, 100]",
        "(100, 200]", "(200, 500]", "(500, 1000]", "> 1000",
    ]  # fmt: skip
    assert rows["0"].probability == Fraction(1, 2) and rows["0"].rtp_share == 0
    assert rows["(0, 1]"].probability == Fraction(6, 20)
    assert rows["(0, 1]"].rtp_share == Fraction(4 * 5 + 2 * 10, 20 * 10)
    assert rows["(2, 5]"].probability == Fraction(3, 20)
    assert rows["(2, 5]"].rtp_share == Fraction(90, 200)
    assert rows["> 1000"].probability == Fraction(1, 20) and rows["> 1000"].one_in == 20.0
    assert rows["> 1000"].rtp_share == Fraction(15_000, 200)
    assert rows["(1, 2]"].probability == 0 and rows["(1, 2]"].one_in == math.inf
    assert (rows["> 1000"].lower, rows["> 1000"].upper) == (1000, None)
    assert (rows["(0, 1]"].lower, rows["(0, 1]"].upper) == (0, 1)


def test_fractional_edges_are_compared_exactly():
    # 1/3 bet at cpb 3 is exactly 1 credit: it belongs to (0, 1/3], not the next band.
    d = WinDistribution.from_mapping({1: 1, 2: 1}, 3)
    rows = win_size_table(d, edges=(0, Fraction(1, 3), 1))
    assert [r.label for r in rows] == ["0", "(0, 1/3]", "(1/3, 1]", "> 1"]
    assert [r.probability for r in rows] == [0, Fraction(1, 2), Fraction(1, 2), 0]


def test_bad_arguments():
    with pytest.raises(ValueError, match="start at 0"):
        win_size_table(TINY, edges=(1, 2))
    with pytest.raises(ValueError, match="increasing"):
        win_size_table(TINY, edges=(0, 2, 2))
    with pytest.raises(ValueError, match="non-negative"):
        win_size_table(WinDistribution.from_mapping({-10: 3, 0: 1}, credits_per_bet=10))
    with pytest.raises(ValueError):
        rtp_confidence_interval(TINY, 0)
    with pytest.raises(ValueError):
        volatility_index(TINY, 95)
    with pytest.raises(TypeError):
        rtp({0: 1})


def test_results_are_frozen():
    s = par_summary(TINY)
    with pytest.raises(FrozenInstanceError):
        s.rtp = 1
    with pytest.raises(FrozenInstanceError):
        s.win_sizes[0].probability = 1


def test_anything_with_credits_and_probs_is_read_as_float():
    class Numeric:
        credits, probs, credits_per_bet = TINY.credits, TINY.probs, 10

    assert rtp(Numeric()) == 0.25 and top_award(Numeric()).probability == 0.25


# -- generated ------------------------------------------------------------------------------
@SETTINGS
@given(dists())
def test_win_size_table_adds_up_exactly(d):
    rows = win_size_table(d)
    assert sum(r.probability for r in rows) == 1
    assert sum(r.rtp_share for r in rows) == rtp(d)
    assert all(isinstance(r.probability, Fraction) for r in rows)
    # Reference: place each amount by its exact multiple of the bet, one at a time.
    for r in rows:
        members = [
            int(c) for c in d.credits
            if (x := Fraction(int(c), d.credits_per_bet)) == 0 and r.label == "0"
            or x > 0 and x > r.lower and (r.upper is None or x <= r.upper) and r.label != "0"
        ]  # fmt: skip
        assert r.probability == sum(d.probability_of(c) for c in members)
        cpb = d.credits_per_bet
        assert r.rtp_share == sum(Fraction(c, cpb) * d.probability_of(c) for c in members)


@SETTINGS
@given(dists())
def test_float_statistics_agree_with_exact(d):
    exact, floats = par_summary(d), par_summary(d.to_float())
    assert exact.exact and not floats.exact
    assert floats.rtp == pytest.approx(float(exact.rtp), rel=1e-12, abs=1e-15)
    assert floats.hit_frequency == pytest.approx(float(exact.hit_frequency), rel=1e-12)
    assert floats.standard_deviation == pytest.approx(exact.standard_deviation, rel=1e-9, abs=1e-12)
    assert floats.top_award.credits == exact.top_award.credits
    assert floats.top_award.probability == pytest.approx(float(exact.top_award.probability), rel=1e-12)
    for a, b in zip(exact.win_sizes, floats.win_sizes):
        assert a.label == b.label
        assert b.probability == pytest.approx(float(a.probability), rel=1e-12, abs=1e-15)
        assert b.rtp_share == pytest.approx(float(a.rtp_share), rel=1e-12, abs=1e-15)


@SETTINGS
@given(dists())
def test_summary_matches_the_functions(d):
    s = par_summary(d)
    assert s.rtp == rtp(d) and s.hit_frequency == hit_frequency(d)
    assert s.variance == d.variance and s.standard_deviation == standard_deviation(d)
    assert s.volatility_index_90 == volatility_index(d, 0.90)
    assert s.volatility_index_95 == volatility_index(d, 0.95)
    assert s.top_award == top_award(d) and s.win_sizes == win_size_table(d)
    assert s.confidence == confidence_table(d)
    assert s.top_award.multiple == Fraction(d.max_credits, d.credits_per_bet)


@SETTINGS
@given(dists())
def test_confidence_table_shrinks_like_one_over_root_n(d):
    rows = confidence_table(d)
    assert [r.spins for r in rows] == [10**k for k in range(3, 9)]
    centre = float(rtp(d))
    for r in rows:
        assert r.lower_95 <= r.lower_90 <= centre <= r.upper_90 <= r.upper_95
        # upper - lower cancels the centre: round-off of a few ulps of the centre remains.
        assert (r.upper_95 - r.lower_95) == pytest.approx(
            2 * volatility_index(d, 0.95) / math.sqrt(r.spins), rel=1e-9, abs=1e-14 * (1 + centre)
        )
    assert set(asdict(rows[0])) == {"spins", "lower_90", "upper_90", "lower_95", "upper_95"}


def test_float_input_keeps_float_types():
    f = FloatDistribution.from_mapping({0: 0.75, 10: 0.25}, 10)
    s = par_summary(f)
    assert isinstance(s.rtp, float) and isinstance(s.hit_frequency, float)
    assert s.top_award.multiple == 1 and s.top_award.probability == 0.25
