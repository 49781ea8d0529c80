"""Exact law of one spin of a grid game by full-cycle enumeration: every stop of every reel,
every height of every reel and every top-reel stop, each tumble sequence played to its end.

With strip refill (or no tumbles) the stops decide the whole sequence, so the spin's law is an
integer-weighted table over the full cycle: the sequence's credits (drop multipliers included,
multiplier symbols not yet), the multiplier symbols in its final window, the trigger count and
the scatter pays. :meth:`SpinLaw.table` then mixes in the multiplier symbols' values (each
symbol's value is drawn independently of everything else, so the law of their combined value
given their number is a convolution of the value table; exact). Random refill is
:mod:`slotmath.exact.grid_random`.

Cost: one sequence per combination, ``cycle x (1 + mean later drops)`` drop evaluations
(:func:`combinations`); numba plays the first reel's outcomes in parallel.

Examples
--------
>>> import slotmath
>>> law = enumerate_spin(slotmath.load_game("tests/data/grid/anywhere_tiny.toml"))
>>> law.cycle, law.mean_bets
(64, Fraction(3, 4))
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np
from numba import njit, prange

from slotmath.evaluate.grid import (
    K_FIRST,
    K_H,
    K_L,
    K_LAST,
    K_MAXDROPS,
    K_T,
    K_TUMBLE,
    O_STRIPS,
    O_TLEN,
    O_TSTRIP,
    Q_END,
    Q_FCRED,
    Q_FHITS,
    Q_HEIGHTS,
    Q_LCRED,
    Q_LHITS,
    Q_POS,
    Q_TOP,
    Q_VALUES,
    GridModel,
    clear_marks,
    collapse,
    drop,
    final_counts,
    rule_value,
    strip_refill,
    tables,
)
from slotmath.exact.spin_table import MarkedTable
from slotmath.model.game import Game

__all__ = ["SpinLaw", "combinations", "enumerate_spin", "multiplier_law", "reel_outcomes"]

#: most combination results held at once (seven int64 arrays of this length)
BATCH_ENTRIES = 1 << 21


@dataclass(frozen=True, eq=False)
class ReelOutcomes:
    """Every (stop, height) of each reel with its weight > 0, and every top-reel stop."""

    stops: np.ndarray  # [n, K]
    heights: np.ndarray  # [n, K]
    weights: np.ndarray  # [n, K]
    count: np.ndarray  # [n]
    top_stops: np.ndarray
    top_weights: np.ndarray
    cycle: int


def reel_outcomes(game: Game, reel_set: str = "base") -> ReelOutcomes:
    """The outcomes of each reel of ``reel_set`` (stops x heights), and of the top reel."""
    grid = game.grid
    rows = []
    for reel, law in zip(game.reel_sets[reel_set].reels, grid.heights):
        rows.append([(s, h, w * law.weights[h]) for s, w in enumerate(reel.stop_weights) if w
                     for h in law.heights])
    K = max(len(r) for r in rows)
    n = len(rows)
    stops = np.zeros((n, K), np.int64)
    heights = np.zeros((n, K), np.int64)
    weights = np.zeros((n, K), np.int64)
    for j, r in enumerate(rows):
        stops[j, :len(r)] = [x[0] for x in r]
        heights[j, :len(r)] = [x[1] for x in r]
        weights[j, :len(r)] = [x[2] for x in r]
    cycle = math.prod(sum(x[2] for x in r) for r in rows)
    if grid.top_reel is not None:
        top = grid.top_reel.strips[reel_set]
        live = [(s, w) for s, w in enumerate(top.stop_weights) if w]
        top_stops = np.array([s for s, _ in live], np.int64)
        top_weights = np.array([w for _, w in live], np.int64)
        cycle *= int(top_weights.sum())
    else:
        top_stops = np.zeros(1, np.int64)
        top_weights = np.ones(1, np.int64)
    return ReelOutcomes(stops, heights, weights, np.array([len(r) for r in rows], np.int64),
                        top_stops, top_weights, cycle)


def combinations(game: Game, reel_set: str = "base") -> int:
    """How many (stops, heights, top stop) combinations a full-cycle enumeration plays."""
    grid = game.grid
    out = 1
    for reel, law in zip(game.reel_sets[reel_set].reels, grid.heights):
        out *= sum(1 for w in reel.stop_weights if w) * len(law.heights)
    if grid.top_reel is not None:
        out *= sum(1 for w in grid.top_reel.strips[reel_set].stop_weights if w)
    return out


@njit(parallel=True, cache=True)
def _enumerate(tab_in, g, o_stop, o_height, o_weight, o_count, t_stop, t_weight, batch, rest,
               out_credits, out_first, out_m, out_trig, out_scat, out_weight, out_drops, hits,
               credits_by, later_hits, later_credits, cut):
    """Every combination of the rest of the reels for each first-reel outcome of ``batch``
    (reel set ``g`` of the tables): the sequence's results into row ``b * rest + i`` of each
    output (``i`` the combination); weighted pay-table hits into row ``b``."""
    n = o_count.shape[0]
    for b in prange(batch.shape[0]):
        tab = tab_in.copy()
        H, L, T = tab[K_H], tab[K_L], tab[K_T]
        W = np.zeros(tab[Q_END], np.int64)
        for x in range(tab[Q_VALUES]):
            W[x] = -1
        for j in range(n):
            W[tab[Q_TOP] + j] = -1
        q_h, q_p, q_t = tab[Q_HEIGHTS], tab[Q_POS], tab[Q_TOP]
        first_reel, last_reel = tab[K_FIRST], tab[K_LAST]
        tumble = tab[K_TUMBLE] != 0
        choice = np.zeros(n, np.int64)
        choice[0] = batch[b]
        for i in range(rest):
            x = i
            for j in range(n - 1, 0, -1):
                choice[j] = x % o_count[j]
                x //= o_count[j]
            tchoice = x
            weight = t_weight[tchoice]
            for j in range(n):
                c = choice[j]
                weight *= o_weight[j, c]
                p = o_stop[j, c]
                h = o_height[j, c]
                W[q_h + j] = h
                W[q_p + j] = p
                base = tab[O_STRIPS] + (g * n + j) * L
                for r in range(h):
                    W[j * H + r] = tab[base + p + r]
            top_next = 0
            if first_reel >= 0:
                tl = tab[tab[O_TLEN] + g]
                tp = t_stop[tchoice]
                for j in range(first_reel, last_reel + 1):
                    W[q_t + j] = tab[tab[O_TSTRIP] + g * T + (tp + j - first_reel) % tl]
                top_next = (tp + last_reel + 1 - first_reel) % tl
            credits = np.int64(0)
            first_credits = np.int64(0)
            won = 0
            index = 0
            while True:
                win = drop(tab, W, weight, won == 0)
                if win == 0:
                    break
                v = win * rule_value(tab, g, index)
                if won == 0:
                    first_credits = v
                credits += v
                won += 1
                index += 1
                if not tumble:
                    clear_marks(tab, W)
                    break
                if won >= tab[K_MAXDROPS]:
                    cut[b] = 1
                    clear_marks(tab, W)
                    break
                top_lost = collapse(tab, W)
                top_next = strip_refill(tab, W, g, top_lost, top_next)
            mcount, _mvalue, trig, scat = final_counts(tab, W)
            row = b * rest + i
            out_credits[row] = credits
            out_first[row] = first_credits
            out_m[row] = mcount
            out_trig[row] = trig
            out_scat[row] = scat
            out_weight[row] = weight
            out_drops[row] = won
        S, C = hits.shape[1], hits.shape[2]
        for a in range(S):
            for c in range(C):
                hits[b, a, c] = W[tab[Q_FHITS] + a * C + c]
                credits_by[b, a, c] = W[tab[Q_FCRED] + a * C + c]
                later_hits[b, a, c] = W[tab[Q_LHITS] + a * C + c]
                later_credits[b, a, c] = W[tab[Q_LCRED] + a * C + c]


def multiplier_law(values: dict[int, int], count: int, multiply: bool) -> dict[int, int]:
    """Integer weights of the combined value of ``count`` multiplier symbols, each drawn from
    ``values`` (value -> weight): their sum (or product), over ``total ** count``.

    >>> multiplier_law({2: 1, 5: 1}, 2, False)
    {4: 1, 7: 2, 10: 1}
    >>> multiplier_law({2: 1, 5: 1}, 2, True)
    {4: 1, 10: 2, 25: 1}
    """
    law = {1 if multiply else 0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for a, wa in law.items():
            for v, wv in values.items():
                if wv:
                    key = a * v if multiply else a + v
                    nxt[key] = nxt.get(key, 0) + wa * wv
        law = nxt
    return dict(sorted(law.items()))


@dataclass(frozen=True, eq=False)
class SpinLaw:
    """The exact law of one spin on one reel set (before multiplier symbols' values).

    Attributes
    ----------
    weights : dict (credits, multiplier symbols, trigger count, scatter credits) -> int
        ``credits``: the tumble sequence's drops, each x its drop multiplier; the trigger
        count is of the free-spin trigger, or else of the game's only scatter
        (:attr:`slotmath.evaluate.grid.GridModel.counted`).
    cycle : int
    credits_per_bet : int
    first, later, scatter : int
        Sums over the cycle of weight x the first drop's credits, the later drops' and the
        scatter pays.
    hits, credits_by, later_hits, later_credits : int arrays [S, C + 1]
        Weighted pay-table hits and credits of the first drop and of the later drops.
    drops : dict
        Weights by the number of drops that won.
    """

    weights: dict
    cycle: int
    credits_per_bet: int
    first: int
    later: int
    scatter: int
    hits: np.ndarray = field(repr=False)
    credits_by: np.ndarray = field(repr=False)
    later_hits: np.ndarray = field(repr=False)
    later_credits: np.ndarray = field(repr=False)
    drops: dict = field(default_factory=dict)
    model: GridModel | None = field(default=None, repr=False)
    multipliers: tuple = ()  # (value table, multiply) of the multiplier symbols, or ()

    @cached_property
    def mean_bets(self) -> Fraction:
        """Expected win of the spin in total bets, multiplier symbols included."""
        return self.table().mean_bets

    def multiplied(self, scatter: bool = True) -> tuple[dict[tuple[int, int], int], int]:
        """(trigger, credits) -> weight with the multiplier symbols' values mixed in (scatter
        pays left out unless ``scatter``), and the mixing denominator (the weights are over
        ``cycle`` x it)."""
        out: dict[tuple[int, int], int] = {}
        if not self.multipliers:
            for (c, _m, t, s), w in self.weights.items():
                s = s if scatter else 0
                out[t, c + s] = out.get((t, c + s), 0) + w
            return out, 1
        values, multiply = self.multipliers
        total = sum(values.values())
        top = max((m for (_c, m, _t, _s) in self.weights), default=0)
        laws = {m: multiplier_law(values, m, multiply) for m in range(top + 1)}
        for (c, m, t, s), w in self.weights.items():
            s = s if scatter else 0
            if c == 0 or m == 0:
                scale = w * total**top
                out[t, c + s] = out.get((t, c + s), 0) + scale
                continue
            scale = w * total ** (top - m)
            for v, q in laws[m].items():
                key = (t, c * v + s)
                out[key] = out.get(key, 0) + scale * q
        return out, total**top

    def table(self, trigger_cap: int | None = None, scatter: bool = True) -> MarkedTable:
        """The spin as a :class:`~slotmath.exact.spin_table.MarkedTable` of (trigger,
        credits), multiplier symbols' values mixed in (the cycle is then multiplied by the
        value table's total to the power of the most multiplier symbols a window shows);
        trigger counts capped at ``trigger_cap``; scatter pays left out unless ``scatter``."""
        weights, scale = self.multiplied(scatter)
        if trigger_cap is not None:
            capped: dict = {}
            for (t, c), w in weights.items():
                key = (min(t, trigger_cap), c)
                capped[key] = capped.get(key, 0) + w
            weights = capped
        return MarkedTable(("trigger",), weights, self.cycle * scale, self.credits_per_bet,
                           trigger_cap or 0)

    def uplift(self) -> Fraction:
        """What the multiplier symbols add to the spin's mean, in total bets."""
        plain = Fraction(sum(w * (c + s) for (c, _m, _t, s), w in self.weights.items()),
                         self.cycle * self.credits_per_bet)
        return self.mean_bets - plain


def _group(arrays: list[np.ndarray], weights: np.ndarray) -> dict:
    """Weights summed by the rows of ``arrays`` (one key per distinct row)."""
    stacked = np.stack(arrays, axis=1)
    keys, inverse = np.unique(stacked, axis=0, return_inverse=True)
    sums = np.zeros(len(keys), np.int64)
    np.add.at(sums, inverse.ravel(), weights)
    return {tuple(int(x) for x in key): int(w) for key, w in zip(keys, sums)}


def enumerate_spin(game: Game, reel_set: str = "base", level: int = 1, free: bool = False,
                   model: GridModel | None = None,
                   progress: Callable[[int, int], None] | None = None) -> SpinLaw:
    """The exact law of one spin of ``game`` on ``reel_set`` (``free``: a free spin's drop
    multiplier rule, its multiplier values), every combination enumerated.

    A sequence ends at its ``max_drops``-th winning drop (a rule of the game).

    Raises
    ------
    ValueError
        With random refill (:mod:`slotmath.exact.grid_random` handles it).
    """
    model = model or GridModel(game, level)
    t = game.tumbles
    if t is not None and t.refill == "random":
        raise ValueError("random refill: the full-cycle enumeration plays strip refill only")
    o = reel_outcomes(game, reel_set)
    tab = tables(model, (reel_set, reel_set))  # set 1 carries the free-spin rules and values
    g = 1 if free else 0
    m = game.multipliers
    rest = int(np.prod(o.count[1:])) * len(o.top_stops)
    per_batch = max(1, min(int(o.count[0]), BATCH_ENTRIES // max(rest, 1)))
    S, C = model.pay.shape
    weights: dict = {}
    sums = [0, 0, 0]
    drops: dict = {}
    hits = np.zeros((S, C), np.int64)
    credits_by = np.zeros((S, C), np.int64)
    later_hits = np.zeros((S, C), np.int64)
    later_credits = np.zeros((S, C), np.int64)
    done = 0
    total = int(o.count[0])
    if progress is not None:
        progress(0, total)
    for start in range(0, total, per_batch):
        batch = np.arange(start, min(total, start + per_batch), dtype=np.int64)
        size = len(batch) * rest
        outs = [np.zeros(size, np.int64) for _ in range(7)]
        bh = np.zeros((len(batch), S, C), np.int64)
        bc, blh, blc = (np.zeros_like(bh) for _ in range(3))
        cut = np.zeros(len(batch), np.int64)
        _enumerate(tab, g, o.stops, o.heights, o.weights, o.count, o.top_stops, o.top_weights,
                   batch, rest, *outs, bh, bc, blh, blc, cut)
        credits, first, mcount, trig, scat, weight, ndrops = outs
        for key, w in _group([credits, mcount, trig, scat], weight).items():
            weights[key] = weights.get(key, 0) + w
        for d, w in _group([ndrops], weight).items():
            drops[d[0]] = drops.get(d[0], 0) + w
        obj = weight.astype(object)
        sums[0] += int(np.dot(obj, first.astype(object)))
        sums[1] += int(np.dot(obj, (credits - first).astype(object)))
        sums[2] += int(np.dot(obj, scat.astype(object)))
        for acc, part in ((hits, bh), (credits_by, bc), (later_hits, blh),
                          (later_credits, blc)):
            acc += part.sum(axis=0)
        done += len(batch)
        if progress is not None:
            progress(done, total)
    mult = ()
    if m is not None:
        mult = (dict(m.table(free)), m.combine == "multiply")
    return SpinLaw(weights, o.cycle, model.credits_per_bet, sums[0], sums[1], sums[2], hits,
                   credits_by, later_hits, later_credits, dict(sorted(drops.items())), model,
                   mult)
