"""Seeded Monte Carlo simulation of whole rounds: the independent cross-check of the exact
engines, and the tool for what no exact method covers.

A round is one paid spin on the ``"base"`` reel set plus, when it triggers, the free-spins
feature played to its end, plus the bonus-wheel spins that any of these spins triggers. With
progressive jackpots every paid round also feeds the pools, and a wheel spin may win one
(:mod:`slotmath.simulate.jackpots`); with a max-win cap a round's coin win is cut at the cap.
Results are reproducible: the only source of randomness is
``numpy.random.Generator(numpy.random.PCG64(seed))``, used in a fixed order.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from fractions import Fraction

import numpy as np
from tqdm.auto import tqdm

from slotmath.evaluate.window import PayModel
from slotmath.model.game import Game
from slotmath.simulate import _kernels
from slotmath.simulate.jackpots import JackpotResult, Pools, block_of, block_sizes, ratio_std_error
from slotmath.simulate.tables import PayTables, ReelTables, compile_pays, compile_reels

BATCH = 1 << 20  # paid spins drawn and paid per kernel call
PARALLEL_MIN = 1 << 15  # smaller batches (free-spin rounds) are paid on one thread


@dataclass(frozen=True)
class SimulationResult:
    """What a simulation measured. Money is in total bets at the simulated bet level unless
    said otherwise.

    Attributes
    ----------
    spins : int
        Paid spins (rounds) simulated.
    rtp : float
        Mean return of a round (paid spin plus any feature it triggers, coin win after the
        max-win cap, plus the jackpots it won): ``base + free_spins + max_win_cap +
        jackpot_rtp``.
    std_error : float
        Standard error of ``rtp``: ``std / sqrt(spins)``; for a game with jackpots, whose
        rounds are not independent, by batch means over ``batches`` consecutive blocks of
        rounds (see :mod:`slotmath.simulate.jackpots`).
    hit_frequency : float
        Fraction of rounds whose total return, feature and jackpots included, is above zero.
    std : float
        Sample standard deviation of the round's return.
    base : float
        Mean coin win of the paid spin alone (lines or ways plus scatter, plus the coin prizes
        of the bonus-wheel spins it triggers), before the cap.
    free_spins : float
        Mean coin win of the free-spins feature per round (0 where it did not trigger),
        bonus-wheel coin prizes in free spins included, before the cap.
    trigger_rate : float
        Fraction of rounds that triggered free spins.
    spins_per_feature : float
        Mean number of free spins played per triggered feature (0 if none triggered).
    seed : int
    level : int
    bonus_wheel : float
        Mean bonus-wheel coin win per round, base and free spins together (0 without a
        wheel; a wheel spin that wins a jackpot pays no coins); already part of ``base`` and
        ``free_spins``.
    max_win_cap : float
        Minus the RTP the max-win cap removed (0 without a cap, or if no round reached it).
    max_win_cap_std_error : float
        Its standard error (batch means with jackpots, as ``std_error``).
    capped_rounds : int
        Rounds whose coin win was cut at the cap.
    jackpot_rtp : float
        What all jackpot pools paid, per round, in total bets (currency paid over currency
        bet).
    jackpots : tuple of JackpotResult
        Each pool's hits, "1 in N", mean value at a hit (currency) and RTP share, in the
        order of ``game.jackpots``.
    batches : int
        Blocks of consecutive rounds behind ``std_error`` (0: rounds independent).
    """

    spins: int
    rtp: float
    std_error: float
    hit_frequency: float
    std: float
    base: float
    free_spins: float
    trigger_rate: float
    spins_per_feature: float
    seed: int
    level: int
    bonus_wheel: float = 0.0
    max_win_cap: float = 0.0
    max_win_cap_std_error: float = 0.0
    capped_rounds: int = 0
    jackpot_rtp: float = 0.0
    jackpots: tuple[JackpotResult, ...] = ()
    batches: int = 0

    @property
    def capped_rate(self) -> float:
        """Fraction of rounds whose coin win was cut at the max-win cap."""
        return self.capped_rounds / self.spins

    def jackpot(self, name: str) -> JackpotResult:
        """The pool named ``name``."""
        for pool in self.jackpots:
            if pool.name == name:
                return pool
        raise KeyError(f"no jackpot {name!r}; have {[p.name for p in self.jackpots]}")

    def confidence_interval(self, z: float = 1.96) -> tuple[float, float]:
        """Normal-approximation interval ``rtp -+ z * std_error``.

        Examples
        --------
        >>> r = SimulationResult(100, 0.9, 0.1, 0.3, 1.0, 0.9, 0.0, 0.0, 0.0, 1, 1)
        >>> tuple(round(v, 3) for v in r.confidence_interval())
        (0.704, 1.096)
        """
        return self.rtp - z * self.std_error, self.rtp + z * self.std_error

    def as_dict(self) -> dict:
        """Plain fields, for JSON (each jackpot a dict with its ``one_in`` added)."""
        out = asdict(self)
        out["jackpots"] = [dict(asdict(pool), one_in=pool.one_in) for pool in self.jackpots]
        return out


class _CapTally:
    """The max-win cap of a round's coin win, in credits ``floor + fraction`` (exact), and
    what it removed so far: rounds capped, credits above the cap (exact, as credits above
    the floor less the fraction per capped round), their squares and block sums (floats,
    for the standard error)."""

    def __init__(self, credits: Fraction, blocks: int):
        self.floor = math.floor(credits)
        self.fraction = credits - self.floor
        self.rounds = 0
        self.above_floor = 0
        self.squares = 0.0
        self.block_removed = np.zeros(blocks)

    @classmethod
    def of(cls, game: Game, level: int, credits_per_bet: int, blocks: int) -> _CapTally | None:
        """The cap of ``game`` at ``level`` (None without one)."""
        cap = game.cap_coins(level)
        if cap is None:
            return None
        return cls(Fraction(cap) * credits_per_bet / game.total_bet(level), blocks)

    def apply(self, win: np.ndarray, block: np.ndarray | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
        """The round wins cut at the cap's floor (integer credits; a capped round is worth
        the fraction more), and which rounds were capped."""
        over = win > self.floor  # for integer credits: win > floor + fraction
        capped = int(over.sum())
        if not capped:
            return win, over
        above = win[over] - self.floor
        self.rounds += capped
        self.above_floor += int(above.sum())
        removed = above - float(self.fraction)
        self.squares += float(removed @ removed)
        if block is not None:
            self.block_removed += np.bincount(block[over], weights=removed,
                                              minlength=self.block_removed.size)
        return np.minimum(win, self.floor), over

    @property
    def removed(self) -> Fraction:
        """Credits the cap removed, exactly."""
        return self.above_floor - self.rounds * self.fraction

    def std_error(self, spins: int, block_rounds: np.ndarray | None) -> float:
        """Standard error (credits per round) of the mean removed per round: from the
        squares for independent rounds, else by batch means over the blocks."""
        if block_rounds is not None:
            return ratio_std_error(self.block_removed, block_rounds)
        if spins < 2:
            return 0.0
        mean = float(self.removed) / spins
        variance = max(self.squares / spins - mean * mean, 0.0) * spins / (spins - 1)
        return math.sqrt(variance / spins)


def simulate(game: Game, spins: int, seed: int, level: int = 1,
             progress: bool = False) -> SimulationResult:
    """Play ``spins`` seeded rounds of ``game``.

    Parameters
    ----------
    game : Game
    spins : int
        Number of paid spins (rounds).
    seed : int
        Seed of the ``PCG64`` bit generator; the same seed gives the same result.
    level : int
        Bet level (one of ``game.bet_levels``).
    progress : bool
        Show a progress bar (``tqdm.auto``).

    Returns
    -------
    SimulationResult

    Notes
    -----
    Each round spins the ``"base"`` reel set. When its window shows ``n`` free-spins
    trigger symbols and ``game.free_spins.award_for(n) > 0``, the feature plays that many
    spins on the feature's reel set; each free spin's whole win (lines or ways and
    scatters) is multiplied by the feature multiplier. With ``retrigger`` the awards apply
    during free spins too, truncated so that the feature never exceeds ``max_spins`` spins.

    With a bonus wheel, every spin (paid or free) whose window shows the wheel symbol on
    reels 1 to ``count`` of a payline spins the wheel once, or once per such line
    (``per_spin = "per_line"``); each wheel spin stops on a division drawn exactly by weight
    (``Generator.integers`` on the total weight, then the cumulative weights) and pays its
    prize. In free spins the prize is multiplied by the feature multiplier only if the
    wheel is ``multiplied``.

    With progressive jackpots (``game.jackpots``) the rounds are played through the pools
    in order: each paid round contributes to every pool before it is played, and each of its
    wheel spins first draws whether it wins a pool (the pool's hit law at the pool's current
    value and the bet level), and only if it does not, a coin division by weight; a win
    pays the pool's value in currency and restarts the pool at its seed plus its reserve
    (:mod:`slotmath.simulate.jackpots` has the details and the standard errors).

    With a max-win cap (``game.max_win``) a round's coin win (paid spin, free spins, wheel
    coin prizes) is cut at ``game.cap_coins(level)`` coins, exactly (in the pay model's
    credits, the fractional part kept as a Fraction); the round is still played to its end,
    and jackpots are paid on top.

    Paid spins are drawn in batches: 16 random bits per reel (32 when a reel's total
    weight is above 1024, and for free spins), turned into a stop by Lemire's
    multiply-shift with rejection
    (exactly uniform, or exactly by weight through the cumulative weights); the rare
    rejected spin is drawn again with ``Generator.integers``, which also draws every stop
    of a reel set whose total weight reaches 2**32. The batch is paid in parallel by a
    numba kernel on integer tables compiled from
    :class:`~slotmath.evaluate.window.PayModel`; the features of the batch's triggered
    rounds are then played in order, one free spin of every running feature at a time,
    drawn and paid the same way.

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.load_game("data/games/classic_fruits.toml")
    >>> result = simulate(game, 200_000, seed=1)
    >>> result == simulate(game, 200_000, seed=1)
    True
    >>> abs(result.rtp - (result.base + result.free_spins)) < 1e-12
    True
    """
    if isinstance(spins, bool) or not isinstance(spins, (int, np.integer)) or spins < 1:
        raise ValueError(f"spins must be a whole number >= 1, got {spins!r}")
    spins = int(spins)
    model = PayModel(game, level)
    pays = compile_pays(game, model)
    base_reels = compile_reels(game, model, pays, "base")
    free_spins = game.free_spins
    free_reels = None
    if free_spins is not None:
        free_reels = compile_reels(game, model, pays, free_spins.reels)
    per_bet = pays.credits_per_bet
    pools = Pools(game, level, pays, spins) if game.jackpots else None
    blocks = pools.blocks if pools is not None else 0
    cap = _CapTally.of(game, level, per_bet, blocks)
    wheel = game.bonus_wheel
    rng = np.random.Generator(np.random.PCG64(seed))

    base_total = 0
    wheel_total = 0
    feature_total = 0
    round_total = 0  # coin credits of the rounds after the cap (at its floor)
    features = 0
    feature_spins = 0
    hits = 0
    mean = 0.0  # running mean and sum of squared deviations (Chan et al.) of the round win
    squares = 0.0
    block_return = np.zeros(blocks)  # sums of the round's return, block by block
    done = 0
    with tqdm(total=spins, disable=not progress, unit="spin", unit_scale=True,
              desc=game.name) as bar:
        while done < spins:
            n = min(BATCH, spins - done)
            win, awarded, lines = _spin_lines(rng, base_reels, pays, n)
            if pools is None:  # wheel prizes drawn at once; with jackpots, after the rounds
                wheel_win = _wheel_wins(rng, pays, lines)
                if wheel_win is not None:
                    win += wheel_win  # win: the paid spin's, its wheel spins included
                    wheel_total += int(wheel_win.sum())
            triggered = np.flatnonzero(awarded)
            batch_feature = 0
            feature_wheel_spins = None
            if triggered.size:
                feature_win, played, feature_wheel, feature_wheel_spins = _play_features(
                    rng, free_reels, pays, free_spins, wheel, awarded[triggered],
                    draw_wheel=pools is None)
                win[triggered] += feature_win  # win: the whole round's
                batch_feature = int(feature_win.sum())
                wheel_total += feature_wheel
                features += triggered.size
                feature_spins += int(played.sum())
            paid = None
            if pools is not None:
                free_wheel = np.zeros(n, np.int64)
                if feature_wheel_spins is not None:
                    free_wheel[triggered] = feature_wheel_spins
                coin_base, coin_free, paid = pools.play(rng, done, _wheel_spins(pays, lines),
                                                        free_wheel)
                win += coin_base
                win += coin_free
                batch_wheel_free = int(coin_free.sum())
                wheel_total += int(coin_base.sum()) + batch_wheel_free
                batch_feature += batch_wheel_free
            if cap is None and paid is None:  # the plain game: exact integer moments
                batch_total, batch_squares, batch_hits = _kernels.moments(win)
                base_total += int(batch_total) - batch_feature
                round_total += int(batch_total)
            else:
                base_total += int(win.sum()) - batch_feature
                block = block_of(done, n, spins, blocks) if pools is not None else None
                x = win
                if cap is not None:
                    x, over = cap.apply(win, block)
                round_total += int(x.sum())
                if paid is not None or (cap is not None and cap.fraction):
                    x = x.astype(np.float64)  # in credits, as the plain game's
                    if cap is not None:
                        x[over] += float(cap.fraction)
                    if paid is not None:
                        x += paid * pools.credits_per_currency
                if block is not None:
                    block_return += np.bincount(block, weights=x, minlength=blocks)
                batch_total, batch_squares, batch_hits = _kernels.moments(x)
            feature_total += batch_feature
            batch_mean = batch_total / n
            delta = batch_mean - mean
            squares += batch_squares + delta * delta * done * n / (done + n)
            mean += delta * n / (done + n)
            hits += int(batch_hits)
            done += n
            bar.update(n)

    std = math.sqrt(squares / (spins - 1)) / per_bet if spins > 1 else 0.0
    std_error = std / math.sqrt(spins)
    block_rounds = None
    jackpot_rtp = 0.0
    jackpots: tuple[JackpotResult, ...] = ()
    if pools is not None:
        block_rounds = block_sizes(spins, blocks)
        std_error = ratio_std_error(block_return, block_rounds) / per_bet
        jackpots = pools.results()
        jackpot_rtp = pools.paid / spins / float(pools.bet_value)
    coin_credits = round_total  # after the cap: capped rounds are worth its fraction more
    removed = 0
    cap_std_error = 0.0
    if cap is not None:
        coin_credits += cap.rounds * cap.fraction
        removed = cap.removed
        cap_std_error = cap.std_error(spins, block_rounds) / per_bet
    return SimulationResult(
        spins=spins,
        rtp=float(coin_credits / spins / per_bet) + jackpot_rtp,
        std_error=std_error,
        hit_frequency=hits / spins,
        std=std,
        base=base_total / spins / per_bet,
        free_spins=feature_total / spins / per_bet,
        trigger_rate=features / spins,
        spins_per_feature=feature_spins / features if features else 0.0,
        seed=seed,
        level=level,
        bonus_wheel=wheel_total / spins / per_bet,
        max_win_cap=float(-removed / spins / per_bet),
        max_win_cap_std_error=cap_std_error,
        capped_rounds=cap.rounds if cap is not None else 0,
        jackpot_rtp=jackpot_rtp,
        jackpots=jackpots,
        batches=blocks,
    )


def _pay(reels: ReelTables, pays: PayTables, n: int, bits: np.ndarray | None = None,
         bit_width: int = 0, stops: np.ndarray | None = None, parallel: bool | None = None
         ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Credits, free spins awarded, bonus-wheel trigger lines and rejection flag of ``n``
    spins: from ``bit_width`` random bits a stop, or from given stops.

    Without a bonus wheel the trigger lines are an empty array.

    ``parallel=None`` uses the threaded kernel for batches of at least ``PARALLEL_MIN``.
    """
    n_reels = reels.lengths.shape[0]
    if bits is None:
        bits = np.zeros(0, np.uint16)
    if stops is None:
        stops = np.zeros((0, n_reels), np.int64)
    win = np.empty(n, np.int64)
    award = np.empty(n, np.int64)
    lines = np.zeros(n if pays.wheel_count else 0, np.int64)
    wheel_mask = reels.wheel_mask if pays.wheel_count else None  # None: kernel without wheel
    rejected = np.empty(n, np.bool_)
    if parallel is None:
        parallel = n >= PARALLEL_MIN
    kernel = _kernels.spin_batch if parallel else _kernels.spin_batch_serial
    kernel(
        n, bits, bit_width, stops, reels.lengths, reels.totals,
        reels.thresholds[0 if bit_width == 16 else 1],
        reels.weighted, reels.cumulative, pays.mode, reels.line_part, reels.mask_strides,
        reels.mask_12, reels.mask_23, pays.pay_table, pays.member, pays.class_multiplier,
        pays.key_pay, reels.ways_count, reels.count_code, pays.count_radix,
        pays.scatter_table, pays.award_table, pays.counted_credits, pays.trigger,
        pays.trigger_cap, pays.awards, pays.wheel_count, wheel_mask, win, award, lines,
        rejected,
    )
    return win, award, lines, rejected


def _draw_stops(rng: np.random.Generator, reels: ReelTables, n: int) -> np.ndarray:
    """``n`` stop combinations drawn with ``Generator.integers`` (uniform or by weight)."""
    n_reels = reels.lengths.shape[0]
    stops = np.empty((n, n_reels), np.int64)
    for j in range(n_reels):
        length = int(reels.lengths[j])
        if reels.weighted[j]:
            cumulative = reels.cumulative[j, :length]
            u = rng.integers(0, int(cumulative[-1]), size=n)
            stops[:, j] = np.searchsorted(cumulative, u, side="right")
        else:
            stops[:, j] = rng.integers(0, length, size=n)
    return stops


def _spin_lines(rng: np.random.Generator, reels: ReelTables, pays: PayTables, n: int,
                narrow: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Credits, free spins awarded and bonus-wheel trigger lines (an empty array without a
    wheel) of ``n`` random spins.

    ``narrow``: 16 random bits a stop where the reels allow it (half the drawing work, but
    more spins rejected and drawn again: for large batches), else 32.
    """
    widths = [w for w in reels.bit_widths if narrow or w == 32]
    if not widths:
        win, award, lines, _ = _pay(reels, pays, n, stops=_draw_stops(rng, reels, n))
        return win, award, lines
    # The random bits, as 16-bit words cut from 64-bit draws (the Generator's cheapest).
    words = n * reels.lengths.shape[0] * (widths[0] // 16)
    bits = rng.integers(0, np.iinfo(np.uint64).max, size=(words + 3) // 4, dtype=np.uint64,
                        endpoint=True).view(np.uint16)
    win, award, lines, rejected = _pay(reels, pays, n, bits=bits, bit_width=widths[0])
    again = np.flatnonzero(rejected)
    if again.size:
        stops = _draw_stops(rng, reels, again.size)
        win[again], award[again], lines_again, _ = _pay(reels, pays, again.size, stops=stops)
        if pays.wheel_count:
            lines[again] = lines_again
    return win, award, lines


def _wheel_spins(pays: PayTables, lines: np.ndarray) -> np.ndarray:
    """Bonus-wheel spins of each spin, given its trigger lines."""
    return lines if pays.wheel_per_line else np.minimum(lines, 1)


def _wheel_wins(rng: np.random.Generator, pays: PayTables, lines: np.ndarray
                ) -> np.ndarray | None:
    """Credits of the bonus-wheel spins of each spin, given its trigger lines, spin after
    spin (``None`` without a wheel). Each wheel spin draws u uniform on [0, total weight)
    and stops on the first division whose cumulative weight exceeds u.
    """
    if not pays.wheel_count:
        return None
    wheel_spins = _wheel_spins(pays, lines)
    wins = np.zeros(lines.size, np.int64)
    spinning = np.flatnonzero(wheel_spins)
    if spinning.size:
        counts = wheel_spins[spinning]
        u = rng.integers(0, int(pays.wheel_cumulative[-1]), size=int(counts.sum()))
        prizes = pays.wheel_credits[np.searchsorted(pays.wheel_cumulative, u, side="right")]
        np.add.at(wins, np.repeat(spinning, counts), prizes)
    return wins


def _play_features(rng, reels: ReelTables, pays: PayTables, free_spins, wheel,
                   awarded: np.ndarray, draw_wheel: bool = True
                   ) -> tuple[np.ndarray, np.ndarray, int, np.ndarray | None]:
    """Total win (credits, multiplier applied, wheel included) and spins played of each
    feature, and the credits of all their bonus-wheel spins (multiplier applied if the
    wheel is ``multiplied``).

    ``draw_wheel=False`` (jackpot wheels, played later through the pools): the wheel spins
    are not drawn but counted, and the last value is each feature's number of wheel spins
    (else None).
    """
    multiplier = free_spins.multiplier
    wheel_multiplier = multiplier if wheel is not None and wheel.multiplied else 1
    wheel_total = 0
    cap = free_spins.max_spins
    awarded = np.minimum(awarded, cap) if cap is not None else awarded.copy()
    total = np.zeros(awarded.size, np.int64)
    played = np.zeros(awarded.size, np.int64)
    wheel_spins = None if draw_wheel else np.zeros(awarded.size, np.int64)
    running = np.arange(awarded.size)
    while running.size:  # one free spin of every running feature, in feature order
        win, extra, lines = _spin_lines(rng, reels, pays, running.size, narrow=False)
        win *= multiplier
        if not draw_wheel:
            wheel_spins[running] += _wheel_spins(pays, lines)
        else:
            wheel_win = _wheel_wins(rng, pays, lines)
            if wheel_win is not None:
                wheel_win *= wheel_multiplier
                win += wheel_win
                wheel_total += int(wheel_win.sum())
        total[running] += win
        played[running] += 1
        if free_spins.retrigger:
            if cap is not None:
                extra = np.minimum(extra, cap - awarded[running])
            awarded[running] += extra
        running = running[played[running] < awarded[running]]
    return total, played, wheel_total, wheel_spins
