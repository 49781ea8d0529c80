"""Fast exact full-cycle enumeration: a reel-by-reel dynamic program over merged states.

The win of a spin is a sum over units (paylines, or ways pay-table entries) plus scatter
pays. Reading the reels left to right, every unit's future depends only on its automaton
status (see :mod:`slotmath.exact.automata`), so stop combinations that leave every unit in the
same status are merged into one *state* carrying the exact integer weights of the
(scatter counts so far, credits already settled) pairs that reach it. Each reel's stops are first merged into its
distinct windows. The last reel is folded straight into a dense table of
(trigger count, credits) -> weight by a compiled kernel.

The result is exactly what :func:`slotmath.exact.brute.brute_force` gets by visiting every
stop combination (tests check equality on random games), in a fraction of the time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
from numba import njit

from slotmath import parallel
from slotmath.evaluate.window import PayModel
from slotmath.exact.automata import line_automaton, ways_automaton
from slotmath.exact.spin_table import LineTriggerTable, SpinTable
from slotmath.exact.workers import map_parts
from slotmath.model.game import Game, ReelSet

_INT64_SAFE = 2**62
_MAX_MASK_COLUMNS = 16


@dataclass(frozen=True)
class _ReelWindows:
    inputs: np.ndarray  # (n_windows, n_units) int32: each unit's automaton input
    ucol: np.ndarray  # (n_units,) int64: the column of `columns` each unit reads
    columns: np.ndarray  # (n_windows, n_columns) int32: what units can see (rows, or keys)
    weights: np.ndarray  # (n_windows,) int64
    scatter: np.ndarray  # (n_windows, n_tracked) int32: tracked scatter counts
    # each unit's input is its column's value (inputs[:, u] == columns[:, ucol[u]]), so
    # windows can be grouped by what they do to the units (_labels); windows_input says
    by_effect: bool = False


def _tracked_scatters(game: Game, model: PayModel) -> tuple[list[str], list[int]]:
    """Scatters whose count matters (they pay or trigger) and the count each is capped at
    (:meth:`slotmath.model.game.Game.scatter_caps`)."""
    caps = game.scatter_caps()
    return list(caps), list(caps.values())


def _symbol_ids(game: Game) -> dict[str, int]:
    return {name: i for i, name in enumerate(game.symbols)}


def _ways_count(model: PayModel, key: str, column) -> int:
    members = model.key_members[key]
    return sum(model.multiplier[s] for s in column if s in members)


def _reel_windows(game, model, reel_set, j, symbol_ids, tracked, stops=None) -> _ReelWindows:
    """The distinct windows of reel ``j`` and their weights, over ``stops`` (default: all)."""
    reel = reel_set.reels[j]
    rows = game.rows[j]
    merged: dict[tuple[str, ...], int] = {}
    weights = reel.stop_weights
    for stop in range(len(weights)) if stops is None else stops:
        w = weights[stop]
        if w:
            win = reel.window(stop, rows)
            merged[win] = merged.get(win, 0) + w
    wins = list(merged)
    return windows_input(game, model, j, wins, [merged[w] for w in wins], symbol_ids, tracked)


def windows_input(game, model, j, wins, weights, symbol_ids, tracked,
                  extra=None) -> _ReelWindows:
    """The engine's input for reel ``j`` shown as the windows ``wins`` (one row each, with its
    integer ``weight``): what each line or pay-table entry reads, the mask columns, and the
    tracked scatters' counts, plus one more counted column ``extra`` (a value per window)
    when given. The strip's own windows (:func:`_reel_windows`) and the changed windows of a
    modifier (:mod:`slotmath.exact.modifiers`) both come through here."""
    rows = game.rows[j]
    if game.paylines is not None:
        inputs = [[symbol_ids[win[line[j]]] for line in game.paylines] for win in wins]
    else:
        inputs = [[_ways_count(model, k, win) for k in model.keys] for win in wins]
    scatter = [[win.count(name) for name in tracked] for win in wins]
    if extra is not None:
        scatter = [row + [int(x)] for row, x in zip(scatter, extra)]
    n_units = game.n_lines if game.paylines is not None else len(model.keys)
    inputs = np.asarray(inputs, dtype=np.int32).reshape(len(wins), n_units)
    if game.paylines is not None and rows <= _MAX_MASK_COLUMNS:
        # A line sees one row of the reel: windows that agree on the rows of the open lines
        # lead to the same outcome.
        ucol = np.asarray([line[j] for line in game.paylines], dtype=np.int64)
        columns = np.asarray([[symbol_ids[s] for s in win] for win in wins], dtype=np.int32)
    elif n_units <= _MAX_MASK_COLUMNS:
        ucol = np.arange(n_units, dtype=np.int64)
        columns = inputs
    else:  # too many columns for a mask table: group identical windows only
        ucol = np.zeros(n_units, dtype=np.int64)
        columns = np.arange(len(wins), dtype=np.int32)[:, None]
    width = len(tracked) + (extra is not None)
    return _ReelWindows(
        inputs, ucol, np.ascontiguousarray(columns),
        np.asarray(weights, dtype=np.int64),
        np.asarray(scatter, dtype=np.int32).reshape(len(wins), width),
        by_effect=bool(np.array_equal(inputs, columns[:, ucol])),
    )


_EMPTY = -1
_NO_CLASSES = (np.zeros(1, np.int64), np.zeros(0, np.int64))


def unit_classes(game: Game, j: int) -> tuple[np.ndarray, np.ndarray]:
    """Classes of interchangeable lines after reel ``j`` (0-based), in CSR form
    ``(ptr, members)``: lines that read the same row on every later reel. Only classes of
    two or more lines are listed; a ways game, or a last reel, has none.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> g.paylines
    ((1, 1, 1), (0, 0, 0), (2, 2, 2), (0, 1, 2), (2, 1, 0))
    >>> unit_classes(g, 1)   # after reel 2, lines 1 and 5 both read row 0 of reel 3
    (array([0, 2, 4]), array([1, 4, 2, 3]))
    """
    if game.paylines is None or j >= game.n_reels - 1:
        return _NO_CLASSES
    groups: dict[tuple, list[int]] = {}
    for u, line in enumerate(game.paylines):
        groups.setdefault(tuple(line[j + 1:]), []).append(u)
    members = [g for g in groups.values() if len(g) > 1]
    ptr = np.cumsum([0] + [len(g) for g in members]).astype(np.int64)
    flat = np.asarray([u for g in members for u in g], dtype=np.int64)
    return ptr, flat


@njit(cache=True)
def _copy_rows(dst, src, at, n):
    """``dst[at:at + n] = src[:n]`` for 2-D arrays, as plain loops: numba compiles a 2-D
    slice assignment into code that takes seconds to build (measured: 4 s of a kernel's 6)."""
    for i in range(n):
        for j in range(src.shape[1]):
            dst[at + i, j] = src[i, j]


@njit(cache=True)
def _mix(h, u, st):
    h = (h ^ np.uint64(u + 1)) * np.uint64(1099511628211)
    return (h ^ np.uint64(st)) * np.uint64(1099511628211)


@njit(cache=True)
def _row_hash(row):
    """Hash of the nonzero (unit, status) pairs of a row: equal rows hash equal."""
    h = np.uint64(1469598103934665603)
    for u in range(row.shape[0]):
        if row[u] != 0:
            h = _mix(h, u, row[u])
    return h


@njit(cache=True)
def _rebuild(table, rows, n_rows):
    mask = table.shape[0] - 1
    table[:] = _EMPTY
    for r in range(n_rows):
        h = np.int64(_row_hash(rows[r]) & np.uint64(mask))
        while table[h] != _EMPTY:
            h = (h + 1) & mask
        table[h] = r


@njit(cache=True)
def _labels(states, s, alive, na, ucol, nt, em, et, by_effect, lab, reps, units):
    """``lab[c, x]``: the class of value ``x`` in column ``c`` for the open units of state
    ``s``.

    ``by_effect``: two values are in one class when every open unit reading column ``c``
    moves the same way on them (next status, credits emitted and trigger run), so windows
    that agree class by class on every column lead to the same outcome. Otherwise (a reel
    whose columns are window indices) every value of a seen column is its own class.
    Columns no open unit reads are one class. (The last reel's classes come from its
    credit tables: :func:`_last_state`.)
    """
    n_cols, n_vals = lab.shape
    lab.fill(0)
    for c in range(n_cols):
        k = 0
        for i in range(na):
            if ucol[alive[i]] == c:
                units[k] = alive[i]
                k += 1
        if k == 0:
            continue
        if not by_effect:
            for x in range(n_vals):
                lab[c, x] = x
            continue
        n_lab = 0
        for x in range(n_vals):
            found = -1
            for q in range(n_lab):
                y = reps[q]
                same = True
                for i in range(k):
                    st = states[s, units[i]]
                    if nt[st, x] != nt[st, y] or em[st, x] != em[st, y] or et[st, x] != et[st, y]:
                        same = False
                        break
                if same:
                    found = q
                    break
            if found < 0:
                reps[n_lab] = x
                found = n_lab
                n_lab += 1
            lab[c, x] = found


@njit(cache=True)
def _lab_hash(lab):
    h = np.uint64(1469598103934665603)
    for c in range(lab.shape[0]):
        for x in range(lab.shape[1]):
            h = (h ^ np.uint64(lab[c, x] + 1)) * np.uint64(1099511628211)
    return h


@njit(cache=True)
def _row_lab_hash(row):
    """:func:`_lab_hash` of a label table stored flat (row-major), without a reshape (whose
    error path alone made numba compile its string formatting, seconds of a cold start)."""
    h = np.uint64(1469598103934665603)
    for i in range(row.shape[0]):
        h = (h ^ np.uint64(row[i] + 1)) * np.uint64(1099511628211)
    return h


#: the most pool rows a grouping cache keeps (32 bytes each) before it starts afresh
POOL_ROWS = 1 << 21


@njit(cache=True)
def _grouping(lab, colval, win_sa, win_weight, cache, pool):
    """Windows grouped by their classes on every column (:func:`_labels`), cached per
    ``lab`` table.

    ``pool`` rows are (representative window, scatter pack, weight, first-of-group flag):
    one row per distinct scatter pack within each group, the rows of a group adjacent, so a
    kernel evaluates the units once per group. ``cache`` is ``(keys, ranges, slots, meta)``:
    the ``lab`` tables seen, their pool ranges, an open-addressing index, and (pool rows
    used, tables, most pool rows: :data:`POOL_ROWS`); past the most it forgets them all and
    starts again (only the current state's range is in use).
    """
    keys, ranges, slots, meta = cache
    n_cols, n_vals = lab.shape
    width = n_cols * n_vals
    smask = slots.shape[0] - 1
    h = np.int64(_lab_hash(lab) & np.uint64(smask))
    while True:
        q = slots[h]
        if q < 0:
            break
        same = True
        for c in range(n_cols):
            for x in range(n_vals):
                if keys[q, c * n_vals + x] != lab[c, x]:
                    same = False
                    break
            if not same:
                break
        if same:
            return ranges[q, 0], ranges[q, 1], pool, cache
        h = (h + 1) & smask
    n_w = colval.shape[0]
    if meta[0] + n_w > meta[2]:  # forget every table seen: the pool stays bounded
        meta[0] = 0
        meta[1] = 0
        slots[:] = -1
        h = np.int64(_lab_hash(lab) & np.uint64(smask))
    # Each window's group: its classes on every column, as one mixed-radix key found in a
    # small hash table (or, past int64, by comparing with each group's first window); the
    # windows are then bucketed by group (a counting sort: no library sort, which costs
    # seconds of compilation).
    radix = np.ones(n_cols, np.int64)
    span = np.int64(1)
    overflow = False
    for c in range(n_cols):
        top = 0
        for x in range(n_vals):
            top = max(top, lab[c, x])
        radix[c] = span
        if span > (2**62) // (top + 1):
            overflow = True
            break
        span *= top + 1
    gid = np.empty(n_w, np.int64)
    first = np.empty(n_w, np.int64)  # the first window of each group
    n_g = 0
    if not overflow:
        size = 16
        while size < 2 * n_w:
            size *= 2
        t_key = np.full(size, -1, np.int64)
        t_id = np.empty(size, np.int64)
        for w in range(n_w):
            kk = np.int64(0)
            for c in range(n_cols):
                kk += lab[c, colval[w, c]] * radix[c]
            hh = (kk * 0x9E3779B97F4A7C15) & (size - 1)
            while t_key[hh] != -1 and t_key[hh] != kk:
                hh = (hh + 1) & (size - 1)
            if t_key[hh] == -1:
                t_key[hh] = kk
                t_id[hh] = n_g
                first[n_g] = w
                n_g += 1
            gid[w] = t_id[hh]
    else:
        for w in range(n_w):
            g = -1
            for q in range(n_g):
                r = first[q]
                same = True
                for c in range(n_cols):
                    if lab[c, colval[w, c]] != lab[c, colval[r, c]]:
                        same = False
                        break
                if same:
                    g = q
                    break
            if g < 0:
                first[n_g] = w
                g = n_g
                n_g += 1
            gid[w] = g
    bucket = np.zeros(n_g + 1, np.int64)
    for w in range(n_w):
        bucket[gid[w] + 1] += 1
    for g in range(n_g):
        bucket[g + 1] += bucket[g]
    fill = bucket[:-1].copy()
    order = np.empty(n_w, np.int64)
    for w in range(n_w):
        order[fill[gid[w]]] = w
        fill[gid[w]] += 1
    n_pool = meta[0]
    if n_pool + n_w > pool.shape[0]:
        grown = np.empty((2 * pool.shape[0] + n_w, 4), np.int64)
        _copy_rows(grown, pool, 0, n_pool)
        pool = grown
    start = n_pool
    for g in range(n_g):
        g_start = n_pool
        rep = first[g]
        for t in range(bucket[g], bucket[g + 1]):
            w = order[t]
            found = -1
            for q in range(g_start, n_pool):
                if pool[q, 1] == win_sa[w]:
                    found = q
                    break
            if found >= 0:
                pool[found, 2] += win_weight[w]
            else:
                pool[n_pool, 0] = rep
                pool[n_pool, 1] = win_sa[w]
                pool[n_pool, 2] = win_weight[w]
                pool[n_pool, 3] = 1 if n_pool == g_start else 0
                n_pool += 1
    meta[0] = n_pool
    # remember this lab table
    n_keys = meta[1]
    if n_keys == keys.shape[0]:
        grown_k = np.empty((2 * keys.shape[0], width), keys.dtype)
        _copy_rows(grown_k, keys, 0, n_keys)
        keys = grown_k
        grown_r = np.empty((2 * ranges.shape[0], 2), np.int64)
        _copy_rows(grown_r, ranges, 0, n_keys)
        ranges = grown_r
    for c in range(n_cols):
        for x in range(n_vals):
            keys[n_keys, c * n_vals + x] = lab[c, x]
    ranges[n_keys, 0] = start
    ranges[n_keys, 1] = n_pool
    meta[1] = n_keys + 1
    if 2 * (n_keys + 1) > slots.shape[0]:
        slots = np.full(2 * slots.shape[0], -1, np.int64)
        smask = slots.shape[0] - 1
        for q in range(n_keys + 1):
            hh = np.int64(_row_lab_hash(keys[q]) & np.uint64(smask))
            while slots[hh] >= 0:
                hh = (hh + 1) & smask
            slots[hh] = q
    else:
        slots[h] = n_keys
    return start, n_pool, pool, (keys, ranges, slots, meta)


@njit(cache=True)
def _new_grouping(n_cols, n_vals, most=POOL_ROWS):
    """An empty cache for :func:`_grouping` keeping at most ``most`` pool rows."""
    meta = np.zeros(3, np.int64)
    meta[2] = most
    return (np.empty((16, n_cols * n_vals), np.int32), np.empty((16, 2), np.int64),
            np.full(64, -1, np.int64), meta)


@njit(cache=True)
def _open_units(states, s, ucol, alive):
    na = 0
    seen = 0
    for u in range(states.shape[1]):
        if states[s, u] != 0:
            alive[na] = u
            na += 1
            seen |= 1 << ucol[u]
    return na, seen


@njit(cache=True)
def _merge_local(local, lslot, lused, lmask, n_local, a, b, c, weight):
    """Add ``weight`` to the outcome (a, b, c) of the current state; returns the new count."""
    h = (((a * 1000003 + b) * 1000003 + c) * 0x9E3779B97F4A7C15 >> 17) & lmask
    while True:
        q = lslot[h]
        if q < 0:
            lslot[h] = n_local
            lused[n_local] = h
            local[n_local, 0] = a
            local[n_local, 1] = b
            local[n_local, 2] = c
            local[n_local, 3] = weight
            return n_local + 1
        if local[q, 0] == a and local[q, 1] == b and local[q, 2] == c:
            local[q, 3] += weight
            return n_local
        h = (h + 1) & lmask


@njit(cache=True)
def _local_table(n_w):
    """Scratch space for merging one state's outcomes: rows, hash slots, used slots."""
    lsize = 64
    while lsize < 4 * n_w:
        lsize *= 2
    return np.empty((n_w, 4), np.int64), np.full(lsize, -1, np.int64), np.empty(n_w, np.int64)


@njit(cache=True)
def _flush_local(out, k, local, lslot, lused, n_local):
    """Append the state's outcomes to the CSR rows (growing them) and clear the slots."""
    if k + n_local > out.shape[0]:
        grown = np.empty((2 * out.shape[0] + n_local, 4), np.int64)
        _copy_rows(grown, out, 0, k)
        out = grown
    _copy_rows(out, local, k, n_local)
    for q in range(n_local):
        lslot[lused[q]] = -1
    return out, k + n_local


@njit(cache=True)
def _canonical(row, alive, na, cls_ptr, cls_mem, crow, touched):
    """The new row in canonical form: ``crow`` gets the open units' statuses of ``row``
    (every other unit 0), sorted descending within each class; ``touched`` its nonzero
    units. Returns their number and the row's hash."""
    crow[:] = 0
    for i in range(na):
        crow[alive[i]] = row[alive[i]]
    for c in range(cls_ptr.shape[0] - 1):
        lo = cls_ptr[c]
        hi = cls_ptr[c + 1]
        for x in range(lo + 1, hi):
            v = crow[cls_mem[x]]
            y = x - 1
            while y >= lo and crow[cls_mem[y]] < v:
                crow[cls_mem[y + 1]] = crow[cls_mem[y]]
                y -= 1
            crow[cls_mem[y + 1]] = v
    nnz = 0
    hv = np.uint64(1469598103934665603)
    for u in range(crow.shape[0]):
        if crow[u] != 0:
            touched[nnz] = u
            nnz += 1
            hv = _mix(hv, u, crow[u])
    return nnz, hv


@njit(cache=True)
def _step_kernel(states, nt, em, et, line_place, line_cap, inputs, ucol, colval, win_sa,
                 win_weight, cls_ptr, cls_mem, by_effect):
    """:func:`_step_room` with no limit on the windows."""
    return _step_room(states, nt, em, et, line_place, line_cap, inputs, ucol, colval, win_sa,
                      win_weight, cls_ptr, cls_mem, by_effect, np.zeros(0, np.int64), 1,
                      np.zeros(0, np.int64))


@njit(cache=True)
def _step_room(states, nt, em, et, line_place, line_cap, inputs, ucol, colval, win_sa,
               win_weight, cls_ptr, cls_mem, by_effect, digit, dig_radix, room):
    """Move every state through every window of one reel.

    Returns the new states (deduplicated exactly: hash, then full-row comparison) and, per
    old state, its distinct outcomes (new state, settled credits, scatter pack added) with
    their summed window weights, in CSR form.

    ``by_effect``: windows are grouped by what they do to each state's open units
    (:func:`_labels`), else by what those units can see. ``cls_ptr``, ``cls_mem`` (CSR;
    empty: none): classes of interchangeable units, lines that read the same rows on every
    reel still to come (:func:`unit_classes`). Within a class the new row's statuses are
    sorted (descending), so states that differ only by which line of a class holds which
    status are one state: all lines share the automaton, and the future pays of a line
    depend only on its status and the rows it reads.

    ``room`` (empty: no limit): state ``s`` goes only through the windows whose pack digit
    ``digit[pack]`` (of ``dig_radix`` values) is at most ``room[s]`` (a modifier's chosen
    positions: the windows that would take every entry of the state past the most the table
    keeps are not visited, and the states only they reach are not made).
    """
    n_s, n_units = states.shape
    n_w = colval.shape[0]
    n_cols = colval.shape[1]
    n_vals = colval.max() + 1 if colval.size else 1  # no units: one class
    lab = np.zeros((n_cols, n_vals), np.int32)
    reps = np.empty(n_vals, np.int64)
    col_units = np.empty(n_units, np.int64)
    cache = _new_grouping(n_cols, n_vals)
    pool = np.empty((4 * n_w, 4), np.int64)
    cap_rows = 1024
    while cap_rows < 2 * n_s:
        cap_rows *= 2
    new_states = np.zeros((cap_rows, n_units), np.int32)
    nnz_of = np.zeros(cap_rows, np.int64)
    n_new = 0
    table = np.full(4 * cap_rows, _EMPTY, np.int64)
    mask = table.shape[0] - 1
    ptr = np.zeros(n_s + 1, np.int64)
    out = np.empty((n_s * 8 + 16, 4), np.int64)  # tgt, settled, scatter pack, weight
    k = 0
    alive = np.empty(n_units, np.int64)
    row = np.zeros(n_units, np.int32)
    local, lslot, lused = _local_table(n_w)
    lmask = lslot.shape[0] - 1
    sid = 0
    settled = 0
    fired = 0
    canon = cls_ptr.shape[0] > 1
    touched = np.empty(n_units, np.int64)
    crow = np.zeros(n_units, np.int32)
    n_look = 0
    look = alive
    src = row
    limited = room.shape[0] > 0
    for s in range(n_s):
        na, _seen = _open_units(states, s, ucol, alive)
        _labels(states, s, alive, na, ucol, nt, em, et, by_effect, lab, reps, col_units)
        start, stop, pool, cache = _grouping(lab, colval, win_sa, win_weight, cache, pool)
        n_local = 0
        fresh = False
        for q0 in range(start, stop):
            if pool[q0, 3]:
                fresh = True  # a new group: its state is made at its first row visited
            if limited and digit[pool[q0, 1]] > room[s]:
                continue
            if fresh:
                fresh = False
                w = pool[q0, 0]
                settled = 0
                fired = 0
                nnz = 0
                hv = np.uint64(1469598103934665603)
                for i in range(na):
                    u = alive[i]
                    st = states[s, u]
                    a = inputs[w, u]
                    v = nt[st, a]
                    row[u] = v
                    settled += em[st, a]
                    fired += et[st, a]
                    if v != 0 and not canon:
                        nnz += 1
                        hv = _mix(hv, u, v)
                if canon:
                    nnz, hv = _canonical(row, alive, na, cls_ptr, cls_mem, crow, touched)
                    n_look = nnz
                    look = touched
                    src = crow
                else:
                    n_look = na
                    look = alive
                    src = row
                # Only the units in `look` can be nonzero (the open units, or the canonical
                # row's nonzero units), so a stored row equals this one when it has as many
                # nonzero entries and agrees on them.
                h = np.int64(hv & np.uint64(mask))
                while True:
                    idx = table[h]
                    if idx == _EMPTY:
                        if n_new == new_states.shape[0]:
                            grown = np.zeros((2 * new_states.shape[0], n_units), np.int32)
                            _copy_rows(grown, new_states, 0, n_new)
                            new_states = grown
                            grown_nnz = np.zeros(2 * nnz_of.shape[0], np.int64)
                            grown_nnz[:n_new] = nnz_of[:n_new]
                            nnz_of = grown_nnz
                        for i in range(n_look):
                            new_states[n_new, look[i]] = src[look[i]]
                        nnz_of[n_new] = nnz
                        table[h] = n_new
                        sid = n_new
                        n_new += 1
                        if 2 * n_new > table.shape[0]:
                            table = np.full(2 * table.shape[0], _EMPTY, np.int64)
                            mask = table.shape[0] - 1
                            _rebuild(table, new_states, n_new)
                        break
                    if nnz_of[idx] == nnz:
                        same = True
                        for i in range(n_look):
                            if new_states[idx, look[i]] != src[look[i]]:
                                same = False
                                break
                        if same:
                            sid = idx
                            break
                    h = (h + 1) & mask
            sa = pool[q0, 1] + min(fired, line_cap) * line_place
            n_local = _merge_local(local, lslot, lused, lmask, n_local, sid, settled, sa,
                                   pool[q0, 2])
        out, k = _flush_local(out, k, local, lslot, lused, n_local)
        ptr[s + 1] = k
    states_out = np.empty((n_new, n_units), np.int32)
    _copy_rows(states_out, new_states, 0, n_new)
    outcomes = np.empty((k, 4), np.int64)
    _copy_rows(outcomes, out, 0, k)
    return states_out, ptr, outcomes


#: the most int64 words a state's code (:func:`state_code`) may take; past it the steps
#: compare whole rows (:func:`_step_room`)
MAX_CODE_WORDS = 4


def state_code(n_units: int, n_status: int, cls_ptr: np.ndarray, cls_mem: np.ndarray,
               max_words: int = MAX_CODE_WORDS) -> tuple[np.ndarray, np.ndarray, int] | None:
    """An exact additive code of a reel step's new states (:func:`_step_coded`), or None
    when it takes more than ``max_words`` int64 words.

    A state (the statuses ``0..n_status - 1`` of ``n_units`` units, canonical within each
    class of interchangeable units ``cls_ptr``, ``cls_mem``: :func:`unit_classes`) is the sum
    over its units of ``code_val[u, status]`` added to word ``code_word[u]``. A unit in no
    class is a digit of base ``n_status`` (its status); a class of ``m`` units is ``n_status
    - 1`` digits of base ``m + 1``, how many of its units show each nonzero status (a
    multiset: which unit shows which does not change the sum, so the code is canonical
    without a sort). Each digit stays below its base, so nothing carries and each word stays
    below ``2**62``: equal codes are equal states.

    Examples
    --------
    >>> word, val, n_words = state_code(3, 4, np.array([0, 2]), np.array([0, 2]))
    >>> val[:, 1:].tolist(), n_words   # units 0 and 2: one class (base 3); unit 1: base 4
    ([[1, 3, 9], [27, 54, 81], [1, 3, 9]], 1)
    """
    members = [cls_mem[cls_ptr[c]:cls_ptr[c + 1]].tolist() for c in range(len(cls_ptr) - 1)]
    in_class = {u for m in members for u in m}
    slots = members + [[u] for u in range(n_units) if u not in in_class]
    code_word = np.zeros(n_units, np.int64)
    code_val = np.zeros((n_units, max(n_status, 1)), np.int64)
    word, place = 0, 1
    for slot in slots:
        base = len(slot) + 1 if len(slot) > 1 else n_status
        span = base ** (n_status - 1) if len(slot) > 1 else n_status
        if span > _CODE_WORD:
            return None
        if place * span > _CODE_WORD:
            word, place = word + 1, 1
        for u in slot:
            code_word[u] = word
            for st in range(1, n_status):
                code_val[u, st] = place * (base ** (st - 1) if len(slot) > 1 else st)
        place *= span
    if word + 1 > max_words:
        return None
    return code_word, code_val, word + 1


_CODE_WORD = 2**62


@njit(cache=True)
def _code_hash(key, n_words):
    h = np.uint64(1469598103934665603)
    for k in range(n_words):
        h = (h ^ np.uint64(key[k])) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(29)
    return h


@njit(cache=True)
def _step_coded(states, nt, em, et, line_place, line_cap, ucol, colval, win_sa, win_weight,
                cls_ptr, cls_mem, code_word, code_val, n_words, digit, room):
    """:func:`_step_room` for a reel whose windows' columns are the values its units read
    (``by_effect``), its new states found by their exact code (:func:`state_code`): the same
    states in the same order, the same outcomes.

    Each state's open units give three tables over (column, value): the code, the credits
    settled and the trigger runs fired by the units reading that column on that value; a
    window's new state is then the sum of its columns' entries (a few additions) instead of
    a row built, sorted within its classes and hashed unit by unit, and states are compared
    by their ``n_words`` code words. The rows are decoded once at the end.
    """
    n_s, n_units = states.shape
    n_w = colval.shape[0]
    n_cols = colval.shape[1]
    n_vals = colval.max() + 1 if colval.size else 1
    lab = np.zeros((n_cols, n_vals), np.int32)
    reps = np.empty(n_vals, np.int64)
    col_units = np.empty(n_units, np.int64)
    cache = _new_grouping(n_cols, n_vals)
    pool = np.empty((4 * n_w, 4), np.int64)
    f_code = np.zeros((n_cols, n_vals, n_words), np.int64)
    f_settled = np.zeros((n_cols, n_vals), np.int64)
    f_fired = np.zeros((n_cols, n_vals), np.int64)
    cap_rows = 1024
    while cap_rows < 2 * n_s:
        cap_rows *= 2
    codes = np.empty((cap_rows, n_words), np.int64)
    n_new = 0
    table = np.full(4 * cap_rows, _EMPTY, np.int64)
    mask = table.shape[0] - 1
    ptr = np.zeros(n_s + 1, np.int64)
    out = np.empty((n_s * 8 + 16, 4), np.int64)  # tgt, settled, scatter pack, weight
    k = 0
    alive = np.empty(n_units, np.int64)
    key = np.zeros(n_words, np.int64)
    local, lslot, lused = _local_table(n_w)
    lmask = lslot.shape[0] - 1
    sid = 0
    settled = 0
    fired = 0
    limited = room.shape[0] > 0
    for s in range(n_s):
        na, _seen = _open_units(states, s, ucol, alive)
        _labels(states, s, alive, na, ucol, nt, em, et, True, lab, reps, col_units)
        start, stop, pool, cache = _grouping(lab, colval, win_sa, win_weight, cache, pool)
        f_code[:] = 0
        f_settled[:] = 0
        f_fired[:] = 0
        for i in range(na):
            u = alive[i]
            st = states[s, u]
            c = ucol[u]
            wd = code_word[u]
            for x in range(n_vals):
                f_code[c, x, wd] += code_val[u, nt[st, x]]
                f_settled[c, x] += em[st, x]
                f_fired[c, x] += et[st, x]
        n_local = 0
        fresh = False
        for q0 in range(start, stop):
            if pool[q0, 3]:
                fresh = True  # a new group: its state is made at its first row visited
            if limited and digit[pool[q0, 1]] > room[s]:
                continue
            if fresh:
                fresh = False
                w = pool[q0, 0]
                settled = 0
                fired = 0
                key[:] = 0
                for c in range(n_cols):
                    x = colval[w, c]
                    settled += f_settled[c, x]
                    fired += f_fired[c, x]
                    for q in range(n_words):
                        key[q] += f_code[c, x, q]
                h = np.int64(_code_hash(key, n_words) & np.uint64(mask))
                while True:
                    idx = table[h]
                    if idx == _EMPTY:
                        if n_new == codes.shape[0]:
                            grown = np.empty((2 * codes.shape[0], n_words), np.int64)
                            _copy_rows(grown, codes, 0, n_new)
                            codes = grown
                        for q in range(n_words):
                            codes[n_new, q] = key[q]
                        table[h] = n_new
                        sid = n_new
                        n_new += 1
                        if 2 * n_new > table.shape[0]:
                            table = np.full(2 * table.shape[0], _EMPTY, np.int64)
                            mask = table.shape[0] - 1
                            for t in range(n_new):
                                hh = np.int64(_code_hash(codes[t], n_words) & np.uint64(mask))
                                while table[hh] != _EMPTY:
                                    hh = (hh + 1) & mask
                                table[hh] = t
                        break
                    same = True
                    for q in range(n_words):
                        if codes[idx, q] != key[q]:
                            same = False
                            break
                    if same:
                        sid = idx
                        break
                    h = (h + 1) & mask
            sa = pool[q0, 1] + min(fired, line_cap) * line_place
            n_local = _merge_local(local, lslot, lused, lmask, n_local, sid, settled, sa,
                                   pool[q0, 2])
        out, k = _flush_local(out, k, local, lslot, lused, n_local)
        ptr[s + 1] = k
    states_out = _decode_states(codes, n_new, n_units, cls_ptr, cls_mem, code_word, code_val)
    outcomes = np.empty((k, 4), np.int64)
    _copy_rows(outcomes, out, 0, k)
    return states_out, ptr, outcomes


@njit(cache=True)
def _decode_states(codes, n_new, n_units, cls_ptr, cls_mem, code_word, code_val):
    """The rows of the first ``n_new`` codes (:func:`state_code`): a unit in no class reads
    its digit; a class's members get its statuses in descending order (as
    :func:`_canonical` sorts them)."""
    n_status = code_val.shape[1]
    rows = np.zeros((n_new, n_units), np.int32)
    in_class = np.zeros(n_units, np.bool_)
    for x in range(cls_mem.shape[0]):
        in_class[cls_mem[x]] = True
    for t in range(n_new):
        for u in range(n_units):
            if not in_class[u] and n_status > 1:
                rows[t, u] = (codes[t, code_word[u]] // code_val[u, 1]) % n_status
        for c in range(cls_ptr.shape[0] - 1):
            lo = cls_ptr[c]
            hi = cls_ptr[c + 1]
            base = hi - lo + 1
            m0 = cls_mem[lo]
            word = codes[t, code_word[m0]]
            at = lo
            for st in range(n_status - 1, 0, -1):
                for _ in range((word // code_val[m0, st]) % base):
                    rows[t, cls_mem[at]] = st
                    at += 1
    return rows


@njit(cache=True)
def _expand_entries(e_state, e_pack, e_credits, e_weight, ptr, outcomes, add_table, span):
    """:func:`_expand_kept` keeping every pack."""
    return _expand_kept(e_state, e_pack, e_credits, e_weight, ptr, outcomes, add_table, span,
                        np.ones(add_table.shape[0], np.bool_))


@njit(cache=True)
def _expand_kept(e_state, e_pack, e_credits, e_weight, ptr, outcomes, add_table, span, kept):
    """Carry every (state, scatter pack, credits, weight) entry through its state's outcomes,
    merging equal (new state, pack, credits) triples exactly in an open-addressing table;
    only the new packs ``p`` with ``kept[p]`` are made (the others are never counted)."""
    n_pack = add_table.shape[0]
    n_out = 0
    for e in range(e_state.shape[0]):
        s = e_state[e]
        n_out += ptr[s + 1] - ptr[s]
    size = 16
    while size < 2 * n_out:
        size *= 2
    keys = np.full(size, _EMPTY, np.int64)
    vals = np.zeros(size, np.int64)
    mask = size - 1
    used = 0
    for e in range(e_state.shape[0]):
        s = e_state[e]
        c = e_credits[e]
        wt = e_weight[e]
        pk = e_pack[e]
        for q in range(ptr[s], ptr[s + 1]):
            p2 = add_table[pk, outcomes[q, 2]]
            if not kept[p2]:
                continue
            key = (outcomes[q, 0] * n_pack + p2) * span + c + outcomes[q, 1]
            h = (key * 0x9E3779B97F4A7C15) & mask
            while True:
                kk = keys[h]
                if kk == key:
                    vals[h] += wt * outcomes[q, 3]
                    break
                if kk == _EMPTY:
                    keys[h] = key
                    vals[h] = wt * outcomes[q, 3]
                    used += 1
                    break
                h = (h + 1) & mask
    o_state = np.empty(used, np.int64)
    o_pack = np.empty(used, np.int64)
    o_credits = np.empty(used, np.int64)
    o_weight = np.empty(used, np.int64)
    i = 0
    for h in range(size):
        if keys[h] != _EMPTY:
            sp = keys[h] // span
            o_state[i] = sp // n_pack
            o_pack[i] = sp % n_pack
            o_credits[i] = keys[h] % span
            o_weight[i] = vals[h]
            i += 1
    return o_state, o_pack, o_credits, o_weight


@njit(cache=True)
def _expand_by_state(e_state, e_pack, e_credits, e_weight, ptr, outcomes, add_table, span,
                     kept):
    """:func:`_expand_kept`, the entries made in the order of their new state.

    Each new state gets its own stretch of the table (twice its (entry, outcome) pairs,
    counted first), so reading the table in order lists the entries by state: the next step
    (and the last reel's fold) then reads each state's entries, and the outcomes of their
    old states, one after another instead of all over memory (on Gus's Gold Christmas's
    Dynamite the fold took 1.8 x as long over entries in hash order)."""
    n_t = 0
    for q in range(outcomes.shape[0]):
        n_t = max(n_t, outcomes[q, 0] + 1)
    region = np.zeros(n_t + 1, np.int64)
    for e in range(e_state.shape[0]):
        s = e_state[e]
        pk = e_pack[e]
        for q in range(ptr[s], ptr[s + 1]):
            if kept[add_table[pk, outcomes[q, 2]]]:
                region[outcomes[q, 0] + 1] += 2
    for t in range(n_t):
        region[t + 1] += region[t]
    size = region[n_t]
    keys = np.full(size, _EMPTY, np.int64)
    vals = np.zeros(size, np.int64)
    used = 0
    for e in range(e_state.shape[0]):
        s = e_state[e]
        c = e_credits[e]
        wt = e_weight[e]
        pk = e_pack[e]
        for q in range(ptr[s], ptr[s + 1]):
            p2 = add_table[pk, outcomes[q, 2]]
            if not kept[p2]:
                continue
            t = outcomes[q, 0]
            lo = region[t]
            width = region[t + 1] - lo
            key = p2 * span + c + outcomes[q, 1]
            h = lo + key % width
            while True:
                kk = keys[h]
                if kk == key:
                    vals[h] += wt * outcomes[q, 3]
                    break
                if kk == _EMPTY:
                    keys[h] = key
                    vals[h] = wt * outcomes[q, 3]
                    used += 1
                    break
                h += 1
                if h == lo + width:
                    h = lo
    o_state = np.empty(used, np.int64)
    o_pack = np.empty(used, np.int64)
    o_credits = np.empty(used, np.int64)
    o_weight = np.empty(used, np.int64)
    i = 0
    for t in range(n_t):
        for h in range(region[t], region[t + 1]):
            if keys[h] != _EMPTY:
                o_state[i] = t
                o_pack[i] = keys[h] // span
                o_credits[i] = keys[h] % span
                o_weight[i] = vals[h]
                i += 1
    return o_state, o_pack, o_credits, o_weight


@njit(cache=True)
def _last_state(states, s, nt, em, et, line_place, line_cap, final, inputs, ucol, colval,
                win_sa, win_weight, by_effect, work, cache, pool, local, lslot, lused, lmask):
    """:func:`_last_state_in` over every window."""
    return _last_state_in(states, s, nt, em, et, line_place, line_cap, final, inputs, ucol,
                          colval, win_sa, win_weight, by_effect, work, cache, pool, local,
                          lslot, lused, lmask, np.zeros(0, np.int64), 1, 0, 0)


@njit(cache=True)
def _last_state_in(states, s, nt, em, et, line_place, line_cap, final, inputs, ucol, colval,
                   win_sa, win_weight, by_effect, work, cache, pool, local, lslot, lused,
                   lmask, digit, dig_radix, m_lo, m_hi):
    """The distinct (credits settled, scatter pack added) outcomes of state ``s`` on the last
    reel, merged in ``local`` (its first ``n_local`` rows: credits, pack, 0, weight).

    With ``by_effect``, a state's last reel is two tables over (column, value): the credits
    its open units settle and the trigger runs they complete, summed over the units reading
    that column; a window's outcome is the sum of its columns' entries, and windows whose
    values agree class by class (equal table entries) are evaluated once. Only the windows
    whose pack digit ``digit[pack]`` is in ``m_lo..m_hi`` are visited (``dig_radix`` 1:
    every window).
    Returns ``(n_local, cache, pool)``.
    """
    lab, reps, col_units, f_add, f_fire, alive = work
    n_cols, n_vals = lab.shape
    na, seen = _open_units(states, s, ucol, alive)
    if by_effect:
        f_add.fill(0)
        f_fire.fill(0)
        for i in range(na):
            u = alive[i]
            st = states[s, u]
            c = ucol[u]
            for x in range(n_vals):
                f_add[c, x] += em[st, x] + final[nt[st, x]]
                f_fire[c, x] += et[st, x]
        lab.fill(0)
        for c in range(n_cols):
            if not (seen >> c) & 1:
                continue
            n_lab = 0
            for x in range(n_vals):
                found = -1
                for q in range(n_lab):
                    y = reps[q]
                    if f_add[c, x] == f_add[c, y] and f_fire[c, x] == f_fire[c, y]:
                        found = q
                        break
                if found < 0:
                    reps[n_lab] = x
                    found = n_lab
                    n_lab += 1
                lab[c, x] = found
    else:
        _labels(states, s, alive, na, ucol, nt, em, et, False, lab, reps, col_units)
    start, stop, pool, cache = _grouping(lab, colval, win_sa, win_weight, cache, pool)
    n_local = 0
    add = 0
    fired = 0
    fresh = False
    for q0 in range(start, stop):
        if pool[q0, 3]:
            fresh = True  # a new group: evaluated at its first row visited
        if dig_radix > 1:
            m = digit[pool[q0, 1]]
            if m < m_lo or m > m_hi:
                continue
        if fresh:
            fresh = False
            w = pool[q0, 0]
            add = 0
            fired = 0
            if by_effect:
                for c in range(n_cols):
                    x = colval[w, c]
                    add += f_add[c, x]
                    fired += f_fire[c, x]
            else:
                for i in range(na):
                    u = alive[i]
                    st = states[s, u]
                    a = inputs[w, u]
                    add += em[st, a] + final[nt[st, a]]
                    fired += et[st, a]
        sa = pool[q0, 1] + min(fired, line_cap) * line_place
        n_local = _merge_local(local, lslot, lused, lmask, n_local, add, sa, 0, pool[q0, 2])
    return n_local, cache, pool


@njit(cache=True)
def _last_bound(states, nt, em, final):
    """The most credits any state's open units can settle on the last reel."""
    best_of = np.zeros(nt.shape[0], np.int64)
    for st in range(nt.shape[0]):
        for x in range(nt.shape[1]):
            best_of[st] = max(best_of[st], em[st, x] + final[nt[st, x]])
    bound = 0
    for s in range(states.shape[0]):
        total = 0
        for u in range(states.shape[1]):
            total += best_of[states[s, u]]
        bound = max(bound, total)
    return bound


@njit(cache=True)
def _fold_last(states, nt, em, et, line_place, line_cap, final, inputs, ucol, colval, win_sa,
               win_weight, by_effect, e_state, e_pack, e_credits, e_weight, add_table,
               pack_credits, pack_trigger, out):
    """:func:`_fold_in` of every entry through every outcome."""
    _fold_in(states, nt, em, et, line_place, line_cap, final, inputs, ucol, colval, win_sa,
             win_weight, by_effect, e_state, e_pack, e_credits, e_weight, add_table,
             pack_credits, pack_trigger, out, np.zeros(add_table.shape[0], np.int64), 1, 0, 0)


@njit(cache=True)
def _fold_in(states, nt, em, et, line_place, line_cap, final, inputs, ucol, colval, win_sa,
             win_weight, by_effect, e_state, e_pack, e_credits, e_weight, add_table,
             pack_credits, pack_trigger, out, digit, dig_radix, lo, hi):
    """The last reel, folded into ``out[row, credits]``: every (state, scatter pack, credits,
    weight) entry through its state's outcomes (:func:`_last_state_in`), one state at a time
    (states no entry reaches are skipped). ``out`` must be wide enough
    (:func:`_last_bound`).

    Only the pairs whose pack digits ``digit[pack]`` (of ``dig_radix`` values; the entry's
    and the outcome's) sum to ``lo..hi`` are folded (a modifier's chosen positions: the
    counts its law uses); ``out``'s other rows of that digit stay 0. ``dig_radix`` 1 and
    ``digit`` all 0: every pair.
    """
    n_s, n_units = states.shape
    n_w = colval.shape[0]
    n_cols = colval.shape[1]
    n_vals = colval.max() + 1 if colval.size else 1  # no units: one class
    work = (np.zeros((n_cols, n_vals), np.int32), np.empty(n_vals, np.int64),
            np.empty(n_units, np.int64), np.zeros((n_cols, n_vals), np.int64),
            np.zeros((n_cols, n_vals), np.int64), np.empty(n_units, np.int64))
    cache = _new_grouping(n_cols, n_vals)
    pool = np.empty((4 * n_w, 4), np.int64)
    local, lslot, lused = _local_table(n_w)
    lmask = lslot.shape[0] - 1
    # entries by state (counting sort)
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
    # the outcomes of a state by their digit (counting sort): by_m[m]..by_m[m + 1]
    by_m = np.zeros(dig_radix + 1, np.int64)
    m_fill = np.zeros(dig_radix, np.int64)
    m_order = np.empty(n_w, np.int64)
    for s in range(n_s):
        if start[s] == start[s + 1]:
            continue
        c_min = dig_radix
        c_max = 0
        for t in range(start[s], start[s + 1]):
            d = digit[e_pack[order[t]]]
            c_min = min(c_min, d)
            c_max = max(c_max, d)
        m_lo = max(0, lo - c_max)
        m_hi = min(dig_radix - 1, hi - c_min)
        if m_lo > m_hi:
            continue
        n_local, cache, pool = _last_state_in(
            states, s, nt, em, et, line_place, line_cap, final, inputs, ucol, colval, win_sa,
            win_weight, by_effect, work, cache, pool, local, lslot, lused, lmask, digit,
            dig_radix, m_lo, m_hi)
        if n_local > m_order.shape[0]:
            m_order = np.empty(2 * n_local, np.int64)
        by_m[:] = 0
        for q in range(n_local):
            by_m[digit[local[q, 1]] + 1] += 1
        for m in range(dig_radix):
            by_m[m + 1] += by_m[m]
            m_fill[m] = by_m[m]
        for q in range(n_local):
            m = digit[local[q, 1]]
            m_order[m_fill[m]] = q
            m_fill[m] += 1
        for t in range(start[s], start[s + 1]):
            e = order[t]
            c = e_credits[e]
            wt = e_weight[e]
            pk = e_pack[e]
            d = digit[pk]
            a = max(0, lo - d)
            b = min(dig_radix - 1, hi - d)
            if a > b:
                continue
            for r in range(by_m[a], by_m[b + 1]):
                q = m_order[r]
                p2 = add_table[pk, local[q, 1]]
                out[pack_trigger[p2], c + local[q, 0] + pack_credits[p2]] += wt * local[q, 3]
        for q in range(n_local):
            lslot[lused[q]] = -1


def count_credits(model: PayModel, name: str, counts: np.ndarray) -> np.ndarray:
    """What each count in ``counts`` of symbol ``name`` pays as a scatter, in credits (0 for
    a counted symbol that is no scatter: a hold & win cash symbol)."""
    paid = np.asarray(model.scatter_credits.get(name, ()), dtype=np.int64)
    credits = np.zeros(int(counts.max(initial=0)) + 1, dtype=np.int64)
    credits[: len(paid)] = paid[: len(credits)]
    return credits[counts]


def _packing(caps: list[int]):
    """Mixed-radix packing of capped scatter counts: digits, add table."""
    radices = [c + 1 for c in caps]
    n_pack = 1
    for r in radices:
        n_pack *= r
    digits = np.zeros((n_pack, len(caps)), dtype=np.int64)
    for p in range(n_pack):
        rest = p
        for t, r in enumerate(radices):
            digits[p, t] = rest % r
            rest //= r
    place = np.cumprod([1] + radices[:-1]).astype(np.int64) if caps else np.zeros(0, np.int64)
    summed = np.minimum(digits[:, None, :] + digits[None, :, :], np.asarray(caps, dtype=np.int64))
    add_table = (summed * place).sum(axis=2).astype(np.int64)
    return digits, place, add_table


@dataclass(frozen=True)
class CountColumns:
    """The engine's counted columns of a spin: the scatters it tracks (capped counts packed
    into one mixed-radix digit string, :func:`_packing`), what each pack pays, and the output
    row each pack lands in.

    ``counts`` are the symbols counted in the output, each with its cap (a count at or
    above the cap is stored as the cap); the row of a pack is the mixed-radix number of the
    capped counts, the first count most significant, so the output is a dense array of
    shape ``dims + (credits,)``. A counted symbol that neither pays nor triggers is tracked
    for the count alone.
    """

    tracked: list  # the scatter symbols tracked, in digit order
    caps: list  # the cap of each tracked digit
    digits: np.ndarray  # (packs, digits): each pack's capped counts
    place: np.ndarray
    add_table: np.ndarray
    pack_credits: np.ndarray  # (packs,): scatter credits of each pack
    rows: np.ndarray  # (packs,): the output row of each pack over ``counts``
    dims: tuple  # (cap + 1 for each counted symbol)

    @classmethod
    def of(cls, game: Game, model: PayModel, counts, extra_caps=()) -> CountColumns:
        """The columns of ``game`` counting ``counts`` ((symbol, cap), ...), with one more
        digit per cap of ``extra_caps`` after the scatters (a line trigger's, a modifier's
        chosen positions): those are left for the caller to place in the output row."""
        tracked, caps = _tracked_scatters(game, model)
        for symbol, cap in counts:
            if symbol in tracked:
                i = tracked.index(symbol)
                caps[i] = max(caps[i], cap)
            else:
                tracked, caps = tracked + [symbol], caps + [cap]
        digits, place, add_table = _packing(caps + list(extra_caps))
        pack_credits = np.zeros(len(digits), dtype=np.int64)
        for t, name in enumerate(tracked):
            pack_credits += count_credits(model, name, digits[:, t])
        rows = np.zeros(len(digits), dtype=np.int64)
        for symbol, cap in counts:
            rows = rows * (cap + 1) + np.minimum(digits[:, tracked.index(symbol)], cap)
        return cls(tracked, caps, digits, place, add_table, pack_credits, rows,
                   tuple(cap + 1 for _, cap in counts))


def trigger_counts(game: Game) -> tuple[tuple[str, int], ...]:
    """What the plain engine counts: the free-spin trigger symbol, capped at the top award
    count (nothing without free spins)."""
    if game.free_spins is None:
        return ()
    return ((game.free_spins.trigger, max(game.free_spins.awards)),)


@dataclass(frozen=True)
class _Prepared:
    """Everything the DP needs that does not depend on which reel-1 stops it enumerates."""

    game: Game
    rs: ReelSet
    model: PayModel
    symbol_ids: dict
    tracked: list
    scatter_caps: np.ndarray
    place: np.ndarray
    add_table: np.ndarray
    windows: list  # (reel windows, scatter pack) of reels 2..n
    automaton: object
    emit_trigger: tuple
    line_place: int
    line_cap: int
    pack_credits: np.ndarray
    out_row: np.ndarray
    dims: tuple  # the output's shape before credits: each count's cap + 1, line cap + 1
    # per reel, the unit classes its step sorts within (unit_classes; none: _NO_CLASSES).
    # Off in the plain engine: on its games the sort costs more than the states it merges
    # (bench_engine); the modifiers' virtual reels, with many more windows, turn it on.
    classes: tuple = ()

    @property
    def n_rows(self) -> int:
        return int(np.prod(self.dims))


def _pack(rw: _ReelWindows, scatter_caps: np.ndarray, place: np.ndarray) -> np.ndarray:
    pack = (np.minimum(rw.scatter, scatter_caps) * place[: len(scatter_caps)]).sum(axis=1)
    return np.ascontiguousarray(pack, dtype=np.int64)


def _prepare(game: Game, rs: ReelSet, model: PayModel,
             line_trigger: tuple[str, int] | None, line_cap: int,
             counts: tuple[tuple[str, int], ...] | None = None) -> _Prepared:
    """``counts``: the symbols counted in the output ((symbol, cap), ...; default: the
    free-spin trigger, :func:`trigger_counts`), jointly with the line trigger's lines."""
    if rs.cycle >= _INT64_SAFE:
        raise OverflowError(
            f"full cycle {rs.cycle} is too large for exact int64 weights; reduce stop weights"
        )
    symbol_ids = _symbol_ids(game)
    counts = trigger_counts(game) if counts is None else tuple(counts)
    for symbol, _ in counts:
        if symbol not in symbol_ids:
            raise ValueError(f"symbol {symbol!r} is not in the game")
    cols = CountColumns.of(game, model, counts, [line_cap] if line_trigger else [])
    tracked, place = cols.tracked, cols.place
    scatter_caps = np.asarray(cols.caps, dtype=np.int32)
    windows = []
    for j in range(game.n_reels):
        rw = _reel_windows(game, model, rs, j, symbol_ids, tracked)
        windows.append((rw, _pack(rw, scatter_caps, place)))
    if game.paylines is not None:
        automaton = line_automaton(model, symbol_ids, line_trigger=line_trigger)
    else:
        if line_trigger:
            raise ValueError("a line trigger needs a lines game")
        max_count = max(int(rw.inputs.max(initial=0)) for rw, _ in windows)
        automaton = ways_automaton(model, max(max_count, 1))
    if line_trigger:
        emit_trigger = automaton.emit_trigger
        line_place = int(place[-1])
    else:
        emit_trigger = tuple(np.zeros_like(em) for em in automaton.emit)
        line_place = 0
    # Output row: the counts' mixed-radix row * (line_cap + 1) + trigger-line index.
    out_row = cols.rows * (line_cap + 1)
    if line_trigger:
        out_row = out_row + cols.digits[:, -1]
    return _Prepared(game, rs, model, symbol_ids, tracked, scatter_caps, place,
                     cols.add_table, windows, automaton, emit_trigger, line_place, line_cap,
                     cols.pack_credits, np.ascontiguousarray(out_row, dtype=np.int64),
                     cols.dims + (line_cap + 1,))


def _run(prep: _Prepared, first_stops=None, reel: int = 0) -> np.ndarray:
    """The DP itself: dense weights out[output row, credits] (the row: the counts' and the
    trigger lines' mixed-radix index, ``prep.dims``).

    ``first_stops``: the stops of reel ``reel`` (default reel 1) enumerated (default all); at
    least one of them must have a weight.
    """
    automaton, line_cap, line_place = prep.automaton, prep.line_cap, prep.line_place
    emit_trigger = prep.emit_trigger
    windows = list(prep.windows)
    if first_stops is not None:
        rw = _reel_windows(prep.game, prep.model, prep.rs, reel, prep.symbol_ids, prep.tracked,
                           first_stops)
        windows[reel] = (rw, _pack(rw, prep.scatter_caps, prep.place))
    n = len(windows)
    add_table = prep.add_table

    states = np.asarray([automaton.start], dtype=np.int32)
    e_state = np.zeros(1, dtype=np.int64)
    e_pack = np.zeros(1, dtype=np.int64)
    e_credits = np.zeros(1, dtype=np.int64)
    e_weight = np.ones(1, dtype=np.int64)
    for j in range(n - 1):
        rw, pack = windows[j]
        states, ptr, outcomes = _step_kernel(
            states, automaton.next_status[j], automaton.emit[j], emit_trigger[j], line_place,
            line_cap, rw.inputs, rw.ucol, rw.columns, pack, rw.weights,
            *(prep.classes[j] if prep.classes else _NO_CLASSES), rw.by_effect,
        )
        span = int(e_credits.max()) + int(outcomes[:, 1].max(initial=0)) + 1
        e_state, e_pack, e_credits, e_weight = _expand_entries(
            e_state, e_pack, e_credits, e_weight, ptr, outcomes, add_table, span
        )

    # Last reel: settle every unit, add scatter pays, fold into a dense output.
    rw, pack = windows[n - 1]
    nt, em, final = automaton.next_status[n - 1], automaton.emit[n - 1], automaton.final
    max_credits = (int(e_credits.max()) + _last_bound(states, nt, em, final)
                   + int(prep.pack_credits.max()))
    out = np.zeros((prep.n_rows, max_credits + 1), dtype=np.int64)
    _fold_last(states, nt, em, emit_trigger[n - 1], line_place, line_cap, final, rw.inputs,
               rw.ucol, rw.columns, pack, rw.weights, rw.by_effect, e_state, e_pack,
               e_credits, e_weight, add_table, prep.pack_credits, prep.out_row, out)
    return out


# Parts a progress-reporting enumeration is cut into. The set-up (windows, automaton) is shared;
# the DP over reels 2..n revisits, per part, the states the parts have in common: on
# bench_engine's game 5 to 20 parts take about 1.3 x one pass (measured side by side).
PROGRESS_PARTS = 20


def _part_run(prep: _Prepared, part: list[int]):
    """:func:`_run` over the reel-1 stops ``part`` (None if none of them has a weight): one
    chunk of :func:`slotmath.exact.workers.map_parts`."""
    weights = prep.rs.reels[0].stop_weights
    return _run(prep, part) if any(weights[s] for s in part) else None


def _checked_stops(rs: ReelSet, first_stops) -> list[int]:
    n_stops = len(rs.reels[0].stop_weights)
    stops = list(first_stops)
    if len(set(stops)) != len(stops):
        raise ValueError("first_stops lists a stop twice")
    bad = [s for s in stops if not 0 <= s < n_stops]
    if bad:
        raise ValueError(f"first_stops {bad[:3]} are not stops of reel 1 (0..{n_stops - 1})")
    return stops


def _enumerate(game: Game, rs: ReelSet, model: PayModel,
               line_trigger: tuple[str, int] | None, line_cap: int, first_stops=None,
               progress=None, counts: tuple[tuple[str, int], ...] | None = None):
    """Dense weights over the reel-1 stops asked for (shape ``dims + (credits,)``), the
    output's dims and the cycle covered.

    One pass when no progress is asked for; otherwise the stops are cut into at most
    :data:`PROGRESS_PARTS` contiguous parts, summed exactly, with ``progress(stops done,
    stops)`` before the first part and after each.
    """
    prep = _prepare(game, rs, model, line_trigger, line_cap, counts)
    reel_weights = rs.reels[0].stop_weights
    rest = rs.cycle // rs.reels[0].cycle
    spread = parallel.current() is not None and not parallel.in_chunk()  # slotmath.executor
    if first_stops is None and progress is None and not spread:
        out = _run(prep)
        return out.reshape(prep.dims + (out.shape[1],)), prep.dims, rs.cycle
    stops = list(range(len(reel_weights))) if first_stops is None else _checked_stops(
        rs, first_stops)
    covered = sum(reel_weights[s] for s in stops) * rest
    if progress is None and not spread:
        parts = [stops]
    else:
        k = max(1, min(PROGRESS_PARTS, len(stops)))
        parts = [stops[i * len(stops) // k:(i + 1) * len(stops) // k] for i in range(k)]
    if progress is not None:
        progress(0, len(stops))
    total = np.zeros((prep.n_rows, 1), dtype=np.int64)
    done = 0
    for part, out in zip(parts, map_parts(_part_run, parts, 1, shared=prep)):
        if out is not None:
            if out.shape[1] > total.shape[1]:
                total = np.concatenate(
                    [total, np.zeros((total.shape[0], out.shape[1] - total.shape[1]),
                                     dtype=np.int64)], axis=1)
            total[:, : out.shape[1]] += out
        done += len(part)
        if progress is not None:
            progress(done, len(stops))
    return total.reshape(prep.dims + (total.shape[1],)), prep.dims, covered


def spin_table(game: Game, reel_set: str | ReelSet = "base", level: int = 1,
               model: PayModel | None = None, *, first_stops: Sequence[int] | None = None,
               progress: Callable[[int, int], None] | None = None,
               count_symbol: str | None = None) -> SpinTable:
    """Exact (trigger count, credits) weights of one spin over the full cycle.

    Parameters
    ----------
    game : Game
    reel_set : str or ReelSet
        Name of the reel set (or the set itself, for what-if strips).
    level : int
        Bet level.
    model : PayModel, optional
        The game's pay model at ``level`` (built when not given).
    first_stops : sequence of int, optional
        Enumerate only the stop combinations whose reel-1 stop is in ``first_stops`` (e.g.
        ``range(0, 40)``). The table's ``cycle`` is then the weight it covers (the reel-1
        weights of those stops times the other reels' cycles), so each part is a valid
        table and :func:`merge_tables` of parts covering every stop once equals the whole
        enumeration exactly. Default: every stop.
    progress : callable, optional
        ``progress(done, total)`` in reel-1 stops: called with ``(0, total)`` first and
        after each part, ending with ``(total, total)``. With a callback the stops are
        enumerated in up to :data:`PROGRESS_PARTS` parts, summed exactly (about 1.3 x the
        time of one pass on ``benchmarks/bench_engine.py``'s game: the parts share states
        on the later reels); without one, in one pass, exactly as before.
    count_symbol : str, optional
        Count this symbol in the window instead of the free-spin trigger (every count,
        up to the window's positions): the cash symbols of a hold & win game.
        (:func:`counts_table` counts any number of symbols jointly.)

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.exact.brute import brute_force
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> spin_table(g) == brute_force(g)
    True

    In parts, e.g. one per worker:

    >>> parts = [spin_table(g, first_stops=r) for r in first_reel_parts(g, 3)]
    >>> [t.cycle for t in parts], merge_tables(parts) == spin_table(g)
    ([128, 192, 192], True)
    """
    rs = game.reel_sets[reel_set] if isinstance(reel_set, str) else reel_set
    model = model or PayModel(game, level)
    counts = None if count_symbol is None else ((count_symbol, sum(game.rows)),)
    out, dims, cycle = _enumerate(game, rs, model, None, 0, first_stops, progress, counts)
    dense = out.reshape(dims[0] if len(dims) > 1 else 1, out.shape[-1])
    t_idx, c_idx = np.nonzero(dense)
    weights = {(int(t), int(c)): int(dense[t, c]) for t, c in zip(t_idx, c_idx)}
    return SpinTable(weights, cycle, model.credits_per_bet, dims[0] - 1 if len(dims) > 1 else 0)


def counts_table(game: Game, counts: Sequence[tuple[str, int]], reel_set: str | ReelSet = "base",
                 level: int = 1, model: PayModel | None = None, *,
                 line_trigger: tuple[str, int, int] | None = None,
                 first_stops: Sequence[int] | None = None,
                 progress: Callable[[int, int], None] | None = None
                 ) -> tuple[dict[tuple[int, ...], int], int, int]:
    """Exact weights of one spin's joint counts and credits: any number of symbols counted
    in the window at once, and the lines of one line trigger.

    Parameters
    ----------
    game : Game
    counts : sequence of (symbol, cap)
        The symbols counted in the window, each up to ``cap`` (a count at or above it is
        stored as ``cap``); a symbol may be a scatter or any other symbol.
    reel_set, level, model, first_stops, progress :
        As in :func:`spin_table`.
    line_trigger : (symbol, count, cap), optional
        Also count the paylines showing ``symbol`` at least ``count`` times in succession
        from reel 1, up to ``cap`` lines (as :func:`line_trigger_table`).

    Returns
    -------
    weights : dict
        ``(count of each symbol..., [trigger lines,] credits) -> weight``, zero weights left
        out.
    cycle : int
        The weight covered.
    credits_per_bet : int

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> w, cycle, _ = counts_table(g, [("SC", 3), ("BAR", 9)])
    >>> cycle, sum(w.values()) == cycle
    (512, True)
    >>> only = {}
    >>> for (s, _, c), x in w.items():
    ...     only[s, c] = only.get((s, c), 0) + x
    >>> only == dict(spin_table(g).weights)   # the scatter count alone: the plain table
    True
    """
    rs = game.reel_sets[reel_set] if isinstance(reel_set, str) else reel_set
    model = model or PayModel(game, level)
    line, line_cap = None, 0
    if line_trigger is not None:
        symbol, count, line_cap = line_trigger
        if game.paylines is None:
            raise ValueError("a line trigger needs a lines game")
        if symbol not in game.symbols:
            raise ValueError(f"symbol {symbol!r} is not in the game")
        if count < 1:
            raise ValueError(f"count must be >= 1, got {count}")
        line = (symbol, count)
    counts = tuple((str(s), int(c)) for s, c in counts)
    if any(c < 0 for _, c in counts):
        raise ValueError(f"a count's cap must be >= 0: {counts}")
    if len({s for s, _ in counts}) != len(counts):
        raise ValueError(f"a symbol is counted twice: {counts}")
    out, dims, cycle = _enumerate(game, rs, model, line, line_cap, first_stops, progress,
                                  counts)
    if line is None:
        out = out.reshape(dims[:-1] + (out.shape[-1],))
    idx = np.nonzero(out)
    weights = dict(zip(map(tuple, np.stack(idx, axis=1).tolist()), out[idx].tolist()))
    return weights, cycle, model.credits_per_bet


def line_trigger_table(game: Game, symbol: str, count: int, reel_set: str | ReelSet = "base",
                       level: int = 1, cap: int | None = None,
                       model: PayModel | None = None, *,
                       first_stops: Sequence[int] | None = None,
                       progress: Callable[[int, int], None] | None = None
                       ) -> LineTriggerTable:
    """Exact weights of (trigger count, trigger lines, credits) for one spin.

    *Trigger lines* counts the paylines on which ``symbol`` shows at least ``count`` times in
    succession from reel 1 (a line-triggered feature such as a bonus game); counts above
    ``cap`` (default: every line) are stored as ``cap``. The rest is as in
    :func:`spin_table`.

    Parameters
    ----------
    game : Game
    symbol : str
    count : int
    reel_set : str or ReelSet
    level : int
    cap : int, optional
    model : PayModel, optional
    first_stops, progress :
        As in :func:`spin_table`.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> t = line_trigger_table(g, "BAR", 3)
    >>> t.spin_table() == spin_table(g)
    True
    >>> t.line_weights()  # BAR on reel 1 row r and on reels 2 and 3 of a line: 5 lines
    {0: 507, 1: 5}
    """
    rs = game.reel_sets[reel_set] if isinstance(reel_set, str) else reel_set
    model = model or PayModel(game, level)
    if symbol not in game.symbols:
        raise ValueError(f"symbol {symbol!r} is not in the game")
    if count < 1:
        raise ValueError(f"count must be >= 1, got {count}")
    cap = game.n_lines if cap is None else cap
    out, dims, cycle = _enumerate(game, rs, model, (symbol, count), cap, first_stops,
                                  progress)
    out = out.reshape((dims[0] if len(dims) > 1 else 1,) + out.shape[-2:])
    t_idx, b_idx, c_idx = np.nonzero(out)
    weights = {(int(t), int(b), int(c)): int(out[t, b, c])
               for t, b, c in zip(t_idx, b_idx, c_idx)}
    trigger_cap = dims[0] - 1 if len(dims) > 1 else 0
    return LineTriggerTable(weights, cycle, model.credits_per_bet, trigger_cap, cap)


class StopTables:
    """Dense tables of one spin with reel ``reel`` held at one stop, the set-up done once.

    The same enumeration as :func:`spin_table` (``line_trigger`` and ``line_cap``: as
    :func:`line_trigger_table`; ``count_symbol``: as :func:`spin_table`), for one stop of
    ``reel`` at a time: :meth:`dense` gives ``out[trigger, trigger lines, credits]`` of the
    stop combinations with reel ``reel`` at ``stop`` (weights of the other reels; the stop's
    own weight included). The windows of every reel, the automaton and the scatter packing
    are prepared once (:mod:`slotmath.tune` asks for a table per window of one reel).
    ``model``: the game's pay model at the bet level wanted (default: level 1).

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> st = StopTables(g, g.base, 1)
    >>> parts = [st.dense(s) for s in range(8)]
    >>> whole = _enumerate(g, g.base, PayModel(g), None, 0)[0]
    >>> size = max(p.shape[2] for p in parts + [whole])
    >>> pad = lambda a: np.pad(a, ((0, 0), (0, 0), (0, size - a.shape[2])))
    >>> bool((sum(pad(p) for p in parts) == pad(whole)).all())
    True
    """

    def __init__(self, game: Game, rs: ReelSet, reel: int, model: PayModel | None = None,
                 line_trigger: tuple[str, int] | None = None, line_cap: int = 0,
                 count_symbol: str | None = None):
        self.model = model or PayModel(game)
        self.reel = reel
        counts = None if count_symbol is None else ((count_symbol, sum(game.rows)),)
        self.prep = _prepare(game, rs, self.model, line_trigger, line_cap, counts)
        dims = self.prep.dims
        if len(dims) > 2:
            raise ValueError("StopTables counts one symbol (or the trigger) at most")
        self._shape = dims if len(dims) == 2 else (1,) + dims  # (trigger, trigger lines)
        self.trigger_cap = self._shape[0] - 1

    def dense(self, stop: int) -> np.ndarray:
        """``out[trigger, trigger lines, credits]`` with reel ``reel`` at ``stop``."""
        out = _run(self.prep, [stop], self.reel)
        return out.reshape(self._shape + (out.shape[1],))


def first_reel_parts(game: Game, parts: int, reel_set: str | ReelSet = "base") -> list[range]:
    """Reel-1 stops cut into ``parts`` contiguous ranges of (nearly) equal length.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> first_reel_parts(g, 3)
    [range(0, 2), range(2, 5), range(5, 8)]
    """
    rs = game.reel_sets[reel_set] if isinstance(reel_set, str) else reel_set
    if parts < 1:
        raise ValueError(f"parts must be >= 1, got {parts}")
    n = len(rs.reels[0].stop_weights)
    return [range(i * n // parts, (i + 1) * n // parts) for i in range(parts)]


Table = TypeVar("Table", SpinTable, LineTriggerTable)


def merge_tables(parts: Iterable[Table]) -> Table:
    """Sum partial tables of one game exactly: weights and cycles add.

    The parts must be of one kind (all :class:`SpinTable` or all :class:`LineTriggerTable`)
    with the same ``credits_per_bet`` and caps; that they cover each stop combination once
    is the caller's (a merged table of the whole cycle has ``cycle == reel_set.cycle``).

    Examples
    --------
    >>> a = SpinTable({(0, 0): 3, (0, 10): 1}, 4, 10, 0)
    >>> b = SpinTable({(0, 0): 2}, 2, 10, 0)
    >>> merged = merge_tables([a, b])
    >>> dict(merged.weights), merged.cycle
    ({(0, 0): 5, (0, 10): 1}, 6)
    """
    parts = list(parts)
    if not parts:
        raise ValueError("no tables to merge")
    first = parts[0]
    kind = type(first)
    caps = (first.credits_per_bet, first.trigger_cap, getattr(first, "line_cap", None))
    weights: dict = {}
    for t in parts:
        if type(t) is not kind:
            raise ValueError(f"cannot merge a {type(t).__name__} with a {kind.__name__}")
        if (t.credits_per_bet, t.trigger_cap, getattr(t, "line_cap", None)) != caps:
            raise ValueError("tables differ in credits per bet or caps: not parts of one game")
        for key, w in t.weights.items():
            weights[key] = weights.get(key, 0) + w
    cycle = sum(t.cycle for t in parts)
    if kind is LineTriggerTable:
        return LineTriggerTable(weights, cycle, first.credits_per_bet, first.trigger_cap,
                                first.line_cap)
    return SpinTable(weights, cycle, first.credits_per_bet, first.trigger_cap)
