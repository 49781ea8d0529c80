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

Boosters (:class:`BoostedHoldAndWinPlayer`): a round is played by a *script* (which gems
land on each respin, how many cash symbols land), chosen among those of positive probability.
The rows and multiplier boosters are fired as the total needs (their gems landing on
consecutive respins; when a respin would otherwise spend the last respin before the gems are
done, one cash symbol lands to reset them), then the remaining cash symbols land at once, then
respins with nothing run out (or the grid is full). The values and respins boosters land no
gem in these scripts: a stepped value is a value of the ladder, so a total a stepped round
pays is also paid by one whose values were drawn at those rungs (when every value has a
positive weight; a value only a step reaches leaves its totals to other rows, reported as
rows without a book). So a round started with ``h`` held pays any ``M x (sum of H values +
the prize when the H fill the grid)``, for each multiplier ``M`` and grid its script can reach
with ``H`` held. A real round may pay a total no script reaches (a multiplier fired with fewer
landings thanks to the respins booster); such a row is left without a book (reported; above
the export's limit it is refused). (The format keeps every booster's probability below 1
and the cash probability strictly between 0 and 1, so a respin without a gem of a kind, with
or without cash, always has positive probability; a rows or multiplier booster of
probability 0 is never fired.)

A round started inside a free spin (``in_free_spins``, a Link-style game) is played by
the same player, called by the free spins' player of such a game
(:mod:`slotmath.publish.nested`), from that free spin's window.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from slotmath.publish.spins import amount_fields

__all__ = ["BoostedHoldAndWinPlayer", "HoldAndWinPlayer", "book", "player"]


class HoldAndWinPlayer:
    """The hold & win rounds of ``game`` for the books (see the module notes); amounts in
    ``credits_per_bet`` credits a bet (the common denominator of the values and the prize)."""

    def __init__(self, game):
        if game.hold_and_win.boosters and type(self) is HoldAndWinPlayer:
            raise ValueError(f"{game.name}: its hold & win has boosters "
                             "(BoostedHoldAndWinPlayer plays them)")
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

    def _opening(self, held: int, values: list[int], trigger_window, first_index: int):
        """What every round's events open with: the held cash symbols' positions (where the
        paid window shows them, else the first ``held`` of the grid), the event list with the
        trigger event in it, and its ``add(event)`` and ``cell(position, value)``."""
        spec, cpb = self.spec, self.credits_per_bet
        shown = [(r, row) for r, col in enumerate(trigger_window or ())
                 for row, s in enumerate(col) if s == spec.symbol]
        if trigger_window is not None and len(shown) != held:
            raise AssertionError("the paid window shows other than the cash symbols held")
        start = shown if trigger_window is not None else \
            [(r, row) for row in range(spec.rows) for r in range(spec.reels)][:held]
        events: list[dict] = []

        def add(event):
            events.append({"index": first_index + len(events)} | event)

        def cell(position, value):
            return {"reel": position[0], "row": position[1]} | amount_fields(value, cpb, "value")
        add({"type": "holdAndWinTrigger", "respins": spec.respins,
             "held": [cell(g, v) for g, v in zip(start, values)]}
            | amount_fields(sum(values[:held]), cpb, "heldValue"))
        return start, events, add, cell

    def play(self, held: int, credits: int, trigger_window, first_index: int) -> list[dict]:
        """The events of a round started with ``held`` cash symbols paying ``credits``,
        started by the spin showing ``trigger_window`` (the paid spin's, or a free spin's;
        None: bought)."""
        ends = next((e for e in self._ends(held) if self._total(e)[credits]), None)
        if ends is None:
            raise ValueError(f"no hold & win round started with {held} pays {credits} credits")
        prize = self.prize if ends == self.capacity else 0
        values = self._values_for(ends, credits - prize)
        grid = [(r, row) for row in range(self.spec.rows) for r in range(self.spec.reels)]
        start, events, add, cell = self._opening(held, values, trigger_window, first_index)
        empty = [g for g in grid if g not in start]
        cpb = self.credits_per_bet
        won = sum(values[:held])
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
    return player(analysis.game)


def player(game) -> HoldAndWinPlayer:
    """The player of ``game``'s hold & win rounds: :class:`BoostedHoldAndWinPlayer` when it
    has boosters, else :class:`HoldAndWinPlayer`."""
    if game.hold_and_win.boosters:
        return BoostedHoldAndWinPlayer(game)
    return HoldAndWinPlayer(game)


class BoostedHoldAndWinPlayer(HoldAndWinPlayer):
    """The hold & win rounds of a game with boosters for the books, by scripts (see the
    module notes); amounts in ``credits_per_bet`` credits a bet."""

    def __init__(self, game):
        super().__init__(game)
        hw = self.spec
        # a booster whose gem never lands (probability 0) never fires
        rows, multiplier = (b if b is not None and b.probability > 0 else None
                            for b in (hw.booster("rows"), hw.booster("multiplier")))
        self.max_rows = rows.times if rows is not None else 0
        self.ladder = (1, *multiplier.ladder) if multiplier is not None else (1,)
        self.collect = {"rows": rows.collect if rows else 0,
                        "multiplier": multiplier.collect if multiplier else 0}
        self.capacity = hw.capacity(self.max_rows)
        self._scripts: dict = {}
        self._reach: dict[int, np.ndarray] = {}

    def prepare(self, most_credits: int, *, complete: bool = False) -> None:
        if int(most_credits) != self._most:
            self._reach = {}
        super().prepare(most_credits, complete=complete)

    def script(self, held: int, ends: int, rows: int, steps: int) -> list | None:
        """The respins of a round started with ``held`` that ends with ``ends`` held, ``rows``
        rows opened and the multiplier ``steps`` rungs up: ``[(gems, fired, landed)]`` per
        respin, or None when these scripts cannot play it."""
        key = (held, ends, rows, steps)
        if key not in self._scripts:
            self._scripts[key] = self._script(*key)
        return self._scripts[key]

    def _script(self, held: int, ends: int, rows: int, steps: int) -> list | None:
        hw = self.spec
        need = {k: n * self.collect[k] for k, n in (("rows", rows), ("multiplier", steps)) if n}
        got = dict.fromkeys(need, 0)
        opened = 0
        left, to_land, out = hw.respins, ends - held, []
        if to_land < 0 or ends > hw.capacity(rows):
            return None
        while left and held < hw.capacity(opened):
            gems = tuple(k for k in need if got[k] < need[k])
            fired = []
            for k in gems:
                got[k] += 1
                if got[k] % self.collect[k] == 0:
                    if k == "rows":
                        opened += 1
                        fired.append({"kind": "rows", "rowsOpen": hw.rows + opened})
                    else:
                        fired.append({"kind": "multiplier",
                                      "multiplier": self.ladder[got[k] // self.collect[k]]})
            more = any(got[k] < need[k] for k in need)
            if more:
                land = 1 if left == 1 else 0  # the respins reset: the gems go on
                if land and held + land >= hw.capacity(opened):
                    return None  # the grid would fill before the gems are done
            else:
                land = to_land
            if land > to_land or held + land > hw.capacity(opened):
                return None
            held += land
            to_land -= land
            left = hw.respins if land else left - 1
            out.append((gems, tuple(fired), land))
        if to_land or any(got[k] < need[k] for k in need):
            return None
        return out

    def _options(self, held: int):
        """(ends, rows, steps) with a script, the multiplier and whether the grid is full."""
        hw = self.spec
        for steps in range(len(self.ladder)):
            for rows in range(self.max_rows + 1):
                for ends in range(min(held, hw.capacity(rows)), hw.capacity(rows) + 1):
                    if self.script(held, ends, rows, steps) is not None:
                        yield ends, rows, steps, ends == hw.capacity(rows)

    def reachable(self, held: int) -> np.ndarray:
        """The totals (credits) the scripts of a round started with ``held`` can pay."""
        if held not in self._reach:
            most = self._most
            out = np.zeros(most + 1, bool)
            for ends, _, steps, full in self._options(held):
                base = np.flatnonzero(self._sums[ends]) + (self.prize if full else 0)
                totals = base * self.ladder[steps]
                out[totals[totals <= most]] = True
            self._reach[held] = out
        return np.flatnonzero(self._reach[held])

    def play(self, held: int, credits: int, trigger_window, first_index: int) -> list[dict]:
        """The events of a round started with ``held`` cash symbols paying ``credits``."""
        hw = self.spec
        choice = None
        for ends, rows, steps, full in self._options(held):
            m = self.ladder[steps]
            rest = credits - (m * self.prize if full else 0)
            if rest >= 0 and rest % m == 0 and rest // m <= self._most \
                    and self._sums[ends][rest // m]:
                choice = (ends, rows, steps, full, rest // m)
                break
        if choice is None:
            raise ValueError(f"no hold & win round started with {held} pays {credits} credits")
        ends, rows, steps, full, value_sum = choice
        values = self._values_for(ends, value_sum)
        start, events, add, cell = self._opening(held, values, trigger_window, first_index)
        cpb = self.credits_per_bet
        taken = set(start)
        won = sum(values[:held])
        to_land = iter(values[held:])
        opened, multiplier, left = 0, 1, hw.respins
        for number, (gems, fired, land) in enumerate(self.script(held, ends, rows, steps), 1):
            for f in fired:
                if f["kind"] == "rows":
                    opened += 1
                else:
                    multiplier = f["multiplier"]
            empty = [(r, row) for row in range(hw.rows + opened) for r in range(hw.reels)
                     if (r, row) not in taken]
            landed = [(g, next(to_land)) for g in empty[:land]]
            taken |= {g for g, _ in landed}
            won += sum(v for _, v in landed)
            left = hw.respins if landed else left - 1
            add({"type": "respin", "number": number, "gems": list(gems),
                 "boosters": list(fired), "landed": [cell(g, v) for g, v in landed],
                 "respinsLeft": left, "rowsOpen": hw.rows + opened, "multiplier": multiplier}
                | amount_fields(won, cpb, "heldValue"))
        if next(to_land, None) is not None or multiplier != self.ladder[steps]:
            raise AssertionError("the script ended before the round it was chosen for")
        if full:
            if len(taken) != hw.capacity(opened):
                raise AssertionError("the grid is not full")
            won += self.prize
            add({"type": "fullGrid"} | amount_fields(self.prize, cpb, "prize"))
        won *= multiplier
        if won != credits:
            raise AssertionError("the hold & win round pays other than the table said")
        add({"type": "holdAndWinEnd", "multiplier": multiplier} | amount_fields(won, cpb))
        return events
