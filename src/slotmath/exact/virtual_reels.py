"""Exact joint tables of one spin over *virtual reels*: each reel a list of windows it can
show, with integer weights and per-window mark values, counted jointly with the credits.

The free-spin states of :mod:`slotmath.model.free_spin_state` need more than the engine's
(trigger count, credits): how many reels show the expanding symbol, how many collectors and
cash symbols a window shows, where wilds landed among the cells not already sticky; and the
window a free spin shows may be changed before it pays (sticky cells forced wild). Each of
these is a *virtual reel*: for reel ``j``, the list of (window shown, weight, mark values)
its stops give. The full-cycle engine (:mod:`slotmath.exact.cycle`: a reel-by-reel dynamic
program over merged line or way statuses) runs over those windows with each mark as one
more counted digit, summed over the reels (capped at its cap) exactly as it sums scatter
counts, so the table it returns is exact: the weights of (trigger count, marks..., credits)
over every combination of the virtual reels' windows.

The plain engine's reference (:func:`slotmath.exact.brute.brute_force`) and this module's
(the brute-force references of ``tests/free_spin_state_reference.py``, sharing no code with
it) visit every stop combination; the tests compare them exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from numba import njit

from slotmath.evaluate.window import PayModel
from slotmath.exact.automata import line_automaton, ways_automaton
from slotmath.exact.cycle import (
    _INT64_SAFE,
    _NO_CLASSES,
    _expand_entries,
    _fold_last,
    _last_bound,
    _last_state,
    _local_table,
    _new_grouping,
    _pack,
    _ReelWindows,
    _step_kernel,
    _symbol_ids,
    _tracked_scatters,
    windows_input,
)
from slotmath.model.game import Game

__all__ = ["JointEngine", "VirtualReel", "strip_reel"]


@dataclass(frozen=True)
class VirtualReel:
    """One reel's windows: ``entries`` maps (window shown, mark values) -> integer weight."""

    entries: dict

    @property
    def cycle(self) -> int:
        return sum(self.entries.values())


def strip_reel(game: Game, reel_set: str, j: int, shown=None, marks=None) -> VirtualReel:
    """Reel ``j`` of ``reel_set`` as a virtual reel: each stop's window (changed by
    ``shown(window)`` when given) with the mark values ``marks(window)`` (a tuple; none by
    default), stops of equal outcome merged.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> r = strip_reel(g, "base", 0, marks=lambda w: (int("BAR" in w),))
    >>> r.cycle, sum(w for (_, m), w in r.entries.items() if m == (1,))
    (8, 3)
    """
    reel = game.reel_sets[reel_set].reels[j]
    rows = game.rows[j]
    out: dict = {}
    for stop, w in enumerate(reel.stop_weights):
        if w:
            window = reel.window(stop, rows)
            key = (shown(window) if shown else window, tuple(marks(window)) if marks else ())
            out[key] = out.get(key, 0) + w
    return VirtualReel(out)


@dataclass(eq=False)
class JointEngine:
    """The engine for one game at one bet level, counting ``caps``-capped marks (one digit
    each) and, with ``trigger``, the free-spin trigger symbol, jointly with the credits.

    The automaton and the digit packing are built once and shared by every table.

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.exact.cycle import spin_table
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> e = JointEngine(g, caps=(3,))
    >>> reels = [strip_reel(g, "base", j, marks=lambda w: (int("BAR" in w),)) for j in range(3)]
    >>> t = e.table(reels)
    >>> sum(t.values()) == 512
    True
    >>> plain = {}
    >>> for (trigger, bars, credits), w in t.items():
    ...     plain[trigger, credits] = plain.get((trigger, credits), 0) + w
    >>> plain == dict(spin_table(g).weights)
    True
    """

    game: Game
    level: int = 1
    caps: tuple[int, ...] = ()
    trigger: bool = True
    classes: bool = False  # sort interchangeable lines (cycle.unit_classes); off: faster here
    model: PayModel | None = None
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        if self.model is None:
            self.model = PayModel(self.game, self.level)

    @cached_property
    def symbol_ids(self) -> dict[str, int]:
        return _symbol_ids(self.game)

    @cached_property
    def _tracked(self) -> tuple[list[str], list[int]]:
        return _tracked_scatters(self.game, self.model)

    @cached_property
    def trigger_cap(self) -> int:
        fs = self.game.free_spins
        return max(fs.awards) if self.trigger and fs is not None else 0

    @cached_property
    def automaton(self):
        if self.game.paylines is not None:
            return line_automaton(self.model, self.symbol_ids)
        rows = max(self.game.rows)
        most = max(self.model.multiplier.values(), default=1)
        return ways_automaton(self.model, max(rows * most, 1))

    @cached_property
    def _packing(self):
        tracked, caps = self._tracked
        digits, place, add_table = _pack_digits(list(caps) + list(self.caps))
        scatter_caps = np.asarray(list(caps) + list(self.caps), dtype=np.int32)
        pack_credits = np.zeros(len(digits), dtype=np.int64)
        row = np.zeros(len(digits), dtype=np.int64)
        fs = self.game.free_spins
        for t, name in enumerate(tracked):
            credits = np.asarray(self.model.scatter_credits[name], dtype=np.int64)
            pack_credits += credits[digits[:, t]]
            if self.trigger and fs is not None and name == fs.trigger:
                row = np.minimum(digits[:, t], self.trigger_cap)
        for i, cap in enumerate(self.caps):  # row: trigger, then each mark, mixed radix
            row = row * (cap + 1) + digits[:, len(tracked) + i]
        return (place, add_table, scatter_caps, np.ascontiguousarray(pack_credits),
                np.ascontiguousarray(row, dtype=np.int64))

    @property
    def rows(self) -> int:
        n = self.trigger_cap + 1
        for cap in self.caps:
            n *= cap + 1
        return n

    def _reel_input(self, j: int, reel: VirtualReel):
        tracked, _ = self._tracked
        place, _, scatter_caps, _, _ = self._packing
        keys = list(reel.entries)
        wins = [k[0] for k in keys]
        rw = windows_input(self.game, self.model, j, wins, [reel.entries[k] for k in keys],
                           self.symbol_ids, tracked)
        marks = np.asarray([k[1] for k in keys], dtype=np.int32).reshape(len(keys),
                                                                        len(self.caps))
        if len(self.caps) and (marks > np.asarray(self.caps)).any():
            raise ValueError(f"reel {j + 1}: a mark value is above its cap {self.caps}")
        rw = _ReelWindows(rw.inputs, rw.ucol, rw.columns, rw.weights,
                          np.ascontiguousarray(np.hstack([rw.scatter, marks]), dtype=np.int32),
                          rw.by_effect)
        return rw, _pack(rw, scatter_caps, place)

    def dense(self, reels: list[VirtualReel]) -> np.ndarray:
        """Dense weights ``out[row, credits]``, ``row`` the mixed-radix index of (trigger
        count, marks...) (the trigger first; :meth:`table` unpacks it)."""
        cycle = 1
        for r in reels:
            cycle *= r.cycle
        if cycle >= _INT64_SAFE:
            raise OverflowError(f"cycle {cycle} is too large for the engine's int64 weights")
        states, entries, (rw, pack) = self._through(reels)
        _, add_table, _, pack_credits, out_row = self._packing
        automaton = self.automaton
        n = len(reels)
        nt, em, final = automaton.next_status[n - 1], automaton.emit[n - 1], automaton.final
        width = (int(entries[2].max()) + _last_bound(states, nt, em, final)
                 + int(pack_credits.max()) + 1)
        out = np.zeros((self.rows, width), dtype=np.int64)
        _fold_last(states, nt, em, self._no_trigger()[n - 1], 0, 0, final, rw.inputs, rw.ucol,
                   rw.columns, pack, rw.weights, rw.by_effect, *entries, add_table,
                   pack_credits, out_row, out)
        return out

    def sparse(self, reels: list[VirtualReel]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The nonzero weights as arrays ``(row, credits, weight)``, ``row`` as in
        :meth:`dense`: for tables with many rows of which few are reached."""
        cycle = 1
        for r in reels:
            cycle *= r.cycle
        if cycle >= _INT64_SAFE:
            raise OverflowError(f"cycle {cycle} is too large for the engine's int64 weights")
        states, entries, last = self._through(reels)
        _, add_table, _, pack_credits, out_row = self._packing
        automaton = self.automaton
        n = len(reels)
        rw, pack = last
        return _fold_last_sparse(
            states, automaton.next_status[n - 1], automaton.emit[n - 1],
            self._no_trigger()[n - 1], automaton.final, rw.inputs, rw.ucol, rw.columns, pack,
            rw.weights, rw.by_effect, *entries, add_table, pack_credits, out_row)

    def _through(self, reels):
        """The DP over every reel but the last: (states, entries, last reel's input)."""
        _, add_table, _, _, _ = self._packing
        automaton = self.automaton
        inputs = [self._reel_input(j, r) for j, r in enumerate(reels)]
        classes = self._classes()
        emit_trigger = self._no_trigger()
        states = np.asarray([automaton.start], dtype=np.int32)
        e_state = np.zeros(1, np.int64)
        e_pack = np.zeros(1, np.int64)
        e_credits = np.zeros(1, np.int64)
        e_weight = np.ones(1, np.int64)
        for j in range(len(inputs) - 1):
            rw, pack = inputs[j]
            states, ptr, outcomes = _step_kernel(
                states, automaton.next_status[j], automaton.emit[j], emit_trigger[j], 0, 0,
                rw.inputs, rw.ucol, rw.columns, pack, rw.weights, *classes[j], rw.by_effect)
            span = int(e_credits.max()) + int(outcomes[:, 1].max(initial=0)) + 1
            e_state, e_pack, e_credits, e_weight = _expand_entries(
                e_state, e_pack, e_credits, e_weight, ptr, outcomes, add_table, span)
        return states, (e_state, e_pack, e_credits, e_weight), inputs[-1]

    def table(self, reels: list[VirtualReel]) -> dict[tuple, int]:
        """Exact weights of (trigger count, marks..., credits) over every combination of the
        reels' windows (the trigger count 0 when it is not counted)."""
        out = self.dense(reels)
        rows, cols = np.nonzero(out)
        radices = [cap + 1 for cap in self.caps]
        result = {}
        for r, c in zip(rows.tolist(), cols.tolist()):
            key = [c]
            rest = r
            for radix in reversed(radices):
                key.append(rest % radix)
                rest //= radix
            key.append(rest)
            result[tuple(reversed(key))] = int(out[r, c])
        return result

    def _classes(self):
        from slotmath.exact.cycle import unit_classes

        if not self.classes:
            return [_NO_CLASSES] * self.game.n_reels
        return [unit_classes(self.game, j) for j in range(self.game.n_reels)]

    def _no_trigger(self):
        if "no_trigger" not in self._cache:
            self._cache["no_trigger"] = tuple(np.zeros_like(em) for em in self.automaton.emit)
        return self._cache["no_trigger"]


def _pack_digits(caps: list[int]):
    """The engine's mixed-radix packing of capped counts (:func:`slotmath.exact.cycle.
    _packing`'s digits, places and addition table), the table built a digit at a time:
    the same arrays without the (packs x packs x digits) intermediate.

    >>> from slotmath.exact.cycle import _packing
    >>> all((a == b).all() for a, b in zip(_pack_digits([3, 7, 2]), _packing([3, 7, 2])))
    True
    """
    from slotmath.model.rules import MAX_SCATTER_STATES

    radices = [c + 1 for c in caps]
    n_pack = 1
    for r in radices:
        n_pack *= r
    if n_pack > MAX_SCATTER_STATES:  # the model's rules refuse such games first
        raise MemoryError(f"{n_pack:,} joint counted states: their addition table would take "
                          f"{n_pack * n_pack * 8 / 2**30:,.3g} GiB (at most "
                          f"{MAX_SCATTER_STATES:,} states)")
    index = np.arange(n_pack, dtype=np.int64)
    digits = np.zeros((n_pack, len(caps)), dtype=np.int64)
    rest = index.copy()
    for t, r in enumerate(radices):
        digits[:, t] = rest % r
        rest //= r
    place = np.cumprod([1] + radices[:-1]).astype(np.int64) if caps else np.zeros(0, np.int64)
    add_table = np.zeros((n_pack, n_pack), dtype=np.int64)
    for t, cap in enumerate(caps):
        d = digits[:, t]
        add_table += np.minimum(d[:, None] + d[None, :], cap) * place[t]
    return digits, place, add_table


@njit(cache=True)
def _fold_last_sparse(states, nt, em, et, final, inputs, ucol, colval, win_sa, win_weight,
                      by_effect, e_state, e_pack, e_credits, e_weight, add_table, pack_credits,
                      pack_row):
    """:func:`slotmath.exact.cycle._fold_last` into a hash table of (row, credits) instead of
    a dense array: returns the arrays (row, credits, weight) of its nonzero entries."""
    n_s, n_units = states.shape
    n_w = colval.shape[0]
    n_cols = colval.shape[1]
    n_vals = colval.max() + 1 if colval.size else 1
    work = (np.zeros((n_cols, n_vals), np.int32), np.empty(n_vals, np.int64),
            np.empty(n_units, np.int64), np.zeros((n_cols, n_vals), np.int64),
            np.zeros((n_cols, n_vals), np.int64), np.empty(n_units, np.int64))
    cache = _new_grouping(n_cols, n_vals)
    pool = np.empty((4 * n_w, 4), np.int64)
    local, lslot, lused = _local_table(n_w)
    lmask = lslot.shape[0] - 1
    start = np.zeros(n_s + 1, np.int64)
    for e in range(e_state.shape[0]):
        start[e_state[e] + 1] += 1
    for s in range(n_s):
        start[s + 1] += start[s]
    fill = start[:-1].copy()
    order = np.empty(e_state.shape[0], np.int64)
    for e in range(e_state.shape[0]):
        order[fill[e_state[e]]] = e
        fill[e_state[e]] += 1
    size = 1024
    keys_r = np.full(size, -1, np.int64)
    keys_c = np.zeros(size, np.int64)
    vals = np.zeros(size, np.int64)
    used = 0
    for s in range(n_s):
        if start[s] == start[s + 1]:
            continue
        n_local, cache, pool = _last_state(
            states, s, nt, em, et, 0, 0, final, inputs, ucol, colval, win_sa, win_weight,
            by_effect, work, cache, pool, local, lslot, lused, lmask)
        for t in range(start[s], start[s + 1]):
            e = order[t]
            c = e_credits[e]
            wt = e_weight[e]
            pk = e_pack[e]
            for q in range(n_local):
                p2 = add_table[pk, local[q, 1]]
                row = pack_row[p2]
                credits = c + local[q, 0] + pack_credits[p2]
                if 2 * (used + 1) > size:  # grow and rehash
                    old_r, old_c, old_v = keys_r, keys_c, vals
                    size *= 2
                    keys_r = np.full(size, -1, np.int64)
                    keys_c = np.zeros(size, np.int64)
                    vals = np.zeros(size, np.int64)
                    for i in range(old_r.shape[0]):
                        if old_r[i] >= 0:
                            h = ((old_r[i] * 1000003 + old_c[i]) * 0x9E3779B97F4A7C15
                                 >> 17) & (size - 1)
                            while keys_r[h] >= 0:
                                h = (h + 1) & (size - 1)
                            keys_r[h] = old_r[i]
                            keys_c[h] = old_c[i]
                            vals[h] = old_v[i]
                h = ((row * 1000003 + credits) * 0x9E3779B97F4A7C15 >> 17) & (size - 1)
                while True:
                    if keys_r[h] < 0:
                        keys_r[h] = row
                        keys_c[h] = credits
                        vals[h] = wt * local[q, 3]
                        used += 1
                        break
                    if keys_r[h] == row and keys_c[h] == credits:
                        vals[h] += wt * local[q, 3]
                        break
                    h = (h + 1) & (size - 1)
        for q in range(n_local):
            lslot[lused[q]] = -1
    out_r = np.empty(used, np.int64)
    out_c = np.empty(used, np.int64)
    out_v = np.empty(used, np.int64)
    i = 0
    for h in range(size):
        if keys_r[h] >= 0:
            out_r[i] = keys_r[h]
            out_c[i] = keys_c[h]
            out_v[i] = vals[h]
            i += 1
    return out_r, out_c, out_v
