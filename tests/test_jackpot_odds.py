"""Progressive pools at the odds real games use: hit once in 1e3 to 1e9 rounds (issue 23).

Beyond one lattice point per round the analysis plays blocks of ``b`` rounds at the step law
(:mod:`slotmath.markov.jackpot`, "Blocks of rounds"). Each figure is checked against a path
that shares no code with the lattice:

* the exact chain of ``tests/test_jackpot.py`` (no grid, no blocks), with the blocks forced far
  coarser than the analysis ever chooses (``b / E[N]`` up to 0.3): the error bound holds and is
  an estimate, not a blanket;
* a constant law at 1 in 1e9 rounds: closed forms of a Bernoulli process of hit rounds;
* a linear law, no reserve, one chance per round, at 1 in 1e9 rounds: the survival function as
  a closed-form power series in the round (Faulhaber sums), summed by Gauss-Legendre quadrature
  and Euler-Maclaurin;
* a linear law with a reserve and up to two chances per round at 1 in 1e9 rounds, where no
  simulation of the rounds can run: the chain of cycles sampled by inverse transform from that
  closed-form survival function (double hits in a round included);
* the literal simulation of the rounds (:func:`simulate_pool`) at 1 in 1,000 rounds;
* the loader refuses what remains out of reach, when the file is read.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
import sympy
from strategies import JACKPOT_GAME
from test_jackpot import CHAIN_CASES, FIGURES, chain

import slotmath
from slotmath.cli import main
from slotmath.errors import GameFileError
from slotmath.markov import jackpot
from slotmath.markov.jackpot import (
    ConstantLaw,
    JackpotModel,
    JackpotPool,
    LinearLaw,
    analyze_pool,
    simulate_pool,
)
from slotmath.model.edit import replace_reel, symbol_count, with_jackpot, with_symbol_count

WHEEL = {0: Fraction(49, 50), 1: Fraction(19, 1000), 2: Fraction(1, 1000)}  # E[K] = 21/1000
ONE_CHANCE = {0: Fraction(49, 50), 1: Fraction(1, 50)}

# Linear laws hit once in about 1e3 .. 1e9 rounds (seed 1000, c 2%, r 10%, bet 1, WHEEL).
LINEAR_RATES = {3: 4.67e-05, 5: 1.88e-07, 6: 3.16e-09, 7: 3.4e-11, 8: 3.43e-13, 9: 3.43e-15}


def linear(decade: int, reserve: str = "0.1") -> JackpotPool:
    return JackpotPool("P", 1000, "0.02", reserve, LinearLaw(LINEAR_RATES[decade]))


def constant(decade: int, chances=WHEEL, reserve: str = "0.1") -> JackpotPool:
    mean_k = sum(k * q for k, q in chances.items())
    return JackpotPool("P", 1000, "0.02", reserve, ConstantLaw(float(1 / (mean_k * 10**decade))))


@cache
def analysis(kind: str, decade: int):
    pool = linear(decade) if kind == "linear" else constant(decade)
    return analyze_pool(pool, 1, WHEEL)


# -- the whole range, with the identities that must hold exactly in the solved chain -------------


@pytest.mark.parametrize("decade", [3, 6, 9])
@pytest.mark.parametrize("kind", ["linear", "constant"])
def test_every_decade_is_analysed_with_its_identities(kind, decade):
    a = analysis(kind, decade)
    assert a.mean_rounds_between_hits == pytest.approx(10.0**decade, rel=0.01)
    # one lattice point per round at the hot end, blocks beyond the per-round budget
    if decade == 3:
        assert a.lattice_step == 1
    if decade >= 6:
        assert a.lattice_step > 1 and a.lattice_size < 4 * jackpot.BLOCK_POINTS
    # money conservation and hits per chance (Wald), in the discretised chain
    assert a.rtp_contribution == pytest.approx(a.rtp_from_identity, rel=1e-11)
    mean_k = float(a.model.mean_chances)
    assert a.expected_hit_probability_per_spin * mean_k * a.mean_rounds_between_hits == (
        pytest.approx(1, rel=1e-10))
    assert a.mean_restart_value == pytest.approx(
        float(a.pool.seed) + float(a.model.reserve_increment) * a.mean_rounds_between_hits,
        rel=1e-11)
    for figure in FIGURES:
        assert 0 < a.error_bounds[figure] < 1e-5 * abs(getattr(a, figure)), figure
    for dist, mean in [
        (a.stationary_pool, a.mean_pool),
        (a.hit_value_distribution, a.hit_value_mean),
        (a.restart_value_distribution, a.mean_restart_value),
        (a.cycle_length_distribution, a.mean_rounds_between_hits),
    ]:
        assert np.all(dist.probabilities >= 0)
        assert dist.probabilities.sum() == pytest.approx(1, abs=1e-12)
        assert np.all(np.diff(dist.values) > 0)
        assert dist.mean == pytest.approx(mean, rel=1e-10)


# -- blocks against the exact chain ------------------------------------------------------------


@pytest.mark.parametrize("rounds_per_point", [2, 4, 16])
@pytest.mark.parametrize("name", CHAIN_CASES)
def test_blocks_error_bound_holds_against_the_exact_chain(name, rounds_per_point):
    """Pools hit once in 50 to 300 rounds, forced to blocks of 2 to 16 rounds: the step law's
    error is second order, and the bound (twice the change when blocks and grid spacing
    double) covers it without being a blanket."""
    ref = chain(name)
    a = CHAIN_CASES[name].analyze(rounds_per_point=rounds_per_point)
    assert a.lattice_step == rounds_per_point
    for figure in FIGURES:
        err = abs(getattr(a, figure) - ref[figure])
        bound = a.error_bounds[figure]
        assert err <= bound, (figure, err, bound)
        assert bound < 20 * err + 1e-12 * abs(ref[figure])
    assert a.rtp_contribution == pytest.approx(a.rtp_from_identity, rel=1e-12)


def test_blocks_error_is_second_order():
    """Halving the block halves nothing but quarters the error (the Richardson estimate rests
    on it): the step law's error at b = 16, 8, 4 against the exact chain, on a fine grid."""
    ref = chain("mini")
    errors = [abs(CHAIN_CASES["mini"].analyze(grid_points=2048, rounds_per_point=b)
                  .mean_rounds_between_hits - ref["mean_rounds_between_hits"])
              for b in (16, 8, 4)]
    for coarse, fine in itertools.pairwise(errors):
        assert 3 < coarse / fine < 5


@pytest.mark.parametrize("name", CHAIN_CASES)
def test_blocks_cycle_length_law_against_the_exact_chain(name):
    """At b = 4 rounds per point the cycle-length law lives on block means: its distribution
    function at block ends agrees with the exact chain's within the step law's error."""
    ref = np.cumsum(chain(name)["cycle_pmf"])
    d = CHAIN_CASES[name].analyze(rounds_per_point=4).cycle_length_distribution
    ends = np.arange(0, len(ref), 4)
    assert np.abs(d.cdf(ends + 0.5) - ref[ends]).max() < 2e-3


# -- constant law at 1 in 1e9: closed forms ----------------------------------------------------


@pytest.mark.parametrize("chances", [WHEEL, {0: Fraction(1, 2), 1: Fraction(1, 4),
                                             3: Fraction(1, 4)}], ids=["wheel", "three"])
def test_constant_law_at_one_in_a_billion_against_closed_forms(chances):
    """A constant p makes the rounds independent: a round has a hit with h = 1 - G(1 - p), its
    hits J ~ Binomial(K, p) given J >= 1; hits per round E[K] p. Between hit rounds a geometric
    gap G (mean 1/h); a round's pool is the start left by the last hit round (seed + eps G_last
    if that round had one hit, else the seed) plus delta x (rounds since it): geometric, mean
    1/h, independent of the start."""
    pool = constant(9, chances)
    model = JackpotModel(pool, 1, chances)
    a = model.analyze()
    assert a.lattice_step > 1000  # blocks of thousands of rounds
    p = Fraction(pool.law.probability)
    mean_k = model.mean_chances
    h = 1 - sum(q * (1 - p) ** k for k, q in chances.items())
    one_hit = sum(q * k * p * (1 - p) ** (k - 1) for k, q in chances.items()) / h
    seed, delta, eps = pool.seed, model.pool_increment, model.reserve_increment
    expected = {
        "mean_rounds_between_hits": 1 / (mean_k * p),
        "rtp_contribution": pool.contribution + seed * mean_k * p,
        "hit_value_mean": seed + model.contribution_per_round / (mean_k * p),
        "mean_restart_value": seed + eps / (mean_k * p),
        "mean_pool": seed + eps * one_hit / h + delta / h,
        "expected_hit_probability_per_round": h,
        "expected_hit_probability_per_spin": p,
    }
    for figure, value in expected.items():
        assert getattr(a, figure) == pytest.approx(float(value), rel=1e-10), figure
        assert abs(getattr(a, figure) - float(value)) <= a.error_bounds[figure], figure


# -- linear law at 1 in 1e9: the survival function in closed form --------------------------------


def hazard_series(chances: dict) -> list[float]:
    """Coefficients a_1..a_4 of -log G(1 - y) = sum_k a_k y^k (G the chance law's generating
    function), by sympy: the per-round hazard at chance probability y, to y^4 (at y < 1e-5
    the rest is below 1e-20 relative)."""
    y = sympy.symbols("y")
    g = sum(sympy.Rational(q) * (1 - y) ** k for k, q in chances.items())
    series = sympy.series(-sympy.log(g), y, 0, 5).removeO()
    return [float(series.coeff(y, k)) for k in range(1, 5)]


def faulhaber(n) -> list:
    """sum_{i=1}^n i^j for j = 0..4, as polynomials in n (any real n)."""
    return [
        n,
        n * (n + 1) / 2,
        n * (n + 1) * (2 * n + 1) / 6,
        (n * (n + 1) / 2) ** 2,
        n * (n + 1) * (2 * n + 1) * (3 * n * n + 3 * n - 1) / 30,
    ]


def cumulative_hazard(n, start, delta: float, rate: float, coefficients) -> np.ndarray:
    """H(n) = sum_{i=1}^n lam(rate (start + i delta)), lam(y) = sum_k a_k y^k: exact power sums
    sum_i (start + i delta)^k = sum_j C(k, j) start^(k-j) delta^j sum_i i^j (no cancellation:
    every term >= 0)."""
    sums = faulhaber(n)
    total = np.zeros(np.broadcast(n, start).shape)
    for k, a in enumerate(coefficients, start=1):
        power_sum = sum(math.comb(k, j) * start ** (k - j) * delta**j * sums[j]
                        for j in range(k + 1))
        total = total + a * rate**k * power_sum
    return total


def gauss_legendre(f, end: float, panels: int = 4000, nodes: int = 16) -> float:
    """The integral of f over [0, end], composite Gauss-Legendre."""
    x, w = np.polynomial.legendre.leggauss(nodes)
    edges = np.linspace(0.0, end, panels + 1)
    half = np.diff(edges)[:, None] / 2
    points = (edges[:-1, None] + edges[1:, None]) / 2 + half * x[None, :]
    return float((f(points) * w[None, :] * half).sum())


def test_linear_law_at_one_in_a_billion_against_the_closed_form_survival():
    """No reserve and one chance per round: every cycle starts at the seed, P(N > n) = S(n) =
    exp(-H(n)); E[N] = sum_{n>=0} S(n) = int_0^inf S + 1/2 (Euler-Maclaurin; the derivative
    terms are below 1e-18 here), the value paid seed + delta E[N], the mean pool
    seed + delta (1 + sum n S(n) / sum S(n)) with sum n S(n) = int n S - 1/12."""
    pool = linear(9, reserve="0")
    model = JackpotModel(pool, 1, ONE_CHANCE)
    a = model.analyze()
    assert a.lattice_step > 1000 and a.grid_size == 1
    seed, delta = float(pool.seed), float(model.pool_increment)
    coefficients = hazard_series(ONE_CHANCE)
    rate = pool.law.rate
    end = 1.0
    while cumulative_hazard(end, seed, delta, rate, coefficients) < 60:
        end *= 2

    def survival(n):
        return np.exp(-cumulative_hazard(n, seed, delta, rate, coefficients))

    rounds = gauss_legendre(survival, end) + 0.5
    first = gauss_legendre(lambda n: n * survival(n), end) - 1 / 12
    expected = {
        "mean_rounds_between_hits": rounds,
        "hit_value_mean": seed + delta * rounds,
        "mean_pool": seed + delta * (1 + first / rounds),
        "rtp_contribution": float(pool.contribution) + seed / rounds,
    }
    assert rounds == pytest.approx(1e9, rel=0.2)
    for figure, value in expected.items():
        err = abs(getattr(a, figure) - value)
        assert err <= a.error_bounds[figure], (figure, err, a.error_bounds[figure])
        assert err < 1e-8 * value, figure


def sample_cycles(model: JackpotModel, chains: int, cycles: int, rng: np.random.Generator):
    """The chain of cycles, each drawn whole: N by inverse transform (the least n with
    H(n | v0) > -log U, H the closed-form cumulative hazard from the start v0), then which
    chance of the hit round hit (P(m chances left | a hit) by the rule), and whether one of
    those m chances hits the restarted pool (then a cycle of 0 rounds, paying the restart
    value, and the pool restarts at the seed). ``chains`` independent chains side by side.

    Returns per chain and cycle: rounds N, value paid, start value.
    """
    pool = model.pool
    seed, delta = float(pool.seed), float(model.pool_increment)
    eps, rate = float(model.reserve_increment), pool.law.rate
    coefficients = hazard_series(dict(model.chances))
    pmf = {k: float(q) for k, q in model.chances}
    kmax = max(pmf)
    start = np.full(chains, seed)
    rounds = np.zeros((chains, cycles))
    paid = np.zeros((chains, cycles))
    starts = np.zeros((chains, cycles))
    pending = np.zeros(chains, dtype=bool)  # a second hit in the last round comes next
    pending_value = np.zeros(chains)
    for c in range(cycles):
        starts[:, c] = start
        target = -np.log(rng.random(chains))
        lo, hi = np.zeros(chains), np.ones(chains)
        while np.any(grow := cumulative_hazard(hi, start, delta, rate, coefficients) <= target):
            hi[grow] *= 2
        for _ in range(200):  # bisection to the whole round
            mid = np.floor((lo + hi) / 2)
            below = cumulative_hazard(mid, start, delta, rate, coefficients) <= target
            lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
            if np.all(hi - lo <= 1):
                break
        n = hi  # H(n - 1) <= target < H(n): the hit round
        value = start + n * delta
        # chances left after the hit that ended the cycle: P(m | hit) ~ sum_{k>m} P_k q^(k-m-1) p
        p_hit = np.minimum(1.0, rate * value)
        weights = np.stack([sum(pmf.get(k, 0.0) * (1 - p_hit) ** (k - m - 1)
                                for k in range(m + 1, kmax + 1)) for m in range(kmax)])
        cumulative = np.cumsum(weights, axis=0) / weights.sum(axis=0)
        left = (rng.random(chains)[None, :] > cumulative).sum(axis=0)
        restart = seed + eps * n
        second = rng.random(chains) < 1 - (1 - np.minimum(1.0, rate * restart)) ** left
        # a cycle of 0 rounds pending from the previous round goes first
        rounds[:, c] = np.where(pending, 0.0, n)
        paid[:, c] = np.where(pending, pending_value, value)
        starts[:, c] = np.where(pending, pending_value, start)
        # (a third hit in the same round is below 1e-13 here: it is not drawn)
        new_start = np.where(second, seed, restart)
        pending_value = np.where(second & ~pending, restart, 0.0)
        start = np.where(pending, start, new_start)
        pending = second & ~pending
    return rounds, paid, starts


def test_reserve_and_two_chances_at_one_in_a_billion_against_sampled_cycles():
    """Every figure within 4.5 standard errors (independent chains) plus its bound."""
    pool = linear(9)
    model = JackpotModel(pool, 1, WHEEL)
    a = model.analyze()
    assert a.lattice_step > 1000 and a.grid_size > 100
    rounds, paid, starts = sample_cycles(model, 4000, 40, np.random.default_rng(23))
    rounds, paid, starts = rounds[:, 5:], paid[:, 5:], starts[:, 5:]  # from near stationarity
    delta = float(model.pool_increment)
    per_chain = {
        "mean_rounds_between_hits": (rounds.sum(1), rounds.shape[1]),
        "hit_value_mean": (paid.sum(1), rounds.shape[1]),
        "rtp_contribution": (paid.sum(1), rounds.sum(1) * float(model.bet)),
        "mean_restart_value": (starts.sum(1), rounds.shape[1]),
        "mean_pool": ((rounds * starts + delta * rounds * (rounds + 1) / 2).sum(1),
                      rounds.sum(1)),
    }
    for figure, (num, den) in per_chain.items():
        den = np.broadcast_to(den, num.shape).astype(float)
        estimate = num.sum() / den.sum()
        resid = num - estimate * den
        se = math.sqrt(resid @ resid / (len(num) * (len(num) - 1))) / den.mean()
        assert abs(estimate - getattr(a, figure)) <= 4.5 * se + a.error_bounds[figure], figure
        assert se < 5e-3 * estimate  # a test that can see a 2 % mistake


# -- at 1 in 1,000: the literal simulation of the rounds ----------------------------------------


@pytest.mark.parametrize("rounds_per_point", [None, 8])
def test_one_in_a_thousand_against_the_simulated_rounds(rounds_per_point):
    pool = linear(3)
    model = JackpotModel(pool, 1, WHEEL)
    a = model.analyze(rounds_per_point=rounds_per_point)
    assert a.lattice_step == (rounds_per_point or 1)
    sim = simulate_pool(model, 20_000_000, np.random.default_rng(7))
    assert sim.hits > 15_000
    for figure in FIGURES:
        estimate, se = sim.estimate(figure)
        assert abs(estimate - getattr(a, figure)) <= 4.5 * se + a.error_bounds[figure], figure


# -- what is refused, and where ------------------------------------------------------------------


def test_a_pool_never_hit_is_refused_by_the_analysis_at_once():
    never = JackpotPool("X", 50, "0.024", "0.1", ConstantLaw(0.0))
    with pytest.raises(ValueError, match="never hit in practice"):
        analyze_pool(never, 1, WHEEL)
    # a pool hit once in about 1e30 rounds is analysed, not refused
    rare = analyze_pool(JackpotPool("X", 50, "0.024", "0.1", ConstantLaw(1e-28)), 1, WHEEL)
    assert rare.mean_rounds_between_hits == pytest.approx(1 / (0.021 * 1e-28), rel=1e-10)
    # and a linear law so hot that rate x pool passes the float range (p = 1; no warning)
    hot = analyze_pool(JackpotPool("X", 50, "0.024", "0.1", LinearLaw(1e300)), 1, {1: 1})
    assert hot.mean_rounds_between_hits == pytest.approx(1, rel=1e-12)


GAME_EDITS = [  # (what is wrong, (old, new) in JACKPOT_GAME, key path, message)
    ("a linear law at rate 0", ("rate = 0.01", "rate = 0"), "jackpots[0].rate",
     "must be above 0: at 0 the jackpot is never won"),
    ("a saturating law at p_max 0", ("p_max = 0.05", "p_max = 0"), "jackpots[1].p_max",
     "must be above 0"),
    ("a constant law at probability 0",
     ('law = "linear"\nrate = 0.01', 'law = "constant"\nprobability = 0'),
     "jackpots[0].probability", "never won"),
    ("no seed and no contribution on a linear law",
     ("seed = 5\ncontribution = 0.03", "seed = 0\ncontribution = 0"), "jackpots[0].contribution",
     "the pool never grows and the jackpot is never won"),
    ("a reserve of half the contribution", ("reserve = 0.2", "reserve = 0.5"),
     "jackpots[1].reserve", "must be below 0.5"),
]


@pytest.mark.parametrize(("old_new", "key", "message"), [e[1:] for e in GAME_EDITS],
                         ids=[e[0] for e in GAME_EDITS])
def test_the_loader_refuses_what_the_analysis_cannot_hold(old_new, key, message, tmp_path,
                                                          capsys):
    """When the file is read, with the file and the key path, not after a computation; the
    CLI says it in one line and exits 2."""
    old, new = old_new
    assert JACKPOT_GAME.count(old) == 1
    path = tmp_path / "newcomer.toml"
    path.write_text(JACKPOT_GAME.replace(old, new))
    with pytest.raises(GameFileError) as err:
        slotmath.load_game(path)
    assert (err.value.file, err.value.key) == (str(path), key)
    assert str(err.value).startswith(f"{path}: {key}: ") and message in str(err.value)
    assert main(["analyze", str(path)]) == 2
    out = capsys.readouterr()
    assert key in out.err and "Traceback" not in out.err
    assert len(out.err.strip().splitlines()) == 1


def test_a_reserve_just_below_half_is_analysed():
    game = slotmath.loads_game(JACKPOT_GAME.replace("reserve = 0.2", "reserve = 0.49"), "<r49>")
    a = slotmath.analyze(game)
    grand = a.features["jackpots"].pools["GRAND"]
    assert grand.rtp_contribution == pytest.approx(grand.rtp_from_identity, rel=1e-11)


# -- the game of the issue: a rare pool, then a plain strip edit -----------------------------------


def test_a_game_with_a_rare_pool_is_analysed_and_its_strips_can_be_edited():
    """Gold Money Frog with its SUPER hit once in millions of rounds (the per-round lattice
    held 4 million rounds before refusing): the game is analysed at its lowest and highest
    levels, and the strip editor's edit (one symbol more on reel 1) is analysed too."""
    frog = slotmath.load_game("data/games/gold_money_frog.toml")
    rare = with_jackpot(frog, "SUPER", parameters={"rate": 1e-12})
    for level in (rare.bet_levels[0], rare.bet_levels[-1]):
        a = slotmath.analyze(rare, level)
        pool = a.features["jackpots"].pools["SUPER"]
        assert pool.mean_rounds_between_hits > 4_194_304 and pool.lattice_step > 1
        assert pool.rtp_contribution == pytest.approx(pool.rtp_from_identity, rel=1e-11)
        assert a.rtp_error < 1e-6
    reel = rare.reel_sets["base"].reels[0]
    symbol = reel.symbols[0]
    edited = replace_reel(rare, "base", 0,
                          with_symbol_count(reel, symbol, symbol_count(reel, symbol) + 1))
    assert slotmath.analyze(edited, 1).features["jackpots"].pools["SUPER"].lattice_step > 1
