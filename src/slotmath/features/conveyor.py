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

The round's law and the PAR figures
-----------------------------------
A paid round from state ``s`` wins ``W = X + F_N``: ``X`` the paid spin's own pay (lines with
the random wilds and their spreads, plus coins), ``N`` the spins its baubles award, ``F_N``
what those free spins pay (their own conveyor: independent of ``X`` given ``N``).

* ``X`` and ``N`` (:class:`ConveyorSpinLaw`, exact). Each reel's wild has an *option*: none,
  a wild that does not spread, or a wild on row ``r`` that spreads. Given every reel's
  option, the strips are independent again: :class:`~slotmath.exact.random_wilds.WildSpinLaw`
  runs the full-cycle engine once per spread pattern (1024 for 5 x 3) for the exact line law
  of every option pattern. What the wilds do beyond the lines depends only on the bauble above
  each reel: its spread chance and its still outcome (coins, spins; a surprise's draw), so
  the joint law is a sum over option patterns and coin totals of the pattern's line law shifted
  by the coins, weighted by :func:`_option_mixture` (the conveyor law slot by slot, exact;
  independent slots, the stationary law when baubles stay, slot law by slot law).
* ``F_n``: its mean, second moment and ``P(F_n = 0)`` (:class:`FreeSpinMoments`, numerical)
  on the free-spin chain with every bauble kind apart (a coin bauble keeps its value while
  it moves, which the second moment sees): per conveyor state, the spin's moments by a
  contraction over option patterns (:func:`_spin_tensor`), then the same sweeps. The law of
  ``F_n`` itself is **not computed**: on Jingle Spin its chain has 32,768 conveyor states x 50
  spins-left levels and would need a solve per Fourier frequency (tens of thousands).
* :class:`ConveyorRound`: ``E[W]``, ``E[W^2]``, ``P(W > 0)`` from those (exact when no bauble
  awards spins, with the free spins' error otherwise), SD, volatility index, the top award of
  the paid spin, win sizes (exact; rounds that award free spins are one row), and the exact
  law of ``W`` when no bauble awards spins.
* Consecutive rounds share the conveyor. :meth:`ConveyorFigures.round` adds the covariances
  ``gamma_k`` of rounds ``k`` apart (:func:`slotmath.markov.persistent.lag_covariances`; zero
  from ``k = n`` on: every slot has been refilled), so that the variance of the RTP measured
  over ``N`` consecutive rounds, and its confidence intervals, are those of the chain
  (:meth:`ConveyorRound.confidence_interval`).

Independent checks: ``tests/conveyor_brute.py`` (every stop, wild placement and surprise draw;
dense solves) and a seeded simulation of consecutive spins (``tests/test_conveyor_round.py``).
"""

from __future__ import annotations

import itertools
import math
import weakref
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from slotmath.exact.distribution import WinDistribution
from slotmath.exact.random_wilds import WildLines, WildSpinLaw
from slotmath.features.base import Feature, Kind
from slotmath.markov.persistent import (
    AdvantagePlay,
    PersistentChain,
    lag_covariances,
    mean_variance,
)
from slotmath.model.game import Game
from slotmath.model.persistent import Bauble
from slotmath.stats.par import (
    DEFAULT_EDGES,
    DEFAULT_SPINS,
    ConfidenceInterval,
    ConfidenceRow,
    TopAward,
    WinSizeRow,
    normal_quantile,
)

__all__ = ["FEATURE", "BaubleFreeSpins", "CoinWin", "ConveyorFeature", "ConveyorFigures",
           "ConveyorRound", "ConveyorSpinLaw", "FreeSpinMoments", "RandomWildLines",
           "SpreadingWild", "StatePart", "shared_feature"]

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

    # -- the round's law and the figures of a PAR sheet ----------------------------------------
    @cached_property
    def round(self) -> ConveyorRound:
        """The paid round in the stationary law: its exact spin law, the free spins'
        moments and the covariances of consecutive rounds (lags 1..n; rounds more than n
        apart are independent: every slot has been refilled since)."""
        feature = self.feature
        law = dict(zip(self.states, self.probability))
        spin = feature.spin_law(law)
        partial = ConveyorRound(spin, feature.free_spin_moments)
        covariances, error = self._covariances(float(partial.mean))
        return ConveyorRound(spin, feature.free_spin_moments, covariances, error)

    def _covariances(self, mean: float) -> tuple[np.ndarray, float]:
        """``gamma_k``, k = 1..n + 1 (:func:`slotmath.markov.persistent.lag_covariances`)
        over every code state (slot 1 most significant), and their error bound from the
        free spins' mean error ``d`` (each ``r(s)`` within ``d``: ``|pi h|`` moves by at most
        ``d``, ``P^k r - mu`` by ``2 d``)."""
        from scipy.sparse.linalg import LinearOperator

        feature = self.feature
        K, n = len(feature.kinds) + 1, feature.n
        reward, won = feature.round_means()
        moves = feature._base_tensor["p"].sum(axis=2)  # P(activation mask A | C)
        pi = np.zeros(K**n)
        for s, p in zip(self.states, self.probability):
            pi[sum(k * K ** (n - 1 - j) for j, k in enumerate(s))] = float(p)
        q = np.zeros(K)
        for c, p in feature._base_delivery:
            q[c] += float(p)
        where = feature._next_index(won.shape[1] > 1)

        def step(v):  # (P v)(C) = sum_A P(A | C) sum_b q_b v[D(C, A) K + b]
            return (moves * (v.reshape(-1, K) @ q)[where]).sum(axis=1)

        transition = LinearOperator((K**n, K**n), matvec=step, dtype=float)
        kept = np.zeros(K ** (n - 1))
        np.add.at(kept, where.ravel(), (pi[:, None] * won).ravel())
        weighted = np.outer(kept, q).ravel()  # (pi h)(s'), s' = the kept slots + a delivery
        centre = float(pi @ reward)
        gammas = lag_covariances(transition, reward, weighted, centre, n + 1)
        f = feature.free_spin_moments
        delta = 0.0 if f is None else f.mean_error
        spread = float(np.max(np.abs(reward[pi > 0] - centre)))
        error = len(gammas) * delta * (2 * float(np.abs(weighted).sum()) + spread + 2 * delta)
        return gammas, error + 1e-15 * len(gammas)

    @property
    def round_law(self) -> WinDistribution | None:
        """The exact law of a paid round's win (None with bauble free spins)."""
        return self.round.round_law

    @property
    def distribution(self) -> WinDistribution | None:
        """The round's win law as the analysis reads it (:attr:`round_law`)."""
        return self.round_law

    @property
    def hit_frequency(self) -> Fraction | float:
        """P(a paid round wins), stationary."""
        return self.round.hit_frequency

    @property
    def base_hit_frequency(self) -> Fraction:
        """P(the paid spin itself pays: lines, spreads, coins), stationary."""
        return self.round.spin.hit_probability

    @property
    def variance(self) -> Fraction | float:
        """The variance of one paid round's win (total bets squared), stationary."""
        return self.round.variance

    @property
    def std(self) -> float:
        return self.round.std

    def volatility_index(self, confidence: float = 0.90) -> float:
        return self.round.volatility_index(confidence)

    @property
    def top_award(self) -> TopAward:
        """The paid spin's largest pay and its probability (:attr:`ConveyorRound.top_award`)."""
        return self.round.top_award

    @property
    def win_sizes(self) -> tuple[WinSizeRow, ...]:
        """The win-size table at the default edges (:meth:`ConveyorRound.win_sizes`)."""
        return self.round.win_sizes()

    def confidence_table(self, spins: Sequence[int] = DEFAULT_SPINS
                         ) -> tuple[ConfidenceRow, ...]:
        """RTP intervals over consecutive rounds (:meth:`ConveyorRound.confidence_table`)."""
        return self.round.confidence_table(spins)

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
    """The stationary feature of a bauble conveyor at bet ``level``.

    Its figures are in total bets, and depend on the level only through the pay rules (the
    coin wins are coins at level 1 per level-1 bet: they scale like the pays), so bet levels
    with the same :meth:`~slotmath.model.game.Game.pay_level` have the same figures; an
    analysis builds one feature for them (:func:`shared_feature`).
    """

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
        """The long-run figures (``events_round`` is not used: the feature owns the round),
        computed once per feature."""
        return self._figures

    @cached_property
    def _figures(self) -> ConveyorFigures:
        law = self.chain.stationary_exact()
        states = tuple(sorted(law))
        probability = tuple(law[s] for s in states)
        by_state = {p.component: tuple(p.mean(s) for s in states) for p in self.parts}
        return ConveyorFigures(self, states, probability, by_state, self.free_spin_error)

    # -- the round law (per state and stationary) -----------------------------------------------
    @cached_property
    def outcomes(self) -> tuple[_Outcomes, ...]:
        """What a wild landing below each code does (0: an empty slot, then :attr:`kinds`)."""
        surprise = self.game.conveyor.surprise_law()
        bet = self.game.bet
        return (_outcomes(None, surprise, bet),) + tuple(
            _outcomes(b, surprise, bet) for b in self.kinds)

    @cached_property
    def base_spin_table(self) -> WildSpinLaw:
        """The exact line law of a paid spin by wild option pattern."""
        return WildSpinLaw(self.game, "base", self.level)

    @cached_property
    def free_spin_table(self) -> WildSpinLaw:
        """The same for a free spin (the base one when the free spins use the base reels)."""
        reels = self.game.conveyor.free_spins.reels
        return self.base_spin_table if reels == "base" else WildSpinLaw(
            self.game, reels, self.level)

    @cached_property
    def round_unit(self) -> int:
        """Round credits per line credit: the smallest scale that makes every coin win a
        whole number of credits."""
        cpb = self.base_spin_table.credits_per_bet
        return math.lcm(1, *((c * cpb).denominator for o in self.outcomes
                             for c, _, _ in o.still))

    def _coin_credits(self, coin: Fraction) -> int:
        value = coin * self.base_spin_table.credits_per_bet * self.round_unit
        assert value.denominator == 1
        return int(value)

    def spin_law(self, law) -> ConveyorSpinLaw:
        """The exact law of a paid spin's own pay and the spins it awards, from one state
        (a tuple of codes) or a law of states (``{state: Fraction}``).

        Examples
        --------
        >>> import slotmath
        >>> f = ConveyorFeature(slotmath.load_game("tests/data/conveyor_tiny.toml"))
        >>> [b.label for b in f.kinds][:2]
        ['spreading_wild', 'free_spins:1']
        >>> law = f.spin_law((0, 0, 2))   # a free-spins bauble above reel 3
        >>> law.spins, law.spins_probability(1)   # P(wild on reel 3) = 3/7
        ((0, 1), Fraction(3, 7))
        """
        law = {tuple(law): Fraction(1)} if not isinstance(law, dict) else law
        mixture, denominator = _option_mixture(law, self.outcomes, self.game.rows,
                                               self._coin_credits)
        return ConveyorSpinLaw(self.base_spin_table, mixture, denominator, self.round_unit)

    def state_round(self, state: tuple[int, ...]) -> ConveyorRound:
        """The round of one paid spin from ``state``: its figures (mean, SD, hit frequency,
        top award, win sizes), the free spins it may award included.

        Examples
        --------
        >>> import slotmath
        >>> f = ConveyorFeature(slotmath.load_game("tests/data/conveyor_tiny.toml"))
        >>> r = f.state_round((0, 0, 0))  # nothing to activate: the lines with wilds only
        >>> r.spin.spins, r.spin.hit_probability, round(r.hit_frequency, 12)
        ((0,), Fraction(6821, 8960), 0.761272321429)
        """
        return ConveyorRound(self.spin_law(state), self.free_spin_moments)

    @cached_property
    def awards_spins(self) -> bool:
        """Whether a bauble the base wheel delivers (a surprise's draw included) can award
        free spins."""
        return any(v and p for code, q in self._base_delivery if q
                   for _, v, p in self.outcomes[code].still)

    def _next_index(self, keep_activation: bool) -> np.ndarray:
        """``D[C, A]``: the slots kept after a spin from code state ``C`` that activated the
        slots of mask ``A`` (one bit per slot 2..n, slot 2 first), moved one to the left, as
        a code over n - 1 slots."""
        K, n = len(self.kinds) + 1, self.n
        codes = np.arange(K**n)
        digits = [(codes // K ** (n - 1 - j)) % K for j in range(n)]
        masks = np.arange(2 ** (n - 1)) if keep_activation else np.zeros(1, np.int64)
        out = np.zeros((K**n, len(masks)), dtype=np.int64)
        for j in range(1, n):
            bit = (masks >> (n - 1 - j)) & 1 if keep_activation else np.zeros(1, np.int64)
            kept = digits[j][:, None] * (1 - bit[None, :])
            out = out * K + kept
        return out

    @cached_property
    def free_spin_moments(self) -> FreeSpinMoments | None:
        """Mean, second moment and P(win = 0) of ``n`` free spins for every ``n`` (None when
        no bauble awards spins): chains over (spins left, free-spin conveyor), every bauble
        kind apart (a coin bauble keeps its value while it moves: the second moment needs
        it), solved by Gauss-Seidel sweeps like :attr:`free_spin_value`."""
        if not self.awards_spins:
            return None
        c = self.game.conveyor
        fs = c.free_spins
        consume = c.consume_on_activation
        K = len(self.kinds) + 1
        table = self.free_spin_table
        t = _spin_tensor(table.moments, self.outcomes, self.game.rows, table.credits_per_bet,
                         consume)
        codes = {b: i + 1 for i, b in enumerate(self.kinds)}
        q = np.zeros(K)
        for code, p in self._delivery(fs.wheel, fs.empty_weight, codes):
            q[code] += float(p)
        chain = _FreeChain(self._next_index(consume), q, not consume)
        M, unit = fs.max_spins_left, t["unit"]

        def per_spins(a):  # (C, A, v) -> v first; one column per C when baubles stay
            a = np.moveaxis(a, 2, 0)
            return np.ascontiguousarray(a[:, :, 0] if not consume else a)

        p, e1 = per_spins(t["p"]), per_spins(t["e1"])
        v1, err1 = _sweep(M, unit, t["e1"].sum(axis=(1, 2)), p, chain, 0.0)
        u1 = [chain.next(v) for v in v1]
        cross = np.zeros_like(v1)
        for m in range(1, M + 1):
            cross[m] = 2 * chain(e1, [u1[min(m - 1 + v * unit, M)] for v in range(len(e1))])
        v2, err2 = _sweep(M, unit, t["e2"].sum(axis=(1, 2)), p, chain, 0.0, cross)
        zero, errz = _sweep(M, unit, np.zeros(K**self.n), per_spins(t["z"]), chain, 1.0)
        start = np.zeros(K**self.n)
        empty = self.n - fs.start_baubles
        delivery = [(code, float(p)) for code, p in enumerate(q) if p]
        for combo in itertools.product(delivery, repeat=fs.start_baubles):
            index = 0
            for code in (0,) * empty + tuple(code for code, _ in combo):
                index = index * K + code
            start[index] += float(np.prod([p for _, p in combo]))
        # an error d in the means moves the second moments' source 2 E[w U] by at most
        # 2 d E[w] per spin, so by 2 d max(V) over the feature
        return FreeSpinMoments(v1 @ start, v2 @ start, zero @ start, err1,
                               err2 + 2 * err1 * float(v1.max()), errz)

    @cached_property
    def _base_tensor(self) -> dict:
        table = self.base_spin_table
        return _spin_tensor(table.moments, self.outcomes, self.game.rows,
                            table.credits_per_bet, self.game.conveyor.consume_on_activation)

    def round_means(self) -> tuple[np.ndarray, np.ndarray]:
        """``(r, w)`` over every code state ``C`` (slot 1 most significant): ``r[C]`` the
        expected round win from ``C`` and ``w[C, A]`` its part on the spins that activate
        the slots of mask ``A`` (a single column when activated baubles stay), total bets;
        numerical (float64; the free spins' error)."""
        t = self._base_tensor
        won = t["e1"].sum(axis=2)
        if self.free_spin_moments is not None:
            means = np.array([self.free_spin_moments.of(v * t["unit"])[0]
                              for v in range(t["p"].shape[2])])
            won = won + t["p"] @ means
        return won.sum(axis=1), won

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
        import scipy.sparse as sp  # (here: the other games never import scipy)

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


# -- the round law: what a paid spin pays, its spread and its tails ------------------------------

@dataclass(frozen=True)
class _Outcomes:
    """What a regular wild landing below one kind of bauble (or an empty slot) does: it
    spreads with probability ``spread``, else one of ``still`` (coin win in total bets,
    spins awarded, probability), whose probabilities add up to ``1 - spread``."""

    spread: Fraction
    still: tuple[tuple[Fraction, int, Fraction], ...]


def _outcomes(bauble: Bauble | None, surprise: dict[Bauble, Fraction], bet: int) -> _Outcomes:
    def plain(b: Bauble) -> tuple[Fraction, int]:
        return (Fraction(b.value, bet) if b.feature == "coin_win" else Fraction(0),
                b.value if b.feature == "free_spins" else 0)

    if bauble is None:
        return _Outcomes(Fraction(0), ((Fraction(0), 0, Fraction(1)),))
    if bauble.feature == "spreading_wild":
        return _Outcomes(Fraction(1), ())
    if bauble.feature != "surprise":
        return _Outcomes(Fraction(0), (plain(bauble) + (Fraction(1),),))
    spread, still = Fraction(0), {}
    for b, p in surprise.items():
        if b.feature == "spreading_wild":
            spread += p
        else:
            still[plain(b)] = still.get(plain(b), Fraction(0)) + p
    return _Outcomes(spread, tuple((c, v, p) for (c, v), p in sorted(still.items()) if p))


def _option_mixture(law: dict, outcomes, rows, coin_credits) -> tuple[dict, int]:
    """``({(options, coin credits, spins): weight}, denominator)``: the exact law of what each
    reel's wild does, mixed over the conveyor states of ``law`` (``{state: Fraction}``).

    Option of reel ``j``: 0 no wild, 1 a wild that does not spread (its bauble's still
    outcome: coins and spins), ``2 + r`` a wild on row ``r`` that spreads. The weights carry
    the spread probabilities only (the wild rows' are in :class:`WildSpinLaw`'s weights).
    Slot by slot, each state's slot is replaced by its reel's option (exact integers)."""
    probabilities = [p for o in outcomes for p in (o.spread, *(x[2] for x in o.still))]
    d_opt = math.lcm(*(p.denominator for p in probabilities))
    options = []
    for j, n_rows in enumerate(rows):
        per_code = []
        for o in outcomes:
            opts = [(0, 0, 0, d_opt)]
            opts += [(1, coin_credits(c), v, int(p * d_opt)) for c, v, p in o.still]
            if o.spread:
                opts += [(2 + r, 0, 0, int(o.spread * d_opt)) for r in range(n_rows)]
            per_code.append(opts)
        options.append(per_code)
    marginals = _product_marginals(law, len(rows))
    if marginals is not None:  # independent slots: one slot's law at a time
        d_law = math.prod(math.lcm(*(p.denominator for p in m.values())) for m in marginals)
        entries = {((), 0, 0): 1}
        for j, m in enumerate(marginals):
            d = math.lcm(*(p.denominator for p in m.values()))
            slot = {}
            for k, p in m.items():
                for o, dc, dv, q in options[j][k]:
                    slot[o, dc, dv] = slot.get((o, dc, dv), 0) + int(p * d) * q
            nxt: dict = {}
            for (done, coins, spins), w in entries.items():
                for (o, dc, dv), q in slot.items():
                    key = (done + (o,), coins + dc, spins + dv)
                    nxt[key] = nxt.get(key, 0) + w * q
            entries = nxt
        return entries, d_law * d_opt ** len(rows)
    d_law = math.lcm(*(p.denominator for p in law.values()))
    entries = {((), 0, 0, s): int(p * d_law) for s, p in law.items() if p}
    for j in range(len(rows)):
        nxt = {}
        for (done, coins, spins, rest), w in entries.items():
            for o, dc, dv, q in options[j][rest[0]]:
                key = (done + (o,), coins + dc, spins + dv, rest[1:])
                nxt[key] = nxt.get(key, 0) + w * q
        entries = nxt
    return ({k[:3]: w for k, w in entries.items()}, d_law * d_opt ** len(rows))


def _product_marginals(law: dict, n: int) -> list[dict] | None:
    """Each slot's law when the slots of ``law`` are independent (its support the product of
    theirs, each probability the product of theirs, exactly), else None. In integers over
    the law's common denominator ``d``: ``pi(s) d^n == prod_j m_j(s_j)`` with ``m_j`` the
    marginals times ``d``."""
    d = math.lcm(*(p.denominator for p in law.values()))
    ints = {s: p.numerator * (d // p.denominator) for s, p in law.items() if p}
    marginals: list[dict] = [{} for _ in range(n)]
    for s, w in ints.items():
        for j, k in enumerate(s):
            marginals[j][k] = marginals[j].get(k, 0) + w
    if math.prod(len(m) for m in marginals) != len(ints):
        return None
    scale = d ** (n - 1)
    for s, w in ints.items():
        if w * scale != math.prod(marginals[j][k] for j, k in enumerate(s)):
            return None
    return [{k: Fraction(w, d) for k, w in m.items()} for m in marginals]


def _limb_bits(x: np.ndarray, count: int) -> int:
    """Bits per limb of a weight so that ``count`` products ``x * limb`` add up in int64."""
    top = int(x.max(initial=0))
    return max(62 - top.bit_length() - max(count, 1).bit_length(), 1)


def _int_dot(x: np.ndarray, w: np.ndarray) -> int:
    """``sum(x * w)`` exactly, as a Python int, for non-negative int64 arrays (the weights
    split into int64 limbs small enough that no partial sum overflows).

    Examples
    --------
    >>> _int_dot(np.array([3, 2**40]), np.array([2**61, 5])) == 3 * 2**61 + 5 * 2**40
    True
    """
    bits = _limb_bits(x, len(x))
    mask, total, shift = (1 << bits) - 1, 0, 0
    w = w.copy()
    while w.any():
        total += int((x * (w & mask)).sum()) << shift
        w >>= bits
        shift += bits
    return total


class _CumulativeDot:
    """``upto(j) = sum(x[:j] * w[:j])`` exactly for any ``j``: cumulative sums of
    ``x * limb`` per int64 limb of the weights."""

    def __init__(self, x: np.ndarray, w: np.ndarray):
        self.bits = _limb_bits(x, len(x))
        mask = (1 << self.bits) - 1
        limbs = []
        w = w.copy()
        while w.any():
            limbs.append(np.cumsum(x * (w & mask)))
            w >>= self.bits
        self.limbs = limbs

    def upto(self, j: int) -> int:
        if not j:
            return 0
        return sum(int(c[j - 1]) << (self.bits * i) for i, c in enumerate(self.limbs))


@dataclass(frozen=True, eq=False)
class ConveyorSpinLaw:
    """The exact law of a paid spin's own pay ``X`` (lines with the random wilds and their
    spreads, plus the coin wins) jointly with the spins ``N`` its baubles award, for a law of
    the conveyor state (one state, or the stationary law).

    ``X`` in ``credits_per_bet`` credits per total bet. Built from the per-pattern line
    laws of :class:`~slotmath.exact.random_wilds.WildSpinLaw` and the option mixture of
    :func:`_option_mixture`: ``P(X = x, N = v) = sum over (options o, coins c) of
    mixture(o, c, v) T_o((x - c) / unit) / total``. Every figure is an exact Fraction.

    Examples
    --------
    >>> import slotmath
    >>> f = ConveyorFeature(slotmath.load_game("tests/data/conveyor_tiny.toml"))
    >>> law = f.spin_law((4, 0, 0))   # a coin bauble (6 coins, 2 bets) above reel 1
    >>> law.spins, law.credits_per_bet
    ((0,), 3)
    >>> law.mean - f.spin_law((0, 0, 0)).mean == f.hits[0] * 2   # P(wild on reel 1) x 2
    True
    >>> law.distribution().hit_probability == law.hit_probability
    True
    """

    table: object  # WildSpinLaw
    mixture: dict  # (options, coin credits, spins) -> int weight
    mixture_denominator: int
    unit: int  # round credits per line credit

    @property
    def credits_per_bet(self) -> int:
        return self.table.credits_per_bet * self.unit

    @property
    def total(self) -> int:
        """The common denominator of every weight."""
        return self.mixture_denominator * self.table.denominator

    @cached_property
    def _sums(self) -> dict:
        """Per option pattern: its weight, first and second credit sums (line credits) and
        its weight at credits 0 (Python ints)."""
        out = {}
        for o in {k[0] for k in self.mixture}:
            credits, weights = self.table.law(o)
            zero = int(weights[0]) if len(credits) and credits[0] == 0 else 0
            out[o] = (int(weights.sum()), _int_dot(credits, weights),
                      _int_dot(credits * credits, weights), zero)
        return out

    @cached_property
    def spins(self) -> tuple[int, ...]:
        """The spin counts ``N`` can take, increasing."""
        return tuple(sorted({v for (_, _, v), w in self.mixture.items() if w}))

    def _fraction(self, value: int, scale: int = 1) -> Fraction:
        return Fraction(value, self.total * scale)

    @cached_property
    def _by_spins(self) -> dict[int, tuple[int, int, int, int]]:
        """``{v: (weight, sum of X, sum of X^2, weight of X = 0)}`` with ``N = v`` (round
        credits; over :attr:`total`)."""
        k = self.unit
        out: dict[int, list[int]] = {}
        for (o, c, v), w in self.mixture.items():
            s0, s1, s2, zero = self._sums[o]
            acc = out.setdefault(v, [0, 0, 0, 0])
            acc[0] += w * s0
            acc[1] += w * (k * s1 + c * s0)
            acc[2] += w * (k * k * s2 + 2 * k * c * s1 + c * c * s0)
            acc[3] += w * zero if c == 0 else 0
        return {v: tuple(a) for v, a in out.items()}

    def spins_probability(self, spins: int) -> Fraction:
        """P(N = spins)."""
        return self._fraction(self._by_spins.get(spins, (0,))[0])

    def zero_probability(self, spins: int | None = None) -> Fraction:
        """P(X = 0) (with ``spins``: P(X = 0, N = spins))."""
        items = self._by_spins.items() if spins is None else [
            (spins, self._by_spins.get(spins, (0, 0, 0, 0)))]
        return self._fraction(sum(a[3] for _, a in items))

    def moment(self, order: int, spins: int | None = None) -> Fraction:
        """``E[X^order]`` in total bets (with ``spins``: ``E[X^order 1{N = spins}]``),
        ``order`` 0, 1 or 2."""
        items = self._by_spins.values() if spins is None else [
            self._by_spins.get(spins, (0, 0, 0, 0))]
        return self._fraction(sum(a[order] for a in items), self.credits_per_bet ** order)

    @property
    def mean(self) -> Fraction:
        return self.moment(1)

    @property
    def second_moment(self) -> Fraction:
        return self.moment(2)

    @property
    def variance(self) -> Fraction:
        return self.second_moment - self.mean ** 2

    @property
    def hit_probability(self) -> Fraction:
        """P(X > 0)."""
        return 1 - self.zero_probability()

    @cached_property
    def _cumulative(self) -> dict:
        """Per option pattern: its credits, cumulative weights and cumulative credit sums
        (:class:`_CumulativeDot`)."""
        out = {}
        for o in self._sums:
            credits, weights = self.table.law(o)
            out[o] = (credits, np.cumsum(weights), _CumulativeDot(credits, weights))
        return out

    def bands(self, edges: Sequence[int], spins: int | None = 0) -> list[tuple[int, int]]:
        """``[(weight, credit sum)]`` over :attr:`total` of ``X`` in the bands ``x = 0``,
        ``edges[i] < x <= edges[i + 1]`` (round credits) and ``x > edges[-1]``, for
        ``N = spins`` (None: every ``N``)."""
        k = self.unit
        cuts = [0, *edges]  # weight and credit sum of X <= cut, per cut
        at = [[0, 0] for _ in cuts]
        whole = [0, 0]
        for (o, c, v), w in self.mixture.items():
            if spins is not None and v != spins:
                continue
            credits, cum_w, cum_x = self._cumulative[o]
            s0, s1 = self._sums[o][:2]
            whole[0] += w * s0
            whole[1] += w * (k * s1 + c * s0)
            for i, cut in enumerate(cuts):
                if cut < c:
                    continue
                j = int(np.searchsorted(credits, (cut - c) // k, side="right"))
                if j:
                    at[i][0] += w * int(cum_w[j - 1])
                    at[i][1] += w * (k * cum_x.upto(j) + c * int(cum_w[j - 1]))
        points = [*at, whole]
        return [(b[0] - a[0], b[1] - a[1]) for a, b in zip([[0, 0], *points[:-1]], points)]

    @cached_property
    def top(self) -> tuple[int, Fraction]:
        """``(credits, probability)`` of the largest ``X``."""
        k = self.unit
        best, weight = -1, 0
        for (o, c, _), w in self.mixture.items():
            credits, weights = self.table.law(o)
            if not w or not len(credits):
                continue
            x = int(credits[-1]) * k + c
            if x > best:
                best, weight = x, 0
            if x == best:
                weight += w * int(weights[-1])
        return best, self._fraction(weight)

    def distribution(self, spins: int | None = None) -> WinDistribution:
        """The law of ``X`` (with ``spins``: of ``X`` on ``N = spins``, normalised), exact.
        Built term by term in Python integers (slow for a 5-reel stationary law: the figures
        of this class do not need it)."""
        k = self.unit
        out: dict[int, int] = {}
        for (o, c, v), w in self.mixture.items():
            if not w or (spins is not None and v != spins):
                continue
            credits, weights = self.table.law(o)
            for x, t in zip((credits * k + c).tolist(), weights.tolist()):
                out[x] = out.get(x, 0) + w * t
        if not out:
            raise ValueError(f"N = {spins} spins has probability 0")
        return WinDistribution.from_mapping(out, self.credits_per_bet)


def _spin_tensor(moments: dict, outcomes, rows, credits_per_bet: int,
                 keep_activation: bool) -> dict:
    """For every conveyor state at once (codes base ``K``, slot 1 most significant): the
    per-spin quantities a chain over states needs, in total bets (float64):

    ``p[C, A, v]`` P(the spin awards ``v * unit`` spins and activates the slots of mask
    ``A``), ``e1``/``e2`` ``E[w 1{...}]``/``E[w^2 1{...}]`` with ``w`` the spin's pay (lines,
    spreads, coins), ``z`` ``P(w = 0, ...)``; ``A`` has one bit per slot 2..n (slot 1 leaves
    anyway; without ``keep_activation`` it has a single value).

    A contraction slot by slot of the line moments over option patterns (``moments`` of
    :class:`WildSpinLaw`) with each code's outcomes, in the ring of (spins polynomial, first
    two coin moments): ``(l0, l1, l2) x (1, c, c^2) = (l0, l1 + c l0, l2 + 2 c l1 + c^2 l0)``.
    """
    n, K = len(rows), len(outcomes)
    spins = [v for o in outcomes for _, v, _ in o.still if v]
    unit = math.gcd(*spins) if spins else 1
    V = 1 + sum(max([0] + [v // unit for o in outcomes for _, v, _ in o.still]) for _ in rows)
    shape = tuple(2 + r for r in rows)
    R = int(np.prod(shape[1:], dtype=np.int64))
    X = np.zeros((1, 1, shape[0], R, V, 3))
    X[0, 0, :, :, 0, 0] = moments["p"].reshape(shape[0], R)
    X[0, 0, :, :, 0, 1] = moments["mean"].reshape(shape[0], R) / credits_per_bet
    X[0, 0, :, :, 0, 2] = moments["square"].reshape(shape[0], R) / credits_per_bet**2
    Z = np.zeros((1, 1, shape[0], R, V))
    Z[0, 0, :, :, 0] = moments["zero"].reshape(shape[0], R)
    for j in range(n):
        P, A = X.shape[0], X.shape[1]
        R = X.shape[3]
        grow = 2 if keep_activation and j else 1
        nxt = np.zeros((P, K, A * grow, R, V, 3))
        nxt_z = np.zeros((P, K, A * grow, R, V))
        for k, o in enumerate(outcomes):
            for opt in range(shape[j]):
                if opt == 0:
                    effects = [(0.0, 0, 1.0)]
                elif opt == 1:
                    effects = [(float(c), v // unit, float(p)) for c, v, p in o.still]
                else:
                    effects = [(0.0, 0, float(o.spread))] if o.spread else []
                bit = 1 if grow == 2 and k and opt else 0
                target = slice(bit, None, grow) if grow == 2 else slice(None)
                src, src_z = X[:, :, opt], Z[:, :, opt]
                for c, dv, p in effects:
                    if not p:
                        continue
                    y0 = src[..., 0]
                    y1 = src[..., 1] + c * y0
                    y2 = src[..., 2] + 2 * c * src[..., 1] + c * c * y0
                    block = nxt[:, k, target, :, dv:]
                    block[..., 0] += p * y0[..., : V - dv]
                    block[..., 1] += p * y1[..., : V - dv]
                    block[..., 2] += p * y2[..., : V - dv]
                    if c == 0:
                        nxt_z[:, k, target, :, dv:] += p * src_z[..., : V - dv]
        rest = shape[j + 2:] if j + 1 < n else ()
        head = shape[j + 1] if j + 1 < n else 1
        X = nxt.reshape(P * K, A * grow, head, int(np.prod(rest, dtype=np.int64)), V, 3)
        Z = nxt_z.reshape(P * K, A * grow, head, int(np.prod(rest, dtype=np.int64)), V)
    X, Z = X[:, :, 0, 0], Z[:, :, 0, 0]
    return {"p": X[..., 0], "e1": X[..., 1], "e2": X[..., 2], "z": Z, "unit": unit}


@dataclass(frozen=True)
class FreeSpinMoments:
    """What ``n`` bauble free spins pay, for ``n = 0..max_spins_left``: ``mean[n]``,
    ``second[n]`` (``E[F^2]``), ``zero[n]`` (``P(F = 0)``), in total bets; numerical, each
    with its error estimate (the sweeps' last change times ``rho / (1 - rho)``, plus
    roundoff)."""

    mean: np.ndarray
    second: np.ndarray
    zero: np.ndarray
    mean_error: float
    second_error: float
    zero_error: float

    def of(self, spins: int) -> tuple[float, float, float]:
        """``(mean, second moment, P(F = 0))`` of ``spins`` free spins (capped).

        Examples
        --------
        >>> import slotmath
        >>> f = ConveyorFeature(slotmath.load_game("tests/data/conveyor_tiny.toml"))
        >>> mean, second, zero = f.free_spin_moments.of(2)
        >>> round(mean, 6) == round(f.free_spin_value(2), 6), second > mean**2, 0 < zero < 1
        (True, True, True)
        """
        m = min(spins, len(self.mean) - 1)
        return float(self.mean[m]), float(self.second[m]), float(self.zero[m])


def _sweep(M: int, unit: int, base: np.ndarray, p: np.ndarray, step, boundary: float,
           extra: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """Gauss-Seidel sweeps in increasing ``m`` of ``V_m = base + extra[m] + sum_v
    step(p[v], U_{min(m - 1 + v unit, M)})`` from ``V = 0`` (``V_0 = boundary``), where
    ``U_m = next(V_m)`` is what the next spin reads (:meth:`_FreeChain.next`) and
    ``step(p, [U...])`` the expectation of it over one spin's moves, ``p[i]`` those that
    award the ``i``-th spin count (``U`` of the level each leads to).
    Every coefficient is >= 0, so the sweeps increase to the solution; they stop when one
    changes no value by more than ``TOLERANCE`` (relative). Returns ``V`` over ``m = 0..M`` and
    the error estimate: the last change times ``rho / (1 - rho)``, ``rho`` the ratio of the
    last two changes, plus roundoff."""
    values = np.zeros((M + 1, len(base)))
    values[0] = boundary
    nxt = [step.next(values[0])] + [step.next(values[m]) for m in range(1, M + 1)]
    active = [v for v in range(len(p)) if p[v].any()]
    p = p[active]
    last = prev = None
    scale = 1.0
    for _ in range(100_000):
        change = 0.0
        for m in range(1, M + 1):
            new = base + step(p, [nxt[min(m - 1 + v * unit, M)] for v in active])
            if extra is not None:
                new += extra[m]
            change = max(change, float(np.max(np.abs(new - values[m]))))
            values[m] = new
            nxt[m] = step.next(new)
        prev, last = last, change
        scale = max(float(np.abs(values).max()), 1e-300)
        if change <= TOLERANCE * scale:
            break
    rho = 0.0 if not prev else min(last / prev, 0.999)
    return values, last * rho / (1 - rho) + 1e-13 * scale


class _FreeChain:
    """How the free-spin chain moves from conveyor ``C`` (a code, slot 1 most significant):
    the kept slots ``D(C, A)`` (``where``) then a delivery ``b`` (law ``q``): ``next(V)``
    is ``U[D] = sum_b q_b V[D K + b]`` read at ``D(C, A)``, and ``step(p, us)`` is
    ``sum_i sum_A p[i, C, A] us[i][C, A]``. When activated baubles stay,
    ``D(C) = C mod K^(n-1)`` and ``U`` is used as it stands (no gather)."""

    def __init__(self, where: np.ndarray, q: np.ndarray, shift: bool):
        self.where, self.q, self.shift = where, q, shift
        self.K = len(q)

    def next(self, values: np.ndarray) -> np.ndarray:
        u = values.reshape(-1, self.K) @ self.q
        return u if self.shift else u[self.where]

    def __call__(self, p: np.ndarray, us: list) -> np.ndarray:
        if self.shift:  # p over C = (k_1, D): U[D] for every k_1
            return np.einsum("ikd,id->kd", p.reshape(len(p), self.K, -1), np.stack(us)).ravel()
        return np.einsum("ica,ica->c", p, np.stack(us))


@dataclass(frozen=True, eq=False)
class ConveyorRound:
    """The paid round ``W = X + F_N`` from a law of the conveyor state: the paid spin's own
    pay ``X`` and spins ``N`` (:class:`ConveyorSpinLaw`, exact) and the ``N`` free spins'
    win ``F_N`` (:class:`FreeSpinMoments`, numerical; None when no bauble awards spins).
    ``F_N`` is independent of ``X`` given ``N`` (its own conveyor, its own reels), so

    * ``E[W] = E[X] + sum_n P(N = n) E[F_n]``,
    * ``E[W^2] = E[X^2] + 2 sum_n E[X 1{N = n}] E[F_n] + sum_n P(N = n) E[F_n^2]``,
    * ``P(W = 0) = P(X = 0, N = 0) + sum_{n > 0} P(X = 0, N = n) P(F_n = 0)``.

    ``covariances`` (lags 1..n, stationary law only) are the covariances of the wins of two
    rounds that far apart (:func:`slotmath.markov.persistent.lag_covariances`), for the
    confidence intervals of the RTP measured over consecutive rounds.

    Examples
    --------
    >>> import slotmath
    >>> figures = ConveyorFeature(slotmath.load_game("tests/data/conveyor_tiny.toml")).analyze()
    >>> r = figures.round
    >>> r.exact, round(float(r.mean), 9) == round(figures.rtp, 9)
    (False, True)
    >>> r.top_award.multiple, [w.label for w in r.win_sizes((0, 10))]
    (Fraction(26, 1), ['0', '(0, 10]', '> 10', 'free spins'])
    >>> r.asymptotic_variance > float(r.variance)   # neighbouring rounds move together
    True
    """

    spin: ConveyorSpinLaw
    free: FreeSpinMoments | None
    covariances: np.ndarray | None = None
    covariance_error: float = 0.0

    @property
    def exact(self) -> bool:
        """Whether mean, second moment and hit frequency are exact Fractions (no bauble
        awards free spins)."""
        return self.free is None

    def _free_terms(self, kind: int) -> float:
        total = 0.0
        for v in self.spin.spins:
            if not v:
                continue
            mean, second, zero = self.free.of(v)
            if kind == 1:
                total += float(self.spin.spins_probability(v)) * mean
            elif kind == 2:
                total += (2 * float(self.spin.moment(1, v)) * mean
                          + float(self.spin.spins_probability(v)) * second)
            else:
                total += float(self.spin.zero_probability(v)) * zero
        return total

    @cached_property
    def mean(self) -> Fraction | float:
        """``E[W]``, total bets."""
        if self.exact:
            return self.spin.mean
        return float(self.spin.mean) + self._free_terms(1)

    @cached_property
    def second_moment(self) -> Fraction | float:
        """``E[W^2]``, total bets squared."""
        if self.exact:
            return self.spin.second_moment
        return float(self.spin.second_moment) + self._free_terms(2)

    @cached_property
    def variance(self) -> Fraction | float:
        """The variance of one round's win (total bets squared)."""
        if self.exact:
            return self.second_moment - self.mean**2
        return float(self.second_moment) - float(self.mean) ** 2

    @property
    def std(self) -> float:
        """The standard deviation of one round's win (total bets)."""
        return math.sqrt(float(self.variance))

    @cached_property
    def hit_frequency(self) -> Fraction | float:
        """``P(W > 0)``."""
        if self.exact:
            return self.spin.hit_probability
        return 1.0 - float(self.spin.zero_probability(0)) - self._free_terms(0)

    @cached_property
    def errors(self) -> dict[str, float]:
        """Bounds on the numerical error of ``mean``, ``second_moment``, ``variance`` and
        ``hit_frequency`` (0 for exact figures), from the free spins' errors."""
        if self.exact:
            return {"mean": 0.0, "second_moment": 0.0, "variance": 0.0, "hit_frequency": 0.0}
        f, s = self.free, self.spin
        won = 1 - float(s.spins_probability(0))
        mean = won * f.mean_error + 1e-15
        second = (2 * sum(float(s.moment(1, v)) for v in s.spins if v) * f.mean_error
                  + won * f.second_error + 1e-13)
        hit = float(s.zero_probability()) * f.zero_error + 1e-15
        return {"mean": mean, "second_moment": second,
                "variance": second + 2 * abs(float(self.mean)) * mean + mean**2,
                "hit_frequency": hit}

    def volatility_index(self, confidence: float = 0.90) -> float:
        """``z * SD`` of one round (``z`` the two-sided normal quantile of ``confidence``)."""
        return normal_quantile(confidence) * self.std

    @cached_property
    def top_award(self) -> TopAward:
        """The largest pay of the paid spin itself (lines, spreads and coins) and how often
        it comes. With bauble free spins the round can pay more: the free spins retrigger
        without end, so the round's win has no upper bound."""
        credits, probability = self.spin.top
        one_in = math.inf if not probability else 1 / float(probability)
        return TopAward(credits, Fraction(credits, self.spin.credits_per_bet), probability,
                        one_in)

    def win_sizes(self, edges: Sequence[int | Fraction] = DEFAULT_EDGES
                  ) -> tuple[WinSizeRow, ...]:
        """Probability and RTP share of each band of the round's win, in total bets (bands
        as :func:`slotmath.stats.par.win_size_table`). Rounds without free spins by their
        exact win; with bauble free spins, rounds that award any are one more row,
        ``"free spins"`` (bounds None; numerical RTP share), since the law of what the free
        spins pay is not computed (only its moments). The probabilities add up to 1 and the
        shares to the RTP."""
        edges = [Fraction(e) for e in edges]
        if not edges or edges[0] != 0 or any(b <= a for a, b in itertools.pairwise(edges)):
            raise ValueError("win-size edges must start at 0 and increase")
        cpb = self.spin.credits_per_bet
        cuts = [math.floor(e * cpb) for e in edges[1:]]
        parts = self.spin.bands(cuts, spins=None if self.exact else 0)
        total, scale = self.spin.total, self.spin.total * cpb
        labels = ["0", *(f"({a}, {b}]" for a, b in itertools.pairwise(edges)), f"> {edges[-1]}"]
        lowers = [Fraction(0), *edges]
        uppers = [Fraction(0), *edges[1:], None]
        rows = []
        for label, low, high, (w, x) in zip(labels, lowers, uppers, parts):
            p = Fraction(w, total)
            rows.append(WinSizeRow(label, low, high, p, math.inf if not p else 1 / float(p),
                                   Fraction(x, scale)))
        if not self.exact:
            p = 1 - self.spin.spins_probability(0)
            share = float(self.mean) - float(self.spin.moment(1, 0))
            rows.append(WinSizeRow("free spins", None, None, p,
                                   math.inf if not p else 1 / float(p), share))
        return tuple(rows)

    @cached_property
    def round_law(self) -> WinDistribution | None:
        """The exact law of the round's win when no bauble awards free spins, else None (the
        free spins' law is not computed: see :attr:`win_sizes`)."""
        return self.spin.distribution() if self.exact else None

    # -- consecutive rounds -------------------------------------------------------------------
    def _require_covariances(self) -> np.ndarray:
        if self.covariances is None:
            raise ValueError("the covariances of consecutive rounds are known for the "
                             "stationary law only (ConveyorFigures.round)")
        return self.covariances

    @property
    def asymptotic_variance(self) -> float:
        """``gamma_0 + 2 sum_k gamma_k``: N times the variance of the mean of N consecutive
        rounds, for large N (total bets squared)."""
        return float(self.variance) + 2 * float(np.sum(self._require_covariances()))

    def mean_variance(self, rounds: int) -> float:
        """The variance of the mean win of ``rounds`` consecutive rounds from the stationary
        law (exact given the covariances: rounds more than ``n`` apart are independent)."""
        return mean_variance(float(self.variance), self._require_covariances(), rounds)

    def confidence_interval(self, rounds: int, confidence: float = 0.95
                            ) -> ConfidenceInterval:
        """Where the RTP measured over ``rounds`` consecutive paid rounds lies:
        ``RTP +/- z sqrt(mean_variance(rounds))`` (the normal approximation; rounds more than
        ``n`` apart are independent, so the central limit theorem holds for an n-dependent
        sequence). From the stationary law: a session from the empty conveyor (a bet change)
        starts below it (``rtp_from_reset``)."""
        half = normal_quantile(confidence) * math.sqrt(self.mean_variance(rounds))
        centre = float(self.mean)
        return ConfidenceInterval(int(rounds), float(confidence), centre - half, centre + half)

    def confidence_table(self, spins: Sequence[int] = DEFAULT_SPINS
                         ) -> tuple[ConfidenceRow, ...]:
        """The 90% and 95% intervals of :meth:`confidence_interval` per number of rounds."""
        rows = []
        for n in spins:
            a, b = self.confidence_interval(n, 0.90), self.confidence_interval(n, 0.95)
            rows.append(ConfidenceRow(int(n), a.lower, a.upper, b.lower, b.upper))
        return tuple(rows)


#: conveyor features kept for :func:`shared_feature`, the most recently used last
_SHARED: OrderedDict[tuple[int, int], ConveyorFeature] = OrderedDict()
#: how many :func:`shared_feature` keeps: a feature holds its game, so every game ever
#: analysed stayed alive with its figures until this bound (the tuner's rounds on Jingle
#: Spin grew about 200 MB a round, each edited game's random-wild laws kept)
SHARED_KEPT = 4


def shared_feature(game: Game, level: int = 1) -> ConveyorFeature:
    """The conveyor feature of ``game`` at ``level``, one per game object and pay level
    (:meth:`~slotmath.model.game.Game.pay_level`): the analyses of Jingle Spin's ten bet
    levels (a compliance check, a report over every level) compute its figures once. The
    :data:`SHARED_KEPT` most recently used are kept (a feature holds its game: an older one
    goes with the game, unless an analysis still holds it).

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/jingle_spin.toml")
    >>> shared_feature(g, 3) is shared_feature(g, 10), shared_feature(g, 3).level
    (True, 1)
    >>> others = [slotmath.load_game("data/games/jingle_spin.toml") for _ in range(SHARED_KEPT)]
    >>> _ = [shared_feature(o) for o in others]
    >>> len(_SHARED) == SHARED_KEPT and all(f.game is not g for f in _SHARED.values())
    True
    """
    key = (id(game), game.pay_level(level))
    feature = _SHARED.get(key)
    if feature is None or feature.game is not game:
        feature = _SHARED[key] = ConveyorFeature(game, key[1])
        weakref.finalize(game, _SHARED.pop, key, None)
        while len(_SHARED) > SHARED_KEPT:
            _SHARED.popitem(last=False)
    _SHARED.move_to_end(key)
    return feature


FEATURE = Feature(
    name="conveyor",
    kind=Kind.OWNER,
    title="Bauble conveyor",
    present=lambda game: game.conveyor is not None,
    build=shared_feature,
    result=lambda composition: composition.stationary["conveyor"],
    json="slotmath.report.conveyor:json_section",
    tables="slotmath.report.conveyor:tables",
    summary="slotmath.report.conveyor:summary",
    panel="slotmath.widgets.conveyor_panel:feature_panel",
    charts="slotmath.plot.conveyor:charts",
    simulator="slotmath.simulate.conveyor:simulate_conveyor",
    round_simulator="slotmath.simulate.conveyor:simulate_rounds",
    plays=("pays", "conveyor"),
    carries_state=True,
)
