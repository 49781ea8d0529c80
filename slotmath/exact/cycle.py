"""Fast exact full-cycle enumeration: a reel-by-reel dynamic program over merged states.

The win of a spin is a sum over units (paylines, or ways pay-table entries) plus scatter
pays. Reading the reels left to right, every unit's future depends only on its automaton
status (see :mod:`slotmath.exact.automata`), so stop combinations that leave every unit in the
same status and the same scatter counts are merged into one *state* carrying the exact
integer weights of the credits already settled. Each reel's stops are first merged into its
distinct windows. The last reel is folded straight into a dense table of
(trigger count, credits) -> weight by a compiled kernel.

The result is exactly what :func:`slotmath.exact.brute.brute_force` gets by visiting every
stop combination (tests check equality on random games), in a fraction of the time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from slotmath.evaluate.window import PayModel
from slotmath.exact.automata import Automaton, line_automaton, ways_automaton
from slotmath.exact.spin_table import SpinTable
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


def _tracked_scatters(game: Game, model: PayModel) -> tuple[list[str], list[int]]:
    """Scatters whose count matters (they pay or trigger) and the count each is capped at."""
    names, caps = [], []
    fs = game.free_spins
    for name in game.scatters:
        sym = game.symbols[name]
        counts = set(sym.pays) | {c for col in sym.level_pays.values() for c in col}
        cap = max(counts) if counts else 0
        if fs is not None and fs.trigger == name:
            cap = max(cap, max(fs.awards))
        if cap:
            names.append(name)
            caps.append(cap)
    return names, caps


def _symbol_ids(game: Game) -> dict[str, int]:
    return {name: i for i, name in enumerate(game.symbols)}


def _ways_count(model: PayModel, key: str, column) -> int:
    members = model.key_members[key]
    return sum(model.multiplier[s] for s in column if s in members)


def _reel_windows(game, model, reel_set, j, symbol_ids, tracked) -> _ReelWindows:
    reel = reel_set.reels[j]
    rows = game.rows[j]
    merged: dict[tuple[str, ...], int] = {}
    for stop, w in enumerate(reel.stop_weights):
        if w:
            win = reel.window(stop, rows)
            merged[win] = merged.get(win, 0) + w
    wins = list(merged)
    if game.paylines is not None:
        inputs = [[symbol_ids[win[line[j]]] for line in game.paylines] for win in wins]
    else:
        inputs = [[_ways_count(model, k, win) for k in model.keys] for win in wins]
    scatter = [[win.count(name) for name in tracked] for win in wins]
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
    return _ReelWindows(
        inputs, ucol, np.ascontiguousarray(columns),
        np.asarray([merged[w] for w in wins], dtype=np.int64),
        np.asarray(scatter, dtype=np.int32).reshape(len(wins), len(tracked)),
    )


_EMPTY = -1


@njit(cache=True)
def _row_hash(row):
    h = np.uint64(1469598103934665603)
    for x in row:
        h = (h ^ np.uint64(x + 1)) * np.uint64(1099511628211)
    return h


@njit(cache=True)
def _rows_equal(a, b):
    for i in range(a.shape[0]):
        if a[i] != b[i]:
            return False
    return True


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
def _projection(mask, colval, win_scatter, win_weight, proj_ptr, proj_pool, proj_wgt, n_pool):
    """Windows grouped by what the alive units can see: the values of the columns in
    ``mask`` and the scatter counts. Computed once per mask; returns (start, stop, n_pool,
    pool, weights) where pool[start:stop] holds one representative window per group."""
    if proj_ptr[mask, 0] >= 0:
        return proj_ptr[mask, 0], proj_ptr[mask, 1], n_pool, proj_pool, proj_wgt
    n_w, n_cols = colval.shape
    n_t = win_scatter.shape[1]
    start = n_pool
    if n_pool + n_w > proj_pool.shape[0]:
        size = 2 * proj_pool.shape[0] + n_w
        pool2 = np.empty(size, np.int64)
        wgt2 = np.empty(size, np.int64)
        pool2[:n_pool] = proj_pool[:n_pool]
        wgt2[:n_pool] = proj_wgt[:n_pool]
        proj_pool, proj_wgt = pool2, wgt2
    for w in range(n_w):
        found = -1
        for q in range(start, n_pool):
            r = proj_pool[q]
            same = True
            for c in range(n_cols):
                if (mask >> c) & 1 and colval[w, c] != colval[r, c]:
                    same = False
                    break
            if same:
                for t in range(n_t):
                    if win_scatter[w, t] != win_scatter[r, t]:
                        same = False
                        break
            if same:
                found = q
                break
        if found >= 0:
            proj_wgt[found] += win_weight[w]
        else:
            proj_pool[n_pool] = w
            proj_wgt[n_pool] = win_weight[w]
            n_pool += 1
    proj_ptr[mask, 0] = start
    proj_ptr[mask, 1] = n_pool
    return start, n_pool, n_pool, proj_pool, proj_wgt


@njit(cache=True)
def _step_kernel(states, n_units, caps, nt, em, inputs, ucol, colval, win_scatter, win_weight):
    """Move every state through every window of one reel.

    Returns the new states (deduplicated exactly: hash, then full-row comparison) and, per
    old state, the list of distinct (new state, settled credits) outcomes with their summed
    window weights, in CSR form.
    """
    n_s, width = states.shape
    n_w = colval.shape[0]
    n_cols = colval.shape[1]
    proj_ptr = np.full((1 << n_cols, 2), -1, np.int64)
    proj_pool = np.empty(4 * n_w, np.int64)
    proj_wgt = np.empty(4 * n_w, np.int64)
    n_pool = 0
    n_t = width - n_units
    cap_rows = 1024
    while cap_rows < 2 * n_s:
        cap_rows *= 2
    new_states = np.zeros((cap_rows, width), np.int32)
    n_new = 0
    table = np.full(4 * cap_rows, _EMPTY, np.int64)
    mask = table.shape[0] - 1
    ptr = np.zeros(n_s + 1, np.int64)
    cap_out = n_s * 8 + 16
    tgt = np.empty(cap_out, np.int64)
    stl = np.empty(cap_out, np.int64)
    wgt = np.empty(cap_out, np.int64)
    k = 0
    alive = np.empty(n_units, np.int64)
    row = np.zeros(width, np.int32)
    local_t = np.empty(n_w, np.int64)
    local_c = np.empty(n_w, np.int64)
    local_w = np.empty(n_w, np.int64)
    for s in range(n_s):
        na = 0
        seen = 0
        for u in range(n_units):
            if states[s, u] != 0:
                alive[na] = u
                na += 1
                seen |= 1 << ucol[u]
        start, stop, n_pool, proj_pool, proj_wgt = _projection(
            seen, colval, win_scatter, win_weight, proj_ptr, proj_pool, proj_wgt, n_pool
        )
        n_local = 0
        for q0 in range(start, stop):
            w = proj_pool[q0]
            ww = proj_wgt[q0]
            row[:] = 0
            settled = 0
            for i in range(na):
                u = alive[i]
                st = states[s, u]
                a = inputs[w, u]
                row[u] = nt[st, a]
                settled += em[st, a]
            for t in range(n_t):
                v = states[s, n_units + t] + win_scatter[w, t]
                row[n_units + t] = v if v < caps[t] else caps[t]
            h = np.int64(_row_hash(row) & np.uint64(mask))
            while True:
                idx = table[h]
                if idx == _EMPTY:
                    if n_new == new_states.shape[0]:
                        grown = np.zeros((2 * new_states.shape[0], width), np.int32)
                        grown[:n_new] = new_states[:n_new]
                        new_states = grown
                    new_states[n_new] = row
                    table[h] = n_new
                    sid = n_new
                    n_new += 1
                    if 2 * n_new > table.shape[0]:
                        table = np.full(2 * table.shape[0], _EMPTY, np.int64)
                        mask = table.shape[0] - 1
                        _rebuild(table, new_states, n_new)
                    break
                if _rows_equal(new_states[idx], row):
                    sid = idx
                    break
                h = (h + 1) & mask
            found = False
            for q in range(n_local):
                if local_t[q] == sid and local_c[q] == settled:
                    local_w[q] += ww
                    found = True
                    break
            if not found:
                local_t[n_local] = sid
                local_c[n_local] = settled
                local_w[n_local] = ww
                n_local += 1
        if k + n_local > tgt.shape[0]:
            size = 2 * tgt.shape[0] + n_local
            tgt2 = np.empty(size, np.int64)
            stl2 = np.empty(size, np.int64)
            wgt2 = np.empty(size, np.int64)
            tgt2[:k] = tgt[:k]
            stl2[:k] = stl[:k]
            wgt2[:k] = wgt[:k]
            tgt, stl, wgt = tgt2, stl2, wgt2
        for q in range(n_local):
            tgt[k] = local_t[q]
            stl[k] = local_c[q]
            wgt[k] = local_w[q]
            k += 1
        ptr[s + 1] = k
    return new_states[:n_new].copy(), ptr, tgt[:k].copy(), stl[:k].copy(), wgt[:k].copy()


@njit(cache=True)
def _expand_entries(entry_state, entry_credits, entry_weight, ptr, tgt, stl, wgt, span):
    """Carry every (state, credits, weight) entry through its state's outcomes, merging
    equal (new state, credits) pairs exactly in an open-addressing table."""
    n_out = 0
    for e in range(entry_state.shape[0]):
        s = entry_state[e]
        n_out += ptr[s + 1] - ptr[s]
    size = 16
    while size < 2 * n_out:
        size *= 2
    keys = np.full(size, _EMPTY, np.int64)
    vals = np.zeros(size, np.int64)
    mask = size - 1
    used = 0
    for e in range(entry_state.shape[0]):
        s = entry_state[e]
        c = entry_credits[e]
        wt = entry_weight[e]
        for q in range(ptr[s], ptr[s + 1]):
            key = tgt[q] * span + c + stl[q]
            h = (key * 0x9E3779B97F4A7C15) & mask
            while True:
                kk = keys[h]
                if kk == key:
                    vals[h] += wt * wgt[q]
                    break
                if kk == _EMPTY:
                    keys[h] = key
                    vals[h] = wt * wgt[q]
                    used += 1
                    break
                h = (h + 1) & mask
    out_s = np.empty(used, np.int64)
    out_c = np.empty(used, np.int64)
    out_w = np.empty(used, np.int64)
    i = 0
    for h in range(size):
        if keys[h] != _EMPTY:
            out_s[i] = keys[h] // span
            out_c[i] = keys[h] % span
            out_w[i] = vals[h]
            i += 1
    return out_s, out_c, out_w


@njit(cache=True)
def _last_outcomes(states, n_units, caps, nt, em, final, inputs, ucol, colval, win_scatter,
                   win_weight,
                   scatter_credits, trigger_col, trigger_cap):
    """Per state, the distinct (output row, credits added) outcomes of the last reel."""
    n_s, width = states.shape
    n_w = colval.shape[0]
    n_cols = colval.shape[1]
    proj_ptr = np.full((1 << n_cols, 2), -1, np.int64)
    proj_pool = np.empty(4 * n_w, np.int64)
    proj_wgt = np.empty(4 * n_w, np.int64)
    n_pool = 0
    n_t = width - n_units
    ptr = np.zeros(n_s + 1, np.int64)
    cap_out = n_s * 8 + 16
    out_i = np.empty(cap_out, np.int64)
    add_c = np.empty(cap_out, np.int64)
    wgt = np.empty(cap_out, np.int64)
    k = 0
    alive = np.empty(n_units, np.int64)
    local_i = np.empty(n_w, np.int64)
    local_c = np.empty(n_w, np.int64)
    local_w = np.empty(n_w, np.int64)
    for s in range(n_s):
        na = 0
        seen = 0
        for u in range(n_units):
            if states[s, u] != 0:
                alive[na] = u
                na += 1
                seen |= 1 << ucol[u]
        start, stop, n_pool, proj_pool, proj_wgt = _projection(
            seen, colval, win_scatter, win_weight, proj_ptr, proj_pool, proj_wgt, n_pool
        )
        n_local = 0
        for q0 in range(start, stop):
            w = proj_pool[q0]
            ww = proj_wgt[q0]
            add = 0
            for i in range(na):
                u = alive[i]
                st = states[s, u]
                a = inputs[w, u]
                add += em[st, a] + final[nt[st, a]]
            oi = 0
            for t in range(n_t):
                v = states[s, n_units + t] + win_scatter[w, t]
                if v > caps[t]:
                    v = caps[t]
                add += scatter_credits[t, v]
                if t == trigger_col:
                    oi = v if v < trigger_cap else trigger_cap
            found = False
            for q in range(n_local):
                if local_i[q] == oi and local_c[q] == add:
                    local_w[q] += ww
                    found = True
                    break
            if not found:
                local_i[n_local] = oi
                local_c[n_local] = add
                local_w[n_local] = ww
                n_local += 1
        if k + n_local > out_i.shape[0]:
            size = 2 * out_i.shape[0] + n_local
            a2 = np.empty(size, np.int64)
            b2 = np.empty(size, np.int64)
            c2 = np.empty(size, np.int64)
            a2[:k] = out_i[:k]
            b2[:k] = add_c[:k]
            c2[:k] = wgt[:k]
            out_i, add_c, wgt = a2, b2, c2
        for q in range(n_local):
            out_i[k] = local_i[q]
            add_c[k] = local_c[q]
            wgt[k] = local_w[q]
            k += 1
        ptr[s + 1] = k
    return ptr, out_i[:k].copy(), add_c[:k].copy(), wgt[:k].copy()


@njit(cache=True)
def _fold_last(entry_state, entry_credits, entry_weight, ptr, out_i, add_c, wgt, out):
    for e in range(entry_state.shape[0]):
        s = entry_state[e]
        c = entry_credits[e]
        wt = entry_weight[e]
        for q in range(ptr[s], ptr[s + 1]):
            out[out_i[q], c + add_c[q]] += wt * wgt[q]


def spin_table(game: Game, reel_set: str | ReelSet = "base", level: int = 1,
               model: PayModel | None = None) -> SpinTable:
    """Exact (trigger count, credits) weights of one spin over the full cycle.

    Parameters
    ----------
    game : Game
    reel_set : str or ReelSet
        Name of the reel set (or the set itself, for what-if strips).
    level : int
        Bet level.

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.exact.brute import brute_force
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> spin_table(g) == brute_force(g)
    True
    """
    rs = game.reel_sets[reel_set] if isinstance(reel_set, str) else reel_set
    model = model or PayModel(game, level)
    if rs.cycle >= _INT64_SAFE:
        raise OverflowError(
            f"full cycle {rs.cycle} is too large for exact int64 weights; reduce stop weights"
        )
    symbol_ids = _symbol_ids(game)
    tracked, caps_list = _tracked_scatters(game, model)
    caps = np.asarray(caps_list, dtype=np.int32)
    n = game.n_reels
    windows = [_reel_windows(game, model, rs, j, symbol_ids, tracked) for j in range(n)]
    if game.paylines is not None:
        automaton = line_automaton(model, symbol_ids)
    else:
        max_count = max(int(w.inputs.max(initial=0)) for w in windows)
        automaton = ways_automaton(model, max(max_count, 1))
    n_units = len(automaton.start)

    states = np.asarray([list(automaton.start) + [0] * len(tracked)], dtype=np.int32)
    entry_state = np.zeros(1, dtype=np.int64)
    entry_credits = np.zeros(1, dtype=np.int64)
    entry_weight = np.ones(1, dtype=np.int64)

    for j in range(n - 1):
        rw = windows[j]
        states, ptr, tgt, stl, wgt = _step_kernel(
            states, n_units, caps, automaton.next_status[j], automaton.emit[j], rw.inputs, rw.ucol, rw.columns,
            rw.scatter, rw.weights,
        )
        span = int(entry_credits.max()) + int(stl.max(initial=0)) + 1
        entry_state, entry_credits, entry_weight = _expand_entries(
            entry_state, entry_credits, entry_weight, ptr, tgt, stl, wgt, span
        )

    # Last reel: settle everything, add scatter pays, fold into a dense output.
    rw = windows[n - 1]
    trigger_col, trigger_cap = -1, 0
    if game.free_spins is not None and game.free_spins.trigger in tracked:
        trigger_col = tracked.index(game.free_spins.trigger)
        trigger_cap = max(game.free_spins.awards)
    width = max(caps_list, default=0) + 1
    scatter_credits = np.zeros((len(tracked), width), dtype=np.int64)
    for t, name in enumerate(tracked):
        scatter_credits[t, : caps_list[t] + 1] = model.scatter_credits[name][: caps_list[t] + 1]
    ptr, out_i, add_c, wgt = _last_outcomes(
        states, n_units, caps, automaton.next_status[n - 1], automaton.emit[n - 1],
        automaton.final, rw.inputs, rw.ucol, rw.columns, rw.scatter, rw.weights, scatter_credits, trigger_col,
        trigger_cap,
    )
    max_credits = int(entry_credits.max()) + int(add_c.max(initial=0))
    out = np.zeros((trigger_cap + 1, max_credits + 1), dtype=np.int64)
    _fold_last(entry_state, entry_credits, entry_weight, ptr, out_i, add_c, wgt, out)
    t_idx, c_idx = np.nonzero(out)
    weights = {(int(t), int(c)): int(out[t, c]) for t, c in zip(t_idx, c_idx)}
    return SpinTable(weights, rs.cycle, model.credits_per_bet, trigger_cap)
