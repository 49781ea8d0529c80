"""The line-triggered bonus wheel as a spin feature.

A spin whose paylines show the wheel's bonus symbols ``count`` in succession from reel 1 plays
``wheel.spins_for(lines)`` wheel spins, independent of the window; each pays a division's
prize. Its law given the mark is the k-fold sum of one wheel spin, exactly
(:meth:`WinDistribution.power`): a feature of kind ``spin``. Its divisions may be won by
stationary features it drives (progressive jackpots), each at its own chance per wheel spin.
Simulator counterpart: :func:`slotmath.simulate.bonus_wheel.play_bonus_wheel`. Report:
:mod:`slotmath.report.bonus_wheel`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from slotmath.exact.distribution import WinDistribution
from slotmath.features.base import Feature, Kind, Mark
from slotmath.model.game import BonusWheel

__all__ = ["FEATURE", "BonusWheelSpin", "WheelFigures", "wheel_outcomes"]


@dataclass(frozen=True, eq=False)
class BonusWheelSpin:
    """The wheel, each coin division paying ``credits`` (pay-model credits, one per
    division; zeros give the "no coin" wheel of the cap's bracket).

    Examples
    --------
    >>> wheel = BonusWheel("B", 3, "once", (Fraction(1), Fraction(3)), (1, 1))
    >>> w = BonusWheelSpin(wheel, (1, 3), 1)
    >>> w.law(1, 1).as_dict(), w.law(0, 1).as_dict(), w.events(2)
    ({1: 1, 3: 1}, {0: 1}, 1)
    """

    wheel: BonusWheel
    credits: tuple[int, ...]
    credits_per_bet: int
    name: str = "bonus_wheel"
    simulator: str = "slotmath.simulate.bonus_wheel.play_bonus_wheel"

    @property
    def mark(self) -> Mark:
        cap = 1 if self.wheel.per_spin == "once" else None
        return Mark("bonus_lines", self.wheel.symbol, self.wheel.count, cap)

    def events(self, lines: int) -> int:
        """Wheel spins played by a spin with ``lines`` bonus lines."""
        return self.wheel.spins_for(lines)

    @cached_property
    def _laws(self) -> dict:
        return {}

    def law(self, lines: int, window_multiplier: int) -> WinDistribution:
        """Exact law of the wheel's win on a spin with ``lines`` bonus lines; multiplied by
        the window's multiplier only where the wheel is ``multiplied`` (kept per wheel)."""
        k = self.events(lines)
        m = window_multiplier if self.wheel.multiplied else 1
        if (k, m) not in self._laws:
            one = WinDistribution([c * m for c in self.credits], self.wheel.weights,
                                  self.credits_per_bet)
            self._laws[k, m] = (one.power(k) if k
                                else WinDistribution.point(0, self.credits_per_bet))
        return self._laws[k, m]


def _build(ctx, coins: bool = True) -> BonusWheelSpin:
    """The game's bonus wheel at ``ctx``'s pay model (``coins=False``: its coin divisions
    paying 0, the low end of the cap's bracket with jackpots)."""
    wheel = ctx.game.bonus_wheel
    credits = ctx.model.wheel_credits
    return BonusWheelSpin(wheel, credits if coins else (0,) * len(credits),
                          ctx.model.credits_per_bet)


def wheel_outcomes(wheel: BonusWheel, jackpot_chances: dict[str, float]) -> list[dict]:
    """One wheel spin as a distribution over its divisions.

    ``jackpot_chances`` gives each jackpot division's probability; the coin divisions share
    the rest by weight (exact Fractions when there are no jackpots).

    Examples
    --------
    >>> wheel = BonusWheel("B", 3, "once", (Fraction(1), Fraction(3)), (1, 3))
    >>> [r["probability"] for r in wheel_outcomes(wheel, {})]
    [Fraction(1, 4), Fraction(3, 4)]
    """
    coins = 1 - sum(jackpot_chances.values()) if jackpot_chances else Fraction(1)
    if coins < 0:
        raise ValueError(f"the jackpot divisions' probabilities add up to "
                         f"{1 - coins:.4g} > 1 at these pools")
    total = sum(wheel.weights)
    rows = []
    for i, (prize, w) in enumerate(zip(wheel.prizes, wheel.weights)):
        label = wheel.labels[i] if wheel.labels else f"coins {i + 1}"
        p = Fraction(w, total) * coins if not jackpot_chances else coins * w / total
        rows.append({"division": label, "kind": "coins", "prize": prize, "probability": p})
    for name, p in jackpot_chances.items():
        rows.append({"division": name, "kind": "jackpot", "prize": None, "probability": p})
    return rows


@dataclass(frozen=True, eq=False)
class WheelFigures:
    """The bonus wheel's figures at one bet level (``analysis.features["bonus_wheel"]``).

    ``spins_per_spin``: exact expected wheel spins per spin, on the base reels ("base") and on
    each round feature's reels (by its name); ``component``: its RTP component (coin prizes,
    net of the spins a stationary feature won instead).
    """

    wheel: BonusWheel
    spins_per_spin: dict
    component: object
    _composition: object

    def outcomes(self, pools: dict[str, float] | None = None) -> list[dict]:
        """One wheel spin as a distribution over its divisions (:func:`wheel_outcomes`): each
        division a stationary feature can win at its chance at ``pools`` (currency by
        division), or else at its stationary chance.

        Examples
        --------
        >>> import slotmath
        >>> a = slotmath.analyze(slotmath.load_game("data/games/gold_money_frog.toml"), 4)
        >>> rows = a.features["bonus_wheel"].outcomes({"MINOR": 100, "MAJOR": 900, "SUPER": 9000})
        >>> [(r["division"], round(r["probability"], 6)) for r in rows[-3:]]
        [('MINOR', 0.079542), ('MAJOR', 0.005727), ('SUPER', 0.000315)]
        """
        c = self._composition
        chances: dict = {}
        for name, driven in c.stationary_built.items():
            if driven.driven_by != FEATURE.name:
                continue
            chances |= (driven.chances_at(pools) if pools is not None
                        else driven.division_chances(c.stationary[name]))
        return wheel_outcomes(self.wheel, chances)


def _result(c) -> WheelFigures:
    spin = c.events(FEATURE.name)
    sets = {"base": ("base", 1)} | {f.name: (f.reels, 1) for f in c.round.features
                                      if f.reels is not None}
    return WheelFigures(c.game.bonus_wheel,
                        {label: spin(*where).mean_bets for label, where in sets.items()},
                        c.components[FEATURE.name], c)


FEATURE = Feature(
    name="bonus_wheel",
    kind=Kind.SPIN,
    title="Bonus wheel",
    present=lambda game: game.bonus_wheel is not None,
    build=_build,
    result=_result,
    json="slotmath.report.bonus_wheel:json_section",
    tables="slotmath.report.bonus_wheel:tables",
    panel="slotmath.widgets.wheel_panel:feature_panel",
    charts="slotmath.plot.wheel:charts",
    simulator="slotmath.simulate.bonus_wheel:play_bonus_wheel",
    checks="slotmath.report.bonus_wheel:entries",
)
