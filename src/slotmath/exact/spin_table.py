"""The exact result of full-cycle enumeration of one spin."""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np


@dataclass(frozen=True)
class SpinTable:
    """Exact joint weights of one spin over the full cycle.

    Attributes
    ----------
    weights : mapping (trigger_count, credits) -> int
        ``trigger_count`` is the number of free-spin trigger symbols in the window (0 for
        a game without free spins; capped at the top count that matters, see
        ``trigger_cap``); ``credits`` is everything the window pays (lines or ways plus
        scatters) in the pay model's integer credits. Zero weights are left out.
    cycle : int
        Total weight of all stop combinations (the product of the reels' cycles).
    credits_per_bet : int
        Credits in one total bet.
    trigger_cap : int
        Counts at or above this value are stored as this value (0 without free spins).

    Examples
    --------
    >>> t = SpinTable({(0, 0): 3, (0, 10): 1}, 4, 10, 0)
    >>> t.mean_bets, t.hit_weight
    (Fraction(1, 4), 1)
    """

    weights: Mapping[tuple[int, int], int]
    cycle: int
    credits_per_bet: int
    trigger_cap: int = 0

    def __post_init__(self):
        if sum(self.weights.values()) != self.cycle:
            raise ValueError("spin table weights do not add up to the cycle")

    @cached_property
    def mean_bets(self) -> Fraction:
        """Expected win of the spin in total bets."""
        total = sum(c * w for (_, c), w in self.weights.items())
        return Fraction(total, self.cycle * self.credits_per_bet)

    @cached_property
    def hit_weight(self) -> int:
        """Weight of the stop combinations that pay anything."""
        return sum(w for (_, c), w in self.weights.items() if c > 0)

    def credits_weights(self) -> dict[int, int]:
        """Marginal weights of the win, trigger count summed out."""
        out: dict[int, int] = {}
        for (_, c), w in self.weights.items():
            out[c] = out.get(c, 0) + w
        return out

    def trigger_weights(self) -> dict[int, int]:
        """Marginal weights of the trigger count."""
        out: dict[int, int] = {}
        for (t, _), w in self.weights.items():
            out[t] = out.get(t, 0) + w
        return out


@dataclass(frozen=True)
class LineTriggerTable:
    """Exact joint weights of one spin with a line-triggered feature.

    Attributes
    ----------
    weights : mapping (trigger_count, trigger_lines, credits) -> int
        As in :class:`SpinTable`, plus the number of paylines that trigger the feature
        (capped at ``line_cap``).
    cycle, credits_per_bet, trigger_cap : as in :class:`SpinTable`
    line_cap : int

    Examples
    --------
    >>> t = LineTriggerTable({(0, 0, 0): 2, (0, 1, 5): 1, (1, 0, 5): 1}, 4, 5, 1, 1)
    >>> t.line_weights(), t.spin_table().mean_bets
    ({0: 3, 1: 1}, Fraction(1, 2))
    """

    weights: Mapping[tuple[int, int, int], int]
    cycle: int
    credits_per_bet: int
    trigger_cap: int = 0
    line_cap: int = 1

    def __post_init__(self):
        if sum(self.weights.values()) != self.cycle:
            raise ValueError("line-trigger table weights do not add up to the cycle")

    def spin_table(self) -> SpinTable:
        """The (trigger count, credits) marginal."""
        out: dict[tuple[int, int], int] = {}
        for (t, _, c), w in self.weights.items():
            out[t, c] = out.get((t, c), 0) + w
        return SpinTable(out, self.cycle, self.credits_per_bet, self.trigger_cap)

    def line_weights(self) -> dict[int, int]:
        """Marginal weights of the number of trigger lines."""
        out: dict[int, int] = {}
        for (_, b, _), w in self.weights.items():
            out[b] = out.get(b, 0) + w
        return dict(sorted(out.items()))


@dataclass(frozen=True)
class MarkedTable:
    """Exact joint weights of one spin's *marks* and its credits over the full cycle.

    A mark is what a feature needs counted on the spin that may start it: the free-spin
    trigger symbols in the window, the paylines showing the wheel's bonus symbols, later the
    cash symbols of a hold & win game. :class:`SpinTable` (marks ``("trigger",)``) and
    :class:`LineTriggerTable` (``("trigger", "bonus_lines")``) are its two historical shapes.

    Attributes
    ----------
    marks : tuple of str
        Names of the counted marks, in key order.
    weights : mapping (mark values..., credits) -> int
        Zero weights are left out.
    cycle, credits_per_bet, trigger_cap : as in :class:`SpinTable`

    Examples
    --------
    >>> t = MarkedTable(("trigger", "bonus_lines"), {(0, 0, 0): 2, (0, 1, 5): 1, (1, 0, 5): 1},
    ...                 4, 5, 1)
    >>> t.project(("bonus_lines",)).weights
    {(0, 0): 2, (1, 5): 1, (0, 5): 1}
    >>> t.mark_index("bonus_lines"), t.mean_bets
    (1, Fraction(1, 2))
    """

    marks: tuple[str, ...]
    weights: Mapping[tuple[int, ...], int]
    cycle: int
    credits_per_bet: int
    trigger_cap: int = 0

    def __post_init__(self):
        if _total(self.weights) != self.cycle:
            raise ValueError("marked table weights do not add up to the cycle")

    @classmethod
    def of(cls, table: SpinTable | LineTriggerTable) -> MarkedTable:
        """The same weights, with their marks named."""
        marks = ("trigger",) if isinstance(table, SpinTable) else ("trigger", "bonus_lines")
        return cls(marks, dict(table.weights), table.cycle, table.credits_per_bet,
                   table.trigger_cap)

    def mark_index(self, mark: str) -> int:
        """Position of ``mark`` in the keys; a bare kind (``"count"``) names the table's one
        column of that kind (``"count:CASH"``).

        >>> MarkedTable(("trigger", "count:C"), {(0, 1, 0): 1}, 1, 1).mark_index("count")
        1
        """
        if mark in self.marks:
            return self.marks.index(mark)
        kind = [i for i, m in enumerate(self.marks) if m.partition(":")[0] == mark]
        if ":" not in mark and len(kind) == 1:
            return kind[0]
        raise KeyError(f"this table does not count {mark!r} (it counts "
                       f"{', '.join(self.marks) or 'nothing'})")

    def project(self, keep: tuple[str, ...]) -> MarkedTable:
        """The marginal over the marks in ``keep`` (and credits); the others summed out."""
        if tuple(keep) == self.marks:
            return self
        idx = [self.mark_index(m) for m in keep]
        fast = _project_arrays(self.weights, idx, self.cycle)
        if fast is not None:
            return MarkedTable(tuple(self.marks[i] for i in idx), fast, self.cycle,
                               self.credits_per_bet, self.trigger_cap)
        out: dict[tuple[int, ...], int] = {}
        for key, w in self.weights.items():
            k = (*(key[i] for i in idx), key[-1])
            out[k] = out.get(k, 0) + w
        return MarkedTable(tuple(self.marks[i] for i in idx), out, self.cycle,
                           self.credits_per_bet, self.trigger_cap)

    def scaled(self, multiplier: int) -> MarkedTable:
        """The same spin with every win multiplied by ``multiplier``."""
        if multiplier == 1:
            return self
        weights = {(*k[:-1], k[-1] * multiplier): w for k, w in self.weights.items()}
        return MarkedTable(self.marks, weights, self.cycle, self.credits_per_bet,
                           self.trigger_cap)

    def spin_table(self) -> SpinTable:
        """The (trigger count, credits) marginal (trigger 0 when the trigger is not counted)."""
        if "trigger" in self.marks:
            t = self.project(("trigger",))
            return SpinTable(t.weights, t.cycle, t.credits_per_bet, t.trigger_cap)
        out: dict[tuple[int, int], int] = {}
        for key, w in self.weights.items():
            out[0, key[-1]] = out.get((0, key[-1]), 0) + w
        return SpinTable(out, self.cycle, self.credits_per_bet, self.trigger_cap)

    @cached_property
    def mean_bets(self) -> Fraction:
        """Expected win of the spin in total bets."""
        keys = getattr(self.weights, "keys_array", None)
        if keys is not None:  # arrays: the products as Python integers (exact), at once
            total = sum(map(operator.mul, keys[:, -1].tolist(),
                            self.weights.weights_array.tolist()))
        else:
            total = sum(k[-1] * w for k, w in self.weights.items())
        return Fraction(total, self.cycle * self.credits_per_bet)

    @cached_property
    def hit_weight(self) -> int:
        """Weight of the stop combinations that pay anything."""
        keys = getattr(self.weights, "keys_array", None)
        if keys is not None:
            return sum(self.weights.weights_array[keys[:, -1] > 0].tolist())
        return sum(w for k, w in self.weights.items() if k[-1] > 0)

    def credits_weights(self) -> dict[int, int]:
        """Marginal weights of the win, marks summed out."""
        fast = _project_arrays(self.weights, [], self.cycle)
        if fast is not None:  # the same order: each win where it first occurs
            return dict(zip(fast.keys_array[:, 0].tolist(), fast.weights_array.tolist()))
        out: dict[int, int] = {}
        for k, w in self.weights.items():
            out[k[-1]] = out.get(k[-1], 0) + w
        return out


class MeansOnly(ValueError):
    """A figure asked of a :class:`MeanTable`, which holds only the mean and the marks' law."""


@dataclass(frozen=True)
class MeanTable(MarkedTable):
    """The law of a spin's marks and its mean credits only: what a round's RTP reads (each
    mark group's weight and the credits summed over the cycle), without the joint law of the
    credits. Made from the mark law ``law`` ({marks: weight}) and the summed ``credits``
    (:meth:`of_means`) by putting every credit on the heaviest mark group, spread over two
    neighbouring wins so each key's credits stay small. Its mean, its marks' law, its
    projections, mixtures and multiples are exact; what reads the credits' law (the hit
    weight, the credits' marginal, a round's second moment, hit frequency or distribution)
    raises :class:`MeansOnly`.

    Examples
    --------
    >>> t = MeanTable.of_means(("count:C",), {(0,): 6, (5,): 2}, 23, 8, 1)
    >>> t.weights, t.mean_bets, t.project(()).mean_bets
    ({(0, 3): 1, (0, 4): 5, (5, 0): 2}, Fraction(23, 8), Fraction(23, 8))
    >>> t.hit_weight
    Traceback (most recent call last):
    ...
    slotmath.exact.spin_table.MeansOnly: this table holds the spin's mean and its marks' law only, not the hit weight
    """

    @classmethod
    def of_means(cls, marks: tuple[str, ...], law: Mapping[tuple[int, ...], int], credits: int,
                 cycle: int, credits_per_bet: int, trigger_cap: int = 0) -> MeanTable:
        """The table of the mark law ``law`` (weights over ``cycle``) whose credits sum to
        ``credits``."""
        law = {k: w for k, w in law.items() if w}
        heaviest = max(law, key=law.get)
        q, r = divmod(credits, law[heaviest])
        weights = {(*k, 0): w for k, w in law.items() if k != heaviest}
        for win, w in ((q, law[heaviest] - r), (q + 1, r)):
            if w:
                weights[(*heaviest, win)] = w
        return cls(marks, dict(sorted(weights.items())), cycle, credits_per_bet, trigger_cap)

    def _refuse(self, what: str):
        raise MeansOnly(f"this table holds the spin's mean and its marks' law only, not {what}")

    @property
    def hit_weight(self) -> int:  # type: ignore[override]
        self._refuse("the hit weight")

    def credits_weights(self) -> dict[int, int]:
        self._refuse("the law of its credits")

    def spin_table(self) -> SpinTable:
        self._refuse("a spin table")

    def project(self, keep: tuple[str, ...]) -> MeanTable:
        t = MarkedTable.project(self, keep)
        return MeanTable(t.marks, t.weights, t.cycle, t.credits_per_bet, t.trigger_cap)

    def scaled(self, multiplier: int) -> MeanTable:
        t = MarkedTable.scaled(self, multiplier)
        return MeanTable(t.marks, t.weights, t.cycle, t.credits_per_bet, t.trigger_cap)


def _project_arrays(weights, idx: list[int], cycle: int):
    """:meth:`MarkedTable.project` on a table held as arrays (a
    :class:`~slotmath.exact.cascades.WeightTable` with int64 weights whose total, the cycle,
    fits in int64): the same rows in the same order as the dict loop (each projected key where
    it first occurs), the same integer sums; None for any other table."""
    keys = getattr(weights, "keys_array", None)
    if keys is None or weights.weights_array.dtype != np.int64 or cycle >= 1 << 63 \
            or not len(keys):
        return None
    uniq, first, inverse = unique_rows(keys[:, [*idx, keys.shape[1] - 1]])
    sums = np.zeros(len(uniq), np.int64)
    np.add.at(sums, inverse, weights.weights_array)
    order = np.argsort(first, kind="stable")
    return type(weights)(uniq[order], sums[order])


def _total(weights: Mapping) -> int:
    """``sum(weights.values())``, exactly; a table held as arrays with int64 weights
    (``weights_array``) is summed in numpy, as 32-bit halves (no sum can overflow).

    >>> class T(dict):
    ...     weights_array = np.array([-5, 3 << 60, 3 << 60, 7])
    >>> _total(T()) == -5 + (6 << 60) + 7
    True
    """
    w = getattr(weights, "weights_array", None)
    if w is not None and w.dtype == np.int64 and len(w) < 1 << 31:
        return (int((w >> 32).sum()) << 32) + int((w & 0xFFFFFFFF).sum())
    return sum(weights.values())


def _row_codes(keys: np.ndarray) -> np.ndarray | None:
    """One int64 code per row of an integer array, the columns as digits of a mixed radix
    (the first the most significant), so that the codes sort as the rows do; None when the
    codes would not fit (or ``keys`` is not a non-empty 2-D integer array)."""
    if keys.ndim != 2 or not len(keys) or keys.dtype.kind != "i":
        return None
    low = keys.min(axis=0).tolist()
    span = [hi - lo + 1 for hi, lo in zip(keys.max(axis=0).tolist(), low)]
    if math.prod(span) >= 1 << 62:
        return None
    code = np.zeros(len(keys), np.int64)
    for j in range(keys.shape[1]):
        code = code * span[j] + (keys[:, j].astype(np.int64) - low[j])
    return code


def distinct_rows(keys: np.ndarray) -> bool:
    """Whether no two rows of the 2-D integer array ``keys`` are equal: by :func:`_row_codes`
    when they fit, else by a 64-bit hash of each row (distinct hashes prove distinct rows;
    only when two hashes meet are the rows themselves compared, by :func:`unique_rows`).

    Examples
    --------
    >>> distinct_rows(np.array([[1, 2], [2, 1], [1 << 40, 3 << 40]]))
    True
    >>> distinct_rows(np.array([[1, 2], [3, 4], [1, 2]]))
    False
    """
    keys = np.asarray(keys)
    if len(keys) < 2:
        return True
    code = _row_codes(keys)
    if code is None:
        code = np.zeros(len(keys), np.uint64)
        for j in range(keys.shape[1]):  # wrapping multiply-add (arrays do not warn)
            code = code * np.uint64(0x9E3779B97F4A7C15) + keys[:, j].astype(np.uint64)
            code ^= code >> np.uint64(29)
        if _all_distinct(code):
            return True
        return len(unique_rows(keys)[1]) == len(keys)
    return _all_distinct(code)


def _all_distinct(code: np.ndarray) -> bool:
    """Whether no two entries of the 1-D array ``code`` are equal, by sorting it (numpy 2's
    plain :func:`numpy.unique` goes by a hash table: on Frozen Gems' tables, 5e6 codes, it
    took ~100 times as long as the sort)."""
    c = np.sort(code)
    return not bool((c[1:] == c[:-1]).any())


def unique_rows(keys: np.ndarray):
    """``numpy.unique(keys, axis=0, return_index=True, return_inverse=True)`` (rows sorted,
    each one's first row, every row's place in them), by :func:`_row_codes` when they fit,
    which sorts one column instead of rows of bytes."""
    keys = np.asarray(keys)
    code = _row_codes(keys)
    if code is not None:
        _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
        return keys[first], first, inverse.reshape(-1)
    uniq, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    return uniq, first, inverse.reshape(-1)
