"""Hold & win played for the books (the ``hold_and_win`` declaration's ``book`` hook): a round
of respins that pays a given total, by the rules of ``docs/game-format.md`` ("Hold & win").

The round starts with the ``h`` cash symbols the paid spin showed (or a bonus buy's count)
held on the grid of the game's reels x ``rows``, each with a value of the value law. On a
respin each empty position may land a cash symbol; one that lands is held and resets the
respins to ``respins``; a respin with none spends one; the round ends when none is left or
the grid is full, and pays the values held plus ``full_grid_prize`` when full. So a round
started with ``h`` held can end with any ``H`` held from ``h`` to the grid's ``N`` positions
(0 < ``cash_probability`` < 1: one landing a respin, then the respins run out; with
probability 1 every empty position lands at once: ``H = N``), and pays any sum of ``H``
values of positive weight (plus the prize when ``H = N``). :meth:`HoldAndWinPlayer.reachable`
lists those totals, :meth:`HoldAndWinPlayer.play` plays one: the held values first, then one
landing per respin (the next empty positions, top row first, reel by reel), then respins with
nothing until they run out.

Not played here (refused in one line by :func:`refusal`): boosters (a grid that grows needs
one). A round started inside a free spin (``in_free_spins``, a Link-style game) is played by
the same player, called by the free spins' player of such a game
(:mod:`slotmath.publish.nested`), from that free spin's window.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from slotmath.publish.spins import amount_fields

__all__ = ["HoldAndWinPlayer", "book", "refusal"]


def refusal(game) -> str | None:
    """Why the books cannot play ``game``'s hold & win (None: they can).

    >>> import slotmath
    >>> refusal(slotmath.load_game("tests/data/link_modes.toml")) is None
    True
    """
    hw = game.hold_and_win
    if hw is None:
        return None
    if hw.boosters:
        return (f"{game.name}: no player of real rounds for the books yet for hold & win "
                "boosters")
    return None


class HoldAndWinPlayer:
    """The hold & win rounds of ``game`` for the books (see the module notes); amounts in
    ``credits_per_bet`` credits a bet (the common denominator of the values and the prize)."""

    def __init__(self, game):
        why = refusal(game)
        if why is not None:
            raise ValueError(why)
        self.game = game
        self.spec = hw = game.hold_and_win
        self.values = [v for v, w in zip(hw.values, hw.value_weights) if w]
        self.credits_per_bet = math.lcm(*(Fraction(v).denominator for v in self.values),
                                        Fraction(hw.full_grid_prize).denominator)
        self.credit_values = sorted({int(v * self.credits_per_bet) for v in self.values})
        self.prize = int(Fraction(hw.full_grid_prize) * self.credits_per_bet)
        self.capacity = hw.capacity(0)
        self._sums: list[np.ndarray] = []
        self._most = -1
        self._totals: dict[int, np.ndarray] = {}

    def prepare(self, most_credits: int, *, complete: bool = False) -> None:
        """The sums of ``H`` values, ``H`` up to the grid, up to ``most_credits``."""
        most = int(most_credits)
        if most == self._most:
            return
        sums = [np.zeros(most + 1, bool)]
        sums[0][0] = True
        for _ in range(self.capacity):
            prev, nxt = sums[-1], np.zeros(most + 1, bool)
            for v in self.credit_values:
                if v <= most:
                    nxt[v:] |= prev[:most + 1 - v]
            sums.append(nxt)
        self._sums, self._most = sums, most
        self._totals = {}

    def _ends(self, held: int) -> list[int]:
        """The counts held a round started with ``held`` can end with."""
        p = Fraction(self.spec.cash_probability)
        if held >= self.capacity or p == 0:
            return [min(held, self.capacity)]
        if p == 1:
            return [self.capacity]
        return list(range(held, self.capacity + 1))

    def _total(self, ends: int) -> np.ndarray:
        """Bool array: the totals of a round ending with ``ends`` held (kept per ``ends``)."""
        if ends not in self._totals:
            self._totals[ends] = self._total_of(ends)
        return self._totals[ends]

    def _total_of(self, ends: int) -> np.ndarray:
        out = self._sums[ends]
        if ends == self.capacity and self.prize:
            shifted = np.zeros_like(out)
            if self.prize <= self._most:
                shifted[self.prize:] = out[:self._most + 1 - self.prize]
            out = shifted
        return out

    def reachable(self, held: int) -> np.ndarray:
        """The totals (credits) a round started with ``held`` cash symbols can pay."""
        out = np.zeros(self._most + 1, bool)
        for ends in self._ends(held):
            out |= self._total(ends)
        return np.flatnonzero(out)

    def _values_for(self, ends: int, credits: int) -> list[int]:
        """``ends`` values (credits) adding up to ``credits``, the largest first."""
        out, left = [], credits
        for j in range(ends, 0, -1):
            v = next(v for v in reversed(self.credit_values)
                     if v <= left and self._sums[j - 1][left - v])
            out.append(v)
            left -= v
        assert left == 0
        return out

    def play(self, held: int, credits: int, trigger_window, first_index: int) -> list[dict]:
        """The events of a round started with ``held`` cash symbols paying ``credits``,
        started by the spin showing ``trigger_window`` (the paid spin's, or a free spin's;
        None: bought)."""
        ends = next((e for e in self._ends(held) if self._total(e)[credits]), None)
        if ends is None:
            raise ValueError(f"no hold & win round started with {held} pays {credits} credits")
        prize = self.prize if ends == self.capacity else 0
        values = self._values_for(ends, credits - prize)
        rows, reels = self.spec.rows, self.spec.reels
        grid = [(r, row) for row in range(rows) for r in range(reels)]
        symbol = self.spec.symbol
        shown = [(r, row) for r, col in enumerate(trigger_window or ())
                 for row, s in enumerate(col) if s == symbol]
        if trigger_window is not None and len(shown) != held:
            raise AssertionError("the paid window shows other than the cash symbols held")
        start = shown if trigger_window is not None else grid[:held]
        empty = [g for g in grid if g not in start]
        cpb = self.credits_per_bet
        events: list[dict] = []

        def add(event):
            events.append({"index": first_index + len(events)} | event)

        def cell(position, value):
            return {"reel": position[0], "row": position[1]} | amount_fields(value, cpb, "value")
        won = sum(values[:held])
        add({"type": "holdAndWinTrigger", "respins": self.spec.respins,
             "held": [cell(g, v) for g, v in zip(start, values)]}
            | amount_fields(won, cpb, "heldValue"))
        left, number, count = self.spec.respins, 0, held
        to_land = list(zip(empty, values[held:]))
        p = Fraction(self.spec.cash_probability)
        while left and count < self.capacity:  # the round ends out of respins or full
            if p == 1:  # every empty position lands at once
                landed, to_land = to_land, []
            else:
                landed, to_land = to_land[:1], to_land[1:]
            number += 1
            count += len(landed)
            won += sum(v for _, v in landed)
            left = self.spec.respins if landed else left - 1
            add({"type": "respin", "number": number, "landed": [cell(g, v) for g, v in landed],
                 "respinsLeft": left} | amount_fields(won, cpb, "heldValue"))
        if to_land:
            raise AssertionError("the respins ended before the round landed its symbols")
        if prize:
            won += prize
            add({"type": "fullGrid"} | amount_fields(prize, cpb, "prize"))
        if won != credits:
            raise AssertionError("the hold & win round pays other than the table said")
        add({"type": "holdAndWinEnd"} | amount_fields(won, cpb))
        return events


def book(analysis, feature, progress=None) -> HoldAndWinPlayer:
    """The book player of a game's hold & win (its declaration's ``book`` hook): ``feature``
    is the built round feature."""
    return HoldAndWinPlayer(analysis.game)
