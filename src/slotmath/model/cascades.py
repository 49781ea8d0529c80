"""Cascades (tumbles) and frozen bonus symbols: what the game IS, as frozen dataclasses.

A cascading spin evaluates its window, removes the winning positions, lets the survivors fall
and refills the gaps (from the strip above the window, or by a per-reel weight table), until a
drop wins nothing. The multiplier of drop ``k`` (``k = 0`` is a spin's first drop) is
:meth:`MultiplierRule.value`. Frozen bonus symbols sit one above each reel and are freed by
``threshold`` winning symbols or scatters on their reel; a freed symbol turns its reel wild or
splits its positions (ways games). The rule text both the engine and its references follow is
in ``docs/game-format.md`` (section "Cascades").
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import permutations

from slotmath.model import rules

__all__ = ["BonusEffect", "BonusSymbols", "Cascades", "MultiplierRule"]


@dataclass(frozen=True)
class MultiplierRule:
    """The multiplier of cascade index ``k``: ``start + step*k`` (at most ``max``), or
    ``ladder[min(k, len - 1)]``.

    Examples
    --------
    >>> MultiplierRule(start=1, step=1).value(3)
    4
    >>> MultiplierRule(ladder=(1, 2, 3, 5)).value(9)
    5
    """

    start: int = 1
    step: int = 0
    max: int | None = None
    ladder: tuple[int, ...] | None = None

    def __post_init__(self):
        rules.check_multiplier_rule(self)

    def value(self, k: int) -> int:
        if self.ladder is not None:
            return self.ladder[min(k, len(self.ladder) - 1)]
        v = self.start + self.step * k
        return v if self.max is None else min(v, self.max)

    @property
    def linear(self) -> bool:
        """``start + step*k`` without a ceiling: the value is affine in the index forever."""
        return self.ladder is None and self.max is None

    @property
    def saturation(self) -> int:
        """The smallest index from which the value never changes (``None``: it grows forever)."""
        if self.ladder is not None:
            return len(self.ladder) - 1
        if self.step == 0:
            return 0
        if self.max is None:
            return None
        return max(0, -(-(self.max - self.start) // self.step))


@dataclass(frozen=True)
class Cascades:
    """How a spin cascades: the refill mode and the multiplier rules.

    ``refill_weights[set][reel]`` maps symbol -> weight (random refill only).
    ``carry_multiplier``: free spins start at the index the trigger spin ended on and never
    reset it between spins (needs a linear rule in free spins).
    ``scatters``: ``"final"`` (scatters stay and pay on the final window) or ``"every_fall"``
    (each fall whose scatters pay or award spins counts as a win: they pay, are removed with
    the line/ways winners, and the chain goes on); ``scatter_multiplied``: with
    ``"every_fall"``, the scatter pay is multiplied by the fall's cascade multiplier.
    """

    refill: str = "strip"
    multiplier: MultiplierRule = field(default_factory=MultiplierRule)
    free_multiplier: MultiplierRule | None = None
    carry_multiplier: bool = False
    refill_weights: Mapping[str, tuple[Mapping[str, int], ...]] = field(
        default_factory=dict)
    scatters: str = "final"
    scatter_multiplied: bool = False

    def __post_init__(self):
        rules.check_cascades(self)

    def rule(self, free: bool) -> MultiplierRule:
        """The multiplier rule of a paid spin (``free=False``) or a free spin."""
        if free and self.free_multiplier is not None:
            return self.free_multiplier
        return self.multiplier


@dataclass(frozen=True)
class BonusEffect:
    """What a freed bonus symbol does to its reel: ``wild`` (the wild every non-scatter
    position becomes) or ``split`` (each non-scatter position counts this many ways)."""

    name: str
    wild: str | None = None
    split: int = 1

    def __post_init__(self):
        rules.check_bonus_effect(self)


@dataclass(frozen=True)
class BonusSymbols:
    """Frozen bonus symbols, one above each reel, drawn each spin.

    ``arrangements``: (weight, symbols per reel). With ``shuffle`` each distinct ordering of a
    drawn arrangement over the reels is equally likely; otherwise ``symbols[r]`` is above reel
    ``r``.
    """

    effects: Mapping[str, BonusEffect]
    arrangements: tuple[tuple[int, tuple[str, ...]], ...]
    threshold: int = 3
    accumulate: bool = True
    shuffle: bool = True

    def __post_init__(self):
        rules.check_bonus_symbols(self)

    def orderings(self) -> tuple[tuple[int, tuple[str, ...]], ...]:
        """Every placement over the reels with an integer weight: the law of the bonus
        symbols of one spin (weights sum to :attr:`total_weight`).

        Examples
        --------
        >>> b = BonusSymbols({"W2": BonusEffect("W2", split=2), "BW": BonusEffect("BW", wild="W")},
        ...                  ((1, ("W2", "W2", "BW")), (3, ("BW", "BW", "BW"))))
        >>> b.orderings()
        ((1, ('W2', 'W2', 'BW')), (1, ('W2', 'BW', 'W2')), (1, ('BW', 'W2', 'W2')), (9, ('BW', 'BW', 'BW')))
        """
        placed = []
        for weight, symbols in self.arrangements:
            if self.shuffle:
                distinct = sorted(set(permutations(symbols)), key=_order_key(symbols))
            else:
                distinct = [tuple(symbols)]
            placed.append((weight, distinct))
        lcm = math.lcm(*(len(d) for _, d in placed))
        return tuple((w * lcm // len(d), p) for w, d in placed for p in d)

    @property
    def total_weight(self) -> int:
        return sum(w for w, _ in self.orderings())

    def probability(self, reel: int, effect: str) -> Fraction:
        """P(the bonus symbol above ``reel`` is ``effect``) on one spin."""
        hit = sum(w for w, p in self.orderings() if p[reel] == effect)
        return Fraction(hit, self.total_weight)


def _order_key(symbols):
    first = {s: i for i, s in reversed(list(enumerate(symbols)))}
    return lambda p: tuple(first[s] for s in p)
