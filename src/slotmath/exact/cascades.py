"""Exact law of a cascading spin: every stop combination (and bonus arrangement, and refill
draw) followed to the end of its cascade chain.

A spin's chain (rules: ``docs/game-format.md``, "Cascades") is a Markov chain over window
states, absorbed when a drop wins nothing:

* **strip refill**: the stops determine the whole chain, so the full cycle is enumerated
  exactly, in integers. The frozen bonus symbols are not enumerated up front: the chain is
  followed once for the part that does not depend on them and branches only when a reel
  reaches the freeing threshold, on the bonus symbol above that reel, carrying the set of
  arrangements still possible (a few branches per stop combination instead of one chain per
  arrangement). The kernel is numba; first-reel stops are shared out over worker processes and
  their integer tables merged.
* **random refill**: new symbols are drawn from a weight table per reel, so each drop branches
  over every refill draw; the chain is solved by memoised recursion over (window, counters,
  freed reels, arrangements still possible, cascade index), in exact fractions. Its state space
  grows fast: it is meant for small games and for checking.

The result, :class:`CascadeLaw`, is the joint law of (credits, A, trigger count, cascades):
``credits`` is the spin's whole win with the multiplier rule started at index 0 (scatter pays
included), ``A`` the sum of its drop wins before any multiplier (kept only for free spins that
carry the multiplier: a spin started at index ``i`` then pays ``credits + step*i*A`` times the
free-spin multiplier's part, as the rule is linear). Beside it, exact sums for the components
(first drop, later drops, scatter), per pay-table entry, the cascade-count and final-multiplier
laws, each reel's freeing by effect and the ways in play.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from itertools import product

import numpy as np
from numba import njit, types
from numba.typed import Dict

from slotmath.evaluate.window import PayModel
from slotmath.exact.workers import default_workers, map_parts
from slotmath.model.game import Game

__all__ = ["MAX_CASCADES", "CascadeLaw", "cascade_law"]

_KEY = types.UniTuple(types.int64, 4)

#: Longest cascade chain followed; a longer one is an error (a chain that never ends).
MAX_CASCADES = 250


# -- the compiled game -------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class _Arrays:
    """A game's reel set, pays and rules as arrays for the kernel."""

    names: tuple[str, ...]
    strips: np.ndarray  # [reels, max len] symbol ids
    lengths: np.ndarray
    stop_weights: np.ndarray  # [reels, max len]
    rows: np.ndarray
    member: np.ndarray  # [keys, symbols] 0/1
    key_credits: np.ndarray  # [keys, max run + 1]
    mult_sym: np.ndarray
    is_scatter: np.ndarray
    scatter_ids: np.ndarray
    scatter_credits: np.ndarray  # [scatters, window + 1]
    trigger: int
    ways: bool
    paylines: np.ndarray  # [lines, reels]
    values: np.ndarray  # multiplier value by index, MAX_CASCADES + 1 entries
    spin_mult: int  # the free-spin multiplier (1 in the base game)
    ord_eff: np.ndarray  # [orderings, reels] effect id
    ord_w: np.ndarray
    eff_wild: np.ndarray  # [effects] wild symbol id or -1
    eff_split: np.ndarray
    effect_names: tuple[str, ...]
    threshold: int
    accumulate: bool
    has_bonus: bool
    keys: tuple[str, ...]
    min_trigger: int  # fewest trigger symbols that start free spins (window + 1: none)
    pruning: tuple = ()  # (prefix, presence, scatter_count, tail_hist): see _pruning
    sym_bits: np.ndarray = None  # [symbols] bit set of the pay-table entries it belongs to


def _pruning(ar: _Arrays) -> tuple:
    """What lets the kernel skip a block of stop combinations whose first reels show no
    pay-table entry on every one of them (ways games with at most one scatter symbol, where
    no reel window can free a bonus symbol by scatters alone): the prefix length, per reel
    and stop the bit set of entries shown, the scatter count, and the tail reels' law of the
    scatter count. ``prefix = 0`` turns it off."""
    n_reels = len(ar.lengths)
    keys = ar.member.shape[0]
    min_run = [min([c for c in range(ar.key_credits.shape[1]) if ar.key_credits[k, c] > 0]
                   or [n_reels]) for k in range(keys)]
    prefix = min([3, n_reels - 1] + min_run)
    scatters = [int(x) for x in ar.scatter_ids if x >= 0]
    R = int(ar.rows.max())
    maxlen = ar.strips.shape[1]
    presence = np.zeros((n_reels, maxlen), np.int64)
    count = np.zeros((n_reels, maxlen), np.int64)
    top_scatter = 0
    for r in range(n_reels):
        L = int(ar.lengths[r])
        for st in range(L):
            window = [int(ar.strips[r, (st + y) % L]) for y in range(int(ar.rows[r]))]
            bits = 0
            for k in range(keys):
                if any(ar.member[k, s] for s in window):
                    bits |= 1 << k
            presence[r, st] = bits
            count[r, st] = sum(window.count(s) for s in scatters)
            top_scatter = max(top_scatter, sum(int(ar.is_scatter[s]) for s in window))
    ok = (ar.ways and len(scatters) <= 1 and keys <= 62 and prefix >= 1 and R > 0
          and not (ar.has_bonus and top_scatter >= ar.threshold))
    tail = np.zeros(int(ar.rows.sum()) + 1, np.int64)
    tail[0] = 1
    for r in range(prefix, n_reels):
        nxt = np.zeros_like(tail)
        for st in range(int(ar.lengths[r])):
            w = int(ar.stop_weights[r, st])
            if w:
                nxt[count[r, st]:] += w * tail[: len(tail) - count[r, st]]
        tail = nxt
    return (prefix if ok else 0, presence, count, tail)


def _arrays(game: Game, reel_set: str, level: int, model: PayModel, free: bool,
            lean: bool = False) -> _Arrays:
    names = tuple(game.symbols)
    sid = {n: i for i, n in enumerate(names)}
    reels = game.reel_sets[reel_set].reels
    n_reels = len(reels)
    maxlen = max(len(r.symbols) for r in reels)
    strips = np.zeros((n_reels, maxlen), np.int64)
    weights = np.zeros((n_reels, maxlen), np.int64)
    for j, r in enumerate(reels):
        strips[j, : len(r.symbols)] = [sid[s] for s in r.symbols]
        weights[j, : len(r.symbols)] = r.weights if r.weights is not None else 1
    keys = model.keys
    max_run = max([n_reels] + [max(t, default=0) for t in model.key_credits.values()])
    member = np.zeros((len(keys), len(names)), np.int64)
    key_credits = np.zeros((len(keys), max_run + 1), np.int64)
    for k, key in enumerate(keys):
        for m in model.key_members[key]:
            member[k, sid[m]] = 1
        for c, v in model.key_credits[key].items():
            key_credits[k, c] = v
    scatters = game.scatters
    window = sum(game.rows)
    scatter_credits = np.zeros((max(1, len(scatters)), window + 1), np.int64)
    pays_scatters = not free or game.free_spins is None or game.free_spins.scatter_pays
    for i, s in enumerate(scatters):
        if pays_scatters and s in model.scatter_credits:  # x the free-spin multiplier
            scatter_credits[i] = np.array(model.scatter_credits[s], np.int64) * (
                game.free_spins.multiplier if free else 1)
    fs = game.free_spins
    # the counted mark: the free-spin trigger (without free spins, the first scatter)
    trigger = sid[fs.trigger] if fs is not None else (sid[scatters[0]] if scatters else -1)
    rule = game.cascades.rule(free)
    values = np.array([rule.value(k) for k in range(MAX_CASCADES + 2)], np.int64)
    bonus = game.bonus_symbols
    if bonus is not None:
        effect_names = tuple(bonus.effects)
        eid = {n: i for i, n in enumerate(effect_names)}
        orderings = bonus.orderings()
        ord_eff = np.array([[eid[s] for s in p] for _, p in orderings], np.int64)
        ord_w = np.array([w for w, _ in orderings], np.int64)
        eff_wild = np.array([sid[e.wild] if e.wild else -1 for e in bonus.effects.values()],
                            np.int64)
        eff_split = np.array([e.split for e in bonus.effects.values()], np.int64)
        threshold, accumulate = bonus.threshold, bonus.accumulate
    else:
        effect_names = ()
        ord_eff = np.zeros((1, n_reels), np.int64)
        ord_w = np.ones(1, np.int64)
        eff_wild = np.full(1, -1, np.int64)
        eff_split = np.ones(1, np.int64)
        threshold, accumulate = 1 << 30, True
    paylines = (np.array(game.paylines, np.int64) if game.paylines is not None
                else np.zeros((0, n_reels), np.int64))
    out = _Arrays(
        names, strips, np.array([len(r.symbols) for r in reels], np.int64), weights,
        np.array(game.rows, np.int64), member, key_credits,
        np.array([game.symbols[n].multiplier for n in names], np.int64),
        np.array([game.symbols[n].scatter for n in names], np.int64),
        np.array([sid[s] for s in scatters] or [-1], np.int64), scatter_credits, trigger,
        game.ways, paylines, values, fs.multiplier if (free and fs is not None) else 1,
        ord_eff, ord_w, eff_wild, eff_split, effect_names, threshold, accumulate,
        bonus is not None, keys,
        (min(fs.awards) if fs is not None and not free else window + 1) if lean else 0,
    )
    sym_bits = np.zeros(len(names), np.int64)
    if len(keys) <= 62:
        for k in range(len(keys)):
            sym_bits |= member[k] << k
    return replace(out, pruning=_pruning(out), sym_bits=sym_bits)


# -- the kernel ------------------------------------------------------------------------------
@njit(cache=True)
def _drop(cols, rows, eff, eff_wild, eff_split, member, key_credits, mult_sym, is_scatter,
          ways, paylines, removed, entry, sym, wgt, sym_bits, m):
    """Unmultiplied line/ways credits of one drop; marks the winning positions in
    ``removed`` and adds each paying entry's credits times ``m`` to ``entry[key, run]``.

    Ways: ``sym_bits[s]`` is the bit set of the pay-table entries symbol ``s`` belongs to, so
    the run of every entry comes from one pass over the window (the bit set of the entries on
    each reel, and-ed reel by reel); only the entries that pay are counted position by
    position."""
    n_reels = cols.shape[0]
    n_keys = member.shape[0]
    # effective symbols and weights, and per reel the entries shown
    bits = np.empty(n_reels, np.int64)
    for r in range(n_reels):
        e = eff[r]
        b = 0
        for y in range(rows[r]):
            s = cols[r, y]
            w = 1
            if e >= 0 and is_scatter[s] == 0:
                if eff_wild[e] >= 0:
                    s = eff_wild[e]
                w = eff_split[e]
            sym[r, y] = s
            wgt[r, y] = w * mult_sym[s]
            removed[r, y] = 0
            b |= sym_bits[s]
        bits[r] = b
    total = 0
    if ways and n_keys > 62:  # too many entries for a bit set: entry by entry
        for k in range(n_keys):
            run = 0
            n_ways = 1
            for r in range(n_reels):
                c = 0
                for y in range(rows[r]):
                    if member[k, sym[r, y]]:
                        c += wgt[r, y]
                if c == 0:
                    break
                run += 1
                n_ways *= c
            if run == 0:
                continue
            credits = key_credits[k, run] * n_ways
            if credits > 0:
                total += credits
                entry[k, run] += m * credits
                for r in range(run):
                    for y in range(rows[r]):
                        if member[k, sym[r, y]]:
                            removed[r, y] = 1
    elif ways:
        alive = bits[0]
        for r in range(1, n_reels + 1):
            nxt = alive & bits[r] if r < n_reels else 0
            ended = alive & ~nxt  # the entries whose run is r
            alive = nxt
            if ended != 0:
                for k in range(n_keys):
                    if (ended >> k) & 1 == 0 or key_credits[k, r] == 0:
                        continue
                    n_ways = 1
                    for rr in range(r):
                        c = 0
                        for y in range(rows[rr]):
                            if member[k, sym[rr, y]]:
                                c += wgt[rr, y]
                        n_ways *= c
                    credits = key_credits[k, r] * n_ways
                    if credits > 0:
                        total += credits
                        entry[k, r] += m * credits
                        for rr in range(r):
                            for y in range(rows[rr]):
                                if member[k, sym[rr, y]]:
                                    removed[rr, y] = 1
            if alive == 0:
                break
    else:
        for ln in range(paylines.shape[0]):
            best = 0
            best_k = -1
            best_run = 0
            for k in range(n_keys):
                run = 0
                mult = 1
                for r in range(n_reels):
                    s = sym[r, paylines[ln, r]]
                    if member[k, s] == 0:
                        break
                    run += 1
                    mult *= mult_sym[s]
                if run > 0:
                    credits = key_credits[k, run] * mult
                    if credits > best:
                        best = credits
                        best_k = k
                        best_run = run
            if best > 0:
                total += best
                entry[best_k, best_run] += m * best
                for r in range(best_run):
                    removed[r, paylines[ln, r]] = 1
    return total


@njit(cache=True)
def _run(first, strips, lengths, stop_weights, rows, member, key_credits, mult_sym,
         is_scatter, scatter_ids, scatter_credits, trigger, ways, paylines, values, spin_mult,
         ord_eff, ord_w, eff_wild, eff_split, threshold, accumulate, has_bonus, keep_a,
         min_trigger, sym_bits, entries, prefix, presence, scatter_count, tail_hist):
    """Every stop combination whose first-reel stop is in ``first``, each chain to its end.

    Returns the sparse joint table (credits, A, trigger, cascades) -> weight, the weight of
    the (0, 0, trigger, 0) outcomes by trigger, and the dense sums (see CascadeLaw)."""
    n_reels = strips.shape[0]
    R = 0
    for r in range(n_reels):
        R = max(R, rows[r])
    n_ord = ord_w.shape[0]
    n_eff = eff_split.shape[0]
    n_keys = member.shape[0]
    n_ent = n_keys if entries else 0  # the per-entry sums are kept only when asked
    n_runs = key_credits.shape[1]
    window = scatter_credits.shape[1] - 1
    table = Dict.empty(key_type=_KEY, value_type=types.int64)
    zero = np.zeros(window + 1, np.int64)
    casc_hist = np.zeros(MAX_CASCADES + 1, np.int64)
    freed = np.zeros((n_reels, n_eff), np.int64)
    max_ways = 1
    for r in range(n_reels):
        max_ways *= rows[r] * max(1, eff_split.max())
    ways_hist = np.zeros(max_ways + 1, np.int64)
    sums = np.zeros(3, np.int64)  # first drop, later drops, scatter
    entry_sum = np.zeros((n_keys, n_runs), np.int64)
    error = np.zeros(n_reels + 1, np.int64)  # [0] = 1 when a chain is too long; stops
    D = 4 * n_reels * n_eff + 4
    s_cols = np.zeros((D, n_reels, R), np.int64)
    s_top = np.zeros((D, n_reels), np.int64)
    s_cnt = np.zeros((D, n_reels), np.int64)
    s_eff = np.zeros((D, n_reels), np.int64)
    s_mask = np.zeros((D, n_ord), np.int64)
    s_k = np.zeros(D, np.int64)
    s_acc = np.zeros((D, 3), np.int64)  # first, later, A
    s_entry = np.zeros((D, n_keys, n_runs), np.int64)
    cols = np.zeros((n_reels, R), np.int64)
    top = np.zeros(n_reels, np.int64)
    cnt = np.zeros(n_reels, np.int64)
    eff = np.zeros(n_reels, np.int64)
    mask = np.zeros(n_ord, np.int64)
    acc = np.zeros(3, np.int64)
    entry = np.zeros((n_keys, n_runs), np.int64)
    removed = np.zeros((n_reels, R), np.int64)
    sym = np.zeros((n_reels, R), np.int64)
    wgt = np.zeros((n_reels, R), np.int64)
    keep = np.zeros(R, np.int64)
    rbits = np.zeros(n_reels, np.int64)
    stops = np.zeros(n_reels, np.int64)
    total_combos = 1
    for r in range(1, n_reels):
        total_combos *= lengths[r]
    block = 1
    for r in range(prefix, n_reels):
        block *= lengths[r]
    ord_total = 0
    for o in range(n_ord):
        ord_total += ord_w[o]
    base_ways = 1
    for r in range(n_reels):
        base_ways *= rows[r]
    for fi in range(first.shape[0]):
        stops[0] = first[fi]
        for r in range(1, n_reels):
            stops[r] = 0
        c = -1
        while c + 1 < total_combos:
            c += 1
            if c > 0:  # the odometer over reels 2..n, the last fastest
                r = n_reels - 1
                stops[r] += 1
                while stops[r] == lengths[r] and r > 1:
                    stops[r] = 0
                    r -= 1
                    stops[r] += 1
            if prefix > 0 and c % block == 0:
                # A block of stop combinations sharing reels 1..prefix: when no pay-table
                # entry shows on all of them, no combination of the block wins a first drop
                # (and none frees a reel), so each ends at once on its scatter count.
                both = -1
                for r in range(prefix):
                    both &= presence[r, stops[r]]
                if both == 0:
                    swp = 1
                    tp = 0
                    for r in range(prefix):
                        swp *= stop_weights[r, stops[r]]
                        tp += scatter_count[r, stops[r]]
                    if swp > 0:
                        for tt in range(tail_hist.shape[0]):
                            if tail_hist[tt] == 0:
                                continue
                            w = swp * tail_hist[tt] * ord_total
                            t = tp + tt
                            scat = scatter_credits[0, t]
                            if scat == 0:
                                zero[t] += w
                            else:
                                key = (scat, 0, t, 0)
                                table[key] = table.get(key, 0) + w
                            casc_hist[0] += w
                            sums[2] += w * scat
                            ways_hist[base_ways] += w
                    c += block - 1
                    for r in range(prefix, n_reels):  # the block's last combination
                        stops[r] = lengths[r] - 1
                    continue
            sw = 1
            for r in range(n_reels):
                sw *= stop_weights[r, stops[r]]
            if sw == 0:
                continue
            # initial state into slot 0
            for r in range(n_reels):
                s_top[0, r] = stops[r]
                for y in range(rows[r]):
                    i = stops[r] + y
                    while i >= lengths[r]:
                        i -= lengths[r]
                    s_cols[0, r, y] = strips[r, i]
                s_cnt[0, r] = 0
                s_eff[0, r] = -1
            for o in range(n_ord):
                s_mask[0, o] = 1
            s_k[0] = 0
            for a in range(3):
                s_acc[0, a] = 0
            for a in range(n_ent):
                for b in range(n_runs):
                    s_entry[0, a, b] = 0
            sp = 1
            while sp > 0:
                sp -= 1
                # element by element: a slice view costs a reference count each
                for r in range(n_reels):
                    for y in range(R):
                        cols[r, y] = s_cols[sp, r, y]
                    top[r] = s_top[sp, r]
                    cnt[r] = s_cnt[sp, r]
                    eff[r] = s_eff[sp, r]
                for o in range(n_ord):
                    mask[o] = s_mask[sp, o]
                k = s_k[sp]
                for a in range(3):
                    acc[a] = s_acc[sp, a]
                for a in range(n_ent):
                    for b in range(n_runs):
                        entry[a, b] = s_entry[sp, a, b]
                while True:
                    if has_bonus:
                        for r in range(n_reels):
                            if eff[r] >= 0:
                                continue
                            n_sc = 0
                            for y in range(rows[r]):
                                n_sc += is_scatter[cols[r, y]]
                            if cnt[r] + n_sc < threshold:
                                continue
                            chosen = -1
                            for e in range(n_eff):
                                present = False
                                for o in range(n_ord):
                                    if mask[o] and ord_eff[o, r] == e:
                                        present = True
                                        break
                                if not present:
                                    continue
                                if chosen < 0:
                                    chosen = e
                                    continue
                                # another branch: the same state with effect e on reel r
                                for rr in range(n_reels):
                                    for y in range(R):
                                        s_cols[sp, rr, y] = cols[rr, y]
                                    s_top[sp, rr] = top[rr]
                                    s_cnt[sp, rr] = cnt[rr]
                                    s_eff[sp, rr] = eff[rr]
                                s_eff[sp, r] = e
                                for o in range(n_ord):
                                    s_mask[sp, o] = mask[o] if ord_eff[o, r] == e else 0
                                s_k[sp] = k
                                for a in range(3):
                                    s_acc[sp, a] = acc[a]
                                for a in range(n_ent):
                                    for b in range(n_runs):
                                        s_entry[sp, a, b] = entry[a, b]
                                sp += 1
                            eff[r] = chosen
                            for o in range(n_ord):
                                if ord_eff[o, r] != chosen:
                                    mask[o] = 0
                    m = values[k] * spin_mult
                    if ways and n_keys <= 62:
                        # _drop's ways evaluation written out (the hot path: a call passes
                        # 15 arrays, each reference counted, which costs more than the work)
                        d = 0
                        for r in range(n_reels):
                            e = eff[r]
                            b = 0
                            for y in range(rows[r]):
                                s = cols[r, y]
                                w = 1
                                if e >= 0 and is_scatter[s] == 0:
                                    if eff_wild[e] >= 0:
                                        s = eff_wild[e]
                                    w = eff_split[e]
                                sym[r, y] = s
                                wgt[r, y] = w * mult_sym[s]
                                removed[r, y] = 0
                                b |= sym_bits[s]
                            rbits[r] = b
                        alive = rbits[0]
                        for r in range(1, n_reels + 1):
                            nxt = alive & rbits[r] if r < n_reels else 0
                            ended = alive & ~nxt  # the entries whose run is r
                            alive = nxt
                            if ended != 0:
                                for kk in range(n_keys):
                                    if (ended >> kk) & 1 == 0 or key_credits[kk, r] == 0:
                                        continue
                                    n_ways = 1
                                    for rr in range(r):
                                        cw = 0
                                        for y in range(rows[rr]):
                                            if member[kk, sym[rr, y]]:
                                                cw += wgt[rr, y]
                                        n_ways *= cw
                                    credits = key_credits[kk, r] * n_ways
                                    if credits > 0:
                                        d += credits
                                        if entries:
                                            entry[kk, r] += m * credits
                                        for rr in range(r):
                                            for y in range(rows[rr]):
                                                if member[kk, sym[rr, y]]:
                                                    removed[rr, y] = 1
                            if alive == 0:
                                break
                    else:
                        d = _drop(cols, rows, eff, eff_wild, eff_split, member, key_credits,
                                  mult_sym, is_scatter, ways, paylines, removed, entry, sym,
                                  wgt, sym_bits, m)
                    if d == 0:
                        break
                    if k == 0:
                        acc[0] += m * d
                    else:
                        acc[1] += m * d
                    acc[2] += d
                    for r in range(n_reels):
                        # strip refill (written out here: a call per reel costs more in
                        # reference counting than the refill itself): the survivors fall,
                        # the strip above the window fills the top
                        n_keep = 0
                        for y in range(rows[r]):
                            if removed[r, y] == 0:
                                keep[n_keep] = cols[r, y]
                                n_keep += 1
                        n_rem = rows[r] - n_keep
                        if n_rem > 0:
                            L = lengths[r]
                            t = top[r] - n_rem
                            while t < 0:
                                t += L
                            top[r] = t
                            for y in range(n_rem):
                                i = t + y
                                while i >= L:
                                    i -= L
                                cols[r, y] = strips[r, i]
                            for y in range(n_keep):
                                cols[r, n_rem + y] = keep[y]
                        if accumulate:
                            cnt[r] += n_rem
                        else:
                            cnt[r] = n_rem
                    k += 1
                    if k > MAX_CASCADES:
                        error[0] = 1
                        for r in range(n_reels):
                            error[r + 1] = stops[r]
                        return table, zero, casc_hist, freed, ways_hist, sums, entry_sum, error
                # the leaf
                w = 0
                for o in range(n_ord):
                    if mask[o]:
                        w += ord_w[o]
                w *= sw
                trig = 0
                scat = 0
                for i in range(scatter_ids.shape[0]):
                    sid = scatter_ids[i]
                    if sid < 0:
                        continue
                    n = 0
                    for r in range(n_reels):
                        for y in range(rows[r]):
                            if cols[r, y] == sid:
                                n += 1
                    scat += scatter_credits[i, n]
                    if sid == trigger:
                        trig = n
                credits = acc[0] + acc[1] + scat
                if credits == 0 and k == 0:
                    zero[trig] += w
                else:
                    # the cascade count is kept where a spin starts free spins (or on the
                    # free reels); elsewhere only its own histogram needs it
                    kk = k if (keep_a or trig >= min_trigger) else 0
                    key = (credits, acc[2] if keep_a else 0, trig, kk)
                    table[key] = table.get(key, 0) + w
                casc_hist[k] += w
                sums[0] += w * acc[0]
                sums[1] += w * acc[1]
                sums[2] += w * scat
                n_w = 1
                for r in range(n_reels):
                    e = eff[r]
                    if e >= 0:
                        freed[r, e] += w
                        n_w *= rows[r] * eff_split[e]
                    else:
                        n_w *= rows[r]
                ways_hist[n_w] += w
                if k > 0:
                    for a in range(n_ent):
                        for b in range(n_runs):
                            entry_sum[a, b] += w * entry[a, b]
    return table, zero, casc_hist, freed, ways_hist, sums, entry_sum, error


def _call(ar: _Arrays, first: np.ndarray, keep_a: bool, entries: bool = True):
    return _run(first, ar.strips, ar.lengths, ar.stop_weights, ar.rows, ar.member,
                ar.key_credits, ar.mult_sym, ar.is_scatter, ar.scatter_ids, ar.scatter_credits,
                ar.trigger, ar.ways, ar.paylines, ar.values, ar.spin_mult, ar.ord_eff, ar.ord_w,
                ar.eff_wild, ar.eff_split, ar.threshold, ar.accumulate, ar.has_bonus, keep_a,
                ar.min_trigger, ar.sym_bits, entries, *ar.pruning)


@njit(cache=True)
def _table_arrays(table):
    """The kernel's joint table as arrays (compiled and cached: iterating a typed dict from
    Python compiles its iterator at run time, seconds in every fresh worker process)."""
    keys = np.empty((len(table), 4), np.int64)
    values = np.empty(len(table), np.int64)
    for i, (key, w) in enumerate(table.items()):
        for j in range(4):
            keys[i, j] = key[j]
        values[i] = w
    return keys, values


def _worker(work: tuple, first: np.ndarray):
    ar, keep_a, entries = work
    table, zero, *dense = _call(ar, first, keep_a, entries)
    keys, values = _table_arrays(table)
    return keys, values, zero, dense


# -- the law ---------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class CascadeLaw:
    """Exact law of one cascading spin on a reel set (see the module docstring).

    ``joint[(credits, A, trigger, cascades)]`` are integer weights over ``cycle`` (stop
    combinations x bonus orderings x, in random mode, a common denominator of the refill
    draws). ``A`` is 0 unless the law was built for a carried multiplier.
    """

    joint: dict
    cycle: int
    credits_per_bet: int
    sums: tuple[int, int, int]  # weighted credits: first drop, later drops, scatter
    cascade_weights: dict
    final_values: tuple[int, ...]  # multiplier value by index (k from 0)
    freed_weights: dict  # (reel, effect) -> weight
    ways_weights: dict
    entry_weights: dict  # (pay-table key, run) -> weighted credits of later... (all drops)
    max_cascades: int = 0
    lean: bool = False

    def _p(self, w) -> Fraction:
        return Fraction(w, self.cycle)

    def probabilities(self) -> dict:
        """(win in total bets, trigger count, cascades) -> probability."""
        if self.lean:
            raise ValueError("a lean cascade law keeps cascades only where free spins start")
        out: dict = defaultdict(Fraction)
        for (c, _a, t, k), w in self.joint.items():
            out[(Fraction(c, self.credits_per_bet), t, k)] += Fraction(w, self.cycle)
        return dict(out)

    @cached_property
    def mean_first(self) -> Fraction:
        return Fraction(self.sums[0], self.cycle * self.credits_per_bet)

    @cached_property
    def mean_later(self) -> Fraction:
        return Fraction(self.sums[1], self.cycle * self.credits_per_bet)

    @cached_property
    def mean_scatter(self) -> Fraction:
        return Fraction(self.sums[2], self.cycle * self.credits_per_bet)

    @cached_property
    def mean(self) -> Fraction:
        return self.mean_first + self.mean_later + self.mean_scatter

    @cached_property
    def cascade_counts(self) -> dict:
        return {k: self._p(w) for k, w in sorted(self.cascade_weights.items())}

    @cached_property
    def final_multiplier(self) -> dict:
        out: dict = defaultdict(Fraction)
        for k, w in self.cascade_weights.items():
            out[self.final_values[k]] += self._p(w)
        return dict(sorted(out.items()))

    @cached_property
    def freed(self) -> dict:
        return {key: self._p(w) for key, w in sorted(self.freed_weights.items())}

    @cached_property
    def ways_in_play(self) -> dict:
        return {n: self._p(w) for n, w in sorted(self.ways_weights.items())}

    def marked(self) -> dict:
        """(trigger, final index, credits) -> weight: the paid spin's table with the marks the
        free spins need (the index only where the spin triggers, else 0)."""
        out: dict = defaultdict(int)
        for (c, _a, t, k), w in self.joint.items():
            out[(t, k, c)] += w
        return dict(out)


def cascade_law(game: Game, reel_set: str = "base", level: int = 1, *,
                free: bool | None = None, keep_a: bool = False, lean: bool = False,
                entries: bool = True, workers: int | None = None,
                progress: Callable[[int, int], None] | None = None,
                model: PayModel | None = None) -> CascadeLaw:
    """The exact law of one cascading spin of ``game`` on ``reel_set`` at ``level``.

    ``free``: play it as a free spin (free-spin multiplier rule, scatter pays per
    ``free_spins.scatter_pays``); default: when ``reel_set`` is the free-spin reel set and not
    ``base``. ``keep_a``: keep the unmultiplied drop sum in the joint table (for a carried
    multiplier). ``lean``: keep the cascade count in the joint table only where the spin
    starts free spins (the analysis needs no more; :meth:`CascadeLaw.probabilities` then
    refuses). ``entries=False``: skip the per-entry sums (``entry_weights`` is then empty;
    strip refill only), which the free-spin table does not need.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/cascades/tiny_bonus.toml")
    >>> law = cascade_law(g)
    >>> law.mean == law.mean_first + law.mean_later + law.mean_scatter
    True
    """
    if game.cascades is None:
        raise ValueError(f"{game.name}: no [cascades] table")
    model = model or PayModel(game, level)
    if free is None:
        free = game.free_spins is not None and reel_set == game.free_spins.reels \
            and reel_set != "base"
    ar = _arrays(game, reel_set, level, model, free, lean)
    if game.cascades.refill == "random":
        return _random_law(game, reel_set, ar, model, keep_a)
    n_first = int(ar.lengths[0])
    workers = workers or default_workers()
    # strided chunks of first-reel stops (neighbouring stops cost alike), ten per worker so
    # that the last chunk leaves little idle time
    n_chunks = max(1, min(n_first, 10 * workers))
    chunks = [np.arange(i, n_first, n_chunks, dtype=np.int64) for i in range(n_chunks)]
    results = []
    if progress is not None:
        progress(0, len(chunks))
    if not (workers > 1 and n_first > 1 and int(np.prod(ar.lengths)) > 200_000):
        workers = 1
    if workers > 1:
        _table_arrays(_call(ar, np.zeros(0, np.int64), keep_a, entries)[0])  # compile, then fork
    work = (ar, keep_a, entries)
    for i, res in enumerate(map_parts(_worker, chunks, workers, shared=work)):
        results.append(res)
        if progress is not None:
            progress(i + 1, len(chunks))
    return replace(_merge(game, ar, model, results), lean=lean)


def _merge(game, ar: _Arrays, model: PayModel, results) -> CascadeLaw:
    casc = np.zeros(MAX_CASCADES + 1, dtype=object)
    freed = None
    ways = None
    sums = [0, 0, 0]
    entry = None
    all_keys, all_values = [], []
    for keys, values, zero, dense in results:
        casc_hist, freed_a, ways_hist, sums_a, entry_a, error = dense
        if error[0]:
            stops = [int(s) for s in error[1:]]
            raise ValueError(f"{game.name}: the cascade chain of stops {stops} is longer than "
                             f"{MAX_CASCADES} drops: it never ends; change the strips")
        t = np.flatnonzero(zero)
        z = np.zeros((len(t), 4), np.int64)
        z[:, 2] = t
        all_keys += [keys, z]
        all_values += [values, zero[t]]
        casc += casc_hist.astype(object)
        freed = freed_a.astype(object) if freed is None else freed + freed_a.astype(object)
        ways = ways_hist.astype(object) if ways is None else ways + ways_hist.astype(object)
        entry = entry_a.astype(object) if entry is None else entry + entry_a.astype(object)
        for i in range(3):
            sums[i] += int(sums_a[i])
    cycle = int(np.prod([int(ar.stop_weights[r, : ar.lengths[r]].sum())
                         for r in range(len(ar.lengths))], dtype=object)) * int(ar.ord_w.sum())
    joint = _sum_rows(np.concatenate(all_keys), np.concatenate(all_values), cycle)
    return _law(ar, model, joint, cycle, tuple(sums), casc, freed, ways, entry)


def _sum_rows(keys: np.ndarray, values: np.ndarray, total: int) -> dict:
    """``{tuple(row): summed value}`` over the rows of ``keys`` (sorted by key). ``total``
    bounds the sum of ``values`` (all weights of one law): in int64 when it fits."""
    if len(keys) == 0:
        return {}
    if total >= 1 << 62:
        joint: dict = defaultdict(int)
        for key, w in zip(map(tuple, keys.tolist()), values.tolist()):
            joint[key] += w
        return dict(sorted(joint.items()))
    order = np.lexsort(keys.T[::-1])
    keys, values = keys[order], values[order]
    new = np.ones(len(keys), bool)
    new[1:] = (keys[1:] != keys[:-1]).any(axis=1)
    at = np.flatnonzero(new)
    return dict(zip(map(tuple, keys[at].tolist()), np.add.reduceat(values, at).tolist()))


def _law(ar, model, joint, cycle, sums, casc, freed, ways, entry) -> CascadeLaw:
    cascade_weights = {k: int(w) for k, w in enumerate(casc) if w}
    freed_weights = {}
    if ar.has_bonus:
        for r in range(freed.shape[0]):
            for e in range(freed.shape[1]):
                if freed[r, e]:
                    freed_weights[(r, ar.effect_names[e])] = int(freed[r, e])
    ways_weights = {n: int(w) for n, w in enumerate(ways) if w}
    entry_weights = {}
    for k, key in enumerate(ar.keys):
        for run in range(entry.shape[1]):
            if entry[k, run]:
                entry_weights[(key, run)] = int(entry[k, run])
    return CascadeLaw(joint, cycle, model.credits_per_bet, sums, cascade_weights,
                      tuple(int(v) for v in ar.values), freed_weights, ways_weights,
                      entry_weights, max(cascade_weights, default=0))


# -- random refill: memoised recursion in exact fractions ------------------------------------
def _random_law(game: Game, reel_set: str, ar: _Arrays, model: PayModel,
                keep_a: bool) -> CascadeLaw:
    tables = game.cascades.refill_weights[reel_set]
    sid = {n: i for i, n in enumerate(ar.names)}
    refill = [[(sid[s], w) for s, w in t.items() if w] for t in tables]
    refill_total = [sum(w for _, w in t) for t in refill]
    n_reels = len(ar.lengths)
    rows = [int(x) for x in ar.rows]
    n_ord = len(ar.ord_w)
    memo: dict = {}

    def step(cols, cnt, eff, mask, k):
        """Law of the rest of the chain from a window state: dict of (credits from here,
        A from here, trigger, cascades from here, first, later, scatter, freed, ways,
        entries) -> probability, kept as dict[tuple, Fraction] of the summary tuple."""
        state = (cols, cnt, eff, mask, k)
        if state in memo:
            return memo[state]
        if k > MAX_CASCADES:
            raise ValueError(f"{game.name}: a random-refill cascade chain runs past "
                             f"{MAX_CASCADES} drops: it never ends")
        if ar.has_bonus:
            for r in range(n_reels):
                if eff[r] >= 0:
                    continue
                scat = sum(int(ar.is_scatter[s]) for s in cols[r])
                if cnt[r] + scat < ar.threshold:
                    continue
                total = sum(int(ar.ord_w[o]) for o in mask)
                out: dict = defaultdict(Fraction)
                for e in sorted({int(ar.ord_eff[o, r]) for o in mask}):
                    sub = tuple(o for o in mask if ar.ord_eff[o, r] == e)
                    p = Fraction(sum(int(ar.ord_w[o]) for o in sub), total)
                    neweff = eff[:r] + (e,) + eff[r + 1:]
                    for key, q in step(cols, cnt, neweff, sub, k).items():
                        out[key] += p * q
                memo[state] = dict(out)
                return memo[state]
        a = np.array([list(c) + [0] * (max(rows) - len(c)) for c in cols], np.int64)
        removed = np.zeros_like(a)
        drop_entry = np.zeros_like(ar.key_credits)
        d = int(_drop(a, ar.rows, np.array(eff, np.int64), ar.eff_wild, ar.eff_split,
                      ar.member, ar.key_credits, ar.mult_sym, ar.is_scatter, ar.ways,
                      ar.paylines, removed, drop_entry, np.zeros_like(a), np.zeros_like(a),
                      ar.sym_bits, 1))
        if d == 0:
            trig, scat = 0, 0
            for i, s in enumerate(ar.scatter_ids):
                if s < 0:
                    continue
                n = sum(c.count(int(s)) for c in cols)
                scat += int(ar.scatter_credits[i, n])
                if s == ar.trigger:
                    trig = n
            n_w = 1
            for r in range(n_reels):
                n_w *= rows[r] * (int(ar.eff_split[eff[r]]) if eff[r] >= 0 else 1)
            freed = tuple((r, eff[r]) for r in range(n_reels) if eff[r] >= 0)
            memo[state] = {(scat, 0, trig, 0, 0, 0, scat, freed, n_w, ()): Fraction(1)}
            return memo[state]
        m = int(ar.values[k]) * ar.spin_mult
        entries = tuple((kk, run, m * int(drop_entry[kk, run]))
                        for kk, run in zip(*np.nonzero(drop_entry)))
        survivors, gaps, newcnt = [], [], []
        for r in range(n_reels):
            keep = tuple(cols[r][y] for y in range(rows[r]) if not removed[r, y])
            survivors.append(keep)
            gaps.append(rows[r] - len(keep))
            n_rem = rows[r] - len(keep)
            newcnt.append(cnt[r] + n_rem if ar.accumulate else n_rem)
        newcnt = tuple(newcnt)
        out = defaultdict(Fraction)
        per_reel = [list(product(refill[r], repeat=gaps[r])) for r in range(n_reels)]
        for draw in product(*per_reel):
            p = Fraction(1)
            newcols = []
            for r in range(n_reels):
                for _, w in draw[r]:
                    p *= Fraction(w, refill_total[r])
                newcols.append(tuple(s for s, _ in draw[r]) + survivors[r])
            for key, q in step(tuple(newcols), newcnt, eff, mask, k + 1).items():
                c, aa, t, casc, first, later, scat, freed, n_w, ent = key
                first_add, later_add = (m * d, 0) if k == 0 else (0, m * d)
                key2 = (c + m * d, aa + d, t, casc + 1, first + first_add, later + later_add,
                        scat, freed, n_w, _add_entries(ent, entries))
                out[key2] += p * q
        memo[state] = dict(out)
        return memo[state]

    total: dict = defaultdict(Fraction)
    weights_total = 1
    for r in range(n_reels):
        weights_total *= int(ar.stop_weights[r, : ar.lengths[r]].sum())
    for stops in product(*[range(int(L)) for L in ar.lengths]):
        sw = 1
        for r, s in enumerate(stops):
            sw *= int(ar.stop_weights[r, s])
        if sw == 0:
            continue
        cols = tuple(tuple(int(ar.strips[r, (s + y) % ar.lengths[r]]) for y in range(rows[r]))
                     for r, s in enumerate(stops))
        start = step(cols, (0,) * n_reels, (-1,) * n_reels, tuple(range(n_ord)), 0)
        for key, q in start.items():
            total[key] += Fraction(sw, weights_total) * q
    # to integer weights over a common denominator
    den = math.lcm(*(q.denominator for q in total.values()))
    joint: dict = defaultdict(int)
    casc = np.zeros(MAX_CASCADES + 1, dtype=object)
    freed = np.zeros((n_reels, len(ar.eff_split)), dtype=object)
    max_w = int(np.prod(ar.rows)) * int(max(1, ar.eff_split.max())) ** n_reels
    ways = np.zeros(max_w + 1, dtype=object)
    entry = np.zeros(ar.key_credits.shape, dtype=object)
    sums = [0, 0, 0]
    for (c, aa, t, k, first, later, scat, fr, n_w, ent), q in total.items():
        w = int(q * den)
        joint[(c, aa if keep_a else 0, t, k)] += w
        casc[k] += w
        for r, e in fr:
            freed[r, e] += w
        ways[n_w] += w
        for kk, run, v in ent:
            entry[kk, run] += w * v
        sums[0] += w * first
        sums[1] += w * later
        sums[2] += w * scat
    return _law(ar, model, dict(joint), den, tuple(sums), casc, freed, ways, entry)


def _add_entries(a: tuple, b: tuple) -> tuple:
    acc: dict = defaultdict(int)
    for kk, run, v in a + b:
        acc[(int(kk), int(run))] += v
    return tuple(sorted((kk, run, v) for (kk, run), v in acc.items()))
