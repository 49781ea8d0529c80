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

With ``cascades.scatters = "every_fall"`` each drop also counts the scatters of its window
(:func:`_fall_scatters`): a count that pays or awards spins on this spin wins, pays (times the
drop's multiplier with ``scatter_multiplied``), is removed with the line/ways winners and
keeps the chain going; the spin's trigger count is the highest winning count of the trigger
symbol, and nothing is read from the final window. A block of stop combinations that wins no
first drop is then settled at once only for the scatter counts that do not win; its
combinations whose count wins are followed.

The result, :class:`CascadeLaw`, is the joint law of (credits, A, trigger count, cascades):
``credits`` is the spin's whole win with the multiplier rule started at index 0 (scatter pays
included), ``A`` the sum of its drop wins before any multiplier (kept only for free spins that
carry the multiplier: a spin started at index ``i`` then pays ``credits + step*i*A`` times the
free-spin multiplier's part, as the rule is linear). Beside it, exact sums for the components
(first drop, later drops, scatter), per pay-table entry, the cascade-count and final-multiplier
laws, each reel's freeing by effect and the ways in play.

The kernel
----------
Every piece reads the game as compiled once, a :class:`~slotmath.evaluate.compiled.CompiledGame`:

* the **drop evaluator**: :func:`_effective` (the freed reels' effects applied), then one lines
  evaluator (:func:`_drop_lines`) or one ways evaluator (:func:`_drop_ways`): what the window
  pays and which positions it removes, both walking the bit sets of the pay-table entries
  each symbol belongs to. The random-refill recursion calls the same (:func:`_window_drop`);
* the **refill strategies**: the strip (:func:`_refill_strip`) in the kernel, the per-reel
  weight tables in the recursion (:func:`_random_law`); and the frozen bonus symbols' freeing
  (:func:`_free_reels`), which branches a chain over the effects still possible;
* the **chain**: :func:`_combinations` follows each stop combination's chain (its drops, its
  branches on a stack) to its leaves (:func:`_scatters`, :func:`_leaf`); :func:`_run` drives
  it over the stop combinations and settles the winless blocks at once.

Speed. :func:`_combinations` is the one compiled loop: the pieces are inlined into it
(``inline="always"``), take arrays and scalars (it reads each tuple field once) and it calls
nothing else (the sparse table is filled by :func:`_run` from a buffer). In numba a function
that calls another keeps the reference counts of its arrays, and a tuple field read in a loop
is counted on every read: atomic operations, which took ~60% of the old kernel's time
(profiled). The game's ``ways`` is a compile-time constant of :func:`_run` (``literally``):
the lines and the ways versions each compile without the other's evaluator (with both, a
drop's arrays were counted on every drop).

Memory. The joint table is a :class:`WeightTable`: its keys as an int64 array (one row per
key, sorted) and their weights, 40 bytes a row where a dict of tuples took ~250 (Frozen Gems'
free-spin table has 1.4 M rows). The chunks' tables are merged as they come back
(:class:`_Rows`), and after each chunk the final table is estimated and refused, with the
estimate, when it would not fit in the memory available (:func:`memory_limit`,
``SLOTMATH_MEMORY_LIMIT``): :class:`TableTooLarge`, a ``ValueError`` the CLI prints in one line.

Winless blocks: when no pay-table entry runs through the first reels of a block of stop
combinations on any line (lines) or at all (ways), none of them wins a first drop, so each
ends at once on its scatters; a game with at most one scatter symbol settles such a block
from the tail reels' scatter-count law (:func:`_settle_block`) instead of visiting it. With
every-fall scatters a first fall can also be won by its scatters: the block's counts that do
not win are settled so, and its combinations whose count wins are visited (the others skipped).

Shared tails (ways games whose every pay-table entry pays at every run from the prefix's length
on, such as Frozen Gems; :func:`_fast_ok`): an entry that runs through the prefix reels then
pays whatever the tail shows, so each drop removes, on the prefix reels, the positions of the
entries through them, and the chain goes on exactly while one entry runs through the prefix.
The prefix's windows, entries and ways drop by drop (hence the chain's length) are the same for
the whole block: they are followed once (:func:`_prefix_tree`, one branch per effect a freed
prefix reel may take, each with its placements still possible), each middle tail reel's windows
once per stop below each branch (:func:`_tail_level`, branching again where that reel is
freed), and the last reel's stops are looped inside (:func:`_fast_last`, which branches where
the last reel is freed). A branch's leaves are those of :func:`_combinations` for the same
choices of effects: the prefix's drops do not depend on the tail's effects, and the
placements still possible at a leaf are the same whatever order the reels were freed in.
Profiled on Frozen Gems (cf. the baseline, per stop combination): about two in three
combinations lie in winless blocks; every other one wins its first drop and follows a chain
(66.4% of paid spins end at once, 25.2% after one cascade); about 2.5% of the visited blocks
(0.9% of all) free a prefix reel, and in the free reels their chains (a freed bonus wild: up to
61 drops, 10-24 branches) took nearly all the generic chain's time. The path's kernels inline no function that takes arrays: in numba each
such call in a loop counted the arrays' references (atomic operations) at every drop, five times
the path's whole cost.
"""

from __future__ import annotations

import math
import os
from collections import defaultdict
from collections.abc import Callable, ItemsView, Iterator, Mapping, ValuesView
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from itertools import product
from typing import NamedTuple

import numpy as np
from numba import literally, njit, types
from numba.typed import Dict

from slotmath.evaluate.compiled import ENTRY_BITS, CompiledGame, compile_game
from slotmath.evaluate.window import PayModel
from slotmath.exact.spin_table import _row_codes
from slotmath.exact.workers import default_workers, map_parts
from slotmath.model.game import Game

__all__ = ["MAX_CASCADES", "CascadeLaw", "LawRequest", "TableTooLarge", "WeightTable",
           "cascade_law", "cascade_laws", "memory_limit"]

_KEY = types.UniTuple(types.int64, 4)

#: Longest cascade chain followed; a longer one is an error (a chain that never ends).
MAX_CASCADES = 250
#: The index of a single set bit ``b`` (below 2**62) is ``_BIT_INDEX[((b * _DE_BRUIJN) >> 58)
#: & 63]``: a de Bruijn sequence's 6-bit windows are all distinct.
_DE_BRUIJN = 0x03F79D71B4CB0A89
_BIT_INDEX = np.zeros(64, np.int64)
for _bit in range(62):
    _BIT_INDEX[((1 << _bit) * _DE_BRUIJN % (1 << 64)) >> 58] = _bit
#: Sparse outcomes a combination run holds before the driver adds them to the table.
_PENDING = 1 << 12
#: Slots of the combiner in front of the sparse table (:func:`_flush`, a power of 2): 320 KB.
#: Frozen Gems' free reels flush ~46 million sparse outcomes into ~1.5 million keys; a typed
#: dict update (hash of a 4-tuple, probe) was most of their enumeration's time.
_COMBINE = 1 << 13
#: Credits below this are tallied in a dense table per trigger count (no hashing) where the
#: key is (credits, 0, trigger, 0): every outcome of a paid spin that starts no free spins.
_DENSE = 1 << 14


# -- the game, prepared ---------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class _Prepared:
    """The compiled game of one reel set, with what the law's Python side names."""

    game: CompiledGame
    keys: tuple[str, ...]  # pay-table entries
    effect_names: tuple[str, ...]
    min_trigger: int  # fewest trigger symbols that start free spins (window + 1: none)
    pruning: tuple  # (prefix, prefix_bits, scatter_count, tail_hist, fast): see _pruning
    scatter_names: tuple[str, ...] = ()
    reel_set: str = "base"


def _prepare(game: Game, reel_set: str, level: int, model: PayModel, free: bool,
             lean: bool) -> _Prepared:
    g = compile_game(game, reel_set, level, model=model, free=free)
    fs = game.free_spins
    window = sum(game.rows)
    min_trigger = (min(fs.awards) if fs is not None and not free else window + 1) if lean else 0
    effects = tuple(game.bonus_symbols.effects) if game.bonus_symbols is not None else ()
    return _Prepared(g, model.keys, effects, min_trigger, _pruning(g), tuple(game.scatters),
                     reel_set)


def _pruning(g: CompiledGame) -> tuple:
    """What lets the kernel settle a block of stop combinations at once: the prefix (the
    first reels a block shares; 0 turns it off), per reel, stop and unit (line, or the one
    ways unit) the bit set of the pay-table entries shown there, per reel and stop the
    scatter count, and the tail reels' law of the scatter count.

    A block whose prefix shows no entry running through every prefix reel on any unit wins
    no first drop when the prefix is no longer than any entry's shortest paying run. It is
    settled from the tail law when that is the whole story: at most one scatter symbol, at
    most 62 entries, and no reel window with enough scatters to free a bonus symbol (with
    every-fall scatters, only its combinations whose scatter count does not win)."""
    n_reels = len(g.lengths)
    n_keys = g.member.shape[0]
    min_run = [min([c for c in range(g.entry_credits.shape[1]) if g.entry_credits[k, c] > 0]
                   or [n_reels]) for k in range(n_keys)]
    prefix = min([3, n_reels - 1] + min_run)
    scatters = [int(x) for x in g.scatter_ids if x >= 0]
    R = int(g.rows.max())
    maxlen = g.strips.shape[1]
    units = 1 if g.ways else g.paylines.shape[0]
    prefix_bits = np.zeros((n_reels, maxlen, max(units, 1)), np.int64)
    count = np.zeros((n_reels, maxlen), np.int64)
    top_scatter = 0
    for r in range(n_reels):
        L, rows = int(g.lengths[r]), int(g.rows[r])
        at = (np.arange(L)[:, None] + np.arange(rows)[None, :]) % L
        window = g.strips[r, at]  # [stop, row]
        bits = g.entry_bits[window, 0]
        if g.ways:
            prefix_bits[r, :L, 0] = np.bitwise_or.reduce(bits, axis=1)
        elif units:
            prefix_bits[r, :L, :] = bits[:, g.paylines[:, r]]
        for s in scatters:
            count[r, :L] += (window == s).sum(axis=1)
        top_scatter = max(top_scatter, int(g.is_scatter[window].sum(axis=1).max()))
    ok = (len(scatters) <= 1 and g.entry_bits.shape[1] == 1 and prefix >= 1 and R > 0
          and units > 0 and not (g.has_bonus and top_scatter >= g.threshold))
    tail = np.zeros(int(g.rows.sum()) + 1, np.int64)
    tail[0] = 1
    for r in range(prefix, n_reels):
        nxt = np.zeros_like(tail)
        for st in range(int(g.lengths[r])):
            w = int(g.stop_weights[r, st])
            if w:
                nxt[count[r, st]:] += w * tail[: len(tail) - count[r, st]]
        tail = nxt
    prefix = prefix if ok else 0
    return (prefix, prefix_bits, count, tail, _fast_ok(g, prefix))


# -- the kernel's state -----------------------------------------------------------------------
# A chain's state: cols [reel, row] (the window), top [reel] (the strip index on the top row),
# count [reel] (positions removed so far: the freeing counter), effect [reel] (the freed
# effect, or -1), possible [ordering] (1 while that placement of the bonus symbols may be),
# acc (first-drop credits, later-drop credits, A, cascade index, and with every-fall scatters
# the scatter credits so far, the highest winning trigger count and from 6 on, per scatter
# and count, the falls it won and their credits) and entry [entry, run]
# (credits won by each pay-table entry); the stack of branches still to follow holds the same
# with a leading slot axis (s_cols, ...).


class _Chain(NamedTuple):
    """One chain's state; with a leading slot axis, the stack of branches still to follow."""

    cols: np.ndarray
    top: np.ndarray
    count: np.ndarray
    effect: np.ndarray
    possible: np.ndarray
    acc: np.ndarray
    entry: np.ndarray


class _Scratch(NamedTuple):
    """Work arrays of one drop: the effective window (sym), the ways each position counts
    (wgt), the positions removed, the entries shown (bits: a ways game's [reel, word], a lines
    game's [reel * max rows + row, word]), a reel's survivors."""

    sym: np.ndarray
    wgt: np.ndarray
    removed: np.ndarray
    bits: np.ndarray
    keep: np.ndarray


class _Tally(NamedTuple):
    """What a run adds up (integers over its stop combinations)."""

    dense: np.ndarray  # [trigger, credits < _DENSE]: weight of (credits, 0, trigger, 0)
    cascades: np.ndarray  # [cascades]
    freed: np.ndarray  # [reel, effect]
    ways: np.ndarray  # [ways in play]
    sums: np.ndarray  # weighted credits of the first drops, the later drops, the scatters
    entry: np.ndarray  # [entry, run]: weighted credits of the chains with a cascade
    error: np.ndarray  # [0] = 1: a chain too long, at stops [1:]
    pending: np.ndarray  # [i]: (credits, A, trigger, cascades, weight) for the sparse table
    n_pending: np.ndarray  # [0]: rows of pending in use
    combiner: np.ndarray  # [slot]: (credits, A, trigger, cascades, weight), weight 0: empty
    scatter_falls: np.ndarray  # every_fall, [2 * (scatter * (window + 1) + count) + j]: the
    #   weighted falls on which that count won (j = 0) and the credits they paid (j = 1)


@njit(cache=True)
def _new_state(g, pending_rows, combine_slots):
    """The chain, the stack of branches, the drop's scratch and the tallies of a run (room
    for ``pending_rows`` sparse outcomes between flushes, and then for every leaf of one more
    combination: at most one per placement of the bonus symbols, as the leaves' placements
    still possible are disjoint; a combiner of ``combine_slots`` slots, a power of 2)."""
    n_reels, R = g.strips.shape[0], g.rows.max()
    n_ord, n_eff = g.ordering_weight.shape[0], g.effect_split.shape[0]
    n_keys, n_runs = g.entry_credits.shape
    D = 4 * n_reels * n_eff + 4  # deepest stack: a branch per effect per reel, and slack
    # every_fall: a chain also counts its winning falls and their credits by scatter and count
    n_falls = 2 * g.scatter_credits.shape[0] * g.scatter_credits.shape[1] if g.every_fall else 0
    ch = _Chain(np.zeros((n_reels, R), np.int64), np.zeros(n_reels, np.int64),
                np.zeros(n_reels, np.int64), np.zeros(n_reels, np.int64),
                np.zeros(n_ord, np.int64), np.zeros(6 + n_falls, np.int64),
                np.zeros((n_keys, n_runs), np.int64))
    st = _Chain(np.zeros((D, n_reels, R), np.int64), np.zeros((D, n_reels), np.int64),
                np.zeros((D, n_reels), np.int64), np.zeros((D, n_reels), np.int64),
                np.zeros((D, n_ord), np.int64), np.zeros((D, 6 + n_falls), np.int64),
                np.zeros((D, n_keys, n_runs), np.int64))
    dr = _Scratch(np.zeros((n_reels, R), np.int64), np.zeros((n_reels, R), np.int64),
                  np.zeros((n_reels, R), np.int64),
                  np.zeros((n_reels * R, g.entry_bits.shape[1]), np.int64), np.zeros(R, np.int64))
    max_ways = 1
    for r in range(n_reels):
        max_ways *= g.rows[r] * max(1, g.effect_split.max())
    tl = _Tally(np.zeros((g.scatter_credits.shape[1], _DENSE), np.int64),
                np.zeros(MAX_CASCADES + 1, np.int64), np.zeros((n_reels, n_eff), np.int64),
                np.zeros(max_ways + 1, np.int64), np.zeros(3, np.int64),
                np.zeros((n_keys, n_runs), np.int64), np.zeros(n_reels + 1, np.int64),
                np.zeros((pending_rows + n_ord, 5), np.int64), np.zeros(1, np.int64),
                np.zeros((combine_slots, 5), np.int64), np.zeros(n_falls, np.int64))
    return ch, st, dr, tl


@njit(cache=True, inline="always")
def _start(stops, cols, top, count, effect, possible, acc, entry, n_ent, strips, lengths,
           rows):
    """The chain of the stops ``stops`` before its first drop."""
    for r in range(strips.shape[0]):
        top[r] = stops[r]
        for y in range(rows[r]):
            i = stops[r] + y
            while i >= lengths[r]:
                i -= lengths[r]
            cols[r, y] = strips[r, i]
        count[r] = 0
        effect[r] = -1
    for o in range(possible.shape[0]):
        possible[o] = 1
    for a in range(acc.shape[0]):
        acc[a] = 0
    for a in range(n_ent):
        for b in range(entry.shape[1]):
            entry[a, b] = 0


@njit(cache=True, inline="always")
def _save(cols, top, count, effect, possible, acc, entry, n_ent, s_cols, s_top, s_count,
          s_effect, s_possible, s_acc, s_entry, sp):
    """Copy the chain into slot ``sp`` of the stack, element by element (a slice would be a
    reference-counted array); ``n_ent``: the entry rows kept."""
    for r in range(cols.shape[0]):
        for y in range(cols.shape[1]):
            s_cols[sp, r, y] = cols[r, y]
        s_top[sp, r] = top[r]
        s_count[sp, r] = count[r]
        s_effect[sp, r] = effect[r]
    for o in range(possible.shape[0]):
        s_possible[sp, o] = possible[o]
    for a in range(acc.shape[0]):
        s_acc[sp, a] = acc[a]
    for a in range(n_ent):
        for b in range(entry.shape[1]):
            s_entry[sp, a, b] = entry[a, b]


@njit(cache=True, inline="always")
def _load(cols, top, count, effect, possible, acc, entry, n_ent, s_cols, s_top, s_count,
          s_effect, s_possible, s_acc, s_entry, sp):
    """Slot ``sp`` of the stack into the chain (see :func:`_save`)."""
    for r in range(cols.shape[0]):
        for y in range(cols.shape[1]):
            cols[r, y] = s_cols[sp, r, y]
        top[r] = s_top[sp, r]
        count[r] = s_count[sp, r]
        effect[r] = s_effect[sp, r]
    for o in range(possible.shape[0]):
        possible[o] = s_possible[sp, o]
    for a in range(acc.shape[0]):
        acc[a] = s_acc[sp, a]
    for a in range(n_ent):
        for b in range(entry.shape[1]):
            entry[a, b] = s_entry[sp, a, b]


# -- the drop evaluator ------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _effective(cols, effect, sym, wgt, removed, bits, rows, is_scatter, symbol_multiplier,
               effect_wild, effect_split, entry_bits, ways):
    """The window as it pays: freed reels' effects applied (a wild reel shows the wild, a
    split reel counts each position ``split`` times; scatters keep theirs) into ``sym`` and
    ``wgt`` (ways a position counts), ``removed`` cleared, and the entry bits: per reel in a
    ways game (``bits[reel, word]``), per position in a lines game
    (``bits[reel * max rows + row, word]``)."""
    R = cols.shape[1]
    for r in range(cols.shape[0]):
        e = effect[r]
        if e < 0:  # not freed: as it landed (wgt only for ways)
            for y in range(rows[r]):
                s = cols[r, y]
                sym[r, y] = s
                if ways:
                    wgt[r, y] = symbol_multiplier[s]
                removed[r, y] = 0
        else:
            for y in range(rows[r]):
                s = cols[r, y]
                f = 1
                if is_scatter[s] == 0:
                    if effect_wild[e] >= 0:
                        s = effect_wild[e]
                    f = effect_split[e]
                sym[r, y] = s
                wgt[r, y] = f * symbol_multiplier[s]
                removed[r, y] = 0
        for w in range(entry_bits.shape[1]):
            if ways:
                b = 0  # in a register: an |= into the array stalls on every position
                for y in range(rows[r]):
                    b |= entry_bits[sym[r, y], w]
                bits[r, w] = b
            else:
                for y in range(rows[r]):
                    bits[r * R + y, w] = entry_bits[sym[r, y], w]


@njit(cache=True, inline="always")
def _drop_ways(sym, wgt, bits, removed, entry, rows, member, entry_credits, entry_pays, m,
               entries):
    """Ways credits of the effective window (unmultiplied); marks the positions of every
    paying entry in ``removed``; with ``entries`` adds ``m`` x each entry's credits to
    ``entry[k, run]``.

    The entries still running after reel ``r`` are the AND of the reels' bit sets, so those
    whose run ends at ``r`` come from one pass over the reels; only those whose run pays
    (``entry_pays``) are counted position by position."""
    n_reels = sym.shape[0]
    total = 0
    for w in range(bits.shape[1]):
        alive = bits[0, w]
        for r in range(1, n_reels + 1):
            nxt = alive & bits[r, w] if r < n_reels else 0
            paying = alive & ~nxt & entry_pays[r, w]  # the entries whose run is r, and pays
            alive = nxt
            while paying != 0:
                low = paying & -paying
                paying ^= low
                k = w * ENTRY_BITS + _BIT_INDEX[((low * _DE_BRUIJN) >> 58) & 63]
                n_ways = 1
                for rr in range(r):
                    c = 0
                    for y in range(rows[rr]):
                        if member[k, sym[rr, y]]:
                            c += wgt[rr, y]
                    n_ways *= c
                credits = entry_credits[k, r] * n_ways
                total += credits
                if entries:
                    entry[k, r] += m * credits
                for rr in range(r):
                    for y in range(rows[rr]):
                        if member[k, sym[rr, y]]:
                            removed[rr, y] = 1
            if alive == 0:
                break
    return total


@njit(cache=True, inline="always")
def _drop_lines(sym, bits, removed, entry, paylines, line_positions, symbol_multiplier,
                entry_credits, entry_pays, m, entries, lines, n_lines, listed):
    """Line credits of the effective window (unmultiplied); marks each paying line's run in
    ``removed``; with ``entries`` adds ``m`` x each line's credits to ``entry[k, run]``.
    The lines are ``lines[:n_lines]`` when ``listed`` (only they can pay), else all
    ``n_lines``.

    A line pays its best entry: entry ``k``'s run is how far ``k`` stays in the AND of the bit
    sets of the positions along the line (``bits``, by ``line_positions``), its credits
    ``pay[k, run]`` x the run's multiplier symbols; among equal credits the entry listed
    first. Most lines share no entry past their first reels: a few loads each."""
    n_reels = paylines.shape[1]
    total = 0
    for i in range(n_lines):
        ln = lines[i] if listed else i
        best = 0
        best_k = -1
        best_run = 0
        for w in range(bits.shape[1]):
            alive = bits[line_positions[ln, 0], w]
            two = alive & bits[line_positions[ln, 1], w] if n_reels > 1 else 0
            if two == 0 and alive & entry_pays[1, w] == 0:
                continue  # most lines: no entry through two reels, none paying one
            r = 1
            while alive != 0:
                nxt = alive & bits[line_positions[ln, r], w] if r < n_reels else 0
                paying = alive & ~nxt & entry_pays[r, w]  # the entries whose run is r, and pays
                if paying != 0:
                    mult = 1
                    for rr in range(r):
                        mult *= symbol_multiplier[sym[rr, paylines[ln, rr]]]
                    while paying != 0:
                        low = paying & -paying
                        paying ^= low
                        k = w * ENTRY_BITS + _BIT_INDEX[((low * _DE_BRUIJN) >> 58) & 63]
                        credits = entry_credits[k, r] * mult
                        if credits > best or (credits == best and k < best_k):
                            best = credits
                            best_k = k
                            best_run = r
                alive = nxt
                r += 1
        if best > 0:
            total += best
            if entries:
                entry[best_k, best_run] += m * best
            for r in range(best_run):
                removed[r, paylines[ln, r]] = 1
    return total


@njit(cache=True)
def _drop(cols, effect, sym, wgt, removed, bits, entry, m, entries, rows, is_scatter,
          symbol_multiplier, effect_wild, effect_split, entry_bits, member, entry_credits,
          entry_pays, paylines, line_positions, ways):
    """What the window ``cols`` pays with the freed effects ``effect`` (unmultiplied) and the
    positions it removes (``removed``): :func:`_effective`, then :func:`_drop_ways` or
    :func:`_drop_lines` (``sym``, ``wgt``, ``bits``: scratch)."""
    _effective(cols, effect, sym, wgt, removed, bits, rows, is_scatter, symbol_multiplier,
               effect_wild, effect_split, entry_bits, ways)
    if ways:
        return _drop_ways(sym, wgt, bits, removed, entry, rows, member, entry_credits,
                          entry_pays, m, entries)
    return _drop_lines(sym, bits, removed, entry, paylines, line_positions, symbol_multiplier,
                       entry_credits, entry_pays, m, entries, line_positions[:, 0],
                       paylines.shape[0], False)


@njit(cache=True)
def _window_drop(g, cols, effect, m):
    """:func:`_drop` of one window, for the random-refill recursion: (credits, removed
    positions, credits by entry x ``m``)."""
    n_reels, R = cols.shape
    sym = np.zeros((n_reels, R), np.int64)
    wgt = np.zeros((n_reels, R), np.int64)
    removed = np.zeros((n_reels, R), np.int64)
    bits = np.zeros((n_reels * R, g.entry_bits.shape[1]), np.int64)
    entry = np.zeros(g.entry_credits.shape, np.int64)
    d = _drop(cols, effect, sym, wgt, removed, bits, entry, m, True, g.rows, g.is_scatter,
              g.symbol_multiplier, g.effect_wild, g.effect_split, g.entry_bits, g.member,
              g.entry_credits, g.entry_pays, g.paylines, g.line_positions, g.ways)
    return d, removed, entry


# -- refill strategies ------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _refill_strip(cols, top, count, removed, keep, strips, lengths, rows, accumulate):
    """Strip refill: each reel's survivors fall, the strip above the window fills the top (a
    reel whose top row showed strip index ``p`` and which lost ``n`` positions shows
    ``strip[p-n] ... strip[p-1]`` above them); the freeing counters count the removals
    (``keep``: scratch)."""
    for r in range(cols.shape[0]):
        n_keep = 0
        for y in range(rows[r]):
            if removed[r, y] == 0:
                keep[n_keep] = cols[r, y]
                n_keep += 1
        n_rem = rows[r] - n_keep
        if n_rem > 0:
            t = top[r] - n_rem
            while t < 0:
                t += lengths[r]
            top[r] = t
            for y in range(n_rem):
                i = t + y
                while i >= lengths[r]:
                    i -= lengths[r]
                cols[r, y] = strips[r, i]
            for y in range(n_keep):
                cols[r, n_rem + y] = keep[y]
        if accumulate:
            count[r] += n_rem
        else:
            count[r] = n_rem


@njit(cache=True, inline="always")
def _free_reels(cols, top, count, effect, possible, acc, entry, n_ent, s_cols, s_top, s_count,
                s_effect, s_possible, s_acc, s_entry, sp, rows, is_scatter, threshold,
                ordering_effect, n_effects):
    """Frozen bonus symbols: free every reel not yet freed whose counter plus the scatters now
    on it reaches ``threshold``. Its effect is one of those the placements still possible put
    above it: the chain goes on with the first, and each other is pushed on the stack as a
    branch of its own (the same state, that effect, the placements that put it there).
    Returns the new stack height."""
    n_ord = possible.shape[0]
    for r in range(cols.shape[0]):
        if effect[r] >= 0:
            continue
        n_sc = 0
        for y in range(rows[r]):
            n_sc += is_scatter[cols[r, y]]
        if count[r] + n_sc < threshold:
            continue
        chosen = -1
        for e in range(n_effects):
            present = False
            for o in range(n_ord):
                if possible[o] and ordering_effect[o, r] == e:
                    present = True
                    break
            if not present:
                continue
            if chosen < 0:
                chosen = e
                continue
            _save(cols, top, count, effect, possible, acc, entry, n_ent, s_cols, s_top, s_count,
                  s_effect, s_possible, s_acc, s_entry, sp)
            s_effect[sp, r] = e
            for o in range(n_ord):
                if ordering_effect[o, r] != e:
                    s_possible[sp, o] = 0
            sp += 1
        effect[r] = chosen
        for o in range(n_ord):
            if ordering_effect[o, r] != chosen:
                possible[o] = 0
    return sp


# -- the leaf ----------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _scatters(cols, rows, scatter_ids, scatter_credits, scatter_factor, trigger):
    """(credits of the scatters, count of the counted mark) of the window ``cols``."""
    trig = 0
    scat = 0
    for i in range(scatter_ids.shape[0]):
        sid = scatter_ids[i]
        if sid < 0:
            continue
        n = 0
        for r in range(cols.shape[0]):
            for y in range(rows[r]):
                if cols[r, y] == sid:
                    n += 1
        scat += scatter_credits[i, n]
        if sid == trigger:
            trig = n
    return scat * scatter_factor, trig


@njit(cache=True, inline="always")
def _fall_scatters(cols, removed, rows, scatter_ids, scatter_wins, scatter_credits, trigger,
                   acc, factor):
    """Every-fall scatters: each scatter symbol whose count on this fall wins
    (``scatter_wins``) has its positions marked in ``removed``, its credits (before any
    factor) are returned, the trigger's count raises ``acc[5]`` (the highest winning trigger
    count of the chain) and the count's falls and credits (x ``factor``) are counted from
    ``acc[6]`` on. Returns (credits, whether any scatter won)."""
    credits = 0
    won = False
    width = scatter_credits.shape[1]
    for i in range(scatter_ids.shape[0]):
        sid = scatter_ids[i]
        if sid < 0:
            continue
        n = 0
        for r in range(cols.shape[0]):
            for y in range(rows[r]):
                if cols[r, y] == sid:
                    n += 1
        if scatter_wins[i, n] == 0:
            continue
        won = True
        credits += scatter_credits[i, n]
        acc[6 + 2 * (i * width + n)] += 1
        acc[7 + 2 * (i * width + n)] += scatter_credits[i, n] * factor
        if sid == trigger and n > acc[5]:
            acc[5] = n
        for r in range(cols.shape[0]):
            for y in range(rows[r]):
                if cols[r, y] == sid:
                    removed[r, y] = 1
    return credits, won


@njit(cache=True)
def _add_sparse(table, credits, a, trig, k, w):
    """``table[(credits, a, trig, k)] += w`` (a settled block's outcome; the chains' go through
    :func:`_flush`)."""
    key = (credits, a, trig, k)
    table[key] = table.get(key, 0) + w


@njit(cache=True, inline="always")
def _leaf(w, scat, trig, acc, effect, entry, keep_a, entries, min_trigger, rows, effect_split,
          dense, cascades, freed, ways_hist, sums, entry_sum):
    """A chain's end, of weight ``w``, scatter credits ``scat`` and trigger count ``trig``,
    into the tallies: the cascade count, the sums, the reels freed, the ways in play, with a
    cascade the credits by entry, and the joint key (the cascade count only where the spin
    starts free spins, unless ``keep_a``) when it is dense. Returns whether it is not: the
    caller adds ``w`` to the sparse table at (credits, A, trigger, cascades)."""
    k = acc[3]
    credits = acc[0] + acc[1] + scat
    kk = k if (keep_a or trig >= min_trigger) else 0
    a = acc[2] if keep_a else 0
    sparse = not (kk == 0 and a == 0 and credits < _DENSE)
    # every array is used whatever the branch: a use under an if alone would keep numba's
    # reference counts on the parameters (see the note at the top of the kernel)
    dense[trig, 0 if sparse else credits] += 0 if sparse else w
    cascades[k] += w
    sums[0] += w * acc[0]
    sums[1] += w * acc[1]
    sums[2] += w * scat
    n_w = 1
    for r in range(effect.shape[0]):
        e = effect[r]
        if e >= 0:
            freed[r, e] += w
            n_w *= rows[r] * effect_split[e]
        else:
            n_w *= rows[r]
    ways_hist[n_w] += w
    for a in range(entry.shape[0] if (k > 0 and entries) else 0):
        for b in range(entry.shape[1]):
            entry_sum[a, b] += w * entry[a, b]
    return sparse


# -- the enumeration --------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _block_units(prefix_bits, stops, prefix, units):
    """The units (lines, or the ways) that show one pay-table entry on every prefix reel, into
    ``units``; returns how many (0: the block wins no first drop; the others cannot pay it)."""
    n = 0
    for u in range(prefix_bits.shape[2]):
        both = -1
        for r in range(prefix):
            both &= prefix_bits[r, stops[r], u]
        if both != 0:
            units[n] = u
            n += 1
    return n


@njit(cache=True)
def _settle_block(stops, prefix, scatter_count, tail_hist, stop_weights, scatter_credits,
                  scatter_factor, w_rest, base_ways, table, dense, cascades, ways_hist, sums,
                  every_fall, scatter_wins):
    """The block of stop combinations that share the prefix stops ``stops[:prefix]`` and win
    no first drop: each ends at once on its scatter count (the prefix's plus the tail's, by
    the tail law ``tail_hist``), the window as it landed; ``w_rest``: the weight of the bonus
    placements. With ``every_fall`` only the counts that do not win end there (paying and
    counting nothing); returns whether the block has combinations whose count wins (the
    caller follows those)."""
    swp = w_rest
    tp = 0
    for r in range(prefix):
        swp *= stop_weights[r, stops[r]]
        tp += scatter_count[r, stops[r]]
    if swp == 0:
        return False
    left = False
    for tt in range(tail_hist.shape[0]):
        if tail_hist[tt] == 0:
            continue
        if every_fall:
            w = swp * tail_hist[tt]
            if scatter_wins[0, tp + tt]:
                left = True
            else:
                dense[0, 0] += w
                cascades[0] += w
                ways_hist[base_ways] += w
            continue
        w = swp * tail_hist[tt]
        n = tp + tt
        scat = scatter_credits[0, n] * scatter_factor
        if scat < _DENSE:
            dense[n, scat] += w
        else:
            _add_sparse(table, scat, 0, n, 0, w)
        cascades[0] += w
        sums[2] += w * scat
        ways_hist[base_ways] += w
    return left


@njit(cache=True, inline="always")
def _next_stops(stops, lengths):
    """The odometer over reels 2..n, the last fastest."""
    r = lengths.shape[0] - 1
    stops[r] += 1
    while stops[r] == lengths[r] and r > 1:
        stops[r] = 0
        r -= 1
        stops[r] += 1


@njit(cache=True)
def _combinations(g, ch, st, dr, tl, stops, n, keep_a, entries, min_trigger, ways, units,
                  n_units, scatter_count, settled):
    """Follow the chains of ``n`` stop combinations, from ``stops`` on (the odometer goes on
    after each), every branch of each to its end, into the tallies ``tl``. Returns how many
    were done: fewer when the buffer of sparse outcomes fills up (the caller empties it and
    goes on) or a chain runs too long (``tl.error``). ``units[:n_units]``: the lines that can
    pay the first drop (:func:`_block_units`), the only ones it evaluates. ``settled``: the
    block's combinations whose scatter count (``scatter_count``) does not win were settled
    by :func:`_settle_block` (every_fall): they are skipped.

    The pieces are inlined: one compiled loop whose pieces' arrays are read once, here.
    ``ways`` (the game's) is a compile-time constant (see :func:`_run`)."""
    strips, lengths, stop_weights, rows = g.strips, g.lengths, g.stop_weights, g.rows
    is_scatter, symbol_multiplier, entry_bits = g.is_scatter, g.symbol_multiplier, g.entry_bits
    member, entry_credits, entry_pays = g.member, g.entry_credits, g.entry_pays
    paylines, line_positions = g.paylines, g.line_positions
    scatter_ids, scatter_credits = g.scatter_ids, g.scatter_credits
    scatter_factor, trigger = g.scatter_factor, g.trigger
    multiplier, spin_multiplier = g.multiplier, g.spin_multiplier
    has_bonus, threshold, accumulate = g.has_bonus, g.threshold, g.accumulate
    every_fall, scatter_wins, multiplied = g.every_fall, g.scatter_wins, g.scatter_multiplied
    effect_wild, effect_split = g.effect_wild, g.effect_split
    ordering_effect, ordering_weight = g.ordering_effect, g.ordering_weight
    cols, top, count, effect = ch.cols, ch.top, ch.count, ch.effect
    possible, acc, entry = ch.possible, ch.acc, ch.entry
    s_cols, s_top, s_count, s_effect = st.cols, st.top, st.count, st.effect
    s_possible, s_acc, s_entry = st.possible, st.acc, st.entry
    sym, wgt, removed, bits, keep = dr.sym, dr.wgt, dr.removed, dr.bits, dr.keep
    dense, cascades, freed, ways_hist = tl.dense, tl.cascades, tl.freed, tl.ways
    sums, entry_sum, pending, n_pending = tl.sums, tl.entry, tl.pending, tl.n_pending
    scatter_falls = tl.scatter_falls
    # Credits by entry: a chain that cannot branch (no bonus symbols) has its weight from the
    # start, so each drop adds weight x credits to the sums at once; a chain that can keeps
    # its own until its leaves (and copies them into its branches).
    direct = entries and not has_bonus
    chain_entries = entries and has_bonus
    n_ent = entry.shape[0] if chain_entries else 0  # the entry rows a chain keeps
    target = entry_sum if direct else entry
    placements = 0
    for o in range(ordering_weight.shape[0]):
        placements += ordering_weight[o]
    n_eff = effect_split.shape[0]
    n_lines = paylines.shape[0]
    limit = pending.shape[0] - ordering_weight.shape[0]  # room for one combination's leaves
    for i in range(n):
        if i > 0:
            _next_stops(stops, lengths)
        if n_pending[0] > limit:  # (a leaf per placement at most: see _new_state)
            return i
        sw = 1
        n_sc = 0
        for r in range(strips.shape[0]):
            sw *= stop_weights[r, stops[r]]
            n_sc += scatter_count[r, stops[r]]
        if sw == 0 or (settled and scatter_wins[0, n_sc] == 0):
            continue
        _start(stops, cols, top, count, effect, possible, acc, entry, n_ent, strips, lengths,
               rows)
        sp = 0
        while True:  # every branch of the chain
            while True:  # its drops
                if has_bonus:
                    sp = _free_reels(cols, top, count, effect, possible, acc, entry, n_ent,
                                     s_cols, s_top, s_count, s_effect, s_possible, s_acc,
                                     s_entry, sp, rows, is_scatter, threshold, ordering_effect,
                                     n_eff)
                k = acc[3]
                m = multiplier[k] * spin_multiplier
                m_entry = m * sw * placements if direct else m
                _effective(cols, effect, sym, wgt, removed, bits, rows, is_scatter,
                           symbol_multiplier, effect_wild, effect_split, entry_bits, ways)
                if ways:
                    d = _drop_ways(sym, wgt, bits, removed, target, rows, member, entry_credits,
                                   entry_pays, m_entry, entries)
                else:
                    d = _drop_lines(sym, bits, removed, target, paylines, line_positions,
                                    symbol_multiplier, entry_credits, entry_pays, m_entry,
                                    entries, units, n_units if k == 0 else n_lines, k == 0)
                won = False
                sc = 0
                if every_fall:
                    sc, won = _fall_scatters(
                        cols, removed, rows, scatter_ids, scatter_wins, scatter_credits, trigger,
                        acc, scatter_factor * (multiplier[k] if multiplied else 1))
                if d == 0 and not won:
                    break
                if k == 0:
                    acc[0] += m * d
                else:
                    acc[1] += m * d
                acc[2] += d
                if multiplied:  # the scatter pay at the fall's index: carried like a drop
                    acc[4] += sc * scatter_factor * multiplier[k]
                    acc[2] += sc if scatter_factor != 0 else 0
                else:
                    acc[4] += sc * scatter_factor
                acc[3] = k + 1
                _refill_strip(cols, top, count, removed, keep, strips, lengths, rows,
                              accumulate)
                if k + 1 > MAX_CASCADES:
                    tl.error[0] = 1
                    for r in range(strips.shape[0]):
                        tl.error[r + 1] = stops[r]
                    return i
            w = placements  # every placement is still possible until a reel is freed
            for r in range(strips.shape[0]):
                if effect[r] >= 0:
                    w = 0
                    for o in range(ordering_weight.shape[0]):
                        w += ordering_weight[o] * possible[o]
                    break
            w *= sw
            if every_fall:  # paid on the falls; the final window's do not win
                scat, trig = acc[4], acc[5]
            else:
                scat, trig = _scatters(cols, rows, scatter_ids, scatter_credits,
                                       scatter_factor, trigger)
            for j in range(scatter_falls.shape[0]):
                scatter_falls[j] += w * acc[6 + j]
            if _leaf(w, scat, trig, acc, effect, entry, keep_a, chain_entries, min_trigger, rows,
                     effect_split, dense, cascades, freed, ways_hist, sums, entry_sum):
                j = n_pending[0]
                pending[j, 0] = acc[0] + acc[1] + scat
                pending[j, 1] = acc[2] if keep_a else 0
                pending[j, 2] = trig
                pending[j, 3] = acc[3] if (keep_a or trig >= min_trigger) else 0
                pending[j, 4] = w
                n_pending[0] = j + 1
            if sp == 0:
                break
            sp -= 1
            _load(cols, top, count, effect, possible, acc, entry, n_ent, s_cols, s_top, s_count,
                  s_effect, s_possible, s_acc, s_entry, sp)
    return n


# -- the tail-sharing path (ways games) -------------------------------------------------------
# In a ways game whose every entry pays at every run from the prefix's length on (Frozen
# Gems), a chain's drops on the prefix reels do not depend on the tail reels: an entry shown
# through the prefix pays whatever the tail shows, so each drop removes, on each prefix reel,
# the positions of the entries through the prefix, and the chain wins as long as one entry
# runs through the prefix. So long as no reel is freed, the prefix's windows, its entries and
# their ways through it, drop by drop (and so the chain's length) are the block's
# (:func:`_prefix_chain`); each tail reel's windows then depend only on its own stop and on
# the entries running through the reels before it (:func:`_tail_level`, once per stop of a
# middle reel), and the last reel's stops are looped inside (:func:`_fast_last`). A chain that
# frees a reel (or runs too long) is handed to :func:`_combinations`: the whole block when a
# prefix reel is freed, the stop combination alone when a tail reel is.
def _fast_ok(g: CompiledGame, prefix: int) -> bool:
    """Whether the tail-sharing path applies: a ways game (one word of entries, no every-fall
    scatters) with a prefix (see :func:`_pruning`) and every entry paying at every run from
    the prefix's length on."""
    if not (g.ways and prefix > 0 and not g.every_fall and g.entry_bits.shape[1] == 1):
        return False
    n_reels = len(g.lengths)
    return bool((g.entry_credits[:, prefix:n_reels + 1] > 0).all()
                and (not g.has_bonus or (g.ordering_effect >= 0).all()))


@njit(cache=True, inline="always")
def _reel_start(r, stop, cols, top, cnt, strips, lengths, rows):
    top[0] = stop
    cnt[0] = 0
    for y in range(rows[r]):
        i = stop + y
        while i >= lengths[r]:
            i -= lengths[r]
        cols[y] = strips[r, i]


@njit(cache=True, inline="always")
def _freed_now(r, cols, cnt, rows, is_scatter, threshold):
    """Whether reel ``r`` (window ``cols``, counter ``cnt``) is freed (:func:`_free_reels`)."""
    n_sc = 0
    for y in range(rows[r]):
        n_sc += is_scatter[cols[y]]
    return cnt + n_sc >= threshold


@njit(cache=True, inline="always")
def _eff_symbol(s, e, is_scatter, effect_wild):
    """The symbol a position shows as it pays on a reel of effect ``e`` (-1: not freed)."""
    if e >= 0 and is_scatter[s] == 0 and effect_wild[e] >= 0:
        return effect_wild[e]
    return s


@njit(cache=True, inline="always")
def _eff_weight(s, e, is_scatter, effect_wild, effect_split, symbol_multiplier):
    """The ways a position counts on a reel of effect ``e`` (as :func:`_effective`)."""
    if e < 0 or is_scatter[s]:
        return symbol_multiplier[s]
    if effect_wild[e] >= 0:
        s = effect_wild[e]
    return effect_split[e] * symbol_multiplier[s]


@njit(cache=True)
def _prefix_tree(g, stops, prefix, fb, ps):
    """The prefix's part of the block of ``stops[:prefix]`` (level 0 of the branch arrays
    ``fb``), one branch per effect a freed prefix reel may take (as :func:`_free_reels`: the
    placements still possible carried along): per branch and drop the entries through the
    prefix, their ways through it, the drops that win, the scatters of the final windows, the
    placements still possible, the prefix reels' effects. Returns the branches, or -1 when
    they would be too many or a chain runs past ``MAX_CASCADES`` (the block then goes to
    :func:`_combinations`)."""
    alive, cw, part, sc, fail = fb[0], fb[1], fb[2], fb[3], fb[4]
    bw, bnw, beff, bnd, wst, nbj, bmask = fb[6], fb[7], fb[8], fb[9], fb[10], fb[12], fb[13]
    pcols, ptop, pcnt, peff, poss, s_cols, s_top, s_cnt, s_eff, s_poss, s_d, s_slot, keep = ps
    strips, lengths, rows = g.strips, g.lengths, g.rows
    entry_bits, member, symbol_multiplier = g.entry_bits, g.member, g.symbol_multiplier
    is_scatter, threshold, has_bonus = g.is_scatter, g.threshold, g.has_bonus
    effect_wild, effect_split = g.effect_wild, g.effect_split
    ordering_effect, ordering_weight = g.ordering_effect, g.ordering_weight
    n_ord, n_eff = ordering_weight.shape[0], effect_split.shape[0]
    n_branch = alive.shape[0]
    n_reels = strips.shape[0]
    wt = 1
    for r in range(prefix):
        wt *= g.stop_weights[r, stops[r]]
        _reel_start(r, stops[r], pcols[r], ptop[r:r + 1], pcnt[r:r + 1], strips, lengths, rows)
        peff[r] = -1
    for o in range(n_ord):
        poss[o] = 1
    wst[0] = wt
    fail[0] = 0
    nb = 1
    sp = 0
    slot = 0
    d = 0
    while True:  # every branch
        while True:  # its drops
            if has_bonus:
                for r in range(prefix):
                    if peff[r] >= 0 or not _freed_now(r, pcols[r], pcnt[r], rows, is_scatter,
                                                      threshold):
                        continue
                    chosen = -1
                    for e in range(n_eff):
                        present = False
                        for o in range(n_ord):
                            if poss[o] and ordering_effect[o, r] == e:
                                present = True
                                break
                        if not present:
                            continue
                        if chosen < 0:
                            chosen = e
                            continue
                        if nb >= n_branch:
                            return -1
                        for dd in range(d):
                            alive[nb, 0, dd] = alive[slot, 0, dd]
                            part[nb, 0, dd] = 0
                            for k in range(cw.shape[3]):
                                cw[nb, 0, dd, k] = cw[slot, 0, dd, k]
                        for rr in range(prefix):
                            for y in range(pcols.shape[1]):
                                s_cols[sp, rr, y] = pcols[rr, y]
                            s_top[sp, rr] = ptop[rr]
                            s_cnt[sp, rr] = pcnt[rr]
                            s_eff[sp, rr] = peff[rr]
                        s_eff[sp, r] = e
                        for o in range(n_ord):
                            s_poss[sp, o] = poss[o] if ordering_effect[o, r] == e else 0
                        s_d[sp] = d
                        s_slot[sp] = nb
                        nb += 1
                        sp += 1
                    peff[r] = chosen
                    for o in range(n_ord):
                        if ordering_effect[o, r] != chosen:
                            poss[o] = 0
            a = -1
            for r in range(prefix):
                b = 0
                for y in range(rows[r]):
                    b |= entry_bits[_eff_symbol(pcols[r, y], peff[r], is_scatter, effect_wild), 0]
                a &= b
            if a == 0:
                break
            if d >= MAX_CASCADES:
                return -1
            alive[slot, 0, d] = a
            part[slot, 0, d] = 0
            bb = a
            while bb != 0:
                low = bb & -bb
                bb ^= low
                k = _BIT_INDEX[((low * _DE_BRUIJN) >> 58) & 63]
                c = 1
                for r in range(prefix):
                    n = 0
                    for y in range(rows[r]):
                        s = pcols[r, y]
                        if member[k, _eff_symbol(s, peff[r], is_scatter, effect_wild)]:
                            n += _eff_weight(s, peff[r], is_scatter, effect_wild, effect_split,
                                             symbol_multiplier)
                    c *= n
                cw[slot, 0, d, k] = c
            for r in range(prefix):  # the drop on the prefix reels
                n_keep = 0
                for y in range(rows[r]):
                    s = pcols[r, y]
                    if entry_bits[_eff_symbol(s, peff[r], is_scatter, effect_wild), 0] & a == 0:
                        keep[n_keep] = s
                        n_keep += 1
                n_rem = rows[r] - n_keep
                if n_rem > 0:
                    t = ptop[r] - n_rem
                    while t < 0:
                        t += lengths[r]
                    ptop[r] = t
                    for y in range(n_rem):
                        i = t + y
                        while i >= lengths[r]:
                            i -= lengths[r]
                        pcols[r, y] = strips[r, i]
                    for y in range(n_keep):
                        pcols[r, n_rem + y] = keep[y]
                if g.accumulate:
                    pcnt[r] += n_rem
                else:
                    pcnt[r] = n_rem
            d += 1
        bnd[slot, 0] = d
        for i in range(g.scatter_ids.shape[0]):
            n = 0
            sid = g.scatter_ids[i]
            for r in range(prefix):
                for y in range(rows[r]):
                    if pcols[r, y] == sid:
                        n += 1
            sc[slot, 0, i] = n
        n_w = 1
        for r in range(n_reels):
            n_w *= rows[r]
            beff[slot, 0, r] = peff[r] if r < prefix else -1
            if r < prefix and peff[r] >= 0:
                n_w *= effect_split[peff[r]]
        for o in range(n_ord):
            bmask[slot, 0, o] = poss[o]
        bw[slot, 0] = _mask_weight(poss, ordering_weight)
        bnw[slot, 0] = n_w
        if sp == 0:
            break
        sp -= 1
        for rr in range(prefix):
            for y in range(pcols.shape[1]):
                pcols[rr, y] = s_cols[sp, rr, y]
            ptop[rr] = s_top[sp, rr]
            pcnt[rr] = s_cnt[sp, rr]
            peff[rr] = s_eff[sp, rr]
        for o in range(n_ord):
            poss[o] = s_poss[sp, o]
        d = s_d[sp]
        slot = s_slot[sp]
    nbj[0] = nb
    return nb


@njit(cache=True, inline="always")
def _mask_weight(mask, ordering_weight):
    """The weight of the placements still possible (every placement while no reel is freed:
    the mask is then all ones)."""
    w = 0
    for o in range(ordering_weight.shape[0]):
        w += ordering_weight[o] * mask[o]
    return w


@njit(cache=True)
def _tail_level(g, fb, ts, j, r, stop, keep, entries):
    """Level ``j``: every branch of the level before it (the reels up to ``r - 1``) followed
    by reel ``r`` at ``stop``, drop by drop over the branch's drops, branching again where
    reel ``r`` is freed (on the effects its placements still possible put above it): per
    branch the entries through reel ``r``, their ways, the unmultiplied credits of the entries
    whose run ends by ``r`` (``part``), with ``entries`` those ending at ``r`` (x the drop's
    multiplier) in ``ent``, the scatters of the final windows, the placements still possible
    and the effects; the stops' weight. ``fail[j]``: too many branches (the combinations below
    go to :func:`_combinations`)."""
    alive, cw, part, sc, fail, ent = fb[0], fb[1], fb[2], fb[3], fb[4], fb[5]
    bw, bnw, beff, bnd, wst, nbj, bmask = fb[6], fb[7], fb[8], fb[9], fb[10], fb[12], fb[13]
    cols, mask, s_cols, s_top, s_cnt, s_e, s_mask, s_d, s_slot = ts[0], ts[3], ts[4], ts[5], \
        ts[6], ts[7], ts[8], ts[9], ts[10]
    entry_bits, member, strips = g.entry_bits, g.member, g.strips
    entry_credits, rows, is_scatter = g.entry_credits, g.rows, g.is_scatter
    effect_split, has_bonus, threshold, accumulate = g.effect_split, g.has_bonus, g.threshold, \
        g.accumulate
    esym, ewgt = fb[14], fb[15]
    R, L = rows[r], g.lengths[r]
    ordering_effect, ordering_weight = g.ordering_effect, g.ordering_weight
    multiplier, spin_multiplier = g.multiplier, g.spin_multiplier
    n_ord, n_eff = ordering_weight.shape[0], effect_split.shape[0]
    n_branch = alive.shape[0]
    p = j - 1
    wst[j] = wst[p] * g.stop_weights[r, stop]
    fail[j] = fail[p]
    nbj[j] = 0
    if fail[j]:
        return
    nb = 0
    for pb in range(nbj[p]):
        nd = bnd[pb, p]
        if nb >= n_branch:
            fail[j] = 1
            return
        slot = nb  # the branch from drop 0: reel r not freed, the parent's placements
        nb += 1
        top_ = stop
        cnt_ = 0
        for y in range(R):
            i = stop + y
            while i >= L:
                i -= L
            cols[y] = strips[r, i]
        e = -1
        for o in range(n_ord):
            mask[o] = bmask[pb, p, o]
        d = 0
        for k in range(ent.shape[2]):
            for b in range(ent.shape[3]):
                ent[slot, j, k, b] = 0
        sp = 0
        while True:  # every branch on reel r
            while True:  # its drops
                n_sc = cnt_
                if has_bonus and e < 0:
                    for y in range(R):
                        n_sc += is_scatter[cols[y]]
                if has_bonus and e < 0 and n_sc >= threshold:
                    chosen = -1
                    for ee in range(n_eff):
                        present = False
                        for o in range(n_ord):
                            if mask[o] and ordering_effect[o, r] == ee:
                                present = True
                                break
                        if not present:
                            continue
                        if chosen < 0:
                            chosen = ee
                            continue
                        if nb >= n_branch:
                            fail[j] = 1
                            return
                        new = nb
                        nb += 1
                        for dd in range(d):
                            alive[new, j, dd] = alive[slot, j, dd]
                            part[new, j, dd] = part[slot, j, dd]
                            for k in range(cw.shape[3]):
                                cw[new, j, dd, k] = cw[slot, j, dd, k]
                        for k in range(ent.shape[2]):
                            for b in range(ent.shape[3]):
                                ent[new, j, k, b] = ent[slot, j, k, b]
                        for y in range(R):
                            s_cols[sp, y] = cols[y]
                        s_top[sp] = top_
                        s_cnt[sp] = cnt_
                        s_e[sp] = ee
                        for o in range(n_ord):
                            s_mask[sp, o] = mask[o] if ordering_effect[o, r] == ee else 0
                        s_d[sp] = d
                        s_slot[sp] = new
                        sp += 1
                    e = chosen
                    for o in range(n_ord):
                        if ordering_effect[o, r] != chosen:
                            mask[o] = 0
                if d >= nd:
                    break
                ap = alive[pb, p, d]
                b = 0
                for y in range(R):
                    b |= entry_bits[esym[e + 1, cols[y]], 0]
                a = ap & b
                alive[slot, j, d] = a
                m = multiplier[d] * spin_multiplier
                pt = part[pb, p, d]
                ended = ap & ~a
                while ended != 0:
                    low = ended & -ended
                    ended ^= low
                    k = _BIT_INDEX[((low * _DE_BRUIJN) >> 58) & 63]
                    cr = entry_credits[k, r] * cw[pb, p, d, k]
                    pt += cr
                    if entries:
                        ent[slot, j, k, r] += m * cr
                part[slot, j, d] = pt
                bb = a
                while bb != 0:
                    low = bb & -bb
                    bb ^= low
                    k = _BIT_INDEX[((low * _DE_BRUIJN) >> 58) & 63]
                    n = 0
                    for y in range(R):
                        s = cols[y]
                        if member[k, esym[e + 1, s]]:
                            n += ewgt[e + 1, s]
                    cw[slot, j, d, k] = cw[pb, p, d, k] * n
                n_keep = 0  # the drop on reel r (as _refill_strip)
                for y in range(R):
                    if entry_bits[esym[e + 1, cols[y]], 0] & a == 0:
                        keep[n_keep] = cols[y]
                        n_keep += 1
                n_rem = R - n_keep
                if n_rem > 0:
                    t = top_ - n_rem
                    while t < 0:
                        t += L
                    top_ = t
                    for y in range(n_rem):
                        i = t + y
                        while i >= L:
                            i -= L
                        cols[y] = strips[r, i]
                    for y in range(n_keep):
                        cols[n_rem + y] = keep[y]
                cnt_ = cnt_ + n_rem if accumulate else n_rem
                d += 1
            bnd[slot, j] = nd  # the branch's end
            for i in range(g.scatter_ids.shape[0]):
                n = 0
                for y in range(R):
                    if cols[y] == g.scatter_ids[i]:
                        n += 1
                sc[slot, j, i] = sc[pb, p, i] + n
            for rr in range(beff.shape[2]):
                beff[slot, j, rr] = beff[pb, p, rr]
            beff[slot, j, r] = e
            for o in range(n_ord):
                bmask[slot, j, o] = mask[o]
            bw[slot, j] = _mask_weight(mask, ordering_weight)
            bnw[slot, j] = bnw[pb, p] * (effect_split[e] if e >= 0 else 1)
            if sp == 0:
                break
            sp -= 1
            for y in range(R):
                cols[y] = s_cols[sp, y]
            top_ = s_top[sp]
            cnt_ = s_cnt[sp]
            e = s_e[sp]
            for o in range(n_ord):
                mask[o] = s_mask[sp, o]
            d = s_d[sp]
            slot = s_slot[sp]
    nbj[j] = nb


@njit(cache=True)
def _fast_last(g, tl, fb, fs, s0, p, keep_a, entries, min_trigger):
    """The last reel's stops from ``s0`` on below level ``p`` (the reels before it), each
    combination's chain to its end on every branch of the level, branching again where the
    last reel is freed, into the tallies. Returns the stop it stopped at, with ``out[0]``: 0
    all done, 1 the sparse buffer is full (flush and call again from there), 2 the level has
    too many branches (follow the combination by :func:`_combinations`, then call again from
    the next stop); ``wfast[0]`` adds the stop weights of the combinations settled here."""
    alive, cw, part, sc, fail = fb[0], fb[1], fb[2], fb[3], fb[4]
    bw, bnw, beff, bnd, wst, nbj, bmask = fb[6], fb[7], fb[8], fb[9], fb[10], fb[12], fb[13]
    out, wfast, cols, keep, f_cols, acc, f_state = fs[0], fs[1], fs[2], fs[5], fs[6], fs[7], \
        fs[8]
    strips, lengths, rows, stop_weights = g.strips, g.lengths, g.rows, g.stop_weights
    entry_bits, member = g.entry_bits, g.member
    entry_credits, multiplier, spin_multiplier = g.entry_credits, g.multiplier, g.spin_multiplier
    is_scatter, threshold, has_bonus = g.is_scatter, g.threshold, g.has_bonus
    effect_split, accumulate = g.effect_split, g.accumulate
    ordering_effect, ordering_weight = g.ordering_effect, g.ordering_weight
    scatter_ids, scatter_credits = g.scatter_ids, g.scatter_credits
    scatter_factor, trigger = g.scatter_factor, g.trigger
    dense, cascades, ways_hist, sums, freed = tl.dense, tl.cascades, tl.ways, tl.sums, tl.freed
    entry_sum, pending, n_pending = tl.entry, tl.pending, tl.n_pending
    n_ord, n_eff = ordering_weight.shape[0], effect_split.shape[0]
    r = strips.shape[0] - 1
    R, L = rows[r], lengths[r]
    esym, ewgt = fb[14], fb[15]
    limit = pending.shape[0] - n_ord
    out[0] = 0
    for s in range(s0, lengths[r]):
        sw = wst[p] * stop_weights[r, s]
        if sw == 0:
            continue
        if fail[p]:
            out[0] = 2
            return s
        if n_pending[0] > limit:
            out[0] = 1
            return s
        for br in range(nbj[p]):
            nd = bnd[br, p]
            w = bw[br, p] * sw
            top_ = s  # the last reel's window, its top strip index and freeing counter
            cnt_ = 0
            for y in range(R):
                i = s + y
                while i >= L:
                    i -= L
                cols[y] = strips[r, i]
            acc[0] = 0
            acc[1] = 0
            acc[2] = 0
            e = -1
            d = 0
            f_d = 0
            while True:  # the branch, then (if the last reel is freed) one per effect
                freeing = False
                while True:  # the drops
                    if has_bonus and e < 0:
                        n_sc = cnt_
                        for y in range(R):
                            n_sc += is_scatter[cols[y]]
                        if n_sc >= threshold:
                            freeing = True
                            break
                    if d >= nd:
                        break
                    ap = alive[br, p, d]
                    b = 0
                    for y in range(R):
                        b |= entry_bits[esym[e + 1, cols[y]], 0]
                    a = ap & b
                    m = multiplier[d] * spin_multiplier
                    dd = part[br, p, d]
                    ended = ap & ~a
                    while ended != 0:
                        low = ended & -ended
                        ended ^= low
                        k = _BIT_INDEX[((low * _DE_BRUIJN) >> 58) & 63]
                        cr = entry_credits[k, r] * cw[br, p, d, k]
                        dd += cr
                        if entries:
                            entry_sum[k, r] += w * m * cr
                    bb = a
                    while bb != 0:
                        low = bb & -bb
                        bb ^= low
                        k = _BIT_INDEX[((low * _DE_BRUIJN) >> 58) & 63]
                        n = 0
                        for y in range(R):
                            sy = cols[y]
                            if member[k, esym[e + 1, sy]]:
                                n += ewgt[e + 1, sy]
                        cr = entry_credits[k, r + 1] * cw[br, p, d, k] * n
                        dd += cr
                        if entries:
                            entry_sum[k, r + 1] += w * m * cr
                    if d == 0:
                        acc[0] += m * dd
                    else:
                        acc[1] += m * dd
                    acc[2] += dd
                    n_keep = 0  # the drop on the last reel (as _refill_strip)
                    for y in range(R):
                        if entry_bits[esym[e + 1, cols[y]], 0] & a == 0:
                            keep[n_keep] = cols[y]
                            n_keep += 1
                    n_rem = R - n_keep
                    if n_rem > 0:
                        t = top_ - n_rem
                        while t < 0:
                            t += L
                        top_ = t
                        for y in range(n_rem):
                            i = t + y
                            while i >= L:
                                i -= L
                            cols[y] = strips[r, i]
                        for y in range(n_keep):
                            cols[n_rem + y] = keep[y]
                    cnt_ = cnt_ + n_rem if accumulate else n_rem
                    d += 1
                if freeing:  # the last reel is freed at drop d: its state kept for each effect
                    for y in range(R):
                        f_cols[y] = cols[y]
                    f_state[0], f_state[1] = top_, cnt_
                    f_state[2], f_state[3], f_state[4] = acc[0], acc[1], acc[2]
                    f_d = d
                else:
                    scat = 0  # the chain's end (as _leaf)
                    trig = 0
                    for i in range(scatter_ids.shape[0]):
                        sid = scatter_ids[i]
                        if sid < 0:
                            continue
                        n = sc[br, p, i]
                        for y in range(R):
                            if cols[y] == sid:
                                n += 1
                        scat += scatter_credits[i, n]
                        if sid == trigger:
                            trig = n
                    scat *= scatter_factor
                    credits = acc[0] + acc[1] + scat
                    kk = nd if (keep_a or trig >= min_trigger) else 0
                    av = acc[2] if keep_a else 0
                    if kk == 0 and av == 0 and credits < _DENSE:
                        dense[trig, credits] += w
                    else:
                        j = n_pending[0]
                        pending[j, 0] = credits
                        pending[j, 1] = av
                        pending[j, 2] = trig
                        pending[j, 3] = kk
                        pending[j, 4] = w
                        n_pending[0] = j + 1
                    cascades[nd] += w
                    sums[0] += w * acc[0]
                    sums[1] += w * acc[1]
                    sums[2] += w * scat
                    ways_hist[bnw[br, p] * (effect_split[e] if e >= 0 else 1)] += w
                    for rr in range(r):
                        if beff[br, p, rr] >= 0:
                            freed[rr, beff[br, p, rr]] += w
                    if e >= 0:
                        freed[r, e] += w
                    if e < 0:
                        break
                # the next effect the branch's placements put above the last reel
                ee = e + 1
                we = 0
                while ee < n_eff:
                    present = False
                    we = 0
                    for o in range(n_ord):
                        if bmask[br, p, o] and ordering_effect[o, r] == ee:
                            present = True
                            we += ordering_weight[o]
                    if present:
                        break
                    ee += 1
                if ee >= n_eff:
                    break
                e = ee
                w = we * sw
                for y in range(R):
                    cols[y] = f_cols[y]
                top_, cnt_ = f_state[0], f_state[1]
                acc[0], acc[1], acc[2] = f_state[2], f_state[3], f_state[4]
                d = f_d
        wfast[0] += sw
    return lengths[r]


@njit(cache=True)
def _fast_block(g, ch, st, dr, tl, table, stops, prefix, fb, ts, fs, keep_a, entries,
                min_trigger, ways, units, scatter_count):
    """The block of ``stops[:prefix]`` whose prefix tree (:func:`_prefix_tree`, level 0 of the
    branch arrays ``fb``) is known: the middle tail reels' stops by the odometer
    (:func:`_tail_level` for each level that changes), the last reel's inside
    (:func:`_fast_last`); the combinations under a level with too many branches by
    :func:`_combinations`. The credits by entry whose run ends on a middle reel are added per
    middle level, times the weight settled below it."""
    ent, bw, wsum, nbj = fb[5], fb[6], fb[11], fb[12]
    out, wfast, keep = fs[0], fs[1], fs[5]
    lengths = g.lengths
    n_reels = lengths.shape[0]
    T = n_reels - prefix
    limit = tl.pending.shape[0] - g.ordering_weight.shape[0]
    for r in range(prefix, n_reels):
        stops[r] = 0
    for j in range(1, T):
        wsum[j] = 0
        _tail_level(g, fb, ts, j, prefix + j - 1, 0, keep, entries)
    wfast[0] = 0
    while True:
        s = 0
        while True:
            s = _fast_last(g, tl, fb, fs, s, T - 1, keep_a, entries, min_trigger)
            if out[0] == 0:
                break
            if tl.n_pending[0] > limit:
                _flush(table, tl.pending, tl.n_pending, tl.combiner)
            if out[0] == 2:  # too many branches: this combination's whole chain
                stops[n_reels - 1] = s
                _combinations(g, ch, st, dr, tl, stops, 1, keep_a, entries, min_trigger, ways,
                              units, 1, scatter_count, False)
                if tl.error[0]:
                    return
                s += 1
        for j in range(1, T):
            wsum[j] += wfast[0]
        wfast[0] = 0
        r = n_reels - 2  # the middle reels' odometer
        while r >= prefix:
            stops[r] += 1
            if stops[r] < lengths[r]:
                break
            stops[r] = 0
            r -= 1
        for j in range(max(r, prefix) - prefix + 1, T):  # the levels that change
            if entries and wsum[j] != 0:
                for br in range(nbj[j]):
                    for k in range(ent.shape[2]):
                        for b in range(ent.shape[3]):
                            tl.entry[k, b] += wsum[j] * bw[br, j] * ent[br, j, k, b]
            wsum[j] = 0
        if r < prefix:
            return
        for j in range(r - prefix + 1, T):
            _tail_level(g, fb, ts, j, prefix + j - 1, stops[prefix + j - 1], keep, entries)


@njit(cache=True)
def _fast_arrays(g, prefix, entries):
    """The arrays of the tail-sharing path: per branch (at most one per placement, 64 at
    most), level (the prefix, then each middle reel) and drop (``fb``); the prefix tree's
    state and stack (``ps``), a tail level's (``ts``); the last reel's scratch (``fs``)."""
    n_reels, R = g.strips.shape[0], g.rows.max()
    T = max(n_reels - prefix, 1)
    P = max(prefix, 1)
    n_keys, n_runs = g.entry_credits.shape
    n_ord = g.ordering_weight.shape[0]
    NB = min(n_ord, 64)
    # the symbol as it pays and the ways it counts, by effect (row 0: not freed)
    n_sym = g.is_scatter.shape[0]
    n_eff = g.effect_split.shape[0]
    esym = np.zeros((n_eff + 1, n_sym), np.int64)
    ewgt = np.zeros((n_eff + 1, n_sym), np.int64)
    for e in range(-1, n_eff):
        for x in range(n_sym):
            esym[e + 1, x] = _eff_symbol(x, e, g.is_scatter, g.effect_wild)
            ewgt[e + 1, x] = _eff_weight(x, e, g.is_scatter, g.effect_wild, g.effect_split,
                                         g.symbol_multiplier)
    fb = (np.zeros((NB, T, MAX_CASCADES), np.int64),
          np.zeros((NB, T, MAX_CASCADES, n_keys), np.int64),
          np.zeros((NB, T, MAX_CASCADES), np.int64),
          np.zeros((NB, T, g.scatter_ids.shape[0]), np.int64), np.zeros(T, np.int64),
          np.zeros((NB, T, n_keys if entries else 1, n_runs if entries else 1), np.int64),
          np.zeros((NB, T), np.int64), np.zeros((NB, T), np.int64),
          np.zeros((NB, T, n_reels), np.int64), np.zeros((NB, T), np.int64),
          np.zeros(T, np.int64), np.zeros(T, np.int64), np.zeros(T, np.int64),
          np.zeros((NB, T, n_ord), np.int64), esym, ewgt)
    ps = (np.zeros((P, R), np.int64), np.zeros(P, np.int64), np.zeros(P, np.int64),
          np.zeros(P, np.int64), np.zeros(n_ord, np.int64), np.zeros((NB, P, R), np.int64),
          np.zeros((NB, P), np.int64), np.zeros((NB, P), np.int64), np.zeros((NB, P), np.int64),
          np.zeros((NB, n_ord), np.int64), np.zeros(NB, np.int64), np.zeros(NB, np.int64),
          np.zeros(R, np.int64))
    ts = (np.zeros(R, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64),
          np.zeros(n_ord, np.int64), np.zeros((NB, R), np.int64), np.zeros(NB, np.int64),
          np.zeros(NB, np.int64), np.zeros(NB, np.int64), np.zeros((NB, n_ord), np.int64),
          np.zeros(NB, np.int64), np.zeros(NB, np.int64))
    fs = (np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(R, np.int64),
          np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(R, np.int64),
          np.zeros(R, np.int64), np.zeros(3, np.int64), np.zeros(5, np.int64))
    return fb, ps, ts, fs

@njit(cache=True)
def _flush(table, pending, n_pending, combiner):
    """The pending sparse outcomes into the table, through the combiner: a direct-mapped
    cache of keys and their summed weights (each key has one slot, by a hash of its four
    values). An outcome whose key holds its slot adds its weight there; one whose slot is
    empty takes it; one whose slot holds another key moves that key's sum into the table and
    takes the slot. So the table plus the combiner's sums are always the outcomes' sums, and
    a key's outcomes met close together (a chain's neighbours) cost one dict update, not one
    each. :func:`_drain` empties the combiner into the table at the run's end. An outcome of
    weight 0 goes to the table as it did (its key is kept, with weight 0)."""
    mask = np.uint64(combiner.shape[0] - 1)
    for j in range(n_pending[0]):
        c0, c1, c2, c3, w = pending[j, 0], pending[j, 1], pending[j, 2], pending[j, 3], \
            pending[j, 4]
        if w == 0:
            key = (c0, c1, c2, c3)
            table[key] = table.get(key, 0)
            continue
        h = (np.uint64(c0) * np.uint64(0x9E3779B97F4A7C15)) \
            ^ (np.uint64(c1) * np.uint64(0xC2B2AE3D27D4EB4F)) \
            ^ (np.uint64(c2 * 1024 + c3) * np.uint64(0x165667B19E3779F9))
        s = np.int64((h >> np.uint64(40)) & mask)
        if combiner[s, 4] != 0:
            if combiner[s, 0] == c0 and combiner[s, 1] == c1 and combiner[s, 2] == c2 \
                    and combiner[s, 3] == c3:
                combiner[s, 4] += w
                continue
            key = (combiner[s, 0], combiner[s, 1], combiner[s, 2], combiner[s, 3])
            table[key] = table.get(key, 0) + combiner[s, 4]
        combiner[s, 0] = c0
        combiner[s, 1] = c1
        combiner[s, 2] = c2
        combiner[s, 3] = c3
        combiner[s, 4] = w
    n_pending[0] = 0


@njit(cache=True)
def _drain(table, combiner):
    """The combiner's sums into the table; the combiner left empty."""
    for s in range(combiner.shape[0]):
        if combiner[s, 4] != 0:
            key = (combiner[s, 0], combiner[s, 1], combiner[s, 2], combiner[s, 3])
            table[key] = table.get(key, 0) + combiner[s, 4]
            combiner[s, 4] = 0



@njit(cache=True)
def _try_fast(ways, g, ch, st, dr, tl, table, stops, prefix, fb, ps, ts, fs, keep_a, entries,
              min_trigger, units, scatter_count):
    """The block of ``stops[:prefix]`` by the tail-sharing path (:func:`_fast_block`) when
    its prefix tree can be followed; returns whether it was. ``ways`` is a compile-time
    constant: the lines version compiles without the path."""
    if ways:  # noqa: SIM102 (a condition of its own: numba prunes it at compile time)
        if _prefix_tree(g, stops, prefix, fb, ps) > 0:
            _fast_block(g, ch, st, dr, tl, table, stops, prefix, fb, ts, fs, keep_a, entries,
                        min_trigger, ways, units, scatter_count)
            return True
    return False

@njit(cache=True)
def _run(first, g, keep_a, entries, min_trigger, prefix, prefix_bits, scatter_count,
         tail_hist, fast, ways, pending_rows, combine_slots):
    """Every stop combination whose first-reel stop is in ``first``, each chain to its end:
    the sparse table of (credits, A, trigger, cascades) -> weight and the tallies (the
    pruning arguments: see :func:`_pruning`). Blocks of combinations that share their prefix
    stops and show no pay-table entry through the prefix are settled at once; the others go
    to :func:`_combinations`. ``ways`` is the game's, as a compile-time constant (from
    :func:`_run_ways` or :func:`_run_lines`): numba compiles a lines and a ways version, each
    without the other's drop evaluator (with both, numba keeps the reference counts of their
    arrays on every drop)."""
    ways = literally(ways)
    ch, st, dr, tl = _new_state(g, pending_rows, combine_slots)
    table = Dict.empty(key_type=_KEY, value_type=types.int64)
    lengths = g.lengths
    n_reels = lengths.shape[0]
    stops = np.zeros(n_reels, np.int64)
    total_combos = 1
    for r in range(1, n_reels):
        total_combos *= lengths[r]
    block = 1
    for r in range(prefix, n_reels):
        block *= lengths[r]
    if prefix == 0:
        block = total_combos
    base_ways = 1
    for r in range(n_reels):
        base_ways *= g.rows[r]
    placements = g.ordering_weight.sum()
    units = np.arange(prefix_bits.shape[2])  # the lines that can pay the block's first drop
    n_units = units.shape[0] if prefix == 0 else 0
    # the tail-sharing path's arrays (see _fast_block): per branch, level and drop
    fb, ps, ts, fs = _fast_arrays(g, prefix, entries)
    for fi in range(first.shape[0]):
        stops[0] = first[fi]
        for r in range(1, n_reels):
            stops[r] = 0
        c = 0
        left = False  # every_fall: the block without a first win has winning scatter counts
        while c < total_combos:
            if prefix > 0 and c % block == 0:
                n_units = _block_units(prefix_bits, stops, prefix, units)
                if n_units == 0:
                    left = _settle_block(stops, prefix, scatter_count, tail_hist,
                                         g.stop_weights, g.scatter_credits, g.scatter_factor,
                                         placements, base_ways, table, tl.dense, tl.cascades,
                                         tl.ways, tl.sums, g.every_fall, g.scatter_wins)
                elif fast and _try_fast(ways, g, ch, st, dr, tl, table, stops, prefix, fb, ps,
                                        ts, fs, keep_a, entries, min_trigger, units,
                                        scatter_count):
                    _flush(table, tl.pending, tl.n_pending, tl.combiner)
                    if tl.error[0]:
                        _drain(table, tl.combiner)
                        return table, tl
                    for r in range(prefix, n_reels):  # on to the next block
                        stops[r] = lengths[r] - 1
                    _next_stops(stops, lengths)
                    c += block
                    continue
            if n_units == 0 and not left:
                for r in range(prefix, n_reels):  # on to the next block
                    stops[r] = lengths[r] - 1
                _next_stops(stops, lengths)
                c += block
                continue
            n = block - c % block
            done = _combinations(g, ch, st, dr, tl, stops, n, keep_a, entries, min_trigger,
                                 ways, units, n_units, scatter_count, n_units == 0)
            _flush(table, tl.pending, tl.n_pending, tl.combiner)
            if tl.error[0]:
                _drain(table, tl.combiner)
                return table, tl
            c += done
            if done == n:
                _next_stops(stops, lengths)
    _drain(table, tl.combiner)
    return table, tl


# ``ways`` reaches _run as a constant from these two (a Python bool passed to a function that
# asks for a literal would go through numba's dispatcher on every call: a quarter second)
@njit(cache=True)
def _run_ways(first, g, keep_a, entries, min_trigger, prefix, prefix_bits, scatter_count,
              tail_hist, fast, pending_rows, combine_slots):
    return _run(first, g, keep_a, entries, min_trigger, prefix, prefix_bits, scatter_count,
                tail_hist, fast, True, pending_rows, combine_slots)


@njit(cache=True)
def _run_lines(first, g, keep_a, entries, min_trigger, prefix, prefix_bits, scatter_count,
               tail_hist, fast, pending_rows, combine_slots):
    return _run(first, g, keep_a, entries, min_trigger, prefix, prefix_bits, scatter_count,
                tail_hist, False, False, pending_rows, combine_slots)


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


def _call(prep: _Prepared, first: np.ndarray, keep_a: bool, entries: bool,
          pending_rows: int = _PENDING, combine_slots: int = _COMBINE):
    """The sparse table and the tallies of the combinations of ``first`` (``pending_rows``,
    ``combine_slots``: see :func:`_new_state`; the tests make them small to see the flushes
    and the combiner's evictions)."""
    g = prep.game
    run = _run_ways if g.ways else _run_lines
    table, tl = run(first, g, keep_a, entries, prep.min_trigger, *prep.pruning, pending_rows,
                    combine_slots)
    return table, _Tally(*tl)


def _worker(work: tuple, first: np.ndarray):
    prep, keep_a, entries = work
    table, tl = _call(prep, first, keep_a, entries)
    keys, values = _table_arrays(table)
    return keys, values, tl


# -- the law ---------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class CascadeLaw:
    """Exact law of one cascading spin on a reel set (see the module docstring).

    ``joint[(credits, A, trigger, cascades)]`` are integer weights over ``cycle`` (stop
    combinations x bonus orderings x, in random mode, a common denominator of the refill
    draws). ``A`` is 0 unless the law was built for a carried multiplier.
    """

    joint: Mapping  # a WeightTable (strip refill) or a dict (random refill)
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
    # every_fall: (scatter, count) -> (weighted falls on which the count won, weighted credits
    # they paid); a spin may count on several falls
    scatter_falls: dict = field(default_factory=dict)

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
    return cascade_laws(game, [LawRequest(reel_set, free, keep_a, lean, entries)], level,
                        workers=workers, progress=[progress], model=model)[0]


@dataclass(frozen=True)
class LawRequest:
    """One law :func:`cascade_laws` computes: :func:`cascade_law`'s arguments of that name."""

    reel_set: str = "base"
    free: bool | None = None
    keep_a: bool = False
    lean: bool = False
    entries: bool = True


def cascade_laws(game: Game, requests: list, level: int = 1, *, workers: int | None = None,
                 progress: list | None = None, model: PayModel | None = None,
                 done: Callable[[int, CascadeLaw], None] | None = None) -> list[CascadeLaw]:
    """:func:`cascade_law` for each :class:`LawRequest`, their chunks through one pool of
    workers, in order: the laws are the ones :func:`cascade_law` gives one at a time, but the
    workers go on to the next law's chunks while this process merges the one before (and
    the pool starts once), so that its merging and the gap between the enumerations cost no
    time where the workers have work (Frozen Gems: the paid and the free reels).
    ``progress``: one callback (or None) per request. ``done(i, law)``, when given, hears
    each law as soon as it is merged, in order, while the workers go on to the next law's
    chunks (work on law ``i`` alone done there costs no time where the workers have work).

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/cascades/tiny_bonus.toml")
    >>> both = cascade_laws(g, [LawRequest(), LawRequest(keep_a=True)])
    >>> [law.mean for law in both] == [cascade_law(g).mean, cascade_law(g, keep_a=True).mean]
    True
    """
    if game.cascades is None:
        raise ValueError(f"{game.name}: no [cascades] table")
    model = model or PayModel(game, level)
    progress = progress or [None] * len(requests)
    workers = workers or default_workers()
    plans = []  # (prep, chunks, work) per request; a law of random refill at once
    for req in requests:
        free = req.free
        if free is None:
            free = game.free_spins is not None and req.reel_set == game.free_spins.reels \
                and req.reel_set != "base"
        prep = _prepare(game, req.reel_set, level, model, free, req.lean)
        if game.cascades.refill == "random":
            plans.append(_random_law(game, prep, model, req.keep_a))
            continue
        n_first = int(prep.game.lengths[0])
        # strided chunks of first-reel stops (neighbouring stops cost alike), ten per worker
        # so that the last chunk leaves little idle time
        n_chunks = max(1, min(n_first, 10 * workers))
        chunks = [np.arange(i, n_first, n_chunks, dtype=np.int64) for i in range(n_chunks)]
        plans.append((prep, chunks, (prep, req.keep_a, req.entries)))
    enumerated = [plan for plan in plans if isinstance(plan, tuple)]
    parts = [(i, chunk) for i, (_, chunks, _) in enumerate(enumerated) for chunk in chunks]
    big = any(p.game.lengths[0] > 1 and int(np.prod(p.game.lengths)) > 200_000
              for p, _, _ in enumerated)
    n_workers = workers if workers > 1 and big else 1
    if n_workers > 1:  # compile (or load from the cache) here, then fork
        prep, _, (_, keep_a, entries) = enumerated[0]
        _table_arrays(_call(prep, np.zeros(0, np.int64), keep_a, entries)[0])
    results = map_parts(_worker_of, parts, n_workers,
                        shared=tuple(work for _, _, work in enumerated))
    out = []
    try:
        for req, plan, report in zip(requests, plans, progress):
            if not isinstance(plan, tuple):
                out.append(plan)
            else:
                prep, chunks, _ = plan
                if report is not None:
                    report(0, len(chunks))
                # (closing a law's share of the results leaves the next law's running)
                law = _merge(game, prep, model, _Counted(_taking(results, len(chunks), report),
                                                         len(chunks)))
                out.append(replace(law, lean=req.lean))
            if done is not None:
                done(len(out) - 1, out[-1])
    finally:  # a refusal or an error stops the workers now (and frees the pool's lock)
        results.close()
    return out


def _taking(results: Iterator, n: int, report) -> Iterator:
    """The next ``n`` of ``results``, reporting each as done."""
    for i in range(n):
        yield next(results)
        if report is not None:
            report(i + 1, n)


def _worker_of(works: tuple, part: tuple):
    """:func:`_worker` on law ``part[0]``'s work, first-reel stops ``part[1]``."""
    i, first = part
    return _worker(works[i], first)


def _merge(game, prep: _Prepared, model: PayModel, results) -> CascadeLaw:
    """The chunks' tables and tallies, merged as they come (``results`` may be a generator:
    each chunk's sparse rows join the running table once as many rows are waiting as it holds,
    so the merge holds the table and at most as much again, never every chunk's rows at once).
    After each chunk, from the first on, the final table is estimated (its rows so far, per
    chunk done, times the chunks: rows waiting may repeat a key, so it errs high) and
    refused when it would not fit (:func:`_check_memory`)."""
    g = prep.game
    cycle = int(np.prod([int(g.stop_weights[r, : g.lengths[r]].sum())
                         for r in range(len(g.lengths))], dtype=object)) * int(
        g.ordering_weight.sum())
    exact = np.int64 if cycle < 1 << 62 else object  # every weight sum is at most the cycle
    total = None
    falls = 0
    table = _Rows(cycle)
    n_chunks = getattr(results, "n_chunks", None)
    try:
        for done, (keys, values, t) in enumerate(results, 1):
            if t.error[0]:
                stops = [int(s) for s in t.error[1:]]
                raise ValueError(f"{game.name}: the cascade chain of stops {stops} is longer "
                                 f"than {MAX_CASCADES} drops: it never ends; change the strips")
            table.add(keys, values)
            if n_chunks:
                _check_memory(game, f"the joint table of reels {prep.reel_set!r} "
                              f"(estimated after {done} of {n_chunks} chunks, with its merge)",
                              _MERGE_COPIES * _ROW_BYTES * (table.rows * n_chunks // done))
            part = [np.asarray(a).astype(exact) for a in t[:6]]
            total = part if total is None else [x + y for x, y in zip(total, part)]
            falls = falls + np.asarray(t.scatter_falls).astype(exact)
    finally:  # a refusal stops the workers now (and frees the pool's lock)
        getattr(results, "close", lambda: None)()
    dense, casc, freed, ways, sums, entry = total
    trigger, credits = np.nonzero(dense)
    rows = np.zeros((len(trigger), 4), np.int64)
    rows[:, 0] = credits
    rows[:, 2] = trigger
    table.add(rows, dense[trigger, credits].astype(np.int64) if exact is np.int64
              else dense[trigger, credits])
    return _law(prep, model, table.table(), cycle, tuple(int(s) for s in sums), casc, freed,
                ways, entry, _fall_weights(prep, falls))


class _Rows:
    """A sparse table merged as it grows: the sorted, summed rows so far and the rows
    waiting; the waiting rows are merged in once there are as many as the table holds (each
    row is sorted O(log n) times, the memory stays within twice the table).

    Rows are held as one int64 code each (the columns as the digits of a mixed radix,
    :func:`_encode`, so that the codes sort as the rows do): a chunk is coded and sorted as it
    comes (a small sort), and a merge merges sorted runs and moves one column, not four. The
    radix covers every row added so far, with room to grow (a wider one re-codes the table
    and the rows waiting: arithmetic, no sort). Should no radix fit in int64, the rows
    themselves are merged (:func:`_sum_arrays`) from then on. Either way the table is the
    same: its distinct rows in lexicographic order and their summed weights."""

    def __init__(self, total: int):
        self.total = total
        self.exact = np.int64 if total < 1 << 62 else object  # weights past int64: Python's
        self.codes = np.zeros(0, np.int64)  # the rows merged, sorted, as codes in ``radix``
        self.keys = None  # the rows merged, sorted, once no radix fits (``codes`` is None)
        self.values = np.zeros(0, np.int64)
        self.radix = None  # (lows, spans) of the codes' digits
        self.low = self.high = None  # every column's least and greatest value so far
        self.waiting: list = []  # (sorted codes, values), or (rows, values) once no radix fits
        self.n_waiting = 0

    @property
    def rows(self) -> int:
        return len(self.values) + self.n_waiting

    def add(self, keys: np.ndarray, values: np.ndarray) -> bool:
        """Queue rows; merge when as many wait as are merged. Returns whether it merged."""
        if len(keys) == 0:
            return False
        keys = np.asarray(keys, np.int64).reshape(len(keys), -1)
        values = np.asarray(values)
        low, high = keys.min(axis=0).tolist(), keys.max(axis=0).tolist()
        if self.low is not None:
            low = [min(a, b) for a, b in zip(low, self.low)]
            high = [max(a, b) for a, b in zip(high, self.high)]
        self.low, self.high = low, high
        if self.codes is not None:
            radix = self._radix()
            if radix is None:
                self._to_rows(keys.shape[1])
            else:
                if self.radix is not None and radix != self.radix:
                    self._recode(radix)
                self.radix = radix
                code = _encode(keys, *radix)
                order = np.argsort(code)  # (equal codes are summed: their order does not matter)
                keys, values = code[order], values[order].astype(self.exact, copy=False)
        self.waiting.append((keys, values))
        self.n_waiting += len(keys)
        if self.n_waiting < max(len(self.values), 1 << 16):
            return False
        self._merge()
        return True

    def _to_rows(self, width: int):
        """From codes to rows: the table and the rows waiting decoded, once."""
        if self.radix is None:
            self.keys = np.zeros((0, width), np.int64)
        else:
            self.keys = _decode(self.codes, *self.radix)
            self.waiting = [(_decode(c, *self.radix), v) for c, v in self.waiting]
        self.codes = None

    def _recode(self, radix: tuple):
        """The table's codes and the waiting ones in the wider ``radix`` (still sorted)."""
        def recode(code):
            return _encode(_decode(code, *self.radix), *radix)

        self.codes = recode(self.codes)
        self.waiting = [(recode(c), v) for c, v in self.waiting]

    def _merge(self):
        if not self.waiting:
            return
        waiting, self.waiting, self.n_waiting = self.waiting, [], 0
        if self.codes is None:
            self.keys, self.values = _sum_arrays(
                np.concatenate([self.keys] + [k for k, _ in waiting]),
                np.concatenate([self.values] + [v for _, v in waiting]), self.total)
            return
        runs = ([(self.codes, self.values)] if len(self.codes) else []) + waiting
        code = np.concatenate([c for c, _ in runs])
        values = np.concatenate([v for _, v in runs])
        del waiting
        if len(runs) > 1:  # sorted runs: a stable sort merges them
            order = np.argsort(code, kind="stable")
            code, values = code[order], values[order]
        new = np.ones(len(code), bool)
        new[1:] = code[1:] != code[:-1]
        if not new.all():
            at = np.flatnonzero(new)
            code = code[at]
            if self.exact is np.int64:  # every sum is at most the total: no overflow
                values = np.add.reduceat(values, at)
            else:
                values = np.array([sum(values[a:b].tolist()) for a, b in
                                   zip(at.tolist(), at[1:].tolist() + [len(values)])],
                                  dtype=object)
        self.codes, self.values = code, values

    def _radix(self) -> tuple | None:
        """The radix the codes are in, widened when a row added falls outside it; None when
        no radix of the rows so far fits in int64."""
        if self.radix is not None and all(
                lo <= a and b < lo + span
                for lo, span, a, b in zip(*self.radix, self.low, self.high)):
            return self.radix
        for low in ([min(a, 0) for a in self.low], self.low):  # from 0 when it fits
            span = [b - a + 1 for a, b in zip(low, self.high)]
            if math.prod(span) < _CODES:
                roomy = [1 << s.bit_length() for s in span]  # up to twice: fewer re-codings
                return tuple(low), tuple(roomy if math.prod(roomy) < _CODES else span)
        return None

    def table(self) -> WeightTable:
        self._merge()
        if self.keys is not None:
            return WeightTable(self.keys, self.values)
        if self.radix is None:
            return WeightTable(np.zeros((0, 4), np.int64), np.zeros(0, np.int64))
        return WeightTable(_decode(self.codes, *self.radix), self.values)


#: codes stay below this (their differences and a digit's product fit in int64)
_CODES = 1 << 62


def _encode(keys: np.ndarray, low: tuple, span: tuple) -> np.ndarray:
    """One int64 code per row of ``keys``: its columns less ``low``, digits of the mixed radix
    ``span`` (the first the most significant), so the codes sort as the rows do.

    >>> _encode(np.array([[1, 0, 2], [0, 3, 1]]), (0, 0, 0), (2, 4, 3)).tolist()
    [14, 10]
    """
    code = keys[:, 0] - low[0]
    for j in range(1, len(span)):
        code = code * span[j] + (keys[:, j] - low[j])
    return code


def _decode(code: np.ndarray, low: tuple, span: tuple) -> np.ndarray:
    """The rows :func:`_encode` coded (held column by column: the table's readers take its
    columns).

    >>> _decode(np.array([14, 10]), (0, 0, 0), (2, 4, 3)).tolist()
    [[1, 0, 2], [0, 3, 1]]
    """
    out = np.empty((len(span), len(code)), np.int64)
    rest = code
    for j in range(len(span) - 1, 0, -1):
        rest, out[j] = np.divmod(rest, span[j])
        out[j] += low[j]
    out[0] = rest + low[0]
    return out.T


class _Counted:
    """An iterator that says how many items it has (``n_chunks``)."""

    def __init__(self, items: Iterator, n_chunks: int):
        self.items, self.n_chunks = items, n_chunks

    def __iter__(self):
        return self.items

    def close(self):
        self.items.close()


def _fall_weights(prep: _Prepared, falls) -> dict:
    """The kernel's flat every-fall tally as ``{(scatter, count): (falls, credits)}``."""
    width = prep.game.scatter_credits.shape[1]
    out = {}
    for j in range(0, len(np.atleast_1d(falls)), 2):
        if falls[j]:
            i, n = divmod(j // 2, width)
            out[(prep.scatter_names[i], n)] = (int(falls[j]), int(falls[j + 1]))
    return out


def _sum_rows(keys: np.ndarray, values: np.ndarray, total: int) -> WeightTable:
    """``{tuple(row): summed value}`` over the rows of ``keys`` (sorted by key), as a
    :class:`WeightTable`. ``total`` bounds the sum of ``values`` (all weights of one law): in
    int64 when it fits."""
    return WeightTable(*_sum_arrays(keys, values, total))


def _sum_arrays(keys: np.ndarray, values: np.ndarray, total: int):
    """The distinct rows of ``keys`` in lexicographic order and their summed ``values`` (int64
    while ``total`` < 2**62, else Python integers in an object array)."""
    keys = np.asarray(keys, np.int64).reshape(-1, 4)
    if len(keys) == 0:
        return keys, np.zeros(0, np.int64 if total < 1 << 62 else object)
    code = _row_codes(keys)
    new = np.ones(len(keys), bool)
    if code is not None:  # one column to sort (stable: the order lexsort gives)
        order = np.argsort(code, kind="stable")
        code = code[order]
        new[1:] = code[1:] != code[:-1]
        keys, values = keys[order], np.asarray(values)[order]
    else:
        order = np.lexsort(keys.T[::-1])
        keys, values = keys[order], np.asarray(values)[order]
        new[1:] = (keys[1:] != keys[:-1]).any(axis=1)
    at = np.flatnonzero(new)
    if total >= 1 << 62:  # Python integers: a sum past int64 stays exact
        values = values.astype(object)
        sums = np.array([sum(values[a:b].tolist()) for a, b in
                         zip(at.tolist(), at[1:].tolist() + [len(values)])], dtype=object)
        return keys[at], sums
    return keys[at], np.add.reduceat(values.astype(np.int64), at)


#: bytes one row of a joint table takes (four int64 keys and an int64 weight)
_ROW_BYTES = 40
#: copies of the rows a merge holds at once: the table and the rows waiting, their sorted copy
#: and the sort's order
_MERGE_COPIES = 3


class TableTooLarge(ValueError):
    """A table the analysis would build does not fit in the memory there is (its estimate
    and the limit are in the message)."""


def memory_limit() -> int:
    """Bytes a table of the analysis may take: ``SLOTMATH_MEMORY_LIMIT`` (bytes, or with a
    K/M/G suffix) when set, else the memory the system has available now
    (``MemAvailable``), else no limit.

    >>> import os
    >>> os.environ["SLOTMATH_MEMORY_LIMIT"] = "2G"
    >>> memory_limit()
    2147483648
    >>> del os.environ["SLOTMATH_MEMORY_LIMIT"]
    """
    text = os.environ.get("SLOTMATH_MEMORY_LIMIT", "").strip().upper()
    if text:
        scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1], 1)
        return int(float(text.rstrip("KMG")) * scale)
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 1 << 62


def _check_memory(game, what: str, estimate: int) -> None:
    """Refuse ``what`` of ``game`` when ``estimate`` bytes exceed :func:`memory_limit`."""
    limit = memory_limit()
    if estimate > limit:
        raise TableTooLarge(f"{game.name}: {what} would take about {_bytes(estimate)} and "
                            f"{_bytes(limit)} are available: not computed (the limit is "
                            "SLOTMATH_MEMORY_LIMIT when set, else the memory available)")


def _bytes(n: int) -> str:
    """``n`` bytes for a person.

    >>> _bytes(3 * 2**30), _bytes(1536), _bytes(10)
    ('3.0 GiB', '1.5 KiB', '10 bytes')
    """
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:,.1f} {unit}"
    return f"{n} bytes"


class WeightTable(Mapping):
    """Integer weights of tuple keys, held as two numpy arrays: ``keys_array`` (one row per
    key) and ``weights_array`` (int64, or Python integers in an object array), in a fixed
    row order (a joint law's: the keys sorted). A read-only mapping ``{tuple(row): weight}``
    that iterates in that order, as the dict it replaces did, at 40 bytes a row of four
    keys instead of ~250 (a tuple of Python integers and a dict slot).

    Looking one key up searches the rows (sorted once, on the first look-up): iterate
    ``items()`` to read them all.

    >>> t = WeightTable(np.array([[0, 1], [2, 3]]), np.array([5, 7]))
    >>> dict(t), t[2, 3], (9, 9) in t, t == {(0, 1): 5, (2, 3): 7}
    ({(0, 1): 5, (2, 3): 7}, 7, False, True)
    """

    _BLOCK = 1 << 14  # rows turned into Python objects at a time

    def __init__(self, keys: np.ndarray, weights: np.ndarray):
        self.keys_array = np.asarray(keys)
        self.weights_array = np.asarray(weights)
        if self.keys_array.ndim != 2 or len(self.keys_array) != len(self.weights_array):
            raise ValueError("a weight table needs one row of keys per weight")
        self._sorted = None

    def __reduce__(self):
        return WeightTable, (self.keys_array, self.weights_array)

    def __len__(self) -> int:
        return len(self.weights_array)

    def __iter__(self) -> Iterator[tuple]:
        for i in range(0, len(self), self._BLOCK):
            yield from map(tuple, self.keys_array[i:i + self._BLOCK].tolist())

    def items(self) -> ItemsView:
        return _WeightItems(self)

    def values(self) -> ValuesView:
        return _WeightValues(self)

    def _find(self, key) -> int:
        """The row of ``key``, or -1."""
        if self._sorted is None:
            order = np.lexsort(self.keys_array.T[::-1]) if len(self) else np.zeros(0, int)
            self._sorted = (order, self.keys_array[order])
        order, rows = self._sorted
        try:
            key = tuple(int(x) for x in key)
        except (TypeError, ValueError):
            return -1
        if len(key) != rows.shape[1]:
            return -1
        lo, hi = 0, len(rows)
        for j, x in enumerate(key):  # the rows in [lo, hi) share key[:j]
            col = rows[lo:hi, j]
            lo, hi = lo + int(np.searchsorted(col, x, "left")), lo + int(
                np.searchsorted(col, x, "right"))
            if lo == hi:
                return -1
        return int(order[lo])

    def __getitem__(self, key):
        i = self._find(key)
        if i < 0:
            raise KeyError(key)
        return self.weights_array[i].item() if self.weights_array.dtype != object \
            else self.weights_array[i]

    def __contains__(self, key) -> bool:
        return self._find(key) >= 0

    def __repr__(self) -> str:
        return f"WeightTable({len(self)} rows)"


class _WeightItems(ItemsView):
    def __iter__(self):
        t = self._mapping
        for i in range(0, len(t), t._BLOCK):
            yield from zip(map(tuple, t.keys_array[i:i + t._BLOCK].tolist()),
                           t.weights_array[i:i + t._BLOCK].tolist())


class _WeightValues(ValuesView):
    def __iter__(self):
        t = self._mapping
        for i in range(0, len(t), t._BLOCK):
            yield from t.weights_array[i:i + t._BLOCK].tolist()


def _law(prep: _Prepared, model, joint, cycle, sums, casc, freed, ways, entry,
         scatter_falls: dict | None = None) -> CascadeLaw:
    g = prep.game
    cascade_weights = {k: int(w) for k, w in enumerate(casc) if w}
    freed_weights = {}
    if g.has_bonus:
        for r in range(freed.shape[0]):
            for e in range(freed.shape[1]):
                if freed[r, e]:
                    freed_weights[(r, prep.effect_names[e])] = int(freed[r, e])
    ways_weights = {n: int(w) for n, w in enumerate(ways) if w}
    entry_weights = {}
    for k, key in enumerate(prep.keys):
        for run in range(entry.shape[1]):
            if entry[k, run]:
                entry_weights[(key, run)] = int(entry[k, run])
    return CascadeLaw(joint, cycle, model.credits_per_bet, sums, cascade_weights,
                      tuple(int(v) for v in g.multiplier[: MAX_CASCADES + 2]), freed_weights,
                      ways_weights, entry_weights, max(cascade_weights, default=0),
                      scatter_falls=scatter_falls or {})


# -- random refill: memoised recursion in exact fractions ------------------------------------
class _RandomChain:
    """The rest of a random-refill chain from a window state, by memoised recursion.

    A state is (columns, freeing counters, effects, placements still possible, cascade
    index); its law is a dict of summaries (credits from here, A from here, trigger,
    cascades from here, first, later, scatter, freed reels, ways, credits by entry, every-fall
    scatter wins by scatter and count) -> probability (:class:`~fractions.Fraction`)."""

    def __init__(self, name: str, g: CompiledGame):
        self.name, self.g = name, g
        self.refill = [[(int(g.refill_symbol[r, i]), int(g.refill_weight[r, i]))
                        for i in range(int(g.refill_size[r]))] for r in range(len(g.lengths))]
        self.refill_total = [sum(w for _, w in t) for t in self.refill]
        self.rows = [int(x) for x in g.rows]
        self.memo: dict = {}

    def law(self, cols, cnt, eff, mask, k) -> dict:
        state = (cols, cnt, eff, mask, k)
        if state not in self.memo:
            if k > MAX_CASCADES:
                raise ValueError(f"{self.name}: a random-refill cascade chain runs past "
                                 f"{MAX_CASCADES} drops: it never ends")
            self.memo[state] = self._free(*state)
        return self.memo[state]

    def _free(self, cols, cnt, eff, mask, k) -> dict:
        """Bonus symbols: the first reel freed now branches over the effects the placements
        still possible put above it; else the drop."""
        g = self.g
        for r in range(len(self.rows) if g.has_bonus else 0):
            scat = sum(int(g.is_scatter[s]) for s in cols[r])
            if eff[r] >= 0 or cnt[r] + scat < g.threshold:
                continue
            total = sum(int(g.ordering_weight[o]) for o in mask)
            out: dict = defaultdict(Fraction)
            for e in sorted({int(g.ordering_effect[o, r]) for o in mask}):
                sub = tuple(o for o in mask if g.ordering_effect[o, r] == e)
                p = Fraction(sum(int(g.ordering_weight[o]) for o in sub), total)
                for key, q in self.law(cols, cnt, eff[:r] + (e,) + eff[r + 1:], sub, k).items():
                    out[key] += p * q
            return dict(out)
        return self._drop(cols, cnt, eff, mask, k)

    def _drop(self, cols, cnt, eff, mask, k) -> dict:
        """The drop (the kernel's evaluator): its end, or every refill draw."""
        g, rows = self.g, self.rows
        m = int(g.multiplier[k]) * g.spin_multiplier
        a = np.array([list(c) + [0] * (max(rows) - len(c)) for c in cols], np.int64)
        d, removed, drop_entry = _window_drop(g, a, np.array(eff, np.int64), m)
        sc, sc_a, trig, won, falls = (self._fall_scatters(cols, removed, k) if g.every_fall
                                      else (0, 0, 0, False, ()))
        if d == 0 and not won:
            return self._end(cols, eff)
        entries = tuple((kk, run, int(drop_entry[kk, run]))
                        for kk, run in zip(*np.nonzero(drop_entry)))
        survivors, gaps, newcnt = [], [], []
        for r in range(len(rows)):
            keep = tuple(cols[r][y] for y in range(rows[r]) if not removed[r, y])
            survivors.append(keep)
            gaps.append(rows[r] - len(keep))
            newcnt.append(cnt[r] + gaps[r] if g.accumulate else gaps[r])
        newcnt = tuple(newcnt)
        out: dict = defaultdict(Fraction)
        first_add, later_add = (m * int(d), 0) if k == 0 else (0, m * int(d))
        for p, newcols in self._draws(survivors, gaps):
            for key, q in self.law(newcols, newcnt, eff, mask, k + 1).items():
                c, aa, t, casc, first, later, scat, freed, n_w, ent, sf = key
                key2 = (c + m * int(d) + sc, aa + int(d) + sc_a, max(t, trig), casc + 1,
                        first + first_add, later + later_add, scat + sc, freed, n_w,
                        _add_entries(ent, entries), _add_falls(sf, falls))
                out[key2] += p * q
        return dict(out)

    def _fall_scatters(self, cols, removed, k):
        """Every-fall scatters of this fall (the kernel's rule, :func:`_fall_scatters`):
        (credits, their part of A, the winning trigger count, whether any won, the winning
        (scatter, count, credits)); marks their positions in ``removed``."""
        g = self.g
        credits, trig, won, falls = 0, 0, False, []
        for i, s in enumerate(int(x) for x in g.scatter_ids):
            n = sum(c.count(s) for c in cols) if s >= 0 else 0
            if s < 0 or not g.scatter_wins[i, n]:
                continue
            won = True
            credits += int(g.scatter_credits[i, n])
            falls.append((i, n, int(g.scatter_credits[i, n])))
            trig = n if s == g.trigger else trig
            for r, c in enumerate(cols):
                for y, sym in enumerate(c):
                    if sym == s:
                        removed[r, y] = 1
        factor = g.scatter_factor * (int(g.multiplier[k]) if g.scatter_multiplied else 1)
        a = credits if (g.scatter_multiplied and g.scatter_factor) else 0
        return (credits * factor, a, trig, won,
                tuple((i, n, 1, c * factor) for i, n, c in falls))

    def _draws(self, survivors, gaps):
        """Every refill draw: (probability, the new columns), the new symbols on top."""
        per_reel = [list(product(self.refill[r], repeat=gaps[r])) for r in range(len(gaps))]
        for draw in product(*per_reel):
            p = Fraction(1)
            for r in range(len(gaps)):
                for _, w in draw[r]:
                    p *= Fraction(w, self.refill_total[r])
            yield p, tuple(tuple(s for s, _ in draw[r]) + survivors[r] for r in range(len(gaps)))

    def _end(self, cols, eff) -> dict:
        """A drop that wins nothing: the scatters pay and count (every_fall: they were paid
        on the falls; the final window's do not win); the freed reels, the ways."""
        g, rows = self.g, self.rows
        trig, scat = 0, 0
        for i, s in enumerate(g.scatter_ids if not g.every_fall else ()):
            n = sum(c.count(int(s)) for c in cols) if s >= 0 else 0
            scat += int(g.scatter_credits[i, n]) * g.scatter_factor if s >= 0 else 0
            trig = n if s == g.trigger else trig
        n_w = 1
        for r in range(len(rows)):
            n_w *= rows[r] * (int(g.effect_split[eff[r]]) if eff[r] >= 0 else 1)
        freed = tuple((r, eff[r]) for r in range(len(rows)) if eff[r] >= 0)
        return {(scat, 0, trig, 0, 0, 0, scat, freed, n_w, (), ()): Fraction(1)}


def _random_law(game: Game, prep: _Prepared, model: PayModel, keep_a: bool) -> CascadeLaw:
    """Every stop combination's chain by :class:`_RandomChain`, then the law in integer
    weights over the common denominator."""
    g = prep.game
    chain = _RandomChain(game.name, g)
    n_reels, rows = len(g.lengths), chain.rows
    total: dict = defaultdict(Fraction)
    weights_total = 1
    for r in range(n_reels):
        weights_total *= int(g.stop_weights[r, : g.lengths[r]].sum())
    start = ((0,) * n_reels, (-1,) * n_reels, tuple(range(len(g.ordering_weight))), 0)
    for stops in product(*[range(int(L)) for L in g.lengths]):
        sw = math.prod(int(g.stop_weights[r, s]) for r, s in enumerate(stops))
        if sw == 0:
            continue
        cols = tuple(tuple(int(g.strips[r, (s + y) % g.lengths[r]]) for y in range(rows[r]))
                     for r, s in enumerate(stops))
        for key, q in chain.law(cols, *start).items():
            total[key] += Fraction(sw, weights_total) * q
    return _integer_law(prep, model, total, keep_a)


def _integer_law(prep: _Prepared, model: PayModel, total: dict, keep_a: bool) -> CascadeLaw:
    """The summaries' probabilities as integer weights over their common denominator."""
    g = prep.game
    n_reels = len(g.lengths)
    den = math.lcm(*(q.denominator for q in total.values()))
    joint: dict = defaultdict(int)
    casc = np.zeros(MAX_CASCADES + 1, dtype=object)
    freed = np.zeros((n_reels, len(g.effect_split)), dtype=object)
    max_w = int(np.prod(g.rows)) * int(max(1, g.effect_split.max())) ** n_reels
    ways = np.zeros(max_w + 1, dtype=object)
    entry = np.zeros(g.entry_credits.shape, dtype=object)
    sums = [0, 0, 0]
    falls: dict = defaultdict(lambda: [0, 0])
    for (c, aa, t, k, first, later, scat, fr, n_w, ent, sf), q in total.items():
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
        for i, n, times, credits in sf:
            falls[(prep.scatter_names[i], n)][0] += w * times
            falls[(prep.scatter_names[i], n)][1] += w * credits
    return _law(prep, model, dict(joint), den, tuple(sums), casc, freed, ways, entry,
                {key: tuple(v) for key, v in sorted(falls.items())})


def _add_falls(a: tuple, b: tuple) -> tuple:
    """Every-fall scatter wins (scatter, count, falls, credits) of two stretches of a chain."""
    acc: dict = defaultdict(lambda: [0, 0])
    for i, n, times, credits in a + b:
        acc[(i, n)][0] += times
        acc[(i, n)][1] += credits
    return tuple(sorted((i, n, v[0], v[1]) for (i, n), v in acc.items()))


def _add_entries(a: tuple, b: tuple) -> tuple:
    acc: dict = defaultdict(int)
    for kk, run, v in a + b:
        acc[(int(kk), int(run))] += v
    return tuple(sorted((kk, run, v) for (kk, run), v in acc.items()))
