"""The whole analysis of a game at one bet level: the composition of its features.

The paid spin's exact outcome table (:class:`slotmath.features.base.Context`) counts each
feature's mark. Spin features (the bonus wheel) are folded into every spin they can follow;
round features (free spins) are mixed over the marks that start them
(:class:`slotmath.features.compose.RoundLaw`); stationary features (jackpots) wrap the round's
law of their driving events; the max-win cap is an operation on the round's distribution
(:mod:`slotmath.features.cap`). The PAR tables, text and JSON are in :mod:`slotmath.report`.

What is exact and what is numerical
-----------------------------------
Exact fractions: the RTP and every component of a game without jackpots (and without a cap
on a free-spins game), the hit frequency, the round's variance, trigger probability, expected
spins and win per feature, the paid spin's distribution and top award, all pay-table hit
counts. Numerical (float64, with stated bounds): the whole-round distribution of a game with
free spins and what is read off it, the jackpots' figures and the cap of a free-spins game.

With jackpots, :attr:`Analysis.round` is the *coin round*: every wheel spin pays coins, no
cap. A jackpot hit replaces a coin prize, so the wheel's coin component loses ``coin prize x
hits per round``, and the jackpots add their long-run payout. The cap applies to a round's
coin win; jackpots are paid from their pools outside it.

:attr:`Analysis.rtp` is computed from the round's law (``E[round] - coin loss + jackpots -
cap``); :attr:`Analysis.components` come from the direct method and each feature's own mean,
a second path that the tests hold equal to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from slotmath.exact.direct import DirectResult, direct_method
from slotmath.exact.distribution import NumericWinDistribution, WinDistribution
from slotmath.exact.spin_table import MarkedTable, SpinTable
from slotmath.features import bonus_wheel, cascades, conveyor, free_spins, hold_and_win, jackpots
from slotmath.features import modifiers as paid_spin_modifiers
from slotmath.features.base import Context, Mark
from slotmath.features.bonus_wheel import wheel_outcomes
from slotmath.features.cap import CapFigures, bracketed, cap_effect
from slotmath.features.compose import RoundLaw, fold, fold_events
from slotmath.features.free_spins import FreeSpinsSummary, summary
from slotmath.features.jackpots import JackpotFigures
from slotmath.model.game import Game
from slotmath.stats import par

__all__ = ["Analysis", "analyze"]

#: The mechanics a game file can ask for, by kind; each builder returns None when the game has
#: none. A new mechanic of an existing kind is one more entry here and a module in features/.
SPIN_FEATURES = (bonus_wheel.spin_feature,)  # (context, coins) -> SpinFeature | None
#: (game, spin) -> RoundFeature | None; game -> the marks those round features need counted
ROUND_FEATURES = (free_spins.round_feature, cascades.round_feature, hold_and_win.round_feature)
ROUND_MARKS = (free_spins.marks, cascades.marks, hold_and_win.marks)
STATIONARY_FEATURES = (jackpots.stationary_feature,  # (game, level) -> feature | None
                       conveyor.stationary_feature)
#: (context) -> a feature that changes the paid spin's table before the round features read
#: it (``paid(plain table) -> table``, ``components(...)``), or None: the base-game modifiers.
PAID_SPIN_FEATURES = (paid_spin_modifiers.paid_spin_feature,)
ALWAYS_REPORTED = ("free_spins",)  # components listed (as 0) even when the game has none


@dataclass(frozen=True, eq=False)
class Analysis:
    """Analysis of ``game`` at bet ``level`` (lazy: each figure is computed on first use).

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
    >>> a.rtp == a.components["lines"] + a.components["scatter"] + a.components["free_spins"]
    True
    """

    game: Game
    level: int = 1
    progress: Callable[[str, int, int], None] | None = field(default=None, repr=False)

    @cached_property
    def context(self) -> Context:
        return Context(self.game, self.level, self.progress)

    @cached_property
    def direct(self) -> DirectResult:
        return direct_method(self.game, "base", self.level, self.context.model)

    @property
    def cascade_law(self):
        """The paid spin's exact cascade law (:class:`slotmath.exact.cascades.CascadeLaw`;
        None for a game without cascades)."""
        if self.game.cascades is None:
            return None
        self.context.table("base", ())
        return self.context.cascade_laws["base"]

    @cached_property
    def window_components(self) -> dict[str, Fraction]:
        """The paid spin's own RTP by source (a cascading spin's from its chain)."""
        if self.game.cascades is not None:
            return cascades.window_components(self.context)
        return self.direct.components

    # -- the features and their composition -------------------------------------------------
    def spin_features(self, coins: bool = True) -> tuple:
        """The spin features (``coins=False``: each paying nothing but its events), built once
        per analysis so their laws are computed once."""
        if coins not in self._spin_feature_sets:
            built = (build(self.context, coins) for build in SPIN_FEATURES)
            self._spin_feature_sets[coins] = tuple(f for f in built if f)
        return self._spin_feature_sets[coins]

    @cached_property
    def _spin_feature_sets(self) -> dict[bool, tuple]:
        return {}

    @cached_property
    def stationary_features(self) -> tuple:
        return tuple(f for f in (b(self.game, self.level) for b in STATIONARY_FEATURES) if f)

    @cached_property
    def _marks(self) -> tuple[Mark, ...]:
        marks = tuple(m for of in ROUND_MARKS for m in of(self.game))
        return marks + tuple(f.mark for f in self.spin_features())

    def _spin(self, reel_set: str, multiplier: int, coins: bool = True) -> MarkedTable:
        """One spin on ``reel_set``, window wins x ``multiplier``, spin features folded in."""
        key = (reel_set, multiplier, coins)
        if key not in self._folded:
            table, means = self.context.table(reel_set, self._marks).scaled(multiplier), {}
            for f in self.spin_features(coins):
                table, means[f.name] = fold(table, f, multiplier)
            self._folded[key] = table, means
        return self._folded[key][0]

    @cached_property
    def _folded(self) -> dict:
        return {}

    def _spin_feature_means(self, reel_set: str, multiplier: int) -> dict[str, Fraction]:
        """Each spin feature's exact mean win per spin on ``reel_set``."""
        self._spin(reel_set, multiplier)
        return self._folded[reel_set, multiplier, True][1]

    def _events(self, driver: str):
        """``spin`` for a round counting the events of spin feature ``driver``."""
        feature = next(f for f in self.spin_features() if f.name == driver)
        keep = tuple(m.kind for m in self._marks if m != feature.mark)
        return lambda reel_set, multiplier: fold_events(
            self.context.table(reel_set, self._marks), feature).project(keep)

    def _round_of(self, spin) -> RoundLaw:
        """The round whose spin on a reel set is ``spin(reel_set, multiplier)``."""
        spin = self._paid_spin(spin)
        features = (build(self.game, spin) for build in ROUND_FEATURES)
        return RoundLaw(spin("base", 1), tuple(f for f in features if f))

    @cached_property
    def paid_spin_features(self) -> tuple:
        """The features that change the paid spin's table (the modifiers), built once."""
        return tuple(f for f in (b(self.context) for b in PAID_SPIN_FEATURES) if f)

    def _paid_spin(self, spin):
        """``spin`` with the paid spin (``("base", 1)``) changed by the paid-spin features
        (a game with them plays no other spins: see rules.check_modifiers_in_game)."""
        if not self.paid_spin_features:
            return spin

        def paid(reel_set, multiplier):
            table = spin(reel_set, multiplier)
            if (reel_set, multiplier) == ("base", 1):
                key = ("paid", id(table))  # the plain table is kept with it: ids stay unique
                if key not in self._folded:
                    mixed = table
                    for f in self.paid_spin_features:
                        mixed = f.paid(mixed)
                    self._folded[key] = (table, mixed)
                table = self._folded[key][1]
            return table
        return paid

    @cached_property
    def _owner(self):
        """The stationary feature that plays the whole paid round (a persistent-state game:
        the conveyor), or None."""
        return next((f for f in self.stationary_features if f.driven_by is None), None)

    @cached_property
    def round(self) -> RoundLaw:
        """The paid round (with jackpots: every wheel spin paying coins; no cap).

        A persistent-state game's round depends on its state: its law (and so the hit
        frequency, SD, distribution and top award) is not computed, and asking raises
        NotImplementedError rather than describe the strips without the state."""
        if self._owner is not None:
            raise NotImplementedError(
                f"{self.game.name}: the round distribution, hit frequency, SD and top award of "
                f"a persistent-state game ({self._owner.name}) are not computed; its RTP "
                f"figures are: Analysis.rtp, .components, .stationary[{self._owner.name!r}]")
        return self._round_of(self._spin)

    @cached_property
    def base_table(self) -> SpinTable:
        """Exact (trigger count, credits) weights of the paid spin's window (no wheel)."""
        return self.context.table("base", self._marks).spin_table()

    @cached_property
    def stationary(self) -> dict:
        """Each stationary feature's long-run figures, by name."""
        return {f.name: f.analyze(None if f.driven_by is None  # it owns the round
                                  else self._round_of(self._events(f.driven_by)))
                for f in self.stationary_features}

    @property
    def jackpots(self) -> JackpotFigures | None:
        """The progressive jackpots' figures at this level (None without jackpots)."""
        return self.stationary.get("jackpots")

    @cached_property
    def wheel_spins(self) -> dict[str, Fraction]:
        """Exact expected bonus-wheel spins per spin, on the base and the free-spin reels."""
        if self.game.bonus_wheel is None:
            return {}
        spin = self._events("bonus_wheel")
        sets = {"base": ("base", 1)} | {f.name: (f.reels, 1) for f in self.round.features
                                          if f.reels is not None}
        return {label: spin(*where).mean_bets for label, where in sets.items()}

    def wheel_outcomes(self, pools: dict[str, float] | None = None) -> list[dict]:
        """One bonus-wheel spin as a distribution over its divisions at this bet level
        (:func:`slotmath.features.bonus_wheel.wheel_outcomes`): each jackpot division at its
        hit law at ``pools`` (currency by jackpot), or else at its stationary chance.

        Examples
        --------
        >>> import slotmath
        >>> a = slotmath.analyze(slotmath.load_game("data/games/gold_money_frog.toml"), 4)
        >>> rows = a.wheel_outcomes({"MINOR": 100, "MAJOR": 900, "SUPER": 9000})
        >>> [(r["division"], round(r["probability"], 6)) for r in rows[-3:]]
        [('MINOR', 0.079542), ('MAJOR', 0.005727), ('SUPER', 0.000315)]
        """
        if self.game.bonus_wheel is None:
            raise ValueError(f"{self.game.name} has no bonus wheel")
        if pools is not None:
            chances = jackpots.Jackpots(self.game, self.level).chances_at(pools)
        else:
            chances = {s.name: self.jackpots.chance_per_wheel_spin(s.name)
                       for s in self.game.jackpots}
        return wheel_outcomes(self.game.bonus_wheel, chances)

    @cached_property
    def cap(self) -> CapFigures | None:
        """The max-win cap's figures at this level (None without a cap)."""
        coins = self.game.cap_coins(self.level)
        if coins is None:
            return None
        bets = coins / self.game.total_bet(self.level)
        figures = cap_effect(self.distribution, coins, bets)
        if not self.game.jackpots:
            return figures
        no_coins = self._round_of(lambda reel_set, m: self._spin(reel_set, m, coins=False))
        low = cap_effect(self._distribution_of(no_coins), coins, bets)
        return bracketed(figures, low, self.jackpots.coin_probability)

    # -- headline figures -----------------------------------------------------------------
    @property
    def exact(self) -> bool:
        """Whether :attr:`rtp` and every component are exact fractions."""
        return (not self.stationary_features and (self.cap is None or self.cap.exact)
                and all(getattr(f, "exact", True) for f in self.round.features))

    @cached_property
    def rtp(self) -> Fraction | float:
        """RTP of a paid round (features, jackpots and cap included), in total bets: exact
        unless jackpots or a cap on a free-spins game make it numerical (:attr:`rtp_error`)."""
        cap = 0 if self.cap is None else self.cap.effect
        if self.exact:
            return self.round.mean - cap
        if self._owner is not None:  # it plays the whole paid round (the conveyor)
            return self.stationary[self._owner.name].rtp
        long_run = sum(f.rtp - f.replaced for f in self.stationary.values())
        return float(self.round.mean) + long_run - float(cap)

    @property
    def rtp_float(self) -> float:
        return float(self.rtp)

    @property
    def rtp_error(self) -> float:
        """Absolute error bound of :attr:`rtp` (0 when exact)."""
        if self.exact:
            return 0.0
        if self._owner is not None:
            return self.stationary[self._owner.name].error
        error = sum(f.error for f in self.stationary.values())
        if self.cap is not None:
            error += self.cap.error
        if self.hold_and_win is not None:
            error += self.hold_and_win.error
        return error + 1e-15 * len(self.components)

    @cached_property
    def components(self) -> dict[str, Fraction | float]:
        """RTP by source: "lines" or "ways" and "scatter" (the paid spin's window), then one
        entry per feature: "free_spins" (the feature, its wheel spins excluded),
        "bonus_wheel" (its coin prizes, base game and free spins), "jackpots" (the pools'
        payout; the wheel's entry is then net of the spins that hit one) and "max_win_cap"
        (minus the RTP it removes)."""
        if self._owner is not None:  # it plays the whole paid round: its components are all
            return dict(self.stationary[self._owner.name].components)
        out: dict[str, Fraction | float] = dict(self.window_components)
        out |= {name: Fraction(0) for name in ALWAYS_REPORTED}
        spin_parts = dict(self._spin_feature_means("base", 1))
        for f in self.round.features:  # spin features played inside it are theirs, not its
            inside = ({} if f.reels is None
                      else self._spin_feature_means(f.reels, f.window_multiplier))
            spins = self.round.feature_spins(f.name)
            out[f.name] = self.round.feature_mean(f.name) - spins * sum(inside.values())
            if not getattr(f, "exact", True):  # a float64 chain: its mean is a float
                out[f.name] = float(out[f.name])
            for name, mean in inside.items():
                spin_parts[name] += spins * mean
        out |= spin_parts
        for f in self.stationary_features:  # its hits replace what its driver would pay
            figures = self.stationary[f.name]
            out[f.driven_by] = float(out[f.driven_by]) - figures.replaced
            out[f.name] = figures.rtp
        if self.cap is not None:
            out["max_win_cap"] = 0 - self.cap.effect  # (0 - x: no "-0.0" for a float 0)
        for f in self.paid_spin_features:  # e.g. the plain game's parts + each modifier's
            out = f.components(out, self.round, self._spin("base", 1))
        return out

    @cached_property
    def paid_spin_errors(self) -> dict[str, float]:
        """Error bounds of the components the paid-spin features restate (numerical ones
        only; :meth:`slotmath.features.modifiers.PaidSpinModifiers.errors`)."""
        out: dict = {}
        for f in self.paid_spin_features:
            out |= f.errors(self.round, self._spin("base", 1))
        return out

    @cached_property
    def modifiers(self) -> dict:
        """Each base-game modifier's figures by name
        (:class:`slotmath.features.modifiers.ModifierShare`; empty without modifiers)."""
        out: dict = {}
        for f in self.paid_spin_features:
            out |= f.shares(self.round, self._spin("base", 1))
        return out

    @property
    def hit_frequency(self):
        """Exact P(a paid round wins anything), features included."""
        return self.round.hit_frequency

    @property
    def base_hit_frequency(self) -> Fraction:
        """Exact P(the paid spin itself pays), its bonus wheel included."""
        return Fraction(self.round.base.hit_weight, self.round.base.cycle)

    @property
    def variance(self) -> Fraction | float:
        """Variance of the round win, in total bets squared: exact when every round feature
        is; else a float (a float64 second moment written as a fraction is no exact figure,
        and its last digits move with the summation order)."""
        if all(getattr(f, "exact", True) for f in self.round.features):
            return self.round.variance
        return float(self.round.variance)

    @property
    def std(self) -> float:
        """SD of the round win in total bets (with jackpots: of the coin round)."""
        return self.round.std

    @cached_property
    def std_total(self) -> float:
        """SD of the round's whole return in total bets, jackpots included (approximate with
        jackpots: :meth:`slotmath.features.jackpots.JackpotFigures.total_std`)."""
        return self.std if self.jackpots is None else self.jackpots.total_std(self.variance)

    def volatility_index(self, confidence: float = 0.90) -> float:
        """Normal quantile x SD of the round's whole return (jackpots included)."""
        return par.normal_quantile(confidence) * self.std_total

    def confidence_interval(self, spins: int, confidence: float = 0.95) -> tuple[float, float]:
        """Where the RTP measured over ``spins`` rounds lies with probability ``confidence``
        (normal approximation with :attr:`std_total`; with jackpots, rounds are not independent
        and these are a guide only)."""
        half = par.normal_quantile(confidence) * self.std_total / spins**0.5
        return self.rtp_float - half, self.rtp_float + half

    # -- distributions --------------------------------------------------------------------
    @cached_property
    def base_distribution(self) -> WinDistribution:
        """Exact distribution of the paid spin's own win (its bonus wheel included)."""
        base = self.round.base
        return WinDistribution.from_mapping(base.credits_weights(), base.credits_per_bet)

    def _distribution_of(self, round_law: RoundLaw) -> WinDistribution | NumericWinDistribution:
        """Exact when no round feature can follow the paid spin, numerical otherwise."""
        if not round_law.features:
            base = round_law.base
            return WinDistribution.from_mapping(base.credits_weights(), base.credits_per_bet)
        return round_law.distribution()

    @cached_property
    def distribution(self) -> WinDistribution | NumericWinDistribution:
        """The round's win distribution: exact without round features, numerical with them."""
        return self._distribution_of(self.round)

    @property
    def distribution_exact(self) -> bool:
        """Whether :attr:`distribution` is exact (no round feature can follow the paid spin)."""
        return not self.round.features

    @cached_property
    def free_spins(self) -> FreeSpinsSummary | None:
        """Trigger, spins and win of the free-spins feature (None without one)."""
        feature = next((f for f in self.round.features if f.name == "free_spins"), None)
        return None if feature is None else summary(self.round, feature)

    @cached_property
    def hold_and_win(self) -> hold_and_win.HoldAndWinSummary | None:
        """Trigger, expected win, respins, fill and booster figures of the hold & win
        (None without one)."""
        feature = next((f for f in self.round.features if f.name == "hold_and_win"), None)
        return None if feature is None else hold_and_win.summary(self.round, feature)

    @cached_property
    def top_award(self) -> par.TopAward:
        """The top award of the paid spin (exact), as a multiple of the bet and "1 in N".

        With free spins the round's own maximum is unbounded in principle (retriggers) or
        astronomically rare; the PAR convention of the top single-spin award is used.
        """
        return par.top_award(self.base_distribution)

    @cached_property
    def win_sizes(self) -> tuple[par.WinSizeRow, ...]:
        return par.win_size_table(self.distribution)


def analyze(game: Game, level: int = 1,
            progress: Callable[[str, int, int], None] | None = None) -> Analysis:
    """The analysis of a game at one bet level.

    Parameters
    ----------
    game : Game
    level : int
        Bet level (one of ``game.bet_levels``).
    progress : callable, optional
        ``progress(stage, done, total)`` hears how far each full-cycle enumeration has come
        (the CLI's ``--progress`` bar); it costs the enumeration about 30%.

    Examples
    --------
    Tiny Lines is small enough to check by hand (512 stop combinations; its file's header
    works the RTP out):

    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
    >>> a.rtp, a.context.table("base", ()).cycle
    (Fraction(411, 448), 512)
    """
    game.check_level(level)
    return Analysis(game, level, progress)
