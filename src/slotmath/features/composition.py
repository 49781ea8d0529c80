"""The composition of a game's declared features into its paid round, knowing no mechanic.

:class:`Composition` reads the game's features from the registry
(:func:`slotmath.features.registry.declared`) and composes them by kind
(:class:`~slotmath.features.base.Kind`), in this order:

1. the paid spin's table (:class:`~slotmath.features.base.Context`: the engine's, or the
   ``outcome`` feature's), counting every mark the round and spin features declare;
2. ``spin`` features folded into every spin they can follow (:func:`compose.fold`), exactly;
3. ``paid-spin`` features changing the paid spin's table (``paid(plain, marks)``);
4. ``round`` features mixed over the marks of the paid spin (:class:`compose.RoundLaw`);
5. ``stationary`` features wrapping the round's law of their driver's events, and an
   ``owner`` playing the whole round itself;
6. ``operation`` features acting on the round's distribution.

The RTP is ``E[round] + sum (stationary rtp - what it replaces) - sum operation effects``,
exact when no stationary feature is present and every round feature and operation is exact.
The components are the window's (``window``), each spin and round feature's mean, each
stationary feature's payout (its driver's entry net of what it replaced) and minus each
operation's effect, restated by the paid-spin features; they add up to the RTP, which the
tests hold against a path that shares none of this (brute force, simulation).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import cached_property

from slotmath.exact.distribution import NumericWinDistribution, WinDistribution
from slotmath.exact.spin_table import MarkedTable
from slotmath.features.base import Context, Feature, Kind, Mark
from slotmath.features.compose import RoundLaw, fold, fold_events
from slotmath.model.game import Game

__all__ = ["Composition"]

#: float64 rounding allowed per component of a numerical RTP
ROUNDOFF = 1e-15


class Composition:
    """The game's features at bet ``level``, composed (lazy: each part computed once).

    Examples
    --------
    >>> import slotmath
    >>> c = Composition(slotmath.load_game("data/games/tiny_lines.toml"))
    >>> [f.name for f in c.declared], c.rtp
    (['pays', 'free_spins'], Fraction(411, 448))
    """

    def __init__(self, game: Game, level: int = 1,
                 progress: Callable[[str, int, int], None] | None = None, mode=None,
                 tables: dict | None = None, means: bool = False):
        from slotmath.features.registry import declared

        self.game, self.level, self.progress, self.mode = game, level, progress, mode
        #: the RTP and its components only: a paid-spin feature may give its tables' means
        #: and marks' laws alone (:class:`~slotmath.exact.spin_table.MeanTable`), and any
        #: figure that reads more raises :class:`~slotmath.exact.spin_table.MeansOnly`
        self.means = means
        self.declared: tuple[Feature, ...] = declared(game)
        self._folded: dict = {}
        self._spin_feature_sets: dict = {}
        self._tables = {} if tables is None else tables  # the engine's tables, maybe shared

    @property
    def cost(self) -> Fraction:
        """What a paid round costs, in total bets (a game mode's ``cost``; 1 without one)."""
        return Fraction(1) if self.mode is None else Fraction(self.mode.cost)

    @property
    def paid_reels(self) -> str:
        """The reel set the paid spin plays (a game mode's ``reels``, else ``"base"``)."""
        return getattr(self.mode, "reels", None) or "base"

    def of_kind(self, *kinds: Kind) -> tuple[Feature, ...]:
        """The game's declared features of these kinds, in registry order."""
        return tuple(f for f in self.declared if f.kind in kinds)

    @cached_property
    def outcome(self) -> Feature | None:
        return next(iter(self.of_kind(Kind.OUTCOME)), None)

    @cached_property
    def context(self) -> Context:
        return Context(self.game, self.level, self.progress, self.outcome, self._tables,
                       paid_reels=self.paid_reels, means=self.means)

    @cached_property
    def window(self):
        """The paid spin's own pays (:class:`slotmath.features.pays.Window`), from the
        outcome feature when the game has one, or from the figures of the feature that plays
        the whole round when they hold one."""
        if self.outcome is None and self.owner is not None:
            held = getattr(self.stationary[self.owner.name], "window", None)
            if held is not None:
                return held
        owner = self.outcome or self.of_kind(Kind.PAYS)[0]
        return owner.window(self.context)

    # -- spins --------------------------------------------------------------------------
    def spin_features(self, coins: bool = True) -> tuple:
        """The spin features, built once (``coins=False``: each paying nothing but its
        events, the low end of an operation's bracket)."""
        if coins not in self._spin_feature_sets:
            built = (f.build(self.context, coins) for f in self.of_kind(Kind.SPIN))
            self._spin_feature_sets[coins] = tuple(b for b in built if b)
        return self._spin_feature_sets[coins]

    def _replaced(self, feature: Feature) -> bool:
        """Whether the outcome feature plays ``feature``'s rounds on its own tables."""
        return self.outcome is not None and feature.name in self.outcome.replaces

    @cached_property
    def marks(self) -> tuple[Mark, ...]:
        """Every mark the round and spin features need counted on a spin, once each."""
        out: list[Mark] = []
        for f in self.of_kind(Kind.ROUND):
            source = self.outcome if self._replaced(f) else f
            out += [m for m in source.marks(self.game) if m not in out]
        return tuple(out) + tuple(f.mark for f in self.spin_features())

    def spin(self, reel_set: str, multiplier: int, coins: bool = True) -> MarkedTable:
        """One spin on ``reel_set``, window wins x ``multiplier``, spin features folded in."""
        key = (reel_set, multiplier, coins)
        if key not in self._folded:
            table, means = self.context.table(reel_set, self.marks).scaled(multiplier), {}
            for f in self.spin_features(coins):
                table, means[f.name] = fold(table, f, multiplier)
            self._folded[key] = table, means
        return self._folded[key][0]

    def spin_feature_means(self, reel_set: str, multiplier: int) -> dict[str, Fraction]:
        """Each spin feature's exact mean win per spin on ``reel_set``."""
        self.spin(reel_set, multiplier)
        return self._folded[reel_set, multiplier, True][1]

    def events(self, driver: str):
        """``spin`` for a round whose credits count the events of spin feature ``driver``."""
        feature = next(f for f in self.spin_features() if f.name == driver)
        keep = tuple(m.column for m in self.marks if m != feature.mark)
        return lambda reel_set, multiplier: fold_events(
            self.context.table(reel_set, self.marks), feature).project(keep)

    # -- spins played inside a round feature -----------------------------------------------
    def inside(self, reel_set: str, multiplier: int, coins: bool = True) -> MarkedTable:
        """One spin played inside a round feature (a free spin) on ``reel_set``: the paid-spin
        features that also act there change its table (``inside(table, reel_set)``), its
        window wins are x ``multiplier``, the spin features are folded in, and so is every
        round feature that can start inside such a spin (``nested``), by its exact law (not
        multiplied)."""
        key = ("inside", reel_set, multiplier, coins)
        if key not in self._folded:
            changers = [f for f in self.paid_spin_features if getattr(f, "acts_inside", False)]
            nested = self.nested
            if not changers and not nested:
                self._folded[key] = (self.spin(reel_set, multiplier, coins),
                                     self._folded[reel_set, multiplier, coins][1])
                return self._folded[key][0]
            table = self.context.table(reel_set, self.marks)
            for f in changers:
                table = f.inside(table, reel_set)
            table, means = table.scaled(multiplier), {}
            for f in self.spin_features(coins):
                table, means[f.name] = fold(table, f, multiplier)
            for f in nested:
                table, means[f.name] = fold_nested(table, f)
            self._folded[key] = table, means
        return self._folded[key][0]

    def inside_means(self, reel_set: str, multiplier: int) -> dict[str, Fraction]:
        """Exact mean win per spin played inside a round feature on ``reel_set`` of each spin
        feature and nested round feature."""
        self.inside(reel_set, multiplier)
        return self._folded["inside", reel_set, multiplier, True][1]

    @cached_property
    def nested(self) -> tuple:
        """The built round features that can also start inside a round feature's spins
        (declared ``nested``), in registry order."""
        built = self._built_rounds()
        return tuple(built[f.name] for f in self._nesting() if built.get(f.name))

    def _nesting(self) -> tuple[Feature, ...]:
        return tuple(f for f in self.of_kind(Kind.ROUND)
                     if f.nested is not None and f.nested(self.game) and not self._replaced(f))

    # -- the paid spin and the round ------------------------------------------------------
    @cached_property
    def paid_spin_features(self) -> tuple:
        built = (f.build(self.context, self.marks) for f in self.of_kind(Kind.PAID_SPIN))
        return tuple(b for b in built if b)

    def paid(self, spin):
        """``spin`` with the paid spin (``(paid_reels, 1)``) changed by the paid-spin
        features."""
        if not self.paid_spin_features:
            return spin

        def paid(reel_set, multiplier):
            table = spin(reel_set, multiplier)
            if (reel_set, multiplier) == (self.paid_reels, 1):
                key = ("paid", id(table))  # the plain table is kept with it: ids stay unique
                if key not in self._folded:
                    mixed = table
                    for f in self.paid_spin_features:
                        mixed = f.paid(mixed, reel_set)
                    self._folded[key] = (table, mixed)
                table = self._folded[key][1]
            return table
        return paid

    @cached_property
    def paid_table(self) -> MarkedTable:
        """The paid spin as the round features read it: the paid reels' spin changed by the
        paid-spin features, or, for a mode that buys a feature, the declared law of the
        mark that starts it (no window win)."""
        start = getattr(self.mode, "buys", None)
        if not start:
            return self.paid(self.spin)(self.paid_reels, 1)
        from slotmath.features.registry import feature

        columns = self.spin(self.paid_reels, 1).marks  # the round features' columns
        mark = feature(start).marks(self.game)[0].column
        weights: dict = {}
        for count, w in self.mode.trigger:
            key = tuple(count if c == mark else 0 for c in columns) + (0,)
            weights[key] = weights.get(key, 0) + w
        return MarkedTable(columns, weights, sum(weights.values()),
                           self.context.model.credits_per_bet)

    def _built_rounds(self, spin=None) -> dict:
        """The round features built on ``spin`` (None: the game's own spins: the paid spin,
        and :meth:`inside` for the spins played inside them), by name, in registry order.
        The nested ones are built first (the others' spins fold them in)."""
        if spin is None and "rounds" in self._folded:
            return self._folded["rounds"]
        spins = _Spins(self, spin)
        first = self._nesting() if spin is None else ()
        built: dict = {}
        if spin is None:  # what is built so far: the nested features, for inside()
            self._folded["rounds"] = built
        for f in first + tuple(f for f in self.of_kind(Kind.ROUND) if f not in first):
            build = self.outcome.build_round if self._replaced(f) else f.build
            built[f.name] = build(self.game, spins)
        out = {f.name: built[f.name] for f in self.of_kind(Kind.ROUND) if built[f.name]}
        if spin is None:
            self._folded["rounds"] = out
        return out

    def round_of(self, spin=None) -> RoundLaw:
        """The round whose spin on a reel set is ``spin(reel_set, multiplier)`` (None: the
        game's own spins)."""
        built = self._built_rounds(spin)
        paid = self.paid_table if spin is None else self.paid(spin)(self.paid_reels, 1)
        return RoundLaw(paid, tuple(built.values()))

    @cached_property
    def owner(self) -> Feature | None:
        """The feature that plays the whole paid round (kind ``owner``), or None."""
        return next(iter(self.of_kind(Kind.OWNER)), None)

    @cached_property
    def round(self) -> RoundLaw:
        """The paid round (with stationary features: every driver event paying its own
        prize; before any operation)."""
        if self.owner is not None:
            raise NotImplementedError(
                f"{self.game.name}: {self.owner.name} plays the whole paid round (persistent-"
                f"state): its figures are analysis.features[{self.owner.name!r}]")
        return self.round_of()

    @cached_property
    def base_table(self) -> MarkedTable:
        """Exact (marks..., credits) weights of the paid spin's window (no spin feature); for
        a game whose owner plays the round, the owner's when its figures hold one (raising
        NotImplementedError, said so, when they hold None: e.g. a simulated round)."""
        if self.owner is not None:
            figures = self.stationary[self.owner.name]
            if hasattr(figures, "base_table"):
                if figures.base_table is None:
                    raise NotImplementedError(
                        f"{self.game.name}: the paid spin's full cycle is not computed: "
                        f"{self.owner.title.lower()} analysed by simulation")
                return figures.base_table
        return self.context.table(self.paid_reels, self.marks)

    @cached_property
    def stationary_built(self) -> dict:
        kinds = (Kind.STATIONARY, Kind.OWNER)
        return {f.name: f.build(self.game, self.level) for f in self.of_kind(*kinds)}

    @cached_property
    def carried(self) -> dict:
        """The stationary features driven by a spin feature's events (a state carried between
        rounds beside the round: jackpot pools), built, by name; an owner is not one."""
        return {name: f for name, f in self.stationary_built.items() if f.driven_by is not None}

    @property
    def round_features(self) -> tuple:
        """The round features built into the round (none where an owner plays it)."""
        return () if self.owner is not None else self.round.features

    @cached_property
    def stationary(self) -> dict:
        """Each stationary (and owner) feature's long-run figures, by name."""
        return {name: f.analyze(None if f.driven_by is None  # it owns the round
                                else self.round_of(self.events(f.driven_by)))
                for name, f in self.stationary_built.items()}

    @cached_property
    def coin_probability(self) -> float:
        """Chance that a driver event pays its own prize (not a stationary feature's)."""
        out = 1.0
        for figures in self.stationary.values():
            out *= getattr(figures, "coin_probability", 1.0)
        return out

    def distribution_of(self, round_law: RoundLaw) -> WinDistribution | NumericWinDistribution:
        """Exact when no round feature can follow the paid spin, numerical otherwise."""
        if not round_law.features:
            base = round_law.base
            return WinDistribution.from_mapping(base.credits_weights(), base.credits_per_bet)
        return round_law.distribution()

    @cached_property
    def distribution(self) -> WinDistribution | NumericWinDistribution:
        if self.owner is not None:
            figures = self.stationary[self.owner.name]
            if getattr(figures, "distribution", None) is None:
                raise NotImplementedError(getattr(figures, "no_distribution", None) or (
                    f"the round distribution is not computed for a game whose "
                    f"{self.owner.title.lower()} plays the whole round (persistent-state): "
                    f"its figures are analysis.features[{self.owner.name!r}]"))
            return figures.distribution
        return self.distribution_of(self.round)

    @cached_property
    def operations(self) -> dict:
        """Each operation's figures (``effect``, ``error``, ``exact``), by name."""
        return {f.name: f.build(self) for f in self.of_kind(Kind.OPERATION)}

    # -- the RTP ----------------------------------------------------------------------
    @cached_property
    def exact(self) -> bool:
        """Whether the RTP and every component are exact fractions (an owner's figures say
        so by ``round_exact``; without it, an owner's are not)."""
        if self.owner is not None:
            return bool(getattr(self.stationary[self.owner.name], "round_exact", False))
        return (not self.stationary_built and all(op.exact for op in self.operations.values())
                and all(getattr(f, "exact", True) for f in self.round.features))

    @cached_property
    def rtp(self) -> Fraction | float:
        """The RTP per amount wagered (a mode's: its round's mean over its ``cost``)."""
        if self.owner is not None:
            return self.stationary[self.owner.name].rtp
        effect = sum((op.effect for op in self.operations.values()), Fraction(0))
        if self.exact:
            return (self.round.mean - effect) / self.cost
        long_run = sum(f.rtp - f.replaced for f in self.stationary.values())
        return (float(self.round.mean) + long_run - float(effect)) / float(self.cost)

    @cached_property
    def rtp_error(self) -> float:
        if self.owner is not None:
            return 0.0 if self.exact else self.stationary[self.owner.name].error
        if self.exact:
            return 0.0
        error = sum(f.error for f in self.stationary.values())
        error += sum(op.error for op in self.operations.values())
        error += sum(getattr(self.results[f.name], "error", 0.0)
                     for f in self.round.features if not getattr(f, "exact", True))
        return error / float(self.cost) + ROUNDOFF * len(self.components)

    @property
    def variance(self) -> Fraction | float:
        """Variance of the round's return per amount wagered (of the round win over the
        ``cost``): exact when every round feature is, else a float."""
        v = self.round.variance / self.cost**2
        return v if all(getattr(f, "exact", True) for f in self.round.features) else float(v)

    @cached_property
    def components(self) -> dict[str, Fraction | float]:
        """RTP by source (see the module notes); they add up to :attr:`rtp`. A round feature
        started inside another's spins (nested) has its starts there added to its own."""
        if self.owner is not None:
            return dict(self.stationary[self.owner.name].components)
        bought = bool(getattr(self.mode, "buys", None))  # no paid spin, no window win
        out: dict[str, Fraction | float] = dict(self.window.components)
        if bought:
            out = dict.fromkeys(out, Fraction(0))
        parts = {} if bought else dict(self.spin_feature_means(self.paid_reels, 1))
        for f in self.round.features:  # what is played inside it is the others', not its
            inside = ({} if f.reels is None
                      else self.inside_means(f.reels, f.window_multiplier))
            spins = self.round.feature_spins(f.name)
            out[f.name] = self.round.feature_mean(f.name) - spins * sum(inside.values())
            if not getattr(f, "exact", True):  # a float64 chain: its mean is a float
                out[f.name] = float(out[f.name])
            for name, mean in inside.items():
                parts[name] = parts.get(name, Fraction(0)) + spins * mean
        for name, part in parts.items():
            out[name] = out.get(name, Fraction(0)) + part
        for name, f in self.stationary_built.items():  # its hits replace its driver's prizes
            figures = self.stationary[name]
            out[f.driven_by] = float(out[f.driven_by]) - figures.replaced
            out[name] = figures.rtp
        for name, op in self.operations.items():
            out[name] = 0 - op.effect  # (0 - x: no "-0.0" for a float 0)
        for f in () if bought else self.paid_spin_features:  # the plain game's + each one's
            out = f.components(out, self.round, self.spin(self.paid_reels, 1))
        if self.cost != 1:
            out = {k: v / (self.cost if isinstance(v, (int, Fraction)) else float(self.cost))
                   for k, v in out.items()}
        return out

    # -- each feature's figures -----------------------------------------------------------
    @cached_property
    def results(self) -> dict:
        """``name -> figures`` of every declared feature (computed on first use)."""
        return _Results(self)


class _Spins:
    """What a round feature's ``build`` receives: ``spins(reel_set, multiplier)`` is a spin
    played inside it (:meth:`Composition.inside`, or the given ``spin``), and ``paid`` the
    paid spin that starts it (:attr:`Composition.paid_table`)."""

    def __init__(self, composition: Composition, spin=None):
        self._composition, self._spin = composition, spin

    def __call__(self, reel_set: str, multiplier: int) -> MarkedTable:
        if self._spin is not None:
            return self._spin(reel_set, multiplier)
        return self._composition.inside(reel_set, multiplier)

    @property
    def composition(self):
        """The composition whose own spins these are (a feature whose engine enumerates the
        reels itself reads its level and pay model there); None for a given ``spin`` that is
        no composition's."""
        if self._spin is None:
            return self._composition
        return getattr(self._spin, "__self__", None)

    @property
    def paid(self) -> MarkedTable:
        c = self._composition
        return c.paid_table if self._spin is None else c.paid(self._spin)(c.paid_reels, 1)


def fold_nested(table: MarkedTable, feature) -> tuple[MarkedTable, Fraction]:
    """``table`` with round feature ``feature`` (started by its mark in this spin, e.g. a
    hold & win inside a free spin) folded in by its exact win law (``exact_law(key)``:
    win in total bets -> probability), not multiplied; and its mean per spin, in total bets.
    The table's credits are refined where a win is not a whole number of them.

    Examples
    --------
    >>> from slotmath.features.base import Mark
    >>> class Prize:                  # a mark of 1 starts a prize of 1/2 or 3/2 bets
    ...     mark = Mark("count", "C")
    ...     def start(self, v):
    ...         return v if v >= 1 else None
    ...     def exact_law(self, key):
    ...         return {Fraction(1, 2): Fraction(1, 2), Fraction(3, 2): Fraction(1, 2)}
    >>> t = MarkedTable(("count:C",), {(0, 0): 3, (1, 2): 1}, 4, 2)
    >>> folded, mean = fold_nested(t, Prize())
    >>> folded.weights, folded.credits_per_bet, mean
    ({(0,): 6, (3,): 1, (5,): 1}, 2, Fraction(1, 4))
    """
    from slotmath.exact.distribution import WinDistribution
    from slotmath.features.compose import column

    i = table.mark_index(column(feature.mark))
    starts = {v: feature.start(v) for v in {key[i] for key in table.weights}}
    laws = {k: feature.exact_law(k) for k in set(starts.values()) if k is not None}
    refine = math.lcm(1, *(Fraction(x * table.credits_per_bet).denominator
                           for law in laws.values() for x in law))
    if refine > 1:
        table = MarkedTable(table.marks, {(*k[:-1], k[-1] * refine): w
                                          for k, w in table.weights.items()},
                            table.cycle, table.credits_per_bet * refine, table.trigger_cap)
    cpb = table.credits_per_bet

    def distribution(law):
        scale = math.lcm(*(p.denominator for p in law.values()))
        return WinDistribution.from_mapping(
            {int(x * cpb): int(p * scale) for x, p in law.items()}, cpb)

    dists = {k: distribution(law) for k, law in laws.items()}
    none = WinDistribution.from_mapping({0: 1}, cpb)

    class _AsSpinFeature:
        mark = feature.mark

        def law(self, value, multiplier):
            k = starts[value]
            return none if k is None else dists[k]

    return fold(table, _AsSpinFeature(), 1)


class _Results(dict):
    """A mapping of feature name to its figures, each computed when first read."""

    def __init__(self, composition: Composition):
        super().__init__()
        self._composition = composition
        self._features = {f.name: f for f in composition.declared}

    def __missing__(self, name: str):
        f = self._features.get(name)
        if f is None:
            raise KeyError(f"{self._composition.game.name} has no feature {name!r}; it has "
                           f"{sorted(self._features)}")
        value = f.result(self._composition) if f.result is not None else None
        self[name] = value
        return value

    def __contains__(self, name) -> bool:
        return name in self._features

    def __iter__(self):
        return iter(self._features)

    def __len__(self) -> int:
        return len(self._features)

    def keys(self):
        return self._features.keys()

    def items(self):
        return [(name, self[name]) for name in self._features]

    def values(self):
        return [self[name] for name in self._features]

    def get(self, name, default=None):
        return self[name] if name in self._features else default
