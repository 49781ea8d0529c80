"""Sparse, floating-point chain solvers for chains too large for the exact tools.

The exact solvers of :mod:`slotmath.markov.chains` work over Fractions and dense rows; a hold
& win respin chain has hundreds of thousands of states. The functions here take integer
state indices ``0 .. n-1`` and the transient-to-transient block ``Q`` of the transition
matrix as a scipy sparse array (CSR, CSC or COO; dense array_likes are accepted too). A
row of ``Q`` may sum to less than 1: the missing mass is the one-step probability of
absorption. Results are float64 numpy arrays.

* :func:`expected_reward_to_absorption`, :func:`absorption_probabilities` and
  :func:`reward_second_moment` factor ``I - Q`` once (sparse LU) and solve [KS]_.
* :func:`stationary_distribution` solves the balance equations of an irreducible chain with
  one state's mass fixed [Stewart]_.
* :func:`backward_induction` needs no factorisation at all when the states are in
  topological order (every transition goes to the same or a later state, or to
  absorption): one backward pass over the rows, a compiled kernel, linear in the number of
  transitions [Puterman]_. Use it whenever the states can be so ordered: a general sparse
  LU reorders the columns for sparsity (COLAMD) and on a hold & win shaped chain fills in
  badly (5,000 states: 4.5 s against 0.7 ms; 650,000 states: 0.2 s, out of the LU's
  reach; see ``benchmarks/bench_sparse_chains.py``).

Tolerance: each function is a direct method, accurate to a small multiple of machine
precision times the condition of ``I - Q`` (:func:`backward_induction` sums non-negative
terms only, so its relative error is about ``n_steps * 1e-16``). Tests compare every
function with the exact Fraction solvers of :mod:`slotmath.markov.chains`, with
``numpy.linalg.solve`` on dense copies and with path enumeration.

References
----------
.. [KS] J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, Van Nostrand, 1960, ch. III
   (absorbing chains: fundamental matrix N = (I - Q)^-1, expected steps N 1, absorption
   probabilities N R, variance of the number of steps (2N - I) N 1 - (N 1)^2).
.. [Stewart] W. J. Stewart, *Introduction to the Numerical Solution of Markov Chains*,
   Princeton, 1994, sec. 2.3 (direct methods: replacing an equation of pi (I - P) = 0).
.. [Puterman] M. L. Puterman, *Markov Decision Processes*, Wiley, 1994, sec. 4.5 (backward
   induction on a finite-horizon / acyclic problem).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

if TYPE_CHECKING:  # (scipy is imported where a chain is solved)
    import scipy.sparse as sp

__all__ = [
    "BackwardInduction",
    "absorption_probabilities",
    "backward_induction",
    "expected_reward_to_absorption",
    "reward_second_moment",
    "stationary_distribution",
]

_ROW_TOLERANCE = 1e-9


def _canonical(Q) -> sp.csr_array:
    """CSR float64 with sorted, summed indices; the caller's array is never modified."""
    import scipy.sparse as sp  # (here: a game without a sparse chain never imports scipy)

    A = sp.csr_array(Q, dtype=np.float64)
    if not A.has_canonical_format:
        A = A.copy() if A is Q else A
        A.sum_duplicates()  # also sorts the indices
    return A


def _square(Q, name: str = "Q") -> sp.csr_array:
    A = _canonical(Q)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {A.shape}")
    if A.nnz and A.data.min() < 0:
        raise ValueError(f"{name} has a negative transition probability")
    return A


def _check_substochastic(Q: sp.csr_array) -> None:
    row_sums = Q.sum(axis=1)
    if row_sums.size and row_sums.max() > 1 + _ROW_TOLERANCE:
        i = int(np.argmax(row_sums))
        raise ValueError(f"row {i} of Q sums to {row_sums[i]!r} > 1")


def _reward_vector(reward, n: int) -> np.ndarray:
    r = np.ones(n) if reward is None else np.asarray(reward, dtype=np.float64)
    if r.shape != (n,):
        raise ValueError(f"reward must have one value per state ({n}), got shape {r.shape}")
    return r


def _factor_identity_minus(Q: sp.csr_array):
    """Sparse LU of ``I - Q``; a singular system (a closed class, no way out) raises."""
    import scipy.sparse as sp
    from scipy.sparse.linalg import MatrixRankWarning, splu

    n = Q.shape[0]
    A = (sp.eye_array(n, format="csr") - Q).tocsc()
    with warnings.catch_warnings():
        warnings.simplefilter("error", MatrixRankWarning)
        try:
            return splu(A)
        except (RuntimeError, MatrixRankWarning) as exc:
            raise ValueError(
                "I - Q is singular: some transient states can never be absorbed"
            ) from exc


def expected_reward_to_absorption(Q, reward=None) -> np.ndarray:
    """Expected total reward collected until absorption, from each transient state [KS]_.

    Solves ``(I - Q) v = reward`` by sparse LU. Each visit to state ``i`` earns
    ``reward[i]``; the default reward 1 gives the expected number of steps ``N 1``.

    Parameters
    ----------
    Q : (n, n) sparse array or array_like
        Transient-to-transient transition probabilities; rows sum to at most 1.
    reward : (n,) array_like, optional
        Reward per visit (default 1).

    Returns
    -------
    numpy.ndarray
        ``v[i]``, float64.

    Raises
    ------
    ValueError
        If ``Q`` is not square and substochastic, or ``I - Q`` is singular.

    Examples
    --------
    Gambler's ruin with a fair coin on {0, ..., 4}: the expected duration from ``k`` is
    ``k (4 - k)``.

    >>> import scipy.sparse as sp
    >>> Q = sp.csr_array([[0, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0]])  # states 1, 2, 3
    >>> expected_reward_to_absorption(Q)
    array([3., 4., 3.])
    """
    A = _square(Q)
    _check_substochastic(A)
    return _factor_identity_minus(A).solve(_reward_vector(reward, A.shape[0]))


def reward_second_moment(Q, reward=None) -> np.ndarray:
    """Second raw moment of the total reward collected until absorption [KS]_.

    With ``X_i = r_i + X_next`` (``X_next = 0`` on absorption) and the reward fixed by the
    state, ``E[X_i^2] = r_i^2 + 2 r_i (Q v)_i + (Q m)_i``, so
    ``m = (I - Q)^-1 (r * r + 2 r * (Q v))`` with ``v`` the mean. For ``r = 1`` this is
    Kemeny and Snell's ``(2N - I) N 1``.

    Parameters
    ----------
    Q : (n, n) sparse array or array_like
    reward : (n,) array_like, optional
        Reward per visit (default 1: moments of the number of steps).

    Returns
    -------
    numpy.ndarray
        ``E[X_i^2]``, float64.

    Examples
    --------
    Steps of a geometric chain that stays with probability 1/2: mean 2, second moment 6.

    >>> reward_second_moment([[0.5]])
    array([6.])
    """
    A = _square(Q)
    _check_substochastic(A)
    r = _reward_vector(reward, A.shape[0])
    lu = _factor_identity_minus(A)
    mean = lu.solve(r)
    return lu.solve(r * r + 2 * r * (A @ mean))


def absorption_probabilities(Q, R) -> np.ndarray:
    """Probability of ending in each absorbing state, from each transient state: ``N R``.

    Parameters
    ----------
    Q : (n, n) sparse array or array_like
        Transient-to-transient block.
    R : (n, k) sparse array or array_like
        Transient-to-absorbing block: ``R[i, a]`` is the one-step probability from ``i`` to
        absorbing state ``a``. Each row of ``[Q R]`` must sum to 1.

    Returns
    -------
    numpy.ndarray
        ``(n, k)`` float64; rows sum to 1.

    Examples
    --------
    Gambler's ruin, fair coin, absorbing at 0 and 4: ruin probability ``1 - k/4``.

    >>> Q = [[0, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0]]
    >>> R = [[0.5, 0], [0, 0], [0, 0.5]]
    >>> absorption_probabilities(Q, R)[:, 0]
    array([0.75, 0.5 , 0.25])
    """
    import scipy.sparse as sp

    A = _square(Q)
    B = sp.csr_array(R, dtype=np.float64)
    if B.ndim != 2 or B.shape[0] != A.shape[0]:
        raise ValueError(f"R must have {A.shape[0]} rows, got shape {B.shape}")
    if B.nnz and B.data.min() < 0:
        raise ValueError("R has a negative transition probability")
    rows = A.sum(axis=1) + B.sum(axis=1)
    if rows.size and np.abs(rows - 1).max() > _ROW_TOLERANCE:
        i = int(np.argmax(np.abs(rows - 1)))
        raise ValueError(f"row {i} of [Q R] sums to {rows[i]!r}, not 1")
    return _factor_identity_minus(A).solve(B.toarray())


def stationary_distribution(P) -> np.ndarray:
    """Stationary distribution of an irreducible chain, by a sparse direct solve [Stewart]_.

    Fixes the last state's unnormalised mass at 1 and solves the other balance equations,
    ``(I - P^T)[:-1, :-1] x = P^T[:-1, -1]``; the block is nonsingular when the chain is
    irreducible (it is ``I - Q^T`` of the chain absorbed at the last state). The answer is
    normalised to sum to 1. For a small dense chain that is nearly decomposable,
    :func:`slotmath.markov.chains.gth_solve` is more accurate.

    Parameters
    ----------
    P : (n, n) sparse array or array_like
        Transition matrix; rows sum to 1.

    Returns
    -------
    numpy.ndarray
        ``pi`` with ``pi P = pi``, non-negative, sums to 1.

    Raises
    ------
    ValueError
        If a row does not sum to 1, or the chain is reducible (singular system).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> stationary_distribution(sp.csr_array([[0.9, 0.1], [0.4, 0.6]]))
    array([0.8, 0.2])
    """
    A = _square(P, "P")
    n = A.shape[0]
    rows = A.sum(axis=1)
    if n and np.abs(rows - 1).max() > _ROW_TOLERANCE:
        i = int(np.argmax(np.abs(rows - 1)))
        raise ValueError(f"row {i} of P sums to {rows[i]!r}, not 1")
    if n == 1:
        return np.ones(1)
    T = A.T.tocsr()
    rhs = T[:-1, [n - 1]].toarray().ravel()
    try:
        head = _factor_identity_minus(T[:-1, :-1].tocsr()).solve(rhs)
    except ValueError as exc:
        raise ValueError("P is reducible: no unique stationary distribution") from exc
    x = np.append(head, 1.0)
    if x.min() < -_ROW_TOLERANCE * x.sum():
        raise ValueError("P is reducible: no unique stationary distribution")
    x = np.maximum(x, 0)
    return x / x.sum()


# -- backward induction over a topologically ordered chain --------------------------------------


@dataclass(frozen=True)
class BackwardInduction:
    """Moments of the total reward to absorption from every state, by backward induction.

    Attributes
    ----------
    mean : numpy.ndarray
        ``E[X_i]``: expected total reward from state ``i`` until absorption.
    second_moment : numpy.ndarray
        ``E[X_i^2]``.
    zero_probability : numpy.ndarray
        ``P(X_i = 0)``: the probability of reaching absorption through zero-reward states
        only (rewards fixed by the state; a state with nonzero reward counts as paying).
    """

    mean: np.ndarray
    second_moment: np.ndarray
    zero_probability: np.ndarray

    @property
    def variance(self) -> np.ndarray:
        """``Var[X_i]``, clipped at 0 against rounding."""
        return np.maximum(self.second_moment - self.mean**2, 0)


@njit(cache=True)
def _backward_kernel(indptr, indices, data, reward, reward_second, mean, second, zero):
    """One pass from the last state to the first; every successor is already solved.

    A self-loop ``P[i, i] = p`` is summed as a geometric series: the state repeats until it
    leaves, so each equation is divided by ``1 - p``.
    """
    n = indptr.shape[0] - 1
    for i in range(n - 1, -1, -1):
        stay = 0.0
        out = 0.0  # total probability of the row (absorption is 1 - out)
        s1 = 0.0
        s2 = 0.0
        sz = 0.0
        for q in range(indptr[i], indptr[i + 1]):
            j = indices[q]
            p = data[q]
            out += p
            if j == i:
                stay += p
            else:
                s1 += p * mean[j]
                s2 += p * second[j]
                sz += p * zero[j]
        leave = 1.0 - stay
        r = reward[i]
        m1 = (r + s1) / leave
        mean[i] = m1
        # E[X^2] = E[R^2] + 2 r E[X'] + E[X'^2], X' = X_i w.p. stay, X_j w.p. P[i, j].
        second[i] = (reward_second[i] + 2.0 * r * (stay * m1 + s1) + s2) / leave
        if r == 0.0:
            zero[i] = (sz + (1.0 - out)) / leave
        else:
            zero[i] = 0.0


def backward_induction(Q, reward=None, reward_second=None, check: bool = True
                       ) -> BackwardInduction:
    """Mean, second moment and zero probability of the reward to absorption, by one pass.

    The states must be in topological order: every transition ``i -> j`` has ``j >= i``
    (``j == i`` is a self-loop, summed as a geometric series) or leaves to absorption
    (the row's missing mass). Then

    ``v_i = r_i + sum_j Q[i, j] v_j``

    is solved from the last state to the first with no factorisation [Puterman]_; the second
    moment follows ``m_i = E[R_i^2] + 2 r_i (Q v)_i + (Q m)_i`` and the zero probability
    ``z_i = 1{r_i = 0} (1 - sum_j Q[i, j] + (Q z)_i)``. The work is one visit of each
    transition (a compiled kernel over the CSR arrays): a hold & win respin chain
    (state = cells filled, respins left; transitions to more cells, or to the same cells
    with one respin fewer) of 650,000 states takes tens of milliseconds.

    Parameters
    ----------
    Q : (n, n) sparse array or array_like
        Transient-to-transient probabilities, upper triangular (diagonal allowed); rows sum
        to at most 1.
    reward : (n,) array_like, optional
        Expected reward per visit ``E[R_i]`` (default 1: the number of steps).
    reward_second : (n,) array_like, optional
        ``E[R_i^2]`` when the reward of a visit is random (independent of the next state
        given ``i``); default ``reward ** 2`` (reward fixed by the state).
    check : bool
        Check the order, signs and row sums (a few vectorised passes; skip them only for
        a chain you have just built and checked).

    Returns
    -------
    BackwardInduction

    Raises
    ------
    ValueError
        If a transition goes to an earlier state, a probability is negative, a row sums to
        more than 1, or a state can only loop on itself.

    Examples
    --------
    A respin round on 2 cells: three respins, each lands a coin with probability 1/4 and
    then resets the respins to three. State index ``3 * filled + spent`` (respins spent
    since the last coin), so every transition goes forward; arriving at ``(filled, 0)``
    with ``filled >= 1`` means a coin just landed: reward 1.

    >>> p, rows, cols, vals = 0.25, [], [], []
    >>> for filled in range(2):
    ...     for spent in range(3):
    ...         i = 3 * filled + spent
    ...         rows.append(i); cols.append(3 * (filled + 1)); vals.append(p)
    ...         if spent < 2:
    ...             rows.append(i); cols.append(i + 1); vals.append(1 - p)
    >>> import scipy.sparse as sp
    >>> Q = sp.coo_array((vals, (rows, cols)), shape=(9, 9))
    >>> coins = np.array([0, 0, 0, 1, 0, 0, 1, 0, 0])
    >>> result = backward_induction(Q, coins)

    A coin lands in three respins with probability ``q = 1 - (3/4)^3 = 37/64``, so the
    expected coins are ``q (1 + q)`` and no coin at all has probability ``27/64``:

    >>> q = 37 / 64
    >>> bool(np.isclose(result.mean[0], q * (1 + q)))
    True
    >>> float(result.zero_probability[0])
    0.421875
    """
    A = _square(Q) if check else _canonical(Q)
    n = A.shape[0]
    if check:
        row_of = np.repeat(np.arange(n), np.diff(A.indptr))
        back = A.indices < row_of
        if back.any():
            q = int(np.argmax(back))
            raise ValueError(
                f"transition {row_of[q]} -> {A.indices[q]} goes to an earlier state: "
                "order the states so that every transition goes forward"
            )
        _check_substochastic(A)
        stay = A.diagonal()
        if stay.size and stay.max() >= 1 - _ROW_TOLERANCE:
            raise ValueError(f"state {int(np.argmax(stay))} can only loop on itself")
    r = _reward_vector(reward, n)
    r2 = r * r if reward_second is None else np.asarray(reward_second, dtype=np.float64)
    if r2.shape != (n,):
        raise ValueError(f"reward_second must have one value per state ({n})")
    mean = np.empty(n)
    second = np.empty(n)
    zero = np.empty(n)
    _backward_kernel(A.indptr.astype(np.int64), A.indices.astype(np.int64), A.data, r, r2,
                     mean, second, zero)
    return BackwardInduction(mean, second, zero)
