"""Tumbles in a grid game: the winning cells go, the survivors fall, the gaps refill from the
strip above the window or at random from per-reel weights, until a drop wins nothing; each
drop's win is multiplied by the drop multiplier of its index (growing, in Megaways free spins,
without limit when it carries over).

A feature of kind ``part``: played inside the round of its game's owner
(:mod:`slotmath.features.grid`), which gives its figures: the RTP of the later drops
(``analysis.features["tumbles"].rtp``) and the law of the drops a paid spin wins.

>>> import slotmath
>>> FEATURE.present(slotmath.load_game("tests/data/grid/random_tiny.toml"))
True
"""

from slotmath.features.grid import part_feature

__all__ = ["FEATURE"]

FEATURE = part_feature("tumbles", "Tumbles", lambda game: game.grid is not None
                       and game.tumbles is not None)
