"""The whole analysis of a game at one bet level: its declared features, composed.

The game's features are read from the registry (:mod:`slotmath.features.registry`) and
composed by kind (:class:`slotmath.features.composition.Composition`); this module adds the
PAR statistics of the composed round. Each feature's own figures are reached one way:
``analysis.features[name]``. The PAR tables, text and JSON are in :mod:`slotmath.report`.

What is exact and what is numerical
-----------------------------------
Exact fractions: the RTP and every component of a game whose features are all exact, the
hit frequency, the round's variance, every feature's trigger and mean figures, the paid
spin's distribution and top award, all pay-table hit counts. Numerical (float64, with
stated bounds): the whole-round distribution of a game with round features and what is read
off it, the figures of stationary features (a state carried between rounds) and of an
operation on a numerical distribution, and a round feature solved in float64.

With stationary features, :attr:`Analysis.round` is the round with every driver event paying
its own prize and no operation; :attr:`Analysis.rtp` is ``E[round] + sum (stationary payout -
what it replaced) - operations``. In a game mode the RTP, SD and components are per amount
the mode costs (:attr:`Analysis.modes`).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cached_property

from slotmath.exact.distribution import NumericWinDistribution, WinDistribution
from slotmath.features.base import Feature
from slotmath.features.compose import RoundLaw
from slotmath.features.composition import Composition
from slotmath.model.game import Game
from slotmath.stats import par
from slotmath.stats.estimate import root

__all__ = ["Analysis", "analyze"]


class Analysis:
    """Analysis of ``game`` at bet ``level`` (lazy: each figure is computed on first use).

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
    >>> a.rtp == a.components["lines"] + a.components["scatter"] + a.components["free_spins"]
    True
    >>> list(a.features), a.features["pays"].cycle
    (['pays', 'free_spins'], 512)
    """

    def __init__(self, game: Game, level: int = 1,
                 progress: Callable[[str, int, int], None] | None = None,
                 mode: str | None = None, _tables: dict | None = None):
        self.game, self.level, self.progress, self.mode = game, level, progress, mode
        self._tables = {} if _tables is None else _tables  # shared with the other modes

    def __repr__(self) -> str:
        mode = f", mode={self.mode!r}" if self.mode else ""
        return f"Analysis({self.game.name!r}, level={self.level}{mode})"

    @cached_property
    def composition(self) -> Composition:
        mode = None if self.mode is None else self.game.mode(self.mode)
        return Composition(self.game, self.level, self.progress, mode, self._tables)

    @cached_property
    def modes(self) -> dict[str, Analysis]:
        """The analysis of each game mode (``[modes.NAME]``) at this level, by name, sharing
        this one's enumerations; money per amount wagered is per the mode's cost."""
        return {m.name: Analysis(self.game, self.level, self.progress, m.name, self._tables)
                for m in self.game.modes}

    context = property(lambda self: self.composition.context, doc="The features' Context.")

    declared = property(lambda self: self.composition.declared,
                        doc="The game's features (declarations), in registry order.")

    @property
    def features(self):
        """Each declared feature's figures by name (``analysis.features["free_spins"]``)."""
        return self.composition.results

    @property
    def round(self) -> RoundLaw:
        """The paid round (with stationary features: every driver event paying its own prize;
        no operation). A game whose owner plays the whole round has its figures there."""
        return self.composition.round

    @property
    def _owned(self):
        """The figures of the feature that plays the whole round, or None."""
        owner = self.composition.owner
        return None if owner is None else _Owned(owner, self.composition.stationary[owner.name])

    base_table = property(lambda self: self.composition.base_table, doc="Exact (marks..., "
                          "credits) weights of the paid spin's window (no spin feature).")

    # -- headline figures -----------------------------------------------------------------
    @property
    def exact(self) -> bool:
        """Whether :attr:`rtp` and every component are exact fractions."""
        return self.composition.exact

    @property
    def rtp(self) -> Fraction | float:
        """RTP of a paid round (every feature included), in total bets: exact unless a
        numerical feature makes it a float (:attr:`rtp_error`)."""
        return self.composition.rtp

    rtp_float = property(lambda self: float(self.rtp))

    @property
    def rtp_error(self) -> float:
        """Absolute error bound of :attr:`rtp` (0 when exact)."""
        return self.composition.rtp_error

    @property
    def components(self) -> dict[str, Fraction | float]:
        """RTP by source: the window's ("lines" or "ways", "scatter", ...), then one entry per
        feature, by its name; they add up to the RTP."""
        return self.composition.components

    @property
    def hit_frequency(self):
        """Exact P(a paid round wins anything), features included."""
        return self.round.hit_frequency if self._owned is None else self._owned.hit_frequency

    @property
    def base_hit_frequency(self) -> Fraction:
        """Exact P(the paid spin itself pays), its spin features included."""
        if self._owned is not None:
            return self._owned.base_hit_frequency
        return Fraction(self.round.base.hit_weight, self.round.base.cycle)

    @property
    def variance(self) -> Fraction | float:
        """Variance of the round win, in total bets squared: exact when every round feature
        is; else a float (a float64 second moment written as a fraction is no exact figure)."""
        return self.composition.variance if self._owned is None else self._owned.variance

    @property
    def std(self) -> float:
        """SD of the round win in total bets (with stationary features: of the round with
        every driver event paying its own prize; in a mode: per amount wagered)."""
        return root(self.variance)

    @cached_property
    def std_total(self) -> float:
        """SD of the round's whole return in total bets, stationary payouts included
        (approximate where they are: see each one's ``total_std``)."""
        spread = [f for f in self.composition.stationary.values() if hasattr(f, "total_std")]
        if len(spread) > 1:
            raise NotImplementedError("the SD with more than one stationary feature")
        return spread[0].total_std(self.variance) if spread else self.std

    def volatility_index(self, confidence: float = 0.90) -> float:
        """Normal quantile x SD of the round's whole return."""
        return par.normal_quantile(confidence) * self.std_total

    def confidence_interval(self, spins: int, confidence: float = 0.95) -> tuple[float, float]:
        """Where the RTP measured over ``spins`` rounds lies with probability ``confidence``
        (normal approximation with :attr:`std_total`; with a state carried between rounds,
        rounds are not independent and these are a guide only)."""
        half = par.normal_quantile(confidence) * self.std_total / spins**0.5
        return self.rtp_float - half, self.rtp_float + half

    # -- distributions --------------------------------------------------------------------
    @cached_property
    def base_distribution(self) -> WinDistribution:
        """Exact distribution of the paid spin's own win (its spin features included)."""
        if self._owned is not None:
            return self._owned.base_distribution
        base = self.round.base
        return WinDistribution.from_mapping(base.credits_weights(), base.credits_per_bet)

    @property
    def distribution(self) -> WinDistribution | NumericWinDistribution:
        """The round's win distribution: exact without round features, numerical with them."""
        return self.composition.distribution

    distribution_exact = property(lambda self: isinstance(self.distribution, WinDistribution),
                                  doc="Whether :attr:`distribution` is exact.")

    @cached_property
    def top_award(self) -> par.TopAward:
        """The top award of the paid spin (exact), as a multiple of the bet and "1 in N".

        With round features the round's own maximum is unbounded in principle (retriggers)
        or astronomically rare; the PAR convention of the top single-spin award is used.
        """
        if self._owned is not None:
            return self._owned.top_award
        return par.top_award(self.base_distribution)

    @cached_property
    def win_sizes(self) -> tuple[par.WinSizeRow, ...]:
        if self._owned is not None:
            return self._owned.win_sizes
        return par.per_amount_wagered(par.win_size_table(self.distribution), self.composition.cost)


class _Owned:
    """The round figures of the feature that plays the whole round (kind ``owner``); one it
    does not compute raises NotImplementedError rather than describe the strips alone."""

    def __init__(self, feature: Feature, figures):
        self._feature, self._figures = feature, figures

    def __getattr__(self, name: str):
        try:
            return getattr(self._figures, name)
        except AttributeError:
            raise NotImplementedError(
                f"{name} is not computed for a game whose {self._feature.title.lower()} plays "
                f"the whole round (persistent state): its figures are "
                f"analysis.features[{self._feature.name!r}]") from None


def analyze(game: Game, level: int = 1,
            progress: Callable[[str, int, int], None] | None = None,
            mode: str | None = None) -> Analysis:
    """The analysis of a game at one bet level (in game mode ``mode``).

    Parameters
    ----------
    game : Game
    level : int
        Bet level (one of ``game.bet_levels``).
    progress : callable, optional
        ``progress(stage, done, total)`` hears how far each full-cycle enumeration has come
        (the CLI's ``--progress`` bar); it costs the enumeration about 30%.
    mode : str, optional
        A game mode's name (``[modes.NAME]``): its RTP, SD and components are per amount it
        costs; its win amounts stay in total bets.

    Examples
    --------
    Tiny Lines is small enough to check by hand (its file's header works the RTP out):

    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
    >>> a.rtp, a.context.table("base", ()).cycle
    (Fraction(411, 448), 512)
    """
    game.check_level(level)
    _ = mode is None or game.mode(mode)  # an unknown mode: one clear error, up front
    return Analysis(game, level, progress, mode)
