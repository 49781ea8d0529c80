"""The compiled kernels that make a jackpot game's strip move fast (issue 25 item 3), each
against a plain computation written here:

* a round's hit, its split by chances left and its chances played (Horner recurrences in
  ``q = 1 - p``) against the round played chance by chance in exact fractions;
* the running sums read at the interval bounds only (the split computed where it is summed)
  against numpy's reversed cumsum of the stored rows;
* the interval bounds against ``numpy.searchsorted``; the compiled GTH against a dense linear
  solve; the one-pass renewal-reward sums against numpy's arrays;
* whole analyses of random small hot pools against the exact chain of (previous cycle
  length, chances left) of ``test_jackpot.exact_chain`` (no lattice, no grid), within the
  analysis's stated error bounds;
* the hit law kept across analyses (a strip move reuses it) changes no figure.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_jackpot import FIGURES, exact_chain

from slotmath.markov import jackpot
from slotmath.markov.jackpot import JackpotModel, JackpotPool, LinearLaw, SaturatingLaw

# -- a round, chance by chance -------------------------------------------------------------------


def played_by_hand(pmf: list[Fraction], p: Fraction):
    """(P(hit), P(first hit leaves m) for m < kmax, E[chances played until the first hit]) of
    a round with K ~ pmf chances, each hitting with p: chance i is played when the i - 1
    before it missed; a hit at chance i of k leaves k - i."""
    kmax = len(pmf) - 1
    hit, spins = Fraction(0), Fraction(0)
    left = [Fraction(0)] * kmax
    for k in range(1, kmax + 1):
        reach = Fraction(1)
        for i in range(1, k + 1):
            spins += pmf[k] * reach
            left[k - i] += pmf[k] * reach * p
            hit += pmf[k] * reach * p
            reach *= 1 - p
    return hit, left, spins


probabilities = st.one_of(
    st.sampled_from([Fraction(0), Fraction(1), Fraction(1, 2), Fraction(1, 10**12)]),
    st.fractions(0, 1, max_denominator=10**6),
    st.integers(1, 10**9).map(lambda n: Fraction(n, 10**16)),  # a Super's p per chance
)


@settings(max_examples=60, deadline=None)
@given(weights=st.lists(st.integers(0, 1000), min_size=2, max_size=7).filter(
    lambda w: sum(w[1:]) > 0), ps=st.lists(probabilities, min_size=1, max_size=6))
def test_round_kernel_against_the_round_played_chance_by_chance(weights, ps):
    pmf = [Fraction(w, sum(weights)) for w in weights]
    p = np.array([float(x) for x in ps])
    hit, hit_left, spins = jackpot._round_quantities(p, np.array([float(w) for w in pmf]))
    hazard = jackpot._round_kernel(p, np.array([float(w) for w in pmf]), False, False)[3]
    for i, x in enumerate(p):
        ref_hit, ref_left, ref_spins = played_by_hand(pmf, Fraction(x))
        assert hit[i] == pytest.approx(float(ref_hit), rel=1e-13, abs=1e-300)
        assert spins[i] == pytest.approx(float(ref_spins), rel=1e-13)
        for m, ref in enumerate(ref_left):
            assert hit_left[m, i] == pytest.approx(float(ref), rel=1e-13, abs=1e-300)
        expected = min(-math.log1p(-float(ref_hit)) if ref_hit < 1 else 60.0, 60.0)
        assert hazard[i] == pytest.approx(expected, rel=1e-12, abs=1e-300)


def test_a_tiny_chance_keeps_its_digits():
    """p = 1e-9 per chance, at most two chances: 1 - G(1 - p) by the recurrence has every
    digit (a subtraction 1 - G would keep about seven)."""
    pmf = np.array([0.5, 0.25, 0.25])
    hit = jackpot._round_quantities(np.array([1e-9]), pmf)[0][0]
    exact = Fraction(1, 4) * Fraction(1, 10**9) + Fraction(1, 4) * (
        1 - (1 - Fraction(1, 10**9)) ** 2)
    assert abs(Fraction(hit) - exact) / exact < Fraction(1, 10**15)


# -- the chain's running sums, bounds, GTH and sums --------------------------------------------


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 400), kmax=st.integers(1, 5), data=st.data())
def test_tail_sums_at_the_bounds_against_the_reversed_cumsum(n, kmax, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    pmf = rng.random(kmax + 1)
    pmf /= pmf.sum()
    p = np.sort(rng.random(n) * data.draw(st.sampled_from([1.0, 1e-3, 1e-8])))
    decay = np.exp(-np.cumsum(rng.random(n)))
    t_rep = np.arange(n, dtype=float)
    scale = data.draw(st.floats(1e-3, 10))
    positions = np.unique(rng.integers(1, n + 1, size=data.draw(st.integers(1, 30))))
    _, rows, _ = jackpot._round_quantities(p, pmf)
    A, F = jackpot._tail_sums_at(decay, p, pmf, t_rep, scale, positions)
    A_rows, F_rows = jackpot._tail_sums(decay, rows, t_rep, scale, positions)
    assert np.array_equal(A, A_rows) and np.array_equal(F, F_rows)  # the same floats
    for m in range(kmax):  # the sums as the lattice's arrays would give them
        g = decay * rows[m]
        g[0] = 0.0
        tail = np.concatenate((np.cumsum(g[::-1])[::-1], [0.0]))
        tail_z = np.concatenate((np.cumsum((g * (t_rep * scale))[::-1])[::-1], [0.0]))
        np.testing.assert_allclose(A[m], tail[positions], rtol=1e-12, atol=1e-300)
        np.testing.assert_allclose(F[m], tail_z[positions], rtol=1e-12, atol=1e-300)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_interval_bounds_are_numpy_searchsorted(data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    n = data.draw(st.integers(2, 3000))
    rows, width = data.draw(st.integers(1, 12)), data.draw(st.integers(1, 12))
    if data.draw(st.booleans()):  # whole numbers: queries equal to lattice values, and ties
        t_rep = np.cumsum(rng.integers(0, 3, size=n)).astype(float)
        scale = 1.0
        shift = np.sort(rng.integers(0, int(t_rep[-1]) + 2, size=rows)).astype(float)
    else:
        steps = rng.random(n) * data.draw(st.sampled_from([0.0, 1.0]))
        steps[rng.random(n) < 0.3] = 0.0  # ties
        t_rep = np.cumsum(steps) + rng.random() * 5
        scale = data.draw(st.floats(1e-3, 3))
        shift = np.sort(rng.random(rows)) * float(t_rep[-1] * scale)
    lowest = rng.integers(0, n, size=rows)
    top = data.draw(st.integers(0, n))
    got = jackpot._interval_bounds(t_rep, scale, shift, width, lowest, top)
    z = t_rep * scale
    ref = np.searchsorted(z, shift[:, None] + np.arange(width)[None, :], side="left")
    ref = np.clip(np.maximum(ref, lowest[:, None]), 0, top)
    assert np.array_equal(got, ref)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 60), seed=st.integers(0, 2**32 - 1), sparse=st.booleans())
def test_gth_kernel_against_a_dense_solve(n, seed, sparse):
    rng = np.random.default_rng(seed)
    P = rng.random((n, n)) ** (8 if sparse else 1)
    P[np.arange(n), (np.arange(n) + 1) % n] += 0.1  # irreducible
    P /= P.sum(axis=1, keepdims=True)
    nu = jackpot._gth(P.copy())
    system = np.vstack([(P - np.eye(n)).T, np.ones(n)])
    ref = np.linalg.lstsq(system, np.concatenate([np.zeros(n), [1.0]]), rcond=None)[0]
    np.testing.assert_allclose(nu, ref, rtol=1e-9, atol=1e-13)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 500), seed=st.integers(0, 2**32 - 1))
def test_lattice_sums_against_numpy(n, seed):
    rng = np.random.default_rng(seed)
    decay = np.exp(-np.cumsum(rng.random(n)))
    offsets = np.unique(np.append(rng.integers(0, n, size=rng.integers(0, 10)), 0))  # grid 0
    weight = rng.random(len(offsets))
    t_rep, hit, rounds, spins, p_spins = rng.random((5, n)) * [[100], [1], [3], [2], [1]]
    t_rep = np.sort(t_rep)
    seed_value, delta = 50.0, 0.0216
    got = jackpot._lattice_sums(decay, offsets, weight, seed_value, delta, t_rep, hit, rounds,
                                spins, p_spins)
    at = np.zeros(n)
    at[offsets] = weight
    arrive = np.concatenate(([0.0], np.cumsum(at)[:-1])) * decay
    x = seed_value + delta * t_rep
    ref = [x @ (arrive * hit), (arrive * hit).sum(), arrive @ spins, arrive @ p_spins,
           x @ (arrive * rounds), (arrive * rounds).sum()]
    np.testing.assert_allclose(got, ref, rtol=1e-13)
    point = jackpot._quantile_point(decay, offsets, weight, rounds, 0.9)
    w = arrive * rounds
    c = np.cumsum(w) / w.sum()
    assert point == int(np.searchsorted(c, 0.9 - 1e-15))


# -- whole analyses ------------------------------------------------------------------------------


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(2, 20),
    contribution=st.sampled_from(["0.02", "0.04", "0.05"]),
    reserve=st.sampled_from(["0", "0.1", "0.2"]),
    hotness=st.floats(0.004, 0.02),
    saturating=st.booleans(),
    weights=st.lists(st.integers(1, 20), min_size=2, max_size=4),
    grid_points=st.sampled_from([4, 16, 512]),
)
@example(seed=10, contribution="0.04", reserve="0.2", hotness=0.01, saturating=False,
         weights=[2, 1, 1], grid_points=4)
@example(seed=10, contribution="0.04", reserve="0.2", hotness=0.01, saturating=True,
         weights=[1, 1, 1, 1], grid_points=512)
def test_random_small_pools_against_the_exact_chain(seed, contribution, reserve, hotness,
                                                     saturating, weights, grid_points):
    """A hot pool (hit about once in 20 to 200 rounds) with up to three chances per round, on
    a coarse or the default grid of start values: every figure within the analysis's stated
    error bound of the exact chain, and money conserved (the split of a start value between
    its grid neighbours keeps its mean, so the RTP equals its identity)."""
    law = SaturatingLaw(hotness * 4, 10) if saturating else LinearLaw(hotness / 10)
    pool = JackpotPool("P", seed, contribution, reserve, law)
    chances = {k: Fraction(w, sum(weights)) for k, w in enumerate(weights)}
    model = JackpotModel(pool, 1, chances)
    ref = exact_chain(model)
    a = model.analyze(grid_points=grid_points)
    for figure in FIGURES:
        err = abs(getattr(a, figure) - ref[figure])
        assert err <= a.error_bounds[figure] + 1e-12 * abs(ref[figure]), figure
    assert a.rtp_contribution == pytest.approx(a.rtp_from_identity, rel=1e-11)


def test_the_kept_hit_law_changes_no_figure():
    """Two analyses of the same pool under different wheel-spins laws: the second reuses the
    first's per-round law; with nothing kept it gives the same floats."""
    pool = JackpotPool("Minor", 50, "0.024", "0.1", LinearLaw(2e-4))
    first = JackpotModel(pool, 1, {0: 0.98, 1: 0.019, 2: 0.001})
    second = JackpotModel(pool, 1, {0: 0.97, 1: 0.028, 3: 0.002})
    jackpot._ROUND_LAWS.clear()
    fresh = second.analyze()
    jackpot._ROUND_LAWS.clear()
    first.analyze()
    assert jackpot._ROUND_LAWS  # kept
    reused = second.analyze()
    for figure in FIGURES:
        assert getattr(reused, figure) == getattr(fresh, figure)
    assert reused.error_bounds == fresh.error_bounds
