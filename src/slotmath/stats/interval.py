"""Where the RTP measured over N paid rounds lies: intervals that respect a win >= 0.

The PAR sheet's usual interval, ``RTP +/- z SD / sqrt(N)`` (the normal approximation), ignores
that a round's win is never negative and that slot wins are very skewed: at 1000 rounds of a
volatile game its lower bound goes below zero. Where the round's win distribution is known
(``Analysis.distribution``, exact or numerical), :func:`mean_interval` instead reads the
interval off the law of the mean of N independent rounds itself, the N-fold convolution of
the round's law, computed by binary powering on a lattice:

- the law is held as probabilities on ``offset + k * width`` credits; two laws on the same
  lattice are convolved by FFT (a zero-padded real FFT; roundoff below zero is cut);
- when a law's support grows past :data:`MAX_BINS` points it moves to a lattice twice as
  coarse: each atom's mass is split between its two neighbours so that mass and mean are kept
  exactly. That is a randomised rounding with mean zero: the computed sum is the true sum plus
  a martingale whose steps are each smaller than the width they rounded to, one step per
  rounding in each copy of the law that the powering uses. With ``V`` the sum of those squared
  widths, Azuma-Hoeffding bounds the total shift: ``|shift| <= t = sqrt(2 V ln(2/delta))``
  except with probability ``delta`` (:data:`DELTA`);
- after each convolution the extreme tails holding at most :data:`TAIL_MASS` are dropped and
  counted, ``dropped`` (a convolution's dropped mass is at most the sum of its factors').
  Convolution is linear and positive, so the computed CDF ``F~`` and the true one satisfy
  ``F~(x - t) - delta <= F(x) <= F~(x + t) + dropped + delta`` (Fourier roundoff aside,
  ~1e-15).

The interval is then ``[L - t, U + t]`` with ``F~(L) + dropped + delta >= a/2`` and
``F~(U) - delta >= 1 - a/2``, divided by ``N`` (and by the credits per bet): it contains the
mean with probability at least ``confidence`` (up to the round distribution's own stated
accuracy), and its lower end is never below 0; ``resolution`` is ``t`` in total bets. A game whose RTP is not the mean of that law (progressive
jackpots, which depend on the pools, or a max-win cap applied after it) falls back to the
normal approximation cut at 0, and says so in ``method``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
from numba import njit

from slotmath.stats.par import normal_quantile

#: most lattice points a law is held on
MAX_BINS = 1 << 16
#: the most probability mass a truncation drops (each tail)
TAIL_MASS = 1e-14
#: the probability allowed for the rounding's shift to exceed its bound
DELTA = 1e-9

EXACT_METHOD = "law of the mean of N rounds (N-fold convolution of the round's distribution)"


@dataclass(frozen=True)
class MeanInterval:
    """An interval of the RTP measured over ``spins`` rounds, in total bets.

    ``resolution`` bounds how far the lattice moved the bounds (in total bets, already
    widened by it); ``dropped`` is the mass left out of the tails; ``method`` says how it was
    computed (and, for the normal approximation, why).
    """

    spins: int
    confidence: float
    lower: float
    upper: float
    method: str
    resolution: float = 0.0
    dropped: float = 0.0


@dataclass
class _Lattice:
    offset: int  # credits of the first point
    width: int  # credits between points
    probs: np.ndarray
    rounding: float = 0.0  # sum of the squared widths rounded to, in credits^2
    dropped: float = 0.0
    #: the real FFTs of ``probs`` made so far, by length (a power of two is convolved with
    #: itself and then with every partial sum of the powering: its spectrum is made once)
    spectra: dict = field(default_factory=dict, repr=False, compare=False)

    def spectrum(self, size: int) -> np.ndarray:
        """``np.fft.rfft(self.probs, size)``, made once per ``size``."""
        out = self.spectra.get(size)
        if out is None:
            out = self.spectra[size] = np.fft.rfft(self.probs, size)
        return out

    def coarser(self, factor: int) -> _Lattice:
        """Mass- and mean-preserving split onto a lattice ``factor`` times as coarse, aligned
        at a multiple of the new width."""
        width = self.width * factor
        start = (self.offset // width) * width
        position = (self.offset - start) // self.width + np.arange(len(self.probs))
        low, rest = np.divmod(position, factor)
        share = rest / factor
        out = np.zeros(int(low[-1]) + 2)
        np.add.at(out, low, self.probs * (1 - share))
        np.add.at(out, low + 1, self.probs * share)
        moved = width**2 if np.any(rest) else 0
        return _Lattice(start, width, out, self.rounding + moved, self.dropped)

    def trimmed(self) -> _Lattice:
        """Without the tails (each at most TAIL_MASS), their mass counted in ``dropped``."""
        p = self.probs
        cdf = np.cumsum(p)
        first = int(np.searchsorted(cdf, TAIL_MASS, side="right"))
        last = int(np.searchsorted(cdf, cdf[-1] - TAIL_MASS, side="left"))
        first = min(first, last)
        kept = p[first:last + 1]
        lost = float(cdf[first - 1]) if first else 0.0
        lost += float(cdf[-1] - cdf[last]) if last < len(p) - 1 else 0.0
        return _Lattice(self.offset + first * self.width, self.width, kept, self.rounding,
                        self.dropped + lost)


def _convolve(a: _Lattice, b: _Lattice) -> _Lattice:
    """The law of the sum of independent ``a`` and ``b``: the linear convolution of their
    ``probs`` by a zero-padded real FFT (numpy's: a fresh process does not import
    ``scipy.signal``, which alone took 0.4-0.8 s to import), each lattice's spectrum made
    once per FFT length (:meth:`_Lattice.spectrum`; one for a law convolved with itself)."""
    width = max(a.width, b.width)
    a = a if a.width == width else a.coarser(width // a.width)
    b = b if b.width == width else b.coarser(width // b.width)
    n = len(a.probs) + len(b.probs) - 1
    size = 1 << (n - 1).bit_length()
    probs = np.clip(np.fft.irfft(a.spectrum(size) * b.spectrum(size), size)[:n], 0.0, None)
    out = _Lattice(a.offset + b.offset, width, probs, a.rounding + b.rounding,
                   a.dropped + b.dropped).trimmed()
    while len(out.probs) > MAX_BINS:
        out = out.coarser(2).trimmed()
    return out


def _first_lattice(credits: np.ndarray, probs: np.ndarray) -> _Lattice:
    """One round's law on a lattice of at most :data:`MAX_BINS` points: the law on every
    credit from 0 to the top win, trimmed, then halved (:meth:`_Lattice.coarser`) until it
    fits; bit for bit, but without ever holding that first lattice (Frozen Gems' top win is
    ~5e8 credits: 4 GB, and as much again for its CDF). The atoms alone are halved while the
    lattice is longer: every addition is the one the lattice's :func:`numpy.add.at` makes, in
    its order (a point without an atom adds an exact 0.0)."""
    if len(credits) == 0:
        return _Lattice(0, 1, np.zeros(1)).trimmed()
    at = credits.astype(np.int64)
    if np.all(at[1:] > at[:-1]):  # distinct already: each point's mass is its one atom's
        mass = np.array(probs, np.float64)
    else:
        at, where = np.unique(at, return_inverse=True)
        mass = np.zeros(len(at))
        np.add.at(mass, where.ravel(), probs)
    length = int(credits[-1]) + 1  # the lattice 0 .. top win (credits ascend)
    cdf = np.cumsum(mass)  # the lattice's CDF at each atom (its other points repeat it)

    def cdf_before(point: int) -> float:  # the lattice's CDF at ``point - 1``
        j = int(np.searchsorted(at, point - 1, side="right"))
        return float(cdf[j - 1]) if j else 0.0

    first = int(at[np.searchsorted(cdf, TAIL_MASS, side="right")]) \
        if cdf[-1] > TAIL_MASS else length
    last = int(at[np.searchsorted(cdf, cdf[-1] - TAIL_MASS, side="left")]) \
        if cdf[-1] - TAIL_MASS > 0 else 0
    first = min(first, last)
    lost = cdf_before(first) if first else 0.0
    lost += float(cdf[-1] - cdf_before(last + 1)) if last < length - 1 else 0.0
    keep = (at >= first) & (at <= last)
    points, mass = at[keep] - first, mass[keep]  # [0, size): the trimmed lattice's atoms
    points, mass, offset, width, size, rounding = _halved(
        points.astype(np.int64), np.ascontiguousarray(mass, np.float64), first,
        last - first + 1, MAX_BINS)
    probs_out = np.zeros(size)
    probs_out[points] = mass
    return _Lattice(offset, width, probs_out, rounding, lost)


@njit(cache=True)
def _halved(points, mass, offset, size, most):
    """The atoms ``points`` (ascending, distinct, in ``[0, size)`` of a lattice of width 1 at
    ``offset``) and their ``mass`` halved (:meth:`_Lattice.coarser` ``(2)``) until the lattice
    holds at most ``most`` points: ``(points, mass, offset, width, size, rounding)``.

    Each pass is the one :meth:`_Lattice.coarser` makes, with the same floats: an atom at
    lattice point ``q`` (from the start of the coarser lattice) sends ``m * (1 - s)`` to point
    ``q // 2`` and ``m * s`` to ``q // 2 + 1`` (``s`` is ``(q % 2) / 2``); the shares of a
    point's atoms (at most two, ``2c`` and ``2c + 1``) are added in their order and a coarse
    point gets at most the second share of the run before it and the first of its own: sums
    of two floats, which do not depend on their order. A point without atoms would add an
    exact 0.0, which changes nothing. 1.5e8 credits in 2e6 atoms (Frozen Gems): 11 passes in
    a few hundredths of a second, where the same passes as numpy array operations took 5 s."""
    width, rounding = 1, 0.0
    n = points.shape[0]
    while size > most:
        wide = 2 * width
        start = (offset // wide) * wide
        base = (offset - start) // width
        new_points = np.empty(2 * n + 2, np.int64)
        new_mass = np.empty(2 * n + 2)
        k = 0  # cells written so far
        j = 0
        while j < n:
            low = (base + points[j]) // 2
            share = ((base + points[j]) % 2) / 2
            first = mass[j] * (1 - share)
            second = mass[j] * share
            if j + 1 < n and (base + points[j + 1]) // 2 == low:  # the run's second atom
                share = ((base + points[j + 1]) % 2) / 2
                first = first + mass[j + 1] * (1 - share)
                second = second + mass[j + 1] * share
                j += 1
            # (a share of exactly 0.0 is left out: adding it would change no sum)
            if first != 0.0:
                if k and new_points[k - 1] == low:  # the run before sent its second share here
                    new_mass[k - 1] = new_mass[k - 1] + first
                else:
                    new_points[k] = low
                    new_mass[k] = first
                    k += 1
            if second != 0.0:
                new_points[k] = low + 1
                new_mass[k] = second
                k += 1
            j += 1
        points, mass, n = new_points[:k], new_mass[:k], k
        if size > 1 or base % 2:
            rounding += float(wide) * float(wide)  # (a power of two: exact)
        offset, width, size = start, wide, (base + size - 1) // 2 + 2
    return points, mass, offset, width, size, rounding


def _sum_laws(credits: np.ndarray, probs: np.ndarray, spins: list[int]) -> dict[int, _Lattice]:
    """The law of the sum of ``n`` independent rounds for each ``n`` of ``spins``, on a
    lattice (binary powering; the powers of two are shared)."""
    one = _first_lattice(credits, probs)
    powers = [one]  # powers[k]: the law of 2**k rounds
    out = {}
    for n in spins:
        result, k = None, 0
        while n >> k:
            while len(powers) <= k:
                powers.append(_convolve(powers[-1], powers[-1]))
            if (n >> k) & 1:
                result = powers[k] if result is None else _convolve(result, powers[k])
            k += 1
        out[n] = result
    return out


def mean_interval(distribution, spins: int, confidence: float = 0.95) -> MeanInterval:
    """The central ``confidence`` interval of the mean win (total bets) of ``spins`` rounds
    (:func:`mean_intervals` for one count and one confidence).

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> coin = WinDistribution.from_mapping({0: 1, 2: 1}, 1)   # 0 or 2 bets, evens
    >>> i = mean_interval(coin, 10, 0.95)    # 2 x Binomial(10, 1/2) / 10
    >>> i.lower, i.upper, i.resolution
    (0.4, 1.6, 0.0)
    """
    return mean_intervals(distribution, [spins], [confidence])[spins, confidence]


def mean_intervals(distribution, spins, confidences) -> dict[tuple[int, float], MeanInterval]:
    """:func:`mean_interval` for every count of ``spins`` and every confidence, keyed by
    ``(spins, confidence)`` (each count's law computed once, the powers of two shared)."""
    credits = np.asarray(distribution.credits, dtype=np.int64)
    probs = np.clip(np.asarray(distribution.probs, dtype=np.float64), 0.0, None)
    cpb = int(distribution.credits_per_bet)
    laws = _sum_laws(credits, probs, [int(n) for n in spins])
    return {(int(n), float(c)): _read(laws[int(n)], int(n), float(c), cpb)
            for n in spins for c in confidences}


def _read(law: _Lattice, spins: int, confidence: float, cpb: int) -> MeanInterval:
    alpha = (1 - confidence) / 2
    delta = DELTA if law.rounding else 0.0
    shift = math.sqrt(2 * law.rounding * math.log(2 / DELTA)) if law.rounding else 0.0
    cdf = np.cumsum(law.probs)
    low = int(np.searchsorted(cdf + law.dropped + delta, alpha, side="left"))
    high = min(int(np.searchsorted(cdf - delta, 1 - alpha, side="left")), len(cdf) - 1)
    scale = spins * cpb
    lower = max(0.0, (law.offset + low * law.width - shift) / scale)
    upper = (law.offset + high * law.width + shift) / scale
    return MeanInterval(int(spins), float(confidence), lower, upper, EXACT_METHOD,
                        shift / scale, law.dropped)


def normal_interval(rtp: float, std: float, spins: int, confidence: float,
                    why: str) -> MeanInterval:
    """``rtp +/- z std / sqrt(spins)``, its lower end cut at 0 (a win is never negative).

    Examples
    --------
    >>> i = normal_interval(0.5, 14.3, 1000, 0.95, "jackpots")
    >>> i.lower, round(i.upper, 4), i.method
    (0.0, 1.3863, 'normal approximation, lower end cut at 0 (jackpots)')
    """
    half = normal_quantile(confidence) * std / math.sqrt(spins)
    return MeanInterval(int(spins), float(confidence), max(0.0, rtp - half), rtp + half,
                        f"normal approximation, lower end cut at 0 ({why})")


def rtp_interval(analysis, spins: int, confidence: float = 0.95) -> MeanInterval:
    """The interval of the RTP measured over ``spins`` paid rounds of ``analysis``' game.

    From the round's distribution where the RTP is its mean (:func:`mean_interval`);
    otherwise the normal approximation cut at 0, saying why.
    """
    return rtp_intervals(analysis, [spins], [confidence])[spins, confidence]


def rtp_intervals(analysis, spins, confidences) -> dict[tuple[int, float], MeanInterval]:
    """:func:`rtp_interval` for every count and confidence, keyed by ``(spins, confidence)``."""
    comp = analysis.composition
    if comp.owner is not None and hasattr(comp.stationary[comp.owner.name], "intervals"):
        return comp.stationary[comp.owner.name].intervals(spins, confidences)  # its own way
    if comp.owner is not None:  # rounds carry the owner's state: its intervals say how
        figures = comp.stationary[comp.owner.name].round
        out = {}
        for n in spins:
            for c in confidences:
                i = figures.confidence_interval(n, c)
                out[int(n), float(c)] = MeanInterval(
                    int(n), float(c), max(0.0, i.lower), i.upper,
                    f"normal approximation over consecutive rounds ({comp.owner.title.lower()}"
                    ": the variance of the mean counts the covariance of rounds that share "
                    "its state), lower end cut at 0")
        return out
    if not comp.carried and not comp.operations:
        out = mean_intervals(analysis.distribution, spins, confidences)
        if comp.cost == 1:
            return out
        # a game mode: the round's win per amount wagered (its RTP's scale)
        return {k: replace(i, lower=i.lower / float(comp.cost), upper=i.upper / float(comp.cost),
                           resolution=i.resolution / float(comp.cost))
                for k, i in out.items()}
    carried = [f.title.lower() for f in comp.declared if f.name in comp.carried]
    why = (f"the round's law with {', '.join(carried)} is not computed: they carry a state "
           "over between rounds" if carried else
           "the round's distribution is before " + ", ".join(
               f.title.lower() for f in comp.declared if f.name in comp.operations))
    return {(int(n), float(c)): normal_interval(analysis.rtp_float, analysis.std_total, n, c,
                                                why)
            for n in spins for c in confidences}


__all__ = ["MeanInterval", "mean_interval", "mean_intervals", "normal_interval", "rtp_interval",
           "rtp_intervals"]
