"""One paid round: the base spin plus the free-spins feature it may trigger.

The base spin's outcome ``(trigger count t, credits b)`` decides the award ``n = award_for(t)``
(cut to ``max_spins``); the feature then runs independently of the base spin, so every
statistic of the round ``R = B + F_n`` follows exactly from the joint base table and the
feature's per-``n`` statistics (:class:`~slotmath.markov.free_spins.FreeSpinsFeature`):

* ``E[R] = E[B] + sum_n P(n) E[F_n]``
* ``E[R^2] = E[B^2] + 2 sum_n E[B 1{n}] E[F_n] + sum_n P(n) E[F_n^2]``
* ``P(R > 0) = P(B > 0) + sum_n P(B = 0, n) (1 - P(F_n = 0))``
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np
import sympy

from slotmath.exact.spin_table import SpinTable
from slotmath.markov.free_spins import (
    FreeSpinsFeature,
    NumericWinDistribution,
    SpinCountDistribution,
    _sparse,
)
from slotmath.model.game import FreeSpins

__all__ = ["RoundAnalysis"]


def _exact_sum(terms) -> Fraction | sympy.Expr:
    """Sum of Fractions and (rarely) exact sympy numbers: a Fraction when all are Fractions."""
    terms = list(terms)
    if all(isinstance(t, (int, Fraction)) for t in terms):
        return sum(terms, Fraction(0))
    return sum(
        (sympy.Rational(t.numerator, t.denominator) if isinstance(t, (int, Fraction)) else t
         for t in terms),
        sympy.Integer(0),
    )


@dataclass(frozen=True, eq=False)
class RoundAnalysis:
    """Exact statistics of a paid round (base spin plus free-spins feature).

    Parameters
    ----------
    base : SpinTable
        The paid spin on the base reel set.
    free : SpinTable or None
        One free spin (credits before the multiplier); None when the game has no free spins.
    spec : FreeSpins or None
        The feature; None when the game has no free spins.

    Notes
    -----
    Wins are in total bets. Spins awarded by the base spin are cut to ``spec.max_spins``.

    Examples
    --------
    A base spin that pays 1 bet with probability 1/4 and, otherwise, triggers 2 free spins
    with probability 1/4; a free spin pays 1 bet (x2) with probability 1/2:

    >>> from slotmath.model.game import FreeSpins
    >>> base = SpinTable({(0, 0): 2, (0, 1): 1, (1, 0): 1}, 4, 1, 1)
    >>> free = SpinTable({(0, 0): 1, (0, 1): 1}, 2, 1, 1)
    >>> r = RoundAnalysis(base, free, FreeSpins("S", {1: 2}, multiplier=2))
    >>> r.trigger_probability, r.feature_rtp, r.rtp, r.hit_frequency
    (Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(7, 16))
    """

    base: SpinTable
    free: SpinTable | None = None
    spec: FreeSpins | None = None

    def __post_init__(self):
        if (self.free is None) != (self.spec is None):
            raise ValueError("give both the free-spin table and the FreeSpins spec, or neither")

    @cached_property
    def feature(self) -> FreeSpinsFeature | None:
        """The free-spins feature, or None."""
        return None if self.spec is None else FreeSpinsFeature(self.free, self.spec)

    def award(self, trigger_count: int) -> int:
        """Spins awarded by a base spin with ``trigger_count`` trigger symbols (cut to the cap)."""
        if self.spec is None:
            return 0
        n = self.spec.award_for(trigger_count)
        cap = self.spec.max_spins
        return min(n, cap) if cap is not None else n

    @cached_property
    def _by_award(self) -> dict[int, tuple[int, int, int, int]]:
        """award n -> (weight, sum b w, sum b^2 w, weight with b == 0) over the base table."""
        acc: dict[int, list[int]] = {}
        for (t, b), w in self.base.weights.items():
            e = acc.setdefault(self.award(t), [0, 0, 0, 0])
            e[0] += w
            e[1] += b * w
            e[2] += b * b * w
            e[3] += w if b == 0 else 0
        return {n: tuple(acc[n]) for n in sorted(acc)}

    @cached_property
    def award_probabilities(self) -> dict[int, Fraction]:
        """P(the base spin awards n spins) for each n > 0."""
        cyc = self.base.cycle
        return {n: Fraction(v[0], cyc) for n, v in self._by_award.items() if n > 0}

    @cached_property
    def trigger_probability(self) -> Fraction:
        """P(a paid round triggers the feature)."""
        return sum(self.award_probabilities.values(), Fraction(0))

    @cached_property
    def base_rtp(self) -> Fraction:
        """Expected base-spin win in total bets."""
        return self.base.mean_bets

    @cached_property
    def feature_rtp(self) -> Fraction:
        """Expected feature win per paid round in total bets."""
        if self.feature is None:
            return Fraction(0)
        return sum(
            (p * self.feature.expected_win(n) for n, p in self.award_probabilities.items()),
            Fraction(0),
        )

    @cached_property
    def rtp(self) -> Fraction:
        """Expected round win in total bets."""
        return self.base_rtp + self.feature_rtp

    @cached_property
    def expected_spins_per_feature(self) -> Fraction:
        """E[spins played | the feature is triggered] (0 when it never is)."""
        if not self.trigger_probability:
            return Fraction(0)
        total = sum(
            (p * self.feature.expected_spins(n) for n, p in self.award_probabilities.items()),
            Fraction(0),
        )
        return total / self.trigger_probability

    @cached_property
    def expected_win_per_feature(self) -> Fraction:
        """E[feature win | triggered] in total bets (0 when it never triggers)."""
        if not self.trigger_probability:
            return Fraction(0)
        return self.feature_rtp / self.trigger_probability

    @cached_property
    def second_moment(self) -> Fraction:
        """``E[R^2]`` of the round win in total bets squared, exactly."""
        cyc, cpb = self.base.cycle, self.base.credits_per_bet
        total = Fraction(sum(v[2] for v in self._by_award.values()), cyc * cpb * cpb)
        for n, (w, b1, _, _) in self._by_award.items():
            if n == 0:
                continue
            total += 2 * Fraction(b1, cyc * cpb) * self.feature.expected_win(n)
            total += Fraction(w, cyc) * self.feature.second_moment(n)
        return total

    @cached_property
    def variance(self) -> Fraction:
        """Variance of the round win in total bets squared."""
        return self.second_moment - self.rtp**2

    @cached_property
    def std(self) -> float:
        """Standard deviation of the round win in total bets."""
        return math.sqrt(self.variance)

    @cached_property
    def hit_frequency(self) -> Fraction | sympy.Expr:
        """Exact P(round win > 0).

        A Fraction, except in the rare case noted in
        :meth:`FreeSpinsFeature.zero_win_probability` (then an exact sympy number).
        """
        cyc = self.base.cycle
        terms = [Fraction(self.base.hit_weight, cyc)]
        for n, (_, _, _, zero) in self._by_award.items():
            if n > 0 and zero:
                terms.append(Fraction(zero, cyc) * (1 - self.feature.zero_win_probability(n)))
        return _exact_sum(terms)

    def spins_distribution(self) -> SpinCountDistribution:
        """Distribution of the spins played in a triggered feature (mixture over awards).

        Exact when every award's distribution is; otherwise floats with the mixed tail mass.
        """
        p_trig = self.trigger_probability
        if not p_trig:
            raise ValueError("the feature is never triggered")
        parts = [
            (p / p_trig, self.feature.spins_distribution(n))
            for n, p in self.award_probabilities.items()
        ]
        exact = all(d.exact for _, d in parts)
        out: dict = {}
        for w, d in parts:
            w = w if exact else float(w)
            for k, q in d.probabilities.items():
                out[k] = out.get(k, 0) + w * q
        tail = sum(float(w) * d.tail_mass for w, d in parts)
        return SpinCountDistribution(dict(sorted(out.items())), exact, tail)

    def win_distribution(self) -> NumericWinDistribution:
        """Distribution of the whole round's win (base spin + feature) in credits.

        Credits are ``lcm`` of the two tables' credits per bet. The base part is exact; each
        feature distribution (:meth:`FreeSpinsFeature.win_distribution`'s method and accuracy)
        is convolved with the base outcomes that award it, by FFT. ``aliased_mass_bound`` is
        the award-weighted sum of the features' bounds.
        """
        cpb_b = self.base.credits_per_bet
        ns = sorted(self.award_probabilities)
        if self.feature is None or not ns:
            acc: dict[int, int] = self.base.credits_weights()
            credits = np.array(sorted(acc), dtype=np.int64)
            probs = np.array([acc[c] / self.base.cycle for c in credits.tolist()])
            return NumericWinDistribution(credits, probs, cpb_b)
        cpb_f = self.free.credits_per_bet
        unit = cpb_b * cpb_f // math.gcd(cpb_b, cpb_f)
        sb = unit // cpb_b
        g_f = self.feature._grid_unit
        u_f = g_f * self.spec.multiplier * (unit // cpb_f)
        g = u_f
        for (_, b) in self.base.weights:
            g = math.gcd(g, b * sb)
        g = g or 1
        k = u_f // g if u_f else 1
        dense = self.feature._dense(ns)
        # Base sub-pmfs by award, on the round grid.
        top_b = max(b for (_, b) in self.base.weights) * sb // g
        base_parts = {n: np.zeros(top_b + 1) for n in [0, *ns]}
        for (t, b), w in self.base.weights.items():
            base_parts[self.award(t)][b * sb // g] += w / self.base.cycle
        length = max(top_b + 1 + k * (len(dense[n][0]) - 1) for n in ns)
        size = 1 << max(1, math.ceil(math.log2(length)))
        spectrum = np.zeros(size // 2 + 1, dtype=complex)
        for n in ns:
            p = dense[n][0]
            expanded = np.zeros(k * (len(p) - 1) + 1)
            expanded[::k] = p
            spectrum += np.fft.rfft(base_parts[n], size) * np.fft.rfft(expanded, size)
        convolved = np.fft.irfft(spectrum, size)[:length]
        exact = np.zeros(length)
        exact[: top_b + 1] = base_parts[0]  # no feature: exact, kept clear of the noise floor
        credits, probs, dropped, floor = _sparse(convolved, g, exact)
        bound = sum(float(self.award_probabilities[n]) * dense[n][1] for n in ns)
        return NumericWinDistribution(credits, probs, unit, bound, dropped, floor)
