"""Free spins that carry a state from spin to spin (``[free_spins.expanding_symbol]``,
``[free_spins.sticky_wilds]``, ``[free_spins.collector]``): what the game IS.

The feature's chain runs over (spins left, spins awarded, state); the state is one of:

* :class:`ExpandingSymbol` (Book of Ra / Dead): one symbol, drawn by weight when the feature
  starts and kept to its end. A free spin pays as usual; then, when the drawn symbol shows on
  at least as many reels as its smallest line pay needs, it expands to fill each reel it
  shows on and pays on every payline for the number of reels it covers (anywhere, not from
  reel 1: adjacency does not matter), times the free-spin multiplier.
* :class:`StickyWilds` (The Dog House): a wild of ``symbols`` landing in a free spin stays on
  its cell to the end of the feature (its own multiplier with it); the state is the set of
  sticky cells and the wild on each.
* :class:`Collector` (Big Bass): each ``cash`` symbol in a free spin's window carries a value
  in total bets, drawn by weight, independently per symbol; every ``collector`` symbol in the
  window collects the sum of all of them, times the ladder's multiplier. Every ``every``
  collectors collected (counted over the feature) move the ladder one level up and award
  ``retrigger`` more spins, for ``len(ladder)`` levels at most.

The rules on their values are :func:`slotmath.model.rules.check_expanding_symbol`,
:func:`~slotmath.model.rules.check_sticky_wilds`, :func:`~slotmath.model.rules.check_collector`
(each object's own) and :func:`~slotmath.model.rules.check_free_spin_state_in_game` (what they
name in their game). The rule text the engine and its references follow is in
``docs/game-format.md``, "Free spins with a state".
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from slotmath.model import rules

__all__ = ["STATE_KINDS", "Collector", "ExpandingSymbol", "StickyWilds", "cells_law"]


@dataclass(frozen=True)
class ExpandingSymbol:
    """The expanding symbol, drawn from ``symbols`` ((name, weight), ...) when the feature
    starts.

    Examples
    --------
    >>> ExpandingSymbol((("A", 3), ("K", 1))).probability("A")
    Fraction(3, 4)
    """

    symbols: tuple[tuple[str, int], ...]
    kind = "expanding_symbol"

    def __post_init__(self):
        rules.check_expanding_symbol(self)

    @property
    def total_weight(self) -> int:
        return sum(w for _, w in self.symbols)

    def probability(self, name: str) -> Fraction:
        """Chance that ``name`` is the feature's expanding symbol."""
        return Fraction(sum(w for s, w in self.symbols if s == name), self.total_weight)


@dataclass(frozen=True)
class StickyWilds:
    """The wild symbols (``symbols``) that stick where they land in free spins; each keeps
    its own ``multiplier``.

    Examples
    --------
    >>> StickyWilds(("W2", "W3")).symbols
    ('W2', 'W3')
    """

    symbols: tuple[str, ...]
    kind = "sticky_wilds"

    def __post_init__(self):
        rules.check_sticky_wilds(self)


#: what the collector's ladder multiplier applies to
COLLECTOR_APPLIES = ("collected", "all")


@dataclass(frozen=True)
class Collector:
    """Cash symbols collected by a collector symbol, with a multiplier ladder.

    Parameters
    ----------
    cash : tuple of str
        The symbols that carry a value.
    values : tuple of (Fraction, int)
        Each value in total bets and its weight; drawn independently for each cash symbol
        shown.
    collector : str
        The symbol that collects (a wild of the game).
    every : int
        Collectors collected per level of the ladder.
    retrigger : int
        Spins awarded at each level reached (0: none).
    ladder : tuple of int
        The multiplier at level 1, 2, ... (level 0, the start, is x1); its length is the
        number of levels (a collector past the last one still collects, at the top level).
    applies : str
        ``"collected"`` (the ladder multiplies collected values only) or ``"all"`` (every
        win of the spin).

    Examples
    --------
    >>> c = Collector(("F",), ((Fraction(2), 3), (Fraction(5), 1)), "W", 4, 10, (2, 3, 10))
    >>> c.level(0), c.level(5), c.level(99), c.multiplier(2), c.mean_value
    (0, 1, 3, 3, Fraction(11, 4))
    """

    cash: tuple[str, ...]
    values: tuple[tuple[Fraction, int], ...]
    collector: str
    every: int = 4
    retrigger: int = 10
    ladder: tuple[int, ...] = (2, 3, 10)
    applies: str = "collected"
    kind = "collector"

    def __post_init__(self):
        rules.check_collector(self)

    @property
    def levels(self) -> int:
        return len(self.ladder)

    @property
    def top(self) -> int:
        """Collectors counted at most (past it the ladder cannot move)."""
        return self.every * self.levels

    def level(self, collected: int) -> int:
        """The ladder's level after ``collected`` collectors."""
        return min(collected // self.every, self.levels)

    def multiplier(self, level: int) -> int:
        """The ladder's multiplier at ``level`` (1 at level 0)."""
        return 1 if level == 0 else self.ladder[level - 1]

    @property
    def total_weight(self) -> int:
        return sum(w for _, w in self.values)

    @property
    def mean_value(self) -> Fraction:
        """Expected value of one cash symbol, in total bets."""
        return sum((v * w for v, w in self.values), Fraction(0)) / self.total_weight


STATE_KINDS = ("expanding_symbol", "sticky_wilds", "collector")


def cells_law(cells: int, cell: dict[int, int]) -> dict[int, int]:
    """The law of the spins awarded by ``cells`` cells revealed on the trigger, each showing
    ``k`` spins with weight ``cell[k]``, independently: their sum, ``{spins: weight}`` (weights
    over ``total ** cells``).

    Examples
    --------
    >>> cells_law(2, {1: 1, 2: 1})
    {2: 1, 3: 2, 4: 1}
    """
    law = {0: 1}
    for _ in range(cells):
        out: dict[int, int] = {}
        for a, wa in law.items():
            for b, wb in cell.items():
                if wb:
                    out[a + b] = out.get(a + b, 0) + wa * wb
        law = out
    return dict(sorted(law.items()))
