"""Seeded Monte Carlo simulation of whole rounds: the independent cross-check of the exact
engines, and the tool for what no exact method covers.

A round is one paid spin on the ``"base"`` reel set plus, when it triggers, the free-spins
feature played to its end, plus the bonus-wheel spins that any of these spins triggers. With
progressive jackpots every paid round also feeds the pools, and a wheel spin may win one
(:mod:`slotmath.simulate.jackpots`); with a max-win cap a round's coin win is cut at the cap.
Results are reproducible: the only source of randomness is
``numpy.random.Generator(numpy.random.PCG64(seed))``, used in a fixed order.

Each part of a round is played by its own function, the simulator counterpart of an exact
part of the analysis:

- paid spin: :func:`slotmath.simulate.spins.play_paid_spins`
- free-spins feature: :func:`slotmath.simulate.free_spins.play_free_spins`
- bonus wheel: :func:`slotmath.simulate.bonus_wheel.play_bonus_wheel`
- jackpot pools: :meth:`slotmath.simulate.jackpots.Pools.play`
- max-win cap: :class:`slotmath.simulate.cap.MaxWinCap` (:meth:`~MaxWinCap.apply`)

:func:`simulate_rounds` plays the rounds in batches of :data:`BATCH` through these and adds up
what they paid; the front door :func:`slotmath.simulate.simulate` calls it for such a game.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np
from tqdm.auto import tqdm

from slotmath.evaluate.window import PayModel
from slotmath.model.game import Game
from slotmath.simulate import _kernels
from slotmath.simulate.bonus_wheel import play_bonus_wheel, wheel_spins
from slotmath.simulate.cap import MaxWinCap
from slotmath.simulate.free_spins import play_free_spins
from slotmath.simulate.jackpots import JackpotResult, Pools, block_of, block_sizes, ratio_std_error
from slotmath.simulate.spins import ReelSet, play_paid_spins
from slotmath.simulate.tables import compile_pays

BATCH = 1 << 20  # paid spins drawn and paid per kernel call


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
    components : dict name -> float
        The RTP by source, keyed by feature name as the simulator splits it: ``pays`` (the
        paid spin's window: lines or ways, scatters, every cascade drop), then each feature
        that pays; they add up to ``rtp``. Every simulator fills it (the same shape for
        every game).
    trigger_rates : dict name -> float
        Fraction of rounds that started each round feature (by feature name).
    details : dict name -> dict
        A feature's own simulated figures, by feature name, as plain numbers (what its
        ``simulation`` hook reports; e.g. a hold & win game's named values per paid round).
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
    components: dict = field(default_factory=dict)
    trigger_rates: dict = field(default_factory=dict)
    details: dict = field(default_factory=dict)

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


def simulate_rounds(game: Game, spins: int, seed: int, level: int = 1,
                    progress: bool | float = False) -> SimulationResult:
    """Play ``spins`` seeded rounds of ``game``: the round simulator of the plain pays and the
    features they play (free spins, the bonus wheel, jackpots, the max-win cap), which the
    front door :func:`slotmath.simulate.simulate` calls for such a game.

    Parameters
    ----------
    game : Game
    spins : int
        Number of paid spins (rounds).
    seed : int
        Seed of the ``PCG64`` bit generator; the same seed gives the same result.
    level : int
        Bet level (one of ``game.bet_levels``).
    progress : bool or float
        Show a progress bar (``tqdm.auto``: a widget in a notebook); a number of seconds
        shows it only once the run has taken that long (the CLI's default, 2 s).

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
    >>> result = simulate_rounds(game, 200_000, seed=1)
    >>> result == simulate_rounds(game, 200_000, seed=1)
    True
    >>> round(sum(result.components.values()) - result.rtp, 12)
    0.0
    """
    spins = _spin_count(spins)
    run = _Run(game, level, spins)
    rng = np.random.Generator(np.random.PCG64(seed))
    delay = 0.0 if isinstance(progress, bool) else float(progress)
    with tqdm(total=spins, disable=progress is False, unit="spin", unit_scale=True,
              desc=game.name, delay=delay) as bar:
        while run.done < spins:
            n = min(BATCH, spins - run.done)
            run.play_batch(rng, n)
            bar.update(n)
    return run.result(seed, level)


def _spin_count(spins) -> int:
    """``spins`` as an int, checked."""
    if isinstance(spins, bool) or not isinstance(spins, (int, np.integer)) or spins < 1:
        raise ValueError(f"spins must be a whole number >= 1, got {spins!r}")
    return int(spins)


class _Run:
    """One run of ``spins`` rounds of ``game`` at ``level``: the parts of a round compiled
    for the bet level, and what the rounds played so far paid (credits unless said)."""

    def __init__(self, game: Game, level: int, spins: int):
        model = PayModel(game, level)
        self.pays = compile_pays(game, model)
        self.base = ReelSet.compile(game, model, self.pays, "base")
        self.free_spins = game.free_spins
        self.free = None
        if self.free_spins is not None:
            self.free = ReelSet.compile(game, model, self.pays, self.free_spins.reels)
        self.wheel = game.bonus_wheel
        self.per_bet = self.pays.credits_per_bet
        self.spins = spins
        self.pools = Pools(game, level, self.pays, spins) if game.jackpots else None
        self.blocks = self.pools.blocks if self.pools is not None else 0
        self.cap = MaxWinCap.of(game, level, self.per_bet, self.blocks)

        self.done = 0  # rounds played
        self.base_total = 0  # coin credits of the paid spins, their wheel spins included
        self.wheel_total = 0
        self.free_wheel_total = 0  # coin prizes of the wheel spins played in free spins
        self.feature_total = 0
        self.round_total = 0  # coin credits of the rounds after the cap (at its floor)
        self.features = 0
        self.feature_spins = 0
        self.hits = 0
        self.mean = 0.0  # running mean and sum of squared deviations of the round's return
        self.squares = 0.0
        self.block_return = np.zeros(self.blocks)  # sums of the round's return, by block

    def play_batch(self, rng: np.random.Generator, n: int) -> None:
        """Play the next ``n`` rounds and add up what they paid."""
        win, awarded, lines = play_paid_spins(rng, self.base, n)
        if self.pools is None:  # wheel prizes drawn at once; with jackpots, after the rounds
            wheel_win = play_bonus_wheel(rng, self.pays, lines)
            if wheel_win is not None:
                win += wheel_win  # win: the paid spin's, its wheel spins included
                self.wheel_total += int(wheel_win.sum())
        triggered = np.flatnonzero(awarded)
        feature_credits, feature_wheel_spins = self._play_features(rng, win, awarded, triggered)
        paid = None
        if self.pools is not None:
            free_wheel = np.zeros(n, np.int64)
            if feature_wheel_spins is not None:
                free_wheel[triggered] = feature_wheel_spins
            wheel_free, paid = self._play_pools(rng, win, wheel_spins(self.pays, lines),
                                                free_wheel)
            feature_credits += wheel_free
        self._add_rounds(win, feature_credits, paid)

    def _play_features(self, rng: np.random.Generator, win: np.ndarray, awarded: np.ndarray,
                       triggered: np.ndarray) -> tuple[int, np.ndarray | None]:
        """Play the free spins the rounds ``triggered`` were ``awarded``, adding their wins to
        ``win`` (then the whole round's); their credits and, with jackpots, the wheel spins
        of each feature (played later, through the pools)."""
        if not triggered.size:
            return 0, None
        features = play_free_spins(rng, self.free, self.pays, self.free_spins, self.wheel,
                                   awarded[triggered], draw_wheel=self.pools is None)
        win[triggered] += features.win
        self.wheel_total += features.wheel_credits
        self.free_wheel_total += features.wheel_credits
        self.features += triggered.size
        self.feature_spins += int(features.played.sum())
        return int(features.win.sum()), features.wheel_spins

    def _play_pools(self, rng: np.random.Generator, win: np.ndarray, wheel_base: np.ndarray,
                    wheel_free: np.ndarray) -> tuple[int, np.ndarray]:
        """Play the rounds' wheel spins (paid spin, free spins) through the jackpot pools,
        adding their coin prizes to ``win``; the coin credits of the free spins' wheel spins,
        and the currency each round's jackpots paid."""
        coin_base, coin_free, paid = self.pools.play(rng, self.done, wheel_base, wheel_free)
        win += coin_base
        win += coin_free
        wheel_free_credits = int(coin_free.sum())
        self.wheel_total += int(coin_base.sum()) + wheel_free_credits
        self.free_wheel_total += wheel_free_credits
        return wheel_free_credits, paid

    def _add_rounds(self, win: np.ndarray, feature_credits: int, paid: np.ndarray | None
                    ) -> None:
        """Add up rounds ``done ..`` that won ``win`` coin credits (``feature_credits`` of
        them in free spins) and ``paid`` currency in jackpots."""
        n = win.size
        if self.cap is None and paid is None:  # the plain game: exact integer moments
            total, squares, hits = _kernels.moments(win)
            self.base_total += int(total) - feature_credits
            self.round_total += int(total)
        else:
            self.base_total += int(win.sum()) - feature_credits
            total, squares, hits = _kernels.moments(self._round_returns(win, paid))
        self.feature_total += feature_credits
        # Chan et al.'s update of the running mean and squares by the batch's.
        delta = total / n - self.mean
        done = self.done
        self.squares += squares + delta * delta * done * n / (done + n)
        self.mean += delta * n / (done + n)
        self.hits += int(hits)
        self.done += n

    def _round_returns(self, win: np.ndarray, paid: np.ndarray | None) -> np.ndarray:
        """Each round's return in credits: its coin win after the cap, plus its jackpots
        (integers if there are no jackpots and the cap is whole credits); the capped part
        and the returns added up (block by block with jackpots) on the way."""
        cap, pools = self.cap, self.pools
        block = (block_of(self.done, win.size, self.spins, self.blocks) if pools is not None
                 else None)
        x = win
        if cap is not None:
            x, over = cap.apply(win, block)
        self.round_total += int(x.sum())
        if paid is not None or (cap is not None and cap.fraction):
            x = x.astype(np.float64)  # in credits, as the plain game's
            if cap is not None:
                x[over] += float(cap.fraction)
            if paid is not None:
                x += paid * pools.credits_per_currency
        if block is not None:
            self.block_return += np.bincount(block, weights=x, minlength=self.blocks)
        return x

    def result(self, seed: int, level: int) -> SimulationResult:
        """What the run measured."""
        spins, per_bet, pools, cap = self.spins, self.per_bet, self.pools, self.cap
        std = math.sqrt(self.squares / (spins - 1)) / per_bet if spins > 1 else 0.0
        std_error = std / math.sqrt(spins)
        block_rounds = None
        jackpot_rtp = 0.0
        jackpots: tuple[JackpotResult, ...] = ()
        if pools is not None:
            block_rounds = block_sizes(spins, self.blocks)
            std_error = ratio_std_error(self.block_return, block_rounds) / per_bet
            jackpots = pools.results()
            jackpot_rtp = pools.paid / spins / float(pools.bet_value)
        coin_credits = self.round_total  # capped rounds are worth the cap's fraction more
        removed = 0
        cap_std_error = 0.0
        if cap is not None:
            coin_credits += cap.rounds * cap.fraction
            removed = cap.removed
            cap_std_error = cap.std_error(spins, block_rounds) / per_bet
        base = self.base_total / spins / per_bet
        free = self.feature_total / spins / per_bet
        wheel = self.wheel_total / spins / per_bet
        free_wheel = self.free_wheel_total / spins / per_bet
        rtp = float(coin_credits / spins / per_bet) + jackpot_rtp
        components = {"pays": base - (wheel - free_wheel)}
        if self.free_spins is not None:
            components["free_spins"] = free - free_wheel
        if self.wheel is not None:
            components["bonus_wheel"] = wheel
        if pools is not None:
            components["jackpots"] = jackpot_rtp
        if cap is not None:
            components["max_win_cap"] = float(-removed / spins / per_bet)
        return SimulationResult(
            spins=spins,
            rtp=rtp,
            std_error=std_error,
            hit_frequency=self.hits / spins,
            std=std,
            base=self.base_total / spins / per_bet,
            free_spins=self.feature_total / spins / per_bet,
            trigger_rate=self.features / spins,
            spins_per_feature=self.feature_spins / self.features if self.features else 0.0,
            seed=seed,
            level=level,
            bonus_wheel=self.wheel_total / spins / per_bet,
            max_win_cap=float(-removed / spins / per_bet),
            max_win_cap_std_error=cap_std_error,
            capped_rounds=cap.rounds if cap is not None else 0,
            jackpot_rtp=jackpot_rtp,
            jackpots=jackpots,
            batches=self.blocks,
            components=components,
            trigger_rates=({"free_spins": self.features / spins} if self.free_spins is not None
                           else {}),
        )
