"""Free spins as a feature of kind ``round``: started by the trigger count of the paid spin.

The chain itself (spins remaining, spins awarded; exact moments, FFT distribution) is
:class:`slotmath.markov.free_spins.FreeSpinsFeature`; this module answers the feature
interface with it (a game whose ``outcome`` feature replaces free spins, cascades, builds
its own chain). Simulator counterpart: :func:`slotmath.simulate.free_spins.play_free_spins`.
Report: :mod:`slotmath.report.free_spins`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property

from slotmath.exact.spin_table import SpinTable
from slotmath.features.base import DenseLaw, Feature, FeatureLaw, Kind, Mark
from slotmath.markov.free_spins import FreeSpinsFeature, SpinCountDistribution
from slotmath.model.game import FreeSpins

__all__ = ["FEATURE", "FreeSpinsRound", "FreeSpinsSummary", "summary"]


@dataclass(frozen=True, eq=False)
class FreeSpinsRound:
    """The free-spins feature of ``spec`` on the free spin ``free`` (credits as they pay
    before ``spec.multiplier``; a caller that folded the multiplier in passes multiplier 1).

    Examples
    --------
    >>> t = SpinTable({(0, 0): 3, (1, 4): 1}, 4, 4, 1)
    >>> f = FreeSpinsRound(FreeSpins("S", {1: 2}, multiplier=2), t)
    >>> f.start(0), f.start(1), f.law(2).mean, f.law(2).spins
    (None, 2, Fraction(1, 1), Fraction(2, 1))
    """

    spec: FreeSpins
    free: SpinTable
    reels: str = ""  # the reel set its spins play on
    window_multiplier: int = 1  # what its spins' wins were multiplied by in ``free``
    name: str = "free_spins"
    simulator: str = "slotmath.simulate.free_spins.play_free_spins"

    @property
    def mark(self) -> Mark:
        return Mark("trigger", self.spec.trigger)

    @cached_property
    def chain(self) -> FreeSpinsFeature:
        return FreeSpinsFeature(self.free, self.spec)

    def start(self, trigger_count: int) -> int | None:
        """Spins awarded by ``trigger_count`` trigger symbols (cut to the cap); None for 0."""
        n = self.spec.award_for(trigger_count)
        if self.spec.max_spins is not None:
            n = min(n, self.spec.max_spins)
        return n or None

    @cached_property
    def _laws(self) -> dict[int, FeatureLaw]:
        return {}

    def law(self, n: int) -> FeatureLaw:
        """The exact law of a feature started with ``n`` spins (kept per feature)."""
        if n not in self._laws:
            c = self.chain
            self._laws[n] = FeatureLaw(c.expected_win(n), c.second_moment(n),
                                       c.zero_win_probability(n), c.expected_spins(n))
        return self._laws[n]

    def spins_distribution(self, n: int) -> SpinCountDistribution:
        return self.chain.spins_distribution(n)

    def dense(self, ns: list[int]) -> dict[int, DenseLaw]:
        step = self.chain.grid_unit * self.spec.multiplier
        return {n: DenseLaw(p, step, self.free.credits_per_bet, bound)
                for n, (p, bound) in self.chain.dense_pmfs(ns).items()}


@dataclass(frozen=True, eq=False)
class StateRound:
    """Free spins that carry a state, random awards or a growing multiplier
    (:mod:`slotmath.markov.free_spin_state`), played by ``mechanic``'s moves.

    Its keys are the award laws the trigger counts start (``((spins, weight), ...)``, spins
    cut to ``max_spins``): counts with the same law share it.

    Examples
    --------
    >>> import slotmath
    >>> from slotmath.exact.free_spin_moves import PlainMoves
    >>> t = SpinTable({(0, 0): 3, (1, 4): 1}, 4, 4, 1)
    >>> spec = FreeSpins("S", {1: 3}, award_laws={1: {2: 1, 3: 1}})
    >>> f = StateRound(spec, PlainMoves(t))
    >>> f.start(1), f.law(f.start(1)).mean, f.law(f.start(1)).spins
    (((2, 1), (3, 1)), Fraction(5, 8), Fraction(5, 2))
    """

    spec: FreeSpins
    mechanic: object
    reels: str = ""
    window_multiplier: int = 1
    name: str = "free_spins"
    simulator: str = "slotmath.simulate.free_spin_state.play_features"

    @property
    def mark(self) -> Mark:
        return Mark("trigger", self.spec.trigger)

    @cached_property
    def chain(self):
        from slotmath.markov.free_spin_state import ChainRules, StateChain

        spec = self.spec
        retrigger = None
        if spec.retrigger:
            retrigger = tuple(spec.retrigger_for(t) for t in range(max(spec.awards) + 1))
        return StateChain(self.mechanic, ChainRules(retrigger, spec.max_spins, spec.growth))

    @property
    def exact(self) -> bool:
        """Whether the chain's moments are exact (decided when it is first solved: it is
        solved here for every trigger count first, so that the composition asks before it
        adds the RTP up)."""
        if self.chain._exact is None:
            for count in self.spec.awards:
                key = self.start(count)
                if key is not None:
                    self.law(key)
        return bool(self.chain._exact) if self.chain._exact is not None else True

    def start(self, trigger_count: int):
        law = self.spec.spins_law(trigger_count)
        if not law:
            return None
        cap = self.spec.max_spins
        out: dict[int, int] = {}
        for n, w in law.items():
            n = min(n, cap) if cap is not None else n
            out[n] = out.get(n, 0) + w
        return tuple(sorted(out.items()))

    @cached_property
    def _laws(self) -> dict:
        return {}

    def law(self, key) -> FeatureLaw:
        if key not in self._laws:
            c = self.chain.law(dict(key))
            self._laws[key] = FeatureLaw(c.mean, c.second_moment, c.zero_probability,
                                         c.spins)
        return self._laws[key]

    def error(self, key) -> float:
        """Bound on the roundoff of :meth:`law`'s mean (total bets; 0 when exact)."""
        return self.chain.law(dict(key)).error

    def dense(self, keys: list) -> dict:
        out = {}
        for key in keys:
            p, unit, bound, rounding = self.chain.dense(dict(key))
            out[key] = DenseLaw(p, unit, self.mechanic.credits_per_bet, bound, rounding)
        return out

    def spins_distribution(self, key) -> SpinCountDistribution:
        return SpinCountDistribution(self.chain.spins_distribution(dict(key)), True)


def _marks(game) -> tuple[Mark, ...]:
    """What the paid spin must count for the game's free spins."""
    return (Mark("trigger", game.free_spins.trigger),)


def _build(game, spin) -> FreeSpinsRound:
    """The game's free spins, playing ``spin(reel_set, multiplier)`` (a MarkedTable with the
    multiplier and every spin feature folded in)."""
    fs = game.free_spins
    if not fs.plain:
        return _build_state(game, spin)
    table = spin(fs.reels, fs.multiplier).spin_table()
    return FreeSpinsRound(replace(fs, multiplier=1), table, fs.reels, fs.multiplier)


def _build_state(game, spin) -> StateRound:
    """Free spins with a state: the mechanic its declared feature builds
    (``build_round``), or the free spin's own table (random awards or a growing multiplier
    only)."""
    fs = game.free_spins
    if fs.state is None:
        from slotmath.exact.free_spin_moves import PlainMoves

        mechanic = PlainMoves(spin(fs.reels, fs.multiplier).spin_table())
    else:
        from slotmath.features.registry import feature

        mechanic = feature(fs.state.kind).build_round(game, spin)
    return StateRound(fs, mechanic, fs.reels, fs.multiplier)


@dataclass(frozen=True)
class FreeSpinsSummary:
    """Exact free-spin figures: per paid round and per started feature (0 when it never
    starts; ``spins_distribution`` is then None)."""

    trigger_probability: Fraction
    expected_spins: Fraction  # per started feature
    expected_win: Fraction  # per started feature, in total bets
    rtp: Fraction  # contribution per paid round, in total bets
    spins_distribution: SpinCountDistribution | None
    error: float = 0.0  # bound on rtp's roundoff (total bets a paid round): 0 when exact


def summary(round_law, feature: FreeSpinsRound) -> FreeSpinsSummary:
    """The free-spin figures of a PAR sheet, read off the round's law."""
    starts = round_law.start_probabilities(feature.name)
    p = sum(starts.values(), Fraction(0))
    rtp = round_law.feature_mean(feature.name)
    if not p:
        return FreeSpinsSummary(Fraction(0), Fraction(0), Fraction(0), rtp, None)
    parts = [(q / p, feature.spins_distribution(n)) for n, q in starts.items()]
    exact = all(d.exact for _, d in parts)
    mixed: dict = {}
    for w, d in parts:
        w = w if exact else float(w)
        for k, q in d.probabilities.items():
            mixed[k] = mixed.get(k, 0) + w * q
    tail = sum(float(w) * d.tail_mass for w, d in parts)
    spins = SpinCountDistribution(dict(sorted(mixed.items())), exact, tail)
    error = 0.0
    if not getattr(feature, "exact", True):  # a state chain solved in float64
        error = sum(float(q) * feature.error(n) for n, q in starts.items())
    return FreeSpinsSummary(p, round_law.feature_spins(feature.name) / p, rtp / p, rtp, spins,
                            error)


def _result(composition) -> FreeSpinsSummary | None:
    feature = next((f for f in composition.round.features if f.name == "free_spins"), None)
    return None if feature is None else summary(composition.round, feature)


def _awards(game, symbol: str, count: int) -> int:
    """Spins awarded by ``count`` of ``symbol`` in the paid spin's window."""
    fs = game.free_spins
    return fs.award_for(count) if symbol == fs.trigger else 0


FEATURE = Feature(
    name="free_spins",
    kind=Kind.ROUND,
    title="Free spins",
    present=lambda game: game.free_spins is not None,
    marks=_marks,
    build=_build,
    result=_result,
    json="slotmath.report.free_spins:json_section",
    tables="slotmath.report.free_spins:tables",
    summary="slotmath.report.free_spins:summary",
    simulator="slotmath.simulate.free_spins:play_free_spins",
    round_simulator="slotmath.simulate.combined:simulate_rounds",  # with the features below
    plays=("pays", "free_spins", "hold_and_win", "bonus_wheel", "modifiers", "max_win_cap"),
    checks="slotmath.report.free_spins:entries",
    awards=_awards,
    book="slotmath.publish.free_spins:book",
)
