"""The bauble conveyor (Jingle Spin) as a feature of kind ``owner``: a Markov chain on the
conveyor that plays the whole paid round itself.

The state a paid spin starts in is the conveyor: one code per slot (0 empty, else a bauble
kind of :attr:`ConveyorFeature.kinds`). It is fully visible to the player, so the RTP by
visible state is the RTP of a paid spin from each state. The order of a spin and every
modelling choice are in :mod:`slotmath.model.persistent`.

What a paid spin in state ``s`` pays, in total bets, is the sum of four parts (each a
:class:`StatePart`, the per-state counterpart of a round feature; ``component`` names its
RTP component):

* ``lines`` (:class:`RandomWildLines`): the line win with the random wilds, no spreads (the
  same in every state), exact;
* ``spreading_wild`` (:class:`SpreadingWild`): what the spreads add to it, exact
  (:class:`slotmath.exact.random_wilds.WildLines`, the chance that each reel's wild spreads
  being 1 under a spreading-wild bauble and the surprise's chance under a surprise);
* ``coin_win`` (:class:`CoinWin`): ``sum_j P(wild on reel j) E[coin of slot j]``, exact;
* ``free_spins`` (:class:`BaubleFreeSpins`): ``sum_N P(N spins awarded) F(N)``, where
  ``F(N)`` is the expected win of ``N`` free spins, from a chain over (spins left, free-spin
  conveyor) solved by iteration (numerical, error stated).

Exact: the stationary law of the conveyor (``e_reset P^n``, the conveyor forgets after its
``n`` slots have been refilled: :meth:`PersistentChain.stationary_exact`), the lines, spread
and coin components and their per-state values. Numerical: the free-spins values and so the
RTP, the RTP by state and from reset. Simulator counterpart:
:func:`slotmath.simulate.conveyor.simulate_conveyor`.

The free-spins chain
--------------------
State ``(m, C)``: ``m`` spins left (at most ``max_spins_left``), ``C`` the free-spin conveyor.
A spin pays ``r(C)`` (lines with spreads plus coins), awards ``a`` spins and leaves ``D``
(the conveyor after consumption and the move, one slot short), then the wheel adds ``b``::

    V_m(C) = r(C) + sum_{a, D} P(a, D | C) U_{min(m - 1 + a, M)}(D),
    U_m(D) = sum_b q(b) V_m(D + b),    V_0 = 0.

Coin-win kinds are merged into one kind paying their mean (a coin value changes nothing
else, so this is exact). Gauss-Seidel sweeps in increasing ``m`` from ``V = 0`` increase
monotonically to ``V``; they stop when a sweep changes no value by more than ``TOLERANCE``
(relative); the stated error is the last change times ``rho / (1 - rho)``, ``rho`` the ratio
of the last two changes (the sweeps' contraction, an estimate).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from slotmath.exact.random_wilds import WildLines
from slotmath.features.base import Feature, Kind
from slotmath.markov.persistent import AdvantagePlay, PersistentChain
from slotmath.model.game import Game
from slotmath.model.persistent import Bauble

__all__ = ["FEATURE", "BaubleFreeSpins", "CoinWin", "ConveyorFeature", "ConveyorFigures",
           "RandomWildLines", "SpreadingWild", "StatePart"]

TOLERANCE = 1e-14
REPORTED_SPINS = (1, 10, 100, 1000)


@dataclass(frozen=True)
class _Effect:
    """What a bauble kind does when a regular wild lands below it."""

    spread: Fraction  # P(it spreads the wild)
    coin: Fraction  # expected coin win, total bets
    spins: tuple[tuple[int, Fraction], ...]  # law of the spins it awards


def _effect(bauble: Bauble, surprise: dict[Bauble, Fraction], bet: int) -> _Effect:
    if bauble.feature == "surprise":
        spread = sum((p for b, p in surprise.items() if b.feature == "spreading_wild"),
                     Fraction(0))
        coin = sum((p * Fraction(b.value, bet) for b, p in surprise.items()
                    if b.feature == "coin_win"), Fraction(0))
        spins: dict[int, Fraction] = {}
        for b, p in surprise.items():
            v = b.value if b.feature == "free_spins" else 0
            spins[v] = spins.get(v, 0) + p
        return _Effect(spread, coin, tuple(sorted(spins.items())))
    return _Effect(Fraction(bauble.feature == "spreading_wild"),
                   Fraction(bauble.value, bet) if bauble.feature == "coin_win" else Fraction(0),
                   ((bauble.value if bauble.feature == "free_spins" else 0, Fraction(1)),))


_NO_SPINS = ((0, Fraction(1)),)
_EMPTY = _Effect(Fraction(0), Fraction(0), _NO_SPINS)


def _award_law(effects, hits) -> dict[int, Fraction]:
    """Law of the spins awarded by slots with ``effects`` (None: empty) and wild chances."""
    law = {0: Fraction(1)}
    for e, h in zip(effects, hits):
        if e is None or e.spins == ((0, Fraction(1)),):
            continue
        step = {0: 1 - h}
        for v, p in e.spins:
            step[v] = step.get(v, 0) + h * p
        nxt: dict[int, Fraction] = {}
        for a, pa in law.items():
            for v, pv in step.items():
                nxt[a + v] = nxt.get(a + v, 0) + pa * pv
        law = nxt
    return law


class StatePart:
    """One part of what a paid spin pays, per conveyor state (the per-state counterpart of a
    round feature): ``component`` names its RTP component, ``mean(state)`` its expected
    win in total bets, ``exact`` whether that is an exact Fraction."""

    component: str
    exact: bool = True

    def mean(self, state: tuple[int, ...]):  # pragma: no cover - interface
        raise NotImplementedError


class RandomWildLines(StatePart):
    """The line win with the random wilds and no spreads (the same in every state)."""

    component = "lines"

    def __init__(self, feature: ConveyorFeature):
        self.value = feature.base_lines.mean([0] * feature.n)

    def mean(self, state):
        return self.value


class SpreadingWild(StatePart):
    """What the spreading wilds add to the line win in ``state``."""

    component = "spreading_wild"

    def __init__(self, feature: ConveyorFeature):
        self.f = feature
        self.plain = feature.base_lines.mean([0] * feature.n)
        self._cache: dict = {}

    def mean(self, state):
        key = tuple(self.f.effect(k).spread for k in state)
        if key not in self._cache:
            self._cache[key] = self.f.base_lines.mean(key) - self.plain
        return self._cache[key]


class CoinWin(StatePart):
    """The coin-win baubles' expected pay in ``state``."""

    component = "coin_win"

    def __init__(self, feature: ConveyorFeature):
        codes = range(len(feature.kinds) + 1)
        self.table = [[h * feature.effect(k).coin for k in codes] for h in feature.hits]

    def mean(self, state):
        return sum((self.table[j][k] for j, k in enumerate(state) if k), Fraction(0))


class BaubleFreeSpins(StatePart):
    """The free spins the baubles award in ``state`` (numerical: :meth:`free_spin_value`)."""

    component = "free_spins"
    exact = False

    def __init__(self, feature: ConveyorFeature):
        self.f = feature
        self._cache: dict = {}

    def mean(self, state):
        effects = tuple(self.f.effect(k) if k else None for k in state)
        key = tuple(None if e is None or e.spins == _NO_SPINS else e.spins
                    for e in effects)  # all that matters here
        if key not in self._cache:
            law = {n: p for n, p in _award_law(effects, self.f.hits).items() if n and p}
            self._cache[key] = (sum(float(p) * self.f.free_spin_value(n)
                                    for n, p in law.items()) if law else Fraction(0))
        return self._cache[key]


@dataclass(frozen=True, eq=False)
class ConveyorFigures:
    """The conveyor's long-run figures (total bets per paid spin).

    ``states`` and ``probability`` (exact) list the reachable conveyor states in the
    stationary law; ``by_state[component]`` each component's per-state value.
    """

    feature: ConveyorFeature
    states: tuple
    probability: tuple  # Fractions
    by_state: dict  # component -> tuple per state
    fs_error: float

    @cached_property
    def components(self) -> dict:
        out = {}
        for name, values in self.by_state.items():
            if all(isinstance(v, Fraction) for v in values):
                out[name] = sum((p * v for p, v in zip(self.probability, values)), Fraction(0))
            else:
                out[name] = float(sum(float(p) * v for p, v in zip(self.probability, values)))
        return out

    @cached_property
    def exact(self) -> bool:
        return all(isinstance(v, Fraction) for v in self.components.values())

    @cached_property
    def rtp(self):
        """Long-run RTP: exact when no free-spins bauble can be won, else a float."""
        total = sum(self.components.values())
        return total if self.exact else float(total)

    @property
    def replaced(self) -> float:
        """The analysis' plain round (strips only) is replaced by the conveyor's spin."""
        return float(self.feature.plain_round_mean)

    @property
    def error(self) -> float:
        return self.fs_error + 1e-15

    @cached_property
    def state_rtp(self) -> np.ndarray:
        """The RTP of a paid spin from each state of :attr:`states`."""
        return np.array([sum(float(v[i]) for v in self.by_state.values())
                         for i in range(len(self.states))])

    @cached_property
    def advantage_play(self) -> AdvantagePlay:
        return PersistentChain.advantage_play(
            [self.feature.describe(s) for s in self.states], self.state_rtp,
            [float(p) for p in self.probability])

    def rtp_from_reset(self, spins=REPORTED_SPINS) -> list[float]:
        """Mean RTP of the first ``N`` paid spins from the empty conveyor, per ``N``."""
        chain = self.feature.chain
        reward = np.zeros(len(chain.states))
        where = {s: i for i, s in enumerate(self.states)}
        parts = [self.feature.parts_by_name[c] for c in self.by_state]
        for i, s in enumerate(chain.states):
            if s in where:
                reward[i] = self.state_rtp[where[s]]
            else:
                reward[i] = sum(float(p.mean(s)) for p in parts)
        return chain.rtp_from_reset(reward, spins)

    def holding(self) -> dict[int, Fraction]:
        """Stationary P(the conveyor holds k baubles), k = 0..n."""
        out = {k: Fraction(0) for k in range(self.feature.n + 1)}
        for s, p in zip(self.states, self.probability):
            out[sum(1 for k in s if k)] += p
        return out

    def slot_law(self) -> list[dict[str, Fraction]]:
        """Stationary law of each slot's content (by bauble label, "empty"), slot 1 first."""
        names = ["empty"] + [b.label for b in self.feature.kinds]
        out = [{name: Fraction(0) for name in names} for _ in range(self.feature.n)]
        for s, p in zip(self.states, self.probability):
            for j, k in enumerate(s):
                out[j][names[k]] += p
        return out


@dataclass(frozen=True, eq=False)
class ConveyorFeature:
    """The stationary feature of a bauble conveyor at bet ``level``."""

    game: Game
    level: int = 1
    name: str = "conveyor"
    simulator: str = "slotmath.simulate.conveyor.simulate_conveyor"
    driven_by: None = None  # it drives itself: the whole paid round is its own

    @cached_property
    def n(self) -> int:
        return self.game.n_reels

    @cached_property
    def kinds(self) -> tuple[Bauble, ...]:
        """Bauble kinds, codes 1.. (base wheel first, then those only on the free-spin one)."""
        c = self.game.conveyor
        out = []
        for b, _ in c.wheel + c.free_spins.wheel:
            if b not in out:
                out.append(b)
        return tuple(out)

    @cached_property
    def hits(self) -> tuple[Fraction, ...]:
        """P(a regular wild lands on reel j)."""
        return tuple(self.game.random_wilds.hit_probability(j) for j in range(self.n))

    @cached_property
    def _effects(self) -> tuple[_Effect, ...]:
        surprise = self.game.conveyor.surprise_law()
        return (_EMPTY,) + tuple(_effect(b, surprise, self.game.bet) for b in self.kinds)

    def effect(self, code: int) -> _Effect:
        return self._effects[code]

    @cached_property
    def base_lines(self) -> WildLines:
        return WildLines(self.game, "base", self.level)

    @cached_property
    def free_lines(self) -> WildLines:
        reels = self.game.conveyor.free_spins.reels
        return self.base_lines if reels == "base" else WildLines(self.game, reels, self.level)

    @cached_property
    def plain_round_mean(self) -> Fraction:
        """What the analysis' plain spin (strips only, no wilds) pays: it replaces it."""
        from slotmath.exact.direct import direct_method
        return sum(direct_method(self.game, "base", self.level).components.values(),
                   Fraction(0))

    def describe(self, state: tuple[int, ...]) -> str:
        """A state as the player sees it, slot 1 first: "coin_win:20 | - | surprise | ..."."""
        return " | ".join("-" if not k else self.kinds[k - 1].label for k in state)

    # -- the base chain -------------------------------------------------------------------
    def _delivery(self, wheel, empty_weight, codes) -> list[tuple[int, Fraction]]:
        total = empty_weight + sum(w for _, w in wheel)
        out = [(0, Fraction(empty_weight, total))] if empty_weight else []
        return out + [(codes[b], Fraction(w, total)) for b, w in wheel if w]

    @cached_property
    def _base_delivery(self):
        codes = {b: i + 1 for i, b in enumerate(self.kinds)}
        c = self.game.conveyor
        return self._delivery(c.wheel, c.empty_weight, codes)

    def successors(self, state: tuple[int, ...]) -> dict[tuple[int, ...], Fraction]:
        """One paid spin's move of the conveyor: consumption, the move left, the delivery."""
        consume = self.game.conveyor.consume_on_activation
        if not consume:  # the move left and the delivery only
            return {state[1:] + (k,): q for k, q in self._base_delivery}
        kept = {(): Fraction(1)}
        for j in range(1, self.n):  # slot 0 leaves whatever happens
            k = state[j]
            options = [(k, 1 - self.hits[j]), (0, self.hits[j])] if consume and k else [(k, 1)]
            kept = _extend(kept, options)
        return _extend(kept, self._base_delivery)

    @cached_property
    def chain(self) -> PersistentChain:
        return PersistentChain(self.successors, (0,) * self.n, memory=self.n)

    @cached_property
    def parts(self) -> tuple[StatePart, ...]:
        return (RandomWildLines(self), SpreadingWild(self), CoinWin(self),
                BaubleFreeSpins(self))

    @cached_property
    def parts_by_name(self) -> dict[str, StatePart]:
        return {p.component: p for p in self.parts}

    def state_mean(self, state) -> float:
        """Expected return of a paid spin from ``state`` (total bets)."""
        return sum(float(p.mean(state)) for p in self.parts)

    def analyze(self, events_round=None) -> ConveyorFigures:
        """The long-run figures (``events_round`` is not used: the feature owns the round)."""
        law = self.chain.stationary_exact()
        states = tuple(sorted(law))
        probability = tuple(law[s] for s in states)
        by_state = {p.component: tuple(p.mean(s) for s in states) for p in self.parts}
        return ConveyorFigures(self, states, probability, by_state, self.free_spin_error)

    # -- the free-spins chain ---------------------------------------------------------------
    @cached_property
    def _free(self) -> dict:
        """The free-spin chain's kinds (coin wins merged), start law, rewards, moves."""
        game, c = self.game, self.game.conveyor
        fs = c.free_spins
        surprise = c.surprise_law()
        coin_total = sum(w for b, w in fs.wheel if b.feature == "coin_win")
        merged: dict[Hashable, tuple[_Effect, int]] = {}
        for b, w in fs.wheel:
            if not w:
                continue
            e = _effect(b, surprise, game.bet)
            key = "coin" if b.feature == "coin_win" else b
            if key == "coin":
                mean = sum((Fraction(x.value, game.bet) * v for x, v in fs.wheel
                            if x.feature == "coin_win"), Fraction(0)) / coin_total
                e = _Effect(e.spread, mean, e.spins)
            old = merged.get(key, (e, 0))[1]
            merged[key] = (e, old + w)
        effects = [_EMPTY] + [e for e, _ in merged.values()]
        total = fs.empty_weight + sum(w for _, w in merged.values())
        delivery = ([(0, fs.empty_weight / total)] if fs.empty_weight else []) + \
            [(i + 1, w / total) for i, (_, w) in enumerate(merged.values())]
        k = len(effects)
        n = self.n
        states = list(itertools.product(range(k), repeat=n))
        index = {s: i for i, s in enumerate(states)}
        shorter = list(itertools.product(range(k), repeat=n - 1))
        short_index = {s: i for i, s in enumerate(shorter)}
        hits = [float(h) for h in self.hits]
        reward = np.empty(len(states))
        moves: dict[int, tuple[list, list, list]] = {}
        spread_cache: dict = {}
        for i, s in enumerate(states):
            key = tuple(effects[x].spread for x in s)
            if key not in spread_cache:
                spread_cache[key] = float(self.free_lines.mean(key))
            reward[i] = spread_cache[key] + sum(h * float(effects[x].coin)
                                                for h, x in zip(hits, s) if x)
            joint = {(0, ()): 1.0}
            for j, x in enumerate(s):
                e = effects[x]
                outs = [(0, x, 1.0 - hits[j] if x else 1.0)]
                if x:
                    left = 0 if fs_consume(c) else x
                    outs += [(v, left, hits[j] * float(p)) for v, p in e.spins]
                nxt: dict = {}
                for (a, kept), pa in joint.items():
                    for v, left, pv in outs:
                        if pv:
                            key2 = (a + v, kept + ((left,) if j else ()))
                            nxt[key2] = nxt.get(key2, 0.0) + pa * pv
                joint = nxt
            for (a, kept), p in joint.items():
                rows, cols, vals = moves.setdefault(a, ([], [], []))
                rows.append(i)
                cols.append(short_index[kept])
                vals.append(p)
        Q = {a: sp.csr_array((v, (r, cc)), shape=(len(states), len(shorter)))
             for a, (r, cc, v) in moves.items()}
        b_rows, b_cols, b_vals = [], [], []
        for d, di in short_index.items():
            for code, q in delivery:
                b_rows.append(di)
                b_cols.append(index[d + (code,)])
                b_vals.append(float(q))
        B = sp.csr_array((b_vals, (b_rows, b_cols)), shape=(len(shorter), len(states)))
        start = np.zeros(len(states))
        empty_slots = n - fs.start_baubles
        for combo in itertools.product(delivery, repeat=fs.start_baubles):
            s = (0,) * empty_slots + tuple(code for code, _ in combo)
            start[index[s]] += float(np.prod([float(q) for _, q in combo]))
        return {"reward": reward, "Q": Q, "B": B, "start": start, "states": states}

    @cached_property
    def _free_values(self) -> tuple[np.ndarray, float]:
        """``(V[m] @ start for m = 0..M, error estimate)`` by Gauss-Seidel sweeps."""
        f = self._free
        M = self.game.conveyor.free_spins.max_spins_left
        r, Q, B = f["reward"], f["Q"], f["B"]
        V = np.zeros((M + 1, len(r)))
        U = np.zeros((M + 1, B.shape[0]))
        last = prev = None
        for _ in range(100_000):
            change = 0.0
            for m in range(1, M + 1):
                new = r.copy()
                for a, Qa in Q.items():
                    new += Qa @ U[min(m - 1 + a, M)]
                change = max(change, float(np.max(np.abs(new - V[m]))))
                V[m] = new
                U[m] = B @ new
            prev, last = last, change
            scale = max(float(V.max()), 1e-300)
            if change <= TOLERANCE * scale:
                break
        rho = 0.0 if not prev else min(last / prev, 0.999)
        error = last * rho / (1 - rho) + 1e-13 * float(V.max())
        return V @ f["start"], error

    def free_spin_value(self, spins: int) -> float:
        """Expected total win (total bets) of ``spins`` free spins from the start conveyor."""
        M = self.game.conveyor.free_spins.max_spins_left
        return float(self._free_values[0][min(spins, M)])

    @property
    def free_spin_error(self) -> float:
        """Error estimate of :meth:`free_spin_value` (0 when no bauble awards spins)."""
        if not any(v for e in self._effects for v, _ in e.spins):
            return 0.0
        return self._free_values[1]


def fs_consume(conveyor) -> bool:
    """Whether a free-spin bauble that activates is removed (the same key as the base)."""
    return conveyor.consume_on_activation


def _extend(law: dict, options) -> dict:
    out: dict = {}
    for s, p in law.items():
        for k, q in options:
            if q:
                t = s + (k,)
                out[t] = out.get(t, 0) + p * q
    return out


FEATURE = Feature(
    name="conveyor",
    kind=Kind.OWNER,
    title="Bauble conveyor",
    present=lambda game: game.conveyor is not None,
    build=ConveyorFeature,
    result=lambda composition: composition.stationary["conveyor"],
    json="slotmath.report.conveyor:json_section",
    tables="slotmath.report.conveyor:tables",
    summary="slotmath.report.conveyor:summary",
    text="slotmath.report.conveyor:conveyor_text",
    panel="slotmath.widgets.conveyor_panel:feature_panel",
    charts="slotmath.plot.conveyor:charts",
    simulator="slotmath.simulate.conveyor:simulate_conveyor",
    round_simulator="slotmath.simulate.conveyor:simulate_rounds",
    plays=("pays", "conveyor"),
)
