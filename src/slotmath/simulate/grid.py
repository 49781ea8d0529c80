"""Seeded simulation of grid games (Megaways, pay anywhere, clusters, with tumbles, multiplier
symbols and free spins): the simulated PAR sheet where exact analysis is out of reach, and the
cross-check of the exact engines where it is not.

Reproducible from the seed on any number of cores: the rounds are cut into blocks of
:data:`BLOCK` (the last one shorter), block ``b`` plays with its own stream seeded by the
``b``-th child of ``numpy.random.SeedSequence(seed).spawn(...)``, and the blocks' sums are
added in block order; numba plays the blocks in parallel on every thread it has
(``threads``: :func:`numba.set_num_threads`). With an ``accuracy`` the rounds are chosen for
it: a pilot of :data:`PILOT` rounds gives the SD, then blocks are added until the RTP's 95 %
interval is at most ``accuracy`` either side (each decision reads only the blocks played, so
the count too is the same on any number of cores).

Examples
--------
>>> import slotmath
>>> game = slotmath.load_game("tests/data/grid/anywhere_tiny.toml")
>>> sim = simulate_grid(game, rounds=20_000, seed=3)
>>> sim.rounds, sim.rtp.rounds, sim == simulate_grid(game, rounds=20_000, seed=3)
(20000, 20000, True)
>>> lo, hi = sim.rtp.interval()
>>> lo < float(sim.rtp) < hi
True
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from slotmath import parallel
from slotmath.evaluate.grid import K_C, K_CPB, K_NEDGES, K_S, K_W, GridModel, tables
from slotmath.model.game import Game
from slotmath.simulate import _grid_kernels as k
from slotmath.stats.estimate import Estimate
from slotmath.stats.par import DEFAULT_EDGES, TopAward, WinSizeRow

__all__ = ["BLOCK", "GRID_EDGES", "PILOT", "BlockSums", "GridSimulation", "grid_blocks",
           "grid_tables", "simulate_grid", "simulate_rounds"]

#: blocks per chunk handed to a worker of slotmath.executor(...)
SPREAD_BLOCKS = 8
#: rounds per block (each block one seed stream)
BLOCK = 1 << 16
#: rounds of the pilot that measures the SD before the rounds for an accuracy are chosen
PILOT = 1 << 20
#: the most rounds an accuracy may ask for
MAX_ROUNDS = 1 << 36
#: win-size bands of a grid game, in total bets (big wins go far)
GRID_EDGES = (*DEFAULT_EDGES, 2000, 5000, 10000)
#: confidence of the intervals an accuracy is stated at
CONFIDENCE = 0.95
#: the RTP components of a grid round, by their place in the kernel's statistics
COMPONENT_STATS = (("first", k.FIRST, k.FIRST2), ("tumbles", k.LATER, k.LATER2),
                   ("multiplier_symbols", k.MSYM, k.MSYM2), ("scatter", k.SCAT, k.SCAT2),
                   ("free_spins", k.FREE, k.FREE2), ("max_win_cap", k.CAPPED_OFF, k.CAP2))


def grid_tables(game: Game, level: int = 1, model: GridModel | None = None) -> np.ndarray:
    """The kernels' flat tables of ``game`` at bet ``level`` (set 0: the paid spin's reels,
    set 1: the free spins'; :func:`slotmath.evaluate.grid.tables`)."""
    model = model or GridModel(game, level)
    fs = game.free_spins
    sets = ("base", fs.reels if fs is not None else "base")
    cpb = model.credits_per_bet
    return tables(model, sets, [int(Fraction(e) * cpb) for e in GRID_EDGES])


@dataclass(eq=False)
class _Sums:
    """The statistics of some blocks, added in block order."""

    ints: np.ndarray
    floats: np.ndarray
    bands: np.ndarray
    band_credits: np.ndarray
    band_squares: np.ndarray
    first_hits: np.ndarray
    first_credits: np.ndarray
    hits: np.ndarray
    credits_by: np.ndarray
    trigger_hist: np.ndarray
    drop_hist: np.ndarray

    @classmethod
    def zeros(cls, tab: np.ndarray, blocks: int) -> _Sums:
        S, C = int(tab[K_S]), int(tab[K_C])
        nb = int(tab[K_NEDGES]) + 1
        W = int(tab[K_W]) + 1
        return cls(np.zeros((blocks, k.N_INT), np.int64), np.zeros((blocks, k.N_FLOAT)),
                   np.zeros((blocks, nb), np.int64), np.zeros((blocks, nb), np.int64),
                   np.zeros((blocks, nb)), np.zeros((blocks, S, C), np.int64),
                   np.zeros((blocks, S, C), np.int64), np.zeros((blocks, S, C), np.int64),
                   np.zeros((blocks, S, C), np.int64), np.zeros((blocks, W), np.int64),
                   np.zeros((blocks, k.DROPS), np.int64))

    def arrays(self):
        return (self.ints, self.floats, self.bands, self.band_credits, self.band_squares,
                self.first_hits, self.first_credits, self.hits, self.credits_by,
                self.trigger_hist, self.drop_hist)

    def total(self) -> _Sums:
        """Block rows added in block order (top win: the largest, its count summed)."""
        ints = self.ints.sum(axis=0)
        top = self.ints[:, k.TOP].max() if len(self.ints) else 0
        ints[k.TOP] = top
        ints[k.TOP_COUNT] = self.ints[self.ints[:, k.TOP] == top, k.TOP_COUNT].sum()
        floats = np.zeros(self.floats.shape[1])
        for row in self.floats:  # block order, so the float sums do not depend on threads
            floats += row
        squares = np.zeros(self.band_squares.shape[1])
        for row in self.band_squares:
            squares += row
        return _Sums(ints[None], floats[None], *(a.sum(axis=0)[None] for a in (
            self.bands, self.band_credits)), squares[None], *(a.sum(axis=0)[None] for a in (
                self.first_hits, self.first_credits, self.hits, self.credits_by,
                self.trigger_hist, self.drop_hist)))


def _concat(parts: list[_Sums]) -> _Sums:
    return _Sums(*(np.concatenate([getattr(p, f) for p in parts]) for f in (
        "ints", "floats", "bands", "band_credits", "band_squares", "first_hits",
        "first_credits", "hits", "credits_by", "trigger_hist", "drop_hist")))


@dataclass(frozen=True, eq=False)
class GridSimulation:
    """What a seeded simulation of a grid game measured (sums over every round), and its
    figures as :class:`~slotmath.stats.estimate.Estimate` (value, standard error, interval).

    ``seconds`` and ``threads`` say how long it took on how many threads (not part of the
    result: equal simulations compare equal whatever their speed).
    """

    game_name: str
    level: int
    seed: int
    rounds: int
    blocks: int
    credits_per_bet: int
    names: tuple[str, ...]
    kind: str
    sums: _Sums = field(repr=False)
    accuracy: float | None = None
    seconds: float = 0.0
    threads: int = 1

    def __eq__(self, other) -> bool:
        if not isinstance(other, GridSimulation):
            return NotImplemented
        mine = (self.game_name, self.level, self.seed, self.rounds, self.blocks)
        theirs = (other.game_name, other.level, other.seed, other.rounds, other.blocks)
        return mine == theirs and all(np.array_equal(a, b) for a, b in zip(
            self.sums.arrays(), other.sums.arrays()))

    __hash__ = None

    # -- raw figures ------------------------------------------------------------------------
    def _int(self, i: int) -> int:
        return int(self.sums.ints[0, i])

    def _mean(self, i: int, j: int) -> Estimate:
        return Estimate.mean(self._int(i) / self.credits_per_bet, float(self.sums.floats[0, j]),
                             self.rounds)

    @property
    def rtp(self) -> Estimate:
        """Mean round win in total bets, every feature included (after any cap)."""
        return self._mean(k.WIN, k.W2)

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds else math.inf

    @property
    def components(self) -> dict[str, Estimate]:
        """The RTP by source (``first`` is the paid spin's first drop; renamed by the
        feature to its pay kind); they add up to :attr:`rtp` exactly (integer credits)."""
        out = {name: self._mean(i, j) for name, i, j in COMPONENT_STATS}
        cap = out["max_win_cap"]  # what the cap took off: minus in the RTP
        out["max_win_cap"] = Estimate(-float(cap), cap.std_error, cap.rounds)
        return out

    @property
    def hit_frequency(self) -> Estimate:
        return Estimate.proportion(self._int(k.HITS), self.rounds)

    @property
    def base_hit_frequency(self) -> Estimate:
        """P(the paid spin itself pays)."""
        return Estimate.proportion(self._int(k.BASE_HITS), self.rounds)

    def _moments(self) -> tuple[float, float, float, float]:
        n = self.rounds
        m1 = self._int(k.WIN) / self.credits_per_bet / n
        m2, m3, m4 = (float(self.sums.floats[0, i]) / n for i in (k.W2, k.W3, k.W4))
        return m1, m2, m3, m4

    @property
    def variance(self) -> Estimate:
        """The round win's variance (total bets squared); its error by the delta method:
        Var(s^2) ~ (mu4 - sigma^4) / n."""
        n = self.rounds
        m1, m2, m3, m4 = self._moments()
        var = max(m2 - m1 * m1, 0.0) * n / max(n - 1, 1)
        mu4 = m4 - 4 * m1 * m3 + 6 * m1 * m1 * m2 - 3 * m1**4
        return Estimate(var, math.sqrt(max(mu4 - var * var, 0.0) / n), n)

    @property
    def std(self) -> Estimate:
        """The round win's SD; its error ``se(variance) / (2 SD)``."""
        v = self.variance
        sd = math.sqrt(float(v))
        return Estimate(sd, v.std_error / (2 * sd) if sd else 0.0, self.rounds)

    @property
    def trigger_rate(self) -> Estimate:
        """P(the paid spin triggers free spins)."""
        return Estimate.proportion(self._int(k.TRIGGERS), self.rounds)

    @property
    def spins_per_feature(self) -> float:
        t = self._int(k.TRIGGERS)
        return self._int(k.FREE_SPINS) / t if t else 0.0

    @property
    def top_award(self) -> TopAward:
        """The largest round win seen, and how often (its "probability" is the share of
        rounds that won exactly it: a simulated lower view of the tail)."""
        top, count = self._int(k.TOP), self._int(k.TOP_COUNT)
        p = Estimate.proportion(count, self.rounds)
        return TopAward(top, Estimate.largest(top / self.credits_per_bet, self.rounds), p,
                        math.inf if not count else self.rounds / count)

    def win_sizes(self) -> tuple[WinSizeRow, ...]:
        """Each band's probability (Wilson interval) and RTP share (a mean), simulated."""
        rows = []
        edges = [Fraction(e) for e in GRID_EDGES]
        labels = ["0", *(f"({a}, {b}]" for a, b in itertools.pairwise(edges)),
                  f"> {edges[-1]}"]
        lowers = [Fraction(0), *edges]
        uppers = [Fraction(0), *edges[1:], None]
        for b, label in enumerate(labels):
            count = int(self.sums.bands[0, b])
            p = Estimate.proportion(count, self.rounds)
            share = Estimate.mean(int(self.sums.band_credits[0, b]) / self.credits_per_bet,
                                  float(self.sums.band_squares[0, b]), self.rounds)
            rows.append(WinSizeRow(label, lowers[b], uppers[b], p,
                                   math.inf if not count else self.rounds / count, share))
        return tuple(rows)

    def pay_rows(self, first: bool = True) -> list[tuple[str, int, int, int]]:
        """(symbol, count, hits, credits) of the paid spin's first drop (``first``) or of its
        later drops, credits before any multiplier."""
        hits = self.sums.first_hits[0] if first else self.sums.hits[0]
        credits = self.sums.first_credits[0] if first else self.sums.credits_by[0]
        out = []
        for s, c in zip(*np.nonzero(hits)):
            out.append((self.names[s], int(c), int(hits[s, c]), int(credits[s, c])))
        return out

    @property
    def drops(self) -> dict[int, int]:
        """Paid spins by the number of drops that won (the last: that many or more)."""
        return {i: int(v) for i, v in enumerate(self.sums.drop_hist[0]) if v}

    @property
    def trigger_counts(self) -> dict[int, int]:
        """Paid spins by the trigger symbol's count in the final window."""
        return {i: int(v) for i, v in enumerate(self.sums.trigger_hist[0]) if v}

    @property
    def cut(self) -> int:
        """Sequences cut at ``max_drops``."""
        return self._int(k.CUT)

    @property
    def overflowed(self) -> int:
        return self._int(k.OVERFLOW)

    @property
    def capped(self) -> Estimate:
        return Estimate.proportion(self._int(k.CAPPED), self.rounds)


def _states(root: np.random.SeedSequence, count: int) -> np.ndarray:
    out = np.zeros((count, 4), np.uint64)
    for i, child in enumerate(root.spawn(count)):
        state = child.generate_state(4, np.uint64)
        if not state.any():  # xoshiro's one forbidden state
            state[0] = 1
        out[i] = state
    return out


def _play_blocks(t, job) -> _Sums:
    """One chunk of blocks on a worker of :func:`slotmath.executor`: ``job`` is the blocks'
    generator states (drawn in order here, so the blocks are those of a run in process) and
    their rounds."""
    states, block_rounds = job
    sums = _Sums.zeros(t, len(block_rounds))
    k.play_blocks(t, states, np.array(block_rounds, np.int64), *sums.arrays())
    return sums


def _block_sizes(rounds: int, block: int) -> list[int]:
    """``rounds`` cut into blocks of ``block`` rounds, the last one shorter."""
    return [block] * (rounds // block) + ([rounds % block] if rounds % block else [])


def _run(t, root, block_rounds: list[int]) -> _Sums:
    sums = _Sums.zeros(t, len(block_rounds))
    k.play_blocks(t, _states(root, len(block_rounds)), np.array(block_rounds, np.int64),
                  *sums.arrays())
    return sums


def simulate_grid(game: Game, level: int = 1, *, rounds: int | None = None,
                  accuracy: float | None = None, seed: int = 1, threads: int | None = None,
                  progress: bool | float = False, block: int = BLOCK) -> GridSimulation:
    """Play seeded paid rounds of a grid game: ``rounds`` of them, or as many as the RTP's
    95 % interval needs to be at most ``accuracy`` either side (total bets).

    Parameters
    ----------
    game : Game
        A grid game (``game.grid`` set).
    level : int
    rounds : int, optional
    accuracy : float, optional
        Used when ``rounds`` is not given (default: the game's ``[analysis]`` accuracy).
    seed : int
    threads : int, optional
        Numba threads to play on (default: all); the result does not depend on it.
    progress : bool or float
        A ``tqdm.auto`` bar (a number: only once the run has taken that many seconds).
    block : int
        Rounds per block (one seed stream each); part of what the result depends on.

    Returns
    -------
    GridSimulation
    """
    import numba

    if game.grid is None:
        raise ValueError(f"{game.name} is not a grid game")
    game.check_level(level)
    if accuracy is None and rounds is None:
        settings = game.analysis
        accuracy = float(settings.accuracy) if settings is not None else 0.002
    t = grid_tables(game, level)
    root = np.random.SeedSequence(seed)
    old = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    used = numba.get_num_threads()
    start = time.perf_counter()
    bar = None
    try:
        from tqdm.auto import tqdm

        if progress is not False:
            bar = tqdm(total=rounds, desc=f"simulating {game.name}", unit="round",
                       delay=0 if progress is True else float(progress), leave=False)
        parts: list[_Sums] = []
        played = 0

        def play(count: int) -> None:
            nonlocal played
            if parallel.current() is not None and not parallel.in_chunk():  # the same blocks
                sizes = _block_sizes(count, block)
                jobs = [(_states(root, len(c)), c) for c in
                        (sizes[i:i + SPREAD_BLOCKS] for i in range(0, len(sizes), SPREAD_BLOCKS))]
                parts.extend(parallel.map_chunks(_play_blocks, jobs, shared=t))
                played += count
                if bar is not None:
                    bar.update(count)
                return
            chunk = block * max(used, 1) * 8
            while count > 0:
                now = min(count, chunk)
                sizes = _block_sizes(now, block)
                parts.append(_run(t, root, sizes))
                played += now
                count -= now
                if bar is not None:
                    bar.update(now)

        if rounds is not None:
            play(int(rounds))
        else:
            z = 1.959963984540054
            play(min(PILOT, MAX_ROUNDS))
            while True:
                total = _concat(parts).total()
                sim = _result(game, level, seed, played, len(parts), total, t, accuracy)
                sd = float(sim.std)
                need = math.ceil((z * sd / accuracy) ** 2) if accuracy > 0 else played
                need = min(need, MAX_ROUNDS)
                if sim.rtp.half_width() <= accuracy or played >= MAX_ROUNDS or need <= played:
                    if sim.rtp.half_width() <= accuracy or played >= MAX_ROUNDS:
                        break
                    need = played + max(played // 4, block)  # the SD grew: a quarter more
                more = -(-(need - played) // block) * block
                if bar is not None:
                    bar.total = played + more
                    bar.refresh()
                play(min(more, MAX_ROUNDS - played))
    finally:
        if bar is not None:
            bar.close()
        if threads is not None:
            numba.set_num_threads(old)
    seconds = time.perf_counter() - start
    blocks = sum(len(p.ints) for p in parts)
    out = _result(game, level, seed, played, blocks, _concat(parts).total(), t,
                  None if rounds is not None else accuracy)
    object.__setattr__(out, "seconds", seconds)
    object.__setattr__(out, "threads", used)
    return out


@dataclass(frozen=True, eq=False)
class BlockSums:
    """A seeded grid run's sums block by block (each block its own stream, as in
    :func:`simulate_grid`): what a batch-means standard error reads. Per block: ``rounds``,
    ``win`` (the round wins' sum, total bets), ``win2`` (their squares' sum), ``hits``
    (rounds that won), ``triggers`` (paid spins that started free spins) and
    ``trigger_hist`` (paid spins by the trigger symbol's count in the final window; one row
    per block)."""

    rounds: np.ndarray
    win: np.ndarray
    win2: np.ndarray
    hits: np.ndarray
    triggers: np.ndarray
    trigger_hist: np.ndarray


def grid_blocks(game: Game, level: int = 1, *, rounds: int, seed: int,
                block: int = BLOCK) -> BlockSums:
    """Play ``rounds`` seeded paid rounds of a grid game in blocks of ``block`` and keep each
    block's sums (:class:`BlockSums`). The same blocks as ``simulate_grid(game, level,
    rounds=rounds, seed=seed, block=block)``: their totals are that run's.

    Examples
    --------
    >>> import slotmath
    >>> game = slotmath.load_game("tests/data/grid/anywhere_tiny.toml")
    >>> b = grid_blocks(game, rounds=10_000, seed=3, block=4096)
    >>> b.rounds.tolist()
    [4096, 4096, 1808]
    >>> sim = simulate_grid(game, rounds=10_000, seed=3, block=4096)
    >>> bool(abs(b.win.sum() / 10_000 - float(sim.rtp)) < 1e-12), int(b.hits.sum()) == sim._int(k.HITS)
    (True, True)
    """
    if game.grid is None:
        raise ValueError(f"{game.name} is not a grid game")
    game.check_level(level)
    t = grid_tables(game, level)
    sizes = _block_sizes(rounds, block)
    sums = _run(t, np.random.SeedSequence(seed), sizes)
    cpb = int(t[K_CPB])
    return BlockSums(np.array(sizes, np.int64), sums.ints[:, k.WIN] / cpb,
                     sums.floats[:, k.W2].copy(), sums.ints[:, k.HITS].copy(),
                     sums.ints[:, k.TRIGGERS].copy(), sums.trigger_hist.copy())


def _result(game, level, seed, rounds, blocks, sums, t, accuracy) -> GridSimulation:
    return GridSimulation(game.name, level, seed, rounds, blocks, int(t[K_CPB]),
                          tuple(game.symbols), game.grid.pays, sums, accuracy)


def simulate_rounds(game: Game, spins: int, seed: int, level: int = 1,
                    progress: bool | float = False):
    """The simulator front door's round simulator for grid games: ``spins`` seeded rounds as a
    :class:`~slotmath.simulate.monte_carlo.SimulationResult` (components by feature name)."""
    from slotmath.simulate.monte_carlo import SimulationResult

    sim = simulate_grid(game, level, rounds=spins, seed=seed, progress=progress)
    parts = sim.components
    components = {"pays": float(parts["first"]) + float(parts["scatter"])}
    if game.tumbles is not None:
        components["tumbles"] = float(parts["tumbles"])
    else:
        components["pays"] += float(parts["tumbles"])
    if game.multipliers is not None:
        components["multiplier_symbols"] = float(parts["multiplier_symbols"])
    if game.free_spins is not None:
        components["free_spins"] = float(parts["free_spins"])
    if game.max_win is not None:
        components["max_win_cap"] = float(parts["max_win_cap"])
    rtp = float(sim.rtp)
    return SimulationResult(
        spins=sim.rounds, rtp=rtp, std_error=sim.rtp.std_error,
        hit_frequency=float(sim.hit_frequency), std=float(sim.std),
        base=float(parts["first"]) + float(parts["tumbles"]) + float(parts["scatter"])
        + float(parts["multiplier_symbols"]),
        free_spins=float(parts["free_spins"]), trigger_rate=float(sim.trigger_rate),
        spins_per_feature=sim.spins_per_feature, seed=seed, level=level,
        max_win_cap=float(parts["max_win_cap"]),
        capped_rounds=int(sim.sums.ints[0, k.CAPPED]), components=components,
        trigger_rates={"free_spins": float(sim.trigger_rate)} if game.free_spins else {})
