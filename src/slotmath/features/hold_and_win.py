"""Hold & win as a feature of kind ``round``: started by the cash-symbol count of the paid spin.

The chain (held, respins left, gem progress; values by linearity) is
:class:`slotmath.markov.hold_and_win.HoldAndWinChain`; this module answers the feature
interface with it. The mark is ``Mark("count", symbol)``: the engine counts the cash symbols
in the paid window (every count), and since each value is drawn per symbol from the value
law, independent of position, the count is all the round needs.

Exactness: a chain of at most :data:`EXACT_STATES` states is solved in exact fractions (its
law is then exact); a larger one in float64, and the feature reports ``exact = False`` with
``error``, a bound on its expected win (the moves left out of the float chain times the top
award, plus rounding), which the analysis adds to the RTP's error bound.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache

import numba
import numpy as np

from slotmath.exact import store
from slotmath.features.base import DenseLaw, Feature, FeatureLaw, Kind, Mark
from slotmath.markov import hold_and_win as _chain_module
from slotmath.markov import sparse as _sparse_module
from slotmath.markov.hold_and_win import HoldAndWinChain, RoundFigures
from slotmath.model import hold_and_win as _model_module
from slotmath.model.hold_and_win import BOOSTER_KINDS, HoldAndWin

__all__ = ["EXACT_STATES", "FEATURE", "HoldAndWinRound", "HoldAndWinSummary", "summary"]

#: Chains up to this many states are solved in exact fractions.
EXACT_STATES = 4000

#: the code that computes a float chain's stored results (read when this module is imported,
#: so the fingerprint is the code that runs): part of every store key, with the versions of
#: numpy (its FFT) and numba (the compiled passes)
_CODE = store.code_fingerprint(_chain_module, _sparse_module, _model_module,
                               sys.modules[__name__])


@dataclass(frozen=True, eq=False)
class HoldAndWinRound:
    """The hold & win feature of ``spec``; ``exact`` None: exact when the chain is small.

    Examples
    --------
    >>> spec = HoldAndWin("C", 1, 1, Fraction(1, 2), (Fraction(1),), (1,), rows=1,
    ...                   max_rows=1, reels=2)
    >>> f = HoldAndWinRound(spec)
    >>> f.start(0), f.start(2), f.law(1).mean, f.exact
    (None, 2, Fraction(3, 2), True)
    """

    spec: HoldAndWin
    exact_mode: bool | None = None
    starts: tuple[int, ...] | None = None  # the start counts the paid spin can show
    name: str = "hold_and_win"
    simulator: str = "slotmath.simulate.hold_and_win.play_hold_and_win"
    reels: None = None  # it plays no reel spins (its respins land by the landing law)
    window_multiplier: int = 1
    _laws: dict = field(default_factory=dict, repr=False)

    @property
    def mark(self) -> Mark:
        return Mark("count", self.spec.symbol)

    @cached_property
    def chain(self) -> HoldAndWinChain:
        exact = _small(self.spec) if self.exact_mode is None else self.exact_mode
        return HoldAndWinChain(self.spec, exact=exact)

    @property
    def exact(self) -> bool:
        return self.chain.exact

    def start(self, count: int) -> int | None:
        """The cash symbols held at the start (``count``), or None below the trigger."""
        return count if count >= self.spec.trigger else None

    def figures(self, held: int) -> RoundFigures:
        if self._stored(held):
            return self._laws["figures", held]
        return self.chain.figures(held)

    @property
    def _start_counts(self) -> list[int]:
        """Every start count the paid spin can show (all counts from the trigger up when the
        feature was made without them)."""
        starts = self.starts or range(self.spec.trigger, self.spec.capacity(0) + 1)
        return sorted(set(starts))

    def _stored(self, held: int) -> bool:
        """Whether the float chain's results for ``held`` are at hand: the figures, the mass
        left out and the dense law of every start count at once (:meth:`_start_counts`),
        read from the table store (:mod:`slotmath.exact.store`) or computed and stored there
        (they take seconds: the chain's passes, its records and the FFT mixture). False for
        an exact chain or a count the paid spin does not show (those are computed as they
        are asked for).

        The stored array holds exactly the floats the chain computes (float64 both ways,
        read back bit for bit); its key is the rules (``repr`` of the frozen spec), the
        chain's drop threshold, the start counts, the code of the chain's modules and the
        numpy and numba versions."""
        if ("figures", held) in self._laws:
            return True
        helds = self._start_counts
        if self.exact or held not in helds or ("stored",) in self._laws:
            return False
        self._laws["stored",] = True
        chain = self.chain
        levels = [(kind, b.times) for kind in BOOSTER_KINDS
                  if (b := self.spec.booster(kind)) is not None]
        head = 6 + sum(t for _, t in levels)

        def compute() -> np.ndarray:
            laws = chain.float_distributions(helds)
            rows = []
            for h in helds:
                fig = chain.figures(h)
                probs, bound, second = laws[h]
                flat = [x for kind, _ in levels for x in fig.booster_levels[kind]]
                rows.append(np.concatenate([
                    [fig.mean, fig.expected_respins, fig.fill_probability, *flat,
                     chain.dropped_probability(h), bound, second], probs]))
            return np.stack(rows)

        def valid(a: np.ndarray) -> bool:
            return (a.dtype == np.float64 and a.ndim == 2 and a.shape[0] == len(helds)
                    and a.shape[1] > head and bool(np.isfinite(a).all())
                    and bool((a[:, head:] >= 0).all()))

        key = store.key_of("hold-and-win", _CODE, repr(self.spec), repr(chain.drop),
                           tuple(helds), np.__version__, numba.__version__)
        table = store.load_or_compute("hold-and-win", key, compute, valid=valid)
        for h, row in zip(helds, table):
            values = row[:head].tolist()
            at, booster_levels = 3, {}
            for kind, times in levels:
                booster_levels[kind] = values[at: at + times]
                at += times
            self._laws["figures", h] = RoundFigures(h, values[0], values[1], values[2],
                                                    booster_levels)
            self._laws["dropped", h] = values[head - 3]
            self._laws["dense", h] = (row[head:].copy(), values[head - 2], values[head - 1])
        return True

    def _dense_laws(self, helds) -> None:
        """Compute (once) the dense law and second moment of every start in ``helds``."""
        todo = [h for h in helds if ("dense", h) not in self._laws]
        if not todo:
            return
        if self.exact:
            from slotmath.exact.workers import map_parts

            unit = self.chain.unit
            # one chunk per start count: through slotmath.executor when one is set, else here
            for held, law in zip(todo, map_parts(_exact_distribution, todo, 1,
                                                 shared=self.chain)):
                probs = np.zeros(int(max(law) / unit) + 1)
                for w, p in law.items():
                    probs[int(w / unit)] += float(p)
                self._laws["dense", held] = (probs, 0.0, None)
            return
        for held, value in self.chain.float_distributions(todo).items():
            self._laws["dense", held] = value

    def _dense_law(self, held: int):
        if self._stored(held):
            return self._laws["dense", held]
        # every start count at once: one forward pass carries them all
        self._dense_laws(sorted(set(self._start_counts) | {held}))
        return self._laws["dense", held]

    def law(self, held: int) -> FeatureLaw:
        """Mean, second moment, P(0) of the round started with ``held`` (exact when the
        chain is; else the float64 values as fractions, see ``error``)."""
        if held not in self._laws:
            fig = self.figures(held)
            if self.exact:
                law = self.chain.exact_distribution(held)
                second = sum((w * w * p for w, p in law.items()), Fraction(0))
                zero = law.get(Fraction(0), Fraction(0))
                self._laws[held] = FeatureLaw(fig.mean, second, zero, Fraction(0))
            else:
                second = self._dense_law(held)[2]
                self._laws[held] = FeatureLaw(Fraction(fig.mean), Fraction(second),
                                              Fraction(0), Fraction(0))
        return self._laws[held]

    @property
    def nested(self) -> bool:
        """Whether it can also start inside a free spin (``in_free_spins``)."""
        return self.spec.in_free_spins

    def exact_law(self, held: int) -> dict[Fraction, Fraction]:
        """The exact law of the round started with ``held`` (win in total bets ->
        probability), for a round started inside a free spin (folded into that spin)."""
        if not self.exact:
            raise ValueError(
                f"a hold & win started in free spins is folded into the free spin by its exact "
                f"law, and this chain has {self.chain.n_states:,} states (solved exactly up to "
                f"{EXACT_STATES:,}): fewer respins, rows or boosters")
        return self.chain.exact_distribution(held)

    def error(self, held: int) -> float:
        """Bound on the error of ``law(held).mean`` (0 when exact)."""
        if self.exact:
            return 0.0
        top = float(self.chain.unit) * (len(self._dense_law(held)[0]) - 1)
        mean = float(self.law(held).mean)
        dropped = (self._laws["dropped", held] if self._stored(held)
                   else self.chain.dropped_probability(held))
        return dropped * top + 1e-13 * mean

    def dense(self, keys: list) -> dict:
        unit = self.chain.unit
        for k in keys:
            self._stored(k)
        self._dense_laws(keys)
        out = {}
        for k in keys:
            probs, err, _ = self._dense_law(k)
            out[k] = DenseLaw(probs, unit.numerator, unit.denominator, err)
        return out


def _exact_distribution(chain, held: int) -> dict:
    """One chunk of the exact laws (:func:`slotmath.exact.workers.map_parts`)."""
    return chain.exact_distribution(held)


@lru_cache(maxsize=64)
def _small(spec: HoldAndWin) -> bool:
    """Whether the chain of ``spec`` has at most :data:`EXACT_STATES` states (then it is
    solved in fractions): counted once per rules, since a strip move builds the round anew
    and counting them takes ~0.1-0.3 s on Gus's Gold Christmas (its states' digit grids)."""
    return HoldAndWinChain(spec).n_states <= EXACT_STATES


def _marks(game) -> tuple[Mark, ...]:
    """What the paid spin must count for the game's hold & win: its cash symbols."""
    return (Mark("count", game.hold_and_win.symbol),)


def _build(game, spin) -> HoldAndWinRound:
    """The game's hold & win round feature, started from the paid spin (``spin.paid``, else
    ``spin("base", 1)``)."""
    hw = game.hold_and_win
    table = getattr(spin, "paid", None)
    table = spin("base", 1) if table is None else table
    i = table.mark_index("count")
    starts = sorted({k[i] for k, w in table.weights.items() if w and k[i] >= hw.trigger})
    return HoldAndWinRound(hw, starts=tuple(starts))


@dataclass(frozen=True)
class HoldAndWinSummary:
    """Per paid round: trigger probability and RTP; per started round: expected win,
    respins, fill probability and each booster's P(fires at least j times)."""

    trigger_probability: Fraction
    rtp: object
    expected_win: float
    expected_respins: float
    fill_probability: float
    booster_levels: dict
    exact: bool
    error: float
    win_law: np.ndarray | None = None  # P(round win = i x unit | started), mixed over starts
    unit: Fraction = Fraction(1)
    law_error: float = 0.0  # probability mass the law may misplace

    def at_least(self, bets) -> float:
        """P(a started round pays at least ``bets`` total bets)."""
        if self.win_law is None:
            return 0.0
        first = int(np.ceil(float(Fraction(bets) / self.unit)))
        return float(self.win_law[first:].sum())


def summary(round_law, feature: HoldAndWinRound) -> HoldAndWinSummary:
    """The hold & win figures, mixed over the start counts of the paid spin."""
    starts = round_law.start_probabilities(feature.name)
    p = sum(starts.values(), Fraction(0))
    rtp = round_law.feature_mean(feature.name)
    if not feature.exact:
        rtp = float(rtp)
    if not p:
        return HoldAndWinSummary(Fraction(0), rtp, 0.0, 0.0, 0.0, {}, feature.exact, 0.0)
    w = {k: float(q / p) for k, q in starts.items()}
    figs = {k: feature.figures(k) for k in starts}
    levels: dict = {}
    for k, fig in figs.items():
        for kind, vs in fig.booster_levels.items():
            acc = levels.setdefault(kind, [0.0] * len(vs))
            for j, v in enumerate(vs):
                acc[j] += w[k] * float(v)
    error = sum(float(q) * feature.error(k) for k, q in starts.items())
    laws = feature.dense(list(starts))
    size = max(len(d.probs) for d in laws.values())
    mixed = np.zeros(size)
    for k, d in laws.items():
        mixed[: len(d.probs)] += w[k] * d.probs
    law_error = sum(w[k] * d.error for k, d in laws.items())
    return HoldAndWinSummary(
        p, rtp, sum(w[k] * float(f.mean) for k, f in figs.items()),
        sum(w[k] * float(f.expected_respins) for k, f in figs.items()),
        sum(w[k] * float(f.fill_probability) for k, f in figs.items()),
        levels, feature.exact, error, mixed, feature.chain.unit, law_error)


def _result(composition) -> HoldAndWinSummary | None:
    feature = next((f for f in composition.round.features if f.name == "hold_and_win"), None)
    return None if feature is None else summary(composition.round, feature)


FEATURE = Feature(
    name="hold_and_win",
    kind=Kind.ROUND,
    title="Hold & win",
    present=lambda game: game.hold_and_win is not None,
    marks=_marks,
    build=_build,
    result=_result,
    json="slotmath.report.hold_and_win:json_section",
    tables="slotmath.report.hold_and_win:tables",
    summary="slotmath.report.hold_and_win:summary",
    panel="slotmath.widgets.hold_and_win_panel:hold_and_win_panel",
    charts="slotmath.plot.hold_and_win:charts",
    simulator="slotmath.simulate.hold_and_win:play_hold_and_win",
    round_simulator="slotmath.simulate.combined:simulate_rounds",
    plays=("pays", "free_spins", "hold_and_win", "bonus_wheel", "modifiers", "max_win_cap"),
    checks="slotmath.report.hold_and_win:entries",
    errors="slotmath.report.hold_and_win:errors",
    simulation="slotmath.report.hold_and_win:simulation",
    simulation_text="slotmath.report.hold_and_win:simulation_text",
    book="slotmath.publish.hold_and_win:book",
    nested=lambda game: game.hold_and_win.in_free_spins and game.free_spins is not None,
)
