"""Exact paid spin of a ways grid game (Megaways) without tumbles: a reel-by-reel dynamic
programme over each reel's (stop, height) outcomes, never over their product.

A spin's ways win is a sum over entries (each paying symbol with the wilds, and each wild
with pays alone) of ``pay[e, k] x c_1(e) ... c_k(e)``, ``k`` the run of reels from reel 1
whose count ``c_j(e)`` (the cells showing a member, each counting its symbol's multiplier)
is > 0, ``c_{k+1}(e) = 0``. The reels are independent given the top reel's stop, so

* the RTP and each pay-table entry's hits and ways are sums over top-reel stops of products of
  per-reel sums: ``sum_o w_o c_oj(e)``, ``sum_o w_o [c_oj(e) = 0]``, ``sum_o w_o`` (the
  top reel adds its cell above a covered reel to that reel's count);
* the second moment is the same over pairs of entries and run lengths, from per-reel sums of
  ``w_o g(c_oj(e)) h(c_oj(f))`` with ``g, h`` each one of ``c``, ``[c = 0]``, ``1``; with
  scatters, ``E[W_e X]`` carries the scatter counts through a convolution over the reels;
* the hit frequency is ``1 - P(W = 0)``: a programme over the reels whose state is the set of
  entries still running and the scatter counts, dropping every path on which an entry's run
  ends on a paying count;
* the ways in play, ``prod_j (h_j + [top cell])``, has its law by a product over reels of the
  height laws (with it ``P(max ways)``).

Cost: ``sum_j (stops_j x heights_j)`` outcomes per entry (pairs of entries for the second
moment, the running sets for the hit frequency), times the top reel's distinct patterns: a
6-reel game of 100+ stops and heights 2..7 takes seconds where the full cycle has 10^16
combinations. Cross-checked against the full-cycle enumeration
(:mod:`slotmath.exact.grid_enumerate`) and the brute-force reference of the tests.

Examples
--------
>>> import slotmath
>>> game = slotmath.load_game("tests/data/grid/megaways_tiny.toml")
>>> law = ways_law(game)
>>> law.mean_bets == __import__("slotmath.exact.grid_enumerate", fromlist=["x"]).enumerate_spin(
...     game).mean_bets
True
>>> law.max_ways, law.max_ways_probability
(36, Fraction(8, 27))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np

from slotmath.evaluate.grid import PAYS, WILD, GridModel
from slotmath.model.game import Game

__all__ = ["SpinMean", "WaysLaw", "steps", "ways_law"]


@dataclass(frozen=True, eq=False)
class _Reel:
    """One reel's outcomes: weights, each entry's count, each scatter's count."""

    weight: np.ndarray  # [O]
    counts: np.ndarray  # [O, E]
    scatters: np.ndarray  # [O, Q]

    @cached_property
    def total(self) -> int:
        return int(self.weight.sum())


def _entries(model: GridModel) -> list[tuple[int, bool]]:
    """(symbol code, wild only) of each paying entry."""
    out = []
    for s, role in enumerate(model.role):
        if role == PAYS or (role == WILD and model.pay[s].any()):
            out.append((s, role == WILD))
    return out


def _members(model: GridModel, entries) -> np.ndarray:
    """[E, S]: ways a cell showing symbol ``x`` counts for entry ``e``."""
    S = len(model.names)
    out = np.zeros((len(entries), S), np.int64)
    for e, (s, wild_only) in enumerate(entries):
        for x in range(S):
            if x == s or (not wild_only and model.role[x] == WILD):
                out[e, x] = model.ways_multiplier[x]
    return out


def _reel(strip: list[int], weights, law, members, scatter_codes) -> _Reel:
    H = law.max
    ext = np.array([strip[i % len(strip)] for i in range(len(strip) + H)], np.int64)
    pre = np.zeros((len(ext) + 1, members.shape[0]), np.int64)
    pre[1:] = np.cumsum(members[:, ext].T, axis=0)
    sc = np.zeros((len(ext) + 1, len(scatter_codes)), np.int64)
    if len(scatter_codes):
        sc[1:] = np.cumsum(np.stack([ext == q for q in scatter_codes], axis=1), axis=0)
    stops = np.array([s for s, w in enumerate(weights) if w], np.int64)
    sw = np.array([weights[s] for s in stops], np.int64)
    w, counts, scats = [], [], []
    for h in law.heights:
        w.append(sw * law.weights[h])
        counts.append(pre[stops + h] - pre[stops])
        scats.append(sc[stops + h] - sc[stops])
    return _Reel(np.concatenate(w), np.concatenate(counts), np.concatenate(scats))


def steps(game: Game, reel_set: str = "base") -> int:
    """The elementary steps :func:`ways_law` is estimated to take: each reel's outcomes
    times the entries, pairs of entries, and the running-set programme's states."""
    model = GridModel(game)
    E = len(_entries(model))
    outcomes = sum(sum(1 for w in reel.stop_weights if w) * len(law.heights)
                   for reel, law in zip(game.reel_sets[reel_set].reels, game.grid.heights))
    top = game.grid.top_reel
    patterns = min(len(top.strips[reel_set]), 64) if top is not None else 1
    return outcomes * (E * E * 9 + 64) * patterns


@dataclass(frozen=True, eq=False)
class PayRowLaw:
    """One pay-table entry: ``hits`` (weight of spins whose run of the entry is ``count``),
    ``ways`` (their ways summed) and the credits per way."""

    symbol: str
    count: int
    credits: int
    hits: int
    ways: int


@dataclass(frozen=True, eq=False)
class WaysLaw:
    """The exact figures of one paid spin of a ways grid game (no tumbles): see the module
    notes. Weights are over ``cycle`` (every stop, height and top stop)."""

    cycle: int
    credits_per_bet: int
    ways_credits: int  # sum over the cycle of weight x ways credits
    scatter_credits: int
    second: int  # sum over the cycle of weight x credits^2
    zero_weight: int  # weight of spins paying nothing
    pays: tuple[PayRowLaw, ...]
    scatter_law: dict = field(repr=False)  # scatter count tuple -> weight
    scatter_names: tuple[str, ...] = ()
    ways_in_play: dict = field(default_factory=dict)  # ways -> Fraction
    max_ways: int = 0

    @property
    def mean_bets(self) -> Fraction:
        return Fraction(self.ways_credits + self.scatter_credits,
                        self.cycle * self.credits_per_bet)

    @property
    def ways_rtp(self) -> Fraction:
        return Fraction(self.ways_credits, self.cycle * self.credits_per_bet)

    @property
    def scatter_rtp(self) -> Fraction:
        return Fraction(self.scatter_credits, self.cycle * self.credits_per_bet)

    @property
    def second_moment(self) -> Fraction:
        return Fraction(self.second, self.cycle * self.credits_per_bet**2)

    @property
    def variance(self) -> Fraction:
        return self.second_moment - self.mean_bets**2

    @property
    def hit_frequency(self) -> Fraction:
        return 1 - Fraction(self.zero_weight, self.cycle)

    @property
    def max_ways_probability(self) -> Fraction:
        return self.ways_in_play.get(self.max_ways, Fraction(0))

    def count_law(self, symbol: str) -> dict[int, Fraction]:
        """The law of how many ``symbol`` (a scatter) the window shows."""
        i = self.scatter_names.index(symbol)
        out: dict[int, Fraction] = {}
        for key, w in self.scatter_law.items():
            out[key[i]] = out.get(key[i], 0) + Fraction(w, self.cycle)
        return dict(sorted(out.items()))


def _convolve(a: dict, b: dict) -> dict:
    out: dict = {}
    for ka, wa in a.items():
        if not wa:
            continue
        for kb, wb in b.items():
            if wb:
                k = tuple(x + y for x, y in zip(ka, kb))
                out[k] = out.get(k, 0) + wa * wb
    return out


def _vector(weight: np.ndarray, scat: np.ndarray, factor: np.ndarray) -> dict:
    """sum of weight x factor by scatter-count tuple."""
    out: dict = {}
    values = weight.astype(object) * factor.astype(object)
    for key, v in zip(map(tuple, scat.tolist()), values):
        if v:
            out[key] = out.get(key, 0) + v
    return out


@dataclass(frozen=True, eq=False)
class _Spin:
    """What every programme of one spin reads: the model, the paying entries and their
    members, the followed scatters, each reel's outcomes and the top reel's patterns
    (``tops``: (count added per reel and entry, scatters added per reel, weight))."""

    model: GridModel
    entries: list
    members: np.ndarray
    scatter_codes: list
    reels: list
    tops: list
    cycle: int
    top_total: int  # the top reel's total weight (1 without one)

    def reel(self, reel, j: int) -> _Reel:
        """Reel ``j``'s outcomes with ``reel`` (a :class:`~slotmath.model.game.Reel`) on it."""
        return _reel([self.model.code[x] for x in reel.symbols], reel.stop_weights,
                     self.model.game.grid.heights[j], self.members, self.scatter_codes)


def _spin(game: Game, reel_set: str, level: int, model: GridModel | None) -> _Spin:
    model = model or GridModel(game, level)
    if model.kind != "ways":
        raise ValueError(f"{game.name} does not pay ways")
    grid = game.grid
    entries = _entries(model)
    members = _members(model, entries)
    S = len(model.names)
    # every scatter's count is followed (its count law is asked for even when it neither pays
    # nor triggers), and any other symbol that pays as a scatter
    scatter_codes = [q for q in range(S) if model.scatter_pay[q].any()
                     or game.symbols[model.names[q]].scatter]
    if game.free_spins is not None and model.code[game.free_spins.trigger] not in scatter_codes:
        scatter_codes.append(model.code[game.free_spins.trigger])
    n = grid.n_reels
    reels = [_reel([model.code[x] for x in r.symbols], r.stop_weights, law, members,
                   scatter_codes)
             for r, law in zip(game.reel_sets[reel_set].reels, grid.heights)]
    E, Q = len(entries), len(scatter_codes)
    top = grid.top_reel
    # the top reel's stops, grouped by what they add to each covered reel
    if top is not None:
        strip = top.strips[reel_set]
        codes = [model.code[x] for x in strip.symbols]
        patterns: dict = {}
        for tstop, tw in enumerate(strip.stop_weights):
            if not tw:
                continue
            add = np.zeros((n, E), np.int64)
            sadd = np.zeros((n, Q), np.int64)
            for j in range(top.first - 1, top.last):
                x = codes[(tstop + j - top.first + 1) % len(codes)]
                add[j] = members[:, x]
                sadd[j] = [x == q for q in scatter_codes]
            key = (add.tobytes(), sadd.tobytes())
            if key not in patterns:
                patterns[key] = [add, sadd, 0]
            patterns[key][2] += tw
        tops = [tuple(v) for v in patterns.values()]
        top_total = sum(w for w in strip.stop_weights)
    else:
        tops = [(np.zeros((n, E), np.int64), np.zeros((n, Q), np.int64), 1)]
        top_total = 1
    cycle = math.prod(r.total for r in reels) * top_total
    return _Spin(model, entries, members, scatter_codes, reels, tops, cycle, top_total)


def _first_moments(sums, tops, E: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each entry's ways and hits by run length ``[E, n + 1]``, from each reel's sums
    ``(sum_o w_o c_o(e), sum_o w_o [c_o(e) = 0], sum_o w_o)`` (see the module notes): a
    top cell adds its count to every outcome of the reel it covers."""
    ways = np.zeros((E, n + 1), object)
    hits = np.zeros((E, n + 1), object)
    totals = [int(t) for _, _, t in sums]
    for add, _sadd, tw in tops:
        for e in range(E):
            A = [int(a[e]) + int(add[j, e]) * totals[j] for j, (a, _, _) in enumerate(sums)]
            Z = [0 if add[j, e] else int(z[e]) for j, (_, z, _) in enumerate(sums)]
            P = [totals[j] - Z[j] for j in range(n)]
            for k in range(1, n + 1):
                rest = Z[k] * math.prod(totals[k + 1:]) if k < n else 1
                ways[e, k] += tw * math.prod(A[:k]) * rest
                hits[e, k] += tw * math.prod(P[:k]) * rest
    return ways, hits


def _sums(r: _Reel) -> tuple[np.ndarray, np.ndarray, int]:
    return r.weight @ r.counts, r.weight @ (r.counts == 0), r.total


def _scatter_law(reels, tops, Q: int) -> dict:
    """The scatters' joint count law (count tuple -> weight over the cycle)."""
    out: dict = {}
    for _add, sadd, tw in tops:
        law = {(0,) * Q: tw}
        for j, r in enumerate(reels):
            law = _convolve(law, _vector(r.weight, r.scatters + sadd[j],
                                         np.ones(len(r.weight), np.int64)))
        for key, w in law.items():
            out[key] = out.get(key, 0) + w
    return out


def _scatter_credits(model: GridModel, scatter_codes, scatter_law: dict) -> int:
    return sum(w * _scatter_pays(model, scatter_codes, key) for key, w in scatter_law.items())


def _scatter_pays(model: GridModel, scatter_codes, key) -> int:
    return sum(int(model.scatter_pay[q, min(c, model.scatter_pay.shape[1] - 1)])
               for q, c in zip(scatter_codes, key))


class SpinMean:
    """The exact mean win (in bets) of one spin of a ways grid game without tumbles, re-read
    cheaply when strips change: each reel's sums are kept per strip, so a candidate strip
    costs its own reel's outcomes and the first-moment products (:func:`ways_law`'s
    ``mean_bets`` without its second moment and hit frequency, which take the time).

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.model.game import Reel
    >>> game = slotmath.load_game("tests/data/grid/megaways_tiny.toml")
    >>> m = SpinMean(game)
    >>> m(game.base.reels) == ways_law(game).mean_bets
    True
    >>> longer = (game.base.reels[0], Reel(("A", "W", "B", "X", "A")), game.base.reels[2])
    >>> m(longer) == ways_law(game.replace_reels("base", longer)).mean_bets
    True
    """

    def __init__(self, game: Game, reel_set: str = "base", level: int = 1):
        self.spin = _spin(game, reel_set, level, None)
        self._start = tuple(game.reel_sets[reel_set].reels)
        self._sums: dict = {}  # (reel index, strip) -> its sums and scatter signature
        self._scatter_reels: dict = {}  # (reel index, signature) -> outcomes
        self._scatters: dict = {}  # signatures -> scatter credits

    def _reel_sums(self, j: int, reel) -> tuple:
        key = (j, reel)
        if key not in self._sums:
            r = self.spin.reels[j] if reel == self._start[j] else self.spin.reel(reel, j)
            signature = hash((r.weight.tobytes(), r.scatters.tobytes()))
            self._scatter_reels.setdefault((j, signature), r)
            self._sums[key] = (_sums(r), signature)
        return self._sums[key]

    def __call__(self, reels) -> Fraction:
        s = self.spin
        n = len(reels)
        read = [self._reel_sums(j, r) for j, r in enumerate(reels)]
        ways, _ = _first_moments([sums for sums, _ in read], s.tops, len(s.entries), n)
        pay = s.model.pay
        credits = sum(int(pay[sym, k]) * int(ways[e, k]) for e, (sym, _) in
                      enumerate(s.entries) for k in range(1, n + 1))
        key = tuple(signature for _, signature in read)
        if key not in self._scatters:
            outcomes = [self._scatter_reels[(j, sig)] for j, sig in enumerate(key)]
            self._scatters[key] = _scatter_credits(
                s.model, s.scatter_codes, _scatter_law(outcomes, s.tops, len(s.scatter_codes)))
        cycle = math.prod(int(sums[2]) for sums, _ in read) * s.top_total
        return Fraction(credits + self._scatters[key], cycle * s.model.credits_per_bet)


def ways_law(game: Game, reel_set: str = "base", level: int = 1,
             model: GridModel | None = None) -> WaysLaw:
    """The exact figures of one spin on ``reel_set`` (see the module notes)."""
    spin = _spin(game, reel_set, level, model)
    model, entries = spin.model, spin.entries
    scatter_codes, reels, tops, cycle = spin.scatter_codes, spin.reels, spin.tops, spin.cycle
    grid = game.grid
    n = grid.n_reels
    E, Q = len(entries), len(scatter_codes)
    top = grid.top_reel
    # -- first moments and the pay table ------------------------------------------------
    pay = model.pay
    ways, hits = _first_moments([_sums(r) for r in reels], tops, E, n)
    rows = []
    ways_credits = 0
    for e, (s, _) in enumerate(entries):
        for k in range(1, n + 1):
            if pay[s, k] and hits[e, k]:
                rows.append(PayRowLaw(model.names[s], k, int(pay[s, k]), int(hits[e, k]),
                                      int(ways[e, k])))
            ways_credits += int(pay[s, k]) * int(ways[e, k])
    # -- the scatters' joint count law -------------------------------------------------
    scatter_law = _scatter_law(reels, tops, Q)

    def scatter_pays(key) -> int:
        return _scatter_pays(model, scatter_codes, key)

    scatter_credits = sum(w * scatter_pays(key) for key, w in scatter_law.items())
    # -- the second moment ---------------------------------------------------------------
    second = sum(w * scatter_pays(key) ** 2 for key, w in scatter_law.items())
    kinds = ("c", "z", "1")

    def factor(counts, kind):
        if kind == "c":
            return counts
        if kind == "z":
            return (counts == 0).astype(np.int64)
        return np.ones_like(counts)

    def kind_of(j, k):  # reel j (0-based) for a run of k reels
        return "c" if j < k else ("z" if j == k else "1")

    for add, sadd, tw in tops:
        # per reel, per pair of entries, per pair of kinds: sum of w g(c_e) h(c_f)
        joint = []
        for j, r in enumerate(reels):
            c = r.counts + add[j]
            joint.append({(gk, hk): np.einsum("o,oe,of->ef", r.weight, factor(c, gk),
                                              factor(c, hk))
                          for gk in kinds for hk in kinds})
        for e in range(E):
            se = entries[e][0]
            for f in range(E):
                sf = entries[f][0]
                for k in range(1, n + 1):
                    if not pay[se, k]:
                        continue
                    for m in range(1, n + 1):
                        if not pay[sf, m]:
                            continue
                        prod = 1
                        for j in range(n):
                            v = joint[j][kind_of(j, k), kind_of(j, m)][e, f]
                            prod *= int(v)
                            if not prod:
                                break
                        second += tw * int(pay[se, k]) * int(pay[sf, m]) * prod
        if Q:  # 2 E[W_e X]
            for e in range(E):
                se = entries[e][0]
                for k in range(1, n + 1):
                    if not pay[se, k]:
                        continue
                    law = {(0,) * Q: tw}
                    for j, r in enumerate(reels):
                        c = r.counts[:, e] + add[j, e]
                        law = _convolve(law, _vector(r.weight, r.scatters + sadd[j],
                                                     factor(c, kind_of(j, k))))
                    second += 2 * int(pay[se, k]) * sum(w * scatter_pays(key)
                                                        for key, w in law.items())
    # -- P(W = 0): the entries still running and the scatter counts ----------------------
    zero = _zero_weight(reels, tops, entries, pay, scatter_codes, model, n)
    # -- ways in play --------------------------------------------------------------------
    law = {1: Fraction(1)}
    for j, h in enumerate(grid.heights):
        extra = 1 if top is not None and top.covers(j) else 0
        nxt: dict = {}
        for a, p in law.items():
            for height in h.heights:
                key = a * (height + extra)
                nxt[key] = nxt.get(key, 0) + p * h.probability(height)
        law = nxt
    return WaysLaw(cycle, model.credits_per_bet, ways_credits, scatter_credits, second, zero,
                   tuple(rows), scatter_law, tuple(model.names[q] for q in scatter_codes),
                   dict(sorted(law.items())), grid.max_ways)


def _zero_weight(reels, tops, entries, pay, scatter_codes, model, n) -> int:
    """Weight of the spins that pay nothing (see the module notes)."""
    E = len(entries)
    if E > 62:
        raise ValueError("more than 62 paying entries: the running-set programme holds them "
                         "as bits")
    caps = [int(np.nonzero(model.scatter_pay[q])[0].max()) if model.scatter_pay[q].any() else 0
            for q in scatter_codes]
    full = (1 << E) - 1
    zero_caps = (0,) * len(caps)
    paying_end = sum(1 << e for e, (s, _) in enumerate(entries) if pay[s, n])

    def step(states: dict, j: int, add, sadd) -> dict:
        r = reels[j]
        c = r.counts + add
        present = (c > 0).astype(np.int64) @ (1 << np.arange(E, dtype=np.int64))
        sc = np.minimum(r.scatters + sadd, np.array(caps, np.int64)) if caps else \
            np.zeros((len(r.weight), 0), np.int64)
        grouped: dict = {}
        for key, w in zip(zip(present.tolist(), map(tuple, sc.tolist())), r.weight.tolist()):
            grouped[key] = grouped.get(key, 0) + w
        # an entry running over reels 1..j that stops here pays pay[e, j] (run j)
        paying_stop = sum(1 << e for e, (s, _) in enumerate(entries) if j and pay[s, j])
        nxt: dict = {}
        for (mask, counts), w in states.items():
            for (pres, add_counts), q in grouped.items():
                if (mask & ~pres) & paying_stop:
                    continue
                key = (mask & pres, tuple(min(a + b, cap) for a, b, cap in
                                          zip(counts, add_counts, caps)))
                nxt[key] = nxt.get(key, 0) + w * q
        return nxt

    def walk(states: dict, j: int, group: list) -> int:
        """The zero weight of the top-reel patterns in ``group`` (they agree on reels before
        ``j``): each reel's step is taken once per distinct top cell it sees there."""
        if j == n:
            tw = sum(t[2] for t in group)
            out = 0
            for (mask, counts), w in states.items():
                if mask & paying_end:
                    continue
                if any(model.scatter_pay[q, c] for q, c in zip(scatter_codes, counts)):
                    continue
                out += w
            return out * tw
        parts: dict = {}
        for t in group:
            parts.setdefault((t[0][j].tobytes(), t[1][j].tobytes()), []).append(t)
        return sum(walk(step(states, j, part[0][0][j], part[0][1][j]), j + 1, part)
                   for part in parts.values())

    total = walk({(full, zero_caps): 1}, 0, list(tops))
    return total
