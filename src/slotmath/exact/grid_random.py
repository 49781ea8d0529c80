"""Exact law of one spin of a grid game whose tumbles refill at random: every first window
(every stop, height and top stop), then the chain of windows the refills can make, memoised.

A state is a window and its drop index. From it, the drop is paid (x the index's multiplier);
a drop that wins nothing ends the sequence, and so does the ``max_drops``-th winning drop (a
rule of the game: :class:`slotmath.model.grid.Tumbles`); otherwise the winning cells go, the
survivors fall, and each gap takes every symbol of its reel's refill table with its weight.
The law of what the rest of the sequence pays from a state is kept per state (exact
fractions), so a window reached again costs nothing. This is exact, and practical on small
state spaces only: few cells, few symbols, a low ``max_drops`` (:func:`estimate_steps` is the
up-front bound the analysis checks against its limit; the run stops past ten times it).

Examples
--------
>>> import slotmath
>>> law = random_spin(slotmath.load_game("tests/data/grid/random_tiny.toml"))
>>> law.cycle > 0, float(law.mean_bets) > 0
(True, True)
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

from slotmath.evaluate import grid as ev
from slotmath.evaluate.grid import GridModel
from slotmath.exact.grid_enumerate import SpinLaw, reel_outcomes
from slotmath.model.game import Game

__all__ = ["estimate_steps", "random_spin"]


def _refill_symbols(game: Game, reel_set: str, model: GridModel) -> list[list[tuple[int, int]]]:
    """Each reel's (and the top reel's) refill table as (code, weight) with weight > 0."""
    return [[(model.code[s], w) for s, w in table.items() if w]
            for table in game.tumbles.refill_weights[reel_set]]


def estimate_steps(game: Game, reel_set: str = "base") -> int:
    """An up-front bound on the states times refills the chain visits: the windows the refill
    tables can make (each cell any symbol of its reel's table or strip) times the drop index
    (``max_drops``), times the refills of three gaps, plus the first windows."""
    from slotmath.exact.grid_enumerate import combinations

    grid = game.grid
    model = GridModel(game)
    tables = _refill_symbols(game, reel_set, model)
    windows = 1
    for j, law in enumerate(grid.heights):
        symbols = {model.code[x] for x in game.reel_sets[reel_set].reels[j].symbols}
        symbols |= {c for c, _ in tables[j]}
        windows *= sum(len(symbols) ** h for h in law.heights)
    branch = max(len(t) for t in tables) ** 3
    return combinations(game, reel_set) + windows * game.tumbles.max_drops * branch


class _Chain:
    """The memoised chain of one reel set (see the module notes), on the flat tables and work
    area of :mod:`slotmath.evaluate.grid`."""

    def __init__(self, game: Game, reel_set: str, model: GridModel, free: bool, budget: int):
        self.game, self.model = game, model
        grid, t = game.grid, game.tumbles
        self.n = grid.n_reels
        self.H = max(grid.max_rows)
        self.tables = _refill_symbols(game, reel_set, model)
        self.rule = t.rule(free)
        self.max_drops = t.max_drops
        top = grid.top_reel
        self.first = top.first - 1 if top else -1
        self.last = top.last - 1 if top else -2
        self.tab = ev.tables(model, (reel_set, reel_set))
        self.W = ev.work(self.tab)
        S, C = model.pay.shape
        self.shape = (S, C)
        self.memo: dict = {}
        self.visited = 0
        self.budget = budget

    def _load(self, cells, heights, top):
        tab, W, n, H = self.tab, self.W, self.n, self.H
        W[:n * H] = cells.ravel()
        W[tab[ev.Q_HEIGHTS]:tab[ev.Q_HEIGHTS] + n] = heights
        W[tab[ev.Q_TOP]:tab[ev.Q_TOP] + n] = top

    def _region(self, slot) -> np.ndarray:
        S, C = self.shape
        at = int(self.tab[slot])
        return self.W[at:at + S * C].reshape(S, C)

    def state(self, cells: np.ndarray, heights: np.ndarray, top: np.ndarray, index: int):
        """(law of (credits, m, trigger, scatter credits) -> Fraction, expected pay-table
        (hits, credits) by (first?, symbol, count)) of the sequence from this window."""
        key = (cells.tobytes(), heights.tobytes(), top.tobytes(), index)
        if key in self.memo:
            return self.memo[key]
        self.visited += 1
        if self.visited > self.budget:
            raise ValueError(f"the random-refill chain visited more than {self.budget:,} "
                             "states (ten times its estimate): stopped; use the simulated PAR")
        tab, W, n, H = self.tab, self.W, self.n, self.H
        first = index == 0
        self._load(cells, heights, top)
        hits_slot, credits_slot = ((ev.Q_FHITS, ev.Q_FCRED) if first
                                   else (ev.Q_LHITS, ev.Q_LCRED))
        self._region(hits_slot)[:] = 0
        self._region(credits_slot)[:] = 0
        win = int(ev.drop(tab, W, 1, first))
        hits, credits_by = self._region(hits_slot), self._region(credits_slot)
        pays: dict = {}
        for s, c in zip(*np.nonzero(hits)):
            pays[first, int(s), int(c)] = (Fraction(int(hits[s, c])),
                                           Fraction(int(credits_by[s, c])))
        if win == 0 or index + 1 >= self.max_drops:
            # no win ends the sequence, and so does its max_drops-th winning drop
            ev.clear_marks(tab, W)
            credits = win * self.rule.value(index)
            m, _v, trig, scat = ev.final_counts(tab, W)
            out = ({(credits, int(m), int(trig), int(scat)): Fraction(1)}, pays)
            self.memo[key] = out
            return out
        credits = win * self.rule.value(index)
        lost = int(ev.collapse(tab, W))
        gaps = W[tab[ev.Q_GAPS]:tab[ev.Q_GAPS] + n].copy()
        base_cells = W[:n * H].reshape(n, H).copy()
        base_top = W[tab[ev.Q_TOP]:tab[ev.Q_TOP] + n].copy()
        slots = [(j, r) for j in range(n) for r in range(int(gaps[j]))]
        slots += [(n, i) for i in range(self.last + 1 - lost, self.last + 1)]
        choices = [self.tables[j] for j, _ in slots]
        denominator = math.prod(sum(w for _, w in t) for t in choices)
        law: dict = {}
        for pick in itertools.product(*choices):
            weight = 1
            new_cells = base_cells.copy()
            new_top = base_top.copy()
            for (j, r), (code, w) in zip(slots, pick):
                weight *= w
                if j == n:
                    new_top[r] = code
                else:
                    new_cells[j, r] = code
            p = Fraction(weight, denominator)
            sub, subpays = self.state(new_cells, heights, new_top, index + 1)
            for (c, *rest), q in sub.items():
                k = (c + credits, *rest)
                law[k] = law.get(k, 0) + p * q
            for k, (h, cr) in subpays.items():
                a, b = pays.get(k, (Fraction(0), Fraction(0)))
                pays[k] = (a + p * h, b + p * cr)
        out = (law, pays)
        self.memo[key] = out
        return out


def random_spin(game: Game, reel_set: str = "base", level: int = 1, free: bool = False,
                model: GridModel | None = None, budget: int | None = None) -> SpinLaw:
    """The exact law of one spin on ``reel_set`` with random refill (a :class:`SpinLaw` whose
    weights are over ``cycle`` x the refills' common denominator)."""
    model = model or GridModel(game, level)
    grid = game.grid
    if game.tumbles is None or game.tumbles.refill != "random":
        raise ValueError("random_spin follows random refill")
    budget = budget if budget is not None else 10 * estimate_steps(game, reel_set)
    chain = _Chain(game, reel_set, model, free, budget)
    o = reel_outcomes(game, reel_set)
    n, H = grid.n_reels, max(grid.max_rows)
    strips = [[model.code[x] for x in r.symbols] for r in game.reel_sets[reel_set].reels]
    top = grid.top_reel
    tstrip = [model.code[x] for x in top.strips[reel_set].symbols] if top else []
    law: dict = {}
    pays: dict = {}
    ranges = [range(int(o.count[j])) for j in range(n)] + [range(len(o.top_stops))]
    for combo in itertools.product(*ranges):
        cells = np.full((n, H), -1, np.int64)
        heights = np.zeros(n, np.int64)
        topcells = np.full(n, -1, np.int64)
        weight = int(o.top_weights[combo[-1]])
        for j in range(n):
            c = combo[j]
            weight *= int(o.weights[j, c])
            p, h = int(o.stops[j, c]), int(o.heights[j, c])
            heights[j] = h
            for r in range(h):
                cells[j, r] = strips[j][(p + r) % len(strips[j])]
        if top is not None:
            tp = int(o.top_stops[combo[-1]])
            for j in range(top.first - 1, top.last):
                topcells[j] = tstrip[(tp + j - top.first + 1) % len(tstrip)]
        sub, subpays = chain.state(cells, heights, topcells, 0)
        for k, q in sub.items():
            law[k] = law.get(k, 0) + weight * q
        for k, (h, cr) in subpays.items():
            a, b = pays.get(k, (0, 0))
            pays[k] = (a + weight * h, b + weight * cr)
    scale = 1
    for q in (*law.values(), *(x for v in pays.values() for x in v)):
        scale = math.lcm(scale, Fraction(q).denominator)
    weights = {k: int(q * scale) for k, q in law.items() if q}
    S, C = model.pay.shape
    arrays = [np.zeros((S, C), object) for _ in range(4)]
    for (first, s, c), (h, cr) in pays.items():
        base = 0 if first else 2
        arrays[base][s, c] += int(h * scale)
        arrays[base + 1][s, c] += int(cr * scale)
    first_sum = sum(int(a) for a in arrays[1].ravel()) * chain.rule.value(0)
    total = sum(w * c for (c, *_r), w in weights.items())
    scat = sum(w * s for (_c, _m, _t, s), w in weights.items())
    m = game.multipliers
    mult = (dict(m.table(free)), m.combine == "multiply") if m is not None else ()
    return SpinLaw(weights, o.cycle * scale, model.credits_per_bet, first_sum,
                   total - first_sum, scat, *arrays, {}, model, mult)
