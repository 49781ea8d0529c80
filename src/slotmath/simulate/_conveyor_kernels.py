"""Numba kernels of the conveyor simulator (private; :mod:`slotmath.simulate.conveyor` builds
the tables and drives them).

The kernels play the same spins as the plain rules of :mod:`slotmath.model.persistent`, with
the same draws: every choice is ``Generator(PCG64(seed)).integers(total)`` over the choice's
weights, taken in the order the rules name (the reels' stops left to right, each reel's wild
row, then each activated surprise's feature and value, then the wheel's delivery; a free-spins
award first fills the free conveyor, then plays its spins). :func:`~slotmath.simulate._pcg64.draw`
is NumPy's ``integers`` on PCG64 written out (:mod:`slotmath.simulate._pcg64`), so the stream
continues exactly where NumPy's would; tests/test_conveyor_simulate.py holds the simulator to
figures recorded from the pure-Python player it replaced.

What makes it fast: a line's pay is one look-up in a table over every sequence of symbols
(built once by :func:`line_table`) by the line's code, the sum over the reels of each reel's
part, looked up per reel by its stop and wild row for all lines at once (``line_col``). The
window (symbol codes premultiplied by their reel's place value, so that a line's code is the
sum of its cells) is written out only for a spin whose spreading wilds change it, or for a
game whose table would be too large (then each line walks the pay table, :func:`line_value`).
The conveyor is an integer array of bauble codes (0: empty). A reel's stop is a look-up by
the drawn integer (binary search over cumulative weights for a reel whose weights total more
than ``STOP_TABLE``, and for the other choices). Every function below :func:`play` is
compiled without reference counts (``_nrt=False``: they allocate nothing).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from slotmath.simulate._pcg64 import draw


@njit(cache=True, _nrt=False)
def _stop(rs, t, rset, j):
    """A reel's stop: by its look-up table when it has one, else by :func:`_pick`."""
    total = t.stop_total[rset, j]
    if total:
        return t.stop_at[rset, j, draw(rs, total)]
    return _pick(rs, t.stop_cum[rset, j], t.stop_len[rset, j])


@njit(cache=True)
def picks(rs, cum, length, out):
    """``out[i]`` = a weighted choice by ``cum[:length]`` in turn (for the tests)."""
    for i in range(out.shape[0]):
        out[i] = _pick(rs, cum, length)


@njit(cache=True, _nrt=False)
def _pick(rs, cum, length):
    """A weighted choice: the first index whose cumulative weight exceeds the drawn integer
    (the rules' walk ``x < w: take it, else x -= w``)."""
    x = draw(rs, cum[length - 1])
    lo, hi = 0, length - 1
    while lo < hi:
        mid = (lo + hi) >> 1
        if cum[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return lo


# -- the tables -----------------------------------------------------------------------------
STOP_TABLE = 1 << 14  # a reel's stop weights up to this total: a look-up per drawn integer
# bauble features
SPREAD, FREE, COIN, SURPRISE = range(4)
# params
(P_N, P_CONSUME, P_MOVING, P_BET, P_CPB, P_START, P_MAXLEFT, P_ADDED, P_TABLE, P_MUTATION,
 P_COLUMNS) = range(11)
N_PARAMS = 11
# the rows of a spin's scratch array: stops, wild rows, spreading reels, a line's symbols,
# the lines' codes
B_STOP, B_WILD, B_SPREAD, B_SYMS, B_CODE = range(5)
# seeded mutations for the tests: a wrong kernel the checks must catch
MUTATIONS = {"": 0, "reversed": 1, "cross": 2}


class Tables(NamedTuple):
    """A conveyor game at one bet level as integer arrays (reel set 0: the paid spins', 1: the
    free spins'; wheel 0: the base conveyor's, 1: the free one's; bauble code 0: empty)."""

    params: np.ndarray  # int64[N_PARAMS]
    rows: np.ndarray  # int64[n]
    strips: np.ndarray  # int64[2, n, stops, rows]: each row's symbol code x power[reel]
    stop_cum: np.ndarray  # int64[2, n, stops]: cumulative stop weights
    stop_len: np.ndarray  # int64[2, n]
    stop_total: np.ndarray  # int64[2, n]: the stop weights' total where stop_at has it, else 0
    stop_at: np.ndarray  # int64[2, n, total]: the stop of each drawn integer
    wild: np.ndarray  # int64[n]: the random wild's code x power[reel]
    wild_cum: np.ndarray  # int64[n, rows + 1]: cumulative [no wild, row 1, ...] weights
    lines: np.ndarray  # int64[lines, n]: each payline's row per reel
    power: np.ndarray  # int64[n]: symbols ** (n - 1 - reel) (all 1 without line_pay): a
    # line's code is the sum of its cells
    line_pay: np.ndarray  # int64[symbols ** n] or empty: each symbol sequence's line pay
    line_col: np.ndarray  # int32[2, n, stops, rows + 1, lines] (with P_COLUMNS): reel j's
    # part of each line's code at each stop and wild row (0: none)
    member: np.ndarray  # uint8[keys, symbols]
    key_pay: np.ndarray  # int64[keys, n + 1]: credits per run length
    multiplier: np.ndarray  # int64[symbols]
    feature: np.ndarray  # int64[baubles]: SPREAD, FREE, COIN, SURPRISE (-1: empty)
    value: np.ndarray  # int64[baubles]
    wheel_cum: np.ndarray  # int64[2, entries + 1]: cumulative [empty, entry 1, ...] weights
    wheel_code: np.ndarray  # int64[2, entries + 1]: the bauble each entry delivers
    wheel_len: np.ndarray  # int64[2]
    surprise_cum: np.ndarray  # int64[features]: cumulative surprise weights
    kind_cum: np.ndarray  # int64[features, kinds]: cumulative weights of each feature's kinds
    kind_code: np.ndarray  # int64[features, kinds]
    kind_len: np.ndarray  # int64[features]
    kind_default: np.ndarray  # int64[features]: the bauble when no kind has weight


# -- line pays ------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def line_value(member, key_pay, multiplier, added, syms):
    """The highest pay-table entry's credits on one line showing ``syms`` (the rules of
    :meth:`slotmath.evaluate.window.PayModel.line_win`)."""
    best = 0
    for k in range(member.shape[0]):
        run, mult, total = 0, 1, 0
        for j in range(syms.shape[0]):
            s = syms[j]
            if not member[k, s]:
                break
            run += 1
            m = multiplier[s]
            mult *= m
            if m > 1:
                total += m
        if run:
            credits = key_pay[k, run] * (max(total, 1) if added else mult)
            best = max(best, credits)
    return best


@njit(cache=True)
def line_table(n_symbols, n, member, key_pay, multiplier, added):
    """Every symbol sequence's line pay, indexed by its code sum(s_j * n_symbols**(n-1-j))."""
    size = n_symbols**n
    out = np.empty(size, dtype=np.int64)
    syms = np.empty(n, dtype=np.int64)
    for code in range(size):
        c = code
        for j in range(n - 1, -1, -1):
            syms[j] = c % n_symbols
            c //= n_symbols
        out[code] = line_value(member, key_pay, multiplier, added, syms)
    return out


@njit(cache=True, _nrt=False)
def _lines_win(t, win, syms):
    """The window's line wins in credits."""
    total = 0
    n = t.params[P_N]
    if t.params[P_TABLE]:
        for li in range(t.lines.shape[0]):
            code = 0
            for j in range(n):
                code += win[j, t.lines[li, j]]
            total += t.line_pay[code]
    else:
        for li in range(t.lines.shape[0]):
            for j in range(n):
                syms[j] = win[j, t.lines[li, j]] // t.power[j]
            total += line_value(t.member, t.key_pay, t.multiplier, t.params[P_ADDED], syms)
    return total


# -- a spin, a paid round -------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def _surprise(rs, t):
    """What an activated surprise turns into: its feature, then that feature's value."""
    f = _pick(rs, t.surprise_cum, t.surprise_cum.shape[0])
    k = t.kind_len[f]
    if k == 0 or t.kind_cum[f, k - 1] == 0:  # a spreading wild with none on the wheel
        return t.kind_default[f]
    return t.kind_code[f, _pick(rs, t.kind_cum[f], k)]


@njit(cache=True, _nrt=False)
def _spin(rs, t, rset, slots, win, buf):
    """One spin on ``slots`` (consumed in place): (line credits, the spreads' extra line
    credits, coins, spins awarded)."""
    p = t.params
    n = p[P_N]
    stops, wild_row, spread_reel = buf[B_STOP], buf[B_WILD], buf[B_SPREAD]
    for j in range(n):
        stops[j] = _stop(rs, t, rset, j)
    for j in range(n):
        wild_row[j] = _pick(rs, t.wild_cum[j], t.rows[j] + 1) - 1
    coins, awarded, spreads = 0, 0, 0
    mutation = p[P_MUTATION]
    for j in range(n):
        slot = n - 1 - j if mutation == 1 else j
        b = slots[slot]
        if b == 0 or wild_row[j] < 0:
            continue
        if t.feature[b] == SURPRISE:
            b = _surprise(rs, t)
        f = t.feature[b]
        if f == COIN:
            coins += t.value[b]
        elif f == FREE:
            awarded += t.value[b]
        elif f == SPREAD:
            spread_reel[spreads] = j
            spreads += 1
        if p[P_CONSUME]:
            slots[slot] = 0
    columns = p[P_COLUMNS]
    if columns:  # every line's code, reel by reel, then its pay
        codes, nl = buf[B_CODE], t.lines.shape[0]
        col = t.line_col[rset, 0, stops[0], wild_row[0] + 1]
        for li in range(nl):
            codes[li] = col[li]
        for j in range(1, n):
            col = t.line_col[rset, j, stops[j], wild_row[j] + 1]
            for li in range(nl):
                codes[li] += col[li]
        plain = 0
        for li in range(nl):
            plain += t.line_pay[codes[li]]
        if spreads == 0:
            return plain, 0, coins, awarded
    for j in range(n):  # the window
        for r in range(t.rows[j]):
            win[j, r] = t.strips[rset, j, stops[j], r]
        if wild_row[j] >= 0:
            win[j, wild_row[j]] = t.wild[j]
    if not columns:
        plain = _lines_win(t, win, buf[B_SYMS, :n])
        if spreads == 0:
            return plain, 0, coins, awarded
    for i in range(spreads):
        j = spread_reel[i]
        r = wild_row[j]
        for jj in range(max(0, j - 1), min(n, j + 2)):
            for rr in range(max(0, r - 1), min(t.rows[jj], r + 2)):
                if mutation == 2 and jj != j and rr != r:  # the corners left out
                    continue
                win[jj, rr] = t.wild[jj]
    return plain, _lines_win(t, win, buf[B_SYMS, :n]) - plain, coins, awarded


@njit(cache=True, _nrt=False)
def _move(rs, t, wheel, slots):
    """Every bauble one slot to the left, the wheel's delivery into the last slot."""
    new = t.wheel_code[wheel, _pick(rs, t.wheel_cum[wheel], t.wheel_len[wheel])]
    n = slots.shape[0]
    if t.params[P_MOVING]:
        for j in range(n - 1):
            slots[j] = slots[j + 1]
        slots[n - 1] = new
    elif new != 0:  # the mutation: the new bauble lands, nothing moves
        slots[n - 1] = new


@njit(cache=True, _nrt=False)
def _free_spins(rs, t, spins, slots, win, buf):
    """``spins`` free spins on their own conveyor: their total win in total bets."""
    p = t.params
    n, start = p[P_N], p[P_START]
    for j in range(n - start):
        slots[j] = 0
    for j in range(n - start, n):
        slots[j] = t.wheel_code[1, _pick(rs, t.wheel_cum[1], t.wheel_len[1])]
    left, total = min(spins, p[P_MAXLEFT]), 0.0
    cpb, bet = p[P_CPB], p[P_BET]
    while left:
        plain, extra, coins, awarded = _spin(rs, t, 1, slots, win, buf)
        total += plain / cpb + extra / cpb + coins / bet
        left = min(left - 1 + awarded, p[P_MAXLEFT])
        _move(rs, t, 1, slots)
    return total


@njit(cache=True, _nrt=False)
def _paid_spin(rs, t, slots, free_slots, win, buf, out):
    """One paid spin and its free spins: ``out`` = (lines, spreads' extra, coins, free
    spins) in total bets; returns the spins awarded."""
    p = t.params
    plain, extra, coins, awarded = _spin(rs, t, 0, slots, win, buf)
    out[0] = plain / p[P_CPB]
    out[1] = extra / p[P_CPB]
    out[2] = coins / p[P_BET]
    _move(rs, t, 0, slots)
    out[3] = _free_spins(rs, t, awarded, free_slots, win, buf) if awarded else 0.0
    return awarded


@njit(cache=True)
def play(rs, t, slots, wins, awarded, states):
    """``wins.shape[0]`` consecutive paid spins from ``slots`` (left as the last spin left
    them): each one's parts in ``wins[i]``, its spins awarded in ``awarded[i]`` and, when
    ``states`` has rows, the conveyor it started from in ``states[i]``."""
    n = t.params[P_N]
    h = t.rows.max()
    win = np.zeros((n, h), dtype=np.int64)
    buf = np.zeros((5, max(n, t.lines.shape[0])), dtype=np.int64)
    free_slots = np.zeros(n, dtype=np.int64)
    record = states.shape[0] > 0
    for i in range(wins.shape[0]):
        if record:
            for j in range(n):
                states[i, j] = slots[j]
        awarded[i] = _paid_spin(rs, t, slots, free_slots, win, buf, wins[i])


@njit(cache=True)
def play_from_reset(rs, t, out):
    """``out.shape[0]`` sessions of ``out.shape[1]`` paid spins from the empty conveyor:
    ``out[i, s]`` the whole win of session i's spin s."""
    n = t.params[P_N]
    h = t.rows.max()
    win = np.zeros((n, h), dtype=np.int64)
    buf = np.zeros((5, max(n, t.lines.shape[0])), dtype=np.int64)
    free_slots = np.zeros(n, dtype=np.int64)
    slots = np.zeros(n, dtype=np.int64)
    parts = np.zeros(4)
    for i in range(out.shape[0]):
        slots[:] = 0
        for s in range(out.shape[1]):
            _paid_spin(rs, t, slots, free_slots, win, buf, parts)
            out[i, s] = parts[0] + parts[1] + parts[2] + parts[3]
