"""The feature interface: one declaration per mechanic, and what each kind of mechanic builds.

A mechanic is one module of :mod:`slotmath.features` exporting one :class:`Feature` (its
declaration), listed once in :data:`slotmath.features.registry.REGISTRY`. Everything that
reads mechanics (the analysis, the JSON, the PAR workbook, HTML and text, the workbench, the
simulator's front door and the compliance check) loops over the registry; none of them names
a mechanic. A declaration says:

* its ``kind`` (:class:`Kind`): how it enters the paid round;
* ``present(game)``: whether the game file has it; ``marks(game)``: what the paid spin must
  count for it;
* ``build``: how its law is built (the signature is its kind's, below);
* ``result``: what ``analysis.features[name]`` gives (its figures, from the composed round);
* ``json``, ``tables``, ``summary``, ``errors``, ``charts``, ``panel``, ``simulator``,
  ``checks``, ``book``: the functions of the layers above that render, show, play and check
  it (its JSON section, its PAR tables, its rows of the summary, the error bounds of the RTP
  components it makes numerical, its report charts, its workbench panel, its Monte Carlo
  counterpart, its compliance entries, its player of real rounds for the books of a Stake
  Engine export, :mod:`slotmath.publish.books`; ``rates``: an owner's rate per game of each
  advertised pay-table entry, for the compliance odds rules, where the lines and ways direct
  method does not read its pays), named
  ``"module:function"`` so that this layer imports none of them.

The kinds, and what ``build`` returns (:mod:`slotmath.features.composition` composes them):

* ``pays``: the paid spin's own window pays (lines or ways, scatters); built by the engine.
* ``outcome``: changes what one spin's outcome is (cascades): ``build(context, reel_set,
  progress)`` is the spin's :class:`~slotmath.exact.spin_table.MarkedTable`, and ``window``
  gives the window's components and pay rows in place of the plain engine's.
* ``paid-spin``: changes the paid spin's table before the round features read it (base-game
  modifiers): ``build(context)`` answers ``paid(plain, marks)``, ``components(...)``.
* ``spin``: adds to a spin a win by one of its marks (bonus wheel): ``build(context, coins)``
  is a :class:`SpinFeature`.
* ``round``: started by a mark of the paid spin (free spins, hold & win): ``build(game,
  spin)`` is a :class:`RoundFeature`.
* ``stationary``: a state persisting between paid rounds, driven by a spin feature's events
  (progressive jackpots): ``build(game, level)`` is a :class:`StationaryFeature`.
* ``owner``: a state persisting between paid rounds that plays the whole round itself (the
  bauble conveyor): ``build(game, level)`` as ``stationary``, with ``driven_by`` None.
* ``operation``: acts on the round's win distribution (the max-win cap):
  ``build(composition)`` gives figures with ``effect``, ``error`` and ``exact``.
* ``part``: a mechanic played inside the round of the game's ``owner`` (a grid game's tumbles
  and multiplier symbols): it builds nothing; ``result`` reads its figures off the owner's.

Features receive a :class:`Context` (game, bet level, pay model, cached outcome tables) or the
generic :class:`~slotmath.features.composition.Composition`, never an analysis, so nothing
here imports what sits above it.
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Protocol

import numpy as np

from slotmath.evaluate.window import PayModel
from slotmath.exact.cycle import counts_table, trigger_counts
from slotmath.exact.distribution import WinDistribution
from slotmath.exact.spin_table import MarkedTable
from slotmath.model.game import Game

__all__ = ["Context", "DenseLaw", "Feature", "FeatureLaw", "Kind", "Mark", "RoundFeature",
           "SpinFeature", "StationaryFeature", "StationaryLaw", "hook"]


@dataclass(frozen=True)
class Mark:
    """What a spin's outcome table must count for a feature.

    ``kind`` is what is counted: ``"trigger"`` (the trigger symbols in the window, up to the
    engine's trigger cap), ``"bonus_lines"`` (paylines showing ``count`` of ``symbol`` in
    succession from reel 1, counted up to ``cap``) or ``"count"`` (``symbol`` in the window,
    every count, or up to ``cap``); an outcome feature may count kinds of its own (its
    ``marks``). The engine counts any set of marks jointly, with at most one
    ``"bonus_lines"`` mark (:meth:`Context.table`).

    ``column`` names the mark's column in a :class:`~slotmath.exact.spin_table.MarkedTable`:
    its kind, and for a count the symbol too (``"count:CASH"``), so that two counted
    symbols are two columns; ``table.mark_index("count")`` finds a table's one count.

    >>> Mark("trigger", "SC").column, Mark("count", "CASH").column
    ('trigger', 'count:CASH')
    """

    kind: str
    symbol: str = ""
    count: int = 0
    cap: int | None = None

    @property
    def column(self) -> str:
        return f"{self.kind}:{self.symbol}" if self.kind == "count" and self.symbol else self.kind


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


class Kind(enum.Enum):
    """How a mechanic enters the paid round (see the module notes)."""

    PAYS = "pays"
    OUTCOME = "outcome"
    PAID_SPIN = "paid-spin"
    SPIN = "spin"
    ROUND = "round"
    STATIONARY = "stationary"
    OWNER = "owner"
    OPERATION = "operation"
    PART = "part"


def _no_marks(game: Game) -> tuple[Mark, ...]:
    return ()


@dataclass(frozen=True)
class Feature:
    """One mechanic's declaration (see the module notes).

    ``plays``: the other features whose games its ``round_simulator`` plays
    whole (the simulator's front door picks the smallest that covers a game). ``awards``:
    what ``count`` of ``symbol`` in the paid spin's window awards (a round feature started by
    a scatter count: the spins), for the scatter table. ``replaces`` (kind ``outcome``): the
    round features whose rounds it builds itself on its own tables (``build_round(game,
    spin)``, with its own ``marks``), e.g. free spins that carry a cascade multiplier;
    (kind ``owner``) the features it plays inside its own round, which are then not declared.
    ``fast(game)``: a declared fast stand-in of a game whose exact analysis is slow (None:
    the game is quick as it is), for the workbench's panels, which say that they use it.
    ``nested(game)`` (kind ``round``): whether the feature can also start inside the spins
    another round feature plays (a hold & win inside free spins); the built feature then
    answers ``exact_law(key)`` and the composition folds it into those spins
    (:func:`slotmath.features.composition.fold_nested`).
    """

    name: str
    kind: Kind
    title: str
    present: Callable[[Game], bool]
    marks: Callable[[Game], tuple[Mark, ...]] = _no_marks
    build: Callable[..., Any] | None = None
    result: Callable[[Any], Any] | None = None
    window: Callable[[Any], Any] | None = None
    replaces: tuple[str, ...] = ()
    build_round: Callable[..., Any] | None = None
    json: str | None = None
    tables: str | None = None
    summary: str | None = None
    panel: str | None = None
    charts: str | None = None
    simulator: str = ""
    round_simulator: str | None = None
    simulation: str | None = None
    simulation_text: str | None = None
    plays: tuple[str, ...] = ()
    checks: str | None = None
    rates: str | None = None
    disclosure: str | None = None
    errors: str | None = None
    awards: Callable[[Game, str, int], int] | None = None
    fast: Callable[[Game], Game | None] | None = None
    book: str | None = None
    nested: Callable[[Game], bool] | None = None
    #: whether a state is carried from one paid round to the next (None: by kind, a
    #: stationary feature's is; an owner that carries one, e.g. a conveyor, says so)
    carries_state: bool | None = None

    @property
    def stateful(self) -> bool:
        """Whether rounds of a game with this feature are not independent (Stake Engine and
        any lookup-table publisher take stateless games only)."""
        return self.kind is Kind.STATIONARY if self.carries_state is None else self.carries_state

    def __repr__(self) -> str:
        return f"Feature({self.name!r}, {self.kind.value})"


def hook(feature: Feature, what: str) -> Callable | None:
    """The function a declaration names for ``what`` (``"json"``, ``"tables"``, ...), imported
    on first use (None when it names none).

    >>> f = Feature("toy", Kind.ROUND, "Toy", lambda game: False, json="math:sqrt")
    >>> hook(f, "json")(4.0), hook(f, "panel")
    (2.0, None)
    """
    path = getattr(feature, what)
    if path is None:
        return None
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


class SpinFeature(Protocol):
    """What a feature of kind ``spin`` builds: it adds to a spin a win that depends on one
    mark of it (folded in by :func:`slotmath.features.compose.fold`)."""

    name: str
    mark: Mark
    simulator: str

    def law(self, value: int, window_multiplier: int) -> WinDistribution:
        """Exact law of what it adds to a spin whose mark is ``value``."""

    def events(self, value: int) -> int:
        """How many times a spin with mark ``value`` plays it (e.g. wheel spins)."""


class RoundFeature(Protocol):
    """What a feature of kind ``round`` builds: started by a mark of the paid spin; mixed
    into the round by :class:`slotmath.features.compose.RoundLaw`."""

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
    """What a feature of kind ``stationary`` builds: a state that persists between paid
    rounds, driven by the round's law of events (kind ``owner``: by the whole paid round,
    which it plays itself; ``analyze`` is then given None)."""

    name: str
    simulator: str
    driven_by: str | None  # the spin feature whose events drive it (None: kind owner)

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
    (first-reel stops done of ``total``; ``stage`` names the table, e.g. "base"). A game with
    an ``outcome`` feature has its spin tables built by that feature (``outcome``); ``laws``
    keeps what it computed per reel set.

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
    outcome: Feature | None = None
    _tables: dict = field(default_factory=dict, repr=False)
    laws: dict = field(default_factory=dict, repr=False)  # reel set -> an outcome's law
    paid_reels: str = "base"  # the reel set the paid spin plays (a game mode may change it)
    #: tables whose means and marks' laws are all that is read (an RTP at once: a
    #: feature may then give a :class:`~slotmath.exact.spin_table.MeanTable`)
    means: bool = False

    @cached_property
    def model(self) -> PayModel:
        return PayModel(self.game, self.level)

    def reporter(self, stage: str) -> Callable[[int, int], None] | None:
        """``progress`` for one enumeration called ``stage`` (None without progress)."""
        if self.progress is None:
            return None

        def report(done, total):
            self.progress(stage, done, total)
        return report

    def table(self, reel_set: str, marks: tuple[Mark, ...]) -> MarkedTable:
        """Exact (marks..., credits) weights of one spin on ``reel_set``, computed once.

        Every mark is counted jointly in one enumeration: the trigger, any number of
        counted symbols, and one bonus-line mark (a table already counting more is
        projected). A table's columns are the marks' :attr:`Mark.column`.

        >>> import slotmath
        >>> ctx = Context(slotmath.load_game("data/games/tiny_lines.toml"), 1)
        >>> t = ctx.table("base", (Mark("count", "BAR"), Mark("trigger")))
        >>> t.marks, ctx.table("base", (Mark("trigger"),)) is not None
        (('count:BAR', 'trigger'), True)
        """
        columns = tuple(dict.fromkeys(m.column for m in marks))
        if self.outcome is not None:
            allowed = tuple(m.column for m in self.outcome.marks(self.game))
            if any(k not in allowed for k in columns):
                raise ValueError(f"a spin of {self.outcome.name} counts {allowed}, not {columns}")
            if reel_set not in self._tables:
                self._tables[reel_set] = self.outcome.build(
                    self, reel_set, self.reporter(f"{reel_set} reels ({self.outcome.name})"))
            return self._tables[reel_set].project(columns)
        spec = self._spec(marks)
        for (rs, have), table in self._tables.items():  # one counting more: project it
            if rs == reel_set and set(columns) <= set(have):
                return table.project(columns)
        table = self._joint(reel_set, *spec)
        self._tables[reel_set, table.marks] = table
        return table.project(columns)

    def _spec(self, marks: tuple[Mark, ...]):
        """What the engine counts for ``marks``: the columns and (symbol, cap) of the counted
        symbols, in column order, and the bonus-line mark (or None)."""
        game = self.game
        counted: dict[str, tuple[str, int]] = {}
        lines = {m for m in marks if m.kind == "bonus_lines"}
        if len(lines) > 1:
            raise ValueError(f"the engine counts one bonus-line mark per table, not {marks}")
        for m in marks:
            if m.kind == "trigger":
                trigger = game.trigger_symbol
                if m.symbol and m.symbol != trigger:  # the trigger is the game's trigger only
                    raise ValueError(f"the engine counts the free-spin trigger symbol "
                                     f"({trigger or 'none in this game'}), not {m.symbol!r}")
                if trigger is not None:
                    cap = trigger_counts(game)[0][1] if m.cap is None else m.cap
                    counted["trigger"] = (trigger, cap)
            elif m.kind == "count":
                if m.symbol not in game.symbols:
                    raise ValueError(f"a count mark names no symbol of the game: {m}")
                counted[m.column] = (m.symbol, sum(game.rows) if m.cap is None else m.cap)
            elif m.kind != "bonus_lines":
                raise ValueError(f"the engine counts trigger, count and bonus_lines marks, not "
                                 f"{m.kind!r}")
        return tuple(counted), tuple(counted.values()), next(iter(lines), None), \
            any(m.kind == "trigger" for m in marks)

    def _joint(self, reel_set: str, columns, counts, line: Mark | None, trigger: bool
               ) -> MarkedTable:
        """The engine's joint table of ``counts`` (and the bonus lines of ``line``)."""
        symbols: dict[str, int] = {}  # one symbol counted once, at its largest cap
        for s, c in counts:
            symbols[s] = max(symbols.get(s, 0), c)
        line_trigger = None
        if line is not None:
            cap = self.game.n_lines if line.cap is None else line.cap
            line_trigger = (line.symbol, line.count, cap)
        weights, cycle, cpb = counts_table(
            self.game, tuple(symbols.items()), reel_set, self.level, self.model,
            line_trigger=line_trigger, progress=self.reporter(f"{reel_set} reels"))
        order = list(symbols)
        index = [order.index(s) for s, _ in counts]
        caps = [c for _, c in counts]
        out: dict[tuple[int, ...], int] = {}
        for key, w in weights.items():
            k = tuple(min(key[i], cap) for i, cap in zip(index, caps))
            if line is not None:
                k += (key[-2],)
            k += (key[-1],)
            out[k] = out.get(k, 0) + w
        names = tuple(columns) + (("bonus_lines",) if line is not None else ())
        if trigger and "trigger" not in names:  # a game without free spins: never triggers
            names = ("trigger",) + names
            out = {(0, *k): w for k, w in out.items()}
        trigger_cap = dict(zip(columns, caps)).get("trigger", 0)
        return MarkedTable(names, out, cycle, cpb, trigger_cap)
