"""The rules a game's values must keep: each written once, here (hit laws: in
:mod:`slotmath.model.hit_laws`).

Every rule raises :class:`~slotmath.errors.RuleError` (a ``ValueError``) naming the value
(``field``), what is wrong and the value. The model's dataclasses call them when they are built
(:class:`~slotmath.model.game.JackpotSpec`, :class:`~slotmath.model.game.BonusWheel`,
:class:`~slotmath.model.game.MaxWin`, :class:`~slotmath.model.game.Game`), so no invalid
object exists; the loader calls the single-value rules as it reads each key and adds the file
and key path (:class:`~slotmath.errors.GameFileError`); the what-if edits
(:mod:`slotmath.model.edit`) and the jackpot panel get their checks by building the new
objects.

What a rule does not cover is the file format (types, spelling, which keys exist): that is
the loader's.

Examples
--------
>>> from fractions import Fraction
>>> check_share(Fraction(1), "contribution")
Traceback (most recent call last):
...
slotmath.errors.RuleError: contribution: must be in [0, 1), got 1
>>> check_level((1, 2, 5), 3)
Traceback (most recent call last):
...
slotmath.errors.RuleError: bet level 3 is not one of the game's levels [1, 2, 5]
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from slotmath.errors import RuleError
from slotmath.model import hit_laws

if TYPE_CHECKING:  # pragma: no cover
    from slotmath.model.game import BonusWheel, Game, JackpotSpec, MaxWin

__all__ = [
    "WHEEL_PER_SPIN",
    "RuleError",
    "check_coin_value",
    "check_contributions",
    "check_game",
    "check_jackpot",
    "check_level",
    "check_level_factor",
    "check_max_win",
    "check_positive",
    "check_seed",
    "check_share",
    "check_wheel",
    "check_wheel_jackpots",
    "check_wheel_weights",
]

#: How a bonus wheel is played when several lines trigger it.
WHEEL_PER_SPIN = ("once", "per_line")


# -- single values --------------------------------------------------------------------------------


def check_positive(value, field: str) -> None:
    """``value > 0`` (coin value, a max-win amount, a level factor)."""
    if not value > 0:
        raise RuleError(field, "must be > 0", value)


def check_coin_value(value) -> None:
    """Currency per coin: > 0."""
    check_positive(value, "coin_value")


def check_level_factor(value, field: str = "level_factor") -> None:
    """A jackpot's factor on its hit law at one bet level: > 0."""
    check_positive(value, field)


def check_seed(value, field: str = "seed") -> None:
    """A jackpot's restart value in currency: >= 0."""
    if not value >= 0:
        raise RuleError(field, "must be >= 0", value)


def check_share(value, field: str) -> None:
    """A jackpot's contribution (of each bet) or reserve (of each contribution): in [0, 1)."""
    if not 0 <= value < 1:
        raise RuleError(field, "must be in [0, 1)", value)


def check_level(levels: Sequence[int], level: int) -> None:
    """``level`` is one of the game's bet ``levels`` (:meth:`Game.check_level
    <slotmath.model.game.Game.check_level>`)."""
    if level not in levels:
        raise RuleError(None, f"bet level {level} is not one of the game's levels "
                              f"{list(levels)}")


def check_contributions(contributions: Iterable[Fraction]) -> None:
    """The jackpots together take less than the whole bet.

    Examples
    --------
    >>> check_contributions([Fraction(1, 2), Fraction(3, 5)])
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: jackpots: contributions add up to 1.1 of each bet: together they must take less than the whole bet (< 1)
    """
    total = sum(contributions, Fraction(0))
    if total >= 1:
        raise RuleError("jackpots", f"contributions add up to {float(total):g} of each bet: "
                                    "together they must take less than the whole bet (< 1)")


def check_wheel_weights(weights: Sequence, divisions: int) -> None:
    """One whole-number weight >= 0 per coin division, not all zero.

    Examples
    --------
    >>> check_wheel_weights((2, -1), 2)
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: weights[1]: must be >= 0, got -1
    """
    if len(weights) != divisions:
        raise RuleError("weights", f"must list one whole-number weight per division "
                                   f"({divisions})", len(weights))
    for i, w in enumerate(weights):
        if isinstance(w, bool) or not isinstance(w, numbers.Integral):
            raise RuleError(f"weights[{i}]", "must be a whole number >= 0", w)
        if w < 0:
            raise RuleError(f"weights[{i}]", "must be >= 0", w)
    if not any(weights):
        raise RuleError("weights", "all weights are zero: the wheel could never stop")


# -- whole objects --------------------------------------------------------------------------------


def check_jackpot(spec: JackpotSpec) -> None:
    """Every rule of one jackpot: seed, contribution, reserve, its hit law and parameters,
    its level factors; the error says which jackpot."""
    try:
        check_seed(spec.seed)
        check_share(spec.contribution, "contribution")
        check_share(spec.reserve_fraction, "reserve_fraction")
        hit_laws.law(spec.law).check(spec.parameters)
        for level, factor in spec.level_factors.items():
            check_level_factor(factor, f"level_factors[{level}]")
    except RuleError as err:
        raise err.about(f"jackpot {spec.name!r}") from None


def check_wheel(wheel: BonusWheel) -> None:
    """How the wheel is played and its coin divisions' weights."""
    if wheel.per_spin not in WHEEL_PER_SPIN:
        raise RuleError("per_spin", "must be \"once\" (one wheel spin however many lines "
                                    "trigger) or \"per_line\"", wheel.per_spin)
    check_wheel_weights(wheel.weights, len(wheel.prizes))


def check_wheel_jackpots(wheel: BonusWheel) -> None:
    """What the engines can do with a wheel's jackpot divisions: each listed once, and coin
    prizes not multiplied in free spins (not modelled). A limit of the methods rather than of
    the game, so it is checked where a game is read and where it is computed, not when a
    wheel is built."""
    if wheel.jackpots and wheel.multiplied:
        raise RuleError("multiplied", "a wheel with jackpot divisions must not multiply its "
                                      "coin prizes in free spins (not modelled)")
    if len(set(wheel.jackpots)) != len(wheel.jackpots):
        raise RuleError("jackpots", f"a jackpot is listed twice in {list(wheel.jackpots)!r}: "
                                    "one division per jackpot")


def check_max_win(max_win: MaxWin, coin_value=None, *, need_coin_value: bool = False) -> None:
    """Each cap amount > 0; with ``need_coin_value``, a cap in currency needs a coin value."""
    for field in ("bet_multiple", "currency"):
        value = getattr(max_win, field)
        if value is not None:
            check_positive(value, field)
    if need_coin_value and max_win.currency is not None and coin_value is None:
        raise RuleError("currency", "a cap in currency needs coin_value (currency per coin) at "
                                    "the top of the file")


def check_game(game: Game) -> None:
    """The rules across a game's parts: coin value, the cap's currency, the jackpots'
    contributions together (each part checks itself when built)."""
    if game.coin_value is not None:
        check_coin_value(game.coin_value)
    if game.max_win is not None:
        try:
            check_max_win(game.max_win, game.coin_value, need_coin_value=True)
        except RuleError as err:
            raise RuleError(f"max_win.{err.field}", err.problem, err.value) from None
    check_contributions(j.contribution for j in game.jackpots)
