"""Progressive jackpot pools and the max-win cap as the simulator plays them (private helpers
of :func:`slotmath.simulate.simulate`; the results are public).

Pools
    Every paid round first contributes to every pool (``r c B`` to its reserve,
    ``(1 - r) c B`` to the pool; free spins contribute nothing); then each of its wheel spins
    (the paid spin's first, then those of its free spins) may hit a pool: with
    ``p_j = law_j(pool_j)`` at the bet level (the laws of :mod:`slotmath.markov.jackpot`,
    scaled by the level's factor), one uniform ``u`` hits pool ``j`` when it falls in
    ``[sum_{i<j} p_i, sum_{i<=j} p_i)``, pools in the order of ``game.jackpots``. A hit pays the
    pool's value and restarts it at its seed plus the reserve (the reserve restarts at 0); a
    later wheel spin of the same round plays against the restarted pool. Otherwise a coin
    division is drawn by weight with ``Generator.integers``, a second draw. If the ``p_j`` add
    up to more than 1 the slices are clipped at 1 in pool order (the last pools lose their
    share and no coin division can come up); a sane game never gets there, and
    :func:`slotmath.analyze` refuses such a game.

    The pools carry over from round to round, so the rounds are played through them in
    order, in one numba loop (:func:`~slotmath.simulate._kernels.jackpot_rounds`); the spins
    themselves are drawn and paid in parallel as for any game.

Standard errors by batch means
    With pools the rounds are not independent: a round that hits a pool leaves it small for
    the rounds after. The run is cut into :data:`BLOCKS` consecutive blocks of (almost) equal
    length and every ratio estimate ``sum(a) / sum(b)`` (RTP, hits per round, mean value at a
    hit) gets the batch-means standard error ``sqrt(sum_k (a_k - R b_k)^2 / (m (m - 1))) /
    mean(b_k)`` over the ``m`` blocks' sums ``a_k, b_k`` [Law]_. It is honest when a block is
    long against the time the pools take to forget their state, i.e. when every pool is hit
    many times in each block (:attr:`JackpotResult.hits_per_block`); with fewer hits it tends
    to be too small. Pools start at their seeds with empty reserves, so a run also carries a
    start-up bias of the order of one cycle's rounds over the run's.

.. [Law] A. M. Law and W. D. Kelton, *Simulation Modeling and Analysis*, 3rd ed.,
   McGraw-Hill, 2000, section 9.5.3 (batch means).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from slotmath.model import hit_laws, rules
from slotmath.model.game import Game
from slotmath.simulate import _kernels
from slotmath.simulate.tables import PayTables

BLOCKS = 100  # consecutive blocks of rounds for the batch-means standard errors


@dataclass(frozen=True)
class JackpotResult:
    """One progressive pool as a simulation saw it.

    Attributes
    ----------
    name : str
    hits : int
        Times the pool was won (a round may win it twice).
    hits_per_round : float
        ``hits / spins``; :attr:`one_in` is its inverse.
    hits_per_round_std_error : float
    mean_value : float
        Mean value paid at a hit, in currency (0 without hits).
    mean_value_std_error : float
    rtp : float
        Value paid over everything bet: the pool's share of the RTP.
    rtp_std_error : float
    final_pool, final_reserve : float
        The pool and its reserve after the last round (currency).
    hits_per_block : float
        Mean hits in a block of the batch-means standard errors: a few dozen or more, or the
        standard errors are not to be trusted (see the module notes).

    Standard errors are batch means over :data:`BLOCKS` consecutive blocks of rounds.
    """

    name: str
    hits: int
    hits_per_round: float
    hits_per_round_std_error: float
    mean_value: float
    mean_value_std_error: float
    rtp: float
    rtp_std_error: float
    final_pool: float
    final_reserve: float
    hits_per_block: float

    @property
    def one_in(self) -> float:
        """Rounds per hit ("1 in N rounds"); ``inf`` if never hit."""
        return 1.0 / self.hits_per_round if self.hits else math.inf


def law_arrays(game: Game, level: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each pool's hit law at ``level`` as numba arrays: the law's id and its first and second
    parameter (0 where it has fewer), scaled to the level.

    The laws, their ids, rules and scaling are those of :mod:`slotmath.model.hit_laws` (as
    for :func:`slotmath.markov.jackpot.hit_law`);
    :func:`~slotmath.simulate._kernels.hit_probability` evaluates them.
    """
    kinds, first, second = [], [], []
    for spec in game.jackpots:
        law = hit_laws.law(spec.law)
        scaled = hit_laws.scaled_parameters(spec.law, spec.parameters, spec.factor(level))
        values = [float(scaled[p]) for p in law.parameters]
        if len(values) > 2:  # pragma: no cover - every law of the registry has one or two
            raise TypeError(f"jackpot {spec.name}: the simulator has no {law.name} law")
        values += [0.0] * (2 - len(values))
        kinds.append(law.id)
        first.append(values[0])
        second.append(values[1])
    return np.array(kinds, np.int64), np.array(first), np.array(second)


def block_of(first: int, n: int, spins: int, blocks: int) -> np.ndarray:
    """Block of each of the rounds ``first .. first + n - 1`` (of ``spins``)."""
    return np.arange(first, first + n, dtype=np.int64) * blocks // spins


def block_sizes(spins: int, blocks: int) -> np.ndarray:
    """Rounds in each block: block ``k`` holds rounds ``ceil(k spins / blocks)`` on."""
    starts = -(-np.arange(blocks + 1, dtype=np.int64) * spins // blocks)
    return np.diff(starts)


def ratio_std_error(numerator: np.ndarray, denominator: np.ndarray) -> float:
    """Batch-means standard error of ``sum(numerator) / sum(denominator)`` from block sums
    (``inf`` with fewer than two blocks, 0 when the denominator is 0)."""
    num = np.asarray(numerator, dtype=float)
    den = np.asarray(denominator, dtype=float)
    m = len(num)
    if m < 2:
        return math.inf
    if den.sum() == 0:
        return 0.0
    ratio = num.sum() / den.sum()
    resid = num - ratio * den
    return float(math.sqrt(resid @ resid / (m * (m - 1))) / den.mean())


class Pools:
    """Simulator counterpart of ``features.jackpots``: the pools of ``game`` at bet ``level``
    through a run of ``spins`` rounds: their state (:attr:`state`, the
    :class:`~slotmath.simulate._kernels.PoolState` the kernel updates), played batch after
    batch (:meth:`play`), and what they paid, block by block."""

    def __init__(self, game: Game, level: int, pays: PayTables, spins: int):
        wheel = game.bonus_wheel
        specs = game.jackpots
        bet = game.bet_value(level)
        if wheel is None or sorted(wheel.jackpots) != sorted(s.name for s in specs):
            raise ValueError(f"{game.name}: the jackpots {[s.name for s in specs]} need one "
                             f"bonus-wheel division each")
        try:
            rules.check_wheel_jackpots(wheel)
        except rules.RuleError as err:
            raise ValueError(f"{game.name}: bonus_wheel: {err}") from None
        self.names = tuple(s.name for s in specs)
        self.bet_value: Fraction = bet
        self.credits_per_currency = pays.credits_per_bet / float(bet)
        self.spins = spins
        self.blocks = max(1, min(BLOCKS, spins // 2))
        law, law_a, law_b = law_arrays(game, level)
        seed = np.array([float(s.seed) for s in specs])
        self.state = _kernels.PoolState(
            seed=seed,
            to_pool=np.array([float((1 - s.reserve_fraction) * s.contribution * bet)
                              for s in specs]),
            to_reserve=np.array([float(s.reserve_fraction * s.contribution * bet)
                                 for s in specs]),
            law=law, law_a=law_a, law_b=law_b, spins=self.spins, blocks=self.blocks,
            pool=seed.copy(), reserve=np.zeros(len(specs)),
            block_hits=np.zeros((len(specs), self.blocks), np.int64),
            block_paid=np.zeros((len(specs), self.blocks)),
        )
        self.coin_cumulative = pays.wheel_cumulative
        self.coin_credits = pays.wheel_credits

    def play(self, rng: np.random.Generator, first: int, wheel_base: np.ndarray,
             wheel_free: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rounds ``first ..`` with these wheel spins (paid spin, free spins) each: the coin
        credits of their wheel spins (paid spin, free spins; never multiplied) and the currency
        their jackpots paid. Draws one uniform, then one coin division, per wheel spin."""
        n = wheel_base.size
        total = int(wheel_base.sum() + wheel_free.sum())
        u = rng.random(total)
        stops = rng.integers(0, int(self.coin_cumulative[-1]), size=total)
        coin = self.coin_credits[np.searchsorted(self.coin_cumulative, stops, side="right")]
        batch = _kernels.WheelBatch(
            first=first, wheel_base=wheel_base, wheel_free=wheel_free, u=u, coin=coin,
            paid=np.zeros(n), coin_base=np.zeros(n, np.int64), coin_free=np.zeros(n, np.int64))
        _kernels.jackpot_rounds(self.state, batch)
        return batch.coin_base, batch.coin_free, batch.paid

    @property
    def paid(self) -> float:
        """Currency paid by all pools so far."""
        return float(self.state.block_paid.sum())

    def results(self) -> tuple[JackpotResult, ...]:
        rounds = block_sizes(self.spins, self.blocks)
        bet = float(self.bet_value)
        out = []
        for j, name in enumerate(self.names):
            hits_k, paid_k = self.state.block_hits[j], self.state.block_paid[j]
            hits = int(hits_k.sum())
            paid = float(paid_k.sum())
            out.append(JackpotResult(
                name=name,
                hits=hits,
                hits_per_round=hits / self.spins,
                hits_per_round_std_error=ratio_std_error(hits_k, rounds),
                mean_value=paid / hits if hits else 0.0,
                mean_value_std_error=ratio_std_error(paid_k, hits_k) if hits else 0.0,
                rtp=paid / (self.spins * bet),
                rtp_std_error=ratio_std_error(paid_k / bet, rounds),
                final_pool=float(self.state.pool[j]),
                final_reserve=float(self.state.reserve[j]),
                hits_per_block=hits / self.blocks,
            ))
        return tuple(out)
