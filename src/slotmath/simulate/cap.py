"""The max-win cap as the simulator applies it: a round's coin win (paid spin, free spins,
bonus-wheel coin prizes) cut at ``game.cap_coins(level)`` coins, exactly; jackpots are paid
on top of it."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from slotmath.model.game import Game
from slotmath.simulate.jackpots import ratio_std_error


class MaxWinCap:
    """Simulator counterpart of ``features.cap``: the max-win cap of a round's coin win, in
    credits ``floor + fraction`` (exact), and what it removed so far.

    It counts the rounds capped and the credits above the cap (exact, as credits above the
    floor less the fraction per capped round), with their squares and block sums (floats,
    for the standard error).

    Examples
    --------
    A cap of 7/2 credits: rounds that won 4 and 9 credits keep 7/2, removing 6.

    >>> cap = MaxWinCap(Fraction(7, 2), blocks=0)
    >>> win, over = cap.apply(np.array([1, 3, 4, 9]))
    >>> win.tolist(), over.tolist(), cap.rounds, cap.removed
    ([1, 3, 3, 3], [False, False, True, True], 2, Fraction(6, 1))
    """

    def __init__(self, credits: Fraction, blocks: int):
        self.floor = math.floor(credits)
        self.fraction = credits - self.floor
        self.rounds = 0
        self.above_floor = 0
        self.squares = 0.0
        self.block_removed = np.zeros(blocks)

    @classmethod
    def of(cls, game: Game, level: int, credits_per_bet: int, blocks: int) -> MaxWinCap | None:
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
