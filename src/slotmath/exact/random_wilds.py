"""Exact expected line win of a spin with random wilds and spreading wilds.

The random wild of each reel (at most one, :class:`slotmath.model.persistent.RandomWilds`)
overlays its cell; a spreading wild turns the 8 neighbours of a regular wild into wilds. No
strip shows the wild and the wild pays nothing on its own (rules of the model), so a line's
pay depends only on which of its cells are wild and on the strip symbols of the others.

Method (exact, Fractions): the expectation is linear over lines, and given which cells are
wild the other cells of a line are independent (one per reel), each with its strip's law at
that row. For each line and each wild pattern of its cells (``2^n`` patterns),
:func:`line_pattern_means` walks the line left to right: a run of ``w`` leading wilds pays
the best ``w``-of-a-kind; the first strip cell's symbol ``s`` then continues while cells are
``s`` or wild, and the line pays the higher of ``s`` for that run and the wild run. Then
:func:`lines_mean` mixes the patterns over every placement of the random wilds and whether
each spreads (``prod_j (1 + 2 rows_j)`` combinations, weights exact integers).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from functools import cached_property

import numpy as np

from slotmath.model.game import Game

__all__ = ["WildLines", "line_pattern_means"]


def _row_laws(game: Game, reel_set: str) -> list[list[dict[str, Fraction]]]:
    """``laws[reel][row][symbol]``: P(the strip shows ``symbol`` on ``row``)."""
    out = []
    for j, reel in enumerate(game.reel_sets[reel_set].reels):
        weights, n = reel.stop_weights, len(reel.symbols)
        total = sum(weights)
        rows = []
        for r in range(game.rows[j]):
            law: dict[str, Fraction] = {}
            for stop, w in enumerate(weights):
                if w:
                    s = reel.symbols[(stop + r) % n]
                    law[s] = law.get(s, 0) + Fraction(w, total)
            rows.append(law)
        out.append(rows)
    return out


def line_pattern_means(game: Game, reel_set: str, level: int = 1) -> list[list[Fraction]]:
    """``means[line][pattern]``: the expected pay of the line in total bets when bit ``j`` of
    ``pattern`` says its cell on reel ``j`` is wild.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/conveyor_tiny.toml")
    >>> m = line_pattern_means(g, "base")
    >>> m[0][0b111]   # three wilds: the best three of a kind, 20 line bets of 3 lines
    Fraction(20, 3)
    """
    n = game.n_reels
    laws = _row_laws(game, reel_set)
    pays = {name: [s.pay_at(c, level) / (game.n_lines * level) for c in range(n + 1)]
            for name, s in game.symbols.items() if not s.wild}
    best = [max((p[c] for p in pays.values()), default=Fraction(0)) for c in range(n + 1)]
    out = []
    for line in game.paylines:
        cell = [laws[j][r] for j, r in enumerate(line)]
        means = []
        for pattern in range(2**n):
            wild = [bool(pattern >> j & 1) for j in range(n)]
            w = next((j for j in range(n) if not wild[j]), n)
            if w == n:
                means.append(best[n])
                continue
            total = Fraction(0)
            for s, ps in cell[w].items():
                pay = pays.get(s, [Fraction(0)] * (n + 1))
                alive, run = ps, w + 1
                for j in range(w + 1, n + 1):
                    q = Fraction(1) if j < n and wild[j] else cell[j].get(s, 0) if j < n else 0
                    total += alive * (1 - q) * max(pay[run], best[w])  # the run stops at j
                    alive *= q
                    run += 1
                    if not alive:
                        break
            means.append(total)
        out.append(means)
    return out


class WildLines:
    """The exact expected line win of one spin on ``reel_set`` given, per reel, the
    probability that its regular wild (if one lands) spreads.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/conveyor_tiny.toml")
    >>> w = WildLines(g, "base")
    >>> w.mean([0, 0, 0]) < w.mean([1, 0, 0])   # a spread on reel 1 can only add wilds
    True
    """

    def __init__(self, game: Game, reel_set: str, level: int = 1):
        self.game, self.reel_set, self.level = game, reel_set, level
        self.wilds = game.random_wilds

    @cached_property
    def _table(self) -> tuple[np.ndarray, int]:
        """Expected lines pay (integer numerators over a common denominator) for every
        combination of per-reel outcomes: 0 no wild, 1 + 2r wild on row r, 2 + 2r: and it
        spreads."""
        game = self.game
        n, rows = game.n_reels, game.rows
        means = line_pattern_means(game, self.reel_set, self.level)
        denominator = 1
        for line in means:
            for m in line:
                denominator = math.lcm(denominator, m.denominator)
        ints = [[int(m * denominator) for m in line] for line in means]
        bit = {}
        for j in range(n):
            for r in range(rows[j]):
                bit[j, r] = len(bit)
        line_bits = [[bit[j, r] for j, r in enumerate(line)] for line in game.paylines]
        shape = tuple(1 + 2 * rows[j] for j in range(n))
        table = np.empty(shape, dtype=object)
        for combo in itertools.product(*(range(k) for k in shape)):
            cells = set()
            for j, o in enumerate(combo):
                if not o:
                    continue
                r = (o - 1) // 2
                cells.add((j, r))
                if (o - 1) % 2:  # spreads: the 8 neighbours become wilds
                    for dj in (-1, 0, 1):
                        for dr in (-1, 0, 1):
                            jj, rr = j + dj, r + dr
                            if 0 <= jj < n and 0 <= rr < rows[jj]:
                                cells.add((jj, rr))
            mask = {bit[c] for c in cells}
            total = 0
            for k, bits in enumerate(line_bits):
                pattern = sum(1 << j for j, b in enumerate(bits) if b in mask)
                total += ints[k][pattern]
            table[combo] = total
        return table, denominator

    def mean(self, spread: Sequence[Fraction | int]) -> Fraction:
        """Expected line win in total bets when a wild landing on reel ``j`` spreads with
        probability ``spread[j]``."""
        table, denominator = self._table
        out = table
        scale = denominator
        for j in range(self.game.n_reels - 1, -1, -1):
            p = Fraction(spread[j])
            w = self.wilds.weights[j]
            vec = [w[0] * p.denominator]
            for r in range(self.game.rows[j]):
                vec += [w[1 + r] * (p.denominator - p.numerator), w[1 + r] * p.numerator]
            out = np.tensordot(out, np.array(vec, dtype=object), axes=([out.ndim - 1], [0]))
            scale *= sum(w) * p.denominator
        return Fraction(int(out), scale)
