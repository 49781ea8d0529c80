"""The feature interface: what a mechanic answers so that an analysis can compose it.

A paid round is the paid spin plus whatever its outcome starts. Three kinds of feature:

* a **spin feature** (the bonus wheel) adds to a spin a win whose law depends on one *mark*
  of that spin's outcome (the number of bonus lines). It is folded into every spin it can
  follow, on the base reels and inside round features, exactly.
* a **round feature** (free spins; next: hold & win) is started by a mark of the paid spin
  (the trigger count) and returns, per mark value, the law of what it pays: exact mean and
  second moment, exact P(win = 0), a numerical distribution on a grid with its error bound.
  The round is the mixture over marks of the base credits combined with each started
  feature's law (:func:`slotmath.features.compose.round_law`).
* a **stationary feature** (progressive jackpots; next: a persistent conveyor) wraps the
  round's law and returns the long-run law of a state that persists between paid rounds.

Features receive a :class:`Context` (game, bet level, pay model, cached outcome tables), not
an analysis, so nothing here imports what sits above it. Each names its simulator counterpart
in ``simulator``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Protocol

import numpy as np

from slotmath.evaluate.window import PayModel
from slotmath.exact.cycle import line_trigger_table, spin_table
from slotmath.exact.distribution import WinDistribution
from slotmath.exact.spin_table import MarkedTable
from slotmath.model.game import Game

__all__ = ["Context", "DenseLaw", "FeatureLaw", "Mark", "RoundFeature", "SpinFeature",
           "StationaryFeature", "StationaryLaw"]


@dataclass(frozen=True)
class Mark:
    """What a spin's outcome table must count for a feature.

    ``kind`` is ``"trigger"`` (the free-spin trigger symbols in the window),
    ``"bonus_lines"`` (paylines showing ``count`` of ``symbol`` in succession from reel 1,
    counted up to ``cap``) or ``"cash"`` (the hold & win cash ``symbol`` in the window, every
    count: values are drawn per symbol by the value law, independent of position, so the
    count is all the round needs).
    """

    kind: str
    symbol: str = ""
    count: int = 0
    cap: int | None = None


@dataclass(frozen=True)
class DenseLaw:
    """A numerical law on a grid: ``P(win = i * step credits) = probs[i]``; ``error`` bounds
    the probability mass folded back by the grid (``credits_per_bet`` credits are one bet).
    ``rounding``: the most a win was moved (credits) to land on the grid (0: it was not)."""

    probs: np.ndarray
    step: int
    credits_per_bet: int
    error: float
    rounding: float = 0.0


@dataclass(frozen=True, eq=False)
class FeatureLaw:
    """What a round feature pays when one mark value starts it, in total bets.

    ``mean``, ``second_moment`` and ``zero_probability`` are exact; ``spins`` is the expected
    number of spins it plays on its reels (for the spin features inside it).
    """

    mean: Fraction
    second_moment: Fraction
    zero_probability: Fraction
    spins: Fraction


class SpinFeature(Protocol):
    """Adds to a spin a win that depends on one mark of it (folded in by
    :func:`slotmath.features.compose.fold`)."""

    name: str
    mark: Mark
    simulator: str

    def law(self, value: int, window_multiplier: int) -> WinDistribution:
        """Exact law of what it adds to a spin whose mark is ``value``."""

    def events(self, value: int) -> int:
        """How many times a spin with mark ``value`` plays it (e.g. wheel spins)."""


class RoundFeature(Protocol):
    """Started by a mark of the paid spin; mixed into the round by
    :class:`slotmath.features.compose.RoundLaw`."""

    name: str
    mark: Mark
    simulator: str
    reels: str | None  # the reel set its spins play on (None: it plays no spins)
    window_multiplier: int  # what those spins' window wins are multiplied by

    def start(self, value: int) -> Hashable | None:
        """The key of its law when the paid spin's mark is ``value`` (None: not started).
        Mark values that start the same law share a key (e.g. the spins awarded)."""

    def law(self, key) -> FeatureLaw:
        """Exact mean, second moment and P(win = 0) of the law with ``key``."""

    def dense(self, keys: list) -> dict[Hashable, DenseLaw]:
        """Numerical laws of ``keys``, each on its own grid."""


class StationaryFeature(Protocol):
    """A state that persists between paid rounds, driven by the round's law of events."""

    name: str
    simulator: str
    driven_by: str  # the spin feature whose events (e.g. wheel spins) drive it

    def analyze(self, events_round) -> StationaryLaw:
        """The long-run law, given the :class:`~slotmath.features.compose.RoundLaw` of its
        driving events per round."""


class StationaryLaw(Protocol):
    """What a stationary feature's analysis gives the composition (in total bets per round)."""

    rtp: float  # its long-run payout
    replaced: float  # what its driver does not pay because the event went to it instead
    error: float  # absolute bound on rtp - replaced


@dataclass(frozen=True, eq=False)
class Context:
    """What a feature receives: the game at one bet level and its exact outcome tables.

    ``progress(stage, done, total)``, when given, hears how far each enumeration has come
    (first-reel stops done of ``total``; ``stage`` names the table, e.g. "base").

    Examples
    --------
    >>> import slotmath
    >>> ctx = Context(slotmath.load_game("data/games/tiny_lines.toml"), 1)
    >>> t = ctx.table("base", (Mark("trigger"),))
    >>> t.marks, t.cycle, sum(t.weights.values()) == 8**3   # 8-stop reels, 3 of them
    (('trigger',), 512, True)
    """

    game: Game
    level: int = 1
    progress: Callable[[str, int, int], None] | None = field(default=None, repr=False)
    _tables: dict = field(default_factory=dict, repr=False)
    cascade_laws: dict = field(default_factory=dict, repr=False)  # reel set -> CascadeLaw

    @cached_property
    def model(self) -> PayModel:
        return PayModel(self.game, self.level)

    def table(self, reel_set: str, marks: tuple[Mark, ...]) -> MarkedTable:
        """Exact (marks..., credits) weights of one spin on ``reel_set``, computed once."""
        if self.game.cascades is not None:
            return self._cascade_table(reel_set, marks)
        if any(m.kind == "cash" for m in marks):
            return self._cash_table(reel_set, marks)
        lines = [m for m in marks if m.kind == "bonus_lines"]
        if len(lines) > 1 or any(m.kind not in ("trigger", "bonus_lines") for m in marks):
            raise ValueError(f"the engine counts the trigger and one bonus-line mark, not {marks}")
        fs = self.game.free_spins
        for m in marks:  # the engine counts the free-spin trigger only: refuse another symbol
            if m.kind == "trigger" and m.symbol and (fs is None or m.symbol != fs.trigger):
                raise ValueError(f"the engine counts the free-spin trigger symbol "
                                 f"({fs.trigger if fs else 'none in this game'}), not "
                                 f"{m.symbol!r}")
        key = (reel_set, lines[0] if lines else None)
        if key not in self._tables:
            report = None
            if self.progress is not None:
                def report(done, total, stage=f"{reel_set} reels"):
                    self.progress(stage, done, total)
            if lines:
                m = lines[0]
                raw = line_trigger_table(self.game, m.symbol, m.count, reel_set, self.level,
                                         cap=m.cap, model=self.model, progress=report)
            else:
                raw = spin_table(self.game, reel_set, self.level, self.model, progress=report)
            self._tables[key] = MarkedTable.of(raw)
        full = self._tables[key]
        return full.project(tuple(m.kind for m in marks))

    def _cascade_table(self, reel_set: str, marks: tuple[Mark, ...]) -> MarkedTable:
        """A cascading spin's table (:func:`slotmath.features.cascades.table`)."""
        from slotmath.features import cascades

        kinds = tuple(m.kind for m in marks)
        if any(k not in cascades.MARKS for k in kinds):
            raise ValueError(f"a cascading spin counts {cascades.MARKS}, not {kinds}")
        if reel_set not in self._tables:
            report = None
            if self.progress is not None:
                def report(done, total, stage=f"{reel_set} reels (cascades)"):
                    self.progress(stage, done, total)
            self._tables[reel_set] = cascades.table(self, reel_set, report)
        return self._tables[reel_set].project(kinds)
    def _cash_table(self, reel_set: str, marks: tuple[Mark, ...]) -> MarkedTable:
        """Exact (cash count, credits) weights: the engine counts the cash symbol in the
        trigger's column, so a table counts it alone (a game with hold & win and another
        mark-counting feature is refused here, clearly)."""
        if len(marks) != 1:
            raise ValueError(f"the engine counts the cash symbols alone in a table, not "
                             f"with other marks: {marks}")
        symbol = marks[0].symbol
        key = (reel_set, "cash", symbol)
        if key not in self._tables:
            report = None
            if self.progress is not None:
                def report(done, total, stage=f"{reel_set} reels"):
                    self.progress(stage, done, total)
            raw = spin_table(self.game, reel_set, self.level, self.model, progress=report,
                             count_symbol=symbol)
            self._tables[key] = MarkedTable(("cash",), dict(raw.weights), raw.cycle,
                                            raw.credits_per_bet, raw.trigger_cap)
        return self._tables[key]
