"""Free spins played for the books: the free spins a round needs to pay a given amount, each
an enumerated stop combination of the free reels, played by the game's rules.

A started feature of ``A`` spins pays the sum of its spins' wins (each times the feature
multiplier); a spin showing ``c`` trigger symbols adds ``retrigger_for(c)`` spins when the
feature retriggers. Which totals ``s`` can a feature of ``A`` spins pay, using only the free
spins found (:class:`~slotmath.publish.spins.SpinIndex`)? A table over (spins left ``r``,
credits still to pay ``s``): ``ok[0, 0]``; ``ok[r, s]`` when some spin ``(v, a)`` has
``ok[r - 1 + a, s - v]``. A spin that pays nothing and retriggers is never chosen (it would
loop), so the table is filled by increasing ``s`` and then ``r``; each entry keeps the first
spin of the shortest way to complete it (the most frequent such spin), so that a book plays
no more spins than its total needs (a feature plays at least the spins it was awarded).
Spins with the same win and award are one choice. A feature with a spin cap
(``max_spins``) uses no retriggering spin, so the cap never cuts an award (unless every
start is at the cap already: then a retrigger adds nothing and such spins are used).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from slotmath.publish.spins import SpinIndex, amount_fields, board, window_events

__all__ = ["FreeSpinsPlayer", "book"]


@njit(cache=True)
def _reach(values, awards, most_left, most_credits):
    """``spins[r, s]``: the fewest spins that pay ``s`` credits with ``r`` spins left (-1:
    none do); ``choice[r, s]``: the first spin of such a sequence (index into values /
    awards; among equally short ones, the first listed: the most frequent)."""
    none = np.iinfo(np.int32).max
    spins = np.full((most_left + 1, most_credits + 1), none, np.int32)
    choice = np.full((most_left + 1, most_credits + 1), -1, np.int32)
    spins[0, :] = -1
    spins[0, 0] = 0
    for s in range(most_credits + 1):
        for r in range(1, most_left + 1):
            best = none
            for i in range(values.shape[0]):
                v = values[i]
                a = awards[i]
                if v > s or (v == 0 and a > 0):
                    continue
                left = r - 1 + a
                if left > most_left:
                    continue
                rest = spins[left, s - v]
                if rest >= 0 and rest + 1 < best:
                    best = rest + 1
                    choice[r, s] = i
            spins[r, s] = best if best != none else -1
    return spins, choice


@dataclass
class FreeSpinsPlayer:
    """The free spins of ``feature`` (a built :class:`~slotmath.features.free_spins.
    FreeSpinsRound`) in ``game`` at ``level``: which totals a feature of ``A`` spins can pay
    (:meth:`reachable`, in the free table's credits) and a round that pays one
    (:meth:`play`)."""

    game: object
    level: int
    feature: object
    progress: object = None

    def __post_init__(self):
        self.spec = self.game.free_spins
        self.multiplier = self.feature.window_multiplier
        self.credits_per_bet = self.feature.free.credits_per_bet
        self.index = SpinIndex(self.game, self.level, self.feature.reels, self.spec.trigger,
                               self.feature.free.trigger_cap, self.progress)
        self._most_credits = 0
        self._tables = None

    # -- which totals -----------------------------------------------------------------------
    def _award(self, count: int) -> int:
        """Spins a free spin showing ``count`` trigger symbols awards (before any cap)."""
        if not self.spec.retrigger:
            return 0
        return self.spec.retrigger_for(count) if count else 0

    def _spins(self):
        """The free spins found: (value, award, key), most frequent first. Under a spin cap
        (``max_spins``) a spin that retriggers is left out: what it awards depends on the
        spins awarded so far (the cap cuts it), which this table does not follow; playing
        it as awarding nothing would be a round the game does not play."""
        weights = self.feature.free.weights
        keys = sorted(self.index.found,
                      key=lambda k: (-weights.get((k[0], k[1] * self.multiplier), 0), k))
        cap = self.spec.max_spins
        if cap is not None and min(self._starts()) >= cap:  # every start is at the cap:
            return [(k[1] * self.multiplier, 0, k) for k in keys]  # a retrigger adds nothing
        return [(k[1] * self.multiplier, self._award(k[0]), k) for k in keys
                if not (cap is not None and self._award(k[0]))]

    def _starts(self) -> list[int]:
        """The spins a feature can start with."""
        return sorted({self.feature.start(c) for c in range(self.feature.free.trigger_cap + 1)
                       if self.feature.start(c) is not None})

    def prepare(self, most_credits: int, *, complete: bool = False) -> None:
        """Find free spins (sampled, or the whole cycle with ``complete``) and fill the table
        of totals up to ``most_credits`` credits."""
        if complete:
            self.index.find()
        else:
            self.index.sample()
        self.index.check((t, c // self.multiplier) for t, c in self.feature.free.weights)
        spins, seen = [], set()
        for v, a, key in self._spins():  # one spin per (win, award), the most frequent
            if (v, a) not in seen:
                seen.add((v, a))
                spins.append((v, a, key))
        values = np.array([v for v, _, _ in spins], np.int64)
        awards = np.array([a for _, a, _ in spins], np.int64)
        # a bonus buy may start with a count the paid spin cannot show: any award
        most_left = 2 * max(self._starts() + list(self.spec.awards.values())) + 20
        fewest, choice = _reach(values, awards, most_left, int(most_credits))
        self._tables = (spins, fewest, choice)
        self._most_credits = int(most_credits)

    def reachable(self, spins: int) -> np.ndarray:
        """The totals (free table credits) a feature started with ``spins`` spins can pay."""
        _, fewest, _ = self._tables
        return np.flatnonzero(fewest[spins] >= 0)

    # -- one round --------------------------------------------------------------------------
    def play(self, spins: int, credits: int, trigger_window, first_index: int) -> list[dict]:
        """The events of a feature of ``spins`` spins paying ``credits`` (free table credits),
        started by the paid spin showing ``trigger_window`` (None: bought, no paid spin); event
        indices from ``first_index``."""
        chosen, fewest, choice = self._tables
        if fewest[spins, credits] < 0:
            raise ValueError(f"no feature of {spins} spins pays {credits} credits")
        model = self.index.model
        events: list[dict] = []

        def add(event):
            events.append({"index": first_index + len(events)} | event)
        add({"type": "freeSpinTrigger", "totalFs": spins,  # a bonus buy: no window
             "positions": [{"reel": j, "row": r} for j, col in enumerate(trigger_window or ())
                           for r, s in enumerate(col) if s == self.spec.trigger]})
        left, total, played, paid = spins, spins, 0, 0
        s = credits
        while left:
            v, a, key = chosen[choice[left, s]]
            spin = self.index.spin(key)
            played += 1
            add({"type": "updateFreeSpin", "amount": played, "total": total})
            add({"type": "reveal", "gameType": "freegame", "reelSet": self.feature.reels,
                 "stops": list(spin.stops), "board": board(spin.window)})
            wins, won = window_events(model, spin.window, self.multiplier)
            if won != v:
                raise AssertionError("a free spin pays other than the kernel said")
            paid += won
            if wins:
                add({"type": "winInfo", "wins": wins} | amount_fields(won, model.credits_per_bet,
                                                                         "totalWin"))
                add({"type": "setWin"} | amount_fields(paid, model.credits_per_bet))
            if a:
                total += a
                add({"type": "freeSpinRetrigger", "totalFs": total,
                     "positions": [{"reel": j, "row": r} for j, col in enumerate(spin.window)
                                   for r, x in enumerate(col) if x == self.spec.trigger]})
            s -= v
            left += a - 1
        if s or paid != credits:
            raise AssertionError("the free spins played do not pay what the table said")
        add({"type": "freeSpinEnd"} | amount_fields(paid, model.credits_per_bet))
        return events


def book(analysis, feature, progress=None):
    """The book player of a game's free spins (its declaration's ``book`` hook): ``feature``
    is the built round feature. When a round feature can start inside its spins (hold & win
    with ``in_free_spins``), or the spins retrigger under a spin cap (this player would leave
    the retriggering spins out), :class:`~slotmath.publish.nested.NestedFreeSpinsPlayer`."""
    spec = analysis.game.free_spins
    if analysis.composition.nested or (spec.retrigger and spec.max_spins is not None):
        from slotmath.publish.nested import NestedFreeSpinsPlayer

        return NestedFreeSpinsPlayer(analysis, feature, progress)
    return FreeSpinsPlayer(analysis.game, analysis.level, feature, progress)
