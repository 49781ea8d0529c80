"""A plain reference for modified paid spins, written from the rules of ``[modifiers]``
(docs/game-format.md "Modifiers") and sharing no code with slotmath's engines or evaluators.

Every stop combination x every modifier outcome: for a ``place`` modifier every count k of
its law and every k-subset of the window's positions (probability w_k / W / C(cells, k));
for an ``upgrade`` modifier every drawn symbol (w_t / W). The window is then evaluated by
hand-simple code for the small games the tests build: a wild without pays of its own, no
multipliers, a scatter paying total bets for its count anywhere; lines (for each paying symbol, its run from reel 1 of itself or the wild; the
line pays its best candidate) or ways (for each paying symbol, the run of reels from reel 1
showing it or the wild, times the product of those reels' counts). Exact fractions.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb


def _line_pay(symbols, pays, wild):
    best = 0
    for s, table in pays.items():
        run = 0
        for x in symbols:
            if x != s and x != wild:
                break
            run += 1
        best = max(best, table.get(run, 0))
    return best


def _ways_pay(columns, pays, wild):
    total = 0
    for s, table in pays.items():
        ways, run = 1, 0
        for col in columns:
            n = sum(1 for x in col if x == s or x == wild)
            if n == 0:
                break
            ways *= n
            run += 1
        total += table.get(run, 0) * ways
    return total


def window_win(columns, spec):
    """What a window (a list of reels' columns, top row first) pays by ``spec``'s rules:
    line bets summed over the lines, or coins summed over the ways."""
    if spec["ways"]:
        return _ways_pay(columns, spec["pays"], spec["wild"])
    return sum(_line_pay([columns[j][row] for j, row in enumerate(line)], spec["pays"],
                         spec["wild"]) for line in spec["lines"])


def outcomes(columns, modifier):
    """(probability, modified window) of every outcome of ``modifier`` (a dict) on a window."""
    cells = [(j, r) for j, col in enumerate(columns) for r in range(len(col))]
    if modifier is None:
        return [(Fraction(1), columns)]
    if modifier["kind"] == "upgrade":
        total = sum(modifier["to"].values())
        return [(Fraction(w, total),
                 [[t if x in modifier["from"] else x for x in col] for col in columns])
                for t, w in modifier["to"].items() if w]
    total = sum(modifier["counts"].values())
    out = []
    for k, w in modifier["counts"].items():
        if not w:
            continue
        for chosen in itertools.combinations(cells, k):
            shown = [list(col) for col in columns]
            for j, r in chosen:
                if shown[j][r] not in modifier.get("keep", ()):
                    shown[j][r] = modifier["symbol"]
            out.append((Fraction(w, total) / comb(len(cells), k), shown))
    return out


def modified_law(spec, modifier, count_symbol=None):
    """Exact law {(count of count_symbol or 0, win in total bets): probability} of a paid
    spin ``modifier`` acts on (None: the plain spin)."""
    strips = spec["strips"]
    rows = spec["rows"]
    law: dict = {}
    n = Fraction(1, 1)
    for s in strips:
        n /= len(s)
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        columns = [[s[(stop + r) % len(s)] for r in range(rows)]
                   for s, stop in zip(strips, stops)]
        for p, shown in outcomes(columns, modifier):
            count = 0 if count_symbol is None else sum(col.count(count_symbol) for col in shown)
            # line pays are in line bets (bet / lines), ways pays in coins per way
            unit = len(spec["lines"]) if not spec["ways"] else spec["bet"]
            # a scatter pays total bets for its count anywhere (the top pay above the top)
            scatters = sum(col.count(spec.get("scatter", "S")) for col in shown)
            table = spec.get("scatter_pays", {})
            scatter = table.get(scatters, 0)
            if table and scatters > max(table):
                scatter = table[max(table)]
            key = (count, Fraction(window_win(shown, spec), unit) + scatter)
            law[key] = law.get(key, 0) + n * p
    return law
