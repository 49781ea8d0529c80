"""The round's win law as the player's view reads it: amounts, probabilities and their error.

Every figure of :mod:`slotmath.player` starts from the law of one paid round's win: an exact
:class:`~slotmath.exact.distribution.WinDistribution` (integer credits, integer full-cycle
weights) or a numerical :class:`~slotmath.exact.distribution.NumericWinDistribution` (an FFT
law with its stated bounds), as ``slotmath.analyze(game).distribution`` gives. :class:`PlayerLaw`
holds what the engines of this package need from either: sorted integer credits, float64
probabilities adding up to 1, the exact mean and variance where the law is exact, the integer
weights for the exact-fraction ruin recursion, and ``error``: a bound on the total-variation
distance between the probabilities held and the true law (the most any event's probability can
be off in one round). Over ``n`` independent rounds that distance is at most ``n * error``
(couple the rounds one by one), which is how every figure of the package carries it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

__all__ = ["PlayerLaw", "as_player_law"]

#: unit roundoff of float64
UNIT_ROUNDOFF = 2.0**-53


@dataclass(frozen=True, eq=False)
class PlayerLaw:
    """One paid round's win law, read for the player's view.

    Parameters
    ----------
    credits : numpy.ndarray
        Sorted, unique win amounts in credits (int64, >= 0), each with positive probability.
    probs : numpy.ndarray
        Their probabilities (float64), adding up to 1 within rounding.
    credits_per_bet : int
        Credits in one total bet (the stake of a round).
    mean, variance : Fraction or float
        Of the win, in bets and bets squared: exact fractions for an exact law.
    error : float
        Bound on the total-variation distance between ``probs`` and the true law.
    weights : tuple of int or None
        The exact integer weights (an exact law only), ``total`` their sum.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> law = as_player_law(WinDistribution.from_mapping({0: 3, 10: 1}, 10))
    >>> law.mean, law.exact, law.unit
    (Fraction(1, 4), True, 10)
    """

    credits: np.ndarray
    probs: np.ndarray
    credits_per_bet: int
    mean: Fraction | float
    variance: Fraction | float
    error: float
    weights: tuple[int, ...] | None = None
    total: int | None = None

    @property
    def exact(self) -> bool:
        """Whether the law is exact (integer weights; mean and variance are fractions)."""
        return self.weights is not None

    @property
    def std(self) -> float:
        """SD of the round's win in bets."""
        return math.sqrt(self.variance)

    @cached_property
    def unit(self) -> int:
        """The greatest common divisor of the win amounts (the lattice every total lies on;
        the stake when no round ever pays)."""
        g = math.gcd(*(int(c) for c in self.credits))
        return g if g else self.credits_per_bet

    @cached_property
    def max_credits(self) -> int:
        return int(self.credits[-1])


def _moments(credits: np.ndarray, probs: np.ndarray, cpb: int) -> tuple[float, float]:
    """Mean and variance in bets, about an integer near the mean (exact shift in int64)."""
    c0 = int(np.rint(float(np.sum(credits.astype(np.float64) * probs))))
    d = (credits - c0).astype(np.float64)
    m = math.fsum(d * probs)
    var = max(math.fsum(d * d * probs) - m * m, 0.0)
    return (c0 + m) / cpb, var / cpb**2


def as_player_law(law) -> PlayerLaw:
    """The :class:`PlayerLaw` of a round's win law.

    Parameters
    ----------
    law : PlayerLaw, WinDistribution, NumericWinDistribution or FloatDistribution
        Or any object with ``credits``, ``probs`` and ``credits_per_bet`` (its probabilities are
        then taken as stated: the error is their sum's distance from 1 and their rounding).

    Returns
    -------
    PlayerLaw
        For an exact law, ``probs`` are the exact weights divided in float64 (each within
        half a unit in the last place, so ``error`` is 2**-53). For a numerical law, ``error``
        adds what the law states about itself: the mass folded back from beyond its Fourier
        grid (``aliased_mass_bound``), the noise it dropped (``dropped_bound``) and its sum's
        distance from 1; its probabilities are then divided by their sum.

    Raises
    ------
    ValueError
        A negative win, a negative or non-finite probability, or no positive probability.

    Examples
    --------
    >>> from slotmath.exact.distribution import FloatDistribution
    >>> law = as_player_law(FloatDistribution.from_mapping({0: 0.5, 20: 0.5}, 10))
    >>> law.mean, law.variance, law.exact
    (1.0, 1.0, False)
    """
    if isinstance(law, PlayerLaw):
        return law
    for name in ("credits", "probs", "credits_per_bet"):
        if not hasattr(law, name):
            raise TypeError("expected a win distribution (credits, probs, credits_per_bet), "
                            f"got {type(law).__name__}")
    cpb = int(law.credits_per_bet)
    if cpb < 1:
        raise ValueError(f"credits_per_bet must be >= 1, got {cpb}")
    credits = np.asarray(law.credits, dtype=np.int64).reshape(-1)
    weights = getattr(law, "weights", None)
    if weights is not None and hasattr(law, "total"):  # exact: integer weights
        w = [int(x) for x in weights]
        keep = [i for i, x in enumerate(w) if x > 0]
        credits = credits[keep]
        w = [w[i] for i in keep]
        total = sum(w)
        if not w:
            raise ValueError("the win law has no positive weight")
        if credits[0] < 0:
            raise ValueError(f"a round's win must be >= 0, got {int(credits[0])} credits")
        probs = np.array([x / total for x in w], dtype=np.float64)  # correctly rounded
        c = [int(x) for x in credits]
        s1 = sum(ci * wi for ci, wi in zip(c, w))
        s2 = sum(ci * ci * wi for ci, wi in zip(c, w))
        mean = Fraction(s1, total * cpb)
        variance = Fraction(s2, total * cpb**2) - mean**2
        # each probability within half an ulp: the TV distance is at most 2**-54 * sum <= 2**-53
        return PlayerLaw(credits, probs, cpb, mean, variance, UNIT_ROUNDOFF, tuple(w), total)
    p = np.asarray(law.probs, dtype=np.float64).reshape(-1)
    if len(p) != len(credits):
        raise ValueError(f"{len(credits)} credits but {len(p)} probabilities")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probabilities must be finite and non-negative")
    keep = p > 0
    credits, p = credits[keep], p[keep]
    if len(p) == 0:
        raise ValueError("the win law has no positive probability")
    order = np.argsort(credits, kind="stable")
    credits, p = credits[order], p[order]
    if np.any(np.diff(credits) == 0):
        raise ValueError("the win law repeats an amount")
    if credits[0] < 0:
        raise ValueError(f"a round's win must be >= 0, got {int(credits[0])} credits")
    total = math.fsum(p)
    stated = (float(getattr(law, "aliased_mass_bound", 0.0))
              + float(getattr(law, "dropped_bound", 0.0)))
    # TV(true, p/total) <= TV(true, p) + |1 - total| (when p is within `stated` of the truth)
    error = stated + abs(1.0 - total) + 2 * UNIT_ROUNDOFF
    probs = p / total
    mean, variance = _moments(credits, probs, cpb)
    return PlayerLaw(credits, probs, cpb, mean, variance, error)
