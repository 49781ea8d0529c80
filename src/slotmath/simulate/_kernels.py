"""Numba kernels of the simulator (private; the tables they read are built in ``tables``).

Randomness never enters here as a generator: the caller draws with its
``numpy.random.Generator`` and passes raw bits or stops in, so results do not depend on
how numba splits the work between threads.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

_CHUNK = 2048  # spins per parallel work item: scratch arrays are allocated once per chunk
_SIXTEEN = np.uint64(16)
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
# Index of a 64-bit word's lowest set bit: (lowest bit * De Bruijn constant) >> 58 is unique.
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_SHIFT58 = np.uint64(58)
_BIT_INDEX = np.zeros(64, np.int64)
for _bit in range(64):
    _BIT_INDEX[((1 << _bit) * 0x03F79D71B4CB0A89 & (2**64 - 1)) >> 58] = _bit


@njit(cache=True)
def _line_pay(classes, member, class_multiplier, key_pay):
    """Highest pay-table entry of one line, classes given reel by reel (PayModel.line_win)."""
    best = 0
    for k in range(member.shape[0]):
        run = 0
        multiplier = 1
        for j in range(classes.shape[0]):
            c = classes[j]
            if member[k, c] == 0:
                break
            run += 1
            multiplier *= class_multiplier[c]
        if run > 0:
            pay = key_pay[k, run] * multiplier
            best = max(best, pay)
    return best


@njit(cache=True)
def line_pay_table(n_classes, n_reels, member, class_multiplier, key_pay):
    """Pay of every line, indexed by ``sum_j class_j * n_classes ** (n_reels - 1 - j)``."""
    size = n_classes**n_reels
    out = np.empty(size, np.int64)
    classes = np.empty(n_reels, np.int64)
    for index in range(size):
        rest = index
        for j in range(n_reels - 1, -1, -1):
            classes[j] = rest % n_classes
            rest //= n_classes
        out[index] = _line_pay(classes, member, class_multiplier, key_pay)
    return out


@njit(cache=True)
def line_pay_table_added(n_classes, n_reels, member, class_multiplier, key_pay):
    """:func:`line_pay_table` with the run's multipliers added (``line_multipliers = "add"``:
    the sum of those above 1, x1 without one), as ``PayModel.line_win``."""
    size = n_classes**n_reels
    out = np.empty(size, np.int64)
    classes = np.empty(n_reels, np.int64)
    for index in range(size):
        rest = index
        for j in range(n_reels - 1, -1, -1):
            classes[j] = rest % n_classes
            rest //= n_classes
        best = 0
        for k in range(member.shape[0]):
            run = 0
            total = 0
            for j in range(n_reels):
                c = classes[j]
                if member[k, c] == 0:
                    break
                run += 1
                if class_multiplier[c] > 1:
                    total += class_multiplier[c]
            if run > 0:
                best = max(best, key_pay[k, run] * max(total, 1))
        out[index] = best
    return out


class SpinTables(NamedTuple):
    """What the spin kernel pays with: one reel set (:class:`~slotmath.simulate.tables.ReelTables`)
    under one pay model (:class:`~slotmath.simulate.tables.PayTables`), built once by
    :func:`~slotmath.simulate.tables.spin_tables`; the fields are described there."""

    lengths: np.ndarray
    totals: np.ndarray
    thresholds: np.ndarray  # [16 or 32 bits, reel]: the row of the batch's bit width is read
    weighted: np.ndarray
    cumulative: np.ndarray
    line_part: np.ndarray
    mask_strides: np.ndarray
    mask_12: np.ndarray
    mask_23: np.ndarray
    ways_count: np.ndarray
    count_code: np.ndarray
    wheel_mask: np.ndarray | None  # None without a bonus wheel (see _spin_chunk)
    wheel_count: int
    mode: int
    pay_table: np.ndarray
    member: np.ndarray
    class_multiplier: np.ndarray
    key_pay: np.ndarray
    count_radix: int
    scatter_table: np.ndarray
    award_table: np.ndarray
    counted_credits: np.ndarray
    trigger: int
    trigger_cap: int
    awards: np.ndarray


class SpinBatch(NamedTuple):
    """One call of :func:`spin_batch`: where the stops come from, and the outputs.

    The stops come from ``bits`` if it is non-empty (``bit_width`` random bits per reel,
    spin after spin, in 16-bit words), else from ``stops`` (spin, reel). The outputs, one
    entry a spin: ``win`` (credits), ``award`` (free spins awarded), ``lines`` (bonus-wheel
    trigger lines; empty without a wheel) and ``rejected`` (the bits of some reel were
    rejected: the caller draws the spin again).
    """

    bits: np.ndarray
    bit_width: int
    stops: np.ndarray
    win: np.ndarray
    award: np.ndarray
    lines: np.ndarray
    rejected: np.ndarray


@njit(cache=True)
def _spin_chunk(start, end, t, batch, wheel_mask):
    """Pay spins ``start`` to ``end`` of ``batch`` with the tables ``t`` (see
    :func:`spin_batch`).

    ``wheel_mask`` is ``t.wheel_mask``, passed on its own so that numba can see
    that it is None (no wheel) and compile a version without the trigger-line block: games
    without a wheel run the loop they ran before the wheel existed (with a runtime branch
    instead they were ~10% slower).

    One flat loop on purpose: with helper functions in it (even inlined ones with early
    returns) numba compiled this loop several times slower.
    """
    # Every field a local, read once: read from the tuples inside the loop, each array would
    # have its reference count raised and dropped on every read (~5% slower).
    bits, bit_width, stops_in = batch.bits, batch.bit_width, batch.stops
    out_win, out_award, out_lines = batch.win, batch.award, batch.lines
    out_rejected = batch.rejected
    lengths, totals, weighted, cumulative = t.lengths, t.totals, t.weighted, t.cumulative
    mode, line_part, mask_strides = t.mode, t.line_part, t.mask_strides
    mask_12, mask_23, pay_table = t.mask_12, t.mask_23, t.pay_table
    member, class_multiplier, key_pay = t.member, t.class_multiplier, t.key_pay
    ways_count, count_code, count_radix = t.ways_count, t.count_code, t.count_radix
    scatter_table, award_table = t.scatter_table, t.award_table
    counted_credits, trigger, trigger_cap = t.counted_credits, t.trigger, t.trigger_cap
    awards, wheel_count = t.awards, t.wheel_count
    n_reels = lengths.shape[0]
    n_lines = line_part.shape[2]
    n_words = (n_lines + 63) // 64
    from_bits = bits.shape[0] > 0
    any_weighted = weighted.any()
    wide = bit_width == 32
    thresholds = t.thresholds[1 if wide else 0]
    width = np.uint64(bit_width)
    low_mask = (np.uint64(1) << width) - np.uint64(1)
    stops = np.empty(n_reels, np.int64)
    classes = np.empty(n_reels, np.int64)
    for i in range(start, end):
        # The stops. From w random bits x (w = 16, or 32 from two 16-bit words), Lemire's
        # multiply-shift: u = x * total >> w is exactly uniform on [0, total) unless the
        # low w bits of the product are below (2**w - total) % total, in which case the
        # spin is flagged and drawn again by the caller. A weighted reel stops where the
        # cumulative weight first exceeds u.
        rejected = False
        if not from_bits:
            for j in range(n_reels):
                stops[j] = stops_in[i, j]
        else:
            for j in range(n_reels):
                if wide:
                    k = 2 * (i * n_reels + j)
                    x = np.uint64(bits[k]) | (np.uint64(bits[k + 1]) << _SIXTEEN)
                else:
                    x = np.uint64(bits[i * n_reels + j])
                product = x * totals[j]
                rejected |= (product & low_mask) < thresholds[j]
                stops[j] = np.int64(product >> width)
            if any_weighted:
                for j in range(n_reels):
                    if weighted[j]:
                        u = stops[j]
                        lo = 0
                        hi = lengths[j] - 1
                        while lo < hi:
                            mid = (lo + hi) >> 1
                            if cumulative[j, mid] > u:
                                hi = mid
                            else:
                                lo = mid + 1
                        stops[j] = lo

        win = 0
        if mode == 0:  # lines, tabulated: one lookup per line that may pay
            at_12 = stops[0] * mask_strides[0] + stops[1] * mask_strides[1]
            at_23 = 0
            if n_reels >= 3:
                at_23 = stops[1] * mask_strides[2] + stops[2] * mask_strides[3]
            for word in range(n_words):
                bits_left = mask_12[at_12 + word]
                if n_reels >= 3:
                    bits_left &= mask_23[at_23 + word]
                while bits_left != _ZERO:
                    lowest = bits_left & (~bits_left + _ONE)
                    bits_left ^= lowest
                    line = word * 64 + _BIT_INDEX[(lowest * _DE_BRUIJN) >> _SHIFT58]
                    index = 0
                    for j in range(n_reels):
                        index += line_part[j, stops[j], line]
                    win += pay_table[index]
        elif mode == 1:  # lines, entry by entry
            for line in range(n_lines):
                for j in range(n_reels):
                    classes[j] = line_part[j, stops[j], line]
                win += _line_pay(classes, member, class_multiplier, key_pay)
        else:  # ways
            for k in range(ways_count.shape[2]):
                run = 0
                ways = 1
                for j in range(n_reels):
                    c = ways_count[j, stops[j], k]
                    if c == 0:
                        break
                    run += 1
                    ways *= c
                if run > 0:
                    win += key_pay[k, run] * ways

        # Scatters (and the trigger) anywhere in the window: the counts of every counted
        # symbol as the digits of one number, summed reel by reel.
        code = 0
        for j in range(n_reels):
            code += count_code[j, stops[j]]
        award = 0
        if scatter_table.shape[0] > 0:
            win += scatter_table[code]
            award = award_table[code]
        else:  # too many counted symbols for a table: digit by digit
            for s in range(counted_credits.shape[0]):
                count = code % count_radix
                code //= count_radix
                win += counted_credits[s, count]
                if s == trigger:
                    award = awards[min(count, trigger_cap)]

        # Bonus-wheel trigger lines: the lines showing the wheel symbol on each of reels
        # 1 to wheel_count, as the AND of one bit set a reel, counted bit by bit.
        if wheel_mask is not None:
            lines = 0
            for word in range(wheel_mask.shape[2]):
                common = wheel_mask[0, stops[0], word]
                for j in range(1, wheel_count):
                    common &= wheel_mask[j, stops[j], word]
                while common != _ZERO:
                    common &= common - _ONE
                    lines += 1
            out_lines[i] = lines

        out_win[i] = win
        out_award[i] = award
        out_rejected[i] = rejected


@njit(parallel=True, cache=True)
def spin_batch(tables, batch):
    """Pay the spins of ``batch`` (a :class:`SpinBatch`) with ``tables`` (a
    :class:`SpinTables`) in parallel, in chunks of ``_CHUNK``: credits, the free spins they
    award and, with a bonus wheel, the trigger lines.

    Two flat inputs, not one nested: numba's parallel loops cannot pass a tuple that holds a
    tuple of arrays ("scalar type ... given for non scalar argument"); and the tables of a
    reel set are built once, the batch every call.
    """
    n = batch.win.shape[0]
    n_chunks = (n + _CHUNK - 1) // _CHUNK
    for chunk in prange(n_chunks):
        start = chunk * _CHUNK
        _spin_chunk(start, min(n, start + _CHUNK), tables, batch, tables.wheel_mask)


@njit(cache=True)
def spin_batch_serial(tables, batch):
    """:func:`spin_batch` on one thread: for small batches, where starting threads costs
    more than the work."""
    _spin_chunk(0, batch.win.shape[0], tables, batch, tables.wheel_mask)


@njit(cache=True)
def moments(x):
    """Exact sum, sum of squared deviations from the mean (float) and count of x > 0."""
    n = x.shape[0]
    total = 0
    hits = 0
    for i in range(n):
        total += x[i]
        if x[i] > 0:
            hits += 1
    mean = total / n
    squares = 0.0
    for i in range(n):
        d = x[i] - mean
        squares += d * d
    return total, squares, hits


# -- progressive jackpots --------------------------------------------------------------------

# The laws are those of slotmath.model.hit_laws: their ids, and their scalar formulas compiled
# as they stand. Numba's cache does not notice a change to hit_laws.py: the kernels compiled
# from it are cached with this file (tests/test_hit_laws.py checks the kernel against the
# registry, and fails on a stale cache).
from slotmath.model import hit_laws

LAW_CONSTANT = hit_laws.CONSTANT.id
LAW_LINEAR = hit_laws.LINEAR.id
LAW_SATURATING = hit_laws.SATURATING.id
_constant_probability = njit(cache=True)(hit_laws.CONSTANT.formula)
_linear_probability = njit(cache=True)(hit_laws.LINEAR.formula)
_saturating_probability = njit(cache=True)(hit_laws.SATURATING.formula)


@njit(cache=True)
def hit_probability(law, a, b, pool):
    """One wheel spin's chance of a jackpot division: law ``law`` (its id in
    :mod:`slotmath.model.hit_laws`) with parameters ``a`` (and ``b``), already scaled to the
    bet level, at ``pool``."""
    if law == LAW_CONSTANT:
        return _constant_probability(a, pool)
    if law == LAW_LINEAR:
        return _linear_probability(a, pool)
    return _saturating_probability(a, b, pool)


class PoolState(NamedTuple):
    """The jackpot pools through one run, built once by
    :class:`~slotmath.simulate.jackpots.Pools`: their rules (``seed``, the contributions
    ``to_pool`` and ``to_reserve`` of a paid round in currency, the hit law ``law`` with its
    parameters ``law_a``, ``law_b`` as in :func:`hit_probability`), the run's ``spins`` rounds
    cut into ``blocks``, and what :func:`jackpot_rounds` updates in place: ``pool``,
    ``reserve`` (currency) and the hits and currency paid per pool and block
    (``block_hits``, ``block_paid``, [pool, block]). One entry a pool, in the order of
    ``game.jackpots``."""

    seed: np.ndarray
    to_pool: np.ndarray
    to_reserve: np.ndarray
    law: np.ndarray  # int64: the law's id in slotmath.model.hit_laws
    law_a: np.ndarray
    law_b: np.ndarray
    spins: int
    blocks: int
    pool: np.ndarray
    reserve: np.ndarray
    block_hits: np.ndarray
    block_paid: np.ndarray


class WheelBatch(NamedTuple):
    """One call of :func:`jackpot_rounds`: rounds ``first ..`` of the run, one entry a round
    in ``wheel_base`` and ``wheel_free`` (wheel spins of the paid spin and of its free spins),
    one a wheel spin over the whole batch in ``u`` (a uniform) and ``coin`` (the coin
    division's credits), and the outputs, one entry a round: ``paid`` (currency of its
    jackpots), ``coin_base`` and ``coin_free`` (credits of the coin divisions)."""

    first: int
    wheel_base: np.ndarray
    wheel_free: np.ndarray
    u: np.ndarray
    coin: np.ndarray
    paid: np.ndarray
    coin_base: np.ndarray
    coin_free: np.ndarray


@njit(cache=True)
def jackpot_rounds(state, batch):
    """Play the jackpot pools ``state`` (a :class:`PoolState`) through the rounds of
    ``batch`` (a :class:`WheelBatch`), in order (the pools carry over).

    Round ``i`` (round ``first + i`` of the run) first contributes ``to_pool`` and
    ``to_reserve`` to every pool, then plays its ``wheel_base[i]`` and then
    ``wheel_free[i]`` wheel spins, wheel spin ``w`` (counted over the whole batch) with the
    uniform ``u[w]``: pool j's slice is ``[sum_{i<j} p_i, sum_{i<=j} p_i)``, clipped at 1, with
    ``p_j = law_j(pool_j)``; a hit pays the pool (``paid[i]``) and restarts it at its seed
    plus the reserve, the reserve at 0; otherwise the spin pays ``coin[w]`` credits
    (``coin_base[i]`` / ``coin_free[i]``). Hits and currency paid are added up per pool and
    per block of rounds (``(first + i) * blocks // spins``).
    """
    # Every field a local, read once (as in _spin_chunk: each read from a tuple in the loop
    # would raise and drop the array's reference count).
    first, wheel_base, wheel_free = batch.first, batch.wheel_base, batch.wheel_free
    u, coin = batch.u, batch.coin
    out_paid, out_coin_base, out_coin_free = batch.paid, batch.coin_base, batch.coin_free
    seed, to_pool, to_reserve = state.seed, state.to_pool, state.to_reserve
    law, law_a, law_b = state.law, state.law_a, state.law_b
    spins, blocks = state.spins, state.blocks
    pool, reserve = state.pool, state.reserve
    block_hits, block_paid = state.block_hits, state.block_paid
    n = wheel_base.shape[0]
    n_pools = pool.shape[0]
    w = 0
    for i in range(n):
        block = (first + i) * blocks // spins
        for j in range(n_pools):
            pool[j] += to_pool[j]
            reserve[j] += to_reserve[j]
        k_base = wheel_base[i]
        for s in range(k_base + wheel_free[i]):
            x = u[w]
            edge = 0.0
            hit = -1
            for j in range(n_pools):
                edge += hit_probability(law[j], law_a[j], law_b[j], pool[j])
                if x < edge:
                    hit = j
                    break
            if hit >= 0:
                out_paid[i] += pool[hit]
                block_hits[hit, block] += 1
                block_paid[hit, block] += pool[hit]
                pool[hit] = seed[hit] + reserve[hit]
                reserve[hit] = 0.0
            elif s < k_base:
                out_coin_base[i] += coin[w]
            else:
                out_coin_free[i] += coin[w]
            w += 1
