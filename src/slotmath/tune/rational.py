"""A figure of a game as an exact sympy rational function of one parameter, solvable for a
target.

Parameters
----------
* :class:`StopWeight`: the weight of one stop of a reel (any number of rows).
* :class:`SymbolCount`: how many stops (or how much weight) show a symbol on a one-row reel
  (on a reel with more rows the windows depend on where the stops go, so it is refused:
  use :class:`StopWeight`).
* :class:`WheelWeight`: the weight of one coin division of the bonus wheel.
* :class:`FreeSpinAward`: the free spins awarded for a trigger count.

Method
------
Each figure (RTP, hit frequency, E[X^2]) is a ratio of two polynomials in each of these
parameters, of low degree:

* a stop weight or a one-row symbol count ``x`` enters the paid spin's table linearly (see
  :mod:`slotmath.tune.reel_tables`), and so does the cycle, ``c0 + x c1``; the round's figures
  are sums of table weights over the cycle, degree 1 over 1, as long as no round feature plays
  on that reel set (else the free-spin chain is not linear in its table: refused);
* a wheel weight moves the wheel's mean prize, ``(S + p x) / (W + x)`` (and its second moment
  alike), and the figures are affine in those: degree 1 over 1;
* an award ``x`` of free spins: with retriggers the expected spins of a round are
  ``awards / (1 - sum q_k award_k)`` (degree 1 over 1 in the RTP); E[X^2] holds the square of
  the spins, a higher degree.

The function is found exactly from the exact figures at integer points (the engine's, through
:mod:`slotmath.tune.reel_tables` for strips, :func:`slotmath.analyze` otherwise): for degree
``d = 1, 2, ...`` the null space of the system ``f(p) sum b_i p^i = sum a_i p^i`` at ``2d + 1``
points, then checked exactly at two more points. A figure that no degree up to ``max_degree``
fits there (a capped number of free spins, a feature whose law is not rational in it) raises
``ValueError`` rather than return a wrong function. The fit is exact arithmetic (sympy
rationals); the two further points are the evidence that the degree is right.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy

from slotmath.analysis import analyze
from slotmath.model.edit import (
    symbol_count,
    symbol_weight,
    with_symbol_count,
    with_symbol_weight,
    with_wheel_weights,
)
from slotmath.model.game import Game, Reel
from slotmath.tune.reel_tables import ReelTables, check_tunable

__all__ = ["FreeSpinAward", "RationalFigure", "StopWeight", "SymbolCount", "WheelWeight",
           "rational_figure"]

FIGURES = ("rtp", "hit_frequency", "second_moment")


@dataclass(frozen=True)
class StopWeight:
    """The weight of stop ``stop`` (0-based) of reel ``reel`` (0 = reel 1) of ``reel_set``."""

    reel: int
    stop: int
    reel_set: str = "base"

    def label(self) -> str:
        return f"w_{self.reel_set}_{self.reel + 1}_{self.stop}"


@dataclass(frozen=True)
class SymbolCount:
    """How many stops (weight, on a weighted reel) show ``symbol`` on one-row reel ``reel``."""

    reel: int
    symbol: str
    reel_set: str = "base"

    def label(self) -> str:
        return f"n_{self.reel_set}_{self.reel + 1}_{self.symbol}"


@dataclass(frozen=True)
class WheelWeight:
    """The weight of coin division ``division`` (0-based) of the bonus wheel."""

    division: int

    def label(self) -> str:
        return f"wheel_{self.division}"


@dataclass(frozen=True)
class FreeSpinAward:
    """The free spins awarded for ``count`` trigger symbols."""

    count: int

    def label(self) -> str:
        return f"award_{self.count}"


Parameter = StopWeight | SymbolCount | WheelWeight | FreeSpinAward


@dataclass(frozen=True)
class RationalFigure:
    """``figure`` of ``game`` as ``expr``, a rational function of ``symbol`` (the parameter),
    exact. ``current`` is the parameter's value in the game."""

    game: Game
    parameter: Parameter
    figure: str
    symbol: sympy.Symbol
    expr: sympy.Expr
    current: int

    def __call__(self, value) -> Fraction:
        """The figure at ``value``, exactly."""
        out = sympy.nsimplify(self.expr.subs(self.symbol, sympy.Rational(str(value))))
        return Fraction(int(out.p), int(out.q))

    def solve(self, target) -> list[sympy.Rational]:
        """The exact parameter values (real, >= 0) at which the figure equals ``target``
        (a Fraction, an int or a decimal string such as ``"0.96"``)."""
        goal = sympy.Rational(str(target)) if not isinstance(target, Fraction) else (
            sympy.Rational(target.numerator, target.denominator))
        roots = sympy.solve(sympy.Eq(self.expr, goal), self.symbol)
        return sorted(r for r in roots if r.is_real and r >= 0)


def _evaluator(game: Game, parameter: Parameter, level: int):
    """(current value, value -> exact Figures-like object with rtp, hit_frequency and
    second_moment) for one parameter."""
    if isinstance(parameter, (StopWeight, SymbolCount)):
        comp = check_tunable(game, level)
        players = {f.reels for f in comp.round.features if getattr(f, "reels", None)}
        if parameter.reel_set in players:
            raise ValueError(f"reel set {parameter.reel_set!r} is played by a round feature: "
                             f"its figures are not linear in its strips")
        tables = ReelTables(game, parameter.reel_set, parameter.reel, level, comp)
        reel = game.reel_sets[parameter.reel_set].reels[parameter.reel]
        if isinstance(parameter, StopWeight):
            if not 0 <= parameter.stop < len(reel):
                raise ValueError(f"reel {parameter.reel + 1} has stops 0..{len(reel) - 1}")
            weights = list(reel.stop_weights)

            def edit(x):
                w = list(weights)
                w[parameter.stop] = x
                return Reel(reel.symbols, tuple(w))
            current = weights[parameter.stop]
        else:
            if tables.rows != 1:
                raise ValueError(f"reel {parameter.reel + 1} shows {tables.rows} rows: a "
                                 f"symbol's count does not fix its windows; use StopWeight")
            if reel.weights is None:
                current = symbol_count(reel, parameter.symbol)

                def edit(x):
                    return with_symbol_count(reel, parameter.symbol, x)
            else:
                current = symbol_weight(reel, parameter.symbol)
                if current == 0:
                    raise ValueError(f"{parameter.symbol!r} has no stop on reel "
                                     f"{parameter.reel + 1} to weigh")

                def edit(x):
                    return with_symbol_weight(reel, parameter.symbol, x)
        return current, lambda x: tables.figures(edit(x))

    def figures(g):
        a = analyze(g, level)
        if not a.exact:
            raise ValueError(f"{game.name}: its RTP is not exact")
        return _Plain(a.rtp, a.hit_frequency, a.round.second_moment)

    if isinstance(parameter, WheelWeight):
        wheel = game.bonus_wheel
        if wheel is None:
            raise ValueError(f"{game.name} has no bonus wheel")
        if not 0 <= parameter.division < len(wheel.weights):
            raise ValueError(f"the wheel has divisions 0..{len(wheel.weights) - 1}")

        def at(x):
            w = list(wheel.weights)
            w[parameter.division] = x
            return figures(with_wheel_weights(game, w))
        return wheel.weights[parameter.division], at
    if isinstance(parameter, FreeSpinAward):
        from dataclasses import replace

        spec = game.free_spins
        if spec is None or parameter.count not in spec.awards:
            raise ValueError(f"{game.name} awards no free spins for {parameter.count} "
                             f"(awards: {dict(spec.awards) if spec else {}})")

        def at(x):
            awards = dict(spec.awards) | {parameter.count: x}
            return figures(replace(game, free_spins=replace(spec, awards=awards)))
        return spec.awards[parameter.count], at
    raise TypeError(f"not a parameter: {parameter!r}")


@dataclass(frozen=True)
class _Plain:
    rtp: Fraction
    hit_frequency: Fraction
    second_moment: Fraction


def _rational(value) -> sympy.Rational:
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    return sympy.nsimplify(value)


def rational_figure(game: Game, parameter: Parameter, figure: str = "rtp",
                    level: int = 1, max_degree: int = 4) -> RationalFigure:
    """``figure`` of ``game`` as an exact rational function of ``parameter``.

    Parameters
    ----------
    game : Game
    parameter : StopWeight, SymbolCount, WheelWeight or FreeSpinAward
    figure : {"rtp", "hit_frequency", "second_moment"}
        In total bets.
    level : int
    max_degree : int
        The highest degree of numerator and denominator tried (see the module notes).

    Returns
    -------
    RationalFigure
        ``.expr`` (sympy), callable at a value, ``.solve(target)``.

    Raises
    ------
    ValueError
        When the figure is not a ratio of polynomials of degree <= ``max_degree`` (checked
        at two points beyond those that fix it), or the parameter is not in the game.

    Examples
    --------
    Classic Sevens' RTP against the red sevens' virtual stops on reel 3 (one stop of weight 2),
    and how many give 96 %:

    >>> import slotmath
    >>> g = slotmath.load_game("data/games/classic_3reel.toml")
    >>> f = rational_figure(g, SymbolCount(2, "7R"))
    >>> f.current, f(2) == slotmath.analyze(g).rtp
    (2, True)
    >>> f.expr
    (8885*n_base_3_7R + 616300)/(7644*n_base_3_7R + 649740)
    >>> f.solve("0.96")
    [186260/38669]
    >>> round(float(f.solve("0.96")[0]), 4)
    4.8168
    """
    if figure not in FIGURES:
        raise ValueError(f"figure must be one of {FIGURES}, got {figure!r}")
    current, at = _evaluator(game, parameter, level)
    x = sympy.Symbol(parameter.label(), nonnegative=True)
    start = max(current, 1)
    values: dict[int, sympy.Rational] = {}

    def value(p: int) -> sympy.Rational:
        if p not in values:
            values[p] = _rational(getattr(at(p), figure))
        return values[p]

    for degree in range(1, max_degree + 1):
        points = [start + k for k in range(2 * degree + 3)]
        fit, check = points[:2 * degree + 1], points[2 * degree + 1:]
        # sum a_i p^i - f(p) sum b_i p^i = 0 at every fitting point
        rows = [[p**i for i in range(degree + 1)] + [-value(p) * p**i for i in range(degree + 1)]
                for p in fit]
        space = sympy.Matrix(rows).nullspace()
        if not space:
            continue
        c = space[0]
        num = sum(c[i] * x**i for i in range(degree + 1))
        den = sum(c[degree + 1 + i] * x**i for i in range(degree + 1))
        if den == 0:
            continue
        expr = sympy.cancel(num / den)
        if all(expr.subs(x, p) == value(p) for p in check):
            break
    else:
        raise ValueError(f"{game.name}: the {figure} is not a ratio of two polynomials of "
                         f"degree <= {max_degree} in {parameter.label()}")
    return RationalFigure(game, parameter, figure, x, expr, current)
