"""Seeded simulation of consecutive paid spins carrying the bauble conveyor.

The independent check of :mod:`slotmath.features.conveyor`: it plays the rules of
:mod:`slotmath.model.persistent` spin by spin (strip stops, random wilds, bauble activations
with surprises drawn, spreads applied to the window, line wins, consumption, the move left,
the delivery, free spins played to their end on their own conveyor) and shares no code with
the exact engine. Randomness comes only from ``PCG64(seed)``, drawn as
``numpy.random.Generator(PCG64(seed)).integers(total)`` per weighted choice.

The spins play in the numba kernels of :mod:`slotmath.simulate._conveyor_kernels` over
integer tables built here (strip windows, cumulative weights, the line pay of every symbol
sequence from :class:`slotmath.evaluate.window.PayModel`'s pay table, baubles as codes). They
draw exactly what the pure-Python player they replaced drew, so a seed gives the same figures
as before (tests/test_conveyor_simulate.py holds them to recorded ones).

``moving=False`` is a seeded mutation for the tests (baubles that never move): the checks
against the exact figures must fail with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from tqdm.auto import tqdm

from slotmath.evaluate.window import PayModel
from slotmath.model.game import Game
from slotmath.simulate import _conveyor_kernels as K
from slotmath.simulate._pcg64 import rng_state

__all__ = ["ConveyorSimulation", "simulate_conveyor", "simulate_from_reset"]


@dataclass(frozen=True)
class ConveyorSimulation:
    """What a run of consecutive paid spins measured, in total bets per paid spin."""

    spins: int
    rtp: float
    std_error: float  # by batch means (consecutive spins are not independent)
    components: dict
    seed: int
    wins: np.ndarray | None = None  # each paid round's win (its free spins included), bets
    batches: int = 50
    awarded: np.ndarray | None = None  # each paid round's free spins awarded (0: none)
    # with ``states=True``: the conveyor each paid round started from, one row per round,
    # ``states[i, j]`` = 0 (empty) or 1 + the index of slot j's bauble in ``conveyor.wheel``
    states: np.ndarray | None = None
    parts: np.ndarray | None = None  # with ``states=True``: each round's COMPONENTS, bets

    def interval(self, z: float = 4.0) -> tuple[float, float]:
        return self.rtp - z * self.std_error, self.rtp + z * self.std_error

    def _batch_mean(self, values: np.ndarray) -> tuple[float, float]:
        """The mean of ``values`` (one per round) and its standard error by batch means."""
        size = max(1, len(values) // self.batches)
        blocks = values[: size * (len(values) // size)].reshape(-1, size).mean(axis=1)
        error = float(blocks.std(ddof=1) / math.sqrt(len(blocks))) if len(blocks) > 1 \
            else float("inf")
        return float(values.mean()), error

    def hit_frequency(self) -> tuple[float, float]:
        """(the share of rounds that won, its standard error by batch means)."""
        return self._batch_mean((self.wins > 0).astype(float))

    def second_moment(self) -> tuple[float, float]:
        """(the mean squared win of a round, its standard error by batch means)."""
        return self._batch_mean(self.wins**2)

    def std(self) -> float:
        """The standard deviation of a round's win over the run."""
        return float(self.wins.std())

    def share(self, where: np.ndarray) -> tuple[float, float]:
        """(the share of rounds where ``where`` (a bool per round) holds, its standard error
        by batch means)."""
        return self._batch_mean(np.asarray(where, dtype=float))


_TABLE_LIMIT = 1 << 21  # line-pay table entries (16 MiB); above it each line walks the keys
_COLUMN_LIMIT = 1 << 23  # entries of the per-reel line codes (32 MiB)


def _cumulative(weights, width: int) -> np.ndarray:
    out = np.zeros(width, dtype=np.int64)
    out[: len(weights)] = np.cumsum(np.asarray(weights, dtype=np.int64))
    return out


def _pay_arrays(model: PayModel, symbols: list, n: int):
    """``model``'s pay table over symbol codes (``symbols``' order) for
    :func:`~._conveyor_kernels.line_value`: (member[key, symbol], credits[key, run],
    multiplier[symbol], added)."""
    keys = model.keys
    member = np.array([[s in model.key_members[k] for s in symbols] for k in keys],
                      dtype=np.uint8).reshape(len(keys), len(symbols))
    key_pay = np.zeros((len(keys), n + 1), dtype=np.int64)
    for i, k in enumerate(keys):
        for count, credits in model.key_credits[k].items():
            if count <= n:
                key_pay[i, count] = credits
    multiplier = np.array([model.multiplier[s] for s in symbols], dtype=np.int64)
    return member, key_pay, multiplier, model.game.line_multipliers == "add"


def _tables(game: Game, level: int, moving: bool, mutation: str = "",
            table_limit: int = _TABLE_LIMIT) -> K.Tables:
    """The game at ``level`` as the kernels' integer arrays (:class:`~._conveyor_kernels.
    Tables`)."""
    c, wilds, n = game.conveyor, game.random_wilds, game.n_reels
    fs = c.free_spins
    model = PayModel(game, level)
    symbols = list(game.symbols)
    code = {s: i for i, s in enumerate(symbols)}
    S, rows = len(symbols), tuple(game.rows)
    H = max(rows)
    sets = [game.reel_sets["base"].reels, game.reel_sets[fs.reels].reels]
    L = max(len(reel.symbols) for reels in sets for reel in reels)
    tabled = S**n <= table_limit
    power = np.array([S ** (n - 1 - j) if tabled else 1 for j in range(n)], dtype=np.int64)
    strips = np.zeros((2, n, L, H), dtype=np.int64)
    stop_cum = np.zeros((2, n, L), dtype=np.int64)
    stop_len = np.zeros((2, n), dtype=np.int64)
    stop_total = np.zeros((2, n), dtype=np.int64)
    totals = [reel.cycle for reels in sets for reel in reels]
    T = max([t for t in totals if t <= K.STOP_TABLE] + [1])
    stop_at = np.zeros((2, n, T), dtype=np.int64)
    for r, reels in enumerate(sets):
        for j, (reel, h) in enumerate(zip(reels, rows)):
            stop_len[r, j] = len(reel.symbols)
            stop_cum[r, j] = _cumulative(reel.stop_weights, L)
            if reel.cycle <= K.STOP_TABLE:
                stop_total[r, j] = reel.cycle
                stop_at[r, j, : reel.cycle] = np.repeat(np.arange(len(reel.symbols)),
                                                        reel.stop_weights)
            for stop in range(len(reel.symbols)):
                strips[r, j, stop, :h] = [code[s] * power[j] for s in reel.window(stop, h)]
    wild_cum = np.stack([_cumulative(w, H + 1) for w in wilds.weights])
    member, key_pay, multiplier, added = _pay_arrays(model, symbols, n)
    line_pay = (K.line_table(S, n, member, key_pay, multiplier, added) if tabled
                else np.zeros(0, dtype=np.int64))
    lines = np.array(game.paylines, dtype=np.int64)
    columns = tabled and 2 * n * L * (H + 1) * len(lines) <= _COLUMN_LIMIT
    line_col = np.zeros((2, n, L, H + 1, len(lines)) if columns else (2, n, 1, 1, 1),
                        dtype=np.int32)
    if columns:  # line_col[r, j, stop, 1 + wild row, line]: reel j's part of the line's code
        wild = code[wilds.symbol] * power
        for j in range(n):
            part = strips[:, j][:, :, lines[:, j]]  # [r, stop, line]
            line_col[:, j, :, 0] = part
            for row in range(rows[j]):
                line_col[:, j, :, 1 + row] = np.where(lines[:, j] == row, wild[j], part)
    # baubles: 0 empty, the base wheel's entries, the free wheel's, what a surprise becomes
    # when its feature has no kind with weight (a spreading wild; the rules leave no other)
    baubles = [(b.feature, b.value) for b, _ in c.wheel + fs.wheel]
    features = list(c.surprise)
    defaults = []
    for f in features:
        defaults.append(len(baubles) + 1)
        baubles.append((f, 0))
    feature_code = {"spreading_wild": K.SPREAD, "free_spins": K.FREE, "coin_win": K.COIN,
                    "surprise": K.SURPRISE}
    feature = np.array([-1] + [feature_code[f] for f, _ in baubles], dtype=np.int64)
    value = np.array([0] + [v for _, v in baubles], dtype=np.int64)
    W = max(len(c.wheel), len(fs.wheel)) + 1
    wheel_cum = np.stack([_cumulative([c.empty_weight] + [w for _, w in c.wheel], W),
                          _cumulative([fs.empty_weight] + [w for _, w in fs.wheel], W)])
    wheel_code = np.zeros((2, W), dtype=np.int64)
    wheel_code[0, 1: len(c.wheel) + 1] = np.arange(1, len(c.wheel) + 1)
    wheel_code[1, 1: len(fs.wheel) + 1] = np.arange(len(c.wheel) + 1,
                                                     len(c.wheel) + len(fs.wheel) + 1)
    wheel_len = np.array([len(c.wheel) + 1, len(fs.wheel) + 1], dtype=np.int64)
    F = len(features)
    kinds = [[(i + 1, w) for i, (b, w) in enumerate(c.wheel) if b.feature == f]
             for f in features]
    KK = max([len(k) for k in kinds] + [1])
    kind_cum = np.zeros((F, KK), dtype=np.int64)
    kind_code = np.zeros((F, KK), dtype=np.int64)
    for i, k in enumerate(kinds):
        kind_cum[i] = _cumulative([w for _, w in k], KK)
        kind_code[i, : len(k)] = [b for b, _ in k]
    params = np.zeros(K.N_PARAMS, dtype=np.int64)
    params[[K.P_N, K.P_CONSUME, K.P_MOVING, K.P_BET, K.P_CPB, K.P_START,
            K.P_MAXLEFT, K.P_ADDED, K.P_TABLE, K.P_MUTATION, K.P_COLUMNS]] = [
        n, c.consume_on_activation, moving, game.bet,
        model.credits_per_bet, fs.start_baubles, fs.max_spins_left, added, tabled,
        K.MUTATIONS[mutation], columns]
    return K.Tables(
        params=params, rows=np.array(rows, dtype=np.int64), strips=strips, stop_cum=stop_cum,
        stop_len=stop_len, wild_cum=wild_cum, lines=lines, line_col=line_col,
        power=power, stop_total=stop_total, stop_at=stop_at, wild=code[wilds.symbol] * power,
        line_pay=line_pay, member=member, key_pay=key_pay, multiplier=multiplier,
        feature=feature, value=value, wheel_cum=wheel_cum, wheel_code=wheel_code,
        wheel_len=wheel_len, surprise_cum=_cumulative(list(c.surprise.values()), F),
        kind_cum=kind_cum, kind_code=kind_code,
        kind_len=np.array([len(k) for k in kinds], dtype=np.int64),
        kind_default=np.array(defaults, dtype=np.int64))


COMPONENTS = ("lines", "spreading_wild", "coin_win", "free_spins")


def simulate_conveyor(game: Game, spins: int, seed: int = 0, level: int = 1,
                      moving: bool = True, batches: int = 50, progress: bool = False,
                      states: bool = False) -> ConveyorSimulation:
    """Play ``spins`` consecutive paid spins from the empty conveyor (after ``game.n_reels``
    warm-up spins, so that the conveyor is in its stationary law) and measure the RTP, with
    a batch-means standard error over ``batches`` blocks. ``states=True`` also keeps the
    conveyor each paid spin started from and its components (``ConveyorSimulation.states``,
    ``ConveyorSimulation.parts``).

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/conveyor_tiny.toml")
    >>> s = simulate_conveyor(g, 2000, seed=1)
    >>> s.spins, sorted(s.components) == sorted(COMPONENTS)
    (2000, True)
    """
    return _simulate(game, spins, seed, level, moving, batches, progress, states)


_CHUNK = 1 << 16  # paid spins between two updates of the progress bar


def _simulate(game: Game, spins: int, seed: int = 0, level: int = 1, moving: bool = True,
              batches: int = 50, progress: bool = False, states: bool = False,
              mutation: str = "", table_limit: int = _TABLE_LIMIT) -> ConveyorSimulation:
    """:func:`simulate_conveyor` with the tests' seeded kernel mutations
    (``_conveyor_kernels.MUTATIONS``) and the line-pay table's size limit."""
    if game.conveyor is None:
        raise ValueError(f"{game.name} has no bauble conveyor")
    game.check_level(level)
    tables = _tables(game, level, moving, mutation, table_limit)
    rs = rng_state(np.random.Generator(np.random.PCG64(seed)))
    n = game.n_reels
    slots = np.zeros(n, dtype=np.int64)
    K.play(rs, tables, slots, np.empty((n, 4)), np.empty(n, dtype=np.int64),
           np.empty((0, n), dtype=np.int64))  # warm-up
    wins = np.empty((spins, 4))
    awarded = np.zeros(spins, dtype=np.int64)
    started = np.empty((spins if states else 0, n), dtype=np.int64)
    step = _CHUNK if progress else max(spins, 1)
    with tqdm(total=spins, disable=not progress, desc="conveyor spins") as bar:
        for a in range(0, spins, step):
            b = min(spins, a + step)
            K.play(rs, tables, slots, wins[a:b], awarded[a:b], started[a:b] if states
                   else started)
            bar.update(b - a)
    total = wins.sum(axis=1)
    size = max(1, spins // batches)
    blocks = total[: size * (spins // size)].reshape(-1, size).mean(axis=1)
    std_error = float(blocks.std(ddof=1) / math.sqrt(len(blocks))) if len(blocks) > 1 else \
        float("inf")
    return ConveyorSimulation(spins, float(total.mean()), std_error,
                              dict(zip(COMPONENTS, map(float, wins.mean(axis=0)))), seed,
                              total, batches, awarded, started if states else None,
                              wins if states else None)


def simulate_rounds(game: Game, spins: int, seed: int, level: int = 1,
                    progress: bool | float = False):
    """The front door's round simulator of a conveyor game
    (:func:`slotmath.simulate.simulate`): :func:`simulate_conveyor` as a
    :class:`~slotmath.simulate.monte_carlo.SimulationResult` (its standard error by batch
    means, the conveyor's components)."""
    from slotmath.simulate.monte_carlo import SimulationResult

    s = simulate_conveyor(game, spins, seed, level, progress=progress is True)
    return SimulationResult(
        spins=s.spins, rtp=s.rtp, std_error=s.std_error, hit_frequency=s.hit_frequency()[0],
        std=s.std(), base=s.rtp - s.components["free_spins"],
        free_spins=s.components["free_spins"], trigger_rate=float("nan"),
        spins_per_feature=float("nan"), seed=seed, level=level, batches=50,
        components=dict(s.components))


def simulate_from_reset(game: Game, runs: int, horizon: int, seed: int = 0, level: int = 1,
                        moving: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``runs`` independent sessions of ``horizon`` paid spins from the empty conveyor:
    ``(mean return of spin t, its standard error)`` for t = 1..horizon.

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("tests/data/conveyor_tiny.toml")
    >>> means, errors = simulate_from_reset(g, 500, 3, seed=2)
    >>> means.shape, bool(means[0] < means[2])  # the first spin has no bauble to activate
    ((3,), True)
    """
    game.check_level(level)
    tables = _tables(game, level, moving)
    rs = rng_state(np.random.Generator(np.random.PCG64(seed)))
    wins = np.empty((runs, horizon))
    K.play_from_reset(rs, tables, wins)
    return wins.mean(axis=0), wins.std(axis=0, ddof=1) / math.sqrt(runs)
