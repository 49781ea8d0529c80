"""Composition of features: spin features folded into a spin, round features into a round.

Folding (exact). A spin feature adds to a spin with mark value ``v`` an independent win of
law ``L_v`` (exact weights, total ``T_v``). The folded spin's weights are kept whole by giving
every outcome the denominator ``cycle x lcm(T_v)``: an outcome of weight ``w`` and mark ``v``
becomes ``w x lcm / T_v x L_v(x)`` at credits ``c x window multiplier + x``.

The round (exact moments, numerical distribution). The paid spin's outcome ``(marks, b)``
starts each round feature ``f`` with key ``k_f = f.start(mark_f)`` (None: not started); the
started features then run independently of the paid spin and of each other, so the round
``R = B + sum_f F_f`` has, summing over the groups ``g`` of equal keys,

* ``E[R] = E[B] + sum_g P(g) sum_f E[F_f]``
* ``E[R^2] = E[B^2] + sum_g (2 E[B 1{g}] sum_f E[F_f] + P(g) E[(sum_f F_f)^2])``
* ``P(R = 0) = sum_g P(B = 0, g) prod_f P(F_f = 0)``

and its distribution is the mixture over groups of the base credits convolved with each
started feature's law, by FFT on one grid, or, for a group whose one law has few atoms (a
sampled law), pair by pair (:data:`DIRECT_COST`); the base part without any feature stays exact.
"""

from __future__ import annotations

import math
import operator
import os
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

if TYPE_CHECKING:
    import sympy

from slotmath.exact.distribution import NumericWinDistribution
from slotmath.exact.spin_table import MarkedTable, MeanTable

__all__ = ["MAX_GRID", "RoundLaw", "column", "fold", "fold_events"]

#: Most points of the round distribution's FFT grid (2**23: 64 MB a real array). A round whose
#: wins need more on the exact grid (its gcd of credits) is computed on a coarser grid, each
#: win rounded to the nearest point; the rounding is stated (``rounding_bets``).
MAX_GRID = 1 << 23


def fold(table: MarkedTable, feature, multiplier: int = 1) -> tuple[MarkedTable, Fraction]:
    """The spin with ``feature``'s win folded in, and that win's exact mean per spin (bets).

    ``table``'s credits are taken as they stand (already multiplied); ``multiplier`` is the
    spin's win multiplier, which the feature's law applies where its rules say so. The
    feature's mark is summed out of the result.

    Examples
    --------
    >>> from slotmath.exact.distribution import WinDistribution
    >>> class Coin:                      # one extra bet on a spin whose mark is 1
    ...     mark = type("M", (), {"kind": "bonus"})()
    ...     def law(self, v, m):
    ...         return WinDistribution.from_mapping({0: 1, 2: 1} if v else {0: 1}, 2)
    >>> t = MarkedTable(("bonus",), {(0, 0): 3, (1, 2): 1}, 4, 2)
    >>> folded, added = fold(t, Coin())
    >>> folded.weights, folded.cycle, added
    ({(0,): 6, (2,): 1, (4,): 1}, 8, Fraction(1, 8))
    """
    i = table.mark_index(column(feature.mark))
    laws = {v: feature.law(v, multiplier)
            for v in sorted({key[i] for key in table.weights})}
    denominator = math.lcm(*(law.total for law in laws.values()))
    if any(law.credits_per_bet != table.credits_per_bet for law in laws.values()):
        raise ValueError("a spin feature's law must be in the spin's credits")
    pairs = {v: list(zip(law.credits.tolist(), law.weights.tolist())) for v, law in laws.items()}
    out: dict[tuple[int, ...], int] = {}
    added = 0
    for key, w in table.weights.items():
        v = key[i]
        scale = w * (denominator // laws[v].total)
        rest = key[:i] + key[i + 1:-1]
        base = key[-1]
        for x, wx in pairs[v]:
            k = (*rest, base + x)
            out[k] = out.get(k, 0) + scale * wx
            added += scale * wx * x
    marks = table.marks[:i] + table.marks[i + 1:]
    cycle = table.cycle * denominator
    return (MarkedTable(marks, out, cycle, table.credits_per_bet, table.trigger_cap),
            Fraction(added, cycle * table.credits_per_bet))


def fold_events(table: MarkedTable, feature) -> MarkedTable:
    """The spin with its credits replaced by how often ``feature`` plays (``credits_per_bet``
    1), for a stationary feature driven by those events (the wheel spins of a jackpot)."""
    i = table.mark_index(column(feature.mark))
    out: dict[tuple[int, ...], int] = {}
    for key, w in table.weights.items():
        k = (*key[:i], *key[i + 1:-1], feature.events(key[i]))
        out[k] = out.get(k, 0) + w
    return MarkedTable(table.marks[:i] + table.marks[i + 1:], out, table.cycle, 1,
                       table.trigger_cap)


def column(mark) -> str:
    """The table column of a feature's ``mark`` (its ``column``, else its ``kind``)."""
    return getattr(mark, "column", mark.kind)


def _last_column(weights) -> list[int]:
    """The last entry of every key of a table's weights (the win), as Python ints: read off
    a :class:`~slotmath.exact.cascades.WeightTable`'s key array at once."""
    if hasattr(weights, "keys_array"):
        return weights.keys_array[:, -1].tolist()
    return [key[-1] for key in weights]


def _key_arrays(weights, idx: list[int]) -> tuple[np.ndarray, np.ndarray] | None:
    """A table's weights held as a dict, as arrays: its keys (int64, one row per key, in
    the dict's order) and its weights (an object array of the same Python ints); None for a
    table held as arrays already, one without marks to group by (``idx`` empty) or keys
    past int64."""
    if hasattr(weights, "keys_array") or not idx or not len(weights):
        return None
    try:
        keys = np.array(list(weights), dtype=np.int64)
    except (OverflowError, ValueError):  # (keys past int64, or of unequal lengths)
        return None
    if keys.ndim != 2:
        return None
    ws = np.empty(len(keys), dtype=object)
    ws[:] = list(weights.values())
    return keys, ws


def _summed_by(values: np.ndarray, weights: np.ndarray) -> tuple[list[int], list[int]]:
    """The distinct ``values`` (ascending) and the summed int64 ``weights`` of each, as
    Python ints (the caller knows no sum passes int64).

    >>> _summed_by(np.array([5, 0, 5, 2]), np.array([1, 2, 3, 4]))
    ([0, 2, 5], [2, 4, 4])
    """
    if not len(values):
        return [], []
    order = np.argsort(values, kind="stable")
    v = values[order]
    at = np.flatnonzero(np.concatenate(([True], v[1:] != v[:-1])))
    return v[at].tolist(), np.add.reduceat(weights[order], at).tolist()


def _coarsening(top_b: int, started: dict, dense: list, unit: int, g: int) -> int:
    """By how many exact grid steps ``g`` to widen the round's grid so that its FFT holds
    at most :data:`MAX_GRID` points (1: the exact grid fits)."""
    longest = 0
    for grp in started:
        n = top_b + 1
        for j, k in enumerate(grp):
            if k is not None:
                d = dense[j][k]
                n += (d.step * (unit // d.credits_per_bet) // g or 1) * (_points(d) - 1)
        longest = max(longest, n)
    size = 1 << max(1, math.ceil(math.log2(max(longest, 2))))
    return 1 if size <= MAX_GRID else -(-longest // (MAX_GRID // 2))


def _points(law) -> int:
    """Points of a dense law's grid (``len(law.probs)``; a law that computes its ``probs`` when
    read, :class:`slotmath.features.cascades.SampledLaw`, says it as ``points``)."""
    points = getattr(law, "points", None)
    return len(law.probs) if points is None else points


def _smooth_len(n: int) -> int:
    """The least ``2^a 3^b 5^c >= n``: an FFT length that numpy's pocketfft does fast (a
    length of 3e6 takes a third of the time of 2^22 on a 2-core machine)."""
    best = 1 << max(0, (n - 1).bit_length())
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best


def _grid_size(length: int, steps: list[int]) -> int:
    """The FFT length of the round's grid: at least ``length`` (no wrap-around), 5-smooth,
    and a multiple of every spacing in ``steps`` when their lcm is 5-smooth and small against
    ``length`` (then a law on every ``k``-th point is transformed at length ``size / k``:
    :func:`_spectrum`)."""
    k = math.lcm(1, *steps)
    if k > 1 and _smooth_len(k) == k and k * 64 <= length:
        return k * _smooth_len(-(-length // k))
    return _smooth_len(length)


@njit(cache=True)
def _onto_grid(probs, s, h, g):
    """``numpy.bincount((arange(len(probs)) * s + h) // g, weights=probs)`` without the index
    array: each point ``i s`` moved to the grid point nearest it (``h = g // 2``), added in
    the same order, so the same floats (Frozen Gems: 19 laws of ~7 M points each, 6.6 s as
    numpy arrays)."""
    n = probs.shape[0]
    if n == 0:
        return np.zeros(0)
    out = np.zeros(((n - 1) * s + h) // g + 1)
    for i in range(n):
        out[(i * s + h) // g] += probs[i]
    return out


@njit(cache=True)
def _onto_points(idx, probs, s, h, g):
    """:func:`_onto_grid` of a law given by its atoms (``probs[j]`` at point ``idx[j]``,
    ``idx`` ascending): the grid points that get mass and what they get, the same floats (a
    point without an atom adds an exact 0.0 there; the atoms are added in the same order)."""
    n = idx.shape[0]
    points = np.empty(n, np.int64)
    mass = np.empty(n)
    k = 0
    for j in range(n):
        at = (idx[j] * s + h) // g
        if k and points[k - 1] == at:
            mass[k - 1] += probs[j]
        else:
            points[k] = at
            mass[k] = 0.0 + probs[j]
            k += 1
    return points[:k], mass[:k]


@njit(cache=True, nogil=True)  # (it runs on a thread beside the FFTs)
def _add_products(out, pa, ma, pb, mb):
    """``out[pa[i] + pb[j]] += ma[i] * mb[j]`` for every pair: the convolution of two laws
    given by their atoms, added to ``out`` (a row of ``a`` at a time)."""
    for i in range(pa.shape[0]):
        x, m = pa[i], ma[i]
        for j in range(pb.shape[0]):
            out[x + pb[j]] += m * mb[j]


def _atoms(law) -> tuple[np.ndarray, np.ndarray]:
    """A dense law's atoms: its grid points with a nonzero probability (ascending) and those
    probabilities, ``probs[points]`` bit for bit (a law that knows them without its dense
    ``probs``, :class:`slotmath.features.cascades.SampledLaw`, says them as ``atoms()``)."""
    atoms = getattr(law, "atoms", None)
    if atoms is not None:
        return atoms()
    probs = np.asarray(law.probs, np.float64)
    idx = np.flatnonzero(probs)
    return idx.astype(np.int64), probs[idx]


#: the convolution of a group's paid-spin part with its one feature law is summed pair by pair
#: (:func:`_add_products`) when ``DIRECT_COST`` times its pairs are fewer than the two FFTs of
#: length ``size`` it saves, ``2 size log2(size)`` (Frozen Gems: 12 of its 19 groups, at most
#: ~4,300 x ~7,100 atoms, ~0.2 s in all, against FFTs of 4.1e6 points, ~0.1 s each; its other 7
#: groups, up to ~1e5 x 2e4 atoms, stay with FFT). A pair costs about as much as a point of an
#: FFT's butterfly; 4 leaves a margin for its scattered writes.
DIRECT_COST = 4


def _in_threads(fn, items: list, ahead: int = 0):
    """``fn(item)`` for every item, in order, on up to 2 threads (the cores this runs on; 1
    inside a chunk already running on a worker): for work that lets go of the GIL, numpy's
    FFTs. At most ``threads + ahead`` items are in hand at once (submitted, not yet read):
    ``ahead`` keeps the threads busy while the reader waits on a long first item."""
    from slotmath.exact.workers import default_workers

    threads = min(default_workers(), os.cpu_count() or 1, len(items))
    if threads <= 1:
        yield from map(fn, items)
        return
    with ThreadPoolExecutor(threads) as pool:
        waiting = deque(pool.submit(fn, item) for item in items[:threads + ahead])
        for item in items[threads + ahead:]:
            yield waiting.popleft().result()
            waiting.append(pool.submit(fn, item))
        while waiting:
            yield waiting.popleft().result()


def _spectrum(probs: np.ndarray, k: int, size: int) -> np.ndarray:
    """``rfft`` at length ``size`` of the array holding ``probs[i]`` at point ``i k`` (zeros
    between). When ``k`` divides ``size`` that spectrum is the length-``size / k`` DFT of
    ``probs`` repeated (bin ``j`` is bin ``j mod (size / k)``), so the FFT is ``k`` times
    shorter; else the spread array is transformed."""
    if k > 1 and size % k == 0:
        m = size // k
        half = np.fft.rfft(probs, m)  # bins 0 .. m // 2; the rest by conjugate symmetry
        full = np.concatenate((half, np.conj(half[(m - 1) // 2:0:-1])))
        return np.resize(full, size // 2 + 1)
    if k == 1:
        return np.fft.rfft(probs, size)
    spread = np.zeros(k * (len(probs) - 1) + 1)
    spread[::k] = probs
    return np.fft.rfft(spread, size)


def _order(group: tuple) -> tuple:
    """Sort key of a group of started keys (None, not started, first)."""
    return tuple((0, 0) if k is None else (1, k) for k in group)


def _exact_sum(terms) -> Fraction | sympy.Expr:
    """Sum of Fractions and (rarely) exact sympy numbers: a Fraction when all are Fractions."""
    terms = list(terms)
    if all(isinstance(t, (int, Fraction)) for t in terms):
        return sum(terms, Fraction(0))
    import sympy  # only for the rare exact sympy terms: a fresh start does not import it

    return sum((sympy.Rational(t.numerator, t.denominator) if isinstance(t, (int, Fraction))
                else t for t in terms), sympy.Integer(0))


@dataclass(frozen=True, eq=False)
class RoundLaw:
    """The paid round: the paid spin ``base`` and the round features it can start.

    ``base`` counts, besides its credits, the mark of each feature in ``features``.

    Examples
    --------
    A paid spin that pays 1 bet with probability 1/4 and otherwise, with probability 1/4,
    starts 2 free spins at x2 that each pay 1 bet with probability 1/2:

    >>> from slotmath.exact.spin_table import SpinTable
    >>> from slotmath.features.free_spins import FreeSpinsRound
    >>> from slotmath.model.game import FreeSpins
    >>> base = MarkedTable(("trigger",), {(0, 0): 2, (0, 1): 1, (1, 0): 1}, 4, 1, 1)
    >>> free = SpinTable({(0, 0): 1, (0, 1): 1}, 2, 1, 1)
    >>> r = RoundLaw(base, (FreeSpinsRound(FreeSpins("S", {1: 2}, multiplier=2), free),))
    >>> r.mean, r.hit_frequency, r.feature_mean("free_spins")
    (Fraction(3, 4), Fraction(7, 16), Fraction(1, 2))
    """

    base: MarkedTable
    features: tuple = ()

    @cached_property
    def _groups(self) -> dict[tuple, tuple[int, int, int, int]]:
        """Started keys -> (weight, sum b w, sum b^2 w, weight with b == 0)."""
        idx = [self.base.mark_index(column(f.mark)) for f in self.features]
        weights = self.base.weights
        arrays = _key_arrays(weights, idx)
        rows = self._row_groups(idx, arrays) if arrays is not None else self._mark_rows
        if rows is not None:  # the table's keys as arrays: each group's sums at once, exactly
            keys, ws_all = arrays if arrays is not None else (weights.keys_array,
                                                              weights.weights_array)
            out = {}
            small = False  # int64 weights whose absolute values add up below 2**62
            if ws_all.dtype == np.int64 and len(ws_all) < 1 << 31:
                a = np.abs(ws_all)  # (summed as 32-bit halves: no sum can overflow)
                small = (int((a >> 32).sum()) << 32) + int((a & 0xFFFFFFFF).sum()) < 1 << 62
            for g, at in rows.items():
                if small:  # each win's weight summed first (int64: every sum is at most the
                    # total), then the Python sums over the distinct wins: the same integers
                    bs, ws = _summed_by(keys[at, -1], ws_all[at])
                else:
                    bs = keys[at, -1].tolist()
                    ws = ws_all[at].tolist()  # (Python ints: from an object array, as they were)
                bw = list(map(operator.mul, bs, ws))
                out[g] = (sum(ws), sum(bw), sum(map(operator.mul, bs, bw)),
                          sum(w for b, w in zip(bs, ws) if b == 0))
            return out
        acc: dict[tuple, list[int]] = {}
        started = self._starter(idx)
        for key, w in self.base.weights.items():
            g = started(key)
            b = key[-1]
            e = acc.setdefault(g, [0, 0, 0, 0])
            e[0] += w
            e[1] += b * w
            e[2] += b * b * w
            e[3] += w if b == 0 else 0
        return {g: tuple(v) for g, v in acc.items()}

    @cached_property
    def _mark_rows(self) -> dict | None:
        """:meth:`_row_groups` of the features' mark columns (the groups' sums and the
        distribution both read it: made once)."""
        return self._row_groups([self.base.mark_index(column(f.mark)) for f in self.features])

    def _row_groups(self, idx: list[int], arrays: tuple | None = None) -> dict | None:
        """For a base table held as arrays (``keys_array`` and ``weights_array``, as the
        lean tables of the engines are), or whose keys ``arrays`` holds
        (:func:`_key_arrays`): started keys -> the rows that start them (increasing), the
        groups in the order their first rows come, as the row loop meets them; None for any
        other table."""
        weights = self.base.weights
        if arrays is not None:
            keys = arrays[0]
        elif hasattr(weights, "keys_array"):
            keys = weights.keys_array
        else:
            return None
        if not idx or not len(keys):
            return None
        from slotmath.exact.spin_table import unique_rows

        uniq, first, inverse = unique_rows(keys[:, idx])
        group_of: dict = {}  # started keys -> group number, in the order of first rows
        number = np.empty(len(uniq), np.int64)
        for u in np.argsort(first, kind="stable").tolist():
            g = tuple(f.start(m) for f, m in zip(self.features, uniq[u].tolist()))
            number[u] = group_of.setdefault(g, len(group_of))
        row_group = number[inverse]
        order = np.argsort(row_group, kind="stable")
        bounds = np.searchsorted(row_group[order], np.arange(len(group_of) + 1))
        return {g: order[bounds[n]:bounds[n + 1]] for g, n in group_of.items()}

    def _starter(self, idx: list[int]):
        """``key -> tuple(f.start(key[i]) ...)`` over the features and their mark columns
        ``idx``, each distinct tuple of marks computed once (a table has many rows, few
        distinct marks)."""
        memo: dict = {}
        features = self.features

        def started(key) -> tuple:
            marks = tuple([key[i] for i in idx])
            g = memo.get(marks)
            if g is None:
                g = memo[marks] = tuple(f.start(m) for f, m in zip(features, marks))
            return g

        return started

    def _laws(self, g: tuple):
        return [f.law(k) for f, k in zip(self.features, g) if k is not None]

    def start_probabilities(self, name: str) -> dict:
        """P(the paid spin starts feature ``name`` with key k), per started key."""
        j = [f.name for f in self.features].index(name)
        out: dict = {}
        for g, (w, *_rest) in self._groups.items():
            if g[j] is not None:
                out[g[j]] = out.get(g[j], 0) + Fraction(w, self.base.cycle)
        return dict(sorted(out.items()))

    def feature_mean(self, name: str) -> Fraction:
        """Expected win of feature ``name`` per paid round, in total bets."""
        j = [f.name for f in self.features].index(name)
        f = self.features[j]
        return sum((p * f.law(k).mean for k, p in self.start_probabilities(name).items()),
                   Fraction(0))

    def feature_spins(self, name: str) -> Fraction:
        """Expected spins that feature ``name`` plays per paid round."""
        f = self.features[[f.name for f in self.features].index(name)]
        return sum((p * f.law(k).spins for k, p in self.start_probabilities(name).items()),
                   Fraction(0))

    @cached_property
    def mean(self) -> Fraction:
        """Expected round win, in the base table's bets (its credits / credits_per_bet)."""
        cyc, cpb = self.base.cycle, self.base.credits_per_bet
        total = Fraction(sum(v[1] for v in self._groups.values()), cyc * cpb)
        return total + sum((self.feature_mean(f.name) for f in self.features), Fraction(0))

    def _whole(self, what: str) -> None:
        """Refuse ``what`` of a round whose paid spin holds its mean alone."""
        if isinstance(self.base, MeanTable):
            self.base._refuse(f"the round's {what}")

    @cached_property
    def second_moment(self) -> Fraction:
        """``E[R^2]``, exactly."""
        self._whole("second moment")
        cyc, cpb = self.base.cycle, self.base.credits_per_bet
        total = Fraction(sum(v[2] for v in self._groups.values()), cyc * cpb * cpb)
        for g, (w, b1, _, _) in self._groups.items():
            laws = self._laws(g)
            if not laws:
                continue
            mu = sum((law.mean for law in laws), Fraction(0))
            square = sum((law.second_moment for law in laws), Fraction(0))
            square += sum(2 * a.mean * b.mean for i, a in enumerate(laws) for b in laws[i + 1:])
            total += 2 * Fraction(b1, cyc * cpb) * mu + Fraction(w, cyc) * square
        return total

    @cached_property
    def variance(self) -> Fraction:
        return self.second_moment - self.mean**2

    @cached_property
    def std(self) -> float:
        return math.sqrt(self.variance)

    @cached_property
    def hit_frequency(self) -> Fraction | sympy.Expr:
        """Exact P(round win > 0) (an exact sympy number in the rare case noted in
        :meth:`slotmath.markov.free_spins.FreeSpinsFeature.zero_win_probability`)."""
        cyc = self.base.cycle
        terms = [Fraction(self.base.hit_weight, cyc)]
        for g, (_, _, _, zero) in self._groups.items():
            laws = self._laws(g)
            if laws and zero:
                none = math.prod((law.zero_probability for law in laws), start=Fraction(1))
                terms.append(Fraction(zero, cyc) * (1 - none))
        return _exact_sum(terms)

    def distribution(self) -> NumericWinDistribution:
        """The round's win distribution (see the module notes), in credits of one grid.

        ``aliased_mass_bound`` is the start-weighted sum of the features' grid bounds.
        """
        self._whole("distribution")
        base, cyc = self.base, self.base.cycle
        started = {g: self._groups[g] for g in sorted(self._groups, key=_order)
                   if any(k is not None for k in g)}
        if not started:
            acc = base.credits_weights()
            credits = np.array(sorted(acc), dtype=np.int64)
            probs = np.array([acc[c] / cyc for c in credits.tolist()])
            return NumericWinDistribution(credits, probs, base.credits_per_bet)
        dense = []
        for j, f in enumerate(self.features):
            keys = sorted({g[j] for g in started if g[j] is not None})
            dense.append(f.dense(keys) if keys else {})
        cpbs = [base.credits_per_bet] + [d.credits_per_bet for laws in dense
                                         for d in laws.values()]
        unit = math.lcm(*cpbs)
        sb = unit // base.credits_per_bet
        g = 0
        for laws in dense:
            for d in laws.values():
                g = math.gcd(g, d.step * (unit // d.credits_per_bet))
        wins = _last_column(base.weights)
        g = math.gcd(g, sb * math.gcd(*wins))
        g = g or 1
        top = max(wins) * sb
        coarse = _coarsening(top // g, started, dense, unit, g)
        g *= coarse
        top_b = (top + g // 2) // g
        marks = [base.mark_index(column(f.mark)) for f in self.features]
        # each group's points and masses, in the table's order; made a dense array one group
        # at a time (:func:`numpy.add.at` adds in that order: the sums of ``part[i] += p``)
        points: dict[tuple, tuple[list, list]] = {}
        rows = self._mark_rows
        if rows is not None and cyc < 1 << 53 and top < 1 << 62 \
                and int(base.weights.weights_array.max()) < 1 << 53:
            # arrays: each row's point and mass at once, in the table's order within each
            # group (the masses w / cyc bit for bit: both exact as float64, one rounding)
            wins = base.weights.keys_array[:, -1] * sb
            at_all = (wins + g // 2) // g if coarse > 1 else wins // g
            mass = base.weights.weights_array.astype(np.float64) / float(cyc)
            points = {grp: (at_all[at], mass[at]) for grp, at in rows.items()}
        started_by = self._starter(marks)
        for key, w in (base.weights.items() if not points else ()):
            grp = started_by(key)
            at = points.get(grp)
            if at is None:
                at = points[grp] = ([], [])
            at[0].append((key[-1] * sb + g // 2) // g if coarse > 1 else key[-1] * sb // g)
            at[1].append(w / cyc)

        def part_of(grp) -> np.ndarray:
            part = np.zeros(top_b + 1)
            np.add.at(part, np.asarray(points[grp][0], np.int64), np.asarray(points[grp][1]))
            return part

        # a group's paid-spin part as its nonzero points and their masses, made once: the
        # budget below reads it, and the group's FFT remakes the same dense array from it (its
        # masses are sums of w / cyc > 0, so its zeros are the points without an atom)
        part_atoms: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

        def atoms_of_part(grp) -> tuple[np.ndarray, np.ndarray]:
            got = part_atoms.get(grp)
            if got is None:
                part = part_of(grp)
                at = np.flatnonzero(part)
                got = part_atoms[grp] = (at, part[at])
            return got

        def dense_part(grp) -> np.ndarray:
            at, mass = atoms_of_part(grp)
            part = np.zeros(top_b + 1)
            part[at] = mass
            return part

        def spacing(d) -> int:  # a law's points on the round's grid: every k-th point
            return 1 if coarse > 1 else d.step * (unit // d.credits_per_bet) // g or 1

        def expanded(d) -> np.ndarray:  # the law's probabilities at every spacing(d)-th point
            if coarse > 1:  # each point to the nearest point of the coarse grid
                at, mass = law_atoms(d)  # (:func:`_onto_grid` of its probs, the same floats)
                out = np.zeros(expanded_length(d))
                out[at] = mass
                return out
            return d.probs  # (step 0: a point at 0)

        def expanded_length(d) -> int:  # the points d spans on the round's grid
            n, s = _points(d) - 1, d.step * (unit // d.credits_per_bet)
            return (n * s + g // 2) // g + 1 if coarse > 1 else (s // g or 1) * n + 1

        length = max(top_b + 1 + sum(expanded_length(dense[j][k]) - 1
                                     for j, k in enumerate(grp) if k is not None)
                     for grp in started)
        size = _grid_size(length, [spacing(dense[j][k]) for grp in started
                                   for j, k in enumerate(grp) if k is not None])

        law_atoms_made: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # by id of the law

        def law_atoms(d) -> tuple[np.ndarray, np.ndarray]:  # its atoms on the round's grid
            got = law_atoms_made.get(id(d))  # (made once: a group's budget and its FFT read it)
            if got is None:
                idx, probs = _atoms(d)
                if coarse > 1:
                    got = _onto_points(idx, probs, d.step * (unit // d.credits_per_bet),
                                       g // 2, g)
                else:
                    got = idx * spacing(d), probs
                law_atoms_made[id(d)] = got
            return got

        # groups whose one feature law is sparse enough: summed pair by pair; the others
        # through one FFT grid. The sums join the FFT's output before its noise floor, so
        # that the floor (and what it drops) is the one the FFT of every group would have
        # had, up to that FFT's own roundoff
        direct_groups = []
        fft_groups = []
        budget = 2 * size * math.log2(size) / DIRECT_COST
        for grp in started:
            laws = [dense[j][k] for j, k in enumerate(grp) if k is not None]
            if len(laws) == 1:
                at, _ = atoms_of_part(grp)
                if len(at) * len(law_atoms(laws[0])[0]) <= budget:
                    direct_groups.append(grp)
                    continue
            fft_groups.append(grp)

        def direct_sums() -> np.ndarray:  # the pairwise groups, in order, into one array
            out = np.zeros(length)
            for grp in direct_groups:
                at, mass = part_atoms.pop(grp)
                pl, ml = law_atoms(next(dense[j][k] for j, k in enumerate(grp)
                                        if k is not None))
                _add_products(out, at, mass, pl, ml)
            return out

        def transform(task) -> np.ndarray:  # one task: the sums, or one FFT of a group
            if task is None:
                return direct_sums()
            grp, j = task
            if j is None:  # the group's paid-spin part
                return np.fft.rfft(dense_part(grp), size)
            d = dense[j][grp[j]]
            return _spectrum(expanded(d), spacing(d), size)

        # each FFT (a group's part, each of its laws) a task of its own and the pairwise sums
        # one more, first, on the pool (numpy's FFT and the sums' kernel let go of the GIL;
        # spread out, the laws take GBs at once, so two are in hand at most); a group's
        # spectrum is its part's times its laws', in that order, and the groups' are added up
        # in their order: the same floats as one group at a time
        tasks = ([None] if direct_groups else []) + [
            (grp, j) for grp in fft_groups
            for j in [None] + [j for j, k in enumerate(grp) if k is not None]]
        results = _in_threads(transform, tasks)
        direct = next(results) if direct_groups else None
        convolved = np.zeros(length)
        if fft_groups:
            spectrum = np.zeros(size // 2 + 1, dtype=complex)
            for grp in fft_groups:
                spec = next(results)
                for _ in range(sum(k is not None for k in grp)):
                    spec *= next(results)
                spectrum += spec
            convolved = np.fft.irfft(spectrum, size)[:length]
        results.close()  # (every task read: the pool is shut down)
        if direct is not None:
            convolved += direct
        exact = np.zeros(length)
        none = tuple(None for _ in self.features)
        if none in points:  # no feature: exact, kept clear of the noise floor
            exact[: top_b + 1] = part_of(none)
        credits, probs, dropped, floor, dropped_bound = NumericWinDistribution.denoised(
            convolved, g, exact)
        bound = sum(float(Fraction(w, cyc)) * sum(dense[j][k].error for j, k in enumerate(grp)
                                                  if k is not None)
                    for grp, (w, *_r) in started.items())
        out = NumericWinDistribution(credits, probs, unit, bound, dropped, floor, dropped_bound)
        # how far a win may have moved to reach the grid: the coarse grid's half step for the
        # paid spin and each started feature, plus what each feature's own law rounded
        rounding = 0.0
        if coarse > 1:
            rounding = (1 + len(self.features)) * (g // 2) / unit
        rounding += max((sum(dense[j][k].rounding * (unit // dense[j][k].credits_per_bet)
                             for j, k in enumerate(grp) if k is not None)
                         for grp in started), default=0.0) / unit
        object.__setattr__(out, "rounding_bets", rounding)
        return out
