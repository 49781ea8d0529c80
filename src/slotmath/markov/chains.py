"""Generic Markov-chain tools: exact absorbing-chain solves, the GTH stationary distribution, and
dynamic programs over acyclic chains.

Exact functions work over :class:`fractions.Fraction` and accept anything ``Fraction`` accepts
(int, Fraction, decimal strings). Only :func:`gth_solve` is floating point.

References
----------
.. [KS] J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, Van Nostrand, 1960, ch. III
   (absorbing chains: fundamental matrix N = (I - Q)^-1, expected steps N 1, absorption
   probabilities N R).
.. [GTH] W. K. Grassmann, M. I. Taksar and D. P. Heyman, "Regenerative analysis and steady
   state distributions for Markov chains", *Operations Research* 33(5), 1985, 1107-1116.
.. [Bellman] R. Bellman, *Dynamic Programming*, Princeton, 1957 (backward induction on an
   acyclic state graph).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from math import comb

import numpy as np

__all__ = [
    "absorption_probabilities",
    "acyclic_absorption",
    "acyclic_moments",
    "acyclic_order",
    "expected_reward_to_absorption",
    "fundamental_matrix",
    "gth_solve",
    "solve_exact",
]

Matrix = Sequence[Sequence]


def _fraction_matrix(A: Matrix) -> list[list[Fraction]]:
    return [[Fraction(x) for x in row] for row in A]


def solve_exact(A: Matrix, B: Matrix | Sequence) -> list:
    """Solve ``A X = B`` exactly by Gauss-Jordan elimination over Fractions.

    Parameters
    ----------
    A : square matrix (sequence of rows) of numbers
    B : a vector (sequence of numbers) or a matrix (sequence of rows)

    Returns
    -------
    list of Fraction (when ``B`` is a vector) or list of rows of Fraction

    Raises
    ------
    ValueError
        If ``A`` is singular or the shapes do not match.

    Examples
    --------
    >>> solve_exact([[2, 1], [1, 3]], [3, 5])
    [Fraction(4, 5), Fraction(7, 5)]
    """
    M = _fraction_matrix(A)
    n = len(M)
    if any(len(row) != n for row in M):
        raise ValueError("A must be square")
    vector = len(B) > 0 and not isinstance(B[0], (list, tuple, np.ndarray))
    rhs = [[Fraction(b)] for b in B] if vector else _fraction_matrix(B)
    if len(rhs) != n:
        raise ValueError("B must have as many rows as A")
    aug = [M[i] + rhs[i] for i in range(n)]
    width = len(aug[0]) if n else 0
    for col in range(n):
        pivot = next((r for r in range(col, n) if aug[r][col] != 0), None)
        if pivot is None:
            raise ValueError("matrix is singular")
        aug[col], aug[pivot] = aug[pivot], aug[col]
        p = aug[col][col]
        row = [x / p for x in aug[col]]
        aug[col] = row
        for r in range(n):
            f = aug[r][col]
            if r != col and f != 0:
                aug[r] = [x - f * y for x, y in zip(aug[r], row)]
    out = [aug[r][n:width] for r in range(n)]
    return [row[0] for row in out] if vector else out


def _identity_minus(Q: Matrix) -> list[list[Fraction]]:
    Qf = _fraction_matrix(Q)
    n = len(Qf)
    return [[(1 if i == j else 0) - Qf[i][j] for j in range(n)] for i in range(n)]


def fundamental_matrix(Q: Matrix) -> list[list[Fraction]]:
    """The fundamental matrix ``N = (I - Q)^-1`` of an absorbing chain [KS]_.

    ``Q`` is the transient-to-transient block of the transition matrix; ``N[i][j]`` is the
    expected number of visits to transient state ``j`` starting from ``i``.

    Examples
    --------
    >>> fundamental_matrix([[0, "1/2"], ["1/2", 0]])
    [[Fraction(4, 3), Fraction(2, 3)], [Fraction(2, 3), Fraction(4, 3)]]
    """
    n = len(Q)
    eye = [[1 if i == j else 0 for j in range(n)] for i in range(n)]
    return solve_exact(_identity_minus(Q), eye)


def expected_reward_to_absorption(Q: Matrix, reward: Sequence | None = None) -> list[Fraction]:
    """Expected total reward collected until absorption, from each transient state [KS]_.

    Solves ``(I - Q) v = reward``: each visit to transient state ``i`` earns ``reward[i]``
    (default 1, giving the expected number of steps to absorption, ``N 1``).

    Examples
    --------
    Gambler's ruin with fair coin on {0, ..., 4}: the expected duration from ``k`` is
    ``k (4 - k)``.

    >>> Q = [[0, "1/2", 0], ["1/2", 0, "1/2"], [0, "1/2", 0]]   # transient states 1, 2, 3
    >>> expected_reward_to_absorption(Q)
    [Fraction(3, 1), Fraction(4, 1), Fraction(3, 1)]
    """
    n = len(Q)
    r = [1] * n if reward is None else list(reward)
    return solve_exact(_identity_minus(Q), r)


def absorption_probabilities(Q: Matrix, R: Matrix) -> list[list[Fraction]]:
    """Probability of ending in each absorbing state, from each transient state: ``B = N R``.

    ``R[i][k]`` is the one-step probability from transient ``i`` to absorbing ``k`` [KS]_.

    Examples
    --------
    Gambler's ruin, fair coin, absorbing at 0 and 4: ruin probability ``1 - k/4``.

    >>> Q = [[0, "1/2", 0], ["1/2", 0, "1/2"], [0, "1/2", 0]]
    >>> R = [["1/2", 0], [0, 0], [0, "1/2"]]
    >>> [row[0] for row in absorption_probabilities(Q, R)]
    [Fraction(3, 4), Fraction(1, 2), Fraction(1, 4)]
    """
    return solve_exact(_identity_minus(Q), R)


def gth_solve(P: np.ndarray | Matrix, overwrite: bool = False) -> np.ndarray:
    """Stationary distribution of an irreducible transition (or rate) matrix by GTH [GTH]_.

    The Grassmann-Taksar-Heyman algorithm is Gaussian elimination without subtractions, so
    it stays accurate (relative accuracy close to machine precision) even for nearly
    decomposable chains. Same interface as QuantEcon's ``gth_solve``.

    Parameters
    ----------
    P : (n, n) array_like
        Transition matrix (rows sum to 1) or generator matrix (rows sum to 0).
    overwrite : bool
        Whether ``P`` (a float ndarray) may be overwritten.

    Returns
    -------
    numpy.ndarray
        The stationary distribution (non-negative, sums to 1).

    Examples
    --------
    >>> gth_solve([[0.9, 0.1], [0.4, 0.6]])
    array([0.8, 0.2])
    """
    A = np.array(P, dtype=float, copy=not overwrite)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("P must be a square matrix")
    n = A.shape[0]
    x = np.zeros(n)
    if n == 0:
        return x
    last = n - 1
    for k in range(n - 1):
        scale = A[k, k + 1 :].sum()
        if scale <= 0:
            # States > k unreachable from k: the chain is reducible; solve the closed block.
            last = k
            break
        A[k + 1 :, k] /= scale
        A[k + 1 :, k + 1 :] += np.outer(A[k + 1 :, k], A[k, k + 1 :])
    x[last] = 1.0
    for k in range(last - 1, -1, -1):
        x[k] = x[k + 1 : last + 1] @ A[k + 1 : last + 1, k]
    return x / x.sum()


# -- acyclic chains -----------------------------------------------------------------------------


def acyclic_order(
    start: Iterable[Hashable], children: Callable[[Hashable], Iterable[Hashable]]
) -> list:
    """States reachable from ``start``, ordered so that every state comes after its successors.

    A depth-first post-order, iterative (no recursion limit).

    Raises
    ------
    ValueError
        If a cycle is reachable.

    Examples
    --------
    >>> acyclic_order([3], lambda k: [k - 1, k - 2] if k > 1 else [])
    [1, 0, 2, 3]
    """
    order: list = []
    done: set = set()
    on_path: set = set()
    for root in start:
        if root in done:
            continue
        stack = [(root, iter(children(root)))]
        on_path.add(root)
        while stack:
            state, it = stack[-1]
            nxt = next(it, _END)
            if nxt is _END:
                stack.pop()
                on_path.discard(state)
                done.add(state)
                order.append(state)
            elif nxt in on_path:
                raise ValueError(f"the chain has a cycle through state {nxt!r}")
            elif nxt not in done:
                on_path.add(nxt)
                stack.append((nxt, iter(children(nxt))))
    return order


_END = object()


def acyclic_absorption(
    start: Hashable,
    transitions: Callable[[Hashable], Sequence[tuple]],
    absorbing: Callable[[Hashable], bool] | None = None,
) -> dict:
    """Exact distribution of the absorbing state reached from ``start`` in an acyclic chain.

    Forward propagation of probability mass in topological order [Bellman]_.

    Parameters
    ----------
    start : hashable
        Initial state.
    transitions : callable
        ``transitions(state)`` -> sequence of ``(probability, next_state)``. Rows may sum to
        less than 1 (a sub-stochastic chain): the missing mass is killed, which makes the
        result the probability of absorption along the transitions given (e.g. the
        probability that every step pays nothing).
    absorbing : callable, optional
        ``absorbing(state)`` -> whether ``state`` is absorbing. By default a state with no
        transitions is absorbing; give this when a sub-stochastic row may be empty (all of
        its mass killed).

    Returns
    -------
    dict
        absorbing state -> probability (Fraction when the inputs are exact).

    Examples
    --------
    Gambler's ruin on {0, ..., 4} is cyclic; a "race" to 3 successes with at most 2
    failures is acyclic. State (successes, failures):

    >>> def step(s):
    ...     w, l = s
    ...     if w == 3 or l == 2:
    ...         return []
    ...     return [(Fraction(1, 2), (w + 1, l)), (Fraction(1, 2), (w, l + 1))]
    >>> d = acyclic_absorption((0, 0), step)
    >>> sum(p for (w, _), p in d.items() if w == 3)
    Fraction(5, 16)
    """
    cache: dict = {}

    def row(s):
        if s not in cache:
            cache[s] = tuple(transitions(s))
        return cache[s]

    order = acyclic_order([start], lambda s: [n for _, n in row(s)])
    mass = {start: 1}
    out: dict = {}
    for s in reversed(order):  # predecessors first
        m = mass.pop(s, 0)
        if not m:
            continue
        r = row(s)
        if (not r) if absorbing is None else absorbing(s):
            out[s] = out.get(s, 0) + m
            continue
        for p, n in r:
            mass[n] = mass.get(n, 0) + m * p
    return out


def acyclic_moments(
    start: Iterable[Hashable],
    transitions: Callable[[Hashable], Sequence[tuple]],
    order: int = 2,
) -> dict:
    """Raw moments of the total reward collected until absorption in an acyclic chain.

    Backward induction [Bellman]_: with ``X(s)`` the reward still to come from ``s`` and a step
    ``s -> n`` earning ``R``, ``X(s) = R + X(n)``. If ``R`` and the future ``X(n)`` are
    independent given the step, the binomial theorem gives

    ``E[X(s)^k] = sum_steps p * sum_j C(k, j) E[R^j | step] E[X(n)^(k-j)]``.

    This is how correlated reward and move (a spin that both pays and retriggers) are
    handled: put them in the same step.

    Parameters
    ----------
    start : iterable of hashable
        States whose moments are needed (all states reachable from them are computed).
    transitions : callable
        ``transitions(state)`` -> sequence of ``(probability, next_state, reward_moments)``
        with ``reward_moments = (E[R | step], E[R^2 | step], ...)`` (at least ``order``
        values). A state with no transitions is absorbing (reward 0 from there). Rows must
        sum to 1.
    order : int
        Highest moment computed.

    Returns
    -------
    dict
        state -> tuple ``(E[X], E[X^2], ..., E[X^order])`` for every reachable state.

    Examples
    --------
    A fair coin tossed until the first head (at most 3 tosses), one credit per toss:

    >>> half = Fraction(1, 2)
    >>> def step(k):
    ...     if k == 3:
    ...         return []
    ...     return [(half, 3, (1, 1)), (half, k + 1, (1, 1))] if k < 2 else [(1, 3, (1, 1))]
    >>> acyclic_moments([0], step)[0]
    (Fraction(7, 4), Fraction(15, 4))
    """
    cache: dict = {}

    def row(s):
        if s not in cache:
            cache[s] = tuple(transitions(s))
        return cache[s]

    states = acyclic_order(list(start), lambda s: [t[1] for t in row(s)])
    moments: dict = {}
    for s in states:  # successors first
        r = row(s)
        if not r:
            moments[s] = (0,) * order
            continue
        acc = [0] * (order + 1)  # acc[k] = E[X^k]; acc[0] = sum p
        for p, n, rm in r:
            fut = (1,) + tuple(moments[n])
            rew = (1,) + tuple(rm[:order])
            for k in range(order + 1):
                acc[k] += p * sum(comb(k, j) * rew[j] * fut[k - j] for j in range(k + 1))
        moments[s] = tuple(acc[1:])
    return moments
