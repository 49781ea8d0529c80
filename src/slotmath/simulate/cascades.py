"""Seeded Monte Carlo of cascade games (issue 9): the simulator counterpart of
:mod:`slotmath.exact.cascades`, with its own numba kernel.

A round is played spin by spin exactly as the rules say (the cascade spec in the issue's
notes): the paid spin on reel set ``"base"`` drops, wins, removes its winning positions,
refills (from the strip above, or by drawing each new symbol from the reel's refill weights),
frees the frozen bonus symbols whose reels reach the threshold, and ends on a drop that wins
nothing; its scatters pay and may trigger the free spins, which play one after another on the
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

The kernel works on plain arrays (:class:`CascadeRules` + the game's pay model, compiled
by :func:`compile_tables`): it shares no code with the exact engine.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from slotmath.evaluate.window import PayModel
from slotmath.model.game import Game

_MAX_DROPS = 100_000  # a chain longer than this is taken as endless (an error, not a number)
_BATCH = 1 << 16
_NO_CAP = 1 << 60


# ---------------------------------------------------------------------------- the rules


@dataclass(frozen=True)
class MultiplierRule:
    """Value of drop ``k``: ``ladder[min(k, len - 1)]``, or ``min(start + step*k, max)``."""

    start: int = 1
    step: int = 1
    max: int | None = None
    ladder: tuple[int, ...] = ()

    def value(self, k: int) -> int:
        """Examples
        --------
        >>> MultiplierRule(1, 1).value(3), MultiplierRule(ladder=(1, 2, 5)).value(7)
        (4, 5)
        """
        if self.ladder:
            return self.ladder[min(k, len(self.ladder) - 1)]
        v = self.start + self.step * k
        return v if self.max is None else min(v, self.max)


@dataclass(frozen=True)
class CascadeRules:
    """The cascade, bonus-symbol and free-spin rules the kernel plays, as plain values.

    ``refill_weights`` maps a reel-set name to one ``{symbol: weight}`` per reel;
    ``effects`` maps a bonus symbol to ``("split", s)`` or ``("wild", symbol)``;
    ``arrangements`` is a tuple of ``(weight, symbols per reel)``.
    """

    refill: str = "strip"
    multiplier: MultiplierRule = field(default_factory=MultiplierRule)
    free_multiplier: MultiplierRule | None = None
    carry_multiplier: bool = False
    refill_weights: dict[str, tuple[dict[str, int], ...]] = field(default_factory=dict)
    threshold: int | None = None  # None: no [bonus_symbols]
    accumulate: bool = True
    effects: dict[str, tuple[str, Any]] = field(default_factory=dict)
    arrangements: tuple[tuple[int, tuple[str, ...]], ...] = ()
    shuffle: bool = True
    retrigger_awards: dict[int, int] | None = None  # None: free_spins.awards
    scatter_pays: bool = True


def _rule_from(model: Any) -> MultiplierRule:
    """A kernel rule from a :class:`slotmath.model.cascades.MultiplierRule`."""
    if model.ladder is not None:
        return MultiplierRule(ladder=tuple(int(v) for v in model.ladder))
    return MultiplierRule(int(model.start), int(model.step),
                          None if model.max is None else int(model.max))


def rules_from_game(game: Game) -> CascadeRules:
    """The :class:`CascadeRules` of a loaded game with ``[cascades]`` (read from
    ``game.cascades``, ``game.bonus_symbols`` and ``game.free_spins``)."""
    cascades = game.cascades
    if cascades is None:
        raise ValueError(f"{game.name}: the game has no [cascades]")
    bonus = game.bonus_symbols
    fs = game.free_spins
    kw: dict[str, Any] = {}
    if bonus is not None:
        effects = {name: (("wild", e.wild) if e.wild is not None else ("split", int(e.split)))
                   for name, e in bonus.effects.items()}
        kw.update(threshold=int(bonus.threshold), accumulate=bool(bonus.accumulate),
                  effects=effects, shuffle=bool(bonus.shuffle),
                  arrangements=tuple((int(w), tuple(symbols))
                                     for w, symbols in bonus.arrangements))
    if fs is not None:
        kw.update(retrigger_awards=(None if fs.retrigger_awards is None
                                    else dict(fs.retrigger_awards)),
                  scatter_pays=bool(fs.scatter_pays))
    return CascadeRules(
        refill=cascades.refill,
        multiplier=_rule_from(cascades.multiplier),
        free_multiplier=(None if cascades.free_multiplier is None
                         else _rule_from(cascades.free_multiplier)),
        carry_multiplier=bool(cascades.carry_multiplier),
        refill_weights={name: tuple(dict(t) for t in tables)
                        for name, tables in cascades.refill_weights.items()},
        **kw,
    )


# ------------------------------------------------------------------ tables for the kernel


class _ReelSetTables(NamedTuple):
    strip: np.ndarray        # [reel, max length] symbol ids
    length: np.ndarray       # [reel]
    cumulative: np.ndarray   # [reel, max length] cumulative stop weights
    refill_symbol: np.ndarray  # [reel, max table size] (random refill)
    refill_cumulative: np.ndarray
    refill_size: np.ndarray  # [reel]


class _Tables(NamedTuple):
    rows: np.ndarray            # [reel]
    ways: bool
    paylines: np.ndarray        # [line, reel]
    member: np.ndarray          # [entry, symbol] 0/1
    entry_pay: np.ndarray       # [entry, run] in total bets
    symbol_multiplier: np.ndarray
    is_scatter: np.ndarray
    scatter_index: np.ndarray   # [symbol]: index among scatters, -1
    scatter_pay: np.ndarray     # [scatter, count] in total bets
    random_refill: bool
    rule: np.ndarray            # base multiplier: [kind, start, step, cap] (kind 1: ladder)
    ladder: np.ndarray
    free_rule: np.ndarray
    free_ladder: np.ndarray
    carry: bool
    has_bonus: bool
    threshold: int
    accumulate: bool
    effect_kind: np.ndarray     # [effect]: 0 split, 1 wild
    effect_value: np.ndarray    # split factor, or the wild's symbol id
    arrangement_cumulative: np.ndarray
    arrangement: np.ndarray     # [arrangement, reel] effect ids
    shuffle: bool
    has_free: bool
    trigger: int
    awards: np.ndarray          # [count]
    retrigger: bool
    retrigger_awards: np.ndarray
    max_spins: int
    free_spin_multiplier: int
    scatter_pays: bool


def _by_count(table: dict[int, int], count: int) -> int:
    if not table:
        return 0
    top = max(table)
    return table[top] if count > top else table.get(count, 0)


def _rule_array(rule: MultiplierRule) -> tuple[np.ndarray, np.ndarray]:
    if rule.ladder:
        return (np.array([1, 0, 0, 0], np.int64), np.array(rule.ladder, np.int64))
    cap = _NO_CAP if rule.max is None else rule.max
    return np.array([0, rule.start, rule.step, cap], np.int64), np.zeros(1, np.int64)


def _reel_set_tables(game: Game, set_name: str, ids: dict[str, int],
                     rules: CascadeRules) -> _ReelSetTables:
    reels = game.reel_sets[set_name].reels
    width = max(len(r.symbols) for r in reels)
    strip = np.zeros((len(reels), width), np.int64)
    cumulative = np.zeros((len(reels), width), np.int64)
    length = np.zeros(len(reels), np.int64)
    for j, reel in enumerate(reels):
        length[j] = len(reel.symbols)
        strip[j, : len(reel.symbols)] = [ids[s] for s in reel.symbols]
        cumulative[j, : len(reel.symbols)] = np.cumsum(reel.stop_weights)
    tables = rules.refill_weights.get(set_name) if rules.refill == "random" else None
    if rules.refill == "random" and tables is None:
        raise ValueError(f"{game.name}: random refill needs cascades.refill_weights.{set_name}")
    size = max((len(t) for t in tables), default=1) if tables else 1
    refill_symbol = np.zeros((len(reels), size), np.int64)
    refill_cumulative = np.zeros((len(reels), size), np.int64)
    refill_size = np.zeros(len(reels), np.int64)
    for j, table in enumerate(tables or ()):
        items = [(s, w) for s, w in table.items() if w > 0]
        refill_size[j] = len(items)
        refill_symbol[j, : len(items)] = [ids[s] for s, _ in items]
        refill_cumulative[j, : len(items)] = np.cumsum([w for _, w in items])
    return _ReelSetTables(strip, length, cumulative, refill_symbol, refill_cumulative,
                          refill_size)


def compile_tables(game: Game, rules: CascadeRules, level: int = 1):
    """The kernel's arrays: (shared tables, base reel set, free reel set)."""
    model = PayModel(game, level)
    names = list(game.symbols)
    ids = {s: i for i, s in enumerate(names)}
    scale = model.credits_per_bet
    n_reels = game.n_reels
    member = np.zeros((len(model.keys), len(names)), np.int64)
    entry_pay = np.zeros((len(model.keys), n_reels + 1), np.float64)
    for e, key in enumerate(model.keys):
        for s in model.key_members[key]:
            member[e, ids[s]] = 1
        for count, credits in model.key_credits[key].items():
            entry_pay[e, count] = credits / scale
    scatters = list(game.scatters)
    window = sum(game.rows)
    scatter_index = np.full(len(names), -1, np.int64)
    scatter_pay = np.zeros((max(len(scatters), 1), window + 1), np.float64)
    for i, s in enumerate(scatters):
        scatter_index[ids[s]] = i
        scatter_pay[i] = [c / scale for c in model.scatter_credits[s]]
    rule, ladder = _rule_array(rules.multiplier)
    free_rule, free_ladder = _rule_array(rules.free_multiplier or rules.multiplier)
    effect_names = list(rules.effects)
    effect_kind = np.zeros(max(len(effect_names), 1), np.int64)
    effect_value = np.zeros(max(len(effect_names), 1), np.int64)
    for i, name in enumerate(effect_names):
        kind, value = rules.effects[name]
        effect_kind[i] = 1 if kind == "wild" else 0
        effect_value[i] = ids[value] if kind == "wild" else int(value)
    arrangement = np.zeros((max(len(rules.arrangements), 1), n_reels), np.int64)
    weights = [w for w, _ in rules.arrangements] or [1]
    for a, (_w, symbols) in enumerate(rules.arrangements):
        arrangement[a] = [effect_names.index(s) for s in symbols]
    fs = game.free_spins
    awards = np.zeros(window + 1, np.int64)
    retrigger_awards = np.zeros(window + 1, np.int64)
    free_set = "base"
    if fs is not None:
        free_set = fs.reels
        again = rules.retrigger_awards if rules.retrigger_awards is not None else dict(fs.awards)
        for c in range(window + 1):
            awards[c] = _by_count(dict(fs.awards), c)
            retrigger_awards[c] = _by_count(again, c)
    paylines = (np.array(game.paylines, np.int64) if game.paylines is not None
                else np.zeros((0, n_reels), np.int64))
    shared = _Tables(
        rows=np.array(game.rows, np.int64), ways=bool(game.ways), paylines=paylines,
        member=member, entry_pay=entry_pay,
        symbol_multiplier=np.array([game.symbols[s].multiplier for s in names], np.int64),
        is_scatter=np.array([game.symbols[s].scatter for s in names], np.bool_),
        scatter_index=scatter_index, scatter_pay=scatter_pay,
        random_refill=rules.refill == "random",
        rule=rule, ladder=ladder, free_rule=free_rule, free_ladder=free_ladder,
        carry=bool(rules.carry_multiplier),
        has_bonus=rules.threshold is not None, threshold=int(rules.threshold or 0),
        accumulate=bool(rules.accumulate), effect_kind=effect_kind, effect_value=effect_value,
        arrangement_cumulative=np.cumsum(np.array(weights, np.int64)),
        arrangement=arrangement, shuffle=bool(rules.shuffle),
        has_free=fs is not None, trigger=ids[fs.trigger] if fs is not None else -1,
        awards=awards, retrigger=bool(fs.retrigger) if fs is not None else False,
        retrigger_awards=retrigger_awards,
        max_spins=(fs.max_spins or _NO_CAP) if fs is not None else 0,
        free_spin_multiplier=fs.multiplier if fs is not None else 1,
        scatter_pays=bool(rules.scatter_pays),
    )
    return (shared, _reel_set_tables(game, "base", ids, rules),
            _reel_set_tables(game, free_set, ids, rules))


# ------------------------------------------------------------------------- the kernel


@njit(cache=True)
def _multiplier_value(rule, ladder, k):
    if rule[0] == 1:
        return ladder[min(k, ladder.shape[0] - 1)]
    return min(rule[1] + rule[2] * k, rule[3])


@njit(cache=True)
def _draw(rng, cumulative, size):
    """An index 0..size-1 drawn by the cumulative integer weights."""
    u = rng.integers(0, cumulative[size - 1])
    for i in range(size):
        if u < cumulative[i]:
            return i
    return size - 1


@njit(cache=True)
def _evaluate(t, eff_symbol, eff_factor, removed, counts):
    """Line or ways win (total bets) of the effective window; marks the winning positions
    (``counts``: scratch, one per reel)."""
    n_reels = t.rows.shape[0]
    removed[:, :] = False
    total = 0.0
    n_entries = t.member.shape[0]
    if t.ways:
        for e in range(n_entries):
            run = 0
            for r in range(n_reels):
                c = 0
                for i in range(t.rows[r]):
                    s = eff_symbol[r, i]
                    if t.member[e, s] == 1:
                        c += t.symbol_multiplier[s] * eff_factor[r, i]
                counts[r] = c
                if c == 0:
                    break
                run += 1
            if run == 0:
                continue
            pay = t.entry_pay[e, run]
            if pay == 0.0:
                continue
            ways = 1
            for r in range(run):
                ways *= counts[r]
            total += pay * ways
            for r in range(run):
                for i in range(t.rows[r]):
                    if t.member[e, eff_symbol[r, i]] == 1:
                        removed[r, i] = True
    else:
        n_lines = t.paylines.shape[0]
        for line in range(n_lines):
            best = 0.0
            best_run = 0
            for e in range(n_entries):
                run = 0
                mult = 1
                for r in range(n_reels):
                    s = eff_symbol[r, t.paylines[line, r]]
                    if t.member[e, s] == 0:
                        break
                    run += 1
                    mult *= t.symbol_multiplier[s]
                if run == 0:
                    continue
                pay = t.entry_pay[e, run] * mult
                if pay > best:
                    best = pay
                    best_run = run
            if best > 0.0:
                total += best  # entry_pay is in total bets already (line bet / bet)
                for r in range(best_run):
                    removed[r, t.paylines[line, r]] = True
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
def _scratch(t):
    n_reels = t.rows.shape[0]
    height = 0
    for r in range(n_reels):
        height = max(height, t.rows[r])
    return _Scratch(np.zeros((n_reels, height), np.int64), np.zeros((n_reels, height), np.int64),
                    np.ones((n_reels, height), np.int64), np.zeros((n_reels, height), np.bool_),
                    np.zeros(height, np.int64), np.zeros(n_reels, np.int64),
                    np.zeros(n_reels, np.int64), np.zeros(n_reels, np.bool_),
                    np.zeros(n_reels, np.int64), np.zeros(n_reels, np.int64),
                    np.zeros(t.scatter_pay.shape[0], np.int64))


@njit(cache=True)
def _play_spin(rng, t, rs, start_index, free, out, w):
    """One spin with its cascades (``w``: the scratch arrays). ``out``: [first, later,
    scatter pay]; returns (trigger count, cascades, final index); cascades -1: an endless
    chain."""
    n_reels = t.rows.shape[0]
    window, eff_symbol, eff_factor, removed = w.window, w.eff_symbol, w.eff_factor, w.removed
    survivors, tops, counters, freed, above = w.survivors, w.tops, w.counters, w.freed, w.above
    counters[:] = 0
    freed[:] = False
    # the stops
    for r in range(n_reels):
        stop = _draw(rng, rs.cumulative[r], rs.length[r])
        tops[r] = stop
        for i in range(t.rows[r]):
            window[r, i] = rs.strip[r, (stop + i) % rs.length[r]]
    # the bonus arrangement, shuffled (a uniform permutation: every distinct ordering of the
    # symbols is equally likely)
    if t.has_bonus:
        a = _draw(rng, t.arrangement_cumulative, t.arrangement_cumulative.shape[0])
        for r in range(n_reels):
            above[r] = t.arrangement[a, r]
        if t.shuffle:
            for r in range(n_reels - 1, 0, -1):
                j = rng.integers(0, r + 1)
                above[r], above[j] = above[j], above[r]
    if free:
        rule, ladder = t.free_rule, t.free_ladder
    else:
        rule, ladder = t.rule, t.ladder
    k = start_index
    first = 0.0
    later = 0.0
    while True:
        if t.has_bonus:
            for r in range(n_reels):
                if not freed[r]:
                    scatters = 0
                    for i in range(t.rows[r]):
                        if t.is_scatter[window[r, i]]:
                            scatters += 1
                    if counters[r] + scatters >= t.threshold:
                        freed[r] = True
        for r in range(n_reels):
            for i in range(t.rows[r]):
                s = window[r, i]
                eff_symbol[r, i] = s
                eff_factor[r, i] = 1
                if freed[r] and not t.is_scatter[s]:
                    e = above[r]
                    if t.effect_kind[e] == 1:
                        eff_symbol[r, i] = t.effect_value[e]
                    else:
                        eff_factor[r, i] = t.effect_value[e]
        win = _evaluate(t, eff_symbol, eff_factor, removed, w.reel_counts)
        drop = win * _multiplier_value(rule, ladder, k)
        if free:
            drop *= t.free_spin_multiplier
        if drop == 0.0:
            break
        if k == start_index:
            first += drop
        else:
            later += drop
        for r in range(n_reels):
            n = 0
            kept = 0
            for i in range(t.rows[r]):
                if removed[r, i]:
                    n += 1
                else:
                    survivors[kept] = window[r, i]
                    kept += 1
            if t.accumulate:
                counters[r] += n
            else:
                counters[r] = n
            for i in range(kept):
                window[r, n + i] = survivors[i]
            for i in range(n):
                if t.random_refill:
                    window[r, i] = rs.refill_symbol[r, _draw(rng, rs.refill_cumulative[r],
                                                             rs.refill_size[r])]
                else:
                    window[r, i] = rs.strip[r, (tops[r] - n + i) % rs.length[r]]
            if not t.random_refill:
                tops[r] = (tops[r] - n) % rs.length[r]
        k += 1
        if k - start_index > _MAX_DROPS:
            return 0, -1, k
    # the end of the spin: scatters
    pay = 0.0
    trigger = 0
    n_scatters = t.scatter_pay.shape[0]
    counts = w.scatter_counts
    counts[:] = 0
    for r in range(n_reels):
        for i in range(t.rows[r]):
            s = window[r, i]
            if t.scatter_index[s] >= 0:
                counts[t.scatter_index[s]] += 1
            if s == t.trigger:
                trigger += 1
    for j in range(n_scatters):
        pay += t.scatter_pay[j, counts[j]]
    if free:
        pay = pay * t.free_spin_multiplier if t.scatter_pays else 0.0
    out[0] = first
    out[1] = later
    out[2] = pay
    return trigger, k - start_index, k


@njit(cache=True)
def _play_rounds(rng, t, base, free_set, n, reset_multiplier, carried, first, later, scatter,
                 feature, cascades, free_spins):
    """Play ``n`` rounds into the output arrays. ``reset_multiplier=False`` is a deliberate
    MUTATION (the paid spin starts at the previous paid spin's final index, in
    ``carried[0]``) used only by the tests to show that they catch it. Returns -1, or the
    round whose chain was endless."""
    out = np.zeros(3, np.float64)
    w = _scratch(t)
    for m in range(n):
        start = 0 if reset_multiplier else carried[0]
        trigger, count, final_index = _play_spin(rng, t, base, start, False, out, w)
        if count < 0:
            return m
        carried[0] = final_index
        first[m] = out[0]
        later[m] = out[1]
        scatter[m] = out[2]
        cascades[m] = count
        feature[m] = 0.0
        free_spins[m] = 0
        if not t.has_free:
            continue
        left = min(t.awards[min(trigger, t.awards.shape[0] - 1)], t.max_spins)
        awarded = left
        index = final_index if t.carry else 0
        win = 0.0
        played = 0
        while left > 0:
            trig, count, end_index = _play_spin(rng, t, free_set, index, True, out, w)
            if count < 0:
                return m
            win += out[0] + out[1] + out[2]
            played += 1
            left -= 1
            if t.retrigger:
                extra = t.retrigger_awards[min(trig, t.retrigger_awards.shape[0] - 1)]
                extra = min(extra, t.max_spins - awarded)
                left += extra
                awarded += extra
            index = end_index if t.carry else 0
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
                      rules: CascadeRules | None = None,
                      _reset_multiplier: bool = True) -> CascadeSimulationResult:
    """Play ``spins`` seeded rounds of a cascade game.

    Parameters
    ----------
    game : Game
        A game with ``[cascades]`` (its rules are read by :func:`rules_from_game` unless
        ``rules`` is given).
    spins : int
        Paid rounds.
    seed : int
        Seed of the PCG64 generator.
    level : int
        Bet level.
    rules : CascadeRules, optional
        The cascade rules, when they do not come from ``game``.

    Returns
    -------
    CascadeSimulationResult
    """
    if isinstance(spins, bool) or int(spins) != spins or spins < 1:
        raise ValueError(f"spins must be a whole number >= 1, got {spins!r}")
    spins = int(spins)
    rules = rules_from_game(game) if rules is None else rules
    shared, base, free_set = compile_tables(game, rules, level)
    rng = np.random.Generator(np.random.PCG64(seed))
    carried = np.zeros(1, np.int64)
    # compile (and warm) on a throwaway generator so the timing below is the kernel's
    _run_batch(np.random.Generator(np.random.PCG64(0)), shared, base, free_set, 1,
               _reset_multiplier, np.zeros(1, np.int64))
    parts = ("first", "later", "scatter", "feature")
    totals = {"first": 0.0, "later": 0.0, "scatter": 0.0, "feature": 0.0, "sq": 0.0}
    squares = dict.fromkeys(parts, 0.0)
    histogram: dict[int, int] = {}
    triggered = 0
    hits = 0
    free_played = 0
    elapsed = 0.0
    done = 0
    while done < spins:
        n = min(_BATCH, spins - done)
        began = time.perf_counter()
        arrays = _run_batch(rng, shared, base, free_set, n, _reset_multiplier, carried)
        elapsed += time.perf_counter() - began
        first, later, scatter, feature, cascades, free_spins = arrays
        total = first + later + scatter + feature
        totals["first"] += float(first.sum())
        totals["later"] += float(later.sum())
        totals["scatter"] += float(scatter.sum())
        totals["feature"] += float(feature.sum())
        totals["sq"] += float((total * total).sum())
        for part, values in zip(parts, (first, later, scatter, feature)):
            squares[part] += float((values * values).sum())
        for count, times in zip(*np.unique(cascades, return_counts=True)):
            histogram[int(count)] = histogram.get(int(count), 0) + int(times)
        triggered += int((free_spins > 0).sum())
        hits += int((total > 0).sum())
        free_played += int(free_spins.sum())
        done += n
    mean = (totals["first"] + totals["later"] + totals["scatter"] + totals["feature"]) / spins
    variance = max(totals["sq"] / spins - mean * mean, 0.0) * spins / max(spins - 1, 1)
    std = math.sqrt(variance)

    def std_error(part: str) -> float:
        m = totals[part] / spins
        return math.sqrt(max(squares[part] / spins - m * m, 0.0) / max(spins - 1, 1))
    return CascadeSimulationResult(
        spins=spins, seed=seed, level=level, rtp=mean, std_error=std / math.sqrt(spins),
        std=std, first_drop=totals["first"] / spins, later_drops=totals["later"] / spins,
        scatter=totals["scatter"] / spins, free_spins=totals["feature"] / spins,
        trigger_rate=triggered / spins,
        spins_per_feature=free_played / triggered if triggered else 0.0,
        cascade_counts={c: h / spins for c, h in sorted(histogram.items())},
        spins_per_second=(spins + free_played) / elapsed if elapsed > 0 else math.inf,
        component_std_errors={name: std_error(part) for name, part in zip(
            ("first_drop", "later_drops", "scatter", "free_spins"), parts)},
        hit_frequency=hits / spins,
    )


def _run_batch(rng, shared, base, free_set, n, reset_multiplier, carried):
    first = np.zeros(n, np.float64)
    later = np.zeros(n, np.float64)
    scatter = np.zeros(n, np.float64)
    feature = np.zeros(n, np.float64)
    cascades = np.zeros(n, np.int64)
    free_spins = np.zeros(n, np.int64)
    bad = _play_rounds(rng, shared, base, free_set, n, reset_multiplier, carried, first,
                       later, scatter, feature, cascades, free_spins)
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
