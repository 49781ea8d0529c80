"""Free spins and the paid round against plain references.

References used here, each independent of the code under test:

* ``brute_feature``: recursion over every sequence of free spins (exact Fractions); finite
  whenever the number of spins is (no retrigger, or a cap).
* ``brute_spins_upto``: the same recursion for the spin count alone, cut at a total award
  ``limit``: exact probabilities of every count up to the limit, also without a cap.
* ``series_tree_moments``: without a cap, the moments of one spin's tree from sympy's series
  expansion of the generating-function equation ``T = E[e^(theta w) T^a]``.
* ``simulate_rounds``: a seeded Monte Carlo drawing outcomes from the SpinTables themselves.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from slotmath.exact.spin_table import MarkedTable, SpinTable
from slotmath.features.compose import RoundLaw
from slotmath.features.free_spins import FreeSpinsRound, summary
from slotmath.markov.chains import expected_reward_to_absorption
from slotmath.markov.free_spins import FreeSpinsFeature, SpinCountDistribution
from slotmath.model.game import FreeSpins


def table(weights: dict, cpb: int = 1) -> SpinTable:
    return SpinTable(dict(weights), sum(weights.values()), cpb, max(t for t, _ in weights))


# -- references -----------------------------------------------------------------------------------


def outcomes(free: SpinTable, spec: FreeSpins):
    return [
        (spec.award_for(t) if spec.retrigger else 0, c, Fraction(w, free.cycle))
        for (t, c), w in sorted(free.weights.items())
    ]


def brute_feature(free: SpinTable, spec: FreeSpins, n: int) -> dict:
    """{(spins played, raw credits won): probability}, by recursion over spin sequences."""
    cap = spec.max_spins
    n = min(n, cap) if cap is not None else n
    outs = outcomes(free, spec)
    assert cap is not None or not spec.retrigger

    @cache
    def rest(remaining, awarded):
        if remaining == 0:
            return {(0, 0): Fraction(1)}
        out: dict = {}
        for a, c, p in outs:
            if cap is not None:
                a = min(a, cap - awarded)
            for (k, x), q in rest(remaining - 1 + a, awarded + a).items():
                out[(k + 1, x + c)] = out.get((k + 1, x + c), 0) + p * q
        return out

    return rest(n, n)


def brute_spins_upto(free: SpinTable, spec: FreeSpins, n: int, limit: int) -> tuple[dict, Fraction]:
    """P(spins = k) for every k <= limit, and P(win 0 and spins <= limit): sequences whose total
    award exceeds ``limit`` are left out."""
    outs = outcomes(free, spec)

    @cache
    def rest(remaining, awarded):
        if remaining == 0:
            return {0: Fraction(1)}, Fraction(1)
        out: dict = {}
        zero = Fraction(0)
        for a, c, p in outs:
            if awarded + a > limit:
                continue
            d, z = rest(remaining - 1 + a, awarded + a)
            for k, q in d.items():
                out[k + 1] = out.get(k + 1, 0) + p * q
            if c == 0:
                zero += p * z
        return out, zero

    return rest(n, n)


def series_tree_moments(free: SpinTable, spec: FreeSpins, n: int, spins: bool = False):
    """E[S], E[S^2] of n trees (S = raw credits, or the spin count when ``spins``) from the
    series of T(theta) = sum_outcomes p e^(theta c) T(theta)^a around theta = 0."""
    th, t1, t2 = sympy.symbols("theta t1 t2")
    T = 1 + t1 * th + t2 * th**2 / 2
    rhs = 0
    for a, c, p in outcomes(free, spec):
        c = 1 if spins else c
        rhs += sympy.Rational(p.numerator, p.denominator) * (1 + c * th + c**2 * th**2 / 2) * T**a
    eq = sympy.Poly(sympy.expand(rhs - T), th)
    s1 = sympy.solve(eq.coeff_monomial(th), t1)[0]
    s2 = sympy.solve(eq.coeff_monomial(th**2).subs(t1, s1), t2)[0]
    total = sympy.Poly(sympy.expand(T.subs({t1: s1, t2: s2}) ** n), th)
    m1 = total.coeff_monomial(th)
    m2 = 2 * total.coeff_monomial(th**2)
    return Fraction(int(m1.p), int(m1.q)), Fraction(int(m2.p), int(m2.q))


def bets(x, free, spec):
    return Fraction(x * spec.multiplier, free.credits_per_bet)


def dist_error(got, want: dict) -> float:
    """Largest absolute difference between a numeric distribution and an exact dict."""
    g = dict(zip(got.credits.tolist(), got.probs.tolist()))
    keys = set(g) | set(want)
    return max(abs(g.get(k, 0.0) - float(want.get(k, 0))) for k in keys)


# -- the cases ------------------------------------------------------------------------------------

# Free-spin tables: (trigger count, raw credits) -> weight. In F1 the retriggering scatter also
# pays (the usual case, win and award correlated); in F2 a retrigger can pay nothing.
F1 = table({(0, 0): 5, (0, 2): 3, (0, 7): 1, (1, 1): 1, (2, 4): 1}, cpb=2)
F2 = table({(0, 0): 4, (0, 3): 2, (1, 0): 1, (1, 5): 1}, cpb=1)
SPECS = {
    "plain": FreeSpins("S", {1: 2, 2: 3}, multiplier=2),
    "capped": FreeSpins("S", {1: 2, 2: 3}, multiplier=3, retrigger=True, max_spins=7),
    "retrigger": FreeSpins("S", {1: 2, 2: 3}, multiplier=1, retrigger=True),
    "small cap": FreeSpins("S", {1: 2, 2: 4}, retrigger=True, max_spins=3),
}
FINITE = [(f, s) for f in ("F1", "F2") for s in ("plain", "capped", "small cap")]
TABLES = {"F1": F1, "F2": F2}


@pytest.mark.parametrize("tname, sname", FINITE)
@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_finite_feature_equals_brute_force(tname, sname, n):
    free, spec = TABLES[tname], SPECS[sname]
    check_finite_feature(free, spec, n)


def check_finite_feature(free, spec, n):
    f = FreeSpinsFeature(free, spec)
    brute = brute_feature(free, spec, n)
    assert sum(brute.values()) == 1
    spins: dict = {}
    wins: dict = {}
    for (k, x), p in brute.items():
        spins[k] = spins.get(k, 0) + p
        wins[x * spec.multiplier] = wins.get(x * spec.multiplier, 0) + p
    d = f.spins_distribution(n)
    assert d.exact and d.tail_mass == 0
    assert dict(d.probabilities) == {k: p for k, p in sorted(spins.items())}
    assert f.expected_spins(n) == sum(k * p for k, p in spins.items())
    assert f.expected_win(n) == sum(p * bets(x, free, spec) for (_, x), p in brute.items())
    assert f.second_moment(n) == sum(p * bets(x, free, spec) ** 2 for (_, x), p in brute.items())
    assert f.zero_win_probability(n) == sum(p for (_, x), p in brute.items() if x == 0)
    wd = f.win_distribution(n)
    assert dist_error(wd, wins) <= 1e-12
    assert np.all(np.diff(wd.credits) > 0) and wd.credits.dtype == np.int64
    assert wd.aliased_mass_bound == 0  # the grid holds the whole finite support


def test_chain_rows_sum_to_one_and_match_the_linear_solve():
    # Wald's identity and the chain agree; the acyclic DP agrees with (I - Q)^-1 1.
    for free in (F1, F2):
        for sname in ("capped", "small cap"):
            spec = SPECS[sname]
            f = FreeSpinsFeature(free, spec)
            n = 2
            states, todo = {(n, n)}, [(n, n)]
            while todo:
                for p, nxt in f.transitions(todo.pop()):
                    if nxt[0] > 0 and nxt not in states:
                        states.add(nxt)
                        todo.append(nxt)
            states = sorted(states)
            index = {s: i for i, s in enumerate(states)}
            Q = [[Fraction(0)] * len(states) for _ in states]
            for s in states:
                row = f.transitions(s)
                assert sum(p for p, _ in row) == 1
                assert all(nxt[1] <= spec.max_spins for _, nxt in row)
                for p, nxt in row:
                    if nxt[0] > 0:
                        Q[index[s]][index[nxt]] += p
            steps = expected_reward_to_absorption(Q)
            assert steps[index[(n, n)]] == f.expected_spins(n)
            raw_mean, _ = f._raw_moments(n)
            assert raw_mean * Fraction(spec.multiplier, free.credits_per_bet) == f.expected_win(n)


@pytest.mark.parametrize("tname", ["F1", "F2"])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_uncapped_retrigger_against_series_and_partial_enumeration(tname, n):
    free, spec = TABLES[tname], SPECS["retrigger"]
    f = FreeSpinsFeature(free, spec)
    assert not f.finite and f.award_mean < 1
    # moments: branching identities vs the series of the generating function
    e1, e2 = series_tree_moments(free, spec, n)
    assert f.expected_win(n) == bets(e1, free, spec)
    assert f.second_moment(n) == e2 * Fraction(spec.multiplier, free.credits_per_bet) ** 2
    assert f.expected_spins(n) == series_tree_moments(free, spec, n, spins=True)[0]
    # spin counts up to the limit are exact in the partial enumeration
    limit = 24
    part, zero_part = brute_spins_upto(free, spec, n, limit)
    d = f.spins_distribution(n)
    assert not d.exact and 0 <= d.tail_mass < 1e-15
    assert abs(sum(d.probabilities.values()) + d.tail_mass - 1) < 1e-13
    for k in range(limit + 1):
        assert abs(d.probabilities.get(k, 0.0) - float(part.get(k, 0))) < 1e-15
    assert abs(float(d.mean) - float(f.expected_spins(n))) < 1e-12
    # zero-win probability: between the partial sum and the partial sum + the tail beyond it
    z = f.zero_win_probability(n)
    beyond = 1 - sum(part.values())
    assert zero_part <= z <= zero_part + beyond
    if tname == "F1":  # retriggers always pay: rational
        assert z == Fraction(5, 11) ** n
    else:  # z = 4/8 + 1/8 z^2 (award 2, no win): z = 4 - 2 sqrt 3, an exact sympy root
        assert isinstance(z, sympy.Expr)
        assert sympy.simplify(z - (4 - 2 * sympy.sqrt(3)) ** n) == 0


@pytest.mark.parametrize("tname", ["F1", "F2"])
@pytest.mark.parametrize("cap", [3, 5, 9])
def test_capped_spins_are_uncapped_spins_stopped_at_the_cap(tname, cap):
    # The cut award keeps spins awarded = min(cap, n + sum of uncut awards), so the capped
    # feature is the uncapped one stopped after `cap` spins: N_cap = min(N, cap).
    free = TABLES[tname]
    capped = FreeSpins("S", {1: 2, 2: 3}, retrigger=True, max_spins=cap)
    uncapped = FreeSpins("S", {1: 2, 2: 3}, retrigger=True)
    n = 2
    part, _ = brute_spins_upto(free, uncapped, n, cap)
    want = {k: p for k, p in part.items() if k < cap}
    want[cap] = 1 - sum(want.values())
    got = FreeSpinsFeature(free, capped).spins_distribution(n).probabilities
    assert dict(got) == {k: p for k, p in sorted(want.items()) if p}


@pytest.mark.parametrize("tname", ["F1", "F2"])
def test_uncapped_win_distribution_against_partial_enumeration(tname):
    free, spec = TABLES[tname], SPECS["retrigger"]
    f = FreeSpinsFeature(free, spec)
    n, limit = 2, 40
    outs = [(a, c, float(p)) for a, c, p in outcomes(free, spec)]

    @cache
    def rest(remaining, awarded):  # floats: distribution of the raw win, total award <= limit
        if remaining == 0:
            return {0: 1.0}
        out: dict = {}
        for a, c, p in outs:
            if awarded + a <= limit:
                for x, q in rest(remaining - 1 + a, awarded + a).items():
                    out[x + c] = out.get(x + c, 0.0) + p * q
        return out

    part = rest(n, n)
    beyond = 1 - sum(part.values())
    assert 1e-9 < beyond < 1e-3
    wd = f.win_distribution(n)
    got = dict(zip(wd.credits.tolist(), wd.probs.tolist()))
    for x, p in part.items():  # every partial probability is a lower bound
        assert got.get(x * spec.multiplier, 0.0) >= p - 1e-13
    assert sum(got.values()) - sum(part.values()) <= beyond + 1e-12
    assert abs(wd.total_mass - 1) < 1e-12
    assert wd.aliased_mass_bound < 1e-12
    assert abs(wd.mean_bets / float(f.expected_win(n)) - 1) < 1e-9
    assert abs(wd.variance_bets / float(f.variance(n)) - 1) < 1e-6


def test_spins_distribution_geometric():
    # award 1 with probability q (and nothing else): a tree is geometric, P(N = k) = q^(k-1) (1-q)
    free = table({(0, 1): 2, (1, 0): 1})
    f = FreeSpinsFeature(free, FreeSpins("S", {1: 1}, retrigger=True))
    d = f.spins_distribution(1)
    for k, p in d.probabilities.items():
        assert abs(p - (1 / 3) ** (k - 1) * (2 / 3)) < 1e-16
    assert f.expected_spins(1) == Fraction(3, 2)
    assert isinstance(d, SpinCountDistribution)


def test_bad_n():
    f = FreeSpinsFeature(F1, SPECS["plain"])
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError):
            f.expected_spins(bad)


# -- hypothesis: random small tables and specs ----------------------------------------------------

free_tables = st.dictionaries(
    st.tuples(st.integers(0, 2), st.integers(0, 6)), st.integers(1, 5), min_size=1, max_size=5
).map(lambda w: table(w, cpb=1 + sum(c for _, c in w) % 3))
specs = st.builds(
    FreeSpins,
    st.just("S"),
    st.dictionaries(st.integers(1, 2), st.integers(1, 3), min_size=1),
    multiplier=st.integers(1, 3),
    retrigger=st.booleans(),
    max_spins=st.one_of(st.none(), st.integers(1, 6)),
)


@settings(max_examples=60, deadline=None)
@given(free_tables, specs, st.integers(0, 4))
def test_property_finite_feature(free, spec, n):
    assume(spec.max_spins is not None or not spec.retrigger)
    assume(spec.max_spins is not None or n <= 3)
    check_finite_feature(free, spec, n)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(free_tables, specs, st.integers(1, 3))
def test_property_uncapped(free, spec, n):
    f = FreeSpinsFeature(free, FreeSpins("S", spec.awards, multiplier=spec.multiplier,
                                         retrigger=True))
    assume(f.award_mean <= Fraction(1, 2))
    e1, e2 = series_tree_moments(free, f.spec, n)
    assert f.expected_win(n) == bets(e1, free, f.spec)
    assert f.second_moment(n) == e2 * Fraction(f.spec.multiplier, free.credits_per_bet) ** 2
    part, zero_part = brute_spins_upto(free, f.spec, n, 12)
    assert zero_part <= f.zero_win_probability(n) <= zero_part + 1 - sum(part.values())
    if e1:
        wd = f.win_distribution(n)
        assert abs(wd.total_mass - 1) < 1e-12
        assert abs(wd.mean_bets / float(f.expected_win(n)) - 1) < 1e-9


# -- the paid round -------------------------------------------------------------------------------

B1 = table({(0, 0): 20, (0, 1): 6, (0, 3): 3, (0, 12): 1, (1, 0): 2, (1, 2): 1, (2, 5): 1}, cpb=3)
ROUNDS = {
    "plain": (B1, F1, SPECS["plain"]),
    "capped": (B1, F1, SPECS["capped"]),
    "F2 capped": (B1, F2, SPECS["capped"]),
    "retrigger": (B1, F1, SPECS["retrigger"]),
    "F2 retrigger": (B1, F2, SPECS["retrigger"]),
    "no feature": (B1, None, None),
}


def brute_round(base, free, spec) -> dict:
    """{round win in total bets: probability} over base outcome x feature sequences."""
    out: dict = {}
    for (t, b), w in base.weights.items():
        p = Fraction(w, base.cycle)
        bb = Fraction(b, base.credits_per_bet)
        n = 0 if spec is None else spec.award_for(t)
        if n == 0:
            out[bb] = out.get(bb, 0) + p
            continue
        for (_, x), q in brute_feature(free, spec, n).items():
            r = bb + bets(x, free, spec)
            out[r] = out.get(r, 0) + p * q
    return out


@pytest.mark.parametrize("name", [k for k, v in ROUNDS.items() if v[2] is None or not
                                  (v[2].retrigger and v[2].max_spins is None)])
def test_round_equals_brute_force(name):
    base, free, spec = ROUNDS[name]
    r = round_law(base, free, spec)
    dist = brute_round(base, free, spec)
    assert sum(dist.values()) == 1
    assert r.mean == sum(x * p for x, p in dist.items())
    assert r.second_moment == sum(x * x * p for x, p in dist.items())
    assert r.variance == r.second_moment - r.mean**2
    assert r.hit_frequency == sum(p for x, p in dist.items() if x > 0)
    assert RoundLaw(MarkedTable.of(base)).mean == base.mean_bets
    wd = r.distribution()
    want = {x * wd.credits_per_bet: p for x, p in dist.items()}
    assert all(k.denominator == 1 for k in want)
    assert dist_error(wd, {int(k): p for k, p in want.items()}) <= 1e-12
    if spec is not None:
        trig = sum(Fraction(w, base.cycle) for (t, _), w in base.weights.items()
                   if spec.award_for(t))
        fs = summary(r, r.features[0])
        assert fs.trigger_probability == trig
        assert fs.expected_win == r.feature_mean("free_spins") / trig
        d = fs.spins_distribution
        assert d.exact and sum(d.probabilities.values()) == 1
        assert d.mean == fs.expected_spins


base_tables = st.dictionaries(
    st.tuples(st.integers(0, 2), st.integers(0, 5)), st.integers(1, 6), min_size=1, max_size=6
).map(lambda w: table(w, cpb=1 + len(w) % 2))


@settings(max_examples=40, deadline=None)
@given(base_tables, free_tables, specs)
def test_property_round_equals_brute_force(base, free, spec):
    assume(spec.max_spins is not None or not spec.retrigger)
    assume(spec.max_spins is not None or max(spec.awards.values()) <= 3)
    r = round_law(base, free, spec)
    dist = brute_round(base, free, spec)
    assert r.mean == sum(x * p for x, p in dist.items())
    assert r.second_moment == sum(x * x * p for x, p in dist.items())
    assert r.hit_frequency == sum(p for x, p in dist.items() if x > 0)
    wd = r.distribution()
    assert dist_error(wd, {int(x * wd.credits_per_bet): p for x, p in dist.items()}) <= 1e-12


@settings(max_examples=40, deadline=None)
@given(base_tables, free_tables, specs)
def test_property_a_base_table_held_as_arrays_gives_the_same_round(base, free, spec):
    """The array paths of RoundLaw (a base table held as a WeightTable, as the cascade
    engine returns it) give what the row loops over the same table as a dict give: the
    groups, their order and sums, and the round distribution bit for bit."""
    from slotmath.exact.cascades import WeightTable

    assume(spec is not None)
    assume(spec.max_spins is not None or not spec.retrigger)
    assume(spec.max_spins is not None or max(spec.awards.values()) <= 3)
    plain = round_law(base, free, spec)
    table = MarkedTable.of(base)
    rows = list(table.weights.items())
    arrays = RoundLaw(MarkedTable(table.marks, WeightTable(
        np.array([k for k, _ in rows], np.int64).reshape(len(rows), -1),
        np.array([w for _, w in rows], np.int64)), table.cycle, table.credits_per_bet,
        table.trigger_cap), plain.features)
    assert list(arrays._groups.items()) == list(plain._groups.items())
    assert (arrays.mean, arrays.second_moment, arrays.hit_frequency) == (
        plain.mean, plain.second_moment, plain.hit_frequency)
    a, b = arrays.distribution(), plain.distribution()
    assert a.credits.tolist() == b.credits.tolist() and a.probs.tolist() == b.probs.tolist()


def round_law(base, free, spec) -> RoundLaw:
    """The round of the paid spin ``base`` and, with ``spec``, free spins on ``free``."""
    features = () if spec is None else (FreeSpinsRound(spec, free),)
    return RoundLaw(MarkedTable.of(base), features)


def simulate_rounds(base, free, spec, rounds, rng):
    """Round wins (bets), spins played and awards, drawn outcome by outcome from the tables."""
    bk = list(base.weights)
    bp = np.array([base.weights[k] for k in bk], dtype=float) / base.cycle
    i = rng.choice(len(bk), size=rounds, p=bp)
    bt = np.array([t for t, _ in bk])[i]
    win = np.array([c for _, c in bk], dtype=float)[i] / base.credits_per_bet
    spins = np.zeros(rounds, dtype=np.int64)
    if spec is None:
        return win, spins, np.zeros(rounds, dtype=np.int64)
    cap = spec.max_spins if spec.max_spins is not None else 1 << 60
    award = np.minimum(np.array([spec.award_for(t) for t in range(bt.max() + 1)])[bt], cap)
    fk = list(free.weights)
    fp = np.array([free.weights[k] for k in fk], dtype=float) / free.cycle
    fa = np.array([spec.award_for(t) if spec.retrigger else 0 for t, _ in fk])
    fc = np.array([c for _, c in fk], dtype=float)
    remaining, awarded, fwin = award.copy(), award.copy(), np.zeros(rounds)
    active = np.flatnonzero(remaining > 0)
    while len(active):
        j = rng.choice(len(fk), size=len(active), p=fp)
        a = np.minimum(fa[j], cap - awarded[active])
        fwin[active] += fc[j]
        spins[active] += 1
        remaining[active] += a - 1
        awarded[active] += a
        active = active[remaining[active] > 0]
    return win + fwin * spec.multiplier / free.credits_per_bet, spins, award


@pytest.mark.parametrize("name", list(ROUNDS))
def test_round_against_monte_carlo(name):
    base, free, spec = ROUNDS[name]
    r = round_law(base, free, spec)
    rounds = 300_000
    rng = np.random.default_rng(20240611 + len(name))
    win, spins, award = simulate_rounds(base, free, spec, rounds, rng)
    se = r.std / math.sqrt(rounds)
    assert abs(win.mean() - float(r.mean)) <= 4.5 * se
    hf = float(r.hit_frequency)
    assert abs((win > 0).mean() - hf) <= 4.5 * math.sqrt(hf * (1 - hf) / rounds)
    sq = win**2
    assert abs(sq.mean() - float(r.second_moment)) <= 4.5 * sq.std() / math.sqrt(rounds)
    if spec is not None:
        fs = summary(r, r.features[0])
        pt = float(fs.trigger_probability)
        assert abs((award > 0).mean() - pt) <= 4.5 * math.sqrt(pt * (1 - pt) / rounds)
        played = spins[award > 0]
        se_spins = played.std() / math.sqrt(len(played))
        assert abs(played.mean() - float(fs.expected_spins)) <= 4.5 * se_spins
    wd = r.distribution()
    assert abs(wd.total_mass - 1) < 1e-12
    assert abs(wd.mean_bets / float(r.mean) - 1) < 1e-9
    assert abs(wd.variance_bets / float(r.variance) - 1) < 1e-6


def test_round_refuses_a_feature_whose_mark_the_table_does_not_count():
    uncounted = RoundLaw(MarkedTable.of(B1).project(()), (FreeSpinsRound(ROUNDS["F2 retrigger"][2], F1),))
    with pytest.raises(KeyError, match="does not count 'trigger'"):
        _ = uncounted.mean


def test_irrational_hit_frequency_is_exact():
    r = round_law(*ROUNDS["F2 retrigger"])
    hf = r.hit_frequency
    assert isinstance(hf, sympy.Expr)
    # P(B > 0) + P(B = 0, triggered: award 2) (1 - z^2) with z = 4 - 2 sqrt 3
    z = 4 - 2 * sympy.sqrt(3)
    want = sympy.Rational(12, 34) + sympy.Rational(2, 34) * (1 - z**2)
    assert sympy.simplify(hf - want) == 0


# -- a classic-sized feature ----------------------------------------------------------------------


def classic_sized_tables(seed=7):
    """Free and base tables of the size of a 5x3 25-line game: ~2,000 distinct wins up to
    150,000 credits (25 credits a bet), scatter counts 3-5 paying and awarding 10/15/20."""
    rng = np.random.default_rng(seed)
    tops = (np.exp(rng.uniform(np.log(5), np.log(150_000), 1700))).astype(int)
    values = np.unique(np.concatenate([rng.integers(1, 200, 300), tops, [150_000]]))
    out = []
    for trigger_rate in (1 / 120, 1 / 150):
        w = {(0, int(v)): int(1e9 * float(v) ** -2.2) + int(rng.integers(1, 4)) for v in values}
        w[(0, 0)] = 2 * sum(w.values())
        total = sum(w.values())
        for t, pay, frac in [(3, 50, trigger_rate), (4, 250, 1 / 2500), (5, 2500, 1 / 80000)]:
            for extra in (0, 5, 40, 200):
                w[(t, pay + extra)] = max(1, int(total * frac / 4))
        out.append(SpinTable(w, sum(w.values()), 25, 5))
    return out


@pytest.mark.parametrize("cap", [None, 50])
def test_classic_sized_round(cap):
    free, base = classic_sized_tables()
    spec = FreeSpins("SC", {3: 10, 4: 15, 5: 20}, multiplier=3, retrigger=True, max_spins=cap)
    r = round_law(base, free, spec)
    start = time.perf_counter()
    wd = r.distribution()
    elapsed = time.perf_counter() - start
    assert elapsed < 30  # a few seconds on 2 cores; generous against noisy CI machines
    assert abs(wd.total_mass - 1) < 1e-9
    assert abs(wd.mean_bets / float(r.mean) - 1) < 1e-9
    assert abs(wd.variance_bets / float(r.variance) - 1) < 1e-6
    assert wd.aliased_mass_bound < 1e-12
    f = r.features[0].chain
    fd = f.win_distribution(10)
    assert abs(fd.mean_bets / float(f.expected_win(10)) - 1) < 1e-9
