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

__all__ = ["BLANK", "KINDS", "MULTIPLIER", "PAYS", "SCATTER", "WILD", "GridModel", "cluster_drop",
           "drop", "scatter_count", "ways_count"]

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


# -- one drop ---------------------------------------------------------------------------------
@njit(cache=True)
def ways_count(cells, heights, top, symbol, wild_only, role, ways_multiplier, reel):
    """Ways reel ``reel`` counts for entry ``symbol``: its cells (and its top cell) showing
    the symbol or, unless ``wild_only``, a wild; a cell counts its symbol's ``multiplier``."""
    count = 0
    for r in range(heights[reel]):
        c = cells[reel, r]
        if c == symbol or (role[c] == WILD and (not wild_only or c == symbol)):
            count += ways_multiplier[c]
    c = top[reel]
    if c >= 0 and (c == symbol or (role[c] == WILD and (not wild_only or c == symbol))):
        count += ways_multiplier[c]
    return count


@njit(cache=True)
def _ways_drop(cells, heights, top, role, pay, ways_multiplier, marked, top_marked, hits,
               credits_by, weight):
    n = heights.shape[0]
    total = 0
    for s in range(role.shape[0]):
        if role[s] != PAYS and not (role[s] == WILD and pay[s, n] + pay[s, 1] > 0):
            continue
        wild_only = role[s] == WILD
        ways = 1
        run = 0
        for j in range(n):
            k = ways_count(cells, heights, top, s, wild_only, role, ways_multiplier, j)
            if k == 0:
                break
            ways *= k
            run += 1
        if run == 0 or pay[s, run] == 0:
            continue
        win = pay[s, run] * ways
        total += win
        hits[s, run] += weight
        credits_by[s, run] += win * weight
        for j in range(run):
            for r in range(heights[j]):
                c = cells[j, r]
                if c == s or (role[c] == WILD and (not wild_only or c == s)):
                    marked[j, r] = 1
            c = top[j]
            if c >= 0 and (c == s or (role[c] == WILD and (not wild_only or c == s))):
                top_marked[j] = 1
    return total


@njit(cache=True)
def _anywhere_drop(cells, heights, role, pay, marked, hits, credits_by, counts, weight):
    n = heights.shape[0]
    counts[:] = 0
    for j in range(n):
        for r in range(heights[j]):
            counts[cells[j, r]] += 1
    total = 0
    for s in range(role.shape[0]):
        if role[s] != PAYS:
            continue
        c = counts[s]
        if c >= pay.shape[1]:
            c = pay.shape[1] - 1
        if pay[s, c] == 0:
            continue
        total += pay[s, c]
        hits[s, counts[s]] += weight
        credits_by[s, counts[s]] += pay[s, c] * weight
        for j in range(n):
            for r in range(heights[j]):
                if cells[j, r] == s:
                    marked[j, r] = 1
    return total


@njit(cache=True)
def cluster_drop(cells, heights, role, pay, size_min, diagonal, marked, hits, credits_by,
                 seen, stack, weight):
    """Pay every cluster: for each paying entry, the connected groups (orthogonal, or with
    corners when ``diagonal``) of cells showing its symbol or a wild (a wild entry: wilds
    only), holding at least one of its own symbol, of ``size_min`` cells or more; marks them.
    ``seen`` and ``stack`` are scratch arrays (``[reels, rows]`` and ``reels * rows * 2``)."""
    n = heights.shape[0]
    rows = heights[0]
    total = 0
    for s in range(role.shape[0]):
        if role[s] != PAYS and not (role[s] == WILD and pay[s, pay.shape[1] - 1] > 0):
            continue
        wild_only = role[s] == WILD
        seen[:, :] = 0
        for j0 in range(n):
            for r0 in range(rows):
                c0 = cells[j0, r0]
                if seen[j0, r0] or c0 != s:
                    continue
                # flood fill from (j0, r0) over member cells; the component's cells get 2
                stack[0] = j0
                stack[1] = r0
                top = 1
                seen[j0, r0] = 1
                size = 0
                while top > 0:
                    top -= 1
                    j = stack[2 * top]
                    r = stack[2 * top + 1]
                    size += 1
                    seen[j, r] = 2
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
                            if seen[jj, rr]:
                                continue
                            c = cells[jj, rr]
                            if c == s or (role[c] == WILD and not wild_only):
                                seen[jj, rr] = 1
                                stack[2 * top] = jj
                                stack[2 * top + 1] = rr
                                top += 1
                size_c = size if size < pay.shape[1] else pay.shape[1] - 1
                win = pay[s, size_c] if size >= size_min else 0
                # a component is maximal: a wild touching two groups of the symbol joins them
                for j in range(n):
                    for r in range(rows):
                        if seen[j, r] == 2:
                            if win > 0:
                                marked[j, r] = 1
                            seen[j, r] = 3
                if win > 0:
                    total += win
                    hits[s, size] += weight
                    credits_by[s, size] += win * weight
    return total


@njit(cache=True)
def drop(kind, cells, heights, top, role, pay, ways_multiplier, size_min, diagonal, marked,
         top_marked, hits, credits_by, counts, seen, stack, weight):
    """Credits one drop pays (before any multiplier), marking the winning cells and adding
    ``weight`` to ``hits[symbol, count]`` per win (``weight`` x its credits to
    ``credits_by[symbol, count]``). ``marked`` and ``top_marked`` must be zero on entry."""
    if kind == 0:
        return _ways_drop(cells, heights, top, role, pay, ways_multiplier, marked, top_marked,
                          hits, credits_by, weight)
    if kind == 1:
        return _anywhere_drop(cells, heights, role, pay, marked, hits, credits_by, counts,
                              weight)
    return cluster_drop(cells, heights, role, pay, size_min, diagonal, marked, hits,
                        credits_by, seen, stack, weight)


@njit(cache=True)
def scatter_count(cells, heights, top, symbol):
    """How many cells of the window (top reel included) show ``symbol``."""
    k = 0
    for j in range(heights.shape[0]):
        for r in range(heights[j]):
            if cells[j, r] == symbol:
                k += 1
        if top[j] == symbol:
            k += 1
    return k


# -- a tumble -----------------------------------------------------------------------------------
@njit(cache=True)
def collapse(cells, heights, top, values, top_values, marked, top_marked, gaps, first, last):
    """Remove the marked cells: each reel's survivors fall to its bottom rows (in order) and
    its top rows become gaps (-1); the top reel's survivors move to its left end (towards
    reel ``first``) and its right end becomes gaps. ``gaps[j]`` is how many reel ``j`` lost;
    returns how many the top reel lost. ``marked`` and ``top_marked`` are cleared."""
    n = heights.shape[0]
    for j in range(n):
        h = heights[j]
        w = h - 1
        for r in range(h - 1, -1, -1):
            if marked[j, r]:
                marked[j, r] = 0
                continue
            cells[j, w] = cells[j, r]
            values[j, w] = values[j, r]
            w -= 1
        gaps[j] = w + 1
        for r in range(w + 1):
            cells[j, r] = -1
            values[j, r] = 0
    lost = 0
    if first >= 0:
        w = first
        for j in range(first, last + 1):
            if top_marked[j]:
                top_marked[j] = 0
                continue
            top[w] = top[j]
            top_values[w] = top_values[j]
            w += 1
        lost = last + 1 - w
        for j in range(w, last + 1):
            top[j] = -1
            top_values[j] = 0
    return lost


@njit(cache=True)
def strip_refill(cells, heights, top, gaps, positions, strips, lengths, top_lost, top_next,
                 top_strip, top_length, last):
    """Fill the gaps from the strips: reel ``j`` whose top cell came from strip index
    ``positions[j]`` takes ``strip[p - g] ... strip[p - 1]`` into its ``g`` top rows (and
    ``positions[j]`` becomes ``p - g``); the top reel's right-hand gaps take its strip's next
    symbols from index ``top_next`` on. Returns the new ``top_next``. Each strip row holds
    its ``lengths[j]`` symbols followed by its first symbols again (:func:`extended`), so that
    a window never wraps."""
    n = heights.shape[0]
    for j in range(n):
        g = gaps[j]
        if g == 0:
            continue
        p = positions[j] - g
        L = lengths[j]
        while p < 0:
            p += L
        for r in range(g):
            cells[j, r] = strips[j, p + r]
        positions[j] = p
    if top_lost:
        for i in range(top_lost):
            top[last + 1 - top_lost + i] = top_strip[(top_next + i) % top_length]
        top_next = (top_next + top_lost) % top_length
    return top_next


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
