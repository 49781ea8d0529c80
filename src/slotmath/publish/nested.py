"""Free spins with hold & win inside, played for the books (a Link-style game: the hold & win
declares ``in_free_spins``): the free spins a round needs to pay a given amount, each an
enumerated stop combination of the free reels, and a hold & win round played by its rules
(:class:`~slotmath.publish.hold_and_win.HoldAndWinPlayer`) wherever a free spin shows
``trigger`` or more cash symbols. The same player plays free spins with nothing inside that
retrigger under a spin cap (the plain player, :mod:`slotmath.publish.free_spins`, leaves
their retriggering spins out).

A free spin showing ``t`` trigger symbols, ``h`` cash symbols and paying ``w`` on its window
pays ``w x multiplier`` plus, when ``h`` starts hold & win, any total ``R`` that round can pay
started with ``h`` held (not multiplied, docs/game-format.md "Inside free spins"); it awards
``retrigger_for(t)`` spins when the feature retriggers. So the spins are grouped by the
spins they award ``a``: ``S_a``, the set of amounts one free spin awarding ``a`` can pay (the
window pays of the spins found, and their sums with the hold & win totals: a sumset,
:mod:`slotmath.publish.sums`).

Which totals can a feature with ``r`` spins left pay? ``reach_L[r]``, the totals reachable
using at most ``L`` retriggering spins: ``reach_L[0] = {0}``, ``reach_L[r] = reach_{L-1}[r]
| (S_0 + reach_L[r - 1]) | U_a>0 (S_a + reach_{L-1}[r - 1 + a])``, for ``L = 0, 1, ...`` until
nothing changes (at most 254 levels; no retrigger: one). ``level[r, s]`` keeps the least
``L``. A round is played back from ``(r, s, L = level[r, s])``: a spin that awards nothing and
leaves ``s - v`` reachable with ``r - 1`` spins at level ``<= L``, else one awarding ``a``
leaving it reachable with ``r - 1 + a`` at level ``<= L - 1``; ``r`` or ``L`` falls at every
spin, so the round ends. Spins that start nothing are tried first, the most frequent first;
then spins with hold & win.

Under a spin cap ``C`` (``max_spins``) a retrigger awards ``min(a, C - T)``, ``T`` the spins
awarded so far, so the table follows ``T`` instead of levels: ``reach[T, r]`` (``T`` never
falls: filled from ``T = C`` down). When that table would exceed :data:`CAPPED_CELLS` cells,
no retriggering spin is used (as :mod:`slotmath.publish.free_spins` does under a cap),
unless every start is at the cap already (a retrigger then adds nothing).

Every spin found is checked against the exact engine's table of the free reels counting both
symbols (:meth:`~slotmath.publish.spins.SpinIndex.check`), every window paid again by the
plain evaluator (:func:`~slotmath.publish.spins.window_events`), every hold & win round
checked by its player against the total asked.
"""

from __future__ import annotations

import numpy as np

from slotmath.publish.hold_and_win import player
from slotmath.publish.spins import JointSpinIndex, amount_fields, board, window_events
from slotmath.publish.sums import indicator, sumset

__all__ = ["NestedFreeSpinsPlayer", "refusal"]

#: "not reachable" in :attr:`NestedFreeSpinsPlayer.level`
UNREACHED = 255
#: the most cells (spins awarded x spins left x credits) of the table of a feature under a
#: spin cap that follows its retriggers; above it no retriggering spin is played
CAPPED_CELLS = 1 << 26


def refusal(game, composition) -> str | None:
    """Why the books cannot play the free spins of ``game`` with a round feature inside
    (None: they can)."""
    names = [f.name for f in composition.nested]
    if names not in ([], ["hold_and_win"]):
        return (f"{game.name}: no player of real rounds for the books yet for "
                f"{' and '.join(names)} started in free spins")
    if composition.spin_features() or any(getattr(f, "acts_inside", False)
                                           for f in composition.paid_spin_features):
        return (f"{game.name}: no player of real rounds for the books yet for hold & win in "
                "free spins with spin features or modifiers acting in them")
    return None


class NestedFreeSpinsPlayer:
    """The free spins of ``feature`` (a built free-spins round whose spins have hold & win
    folded in) of ``analysis`` for the books: which totals a feature of ``A`` spins can pay
    (:meth:`reachable`, in the free table's credits) and a round that pays one
    (:meth:`play`). See the module notes."""

    def __init__(self, analysis, feature, progress=None):
        game = analysis.game
        comp = analysis.composition
        why = refusal(game, comp)
        if why is not None:
            raise ValueError(why)
        self.game, self.feature = game, feature
        self.spec = game.free_spins
        # no round feature inside: free spins under a spin cap that retrigger
        self.cash_feature = comp.nested[0] if comp.nested else None
        self.cash = player(game) if comp.nested else None
        self.multiplier = feature.window_multiplier
        self.credits_per_bet = feature.free.credits_per_bet
        # the free reels' own table, counting the trigger and the cash symbol (no fold)
        self.spin_table = comp.context.table(feature.reels, comp.marks)
        marks = tuple(self.spin_table.marks)
        if marks[:1] != ("trigger",) or len(marks) > 2 or (
                self.cash is not None and marks[1:] != (f"count:{self.cash.spec.symbol}",)):
            raise ValueError(f"{game.name}: the free spins' table counts {marks}")
        also = marks[1].split(":", 1)[1] if len(marks) == 2 else None
        self.index = JointSpinIndex(game, analysis.level, feature.reels, self.spec.trigger,
                                    self.spin_table.trigger_cap, also, progress)
        cpb = self.index.model.credits_per_bet
        cash_cpb = 1 if self.cash is None else self.cash.credits_per_bet
        if self.credits_per_bet % cpb or self.credits_per_bet % cash_cpb:
            raise ValueError(f"{game.name}: the free spins pay in {self.credits_per_bet} credits "
                             f"a bet, not a multiple of the window's ({cpb}) and hold & "
                             f"win's ({cash_cpb})")
        self.window_scale = self.credits_per_bet // cpb * self.multiplier
        self.cash_scale = self.credits_per_bet // cash_cpb
        self.level = None
        self._capped = False
        self._most = -1

    # -- the spins ----------------------------------------------------------------------------
    def _starts(self) -> list[int]:
        return sorted({self.feature.start(c) for c in range(self.feature.free.trigger_cap + 1)
                       if self.feature.start(c) is not None})

    def _award(self, count: int) -> int:
        if not self.spec.retrigger or not count:
            return 0
        return self.spec.retrigger_for(count)

    def _options(self):
        """The spins found as ``(window amount, award, held or None, key)``, the most
        frequent first (under a spin cap whose table is too large, no retriggering spin: see
        the module notes)."""
        weights = self.spin_table.weights
        index = self.index
        out = []
        cap = self.spec.max_spins
        all_capped = cap is not None and min(self._starts()) >= cap
        for code, credits in index.found:
            t, h = index.counts(code)
            a = self._award(t)
            if cap is not None and a and not self._capped:
                if not all_capped:
                    continue
                a = 0
            w = weights.get((t, h, credits) if self.index.also else (t, credits), 0)
            held = None if self.cash_feature is None else self.cash_feature.start(h)
            out.append((-w, credits * self.window_scale, a, held, (code, credits)))
        out.sort(key=lambda o: (o[0], o[1], o[2], o[4]))
        return [(v, a, held, key) for _, v, a, held, key in out]

    # -- which totals -------------------------------------------------------------------------
    def prepare(self, most_credits: int, *, complete: bool = False) -> None:
        """Find free spins (sampled, or the whole cycle with ``complete``) and fill the table
        of totals up to ``most_credits`` credits."""
        index = self.index
        cap = self.spec.max_spins
        most = int(most_credits)
        self._capped = (cap is not None and self.spec.retrigger and min(self._starts()) < cap
                        and (cap + 1) ** 2 * (most + 1) <= CAPPED_CELLS)
        index.find() if complete else index.sample()
        index.check((index.code(k[0], k[1] if index.also else 0), k[-1])
                    for k in self.spin_table.weights)
        if self.cash is not None:
            self.cash.prepare(most // self.cash_scale + 1, complete=complete)
        cash = {}  # held -> the hold & win totals (free credits) as a set over 0..most
        plain: dict[int, dict[int, tuple]] = {}  # award -> amount -> key (the most frequent)
        started: dict[tuple[int, int], dict[int, tuple]] = {}  # (award, held) -> window -> key
        for v, a, held, key in self._options():
            if held is None:
                plain.setdefault(a, {}).setdefault(v, key)
            else:
                started.setdefault((a, held), {}).setdefault(v, key)
                if held not in cash:
                    cash[held] = indicator(self.cash.reachable(held) * self.cash_scale, most)
        awards = sorted(set(plain) | {a for a, _ in started})
        spins = {}
        for a in awards:
            s = indicator(list(plain.get(a, {})), most)
            for (b, held), windows in started.items():
                if b == a:
                    s |= sumset(indicator(list(windows), most), cash[held])
            spins[a] = s
        self._plain = [(a, np.array(list(amounts), np.int64), amounts)
                       for a, amounts in sorted(plain.items())]
        self._started = [(a, held, windows, np.flatnonzero(cash[held]))
                         for (a, held), windows in sorted(started.items())]
        self._most = most
        if self._capped:
            self._capped_table(spins, cap, most)
            return
        starts = self._starts() + list(self.spec.awards.values())
        retrigger = any(a for a in awards)
        most_left = 2 * max(starts) + 20 if retrigger else max(starts)
        if self.spec.max_spins is not None:
            most_left = min(most_left, max(self.spec.max_spins, max(starts)))
        level = np.full((most_left + 1, most + 1), UNREACHED, np.uint8)
        level[0, 0] = 0
        zero = spins.get(0, np.zeros(most + 1, bool))
        for L in range(UNREACHED):
            before = level.copy() if L else None
            for r in range(1, most_left + 1):
                reach = sumset(zero, level[r - 1] <= L)
                if L:
                    for a, s in spins.items():
                        if a and r - 1 + a <= most_left:
                            reach |= sumset(s, before[r - 1 + a] <= L - 1)
                new = reach & (level[r] == UNREACHED)
                level[r][new] = L
            if not retrigger or (L and np.array_equal(before, level)):
                break
        self.level = level

    def _capped_table(self, spins: dict, cap: int, most: int) -> None:
        """Under a spin cap ``cap``: ``reach[T, r]``, the totals a feature that has awarded
        ``T`` spins so far, ``r`` of them still to play, can pay. A spin awarding ``a`` adds
        ``min(a, cap - T)``; ``T`` never falls, so the table is filled from ``T = cap``
        down, ``r`` up."""
        reach = np.zeros((cap + 1, cap + 1, most + 1), bool)
        for T in range(cap, -1, -1):
            reach[T, 0, 0] = True
            by_cut: dict[int, np.ndarray] = {}
            for a, s in spins.items():
                cut = min(a, cap - T)
                by_cut[cut] = by_cut[cut] | s if cut in by_cut else s
            for r in range(1, T + 1):
                acc = np.zeros(most + 1, bool)
                for cut, s in by_cut.items():
                    acc |= sumset(s, reach[T + cut, r - 1 + cut])
                reach[T, r] = acc
        self.level = None
        self._reach = reach

    def reachable(self, spins: int) -> np.ndarray:
        """The totals (free table credits) a feature started with ``spins`` spins can pay."""
        if self._capped:
            return np.flatnonzero(self._reach[spins, spins])
        return np.flatnonzero(self.level[spins] != UNREACHED)

    # -- one round ----------------------------------------------------------------------------
    def _next(self, r: int, s: int, L: int, T: int):
        """A spin to play with ``r`` spins left, ``s`` to pay at level ``L`` (under a cap:
        ``T`` awarded so far): ``(amount, spins awarded, held, key, hold & win amount)``."""
        level = self.level
        cap = self.spec.max_spins

        def fits(a, amounts):
            rest = s - amounts
            ok = (rest >= 0)
            if self._capped:
                a = min(a, cap - T)
                ok[ok] = self._reach[T + a, r - 1 + a][rest[ok]]
            else:
                left = r - 1 + a
                if left >= len(level) or (a and not L):
                    return None
                ok[ok] = level[left][rest[ok]] <= (L if not a else L - 1)
            hit = np.flatnonzero(ok)
            return None if not len(hit) else (int(amounts[hit[0]]), a)

        for a, values, amounts in self._plain:
            found = fits(a, values)
            if found is not None:
                v, a = found
                return v, a, None, amounts[v], 0
        for a, held, windows, totals in self._started:
            for w, key in windows.items():
                found = fits(a, w + totals)
                if found is not None:
                    v, a = found
                    return w, a, held, key, v - w
        raise AssertionError(f"no free spin continues a feature with {r} spins left paying "
                             f"{s} credits")

    def play(self, spins: int, credits: int, trigger_window, first_index: int) -> list[dict]:
        """The events of a feature of ``spins`` spins paying ``credits`` (free table credits),
        started by the paid spin showing ``trigger_window`` (None: bought); event indices
        from ``first_index``."""
        if not self._reach[spins, spins, credits] if self._capped else \
                self.level[spins, credits] == UNREACHED:
            raise ValueError(f"no feature of {spins} spins pays {credits} credits")
        model = self.index.model
        cpb = self.credits_per_bet
        events: list[dict] = []

        def add(event):
            events.append({"index": first_index + len(events)} | event)
        add({"type": "freeSpinTrigger", "totalFs": spins,
             "positions": [{"reel": j, "row": r} for j, col in enumerate(trigger_window or ())
                           for r, s in enumerate(col) if s == self.spec.trigger]})
        left, total, played, paid = spins, spins, 0, 0
        s, L = credits, 0 if self._capped else int(self.level[spins, credits])
        while left:
            v, a, held, key, cash = self._next(left, s, L, total)
            spin = self.index.spin(key)
            played += 1
            add({"type": "updateFreeSpin", "amount": played, "total": total})
            add({"type": "reveal", "gameType": "freegame", "reelSet": self.feature.reels,
                 "stops": list(spin.stops), "board": board(spin.window)})
            wins, won = window_events(model, spin.window, self.multiplier)
            if won * (cpb // model.credits_per_bet) != v:
                raise AssertionError("a free spin pays other than the kernel said")
            paid += v
            if wins:
                add({"type": "winInfo", "wins": wins} | amount_fields(won, model.credits_per_bet,
                                                                         "totalWin"))
                add({"type": "setWin"} | amount_fields(paid, cpb))
            if held is not None:
                events += self.cash.play(held, cash // self.cash_scale, spin.window,
                                         first_index + len(events))
                paid += cash
                add({"type": "setWin"} | amount_fields(paid, cpb))
            if a:
                total += a
                add({"type": "freeSpinRetrigger", "totalFs": total,
                     "positions": [{"reel": j, "row": r} for j, col in enumerate(spin.window)
                                   for r, x in enumerate(col) if x == self.spec.trigger]})
            s -= v + cash
            if a and not self._capped:
                L -= 1
            left += a - 1
        if s or paid != credits:
            raise AssertionError("the free spins played do not pay what the table said")
        add({"type": "freeSpinEnd"} | amount_fields(paid, cpb))
        return events
