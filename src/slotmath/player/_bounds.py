"""The error model shared by the player's-view engines: FFT roundoff, Chernoff tails, the
Lundberg exponent, and the normal (diffusion) approximations printed beside the exact figures.

FFT roundoff. numpy's FFT (pocketfft) on a power-of-two length ``L`` is a Cooley-Tukey
algorithm: ``t = log2 L`` levels of butterflies ``(a, b) -> (a + w b, a - w b)`` with twiddle
factors ``w`` computed to about one unit roundoff ``u = 2**-53``. We take each level's relative
error as ``eta = mu + sqrt(2) gamma_2 + u`` with ``mu = 2u`` (twiddle error), ``gamma_2 = 2u / (1 -
2u)`` (a complex product) and ``u`` (a complex sum), and one more level for a real transform
(``t + 1``). Two bounds follow (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
section 24.1):

- componentwise (:func:`fft_beta`): every output is off by at most ``beta ||x||_1`` with
  ``beta = (1 + eta)**(t + 1) - 1``: a butterfly network joins each input to each output by
  exactly one path of unit-modulus factors, so the errors of the levels compound along one path
  and add over the inputs;
- normwise (:func:`fft_rho`, Higham's Theorem 24.2): ``||fl(F x) - F x||_2 <= rho ||F x||_2``
  with ``rho = t' eta' / (1 - t' eta')``, ``eta' = mu + gamma_4 (sqrt(2) + mu)``.

pocketfft's radix-4 passes do less arithmetic per two levels than two radix-2 levels, so the
radix-2 constants are an over-estimate for them. That is an assumption about the library, not
a proof; ``tests/test_player.py`` measures the actual error against exact integer convolution
and checks that it stays below these bounds.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import log_ndtr, logsumexp, ndtr

from slotmath.player.law import UNIT_ROUNDOFF as U

__all__ = [
    "chernoff_lower_point",
    "chernoff_lower_tail",
    "chernoff_upper_point",
    "chernoff_upper_tail",
    "diffusion_ruin",
    "fft_beta",
    "fft_rho",
    "lundberg_exponent",
    "maximal_tail",
    "next_power_of_two",
    "normal_cdf",
]

_MU = 2 * U
_GAMMA2 = 2 * U / (1 - 2 * U)
_GAMMA4 = 4 * U / (1 - 4 * U)


def next_power_of_two(n: int) -> int:
    """The smallest power of two >= ``n`` (and >= 2).

    >>> next_power_of_two(1), next_power_of_two(5), next_power_of_two(8)
    (2, 8, 8)
    """
    return max(2, 1 << (int(n) - 1).bit_length())


def fft_beta(length: int) -> float:
    """Componentwise relative bound of a real FFT of power-of-two ``length`` (module text).

    >>> 1e-15 < fft_beta(2**20) < 1e-13
    True
    """
    levels = int(length).bit_length()  # log2(length) + 1 for a power of two
    eta = _MU + math.sqrt(2) * _GAMMA2 + U
    return math.expm1(levels * math.log1p(eta)) * (1 + 1e-12)


def fft_rho(length: int) -> float:
    """Normwise relative bound of a real FFT of power-of-two ``length`` (Higham Thm 24.2).

    >>> 1e-15 < fft_rho(2**20) < 1e-13
    True
    """
    levels = int(length).bit_length()
    eta = _MU + _GAMMA4 * (math.sqrt(2) + _MU)
    return levels * eta / (1 - levels * eta)


# ---------------------------------------------------------------------------------------------
# Chernoff bounds for sums of n independent copies of an integer variable y (law p)
# ---------------------------------------------------------------------------------------------
def _cgf(theta: float, y: np.ndarray, p: np.ndarray) -> float:
    """log E[exp(theta y)], stably."""
    return float(logsumexp(theta * y, b=p))


def _slack(theta: float, y: np.ndarray, n: int) -> float:
    """How far a float64 ``n * cgf(theta)`` can be from the true one: the exponent of each
    term is off by u |theta y|, the (pairwise) sum of m terms by m u, the log by u."""
    return n * U * (2 * abs(theta) * float(np.max(np.abs(y))) + len(y) + 4) + 1e-12


def _theta_range(y: np.ndarray, p: np.ndarray, n: int) -> tuple[float, float]:
    spread = float(np.sqrt(max(np.sum(p * y.astype(np.float64) ** 2), 1.0)))
    top = float(max(np.max(np.abs(y)), 1))
    return math.log(1e-9 / (spread * math.sqrt(n) + top)), math.log(700.0 / top)


def _best(objective, y, p, n) -> float:
    """The theta (log-scale search) that minimises a quasi-convex Chernoff objective; any theta
    gives a valid bound, the search only makes it sharp."""
    lo, hi = _theta_range(y, p, n)
    result = minimize_scalar(lambda s: objective(math.exp(s)), bounds=(lo, hi),
                             method="bounded", options={"xatol": 1e-4})
    return math.exp(float(result.x))


def chernoff_upper_point(y: np.ndarray, p: np.ndarray, n: int, log_tol: float) -> float:
    """A point ``t`` with ``P(y_1 + ... + y_n >= t) <= exp(log_tol)``: ``min over theta > 0
    of (n K(theta) - log_tol) / theta`` (Chernoff), K the cumulant generating function.

    >>> y, p = np.array([-1, 1]), np.array([0.5, 0.5])
    >>> t = chernoff_upper_point(y, p, 100, math.log(1e-6))
    >>> 50 < t < 60     # Hoeffding would give sqrt(2 * 100 * ln 1e6) = 52.6
    True
    """
    def objective(theta):
        return (n * _cgf(theta, y, p) + _slack(theta, y, n) - log_tol) / theta
    return objective(_best(objective, y, p, n))


def chernoff_lower_point(y: np.ndarray, p: np.ndarray, n: int, log_tol: float) -> float:
    """A point ``t`` with ``P(y_1 + ... + y_n <= t) <= exp(log_tol)``."""
    return -chernoff_upper_point(-y, p, n, log_tol)


def chernoff_upper_tail(y: np.ndarray, p: np.ndarray, n: int, t: float) -> float:
    """A bound on ``P(y_1 + ... + y_n >= t)``: ``min over theta > 0 of exp(n K(theta) -
    theta t)`` (1 when no theta helps).

    >>> y, p = np.array([-1, 1]), np.array([0.5, 0.5])
    >>> chernoff_upper_tail(y, p, 100, 101)   # beyond the support: the bound is ~0
    0.0
    >>> chernoff_upper_tail(y, p, 100, 0)
    1.0
    """
    if t > n * float(np.max(y)):
        return 0.0

    def objective(theta):
        return n * _cgf(theta, y, p) + _slack(theta, y, n) - theta * t
    best = objective(_best(objective, y, p, n))
    return min(1.0, math.exp(best)) if best < 0 else 1.0


def chernoff_lower_tail(y: np.ndarray, p: np.ndarray, n: int, t: float) -> float:
    """A bound on ``P(y_1 + ... + y_n <= t)``."""
    return chernoff_upper_tail(-y, p, n, -t)


def maximal_tail(y: np.ndarray, p: np.ndarray, n: int, depth: float) -> float:
    """A bound on ``P(min over k <= n of (y_1 + ... + y_k) <= -depth)`` for ``depth > 0``.

    For theta > 0, ``exp(-theta W_k) / M(theta)**k`` is a martingale (``M(theta) =
    E exp(-theta y)``), so by Doob's maximal inequality the probability is at most
    ``exp(-theta depth) * max(1, M(theta))**n``; minimised over theta.

    >>> y, p = np.array([-1, 1]), np.array([0.5, 0.5])
    >>> maximal_tail(y, p, 10, 11)    # the walk cannot go down 11 in 10 steps
    0.0
    """
    if depth > n * float(-np.min(y)):
        return 0.0

    def objective(theta):
        k = _cgf(-theta, y, p)
        return n * max(k, 0.0) + _slack(theta, y, n) - theta * depth
    best = objective(_best(objective, y, p, n))
    return min(1.0, math.exp(best)) if best < 0 else 1.0


def lundberg_exponent(y: np.ndarray, p: np.ndarray) -> float:
    """A ``R > 0`` with ``E exp(R y) <= 1`` for a walk of negative drift: then ``P(sup_k
    (y_1 + ... + y_k) >= s) <= exp(-R s)`` (Lundberg's inequality; ``exp(R W_k)`` is a
    supermartingale). ``inf`` when ``y <= 0`` always, 0 when the drift is not negative.

    The root of ``log E exp(R y) = 0`` is bracketed by bisection and the lower end returned,
    with the float64 error of the cumulant generating function kept on the safe side.

    >>> y, p = np.array([-1, 2]), np.array([0.75, 0.25])   # E y = -1/4
    >>> R = lundberg_exponent(y, p)
    >>> abs(R - math.log((math.sqrt(13) - 1) / 2)) < 1e-9   # x^3 - 4x + 3 = 0, x = e^R
    True
    """
    if float(np.max(y)) <= 0:
        return math.inf
    if float(np.sum(p * y)) >= 0:
        return 0.0
    hi = 1.0 / float(np.max(y))
    while _cgf(hi, y, p) <= 0:
        hi *= 2
    lo = 0.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _cgf(mid, y, p) + _slack(mid, y, 1) <= 0:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * hi:
            break
    return lo


# ---------------------------------------------------------------------------------------------
# Normal approximations
# ---------------------------------------------------------------------------------------------
def normal_cdf(x, mean: float, sd: float):
    """The normal CDF (vectorised); a point mass at ``mean`` when ``sd`` is 0.

    >>> float(normal_cdf(0.0, 0.0, 1.0))
    0.5
    """
    x = np.asarray(x, dtype=np.float64)
    if sd == 0:
        return (x >= mean).astype(np.float64)
    return ndtr((x - mean) / sd)


def diffusion_ruin(drift: float, sd: float, barrier: float, n: float) -> float:
    """P(a Brownian motion with ``drift`` and ``sd`` per round, started at 0, reaches
    ``-barrier`` by time ``n``): the first-passage law of drifted Brownian motion,
    ``Phi((-b - m n) / (s sqrt n)) + exp(-2 m b / s^2) Phi((-b + m n) / (s sqrt n))``.

    >>> round(diffusion_ruin(0.0, 1.0, 1.0, 1.0), 6)   # 2 P(Z <= -1), reflection principle
    0.317311
    """
    if barrier <= 0:
        return 1.0
    if n <= 0:
        return 0.0
    if sd == 0:
        return 1.0 if drift * n <= -barrier else 0.0
    root = sd * math.sqrt(n)
    first = float(ndtr((-barrier - drift * n) / root))
    log_second = -2 * drift * barrier / sd**2 + float(log_ndtr((-barrier + drift * n) / root))
    return min(1.0, first + math.exp(log_second))
