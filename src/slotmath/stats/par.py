"""PAR-sheet statistics computed from a win distribution.

Every function takes a :class:`~slotmath.exact.distribution.WinDistribution` (exact) or a
:class:`~slotmath.exact.distribution.FloatDistribution` (anything else with ``credits``,
``probs`` and ``credits_per_bet`` is read as a FloatDistribution). Probabilities and RTP
figures come out as ``Fraction`` for an exact distribution and ``float`` otherwise; figures
that involve a square root (standard deviation, volatility index, confidence intervals) are
floats.

Results are plain frozen dataclasses; turning them into tables is the job of ``report/``
(``pandas.DataFrame([dataclasses.asdict(row) for row in rows])``).

All figures are per unit of total bet: a win of ``credits`` is ``credits / credits_per_bet``
bets.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from statistics import NormalDist

import numpy as np

from slotmath.exact.distribution import Distribution, FloatDistribution, WinDistribution

__all__ = [
    "ConfidenceInterval",
    "ConfidenceRow",
    "ParSummary",
    "TopAward",
    "WinSizeRow",
    "confidence_table",
    "hit_frequency",
    "hit_frequency_one_in",
    "normal_quantile",
    "par_summary",
    "per_amount_wagered",
    "rtp",
    "rtp_confidence_interval",
    "standard_deviation",
    "top_award",
    "volatility_index",
    "win_size_table",
]

DEFAULT_SPINS = tuple(10**k for k in range(3, 9))
DEFAULT_EDGES = (0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)


def _coerce(dist) -> Distribution:
    """The distribution itself, or a FloatDistribution from anything with ``credits``,
    ``probs`` and ``credits_per_bet`` (e.g. a numerical feature distribution)."""
    if isinstance(dist, (WinDistribution, FloatDistribution)):
        return dist
    try:
        credits, probs, cpb = dist.credits, dist.probs, dist.credits_per_bet
    except AttributeError:
        raise TypeError(
            "expected a win distribution (credits, probs, credits_per_bet), "
            f"got {type(dist).__name__}"
        ) from None
    return FloatDistribution(credits, probs, cpb)


def _one_in(probability) -> float:
    """``1 / p`` as a float, ``inf`` for ``p == 0``."""
    return math.inf if probability == 0 else 1 / float(probability)


def normal_quantile(confidence: float) -> float:
    """The two-sided standard normal quantile ``z`` with ``P(|Z| <= z) = confidence``.

    Examples
    --------
    >>> round(normal_quantile(0.90), 4), round(normal_quantile(0.95), 4)
    (1.6449, 1.96)
    """
    confidence = float(confidence)
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def rtp(dist: Distribution) -> Fraction | float:
    """Return to player: the expected win in total bets.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> rtp(WinDistribution.from_mapping({0: 3, 10: 1}, 10))
    Fraction(1, 4)
    """
    dist = _coerce(dist)
    return dist.mean


def hit_frequency(dist: Distribution) -> Fraction | float:
    """Probability that the win is positive.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> hit_frequency(WinDistribution.from_mapping({0: 3, 10: 1}, 10))
    Fraction(1, 4)
    """
    dist = _coerce(dist)
    return dist.hit_probability


def hit_frequency_one_in(dist: Distribution) -> float:
    """Hit frequency as "1 in N": ``N = 1 / P(win > 0)`` (``inf`` if nothing ever wins).

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> hit_frequency_one_in(WinDistribution.from_mapping({0: 3, 10: 1}, 10))
    4.0
    """
    dist = _coerce(dist)
    return _one_in(dist.hit_probability)


def standard_deviation(dist: Distribution) -> float:
    """Standard deviation of the win, in total bets.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> round(standard_deviation(WinDistribution.from_mapping({0: 3, 10: 1}, 10)), 6)  # sqrt(3/16)
    0.433013
    """
    dist = _coerce(dist)
    return dist.std


def volatility_index(dist: Distribution, confidence: float = 0.90) -> float:
    """Volatility index: ``z * SD`` with ``z`` the two-sided normal quantile of ``confidence``.

    ``z`` is 1.6449 at 90 % and 1.9600 at 95 %. The RTP measured over ``n`` spins lies within
    ``RTP +/- VI / sqrt(n)`` with that confidence (normal approximation).

    Parameters
    ----------
    dist : WinDistribution or FloatDistribution
    confidence : float
        Usually 0.90 or 0.95.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> d = WinDistribution.from_mapping({0: 3, 10: 1}, 10)
    >>> round(volatility_index(d, 0.90), 6), round(volatility_index(d, 0.95), 6)
    (0.712243, 0.848689)
    """
    dist = _coerce(dist)
    return normal_quantile(confidence) * dist.std


@dataclass(frozen=True)
class ConfidenceInterval:
    """Where the measured RTP of ``spins`` spins lies with probability ``confidence``."""

    spins: int
    confidence: float
    lower: float
    upper: float


def rtp_confidence_interval(
    dist: Distribution, spins: int, confidence: float = 0.95
) -> ConfidenceInterval:
    """Interval ``RTP +/- z * SD / sqrt(spins)`` for the RTP measured over ``spins`` spins.

    Normal approximation (central limit theorem); it is rough for few spins on a volatile game.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> d = WinDistribution.from_mapping({0: 3, 10: 1}, 10)
    >>> ci = rtp_confidence_interval(d, 10_000, 0.95)
    >>> round(ci.lower, 5), round(ci.upper, 5)
    (0.24151, 0.25849)
    """
    dist = _coerce(dist)
    if spins < 1:
        raise ValueError(f"spins must be >= 1, got {spins}")
    centre = float(dist.mean)
    half = normal_quantile(confidence) * dist.std / math.sqrt(spins)
    return ConfidenceInterval(int(spins), float(confidence), centre - half, centre + half)


@dataclass(frozen=True)
class ConfidenceRow:
    """One row of the RTP confidence table: the 90 % and 95 % intervals after ``spins`` spins."""

    spins: int
    lower_90: float
    upper_90: float
    lower_95: float
    upper_95: float


def confidence_table(
    dist: Distribution, spins: Sequence[int] = DEFAULT_SPINS
) -> tuple[ConfidenceRow, ...]:
    """RTP confidence intervals (90 % and 95 %) after each number of spins.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> rows = confidence_table(WinDistribution.from_mapping({0: 3, 10: 1}, 10))
    >>> [r.spins for r in rows]
    [1000, 10000, 100000, 1000000, 10000000, 100000000]
    >>> rows[-1].lower_95 < 0.25 < rows[-1].upper_95
    True
    """
    dist = _coerce(dist)
    rows = []
    for n in spins:
        ci90 = rtp_confidence_interval(dist, n, 0.90)
        ci95 = rtp_confidence_interval(dist, n, 0.95)
        rows.append(ConfidenceRow(int(n), ci90.lower, ci90.upper, ci95.lower, ci95.upper))
    return tuple(rows)


@dataclass(frozen=True)
class TopAward:
    """The largest win: ``multiple`` of the total bet, its probability and "1 in N"."""

    credits: int
    multiple: Fraction
    probability: Fraction | float
    one_in: float


def top_award(dist: Distribution) -> TopAward:
    """The largest possible win and how often it comes.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> top_award(WinDistribution.from_mapping({0: 3, 10: 1}, 10))
    TopAward(credits=10, multiple=Fraction(1, 1), probability=Fraction(1, 4), one_in=4.0)
    """
    dist = _coerce(dist)
    top = dist.max_credits
    probability = dist.probability_of(top)
    return TopAward(top, Fraction(top, dist.credits_per_bet), probability, _one_in(probability))


@dataclass(frozen=True)
class WinSizeRow:
    """One band of the win-size table.

    ``lower`` < win / bet <= ``upper`` (``label`` "0" is the band of wins exactly 0, with
    ``lower = upper = 0``; the last band has ``upper = None``). ``rtp_share`` is the band's
    contribution to the RTP in total bets, so the shares add up to the RTP.
    """

    label: str
    lower: Fraction
    upper: Fraction | None
    probability: Fraction | float
    one_in: float
    rtp_share: Fraction | float


def per_amount_wagered(rows: tuple[WinSizeRow, ...], cost) -> tuple[WinSizeRow, ...]:
    """Win-size rows of a round that costs ``cost`` total bets (a game mode): each band's
    RTP share per amount wagered (the shares add up to the mode's RTP); the bands stay in
    total bets.

    >>> row = WinSizeRow("> 2", Fraction(2), None, Fraction(1, 5), 5.0, Fraction(3, 5))
    >>> per_amount_wagered((row,), 100)[0].rtp_share
    Fraction(3, 500)
    """
    if cost == 1:
        return rows
    return tuple(replace(r, rtp_share=r.rtp_share / cost) for r in rows)


def win_size_table(
    dist: Distribution, edges: Sequence[int | Fraction] = DEFAULT_EDGES
) -> tuple[WinSizeRow, ...]:
    """Probability and RTP share of each band of win sizes, in multiples of the total bet.

    Bands: exactly 0, then ``(edges[i], edges[i + 1]]`` for consecutive edges, then
    ``> edges[-1]``. Band membership is decided exactly in credits
    (``credits <= edge * credits_per_bet``).

    Parameters
    ----------
    dist : WinDistribution or FloatDistribution
        Wins must be non-negative.
    edges : sequence of int or Fraction
        Strictly increasing, starting at 0.

    Returns
    -------
    tuple of WinSizeRow
        Exact fractions for an exact distribution: the probabilities add up to exactly 1 and
        the RTP shares to exactly the RTP.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> d = WinDistribution.from_mapping({0: 6, 5: 1, 10: 1, 30: 2}, 10)
    >>> for row in win_size_table(d, edges=(0, 1, 2)):
    ...     print(row.label, row.probability, row.rtp_share)
    0 3/5 0
    (0, 1] 1/5 3/20
    (1, 2] 0 0
    > 2 1/5 3/5
    """
    dist = _coerce(dist)
    edges = [Fraction(e) for e in edges]
    if not edges or edges[0] != 0:
        raise ValueError("win-size edges must start at 0")
    if any(b <= a for a, b in itertools.pairwise(edges)):
        raise ValueError("win-size edges must be strictly increasing")
    credits = dist.credits
    if len(credits) and credits[0] < 0:
        raise ValueError("a win-size table needs non-negative wins")
    cpb = dist.credits_per_bet
    # Band index of every amount: 0 for a zero win, i for (edges[i-1], edges[i]], len(edges)
    # for more than the last edge. Exact: credits <= e * cpb  <=>  credits * den <= num * cpb.
    band = np.zeros(len(credits), dtype=np.int64)
    for e in edges[1:]:
        band += credits * e.denominator > e.numerator * cpb
    band += credits > 0

    exact = isinstance(dist, WinDistribution)
    if exact:
        total = dist.total
        weights = dist.weights
        scaled = dist.credits.astype(object) * weights

    labels = ["0"] + [f"({a}, {b}]" for a, b in itertools.pairwise(edges)] + [f"> {edges[-1]}"]
    lowers = [Fraction(0)] + edges
    uppers: list[Fraction | None] = [Fraction(0)] + edges[1:] + [None]
    rows = []
    for i, label in enumerate(labels):
        inside = band == i
        if exact:
            probability = Fraction(int(sum(weights[inside])), total)
            share = Fraction(int(sum(scaled[inside])), total * cpb)
        else:
            probability = math.fsum(dist.probs[inside])
            share = math.fsum(dist.probs[inside] * credits[inside]) / cpb
        rows.append(
            WinSizeRow(label, lowers[i], uppers[i], probability, _one_in(probability), share)
        )
    return tuple(rows)


@dataclass(frozen=True)
class ParSummary:
    """The PAR-sheet statistics of one distribution (see the functions of the same names)."""

    exact: bool
    credits_per_bet: int
    rtp: Fraction | float
    hit_frequency: Fraction | float
    hit_frequency_one_in: float
    variance: Fraction | float
    standard_deviation: float
    volatility_index_90: float
    volatility_index_95: float
    confidence: tuple[ConfidenceRow, ...]
    top_award: TopAward
    win_sizes: tuple[WinSizeRow, ...]


def par_summary(
    dist: Distribution,
    spins: Sequence[int] = DEFAULT_SPINS,
    edges: Sequence[int | Fraction] = DEFAULT_EDGES,
) -> ParSummary:
    """All PAR statistics of a distribution at once.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> s = par_summary(WinDistribution.from_mapping({0: 3, 10: 1}, 10))
    >>> s.rtp, s.hit_frequency, s.variance, s.top_award.multiple
    (Fraction(1, 4), Fraction(1, 4), Fraction(3, 16), Fraction(1, 1))
    """
    dist = _coerce(dist)
    return ParSummary(
        exact=isinstance(dist, WinDistribution),
        credits_per_bet=dist.credits_per_bet,
        rtp=rtp(dist),
        hit_frequency=hit_frequency(dist),
        hit_frequency_one_in=hit_frequency_one_in(dist),
        variance=dist.variance,
        standard_deviation=standard_deviation(dist),
        volatility_index_90=volatility_index(dist, 0.90),
        volatility_index_95=volatility_index(dist, 0.95),
        confidence=confidence_table(dist, spins),
        top_award=top_award(dist),
        win_sizes=win_size_table(dist, edges),
    )
