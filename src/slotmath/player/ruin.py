"""The risk of ruin: P(a bankroll of B bets falls below one bet within N rounds).

Model. The player starts with ``B`` bets (``B * credits_per_bet`` credits), pays one bet per
round and receives the round's win ``X >= 0``. Play stops when the balance is below one bet
(the player cannot place the next one). *Ruined within N rounds* means that happens after one
of rounds ``1 .. N``; so ``B = 1`` is ruined at round 1 by any win below the stake. The walk
is path-dependent (a player who is ruined stops), so the figure is not a function of the law of
the total win: it needs a recursion over the balance with the absorbing barrier.

The recursion (dynamic programming over the balance). Balances are multiples of ``v``, the gcd
of the win amounts and the stake. After round ``k`` the state vector holds the probability of
each balance ``b`` of a player still playing; one round maps it through the round's law (a
convolution) and the mass that lands below one bet is the ruin at that round. Two facts keep
it finite and exact:

- a round loses at most one bet (``X >= 0``), so a balance of at least ``N - k + 1`` bets
  after round ``k`` can never be ruined within ``N``: that mass leaves the recursion as *safe*,
  exactly. The state space is therefore at most ``N`` bets wide, whatever the wins.
- nothing else is cut in the exact recursions.

Three methods, chosen by cost (``method="auto"``):

``exact``
    Integer weights (Python ints) for an exact law: after ``k`` rounds they sum to
    ``total**k``, and the ruin by round ``k`` is an exact ``Fraction``. Used while
    its estimated time (:func:`ruin_plan`) is within ``max_seconds``.
``float64``
    The same recursion in float64, with a rigorous bound: each round's convolution (direct,
    with ``gamma_m``, or by FFT, with Higham's normwise bound, the L2 error turned into L1 by
    the square root of the number of entries) adds its roundoff, and a round is an L1
    contraction, so the errors add. States above a level ``H`` from which the ruin within the
    remaining rounds is at most :data:`TRUNCATION` (Doob's maximal inequality,
    :func:`~slotmath.player._bounds.maximal_tail`) are also moved out as safe; their mass times
    that bound is added to the upper bound only. Plus ``N`` times the round law's own error
    (coupling). Used while its estimated time is within ``max_seconds``.
``bounds``
    Beyond that, rigorous bounds at each requested round count ``n`` from the law of the
    total win (:func:`~slotmath.player.session.session_law`, error bounded):
    a lower bound, ``P(W_n < -(B - 1) bets)`` (ruined by ``n`` if the free walk ends below
    the barrier); an upper bound, the smaller of Doob's maximal inequality and
    ``P(W_n < -(B - 1) bets + s) / (1 - exp(-R s))`` minimised over ``s > 0``, where ``R``
    is the Lundberg exponent of the round's net result (``E exp(R (X - bet)) <= 1``): on the
    event of ruin at round ``k``, the walk ends below the barrier plus ``s`` unless its rise
    over the remaining rounds reaches ``s``, which has probability at most ``exp(-R s)``.
    No point value is given: ``value`` is None and the diffusion figure is printed beside.

All three work with the probabilities held (``PlayerLaw.probs``); the true law's ruin differs
from theirs by at most ``N`` times the law's error (couple the rounds), which every bound adds.

Every figure carries the normal approximation: the first-passage law of a Brownian motion
with the round's drift ``RTP - 1`` and variance, from 0 to ``-(B - 1)`` bets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.optimize import minimize_scalar

from slotmath.player._bounds import (
    _GAMMA2,
    _cgf,
    _slack,
    diffusion_ruin,
    fft_rho,
    lundberg_exponent,
    maximal_tail,
    next_power_of_two,
)
from slotmath.player.law import UNIT_ROUNDOFF as U
from slotmath.player.law import PlayerLaw, as_player_law
from slotmath.player.result import PlayerFigure
from slotmath.player.session import session_law

__all__ = ["DEFAULT_SECONDS", "TRUNCATION", "RuinCurve", "ruin_curve",
           "ruin_plan", "ruin_probability"]

#: seconds (estimated by :func:`ruin_plan`) a recursion may take before ``auto`` moves on
DEFAULT_SECONDS = 10.0
#: ruin bound below which a high balance leaves the float64 recursion as safe
TRUNCATION = 1e-13


@dataclass(frozen=True, eq=False)
class RuinCurve:
    """The risk of ruin by each round count of ``rounds``, for a bankroll of ``bankroll`` bets.

    Attributes
    ----------
    bankroll, n_rounds : int
    rounds : numpy.ndarray
        Round counts (int64, increasing, the last is ``n_rounds``).
    value : numpy.ndarray
        Computed P(ruined by round n) (float64; NaN where only bounds are known).
    lower, upper : numpy.ndarray
        Bounds on the true probability.
    normal : numpy.ndarray
        The diffusion approximation.
    exact : tuple of Fraction or None
        The exact probabilities (method ``exact`` only).
    method : str
        ``"exact"``, ``"float64"`` or ``"bounds"``.
    """

    bankroll: int
    n_rounds: int
    rounds: np.ndarray
    value: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    normal: np.ndarray
    exact: tuple[Fraction, ...] | None
    method: str

    def figure(self) -> PlayerFigure:
        """The risk of ruin within ``n_rounds`` as a :class:`PlayerFigure`."""
        if self.exact is not None:
            value = self.exact[-1]
        elif np.isnan(self.value[-1]):
            value = None
        else:
            value = float(self.value[-1])
        return PlayerFigure(value, float(self.lower[-1]), float(self.upper[-1]),
                            float(self.normal[-1]), self.method)


@dataclass(frozen=True)
class _Walk:
    """The round's law on the balance lattice: wins ``x`` (units of ``v``), stake ``c``."""

    x: np.ndarray
    p: np.ndarray
    c: int
    v: int
    weights: tuple[int, ...] | None
    total: int | None

    @property
    def y(self) -> np.ndarray:
        return self.x - self.c


def _walk(law: PlayerLaw) -> _Walk:
    v = math.gcd(law.unit, law.credits_per_bet)
    return _Walk(law.credits // v, law.probs, law.credits_per_bet // v, v, law.weights,
                 law.total)


def _check(bankroll, n_rounds) -> tuple[int, int]:
    for name, value in (("bankroll", bankroll), ("n_rounds", n_rounds)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return int(bankroll), int(n_rounds)


# ---------------------------------------------------------------------------------------------
# Work estimates and the choice of method
# ---------------------------------------------------------------------------------------------
def _state_widths(walk: _Walk, bankroll: int, n: int, cap=None) -> np.ndarray:
    """Width (lattice points) of the live state vector before each round ``k = 0 .. n-1``."""
    k = np.arange(n, dtype=np.float64)
    reach = bankroll * walk.c + k * max(int(walk.x[-1]) - walk.c, 0) + 1
    width = np.minimum((n - k) * walk.c, reach - walk.c)
    if cap is not None:
        width = np.minimum(width, cap)
    return np.maximum(width, 1)


def _step_cost(widths, walk: _Walk):
    """Seconds (roughly, measured on a 2-core machine at load 1) of one float64 round at each
    width: direct (one numpy operation per amount) or by FFT (three real transforms)."""
    widths = np.asarray(widths, dtype=np.float64)
    m = len(walk.x)
    size = 2.0 ** np.ceil(np.log2(widths + walk.x[-1] + 1))
    direct = m * (1000 + widths)
    fft = 1.5 * size * np.log2(size) + 8 * size + 20000
    return np.minimum(direct, fft) * 1e-9


def ruin_plan(law, bankroll: int, n_rounds: int, max_seconds: float = DEFAULT_SECONDS) -> dict:
    """The rough time each recursion would take and the method ``method="auto"`` picks: the
    exact one if it fits in ``max_seconds``, else float64 if it fits, else bounds.

    Returns
    -------
    dict
        ``{"exact": seconds or None (inexact law), "float64": seconds, "method": name}``.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> ruin_plan(WinDistribution.from_mapping({0: 1, 2: 1}, 1), 5, 100)["method"]
    'exact'
    """
    law = as_player_law(law)
    bankroll, n = _check(bankroll, n_rounds)
    walk = _walk(law)
    exact_widths = _state_widths(walk, bankroll, n)
    cap = np.concatenate(([np.inf], _truncation_levels(walk, n)[:-1]))
    widths = _state_widths(walk, bankroll, n, cap)
    exact = None
    if law.exact:  # big-integer operations: ~5 ns per 64-bit limb of weight, per amount
        limbs = 1 + np.arange(n) * walk.total.bit_length() / 64
        exact = (float(np.sum(exact_widths * limbs)) * len(walk.x) * 5e-9
                 + n * len(walk.x) * 2e-6)
    floats = float(np.sum(_step_cost(widths, walk)))
    if bankroll > n:
        method = "exact" if law.exact else "float64"
    elif exact is not None and exact <= max_seconds:
        method = "exact"
    elif floats <= max_seconds:
        method = "float64"
    else:
        method = "bounds"
    return {"exact": exact, "float64": floats, "method": method}


# ---------------------------------------------------------------------------------------------
# The exact recursion
# ---------------------------------------------------------------------------------------------
def _exact_recursion(walk: _Walk, bankroll: int, n: int) -> list[Fraction]:
    """P(ruined by round k) for k = 1 .. n, exactly (integer weights)."""
    c, x, w, total = walk.c, [int(a) for a in walk.x], walk.weights, walk.total
    state = np.zeros(bankroll * walk.c - c + 1, dtype=object)  # index: balance - c
    state[:] = 0
    state[-1] = 1
    ruined_by = []
    ruined = Fraction(0)
    scale = 1  # total**k
    for k in range(n):
        keep = (n - k) * c - c  # live balances after round k+1 are < (n-k) c: index < this
        full = np.zeros(len(state) + x[-1], dtype=object)
        full[:] = 0
        for xj, wj in zip(x, w):
            full[xj:xj + len(state)] += state * wj
        scale *= total
        ruined += Fraction(int(sum(full[:c])), scale)
        ruined_by.append(ruined)
        state = full[c:c + max(keep, 0)]
        nonzero = np.flatnonzero(state != 0)
        state = state[:nonzero[-1] + 1] if len(nonzero) else state[:0]
        if len(state) == 0:
            ruined_by.extend([ruined] * (n - k - 1))
            break
    return ruined_by


# ---------------------------------------------------------------------------------------------
# The float64 recursion with its bound
# ---------------------------------------------------------------------------------------------
def _maximal_depth(walk: _Walk, n: int, log_tol: float) -> float:
    """A depth ``d`` with P(the walk goes down ``d`` within ``n`` rounds) <= exp(log_tol)."""
    y = walk.y
    p = walk.p

    def objective(theta):
        k = _cgf(-theta, y, p)
        return (n * max(k, 0.0) + _slack(theta, y, n) - log_tol) / theta
    spread = float(np.sqrt(max(np.sum(p * y.astype(np.float64) ** 2), 1.0)))
    top = float(max(np.max(np.abs(y)), 1))
    lo, hi = math.log(1e-9 / (spread * math.sqrt(n) + top)), math.log(700.0 / top)
    best = minimize_scalar(lambda s: objective(math.exp(s)), bounds=(lo, hi), method="bounded",
                           options={"xatol": 1e-4})
    return objective(math.exp(float(best.x)))


def _truncation_levels(walk: _Walk, n: int) -> np.ndarray:
    """For each round k = 1 .. n: the balance index (balance - c) from which the state is
    moved out as safe with ruin bound TRUNCATION within the remaining n - k rounds (inf when
    none is needed). Computed at powers of two of the remaining rounds (the bound grows with
    them, so the level of the next power of two is valid)."""
    levels = np.full(n, np.inf)
    log_tol = math.log(TRUNCATION)
    remaining = n - np.arange(1, n + 1)
    j = 0
    while (1 << j) < 2 * n:  # up to the power of two at or above n - 1
        if j == 0:
            block = remaining <= 1
        else:
            block = (remaining > (1 << (j - 1))) & (remaining <= (1 << j))
        if np.any(block):
            depth = _maximal_depth(walk, 1 << j, log_tol)
            # ruin from balance b needs a drop of b - c + 1 (units of v): safe when
            # b - c + 1 >= depth, i.e. index b - c >= depth - 1
            levels[block] = math.ceil(depth)
        j += 1
    return levels


class _FFTLaw:
    """The round's law on the balance lattice, dense, with its transforms by size."""

    def __init__(self, walk: _Walk):
        self.dense = np.zeros(int(walk.x[-1]) + 1)
        self.dense[walk.x] = walk.p
        self.l1 = math.fsum(walk.p)
        self.l2 = math.sqrt(float(np.sum(walk.p * walk.p)))
        self._spectra: dict[int, np.ndarray] = {}

    def spectrum(self, size: int) -> np.ndarray:
        if size not in self._spectra:
            self._spectra = {size: np.fft.rfft(self.dense, size)}
        return self._spectra[size]


def _float_recursion(walk: _Walk, bankroll: int, n: int
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ruined by round k, roundoff bound by k, truncation bound by k), k = 1 .. n."""
    c, x, p, m = walk.c, walk.x, walk.p, len(walk.x)
    gamma = (m + 1) * U / (1 - (m + 1) * U)
    levels = _truncation_levels(walk, n)
    dense = _FFTLaw(walk)
    state = np.zeros(bankroll * c - c + 1)
    state[-1] = 1.0
    ruined = np.empty(n)
    roundoff = np.empty(n)
    truncated = np.empty(n)
    total_ruined = 0.0
    total_error = 0.0
    total_cut = 0.0
    for k in range(n):
        width = len(state)
        mass = float(np.sum(state)) * (1 + 1e-9)  # an upper bound (a pairwise sum)
        size = next_power_of_two(width + int(x[-1]))
        direct_cost, fft_cost = m * (1000 + width), 1.5 * size * math.log2(size) + 8 * size
        if direct_cost <= fft_cost + 20000:
            full = np.zeros(width + int(x[-1]))
            for xj, pj in zip(x, p):
                full[xj:xj + width] += state * pj
            used = min(len(full), (n - k) * c)
            error = gamma * mass
        else:
            product = np.fft.rfft(state, size) * dense.spectrum(size)
            full = np.fft.irfft(product, size)[:width + int(x[-1])]
            used = min(len(full), (n - k) * c)
            rho = fft_rho(size)
            norm = rho * (math.sqrt(float(np.sum(state * state))) * dense.l1 + mass * dense.l2)
            norm += (rho + math.sqrt(2) * _GAMMA2) * math.sqrt(float(np.sum(full * full)))
            error = math.sqrt(used) * norm * 1.01
        np.clip(full, 0.0, None, out=full)
        total_ruined += math.fsum(full[:c])
        live = max((n - k) * c - c, 0)  # index bound of live balances after round k + 1
        cut = int(min(live, levels[k]))
        state = full[c:c + cut]
        if cut < live:
            total_cut += float(np.sum(full[c + cut:c + live])) * (1 + 1e-9) * TRUNCATION
        nonzero = np.flatnonzero(state)
        state = state[:nonzero[-1] + 1] if len(nonzero) else state[:0]
        total_error += error + (c + 4) * U
        ruined[k] = total_ruined
        roundoff[k] = total_error
        truncated[k] = total_cut
        if len(state) == 0:
            ruined[k + 1:] = total_ruined
            roundoff[k + 1:] = total_error
            truncated[k + 1:] = total_cut
            break
    return ruined, roundoff, truncated


# ---------------------------------------------------------------------------------------------
# Bounds from the law of the total win
# ---------------------------------------------------------------------------------------------
def _bounds_at(law: PlayerLaw, walk: _Walk, bankroll: int, n: int, exponent: float,
               session=None) -> tuple[float, float]:
    """(lower, upper) bounds of P(ruined by round n) (module docstring, ``bounds``)."""
    cpb = law.credits_per_bet
    if bankroll > n:
        return 0.0, 0.0
    session = session_law(law, n) if session is None else session
    barrier = (n - bankroll + 1) * cpb  # ruin at the end: total win < this
    lower = session.below_bounds(barrier)[0]
    depth = (bankroll - 1) * walk.c + 1  # a drop of this (units of v) ruins
    upper = maximal_tail(walk.y, walk.p, n, depth) + n * law.error
    if exponent > 0:
        slack = session.error_bound + session.blur_bound
        totals = session.totals.astype(np.float64)
        # at each grid point t: P(S <= t - blur) <= computed P(S <= t) + slack, so
        # P(S < barrier + s) <= that for s = t - blur - barrier (> 0); on the law's own
        # lattice (blur 0) the next point is t + step: s = t + step - barrier
        s = totals - barrier + (session.step if session.exact_lattice else -session.blur)
        above = s > 0
        s = s[above]
        ends = session._cumulative[above]
        if math.isinf(exponent):
            ratio = ends + slack
        else:
            with np.errstate(divide="ignore"):
                ratio = (ends + slack) / -np.expm1(-exponent * s / walk.v)
        upper = min(upper, float(np.min(ratio)) if len(ratio) else 1.0)
    return max(0.0, lower), min(1.0, upper)


def _diffusion(law: PlayerLaw, bankroll: int, rounds: np.ndarray) -> np.ndarray:
    drift = float(law.mean) - 1.0
    return np.array([diffusion_ruin(drift, law.std, bankroll - 1.0, float(r)) for r in rounds])


def ruin_curve(law, bankroll: int, n_rounds: int, *, method: str = "auto",
               rounds=None, max_seconds: float = DEFAULT_SECONDS,
               sessions=None) -> RuinCurve:
    """The risk of ruin of a bankroll of ``bankroll`` bets by each round count up to
    ``n_rounds`` (module docstring for the model, the methods and their error).

    Parameters
    ----------
    law : win distribution or PlayerLaw
    bankroll : int
        Starting bankroll in bets (>= 1).
    n_rounds : int
        The horizon ``N`` (>= 1).
    method : {"auto", "exact", "float64", "bounds"}
    rounds : sequence of int, optional
        Round counts to report (each <= N; N is always added). Default: every round for the
        recursions, about 24 log-spaced counts for ``bounds``.
    max_seconds : float
        How long ``auto`` lets a recursion take (estimated, :func:`ruin_plan`).
    sessions : mapping of int to SessionLaw, optional
        Laws of the total win already computed (``bounds`` reads them instead).

    Returns
    -------
    RuinCurve

    Examples
    --------
    A game paying 0 or 2 bets at evens, bankroll 1 bet: ruined at round 1 with probability
    1/2, by round 3 with 1/2 + 1/8 (lose, or win then lose twice).

    >>> from slotmath.exact.distribution import WinDistribution
    >>> coin = WinDistribution.from_mapping({0: 1, 2: 1}, 1)
    >>> curve = ruin_curve(coin, 1, 3)
    >>> curve.exact, curve.method
    ((Fraction(1, 2), Fraction(1, 2), Fraction(5, 8)), 'exact')
    >>> f = ruin_curve(coin, 1, 3, method="float64").figure()
    >>> f.value, f.lower <= 0.625 <= f.upper
    (0.625, True)
    """
    law = as_player_law(law)
    bankroll, n = _check(bankroll, n_rounds)
    if method == "auto":
        method = ruin_plan(law, bankroll, n, max_seconds)["method"]
    if method not in ("exact", "float64", "bounds"):
        raise ValueError(f"method is one of auto, exact, float64, bounds; got {method!r}")
    walk = _walk(law)
    if rounds is None:
        if method == "bounds":
            wanted = np.unique(np.geomspace(1, n, 24).round().astype(np.int64))
        else:
            wanted = np.arange(1, n + 1)
    else:
        wanted = np.unique(np.append(np.asarray(rounds, dtype=np.int64), n))
        if wanted[0] < 1 or wanted[-1] > n:
            raise ValueError(f"rounds must lie in 1 .. {n}")
    index = wanted - 1
    normal = _diffusion(law, bankroll, wanted)
    if method == "exact":
        if not law.exact:
            raise ValueError("the exact recursion needs an exact law (a WinDistribution)")
        if bankroll > n:
            exact = [Fraction(0)] * n
        else:
            exact = _exact_recursion(walk, bankroll, n)
        chosen = tuple(exact[i] for i in index)
        value = np.array([float(f) for f in chosen])
        return RuinCurve(bankroll, n, wanted, value, value.copy(), value.copy(), normal,
                         chosen, "exact")
    if method == "float64":
        if bankroll > n:
            ruined, roundoff, cut = np.zeros(n), np.zeros(n), np.zeros(n)
        else:
            ruined, roundoff, cut = _float_recursion(walk, bankroll, n)
        coupling = np.arange(1, n + 1) * law.error
        value = ruined[index]
        lower = np.clip(value - roundoff[index] - coupling[index], 0.0, 1.0)
        upper = np.clip(value + roundoff[index] + coupling[index] + cut[index], 0.0, 1.0)
        return RuinCurve(bankroll, n, wanted, value, lower, upper, normal, None, "float64")
    exponent = lundberg_exponent(walk.y, walk.p)
    sessions = sessions or {}
    pairs = [_bounds_at(law, walk, bankroll, int(r), exponent, sessions.get(int(r)))
             for r in wanted]
    lower = np.array([a for a, _ in pairs])
    upper = np.array([b for _, b in pairs])
    # ruin by n is non-decreasing in n: carry the bounds along
    lower = np.maximum.accumulate(lower)
    upper = np.minimum.accumulate(upper[::-1])[::-1]
    return RuinCurve(bankroll, n, wanted, np.full(len(wanted), np.nan), lower, upper, normal,
                     None, "bounds")


def ruin_probability(law, bankroll: int, n_rounds: int, *, method: str = "auto",
                     max_seconds: float = DEFAULT_SECONDS) -> PlayerFigure:
    """P(a bankroll of ``bankroll`` bets is ruined within ``n_rounds`` rounds), with bounds
    and the diffusion approximation (:func:`ruin_curve`, at ``n_rounds`` only).

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> coin = WinDistribution.from_mapping({0: 1, 2: 1}, 1)
    >>> ruin_probability(coin, 1, 3).value
    Fraction(5, 8)
    """
    return ruin_curve(law, bankroll, n_rounds, method=method, rounds=[n_rounds],
                      max_seconds=max_seconds).figure()
