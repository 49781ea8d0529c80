"""The win-distribution algebra: exact and floating-point distributions of a win in credits.

A win is an integer number of *credits*; ``credits_per_bet`` credits make one total bet (see
:class:`slotmath.evaluate.window.PayModel`). Two types share one read-only interface
(:class:`Distribution`) that :mod:`slotmath.stats` works from:

- :class:`WinDistribution` keeps exact integer weights (Python ints) per win, so probabilities,
  RTP and hit frequency come out as exact fractions. Its operations (independent sums,
  multipliers, caps) are exact.
- :class:`FloatDistribution` keeps float64 probabilities, for distributions whose exact weights
  grow too large to be practical (long random sums of spins in a feature). Its operations are
  numerical with the tolerances stated on each method.

The library builds with these operations: the bonus wheel's k spins are ``one.power(k)``
(repeated :meth:`~WinDistribution.convolve`), a multiplied wheel is ``scale``, the max-win cap
is ``cap``. The round of a game with free spins is a :class:`NumericWinDistribution`, the FFT
law of the feature chain (:mod:`slotmath.features.compose`), with its error bounds.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cached_property
from typing import Protocol, runtime_checkable

import numpy as np

__all__ = ["Distribution", "FloatDistribution", "NumericWinDistribution", "WinDistribution"]

# Largest span of possible sums (in credit steps) laid out densely during a convolution;
# wider, sparser supports are indexed through ``np.unique`` instead.
_DENSE_LIMIT = 1 << 23
# Credits must stay well inside int64 (sums of two supports, products with multipliers).
_CREDITS_LIMIT = 1 << 62
# Exact convolution splits big weights into int64 limbs; beyond this many limb pairs,
# plain Python-int (object) arithmetic is faster (measured: 4 pairs ~2x faster than objects,
# 25 pairs ~1.5x slower, supports of 3000 x 3000).
_MAX_LIMB_PAIRS = 9
# Largest dense grid a float convolution will lay out for an FFT.
# Float probabilities must add up to 1 within this tolerance.
_FLOAT_SUM_TOL = 1e-12


@runtime_checkable
class Distribution(Protocol):
    """The read-only interface shared by :class:`WinDistribution` and :class:`FloatDistribution`.

    ``credits`` are sorted, unique int64 win amounts; ``probs`` their float64 probabilities;
    ``mean``, ``variance`` and ``std`` are in total bets (``credits / credits_per_bet``);
    exact distributions return ``Fraction`` where floats return ``float``.
    """

    @property
    def credits(self) -> np.ndarray: ...

    @property
    def probs(self) -> np.ndarray: ...

    @property
    def credits_per_bet(self) -> int: ...

    @property
    def mean(self) -> Fraction | float: ...

    @property
    def variance(self) -> Fraction | float: ...

    @property
    def std(self) -> float: ...

    @property
    def hit_probability(self) -> Fraction | float: ...

    @property
    def max_credits(self) -> int: ...


# ---------------------------------------------------------------------------------------------
# Array helpers shared by both types
# ---------------------------------------------------------------------------------------------
def _readonly(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def _check_credits_per_bet(credits_per_bet) -> int:
    if isinstance(credits_per_bet, bool) or not isinstance(credits_per_bet, numbers.Integral):
        raise TypeError(f"credits_per_bet must be an integer, got {credits_per_bet!r}")
    if credits_per_bet < 1:
        raise ValueError(f"credits_per_bet must be >= 1, got {credits_per_bet}")
    return int(credits_per_bet)


def _as_int(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what} must be an integer, got {value!r}")
    return int(value)


def _credits_array(credits: Iterable) -> np.ndarray:
    values = [_as_int(c, "credits") for c in credits]
    if any(abs(c) >= _CREDITS_LIMIT for c in values):
        raise OverflowError("credits must stay below 2**62 in magnitude")
    return np.array(values, dtype=np.int64).reshape(-1)


def _int64_pair(credits, weights) -> tuple[np.ndarray, np.ndarray] | None:
    """``credits`` and ``weights`` as int64 arrays when both are sequences of plain Python
    ints (no bool, no other type: what the element-wise checks would pass) of one length
    that fit in int64, with every credit below the limit; else None (the element-wise path
    then checks them and says what is wrong)."""
    if not isinstance(credits, (list, tuple)) or not isinstance(weights, (list, tuple)) \
            or len(credits) != len(weights) or not credits:
        return None
    if not set(map(type, credits)) <= {int} or not set(map(type, weights)) <= {int}:
        return None
    try:
        c = np.array(credits, dtype=np.int64)
        w = np.array(weights, dtype=np.int64)
    except OverflowError:
        return None
    if max(-int(c.min()), int(c.max())) >= _CREDITS_LIMIT:
        return None
    return c, w


def _merge_int64(credits: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What ``WinDistribution.__init__`` makes of int64 ``credits`` and ``weights``: checked,
    zero weights dropped, equal credits merged (:func:`_merge`), the weights as Python ints
    (summed in int64 only where no sum can overflow)."""
    if weights.min() < 0:
        raise ValueError("weights must be non-negative")
    keep = weights > 0
    c, w = credits[keep], weights[keep]
    if len(c) == 0:
        raise ValueError("a distribution needs at least one positive weight")
    if int(w.max()) * len(w) >= 1 << 63:  # a sum might overflow int64: Python's integers
        return _merge(c, _object_array(w.tolist()))
    c, w = _merge(c, w)
    return c, _object_array(w.tolist())


def _check_credit_range(low: int, high: int) -> None:
    if abs(low) >= _CREDITS_LIMIT or abs(high) >= _CREDITS_LIMIT:
        raise OverflowError("credits would leave the supported range (|credits| < 2**62)")


def _object_array(values: Sequence[int]) -> np.ndarray:
    """A 1-d object array of Python ints (never a 2-d array, whatever the values)."""
    a = np.empty(len(values), dtype=object)
    a[:] = values
    return a


def _merge(credits: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sort by credits and add the weights of equal credits."""
    order = np.argsort(credits, kind="stable")
    c = credits[order]
    w = weights[order]
    if len(c) == 0:
        return c, w
    starts = np.flatnonzero(np.concatenate(([True], c[1:] != c[:-1])))
    return c[starts], np.add.reduceat(w, starts)


def _outer_sum_layout(c1: np.ndarray, c2: np.ndarray):
    """Where each sum ``c1[i] + c2[j]`` goes in the result.

    Returns ``(sums, row_positions, size)``: ``row_positions(i)`` gives, for every ``j``, the
    slot of ``c1[i] + c2[j]`` in an output of ``size`` slots whose credits are ``sums``. Within
    one row the slots are distinct (``c2`` is unique), so ``out[pos] += ...`` is safe.
    """
    lo = int(c1[0]) + int(c2[0])
    hi = int(c1[-1]) + int(c2[-1])
    _check_credit_range(lo, hi)
    span = hi - lo + 1
    if span <= _DENSE_LIMIT:
        base = c2 - c2[0]
        offsets = c1 - c1[0]
        return lo + np.arange(span, dtype=np.int64), (lambda i: base + offsets[i]), span
    sums = np.add.outer(c1, c2)
    unique, inverse = np.unique(sums, return_inverse=True)
    inverse = inverse.reshape(sums.shape)
    return unique, (lambda i: inverse[i]), len(unique)


def _direct_convolve(c1, w1, c2, w2, dtype) -> tuple[np.ndarray, np.ndarray]:
    """Plain convolution of two sparse supports in one dtype (int64, float64 or object).

    The caller guarantees that no output slot overflows ``dtype``. Cost ~ len(c1) * len(c2).
    """
    if len(c1) > len(c2):
        c1, w1, c2, w2 = c2, w2, c1, w1
    sums, row_positions, size = _outer_sum_layout(c1, c2)
    out = np.zeros(size, dtype=dtype)
    for i in range(len(c1)):
        out[row_positions(i)] += w1[i] * w2
    keep = np.flatnonzero(out != 0)
    return sums[keep], out[keep]


def _limbs(weights: np.ndarray, bits: int, count: int) -> np.ndarray:
    """Split non-negative Python ints into ``count`` int64 limbs of ``bits`` bits (low first)."""
    mask = (1 << bits) - 1
    return np.array(
        [[(int(w) >> (bits * k)) & mask for k in range(count)] for w in weights], dtype=np.int64
    ).reshape(len(weights), count)


def _exact_convolve(c1, w1, total1, c2, w2, total2) -> tuple[np.ndarray, np.ndarray]:
    """Exact convolution of Python-int weights, returned as an object array of Python ints.

    Three paths, all exact:

    - every output weight is at most ``total1 * max(w2)`` (and ``total2 * max(w1)``); when
      that fits in int64 the whole convolution runs in int64;
    - otherwise weights are split into ``b``-bit limbs and each limb pair is convolved in
      int64 (``b`` is chosen so that no slot can overflow), then recombined with shifts —
      much faster than Python ints while the weights have up to a few hundred bits;
    - for still bigger weights, numpy object arrays of Python ints.
    """
    if min(total1 * max(w2), total2 * max(w1)) < 1 << 63:
        c, w = _direct_convolve(c1, w1.astype(np.int64), c2, w2.astype(np.int64), np.int64)
        return c, w.astype(object)
    if len(c1) > len(c2):
        c1, w1, total1, c2, w2, total2 = c2, w2, total2, c1, w1, total1
    pairs_per_slot = len(c1)
    bits = max((59 - pairs_per_slot.bit_length()) // 2, 1)
    n1 = max(-(-max(int(w) for w in w1).bit_length() // bits), 1)
    n2 = max(-(-max(int(w) for w in w2).bit_length() // bits), 1)
    # Per slot: <= len(c1) pairs (i, j) x <= min(n1, n2) limb pairs x < 2**(2 * bits) each.
    slot_bits = pairs_per_slot.bit_length() + min(n1, n2).bit_length() + 2 * bits
    if n1 * n2 > _MAX_LIMB_PAIRS or slot_bits > 62:
        return _direct_convolve(c1, w1, c2, w2, object)
    l1 = _limbs(w1, bits, n1)
    l2 = _limbs(w2, bits, n2)
    sums, row_positions, size = _outer_sum_layout(c1, c2)
    out = np.zeros((n1 + n2 - 1, size), dtype=np.int64)
    for i in range(len(c1)):
        pos = row_positions(i)
        for a in range(n1):
            limb = l1[i, a]
            if limb:
                for b in range(n2):
                    out[a + b, pos] += limb * l2[:, b]
    keep = np.flatnonzero(np.any(out != 0, axis=0))
    result = np.zeros(len(keep), dtype=object)
    for k in range(n1 + n2 - 1):
        result += out[k, keep].astype(object) * (1 << (bits * k))
    return sums[keep], result


# ---------------------------------------------------------------------------------------------
# Exact distribution
# ---------------------------------------------------------------------------------------------
class _Immutable:
    """Shared by both distribution types: built once through ``_set``, never changed."""

    __slots__ = ()

    def _set(self, credits: np.ndarray, values: np.ndarray, cpb: int) -> None:
        raise NotImplementedError

    @classmethod
    def _trusted(cls, credits: np.ndarray, values: np.ndarray, cpb: int):
        """Build without validation: credits sorted unique int64, values already checked."""
        self = object.__new__(cls)
        self._set(credits, values, cpb)
        return self

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _values(self) -> np.ndarray:
        """Weights (exact) or probabilities (float): what travels with each amount."""
        raise NotImplementedError

    # -- operations that only move amounts: the same for exact and float ---------------------
    def scale(self, k: int):
        """Every win multiplied by the integer ``k`` (a win multiplier).

        Examples
        --------
        >>> WinDistribution.from_mapping({0: 3, 10: 1}, 10).scale(3).as_dict()
        {0: 3, 30: 1}
        """
        k = _as_int(k, "k")
        _check_credit_range(int(self.credits[0]) * k, int(self.credits[-1]) * k)
        c = self.credits * k
        if k > 0:
            return self._trusted(c, self._values(), self.credits_per_bet)
        c, v = _merge(c, self._values())
        return self._trusted(c, v, self.credits_per_bet)

    def cap(self, max_credits: int):
        """Wins above ``max_credits`` paid as ``max_credits`` (a win cap).

        Examples
        --------
        >>> WinDistribution.from_mapping({0: 3, 10: 1, 50: 1}, 10).cap(20).as_dict()
        {0: 3, 10: 1, 20: 1}
        >>> FloatDistribution.from_mapping({0: 0.5, 10: 0.25, 50: 0.25}, 10).cap(10).as_dict()
        {0: 0.5, 10: 0.5}
        """
        max_credits = _as_int(max_credits, "max_credits")
        _check_credit_range(max_credits, max_credits)
        if max_credits >= self.max_credits:
            return self
        c, v = _merge(np.minimum(self.credits, max_credits), self._values())
        return self._trusted(c, v, self.credits_per_bet)


class WinDistribution(_Immutable):
    """An exact distribution of a win in integer credits, with integer weights.

    The probability of ``credits[i]`` is ``weights[i] / total``. Weights are Python ints, so
    nothing is rounded: full-cycle hit counts go in unchanged and every operation is exact.
    Instances are immutable; derived values are computed once, on first use.

    Parameters
    ----------
    credits : sequence of int
        Win amounts in credits. Need not be sorted; repeated amounts are added together.
    weights : sequence of int
        Non-negative integer weights, one per amount; zero weights are dropped. At least one
        must be positive.
    credits_per_bet : int
        Credits in one total bet.

    Attributes
    ----------
    credits : numpy.ndarray
        Sorted, unique win amounts (int64, read-only).
    weights : numpy.ndarray
        Their weights (dtype object holding Python ints, all > 0, read-only).
    total : int
        Sum of the weights (for a spin: the full cycle).
    credits_per_bet : int

    See Also
    --------
    FloatDistribution : the same interface with float64 probabilities.

    Notes
    -----
    Two distributions compare equal when they describe the same law: same ``credits_per_bet``,
    same credits and proportional weights (``{0: 3, 10: 1}`` equals ``{0: 6, 10: 2}``).

    Examples
    --------
    A spin's distribution comes from its full-cycle weights, e.g.
    ``WinDistribution.from_mapping(table.credits_weights(), table.credits_per_bet)`` for a
    :class:`~slotmath.exact.spin_table.SpinTable`. By hand:

    >>> d = WinDistribution.from_mapping({0: 3, 10: 1}, credits_per_bet=10)
    >>> d.mean, d.hit_probability, d.variance
    (Fraction(1, 4), Fraction(1, 4), Fraction(3, 16))
    >>> two = d.convolve(d)                 # two independent spins
    >>> two.as_dict()
    {0: 9, 10: 6, 20: 1}
    >>> two.mean == 2 * d.mean
    True
    """

    __slots__ = ("__dict__", "credits", "credits_per_bet", "total", "weights")

    def __init__(self, credits: Sequence[int], weights: Sequence[int], credits_per_bet: int):
        cpb = _check_credits_per_bet(credits_per_bet)
        fast = _int64_pair(credits, weights)
        if fast is not None:  # plain ints that fit: checked and merged as arrays
            self._set(*_merge_int64(*fast), cpb)
            return
        c = _credits_array(credits)
        w = _object_array([_as_int(x, "weights") for x in weights])
        if len(c) != len(w):
            raise ValueError(f"{len(c)} credits but {len(w)} weights")
        if any(x < 0 for x in w):
            raise ValueError("weights must be non-negative")
        keep = np.array([x > 0 for x in w], dtype=bool)
        c, w = _merge(c[keep], w[keep])
        if len(c) == 0:
            raise ValueError("a distribution needs at least one positive weight")
        self._set(c, w, cpb)

    def _set(self, credits: np.ndarray, weights: np.ndarray, cpb: int) -> None:
        object.__setattr__(self, "credits", _readonly(credits))
        object.__setattr__(self, "weights", _readonly(weights))
        object.__setattr__(self, "total", int(sum(weights)))
        object.__setattr__(self, "credits_per_bet", cpb)

    def _values(self) -> np.ndarray:
        return self.weights

    # -- constructors ----------------------------------------------------------------------
    @classmethod
    def from_mapping(cls, weights: Mapping[int, int], credits_per_bet: int) -> WinDistribution:
        """A distribution from ``{credits: weight}``.

        Examples
        --------
        >>> WinDistribution.from_mapping({20: 1, 0: 4}, 10).as_dict()
        {0: 4, 20: 1}
        """
        return cls(list(weights.keys()), list(weights.values()), credits_per_bet)

    @classmethod
    def point(cls, credits: int, credits_per_bet: int) -> WinDistribution:
        """The distribution that always pays ``credits``.

        Examples
        --------
        >>> WinDistribution.point(0, 25).as_dict()
        {0: 1}
        """
        return cls([credits], [1], credits_per_bet)

    # -- plain views -----------------------------------------------------------------------
    def __len__(self) -> int:
        """Number of distinct win amounts."""
        return len(self.credits)

    def as_dict(self) -> dict[int, int]:
        """``{credits: weight}`` with Python ints."""
        return {int(c): w for c, w in zip(self.credits, self.weights)}

    def __repr__(self) -> str:
        return (
            f"WinDistribution({len(self)} amounts, credits_per_bet={self.credits_per_bet}, "
            f"mean={float(self.mean):.6g} bets, max={self.max_credits} credits)"
        )

    @cached_property
    def _key(self) -> tuple:
        g = math.gcd(*self.weights)
        return (self.credits_per_bet, self.credits.tobytes(), tuple(w // g for w in self.weights))

    def __eq__(self, other) -> bool:
        if not isinstance(other, WinDistribution):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    # -- derived values --------------------------------------------------------------------
    @cached_property
    def probs(self) -> np.ndarray:
        """Probabilities as float64, each correctly rounded from its exact fraction."""
        t = self.total
        return _readonly(np.array([w / t for w in self.weights], dtype=np.float64))

    @cached_property
    def _credit_sum(self) -> int:
        return int(np.dot(self.credits.astype(object), self.weights))

    @cached_property
    def mean(self) -> Fraction:
        """Expected win in total bets, exactly."""
        return Fraction(self._credit_sum, self.total * self.credits_per_bet)

    @cached_property
    def second_moment(self) -> Fraction:
        """Expected squared win in total bets squared, exactly."""
        c = self.credits.astype(object)
        return Fraction(int(np.dot(c * c, self.weights)), self.total * self.credits_per_bet**2)

    @cached_property
    def variance(self) -> Fraction:
        """Variance of the win in total bets squared, exactly.

        Examples
        --------
        >>> WinDistribution.from_mapping({0: 1, 2: 1}, 1).variance
        Fraction(1, 1)
        """
        return self.second_moment - self.mean**2

    @cached_property
    def std(self) -> float:
        """Standard deviation of the win in total bets."""
        return math.sqrt(self.variance)

    @cached_property
    def hit_probability(self) -> Fraction:
        """P(win > 0), exactly."""
        hits = int(sum(self.weights[self.credits > 0]))
        return Fraction(hits, self.total)

    @cached_property
    def max_credits(self) -> int:
        """The largest win amount, in credits."""
        return int(self.credits[-1])

    def probability_of(self, credits: int) -> Fraction:
        """P(win == credits), exactly (0 for amounts outside the support).

        Examples
        --------
        >>> d = WinDistribution.from_mapping({0: 3, 10: 1}, 10)
        >>> d.probability_of(10), d.probability_of(5)
        (Fraction(1, 4), Fraction(0, 1))
        """
        i = int(np.searchsorted(self.credits, credits))
        if i < len(self.credits) and self.credits[i] == credits:
            return Fraction(self.weights[i], self.total)
        return Fraction(0)

    def reduced(self) -> WinDistribution:
        """The same law with the weights divided by their greatest common divisor."""
        g = math.gcd(*self.weights)
        if g == 1:
            return self
        weights = _object_array([w // g for w in self.weights])
        return self._trusted(self.credits, weights, self.credits_per_bet)

    def to_float(self) -> FloatDistribution:
        """The same distribution with float64 probabilities.

        Examples
        --------
        >>> WinDistribution.from_mapping({0: 3, 10: 1}, 10).to_float().probs.tolist()
        [0.75, 0.25]
        """
        return FloatDistribution._trusted(self.credits, self.probs.copy(), self.credits_per_bet)

    # -- operations ------------------------------------------------------------------------
    def _check_same_unit(self, other) -> None:
        if other.credits_per_bet != self.credits_per_bet:
            raise ValueError(
                f"credits_per_bet differ ({self.credits_per_bet} vs {other.credits_per_bet}); "
                "express both in one unit first"
            )

    def convolve(self, other: WinDistribution) -> WinDistribution:
        """Distribution of the sum of two independent wins.

        Exact: the weight of ``c`` is ``sum(w1[a] * w2[b] for a + b == c)`` and the total is
        ``self.total * other.total``.

        Parameters
        ----------
        other : WinDistribution
            Must have the same ``credits_per_bet``.

        Returns
        -------
        WinDistribution

        Notes
        -----
        Cost is about ``len(self) * len(other)`` numpy operations in int64 (weights split into
        int64 limbs when products do not fit), so supports of a few thousand amounts take
        well under a second.

        Examples
        --------
        >>> a = WinDistribution.from_mapping({0: 1, 1: 1}, 1)
        >>> a.convolve(a).as_dict()
        {0: 1, 1: 2, 2: 1}
        """
        if not isinstance(other, WinDistribution):
            raise TypeError(f"cannot convolve with {type(other).__name__}")
        self._check_same_unit(other)
        c, w = _exact_convolve(
            self.credits, self.weights, self.total, other.credits, other.weights, other.total
        )
        return self._trusted(c, w, self.credits_per_bet)


    def power(self, n: int) -> WinDistribution:
        """Distribution of the sum of ``n`` independent copies (``n``-fold convolution).

        Computed by repeated squaring; ``power(0)`` is the point at 0.

        Examples
        --------
        >>> WinDistribution.from_mapping({0: 1, 1: 1}, 1).power(3).as_dict()
        {0: 1, 1: 3, 2: 3, 3: 1}
        """
        n = _as_int(n, "n")
        if n < 0:
            raise ValueError(f"n must be >= 0, got {n}")
        result = None
        base = self
        while n:
            if n & 1:
                result = base if result is None else result.convolve(base)
            n >>= 1
            if n:
                base = base.convolve(base)
        return result if result is not None else self.point(0, self.credits_per_bet)


# ---------------------------------------------------------------------------------------------
# Floating-point distribution
# ---------------------------------------------------------------------------------------------


# FFT values below this many times the round-off estimate count as unresolved.


class FloatDistribution(_Immutable):
    """A distribution of a win in integer credits with float64 probabilities.

    For distributions too large to keep exact (long random sums of spins in a feature). It
    has the read-only interface of :class:`WinDistribution` (and ``scale`` and ``cap``) with
    floats in place of fractions.

    Parameters
    ----------
    credits : sequence of int
        Win amounts in credits; need not be sorted; repeated amounts are added together.
    probs : sequence of float
        Non-negative probabilities adding up to 1 within 1e-12; zeros are dropped.
    credits_per_bet : int

    Attributes
    ----------
    credits : numpy.ndarray
        Sorted, unique win amounts (int64, read-only).
    probs : numpy.ndarray
        Their probabilities (float64, > 0, read-only).
    credits_per_bet : int

    Examples
    --------
    >>> d = FloatDistribution.from_mapping({0: 0.75, 10: 0.25}, 10)
    >>> d.mean, d.hit_probability, d.variance
    (0.25, 0.25, 0.1875)
    """

    __slots__ = ("__dict__", "credits", "credits_per_bet", "probs")

    def __init__(self, credits: Sequence[int], probs: Sequence[float], credits_per_bet: int):
        cpb = _check_credits_per_bet(credits_per_bet)
        c = _credits_array(credits)
        p = np.asarray(probs, dtype=np.float64).reshape(-1)
        if len(c) != len(p):
            raise ValueError(f"{len(c)} credits but {len(p)} probabilities")
        if not np.all(np.isfinite(p)) or np.any(p < 0):
            raise ValueError("probabilities must be finite and non-negative")
        total = math.fsum(p)
        if abs(total - 1.0) > _FLOAT_SUM_TOL:
            raise ValueError(f"probabilities add up to {total!r}, not 1 (tolerance 1e-12)")
        keep = p > 0
        c, p = _merge(c[keep], p[keep])
        self._set(c, p, cpb)

    def _set(self, credits: np.ndarray, probs: np.ndarray, cpb: int) -> None:
        object.__setattr__(self, "credits", _readonly(credits))
        object.__setattr__(self, "probs", _readonly(probs))
        object.__setattr__(self, "credits_per_bet", cpb)

    def _values(self) -> np.ndarray:
        return self.probs

    # -- constructors ----------------------------------------------------------------------
    @classmethod
    def from_mapping(cls, probs: Mapping[int, float], credits_per_bet: int) -> FloatDistribution:
        """A distribution from ``{credits: probability}``.

        Examples
        --------
        >>> FloatDistribution.from_mapping({10: 0.5, 0: 0.5}, 10).as_dict()
        {0: 0.5, 10: 0.5}
        """
        return cls(list(probs.keys()), [float(p) for p in probs.values()], credits_per_bet)

    @classmethod
    def point(cls, credits: int, credits_per_bet: int) -> FloatDistribution:
        """The distribution that always pays ``credits``."""
        return cls([credits], [1.0], credits_per_bet)

    # -- plain views -----------------------------------------------------------------------
    def __len__(self) -> int:
        """Number of distinct win amounts."""
        return len(self.credits)

    def as_dict(self) -> dict[int, float]:
        """``{credits: probability}`` with Python numbers."""
        return {int(c): float(p) for c, p in zip(self.credits, self.probs)}

    def __repr__(self) -> str:
        return (
            f"FloatDistribution({len(self)} amounts, credits_per_bet={self.credits_per_bet}, "
            f"mean={self.mean:.6g} bets, max={self.max_credits} credits)"
        )

    def to_float(self) -> FloatDistribution:
        """This distribution (for code that accepts either type)."""
        return self

    # -- derived values --------------------------------------------------------------------
    @cached_property
    def _centred(self) -> tuple[int, np.ndarray, float]:
        """(c0, credits - c0 as float64, E[credits - c0]) about an integer c0 near the mean.

        Subtracting an integer is exact in int64, so the moments below keep their accuracy
        when the spread is small against the mean.
        """
        c0 = int(np.rint(np.dot(self.credits.astype(np.float64), self.probs)))
        d = (self.credits - c0).astype(np.float64)
        return c0, d, math.fsum(d * self.probs)

    @cached_property
    def mean(self) -> float:
        """Expected win in total bets."""
        c0, _, m = self._centred
        return (c0 + m) / self.credits_per_bet

    @cached_property
    def second_moment(self) -> float:
        """Expected squared win in total bets squared."""
        return self.variance + self.mean**2

    @cached_property
    def variance(self) -> float:
        """Variance of the win in total bets squared (computed about a nearby integer)."""
        _, d, m = self._centred
        return max(math.fsum(d * d * self.probs) - m * m, 0.0) / self.credits_per_bet**2

    @cached_property
    def std(self) -> float:
        """Standard deviation of the win in total bets."""
        return math.sqrt(self.variance)

    @cached_property
    def hit_probability(self) -> float:
        """P(win > 0)."""
        return math.fsum(self.probs[self.credits > 0])

    @cached_property
    def max_credits(self) -> int:
        """The largest win amount, in credits."""
        return int(self.credits[-1])

    def probability_of(self, credits: int) -> float:
        """P(win == credits) (0.0 for amounts outside the support)."""
        i = int(np.searchsorted(self.credits, credits))
        if i < len(self.credits) and self.credits[i] == credits:
            return float(self.probs[i])
        return 0.0

    # -- operations ------------------------------------------------------------------------
    def _check_same_unit(self, other) -> None:
        WinDistribution._check_same_unit(self, other)


class NumericWinDistribution(FloatDistribution):
    """A :class:`FloatDistribution` computed by FFT, with the bounds of that computation.

    Built without the sum-to-1 check (the noise dropped below ``noise_floor`` is gone).

    Attributes
    ----------
    aliased_mass_bound : float
        Upper bound (up to roundoff, ~1e-13) on the probability of wins beyond the Fourier
        grid, which were folded back onto smaller amounts. 0 when the grid held the whole
        support.
    dropped_mass : float
        Sum of the entries dropped as FFT roundoff noise (below ``noise_floor``); real
        probabilities that small are dropped too. Signed: noise cancels in it.
    dropped_bound : float
        Sum of the absolute values of those entries: what bounds their effect.
    noise_floor : float
        Entries at or below this were dropped.

    Examples
    --------
    >>> credits, probs, dropped, floor, bound = NumericWinDistribution.denoised(
    ...     np.array([0.5, -1e-30, 0.5]), 10)
    >>> d = NumericWinDistribution(credits, probs, 10, 0.0, dropped, floor, bound)
    >>> d.dropped_mass, d.dropped_bound
    (-1e-30, 1e-30)
    >>> d.credits.tolist(), d.mean, d.hit_probability
    ([0, 20], 1.0, 0.5)
    """

    def __init__(self, credits, probs, credits_per_bet: int, aliased_mass_bound: float = 0.0,
                 dropped_mass: float = 0.0, noise_floor: float = 0.0,
                 dropped_bound: float | None = None):
        c = np.asarray(credits, dtype=np.int64)
        p = np.asarray(probs, dtype=np.float64)
        keep = p > 0
        self._set(c[keep], p[keep], _check_credits_per_bet(credits_per_bet))
        object.__setattr__(self, "aliased_mass_bound", float(aliased_mass_bound))
        object.__setattr__(self, "dropped_mass", float(dropped_mass))
        object.__setattr__(self, "noise_floor", float(noise_floor))
        bound = abs(dropped_mass) if dropped_bound is None else dropped_bound
        object.__setattr__(self, "dropped_bound", float(bound))

    @property
    def total_mass(self) -> float:
        return float(self.probs.sum())

    @property
    def mean_bets(self) -> float:
        """Mean in total bets, as ``credits @ probs / credits_per_bet``."""
        return float(self.credits @ self.probs) / self.credits_per_bet

    @property
    def variance_bets(self) -> float:
        x = self.credits / self.credits_per_bet
        mu = float(x @ self.probs)
        return float(((x - mu) ** 2) @ self.probs)

    @staticmethod
    def denoised(noisy: np.ndarray, unit: int, exact: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray, float, float, float]:
        """Drop FFT noise from a dense pmf: ``noisy`` came out of an FFT, ``exact`` (same
        length, optional) is added without a floor. Returns (credits, probs, dropped mass,
        floor, dropped bound): the dropped entries' sum and the sum of their absolute values.

        FFT roundoff per entry is about ``eps * ||p||_2 / sqrt(L)`` times a small factor (by
        Parseval the transform's rms is ``||p||_2``; L rounding errors average out in the
        inverse). Against direct convolution on classic-sized tables, a floor of 16 times that
        balances the noise kept and the true mass dropped: mean within ~3e-10, variance within
        ~3e-7 (relative).
        """
        floor = 16 * np.finfo(float).eps * float(np.sqrt(noisy @ noisy)) / math.sqrt(len(noisy))
        keep = noisy > floor
        dropped = float(noisy[~keep].sum())
        dropped_bound = float(np.abs(noisy[~keep]).sum())
        p = np.where(keep, noisy, 0.0)
        if exact is not None:
            p += exact
        idx = np.flatnonzero(p > 0)
        return idx.astype(np.int64) * unit, p[idx], dropped, floor, dropped_bound
