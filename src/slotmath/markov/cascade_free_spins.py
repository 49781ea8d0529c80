"""Free spins of a cascading game, with the cascade multiplier carried through them.

A free spin started at cascade index ``i`` pays ``y + beta*i*a``: ``y`` is its win with the
index started at 0 (cascade and free-spin multipliers applied, scatter pays if any), ``a`` the
sum of its drop wins before any multiplier, ``beta = step * free-spin multiplier`` when the
index is carried (the rule ``start + step*k`` is linear) and 0 when every free spin starts at
index 0. It ends at index ``i + c`` (``c`` cascades) and awards ``retrigger_for(n)`` spins for
``n`` trigger symbols, cut so the feature never exceeds ``max_spins``.

Because the win is affine in the carried index, the feature's win from a start of ``n`` spins
at index ``i0`` is ``W = beta*i0*X + Y`` with ``X`` the sum of ``a`` over its spins and
``Y = sum (y_j + beta*C_j*a_j)`` (``C_j``: cascades before spin ``j`` in the feature). The joint
moments of ``(X, Y)`` up to order 2 satisfy a backward recursion over the acyclic chain of
``(spins left, spins awarded)`` alone, so ``E[W]``, ``E[W^2]`` and ``P(W = 0)`` are exact
fractions for every ``(n, i0)`` from one solve of about ``max_spins^2 / 2`` states.

The distribution of ``W`` is numerical: ``(X, Y)`` pairs are drawn from the exact chain
(seeded), and ``W`` for any ``i0`` is read off the same pairs; the bound stated is the
Dvoretzky-Kiefer-Wolfowitz bound on the distance of the empirical CDF at 99.9% confidence
[DKW]_.

References
----------
.. [DKW] P. Massart, "The tight constant in the Dvoretzky-Kiefer-Wolfowitz inequality",
   *Ann. Probab.* 18, 1990, 1269-1283.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np
from numba import njit

from slotmath.markov.free_spins import SpinCountDistribution
from slotmath.model.game import FreeSpins

__all__ = ["CarriedFreeSpins", "CarriedIndex", "Moments", "carried_index_by_spin"]

#: Features drawn for the numerical distribution.
SAMPLES = 400_000
#: Confidence of the stated CDF bound.
CONFIDENCE = 0.999


@dataclass(frozen=True)
class Moments:
    """Exact moments of ``(X, Y)`` from one chain state, plus P(nothing won) and spins."""

    x: Fraction
    y: Fraction
    xx: Fraction
    xy: Fraction
    yy: Fraction
    zero: Fraction
    spins: Fraction


@dataclass(frozen=True, eq=False)
class CarriedFreeSpins:
    """The free-spin chain of ``spec`` on the per-spin law ``spin``.

    ``spin``: (y, a, trigger count, cascades) -> integer weight over ``cycle``; credits are
    ``credits_per_bet`` per total bet. ``beta``: see the module docstring.
    """

    spec: FreeSpins
    spin: dict
    cycle: int
    credits_per_bet: int
    beta: int

    @cached_property
    def _arrays(self):
        """The per-spin law as columns: y, a, trigger count, cascades, weight (int64, or
        Python integers where a value does not fit)."""
        if not self.spin:
            z = np.zeros(0, np.int64)
            return z, z, z, z, z
        if hasattr(self.spin, "keys_array"):  # a WeightTable: its columns as they are
            keys, w = self.spin.keys_array, self.spin.weights_array
            return keys[:, 0], keys[:, 1], keys[:, 2], keys[:, 3], w
        try:
            keys = np.array(list(self.spin), np.int64).reshape(-1, 4)
            w = np.array(list(self.spin.values()), np.int64)
        except OverflowError:
            keys = np.array(list(self.spin), dtype=object).reshape(-1, 4)
            w = np.array(list(self.spin.values()), dtype=object)
        return keys[:, 0], keys[:, 1], keys[:, 2], keys[:, 3], w

    @cached_property
    def _sums(self) -> dict:
        """Per trigger count n: the exact integer sums over its outcomes of w times
        (1, y, a, c, y*y, y*a, a*a, y*c, a*c, c*c) and the weight with y = 0."""
        y, a, n, c, w = self._arrays
        if not len(n):
            return {}
        # the rows grouped by trigger count (a radix sort of small counts), each group a slice
        order = np.argsort(_small(n), kind="stable")
        y, a, n, c, w = (x[order] for x in (y, a, n, c, w))
        starts = np.flatnonzero(np.concatenate([[True], n[1:] != n[:-1]])).tolist()
        out = {}
        for lo, hi in zip(starts, starts[1:] + [len(n)]):
            ys, as_, cs, ws = y[lo:hi], a[lo:hi], c[lo:hi], w[lo:hi]
            terms = [(None, None), (ys, None), (as_, None), (cs, None), (ys, ys), (ys, as_),
                     (as_, as_), (ys, cs), (as_, cs), (cs, cs)]
            e = [_exact_dot(ws, u, v) for u, v in terms]
            e.append(_exact_dot(ws[ys == 0]))
            out[int(n[lo])] = e
        return out

    @cached_property
    def _by_trigger(self) -> dict:
        """Per trigger count n: (p_n, conditional moments of y, a, c)."""
        out = {}
        for n, e in self._sums.items():
            w = e[0]
            out[n] = (Fraction(w, self.cycle),) + tuple(Fraction(v, w) for v in e[1:10]) + (
                Fraction(e[10], w),)
        return out

    def _child(self, left: int, awarded: int, n: int) -> tuple[int, int]:
        add = self.spec.retrigger_for(n) if self.spec.retrigger else 0
        if self.spec.max_spins is not None:
            add = min(add, self.spec.max_spins - awarded)
        return left - 1 + add, awarded + add

    @cached_property
    def _solve(self) -> tuple[dict, int]:
        """Moments of (X, Y) in credits from every (spins left, spins awarded) state, as
        integer numerators over ``cycle ** depth`` with ``depth = top - spins played``.

        Every term of the recursion is a per-trigger probability ``w_n / cycle`` times a
        conditional moment (together an integer sum over ``cycle``) times a child's value
        (whose depth is one less), so the numerators stay integers and no fraction is reduced
        until a start's moments are read (:meth:`moments`): the same exact values as a
        recursion in fractions, without a gcd per step."""
        cap = self.spec.max_spins
        if self.spec.retrigger and cap is None:
            raise ValueError("carried-multiplier free spins with retriggers need max_spins "
                             "(the chain is solved over spins left and spins awarded)")
        starts = {min(s, cap) if cap else s for s in self.spec.awards.values()}
        top = cap if cap is not None else max(starts)
        C = self.cycle
        power = [1]
        for _ in range(top + 1):
            power.append(power[-1] * C)
        memo: dict = {}
        b = self.beta
        sums = [(n, self._child, e) for n, e in self._sums.items()]
        # awarded only grows and left + played = awarded: order states by spins played
        order = sorted(((left, awarded) for awarded in range(1, top + 1)
                        for left in range(awarded + 1)),
                       key=lambda s: -(s[1] - s[0]))
        for left, awarded in order:
            depth = top - (awarded - left)
            if left == 0:
                memo[(left, awarded)] = (0, 0, 0, 0, 0, power[depth], 0)
                continue
            up = power[depth - 1]
            x = y = xx = xy = yy = z = sp = 0
            for n, child, (w, ey, ea, ec, eyy, eya, eaa, eyc, eac, ecc, ez) in sums:
                cx, cy, cxx, cxy, cyy, cz, csp = memo[child(left, awarded, n)]
                x += ea * up + w * cx
                y += ey * up + b * ec * cx + w * cy
                xx += eaa * up + 2 * ea * cx + w * cxx
                xy += (eya * up + b * eac * cx + ea * cy + ey * cx + b * ec * cxx + w * cxy)
                yy += (eyy * up + b * b * ecc * cxx + w * cyy + 2 * b * eyc * cx
                       + 2 * ey * cy + 2 * b * ec * cxy)
                z += ez * cz
                sp += w * up + w * csp
            memo[(left, awarded)] = (x, y, xx, xy, yy, z, sp)
        return memo, top

    def moments(self, spins: int) -> Moments:
        memo, top = self._solve
        state = (spins, spins)
        den = self.cycle ** (top - (state[1] - state[0]))
        return Moments(*(Fraction(v, den) for v in memo[state]))

    def mean(self, spins: int, index: int) -> Fraction:
        """E[W] in total bets for a feature of ``spins`` spins started at ``index``."""
        m = self.moments(spins)
        return (self.beta * index * m.x + m.y) / self.credits_per_bet

    def second_moment(self, spins: int, index: int) -> Fraction:
        m = self.moments(spins)
        bi = self.beta * index
        return (bi * bi * m.xx + 2 * bi * m.xy + m.yy) / self.credits_per_bet**2

    def spins_distribution(self, spins: int) -> SpinCountDistribution:
        """Exact law of the spins a feature of ``spins`` spins plays (forward over the chain:
        a feature ends having played every spin it was awarded). ``spins`` may be a start
        key ``(spins, index)``: the count does not depend on the index."""
        if isinstance(spins, tuple):
            spins = spins[0]
        cached = self._spin_laws.get(spins)
        if cached is None:
            cached = self._spin_laws[spins] = self._spins_distribution(spins)
        return cached

    @cached_property
    def _spin_laws(self) -> dict:
        """The laws :meth:`spins_distribution` has computed, by award (a feature's start key
        differs by its index, its spin law does not: computed once per award)."""
        return {}

    def _spins_distribution(self, spins: int) -> SpinCountDistribution:
        p_n = {n: v[0] for n, v in self._by_trigger.items()}
        layer = {(spins, spins): Fraction(1)}
        done: dict = defaultdict(Fraction)
        while layer:
            nxt: dict = defaultdict(Fraction)
            for (left, awarded), q in layer.items():
                if left == 0:
                    done[awarded] += q
                    continue
                for n, p in p_n.items():
                    nxt[self._child(left, awarded, n)] += q * p
            layer = nxt
            if len(done) and sum(done.values()) == 1:
                break
        return SpinCountDistribution(dict(sorted(done.items())), True, 0.0)

    def zero_probability(self, spins: int) -> Fraction:
        return self.moments(spins).zero

    def expected_spins(self, spins: int) -> Fraction:
        return self.moments(spins).spins

    # -- numerical distribution ----------------------------------------------------------
    @cached_property
    def _table(self):
        if hasattr(self.spin, "keys_array") and self.cycle < 1 << 53:  # a WeightTable
            # (weight and cycle exact as floats: the quotient is Python's, bit for bit)
            arr = self.spin.keys_array
            p = self.spin.weights_array.astype(np.float64) / float(self.cycle)
            return arr, p / p.sum()
        keys = list(self.spin)
        arr = np.array(keys, dtype=np.int64).reshape(-1, 4)
        p = np.array([self.spin[k] / self.cycle for k in keys])
        return arr, p / p.sum()

    def samples(self, spins: int, samples: int = SAMPLES, seed: int = 0):
        """(X, Y) pairs (credits) of ``samples`` features of ``spins`` spins, drawn from the
        exact chain."""
        rng = np.random.default_rng(seed)
        arr, p = self._table
        cum = np.cumsum(p)
        cap = self.spec.max_spins
        left = np.full(samples, spins, np.int64)
        awarded = np.full(samples, spins, np.int64)
        x = np.zeros(samples)
        y = np.zeros(samples)
        gained = np.zeros(samples)
        alive = left > 0
        awards = np.array([self.spec.retrigger_for(n) if self.spec.retrigger else 0
                           for n in range(int(arr[:, 2].max()) + 1)], np.int64)
        columns = tuple(np.ascontiguousarray(arr[:, j], np.int64) for j in range(4))
        while alive.any():
            idx = np.flatnonzero(alive).astype(np.int64)
            # each alive feature's spin: one uniform each, in order (the seeded stream)
            _play_spins(rng.random(idx.size), idx, cum, *columns, awards,
                        -1 if cap is None else cap, self.beta, x, y, gained, left, awarded)
            alive = left > 0
        return x, y

    def sampled(self, spins: int):
        """:meth:`samples` of ``spins`` spins at the defaults, drawn once (the same arrays
        each time: read them, do not write them)."""
        if spins not in self._sampled:
            self._sampled[spins] = self.samples(spins)
        return self._sampled[spins]

    @cached_property
    def _sampled(self) -> dict:
        return {}

    @staticmethod
    def bound(samples: int = SAMPLES) -> float:
        """DKW bound on the empirical CDF's distance at :data:`CONFIDENCE`."""
        return math.sqrt(math.log(2 / (1 - CONFIDENCE)) / (2 * samples))


# -- the carried index, spin by spin ---------------------------------------------------------
@dataclass(frozen=True)
class CarriedIndex:
    """Free spin number ``spin`` (1 = the first) of a feature: ``played`` = P(it is played),
    ``index_mass`` = E[index carried into it; it is played] for a start at index 0 (a start
    at ``i0`` adds ``i0 * played``). Both exact."""

    spin: int
    played: Fraction
    index_mass: Fraction

    def mean_index(self, start: int = 0) -> Fraction:
        """E[index carried into this spin | it is played], for a start at index ``start``."""
        return start + self.index_mass / self.played


def carried_index_by_spin(chain: CarriedFreeSpins, spins: int) -> tuple[CarriedIndex, ...]:
    """The cascade index a carried multiplier brings into each free spin, exactly.

    A forward pass over ``(spins left, spins awarded)`` (the index is not in the state): each
    state holds its probability ``q`` and ``r = E[index; state]``; a spin with ``n`` trigger
    symbols (probability ``p_n``, mean cascades ``E[c | n]``) moves ``p_n*q`` to its child and
    ``p_n*(r + q*E[c | n])`` with it, since a spin's outcome does not depend on the past.
    Spin ``j`` is played from the states where ``j - 1`` spins have been played.

    Parameters
    ----------
    chain : CarriedFreeSpins
    spins : int
        The spins the feature starts with.

    Returns
    -------
    tuple of CarriedIndex
        One per spin that can be played, in order.

    Examples
    --------
    Two spins, no retrigger; a spin cascades once with probability 1/2:

    >>> from slotmath.model.game import FreeSpins
    >>> spec = FreeSpins("S", {3: 2}, "free", 1, False, None)
    >>> chain = CarriedFreeSpins(spec, {(0, 0, 0, 0): 1, (5, 5, 0, 1): 1}, 2, 1, 1)
    >>> [(r.spin, r.played, r.mean_index()) for r in carried_index_by_spin(chain, 2)]
    [(1, Fraction(1, 1), Fraction(0, 1)), (2, Fraction(1, 1), Fraction(1, 2))]
    """
    # in integers: at depth d (spins played) a state's q and r are numerators over
    # cycle**d; a spin with n triggers (weight w_n of the cycle, cascade sum s_n = w_n E[c|n])
    # moves w_n Q and w_n R + s_n Q one depth down (the same fractions, no gcd per step)
    by = [(n, e[0], e[3]) for n, e in chain._sums.items()]  # n, w_n, s_n
    layer = {(spins, spins): (1, 0)} if spins > 0 else {}
    den = 1
    out = []
    while layer:
        out.append(CarriedIndex(len(out) + 1, Fraction(sum(q for q, _ in layer.values()), den),
                                Fraction(sum(r for _, r in layer.values()), den)))
        nxt: dict = {}
        for (left, awarded), (q, r) in layer.items():
            for n, w, s in by:
                child = chain._child(left, awarded, n)
                if child[0] == 0:
                    continue
                e = nxt.get(child)
                if e is None:
                    nxt[child] = [w * q, w * r + s * q]
                else:
                    e[0] += w * q
                    e[1] += w * r + s * q
        layer = {k: tuple(v) for k, v in nxt.items()}
        den *= chain.cycle
    return tuple(out)


def _small(n: np.ndarray) -> np.ndarray:
    """``n`` as int16 when its values fit (a stable sort of int16 is a radix sort), else
    ``n``."""
    if n.dtype != object and n.min() >= 0 and n.max() < 1 << 15:
        return n.astype(np.int16)
    return n


def _exact_dot(w: np.ndarray, u: np.ndarray | None = None, v: np.ndarray | None = None) -> int:
    """``sum(w * u * v)`` exactly (``u`` or ``v`` None: 1), as a Python integer: in int64
    where no product can overflow (every one when the columns' largest magnitudes say so,
    else row by row; summed as 32-bit halves, which cannot overflow either), the rest in
    Python integers."""
    if len(w) == 0:
        return 0
    arrays = [x for x in (w, u, v) if x is not None]
    if any(x.dtype == object for x in arrays):
        return int(sum(math.prod(int(x) for x in row) for row in zip(*arrays)))
    bound = math.prod(max(int(x.max()), -int(x.min())) for x in arrays)
    if bound * len(w) < 1 << 63:  # no product, and no sum of them, overflows
        return int(_product(arrays).sum())
    if bound < 1 << 61:
        return _sum_int64(_product(arrays))
    size = np.abs(arrays[0].astype(float))
    for x in arrays[1:]:
        size *= np.abs(x.astype(float))
    big = size >= 2.0**61
    out = sum(math.prod(int(x) for x in row) for row in zip(*(x[big] for x in arrays)))
    small = ~big
    return int(out) + _sum_int64(_product([x[small] for x in arrays]))


def _product(arrays: list) -> np.ndarray:
    out = arrays[0]
    for x in arrays[1:]:
        out = out * x
    return out


def _sum_int64(values: np.ndarray) -> int:
    """The sum of an int64 array, exactly (its parts' 32-bit halves summed apart)."""
    out = 0
    for i in range(0, len(values), 1 << 28):  # each part's halves sum below 2**62
        part = values[i:i + (1 << 28)]
        out += (int((part >> 32).sum()) << 32) + int((part & 0xFFFFFFFF).sum())
    return out


@njit(cache=True)
def _play_spins(u, idx, cum, ys, as_, ns, cs, awards, cap, beta, x, y, gained, left, awarded):
    """One free spin of each feature ``idx[j]``, drawn by the uniform ``u[j]``: the row
    ``numpy.searchsorted(cum, u[j])`` (the first whose cumulative probability reaches it; the
    last row at most) of the per-spin law's columns, added to the feature's sums as
    :meth:`CarriedFreeSpins.samples` states (the same floating-point operations, in the same
    order, as its array form ``y[idx] += yy + beta * gained[idx] * aa``)."""
    n = cum.shape[0]
    for j in range(idx.shape[0]):
        i = idx[j]
        v = u[j]
        lo, hi = 0, n
        while lo < hi:
            mid = (lo + hi) >> 1
            if cum[mid] < v:
                lo = mid + 1
            else:
                hi = mid
        pick = min(lo, n - 1)
        aa = as_[pick]
        x[i] += aa
        y[i] += ys[pick] + beta * gained[i] * aa
        gained[i] += cs[pick]
        add = awards[ns[pick]]
        if cap >= 0:
            add = min(add, cap - awarded[i])
        awarded[i] += add
        left[i] += add - 1
