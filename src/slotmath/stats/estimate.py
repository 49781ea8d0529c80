"""A simulated figure: a float that carries its confidence interval.

:class:`Estimate` is a ``float`` (so every consumer that computes with a figure, formats it or
writes it as JSON keeps working) with the statistics of how it was measured: its standard
error, the number of rounds and its 95 % interval. The generic renderers (the PAR tables, the
text and the workbook) recognise it and write the interval beside the value and "simulated" as
its method; arithmetic on it gives a plain float, so a figure derived from estimates never
passes for one that was measured.

Intervals: a mean is ``value +/- z * std_error`` (normal approximation, the central limit
theorem over the rounds); a proportion (hit frequency, a band's probability, a trigger rate) is
the Wilson score interval, which stays inside [0, 1] and is not degenerate at 0 or n hits.

Examples
--------
>>> e = Estimate.mean(total=960.0, squares=2000.0, rounds=1000)
>>> round(float(e), 3), round(e.std_error, 5), e.rounds
(0.96, 0.03286, 1000)
>>> lo, hi = e.interval()
>>> round(lo, 4), round(hi, 4)
(0.8956, 1.0244)
>>> p = Estimate.proportion(0, 1000)
>>> float(p), p.interval()[0], round(p.interval()[1], 5)
(0.0, 0.0, 0.00383)
>>> type(e + 1).__name__, is_estimate(e), is_estimate(0.5)
('float', True, False)
"""

from __future__ import annotations

import math
from statistics import NormalDist

__all__ = ["SIMULATED", "Estimate", "is_estimate", "reciprocal", "root", "scaled"]

#: the method text of a simulated figure
SIMULATED = "simulated"


def _z(confidence: float) -> float:
    return NormalDist().inv_cdf(0.5 + confidence / 2)


class Estimate(float):
    """A figure measured by simulation: the value, its standard error and its interval.

    Parameters
    ----------
    value : float
    std_error : float
        Standard error of ``value``.
    rounds : int
        How many rounds it was measured over.
    kind : str
        ``"mean"`` (normal interval) or ``"proportion"`` (Wilson interval, ``hits`` given).
    hits : int
        The count behind a proportion.
    """

    __slots__ = ("bounds", "hits", "kind", "rounds", "std_error")

    def __new__(cls, value, std_error: float, rounds: int, kind: str = "mean", hits: int = 0,
                bounds: tuple[float, float] | None = None):
        obj = super().__new__(cls, value)
        obj.std_error = float(std_error)
        obj.rounds = int(rounds)
        obj.kind = kind
        obj.hits = int(hits)
        obj.bounds = bounds
        return obj

    def __reduce__(self):
        return (Estimate, (float(self), self.std_error, self.rounds, self.kind, self.hits,
                           self.bounds))

    @classmethod
    def largest(cls, value, rounds: int) -> Estimate:
        """The largest value seen in ``rounds`` rounds: a lower bound of the largest possible
        (its interval is ``[value, inf)``)."""
        return cls(value, 0.0, rounds, "largest")

    def __repr__(self) -> str:
        lo, hi = self.interval()
        return (f"Estimate({float(self)!r}, 95% [{lo:.6g}, {hi:.6g}], "
                f"{self.rounds:,} rounds)")

    @classmethod
    def mean(cls, total: float, squares: float, rounds: int) -> Estimate:
        """The mean of a per-round quantity from its sum and sum of squares."""
        n = int(rounds)
        m = total / n
        variance = max(squares / n - m * m, 0.0) * n / max(n - 1, 1)
        return cls(m, math.sqrt(variance / n), n)

    @classmethod
    def proportion(cls, hits: int, rounds: int) -> Estimate:
        """The share of ``rounds`` in which something happened ``hits`` times."""
        n = int(rounds)
        p = hits / n
        return cls(p, math.sqrt(p * (1 - p) / n), n, "proportion", hits)

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Where the true value lies with probability ``confidence`` (approximately)."""
        if self.kind == "largest":
            return float(self), math.inf
        if self.bounds is not None and confidence == 0.95:
            return self.bounds
        z = _z(confidence)
        if self.kind == "proportion":
            n, p = self.rounds, float(self)
            centre = (p + z * z / (2 * n)) / (1 + z * z / n)
            half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
            lo = 0.0 if self.hits == 0 else max(0.0, centre - half)
            hi = 1.0 if self.hits == n else min(1.0, centre + half)
            return lo, hi
        half = z * self.std_error
        return float(self) - half, float(self) + half

    def half_width(self, confidence: float = 0.95) -> float:
        """Half the width of :meth:`interval`."""
        if self.kind == "largest":
            return 0.0
        lo, hi = self.interval(confidence)
        return (hi - lo) / 2

    def text(self, percent: bool = False, digits: int = 6) -> str:
        """The value and its 95 % interval, e.g. ``0.9612 (95%: 0.9590 to 0.9634)``."""
        lo, hi = self.interval()
        if percent:
            return f"{float(self):.{digits}%} (95%: {lo:.{digits}%} to {hi:.{digits}%})"
        return f"{float(self):.{digits}g} (95%: {lo:.{digits}g} to {hi:.{digits}g})"

    @property
    def method(self) -> str:
        """The method column of a PAR table."""
        if self.kind == "largest":
            return (f"{SIMULATED}: the largest of {self.rounds:,} rounds (a lower bound of the "
                    "largest possible)")
        lo, hi = self.interval()
        return (f"{SIMULATED}: {self.rounds:,} rounds, 95% interval [{lo:.6g}, {hi:.6g}]")


def is_estimate(value) -> bool:
    """Whether ``value`` is a simulated figure."""
    return isinstance(value, Estimate)


def root(value):
    """The square root of a figure: of an estimate, an estimate (delta method: its standard
    error over twice the root; the interval's ends are the roots of the interval's ends);
    otherwise a float.

    >>> round(float(root(Estimate(4.0, 0.4, 100))), 3), root(Estimate(4.0, 0.4, 100)).std_error
    (2.0, 0.1)
    >>> root(9)
    3.0
    """
    if isinstance(value, Estimate):
        sd = math.sqrt(max(float(value), 0.0))
        lo, hi = value.interval()
        return Estimate(sd, value.std_error / (2 * sd) if sd else 0.0, value.rounds,
                        bounds=(math.sqrt(max(lo, 0.0)), math.sqrt(max(hi, 0.0))))
    return float(value) ** 0.5


def scaled(value, factor: float):
    """``factor`` x a figure, an estimate staying one."""
    if isinstance(value, Estimate):
        lo, hi = value.interval()
        return Estimate(float(value) * factor, value.std_error * abs(factor), value.rounds,
                        bounds=(lo * factor, hi * factor) if factor >= 0 else
                        (hi * factor, lo * factor))
    return value * factor


def reciprocal(value):
    """1 / a figure ("1 in N"): of an estimate, an estimate whose interval is the reciprocal
    of its interval; inf for 0.

    >>> r = reciprocal(Estimate.proportion(50, 1000))
    >>> float(r), r.interval()[0] < 20 < r.interval()[1]
    (20.0, True)
    """
    if isinstance(value, Estimate):
        if not float(value):
            return Estimate(math.inf, math.inf, value.rounds, bounds=(
                1 / value.interval()[1] if value.interval()[1] else math.inf, math.inf))
        lo, hi = value.interval()
        x = 1 / float(value)
        return Estimate(x, value.std_error * x * x, value.rounds,
                        bounds=(1 / hi if hi else math.inf, 1 / lo if lo else math.inf))
    return math.inf if not value else 1 / value
