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
import sys
from collections.abc import Sequence
from fractions import Fraction
from functools import cached_property

import numpy as np

from slotmath.exact import cycle, store
from slotmath.exact.workers import default_workers, map_parts
from slotmath.model.game import Game

__all__ = ["NO_WILD", "STILL_WILD", "WildLines", "WildSpinLaw", "line_pattern_means",
           "spread_cells"]

#: the code that computes a stored table (read at import): part of every store key
_CODE = store.code_fingerprint(cycle, sys.modules[__name__])


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


# -- the exact law of the line win, by what each reel's wild does ---------------------------------
#
# A reel's *option* in one spin: 0 no regular wild lands on it, 1 one lands and does not
# spread, 2 + r one lands on row r and spreads. Given every reel's option the spread cells are
# known, so the strips' stops are independent again and the full-cycle engine
# (slotmath.exact.cycle) pays the window: one run per spread pattern S (which reels spread,
# on which row), every reel without a spread shown with and without its wild (its rows mixed
# by their weights), the reels a non-spreading wild landed on counted as a bit mask in the
# engine's extra digit. What the wild does (spread, coin, free spins) is then the caller's:
# it depends on the bauble above the reel only, never on the strips.

NO_WILD, STILL_WILD = 0, 1  # options 0 and 1; 2 + r: a wild on row r that spreads


def spread_cells(game: Game, spreads: Sequence[int | None]) -> list[set[int]]:
    """Rows made wild on each reel by the spreads ``spreads[j]`` (the row of reel ``j``'s
    spreading wild, or None): the wild's own cell and its 8 neighbours.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/conveyor_tiny.toml")
    >>> spread_cells(g, [None, 0, None])   # rows 0-1 of reels 1-3
    [{0, 1}, {0, 1}, {0, 1}]
    """
    n = game.n_reels
    out: list[set[int]] = [set() for _ in range(n)]
    for i, r in enumerate(spreads):
        if r is None:
            continue
        for j in (i - 1, i, i + 1):
            if 0 <= j < n:
                out[j] |= {x for x in (r - 1, r, r + 1) if 0 <= x < game.rows[j]}
    return out


def _run_dp(prep: dict, reels: list) -> np.ndarray:
    """The engine's DP over ``reels`` ((windows, pack) per reel): dense int64 weights
    ``out[mask, credits]``."""
    from slotmath.exact.cycle import _expand_entries, _fold_last, _last_bound, _step_kernel

    automaton, cap = prep["automaton"], prep["cap"]
    n = len(reels)
    states = np.asarray([automaton.start], dtype=np.int32)
    entries = (np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64),
               np.ones(1, np.int64))
    for j in range(n - 1):
        rw, pack = reels[j]
        states, ptr, outcomes = _step_kernel(
            states, automaton.next_status[j], automaton.emit[j], prep["emit_trigger"][j], 0,
            cap, rw.inputs, rw.ucol, rw.columns, pack, rw.weights, *prep["classes"][j],
            rw.by_effect)
        span = int(entries[2].max()) + int(outcomes[:, 1].max(initial=0)) + 1
        entries = _expand_entries(*entries, ptr, outcomes, prep["add_table"], span)
    rw, pack = reels[n - 1]
    nt, em, final = automaton.next_status[n - 1], automaton.emit[n - 1], automaton.final
    width = int(entries[2].max()) + _last_bound(states, nt, em, final) + 1
    out = np.zeros((cap + 1, width), dtype=np.int64)
    _fold_last(states, nt, em, prep["emit_trigger"][n - 1], 0, cap, final, rw.inputs,
               rw.ucol, rw.columns, pack, rw.weights, rw.by_effect, *entries,
               prep["add_table"], prep["pack_credits"], prep["out_row"], out)
    return out


#: Parts the spread patterns are cut into (interleaved: the costly ones, with few spreads,
#: spread over every part) when several worker processes share them.
PARALLEL_PARTS = 8


def _rows_of(law: WildSpinLaw, patterns: list) -> np.ndarray:
    return np.concatenate([law._rows(p) for p in patterns]) if patterns else \
        np.zeros((0, 3), np.int64)


def _valid_rows(a: np.ndarray) -> bool:
    """A stored table read back is rows (pattern, credits, weight) of int64, weights > 0."""
    return (a.dtype == np.int64 and a.ndim == 2 and a.shape[1] == 3 and len(a) > 0
            and bool((a[:, 2] > 0).all()))


class WildSpinLaw:
    """The exact law of one spin's line win on ``reel_set`` by each reel's wild option.

    ``law(options)`` is ``(credits, weights)``: with ``options[j]`` the option of reel ``j``
    (:data:`NO_WILD`, :data:`STILL_WILD`, ``2 + r`` a wild on row ``r`` that spreads),
    ``weights / denominator`` is the probability that the strips and wild rows give that
    option pattern and pay ``credits`` (in ``credits_per_bet`` per total bet), *before* the
    probability that each landed wild spreads or not, which depends on the bauble above it
    (the caller multiplies by it: with ``P(spread | reel j)`` for a spreading option and
    ``1 - P(spread | reel j)`` for :data:`STILL_WILD`, the weights of every pattern add up
    to ``denominator``).

    Exact: integer weights over the full cycle of the strips times the wild weights (int64,
    checked), from the full-cycle engine, one run per spread pattern.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/conveyor_tiny.toml")
    >>> law = WildSpinLaw(g, "base")
    >>> law.options   # per reel: no wild, a wild that stays, a spread on row 1 or 2
    (4, 4, 4)
    >>> credits, weights = law.law((0, 0, 0))   # no wild anywhere
    >>> int(weights.sum()) * 8 * 7 * 8 == law.denominator * 6 * 5 * 4
    True
    """

    def __init__(self, game: Game, reel_set: str, level: int = 1):
        from slotmath.evaluate.window import PayModel

        self.game, self.reel_set, self.level = game, reel_set, level
        self.model = PayModel(game, level)
        self.credits_per_bet = self.model.credits_per_bet
        self.n = game.n_reels
        self.options = tuple(2 + r for r in game.rows)
        weights = game.random_wilds.weights
        self._wild = [tuple(x // math.gcd(*ws) for x in ws) for ws in weights]
        denominator = 1
        for j, reel in enumerate(game.reel_sets[reel_set].reels):
            denominator *= sum(reel.stop_weights) * sum(self._wild[j])
        if denominator >= 1 << 62:
            raise OverflowError(
                f"{game.name}: the strips' full cycle times the random-wild weights "
                f"({denominator}) is too large for the exact engine's int64 weights; reduce "
                "the stop or wild weights")
        self.denominator = denominator

    @cached_property
    def _prep(self) -> dict:
        from slotmath.exact.automata import line_automaton
        from slotmath.exact.cycle import _packing, _symbol_ids, unit_classes

        game = self.game
        cap = (1 << self.n) - 1
        digits, place, add_table = _packing([cap])
        symbol_ids = _symbol_ids(game)
        automaton = line_automaton(self.model, symbol_ids)
        strips = []
        for j, reel in enumerate(game.reel_sets[self.reel_set].reels):
            merged: dict[tuple[str, ...], int] = {}
            for stop, w in enumerate(reel.stop_weights):
                if w:
                    win = reel.window(stop, game.rows[j])
                    merged[win] = merged.get(win, 0) + w
            strips.append(merged)
        return {
            "automaton": automaton, "cap": cap, "place": place, "add_table": add_table,
            "symbol_ids": symbol_ids, "strips": strips,
            "emit_trigger": tuple(np.zeros_like(em) for em in automaton.emit),
            "classes": [unit_classes(game, j) for j in range(self.n)],
            "pack_credits": np.zeros(len(digits), dtype=np.int64),
            "out_row": np.ascontiguousarray(digits[:, -1], dtype=np.int64),
            "reels": {},
        }

    def _reel(self, j: int, forced: frozenset, spread: int | None):
        """Reel ``j``'s windows with ``forced`` rows wild: its own spreading wild on row
        ``spread``, or (None) without a wild and with one on each row (mask bit ``j``);
        None when no window has a weight (that wild never lands)."""
        from slotmath.exact.cycle import _pack, windows_input

        prep = self._prep
        key = (j, forced, spread)
        if key in prep["reels"]:
            return prep["reels"][key]
        wild = self.game.random_wilds.symbol
        w = self._wild[j]
        merged: dict[tuple, int] = {}

        def add(win, cells, bit, weight):
            if weight:
                shown = tuple(wild if r in cells else s for r, s in enumerate(win))
                merged[shown, bit] = merged.get((shown, bit), 0) + weight

        for win, sw in prep["strips"][j].items():
            if spread is not None:
                add(win, forced, 0, sw * w[1 + spread])
                continue
            add(win, forced, 0, sw * w[0])
            for r in range(self.game.rows[j]):
                add(win, forced | {r}, 1 << j, sw * w[1 + r])
        keys = list(merged)
        if not keys:  # the wild this pattern needs never lands on this reel
            prep["reels"][key] = None
            return None
        rw = windows_input(self.game, self.model, j, [k[0] for k in keys],
                           [merged[k] for k in keys], prep["symbol_ids"], [],
                           extra=[k[1] for k in keys])
        cap = np.asarray([prep["cap"]], dtype=np.int32)
        out = prep["reels"][key] = (rw, _pack(rw, cap, prep["place"]))
        return out

    def _pattern(self, spreads: tuple) -> np.ndarray:
        forced = spread_cells(self.game, spreads)
        reels = [self._reel(j, frozenset(forced[j]), spreads[j]) for j in range(self.n)]
        if any(reel is None for reel in reels):
            return np.zeros((self._prep["cap"] + 1, 1), dtype=np.int64)
        return _run_dp(self._prep, reels)

    def _rows(self, spreads: tuple) -> np.ndarray:
        """The nonzero weights of one spread pattern as rows (pattern code, credits,
        weight): the code numbers the option tuple in mixed radix (:attr:`options`)."""
        dense = self._pattern(spreads)
        masks, credits = np.nonzero(dense)
        code = np.zeros(len(masks), dtype=np.int64)
        for j, radix in enumerate(self.options):
            if spreads[j] is not None:
                option = np.full(len(masks), 2 + spreads[j], dtype=np.int64)
            else:
                option = (masks >> j) & 1
            code = code * radix + option
        return np.stack([code, credits.astype(np.int64), dense[masks, credits]], axis=1)

    @cached_property
    def _store_key(self) -> str:
        prep = self._prep
        a = prep["automaton"]
        ids = prep["symbol_ids"]
        strips = [(np.asarray([[ids[x] for x in win] for win in merged], dtype=np.int64),
                   np.asarray(list(merged.values()), dtype=np.int64))
                  for merged in prep["strips"]]
        return store.key_of(
            "wild-spin-law", _CODE, list(a.next_status), list(a.emit), a.final,
            list(a.start), np.asarray(self.game.paylines, dtype=np.int64),
            list(self.game.rows), strips, [list(w) for w in self._wild],
            ids[self.game.random_wilds.symbol])

    @cached_property
    def _all_rows(self) -> np.ndarray:
        """Every pattern's rows (:meth:`_rows`), from the table store when this exact
        computation was stored before (:mod:`slotmath.exact.store`); the spread patterns
        shared over worker processes when there are many."""
        patterns = list(itertools.product(*([None, *range(rows)] for rows in self.game.rows)))

        def compute():
            first = self._rows(patterns[0])  # compiles the kernels before any fork
            parts = [patterns[1 + i::PARALLEL_PARTS] for i in range(PARALLEL_PARTS)]
            workers = default_workers() if len(patterns) >= 64 else 1
            return np.concatenate([first, *map_parts(_rows_of, parts, workers, self)])

        return store.load_or_compute("wild-spin-law", self._store_key, compute,
                                     valid=_valid_rows)

    @cached_property
    def laws(self) -> dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]]:
        """``{options: (credits, weights)}`` for every option pattern of positive weight."""
        rows = self._all_rows
        rows = rows[np.lexsort((rows[:, 1], rows[:, 0]))]
        codes, starts = np.unique(rows[:, 0], return_index=True)
        out = {}
        for code, lo, hi in zip(codes.tolist(), starts, [*starts[1:], len(rows)]):
            options = []
            for radix in reversed(self.options):
                options.append(code % radix)
                code //= radix
            out[tuple(reversed(options))] = (np.ascontiguousarray(rows[lo:hi, 1]),
                                             np.ascontiguousarray(rows[lo:hi, 2]))
        return out

    def law(self, options: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """``(credits, weights)`` of one option pattern (empty arrays: weight 0)."""
        return self.laws.get(tuple(options), (np.zeros(0, np.int64), np.zeros(0, np.int64)))

    @cached_property
    def moments(self) -> dict[str, np.ndarray]:
        """Float arrays over the option grid (shape :attr:`options`): ``p`` the probability
        of the pattern (before the spread factors), ``mean`` and ``square`` the expected
        credits and squared credits on it (times ``p``), ``zero`` the probability that it
        pays nothing."""
        shape = self.options
        out = {k: np.zeros(shape) for k in ("p", "mean", "square", "zero")}
        d = float(self.denominator)
        for options, (credits, weights) in self.laws.items():
            c = credits.astype(float)
            w = weights.astype(float)
            out["p"][options] = w.sum() / d
            out["mean"][options] = (w @ c) / d
            out["square"][options] = (w @ (c * c)) / d
            out["zero"][options] = float(weights[0]) / d if credits[0] == 0 else 0.0
        return out
