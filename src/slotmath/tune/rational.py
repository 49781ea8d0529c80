"""A figure of a game as an exact sympy rational function of one parameter, solvable for a
target.

Parameters
----------
* :class:`StopWeight`: the weight of one stop of a reel (any number of rows).
* :class:`SymbolCount`: how many stops (or how much weight) show a symbol on a one-row reel
  (on a reel with more rows the windows depend on where the stops go, so it is refused:
  use :class:`StopWeight`).
* :class:`WheelWeight`: the weight of one coin division of the bonus wheel.
* :class:`ValueWeight`: the weight of one cash value of hold & win.
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
  alike), and the figures are affine in those: degree 1 over 1; a hold & win value weight
  moves the mean value alike, and the RTP is affine in it (degree 1 over 1); E[X^2] holds the
  mean value squared (two values of one round), degree 2 over 2;
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

__all__ = ["FreeSpinAward", "RationalFigure", "RationalFunction", "StopWeight", "SymbolCount",
           "ValueWeight", "WheelWeight", "rational_figure", "rational_function"]

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
class ValueWeight:
    """The weight of cash value ``index`` (0-based) of hold & win's value law."""

    index: int

    def label(self) -> str:
        return f"value_{self.index}"


@dataclass(frozen=True)
class FreeSpinAward:
    """The free spins awarded for ``count`` trigger symbols."""

    count: int

    def label(self) -> str:
        return f"award_{self.count}"


Parameter = StopWeight | SymbolCount | WheelWeight | ValueWeight | FreeSpinAward


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
    second_moment) for one parameter: a strip's through its reel's window tables, the others
    by re-analysis."""
    current, edit = _game_editor(game, parameter)
    if isinstance(parameter, (StopWeight, SymbolCount)):
        comp = check_tunable(game, level)
        players = {f.reels for f in comp.round.features if getattr(f, "reels", None)}
        if parameter.reel_set in players:
            raise ValueError(f"reel set {parameter.reel_set!r} is played by a round feature: "
                             f"its figures are not linear in its strips")
        tables = ReelTables(game, parameter.reel_set, parameter.reel, level, comp)

        def at(x):
            edited = edit(game, x).reel_sets[parameter.reel_set].reels[parameter.reel]
            return tables.figures(edited)
        return current, at

    def figures(x):
        a = analyze(edit(game, x), level)
        if not a.exact:
            raise ValueError(f"{game.name}: its RTP is not exact")
        return _Plain(a.rtp, a.hit_frequency, a.round.second_moment)
    return current, figures


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


# -- several parameters at once ----------------------------------------------------------------


def _game_editor(game: Game, parameter: Parameter):
    """(current value, (game, value) -> the game with the parameter at that value)."""
    from dataclasses import replace

    if isinstance(parameter, (StopWeight, SymbolCount)):
        if parameter.reel_set not in game.reel_sets:
            raise ValueError(f"{game.name} has no reel set {parameter.reel_set!r}")
        reels = game.reel_sets[parameter.reel_set].reels
        if not 0 <= parameter.reel < len(reels):
            raise ValueError(f"reel set {parameter.reel_set!r} has reels 1..{len(reels)}")
        reel = reels[parameter.reel]

        def put(g: Game, new: Reel) -> Game:
            strips = list(g.reel_sets[parameter.reel_set].reels)
            strips[parameter.reel] = new
            return g.replace_reels(parameter.reel_set, tuple(strips))

        if isinstance(parameter, StopWeight):
            if not 0 <= parameter.stop < len(reel):
                raise ValueError(f"reel {parameter.reel + 1} has stops 0..{len(reel) - 1}")

            def edit(g, x):
                old = g.reel_sets[parameter.reel_set].reels[parameter.reel]
                w = list(old.stop_weights)
                w[parameter.stop] = x
                return put(g, Reel(old.symbols, tuple(w)))
            return reel.stop_weights[parameter.stop], edit
        if game.rows[parameter.reel] != 1:
            raise ValueError(f"reel {parameter.reel + 1} shows {game.rows[parameter.reel]} "
                             f"rows: a symbol's count does not fix its windows; use StopWeight")

        def edit(g, x):
            old = g.reel_sets[parameter.reel_set].reels[parameter.reel]
            if old.weights is None:
                return put(g, with_symbol_count(old, parameter.symbol, x))
            return put(g, with_symbol_weight(old, parameter.symbol, x))
        if reel.weights is not None and symbol_weight(reel, parameter.symbol) == 0:
            raise ValueError(f"{parameter.symbol!r} has no stop on reel {parameter.reel + 1} "
                             f"to weigh")
        current = (symbol_count(reel, parameter.symbol) if reel.weights is None
                   else symbol_weight(reel, parameter.symbol))
        return current, edit
    if isinstance(parameter, WheelWeight):
        wheel = game.bonus_wheel
        if wheel is None:
            raise ValueError(f"{game.name} has no bonus wheel")
        if not 0 <= parameter.division < len(wheel.weights):
            raise ValueError(f"the wheel has divisions 0..{len(wheel.weights) - 1}")

        def edit(g, x):
            w = list(g.bonus_wheel.weights)
            w[parameter.division] = x
            return with_wheel_weights(g, w)
        return wheel.weights[parameter.division], edit
    if isinstance(parameter, ValueWeight):
        spec = game.hold_and_win
        if spec is None:
            raise ValueError(f"{game.name} has no hold & win")
        if not 0 <= parameter.index < len(spec.value_weights):
            raise ValueError(f"hold & win has values 0..{len(spec.value_weights) - 1}")

        def edit(g, x):
            w = list(g.hold_and_win.value_weights)
            w[parameter.index] = x
            return replace(g, hold_and_win=replace(g.hold_and_win, value_weights=tuple(w)))
        return spec.value_weights[parameter.index], edit
    if isinstance(parameter, FreeSpinAward):
        spec = game.free_spins
        if spec is None or parameter.count not in spec.awards:
            raise ValueError(f"{game.name} awards no free spins for {parameter.count} "
                             f"(awards: {dict(spec.awards) if spec else {}})")

        def edit(g, x):
            s = g.free_spins
            return replace(g, free_spins=replace(s, awards=dict(s.awards) | {parameter.count: x}))
        return spec.awards[parameter.count], edit
    raise TypeError(f"not a parameter: {parameter!r}")


@dataclass(frozen=True)
class RationalFunction:
    """``figure`` of ``game`` as ``expr``, an exact rational function of ``symbols`` (one per
    parameter, in order); ``current`` holds the parameters' values in the game."""

    game: Game
    parameters: tuple
    figure: str
    symbols: tuple
    expr: sympy.Expr
    current: tuple

    def __call__(self, *values) -> Fraction:
        """The figure with the parameters at ``values`` (in order), exactly."""
        out = sympy.nsimplify(self.expr.subs(
            {s: sympy.Rational(str(v)) for s, v in zip(self.symbols, values)}))
        return Fraction(int(out.p), int(out.q))

    def solve(self, target, unknown: int = 0, values=None) -> list[sympy.Rational]:
        """The values (real, >= 0) of parameter ``unknown`` at which the figure equals
        ``target``, the others at ``values`` (default: their values in the game)."""
        values = list(self.current if values is None else values)
        fixed = {s: sympy.Rational(str(v)) for i, (s, v) in enumerate(zip(self.symbols, values))
                 if i != unknown}
        goal = (sympy.Rational(target.numerator, target.denominator)
                if isinstance(target, Fraction) else sympy.Rational(str(target)))
        x = self.symbols[unknown]
        roots = sympy.solve(sympy.Eq(self.expr.subs(fixed), goal), x)
        return sorted(r for r in roots if r.is_real and r >= 0)


def rational_function(game: Game, parameters, figure: str = "rtp",
                      level: int = 1) -> RationalFunction:
    """``figure`` of ``game`` as an exact rational function of several ``parameters`` at once.

    Each parameter enters every figure as a ratio of affine functions (the module notes), and
    different parameters multiply: the figure is a ratio of two polynomials of degree at
    most 1 in each parameter (multilinear). Their ``2 x 2^k`` coefficients are fitted exactly
    on the grid of each parameter's value and the next two (``3^k`` re-analyses of the changed
    game with :func:`slotmath.analyze`), and the function is checked at two points off the
    grid; ``ValueError`` when it is not of this form (E[X^2] in a free-spin award is not:
    use :func:`rational_figure` for one parameter).

    Examples
    --------
    Classic Sevens' RTP in the red sevens' weight on reel 3 and the blue sevens' on reel 1
    (more blue sevens dilute the reel), and the reel-1 weight that gives 95.5 % with reel 3
    left as it is:

    >>> import slotmath
    >>> g = slotmath.load_game("data/games/classic_3reel.toml")
    >>> f = rational_function(g, [SymbolCount(2, "7R"), SymbolCount(0, "7B")])
    >>> f.current, f(*f.current) == slotmath.analyze(g).rtp
    ((2, 3), True)
    >>> f.expr
    (225*n_base_1_7B*n_base_3_7R + 5500*n_base_1_7B + 8210*n_base_3_7R + 599800)/(84*n_base_1_7B*n_base_3_7R + 7140*n_base_1_7B + 7392*n_base_3_7R + 628320)
    >>> f.solve("0.955", unknown=1)
    [102784/51457]
    """
    import itertools

    if figure not in FIGURES:
        raise ValueError(f"figure must be one of {FIGURES}, got {figure!r}")
    parameters = tuple(parameters)
    if not parameters or len(set(parameters)) != len(parameters):
        raise ValueError("give one or more distinct parameters")
    editors = [_game_editor(game, p) for p in parameters]
    current = tuple(c for c, _ in editors)
    symbols = tuple(sympy.Symbol(p.label(), nonnegative=True) for p in parameters)
    k = len(parameters)

    def value(point) -> sympy.Rational:
        g = game
        for (_, edit), x in zip(editors, point):
            g = edit(g, x)
        a = analyze(g, level)
        if not a.exact:
            raise ValueError(f"{game.name}: its {figure} is not exact")
        v = {"rtp": a.rtp, "hit_frequency": a.hit_frequency,
             "second_moment": a.round.second_moment}[figure]
        return _rational(v)

    starts = [max(c, 1) for c in current]
    grid = list(itertools.product(*[(s, s + 1, s + 2) for s in starts]))
    monomials = list(itertools.product((0, 1), repeat=k))

    def mono(point, e):
        out = 1
        for x, p in zip(point, e):
            out *= x**p
        return out

    rows, seen = [], {}
    for point in grid:
        seen[point] = value(point)
        rows.append([mono(point, e) for e in monomials]
                    + [-seen[point] * mono(point, e) for e in monomials])
    space = sympy.Matrix(rows).nullspace()
    # a figure constant in a parameter has several representations: any that holds on the
    # grid and off it will do (a basis vector, or their sum)
    candidates = space + ([sum(space[1:], space[0])] if len(space) > 1 else [])
    checks = [tuple(s + shift + i for i, s in enumerate(starts)) for shift in (3, 5)]
    for point in checks:
        seen[point] = value(point)
    for c in candidates:
        num = sum(c[i] * mono(symbols, e) for i, e in enumerate(monomials))
        den = sum(c[len(monomials) + i] * mono(symbols, e) for i, e in enumerate(monomials))
        if den == 0:
            continue
        expr = sympy.cancel(num / den)
        ok = True
        for point, v in seen.items():
            at = dict(zip(symbols, point))
            d = den.subs(at)
            if d == 0 or num.subs(at) / d != v:
                ok = False
                break
        if ok:
            break
    else:
        raise ValueError(f"{game.name}: the {figure} is not a ratio of multilinear functions "
                         f"of {', '.join(p.label() for p in parameters)} (checked on the grid "
                         f"and at {checks})")
    return RationalFunction(game, parameters, figure, symbols, expr, current)
