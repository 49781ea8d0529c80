"""Multiplier symbols in a grid game: they land with a value drawn from a weighted table, stay
through the tumbles, and multiply the tumble sequence's win by their sum (or product); in free
spins the total may accumulate over the feature's spins.

A feature of kind ``part``: played inside the round of its game's owner
(:mod:`slotmath.features.grid`), which gives its figures: what they add to the RTP
(``analysis.features["multiplier_symbols"].rtp``).

>>> import slotmath
>>> FEATURE.present(slotmath.load_game("tests/data/grid/anywhere_tiny.toml"))
False
"""

from slotmath.features.grid import part_feature

__all__ = ["FEATURE"]

FEATURE = part_feature("multiplier_symbols", "Multiplier symbols",
                       lambda game: game.grid is not None and game.multipliers is not None)
