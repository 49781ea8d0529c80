"""The independent reference for hold & win: a plain recursion over every landing outcome.

Written from the rules (docs/game-format.md, ``[hold_and_win]``), sharing no code with
:mod:`slotmath.markov.hold_and_win`: the state is the grid itself (which positions hold which
value rung), the respins left, every gem counter, how often each booster fired and the
multiplier; each respin enumerates every subset of gems landing and, position by position,
blank or cash of each value. It returns the exact law of the round's win, so it is for tiny
grids only (2 reels x 1-2 rows).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, lru_cache

KINDS = ("rows", "values", "respins", "multiplier")


def reference_law(spec, held_rungs: tuple[int, ...]) -> dict[tuple, Fraction]:
    """Exact joint law of (win, respins played, full, fired) of a round starting with cash
    of ``held_rungs`` (ladder indices) held on the first positions of the window."""
    boosters = {b.kind: b for b in spec.boosters}
    total_w = sum(spec.value_weights)
    value_p = [Fraction(w, total_w) for w in spec.value_weights]
    p = Fraction(spec.cash_probability)
    top = spec.top_index

    def n_positions(rows_open):
        return spec.reels * (spec.rows + rows_open)

    def finish(grid, mult, fired):
        win = sum((spec.values[i] for i in grid if i is not None), Fraction(0))
        full = all(i is not None for i in grid)
        if full:
            win += spec.full_grid_prize
        return {(mult * win, 0, full, fired): Fraction(1)}

    def add(out, law, weight):
        for w, q in law.items():
            out[w] = out.get(w, Fraction(0)) + weight * q

    @cache
    def respin(grid, left, reset, counters, fired, mult):
        # grid: tuple over open positions, None = empty, else the rung shown
        if left == 0 or all(i is not None for i in grid):
            return finish(grid, mult, fired)
        out: dict[Fraction, Fraction] = {}
        # gems: every subset of the kinds still collectable
        live = [k for k, kind in enumerate(KINDS) if kind in boosters
                and fired[k] < boosters[kind].times]
        for mask in range(1 << len(live)):
            weight = Fraction(1)
            cnt, fir = list(counters), list(fired)
            g, left2, reset2, mult2 = list(grid), left, reset, mult
            for bit, k in enumerate(live):
                b = boosters[KINDS[k]]
                q = Fraction(b.probability)
                if not (mask >> bit) & 1:
                    weight *= 1 - q
                    continue
                weight *= q
                cnt[k] += 1
                if cnt[k] == b.collect:
                    cnt[k] = 0
                    fir[k] += 1
                    kind = KINDS[k]
                    if kind == "rows":
                        g = g + [None] * spec.reels
                    elif kind == "values":
                        g = [None if i is None else (i if i >= top else i + 1) for i in g]
                    elif kind == "respins":
                        left2 += b.extra
                        reset2 += b.extra
                    else:
                        mult2 = b.ladder[fir[k] - 1]
            if weight == 0:
                continue
            # cash, position by position
            add(out, land(tuple(g), left2, reset2, tuple(cnt), tuple(fir), mult2), weight)
        # this respin is one more played
        return {(w, n + 1, full, fired_): q for (w, n, full, fired_), q in out.items()}

    @cache
    def land(grid, left, reset, counters, fired, mult):
        out: dict[Fraction, Fraction] = {}
        empties = [i for i, v in enumerate(grid) if v is None]

        def walk(pos, g, landed, weight):
            if pos == len(empties):
                left2 = reset if landed else left - 1
                add(out, respin(tuple(g), left2, reset, counters, fired, mult), weight)
                return
            walk(pos + 1, g, landed, weight * (1 - p))
            for rung, vp in enumerate(value_p):
                if vp:
                    g2 = list(g)
                    g2[empties[pos]] = rung
                    walk(pos + 1, g2, True, weight * p * vp)

        walk(0, list(grid), False, Fraction(1))
        return out

    start = list(held_rungs) + [None] * (n_positions(0) - len(held_rungs))
    return respin(tuple(start), spec.respins, spec.respins, (0, 0, 0, 0), (0, 0, 0, 0), 1)


@lru_cache(maxsize=32)
def reference_outcomes(spec, held: int) -> dict[tuple, Fraction]:
    """Joint law of (win, respins played, grid full, times each booster fired) when ``held``
    trigger cash symbols show values drawn from the value law."""
    total_w = sum(spec.value_weights)
    out: dict[Fraction, Fraction] = {}

    def walk(rungs, weight):
        if len(rungs) == held:
            for o, q in reference_law(spec, tuple(rungs)).items():
                out[o] = out.get(o, Fraction(0)) + weight * q
            return
        for rung, w in enumerate(spec.value_weights):
            if w:
                walk(rungs + [rung], weight * Fraction(w, total_w))

    walk([], Fraction(1))
    return out


def reference_start_law(spec, held: int) -> dict[Fraction, Fraction]:
    """The law of the round's win (total bets)."""
    out: dict[Fraction, Fraction] = {}
    for (w, *_rest), q in reference_outcomes(spec, held).items():
        out[w] = out.get(w, Fraction(0)) + q
    return dict(sorted(out.items()))


def reference_figures(spec, held: int) -> dict:
    """Expected respins, P(full), P(booster k fired >= j) from the joint law."""
    law = reference_outcomes(spec, held)
    spins = sum((n * q for (_, n, _, _), q in law.items()), Fraction(0))
    full = sum((q for (_, _, f, _), q in law.items() if f), Fraction(0))
    levels = {}
    for k, kind in enumerate(KINDS):
        b = next((b for b in spec.boosters if b.kind == kind), None)
        if b is None:
            continue
        levels[kind] = [sum((q for (_, _, _, fired), q in law.items() if fired[k] >= j),
                            Fraction(0)) for j in range(1, b.times + 1)]
    return {"spins": spins, "full": full, "levels": levels}
