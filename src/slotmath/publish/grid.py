"""A simulated grid game (Megaways, pay anywhere, clusters; tumbles, multiplier symbols, free
spins) as a Stake Engine export: the lookup table from the seeded simulation's counts, each
row's book a round of that simulation played again by a plain player.

Grid games whose round has no exact law (a random refill, a multiplier carried over free
spins: Cluster Crush, Sugar Tumble, Megaways Bonanza) are analysed by a seeded simulation
(:mod:`slotmath.simulate.grid`). Their export is what Stake's own math-sdk does for every game
(it simulates rounds, writes each as a book and weighs them by how often they came up), with
the weights and the books tied to the analysis:

* **The law** (:func:`simulated_law`): the analysis' own rounds (its ``N`` and ``seed``, the
  same blocks of :data:`~slotmath.simulate.grid.BLOCK` rounds, each on its own generator
  stream) are played again by a compiled loop that keeps each round's win and the generator's
  state at its start (:func:`_tally_blocks`: the simulator's spin kernel, the round put
  together as the simulator's ``play_block`` does). Their count per distinct win is the law:
  ``P(win = x) = count(x) / N``. It is the analysis' simulation, round for round: the sum of
  the wins, the rounds that win, the top win and its count must equal the simulation's own
  sums exactly, or the export stops. The table's weights are these counts, rounded to 0.1x
  steps (:func:`slotmath.publish.table.lookup_table`): integers, exact, adding up to ``N``.
  The table's RTP differs from the analysis' estimate only by the rounding (stated exactly);
  the estimate's standard error is that of the simulation (stated beside it).
* **The books** (:class:`GridRoundPlayer`): for each row, the first simulated round (in block
  order) whose win goes to that row is played again from the generator state it started with,
  by a player written here in plain Python from ``docs/game-format.md`` ("Grid games": one
  spin, in order), which shares no evaluation code with the simulator: it draws from the same
  xoshiro256** stream in the order the rules give (heights, stops, the top reel, multiplier
  values, random refills) and evaluates every drop, tumble, multiplier symbol, scatter and
  free spin on symbol names with exact fractions. Its win must be the simulated round's, to
  the credit, or the export stops. The book records the round's origin (seed, block, round,
  generator state), the reveal, each drop's wins and multiplier, each tumble's board, the
  multiplier symbols, the free spins (trigger, retriggers, each spin) and the cap.

Every row has a book: a row's weight comes from simulated rounds, and each of them is one the
player can play. What a simulated table cannot do: hold payouts the simulation never saw (the
tail beyond its top win), and give its top payout a probability better than about 1 in ``N``
(Stake's rule "max win more often than 1 in 10,000,000" fails for ``N`` above 10 million when
the top win came up once: said in ``docs/publish.md``).
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from numba import njit, prange

from slotmath.publish.spins import amount_fields, board, close_round
from slotmath.simulate import _grid_kernels as gk

__all__ = ["GridBooks", "GridRoundPlayer", "SimulatedLaw", "Xoshiro", "book", "simulated_law"]

#: blocks of rounds tallied per call of the compiled loop (their wins and states in memory)
CHUNK_BLOCKS = 16
_M64 = (1 << 64) - 1
_M32 = (1 << 32) - 1


# -- the law: the analysis' rounds again, each round's win and starting state ----------------
@njit(cache=True)
def _tally_block(tab_in, s, rounds, wins, starts):
    """Play ``rounds`` paid rounds on stream ``s`` as the simulator's ``play_block`` does
    (the same draws: its spin kernel, the same round), keeping each round's win (credits,
    after the cap) in ``wins`` and the stream's state before it in ``starts``."""
    tab = tab_in.copy()
    W = gk._work(tab)
    q = tab[gk.Q_OUT]
    awards_n = tab[gk.K_W] + 1
    has_free = tab[gk.K_HASFREE] != 0
    max_spins = tab[gk.K_MAXSPINS]
    carry_index = tab[gk.K_CARRY] != 0
    m_carry = tab[gk.K_MCARRY] != 0
    m_multiply = tab[gk.K_MMUL] != 0
    retrigger = tab[gk.K_RETRIG] != 0
    free_scatter = tab[gk.K_FREESCAT] != 0
    free_multiplier = tab[gk.K_FREEMULT]
    cap = tab[gk.K_CAP]
    limit = gk._LIMIT
    for i in range(rounds):
        for j in range(4):
            starts[i, j] = s[j]
        gk.spin(tab, W, s, 0, 0, 1)
        seq = W[q + gk.OUT_FIRST] + W[q + gk.OUT_LATER]
        msym = np.int64(0)
        if seq > 0 and W[q + gk.OUT_MCOUNT] > 0:
            msym = seq * (W[q + gk.OUT_MVALUE] - 1)
        paid = seq + msym + W[q + gk.OUT_SCATTER]
        trig = W[q + gk.OUT_TRIGGER]
        free_total = np.int64(0)
        awarded = 0
        if has_free:
            awarded = tab[tab[gk.O_AWARDS] + min(trig, awards_n - 1)]
        if awarded > 0:
            if max_spins >= 0 and awarded > max_spins:
                awarded = max_spins
            left = awarded
            index = 0
            running = np.int64(1) if m_multiply else np.int64(0)
            while left > 0:
                left -= 1
                gk.spin(tab, W, s, 1, index if carry_index else 0, 0)
                if carry_index:
                    index = W[q + gk.OUT_INDEX]
                fseq = W[q + gk.OUT_FIRST] + W[q + gk.OUT_LATER]
                if fseq > 0 and W[q + gk.OUT_MCOUNT] > 0:
                    if m_carry:
                        if m_multiply:
                            running *= W[q + gk.OUT_MVALUE]
                        else:
                            running += W[q + gk.OUT_MVALUE]
                        factor = running
                    else:
                        factor = W[q + gk.OUT_MVALUE]
                    if factor > 0 and fseq > limit // factor:
                        fseq = limit
                    else:
                        fseq *= factor
                spin_win = fseq + (W[q + gk.OUT_SCATTER] if free_scatter else 0)
                free_total += spin_win * free_multiplier
                if retrigger:
                    more = tab[tab[gk.O_REAWARDS] + min(W[q + gk.OUT_TRIGGER], awards_n - 1)]
                    if more > 0:
                        if max_spins >= 0 and awarded + more > max_spins:
                            more = max_spins - awarded
                        awarded += more
                        left += more
        win = paid + free_total
        if cap >= 0 and win > cap:
            win = cap
        wins[i] = win


@njit(parallel=True, cache=True)
def _tally_blocks(tab, states, rounds, wins, starts):
    """Block ``b`` (``rounds[b]`` rounds from stream ``states[b]``) into row ``b`` of
    ``wins`` and ``starts``, blocks in parallel."""
    for b in prange(states.shape[0]):
        _tally_block(tab, states[b].copy(), rounds[b], wins[b], starts[b])


@dataclass
class SimulatedLaw:
    """The round's law as the seeded simulation found it: ``counts[credits]`` of ``rounds``
    rounds (``credits_per_bet`` credits a bet), and for each distinct win the first round
    that paid it: ``(block, round in block, generator state)``.

    Attributes
    ----------
    rounds, seed, block : int
        The simulation's rounds, seed and rounds per block.
    credits_per_bet : int
    counts : dict credits -> int
    first : dict credits -> (int, int, tuple of 4 int)
    estimate : Estimate
        The analysis' RTP estimate (mean and standard error) of the same rounds.
    seconds : float
        The time the rounds took to play again.
    """

    rounds: int
    seed: int
    block: int
    credits_per_bet: int
    counts: dict[int, int]
    first: dict[int, tuple]
    estimate: object
    seconds: float = 0.0

    @property
    def mean(self) -> Fraction:
        """The mean win (bets), exactly: the simulation's estimate as a fraction."""
        total = sum(c * n for c, n in self.counts.items())
        return Fraction(total, self.rounds * self.credits_per_bet)

    def probabilities(self) -> dict[Fraction, Fraction]:
        """Amount (bets) -> probability, ``count / rounds`` exactly."""
        cpb = self.credits_per_bet
        return {Fraction(c, cpb): Fraction(n, self.rounds) for c, n in self.counts.items()}


def _simulation(analysis):
    """The owner feature's figures and their simulation (None: the round is not simulated)."""
    from slotmath.features.grid import GridFigures

    for result in analysis.features.values():
        if isinstance(result, GridFigures) and result.simulation is not None:
            return result
    return None


def simulated_law(analysis, progress=None) -> SimulatedLaw:
    """The law of ``analysis``' simulated rounds (see the module notes), checked round for
    round against the simulation's own sums.

    Examples
    --------
    >>> import dataclasses, slotmath
    >>> g = slotmath.load_game("data/games/cluster_crush.toml")
    >>> g = dataclasses.replace(g, analysis=dataclasses.replace(g.analysis, rounds=3000))
    >>> law = simulated_law(slotmath.analyze(g))
    >>> law.rounds, sum(law.counts.values()), abs(float(law.mean) - law.estimate) < 1e-12
    (3000, 3000, True)
    """
    import time

    from slotmath.simulate import grid as sg

    figures = _simulation(analysis)
    if figures is None:
        raise ValueError(f"{analysis.game.name}: the round is not simulated (no seeded law to "
                         "export from)")
    sim = figures.simulation
    block = sg.BLOCK
    n = sim.rounds
    sizes = [block] * (n // block) + ([n % block] if n % block else [])
    if len(sizes) != sim.blocks:
        raise AssertionError(f"{analysis.game.name}: the simulation played {sim.blocks} blocks, "
                             f"not the {len(sizes)} of {n:,} rounds in blocks of {block:,}")
    tab = sg.grid_tables(analysis.game, analysis.level)
    cpb = int(tab[gk.K_CPB])
    states = sg._states(np.random.SeedSequence(sim.seed), len(sizes))
    counts: dict[int, int] = {}
    first: dict[int, tuple] = {}
    start = time.perf_counter()
    for at in range(0, len(sizes), CHUNK_BLOCKS):
        part = sizes[at:at + CHUNK_BLOCKS]
        wins = np.zeros((len(part), block), np.int64)
        starts = np.zeros((len(part), block, 4), np.uint64)
        _tally_blocks(tab, states[at:at + len(part)], np.array(part, np.int64), wins, starts)
        for b, size in enumerate(part):
            values, where, how_many = np.unique(wins[b, :size], return_index=True,
                                                return_counts=True)
            for x, i, c in zip(values.tolist(), where.tolist(), how_many.tolist()):
                counts[x] = counts.get(x, 0) + c
                if x not in first:
                    first[x] = (at + b, i, tuple(int(v) for v in starts[b, i]))
        if progress is not None:
            progress(min(at + CHUNK_BLOCKS, len(sizes)) * block, n)
    seconds = time.perf_counter() - start
    ints = sim.sums.ints[0]
    mine = {"rounds": sum(counts.values()), "win": sum(c * k for c, k in counts.items()),
            "hits": sum(k for c, k in counts.items() if c > 0), "top": max(counts),
            "top_count": counts[max(counts)]}
    theirs = {"rounds": int(ints[gk.RND]), "win": int(ints[gk.WIN]), "hits": int(ints[gk.HITS]),
              "top": int(ints[gk.TOP]), "top_count": int(ints[gk.TOP_COUNT])}
    if mine != theirs or cpb != sim.credits_per_bet:
        raise AssertionError(f"{analysis.game.name}: the rounds played again for the export's "
                             f"law are not the simulation's: {mine} against {theirs}")
    return SimulatedLaw(n, sim.seed, block, cpb, counts, first, sim.rtp, seconds)


# -- the plain player ----------------------------------------------------------------------
class Xoshiro:
    """xoshiro256** (Blackman & Vigna, 2018) from a state of four 64-bit words, with the
    simulator's two draws written out: :meth:`below` (Lemire's unbiased integer in
    ``[0, n)``, on the high 32 bits) and :meth:`pick` (an index by cumulative weights).

    >>> x = Xoshiro((1, 2, 3, 4))
    >>> [x.below(10) for _ in range(5)], x.pick([1, 1, 3], 3)
    ([0, 0, 0, 8, 4], 2)
    """

    def __init__(self, state):
        self.s = [int(v) & _M64 for v in state]

    def next(self) -> int:
        s = self.s
        x = (s[1] * 5) & _M64
        result = (((x << 7) | (x >> 57)) & _M64) * 9 & _M64
        t = (s[1] << 17) & _M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = ((s[3] << 45) | (s[3] >> 19)) & _M64
        return result

    def below(self, n: int) -> int:
        x = self.next() >> 32
        m = x * n
        low = m & _M32
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                x = self.next() >> 32
                m = x * n
                low = m & _M32
        return m >> 32

    def pick(self, cumulative, total: int) -> int:
        """The first index whose cumulative weight exceeds a uniform draw below ``total``."""
        return bisect.bisect_right(cumulative, self.below(total))


def _cumulative(weights) -> list[int]:
    out, acc = [], 0
    for w in weights:
        acc += int(w)
        out.append(acc)
    return out


class _Strip:
    """A strip and how its stop is drawn: uniform unless its weights differ."""

    def __init__(self, reel):
        self.symbols = list(reel.symbols)
        w = reel.weights
        self.cumulative = _cumulative(w) if w is not None and len(set(w)) > 1 else None

    def draw(self, x: Xoshiro) -> int:
        if self.cumulative is None:
            return x.below(len(self.symbols))
        return x.pick(self.cumulative, self.cumulative[-1])

    def at(self, p: int) -> str:
        return self.symbols[p % len(self.symbols)]


@dataclass
class _Window:
    """A window being played: columns of symbol names (top row first), each reel's strip
    index of its top cell, multiplier values by cell, and the top reel (covered reel ->
    name, its values, the next strip index)."""

    columns: list[list[str]]
    positions: list[int]
    values: dict = field(default_factory=dict)  # (reel, row) -> value
    top: dict = field(default_factory=dict)  # reel -> name
    top_values: dict = field(default_factory=dict)  # reel -> value
    top_next: int = 0

    def shown(self) -> dict:
        return {"board": board(self.columns)} | (
            {"topReel": [{"reel": j, "name": s} for j, s in sorted(self.top.items())]}
            if self.top else {})


class GridRoundPlayer:
    """Rounds of a grid game played by its rules (``docs/game-format.md``, "Grid games"), from
    a generator state, in plain Python on symbol names with wins as exact fractions of the
    bet; each round's events for the books."""

    def __init__(self, game, level: int = 1):
        self.game, self.level = game, level
        grid = game.grid
        self.grid = grid
        self.kind = grid.pays
        self.names = list(game.symbols)
        fs = game.free_spins
        self.fs = fs
        self.sets = {False: "base", True: fs.reels if fs is not None else "base"}
        self.strips = {name: [_Strip(r) for r in game.reel_sets[name].reels]
                       for name in set(self.sets.values())}
        self.heights = []
        for law in grid.heights:
            hs = list(law.heights)
            self.heights.append((hs, _cumulative([law.weights[h] for h in hs])))
        top = grid.top_reel
        self.top = top
        self.covered = list(range(top.first - 1, top.last)) if top is not None else []
        self.top_strips = {name: _Strip(top.strips[name]) for name in set(self.sets.values())} \
            if top is not None else {}
        t = game.tumbles
        self.tumbles = t
        self.refill = {}
        if t is not None and t.refill == "random":
            for name in set(self.sets.values()):
                self.refill[name] = [_cumulative(table.get(s, 0) for s in self.names)
                                     for table in t.refill_weights[name]]
        m = game.multipliers
        self.multipliers = m
        self.values = {}
        if m is not None:
            for free in (False, True):
                live = [(v, w) for v, w in m.table(free).items() if w]
                self.values[free] = ([v for v, _ in live], _cumulative(w for _, w in live))
        self.scatters = [n for n, s in game.symbols.items() if s.scatter]
        counted = fs.trigger if fs is not None else (
            self.scatters[0] if len(self.scatters) == 1 else None)
        self.counted = counted
        mname = m.symbol if m is not None else None
        self.paying = [n for n, s in game.symbols.items()
                       if n != mname and not s.scatter and s.pays]
        self.wild = {n for n, s in game.symbols.items() if s.wild}
        self.unit = Fraction(1, game.bet) if self.kind == "ways" else Fraction(1)
        cap = game.cap_coins(level)
        self.cap = None if cap is None else Fraction(cap) / game.total_bet(level)

    # -- pays ------------------------------------------------------------------------------
    def _pay(self, name: str, count: int, reached: bool) -> Fraction:
        s = self.game.symbols[name]
        listed = [c for c in s.pays if (c <= count if reached else c == count)]
        if not listed:
            return Fraction(0)
        return Fraction(s.pay_at(max(listed), self.level)) / self.level * self.unit

    def _drop(self, w: _Window) -> tuple[Fraction, list[dict], set]:
        """The window's pays (before the drop multiplier), as win entries, and the cells
        they remove (``(reel, row)``, ``(reel, "top")``)."""
        if self.kind == "ways":
            return self._ways(w)
        if self.kind == "anywhere":
            return self._anywhere(w)
        return self._clusters(w)

    def _ways(self, w: _Window):
        total, wins, removed = Fraction(0), [], set()
        symbols = self.game.symbols
        for entry in self.paying:
            wild_only = entry in self.wild
            counts, cells = [], []
            for j, col in enumerate(w.columns):
                here = [(j, r) for r, s in enumerate(col)
                        if s == entry or (not wild_only and s in self.wild)]
                if j in w.top and (w.top[j] == entry or (not wild_only and w.top[j] in self.wild)):
                    here.append((j, "top"))
                c = sum(symbols[col[r] if r != "top" else w.top[j]].multiplier for _, r in here)
                if not c:
                    break
                counts.append(c)
                cells += here
            pay = self._pay(entry, len(counts), reached=False) if counts else Fraction(0)
            if not pay:
                continue
            ways = math.prod(counts)
            total += pay * ways
            removed.update(cells)
            wins.append({"symbol": entry, "kind": "ways", "count": len(counts), "ways": ways,
                         "positions": cells, "pay": pay * ways})
        return total, wins, removed

    def _anywhere(self, w: _Window):
        total, wins, removed = Fraction(0), [], set()
        for entry in self.paying:
            cells = [(j, r) for j, col in enumerate(w.columns) for r, s in enumerate(col)
                     if s == entry]
            pay = self._pay(entry, len(cells), reached=True)
            if pay:
                total += pay
                removed.update(cells)
                wins.append({"symbol": entry, "kind": "anywhere", "count": len(cells),
                             "positions": cells, "pay": pay})
        return total, wins, removed

    def _clusters(self, w: _Window):
        steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        if self.grid.adjacency == "diagonal":
            steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        cols = w.columns
        total, wins, removed = Fraction(0), [], set()
        for entry in self.paying:
            wild_only = entry in self.wild

            def member(s, entry=entry, wild_only=wild_only):
                return s == entry or (not wild_only and s in self.wild)
            done: set = set()
            for j, col in enumerate(cols):
                for r, s in enumerate(col):
                    if s != entry or (j, r) in done:
                        continue
                    group, todo = {(j, r)}, [(j, r)]
                    while todo:
                        a, b = todo.pop()
                        for da, db in steps:
                            x, y = a + da, b + db
                            if 0 <= x < len(cols) and 0 <= y < len(cols[x]) \
                                    and (x, y) not in group and member(cols[x][y]):
                                group.add((x, y))
                                todo.append((x, y))
                    done |= {c for c in group if cols[c[0]][c[1]] == entry}
                    size = len(group)
                    pay = self._pay(entry, size, True) if size >= self.grid.cluster_size \
                        else Fraction(0)
                    if pay:
                        total += pay
                        removed |= group
                        wins.append({"symbol": entry, "kind": "cluster", "count": size,
                                     "positions": sorted(group), "pay": pay})
        return total, wins, removed

    # -- a spin ----------------------------------------------------------------------------
    def _value(self, x: Xoshiro, free: bool) -> int:
        values, cum = self.values[free]
        return values[x.pick(cum, cum[-1])]

    def _deal(self, x: Xoshiro, free: bool) -> _Window:
        name = self.sets[free]
        mname = self.multipliers.symbol if self.multipliers is not None else None
        columns, positions, values = [], [], {}
        for j, strip in enumerate(self.strips[name]):
            hs, cum = self.heights[j]
            h = hs[0] if len(hs) == 1 else hs[x.pick(cum, cum[-1])]
            p = strip.draw(x)
            col = [strip.at(p + r) for r in range(h)]
            for r, s in enumerate(col):
                if s == mname:
                    values[(j, r)] = self._value(x, free)
            columns.append(col)
            positions.append(p)
        w = _Window(columns, positions, values)
        if self.top is not None:
            ts = self.top_strips[name]
            tp = ts.draw(x)
            w.top = {j: ts.at(tp + i) for i, j in enumerate(self.covered)}
            w.top_next = (tp + len(self.covered)) % len(ts.symbols)
            w.top_stop = tp
            for j in self.covered:
                if w.top[j] == mname:
                    w.top_values[j] = self._value(x, free)
        return w

    def _tumble(self, x: Xoshiro, w: _Window, removed: set, free: bool) -> list:
        """Remove ``removed``, let the survivors fall and fill the gaps; returns the cells
        that came in."""
        name = self.sets[free]
        mname = self.multipliers.symbol if self.multipliers is not None else None
        kept, gaps = [], []
        for j, col in enumerate(w.columns):
            survivors = [(s, w.values.get((j, r))) for r, s in enumerate(col)
                         if (j, r) not in removed]
            gaps.append(len(col) - len(survivors))
            kept.append(survivors)
        top_row = [(w.top[j], w.top_values.get(j)) for j in self.covered
                   if (j, "top") not in removed]
        top_lost = len(self.covered) - len(top_row)
        fresh: list[list[str]] = []
        if self.tumbles.refill == "strip":
            for j, g in enumerate(gaps):
                strip = self.strips[name][j]
                p = (w.positions[j] - g) % len(strip.symbols)
                fresh.append([strip.at(p + r) for r in range(g)])
                w.positions[j] = p
            new_top = []
            if top_lost:
                ts = self.top_strips[name]
                new_top = [ts.at(w.top_next + i) for i in range(top_lost)]
                w.top_next = (w.top_next + top_lost) % len(ts.symbols)
        else:
            tables = self.refill[name]
            for j, g in enumerate(gaps):
                cum = tables[j]
                fresh.append([self.names[x.pick(cum, cum[-1])] for _ in range(g)])
            cum = tables[len(w.columns)] if top_lost else None
            new_top = [self.names[x.pick(cum, cum[-1])] for _ in range(top_lost)]
        w.columns, w.values = [], {}
        came = []
        for j, (survivors, new) in enumerate(zip(kept, fresh)):
            w.columns.append(new + [s for s, _ in survivors])
            for r, (_, v) in enumerate(survivors):
                if v is not None:
                    w.values[(j, len(new) + r)] = v
            came += [(j, r) for r in range(len(new))]
        row = top_row + [(s, None) for s in new_top]
        w.top = {j: s for j, (s, _) in zip(self.covered, row)}
        w.top_values = {j: v for j, (_, v) in zip(self.covered, row) if v is not None}
        came += [(j, "top") for j in self.covered[len(self.covered) - top_lost:]]
        # new multiplier symbols draw their values: each reel's gaps, then the top reel's
        for j, r in came:
            if r == "top":
                if w.top[j] == mname:
                    w.top_values[j] = self._value(x, free)
            elif w.columns[j][r] == mname:
                w.values[(j, r)] = self._value(x, free)
        return came

    def _count(self, w: _Window, name: str | None) -> int:
        if name is None:
            return 0
        return sum(c.count(name) for c in w.columns) + sum(s == name for s in w.top.values())

    def spin(self, x: Xoshiro, free: bool, index: int, events: list, before: Fraction):
        """One spin's events appended to ``events``; returns (sequence win before multiplier
        symbols, multiplier symbols shown, their combined value, trigger count, scatter pays,
        drop index after, final window). ``before``: what the round won before it."""
        t = self.tumbles
        rule = t.rule(free) if t is not None else None
        w = self._deal(x, free)
        reveal = {"type": "reveal", "gameType": "freegame" if free else "basegame",
                  "reelSet": self.sets[free], "stops": list(w.positions),
                  "heights": [len(c) for c in w.columns]}
        if self.top is not None:
            reveal["topStop"] = w.top_stop
        reveal |= w.shown()
        if w.values or w.top_values:
            reveal["multipliers"] = _multipliers(w)
        _add(events, reveal)
        seq, won = Fraction(0), 0
        while True:
            pays, wins, removed = self._drop(w)
            if not pays:
                break
            m = rule.value(index) if rule is not None else 1
            seq += pays * m
            index += 1
            won += 1
            _add(events, {"type": "winInfo", "drop": won - 1, "multiplier": m,
                          "wins": [_win_entry(e, m) for e in wins]}
                 | amount_fields(pays * m, 1, "totalWin"))
            _add(events, {"type": "setWin"} | amount_fields(before + seq, 1))
            if t is None:
                break
            if won >= t.max_drops:
                _add(events, {"type": "tumbleEnd", "reason": f"max_drops {t.max_drops}"})
                break
            self._tumble(x, w, removed, free)
            event = {"type": "tumble", "drop": won,
                     "removed": [_spot(c) for c in sorted(removed, key=_order)]} | w.shown()
            if w.values or w.top_values:
                event["multipliers"] = _multipliers(w)
            _add(events, event)
        mname = self.multipliers.symbol if self.multipliers is not None else None
        mcount = self._count(w, mname)
        vals = list(w.values.values()) + list(w.top_values.values())
        if mcount and self.multipliers.combine == "multiply":
            mvalue = math.prod(vals)
        else:
            mvalue = sum(vals) if mcount else 1
        trig = self._count(w, self.counted)
        scatter = Fraction(0)
        for s in self.scatters:
            c = self._count(w, s)
            scatter += Fraction(self.game.scatter_pay(s, c, self.level))
        return seq, mcount, mvalue, trig, scatter, index, w

    def play(self, state, source: dict | None = None) -> tuple[Fraction, list[dict]]:
        """The round played from generator ``state`` (four 64-bit words): its win (bets,
        after the cap) and its events (amounts in hundredths of the bet)."""
        x = Xoshiro(state)
        events: list[dict] = []
        if source is not None:
            _add(events, {"type": "simulatedRound"} | source)
        seq, mcount, mvalue, trig, scatter, _, w = self.spin(x, False, 0, events, Fraction(0))
        paid = seq
        if seq and mcount:
            paid = seq * mvalue
            _add(events, {"type": "multiplierWin", "multipliers": mcount, "value": mvalue}
                 | amount_fields(seq, 1, "sequenceWin") | amount_fields(paid, 1, "win"))
        if scatter:
            _add(events, {"type": "scatterWin", "count": trig} | amount_fields(scatter, 1, "win"))
        paid += scatter
        if seq * mcount or scatter:
            _add(events, {"type": "setWin"} | amount_fields(paid, 1))
        fs = self.fs
        free_total = Fraction(0)
        awarded = fs.award_for(trig) if fs is not None else 0
        if awarded:
            if fs.max_spins is not None:
                awarded = min(awarded, fs.max_spins)
            _add(events, {"type": "freeSpinTrigger", "totalFs": awarded,
                          "positions": _where(w, self.counted)})
            m = self.multipliers
            carry_total = m is not None and m.carry
            running = 1 if (m is not None and m.combine == "multiply") else 0
            carry_index = self.tumbles is not None and self.tumbles.carry_multiplier
            left, index, played = awarded, 0, 0
            while left:
                left -= 1
                played += 1
                _add(events, {"type": "updateFreeSpin", "amount": played, "total": awarded})
                fseq, mc, mv, ftrig, fscat, after, fw = self.spin(
                    x, True, index if carry_index else 0, events, paid + free_total)
                if carry_index:
                    index = after
                factor = 1
                if fseq and mc:
                    if carry_total:
                        running = running * mv if m.combine == "multiply" else running + mv
                        factor = running
                    else:
                        factor = mv
                    _add(events, {"type": "multiplierWin", "multipliers": mc, "value": mv}
                         | ({"runningTotal": running} if carry_total else {})
                         | amount_fields(fseq, 1, "sequenceWin")
                         | amount_fields(fseq * factor, 1, "win"))
                spin_win = (fseq * factor + (fscat if fs.scatter_pays else 0)) * fs.multiplier
                if fscat and fs.scatter_pays:
                    _add(events, {"type": "scatterWin", "count": ftrig}
                         | amount_fields(fscat * fs.multiplier, 1, "win"))
                free_total += spin_win
                _add(events, {"type": "setWin"} | amount_fields(paid + free_total, 1))
                more = fs.retrigger_for(ftrig) if fs.retrigger else 0
                if more and fs.max_spins is not None:
                    more = min(more, fs.max_spins - awarded)
                if more > 0:
                    awarded += more
                    left += more
                    _add(events, {"type": "freeSpinRetrigger", "totalFs": awarded,
                                  "positions": _where(fw, self.counted)})
            _add(events, {"type": "freeSpinEnd"} | amount_fields(free_total, 1))
        win = paid + free_total
        if self.cap is not None and win > self.cap:
            _add(events, {"type": "wincap"} | amount_fields(win, 1, "uncapped")
                 | amount_fields(self.cap, 1))
            win = self.cap
        return win, events


def _order(cell):
    j, r = cell
    return (j, -1 if r == "top" else r)


def _spot(cell) -> dict:
    j, r = cell
    return {"reel": j, "row": "top" if r == "top" else r}


def _where(w: _Window, name) -> list[dict]:
    out = [{"reel": j, "row": r} for j, col in enumerate(w.columns) for r, s in enumerate(col)
           if s == name]
    return out + [{"reel": j, "row": "top"} for j, s in sorted(w.top.items()) if s == name]


def _multipliers(w: _Window) -> list[dict]:
    out = [{"reel": j, "row": r, "value": v} for (j, r), v in sorted(w.values.items())]
    return out + [{"reel": j, "row": "top", "value": v} for j, v in sorted(w.top_values.items())]


def _win_entry(e: dict, m: int) -> dict:
    out = {k: v for k, v in e.items() if k not in ("positions", "pay")}
    out["positions"] = [_spot(c) for c in sorted(e["positions"], key=_order)]
    return out | amount_fields(e["pay"] * m, 1, "win")


def _add(events: list, event: dict) -> None:
    events.append({"index": len(events)} | event)


# -- the books -----------------------------------------------------------------------------
class GridBooks:
    """The export of a simulated grid game's mode (the owner feature's ``book`` hook): its
    :meth:`law` and, for the rows of a table, :meth:`books`."""

    #: what :func:`slotmath.publish.stake.export_stake` reads: the law is a sample
    simulated = True

    def __init__(self, analysis, progress=None):
        self.analysis = analysis
        self.progress = progress
        self._law = None
        self.player = GridRoundPlayer(analysis.game, analysis.level)

    def law(self) -> SimulatedLaw:
        if self._law is None:
            report = None
            if self.progress is not None:
                def report(done, total):
                    self.progress("law", done, total)
            self._law = simulated_law(self.analysis, report)
        return self._law

    def books(self, rows, rounding: str):
        """One round for each row (tenths) of ``rows``: the first simulated round whose win
        goes to it, closest to the row's payout first, played again (see the module
        notes)."""
        from slotmath.publish.books import Book, Books, _valid

        law = self.law()
        cpb = law.credits_per_bet
        amounts = np.array(sorted(law.counts), np.int64)
        out: dict = {}
        for k in sorted(rows):
            lo = np.searchsorted(10 * amounts, k * cpb - cpb, side="left")
            hi = np.searchsorted(10 * amounts, k * cpb + cpb, side="right")
            near = amounts[lo:hi]
            d = 10 * near - k * cpb
            ok = _valid(d, np.full(len(near), k, np.int64), cpb, rounding)
            if not ok.any():
                continue
            choice = near[ok][np.argmin(np.abs(d[ok]))]
            credits = int(choice)
            b, i, state = law.first[credits]
            source = {"seed": law.seed, "block": b, "round": i, "roundsPerBlock": law.block,
                      "state": [f"{v:016x}" for v in state]}
            win, events = self.player.play(state, source)
            if win * cpb != credits:
                raise AssertionError(
                    f"{self.analysis.game.name}: the books' grid player and the simulator "
                    f"disagree on round {i} of block {b} (seed {law.seed}): the player pays "
                    f"{float(win):g} x bet, the simulation {credits / cpb:g}")
            close_round(events, k, win, 1, rounding)
            kind = "free spins" if any(e["type"] == "freeSpinTrigger" for e in events) \
                else "paid spin"
            out[k] = Book(k, win, kind, events)
        missing = tuple(k for k in sorted(rows) if k not in out)
        return Books(out, missing, False)


def book(analysis, part=None, progress=None):
    """The book player of a grid game (its declarations' ``book`` hook): the law and books of
    its simulated round (:class:`GridBooks`); the owner plays its parts' mechanics."""
    if _simulation(analysis) is None:
        return None
    return GridBooks(analysis, progress)


def refusal(game) -> str | None:
    """Why the books cannot play ``game``'s grid round (None: they can): only a simulated
    round is exported here (an exact grid round has no player of its books yet)."""
    if game.grid is None:
        return None
    from slotmath.features.grid import plan

    p = plan(game)
    if p.method != "simulated":
        return (f"{game.name}: no player of real rounds for the books yet for a grid game "
                f"analysed {p.method} (the export plays the rounds of a simulated one)")
    return None
