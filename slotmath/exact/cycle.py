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

from dataclasses import dataclass

import numpy as np
from numba import njit

from slotmath.evaluate.window import PayModel
from slotmath.exact.automata import line_automaton, ways_automaton
from slotmath.exact.spin_table import LineTriggerTable, SpinTable
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
def _projection(seen, colval, win_sa, win_weight, proj_ptr, pool):
    """Windows grouped by what the open units can see (the columns in ``seen``).

    Computed once per ``seen`` mask. ``pool`` rows are (representative window, scatter pack,
    weight, first-of-group flag): one row per distinct scatter pack within each group, the
    rows of a group adjacent, so a kernel evaluates the units once per group.
    """
    if proj_ptr[seen, 0] >= 0:
        return proj_ptr[seen, 0], proj_ptr[seen, 1], pool
    n_w, n_cols = colval.shape
    reps = np.empty(n_w, np.int64)
    gid = np.empty(n_w, np.int64)
    n_g = 0
    for w in range(n_w):
        g = -1
        for q in range(n_g):
            r = reps[q]
            same = True
            for c in range(n_cols):
                if (seen >> c) & 1 and colval[w, c] != colval[r, c]:
                    same = False
                    break
            if same:
                g = q
                break
        if g < 0:
            reps[n_g] = w
            g = n_g
            n_g += 1
        gid[w] = g
    n_pool = proj_ptr[0, 2]
    if n_pool + n_w > pool.shape[0]:
        grown = np.empty((2 * pool.shape[0] + n_w, 4), np.int64)
        grown[:n_pool] = pool[:n_pool]
        pool = grown
    start = n_pool
    for g in range(n_g):
        g_start = n_pool
        for w in range(n_w):
            if gid[w] != g:
                continue
            found = -1
            for q in range(g_start, n_pool):
                if pool[q, 1] == win_sa[w]:
                    found = q
                    break
            if found >= 0:
                pool[found, 2] += win_weight[w]
            else:
                pool[n_pool, 0] = reps[g]
                pool[n_pool, 1] = win_sa[w]
                pool[n_pool, 2] = win_weight[w]
                pool[n_pool, 3] = 1 if n_pool == g_start else 0
                n_pool += 1
    proj_ptr[seen, 0] = start
    proj_ptr[seen, 1] = n_pool
    proj_ptr[0, 2] = n_pool
    return start, n_pool, pool


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
        grown[:k] = out[:k]
        out = grown
    out[k:k + n_local] = local[:n_local]
    for q in range(n_local):
        lslot[lused[q]] = -1
    return out, k + n_local


@njit(cache=True)
def _step_kernel(states, nt, em, et, line_place, line_cap, inputs, ucol, colval, win_sa,
                 win_weight):
    """Move every state through every window of one reel.

    Returns the new states (deduplicated exactly: hash, then full-row comparison) and, per
    old state, its distinct outcomes (new state, settled credits, scatter pack added) with
    their summed window weights, in CSR form.
    """
    n_s, n_units = states.shape
    n_w = colval.shape[0]
    n_cols = colval.shape[1]
    proj_ptr = np.full((1 << n_cols, 3), -1, np.int64)
    proj_ptr[0, 2] = 0
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
    for s in range(n_s):
        na, seen = _open_units(states, s, ucol, alive)
        start, stop, pool = _projection(seen, colval, win_sa, win_weight, proj_ptr, pool)
        n_local = 0
        for q0 in range(start, stop):
            if pool[q0, 3]:
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
                    if v != 0:
                        nnz += 1
                        hv = _mix(hv, u, v)
                # Only open units can be nonzero, so a stored row equals this one when it has
                # as many nonzero entries and agrees on the open units.
                h = np.int64(hv & np.uint64(mask))
                while True:
                    idx = table[h]
                    if idx == _EMPTY:
                        if n_new == new_states.shape[0]:
                            grown = np.zeros((2 * new_states.shape[0], n_units), np.int32)
                            grown[:n_new] = new_states[:n_new]
                            new_states = grown
                            grown_nnz = np.zeros(2 * nnz_of.shape[0], np.int64)
                            grown_nnz[:n_new] = nnz_of[:n_new]
                            nnz_of = grown_nnz
                        for i in range(na):
                            new_states[n_new, alive[i]] = row[alive[i]]
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
                        for i in range(na):
                            if new_states[idx, alive[i]] != row[alive[i]]:
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
    return new_states[:n_new].copy(), ptr, out[:k].copy()


@njit(cache=True)
def _expand_entries(e_state, e_pack, e_credits, e_weight, ptr, outcomes, add_table, span):
    """Carry every (state, scatter pack, credits, weight) entry through its state's outcomes,
    merging equal (new state, pack, credits) triples exactly in an open-addressing table."""
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
            key = (outcomes[q, 0] * n_pack + add_table[pk, outcomes[q, 2]]) * span + c + outcomes[q, 1]
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
def _last_outcomes(states, nt, em, et, line_place, line_cap, final, inputs, ucol, colval,
                   win_sa, win_weight):
    """Per state, the distinct (credits settled, scatter pack added) outcomes of the last reel."""
    n_s, n_units = states.shape
    n_w = colval.shape[0]
    n_cols = colval.shape[1]
    proj_ptr = np.full((1 << n_cols, 3), -1, np.int64)
    proj_ptr[0, 2] = 0
    pool = np.empty((4 * n_w, 4), np.int64)
    ptr = np.zeros(n_s + 1, np.int64)
    out = np.empty((n_s * 8 + 16, 4), np.int64)  # credits, scatter pack, 0, weight
    k = 0
    alive = np.empty(n_units, np.int64)
    local, lslot, lused = _local_table(n_w)
    lmask = lslot.shape[0] - 1
    add = 0
    fired = 0
    for s in range(n_s):
        na, seen = _open_units(states, s, ucol, alive)
        start, stop, pool = _projection(seen, colval, win_sa, win_weight, proj_ptr, pool)
        n_local = 0
        for q0 in range(start, stop):
            if pool[q0, 3]:
                w = pool[q0, 0]
                add = 0
                fired = 0
                for i in range(na):
                    u = alive[i]
                    st = states[s, u]
                    a = inputs[w, u]
                    add += em[st, a] + final[nt[st, a]]
                    fired += et[st, a]
            sa = pool[q0, 1] + min(fired, line_cap) * line_place
            n_local = _merge_local(local, lslot, lused, lmask, n_local, add, sa, 0, pool[q0, 2])
        out, k = _flush_local(out, k, local, lslot, lused, n_local)
        ptr[s + 1] = k
    return ptr, out[:k].copy()


@njit(cache=True)
def _fold_last(e_state, e_pack, e_credits, e_weight, ptr, outcomes, add_table, pack_credits,
               pack_trigger, out):
    for e in range(e_state.shape[0]):
        s = e_state[e]
        c = e_credits[e]
        wt = e_weight[e]
        pk = e_pack[e]
        for q in range(ptr[s], ptr[s + 1]):
            p2 = add_table[pk, outcomes[q, 1]]
            out[pack_trigger[p2], c + outcomes[q, 0] + pack_credits[p2]] += wt * outcomes[q, 3]


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


def _enumerate(game: Game, rs: ReelSet, model: PayModel,
               line_trigger: tuple[str, int] | None, line_cap: int):
    """The DP itself: dense weights out[trigger index, trigger-line index, credits]."""
    if rs.cycle >= _INT64_SAFE:
        raise OverflowError(
            f"full cycle {rs.cycle} is too large for exact int64 weights; reduce stop weights"
        )
    symbol_ids = _symbol_ids(game)
    tracked, caps = _tracked_scatters(game, model)
    digit_caps = caps + ([line_cap] if line_trigger else [])
    digits, place, add_table = _packing(digit_caps)
    scatter_caps = np.asarray(caps, dtype=np.int32)
    n = game.n_reels
    windows = []
    for j in range(n):
        rw = _reel_windows(game, model, rs, j, symbol_ids, tracked)
        pack = (np.minimum(rw.scatter, scatter_caps) * place[: len(caps)]).sum(axis=1)
        windows.append((rw, np.ascontiguousarray(pack, dtype=np.int64)))
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
        )
        span = int(e_credits.max()) + int(outcomes[:, 1].max(initial=0)) + 1
        e_state, e_pack, e_credits, e_weight = _expand_entries(
            e_state, e_pack, e_credits, e_weight, ptr, outcomes, add_table, span
        )

    # Last reel: settle every unit, add scatter pays, fold into a dense output.
    rw, pack = windows[n - 1]
    ptr, outcomes = _last_outcomes(
        states, automaton.next_status[n - 1], automaton.emit[n - 1], emit_trigger[n - 1],
        line_place, line_cap, automaton.final, rw.inputs, rw.ucol, rw.columns, pack,
        rw.weights,
    )
    pack_credits = np.zeros(len(digits), dtype=np.int64)
    pack_trigger = np.zeros(len(digits), dtype=np.int64)
    trigger_cap = 0
    for t, name in enumerate(tracked):
        credits = np.asarray(model.scatter_credits[name], dtype=np.int64)
        pack_credits += credits[digits[:, t]]
        if game.free_spins is not None and name == game.free_spins.trigger:
            trigger_cap = max(game.free_spins.awards)
            pack_trigger = np.minimum(digits[:, t], trigger_cap)
    # Output row: trigger index * (line_cap + 1) + trigger-line index.
    out_row = pack_trigger * (line_cap + 1)
    if line_trigger:
        out_row = out_row + digits[:, -1]
    max_credits = int(e_credits.max()) + int(outcomes[:, 0].max(initial=0)) + int(pack_credits.max())
    out = np.zeros(((trigger_cap + 1) * (line_cap + 1), max_credits + 1), dtype=np.int64)
    _fold_last(e_state, e_pack, e_credits, e_weight, ptr, outcomes, add_table, pack_credits,
               np.ascontiguousarray(out_row, dtype=np.int64), out)
    return out.reshape(trigger_cap + 1, line_cap + 1, max_credits + 1), trigger_cap


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
    model : PayModel, optional
        The game's pay model at ``level`` (built when not given).

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
    out, trigger_cap = _enumerate(game, rs, model, None, 0)
    dense = out[:, 0, :]
    t_idx, c_idx = np.nonzero(dense)
    weights = {(int(t), int(c)): int(dense[t, c]) for t, c in zip(t_idx, c_idx)}
    return SpinTable(weights, rs.cycle, model.credits_per_bet, trigger_cap)


def line_trigger_table(game: Game, symbol: str, count: int, reel_set: str | ReelSet = "base",
                       level: int = 1, cap: int | None = None,
                       model: PayModel | None = None) -> LineTriggerTable:
    """Exact weights of (trigger count, trigger lines, credits) for one spin.

    *Trigger lines* counts the paylines on which ``symbol`` shows at least ``count`` times in
    succession from reel 1 (a line-triggered feature such as a bonus game); counts above
    ``cap`` (default: every line) are stored as ``cap``. The rest is as in
    :func:`spin_table`.

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
    out, trigger_cap = _enumerate(game, rs, model, (symbol, count), cap)
    t_idx, b_idx, c_idx = np.nonzero(out)
    weights = {(int(t), int(b), int(c)): int(out[t, b, c])
               for t, b, c in zip(t_idx, b_idx, c_idx)}
    return LineTriggerTable(weights, rs.cycle, model.credits_per_bet, trigger_cap, cap)
