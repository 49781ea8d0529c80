"""The max-win cap as an operation on a round's win distribution.

A cap of ``L`` bets pays ``min(R, L)``: it removes ``E[(R - L)+]`` and binds with probability
``P(R >= L)``. On an exact distribution both are exact fractions (through
:meth:`WinDistribution.cap`); on a numerical one they are read off the FFT distribution, with
the error of its folded and dropped mass. With jackpots, a hit replaces a coin prize, so the
effect lies between the round with every wheel spin paying coins and with none paying coins
(:func:`bracketed`). A feature of kind ``operation``. Simulator counterpart:
:class:`slotmath.simulate.cap.MaxWinCap`. Report: :mod:`slotmath.report.cap`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from slotmath.exact.distribution import NumericWinDistribution, WinDistribution
from slotmath.features.base import Feature, Kind

__all__ = ["FEATURE", "CapFigures", "bracketed", "cap_effect"]


@dataclass(frozen=True)
class CapFigures:
    """The max-win cap of a round's coin win and what it removes.

    ``effect`` is the RTP removed (total bets per paid round), ``probability`` the chance
    that a round's coin win reaches the cap (with jackpots: with every wheel spin paying
    coins, an upper bound); ``exact`` tells whether both are exact fractions; ``error`` bounds
    ``effect``. ``resolution`` is the numerical distribution's noise floor: the probability of
    any one win amount below it is dropped, so a cap that only such amounts reach shows an
    effect of 0 (not bounded by ``error``).
    """

    cap_coins: Fraction
    cap_bets: Fraction
    effect: Fraction | float
    probability: Fraction | float
    exact: bool
    error: float
    resolution: float = 0.0


def cap_effect(d: WinDistribution | NumericWinDistribution, cap_coins: Fraction,
               cap_bets: Fraction) -> CapFigures:
    """The cap ``cap_bets`` (``cap_coins`` coins) applied to the round distribution ``d``.

    Examples
    --------
    >>> d = WinDistribution.from_mapping({0: 2, 10: 1, 50: 1}, 10)
    >>> f = cap_effect(d, Fraction(40), Fraction(2))
    >>> f.effect, f.probability, f.exact
    (Fraction(3, 4), Fraction(1, 4), True)
    """
    if isinstance(d, WinDistribution):
        limit = cap_bets * d.credits_per_bet
        reach = Fraction(int(d.weights[d.credits >= limit].sum()), d.total)
        if limit.denominator == 1:
            effect = d.mean - d.cap(int(limit)).mean
        else:  # a cap between two credit amounts: E[(R - L)+] directly
            over = d.credits > limit
            effect = sum((Fraction(int(c)) - limit) * int(w)
                         for c, w in zip(d.credits[over], d.weights[over])) / (
                d.total * d.credits_per_bet)
        return CapFigures(cap_coins, cap_bets, effect, reach, True, 0.0)
    limit = float(cap_bets) * d.credits_per_bet
    over = d.credits > limit
    excess = (d.credits[over] - limit) / d.credits_per_bet
    effect = float(excess @ d.probs[over])
    reach = float(d.probs[d.credits >= limit].sum())
    top = float(d.credits[-1]) / d.credits_per_bet if len(d.credits) else 0.0
    # mass folded back by the grid or dropped as noise moved at most (top - cap) bets each;
    # every kept amount above the cap carries FFT roundoff below the noise floor
    moved = (d.aliased_mass_bound + d.dropped_bound) * max(top - float(cap_bets), 0.0)
    roundoff = d.noise_floor * float(excess.sum()) + 4 * np.finfo(float).eps * effect
    return CapFigures(cap_coins, cap_bets, effect, reach, False, moved + roundoff + 1e-15,
                      d.noise_floor)


def bracketed(all_coins: CapFigures, no_coins: CapFigures, coin_probability: float) -> CapFigures:
    """The cap's effect when jackpot hits replace coin prizes.

    The true effect lies between ``no_coins`` (no wheel spin pays coins) and ``all_coins``
    (every wheel spin does; the cap's effect only grows with the round's win). The estimate
    interpolates at the stationary chance that a wheel spin pays coins; both it and the true
    effect lie in the bracket, which bounds the error.

    Examples
    --------
    >>> hi = CapFigures(Fraction(40), Fraction(2), Fraction(1, 2), Fraction(1, 4), True, 0.0)
    >>> lo = CapFigures(Fraction(40), Fraction(2), Fraction(1, 4), Fraction(1, 8), True, 0.0)
    >>> b = bracketed(hi, lo, 0.9)
    >>> round(b.effect, 6), b.error, b.exact
    (0.475, 0.225, False)
    """
    q = coin_probability
    width = float(all_coins.effect) - float(no_coins.effect)
    error = max(all_coins.error, no_coins.error)
    return CapFigures(all_coins.cap_coins, all_coins.cap_bets,
                      float(no_coins.effect) + q * width, float(all_coins.probability), False,
                      error + width * max(q, 1 - q), all_coins.resolution)


def _build(c) -> CapFigures:
    """The cap at the composition's bet level, on its round's distribution; where a
    stationary feature wins some driver events instead of their coin prizes, bracketed
    between the round with every event paying coins and with none paying."""
    coins = c.game.cap_coins(c.level)
    bets = coins / c.game.total_bet(c.level)
    figures = cap_effect(c.distribution, coins, bets)
    if not c.stationary_built:
        return figures
    no_coins = c.round_of(lambda reel_set, m: c.spin(reel_set, m, coins=False))
    low = cap_effect(c.distribution_of(no_coins), coins, bets)
    return bracketed(figures, low, c.coin_probability)


FEATURE = Feature(
    name="max_win_cap",
    kind=Kind.OPERATION,
    title="Max-win cap",
    present=lambda game: game.max_win is not None,
    build=_build,
    result=lambda composition: composition.operations["max_win_cap"],
    json="slotmath.report.cap:json_section",
    tables="slotmath.report.cap:tables",
    simulation="slotmath.report.cap:simulation",
    simulation_text="slotmath.report.cap:simulation_text",
    summary="slotmath.report.cap:summary",
    errors="slotmath.report.cap:errors",
    simulator="slotmath.simulate.cap:MaxWinCap",
)
