"""Hold & win played spin by spin: the simulator counterpart of
:class:`slotmath.features.hold_and_win.HoldAndWinRound` and of a hold & win game's round.

Every respin is played as the rules say (docs/game-format.md, ``[hold_and_win]``): each gem
kind not used up lands with its probability, a booster fires at ``collect`` gems and acts at
once; then every empty open position lands a cash symbol with ``cash_probability``, its value
drawn by weight; a landing resets the respins to the current (boosted) count. A compiled
kernel plays the rounds; randomness comes only from the caller's ``numpy.random.Generator``,
whose PCG64 stream the kernel steps itself (the doubles of ``Generator.random()``, by
:func:`slotmath.simulate._pcg64.next_double`; the state is written back). Each respin
takes one uniform for the gems that land (their joint law over the kinds still able to fire) and one for how many cash symbols land (binomial over the empty
open positions, which are interchangeable: values and landings do not depend on where), and
each cash symbol one for its value. (Until issue 24 the kernel drew one uniform per gem kind
and per empty position: the same laws, other draws, so a seed's figures changed then.)

``mutation`` exists for the tests only: ``"booster_twice"`` applies every value step twice,
``"reset_unboosted"`` resets the respins to the unboosted count. The tests check that the
agreement tests fail on them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
from numba import njit

from slotmath.evaluate.window import PayModel
from slotmath.model.game import Game
from slotmath.model.hold_and_win import BOOSTER_KINDS, HoldAndWin
from slotmath.simulate._pcg64 import next_double, set_words
from slotmath.simulate._pcg64 import words as pcg_words

__all__ = ["GameSimulation", "RoundSample", "play_hold_and_win", "simulate_game",
           "simulation_summary"]

_MUTATIONS = {None: 0, "booster_twice": 1, "reset_unboosted": 2}


@dataclass(frozen=True)
class RoundSample:
    """One entry per simulated respin round: win (total bets), respins played, whether the
    grid was full, and how often each booster fired (columns in BOOSTER_KINDS order); and per
    named value (``named_values`` order), over all the rounds: how many rounds end showing it
    at least once, and how many times it shows in all."""

    win: np.ndarray
    respins: np.ndarray
    full: np.ndarray
    fired: np.ndarray
    named_rounds: np.ndarray
    named_shown: np.ndarray


def _pcg(rng: np.random.Generator) -> np.random.Generator:
    """``rng`` if its bit generator is a PCG64, else a PCG64 stream seeded by one draw of it
    (the kernel steps PCG64 itself)."""
    if isinstance(rng.bit_generator, np.random.PCG64):
        return rng
    return np.random.Generator(np.random.PCG64(int(rng.integers(2**63))))


_GUIDE = 256  # cells of a law's guide table (see _draw)


@njit(cache=True, inline="always")
def _draw(u, cdf, guide, law):
    """The first index whose cumulative probability ``cdf[law]`` exceeds the uniform ``u``
    (what ``numpy.searchsorted(cdf[law], u, side="right")`` returns), started from the guide
    table's cell of ``u`` (the first index past ``cell / _GUIDE``), so a draw reads one or
    two entries instead of a binary search's branches."""
    i = guide[law, np.int64(u * _GUIDE)]
    while u >= cdf[law, i]:
        i += 1
    return i


def _guide(cdf: np.ndarray) -> np.ndarray:
    """The guide table of one law's cumulative probabilities (see :func:`_draw`)."""
    cells = np.arange(_GUIDE) / _GUIDE
    return np.searchsorted(cdf, cells, side="right").astype(np.int64)


def _cumulative(probabilities) -> np.ndarray:
    """Exact cumulative sums of exact probabilities, each rounded once to a float (the last is
    1.0, and an outcome of probability 0 repeats its predecessor, so it is never drawn)."""
    total = Fraction(0)
    out = []
    for p in probabilities:
        total += p
        out.append(float(total))
    return np.asarray(out)


@lru_cache(maxsize=16)
def _laws(spec: HoldAndWin):
    """The laws one respin draws from, as cumulative tables with their guide tables (cached
    per spec: the exact laws take milliseconds, and the front door plays each batch's few
    triggered rounds in one call).

    * ``landed[e, k]``: ``k`` cash symbols land on ``e`` empty open positions, each with
      ``cash_probability`` (binomial);
    * ``fired[m, o]``: with the kinds of bit set ``m`` still able to fire, the gems of bit set
      ``o`` land (each kind independently with its ``probability``; kinds outside ``m`` never).
    """
    p = spec.cash_probability
    cells = spec.capacity(spec.max_rows - spec.rows)
    landed = np.ones((cells + 1, cells + 1))
    landed_guide = np.zeros((cells + 1, _GUIDE), np.int64)
    for e in range(cells + 1):
        law = [math.comb(e, k) * p**k * (1 - p) ** (e - k) for k in range(e + 1)]
        landed[e, :e + 1] = _cumulative(law)
        landed_guide[e] = _guide(landed[e])
    q = [Fraction(b.probability) if b else Fraction(0)
         for b in (spec.booster(k) for k in BOOSTER_KINDS)]
    fired = np.ones((16, 16))
    fired_guide = np.zeros((16, _GUIDE), np.int64)
    for m in range(16):
        law = []
        for o in range(16):
            chance = Fraction(1)
            for k in range(4):
                if m >> k & 1:
                    chance *= q[k] if o >> k & 1 else 1 - q[k]
                elif o >> k & 1:
                    chance = Fraction(0)
            law.append(chance)
        fired[m] = _cumulative(law)
        fired_guide[m] = _guide(fired[m])
    tables = landed, landed_guide, fired, fired_guide
    for table in tables:  # shared by every call through the cache: nobody may write them
        table.flags.writeable = False
    return tables


@njit(cache=True)
def _play(words, starts, landed, landed_guide, fired_law, fired_guide, collect, times, present,
          extra, ladder, values, cdf, guide, top, prize, reels, rows, respins, mutation,
          named_slot, win, played, full, fired, named_rounds, named_shown):
    """Play one round per entry of ``starts`` into the output arrays, drawing from the PCG64
    state ``words`` (:func:`slotmath.simulate._pcg64.words`; advanced in place).

    Per respin one uniform picks the gems that land (the joint law of the kinds still able to
    fire, ``fired_law``; none drawn when no kind can fire) and one the number of cash symbols
    that land (``landed``, by the number of empty open positions); every cash symbol's value
    takes one more. Positions are interchangeable (values and landings do not depend on
    where), so a count of landings plays the same round as a draw per position."""
    n_rounds = starts.shape[0]
    cap_rows = rows + times[0] * present[0]
    held = np.empty(reels * cap_rows, np.int64)
    counters = np.zeros(4, np.int64)
    used = np.zeros(4, np.int64)
    shown = np.zeros(named_shown.shape[0], np.int64)  # this round's count per named value
    steps = 2 if mutation == 1 else 1
    high, low, inc_high, inc_low = words[0], words[1], words[2], words[3]
    for i in range(n_rounds):
        f = starts[i]
        for c in range(f):
            u, high, low = next_double(high, low, inc_high, inc_low)
            held[c] = _draw(u, cdf, guide, 0)
        left = respins
        reset = respins
        counters[:] = 0
        used[:] = 0
        able = 0  # bit set of the kinds that can still fire
        for k in range(4):
            if present[k] and times[k] > 0:
                able |= 1 << k
        mult = 1
        open_rows = rows
        spins = 0
        while left > 0 and f < reels * open_rows:
            spins += 1
            if able:
                u, high, low = next_double(high, low, inc_high, inc_low)
                gems = _draw(u, fired_law, fired_guide, able)
                for k in range(4):
                    if gems >> k & 1:
                        counters[k] += 1
                        if counters[k] == collect[k]:
                            counters[k] = 0
                            used[k] += 1
                            if used[k] == times[k]:
                                able &= ~(1 << k)
                            if k == 0:
                                open_rows += 1
                            elif k == 1:
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
            n = 0
            if empty:
                u, high, low = next_double(high, low, inc_high, inc_low)
                n = _draw(u, landed, landed_guide, empty)
            for _ in range(n):
                u, high, low = next_double(high, low, inc_high, inc_low)
                held[f] = _draw(u, cdf, guide, 0)
                f += 1
            if n:
                left = respins if mutation == 2 else reset
            else:
                left -= 1
        total = 0.0
        shown[:] = 0
        for c in range(f):
            total += values[held[c]]
            slot = named_slot[held[c]]
            if slot >= 0:
                shown[slot] += 1
        is_full = f == reels * open_rows
        if is_full:
            total += prize
        win[i] = mult * total
        played[i] = spins
        full[i] = is_full
        for k in range(4):
            fired[i, k] = used[k]
        for j in range(shown.shape[0]):
            if shown[j]:
                named_rounds[j] += 1
                named_shown[j] += shown[j]
    words[0] = high
    words[1] = low


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
    collect = np.asarray([b.collect if b else 1 for b in bs], np.int64)
    times = np.asarray([b.times if b else 0 for b in bs], np.int64)
    extra = bs[2].extra if bs[2] else 0
    ladder = np.asarray(bs[3].ladder if bs[3] else (1,), np.int64)
    weights = [Fraction(w) for w in spec.value_weights]
    cdf = _cumulative([w / sum(weights) for w in weights])[None, :]
    values = np.asarray([float(v) for v in spec.values])
    win, played = np.empty(n), np.empty(n, np.int64)
    full, fired = np.empty(n, np.bool_), np.empty((n, 4), np.int64)
    named_slot = np.full(len(spec.values), -1, np.int64)  # value index -> its name's column
    for j, (_, v) in enumerate(spec.named_values):
        named_slot[spec.values.index(v)] = j
    named_rounds = np.zeros(len(spec.named_values), np.int64)
    named_shown = np.zeros(len(spec.named_values), np.int64)
    landed, landed_guide, fired_law, fired_guide = _laws(spec)
    rng = _pcg(rng)
    words = pcg_words(rng, "hold & win simulator")
    _play(words, starts, landed, landed_guide, fired_law, fired_guide, collect, times,
          present, extra, ladder, values, cdf, _guide(cdf[0])[None, :], spec.top_index,
          float(spec.full_grid_prize), spec.reels, spec.rows, spec.respins,
          _MUTATIONS[mutation], named_slot, win, played, full, fired, named_rounds,
          named_shown)
    set_words(rng, words)
    return RoundSample(win, played, full, fired, named_rounds, named_shown)


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

