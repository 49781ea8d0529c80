"""The law of the total win of N paid rounds, by one FFT power, with a stated error bound.

Model. A round costs one bet (``credits_per_bet`` credits) and pays ``X >= 0`` credits, drawn
from the round's law; rounds are independent. After ``N`` rounds the player's net result is
``S - N * credits_per_bet`` with ``S = X_1 + ... + X_N``.

Method. Every win is a multiple of ``g``, the gcd of the win amounts, so ``S / g`` is an
integer. The law is centred on an integer ``m0`` near its mean (``y = X / g - m0``), laid out on
a cyclic grid of ``L`` points (a power of two), and ``S`` is read from the inverse real FFT of
the ``N``-th power of its transform: ``phi_k ** N`` computed as ``exp(N log|phi_k|)`` with phase
``N arg(phi_k)``. That gives the law of ``S`` modulo ``L`` exactly up to roundoff; ``S`` is then
read on a window of ``L`` consecutive values.

Error, bounded in total variation (the most any event's probability can be off):

- ``tail_bound``: the mass of ``S`` outside the window, folded into it by the cyclic grid
  (aliasing). The window is chosen by Chernoff bounds, ``P(S >= t) <= exp(N K(theta) - theta
  t)`` with ``K`` the round's cumulant generating function, so that each side holds at most
  ``tolerance / 2``; it is 0 when the window holds the whole support ``[N min, N max]``.
- ``roundoff_bound``: float64 roundoff of the two transforms and of the power. With the
  componentwise FFT bound ``|phi^_k - phi_k| <= beta`` (:func:`~slotmath.player._bounds.fft_beta`),
  ``|phi^_k**N - phi_k**N| <= N beta (|phi^_k| + beta)**(N - 1)``; the power itself is off by
  at most ``|phi^_k|**N u (2 N |log|phi^_k|| + 2 N |arg phi^_k| + 8)`` (log, exp and the phase
  each carry one rounding, multiplied by ``N``; centring keeps the phase small where the
  power is not negligible). The inverse transform maps an L2 error of the spectrum to at most
  the same L1 error of the law, and adds ``beta`` times the spectrum's L1 norm.
- ``input_bound``: ``N`` times the round law's own error (``PlayerLaw.error``): the
  probabilities the FFT starts from, as rounded or as stated by a numerical law.
- ``cumulative_bound``: the roundoff of the running sum that reads a CDF (``L u``).

When the window would need more than ``max_grid`` points (a game with a large
``credits_per_bet`` and high volatility at large ``N``), the round's law is first moved to a
coarser lattice of step ``h`` (a multiple of ``g``): each amount's probability is split between
its two neighbouring lattice points so that the mean is unchanged. The computed total is then
``S' = S + D`` where ``D`` is a sum of ``N`` independent mean-zero terms each within an interval
of length ``h`` (given the wins), so ``P(|D| > d) <= 2 exp(-2 d^2 / (N h^2))`` (Hoeffding):
every CDF value is bracketed with the arguments shifted by ``blur = d`` (:meth:`SessionLaw.
cdf_bounds`), ``blur_bound`` being that probability (each side).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from slotmath.player._bounds import (
    chernoff_lower_point,
    chernoff_lower_tail,
    chernoff_upper_point,
    chernoff_upper_tail,
    fft_beta,
    next_power_of_two,
)
from slotmath.player.law import UNIT_ROUNDOFF as U
from slotmath.player.law import as_player_law

__all__ = ["DEFAULT_MAX_GRID", "DEFAULT_TOLERANCE", "SessionLaw", "session_law"]

#: mass allowed outside the window (both tails together)
DEFAULT_TOLERANCE = 1e-12
#: most grid points of one FFT (2**22: ~0.6 s and ~0.5 GB at N = 1e6)
DEFAULT_MAX_GRID = 1 << 22
#: below this many points the whole support is laid out (no tail to bound)
_SMALL_GRID = 1 << 16


@dataclass(frozen=True, eq=False)
class SessionLaw:
    """The law of the total win ``S`` of ``n_rounds`` paid rounds, on a grid, with its error.

    ``pmf[i]`` is the computed ``P(S = first + i * step)`` (credits). Every event's probability
    read from it is within :attr:`error_bound` of the truth (and CDF arguments within
    ``blur`` credits, when the law was coarsened).

    Attributes
    ----------
    n_rounds, credits_per_bet : int
    first, step : int
        Credits of ``pmf[0]``, credits between grid points.
    pmf : numpy.ndarray
        float64, >= 0 (roundoff below 0 cut: that only moves a value towards the truth).
    mean, variance : Fraction or float
        Of one round's win (bets, bets squared): exact for an exact law.
    tail_bound, roundoff_bound, input_bound, cumulative_bound : float
        The parts of the error (module docstring).
    blur : float
        Credits by which a CDF argument may be off (0 unless coarsened).
    blur_bound : float
        Probability that the coarsening moved the total by more than ``blur`` (each side).
    """

    n_rounds: int
    credits_per_bet: int
    first: int
    step: int
    pmf: np.ndarray
    mean: Fraction | float
    variance: Fraction | float
    tail_bound: float
    roundoff_bound: float
    input_bound: float
    cumulative_bound: float
    blur: float = 0.0
    blur_bound: float = 0.0

    @property
    def error_bound(self) -> float:
        """Bound on the error of any event's probability (CDF values: see
        :meth:`cdf_bounds`)."""
        return self.tail_bound + self.roundoff_bound + self.input_bound + self.cumulative_bound

    @property
    def exact_lattice(self) -> bool:
        """Whether the grid is the law's own lattice (no coarsening: ``blur == 0``)."""
        return self.blur == 0

    @cached_property
    def totals(self) -> np.ndarray:
        """The total win (credits) of each grid point."""
        return self.first + self.step * np.arange(len(self.pmf), dtype=np.int64)

    @cached_property
    def net_bets(self) -> np.ndarray:
        """The net result (bets) of each grid point: total win / stake - rounds."""
        return self.totals / self.credits_per_bet - self.n_rounds

    @cached_property
    def _cumulative(self) -> np.ndarray:
        return np.cumsum(self.pmf)

    def _points_at_most(self, credits: float) -> int:
        """How many grid points are <= ``credits``."""
        i = math.floor((credits - self.first) / self.step) + 1
        return min(max(i, 0), len(self.pmf))

    def cdf(self, credits: float) -> float:
        """The computed ``P(S <= credits)``.

        Examples
        --------
        >>> from slotmath.exact.distribution import WinDistribution
        >>> coin = WinDistribution.from_mapping({0: 1, 2: 1}, 1)   # 0 or 2 bets, evens
        >>> s = session_law(coin, 3)
        >>> [round(s.cdf(x), 12) for x in (2, 2.5, -1, 6)]
        [0.5, 0.5, 0.0, 1.0]
        """
        i = self._points_at_most(credits)
        return float(self._cumulative[i - 1]) if i else 0.0

    @cached_property
    def _survival(self) -> np.ndarray:
        """``_survival[i]`` = sum of ``pmf[i:]`` (summed from the top, so small upper tails
        keep their relative accuracy)."""
        return np.cumsum(self.pmf[::-1])[::-1]

    def above(self, credits: float) -> float:
        """The computed ``P(S > credits)`` (summed over the grid points above ``credits``, not
        ``1 - cdf``).

        Examples
        --------
        >>> from slotmath.exact.distribution import WinDistribution
        >>> s = session_law(WinDistribution.from_mapping({0: 1, 2: 1}, 1), 3)
        >>> round(s.above(2), 12), s.above(6), round(s.above(-1), 12)
        (0.5, 0.0, 1.0)
        """
        i = self._points_at_most(credits)
        return float(self._survival[i]) if i < len(self.pmf) else 0.0

    def above_bounds(self, credits: float) -> tuple[float, float]:
        """Bounds on the true ``P(S > credits)`` (as :meth:`cdf_bounds`)."""
        slack = self.error_bound + self.blur_bound
        low = self.above(credits + self.blur) - slack
        high = self.above(credits - self.blur) + slack
        return max(0.0, low), min(1.0, high)

    def cdf_bounds(self, credits: float) -> tuple[float, float]:
        """Bounds on the true ``P(S <= credits)``: the computed CDF ``blur`` credits either
        side, widened by :attr:`error_bound` (and ``blur_bound``), cut to [0, 1]."""
        slack = self.error_bound + self.blur_bound
        low = self.cdf(credits - self.blur) - slack
        high = self.cdf(credits + self.blur) + slack
        return max(0.0, low), min(1.0, high)

    def below(self, credits: float) -> float:
        """The computed ``P(S < credits)``."""
        i = math.ceil((credits - self.first) / self.step)
        i = min(max(i, 0), len(self.pmf))
        return float(self._cumulative[i - 1]) if i else 0.0

    def below_bounds(self, credits: float) -> tuple[float, float]:
        """Bounds on the true ``P(S < credits)`` (as :meth:`cdf_bounds`)."""
        slack = self.error_bound + self.blur_bound
        low = self.below(credits - self.blur) - slack
        high = self.below(credits + self.blur) + slack
        return max(0.0, low), min(1.0, high)

    def quantile_credits(self, q: float) -> tuple[float, float, float]:
        """``(value, lower, upper)`` of the ``q``-quantile of ``S`` (the smallest ``x`` with
        ``P(S <= x) >= q``): the computed one and bounds on the true one (credits)."""
        if not 0 < q < 1:
            raise ValueError(f"a quantile level is in (0, 1), got {q}")
        c = self._cumulative
        slack = self.error_bound + self.blur_bound

        def at(level):
            i = int(np.searchsorted(c, level, side="left"))
            return float(self.totals[min(i, len(c) - 1)]) if i < len(c) else math.inf

        value = at(q)
        lower = at(q - slack) - self.blur
        upper = at(q + slack) + self.blur
        if q - slack <= 0:
            lower = -math.inf
        return value, lower, upper


# ---------------------------------------------------------------------------------------------
# Building the law
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Lattice:
    """A round's law on the lattice ``unit * x`` (x int, sorted unique), with its TV error."""

    x: np.ndarray
    p: np.ndarray
    unit: int
    error: float


def _coarsen(lattice: _Lattice, factor: int) -> _Lattice:
    """Mean-preserving split onto a lattice ``factor`` times as coarse."""
    low, rest = np.divmod(lattice.x, factor)
    share = rest / factor
    points = np.concatenate([low, low + 1])
    mass = np.concatenate([lattice.p * (1 - share), lattice.p * share])
    keep = mass > 0
    x, inverse = np.unique(points[keep], return_inverse=True)
    p = np.bincount(inverse, weights=mass[keep], minlength=len(x))
    counts = np.bincount(inverse, minlength=len(x))
    # the split rounds each piece (u) and each merged bin adds its pieces (count - 1) u
    error = lattice.error + 2 * U + U * float(max(int(counts.max()) - 1, 0))
    return _Lattice(x.astype(np.int64), p / math.fsum(p), lattice.unit * factor, error)


def _window(y: np.ndarray, p: np.ndarray, n: int, tolerance: float) -> tuple[int, int]:
    """``[lo, hi]`` (integers) holding all but ``tolerance`` of the sum of ``n`` copies of
    ``y``: the whole support when it is small, else the Chernoff points (each tail
    ``tolerance / 2``) cut to the support."""
    full_lo, full_hi = n * int(y[0]), n * int(y[-1])
    if full_hi - full_lo + 1 <= _SMALL_GRID:
        return full_lo, full_hi
    log_tol = math.log(tolerance / 2)
    hi = min(full_hi, math.ceil(chernoff_upper_point(y, p, n, log_tol)))
    lo = max(full_lo, math.floor(chernoff_lower_point(y, p, n, log_tol)))
    return lo, max(hi, lo)


def session_law(law, n_rounds: int, *, tolerance: float = DEFAULT_TOLERANCE,
                max_grid: int = DEFAULT_MAX_GRID) -> SessionLaw:
    """The law of the total win of ``n_rounds`` paid rounds (module docstring for the method
    and its error).

    Parameters
    ----------
    law : win distribution or PlayerLaw
        One round's win law (:func:`~slotmath.player.law.as_player_law`).
    n_rounds : int
        ``N >= 1``.
    tolerance : float
        Most mass allowed outside the grid (both tails).
    max_grid : int
        Most grid points (a power of two is used); beyond it the law is coarsened.

    Returns
    -------
    SessionLaw

    Examples
    --------
    Three rounds of a game paying 0 or 2 bets at evens: ``S / 2`` is Binomial(3, 1/2).

    >>> from slotmath.exact.distribution import WinDistribution
    >>> s = session_law(WinDistribution.from_mapping({0: 1, 2: 1}, 1), 3)
    >>> s.totals.tolist(), [round(float(p) * 8, 12) for p in s.pmf]
    ([0, 2, 4, 6], [1.0, 3.0, 3.0, 1.0])
    >>> s.error_bound < 1e-13, s.tail_bound
    (True, 0.0)
    """
    law = as_player_law(law)
    n = int(n_rounds)
    if n < 1:
        raise ValueError(f"n_rounds must be >= 1, got {n_rounds!r}")
    if not 0 < tolerance < 1:
        raise ValueError(f"tolerance must be in (0, 1), got {tolerance!r}")
    unit = law.unit
    lattice = _Lattice(law.credits // unit, law.probs, unit, law.error)
    factor = 1
    while True:
        m0 = int(np.rint(float(np.sum(lattice.x.astype(np.float64) * lattice.p))))
        y = lattice.x - m0
        lo, hi = _window(y, lattice.p, n, tolerance)
        span = hi - lo + 1
        if span <= max_grid:
            break
        grow = max(2, math.ceil(span / max_grid))
        if factor * unit > law.max_credits:  # already two points: coarser cannot help
            raise ValueError(f"{n} rounds need a grid of more than max_grid = {max_grid} "
                             "points")
        factor *= grow
        lattice = _coarsen(_Lattice(law.credits // unit, law.probs, unit, law.error), factor)
    size = next_power_of_two(span)
    full_lo, full_hi = n * int(y[0]), n * int(y[-1])
    if full_hi - full_lo + 1 <= size:
        lo, tail = full_lo, 0.0
    else:
        lo = max(full_lo, min(lo - (size - span) // 2, full_hi - size + 1))
        tail = (chernoff_upper_tail(y, lattice.p, n, lo + size)
                + chernoff_lower_tail(y, lattice.p, n, lo - 1))
    pmf, roundoff, binning = _power(y, lattice.p, n, size, lo)
    blur, blur_bound = 0.0, 0.0
    if factor > 1:
        h = lattice.unit
        blur_bound = tolerance / 2
        blur = h * math.sqrt(n * math.log(1 / blur_bound) / 2)
    return SessionLaw(
        n_rounds=n, credits_per_bet=law.credits_per_bet,
        first=lattice.unit * (lo + n * m0), step=lattice.unit, pmf=pmf,
        mean=law.mean, variance=law.variance, tail_bound=min(tail, 1.0),
        roundoff_bound=roundoff, input_bound=n * (lattice.error + binning),
        cumulative_bound=len(pmf) * U, blur=blur, blur_bound=blur_bound)


def _power(y: np.ndarray, p: np.ndarray, n: int, size: int, lo: int
           ) -> tuple[np.ndarray, float, float]:
    """``(pmf, roundoff bound, binning error)``: the law of the sum of ``n`` copies of ``y``
    on ``[lo, lo + size)`` read from the cyclic grid of ``size`` points."""
    residues = np.mod(y, size)
    grid = np.bincount(residues, weights=p, minlength=size)
    counts = np.bincount(residues, minlength=size)
    binning = U * float(max(int(counts.max()) - 1, 0))
    del counts
    total = math.fsum(p)
    if n == 1:
        pmf = np.roll(grid, -(lo % size))
        return pmf, 0.0, binning
    beta = fft_beta(size)
    phi = np.fft.rfft(grid)
    del grid
    r = np.abs(phi)
    theta = np.angle(phi)
    del phi
    with np.errstate(divide="ignore"):
        log_r = np.log(r)
    live = np.isfinite(log_r)
    power = np.zeros(len(r))
    power[live] = np.exp(n * log_r[live])
    spectrum = power * np.exp(1j * (n * theta))
    # error of the spectrum, per coefficient (module docstring)
    err = np.zeros(len(r))
    with np.errstate(divide="ignore"):
        err += n * beta * total * np.exp((n - 1) * np.log(r + beta * total))
    err[live] += power[live] * U * (n * (2 * np.abs(log_r[live]) + 2 * np.abs(theta[live])) + 8)
    del r, theta, log_r
    weights = np.full(len(err), 2.0)
    weights[0] = 1.0
    weights[-1] = 1.0  # (size is even: the last coefficient is the Nyquist one)
    spectrum_l2_error = math.sqrt(float(np.sum(weights * err * err)))
    spectrum_l1 = float(np.sum(weights * power))
    del err, power
    roundoff = (spectrum_l2_error + beta * spectrum_l1) * (1 + 1e-9) + 1e-300
    cyclic = np.fft.irfft(spectrum, n=size)
    del spectrum
    pmf = np.roll(cyclic, -(lo % size))
    np.clip(pmf, 0.0, None, out=pmf)
    return pmf, roundoff, binning
