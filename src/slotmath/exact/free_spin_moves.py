"""The moves of one free spin from each state of a free-spin mechanic, exactly: what the chain
of :mod:`slotmath.markov.free_spin_state` runs over.

Each mechanic enumerates the free reels' full cycle with the marks its state needs, through
the virtual-reel engine (:mod:`slotmath.exact.virtual_reels`), and groups the outcomes into
moves (:class:`~slotmath.markov.free_spin_state.Move`): one per (trigger count, next state),
with the credits each outcome pays (free-spin multiplier included) kept as arrays for the
distribution.

* :class:`PlainMoves`: no state (random awards or a growing multiplier only): the free spin's
  (trigger count, credits) table.
* :class:`ExpandingMoves`: the state is the expanding symbol ``X``; marks: the reels showing
  ``X``; a spin pays its window plus ``lines x pay(X, reels)``.
* :class:`StickyMoves`: the state is the wild on each sticky-capable cell (or none); each
  state's spin is enumerated with its sticky cells forced, the wilds landing on the other
  cells counted per reel (one digit a reel; a reel split off when the digits are too many
  for one table is enumerated once per digit).
* :class:`CollectorMoves`: the state is the collectors counted so far; marks: collectors and
  cash symbols in the window; the cash values are summed by their exact law (its
  characteristic function for the distribution, its moments for the exact figures).

The brute-force references (``tests/free_spin_state_reference.py``) share no code with this
module or the engine.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cached_property

import numpy as np

from slotmath.evaluate.window import PayModel
from slotmath.exact.spin_table import SpinTable
from slotmath.exact.virtual_reels import JointEngine, VirtualReel, strip_reel
from slotmath.markov.free_spin_state import Move
from slotmath.model.game import Game
from slotmath.model.rules import sticky_plan

__all__ = ["CollectorMoves", "ExpandingMoves", "PlainMoves", "StickyMoves", "moves_of"]


class _Laws:
    """Credit laws kept as arrays: ``law -> (credits, weights)`` (int64, weights over the
    mechanic's cycle), their moments exact."""

    def __init__(self):
        self.arrays: dict = {}

    def add(self, law, credits: np.ndarray, weights: np.ndarray) -> tuple[int, int, int, int]:
        """Keep the law; its (weight, sum c w, sum c^2 w, weight at c = 0), exactly."""
        credits = np.asarray(credits, np.int64)
        weights = np.asarray(weights, np.int64)
        self.arrays[law] = (credits, weights)
        return _moments(credits, weights)

    def spectrum(self, law, length: int, unit: int, scale: int, cycle: int):
        """The law's spectrum on the grid and its rounded mean (grid units, times its
        probability): each win rounded to the nearest point of ``unit`` credits."""
        at, p = self.points(law, unit, scale, cycle)
        return (np.fft.rfft(np.bincount(at % length, weights=p, minlength=length)),
                float(at @ p))

    def points(self, law, unit: int, scale: int, cycle: int):
        """The law's wins rounded to the nearest point of ``unit`` credits (grid units) and
        their probabilities."""
        credits, weights = self.arrays[law]
        return (credits * scale + unit // 2) // unit, weights / cycle

    def most(self, law) -> int:
        credits, _ = self.arrays[law]
        return int(credits.max(initial=0))


def _moments(credits: np.ndarray, weights: np.ndarray) -> tuple[int, int, int, int]:
    """(sum w, sum c w, sum c^2 w, sum_{c=0} w) as Python integers (int64 where it cannot
    overflow, else exact Python arithmetic)."""
    w = int(weights.sum())
    top = int(credits.max(initial=0))
    if top * top * max(w, 1) < 1 << 62:
        c1 = int(credits @ weights)
        c2 = int((credits * credits) @ weights)
    else:
        cs, ws = credits.tolist(), weights.tolist()
        c1 = sum(c * x for c, x in zip(cs, ws))
        c2 = sum(c * c * x for c, x in zip(cs, ws))
    return w, c1, c2, int(weights[credits == 0].sum())


def _gcd_of(values) -> int:
    g = 0
    for v in values:
        g = math.gcd(g, int(v))
    return g


class PlainMoves:
    """No state: one move per trigger count of the free spin ``table`` (credits as paid,
    multiplier included).

    Examples
    --------
    >>> m = PlainMoves(SpinTable({(0, 0): 3, (1, 4): 1}, 4, 4, 1))
    >>> [(mv.weight, mv.trigger, mv.c1) for mv in m.moves(None)]
    [(3, 0, 0), (1, 1, 4)]
    """

    awards = False

    def __init__(self, table: SpinTable):
        self.table = table
        self.cycle = table.cycle
        self.credits_per_bet = table.credits_per_bet
        self._laws = _Laws()
        by_trigger: dict[int, tuple[list, list]] = {}
        for (t, c), w in sorted(table.weights.items()):
            cs, ws = by_trigger.setdefault(t, ([], []))
            cs.append(c)
            ws.append(w)
        self._moves = tuple(Move(*_split(self._laws.add(t, np.array(cs), np.array(ws)), t, None,
                                         0, t)) for t, (cs, ws) in by_trigger.items())
        self.grid_unit = _gcd_of(c for _, c in table.weights)

    def start(self):
        return ((1, None),)

    def moves(self, state):
        return self._moves

    def max_credits(self, law) -> int:
        return self._laws.most(law)

    def spectrum(self, law, length, unit, scale):
        return self._laws.spectrum(law, length, unit, scale, self.cycle)

    def points(self, law, unit, scale):
        return self._laws.points(law, unit, scale, self.cycle)


def _split(moments, trigger, state, award, law) -> tuple:
    w, c1, c2, z = moments
    return (w, trigger, state, award, c1, c2, z, law)


class ExpandingMoves:
    """The expanding symbol (:class:`slotmath.model.free_spin_state.ExpandingSymbol`) on
    ``game``'s free reels at bet ``level``.

    A free spin with expanding symbol ``X`` pays its window and, when ``X`` shows on ``k``
    reels (anywhere in each), ``lines x pay(X, k)`` line pays more (``pay`` 0 where ``X``
    does not pay for ``k``), all times the free-spin multiplier.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/free_spin_state/tiny_book.toml")
    >>> m = ExpandingMoves(g)
    >>> sorted(x for _, x in m.start()), sum(mv.weight for mv in m.moves("A")) == m.cycle
    (['A', 'K'], True)
    """

    awards = False

    def __init__(self, game: Game, level: int = 1, model: PayModel | None = None):
        fs = game.free_spins
        self.game, self.spec = game, fs.state
        self.model = model or PayModel(game, level)
        self.engine = JointEngine(game, level, caps=(game.n_reels,), trigger=fs.retrigger,
                                  model=self.model)
        rs = game.reel_sets[fs.reels]
        self.cycle = rs.cycle
        self.credits_per_bet = self.model.credits_per_bet
        self.multiplier = fs.multiplier
        self._laws = _Laws()
        self._moves: dict = {}
        self.expansions = {x: self.expansion_table(x) for x, w in self.spec.symbols if w}

    def expansion(self, symbol: str, reels: int) -> int:
        """Credits the expanded ``symbol`` pays on ``reels`` reels (before the multiplier)."""
        return self.game.n_lines * self.model.key_credits[symbol].get(reels, 0)

    def expansion_table(self, symbol: str) -> dict[tuple[int, int, int], int]:
        """Exact weights of (trigger count, reels showing ``symbol``, window credits)."""
        fs = self.game.free_spins
        reels = [strip_reel(self.game, fs.reels, j, marks=lambda w: (int(symbol in w),))
                 for j in range(self.game.n_reels)]
        return self.engine.table(reels)

    def start(self):
        return tuple((w, x) for x, w in self.spec.symbols if w)

    def moves(self, symbol):
        got = self._moves.get(symbol)
        if got is None:
            by_trigger: dict[int, dict[int, int]] = {}
            for (t, k, c), w in self.expansions[symbol].items():
                total = (c + self.expansion(symbol, k)) * self.multiplier
                law = by_trigger.setdefault(t, {})
                law[total] = law.get(total, 0) + w
            got = tuple(
                Move(*_split(self._laws.add((symbol, t), np.fromiter(law, np.int64),
                                            np.fromiter(law.values(), np.int64)),
                             t, symbol, 0, (symbol, t)))
                for t, law in sorted(by_trigger.items()))
            self._moves[symbol] = got
        return got

    @cached_property
    def grid_unit(self) -> int:
        for x in self.expansions:
            self.moves(x)
        return _gcd_of(c for cs, _ in self._laws.arrays.values() for c in np.unique(cs))

    def max_credits(self, law) -> int:
        return self._laws.most(law)

    def spectrum(self, law, length, unit, scale):
        return self._laws.spectrum(law, length, unit, scale, self.cycle)

    def points(self, law, unit, scale):
        return self._laws.points(law, unit, scale, self.cycle)


class StickyMoves:
    """Sticky wilds (:class:`slotmath.model.free_spin_state.StickyWilds`) on ``game``'s free
    reels at bet ``level``.

    The state is a tuple over the sticky-capable cells (every row of each reel whose free
    strip shows a sticky wild), 0 for none or ``1 + i`` for sticky wild ``i``. A state's
    spin is enumerated with its cells forced to their wilds; on the other cells, the sticky
    wilds a stop shows land, counted per reel as one digit (the landing pattern in base
    ``w + 1`` over the reel's rows, ``w`` the sticky wilds its strip shows). When those
    digits and the scatters' counts are too many for one engine table, the wild reels of
    :func:`slotmath.model.rules.sticky_plan` are split off: a reel's digit depends on its own
    stop only, so the engine runs once per digit the reel's stops show, on those stops (the
    runs partition the cycle; the moves stay exact).

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/free_spin_state/tiny_sticky.toml")
    >>> m = StickyMoves(g)
    >>> m.cells, m.start()
    (((1, 0), (1, 1), (1, 2)), ((1, (0, 0, 0)),))
    >>> sum(mv.weight for mv in m.moves((0, 0, 0))) == m.cycle
    True
    """

    awards = False

    def __init__(self, game: Game, level: int = 1, model: PayModel | None = None,
                 progress=None):
        fs = game.free_spins
        self.game, self.fs = game, fs
        self.wilds = tuple(fs.state.symbols)
        self.model = model or PayModel(game, level)
        rs = game.reel_sets[fs.reels]
        self.wild_reels = tuple(j for j, reel in enumerate(rs.reels)
                                if any(s in self.wilds for s in reel.symbols))
        self.cells = tuple((j, r) for j in self.wild_reels for r in range(game.rows[j]))
        # the sticky wilds each reel's strip shows: a reel's landing digit is written in base
        # (its wilds + 1) over its rows
        self.reel_wilds = {j: tuple(w for w in self.wilds if w in rs.reels[j].symbols)
                           for j in self.wild_reels}
        self.caps = tuple((len(self.reel_wilds[j]) + 1) ** game.rows[j] - 1
                          for j in self.wild_reels)
        # the wild reels split off (their landing digit fixed per engine run) and those
        # whose digits the engine counts (rules.sticky_plan)
        self.split = sticky_plan(game)[0]
        self.counted = tuple(j for j in self.wild_reels if j not in self.split)
        self.engine = JointEngine(game, level,
                                  caps=tuple(self.caps[self.wild_reels.index(j)]
                                             for j in self.counted),
                                  trigger=fs.retrigger, model=self.model)
        self.cycle = rs.cycle
        self.credits_per_bet = self.model.credits_per_bet
        self.progress = progress  # progress(states enumerated, states possible)
        self._laws = _Laws()
        self._moves: dict = {}
        self._reels: dict = {}
        self._tables: dict = {}  # enumerated ahead (prepare), not yet made moves

    def __getstate__(self):  # sent to a worker of slotmath.executor: it reports no progress
        return {**self.__dict__, "progress": None}

    @property
    def states(self) -> int:
        """How many states the cells can be in: the product over cells of (the wilds their
        reel shows + 1)."""
        out = 1
        for j, _ in self.cells:
            out *= len(self.reel_wilds[j]) + 1
        return out

    def start(self):
        return ((1, (0,) * len(self.cells)),)

    def _reel(self, j: int, sub: tuple[int, ...]):
        """Reel ``j`` with its cells' sticky wilds ``sub`` (one entry a row) forced: a
        virtual reel whose marks are the landing digits of the counted reels (its own, if
        it is one); for a reel split off, ``{its landing digit: the virtual reel of the
        stops that show it}``."""
        key = (j, sub)
        got = self._reels.get(key)
        if got is None:
            wilds = self.wilds
            here = self.reel_wilds.get(j, ())
            base = len(here) + 1
            reel = self.game.reel_sets[self.fs.reels].reels[j]
            rows = self.game.rows[j]
            zero = (0,) * len(self.counted)
            slot = self.counted.index(j) if j in self.counted else -1
            parts: dict = {}
            for stop, w in enumerate(reel.stop_weights):
                if not w:
                    continue
                window = reel.window(stop, rows)
                if here:
                    shown = tuple(wilds[sub[r] - 1] if sub[r] else s
                                  for r, s in enumerate(window))
                    digit = sum((1 + here.index(s)) * base**r
                                for r, s in enumerate(window) if not sub[r] and s in here)
                else:
                    shown, digit = window, 0
                marks = zero
                if slot >= 0:
                    marks = zero[:slot] + (digit,) + zero[slot + 1:]
                part = parts.setdefault(digit if j in self.split else 0, {})
                part[shown, marks] = part.get((shown, marks), 0) + w
            if j in self.split:
                got = {d: VirtualReel(e) for d, e in sorted(parts.items())}
            else:
                got = VirtualReel(parts[0])
            self._reels[key] = got
        return got

    def landed(self, state: tuple[int, ...], digits: tuple[int, ...]) -> tuple[int, ...]:
        """The state after a spin whose landing digits (one a wild reel) are ``digits``."""
        out = list(state)
        i = 0
        for slot, j in enumerate(self.wild_reels):
            here = self.reel_wilds[j]
            base = len(here) + 1
            d = digits[slot]
            for r in range(self.game.rows[j]):
                if d % base:
                    out[i] = 1 + self.wilds.index(here[d % base - 1])
                d //= base
                i += 1
        return tuple(out)

    def subs(self, state) -> dict[int, tuple[int, ...]]:
        out, i = {}, 0
        for j in self.wild_reels:
            out[j] = tuple(state[i:i + self.game.rows[j]])
            i += self.game.rows[j]
        return out

    def _enumerate(self, state):
        """The state's spin: arrays (row, credits, weight), ``row`` the mixed-radix index of
        (trigger count, each wild reel's landing digit). One engine run counts the counted
        reels' digits; a reel split off is run once per landing digit its stops show (the
        runs' weights add up to the cycle: each stop is in exactly one)."""
        subs = self.subs(state)
        reels = [self._reel(j, subs.get(j, (0,) * self.game.rows[j]))
                 for j in range(self.game.n_reels)]
        if not self.split:
            return self.engine.sparse(reels)
        counted_radices = [self.caps[self.wild_reels.index(j)] + 1 for j in self.counted]
        out_r, out_c, out_w = [], [], []
        for combo in itertools.product(*(reels[j].items() for j in self.split)):
            run = list(reels)
            fixed = {}
            for j, (digit, part) in zip(self.split, combo):
                run[j] = part
                fixed[j] = digit
            rows, credits, weights = self.engine.sparse(run)
            rest = rows.copy()
            digits = {}
            for j, radix in zip(reversed(self.counted), reversed(counted_radices)):
                digits[j] = rest % radix
                rest //= radix
            full = rest  # the trigger count, then each wild reel's digit
            for slot, j in enumerate(self.wild_reels):
                full = full * (self.caps[slot] + 1) + (digits[j] if j in digits else fixed[j])
            out_r.append(full)
            out_c.append(credits)
            out_w.append(weights)
        return np.concatenate(out_r), np.concatenate(out_c), np.concatenate(out_w)

    def prepare(self, states) -> None:
        """Enumerate the spins of ``states`` at once, over :data:`WORKERS` forked processes
        when there are many (:func:`slotmath.exact.workers.map_parts`; the kernels are
        compiled here first)."""
        from slotmath.exact.workers import default_workers, map_parts

        todo = [s for s in dict.fromkeys(states) if s not in self._moves
                and s not in self._tables]
        workers = default_workers() if len(todo) >= PARALLEL_STATES else 1
        if workers > 1:
            self._tables[todo[0]] = self._enumerate(todo[0])  # compiles the kernels here
            todo = todo[1:]
        chunks = [todo[i::4 * workers] for i in range(4 * workers)] if workers > 1 else [todo]
        for chunk, tables in zip(chunks, map_parts(_enumerate_states, chunks, workers,
                                                   shared=self)):
            for state, table in zip(chunk, tables):
                self._tables[state] = table
        if self.progress is not None:
            self.progress(len(self._tables) + len(self._moves), self.states)

    def moves(self, state):
        got = self._moves.get(state)
        if got is None:
            table = self._tables.pop(state, None)
            rows, credits, weights = table if table is not None else self._enumerate(state)
            credits = credits * self.fs.multiplier
            radices = [c + 1 for c in self.caps]
            order = np.argsort(rows, kind="stable")
            rows, credits, weights = rows[order], credits[order], weights[order]
            cut = np.flatnonzero(np.diff(rows)) + 1
            out = []
            for lo, hi in zip(np.r_[0, cut], np.r_[cut, len(rows)]):
                rest = int(rows[lo])
                digits = []
                for radix in reversed(radices):
                    digits.append(rest % radix)
                    rest //= radix
                t = rest
                nxt = self.landed(state, tuple(reversed(digits)))
                law = (state, t, nxt)
                out.append(Move(*_split(self._laws.add(law, credits[lo:hi], weights[lo:hi]),
                                        t, nxt, 0, law)))
            got = self._moves[state] = tuple(out)
        return got

    @property
    def grid_unit(self) -> int:
        """A divisor of every credit value: the pay model's credits (line and scatter pays,
        multiplied by the wilds' multipliers and the free-spin multiplier) are multiples of
        the gcd of the base pays."""
        pays = [c for t in self.model.key_credits.values() for c in t.values()]
        pays += [c for t in self.model.scatter_credits.values() for c in t]
        return _gcd_of(pays) * self.fs.multiplier

    def max_credits(self, law) -> int:
        return self._laws.most(law)

    def spectrum(self, law, length, unit, scale):
        return self._laws.spectrum(law, length, unit, scale, self.cycle)

    def points(self, law, unit, scale):
        return self._laws.points(law, unit, scale, self.cycle)


#: Sticky-wild states enumerated over worker processes from this many at once.
PARALLEL_STATES = 32


def _enumerate_states(mechanic: StickyMoves, states) -> list:
    """The engine's tables of ``states`` (run in a worker: module level, nothing pickled in)."""
    return [mechanic._enumerate(s) for s in states]


class CollectorMoves:
    """A collector (:class:`slotmath.model.free_spin_state.Collector`) on ``game``'s free
    reels at bet ``level``.

    Marks: the collectors and the cash symbols in the window. The state is the collectors
    counted so far (capped where the ladder stops). A spin with ``nc`` collectors and
    ``nf`` cash symbols at ladder multiplier ``m`` pays its window's credits ``L`` and
    ``nc x V`` collected, ``V`` the sum of ``nf`` values drawn independently by weight; the
    ladder multiplies ``V`` (``applies = "collected"``) or the whole spin (``"all"``), the
    free-spin multiplier the whole spin. Credits are ``credits_per_bet`` a bet: the pay
    model's, made fine enough for every cash value.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/free_spin_state/tiny_collector.toml")
    >>> m = CollectorMoves(g)
    >>> m.start(), sum(mv.weight for mv in m.moves(0)) == m.cycle
    (((1, 0),), True)
    """

    def __init__(self, game: Game, level: int = 1, model: PayModel | None = None):
        fs = game.free_spins
        self.game, self.fs, self.spec = game, fs, fs.state
        self.model = model or PayModel(game, level)
        window = sum(game.rows)
        self.engine = JointEngine(game, level, caps=(window, window), trigger=fs.retrigger,
                                  model=self.model)
        self.cycle = game.reel_sets[fs.reels].cycle
        denominators = [Fraction(v).denominator for v, _ in self.spec.values]
        self.credits_per_bet = math.lcm(self.model.credits_per_bet, *denominators)
        self.line_scale = self.credits_per_bet // self.model.credits_per_bet
        self.value_credits = tuple((int(v * self.credits_per_bet), w)
                                   for v, w in self.spec.values if w)
        total = sum(w for _, w in self.value_credits)
        self.value_total = total
        self._value_cache: tuple = (None, None)
        self.value_mean = Fraction(sum(v * w for v, w in self.value_credits), total)
        self.value_square = Fraction(sum(v * v * w for v, w in self.value_credits), total)
        self.awards = self.spec.retrigger > 0
        self.rounded_terms = 1 + sum(game.rows)  # the window's credits and each cash value
        self._moves: dict = {}

    @cached_property
    def classes(self) -> dict[tuple[int, int, int], tuple[np.ndarray, np.ndarray]]:
        """(trigger, collectors, cash symbols) -> the window credits' law (credits in this
        mechanic's units, before any multiplier; weights)."""
        spec = self.spec
        cash = frozenset(spec.cash)
        reels = [strip_reel(self.game, self.fs.reels, j,
                            marks=lambda w: (w.count(spec.collector),
                                             sum(s in cash for s in w)))
                 for j in range(self.game.n_reels)]
        acc: dict = {}
        for (t, nc, nf, c), w in self.engine.table(reels).items():
            law = acc.setdefault((t, nc, nf), {})
            law[c * self.line_scale] = law.get(c * self.line_scale, 0) + w
        return {k: (np.fromiter(v, np.int64), np.fromiter(v.values(), np.int64))
                for k, v in sorted(acc.items())}

    def start(self):
        return ((1, 0),)

    def factors(self, level: int, nc: int) -> tuple[int, int]:
        """(multiplier of the window credits, of each collected value) at ladder ``level``
        for a spin with ``nc`` collectors."""
        m = self.spec.multiplier(level)
        fm = self.fs.multiplier
        if self.spec.applies == "all":
            return m * fm, nc * m * fm
        return fm, nc * m * fm

    def moves(self, collected: int):
        got = self._moves.get(collected)
        if got is None:
            spec = self.spec
            level = spec.level(collected)
            out = []
            for (t, nc, nf), (cs, ws) in self.classes.items():
                after = min(collected + nc, spec.top)
                award = spec.retrigger * (spec.level(after) - level)
                a, k = self.factors(level, nc)
                w, l1, l2, lz = _moments(cs * a, ws)
                ev = nf * self.value_mean  # E[V], E[V^2] of the sum of nf values
                ev2 = nf * self.value_square + nf * (nf - 1) * self.value_mean**2
                kk = k if nf else 0
                c1 = l1 + kk * ev * w
                c2 = l2 + 2 * kk * ev * l1 + kk * kk * ev2 * w
                zero = lz if kk == 0 else 0
                out.append(Move(w, t, after, award, c1, c2, zero, (t, nc, nf, level)))
            got = self._moves[collected] = tuple(out)
        return got

    @property
    def grid_unit(self) -> int:
        lines = _gcd_of(c for cs, _ in self.classes.values() for c in np.unique(cs))
        return math.gcd(lines, _gcd_of(v for v, _ in self.value_credits)) * self.fs.multiplier

    def max_credits(self, law) -> int:
        t, nc, nf, level = law
        a, k = self.factors(level, nc)
        cs, _ = self.classes[t, nc, nf]
        return int(cs.max(initial=0)) * a + k * nf * max(v for v, _ in self.value_credits)

    def spectrum(self, law, length, unit, scale):
        t, nc, nf, level = law
        a, k = self.factors(level, nc)
        cs, ws = self.classes[t, nc, nf]
        at = (cs * a * scale + unit // 2) // unit
        p = ws / self.cycle
        out = np.fft.rfft(np.bincount(at % length, weights=p, minlength=length))
        mean = float(at @ p)
        if nc and nf:
            phi, value_mean = self._value_spectrum(k * scale, length, unit)
            out = out * phi**nf
            mean += nf * value_mean * float(p.sum())
        return out, mean

    def _value_spectrum(self, factor: int, length: int, unit: int):
        """The spectrum of one cash value times ``factor`` (rounded to the grid) and its
        mean (grid units); the last one asked is kept (the chain asks for every law at one
        grid before the next)."""
        key = (factor, length, unit)
        if self._value_cache[0] != key:
            steps = np.array([(v * factor + unit // 2) // unit for v, _ in self.value_credits],
                             np.int64)
            probs = np.array([w / self.value_total for _, w in self.value_credits])
            self._value_cache = (key, (np.fft.rfft(np.bincount(steps % length, weights=probs,
                                                               minlength=length)),
                                       float(steps @ probs)))
        return self._value_cache[1]


def moves_of(game: Game, level: int = 1, model: PayModel | None = None, table=None):
    """The mechanic of ``game``'s free spins (``table``: the free spin's table, for a feature
    without a state)."""
    state = game.free_spins.state
    if state is None:
        return PlainMoves(table)
    cls = {"expanding_symbol": ExpandingMoves, "sticky_wilds": StickyMoves,
           "collector": CollectorMoves}[state.kind]
    return cls(game, level, model)
