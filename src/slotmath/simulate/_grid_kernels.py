"""Numba kernels of the grid-game simulator (private; :mod:`slotmath.simulate.grid` drives them).

Reproducible on any number of cores: the rounds are cut into fixed blocks, block ``b`` plays
with its own xoshiro256** stream seeded from ``SeedSequence(seed).spawn(n)[b]``, and the
blocks' integer sums are added in block order. The number of threads only decides which core
plays which block.

A round: the paid spin's tumble sequence on reel set 0, then the free spins it triggers on
reel set 1 (docs/game-format.md, "Grid games", spin order), every win in integer credits.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from slotmath.evaluate.grid import collapse, drop, scatter_count, strip_refill

# -- xoshiro256** (Blackman & Vigna, 2018), one stream per block ------------------------------
_U5 = np.uint64(5)
_U7 = np.uint64(7)
_U9 = np.uint64(9)
_U17 = np.uint64(17)
_U45 = np.uint64(45)
_U32 = np.uint64(32)
_U64 = np.uint64(64)
_MASK32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


@njit(cache=True)
def _rotl(x, k):
    return (x << k) | (x >> (_U64 - k))


@njit(cache=True)
def next_u64(s):
    """The next 64 random bits of stream ``s`` (uint64[4], not all zero)."""
    result = _rotl(s[1] * _U5, _U7) * _U9
    t = s[1] << _U17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], _U45)
    return result


@njit(cache=True)
def below(s, n):
    """An integer uniform on ``[0, n)`` (``1 <= n < 2**32``), without bias (Lemire, 2019)."""
    un = np.uint64(n)
    x = next_u64(s) >> _U32
    m = x * un
    low = m & _MASK32
    if low < un:
        threshold = (_TWO32 - un) % un
        while low < threshold:
            x = next_u64(s) >> _U32
            m = x * un
            low = m & _MASK32
    return np.int64(m >> _U32)


@njit(cache=True)
def pick(s, cumulative, total, count):
    """Index ``i`` with probability ``(cumulative[i] - cumulative[i-1]) / total``."""
    u = below(s, total)
    lo = 0
    hi = count - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cumulative[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


class GridTables(NamedTuple):
    """Everything the kernels read, built once per game and level by
    :func:`slotmath.simulate.grid.grid_tables` (set 0: paid spins, set 1: free spins)."""

    kind: int
    role: np.ndarray  # [S]
    pay: np.ndarray  # [S, C + 1]
    ways_multiplier: np.ndarray  # [S]
    scatter_pay: np.ndarray  # [S, W + 1]
    scatter_codes: np.ndarray  # the scatters that pay
    size_min: int
    diagonal: bool
    max_rows: int
    h_values: np.ndarray  # [n, K] heights
    h_cum: np.ndarray  # [n, K] cumulative weights
    h_count: np.ndarray  # [n]
    strips: np.ndarray  # [2, n, L]
    lengths: np.ndarray  # [2, n]
    stop_cum: np.ndarray  # [2, n, L]
    stop_total: np.ndarray  # [2, n]; 0: every stop weight 1
    first: int  # top reel's first reel (0-based), -1: none
    last: int
    top_strip: np.ndarray  # [2, T]
    top_length: np.ndarray  # [2]
    top_cum: np.ndarray  # [2, T]
    top_total: np.ndarray  # [2]
    tumble: bool
    random_refill: bool
    refill_cum: np.ndarray  # [2, n + 1, S]
    refill_total: np.ndarray  # [2, n + 1]
    max_drops: int
    rule_start: np.ndarray  # [2]
    rule_step: np.ndarray  # [2]
    rule_max: np.ndarray  # [2], -1: none
    ladder: np.ndarray  # [2, M]
    ladder_count: np.ndarray  # [2], 0: no ladder
    carry_index: bool
    m_code: int  # -1: no multiplier symbols
    m_values: np.ndarray  # [2, V]
    m_cum: np.ndarray  # [2, V]
    m_count: np.ndarray  # [2]
    m_multiply: bool
    m_carry: bool
    has_free: bool
    trigger: int
    awards: np.ndarray  # [W + 1]
    reawards: np.ndarray  # [W + 1]
    retrigger: bool
    max_spins: int  # -1: none
    free_multiplier: int
    free_scatter_pays: bool
    cap: int  # credits, -1: none
    edges: np.ndarray  # win-size band edges in credits
    credits_per_bet: int


#: integer statistics of a block, by index
RND, WIN, HITS, BASE_HITS, FIRST, LATER, MSYM, SCAT, FREE, CAPPED_OFF, TRIGGERS, FREE_SPINS, \
    CAPPED, TOP, TOP_COUNT, CUT, RETRIGGERS, OVERFLOW = range(18)
N_INT = 18
#: float statistics: sums of powers of the round win (total bets) and of each component
W2, W3, W4, FIRST2, LATER2, MSYM2, SCAT2, FREE2, CAP2 = range(9)
N_FLOAT = 9
#: the paid spin's drops are counted up to this many (the last counts this many or more)
DROPS = 32
_LIMIT = np.int64(1) << np.int64(61)


@njit(cache=True)
def _rule(t, g, index):
    if t.ladder_count[g] > 0:
        k = index if index < t.ladder_count[g] else t.ladder_count[g] - 1
        return t.ladder[g, k]
    v = t.rule_start[g] + t.rule_step[g] * index
    if t.rule_max[g] >= 0 and v > t.rule_max[g]:
        v = t.rule_max[g]
    return v


@njit(cache=True)
def _value(t, g, s):
    return t.m_values[g, pick(s, t.m_cum[g], t.m_cum[g, t.m_count[g] - 1], t.m_count[g])]


@njit(cache=True)
def _land(t, g, s, cells, heights, values, top, top_values, gaps, top_lost):
    """Draw a value for each multiplier symbol that just landed (the top ``gaps`` rows of each
    reel and the top reel's ``top_lost`` right-hand cells)."""
    if t.m_code < 0:
        return
    for j in range(heights.shape[0]):
        for r in range(gaps[j]):
            if cells[j, r] == t.m_code:
                values[j, r] = _value(t, g, s)
    if top_lost:
        for j in range(t.last + 1 - top_lost, t.last + 1):
            if top[j] == t.m_code:
                top_values[j] = _value(t, g, s)


@njit(cache=True)
def spin(t, g, free, index, s, cells, values, heights, top, top_values, positions, gaps,
         marked, top_marked, hits, credits_by, first_hits, first_credits, counts, seen, stack,
         out):
    """One spin's whole tumble sequence on reel set ``g`` from drop index ``index``; the first
    drop's pay-table hits go to ``first_hits``/``first_credits``, the later drops' to
    ``hits``/``credits_by`` (credits before any multiplier).

    ``out`` receives: 0 first drop's credits (x its drop multiplier), 1 later drops' credits,
    2 drops that won, 3 the index after the sequence, 4 the multiplier symbols' combined value
    (1 when there are none), 5 how many there are, 6 the trigger's count, 7 scatter pays
    (credits), 8 1 if the sequence was cut at ``max_drops``."""
    n = heights.shape[0]
    for j in range(n):
        if t.h_count[j] == 1:
            heights[j] = t.h_values[j, 0]
        else:
            heights[j] = t.h_values[j, pick(s, t.h_cum[j], t.h_cum[j, t.h_count[j] - 1],
                                            t.h_count[j])]
        L = t.lengths[g, j]
        if t.stop_total[g, j] == 0:
            p = below(s, L)
        else:
            p = pick(s, t.stop_cum[g, j], t.stop_total[g, j], L)
        positions[j] = p
        for r in range(heights[j]):
            cells[j, r] = t.strips[g, j, p + r]
            values[j, r] = 0
        gaps[j] = heights[j]
    top_next = 0
    top_lost = 0
    if t.first >= 0:
        T = t.top_length[g]
        if t.top_total[g] == 0:
            tp = below(s, T)
        else:
            tp = pick(s, t.top_cum[g], t.top_total[g], T)
        for j in range(t.first, t.last + 1):
            top[j] = t.top_strip[g, (tp + j - t.first) % T]
            top_values[j] = 0
        top_next = (tp + t.last + 1 - t.first) % T
        top_lost = t.last + 1 - t.first
    _land(t, g, s, cells, heights, values, top, top_values, gaps, top_lost)
    first = np.int64(0)
    later = np.int64(0)
    won = 0
    cut = 0
    while True:
        if won == 0:  # the first drop's pays apart from the later drops', for the pay table
            win = drop(t.kind, cells, heights, top, t.role, t.pay, t.ways_multiplier,
                       t.size_min, t.diagonal, marked, top_marked, first_hits, first_credits,
                       counts, seen, stack, 1)
        else:
            win = drop(t.kind, cells, heights, top, t.role, t.pay, t.ways_multiplier,
                       t.size_min, t.diagonal, marked, top_marked, hits, credits_by, counts,
                       seen, stack, 1)
        if win == 0:
            break
        m = _rule(t, g, index)
        if won == 0:
            first = win * m
        else:
            later += win * m
        won += 1
        index += 1
        if not t.tumble:
            marked[:, :] = 0
            top_marked[:] = 0
            break
        if won >= t.max_drops:
            cut = 1
            marked[:, :] = 0
            top_marked[:] = 0
            break
        top_lost = collapse(cells, heights, top, values, top_values, marked, top_marked, gaps,
                            t.first, t.last)
        if t.random_refill:
            for j in range(n):
                for r in range(gaps[j]):
                    cells[j, r] = pick(s, t.refill_cum[g, j], t.refill_total[g, j],
                                       t.refill_cum.shape[2])
            for i in range(top_lost):
                top[t.last + 1 - top_lost + i] = pick(s, t.refill_cum[g, n],
                                                      t.refill_total[g, n],
                                                      t.refill_cum.shape[2])
        else:
            top_next = strip_refill(cells, heights, top, gaps, positions, t.strips[g],
                                    t.lengths[g], top_lost, top_next, t.top_strip[g],
                                    max(t.top_length[g], 1), t.last)
        _land(t, g, s, cells, heights, values, top, top_values, gaps, top_lost)
    # the final window: multiplier symbols and scatters
    mvalue = np.int64(1)
    mcount = 0
    if t.m_code >= 0:
        mvalue = np.int64(1) if t.m_multiply else np.int64(0)
        for j in range(n):
            for r in range(heights[j]):
                if cells[j, r] == t.m_code:
                    mcount += 1
                    if t.m_multiply:
                        mvalue *= values[j, r]
                    else:
                        mvalue += values[j, r]
            if top[j] == t.m_code:
                mcount += 1
                if t.m_multiply:
                    mvalue *= top_values[j]
                else:
                    mvalue += top_values[j]
        if mcount == 0:
            mvalue = np.int64(1)
    scatter = np.int64(0)
    for i in range(t.scatter_codes.shape[0]):
        c = t.scatter_codes[i]
        k = scatter_count(cells, heights, top, c)
        scatter += t.scatter_pay[c, min(k, t.scatter_pay.shape[1] - 1)]
    trig = scatter_count(cells, heights, top, t.trigger) if t.trigger >= 0 else 0
    out[0] = first
    out[1] = later
    out[2] = won
    out[3] = index
    out[4] = mvalue
    out[5] = mcount
    out[6] = trig
    out[7] = scatter
    out[8] = cut


@njit(cache=True)
def play_block(t, s, rounds, ist, fst, bands, band_credits, band_squares, first_hits,
               first_credits, hits, credits_by, trigger_hist, drop_hist):
    """Play ``rounds`` paid rounds with stream ``s``, adding to the block's statistics."""
    n = t.h_values.shape[0]
    H = t.max_rows
    S = t.role.shape[0]
    cells = np.full((n, H), -1, np.int64)
    values = np.zeros((n, H), np.int64)
    heights = np.zeros(n, np.int64)
    top = np.full(n, -1, np.int64)
    top_values = np.zeros(n, np.int64)
    positions = np.zeros(n, np.int64)
    gaps = np.zeros(n, np.int64)
    marked = np.zeros((n, H), np.int64)
    top_marked = np.zeros(n, np.int64)
    counts = np.zeros(S, np.int64)
    seen = np.zeros((n, H), np.int64)
    stack = np.zeros(2 * n * H + 2, np.int64)
    out = np.zeros(9, np.int64)
    scratch_hits = np.zeros_like(hits)
    scratch_credits = np.zeros_like(credits_by)
    cpb = t.credits_per_bet
    nb = t.edges.shape[0]
    for _ in range(rounds):
        spin(t, 0, False, 0, s, cells, values, heights, top, top_values, positions, gaps,
             marked, top_marked, hits, credits_by, first_hits, first_credits, counts, seen,
             stack, out)
        first = out[0]
        later = out[1]
        seq = first + later
        msym = np.int64(0)
        if seq > 0 and out[5] > 0:
            msym = seq * (out[4] - 1)
        scatter = out[7]
        paid = seq + msym + scatter
        ist[CUT] += out[8]
        drop_hist[min(out[2], DROPS - 1)] += 1
        trigger_hist[min(out[6], trigger_hist.shape[0] - 1)] += 1
        free_total = np.int64(0)
        awarded = 0
        if t.has_free:
            awarded = t.awards[min(out[6], t.awards.shape[0] - 1)]
        if awarded > 0:
            ist[TRIGGERS] += 1
            if t.max_spins >= 0 and awarded > t.max_spins:
                awarded = t.max_spins
            left = awarded
            index = 0
            running = np.int64(1) if t.m_multiply else np.int64(0)
            while left > 0:
                left -= 1
                ist[FREE_SPINS] += 1
                spin(t, 1, True, index if t.carry_index else 0, s, cells, values, heights,
                     top, top_values, positions, gaps, marked, top_marked, scratch_hits,
                     scratch_credits, scratch_hits, scratch_credits, counts, seen, stack, out)
                if t.carry_index:
                    index = out[3]
                ist[CUT] += out[8]
                seq = out[0] + out[1]
                if seq > 0 and out[5] > 0:
                    if t.m_carry:
                        if t.m_multiply:
                            running *= out[4]
                        else:
                            running += out[4]
                        factor = running
                    else:
                        factor = out[4]
                    if factor > 0 and seq > _LIMIT // factor:
                        ist[OVERFLOW] += 1
                        seq = _LIMIT
                    else:
                        seq *= factor
                spin_win = seq + (out[7] if t.free_scatter_pays else 0)
                free_total += spin_win * t.free_multiplier
                if t.retrigger:
                    more = t.reawards[min(out[6], t.reawards.shape[0] - 1)]
                    if more > 0:
                        ist[RETRIGGERS] += 1
                        if t.max_spins >= 0 and awarded + more > t.max_spins:
                            more = t.max_spins - awarded
                        awarded += more
                        left += more
        win = paid + free_total
        capped_off = np.int64(0)
        if t.cap >= 0 and win > t.cap:
            capped_off = win - t.cap
            win = t.cap
            ist[CAPPED] += 1
        ist[RND] += 1
        ist[WIN] += win
        if win > 0:
            ist[HITS] += 1
        if paid > 0:
            ist[BASE_HITS] += 1
        ist[FIRST] += first
        ist[LATER] += later
        ist[MSYM] += msym
        ist[SCAT] += scatter
        ist[FREE] += free_total
        ist[CAPPED_OFF] += capped_off
        if win > ist[TOP]:
            ist[TOP] = win
            ist[TOP_COUNT] = 1
        elif win == ist[TOP]:
            ist[TOP_COUNT] += 1
        x = win / cpb
        x2 = x * x
        fst[W2] += x2
        fst[W3] += x2 * x
        fst[W4] += x2 * x2
        f = first / cpb
        fst[FIRST2] += f * f
        f = later / cpb
        fst[LATER2] += f * f
        f = msym / cpb
        fst[MSYM2] += f * f
        f = scatter / cpb
        fst[SCAT2] += f * f
        f = free_total / cpb
        fst[FREE2] += f * f
        f = capped_off / cpb
        fst[CAP2] += f * f
        b = 0
        if win > 0:
            b = 1
            while b < nb and win > t.edges[b]:
                b += 1
        bands[b] += 1
        band_credits[b] += win
        band_squares[b] += x2


@njit(parallel=True, cache=True)
def play_blocks(t, states, rounds, ist, fst, bands, band_credits, band_squares, first_hits,
                first_credits, hits, credits_by, trigger_hist, drop_hist):
    """Play block ``b`` (``rounds[b]`` rounds with stream ``states[b]``) into row ``b`` of each
    statistics array, blocks in parallel."""
    for b in prange(states.shape[0]):
        play_block(t, states[b], rounds[b], ist[b], fst[b], bands[b], band_credits[b],
                   band_squares[b], first_hits[b], first_credits[b], hits[b], credits_by[b],
                   trigger_hist[b], drop_hist[b])
