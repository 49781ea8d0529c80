"""Hold & win played spin by spin: the simulator counterpart of
:class:`slotmath.features.hold_and_win.HoldAndWinRound` and of a hold & win game's round.

Every respin is played as the rules say (docs/game-format.md, ``[hold_and_win]``): each gem
kind not used up lands with its probability, a booster fires at ``collect`` gems and acts at
once; then every empty open position lands a cash symbol with ``cash_probability``, its value
drawn by weight; a landing resets the respins to the current (boosted) count. A compiled
kernel plays the rounds; randomness comes only from the caller's ``numpy.random.Generator``
(one uniform stream drawn up front per batch of rounds).

``mutation`` exists for the tests only: ``"booster_twice"`` applies every value step twice,
``"reset_unboosted"`` resets the respins to the unboosted count. The tests check that the
agreement tests fail on them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from slotmath.evaluate.window import PayModel
from slotmath.model.game import Game
from slotmath.model.hold_and_win import BOOSTER_KINDS, HoldAndWin

__all__ = ["GameSimulation", "RoundSample", "play_hold_and_win", "simulate_game",
           "simulation_summary"]

_MUTATIONS = {None: 0, "booster_twice": 1, "reset_unboosted": 2}


@dataclass(frozen=True)
class RoundSample:
    """One entry per simulated respin round: win (total bets), respins played, whether the
    grid was full, and how often each booster fired (columns in BOOSTER_KINDS order)."""

    win: np.ndarray
    respins: np.ndarray
    full: np.ndarray
    fired: np.ndarray


@njit(cache=True)
def _play(first, starts, uniforms, worst, p_cash, q, collect, times, present, extra, ladder,
          values, cdf, top, prize, reels, rows, respins, mutation, win, played, full, fired):
    """Play rounds from ``first`` on while a whole round's worst case of uniforms is left;
    returns the next round to play."""
    n_rounds = starts.shape[0]
    cap_rows = rows + times[0] * present[0]
    held = np.empty(reels * cap_rows, np.int64)
    u = 0
    n_u = uniforms.shape[0]
    for i in range(first, n_rounds):
        if u + worst > n_u:
            return i
        f = starts[i]
        for c in range(f):
            held[c] = np.searchsorted(cdf, uniforms[u], side="right")
            u += 1
        left = respins
        reset = respins
        counters = np.zeros(4, np.int64)
        used = np.zeros(4, np.int64)
        mult = 1
        open_rows = rows
        spins = 0
        while left > 0 and f < reels * open_rows:
            spins += 1
            for k in range(4):
                if present[k] and used[k] < times[k]:
                    x = uniforms[u]
                    u += 1
                    if x < q[k]:
                        counters[k] += 1
                        if counters[k] == collect[k]:
                            counters[k] = 0
                            used[k] += 1
                            if k == 0:
                                open_rows += 1
                            elif k == 1:
                                steps = 2 if mutation == 1 else 1
                                for c in range(f):
                                    for _ in range(steps):
                                        if held[c] < top:
                                            held[c] += 1
                            elif k == 2:
                                left += extra
                                reset += extra
                            else:
                                mult = ladder[used[k] - 1]
            empty = reels * open_rows - f
            landed = 0
            for _ in range(empty):
                x = uniforms[u]
                u += 1
                if x < p_cash:
                    held[f] = np.searchsorted(cdf, uniforms[u], side="right")
                    u += 1
                    f += 1
                    landed += 1
            if landed:
                left = respins if mutation == 2 else reset
            else:
                left -= 1
        total = 0.0
        for c in range(f):
            total += values[held[c]]
        is_full = f == reels * open_rows
        if is_full:
            total += prize
        win[i] = mult * total
        played[i] = spins
        full[i] = is_full
        for k in range(4):
            fired[i, k] = used[k]
    return n_rounds


def play_hold_and_win(spec: HoldAndWin, starts, rng: np.random.Generator,
                      mutation: str | None = None) -> RoundSample:
    """Play one respin round per entry of ``starts`` (cash symbols held at the start).

    Examples
    --------
    >>> from fractions import Fraction
    >>> spec = HoldAndWin("C", 1, 1, Fraction(1, 2), (Fraction(1),), (1,), rows=1,
    ...                   max_rows=1, reels=2)
    >>> s = play_hold_and_win(spec, np.ones(20000, np.int64), np.random.default_rng(1))
    >>> round(float(s.win.mean()), 1)   # exact: 3/2
    1.5
    """
    starts = np.asarray(starts, dtype=np.int64)
    n = len(starts)
    bs = [spec.booster(k) for k in BOOSTER_KINDS]
    present = np.asarray([b is not None for b in bs], np.int64)
    q = np.asarray([float(b.probability) if b else 0.0 for b in bs])
    collect = np.asarray([b.collect if b else 1 for b in bs], np.int64)
    times = np.asarray([b.times if b else 0 for b in bs], np.int64)
    extra = bs[2].extra if bs[2] else 0
    ladder = np.asarray(bs[3].ladder if bs[3] else (1,), np.int64)
    weights = np.asarray(spec.value_weights, dtype=np.float64)
    cdf = np.cumsum(weights) / weights.sum()
    cdf[-1] = 1.0
    values = np.asarray([float(v) for v in spec.values])
    win, played = np.empty(n), np.empty(n, np.int64)
    full, fired = np.empty(n, np.bool_), np.empty((n, 4), np.int64)
    cap = spec.capacity(spec.max_rows - spec.rows)
    # the most uniforms one round can use: every respin draws 4 gems and 2 per position,
    # and at most (cap + 1) x (most respins) respins are played
    most_respins = spec.respins + extra * int(times[2])
    worst = (cap + 1) * most_respins * (4 + 2 * cap) + 2 * cap
    done = 0
    while done < n:
        uniforms = rng.random(max(1 << 22, 2 * worst))
        done = _play(done, starts, uniforms, worst, float(spec.cash_probability), q, collect,
                     times, present, extra, ladder, values, cdf, spec.top_index,
                     float(spec.full_grid_prize), spec.reels, spec.rows, spec.respins,
                     _MUTATIONS[mutation], win, played, full, fired)
    return RoundSample(win, played, full, fired)


@dataclass(frozen=True)
class GameSimulation:
    """A hold & win game simulated round by round (total bets per paid round)."""

    spins: int
    rtp: float
    std_error: float
    lines: float
    hold_and_win: float
    hold_and_win_std_error: float
    trigger_rate: float
    rounds: RoundSample
    seed: int
    hit_frequency: float = 0.0  # fraction of rounds paying anything

    def confidence_interval(self, z: float = 1.96) -> tuple[float, float]:
        return self.rtp - z * self.std_error, self.rtp + z * self.std_error


def simulate_game(game: Game, spins: int, seed: int, level: int = 1,
                  mutation: str | None = None,
                  modifier_mutation: str | None = None) -> GameSimulation:
    """``spins`` seeded paid rounds of a hold & win game: the paid spin drawn and paid by the
    engine's spin kernel (:func:`slotmath.simulate.spins.pay`), its cash symbols counted,
    and every triggered round played by :func:`play_hold_and_win`; with ``[modifiers]`` the
    paid spins are played by :func:`slotmath.simulate.modifiers.play_paid_spins`."""
    from slotmath.simulate.spins import ReelSet, draw_stops, pay
    from slotmath.simulate.tables import compile_pays

    spec = game.hold_and_win
    if spec is None:
        raise ValueError(f"{game.name} has no hold & win")
    rng = np.random.Generator(np.random.PCG64(seed))
    model = PayModel(game, level)
    pays = compile_pays(game, model)
    base = ReelSet.compile(game, model, pays, "base")
    if game.modifiers is not None:  # the paid spins with their modifiers, spin by spin
        from slotmath.simulate.modifiers import play_paid_spins
        paid = play_paid_spins(game, spins, rng, level, mutation=modifier_mutation)
        line_win, cash = paid.win, paid.cash
    else:
        stops = draw_stops(rng, base.reels, spins)
        credits, _, _, _ = pay(base, spins, stops=stops)
        cash = np.zeros(spins, np.int64)
        for j, reel in enumerate(game.base.reels):
            per_stop = np.asarray([reel.window(s, game.rows[j]).count(spec.symbol)
                                   for s in range(len(reel.symbols))], np.int64)
            cash += per_stop[stops[:, j]]
        line_win = credits / pays.credits_per_bet
    triggered = np.nonzero(cash >= spec.trigger)[0]
    rounds = play_hold_and_win(spec, cash[triggered], rng, mutation)
    total = line_win.copy()
    total[triggered] += rounds.win
    feature = np.zeros(spins)
    feature[triggered] = rounds.win
    return GameSimulation(
        spins, float(total.mean()), float(total.std(ddof=1) / math.sqrt(spins)),
        float(line_win.mean()), float(feature.mean()),
        float(feature.std(ddof=1) / math.sqrt(spins)), len(triggered) / spins, rounds, seed,
        float((total > 0).mean()))


def simulation_summary(result: GameSimulation) -> dict:
    """The figures of a game simulation, for the CLI (plain numbers)."""
    r = result.rounds
    low, high = result.confidence_interval()
    return {
        "spins": result.spins, "seed": result.seed, "rtp": result.rtp,
        "std_error": result.std_error, "rtp_95": [low, high], "lines": result.lines,
        "hold_and_win": result.hold_and_win,
        "hold_and_win_std_error": result.hold_and_win_std_error,
        "trigger_rate": result.trigger_rate, "respin_rounds": len(r.win),
        "mean_round_win": float(r.win.mean()) if len(r.win) else 0.0,
        "expected_respins": float(r.respins.mean()) if len(r.win) else 0.0,
        "fill_probability": float(r.full.mean()) if len(r.win) else 0.0,
        "boosters_fired_at_least_once": {
            kind: float((r.fired[:, k] >= 1).mean()) if len(r.win) else 0.0
            for k, kind in enumerate(BOOSTER_KINDS)},
    }


def simulate_rounds(game: Game, spins: int, seed: int, level: int = 1,
                    progress: bool | float = False):
    """The front door's round simulator of a hold & win game (with or without base-game
    modifiers: :func:`simulate_game`), as a
    :class:`~slotmath.simulate.monte_carlo.SimulationResult`."""
    from slotmath.simulate.monte_carlo import SimulationResult

    s = simulate_game(game, spins, seed, level)
    r = s.rounds
    total_std = s.std_error * math.sqrt(spins)
    return SimulationResult(
        spins=spins, rtp=s.rtp, std_error=s.std_error, hit_frequency=s.hit_frequency,
        std=total_std, base=s.lines, free_spins=0.0, trigger_rate=s.trigger_rate,
        spins_per_feature=float(r.respins.mean()) if len(r.win) else 0.0, seed=seed,
        level=level, components={"pays": s.lines, "hold_and_win": s.hold_and_win},
        trigger_rates={"hold_and_win": s.trigger_rate})
