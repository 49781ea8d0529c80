"""GLI-11's odds rule for the solver: every advertised award at least once in 100 million games.

The awards and their odds are the compliance check's own (:func:`slotmath.report.compliance.check`
with rule set ``gli11``), not a second definition: its three GLI-11 4.8.2 rows, i.e. every
advertised pay-table entry (lines or ways hits and scatter pays, expected occurrences per paid
game, the free spins' included), the top award of the paid spin, and entry to each feature,
each at every bet level (a subject offered at several levels counts at its rarest). An award
meets the rule when ``rate x limit >= 1`` exactly (``limit`` = 100,000,000 by default, the
check's ``gli11.games``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from slotmath.model.game import Game
from slotmath.report.compliance import LIMITS, check

__all__ = ["GLI11_GAMES", "Awards", "awards"]

#: GLI-11 4.8.2: every advertised award at least once in this many games
GLI11_GAMES = int(LIMITS["gli11.games"].default)


@dataclass(frozen=True)
class Awards:
    """Every advertised award's exact rate per paid game (``rates``: subject -> Fraction, or a
    float where the check's figure is numerical) and the rule's ``limit`` (games)."""

    rates: dict
    limit: int = GLI11_GAMES
    #: True when the rates are the window tables' (:mod:`slotmath.tune.fast_awards`), not a
    #: compliance check's
    fast: bool = False

    def meets(self, subject: str) -> bool:
        return Fraction(self.rates[subject]) * self.limit >= 1

    @property
    def failing(self) -> frozenset[str]:
        """The awards rarer than 1 in ``limit`` games."""
        return frozenset(s for s in self.rates if not self.meets(s))

    @property
    def rarest(self) -> tuple[str, Fraction] | None:
        """(subject, rate) of the rarest award (the first in the check's order on a tie)."""
        if not self.rates:
            return None
        subject = min(self.rates, key=lambda s: self.rates[s])
        return subject, self.rates[subject]

    @property
    def shortfall(self) -> Fraction:
        """How far the rule is from being met: over the failing awards, ``1 - rate x limit``
        added up (each in (0, 1]; 0 when every award meets it)."""
        return sum((1 - Fraction(self.rates[s]) * self.limit for s in self.failing),
                   Fraction(0))


def one_in(rate) -> str:
    """``1 in N`` of a rate, as the summary prints it.

    Examples
    --------
    >>> one_in(Fraction(1, 425782656)), one_in(Fraction(2, 7)), one_in(0)
    ('1 in 425,782,656', '1 in 3.5', 'never')
    """
    if not rate:
        return "never"
    n = 1 / Fraction(rate)
    return f"1 in {float(n):,.0f}" if n >= 1000 else f"1 in {float(n):,.1f}"


def awards(game: Game, limit: int = GLI11_GAMES,
           levels: Iterable[int] | None = None) -> Awards:
    """The advertised awards of ``game`` and their rates per game, as the compliance check's
    GLI-11 rows give them (at ``levels``, default every bet level; a fresh analysis of
    ``game``, none of the solver's tables).

    Examples
    --------
    >>> import slotmath
    >>> a = awards(slotmath.load_game("data/games/ways_243.toml"))
    >>> a.rarest, sorted(a.failing)
    (('top award 243 x bet', Fraction(1, 425782656)), ['top award 243 x bet'])
    """
    report = check(game, ["gli11"], levels=levels, limits={"gli11.games": limit})
    rates: dict = {}
    for f in report.findings:
        if f.value is None:  # "the game has no feature to enter"
            continue
        rate = Fraction(f.probability) if f.probability is not None else f.value
        rates[f.subject] = min(rates.get(f.subject, rate), rate)
    return Awards(rates, int(limit))
