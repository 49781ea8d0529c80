"""What the base-game modifiers ARE: frozen dataclasses, no numerics (``[modifiers]`` in a game
file, docs/game-format.md "Modifiers").

A modifier acts on the paid spin's window after the reels stop and before it is evaluated.
At most one modifier acts on a paid spin: modifier ``m`` with probability ``frequency``, none
with ``1 - sum(frequencies)``; which one acts is independent of the stops. Two kinds:

* ``place`` (Dynamite: wilds; Pickaxe: cash symbols): a count ``k`` is drawn from ``counts``
  (weights), then ``k`` of the window's positions on ``reels`` (reel numbers from 1; empty:
  every reel) are chosen uniformly without replacement (every ``k``-subset of those
  ``cells`` equally likely, ``1 / C(cells, k)``); each chosen position shows ``symbol`` for
  this spin, except a position showing one of ``keep`` (e.g. a scatter the wild does not
  replace), which keeps its symbol.
* ``upgrade`` (TNT): one symbol of ``to`` is drawn (weights); every position of the window
  showing a symbol of ``from_symbols`` shows it for this spin.

The modified window is evaluated by the game's own rules (lines or ways, scatters), and its
cash symbols and trigger symbols count for a hold & win or free-spin trigger like any others.
A modifier with ``in_free_spins`` also acts on every free spin, with the same frequency and
law (at most one modifier per free spin, among those that act there).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

__all__ = ["MODIFIER_KINDS", "Modifier", "Modifiers"]

#: The kinds of modifier the format knows.
MODIFIER_KINDS = ("place", "upgrade")


@dataclass(frozen=True)
class Modifier:
    """One modifier; ``name`` is its table's name in the file (e.g. ``dynamite``).

    ``counts``: ((k, weight), ...) for ``place``; ``to``: ((symbol, weight), ...) for
    ``upgrade``; ``reels``: the reels (numbered from 1) whose positions a ``place`` modifier
    may choose, every reel when empty.
    """

    name: str
    kind: str
    frequency: Fraction
    symbol: str = ""
    counts: tuple[tuple[int, int], ...] = ()
    keep: tuple[str, ...] = ()
    from_symbols: tuple[str, ...] = ()
    to: tuple[tuple[str, int], ...] = ()
    reels: tuple[int, ...] = ()
    in_free_spins: bool = False  # it also acts on every free spin, at the same frequency

    def __post_init__(self):
        from slotmath.model import rules
        rules.check_modifier(self)

    def on_reel(self, j: int) -> bool:
        """Whether a ``place`` modifier may choose positions on reel ``j`` (0-based).

        >>> m = Modifier("d", "place", 1, symbol="W", counts=((1, 1),), reels=(2, 3))
        >>> [m.on_reel(j) for j in range(4)]
        [False, True, True, False]
        """
        return not self.reels or j + 1 in self.reels

    @property
    def total_weight(self) -> int:
        """The sum of its law's weights (counts or to)."""
        return sum(w for _, w in (self.counts if self.kind == "place" else self.to))


@dataclass(frozen=True)
class Modifiers:
    """The game's modifiers, at most one per paid spin (frequencies sum to at most 1)."""

    modifiers: tuple[Modifier, ...]

    def __post_init__(self):
        from slotmath.model import rules
        rules.check_modifiers(self)

    @property
    def none_probability(self) -> Fraction:
        """P(no modifier acts on a paid spin)."""
        return 1 - sum((m.frequency for m in self.modifiers), Fraction(0))

    def __iter__(self):
        return iter(self.modifiers)
