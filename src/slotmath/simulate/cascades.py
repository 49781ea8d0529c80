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
``numpy.random.Generator(numpy.random.PCG64(seed))``, passed into the kernel, used in a
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

from slotmath.evaluate.compiled import CompiledGame, compile_game, multiplier_value
from slotmath.model.game import Game

_MAX_DROPS = 100_000  # a chain longer than this is taken as endless (an error, not a number)
_BATCH = 1 << 16


# ------------------------------------------------------------------------- the kernel


@njit(cache=True)
def _draw(rng, cumulative, size):
    """An index 0..size-1 drawn by the cumulative integer weights."""
    u = rng.integers(0, cumulative[size - 1])
    for i in range(size):
        if u < cumulative[i]:
            return i
    return size - 1


@njit(cache=True)
def _evaluate(eff_symbol, eff_factor, removed, counts, rows, ways, paylines, member,
              entry_credits, symbol_multiplier):
    """Line or ways credits of the effective window (no cascade multiplier); marks the
    winning positions (``counts``: scratch, one per reel). Entry by entry, position by
    position: the plain reading of the rules."""
    n_reels = rows.shape[0]
    removed[:, :] = False
    total = 0
    n_entries = member.shape[0]
    if ways:
        for e in range(n_entries):
            run = 0
            for r in range(n_reels):
                c = 0
                for i in range(rows[r]):
                    s = eff_symbol[r, i]
                    if member[e, s] == 1:
                        c += symbol_multiplier[s] * eff_factor[r, i]
                counts[r] = c
                if c == 0:
                    break
                run += 1
            if run == 0 or entry_credits[e, run] == 0:
                continue
            n_ways = 1
            for r in range(run):
                n_ways *= counts[r]
            total += entry_credits[e, run] * n_ways
            for r in range(run):
                for i in range(rows[r]):
                    if member[e, eff_symbol[r, i]] == 1:
                        removed[r, i] = True
    else:
        for line in range(paylines.shape[0]):
            best = 0
            best_run = 0
            for e in range(n_entries):
                run = 0
                mult = 1
                for r in range(n_reels):
                    s = eff_symbol[r, paylines[line, r]]
                    if member[e, s] == 0:
                        break
                    run += 1
                    mult *= symbol_multiplier[s]
                if run == 0:
                    continue
                pay = entry_credits[e, run] * mult
                if pay > best:
                    best = pay
                    best_run = run
            if best > 0:
                total += best
                for r in range(best_run):
                    removed[r, paylines[line, r]] = True
    return total


class _Scratch(NamedTuple):
    """Work arrays of one spin, allocated once per batch (see :func:`_scratch`)."""

    window: np.ndarray
    eff_symbol: np.ndarray
    eff_factor: np.ndarray
    removed: np.ndarray
    survivors: np.ndarray
    tops: np.ndarray
    counters: np.ndarray
    freed: np.ndarray
    above: np.ndarray
    reel_counts: np.ndarray
    scatter_counts: np.ndarray


@njit(cache=True)
def _scratch(g):
    n_reels = g.rows.shape[0]
    height = g.rows.max()
    return _Scratch(np.zeros((n_reels, height), np.int64), np.zeros((n_reels, height), np.int64),
                    np.ones((n_reels, height), np.int64), np.zeros((n_reels, height), np.bool_),
                    np.zeros(height, np.int64), np.zeros(n_reels, np.int64),
                    np.zeros(n_reels, np.int64), np.zeros(n_reels, np.bool_),
                    np.zeros(n_reels, np.int64), np.zeros(n_reels, np.int64),
                    np.zeros(g.scatter_credits.shape[0], np.int64))


@njit(cache=True)
def _play_spin(rng, g, start_index, out, w):
    """One spin of the game ``g`` (paid or free, as compiled) with its cascades (``w``: the
    scratch arrays). ``out``: [first, later, scatter pay] in credits; returns (trigger count,
    cascades, final index); cascades -1: an endless chain."""
    # every field a local, read once (a field read in a loop is reference counted each time)
    rows, strips, lengths, cumulative = g.rows, g.strips, g.lengths, g.cumulative
    is_scatter, effect_wild, effect_split = g.is_scatter, g.effect_wild, g.effect_split
    refill_symbol, refill_cumulative = g.refill_symbol, g.refill_cumulative
    refill_size, random_refill = g.refill_size, g.random_refill
    multiplier, multiplier_step = g.multiplier, g.multiplier_step
    window, eff_symbol, eff_factor, removed = w.window, w.eff_symbol, w.eff_factor, w.removed
    survivors, tops, counters, freed, above = w.survivors, w.tops, w.counters, w.freed, w.above
    n_reels = rows.shape[0]
    counters[:] = 0
    freed[:] = False
    # the stops
    for r in range(n_reels):
        stop = _draw(rng, cumulative[r], lengths[r])
        tops[r] = stop
        for i in range(rows[r]):
            window[r, i] = strips[r, (stop + i) % lengths[r]]
    # the bonus arrangement, shuffled (a uniform permutation: every distinct ordering of the
    # symbols is equally likely)
    if g.has_bonus:
        a = _draw(rng, g.arrangement_cumulative, g.arrangement_cumulative.shape[0])
        for r in range(n_reels):
            above[r] = g.arrangement_effect[a, r]
        if g.shuffle:
            for r in range(n_reels - 1, 0, -1):
                j = rng.integers(0, r + 1)
                above[r], above[j] = above[j], above[r]
    k = start_index
    first = 0
    later = 0
    fall_scatter = 0  # every_fall: the scatter pays of the falls and the highest trigger
    fall_trigger = 0
    while True:
        if g.has_bonus:
            for r in range(n_reels):
                if not freed[r]:
                    scatters = 0
                    for i in range(rows[r]):
                        if is_scatter[window[r, i]]:
                            scatters += 1
                    if counters[r] + scatters >= g.threshold:
                        freed[r] = True
        for r in range(n_reels):
            for i in range(rows[r]):
                s = window[r, i]
                eff_symbol[r, i] = s
                eff_factor[r, i] = 1
                if freed[r] and not is_scatter[s]:
                    e = above[r]
                    if effect_wild[e] >= 0:
                        eff_symbol[r, i] = effect_wild[e]
                    else:
                        eff_factor[r, i] = effect_split[e]
        win = _evaluate(eff_symbol, eff_factor, removed, w.reel_counts, rows, g.ways,
                        g.paylines, g.member, g.entry_credits, g.symbol_multiplier)
        value = multiplier_value(multiplier, multiplier_step, k)
        drop = win * value * g.spin_multiplier
        scatter_won = False
        if g.every_fall:  # the scatters of this fall: pay, count and go if their count wins
            counts = w.scatter_counts
            counts[:] = 0
            for r in range(n_reels):
                for i in range(rows[r]):
                    j = g.scatter_index[window[r, i]]
                    if j >= 0:
                        counts[j] += 1
            for j in range(counts.shape[0]):
                n = counts[j]
                if g.scatter_ids[j] < 0 or not g.scatter_wins[j, n]:
                    continue
                scatter_won = True
                fall_pay = g.scatter_credits[j, n] * g.scatter_factor
                fall_scatter += fall_pay * value if g.scatter_multiplied else fall_pay
                if g.scatter_ids[j] == g.trigger and n > fall_trigger:
                    fall_trigger = n
                for r in range(n_reels):
                    for i in range(rows[r]):
                        if window[r, i] == g.scatter_ids[j]:
                            removed[r, i] = True
        if drop == 0 and not scatter_won:
            break
        if k == start_index:
            first += drop
        else:
            later += drop
        for r in range(n_reels):
            n = 0
            kept = 0
            for i in range(rows[r]):
                if removed[r, i]:
                    n += 1
                else:
                    survivors[kept] = window[r, i]
                    kept += 1
            if g.accumulate:
                counters[r] += n
            else:
                counters[r] = n
            for i in range(kept):
                window[r, n + i] = survivors[i]
            for i in range(n):
                if random_refill:
                    window[r, i] = refill_symbol[r, _draw(rng, refill_cumulative[r],
                                                          refill_size[r])]
                else:
                    window[r, i] = strips[r, (tops[r] - n + i) % lengths[r]]
            if not random_refill:
                tops[r] = (tops[r] - n) % lengths[r]
        k += 1
        if k - start_index > _MAX_DROPS:
            return 0, -1, k
    if g.every_fall:  # paid on the falls: the final window's scatters do not win
        out[0] = first
        out[1] = later
        out[2] = fall_scatter
        return fall_trigger, k - start_index, k
    # the end of the spin: scatters
    pay = 0
    trigger = 0
    counts = w.scatter_counts
    counts[:] = 0
    for r in range(n_reels):
        for i in range(rows[r]):
            s = window[r, i]
            if g.scatter_index[s] >= 0:
                counts[g.scatter_index[s]] += 1
            if s == g.trigger:
                trigger += 1
    for j in range(g.scatter_credits.shape[0]):
        pay += g.scatter_credits[j, counts[j]]
    out[0] = first
    out[1] = later
    out[2] = pay * g.scatter_factor
    return trigger, k - start_index, k


@njit(cache=True)
def _play_rounds(rng, base, free_set, n, reset_multiplier, carried, first, later, scatter,
                 feature, cascades, free_spins):
    """Play ``n`` rounds into the output arrays (credits): paid spins of ``base``, free spins
    of ``free_set`` (each a compiled game). ``reset_multiplier=False`` is a deliberate
    MUTATION (the paid spin starts at the previous paid spin's final index, in ``carried[0]``)
    used only by the tests to show that they catch it. Returns -1, or the round whose chain
    was endless."""
    out = np.zeros(3, np.int64)
    w = _scratch(base)
    has_free, awards, retrigger_awards = base.has_free, base.awards, base.retrigger_awards
    max_spins, retrigger, carry = base.max_spins, base.retrigger, base.carry
    for m in range(n):
        start = 0 if reset_multiplier else carried[0]
        trigger, count, final_index = _play_spin(rng, base, start, out, w)
        if count < 0:
            return m
        carried[0] = final_index
        first[m] = out[0]
        later[m] = out[1]
        scatter[m] = out[2]
        cascades[m] = count
        feature[m] = 0
        free_spins[m] = 0
        if not has_free:
            continue
        left = min(awards[min(trigger, awards.shape[0] - 1)], max_spins)
        awarded = left
        index = final_index if carry else 0
        win = 0
        played = 0
        while left > 0:
            trig, count, end_index = _play_spin(rng, free_set, index, out, w)
            if count < 0:
                return m
            win += out[0] + out[1] + out[2]
            played += 1
            left -= 1
            if retrigger:
                extra = retrigger_awards[min(trig, retrigger_awards.shape[0] - 1)]
                extra = min(extra, max_spins - awarded)
                left += extra
                awarded += extra
            index = end_index if carry else 0
        feature[m] = win
        free_spins[m] = played
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
    _run_batch(np.random.Generator(np.random.PCG64(0)), base, free_set, 1, _reset_multiplier,
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
        arrays = _run_batch(rng, base, free_set, n, _reset_multiplier, carried)
        elapsed += time.perf_counter() - began
        first, later, scatter, feature, cascades, free_spins = arrays
        total = first + later + scatter + feature
        for part, values in zip((*parts, "total"), (first, later, scatter, feature, total)):
            if part != "total":
                totals[part] += int(values.sum())
            in_bets = values / scale
            squares[part] += float((in_bets * in_bets).sum())
        for count, times in zip(*np.unique(cascades, return_counts=True)):
            histogram[int(count)] = histogram.get(int(count), 0) + int(times)
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


def _run_batch(rng, base: CompiledGame, free_set: CompiledGame, n: int, reset_multiplier,
               carried):
    """``n`` rounds: per round the credits of the first drop, the later drops, the scatters
    and the free spins, the paid spin's cascades and the free spins played."""
    first = np.zeros(n, np.int64)
    later = np.zeros(n, np.int64)
    scatter = np.zeros(n, np.int64)
    feature = np.zeros(n, np.int64)
    cascades = np.zeros(n, np.int64)
    free_spins = np.zeros(n, np.int64)
    bad = _play_rounds(rng, base, free_set, n, reset_multiplier, carried, first, later, scatter,
                       feature, cascades, free_spins)
    if bad >= 0:
        raise ValueError(f"a cascade chain went on for more than {_MAX_DROPS} drops: the game's "
                         "chains need not end")
    return first, later, scatter, feature, cascades, free_spins


def simulate_rounds(game: Game, spins: int, seed: int, level: int = 1,
                    progress: bool | float = False):
    """The front door's round simulator of a cascading game (:func:`simulate_cascades`), as
    a :class:`~slotmath.simulate.monte_carlo.SimulationResult`."""
    return simulate_cascades(game, spins, seed, level).as_simulation_result(
        game.free_spins is not None)
