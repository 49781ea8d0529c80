"""Cluster pays: a symbol pays per cluster of adjacent cells showing it or a wild (sides only,
or corners too), by the cluster's size.

A feature of kind ``owner`` (see :mod:`slotmath.features.megaways`); its analysis is
:class:`slotmath.features.grid.GridGame`: exact by enumeration (or the random-refill chain)
where the estimate allows, otherwise simulated.

>>> import slotmath
>>> FEATURE.present(slotmath.load_game("tests/data/grid/cluster_tiny.toml"))
True
"""

from slotmath.features.grid import owner_feature

__all__ = ["FEATURE"]

FEATURE = owner_feature("cluster_pays", "cluster", "Cluster pays")
