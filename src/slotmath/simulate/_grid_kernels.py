"""Numba kernels of the grid-game simulator (private; :mod:`slotmath.simulate.grid` drives them).

Reproducible on any number of cores: the rounds are cut into fixed blocks, block ``b`` plays
with its own xoshiro256** stream seeded from ``SeedSequence(seed).spawn(n)[b]``, and the
blocks' integer sums are added in block order. The number of threads only decides which core
plays which block.

A round: the paid spin's tumble sequence on reel set 0, then the free spins it triggers on
reel set 1 (docs/game-format.md, "Grid games", spin order), every win in integer credits. The
tables and the window live in two flat arrays (:func:`slotmath.evaluate.grid.tables`), each
thread with its own copy of the tables.

What makes it fast draws nothing differently (the same seed gives the same sums, which
tests/test_grid_games.py holds to sums recorded before): a pay-anywhere game without a top
reel whose reels have one height each is dealt as packed counts (one integer per reel stop,
``tab[O_PACK]``), so a window that pays nothing and shows no multiplier symbol is never
written out; its tumbles keep the counts instead of recounting; and :func:`spin` and the
evaluators it calls are compiled without reference counts (``_nrt=False``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from slotmath.evaluate.grid import (
    K_C,
    K_CAP,
    K_CARRY,
    K_CPB,
    K_FIRST,
    K_FREEMULT,
    K_FREESCAT,
    K_H,
    K_HASFREE,
    K_HK,
    K_KIND,
    K_L,
    K_LAST,
    K_MAXDROPS,
    K_MAXSPINS,
    K_MCARRY,
    K_MCODE,
    K_MMUL,
    K_N,
    K_NEDGES,
    K_NSC,
    K_PACKB,
    K_RANDOM,
    K_RETRIG,
    K_S,
    K_T,
    K_TRIGGER,
    K_TUMBLE,
    K_V,
    K_W,
    O_AWARDS,
    O_EDGES,
    O_ENTRY,
    O_HCOUNT,
    O_HCUM,
    O_HVAL,
    O_LEN,
    O_MCOUNT,
    O_MCUM,
    O_MVAL,
    O_PACK,
    O_PAY,
    O_RCUM,
    O_REAWARDS,
    O_RTOT,
    O_SCODES,
    O_SCUM,
    O_SPAY,
    O_STOT,
    O_STRIPS,
    O_TCUM,
    O_TLEN,
    O_TSTRIP,
    O_TTOT,
    OUT_CUT,
    OUT_FIRST,
    OUT_INDEX,
    OUT_LATER,
    OUT_MCOUNT,
    OUT_MVALUE,
    OUT_SCATTER,
    OUT_TRIGGER,
    OUT_WON,
    Q_COUNTS,
    Q_END,
    Q_FCRED,
    Q_FHITS,
    Q_GAPS,
    Q_HEIGHTS,
    Q_LCRED,
    Q_LHITS,
    Q_OUT,
    Q_POS,
    Q_TOP,
    Q_TOPV,
    Q_VALUES,
    anywhere_pay,
    clear_marks,
    collapse,
    counted_finals,
    drop,
    final_counts,
    rule_value,
    strip_refill,
)

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


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << k) | (x >> (_U64 - k))


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def pick(s, tab, at, total, count):
    """Index ``i < count`` with probability ``(cum[i] - cum[i-1]) / total``, ``cum`` the
    cumulative weights at ``tab[at:]``."""
    u = below(s, total)
    lo = 0
    hi = count - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if tab[at + mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


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


@njit(cache=True, inline="always")
def _value(tab, s, g):
    count = tab[tab[O_MCOUNT] + g]
    V = tab[K_V]
    at = tab[O_MCUM] + g * V
    return tab[tab[O_MVAL] + g * V + pick(s, tab, at, tab[at + count - 1], count)]


# _land, _deal, _column and _random_refill are plain calls, not inlined into numba's IR: each
# inlined copy is typed and lowered again at every call site (the first simulation in a fresh
# process compiled ~35 s longer), and as calls they play as fast (benchmarks/bench_grid.py
# --baseline). The draws and the pay-anywhere pieces, small and hot, stay inlined.
@njit(cache=True)
def _land(tab, W, s, g, top_lost):
    """A value for each multiplier symbol that just landed (each reel's top ``gaps`` rows, the
    top reel's ``top_lost`` right-hand cells)."""
    mcode = tab[K_MCODE]
    if mcode < 0:
        return
    n, H = tab[K_N], tab[K_H]
    q_g, q_v = tab[Q_GAPS], tab[Q_VALUES]
    for j in range(n):
        for r in range(W[q_g + j]):
            if W[j * H + r] == mcode:
                W[q_v + j * H + r] = _value(tab, s, g)
    last = tab[K_LAST]
    for j in range(last + 1 - top_lost, last + 1):
        if W[tab[Q_TOP] + j] == mcode:
            W[tab[Q_TOPV] + j] = _value(tab, s, g)


@njit(cache=True)
def _deal(tab, W, s, g, count):
    """The first window of a spin on reel set ``g``: heights, stops, the top reel; returns the
    top reel's next strip index. With ``count`` (a game without a top reel) each symbol shown
    is also counted into ``W[Q_COUNTS]`` (:func:`slotmath.evaluate.grid.anywhere_count`)."""
    n, H, L, K = tab[K_N], tab[K_H], tab[K_L], tab[K_HK]
    q_h, q_p, q_g, q_v = tab[Q_HEIGHTS], tab[Q_POS], tab[Q_GAPS], tab[Q_VALUES]
    q_c = tab[Q_COUNTS]
    mcode = tab[K_MCODE]
    o_hcount, o_hval, o_hcum = tab[O_HCOUNT], tab[O_HVAL], tab[O_HCUM]
    gn = g * n
    o_len, o_stot, o_scum, o_strips = tab[O_LEN] + gn, tab[O_STOT] + gn, tab[O_SCUM], \
        tab[O_STRIPS]
    if count:
        for c in range(tab[K_S]):
            W[q_c + c] = 0
    for j in range(n):
        hc = tab[o_hcount + j]
        if hc == 1:
            h = tab[o_hval + j * K]
        else:
            at = o_hcum + j * K
            h = tab[o_hval + j * K + pick(s, tab, at, tab[at + hc - 1], hc)]
        W[q_h + j] = h
        length = tab[o_len + j]
        total = tab[o_stot + j]
        if total == 0:
            p = below(s, length)
        else:
            p = pick(s, tab, o_scum + (gn + j) * L, total, length)
        W[q_p + j] = p
        base = o_strips + (gn + j) * L + p
        cell = j * H
        for r in range(h):
            c = tab[base + r]
            W[cell + r] = c
            if count:
                W[q_c + c] += 1
            if c == mcode:
                W[q_v + cell + r] = _value(tab, s, g)
            else:
                W[q_v + cell + r] = 0
        W[q_g + j] = 0
    top_next = 0
    first, last = tab[K_FIRST], tab[K_LAST]
    if first >= 0:
        T = tab[K_T]
        tl = tab[tab[O_TLEN] + g]
        total = tab[tab[O_TTOT] + g]
        tp = below(s, tl) if total == 0 else pick(s, tab, tab[O_TCUM] + g * T, total, tl)
        for j in range(first, last + 1):
            W[tab[Q_TOP] + j] = tab[tab[O_TSTRIP] + g * T + (tp + j - first) % tl]
            W[tab[Q_TOPV] + j] = 0
        top_next = (tp + last + 1 - first) % tl
        _land(tab, W, s, g, last + 1 - first)  # (the reels' gaps are 0: their values are set)
    return top_next


@njit(cache=True)
def _column(tab, W, s, g, j, draw):
    """Copy reel ``j``'s window column from its strip at its stop ``W[Q_POS + j]``; with
    ``draw`` each multiplier symbol gets its value (in row order, as :func:`_deal` draws)."""
    H, L, n = tab[K_H], tab[K_L], tab[K_N]
    q_v, mcode = tab[Q_VALUES], tab[K_MCODE]
    base = tab[O_STRIPS] + (g * n + j) * L + W[tab[Q_POS] + j]
    cell = j * H
    for r in range(W[tab[Q_HEIGHTS] + j]):
        c = tab[base + r]
        W[cell + r] = c
        if draw and c == mcode:
            W[q_v + cell + r] = _value(tab, s, g)
        else:
            W[q_v + cell + r] = 0


@njit(cache=True, inline="always")
def _deal_packed(tab, W, s, g):
    """:func:`_deal` of a game with packed counts (``tab[K_PACKB] > 0``), the same draws in the
    same order, the cells left unwritten: returns the window's packed counts and a bit per
    reel whose column was written (those showing a multiplier symbol, whose values are drawn
    as the reel is dealt)."""
    n, L, K = tab[K_N], tab[K_L], tab[K_HK]
    q_h, q_p, q_g = tab[Q_HEIGHTS], tab[Q_POS], tab[Q_GAPS]
    o_hval, o_pack = tab[O_HVAL], tab[O_PACK]
    gn = g * n
    o_len, o_stot, o_scum = tab[O_LEN] + gn, tab[O_STOT] + gn, tab[O_SCUM]
    mcode = tab[K_MCODE]
    bits = tab[K_PACKB]
    mask = (np.int64(1) << bits) - 1
    mshift = bits * mcode if mcode >= 0 else 0
    packed = np.int64(0)
    done = np.int64(0)
    for j in range(n):
        W[q_h + j] = tab[o_hval + j * K]
        length = tab[o_len + j]
        total = tab[o_stot + j]
        if total == 0:
            p = below(s, length)
        else:
            p = pick(s, tab, o_scum + (gn + j) * L, total, length)
        W[q_p + j] = p
        W[q_g + j] = 0
        w = tab[o_pack + (gn + j) * L + p]
        packed += w
        if mcode >= 0 and (w >> mshift) & mask:
            _column(tab, W, s, g, j, True)
            done |= np.int64(1) << j
    return packed, done


@njit(cache=True)
def _random_refill(tab, W, s, g, top_lost):
    n, H, S = tab[K_N], tab[K_H], tab[K_S]
    q_g = tab[Q_GAPS]
    for j in range(n):
        at = tab[O_RCUM] + (g * (n + 1) + j) * S
        total = tab[tab[O_RTOT] + g * (n + 1) + j]
        for r in range(W[q_g + j]):
            W[j * H + r] = pick(s, tab, at, total, S)
    last = tab[K_LAST]
    at = tab[O_RCUM] + (g * (n + 1) + n) * S
    total = tab[tab[O_RTOT] + g * (n + 1) + n]
    for i in range(top_lost):
        W[tab[Q_TOP] + last + 1 - top_lost + i] = pick(s, tab, at, total, S)


@njit(cache=True, inline="always")
def _uncount_paid(tab, W):
    """A pay-anywhere drop removes every cell of each symbol it paid: their counts become 0
    (the same test as :func:`slotmath.evaluate.grid.anywhere_pay`'s)."""
    S, C = tab[K_S], tab[K_C]
    o_entry, o_pay, q_c = tab[O_ENTRY], tab[O_PAY], tab[Q_COUNTS]
    for c in range(S):
        if tab[o_entry + c]:
            k = W[q_c + c]
            if tab[o_pay + c * C + (k if k < C else C - 1)] != 0:
                W[q_c + c] = 0


@njit(cache=True, inline="always")
def _count_gaps(tab, W):
    """Count the symbols just refilled into each reel's top ``W[Q_GAPS + j]`` rows."""
    n, H = tab[K_N], tab[K_H]
    q_g, q_c = tab[Q_GAPS], tab[Q_COUNTS]
    for j in range(n):
        cell = j * H
        for r in range(W[q_g + j]):
            W[q_c + W[cell + r]] += 1


@njit(cache=True, _nrt=False)  # allocates nothing: no reference counts (evaluate.grid)
def spin(tab, W, s, g, index, weight):
    """One spin's whole tumble sequence on reel set ``g`` from drop index ``index``; the
    pay-table hits get ``weight`` (1 on the paid spin, 0 in free spins). Writes the results
    to ``W[Q_OUT + OUT_*]``."""
    # a pay-anywhere game without a top reel counts its symbols as it deals: the first drop
    # pays from those counts, and the last drop's counts are the final window's
    counted = tab[K_KIND] == 1 and tab[K_FIRST] < 0
    q = tab[Q_OUT]
    bits = tab[K_PACKB]
    if bits > 0:
        # the counts first: a window that pays nothing and shows no multiplier symbol is
        # never written out
        packed, done = _deal_packed(tab, W, s, g)
        mask = (np.int64(1) << bits) - 1
        S, C = tab[K_S], tab[K_C]
        o_entry, o_pay = tab[O_ENTRY], tab[O_PAY]
        pays = False
        for c in range(S):
            if tab[o_entry + c]:
                k = (packed >> (bits * c)) & mask
                if tab[o_pay + c * C + (k if k < C else C - 1)] != 0:
                    pays = True
                    break
        mcode = tab[K_MCODE]
        if not pays and (mcode < 0 or (packed >> (bits * mcode)) & mask == 0):
            scatter = 0
            cols = tab[K_W] + 1
            o_spay, o_scodes = tab[O_SPAY], tab[O_SCODES]
            for i in range(tab[K_NSC]):
                c = tab[o_scodes + i]
                k = (packed >> (bits * c)) & mask
                scatter += tab[o_spay + c * cols + (k if k < cols else cols - 1)]
            trigger = tab[K_TRIGGER]
            W[q + OUT_FIRST] = 0
            W[q + OUT_LATER] = 0
            W[q + OUT_WON] = 0
            W[q + OUT_INDEX] = index
            W[q + OUT_MVALUE] = 1
            W[q + OUT_MCOUNT] = 0
            W[q + OUT_TRIGGER] = (packed >> (bits * trigger)) & mask if trigger >= 0 else 0
            W[q + OUT_SCATTER] = scatter
            W[q + OUT_CUT] = 0
            return
        for j in range(tab[K_N]):
            if not (done >> j) & 1:
                _column(tab, W, s, g, j, False)
        q_c = tab[Q_COUNTS]
        for c in range(S):
            W[q_c + c] = (packed >> (bits * c)) & mask
        top_next = 0
    else:
        top_next = _deal(tab, W, s, g, counted)
    first = np.int64(0)
    later = np.int64(0)
    won = 0
    cut = 0
    tumble = tab[K_TUMBLE] != 0
    random_refill = tab[K_RANDOM] != 0
    while True:
        if counted:  # the counts are the window's (dealt, or kept through the tumble)
            win = anywhere_pay(tab, W, weight, won == 0)
        else:
            win = drop(tab, W, weight, won == 0)
        if win == 0:
            break
        m = rule_value(tab, g, index)
        if won == 0:
            first = win * m
        else:
            later += win * m
        won += 1
        index += 1
        if not tumble:
            clear_marks(tab, W)
            break
        if won >= tab[K_MAXDROPS]:
            cut = 1
            clear_marks(tab, W)
            break
        if counted:
            _uncount_paid(tab, W)
        top_lost = collapse(tab, W)
        if random_refill:
            _random_refill(tab, W, s, g, top_lost)
        else:
            top_next = strip_refill(tab, W, g, top_lost, top_next)
        if counted:
            _count_gaps(tab, W)
        _land(tab, W, s, g, top_lost)
    if counted:
        mcount, mvalue, trig, scatter = counted_finals(tab, W)
    else:
        mcount, mvalue, trig, scatter = final_counts(tab, W)
    W[q + OUT_FIRST] = first
    W[q + OUT_LATER] = later
    W[q + OUT_WON] = won
    W[q + OUT_INDEX] = index
    W[q + OUT_MVALUE] = mvalue
    W[q + OUT_MCOUNT] = mcount
    W[q + OUT_TRIGGER] = trig
    W[q + OUT_SCATTER] = scatter
    W[q + OUT_CUT] = cut


@njit(cache=True)
def _work(tab):
    W = np.zeros(tab[Q_END], np.int64)
    for i in range(tab[Q_VALUES]):
        W[i] = -1
    for j in range(tab[K_N]):
        W[tab[Q_TOP] + j] = -1
    return W


@njit(cache=True)
def play_block(tab_in, s, rounds, ist, fst, bands, band_credits, band_squares, first_hits,
               first_credits, hits, credits_by, trigger_hist, drop_hist):
    """Play ``rounds`` paid rounds with stream ``s``, adding to the block's statistics."""
    tab = tab_in.copy()  # this thread's own tables
    W = _work(tab)
    q = tab[Q_OUT]
    cpb = tab[K_CPB]
    nb = tab[K_NEDGES]
    o_edges = tab[O_EDGES]
    awards_n = tab[K_W] + 1
    has_free = tab[K_HASFREE] != 0
    max_spins = tab[K_MAXSPINS]
    carry_index = tab[K_CARRY] != 0
    m_carry = tab[K_MCARRY] != 0
    m_multiply = tab[K_MMUL] != 0
    retrigger = tab[K_RETRIG] != 0
    free_scatter = tab[K_FREESCAT] != 0
    free_multiplier = tab[K_FREEMULT]
    cap = tab[K_CAP]
    for _ in range(rounds):
        spin(tab, W, s, 0, 0, 1)
        first = W[q + OUT_FIRST]
        later = W[q + OUT_LATER]
        seq = first + later
        msym = np.int64(0)
        if seq > 0 and W[q + OUT_MCOUNT] > 0:
            msym = seq * (W[q + OUT_MVALUE] - 1)
        scatter = W[q + OUT_SCATTER]
        paid = seq + msym + scatter
        ist[CUT] += W[q + OUT_CUT]
        drop_hist[min(W[q + OUT_WON], DROPS - 1)] += 1
        trig = W[q + OUT_TRIGGER]
        trigger_hist[min(trig, trigger_hist.shape[0] - 1)] += 1
        free_total = np.int64(0)
        awarded = 0
        if has_free:
            awarded = tab[tab[O_AWARDS] + min(trig, awards_n - 1)]
        if awarded > 0:
            ist[TRIGGERS] += 1
            if max_spins >= 0 and awarded > max_spins:
                awarded = max_spins
            left = awarded
            index = 0
            running = np.int64(1) if m_multiply else np.int64(0)
            while left > 0:
                left -= 1
                ist[FREE_SPINS] += 1
                spin(tab, W, s, 1, index if carry_index else 0, 0)
                if carry_index:
                    index = W[q + OUT_INDEX]
                ist[CUT] += W[q + OUT_CUT]
                fseq = W[q + OUT_FIRST] + W[q + OUT_LATER]
                if fseq > 0 and W[q + OUT_MCOUNT] > 0:
                    if m_carry:
                        if m_multiply:
                            running *= W[q + OUT_MVALUE]
                        else:
                            running += W[q + OUT_MVALUE]
                        factor = running
                    else:
                        factor = W[q + OUT_MVALUE]
                    if factor > 0 and fseq > _LIMIT // factor:
                        ist[OVERFLOW] += 1
                        fseq = _LIMIT
                    else:
                        fseq *= factor
                spin_win = fseq + (W[q + OUT_SCATTER] if free_scatter else 0)
                free_total += spin_win * free_multiplier
                if retrigger:
                    more = tab[tab[O_REAWARDS] + min(W[q + OUT_TRIGGER], awards_n - 1)]
                    if more > 0:
                        ist[RETRIGGERS] += 1
                        if max_spins >= 0 and awarded + more > max_spins:
                            more = max_spins - awarded
                        awarded += more
                        left += more
        win = paid + free_total
        capped_off = np.int64(0)
        if cap >= 0 and win > cap:
            capped_off = win - cap
            win = cap
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
        if win > 0:
            x = win / cpb
            x2 = x * x
            fst[W2] += x2
            fst[W3] += x2 * x
            fst[W4] += x2 * x2
            if first:
                f = first / cpb
                fst[FIRST2] += f * f
            if later:
                f = later / cpb
                fst[LATER2] += f * f
            if msym:
                f = msym / cpb
                fst[MSYM2] += f * f
            if scatter:
                f = scatter / cpb
                fst[SCAT2] += f * f
            if free_total:
                f = free_total / cpb
                fst[FREE2] += f * f
            b = 1
            while b < nb and win > tab[o_edges + b]:
                b += 1
            bands[b] += 1
            band_credits[b] += win
            band_squares[b] += x2
        else:
            bands[0] += 1
        if capped_off:
            f = capped_off / cpb
            fst[CAP2] += f * f
    S, C = first_hits.shape
    for i in range(S):
        for c in range(C):
            first_hits[i, c] += W[tab[Q_FHITS] + i * C + c]
            first_credits[i, c] += W[tab[Q_FCRED] + i * C + c]
            hits[i, c] += W[tab[Q_LHITS] + i * C + c]
            credits_by[i, c] += W[tab[Q_LCRED] + i * C + c]


@njit(parallel=True, cache=True)
def play_blocks(tab, states, rounds, ist, fst, bands, band_credits, band_squares, first_hits,
                first_credits, hits, credits_by, trigger_hist, drop_hist):
    """Play block ``b`` (``rounds[b]`` rounds with stream ``states[b]``) into row ``b`` of each
    statistics array, blocks in parallel."""
    for b in prange(states.shape[0]):
        play_block(tab, states[b], rounds[b], ist[b], fst[b], bands[b], band_credits[b],
                   band_squares[b], first_hits[b], first_credits[b], hits[b], credits_by[b],
                   trigger_hist[b], drop_hist[b])
