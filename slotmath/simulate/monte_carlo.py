"""Seeded Monte Carlo simulation of whole rounds: the independent cross-check of the exact
engines, and the tool for what no exact method covers.

A round is one paid spin on the ``"base"`` reel set plus, when it triggers, the free-spins
feature played to its end, plus the bonus-wheel spins that any of these spins triggers. Results are reproducible: the only source of randomness is
``numpy.random.Generator(numpy.random.PCG64(seed))``, used in a fixed order.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
from tqdm.auto import tqdm

from slotmath.evaluate.window import PayModel
from slotmath.model.game import Game
from slotmath.simulate import _kernels
from slotmath.simulate.tables import PayTables, ReelTables, compile_pays, compile_reels

BATCH = 1 << 20  # paid spins drawn and paid per kernel call
PARALLEL_MIN = 1 << 15  # smaller batches (free-spin rounds) are paid on one thread


@dataclass(frozen=True)
class SimulationResult:
    """What a simulation measured. Money is in total bets at the simulated bet level.

    Attributes
    ----------
    spins : int
        Paid spins (rounds) simulated.
    rtp : float
        Mean win of a round (paid spin plus any feature it triggers).
    std_error : float
        Standard error of ``rtp``: ``std / sqrt(spins)``.
    hit_frequency : float
        Fraction of rounds whose total win, feature included, is above zero.
    std : float
        Sample standard deviation of the round win.
    base : float
        Mean win of the paid spin alone (lines or ways plus scatter, plus the bonus-wheel
        spins it triggers).
    free_spins : float
        Mean win of the free-spins feature per round (0 where it did not trigger), bonus-wheel
        spins triggered in free spins included.
    trigger_rate : float
        Fraction of rounds that triggered free spins.
    spins_per_feature : float
        Mean number of free spins played per triggered feature (0 if none triggered).
    seed : int
    level : int
    bonus_wheel : float
        Mean bonus-wheel win per round, base and free spins together (0 without a wheel);
        already part of ``base`` and ``free_spins``.
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
        """Plain fields, for JSON."""
        return asdict(self)


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
    model = PayModel(game, level)
    pays = compile_pays(game, model)
    base_reels = compile_reels(game, model, pays, "base")
    free_spins = game.free_spins
    free_reels = None
    if free_spins is not None:
        free_reels = compile_reels(game, model, pays, free_spins.reels)
    rng = np.random.Generator(np.random.PCG64(seed))

    base_total = 0
    wheel_total = 0
    feature_total = 0
    round_total = 0
    features = 0
    feature_spins = 0
    hits = 0
    mean = 0.0  # running mean and sum of squared deviations (Chan et al.) of the round win
    squares = 0.0
    done = 0
    with tqdm(total=spins, disable=not progress, unit="spin", unit_scale=True,
              desc=game.name) as bar:
        while done < spins:
            n = min(BATCH, spins - done)
            win, awarded, wheel_win = _spins(rng, base_reels, pays, n)
            if wheel_win is not None:
                win += wheel_win  # win: the paid spin's, its wheel spins included
                wheel_total += int(wheel_win.sum())
            triggered = np.flatnonzero(awarded)
            batch_feature = 0
            if triggered.size:
                feature_win, played, feature_wheel = _play_features(
                    rng, free_reels, pays, free_spins, game.bonus_wheel, awarded[triggered])
                win[triggered] += feature_win  # win: the whole round's
                batch_feature = int(feature_win.sum())
                wheel_total += feature_wheel
                features += triggered.size
                feature_spins += int(played.sum())
            batch_total, batch_squares, batch_hits = _kernels.moments(win)
            feature_total += batch_feature
            base_total += int(batch_total) - batch_feature
            batch_mean = batch_total / n
            delta = batch_mean - mean
            squares += batch_squares + delta * delta * done * n / (done + n)
            mean += delta * n / (done + n)
            round_total += int(batch_total)
            hits += int(batch_hits)
            done += n
            bar.update(n)

    per_bet = pays.credits_per_bet
    std = math.sqrt(squares / (spins - 1)) / per_bet if spins > 1 else 0.0
    return SimulationResult(
        spins=int(spins),
        rtp=round_total / spins / per_bet,
        std_error=std / math.sqrt(spins),
        hit_frequency=hits / spins,
        std=std,
        base=base_total / spins / per_bet,
        free_spins=feature_total / spins / per_bet,
        trigger_rate=features / spins,
        spins_per_feature=feature_spins / features if features else 0.0,
        seed=seed,
        level=level,
        bonus_wheel=wheel_total / spins / per_bet,
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


def _spins(rng: np.random.Generator, reels: ReelTables, pays: PayTables, n: int,
           narrow: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Credits and free spins awarded of ``n`` random spins, and the credits of the
    bonus-wheel spins they trigger (drawn after the spins; ``None`` without a wheel).

    ``narrow``: 16 random bits a stop where the reels allow it (half the drawing work, but
    more spins rejected and drawn again: for large batches), else 32.
    """
    widths = [w for w in reels.bit_widths if narrow or w == 32]
    if not widths:
        win, award, lines, _ = _pay(reels, pays, n, stops=_draw_stops(rng, reels, n))
        return win, award, _wheel_wins(rng, pays, lines)
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
    return win, award, _wheel_wins(rng, pays, lines)


def _wheel_wins(rng: np.random.Generator, pays: PayTables, lines: np.ndarray
                ) -> np.ndarray | None:
    """Credits of the bonus-wheel spins of each spin, given its trigger lines, spin after
    spin (``None`` without a wheel). Each wheel spin draws u uniform on [0, total weight)
    and stops on the first division whose cumulative weight exceeds u.
    """
    if not pays.wheel_count:
        return None
    wheel_spins = lines if pays.wheel_per_line else np.minimum(lines, 1)
    wins = np.zeros(lines.size, np.int64)
    spinning = np.flatnonzero(wheel_spins)
    if spinning.size:
        counts = wheel_spins[spinning]
        u = rng.integers(0, int(pays.wheel_cumulative[-1]), size=int(counts.sum()))
        prizes = pays.wheel_credits[np.searchsorted(pays.wheel_cumulative, u, side="right")]
        np.add.at(wins, np.repeat(spinning, counts), prizes)
    return wins


def _play_features(rng, reels: ReelTables, pays: PayTables, free_spins, wheel,
                   awarded: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Total win (credits, multiplier applied, wheel included) and spins played of each
    feature, and the credits of all their bonus-wheel spins (multiplier applied if the
    wheel is ``multiplied``)."""
    multiplier = free_spins.multiplier
    wheel_multiplier = multiplier if wheel is not None and wheel.multiplied else 1
    wheel_total = 0
    cap = free_spins.max_spins
    awarded = np.minimum(awarded, cap) if cap is not None else awarded.copy()
    total = np.zeros(awarded.size, np.int64)
    played = np.zeros(awarded.size, np.int64)
    running = np.arange(awarded.size)
    while running.size:  # one free spin of every running feature, in feature order
        win, extra, wheel_win = _spins(rng, reels, pays, running.size, narrow=False)
        win *= multiplier
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
    return total, played, wheel_total
