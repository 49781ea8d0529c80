"""Pay anywhere: each symbol pays by how many times it shows anywhere in the window (a count
pays the entry of the highest listed count it reaches: 8-9, 10-11, 12+).

A feature of kind ``owner`` (see :mod:`slotmath.features.megaways`); its analysis is
:class:`slotmath.features.grid.GridGame`. Exact: the paid spin without tumbles by symbol-count
laws (:mod:`slotmath.exact.grid_anywhere`: the RTP by linearity, the whole law where the joint
count state fits); tumbles by enumeration or the random-refill chain where they fit.

>>> import slotmath
>>> FEATURE.present(slotmath.load_game("tests/data/grid/anywhere_tiny.toml"))
True
"""

from slotmath.features.grid import owner_feature

__all__ = ["FEATURE"]

FEATURE = owner_feature("anywhere_pays", "anywhere", "Pay anywhere")
