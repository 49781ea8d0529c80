"""The win-distribution algebra against plain reference computations.

Every exact operation is checked against a dictionary computation written out the obvious way
(double loops, explicit sums of Fractions); the float type is checked against the exact one.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
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


@SETTINGS
@given(st.lists(st.tuples(st.integers(1, 20), dists()), min_size=1, max_size=4))
def test_mixture_is_exact(raw):
    total = sum(k for k, _ in raw)
    components = [(Fraction(k, total), d) for k, d in raw]
    m = WinDistribution.mixture(components)
    assert sum(m.probability_of(int(c)) for c in m.credits) == 1
    assert law(m) == brute_mixture(components)
    assert m.mean == sum(p * d.mean for p, d in components)
    assert math.gcd(*m.weights) == 1


def test_mixture_rejects_bad_probabilities():
    d = WinDistribution.point(0, 10)
    with pytest.raises(ValueError, match="add up"):
        WinDistribution.mixture([(Fraction(1, 2), d), (Fraction(1, 3), d)])
    with pytest.raises(ValueError):
        WinDistribution.mixture([(Fraction(3, 2), d), (Fraction(-1, 2), d)])
    with pytest.raises(TypeError):
        WinDistribution.mixture([(0.5, d), (0.5, d)])
    with pytest.raises(ValueError, match="credits_per_bet"):
        other_unit = WinDistribution.point(0, 5)
        WinDistribution.mixture([(Fraction(1, 2), d), (Fraction(1, 2), other_unit)])


@settings(max_examples=30, deadline=None)
@given(dists(max_size=5), st.integers(0, 5))
def test_power_equals_repeated_convolution(d, n):
    expected = WinDistribution.point(0, d.credits_per_bet)
    for _ in range(n):
        expected = expected.convolve(d)
    assert d.power(n).as_dict() == expected.as_dict()
    assert d.power(n).mean == n * d.mean


@settings(max_examples=30, deadline=None)
@given(dists(max_size=5), st.dictionaries(st.integers(0, 4), st.integers(0, 5), min_size=1))
def test_compound_equals_mixture_of_powers(d, raw):
    if not any(raw.values()):
        raw = {**raw, 0: 1}
    total = sum(raw.values())
    counts = {n: Fraction(k, total) for n, k in raw.items()}
    c = d.compound(counts)
    explicit = WinDistribution.mixture([(p, d.power(n)) for n, p in counts.items()])
    assert c == explicit
    mean_count = sum(n * p for n, p in counts.items())
    assert c.mean == mean_count * d.mean


@SETTINGS
@given(dists(), st.integers(0, 7), st.integers(-50, 50), st.integers(0, 700))
def test_scale_shift_cap_against_direct(d, k, s, cap):
    m = d.as_dict()

    def regroup(pairs):
        out: dict[int, int] = {}
        for c, w in pairs:
            out[c] = out.get(c, 0) + w
        return dict(sorted(out.items()))

    assert d.scale(k).as_dict() == regroup((c * k, w) for c, w in m.items())
    assert d.scale(-k).as_dict() == regroup((-c * k, w) for c, w in m.items())
    assert d.shift(s).as_dict() == regroup((c + s, w) for c, w in m.items())
    assert d.cap(cap).as_dict() == regroup((min(c, cap), w) for c, w in m.items())
    assert d.scale(k).mean == k * d.mean
    assert d.rescale(30).mean == d.mean and d.rescale(30).credits_per_bet == 30


def test_combining_different_units_fails_until_rescaled():
    a = WinDistribution.from_mapping({0: 1, 1: 1}, 2)
    b = WinDistribution.from_mapping({0: 1, 3: 1}, 3)
    with pytest.raises(ValueError, match="credits_per_bet"):
        a.convolve(b)
    with pytest.raises(ValueError, match="multiple"):
        a.rescale(3)
    c = a.rescale(6).convolve(b.rescale(6))
    assert c.mean == a.mean + b.mean


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


@SETTINGS
@given(dists(), dists(), st.sampled_from(["direct", "fft", "auto"]))
def test_float_convolve_agrees_with_exact(a, b, method):
    differences = [int(c - d.credits[0]) for d in (a, b) for c in d.credits]
    step = math.gcd(*differences) or 1
    grid = (a.max_credits - int(a.credits[0]) + b.max_credits - int(b.credits[0])) // step + 1
    if method == "fft" and grid > 2**26:
        with pytest.raises(ValueError, match="too many for an FFT"):
            a.to_float().convolve(b.to_float(), method=method)
        return
    assume(method != "fft" or grid <= 2**20)  # legal but slow: a dense grid of 2**26 points
    got = a.to_float().convolve(b.to_float(), method=method)
    assert_close(got, a.convolve(b), may_drop=method != "direct")


def test_fft_on_a_large_support_agrees_with_exact():
    rng = np.random.default_rng(7)
    maps = []
    for n in (1500, 1800):
        keys = np.unique(rng.integers(0, 30_000, n)) * 5  # a grid step of 5 credits
        maps.append({int(k): int(w) for k, w in zip(keys, rng.integers(1, 1000, len(keys)))})
    a, b = (WinDistribution.from_mapping(m, 25) for m in maps)
    exact = a.convolve(b)
    fft = a.to_float().convolve(b.to_float(), method="fft")
    assert_close(fft, exact)
    assert_close(a.to_float().convolve(b.to_float()), exact)  # "auto" picks the FFT here


def test_fft_tails_keep_relative_precision():
    # A feature-like sum: the top wins have probabilities far below FFT round-off, yet the
    # max win and its probability must come out right.
    rng = np.random.default_rng(3)
    keys = np.unique(rng.integers(0, 2000, 400))
    weights = rng.integers(1, 10**6, len(keys))
    weights[-1] = 1  # a rare top win
    spin = WinDistribution.from_mapping(dict(zip(keys.tolist(), weights.tolist())), 10)
    exact = spin.power(4)
    fft = spin.to_float().power(4)
    assert fft.max_credits == exact.max_credits
    top = float(exact.probability_of(exact.max_credits))
    assert top < 1e-20
    assert fft.probability_of(fft.max_credits) == pytest.approx(top, rel=1e-12)
    assert_close(fft, exact, may_drop=True)
    assert math.isclose(math.fsum(fft.probs), 1.0, abs_tol=1e-12)


def test_fft_support_is_exact_even_where_probabilities_vanish():
    # One huge win with a tiny probability: the FFT must not invent amounts off the sumset.
    a = FloatDistribution.from_mapping({0: 1 - 1e-9, 1: 1e-9 / 2, 10_000: 1e-9 / 2}, 1)
    b = FloatDistribution.from_mapping({0: 0.5, 3: 0.5}, 1)
    f = a.convolve(b, method="fft")
    assert f.credits.tolist() == [0, 1, 3, 4, 10_000, 10_003]


@SETTINGS
@given(st.lists(st.tuples(st.integers(1, 20), dists()), min_size=1, max_size=4))
def test_float_mixture_agrees_with_exact(raw):
    total = sum(k for k, _ in raw)
    exact = WinDistribution.mixture([(Fraction(k, total), d) for k, d in raw])
    floats = FloatDistribution.mixture([(k / total, d.to_float()) for k, d in raw])
    assert_close(floats, exact)


@settings(max_examples=30, deadline=None)
@given(dists(max_size=5), st.integers(0, 5), st.integers(0, 7), st.integers(0, 700))
def test_float_power_compound_scale_cap_shift_agree(d, n, k, cap):
    f = d.to_float()
    assert_close(f.power(n), d.power(n))
    counts = {0: Fraction(1, 4), 1: Fraction(1, 2), 3: Fraction(1, 4)}
    assert_close(f.compound({m: float(p) for m, p in counts.items()}), d.compound(counts))
    assert_close(f.scale(k), d.scale(k))
    assert_close(f.cap(cap), d.cap(cap))
    assert_close(f.shift(-k), d.shift(-k))
    assert_close(f.rescale(20), d.rescale(20))


def test_mixed_types_give_float():
    a = WinDistribution.from_mapping({0: 1, 1: 1}, 1)
    f = FloatDistribution.from_mapping({0: 0.5, 2: 0.5}, 1)
    assert isinstance(a.convolve(f), FloatDistribution)
    assert isinstance(f.convolve(a), FloatDistribution)
    assert a.convolve(f).as_dict() == {0: 0.25, 1: 0.25, 2: 0.25, 3: 0.25}
