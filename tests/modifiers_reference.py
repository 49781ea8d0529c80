"""A plain reference for modified paid spins, written from the rules of ``[modifiers]``
(docs/game-format.md "Modifiers") and sharing no code with slotmath's engines or evaluators.

Every stop combination x every modifier outcome: for a ``place`` modifier every count k of
its law and every k-subset of the positions on its reels (numbered from 1; all when it names
none), with probability w_k / W / C(cells, k);
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
    reels = modifier.get("reels") or range(1, len(columns) + 1)  # numbered from 1
    cells = [(j, r) for j, r in cells if j + 1 in reels]
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


def _row_law(strip, weights, row):
    """{symbol: probability} of what ``row`` shows on a strip stopped at random."""
    total = sum(weights)
    law: dict = {}
    for stop, w in enumerate(weights):
        if w:
            x = strip[(stop + row) % len(strip)]
            law[x] = law.get(x, 0) + Fraction(w, total)
    return law


def _line_mean(laws, pays, wild):
    """Expected pay of one line whose cells are independent with ``laws`` (one per reel),
    left to right: the paying symbols still matched on every reel so far, and the best pay
    of those that stopped matching (the line pays its best candidate)."""
    states = {(frozenset(pays), 0): Fraction(1)}
    done = Fraction(0)
    for j, law in enumerate(laws):
        nxt: dict = {}
        for (alive, best), p in states.items():
            for x, q in law.items():
                still = frozenset(s for s in alive if x == s or x == wild)
                new_best = max([best] + [pays[s].get(j, 0) for s in alive - still])
                if still:
                    nxt[still, new_best] = nxt.get((still, new_best), 0) + p * q
                else:
                    done += p * q * new_best
        states = nxt
    n = len(laws)
    for (alive, best), p in states.items():
        done += p * max([best] + [pays[s].get(n, 0) for s in alive])
    return done


def place_mean_by_lines(strips, weights, rows, lines, pays, wild, modifier):
    """Exact mean line win, in line bets summed over ``lines``, of a paid spin a ``place``
    modifier (a dict: symbol, counts, keep) acts on, by linearity over the lines.

    A line reads one cell per reel, so given which of its own cells were chosen its cells
    are independent, each with its strip's law at its row (a chosen cell shows the placed
    symbol unless it shows a kept one); k chosen of the ``cells`` positions on the modifier's
    reels put exactly the set ``S`` of a line's cells there among them with probability
    C(cells - m, k - |S|) / C(cells, k), ``m`` the line's cells on those reels. No joint enumeration: it checks a table's mean on games far too large for
    :func:`modified_law`.
    """
    reels = modifier.get("reels") or range(1, len(rows) + 1)
    cells = sum(r for j, r in enumerate(rows) if j + 1 in reels)
    total = sum(modifier["counts"].values())
    keep = set(modifier.get("keep", ()))
    mean = Fraction(0)
    for line in lines:
        plain = [_row_law(strips[j], weights[j], line[j]) for j in range(len(line))]
        placed = []
        for law in plain:
            changed: dict = {}
            for x, q in law.items():
                y = x if x in keep else modifier["symbol"]
                changed[y] = changed.get(y, 0) + q
            placed.append(changed)
        n = len(line)
        open_cells = [j for j in range(n) if j + 1 in reels]  # the line's cells it may choose
        for size in range(len(open_cells) + 1):
            p_size = sum(Fraction(w, total) * comb(cells - len(open_cells), k - size)
                         / comb(cells, k)
                         for k, w in modifier["counts"].items() if w and k >= size)
            if not p_size:
                continue
            for chosen in itertools.combinations(open_cells, size):
                laws = [placed[j] if j in chosen else plain[j] for j in range(n)]
                mean += p_size * _line_mean(laws, pays, wild)
    return mean


def spec_of(game, rows=2, wild="W", scatter="S"):
    """The reference's spec of a small lines game as loaded (its pays, lines and strips read
    off the game's fields; nothing of the engine's)."""
    pays = {s.name: dict(s.pays) for s in game.symbols.values() if s.pays and not s.scatter}
    return {"rows": rows, "bet": game.bet, "ways": False, "wild": wild,
            "lines": [list(line) for line in game.paylines], "pays": pays,
            "strips": [list(r.symbols) for r in game.base.reels],
            "scatter_pays": dict(game.symbols[scatter].pays)}


def parts_of(game):
    """(frequency, the reference's modifier dict, or None for the plain spin) of the plain
    spin and of each of the game's modifiers."""
    parts = [(1 - sum(m.frequency for m in game.modifiers), None)]
    for m in game.modifiers:
        parts.append((m.frequency,
                      {"kind": "place", "symbol": m.symbol, "counts": dict(m.counts),
                       "keep": set(m.keep), "reels": list(m.reels)} if m.kind == "place"
                      else {"kind": "upgrade", "from": set(m.from_symbols), "to": dict(m.to)}))
    return parts
