"""Free spins that carry a state: the chain over (spins left, spins awarded, state).

Model
-----
A feature starts with ``n`` spins (drawn by its award law) and a *mechanic state* ``x``
drawn by the mechanic's start law (the expanding symbol; an empty set of sticky cells; no
collector counted yet). From chain state ``(r, a, x)`` (``r`` spins left, ``a`` awarded so
far, ``r > 0``) one free spin draws a *move* of the mechanic from ``x``: a class of the free
spin's outcomes, with integer weight ``w`` out of the mechanic's ``cycle`` ``D``, the trigger
count ``t`` it shows, the state ``x'`` it leads to, the spins ``b`` the mechanic awards
itself (a collector's level-up) and the weighted sums ``c1 = sum c w``, ``c2 = sum c^2 w``
and ``z = sum_{c = 0} w`` of the credits ``c`` its outcomes pay. The spin's win is ``c``
times the growing multiplier ``g(a - r)`` of the ``(a - r)``-th spin (1 without one); it
awards ``u = awards(t) + b`` spins (``awards`` only with ``retrigger``), cut so that ``a + u``
never exceeds ``max_spins``; the chain moves to ``(r - 1 + u, a + u, x')``.

The chain is finite and acyclic: every step either lowers ``r`` or raises ``a`` (which
``max_spins`` bounds; without retriggers ``a`` only grows by the mechanic's own awards, which
its states bound). Given the move, the spin's credits and what follows are independent.

Exact method (backward induction [Bellman]_)
--------------------------------------------
With ``X(s)`` the win still to come from ``s`` and ``e(s) = 1 + max e(children)`` (0 at the
end), the numerators over ``D^e(s)`` are integers (Python's, no overflow):

* ``E[X] = N1 / D^e``, ``N1(s) = sum_m [g c1 D^(e-1) + w N1(s') D^(e-1-e')]``
* ``E[X^2] = N2 / D^e``, ``N2(s) = sum_m [g^2 c2 D^(e-1) + 2 g c1 N1(s') D^(e-1-e')
  + w N2(s') D^(e-1-e')]``
* ``P(X = 0) = NZ / D^e``, ``NZ(s) = sum_m z NZ(s') D^(e-1-e')`` (``NZ = 1`` at the end)
* ``E[spins] = NS / D^e``, ``NS(s) = sum_m w [D^(e-1) + NS(s') D^(e-1-e')]``

(a mechanic whose ``c1``, ``c2`` are Fractions, e.g. a collector's expected cash values,
makes them Fractions: still exact). Past :data:`EXACT_MOVES` steps of the chain the same
recursion runs in float64; every value is a sum of non-negative terms, so its relative
roundoff is at most ``depth x (moves per state + 2) x eps`` (stated as ``error``).

The distribution (numerical)
----------------------------
Per frequency of a DFT grid of ``L`` points of ``unit`` credits the characteristic function
of the win to come is the same recursion, ``Phi(s) = sum_m Psi_m(g) Phi(s')``, ``Psi_m`` the
transform of the move's credits (times ``g``) as a sub-probability; one inverse FFT gives
the pmf. The grid holds the whole support when it is small, otherwise the bulk (mean + 12
SD) and is doubled until the exactly known mean is reproduced to a relative ``1e-10``; the
mass folded back by the grid is bounded by the mean deficit over ``L`` [Embrechts]_, as in
:mod:`slotmath.markov.free_spins`.

References
----------
.. [Bellman] R. Bellman, *Dynamic Programming*, Princeton, 1957.
.. [Embrechts] P. Embrechts and M. Frei, "Panjer recursion versus FFT for compound
   distributions", *Math. Methods Oper. Res.* 69, 2009, 497-508.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

import numpy as np
from numba import njit, prange

from slotmath.markov.chains import acyclic_order
from slotmath.model.cascades import MultiplierRule

__all__ = ["EXACT_MOVES", "ChainLaw", "ChainRules", "Mechanic", "Move", "StateChain"]

#: Chain steps (state x move pairs) up to which the moments are exact integers; past it,
#: float64 with a stated roundoff bound.
EXACT_MOVES = 3_000_000
#: Relative deficit of the mean at which the Fourier grid is accepted.
MEAN_RTOL = 1e-10
#: Largest Fourier grid tried (points).
MAX_GRID = 1 << 22
#: Work the Fourier grid may take: the chain's moves (and laws) times the grid's
#: frequencies (about a second a 1e9 on one core).
WORK = 1 << 31
#: Memory (bytes) the laws' spectra may take at once; past it the frequencies are taken
#: in blocks (see :meth:`StateChain._transform`).
SPECTRA_BYTES = 1 << 29
#: Frequencies the recursion runs at once (its rows kept in cache).
CHUNK = 256


@dataclass(frozen=True)
class Move:
    """A class of one free spin's outcomes from one mechanic state (see the module notes)."""

    weight: int
    trigger: int
    state: Hashable
    award: int
    c1: int | Fraction
    c2: int | Fraction
    zero: int
    law: Hashable


class Mechanic(Protocol):
    """What a free-spin state gives the chain (see the module notes)."""

    cycle: int  # D: the total weight of one spin's moves
    credits_per_bet: int  # credits in one total bet
    grid_unit: int  # a divisor of every credit value a move can pay (0: nothing pays)
    awards: bool  # whether a move can award spins itself
    # (optional) rounded_terms: how many terms of a spin's win are rounded to a coarse grid
    # (1 by default); prepare(states): enumerate these states' moves at once

    def start(self) -> tuple[tuple[int, Hashable], ...]:
        """(weight, state) of the states a feature starts in."""

    def moves(self, state: Hashable) -> tuple[Move, ...]:
        """The moves of one free spin from ``state`` (weights summing to ``cycle``)."""

    def max_credits(self, law: Hashable) -> int:
        """The most a move with credit law ``law`` pays."""

    def spectrum(self, law: Hashable, length: int, unit: int, scale: int
                 ) -> tuple[np.ndarray, float]:
        """rfft of the sub-pmf (weights / cycle) of ``scale`` x the credits of ``law`` on a
        grid of ``length`` points of ``unit`` credits, each rounded to the nearest point and
        wrapped modulo the grid; and its mean in grid units (unwrapped, times its
        probability).

        A mechanic may also give ``points(law, unit, scale) -> (at, p)``: the grid points
        (int64, unwrapped) and sub-probabilities of the same rounded law, which lets the
        chain compute any block of frequencies at the cost of one small FFT."""


@dataclass(frozen=True)
class ChainRules:
    """The free-spin rules the chain applies around the mechanic: the retrigger awards by
    trigger count (None: no retrigger), the cap on spins awarded, the growing multiplier."""

    retrigger: tuple[int, ...] | None = None  # awards[t] for t = 0 .. trigger cap
    max_spins: int | None = None
    growth: MultiplierRule | None = None

    def award(self, trigger: int) -> int:
        if self.retrigger is None:
            return 0
        return self.retrigger[min(trigger, len(self.retrigger) - 1)]

    def multiplier(self, played: int) -> int:
        return 1 if self.growth is None else self.growth.value(played)


@dataclass(frozen=True, eq=False)
class ChainLaw:
    """What a feature started by one award law pays, in total bets: exact moments (Fractions;
    float64 with ``error`` past :data:`EXACT_MOVES`), the spins it plays."""

    mean: Fraction | float
    second_moment: Fraction | float
    zero_probability: Fraction | float
    spins: Fraction | float
    exact: bool
    error: float  # absolute bound on the mean's roundoff (0 when exact)


class StateChain:
    """The chain of one mechanic under ``rules`` (see the module notes).

    A chain whose features play exactly the spins they are awarded (no retrigger, no spins
    awarded by the mechanic) and have no growing multiplier does not need the spins awarded
    in its states: they are ``(r, 0, x)``, solved level by level in ``r``.

    Examples
    --------
    A toy mechanic: a spin pays 1 credit with weight 1 in 2 and moves a counter from 0 to
    1, after which every spin pays 2 with weight 1 in 2:

    >>> class Toy:
    ...     cycle, credits_per_bet, grid_unit, awards = 2, 1, 1, False
    ...     def start(self):
    ...         return ((1, 0),)
    ...     def moves(self, x):
    ...         c = 1 if x == 0 else 2
    ...         return (Move(1, 0, 1, 0, c, c * c, 0, c), Move(1, 0, x, 0, 0, 0, 1, 0))
    ...     def max_credits(self, law):
    ...         return law
    ...     def spectrum(self, law, length, unit, scale):
    ...         p = np.zeros(length); p[(law * scale // unit) % length] = 0.5
    ...         return np.fft.rfft(p), law * scale / unit / 2
    >>> chain = StateChain(Toy(), ChainRules())
    >>> law = chain.law({2: 1})
    >>> law.mean, law.zero_probability, law.spins
    (Fraction(5, 4), Fraction(1, 4), Fraction(2, 1))
    >>> p, unit, bound, rounding = chain.dense({2: 1})
    >>> unit, [round(float(x), 12) for x in p[:4]], bound, rounding
    (1, [0.25, 0.5, 0.0, 0.25], 0.0, 0.0)
    """

    def __init__(self, mechanic: Mechanic, rules: ChainRules):
        self.mechanic = mechanic
        self.rules = rules
        self._moves: dict = {}
        self._children: dict = {}
        self._values: dict = {}  # chain state -> (e, N1, N2, NZ, NS) or floats
        self._exact: bool | None = None
        self._grid_hint: dict[int, int] = {}  # unit -> the last folded grid's length
        self.fixed = rules.retrigger is None and not mechanic.awards
        self.keep_awarded = not self.fixed or rules.growth is not None

    # -- the chain -----------------------------------------------------------------------
    def moves(self, x) -> tuple[Move, ...]:
        got = self._moves.get(x)
        if got is None:
            got = self._moves[x] = tuple(m for m in self.mechanic.moves(x) if m.weight)
        return got

    def steps(self, s) -> tuple[tuple[Move, tuple], ...]:
        """(move, next chain state) of every move from chain state ``s = (r, a, x)``."""
        got = self._children.get(s)
        if got is None:
            r, a, x = s
            if r <= 0:
                got = ()
            elif not self.keep_awarded:
                got = tuple((m, (r - 1, 0, m.state)) for m in self.moves(x))
            else:
                cap = self.rules.max_spins
                out = []
                for m in self.moves(x):
                    u = self.rules.award(m.trigger) + m.award
                    if cap is not None:
                        u = min(u, cap - a)
                    out.append((m, (r - 1 + u, a + u, m.state)))
                got = tuple(out)
            self._children[s] = got
        return got

    def starts(self, spins: dict[int, int]) -> list[tuple[int, tuple]]:
        """(weight, chain state) the award law ``spins`` ({n: weight}) starts in, ``n`` cut
        to ``max_spins``."""
        return self._starts(spins, self.mechanic.start())

    def _starts(self, spins, start) -> list[tuple[int, tuple]]:
        cap = self.rules.max_spins
        out: dict = {}
        for n, wn in spins.items():
            n = min(n, cap) if cap is not None else n
            for wx, x in start:
                if wn * wx:
                    s = (n, n if self.keep_awarded else 0, x)
                    out[s] = out.get(s, 0) + wn * wx
        return [(w, s) for s, w in out.items()]

    def reachable(self, xs) -> list:
        """The mechanic states reachable from ``xs`` (their moves enumerated), breadth first;
        a mechanic with ``prepare(states)`` gets each new layer at once."""
        seen = dict.fromkeys(xs)
        layer = list(seen)
        while layer:
            prepare = getattr(self.mechanic, "prepare", None)
            if prepare is not None:
                prepare([x for x in layer if x not in self._moves])
            nxt = []
            for x in layer:
                for m in self.moves(x):
                    if m.state not in seen:
                        seen[m.state] = None
                        nxt.append(m.state)
            layer = nxt
        return list(seen)

    def order(self, starts) -> list:
        """Chain states reachable from ``starts``, every state after its successors."""
        if not self.keep_awarded:
            top = max(r for r, _, _ in starts)
            xs = self.reachable([x for _, _, x in starts])
            return [(r, 0, x) for r in range(top + 1) for x in xs]
        return acyclic_order(starts, lambda s: [c for _, c in self.steps(s)])

    @property
    def size(self) -> dict[str, int]:
        """States and moves of the chain solved so far, and of the mechanic."""
        return {"states": len(self._values),
                "moves": sum(len(self.steps(s)) for s in self._values),
                "mechanic_states": len(self._moves),
                "mechanic_moves": sum(len(m) for m in self._moves.values())}

    # -- exact moments ---------------------------------------------------------------------
    def _solve(self, starts) -> None:
        todo = [s for s in starts if s not in self._values]
        if not todo:
            return
        order = [s for s in self.order(todo) if s not in self._values]
        if self._exact is None:
            steps = sum(len(self.moves(x)) for _, _, x in order)
            self._exact = steps <= EXACT_MOVES
        D = self.mechanic.cycle
        powers = _Powers(D)
        values = self._values
        for s in order:
            steps = self.steps(s)
            if not steps:
                values[s] = (0, 0, 0, 1, 0) if self._exact else (0, 0.0, 0.0, 1.0, 0.0)
                continue
            r, a, _ = s
            g = self.rules.multiplier(a - r)
            e = 1 + max(values[c][0] for _, c in steps)
            if self._exact:
                values[s] = self._exact_step(steps, g, e, powers, values)
            else:
                values[s] = self._float_step(steps, g, e, float(D), values)

    @staticmethod
    def _exact_step(steps, g, e, powers, values):
        top = powers[e - 1]
        n1 = n2 = nz = ns = 0
        c1_all = c2_all = w_all = 0
        for m, c in steps:
            ec, v1, v2, vz, vs = values[c]
            w = m.weight
            c1_all += m.c1
            c2_all += m.c2
            w_all += w
            d = e - 1 - ec
            if d:
                lift = powers[d]
                n1 += w * v1 * lift
                n2 += (2 * g * m.c1 * v1 + w * v2) * lift
                nz += m.zero * vz * lift
                ns += w * vs * lift
            else:
                n1 += w * v1
                n2 += 2 * g * m.c1 * v1 + w * v2
                nz += m.zero * vz
                ns += w * vs
        n1 += g * c1_all * top
        n2 += g * g * c2_all * top
        ns += w_all * top
        return (e, n1, n2, nz, ns)

    @staticmethod
    def _float_step(steps, g, e, D, values):
        n1 = n2 = nz = ns = 0.0
        for m, c in steps:
            _, c1, c2, cz, cs = values[c]
            p = m.weight / D
            m1, m2 = float(m.c1) / D, float(m.c2) / D
            n1 += g * m1 + p * c1
            n2 += g * g * m2 + 2 * g * m1 * c1 + p * c2
            nz += m.zero / D * cz
            ns += p * (1.0 + cs)
        return (e, n1, n2, nz, ns)

    def law(self, spins: dict[int, int]) -> ChainLaw:
        """Exact (or float64, past :data:`EXACT_MOVES`) moments of the feature started by
        the award law ``spins`` ({n: weight}), in total bets."""
        return self._law(self.starts(spins))

    def _law(self, starts) -> ChainLaw:
        self._solve([s for _, s in starts])
        total = sum(w for w, _ in starts)
        D, cpb = self.mechanic.cycle, self.mechanic.credits_per_bet
        m1 = m2 = mz = ms = Fraction(0) if self._exact else 0.0
        depth = 0
        for w, s in starts:
            e, n1, n2, nz, ns = self._values[s]
            depth = max(depth, e)
            q = Fraction(w, total * D**e) if self._exact else w / total
            m1 += q * n1
            m2 += q * n2
            mz += q * nz
            ms += q * ns
        m1, m2 = m1 / cpb, m2 / cpb**2
        error = 0.0
        if not self._exact:
            most = max((len(m) for m in self._moves.values()), default=1)
            error = abs(m1) * depth * (most + 2) * float(np.finfo(float).eps)
        return ChainLaw(m1, m2, mz, ms, bool(self._exact), error)

    def state_law(self, spins: dict[int, int], state) -> ChainLaw:
        """:meth:`law` of the features that start in mechanic state ``state`` (e.g. one
        expanding symbol)."""
        keep = [(w, x) for w, x in self.mechanic.start() if x == state]
        if not keep:
            raise KeyError(f"no feature starts in state {state!r}")
        return self._law(self._starts(spins, keep))

    # -- how features end ----------------------------------------------------------------
    def final_states(self, spins: dict[int, int]) -> dict[tuple, Fraction]:
        """Exact law of how a feature ends: ``(spins played, mechanic state) -> probability``
        (forward propagation in integers over powers of the cycle: the mass of a chain state
        after ``k`` spins is a multiple of ``D^-k``)."""
        starts = self.starts(spins)
        total = sum(w for w, _ in starts)
        D = self.mechanic.cycle
        if not self.keep_awarded:  # every feature plays its n spins: step the states in time
            by_n: dict = {}
            for w, (n, _, x) in starts:
                by_n.setdefault(n, {})[x] = by_n.get(n, {}).get(x, 0) + w
            return self._fixed_final(by_n, total)
        order = self.order([s for _, s in starts])
        mass = {s: w for w, s in starts}  # numerators over total x D^(spins played)
        out = {}
        for s in reversed(order):  # predecessors first
            m = mass.pop(s, 0)
            if not m:
                continue
            steps = self.steps(s)
            _, a, x = s
            if not steps:
                out[a, x] = out.get((a, x), 0) + Fraction(m, total * D**a)
                continue
            for mv, c in steps:
                mass[c] = mass.get(c, 0) + m * mv.weight
        return out

    def _fixed_final(self, by_n: dict, total: int) -> dict:
        """Final states of features that play exactly their ``n`` spins: the law of the
        mechanic state after ``n`` steps, for every start ``n`` at once (the masses of the
        starts still running carried together, each start's share read off at its end)."""
        D = self.mechanic.cycle
        out: dict = {}
        top = max(by_n)
        # run each start separately through time would repeat work: carry (start n) in the key
        layer: dict = {}
        for n, xs in by_n.items():
            for x, w in xs.items():
                layer[(n, x)] = layer.get((n, x), 0) + w
        for t in range(top + 1):
            done = [k for k in layer if k[0] == t]
            for k in done:
                n, x = k
                out[n, x] = out.get((n, x), 0) + Fraction(layer.pop(k), total * D**t)
            if t == top:
                break
            new: dict = {}
            for (n, x), m in layer.items():
                for mv in self.moves(x):
                    key = (n, mv.state)
                    new[key] = new.get(key, 0) + m * mv.weight
            layer = new
        return out

    def spins_distribution(self, spins: dict[int, int]) -> dict[int, Fraction]:
        """Exact law of the spins one feature plays (awarded spins are all played)."""
        starts = self.starts(spins)
        total = sum(w for w, _ in starts)
        if self.fixed:
            out: dict[int, Fraction] = {}
            for w, (n, _, _) in starts:
                out[n] = out.get(n, 0) + Fraction(w, total)
            return dict(sorted(out.items()))
        out = {}
        for (a, _), p in self.final_states(spins).items():
            out[a] = out.get(a, 0) + p
        return dict(sorted(out.items()))

    # -- the numerical distribution -------------------------------------------------------
    def dense(self, spins: dict[int, int]) -> tuple[np.ndarray, int, float, float]:
        """The pmf of the feature's win on a grid of ``unit`` credits (``p[i]`` = P(win = i
        x unit)), the bound on the mass folded back by the grid, and the most a win was
        moved (credits) to land on the grid (0: the grid is the credits' own).

        The grid is the credits' own (:attr:`Mechanic.grid_unit`) unless the bulk of the law
        (mean + 12 SD) would not fit the longest grid :data:`WORK` allows; then its unit
        is a multiple of it, each spin's win rounded to the nearest point (at most half a
        unit a spin). The grid doubles until the mean it shows is the exact mean of the
        rounded wins to :data:`MEAN_RTOL` (a win past the grid folds back a whole grid length,
        so the mean shows the fold) or the next grid would pass :data:`WORK`: the chain's
        moves times the frequencies, a budget of work that does not depend on the machine.
        """
        law = self.law(spins)
        unit0 = self.mechanic.grid_unit
        if unit0 == 0:
            return np.ones(1), 1, 0.0, 0.0
        starts = self.starts(spins)
        plan = self._plan([s for _, s in starts])
        cpb = self.mechanic.credits_per_bet
        mean = float(law.mean) * cpb
        sd = math.sqrt(max(0.0, float(law.second_moment - law.mean**2))) * cpb
        bulk = mean + 12 * sd
        top = self._support_top(plan)
        most_freq = WORK // max(1, len(plan.law) + len(plan.laws))
        most_len = min(MAX_GRID, 1 << max(10, (2 * (most_freq - 1)).bit_length() - 1))
        k = max(1, math.ceil(bulk / unit0 / most_len))
        unit = unit0 * k
        spins_most = (max(r for _, (r, _, _) in starts) if not self.keep_awarded
                      else max(a for r, a, _ in plan.order if r == 0))
        terms = getattr(self.mechanic, "rounded_terms", 1)
        rounding = 0.0 if k == 1 else spins_most * terms * unit / 2
        length = min(most_len, 1 << max(10, math.ceil(math.log2(bulk / unit + 2))))
        # a longer law of the same chain starts where the last one's grid ended
        length = max(length, min(most_len, self._grid_hint.get(unit, 0)))
        folded = True
        if top // unit + 1 <= min(4 * length, most_len):
            length, folded = top // unit + 1, False
        while True:
            phi, rounded_mean = self._transform(starts, plan, length, unit)
            p = np.fft.irfft(phi, length)
            if not folded:
                return p, unit, 0.0, rounding
            deficit = rounded_mean - float(np.arange(length) @ p)
            if deficit <= MEAN_RTOL * max(rounded_mean, 1e-300) or 2 * length > most_len:
                self._grid_hint[unit] = length
                return p, unit, max(0.0, deficit) / length, rounding
            length *= 2

    def _plan(self, starts) -> _Plan:
        """The chain's states (children first) and moves as flat arrays."""
        order = self.order(starts)
        index = {s: i for i, s in enumerate(order)}
        laws: dict = {}
        ptr = np.zeros(len(order) + 1, np.int64)
        law_of, child_of, weight_of = [], [], []
        for i, s in enumerate(order):
            r, a, _ = s
            g = self.rules.multiplier(a - r)
            for m, c in self.steps(s):
                law_of.append(laws.setdefault((m.law, g), len(laws)))
                child_of.append(index[c])
                weight_of.append(m.weight)
            ptr[i + 1] = len(law_of)
        return _Plan(order, index, laws, ptr, np.asarray(law_of, np.int64),
                     np.asarray(child_of, np.int64), np.asarray(weight_of, np.float64))

    def _support_top(self, plan) -> int:
        """The most credits a feature can pay from any state of ``plan`` (a bound)."""
        most: dict = {}
        for s in plan.order:
            r, a, _ = s
            g = self.rules.multiplier(a - r)
            most[s] = max((g * self.mechanic.max_credits(m.law) + most[c]
                           for m, c in self.steps(s)), default=0)
        return max(most.values())

    def _transform(self, starts, plan, length: int, unit: int):
        """The characteristic function of the feature's win at every rfft frequency, and the
        exact mean (grid units) of the win with every spin rounded to the grid.

        The laws' spectra are computed once and held together when they fit in
        :data:`SPECTRA_BYTES`. Otherwise the frequencies are taken in ``B`` blocks, block
        ``r`` the frequencies ``r + B m``: for a mechanic that gives its laws as points
        (``points``) on a grid of ``2^k`` points, each law's block is one ``L / B``-point
        FFT of the points folded modulo ``L / B`` with the twiddle ``w^(r x)`` (``w`` the
        grid's root of unity), so a law costs about one FFT whatever ``B``; otherwise each
        block slices the law's whole spectrum, computed again. The recursion runs over
        chunks of :data:`CHUNK` frequencies (its rows stay in cache), in parallel."""
        n_freq = length // 2 + 1
        n_laws = len(plan.laws)
        total = sum(w for w, _ in starts)
        out = np.zeros(n_freq, dtype=complex)
        law_mean = np.zeros(n_laws)
        rows = np.array([plan.index[s] for _, s in starts], np.int64)
        mix = np.array([w / total for w, _ in starts])
        n_blocks = 1
        while 16 * n_laws * (n_freq // n_blocks + 1) > SPECTRA_BYTES and n_blocks < n_freq:
            n_blocks *= 2
        points = getattr(self.mechanic, "points", None)
        by_class = (n_blocks > 1 and points is not None and length & (length - 1) == 0
                    and length % n_blocks == 0)
        if by_class:
            m = length // n_blocks
            laws = []  # (row, points mod the grid, the same mod m, probabilities)
            for (law, g), i in plan.laws.items():
                at, p = points(law, unit, g)
                law_mean[i] = float(at @ p)
                at = at % length
                laws.append((i, at, at % m, p))
            for r in range(n_blocks):
                freqs = np.arange(r, n_freq, n_blocks)
                keep = len(freqs)
                psi_re = np.empty((n_laws, keep))
                psi_im = np.empty((n_laws, keep))
                for i, at, folded, p in laws:
                    twiddle = np.exp(-2j * np.pi * r * at / length) * p
                    y = (np.bincount(folded, weights=twiddle.real, minlength=m)
                         + 1j * np.bincount(folded, weights=twiddle.imag, minlength=m))
                    spectrum = np.fft.fft(y)[:keep]
                    psi_re[i] = spectrum.real
                    psi_im[i] = spectrum.imag
                re, im = _mixed_phi_kernel(plan.ptr, plan.law, plan.child, psi_re, psi_im,
                                           rows, mix, CHUNK)
                out[freqs] = re + 1j * im
        else:
            block = -(-n_freq // n_blocks)
            for b_lo in range(0, n_freq, block):
                b_hi = min(n_freq, b_lo + block)
                psi_re = np.empty((n_laws, b_hi - b_lo))
                psi_im = np.empty((n_laws, b_hi - b_lo))
                for (law, g), i in plan.laws.items():
                    spectrum, mu = self.mechanic.spectrum(law, length, unit, g)
                    psi_re[i] = spectrum.real[b_lo:b_hi]
                    psi_im[i] = spectrum.imag[b_lo:b_hi]
                    law_mean[i] = mu
                re, im = _mixed_phi_kernel(plan.ptr, plan.law, plan.child, psi_re, psi_im,
                                           rows, mix, CHUNK)
                out[b_lo:b_hi] = re + 1j * im
        means = _mean_kernel(plan.ptr, plan.law, plan.child, plan.weight / self.mechanic.cycle,
                             law_mean)
        rounded = sum(w / total * means[plan.index[s]] for w, s in starts)
        return out, rounded


class _Powers(list):
    """``D ** k`` for every ``k``, each computed once (exact integers)."""

    def __init__(self, base: int):
        super().__init__([1])
        self.base = base

    def __getitem__(self, k: int) -> int:
        while k >= len(self):
            self.append(list.__getitem__(self, len(self) - 1) * self.base)
        return list.__getitem__(self, k)


@dataclass(frozen=True, eq=False)
class _Plan:
    order: list
    index: dict
    laws: dict  # (credit law, multiplier) -> row of the spectra
    ptr: np.ndarray  # CSR over the states in order
    law: np.ndarray
    child: np.ndarray
    weight: np.ndarray


@njit(cache=True, parallel=True)
def _mixed_phi_kernel(ptr, law, child, psi_re, psi_im, rows, mix, chunk):
    """``sum_j mix[j] * phi[rows[j]]`` (real and imaginary parts) at every frequency of
    ``psi``, with ``phi[s] = sum over s's moves of psi[law] * phi[child]`` (1 at an end),
    states in order (children first). The parts are kept apart so that the loops run on
    vectors; the frequencies run in chunks of ``chunk`` (each chunk's rows stay in cache),
    the chunks in parallel."""
    n = ptr.shape[0] - 1
    n_freq = psi_re.shape[1]
    out_re = np.zeros(n_freq)
    out_im = np.zeros(n_freq)
    for b in prange((n_freq + chunk - 1) // chunk):
        lo = b * chunk
        k = min(n_freq, lo + chunk) - lo
        phi_re = np.empty((n, k))
        phi_im = np.empty((n, k))
        for i in range(n):
            a_re = phi_re[i]
            a_im = phi_im[i]
            if ptr[i] == ptr[i + 1]:
                a_re[:] = 1.0
                a_im[:] = 0.0
                continue
            a_re[:] = 0.0
            a_im[:] = 0.0
            for q in range(ptr[i], ptr[i + 1]):
                x_re = psi_re[law[q], lo:lo + k]
                x_im = psi_im[law[q], lo:lo + k]
                y_re = phi_re[child[q]]
                y_im = phi_im[child[q]]
                for f in range(k):
                    a_re[f] += x_re[f] * y_re[f] - x_im[f] * y_im[f]
                    a_im[f] += x_re[f] * y_im[f] + x_im[f] * y_re[f]
        for j in range(rows.shape[0]):
            for f in range(k):
                out_re[lo + f] += mix[j] * phi_re[rows[j], f]
                out_im[lo + f] += mix[j] * phi_im[rows[j], f]
    return out_re, out_im


@njit(cache=True)
def _mean_kernel(ptr, law, child, p, law_mean):
    """Expected (grid-rounded) win still to come from every state: ``E[s] = sum over moves
    of law_mean[law] + p * E[child]``, ``law_mean`` the move's rounded mean times its
    probability."""
    n = ptr.shape[0] - 1
    out = np.zeros(n)
    for i in range(n):
        acc = 0.0
        for q in range(ptr[i], ptr[i + 1]):
            acc += law_mean[law[q]] + p[q] * out[child[q]]
        out[i] = acc
    return out
