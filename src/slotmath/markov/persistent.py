"""A state carried between paid spins: its Markov chain and what it pays in the long run.

Model
-----
A persistent-state game is a Markov chain on the state ``s`` a paid spin starts in (a
collection meter, a must-hit-by pot, a bauble conveyor): the spin pays ``r(s)`` in
expectation (total bets, its features included) and moves the state to ``s'`` with
probability ``P(s, s')``; a reset event (a bet change) puts it back in ``reset``.

* the **stationary distribution** ``pi = pi P`` and the long-run RTP ``sum_s pi(s) r(s)``
  [KS]_;
* the **RTP by visible state**: ``r(s)`` grouped by what a player sees before spinning
  (``visible(s)``; by default the whole state is visible);
* the **RTP from reset** over the first ``N`` spins: ``(1/N) sum_{t<N} (e_reset P^t) r``;
* the **advantage-play check**: the best visible state's RTP, whether any visible state
  returns more than 1 (100%) and how often the chain is in such states.

Method and error
----------------
The chain's states are those reachable from ``reset`` (breadth first), its transition
probabilities exact Fractions. When the chain has a finite *memory* ``m`` (the law after
``m`` steps no longer depends on the start: a conveyor of ``m`` slots forgets its contents
once every slot has been refilled), ``pi = e_reset P^m`` exactly, and :meth:`stationary_exact`
computes it in Fractions. Otherwise (or as a check) :meth:`stationary_numeric` iterates
``mu P`` in float64 from ``reset`` until ``||mu P - mu||_1 <= tol`` and states that residual;
for a chain of memory ``m`` the iterate after ``m`` steps is exact up to rounding. The reward
may be numerical (free spins solved by iteration): its error bound adds ``max_s |error(s)|``.

Rounds that are not independent
-------------------------------
Consecutive paid rounds share the state, so their wins ``W_t`` are correlated. With ``r(s)``
the expected win from state ``s`` and ``h(s, s') = E[W_0 1{s_1 = s'} | s_0 = s]`` (``r(s)
P(s, s')`` when the next state does not depend on what the spin paid), the covariance at lag
``k >= 1`` in the stationary chain is ``gamma_k = sum_s' (pi h)(s') ((P^(k-1) r)(s') - mu)``
[Bre]_ (condition on ``s_1``; ``sum_s' (pi h)(s') = mu``). A chain of memory ``m`` has
``P^k r = mu`` for ``k >= m``, so ``gamma_k = 0`` beyond lag ``m``, and the variance of the
mean of ``N`` rounds from the stationary law is exactly
``(N gamma_0 + 2 sum_{k=1}^{m} (N - k) gamma_k) / N^2`` (:func:`mean_variance`), which is
``sigma^2 / N`` with ``sigma^2 = gamma_0 + 2 sum_k gamma_k`` (the asymptotic variance, the
Poisson equation's ``gamma_0 + 2 (pi h) g``, ``g = sum_{k<m} (P^k r - mu)``) for large N.

References
----------
.. [Bre] P. Bremaud, *Markov Chains: Gibbs Fields, Monte Carlo Simulation, and Queues*,
   Springer, 1999, ch. 6 (the variance of ergodic averages, the fundamental matrix).
.. [KS] J. G. Kemeny and J. L. Snell, *Finite Markov Chains*, Van Nostrand, 1960, ch. IV
   (regular chains: the limiting matrix, whose rows are the stationary distribution).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # (scipy is imported where a chain is solved)
    import scipy.sparse as sp

__all__ = ["AdvantagePlay", "PersistentChain", "lag_covariances", "mean_variance"]


@dataclass(frozen=True)
class AdvantagePlay:
    """The regulator's check of a persistent-state game.

    ``best_rtp`` is the highest RTP of a visible state (``best_state`` one such state),
    ``best_probability`` the stationary probability of being in a visible state with that
    RTP, ``above_100`` whether any visible state returns more than 100%, and
    ``above_100_probability`` the stationary probability of such states.
    """

    best_rtp: float
    best_state: Hashable
    best_probability: float
    above_100: bool
    above_100_probability: float
    worst_rtp: float
    worst_state: Hashable


@dataclass(frozen=True, eq=False)
class PersistentChain:
    """The chain of a state carried between paid spins.

    Parameters
    ----------
    successors : callable
        ``successors(s) -> {s': P(s, s')}`` with exact Fraction probabilities summing to 1.
    reset : hashable
        The state after a reset event (and at the start of play).
    memory : int or None
        Steps after which the chain's law no longer depends on where it started (None: not
        known; the stationary law is then numerical only).

    Examples
    --------
    A meter of 0, 1, 2 that moves up with probability 1/2 and falls to 0 from 2 (its law
    depends on the start forever, so no memory; the stationary law is 2/5, 2/5, 1/5):

    >>> from fractions import Fraction as F
    >>> step = {0: {0: F(1, 2), 1: F(1, 2)}, 1: {1: F(1, 2), 2: F(1, 2)}, 2: {0: F(1)}}
    >>> chain = PersistentChain(step.__getitem__, 0)
    >>> [round(float(p), 12) for p in chain.stationary_numeric()[0]]
    [0.4, 0.4, 0.2]
    >>> chain.rtp_from_reset([0.5, 1.0, 2.0], [1, 2])   # pays 2 in state 2 only
    [0.5, 0.625]
    """

    successors: Callable[[Hashable], dict]
    reset: Hashable
    memory: int | None = None

    @cached_property
    def _moves(self) -> dict:
        return {}

    def step(self, state) -> dict:
        """``successors(state)``, computed once per state."""
        moves = self._moves
        if state not in moves:
            moves[state] = self.successors(state)
        return moves[state]

    @cached_property
    def states(self) -> tuple:
        """The states reachable from :attr:`reset`, in breadth-first order (reset first)."""
        order, index = [self.reset], {self.reset: 0}
        i = 0
        while i < len(order):
            for t in self.step(order[i]):
                if t not in index:
                    index[t] = len(order)
                    order.append(t)
            i += 1
        return tuple(order)

    @cached_property
    def index(self) -> dict:
        return {s: i for i, s in enumerate(self.states)}

    @cached_property
    def transition(self) -> sp.csr_array:
        """``P`` as a float64 sparse matrix over :attr:`states`; checks every row sums to 1."""
        rows, cols, vals = [], [], []
        for i, s in enumerate(self.states):
            out = self.step(s)
            total = sum(out.values())
            if total != 1:
                raise ValueError(f"the transition probabilities from {s!r} sum to {total}, "
                                 "not 1")
            for t, p in out.items():
                rows.append(i)
                cols.append(self.index[t])
                vals.append(float(p))
        import scipy.sparse as sp  # (here: the other games never import scipy)

        n = len(self.states)
        return sp.csr_array((vals, (rows, cols)), shape=(n, n))

    # -- the stationary law ---------------------------------------------------------------
    def stationary_exact(self) -> dict:
        """``{state: pi(state)}`` in Fractions (states of probability 0 left out), as
        ``e_reset P^memory``; raises ValueError when the memory is not known."""
        if self.memory is None:
            raise ValueError("the chain's memory is not known: use stationary_numeric()")
        law = {self.reset: Fraction(1)}
        for _ in range(self.memory):
            nxt: dict = {}
            for s, p in law.items():
                for t, q in self.step(s).items():
                    nxt[t] = nxt.get(t, 0) + p * q
            law = nxt
        return law

    def stationary_numeric(self, tol: float = 1e-14, max_steps: int = 100_000
                           ) -> tuple[np.ndarray, float]:
        """``(pi over states, residual ||pi P - pi||_1)``: ``mu P`` iterated from reset."""
        P_t = self.transition.T.tocsr()
        mu = np.zeros(len(self.states))
        mu[0] = 1.0
        for _ in range(max_steps):
            nxt = P_t @ mu
            residual = float(np.abs(nxt - mu).sum())
            mu = nxt
            if residual <= tol:
                return mu, residual
        raise ValueError(f"the chain did not settle within {max_steps} steps (residual "
                         f"{residual:.3g}): is it periodic?")

    # -- what it pays -----------------------------------------------------------------------
    def rtp_from_reset(self, reward: Sequence[float], spins: Sequence[int]) -> list[float]:
        """The mean return per spin over the first ``N`` paid spins from :attr:`reset`, for
        each ``N`` in ``spins`` (``reward[i]``: the expected return in state ``states[i]``)."""
        r = np.asarray(reward, dtype=float)
        P_t = self.transition.T.tocsr()
        mu = np.zeros(len(self.states))
        mu[0] = 1.0
        wanted, out, total = sorted(set(spins)), {}, 0.0
        settled = None  # with a known memory the law is stationary from spin memory + 1 on
        for t in range(1, wanted[-1] + 1 if wanted else 0):
            if settled is None:
                term = float(mu @ r)
                if self.memory is not None and t > self.memory:
                    settled = term
            total += term if settled is None else settled
            if t in out or t in wanted:
                out[t] = total / t
            if settled is None:
                mu = P_t @ mu
        return [out[n] for n in spins]

    @staticmethod
    def advantage_play(states: Sequence, reward: Sequence[float],
                       probability: Sequence[float], tie: float = 1e-12) -> AdvantagePlay:
        """The advantage-play check over visible states ``states`` with RTP ``reward`` and
        stationary probability ``probability``; RTPs within ``tie`` of the best count as it.

        Examples
        --------
        >>> a = PersistentChain.advantage_play(["x", "y", "z"], [0.9, 1.2, 1.2], [.5, .3, .2])
        >>> a.best_rtp, a.best_state, round(a.best_probability, 12), a.above_100_probability
        (1.2, 'y', 0.5, 0.5)
        """
        r = np.asarray(reward, dtype=float)
        p = np.asarray(probability, dtype=float)
        best, worst = int(np.argmax(r)), int(np.argmin(r))
        at_best = r >= r[best] - tie
        above = r > 1.0
        return AdvantagePlay(float(r[best]), states[best], float(p[at_best].sum()),
                             bool(above.any()), float(p[above].sum()), float(r[worst]),
                             states[worst])


def lag_covariances(transition, reward: Sequence[float], weighted: Sequence[float],
                    mean: float, lags: int) -> np.ndarray:
    """``gamma_k`` for ``k = 1..lags``: the covariance of the wins of two rounds ``k`` apart
    in the stationary chain (module notes), from ``transition`` (``P``, a matrix over the
    states), ``reward`` (``r(s)``), ``weighted`` (``(pi h)(s')``) and the mean ``mu``.

    Examples
    --------
    A state that stays with probability 3/4 and pays 1 in state 1: ``gamma_k = (1/4)(1/2)^k``.

    >>> P = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> r = np.array([0.0, 1.0])
    >>> pi_h = 0.5 * r @ P            # h(s, s') = r(s) P(s, s'), pi = (1/2, 1/2)
    >>> lag_covariances(P, r, pi_h, 0.5, 3).tolist()
    [0.125, 0.0625, 0.03125]
    """
    v = np.asarray(reward, dtype=float) - mean
    w = np.asarray(weighted, dtype=float)
    out = np.empty(lags)
    for k in range(lags):
        out[k] = float(w @ v)
        v = transition @ v
    return out


def mean_variance(variance: float, covariances: Sequence[float], rounds: int) -> float:
    """The variance of the mean win of ``rounds`` consecutive rounds from the stationary law:
    ``(N gamma_0 + 2 sum_k (N - k) gamma_k) / N^2`` with ``gamma_0 = variance`` and
    ``covariances[k - 1] = gamma_k`` (zero beyond the last one given).

    Examples
    --------
    >>> mean_variance(1.0, [], 100)            # independent rounds: variance / N
    0.01
    >>> round(mean_variance(1.0, [0.5], 100), 6)  # (100 + 2 * 99 * 0.5) / 100**2
    0.0199
    """
    if rounds < 1:
        raise ValueError(f"rounds must be >= 1, got {rounds}")
    total = rounds * variance
    for k, gamma in enumerate(covariances, start=1):
        if k >= rounds:
            break
        total += 2 * (rounds - k) * gamma
    return total / rounds**2
