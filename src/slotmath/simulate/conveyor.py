"""Seeded simulation of consecutive paid spins carrying the bauble conveyor.

The independent check of :mod:`slotmath.features.conveyor`: it plays the rules of
:mod:`slotmath.model.persistent` spin by spin (strip stops, random wilds, bauble activations
with surprises drawn, spreads applied to the window, line wins by
:class:`slotmath.evaluate.window.PayModel`, consumption, the move left, the delivery, free
spins played to their end on their own conveyor) and shares no code with the exact engine.
Randomness comes only from ``numpy.random.Generator(PCG64(seed))``.

``moving=False`` is a seeded mutation for the tests (baubles that never move): the checks
against the exact figures must fail with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from tqdm.auto import tqdm

from slotmath.evaluate.window import PayModel
from slotmath.model.game import Game
from slotmath.model.persistent import Bauble

__all__ = ["ConveyorSimulation", "simulate_conveyor", "simulate_from_reset"]


@dataclass(frozen=True)
class ConveyorSimulation:
    """What a run of consecutive paid spins measured, in total bets per paid spin."""

    spins: int
    rtp: float
    std_error: float  # by batch means (consecutive spins are not independent)
    components: dict
    seed: int
    wins: np.ndarray | None = None  # each paid round's win (its free spins included), bets
    batches: int = 50
    awarded: np.ndarray | None = None  # each paid round's free spins awarded (0: none)

    def interval(self, z: float = 4.0) -> tuple[float, float]:
        return self.rtp - z * self.std_error, self.rtp + z * self.std_error

    def _batch_mean(self, values: np.ndarray) -> tuple[float, float]:
        """The mean of ``values`` (one per round) and its standard error by batch means."""
        size = max(1, len(values) // self.batches)
        blocks = values[: size * (len(values) // size)].reshape(-1, size).mean(axis=1)
        error = float(blocks.std(ddof=1) / math.sqrt(len(blocks))) if len(blocks) > 1 \
            else float("inf")
        return float(values.mean()), error

    def hit_frequency(self) -> tuple[float, float]:
        """(the share of rounds that won, its standard error by batch means)."""
        return self._batch_mean((self.wins > 0).astype(float))

    def second_moment(self) -> tuple[float, float]:
        """(the mean squared win of a round, its standard error by batch means)."""
        return self._batch_mean(self.wins**2)

    def std(self) -> float:
        """The standard deviation of a round's win over the run."""
        return float(self.wins.std())

    def share(self, where: np.ndarray) -> tuple[float, float]:
        """(the share of rounds where ``where`` (a bool per round) holds, its standard error
        by batch means)."""
        return self._batch_mean(np.asarray(where, dtype=float))


class _Player:
    def __init__(self, game: Game, rng: np.random.Generator, level: int, moving: bool):
        self.game, self.rng, self.moving = game, rng, moving
        self.model = PayModel(game, level)
        self.c = game.conveyor
        self.wilds = game.random_wilds
        self.n = game.n_reels
        self.bet = game.bet

    def draw(self, items, weights):
        total = sum(weights)
        x = self.rng.integers(total)
        for item, w in zip(items, weights):
            if x < w:
                return item
            x -= w
        raise AssertionError  # pragma: no cover

    def deliver(self, wheel, empty_weight):
        items = [None] + [b for b, _ in wheel]
        return self.draw(items, [empty_weight] + [w for _, w in wheel])

    def surprise(self) -> Bauble:
        c = self.c
        feature = self.draw(list(c.surprise), list(c.surprise.values()))
        kinds = [(b, w) for b, w in c.wheel if b.feature == feature]
        if not kinds:  # a spreading wild with none on the wheel
            return Bauble(feature)
        return self.draw([b for b, _ in kinds], [w for _, w in kinds])

    def spin(self, slots: list, reel_set: str):
        """One spin on ``slots`` (changed in place: consumption); returns (lines, spread
        extra, coins, spins awarded) in total bets / spins."""
        game, rows = self.game, self.game.rows
        reels = game.reel_sets[reel_set].reels
        window = []
        for reel, r in zip(reels, rows):
            stop = self.draw(range(len(reel.symbols)), reel.stop_weights)
            window.append(list(reel.window(stop, r)))
        wild_rows = []
        for j in range(self.n):
            row = self.draw([None] + list(range(rows[j])), self.wilds.weights[j])
            wild_rows.append(row)
            if row is not None:
                window[j][row] = self.wilds.symbol
        coins, awarded, spreads = 0, 0, []
        for j in range(self.n):
            bauble = slots[j]
            if bauble is None or wild_rows[j] is None:
                continue
            if bauble.feature == "surprise":
                bauble = self.surprise()
            if bauble.feature == "coin_win":
                coins += bauble.value
            elif bauble.feature == "free_spins":
                awarded += bauble.value
            elif bauble.feature == "spreading_wild":
                spreads.append((j, wild_rows[j]))
            if self.c.consume_on_activation:
                slots[j] = None
        plain = self.model.lines_win(tuple(map(tuple, window)))
        for j, r in spreads:
            for jj in range(max(0, j - 1), min(self.n, j + 2)):
                for rr in range(max(0, r - 1), min(rows[jj], r + 2)):
                    window[jj][rr] = self.wilds.symbol
        spread = self.model.lines_win(tuple(map(tuple, window)))
        to_bets = self.model.credits_per_bet
        return plain / to_bets, (spread - plain) / to_bets, coins / self.bet, awarded

    def move(self, slots: list, wheel, empty_weight) -> None:
        new = self.deliver(wheel, empty_weight)
        if self.moving:
            slots[:] = slots[1:] + [new]
        elif new is not None:  # the mutation: the new bauble lands, nothing moves
            slots[-1] = new

    def free_spins(self, spins: int) -> float:
        fs = self.c.free_spins
        slots = [None] * (self.n - fs.start_baubles)
        slots += [self.deliver(fs.wheel, fs.empty_weight) for _ in range(fs.start_baubles)]
        left, total = min(spins, fs.max_spins_left), 0.0
        while left:
            lines, spread, coins, awarded = self.spin(slots, fs.reels)
            total += lines + spread + coins
            left = min(left - 1 + awarded, fs.max_spins_left)
            self.move(slots, fs.wheel, fs.empty_weight)
        return total

    def paid_spin(self, slots: list) -> tuple[float, float, float, float]:
        lines, spread, coins, awarded = self.spin(slots, "base")
        self.move(slots, self.c.wheel, self.c.empty_weight)
        self.awarded = awarded
        return lines, spread, coins, self.free_spins(awarded) if awarded else 0.0


COMPONENTS = ("lines", "spreading_wild", "coin_win", "free_spins")


def simulate_conveyor(game: Game, spins: int, seed: int = 0, level: int = 1,
                      moving: bool = True, batches: int = 50, progress: bool = False
                      ) -> ConveyorSimulation:
    """Play ``spins`` consecutive paid spins from the empty conveyor (after ``game.n_reels``
    warm-up spins, so that the conveyor is in its stationary law) and measure the RTP, with
    a batch-means standard error over ``batches`` blocks.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/conveyor_tiny.toml")
    >>> s = simulate_conveyor(g, 2000, seed=1)
    >>> s.spins, sorted(s.components) == sorted(COMPONENTS)
    (2000, True)
    """
    if game.conveyor is None:
        raise ValueError(f"{game.name} has no bauble conveyor")
    game.check_level(level)
    player = _Player(game, np.random.Generator(np.random.PCG64(seed)), level, moving)
    slots: list = [None] * game.n_reels
    for _ in range(game.n_reels):
        player.paid_spin(slots)
    wins = np.empty((spins, 4))
    awarded = np.zeros(spins, dtype=np.int64)
    for i in tqdm(range(spins), disable=not progress, desc="conveyor spins"):
        wins[i] = player.paid_spin(slots)
        awarded[i] = player.awarded
    total = wins.sum(axis=1)
    size = max(1, spins // batches)
    blocks = total[: size * (spins // size)].reshape(-1, size).mean(axis=1)
    std_error = float(blocks.std(ddof=1) / math.sqrt(len(blocks))) if len(blocks) > 1 else \
        float("inf")
    return ConveyorSimulation(spins, float(total.mean()), std_error,
                              dict(zip(COMPONENTS, map(float, wins.mean(axis=0)))), seed,
                              total, batches, awarded)


def simulate_rounds(game: Game, spins: int, seed: int, level: int = 1,
                    progress: bool | float = False):
    """The front door's round simulator of a conveyor game
    (:func:`slotmath.simulate.simulate`): :func:`simulate_conveyor` as a
    :class:`~slotmath.simulate.monte_carlo.SimulationResult` (its standard error by batch
    means, the conveyor's components)."""
    from slotmath.simulate.monte_carlo import SimulationResult

    s = simulate_conveyor(game, spins, seed, level, progress=progress is True)
    return SimulationResult(
        spins=s.spins, rtp=s.rtp, std_error=s.std_error, hit_frequency=s.hit_frequency()[0],
        std=s.std(), base=s.rtp - s.components["free_spins"],
        free_spins=s.components["free_spins"], trigger_rate=float("nan"),
        spins_per_feature=float("nan"), seed=seed, level=level, batches=50,
        components=dict(s.components))


def simulate_from_reset(game: Game, runs: int, horizon: int, seed: int = 0, level: int = 1,
                        moving: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``runs`` independent sessions of ``horizon`` paid spins from the empty conveyor:
    ``(mean return of spin t, its standard error)`` for t = 1..horizon."""
    player = _Player(game, np.random.Generator(np.random.PCG64(seed)), level, moving)
    wins = np.empty((runs, horizon))
    for i in range(runs):
        slots: list = [None] * game.n_reels
        for t in range(horizon):
            wins[i, t] = sum(player.paid_spin(slots))
    return wins.mean(axis=0), wins.std(axis=0, ddof=1) / math.sqrt(runs)
