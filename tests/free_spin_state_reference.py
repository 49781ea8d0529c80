"""Brute-force references for free spins with a state, written from docs/game-format.md
("Free spins with a state") and sharing no code with slotmath's engines: no PayModel, no
evaluate/, exact/, markov/ or features/. Only the game as loaded (the model's dataclasses)
is read, and every window of every stop combination is paid here, by these plain rules:

* a line pays the highest of its entries: each symbol with pays (and each wild with pays of
  its own) runs from reel 1 over the symbol itself and the wilds standing in for it; the
  run's multipliers multiply (or, with ``line_multipliers = "add"``, add those above 1, x1
  without any); a line pay is in line bets (a total bet / lines);
* a scatter pays by its count anywhere (a count above the top listed pays the top);
* free spins: the trigger count awards spins (or draws them by ``random_awards``); a free spin
  pays x ``multiplier``, retriggers by the awards (or ``retrigger_awards``) cut at
  ``max_spins``, and ``multiplier_growth`` multiplies the k-th spin's win;
* the state's own rules (expanding symbol, sticky wilds, collector) as the doc states them.

Everything is exact: a law is a dict ``win (Fraction, total bets) -> probability
(Fraction)``. The feature's law is found by recursion over (spins left, spins awarded, state)
with the whole win law of the rest of the feature at each state (not moments), so it shares
neither the engine's method nor its code.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

__all__ = ["Reference"]


def _memo(method):
    """Memoise a method per instance (in the instance: freed with it)."""
    @functools.wraps(method)
    def wrapper(self, *args):
        memo = self.__dict__.setdefault("_memo_" + method.__name__, {})
        if args not in memo:
            memo[args] = method(self, *args)
        return memo[args]
    return wrapper


def _count_value(table, count):
    """The value a count-keyed table gives: the listed one, the top above the top, else 0."""
    if not table or count < min(table):
        return 0
    if count in table:
        return table[count]
    return table[max(table)] if count > max(table) else 0


class Reference:
    """The exact round law of ``game`` (level 1) by visiting every window."""

    def __init__(self, game, mutation: str | None = None):
        self.game = game
        self.fs = game.free_spins
        self.mutation = mutation  # a seeded defect, for the tests that show a check can fail

    # -- one window ----------------------------------------------------------------------
    def windows(self, reel_set: str):
        """(probability, window) of every combination of the reels' windows."""
        per_reel = []
        for reel, rows in zip(self.game.reel_sets[reel_set].reels, self.game.rows):
            n = len(reel.symbols)
            weights = reel.weights or (1,) * n
            total = sum(weights)
            merged: dict = {}
            for stop, w in enumerate(weights):
                if w:
                    win = tuple(reel.symbols[(stop + r) % n] for r in range(rows))
                    merged[win] = merged.get(win, 0) + Fraction(w, total)
            per_reel.append(list(merged.items()))
        for combo in itertools.product(*per_reel):
            p = Fraction(1)
            for _, q in combo:
                p *= q
            yield p, tuple(w for w, _ in combo)

    def _stands_in(self, wild, symbol) -> bool:
        return (wild.wild and not symbol.wild and not symbol.scatter and not symbol.bonus
                and (wild.substitutes is None or symbol.name in wild.substitutes))

    def line(self, symbols: list[str]) -> Fraction:
        """The pay of one line in total bets."""
        game = self.game
        syms = game.symbols
        best = Fraction(0)
        for s in syms.values():
            if not s.pays or (s.scatter and not s.wild) or s.bonus:
                continue
            if s.scatter:  # a wild scatter pays as a scatter only
                continue
            run, product, added = 0, 1, 0
            for name in symbols:
                other = syms[name]
                if name != s.name and not (not s.wild and self._stands_in(other, s)):
                    break
                run += 1
                product *= other.multiplier
                added += other.multiplier if other.multiplier > 1 else 0
            mult = max(added, 1) if game.line_multipliers == "add" else product
            best = max(best, Fraction(s.pays.get(run, 0)) * mult / game.n_lines)
        return best

    def pays(self, window) -> Fraction:
        """Lines and scatters of a window, in total bets."""
        game = self.game
        total = sum((self.line([window[j][r] for j, r in enumerate(line)])
                     for line in game.paylines), Fraction(0))
        for s in game.symbols.values():
            if s.scatter and s.pays:
                count = sum(col.count(s.name) for col in window)
                total += Fraction(_count_value(dict(s.pays), count))
        return total

    def trigger_count(self, window) -> int:
        return sum(col.count(self.fs.trigger) for col in window)

    # -- the free spin of each state ----------------------------------------------------
    def start_states(self) -> list[tuple[Fraction, object]]:
        state = self.fs.state
        if state is None or state.kind == "sticky_wilds":
            return [(Fraction(1), frozenset() if state is not None else None)]
        if state.kind == "collector":
            return [(Fraction(1), 0)]
        total = sum(w for _, w in state.symbols)
        return [(Fraction(w, total), x) for x, w in state.symbols if w]

    @_memo
    def spin(self, state) -> tuple:
        """Outcomes of one free spin from ``state``: (probability, trigger count, next
        state, spins the state awards, win law {bets: probability}), merged."""
        fs, kind = self.fs, (self.fs.state.kind if self.fs.state else None)
        out: dict = {}
        for p, window in self.windows(fs.reels):
            nxt, award = state, 0
            if kind == "sticky_wilds":
                shown = [list(col) for col in window]
                landed = set(state)
                taken = {(j, r) for j, r, _ in state}
                for j, r, sym in state:
                    shown[j][r] = sym
                for j, col in enumerate(window):
                    for r, sym in enumerate(col):
                        if sym in fs.state.symbols and (j, r) not in taken:
                            landed.add((j, r, sym))
                if self.mutation == "sticky wilds that do not stick":
                    landed = set()
                window = tuple(tuple(col) for col in shown)  # a sticky wild covers its cell
                nxt = frozenset(landed)
            t = self.trigger_count(window)
            win = self.pays(window)
            law = {win: Fraction(1)}
            if kind == "expanding_symbol":
                reels = sum(state in col for col in window)
                pay = Fraction(self.game.symbols[state].pays.get(reels, 0))
                if self.mutation == "an expanding symbol that expands without paying":
                    pay = Fraction(0)
                law = {win + pay: Fraction(1)}
            elif kind == "collector":
                c = fs.state
                collectors = sum(col.count(c.collector) for col in window)
                cash = sum(sum(s in c.cash for s in col) for col in window)
                level = min(state // c.every, len(c.ladder))
                m = 1 if level == 0 else c.ladder[level - 1]
                values = self._value_sum(cash)
                times = collectors * (2 if self.mutation == "a collector that collects twice"
                                      else 1)
                law = {}
                for v, q in values.items():
                    x = (win + times * v) * m if c.applies == "all" else win + times * v * m
                    law[x] = law.get(x, 0) + q
                nxt = min(state + collectors, c.every * len(c.ladder))
                award = c.retrigger * (min(nxt // c.every, len(c.ladder)) - level)
            law = {w * fs.multiplier: q for w, q in law.items()}
            key = (t, nxt, award)
            acc = out.setdefault(key, {})
            for w, q in law.items():
                acc[w] = acc.get(w, 0) + p * q
        return tuple((sum(law.values()), t, nxt, award,
                      {w: q / sum(law.values()) for w, q in law.items()})
                     for (t, nxt, award), law in out.items())

    @_memo
    def _value_sum(self, n: int) -> dict:
        c = self.fs.state
        total = sum(w for _, w in c.values)
        law = {Fraction(0): Fraction(1)}
        for _ in range(n):
            new: dict = {}
            for a, p in law.items():
                for v, w in c.values:
                    if w:
                        new[a + v] = new.get(a + v, 0) + p * Fraction(w, total)
            law = new
        return law

    # -- the feature ---------------------------------------------------------------------
    @_memo
    def rest(self, left: int, awarded: int, state) -> dict:
        """The law of what the feature still pays from (spins left, spins awarded, state)."""
        if left == 0:
            return {Fraction(0): Fraction(1)}
        fs = self.fs
        played = awarded - left
        g = fs.growth.value(played) if fs.growth is not None else 1
        out: dict = {}
        for p, t, nxt, award, law in self.spin(state):
            more = award
            if fs.retrigger:
                more += _count_value(dict(fs.retrigger_awards if fs.retrigger_awards is not None
                                          else fs.awards), t)
            if fs.max_spins is not None:
                more = min(more, fs.max_spins - awarded)
            after = self.rest(left - 1 + more, awarded + more, nxt)
            for w, q in law.items():
                for v, r in after.items():
                    x = w * g + v
                    out[x] = out.get(x, 0) + p * q * r
        return out

    @_memo
    def ends(self, left: int, awarded: int, state) -> dict:
        """The law of how the feature ends: (spins played, final state) -> probability."""
        if left == 0:
            return {(awarded, state): Fraction(1)}
        fs = self.fs
        out: dict = {}
        for p, t, nxt, award, _ in self.spin(state):
            more = award
            if fs.retrigger:
                more += _count_value(dict(fs.retrigger_awards if fs.retrigger_awards is not None
                                          else fs.awards), t)
            if fs.max_spins is not None:
                more = min(more, fs.max_spins - awarded)
            for end, q in self.ends(left - 1 + more, awarded + more, nxt).items():
                out[end] = out.get(end, 0) + p * q
        return out

    def spins_law(self, count: int) -> dict[int, Fraction]:
        fs = self.fs
        if fs.award_laws is not None:
            law = _count_value({c: dict(v) for c, v in fs.award_laws.items()}, count)
            if not law:
                return {}
            total = sum(law.values())
            out = {n: Fraction(w, total) for n, w in law.items() if w}
        else:
            n = _count_value(dict(fs.awards), count)
            out = {n: Fraction(1)} if n else {}
        if fs.max_spins is not None:
            cut: dict = {}
            for n, q in out.items():
                cut[min(n, fs.max_spins)] = cut.get(min(n, fs.max_spins), 0) + q
            out = cut
        return out

    def feature(self, count: int) -> dict:
        """The law of the feature that ``count`` trigger symbols start."""
        out: dict = {}
        for n, q in self.spins_law(count).items():
            for p, x in self.start_states():
                for w, r in self.rest(n, n, x).items():
                    out[w] = out.get(w, 0) + q * p * r
        return out

    def feature_ends(self, count: int) -> dict:
        out: dict = {}
        for n, q in self.spins_law(count).items():
            for p, x in self.start_states():
                for end, r in self.ends(n, n, x).items():
                    out[end] = out.get(end, 0) + q * p * r
        return out

    # -- the paid round ------------------------------------------------------------------
    def round(self) -> dict:
        """The law of a paid round: the paid spin's window, plus the feature it starts."""
        by_count: dict = {}
        for p, window in self.windows("base"):
            key = (self.trigger_count(window), self.pays(window))
            by_count[key] = by_count.get(key, 0) + p
        out: dict = {}
        features: dict = {}
        for (t, base), p in by_count.items():
            if t not in features:
                features[t] = self.feature(t) if self.spins_law(t) else {Fraction(0): 1}
            for w, q in features[t].items():
                out[base + w] = out.get(base + w, 0) + p * q
        return out


def moments(law: dict) -> tuple[Fraction, Fraction, Fraction]:
    """(mean, second moment, P(0)) of a law."""
    return (sum((w * p for w, p in law.items()), Fraction(0)),
            sum((w * w * p for w, p in law.items()), Fraction(0)),
            law.get(Fraction(0), Fraction(0)))
