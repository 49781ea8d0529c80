"""Free spins with a state played for the books (:mod:`slotmath.features.free_spin_state`):
the free spins a round needs to pay a given amount, each an enumerated stop combination of the
free reels, played by the game's rules with the feature's state.

Expanding symbol (:class:`ExpandingPlayer`)
-------------------------------------------
The state is the symbol drawn when the feature starts; it never changes. For each symbol
``X`` that can be drawn, the free spins are found by key *(trigger count, credits)*, the
credits being the window's pays plus the expansion (``lines x pay(X, reels showing X)``),
times the free-spin multiplier: seeded random draws first, then, for the keys still missing,
the full cycle visited in order (:class:`ExpandingIndex`, the compiled spin kernel and a
count of the reels showing each symbol). Every key found must be one of the exact engine's
moves (:class:`slotmath.exact.free_spin_moves.ExpandingMoves`), and every spin of a book is
paid again by the plain evaluator with the expansion added (the two must agree).

Which totals ``s`` a feature of ``n`` spins drawing ``X`` can pay is a table over (spins
awarded so far ``a``, spins left ``r``, credits still to pay ``s``), as
:mod:`slotmath.publish.free_spins` does without ``a``: here a retrigger is cut to the cap
(``max_spins - a``), which needs ``a``, so retriggering spins are used under a cap too. A spin
that pays nothing and awards nothing lowers ``r``; one that pays nothing and awards spins raises
``a``: the table is filled by increasing ``s``, decreasing ``a``, increasing ``r``. Each entry
keeps the first spin of the shortest way to complete it (among equally short ones, the most
frequent spin).

A start with random awards (``random_awards``) draws its spins from the law the trigger count
starts; the books play, for a total, the first count of spins (most likely first) and symbol
(most likely first) that can pay it. The draws are written as events (``freeSpinsDrawn``,
``expandingSymbol``) with their probabilities.

Collector (:class:`CollectorPlayer`)
------------------------------------
The state is the collectors counted so far (0 to the ladder's top); it only grows. A free
spin's outcome class is (trigger count, collectors ``nc``, cash symbols ``nf``, window credits
``c``), found as above (:class:`CollectorIndex`); its cash symbols' values are drawn, each any
of the declared values, so the spin pays ``a c + k V`` (``(a, k)`` the ladder's factors at the
level reached before the spin, :meth:`~slotmath.exact.free_spin_moves.CollectorMoves.factors`;
``V`` the sum of the ``nf`` values shown, any sum of ``nf`` values). The totals table is over
(collectors ``x``, spins left ``r``, credits ``s``), filled by increasing ``s``, decreasing
``x``, increasing ``r``; each state offers at most :data:`COLLECTOR_CHOICES` spins (distinct
(win, award, next state): the likeliest half, then wins spread evenly over the rest; of a
class's windows and value sums, every pair up to :data:`PAIRS_MAX`, else each window with
the likeliest sum and each sum with the likeliest window): the books need one round per
payout, not every round, and a payout no round of these choices reaches is reported as a
row without a book (its probability moved to a neighbour, the RTP change stated). A collector under a spin cap (``max_spins``) is refused.

Sticky wilds (:class:`StickyPlayer`)
------------------------------------
The state is the wild on each sticky-capable cell (or none); it only grows. The states played
are those the feature reaches from no sticky cell by the exact engine's moves
(:class:`~slotmath.exact.free_spin_moves.StickyMoves`) within the spins it can hold. A spin's
outcome class is (trigger count, next state, credits of the window shown). When the states
times the free reels' stop combinations are at most :data:`STICKY_WINDOWS_MAX`, every window
of every state is visited and paid by the plain evaluator (the classes must be exactly the
engine's, both ways). Beyond (Sticky Paws: 504 states reached, 44,022,825 combinations each),
the classes are found among seeded draws (:class:`StickySearch`: the compiled kernel on a reel
set with each wild reel's strip written out per pattern of its sticky cells; uniform draws,
then draws for each combination of the wild reels' landing patterns, so every next state is
sought), each one of the engine's. Each state offers the totals table at least
:data:`STICKY_CHOICES` spins (more while the work stays within :data:`STICKY_WORK`; the
likeliest half, then wins spread evenly); the table is a bitset over (state, spins left,
credits) (:func:`_reach_bits`) which a book walks spin by spin (:func:`_walk`). A payout no
round of these spins reaches is a row without a book (its probability moved to a neighbour,
the RTP change stated). Every spin of a book is paid again by the plain evaluator, and the
state it leaves and the spins it awards are checked against the table's. Sticky wilds that
retrigger under a spin cap are refused.

Not yet played here (refused by :func:`refusal`): a growing multiplier.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from numba import njit

from slotmath.evaluate.window import window_at
from slotmath.publish.spins import SpinIndex, amount_fields, board, window_events

__all__ = ["CollectorIndex", "CollectorPlayer", "ExpandingIndex", "ExpandingPlayer",
           "StickyPlayer", "StickySearch", "book", "refusal"]

#: the free-spin states the books play
PLAYED = ("expanding_symbol", "collector", "sticky_wilds")
#: the most windows (sticky states x the free reels' stop combinations) the sticky wilds'
#: player visits whole (each paid by the plain evaluator); beyond, seeded draws
STICKY_WINDOWS_MAX = 2_000_000
#: the fewest spins (distinct win, award, next state) a sticky state may offer the table; more
#: while the table's work (states x spins left x spins offered x 64-bit words of credits)
#: stays within STICKY_WORK
STICKY_CHOICES = 96
STICKY_WORK = 1 << 31
#: seeded draws per sticky state: uniform ones, then this many per combination of the wild
#: reels' landing patterns
STICKY_UNIFORM = 4096
STICKY_STRATA = 64
#: a sticky spin's key packs (trigger count, next state, credits) in one int64: the credits
#: in the low bits, the trigger count times the state codes (``(wilds + 1) ** cells``) above
KEY_CREDIT_BITS = 40
KEY_STATE_MAX = 1 << 23
#: the most spins (distinct win, award, next state) a collector state offers the table
COLLECTOR_CHOICES = 96
#: a class's (window, value sum) pairs all offered up to this many (else: each window with the
#: likeliest sum, each sum with the likeliest window)
PAIRS_MAX = 4096


def refusal(game) -> str | None:
    """Why the books cannot play ``game``'s free spins with a state (None: they can).

    >>> import slotmath
    >>> refusal(slotmath.load_game("data/games/book_of_gold.toml")) is None
    True
    >>> refusal(slotmath.load_game("data/games/sticky_paws.toml")) is None
    True
    """
    fs = game.free_spins
    if fs is None or (fs.state is None and fs.award_laws is None and fs.growth is None):
        return None
    if fs.growth is not None:
        return (f"{game.name}: no player of real rounds for the books yet for free spins with "
                "a growing multiplier")
    if fs.state is None:
        return (f"{game.name}: no player of real rounds for the books yet for free spins with "
                "random awards and no state")
    if fs.state.kind == "collector" and fs.max_spins is not None:
        return (f"{game.name}: no player of real rounds for the books yet for a collector "
                "under a spin cap (max_spins)")
    if fs.state.kind == "sticky_wilds" and fs.retrigger and fs.max_spins is not None:
        return (f"{game.name}: no player of real rounds for the books yet for sticky wilds "
                "that retrigger under a spin cap (max_spins)")
    if fs.state.kind == "sticky_wilds":
        rs = game.reel_sets[fs.reels]
        cells = sum(rows for reel, rows in zip(rs.reels, game.rows)
                    if set(fs.state.symbols) & set(reel.symbols))
        codes = (len(fs.state.symbols) + 1) ** cells * (max(fs.awards) + 1)
        if codes >= KEY_STATE_MAX:
            return (f"{game.name}: the books' sticky-wilds player keys at most "
                    f"{KEY_STATE_MAX:,} (trigger count, state) codes; {codes:,}")
    if fs.state.kind not in PLAYED:
        what = fs.state.kind.replace("_", " ")
        what = {"collector": "a collector"}.get(what, what)
        return f"{game.name}: no player of real rounds for the books yet for free spins with {what}"
    return None


@njit(cache=True)
def _reach(values, awards, levels, cap, most_credits):
    """``spins[i, r, s]``: the fewest spins that pay ``s`` credits with ``r`` spins left and
    ``levels[i]`` spins awarded so far (-1: none do); ``choice[i, r, s]``: the first spin of
    such a sequence (index into values / awards; the first listed among equally short ones).
    A spin's award is cut to ``cap - a`` (``cap`` < 0: no cap; an ``a`` not in ``levels`` is
    not reachable)."""
    none = np.iinfo(np.int32).max
    n_levels = levels.shape[0]
    most_left = levels[n_levels - 1]
    spins = np.full((n_levels, most_left + 1, most_credits + 1), -1, np.int32)
    choice = np.full((n_levels, most_left + 1, most_credits + 1), -1, np.int32)
    for i in range(n_levels):
        spins[i, 0, 0] = 0
    n = values.shape[0]
    after = np.full((n_levels, n), -1, np.int64)  # level index after spin k from level i
    gain = np.zeros((n_levels, n), np.int64)
    for i in range(n_levels):
        for k in range(n):
            u = awards[k]
            if cap >= 0:
                u = min(u, cap - levels[i])
            gain[i, k] = u
            for j in range(n_levels):
                if levels[j] == levels[i] + u:
                    after[i, k] = j
    for s in range(most_credits + 1):
        for i in range(n_levels - 1, -1, -1):
            for r in range(1, levels[i] + 1):
                best = none
                for k in range(n):
                    v = values[k]
                    if v > s or after[i, k] < 0:
                        continue
                    j = after[i, k]
                    rest = spins[j, r - 1 + gain[i, k], s - v]
                    if rest >= 0 and rest + 1 < best:
                        best = rest + 1
                        choice[i, r, s] = k
                if best != none:
                    spins[i, r, s] = best
    return spins, choice


def _levels(starts, awards, cap) -> list[int]:
    """The spins awarded so far that a feature can reach: from each start, adding the capped
    retrigger awards (without a cap, at most three retriggers past the largest start)."""
    bound = cap if cap is not None else max(starts) + 3 * max(awards, default=0)
    seen, todo = set(), list(starts)
    while todo:
        a = todo.pop()
        if a in seen or a > bound:
            continue
        seen.add(a)
        for u in awards:
            u = min(u, cap - a) if cap is not None else u
            if u > 0:
                todo.append(a + u)
    return sorted(seen)



def _opening(trigger: str, trigger_window, start, n: int, first_index: int):
    """The events every state's book opens with: the trigger (its cells in ``trigger_window``;
    none when bought) and, when the number of spins ``n`` was drawn from ``start``, the draw.
    Returns the events and the function that appends one (indices from ``first_index``)."""
    events: list[dict] = []

    def add(event):
        events.append({"index": first_index + len(events)} | event)
    add({"type": "freeSpinTrigger", "totalFs": n,
         "positions": [{"reel": j, "row": r} for j, col in enumerate(trigger_window or ())
                       for r, s in enumerate(col) if s == trigger]})
    law = dict(start)
    if len(law) > 1:
        p = Fraction(law[n], sum(law.values()))
        add({"type": "freeSpinsDrawn", "totalFs": n, "weights": {str(k): w for k, w in start},
             "probability": f"{p.numerator}/{p.denominator}"})
    return events, add

class ExpandingIndex(SpinIndex):
    """Stop combinations of the free reels by key ``(symbol, trigger count, credits)``: the
    credits a free spin pays when ``symbol`` is the expanding symbol (window pays plus the
    expansion, times ``multiplier``)."""

    def __init__(self, game, level, reel_set, counted, cap, symbols, multiplier, progress=None):
        super().__init__(game, level, reel_set, counted, cap, progress)
        self.symbols = tuple(symbols)
        self.multiplier = multiplier
        lines = game.n_lines
        self._extra = {x: np.array([lines * self.model.key_credits[x].get(k, 0)
                                    for k in range(game.n_reels + 1)], np.int64)
                       for x in self.symbols}
        self._shows = {x: [np.asarray([int(x in r.window(s, rows)) for s in range(len(r.symbols))],
                                      np.int64) for r, rows in zip(self.reels, game.rows)]
                       for x in self.symbols}

    def _record(self, stops: np.ndarray) -> None:
        count, credits = self._keys(stops)
        for x in self.symbols:
            k = np.zeros(len(stops), np.int64)
            for j, per_stop in enumerate(self._shows[x]):
                k += per_stop[stops[:, j]]
            total = (credits + self._extra[x][k]) * self.multiplier
            _, first = np.unique(count * (1 << 40) + total, return_index=True)
            for i in first.tolist():
                key = (x, int(count[i]), int(total[i]))
                if key not in self.found:
                    self.found[key] = tuple(int(s) for s in stops[i])

    def window(self, key):
        """The stops and window of the spin found for ``key``."""
        stops = self.found[key]
        return stops, window_at(self.game, self.game.reel_sets[self.reel_set], stops)


class _StatePlayer:
    """What the three state players share: the game, level and built feature, the free-spins
    rules, the mechanic and its credits per bet, the awards of a retrigger and the spins a
    started feature can hold."""

    def __init__(self, game, level, feature):
        self.game, self.level, self.feature = game, level, feature
        self.spec = game.free_spins
        self.mechanic = feature.mechanic
        self.credits_per_bet = self.mechanic.credits_per_bet
        self.cap = max(self.spec.awards) if self.spec.retrigger else None

    def _award(self, count: int) -> int:
        return self.spec.retrigger_for(count) if self.spec.retrigger and count else 0

    def _starts(self) -> list[int]:
        """The spins a started feature can be awarded (weight > 0)."""
        out = set()
        for c in range(max(self.spec.awards) + 1):
            key = self.feature.start(c)
            if key is not None:
                out |= {n for n, w in key if w}
        return sorted(out)


class ExpandingPlayer(_StatePlayer):
    """The free spins with an expanding symbol of ``feature`` (a built
    :class:`~slotmath.features.free_spins.StateRound`) in ``game`` at ``level``: which totals
    a started feature can pay (:meth:`reachable`, in the mechanic's credits) and a round that
    pays one (:meth:`play`)."""

    def __init__(self, game, level, feature, progress=None):
        super().__init__(game, level, feature)
        self.multiplier = self.mechanic.multiplier
        self.draw = {x: w for w, x in self.mechanic.start()}
        self.index = ExpandingIndex(game, level, feature.reels,
                                    self.spec.trigger if self.spec.retrigger else None,
                                    self.cap, self.draw, self.multiplier, progress)
        self.model = self.index.model
        self._tables: dict = {}

    # -- which totals -----------------------------------------------------------------------
    def _table_keys(self) -> dict:
        """The exact engine's keys (symbol, trigger, credits) -> weight."""
        out = {}
        for x in self.draw:
            for move in self.mechanic.moves(x):
                credits, weights = self.mechanic._laws.arrays[move.law]
                for c, w in zip(credits.tolist(), weights.tolist()):
                    out[(x, move.trigger, c)] = w
        return out

    def prepare(self, most_credits: int, *, complete: bool = False) -> None:
        """Find free spins (sampled, or the whole cycle with ``complete``) and fill the tables
        of totals up to ``most_credits`` credits, one per symbol drawn."""
        if complete:
            self.index.find()
        else:
            self.index.sample()
        weights = self._table_keys()
        self.index.check(weights)
        cap = self.spec.max_spins
        starts = self._starts()
        awards = sorted({self._award(t) for _, t, _ in self.index.found} - {0})
        levels = _levels(starts, awards, cap)
        self._levels = {a: i for i, a in enumerate(levels)}
        self._tables = {}
        for x in self.draw:
            keys = sorted((k for k in self.index.found if k[0] == x),
                          key=lambda k: (-weights[k], k))
            spins, seen = [], set()
            for key in keys:  # one spin per (win, award), the most frequent
                va = (key[2], self._award(key[1]))
                if va not in seen:
                    seen.add(va)
                    spins.append((*va, key))
            fewest, choice = _reach(np.array([v for v, _, _ in spins], np.int64),
                                    np.array([a for _, a, _ in spins], np.int64),
                                    np.array(levels, np.int64), -1 if cap is None else cap,
                                    int(most_credits))
            self._tables[x] = (spins, fewest, choice)

    def reachable(self, start) -> np.ndarray:
        """The totals (credits) a feature started by ``start`` (the round's key: its award
        law) can pay."""
        out = None
        for n, w in start:
            if not w:
                continue
            for _, fewest, _ in self._tables.values():
                row = fewest[self._levels[n], n] >= 0
                out = row if out is None else out | row
        return np.flatnonzero(out)

    # -- one round --------------------------------------------------------------------------
    def play(self, start, credits: int, trigger_window, first_index: int) -> list[dict]:
        """The events of a feature started by ``start`` paying ``credits``, started by the
        paid spin showing ``trigger_window`` (None: bought); event indices from
        ``first_index``."""
        law = dict(start)
        draws = sum(self.draw.values())
        choice = None
        for n in sorted(law, key=lambda n: (-law[n], n)):
            for x in sorted(self.draw, key=lambda x: (-self.draw[x], x)):
                if law[n] and self._tables[x][1][self._levels[n], n, credits] >= 0:
                    choice = (n, x)
                    break
            if choice:
                break
        if choice is None:
            raise ValueError(f"no feature of {start} pays {credits} credits")
        n, x = choice
        chosen, _, table = self._tables[x]
        cpb = self.credits_per_bet
        trigger = self.spec.trigger
        events, add = _opening(trigger, trigger_window, start, n, first_index)
        p = Fraction(self.draw[x], draws)
        add({"type": "expandingSymbol", "symbol": x,
             "weights": dict(self.draw), "probability": f"{p.numerator}/{p.denominator}"})
        a, left, played, paid = n, n, 0, 0
        s = credits
        lines = self.game.n_lines
        while left:
            v, award, key = chosen[table[self._levels[a], left, s]]
            stops, window = self.index.window(key)
            played += 1
            add({"type": "updateFreeSpin", "amount": played, "total": a})
            add({"type": "reveal", "gameType": "freegame", "reelSet": self.feature.reels,
                 "stops": list(stops), "board": board(window)})
            wins, won = window_events(self.model, window, self.multiplier)
            shown = [j for j, col in enumerate(window) if x in col]
            pay = self.model.key_credits[x].get(len(shown), 0)
            if pay:
                extra = lines * pay * self.multiplier
                wins = wins + [{"kind": "expansion", "symbol": x, "count": len(shown),
                                "lines": lines, "reels": shown,
                                "positions": [{"reel": j, "row": r} for j in shown
                                              for r in range(self.game.rows[j])]}
                               | amount_fields(extra, cpb, "win")]
                won += extra
            if won != v:
                raise AssertionError("a free spin pays other than the engine's key said")
            paid += won
            if wins:
                add({"type": "winInfo", "wins": wins} | amount_fields(won, cpb, "totalWin"))
                add({"type": "setWin"} | amount_fields(paid, cpb))
            u = award if self.spec.max_spins is None else min(award, self.spec.max_spins - a)
            if u:
                a += u
                add({"type": "freeSpinRetrigger", "totalFs": a,
                     "positions": [{"reel": j, "row": r} for j, col in enumerate(window)
                                   for r, y in enumerate(col) if y == trigger]})
            s -= v
            left += u - 1
        if s or paid != credits:
            raise AssertionError("the free spins played do not pay what the table said")
        add({"type": "freeSpinEnd"} | amount_fields(paid, cpb))
        return events


@njit(cache=True)
def _reach_states(ptr, values, awards, nexts, most_left, most_credits):
    """``spins[x, r, s]``: the fewest spins that pay ``s`` credits from state ``x`` with ``r``
    spins left (-1: none do); ``choice[x, r, s]``: the first spin of such a sequence (an
    index into the options; state ``x``'s are ``ptr[x]`` to ``ptr[x + 1]``, each leading to
    a state ``nexts[k] >= x``; the first listed among equally short ones). A spin that pays
    nothing, awards spins and stays in its state is never chosen (it would loop)."""
    n_states = ptr.shape[0] - 1
    none = np.iinfo(np.int32).max
    spins = np.full((n_states, most_left + 1, most_credits + 1), -1, np.int16)
    choice = np.full((n_states, most_left + 1, most_credits + 1), -1, np.int32)
    for x in range(n_states):
        spins[x, 0, 0] = 0
    for s in range(most_credits + 1):
        for x in range(n_states - 1, -1, -1):
            for r in range(1, most_left + 1):
                best = none
                for k in range(ptr[x], ptr[x + 1]):
                    v = values[k]
                    y = nexts[k]
                    if v > s or (v == 0 and awards[k] > 0 and y == x):
                        continue
                    left = r - 1 + awards[k]
                    if left > most_left:
                        continue
                    rest = spins[y, left, s - v]
                    if rest >= 0 and rest + 1 < best:
                        best = rest + 1
                        choice[x, r, s] = k
                if best != none:
                    spins[x, r, s] = best
    return spins, choice


class CollectorIndex(SpinIndex):
    """Stop combinations of the free reels by key ``(trigger count, collectors, cash symbols,
    window credits)``, the credits in ``scale`` units of the pay model's (the collector's)."""

    def __init__(self, game, level, reel_set, counted, cap, collector, cash, scale,
                 progress=None):
        super().__init__(game, level, reel_set, counted, cap, progress)
        self.scale = scale
        cash = frozenset(cash)
        self._marks = [
            [np.asarray([r.window(s, rows).count(collector) for s in range(len(r.symbols))],
                        np.int64) for r, rows in zip(self.reels, game.rows)],
            [np.asarray([sum(x in cash for x in r.window(s, rows))
                         for s in range(len(r.symbols))], np.int64)
             for r, rows in zip(self.reels, game.rows)]]

    def _record(self, stops: np.ndarray) -> None:
        count, credits = self._keys(stops)
        marks = []
        for per_reel in self._marks:
            m = np.zeros(len(stops), np.int64)
            for j, per_stop in enumerate(per_reel):
                m += per_stop[stops[:, j]]
            marks.append(m)
        nc, nf = marks
        codes = ((count * 64 + nc) * 64 + nf) * (1 << 40) + credits
        _, first = np.unique(codes, return_index=True)
        for i in first.tolist():
            key = (int(count[i]), int(nc[i]), int(nf[i]), int(credits[i]) * self.scale)
            if key not in self.found:
                self.found[key] = tuple(int(s) for s in stops[i])

    def window(self, key):
        """The stops and window of the spin found for ``key``."""
        stops = self.found[key]
        return stops, window_at(self.game, self.game.reel_sets[self.reel_set], stops)


def _sums(values: list[tuple[int, int]], n: int) -> dict[int, tuple[int, tuple[int, ...]]]:
    """Each sum of ``n`` values drawn by weight: its probability's numerator (over
    total^n) and one draw giving it (the likeliest such draw the recursion meets).

    >>> _sums([(1, 3), (2, 1)], 2)
    {2: (9, (1, 1)), 3: (6, (1, 2)), 4: (1, (2, 2))}
    """
    out = {0: (1, 1, ())}  # sum -> (weight, the draw's own weight, draw)
    for _ in range(n):
        new: dict = {}
        for total, (w, best, draw) in out.items():
            for v, x in values:
                t, q, d = total + v, w * x, draw + (v,)
                if t in new:
                    old, old_best, old_draw = new[t]
                    new[t] = (old + q, *((best * x, d) if best * x > old_best
                                         else (old_best, old_draw)))
                else:
                    new[t] = (q, best * x, d)
        out = new
    return {t: (w, d) for t, (w, _, d) in sorted(out.items())}


class CollectorPlayer(_StatePlayer):
    """The collector's free spins of ``feature`` (a built
    :class:`~slotmath.features.free_spins.StateRound`) in ``game`` at ``level``: which totals
    a started feature can pay (:meth:`reachable`, in the mechanic's credits) and a round that
    pays one (:meth:`play`)."""

    def __init__(self, game, level, feature, progress=None):
        super().__init__(game, level, feature)
        self.state = self.spec.state
        self.index = CollectorIndex(game, level, feature.reels,
                                    self.spec.trigger if self.spec.retrigger else None,
                                    self.cap, self.state.collector, self.state.cash,
                                    self.mechanic.line_scale, progress)
        self.model = self.index.model
        self.values = [(v, w) for v, w in self.mechanic.value_credits]
        self._tables = None

    def _options(self, x: int, weights: dict) -> list[tuple]:
        """The spins state ``x`` offers the table: (win, award, next state, key, draw), the
        most likely first, at most :data:`COLLECTOR_CHOICES` distinct (win, award, next)."""
        spec = self.state
        level = spec.level(x)
        by_class: dict = {}
        for key in self.index.found:
            by_class.setdefault(key[:3], []).append(key)
        offered: dict = {}
        for (t, nc, nf), keys in by_class.items():
            after = min(x + nc, spec.top)
            award = spec.retrigger * (spec.level(after) - level) + self._award(t)
            a, k = self.mechanic.factors(level, nc)
            sums = _sums(self.values, nf)
            keys.sort(key=lambda q: (-weights[q], q))
            top_sum = max(sums, key=lambda v: (sums[v][0], -v))
            if len(keys) * len(sums) <= PAIRS_MAX:
                pairs = [(q, v) for q in keys for v in sums]
            else:
                pairs = [(q, top_sum) for q in keys] + [(keys[0], v) for v in sums]
            for q, v in pairs:
                win = a * q[3] + (k * v if nc else 0)
                p = Fraction(weights[q]) * sums[v][0] / self.mechanic.value_total ** nf
                option = (win, award, after)
                if option not in offered or offered[option][0] < p:
                    offered[option] = (p, q, sums[v][1])
        ranked = sorted(offered.items(), key=lambda kv: (-kv[1][0], kv[0]))
        kept = ranked[:COLLECTOR_CHOICES // 2]  # the likeliest half; then wins spread evenly
        rest = sorted(ranked[COLLECTOR_CHOICES // 2:], key=lambda kv: kv[0])
        room = COLLECTOR_CHOICES - len(kept)
        if len(rest) > room:
            rest = [rest[round(i * (len(rest) - 1) / max(room - 1, 1))] for i in range(room)]
        kept += sorted(rest, key=lambda kv: (-kv[1][0], kv[0]))
        return [(*option, q, draw) for option, (_, q, draw) in kept]

    def prepare(self, most_credits: int, *, complete: bool = False) -> None:
        """Find free spins (sampled, or the whole cycle with ``complete``) and fill the table
        of totals up to ``most_credits`` credits."""
        if complete:
            self.index.find()
        else:
            self.index.sample()
        weights = {}
        for (t, nc, nf), (cs, ws) in self.mechanic.classes.items():
            for c, w in zip(cs.tolist(), ws.tolist()):
                weights[(t, nc, nf, c)] = w
        self.index.check(weights)
        states = self.state.top + 1
        options = [self._options(x, weights) for x in range(states)]
        ptr = np.zeros(states + 1, np.int64)
        for x, opts in enumerate(options):
            ptr[x + 1] = ptr[x] + len(opts)
        flat = [o for opts in options for o in opts]
        retrigger = max((self._award(t) for t in range(max(self.spec.awards) + 1)), default=0)
        most_left = (max(self._starts()) + self.state.retrigger * self.state.levels
                     + 3 * retrigger)
        fewest, choice = _reach_states(ptr, np.array([o[0] for o in flat], np.int64),
                                       np.array([o[1] for o in flat], np.int64),
                                       np.array([o[2] for o in flat], np.int64),
                                       most_left, int(most_credits))
        self._tables = (flat, fewest, choice)

    def reachable(self, start) -> np.ndarray:
        """The totals (credits) a feature started by ``start`` (its award law) can pay."""
        _, fewest, _ = self._tables
        out = np.zeros(fewest.shape[2], bool)
        for n, w in start:
            if w:
                out |= fewest[0, n] >= 0
        return np.flatnonzero(out)

    def play(self, start, credits: int, trigger_window, first_index: int) -> list[dict]:
        """The events of a feature started by ``start`` paying ``credits``, started by the
        paid spin showing ``trigger_window`` (None: bought); event indices from
        ``first_index``."""
        flat, fewest, table = self._tables
        law = dict(start)
        n = next((n for n in sorted(law, key=lambda n: (-law[n], n))
                  if law[n] and fewest[0, n, credits] >= 0), None)
        if n is None:
            raise ValueError(f"no feature of {start} pays {credits} credits")
        spec, cpb = self.state, self.credits_per_bet
        scale = self.mechanic.line_scale
        trigger = self.spec.trigger
        events, add = _opening(trigger, trigger_window, start, n, first_index)
        x, total, left, played, paid, s = 0, n, n, 0, 0, credits
        cash = frozenset(spec.cash)
        while left:
            v, award, after, key, draw = flat[table[x, left, s]]
            stops, window = self.index.window(key)
            played += 1
            level = spec.level(x)
            a, k = self.mechanic.factors(level, key[1])
            add({"type": "updateFreeSpin", "amount": played, "total": total})
            add({"type": "reveal", "gameType": "freegame", "reelSet": self.feature.reels,
                 "stops": list(stops), "board": board(window)})
            cells = [(j, r) for j, col in enumerate(window) for r, y in enumerate(col)
                     if y in cash]
            if len(cells) != len(draw):
                raise AssertionError("the cash symbols shown are not the values drawn")
            if cells:
                add({"type": "cashValues", "values": [
                    {"reel": j, "row": r, "symbol": window[j][r]} | _bets(d, cpb)
                    for (j, r), d in zip(cells, draw)]})
            wins, won = window_events(self.model, window, a)
            won *= scale
            nc = key[1]
            if nc and draw:
                collected = k * sum(draw)
                wins = wins + [{"kind": "collect", "symbol": spec.collector, "count": nc,
                                "collected": _bets(sum(draw), cpb)["bets"],
                                "multiplier": spec.multiplier(level) * self.spec.multiplier,
                                "positions": [{"reel": j, "row": r} for j, col in
                                              enumerate(window) for r, y in enumerate(col)
                                              if y == spec.collector]}
                               | amount_fields(collected, cpb, "win")]
                won += collected
            if won != v:
                raise AssertionError("a free spin pays other than the engine's classes said")
            paid += won
            if wins:
                add({"type": "winInfo", "wins": wins} | amount_fields(won, cpb, "totalWin"))
                add({"type": "setWin"} | amount_fields(paid, cpb))
            if spec.level(after) > level:
                add({"type": "collectorLevel", "collected": after, "level": spec.level(after),
                     "multiplier": spec.multiplier(spec.level(after))})
            if award:
                total += award
                add({"type": "freeSpinRetrigger", "totalFs": total,
                     "positions": [{"reel": j, "row": r} for j, col in enumerate(window)
                                   for r, y in enumerate(col)
                                   if y == (trigger if self._award(key[0]) else spec.collector)]})
            s -= v
            left += award - 1
            x = after
        if s or paid != credits:
            raise AssertionError("the free spins played do not pay what the table said")
        add({"type": "freeSpinEnd"} | amount_fields(paid, cpb))
        return events


def _bets(credits: int, credits_per_bet: int) -> dict:
    """A cash value as the books show it: ``bets`` (exact, "p/q" or a whole number)."""
    q = Fraction(credits, credits_per_bet)
    return {"bets": str(q)}


def _sticky_size(game) -> tuple[int, int]:
    """(states, windows a state's spin shows) of ``game``'s sticky wilds."""
    fs = game.free_spins
    rs = game.reel_sets[fs.reels]
    wilds = set(fs.state.symbols)
    states, windows = 1, 1
    for reel, rows in zip(rs.reels, game.rows):
        here = len(wilds & set(reel.symbols))
        if here:
            states *= (here + 1) ** rows
        weights = reel.stop_weights
        windows *= sum(1 for w in weights if w)
    return states, windows


@njit(cache=True)
def _reach_bits(ptr, values, awards, nexts, most_left, words):
    """``reach[x, r, w]``: bit ``s`` (word ``s // 64``, bit ``s % 64``) set when some
    sequence of the offered spins pays exactly ``s`` credits from state ``x`` with ``r`` spins
    left (state ``x``'s spins are ``ptr[x]`` to ``ptr[x + 1]``, each leading to a state
    ``nexts[k] >= x``). A spin that pays nothing, awards spins and stays in its state is
    never used (it would loop). Sweeps until nothing changes (one more than the retriggers
    chained)."""
    n_states = ptr.shape[0] - 1
    reach = np.zeros((n_states, most_left + 1, words), np.uint64)
    one = np.uint64(1)
    for x in range(n_states):
        reach[x, 0, 0] = one
    changed = True
    while changed:
        changed = False
        for x in range(n_states - 1, -1, -1):
            for r in range(1, most_left + 1):
                row = reach[x, r]
                for k in range(ptr[x], ptr[x + 1]):
                    v = values[k]
                    y = nexts[k]
                    if v == 0 and awards[k] > 0 and y == x:
                        continue
                    left = r - 1 + awards[k]
                    if left > most_left:
                        continue
                    src = reach[y, left]
                    q = v >> 6
                    b = np.uint64(v & 63)
                    back = np.uint64(64 - (v & 63))
                    for i in range(words - 1, q - 1, -1):
                        val = src[i - q] << b
                        if (v & 63) and i - q - 1 >= 0:
                            val |= src[i - q - 1] >> back
                        new = row[i] | val
                        if new != row[i]:
                            row[i] = new
                            changed = True
    return reach


@njit(cache=True)
def _walk(ptr, values, awards, nexts, reach, x, left, s):
    """The spins (option indices) of a round from state ``x`` with ``left`` spins paying ``s``
    credits: at each spin the first offered one (the likeliest first) after which the rest can
    still be paid (``reach``). Each step lowers ``s``, or raises the state, or lowers the
    spins left (a spin paying nothing, awarding spins and staying is not taken), so it ends.
    An empty result when nothing pays ``s``."""
    most_left = reach.shape[1] - 1
    out = np.empty(16, np.int64)
    n = 0
    one = np.uint64(1)
    while left > 0:
        pick = -1
        for k in range(ptr[x], ptr[x + 1]):
            v = values[k]
            y = nexts[k]
            if v > s or (v == 0 and awards[k] > 0 and y == x):
                continue
            rest = left - 1 + awards[k]
            if rest > most_left:
                continue
            t = s - v
            if (reach[y, rest, t >> 6] >> np.uint64(t & 63)) & one:
                pick = k
                break
        if pick < 0:
            return np.empty(0, np.int64)
        if n == out.shape[0]:
            grown = np.empty(2 * n, np.int64)
            grown[:n] = out
            out = grown
        out[n] = pick
        n += 1
        s -= values[pick]
        left = left - 1 + awards[pick]
        x = nexts[pick]
    return out[:n]


class StickySearch:
    """Stop combinations of the free reels for the spins of each sticky state, found among
    seeded random draws paid by the simulator's compiled kernel
    (:func:`slotmath.simulate.spins.pay`) with the state's cells forced.

    The forced cells are a reel set of its own: each wild reel's strip is written out once per
    pattern of its sticky cells (``sub``), stop by stop, each stop's window as shown (the
    sticky cells their wild); stop ``s`` of reel ``j`` under pattern ``u`` is stop
    ``rows (u L + s)`` there. One compiled kernel pays every state. Per state: ``uniform``
    draws of the free reels, then ``strata`` draws for each combination of the wild reels'
    landing patterns (the wilds a stop lands on the cells not yet sticky), so every next
    state the engine lists is sought directly. A spin's key is (trigger count, next state,
    credits); every key must be one of the exact engine's moves (the caller checks).

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.publish.books import players
    >>> a = slotmath.analyze(slotmath.load_game("tests/data/free_spin_state/tiny_sticky.toml"))
    >>> player = players(a)[1]["free_spins"]
    >>> search = StickySearch(player)
    >>> stops = search.draws((1, 1, 1), 4, 1, np.random.default_rng(0))  # reel 2 all sticky
    >>> t, code, credits = search.keys((1, 1, 1), stops, 0)
    >>> len(stops), {player.decode(int(c)) for c in code}   # 4 uniform, 1 a landing pattern
    (5, {(1, 1, 1)})
    """

    def __init__(self, player):
        from slotmath.evaluate.window import PayModel
        from slotmath.model.game import Reel
        from slotmath.simulate.spins import ReelSet
        from slotmath.simulate.tables import compile_pays

        p = player
        game, spec = p.game, p.spec
        rs = game.reel_sets[spec.reels]
        self.player = p
        self.reels = rs.reels
        self.rows = game.rows
        n_reels = len(rs.reels)
        self.wild_reels = sorted({j for j, _ in p.cells})
        trigger = spec.trigger
        fake = []
        self.subs: dict[int, dict] = {}  # reel -> {sub: index}
        self.tcount, self.code = [], []  # per reel: [sub index, stop] arrays
        self.weights = []
        for j, reel in enumerate(rs.reels):
            rows = game.rows[j]
            n = len(reel.symbols)
            w = np.asarray(reel.stop_weights, np.float64)
            self.weights.append(w / w.sum())
            if j not in self.wild_reels:
                fake.append(reel)
                self.tcount.append(np.asarray([[reel.window(s, rows).count(trigger)
                                                for s in range(n)]], np.int64))
                self.code.append(np.zeros((1, n), np.int64))
                continue
            slots = [i for i, (jj, _) in enumerate(p.cells) if jj == j]
            values = [0] + [1 + p.wilds.index(x) for x in p.mechanic.reel_wilds[j]]
            subs = list(itertools.product(values, repeat=rows))
            self.subs[j] = {sub: u for u, sub in enumerate(subs)}
            symbols, tc, code = [], np.zeros((len(subs), n), np.int64), \
                np.zeros((len(subs), n), np.int64)
            for u, sub in enumerate(subs):
                for s in range(n):
                    window = reel.window(s, rows)
                    shown = [p.wilds[c - 1] if c else y for c, y in zip(sub, window)]
                    symbols += shown
                    tc[u, s] = shown.count(trigger)
                    after = [c or (1 + p.wilds.index(y) if y in p.wilds else 0)
                             for c, y in zip(sub, window)]
                    code[u, s] = sum(c * p.radix ** slot for c, slot in zip(after, slots))
            fake.append(Reel(tuple(symbols)))
            self.tcount.append(tc)
            self.code.append(code)
        forced = game.replace_reels(spec.reels, tuple(fake))
        self.model = PayModel(forced, p.level)
        if self.model.credits_per_bet != p.model.credits_per_bet:
            raise AssertionError("the forced reels pay in other credits than the game's")
        self.kernel = ReelSet.compile(forced, self.model, compile_pays(forced, self.model),
                                      spec.reels)
        self.n = [len(r.symbols) for r in rs.reels]
        self.n_reels = n_reels

    def draws(self, state, uniform: int, strata: int, rng) -> np.ndarray:
        """Stop combinations (original stops) to try from ``state``."""
        cols = []
        u = self._sub_index(state)
        # the uniform part
        for j in range(self.n_reels):
            cols.append(rng.choice(self.n[j], size=uniform, p=self.weights[j]))
        parts = [np.stack(cols, axis=1)]
        # the strata: each combination of the wild reels' landing patterns
        groups = []
        for j in self.wild_reels:
            codes = self.code[j][u[j]]
            live = np.flatnonzero(self.weights[j] > 0)
            groups.append([live[codes[live] == c] for c in np.unique(codes[live])])
        for combo in itertools.product(*groups):
            cols = [rng.choice(self.n[j], size=strata, p=self.weights[j])
                    for j in range(self.n_reels)]
            for j, stops in zip(self.wild_reels, combo):
                w = self.weights[j][stops]
                cols[j] = rng.choice(stops, size=strata, p=w / w.sum())
            parts.append(np.stack(cols, axis=1))
        return np.concatenate(parts).astype(np.int64)

    def _sub_index(self, state) -> dict[int, int]:
        p = self.player
        out = {}
        for j in self.wild_reels:
            sub = tuple(c for (jj, _), c in zip(p.cells, state) if jj == j)
            out[j] = self.subs[j][sub]
        return out

    def keys(self, state, stops: np.ndarray, cap: int):
        """(trigger count, next state's code, credits) of each stop combination from
        ``state`` (credits by the kernel, before the free-spin multiplier)."""
        from slotmath.simulate.spins import pay

        u = self._sub_index(state)
        fake = stops.copy()
        trig = np.zeros(len(stops), np.int64)
        code = np.full(len(stops), self.player.code(state), np.int64)
        for j in range(self.n_reels):
            k = u.get(j, 0)
            trig += self.tcount[j][k][stops[:, j]]
            if j in u:
                fake[:, j] = self.rows[j] * (k * self.n[j] + stops[:, j])
                # the reel's cells: replaced by what they hold after the spin
                code += self.code[j][k][stops[:, j]] - self.player.reel_code(state, j)
        credits, _, _, _ = pay(self.kernel, len(stops), stops=fake)
        return np.minimum(trig, cap), code, credits


class StickyPlayer(_StatePlayer):
    """Sticky wilds' free spins of ``feature`` (a built
    :class:`~slotmath.features.free_spins.StateRound`) in ``game`` at ``level``: which totals
    a started feature can pay (:meth:`reachable`, in the mechanic's credits) and a round that
    pays one (:meth:`play`).

    The states played are those the feature reaches (from no sticky cell, through the exact
    engine's moves, within the spins it can hold). Each state's spins are found by key
    (trigger count, next state, credits): when the states times the stop combinations are at
    most :data:`STICKY_WINDOWS_MAX`, every window of every state is visited and paid by the
    plain evaluator (the keys must be exactly the engine's moves, both ways); else among
    seeded draws (:class:`StickySearch`, each key one of the engine's moves). Each state
    offers the table at most :data:`STICKY_CHOICES` spins (the likeliest half, then wins
    spread evenly over the rest). The table is a bitset over (state, spins left, credits)
    (:func:`_reach_bits`); a round walks it spin by spin (:func:`_walk`). A payout no round of
    these spins reaches is a row without a book (reported, its probability moved to a
    neighbour). Every spin of a book is paid again by the plain evaluator, and its trigger
    count and the state it leaves are checked against the table's."""

    def __init__(self, game, level, feature, progress=None):
        from slotmath.evaluate.window import PayModel

        super().__init__(game, level, feature)
        self.model = PayModel(game, level)
        self.cells = self.mechanic.cells
        self.wilds = self.mechanic.wilds
        self.radix = len(self.wilds) + 1
        self._states_code = self.radix ** len(self.cells)  # the codes of the states
        self.progress = progress
        self._tables = None
        self._search = None
        # state -> (keys found (sorted, _pack), their stops, the engine's weights)
        self._found: dict = {}
        self._draws = 0  # search rounds done

    def code(self, state) -> int:
        return sum(c * self.radix ** i for i, c in enumerate(state))

    def reel_code(self, state, j: int) -> int:
        return sum(c * self.radix ** i for i, ((jj, _), c) in enumerate(zip(self.cells, state))
                   if jj == j)

    def decode(self, code: int) -> tuple[int, ...]:
        out = []
        for _ in self.cells:
            code, c = divmod(code, self.radix)
            out.append(c)
        return tuple(out)

    def shown(self, window, state):
        """The window a state shows: each sticky cell its wild."""
        out = [list(col) for col in window]
        for (j, r), c in zip(self.cells, state):
            if c:
                out[j][r] = self.wilds[c - 1]
        return tuple(tuple(col) for col in out)

    def landed(self, window, state):
        """The state after a spin that landed ``window``."""
        return tuple(c or (1 + self.wilds.index(window[j][r]) if window[j][r] in self.wilds
                           else 0) for (j, r), c in zip(self.cells, state))

    # -- the states and their spins ---------------------------------------------------------
    def _most_left(self) -> int:
        return max(self._starts()) + 3 * max((self._award(t) for t in range(self._tcap + 1)),
                                             default=0)

    @property
    def _tcap(self) -> int:
        return max(self.spec.awards) if self.spec.retrigger else 0

    def _pack(self, t, code, credits):
        """A spin's key (trigger count, next state's code, credits) as one int64."""
        return (np.asarray(t, np.int64) * self._states_code + code) * (1 << KEY_CREDIT_BITS) \
            + credits

    def _unpack(self, keys: np.ndarray):
        rest, credits = np.divmod(keys, 1 << KEY_CREDIT_BITS)
        t, code = np.divmod(rest, self._states_code)
        return t, code, credits

    def _engine(self, x) -> tuple[np.ndarray, np.ndarray]:
        """The exact engine's spins from state ``x``: their keys (sorted, :meth:`_pack`) and
        weights (float, for ranking)."""
        keys, weights = [], []
        for move in self.mechanic.moves(x):
            credits, w = self.mechanic._laws.arrays[move.law]
            keys.append(self._pack(move.trigger, self.code(move.state), credits))
            weights.append(w.astype(np.float64))
        keys, inverse = np.unique(np.concatenate(keys), return_inverse=True)
        return keys, np.bincount(inverse.ravel(), weights=np.concatenate(weights))

    def _states(self, depth: int) -> tuple[list, list]:
        """The states the feature reaches within ``depth`` spins (from no sticky cell, by the
        engine's moves), fewest sticky cells first; and those reached in fewer (whose spins
        are played)."""
        start = (0,) * len(self.cells)
        seen, frontier, inner = {start}, [start], []
        for _ in range(depth):
            inner += frontier
            nxt = []
            for x in frontier:
                for move in self.mechanic.moves(x):
                    if move.state not in seen:
                        seen.add(move.state)
                        nxt.append(move.state)
            frontier = nxt

        def order(x):
            return sum(1 for c in x if c), x
        return sorted(seen, key=order), sorted(inner, key=order)

    def _visit(self, x, engine) -> None:
        """Every window of state ``x``, paid by the plain evaluator: the keys found, which
        must be exactly the engine's."""
        rs = self.game.reel_sets[self.spec.reels]
        live = [[s for s, w in enumerate(r.stop_weights) if w] for r in rs.reels]
        trigger = self.spec.trigger
        scale = self.credits_per_bet // self.model.credits_per_bet
        found = {}
        for stops in itertools.product(*live):
            window = window_at(self.game, rs, stops)
            shown = self.shown(window, x)
            _, credits = window_events(self.model, shown, self.spec.multiplier)
            t = min(sum(col.count(trigger) for col in shown), self._tcap)
            key = int(self._pack(t, self.code(self.landed(window, x)), credits * scale))
            found.setdefault(key, stops)
        keys = np.array(sorted(found), np.int64)
        if not np.isin(keys, engine[0]).all():
            bad = self._unpack(keys[~np.isin(keys, engine[0])][:1])
            raise AssertionError(f"sticky state {x}: a spin the engine's moves do not list: "
                                 f"{[int(a[0]) for a in bad]}")
        if len(keys) != len(engine[0]):
            raise AssertionError(f"sticky state {x}: moves of the engine no window shows")
        self._found[x] = (keys, np.array([found[k] for k in keys.tolist()], np.int64),
                          engine[1])

    def _sample(self, x, engine, seed: int) -> None:
        """Seeded draws from state ``x`` (:class:`StickySearch`), added to the keys found;
        each must be one of the engine's moves."""
        if self._search is None:
            self._search = StickySearch(self)
        rng = np.random.Generator(np.random.PCG64([seed, self.code(x)]))
        stops = self._search.draws(x, STICKY_UNIFORM, STICKY_STRATA, rng)
        t, code, credits = self._search.keys(x, stops, self._tcap)
        scale = self.credits_per_bet // self.model.credits_per_bet
        keys = self._pack(t, code, credits * self.spec.multiplier * scale)
        if x in self._found:  # an earlier round's first
            old_keys, old_stops, _ = self._found[x]
            keys = np.concatenate([old_keys, keys])
            stops = np.concatenate([old_stops, stops])
        keys, first = np.unique(keys, return_index=True)
        stops = stops[first]
        at = np.minimum(np.searchsorted(engine[0], keys), len(engine[0]) - 1)
        listed = engine[0][at] == keys
        if not listed.all():
            bad = self._unpack(keys[~listed][:1])
            raise AssertionError(f"sticky state {x}: a spin the engine's moves do not list: "
                                 f"{[int(a[0]) for a in bad]}")
        self._found[x] = (keys, stops, engine[1][at])

    def _options(self, x, codes: np.ndarray, choices: int):
        """The spins state ``x`` offers the table, the likeliest first, at most ``choices``:
        arrays (win, award, next state index, stops)."""
        keys, stops, weights = self._found[x]
        t, code, credits = self._unpack(keys)
        order = np.lexsort((keys, -weights))  # the likeliest first
        kept = order[:choices // 2]
        rest = order[choices // 2:]
        rest = rest[np.lexsort((keys[rest], credits[rest]))]  # by win
        room = choices - len(kept)
        if len(rest) > room:
            rest = rest[[round(i * (len(rest) - 1) / max(room - 1, 1)) for i in range(room)]]
        rest = rest[np.lexsort((keys[rest], -weights[rest]))]
        pick = np.concatenate([kept, rest])
        awards = np.array([self._award(c) for c in range(self._tcap + 1)], np.int64)
        return (credits[pick], awards[t[pick]], np.searchsorted(codes, code[pick]),
                stops[pick])

    def prepare(self, most_credits: int, *, complete: bool = False) -> None:
        """Find the spins of every state the feature reaches (every window when few, else
        seeded draws; ``complete``: a second round of draws) and fill the table of totals up
        to ``most_credits`` credits."""
        rounds = 2 if complete else 1
        if self._tables is not None and self._tables[-1] >= most_credits \
                and self._draws >= rounds:
            return
        if most_credits >= 1 << KEY_CREDIT_BITS:
            raise ValueError(f"{self.game.name}: a free spin's credits beyond the books' "
                             f"sticky-wilds player's keys (2**{KEY_CREDIT_BITS})")
        most_left = self._most_left()
        states, inner = self._states(most_left)
        _, windows = _sticky_size(self.game)
        if len(inner) * windows <= STICKY_WINDOWS_MAX:
            if not self._found:
                for x in inner:
                    self._visit(x, self._engine(x))
            self._draws = 2
        else:
            for k in range(self._draws, rounds):
                for i, x in enumerate(inner):
                    self._sample(x, self._engine(x), k)
                    if self.progress is not None:
                        self.progress(k * len(inner) + i + 1, rounds * len(inner))
            self._draws = max(self._draws, rounds)
        # states by code (the index of a state is its place in ``states``)
        codes = np.array([self.code(x) for x in states], np.int64)
        by_code = np.argsort(codes)
        self.states = states
        words = int(most_credits) // 64 + 1
        choices = max(STICKY_CHOICES, STICKY_WORK // (len(inner) * most_left * words))
        sizes = np.zeros(len(states), np.int64)
        parts = []
        for i, x in enumerate(states):
            if x in self._found:
                v, a, nxt, stops = self._options(x, codes[by_code], choices)
                sizes[i] = len(v)
                parts.append((v, a, by_code[nxt], stops, np.full(len(v), i, np.int64)))
        ptr = np.zeros(len(states) + 1, np.int64)
        ptr[1:] = np.cumsum(sizes)
        values, awards, nexts, stops, owner = (
            np.concatenate([p[i] for p in parts]) for i in range(5))
        if len(values) and (nexts < owner).any():
            raise AssertionError("a sticky state's spin leads to a state with fewer cells")
        reach = _reach_bits(ptr, values, awards, nexts, most_left, words)
        self._tables = ((ptr, values, awards, nexts), stops, owner, reach, int(most_credits))

    def reachable(self, start) -> np.ndarray:
        """The totals (credits) a feature started by ``start`` (its award law) can pay."""
        _, _, _, reach, most = self._tables
        out = np.zeros(reach.shape[2], np.uint64)
        for n, w in start:
            if w:
                out |= reach[0, n]
        bits = np.unpackbits(out.view(np.uint8), bitorder="little")
        return np.flatnonzero(bits[:most + 1])

    def play(self, start, credits: int, trigger_window, first_index: int) -> list[dict]:
        """The events of a feature started by ``start`` paying ``credits``, started by the
        paid spin showing ``trigger_window`` (None: bought); event indices from
        ``first_index``."""
        arrays, all_stops, owner, reach, _ = self._tables
        law = dict(start)
        chosen = None
        for n in sorted(law, key=lambda n: (-law[n], n)):
            if law[n] and credits < reach.shape[2] * 64:
                path = _walk(*arrays, reach, 0, n, credits)
                if len(path):
                    chosen = n, path
                    break
        if chosen is None:
            raise ValueError(f"no feature of {start} pays {credits} credits")
        n, path = chosen
        _, values, awards, nexts = arrays
        cpb = self.credits_per_bet
        scale = cpb // self.model.credits_per_bet
        rs = self.game.reel_sets[self.spec.reels]
        trigger = self.spec.trigger
        events, add = _opening(trigger, trigger_window, start, n, first_index)
        total, left, paid, s = n, n, 0, credits
        cap = self.spec.max_spins
        for played, k in enumerate(path.tolist(), 1):
            v, award, after = int(values[k]), int(awards[k]), int(nexts[k])
            stops, state = tuple(int(c) for c in all_stops[k]), self.states[owner[k]]
            window = window_at(self.game, rs, stops)
            shown = self.shown(window, state)
            add({"type": "updateFreeSpin", "amount": played, "total": total})
            add({"type": "reveal", "gameType": "freegame", "reelSet": self.feature.reels,
                 "stops": list(stops), "board": board(shown), "landed": board(window),
                 "sticky": [{"reel": j, "row": r, "symbol": self.wilds[c - 1]}
                            for (j, r), c in zip(self.cells, state) if c]})
            wins, won = window_events(self.model, shown, self.spec.multiplier)
            won *= scale
            if won != v:
                raise AssertionError("a free spin pays other than the engine's moves said")
            new = self.states[after]
            if self.landed(window, state) != new:
                raise AssertionError("a free spin leaves another state than the table said")
            t = min(sum(col.count(trigger) for col in shown), self._tcap)
            if self._award(t) != award:
                raise AssertionError("a free spin awards other spins than the table said")
            paid += won
            if wins:
                add({"type": "winInfo", "wins": wins} | amount_fields(won, cpb, "totalWin"))
                add({"type": "setWin"} | amount_fields(paid, cpb))
            if new != state:
                add({"type": "stickyWilds", "added": [
                    {"reel": j, "row": r, "symbol": self.wilds[c - 1]}
                    for (j, r), c, old in zip(self.cells, new, state) if c and not old]})
            u = award if cap is None else min(award, cap - total)
            if u:
                total += u
                add({"type": "freeSpinRetrigger", "totalFs": total,
                     "positions": [{"reel": j, "row": r} for j, col in enumerate(shown)
                                   for r, y in enumerate(col) if y == trigger]})
            s -= v
            left += u - 1
        if s or left or paid != credits:
            raise AssertionError("the free spins played do not pay what the table said")
        add({"type": "freeSpinEnd"} | amount_fields(paid, cpb))
        return events


def book(analysis, feature, progress=None):
    """The book player of a game's free spins with a state (the state's declaration's
    ``book`` hook): ``feature`` is the built round feature."""
    kind = analysis.game.free_spins.state.kind
    if kind == "expanding_symbol":
        return ExpandingPlayer(analysis.game, analysis.level, feature, progress)
    if kind == "sticky_wilds":
        return StickyPlayer(analysis.game, analysis.level, feature, progress)
    if kind == "collector":
        return CollectorPlayer(analysis.game, analysis.level, feature, progress)
    raise ValueError(f"no player of real rounds for the books yet for free spins with {kind}")
