"""Sparse chain solvers against paths that share no code with them.

References: the exact Fraction solvers of slotmath.markov.chains, numpy.linalg.solve on dense
copies, explicit enumeration of every path of a small acyclic chain, and a seeded simulation.
Chains are small textbook cases (kept as data) and hypothesis-generated random chains whose
rows are checked to sum to 1 before use.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from slotmath.markov import chains, sparse

# -- cases ---------------------------------------------------------------------------------------


def gamblers_ruin(p: Fraction, goal: int):
    """Transient 1..goal-1; absorbing 0 and goal. (Q, R) as Fraction rows."""
    n = goal - 1
    Q = [[Fraction(0)] * n for _ in range(n)]
    R = [[Fraction(0)] * 2 for _ in range(n)]
    for i in range(n):
        if i + 1 < n:
            Q[i][i + 1] = p
        else:
            R[i][1] = p
        if i > 0:
            Q[i][i - 1] = 1 - p
        else:
            R[i][0] = 1 - p
    return Q, R


# Known answers kept as data (Kemeny & Snell ch. III; a geometric chain).
TESTSET = {
    "fair ruin to 4": {"chain": gamblers_ruin(Fraction(1, 2), 4),
                       "steps": [3, 4, 3], "ruin": [0.75, 0.5, 0.25]},
    "ruin 2/3 to 3": {"chain": gamblers_ruin(Fraction(2, 3), 3),
                      "steps": [Fraction(15, 7), Fraction(12, 7)],
                      "ruin": [Fraction(3, 7), Fraction(1, 7)]},
    "geometric 1/3": {"chain": ([[Fraction(2, 3)]], [[Fraction(1, 3)]]),
                      "steps": [3], "ruin": [1]},
}


@st.composite
def chains_qr(draw, max_states: int = 6, acyclic: bool = False, self_loops: bool = True):
    """A random absorbing chain as exact Fraction blocks (Q, R), rows of [Q R] summing to 1.

    Integer weights 0..5 per entry; every state can reach absorption (drawn again otherwise).
    ``acyclic``: Q upper triangular (diagonal only when ``self_loops``).
    """
    n = draw(st.integers(1, max_states))
    k = draw(st.integers(1, 3))
    weights = []
    for i in range(n):
        w = draw(st.lists(st.integers(0, 5), min_size=n + k, max_size=n + k))
        if acyclic:
            first = i if self_loops else i + 1
            w = [0] * first + w[first:]
        weights.append(w)
    # Every transient state must reach absorption, or I - Q is singular: give the states
    # that cannot a way out.
    can_leave = {i for i in range(n) if any(weights[i][n:])}
    grew = True
    while grew:
        grew = False
        for i in range(n):
            if i not in can_leave and any(weights[i][j] for j in can_leave):
                can_leave.add(i)
                grew = True
    for i in set(range(n)) - can_leave:
        weights[i][n] += 1
    Q = [[Fraction(x, sum(w)) for x in w[:n]] for w in weights]
    R = [[Fraction(x, sum(w)) for x in w[n:]] for w in weights]
    for q_row, r_row in zip(Q, R):
        assert sum(q_row) + sum(r_row) == 1 and min(q_row + r_row) >= 0
    rewards = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    return Q, R, rewards


def as_sparse(rows, fmt: str = "csr"):
    return sp.csr_array(np.array(rows, dtype=float)).asformat(fmt)


def close(a, b, rtol: float = 1e-10, atol: float = 1e-12) -> bool:
    return np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=rtol,
                       atol=atol)


# -- textbook cases ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(TESTSET))
def test_known_answers(name):
    case = TESTSET[name]
    Q, R = case["chain"]
    assert close(sparse.expected_reward_to_absorption(as_sparse(Q)), case["steps"])
    assert close(sparse.absorption_probabilities(as_sparse(Q), as_sparse(R))[:, 0], case["ruin"])


def test_second_moment_of_steps_is_kemeny_snell():
    """Var(steps) = (2N - I) N 1 - (N 1)^2 [KS, Thm 3.3.5], N from the exact solver."""
    Q, _ = gamblers_ruin(Fraction(2, 5), 6)
    N = chains.fundamental_matrix(Q)
    n = len(Q)
    t = [sum(row) for row in N]
    second = [sum((2 * N[i][j] - (i == j)) * t[j] for j in range(n)) for i in range(n)]
    assert close(sparse.reward_second_moment(as_sparse(Q)), second)


# -- random absorbing chains against the exact Fraction solvers and numpy -------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains_qr(), st.sampled_from(["csr", "csc", "coo"]))
def test_absorbing_solvers_match_exact_and_dense(chain, fmt):
    Q, R, rewards = chain
    n = len(Q)
    Qs, Rs = as_sparse(Q, fmt), as_sparse(R, fmt)
    mean = sparse.expected_reward_to_absorption(Qs, rewards)
    assert close(mean, chains.expected_reward_to_absorption(Q, rewards))
    dense = np.eye(n) - np.array(Q, dtype=float)
    assert close(mean, np.linalg.solve(dense, np.array(rewards, dtype=float)))
    B = sparse.absorption_probabilities(Qs, Rs)
    assert close(B, chains.absorption_probabilities(Q, R))
    assert close(B.sum(axis=1), np.ones(n))
    steps = sparse.expected_reward_to_absorption(Qs)
    assert close(steps, chains.expected_reward_to_absorption(Q))


@settings(max_examples=60, deadline=None)
@given(chains_qr(acyclic=True, self_loops=False))
def test_moments_match_path_enumeration(chain):
    """Every path of an acyclic chain, its probability and total reward, listed explicitly."""
    Q, R, rewards = chain
    n = len(Q)
    paths = []  # (probability, total reward) of every path from each start state

    def walk(i, prob, total, start):
        total += rewards[i]
        absorbed = sum(R[i])
        if absorbed:
            paths.append((start, prob * absorbed, total))
        for j in range(n):
            if Q[i][j]:
                walk(j, prob * Q[i][j], total, start)

    for s in range(n):
        walk(s, Fraction(1), 0, s)
    mean = [sum(p * x for s, p, x in paths if s == i) for i in range(n)]
    second = [sum(p * x * x for s, p, x in paths if s == i) for i in range(n)]
    zero = [sum(p for s, p, x in paths if s == i and x == 0) for i in range(n)]
    assert [sum(p for s, p, _ in paths if s == i) for i in range(n)] == [1] * n

    Qs = as_sparse(Q)
    assert close(sparse.expected_reward_to_absorption(Qs, rewards), mean)
    assert close(sparse.reward_second_moment(Qs, rewards), second)
    result = sparse.backward_induction(Qs, rewards)
    assert close(result.mean, mean)
    assert close(result.second_moment, second)
    assert close(result.zero_probability, zero)
    assert close(result.variance, np.array(second, float) - np.array(mean, float) ** 2,
                 atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(chains_qr(acyclic=True, self_loops=True), st.sampled_from(["csr", "csc", "coo"]))
def test_backward_induction_matches_exact_solve(chain, fmt):
    """With self-loops: the mean and second moment against the exact Fraction solve."""
    Q, _, rewards = chain
    n = len(Q)
    mean = chains.expected_reward_to_absorption(Q, rewards)
    q_mean = [sum(Q[i][j] * mean[j] for j in range(n)) for i in range(n)]
    second = chains.expected_reward_to_absorption(
        Q, [r * r + 2 * r * qm for r, qm in zip(rewards, q_mean)]
    )
    # P(total = 0): absorbed before any paying state; paying states become absorbing misses.
    free = [i for i in range(n) if rewards[i] == 0]
    zero = [Fraction(0)] * n
    if free:
        Qz = [[Q[i][j] for j in free] for i in free]
        leave = [1 - sum(Q[i]) for i in free]
        for i, z in zip(free, chains.expected_reward_to_absorption(Qz, leave)):
            zero[i] = z
    result = sparse.backward_induction(as_sparse(Q, fmt), rewards)
    assert close(result.mean, mean)
    assert close(result.second_moment, second)
    assert close(result.zero_probability, zero)
    assert close(sparse.reward_second_moment(as_sparse(Q, fmt), rewards), second)


def test_backward_induction_agrees_with_simulation():
    """A seeded simulation of a random chain with self-loops, within 5 standard errors."""
    rng = np.random.default_rng(8)
    n = 12
    W = np.triu(rng.integers(0, 4, size=(n, n)).astype(float))
    leave = rng.integers(1, 4, size=n).astype(float)
    total = W.sum(axis=1) + leave
    Q, out = W / total[:, None], leave / total
    assert np.allclose(Q.sum(axis=1) + out, 1)
    reward = rng.integers(0, 3, size=n).astype(float)
    result = sparse.backward_induction(Q, reward)
    cum = np.cumsum(np.hstack([Q, out[:, None]]), axis=1)
    runs = 20_000
    totals = np.zeros(runs)
    for k in range(runs):
        i = 0
        while i < n:
            totals[k] += reward[i]
            i = int(np.searchsorted(cum[i], rng.random(), side="right"))
    se = totals.std() / np.sqrt(runs)
    assert abs(totals.mean() - result.mean[0]) < 5 * se
    se2 = (totals**2).std() / np.sqrt(runs)
    assert abs((totals**2).mean() - result.second_moment[0]) < 5 * se2
    p0 = result.zero_probability[0]
    assert abs((totals == 0).mean() - p0) < 5 * np.sqrt(p0 * (1 - p0) / runs) + 1e-12


def test_random_reward_second_moment():
    """A reward of 0 or 2 (mean 1, E[R^2] = 2) each step of a 1/2-geometric chain (2 steps on
    average): Var = E[steps] Var[R] + Var[steps] E[R]^2 = 2 + 2."""
    result = sparse.backward_induction([[0.5]], [1.0], reward_second=[2.0])
    assert close(result.mean, [2.0])
    assert close(result.variance, [4.0])


def test_large_chain_backward_induction_equals_sparse_lu():
    rng = np.random.default_rng(1)
    n, per_row = 3000, 12
    rows = np.repeat(np.arange(n), per_row)
    cols = np.minimum(rows + rng.integers(0, 200, size=rows.size), n - 1)
    vals = rng.random(rows.size)
    Q = sp.coo_array((vals, (rows, cols)), shape=(n, n)).tocsr()
    Q = sp.diags_array(0.95 / (Q.sum(axis=1) + 1e-300)) @ Q  # every row leaks 5 %
    assert np.allclose(Q.sum(axis=1), 0.95)
    reward = rng.random(n)
    result = sparse.backward_induction(Q, reward)
    assert close(result.mean, sparse.expected_reward_to_absorption(Q, reward), rtol=1e-9)
    assert close(result.second_moment, sparse.reward_second_moment(Q, reward), rtol=1e-9)


# -- stationary distribution --------------------------------------------------------------------


@st.composite
def irreducible_chains(draw, max_states: int = 6):
    """Random integer-weighted rows plus a cycle 0 -> 1 -> ... -> 0 (irreducible)."""
    n = draw(st.integers(1, max_states))
    P = []
    for i in range(n):
        w = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
        w[(i + 1) % n] += 1
        P.append([Fraction(x, sum(w)) for x in w])
    assert all(sum(row) == 1 for row in P)
    return P


@settings(max_examples=60, deadline=None)
@given(irreducible_chains())
def test_stationary_matches_exact_and_gth(P):
    n = len(P)
    # Exact: pi (I - P) = 0 with the last equation replaced by sum(pi) = 1.
    A = [[(i == j) - P[j][i] for j in range(n)] for i in range(n - 1)] + [[1] * n]
    exact = chains.solve_exact(A, [0] * (n - 1) + [1])
    pi = sparse.stationary_distribution(as_sparse(P))
    assert close(pi, exact)
    assert close(pi, chains.gth_solve(np.array(P, dtype=float)))
    assert abs(pi.sum() - 1) < 1e-12 and pi.min() >= 0


def test_stationary_of_periodic_chain():
    assert close(sparse.stationary_distribution([[0, 1], [1, 0]]), [0.5, 0.5])


# -- bad input is refused ------------------------------------------------------------------------


def test_backward_transition_is_refused():
    with pytest.raises(ValueError, match="earlier state"):
        sparse.backward_induction([[0, 0.5], [0.5, 0]])


def test_rows_over_one_are_refused():
    with pytest.raises(ValueError, match="sums to"):
        sparse.backward_induction([[0.5, 0.7], [0, 0.6]])
    with pytest.raises(ValueError, match="sums to"):
        sparse.expected_reward_to_absorption([[0.6, 0.6], [0, 0]])
    with pytest.raises(ValueError, match="not 1"):
        sparse.absorption_probabilities([[0.5]], [[0.4]])
    with pytest.raises(ValueError, match="not 1"):
        sparse.stationary_distribution([[0.5, 0.4], [0.5, 0.5]])


def test_singular_and_reducible_are_refused():
    with pytest.raises(ValueError, match="singular"):
        sparse.expected_reward_to_absorption([[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="loop on itself"):
        sparse.backward_induction([[1.0]])
    with pytest.raises(ValueError, match="reducible"):
        sparse.stationary_distribution([[1, 0], [0, 1]])
    with pytest.raises(ValueError, match="negative"):
        sparse.expected_reward_to_absorption([[-0.1]])


def test_caller_array_is_not_modified():
    Q = sp.coo_array(([0.25, 0.25], ([0, 0], [1, 1])), shape=(2, 2)).tocsr()
    before = (Q.indptr.copy(), Q.indices.copy(), Q.data.copy())
    sparse.backward_induction(Q)
    assert all(np.array_equal(a, b) for a, b in zip(before, (Q.indptr, Q.indices, Q.data)))
