"""Exact tables of a modified paid spin (``[modifiers]``, :mod:`slotmath.model.modifiers`).

A modifier changes the window after the stops, so each reel becomes a *virtual reel* of
transformed windows, and the full-cycle engine (:mod:`slotmath.exact.cycle`) runs over those
with one more counted digit: how many positions the modifier chose.

* ``place``: every stop's window crossed with every subset (row mask) of its positions (on
  the modifier's reels; elsewhere the window as it stands); each chosen position shows the
  symbol unless it shows a ``keep`` symbol; the extra digit counts the chosen positions.
  Over all reels this visits every stop combination with every subset of the eligible
  positions once, so the weights of the entries whose digit is ``k`` sum the outcomes of
  all ``k``-subsets; each ``k``-subset of the ``cells`` eligible positions has probability
  ``1 / C(cells, k)`` under the count law, so the table is ``sum_k w_k / W * out[k] /
  C(cells, k)`` over one common denominator (Python integers: exact, no overflow past the
  DP).
* ``upgrade``: one relabelled window per stop (no digit used); the table is the mixture over
  the drawn symbol of the spin table of relabelled strips.

The engine's int64 weights must hold ``cycle x 2**cells`` for a place modifier (checked).
The reference, sharing no code with this module, is ``tests/modifiers_reference.py``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from math import comb, lcm

import numpy as np
from numba import njit

from slotmath.evaluate.window import PayModel
from slotmath.exact import cycle, modifier_moves, store
from slotmath.exact.automata import line_automaton, ways_automaton
from slotmath.exact.cycle import (
    _INT64_SAFE,
    CountColumns,
    _expand_by_state,
    _fold_in,
    _last_bound,
    _local_table,
    _merge_local,
    _open_units,
    _pack,
    _ReelWindows,
    _step_coded,
    _step_room,
    _symbol_ids,
    state_code,
    unit_classes,
    windows_input,
)
from slotmath.exact.spin_table import SpinTable
from slotmath.exact.workers import default_workers, map_parts
from slotmath.model.game import Game
from slotmath.model.modifiers import Modifier

__all__ = ["modifier_table", "place_transform", "place_windows", "upgrade_transform",
           "upgrade_window"]

#: the code that computes a stored table, read when this module is imported (the code that
#: runs, even if the files change while a long session goes on): part of every store key
_CODE = store.code_fingerprint(cycle, modifier_moves, sys.modules[__name__])


def place_windows(window: tuple[str, ...], symbol: str, keep) -> list[tuple[tuple, int]]:
    """Every row mask of one reel's ``window``: (window shown, positions chosen).

    >>> place_windows(("A", "S"), "W", ("S",))
    [(('A', 'S'), 0), (('W', 'S'), 1), (('A', 'S'), 1), (('W', 'S'), 2)]
    """
    out = []
    for mask in range(1 << len(window)):
        shown = tuple(symbol if (mask >> i) & 1 and s not in keep else s
                      for i, s in enumerate(window))
        out.append((shown, int(mask).bit_count()))
    return out


def upgrade_window(window: tuple[str, ...], sources, target: str) -> tuple[str, ...]:
    """``window`` with every symbol of ``sources`` shown as ``target``.

    >>> upgrade_window(("A", "GUS", "K"), {"A", "K"}, "MULE")
    ('MULE', 'GUS', 'MULE')
    """
    return tuple(target if s in sources else s for s in window)


def place_transform(modifier: Modifier):
    """``transform(j, window)`` of a ``place`` modifier: every row mask of reel ``j``'s
    window (:func:`place_windows`) on its reels, the window as it stands elsewhere."""
    keep = frozenset(modifier.keep)

    def transform(j, window):
        if not modifier.on_reel(j):
            return [(window, 0)]
        return place_windows(window, modifier.symbol, keep)
    return transform


def upgrade_transform(sources, target: str):
    """``transform(j, window)`` of an ``upgrade`` modifier that drew ``target``."""
    def transform(j, window):
        return [(upgrade_window(window, sources, target), 0)]
    return transform


def _virtual_windows(game, rs, j, transform) -> dict[tuple, int]:
    """Reel ``j``'s transformed windows, merged: ``{(window shown, positions chosen):
    weight}``."""
    reel = rs.reels[j]
    rows = game.rows[j]
    merged: dict[tuple, int] = {}
    for stop, w in enumerate(reel.stop_weights):
        if w:
            for shown, chosen in transform(j, reel.window(stop, rows)):
                merged[shown, chosen] = merged.get((shown, chosen), 0) + w
    return merged


def _virtual_reel(game, model, merged, j, symbol_ids, tracked) -> _ReelWindows:
    """Reel ``j``'s virtual windows ``merged`` (:func:`_virtual_windows`) as the engine's
    input, with the chosen-position count as the last scatter column."""
    keys = list(merged)
    return windows_input(game, model, j, [k[0] for k in keys], [merged[k] for k in keys],
                         symbol_ids, tracked, extra=[k[1] for k in keys])


def _outcomes(prep, states, room, j):
    """Reel ``j`` (1 <= j < n - 1, or the first reel's part): every state through the
    windows that leave some entry of it at or below the most positions the law chooses
    (``room[s]``: that most less the state's fewest chosen so far): the new states and each
    state's outcomes (:func:`slotmath.exact.cycle._step_room`)."""
    automaton = prep.automaton
    rw, pack = prep.reels[j] if j else prep.first
    code = prep.codes[j]
    if rw.by_effect and code is not None:
        return _step_coded(
            states, prep.next_status[j], automaton.emit[j], prep.emit_trigger[j], 0,
            prep.chosen_cap, rw.ucol, rw.columns, pack, rw.weights, *prep.classes[j], *code,
            prep.chosen, room)
    return _step_room(
        states, prep.next_status[j], automaton.emit[j], prep.emit_trigger[j], 0,
        prep.chosen_cap, rw.inputs, rw.ucol, rw.columns, pack, rw.weights, *prep.classes[j],
        rw.by_effect, prep.chosen, prep.chosen_cap + 1, room)


def _step(prep, states, room, entries, j):
    """Reel ``j`` (:func:`_outcomes`), the entries carried (none past the most the law
    chooses is made), the states no entry reaches dropped."""
    radix = prep.chosen_cap + 1
    states, ptr, outcomes = _outcomes(prep, states, room, j)
    e_state, e_pack, e_credits, e_weight = entries
    span = int(e_credits.max()) + int(outcomes[:, 1].max(initial=0)) + 1
    entries = _expand_by_state(e_state, e_pack, e_credits, e_weight, ptr, outcomes,
                               prep.add_table, span, prep.kept)
    return _drop_unreached(states, *entries, prep.place[-1], radix, prep.chosen_cap - 1)


def _last_alike(automaton) -> np.ndarray:
    """Each status a line can have before the last reel, as the first status that pays the
    same on every symbol of the last reel (its credits settled there plus its final pay;
    0 for the statuses that pay nothing there, as DEAD).

    A modifier's DP counts no trigger runs, so the last reel reads a state only through
    those pays: statuses alike there may be merged as the last but one reel's step makes
    its states (Gus's Gold Christmas: 17 statuses in 13 kinds; its Dynamite's heaviest
    part, 56,173 states before the last reel, 43,316 after)."""
    nt, em, final = automaton.next_status[-1], automaton.emit[-1], automaton.final
    pays = em + final[nt]
    first: dict[bytes, int] = {bytes(np.zeros_like(pays[0])): 0}
    return np.asarray([first.setdefault(bytes(row), st) for st, row in enumerate(pays)],
                      dtype=nt.dtype)


@njit(cache=True)
def _drop_unreached(states, e_state, e_pack, e_credits, e_weight, place, radix, top):
    """Drop the states no entry reaches (the states kept renumbered in order) and give each
    kept state its room: ``top`` less the fewest chosen positions of its entries (the chosen
    digit ``(pack // place) % radix``)."""
    used = np.zeros(states.shape[0], np.int64)
    fewest = np.full(states.shape[0], radix, np.int64)
    for e in range(e_state.shape[0]):
        used[e_state[e]] = 1
        fewest[e_state[e]] = min(fewest[e_state[e]], (e_pack[e] // place) % radix)
    new_id = np.cumsum(used) - 1
    n_kept = int(used.sum())
    kept_states = np.empty((n_kept, states.shape[1]), states.dtype)
    room = np.empty(n_kept, np.int64)
    for s in range(states.shape[0]):
        if used[s]:
            kept_states[new_id[s]] = states[s]
            room[new_id[s]] = top - fewest[s]
    o_state = np.empty(e_state.shape[0], np.int64)
    for e in range(e_state.shape[0]):
        o_state[e] = new_id[e_state[e]]
    return kept_states, room, (o_state, e_pack, e_credits, e_weight)


@dataclass
class _Prepared:
    """What every part of a modifier's DP shares (built once, read by forked workers)."""

    automaton: object
    emit_trigger: tuple
    chosen_cap: int
    chosen_lo: int  # the fewest chosen positions the table keeps (its rows below stay 0)
    chosen: np.ndarray  # (packs,) int64: each pack's chosen digit
    kept: np.ndarray  # (packs,) bool: the chosen digit below chosen_cap
    place: np.ndarray
    add_table: np.ndarray
    pack_credits: np.ndarray
    out_row: np.ndarray
    n_rows: int  # the rows of the counts (their mixed-radix index)
    reels: list  # per reel: (virtual reel windows, scatter pack)
    classes: list  # per reel: unit classes (cycle.unit_classes)
    codes: list  # per reel: its new states' code (cycle.state_code), None: rows compared
    next_status: list  # per reel: the automaton's, the last but one's merged (_last_alike)
    first: tuple = ()  # the first reel's windows of the part being run


def _part(prep: _Prepared, first: np.ndarray) -> np.ndarray:
    """The DP over the stop combinations whose first reel shows the virtual windows
    ``first``: dense weights out[count * (chosen_cap + 1) + chosen, credits]."""
    return _part_from(prep, _part_start(prep, first), 0)


def _part_start(prep: _Prepared, first: np.ndarray) -> tuple:
    """``prep`` set to the part whose first reel shows the windows ``first`` of its first
    reel, and the DP's start: (states, room, entries)."""
    rw, pack = prep.reels[0]
    prep.first = (_ReelWindows(rw.inputs[first], rw.ucol,
                               np.ascontiguousarray(rw.columns[first]), rw.weights[first],
                               rw.scatter[first], rw.by_effect), pack[first])
    states = np.asarray([prep.automaton.start], dtype=np.int32)
    room = np.asarray([prep.chosen_cap - 1], dtype=np.int64)
    entries = (np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64),
               np.ones(1, np.int64))
    return states, room, entries


def _part_from(prep: _Prepared, level: tuple, first_reel: int) -> np.ndarray:
    """The DP from ``level`` (states, room, entries before reel ``first_reel``, at most
    ``n - 2``)
    through the last reel: dense weights as :func:`_part` (a strip move starts past the first
    reels, :mod:`slotmath.exact.modifier_moves`; window weights may be negative there)."""
    automaton = prep.automaton
    n = len(prep.reels)
    states, room, entries = level
    rows = prep.n_rows * (prep.chosen_cap + 1)
    for j in range(first_reel, n - 2):
        states, room, entries = _step(prep, states, room, entries, j)
        if not len(entries[0]):
            return np.zeros((rows, 1), np.int64)
    rw, pack = prep.reels[n - 1]
    nt, em, final = automaton.next_status[n - 1], automaton.emit[n - 1], automaton.final
    if rw.by_effect:  # the windows' columns are the values the units read
        states, ptr, outcomes = _outcomes(prep, states, room, n - 2)
        width = (int(entries[2].max()) + int(outcomes[:, 1].max(initial=0))
                 + _last_bound(states, nt, em, final) + int(prep.pack_credits.max()) + 1)
        out = np.zeros((rows, width), dtype=np.int64)
        _fold_through(states, ptr, outcomes, *entries, prep.kept, nt, em, final, rw.ucol,
                      rw.columns, pack, rw.weights, prep.add_table, prep.pack_credits,
                      prep.out_row, out, prep.chosen, prep.chosen_cap + 1, prep.chosen_lo,
                      prep.chosen_cap - 1)
        return out
    states, room, entries = _step(prep, states, room, entries, n - 2)
    if not len(entries[0]):
        return np.zeros((rows, 1), np.int64)
    width = (int(entries[2].max()) + _last_bound(states, nt, em, final)
             + int(prep.pack_credits.max()) + 1)
    out = np.zeros((rows, width), dtype=np.int64)
    _fold_in(states, nt, em, prep.emit_trigger[n - 1], 0, prep.chosen_cap, final,
             rw.inputs, rw.ucol, rw.columns, pack, rw.weights, rw.by_effect, *entries,
             prep.add_table, prep.pack_credits, prep.out_row, out, prep.chosen,
             prep.chosen_cap + 1, prep.chosen_lo, prep.chosen_cap - 1)
    return out


@njit(cache=True)
def _fold_through(states, ptr, outcomes, e_state, e_pack, e_credits, e_weight, kept, nt, em,
                  final, ucol, colval, win_pack, win_weight, add_table, pack_credits, out_row,
                  out, digit, radix, lo, hi):
    """The last two reels at once, one new state of reel ``n - 2`` at a time: the entries
    (state, scatter pack, credits, weight) of the states before it carried through their
    outcomes there (``ptr``, ``outcomes``: :func:`slotmath.exact.cycle._step_room`; equal
    (pack, credits) pairs merged, only the packs ``kept``), then folded through the last
    reel into ``out``, as :func:`slotmath.exact.cycle._fold_in` does for a modifier's last
    reel whose windows' columns are the values its units read (``by_effect``; a modifier's
    DP counts no trigger runs).

    Each new state's entries are made in a small table of its own and folded at once: no
    table of every entry is made, stored and read back, and no state is visited twice.
    A state's outcomes on the last reel come from adding up its credit table over every
    window's columns directly (a handful of rows per window) instead of grouping the windows
    by effect first (which costs more than it saves on three rows). The windows are visited
    by their chosen digit (a counting sort, once), only those whose digit can end in
    ``lo..hi`` with some entry of the state; ``out`` must be wide enough
    (:func:`slotmath.exact.cycle._last_bound` past the entries' credits)."""
    n_s, n_units = states.shape
    n_old = ptr.shape[0] - 1
    n_w, n_cols = colval.shape
    n_vals = colval.max() + 1 if colval.size else 1
    f_add = np.zeros((n_cols, n_vals), np.int64)
    alive = np.empty(n_units, np.int64)
    local, lslot, lused = _local_table(n_w)
    lmask = lslot.shape[0] - 1
    w_ptr = np.zeros(radix + 1, np.int64)  # the windows by their digit
    for w in range(n_w):
        w_ptr[digit[win_pack[w]] + 1] += 1
    for m in range(radix):
        w_ptr[m + 1] += w_ptr[m]
    w_fill = w_ptr[:-1].copy()
    w_order = np.empty(n_w, np.int64)
    for w in range(n_w):
        m = digit[win_pack[w]]
        w_order[w_fill[m]] = w
        w_fill[m] += 1
    e_start = np.zeros(n_old + 1, np.int64)  # the entries by old state
    for e in range(e_state.shape[0]):
        e_start[e_state[e] + 1] += 1
    for s in range(n_old):
        e_start[s + 1] += e_start[s]
    fill = e_start[:-1].copy()
    e_order = np.empty(e_state.shape[0], np.int64)
    for e in range(e_state.shape[0]):
        e_order[fill[e_state[e]]] = e
        fill[e_state[e]] += 1
    # the outcomes by new state (copied in that order: read in order below), with their old
    # state and how many (entry, outcome) pairs reach each new state
    n_q = outcomes.shape[0]
    t_start = np.zeros(n_s + 1, np.int64)
    pairs = np.zeros(n_s, np.int64)
    for s in range(n_old):
        for q in range(ptr[s], ptr[s + 1]):
            t_start[outcomes[q, 0] + 1] += 1
            pairs[outcomes[q, 0]] += e_start[s + 1] - e_start[s]
    for t in range(n_s):
        t_start[t + 1] += t_start[t]
    t_fill = t_start[:-1].copy()
    by_t = np.empty((n_q, 4), np.int64)  # old state, settled, pack added, weight
    for s in range(n_old):
        for q in range(ptr[s], ptr[s + 1]):
            t = outcomes[q, 0]
            r = t_fill[t]
            by_t[r, 0] = s
            by_t[r, 1] = outcomes[q, 1]
            by_t[r, 2] = outcomes[q, 2]
            by_t[r, 3] = outcomes[q, 3]
            t_fill[t] = r + 1
    ent, eslot, eused = _local_table(max(1, pairs.max() if n_s else 1))
    by_m = np.zeros(radix + 1, np.int64)
    m_fill = np.zeros(radix, np.int64)
    m_order = np.empty(n_w, np.int64)
    for t in range(n_s):
        emask = 63  # the state's entries (pack, credits, 0, weight), merged in a table of
        while emask + 1 < 4 * pairs[t]:  # its own size (a small one stays in cache)
            emask = 2 * emask + 1
        n_ent = 0
        for r in range(t_start[t], t_start[t + 1]):
            s = by_t[r, 0]
            for x in range(e_start[s], e_start[s + 1]):
                e = e_order[x]
                p2 = add_table[e_pack[e], by_t[r, 2]]
                if kept[p2]:
                    n_ent = _merge_local(ent, eslot, eused, emask, n_ent, p2,
                                         e_credits[e] + by_t[r, 1], 0,
                                         e_weight[e] * by_t[r, 3])
        for i in range(n_ent):
            eslot[eused[i]] = -1
        if n_ent == 0:
            continue
        c_min = radix
        c_max = 0
        for i in range(n_ent):
            d = digit[ent[i, 0]]
            c_min = min(c_min, d)
            c_max = max(c_max, d)
        m_lo = max(0, lo - c_max)
        m_hi = min(radix - 1, hi - c_min)
        if m_lo > m_hi:
            continue
        # the credits the state's open units settle on each (column, value)
        for c in range(n_cols):
            for x in range(n_vals):
                f_add[c, x] = 0
        na, _seen = _open_units(states, t, ucol, alive)
        for i in range(na):
            u = alive[i]
            st = states[t, u]
            c = ucol[u]
            for x in range(n_vals):
                f_add[c, x] += em[st, x] + final[nt[st, x]]
        n_local = 0
        for r in range(w_ptr[m_lo], w_ptr[m_hi + 1]):
            w = w_order[r]
            add = 0
            for c in range(n_cols):
                add += f_add[c, colval[w, c]]
            n_local = _merge_local(local, lslot, lused, lmask, n_local, add, win_pack[w], 0,
                                   win_weight[w])
        by_m[:] = 0  # the state's outcomes by their digit
        for q in range(n_local):
            by_m[digit[local[q, 1]] + 1] += 1
        for m in range(radix):
            by_m[m + 1] += by_m[m]
            m_fill[m] = by_m[m]
        for q in range(n_local):
            m = digit[local[q, 1]]
            m_order[m_fill[m]] = q
            m_fill[m] += 1
        for i in range(n_ent):
            pk = ent[i, 0]
            c = ent[i, 1]
            wt = ent[i, 3]
            d = digit[pk]
            a = max(0, lo - d)
            b = min(radix - 1, hi - d)
            if a > b:
                continue
            for r in range(by_m[a], by_m[b + 1]):
                q = m_order[r]
                p2 = add_table[pk, local[q, 1]]
                out[out_row[p2], c + local[q, 0] + pack_credits[p2]] += wt * local[q, 3]
        for q in range(n_local):
            lslot[lused[q]] = -1


def _worker(prep: _Prepared, parts: list[np.ndarray]) -> np.ndarray:
    """The parts' table, summed, as rows (row, column, weight): a chunk's answer to the
    parent is its nonzero cells, not the dense table."""
    return _sparse(_sum_dense([_part(prep, first) for first in parts]))


def _sum_dense(outs: list[np.ndarray]) -> np.ndarray:
    width = max(o.shape[1] for o in outs)
    total = np.zeros((outs[0].shape[0], width), np.int64)
    for o in outs:
        total[:, : o.shape[1]] += o
    return total


#: Whether a place modifier's table is moved from the DP kept for the same game with other
#: strips (:mod:`slotmath.exact.modifier_moves`) instead of computed again.
MOVES = True

#: A place modifier's DP is cut into parts by what the first reel shows (with the positions
#: chosen on it): each part runs the DP over the other reels' virtual reels on its own, so
#: its tables stay small; parts are shared over worker processes when there are many.
PARALLEL_PARTS = 16


def _dense(game: Game, rs, model: PayModel, counts, transform,
           chosen_cap: int, *, chosen_lo: int = 0, by_first: bool = True,
           workers: int | None = None, progress=None) -> tuple[np.ndarray, tuple]:
    """The DP over the virtual reels: dense weights out[counts row, chosen, credits] and the
    counts' dims (``counts``: ((symbol, cap), ...) counted jointly in the changed window,
    their row the mixed-radix index, :class:`~slotmath.exact.cycle.CountColumns`).

    ``transform(j, window)`` lists (window shown, positions chosen) of one stop's window on
    reel ``j``;
    ``chosen_cap``: counts of chosen positions at or past it are dropped (the largest count
    the law uses + 1); ``chosen_lo``: the fewest the law uses (the rows of fewer stay 0:
    they are not computed). ``by_first``: one part per window the first reel shows (else one
    pass over everything); ``workers``: processes sharing the parts (default: up to 2 when
    there are at least :data:`PARALLEL_PARTS`); ``progress(done, total)`` in parts.
    """
    symbol_ids = _symbol_ids(game)
    cols = CountColumns.of(game, model, tuple(counts), [chosen_cap])
    tracked, place, add_table, pack_credits = cols.tracked, cols.place, cols.add_table, \
        cols.pack_credits
    scatter_caps = np.asarray(cols.caps + [chosen_cap], dtype=np.int32)
    n = game.n_reels
    virtual = [_virtual_windows(game, rs, j, transform) for j in range(n)]
    reels = []
    for j in range(n):
        rw = _virtual_reel(game, model, virtual[j], j, symbol_ids, tracked)
        reels.append((rw, _pack(rw, scatter_caps, place)))
    if game.paylines is not None:
        automaton = line_automaton(model, symbol_ids)
    else:
        max_count = max(int(rw.inputs.max(initial=0)) for rw, _ in reels)
        automaton = ways_automaton(model, max(max_count, 1))
    emit_trigger = tuple(np.zeros_like(em) for em in automaton.emit)
    n_rows = int(np.prod(cols.dims))
    # The output row: the counts' row, then the chosen-position digit.
    out_row = np.ascontiguousarray(cols.rows * (chosen_cap + 1) + cols.digits[:, -1],
                                   dtype=np.int64)
    trigger_cap = n_rows - 1  # (in the store key: the rows of the counts)
    chosen = np.ascontiguousarray(cols.digits[:, -1], dtype=np.int64)
    classes = [unit_classes(game, j) for j in range(n)]
    next_status = list(automaton.next_status)
    if n >= 2:
        next_status[n - 2] = _last_alike(automaton)[next_status[n - 2]]
    prep = _Prepared(automaton, emit_trigger, chosen_cap, chosen_lo, chosen,
                     chosen < chosen_cap, place, add_table,
                     pack_credits, out_row, n_rows, reels,
                     classes, [state_code(len(automaton.start), int(nt.max()) + 1, *cl)
                               for nt, cl in zip(next_status, classes)], next_status)
    first = reels[0][0]
    if by_first:  # one part per distinct first-reel window (the chosen count rides along)
        groups: dict[bytes, list[int]] = {}
        for w in range(len(first.weights)):
            groups.setdefault(first.columns[w].tobytes() + first.inputs[w].tobytes(),
                              []).append(w)
        parts = [np.asarray(g, dtype=np.int64) for g in groups.values()]
    else:
        parts = [np.arange(len(first.weights), dtype=np.int64)]
    big = len(parts) >= PARALLEL_PARTS
    if workers is None:
        workers = default_workers() if big else 1

    computed = []
    # A strip move (the strip editor): the DP kept for these strip-independent inputs is
    # moved to the new strips (slotmath.exact.modifier_moves), not run again.
    moves = by_first and prep.reels[-1][0].by_effect and n >= 2 and MOVES
    if moves:
        base = store.key_of(
            "modifier-moves", _CODE, automaton.next_status, automaton.emit, automaton.final,
            automaton.start, add_table, pack_credits, out_row, chosen_cap, chosen_lo,
            trigger_cap, prep.classes, place, scatter_caps, game.rows, str(game.paylines),
            str(model.keys) if game.paylines is None else "", list(symbol_ids), list(tracked))
        kept = modifier_moves.cache_for(base)
        if kept is not None and kept.virtual == virtual:  # not a move: the same strips
            kept = None  # (computed again, or read from the store, as before)

    def compute():
        computed.append(True)
        if moves and kept is not None:  # a strip move: the kept DP moved to these strips
            with modifier_moves.LOCK:
                try:
                    table = kept.move(virtual, progress)
                    if (table < 0).any():  # an exact table is never negative
                        raise AssertionError("a moved modifier table has a negative weight")
                except BaseException:
                    modifier_moves.drop(base)  # never moved again: the next edit starts afresh
                    raise
            return _sparse(table)
        return _sparse(_run_parts(prep, parts, workers, progress))

    def make_reel(j, merged):
        rw = _virtual_reel(game, model, merged, j, symbol_ids, tracked)
        return rw, _pack(rw, scatter_caps, place)

    if big:  # stored by its exact input (slotmath.exact.store): computed once per machine
        key = store.key_of(
            "modifier-dp", _CODE,
            [(rw.inputs, rw.ucol, rw.columns, rw.weights, rw.by_effect, pack)
             for rw, pack in reels],
            automaton.next_status, automaton.emit, automaton.final, automaton.start,
            add_table, pack_credits, out_row, chosen_cap, chosen_lo, trigger_cap, prep.classes,
            place, list(parts))
        triples = store.load_or_compute("modifier-dp", key, compute, valid=_valid_triples)
        if progress is not None and not computed:  # read from the store: all done at once
            progress(0, len(parts))
            progress(len(parts), len(parts))
    else:
        triples = compute()
    width = int(triples[:, 1].max(initial=0)) + 1
    out = np.zeros((n_rows * (chosen_cap + 1), width), np.int64)
    out[triples[:, 0], triples[:, 1]] = triples[:, 2]
    if moves and modifier_moves.cache_for(base) is None:  # the next strip move starts here
        modifier_moves.remember(modifier_moves.MoveCache(base, prep, virtual, out.copy(),
                                                         make_reel))
    return out.reshape(n_rows, chosen_cap + 1, width), cols.dims


def _valid_triples(a: np.ndarray) -> bool:
    """A stored table read back is rows (row, column, weight) of int64, weights positive."""
    return (a.dtype == np.int64 and a.ndim == 2 and a.shape[1] == 3 and len(a) > 0
            and bool((a >= 0).all()) and bool((a[:, 2] > 0).all()))


def _sparse(dense: np.ndarray) -> np.ndarray:
    """The nonzero cells of ``dense`` as rows (row, column, value)."""
    r, c = np.nonzero(dense)
    return np.stack([r, c, dense[r, c]], axis=1).astype(np.int64)


def _run_parts(prep: _Prepared, parts, workers: int, progress) -> np.ndarray:
    """Every part's dense table, summed, over ``workers`` forked processes
    (:func:`slotmath.exact.workers.map_parts`): strided chunks of parts (neighbouring first
    windows cost alike), :data:`CHUNKS_PER_WORKER` per worker so that the last leaves little
    idle time (each sends back only its nonzero cells). The
    kernels are compiled here first, on one first-reel window; a part that does not reach
    the last reel compiles less, and then the parts run here (no child compiles)."""
    if progress is not None:
        progress(0, len(parts))
    if workers > 1 and len(parts) > 1:
        _part(prep, parts[0][:1])
        fold = _fold_through if prep.reels[-1][0].by_effect else _fold_in
        if not fold.signatures:
            workers = 1
    n_chunks = min(len(parts), CHUNKS_PER_WORKER * workers) if workers > 1 else len(parts)
    chunks = [parts[i::n_chunks] for i in range(n_chunks)]
    outs = []
    done = 0
    for chunk, out in zip(chunks, map_parts(_worker, chunks, workers, shared=prep)):
        outs.append(out)
        done += len(chunk)
        if progress is not None:
            progress(done, len(parts))
    return _dense_of(outs)


#: chunks of parts per worker process (more: less idle time at the end, more messages)
CHUNKS_PER_WORKER = 12


def _dense_of(triples: list[np.ndarray]) -> np.ndarray:
    """The sum of tables given as rows (row, column, weight), as one dense table."""
    rows = max(int(t[:, 0].max(initial=0)) for t in triples) + 1
    width = max(int(t[:, 1].max(initial=0)) for t in triples) + 1
    total = np.zeros((rows, width), np.int64)
    for t in triples:  # the cells of one table are distinct: a fancy-index add is exact
        total[t[:, 0], t[:, 1]] += t[:, 2]
    return total


def modifier_table(game: Game, modifier: Modifier, reel_set: str = "base", level: int = 1,
                   model: PayModel | None = None, count_symbol: str | None = None, *,
                   by_first: bool = True, workers: int | None = None,
                   progress=None) -> SpinTable:
    """Exact (count, credits) weights of a paid spin that ``modifier`` acts on.

    ``count_symbol``: count this symbol in the modified window (the hold & win cash symbol),
    as :func:`slotmath.exact.cycle.spin_table` does; else the count column is 0.
    ``by_first``, ``workers``, ``progress``: how a place modifier's DP is cut into parts and
    shared over processes, and ``progress(done, total)`` in parts (:func:`_dense`); any
    choice gives the same table, only the time differs. (:func:`modifier_counts_table`
    counts any number of symbols jointly.)

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.model.modifiers import Modifier
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> t = modifier_table(g, Modifier("tnt", "upgrade", 1, from_symbols=("CHERRY",),
    ...                                to=(("BAR", 1),)))
    >>> t.cycle, t.mean_bets > 0
    (512, True)
    """
    counts = () if count_symbol is None else ((count_symbol, sum(game.rows)),)
    weights, cycle, cpb = modifier_counts_table(game, modifier, counts, reel_set, level, model,
                                                by_first=by_first, workers=workers,
                                                progress=progress)
    if count_symbol is None:
        weights = {(0, c): w for (c,), w in weights.items()}
    return SpinTable(weights, cycle, cpb, sum(game.rows) if count_symbol is not None else 0)


def modifier_counts_table(game: Game, modifier: Modifier, counts=(), reel_set: str = "base",
                          level: int = 1, model: PayModel | None = None, *,
                          by_first: bool = True, workers: int | None = None, progress=None
                          ) -> tuple[dict[tuple[int, ...], int], int, int]:
    """Exact weights ``(count of each symbol..., credits) -> weight`` of a spin on
    ``reel_set`` that ``modifier`` acts on, the symbols of ``counts`` ((symbol, cap), ...)
    counted jointly in the changed window (as :func:`slotmath.exact.cycle.counts_table`);
    with the cycle and the credits per bet.

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.model.modifiers import Modifier
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> m = Modifier("tnt", "upgrade", 1, from_symbols=("CHERRY",), to=(("SC", 1),))
    >>> w, cycle, _ = modifier_counts_table(g, m, [("SC", 3), ("BAR", 9)])
    >>> cycle, sum(w.values()) == cycle, max(k[0] for k in w)   # cherries show as scatters
    (512, True, 3)
    """
    rs = game.reel_sets[reel_set]
    model = model or PayModel(game, level)
    counts = tuple(counts)
    cells = sum(rows for j, rows in enumerate(game.rows) if modifier.on_reel(j))
    place = modifier.kind == "place"
    if place and rs.cycle * 2**cells >= _INT64_SAFE:
        raise OverflowError(f"cycle {rs.cycle} x 2**{cells} row masks is too large for the "
                            "engine's int64 weights; reduce stop weights")
    parts, factor = outcome_parts(game, modifier)
    weights: dict = {}
    for transform, factors in parts:
        if place:
            out, dims = _dense(game, rs, model, counts, transform, max(factors) + 1,
                               chosen_lo=min(factors), by_first=by_first, workers=workers,
                               progress=progress)
        else:
            out, dims = _dense(game, rs, model, counts, transform, 1, by_first=False)
        for k, f in factors.items():
            _add(weights, out[:, k, :], dims, f)
    return weights, factor * rs.cycle, model.credits_per_bet


def outcome_parts(game: Game, modifier: Modifier):
    """``[(transform, {chosen count: factor}), ...], cycle factor``: every outcome the
    ``transform`` enumerates (:func:`_virtual_windows`, over every reel) with ``k`` positions
    chosen in all weighs ``factor`` in a cycle of the reels' cycle x ``cycle factor``. A
    ``place`` modifier is one part: each ``k``-subset of the ``cells`` eligible positions
    has probability ``w_k / W / C(cells, k)``, over the common ``lcm`` of the ``C(cells,
    k)``; an ``upgrade`` modifier one part per drawn symbol (chosen count 0).

    >>> m = Modifier("d", "place", 1, symbol="W", counts=((1, 1), (2, 3)))
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")   # 3 reels x 3 rows: 9 cells
    >>> parts, factor = outcome_parts(g, m)
    >>> parts[0][1], factor                                  # lcm(9, 36) = 36; W = 4
    ({1: 4, 2: 3}, 144)
    """
    if modifier.kind == "place":
        cells = sum(rows for j, rows in enumerate(game.rows) if modifier.on_reel(j))
        common = lcm(*(comb(cells, k) for k, w in modifier.counts if w))
        factors = {k: w * (common // comb(cells, k)) for k, w in modifier.counts if w}
        return [(place_transform(modifier), factors)], modifier.total_weight * common
    sources = frozenset(modifier.from_symbols)
    return ([(upgrade_transform(sources, target), {0: w}) for target, w in modifier.to if w],
            modifier.total_weight)


def _add(weights: dict, dense: np.ndarray, dims: tuple, factor: int) -> None:
    """Add ``factor`` x the nonzero cells of ``dense`` (rows: the counts' mixed-radix row) to
    ``weights`` keyed (counts..., credits), in Python integers."""
    r_idx, c_idx = np.nonzero(dense)
    for r, c in zip(r_idx.tolist(), c_idx.tolist()):
        key = (*np.unravel_index(r, dims), c) if dims else (c,)
        key = tuple(int(x) for x in key)
        weights[key] = weights.get(key, 0) + factor * int(dense[r, c])
