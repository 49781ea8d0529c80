"""Seeded Monte Carlo of cascade games (issue 9): the simulator counterpart of
:mod:`slotmath.exact.cascades`, with its own numba kernel.

A round is played spin by spin exactly as the rules say (the cascade spec in the issue's
notes): the paid spin on reel set ``"base"`` drops, wins, removes its winning positions,
refills (from the strip above, or by drawing each new symbol from the reel's refill weights),
frees the frozen bonus symbols whose reels reach the threshold, and ends on a drop that wins
nothing; its scatters pay and may trigger the free spins (with ``cascades.scatters =
"every_fall"`` each fall's winning scatters pay, count and are removed, and a fall they win
goes on), which play one after another on the
free reels with the cascade index carried (``carry_multiplier``) or restarting at 0, until
the awards (retriggers cut at ``max_spins``) are used up.

Model, method and error
-----------------------
Each round is an independent draw of its total win ``X`` (total bets); the estimate is the
sample mean and its standard error ``s / sqrt(n)``. The components (first drop, later drops,
scatter, free spins) are sample means of the same rounds. Randomness comes only from
``numpy.random.Generator(numpy.random.PCG64(seed))``, whose PCG64 state the kernel steps
itself (:mod:`slotmath.simulate._pcg64`: NumPy's ``integers`` draw for draw), used in a
fixed order (stops reel by reel, the arrangement and its shuffle, refill draws reel by reel
top to bottom, then the free spins), so a seed gives the same result on every machine.

The kernel plays the game as compiled by :func:`slotmath.evaluate.compiled.compile_game` (the
numbers every engine shares: pays in integer credits, strips, the model's multiplier rules and
bonus symbols); its evaluation of a window is its own and shares no code with the exact engine,
so the two are independent checks of each other.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from numba import njit

from slotmath.evaluate.compiled import CompiledGame, compile_game
from slotmath.model.game import Game
from slotmath.simulate._pcg64 import HAS32, S_HI, S_LO, draw, rng_state, state_dict

_MAX_DROPS = 100_000  # a chain longer than this is taken as endless (an error, not a number)
_BATCH = 1 << 16


# ------------------------------------------------------------------------- the kernel


@njit(cache=True, inline="always")
def _paying(alive_at, reach, run_pays, gi):
    """The entries (bits) whose run pays, for ways or one line read as bit sets: ``alive_at[r]``
    holds the entries shown on every reel up to ``r``, ``reach`` reels have some; an entry pays
    when its run is exactly ``k`` (alive at ``k - 1``, not at ``k``) and ``run_pays[gi, k]``
    has its bit (a pay for ``k``)."""
    paying = 0
    for run in range(1, reach + 1):
        ended = alive_at[run - 1]
        if run < reach:
            ended &= ~alive_at[run]
        paying |= ended & run_pays[gi, run]
    return paying


@njit(cache=True)
def _pick(rs, cumulative, game, row, size):
    """An index 0..size-1 drawn by the cumulative integer weights ``cumulative[game, row]``:
    the first whose cumulative weight exceeds a uniform integer below the total, i.e. the
    number of cumulative weights at or below it (they never decrease): counted without a
    branch on short tables, by a binary search on long ones."""
    u = draw(rs, cumulative[game, row, size - 1])
    if size <= 64:
        lo = 0
        for i in range(size - 1):
            lo += cumulative[game, row, i] <= u
        return lo
    lo = 0
    hi = size - 1
    while lo < hi:
        mid = (lo + hi) >> 1
        if cumulative[game, row, mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


class _Pair(NamedTuple):
    """The paid game (index 0) and the free game (index 1) as compiled
    (:class:`~slotmath.evaluate.compiled.CompiledGame`), each field the two games' values
    stacked on a first axis of length 2 (arrays padded with zeros to the larger shape, whose
    used part the kernel reads from the lengths and counts beside them).

    One flat argument for the whole batch: numba raises and drops the reference count of
    every array of a tuple passed to a function, so a spin function called with a compiled
    game spent most of its time on a hundred atomic counts a call."""

    rows: np.ndarray
    strips: np.ndarray
    lengths: np.ndarray
    cumulative: np.ndarray
    is_scatter: np.ndarray
    effect_wild: np.ndarray
    effect_split: np.ndarray
    refill_symbol: np.ndarray
    refill_cumulative: np.ndarray
    refill_size: np.ndarray
    random_refill: np.ndarray
    multiplier: np.ndarray
    multiplier_step: np.ndarray
    spin_multiplier: np.ndarray
    has_bonus: np.ndarray
    threshold: np.ndarray
    accumulate: np.ndarray
    arrangement_effect: np.ndarray
    arrangement_cumulative: np.ndarray
    arrangements: np.ndarray  # [game]: how many arrangements
    shuffle: np.ndarray
    ways: np.ndarray
    paylines: np.ndarray
    member: np.ndarray
    entry_credits: np.ndarray
    symbol_multiplier: np.ndarray
    every_fall: np.ndarray
    scatter_index: np.ndarray
    scatter_ids: np.ndarray
    scatter_wins: np.ndarray
    scatter_credits: np.ndarray
    scatters: np.ndarray  # [game]: how many scatter rows
    scatter_factor: np.ndarray
    scatter_multiplied: np.ndarray
    trigger: np.ndarray
    # the free spins (the paid game's rules; the same in both entries)
    even: np.ndarray  # [game, reel]: every stop of the reel weighs 1
    entry_mask: np.ndarray  # [game, symbol]: bit e set when the symbol counts for entry e
    masked: np.ndarray  # [game]: entry_mask holds every entry, and every factor is >= 1
    run_pays: np.ndarray  # [game, run]: bit e set when entry e pays a run of that length
    entry_weight: np.ndarray  # [game, entry, symbol]: the symbol's multiplier, 0 off the entry
    has_free: np.ndarray
    awards: np.ndarray
    retrigger_awards: np.ndarray
    max_spins: np.ndarray
    retrigger: np.ndarray
    carry: np.ndarray


def _stack(a, b) -> np.ndarray:
    """Two values of one field on a first axis of length 2 (arrays padded with zeros)."""
    if not isinstance(a, np.ndarray):
        return np.asarray([a, b], np.bool_ if isinstance(a, bool) else np.int64)
    shape = tuple(max(x, y) for x, y in zip(a.shape, b.shape))
    out = np.zeros((2, *shape), a.dtype)
    out[(0, *(slice(0, x) for x in a.shape))] = a
    out[(1, *(slice(0, x) for x in b.shape))] = b
    return out


def _entry_masks(g: CompiledGame):
    """Each symbol's entries as the bits of one integer, whether that is exact for the ways
    reading (at most 62 entries, and no multiplier or split below 1: a shown member of an
    entry then always counts), and per run length the entries that pay it."""
    masked = bool(g.member.shape[0] <= 62 and (g.symbol_multiplier >= 1).all()
                  and (g.effect_split >= 1).all())
    mask = np.zeros(g.member.shape[1], np.int64)
    run_pays = np.zeros(g.entry_credits.shape[1], np.int64)
    if masked:
        for e in range(g.member.shape[0]):
            mask |= (g.member[e] == 1).astype(np.int64) << e
            run_pays |= (g.entry_credits[e] != 0).astype(np.int64) << e
    return mask, masked, run_pays


def _pair(base: CompiledGame, free_set: CompiledGame) -> _Pair:
    """The paid and free games of one run as a :class:`_Pair`."""
    fields = {}
    for name in _Pair._fields:
        if name == "arrangements":
            fields[name] = _stack(len(base.arrangement_cumulative),
                                  len(free_set.arrangement_cumulative))
        elif name == "scatters":
            fields[name] = _stack(len(base.scatter_credits), len(free_set.scatter_credits))
        elif name == "even":
            fields[name] = _stack(*(np.asarray([
                bool((g.cumulative[r, :n] == np.arange(1, n + 1)).all())
                for r, n in enumerate(g.lengths)]) for g in (base, free_set)))
        elif name == "entry_weight":
            fields[name] = _stack(*((g.member == 1) * g.symbol_multiplier[None, :]
                                    for g in (base, free_set)))
        elif name in ("entry_mask", "masked", "run_pays"):
            at = ("entry_mask", "masked", "run_pays").index(name)
            fields[name] = _stack(*(_entry_masks(g)[at] for g in (base, free_set)))
        elif name in ("has_free", "awards", "retrigger_awards", "max_spins", "retrigger",
                      "carry"):
            fields[name] = _stack(getattr(base, name), getattr(base, name))
        else:
            fields[name] = _stack(getattr(base, name), getattr(free_set, name))
    return _Pair(**fields)


@njit(cache=True)
def _play_rounds(rs, p, n, reset_multiplier, carried, first, later, scatter, feature, cascades,
                 free_spins, round_states):
    """Play ``n`` rounds into the output arrays (credits): paid spins of game 0 of the
    :class:`_Pair` ``p``, free spins of game 1. ``reset_multiplier=False`` is a deliberate
    MUTATION (the paid spin starts at the previous paid spin's final index, in ``carried[0]``)
    used only by the tests to show that they catch it. Returns -1, or the round whose chain
    was endless. ``round_states`` (n x 2, or 0 rows: one stream throughout) restarts the
    stream at each round from its row (the PCG64 state's high and low words), so that two
    games played on the same rows draw alike round by round (:func:`paired_rounds`).

    One function with no calls that pass arrays (see :class:`_Pair`): a spin is the body of
    the inner loop, played on game ``gi``; every field is read into a local once."""
    rows, strips, lengths, cumulative = p.rows, p.strips, p.lengths, p.cumulative
    is_scatter, effect_wild, effect_split = p.is_scatter, p.effect_wild, p.effect_split
    refill_symbol, refill_cumulative = p.refill_symbol, p.refill_cumulative
    refill_size, random_refill = p.refill_size, p.random_refill
    multiplier, multiplier_step = p.multiplier, p.multiplier_step
    spin_multiplier, has_bonus, threshold = p.spin_multiplier, p.has_bonus, p.threshold
    accumulate, arrangement_effect = p.accumulate, p.arrangement_effect
    arrangement_cumulative, arrangements = p.arrangement_cumulative, p.arrangements
    shuffle, ways, paylines, member = p.shuffle, p.ways, p.paylines, p.member
    entry_credits, symbol_multiplier, every_fall = p.entry_credits, p.symbol_multiplier, \
        p.every_fall
    scatter_index, scatter_ids, scatter_wins = p.scatter_index, p.scatter_ids, p.scatter_wins
    scatter_credits, scatters, scatter_factor = p.scatter_credits, p.scatters, p.scatter_factor
    scatter_multiplied, trigger_symbol = p.scatter_multiplied, p.trigger
    has_free, awards, retrigger_awards = p.has_free[0], p.awards[0], p.retrigger_awards[0]
    max_spins, retrigger, carry = p.max_spins[0], p.retrigger[0], p.carry[0]
    n_reels = rows.shape[1]
    height = max(rows[0].max(), rows[1].max())
    n_entries = member.shape[1]
    n_lines = paylines.shape[1]
    n_multipliers = multiplier.shape[1]
    # the scratch arrays of one spin
    window = np.zeros((n_reels, height), np.int64)
    eff_symbol = np.zeros((n_reels, height), np.int64)
    eff_factor = np.ones((n_reels, height), np.int64)
    removed = np.zeros((n_reels, height), np.bool_)
    survivors = np.zeros(height, np.int64)
    tops = np.zeros(n_reels, np.int64)
    counters = np.zeros(n_reels, np.int64)
    freed = np.zeros(n_reels, np.bool_)
    above = np.zeros(n_reels, np.int64)
    reel_counts = np.zeros(n_reels, np.int64)
    alive_at = np.zeros(n_reels, np.int64)
    entry_mask, masked, even, run_pays = p.entry_mask, p.masked.all(), p.even, p.run_pays
    entry_weight = p.entry_weight
    counts = np.zeros(scatter_credits.shape[1], np.int64)
    for m in range(n):
        if round_states.shape[0]:
            rs[S_HI], rs[S_LO], rs[HAS32] = round_states[m, 0], round_states[m, 1], 0
        gi = 0  # the game of the spin: 0 paid, 1 free
        start_index = 0 if reset_multiplier else carried[0]
        left = 0
        awarded = 0
        win_free = 0
        played = 0
        while True:
            # ---- one spin of game gi from cascade index start_index
            for r in range(n_reels):
                counters[r] = 0
                freed[r] = False
                for i in range(height):
                    eff_factor[r, i] = 1
            for r in range(n_reels):  # the stops
                if even[gi, r]:  # every stop weighs 1: the uniform integer is the stop
                    stop = draw(rs, lengths[gi, r])
                else:
                    stop = _pick(rs, cumulative, gi, r, lengths[gi, r])
                tops[r] = stop
                at = stop  # (stop + i) mod the length, without a division
                for i in range(rows[gi, r]):
                    window[r, i] = strips[gi, r, at]
                    at += 1
                    if at == lengths[gi, r]:
                        at = 0
            # the bonus arrangement, shuffled (a uniform permutation: every distinct ordering
            # of the symbols is equally likely)
            bonus = has_bonus[gi]
            if bonus:
                u = draw(rs, arrangement_cumulative[gi, arrangements[gi] - 1])
                a = 0
                while u >= arrangement_cumulative[gi, a]:
                    a += 1
                for r in range(n_reels):
                    above[r] = arrangement_effect[gi, a, r]
                if shuffle[gi]:
                    for r in range(n_reels - 1, 0, -1):
                        j = draw(rs, r + 1)
                        above[r], above[j] = above[j], above[r]
            k = start_index
            first_win = 0
            later_win = 0
            fall_scatter = 0  # every_fall: the scatter pays of the falls and the top trigger
            fall_trigger = 0
            endless = False
            while True:
                if bonus:
                    for r in range(n_reels):
                        if not freed[r]:
                            shown = 0
                            for i in range(rows[gi, r]):
                                if is_scatter[gi, window[r, i]]:
                                    shown += 1
                            if counters[r] + shown >= threshold[gi]:
                                freed[r] = True
                for r in range(n_reels):
                    if freed[r]:  # its bonus symbol's effect on every symbol but a scatter
                        e = above[r]
                        for i in range(rows[gi, r]):
                            s = window[r, i]
                            eff_symbol[r, i] = s
                            eff_factor[r, i] = 1
                            removed[r, i] = False
                            if not is_scatter[gi, s]:
                                if effect_wild[gi, e] >= 0:
                                    eff_symbol[r, i] = effect_wild[gi, e]
                                else:
                                    eff_factor[r, i] = effect_split[gi, e]
                    else:  # as shown (eff_factor is 1 until the reel is freed)
                        for i in range(rows[gi, r]):
                            eff_symbol[r, i] = window[r, i]
                            removed[r, i] = False
                # the line or ways credits of the effective window (no cascade multiplier),
                # marking the winning positions: entry by entry, position by position, the
                # plain reading of the rules
                win = 0
                if ways[gi] and masked:
                    # the entries a reel shows (bit e: some position shows a symbol of entry e),
                    # and those shown on every reel from the first to this one
                    # (alive_at[r]): an entry's run is the number of reels it stays in
                    # (every factor is at least 1, so a shown member counts)
                    alive = -1
                    reach = 0
                    for r in range(n_reels):
                        shown_entries = 0
                        for i in range(rows[gi, r]):
                            shown_entries |= entry_mask[gi, eff_symbol[r, i]]
                        alive &= shown_entries
                        if alive == 0:
                            break
                        alive_at[r] = alive
                        reach = r + 1
                    paying = _paying(alive_at, reach, run_pays, gi)
                    e = 0
                    while paying != 0:
                        if (paying >> e) & 1:
                            paying ^= 1 << e
                            run = 1
                            while run < reach and (alive_at[run] >> e) & 1:
                                run += 1
                            n_ways = 1
                            for r in range(run):
                                c = 0
                                for i in range(rows[gi, r]):
                                    weight = entry_weight[gi, e, eff_symbol[r, i]]
                                    c += weight * eff_factor[r, i]
                                    removed[r, i] |= weight > 0
                                n_ways *= c
                            win += entry_credits[gi, e, run] * n_ways
                        e += 1
                elif ways[gi]:
                    for e in range(n_entries):
                        run = 0
                        for r in range(n_reels):
                            c = 0
                            for i in range(rows[gi, r]):
                                s = eff_symbol[r, i]
                                if member[gi, e, s] == 1:
                                    c += symbol_multiplier[gi, s] * eff_factor[r, i]
                            reel_counts[r] = c
                            if c == 0:
                                break
                            run += 1
                        if run == 0 or entry_credits[gi, e, run] == 0:
                            continue
                        n_ways = 1
                        for r in range(run):
                            n_ways *= reel_counts[r]
                        win += entry_credits[gi, e, run] * n_ways
                        for r in range(run):
                            for i in range(rows[gi, r]):
                                if member[gi, e, eff_symbol[r, i]] == 1:
                                    removed[r, i] = True
                elif masked:  # lines, the entries of each line as bit sets (as for ways)
                    for line in range(n_lines):
                        alive = -1
                        reach = 0
                        for r in range(n_reels):
                            alive &= entry_mask[gi, eff_symbol[r, paylines[gi, line, r]]]
                            if alive == 0:
                                break
                            alive_at[r] = alive
                            reach = r + 1
                        paying = _paying(alive_at, reach, run_pays, gi)
                        best = 0  # the line's best entry, the first of equals
                        best_run = 0
                        e = 0
                        while paying != 0:
                            if (paying >> e) & 1:
                                paying ^= 1 << e
                                run = 1
                                while run < reach and (alive_at[run] >> e) & 1:
                                    run += 1
                                mult = 1
                                for r in range(run):
                                    mult *= symbol_multiplier[gi, eff_symbol[r, paylines[gi, line,
                                                                                         r]]]
                                pay = entry_credits[gi, e, run] * mult
                                if pay > best:
                                    best = pay
                                    best_run = run
                            e += 1
                        if best > 0:
                            win += best
                            for r in range(best_run):
                                removed[r, paylines[gi, line, r]] = True
                else:
                    for line in range(n_lines):
                        best = 0
                        best_run = 0
                        for e in range(n_entries):
                            run = 0
                            mult = 1
                            for r in range(n_reels):
                                s = eff_symbol[r, paylines[gi, line, r]]
                                if member[gi, e, s] == 0:
                                    break
                                run += 1
                                mult *= symbol_multiplier[gi, s]
                            if run == 0:
                                continue
                            pay = entry_credits[gi, e, run] * mult
                            if pay > best:
                                best = pay
                                best_run = run
                        if best > 0:
                            win += best
                            for r in range(best_run):
                                removed[r, paylines[gi, line, r]] = True
                if k < n_multipliers:
                    value = multiplier[gi, k]
                else:
                    value = multiplier[gi, n_multipliers - 1] + multiplier_step[gi] * (
                        k - (n_multipliers - 1))
                drop = win * value * spin_multiplier[gi]
                scatter_won = False
                if every_fall[gi]:  # this fall's scatters: pay, count and go if they win
                    counts[:] = 0
                    for r in range(n_reels):
                        for i in range(rows[gi, r]):
                            j = scatter_index[gi, window[r, i]]
                            if j >= 0:
                                counts[j] += 1
                    for j in range(scatters[gi]):
                        c = counts[j]
                        if scatter_ids[gi, j] < 0 or not scatter_wins[gi, j, c]:
                            continue
                        scatter_won = True
                        fall_pay = scatter_credits[gi, j, c] * scatter_factor[gi]
                        fall_scatter += fall_pay * value if scatter_multiplied[gi] else fall_pay
                        if scatter_ids[gi, j] == trigger_symbol[gi] and c > fall_trigger:
                            fall_trigger = c
                        for r in range(n_reels):
                            for i in range(rows[gi, r]):
                                if window[r, i] == scatter_ids[gi, j]:
                                    removed[r, i] = True
                if drop == 0 and not scatter_won:
                    break
                if k == start_index:
                    first_win += drop
                else:
                    later_win += drop
                for r in range(n_reels):
                    kept = 0  # the survivors in order, written without a branch
                    for i in range(rows[gi, r]):
                        survivors[kept] = window[r, i]
                        kept += not removed[r, i]
                    gone = rows[gi, r] - kept
                    if accumulate[gi]:
                        counters[r] += gone
                    else:
                        counters[r] = gone
                    for i in range(kept):
                        window[r, gone + i] = survivors[i]
                    if random_refill[gi]:
                        for i in range(gone):
                            window[r, i] = refill_symbol[gi, r, _pick(
                                rs, refill_cumulative, gi, r, refill_size[gi, r])]
                    elif gone:  # the strip above: (top - gone + i) mod the length
                        at = tops[r] - gone
                        while at < 0:
                            at += lengths[gi, r]
                        tops[r] = at
                        for i in range(gone):
                            window[r, i] = strips[gi, r, at]
                            at += 1
                            if at == lengths[gi, r]:
                                at = 0
                k += 1
                if k - start_index > _MAX_DROPS:
                    endless = True
                    break
            if endless:
                return m
            if every_fall[gi]:  # paid on the falls: the final window's scatters do not win
                spin_scatter = fall_scatter
                trigger = fall_trigger
            else:  # the end of the spin: scatters
                pay = 0
                trigger = 0
                counts[:] = 0
                for r in range(n_reels):
                    for i in range(rows[gi, r]):
                        s = window[r, i]
                        if scatter_index[gi, s] >= 0:
                            counts[scatter_index[gi, s]] += 1
                        if s == trigger_symbol[gi]:
                            trigger += 1
                for j in range(scatters[gi]):
                    pay += scatter_credits[gi, j, counts[j]]
                spin_scatter = pay * scatter_factor[gi]
            # ---- the spin's place in the round
            if gi == 0:
                carried[0] = k
                first[m] = first_win
                later[m] = later_win
                scatter[m] = spin_scatter
                cascades[m] = k - start_index
                feature[m] = 0
                free_spins[m] = 0
                if not has_free:
                    break
                left = min(awards[min(trigger, awards.shape[0] - 1)], max_spins)
                awarded = left
                if left <= 0:
                    break
                gi = 1
                start_index = k if carry else 0
            else:
                win_free += first_win + later_win + spin_scatter
                played += 1
                left -= 1
                if retrigger:
                    extra = retrigger_awards[min(trigger, retrigger_awards.shape[0] - 1)]
                    extra = min(extra, max_spins - awarded)
                    left += extra
                    awarded += extra
                start_index = k if carry else 0
                if left <= 0:
                    feature[m] = win_free
                    free_spins[m] = played
                    break
    return -1


# ------------------------------------------------------------------------- the result


@dataclass(frozen=True)
class CascadeSimulationResult:
    """What a cascade simulation measured, in total bets per paid round.

    ``rtp = first_drop + later_drops + scatter + free_spins``; ``std_error`` is the
    standard error of ``rtp`` (rounds are independent); ``cascade_counts`` the frequency of
    each number of winning drops of the paid spin; ``spins_per_second`` counts paid and
    free spins over the kernel's wall time (compilation excluded).
    """

    spins: int
    seed: int
    level: int
    rtp: float
    std_error: float
    std: float
    first_drop: float
    later_drops: float
    scatter: float
    free_spins: float
    trigger_rate: float
    spins_per_feature: float
    cascade_counts: dict[int, float]
    spins_per_second: float
    component_std_errors: dict[str, float] = field(default_factory=dict)
    hit_frequency: float = 0.0

    def as_simulation_result(self, free_spins: bool | None = None):
        """The figures :func:`slotmath.simulate.simulate` reports for every game (``base`` =
        first drop + later drops + scatter; ``free_spins``: whether the game has free spins,
        whose component and trigger rate are then listed)."""
        from slotmath.simulate.monte_carlo import SimulationResult

        return SimulationResult(
            spins=self.spins, rtp=self.rtp, std_error=self.std_error,
            hit_frequency=self.hit_frequency, std=self.std,
            base=self.first_drop + self.later_drops + self.scatter,
            free_spins=self.free_spins, trigger_rate=self.trigger_rate,
            spins_per_feature=self.spins_per_feature, seed=self.seed, level=self.level,
            components={"pays": self.first_drop + self.later_drops + self.scatter}
            | ({"free_spins": self.free_spins} if free_spins else {}),
            trigger_rates={"free_spins": self.trigger_rate} if free_spins else {})

    def z_score(self, exact: float) -> float:
        """(estimate - exact) / standard error."""
        return (self.rtp - float(exact)) / self.std_error if self.std_error > 0 else (
            0.0 if self.rtp == float(exact) else math.inf)


def simulate_cascades(game: Game, spins: int, seed: int, level: int = 1,
                      _reset_multiplier: bool = True) -> CascadeSimulationResult:
    """Play ``spins`` seeded rounds of a cascade game.

    Parameters
    ----------
    game : Game
        A game with ``[cascades]`` (its rules, bonus symbols and free spins are the model's:
        ``game.cascades``, ``game.bonus_symbols``, ``game.free_spins``).
    spins : int
        Paid rounds.
    seed : int
        Seed of the PCG64 generator.
    level : int
        Bet level.

    Returns
    -------
    CascadeSimulationResult

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/cascades/tiny_free_spins.toml")
    >>> r = simulate_cascades(g, 2000, seed=1)
    >>> r.rtp == r.first_drop + r.later_drops + r.scatter + r.free_spins
    True
    """
    if isinstance(spins, bool) or int(spins) != spins or spins < 1:
        raise ValueError(f"spins must be a whole number >= 1, got {spins!r}")
    if game.cascades is None:
        raise ValueError(f"{game.name}: the game has no [cascades]")
    spins = int(spins)
    base = compile_game(game, "base", level)
    free_set = compile_game(game, game.free_spins.reels, level, free=True) if (
        game.free_spins is not None) else base
    scale = base.credits_per_bet
    rng = np.random.Generator(np.random.PCG64(seed))
    carried = np.zeros(1, np.int64)
    # compile (and warm) on a throwaway generator so the timing below is the kernel's
    pair = _pair(base, free_set)
    _run_batch(np.random.Generator(np.random.PCG64(0)), pair, 1, _reset_multiplier,
               np.zeros(1, np.int64))
    parts = ("first", "later", "scatter", "feature")
    totals = dict.fromkeys(parts, 0)  # credits, exact
    squares = dict.fromkeys((*parts, "total"), 0.0)  # total bets squared
    histogram: dict[int, int] = {}
    triggered = 0
    hits = 0
    free_played = 0
    elapsed = 0.0
    done = 0
    while done < spins:
        n = min(_BATCH, spins - done)
        began = time.perf_counter()
        arrays = _run_batch(rng, pair, n, _reset_multiplier, carried)
        elapsed += time.perf_counter() - began
        first, later, scatter, feature, cascades, free_spins = arrays
        total = first + later + scatter + feature
        for part, values in zip((*parts, "total"), (first, later, scatter, feature, total)):
            if part != "total":
                totals[part] += int(values.sum())
            in_bets = values / scale
            squares[part] += float((in_bets * in_bets).sum())
        counted = np.bincount(cascades)  # (counting, not np.unique's sort)
        for count in np.flatnonzero(counted):
            histogram[int(count)] = histogram.get(int(count), 0) + int(counted[count])
        triggered += int((free_spins > 0).sum())
        hits += int((total > 0).sum())
        free_played += int(free_spins.sum())
        done += n
    means = {part: totals[part] / (spins * scale) for part in parts}
    mean = sum(totals.values()) / (spins * scale)
    variance = max(squares["total"] / spins - mean * mean, 0.0) * spins / max(spins - 1, 1)
    std = math.sqrt(variance)

    def std_error(part: str) -> float:
        m = means[part]
        return math.sqrt(max(squares[part] / spins - m * m, 0.0) / max(spins - 1, 1))
    return CascadeSimulationResult(
        spins=spins, seed=seed, level=level, rtp=mean, std_error=std / math.sqrt(spins),
        std=std, first_drop=means["first"], later_drops=means["later"],
        scatter=means["scatter"], free_spins=means["feature"],
        trigger_rate=triggered / spins,
        spins_per_feature=free_played / triggered if triggered else 0.0,
        cascade_counts={c: h / spins for c, h in sorted(histogram.items())},
        spins_per_second=(spins + free_played) / elapsed if elapsed > 0 else math.inf,
        component_std_errors={name: std_error(part) for name, part in zip(
            ("first_drop", "later_drops", "scatter", "free_spins"), parts)},
        hit_frequency=hits / spins,
    )


def _run_batch(rng, pair: _Pair, n: int, reset_multiplier, carried, round_states=None):
    """``n`` rounds: per round the credits of the first drop, the later drops, the scatters
    and the free spins, the paid spin's cascades and the free spins played."""
    first = np.zeros(n, np.int64)
    later = np.zeros(n, np.int64)
    scatter = np.zeros(n, np.int64)
    feature = np.zeros(n, np.int64)
    cascades = np.zeros(n, np.int64)
    free_spins = np.zeros(n, np.int64)
    rs = rng_state(rng, "cascade simulator")
    if round_states is None:
        round_states = np.zeros((0, 2), np.uint64)
    bad = _play_rounds(rs, pair, n, reset_multiplier, carried, first, later, scatter, feature,
                       cascades, free_spins, round_states)
    rng.bit_generator.state = state_dict(rs)
    if bad >= 0:
        raise ValueError(f"a cascade chain went on for more than {_MAX_DROPS} drops: the game's "
                         "chains need not end")
    return first, later, scatter, feature, cascades, free_spins


@dataclass(frozen=True)
class PairedChange:
    """Two cascade games played on the same draws round by round (:func:`paired_rounds`): the
    simulated RTP of each, the change ``rtp_b - rtp_a`` and its standard error from the
    rounds' paired differences (``std_error``), beside the one two independent runs of as
    many rounds would have (``independent_std_error``), and how many rounds paid
    differently."""

    rounds: int
    seed: int
    rtp_a: float
    rtp_b: float
    change: float
    std_error: float
    independent_std_error: float
    rounds_differing: int

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The change's interval at ``z`` standard errors (1.96: 95 %)."""
        return self.change - z * self.std_error, self.change + z * self.std_error


def _splitmix(x: np.ndarray) -> np.ndarray:
    """SplitMix64 of each uint64 (a mixing of round numbers into generator states)."""
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def _round_states(seed: int, start: int, n: int) -> np.ndarray:
    """The PCG64 state (high, low) each of rounds ``start .. start + n - 1`` starts from."""
    key = _splitmix(np.full(1, seed % (1 << 64), np.uint64))[0]
    twice = np.arange(start, start + n, dtype=np.uint64) * np.uint64(2)
    return np.stack([_splitmix(twice ^ key), _splitmix((twice + np.uint64(1)) ^ key)], axis=1)


def paired_rounds(game_a: Game, game_b: Game, rounds: int, seed: int = 0,
                  level: int = 1) -> PairedChange:
    """The RTP change from ``game_a`` to ``game_b`` (the same game with other strips, say),
    both played on the same draws round by round: each round restarts the generator from a
    state of its own (the seed and the round's number, mixed), so a round whose stops land
    alike on both games' strips pays alike, and the change's standard error comes from the
    rounds' differences only. On a small strip move that error is a fraction of two
    independent runs' (both are reported). A statistical estimate, not a bound.

    The stops are drawn as ``integers(length)``, which scales one draw to the strip's
    length: strips of different lengths land at the same relative place.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/cascades/tiny_free_spins.toml")
    >>> same = paired_rounds(g, g, 5000, seed=3)
    >>> same.change, same.std_error, same.rounds_differing
    (0.0, 0.0, 0)
    """
    if isinstance(rounds, bool) or int(rounds) != rounds or rounds < 2:
        raise ValueError(f"rounds must be a whole number >= 2, got {rounds!r}")
    pairs, scales = [], []
    for game in (game_a, game_b):
        if game.cascades is None:
            raise ValueError(f"{game.name}: the game has no [cascades]")
        base = compile_game(game, "base", level)
        free_set = compile_game(game, game.free_spins.reels, level, free=True) if (
            game.free_spins is not None) else base
        pairs.append(_pair(base, free_set))
        scales.append(base.credits_per_bet)
    rng = np.random.Generator(np.random.PCG64(seed))
    sums = np.zeros(2)
    squares = np.zeros(3)  # a, b, b - a (bets squared)
    differing, done = 0, 0
    while done < rounds:
        n = min(_BATCH, rounds - done)
        states = _round_states(seed, done, n)
        wins = []
        for pair, scale in zip(pairs, scales):
            first, later, scatter, feature, _, _ = _run_batch(
                rng, pair, n, True, np.zeros(1, np.int64), states)
            wins.append((first + later + scatter + feature) / scale)
        diff = wins[1] - wins[0]
        sums += [wins[0].sum(), wins[1].sum()]
        squares += [(wins[0] ** 2).sum(), (wins[1] ** 2).sum(), (diff ** 2).sum()]
        differing += int(np.count_nonzero(diff))
        done += n
    mean_a, mean_b = sums / rounds

    def variance(square_sum: float, mean: float) -> float:
        return max(square_sum / rounds - mean * mean, 0.0) * rounds / (rounds - 1)

    change = mean_b - mean_a
    return PairedChange(
        rounds=rounds, seed=seed, rtp_a=float(mean_a), rtp_b=float(mean_b), change=float(change),
        std_error=math.sqrt(variance(squares[2], change) / rounds),
        independent_std_error=math.sqrt((variance(squares[0], mean_a)
                                         + variance(squares[1], mean_b)) / rounds),
        rounds_differing=differing)


def simulate_rounds(game: Game, spins: int, seed: int, level: int = 1,
                    progress: bool | float = False):
    """The front door's round simulator of a cascading game (:func:`simulate_cascades`), as
    a :class:`~slotmath.simulate.monte_carlo.SimulationResult`."""
    return simulate_cascades(game, spins, seed, level).as_simulation_result(
        game.free_spins is not None)
