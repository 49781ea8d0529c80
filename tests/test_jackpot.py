"""Progressive jackpot pools against closed forms, an exact chain without a grid, and simulation.

References used here, each independent of the code under test:

* closed forms: a constant hit probability makes cycles geometric (any chance law), and with
  at most one chance per round also independent; ``r = 0`` and at most one chance per round
  makes every cycle start at the seed, so cycles are i.i.d. with a product-form law.
* ``exact_chain``: the Markov chain of (previous cycle length, chances left in the hit round)
  at hit epochs, built row by row from the rules (start value ``seed + epsilon n`` exactly, no
  grid) and solved densely; it is small only for hot pools, so it uses a "Mini" pool and a
  Minor at a 10 EUR bet.
* ``simulate_pool``: the literal process, one uniform per chance.

Realistic magnitudes: Minor (seed 50, c 2.4%), Major (seed 500, c 1.6%), Super (seed 5000,
c 4%), bet 1 EUR, r 10%, a bonus wheel in about one round in fifty.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slotmath.markov.jackpot import (
    ConstantLaw,
    DiscreteDistribution,
    JackpotModel,
    JackpotPool,
    LinearLaw,
    PoolAnalysis,
    SaturatingLaw,
    analyze_pool,
    simulate_pool,
)

WHEEL = {0: Fraction(49, 50), 1: Fraction(19, 1000), 2: Fraction(1, 1000)}  # E[K] = 21/1000

MINOR = JackpotPool("Minor", 50, "0.024", "0.1", LinearLaw(2e-4))
MAJOR = JackpotPool("Major", 500, "0.016", "0.1", LinearLaw(2.5e-6))
SUPER = JackpotPool("Super", 5000, "0.04", "0.1", LinearLaw(4e-8))
SUPER_SATURATING = JackpotPool("Super", 5000, "0.04", "0.1", SaturatingLaw(1.5e-3, 20000))

# (pool, bet, chances, rounds simulated): one generic suite runs over every row.
CASES = {
    "minor": (MINOR, 1, WHEEL, 20_000_000),
    "major": (MAJOR, 1, WHEEL, 100_000_000),
    "super": (SUPER, 1, WHEEL, 300_000_000),
    "super-saturating": (SUPER_SATURATING, 1, WHEEL, 300_000_000),
}
FIGURES = [
    "mean_rounds_between_hits",
    "hit_value_mean",
    "rtp_contribution",
    "mean_pool",
    "mean_restart_value",
]


@cache
def analysis(name: str) -> PoolAnalysis:
    pool, bet, chances, _ = CASES[name]
    return analyze_pool(pool, bet, chances)


@cache
def simulation(name: str):
    pool, bet, chances, rounds = CASES[name]
    return simulate_pool(JackpotModel(pool, bet, chances), rounds, np.random.default_rng(2024))


# -- the generic suite over realistic pools -----------------------------------------------------


@pytest.mark.parametrize("name", CASES)
def test_long_run_identity(name):
    """Paid per unit bet two ways: mean value paid / mean bet between hits, and
    c + seed / (B E[N]) (every contribution is paid eventually; seeds come from the operator)."""
    a = analysis(name)
    assert a.contribution_rtp == CASES[name][0].contribution  # the exact part, a Fraction
    assert isinstance(a.contribution_rtp, Fraction)
    assert a.rtp_contribution == pytest.approx(a.rtp_from_identity, rel=1e-12)
    assert a.rtp_from_identity == pytest.approx(
        float(a.pool.contribution) + float(a.pool.seed) / a.mean_rounds_between_hits, rel=1e-15
    )


@pytest.mark.parametrize("name", CASES)
def test_hits_per_chance_identity(name):
    """Mean p over the pool met by a wheel spin (summed spin by spin) == hits per chance
    (Wald: chances per cycle = E[K] E[N])."""
    a = analysis(name)
    mean_chances = float(a.model.mean_chances)
    expected = 1 / (mean_chances * a.mean_rounds_between_hits)
    assert a.expected_hit_probability_per_spin == pytest.approx(expected, rel=1e-11)
    # a round hits at least once slightly less often than once per E[N] rounds (double hits)
    assert a.expected_hit_probability_per_round < a.hits_per_round
    assert a.expected_hit_probability_per_round == pytest.approx(a.hits_per_round, rel=2e-3)


@pytest.mark.parametrize("name", CASES)
def test_distributions_add_up(name):
    a = analysis(name)
    for dist, mean in [
        (a.stationary_pool, a.mean_pool),
        (a.hit_value_distribution, a.hit_value_mean),
        (a.restart_value_distribution, a.mean_restart_value),
        (a.cycle_length_distribution, a.mean_rounds_between_hits),
    ]:
        assert np.all(dist.probabilities >= 0)
        assert dist.probabilities.sum() == pytest.approx(1, abs=1e-12)
        assert np.all(np.diff(dist.values) > 0)
        assert dist.mean == pytest.approx(mean, rel=1e-11)
    seed, epsilon = float(a.pool.seed), float(a.model.reserve_increment)
    # restarts: seed plus the reserve, epsilon per round of the cycle just ended
    assert a.mean_restart_value == pytest.approx(
        seed + epsilon * a.mean_rounds_between_hits, rel=1e-11
    )
    assert a.hit_value_distribution.values[0] == seed
    assert a.stationary_pool.values[0] == pytest.approx(seed + float(a.model.pool_increment))
    assert a.cycle_length_distribution.values[0] == 0  # a second hit in the same round


@pytest.mark.parametrize("name", CASES)
def test_error_bounds_and_truncation(name):
    a = analysis(name)
    assert 0 < a.truncated_mass <= 2 * a.tail
    for figure in FIGURES:
        bound = a.error_bounds[figure]
        assert 0 < bound < 1e-5 * abs(getattr(a, figure))


@pytest.mark.parametrize("name", CASES)
def test_simulation_agrees(name):
    """Every figure within 4.5 standard errors (batch means over cycles) plus its bound."""
    a, sim = analysis(name), simulation(name)
    assert sim.hits > 2000
    for figure in FIGURES:
        estimate, se = sim.estimate(figure)
        assert abs(estimate - getattr(a, figure)) <= 4.5 * se + a.error_bounds[figure], figure
    # two points of the laws: P(N <= median) and P(value paid <= its median)
    n, v = sim.rounds_between_hits, sim.values_paid[1:]
    for dist, sample in [(a.cycle_length_distribution, n), (a.hit_value_distribution, v)]:
        for q in (0.25, 0.75):
            x = float(dist.quantile(q))
            estimate, se = sim.cycle_estimate(sample <= x)
            assert abs(estimate - float(dist.cdf(x))) <= 4.5 * se + 1e-6


@pytest.mark.parametrize("name", CASES)
def test_simulator_conserves_money(name):
    """Initial pool and reserve + contributions + seeds == paid + final pool and reserve."""
    sim = simulation(name)
    model = sim.model
    put_in = (
        sim.initial_pool
        + sim.initial_reserve
        + float(model.contribution_per_round) * sim.rounds
        + float(model.pool.seed) * sim.hits
    )
    assert put_in == pytest.approx(sim.total_paid + sim.final_pool + sim.final_reserve, rel=1e-12)
    assert sim.paid_per_unit_bet == pytest.approx(sim.total_paid / sim.rounds)
    assert np.all(sim.values_paid >= float(model.pool.seed))


def test_simulator_is_seeded():
    model = JackpotModel(MINOR, 1, WHEEL)
    a = simulate_pool(model, 1_000_000, np.random.default_rng(5))
    b = simulate_pool(model, 1_000_000, np.random.default_rng(5))
    c = simulate_pool(model, 1_000_000, np.random.default_rng(6))
    assert np.array_equal(a.hit_rounds, b.hit_rounds)
    assert np.array_equal(a.values_paid, b.values_paid)
    assert not np.array_equal(a.hit_rounds[:10], c.hit_rounds[:10])


# -- closed forms ----------------------------------------------------------------------------


@pytest.mark.parametrize("pool", [MINOR, MAJOR, SUPER], ids=lambda p: p.name)
@pytest.mark.parametrize(
    "chances", [WHEEL, {0: Fraction(1, 2), 1: Fraction(1, 4), 3: Fraction(1, 4)}]
)
def test_constant_probability_gives_geometric_cycles(pool, chances):
    """Chances are i.i.d. Bernoulli(p): hits per round E[K] p, so E[N] = 1 / (E[K] p) exactly;
    a hit is followed by another in the same round with probability (E[K] p - h) / (E[K] p)
    (h = 1 - G(1 - p), Palm), else by a geometric(h) number of rounds; the value paid is
    seed + c B E[N] on average (start seed + epsilon N_prev, then delta N)."""
    p = Fraction(1, {"Minor": 60, "Major": 200, "Super": 300}[pool.name])
    constant = JackpotPool(
        pool.name, pool.seed, pool.contribution, pool.reserve_fraction, ConstantLaw(float(p))
    )
    model = JackpotModel(constant, 1, chances)
    a = model.analyze()
    mean_k = model.mean_chances
    mean_rounds = 1 / (mean_k * p)  # exact
    h = 1 - sum(q * (1 - p) ** k for k, q in chances.items())
    assert a.mean_rounds_between_hits == pytest.approx(float(mean_rounds), rel=1e-12)
    assert a.hit_value_mean == pytest.approx(
        float(pool.seed + model.contribution_per_round * mean_rounds), rel=1e-12
    )
    assert a.rtp_contribution == pytest.approx(
        float(pool.contribution + pool.seed * mean_k * p), rel=1e-12
    )
    pmf = a.cycle_length_distribution
    n = pmf.values.astype(int)
    expected = np.where(
        n == 0,
        float((mean_k * p - h) / (mean_k * p)),
        float(h / (mean_k * p)) * (1 - float(h)) ** np.maximum(n - 1, 0) * float(h),
    )
    assert np.abs(pmf.probabilities - expected).max() < 1e-15
    assert a.error_bounds["mean_rounds_between_hits"] < 1e-10 * a.mean_rounds_between_hits


def test_constant_probability_one_chance_pool_mean():
    """At most one chance per round: cycles i.i.d. geometric(h) and independent of the start,
    so the mean pool at a random round is seed + c B / h (inspection paradox)."""
    p, q1 = Fraction(1, 200), Fraction(1, 50)
    pool = JackpotPool("Minor", 50, "0.024", "0.1", ConstantLaw(float(p)))
    a = analyze_pool(pool, 1, {0: 1 - q1, 1: q1})
    h = q1 * p
    assert a.mean_pool == pytest.approx(float(50 + Fraction(24, 1000) / h), rel=1e-12)


@pytest.mark.parametrize("pool", [MINOR, MAJOR, SUPER], ids=lambda p: p.name)
def test_no_reserve_one_chance_iid_cycles(pool):
    """r = 0 and at most one chance per round: every cycle starts at the seed, cycles are i.i.d.
    with P(N = n) = S(n-1) h(seed + n delta); the laws must match pointwise."""
    q1 = 0.02
    flat = JackpotPool(pool.name, pool.seed, pool.contribution, 0, pool.law)
    a = analyze_pool(flat, 1, {0: 1 - q1, 1: q1})
    seed, delta = float(pool.seed), float(pool.contribution)  # r = 0: the pool gets all of cB
    size = 1 << 16
    while True:
        values = seed + delta * np.arange(1, size + 1)
        hit = q1 * pool.law(values)
        alive = np.exp(np.concatenate(([0.0], np.cumsum(np.log1p(-hit))[:-1])))
        if alive[-1] < 1e-18:
            break
        size *= 2
    keep = alive > 1e-18
    pmf, values, alive = (alive * hit)[keep], values[keep], alive[keep]
    assert a.grid_size == 1  # no grid error: only roundoff and truncation in the bound
    assert a.error_bounds["mean_rounds_between_hits"] < 1e-10 * a.mean_rounds_between_hits
    assert a.mean_rounds_between_hits == pytest.approx(math.fsum(alive), rel=1e-12)
    assert a.hit_value_mean == pytest.approx(math.fsum(pmf * values), rel=1e-12)
    assert a.mean_pool == pytest.approx(math.fsum(alive * values) / math.fsum(alive), rel=1e-12)
    d = a.hit_value_distribution
    size = min(len(d.values), len(pmf))
    assert np.allclose(d.values[:size], values[:size], rtol=1e-14, atol=0)
    assert np.abs(d.probabilities[:size] - pmf[:size]).max() < 1e-15
    s = a.stationary_pool
    assert np.abs(s.probabilities[:size] - alive[:size] / alive.sum()).max() < 1e-15


# -- the exact chain without a grid ------------------------------------------------------------


def exact_chain(model: JackpotModel, tail: float = 1e-15) -> dict:
    """Figures from the chain of (previous cycle length a, chances left m) at hit epochs.

    From (a, m): the m chances left play against v0 = seed + epsilon a (a hit pays v0 and leads
    to (0, m - i)); then round n of the cycle (pool v0 + n delta) is reached with the product
    of the per-round miss probabilities, and hits leaving mm chances with probability
    sum_{k > mm} P(K = k) (1 - p)^(k - mm - 1) p, leading to (n, mm).
    """
    pool = model.pool
    seed, delta = float(pool.seed), float(model.pool_increment)
    epsilon = float(model.reserve_increment)
    pmf = model.chance_pmf
    kmax = len(pmf) - 1
    n_max = 1 << 8
    while True:  # cycles from the seed are the longest
        p = pool.law(seed + delta * np.arange(1, n_max + 1))
        alive = np.cumprod(sum(pmf[k] * (1 - p) ** k for k in range(kmax + 1)))
        if alive[-1] < tail:
            n_max = int(np.argmax(alive < tail)) + 1
            break
        n_max *= 2
    lengths = np.arange(1, n_max + 1)
    v0 = seed + epsilon * np.arange(n_max + 1)
    pools = v0[:, None] + delta * lengths[None, :]
    p = pool.law(pools)
    power = [np.ones_like(p)]  # (1 - p)^k
    for _ in range(kmax):
        power.append(power[-1] * (1 - p))
    miss = sum(pmf[k] * power[k] for k in range(kmax + 1))
    reach = np.concatenate([np.ones((n_max + 1, 1)), np.cumprod(miss, axis=1)[:, :-1]], axis=1)
    p0 = pool.law(v0)
    size = (n_max + 1) * kmax
    P = np.zeros((size, size))
    pay, rounds, pool_rounds = np.zeros(size), np.zeros(size), np.zeros(size)
    starts = np.arange(n_max + 1) * kmax
    for m in range(kmax):
        rows = starts + m
        for i in range(1, m + 1):
            w = (1 - p0) ** (i - 1) * p0
            P[rows, m - i] += w
            pay[rows] += w * v0
        r = ((1 - p0) ** m)[:, None] * reach
        rounds[rows] = r.sum(axis=1)
        pool_rounds[rows] = (r * pools).sum(axis=1)
        for mm in range(kmax):
            h = sum(pmf[k] * power[k - mm - 1] for k in range(mm + 1, kmax + 1)) * p
            f = r * h
            P[rows[:, None], (lengths * kmax + mm)[None, :]] += f
            pay[rows] += (f * pools).sum(axis=1)
    pi = np.full(size, 1.0 / size)  # law of the state just after a hit, by power iteration
    for _ in range(10_000):
        nxt = pi @ P
        nxt /= nxt.sum()
        if np.abs(nxt - pi).sum() < 1e-15:
            break
        pi = nxt
    else:
        raise AssertionError("power iteration did not converge")
    pi = nxt
    previous = np.repeat(np.arange(n_max + 1), kmax).astype(float)
    mean_rounds = float(pi @ previous)
    return {
        "mean_rounds_between_hits": mean_rounds,
        "hit_value_mean": float(pi @ pay),
        "rtp_contribution": float(pi @ pay) / (float(model.bet) * mean_rounds),
        "mean_pool": float(pi @ pool_rounds) / float(pi @ rounds),
        "mean_restart_value": float(pi @ np.repeat(v0, kmax)),
        "cycle_pmf": np.bincount(previous.astype(int), weights=pi),
    }


CHAIN_CASES = {
    # a pool hit about once in a hundred rounds, two chances at most
    "mini": JackpotModel(
        JackpotPool("Mini", 5, "0.04", "0.1", LinearLaw(0.002)), 1, {0: 0.5, 1: 0.4, 2: 0.1}
    ),
    # a larger reserve (30%), a saturating law and up to three chances
    "mini-r30": JackpotModel(
        JackpotPool("Mini", 5, "0.04", "0.3", SaturatingLaw(0.05, 10)),
        1,
        {0: 0.5, 1: 0.3, 3: 0.2},
    ),
    # a Minor at a 10 EUR bet, one chance per round
    "minor-bet10": JackpotModel(
        JackpotPool("Minor", 50, "0.024", "0.1", LinearLaw(3e-5)), 10, {1: 1}
    ),
}


@cache
def chain(name: str) -> dict:
    return exact_chain(CHAIN_CASES[name])


@pytest.mark.parametrize("grid_points", [4, 16, 512])
@pytest.mark.parametrize("name", CHAIN_CASES)
def test_error_bound_holds_against_the_exact_chain(name, grid_points):
    ref = chain(name)
    a = CHAIN_CASES[name].analyze(grid_points=grid_points)
    for figure in FIGURES:
        err = abs(getattr(a, figure) - ref[figure])
        bound = a.error_bounds[figure]
        assert err <= bound, (figure, err, bound)
        if grid_points == 512:  # the bound is an estimate, not a blanket: within 20x
            assert bound < 20 * err + 1e-12 * abs(ref[figure])
            assert bound < 2e-5 * abs(ref[figure])


@pytest.mark.parametrize("name", CHAIN_CASES)
def test_cycle_length_law_against_the_exact_chain(name):
    ref = chain(name)["cycle_pmf"]
    d = CHAIN_CASES[name].analyze().cycle_length_distribution
    pmf = np.zeros(max(len(ref), int(d.values[-1]) + 1))
    pmf[d.values.astype(int)] = d.probabilities
    assert np.abs(pmf[: len(ref)] - ref).max() < 1e-7
    assert pmf[len(ref) :].sum() < 1e-12


# -- properties --------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(1, 200),
    contribution=st.sampled_from(["0.01", "0.024", "0.04"]),
    reserve=st.sampled_from(["0", "0.1", "0.25"]),
    rate=st.floats(1e-4, 1e-2),
    kind=st.sampled_from(["linear", "saturating"]),
    chances=st.sampled_from([{1: 1}, {0: 0.7, 1: 0.25, 2: 0.05}, {0: 0.9, 3: 0.1}]),
)
def test_identities_hold_for_any_pool(seed, contribution, reserve, rate, kind, chances):
    law = LinearLaw(rate / 100) if kind == "linear" else SaturatingLaw(rate, 50)
    pool = JackpotPool("P", seed, contribution, reserve, law)
    a = analyze_pool(pool, 1, chances, grid_points=64)
    assert a.rtp_contribution == pytest.approx(a.rtp_from_identity, rel=1e-11)
    mean_k = sum(k * q for k, q in chances.items())
    assert a.expected_hit_probability_per_spin * mean_k * a.mean_rounds_between_hits == (
        pytest.approx(1, rel=1e-10)
    )
    # a hotter law (x1.5 per chance) hits sooner
    hotter = analyze_pool(
        JackpotPool("P", seed, contribution, reserve, law.scaled(1.5)), 1, chances, grid_points=64
    )
    assert hotter.mean_rounds_between_hits < a.mean_rounds_between_hits


def test_a_higher_bet_feeds_faster_and_hits_sooner():
    """The same pool at bet levels 1 and 4 (law four times hotter at level 4): the hit comes
    sooner, and the seed is spread over a larger bet."""
    low = analyze_pool(MAJOR, 1, WHEEL)
    high = analyze_pool(JackpotPool("Major", 500, "0.016", "0.1", MAJOR.law.scaled(4)), 4, WHEEL)
    assert high.mean_rounds_between_hits < low.mean_rounds_between_hits / 3
    assert high.seed_rtp < low.seed_rtp
    assert high.rtp_contribution == pytest.approx(high.rtp_from_identity, rel=1e-12)


# -- laws, validation and small pieces ---------------------------------------------------------


def test_laws():
    pools = np.array([0.0, 50.0, 5000.0, 1e9])
    assert np.array_equal(LinearLaw(1e-4)(pools), [0.0, 0.005, 0.5, 1.0])
    assert np.allclose(SaturatingLaw(0.02, 50)(pools), [0.0, 0.01, 0.02 * 5000 / 5050, 0.02])
    assert np.array_equal(ConstantLaw(0.25)(pools), [0.25] * 4)
    assert SaturatingLaw(0.5, 0)(0.0) == 0.0
    assert LinearLaw(1e-4)(50.0) == pytest.approx(0.005)
    assert LinearLaw(1e-4).scaled(2) == LinearLaw(2e-4)
    assert SaturatingLaw(0.6, 10).scaled(2) == SaturatingLaw(1.0, 10)
    assert ConstantLaw(0.25).scaled(2) == ConstantLaw(0.5)
    for bad in (lambda: LinearLaw(-1), lambda: SaturatingLaw(1.5, 1), lambda: ConstantLaw(2)):
        with pytest.raises(ValueError):
            bad()


def test_pool_and_model_validation():
    law = LinearLaw(1e-4)
    assert JackpotPool("X", 50, 0.024, 0.1, law).contribution == Fraction(3, 125)
    with pytest.raises(ValueError, match="reserve_fraction"):
        JackpotPool("X", 50, "0.024", 1, law)
    with pytest.raises(ValueError, match="contribution"):
        JackpotPool("X", 50, "-0.01", "0.1", law)
    with pytest.raises(ValueError, match="seed"):
        JackpotPool("X", -1, "0.01", "0.1", law)
    pool = JackpotPool("X", 50, "0.024", "0.1", law)
    with pytest.raises(ValueError, match="sum to 1"):
        JackpotModel(pool, 1, {0: Fraction(1, 2), 1: Fraction(1, 3)})
    with pytest.raises(ValueError, match="no round"):
        JackpotModel(pool, 1, {0: 1})
    with pytest.raises(ValueError, match="bet"):
        JackpotModel(pool, 0, {1: 1})
    with pytest.raises(ValueError, match="int >= 0"):
        JackpotModel(pool, 1, {-1: 1})
    model = JackpotModel(pool, 1, {1: 1})
    assert model.chances == ((1, 1),)
    with pytest.raises(ValueError, match="grid_points"):
        PoolAnalysis(model, grid_points=2)


def test_laws_that_cannot_be_analysed():
    never = JackpotPool("X", 50, "0.024", "0.1", ConstantLaw(0.0))
    with pytest.raises(ValueError, match="never hit in practice"):
        analyze_pool(never, 1, {1: 1})
    decreasing = JackpotPool("X", 50, "0.024", "0.1", lambda pool: 1 / (1 + np.asarray(pool)))
    with pytest.raises(ValueError, match="must not decrease"):
        analyze_pool(decreasing, 1, {1: 1})


def test_reserve_fraction_limit():
    """Start values up to seed + r/(1-r) times the longest cycle's growth: beyond r = 1/2 the
    row scaling can underflow, which is reported rather than computed wrongly."""
    hoarding = JackpotPool("X", 50, "0.024", "0.9", LinearLaw(1e-5))
    with pytest.raises(ValueError, match="below 1/2"):
        analyze_pool(hoarding, 1, {1: 1})
    half = analyze_pool(JackpotPool("X", 50, "0.024", "0.49", LinearLaw(1e-3)), 1, {1: 1})
    assert half.rtp_contribution == pytest.approx(half.rtp_from_identity, rel=1e-12)


def test_certain_hit_and_free_contribution():
    """p = 1 on every chance: every round hits, N = 1 (or 0 for a second chance); c = 0:
    the pool never grows, cycles are geometric."""
    a = analyze_pool(JackpotPool("X", 50, "0.024", "0.1", ConstantLaw(1.0)), 1, {1: 1})
    assert a.mean_rounds_between_hits == pytest.approx(1, rel=1e-12)
    assert a.hit_value_mean == pytest.approx(50 + 0.024, rel=1e-12)
    b = analyze_pool(JackpotPool("X", 50, 0, "0.1", ConstantLaw(0.01)), 1, {1: 1})
    assert b.mean_rounds_between_hits == pytest.approx(100, rel=1e-12)
    assert b.rtp_contribution == pytest.approx(0.5, rel=1e-12)


def test_discrete_distribution():
    d = DiscreteDistribution(np.array([0.0, 1.0, 3.0]), np.array([0.2, 0.3, 0.5]))
    assert d.cdf([-1, 0, 2, 3]).tolist() == [0.0, 0.2, 0.5, 1.0]
    assert d.quantile([0.1, 0.2, 0.21, 1.0]).tolist() == [0.0, 0.0, 1.0, 3.0]
    assert d.mean == pytest.approx(1.8)
    assert d.std == pytest.approx(math.sqrt(0.2 * 1.8**2 + 0.3 * 0.8**2 + 0.5 * 1.2**2))
