"""A brute-force reference for grid games, written from docs/game-format.md ("Grid games")
alone: it reads the game's model (symbols, strips, rules) and shares no code with the engines
(``slotmath.evaluate.grid``, ``slotmath.exact.grid_*``, ``slotmath.simulate``).

Everything is plain Python on names and Fractions: a window is a list of columns (each a list
of symbol names, top row first) and a top row (a dict reel -> name for the covered reels).
Wins are in total bets. The paid spin's law is found by walking every stop, every height and
every top-reel stop, every refill (random refill: every symbol of every gap, with its weight)
and every value of every multiplier symbol; free spins by recursion over the spins left.
Only for small games: nothing here is meant to be fast.
"""

from __future__ import annotations

import itertools
from collections import deque
from fractions import Fraction

# -- what one window pays -----------------------------------------------------------------------


def _sym(game, name):
    return game.symbols[name]


def _pays_by_count(pays: dict, count: int, reached: bool) -> Fraction:
    """A pay table read at ``count``: exactly (ways), or the highest listed count reached."""
    if not reached:
        return Fraction(pays.get(count, 0))
    best = [c for c in pays if c <= count]
    return Fraction(pays[max(best)]) if best else Fraction(0)


def _scatter_pay(pays: dict, count: int) -> Fraction:
    if not pays or count < min(pays):
        return Fraction(0)
    if count in pays:
        return Fraction(pays[count])
    if count > max(pays):
        return Fraction(pays[max(pays)])
    return Fraction(0)


def _multiplier_name(game):
    return game.multipliers.symbol if game.multipliers is not None else None


def _paying(game):
    """Names of plain symbols with pays, and of wilds with pays (wild-only entries)."""
    m = _multiplier_name(game)
    out = []
    for name, s in game.symbols.items():
        if name == m or s.scatter:
            continue
        if s.pays:
            out.append(name)
    return out


def ways_win(game, columns, top) -> tuple[Fraction, set]:
    """Left-to-right ways on the columns (and the top cells above covered reels)."""
    total = Fraction(0)
    removed = set()
    for entry in _paying(game):
        wild_only = _sym(game, entry).wild
        counts = []
        cells_of = []
        for j, col in enumerate(columns):
            cells = [(j, r) for r, name in enumerate(col)
                     if name == entry or (not wild_only and _sym(game, name).wild)]
            if j in top and (top[j] == entry or (not wild_only and _sym(game, top[j]).wild)):
                cells.append((j, "top"))
            count = sum(_sym(game, col[r] if r != "top" else top[j]).multiplier
                        for (j, r) in cells)
            if count == 0:
                break
            counts.append(count)
            cells_of.append(cells)
        run = len(counts)
        pay = _pays_by_count(dict(_sym(game, entry).pays), run, reached=False)
        if run == 0 or pay == 0:
            continue
        ways = 1
        for c in counts:
            ways *= c
        total += pay * ways / game.bet
        for cells in cells_of:
            removed.update(cells)
    return total, removed


def anywhere_win(game, columns) -> tuple[Fraction, set]:
    total = Fraction(0)
    removed = set()
    for entry in _paying(game):
        cells = [(j, r) for j, col in enumerate(columns) for r, name in enumerate(col)
                 if name == entry]
        pay = _pays_by_count(dict(_sym(game, entry).pays), len(cells), reached=True)
        if pay:
            total += pay
            removed.update(cells)
    return total, removed


def cluster_win(game, columns, diagonal=None) -> tuple[Fraction, set]:
    """Each connected group of cells showing the entry's symbol or a wild (sides; with
    ``diagonal`` corners too), holding at least one of the symbol, pays by its size."""
    grid = game.grid
    diagonal = grid.adjacency == "diagonal" if diagonal is None else diagonal
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if diagonal:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    total = Fraction(0)
    removed = set()
    for entry in _paying(game):
        wild_only = _sym(game, entry).wild

        def member(name, entry=entry, wild_only=wild_only):
            return name == entry or (not wild_only and _sym(game, name).wild)

        done = set()
        for j, col in enumerate(columns):
            for r, name in enumerate(col):
                if name != entry or (j, r) in done:
                    continue
                group = {(j, r)}
                queue = deque([(j, r)])
                while queue:
                    a, b = queue.popleft()
                    for da, db in steps:
                        x, y = a + da, b + db
                        if 0 <= x < len(columns) and 0 <= y < len(columns[x]) and \
                                (x, y) not in group and member(columns[x][y]):
                            group.add((x, y))
                            queue.append((x, y))
                done |= {c for c in group if columns[c[0]][c[1]] == entry}
                size = len(group)
                pay = (_pays_by_count(dict(_sym(game, entry).pays), size, reached=True)
                       if size >= grid.cluster_size else Fraction(0))
                if pay:
                    total += pay
                    removed |= group
    return total, removed


def drop_win(game, columns, top):
    kind = game.grid.pays
    if kind == "ways":
        return ways_win(game, columns, top)
    if kind == "anywhere":
        return anywhere_win(game, columns)
    return cluster_win(game, columns)


def count_of(columns, top, name) -> int:
    return sum(col.count(name) for col in columns) + sum(1 for x in top.values() if x == name)


# -- a spin -------------------------------------------------------------------------------------

def _rule_value(rule, k):
    if rule.ladder is not None:
        return rule.ladder[min(k, len(rule.ladder) - 1)]
    v = rule.start + rule.step * k
    return v if rule.max is None else min(v, rule.max)


def _first_windows(game, reel_set):
    """(probability, columns, top, positions, top position) of every first window."""
    grid = game.grid
    reels = game.reel_sets[reel_set].reels
    per_reel = []
    for reel, law in zip(reels, grid.heights):
        options = []
        total = sum(reel.stop_weights) * law.total
        for s, w in enumerate(reel.stop_weights):
            for h, hw in law.weights.items():
                if w and hw:
                    options.append((Fraction(w * hw, total), s, h))
        per_reel.append(options)
    top = grid.top_reel
    if top is not None:
        strip = top.strips[reel_set]
        tt = sum(strip.stop_weights)
        tops = [(Fraction(w, tt), s) for s, w in enumerate(strip.stop_weights) if w]
    else:
        tops = [(Fraction(1), None)]
    for combo in itertools.product(*per_reel):
        for tp, tstop in tops:
            p = tp
            columns = []
            for (q, s, h), reel in zip(combo, reels):
                p *= q
                columns.append([reel.symbols[(s + r) % len(reel.symbols)] for r in range(h)])
            topcells = {}
            if top is not None:
                strip = top.strips[reel_set].symbols
                for i, j in enumerate(range(top.first - 1, top.last)):
                    topcells[j] = strip[(tstop + i) % len(strip)]
            yield p, columns, topcells, [s for _, s, _ in combo], tstop


def _refills(game, reel_set, columns, top, removed, positions, top_next):
    """(probability, new columns, new top, new positions, new top_next) after removing the
    cells ``removed``: survivors fall, the gaps refill (strip or random)."""
    t = game.tumbles
    grid = game.grid
    kept = []
    gaps = []
    for j, col in enumerate(columns):
        survivors = [name for r, name in enumerate(col) if (j, r) not in removed]
        kept.append(survivors)
        gaps.append(len(col) - len(survivors))
    covered = sorted(top)
    top_survivors = [top[j] for j in covered if (j, "top") not in removed]
    top_gaps = len(covered) - len(top_survivors)
    if t.refill == "strip":
        reels = game.reel_sets[reel_set].reels
        new_cols, new_pos = [], []
        for j, (survivors, g) in enumerate(zip(kept, gaps)):
            strip = reels[j].symbols
            p = (positions[j] - g) % len(strip)
            new_cols.append([strip[(p + r) % len(strip)] for r in range(g)] + survivors)
            new_pos.append(p)
        new_top = {}
        nxt = top_next
        if covered:
            strip = grid.top_reel.strips[reel_set].symbols
            row = top_survivors + [strip[(nxt + i) % len(strip)] for i in range(top_gaps)]
            nxt = (nxt + top_gaps) % len(strip)
            new_top = dict(zip(covered, row))
        yield Fraction(1), new_cols, new_top, new_pos, nxt
        return
    tables = t.refill_weights[reel_set]
    slots = [(j, r) for j, g in enumerate(gaps) for r in range(g)]
    slots += [("top", i) for i in range(top_gaps)]
    choices = []
    for j, _ in slots:
        table = tables[len(columns)] if j == "top" else tables[j]
        total = sum(table.values())
        choices.append([(Fraction(w, total), name) for name, w in table.items() if w])
    for pick in itertools.product(*choices):
        p = Fraction(1)
        new_cols = [list(x) for x in kept]
        fresh = {j: [] for j in range(len(columns))}
        new_top_row = list(top_survivors)
        for (j, _r), (q, name) in zip(slots, pick):
            p *= q
            if j == "top":
                new_top_row.append(name)
            else:
                fresh[j].append(name)
        new_cols = [fresh[j] + kept[j] for j in range(len(columns))]
        yield p, new_cols, dict(zip(covered, new_top_row)), positions, top_next


def sequence_law(game, reel_set, columns, top, positions, top_next, index, free):
    """Law of (sequence credits in bets before multiplier symbols, final window) from this
    window: {(win, columns key, top key, index after): probability}. Written as a plain
    recursion (no memory of states)."""
    t = game.tumbles
    rule = t.rule(free) if t is not None else None
    out: dict = {}

    def walk(columns, top, positions, top_next, index, won, acc, p):
        win, removed = drop_win(game, columns, top)
        if win == 0 or t is None:
            if win and t is None:
                acc = acc + win * (_rule_value(rule, index) if rule else 1)
                index += 1
            key = (acc, tuple(tuple(c) for c in columns), tuple(sorted(top.items())), index)
            out[key] = out.get(key, 0) + p
            return
        acc = acc + win * _rule_value(rule, index)
        index += 1
        won += 1
        if won >= t.max_drops:
            key = (acc, tuple(tuple(c) for c in columns), tuple(sorted(top.items())), index)
            out[key] = out.get(key, 0) + p
            return
        for q, cols, tp, pos, nxt in _refills(game, reel_set, columns, top, removed,
                                               positions, top_next):
            walk(cols, tp, pos, nxt, index, won, acc, p * q)

    walk(columns, top, positions, top_next, index, 0, Fraction(0), Fraction(1))
    return out


def _value_laws(game, free, count):
    """Law of the combined value of ``count`` multiplier symbols (each drawn alone)."""
    m = game.multipliers
    table = m.table(free)
    total = sum(table.values())
    law = {Fraction(1) if m.combine == "multiply" else Fraction(0): Fraction(1)}
    for _ in range(count):
        nxt: dict = {}
        for a, p in law.items():
            for v, w in table.items():
                key = a * v if m.combine == "multiply" else a + v
                nxt[key] = nxt.get(key, 0) + p * Fraction(w, total)
        law = nxt
    return law


def spin_outcomes(game, reel_set="base", free=False, index=0):
    """{(sequence win in bets, m count, trigger count, scatter pays, index after): p} of one
    spin, over every first window and refill (multiplier values not yet drawn)."""
    fs = game.free_spins
    scatters = [n for n, s in game.symbols.items() if s.scatter]
    counted = fs.trigger if fs is not None else (scatters[0] if len(scatters) == 1 else None)
    mname = _multiplier_name(game)
    top = game.grid.top_reel
    out: dict = {}
    for p, columns, topcells, positions, tstop in _first_windows(game, reel_set):
        top_next = ((tstop + top.last - top.first + 1) if top is not None else 0)
        for (win, cols, tp, idx), q in sequence_law(game, reel_set, columns, topcells,
                                                    positions, top_next, index, free).items():
            cols = [list(c) for c in cols]
            tp = dict(tp)
            m = count_of(cols, tp, mname) if mname else 0
            trig = count_of(cols, tp, counted) if counted else 0
            scat = sum(_scatter_pay(dict(game.symbols[s].pays), count_of(cols, tp, s))
                       for s in scatters)
            key = (win, m, trig, scat, idx)
            out[key] = out.get(key, 0) + p * q
    return out


def spin_law(game, reel_set="base", free=False):
    """{(trigger count, spin win in bets): probability} of one spin, multiplier symbols'
    values drawn (no carried total)."""
    out: dict = {}
    for (win, m, trig, scat, _idx), p in spin_outcomes(game, reel_set, free).items():
        if win and m:
            for v, q in _value_laws(game, free, m).items():
                key = (trig, win * v + scat)
                out[key] = out.get(key, 0) + p * q
        else:
            key = (trig, win + scat)
            out[key] = out.get(key, 0) + p
    return out


# -- a round ------------------------------------------------------------------------------------

def round_law(game):
    """{round win in bets: probability}: the paid spin, then the free spins it awards played
    to their end (retriggers, max_spins, a carried drop index and multiplier total), then the
    max-win cap. Exponential in the spins: tiny games only."""
    fs = game.free_spins
    out: dict = {}
    free_set = fs.reels if fs is not None else None
    cache: dict = {}

    def free_spin(index):
        if index not in cache:
            cache[index] = spin_outcomes(game, free_set, True, index)
        return cache[index]

    carry_index = game.tumbles is not None and game.tumbles.carry_multiplier
    m = game.multipliers
    carry_total = m is not None and m.carry

    def feature(left, awarded, index, running, acc, p):
        if left == 0:
            yield acc, p
            return
        for (win, mc, trig, scat, idx), q in free_spin(index if carry_index else 0).items():
            laws = [(None, Fraction(1))]
            if win and mc:
                laws = list(_value_laws(game, True, mc).items())
            for v, r in laws:
                run = running
                if v is None:
                    factor = 1
                elif carry_total:
                    run = running * v if m.combine == "multiply" else running + v
                    factor = run
                else:
                    factor = v
                spin_win = (win * factor + (scat if fs.scatter_pays else 0)) * fs.multiplier
                more = fs.retrigger_for(trig) if fs.retrigger else 0
                if fs.max_spins is not None:
                    more = min(more, fs.max_spins - awarded)
                yield from feature(left - 1 + more, awarded + more,
                                   idx if carry_index else 0, run, acc + spin_win, p * q * r)

    start_total = Fraction(1) if (m is not None and m.combine == "multiply") else Fraction(0)
    # the feature's law depends only on the spins awarded: walked once per award, not once
    # per paid-spin outcome that awards it
    features: dict = {}
    for (trig, win), p in spin_law(game).items():
        n = fs.award_for(trig) if fs is not None else 0
        if fs is not None and fs.max_spins is not None:
            n = min(n, fs.max_spins)
        if not n:
            out[win] = out.get(win, 0) + p
            continue
        if n not in features:
            law: dict = {}
            for extra, q in feature(n, n, 0, start_total, Fraction(0), Fraction(1)):
                law[extra] = law.get(extra, 0) + q
            features[n] = law
        for extra, q in features[n].items():
            key = win + extra
            out[key] = out.get(key, 0) + p * q
    cap = game.cap_coins(1)
    if cap is not None:
        top = Fraction(cap) / game.total_bet(1)
        capped: dict = {}
        for w, p in out.items():
            capped[min(w, top)] = capped.get(min(w, top), 0) + p
        out = capped
    return out


def mean(law: dict) -> Fraction:
    return sum(w * p for w, p in law.items())
