"""The whole exact analysis of a game at one bet level: what ``slotmath analyze`` prints.

Composes the layers: the fast full-cycle engine (:mod:`slotmath.exact.cycle`) for the exact
spin distributions, the direct method (:mod:`slotmath.exact.direct`) for components and the
pay-table hit counts, the free-spins chain and round composition (:mod:`slotmath.markov`),
PAR statistics (:mod:`slotmath.stats`) and the PAR tables (:mod:`slotmath.report`).

What is exact and what is numerical
-----------------------------------
Exact fractions: RTP and every component, hit frequency, the round's SD (as the square root of
an exact variance), trigger probability, expected spins and win per feature, the base-game
distribution and its max win, all pay-table hit counts. Numerical (float64, with the bounds
reported by :meth:`slotmath.markov.round.RoundAnalysis.win_distribution`): the whole-round
win distribution of a game with free spins, and what is read off it (win-size table).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

from slotmath.evaluate.window import PayModel
from slotmath.exact.cycle import line_trigger_table, spin_table
from slotmath.exact.direct import DirectResult, direct_method
from slotmath.exact.distribution import FloatDistribution, WinDistribution
from slotmath.exact.spin_table import LineTriggerTable, SpinTable
from slotmath.markov.round import RoundAnalysis
from slotmath.model.game import Game
from slotmath.stats import par

CONFIDENCE_SPINS = (10**3, 10**4, 10**5, 10**6, 10**7, 10**8)


def fraction_text(value) -> str:
    """An exact number as "p/q" (like ``str(Fraction)``); sympy numbers as their text."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, int):
        return str(value)
    return str(value)


def _wheel_sums(wheel, credits: tuple[int, ...], multiplier: int, k_max: int) -> list[dict]:
    """Exact weights of the total prize of k wheel spins, k = 0..k_max (total W^k each)."""
    one: dict[int, int] = {}
    for c, w in zip(credits, wheel.weights):
        if w:
            one[c * multiplier] = one.get(c * multiplier, 0) + w
    sums = [{0: 1}]
    for _ in range(k_max):
        nxt: dict[int, int] = {}
        for a, wa in sums[-1].items():
            for b, wb in one.items():
                nxt[a + b] = nxt.get(a + b, 0) + wa * wb
        sums.append(nxt)
    return sums


def fold_wheel(table: LineTriggerTable, wheel, credits: tuple[int, ...], window_multiplier: int,
               wheel_multiplier: int) -> SpinTable:
    """A spin table of everything one spin pays, bonus wheel included, exactly.

    The window's credits are multiplied by ``window_multiplier`` (the free-spin multiplier),
    the wheel's by ``wheel_multiplier``; each spin plays ``wheel.spins_for(lines)`` wheel
    spins, independent of the window. Weights are kept whole by giving every outcome the
    same denominator: cycle x (wheel total)^(most wheel spins in one spin).

    Examples
    --------
    >>> from fractions import Fraction
    >>> from slotmath.model.game import BonusWheel
    >>> wheel = BonusWheel("B", 3, "once", (Fraction(1), Fraction(3)), (1, 1))
    >>> t = LineTriggerTable({(0, 0, 0): 3, (0, 1, 0): 1}, 4, 1)
    >>> folded = fold_wheel(t, wheel, (1, 3), 1, 1)
    >>> dict(folded.weights), folded.mean_bets
    ({(0, 0): 6, (0, 1): 1, (0, 3): 1}, Fraction(1, 2))
    """
    k_max = max((wheel.spins_for(b) for (_, b, _) in table.weights), default=0)
    total = sum(wheel.weights)
    sums = _wheel_sums(wheel, credits, wheel_multiplier, k_max)
    out: dict[tuple[int, int], int] = {}
    for (t, b, c), w in table.weights.items():
        k = wheel.spins_for(b)
        scale = w * total ** (k_max - k)
        for x, wx in sums[k].items():
            key = (t, c * window_multiplier + x)
            out[key] = out.get(key, 0) + scale * wx
    return SpinTable(out, table.cycle * total**k_max, table.credits_per_bet, table.trigger_cap)


@dataclass(frozen=True)
class FreeSpinsSummary:
    """Exact free-spin figures: per paid round and per triggered feature."""

    trigger_probability: Fraction
    expected_spins: Fraction  # per triggered feature
    expected_win: Fraction  # per triggered feature, in total bets
    rtp: Fraction  # contribution per paid round, in total bets
    spins_distribution: Any  # markov.free_spins.SpinCountDistribution


@dataclass(frozen=True, eq=False)
class Analysis:
    """Exact analysis of ``game`` at bet ``level`` (lazy: each figure is computed on first use).

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
    >>> a.base_table.mean_bets == a.components["lines"] + a.components["scatter"]
    True
    """

    game: Game
    level: int = 1

    @cached_property
    def model(self) -> PayModel:
        return PayModel(self.game, self.level)

    @cached_property
    def base_table(self) -> SpinTable:
        """Exact (trigger count, credits) weights of the paid spin."""
        return spin_table(self.game, "base", self.level, self.model)

    @cached_property
    def free_table(self) -> SpinTable | None:
        """Exact weights of one free spin (before the multiplier), or None."""
        fs = self.game.free_spins
        if fs is None:
            return None
        return spin_table(self.game, fs.reels, self.level, self.model)

    @cached_property
    def direct(self) -> DirectResult:
        return direct_method(self.game, "base", self.level, self.model)

    def _trigger_table(self, reel_set: str) -> LineTriggerTable:
        wheel = self.game.bonus_wheel
        cap = 1 if wheel.per_spin == "once" else None
        return line_trigger_table(self.game, wheel.symbol, wheel.count, reel_set, self.level,
                                  cap=cap, model=self.model)

    @cached_property
    def wheel_spins(self) -> dict[str, Fraction]:
        """Exact expected bonus-wheel spins per spin, on the base and the free-spin reels."""
        wheel = self.game.bonus_wheel
        if wheel is None:
            return {}
        out = {}
        sets = {"base": "base"}
        if self.game.free_spins is not None:
            sets["free_spins"] = self.game.free_spins.reels
        for label, name in sets.items():
            t = self._trigger_table(name)
            spins = sum(w * wheel.spins_for(b) for (_, b, _), w in t.weights.items())
            out[label] = Fraction(spins, t.cycle)
        return out

    @cached_property
    def round_tables(self) -> tuple[SpinTable, SpinTable | None]:
        """The paid spin and one free spin as the round sees them: bonus-wheel wins folded in,
        free-spin credits already multiplied (only where the rules multiply them)."""
        fs, wheel = self.game.free_spins, self.game.bonus_wheel
        if wheel is None:
            return self.base_table, self.free_table
        credits = self.model.wheel_credits
        base = fold_wheel(self._trigger_table("base"), wheel, credits, 1, 1)
        if fs is None:
            return base, None
        m = fs.multiplier
        free = fold_wheel(self._trigger_table(fs.reels), wheel, credits, m,
                          m if wheel.multiplied else 1)
        return base, free

    @cached_property
    def round(self) -> RoundAnalysis:
        fs = self.game.free_spins
        base, free = self.round_tables
        if fs is not None and self.game.bonus_wheel is not None:
            fs = replace(fs, multiplier=1)  # the folded free-spin table is already multiplied
        return RoundAnalysis(base, free, fs)

    # -- headline figures -----------------------------------------------------------------
    @property
    def rtp(self) -> Fraction:
        """Exact RTP of a paid round (feature included), in total bets."""
        return self.round.rtp

    @property
    def rtp_float(self) -> float:
        return float(self.rtp)

    @cached_property
    def components(self) -> dict[str, Fraction]:
        """Exact RTP by source: "lines" or "ways", "scatter" (base game), "free_spins", and
        "bonus_wheel" for a game with one (wheel wins in the base game and in free spins;
        "free_spins" is then the rest of the feature)."""
        out = dict(self.direct.components)
        feature = self.round.feature_rtp
        wheel = self.game.bonus_wheel
        if wheel is not None:
            spins = self.wheel_spins
            base_part = spins["base"] * wheel.mean
            free_part = Fraction(0)
            if "free_spins" in spins:
                fs = self.game.free_spins
                per_round = self.round.trigger_probability * (
                    self.round.expected_spins_per_feature if self.round.trigger_probability else 0)
                free_part = per_round * spins["free_spins"] * wheel.mean * (
                    fs.multiplier if wheel.multiplied else 1)
            out["free_spins"] = feature - free_part
            out["bonus_wheel"] = base_part + free_part
        else:
            out["free_spins"] = feature
        return out

    @property
    def hit_frequency(self):
        """Exact P(a paid round wins anything), feature included."""
        return self.round.hit_frequency

    @property
    def base_hit_frequency(self) -> Fraction:
        """Exact P(the paid spin itself pays), its bonus wheel included."""
        base = self.round_tables[0]
        return Fraction(base.hit_weight, base.cycle)

    @property
    def variance(self) -> Fraction:
        """Exact variance of the round win, in total bets squared."""
        return self.round.variance

    @property
    def std(self) -> float:
        """SD of the round win in total bets."""
        return self.round.std

    def volatility_index(self, confidence: float = 0.90) -> float:
        return par.normal_quantile(confidence) * self.std

    @cached_property
    def base_distribution(self) -> WinDistribution:
        """Exact distribution of the paid spin's own win (lines or ways, scatter, and the
        bonus wheel it may trigger)."""
        base = self.round_tables[0]
        return WinDistribution.from_mapping(base.credits_weights(), base.credits_per_bet)

    @cached_property
    def _numeric_round(self):
        return self.round.win_distribution()

    @cached_property
    def distribution(self) -> WinDistribution | FloatDistribution:
        """The round's win distribution: exact without free spins, float64 with them."""
        if self.game.free_spins is None:
            return self.base_distribution
        numeric = self._numeric_round
        return FloatDistribution(numeric.credits, numeric.probs, numeric.credits_per_bet)

    @cached_property
    def distribution_error(self) -> dict:
        """How the round distribution was computed and its error bounds (probability mass)."""
        if self.game.free_spins is None:
            return {"method": "exact full-cycle enumeration", "exact": True}
        n = self._numeric_round
        return {
            "method": "FFT over the free-spins chain, convolved with the exact base spin",
            "exact": False,
            "aliased_mass_bound": n.aliased_mass_bound,
            "dropped_mass": n.dropped_mass,
            "noise_floor": n.noise_floor,
            "mean_error": abs(n.mean_bets - self.rtp_float),
        }

    @cached_property
    def free_spins(self) -> FreeSpinsSummary | None:
        if self.game.free_spins is None:
            return None
        r = self.round
        triggered = r.trigger_probability > 0
        return FreeSpinsSummary(
            trigger_probability=r.trigger_probability,
            expected_spins=r.expected_spins_per_feature if triggered else Fraction(0),
            expected_win=r.expected_win_per_feature if triggered else Fraction(0),
            rtp=r.feature_rtp,
            spins_distribution=r.spins_distribution() if triggered else None,
        )

    @cached_property
    def max_win(self) -> par.MaxWin:
        """The top award of the paid spin (exact), as a multiple of the bet and "1 in N".

        With free spins the round's own maximum is unbounded in principle (retriggers) or
        astronomically rare; the PAR convention of the top single-spin award is used.
        """
        return par.max_win(self.base_distribution)

    @cached_property
    def win_sizes(self) -> tuple[par.WinSizeRow, ...]:
        return par.win_size_table(self.distribution)

    def confidence_interval(self, spins: int, confidence: float = 0.95) -> tuple[float, float]:
        """Where the RTP measured over ``spins`` rounds lies with probability ``confidence``."""
        half = par.normal_quantile(confidence) * self.std / spins**0.5
        return self.rtp_float - half, self.rtp_float + half

    # -- PAR tables (pandas) --------------------------------------------------------------
    @property
    def symbol_table(self):
        from slotmath.report.tables import symbol_table

        return symbol_table(self)

    @property
    def scatter_table(self):
        from slotmath.report.tables import scatter_table

        return scatter_table(self)

    @property
    def win_size_table(self):
        from slotmath.report.tables import win_size_frame

        return win_size_frame(self)

    @property
    def confidence_table(self):
        from slotmath.report.tables import confidence_frame

        return confidence_frame(self)

    @property
    def summary_table(self):
        from slotmath.report.tables import summary_frame

        return summary_frame(self)

    def to_dict(self) -> dict:
        """The JSON document of ``slotmath analyze --json``."""
        from slotmath.report.json_report import analysis_dict

        return analysis_dict(self)

    def to_text(self) -> str:
        """The PAR sheet as text."""
        from slotmath.report.text import par_sheet_text

        return par_sheet_text(self)


def analyze(game: Game, level: int = 1) -> Analysis:
    """Exact analysis of a game at one bet level.

    Parameters
    ----------
    game : Game
    level : int
        Bet level (one of ``game.bet_levels``).

    Examples
    --------
    >>> import slotmath
    >>> a = slotmath.analyze(slotmath.load_game("data/games/tiny_lines.toml"))
    >>> a.rtp == a.components["lines"] + a.components["scatter"] + a.components["free_spins"]
    True
    """
    if level not in game.bet_levels:
        raise ValueError(f"bet level {level} is not one of the game's levels {list(game.bet_levels)}")
    return Analysis(game, level)
