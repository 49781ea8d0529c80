"""Chain tools against textbook answers and against each other."""

from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from slotmath.markov.chains import (
    absorption_probabilities,
    acyclic_absorption,
    acyclic_moments,
    acyclic_order,
    expected_reward_to_absorption,
    fundamental_matrix,
    gth_solve,
    solve_exact,
)

# -- exact absorbing chains -----------------------------------------------------------------------


def gamblers_ruin(p: Fraction, N: int):
    """Transient states 1..N-1; absorbing 0 (ruin) and N (goal)."""
    q = 1 - p
    Q = [[Fraction(0)] * (N - 1) for _ in range(N - 1)]
    R = [[Fraction(0)] * 2 for _ in range(N - 1)]
    for i in range(N - 1):
        k = i + 1
        if k + 1 == N:
            R[i][1] = p
        else:
            Q[i][i + 1] = p
        if k - 1 == 0:
            R[i][0] = q
        else:
            Q[i][i - 1] = q
    return Q, R


# Known answers (Feller, vol. I, XIV.2-3): with rho = q/p != 1, P(reach N from k) =
# (1 - rho^k)/(1 - rho^N) and E[duration] = k/(q-p) - N/(q-p) * (1 - rho^k)/(1 - rho^N);
# with p = 1/2: k/N and k (N - k).
RUIN_CASES = [(Fraction(1, 2), 5), (Fraction(1, 3), 6), (Fraction(3, 5), 4), (Fraction(9, 10), 7)]


@pytest.mark.parametrize("p, N", RUIN_CASES)
def test_gamblers_ruin_textbook(p, N):
    Q, R = gamblers_ruin(p, N)
    B = absorption_probabilities(Q, R)
    t = expected_reward_to_absorption(Q)
    q = 1 - p
    for k in range(1, N):
        if p == q:
            win, duration = Fraction(k, N), Fraction(k * (N - k))
        else:
            rho = q / p
            win = (1 - rho**k) / (1 - rho**N)
            duration = k / (q - p) - N / (q - p) * win
        assert B[k - 1][1] == win
        assert B[k - 1][0] == 1 - win
        assert t[k - 1] == duration
    # every row of the full chain sums to 1
    for i in range(N - 1):
        assert sum(Q[i]) + sum(R[i]) == 1


def test_fundamental_matrix_inverts_i_minus_q():
    Q, _ = gamblers_ruin(Fraction(2, 7), 6)
    N = fundamental_matrix(Q)
    n = len(Q)
    for i in range(n):
        for j in range(n):
            val = sum(N[i][k] * ((1 if k == j else 0) - Q[k][j]) for k in range(n))
            assert val == (1 if i == j else 0)


def test_expected_reward_weights_visits():
    # reward r_i per visit: N r
    Q, _ = gamblers_ruin(Fraction(1, 3), 5)
    r = [Fraction(3), Fraction(0), Fraction(1, 2), Fraction(7)]
    N = fundamental_matrix(Q)
    want = [sum(N[i][j] * r[j] for j in range(4)) for i in range(4)]
    assert expected_reward_to_absorption(Q, r) == want


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5).flatmap(
    lambda n: st.tuples(
        st.lists(st.lists(st.integers(-9, 9), min_size=n, max_size=n), min_size=n, max_size=n),
        st.lists(st.integers(-9, 9), min_size=n, max_size=n),
    )
))
def test_solve_exact_matches_sympy(case):
    A, b = case
    M = sympy.Matrix(A)
    if M.det() == 0:
        with pytest.raises(ValueError):
            solve_exact(A, b)
        return
    x = solve_exact(A, b)
    want = M.LUsolve(sympy.Matrix(b))
    assert [sympy.Rational(v.numerator, v.denominator) for v in x] == list(want)


# -- GTH ------------------------------------------------------------------------------------------

GTH_TESTSET = {
    "two state": ([[0.9, 0.1], [0.4, 0.6]], [0.8, 0.2]),
    "doubly stochastic": ([[0.2, 0.5, 0.3], [0.5, 0.3, 0.2], [0.3, 0.2, 0.5]], [1 / 3] * 3),
    # birth-death on {0,1,2,3}, up 1/3, down 2/3: detailed balance pi_k ~ (1/2)^k
    "birth death": (
        [[2 / 3, 1 / 3, 0, 0], [2 / 3, 0, 1 / 3, 0], [0, 2 / 3, 0, 1 / 3], [0, 0, 2 / 3, 1 / 3]],
        [8 / 15, 4 / 15, 2 / 15, 1 / 15],
    ),
    # generator matrix (rows sum to 0): M/M/1/2 queue, lambda 1, mu 2
    "generator": ([[-1, 1, 0], [2, -3, 1], [0, 2, -2]], [4 / 7, 2 / 7, 1 / 7]),
    "reducible": ([[0.5, 0.5, 0], [0.5, 0.5, 0], [0.2, 0.3, 0.5]], [0.5, 0.5, 0]),
}


@pytest.mark.parametrize("name", list(GTH_TESTSET))
def test_gth_testset(name):
    P, want = GTH_TESTSET[name]
    x = gth_solve(P)
    np.testing.assert_allclose(x, want, rtol=1e-13, atol=1e-15)


def test_gth_nearly_decomposable_is_accurate():
    eps = 1e-14
    P = np.array([[1 - eps, eps, 0], [eps, 1 - 2 * eps, eps], [0, 2 * eps, 1 - 2 * eps]])
    # detailed balance: pi ~ (1, 1, 1/2) exactly, although I - P is nearly singular
    np.testing.assert_allclose(gth_solve(P), [0.4, 0.4, 0.2], rtol=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5).flatmap(
    lambda n: st.lists(st.lists(st.integers(1, 9), min_size=n, max_size=n), min_size=n, max_size=n)
))
def test_gth_matches_exact_solve(rows):
    P = [[Fraction(w, sum(r)) for w in r] for r in rows]
    n = len(P)
    # pi (P - I) = 0, sum pi = 1: replace the last equation by the normalisation
    A = [[P[j][i] - (1 if i == j else 0) for j in range(n)] for i in range(n - 1)] + [[1] * n]
    exact = solve_exact(A, [0] * (n - 1) + [1])
    assert sum(exact) == 1
    x = gth_solve([[float(v) for v in r] for r in P])
    np.testing.assert_allclose(x, [float(v) for v in exact], rtol=1e-12)


def test_gth_rejects_non_square():
    with pytest.raises(ValueError):
        gth_solve([[1.0, 0.0]])


# -- acyclic chains -------------------------------------------------------------------------------


def test_acyclic_order_detects_cycles():
    with pytest.raises(ValueError, match="cycle"):
        acyclic_order([0], lambda k: [(k + 1) % 3])


def random_dag(draw_weights, n):
    """Transient states 0..n-1 moving only to higher states; n, n+1 absorbing."""
    rows = {}
    for i in range(n):
        targets = list(range(i + 1, n + 2))
        ws = draw_weights[i][: len(targets)]
        total = sum(ws)
        rows[i] = [(Fraction(w, total), t) for w, t in zip(ws, targets) if w]
    return rows


dag_cases = st.integers(1, 5).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(st.lists(st.integers(0, 4), min_size=n + 2, max_size=n + 2).filter(any),
                 min_size=n, max_size=n),
        st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=n + 2, max_size=n + 2),
    )
).filter(lambda c: all(any(w[: c[0] + 1 - i]) for i, w in enumerate(c[1])))


@settings(max_examples=60, deadline=None)
@given(dag_cases)
def test_acyclic_tools_match_the_linear_solve(case):
    n, weights, rewards = case
    rows = random_dag(weights, n)
    for i in range(n):
        assert sum(p for p, _ in rows[i]) == 1  # every row sums to 1
    step = lambda s: rows.get(s, [])
    # absorption: forward propagation vs (I - Q)^-1 R
    def to(i, j):
        return sum((p for p, t in rows[i] if t == j), Fraction(0))

    Q = [[to(i, j) for j in range(n)] for i in range(n)]
    R = [[to(i, j) for j in (n, n + 1)] for i in range(n)]
    B = absorption_probabilities(Q, R)
    got = acyclic_absorption(0, step)
    assert got.get(n, 0) == B[0][0] and got.get(n + 1, 0) == B[0][1]
    # moments: a step i -> t earns a deterministic reward r(i, t)
    rew = lambda i, t: Fraction(rewards[t][0] - rewards[i][1])
    mom = acyclic_moments([0], lambda s: [(p, t, (rew(s, t), rew(s, t) ** 2)) for p, t in step(s)])
    # first moment: expected reward per visit to i is sum_t p r(i, t); solve (I - Q) v = r
    per_visit = [sum((p * rew(i, t) for p, t in rows[i]), Fraction(0)) for i in range(n)]
    assert mom[0][0] == expected_reward_to_absorption(Q, per_visit)[0]

    # second moment by enumerating every path (plain recursion)
    def paths(s, prob, total):
        if s >= n:
            yield prob, total
            return
        for p, t in rows[s]:
            yield from paths(t, prob * p, total + rew(s, t))

    all_paths = list(paths(0, Fraction(1), Fraction(0)))
    assert sum(p for p, _ in all_paths) == 1
    assert mom[0][0] == sum(p * x for p, x in all_paths)
    assert mom[0][1] == sum(p * x * x for p, x in all_paths)


def test_acyclic_absorption_substochastic():
    # kill half the mass at each of two steps
    step = {0: [(Fraction(1, 2), 1)], 1: [(Fraction(1, 2), 2)], 2: []}
    assert acyclic_absorption(0, step.__getitem__) == {2: Fraction(1, 4)}


def test_acyclic_moments_third_order():
    # X = number of heads in 3 fair tosses, against its binomial distribution
    half = Fraction(1, 2)
    step = lambda k: [] if k == 3 else [(half, k + 1, (1, 1, 1)), (half, k + 1, (0, 0, 0))]
    m = acyclic_moments([0], step, order=3)[0]
    dist = {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(3, 8), 3: Fraction(1, 8)}
    assert m == tuple(sum(p * x**k for x, p in dist.items()) for k in (1, 2, 3))
