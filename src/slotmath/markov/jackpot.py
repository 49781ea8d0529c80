"""Progressive jackpot pools as a Markov renewal process: time between hits, the stationary
pool, the value paid at a hit and the jackpot's long-run RTP.

The model
---------
One pool (Minor, Major, Super, ...) is fed by an endless stream of paid rounds **at one bet
level**: every round bets ``B`` (currency). The long-run figures "at bet level L" therefore
assume that the pool is fed by play at level L only. A real shared pool is fed by every player
at every level, so its growth per round and its hit law mix over levels; that mixed model is
not the one computed here.

Within one round, in this order:

1. **Contribution.** A fraction ``c`` of the bet is contributed; a fraction ``r`` of that
   (``epsilon = r c B``) goes to a reserve for the *next* jackpot, the rest
   (``delta = (1 - r) c B``) into the current pool. Rounds contribute before they are played.
2. **Chances.** The round gets ``K`` chances to hit (bonus-wheel spins), ``K`` random with the
   given law ``P(K = k)``, ``k = 0..kmax``, independent of the pool and of other rounds. Each
   chance hits independently with probability ``p(pool)``, given by a hit-probability law
   (:class:`LinearLaw`, :class:`SaturatingLaw`, :class:`ConstantLaw`) that must not decrease
   with the pool. Any dependence on the bet level is carried by the law's parameters
   (``law.scaled(factor)``).
3. **Hit.** The pool's value is paid; the pool restarts at ``seed + reserve`` and the reserve
   restarts at 0 (the operator adds the seed). A later chance of the same round plays against
   the restarted pool (and may hit it again: the rule sheet locks a jackpot per game round only
   against *other* rounds).

There is no upper limit on the pool; money is a real number (no rounding to cents); the
server-side value is what is paid (the display delay of the rule sheet plays no role).

A **cycle** runs from one hit to the next; its **length** ``N`` is the number of rounds
contributed in between (``N = 0`` when both hits fall in the same round). With ``N_prev`` the
previous cycle's length, the cycle starts at ``v0 = seed + epsilon N_prev`` and pays
``v0 + delta N``; after ``n`` rounds the pool is ``v0 + n delta``, deterministic, so given
``v0`` the cycle-length law is a product of per-round survival probabilities
``G(1 - p(v0 + n delta))`` (``G`` the generating function of ``K``). Because ``v0`` depends on
``N_prev``, cycle lengths form a Markov chain (and, with several chances per round, so does the
number of chances left in the round of a hit). The **pool at a random round** is the pool
after that round's contribution, before its chances.

Method
------
*Lattice.* Starting from the seed, the pool after ``k`` rounds is ``x_k = seed + k delta``.
The per-round hit probability ``h_k = 1 - G(1 - p(x_k))``, its split by the number of chances
left after the hit, the cumulative hazard ``H_k = -sum_{i<=k} log(1 - h_i)`` and the expected
chances played per round are computed once, vectorised, on this lattice. It is cut where the
survival of every cycle considered falls below ``tail`` (default ``1e-15``); the largest mass
cut off is :attr:`PoolAnalysis.truncated_mass`.

*Blocks of rounds for rare pools.* One lattice point per round is used while the lattice has
at most ``2^22`` points (:data:`MAX_LATTICE`, fewer with many chances per round: at most
:data:`MAX_LATTICE_CELLS` floats): a linear law hit about once in 500,000 rounds or more
often, a constant law once in 100,000.
Beyond, a lattice point is a *block* of ``b`` rounds, ``b`` the fewest that keep the lattice
near :data:`BLOCK_POINTS` (``2^18``) points, whatever the odds: ``b = 34,000`` for a pool hit
once in ``1e9`` rounds. The rounds of block ``k`` (rounds ``(k-1) b + 1 .. k b`` after a
restart at the seed) are played at the *step law*: every chance of the block hits with the
probability ``p`` at the block's middle pool ``seed + ((k-1) b + (b+1)/2) delta``. Within a
block the per-round hit probability ``h`` and hazard ``lam = -log(1 - h)`` are then constant,
and everything the chain needs is a closed form: the block is survived with ``e^(-b lam)``,
plays ``sum_{j<b} e^(-lam j)`` rounds on average, its hit (and its average round) falls
``1/(e^lam - 1) - b/(e^(b lam) - 1)`` rounds into it on average (a Bernoulli series where
``b lam < 0.1``), and its split by chances left and its chances played are the per-round ones
at ``p`` times its rounds. The step process is a jackpot process in its own right (its law a
step function of the pool, not decreasing as ``p`` is; the chances left in a hit round keep the
law at the restarted value), so every identity below holds in it exactly. Its difference from
the true process is second order in ``b / E[N]`` (the midpoint rule for the block's hazard;
the tests measure the order: the error falls fourfold when ``b`` halves), and is measured by
the error estimate below. A game is thus
analysed in seconds at any odds: the probe that chooses ``b`` (the per-round hazard at rounds
``2^(i/8)``, bracketed, as the hazard does not decrease) reaches ``2^1000`` rounds, and only a
pool that survives that long with probability above ``tail`` (a hit law that is zero on every
pool the jackpot reaches, which the game-file loader refuses) is refused.

*Start values on a grid.* Cycle start values ``seed + epsilon N_prev`` are placed on a grid of
``M`` lattice points ``seed + j s b delta`` (``grid_points``, default 512, spacing ``s``
lattice points, covering every start value that has survival above ``tail``; grid points are
block boundaries). From grid start ``j`` the law of the point of the cycle's hit is
``exp(H_{js} - H_{js+n-1}) h_{js+n}`` (``H`` and ``h`` now per lattice point): every row is a
shift of one array, so the transition kernel, after splitting each next start value linearly
between its two grid neighbours (the Markov-chain approximation of [KD]_, which keeps the mean
start value exact; a block's mass is split at the block's mean cycle length, which keeps it
too), is built from running sums in ``O(M^2 log L + L)`` operations. The chances left in a hit
round play against the restarted value (its grid point; a second hit there restarts at the
seed, reserve 0), and are resolved within the transition, so the chain observed at the start
of each cycle's first full round has ``M`` states whatever ``kmax``; its stationary law comes
from :func:`~slotmath.markov.chains.gth_solve` [GTH]_.

*Figures.* Markov renewal-reward [Cinlar]_ gives the mean rounds between hits (rounds per
cycle / hits per cycle), the hit-value law and the stationary pool law at a random round
(Palm inversion: each cycle weights the rounds it spends at each pool value [Asmussen]_); all
are running sums over the lattice. Values live on the lattice (``seed + k delta`` at one
round per point, a block's mean value of its rounds, or of its hits, otherwise): a start
value moved to a grid neighbour moves every value of its cycle by less than one grid spacing.
Cost: ``O(kmax L + kmax M^2 + M^3)`` for the figures; the cycle-length law adds ``O(M L)``.
The passes over the lattice are numba kernels that hold no array of ``kmax`` rows: a round's
quantities by Horner recurrences in ``1 - p`` (:func:`_round_kernel`), the running sums read
at the interval bounds only with the split by chances left computed where it is summed
(:func:`_tail_sums_at`), the renewal-reward sums in one compensated pass
(:func:`_lattice_sums`); GTH is compiled, and the per-round hit law of a pool is kept for its
next analysis (a strip move changes the law of chances per round only). Gold Money Frog's
Super (hit once in 390,000 rounds, 3.1 million lattice points, fine and coarse solves) takes
about 0.2 s, its three pools about 0.4 s, against 3.5 s before (issue 25, item 3).

*Error.* The numerics are exact on the lattice except (a) the truncation, bounded by
``truncated_mass`` (relative effect on the means below a few ``tail``), (b) the grid and (c)
at ``b > 1`` the step law. The scheme is second order in the grid spacing (linear splitting)
and in ``b``, so the whole solve is repeated with twice the grid spacing and, at ``b > 1``,
twice the rounds per point (``2 b``, the grid spacing doubled in rounds), and
``2 |fine - coarse|`` (for a second-order scheme ``|fine - coarse|`` is about three times the
fine solve's error, the Richardson estimate [Richardson]_; the factor 2 is a margin) plus a
roundoff allowance of ``1e-11`` relative is reported in :attr:`PoolAnalysis.error_bounds`
(for the rounds between hits of a linear law, ``1e-8`` relative at 1 in 1,000 rounds to
``1.4e-6`` at 1 in 1e6 and beyond, the grid's share; ``1e-11`` for a constant law; up to
``1e-4`` where the hazard jumps, as a linear law reaching ``p = 1``; an RTP share's bound is
below ``2e-8``: its seed part is its only numerical part). This is an estimate of the error,
not a proven inequality: it relies on the solve being in its second-order regime, which the
tests check. They hold the
bound against the exact chain on (previous cycle length, chances left) without a grid or
blocks, on grids of 4 to 512 points and at 1 to 16 rounds per point on pools hit once in 50
to 300 rounds (``b / E[N]`` up to 0.3, far coarser than the ``3e-5`` to ``2e-4`` the analysis
chooses), where the
default grid's bound is 5 to 7 times the actual error; against closed forms for a constant law
at 1 in 1e9 rounds; against the cycle chain sampled by inverse transform from the exact
survival function (a power-series closed form, sharing no code with the lattice) at 1 in 1e9
rounds; and against the simulated process at 1 in 1,000. The laws (cycle length, values)
agree with the exact chain within ``1e-7`` pointwise at one round per point. There is no grid
error when start values cannot move: ``r = 0`` (or ``c = 0``) gives one grid point; there is
no step-law error for a constant law.

*Limits.* The start values span up to ``r / (1 - r)`` times the longest cycle; for
``r >= 1/2`` they may reach pools whose survival underflows (``exp(-650)``), which is refused
(the game-file loader refuses ``reserve >= 0.5``). A pool never hit (survival above ``tail``
after ``2^1000`` rounds) is refused. Nothing else limits the odds.

*Exact parts.* The increments ``delta``, ``epsilon`` and the contribution share ``c`` of the
RTP are :class:`~fractions.Fraction`. Money is conserved (every contribution, reserve included,
is paid eventually; the operator adds a seed per hit), so the long-run paid per unit bet is
exactly ``c + seed / (B E[N])``: :attr:`PoolAnalysis.rtp_from_identity` evaluates it, and the
direct ratio :attr:`PoolAnalysis.rtp_contribution` = mean value paid / mean bet between hits
agrees with it (the grid splitting preserves the mean start value and the step process is a
jackpot process, so the identity holds in the discretised chain as well). Likewise the mean
``p`` at a wheel spin equals ``1 / (E[K] E[N])`` (hits per chance).

:func:`simulate_pool` plays the literal process (contributions, each chance a Bernoulli draw of
``p(pool)``, restarts) with a ``numpy.random.Generator``, for cross-checks; it skips the rounds
without chances in one geometric draw, so it runs at hundreds of millions of rounds a second.

References
----------
.. [GTH] W. K. Grassmann, M. I. Taksar and D. P. Heyman, "Regenerative analysis and steady
   state distributions for Markov chains", *Operations Research* 33(5), 1985, 1107-1116.
.. [KD] H. J. Kushner and P. Dupuis, *Numerical Methods for Stochastic Control Problems in
   Continuous Time*, 2nd ed., Springer, 2001, ch. 5 (interpolating a transition onto the
   neighbouring grid points so that the local mean is kept).
.. [Cinlar] E. Cinlar, *Introduction to Stochastic Processes*, Prentice-Hall, 1975, ch. 10
   (Markov renewal processes, renewal-reward).
.. [Asmussen] S. Asmussen, *Applied Probability and Queues*, 2nd ed., Springer, 2003,
   ch. VII (Palm distributions, time averages from cycle averages).
.. [Richardson] L. F. Richardson, "The deferred approach to the limit", *Phil. Trans. R. Soc.
   A* 226, 1927, 299-361.
.. [Wald] A. Wald, "On cumulative sums of random variables", *Ann. Math. Stat.* 15, 1944.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import ClassVar, Protocol

import numpy as np
from numba import njit

from slotmath.model import hit_laws

__all__ = [
    "ConstantLaw",
    "DiscreteDistribution",
    "HitProbabilityLaw",
    "JackpotModel",
    "JackpotPool",
    "LinearLaw",
    "PoolAnalysis",
    "PoolSimulation",
    "SaturatingLaw",
    "analyze_pool",
    "simulate_pool",
]

#: Survival probability at which a cycle-length law is cut.
TAIL = 1e-15
#: Default number of grid points for cycle start values.
GRID_POINTS = 512
#: Longest lattice of one point per round; longer pools get several rounds per point.
MAX_LATTICE = 1 << 22
# Floats held per lattice point grow with the most chances per round (one row per chance count):
# one point per round is used while the lattice stays below this many (a few hundred MB).
MAX_LATTICE_CELLS = 1 << 25
#: Target length of a lattice of several rounds per point.
BLOCK_POINTS = 1 << 18
#: Relative roundoff allowance added to every error bound.
ROUNDOFF = 1e-11
#: Largest per-round hazard ``-log(1 - h)`` used (a certain hit becomes ``1 - e^-60``).
_HAZARD_CAP = 60.0
#: Largest cumulative hazard at a grid start value (rows are scaled by ``exp`` of it).
_MAX_ROW_HAZARD = 650.0


def _fraction(x, what: str) -> Fraction:
    """A Fraction from an int, Fraction, decimal string or float (floats via their repr)."""
    if isinstance(x, bool):
        raise TypeError(f"{what} must be a number, not {x!r}")
    if isinstance(x, float):
        if not math.isfinite(x):
            raise ValueError(f"{what} must be finite, not {x!r}")
        return Fraction(repr(x))
    try:
        return Fraction(x)
    except (TypeError, ValueError) as err:
        raise type(err)(f"{what} must be a number, not {x!r}") from None


# -- hit-probability laws -----------------------------------------------------------------------


class HitProbabilityLaw(Protocol):
    """What a hit-probability law provides: ``law(pool) -> probability``, vectorised, with
    values in [0, 1], not decreasing in the pool."""

    def __call__(self, pool): ...


class _RegistryLaw:
    """What the three law classes share: each is a thin, vectorised face of one law of
    :mod:`slotmath.model.hit_laws` (its rules, formula and scaling live there)."""

    definition: ClassVar[hit_laws.HitLaw]

    @property
    def parameters(self) -> dict[str, float]:
        """The law's parameters by name."""
        return {p: getattr(self, p) for p in self.definition.parameters}

    def __post_init__(self):
        for p in self.definition.parameters:
            self.definition.check_value(p, getattr(self, p))

    def __call__(self, pool):
        return self.definition.array_formula(*self.parameters.values(), pool)

    def scaled(self, factor: float):
        """The law with every probability multiplied by ``factor`` (a probability parameter
        capped at 1; :func:`hit_law` refuses what would leave the family)."""
        return type(self)(**self.definition.scaled(self.parameters, factor))


@dataclass(frozen=True)
class ConstantLaw(_RegistryLaw):
    """Every chance hits with the same probability, whatever the pool.

    Parameters
    ----------
    probability : float
        In [0, 1].

    Examples
    --------
    >>> ConstantLaw(0.01)(np.array([50.0, 5000.0]))
    array([0.01, 0.01])
    >>> ConstantLaw(0.25).scaled(2)
    ConstantLaw(probability=0.5)
    """

    definition: ClassVar[hit_laws.HitLaw] = hit_laws.CONSTANT
    probability: float


@dataclass(frozen=True)
class LinearLaw(_RegistryLaw):
    """Probability proportional to the pool: ``p = min(1, rate * pool)``.

    Parameters
    ----------
    rate : float
        Probability per currency unit in the pool, >= 0.

    Examples
    --------
    >>> LinearLaw(1e-4)(np.array([50.0, 100.0, 20000.0]))
    array([0.005, 0.01 , 1.   ])
    """

    definition: ClassVar[hit_laws.HitLaw] = hit_laws.LINEAR
    rate: float


@dataclass(frozen=True)
class SaturatingLaw(_RegistryLaw):
    """Probability rising with the pool towards a ceiling: ``p = p_max * pool / (pool + half)``.

    Parameters
    ----------
    p_max : float
        The limit for a large pool, in [0, 1].
    half : float
        The pool at which ``p = p_max / 2``, >= 0.

    Examples
    --------
    >>> SaturatingLaw(0.02, 5000.0)(np.array([0.0, 5000.0, 15000.0]))
    array([0.   , 0.01 , 0.015])
    """

    definition: ClassVar[hit_laws.HitLaw] = hit_laws.SATURATING
    p_max: float
    half: float


LAW_CLASSES = {"constant": ConstantLaw, "linear": LinearLaw, "saturating": SaturatingLaw}


def hit_law(kind: str, parameters: Mapping[str, float], factor: float = 1.0):
    """The hit-probability law named ``kind`` with ``parameters``, scaled by ``factor``, after
    the registry's rules (:func:`slotmath.model.hit_laws.scaled_parameters`: a saturating law
    with ``p_max x factor > 1`` is refused).

    Examples
    --------
    >>> hit_law("linear", {"rate": 1e-4}, 2.0)
    LinearLaw(rate=0.0002)
    """
    scaled = hit_laws.scaled_parameters(kind, parameters, factor)
    return LAW_CLASSES[kind](**scaled)


# -- the pool and the stream of rounds feeding it -------------------------------------------------


@dataclass(frozen=True)
class JackpotPool:
    """One progressive jackpot: its seed, contribution and reserve rules and its hit law.

    Parameters
    ----------
    name : str
    seed : number
        Restart value (currency) before the reserve is added, >= 0.
    contribution : number
        Fraction ``c`` of every bet contributed, in [0, 1).
    reserve_fraction : number
        Fraction ``r`` of each contribution set aside for the next jackpot, in [0, 1).
    law : HitProbabilityLaw
        ``law(pool)`` -> probability that one chance hits.

    Numbers are kept as :class:`~fractions.Fraction` (floats through their repr, so ``0.024``
    is ``3/125``).

    Examples
    --------
    >>> minor = JackpotPool("Minor", 50, "0.024", "0.1", LinearLaw(2e-4))
    >>> minor.contribution, minor.reserve_fraction
    (Fraction(3, 125), Fraction(1, 10))
    """

    name: str
    seed: Fraction
    contribution: Fraction
    reserve_fraction: Fraction
    law: HitProbabilityLaw

    def __post_init__(self):
        seed = _fraction(self.seed, "seed")
        c = _fraction(self.contribution, "contribution")
        r = _fraction(self.reserve_fraction, "reserve_fraction")
        if seed < 0:
            raise ValueError(f"{self.name}: seed must be >= 0, not {seed}")
        if not 0 <= c < 1:
            raise ValueError(f"{self.name}: contribution must be in [0, 1), not {c}")
        if not 0 <= r < 1:
            raise ValueError(f"{self.name}: reserve_fraction must be in [0, 1), not {r}")
        if not callable(self.law):
            raise TypeError(f"{self.name}: law must be callable, not {self.law!r}")
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "contribution", c)
        object.__setattr__(self, "reserve_fraction", r)

    @classmethod
    def from_spec(cls, spec, level: int = 1) -> JackpotPool:
        """The pool of a game's :class:`~slotmath.model.game.JackpotSpec` at bet ``level``
        (its law scaled by the level's factor).

        Examples
        --------
        >>> from slotmath.model.game import JackpotSpec
        >>> spec = JackpotSpec("MINOR", Fraction(50), Fraction(3, 125), Fraction(1, 10),
        ...                    "linear", {"rate": 1e-4}, {1: 1.0, 2: 3.0})
        >>> JackpotPool.from_spec(spec, 2).law
        LinearLaw(rate=0.00030000000000000003)
        """
        law = hit_law(spec.law, spec.parameters, spec.factor(level))
        return cls(spec.name, spec.seed, spec.contribution, spec.reserve_fraction, law)


@dataclass(frozen=True)
class JackpotModel:
    """A pool fed by paid rounds of bet ``bet``, each with ``K`` chances to hit it.

    Parameters
    ----------
    pool : JackpotPool
    bet : number
        Bet per round (currency), > 0.
    chances : mapping k -> P(K = k)
        Law of the number of chances (wheel spins) per round, ``k >= 0``; Fractions summing to
        exactly 1, or floats summing to 1 within ``1e-12``. Stored as sorted ``(k, P)`` pairs.

    Examples
    --------
    >>> pool = JackpotPool("Minor", 50, "0.024", "0.1", LinearLaw(2e-4))
    >>> m = JackpotModel(pool, 1, {0: Fraction(49, 50), 1: Fraction(1, 50)})
    >>> m.pool_increment, m.reserve_increment, m.mean_chances
    (Fraction(27, 1250), Fraction(3, 1250), Fraction(1, 50))
    """

    pool: JackpotPool
    bet: Fraction
    chances: tuple[tuple[int, Fraction | float], ...]

    def __post_init__(self):
        bet = _fraction(self.bet, "bet")
        if bet <= 0:
            raise ValueError(f"bet must be > 0, not {bet}")
        items = dict(self.chances).items() if isinstance(self.chances, Mapping) else self.chances
        pairs = []
        for k, prob in sorted(items):
            if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 0:
                raise ValueError(f"chances: a number of chances must be an int >= 0, not {k!r}")
            if isinstance(prob, float) and not math.isfinite(prob):
                raise ValueError(f"chances[{k}] must be finite, not {prob!r}")
            if prob < 0:
                raise ValueError(f"chances[{k}] must be >= 0, not {prob!r}")
            if prob:
                pairs.append((int(k), prob))
        if len({k for k, _ in pairs}) != len(pairs):
            raise ValueError("chances: a number of chances is listed twice")
        exact = all(isinstance(p, (int, Fraction)) for _, p in pairs)
        total = sum((p for _, p in pairs), Fraction(0) if exact else 0.0)
        if (total != 1) if exact else abs(total - 1) > 1e-12:
            raise ValueError(f"chances: probabilities must sum to 1, not {total}")
        if not any(k > 0 for k, _ in pairs):
            raise ValueError("chances: no round ever has a chance to hit the pool")
        object.__setattr__(self, "bet", bet)
        object.__setattr__(self, "chances", tuple(pairs))

    @property
    def contribution_per_round(self) -> Fraction:
        """``c B``: currency contributed per round (pool plus reserve)."""
        return self.pool.contribution * self.bet

    @property
    def pool_increment(self) -> Fraction:
        """``delta = (1 - r) c B``: growth of the pool per round."""
        return (1 - self.pool.reserve_fraction) * self.contribution_per_round

    @property
    def reserve_increment(self) -> Fraction:
        """``epsilon = r c B``: growth of the reserve per round."""
        return self.pool.reserve_fraction * self.contribution_per_round

    @property
    def max_chances(self) -> int:
        """``kmax``, the most chances a round can have."""
        return max(k for k, _ in self.chances)

    @property
    def mean_chances(self) -> Fraction | float:
        """``E[K]``, chances per round (a Fraction when the law is given in Fractions)."""
        return sum((k * p for k, p in self.chances), Fraction(0))

    @cached_property
    def chance_pmf(self) -> np.ndarray:
        """``P(K = k)`` for ``k = 0..kmax`` as floats."""
        pmf = np.zeros(self.max_chances + 1)
        for k, p in self.chances:
            pmf[k] = float(p)
        return pmf

    def analyze(self, *, grid_points: int = GRID_POINTS, tail: float = TAIL,
                rounds_per_point: int | None = None) -> PoolAnalysis:
        """:class:`PoolAnalysis` of this model (solved on return)."""
        analysis = PoolAnalysis(self, grid_points, tail, rounds_per_point)
        _ = analysis._solution  # solve now: errors surface here, and timings mean something
        return analysis

    def simulate(self, rounds: int, rng: np.random.Generator, **kwargs) -> PoolSimulation:
        """:func:`simulate_pool` of this model."""
        return simulate_pool(self, rounds, rng, **kwargs)


# -- a distribution on sorted support points ----------------------------------------------------


@dataclass(frozen=True, eq=False)
class DiscreteDistribution:
    """A numerically computed distribution: sorted support points and their probabilities.

    Examples
    --------
    >>> d = DiscreteDistribution(np.array([1.0, 2.0, 4.0]), np.array([0.5, 0.25, 0.25]))
    >>> d.mean, float(d.cdf(2.0)), float(d.quantile(0.9))
    (2.0, 0.75, 4.0)
    """

    values: np.ndarray
    probabilities: np.ndarray

    @cached_property
    def mean(self) -> float:
        return float(self.values @ self.probabilities / self.probabilities.sum())

    @cached_property
    def std(self) -> float:
        w = self.probabilities / self.probabilities.sum()
        return float(math.sqrt(max(0.0, ((self.values - self.mean) ** 2) @ w)))

    @cached_property
    def _cumulative(self) -> np.ndarray:
        c = np.cumsum(self.probabilities)
        return c / c[-1]

    def cdf(self, x):
        """``P(X <= x)``, vectorised."""
        i = np.searchsorted(self.values, x, side="right")
        return np.where(i > 0, self._cumulative[np.maximum(i - 1, 0)], 0.0)[()]

    def quantile(self, q):
        """Smallest support point ``x`` with ``P(X <= x) >= q``, vectorised."""
        i = np.searchsorted(self._cumulative, np.asarray(q) - 1e-15, side="left")
        return self.values[np.minimum(i, len(self.values) - 1)][()]


# -- numerics: the lattice --------------------------------------------------------------------


class _TooLong(Exception):
    """The lattice would outgrow its budget at this many rounds per point."""


@dataclass(frozen=True, eq=False)
class _Lattice:
    """Per-point quantities on the lattice ``k = 0..L-1`` with ``b`` rounds per point.

    Point 0 is the restart value ``seed`` (no round is played there); point ``k >= 1`` is the
    block of the rounds ``(k-1) b + 1 .. k b`` after a restart at the seed, played at the step
    law (``p`` at the block's middle pool, :func:`_block_arrays`). With ``b = 1`` point ``k``
    is round ``k``, at pool ``seed + k delta``. Every per-point quantity is for a cycle that
    reaches the start of the block.
    """

    b: int  # rounds per lattice point
    seed: float
    delta: float
    law: HitProbabilityLaw
    p: np.ndarray  # chance hit probability of the block's rounds (p at its middle pool)
    hit: np.ndarray  # P(the block has a hit)
    pmf: np.ndarray  # P(K = k), k = 0..kmax
    # (kmax, L): P(the block's first hit leaves m chances), m = 0..kmax-1; None at one round
    # per point, where it is p S_m(1 - p) (:func:`_round_kernel`), computed where it is used
    hit_left: np.ndarray | None
    spins: np.ndarray  # expected chances played in the block until its first hit
    p_spins: np.ndarray  # the same, each chance weighted by its p (expected hits, chance by chance)
    rounds: np.ndarray  # expected rounds played in the block (its hit round included)
    t_rep: np.ndarray  # mean round (after the seed's restart) of a round played, or hit, in it
    H: np.ndarray  # cumulative hazard at the block ends, H_0 = 0
    last_round_hit: float  # P(a round hits) at the last point
    n_max: int  # cycle from the seed: survival below tail after n_max points
    rho: Fraction  # epsilon / delta (0 when start values cannot move)
    fine: tuple[int, int]  # (s, M): grid spacing in lattice points, grid points
    coarse: tuple[int, int] | None  # b = 1: the same with spacing 2 s (on this lattice)

    @cached_property
    def decay(self) -> np.ndarray:
        """``exp(-H_(k-1))``: a cycle from the seed survives to the start of point ``k``."""
        out = np.empty(len(self.H))
        out[0] = 0.0
        np.negative(self.H[:-1], out=out[1:])
        return np.exp(out, out=out)

    @cached_property
    def values(self) -> np.ndarray:
        """Pool value of each point: the mean pool of the rounds played (or hit) in it."""
        return self.seed + self.delta * self.t_rep

    def grid_values(self, offsets: np.ndarray) -> np.ndarray:
        """Pool value of the grid start values at these lattice points (block boundaries)."""
        if self.b == 1:  # (the values at these points, as self.values has them)
            return self.seed + self.delta * self.t_rep[offsets]
        return self.seed + self.delta * (offsets * float(self.b))

    def grid_p(self, offsets: np.ndarray) -> np.ndarray:
        """Chance hit probability at the grid start values."""
        if self.b == 1:
            return self.p[offsets]
        return np.asarray(self.law(self.grid_values(offsets)), dtype=float)


def _hit_probability(p: np.ndarray, pmf: np.ndarray) -> np.ndarray:
    """``1 - G(1 - p)``: P(a round with K ~ pmf chances of probability p has a hit)."""
    with np.errstate(divide="ignore"):
        log_miss = np.log1p(-p)  # -inf where p == 1
    hit = np.zeros_like(p)
    for k in range(1, len(pmf)):
        if pmf[k]:
            hit += pmf[k] * -np.expm1(k * log_miss)
    return hit


def _round_quantities(p: np.ndarray, pmf: np.ndarray):
    """Hit probability of a round, its split by chances left, and chances played.

    ``(hit, hit_left, spins)`` at each ``p``: ``P(a round with K ~ pmf chances of probability
    p has a hit)``, ``P(its first hit leaves m chances)`` (rows ``m = 0..kmax-1``) and the
    expected chances played until its first hit (:func:`_round_kernel`).
    """
    hit, hit_left, spins, _ = _round_kernel(np.ascontiguousarray(p, dtype=float),
                                            np.ascontiguousarray(pmf, dtype=float), True, True)
    return hit, hit_left, spins


#: Lattice points a kernel works on at once (its Horner steps run across them, in SIMD).
_CHUNK = 256


@njit(cache=True)
def _round_kernel(p, pmf, full, rows):
    """The per-round quantities at each ``p`` by Horner recurrences in ``q = 1 - p``.

    With ``T_i = P(K > i)`` and ``S_m = sum_{k > m} P(K = k) q^(k-m-1)``:

    * chances played until the first hit: ``spins = sum_{i < kmax} T_i q^i``
      (``= T_0 + q (T_1 + q (T_2 + ...)))``),
    * the first hit leaves ``m`` chances: ``hit_left[m] = p S_m``, ``S_m = P(K = m+1) + q
      S_(m+1)`` (``S_kmax = 0``),
    * a hit: ``hit = 1 - G(q) = sum_k P(K = k) (1 - q^k) = p spins`` (each ``1 - q^k = p
      sum_(i<k) q^i``): a sum of positive terms, accurate however small ``p`` is.

    ``O(kmax)`` per point and no array of powers (the numpy form it replaces held
    ``kmax + 1`` powers of ``q`` per point and took ``O(kmax^2)`` passes). ``full``: returns
    ``(hit, hit_left, spins, empty)`` (``hit_left`` empty unless ``rows``: at one round per
    point :func:`_tail_sums_at` computes it where it is used); else ``(empty, empty, empty,
    hazard)``, the hazards ``-log(1 - hit)`` capped at ``_HAZARD_CAP`` alone (while the
    lattice's length is sought).
    """
    n = p.shape[0]
    kmax = pmf.shape[0] - 1
    tails = np.zeros(kmax)
    acc = 0.0
    for i in range(kmax - 1, -1, -1):
        acc += pmf[i + 1]
        tails[i] = acc
    size = n if full else 0
    hit = np.empty(size)
    hit_left = np.empty((kmax, size if rows else 0))
    spins = np.empty(size)
    hazard = np.empty(0 if full else n)
    played = np.empty(_CHUNK)
    left = np.empty(_CHUNK)
    for c0 in range(0, n, _CHUNK):
        w = min(_CHUNK, n - c0)
        played[:w] = 0.0
        left[:w] = 0.0
        for m in range(kmax - 1, -1, -1):
            t = tails[m]
            for i in range(w):
                played[i] = t + (1.0 - p[c0 + i]) * played[i]
            if full and rows:
                pm = pmf[m + 1]
                for i in range(w):
                    left[i] = pm + (1.0 - p[c0 + i]) * left[i]
                    hit_left[m, c0 + i] = p[c0 + i] * left[i]
        for i in range(w):
            h = p[c0 + i] * played[i]
            if full:
                spins[c0 + i] = played[i]
                hit[c0 + i] = h
            else:
                hazard[c0 + i] = min(-math.log1p(-h) if h < 1.0 else _HAZARD_CAP, _HAZARD_CAP)
    return hit, hit_left, spins, hazard


def _round_hazard(hit: np.ndarray) -> np.ndarray:
    """``-log(1 - h)`` per round, capped (a certain hit becomes ``1 - e^-60``)."""
    with np.errstate(divide="ignore"):
        return np.minimum(-np.log1p(-hit), _HAZARD_CAP)


#: Per-round hit probabilities kept for the next analysis of the same pool and growth
#: (:func:`_round_law_values`): ``(pool, seed, delta) -> p`` at rounds ``0..len - 1``, the
#: most recently used last.
_ROUND_LAWS: dict = {}
#: Pools whose per-round probabilities are kept (each up to a few tens of MB).
ROUND_LAWS_KEPT = 6


def _round_law_values(pool: JackpotPool, seed: float, delta: float, start: int, size: int,
                      p_last: float) -> np.ndarray:
    """``law(seed + k delta)`` for ``k = start .. start + size - 1`` (:func:`_law_values`,
    checked), kept for the next analysis of the same pool and growth per round.

    The law of the pool at each round does not depend on the wheel-spins law, which is what a
    strip move changes: the next move's lattice reuses these (the same floats: the law is a
    pure function of the pool). They are kept as one array from round 0, so a lattice takes
    its prefix without a copy (:func:`_round_law_prefix`); the parts are asked for in order
    from round 0. Pools whose law cannot be hashed are not kept.
    """
    try:
        key = (pool, seed, delta)
        hash(key)
    except TypeError:
        key = None
    kept = _ROUND_LAWS.get(key) if key is not None else None
    if kept is not None and start + size <= kept.shape[0]:
        _ROUND_LAWS[key] = _ROUND_LAWS.pop(key)  # the most recently used
        return kept[start:start + size]
    x = np.arange(start, start + size, dtype=float)  # exact, as numpy's cast of ints would be
    x *= delta
    x += seed
    p = _law_values(pool, x, p_last)
    if key is not None and (start == 0 or (kept is not None and kept.shape[0] == start)):
        whole = p.copy() if kept is None else np.concatenate((kept, p))
        whole.flags.writeable = False  # shared by the lattices of later analyses
        _ROUND_LAWS.pop(key, None)
        _ROUND_LAWS[key] = whole
        while len(_ROUND_LAWS) > ROUND_LAWS_KEPT:
            _ROUND_LAWS.pop(next(iter(_ROUND_LAWS)))
        return whole[start:start + size]
    return p


def _round_law_prefix(pool: JackpotPool, seed: float, delta: float, length: int):
    """The kept ``law(seed + k delta)`` for ``k < length`` as a view, or None."""
    try:
        kept = _ROUND_LAWS.get((pool, seed, delta))
    except TypeError:
        return None
    return kept[:length] if kept is not None and kept.shape[0] >= length else None


_CONSTANTS: dict = {}


def _constant(kind: str, length: int) -> np.ndarray:
    """A read-only ``numpy.ones(length)`` (``kind`` "ones") or ``numpy.arange(length,
    dtype=float)`` ("arange"), a view of one kept array (a lattice's rounds per point and
    mean rounds at one round per point: the same for every pool)."""
    kept = _CONSTANTS.get(kind)
    if kept is None or kept.shape[0] < length:
        kept = np.ones(length) if kind == "ones" else np.arange(length, dtype=float)
        kept.flags.writeable = False
        _CONSTANTS[kind] = kept
    return kept[:length]


def _law_values(pool: JackpotPool, x: np.ndarray, p_last: float) -> np.ndarray:
    """``law(x)`` for increasing pools ``x``, checked: one probability in [0, 1] per value, not
    decreasing (nor below ``p_last``, the law's value at a smaller pool)."""
    p = np.asarray(pool.law(x), dtype=float)
    if p.shape != x.shape:
        raise ValueError(f"{pool.name}: law(pool) must return one probability per value")
    p = np.ascontiguousarray(p)
    outside, decreasing = _law_faults(p, float(p_last))
    if outside:
        raise ValueError(f"{pool.name}: the hit law gave a probability outside [0, 1]")
    if decreasing:
        raise ValueError(f"{pool.name}: the hit probability must not decrease with the pool")
    return p


@njit(cache=True)
def _law_faults(p, p_last):
    """``(any p outside [0, 1] or NaN, any p below the one before it or p[0] < p_last)``, in
    one pass."""
    outside = False
    decreasing = False
    before = p_last
    for i in range(p.shape[0]):
        v = p[i]
        if not (v >= 0.0 and v <= 1.0):
            outside = True
        if v < before:
            decreasing = True
        before = v
    return outside, decreasing


def _block_rounds(lam: np.ndarray, b: int) -> np.ndarray:
    """``sum_{j<b} e^(-lam j)``: expected rounds played in a block of ``b`` rounds of hazard
    ``lam`` each (the hit round included)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.expm1(-b * lam) / np.expm1(-lam)
    return np.where(lam > 0, ratio, float(b))


def _block_offset(lam: np.ndarray, b: int) -> np.ndarray:
    """``sum_{j<b} j e^(-lam j) / sum_{j<b} e^(-lam j)``: the mean of ``j`` (rounds into the
    block before the one played) over the rounds played in a block of hazard ``lam`` per round,
    and over its hit round; ``1/(e^lam - 1) - b/(e^(b lam) - 1)``, by its Bernoulli series
    ``(b-1)/2 + sum_n B_n/n! (lam^(n-1) - b x^(n-1))`` (``x = b lam``, ``n = 2, 4, 6, 8``)
    where ``x < 0.1`` (the closed form cancels there; the series' next term is below ``1e-17``
    relative)."""
    bf = float(b)
    x = bf * lam
    out = np.empty_like(lam)
    small = x < 0.1
    lam_s, x_s = lam[small], x[small]
    series = (bf - 1) / 2
    for coefficient, n in ((1 / 12, 2), (-1 / 720, 4), (1 / 30240, 6), (-1 / 1209600, 8)):
        series = series + coefficient * (lam_s ** (n - 1) - bf * x_s ** (n - 1))
    out[small] = series
    lam_l = lam[~small]
    out[~small] = 1.0 / np.expm1(lam_l) - bf / np.expm1(bf * lam_l)
    return out


def _block_arrays(model: JackpotModel, b: int, start: int, size: int, p_last: float) -> dict:
    """The lattice quantities of points ``start .. start + size - 1`` at ``b`` rounds per point.

    With ``b = 1`` they are the per-round quantities at ``seed + k delta``. With ``b > 1`` the
    block's rounds play the *step law*: every chance of the block hits with ``p`` at the
    block's middle pool ``seed + ((k-1) b + (b+1)/2) delta`` (point 0: the seed), so that a
    round's hit probability ``h``, hazard ``lam = -log(1 - h)``, split by chances left and
    chances played are those at that ``p``, and the block's survival is ``e^(-b lam)``, its
    rounds played ``sum_{j<b} e^(-lam j)`` and the mean round of a round played (or hit) in it
    ``(k-1) b + 1 + sum_j j e^(-lam j) / sum_j e^(-lam j)``, all in closed form.
    """
    pool = model.pool
    seed, delta = float(pool.seed), float(model.pool_increment)
    if b == 1:
        p = _round_law_values(pool, seed, delta, start, size, p_last)
    else:
        k = np.arange(start, start + size)
        t = (k - 1) * float(b) + (b + 1) / 2
        t[k == 0] = 0.0
        x = seed + delta * t
        p = _law_values(pool, x, p_last)
    if b == 1:  # one round per point: the hazards for the lattice's length; the rest is
        # computed once the length is known (_build_lattice), from p
        out = {"p": p, "hazard": _round_kernel(p, model.chance_pmf, False, False)[3]}
    else:
        hit, hit_left, spins, _ = _round_kernel(p, model.chance_pmf, True, True)
        lam = _round_hazard(hit)
        rounds, hazard = _block_rounds(lam, b), b * lam
        out = {
            "p": p,
            "hit": -np.expm1(-hazard),
            "hit_left": hit_left * rounds,
            "spins": spins * rounds,
            "p_spins": p * spins * rounds,
            "rounds": rounds,
            "t_rep": (k - 1) * float(b) + 1 + _block_offset(lam, b),
            "hazard": hazard,
            "round_hit": hit,
        }
        if start == 0:
            out["t_rep"][0] = 0.0
    if start == 0:
        out["hazard"][0] = 0.0  # k = 0 is the restart, not a round
    return out


def _grids(i_top: int, grid_points: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """``(s, M)`` of the fine grid (spacing ``s`` lattice points, ``M`` points covering
    ``0..i_top``) and of the coarse grid (spacing ``2 s``) used for the error bound."""
    if i_top == 0:
        return (1, 1), (1, 1)
    s = max(1, -(-i_top // (grid_points - 1)))
    return (s, -(-i_top // s) + 1), (2 * s, -(-i_top // (2 * s)) + 1)


def _joined(parts: list[dict], key: str, length: int) -> np.ndarray:
    """The first ``length`` lattice points of one array of the parts, as one array; the
    parts' own arrays are released as they are joined (the lattice can be hundreds of MB)."""
    pieces, n = [], 0
    for part in parts:
        a = part.pop(key)
        take = min(a.shape[-1], length - n)
        if take > 0:
            pieces.append(a[..., :take])
            n += take
    return np.concatenate(pieces, axis=-1)


def _search(parts: list[dict], value: float) -> int:
    """``numpy.searchsorted(H, value)`` on the parts' ``H`` end to end (non-decreasing), not
    joined: the first index with ``H >= value`` (the length when there is none)."""
    base = 0
    for part in parts:
        h = part["H"]
        if h[-1] >= value:
            return base + int(np.searchsorted(h, value))
        base += h.shape[0]
    return base


def _point(parts: list[dict], key: str, index: int) -> float:
    """Lattice point ``index`` of one array of the parts (not joined)."""
    for part in parts:
        if index < part[key].shape[-1]:
            return float(part[key][..., index])
        index -= part[key].shape[-1]
    raise IndexError(index)


def _rho(model: JackpotModel) -> Fraction:
    """``epsilon / delta``: a cycle of ``N`` rounds moves the next start value ``rho N`` rounds
    of growth above the seed (0 when start values cannot move)."""
    if model.pool_increment > 0:
        return model.reserve_increment / model.pool_increment
    return Fraction(0)


def _build_lattice(model: JackpotModel, grid_points: int, tail: float, b: int = 1,
                   spacing: int | None = None) -> _Lattice:
    """Grow the lattice at ``b`` rounds per point (doubling) until every cycle from every grid
    start is cut at ``tail``. ``spacing``: the grid's spacing in points, else from
    ``grid_points``. Raises :class:`_TooLong` past the lattice's budget."""
    pool = model.pool
    rho = _rho(model)
    threshold = -math.log(tail)
    pmf = model.chance_pmf
    parts: list[dict] = []
    length, H_last, p_last = 0, 0.0, 0.0
    while True:
        size = max(1 << 12, length)
        part = _block_arrays(model, b, length, size, p_last)
        hazard = part.pop("hazard")
        H = np.cumsum(hazard, out=hazard)  # in place: H_last + the running sum
        H += H_last
        part["H"] = H
        parts.append(part)
        length += size
        H_last, p_last = float(part["H"][-1]), float(part["p"][-1])
        # H (the parts' H end to end, not joined) is non-decreasing: searched part by part
        n_max = _search(parts, threshold)
        if n_max < length:
            i_top = math.ceil(n_max * rho)
            if spacing is None:
                (s, M), (s2, M2) = _grids(i_top, grid_points)
                top = max((M - 1) * s, (M2 - 1) * s2)
            else:
                s, M = spacing, -(-i_top // spacing) + 1
                s2 = M2 = None
                top = (M - 1) * s
            H_top = _point(parts, "H", top) if top < length else math.nan
            if top < length and H_top > _MAX_ROW_HAZARD:
                raise ValueError(
                    f"{pool.name}: reserve_fraction {pool.reserve_fraction} lets start values "
                    "reach pools whose survival underflows (any r below 1/2 works)"
                )
            if top < length and H_last >= H_top + threshold:
                L = _search(parts, H_top + threshold) + 1
                if b == 1:
                    p = _round_law_prefix(pool, float(pool.seed), float(model.pool_increment),
                                          L)
                    arrays = {"p": _joined(parts, "p", L) if p is None else p,
                              "H": _joined(parts, "H", L)}
                    hit, _, spins, _ = _round_kernel(arrays["p"], pmf, True, False)
                    last_round_hit = float(hit[L - 1])
                    arrays.update(hit=hit, hit_left=None, spins=spins,
                                  p_spins=hit,  # p x spins: the same product as hit
                                  rounds=_constant("ones", L),
                                  t_rep=_constant("arange", L))
                else:
                    last_round_hit = _point(parts, "round_hit", L - 1)
                    arrays = {key: _joined(parts, key, L) for key in (
                        "p", "hit", "hit_left", "spins", "p_spins", "H", "rounds", "t_rep")}
                return _Lattice(
                    b=b,
                    pmf=pmf,
                    seed=float(pool.seed),
                    delta=float(model.pool_increment),
                    law=pool.law,
                    **arrays,
                    last_round_hit=last_round_hit,
                    n_max=n_max,
                    rho=rho,
                    fine=(s, M),
                    coarse=None if s2 is None else (s2, M2),
                )
        if b == 1 and (length >= MAX_LATTICE or length * (pmf.size + 4) >= MAX_LATTICE_CELLS):
            raise _TooLong(length)
        if b > 1 and length > 4 * _block_points(model):
            raise _TooLong(length)


def _block_points(model: JackpotModel) -> int:
    """Target lattice length at more than one round per point (memory: ``kmax + 8`` floats
    per point)."""
    return max(1 << 12, min(BLOCK_POINTS, MAX_LATTICE_CELLS // (8 * (model.chance_pmf.size + 8))))


def _cycle_scale(model: JackpotModel, tail: float) -> tuple[float, float]:
    """``(n_low, n_high)``: bounds on the rounds after which a cycle from the seed has survived
    with probability below ``tail``, from the per-round hazard at rounds ``T_i = ceil(2^(i/8))``
    up to ``2^1000`` (between two of them the hazard, not decreasing, lies between theirs).

    Raises ValueError when the survival is still above ``tail`` after ``2^1000`` rounds.
    """
    pool = model.pool
    seed, delta = float(pool.seed), float(model.pool_increment)
    threshold = -math.log(tail)
    T = np.unique(np.ceil(np.exp2(np.arange(0, 8 * 1000 + 1) / 8)))
    with np.errstate(over="ignore", invalid="ignore"):
        x = seed + delta * T
    T, x = T[np.isfinite(x)], x[np.isfinite(x)]
    with np.errstate(over="ignore"):  # rate x pool may pass the float range: p is then 1
        p = np.asarray(pool.law(x), dtype=float)
    if p.shape != x.shape or not (np.all(p >= 0) and np.all(p <= 1)):
        _law_values(pool, x, 0.0)  # raises its error
    lam = _round_hazard(_hit_probability(p, model.chance_pmf))
    width = np.diff(T)
    H_low = lam[0] + np.concatenate(([0.0], np.cumsum(width * lam[:-1])))
    H_high = lam[0] + np.concatenate(([0.0], np.cumsum(width * lam[1:])))
    if H_low[-1] < threshold:
        raise ValueError(
            f"{pool.name}: the pool survives more than {T[-1]:.3g} rounds with probability "
            f"above {tail} (it grows {delta:.4g} per round): it is never hit in practice; "
            "raise its hit law"
        )
    i_high = int(np.searchsorted(H_low, threshold))
    i_low = max(0, int(np.searchsorted(H_high, threshold)) - 1)
    # not decreasing where it matters (far beyond, a formula may wobble by an ulp)
    _law_values(pool, x[: i_high + 2], 0.0)
    return float(T[i_low]), float(T[i_high])


def _lattices(model: JackpotModel, grid_points: int, tail: float,
              rounds_per_point: int | None) -> tuple[_Lattice, _Lattice, tuple[int, int]]:
    """The fine lattice, the lattice of the coarse solve and the coarse solve's grid.

    One point per round while that fits the per-round budget (:data:`MAX_LATTICE`,
    :data:`MAX_LATTICE_CELLS`): the coarse solve is then on the same lattice with twice the
    grid spacing. Else ``b`` rounds per point, the fewest that keep the lattice near
    :data:`BLOCK_POINTS` points, and the coarse solve doubles both: ``2 b`` rounds per point,
    twice the grid spacing in rounds. ``rounds_per_point`` forces ``b``.
    """
    if rounds_per_point is None:
        n_low, n_high = _cycle_scale(model, tail)
        # the per-round lattice doubles until it covers more than n_low rounds: it can fit
        # only if n_low is below MAX_LATTICE, and below twice its budget of cells
        if n_low < MAX_LATTICE and n_low * (model.chance_pmf.size + 4) < 2 * MAX_LATTICE_CELLS:
            try:
                lattice = _build_lattice(model, grid_points, tail)
                return lattice, lattice, lattice.coarse
            except _TooLong:
                pass
        reach = (1 + float(_rho(model))) * n_high
        b = max(2, math.ceil(reach / _block_points(model)))
    else:
        b = rounds_per_point
    while True:
        try:
            fine = _build_lattice(model, grid_points, tail, b)
            if b == 1:
                return fine, fine, fine.coarse
            coarse = _build_lattice(model, grid_points, tail, 2 * b, spacing=fine.fine[0])
            return fine, coarse, coarse.fine
        except _TooLong as err:
            if rounds_per_point is not None:
                raise ValueError(
                    f"{model.pool.name}: the pool survives more than {err.args[0] * b:,} "
                    f"rounds with probability above {tail}: more than the lattice holds at "
                    f"{b} rounds per point; leave rounds_per_point to the analysis"
                ) from None
            b *= 8


# -- numerics: the chain on cycle start values ------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Solution:
    """The stationary chain on one grid and the renewal-reward sums derived from it."""

    lattice: _Lattice
    spacing: int  # s, lattice points between grid points
    offsets: np.ndarray  # lattice index of each grid point, j s
    nu: np.ndarray  # stationary law of the grid start of a cycle's first full round
    hits_at_restart: np.ndarray  # (kmax, M): per cycle, P(full-round hit -> grid j, m left)
    row_weight: np.ndarray  # nu_j exp(H_{js}), the weight of the shifted row j
    rounds: float  # rounds per cycle of the chain (one full-round phase)
    hits: float  # hits per cycle (the full-round hit plus hits in the rest of its round)
    first_tail_hits: np.ndarray  # (M,) expected first extra hits at grid value j
    later_tail_hits: float  # expected further extra hits (they pay the seed)
    tail_spins: float  # chances played after the full-round hit in its round
    truncated: float  # largest probability that a cycle outlasts the lattice
    clipped: float  # mass of next start values beyond the grid top (dropped)


def _solve(lat: _Lattice, s: int, M: int) -> _Solution:
    L = len(lat.H)
    offsets = np.arange(M, dtype=np.int64) * s
    if offsets[-1] >= L:
        raise AssertionError("lattice does not cover the grid")  # _build_lattice guarantees it
    kmax = lat.pmf.shape[0] - 1
    decay = lat.decay  # survival to the start of point k
    row_scale = np.exp(lat.H[offsets])
    # A hit at point k of a cycle from grid j moves the next start rho N rounds up, N its rounds
    # (its point's mean, (k - 1 - j s) b + mean position): z_k - rho j grid steps, with
    # z_k = rho t_k / (s b). Row j's interval u holds the points with z_k - rho j in [u, u+1).
    rho = float(lat.rho)
    z_scale = rho / (s * float(lat.b))  # z = t_rep z_scale, computed where it is used
    shift = rho * np.arange(M)
    # bounds[j, u] = searchsorted(z, shift_j + u), at least offsets_j + 1 and at most L
    bounds = _interval_bounds(lat.t_rep, z_scale, shift, M + 1, offsets + 1, L)
    # The running sums A_m[k] = sum_{i>=k} g_i and F_m[k] = sum_{i>=k} g_i z_i of
    # g_i = decay_i hit_left[m, i], at the interval bounds only: one pass over the lattice
    # for every m (:func:`_tail_sums`), in the order of numpy's reversed cumsum
    positions, where = np.unique(bounds, return_inverse=True)
    where = where.reshape(bounds.shape)
    if lat.hit_left is None:
        A_at, F_at = _tail_sums_at(decay, lat.p, lat.pmf, lat.t_rep, z_scale, positions)
    else:
        A_at, F_at = _tail_sums(decay, lat.hit_left, lat.t_rep, z_scale, positions)
    R, beyond = _split_masses(A_at, F_at, where, shift, row_scale)
    # Chances left in the hit round play against the restarted value v_j (first) and, after a
    # hit there, against the seed: no hit keeps grid j, any hit restarts at the seed (grid 0).
    p_grid = lat.grid_p(offsets)
    p_seed = lat.p[0]
    no_hit = np.empty((kmax, M))
    tail_hits = np.zeros((kmax, M))  # expected hits among the m chances left
    first_hit = np.empty((kmax, M))
    for m in range(kmax):
        no_hit[m] = (1.0 - p_grid) ** m
        first_hit[m] = 1.0 - no_hit[m]
        for i in range(1, m + 1):
            before = (1.0 - p_grid) ** (i - 1)
            tail_hits[m] += before * p_grid + (1.0 - before) * p_seed
    Q = np.einsum("mjk,mk->jk", R, no_hit)
    Q[:, 0] += np.einsum("mjk,mk->j", R, first_hit)
    nu = _gth(Q) if M > 1 else np.ones(1)
    hits_at_restart = np.einsum("j,mjk->mk", nu, R)
    full_hits = float(hits_at_restart.sum())
    extra = float((hits_at_restart * tail_hits).sum())
    first_tail = (hits_at_restart * first_hit).sum(axis=0)
    # rounds of a cycle from point k: sum over the points after it of reach x rounds played
    Z, _ = _tail_sums(decay, lat.rounds.reshape(1, L), np.empty(0), 0.0, offsets + 1)
    rounds = float(nu @ (row_scale * Z[0]))
    truncated = float(np.exp(lat.H[offsets[-1]] - lat.H[-1]))
    return _Solution(
        lattice=lat,
        spacing=s,
        offsets=offsets,
        nu=nu,
        hits_at_restart=hits_at_restart,
        row_weight=nu * row_scale,
        rounds=rounds,
        hits=full_hits + extra,
        first_tail_hits=first_tail,
        later_tail_hits=extra - float(first_tail.sum()),
        tail_spins=float(hits_at_restart.sum(axis=1) @ np.arange(kmax)),
        truncated=truncated,
        clipped=float(beyond.max()),
    )


@njit(cache=True)
def _tail_sums_at(decay, p, pmf, t_rep, scale, positions):
    """:func:`_tail_sums` of ``rows = hit_left`` at one round per point, each row's value
    computed where it is summed from ``p`` by the recurrence of :func:`_round_kernel` (the
    same floats), instead of read from ``kmax`` arrays of the lattice's length."""
    kmax = pmf.shape[0] - 1
    n = positions.shape[0]
    A = np.zeros((kmax, n))
    F = np.zeros((kmax, n))
    acc = np.zeros(kmax)
    acc_z = np.zeros(kmax)
    left = np.zeros(kmax)
    i = n - 1
    L = decay.shape[0]
    while i >= 0 and positions[i] >= L:  # sums over nothing
        i -= 1
    k = L - 1
    while i >= 0:
        d = decay[k]
        px = p[k]
        q = 1.0 - px
        s = 0.0
        for m in range(kmax - 1, -1, -1):
            s = pmf[m + 1] + q * s
            left[m] = px * s
        zk = t_rep[k] * scale
        for m in range(kmax):
            g = d * left[m]
            acc[m] += g
            acc_z[m] += g * zk
        while i >= 0 and positions[i] == k:
            for m in range(kmax):
                A[m, i] = acc[m]
                F[m, i] = acc_z[m]
            i -= 1
        k -= 1
    return A, F


@njit(cache=True)
def _tail_sums(decay, rows, t_rep, scale, positions):
    """``A[m, i] = sum_{k >= positions[i]} decay[k] rows[m, k]`` and ``F[m, i]``, the same
    with each term times ``z[k] = t_rep[k] * scale`` (not computed when ``t_rep`` is empty),
    for sorted ``positions`` in ``1..L``.

    One pass from the lattice's end down to the lowest position, every row at once, adding
    in the order of ``numpy.cumsum`` over the reversed arrays (which it replaces: the same
    sums, without ``2 x rows`` arrays of the lattice's length).
    """
    r = rows.shape[0]
    n = positions.shape[0]
    A = np.zeros((r, n))
    F = np.zeros((r, n))
    weighted = t_rep.shape[0] > 0
    acc = np.zeros(r)
    acc_z = np.zeros(r)
    i = n - 1
    L = decay.shape[0]
    while i >= 0 and positions[i] >= L:  # sums over nothing
        i -= 1
    k = L - 1
    while i >= 0:
        d = decay[k]
        for m in range(r):
            g = d * rows[m, k]
            acc[m] += g
            if weighted:
                acc_z[m] += g * (t_rep[k] * scale)
        while i >= 0 and positions[i] == k:
            for m in range(r):
                A[m, i] = acc[m]
                F[m, i] = acc_z[m]
            i -= 1
        k -= 1
    return A, F


@njit(cache=True)
def _lattice_sums(decay, offsets, row_weight, seed, delta, t_rep, hit, rounds, spins, p_spins):
    """The renewal-reward sums over the lattice, in one pass and without arrays of its length:
    with the arrivals ``a_k = decay_k sum_{j: offsets_j < k} row_weight_j`` and the point's
    value ``x_k = seed + delta t_rep_k``, the sums of ``x a hit``, ``a hit``, ``a spins``,
    ``a p_spins``, ``x a rounds`` and ``a rounds``. Each is compensated (Neumaier), so it is
    exact to about one rounding whatever the lattice's length.
    """
    L = decay.shape[0]
    M = offsets.shape[0]
    total = np.zeros(6)
    comp = np.zeros(6)
    term = np.zeros(6)
    reach = 0.0
    j = 0
    for k in range(L):
        while j < M and offsets[j] < k:
            reach += row_weight[j]
            j += 1
        a = reach * decay[k]
        if a == 0.0:
            continue
        x = seed + delta * t_rep[k]
        term[1] = a * hit[k]
        term[0] = x * term[1]
        term[2] = a * spins[k]
        term[3] = a * p_spins[k]
        term[5] = a * rounds[k]
        term[4] = x * term[5]
        for i in range(6):
            v = term[i]
            t = total[i] + v
            if abs(total[i]) >= abs(v):
                comp[i] += (total[i] - t) + v
            else:
                comp[i] += (v - t) + total[i]
            total[i] = t
    out = total + comp
    return out[0], out[1], out[2], out[3], out[4], out[5]


@njit(cache=True)
def _quantile_point(decay, offsets, row_weight, rounds, q):
    """The lattice point of the ``q``-quantile of the stationary pool: the first point with
    rounds whose cumulative share of the rounds ``w_k = a_k rounds_k`` (``a_k`` the arrivals,
    see :func:`_lattice_sums`) reaches ``q - 1e-15`` (:meth:`DiscreteDistribution.quantile`'s
    rule), or the last point with rounds."""
    L = decay.shape[0]
    M = offsets.shape[0]
    total = 0.0
    reach = 0.0
    j = 0
    last = 0
    for k in range(L):
        while j < M and offsets[j] < k:
            reach += row_weight[j]
            j += 1
        w = reach * decay[k] * rounds[k]
        if w > 0.0:
            total += w
            last = k
    target = q - 1e-15
    run = 0.0
    reach = 0.0
    j = 0
    for k in range(L):
        while j < M and offsets[j] < k:
            reach += row_weight[j]
            j += 1
        w = reach * decay[k] * rounds[k]
        if w > 0.0:
            run += w
            if run / total >= target:
                return k
    return last


@njit(cache=True)
def _first_at_least(t_rep, scale, v, guess):
    """``searchsorted(t_rep * scale, v, side="left")`` (``t_rep`` non-decreasing): the first
    index whose ``t_rep[i] * scale`` is at least ``v``, sought from ``guess`` by doubling
    steps and then halving."""
    n = t_rep.shape[0]
    g = min(max(guess, 0), n - 1)
    if t_rep[g] * scale >= v:  # the answer is at most g
        hi = g
        step = 1
        lo = hi - step
        while lo >= 0 and t_rep[lo] * scale >= v:
            hi = lo
            step *= 2
            lo = hi - step
        if lo < 0:
            lo = -1
    else:  # the answer is after g
        lo = g
        step = 1
        hi = lo + step
        while hi < n and t_rep[hi] * scale < v:
            lo = hi
            step *= 2
            hi = lo + step
        hi = min(hi, n)
    while hi - lo > 1:  # t_rep[lo] * scale < v <= t_rep[hi] * scale (lo = -1, hi = n: ends)
        mid = (lo + hi) // 2
        if t_rep[mid] * scale < v:
            lo = mid
        else:
            hi = mid
    return hi


@njit(cache=True)
def _interval_bounds(t_rep, scale, shift, width, lowest, top):
    """``bounds[j, u] = searchsorted(z, shift[j] + u, side="left")`` for ``u < width``, with
    ``z = t_rep * scale`` (non-decreasing), raised to ``lowest[j]`` and cut at ``top``.

    Each search starts where ``z``, nearly linear in the index, puts the value (a binary
    search from scratch for each of the ``M^2`` bounds touches memory all over a long
    lattice), and ends exactly as ``numpy.searchsorted`` on ``z`` would.
    """
    n = t_rep.shape[0]
    rows = shift.shape[0]
    out = np.empty((rows, width), np.int64)
    z0 = t_rep[0] * scale
    slope = (t_rep[n - 1] * scale - z0) / (n - 1) if n > 1 else 0.0
    for j in range(rows):
        for u in range(width):
            v = shift[j] + u
            guess = 0
            if slope > 0.0:
                est = (v - z0) / slope
                guess = n - 1 if est >= n - 1 else (0 if est <= 0.0 else int(est))
            idx = _first_at_least(t_rep, scale, v, guess)
            b = max(lowest[j], idx)
            out[j, u] = min(max(b, 0), top)
    return out


@njit(cache=True)
def _gth(A):
    """Stationary law of the transition matrix ``A`` (overwritten) by GTH elimination: the
    algorithm of :func:`slotmath.markov.chains.gth_solve`, compiled (no subtraction, so
    accurate for nearly decomposable chains)."""
    n = A.shape[0]
    x = np.zeros(n)
    last = n - 1
    for k in range(n - 1):
        scale = 0.0
        for j in range(k + 1, n):
            scale += A[k, j]
        if scale <= 0.0:  # states after k unreachable from k: solve the closed block
            last = k
            break
        for i in range(k + 1, n):
            a = A[i, k] / scale
            A[i, k] = a
            if a != 0.0:
                for j in range(k + 1, n):
                    A[i, j] += a * A[k, j]
    x[last] = 1.0
    for k in range(last - 1, -1, -1):
        acc = 0.0
        for i in range(k + 1, last + 1):
            acc += x[i] * A[i, k]
        x[k] = acc
    return x / x.sum()


@njit(cache=True)
def _split_masses(A, F, where, shift, row_scale):
    """The transition masses ``R[m, j, u]`` of row ``j`` from its intervals' running sums
    (``A[m, where[j, u]]`` at the interval's lower bound, ``where[j, u + 1]`` at its upper),
    each interval's mass split linearly between grid ``u`` and ``u + 1`` so that its mean is
    kept, scaled by ``row_scale[j]``; and the mass beyond the grid's top, per row."""
    kmax = A.shape[0]
    M = where.shape[0]
    R = np.zeros((kmax, M, M))
    beyond = np.zeros(M)
    for m in range(kmax):
        for j in range(M):
            carry = 0.0  # the upper part of interval u - 1, for grid u
            for u in range(M):
                lo = where[j, u]
                hi = where[j, u + 1]
                mass = A[m, lo] - A[m, hi]
                # sum g (z - rho j - u): the part of the mass for grid u + 1
                first = (F[m, lo] - F[m, hi]) - (shift[j] + u) * mass
                upper = min(max(first, 0.0), mass)
                lower = mass - upper
                R[m, j, u] = (lower + carry) * row_scale[j] if u else lower * row_scale[j]
                carry = upper
            beyond[j] += (carry + A[m, where[j, M]]) * row_scale[j]
    return R, beyond


@njit(cache=True)
def _shifted_mixture(weights, offsets, g, position):
    """``out[n] = sum_j weights[j] g[offsets[j] + n]`` for ``n >= 1`` (the cycle-length law by
    points after the start), and the same weighted by ``position`` (the mean position of a hit
    in its point; not computed when ``position`` is empty)."""
    size = g.shape[0]
    out = np.zeros(size)
    moment = np.zeros(size if position.shape[0] else 0)
    for j in range(weights.shape[0]):
        w = weights[j]
        o = offsets[j]
        if moment.shape[0]:
            for n in range(1, size - o):
                mass = w * g[o + n]
                out[n] += mass
                moment[n] += mass * position[o + n]
        else:
            for n in range(1, size - o):
                out[n] += w * g[o + n]
    return out, moment


# -- the analysis -------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class PoolAnalysis:
    """Long-run figures of one jackpot pool fed at one bet level (see the module notes).

    Parameters
    ----------
    model : JackpotModel
    grid_points : int
        Grid points for cycle start values (at least 3; fewer are used when the start values
        span fewer lattice steps).
    tail : float
        Survival probability at which cycle-length laws are cut.
    rounds_per_point : int, optional
        Rounds per lattice point ``b``; by default one while the lattice of one point per round
        fits (:data:`MAX_LATTICE_CELLS`), else the fewest that keep it near
        :data:`BLOCK_POINTS` points (see the module notes).

    Notes
    -----
    Scalars are floats; the exact parts are :attr:`contribution_rtp` and the model's
    increments. :attr:`error_bounds` gives an absolute error bound for each scalar figure.
    Money is in currency units, rounds are paid rounds at bet ``model.bet``.

    Examples
    --------
    A small pool, hit about once in a hundred rounds, with up to two chances per round:

    >>> pool = JackpotPool("Mini", 5, "0.04", "0.1", LinearLaw(0.002))
    >>> a = analyze_pool(pool, 1, {0: 0.5, 1: 0.4, 2: 0.1})
    >>> round(a.mean_rounds_between_hits, 3), round(a.hit_value_mean, 4)
    (100.529, 9.0211)
    >>> abs(a.rtp_contribution - a.rtp_from_identity) < 1e-12
    True
    >>> a.error_bounds["mean_rounds_between_hits"] / a.mean_rounds_between_hits < 1e-4
    True
    """

    model: JackpotModel
    grid_points: int = GRID_POINTS
    tail: float = TAIL
    rounds_per_point: int | None = None

    def __post_init__(self):
        if not isinstance(self.grid_points, (int, np.integer)) or self.grid_points < 3:
            raise ValueError(f"grid_points must be an int >= 3, not {self.grid_points!r}")
        if not 0 < self.tail <= 1e-6:
            raise ValueError(f"tail must be in (0, 1e-6], not {self.tail!r}")
        b = self.rounds_per_point
        if b is not None and (isinstance(b, bool) or not isinstance(b, (int, np.integer))
                              or b < 1):
            raise ValueError(f"rounds_per_point must be an int >= 1 or None, not {b!r}")

    # -- the solves ------------------------------------------------------------------------------
    @cached_property
    def _lattices(self) -> tuple[_Lattice, _Lattice, tuple[int, int]]:
        return _lattices(self.model, self.grid_points, self.tail, self.rounds_per_point)

    @property
    def _lattice(self) -> _Lattice:
        return self._lattices[0]

    @cached_property
    def _solution(self) -> _Solution:
        return _solve(self._lattice, *self._lattice.fine)

    @cached_property
    def _coarse(self) -> _Solution:
        _, lattice, grid = self._lattices
        return _solve(lattice, *grid)

    @staticmethod
    def _arrivals(sol: _Solution) -> np.ndarray:
        """Expected arrivals per cycle at the start of each lattice point."""
        lat = sol.lattice
        at = np.zeros(len(lat.H))
        at[sol.offsets] = sol.row_weight
        reach = np.concatenate(([0.0], np.cumsum(at)[:-1]))  # sum over starts below k
        return reach * lat.decay

    def _round_weights(self, sol: _Solution) -> np.ndarray:
        """Expected rounds per cycle played at each lattice point."""
        return self._arrivals(sol) * sol.lattice.rounds

    def _figures(self, sol: _Solution) -> dict[str, float]:
        lat = sol.lattice
        seed = float(self.model.pool.seed)
        bet = float(self.model.bet)
        # sums over the lattice of the arrivals a_k (:meth:`_arrivals`) times x_k hit_k, hit_k,
        # spins_k, p_spins_k, x_k rounds_k and rounds_k, x_k the point's value: one pass
        x_hits, hits, a_spins, a_p_spins, x_rounds, rounds_at = _lattice_sums(
            lat.decay, sol.offsets, sol.row_weight, lat.seed, lat.delta, lat.t_rep, lat.hit,
            lat.rounds, lat.spins, lat.p_spins)
        grid_values = lat.grid_values(sol.offsets)
        paid = float(x_hits + grid_values @ sol.first_tail_hits + seed * sol.later_tail_hits)
        mean_rounds = sol.rounds / sol.hits
        hit_value_mean = paid / sol.hits
        restarts = sol.hits_at_restart.sum(axis=0)
        extra = sol.hits - float(restarts.sum())
        spins = a_spins + sol.tail_spins
        # over the chances left in hit rounds, E[sum of p] = E[hits], chance by chance
        sum_p = a_p_spins + extra
        return {
            "mean_rounds_between_hits": mean_rounds,
            "hit_value_mean": hit_value_mean,
            "rtp_contribution": hit_value_mean / (bet * mean_rounds),
            "expected_hit_probability_per_spin": sum_p / spins,
            "expected_hit_probability_per_round": hits / sol.rounds,
            "mean_pool": x_rounds / rounds_at,
            "mean_restart_value": float(grid_values @ restarts + seed * extra) / sol.hits,
        }

    @cached_property
    def _fine_figures(self) -> dict[str, float]:
        return self._figures(self._solution)

    # -- scalars -------------------------------------------------------------------------------
    @property
    def pool(self) -> JackpotPool:
        return self.model.pool

    @property
    def grid_size(self) -> int:
        """Grid points actually used for cycle start values."""
        return len(self._solution.offsets)

    @property
    def grid_spacing(self) -> float:
        """Distance (currency) between neighbouring grid start values."""
        return self._solution.spacing * self._lattice.b * float(self.model.pool_increment)

    @property
    def lattice_step(self) -> int:
        """Rounds per lattice point ``b`` (1: one point per round, no block error)."""
        return self._lattice.b

    @property
    def lattice_size(self) -> int:
        """Points of the (fine) lattice."""
        return len(self._lattice.H)

    @property
    def mean_rounds_between_hits(self) -> float:
        """``E[N]``: the pool is hit once in this many rounds in the long run."""
        return self._fine_figures["mean_rounds_between_hits"]

    @property
    def hits_per_round(self) -> float:
        """``1 / E[N]``: expected hits per round."""
        return 1.0 / self.mean_rounds_between_hits

    @property
    def hit_value_mean(self) -> float:
        """Mean value paid at a hit (currency)."""
        return self._fine_figures["hit_value_mean"]

    @property
    def rtp_contribution(self) -> float:
        """Long-run paid per unit bet: mean value paid per hit / mean bet between hits."""
        return self._fine_figures["rtp_contribution"]

    @property
    def contribution_rtp(self) -> Fraction:
        """The exact part of the RTP: every contribution is paid eventually, so ``c``."""
        return self.model.pool.contribution

    @property
    def seed_rtp(self) -> float:
        """The operator's seeds per unit bet: ``seed / (B E[N])``."""
        return float(self.model.pool.seed) / (float(self.model.bet) * self.mean_rounds_between_hits)

    @property
    def rtp_from_identity(self) -> float:
        """``c + seed / (B E[N])``: the long-run identity (money conservation)."""
        return float(self.contribution_rtp) + self.seed_rtp

    @property
    def expected_hit_probability_per_spin(self) -> float:
        """Mean of ``p(pool)`` over the pool met by a wheel spin (a chance), stationary.

        This is the probability that a wheel spin lands the jackpot, for the RTP left to the
        other wheel divisions; it equals ``1 / (E[K] E[N])`` (hits per chance).
        """
        return self._fine_figures["expected_hit_probability_per_spin"]

    @property
    def expected_hit_probability_per_round(self) -> float:
        """Probability that a round hits the pool at least once, stationary.

        ``E[1 - G(1 - p(pool))]`` over the pool at a random round; below
        :attr:`hits_per_round` only by the rounds that hit twice. Per wheel spin, see
        :attr:`expected_hit_probability_per_spin`.
        """
        return self._fine_figures["expected_hit_probability_per_round"]

    @property
    def mean_pool(self) -> float:
        """Mean of the stationary pool at a random round (after its contribution)."""
        return self._fine_figures["mean_pool"]

    @property
    def mean_restart_value(self) -> float:
        """Mean value the pool restarts at after a hit (``seed + epsilon E[N]``)."""
        return self._fine_figures["mean_restart_value"]

    @property
    def truncated_mass(self) -> float:
        """Largest probability, over grid start values, that a cycle outlasts the lattice (plus
        next start values dropped beyond the grid's top; both below ``tail``)."""
        sol = self._solution
        return max(sol.truncated, self._coarse.truncated) + sol.clipped

    @cached_property
    def error_bounds(self) -> dict[str, float]:
        """Absolute error bound of each scalar figure.

        ``2 |fine - coarse|`` (the same solve with twice the grid spacing and, at ``b > 1``
        rounds per lattice point, twice the rounds per point; the scheme is second order in
        both, so ``|fine - coarse|`` is about three times the fine solve's error) plus the
        truncation's effect (``truncated_mass`` times the mean cycle in units of the last
        round's hazard) and a roundoff allowance of ``1e-11`` relative.
        """
        fine, coarse = self._fine_figures, self._figures(self._coarse)
        hazard_end = max(self._lattice.last_round_hit, 1e-300)
        cut = self.truncated_mass * (2.0 + 1.0 / (hazard_end * self.mean_rounds_between_hits))
        out = {k: 2 * abs(fine[k] - coarse[k]) + (ROUNDOFF + cut) * abs(fine[k]) for k in fine}
        out["rtp_from_identity"] = out["rtp_contribution"]
        return out

    # -- distributions -------------------------------------------------------------------------
    @cached_property
    def stationary_pool(self) -> DiscreteDistribution:
        """Law of the pool at a random round (after its contribution, before its chances)."""
        w = self._round_weights(self._solution)
        keep = w > 0
        return DiscreteDistribution(self._lattice.values[keep], w[keep] / w.sum())

    def stationary_pool_quantile(self, q: float) -> float:
        """``stationary_pool.quantile(q)`` (to roundoff in the cumulative sum), in one pass
        over the lattice and without building the law (a move of a panel asks for this one
        figure of it).

        Examples
        --------
        >>> pool = JackpotPool("Mini", 5, "0.04", "0.1", LinearLaw(0.002))
        >>> a = analyze_pool(pool, 1, {0: 0.5, 1: 0.4, 2: 0.1})
        >>> a.stationary_pool_quantile(0.99) == float(a.stationary_pool.quantile(0.99))
        True
        """
        sol = self._solution
        lat = self._lattice
        k = _quantile_point(lat.decay, sol.offsets, sol.row_weight, lat.rounds, float(q))
        return float(lat.seed + lat.delta * lat.t_rep[k])

    @cached_property
    def hit_value_distribution(self) -> DiscreteDistribution:
        """Law of the value paid at a hit (on the lattice's values: ``seed + k delta`` at one
        round per point, else each point's mean value at a hit, and the grid's start values)."""
        sol = self._solution
        lat = self._lattice
        mass = self._arrivals(sol) * lat.hit
        values = lat.values
        if lat.b == 1:  # the grid values are lattice values
            mass[sol.offsets] += sol.first_tail_hits
            mass[0] += sol.later_tail_hits
        else:
            mass[0] = sol.later_tail_hits
            values, where = np.unique(np.concatenate((values, lat.grid_values(sol.offsets))),
                                      return_inverse=True)
            mass = np.bincount(where, np.concatenate((mass, sol.first_tail_hits)),
                               minlength=len(values))
        keep = mass > 0
        return DiscreteDistribution(values[keep], mass[keep] / sol.hits)

    @cached_property
    def restart_value_distribution(self) -> DiscreteDistribution:
        """Law of the value the pool restarts at after a hit (``seed +`` the reserve)."""
        sol = self._solution
        mass = sol.hits_at_restart.sum(axis=0)
        mass[0] += sol.hits - float(mass.sum())
        return DiscreteDistribution(self._lattice.grid_values(sol.offsets), mass / sol.hits)

    @cached_property
    def cycle_length_distribution(self) -> DiscreteDistribution:
        """Law of the number of rounds between consecutive hits (0: same round; at ``b > 1``
        rounds per lattice point, each point's mean cycle length)."""
        sol = self._solution
        lat = self._lattice
        g = lat.decay * lat.hit
        g[0] = 0.0
        position = np.empty(0)  # one round per point: the point is the cycle length
        if lat.b > 1:
            position = lat.t_rep - (np.arange(len(g)) - 1) * float(lat.b)  # mean round in it
        mass, moment = _shifted_mixture(sol.row_weight, sol.offsets, g, position)
        mass[0] = sol.hits - float(sol.hits_at_restart.sum())
        keep = mass > 0
        n = np.flatnonzero(keep)
        if lat.b == 1:
            values = n.astype(float)
        else:
            values = np.where(n > 0, (n - 1) * float(lat.b) + moment[n] / np.where(
                n > 0, mass[n], 1.0), 0.0)
        return DiscreteDistribution(values, mass[keep] / sol.hits)

    def summary(self) -> dict[str, float]:
        """The scalar figures as plain floats (for reports and JSON)."""
        out = dict(self._fine_figures)
        out.update(
            hits_per_round=self.hits_per_round,
            rtp_from_identity=self.rtp_from_identity,
            contribution_rtp=float(self.contribution_rtp),
            seed_rtp=self.seed_rtp,
            truncated_mass=self.truncated_mass,
        )
        return out


def analyze_pool(
    pool: JackpotPool,
    bet,
    chances: Mapping[int, Fraction | float],
    *,
    grid_points: int = GRID_POINTS,
    tail: float = TAIL,
    rounds_per_point: int | None = None,
) -> PoolAnalysis:
    """Stationary analysis of a progressive pool fed by rounds of bet ``bet``.

    Parameters
    ----------
    pool : JackpotPool
    bet : number
        Bet per round (currency); the pool is assumed to be fed at this bet only.
    chances : mapping k -> P(K = k)
        Law of the number of chances to hit the pool per round.
    grid_points, tail, rounds_per_point
        Numerical controls, see :class:`PoolAnalysis`.

    Returns
    -------
    PoolAnalysis
        Solved (the stationary chain is computed before returning; distributions are lazy).

    Examples
    --------
    A Minor pool whose bonus wheel comes up once in fifty rounds:

    >>> minor = JackpotPool("Minor", 50, "0.024", "0.1", LinearLaw(2e-4))
    >>> a = analyze_pool(minor, 1, {0: 0.98, 1: 0.019, 2: 0.001})
    >>> print(f"1 in {a.mean_rounds_between_hits:,.0f} rounds, RTP {a.rtp_contribution:.4%}")
    1 in 2,459 rounds, RTP 4.4331%
    """
    return JackpotModel(pool, bet, chances).analyze(
        grid_points=grid_points, tail=tail, rounds_per_point=rounds_per_point)

# -- simulation ---------------------------------------------------------------------------------


def _ratio_estimate(numerator, denominator, batches: int) -> tuple[float, float]:
    """``sum(numerator) / sum(denominator)`` and its standard error by batch means over
    consecutive cycles (the cycles form a Markov chain, so single cycles are not independent).
    """
    num = np.asarray(numerator, dtype=float)
    den = np.asarray(denominator, dtype=float)
    ratio = float(num.sum() / den.sum())
    b = min(batches, len(num) // 2)
    if b < 2:
        return ratio, math.inf
    starts = np.linspace(0, len(num), b + 1).astype(np.int64)[:-1]
    nb, db = np.add.reduceat(num, starts), np.add.reduceat(den, starts)
    resid = nb - ratio * db
    return ratio, float(math.sqrt((resid @ resid) / (b * (b - 1))) / db.mean())


@dataclass(frozen=True, eq=False)
class PoolSimulation:
    """The record of :func:`simulate_pool`.

    Attributes
    ----------
    model : JackpotModel
    rounds : int
    hit_rounds : numpy.ndarray of int64
        Round (1-based) of each hit, in order; a round that hits twice appears twice.
    values_paid : numpy.ndarray
        Value paid at each hit.
    start_values : numpy.ndarray
        Value the cycle ended by each hit started at (the initial pool for the first hit).
    initial_pool, initial_reserve, final_pool, final_reserve : float
    """

    model: JackpotModel
    rounds: int
    hit_rounds: np.ndarray
    values_paid: np.ndarray
    start_values: np.ndarray
    initial_pool: float
    initial_reserve: float
    final_pool: float
    final_reserve: float

    @property
    def hits(self) -> int:
        return len(self.hit_rounds)

    @property
    def rounds_between_hits(self) -> np.ndarray:
        """Lengths of the complete cycles (between consecutive hits)."""
        return np.diff(self.hit_rounds)

    @property
    def total_paid(self) -> float:
        return float(self.values_paid.sum())

    @property
    def total_bet(self) -> float:
        return self.rounds * float(self.model.bet)

    @property
    def paid_per_unit_bet(self) -> float:
        """Everything paid over everything bet, the whole run (starting from the initial pool)."""
        return self.total_paid / self.total_bet

    def cycle_estimate(self, numerator, denominator=None, batches: int = 32):
        """Renewal-reward estimate over complete cycles with a batch-means standard error.

        Parameters
        ----------
        numerator, denominator : array_like, one value per complete cycle
            ``denominator`` defaults to one per cycle (a mean per hit).
        batches : int

        Returns
        -------
        (estimate, standard_error)
        """
        num = np.asarray(numerator, dtype=float)
        den = np.ones_like(num) if denominator is None else denominator
        return _ratio_estimate(num, den, batches)

    def estimate(self, name: str, batches: int = 32) -> tuple[float, float]:
        """Simulated counterpart of a :class:`PoolAnalysis` figure, with its standard error.

        ``name`` is one of ``mean_rounds_between_hits``, ``hits_per_round``,
        ``hit_value_mean``, ``rtp_contribution``, ``mean_pool``, ``mean_restart_value``.
        Only complete cycles (from the first hit on) count.
        """
        n = self.rounds_between_hits.astype(float)
        v = self.values_paid[1:]
        start = self.start_values[1:]
        delta = float(self.model.pool_increment)
        per_cycle = {
            "mean_rounds_between_hits": (n, None),
            "hits_per_round": (np.ones_like(n), n),
            "hit_value_mean": (v, None),
            "rtp_contribution": (v, n * float(self.model.bet)),
            "mean_pool": (n * start + delta * n * (n + 1) / 2, n),
            "mean_restart_value": (start, None),
        }
        if name not in per_cycle:
            raise KeyError(f"no simulated estimate named {name!r}; have {sorted(per_cycle)}")
        return self.cycle_estimate(*per_cycle[name], batches=batches)


def simulate_pool(
    model: JackpotModel,
    rounds: int,
    rng: np.random.Generator,
    *,
    initial_pool: float | None = None,
    initial_reserve: float = 0.0,
) -> PoolSimulation:
    """Play ``rounds`` consecutive rounds of the pool process, literally.

    Each round contributes, then draws its number of chances ``K``; each chance hits with
    probability ``law(pool)`` (one uniform per chance); a hit pays the pool and restarts it at
    ``seed + reserve``. Rounds without chances only contribute, so the simulator draws the
    gaps between rounds with chances (geometric) and the chances of those rounds only; the
    pool at round ``t`` is ``v0 + (t - t0) delta`` since the last restart ``(t0, v0)``.

    Parameters
    ----------
    model : JackpotModel
    rounds : int
    rng : numpy.random.Generator
        The only source of randomness.
    initial_pool : float, optional
        Pool before round 1 (default: the seed).
    initial_reserve : float

    Returns
    -------
    PoolSimulation

    Examples
    --------
    >>> pool = JackpotPool("Mini", 5, "0.04", "0.1", LinearLaw(0.002))
    >>> model = JackpotModel(pool, 1, {0: 0.5, 1: 0.4, 2: 0.1})
    >>> sim = simulate_pool(model, 100_000, np.random.default_rng(1))
    >>> sim.hits
    1004
    >>> conserved = sim.initial_pool + 0.04 * sim.rounds + 5 * sim.hits
    >>> bool(abs(conserved - sim.total_paid - sim.final_pool - sim.final_reserve) < 1e-6)
    True
    """
    if rounds < 0:
        raise ValueError(f"rounds must be >= 0, not {rounds}")
    law = model.pool.law
    seed = float(model.pool.seed)
    delta = float(model.pool_increment)
    epsilon = float(model.reserve_increment)
    pmf = model.chance_pmf
    kmax = len(pmf) - 1
    any_chance = float(1.0 - pmf[0]) if pmf[0] > 0 else 1.0
    chance_cdf = np.cumsum(pmf[1:]) / pmf[1:].sum()
    v0 = seed if initial_pool is None else float(initial_pool)
    r0 = float(initial_reserve)
    t0 = 0
    hit_rounds: list[int] = []
    values: list[float] = []
    starts: list[float] = []
    last = 0
    window = 256
    chunk = 1 << 16
    while last < rounds:
        t = last + np.cumsum(rng.geometric(any_chance, size=chunk))
        last = int(t[-1])
        t = t[t <= rounds]
        if t.size == 0:
            continue
        k = np.minimum(1 + np.searchsorted(chance_cdf, rng.random(t.size), side="right"), kmax)
        at = np.repeat(t, k)
        u = rng.random(at.size)
        pos = 0
        cycle_from = 0
        while pos < at.size:
            end = min(pos + window, at.size)
            hit = np.flatnonzero(u[pos:end] < law(v0 + (at[pos:end] - t0) * delta))
            if hit.size == 0:
                pos = end
                window = min(2 * window, 1 << 20)
                continue
            i = pos + int(hit[0])
            t_hit = int(at[i])
            hit_rounds.append(t_hit)
            values.append(v0 + (t_hit - t0) * delta)
            starts.append(v0)
            v0 = seed + r0 + (t_hit - t0) * epsilon
            r0 = 0.0
            t0 = t_hit
            window = max(256, 2 * (i + 1 - cycle_from))
            pos = cycle_from = i + 1
    return PoolSimulation(
        model=model,
        rounds=int(rounds),
        hit_rounds=np.array(hit_rounds, dtype=np.int64),
        values_paid=np.array(values),
        start_values=np.array(starts),
        initial_pool=seed if initial_pool is None else float(initial_pool),
        initial_reserve=float(initial_reserve),
        final_pool=v0 + (rounds - t0) * delta,
        final_reserve=r0 + (rounds - t0) * epsilon,
    )
