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


@dataclass(frozen=True)
class _ReelWindows:
    inputs: np.ndarray  # (n_windows, n_units) int32: each unit's automaton input
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
    return _ReelWindows(
        np.asarray(inputs, dtype=np.int32).reshape(len(wins), n_units),
        np.asarray([merged[w] for w in wins], dtype=np.int64),
        np.asarray(scatter, dtype=np.int32).reshape(len(wins), len(tracked)),
    )


def _unique_rows(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unique rows of an int32 matrix and the inverse index (exact, via byte views)."""
    m = np.ascontiguousarray(m)
    view = m.view(np.dtype((np.void, m.dtype.itemsize * m.shape[1]))).ravel()
    _, first, inverse = np.unique(view, return_index=True, return_inverse=True)
    return m[first], inverse.ravel()


def _step(states: np.ndarray, n_units: int, caps: np.ndarray, automaton: Automaton, j: int,
          rw: _ReelWindows) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Move every state through every window of reel ``j``.

    Returns the statuses after the step as (n_states, n_windows, n_units + n_tracked), and the
    credits settled on the step (n_states, n_windows).
    """
    nt, em = automaton.next_status[j], automaton.emit[j]
    unit_status = states[:, None, :n_units]
    inp = rw.inputs[None, :, :]
    new_units = nt[unit_status, inp]
    settled = em[unit_status, inp].sum(axis=2)
    scat = np.minimum(states[:, None, n_units:] + rw.scatter[None, :, :], caps)
    return np.concatenate([new_units, scat.astype(np.int32)], axis=2), settled


@njit(cache=True)
def _fold_last(entry_state, entry_credits, entry_weight, add, out_index, window_weight, out):
    n_windows = window_weight.shape[0]
    for e in range(entry_state.shape[0]):
        s = entry_state[e]
        c = entry_credits[e]
        w = entry_weight[e]
        for k in range(n_windows):
            out[out_index[s, k], c + add[s, k]] += w * window_weight[k]


def _aggregate(keys: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(keys, kind="stable")
    keys, weights = keys[order], weights[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return keys[starts], np.add.reduceat(weights, starts)


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
        new_states, settled = _step(states, n_units, caps, automaton, j, rw)
        n_s, n_w = settled.shape
        states, inverse = _unique_rows(new_states.reshape(n_s * n_w, -1))
        trans = inverse.reshape(n_s, n_w)
        # Expand entries over windows, then merge equal (state, credits) pairs.
        ns = trans[entry_state].ravel()
        nc = (entry_credits[:, None] + settled[entry_state]).ravel()
        nw = (entry_weight[:, None] * rw.weights[None, :]).ravel()
        span = int(nc.max()) + 1
        keys, weights = _aggregate(ns * span + nc, nw)
        entry_state, entry_credits, entry_weight = keys // span, keys % span, weights

    # Last reel: settle everything, add scatter pays, fold into a dense output.
    rw = windows[n - 1]
    j = n - 1
    nt, em = automaton.next_status[j], automaton.emit[j]
    unit_status = states[:, None, :n_units]
    inp = rw.inputs[None, :, :]
    add = em[unit_status, inp].sum(axis=2) + automaton.final[nt[unit_status, inp]].sum(axis=2)
    scat = np.minimum(states[:, None, n_units:] + rw.scatter[None, :, :], caps)
    trigger_cap = 0
    trigger_col = None
    for t, name in enumerate(tracked):
        add = add + np.asarray(model.scatter_credits[name], dtype=np.int64)[scat[:, :, t]]
        if game.free_spins is not None and name == game.free_spins.trigger:
            trigger_col = t
            trigger_cap = max(game.free_spins.awards)
    if trigger_col is None:
        out_index = np.zeros(add.shape, dtype=np.int64)
    else:
        out_index = np.minimum(scat[:, :, trigger_col], trigger_cap).astype(np.int64)
    add = np.ascontiguousarray(add, dtype=np.int64)
    max_credits = int(entry_credits.max()) + int(add.max())
    out = np.zeros((trigger_cap + 1, max_credits + 1), dtype=np.int64)
    _fold_last(entry_state, entry_credits, entry_weight, add, np.ascontiguousarray(out_index),
               rw.weights, out)
    t_idx, c_idx = np.nonzero(out)
    weights = {(int(t), int(c)): int(out[t, c]) for t, c in zip(t_idx, c_idx)}
    return SpinTable(weights, rs.cycle, model.credits_per_bet, trigger_cap)
