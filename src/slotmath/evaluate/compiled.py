"""A game compiled to the arrays numba kernels read: the one home of that translation.

:func:`compile_game` turns a :class:`~slotmath.model.game.Game` at one bet level, one reel set,
played as a paid or a free spin, into a :class:`CompiledGame`: a ``NamedTuple`` of integer
arrays and scalars, in the integer credits of :class:`~slotmath.evaluate.window.PayModel`.
The exact cascade engine (:mod:`slotmath.exact.cascades`), the cascade simulator
(:mod:`slotmath.simulate.cascades`) and the base-game simulator's derived tables
(:mod:`slotmath.simulate.tables`) all start from it, so that a rule is turned into numbers once.
It holds numbers only; the code that pays a window with them stays in each engine (the
simulators are cross-checks of the exact engines, so they share no evaluation code with them).

Ids: symbol ``i`` is the ``i``-th of ``game.symbols``; pay-table entry ``k`` the ``k``-th of
``PayModel.keys``; bonus effect ``e`` the ``e``-th of ``bonus_symbols.effects``.

The multiplier of cascade index ``k`` is ``multiplier[min(k, n - 1)] + multiplier_step *
max(0, k - (n - 1))`` with ``n = len(multiplier)`` (:func:`multiplier_value`): the table holds
the rule's first :data:`MULTIPLIER_TABLE` values, and a rule ``start + step*k`` without a ceiling
goes on growing by ``multiplier_step`` after it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from slotmath.evaluate.window import PayModel
from slotmath.model.game import Game

__all__ = ["ENTRY_BITS", "MULTIPLIER_TABLE", "CompiledGame", "compile_game", "multiplier_value"]

#: Cascade indices whose multiplier is tabulated (the exact engine follows at most 250 drops).
MULTIPLIER_TABLE = 256
#: Pay-table entries a word of ``entry_bits`` holds (entry ``k``: bit ``k % 62`` of word
#: ``k // 62``).
ENTRY_BITS = 62
#: A spin count or index that is never reached (no ``max_spins``).
NO_LIMIT = 1 << 60


class CompiledGame(NamedTuple):
    """A game at one bet level and one reel set as arrays (int64 unless said otherwise)."""

    # symbols
    symbol_multiplier: np.ndarray  # [symbol]: a multiplier symbol's factor, else 1
    is_scatter: np.ndarray  # [symbol]: 1 for a scatter
    scatter_index: np.ndarray  # [symbol]: its index among the scatters, or -1
    entry_bits: np.ndarray  # [symbol, word]: bit set of its entries, 62 a word (ENTRY_BITS)
    # the pay table
    member: np.ndarray  # [entry, symbol]: 1 when the symbol counts for the entry
    entry_credits: np.ndarray  # [entry, run]: credits of a run (0..max(reels, top count))
    entry_pays: np.ndarray  # [run, word]: bit set of the entries whose run of that length pays
    # the window
    rows: np.ndarray  # [reel]
    ways: bool
    paylines: np.ndarray  # [line, reel]: the row each line reads (no lines: 0 x reels)
    line_positions: np.ndarray  # [line, reel]: reel * max(rows) + row, a flat window index
    # scatters and the counted mark
    scatter_ids: np.ndarray  # [scatter]: symbol ids ([-1] without scatters)
    scatter_credits: np.ndarray  # [scatter, count 0..window]: credits of the count
    scatter_factor: int  # scatter pays x this: 1 paid, the free-spin multiplier or 0 in free
    trigger: int  # the counted mark: the free-spin trigger (none: the first scatter), or -1
    credits_per_bet: int
    # the reel set
    strips: np.ndarray  # [reel, stop]: symbol ids, padded to the longest strip
    lengths: np.ndarray  # [reel]
    stop_weights: np.ndarray  # [reel, stop]
    cumulative: np.ndarray  # [reel, stop]: cumulative stop weights (padded with the total)
    # cascades (a game without [cascades]: strip refill, multiplier 1)
    random_refill: bool
    refill_symbol: np.ndarray  # [reel, i]: the reel's random refill symbols
    refill_weight: np.ndarray  # [reel, i]: their weights
    refill_cumulative: np.ndarray  # [reel, i]
    refill_size: np.ndarray  # [reel]
    multiplier: np.ndarray  # [index < MULTIPLIER_TABLE]: the multiplier rule (paid or free)
    multiplier_step: int  # growth past the table (a rule without ceiling), else 0
    spin_multiplier: int  # the free-spin multiplier on line/ways wins (1 in a paid spin)
    carry: bool  # free spins carry the cascade index
    every_fall: bool  # cascades.scatters = "every_fall": scatters win, pay and go on each fall
    scatter_multiplied: bool  # every_fall: a fall's scatter pay x its cascade multiplier
    scatter_wins: np.ndarray  # [scatter, count 0..window]: 1 when the count pays or awards spins
    # frozen bonus symbols (none: one ordering of no effect, threshold never reached)
    has_bonus: bool
    threshold: int
    accumulate: bool
    effect_wild: np.ndarray  # [effect]: the wild a freed reel turns into, or -1
    effect_split: np.ndarray  # [effect]: the ways each position of a freed reel counts
    ordering_effect: np.ndarray  # [ordering, reel]: every placement over the reels ...
    ordering_weight: np.ndarray  # [ordering]: ... with its integer weight
    arrangement_effect: np.ndarray  # [arrangement, reel]: the arrangements as written ...
    arrangement_cumulative: np.ndarray  # [arrangement]: ... cumulative weights ...
    shuffle: bool  # ... shuffled over the reels on each spin
    # free spins (none: no awards)
    has_free: bool
    awards: np.ndarray  # [trigger count 0..window (or the top award's)]: spins a paid spin awards
    retrigger: bool
    retrigger_awards: np.ndarray  # [trigger count]: spins awarded by a free spin
    max_spins: int


@njit(cache=True)
def multiplier_value(multiplier: np.ndarray, step: int, k: int) -> int:
    """The multiplier of cascade index ``k`` (see the module docstring), compiled.

    Examples
    --------
    >>> multiplier_value(np.array([1, 2, 3]), 1, 5), multiplier_value(np.array([1, 2, 5]), 0, 9)
    (6, 5)
    """
    n = multiplier.shape[0]
    if k < n:
        return multiplier[k]
    return multiplier[n - 1] + step * (k - (n - 1))


def _padded(rows: list[list[int]], fill: int = 0) -> np.ndarray:
    width = max([len(r) for r in rows] + [1])
    out = np.full((len(rows), width), fill, np.int64)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


def compile_game(game: Game, reel_set: str = "base", level: int = 1, *,
                 model: PayModel | None = None, free: bool = False) -> CompiledGame:
    """``game`` at ``level`` on ``reel_set`` as a :class:`CompiledGame`; ``free``: played as a
    free spin (the free-spin multiplier rule, spin multiplier and scatter pays).

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/cascades/tiny_bonus.toml")
    >>> c = compile_game(g)
    >>> c.strips.shape, int(c.lengths[2]), c.ways, int(c.ordering_weight.sum())
    ((3, 6), 6, True, 9)
    >>> [int(v) for v in c.multiplier[:4]], c.multiplier_step
    ([1, 2, 3, 4], 1)
    """
    model = model or PayModel(game, level)
    names = tuple(game.symbols)
    sid = {n: i for i, n in enumerate(names)}
    n_reels = game.n_reels
    window = sum(game.rows)
    symbols = [game.symbols[n] for n in names]

    keys = model.keys
    runs = max([n_reels] + [max(t, default=0) for t in model.key_credits.values()])
    member = np.zeros((len(keys), len(names)), np.int64)
    entry_credits = np.zeros((len(keys), runs + 1), np.int64)
    for k, key in enumerate(keys):
        member[k, [sid[m] for m in model.key_members[key]]] = 1
        for count, credits in model.key_credits[key].items():
            entry_credits[k, count] = credits
    entry_bits = np.zeros((len(names), max(1, -(-len(keys) // ENTRY_BITS))), np.int64)
    entry_pays = np.zeros((runs + 1, entry_bits.shape[1]), np.int64)
    for k in range(len(keys)):
        entry_bits[:, k // ENTRY_BITS] |= member[k] << (k % ENTRY_BITS)
        entry_pays[:, k // ENTRY_BITS] |= (entry_credits[k] > 0).astype(np.int64) << (
            k % ENTRY_BITS)

    scatters = game.scatters
    scatter_index = np.full(len(names), -1, np.int64)
    scatter_credits = np.zeros((max(1, len(scatters)), window + 1), np.int64)
    for i, s in enumerate(scatters):
        scatter_index[sid[s]] = i
        if s in model.scatter_credits:
            scatter_credits[i] = model.scatter_credits[s]
    fs = game.free_spins
    scatter_factor = 1
    if free and fs is not None:
        scatter_factor = fs.multiplier if fs.scatter_pays else 0
    trigger = sid[fs.trigger] if fs is not None else (sid[scatters[0]] if scatters else -1)
    # every_fall: a scatter count wins on a fall when it pays credits on this spin or, for the
    # trigger, awards spins (free_spins.awards in a paid spin, retrigger awards in a free one)
    scatter_wins = (scatter_credits * scatter_factor > 0).astype(np.int64)
    for i, s in enumerate(scatters):
        if fs is not None and s == fs.trigger:
            for c in range(window + 1):
                spins = (fs.retrigger_for(c) if fs.retrigger else 0) if free else fs.award_for(c)
                scatter_wins[i, c] |= int(spins > 0)

    reels = game.reel_sets[reel_set].reels
    strips = _padded([[sid[s] for s in r.symbols] for r in reels])
    stop_weights = _padded([list(r.stop_weights) for r in reels])
    cumulative = _padded([list(np.cumsum(r.stop_weights)) for r in reels])
    for j, r in enumerate(reels):
        cumulative[j, len(r.symbols):] = r.cycle

    cascades = game.cascades
    random_refill = cascades is not None and cascades.refill == "random"
    tables = cascades.refill_weights.get(reel_set) if random_refill else None
    if random_refill and tables is None:
        raise ValueError(f"{game.name}: random refill needs cascades.refill_weights.{reel_set}")
    refill = [[(sid[s], w) for s, w in t.items() if w > 0] for t in tables or ()]
    refill_symbol = _padded([[s for s, _ in t] for t in refill] or [[]])
    refill_weight = _padded([[w for _, w in t] for t in refill] or [[]])
    refill_cumulative = np.cumsum(refill_weight, axis=1)
    refill_size = np.array([len(t) for t in refill] or [0], np.int64)
    rule = cascades.rule(free) if cascades is not None else None
    multiplier = np.array([rule.value(k) if rule else 1 for k in range(MULTIPLIER_TABLE)],
                          np.int64)
    multiplier_step = rule.step if rule is not None and rule.linear else 0

    bonus = game.bonus_symbols
    if bonus is not None:
        effects = tuple(bonus.effects)
        eid = {n: i for i, n in enumerate(effects)}
        orderings = bonus.orderings()
        ordering_effect = np.array([[eid[s] for s in p] for _, p in orderings], np.int64)
        ordering_weight = np.array([w for w, _ in orderings], np.int64)
        effect_wild = np.array([sid[e.wild] if e.wild else -1 for e in bonus.effects.values()],
                               np.int64)
        effect_split = np.array([e.split for e in bonus.effects.values()], np.int64)
        arrangement_effect = np.array([[eid[s] for s in p] for _, p in bonus.arrangements],
                                      np.int64)
        arrangement_weight = [w for w, _ in bonus.arrangements]
        threshold, accumulate, shuffle = bonus.threshold, bonus.accumulate, bonus.shuffle
    else:
        ordering_effect = arrangement_effect = np.zeros((1, n_reels), np.int64)
        ordering_weight = np.ones(1, np.int64)
        effect_wild = np.full(1, -1, np.int64)
        effect_split = np.ones(1, np.int64)
        arrangement_weight = [1]
        threshold, accumulate, shuffle = 1 << 30, True, False

    counts = max([window] + (list(fs.awards) if fs is not None else [])) + 1
    paylines = (np.array(game.paylines, np.int64).reshape(-1, n_reels)
                if game.paylines is not None else np.zeros((0, n_reels), np.int64))
    awards = np.zeros(counts, np.int64)
    retrigger_awards = np.zeros(counts, np.int64)
    if fs is not None:
        awards[:] = [fs.award_for(c) for c in range(counts)]
        retrigger_awards[:] = [fs.retrigger_for(c) for c in range(counts)]

    return CompiledGame(
        symbol_multiplier=np.array([s.multiplier for s in symbols], np.int64),
        is_scatter=np.array([int(s.scatter) for s in symbols], np.int64),
        scatter_index=scatter_index, entry_bits=entry_bits, member=member,
        entry_credits=entry_credits, entry_pays=entry_pays,
        rows=np.array(game.rows, np.int64), ways=bool(game.ways),
        paylines=paylines, line_positions=paylines + np.arange(n_reels) * max(game.rows),
        scatter_ids=np.array([sid[s] for s in scatters] or [-1], np.int64),
        scatter_credits=scatter_credits, scatter_factor=int(scatter_factor),
        trigger=trigger, credits_per_bet=model.credits_per_bet,
        strips=strips, lengths=np.array([len(r.symbols) for r in reels], np.int64),
        stop_weights=stop_weights, cumulative=cumulative,
        random_refill=random_refill, refill_symbol=refill_symbol, refill_weight=refill_weight,
        refill_cumulative=refill_cumulative, refill_size=refill_size,
        multiplier=multiplier, multiplier_step=int(multiplier_step),
        spin_multiplier=fs.multiplier if (free and fs is not None) else 1,
        carry=bool(cascades is not None and cascades.carry_multiplier),
        every_fall=bool(cascades is not None and cascades.scatters == "every_fall"),
        scatter_multiplied=bool(cascades is not None and cascades.scatter_multiplied),
        scatter_wins=scatter_wins,
        has_bonus=bonus is not None, threshold=int(threshold), accumulate=bool(accumulate),
        effect_wild=effect_wild, effect_split=effect_split, ordering_effect=ordering_effect,
        ordering_weight=ordering_weight, arrangement_effect=arrangement_effect,
        arrangement_cumulative=np.cumsum(np.array(arrangement_weight, np.int64)),
        shuffle=bool(shuffle), has_free=fs is not None, awards=awards,
        retrigger=bool(fs is not None and fs.retrigger), retrigger_awards=retrigger_awards,
        max_spins=int(fs.max_spins or NO_LIMIT) if fs is not None else 0,
    )
