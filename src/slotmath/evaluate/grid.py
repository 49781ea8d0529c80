"""What one drop of a grid game pays, and how a tumble moves its window: compiled arrays and
small numba evaluators, shared by the exact enumeration engine and the simulator.

The rules are those of docs/game-format.md ("Grid games"); the independent references in
``tests/grid_reference.py`` are written from that text alone and share nothing with this.

A window is held as ``cells[reel, row]`` (row 0 at the top, ``heights[reel]`` rows used) of
symbol codes, ``top[reel]`` (the top reel's cell above a covered reel, -1 elsewhere) and, with
multiplier symbols, the value each one landed with (``values``, ``top_values``). Credits are
integers: ``credits_per_bet`` credits are one total bet, so every pay, drop multiplier and
multiplier-symbol value keeps a win a whole number of credits.

Examples
--------
>>> import numpy as np, slotmath
>>> m = GridModel(slotmath.load_game("tests/data/grid/anywhere_tiny.toml"))
>>> m.kind, m.names[:3], m.credits_per_bet
('anywhere', ('A', 'B', 'S'), 1)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numba import njit

from slotmath.model.game import Game

__all__ = ["BLANK", "HEADER", "KINDS", "MULTIPLIER", "PAYS", "SCATTER", "WILD", "GridModel",
           "Window", "anywhere_count", "anywhere_pay", "clear_marks", "collapse",
           "counted_finals", "drop", "extended", "final_counts",
           "rule_value", "scatter_count", "strip_refill", "tables", "work"]

#: a symbol's role in a grid game
BLANK, PAYS, WILD, SCATTER, MULTIPLIER = 0, 1, 2, 3, 4
#: the pay kinds, by their code in the kernels
KINDS = ("ways", "anywhere", "cluster")


def _lcm(a: int, b: int) -> int:
    return a * b // math.gcd(a, b)


@dataclass(frozen=True, eq=False)
class GridModel:
    """The pay rules of a grid game at one bet level, as integer arrays.

    Attributes
    ----------
    kind : str
        ``"ways"``, ``"anywhere"`` or ``"cluster"``.
    names : tuple of str
        Symbol names by code.
    role : int array [S]
        :data:`BLANK`, :data:`PAYS`, :data:`WILD`, :data:`SCATTER` or :data:`MULTIPLIER`.
    pay : int64 array [S, C + 1]
        Credits by count: ways per way by run length (1..reels); anywhere by count and cluster
        by size, each count paying the entry of the highest listed count it reaches.
    ways_multiplier : int64 array [S]
        Ways a cell showing the symbol counts (its ``multiplier``).
    scatter_pay : int64 array [S, W + 1]
        A scatter's credits by its count in the window (the scatter rule: above the top listed
        count pays the top, between listed counts nothing).
    credits_per_bet : int
    """

    game: Game
    level: int = 1

    def __post_init__(self):
        game, level = self.game, self.level
        grid = game.grid
        names = tuple(game.symbols)
        code = {n: i for i, n in enumerate(names)}
        m = game.multipliers
        role = np.zeros(len(names), np.int64)
        for i, n in enumerate(names):
            s = game.symbols[n]
            if m is not None and n == m.symbol:
                role[i] = MULTIPLIER
            elif s.wild:
                role[i] = WILD
            elif s.scatter:
                role[i] = SCATTER
            elif s.pays or s.level_pays:
                role[i] = PAYS
        window = grid.window_cells
        top_count = grid.n_reels if grid.pays == "ways" else window
        pays = {}  # name -> {count: pay in total bets}
        for n in names:
            s = game.symbols[n]
            if s.scatter:
                continue
            counts = set(s.pays) | {c for col in s.level_pays.values() for c in col}
            if not counts:
                continue
            per = {}
            for c in counts:
                p = s.pay_at(c, level) / level  # level-1 units
                per[c] = p / game.bet if grid.pays == "ways" else p
            pays[n] = per
        scat = {n: {c: game.scatter_pay(n, c, level) for c in range(window + 1)}
                for n in names if game.symbols[n].scatter}
        denominator = 1
        for table in (*pays.values(), *scat.values()):
            for p in table.values():
                denominator = _lcm(denominator, Fraction(p).denominator)
        cpb = denominator
        pay = np.zeros((len(names), top_count + 1), np.int64)
        for n, per in pays.items():
            listed = sorted(per)
            for c in range(1, top_count + 1):
                if grid.pays == "ways":
                    value = per.get(c, 0)
                else:  # the highest listed count reached
                    reached = [k for k in listed if k <= c]
                    value = per[reached[-1]] if reached else 0
                pay[code[n], c] = int(Fraction(value) * cpb)
        scatter_pay = np.zeros((len(names), window + 1), np.int64)
        for n, per in scat.items():
            for c, p in per.items():
                scatter_pay[code[n], c] = int(Fraction(p) * cpb)
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "kind", grid.pays)
        object.__setattr__(self, "kind_code", KINDS.index(grid.pays))
        object.__setattr__(self, "role", role)
        object.__setattr__(self, "pay", pay)
        object.__setattr__(self, "ways_multiplier", np.array(
            [game.symbols[n].multiplier for n in names], np.int64))
        object.__setattr__(self, "scatter_pay", scatter_pay)
        object.__setattr__(self, "credits_per_bet", cpb)
        object.__setattr__(self, "window", window)
        diagonal = grid.adjacency == "diagonal"
        object.__setattr__(self, "diagonal", diagonal)
        object.__setattr__(self, "cluster_size", grid.cluster_size)
        object.__setattr__(self, "n_reels", grid.n_reels)
        object.__setattr__(self, "max_rows", max(grid.max_rows))

    @property
    def counted(self) -> int:
        """The code of the symbol whose final count a spin reports: the free-spin trigger, or
        else the game's only scatter (-1: none)."""
        fs = self.game.free_spins
        if fs is not None:
            return self.code[fs.trigger]
        scatters = [i for i, n in enumerate(self.names) if self.game.symbols[n].scatter]
        return scatters[0] if len(scatters) == 1 else -1

    def entries(self) -> list[tuple[str, int, int]]:
        """Every (symbol, count, credits) with a pay, as the pay table lists them."""
        out = []
        for i, n in enumerate(self.names):
            for c in range(1, self.pay.shape[1]):
                if self.pay[i, c] and (self.kind == "ways" or c == 1 or
                                       self.pay[i, c] != self.pay[i, c - 1]):
                    out.append((n, c, int(self.pay[i, c])))
        return out


# -- the flat layout ----------------------------------------------------------------------------
#
# The kernels read every table from one int64 array ``tab`` and keep every scratch value in one
# int64 array ``W`` (a numba function handed many arrays pays a reference count per array per
# call: two arrays keep a spin's calls cheap, and each thread copies ``tab`` so that threads
# never touch the same counts). ``tab[:HEADER]`` holds the sizes, flags and offsets below.

# sizes and flags
K_KIND, K_N, K_H, K_S, K_C, K_W, K_SIZE, K_DIAG, K_FIRST, K_LAST, K_TUMBLE, K_RANDOM, \
    K_MAXDROPS, K_CARRY, K_MCODE, K_MMUL, K_MCARRY, K_HASFREE, K_TRIGGER, K_RETRIG, \
    K_MAXSPINS, K_FREEMULT, K_FREESCAT, K_CAP, K_CPB, K_NEDGES, K_HK, K_L, K_T, K_V, K_LADDER, \
    K_NSC = range(32)
# offsets of the tables in ``tab``
O_ROLE, O_ENTRY, O_PAY, O_WMULT, O_SPAY, O_SCODES, O_HVAL, O_HCUM, O_HCOUNT, O_STRIPS, O_LEN, \
    O_SCUM, O_STOT, O_TSTRIP, O_TLEN, O_TCUM, O_TTOT, O_RCUM, O_RTOT, O_RULE, O_LADDER, O_MVAL, \
    O_MCUM, O_MCOUNT, O_AWARDS, O_REAWARDS, O_EDGES = range(32, 59)
# offsets of the scratch values in ``W`` (cells at 0)
Q_VALUES, Q_MARKED, Q_SEEN, Q_HEIGHTS, Q_TOP, Q_TOPV, Q_POS, Q_GAPS, Q_TOPM, Q_COUNTS, \
    Q_STACK, Q_OUT, Q_FHITS, Q_FCRED, Q_LHITS, Q_LCRED, Q_END = range(59, 76)
#: the packed window counts (simulator): bits per symbol's lane (0: not packed), their offset
K_PACKB, O_PACK = 76, 77
#: the scratch list of a cluster's cells (in ``W``)
Q_LIST = 78
HEADER = 80
#: what :func:`spin`-like players write to ``W[tab[Q_OUT] + i]``
OUT_FIRST, OUT_LATER, OUT_WON, OUT_INDEX, OUT_MVALUE, OUT_MCOUNT, OUT_TRIGGER, OUT_SCATTER, \
    OUT_CUT, OUT_TOPNEXT = range(10)


def tables(model: GridModel, sets: tuple[str, ...] = ("base",), edges=()) -> np.ndarray:
    """The flat table array of ``model``'s game on reel sets ``sets`` (set ``g`` is
    ``sets[g]``; the free-spin rules, values and awards apply to set 1), with win-size band
    ``edges`` in credits."""
    game, level = model.game, model.level
    grid, code = game.grid, model.code
    n, H, S = grid.n_reels, max(grid.max_rows), len(model.names)
    C = model.pay.shape[1]
    Wc = model.window
    sets = tuple(sets)
    G = len(sets)
    parts: dict[int, np.ndarray] = {}
    head = np.zeros(HEADER, np.int64)

    def put(slot, arr):
        parts[slot] = np.ascontiguousarray(np.asarray(arr, np.int64).ravel())

    put(O_ROLE, model.role)
    entry = [(model.role[i] == PAYS) or (model.role[i] == WILD and model.pay[i].any())
             for i in range(S)]
    put(O_ENTRY, entry)
    put(O_PAY, model.pay)
    put(O_WMULT, model.ways_multiplier)
    put(O_SPAY, model.scatter_pay)
    scodes = [i for i in range(S) if model.scatter_pay[i].any()]
    put(O_SCODES, scodes or [0])
    K = max(len(law.heights) for law in grid.heights)
    hval = np.zeros((n, K), np.int64)
    hcum = np.zeros((n, K), np.int64)
    for j, law in enumerate(grid.heights):
        hval[j, :len(law.heights)] = law.heights
        hcum[j, :len(law.heights)] = np.cumsum([law.weights[h] for h in law.heights])
    put(O_HVAL, hval)
    put(O_HCUM, hcum)
    put(O_HCOUNT, [len(law.heights) for law in grid.heights])
    strips = [[[code[x] for x in r.symbols] for r in game.reel_sets[name].reels]
              for name in sets]
    L = max(len(r) for st in strips for r in st) + H
    sarr = np.zeros((G, n, L), np.int64)
    scum = np.zeros((G, n, L), np.int64)
    lens = np.zeros((G, n), np.int64)
    stot = np.zeros((G, n), np.int64)
    for g, name in enumerate(sets):
        ext, _ = extended(strips[g], H)
        sarr[g, :, :ext.shape[1]] = ext
        for j, reel in enumerate(game.reel_sets[name].reels):
            lens[g, j] = len(reel)
            if reel.weights is not None and len(set(reel.weights)) > 1:
                scum[g, j, :len(reel)] = np.cumsum(reel.weights)
                stot[g, j] = sum(reel.weights)
    put(O_STRIPS, sarr)
    put(O_SCUM, scum)
    put(O_LEN, lens)
    put(O_STOT, stot)
    top = grid.top_reel
    T = max((len(top.strips[name]) for name in sets), default=1) if top else 1
    tstrip = np.zeros((G, T), np.int64)
    tcum = np.zeros((G, T), np.int64)
    tlen = np.ones(G, np.int64)
    ttot = np.zeros(G, np.int64)
    if top is not None:
        for g, name in enumerate(sets):
            reel = top.strips[name]
            tstrip[g, :len(reel)] = [code[x] for x in reel.symbols]
            tlen[g] = len(reel)
            if reel.weights is not None and len(set(reel.weights)) > 1:
                tcum[g, :len(reel)] = np.cumsum(reel.weights)
                ttot[g] = sum(reel.weights)
    put(O_TSTRIP, tstrip)
    put(O_TCUM, tcum)
    put(O_TLEN, tlen)
    put(O_TTOT, ttot)
    t = game.tumbles
    rcum = np.zeros((G, n + 1, S), np.int64)
    rtot = np.ones((G, n + 1), np.int64)
    if t is not None and t.refill == "random":
        for g, name in enumerate(sets):
            for j, table in enumerate(t.refill_weights[name]):
                w = np.zeros(S, np.int64)
                for sym, x in table.items():
                    w[code[sym]] = x
                rcum[g, j] = np.cumsum(w)
                rtot[g, j] = w.sum()
    put(O_RCUM, rcum)
    put(O_RTOT, rtot)
    rule = np.zeros((G, 4), np.int64)  # start, step, max (-1 none), ladder length (0 none)
    ladders = [[1]] * G
    for g in range(G):
        r = t.rule(g == 1) if t is not None else None
        if r is None:
            rule[g] = (1, 0, -1, 0)
        elif r.ladder is not None:
            rule[g] = (1, 0, -1, len(r.ladder))
            ladders[g] = list(r.ladder)
        else:
            rule[g] = (r.start, r.step, -1 if r.max is None else r.max, 0)
    M = max(len(x) for x in ladders)
    ladder = np.ones((G, M), np.int64)
    for g, x in enumerate(ladders):
        ladder[g, :len(x)] = x
    put(O_RULE, rule)
    put(O_LADDER, ladder)
    m = game.multipliers
    mtabs = [m.table(g == 1) if m is not None else {1: 1} for g in range(G)]
    V = max(sum(1 for w in tab.values() if w) for tab in mtabs)
    mval = np.ones((G, V), np.int64)
    mcum = np.zeros((G, V), np.int64)
    mcount = np.zeros(G, np.int64)
    for g, tab in enumerate(mtabs):
        live = [(v, w) for v, w in tab.items() if w]
        mval[g, :len(live)] = [v for v, _ in live]
        mcum[g, :len(live)] = np.cumsum([w for _, w in live])
        mcount[g] = len(live)
    put(O_MVAL, mval)
    put(O_MCUM, mcum)
    put(O_MCOUNT, mcount)
    fs = game.free_spins
    awards = np.zeros(Wc + 1, np.int64)
    reawards = np.zeros(Wc + 1, np.int64)
    if fs is not None:
        for c in range(Wc + 1):
            awards[c] = fs.award_for(c)
            reawards[c] = fs.retrigger_for(c)
    put(O_AWARDS, awards)
    put(O_REAWARDS, reawards)
    put(O_EDGES, list(edges) or [0])
    cap = game.cap_coins(level)
    cpb = model.credits_per_bet
    values = {
        K_KIND: model.kind_code, K_N: n, K_H: H, K_S: S, K_C: C, K_W: Wc,
        K_SIZE: model.cluster_size, K_DIAG: int(model.diagonal),
        K_FIRST: top.first - 1 if top else -1, K_LAST: top.last - 1 if top else -2,
        K_TUMBLE: int(t is not None), K_RANDOM: int(t is not None and t.refill == "random"),
        K_MAXDROPS: t.max_drops if t is not None else 1,
        K_CARRY: int(t is not None and t.carry_multiplier),
        K_MCODE: code[m.symbol] if m is not None else -1,
        K_MMUL: int(m is not None and m.combine == "multiply"),
        K_MCARRY: int(m is not None and m.carry), K_HASFREE: int(fs is not None),
        K_TRIGGER: model.counted, K_RETRIG: int(fs is not None and fs.retrigger),
        K_MAXSPINS: fs.max_spins if fs is not None and fs.max_spins is not None else -1,
        K_FREEMULT: fs.multiplier if fs is not None else 1,
        K_FREESCAT: int(fs is None or fs.scatter_pays),
        K_CAP: (-1 if cap is None else
                math.floor(Fraction(cap) / game.total_bet(level) * cpb)),
        K_CPB: cpb, K_NEDGES: len(edges), K_HK: K, K_L: L, K_T: T, K_V: V, K_LADDER: M,
        K_NSC: len(scodes),
    }
    for k, v in values.items():
        head[k] = v
    offset = HEADER
    body = []
    for slot in range(O_ROLE, O_EDGES + 1):
        head[slot] = offset
        body.append(parts[slot])
        offset += len(parts[slot])
    # A pay-anywhere game without a top reel whose reels have one height each: every stop's
    # window column as one integer, symbol c's count in bits [b c, b c + b) (b bits hold the
    # whole window's count), so that a window's counts are the sum of its reels' integers.
    b = (n * H).bit_length()
    if (model.kind == "anywhere" and top is None and S * b <= 63
            and all(len(law.heights) == 1 for law in grid.heights)):
        pack = np.zeros((G, n, L), np.int64)
        for g in range(G):
            for j in range(n):
                h = int(hval[j, 0])
                for p in range(int(lens[g, j])):
                    pack[g, j, p] = sum(1 << (b * int(c)) for c in sarr[g, j, p:p + h])
        head[K_PACKB] = b
        head[O_PACK] = offset
        body.append(pack.ravel())
        offset += pack.size
    # the work area's layout: cells first (n x H), then each region in turn
    nH = n * H
    regions = ((Q_VALUES, nH), (Q_MARKED, nH), (Q_SEEN, nH), (Q_HEIGHTS, n), (Q_TOP, n),
               (Q_TOPV, n), (Q_POS, n), (Q_GAPS, n), (Q_TOPM, n), (Q_COUNTS, S),
               (Q_STACK, 2 * nH + 2), (Q_OUT, 16), (Q_FHITS, S * C), (Q_FCRED, S * C),
               (Q_LHITS, S * C), (Q_LCRED, S * C), (Q_LIST, nH))
    q = nH
    for slot, size in regions:
        head[slot] = q
        q += size
    head[Q_END] = q
    return np.concatenate([head, *body])


def work(tab: np.ndarray) -> np.ndarray:
    """A fresh work area for ``tab`` (cells and top cells -1)."""
    W = np.zeros(int(tab[Q_END]), np.int64)
    W[:int(tab[Q_VALUES])] = -1
    W[int(tab[Q_TOP]):int(tab[Q_TOP]) + int(tab[K_N])] = -1
    return W


# -- one drop ---------------------------------------------------------------------------------
# The evaluators below allocate nothing, so they are compiled without numba's reference counts
# (``_nrt=False``): with them every call, and every array handed on inside one, paid an atomic
# increment and decrement per array, most of a simulated spin's time.
@njit(cache=True, _nrt=False)
def _ways_drop(tab, W, weight, first):
    n, H, C = tab[K_N], tab[K_H], tab[K_C]
    o_role, o_pay, o_wm = tab[O_ROLE], tab[O_PAY], tab[O_WMULT]
    q_h, q_top, q_marked, q_topm = tab[Q_HEIGHTS], tab[Q_TOP], tab[Q_MARKED], tab[Q_TOPM]
    q_hits = tab[Q_FHITS] if first else tab[Q_LHITS]
    q_cred = tab[Q_FCRED] if first else tab[Q_LCRED]
    total = 0
    for s in range(tab[K_S]):
        if not tab[tab[O_ENTRY] + s]:
            continue
        wild_only = tab[o_role + s] == WILD
        ways = 1
        run = 0
        for j in range(n):
            count = 0
            for r in range(W[q_h + j]):
                c = W[j * H + r]
                if c == s or (not wild_only and tab[o_role + c] == WILD):
                    count += tab[o_wm + c]
            c = W[q_top + j]
            if c >= 0 and (c == s or (not wild_only and tab[o_role + c] == WILD)):
                count += tab[o_wm + c]
            if count == 0:
                break
            ways *= count
            run += 1
        if run == 0 or tab[o_pay + s * C + run] == 0:
            continue
        win = tab[o_pay + s * C + run] * ways
        total += win
        W[q_hits + s * C + run] += weight
        W[q_cred + s * C + run] += win * weight
        for j in range(run):
            for r in range(W[q_h + j]):
                c = W[j * H + r]
                if c == s or (not wild_only and tab[o_role + c] == WILD):
                    W[q_marked + j * H + r] = 1
            c = W[q_top + j]
            if c >= 0 and (c == s or (not wild_only and tab[o_role + c] == WILD)):
                W[q_topm + j] = 1
    return total


@njit(cache=True, inline="always")
def anywhere_count(tab, W):
    """Count each symbol on the window's reels into ``W[Q_COUNTS + symbol]``."""
    n, H, S = tab[K_N], tab[K_H], tab[K_S]
    q_h, q_counts = tab[Q_HEIGHTS], tab[Q_COUNTS]
    for s in range(S):
        W[q_counts + s] = 0
    for j in range(n):
        base = j * H
        for r in range(W[q_h + j]):
            W[q_counts + W[base + r]] += 1


@njit(cache=True, _nrt=False)
def anywhere_pay(tab, W, weight, first):
    """What a pay-anywhere drop pays from the symbol counts already in ``W[Q_COUNTS]`` (those
    of the window's reels: :func:`anywhere_count`); marks the winning cells and counts the
    hits as :func:`drop` does."""
    n, H, C, S = tab[K_N], tab[K_H], tab[K_C], tab[K_S]
    q_h, q_marked, q_counts = tab[Q_HEIGHTS], tab[Q_MARKED], tab[Q_COUNTS]
    q_hits = tab[Q_FHITS] if first else tab[Q_LHITS]
    q_cred = tab[Q_FCRED] if first else tab[Q_LCRED]
    o_pay = tab[O_PAY]
    total = 0
    o_entry = tab[O_ENTRY]
    for s in range(S):
        if not tab[o_entry + s]:
            continue
        k = W[q_counts + s]
        win = tab[o_pay + s * C + (k if k < C else C - 1)]
        if win == 0:
            continue
        total += win
        W[q_hits + s * C + k] += weight
        W[q_cred + s * C + k] += win * weight
        for j in range(n):
            base = j * H
            for r in range(W[q_h + j]):
                if W[base + r] == s:
                    W[q_marked + base + r] = 1
    return total


@njit(cache=True, _nrt=False)
def _anywhere_drop(tab, W, weight, first):
    anywhere_count(tab, W)
    return anywhere_pay(tab, W, weight, first)


@njit(cache=True, _nrt=False)
def _cluster_drop(tab, W, weight, first):
    """Every cluster: for each paying entry, the connected groups (sides, or corners too) of
    cells showing its symbol or a wild (a wild entry: wilds only) holding at least one of its
    own symbol, of the smallest paying size or more; their cells are marked."""
    n, H, C = tab[K_N], tab[K_H], tab[K_C]
    rows = W[tab[Q_HEIGHTS]]
    diagonal = tab[K_DIAG] != 0
    size_min = tab[K_SIZE]
    o_role, o_pay = tab[O_ROLE], tab[O_PAY]
    q_seen, q_stack, q_marked, q_list = tab[Q_SEEN], tab[Q_STACK], tab[Q_MARKED], tab[Q_LIST]
    q_hits = tab[Q_FHITS] if first else tab[Q_LHITS]
    q_cred = tab[Q_FCRED] if first else tab[Q_LCRED]
    total = 0
    for s in range(tab[K_S]):
        if not tab[tab[O_ENTRY] + s]:
            continue
        wild_only = tab[o_role + s] == WILD
        for i in range(n * H):
            W[q_seen + i] = 0
        for j0 in range(n):
            for r0 in range(rows):
                if W[q_seen + j0 * H + r0] or W[j0 * H + r0] != s:
                    continue
                W[q_stack] = j0
                W[q_stack + 1] = r0
                top = 1
                W[q_seen + j0 * H + r0] = 1
                size = 0
                while top > 0:
                    top -= 1
                    j = W[q_stack + 2 * top]
                    r = W[q_stack + 2 * top + 1]
                    W[q_list + size] = j * H + r
                    size += 1
                    W[q_seen + j * H + r] = 2
                    for dj in range(-1, 2):
                        for dr in range(-1, 2):
                            if dj == 0 and dr == 0:
                                continue
                            if not diagonal and dj != 0 and dr != 0:
                                continue
                            jj = j + dj
                            rr = r + dr
                            if jj < 0 or jj >= n or rr < 0 or rr >= rows:
                                continue
                            if W[q_seen + jj * H + rr]:
                                continue
                            c = W[jj * H + rr]
                            if c == s or (tab[o_role + c] == WILD and not wild_only):
                                W[q_seen + jj * H + rr] = 1
                                W[q_stack + 2 * top] = jj
                                W[q_stack + 2 * top + 1] = rr
                                top += 1
                win = tab[o_pay + s * C + (size if size < C else C - 1)] \
                    if size >= size_min else 0
                # a component is maximal: a wild touching two groups of the symbol joins them
                for i in range(size):  # the component's cells (seen 2)
                    x = W[q_list + i]
                    if win > 0:
                        W[q_marked + x] = 1
                    W[q_seen + x] = 3
                if win > 0:
                    total += win
                    W[q_hits + s * C + size] += weight
                    W[q_cred + s * C + size] += win * weight
    return total


@njit(cache=True, _nrt=False)
def drop(tab, W, weight, first):
    """Credits the window in ``W`` pays on one drop (before any multiplier), marking the
    winning cells and adding ``weight`` per win to the pay-table hits (the first drop's when
    ``first``, else the later drops'), ``weight`` x its credits to their credits. The marks
    must be clear on entry."""
    kind = tab[K_KIND]
    if kind == 0:
        return _ways_drop(tab, W, weight, first)
    if kind == 1:
        return _anywhere_drop(tab, W, weight, first)
    return _cluster_drop(tab, W, weight, first)


@njit(cache=True, inline="always")
def scatter_count(tab, W, symbol):
    """How many cells of the window (top reel included) show ``symbol``."""
    n, H = tab[K_N], tab[K_H]
    q_h, q_top = tab[Q_HEIGHTS], tab[Q_TOP]
    k = 0
    for j in range(n):
        for r in range(W[q_h + j]):
            if W[j * H + r] == symbol:
                k += 1
        if W[q_top + j] == symbol:
            k += 1
    return k


@njit(cache=True, inline="always")
def clear_marks(tab, W):
    n, H = tab[K_N], tab[K_H]
    q_m, q_tm = tab[Q_MARKED], tab[Q_TOPM]
    for i in range(n * H):
        W[q_m + i] = 0
    for j in range(n):
        W[q_tm + j] = 0


# -- a tumble -----------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def collapse(tab, W):
    """Remove the marked cells: each reel's survivors fall to its bottom rows (in order), its
    top rows become gaps (-1); the top reel's survivors move to its left end (towards its first
    reel), its right end becomes gaps. Each reel's gaps go to ``W[Q_GAPS + j]``; returns how
    many the top reel lost. The marks are cleared."""
    n, H = tab[K_N], tab[K_H]
    q_v, q_m, q_h, q_g = tab[Q_VALUES], tab[Q_MARKED], tab[Q_HEIGHTS], tab[Q_GAPS]
    for j in range(n):
        h = W[q_h + j]
        w = h - 1
        for r in range(h - 1, -1, -1):
            if W[q_m + j * H + r]:
                W[q_m + j * H + r] = 0
                continue
            W[j * H + w] = W[j * H + r]
            W[q_v + j * H + w] = W[q_v + j * H + r]
            w -= 1
        W[q_g + j] = w + 1
        for r in range(w + 1):
            W[j * H + r] = -1
            W[q_v + j * H + r] = 0
    lost = 0
    first, last = tab[K_FIRST], tab[K_LAST]
    if first >= 0:
        q_t, q_tv, q_tm = tab[Q_TOP], tab[Q_TOPV], tab[Q_TOPM]
        w = first
        for j in range(first, last + 1):
            if W[q_tm + j]:
                W[q_tm + j] = 0
                continue
            W[q_t + w] = W[q_t + j]
            W[q_tv + w] = W[q_tv + j]
            w += 1
        lost = last + 1 - w
        for j in range(w, last + 1):
            W[q_t + j] = -1
            W[q_tv + j] = 0
    return lost


@njit(cache=True, _nrt=False)
def strip_refill(tab, W, g, top_lost, top_next):
    """Fill the gaps of reel set ``g`` from its strips: reel ``j`` whose top cell came from
    strip index ``p`` (``W[Q_POS + j]``) takes ``strip[p - gaps] ... strip[p - 1]`` into its
    top rows (its position becomes ``p - gaps``); the top reel's right-hand gaps take its
    strip's symbols from ``top_next`` on. Returns the new ``top_next``. Each strip row holds
    its symbols then its first ones again (:func:`extended`): a window never wraps."""
    n, H, L = tab[K_N], tab[K_H], tab[K_L]
    q_g, q_p = tab[Q_GAPS], tab[Q_POS]
    for j in range(n):
        gaps = W[q_g + j]
        if gaps == 0:
            continue
        length = tab[tab[O_LEN] + g * n + j]
        p = W[q_p + j] - gaps
        while p < 0:
            p += length
        base = tab[O_STRIPS] + (g * n + j) * L
        for r in range(gaps):
            W[j * H + r] = tab[base + p + r]
        W[q_p + j] = p
    if top_lost:
        T = tab[K_T]
        tl = tab[tab[O_TLEN] + g]
        last = tab[K_LAST]
        for i in range(top_lost):
            W[tab[Q_TOP] + last + 1 - top_lost + i] = tab[tab[O_TSTRIP] + g * T
                                                         + (top_next + i) % tl]
        top_next = (top_next + top_lost) % tl
    return top_next


@njit(cache=True, inline="always")
def final_counts(tab, W):
    """(multiplier symbols in the window, their combined value, trigger count, scatter pays)
    of the window as it stands: one pass over its cells, counting every symbol."""
    n, H, S = tab[K_N], tab[K_H], tab[K_S]
    q_h, q_top, q_v, q_tv, q_c = (tab[Q_HEIGHTS], tab[Q_TOP], tab[Q_VALUES], tab[Q_TOPV],
                                  tab[Q_COUNTS])
    mcode = tab[K_MCODE]
    multiply = tab[K_MMUL] != 0
    mvalue = 1 if multiply else 0
    for c in range(S):
        W[q_c + c] = 0
    for j in range(n):
        for r in range(W[q_h + j]):
            c = W[j * H + r]
            W[q_c + c] += 1
            if c == mcode:
                if multiply:
                    mvalue *= W[q_v + j * H + r]
                else:
                    mvalue += W[q_v + j * H + r]
        c = W[q_top + j]
        if c >= 0:
            W[q_c + c] += 1
            if c == mcode:
                if multiply:
                    mvalue *= W[q_tv + j]
                else:
                    mvalue += W[q_tv + j]
    mcount = W[q_c + mcode] if mcode >= 0 else 0
    if mcount == 0:
        mvalue = 1
    scatter = 0
    cols = tab[K_W] + 1
    for i in range(tab[K_NSC]):
        c = tab[tab[O_SCODES] + i]
        k = W[q_c + c]
        scatter += tab[tab[O_SPAY] + c * cols + (k if k < cols else cols - 1)]
    trigger = tab[K_TRIGGER]
    trig = W[q_c + trigger] if trigger >= 0 else 0
    return mcount, mvalue, trig, scatter


@njit(cache=True, inline="always")
def counted_finals(tab, W):
    """:func:`final_counts` of a window without a top reel whose symbols are already counted
    in ``W[Q_COUNTS]`` (:func:`anywhere_count`): the same four figures, the cells scanned
    only for the multiplier symbols' values when one shows."""
    n, H = tab[K_N], tab[K_H]
    q_h, q_v, q_c = tab[Q_HEIGHTS], tab[Q_VALUES], tab[Q_COUNTS]
    mcode = tab[K_MCODE]
    mcount = W[q_c + mcode] if mcode >= 0 else 0
    mvalue = 1
    if mcount > 0:
        multiply = tab[K_MMUL] != 0
        mvalue = 1 if multiply else 0
        for j in range(n):
            base = j * H
            for r in range(W[q_h + j]):
                if W[base + r] == mcode:
                    if multiply:
                        mvalue *= W[q_v + base + r]
                    else:
                        mvalue += W[q_v + base + r]
    scatter = 0
    cols = tab[K_W] + 1
    o_spay, o_scodes = tab[O_SPAY], tab[O_SCODES]
    for i in range(tab[K_NSC]):
        c = tab[o_scodes + i]
        k = W[q_c + c]
        scatter += tab[o_spay + c * cols + (k if k < cols else cols - 1)]
    trigger = tab[K_TRIGGER]
    trig = W[q_c + trigger] if trigger >= 0 else 0
    return mcount, mvalue, trig, scatter


@njit(cache=True, inline="always")
def rule_value(tab, g, index):
    """The drop multiplier of drop ``index`` on reel set ``g``."""
    o = tab[O_RULE] + 4 * g
    ladder_count = tab[o + 3]
    if ladder_count > 0:
        return tab[tab[O_LADDER] + g * tab[K_LADDER] + min(index, ladder_count - 1)]
    v = tab[o] + tab[o + 1] * index
    if tab[o + 2] >= 0 and v > tab[o + 2]:
        v = tab[o + 2]
    return v


def extended(strips: list[list[int]], rows: int) -> tuple[np.ndarray, np.ndarray]:
    """Strips as one array, each row its strip then its first ``rows`` symbols again (cyclic),
    so that ``strip[p + r]`` needs no modulo for ``p < len``, ``r < rows``; and the lengths.

    >>> a, n = extended([[1, 2, 3], [4]], 2)
    >>> a.tolist(), n.tolist()
    ([[1, 2, 3, 1, 2], [4, 4, 4, 0, 0]], [3, 1])
    """
    width = max(len(s) for s in strips) + rows
    out = np.zeros((len(strips), width), np.int64)
    lengths = np.zeros(len(strips), np.int64)
    for i, strip in enumerate(strips):
        L = len(strip)
        lengths[i] = L
        for x in range(L + rows):
            out[i, x] = strip[x % L]
    return out, lengths


class Window:
    """A window held in a work area, for Python callers (the random-refill chain): set it,
    pay a drop, let it tumble, read it back.

    >>> import slotmath
    >>> m = GridModel(slotmath.load_game("tests/data/grid/anywhere_tiny.toml"))
    >>> w = Window(m)
    >>> w.set([["A", "A", "B"], ["A", "X", "B"], ["S", "A", "B"]])
    >>> w.drop(), w.columns()
    (1, [['A', 'A', 'B'], ['A', 'X', 'B'], ['S', 'A', 'B']])
    """

    def __init__(self, model: GridModel, sets: tuple[str, ...] = ("base",)):
        self.model = model
        self.tab = tables(model, sets)
        self.W = work(self.tab)

    def set(self, columns, top: dict | None = None) -> None:
        tab, W, code = self.tab, self.W, self.model.code
        n, H = int(tab[K_N]), int(tab[K_H])
        W[:n * H] = -1
        for j, col in enumerate(columns):
            W[tab[Q_HEIGHTS] + j] = len(col)
            for r, name in enumerate(col):
                W[j * H + r] = code[name] if isinstance(name, str) else name
        for j in range(n):
            W[tab[Q_TOP] + j] = -1
        for j, name in (top or {}).items():
            W[tab[Q_TOP] + j] = code[name] if isinstance(name, str) else name

    def drop(self, first: bool = True) -> int:
        return int(drop(self.tab, self.W, 1, first))

    def columns(self) -> list[list]:
        tab, W = self.tab, self.W
        n, H = int(tab[K_N]), int(tab[K_H])
        names = self.model.names
        return [[names[W[j * H + r]] if W[j * H + r] >= 0 else None
                 for r in range(int(W[tab[Q_HEIGHTS] + j]))] for j in range(n)]
