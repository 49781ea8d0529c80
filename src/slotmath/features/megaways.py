"""Megaways: a ways game whose reels show a random number of rows each spin (a weighted law of
heights per reel), with an optional horizontal top reel over some middle reels.

A feature of kind ``owner`` (it plays the whole round: the tumbles, the multiplier symbols, the
free spins and the max-win cap of the game). Its analysis, exact or simulated, is
:class:`slotmath.features.grid.GridGame`; the rules and the spin order are in
docs/game-format.md, "Grid games". Exact: the paid spin without tumbles by a reel-by-reel
programme over (stop, height) (:mod:`slotmath.exact.grid_ways`); the whole round by full-cycle
enumeration where it fits. Simulator counterpart: :func:`slotmath.simulate.grid.simulate_grid`.

>>> import slotmath
>>> FEATURE.present(slotmath.load_game("tests/data/grid/megaways_tiny.toml"))
True
"""

from slotmath.features.grid import owner_feature

__all__ = ["FEATURE"]

FEATURE = owner_feature("megaways", "ways", "Megaways")
