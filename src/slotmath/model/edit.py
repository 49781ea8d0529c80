"""Pure what-if edits of reel strips: change how often a symbol appears, get a new reel.

Used by the strip editor widget and by anyone exploring a game by hand. Every function is
deterministic and returns a new frozen object; nothing here evaluates pays.

* :func:`with_symbol_count` sets the number of stops showing a symbol. New copies go into
  the longest stretches between the symbol's existing copies, evenly spaced; copies are
  removed where they are most crowded. The symbol stays spread along the strip and the other
  symbols keep their order.
* :func:`with_symbol_weight` sets a symbol's total stop weight on a weighted (virtual) reel,
  shared out as evenly as possible over its stops.
* :func:`replace_reel` puts an edited reel back into a game.
* :func:`with_jackpot` and :func:`with_wheel_weights` change a progressive jackpot's rules
  (seed, contribution, reserve, hit law, level factors) or the bonus wheel's coin weights.

What an edit may produce is what the model allows: the new reel, wheel, jackpot or game is
built, and so checked, by the model's rules (:mod:`slotmath.model.rules`), the same the loader
applies to a game file; a refused edit raises their :class:`~slotmath.errors.RuleError` (a
``ValueError``) naming what was edited.
"""

from __future__ import annotations

from slotmath.errors import RuleError
from slotmath.model import rules
from slotmath.model.game import Game, Reel

__all__ = ["replace_reel", "symbol_count", "symbol_weight", "with_jackpot",
           "with_symbol_count", "with_symbol_weight", "with_wheel_weights"]


def symbol_count(reel: Reel, symbol: str) -> int:
    """Number of stops of ``reel`` showing ``symbol``.

    Examples
    --------
    >>> symbol_count(Reel(("A", "B", "A")), "A")
    2
    """
    return reel.symbols.count(symbol)


def symbol_weight(reel: Reel, symbol: str) -> int:
    """Total stop weight of ``symbol`` on ``reel`` (its count on an unweighted reel).

    Examples
    --------
    >>> symbol_weight(Reel(("A", "B", "A"), (3, 1, 2)), "A")
    5
    """
    return sum(w for s, w in zip(reel.symbols, reel.stop_weights) if s == symbol)


def _insertions(symbols: list[str], symbol: str, extra: int) -> list[int]:
    """Where to insert ``extra`` more copies of ``symbol``: indices of the stops they go before.

    The stretches between consecutive copies (cyclically) share the new copies in proportion to
    their lengths (largest quotient first, ties to the earliest stretch); within a stretch the
    copies are placed evenly. Without copies, they are spread evenly over the whole strip.
    """
    n = len(symbols)
    copies = [p for p, s in enumerate(symbols) if s == symbol]
    if not copies:
        return sorted((2 * i + 1) * n // (2 * extra) for i in range(extra))
    m = len(copies)
    spans = [((copies[(k + 1) % m] - copies[k] - 1) % n) + 1 for k in range(m)]
    assigned = [0] * m
    for _ in range(extra):
        k = max(range(m), key=lambda k: (spans[k] / (assigned[k] + 1), -k))
        assigned[k] += 1
    out = []
    for k, a in enumerate(assigned):
        for j in range(1, a + 1):
            out.append((copies[k] + round(j * spans[k] / (a + 1))) % n)
    return sorted(out)


def _removal_position(symbols: list[str], symbol: str) -> int:
    """Index of the copy of ``symbol`` to remove: the one closest to its neighbours."""
    n = len(symbols)
    copies = [p for p, s in enumerate(symbols) if s == symbol]
    if len(copies) == 1:
        return copies[0]
    best, best_key = copies[0], None
    for k, p in enumerate(copies):
        before = (p - copies[k - 1]) % n
        after = (copies[(k + 1) % len(copies)] - p) % n
        key = (before + after, min(before, after))
        if best_key is None or key < best_key:
            best, best_key = p, key
    return best


def with_symbol_count(reel: Reel, symbol: str, count: int, weight: int | None = None) -> Reel:
    """A copy of ``reel`` with exactly ``count`` stops showing ``symbol``.

    Parameters
    ----------
    reel : Reel
    symbol : str
        The symbol to add or remove (the caller checks that the game declares it).
    count : int
        The new number of stops showing it, >= 0.
    weight : int, optional
        Weighted reels only: the weight of each added stop. Default: the smallest weight
        among the symbol's stops, or 1 when it has none.

    Returns
    -------
    Reel
        The edited reel; ``reel`` itself when the count is already ``count``.

    Raises
    ------
    RuleError
        (a ``ValueError``) For a count or weight that is not a whole number >= 0, or an edit
        the reel's rules refuse (:func:`slotmath.model.rules.check_reel`: an empty strip,
        every weight 0).

    Examples
    --------
    >>> r = Reel(("A", "B", "B", "B", "B", "B"))
    >>> with_symbol_count(r, "A", 2).symbols     # the new A goes opposite the old one
    ('A', 'B', 'B', 'A', 'B', 'B', 'B')
    >>> with_symbol_count(r, "B", 2).symbols
    ('A', 'B', 'B')
    >>> with_symbol_count(Reel(("A", "A")), "A", 0)
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: edited reel: strip is empty: list at least one symbol
    """
    rules.check_whole(count, "count", 0)
    symbols = list(reel.symbols)
    weights = list(reel.weights) if reel.weights is not None else None
    current = symbols.count(symbol)
    if count == current:
        return reel
    if weights is not None and count > current:
        if weight is None:
            own = [w for s, w in zip(symbols, weights) if s == symbol]
            weight = min(own) if own else 1
        rules.check_stop_weight(weight)
    if count > current:
        for at in reversed(_insertions(symbols, symbol, count - current)):
            symbols.insert(at, symbol)
            if weights is not None:
                weights.insert(at, weight)
        current = count
    while current > count:
        at = _removal_position(symbols, symbol)
        del symbols[at]
        if weights is not None:
            del weights[at]
        current -= 1
    return _edited_reel(tuple(symbols), tuple(weights) if weights is not None else None)


def with_symbol_weight(reel: Reel, symbol: str, total: int) -> Reel:
    """A copy of a weighted ``reel`` whose stops showing ``symbol`` weigh ``total`` in all.

    The total is shared over the symbol's stops as evenly as possible, the first stops taking
    the remainder; other stops keep their weights. An unweighted reel is treated as all
    weights 1.

    Raises
    ------
    ValueError
        When the symbol is not on the reel; a :class:`~slotmath.errors.RuleError` when
        ``total`` is not a whole number >= 0 or every weight would be 0 (the reel's rules).

    Examples
    --------
    >>> r = Reel(("A", "X", "A", "X"), (1, 3, 1, 3))
    >>> with_symbol_weight(r, "A", 5).weights
    (3, 3, 2, 3)
    """
    rules.check_whole(total, "total weight", 0)
    stops = [p for p, s in enumerate(reel.symbols) if s == symbol]
    if not stops:
        raise ValueError(f"symbol {symbol!r} is not on the reel; add a stop with with_symbol_count")
    weights = list(reel.stop_weights)
    share, extra = divmod(total, len(stops))
    for k, p in enumerate(stops):
        weights[p] = share + (1 if k < extra else 0)
    return _edited_reel(reel.symbols, tuple(weights))


def _edited_reel(symbols: tuple[str, ...], weights: tuple[int, ...] | None) -> Reel:
    """The new reel, built (and so checked by the reel's rules); a refusal names the edit."""
    try:
        return Reel(symbols, weights)
    except RuleError as err:
        raise err.about("edited reel") from None


def replace_reel(game: Game, reel_set: str, index: int, reel: Reel) -> Game:
    """A copy of ``game`` with reel ``index`` (0 = reel 1) of ``reel_set`` replaced.

    Raises
    ------
    RuleError
        (a ``ValueError``) When the reel shows a symbol the game does not declare (the
        game's rule, :func:`slotmath.model.rules.check_reel_sets`).

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/classic_fruits.toml")
    >>> reel = with_symbol_count(g.base.reels[1], "W", 4)
    >>> symbol_count(replace_reel(g, "base", 1, reel).base.reels[1], "W")
    4
    >>> replace_reel(g, "base", 1, Reel(("W", "Q")))
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: reels.base[1][1]: symbol 'Q' is not declared in [symbols]
    """
    reels = list(game.reel_sets[reel_set].reels)
    reels[index] = reel
    return game.replace_reels(reel_set, tuple(reels))


# -- jackpots and the wheel ----------------------------------------------------------------------


def with_jackpot(game: Game, name: str, **changes) -> Game:
    """A copy of ``game`` with jackpot ``name`` changed (seed, contribution, reserve_fraction,
    law, parameters, level_factors).

    The new jackpot and game are checked by the model's rules, the same the loader applies
    to a game file (:mod:`slotmath.model.rules`, :mod:`slotmath.model.hit_laws`): a refused
    change raises their :class:`~slotmath.errors.RuleError` (a ``ValueError``). Money is
    taken through its decimal text (``0.03`` is ``3/100``), law parameters and level factors
    as floats.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from slotmath.model.game import JackpotSpec
    >>> g = Game("g", (3,), 25, {}, {}, ways=True, jackpots=(JackpotSpec(
    ...     "MINOR", Fraction(50), Fraction(3, 125), Fraction(1, 10), "linear", {"rate": 1e-4}),))
    >>> with_jackpot(g, "MINOR", seed=80, contribution=0.03).jackpots[0].contribution
    Fraction(3, 100)
    >>> with_jackpot(g, "MINOR", law="saturating")
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: jackpot 'MINOR': rate: is not a parameter of the saturating law (it takes p_max and half)
    """
    from dataclasses import replace
    from fractions import Fraction

    from slotmath.model.game import _frozen_map

    spec = game.jackpot(name)
    allowed = {"seed", "contribution", "reserve_fraction", "law", "parameters", "level_factors"}
    unknown = set(changes) - allowed
    if unknown:
        raise ValueError(f"unknown jackpot field(s) {sorted(unknown)}: one of {sorted(allowed)}")
    for key in ("seed", "contribution", "reserve_fraction"):
        if key in changes:
            changes[key] = Fraction(str(changes[key]))
    changes["parameters"] = _frozen_map(
        {k: float(v) for k, v in changes.get("parameters", spec.parameters).items()})
    changes["level_factors"] = _frozen_map(
        {int(k): float(v) for k, v in changes.get("level_factors", spec.level_factors).items()})
    new = replace(spec, **changes)  # the jackpot's rules
    jackpots = tuple(new if j.name == name else j for j in game.jackpots)
    return replace(game, jackpots=jackpots)  # the game's: contributions together


def with_wheel_weights(game: Game, weights) -> Game:
    """A copy of ``game`` whose bonus wheel's coin divisions have ``weights`` (whole numbers,
    one per coin division, not all zero: the wheel's rules,
    :func:`slotmath.model.rules.check_wheel_weights`; whole floats are taken as ints).

    Examples
    --------
    >>> from fractions import Fraction
    >>> from slotmath.model.game import BonusWheel
    >>> g = Game("g", (3, 3, 3), 5, {}, {}, paylines=((1, 1, 1),), bonus_wheel=BonusWheel(
    ...     "B", 3, "once", (Fraction(1), Fraction(3)), (1, 1)))
    >>> with_wheel_weights(g, [3, 1]).bonus_wheel.mean
    Fraction(3, 2)
    >>> with_wheel_weights(g, [3, -1])
    Traceback (most recent call last):
    ...
    slotmath.errors.RuleError: bonus wheel: weights[1]: must be >= 0, got -1
    """
    from dataclasses import replace

    wheel = game.bonus_wheel
    if wheel is None:
        raise ValueError(f"{game.name} has no bonus wheel")
    weights = tuple(int(w) if isinstance(w, float) and w.is_integer() else w for w in weights)
    try:
        new = replace(wheel, weights=weights)
    except RuleError as err:
        raise err.about("bonus wheel") from None
    return replace(game, bonus_wheel=new)
