"""Exact tables of a modified paid spin (``[modifiers]``, :mod:`slotmath.model.modifiers`).

A modifier changes the window after the stops, so each reel becomes a *virtual reel* of
transformed windows, and the full-cycle engine (:mod:`slotmath.exact.cycle`) runs over those
with one more counted digit: how many positions the modifier chose.

* ``place``: every stop's window crossed with every subset (row mask) of its positions;
  each chosen position shows the symbol unless it shows a ``keep`` symbol; the extra digit
  counts the chosen positions. Over all reels this visits every stop combination with every
  subset of the window's positions once, so the weights of the entries whose digit is ``k``
  sum the outcomes of all ``k``-subsets; each ``k``-subset has probability ``1 / C(cells,
  k)`` under the count law, so the table is ``sum_k w_k / W * out[k] / C(cells, k)`` over
  one common denominator (Python integers: exact, no overflow past the DP).
* ``upgrade``: one relabelled window per stop (no digit used); the table is the mixture over
  the drawn symbol of the spin table of relabelled strips.

The engine's int64 weights must hold ``cycle x 2**cells`` for a place modifier (checked).
The reference, sharing no code with this module, is ``tests/modifiers_reference.py``.
"""

from __future__ import annotations

from math import comb, lcm

import numpy as np

from slotmath.evaluate.window import PayModel
from slotmath.exact.automata import line_automaton, ways_automaton
from slotmath.exact.cycle import (
    _INT64_SAFE,
    _expand_entries,
    _fold_last,
    _last_outcomes,
    _pack,
    _packing,
    _ReelWindows,
    _step_kernel,
    _symbol_ids,
    _tracked_scatters,
    windows_input,
)
from slotmath.exact.spin_table import SpinTable
from slotmath.model.game import Game
from slotmath.model.modifiers import Modifier

__all__ = ["modifier_table", "place_windows", "upgrade_window"]


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


def _virtual_reel(game, model, rs, j, symbol_ids, tracked, transform) -> _ReelWindows:
    """Reel ``j``'s transformed windows, merged, with the chosen-position count as the last
    scatter column."""
    reel = rs.reels[j]
    rows = game.rows[j]
    merged: dict[tuple, int] = {}
    for stop, w in enumerate(reel.stop_weights):
        if w:
            for shown, chosen in transform(reel.window(stop, rows)):
                merged[shown, chosen] = merged.get((shown, chosen), 0) + w
    keys = list(merged)
    return windows_input(game, model, j, [k[0] for k in keys], [merged[k] for k in keys],
                         symbol_ids, tracked, extra=[k[1] for k in keys])


#: Reels whose row masks are merged into one virtual reel in a place modifier's DP (the
#: first two and the last); on the others each row mask is its own branch. Merging every
#: reel multiplies the DP's states by the mask combinations (on a 20-line 5 x 3 game with
#: wilds: 4,465 states become millions), branching keeps each branch at about the plain
#: size and shares the prefix (benchmarks/bench_gus_gold_christmas.py prints the time).
MERGED_REELS = (0, 1, -1)


def _step(prep, states, entries, rw, pack):
    automaton, j = prep.automaton, prep.reel
    states, ptr, outcomes = _step_kernel(
        states, automaton.next_status[j], automaton.emit[j], prep.emit_trigger[j], 0,
        prep.line_cap, rw.inputs, rw.ucol, rw.columns, pack, rw.weights)
    e_state, e_pack, e_credits, e_weight = entries
    span = int(e_credits.max()) + int(outcomes[:, 1].max(initial=0)) + 1
    return states, _expand_entries(e_state, e_pack, e_credits, e_weight, ptr, outcomes,
                                   prep.add_table, span)


def _prune(prep, states, entries):
    """Drop the entries past the largest count (the capped chosen digit) and the states no
    entry reaches."""
    e_state, e_pack, e_credits, e_weight = entries
    chosen = (e_pack // prep.place[-1]) % (prep.line_cap + 1)
    keep = chosen < prep.line_cap
    e_state, e_pack, e_credits, e_weight = (e_state[keep], e_pack[keep], e_credits[keep],
                                            e_weight[keep])
    used, e_state = np.unique(e_state, return_inverse=True)
    return (np.ascontiguousarray(states[used]),
            (e_state.astype(np.int64), e_pack, e_credits, e_weight))


def _dense(game: Game, rs, model: PayModel, count_symbol: str | None, transform,
           chosen_cap: int, branch_masks: bool = False,
           merged_reels=MERGED_REELS) -> tuple[np.ndarray, int]:
    """The DP over the virtual reels: dense weights out[count, chosen, credits] and the
    count's cap (``count_symbol``: its count in the window; else 0).

    ``transform(window)`` lists (window shown, positions chosen) of one stop's window;
    ``chosen_cap``: counts of chosen positions at or past it are dropped (the largest count
    the law uses + 1); ``branch_masks``: branch on each reel's row mask outside
    :data:`MERGED_REELS` (``transform``'s outcomes grouped by the mask, i.e. by their
    position in its list).
    """
    symbol_ids = _symbol_ids(game)
    tracked, caps = _tracked_scatters(game, model)
    cells = sum(game.rows)
    if count_symbol is not None:
        if count_symbol in tracked:
            caps[tracked.index(count_symbol)] = max(caps[tracked.index(count_symbol)], cells)
        else:
            tracked, caps = tracked + [count_symbol], caps + [cells]
    digits, place, add_table = _packing(caps + [chosen_cap])
    scatter_caps = np.asarray(caps + [chosen_cap], dtype=np.int32)
    n = game.n_reels
    merged = {r % n for r in merged_reels}
    variants = []  # per reel: the virtual reels its branches read
    for j in range(n):
        if branch_masks and j not in merged:
            n_masks = 1 << game.rows[j]
            parts = [
                (lambda w, m=m: [transform(w)[m]]) for m in range(n_masks)
            ]
        else:
            parts = [transform]
        rws = [_virtual_reel(game, model, rs, j, symbol_ids, tracked, t) for t in parts]
        variants.append([(rw, _pack(rw, scatter_caps, place)) for rw in rws])
    if game.paylines is not None:
        automaton = line_automaton(model, symbol_ids)
    else:
        max_count = max(int(rw.inputs.max(initial=0)) for v in variants for rw, _ in v)
        automaton = ways_automaton(model, max(max_count, 1))
    emit_trigger = tuple(np.zeros_like(em) for em in automaton.emit)
    pack_credits = np.zeros(len(digits), dtype=np.int64)
    pack_trigger = np.zeros(len(digits), dtype=np.int64)
    trigger_cap = 0
    for t, name in enumerate(tracked):
        credits = np.asarray(model.scatter_credits[name], dtype=np.int64)
        pack_credits += credits[digits[:, t]]
        if name == count_symbol:
            trigger_cap = cells
            pack_trigger = digits[:, t].copy()
    # The engine's trigger-line axis carries the chosen-position digit instead.
    out_row = np.ascontiguousarray(pack_trigger * (chosen_cap + 1) + digits[:, -1],
                                   dtype=np.int64)
    prep = _Split(automaton, emit_trigger, chosen_cap, place, add_table, pack_credits,
                  out_row, trigger_cap)
    total: list = []

    def walk(j, states, entries):
        if j == n - 1:
            for rw, pack in variants[j]:
                ptr, outcomes = _last_outcomes(
                    states, automaton.next_status[j], automaton.emit[j], emit_trigger[j], 0,
                    chosen_cap, automaton.final, rw.inputs, rw.ucol, rw.columns, pack,
                    rw.weights)
                width = (int(entries[2].max()) + int(outcomes[:, 0].max(initial=0))
                         + int(pack_credits.max()) + 1)
                out = np.zeros(((trigger_cap + 1) * (chosen_cap + 1), width), dtype=np.int64)
                _fold_last(*entries, ptr, outcomes, add_table, pack_credits, out_row, out)
                total.append(out)
            return
        for rw, pack in variants[j]:
            prep.reel = j
            s2, e2 = _step(prep, states, entries, rw, pack)
            s2, e2 = _prune(prep, s2, e2)
            if len(e2[0]):
                walk(j + 1, s2, e2)

    start = np.asarray([automaton.start], dtype=np.int32)
    walk(0, start, (np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64),
                    np.ones(1, np.int64)))
    width = max(o.shape[1] for o in total)
    out = np.zeros((total[0].shape[0], width), dtype=np.int64)
    for o in total:
        out[:, : o.shape[1]] += o
    return out.reshape(trigger_cap + 1, chosen_cap + 1, width), trigger_cap


class _Split:
    """What the branching DP's steps share."""

    def __init__(self, automaton, emit_trigger, line_cap, place, add_table, pack_credits,
                 out_row, trigger_cap):
        self.automaton, self.emit_trigger, self.line_cap = automaton, emit_trigger, line_cap
        self.place, self.add_table, self.pack_credits = place, add_table, pack_credits
        self.out_row, self.trigger_cap, self.reel = out_row, trigger_cap, 0


def modifier_table(game: Game, modifier: Modifier, reel_set: str = "base", level: int = 1,
                   model: PayModel | None = None, count_symbol: str | None = None,
                   merged_reels: tuple[int, ...] = MERGED_REELS) -> SpinTable:
    """Exact (count, credits) weights of a paid spin that ``modifier`` acts on.

    ``count_symbol``: count this symbol in the modified window (the hold & win cash symbol),
    as :func:`slotmath.exact.cycle.spin_table` does; else the count column is 0.
    ``merged_reels``: the reels a place modifier's DP merges (:data:`MERGED_REELS`; any
    choice gives the same table, only the time differs).

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
    rs = game.reel_sets[reel_set]
    model = model or PayModel(game, level)
    cells = sum(game.rows)
    if modifier.kind == "place":
        if rs.cycle * 2**cells >= _INT64_SAFE:
            raise OverflowError(f"cycle {rs.cycle} x 2**{cells} row masks is too large for the "
                                "engine's int64 weights; reduce stop weights")
        keep = frozenset(modifier.keep)

        def transform(window):
            return place_windows(window, modifier.symbol, keep)

        top = max(k for k, w in modifier.counts if w)
        out, cap = _dense(game, rs, model, count_symbol, transform, top + 1,
                          branch_masks=True, merged_reels=merged_reels)
        common = lcm(*(comb(cells, k) for k, w in modifier.counts if w))
        weights: dict = {}
        for k, w in modifier.counts:
            if not w:
                continue
            factor = w * (common // comb(cells, k))
            t_idx, c_idx = np.nonzero(out[:, k, :])
            for t, c in zip(t_idx, c_idx):
                key = (int(t), int(c))
                weights[key] = weights.get(key, 0) + factor * int(out[t, k, c])
        cycle = modifier.total_weight * common * rs.cycle
        return SpinTable(weights, cycle, model.credits_per_bet, cap)
    sources = frozenset(modifier.from_symbols)
    weights = {}
    cap = 0
    for target, w in modifier.to:
        if not w:
            continue

        def transform(window, target=target):
            return [(upgrade_window(window, sources, target), 0)]

        out, cap = _dense(game, rs, model, count_symbol, transform, 1)
        t_idx, c_idx = np.nonzero(out[:, 0, :])
        for t, c in zip(t_idx, c_idx):
            key = (int(t), int(c))
            weights[key] = weights.get(key, 0) + w * int(out[t, 0, c])
    return SpinTable(weights, modifier.total_weight * rs.cycle, model.credits_per_bet, cap)
