"""What a hold & win (cash collect, link respins) feature IS: frozen dataclasses, no numerics.

The mechanic (``[hold_and_win]`` in a game file, see docs/game-format.md):

* ``trigger`` or more of the cash ``symbol`` in the paid window start ``respins`` respins on a
  grid of the game's reels x ``rows`` rows; those cash symbols stay held.
* On every respin each empty open position lands a cash symbol with ``cash_probability``
  (independently of the others and of everything else); a cash symbol that lands sticks and
  resets the respins to the current count. The round ends when the respins run out or every
  open position is held.
* Each cash symbol shows a value drawn from the value law (``value_weights`` over ``values``,
  in total bets), independently of its position and of everything else, so the number held is
  the chain's sufficient statistic and values enter by linearity.
* Boosters (each optional): on every respin one gem of a kind lands with its ``probability``;
  ``collect`` gems of a kind fire the booster (``rows``: one more row open, up to
  ``max_rows``; ``values``: every held value steps one rung up the ladder, at most ``times``
  per round and never past ``ceiling``; ``respins``: ``extra`` respins now and on every later
  reset, at most ``times`` per round; ``multiplier``: the next factor of ``ladder`` applies to
  the round's final win).
* ``full_grid_prize`` (total bets, optional) is added when the round ends with every open
  position held; the multiplier applies to it too.
* ``top_award`` (total bets, optional) is the game's advertised top award, defined as a
  round paying at least this much; the analysis reports its probability per paid round.
* ``in_free_spins`` (optional, false): ``trigger`` or more cash symbols in a free spin's
  window start the same round inside the free spins (a Link-style game); its win is added
  to that free spin's, not multiplied by the free-spin multiplier.
* ``named_values`` (optional): names of some values (a Link game's fixed jackpots, e.g.
  ``{ MINI = 20, MINOR = 50 }``), each one of ``values``; ``full_grid_name`` names the
  full-grid prize (e.g. ``"GRAND"``). Names only: the maths is the same; the reports give
  each named value's and the full grid's odds per paid round. Not with a ``values`` booster
  (a stepped value would no longer be the one named).

The order within one respin (a modelling choice, documented in the file format): the gems
land and their boosters act first, then the cash symbols land on the open empty positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

__all__ = ["BOOSTER_KINDS", "Booster", "HoldAndWin"]

#: Booster kinds, in the order the chain reads them.
BOOSTER_KINDS = ("rows", "values", "respins", "multiplier")


@dataclass(frozen=True)
class Booster:
    """One booster: ``collect`` gems of its kind (each respin lands one with ``probability``)
    fire it, at most ``times`` per round.

    ``extra``: respins added per firing (kind ``respins``); ``ladder``: the multiplier after
    each firing (kind ``multiplier``; ``times`` is then its length).
    """

    kind: str
    probability: Fraction
    collect: int = 3
    times: int = 1
    extra: int = 1
    ladder: tuple[int, ...] = ()

    def __post_init__(self):
        from slotmath.model import rules
        rules.check_booster(self)


@dataclass(frozen=True)
class HoldAndWin:
    """A hold & win respin feature (see the module notes).

    Examples
    --------
    >>> h = HoldAndWin("CASH", 1, 3, Fraction(1, 10), (Fraction(1), Fraction(5)), (3, 1),
    ...                rows=1, max_rows=1, reels=2)
    >>> h.mean_value, h.capacity(0)
    (Fraction(2, 1), 2)
    """

    symbol: str
    trigger: int
    respins: int
    cash_probability: Fraction
    values: tuple[Fraction, ...]
    value_weights: tuple[int, ...]
    rows: int = 3
    max_rows: int = 3
    reels: int = 5
    boosters: tuple[Booster, ...] = ()
    ceiling: Fraction | None = None
    full_grid_prize: Fraction = Fraction(0)
    top_award: Fraction | None = None  # advertised top award: a round paying at least this
    in_free_spins: bool = False  # it also starts inside a free spin (a Link-style game)
    named_values: tuple[tuple[str, Fraction], ...] = ()  # (name, value): fixed jackpots
    full_grid_name: str | None = None  # the full-grid prize's name (e.g. "GRAND")

    def __post_init__(self):
        from slotmath.model import rules
        rules.check_hold_and_win(self)

    def booster(self, kind: str) -> Booster | None:
        """The booster of ``kind`` (None when the feature has none)."""
        return next((b for b in self.boosters if b.kind == kind), None)

    @property
    def top_index(self) -> int:
        """Ladder index a value step never passes (the highest value <= ``ceiling``)."""
        if self.ceiling is None:
            return len(self.values) - 1
        return max(i for i, v in enumerate(self.values) if v <= self.ceiling)

    @property
    def mean_value(self) -> Fraction:
        """Expected value of one cash symbol as it lands, in total bets."""
        total = sum(self.value_weights)
        return sum((v * w for v, w in zip(self.values, self.value_weights)),
                   Fraction(0)) / total

    def capacity(self, rows_added: int) -> int:
        """Open positions with ``rows_added`` extra rows."""
        return self.reels * (self.rows + rows_added)
