"""The RTP and its components alone, from less than a whole analysis (issue 25: a strip move on
a game with base-game modifiers shows its exact RTP at once).

A base-game modifier's joint table (every line's win with every chosen set of positions) is
what :func:`slotmath.analyze` recomputes after a strip move: tens of seconds on Gus's Gold
Christmas. The RTP reads only each modifier's mean and the law of what the round features
count, which :mod:`slotmath.exact.modifier_means` computes from per-reel laws in
milliseconds; the rest of the composition (the plain spin's table, the round features) is the
analysis' own. The figures are the same numbers :func:`slotmath.analyze` gives (tests compare
them exactly); what needs the joint law (the distribution, SD, hit frequency) is refused, not
approximated (:class:`~slotmath.exact.spin_table.MeansOnly`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from slotmath.exact.spin_table import MeansOnly
from slotmath.features.composition import Composition
from slotmath.model.game import Game

__all__ = ["RTPFigures", "rtp_only"]


@dataclass(frozen=True)
class RTPFigures:
    """What :func:`rtp_only` gives: the RTP, its error bound (0 when exact), its components
    (adding up to it) and whether they are exact fractions; as
    :class:`~slotmath.analysis.Analysis` has them."""

    rtp: Fraction | float
    rtp_error: float
    components: dict
    exact: bool

    rtp_float = property(lambda self: float(self.rtp))


def rtp_only(game: Game, level: int = 1, mode: str | None = None) -> RTPFigures:
    """The RTP of ``game`` and its components, the same figures as :func:`slotmath.analyze`'s, from
    less: a base-game modifier gives its spin's mean and the law of what the round features
    count (:mod:`slotmath.exact.modifier_means`), not the joint table a distribution, SD or
    hit frequency reads (tens of seconds on Gus's Gold Christmas after a strip move; this
    takes well under one). On a game without modifiers it computes what :func:`analyze`
    would for the RTP; where a feature reads more than a modified spin's mean (a modifier
    that also acts inside the free spins, whose chain reads the spin's law), the whole
    analysis' figures (as slow as it is; never a figure from the means there).

    Examples
    --------
    >>> import slotmath
    >>> g = slotmath.load_game("data/games/tiny_lines.toml")
    >>> rtp_only(g).rtp == slotmath.analyze(g).rtp
    True
    """
    game.check_level(level)
    spec = None if mode is None else game.mode(mode)
    tables: dict = {}  # the engine's plain tables, made once for both compositions
    try:
        c = Composition(game, level, None, spec, tables, means=True)
        return RTPFigures(c.rtp, c.rtp_error, c.components, c.exact)
    except MeansOnly:  # a feature reads a modified spin's whole law (a modifier that also
        # acts inside free spins: their chain reads its spin table): the whole analysis
        c = Composition(game, level, None, spec, tables)
        return RTPFigures(c.rtp, c.rtp_error, c.components, c.exact)
