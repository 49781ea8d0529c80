"""What a game mode IS: frozen dataclasses, no numerics (``[modes.NAME]`` in a game file,
docs/game-format.md "Game modes").

A game offers its paid round in the standard way (cost 1 total bet, the paid spin on the
``base`` reels) and, optionally, in named modes. A mode costs ``cost`` total bets per round
and changes how the round starts:

* ``reels``: the paid spin plays this reel set instead of ``base`` (an ante bet whose reels
  show the trigger symbols more often); everything else is the game's;
* ``buys`` with ``trigger``: a bonus buy. There is no paid spin (it pays nothing); the round
  is the feature ``buys`` names (a game-file section that starts a round feature:
  ``free_spins`` or ``hold_and_win``), started as if the paid spin had shown ``count``
  trigger symbols, ``count`` drawn from ``trigger`` (count -> whole weight), e.g. 3, 4 or 5
  scatters weighted ``{ 3 = 80, 4 = 15, 5 = 5 }``.

A mode's RTP is its round's expected win over its ``cost``; its win amounts (distribution,
top award, max win) stay in total bets of the game's bet.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

__all__ = ["BUYABLE", "Mode"]

#: The game-file sections a bonus buy can start (each starts a round feature by a count).
BUYABLE = ("free_spins", "hold_and_win")


@dataclass(frozen=True)
class Mode:
    """One game mode (see the module notes); ``name`` is its table's name in the file.

    Examples
    --------
    >>> buy = Mode("buy", Fraction(100), buys="free_spins", trigger=((3, 8), (4, 2)))
    >>> buy.trigger_probabilities
    {3: Fraction(4, 5), 4: Fraction(1, 5)}
    >>> Mode("ante", Fraction(5, 4), reels="ante").buys is None
    True
    """

    name: str
    cost: Fraction
    reels: str | None = None
    buys: str | None = None
    trigger: tuple[tuple[int, int], ...] = ()
    description: str = ""

    def __post_init__(self):
        from slotmath.model import rules
        rules.check_mode(self)

    @property
    def trigger_probabilities(self) -> dict[int, Fraction]:
        """P(the bought feature starts with each count), exactly."""
        total = sum(w for _, w in self.trigger)
        return {k: Fraction(w, total) for k, w in self.trigger if w}
