"""The win-distribution algebra against plain reference computations.

Every exact operation is checked against a dictionary computation written out the obvious way
(double loops, explicit sums of Fractions); the float type is checked against the exact one.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slotmath.exact.distribution import Distribution, FloatDistribution, WinDistribution

SETTINGS = settings(max_examples=60, deadline=None)


# -- reference computations ---------------------------------------------------------------------
def brute_convolve(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for ca, wa in a.items():
        for cb, wb in b.items():
            out[ca + cb] = out.get(ca + cb, 0) + wa * wb
    return dict(sorted(out.items()))


def law(d: WinDistribution) -> dict[int, Fraction]:
    return {c: Fraction(w, d.total) for c, w in d.as_dict().items()}


def brute_mixture(components) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for p, d in components:
        for c, q in law(d).items():
            out[c] = out.get(c, 0) + Fraction(p) * q
    return {c: q for c, q in sorted(out.items()) if q}


# -- strategies ---------------------------------------------------------------------------------
@st.composite
def weight_maps(draw, max_size: int = 8):
    """{credits: weight} with weights small, ~40-bit or ~200-bit (each convolution path)."""
    bits = draw(st.sampled_from([4, 40, 200]))
    spread = draw(st.sampled_from([1, 7, 10**7]))  # 10**7: sums too sparse for a dense grid
    keys = draw(st.lists(st.integers(0, 60), min_size=1, max_size=max_size, unique=True))
    return {k * spread: draw(st.integers(1, 2**bits)) for k in keys}


@st.composite
def dists(draw, credits_per_bet: int = 10, max_size: int = 8):
    return WinDistribution.from_mapping(draw(weight_maps(max_size)), credits_per_bet)


probabilities = st.fractions(min_value=0, max_value=1, max_denominator=50)


# -- construction -------------------------------------------------------------------------------
def test_construction_sorts_merges_and_drops_zeros():
    d = WinDistribution([10, 0, 10, 5], [1, 3, 2, 0], 10)
    assert d.credits.tolist() == [0, 10]
    assert d.as_dict() == {0: 3, 10: 3}
    assert d.total == 6
    assert d.credits.dtype == np.int64 and d.weights.dtype == object
    assert all(type(w) is int for w in d.weights)


def test_immutable():
    d = WinDistribution.from_mapping({0: 3, 10: 1}, 10)
    with pytest.raises(AttributeError):
        d.total = 5
    with pytest.raises(ValueError):
        d.credits[0] = 1
    with pytest.raises(ValueError):
        d.weights[0] = 1
    f = d.to_float()
    with pytest.raises(AttributeError):
        f.credits_per_bet = 1
    with pytest.raises(ValueError):
        f.probs[0] = 0.5


@pytest.mark.parametrize(
    "args, error",
    [
        (([0], [-1], 10), ValueError),
        (([0], [0], 10), ValueError),
        (([0, 1], [1], 10), ValueError),
        (([0], [1], 0), ValueError),
        (([0], [1.5], 10), TypeError),
        (([0.5], [1], 10), TypeError),
        (([2**62], [1], 10), OverflowError),
    ],
)
def test_bad_input(args, error):
    with pytest.raises(error):
        WinDistribution(*args)


def test_float_bad_input():
    with pytest.raises(ValueError, match="add up"):
        FloatDistribution([0, 1], [0.5, 0.4], 1)
    with pytest.raises(ValueError):
        FloatDistribution([0, 1], [1.5, -0.5], 1)
    with pytest.raises(ValueError):
        FloatDistribution([0], [math.nan], 1)


def test_equality_is_equality_of_laws():
    a = WinDistribution.from_mapping({0: 3, 10: 1}, 10)
    b = WinDistribution.from_mapping({0: 6, 10: 2}, 10)
    assert a == b and hash(a) == hash(b)
    assert a != WinDistribution.from_mapping({0: 3, 10: 2}, 10)
    assert a != WinDistribution.from_mapping({0: 3, 10: 1}, 5)
    assert b.reduced().as_dict() == {0: 3, 10: 1}


def test_both_types_satisfy_the_protocol():
    d = WinDistribution.from_mapping({0: 3, 10: 1}, 10)
    assert isinstance(d, Distribution) and isinstance(d.to_float(), Distribution)


def test_tiny_hand_computed():
    d = WinDistribution.from_mapping({0: 3, 10: 1}, 10)
    assert d.mean == Fraction(1, 4)
    assert d.second_moment == Fraction(1, 4)
    assert d.variance == Fraction(3, 16)
    assert d.std == pytest.approx(math.sqrt(3 / 16), rel=1e-15)
    assert d.hit_probability == Fraction(1, 4)
    assert d.max_credits == 10
    assert d.probability_of(0) == Fraction(3, 4) and d.probability_of(7) == 0
    assert d.probs.tolist() == [0.75, 0.25]


# -- exact operations against the references ----------------------------------------------------
@SETTINGS
@given(dists(), dists())
def test_convolve_equals_double_loop(a, b):
    c = a.convolve(b)
    assert c.as_dict() == brute_convolve(a.as_dict(), b.as_dict())
    assert c.total == a.total * b.total
    assert all(type(w) is int and w > 0 for w in c.weights)


@pytest.mark.parametrize("bits", [4, 30, 45, 120, 300])
@pytest.mark.parametrize("spread", [1, 3, 10**6])
def test_convolve_paths_on_larger_supports(bits, spread):
    # int64, int64 limbs and Python-int paths, dense and sparse layouts, with supports big
    # enough that every row of the kernel matters.
    rng = np.random.default_rng(bits * 31 + spread)
    maps = []
    for n in (150, 220):
        keys = np.unique(rng.integers(0, 3000, n)) * spread
        maps.append({int(k): int(rng.integers(1, 2**20)) << max(bits - 20, 0) | 1 for k in keys})
    a, b = (WinDistribution.from_mapping(m, 5) for m in maps)
    assert a.convolve(b).as_dict() == brute_convolve(*maps)


@SETTINGS
@given(dists(), dists())
def test_moments_add_under_convolution(a, b):
    c = a.convolve(b)
    assert c.mean == a.mean + b.mean
    assert c.variance == a.variance + b.variance
    assert c.max_credits == a.max_credits + b.max_credits


@settings(max_examples=30, deadline=None)
@given(dists(max_size=5), st.integers(0, 5))
def test_power_equals_repeated_convolution(d, n):
    expected = WinDistribution.point(0, d.credits_per_bet)
    for _ in range(n):
        expected = expected.convolve(d)
    assert d.power(n).as_dict() == expected.as_dict()
    assert d.power(n).mean == n * d.mean


@SETTINGS
@given(dists(), st.integers(0, 7), st.integers(-50, 50), st.integers(0, 700))
def test_scale_and_cap_against_direct(d, k, s, cap):
    m = d.as_dict()

    def regroup(pairs):
        out: dict[int, int] = {}
        for c, w in pairs:
            out[c] = out.get(c, 0) + w
        return dict(sorted(out.items()))

    assert d.scale(k).as_dict() == regroup((c * k, w) for c, w in m.items())
    assert d.scale(-k).as_dict() == regroup((-c * k, w) for c, w in m.items())
    assert d.cap(cap).as_dict() == regroup((min(c, cap), w) for c, w in m.items())
    assert d.scale(k).mean == k * d.mean


def test_combining_different_units_fails():
    a = WinDistribution.from_mapping({0: 1, 1: 1}, 2)
    b = WinDistribution.from_mapping({0: 1, 3: 1}, 3)
    with pytest.raises(ValueError, match="credits_per_bet"):
        a.convolve(b)


# -- the float type against the exact one -------------------------------------------------------
def assert_close(
    f: FloatDistribution, exact: WinDistribution, atol: float = 1e-12, may_drop: bool = False
):
    """Float probabilities within ``atol`` of the exact ones, amount by amount.

    ``may_drop``: amounts whose exact probability is below ``atol`` may be missing (the FFT
    cannot resolve them), but no amount may appear that the exact distribution lacks.
    """
    assert f.credits_per_bet == exact.credits_per_bet
    # exact.probs are the exact probabilities correctly rounded (error <= 1.2e-16 each).
    on_support = np.isin(exact.credits, f.credits)
    if may_drop:
        assert np.isin(f.credits, exact.credits).all()
        assert np.all(exact.probs[~on_support] <= atol)
    else:
        np.testing.assert_array_equal(f.credits, exact.credits)
    got = np.zeros(len(exact))
    got[on_support] = f.probs
    assert np.max(np.abs(got - exact.probs)) <= atol
    # FFT errors are absolute on each probability (~1e-16, stated bound 1e-14), so a moment
    # driven by a small probability of a big win carries them weighted by the win.
    x = exact.credits / exact.credits_per_bet
    mean, var = float(exact.mean), float(exact.variance)
    point_error = 1e-13 if may_drop else 0.0
    mean_tol = atol * max(1.0, mean) + point_error * np.abs(x).sum()
    var_tol = atol * max(1.0, var) + point_error * ((x - mean) ** 2).sum()
    assert abs(f.mean - mean) <= mean_tol
    assert abs(f.variance - var) <= var_tol
    assert abs(f.hit_probability - float(exact.hit_probability)) <= atol
    assert f.max_credits == exact.max_credits


