"""Hold & win respins as an absorbing Markov chain: model, method, error bound.

Model (the rules of :mod:`slotmath.model.hold_and_win`)
--------------------------------------------------------
A spin-start state is ``(held, respins left, gem progress of each booster)``; the gem
progress of a booster (gems of its kind collected, up to ``collect x times``) gives its
counter and how often it has fired, so it carries the rows open, the value steps made, the
respins boost and the multiplier level. One respin is two moves of the chain:

1. *gems* (phase 0 -> 1): each booster not yet used up lands one gem with its probability,
   independently; a booster whose counter reaches ``collect`` fires at once (a row opens,
   every held value steps up, the respins left and the reset count grow by ``extra``, the
   multiplier steps up).
2. *cash* (phase 1 -> 0): each of the ``E`` empty open positions lands a cash symbol with
   probability ``p``: ``n ~ Binomial(E, p)``; ``n > 0`` resets the respins to the (boosted)
   count, ``n = 0`` spends one.

A spin-start state with no respins left or every open position held is terminal. Every move
goes to a later state in the index order (held, then each gem progress, then respins left
*descending*, then phase), so the chain is acyclic and solved by one backward pass
(:func:`slotmath.markov.sparse.backward_induction`, or :func:`_exact_backward` in fractions).

Values, by linearity
--------------------
Values are drawn per cash symbol, independent of position and of the chain's moves, so no
state carries the sum of values. A cash symbol that has received ``c`` value steps and is
still held at the end with ``s >= c`` steps in all pays ``M V_s`` where ``V_s(I) =
ladder[max(I, min(I + s, top))]`` and ``I`` is its drawn rung. With ``mu_s = E[V_s]``:

* ``A_c(x) = E[M_end mu_{c + steps still to come} | x]`` solves ``A_c = Q0 A_c + Q1 A_{c+1}``
  (``Q1``: the gem moves that step the values), with ``A_c = M mu_c`` at a terminal state;
* ``C(x) = E[value of the cash still to land | x]`` solves ``C = Q C + (P o n) A_0`` (the
  cash landing on a move from ``x`` arrives at the next state with 0 steps received);
* the round started with ``k`` held pays on average ``k A_0(s_k) + C(s_k)`` (+ the full-grid
  prize, ``M x prize`` on full terminal states).

Distribution
------------
The win given the path is ``M x`` (sum over held symbols of independent ``V_s`` draws), and
the path enters only through ``(M, full, held at the end, held at each value step)``: a
forward pass over the states *with that record* gives the law of the record, and the win's
law is the mixture over records of the convolution powers of the ``V_s`` laws (exact
dictionaries in :meth:`HoldAndWinChain.exact_distribution`, an FFT for floats).

Error bound (float64)
---------------------
Transitions of probability below ``drop`` are left out of the float chain (binomial tails of
many cash at once); the chain computes the probability that a round takes one,
``dropped_probability``, and the expected win's error is at most that times the top award
plus the rounding of one backward pass (relative ``~ n_steps x 1e-16``, every term
non-negative). With ``drop=0`` (exact mode) nothing is dropped.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros

from slotmath.markov.sparse import backward_induction
from slotmath.model.hold_and_win import BOOSTER_KINDS, HoldAndWin

__all__ = ["HoldAndWinChain", "RoundFigures"]


@dataclass(frozen=True)
class RoundFigures:
    """What one round started with ``held`` cash symbols gives (floats, or Fractions when
    exact). ``booster_levels[kind][j]`` is P(the booster fires at least ``j + 1`` times)."""

    held: int
    mean: object
    expected_respins: object
    fill_probability: object
    booster_levels: dict


def _binomial_table(cap: int, p, one):
    """``table[E, n] = C(E, n) p^n (1 - p)^(E - n)`` for 0 <= n <= E <= cap."""
    table = [[one * 0] * (cap + 1) for _ in range(cap + 1)]
    for e in range(cap + 1):
        for n in range(e + 1):
            table[e][n] = math.comb(e, n) * p**n * (one - p) ** (e - n)
    return table


class HoldAndWinChain:
    """The respin chain of ``spec``: exact fractions (``exact=True``, small grids) or float64.

    Examples
    --------
    Two positions, one held, one respin, cash probability 1/2, every value 1 bet: the round
    ends with 2 held with probability 1/2.

    >>> from slotmath.model.hold_and_win import HoldAndWin
    >>> spec = HoldAndWin("C", 1, 1, Fraction(1, 2), (Fraction(1),), (1,), rows=1,
    ...                   max_rows=1, reels=2)
    >>> chain = HoldAndWinChain(spec, exact=True)
    >>> chain.figures(1).mean, chain.figures(1).fill_probability
    (Fraction(3, 2), Fraction(1, 2))
    """

    def __init__(self, spec: HoldAndWin, exact: bool = False, drop: float = 1e-18):
        self.spec = spec
        self.exact = exact
        self.drop = 0.0 if exact else float(drop)
        self.one = Fraction(1) if exact else 1.0
        self._b = [spec.booster(k) for k in BOOSTER_KINDS]
        self._collect = [b.collect if b else 1 for b in self._b]
        self._full = [b.collect * b.times if b else 0 for b in self._b]
        rb = self._b[2]
        self.max_respins = spec.respins + (rb.extra * rb.times if rb else 0)
        self.max_capacity = spec.capacity(spec.max_rows - spec.rows)

    # -- states ---------------------------------------------------------------------------
    def _prob(self, q):
        return Fraction(q) if self.exact else float(q)

    def level(self, kind: str, progress):
        """How many times booster ``kind`` has fired at gem progress ``progress``."""
        k = BOOSTER_KINDS.index(kind)
        return progress // self._collect[k]

    def reset_count(self, red_progress):
        rb = self._b[2]
        return self.spec.respins + (0 if rb is None else rb.extra * (red_progress
                                                                      // rb.collect))

    def capacity(self, blue_progress):
        return self.spec.reels * (self.spec.rows + blue_progress // self._collect[0])

    def multiplier(self, purple_progress):
        """The multiplier at ``purple_progress`` (array)."""
        pb = self._b[3]
        ladder = np.asarray((1,) + (tuple(pb.ladder) if pb else ()), dtype=np.int64)
        return ladder[purple_progress // self._collect[3]]

    @cached_property
    def _digits(self):
        nf = self.max_capacity + 1
        sizes = [nf] + [f + 1 for f in self._full] + [self.max_respins + 1, 2]
        return sizes

    def _index(self, f, pb, pg, pr, pp, r, ph):
        s = self._digits
        idx = f
        for d, size in zip((pb, pg, pr, pp), s[1:5]):
            idx = idx * size + d
        idx = idx * s[5] + (self.max_respins - r)
        return idx * 2 + ph

    @cached_property
    def states(self) -> dict:
        """Digit arrays of every state kept (in topological order) and the index map."""
        sizes = self._digits
        grids = np.indices(sizes).reshape(len(sizes), -1)
        f, pb, pg, pr, pp, rrev, ph = grids
        r = self.max_respins - rrev
        valid = ((f >= min(self.spec.trigger, self.spec.capacity(0)))
                 & (f <= self.capacity(pb)) & (r <= self.reset_count(pr))
                 & ~((ph == 1) & ((r == 0) | (f == self.capacity(pb)))))
        full_index = self._index(f, pb, pg, pr, pp, r, ph)
        order = np.argsort(full_index[valid], kind="stable")
        keep = {name: a[valid][order] for name, a in
                zip(("f", "pb", "pg", "pr", "pp", "r", "ph"), (f, pb, pg, pr, pp, r, ph))}
        lookup = np.full(int(np.prod(sizes)), -1, dtype=np.int64)
        lookup[full_index[valid][order]] = np.arange(int(valid.sum()))
        keep["lookup"] = lookup
        keep["terminal"] = (keep["ph"] == 0) & ((keep["r"] == 0)
                                                | (keep["f"] == self.capacity(keep["pb"])))
        keep["full"] = (keep["ph"] == 0) & (keep["f"] == self.capacity(keep["pb"]))
        return keep

    @property
    def n_states(self) -> int:
        return len(self.states["f"])

    def state_of(self, held: int) -> int:
        """The state a round starts in with ``held`` cash symbols."""
        s = self.states
        i = self._index(held, 0, 0, 0, 0, self.spec.respins, 0)
        j = int(s["lookup"][i])
        if j < 0:
            raise ValueError(f"{held} held cash symbols cannot start this round")
        return j

    # -- transitions ----------------------------------------------------------------------
    @cached_property
    def transitions(self) -> dict:
        """COO arrays of every move: rows, cols, probability, cash landed, boosters fired
        (``fired[k]`` = the level booster k reaches on this move, 0 if it does not fire) and
        the mass left out (float mode) per row. Cash landed and levels are int16 (small
        counts: a quarter of the memory traffic of int64 over millions of moves)."""
        s = self.states
        one = self.one
        q = [self._prob(b.probability) if b else 0 for b in self._b]
        rows, cols, probs, landed = [], [], [], []
        fired = [[] for _ in BOOSTER_KINDS]
        live = ~s["terminal"]
        # gems: phase 0 -> 1, one outcome per subset of the boosters not used up
        g = np.nonzero(live & (s["ph"] == 0))[0]
        prog = [s[k][g] for k in ("pb", "pg", "pr", "pp")]
        active = [(p < full) for p, full in zip(prog, self._full)]
        for mask in range(16):
            bits = [(mask >> k) & 1 for k in range(4)]
            ok = np.ones(len(g), dtype=bool)
            for k in range(4):
                if bits[k]:
                    ok &= active[k]
            src = g[ok]
            if not len(src):
                continue
            new = [p[ok] + bits[k] for k, p in enumerate(prog)]
            act = [a[ok] for a in active]
            # probability: product over the active boosters of q or 1 - q
            codes = sum(a.astype(np.int64) << k for k, a in enumerate(act))
            table = {}
            for code in np.unique(codes).tolist():
                pr = one
                for k in range(4):
                    if (code >> k) & 1:
                        pr = pr * (q[k] if bits[k] else one - q[k])
                table[code] = pr
            if self.exact:
                p_arr = [table[c] for c in codes.tolist()]
            else:  # the same floats, looked up by code
                lut = np.zeros(16)
                for code, pr in table.items():
                    lut[code] = pr
                p_arr = lut[codes]
            fire = [(new[k] // self._collect[k]) * (bits[k] * (new[k] % self._collect[k] == 0))
                    for k in range(4)]
            rb = self._b[2]
            r_new = s["r"][src] + (fire[2] > 0) * (rb.extra if rb else 0)
            tgt = s["lookup"][self._index(s["f"][src], new[0], new[1], new[2], new[3],
                                          r_new, 1)]
            assert (tgt > src).all()
            rows.append(src)
            cols.append(tgt)
            probs.append(p_arr)
            landed.append(np.zeros(len(src), dtype=np.int16))
            for k in range(4):
                fired[k].append(fire[k].astype(np.int16))
        # cash: phase 1 -> 0
        c = np.nonzero(s["ph"] == 1)[0]
        cap = self.capacity(s["pb"][c])
        empty = cap - s["f"][c]
        p = self._prob(self.spec.cash_probability)
        binom = _binomial_table(self.max_capacity, p, one)
        binom_arr = None if self.exact else np.asarray(binom, dtype=np.float64)
        dropped = np.zeros(self.n_states)
        for n in range(self.max_capacity + 1):
            ok = empty >= n
            src = c[ok]
            if not len(src):
                continue
            e = empty[ok]
            if not self.exact:
                p_arr = binom_arr[e, n]
                small = p_arr < self.drop
                np.add.at(dropped, src[small], p_arr[small])
                keep = ~small
                src, e, p_arr = src[keep], e[keep], p_arr[keep]
                if not len(src):
                    continue
            else:
                p_arr = [binom[ei][n] for ei in e.tolist()]
            f_new = s["f"][src] + n
            r_new = (self.reset_count(s["pr"][src]) if n > 0 else s["r"][src] - 1)
            tgt = s["lookup"][self._index(f_new, s["pb"][src], s["pg"][src], s["pr"][src],
                                          s["pp"][src], r_new, 0)]
            assert (tgt > src).all()
            rows.append(src)
            cols.append(tgt)
            probs.append(p_arr)
            landed.append(np.full(len(src), n, dtype=np.int16))
            for k in range(4):
                fired[k].append(np.zeros(len(src), dtype=np.int16))
        none = np.zeros(0, dtype=np.int64)  # (a grid full from the start has no move)
        rows, cols, landed = rows or [none], cols or [none], landed or [none]
        fired = [f or [none] for f in fired]
        if not probs:
            probs = [[]] if self.exact else [np.zeros(0)]
        out = {"rows": np.concatenate(rows), "cols": np.concatenate(cols),
               "landed": np.concatenate(landed),
               "fired": [np.concatenate(f) for f in fired], "dropped": dropped}
        if self.exact:
            out["probs"] = [x for part in probs for x in part]
        else:
            out["probs"] = np.concatenate(probs)
        return out

    # -- solving --------------------------------------------------------------------------
    def _matrix(self, select=None, weight=None):
        t = self.transitions
        rows, cols, probs = t["rows"], t["cols"], t["probs"]
        if self.exact:
            w = probs if weight is None else [p * int(x) for p, x in zip(probs, weight)]
            m = select if select is not None else np.ones(len(rows), dtype=bool)
            return [(int(i), int(j), pw) for i, j, pw, keep in zip(rows, cols, w, m) if keep]
        # one row-sorted structure for every matrix: a move left out has probability 0
        order, ptr = self._csr_order
        data = probs if weight is None else probs * weight
        if select is not None:
            data = np.where(select, data, 0.0)
        import scipy.sparse as sp  # (here: a game without hold & win never imports scipy)

        n = self.n_states
        return sp.csr_array((data[order], cols[order], ptr), shape=(n, n))

    def _solve(self, matrix, reward):
        """Expected total reward to absorption from every state."""
        if self.exact:
            return _exact_backward(matrix, reward, self.n_states)
        return backward_induction(matrix, np.asarray(reward, dtype=np.float64),
                                  check=False).mean

    def _apply(self, matrix, vector):
        if self.exact:
            out = [Fraction(0)] * self.n_states
            for i, j, p in matrix:
                out[i] += p * vector[j]
            return out
        return matrix @ np.asarray(vector, dtype=np.float64)

    def _vector(self, values):
        if self.exact:
            return [Fraction(int(v)) if isinstance(v, (bool, np.bool_, np.integer)) else Fraction(v)
                    for v in np.asarray(values).tolist()]
        return np.asarray(values, dtype=np.float64)

    @cached_property
    def value_step_laws(self) -> list[dict[int, Fraction]]:
        """``V_s`` for s = 0 .. value steps possible: ladder rung -> probability."""
        spec = self.spec
        steps = self._b[1].times if self._b[1] else 0
        total = sum(spec.value_weights)
        top = spec.top_index
        laws = []
        for s in range(steps + 1):
            law: dict[int, Fraction] = {}
            for i, w in enumerate(spec.value_weights):
                if w:
                    j = max(i, min(i + s, top))
                    law[j] = law.get(j, Fraction(0)) + Fraction(w, total)
            laws.append(law)
        return laws

    @cached_property
    def _step_means(self) -> list:
        ladder = self.spec.values
        return [self._prob(sum((ladder[j] * p for j, p in law.items()), Fraction(0)))
                for law in self.value_step_laws]

    @cached_property
    def _solution(self) -> dict:
        if not self.exact:
            return self._float_solution()
        s, t = self.states, self.transitions
        n = self.n_states
        terminal = s["terminal"]
        mult = self.multiplier(s["pp"])
        green = t["fired"][1] > 0
        q_all = self._matrix()
        q0 = self._matrix(~green)
        q1 = self._matrix(green)
        mus = self._step_means
        a_next = self._vector(np.zeros(n))
        a = [None] * len(mus)
        for c in range(len(mus) - 1, -1, -1):
            term = [(int(m) * mus[c]) if z else 0 for m, z in zip(mult.tolist(), terminal)]
            reward = self._apply(q1, a_next)
            reward = [x + y for x, y in zip(reward, term)] if self.exact else reward + np.asarray(
                term, dtype=np.float64)
            a[c] = self._solve(q0, reward)
            a_next = a[c]
        prize = self._prob(self.spec.full_grid_prize)
        cash_reward = self._apply(self._matrix(weight=t["landed"]), a[0])
        prize_term = [int(m) * prize if z else 0 for m, z in zip(mult.tolist(), s["full"])]
        if self.exact:
            cash_reward = [x + y for x, y in zip(cash_reward, prize_term)]
        else:
            cash_reward = cash_reward + np.asarray(prize_term, dtype=np.float64)
        future = self._solve(q_all, cash_reward)
        spins = self._solve(q_all, self._vector((~terminal) & (s["ph"] == 0)))
        fill = self._solve(q_all, self._vector(s["full"]))
        levels = {}
        for k, kind in enumerate(BOOSTER_KINDS):
            b = self._b[k]
            if b is None:
                continue
            levels[kind] = []
            for j in range(1, b.times + 1):
                hit = self._apply(self._matrix(t["fired"][k] == j), self._vector(np.ones(n)))
                levels[kind].append(self._solve(q_all, hit))
        out = {"a0": a[0], "future": future, "spins": spins, "fill": fill, "levels": levels}
        if not self.exact:
            out["dropped"] = self._solve(q_all, t["dropped"])
        return out

    @cached_property
    def _solver_csr(self) -> dict:
        """The moves as CSR arrays twice: by source in the order made (``_csr_order``, the
        order scipy's product sums a row in: ``cols``, ``probs``, ``fired``, ``landed``) and,
        per row, sorted by target (the canonical CSR that
        :func:`~slotmath.markov.sparse.backward_induction` reads: ``c_cols``, ``c_probs``,
        ``c_green``)."""
        t = self.transitions
        order, ptr = self._csr_order
        cols = t["cols"][order].astype(np.int64)
        probs = np.asarray(t["probs"])[order]
        fired = [f[order] for f in t["fired"]]
        canon = _sorted_within_rows(ptr, cols)
        return {"ptr": ptr, "cols": cols, "probs": probs, "fired": fired,
                "landed": t["landed"][order], "c_cols": cols[canon], "c_probs": probs[canon],
                "c_green": fired[1][canon] > 0}

    def _float_solution(self) -> dict:
        """:meth:`_solution` in float64 by compiled passes: the same sums in the same order
        as scipy's matrix-vector product and ``backward_induction`` over the matrices of
        :meth:`_matrix` (so the same floats: a move a matrix leaves out has probability 0
        there, and adding 0.0 to a sum of non-negative terms changes no bit, so here it is
        skipped), the passes over ``Q`` batched into one."""
        s, t, m = self.states, self.transitions, self._solver_csr
        n = self.n_states
        ptr, cols, probs, c_cols, c_probs = m["ptr"], m["cols"], m["probs"], m["c_cols"], \
            m["c_probs"]
        green, c_green = m["fired"][1], m["c_green"]
        terminal = s["terminal"]
        mult = self.multiplier(s["pp"]).astype(np.float64)
        a_next = np.zeros(n)
        a = [None] * len(self._step_means)
        for c in range(len(a) - 1, -1, -1):
            term = np.where(terminal, mult * self._step_means[c], 0.0)
            reward = _matvec(ptr, cols, probs, green, a_next) + term  # value-step moves
            a[c] = _backward_means(ptr, c_cols, c_probs, c_green, True, reward[:, None])[:, 0]
            a_next = a[c]
        prize = float(self.spec.full_grid_prize)
        cash_reward = (_matvec(ptr, cols, probs * m["landed"], None, a[0])
                       + np.where(s["full"], mult * prize, 0.0))
        rewards = np.empty((n, 4 + sum(b.times for b in self._b if b)))
        rewards[:, 0] = cash_reward
        rewards[:, 1] = (~terminal) & (s["ph"] == 0)
        rewards[:, 2] = s["full"]
        names = []
        for k, kind in enumerate(BOOSTER_KINDS):
            b = self._b[k]
            if b is None:
                continue
            col = 3 + len(names)
            _level_hits(ptr, probs, m["fired"][k], rewards[:, col: col + b.times])
            names += [kind] * b.times
        rewards[:, -1] = t["dropped"]
        v = _backward_means(ptr, c_cols, c_probs, None, False, rewards)
        levels: dict = {}
        for col, kind in enumerate(names, start=3):
            levels.setdefault(kind, []).append(np.ascontiguousarray(v[:, col]))
        return {"a0": a[0], "future": np.ascontiguousarray(v[:, 0]),
                "spins": np.ascontiguousarray(v[:, 1]), "fill": np.ascontiguousarray(v[:, 2]),
                "levels": levels, "dropped": np.ascontiguousarray(v[:, -1])}

    def figures(self, held: int) -> RoundFigures:
        """Expected win (total bets), respins, fill probability and booster levels of the
        round started with ``held`` cash symbols."""
        i = self.state_of(held)
        sol = self._solution
        mean = held * sol["a0"][i] + sol["future"][i]
        levels = {k: [v[i] for v in vs] for k, vs in sol["levels"].items()}
        if not self.exact:
            mean, levels = float(mean), {k: [float(x) for x in v] for k, v in levels.items()}
            return RoundFigures(held, mean, float(sol["spins"][i]), float(sol["fill"][i]),
                                levels)
        return RoundFigures(held, mean, sol["spins"][i], sol["fill"][i], levels)

    def dropped_probability(self, held: int) -> float:
        """P(a round started with ``held`` takes a move left out of the float chain)."""
        if self.exact:
            return 0.0
        return float(self._solution["dropped"][self.state_of(held)])

    # -- the record and the distribution ----------------------------------------------------
    def records(self, held: int) -> dict:
        """Law of the round's record ``(multiplier, full, held at the end, held at each value
        step)`` by a forward pass over the states carrying the record (values not drawn)."""
        s, t = self.states, self.transitions
        order = np.argsort(t["rows"], kind="stable")
        rows = t["rows"][order]
        ptr = np.searchsorted(rows, np.arange(self.n_states + 1))
        cols = t["cols"][order]
        probs = [t["probs"][i] for i in order.tolist()] if self.exact else t["probs"][order]
        green = t["fired"][1][order] > 0
        mass: dict[int, dict] = defaultdict(dict)
        start = self.state_of(held)
        mass[start][()] = self.one
        out: dict = {}
        f_arr, mult, terminal, full = s["f"], self.multiplier(s["pp"]), s["terminal"], s["full"]
        for x in range(start, self.n_states):
            here = mass.pop(x, None)
            if not here:
                continue
            if terminal[x]:
                key0 = (int(mult[x]), bool(full[x]), int(f_arr[x]))
                for rec, m in here.items():
                    k = key0 + (rec,)
                    out[k] = out.get(k, 0) + m
                continue
            for q in range(ptr[x], ptr[x + 1]):
                y = int(cols[q])
                p = probs[q]
                step = bool(green[q])
                bucket = mass[y]
                for rec, m in here.items():
                    r2 = rec + (int(f_arr[x]),) if step else rec
                    bucket[r2] = bucket.get(r2, 0) + m * p
        return out

    @cached_property
    def _csr_order(self):
        """The moves sorted by source state (stable) and the row pointers of that order."""
        rows = self.transitions["rows"]
        order = np.argsort(rows, kind="stable")
        ptr = np.searchsorted(rows[order], np.arange(self.n_states + 1)).astype(np.int64)
        return order, ptr

    @cached_property
    def _csr(self):
        m = self._solver_csr
        return m["ptr"], m["cols"], m["probs"], m["fired"][1] > 0

    def float_records(self, helds) -> dict:
        """:meth:`records` in float64 for every start count in ``helds`` at once (each key's
        value: one probability per start); see :meth:`_record_arrays`."""
        recs, m, full, f, rec, probs = self._record_arrays(helds)
        return {(int(m[c]), bool(full[c]), int(f[c]), recs[rec[c]]): probs[c]
                for c in range(len(m))}

    def _record_arrays(self, helds):
        """The records of :meth:`float_records` as arrays: ``(records, mult, full, held at
        the end, record id, probabilities)``, one row per distinct record key, ``records``
        the tuples of held counts at the value steps (indexed by record id).

        By layers: the states with ``j`` value steps made are one layer, and each record
        reaching it (the held counts at the steps so far) is pushed through it by one
        compiled pass (:func:`_record_pass`), which hands back the terminal states it
        reached and the states of the next layer its value steps enter. Cost: one pass of a
        layer per record reaching it, from the first state the record enters."""
        if self.exact:
            raise ValueError("float_records is the float64 pass; use records()")
        helds = list(helds)
        n_k = len(helds)
        s = self.states
        ptr, cols, probs, green = self._csr
        steps = self._b[1].times if self._b[1] else 0
        layer_of = s["pg"] // self._collect[1]
        layers = [np.nonzero(layer_of == j)[0].astype(np.int64) for j in range(steps + 1)]
        terminal, f_arr = s["terminal"], s["f"]
        n = self.n_states
        mass, next_mass = np.zeros((n, n_k)), np.zeros((n, n_k))
        seen = np.zeros(n, dtype=np.bool_)
        live = np.zeros(n // 64 + 1, dtype=np.uint64)  # the states holding mass, as bits
        starts = np.asarray([self.state_of(h) for h in helds], dtype=np.int64)
        # a terminal state's key: (multiplier, full, held at the end), in that order
        n_f = self.max_capacity + 1
        mult_of = self.multiplier(s["pp"])
        end_key = ((mult_of * 2 + s["full"]) * n_f + f_arr).astype(np.int64)
        n_keys = (int(mult_of.max()) + 1) * 2 * n_f
        agg = np.zeros((n_keys, n_k))
        used = np.zeros(n_keys, dtype=np.bool_)
        buf_key, buf_m = np.empty(n_keys, np.int64), np.empty((n_keys, n_k))
        records: list[tuple[int, ...]] = [()]
        entries = {0: (starts, np.eye(n_k))}
        out_rec, out_key, out_m = [], [], []
        for j in range(steps + 1):
            n_next = len(layers[j + 1]) if j < steps else 0
            nxt_y, nxt_m = np.empty(n_next, np.int64), np.empty((n_next, n_k))
            following: dict = {}
            for rid, (ys, ms) in entries.items():
                n_out, n_in = _record_pass(ys, ms, live, ptr, cols, probs, green, terminal,
                                           mass, next_mass, seen, end_key, agg, used,
                                           buf_key, buf_m, nxt_y, nxt_m)
                if n_out:
                    out_rec.append(np.full(n_out, rid, np.int64))
                    out_key.append(buf_key[:n_out].copy())
                    out_m.append(buf_m[:n_out].copy())
                if n_in:
                    ys2, ms2 = nxt_y[:n_in], nxt_m[:n_in]
                    fs = f_arr[ys2]
                    for fv in np.unique(fs).tolist():
                        sel = fs == fv
                        following[len(records)] = (ys2[sel].copy(), ms2[sel].copy())
                        records.append(records[rid] + (fv,))
            entries = following
        if not out_key:
            empty = np.zeros(0, np.int64)
            return records, empty, empty.astype(bool), empty, empty, np.zeros((0, n_k))
        rec = np.concatenate(out_rec)
        key = np.concatenate(out_key)
        order = np.lexsort((key, rec))  # by (record, multiplier, full, held at the end)
        rec, key = rec[order], key[order]
        return (records, key // (2 * n_f), (key // n_f) % 2 == 1, key % n_f, rec,
                np.concatenate(out_m)[order])

    @cached_property
    def unit(self) -> Fraction:
        """The grid step of the win, in total bets (gcd of the values and the prize)."""
        unit = Fraction(0)
        for v in (*self.spec.values, self.spec.full_grid_prize):
            unit = Fraction(math.gcd(unit.numerator * v.denominator,
                                     v.numerator * unit.denominator),
                            unit.denominator * v.denominator) if unit else Fraction(v)
        return unit

    def float_distributions(self, helds) -> dict[int, tuple[np.ndarray, float, float]]:
        """Per start count in ``helds``: the round's win law on the grid of :attr:`unit`
        (``probs[i] = P(win = i x unit)``), a bound on the probability mass it misplaces
        (FFT rounding: negative entries cleared and counted, a floor per entry, plus the
        moves left out of the chain) and the second moment of the win (total bets squared,
        from the records directly: no grid).

        The law of the held values is the mixture over records of convolution powers of
        the value-step laws, made in the frequency domain on one grid long enough for the
        largest sum (no wrap-around), per (multiplier, full) pair; each is then scaled by
        its multiplier."""
        helds = list(helds)
        recs, m_arr, full_arr, f_arr, rec_id, probs = self._record_arrays(helds)
        steps = len(self.value_step_laws)
        ladder = [int(v / self.unit) for v in self.spec.values]
        prize = int(self.spec.full_grid_prize / self.unit)
        top_sum = self.max_capacity * max(ladder)
        size = 1 << max(1, math.ceil(math.log2(top_sum + 1)))
        bins = size // 2 + 1
        powers = np.empty((steps, self.max_capacity + 1, bins), dtype=np.complex128)
        mean_s, var_s = np.zeros(steps), np.zeros(steps)
        grid = np.arange(size, dtype=np.float64)
        for s_, law in enumerate(self.value_step_laws):
            pmf = np.zeros(size)
            for j, p in law.items():
                pmf[ladder[j]] += float(p)
            mean_s[s_] = float((grid * pmf).sum())
            var_s[s_] = float((grid * grid * pmf).sum()) - mean_s[s_] ** 2
            spec1 = np.fft.rfft(pmf)
            powers[s_, 0] = 1.0
            for k in range(1, self.max_capacity + 1):
                powers[s_, k] = powers[s_, k - 1] * spec1
        counts = _step_counts(recs, rec_id, f_arr, steps)
        pairs = sorted({(int(m), bool(full)) for m, full in zip(m_arr.tolist(),
                                                                full_arr.tolist())})
        pair_id = {pr: i for i, pr in enumerate(pairs)}
        mf = np.asarray([pair_id[int(m), bool(full)] for m, full in
                         zip(m_arr.tolist(), full_arr.tolist())], dtype=np.int64)
        mean = counts @ mean_s + prize * full_arr
        var = counts @ var_s
        second = ((m_arr.astype(np.float64) ** 2 * (var + mean * mean))[:, None]
                  * probs).sum(axis=0)
        # classes sorted by (pair, count with the most steps, ..., count with one step): the
        # Horner order of _mix_spectra
        n_rec = len(m_arr)
        order = (np.lexsort([counts[:, s_] for s_ in range(1, steps)] + [mf]).astype(np.int64)
                 if n_rec else np.zeros(0, np.int64))
        out_re = np.zeros((len(helds), len(pairs), bins))
        out_im = np.zeros((len(helds), len(pairs), bins))
        _mix_spectra(order, mf, counts, np.ascontiguousarray(probs),
                     np.ascontiguousarray(powers.real), np.ascontiguousarray(powers.imag),
                     out_re, out_im)
        spectrum = out_re + 1j * out_im
        top = max(m * (top_sum + (prize if full else 0)) for m, full in pairs)
        unit2 = float(self.unit) ** 2
        result = {}
        for k, held in enumerate(helds):
            out = np.zeros(top + 1)
            for (m, full), spec_row in zip(pairs, spectrum[k]):
                sums = np.fft.irfft(spec_row, size)[: top_sum + 1]
                shift = prize if full else 0
                out[m * shift: m * (top_sum + shift) + 1: m] += sums
            negative = float(-out[out < 0].sum())
            out[out < 0] = 0.0
            bound = negative + self.dropped_probability(held) + 1e-15 * len(out)
            result[held] = (out, bound, float(second[k]) * unit2)
        return result

    def exact_distribution(self, held: int) -> dict[Fraction, Fraction]:
        """Exact law of the round's win in total bets (small grids: it convolves value laws
        exactly, record by record).

        The value laws are convolved in integers over their common denominator (a power
        ``k`` of a law with denominator ``d`` has denominator ``d ** k``), and the powers are
        kept for every start, so a Link-style game's starts inside free spins share them."""
        ladder = [Fraction(v) for v in self.spec.values]
        prize = Fraction(self.spec.full_grid_prize)
        unit = math.lcm(*(v.denominator for v in ladder), prize.denominator)
        steps = [tuple(sorted((j, Fraction(p)) for j, p in law.items()))
                 for law in self.value_step_laws]
        key = (tuple(ladder), unit, tuple(steps))  # (the powers' values are in 1/unit)
        if key not in _POWERS:
            if len(_POWERS) >= 16:
                _POWERS.clear()
            _POWERS[key] = {}
        powers = _POWERS[key]
        laws = []
        for law in steps:  # integer weights over a common denominator, values in 1/unit
            d = math.lcm(*(p.denominator for _, p in law))
            laws.append(({int(ladder[j] * unit): int(p * d) for j, p in law}, d))

        def power(s: int, k: int) -> tuple[dict, int]:
            if (s, k) not in powers:
                if k == 0:
                    powers[s, k] = ({0: 1}, 1)
                else:
                    below, d = power(s, k - 1)
                    powers[s, k] = (_convolve(below, laws[s][0]), d * laws[s][1])
            return powers[s, k]

        parts = []
        for (m, full, f, rec), p in self.records(held).items():
            law, denominator = {0: 1}, 1
            for s, k in _groups(rec, f):
                part, d = power(s, k)
                law, denominator = _convolve(law, part), denominator * d
            parts.append((m, full, Fraction(p) / denominator, law))
        # one common denominator: integer sums, one fraction per win at the end
        common = math.lcm(*(scale.denominator for _, _, scale, _ in parts)) if parts else 1
        top = int(prize * unit)
        sums: dict = {}
        for m, full, scale, law in parts:
            factor = scale.numerator * (common // scale.denominator)
            for v, q in law.items():
                w = (m, v + (top if full else 0))
                sums[w] = sums.get(w, 0) + factor * q
        out: dict = {}
        for (m, v), q in sums.items():
            w = m * Fraction(v, unit)
            out[w] = out.get(w, 0) + Fraction(q, common)
        return dict(sorted(out.items()))


#: the integer powers of the value laws, by (ladder, value-step laws): shared by every chain of
#: the same values (a game's analysis and its modes' build their own chains)
_POWERS: dict = {}


def _step_counts(recs, rec_id, f_arr, steps: int) -> np.ndarray:
    """``counts[c, s]``: how many symbols held at the end of class ``c`` received ``s``
    value steps (:func:`_groups` for every class at once)."""
    n = len(rec_id)
    counts = np.zeros((n, steps), dtype=np.int64)
    if not n:
        return counts
    width = max(1, max(len(r) for r in recs))
    table = np.zeros((len(recs), width), dtype=np.int64)
    for i, r in enumerate(recs):
        table[i, :len(r)] = r
    b = np.asarray([len(r) for r in recs], dtype=np.int64)[rec_id]
    marks = table[rec_id]
    rows = np.arange(n)
    before = np.zeros(n, dtype=np.int64)
    for j in range(steps):
        ok = j <= b
        here = np.where(j < b, marks[:, min(j, width - 1)], f_arr)
        counts[rows[ok], (b - j)[ok]] = (here - before)[ok]
        before = np.where(ok, here, before)
    return counts


def _groups(rec: tuple[int, ...], f: int) -> list[tuple[int, int]]:
    """(value steps received, how many held) from the record: those held at step j received
    every step from j on."""
    b = len(rec)
    marks = list(rec) + [f]
    out, before = [], 0
    for j, filled in enumerate(marks):
        out.append((b - j, filled - before))
        before = filled
    return out


def _convolve(a: dict, b: dict) -> dict:
    out: dict = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0) + p * q
    return out


def _exact_backward(matrix: list[tuple[int, int, Fraction]], reward, n: int) -> list:
    """``v = reward + Q v`` in exact fractions, states in topological order (every move goes
    to a later state): one pass from the last state to the first."""
    by_row: dict[int, list] = defaultdict(list)
    for i, j, p in matrix:
        by_row[i].append((j, p))
    v = [Fraction(0)] * n
    for i in range(n - 1, -1, -1):
        total = Fraction(reward[i])
        for j, p in by_row.get(i, ()):
            total += p * v[j]
        v[i] = total
    return v


@njit(cache=True)
def _sorted_within_rows(ptr, cols):
    """The permutation that sorts each row's moves by target (stable; a row holds a few
    moves, so an insertion sort)."""
    perm = np.arange(cols.shape[0])
    for i in range(ptr.shape[0] - 1):
        for q in range(ptr[i] + 1, ptr[i + 1]):
            x = perm[q]
            r = q - 1
            while r >= ptr[i] and cols[perm[r]] > cols[x]:
                perm[r + 1] = perm[r]
                r -= 1
            perm[r + 1] = x
    return perm


@njit(cache=True)
def _matvec(ptr, cols, data, only, x):
    """``out[i] = sum_q data[q] x[cols[q]]`` over row ``i``'s moves (those with ``only[q]``
    set, when ``only`` is given), summed from 0.0 in the order stored (as scipy's CSR
    product does)."""
    n = ptr.shape[0] - 1
    out = np.empty(n)
    for i in range(n):
        acc = 0.0
        for q in range(ptr[i], ptr[i + 1]):
            if only is None or only[q]:
                acc += data[q] * x[cols[q]]
        out[i] = acc
    return out


@njit(cache=True)
def _level_hits(ptr, probs, fired, out):
    """``out[i, j - 1]``: the probability of row ``i``'s moves with ``fired == j`` (summed
    from 0.0 in the order stored), for ``j = 1 .. out.shape[1]``."""
    for i in range(ptr.shape[0] - 1):
        for j in range(out.shape[1]):
            out[i, j] = 0.0
        for q in range(ptr[i], ptr[i + 1]):
            f = fired[q]
            if f > 0:
                out[i, f - 1] += probs[q]


@njit(cache=True)
def _backward_means(ptr, cols, data, skip, skip_on, rewards):
    """``v = rewards + Q v`` for every column of ``rewards`` at once, from the last state to
    the first; a row's moves summed in the order stored (those with ``skip[q] == skip_on``
    left out, when ``skip`` is given) and a self-loop as a geometric series, as
    :func:`slotmath.markov.sparse.backward_induction` sums its mean."""
    n = ptr.shape[0] - 1
    m = rewards.shape[1]
    out = np.empty((n, m))
    acc = np.empty(m)
    for i in range(n - 1, -1, -1):
        stay = 0.0
        for k in range(m):
            acc[k] = 0.0
        for q in range(ptr[i], ptr[i + 1]):
            if skip is not None and skip[q] == skip_on:
                continue
            j = cols[q]
            p = data[q]
            if j == i:
                stay += p
            else:
                for k in range(m):
                    acc[k] += p * out[j, k]
        leave = 1.0 - stay
        for k in range(m):
            out[i, k] = (rewards[i, k] + acc[k]) / leave
    return out


@njit(cache=True)
def _record_pass(ys, ms, live, indptr, cols, probs, green, terminal, mass, next_mass, seen,
                 end_key, agg, used, out_key, out_m, next_y, next_m):
    """Push one record's mass (``ms`` at the states ``ys`` of one layer, every start column)
    forward over that layer in topological order, clearing it as it goes. The states holding
    mass are bits of ``live`` (a move goes to a later state, so one sweep of the words
    visits them in order; a state whose mass is all zero is passed over). The mass of the
    terminal states reached is summed by their ``end_key`` (multiplier, full, held at the
    end) in ``agg``, in the order reached, and handed back in ``out_key``/``out_m``, keys
    ascending; moves that make a value step leave the layer into ``next_mass``, and the
    states they enter are written to ``next_y``/``next_m`` (and cleared). Returns the two
    counts."""
    n_k = mass.shape[1]
    n_out = 0
    n_next = 0
    one = np.uint64(1)
    first = live.shape[0]
    for t in range(ys.shape[0]):
        y = ys[t]
        for k in range(n_k):
            mass[y, k] += ms[t, k]
        live[y >> 6] |= one << np.uint64(y & 63)
        first = min(first, y >> 6)
    for word in range(first, live.shape[0]):
        while live[word] != 0:
            bits = live[word]
            b = trailing_zeros(bits)  # the lowest state left in this word
            live[word] = bits & (bits - one)
            x = word * 64 + b
            alive = False
            for k in range(n_k):
                if mass[x, k] != 0.0:
                    alive = True
                    break
            if not alive:
                continue
            if terminal[x]:
                key = end_key[x]
                if not used[key]:
                    used[key] = True
                    out_key[n_out] = key
                    n_out += 1
                for k in range(n_k):
                    agg[key, k] += mass[x, k]
                    mass[x, k] = 0.0
                continue
            for q in range(indptr[x], indptr[x + 1]):
                y = cols[q]
                p = probs[q]
                if green[q]:
                    if not seen[y]:
                        seen[y] = True
                        next_y[n_next] = y
                        n_next += 1
                    for k in range(n_k):
                        next_mass[y, k] += mass[x, k] * p
                else:
                    live[y >> 6] |= one << np.uint64(y & 63)
                    for k in range(n_k):
                        mass[y, k] += mass[x, k] * p
            for k in range(n_k):
                mass[x, k] = 0.0
    out_key[:n_out].sort()
    for t in range(n_out):
        key = out_key[t]
        used[key] = False
        for k in range(n_k):
            out_m[t, k] = agg[key, k]
            agg[key, k] = 0.0
    for t in range(n_next):
        y = next_y[t]
        seen[y] = False
        for k in range(n_k):
            next_m[t, k] = next_mass[y, k]
            next_mass[y, k] = 0.0
    return n_out, n_next


@njit(cache=True, parallel=True)
def _mix_spectra(order, mf, counts, probs, powers_re, powers_im, out_re, out_im):
    """``out[k, mf] += p_k x prod_s powers[s, n_s]`` over every class, by Horner's scheme
    over the step counts: the classes come in ``order`` sorted by (mf, n_{S-1}, ..., n_1).
    The two lowest levels are one table per block of bins, ``powers[0, n_0] x powers[1,
    n_1]`` for every ``n_0 + n_1 <= cap`` (small enough to stay in cache), so each class is
    one axpy of its row; the sum is then multiplied once by ``powers[2, n_2]`` per distinct
    (mf, n_{S-1}, ..., n_2), the sum of those once by ``powers[3, n_3]`` per distinct (mf,
    n_{S-1}, ..., n_3), and so on (one level only when there are no value steps). Complex
    numbers as real and imaginary arrays (the inner loops are plain real axpys), the bins
    split in blocks, one thread per block (every block sees every class)."""
    n_bins = powers_re.shape[2]
    n_steps = counts.shape[1]
    n_k = probs.shape[1]
    n_c = order.shape[0]
    cap = powers_re.shape[1] - 1
    base = 2 if n_steps >= 2 else 1  # the levels merged into the leaves' table
    n1_top = cap if base == 2 else 0
    # the leaves' table rows: (n0, n1) with n0 + n1 <= cap
    row_of = np.full((cap + 1, cap + 1), -1, np.int64)
    n_rows = 0
    for a in range(cap + 1):
        for b in range(n1_top + 1):
            if a + b <= cap:
                row_of[a, b] = n_rows
                n_rows += 1
    width = 128
    n_blocks = (n_bins + width - 1) // width
    for blk in prange(n_blocks):
        lo = blk * width
        hi = min(n_bins, lo + width)
        m = hi - lo
        t_re = np.empty((n_rows, m))
        t_im = np.empty((n_rows, m))
        for a in range(cap + 1):
            for b in range(n1_top + 1):
                r = row_of[a, b]
                if r < 0:
                    continue
                if base == 1:
                    for w in range(m):
                        t_re[r, w] = powers_re[0, a, lo + w]
                        t_im[r, w] = powers_im[0, a, lo + w]
                else:
                    for w in range(m):
                        x_re = powers_re[0, a, lo + w]
                        x_im = powers_im[0, a, lo + w]
                        y_re = powers_re[1, b, lo + w]
                        y_im = powers_im[1, b, lo + w]
                        t_re[r, w] = x_re * y_re - x_im * y_im
                        t_im[r, w] = x_re * y_im + x_im * y_re
        acc_re = np.zeros((n_steps, n_k, m))
        acc_im = np.zeros((n_steps, n_k, m))
        leaf = base - 1
        for q in range(n_c):
            c = order[q]
            r = row_of[counts[c, 0], counts[c, 1] if base == 2 else 0]
            for k in range(n_k):
                p = probs[c, k]
                if p != 0.0:
                    for w in range(m):
                        acc_re[leaf, k, w] += p * t_re[r, w]
                        acc_im[leaf, k, w] += p * t_im[r, w]
            top = n_steps
            if q + 1 < n_c:
                d = order[q + 1]
                if mf[d] == mf[c]:
                    top = 0
                    for s in range(n_steps - 1, base - 1, -1):
                        if counts[d, s] != counts[c, s]:
                            top = s
                            break
            for lvl in range(base, min(top, n_steps - 1) + 1):
                n = counts[c, lvl]
                if n:
                    for k in range(n_k):
                        for w in range(m):
                            y_re = powers_re[lvl, n, lo + w]
                            y_im = powers_im[lvl, n, lo + w]
                            x_re = acc_re[lvl - 1, k, w]
                            x_im = acc_im[lvl - 1, k, w]
                            acc_re[lvl, k, w] += x_re * y_re - x_im * y_im
                            acc_im[lvl, k, w] += x_re * y_im + x_im * y_re
                            acc_re[lvl - 1, k, w] = 0.0
                            acc_im[lvl - 1, k, w] = 0.0
                else:
                    for k in range(n_k):
                        for w in range(m):
                            acc_re[lvl, k, w] += acc_re[lvl - 1, k, w]
                            acc_im[lvl, k, w] += acc_im[lvl - 1, k, w]
                            acc_re[lvl - 1, k, w] = 0.0
                            acc_im[lvl - 1, k, w] = 0.0
            if top == n_steps:
                target = mf[c]
                last = n_steps - 1
                for k in range(n_k):
                    for w in range(m):
                        out_re[k, target, lo + w] += acc_re[last, k, w]
                        out_im[k, target, lo + w] += acc_im[last, k, w]
                        acc_re[last, k, w] = 0.0
                        acc_im[last, k, w] = 0.0
